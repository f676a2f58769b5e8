"""The GA fitness functions against plain-Python references of their documented formulas:
dynamic and static ``H·g(r) + ε``, the ``expected`` cost model and the thesis's first GA."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import numpy as np
import pytest

from evo_wordle.frequency import priority_paper
from evo_wordle.ga import fitness
from evo_wordle.ga.fitness import (
    EPS,
    EXPECTED_MODEL,
    FirstKnowledge,
    answer_weights,
    dynamic_fitness,
    expected_cost,
    expected_fitness,
    first_fitness,
    static_entropy,
    static_fitness,
)
from tests.reference import reference_pattern


def entropy_of(ctx, guess: int, candidates) -> float:
    """Bits of ``guess``'s feedback over equally likely ``candidates``, by counting."""
    words = ctx.words.allowed
    counts = Counter(reference_pattern(words[guess], words[c]) for c in candidates)
    n = len(candidates)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


@pytest.fixture(scope="module")
def sample(ctx):
    rng = np.random.default_rng(5)
    candidates = np.sort(rng.choice(ctx.words.answer_index, 40, replace=False))
    words = np.concatenate([candidates[[0, 7, 39]], rng.choice(len(ctx.words), 5, replace=False), [len(ctx.words) - 1]])
    return words.astype(np.int64), candidates.astype(np.int64)


@pytest.mark.parametrize("block", [None, 0])
def test_dynamic_fitness_is_bits_times_priority_plus_eps(ctx, sample, monkeypatch, block):
    if block is not None:  # every size through the blockwise routine
        monkeypatch.setattr(fitness, "BLOCK_CELLS", block)
    words, candidates = sample
    twice = np.concatenate([words, words[::-1]])
    got = dynamic_fitness(ctx, twice, candidates)
    want = [entropy_of(ctx, int(w), candidates) * ctx.priority[w] + EPS for w in twice]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dynamic_fitness(ctx, words, candidates, distinct=True), want[:len(words)], rtol=1e-12,
                               atol=1e-12)


def test_dynamic_fitness_of_one_candidate_is_eps_times_nothing(ctx, sample):
    words, candidates = sample
    got = dynamic_fitness(ctx, words, candidates[:1])
    np.testing.assert_allclose(got, EPS, rtol=0, atol=1e-15)
    assert (got > 0).all()


def test_static_fitness_is_the_dynamic_one_over_the_starting_candidates(ctx, sample):
    words, candidates = sample
    for cand in (candidates, None):
        full = ctx.all_words if cand is None else cand
        h = static_entropy(ctx, cand)
        assert h.shape == (len(ctx.words),) and not h.flags.writeable
        check = words[:4] if cand is None else words
        np.testing.assert_allclose(h[check], [entropy_of(ctx, int(w), full) for w in check], rtol=1e-9)
        f = static_fitness(ctx, cand)
        np.testing.assert_allclose(f, h * ctx.priority + EPS, rtol=1e-15)
        np.testing.assert_allclose(f[check], dynamic_fitness(ctx, check, full), rtol=1e-9)
        assert static_fitness(ctx, cand) is f and static_entropy(ctx, cand) is h


def test_static_entropy_is_read_back_from_the_cache_folder(ctx, sample, tmp_path):
    from evo_wordle.context import Context

    words, candidates = sample
    first = Context(cache_dir=ctx.cache_dir)
    values = static_entropy(first, candidates).copy()
    path = fitness._cache_file(first, candidates)
    assert path.exists()
    second = Context(cache_dir=ctx.cache_dir)
    np.testing.assert_array_equal(static_entropy(second, candidates), values)
    other = candidates[::2]
    assert fitness._cache_file(first, other) != path


def reference_cost(ctx, word: int, candidates, weights) -> float:
    """The documented model: 1 + (1 − min(1, bonus·p))·(1 + k1·rem + k2·log2(1 + rem))."""
    words = ctx.words.allowed
    total = sum(weights[c] for c in candidates)
    w = {int(c): weights[c] / total for c in candidates}
    h_now = -sum(v * math.log2(v) for v in w.values())
    mass = defaultdict(float)
    for c, v in w.items():
        mass[reference_pattern(words[word], words[c])] += v
    h = -sum(v * math.log2(v) for v in mass.values() if v > 0)
    rem = max(h_now - h, 0.0)
    p = w.get(int(word), 0.0)
    m = EXPECTED_MODEL
    return 1 + (1 - min(1.0, m["bonus"] * p)) * (1 + m["k1"] * rem + m["k2"] * math.log2(1 + rem))


@pytest.mark.parametrize("rule", ["allowed", "answers"])
def test_expected_cost_is_the_documented_model(ctx, sample, rule):
    words, candidates = sample
    weights = answer_weights(ctx, rule)
    got = expected_cost(ctx, words, candidates, weights)
    want = [reference_cost(ctx, int(w), candidates, weights) for w in words]
    np.testing.assert_allclose(got, want, rtol=1e-9)
    np.testing.assert_allclose(expected_fitness(ctx, np.concatenate([words, words[:2]]), candidates, weights),
                               np.exp(-np.array(want + want[:2])), rtol=1e-9)
    np.testing.assert_allclose(expected_fitness(ctx, words, candidates, weights, distinct=True), np.exp(-np.array(want)),
                               rtol=1e-9)


def test_a_likely_answer_costs_one_guess(ctx):
    """With two candidates, one carrying nearly all the weight, playing it costs about one guess."""
    a, b = ctx.words.index("crane"), ctx.words.index("pious")
    weights = np.full(len(ctx.words), 1e-9)
    weights[a] = 1.0
    cost = expected_cost(ctx, np.array([a, b]), np.array(sorted([a, b])), weights)
    assert cost[0] == pytest.approx(1.0, abs=1e-6)
    assert cost[1] > 1.9


def test_answer_weights_are_the_paper_curve_or_uniform(ctx):
    allowed = answer_weights(ctx, "allowed")
    np.testing.assert_allclose(allowed, priority_paper(ctx.frequencies, EXPECTED_MODEL["steepness"],
                                                       EXPECTED_MODEL["midpoint"]), rtol=1e-15)
    answers = answer_weights(ctx, "answers")
    assert (answers == 1.0).all() and len(answers) == len(ctx.words)
    assert not allowed.flags.writeable and answer_weights(ctx, "allowed") is allowed


def reference_knowledge(history: list[tuple[str, int]], length: int = 5):
    """Per position the strongest colour seen (grey 0 < yellow 1 < green 2) and its letter; grey letters."""
    colors, letters, grey = [0] * length, [None] * length, set()
    for word, code in history:
        trits = [(code // 3 ** (length - 1 - i)) % 3 for i in range(length)]
        for i, t in enumerate(trits):
            if t > colors[i]:
                colors[i], letters[i] = t, word[i]
            if t == 0:
                grey.add(word[i])
    return colors, letters, grey


def reference_first(word: str, entropy: float, colors, letters, grey) -> float:
    green = sum(1 for i in range(5) if colors[i] == 2 and word[i] == letters[i])
    amber = sum(1 for i in range(5) if colors[i] == 1 and word[i] != letters[i] and letters[i] in word)
    grey_n = sum(1 for ch in word if ch in grey)
    return max(entropy + 5 * green + 2 * amber - 2 * grey_n, EPS)


def reference_weak(word: str, colors, letters) -> bool:
    return all((colors[i] != 2 or word[i] == letters[i]) and (colors[i] != 1 or (word[i] != letters[i] and letters[i] in word))
               for i in range(5))


@pytest.mark.parametrize("answer, guesses", [("crane", ["salet", "crony"]), ("pious", ["lilos", "opium"]),
                                             ("eerie", ["geese", "eerie"])])
def test_first_ga_knowledge_mask_and_fitness(ctx, answer, guesses):
    history = [(g, reference_pattern(g, answer)) for g in guesses]
    knowledge = FirstKnowledge(5)
    for g, code in history:
        knowledge.update(ctx.words.letters[ctx.words.index(g)], code)
    colors, letters, grey = reference_knowledge(history)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    assert knowledge.colors.tolist() == colors
    assert [alphabet[i] if i >= 0 else None for i in knowledge.letters.tolist()] == letters
    assert {alphabet[i] for i in np.flatnonzero(knowledge.gray)} == grey
    rng = np.random.default_rng(len(answer) + len(guesses[0]))
    words = np.concatenate([[ctx.words.index(answer)], rng.choice(len(ctx.words), 300, replace=False)])
    texts = [ctx.words.allowed[w] for w in words]
    want = [reference_weak(t, colors, letters) for t in texts]
    all_letters = ctx.words.letters[words]
    assert knowledge.weak_mask(all_letters).tolist() == want
    counts = np.stack([np.bincount(row, minlength=26) for row in all_letters])
    assert knowledge.weak_mask(all_letters, counts).tolist() == want
    assert want[0]  # the answer always passes
    entropy = np.linspace(0.0, 6.0, len(ctx.words))
    got = first_fitness(ctx, words, knowledge, entropy)
    np.testing.assert_allclose(got, [reference_first(t, entropy[w], colors, letters, grey) for t, w in zip(texts, words)],
                               rtol=1e-12)
    assert (got > 0).all()
