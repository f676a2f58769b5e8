"""Every code snippet in README.md and docs/*.md runs, and shown output is checked.

Rules (docs/foundation.md, "Snippets in the docs"):
* ```python blocks are executed, each in a fresh namespace.
* ```console, ```bash, ```sh blocks: every ``evo-wordle …`` command runs (``$ `` prompt or not;
  a trailing ``\\`` joins lines).  In a console block the lines after a ``$`` command up to the
  next command are its output and must match exactly; a comment after a command (``  # …``)
  that names output is checked token by token (upper-case words and numbers must appear).
* A block preceded by ``<!-- snippet: not run — REASON -->`` is not run; the reason is required
  and :func:`test_not_run_blocks_say_why` lists them.  Blocks without a language (synopses,
  transcripts) are not code, so they must not hold a runnable ``evo-wordle`` command line.
"""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from evo_wordle.cli import main

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN = {"python", "console", "bash", "sh", "shell"}
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.S | re.M)
NOT_RUN = re.compile(r"<!--\s*snippet:\s*not run\s*[—-]+\s*(?P<why>.*?)\s*-->\s*$", re.S)
COMMENT = re.compile(r"\s#\s")
TOKEN = re.compile(r"\b(?:[A-Z]{3,}|\d+(?:\.\d+)?)\b")


def _blocks():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            why = NOT_RUN.search(before)
            yield {"file": path.relative_to(ROOT).as_posix(), "line": line, "lang": m.group("lang"),
                   "body": m.group("body"), "not_run": why.group("why") if why else None}


BLOCKS = list(_blocks())
RUNNABLE = [b for b in BLOCKS if b["lang"] in RUN and b["not_run"] is None]


def _commands(block: dict) -> list[tuple[str, str, list[str]]]:
    """(command, comment, expected output lines) for every evo-wordle command of a shell block."""
    out: list[tuple[str, str, list[str]]] = []
    lines = block["body"].splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + " " + lines[i].strip()
            i += 1
        text = line.strip()
        prompt = text.startswith("$ ")
        text = text[2:] if prompt else text
        if not text or text.startswith("#"):
            continue
        parts = COMMENT.split(text, maxsplit=1)
        command, comment = parts[0].strip(), (parts[1] if len(parts) > 1 else "")
        if not command.startswith("evo-wordle"):
            raise AssertionError(f"{block['file']}:{block['line']}: {command!r} is not an evo-wordle command; "
                                 "mark the block '<!-- snippet: not run — why -->' or drop the line")
        expected = []
        if block["lang"] == "console" and prompt:
            while i < len(lines) and not lines[i].startswith("$ "):
                expected.append(lines[i].rstrip())
                i += 1
            while expected and not expected[-1]:
                expected.pop()
        out.append((command, comment, expected))
    return out


def _run_cli(command: str, capsys, monkeypatch) -> str:
    argv = shlex.split(command)[1:]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # assist: end of input at once
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, f"{command}: exit {code}: {err.strip()}"
    return out


@pytest.fixture
def snippet_dir(tmp_path, monkeypatch):
    """A scratch folder that sees the repository's data/ (strategy files) and experiments/."""
    for name in ("data", "experiments"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_snippets_are_found_and_most_run():
    assert len(BLOCKS) >= 20
    assert len(RUNNABLE) >= 15
    assert any(b["lang"] == "python" for b in RUNNABLE)


def test_a_python_snippet_run_first_leaves_every_solver_registered():
    """In a fresh worker a python snippet may be the first test: restoring the solver registry to a
    snapshot taken before it was complete emptied it, and every later CLI snippet failed."""
    ids = [f"{b['file']}:{b['line']}" for b in RUNNABLE]
    first = ids[next(i for i, b in enumerate(RUNNABLE) if b["lang"] == "python")]
    later = ids[next(i for i, b in enumerate(RUNNABLE) if b["lang"] != "python" and "--strategy" in b["body"])]
    nodes = [f"{Path(__file__).as_posix()}::test_snippet_runs[{i}]" for i in (first, later)]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist",
                           "-p", "no:cacheprovider", *nodes], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0 and "2 passed" in proc.stdout, proc.stdout[-3000:]


@pytest.mark.parametrize("block", RUNNABLE, ids=[f"{b['file']}:{b['line']}" for b in RUNNABLE])
def test_snippet_runs(block, snippet_dir, capsys, monkeypatch):
    where = f"{block['file']}:{block['line']}"
    if block["lang"] == "python":
        from evo_wordle.solvers import SOLVERS, load_all

        load_all()  # the registry complete before the snapshot: restoring a partial one emptied it for later tests
        registered = dict(SOLVERS)
        try:  # a snippet may register a solver (docs/recipes.md): later tests must not see it
            exec(compile(block["body"], where, "exec"), {"__name__": "__snippet__"})  # noqa: S102
        finally:
            SOLVERS.clear()
            SOLVERS.update(registered)
        return
    commands = _commands(block)
    assert commands, f"{where}: a shell block without an evo-wordle command"
    for command, comment, expected in commands:
        out = _run_cli(command, capsys, monkeypatch)
        if expected:
            assert [ln.rstrip() for ln in out.rstrip("\n").splitlines()] == expected, f"{where}: {command}"
        missing = [t for t in TOKEN.findall(comment) if t not in out]
        assert not missing, f"{where}: {command}: the comment promises {missing}, not in the output"


def test_not_run_blocks_say_why():
    """The blocks the test leaves out, each with its reason (printed with -rA / -s)."""
    skipped = [b for b in BLOCKS if b["not_run"] is not None]
    for b in skipped:
        assert len(b["not_run"]) >= 10, f"{b['file']}:{b['line']}: give a reason"
        print(f"not run: {b['file']}:{b['line']}: {b['not_run']}")
    assert len(skipped) <= len(BLOCKS) // 3


def test_plain_blocks_hold_no_runnable_command():
    """A block without a language is a synopsis or transcript; a runnable command there would
    escape this test, so it must be in a console/bash block (or be marked not run)."""
    for b in BLOCKS:
        if b["lang"] or b["not_run"] is not None:
            continue
        for line in b["body"].replace("\\\n", " ").splitlines():  # continuation lines joined
            text = line.strip().removeprefix("$ ")
            if text.startswith("evo-wordle ") and "[" not in text and "|" not in text and "…" not in text:
                raise AssertionError(f"{b['file']}:{b['line']}: {text!r} in a plain block; use ```console")


def test_ci_runs_the_readme_test_command_with_what_the_test_extra_installs():
    """CI (.ci/run) runs the quickstart's command 2, and that command's plugins come with the
    `test` extra it installs (pytest-xdist for ``-n 2``)."""
    import tomllib

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^python3 -m venv .*pip install -e '\.\[test\]' && (python -m pytest[^\n]*)$", readme, re.M)
    assert command, "README's quickstart has no test command"
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert command.group(1) in ci
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    if " -n " in command.group(1):
        assert any(req.startswith("pytest-xdist") for req in extra)
