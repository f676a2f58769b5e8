"""The fast test side of experiments/mutation.py: one long-lived worker per job that forks a child per mutant,
and the coverage map that picks each mutant's tests.

Why: a fresh Python per mutant spends about 2.5 s of CPU importing pytest, numpy, scipy, hypothesis and the
package before any test runs.  A worker imports the heavy third-party modules once (by collecting the targeted
tests, then forgetting every module that lives in its scratch copy: the package and the tests), and for each
mutant forks: the child starts from that warm state, imports the package and the tests afresh from the copy,
where the worker has just written the mutated module, runs ``pytest -x`` on the mutant's tests in a fresh cache
folder, and exits with pytest's code.  The fork isolates every mutant from the next (module state, caches,
monkeypatches, threads, a hanging loop: the child is killed with its process group after the timeout), and
nothing the child imports is shared with the worker.

Why not reload the mutated module in place: other modules keep the names they imported from it (classes,
functions, constants), so a reload would have to find and reload each of them in order; importing the whole
package afresh in a forked child is correct by construction and costs about 0.1 s.

No cosmic-ray here (mutants arrive as source text), so the suite tests this file with hand-made mutants.

    python experiments/_mutation_worker.py serve --copy DIR --module M --tests T1,T2 [--pristine CACHE] --log FILE
    python experiments/_mutation_worker.py coverage --copy DIR --module M --tests T1,T2 [--pristine CACHE] --out F

``serve`` reads one JSON request per line on stdin ({"source": text or null, "tests": [...], "timeout": s,
"order": optional test ids to run first, "idle": optional seconds without CPU that count as hung, 10 by default})
and answers one JSON line ({"outcome": "killed" | "survived" | "timeout", "code": pytest's exit code,
"seconds": wall time}).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import ctypes
import gc
import importlib
import json
import math
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTEST_ARGS = ["-x", "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts="]
#: a child is stopped after ``timeout`` s of CPU (so a loaded machine does not turn a slow mutant into a
#: timeout), or after this many times ``timeout`` of wall time (a mutant that sleeps or waits forever)
WALL_FACTOR = 5
#: ... or once every process of its group has slept this long (at most ``timeout``) without using any CPU:
#: a mutant blocked for good (a FIFO opened without O_NONBLOCK waits for a writer that never comes) stops
#: within seconds instead of the wall limit.  No targeted test sleeps that long without CPU in its group.
IDLE_SECONDS = 10.0
#: how often the child's process group is looked at while it runs (seconds)
POLL_SECONDS = 0.25
#: exit code of a child that imported the package from somewhere other than its scratch copy
WRONG_COPY = 111
#: a mutant's CPU budget (``time_budget``): this many times what its tests took in the coverage run ...
BUDGET_FACTOR = 3
#: ... plus this many seconds for the child's own start (importing the package, collecting the tests)
BUDGET_FLOOR = 20.0


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (no orphaned workers or children)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def fresh_cache(pristine: str | None) -> str:
    """A new cache folder holding hard links to the unmutated table (or nothing: the mutant builds its own)."""
    fresh = tempfile.mkdtemp(prefix="evo-wordle-mutant-")
    if pristine:
        for f in Path(pristine).iterdir():
            if f.is_file():
                os.link(f, Path(fresh) / f.name)
    return fresh


def forget_copy_modules(copy: Path) -> None:
    """Drop every imported module whose file lives in ``copy`` (the package, the tests, conftest)."""
    root = str(copy.resolve()) + os.sep
    for name, mod in list(sys.modules.items()):
        if name == "__main__":
            continue  # the worker's own script (inspect.getmodule and others look it up)
        file = getattr(mod, "__file__", None)
        if file and os.path.realpath(file).startswith(root):
            del sys.modules[name]


def drop_bytecode(path: Path) -> None:
    """Remove the cached bytecode of ``path``: a mutant of the same size written within the same second
    as the source the bytecode was compiled from would otherwise be run as the old code."""
    for pyc in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
        pyc.unlink(missing_ok=True)


class Worker:
    """The serving side: warm imports, then one forked child per request."""

    def __init__(self, copy: Path, module: str, tests: list[str], pristine: str | None, log: Path):
        self.copy, self.module, self.pristine, self.log = copy.resolve(), module, pristine, log
        self.target = self.copy / module
        self.source = self.target.read_text()
        os.chdir(self.copy)
        sys.path.insert(0, str(self.copy))
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.dont_write_bytecode = True
        drop_bytecode(self.target)
        self.warm(tests)

    def warm(self, tests: list[str]) -> None:
        """Import the third-party modules the tests import.  They are listed by a throwaway process that
        collects the tests; the worker itself never imports the package or the tests, so no state the
        package's import leaves in other modules (DEAP's ``creator`` classes, warning filters, pytest's
        and hypothesis's registries) is inherited by a child: each child imports the package as a fresh
        process would."""
        out = Path(tempfile.mkdtemp(prefix="evo-wordle-warm-")) / "modules.json"
        try:
            subprocess.run([sys.executable, __file__, "modules", "--copy", str(self.copy), "--module", self.module,
                            "--tests", ",".join(tests), "--out", str(out)], cwd=self.copy, check=True)
            names = json.loads(out.read_text())
        finally:
            shutil.rmtree(out.parent, ignore_errors=True)
        for name in names:
            with contextlib.suppress(Exception):
                importlib.import_module(name)
        forget_copy_modules(self.copy)  # in case a third-party module imported something of the copy
        gc.collect()
        gc.freeze()  # the warm objects never move to a collected generation: children's gc.collect skips them

    def run(self, source: str | None, tests: list[str], timeout: float, order: list[str] | None = None,
            idle: float = IDLE_SECONDS) -> dict:
        """Write the mutant (None: the unmutated module), run its tests in a forked child, restore the module.
        ``order``: test ids to run first, in this order (the others follow in collection order); ``idle``:
        seconds without CPU after which the child counts as hung (at most ``timeout``)."""
        if source is not None:
            self.target.write_text(source)
        cache = fresh_cache(self.pristine)
        start = time.monotonic()
        try:
            pid = os.fork()
            if pid == 0:  # the child: never returns
                self._child(tests, cache, timeout, order)
            status, timed_out = wait_child(pid, WALL_FACTOR * timeout, min(idle, timeout))
        finally:
            if source is not None:
                self.target.write_text(self.source)
            shutil.rmtree(cache, ignore_errors=True)
        seconds = round(time.monotonic() - start, 3)
        code = os.waitstatus_to_exitcode(status)
        if timed_out or code in (-signal.SIGXCPU, -signal.SIGKILL):  # out of CPU time (or wall time)
            return {"outcome": "timeout", "code": None, "seconds": seconds}
        if code == WRONG_COPY:
            return {"outcome": "error", "code": code, "seconds": seconds,
                    "error": f"the child imported evo_wordle from outside {self.copy} (see {self.log})"}
        return {"outcome": "survived" if code == 0 else "killed", "code": code, "seconds": seconds}

    def _child(self, tests: list[str], cache: str, timeout: float, order: list[str] | None) -> None:
        code = 1
        try:
            os.setpgid(0, 0)  # its own process group: a timeout kills whatever the tests started too
            die_with_parent()
            cpu = math.ceil(timeout)
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU after `timeout` s of CPU
            out = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
            os.dup2(out, 2)
            os.close(out)
            quiet = os.open(os.devnull, os.O_RDONLY)  # read-only: stdin is the worker's request channel
            os.dup2(quiet, 0)
            os.close(quiet)
            os.environ["EVO_WORDLE_CACHE"] = cache
            import pytest

            code = int(pytest.main([*PYTEST_ARGS, *tests], plugins=[Reorder(order)] if order else []))
            package = sys.modules.get("evo_wordle")
            if package is not None and not os.path.realpath(package.__file__).startswith(str(self.copy)):
                print(f"mutation worker: imported {package.__file__}, not the scratch copy", flush=True)
                code = WRONG_COPY
        except BaseException:  # noqa: B036 - anything the mutant raises outside a test kills it, as in a process
            import traceback

            traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)


class Reorder:
    """A pytest plugin: the collected tests named in ``order`` first, in that order, then the rest."""

    def __init__(self, order: list[str]):
        self.rank = {t: i for i, t in enumerate(order)}

    def pytest_collection_modifyitems(self, items) -> None:
        items.sort(key=lambda item: self.rank.get(item.nodeid, len(self.rank)))


def group_state(pid: int) -> tuple[bool, int]:
    """(whether a process of ``pid``'s group or descendants is running or in uninterruptible I/O, the CPU
    ticks those processes used, their reaped children included), read from /proc.  Descendants count
    too: a test may wait for a process it started in a session of its own."""
    procs = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, tail = stat.read_text().rsplit(")", 1)
            fields = tail.split()
            procs[int(head.split(" (", 1)[0])] = (int(fields[1]), int(fields[2]), fields[0],
                                                  sum(int(f) for f in fields[11:15]))  # utime … cstime
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    children: dict[int, list[int]] = {}
    for p, (ppid, _, _, _) in procs.items():
        children.setdefault(ppid, []).append(p)
    members, todo = {pid}, [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in members:
                members.add(c)
                todo.append(c)
    members |= {p for p, (_, pgrp, _, _) in procs.items() if pgrp == pid}
    busy = any(procs[p][2] in ("R", "D") for p in members if p in procs)
    return busy, sum(procs[p][3] for p in members if p in procs)


def wait_child(pid: int, timeout: float, idle: float | None = None) -> tuple[int, bool]:
    """Wait for ``pid`` up to ``timeout`` seconds, or until it, its group and its descendants have used
    no CPU for ``idle`` seconds with none of them running (None: no idle limit); then kill its group.
    (status, stopped)"""
    fd = os.pidfd_open(pid)
    try:
        start = time.monotonic()
        last_ticks, still_since = -1, start
        while True:
            now = time.monotonic()
            left = timeout - (now - start)
            ready, _, _ = select.select([fd], [], [], max(0.0, min(left, POLL_SECONDS)))
            if ready:
                break
            now = time.monotonic()
            if idle is not None:
                busy, ticks = group_state(pid)
                if busy or ticks != last_ticks:
                    last_ticks, still_since = ticks, now
            if now - start >= timeout or (idle is not None and now - still_since >= idle):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return 0, True
        _, status = os.waitpid(pid, 0)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)  # whatever the tests left running
        return status, False
    finally:
        os.close(fd)


def serve(args: argparse.Namespace) -> int:
    die_with_parent()
    channel = os.fdopen(os.dup(1), "w")
    log = Path(args.log).resolve()
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)  # anything printed while warming goes to the log, not into the answers
    os.dup2(out, 2)
    os.close(out)
    worker = Worker(Path(args.copy), args.module, args.tests.split(","), args.pristine, log)
    channel.write(json.dumps({"ready": True}) + "\n")
    channel.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        answer = worker.run(req.get("source"), req["tests"], float(req["timeout"]), req.get("order"),
                            float(req.get("idle", IDLE_SECONDS)))
        channel.write(json.dumps(answer) + "\n")
        channel.flush()
    return 0


# ---------------------------------------------------------------------------------------------- choosing tests

def import_time_lines(source: str) -> set[int]:
    """Lines that run when the module is imported: everything outside function bodies (module and class
    statements, def and class lines with their decorators, defaults and annotations).  A body that shares
    a line with its def counts as import time too."""
    tree = ast.parse(source)
    n = len(source.splitlines())
    in_body = [False] * (n + 2)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0].lineno
            if first > node.lineno:
                for line in range(first, node.end_lineno + 1):
                    in_body[line] = True
    for node in ast.walk(tree):  # a signature's own lines stay import time even after a nested def's body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for line in range(min([d.lineno for d in node.decorator_list] + [node.lineno]), node.body[0].lineno):
                in_body[line] = False
    return {line for line in range(1, n + 1) if not in_body[line]}


def statement_of(source: str):
    """A function line → the first line of the statement it belongs to (coverage.py's own parser)."""
    from coverage.parser import PythonParser

    parser = PythonParser(text=source)
    parser.parse_source()
    return parser.first_line


def constant_readers(source: str, others: str = "") -> dict[int, list[int]]:
    """Module-level constants read only inside this module's functions: the lines of such an assignment
    → the lines that read its name.  A mutant of the constant's value then matters only to the tests that
    run those lines.  Left out (so their lines run the full list): values with calls or lambdas (they may do
    more than give a value), names read at import time or rebound (``global``), and names that appear in
    ``others`` (the text of the package's other modules and of the tests, which may read them)."""
    tree = ast.parse(source)
    early = import_time_lines(source)
    loads: dict[str, list[int]] = {}
    rebound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node.lineno)
        elif isinstance(node, ast.Global):
            rebound.update(node.names)
    out = {}
    for stmt in tree.body:
        target = (stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                  else stmt.target if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else None)
        if not isinstance(target, ast.Name) or stmt.value is None:
            continue
        name = target.id
        if any(isinstance(n, ast.Call | ast.Lambda | ast.NamedExpr) for n in ast.walk(stmt.value)):
            continue
        readers = loads.get(name, [])
        if name in rebound or any(line in early for line in readers) or re.search(rf"\b{name}\b", others):
            continue
        for line in range(stmt.lineno, stmt.end_lineno + 1):
            out[line] = sorted(set(readers))
    return out


def select_tests(cov: dict, source: str, start_line: int, end_line: int | None = None,
                 constants: dict[int, list[int]] | None = None) -> list[str] | None:
    """The tests a mutant on lines start..end must run, quickest first (their times in the coverage run).

    Import-time lines run the full list (None), except a constant's value (``constant_readers``), which
    runs the tests that run the lines reading it; a line in a function body runs the tests that ran its
    statement and every test after the first of them (``and_later``); an empty list: no test runs it,
    so the mutant cannot be noticed."""
    end_line = end_line or start_line
    lines = range(start_line, end_line + 1)
    constants = constants or {}
    if all(line in constants for line in lines):
        chosen: set[str] = set()
        for reader in {r for line in lines for r in constants[line]}:
            tests = select_tests(cov, source, reader)
            if tests is None:
                return None
            chosen.update(tests)
        return quickest_first(cov, chosen)
    early = import_time_lines(source)
    if any(line in early for line in lines):
        return None
    first = statement_of(source)
    wanted = {first(line) for line in lines}
    chosen = set()
    for raw, contexts in cov["lines"].items():
        if first(int(raw)) in wanted:
            chosen.update(contexts)
    if any(c not in cov["order"] for c in chosen):  # run outside any test (collection, session end)
        return None
    return quickest_first(cov, and_later(cov, chosen))


def and_later(cov: dict, chosen: set[str]) -> set[str]:
    """``chosen`` and every test the coverage run ran after the first of them.  A test that ran a
    line may leave what it computed there in state later tests read without running the line (a
    value cached on the session's context, an lru_cache, a file in the cache folder): with the
    mutant those tests read the mutated value, so they must run too.  Tests before the first one
    cannot have read anything the line made."""
    if not chosen:
        return chosen
    first = min(cov["order"].index(t) for t in chosen)
    return set(cov["order"][first:])


def quickest_first(cov: dict, chosen: set[str]) -> list[str]:
    """``chosen`` in order of their time in the coverage run, the targeted order breaking ties: a mutant
    that some test kills stops at the first one (``-x``), so quick tests first make killing cheaper."""
    seconds = cov.get("seconds", {})
    return sorted((t for t in cov["order"] if t in chosen), key=lambda t: seconds.get(t, 0.0))


def time_budget(cov: dict, tests: list[str], cap: float) -> float:
    """CPU seconds a mutant's child gets before it counts as hung (killed), at most ``cap``: the floor plus
    ``BUDGET_FACTOR`` times the coverage run's time of its tests and of the slowest targeted test (a one-off
    cost, such as building a table, may fall on any of them once the order changes).  The coverage run
    traces every line, so it is slower than a child's run: an unmutated list stays well inside its budget,
    while a mutant that loops for ever stops after seconds, not after the whole ``--timeout``."""
    seconds = cov.get("seconds", {})
    spent = sum(seconds.get(t, 0.0) for t in tests) + max(seconds.values(), default=0.0)
    return round(min(cap, BUDGET_FLOOR + BUDGET_FACTOR * spent), 1)


def annotation_only(original: str, mutated: str) -> bool:
    """True if the mutant changes only type annotations in a module that never evaluates them
    (``from __future__ import annotations``): such a mutant is equivalent by construction."""
    try:
        before, after = ast.parse(original), ast.parse(mutated)
    except SyntaxError:
        return False
    future = any(isinstance(s, ast.ImportFrom) and s.module == "__future__" and
                 any(a.name == "annotations" for a in s.names) for s in before.body)
    return future and _without_annotations(before) == _without_annotations(after)


def _without_annotations(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.returns = None
        elif isinstance(node, ast.AnnAssign):
            node.annotation = ast.Constant("annotation")
    return ast.dump(tree)


def coverage_map(args: argparse.Namespace) -> int:
    """Run the targeted tests once under coverage.py, one dynamic context per test (its setup, call and
    teardown), and write {"order": test ids as run, "seconds": {test id: its time}, "lines": {line: [test ids]},
    "exit": pytest's code}.
    Lines run outside any test (at collection) are recorded under the context "" ."""
    import coverage
    import pytest

    copy = Path(args.copy).resolve()
    os.chdir(copy)
    sys.path.insert(0, str(copy))
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    sys.dont_write_bytecode = True
    target = copy / args.module
    drop_bytecode(target)
    cov = coverage.Coverage(data_file=None, include=[str(target)], config_file=False)
    order: list[str] = []
    seconds: dict[str, float] = {}

    class Contexts:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            order.append(item.nodeid)
            cov.switch_context(item.nodeid)
            start = time.perf_counter()
            yield
            seconds[item.nodeid] = round(time.perf_counter() - start, 4)
            cov.switch_context("<after a test>")

    cache = fresh_cache(args.pristine)
    os.environ["EVO_WORDLE_CACHE"] = cache
    cov.start()
    try:
        code = int(pytest.main([*PYTEST_ARGS[1:], *args.tests.split(",")], plugins=[Contexts()]))
    finally:
        cov.stop()
        shutil.rmtree(cache, ignore_errors=True)
    data = cov.get_data()
    files = [f for f in data.measured_files() if os.path.realpath(f) == str(target)]
    lines: dict[str, list[str]] = {}
    for f in files:
        for line, contexts in data.contexts_by_lineno(f).items():
            lines.setdefault(str(line), []).extend(contexts)
    Path(args.out).write_text(json.dumps({"order": order, "seconds": seconds, "lines": lines, "exit": code}))
    return 0


def list_modules(args: argparse.Namespace) -> int:
    """Collect the tests (imports only) and write the names of the modules that are not the copy's own."""
    before = set(sys.modules)  # the interpreter's own start-up modules
    import pytest

    copy = Path(args.copy).resolve()
    os.chdir(copy)
    sys.path.insert(0, str(copy))
    cache = fresh_cache(None)
    os.environ["EVO_WORDLE_CACHE"] = cache
    try:
        pytest.main(["--collect-only", *PYTEST_ARGS, *args.tests.split(",")])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    root = str(copy) + os.sep
    new = {name: mod for name, mod in list(sys.modules.items()) if name not in before}
    # the copy's packages by their top-level name (a sub-package may live elsewhere, e.g. the word lists)
    own = {name.split(".")[0] for name, mod in new.items()
           if os.path.realpath(getattr(mod, "__file__", None) or "/").startswith(root)} | {"conftest", "__main__"}
    names = [name for name in new if name.split(".")[0] not in own]
    Path(args.out).write_text(json.dumps(names))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["serve", "coverage", "modules"])
    ap.add_argument("--copy", required=True, help="the scratch copy of the checkout (cwd and import root)")
    ap.add_argument("--module", required=True, help="the mutated module, relative to the copy")
    ap.add_argument("--tests", required=True, help="comma-separated pytest targets")
    ap.add_argument("--pristine", help="cache folder with the unmutated table (hard-linked into each fresh cache)")
    ap.add_argument("--log", help="serve: where pytest's output goes")
    ap.add_argument("--out", help="coverage: the JSON file to write")
    args = ap.parse_args(argv)
    return {"serve": serve, "coverage": coverage_map, "modules": list_modules}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
