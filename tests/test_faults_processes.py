"""Fault suite, processes and signals: real subprocesses killed with SIGKILL or interrupted with
SIGINT.  Workers die with their parent, a dead sweep's lock is taken over and the re-run gives
the uninterrupted result, a killed worker is one line and exit 1 (never a hang), Ctrl-C at any
moment is one line and exit 130, a full stdout or an ASCII terminal gives no traceback."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.folder_lock import LOCK_FILE, folder_lock

PY = [sys.executable, "-m", "evo_wordle"]
SWEEP = ["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "max_guesses=6,9",
         "--set", "hard=false,true", "--seeds", "2", "--games", "40", "--quiet"]
#: A bench slow enough to be killed part-way on an idle machine too: ~16 ms a game (ga-thesis
#: got so fast, 0.2 ms a game, that 2,000 games ended before the tests could kill anything).
SLOW_BENCH = ["bench", "--solver", "ga", "--generations-per-guess", "40", "--games", "2000", "--jobs", "2"]


def group(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def start(argv: list[str], **kw) -> subprocess.Popen:
    return subprocess.Popen([*PY, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)


def wait_for(predicate, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def gone_within(pgid: int, seconds: float) -> float:
    """Seconds until no process of the group is left (fails after ``seconds``)."""
    t0 = time.monotonic()
    wait_for(lambda: not group(pgid), seconds, "the workers to die with their parent")
    return time.monotonic() - t0


def cleanup(proc: subprocess.Popen) -> None:
    for pid in group(proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait(timeout=30)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:  # stderr=STDOUT: none of its own
            stream.close()


def rows(path: Path) -> dict:
    with open(path, newline="") as fh:
        return {(r["max_guesses"], r["hard"], r["seed"]): (r["mean"], r["histogram"], r["bench_seed"])
                for r in csv.DictReader(fh)}


def test_sigkill_of_sweep_main_leaves_no_orphan_and_the_rerun_resumes(tmp_path, cache_dir, capsys):
    out = tmp_path / "killed"
    proc = start([*SWEEP, "--jobs", "2", "--out", str(out)])
    try:
        csv_path = out / "results.csv"
        wait_for(lambda: csv_path.exists() and len(csv_path.read_text().splitlines()) >= 2, 90, "a first row")
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)  # the main process only: its workers must follow
        proc.wait(timeout=10)
        assert gone_within(proc.pid, 5.0) <= 5.0
    finally:
        cleanup(proc)
    partial = rows(out / "results.csv")
    assert 1 <= len(partial) < 8
    assert main([*SWEEP, "--jobs", "2", "--out", str(out)]) == 0  # the dead owner's lock is taken over
    ref = tmp_path / "ref"
    assert main([*SWEEP, "--jobs", "1", "--out", str(ref)]) == 0
    assert rows(out / "results.csv") == rows(ref / "results.csv")
    capsys.readouterr()


def test_sigkill_of_bench_jobs_2_leaves_no_orphan(cache_dir):
    proc = start(SLOW_BENCH)
    try:
        wait_for(lambda: len(children(proc.pid)) >= 2, 90, "two workers")
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert gone_within(proc.pid, 5.0) <= 5.0
    finally:
        cleanup(proc)


def test_sigkill_of_a_dask_sweep_leaves_no_worker_after_5_s(tmp_path, cache_dir):
    """The local Dask cluster's workers are children of the main process; dask's own parent pipe
    makes them exit when it dies (measured 0.04-0.18 s: experiments/kill_faults.py)."""
    slow = ["sweep", "--solver", "ga", "--set", "generations_per_guess=40", "--population", "20,40",
            "--seeds", "2", "--games", "300", "--quiet"]  # ~90 s: still running when killed
    proc = start([*slow, "--executor", "dask", "--jobs", "2", "--out", str(tmp_path / "d")])
    try:
        wait_for(lambda: len(children(proc.pid)) >= 2, 120, "two dask workers")
        time.sleep(1.0)
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert gone_within(proc.pid, 5.0) <= 5.0
        # multiprocessing's resource tracker, the last to go, wrote "There appear to be 14 leaked
        # semaphore objects to clean up at shutdown" below the shell's "Killed"
        assert proc.stderr.read() == ""
    finally:
        cleanup(proc)


def test_ctrl_c_during_a_dask_sweep_is_one_line_exit_130(tmp_path, cache_dir):
    """The tasks Ctrl-C cancelled each logged a dask warning, and the gathers and keys cut off
    tracebacks, above "interrupted"; the cluster is quiet now, its one line the command's."""
    out = tmp_path / "d"
    argv = ["sweep", "--solver", "ga-thesis", "--population", "50,100", "--mutation", "0,0.1", "--seeds", "3",
            "--games", "300", "--quiet", "--executor", "dask", "--jobs", "2", "--out", str(out)]
    proc = subprocess.Popen([*PY, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        csv_path = out / "results.csv"
        wait_for(lambda: csv_path.exists() and len(csv_path.read_text().splitlines()) >= 2, 120, "a first row")
        assert proc.poll() is None  # the other tasks still running
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert proc.stderr.read() == "evo-wordle: interrupted\n"
        assert gone_within(proc.pid, 10.0) <= 10.0
    finally:
        cleanup(proc)


def test_ctrl_c_while_a_local_dask_cluster_starts_is_one_line_exit_130(tmp_path, cache_dir):
    """A Ctrl-C half-way through the cluster's start left it half-made, and dask's own exit hook
    printed "Exception ignored in atexit callback ... AssertionError: Status.init" and its
    traceback under "interrupted"; the Ctrl-C now waits for the cluster, which is then closed."""
    argv = ["sweep", "--solver", "ga-thesis", "--population", "50,100", "--seeds", "2", "--games", "300",
            "--quiet", "--executor", "dask", "--jobs", "2", "--out", str(tmp_path / "d")]
    proc = subprocess.Popen([*PY, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_for(lambda: len(children(proc.pid)) >= 1, 120, "the cluster to start")
        os.kill(proc.pid, signal.SIGINT)  # this process only: its workers are not told
        assert proc.wait(timeout=60) == 130
        assert proc.stderr.read() == "evo-wordle: interrupted\n"
        assert gone_within(proc.pid, 10.0) <= 10.0
    finally:
        cleanup(proc)


@pytest.mark.parametrize("argv", [SLOW_BENCH, ["bench", "--boards", "4", "--jobs", "2", "--games", "400"]],
                         ids=["bench", "bench --boards 4"])
def test_a_killed_worker_is_one_line_exit_1_never_a_hang(cache_dir, argv):
    proc = start(argv)
    try:
        wait_for(lambda: len(children(proc.pid)) >= 2, 90, "two workers")
        time.sleep(0.5)
        # short-lived helpers can be counted before the pool starts: wait for workers that stay
        wait_for(lambda: len(children(proc.pid)) >= 2, 90, "two workers still running")
        os.kill(children(proc.pid)[0], signal.SIGKILL)
        assert proc.wait(timeout=60) == 1
        err = proc.stderr.read()
        assert "Traceback" not in err and err.count("\n") == 1 and "worker process died" in err, err
        assert gone_within(proc.pid, 5.0) <= 5.0
    finally:
        cleanup(proc)


def test_a_killed_sweep_worker_keeps_finished_rows(tmp_path, cache_dir):
    out = tmp_path / "w"
    proc = start([*SWEEP, "--jobs", "2", "--out", str(out)])
    try:
        wait_for(lambda: (out / "results.csv").exists() and len(children(proc.pid)) >= 2, 90, "workers")
        os.kill(children(proc.pid)[0], signal.SIGKILL)
        code = proc.wait(timeout=60)
        err = proc.stderr.read()
        if code == 0:  # the sweep had finished its last task before the kill landed
            assert err == ""
        else:
            assert code == 1 and "Traceback" not in err and err.count("\n") == 1 and "worker" in err, err
    finally:
        cleanup(proc)
    assert main([*SWEEP, "--jobs", "1", "--out", str(out)]) == 0
    assert len(rows(out / "results.csv")) == 8


def _ctrl_c_once_two_workers_run(argv: list[str], settle: float) -> subprocess.Popen:
    """Start ``evo-wordle argv`` in its own session and press Ctrl-C (SIGINT to its whole process
    group, as a terminal does) once two workers have stayed up for ``settle`` seconds."""
    proc = subprocess.Popen([*PY, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_for(lambda: len(children(proc.pid)) >= 2, 90, "two workers")
        time.sleep(settle)
        # short-lived helpers can be counted before the pool starts: wait for workers that stay
        wait_for(lambda: len(children(proc.pid)) >= 2, 90, "two workers still running")
        os.killpg(proc.pid, signal.SIGINT)
    except BaseException:
        cleanup(proc)
        raise
    return proc


def test_ctrl_c_during_bench_jobs_2_is_one_line_exit_130(cache_dir):
    proc = _ctrl_c_once_two_workers_run(SLOW_BENCH, 0.5)
    try:
        assert proc.wait(timeout=30) == 130
        assert proc.stderr.read() == "evo-wordle: interrupted\n"
        assert gone_within(proc.pid, 5.0) <= 5.0
    finally:
        cleanup(proc)


@pytest.mark.parametrize("kind", ["histograms", "convergence"])
def test_ctrl_c_during_a_parallel_figure_stops_its_workers_at_once(tmp_path, cache_dir, kind):
    """The figures' pools were left by ``with``, which waits for the running benches: a Ctrl-C
    took as long as the rest of a worker's bench (16 s measured) to give the prompt back."""
    what = ["--solvers", "ga,greedy"] if kind == "histograms" else ["--runs", "2", "--solver", "ga"]
    argv = ["plot", kind, *what, "--generations-per-guess", "40", "--games", "2000", "--jobs", "2",
            "--out", str(tmp_path / "f.png")]  # ~30 s a bench
    proc = _ctrl_c_once_two_workers_run(argv, 1.0)
    t0 = time.monotonic()
    try:
        assert proc.wait(timeout=60) == 130
        assert time.monotonic() - t0 < 5.0
        assert proc.stderr.read() == "evo-wordle: interrupted\n"
        assert gone_within(proc.pid, 5.0) <= 5.0
        assert not (tmp_path / "f.png").exists()
    finally:
        cleanup(proc)


def test_a_ctrl_c_pending_when_the_pool_forks_a_worker_leaves_sigint_unblocked(monkeypatch):
    """``signal.pthread_sigmask`` runs the pending Python signal handlers once it has set the
    mask: a Ctrl-C that arrived just before the pool blocked SIGINT to fork a worker was raised
    by that call, after SIGINT was blocked and before the ``try`` that unblocks it, and the
    command never saw Ctrl-C again.  (Simulated: the handler's KeyboardInterrupt is raised from
    the call once the real mask is set, as CPython's own pthread_sigmask does.)"""
    from evo_wordle.executors import process_pool

    real = signal.pthread_sigmask

    def with_pending_ctrl_c(how, mask):
        old = real(how, mask)
        if how == signal.SIG_BLOCK and signal.SIGINT in set(mask):
            raise KeyboardInterrupt
        return old

    pool = process_pool(1)
    before = real(signal.SIG_BLOCK, ())
    assert signal.SIGINT not in before
    monkeypatch.setattr(signal, "pthread_sigmask", with_pending_ctrl_c)
    try:
        with pytest.raises(KeyboardInterrupt):
            pool._spawn_process()
    finally:
        monkeypatch.undo()
        left = real(signal.SIG_SETMASK, before)  # the mask the pool left, put right for the next tests
        pool.shutdown()
    assert left == before


CTRL_C_IN_IMPORT = """
import builtins, sys
real = builtins.__import__
def fake(name, *args, **kw):
    if name == {module!r}.rsplit(".", 1)[-1] or name == {module!r}:  # relative imports give the last part
        raise KeyboardInterrupt
    return real(name, *args, **kw)
builtins.__import__ = fake
sys.argv = ["evo-wordle", "pattern", "roars", "euler"]
from evo_wordle.console import run
sys.exit(run())
"""


@pytest.mark.parametrize("module", ["numpy", "evo_wordle.cli", "argparse", "_signal"])
def test_ctrl_c_while_modules_load_is_one_line_exit_130(module):
    result = subprocess.run([sys.executable, "-c", CTRL_C_IN_IMPORT.format(module=module)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 130
    assert result.stderr == "evo-wordle: interrupted\n"


LATE_CTRL_C = """
import os, signal, sys
sys.argv = ["evo-wordle", "pattern", "roars", "euler"]
from evo_wordle.console import run
code = run()
assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN, signal.getsignal(signal.SIGINT)
os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C after the command, while the interpreter exits
sys.exit(code)
"""


def test_ctrl_c_after_the_command_ends_changes_nothing():
    """A Ctrl-C that lands once the result is printed (the interpreter exiting) keeps the exit
    code and prints nothing: no traceback, no death by SIGINT (a loaded machine once showed one)."""
    result = subprocess.run([sys.executable, "-c", LATE_CTRL_C], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, "")
    assert "RY OB AB RB SB" in result.stdout  # the command ran and printed its result


def test_ctrl_c_at_a_real_moment_of_start_up():
    """A real SIGINT while the modules load (numpy's C extension just mapped, the rest to come)."""
    proc = subprocess.Popen([*PY, "rank", "--top", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        maps = Path(f"/proc/{proc.pid}/maps")
        wait_for(lambda: "_multiarray_umath" in maps.read_text(), 60, "numpy to load")
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
        err = proc.stderr.read()
        assert code in (0, 130) and "Traceback" not in err, (code, err)
        assert code == 0 or err.endswith("evo-wordle: interrupted\n")
    finally:
        proc.stdout.close()
        proc.stderr.close()


LOST_CTRL_C = """
import sys, time, weakref, _signal
import evo_wordle.cli
from evo_wordle import console

def main():
    class Thing:
        pass

    def callback(ref):  # as the import lock's weakref callback: Python cannot raise from here
        _signal.raise_signal(_signal.SIGINT)
        for _ in range(10_000):
            pass

    thing = Thing()
    ref = weakref.ref(thing, callback)
    del thing
    for _ in range(400):
        time.sleep(0.001)
    print("ran on", ref)
    return 0

evo_wordle.cli.main = main
sys.exit(console.run())
"""


def test_a_ctrl_c_lost_in_a_callback_is_raised_again():
    """A Ctrl-C landing in a callback (the import lock's, while the modules load) was printed as
    "Exception ignored ... Traceback" and lost: the command ran on and exited 0."""
    # Ctrl-C as in a terminal: a test run started in the background inherits SIGINT ignored, and
    # Python then installs no handler of its own (nor does run())
    result = subprocess.run([sys.executable, "-c", LOST_CTRL_C], capture_output=True, text=True, timeout=60,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (result.returncode, result.stdout, result.stderr) == (130, "", "evo-wordle: interrupted\n")


def test_stdout_to_dev_full_is_one_line_exit_1(cache_dir):
    with open("/dev/full", "w") as full:
        result = subprocess.run([*PY, "pattern", "roars", "euler"], stdout=full, stderr=subprocess.PIPE,
                                text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == "evo-wordle: error: cannot write the output: No space left on device\n"


def test_a_closed_stdout_does_not_stop_the_run_before_its_files(tmp_path, cache_dir):
    """``evolve-strategy --out s.json | head -1``: the next generation line met the closed pipe and
    the run ended there, exit 0, no s.json; it runs on and writes it (the lines go nowhere)."""
    out = tmp_path / "s.json"
    argv = ["evolve-strategy", "--candidates", "answers", "--guess-from", "allowed", "--train", "10",
            "--holdout", "5", "--mu", "2", "--lambda", "2", "--generations", "2", "--seed", "1", "--quiet",
            "--out", str(out)]
    proc = start(argv)
    try:
        assert proc.stdout.readline().startswith("game: ")  # what `head -1` reads, before it exits
        proc.stdout.close()
        assert proc.wait(timeout=300) == 0
        assert proc.stderr.read() == ""
    finally:
        cleanup(proc)
    assert json.loads(out.read_text())["genome"]


@pytest.mark.parametrize("how", ["full", "closed"])
def test_a_stderr_nobody_reads_does_not_stop_a_sweep(tmp_path, cache_dir, how):
    """A progress line into a full disk (``2>/dev/full``) ended a sweep after its first bench,
    exit 1, or with ``2>&1 | head -1`` exit 0: progress and warnings now go nowhere instead."""
    out = tmp_path / "s"
    argv = [*PY, *SWEEP[:-1], "--jobs", "2", "--out", str(out)]  # not --quiet: a line per bench
    env = {**os.environ, "EVO_WORDLE_PROGRESS_SECONDS": "0"}
    if how == "full":
        with open("/dev/full", "w") as full:
            result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=full, text=True, env=env, timeout=300)
        assert result.returncode == 0 and result.stdout.startswith("8/8 benches")
    else:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                start_new_session=True)
        try:
            assert proc.stdout.readline()
            proc.stdout.close()
            assert proc.wait(timeout=300) == 0
        finally:
            cleanup(proc)
    assert len(rows(out / "results.csv")) == 8


@pytest.mark.parametrize("argv", [["solve", "crane"], ["bench", "--games", "3"], ["--help"],
                                  ["assist", "--candidates", "answers"]])
def test_ascii_output_encoding_gives_no_traceback(cache_dir, argv):
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    result = subprocess.run([*PY, *argv], capture_output=True, env=env, timeout=60, input=b"quit\n")
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    result.stdout.decode("ascii")  # pure ASCII


def test_a_live_lock_holder_is_named_and_a_dead_one_is_taken_over(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from evo_wordle.folder_lock import "
         "folder_lock\nwith folder_lock(Path(sys.argv[1])):\n print('held', flush=True); time.sleep(60)",
         str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(EvoWordleError, match=f"another sweep is writing to .*process {holder.pid} on"):
            with folder_lock(tmp_path):
                pass
        holder.kill()
        holder.wait()
        with folder_lock(tmp_path):  # the owner is gone: the lock is ours
            record = json.loads((tmp_path / LOCK_FILE).read_text())
            assert record["pid"] == os.getpid() and record["started"]
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_second_evolve_strategy_run_on_a_checkpoint_is_refused_and_a_killed_ones_resumes(tmp_path, cache_dir,
                                                                                           capsys):
    """Two runs pointed at one checkpoint were both accepted and overwrote each other's progress:
    the second (new or --resume) is refused in one line while the first lives, and the first's
    lock, once it is killed, does not block the resume."""
    ck = tmp_path / "ck.json"
    run = ["evolve-strategy", "--candidates", "answers", "--guess-from", "allowed", "--mu", "3", "--lambda", "3",
           "--train", "60", "--validation", "20", "--checkpoint", str(ck), "--quiet"]
    proc = start([*run, "--generations", "200"])
    try:
        wait_for(ck.exists, 120, "a first checkpoint")
        for extra in ([], ["--resume"]):
            assert main([*run, "--generations", "200", *extra]) == 2
            out = capsys.readouterr()
            assert out.out == "" and out.err.count("\n") == 1, out.err
            assert out.err.startswith(f"evo-wordle: error: another evolve-strategy run is writing to {ck} "
                                      f"(process {proc.pid} on ")
        assert proc.poll() is None  # the first run goes on
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        cleanup(proc)
    assert json.loads((tmp_path / "ck.json.lock").read_text())["pid"] == proc.pid  # its record is left behind
    done = json.loads(ck.read_text())["generation"]
    assert main([*run, "--generations", str(done + 1), "--resume"]) == 0
    assert json.loads(ck.read_text())["generation"] == done + 1
    assert not (tmp_path / "ck.json.lock").exists()  # released: nothing left beside the checkpoint


def test_missing_dask_is_one_line_before_any_folder(tmp_path):
    code = ("import sys; sys.modules['distributed'] = None; from evo_wordle.console import run; "
            "sys.argv = ['evo-wordle'] + sys.argv[1:]; sys.exit(run())")
    out = tmp_path / "never"
    result = subprocess.run([sys.executable, "-c", code, "sweep", "--population", "5", "--executor", "dask",
                             "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == ("evo-wordle: error: --executor dask needs dask.distributed: "
                             "pip install 'evo-wordle[dask]'\n")
    assert not out.exists()


def test_two_local_dask_clusters_at_once_take_no_fixed_port_and_stay_local():
    """The scheduler's HTTP routes (dashboard off) listen on a free port on this machine only: a
    second local run beside the first printed "Port 8787 is already in use" on stderr."""
    import warnings

    from evo_wordle.executors import make_executor

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with make_executor("dask", jobs=1) as one, make_executor("dask", jobs=1) as two:
            servers = [ex.client.run_on_scheduler(
                lambda dask_scheduler: (dask_scheduler.http_server.address, dask_scheduler.http_server.port))
                for ex in (one, two)]
            assert list(two.map(abs, [-3])) == [3]
    assert all(host == "127.0.0.1" for host, _ in servers)
    assert servers[0][1] != servers[1][1] and 8787 not in {port for _, port in servers}


def test_local_dask_cluster_speaks_tls_and_refuses_plain_clients():
    import distributed

    from evo_wordle.executors import make_executor

    with make_executor("dask", jobs=1) as ex:
        address = ex.client.scheduler.address
        assert address.startswith("tls://")
        assert list(ex.map(abs, [-1, -2])) == [1, 2]
        with pytest.raises((TypeError, OSError)):
            distributed.Client(address, timeout="3s")  # no credentials: no way in
