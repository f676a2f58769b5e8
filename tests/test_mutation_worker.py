"""experiments/_mutation_worker.py, the fast route of the mutation run, on a hand-made package and hand-made
mutants (no cosmic-ray needed): a killed mutant is killed, a survivor survives, a hanging one times out and
leaves no process behind, and coverage picks the tests that run a line."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "experiments" / "_mutation_worker.py"

CALC = '''\
from __future__ import annotations

TABLE = {"one": 1, "two": 2}


def add(a: int, b: int | None = None) -> int:
    """Sum (b defaults to 0)."""
    if b is None:
        b = 0
    return a + b


def double(a: int) -> int:
    total = add(a,
                a)
    return total


def unused(a: int) -> int:
    return a * 3
'''

TESTS = '''\
from pkgx.calc import TABLE, add, double


def test_add():
    assert add(2, 3) == 5


def test_double():
    assert double(4) == 8


def test_table():
    assert TABLE["two"] == 2
'''


def _worker():
    spec = importlib.util.spec_from_file_location("mutation_worker_under_test", WORKER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def copy(tmp_path):
    """A scratch copy with a tiny package and its tests."""
    (tmp_path / "pkgx").mkdir()
    (tmp_path / "pkgx" / "__init__.py").write_text("")
    (tmp_path / "pkgx" / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TESTS)
    return tmp_path


class Serve:
    """A running ``_mutation_worker.py serve`` on the scratch copy."""

    def __init__(self, copy: Path):
        self.log = copy / "worker.log"
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), "serve", "--copy", str(copy), "--module", "pkgx/calc.py",
             "--tests", "test_calc.py", "--log", str(self.log)],
            cwd=copy, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert json.loads(self.proc.stdout.readline()) == {"ready": True}

    def ask(self, source: str | None, tests: list[str], timeout: float = 60, order: list[str] | None = None) -> dict:
        self.proc.stdin.write(json.dumps({"source": source, "tests": tests, "timeout": timeout, "order": order}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        assert self.proc.wait(timeout=30) == 0


def _gone(pid: int) -> bool:
    """No such process, or only its zombie (the container's init may not reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


def test_killed_survived_and_the_module_restored(copy):
    w = Serve(copy)
    try:
        assert w.ask(None, ["test_calc.py"])["outcome"] == "survived"
        killed = w.ask(CALC.replace("return a + b", "return a - b"), ["test_calc.py"])
        assert killed["outcome"] == "killed" and killed["code"] == 1
        assert "test_add" in w.log.read_text()  # pytest's report of the failing test
        assert w.ask(CALC.replace("return a + b", "return b + a"), ["test_calc.py"])["outcome"] == "survived"
        # a mutant the tests of another line cannot see survives them, and is killed by its own test
        table = CALC.replace('"two": 2', '"two": 3')
        assert w.ask(table, ["test_calc.py::test_add"])["outcome"] == "survived"
        assert w.ask(table, ["test_calc.py::test_table"])["outcome"] == "killed"
        # a mutant that breaks the import kills, as a collection error does in a fresh process
        assert w.ask(CALC.replace("TABLE = {", "TABLE = 1 / 0 + {"), ["test_calc.py"])["outcome"] == "killed"
    finally:
        w.close()
    assert (copy / "pkgx" / "calc.py").read_text() == CALC


@pytest.mark.parametrize("loop", ["pass", "time.sleep(0.05)"], ids=["busy", "sleeping"])
def test_a_hanging_mutant_times_out_and_its_processes_are_gone(copy, loop):
    """A busy loop is stopped after `timeout` s of CPU, a sleeping one after WALL_FACTOR × `timeout` s of
    wall time; either way the child and what it started are killed, and the worker goes on."""
    pids = copy / "pids.txt"
    hang = CALC.replace('    """Sum (b defaults to 0)."""\n', textwrap.indent(textwrap.dedent(f'''\
        import os, subprocess, sys, time
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{helper.pid}}")
        while True:
            {loop}
        '''), "    "))
    w = Serve(copy)
    try:
        start = time.monotonic()
        answer = w.ask(hang, ["test_calc.py"], timeout=1)
        assert answer["outcome"] == "timeout" and 1 <= time.monotonic() - start < 60
        child, helper = map(int, pids.read_text().split())
        assert child != w.proc.pid
        deadline = time.monotonic() + 10
        while not (_gone(child) and _gone(helper)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(child) and _gone(helper)
        # the worker goes on with the next mutant
        assert w.ask(None, ["test_calc.py"])["outcome"] == "survived"
    finally:
        w.close()


def test_order_runs_the_named_tests_first(copy):
    w = Serve(copy)
    try:
        # with -x the first failing test ends the run: the mutant breaks test_add and test_table
        both = CALC.replace("return a + b", "return a - b").replace('"two": 2', '"two": 3')
        order = ["test_calc.py::test_table", "test_calc.py::test_add"]
        assert w.ask(both, ["test_calc.py"], order=order)["outcome"] == "killed"
        assert "1 failed" in w.log.read_text() and "test_table" in w.log.read_text()
        assert "test_add" not in w.log.read_text().split("short test summary")[-1]
    finally:
        w.close()


def test_a_child_imports_the_package_as_a_fresh_process_would(copy):
    """The worker warms up with third-party modules only: state the package's import leaves in them
    (here a mark on the json module, as DEAP's creator keeps the classes a module creates) is not
    inherited, so a mutant that stops the package from setting it is killed."""
    marked = CALC.replace("TABLE = {", "import json\n\nif not hasattr(json, 'pkgx_mark'):\n    json.pkgx_mark = 1\n"
                                        "TABLE = {", 1)
    (copy / "pkgx" / "calc.py").write_text(marked)
    (copy / "test_mark.py").write_text("import json\n\nimport pkgx.calc  # noqa: F401\n\n\n"
                                       "def test_mark():\n    assert json.pkgx_mark == 1\n")
    out = copy / "modules.json"
    subprocess.run([sys.executable, str(WORKER), "modules", "--copy", str(copy), "--module", "pkgx/calc.py",
                    "--tests", "test_mark.py", "--out", str(out)], cwd=copy, check=True)
    names = json.loads(out.read_text())
    assert "pytest" in names and not any(n.split(".")[0] in ("pkgx", "test_mark", "conftest") for n in names)
    w = Serve(copy)
    try:
        assert w.ask(None, ["test_mark.py"])["outcome"] == "survived"
        assert w.ask(marked.replace("if not hasattr", "if hasattr"), ["test_mark.py"])["outcome"] == "killed"
    finally:
        w.close()


def test_coverage_picks_the_tests_that_run_a_line(copy):
    out = copy / "cov.json"
    subprocess.run([sys.executable, str(WORKER), "coverage", "--copy", str(copy), "--module", "pkgx/calc.py",
                    "--tests", "test_calc.py", "--out", str(out)], cwd=copy, check=True)
    cov = json.loads(out.read_text())
    assert cov["exit"] == 0
    assert cov["order"] == ["test_calc.py::test_add", "test_calc.py::test_double", "test_calc.py::test_table"]
    assert set(cov["seconds"]) == set(cov["order"])
    mw = _worker()
    line = {text.strip(): i for i, text in enumerate(CALC.splitlines(), 1)}
    ids = ["test_calc.py::test_add", "test_calc.py::test_double", "test_calc.py::test_table"]
    # add's body runs first in test_add: it and every later test (which might read what it left)
    assert set(mw.select_tests(cov, CALC, line["return a + b"])) == set(ids)
    assert mw.select_tests(cov, CALC, line["b = 0"]) == []  # every call passes b
    # the continuation line of a statement belongs to that statement (run first by test_double)
    assert set(mw.select_tests(cov, CALC, line["a)"])) == set(ids[1:])
    assert mw.select_tests(cov, CALC, line["return a * 3"]) == []  # no test runs it
    # import-time lines (tables, def lines with their defaults) run the whole list
    assert mw.select_tests(cov, CALC, line['TABLE = {"one": 1, "two": 2}']) is None
    assert mw.select_tests(cov, CALC, line["def add(a: int, b: int | None = None) -> int:"]) is None
    # a constant read only inside functions runs the tests of the lines that read it
    source = CALC + "\n\nLIMIT = 7\n\n\ndef limited(a):\n    return min(a, LIMIT)\n"
    constants = mw.constant_readers(source, TESTS)  # TABLE: read by the tests
    at = source.splitlines().index("LIMIT = 7") + 1
    assert constants == {at: [at + 4]}
    assert mw.select_tests(cov, source, at, at, constants) == []  # no test calls limited()
    assert mw.constant_readers(source, TESTS + "from pkgx.calc import LIMIT") == {}  # read elsewhere: full list
    assert mw.select_tests(cov, source, line['TABLE = {"one": 1, "two": 2}'], None, constants) is None


def test_quick_tests_come_first_the_targeted_order_breaking_ties():
    mw = _worker()
    cov = {"order": ["a", "b", "c", "d"], "seconds": {"a": 2.0, "b": 0.1, "c": 2.0, "d": 0.5}}
    assert mw.quickest_first(cov, {"a", "b", "c", "d"}) == ["b", "d", "a", "c"]
    assert mw.quickest_first(cov, {"c", "a"}) == ["a", "c"]


def test_a_mutants_cpu_budget_follows_its_tests_times_up_to_the_cap():
    """Floor + factor × (its tests' coverage-run time + the slowest targeted test), never above --timeout:
    a hanging mutant of a quick test stops within seconds, and a one-off cost anywhere stays covered."""
    mw = _worker()
    cov = {"order": ["a", "b", "c"], "seconds": {"a": 2.0, "b": 0.5, "c": 4.0}}
    assert mw.time_budget(cov, ["b"], 120.0) == mw.BUDGET_FLOOR + mw.BUDGET_FACTOR * (0.5 + 4.0)
    assert mw.time_budget(cov, ["a", "b"], 120.0) == mw.BUDGET_FLOOR + mw.BUDGET_FACTOR * (2.5 + 4.0)
    assert mw.time_budget(cov, ["a", "b"], 30.0) == 30.0  # the cap
    assert mw.time_budget(cov, ["gone"], 120.0) == mw.BUDGET_FLOOR + mw.BUDGET_FACTOR * 4.0
    assert mw.time_budget({"order": [], "seconds": {}}, [], 120.0) == mw.BUDGET_FLOOR
    assert 10 <= mw.BUDGET_FLOOR <= 60 and 2 <= mw.BUDGET_FACTOR <= 10


def test_a_value_cached_by_one_test_and_read_by_a_later_one_kills(copy):
    """A line run only by the first test that fills a cache still reaches the later tests that read
    the cache: they are chosen too, and the mutant is killed as a whole-list run kills it."""
    cached = CALC + "\n\n_CACHE = {}\n\n\ndef squares():\n    if not _CACHE:\n" \
                    "        _CACHE['sq'] = [i * i for i in range(5)]\n    return _CACHE['sq']\n"
    (copy / "pkgx" / "calc.py").write_text(cached)
    (copy / "test_cache.py").write_text("from pkgx.calc import squares\n\n\ndef test_fill():\n"
                                        "    assert len(squares()) == 5\n\n\ndef test_read():\n"
                                        "    assert squares()[3] == 9\n")
    out = copy / "cov.json"
    subprocess.run([sys.executable, str(WORKER), "coverage", "--copy", str(copy), "--module", "pkgx/calc.py",
                    "--tests", "test_cache.py", "--out", str(out)], cwd=copy, check=True)
    cov = json.loads(out.read_text())
    mw = _worker()
    at = cached.splitlines().index("        _CACHE['sq'] = [i * i for i in range(5)]") + 1
    assert cov["lines"][str(at)] == ["test_cache.py::test_fill"]  # only the first test runs the line
    chosen = mw.select_tests(cov, cached, at)
    assert set(chosen) == {"test_cache.py::test_fill", "test_cache.py::test_read"}
    w = Serve(copy)
    try:
        assert w.ask(cached.replace("i * i", "i + i"), chosen)["outcome"] == "killed"
        assert w.ask(cached.replace("i * i", "i + i"), ["test_cache.py::test_fill"])["outcome"] == "survived"
    finally:
        w.close()


def test_import_time_lines_are_outside_function_bodies():
    mw = _worker()
    early = mw.import_time_lines(CALC)
    text = CALC.splitlines()
    assert {text[i - 1].strip() for i in early if text[i - 1].strip()} == {
        "from __future__ import annotations", 'TABLE = {"one": 1, "two": 2}',
        "def add(a: int, b: int | None = None) -> int:", "def double(a: int) -> int:", "def unused(a: int) -> int:"}


def test_annotation_only_mutants_are_recognised():
    mw = _worker()
    assert mw.annotation_only(CALC, CALC.replace("int | None", "int & None"))
    assert mw.annotation_only(CALC, CALC.replace("-> int:\n    total", "-> str:\n    total"))
    assert not mw.annotation_only(CALC, CALC.replace("None = None", "None = 0"))  # a default is evaluated
    assert not mw.annotation_only(CALC, CALC.replace("a * 3", "a + 3"))
    eager = CALC.replace("from __future__ import annotations\n", "")
    assert not mw.annotation_only(eager, eager.replace("int | None", "int & None"))  # evaluated at def time


def test_the_worker_runs_without_cosmic_ray():
    """The suite runs without the mutation extra: the worker must not import cosmic-ray."""
    text = WORKER.read_text()
    assert "cosmic_ray" not in text
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", "import sys; sys.modules['cosmic_ray'] = None; "
                          f"import runpy; runpy.run_path({str(WORKER)!r}, run_name='w')"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr


def _ask_idle(w: Serve, source: str, timeout: float, idle: float) -> dict:
    w.proc.stdin.write(json.dumps({"source": source, "tests": ["test_calc.py"], "timeout": timeout,
                                   "idle": idle}) + "\n")
    w.proc.stdin.flush()
    return json.loads(w.proc.stdout.readline())


def test_a_mutant_blocked_for_good_stops_after_the_idle_limit_not_the_wall_limit(copy):
    """A mutant that opens a FIFO no one writes to sleeps without CPU: it is stopped once it has been idle
    for ``idle`` seconds (here 1), long before WALL_FACTOR × its CPU budget (here 5 × 4 s)."""
    fifo = copy / "fifo"
    os.mkfifo(fifo)
    blocked = CALC.replace("    if b is None:\n", f"    os.open({str(fifo)!r}, os.O_RDONLY)\n    if b is None:\n")
    blocked = blocked.replace("TABLE = {", "import os\n\nTABLE = {", 1)
    w = Serve(copy)
    try:
        start = time.monotonic()
        answer = _ask_idle(w, blocked, timeout=4, idle=1)
        took = time.monotonic() - start
        assert answer["outcome"] == "timeout" and took < _worker().WALL_FACTOR * 4 / 2, took
        assert w.ask(None, ["test_calc.py"])["outcome"] == "survived"
    finally:
        w.close()


def test_a_test_waiting_for_a_busy_process_of_its_own_session_is_not_idle(copy):
    """A test that waits for a process it started in a session of its own uses no CPU itself; the
    process it waits for does, so the child is not stopped as idle."""
    busy = CALC.replace("    if b is None:\n", textwrap.indent(textwrap.dedent('''\
        import subprocess, sys
        subprocess.run([sys.executable, "-c", "import time\\nend = time.process_time() + 2.5\\n"
                        "while time.process_time() < end: pass"], start_new_session=True, check=True)
        '''), "    ") + "    if b is None:\n")
    w = Serve(copy)
    try:
        assert _ask_idle(w, busy, timeout=20, idle=1)["outcome"] == "survived"
    finally:
        w.close()


def test_a_mutant_that_kills_its_worker_counts_killed_and_the_run_goes_on(copy):
    """A mutant that kills its tests' parent takes the worker down with it: the driver counts it killed,
    restores the copy, starts a fresh worker and runs the next mutants (before, the whole run stopped with
    nothing kept)."""
    spec = importlib.util.spec_from_file_location("mutation_script_under_test", ROOT / "experiments" / "mutation.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    (copy / "experiments").mkdir()
    (copy / "experiments" / "_mutation_worker.py").write_text(WORKER.read_text())
    killer = CALC.replace("    if b is None:\n", "    import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n"
                                                  "    if b is None:\n")
    jobs = [{"source": source, "tests": ["test_calc.py"]}
            for source in (killer, CALC.replace("return a + b", "return a - b"), CALC.replace("a * 3", "a + 3"))]
    pool = script.WorkerPool([copy], "pkgx/calc.py", ["test_calc.py"], None, copy)
    first = pool.procs[0].pid
    try:
        pool.run(jobs, 30, ["test_calc.py"], lambda job: None)
    finally:
        pool.close()
    assert [j["answer"]["outcome"] for j in jobs] == ["killed", "killed", "survived"]
    assert jobs[0]["answer"]["worker_died"] and not jobs[1]["answer"].get("worker_died")
    assert pool.procs[0].pid != first and (copy / "pkgx" / "calc.py").read_text() == CALC
