"""The inflection genes (plural and past-tense prior multipliers), their log-scale mutation, and
the plain-words description of a genome under the settings it plays in."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import GENE_NAMES, EvolveConfig, MetaGA, to_individual, to_strategy
from evo_wordle.evolve.strategy import (
    LOG_GENES,
    MULTIPLIERS,
    REAL_GENES,
    Strategy,
    StrategyPolicy,
    inflection_weights,
    prior_multipliers,
    read_strategy_file,
    save_strategy,
)
from evo_wordle.frequency import priority_paper
from evo_wordle.game import Settings
from evo_wordle.lexicon import word_classes


def test_inflection_weights_follow_the_word_endings():
    words = ["cats", "glass", "focus", "basis", "baked", "speed", "crane", "shoes", "sized", "s"]
    got = inflection_weights(words, 0.1, 0.01)
    assert got.tolist() == [0.1, 1.0, 1.0, 1.0, 0.01, 0.01, 1.0, 0.1, 0.01, 0.1]


def test_the_dictionary_tells_names_and_unlisted_words():
    proper, unlisted = word_classes(["crane", "kevin", "zzzzq", "texas", "aargh", "cats"])
    assert proper.tolist() == [False, True, False, True, False, False]
    assert unlisted.tolist() == [False, False, True, False, True, False]


def test_prior_multipliers_multiply_every_class_a_word_is_in():
    words = ["crane", "kevin", "zzzzq", "zzzzs", "texas", "baked"]
    got = prior_multipliers(words, Strategy(w_plural=0.5, w_past=0.25, w_proper=0.1, w_unlisted=0.01))
    np.testing.assert_allclose(got, [1.0, 0.1, 0.01, 0.01 * 0.5, 0.1 * 0.5, 0.25])
    np.testing.assert_array_equal(prior_multipliers(words, Strategy()), np.ones(6))


def test_default_genes_leave_the_prior_alone(ctx):
    policy = StrategyPolicy(ctx, Strategy())
    np.testing.assert_array_equal(policy.prior, priority_paper(ctx.frequencies, 10.0, 0.5))


def test_multipliers_scale_each_candidates_odds(ctx):
    words = ctx.words.allowed
    plural = next(i for i, w in enumerate(words) if w.endswith("s") and not w.endswith(("ss", "us", "is")))
    past = next(i for i, w in enumerate(words) if w.endswith("ed"))
    plain = ctx.words.index("crane")
    cand = np.array(sorted([plural, past, plain]))
    base = StrategyPolicy(ctx, Strategy()).weights(cand)
    damped = StrategyPolicy(ctx, Strategy(w_plural=0.1, w_past=0.01)).weights(cand)
    at = {int(c): k for k, c in enumerate(cand)}
    # odds against the plain word shrink by exactly the multiplier, and the weights still sum to 1
    assert damped[at[plural]] / damped[at[plain]] == pytest.approx(0.1 * base[at[plural]] / base[at[plain]])
    assert damped[at[past]] / damped[at[plain]] == pytest.approx(0.01 * base[at[past]] / base[at[plain]])
    assert damped.sum() == pytest.approx(1.0)


def test_candidates_that_are_all_plurals_keep_their_relative_weights(ctx):
    words = ctx.words.allowed
    plurals = np.array([i for i, w in enumerate(words) if w.endswith("s") and not w.endswith(("ss", "us", "is"))][:50])
    base = StrategyPolicy(ctx, Strategy()).weights(plurals)
    damped = StrategyPolicy(ctx, Strategy(w_plural=0.001)).weights(plurals)
    np.testing.assert_allclose(damped, base, rtol=1e-12)


@pytest.mark.parametrize("value", [0.0, 0.0009, 1.5, float("nan")])
def test_inflection_genes_outside_their_bounds_are_refused(value):
    for name in MULTIPLIERS:
        with pytest.raises(EvoWordleError, match=name):
            Strategy(**{name: value})


def test_inflection_genes_accept_their_bounds():
    assert Strategy(w_plural=0.001, w_past=1.0).w_plural == 0.001
    assert {REAL_GENES[name] for name in MULTIPLIERS} == {(0.001, 1.0)}
    assert LOG_GENES == set(MULTIPLIERS) == {"w_plural", "w_past", "w_proper", "w_unlisted"}


def test_a_file_without_the_new_genes_is_refused_naming_them(tmp_path, ctx):
    """A file from before the multipliers is not read with today's defaults: every gene must be
    written out (the shipped ones are: test_every_shipped_strategy_file_gives_every_gene)."""
    path = tmp_path / "old.json"
    save_strategy(path, Strategy(opener="crane"), {})
    doc = json.loads(path.read_text())
    for name in MULTIPLIERS:
        del doc["genome"][name]
    path.write_text(json.dumps(doc))
    with pytest.raises(EvoWordleError) as err:
        read_strategy_file(path)
    assert str(err.value) == (f"strategy file {path}: strategy genome lacks gene(s): "
                              "w_plural, w_past, w_proper, w_unlisted")


def test_genes_survive_the_individual_round_trip():
    s = Strategy(w_plural=0.02, w_past=0.3)
    ind = to_individual(s)
    assert GENE_NAMES.index("w_plural") < GENE_NAMES.index("hard_candidates")
    assert to_strategy(ind) == s


def _mutated(ctx, start: float, sigma: float, n: int = 1500) -> dict[str, np.ndarray]:
    cfg = EvolveConfig(settings=Settings(candidates="answers", guess_from="allowed"), train_size=20,
                       holdout_size=20, mu=2, lambda_=2, generations=0, seed=5, indpb=1.0, sigma=sigma)
    ga = MetaGA(ctx, cfg)
    out = {name: [] for name in ("w_plural", "w_past", "k1")}
    for _ in range(n):
        ind = to_individual(Strategy(w_plural=start, w_past=start, k1=0.75))
        (ind,) = ga.mutate(ind)
        for name in out:
            out[name].append(ind[GENE_NAMES.index(name)])
    return {k: np.array(v) for k, v in out.items()}


def test_inflection_genes_mutate_in_decades_within_their_bounds(ctx):
    start, sigma = 0.0316, 0.05  # the middle of [0.001, 1] in log10; steps rarely reach a bound
    got = _mutated(ctx, start, sigma)
    for name in ("w_plural", "w_past"):
        steps = np.log10(got[name] / start)
        # log10 steps are Gaussian with sd sigma·log10(1/0.001) = 0.15 decades, centred on 0
        assert np.std(steps) == pytest.approx(sigma * 3, rel=0.1)
        assert abs(np.mean(steps)) < 0.02
    # a linear gene keeps its linear step: sd sigma·(1.5 − 0)
    assert np.std(got["k1"] - 0.75) == pytest.approx(sigma * 1.5, rel=0.1)


def test_inflection_genes_stay_within_their_bounds_under_wide_steps(ctx):
    got = _mutated(ctx, 0.002, 1.0, n=400)
    for name in ("w_plural", "w_past"):
        assert got[name].min() == 0.001 and got[name].max() == 1.0  # clipped at both ends, never beyond


def test_describe_says_what_the_genome_does_in_its_game():
    s = Strategy(w_plural=0.02, w_past=0.3, switch_eff=4.0, switch_turn=5.0, hard_candidates=True)
    free = s.describe(Settings(candidates="allowed", guess_from="allowed"))
    assert "explore with any word until ≤ 4.0 effective candidates or turn 5" in free
    assert "plurals ×0.02 and -ed words ×0.3" in free
    strict = s.describe(Settings(candidates="allowed", guess_from="candidates"))
    assert "guess only words that may be the answer" in strict and "explore" not in strict
    hard = s.describe(Settings(candidates="allowed", guess_from="allowed", hard=True))
    assert "guess only words that may be the answer" in hard
    soft_hard = Strategy().describe(Settings(candidates="allowed", guess_from="allowed", hard=True))
    assert "explore with any word" in soft_hard and "plurals" not in soft_hard
    assert "explore with any word" in s.describe()  # no settings: the genome's own genes
    assert Strategy(steepness=0.0, w_plural=0.5).describe().count("uniform prior with plurals ×0.5") == 1
    every = Strategy(w_plural=0.1, w_past=0.2, w_proper=0.01, w_unlisted=0.5).describe()
    assert "with plurals ×0.1, -ed words ×0.2, names ×0.01 and words no dictionary lists ×0.5;" in every



def test_evolve_strategy_describes_the_winner_in_its_own_game(tmp_path, capsys):
    from evo_wordle.cli import main

    args = ["evolve-strategy", "--candidates", "answers", "--train", "15", "--validation", "10", "--mu", "2",
            "--lambda", "2", "--generations", "0", "--seed", "1", "--pool", "30"]
    assert main([*args, "--guess-from", "candidates"]) == 0
    strict = capsys.readouterr().out
    assert "guess only words that may be the answer" in strict and "explore" not in strict
    assert main([*args, "--guess-from", "allowed", "--json"]) == 0
    assert "explore with any word" in json.loads(capsys.readouterr().out)["plain"]
