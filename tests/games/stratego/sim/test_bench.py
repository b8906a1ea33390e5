"""`fogofwar bench` with the batched simulator and several cores."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from fogofwar.frontends.cli import app
from fogofwar.tools.bench import bench_parallel, jit_warmup, versions

runner = CliRunner()


def test_bench_both_engines_one_and_all_cores() -> None:
    result = runner.invoke(
        app, ["bench", "--engine", "both", "--cores", "both", "--jobs", "2", "--seconds", "0.3", "-v", "barrage"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "numba " in out and "numpy " in out and re.search(r"kernels (compiled|loaded from numba's cache)", out)
    for engine, cores in (
        ("reference", "1 core "),
        ("batched", "1 core "),
        ("reference", "2 cores"),
        ("batched", "2 cores"),
    ):
        assert re.search(rf"barrage\s+{engine}\s+{cores}\s*\d+ games\s+\d+ moves\s+[\d,]+ moves/s", out), out


def test_bench_rejects_unknown_engine() -> None:
    result = runner.invoke(app, ["bench", "--engine", "gpu", "--seconds", "0.1"])
    assert result.exit_code == 2


def test_parallel_batched_adds_up_workers() -> None:
    seconds, _ = jit_warmup("barrage")
    assert seconds >= 0
    res = bench_parallel("batched", "barrage", seconds=0.2, jobs=2)
    assert res.jobs == 2 and res.games > 0 and res.moves > res.games
    assert "numba" in versions()
