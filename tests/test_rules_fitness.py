"""The GA fitness functions against plain-Python references of their documented formulas:
dynamic and static ``H·g(r) + ε``, the ``expected`` cost model and the thesis's first GA."""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.evolve.strategy import load_strategy
from evo_wordle.frequency import priority_paper
from evo_wordle.ga import fitness
from evo_wordle.ga.fitness import (
    EPS,
    EXPECTED_MODEL,
    FirstKnowledge,
    _xlogx,
    answer_weights,
    dynamic_fitness,
    expected_cost,
    expected_fitness,
    first_fitness,
    static_entropy,
    static_fitness,
)
from evo_wordle.words import WordSet
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
    np.testing.assert_array_equal(got, 1e-6)  # ε = 1e-6 (docs/ga.md): 0 bits · g + ε
    assert EPS == 1e-6 and (got > 0).all()


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("block, route", [(None, "pattern_counts"), (-1, "entropies")])
def test_no_candidates_is_zero_bits_so_exactly_eps_on_both_routes(ctx, sample, monkeypatch, block, route):
    """An empty candidate set (a game never reaches one) holds 0 bits, as entropies() says, so
    every word is worth exactly ε on the counting route and the blockwise one alike: no NaN, no warning."""
    if block is not None:  # 0 cells > -1: the blockwise routine even for no candidates
        monkeypatch.setattr(fitness, "BLOCK_CELLS", block)
    called = []

    def spy(name: str):
        real = getattr(fitness, name)
        return lambda *a, **k: called.append(name) or real(*a, **k)

    for name in ("entropies", "pattern_counts"):
        monkeypatch.setattr(fitness, name, spy(name))
    words, _ = sample
    got = dynamic_fitness(ctx, words, np.array([], dtype=np.int64))
    assert called == [route]
    np.testing.assert_array_equal(got, np.full(len(words), 1e-6))


@pytest.mark.parametrize("n", [10, 48, 89])
def test_a_guess_with_one_feedback_is_worth_exactly_eps(ctx, n):
    """'fuzzy' shares no letter with these candidates: all grey, 0 bits, so exactly ε, never less.
    (For these counts log2(n) − n·log2(n)/n rounds below zero: the 0-bit floor must hold.)"""
    guess = ctx.words.index("fuzzy")
    grey = [int(a) for a in ctx.words.answer_index if not set(ctx.words.allowed[a]) & set("fuzy")]
    candidates = np.array(grey[:n], dtype=np.int64)
    assert entropy_of(ctx, guess, candidates) == 0.0
    got = dynamic_fitness(ctx, np.array([guess, guess]), candidates)
    np.testing.assert_array_equal(got, 1e-6)


@pytest.mark.parametrize("words", [("crane",), ("crane", "pious"), ("crane", "pious", "salet")])
def test_dynamic_fitness_on_tiny_word_lists(words):
    """Lists of one to three words, every word a candidate: the counts reach the number of words
    (one word: its only pattern holds them all) and the x·log2(x) table must cover them."""
    tiny = Context(words=WordSet(words, words, label=f"test-fitness-{len(words)}"))
    every = np.arange(len(words), dtype=np.int64)
    got = dynamic_fitness(tiny, every, every)
    want = [entropy_of(tiny, int(w), every) * tiny.priority[w] + EPS for w in every]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    assert len(_xlogx(tiny)) >= len(words) + 1


def test_the_distinct_flag_is_keyword_only(ctx, sample):
    words, candidates = sample
    weights = answer_weights(ctx, "answers")
    named = dynamic_fitness(ctx=ctx, words=words, candidates=candidates, distinct=True)
    np.testing.assert_array_equal(named, dynamic_fitness(ctx, words, candidates))
    named = expected_fitness(ctx=ctx, words=words, candidates=candidates, weights=weights, distinct=True)
    np.testing.assert_array_equal(named, expected_fitness(ctx, words, candidates, weights))
    with pytest.raises(TypeError):
        dynamic_fitness(ctx, words, candidates, True)
    with pytest.raises(TypeError):
        expected_fitness(ctx, words, candidates, weights, True)


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
        assert not f.flags.writeable
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
    # docs/foundation.md: ga-static-entropy-<sha16>-<cand12>.cache
    cand12 = hashlib.sha256(candidates.astype(np.int64).tobytes()).hexdigest()[:12]
    assert path.name == f"ga-static-entropy-{first.words.digest[:16]}-{cand12}.cache"


def test_static_values_are_kept_per_candidate_set(ctx, sample):
    """Two different starting sets on one fresh context: each gets its own entropies and fitness."""
    words, candidates = sample
    fresh = Context(cache_dir=ctx.cache_dir)
    sets = (candidates[:20], candidates[20:], candidates[::3])
    check = words[:4]
    for cand in sets:
        h, f = static_entropy(fresh, cand), static_fitness(fresh, cand)
        np.testing.assert_allclose(h[check], [entropy_of(ctx, int(w), cand) for w in check], rtol=1e-9)
        np.testing.assert_allclose(f[check], [entropy_of(ctx, int(w), cand) * ctx.priority[w] + EPS for w in check],
                                   rtol=1e-9)
    for cand in sets[::-1]:  # and read back from the context's memo
        np.testing.assert_allclose(static_entropy(fresh, cand)[check], [entropy_of(ctx, int(w), cand) for w in check],
                                   rtol=1e-9)


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


#: Small candidate sets every member of which splits them (almost) completely: rem is 0 or under 1 bit,
#: and for the first word of each h_now − h rounds below zero (the floor at 0 bits must hold).
SPLIT = {"answers": ["agile", "freer", "guppy", "juice", "logic", "penal", "plait", "sight", "stint", "vegan", "wrath"],
         "allowed": ["nymph", "panel", "slang", "thing"]}


@pytest.mark.parametrize("rule", ["allowed", "answers"])
def test_expected_cost_is_the_documented_model(ctx, sample, rule):
    words, candidates = sample
    weights = answer_weights(ctx, rule)
    got = expected_cost(ctx, words, candidates, weights)
    want = [reference_cost(ctx, int(w), candidates, weights) for w in words]
    np.testing.assert_allclose(got, want, rtol=1e-9)
    split = np.array(sorted(ctx.words.index(t) for t in SPLIT[rule]), dtype=np.int64)
    probe = np.concatenate([split, words[:3]])
    np.testing.assert_allclose(expected_cost(ctx, probe, split, weights),
                               [reference_cost(ctx, int(w), split, weights) for w in probe], rtol=1e-9)
    np.testing.assert_allclose(expected_fitness(ctx, np.concatenate([words, words[:2]]), candidates, weights),
                               np.exp(-np.array(want + want[:2])), rtol=1e-9)
    np.testing.assert_allclose(expected_fitness(ctx, words, candidates, weights, distinct=True),
                               np.exp(-np.array(want)), rtol=1e-9)


def test_a_likely_answer_costs_one_guess(ctx):
    """With two candidates, one carrying nearly all the weight, playing it costs about one guess."""
    a, b = ctx.words.index("crane"), ctx.words.index("pious")
    weights = np.full(len(ctx.words), 1e-9)
    weights[a] = 1.0
    cost = expected_cost(ctx, np.array([a, b]), np.array(sorted([a, b])), weights)
    assert cost[0] == pytest.approx(1.0, abs=1e-6)
    assert cost[1] > 1.9


@pytest.mark.parametrize("rule", ["allowed", "answers"])
def test_a_complete_split_leaves_no_bits(ctx, rule):
    """rem, the bits left after the feedback, is never below 0: a guess that tells every candidate
    apart costs exactly 1 + (1 − min(1, bonus·p)), and no guess costs less than that floor."""
    weights = answer_weights(ctx, rule)
    split = np.array(sorted(ctx.words.index(t) for t in SPLIT[rule]), dtype=np.int64)
    w = weights[split] / weights[split].sum()
    floor = 1.0 + (1.0 - np.minimum(1.0, EXPECTED_MODEL["bonus"] * w))
    cost = expected_cost(ctx, split, split, weights)
    assert (cost >= floor).all()
    first = int(np.flatnonzero(split == ctx.words.index(SPLIT[rule][0]))[0])
    assert cost[first] == floor[first]


@pytest.mark.parametrize("distinct", [False, True])
def test_expected_fitness_of_no_candidates_is_eps_as_dynamic_gives(ctx, sample, distinct):
    """No candidates left (feedback no answer gives): no cost to estimate, so every word is worth
    ε, the same strictly positive floor dynamic_fitness gives, never an IndexError."""
    words, _ = sample
    none = np.array([], dtype=np.int64)
    for rule in ("allowed", "answers"):
        got = expected_fitness(ctx, words, none, answer_weights(ctx, rule), distinct=distinct)
        assert got.shape == (len(words),) and (got > 0).all()
        np.testing.assert_array_equal(got, np.full(len(words), EPS))
        np.testing.assert_array_equal(got, dynamic_fitness(ctx, words, none, distinct=distinct))
    assert expected_fitness(ctx, words[:0], none, answer_weights(ctx, "answers")).shape == (0,)


def test_expected_model_is_the_p0_genes_rounded():
    """EXPECTED_MODEL holds the genes of data/strategies/p0-ga-genes.json to two significant digits."""
    genes = load_strategy("p0-ga-genes")
    assert set(EXPECTED_MODEL) == {"steepness", "midpoint", "k1", "k2", "bonus"}
    for name, value in EXPECTED_MODEL.items():
        assert value == float(f"{getattr(genes, name):.2g}"), name


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
    return all((colors[i] != 2 or word[i] == letters[i])
               and (colors[i] != 1 or (word[i] != letters[i] and letters[i] in word)) for i in range(5))


@pytest.mark.parametrize("answer, guesses", [("crane", ["salet", "crony"]), ("pious", ["lilos", "opium"]),
                                             ("eerie", ["geese", "eerie"]), ("pious", ["fuzzy"]),
                                             ("crane", ["zesty", "nacre"])])
def test_first_ga_knowledge_mask_and_fitness(ctx, answer, guesses):
    """Against every allowed word: the yellows decide for the words that keep the greens, and a grey
    'z' (the last letter) counts too."""
    history = [(g, reference_pattern(g, answer)) for g in guesses]
    knowledge = FirstKnowledge(5)
    for g, code in history:
        knowledge.update(ctx.words.letters[ctx.words.index(g)], code)
    colors, letters, grey = reference_knowledge(history)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    assert knowledge.colors.tolist() == colors
    assert knowledge.letters.tolist() == [-1 if ch is None else alphabet.index(ch) for ch in letters]  # -1: unknown
    assert knowledge.gray.shape == (26,)  # one flag per letter a–z
    assert {alphabet[i] for i in np.flatnonzero(knowledge.gray)} == grey
    words = np.arange(len(ctx.words), dtype=np.int64)
    texts = ctx.words.allowed
    want = [reference_weak(t, colors, letters) for t in texts]
    all_letters = ctx.words.letters[words]
    assert knowledge.weak_mask(all_letters).tolist() == want
    counts = np.stack([np.bincount(row, minlength=26) for row in all_letters])
    assert knowledge.weak_mask(all_letters, counts).tolist() == want
    assert want[ctx.words.index(answer)]  # the answer always passes
    assert 0 < sum(want) < len(want)
    entropy = np.linspace(0.0, 6.0, len(ctx.words))
    got = first_fitness(ctx, words, knowledge, entropy)
    want_fitness = [reference_first(t, entropy[w], colors, letters, grey) for t, w in zip(texts, words)]
    np.testing.assert_allclose(got, want_fitness, rtol=1e-12)
    assert (got > 0).all()


def test_first_knowledge_starts_empty():
    knowledge = FirstKnowledge(5)
    assert knowledge.colors.tolist() == [0] * 5 and knowledge.letters.tolist() == [-1] * 5
    assert knowledge.gray.shape == (26,) and not knowledge.gray.any()
