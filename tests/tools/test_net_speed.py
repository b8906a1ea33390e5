"""benchmarks/net_speed.py: each shipped net timed as held and with its weights as stored, on the same planes."""

from __future__ import annotations

from types import ModuleType

import pytest
from tests.paths import ROOT

from fogofwar.games.stratego.agents.convnet import ConvNet, subnormal


@pytest.fixture
def speed(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import net_speed

    return net_speed


def test_the_twin_keeps_the_stored_subnormals_and_both_give_the_same_outputs(speed: ModuleType) -> None:
    rows = speed.timings(("policy_net.npz", "value_net.npz"), [2, 3], repeats=1)
    assert [(r.net, r.batch) for r in rows] == [(n, b) for n in ("policy_net.npz", "value_net.npz") for b in (2, 3)]
    assert all(r.same and r.held > 0 and r.stored > 0 and 0 < r.subnormal < r.weights for r in rows)
    held, twin, subnormal, _ = speed.stored_twin(speed.weights_path("policy_net.npz"))
    assert subnormals(twin) == subnormal and subnormals(held) == 0


def subnormals(net: ConvNet) -> int:
    return sum(int(subnormal(a).sum()) for pair in (*net.convs, net.head) for a in pair)
