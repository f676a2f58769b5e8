"""Where parallel work runs: a local process pool or a dask.distributed cluster.

Both are returned as a :class:`concurrent.futures.Executor`, so callers (sweeps, strategy
evolution) submit picklable top-level functions and iterate ``as_completed`` the same way
whatever the engine.  Work units should be coarse (whole benches or chunks of puzzles):
workers build their own :class:`~evo_wordle.context.Context` (the pattern table is
memory-mapped, so that is cheap) and keep it for the life of the process.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
from typing import Any

from .errors import EvoWordleError

EXECUTORS = ("local", "dask")

_CONTEXTS: dict[tuple, Any] = {}


def worker_context(allowed: str | None = None, answers: str = "nyt"):
    """The :class:`~evo_wordle.context.Context` for these word lists, built once per worker process."""
    from .context import Context

    key = (allowed, answers)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        ctx = Context(allowed=allowed, answers=answers)
        _CONTEXTS[key] = ctx
    return ctx


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which cancels and terminates them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def terminate(executor: cf.Executor) -> None:
    """Stop at once: cancel queued work and kill running local workers (after Ctrl-C or an error).

    ``shutdown(wait=False)`` alone would let a long task finish before the interpreter exits.
    """
    if isinstance(executor, cf.ProcessPoolExecutor):
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
        for proc in processes:
            proc.join(timeout=5)
    else:
        executor.shutdown(wait=False, cancel_futures=True)


class DaskExecutor(cf.Executor):
    """A dask.distributed client's executor that also closes the client (and the local
    cluster it started, if any) on :meth:`shutdown`."""

    def __init__(self, client, cluster=None) -> None:
        self.client = client
        self.cluster = cluster
        self._inner = client.get_executor(pure=False)

    def submit(self, fn, /, *args, **kwargs) -> cf.Future:
        return self._inner.submit(fn, *args, **kwargs)

    def map(self, fn, *iterables, timeout=None, chunksize=1):
        return self._inner.map(fn, *iterables, timeout=timeout)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        try:
            self._inner.shutdown(wait=wait and not cancel_futures)
        finally:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise EvoWordleError(
            "--executor dask needs dask.distributed: pip install 'evo-wordle[dask]'"
        ) from None
    return distributed


def make_executor(kind: str = "local", jobs: int = 2, scheduler: str | None = None) -> cf.Executor:
    """A concurrent.futures executor of ``kind``.

    ``local``: a :class:`~concurrent.futures.ProcessPoolExecutor` with ``jobs`` processes.
    ``dask``: a dask.distributed client connected to ``scheduler`` (``tcp://host:8786``), or,
    without a scheduler, to a new ``LocalCluster`` of ``jobs`` single-threaded workers.
    Use it as a context manager so the pool or client is closed.
    """
    if kind == "local":
        if scheduler:
            raise EvoWordleError("--scheduler only applies to --executor dask")
        jobs = max(1, int(jobs or os.cpu_count() or 1))
        return cf.ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint)
    if kind == "dask":
        distributed = _import_distributed()
        if scheduler:
            try:
                client = distributed.Client(scheduler, timeout="10s")
            except OSError as exc:
                raise EvoWordleError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from None
            return DaskExecutor(client)
        cluster = distributed.LocalCluster(
            n_workers=max(1, int(jobs or 1)), threads_per_worker=1, processes=True, dashboard_address=None
        )
        return DaskExecutor(distributed.Client(cluster), cluster)
    raise EvoWordleError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")
