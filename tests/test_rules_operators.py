"""GA operator rules, checked against brute force written here: recombination keeps every letter
from a parent (all 2^L masks), the thesis mutation's rejection loop mutates with the stated
probability, selection follows its weights, and word codes look up exactly the allowed words."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.ga import operators as ops
from evo_wordle.game import GameState, Settings


def recombinants(ctx, p1: int, p2: int, consistent) -> set[int]:
    """Every allowed, consistent word other than the parents whose letters each come from a parent."""
    a, b = ctx.words.allowed[p1], ctx.words.allowed[p2]
    out = set()
    for pick in itertools.product((0, 1), repeat=len(a)):
        w = "".join(b[i] if t else a[i] for i, t in enumerate(pick))
        if ctx.words.contains(w):
            i = ctx.words.index(w)
            if consistent[i] and i not in (p1, p2):
                out.add(i)
    return out


def _children(ctx, w1: str, w2: str, consistent, candidates, n: int, seed: int = 0) -> np.ndarray:
    p1 = np.full(n, ctx.words.index(w1))
    p2 = np.full(n, ctx.words.index(w2))
    return ops.recombine_children(ctx, p1, p2, consistent, candidates, np.random.default_rng(seed))


@pytest.mark.parametrize(("w1", "w2"), [("black", "slick"), ("crane", "slate"), ("house", "mouse"),
                                        ("tares", "lines"), ("fight", "sound"), ("ached", "rahed")])
def test_children_are_uniform_over_the_brute_force_recombinants(ctx, w1, w2):
    everything = np.ones(len(ctx.words), dtype=bool)
    want = recombinants(ctx, ctx.words.index(w1), ctx.words.index(w2), everything)
    kids = _children(ctx, w1, w2, everything, ctx.all_words, 6000)
    if not want:  # no recombinant: the fallback draws uniform consistent words
        assert len(set(kids.tolist())) > 100
        return
    assert set(kids.tolist()) == want
    counts = np.array([(kids == w).sum() for w in sorted(want)])
    expected = len(kids) / len(want)
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected) + 1)


def test_children_keep_the_masked_letters_for_every_pair(ctx):
    rng = np.random.default_rng(8)
    everything = np.ones(len(ctx.words), dtype=bool)
    p1 = rng.choice(len(ctx.words), 400)
    p2 = rng.choice(len(ctx.words), 400)
    kids = ops.recombine_children(ctx, p1, p2, everything, ctx.all_words, rng)
    for a, b, k in zip(p1.tolist(), p2.tolist(), kids.tolist()):
        want = recombinants(ctx, a, b, everything)
        if want:
            assert k in want, (ctx.words.allowed[a], ctx.words.allowed[b], ctx.words.allowed[k])


def test_exactly_one_recombinant_is_always_the_child(ctx):
    everything = np.ones(len(ctx.words), dtype=bool)
    a, b = ctx.words.index("black"), ctx.words.index("slick")
    only = ctx.words.index("slack")
    consistent = everything.copy()
    for w in recombinants(ctx, a, b, everything) - {only}:
        consistent[w] = False
    assert recombinants(ctx, a, b, consistent) == {only}
    kids = _children(ctx, "black", "slick", consistent, ctx.all_words, 500, seed=3)
    assert kids.tolist() == [only] * 500


def test_no_recombinant_falls_back_to_a_uniform_candidate(ctx):
    state = GameState.start(ctx, Settings(candidates="answers"))
    consistent = np.zeros(len(ctx.words), dtype=bool)
    consistent[state.candidates] = True
    assert not recombinants(ctx, ctx.words.index("ivory"), ctx.words.index("fuzzy"), consistent)
    kids = _children(ctx, "ivory", "fuzzy", consistent, state.candidates, 3000, seed=5)
    assert np.isin(kids, state.candidates).all()
    assert len(set(kids.tolist())) > 700  # uniform over 2,309 answers, not one fixed word


def test_mixed_batch_recombines_where_it_can_and_falls_back_elsewhere(ctx):
    everything = np.ones(len(ctx.words), dtype=bool)
    cands = ctx.words.answer_index
    p1 = np.array([ctx.words.index(w) for w in ("black", "ivory", "black")])
    p2 = np.array([ctx.words.index(w) for w in ("slick", "fuzzy", "slick")])
    for seed in range(20):
        kids = ops.recombine_children(ctx, p1, p2, everything, cands, np.random.default_rng(seed))
        assert ctx.words.allowed[kids[0]] in {"slack", "blick"} or kids[0] in recombinants(ctx, p1[0], p2[0],
                                                                                            everything)
        assert kids[1] in set(cands.tolist())
    assert ops.recombine_children(ctx, np.array([], dtype=np.int64), np.array([], dtype=np.int64), everything,
                                  cands, np.random.default_rng(0)).tolist() == []


# --------------------------------------------------------------------------- mutation


def _thesis_probability(k: int, length: int, letters: int, tries: int) -> float:
    return 1 - (1 - k / (length * letters)) ** tries


@pytest.mark.parametrize(("tries", "letters"), [(1, 26), (2, 25), (5, 26)])
def test_the_rejection_loop_mutates_with_the_thesis_probability(ctx, tries, letters):
    index = ops.neighbour_index(ctx)
    word = ctx.words.index("cares")
    k = index.degree(word)
    assert k > 20
    n = 20_000
    out = ops.mutate_words(np.full(n, word), index, np.random.default_rng(tries), tries=tries, letters=letters)
    p = _thesis_probability(k, 5, letters, tries)
    changed = (out != word).mean()
    assert abs(changed - p) < 5 * np.sqrt(p * (1 - p) / n)
    assert set(out[out != word].tolist()) <= set(index.of(word).tolist())


def test_the_rejection_loop_draws_from_26_letters_by_default(ctx):
    index = ops.neighbour_index(ctx)
    word = ctx.words.index("cares")
    n = 200_000  # 26 vs 25 or 27 letters moves p by about 9 standard errors
    out = ops.mutate_words(np.full(n, word), index, np.random.default_rng(12), tries=1)
    p = _thesis_probability(index.degree(word), 5, 26, 1)
    assert abs((out != word).mean() - p) < 5 * np.sqrt(p * (1 - p) / n)


def test_a_list_without_neighbours_has_an_empty_index_and_nothing_mutates(cache_dir):
    from evo_wordle import Context
    from evo_wordle.words import WordSet

    words = ("abcde", "fghij", "klmno")
    small = Context(words=WordSet(words, words, label="no-neighbours"))
    index = ops.neighbour_index(small)
    assert len(index.words) == 0 and index.start.tolist() == [0, 0, 0, 0]
    assert [index.degree(w) for w in range(3)] == [0, 0, 0]
    rng = np.random.default_rng(0)
    assert ops.mutate_words(np.array([0, 1, 2, 1]), index, rng).tolist() == [0, 1, 2, 1]
    assert ops.mutate_words(np.array([0, 2]), index, rng, tries=5).tolist() == [0, 2]


def test_the_rejection_loop_counts_only_valid_neighbours(ctx):
    index = ops.neighbour_index(ctx)
    word = ctx.words.index("cares")
    nbrs = index.of(word)
    mask = np.zeros(len(ctx.words), dtype=bool)
    mask[nbrs[:4]] = True
    n = 20_000
    out = ops.mutate_words(np.full(n, word), index, np.random.default_rng(1), word_mask=mask, tries=3)
    p = _thesis_probability(4, 5, 26, 3)
    assert abs((out != word).mean() - p) < 5 * np.sqrt(p * (1 - p) / n)
    assert set(out[out != word].tolist()) == set(nbrs[:4].tolist())


def test_without_tries_every_word_with_a_valid_neighbour_mutates(ctx):
    index = ops.neighbour_index(ctx)
    rng = np.random.default_rng(4)
    words = rng.choice(len(ctx.words), 3000)
    out = ops.mutate_words(words, index, rng, skip_letter=25)
    letters = ctx.words.letters
    for w, o in zip(words.tolist(), out.tolist()):
        # a neighbour made with z (letter 25) at the changed position does not count
        valid = [x for x in index.of(w).tolist() if letters[x][letters[x] != letters[w]][0] != 25]
        if valid:
            assert o in valid
        else:
            assert o == w


def test_neighbours_across_the_whole_alphabet(ctx):
    # A and Z are 25 letters apart: ZEROS and AEROS are still one-letter neighbours
    index = ops.neighbour_index(ctx)
    zeros, aeros = ctx.words.index("zeros"), ctx.words.index("aeros")
    assert aeros in index.of(zeros).tolist() and zeros in index.of(aeros).tolist()


def test_the_consistency_mask_is_read_for_the_recombinant_itself(ctx):
    # AAHED (word 0) is the only recombinant of ACHED and RAHED; it must count iff it is consistent
    consistent = np.ones(len(ctx.words), dtype=bool)
    consistent[1] = False  # a neighbouring index must not stand in for word 0
    kids = _children(ctx, "ached", "rahed", consistent, ctx.all_words, 50)
    assert kids.tolist() == [0] * 50
    consistent[0], consistent[1] = False, True
    kids = _children(ctx, "ached", "rahed", consistent, ctx.words.answer_index, 50)
    assert 0 not in kids.tolist()


def test_a_population_with_a_single_neighbour_entry_still_mutates(ctx):
    index = ops.neighbour_index(ctx)
    aarti = ctx.words.index("aarti")
    everything = np.ones(len(ctx.words), dtype=bool)
    out = ops.mutate_words(np.array([aarti]), index, np.random.default_rng(0), word_mask=everything)
    assert out.tolist() == index.of(aarti).tolist()


def test_the_neighbour_index_is_immutable(ctx):
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        ops.neighbour_index(ctx).length = 4  # type: ignore[misc]


def test_a_full_alphabet_of_neighbours_is_found(cache_dir):
    # 26 words differing only in the first letter: each has the other 25 as neighbours
    from evo_wordle import Context
    from evo_wordle.words import WordSet

    words = tuple(chr(97 + i) + "ab" for i in range(26))
    small = Context(words=WordSet(words, words, label="alphabet"))
    index = ops.neighbour_index(small)
    assert [index.degree(w) for w in range(26)] == [25] * 26
    assert sorted(index.of(0).tolist()) == list(range(1, 26))


def test_masked_mutation_picks_each_words_own_neighbours(ctx):
    # a one-neighbour word first, so the second word's list starts at entry 1
    index = ops.neighbour_index(ctx)
    aarti, black = ctx.words.index("aarti"), ctx.words.index("black")
    assert index.degree(aarti) == 1
    rng = np.random.default_rng(2)
    for _ in range(30):
        out = ops.mutate_words(np.array([aarti, black]), index, rng, skip_letter=25)
        assert out[0] in index.of(aarti).tolist() and out[1] in index.of(black).tolist()
    only_isolated = ops.mutate_words(np.array([ctx.words.index("ivory")] * 3), index, rng,
                                     word_mask=np.ones(len(ctx.words), dtype=bool))
    assert only_isolated.tolist() == [ctx.words.index("ivory")] * 3


def test_masked_mutation_of_the_first_word_draws_each_valid_neighbour_and_no_other(ctx):
    # the first word's entries start the list (no entries before it): its draw must still skip
    # the masked-out first entry and reach the last valid one
    index = ops.neighbour_index(ctx)
    black = ctx.words.index("black")
    neighbours = index.of(black)
    valid = neighbours[1::2]  # entry 0 masked out
    mask = np.zeros(len(ctx.words), dtype=bool)
    mask[valid] = True
    rng = np.random.default_rng(4)
    drawn = {int(ops.mutate_words(np.array([black]), index, rng, word_mask=mask)[0]) for _ in range(40 * len(valid))}
    assert len(neighbours) >= 4 and drawn == set(valid.tolist())


def test_skip_letter_and_mask_leave_isolated_words_alone(ctx):
    index = ops.neighbour_index(ctx)
    ivory = ctx.words.index("ivory")
    none = np.zeros(len(ctx.words), dtype=bool)
    rng = np.random.default_rng(0)
    words = np.array([ivory, ctx.words.index("black")])
    assert ops.mutate_words(words, index, rng, word_mask=none).tolist() == words.tolist()
    assert ops.mutate_words(np.array([], dtype=np.int64), index, rng).tolist() == []
    # "fuzzy"'s only neighbours use z: skipping z leaves it
    fuzzy = ctx.words.index("fuzzy")
    if index.degree(fuzzy):
        made = {int(x) for x in ctx.words.letters[index.of(fuzzy)][
            ctx.words.letters[index.of(fuzzy)] != ctx.words.letters[fuzzy]]}
        if made == {25}:
            assert ops.mutate_words(np.array([fuzzy]), index, rng, skip_letter=25).tolist() == [fuzzy]


# --------------------------------------------------------------------------- selection


def test_scaled_weights_are_fitness_to_the_pressure():
    f = np.array([1.0, 2.0, 3.0, 4.0])
    assert np.allclose(ops.scaled_weights(f), f / 10)
    assert np.allclose(ops.scaled_weights(f, 0.0), 0.25)
    assert np.allclose(ops.scaled_weights(f, 2.0), f**2 / 30)
    assert np.allclose(ops.scaled_weights(f, 0.5), np.sqrt(f) / np.sqrt(f).sum())
    w = ops.scaled_weights(np.array([1.0, 10.0]), 400.0)
    assert np.isfinite(w).all() and w[1] == pytest.approx(1.0)


def test_roulette_never_picks_zero_fitness_and_reaches_the_last():
    f = np.array([0.0, 1.0, 0.0, 3.0])
    picks = ops.roulette(f, 40_000, np.random.default_rng(0))
    assert set(np.unique(picks).tolist()) == {1, 3}
    assert abs((picks == 3).mean() - 0.75) < 0.01
    assert picks.dtype == np.int64


@pytest.mark.parametrize("fitness", [[0.0, 0.0, 0.0], [1.0, -0.5, 2.0], [-1.0, -2.0], [1.0, np.nan]])
@pytest.mark.parametrize("pressure", [1.0, 50.0])
def test_roulette_refuses_a_negative_or_all_zero_fitness(fitness, pressure):
    """Every caller of the numpy roulette (the GA's select and choose, the opening GA) gets the
    check, not only a toolbox entry the adapter recognises; called bare, it blames no one."""
    with pytest.raises(EvoWordleError, match=r"^roulette needs fitness values of at least 0, one of them above 0 "
                                             r"\(the caller gave .* to .*\)$") as err:
        ops.roulette(np.array(fitness), 5, np.random.default_rng(0), pressure)
    assert isinstance(err.value, ValueError)


def test_roulette_refusal_names_the_source_and_hint_its_caller_gives():
    """The message names where the fitness came from (not always the GA's evaluate)."""
    with pytest.raises(EvoWordleError, match=r"^roulette needs fitness values of at least 0, one of them above 0 "
                                             r"\(my scorer gave -1 to 2\); try again$"):
        ops.roulette(np.array([-1.0, 2.0]), 5, np.random.default_rng(0), what="my scorer", hint="try again")


def test_roulette_refuses_an_empty_fitness_with_the_packages_error():
    with pytest.raises(EvoWordleError, match=r"^roulette needs at least one fitness value \(the caller gave none\)$"):
        ops.roulette(np.array([]), 5, np.random.default_rng(0))
    with pytest.raises(EvoWordleError, match=r"^roulette needs at least one fitness value \(evaluate gave none\)$"):
        ops.roulette(np.array([]), 5, np.random.default_rng(0), what="evaluate")


def test_tournament_winner_is_the_fittest_aspirant():
    f = np.array([3.0, 1.0, 2.0])
    assert np.all(ops.tournament(f, 200, np.random.default_rng(0), size=60) == 0)
    one = ops.tournament(f, 30_000, np.random.default_rng(1), size=1)
    assert np.allclose(np.bincount(one, minlength=3) / 30_000, 1 / 3, atol=0.015)
    two = ops.tournament(f, 30_000, np.random.default_rng(2), size=2)
    # P(win) for rank r (best first) with 2 draws of 3: 5/9, 3/9, 1/9
    assert np.allclose(np.bincount(two, minlength=3) / 30_000, [5 / 9, 1 / 9, 3 / 9], atol=0.015)


def test_tournament_size_defaults_to_three():
    f = np.array([3.0, 1.0, 2.0, 0.5])
    wins = ops.tournament(f, 40_000, np.random.default_rng(3))
    p = 1 - (3 / 4) ** 3  # the best of three draws with replacement is word 0
    assert abs((wins == 0).mean() - p) < 5 * np.sqrt(p * (1 - p) / 40_000)


def test_best_takes_the_fittest_first_and_repeats():
    f = np.array([2.0, 5.0, 2.0, 1.0])
    assert ops.best(f, 3).tolist() == [1, 0, 2]  # ties keep list order
    assert ops.best(f, 6).tolist() == [1, 0, 2, 3, 1, 0]


# --------------------------------------------------------------------------- word codes


def test_lookup_finds_exactly_the_allowed_words(ctx):
    codes = ops.word_codes(ctx)
    assert ops.word_codes(ctx) is codes
    assert np.all(np.diff(codes) > 0)
    assert codes[ctx.words.index("aahed")] == ((0 * 26 + 0) * 26 + 7) * 26 ** 2 + 4 * 26 + 3
    idx = np.array([0, 5, len(ctx.words) - 1])
    assert ops.lookup_codes(ctx, codes[idx]).tolist() == idx.tolist()
    zzzzz = 26**5 - 1
    assert ops.lookup_codes(ctx, np.array([0, codes[0] + 1, zzzzz, codes[-1] + 1])).tolist() == [-1, -1, -1, -1]


def test_lookup_among_no_word_or_one_word(ctx):
    codes = ops.word_codes(ctx)
    black, slick = ctx.words.index("black"), ctx.words.index("slick")
    probe = codes[[black, slick]]
    assert ops.lookup_codes(ctx, probe, np.array([], dtype=np.int64)).tolist() == [-1, -1]
    assert ops.lookup_codes(ctx, probe, np.array([slick])).tolist() == [-1, slick]
    assert ops.lookup_codes(ctx, probe, np.array([black, slick])).tolist() == [black, slick]


# --------------------------------------------------------------------------- both children at once


def test_pairs_draw_both_children_as_two_single_calls_would(ctx):
    """recombine_pairs((p1, p2)) = recombine_children(p1, p2) then recombine_children(p2, p1) on
    the same generator: swapping the parents reverses the mask order (fallback rows included)."""
    rng = np.random.default_rng(11)
    state = GameState.start(ctx, Settings(candidates="answers"))
    consistent = np.zeros(len(ctx.words), dtype=bool)
    consistent[state.candidates] = True
    p1 = np.concatenate((rng.choice(state.candidates, 300), [ctx.words.index(w) for w in ("ivory", "black")]))
    p2 = np.concatenate((rng.choice(state.candidates, 300), [ctx.words.index(w) for w in ("fuzzy", "slick")]))
    singles = np.random.default_rng(4)
    want_first = ops.recombine_children(ctx, p1, p2, consistent, state.candidates, singles)
    want_second = ops.recombine_children(ctx, p2, p1, consistent, state.candidates, singles)
    assert (want_first != want_second).sum() > 100  # the two children differ: the order matters
    for members in (None, state.candidates):
        first, second = ops.recombine_pairs(ctx, (p1, p2), consistent, state.candidates, np.random.default_rng(4),
                                            members=members)
        assert first.tolist() == want_first.tolist() and second.tolist() == want_second.tolist()
    none = np.array([], dtype=np.int64)
    assert [c.tolist() for c in ops.recombine_pairs(ctx, (none, none), consistent, state.candidates, rng)] == [[], []]


def test_each_row_takes_its_own_recombinant_next_to_rows_without_one(ctx):
    """Three pairs with exactly one consistent recombinant each (BLACK×SLICK: SLACK, CRANE×SLATE:
    CRATE, FIGHT×SOUND: SIGHT) and HOUSE×MOUSE with none (it falls back to an answer), in any
    order: no row takes another row's word."""
    idx = ctx.words.index
    consistent = np.zeros(len(ctx.words), dtype=bool)
    consistent[[idx("slack"), idx("crate"), idx("sight")]] = True
    pairs = {"A": ("black", "slick", "slack"), "B": ("crane", "slate", "crate"), "C": ("fight", "sound", "sight"),
             "N": ("house", "mouse", None)}
    answers = set(ctx.words.answer_index.tolist())
    for order in ("ABC", "AN", "NA", "ANB", "BCN", "N", "A", "CN", "NC"):  # SIGHT: a single mask
        p1 = np.array([idx(pairs[r][0]) for r in order])
        p2 = np.array([idx(pairs[r][1]) for r in order])
        for kids in (ops.recombine_children(ctx, p1, p2, consistent, ctx.words.answer_index, np.random.default_rng(1)),
                     ops.recombine_pairs(ctx, (p1, p2), consistent, ctx.words.answer_index,
                                         np.random.default_rng(1))[1]):
            for r, kid in zip(order, kids.tolist()):
                if pairs[r][2] is None:
                    assert kid in answers, order
                else:
                    assert ctx.words.allowed[kid] == pairs[r][2], order


class _Fixed:
    """A stand-in generator whose uniform draws are all ``u``."""

    def __init__(self, u: float):
        self.u = u

    def random(self, n):
        return np.full(n, self.u)


def test_a_draw_picks_the_valid_masks_in_mask_order(ctx):
    """The pick-th valid mask in mask order (bit p set: position p from the second parent):
    CRANE×SLATE's valid masks are SLANE at 3, 7, 19, 23 and CRATE at 8, 12, 24, 28, so a draw of 0
    gives SLANE and a draw near 1 gives CRATE; the second child of a pair counts from the end."""
    idx = ctx.words.index
    everything = np.ones(len(ctx.words), dtype=bool)
    p1, p2 = np.array([idx("crane")]), np.array([idx("slate")])
    found, valid = ops._recombinations(ctx, p1, p2, everything)
    assert np.flatnonzero(valid[0]).tolist() == [3, 7, 8, 12, 19, 23, 24, 28]
    for u, first in ((0.0, "slane"), (0.99, "crate")):
        kid = ops.recombine_children(ctx, p1, p2, everything, ctx.all_words, _Fixed(u))
        assert ctx.words.allowed[kid[0]] == first, u
        one, two = ops.recombine_pairs(ctx, (p1, p2), everything, ctx.all_words, _Fixed(u))
        assert ctx.words.allowed[one[0]] == first and ctx.words.allowed[two[0]] == ({"slane", "crate"} - {first}).pop()

