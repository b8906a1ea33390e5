"""Where a batch of independent games runs: this process, a pool of local processes, or a Ray cluster.

Each job is a pure function of its picklable argument (a game's task carries its own seed), so where it runs
changes the wall time and nothing else: the callers sort what comes back by the job's own key, and
`tests/tools/test_ray.py` checks that a Ray instance gives the same games as the local pool.

Ray is optional and imported only when asked for (`ray="auto"`, an address, or "local"). When this module
connects, it ships the `fogofwar` package of this process to the workers (Ray's `py_modules`), so that every
worker plays with the code the results are reported for, not with whatever copy the cluster has installed; the
rest (numpy, numba, an agent's own dependencies, modules given to `--preload`) must be installed on the
workers. A caller that has already called `ray.init` (a notebook, the tests) keeps its own connection and decides
itself what is shipped (`runtime_env()` gives the same shipment).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

RAY_HINT = "pip install ray (the pinned version is in requirements-research.txt)"
SHIP_EXCLUDES = ["__pycache__", "*.pyc", "*.nbi", "*.nbc"]
"""Left out of the package shipped to Ray workers: bytecode and numba's caches, built again where they run."""
WINDOW_PER_CPU = 2
"""Jobs in flight on a Ray cluster per CPU it has: enough to keep every worker busy, few enough that results do
not pile up in the object store."""


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster cannot be reached."""


@dataclass(frozen=True)
class Failed:
    """A job whose worker died or whose result did not come back (the job itself reports its own errors)."""

    message: str


def _message(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(exc)).strip() or type(exc).__name__


def runtime_env() -> dict[str, Any]:
    """Ray's runtime environment that ships this process's `fogofwar` package to the workers."""
    import fogofwar

    return {"py_modules": [str(Path(fogofwar.__file__).parent)], "excludes": list(SHIP_EXCLUDES)}


def import_ray() -> Any:
    """The `ray` module, or `ClusterError` that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ClusterError(f"--ray needs Ray, which is not installed: {RAY_HINT} ({exc})") from None
    return ray


class Workers(Generic[T, R]):
    """Runs `fn` over many arguments: in this process (`jobs` 1), in `jobs` local processes, or on Ray (`ray` set:
    "auto" for the cluster this machine belongs to, an address such as "ray://head:10001" or "head:6379", or
    "local" for a private instance of `jobs` CPUs, all cores when `jobs` is 1).

    Use as a context manager; `start` submits the first jobs (all of them to a local pool, whose workers are forked
    then, before the caller starts a progress bar's thread), and its iterator yields (argument, result or `Failed`)
    as the jobs finish, in no particular order."""

    def __init__(self, fn: Callable[[T], R], jobs: int = 1, ray: str | None = None) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.fn, self.jobs, self.ray_address = fn, jobs, ray
        self._pool: ProcessPoolExecutor | None = None
        self._ray: Any = None
        self._connected = False

    def __enter__(self) -> Workers[T, R]:
        if self.ray_address is not None:
            self._connect()
        elif self.jobs > 1:
            self._pool = ProcessPoolExecutor(max_workers=self.jobs)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._connected:
            self._ray.shutdown()
            self._connected = False

    @property
    def where(self) -> str:
        """Where the jobs run, for the reports: 'this process', 'N local processes' or 'Ray (N CPUs)'."""
        if self._ray is not None:
            return f"Ray ({self._cpus()} CPUs)"
        return f"{self.jobs} local processes" if self._pool is not None else "this process"

    def _connect(self) -> None:
        ray = import_ray()
        self._ray = ray
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {
            "address": self.ray_address,
            "runtime_env": runtime_env(),
            "log_to_driver": False,  # the workers' output would garble the progress bar; Ray keeps it in its logs
            "logging_level": logging.WARNING,
        }
        if self.ray_address == "local":
            kwargs["include_dashboard"] = False
            if self.jobs > 1:
                kwargs["num_cpus"] = self.jobs
        try:
            ray.init(**kwargs)
        except ConnectionError as exc:
            raise ClusterError(
                f"cannot reach a Ray cluster at {self.ray_address!r}: {exc} "
                "(start one with `ray start --head`, give its address, or use --ray local)"
            ) from None
        self._connected = True

    def _cpus(self) -> int:
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def start(self, args: Sequence[T]) -> Iterator[tuple[T, R | Failed]]:
        """Submit the jobs (see the class docstring) and return the iterator of their results."""
        if self._ray is not None:
            return self._run_ray(list(args))
        if self._pool is not None:
            futures = {self._pool.submit(self.fn, arg): arg for arg in args}
            return self._run_pool(futures)
        return ((arg, self.fn(arg)) for arg in args)

    @staticmethod
    def _run_pool(futures: dict[Future[R], T]) -> Iterator[tuple[T, R | Failed]]:
        for future in as_completed(futures):
            arg = futures.pop(future)  # so that a result is freed once it is handed on
            try:
                yield arg, future.result()
            except Exception as exc:  # the worker died or the result did not come back
                yield arg, Failed(f"worker: {_message(exc)}")

    def _run_ray(self, args: list[T]) -> Iterator[tuple[T, R | Failed]]:
        ray = self._ray
        remote = ray.remote(num_cpus=1)(self.fn)
        window = WINDOW_PER_CPU * self._cpus()
        waiting = iter(args)
        pending: dict[Any, T] = {}

        def submit(n: int) -> None:
            for arg in waiting:
                pending[remote.remote(arg)] = arg
                n -= 1
                if n <= 0:
                    return

        submit(window)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                arg = pending.pop(ref)
                try:
                    result: R | Failed = ray.get(ref)
                except Exception as exc:  # a RayError: the worker or its node died, the task could not run
                    result = Failed(f"ray: {_message(exc)}")
                submit(1)
                yield arg, result
