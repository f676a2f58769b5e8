"""Rule tests for evo_wordle/executors.py: each rule of where parallel work runs, checked
directly, so a changed constant, comparison or branch there fails a test (mutation testing).

Workers must die with their parent (prctl's death signal, else a watchdog), leave Ctrl-C to
the parent, run the pool's own initializer, and a pool must stop at once on an error; the dask
executor must close its client and cluster.  The process tests fork small children and wait
for them with generous limits: the machine is shared.  They need Linux (fork, prctl), as CI is.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import logging
import os
import signal
import sys
import time
import types

import pytest

import evo_wordle.executors as ex
from evo_wordle.errors import EvoWordleError, WorkerDied

#: prctl option that reads the death signal (Linux).
PR_GET_PDEATHSIG = 2


def in_child(body, timeout: float = 20.0) -> tuple[int, bytes]:
    """Fork, run ``body(write)`` in the child (it may write bytes to the pipe), exit 0 unless
    the body exits otherwise; return the child's exit code and what it wrote."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        code = 0
        try:
            body(lambda data: os.write(write, data))
        except SystemExit as exc:
            code = int(exc.code or 0)
        except BaseException:
            code = 3
        os._exit(code)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 4096):
        chunks.append(chunk)
    os.close(read)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), b"".join(chunks)
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError("the child did not end in time")


def death_signal() -> int:
    value = ctypes.c_int(-1)
    assert ctypes.CDLL(None, use_errno=True).prctl(PR_GET_PDEATHSIG, ctypes.byref(value), 0, 0, 0) == 0
    return value.value


# ------------------------------------------------------------------------------------ worker contexts

def test_a_worker_builds_one_context_per_word_lists(monkeypatch):
    import evo_wordle.context as context

    built = []

    class Fake:
        def __init__(self, allowed=None, answers="nyt"):
            built.append((allowed, answers))

    monkeypatch.setattr(context, "Context", Fake)
    monkeypatch.setattr(ex, "_CONTEXTS", {})
    one = ex.worker_context()
    assert ex.worker_context() is one and ex.worker_context(None, "nyt") is one
    other = ex.worker_context("mine.txt", "nyt")
    assert other is not one and ex.worker_context("mine.txt", "nyt") is other
    third = ex.worker_context("mine.txt", "all")
    assert third is not other
    assert built == [(None, "nyt"), ("mine.txt", "nyt"), ("mine.txt", "all")]


# ------------------------------------------------------------------------------------ dying with the parent

def test_a_worker_asks_the_kernel_to_kill_it_when_its_parent_dies():
    def body(write):
        before = death_signal()
        ex.die_with_parent(os.getppid())
        write(f"{before} {death_signal()}".encode())

    code, out = in_child(body)
    assert code == 0 and out == f"0 {int(signal.SIGKILL)}".encode()


def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    def body(write):
        ex.die_with_parent(os.getppid() + 1_000_000)  # not its parent: as if re-parented
        write(b"still here")

    code, out = in_child(body)
    assert code == 1 and out == b""


def test_without_prctl_the_watchdog_thread_keeps_a_worker_alive_while_its_parent_lives(monkeypatch):
    def body(write):
        monkeypatch.setattr(ex.sys, "platform", "darwin")  # no prctl: the watchdog alone
        ex.die_with_parent(os.getppid())
        assert death_signal() == 0
        watch = [t for t in ex.threading.enumerate() if t.name == "evo-wordle-parent-watch"]
        assert len(watch) == 1 and watch[0].daemon
        time.sleep(3 * ex.WATCH_SECONDS)
        write(b"alive")

    code, out = in_child(body)
    assert (code, out) == (0, b"alive")


def test_the_watchdog_ends_a_worker_soon_after_its_parent_dies(monkeypatch):
    """A middle process starts a worker (watchdog only) and dies: the worker is re-parented and
    must exit within a few polls."""
    read, write = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.close(read)
        me = os.getpid()  # taken before the fork, as the pool does: the middle may be gone already
        worker = os.fork()
        if worker == 0:
            monkeypatch.setattr(ex.sys, "platform", "darwin")
            ex.die_with_parent(me)
            time.sleep(60)
            os._exit(0)
        os.write(write, str(worker).encode())
        os._exit(0)
    os.close(write)
    worker = int(os.read(read, 64))
    os.close(read)
    os.waitpid(middle, 0)
    gone = time.monotonic() + 15
    while time.monotonic() < gone and is_running(worker):
        time.sleep(0.05)
    if not is_running(worker):
        return
    os.kill(worker, signal.SIGKILL)
    raise AssertionError("the worker outlived its parent")


def is_running(pid: int) -> bool:
    """Alive and not a zombie: an orphan may be re-parented to a subreaper (a test runner) that
    reaps it only later, so its pid outlives it for a while."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def test_the_watchdog_polls_often():
    assert 0 < ex.WATCH_SECONDS <= 1


def test_the_watchdog_exits_with_code_1_once_re_parented():
    def body(write):
        ex._watch_parent(os.getppid() + 1_000_000)
        write(b"returned")

    code, out = in_child(body)
    assert (code, out) == (1, b"")


# ------------------------------------------------------------------------------------ starting a worker

def test_without_a_usable_prctl_a_worker_still_gets_its_watchdog(monkeypatch):
    """A libc that cannot be loaded (OSError) or has no prctl (AttributeError): the watchdog alone."""
    class NoPrctl:
        pass

    def cannot_load(*args, **kwargs):
        raise OSError("no libc")

    for libc in (cannot_load, lambda *args, **kwargs: NoPrctl()):
        def body(write, libc=libc):
            monkeypatch.setattr(ex.ctypes, "CDLL", libc)
            ex.die_with_parent(os.getppid())
            watch = [t for t in ex.threading.enumerate() if t.name == "evo-wordle-parent-watch"]
            write(str(len(watch)).encode())

        assert in_child(body) == (0, b"1")


def test_a_pools_workers_are_forked_even_when_the_program_chose_another_start_method():
    """The memory-mapped table is shared by forking; a program (a user's script) that set
    another default start method must not turn the pool's workers into fresh interpreters."""
    ex.mp.set_start_method("spawn", force=True)
    try:
        pool = ex.process_pool(1)
        assert pool._mp_context is ex.mp.get_context("fork")
        pool.shutdown()
    finally:
        ex.mp.set_start_method(None, force=True)


def test_a_worker_start_ignores_ctrl_c_unblocks_it_and_runs_the_pools_initializer():
    def body(write):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # as the pool forks it
        seen = []
        ex._worker_start(os.getppid(), lambda *a: seen.append(a), (1, "x"))
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ())
        ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        write(repr((seen, blocked, ignored, death_signal())).encode())

    code, out = in_child(body)
    assert code == 0 and out == repr(([(1, "x")], False, True, int(signal.SIGKILL))).encode()


def test_a_worker_start_without_an_initializer_runs_none():
    def body(write):
        ex._worker_start(os.getppid(), None, ())
        write(b"ok")

    assert in_child(body) == (0, b"ok")


def _worker_state():
    return (signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
            signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ()),
            os.getppid(), death_signal() if sys.platform.startswith("linux") else None)


def _remember(value):
    os.environ["EVO_WORDLE_TEST_INIT"] = value


def _remembered():
    return os.environ.get("EVO_WORDLE_TEST_INIT")


def test_a_pools_workers_are_forked_ignore_ctrl_c_and_die_with_this_process():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    pool = ex.process_pool(1, _remember, ("set by the initializer",))
    try:
        assert pool._mp_context is ex.mp.get_context("fork") and pool._max_workers == 1  # not just the default
        ignored, blocked, parent, sig = pool.submit(_worker_state).result(timeout=60)
        assert pool.submit(_remembered).result(timeout=60) == "set by the initializer"
    finally:
        pool.shutdown()
    assert ignored and not blocked and parent == os.getpid() and sig == int(signal.SIGKILL)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, ()) == before  # the fork's mask was put back


# ------------------------------------------------------------------------------------ how many workers

def test_local_workers_caps_at_four_per_cpu_and_floors_at_one(monkeypatch, capsys):
    asked = []
    monkeypatch.setattr(ex.os, "sched_getaffinity", lambda pid: asked.append(pid) or {0, 1}, raising=False)
    monkeypatch.setattr(ex, "_warned_jobs", set())
    assert ex.WORKERS_PER_CPU == 4
    assert [ex.local_workers(j) for j in (0, -3, 1, 7, 8)] == [1, 1, 1, 7, 8]
    assert capsys.readouterr().err == ""
    assert ex.local_workers(9) == 8
    err = capsys.readouterr().err
    assert err == ("evo-wordle: warning: --jobs 9 is more than 4 workers for each of this machine's 2 CPUs: "
                   "using 8 (results do not depend on --jobs)\n")
    assert set(asked) == {0}  # this process's CPUs


def test_local_workers_counts_the_cpus_without_affinity(monkeypatch, capsys):
    def missing(pid):
        raise AttributeError

    monkeypatch.setattr(ex.os, "sched_getaffinity", missing, raising=False)
    monkeypatch.setattr(ex, "_warned_jobs", set())
    monkeypatch.setattr(ex.os, "cpu_count", lambda: 3)
    assert ex.local_workers(12) == 12 and ex.local_workers(13) == 12
    monkeypatch.setattr(ex.os, "cpu_count", lambda: None)  # unknown: one CPU
    assert ex.local_workers(4) == 4 and ex.local_workers(5) == 4
    assert capsys.readouterr().err.count("\n") == 2


def test_a_local_executor_of_no_jobs_has_the_machines_cpus(monkeypatch):
    monkeypatch.setattr(ex.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    monkeypatch.setattr(ex.os, "cpu_count", lambda: 3)
    asked = []
    monkeypatch.setattr(ex, "process_pool", lambda jobs: asked.append(jobs) or "pool")
    assert ex.make_executor() == "pool"  # two workers unless told
    assert ex.make_executor("local", 0) == "pool" and ex.make_executor("local", 5) == "pool"
    monkeypatch.setattr(ex.os, "cpu_count", lambda: None)
    ex.make_executor("local", None)
    ex.make_executor("local", -2)
    assert asked == [2, 3, 5, 1, 1]


# ------------------------------------------------------------------------------------ running and stopping

class FakeExecutor(cf.Executor):
    def __init__(self):
        self.calls = []

    def shutdown(self, wait=True, *, cancel_futures=False):
        self.calls.append((wait, cancel_futures))


def test_running_shuts_down_and_waits_when_the_work_ends_well():
    fake = FakeExecutor()
    with ex.running(fake) as got:
        assert got is fake and fake.calls == []
    assert fake.calls == [(True, False)]


def test_running_stops_at_once_on_an_error_or_ctrl_c_and_lets_it_through():
    for error in (ValueError("boom"), KeyboardInterrupt()):
        fake = FakeExecutor()
        with pytest.raises(type(error)):
            with ex.running(fake):
                raise error
        assert fake.calls == [(False, True)]


def test_running_turns_a_dead_worker_into_one_line():
    fake = FakeExecutor()
    with pytest.raises(WorkerDied) as caught:
        with ex.running(fake):
            raise cf.process.BrokenProcessPool("gone")
    assert str(caught.value) == ex.WORKER_DIED and caught.value.__cause__ is None
    assert caught.value.__suppress_context__ and fake.calls == [(False, True)]
    assert ex.WORKER_DIED == ("a worker process died (killed or out of memory); finished work is kept - "
                              "rerun the command")


def _sleep(seconds):
    time.sleep(seconds)
    return seconds


def test_terminate_kills_running_local_workers_and_cancels_queued_work():
    pool = ex.process_pool(1)
    running = pool.submit(_sleep, 60)
    queued = [pool.submit(_sleep, 60) for _ in range(5)]
    deadline = time.monotonic() + 30
    while not running.running() and time.monotonic() < deadline:
        time.sleep(0.02)
    processes = list(pool._processes.values())
    manager = pool._executor_manager_thread
    assert running.running() and processes and manager.is_alive()
    start = time.monotonic()
    ex.terminate(pool)
    assert time.monotonic() - start < 20
    # joined as well: left running, it raced the interpreter's exit hook for its wake-up pipe and
    # printed an OSError traceback after Ctrl-C (11 exits in 200 before; it was alive here 28 in 30)
    assert not manager.is_alive()
    assert not any(is_running(p.pid) for p in processes)  # joined: dead (or reaped) once terminate returns
    settled = time.monotonic() + 10  # the pool's manager thread may be reaping them at this moment
    while any(p.is_alive() for p in processes) and time.monotonic() < settled:
        time.sleep(0.02)
    assert all(not p.is_alive() for p in processes)
    assert all(p.exitcode == -signal.SIGTERM for p in processes)
    # the pool's manager thread cancels in its own time, and it hands up to max_workers + 1 calls to
    # its queue ahead of time (those cannot be cancelled: they fail with the pool)
    settled = time.monotonic() + 20
    while not all(f.done() for f in queued) and time.monotonic() < settled:
        time.sleep(0.02)
    assert all(f.cancelled() for f in queued[2:])


def test_terminate_joins_the_pools_manager_thread_and_a_pool_that_never_ran_has_none(monkeypatch):
    """The join itself, not its timing: the manager often ends on its own within the assert above,
    so a terminate that skipped the join passed there (mutation run, load 6)."""
    pool = ex.process_pool(1)
    assert pool.submit(_sleep, 0).result(timeout=60) == 0
    manager = pool._executor_manager_thread
    joined = []
    real = manager.join
    monkeypatch.setattr(manager, "join", lambda timeout=None: (joined.append(timeout), real(timeout))[1])
    ex.terminate(pool)
    assert joined == [ex.JOIN_SECONDS] and not manager.is_alive()
    idle = ex.process_pool(1)  # nothing submitted: no manager thread, no worker, nothing to join
    assert idle._executor_manager_thread is None
    ex.terminate(idle)
    assert idle._shutdown_thread


def test_terminate_of_another_executor_cancels_without_waiting():
    fake = FakeExecutor()
    ex.terminate(fake)
    assert fake.calls == [(False, True)]


# ------------------------------------------------------------------------------------ choosing an executor

def test_check_executor_refuses_unknown_kinds_and_a_scheduler_without_dask():
    assert ex.EXECUTORS == ("local", "dask")
    ex.check_executor("local")
    ex.check_executor("local", "")
    with pytest.raises(EvoWordleError, match=r"^unknown executor 'threads' \(choose from local, dask\)$"):
        ex.check_executor("threads")
    with pytest.raises(EvoWordleError, match=r"^--scheduler only applies to --executor dask$"):
        ex.check_executor("local", "tcp://x:1")
    with pytest.raises(EvoWordleError, match="unknown executor"):
        ex.make_executor("threads")


def test_dask_without_distributed_or_cryptography_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    needs = r"^--executor dask needs dask\.distributed: pip install 'evo-wordle\[dask\]'$"
    with pytest.raises(EvoWordleError, match=needs):
        ex.check_executor("dask", "tcp://x:1")
    monkeypatch.setitem(sys.modules, "distributed", types.ModuleType("distributed"))
    monkeypatch.setitem(sys.modules, "cryptography", None)
    ex.check_executor("dask", "tcp://x:1")  # a scheduler of its own needs no local credentials
    with pytest.raises(EvoWordleError, match=r"^--executor dask needs the cryptography package"):
        ex.check_executor("dask")


class FakeInner:
    def __init__(self, fail=False):
        self.calls, self.fail = [], fail

    def submit(self, fn, *args, **kwargs):
        self.calls.append(("submit", fn, args, kwargs))
        return "future"

    def map(self, fn, *iterables, timeout=None):
        self.calls.append(("map", fn, iterables, timeout))
        return "mapped"

    def shutdown(self, wait=True):
        self.calls.append(("shutdown", wait))
        if self.fail:
            raise RuntimeError("shutdown failed")


class FakeClient:
    def __init__(self, inner):
        self.inner, self.closed, self.pure = inner, 0, None

    def get_executor(self, pure):
        self.pure = pure
        return self.inner

    def close(self):
        self.closed += 1


class FakeCluster:
    def __init__(self):
        self.closed = 0

    def close(self):
        self.closed += 1


def test_the_dask_executor_passes_work_on_and_closes_its_client_and_cluster():
    inner, cluster = FakeInner(), FakeCluster()
    client = FakeClient(inner)
    dask = ex.DaskExecutor(client, cluster)
    assert client.pure is False  # every task runs: results of equal calls are not shared
    assert dask.submit(len, "abc", key=1) == "future" and dask.map(len, ["a"], timeout=4, chunksize=9) == "mapped"
    dask.shutdown()
    assert inner.calls == [("submit", len, ("abc",), {"key": 1}), ("map", len, (["a"],), 4), ("shutdown", True)]
    assert client.closed == 1 and cluster.closed == 1
    for wait, cancel, waited in ((False, False, False), (True, True, False)):
        inner = FakeInner()
        ex.DaskExecutor(FakeClient(inner)).shutdown(wait=wait, cancel_futures=cancel)  # as terminate calls it
        assert inner.calls == [("shutdown", waited)]


def test_the_dask_executor_closes_its_client_even_when_shutdown_fails():
    inner, cluster = FakeInner(fail=True), FakeCluster()
    client = FakeClient(inner)
    with pytest.raises(RuntimeError):
        ex.DaskExecutor(client, cluster).shutdown()
    assert client.closed == 1 and cluster.closed == 1


def fake_distributed(monkeypatch, client_error=None):
    made = {}
    module = types.ModuleType("distributed")

    def client(target, **kwargs):
        if client_error:
            raise client_error
        made["client"] = (target, kwargs)
        return FakeClient(FakeInner())

    def local_cluster(**kwargs):
        made["cluster"] = kwargs
        return FakeCluster()

    module.Client, module.LocalCluster = client, local_cluster
    module.security = types.SimpleNamespace(Security=types.SimpleNamespace(temporary=lambda: "temporary"))
    monkeypatch.setitem(sys.modules, "distributed", module)
    monkeypatch.setitem(sys.modules, "cryptography", types.ModuleType("cryptography"))
    return made


def test_a_dask_scheduler_is_reached_with_a_timeout_or_named_in_one_line(monkeypatch):
    made = fake_distributed(monkeypatch)
    got = ex.make_executor("dask", 3, "tcp://host:8786")
    assert isinstance(got, ex.DaskExecutor) and got.cluster is None
    assert made == {"client": ("tcp://host:8786", {"timeout": "10s"})}
    fake_distributed(monkeypatch, OSError("timed out"))
    with pytest.raises(EvoWordleError, match=r"^cannot reach the dask scheduler at tcp://host:8786: timed out$"):
        ex.make_executor("dask", 3, "tcp://host:8786")


def test_a_local_dask_cluster_is_private_single_threaded_and_capped(monkeypatch):
    monkeypatch.setattr(ex.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(ex, "_warned_jobs", {9})
    made = fake_distributed(monkeypatch)
    got = ex.make_executor("dask", 9)
    assert isinstance(got, ex.DaskExecutor) and isinstance(got.cluster, FakeCluster)
    assert made["cluster"] == {"n_workers": 4, "threads_per_worker": 1, "processes": True, "dashboard_address": None,
                               "protocol": "tls://", "security": "temporary",
                               "scheduler_kwargs": {"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                               "preload": ["evo_wordle.executors"]}  # dask_setup: workers leave Ctrl-C to us
    assert made["client"][1] == {"security": "temporary"} and isinstance(made["client"][0], FakeCluster)
    made = fake_distributed(monkeypatch)
    ex.make_executor("dask", 0)
    assert made["cluster"]["n_workers"] == 1


class Nanny:
    """A dask LocalCluster's worker entry as _kill_local_workers reads it: nanny.process.process.pid."""

    def __init__(self, pid):
        self.process = types.SimpleNamespace(process=types.SimpleNamespace(pid=pid))


def _kills(monkeypatch, refuse=()):
    sent = []

    def kill(pid, sig):
        sent.append((pid, sig))
        if pid in refuse:
            raise ProcessLookupError(pid)
    monkeypatch.setattr(ex.os, "kill", kill)
    return sent


def test_a_cut_short_dask_run_kills_its_local_workers_quietly_and_a_finished_one_does_neither(monkeypatch):
    """After Ctrl-C each local worker is SIGKILLed (closed politely, each waited for its running
    task) and dask's logging is off while the client closes; a run that ends well closes politely."""
    levels = []

    class Inner(FakeInner):
        def shutdown(self, wait=True):
            levels.append(logging.root.manager.disable)
            super().shutdown(wait)

    sent = _kills(monkeypatch, refuse={7})
    cluster = FakeCluster()
    cluster.workers = {"a": Nanny(41), "b": Nanny(7), "c": Nanny(0), "d": Nanny(-3), "e": Nanny("9"),
                       "f": Nanny(None), "g": types.SimpleNamespace(), "h": Nanny(1)}
    before = logging.root.manager.disable
    ex.DaskExecutor(FakeClient(Inner()), cluster).shutdown(wait=True, cancel_futures=True)
    # 7 is gone already (ProcessLookupError: passed over); 0, -3, "9", None and a missing pid are no worker's pid
    assert sent == [(41, signal.SIGKILL), (7, signal.SIGKILL), (1, signal.SIGKILL)]
    assert levels == [logging.CRITICAL] and logging.root.manager.disable == before and cluster.closed == 1
    sent.clear()
    ex.DaskExecutor(FakeClient(Inner()), cluster).shutdown(wait=True)
    assert sent == [] and levels[-1] == before


def test_a_ctrl_c_raised_as_the_cluster_starts_closes_what_was_made(monkeypatch):
    """A pending Ctrl-C is raised when SIGINT is unblocked again: the cluster made by then is shut
    down at once (cancel_futures: its workers killed), and a cluster never made has nothing to close."""
    calls = []

    def sigmask(how, mask):
        calls.append(how)
        if how == signal.SIG_SETMASK:
            raise KeyboardInterrupt
        return set()
    monkeypatch.setattr(ex.signal, "pthread_sigmask", sigmask)
    made = fake_distributed(monkeypatch)
    shut = []
    monkeypatch.setattr(ex.DaskExecutor, "shutdown", lambda self, wait=True, *, cancel_futures=False:
                        shut.append((wait, cancel_futures)))
    with pytest.raises(KeyboardInterrupt):
        ex.make_executor("dask", 2)
    assert "cluster" in made and shut == [(False, True)] and calls[-1] == signal.SIG_SETMASK
    fake_distributed(monkeypatch, client_error=RuntimeError("no client"))
    shut.clear()
    with pytest.raises(KeyboardInterrupt):  # the Ctrl-C, not an error about the executor never made
        ex.make_executor("dask", 2)
    assert shut == []
