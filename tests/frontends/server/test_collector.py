"""The server's collector: young passes free new cycles, old cycles wait for the full pass, the thread runs them."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator

import pytest

from fogofwar.frontends.server.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: Node = self


def cycle() -> tuple[Node, weakref.ref[Node]]:
    node = Node()
    return node, weakref.ref(node)


@pytest.fixture
def no_automatic_collection() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@pytest.mark.usefixtures("no_automatic_collection")
def test_young_passes_free_new_cycles_and_the_full_pass_the_old_ones() -> None:
    collector = Collector(young=1.0, every=10.0)
    collector.last_full = 0.0
    node, fresh = cycle()
    del node
    assert collector.tick(1.0) == 1
    assert fresh() is None  # made since the last pass: freed by the young pass

    kept, old = cycle()
    assert collector.tick(2.0) == 1  # still referenced: it survives and is promoted to the oldest generation
    del kept
    assert collector.tick(3.0) == 1
    assert old() is not None  # garbage now, but a young pass does not look at the oldest generation
    assert collector.tick(10.0) == 2
    assert old() is None
    assert collector.tick(11.0) == 1  # the next full pass is `every` seconds after this one


def test_started_it_freezes_turns_automatic_collection_off_and_collects_on_its_thread() -> None:
    collector = Collector(young=0.01, every=None).start()
    try:
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0
        node, ref = cycle()
        del node
        deadline = time.monotonic() + 10
        while ref() is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ref() is None
    finally:
        collector.stop()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
