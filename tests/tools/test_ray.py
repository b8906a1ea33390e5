"""On a small local Ray instance (2 CPUs, no dashboard, shut down after), the arena and self-play give exactly what
the local process pool gives for the same seed, and the workers run this checkout's fogofwar, shipped to them."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from fogofwar.tools.arena import ArenaResult, ArenaSettings, run_arena, untimed
from fogofwar.tools.selfplay import SelfplaySettings, run_selfplay
from fogofwar.tools.workers import Workers, runtime_env

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -r requirements-research.txt)")

ARENA = ArenaSettings(
    players=["random", "heuristic", "novice"], games=2, seed=21, jobs=2, variant="barrage", max_moves=60
)
SELFPLAY = SelfplaySettings(players=["heuristic", "random"], games=4, seed=21, jobs=2, variant="barrage", max_moves=60)


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """A private instance ("local": never a cluster that RAY_ADDRESS names), bounded, shipping the package."""
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=100 * 1024 * 1024,
        runtime_env=runtime_env(),
        log_to_driver=False,
        logging_level=logging.WARNING,
    )
    try:
        yield
    finally:
        ray.shutdown()


def test_workers_run_the_shipped_package(ray_instance: None) -> None:
    """The workers import the fogofwar of this process as shipped by `runtime_env` (from Ray's copy, not from this
    checkout on a disk they happen to share, nor from an installed copy): the same source, another place."""

    def package() -> tuple[str, str]:  # nested, so pickled by value: it runs the worker's own import of fogofwar
        import hashlib
        from pathlib import Path

        import fogofwar

        root = Path(fogofwar.__file__).parent
        sha = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            sha.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
        return str(root), sha.hexdigest()

    where, digest = ray.get(ray.remote(package).remote())
    here, expected = package()
    assert digest == expected
    assert where != here


def _summary(result: ArenaResult) -> list[object]:
    games = [
        (g.pairing, g.index, g.red, g.blue, g.winner, g.termination, g.ending, g.moves, g.seed, g.error)
        for g in result.games
    ]
    records = [untimed(json.loads(g.record_json or "null")) for g in result.games]
    standings = [(s.name, s.wins, s.draws, s.losses, s.elo, s.elo_low, s.elo_high) for s in result.standings]
    return [games, records, standings]


def test_arena_on_ray_is_the_local_pools(ray_instance: None) -> None:
    local = run_arena(ARENA, progress=False)
    on_ray = run_arena(replace(ARENA, ray="auto"), progress=False)
    assert len(on_ray.games) == 6 and not on_ray.errors
    assert _summary(on_ray) == _summary(local)
    assert on_ray.to_json()["settings"]["ray"] == "auto"  # type: ignore[index]


def test_selfplay_on_ray_writes_the_same_files(ray_instance: None, tmp_path: Path) -> None:
    local = run_selfplay(SELFPLAY, tmp_path / "local", progress=False)
    on_ray = run_selfplay(replace(SELFPLAY, ray="auto"), tmp_path / "ray", progress=False)
    assert local.where == "2 local processes" and on_ray.where == "Ray (2 CPUs)"
    written = {p.relative_to(tmp_path / "local"): p.read_bytes() for p in (tmp_path / "local").rglob("*.*")}
    assert len(written) == 4 + 2
    assert written == {p.relative_to(tmp_path / "ray"): p.read_bytes() for p in (tmp_path / "ray").rglob("*.*")}


def test_a_worker_that_dies_fails_its_game_alone(ray_instance: None) -> None:
    """A worker that dies mid-job (after Ray's retries) is reported for that job; the others come back."""

    def exit_on_two(x: int) -> int:
        if x == 2:
            import os

            os._exit(1)
        return x

    with Workers(exit_on_two, jobs=2, ray="auto") as workers:
        results = dict(workers.start([1, 2, 3]))
    assert results[1] == 1 and results[3] == 3
    assert "ray:" in getattr(results[2], "message", "")
