"""Exact search rules, on answer lists whose optimum NEEDS recursion (it is above every first
guess's lower bound), checked against a memoised brute force written here; tree depths known by hand."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.exact import MAX_ANSWERS, ExactSolver, optimal_cost
from evo_wordle.words import WordSet, load_words

IGHT = ["bight", "eight", "fight", "light", "might", "night", "right", "sight", "tight", "wight"]
ATCH = ["batch", "catch", "hatch", "latch", "match", "natch", "patch", "watch"]
OTHERS = ["flows", "bench", "sword", "whisk", "nerds", "tubes", "clamp", "whelp", "chalk", "plumb", "world", "flame",
          "mummy", "dozen", "crane", "crate", "trace"]


@pytest.fixture(scope="module")
def ctx(cache_dir) -> Context:
    """A 44-word list (two rhyming families, outside guesses, the first 30 NYT answers): a small
    table built here, so no test waits for the full table's transpose."""
    answers = sorted(set(IGHT + ATCH + list(load_words().answers[:30])))
    allowed = tuple(sorted(set(answers) | set(OTHERS)))
    small = Context(words=WordSet(allowed, tuple(answers), label="test-exact"))
    small.table  # noqa: B018 - built once for the module
    return small


def brute_force(ctx, answers: frozenset, guesses: tuple | None, memo: dict) -> int:
    """Minimum total guesses: every guess tried, no bound (``guesses=None``: the set itself)."""
    if len(answers) == 1:
        return 1
    key = answers
    if key in memo:
        return memo[key]
    best = None
    for g in sorted(answers) if guesses is None else guesses:
        parts: dict[int, list[int]] = {}
        for a in answers:
            parts.setdefault(int(ctx.table[g, a]), []).append(a)
        if len(parts) == 1 and g not in answers:
            continue  # splits nothing
        total = len(answers) + sum(
            brute_force(ctx, frozenset(p), guesses, memo) for code, p in parts.items() if code != ctx.words.solved
        )
        best = total if best is None else min(best, total)
    memo[key] = best
    return best


def first_lower_bound(n: int) -> int:
    """No first guess can do better than n + (n − 1): one answer solved at once, the rest in two."""
    return 2 * n - 1


def _ids(ctx, words) -> np.ndarray:
    return np.sort(ctx.words.indices(words))


def test_a_family_guessed_from_itself_is_a_chain(ctx):
    # every -IGHT word only tells its own first letter: the optimum is 1 + 2 + … + n
    answers = _ids(ctx, IGHT[:7])
    n = len(answers)
    assert optimal_cost(ctx, answers) == n * (n + 1) // 2 > first_lower_bound(n)
    solver = ExactSolver(ctx, None)
    assert solver.cost(answers) == n * (n + 1) // 2
    assert solver.depth(answers) == n
    assert sorted(len(p) for p in solver.tree(answers).values()) == list(range(1, n + 1))


@pytest.mark.parametrize(("family", "extra"), [
    (IGHT, ["flows", "bench", "sword", "whisk"]),
    (IGHT, ["might", "nerds", "tubes"]),
    (ATCH, ["clamp", "whelp"]),
    (ATCH + ["fight", "light"], ["chalk", "plumb", "world"]),
])
def test_optimum_with_outside_guesses_equals_brute_force(ctx, family, extra):
    answers = _ids(ctx, family)
    guesses = np.union1d(answers, _ids(ctx, extra))
    want = brute_force(ctx, frozenset(answers.tolist()), tuple(guesses.tolist()), {})
    assert want > first_lower_bound(len(answers))  # the recursion matters here
    solver = ExactSolver(ctx, guesses)
    assert solver.cost(answers) == want == optimal_cost(ctx, answers, guesses)
    tree = solver.tree(answers)
    assert sorted(tree) == answers.tolist()
    assert sum(len(p) for p in tree.values()) == want
    assert solver.depth(answers) == max(len(p) for p in tree.values())
    cost, first = solver.best(answers)
    assert cost == want and all(p[0] == first for p in tree.values())


@pytest.mark.parametrize("family", [IGHT[:6], ATCH[:6], ["fight", "light", "catch", "latch", "match"]])
def test_guessing_only_outside_words_equals_brute_force(ctx, family):
    # an answer is guessed only once it is known: a pair still together costs 2 + 2, not 1 + 2
    answers = _ids(ctx, family)
    outside = _ids(ctx, ["flame", "bench", "sword", "whisk", "nerds", "clamp", "whelp", "plumb", "mummy", "tubes"])
    want = brute_force(ctx, frozenset(answers.tolist()), tuple(outside.tolist()), {})
    solver = ExactSolver(ctx, outside)
    assert solver.cost(answers) == want
    tree = solver.tree(answers)  # a lone answer is guessed even though it is not in the list
    assert sorted(tree) == answers.tolist() and sum(len(p) for p in tree.values()) == want
    assert all(p[-1] == a and set(p[:-1]) <= set(outside.tolist()) for a, p in tree.items())


def test_tree_paths_are_consistent_with_their_answer(ctx):
    answers = _ids(ctx, ATCH + ["fight", "light", "night"])
    guesses = np.union1d(answers, _ids(ctx, ["chalk", "plumb"]))
    tree = ExactSolver(ctx, guesses).tree(answers)
    for answer, path in tree.items():
        assert path[-1] == answer and answer not in path[:-1]
        remaining = answers
        for g in path:
            pattern = ctx.table[g, answer]
            remaining = remaining[ctx.table[g, remaining] == pattern]
        assert remaining.tolist() == [answer]
        assert all(g in set(guesses.tolist()) for g in path)


def test_hard_mode_safe_search_guesses_only_from_the_set(ctx):
    answers = _ids(ctx, ATCH + ["fight", "light"])
    want = brute_force(ctx, frozenset(answers.tolist()), None, {})
    solver = ExactSolver(ctx, None)
    assert solver.cost(answers) == want > first_lower_bound(len(answers))
    tree = solver.tree(answers)
    for answer, path in tree.items():
        remaining = set(answers.tolist())
        for g in path:
            assert g in remaining  # each guess is still a candidate when played
            remaining = {a for a in remaining if ctx.table[g, a] == ctx.table[g, answer]}


@pytest.mark.parametrize(("words", "depth", "cost"), [
    (["fight"], 1, 1),
    (["fight", "light"], 2, 3),
    (["fight", "light", "might"], 3, 6),
])
def test_depth_and_cost_of_small_known_trees(ctx, words, depth, cost):
    answers = _ids(ctx, words)
    solver = ExactSolver(ctx, answers)
    assert solver.depth(answers) == depth and solver.cost(answers) == cost


def test_one_outside_guess_that_splits_everything_gives_a_two_level_tree(ctx):
    # FLAME tells FIGHT (f), LIGHT (l), MIGHT (m) and NIGHT (none) apart: 4 × 2 = 8 < 1 + 2 + 3 + 4.
    answers = _ids(ctx, ["fight", "light", "might", "night"])
    flame = ctx.words.index("flame")
    assert len({int(ctx.table[flame, a]) for a in answers}) == 4
    solver = ExactSolver(ctx, np.union1d(answers, [flame]))
    assert solver.best(answers) == (8, flame)
    assert solver.depth(answers) == 2
    assert ExactSolver(ctx, answers).depth(answers) == 4  # without FLAME: a chain


def test_three_answers_one_guess_separates_need_only_two_levels(ctx):
    # CRANE tells CRATE and TRACE apart: 1 + 2 + 2 = 5 guesses, depth 2 (not 3 as a chain would be)
    answers = _ids(ctx, ["crane", "crate", "trace"])
    solver = ExactSolver(ctx, answers)
    assert solver.cost(answers) == 5 and solver.depth(answers) == 2


@pytest.mark.parametrize(("family", "extra"), [(IGHT[:6], ["flows", "whisk"]), (ATCH, ["clamp", "whelp"]),
                                              (["crane", "crate", "trace"], [])])
def test_ties_go_to_the_best_bound_then_the_earlier_word(ctx, family, extra):
    """Trees must be reproducible: among optimal first guesses the one with the lowest bound
    (3n − [guess is an answer] − classes), then the earliest in the list, is chosen."""
    answers = _ids(ctx, family)
    guesses = np.union1d(answers, _ids(ctx, extra)) if extra else answers
    memo: dict = {}
    n = len(answers)
    totals, bounds = {}, {}
    for g in guesses.tolist():
        parts: dict[int, list[int]] = {}
        for a in answers.tolist():
            parts.setdefault(int(ctx.table[g, a]), []).append(a)
        if len(parts) == 1 and g not in answers:
            continue
        totals[g] = n + sum(brute_force(ctx, frozenset(p), tuple(guesses.tolist()), memo)
                            for code, p in parts.items() if code != ctx.words.solved)
        bounds[g] = 3 * n - int(g in answers) - len(parts)
    best = min(totals.values())
    want = min((bounds[g], i, g) for i, g in enumerate(guesses.tolist()) if totals.get(g) == best)[2]
    assert ExactSolver(ctx, guesses).best(answers) == (best, want)


def test_a_list_nothing_separates_is_an_error(ctx):
    answers = _ids(ctx, ["fight", "light"])
    with pytest.raises(EvoWordleError, match="separates"):
        ExactSolver(ctx, _ids(ctx, ["mummy", "dozen"])).cost(answers)


def test_memo_gives_the_same_answer_twice(ctx):
    answers = _ids(ctx, IGHT[:6])
    solver = ExactSolver(ctx, answers)
    first = solver.best(answers)
    assert answers.tobytes() in solver.memo
    assert solver.best(answers) == first and solver.cost(answers.tolist()) == first[0]


def test_size_limit(ctx):
    assert MAX_ANSWERS == 30
    thirty = ctx.words.indices(load_words().answers[:30])
    assert optimal_cost(ctx, thirty) >= 2 * 30 - 1
    assert optimal_cost(ctx, np.concatenate([thirty, thirty])) == optimal_cost(ctx, thirty)  # duplicates dropped
    with pytest.raises(EvoWordleError, match="at most 30"):
        optimal_cost(ctx, ctx.words.answer_index[:31])
    assert len(ctx.words.answer_index) > 31
