"""`fogofwar bench` with the batched simulator and several cores."""

from __future__ import annotations

import re

import pytest
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


def test_bench_vector_env_one_and_two_cores() -> None:
    pytest.importorskip("gymnasium", reason="gymnasium is not installed: pip install -e .[research]")
    result = runner.invoke(
        app,
        ["bench", "--engine", "vector", "--cores", "both", "--jobs", "2", "--seconds", "0.2", "--rounds", "1"]
        + ["-n", "1", "-n", "64", "-v", "barrage"],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "numba " in out and "2 cores" in out
    for size, how in (("1", "1 thread"), ("1", "2 processes"), ("64", "2 threads"), ("64", "2 processes")):
        assert re.search(rf"barrage\s+vector\s+N={size}\s+{how}\s+[\d,]+ env-steps/s\s+[\d,]+ moves/s", out), out
    assert "N=1     2 threads" not in out and re.search(r"N=64\s+2 py-threads", out)
