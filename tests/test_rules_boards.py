"""The rules of several boards, against a plain reference: every guess is scored on each
unsolved board, a board falls when its answer is guessed, a set scores the guess that solved its
last board (the cap when one is left), and the policy's scores are the sums the docs define."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle.boards import BoardsRecord, SummedEntropy, draw_answers, play_boards
from evo_wordle.game import Settings
from tests.reference import reference_pattern

KNOWN = Settings(candidates="answers", guess_from="allowed")


def reference_play(ctx, policy: SummedEntropy, answers: tuple[int, ...], cap: int):
    """The game by its rules in plain Python, asking ``policy`` only for each guess."""
    words = ctx.words.allowed
    universe = [words[i] for i in policy.universe]
    boards = {b: list(universe) for b in range(len(answers))}
    solved_at = [None] * len(answers)
    guesses = []
    for turn in range(cap):
        state = [policy.board_of([ctx.words.index(w) for w in boards[b]]) for b in boards]
        guess = policy.choose(state, turn)
        guesses.append(guess)
        for b in list(boards):
            seen = reference_pattern(words[guess], words[answers[b]])
            if words[guess] == words[answers[b]]:
                solved_at[b] = turn + 1
                del boards[b]
                continue
            boards[b] = [w for w in boards[b] if reference_pattern(words[guess], w) == seen]
        if not boards:
            return guesses, True, tuple(solved_at)
    return guesses, False, tuple(solved_at)


@pytest.mark.parametrize("n", [2, 3])
def test_play_follows_the_rules_on_every_board(ctx, n):
    settings = KNOWN.with_(boards=n, max_guesses=n + 5)
    policy = SummedEntropy(ctx, settings, opener="salet", weight=-0.3, bonus=1.5, late=1.0)
    for answers in draw_answers(ctx, n, 6, seed=11):
        answers = tuple(int(a) for a in answers)
        record = play_boards(policy, answers, settings.max_guesses)
        assert (record.guesses, record.solved, record.solved_at) == reference_play(
            ctx, policy, answers, settings.max_guesses)
        assert record.score(settings.max_guesses) == (max(record.solved_at) if record.solved else settings.max_guesses)


def test_a_tight_cap_is_a_failure_with_the_boards_solved_so_far(ctx):
    policy = SummedEntropy(ctx, KNOWN.with_(boards=2, max_guesses=7))
    answers = (ctx.words.index("crane"), ctx.words.index("pious"))
    for cap in (1, 2, 3):
        record = play_boards(policy, answers, cap)
        assert (record.guesses, record.solved, record.solved_at) == reference_play(ctx, policy, answers, cap)
        assert not record.solved and len(record.guesses) == cap and record.score(cap) == cap


def test_score_is_the_guesses_used_or_the_cap():
    won = BoardsRecord((1, 2), [5, 1, 2], True, (2, 3))
    lost = BoardsRecord((1, 2), [5, 1], False, (2, None))
    assert won.score(7) == 3 and lost.score(7) == 7 and won.answer == (1, 2)
