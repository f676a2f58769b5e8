"""experiments/board_goals.py: issue 17's goals on 10,000 test sets.  Its sets must extend the
shipped file's own test sets (the registered figure on the first 5,000 is the file's figure),
hold test answers only, its verdicts must read each goal as the issue states it, and its
figures must not depend on --jobs."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import numpy as np
import pytest

from evo_wordle.evolve.metaga import file_test_sets
from evo_wordle.evolve.strategy import resolve_strategy_path
from evo_wordle.split import recorded_split
from evo_wordle.tune import load_params

from .experiment_scripts import EXPERIMENTS, board_study_across_jobs, load_experiment


@pytest.fixture(scope="module")
def script():
    return load_experiment("board_goals")


@pytest.mark.parametrize("boards", [2, 8])
def test_the_sets_extend_the_files_own_test_sets_with_test_answers_only(ctx, script, boards):
    doc = load_params(resolve_strategy_path(script.NAMES[boards]))
    own = file_test_sets(ctx, doc)
    wider = script.test_sets(ctx, doc, len(own) + 300)
    assert wider.shape == (len(own) + 300, boards)
    assert np.array_equal(wider[: len(own)], own)
    assert not np.array_equal(wider[len(own):], own[:300])  # new sets, not the first ones again
    split = recorded_split(doc["provenance"]["split"], ctx.words)
    assert np.isin(wider, split.part("test")).all()
    assert doc["provenance"]["sets"]["test_sets"] == len(own)  # the file's record is left alone
    assert np.array_equal(script.test_sets(ctx, doc, 7), own[:7])


@pytest.mark.parametrize(("boards", "evolved", "summed", "lost", "met"), [
    (2, 4.70, 4.80, (0, 0), True), (2, 4.71, 4.80, (0, 0), False), (2, 4.90, 4.80, (0, 0), False),
    (4, 6.80, 6.95, (3, 4), True), (4, 6.79, 6.95, (4, 4), False), (4, 6.81, 6.95, (0, 4), False),
    (4, 6.79, 6.95, (0, 0), True), (4, 6.79, 6.95, (1, 0), False),
    (8, 10.55, 10.77, (9, 1), True), (8, 10.56, 10.77, (0, 1), False),
])
def test_each_verdict_reads_the_issues_goal(script, boards, evolved, summed, lost, met):
    """Dordle: at least 0.1 below summed entropy; Quordle: at most 6.80 and fewer lost sets than
    summed entropy, or none (neither policy lost a test set: "fewer" cannot be asked); Octordle:
    at most 10.55 (the issue names no failure goal there)."""
    assert script.verdict(boards, evolved, summed, *lost)["met"] is met


def test_the_registry_quotes_the_files_own_figure_for_its_own_sets():
    """The first 5,000 sets are the file's own: their mean must be the figure multiboard_evolution
    registered for the file, or the two runs are not of the same policy on the same sets."""
    with open(EXPERIMENTS / "figures.toml", "rb") as fh:
        figures = tomllib.load(fh)["figure"]
    for name in ("dordle", "quordle", "octordle"):
        assert figures[f"goals-{name}-own-sets"]["value"] == figures[f"{name}-evolved-test"]["value"]


def test_figures_do_not_depend_on_jobs_and_bad_arguments_are_refused(tmp_path):
    data = board_study_across_jobs(tmp_path, "board_goals", 2, ["--sets", "6"])
    assert data["sets"] == 6 and data["file_sets"] == 5000 and data["rollout"] == 200
    assert data["evolved"]["file_sets_mean"] == data["evolved"]["mean"]  # 6 sets: all the file's own
    diff = data["evolved_minus_summed_entropy"]
    assert diff["mean"] == pytest.approx(data["evolved"]["mean"] - data["summed_entropy"]["mean"])
    assert data["goal"] == "at least 0.1 below summed entropy" and data["failure"] == "not solved within 7"
    for bad in (["--sets", "1"], ["--jobs", "0"], ["--boards", "3"]):
        done = subprocess.run([sys.executable, str(EXPERIMENTS / "board_goals.py"), *bad,
                               "--out", str(tmp_path / "bad")], capture_output=True, text=True)
        assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr


def test_distinct_answer_sets_never_repeat_an_answer_and_hold_test_answers_only(ctx, script):
    """--distinct-answers: the real games' sets (no set repeats an answer), from the same test
    answers and the file's seed sequence; deterministic, and not the file's own sets."""
    doc = load_params(resolve_strategy_path(script.NAMES[4]))
    sets = script.test_sets(ctx, doc, 3000, distinct=True)
    assert sets.shape == (3000, 4)
    assert all(len(set(row)) == 4 for row in sets.tolist())
    plain = script.test_sets(ctx, doc, 3000)
    assert any(len(set(row)) < 4 for row in plain.tolist())  # with replacement a few sets repeat one
    split = recorded_split(doc["provenance"]["split"], ctx.words)
    assert np.isin(sets, split.part("test")).all()
    assert np.array_equal(script.test_sets(ctx, doc, 3000, distinct=True), sets)
    assert not np.array_equal(sets, plain)
    assert "distinct_answers" not in doc["provenance"]["sets"]  # the file's record is left alone
