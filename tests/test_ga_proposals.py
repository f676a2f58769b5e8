"""The decision GA's proposals (GASearchSolver.evolve) and the node list of
experiments/ga_proposals.py, on a small list."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.evolve.bnb import TreeSearch
from evo_wordle.evolve.search import GASearchSolver
from evo_wordle.game import GameState, Settings

from .experiment_scripts import load_experiment
from .small_lists import IGHT, small_context

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    return small_context("test-prop", IGHT, slice(400, 430), slice(None, None, 173), 70)


@pytest.fixture(scope="module")
def script():
    return load_experiment("ga_proposals")


def test_tree_nodes_follow_the_tree(small, script):
    paths = TreeSearch(small, "allowed").tree(small.words.answer_index, None, 6, small.words.index("tight"))
    nodes = script.tree_nodes(small, paths, 2)
    assert nodes and all(len(n["cand"]) > 2 for n in nodes)
    depth_one = [n for n in nodes if len(n["history"]) == 1]
    for node in nodes:
        k = len(node["history"])
        assert node["left"] == 6 - k and k >= 1
        for a in node["cand"].tolist():
            assert paths[a][k] == node["tree_guess"]
            assert tuple((g, int(small.table[g, a])) for g in paths[a][:k]) == node["history"]
    # every answer in a depth-1 node of more than two answers, and only those
    parts: dict[int, int] = {}
    for a in small.words.answer_index.tolist():
        code = int(small.table[small.words.index("tight"), a])
        parts[code] = parts.get(code, 0) + 1
    assert sorted(len(n["cand"]) for n in depth_one) == sorted(c for c in parts.values() if c > 2)


def test_evolve_exposes_the_decision(small):
    settings = Settings(candidates="answers", guess_from="allowed")
    state = GameState.start(small, settings)
    assert len(state.candidates) > 6
    ga = GASearchSolver(small, settings, opener="tight").evolve(state)
    assert ga["choice"] == GASearchSolver(small, settings, opener="tight").search(state)
    population = np.asarray(ga["population"]).tolist()
    assert 1 <= len(population) <= 16 and len(set(population)) == len(population)
    assert set(population) <= set(ga["fitness"]) and set(np.asarray(ga["seeds"]).tolist()) <= set(ga["fitness"])
    best = min(ga["fitness"].values())
    assert ga["fitness"][ga["choice"]] == best and min(ga["fitness"][w] for w in population) == best


@pytest.mark.parametrize("bad,message", [
    (["--population", "301", "--generations", "0"], "would breed up to 301 words a decision"),
    (["--opener", "zzzzz"], "'zzzzz' is not an allowed word"),
])
def test_bad_arguments_are_one_line_before_any_work(tmp_path, bad, message):
    """A search the solver refuses (or an unknown opener) was a traceback, after the whole
    optimal tree had been searched."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "experiments" / "ga_proposals.py"), *bad,
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert message in lines[-1] and "Traceback" not in done.stderr and not (tmp_path / "out").exists()
