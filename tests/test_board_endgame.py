"""experiments/board_endgame.py: what an exact endgame search adds to the shipped multi-board
policies' lookahead.  Its exact expectation must be the true optimum (checked against a brute
force written here, over every word of a small list, with the feedback of tests/reference.py),
never above the lookahead's or the one-step policy's, and its figures must not depend on --jobs."""

from __future__ import annotations

import itertools
import subprocess
import sys
from functools import cache

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.boards import SummedEntropy
from evo_wordle.game import Settings
from evo_wordle.words import WordSet

from .experiment_scripts import EXPERIMENTS, board_study_across_jobs, load_experiment
from .reference import reference_pattern

#: Seven words that share letters, so feedback often tells little and the order of play matters.
WORDS = ["fight", "light", "might", "night", "sight", "tight", "laugh"]
SOLVED = reference_pattern("fight", "fight")


@pytest.fixture(scope="module")
def script():
    return load_experiment("board_endgame")


@pytest.fixture(scope="module")
def small():
    ctx = Context(words=WordSet(WORDS, WORDS, label="test-board-endgame"))
    return SummedEntropy(ctx, Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=5))


def brute_force(boards: tuple[frozenset, ...], left: int) -> float:
    """Least expected guesses still to play (a failure counts as the cap), any word guessed."""

    @cache
    def value(boards: tuple[frozenset, ...], left: int) -> float:
        if not boards or left == 0:
            return 0.0
        best = float("inf")
        for guess in WORDS:
            total = 0.0
            splits = []
            for board in boards:
                groups: dict[int, set] = {}
                for answer in board:
                    groups.setdefault(reference_pattern(guess, answer), set()).add(answer)
                splits.append([(len(g) / len(board), None if code == SOLVED else frozenset(g))
                               for code, g in groups.items()])
            for outcome in itertools.product(*splits):
                p = float(np.prod([q for q, _ in outcome]))
                total += p * value(tuple(sorted((b for _, b in outcome if b is not None), key=sorted)), left - 1)
            best = min(best, 1.0 + total)
        return best

    return value(tuple(sorted(boards, key=sorted)), left)


STATES = [(("fight", "light", "might"), ("night", "sight", "tight", "laugh")),
          (("fight", "light", "might", "night", "sight", "tight"), ("light", "might")),
          (tuple(WORDS), tuple(WORDS)),
          (("might", "night"), ("sight", "tight"))]


@pytest.mark.parametrize("turn", [0, 2, 3])
@pytest.mark.parametrize("state", STATES)
def test_the_exact_expectation_is_the_brute_force_optimum_and_below_both_policies(script, small, state, turn):
    boards = [small.board_of([small.ctx.words.index(w) for w in b]) for b in state]
    exact = script.Exact(small, width=len(WORDS)).value(boards, turn)  # the pool is every word
    assert exact == pytest.approx(brute_force(tuple(frozenset(b) for b in state), 5 - turn), abs=1e-12)
    base = small.expected_cost(boards, turn)
    lookahead = 1.0 + small.after(boards, small.lookahead(boards, turn, small.base_choice(boards, turn)), turn)
    assert exact <= lookahead + 1e-12 and lookahead <= base + 1e-12


def test_the_exact_search_beats_the_one_step_policy_somewhere(script, small):
    """The check above has teeth only if some state is played better by searching."""
    gaps = []
    for state in STATES:
        boards = [small.board_of([small.ctx.words.index(w) for w in b]) for b in state]
        gaps.append(small.expected_cost(boards, 0) - script.Exact(small, width=len(WORDS)).value(boards, 0))
    assert max(gaps) > 0.01


def test_a_narrow_pool_can_only_cost_guesses(script, small):
    boards = [small.board_of([small.ctx.words.index(w) for w in b]) for b in STATES[2]]
    wide = script.Exact(small, width=len(WORDS)).value(boards, 0)
    assert script.Exact(small, width=1).value(boards, 0) >= wide - 1e-12


def test_figures_do_not_depend_on_jobs_and_bad_arguments_are_refused(tmp_path):
    data = board_study_across_jobs(tmp_path, "board_endgame", 2, ["--sets", "6"])
    assert data["sets"] == 6 and 0 < data["states"] <= 6 and data["rollout"] == 200
    for r in data["records"]:
        if "exact" in r:
            assert r["exact"] <= r["lookahead"] + 1e-9 <= r["base"] + 2e-9
            assert np.prod(r["sizes"]) <= 200 and min(r["sizes"]) > 1 and r["turn"] >= 1
    for bad in (["--sets", "3", "4"], ["--width", "0"], ["--jobs", "0"]):
        done = subprocess.run([sys.executable, str(EXPERIMENTS / "board_endgame.py"), "--boards", "2", *bad,
                               "--out", str(tmp_path / "bad")], capture_output=True, text=True)
        assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr
