"""experiments/board_headroom.py: the one-step headroom of the shipped multi-board policies at
their second guess.  Its game lengths must be the bench's (the same rules, the same policy), its
selection must keep the policy's own guess unless another is strictly better on the selecting
draw, and its figures must not depend on --jobs."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from evo_wordle.boards import play_boards
from evo_wordle.evolve.metaga import file_sets

from .experiment_scripts import EXPERIMENTS, board_study_across_jobs, load_experiment


@pytest.fixture(scope="module")
def script():
    return load_experiment("board_headroom")


@pytest.fixture(scope="module")
def octordle(ctx, script):
    policy, doc = script.shipped_policy(ctx, 8)
    return policy, doc


def test_a_sampled_game_is_as_long_as_the_bench_plays_it(ctx, script, octordle):
    """after_guess with the policy's own second guess must give, tuple by tuple, the length
    play_boards gives the whole game (the tuples share the opener's feedback, so the policy plays
    that guess there); a rule of the game changed in the script (a solved board kept, a board not
    filtered, the cap) changes a length."""
    policy, _ = octordle
    full = policy.full_board()
    opener = policy.choose([full] * 8, 0)
    answers = [ctx.words.index(w) for w in ("forum", "badly", "dozen", "snake", "lumpy", "elfin", "brace", "wrist")]
    row = ctx.table[opener]
    codes = row[policy.universe]
    state = [full[codes == row[a]] for a in answers]
    own = policy.choose(state, 1)
    rng = np.random.default_rng(5)
    tuples = np.stack([b[rng.integers(len(b), size=12)] for b in state], axis=1)
    lengths = script.after_guess(policy, state, own, tuples, 1)
    cap = policy.settings.max_guesses
    bench = [play_boards(policy, policy.universe[t], cap).score(cap) for t in tuples]
    assert lengths.tolist() == bench
    assert len(set(bench)) > 1  # the tuples are not all alike: the check has teeth


def test_a_game_past_the_cap_counts_as_the_cap(ctx, script, octordle):
    policy, _ = octordle
    full = policy.full_board()
    answers = [int(np.searchsorted(policy.universe, ctx.words.index(w))) for w in ("fight", "night", "light", "might")]
    # four -ight boards one guess before the cap: at most one is solved, so the game fails
    cap = policy.settings.max_guesses
    assert script.game_length(policy, [full] * 4, answers, cap - 1) == cap
    night = np.array([answers[1]], dtype=full.dtype)
    assert script.game_length(policy, [night], [answers[1]], cap) == cap  # no guess is left to play it
    assert script.game_length(policy, [night], [answers[1]], cap - 1) == cap  # the last guess solves it
    assert script.game_length(policy, [], [], 5) == 5


def test_the_policys_own_guess_is_kept_on_ties_and_the_fresh_gain_is_zero_then(ctx, script, octordle):
    """With two samples per estimate guesses often tie; the first least is the policy's own, and
    a state whose selected guess is its own reports a fresh gain of exactly 0."""
    _, doc = octordle
    sets = file_sets(ctx, doc, "validation")
    records = [script.state_headroom((8, [int(a) for a in sets[k]], 2, 2, np.random.SeedSequence(k)))
               for k in range(3)]
    for r in records:
        assert r["selected_mean"] <= r["own_mean"]
        assert r["selected_gain"] == pytest.approx(r["own_mean"] - r["selected_mean"])
        if r["selected"] == r["own"]:
            assert r["fresh_gain"] == 0.0 and r["selected_gain"] == 0.0
        else:
            assert r["selected_mean"] < r["own_mean"]  # another guess only when strictly better


def test_figures_do_not_depend_on_jobs_and_bad_arguments_are_refused(tmp_path):
    data = board_study_across_jobs(tmp_path, "board_headroom", 8, ["--states", "3", "--width", "2", "--samples", "4"])
    assert data["states"] + data["skipped"] == 3 and data["width"] == 2 and data["samples"] == 4
    for bad in (["--states", "3", "4"], ["--width", "0"], ["--samples", "1"]):
        done = subprocess.run([sys.executable, str(EXPERIMENTS / "board_headroom.py"), "--boards", "8", *bad,
                               "--out", str(tmp_path / "bad")], capture_output=True, text=True)
        assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr
