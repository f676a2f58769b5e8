"""Where parallel work runs: a local process pool or a dask.distributed cluster.

Both are returned as a :class:`concurrent.futures.Executor`, so callers (sweeps, strategy
evolution) submit picklable top-level functions and iterate ``as_completed`` the same way
whatever the engine.  Work units should be coarse (whole benches or chunks of puzzles):
workers build their own :class:`~evo_wordle.context.Context` (the pattern table is
memory-mapped, so that is cheap) and keep it for the life of the process.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .errors import EvoWordleError, WorkerDied

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


#: prctl option asking the kernel to signal this process when its parent dies (Linux).
PR_SET_PDEATHSIG = 1
#: How often the fallback watchdog looks for a dead parent (seconds).
WATCH_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """Fallback where prctl is missing: exit as soon as this process is re-parented."""
    while True:
        if os.getppid() != parent:
            os._exit(1)
        time.sleep(WATCH_SECONDS)


def die_with_parent(parent: int) -> None:
    """Make this worker die with ``parent`` (the process that started the pool), even when the
    parent is killed with SIGKILL and cannot clean up: PR_SET_PDEATHSIG on Linux, plus a
    watchdog thread polling ``os.getppid()`` everywhere."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="evo-wordle-parent-watch", daemon=True).start()


def _worker_start(parent: int, initializer: Callable | None, initargs: tuple) -> None:
    """Pool initializer: die with the parent, leave Ctrl-C to it (it cancels and terminates
    the pool), then run the pool's own initializer.  SIGINT arrives blocked (see
    :class:`_Pool`): it is ignored before it is unblocked, so a Ctrl-C during the fork is
    the parent's alone."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if initializer is not None:
        initializer(*initargs)


class _Pool(cf.ProcessPoolExecutor):
    """A process pool that forks its workers with SIGINT blocked: a Ctrl-C landing during a
    fork would otherwise interrupt the half-made child and be lost to the parent."""

    def _spawn_process(self) -> None:
        # The mask is read before it changes, and SIGINT blocked inside the ``try``: a Ctrl-C
        # already pending is raised by ``pthread_sigmask`` itself once the mask is set (it runs
        # the Python handlers before returning), and must not leave SIGINT blocked for good.
        old = signal.pthread_sigmask(signal.SIG_BLOCK, ())
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            super()._spawn_process()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


#: Worker processes per usable CPU at most in a pool on this machine: more only cost memory and
#: start-up (results never depend on ``--jobs``).
WORKERS_PER_CPU = 4
_warned_jobs: set[int] = set()


def local_workers(jobs: int) -> int:
    """``jobs`` for a pool on this machine, capped at :data:`WORKERS_PER_CPU` per usable CPU
    (``--jobs 999`` on 2 CPUs would start hundreds of processes); the cap is said once."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    limit, jobs = WORKERS_PER_CPU * max(1, cpus), max(1, int(jobs))
    if jobs <= limit:
        return jobs
    if jobs not in _warned_jobs:
        _warned_jobs.add(jobs)
        from .console import warn  # held, on the command line, until the work starts (or dropped with a refusal)

        warn(f"--jobs {jobs} is more than {WORKERS_PER_CPU} workers for each of this machine's {cpus} CPUs: "
             f"using {limit} (results do not depend on --jobs)")
    return limit


def process_pool(jobs: int, initializer: Callable | None = None, initargs: tuple = ()) -> cf.ProcessPoolExecutor:
    """A process pool whose workers die with this process and ignore Ctrl-C.

    Workers are forked where the platform allows (they share the memory-mapped table);
    a killed worker makes the pool raise ``BrokenProcessPool`` instead of hanging.
    """
    method = "fork" if "fork" in mp.get_all_start_methods() else None
    return _Pool(
        max_workers=local_workers(jobs),
        mp_context=mp.get_context(method),
        initializer=_worker_start,
        initargs=(os.getpid(), initializer, initargs),
    )


#: The one message for a worker that vanished (killed, out of memory).
WORKER_DIED = "a worker process died (killed or out of memory); finished work is kept - rerun the command"


@contextmanager
def running(executor: cf.Executor) -> Iterator[cf.Executor]:
    """Use ``executor``; on Ctrl-C or any error terminate it at once (no waiting for running
    tasks), and turn a dead worker into one :class:`WorkerDied` instead of a traceback."""
    try:
        yield executor
    except cf.process.BrokenProcessPool:
        terminate(executor)
        raise WorkerDied(WORKER_DIED) from None
    except BaseException:
        terminate(executor)
        raise
    executor.shutdown(wait=True)


#: How long :func:`terminate` waits for each killed worker, and then for the pool's manager thread.
JOIN_SECONDS = 5


def terminate(executor: cf.Executor) -> None:
    """Stop at once: cancel queued work and kill running local workers (after Ctrl-C or an error).

    ``shutdown(wait=False)`` alone would let a long task finish before the interpreter exits.
    The pool's manager thread is joined too: left running, it closes its wake-up pipe while the
    interpreter's exit hook writes to it, a race that printed an ignored ``OSError`` traceback
    after the one-line Ctrl-C message (CPython 3.11; once in a fresh-clone CI run).
    """
    if isinstance(executor, cf.ProcessPoolExecutor):
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
        for proc in processes:
            proc.join(timeout=JOIN_SECONDS)
        if manager is not None and manager is not threading.current_thread():
            manager.join(timeout=JOIN_SECONDS)
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
        """Close the client and the local cluster; when the run is cut short (Ctrl-C, an error:
        ``cancel_futures``) quietly, since the run is over and its one line is the CLI's own: the
        scheduler and client logged tracebacks about the gathers and keys cut off (seen after
        Ctrl-C in a dask sweep)."""
        import logging

        quiet = logging.root.manager.disable
        if cancel_futures:
            logging.disable(logging.CRITICAL)
        try:
            if cancel_futures:
                self._kill_local_workers()
            self._inner.shutdown(wait=wait and not cancel_futures)
        finally:
            try:
                self.client.close()
                if self.cluster is not None:
                    self.cluster.close()
            finally:
                logging.disable(quiet)

    def _kill_local_workers(self) -> None:
        """Kill the local cluster's worker processes at once: closed politely, each waited for
        its running task (a whole bench) up to dask's timeouts, 10 s measured after a Ctrl-C."""
        for nanny in list(getattr(self.cluster, "workers", {}).values()):
            pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
            if isinstance(pid, int) and pid > 0:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise EvoWordleError(
            "--executor dask needs dask.distributed: pip install 'evo-wordle[dask]'"
        ) from None
    return distributed


def check_executor(kind: str, scheduler: str | None = None) -> None:
    """Refuse an unknown executor, a scheduler without dask, or a missing dask: before any work
    or folder exists."""
    if kind not in EXECUTORS:
        raise EvoWordleError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")
    if kind == "local" and scheduler:
        raise EvoWordleError("--scheduler only applies to --executor dask")
    if kind == "dask":
        _import_distributed()
        if not scheduler:
            try:
                import cryptography  # noqa: F401 - the local cluster's temporary TLS credentials
            except ImportError:
                raise EvoWordleError(
                    "--executor dask needs the cryptography package for its TLS credentials: "
                    "pip install 'evo-wordle[dask]'"
                ) from None


def dask_setup(worker) -> None:
    """Preload of the local cluster's workers (dask calls it as each starts): ignore Ctrl-C, as
    the local pool's workers do.  A terminal's Ctrl-C reaches the whole process group, and each
    dask worker printed a KeyboardInterrupt traceback while this process stopped them anyway."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (the helper process that unlinks the semaphores
    of dask's worker queues) without its leak warning: after a Ctrl-C or a kill it printed
    "There appear to be N leaked semaphore objects" (and cleaned them) below the last line.  It
    takes its warning filters from this interpreter's ``-W`` flags when it starts."""
    from multiprocessing import resource_tracker

    flag = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(flag)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(flag)


#: dask's setting for the environment its local worker processes are spawned with.
SPAWN_ENVIRON = "distributed.nanny.pre-spawn-environ"


def make_executor(kind: str = "local", jobs: int = 2, scheduler: str | None = None) -> cf.Executor:
    """A concurrent.futures executor of ``kind``.

    ``local``: a process pool of ``jobs`` workers that die with this process (:func:`process_pool`).
    ``dask``: a dask.distributed client connected to ``scheduler`` (``tcp://host:8786``), or,
    without a scheduler, to a new ``LocalCluster`` of ``jobs`` single-threaded workers that
    speaks TLS with temporary credentials only this process holds, so other local users
    cannot submit work to it.  Use it as a context manager so the pool or client is closed.
    """
    check_executor(kind, scheduler)
    if kind == "local":
        return process_pool(max(1, int(jobs or os.cpu_count() or 1)))
    distributed = _import_distributed()
    if scheduler:
        try:
            client = distributed.Client(scheduler, timeout="10s")
        except OSError as exc:
            raise EvoWordleError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from None
        return DaskExecutor(client)
    import dask

    security = distributed.security.Security.temporary()
    # workers log nothing below CRITICAL (read as they start: set before they spawn): a task's
    # failure reaches this process as its exception (one line), and each task Ctrl-C cancelled
    # logged a warning ("Async instruction ... ended with CancelledError") above "interrupted"
    quiet = {**dask.config.get(SPAWN_ENVIRON, {}), "DASK_LOGGING__DISTRIBUTED": "critical"}
    # Ctrl-C waits while the cluster starts (a few seconds): one landing half-way printed each new
    # worker's KeyboardInterrupt traceback and dask's own at exit (closing a half-made cluster).
    # The cluster's threads, and so the workers they spawn, keep SIGINT blocked for good.
    _quiet_resource_tracker()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    executor = None
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        with dask.config.set({SPAWN_ENVIRON: quiet}):
            cluster = distributed.LocalCluster(
                n_workers=local_workers(jobs or 1), threads_per_worker=1, processes=True, dashboard_address=None,
                protocol="tls://", security=security,
                # no dashboard; its HTTP routes on a free local port, not 8787 (a second run warned it was taken)
                scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                preload=[__name__],  # dask_setup below: workers leave Ctrl-C to this process
            )
        executor = DaskExecutor(distributed.Client(cluster, security=security), cluster)
    finally:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending Ctrl-C is raised here
        except BaseException:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            raise
    return executor
