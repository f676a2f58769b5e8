"""experiments/assist_estimate.py: its exact figure and the assistant's own are what the assistant
computes, the old draw is the flattened reference it claims to be, the summary is made of its rows,
and bad input is one line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evo_wordle.assist import AssistSession
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings
from evo_wordle.solvers import make_solver

from .experiment_scripts import load_experiment


@pytest.fixture(scope="module")
def script():
    return load_experiment("assist_estimate")


@pytest.fixture(scope="module")
def out(script, ctx):
    return script.study(ctx, seed=0, states=3, redraws=300)


def figure(ctx, row, sample):
    """The assistant's own figure for a row's state, drawing ``sample`` and never cut by time."""
    settings = Settings()
    sess = AssistSession(ctx, settings, make_solver("greedy", ctx, settings))
    sess.enter(ctx.words.index(row["opener"]), int(ctx.table[ctx.words.index(row["opener"]),
                                                            ctx.words.index(row["answer"])]))
    return sess.expected_to_finish(sample=sample, budget=math.inf)


def test_the_exact_figure_and_the_shown_one_are_the_assistants_own(ctx, out):
    assert [r["opener"] for r in out["rows"]] == ["crane", "slate", "pious"]  # the openers in turn
    for row in out["rows"]:
        exact, games = figure(ctx, row, 10**6)
        assert games == row["candidates"] > 100
        assert row["exact"] == round(exact, 4)
        shown, draws = figure(ctx, row, 100)
        assert draws == 100 and row["current_shown"] == round(shown, 4)
        assert row["exact"] != row["plain"]  # the weights matter in these states


def test_the_old_draw_is_distinct_answers_counted_once_and_flattened_towards_the_plain_mean(script, out):
    cand, w = np.arange(200), np.linspace(1.0, 3.0, 200)
    answers, counts = script.old_draw(np.random.default_rng(0), cand, w / w.sum(), 150)
    assert len(set(answers.tolist())) == 150 and (counts == 1).all()
    drawn, counts = script.current_draw(np.random.default_rng(0), cand, w / w.sum(), 150)
    assert counts.sum() == 150 and len(drawn) < 150  # with replacement: some drawn more than once
    for row in out["rows"]:
        # the old draw leans towards the plain mean, by more than its redraws' interval; the current does not
        assert np.sign(row["old_bias"]) == np.sign(row["plain"] - row["exact"])
        assert abs(row["old_bias"]) > row["old_bias_ci95"]
        assert abs(row["current_bias"]) <= row["current_bias_ci95"]
        assert row["current_rmse"] > abs(row["current_bias"])


def test_the_summary_is_made_of_the_rows(out):
    assert (out["seed"], out["states"], out["redraws"], out["sample"]) == (0, 3, 300, 100)
    for name in ("current", "old"):
        s = out["summary"][name]
        shown = np.mean([abs(r[f"{name}_shown"] - r["exact"]) for r in out["rows"]])
        assert s["shown_abs_error"] == pytest.approx(shown, abs=1e-4)
        assert s["bias"] == pytest.approx(np.mean([r[f"{name}_bias"] for r in out["rows"]]), abs=1e-4)
        assert s["rmse"] == pytest.approx(np.sqrt(np.mean([r[f"{name}_rmse"] ** 2 for r in out["rows"]])), abs=1e-4)
    assert out["summary"]["old"]["biased_states"] == 3 and out["summary"]["current"]["biased_states"] == 0


def test_the_mean_bias_interval_is_over_the_redraws_of_these_states(out):
    """The states are fixed and each one's redraws independent, so the mean bias's interval adds
    the variances of the states' means: a t interval over the states' biases read their chance
    agreement as a bias (-0.0018 ± 0.0011 for the unbiased draw on the registered 10 states)."""
    for name in ("current", "old"):
        ses = np.array([r[f"{name}_bias_se"] for r in out["rows"]])
        # each state's se is its redraws' spread: its 95 % half-width over the redraws, by t
        halves = np.array([r[f"{name}_bias_ci95"] for r in out["rows"]])
        assert halves == pytest.approx(ses * 1.968, abs=2e-4)  # t975(299) = 1.968
        half = out["summary"][name]["bias_ci95"]
        assert half == pytest.approx(1.96 * np.sqrt((ses ** 2).sum()) / 3, abs=1e-4)
    # the current draw's mean bias is within its interval, the old one's far outside
    assert abs(out["summary"]["current"]["bias"]) <= out["summary"]["current"]["bias_ci95"]
    assert abs(out["summary"]["old"]["bias"]) > 5 * out["summary"]["old"]["bias_ci95"]


def test_another_seed_draws_other_states(script, ctx, out):
    other = script.study(ctx, seed=1, states=1, redraws=10)
    assert other["rows"][0]["answer"] != out["rows"][0]["answer"]


def test_states_that_cannot_be_found_are_refused_in_one_line(script, ctx):
    with pytest.raises(EvoWordleError, match="found only 0 states with more than 100000 candidates"):
        script.find_states(ctx, Settings(), 0, 2, 100_000)


@pytest.mark.parametrize("argv, message", [
    (["--states", "0"], "--states takes a whole number ≥ 1, not 0"),
    (["--redraws", "-3"], "--redraws takes a whole number ≥ 1, not -3"),
    (["--seed", "-1"], "--seed takes a whole number ≥ 0, not -1"),
])
def test_bad_numbers_are_refused_in_one_line(script, monkeypatch, capsys, tmp_path, argv, message):
    monkeypatch.setattr("sys.argv", ["assist_estimate.py", *argv, "--out", str(tmp_path)])
    with pytest.raises(SystemExit) as stop:
        script.main()
    assert stop.value.code == 2 and capsys.readouterr().err == f"assist_estimate.py: {message}\n"
    assert not any(tmp_path.iterdir())
