"""The five research tasks in examples/ run end to end (small sizes), and every name they
import from the package is documented in the API reference."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

EXPECTED = {
    "ga_game_logbook.py": ["nevals", "guess_fitness", "turn 0: "],
    "custom_fitness_vs_greedy.py": ["custom GA  mean", "greedy     mean", "selTournament(tournsize=3)"],
    "easimple_decision.py": ["candidates left", "hall of fame:", "guess: "],
    "sweep_population_mutation.py": ["best: population=", "heatmap.png"],
    "six_letter_words.py": ["words of 6 letters", "ga opener: ", "greedy  mean", "evolved strategy (opener ",
                            "test mean", "best fixed opening: "],
}


def test_there_is_one_example_per_research_task():
    assert [p.name for p in EXAMPLES] == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs(name, tmp_path):
    env = {**os.environ, "EVO_WORDLE_EXAMPLES_QUICK": "1", "MPLBACKEND": "Agg"}
    args = [sys.executable, str(ROOT / "examples" / name)]
    if name == "sweep_population_mutation.py":
        args += ["--out", str(tmp_path / "sweep")]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    for marker in EXPECTED[name]:
        assert marker in done.stdout, f"{marker!r} missing from {name}'s output:\n{done.stdout[-2000:]}"
    if name == "sweep_population_mutation.py":
        assert (tmp_path / "sweep" / "heatmap.png").stat().st_size > 0
    assert list(tmp_path.iterdir()) in ([], [tmp_path / "sweep"])  # nothing else written


def _package_imports(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("evo_wordle"):
            out += [(node.module, alias.name) for alias in node.names]
    return out


def test_every_package_name_the_examples_use_is_documented():
    pdoc_doc = importlib.import_module("pdoc.doc")  # in the `test` extra: missing, the test fails
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        build_api = importlib.import_module("build_api")
    finally:
        sys.path.pop(0)
    documented = set(build_api.modules())
    for path in EXAMPLES:
        for module, name in _package_imports(path):
            assert module in documented, f"{path.name}: module {module} is not in the API reference"
            doc = pdoc_doc.Module(importlib.import_module(module))
            member = doc.get(name)
            assert member is not None and (member.docstring or "").strip(), f"{path.name}: {module}.{name}"
