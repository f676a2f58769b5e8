"""Rule tests of evo_wordle/evolve/strategy.py: the strategy genome (genes, bounds, defaults,
plain-words description), its prior (the paper's curve, mixed with uniform, times the plural,
past-tense, name and unlisted-word multipliers), the cost model
``1 + (1 − min(1, bonus·p))·(1 + k1·rem + k2·log2(1+rem)) − w_freq·priority``, the
explore/candidates switch, the explore pool, the memo and the opener/tree moves, and strategy
files (layout, errors, shipped names, decision-tree keys).  Every expected value is written out
here in plain Python (or numpy), independent of the code under test."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve import strategy as st
from evo_wordle.evolve.strategy import (
    DEFAULT_POOL,
    LOG_GENES,
    MULTIPLIERS,
    REAL_GENES,
    TREE_KEYS,
    StoredPrior,
    Strategy,
    StrategyFile,
    StrategyPolicy,
    StrategySolver,
    check_prior,
    check_tree,
    explore_pool,
    history_key,
    inflection_weights,
    load_strategy,
    load_strategy_file,
    mass_entropy,
    parse_history_key,
    pattern_mass,
    prior_multipliers,
    read_strategy_file,
    resolve_strategy_path,
    save_strategy,
    shipped_strategies,
    transposed_table,
    usable_tree,
    weighted_entropies,
)
from evo_wordle.frequency import priority_paper
from evo_wordle.game import GameState, Settings, illegal_move
from evo_wordle.lexicon import word_classes
from evo_wordle.words import WordSet
from tests.reference import reference_pattern

ROOT = Path(__file__).resolve().parent.parent
ANY = Settings(candidates="answers", guess_from="allowed")  # P1 with any allowed word as a guess
ONLY = Settings(candidates="answers", guess_from="candidates")
P0 = Settings(candidates="allowed", guess_from="allowed")
HARD = ANY.with_(hard=True)
DEFAULTS = {"opener": "salet", "steepness": 10.0, "midpoint": 0.5, "mix": 0.0, "k1": 0.25, "k2": 0.6, "bonus": 1.0,
            "w_freq": 0.0, "switch_eff": 2.0, "switch_turn": 6.0, "hard_candidates": False, "w_plural": 1.0,
            "w_past": 1.0, "w_proper": 1.0, "w_unlisted": 1.0}
#: Every gene but the opener, in the order a missing-gene message names them.
BUT_OPENER = ("steepness, midpoint, mix, k1, k2, bonus, w_freq, switch_eff, switch_turn, hard_candidates, w_plural, "
              "w_past, w_proper, w_unlisted")


# ------------------------------------------------------------------------- plain references


def h2(q: float) -> float:
    """Binary entropy, with q kept within [1e-12, 1 − 1e-12] as the pool's proxy does."""
    q = min(max(q, 1e-12), 1 - 1e-12)
    return -(q * math.log2(q) + (1 - q) * math.log2(1 - q))


def plain_multiplier(word: str, s: Strategy, proper: bool, unlisted: bool) -> float:
    m = 1.0
    if word.endswith("ed"):
        m *= s.w_past
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        m *= s.w_plural
    if proper:
        m *= s.w_proper
    if unlisted:
        m *= s.w_unlisted
    return m


def plain_weights(ctx, s: Strategy, cand) -> np.ndarray:
    """The answer probabilities the docstring describes: the paper's curve times the multipliers,
    normalised over the candidates, mixed with a uniform share ``mix``."""
    curve = priority_paper(ctx.frequencies, s.steepness, s.midpoint)
    words = [ctx.words.allowed[c] for c in cand]
    proper, unlisted = word_classes(words)
    raw = [float(curve[c]) * plain_multiplier(w, s, p, u) for c, w, p, u in zip(cand, words, proper, unlisted)]
    total = sum(raw)
    return np.array([(1 - s.mix) * r / total + s.mix / len(raw) for r in raw])


def plain_bits(patterns, weights) -> float:
    mass = defaultdict(float)
    for p, w in zip(patterns, weights):
        mass[p] += w
    return -sum(m * math.log2(m) for m in mass.values() if m > 0)


def pool_bounds(ctx, cand, w, size: int, tol: float = 1e-9) -> tuple[set[int], set[int]]:
    """The explore pool as documented: the ``size`` words of highest Σ h2(P(letter occurs)) +
    Σ h2(P(letter at its place)), plus the candidates (all, or the ``size`` likeliest).  Words
    tied at a cut may go either way: (words that must be in it, words that may be)."""
    words = ctx.words.allowed
    occurs, at = defaultdict(float), defaultdict(float)
    for c, wc in zip(cand, w):
        for letter in set(words[c]):
            occurs[letter] += wc
        for pos, letter in enumerate(words[c]):
            at[pos, letter] += wc
    h_occ = {letter: h2(occurs[letter]) for letter in "abcdefghijklmnopqrstuvwxyz"}
    h_at = {(pos, letter): h2(at[pos, letter]) for pos in range(ctx.words.length) for letter in h_occ}
    score = np.array([sum(h_occ[x] for x in set(word)) + sum(h_at[pos, x] for pos, x in enumerate(word))
                      for word in words])
    must, may = best(score, size, tol)
    if len(cand) <= size:
        return must | {int(c) for c in cand}, may | {int(c) for c in cand}
    must_c, may_c = best(np.asarray(w), size, 1e-12)
    return must | {int(cand[k]) for k in must_c}, may | {int(cand[k]) for k in may_c}


def best(values, size: int, tol: float) -> tuple[set[int], set[int]]:
    """Positions of the ``size`` highest values: (those in every choice, those in some choice)."""
    cut = np.sort(values)[::-1][min(size, len(values)) - 1]
    above, band = np.flatnonzero(values > cut + tol), np.flatnonzero(values >= cut - tol)
    return set((band if len(band) <= size else above).tolist()), set(band.tolist())


def plain_pool(ctx, cand, w, size: int) -> np.ndarray:
    """The pool where no tie straddles a cut (checked)."""
    must, may = pool_bounds(ctx, cand, w, size)
    assert must == may, "a tie at a cut: pick another state or size"
    return np.array(sorted(must), dtype=np.int64)


def plain_costs(ctx, s: Strategy, cand, w, guesses) -> np.ndarray:
    """The documented cost of every guess, one at a time."""
    h_now = -sum(x * math.log2(x) for x in w)
    chance = {int(c): float(x) for c, x in zip(cand, w)}
    out = []
    for g in guesses:
        rem = max(h_now - plain_bits(ctx.table[g, cand].tolist(), w), 0.0)
        p = chance.get(int(g), 0.0)
        cost = 1 + (1 - min(1.0, s.bonus * p)) * (1 + s.k1 * rem + s.k2 * math.log2(1 + rem))
        if p > 0:
            cost -= s.w_freq * float(ctx.priority[g])
        out.append(cost)
    return np.array(out)


def check_guesses(ctx, s: Strategy, state, guess_from: str, got, pool: int = DEFAULT_POOL) -> None:
    """Which words the genome considers: candidates only once guess_from says so, the effective
    number of candidates 2^H is at most switch_eff, the next guess's number reaches
    round(switch_turn), or in hard mode with hard_candidates; else the explore pool (its
    hard-mode legal words), or every legal word without a pool."""
    cand = state.candidates
    w = plain_weights(ctx, s, cand)
    h_now = -sum(x * math.log2(x) for x in w)
    if (guess_from == "candidates" or 2 ** h_now <= s.switch_eff or len(state.history) + 1 >= round(s.switch_turn)
            or (state.hard and s.hard_candidates)):
        assert np.array_equal(got, cand)
        return
    must, may = pool_bounds(ctx, cand, w, pool) if pool else (set(range(len(ctx.words))),) * 2
    if state.hard:
        settings = Settings(candidates="allowed", guess_from="allowed", hard=True)
        legal = {g for g in may if illegal_move(ctx, settings, state.history, g) is None}
        must, may = must & legal, may & legal
    assert got.dtype == np.int64 and np.all(np.diff(got) > 0)
    assert must <= set(got.tolist()) <= may


def after(ctx, settings, *moves) -> GameState:
    """The state after ``moves`` ((guess, answer) word pairs) from the start of ``settings``."""
    state = GameState.start(ctx, settings)
    for guess, answer in moves:
        g = ctx.words.index(guess)
        state = state.after(g, reference_pattern(guess, answer))
    return state


def idx(ctx, *words) -> list[int]:
    return [ctx.words.index(w) for w in words]


# ---------------------------------------------------------------------------------- genome


def test_genes_their_bounds_and_defaults_are_as_documented():
    assert REAL_GENES == {"steepness": (0.0, 40.0), "midpoint": (0.0, 1.0), "mix": (0.0, 1.0), "k1": (0.0, 1.5),
                          "k2": (0.0, 2.0), "bonus": (0.0, 2.0), "w_freq": (0.0, 1.0), "switch_eff": (1.0, 50.0),
                          "switch_turn": (1.0, 7.0), "w_plural": (0.001, 1.0), "w_past": (0.001, 1.0),
                          "w_proper": (0.001, 1.0), "w_unlisted": (0.001, 1.0)}
    assert MULTIPLIERS == ("w_plural", "w_past", "w_proper", "w_unlisted") and LOG_GENES == set(MULTIPLIERS)
    assert Strategy().as_dict() == DEFAULTS and list(Strategy().as_dict()) == list(DEFAULTS)
    assert DEFAULT_POOL == 300 and StrategyPolicy.__init__.__defaults__ == (None, 300, None)


@pytest.mark.parametrize("name", list(REAL_GENES))
def test_each_gene_takes_its_bounds_and_refuses_anything_beyond(name):
    lo, hi = REAL_GENES[name]
    assert getattr(Strategy(**{name: lo}), name) == lo and getattr(Strategy(**{name: hi}), name) == hi
    for bad in (np.nextafter(lo, -1.0), np.nextafter(hi, 2 * hi), hi + 1, lo - 1):
        with pytest.raises(EvoWordleError) as err:
            Strategy(**{name: float(bad)})
        assert str(err.value) == f"strategy gene {name}={float(bad)} is outside [{lo}, {hi}]"
    whole = Strategy(**{name: int(hi)})  # a whole number is a number
    assert getattr(whole, name) == int(hi)


@pytest.mark.parametrize("value", ["x", True, False, None, float("nan"), float("inf"), -float("inf"), [1.0]])
def test_a_gene_that_is_not_a_finite_number_is_refused(value):
    for name in REAL_GENES:
        with pytest.raises(EvoWordleError) as err:
            Strategy(**{name: value})
        assert str(err.value) == f"strategy gene {name} must be a number, not {value!r}"


def test_a_huge_whole_number_is_outside_the_bounds_not_an_overflow():
    """A strategy file may hold 1 followed by 400 zeros: a one-line error, not an OverflowError."""
    big = 10**400
    with pytest.raises(EvoWordleError, match=r"^strategy gene k1=1000.* is outside \[0\.0, 1\.5\]$"):
        Strategy(k1=big)
    with pytest.raises(EvoWordleError, match=r"^strategy gene k1=-1000.* is outside"):
        Strategy(k1=-big)


@pytest.mark.parametrize("opener", ["", 5, None, b"salet"])
def test_the_opener_must_be_a_non_empty_string(opener):
    with pytest.raises(EvoWordleError) as err:
        Strategy(opener=opener)
    assert str(err.value) == "strategy gene opener must be a word"


@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0])
def test_hard_candidates_must_be_true_or_false(value):
    with pytest.raises(EvoWordleError) as err:
        Strategy(hard_candidates=value)
    assert str(err.value) == "strategy gene hard_candidates must be true or false"
    assert Strategy(hard_candidates=True).hard_candidates is True


def test_a_genome_from_a_dict_names_its_unknown_genes_then_its_missing_ones():
    """Every gene must be given: a missing one would play today's default, whatever the file
    was made with (genes are added over time), so it is named, never filled in."""
    s = Strategy(opener="crane", steepness=3.0, hard_candidates=True, w_proper=0.5)
    assert Strategy.from_dict(s.as_dict()) == s
    assert Strategy.from_dict(dict(reversed(list(DEFAULTS.items())))) == Strategy()  # any order
    with pytest.raises(EvoWordleError) as err:
        Strategy.from_dict({"zz": 1, "k1": 0.5, "aa": 2})
    assert str(err.value) == "unknown strategy gene(s): aa, zz"
    with pytest.raises(EvoWordleError) as err:
        Strategy.from_dict({"k1": 0.5, "opener": "crane"})
    assert str(err.value) == ("strategy genome lacks gene(s): steepness, midpoint, mix, k2, bonus, w_freq, switch_eff, "
                              "switch_turn, hard_candidates, w_plural, w_past, w_proper, w_unlisted")
    with pytest.raises(EvoWordleError) as err:
        Strategy.from_dict({})
    assert str(err.value) == f"strategy genome lacks gene(s): opener, {BUT_OPENER}"
    for name in DEFAULTS:  # each gene alone is missed and named
        with pytest.raises(EvoWordleError) as err:
            Strategy.from_dict({k: v for k, v in DEFAULTS.items() if k != name})
        assert str(err.value) == f"strategy genome lacks gene(s): {name}"
    with pytest.raises(EvoWordleError) as err:  # unknown genes are named first, even with missing ones
        Strategy.from_dict({"opener": "crane", "w_plurals": 0.5})
    assert str(err.value) == "unknown strategy gene(s): w_plurals"
    for bad in (None, [], "salet", 3):
        with pytest.raises(EvoWordleError) as err:
            Strategy.from_dict(bad)
        assert str(err.value) == "strategy genome must be a JSON object"


def test_a_checked_genome_stays_as_checked():
    """Genomes and loaded files are frozen: genes checked once cannot be changed past the checks,
    and equal genomes hash alike (usable as keys)."""
    s = Strategy()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.k1 = 99.0
    assert hash(s) == hash(Strategy()) and len({s, Strategy(), Strategy(k1=0.5)}) == 2
    f = StrategyFile("p.json", s, {}, {}, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.strategy = Strategy(k1=0.5)


# ---------------------------------------------------------------------------------- describe


def test_describe_writes_out_every_gene_that_acts():
    assert Strategy().describe() == (
        "open with SALET; weight candidates by a frequency prior (steepness 10.0, midpoint 0.50, 0% uniform); "
        "cost = 1 + (1 − 1.00·p)·(1 + 0.25·rem + 0.60·log2(1+rem)); "
        "explore with any word until ≤ 2.0 effective candidates or turn 6")
    s = Strategy(opener="crane", steepness=0.0, k1=1.5, k2=0.0, bonus=0.5, w_freq=0.25, switch_eff=12.34,
                 switch_turn=4.5, w_past=0.5)
    assert s.describe() == (
        "open with CRANE; weight candidates by a uniform prior with -ed words ×0.5; "
        "cost = 1 + (1 − 0.50·p)·(1 + 1.50·rem + 0.00·log2(1+rem)) − 0.25·priority; "
        "explore with any word until ≤ 12.3 effective candidates or turn 4")  # round(4.5) = 4
    two = Strategy(steepness=20.0, midpoint=0.3, mix=0.25, w_plural=0.02, w_unlisted=0.5, switch_turn=5.6)
    assert two.describe() == (
        "open with SALET; weight candidates by a frequency prior (steepness 20.0, midpoint 0.30, 25% uniform) "
        "with plurals ×0.02 and words no dictionary lists ×0.5; "
        "cost = 1 + (1 − 1.00·p)·(1 + 0.25·rem + 0.60·log2(1+rem)); "
        "explore with any word until ≤ 2.0 effective candidates or turn 6")
    three = Strategy(w_plural=0.1, w_past=0.2, w_proper=0.0123)
    assert "frequency prior (steepness 10.0, midpoint 0.50, 0% uniform) with plurals ×0.1, -ed words ×0.2 " \
           "and names ×0.0123; cost" in three.describe()
    four = Strategy(w_plural=0.1, w_past=0.2, w_proper=0.01, w_unlisted=0.12345)
    assert "with plurals ×0.1, -ed words ×0.2, names ×0.01 and words no dictionary lists ×0.123; cost" in \
        four.describe()
    one = Strategy(w_proper=0.3)
    assert "0% uniform) with names ×0.3; cost" in one.describe()


def test_describe_leaves_out_exploration_where_only_candidates_may_be_guessed():
    s = Strategy(switch_eff=4.0, switch_turn=5.0, hard_candidates=True)
    explore = "; explore with any word until ≤ 4.0 effective candidates or turn 5"
    only = "; guess only words that may be the answer"
    assert s.describe().endswith(explore)  # no settings: the genome's own genes
    assert s.describe(Settings(guess_from="allowed")).endswith(explore)
    assert s.describe(Settings(guess_from="candidates")).endswith(only)
    assert s.describe(Settings(guess_from="candidates", hard=True)).endswith(only)
    assert s.describe(Settings(guess_from="allowed", hard=True)).endswith(only)  # hard_candidates acts
    soft = Strategy(switch_eff=4.0, switch_turn=5.0)
    assert soft.describe(Settings(guess_from="allowed", hard=True)).endswith(explore)
    assert soft.describe(Settings(guess_from="candidates")).endswith(only)


# ------------------------------------------------------------------------------ multipliers


def test_inflections_go_by_the_word_endings():
    words = ["cats", "glass", "focus", "basis", "baked", "speed", "crane", "shoes", "sized", "s", "eds", "bus",
             "ed", "edge", "seeds", "kiss"]
    want = [0.1 if w.endswith("s") and w[-2:] not in ("ss", "us", "is") else 0.01 if w.endswith("ed") else 1.0
            for w in words]
    assert want == [0.1, 1.0, 1.0, 1.0, 0.01, 0.01, 1.0, 0.1, 0.01, 0.1, 0.1, 1.0, 0.01, 1.0, 0.1, 1.0]
    assert inflection_weights(words, 0.1, 0.01).tolist() == want
    assert inflection_weights(tuple(words), 1.0, 1.0).tolist() == [1.0] * len(words)


def test_prior_multipliers_multiply_each_class_of_a_word():
    words = ["crane", "kevin", "zzzzq", "zzzzs", "texas", "baked", "cares"]
    proper, unlisted = word_classes(words)
    assert proper.tolist() == [False, True, False, False, True, False, False]
    assert unlisted.tolist() == [False, False, True, True, False, False, False]
    for genes in ({"w_plural": 0.5, "w_past": 0.25, "w_proper": 0.1, "w_unlisted": 0.01}, {"w_proper": 0.1},
                  {"w_unlisted": 0.01}, {"w_plural": 0.5}, {"w_past": 0.25, "w_unlisted": 0.2}, {}):
        s = Strategy(**genes)
        want = [plain_multiplier(w, s, p, u) for w, p, u in zip(words, proper, unlisted)]
        np.testing.assert_allclose(prior_multipliers(words, s), want, rtol=1e-15)


def test_the_dictionary_is_read_only_for_the_name_and_unlisted_genes(monkeypatch):
    def refuse(words):
        raise AssertionError("the dictionary was read")

    monkeypatch.setattr(st, "_names_and_unlisted", refuse)
    assert prior_multipliers(["cats", "kevin"], Strategy(w_plural=0.5, w_past=0.5)).tolist() == [0.5, 1.0]
    for genes in ({"w_proper": 0.5}, {"w_unlisted": 0.5}):
        with pytest.raises(AssertionError):
            prior_multipliers(["cats"], Strategy(**genes))


def test_word_classes_are_cached_per_word_list():
    words = ("crane", "cats", "baked")
    assert st._inflections(words) is st._inflections(tuple(words))
    assert st._names_and_unlisted(words) is st._names_and_unlisted(tuple(words))


def test_the_prior_is_the_paper_curve_times_the_multipliers(ctx, monkeypatch):
    s = Strategy(steepness=7.0, midpoint=0.3, w_plural=0.5, w_past=0.25, w_proper=0.1, w_unlisted=0.01)
    words = ctx.words.allowed
    proper, unlisted = word_classes(words)
    curve = priority_paper(ctx.frequencies, 7.0, 0.3)
    want = np.array([curve[i] * plain_multiplier(w, s, p, u) for i, (w, p, u) in
                     enumerate(zip(words, proper, unlisted))])
    np.testing.assert_allclose(StrategyPolicy(ctx, s).prior, want, rtol=1e-14)

    def refuse(*args):
        raise AssertionError("multipliers computed for a genome without any")

    monkeypatch.setattr(st, "prior_multipliers", refuse)
    np.testing.assert_array_equal(StrategyPolicy(ctx, Strategy(steepness=7.0, midpoint=0.3)).prior, curve)


def test_weights_are_the_prior_normalised_then_mixed_with_uniform(ctx):
    cand = np.array(sorted(idx(ctx, "cigar", "rebut", "sissy", "humph", "awake", "blush", "baked", "cares")))
    for genes in ({}, {"mix": 0.3}, {"mix": 1.0}, {"steepness": 0.0}, {"steepness": 30.0, "midpoint": 0.9, "mix": 0.05,
                                                                       "w_past": 0.1, "w_plural": 0.2}):
        s = Strategy(**genes)
        got = StrategyPolicy(ctx, s).weights(cand)
        np.testing.assert_allclose(got, plain_weights(ctx, s, cand), rtol=1e-13)
        assert got.sum() == pytest.approx(1.0, abs=1e-14)
    np.testing.assert_allclose(StrategyPolicy(ctx, Strategy(mix=1.0)).weights(cand), np.full(8, 1 / 8), rtol=1e-15)


def test_a_given_prior_replaces_the_genomes_curve_multipliers_and_mix(ctx):
    cand = np.array(sorted(idx(ctx, "cigar", "rebut", "sissy", "humph", "awake", "blush", "baked", "cares")))
    prior = np.arange(1.0, len(ctx.words) + 1.0)  # any positive weights, unlike every genome's curve
    genome = Strategy(steepness=30.0, midpoint=0.9, mix=0.4, w_past=0.1, w_plural=0.2)
    got = StrategyPolicy(ctx, genome, prior=prior).weights(cand)
    np.testing.assert_allclose(got, prior[cand] / prior[cand].sum(), rtol=1e-13)  # no uniform share mixed in
    np.testing.assert_allclose(StrategyPolicy(ctx, genome).weights(cand), plain_weights(ctx, genome, cand),
                               rtol=1e-13)  # without one, the genome's own prior as before


def test_of_two_candidates_the_likelier_under_the_given_prior_is_guessed(ctx):
    first = after(ctx, ANY, ("salet", "cigar"))
    state = GameState(ctx, first.candidates[:2], first.history)
    a, b = (int(c) for c in state.candidates)
    for favoured, other in ((a, b), (b, a)):
        prior = np.ones(len(ctx.words))
        prior[favoured] = 3.0
        assert StrategyPolicy(ctx, Strategy(), prior=prior).decide(state, "allowed") == favoured
        assert other != favoured


@pytest.mark.parametrize("bad, message", [
    ("abc", "must be numbers"),
    (np.ones(5), "one weight per allowed word"),
    (np.ones((2, 3)), "one weight per allowed word"),
    ("zero", "finite and > 0"),
    ("negative", "finite and > 0"),
    ("nan", "finite and > 0"),
    ("inf", "finite and > 0"),
    # each finite and > 0, but not as weights: their sum overflowed (NaN scores played silently),
    # or one word's share of it is 0
    ("huge", "add up to a finite number"),
    ("vanishing", "each has a share above 0"),
])
def test_a_prior_must_hold_one_finite_positive_weight_per_word(ctx, bad, message):
    n = len(ctx.words)
    if isinstance(bad, str) and bad == "huge":
        bad = np.full(n, 1e308)
    elif isinstance(bad, str) and bad == "vanishing":
        bad = np.ones(n) * 1e300
        bad[7] = 5e-324
    if isinstance(bad, str) and bad in ("zero", "negative", "nan", "inf"):
        w = np.ones(n)
        w[7] = {"zero": 0.0, "negative": -1.0, "nan": np.nan, "inf": np.inf}[bad]
        bad = w
    with pytest.raises(EvoWordleError, match=message) as err:
        StrategyPolicy(ctx, Strategy(), prior=bad)
    assert isinstance(err.value, ValueError)
    np.testing.assert_array_equal(check_prior([1, 2] * (n // 2) + [1] * (n % 2), n)[:3], [1.0, 2.0, 1.0])


def test_a_given_prior_does_not_play_a_tree_made_under_the_files_prior(ctx, tmp_path):
    start = GameState.start(ctx, ANY)
    both = StrategyPolicy(ctx, Strategy(), {"": "slate"}, prior=np.ones(len(ctx.words)))  # the caller's pairing
    assert both.decide(start, "allowed") == ctx.words.index("slate")
    path = tmp_path / "s.json"
    s = Strategy(opener="crane")
    save_strategy(path, s, {}, {"": "slate"}, ANY, ctx.words)
    assert StrategySolver(ctx, ANY, strategy=path).choose(start) == ctx.words.index("slate")  # the tree
    assert StrategySolver(ctx, ANY, strategy=path).describe()["opener"] == "slate"  # played, not the genome's
    given = StrategySolver(ctx, ANY, strategy=path, prior=np.ones(len(ctx.words)))
    assert given.choose(start) == ctx.words.index("crane") and given.policy.tree == {}
    assert given.describe()["opener"] == "crane"
    assert given.describe()["prior"].startswith("given")
    assert "prior" not in StrategySolver(ctx, ANY, strategy=path).describe()
    stored = tmp_path / "p.json"  # a file's own prior plays with the file's own tree
    save_strategy(stored, s, {}, {"": "slate"}, ANY, ctx.words, StoredPrior(np.ones(len(ctx.words)), "flat"))
    mine = StrategySolver(ctx, ANY, strategy=stored)
    assert mine.choose(start) == ctx.words.index("slate") and mine.describe()["prior"] == "stored in the file: flat"
    over = StrategySolver(ctx, ANY, strategy=stored, prior=np.full(len(ctx.words), 2.0))
    assert over.policy.tree == {} and over.describe()["prior"].startswith("given")
    np.testing.assert_array_equal(over.policy.prior, np.full(len(ctx.words), 2.0))


def test_a_stored_prior_round_trips_to_seven_digits_and_replaces_the_genomes(ctx, tmp_path):
    n = len(ctx.words)
    weights = np.linspace(1e-6, 3.0, n) * (1 + 1e-9) + 1.23456789e-3  # more digits than a file keeps
    path = tmp_path / "s.json"
    genome = Strategy(steepness=7.0, midpoint=0.3, mix=0.4, w_plural=0.1)  # prior genes a stored prior replaces
    save_strategy(path, genome, {}, None, P0, ctx.words, StoredPrior(weights, "by hand"))
    doc = json.loads(path.read_text())
    assert doc["prior"]["about"] == "by hand" and len(doc["prior"]["weights"]) == n
    assert doc["version"] == st.PRIOR_VERSION == 2  # an evo-wordle without stored priors refuses it
    assert doc["prior"]["weights"][:3] == [float(f"{w:.7g}") for w in weights[:3]]
    f = read_strategy_file(path)
    np.testing.assert_array_equal(f.prior.weights, [float(f"{w:.7g}") for w in weights])
    np.testing.assert_allclose(f.prior.weights, weights, rtol=5e-7)
    policy = StrategySolver(ctx, P0, strategy=path).policy
    np.testing.assert_array_equal(policy.prior, f.prior.weights)
    assert policy.mix == 0.0  # the genome's uniform share is not mixed in either
    cand = np.arange(0, n, 97)
    np.testing.assert_allclose(policy.weights(cand), f.prior.weights[cand] / f.prior.weights[cand].sum(), rtol=1e-13)
    same = StrategySolver(ctx, P0, strategy=genome, prior=f.prior.weights)
    for answer in ("cigar", "vivid", "fjord"):
        state = GameState.start(ctx, P0).after(ctx.words.index("salet"), int(ctx.table[ctx.words.index("salet"),
                                                                                       ctx.words.index(answer)]))
        assert policy.decide(state, "allowed") == same.policy.decide(state, "allowed")
    plain = tmp_path / "plain.json"
    save_strategy(plain, genome, {}, None, P0, ctx.words)
    assert "prior" not in json.loads(plain.read_text()) and read_strategy_file(plain).prior is None
    assert json.loads(plain.read_text())["version"] == st.VERSION == 1
    assert st.FILE_KEYS == {"format", "version", "genome", "provenance", "made_for", "tree", "prior"}


def test_file_policy_plays_the_files_prior_else_the_genomes_and_no_tree(ctx, tmp_path):
    genome = Strategy(steepness=7.0, midpoint=0.3, mix=0.4)
    weights = np.linspace(0.5, 2.0, len(ctx.words))
    stored, plain = tmp_path / "p.json", tmp_path / "g.json"
    save_strategy(stored, genome, {}, {"": "slate"}, P0, ctx.words, StoredPrior(weights, "made here"))
    save_strategy(plain, genome, {}, {"": "slate"}, P0, ctx.words)
    mine = st.file_policy(ctx, read_strategy_file(stored))
    np.testing.assert_array_equal(mine.prior, read_strategy_file(stored).prior.weights)
    assert mine.mix == 0.0 and mine.tree == {}
    own = st.file_policy(ctx, read_strategy_file(plain))
    np.testing.assert_array_equal(own.prior, StrategyPolicy(ctx, genome).prior)
    assert own.mix == 0.4 and own.tree == {}


def test_a_stored_prior_cannot_be_changed_once_read(ctx, tmp_path):
    path = tmp_path / "s.json"
    save_strategy(path, Strategy(), {}, None, P0, ctx.words, StoredPrior(np.ones(len(ctx.words)), "flat"))
    f = read_strategy_file(path)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.prior.about = "changed"
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.prior.weights = np.ones(3)


def test_a_prior_is_stored_only_with_the_lists_it_weighs(ctx, tmp_path):
    with pytest.raises(EvoWordleError, match="needs the game and word lists") as err:
        save_strategy(tmp_path / "s.json", Strategy(), {}, None, None, None, StoredPrior(np.ones(len(ctx.words)), ""))
    assert isinstance(err.value, ValueError) and not (tmp_path / "s.json").exists()
    with pytest.raises(EvoWordleError, match="one weight per allowed word"):
        save_strategy(tmp_path / "s.json", Strategy(), {}, None, P0, ctx.words, StoredPrior(np.ones(5), ""))
    with pytest.raises(EvoWordleError, match="finite and > 0"):
        save_strategy(tmp_path / "s.json", Strategy(), {}, None, P0, ctx.words,
                      StoredPrior(np.zeros(len(ctx.words)), ""))
    assert not (tmp_path / "s.json").exists()


def _with_prior(tmp_path, ctx, block, made_for=True) -> Path:
    path = tmp_path / "s.json"
    save_strategy(path, Strategy(), {}, None, P0 if made_for else None, ctx.words if made_for else None)
    doc = json.loads(path.read_text())
    doc["prior"], doc["version"] = block, 2  # a file with a prior is version 2
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("block, message", [
    ([1.0, 2.0], "must be a JSON object with a list of \"weights\""),
    (None, "must be a JSON object with a list of \"weights\""),  # null is not "no prior"
    ({"about": "x"}, "must be a JSON object with a list of \"weights\""),
    ({"weights": {"a": 1}}, "must be a JSON object with a list of \"weights\""),
    ({"weights": [1.0, 2.0], "about": 5}, "\"about\" must be a string"),
    ({"weights": [1.0, 2.0], "abuot": "x", "junk": [[1]]}, "has unknown key\\(s\\): abuot, junk"),
    ({"weights": [1.0, True]}, "every weight must be a number"),
    ({"weights": [1.0, "2"]}, "every weight must be a number"),
    ({"weights": [1.0, None]}, "every weight must be a number"),
    ({"weights": [1.0, 0]}, "finite and > 0"),
    ({"weights": [1.0, -2.5]}, "finite and > 0"),
    ({"weights": [1.0, 1e400]}, "finite and > 0"),
    ({"weights": [1.0, 10**400]}, "finite and > 0"),  # a whole number too big for a float
    ({"weights": []}, "has no weights"),
])
def test_a_bad_stored_prior_is_refused_in_one_line(ctx, tmp_path, block, message):
    path = _with_prior(tmp_path, ctx, block)
    with pytest.raises(EvoWordleError, match=message) as err:
        read_strategy_file(path)
    assert str(err.value).startswith(f"strategy file {path}: its prior") and "\n" not in str(err.value)


def test_a_stored_prior_needs_made_for_and_its_own_allowed_list(ctx, tmp_path):
    with pytest.raises(EvoWordleError, match="not tied to a word list"):
        read_strategy_file(_with_prior(tmp_path, ctx, {"weights": [1.0, 2.0]}, made_for=False))
    assert st.MAX_PRIOR_WORDS == 200_000
    big = _with_prior(tmp_path, ctx, {"weights": [1.0] * (st.MAX_PRIOR_WORDS + 1)})
    with pytest.raises(EvoWordleError, match=f"has {st.MAX_PRIOR_WORDS + 1} weights, more than {st.MAX_PRIOR_WORDS}"):
        read_strategy_file(big)
    at_cap = _with_prior(tmp_path, ctx, {"weights": [1.0] * st.MAX_PRIOR_WORDS})
    assert len(read_strategy_file(at_cap).prior.weights) == st.MAX_PRIOR_WORDS  # read; it fits no list here
    with pytest.raises(EvoWordleError, match="one weight per allowed word") as err:
        StrategySolver(ctx, P0, strategy=at_cap)
    assert str(err.value).startswith(f"strategy file {at_cap}: its prior: ")  # which file, in a compare of several
    small = Context(words=WordSet(ctx.words.allowed[:40], ctx.words.allowed[:10]))
    path = tmp_path / "other.json"
    save_strategy(path, Strategy(opener="aahed"), {}, None, P0, small.words, StoredPrior(np.ones(40), "small"))
    with pytest.raises(EvoWordleError, match="its prior was made for another allowed list"):
        st.file_prior(ctx, read_strategy_file(path))
    np.testing.assert_array_equal(st.file_prior(small, read_strategy_file(path)), np.ones(40))


# ---------------------------------------------------------------------------------- files


def test_a_strategy_file_is_written_as_documented(tmp_path, ctx):
    s = Strategy(opener="crane", k1=0.5)
    path = tmp_path / "s.json"
    save_strategy(path, s)
    want = {"format": "evo-wordle-strategy", "version": 1, "genome": {**DEFAULTS, "opener": "crane", "k1": 0.5},
            "provenance": {}}
    assert path.read_text() == json.dumps(want, indent=1) + "\n"
    save_strategy(path, s, {"seed": 3}, {}, ANY)  # settings without words, an empty tree: neither stored
    assert json.loads(path.read_text()) == {**want, "provenance": {"seed": 3}}
    save_strategy(path, s, None, None, None, ctx.words)  # words without settings: no made_for either
    assert json.loads(path.read_text()) == want
    save_strategy(path, s, {"seed": 3}, {"": "crane"}, ANY, ctx.words)
    doc = json.loads(path.read_text())
    assert list(doc) == ["format", "version", "genome", "provenance", "made_for", "tree"]
    assert doc["tree"] == {"": "crane"} and doc["made_for"]["candidates"] == "answers"
    assert doc["made_for"]["guess_from"] == "allowed" and doc["made_for"]["allowed_sha256"] == ctx.words.digest
    f = read_strategy_file(path)
    assert f == StrategyFile(str(path), s, {"seed": 3}, {"": "crane"}, doc["made_for"])
    assert load_strategy_file(path) == (s, {"seed": 3}, {"": "crane"})
    assert load_strategy(path) == s


def _write(tmp_path, doc, name="bad.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


GOOD = {"format": "evo-wordle-strategy", "version": 1, "genome": {**DEFAULTS, "opener": "crane"}}


@pytest.mark.parametrize(("doc", "message"), [
    ({**GOOD, "version": 3}, "strategy file {path} has unsupported version 3"),
    ({**GOOD, "version": True}, "strategy file {path} has unsupported version True"),
    ({**GOOD, "version": 2}, "strategy file {path} is version 2 but stores no prior (version 2 is a file with "
                             "a prior)"),
    ({**GOOD, "prior": {"weights": [1.0]}}, "strategy file {path} is version 1 but stores a prior (a file with a "
                                           "prior is version 2)"),
    ({**GOOD, "priors": {"weights": [1.0]}}, "strategy file {path} has unknown key(s): priors"),
    ({**GOOD, "Tree": {}, "notes": ""}, "strategy file {path} has unknown key(s): Tree, notes"),
    ({**GOOD, "version": "1"}, "strategy file {path} has unsupported version '1'"),
    ({"format": "evo-wordle-strategy", "genome": {}}, "strategy file {path} has unsupported version None"),
    ({**GOOD, "format": "other"}, "{path} is not an evo-wordle strategy file (no \"format\": \"evo-wordle-strategy\")"),
    ([GOOD], "{path} is not an evo-wordle strategy file (no \"format\": \"evo-wordle-strategy\")"),
    ({**GOOD, "genome": None}, "strategy file {path}: strategy genome must be a JSON object"),
    ({**GOOD, "genome": {**GOOD["genome"], "zz": 1}}, "strategy file {path}: unknown strategy gene(s): zz"),
    ({**GOOD, "genome": {**GOOD["genome"], "k1": 9}}, "strategy file {path}: strategy gene k1=9 is outside [0.0, 1.5]"),
    ({**GOOD, "genome": {"opener": "crane"}}, "strategy file {path}: strategy genome lacks gene(s): " + BUT_OPENER),
    ({**GOOD, "genome": {k: v for k, v in DEFAULTS.items() if k not in ("w_past", "k2")}},
     "strategy file {path}: strategy genome lacks gene(s): k2, w_past"),
    ({**GOOD, "provenance": []}, "strategy file {path}: provenance must be a JSON object"),
    ({**GOOD, "provenance": None}, "strategy file {path}: provenance must be a JSON object"),
    ({**GOOD, "provenance": "seed 3"}, "strategy file {path}: provenance must be a JSON object"),
    ({**GOOD, "provenance": 3}, "strategy file {path}: provenance must be a JSON object"),
    ({**GOOD, "tree": ["salet"]}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "tree": {"": 5}}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "tree": "salet"}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "tree": []}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "tree": None}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "tree": ""}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "tree": False}, "strategy file {path}: tree must map history strings to words"),
    ({**GOOD, "made_for": "P1"}, "strategy file {path}: \"made_for\" must be a JSON object"),
    ({**GOOD, "made_for": {}}, "strategy file {path}: \"made_for\" lacks candidates, guess_from, hard, daily, "
                               "max_guesses, boards"),
    ({"format": "evo-wordle-params", "solver": "summed-entropy", "made_for": {"boards": 4}},
     "{path} holds parameters for the summed-entropy solver (4 board(s)), not a one-board strategy: replay it "
     "with bench or compare --strategy"),
    ({"format": "evo-wordle-params", "solver": "x", "made_for": {}},
     "{path} holds parameters for the x solver (1 board(s)), not a one-board strategy: replay it with bench or "
     "compare --strategy"),
    ({"format": "evo-wordle-params", "solver": "x", "made_for": [2]},
     "{path} holds parameters for the x solver (1 board(s)), not a one-board strategy: replay it with bench or "
     "compare --strategy"),
    ({"format": "evo-wordle-params", "solver": "x"},
     "{path} holds parameters for the x solver (1 board(s)), not a one-board strategy: replay it with bench or "
     "compare --strategy"),
])
def test_an_unusable_strategy_file_is_a_one_line_error(tmp_path, doc, message):
    path = _write(tmp_path, doc)
    with pytest.raises(EvoWordleError) as err:
        read_strategy_file(path)
    assert str(err.value) == message.format(path=path)


def test_what_a_strategy_file_may_leave_out(tmp_path):
    f = read_strategy_file(_write(tmp_path, GOOD))
    assert f.strategy == Strategy(opener="crane") and f.tree == {} and f.provenance == {} and f.made_for is None
    for prov in ("x", [], ["a"], 3, None, False):  # provenance may be left out, but not be anything but an object
        with pytest.raises(EvoWordleError, match="^strategy file .*: provenance must be a JSON object$"):
            read_strategy_file(_write(tmp_path, {**GOOD, "provenance": prov}))
    assert read_strategy_file(_write(tmp_path, {**GOOD, "provenance": {}})).provenance == {}
    assert read_strategy_file(_write(tmp_path, {**GOOD, "provenance": {"a": 1}})).provenance == {"a": 1}
    # a tree may be left out or empty ({}), but [] or null is a malformed tree (refused above), not "no tree"
    assert read_strategy_file(_write(tmp_path, {**GOOD, "tree": {}})).tree == {}


def test_a_missing_file_names_the_shipped_strategies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = ", ".join(shipped_strategies())
    with pytest.raises(EvoWordleError) as err:
        read_strategy_file("nosuch")
    assert str(err.value) == f"strategy file nosuch does not exist (shipped strategies: {names})"
    (tmp_path / "dangling").symlink_to(tmp_path / "gone.json")  # a link to nothing: the reader's own error
    with pytest.raises(EvoWordleError) as err:
        read_strategy_file("dangling")
    assert "does not exist (shipped strategies" not in str(err.value)


def test_shipped_strategies_are_the_packaged_files_but_logs():
    folder = ROOT / "data" / "strategies"
    want = sorted(p.name[: -len(".json")] for p in folder.iterdir()
                  if p.name.endswith(".json") and not p.name.endswith(".log.json"))
    assert shipped_strategies() == want
    assert {"p0-evolved", "p0-strict", "answers-known-salet"} <= set(want) and "p0-evolved.log" not in want


def test_a_name_is_a_path_first_then_a_shipped_strategy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shipped = (ROOT / "data" / "strategies" / "p0-evolved.json").read_bytes()
    for name in ("p0-evolved", "p0-evolved.json", Path("p0-evolved")):
        path = resolve_strategy_path(name)
        assert path.name == "p0-evolved.json" and path.read_bytes() == shipped, name
    assert read_strategy_file("p0-evolved").strategy == Strategy.from_dict(json.loads(shipped)["genome"])
    assert resolve_strategy_path("nosuch") == Path("nosuch")
    assert resolve_strategy_path("nosuch.json") == Path("nosuch.json")
    assert resolve_strategy_path("sub/p0-evolved") == Path("sub/p0-evolved")  # a folder given: never shipped
    assert resolve_strategy_path("p0-evolved.tree") == Path("p0-evolved.tree")
    (tmp_path / "p0-evolved.json").write_text("{}")  # a file of that name here wins
    assert resolve_strategy_path("p0-evolved.json") == Path("p0-evolved.json")


# --------------------------------------------------------------------------- decision trees


def test_history_keys_spell_each_guess_and_its_digits(ctx):
    history = ((ctx.words.index("salet"), 2 * 81 + 9), (ctx.words.index("crony"), 242))
    assert history_key(ctx, ()) == ""
    assert history_key(ctx, history[:1]) == "salet:20100"
    assert history_key(ctx, history) == "salet:20100,crony:22222"
    assert parse_history_key(ctx, "salet:20100,crony:22222") == history
    assert parse_history_key(ctx, "") == ()
    assert parse_history_key(ctx, "SALET:GBYBB") == ((ctx.words.index("salet"), 2 * 81 + 9),)
    for bad, message in [("salet", "bad tree key 'salet'"), ("salet:20100,crony", "bad tree key 'salet:20100,crony'")]:
        with pytest.raises(EvoWordleError) as err:
            parse_history_key(ctx, bad)
        assert str(err.value) == message
    with pytest.raises(EvoWordleError, match="cannot read pattern"):
        parse_history_key(ctx, "salet:2010q")
    with pytest.raises(EvoWordleError, match="qqqqq"):
        parse_history_key(ctx, "qqqqq:20100")


def test_check_tree_maps_keys_to_words_and_refuses_impossible_or_illegal_moves(ctx):
    tree = {"": "salet", "salet:00000": "crony", "salet:00000,crony:22222": "crony"}
    assert check_tree(ctx, ANY, tree, "here") == dict(zip(tree, idx(ctx, "salet", "crony", "crony")))
    # AAHED is allowed but no NYT answer: its own all-green key happens in P0 only
    key = {"aahed:22222": "aahed"}
    assert check_tree(ctx, P0, key, "here") == {"aahed:22222": ctx.words.index("aahed")}
    with pytest.raises(EvoWordleError) as err:
        check_tree(ctx, ANY, key, "here")
    assert str(err.value) == ("here: tree entry 'aahed:22222' cannot happen: no possible answer gives that "
                              "feedback")
    with pytest.raises(EvoWordleError) as err:
        check_tree(ctx, ANY, {"salet:00000,crony:22222": "crony", "salet:22222,crony:00000": "crony"}, "here")
    assert "'salet:22222,crony:00000' cannot happen" in str(err.value)
    with pytest.raises(EvoWordleError) as err:
        check_tree(ctx, HARD, {"salet:20000": "crony"}, "t")  # S revealed green, not reused
    assert str(err.value) == "t: the tree is illegal in this game: CRONY breaks hard mode (a revealed hint is not " \
                             "reused) after salet:20000"
    with pytest.raises(EvoWordleError) as err:
        check_tree(ctx, ONLY, {"": "aahed"}, "t")
    assert str(err.value) == ("t: the tree is illegal in this game: AAHED cannot be the answer here (the game "
                              "guesses only possible words) after the start")
    for bad in ({"salet:0000": "crony"}, {"": "qqqqq"}, {"qqqqq:00000": "salet"}):
        with pytest.raises(EvoWordleError, match=r"^t: tree entry '.*': "):
            check_tree(ctx, ANY, bad, "t")


def _file(ctx, tmp_path, settings, tree, words=True) -> StrategyFile:
    path = tmp_path / "t.json"
    save_strategy(path, Strategy(), {}, tree, settings if words else None, ctx.words if words else None)
    return read_strategy_file(path)


def test_a_tree_is_used_only_in_the_game_it_was_made_for(ctx, tmp_path):
    tree = {"": "crane"}
    f = _file(ctx, tmp_path, ANY, tree)
    assert usable_tree(ctx, ANY, f) == tree
    assert usable_tree(ctx, ANY.with_(max_guesses=6, daily=True), f) == tree  # not a key the tree depends on
    assert TREE_KEYS == ("candidates", "guess_from", "hard")
    for change in ({"candidates": "allowed"}, {"guess_from": "candidates"}, {"hard": True}):
        assert usable_tree(ctx, ANY.with_(**change), f) == {}, change
    assert usable_tree(ctx, P0, _file(ctx, tmp_path, ANY, tree, words=False)) == tree  # an old file: kept
    assert usable_tree(ctx, ANY, _file(ctx, tmp_path, ANY, {})) == {}
    other = Context(answers="original")
    with pytest.raises(EvoWordleError) as err:
        usable_tree(other, ANY, f)
    assert str(err.value) == (f"strategy file {f.path}: its decision tree cannot be replayed: the answer list "
                              "(original) differs from the one it was made for (nyt)")


# ---------------------------------------------------------------------- bits of each guess


def test_the_transposed_table_is_the_table_turned_and_kept(ctx):
    tt = transposed_table(ctx)
    assert tt.flags.c_contiguous and tt.shape == ctx.table.shape
    for g in (0, 17, 4000, len(ctx.words) - 1):
        assert np.array_equal(tt[:, g], ctx.table[g])
    assert transposed_table(ctx) is tt


def _weights(rng, n):
    w = rng.random(n) + 0.05
    return w / w.sum()


@pytest.mark.parametrize("n", [1, 2, 3, 37, 128, 159, 160, 161, 300])
def test_weighted_entropies_are_the_bits_of_each_guess(ctx, n):
    rng = np.random.default_rng(n)
    cand = np.sort(rng.choice(len(ctx.words), n, replace=False))
    w = _weights(rng, n)
    guesses = np.sort(rng.choice(len(ctx.words), 40, replace=False))
    guesses[-1] = len(ctx.words) - 1
    words = ctx.words.allowed
    want = [plain_bits([reference_pattern(words[g], words[c]) for c in cand], w) for g in guesses]
    np.testing.assert_allclose(weighted_entropies(ctx, guesses, cand, w), want, rtol=1e-12, atol=1e-12)
    every = weighted_entropies(ctx, None, cand, w)
    assert every.shape == (len(ctx.words),)
    np.testing.assert_allclose(every[guesses], want, rtol=1e-12, atol=1e-12)
    mass = pattern_mass(ctx, guesses, cand, w)
    assert mass.shape == (40 * 243,)
    np.testing.assert_allclose(mass_entropy(mass, 243), want, rtol=1e-12, atol=1e-12)


def test_no_guesses_give_no_bits(ctx):
    for n in (5, 200):
        cand = ctx.words.answer_index[:n]
        none = np.array([], dtype=np.int64)
        assert weighted_entropies(ctx, none, cand, np.full(n, 1 / n)).shape == (0,)
        assert pattern_mass(ctx, none, cand, np.full(n, 1 / n)).shape == (0,)


def test_pattern_masses_sum_the_weights_per_guess_and_pattern(ctx):
    cand = np.array(idx(ctx, "cigar", "rebut", "sissy", "humph"))
    w = np.array([0.1, 0.2, 0.3, 0.4])
    guesses = np.array(idx(ctx, "salet", "zymic"))
    mass = pattern_mass(ctx, guesses, cand, w).reshape(2, 243)
    words = ctx.words.allowed
    for row, g in zip(mass, guesses):
        want = np.zeros(243)
        for c, wc in zip(cand, w):
            want[reference_pattern(words[g], words[c])] += wc
        np.testing.assert_allclose(row, want, rtol=1e-15, atol=0)
    every = pattern_mass(ctx, None, cand, w)
    assert every.shape == (len(ctx.words) * 243,)
    np.testing.assert_allclose(every.reshape(-1, 243)[guesses], mass, rtol=1e-15, atol=0)


def test_mass_entropy_by_hand():
    # three guesses over 3 patterns: halves, one certain pattern, quarter-quarter-half
    mass = np.array([0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.25, 0.25, 0.5])
    assert mass_entropy(mass, 3).tolist() == [1.0, 0.0, 1.5]
    assert mass_entropy(np.array([0.5, 0.5, 0.0, 0.0, 0.0, 0.0]), 3).tolist() == [1.0, 0.0]  # a guess of no mass


@pytest.mark.parametrize(("block", "n_guesses", "rows"), [
    (10, 3, [3, 3, 2]), (10, 1, [8]), (10, 2, [5, 3]), (2, 3, [1] * 8), (24, 3, [8]), (10, 0, [0])])
def test_pattern_mass_reads_at_most_block_cells_per_pass(ctx, monkeypatch, block, n_guesses, rows):
    """max(1, BLOCK_CELLS // guesses) candidate rows per pass (bounds the temporary arrays)."""
    cand = np.array(sorted(idx(ctx, "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade")))
    w = np.linspace(1, 2, 8)
    w /= w.sum()
    guesses = np.array(idx(ctx, "salet", "crony", "zymic")[:n_guesses], dtype=np.int64)
    want = pattern_mass(ctx, guesses, cand, w)
    seen = []
    real = np.bincount

    def spy(x, weights=None, minlength=0):
        seen.append(len(x) // max(n_guesses, 1))
        return real(x, weights=weights, minlength=minlength)

    monkeypatch.setattr(st, "BLOCK_CELLS", block)
    monkeypatch.setattr(np, "bincount", spy)
    got = pattern_mass(ctx, guesses, cand, w)
    monkeypatch.undo()
    assert seen == rows
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-17)


@pytest.mark.parametrize("length", [6, 7])
def test_weighted_entropies_of_longer_words_keep_every_pattern_apart(length):
    """Words of 6 letters have 729 patterns and of 7 letters 2,187: codes from 256 up must not
    share a sorting key with the code 256 below them (the sorting path packs codes and
    candidate positions into one integer)."""
    words = ["".join(t) for t in itertools.product("abc" if length == 6 else "ab", repeat=length)]
    rng = np.random.default_rng(length)
    words = sorted(rng.choice(words, 120, replace=False).tolist())
    tiny = Context(words=WordSet(words, words, label=f"test-strategy-{length}"))
    cand = np.arange(0, 120, 1, dtype=np.int64)
    w = _weights(rng, 120)
    guesses = np.arange(0, 120, 3, dtype=np.int64)
    want = [plain_bits([reference_pattern(words[g], words[c]) for c in cand], w) for g in guesses]
    assert max(reference_pattern(words[g], words[c]) for g in guesses for c in cand) > 256
    np.testing.assert_allclose(weighted_entropies(tiny, guesses, cand, w), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(weighted_entropies(tiny, None, cand, w)[guesses], want, rtol=1e-12, atol=1e-12)


# -------------------------------------------------------------------------------- the pool


def test_binary_entropy_is_kept_off_zero_and_one():
    low = -(1e-12 * math.log2(1e-12) + (1 - 1e-12) * math.log2(1 - 1e-12))
    q = 1 - 1e-12
    high = -(q * math.log2(q) + (1 - q) * math.log2(1 - q))
    got = st._h2(np.array([0.0, 1e-15, 0.5, 0.25, 1.0, 1 - 1e-15]))
    np.testing.assert_allclose(got, [low, low, 1.0, 0.8112781244591328, high, high], rtol=1e-9, atol=0)
    assert got[0] > 0


@pytest.mark.parametrize(("moves", "size"), [
    ((("salet", "cigar"),), 50), ((("salet", "cigar"),), 300), ((("salet", "humph"),), 300),
    ((("salet", "rebut"), ("crony", "rebut")), 30), ((("salet", "daddy"),), 90)])
def test_the_explore_pool_is_the_best_words_by_letter_entropy_and_the_likeliest_candidates(ctx, moves, size):
    state = after(ctx, ANY, *moves)
    s = Strategy(steepness=15.0, midpoint=0.4, w_plural=0.3)
    w = plain_weights(ctx, s, state.candidates)
    got = explore_pool(ctx, state.candidates, w, size)
    assert np.array_equal(got, plain_pool(ctx, state.candidates, w, size))


def test_a_pool_as_large_as_a_tiny_list_holds_every_word():
    words = ["crane", "slate", "pious", "zesty", "bumpy", "fjord"]
    tiny = Context(words=WordSet(words, words[:4], label="test-strategy-pool"))
    cand = np.sort(tiny.words.answer_index)
    w = np.full(4, 0.25)
    for size in (6, 7, 50):
        assert explore_pool(tiny, cand, w, size).tolist() == list(range(6)), size
    for size in (4, 5):
        assert explore_pool(tiny, cand, w, size).tolist() == plain_pool(tiny, cand, w, size).tolist(), size


def test_the_pool_keeps_every_candidate_up_to_its_size(ctx):
    state = after(ctx, ANY, ("salet", "rebut"))
    n = len(state.candidates)
    w = plain_weights(ctx, Strategy(), state.candidates)
    got = explore_pool(ctx, state.candidates, w, n)  # exactly as many candidates as the pool's size
    assert set(state.candidates.tolist()) <= set(got.tolist())
    assert np.array_equal(got, plain_pool(ctx, state.candidates, w, n))


def test_answer_chance_is_a_guesss_weight_as_a_candidate(ctx):
    policy = StrategyPolicy(ctx, Strategy())
    cand = np.array([10, 20, 30, 40])
    w = np.array([0.1, 0.2, 0.3, 0.4])
    guesses = np.array([0, 10, 15, 20, 30, 39, 40, 41, 9000])
    assert policy._answer_chance(guesses, cand, w).tolist() == [0.0, 0.1, 0.0, 0.2, 0.3, 0.0, 0.4, 0.0, 0.0]


# ----------------------------------------------------------------------- the cost model


GENOMES = [
    Strategy(),
    Strategy(steepness=0.0, k1=1.5, k2=0.0, bonus=0.0, switch_eff=1.0, switch_turn=7.0),
    Strategy(steepness=25.0, midpoint=0.8, mix=0.3, k1=0.1, k2=2.0, bonus=2.0, w_freq=0.7, switch_eff=1.0,
             switch_turn=7.0, w_plural=0.05, w_past=0.3, w_proper=0.2, w_unlisted=0.01),
    Strategy(steepness=40.0, midpoint=1.0, k1=0.7, k2=1.1, bonus=1.7, w_freq=1.0, switch_eff=50.0),
]
STATES = [(ANY, (("salet", "cigar"),)), (ANY, (("salet", "cigar"), ("crony", "cigar"))),
          (P0, (("salet", "rebut"),)), (ANY, (("salet", "humph"),)), (ANY, (("crane", "shake"),))]


@pytest.mark.parametrize("genome", range(len(GENOMES)))
@pytest.mark.parametrize("where", range(len(STATES)))
def test_every_guess_is_scored_as_the_cost_model_says(ctx, genome, where):
    s = GENOMES[genome]
    settings, moves = STATES[where]
    state = after(ctx, settings, *moves)
    policy = StrategyPolicy(ctx, s)
    w = plain_weights(ctx, s, state.candidates)
    guesses, cost = policy.costs(state, "allowed")
    check_guesses(ctx, s, state, "allowed", guesses)
    want = plain_costs(ctx, s, state.candidates, w, guesses)
    np.testing.assert_allclose(cost, want, rtol=0, atol=1e-11)
    assert policy.decide(state, "allowed") in guesses[want <= want.min() + 1e-9]
    # the same genome among candidates only
    guesses, cost = policy.costs(state, "candidates")
    assert np.array_equal(guesses, state.candidates)
    np.testing.assert_allclose(cost, plain_costs(ctx, s, state.candidates, w, guesses), rtol=0, atol=1e-11)


def test_a_likely_enough_candidate_costs_exactly_one_guess(ctx):
    """bonus·p ≥ 1 caps at 1: the guess is the answer for sure as far as the cost goes."""
    s = Strategy(steepness=40.0, midpoint=1.0, bonus=2.0, k1=1.0, k2=1.0)
    state = after(ctx, ANY, ("salet", "cigar"), ("crony", "cigar"))
    policy = StrategyPolicy(ctx, s)
    w = plain_weights(ctx, s, state.candidates)
    top = int(np.argmax(w))
    assert 0.5 < w[top] and s.bonus * w[top] > 1.0
    guesses, cost = policy.costs(state, "candidates")
    assert cost[top] == 1.0
    others = np.delete(cost, top)
    assert (others > 1.0).all()


def test_without_a_pool_every_allowed_word_is_scored(ctx):
    s = Strategy(switch_eff=1.0, k1=0.4, w_freq=0.3)
    state = after(ctx, ANY, ("salet", "rebut"), ("crony", "rebut"))
    assert len(state.candidates) > 2
    policy = StrategyPolicy(ctx, s, pool=0)
    guesses, cost = policy.costs(state, "allowed")
    assert np.array_equal(guesses, ctx.all_words)
    w = plain_weights(ctx, s, state.candidates)
    np.testing.assert_allclose(cost, plain_costs(ctx, s, state.candidates, w, guesses), rtol=0, atol=1e-11)
    hard = after(ctx, HARD, ("salet", "rebut"), ("crony", "rebut"))
    guesses, _ = policy.costs(hard, "allowed")
    check_guesses(ctx, s, hard, "allowed", guesses, pool=0)
    assert len(guesses) < len(ctx.words)


def test_hard_mode_explores_only_legal_words_unless_hard_candidates(ctx):
    state = after(ctx, HARD, ("salet", "cigar"))
    s = Strategy(switch_eff=1.0)
    guesses, _ = StrategyPolicy(ctx, s).costs(state, "allowed")
    free = explore_pool(ctx, state.candidates, plain_weights(ctx, s, state.candidates), DEFAULT_POOL)
    assert len(guesses) < len(free) and not set(state.candidates.tolist()) >= set(guesses.tolist())
    check_guesses(ctx, s, state, "allowed", guesses)
    only = Strategy(switch_eff=1.0, hard_candidates=True)
    assert np.array_equal(StrategyPolicy(ctx, only).costs(state, "allowed")[0], state.candidates)
    soft = after(ctx, ANY, ("salet", "cigar"))
    assert np.array_equal(StrategyPolicy(ctx, only).costs(soft, "allowed")[0], free)  # only in hard mode


def _eight(ctx) -> GameState:
    """A state of exactly 8 candidates (P1 after SALET, then another guess)."""
    for answer in ctx.words.answers[:400]:
        for second in ("crony", "brick", "pound"):
            state = after(ctx, ANY, ("salet", answer), (second, answer))
            if len(state.candidates) == 8:
                return state
    raise AssertionError("no state of 8 candidates")


@pytest.fixture(scope="module")
def eight(ctx):
    return _eight(ctx)


def test_the_switch_to_candidates_at_switch_eff_effective_candidates(ctx, eight):
    """Uniform weights over 8 candidates: 2^H = 8 exactly; candidates only from switch_eff 8."""
    for eff, only in ((8.0, True), (7.99, False), (8.01, True), (6.0, False), (2.0, False), (50.0, True)):
        s = Strategy(steepness=0.0, switch_eff=eff, switch_turn=7.0)
        guesses, _ = StrategyPolicy(ctx, s).costs(eight, "allowed")
        assert np.array_equal(guesses, eight.candidates) == only, eff
        check_guesses(ctx, s, eight, "allowed", guesses)


def test_the_switch_to_candidates_at_switch_turn(ctx, eight):
    """Two guesses made: the next is the third, so candidates only once round(switch_turn) ≤ 3."""
    assert eight.turn == 2
    for turn, only in ((3.0, True), (4.0, False), (2.0, True), (3.4, True), (2.5, True), (3.5, False),
                       (1.0, True), (7.0, False)):
        s = Strategy(switch_eff=1.0, switch_turn=turn)
        guesses, _ = StrategyPolicy(ctx, s).costs(eight, "allowed")
        assert np.array_equal(guesses, eight.candidates) == only, turn


def test_guess_from_candidates_always_keeps_to_candidates(ctx, eight):
    s = Strategy(switch_eff=1.0, switch_turn=7.0)
    assert np.array_equal(StrategyPolicy(ctx, s).costs(eight, "candidates")[0], eight.candidates)
    assert not np.array_equal(StrategyPolicy(ctx, s).costs(eight, "allowed")[0], eight.candidates)


# ------------------------------------------------------------------- decisions and the memo


def test_the_first_move_is_the_opener_or_the_trees(ctx):
    start = GameState.start(ctx, ANY)
    assert StrategyPolicy(ctx, Strategy(opener="crane")).decide(start, "allowed") == ctx.words.index("crane")
    assert StrategyPolicy(ctx, Strategy(opener="CRANE")).decide(start) == ctx.words.index("crane")
    tree = {"": "slate", "slate:00000": ctx.words.index("crony")}
    policy = StrategyPolicy(ctx, Strategy(opener="crane"), tree)
    assert policy.tree == {"": ctx.words.index("slate"), "slate:00000": ctx.words.index("crony")}
    assert policy.decide(start, "allowed") == ctx.words.index("slate")
    later = StrategyPolicy(ctx, Strategy(opener="crane"), {"slate:00000": "crony"})
    assert later.decide(start, "allowed") == ctx.words.index("crane")  # no move stored for the start
    grey = after(ctx, ANY, ("slate", "humph"))
    assert later.decide(grey, "allowed") == ctx.words.index("crony")
    other = after(ctx, ANY, ("slate", "cigar"))
    want = StrategyPolicy(ctx, Strategy(opener="crane")).decide(other, "allowed")
    assert later.decide(other, "allowed") == want != ctx.words.index("crane")  # off the tree: the genome


def test_one_or_two_candidates_are_answered_without_scoring(ctx, monkeypatch):
    calls = []
    real = st.weighted_entropies
    monkeypatch.setattr(st, "weighted_entropies", lambda *a: calls.append(1) or real(*a))
    policy = StrategyPolicy(ctx, Strategy(bonus=0.0, switch_eff=1.0))
    one = after(ctx, ANY, ("salet", "cigar"), ("crony", "cigar"), ("cigar", "cigar"))
    assert len(one.candidates) == 1 and policy.decide(one, "allowed") == ctx.words.index("cigar")
    for answer in ctx.words.answers:
        two = after(ctx, ANY, ("salet", answer), ("crony", answer))
        if len(two.candidates) == 2:
            w = plain_weights(ctx, policy.strategy, two.candidates)
            if w[1] > w[0] + 1e-6:
                break
    else:
        raise AssertionError("no two-candidate state with the second likelier")
    assert policy.decide(two, "allowed") == int(two.candidates[1])  # the likelier one
    assert policy.decide(two, "candidates") == int(two.candidates[1])
    assert calls == []
    # scored, the pair would be a tie at bonus 0 (each splits the other off): the first would win
    guesses, cost = policy.costs(two, "candidates")
    assert cost[0] == cost[1]


def test_decisions_are_memoised_per_state_and_guess_from(ctx, monkeypatch):
    calls = []
    real = st.weighted_entropies
    monkeypatch.setattr(st, "weighted_entropies", lambda *a: calls.append(1) or real(*a))
    policy = StrategyPolicy(ctx, Strategy(switch_eff=1.0))
    state = after(ctx, ANY, ("salet", "cigar"))
    explore = policy.decide(state, "allowed")
    assert calls == [1] and policy.decide(state, "allowed") == explore and calls == [1]
    again = after(ctx, ANY, ("salet", "cigar"))  # an equal state, another object
    assert policy.decide(again, "allowed") == explore and calls == [1]
    strict = policy.decide(state, "candidates")
    assert calls == [1, 1] and strict in state.candidates and explore not in state.candidates
    assert policy.decide(state) == explore and calls == [1, 1]  # guess_from defaults to allowed


# -------------------------------------------------------------------------------- the solver


def test_the_solver_plays_a_genome_a_file_or_the_default(ctx, tmp_path):
    start = GameState.start(ctx, ANY)
    default = StrategySolver(ctx, ANY)
    assert default.genome == Strategy() and default.source is None and default.policy.pool == 300
    assert default.choose(start) == ctx.words.index("salet") and default.opener is None
    s = Strategy(opener="crane", switch_eff=1.0)
    solver = StrategySolver(ctx, ANY, strategy=s, pool=40)
    assert solver.policy.pool == 40 and solver.choose(start) == ctx.words.index("crane")
    state = after(ctx, ANY, ("crane", "cigar"))
    assert solver.pick(state) == solver.choose(state) == StrategyPolicy(ctx, s, pool=40).decide(state, "allowed")
    assert StrategySolver(ctx, ONLY, strategy=s).choose(state) in state.candidates
    assert solver.describe() == {"solver": "strategy", "opener": "crane", "strategy": None, "genome": s.as_dict()}
    path = tmp_path / "s.json"
    save_strategy(path, s, {}, {"": "slate"}, ANY, ctx.words)
    from_file = StrategySolver(ctx, ANY, strategy=path)
    assert from_file.source == str(path) and from_file.genome == s
    assert from_file.choose(start) == ctx.words.index("slate")  # the file's tree
    assert from_file.describe()["strategy"] == str(path)
    assert StrategySolver(ctx, P0, strategy=path).choose(start) == ctx.words.index("crane")  # not its game
    assert StrategySolver(ctx, ANY, strategy=path, opener="slate").choose(start) == ctx.words.index("slate")
    trace = StrategySolver(ctx, ANY, strategy=path, opener="trace")
    assert trace.choose(start) == ctx.words.index("trace") and trace.genome == Strategy.from_dict(
        {**s.as_dict(), "opener": "trace"})
    given = StrategySolver(ctx, ANY, strategy=s, tree={"": "slate"})
    assert given.choose(start) == ctx.words.index("slate")
    assert StrategySolver(ctx, ANY, strategy=s, tree={"": "slate"}, opener="trace").choose(start) == \
        ctx.words.index("trace")
    assert StrategySolver(ctx, ANY, strategy=s, tree={"": "trace"}, opener="trace").policy.tree == {
        "": ctx.words.index("trace")}


def test_the_solver_refuses_a_bad_opener_or_tree(ctx, tmp_path):
    path = tmp_path / "q.json"
    save_strategy(path, Strategy(opener="qqqqq"))
    with pytest.raises(EvoWordleError) as err:
        StrategySolver(ctx, ANY, strategy=path)
    assert str(err.value) == f"strategy file {path}: its opener 'qqqqq' is not an allowed word of this list"
    assert StrategySolver(ctx, ANY, strategy=path, opener="crane").genome.opener == "crane"
    for bad in (5, b"crane"):
        with pytest.raises(EvoWordleError):
            StrategySolver(ctx, ANY, opener=bad)
    with pytest.raises(EvoWordleError) as err:
        StrategySolver(ctx, ONLY, strategy=Strategy(), tree={"": "aahed"})
    assert str(err.value).startswith("the tree: the tree is illegal in this game: AAHED")
    good = tmp_path / "g.json"
    save_strategy(good, Strategy(), {}, {"": "aahed"})  # an old file (no made_for): its tree is checked
    with pytest.raises(EvoWordleError) as err:
        StrategySolver(ctx, ONLY, strategy=good)
    assert str(err.value).startswith(f"strategy file {good}: the tree is illegal in this game: AAHED")


def test_the_strategy_option_selects_the_solver_unless_another_is_named():
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--solver", default="greedy")
    StrategySolver.add_options(parser)
    assert vars(parser.parse_args(["--strategy", "x.json"])) == {"solver": "strategy", "strategy": "x.json"}
    assert vars(parser.parse_args(["--solver", "ga", "--strategy", "x.json"]))["solver"] == "ga"
    assert vars(parser.parse_args(["--strategy", "x.json", "--solver", "ga"]))["solver"] == "ga"
    assert vars(parser.parse_args([])) == {"solver": "greedy", "strategy": None}
    bare = argparse.ArgumentParser()
    StrategySolver.add_options(bare)
    assert vars(bare.parse_args(["--strategy", "x"])) == {"strategy": "x"}
    none = argparse.ArgumentParser()
    none.add_argument("--solver", default=None)
    StrategySolver.add_options(none)
    assert vars(none.parse_args(["--strategy", "x"]))["solver"] == "strategy"
    assert StrategySolver.options_from_args(argparse.Namespace(strategy="x")) == {"strategy": "x"}
    assert StrategySolver.options_from_args(argparse.Namespace(strategy=None)) == {}
    assert StrategySolver.options_from_args(argparse.Namespace()) == {}
