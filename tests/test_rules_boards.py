"""The rules of several boards, against a plain reference: every guess is scored on each
unsolved board, a board falls when its answer is guessed, a set scores the guess that solved its
last board (the cap when one is left), and the policy's scores are the sums the docs define."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from evo_wordle.boards import BoardsRecord, SummedEntropy, draw_answers, play_boards
from evo_wordle.game import Settings
from tests.reference import reference_pattern
from tests.test_boards_lookahead import play_from

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
    assert won.outside_source == 0  # a set's record counts no guess outside the source unless told


# -- the policy's score, rules and limits, by their documented formulas --------------------------

KNOWN2 = KNOWN.with_(boards=2, max_guesses=7)
FIRST = ["crane", "crate", "grace", "brace", "trace", "grade", "brave"]
SECOND = ["spill", "still", "skill", "shall", "spell", "swill"]
THIRD = ["fight", "night"]


def _boards(ctx, policy, *groups):
    return [policy.board_of(ctx.words.indices(g)) for g in groups]


def reference_bits(ctx, policy, board) -> np.ndarray:
    """Bits of every allowed guess over the board's candidates (equally likely), by counting."""
    words = policy.words_of(board)
    out = np.zeros(len(ctx.words))
    for g in range(len(ctx.words)):
        _, counts = np.unique(ctx.table[g, words], return_counts=True)
        p = counts / len(words)
        out[g] = -(p * np.log2(p)).sum()
    return out


def test_board_entropy_at_every_routine_threshold(ctx):
    """Each size at and just past the routine switches (pairwise, sorting, counting, the
    foundation) gives the counted bits; a board of one word or none gives zero bits everywhere."""
    from evo_wordle.boards import COUNT_MAX, PAIR_MAX, SORT_MAX

    policy = SummedEntropy(ctx, KNOWN2.with_(candidates="allowed"))
    rng = np.random.default_rng(8)
    for k in (2, 3, PAIR_MAX, PAIR_MAX + 1, SORT_MAX, SORT_MAX + 1, COUNT_MAX, COUNT_MAX + 1):
        board = np.sort(rng.choice(len(policy.universe), size=k, replace=False)).astype(np.int32)
        got = policy.board_entropy(board)
        if k <= SORT_MAX + 1:
            np.testing.assert_allclose(got, reference_bits(ctx, policy, board), atol=1e-9)
        else:  # counting 12,972 guesses by hand is slow: check a sample of them
            cols = rng.choice(len(ctx.words), 40, replace=False)
            want = [-(p * np.log2(p)).sum() for p in
                    (np.unique(ctx.table[g, policy.words_of(board)], return_counts=True)[1] / k for g in cols)]
            np.testing.assert_allclose(got[cols], want, atol=1e-9)
        np.testing.assert_array_equal(policy.board_entropy(board), got)  # the memo gives the same
    known = SummedEntropy(ctx, KNOWN2)  # a universe smaller than the guesses: one bit count per guess
    for k in (0, 1):
        zero = known.board_entropy(np.arange(k, dtype=np.int32))
        assert zero.shape == (len(ctx.words),) and not zero.any()


def test_the_memo_keeps_the_most_recent_boards(ctx):
    policy = SummedEntropy(ctx, KNOWN2, cache_size=2)
    a, b, c = _boards(ctx, policy, FIRST, SECOND, ["spill", "still", "skill"])
    for board in (a, b, a, c):  # a is used again, so b is the oldest when c comes
        policy.board_entropy(board)
    assert list(policy._cache) == [a.tobytes(), c.tobytes()]


@pytest.mark.parametrize("late", [0.0, 0.4, 0.6, 1.0, 1.5, 2.0, 3.7])
def test_late_rule_is_guesses_left_minus_unsolved_boards_below_late(ctx, late):
    policy = SummedEntropy(ctx, KNOWN.with_(boards=3, max_guesses=8), late=late)
    full = policy.full_board()
    for turn in range(8):
        for n in (1, 2, 3):
            want = late > 0 and 8 - turn - n < round(late)
            assert policy.late_rule([full] * n, turn) == want, (turn, n)


def test_defaults_are_plain_summed_entropy(ctx):
    policy = SummedEntropy(ctx, KNOWN2)
    assert (policy.weight, policy.bonus, policy.late, policy.rollout, policy.search,
            policy.search_generations) == (0, 0, 0, 0, 0, 0)
    assert set(policy.describe()) == {"solver", "opener", "ties"}


@pytest.mark.parametrize("name, low, high", [("weight", -2.0, 2.0), ("bonus", 0.0, 8.0), ("late", 0.0, 4.0),
                                             ("rollout", 0, 12_663), ("search", 0, 1000),
                                             ("search_generations", 0, 50), ("cache_size", 0, 10_346)])
def test_parameter_limits(ctx, name, low, high):
    """The documented limits: each end is accepted, one step beyond is refused (``cache_size``: the
    boards whose bits, 12,972 float64 each, fit in 1 GiB; ``rollout``: the reach whose work on two
    boards is Octordle's at 100,000)."""
    from evo_wordle.errors import EvoWordleError

    step = 1 if isinstance(low, int) else 1e-6
    for value in (low, high):
        assert getattr(SummedEntropy(ctx, KNOWN2, **{name: value}), name) == value
    for value in (low - step, high + step):
        with pytest.raises(EvoWordleError):
            SummedEntropy(ctx, KNOWN2, **{name: value})


def test_the_board_bits_may_fill_their_budget_exactly(ctx, monkeypatch):
    """cache_size × (8 bytes × allowed words) may reach CACHE_BUDGET, not pass it (a budget of five
    boards' bits here, as 1 GiB is no whole number of boards at the bundled lists)."""
    from evo_wordle import boards
    from evo_wordle.errors import EvoWordleError

    entry = 8 * len(ctx.words.allowed)
    assert boards.CACHE_BUDGET == 2**30 and 2**30 // entry == 10_346
    monkeypatch.setattr(boards, "CACHE_BUDGET", 5 * entry)
    assert SummedEntropy(ctx, KNOWN2, cache_size=5).cache_size == 5
    with pytest.raises(EvoWordleError, match=r"^--cache-size 6 would keep up to 0\.0 GB of board bits"):
        SummedEntropy(ctx, KNOWN2, cache_size=6)


def test_a_board_down_to_one_word_is_played_before_any_lookahead_or_search(ctx, monkeypatch):
    policy = SummedEntropy(ctx, KNOWN2, rollout=12_663, search=4)
    monkeypatch.setattr(policy, "lookahead", lambda *a: pytest.fail("lookahead"))
    monkeypatch.setattr(policy, "searched", lambda *a: pytest.fail("search"))
    state = _boards(ctx, policy, FIRST, ["spill"])
    assert ctx.words.allowed[policy.choose(state, 2)] == "spill"


def test_the_opener_is_never_looked_ahead(ctx, monkeypatch):
    """Turn 0 plays the opener, even where the lookahead or the search would apply (one board)."""
    policy = SummedEntropy(ctx, KNOWN.with_(boards=1), opener="salet", rollout=8957, search=4)
    monkeypatch.setattr(policy, "lookahead", lambda *a: pytest.fail("lookahead"))
    monkeypatch.setattr(policy, "searched", lambda *a: pytest.fail("search"))
    assert ctx.words.allowed[policy.choose([policy.full_board()], 0)] == "salet"


def _route(policy, state, turn, monkeypatch) -> str:
    monkeypatch.setattr(policy, "lookahead", lambda *a: -1)
    monkeypatch.setattr(policy, "searched", lambda *a: -2)
    return {-1: "lookahead", -2: "search"}.get(policy.choose(state, turn), "base")


def test_lookahead_applies_up_to_its_product_and_the_search_up_to_its_size(ctx, monkeypatch):
    from evo_wordle.boards import BOARD_SEARCH_LARGEST

    probe = SummedEntropy(ctx, KNOWN2)
    state = _boards(ctx, probe, FIRST, SECOND)  # 7 × 6 = 42
    assert _route(SummedEntropy(ctx, KNOWN2, rollout=42), state, 1, monkeypatch) == "lookahead"
    assert _route(SummedEntropy(ctx, KNOWN2, rollout=41), state, 1, monkeypatch) == "base"
    assert _route(SummedEntropy(ctx, KNOWN2, rollout=41, search=3), state, 1, monkeypatch) == "search"
    pair = _boards(ctx, probe, FIRST, THIRD)  # the smallest board has two words: still undecided
    assert _route(SummedEntropy(ctx, KNOWN2, rollout=14), pair, 1, monkeypatch) == "lookahead"
    assert BOARD_SEARCH_LARGEST == 1000  # the documented size: boards of at most 1,000 candidates
    wide = SummedEntropy(ctx, KNOWN2.with_(candidates="allowed"), search=3)
    rng = np.random.default_rng(2)
    for size, route in ((1000, "search"), (1001, "base")):
        big = np.sort(rng.choice(len(wide.universe), size, replace=False)).astype(np.int32)
        assert _route(wide, [big, wide.board_of(ctx.words.indices(SECOND))], 1, monkeypatch) == route


def test_a_tie_with_the_base_guess_keeps_the_base_guess(ctx, monkeypatch):
    policy = SummedEntropy(ctx, KNOWN2, rollout=100)
    state = _boards(ctx, policy, FIRST, SECOND)
    base = policy.base_choice(state, 2)
    monkeypatch.setattr(policy, "after", lambda boards, guess, turn: 2.0)
    assert policy.lookahead(state, 2, base) == base
    monkeypatch.setattr(policy, "after", lambda boards, guess, turn: 2.0 if guess == base else 2.0 - 1e-6)
    assert policy.lookahead(state, 2, base) != base


def test_expected_cost_of_two_pairs_by_hand(ctx):
    """Two boards of two words each: the base policy plays a word of a board; counting every
    answer combination by hand gives the expectation."""
    policy = SummedEntropy(ctx, KNOWN2)
    state = _boards(ctx, policy, THIRD, ["spill", "still"])
    total = 0.0
    for answers in itertools.product(ctx.words.indices(THIRD), ctx.words.indices(["spill", "still"])):
        record = play_from(policy, state, tuple(int(a) for a in answers), 3)
        total += record
    assert policy.expected_cost(state, 3) == pytest.approx(total / 4)
    singles = _boards(ctx, policy, ["fight"], ["night"])
    assert policy.expected_cost(singles, 3) == 2.0 and policy.expected_cost(singles, 6) == 1.0
    assert policy.expected_cost(_boards(ctx, policy, ["fight"], ["fight"]), 3) == 1.0


def test_an_answer_outside_the_belief_ends_the_game_as_a_failure_at_once(ctx):
    """The answer list is the belief; an allowed word that is not an answer empties its board."""
    policy = SummedEntropy(ctx, KNOWN2, opener="salet")
    outside = next(i for i in range(len(ctx.words)) if i not in set(ctx.words.answer_index.tolist()))
    record = play_boards(policy, (outside, ctx.words.index("crane")), 7)
    words = ctx.words.allowed
    left = [words[a] for a in ctx.words.answer_index]
    for turn, guess in enumerate(record.guesses, 1):  # the game ends the guess that empties the board
        seen = reference_pattern(words[guess], words[outside])
        left = [w for w in left if reference_pattern(words[guess], w) == seen]
        assert bool(left) == (turn < len(record.guesses))
    assert not record.solved and len(record.guesses) < 7 and record.score(7) == 7


def test_draw_answers_needs_at_least_one_set(ctx):
    from evo_wordle.errors import EvoWordleError

    assert draw_answers(ctx, 2, 1, 0).shape == (1, 2)
    for games in (0, -1):
        with pytest.raises(EvoWordleError, match="at least 1"):
            draw_answers(ctx, 2, games, 0)


def test_ga_search_defaults_are_the_documented_ones():
    from evo_wordle.boards import BOARD_SEARCH_DEFAULTS

    assert BOARD_SEARCH_DEFAULTS == (60, 0)  # docs/evolve.md: population 60, no generations


def test_the_search_plays_the_policys_game(ctx, monkeypatch):
    """The decision search finishes boards with any allowed word only where the game allows it,
    and keeps to the boards' words under ``--guess-from candidates`` or the late rule."""
    asked = []
    for settings, late, turn, allowed, only in ((KNOWN2, 0.0, 1, True, False),
                                                 (KNOWN2.with_(guess_from="candidates"), 0.0, 1, False, True),
                                                 (KNOWN2, 4.0, 3, True, True)):
        policy = SummedEntropy(ctx, settings, late=late, search=4)
        state = _boards(ctx, policy, FIRST, SECOND)
        guess = policy.choose(state, turn)
        assert policy._searcher.look.allowed_guesses is allowed
        if only:
            assert ctx.words.allowed[guess] in FIRST + SECOND
        real = policy._searcher.choose

        def spy(b, s, base, flag, real=real):
            asked.append(flag)
            return real(b, s, base, flag)

        monkeypatch.setattr(policy._searcher, "choose", spy)
        policy._searcher._memo.clear()
        policy.choose(state, turn)
    assert asked == [False, True, True]


def test_a_tie_of_two_goes_to_the_word_on_more_boards(ctx, monkeypatch):
    """Exactly two words share the best score: the later one is a candidate, the earlier is not."""
    policy = SummedEntropy(ctx, KNOWN2)
    state = _boards(ctx, policy, FIRST, SECOND)
    outside, inside = ctx.words.index("aahed"), ctx.words.index("crane")
    scores = np.zeros(len(ctx.words))
    scores[[outside, inside]] = 5.0
    monkeypatch.setattr(policy, "scores", lambda boards: scores)
    assert policy._best(state) == inside
    alphabetical = SummedEntropy(ctx, KNOWN2, ties="alphabetical")
    monkeypatch.setattr(alphabetical, "scores", lambda boards: scores)
    assert alphabetical._best(state) == outside


def test_the_board_set_limits_at_their_edges(ctx, monkeypatch):
    """play_boards plays 1 to 64 boards (a cap of 1 is one guess), draw_answers draws for 1 board
    up to MAX_SETS sets: each end is accepted, one step beyond is refused (docs/bench.md)."""
    import evo_wordle.boards as boards_module
    from evo_wordle.errors import EvoWordleError

    policy = SummedEntropy(ctx, KNOWN2)
    crane = ctx.words.index("crane")
    for n in (1, 64):
        record = play_boards(policy, (crane,) * n, 1)
        assert len(record.answers) == n and len(record.guesses) == 1
    for n in (0, 65):
        with pytest.raises(EvoWordleError, match=f"^a board set needs 1 to 64 answers, not {n}$"):
            play_boards(policy, (crane,) * n, 1)
    assert draw_answers(ctx, 1, 3, 0).shape == (3, 1)
    assert draw_answers(None, 2, 4, 0, pool=[crane]).tolist() == [[crane, crane]] * 4  # a pool of one word
    monkeypatch.setattr(boards_module, "MAX_SETS", 3)
    assert draw_answers(ctx, 2, 3, 0).shape == (3, 2)
    with pytest.raises(EvoWordleError, match="^--games must be at most 3 board sets, not 4$"):
        draw_answers(ctx, 2, 4, 0)
