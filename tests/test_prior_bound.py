"""experiments/prior_bound.py: its word features, the cross-entropy it scores priors by, and
the fitted prior (chosen on the validation answers), on a small list."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.words import WordSet

from .experiment_scripts import load_experiment

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("baked", "baker", "bakes", "crane", "crazy", "fizzy", "jazzy", "kevin", "plant", "slate", "stare",
         "tales", "zzxqv")


@pytest.fixture(scope="module")
def script():
    return load_experiment("prior_bound")


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    return Context(words=WordSet(WORDS, ("crane", "plant", "slate", "stare"), label="prior-test"))


def test_the_features_mark_each_words_classes(script, small):
    x = script.word_features(small)
    assert x.shape == (len(WORDS), 17)
    row = {w: dict(zip(["rank", "logf", "nofreq", "plural", "past", "proper", "unlisted", "s", "es", "d", "ed", "r",
                        "er", "y", "double", "rare", "ing_ly"], x[i])) for i, w in enumerate(WORDS)}
    assert row["bakes"]["plural"] == 1 and row["tales"]["plural"] == 1 and row["baked"]["plural"] == 0
    assert row["baked"]["past"] == 1 and row["baker"]["past"] == 0
    assert row["kevin"]["proper"] == 1 and row["zzxqv"]["unlisted"] == 1 and row["crane"]["unlisted"] == 0
    # a dictionary word plus an ending: BAKE + s / d / r; CRAZ and FIZZ + y are not (CRAZ is no word)
    assert (row["bakes"]["s"], row["baked"]["d"], row["baker"]["r"]) == (1, 1, 1)
    assert row["bakes"]["es"] == 0 and row["crazy"]["y"] == 0 and row["crane"]["s"] == 0
    assert row["jazzy"]["double"] == 1 and row["crane"]["double"] == 0
    assert row["jazzy"]["rare"] == 1 and row["crane"]["rare"] == 0 and row["baker"]["rare"] == 1  # k
    assert row["zzxqv"]["nofreq"] == 1 and row["crane"]["nofreq"] == 0
    ranks = x[:, 0]
    assert ranks.min() == 0 and ranks.max() == 1 and len(set(ranks)) == len(WORDS)
    assert row["crane"]["rank"] > row["zzxqv"]["rank"]  # a common word outranks a made-up one


def test_cross_entropy_is_the_mean_bits_of_the_answers_under_the_normalised_prior(script):
    prior = np.array([1.0, 1.0, 2.0, 4.0])
    assert script.cross_entropy(prior, np.array([3])) == pytest.approx(1.0)  # 4/8
    assert script.cross_entropy(prior, np.array([0, 2])) == pytest.approx((3.0 + 2.0) / 2)
    assert script.cross_entropy(np.ones(16), np.arange(16)) == pytest.approx(4.0)
    assert script.cross_entropy(prior * 7.0, np.array([1, 3])) == pytest.approx((3.0 + 1.0) / 2)  # scale-free


def test_the_fitted_prior_favours_words_like_the_training_answers_and_its_c_is_the_validations_best(script, small):
    train = np.array(small.words.indices(["crane", "slate", "stare"]))
    validation = np.array(small.words.indices(["plant"]))
    prior, c, tried = script.fitted_prior(small, train, validation)
    assert prior.shape == (len(WORDS),) and (prior > 0).all() and np.isfinite(prior).all()
    assert [t[0] for t in tried] == list(script.C_GRID)
    assert c == min(tried, key=lambda t: t[1])[0]
    assert min(tried, key=lambda t: t[1])[1] == pytest.approx(script.cross_entropy(prior, validation), abs=1e-4)
    others = np.setdiff1d(np.arange(len(WORDS)), train)
    assert prior[train].mean() > prior[others].mean()
    assert script.cross_entropy(prior, train) < math.log2(len(WORDS))  # better than uniform on what it saw


def test_cross_fitted_priors_never_saw_the_answers_they_score(script, small, monkeypatch):
    train = np.sort(small.words.indices(["crane", "slate", "stare", "plant"]))
    split = type("S", (), {"seed": 4, "train": train, "validation": np.array(small.words.indices(["tales"]))})()
    seen = []
    real = script.fitted_prior

    def spy(ctx, positives, validation, grid):
        seen.append(positives.copy())
        assert grid == (0.5,)  # the C chosen on the full training set, not a new choice per fold
        return real(ctx, positives, validation, grid)

    monkeypatch.setattr(script, "fitted_prior", spy)
    folds = script.cross_fitted(small, split, 0.5, folds=2)
    parts = [part for part, _ in folds]
    np.testing.assert_array_equal(np.sort(np.concatenate(parts)), train)  # every training answer, once
    assert [len(p) for p in parts] == [2, 2]
    for (part, prior), positives in zip(folds, seen):
        assert not np.isin(part, positives).any()  # fitted without its own fold
        np.testing.assert_array_equal(np.sort(np.concatenate([part, positives])), train)
        np.testing.assert_array_equal(prior, real(small, positives, split.validation, (0.5,))[0])
    again = script.cross_fitted(small, split, 0.5, folds=2)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(folds, again))  # seeded by the split's seed


def test_retune_starts_from_the_genomes_own_genes_and_changes_only_the_cost_model(script, small):
    from evo_wordle.evolve.strategy import Strategy, StrategySolver
    from evo_wordle.game import Settings

    settings = Settings(candidates="allowed", guess_from="allowed")
    genome = Strategy(opener="slate", bonus=0.7, k1=0.3, k2=0.9, switch_eff=3.0, w_plural=0.2)
    train = np.array(small.words.indices(["crane", "plant", "stare", "tales"]))
    priors = [np.linspace(1.0, 2.0, len(WORDS)), np.linspace(2.0, 1.0, len(WORDS))]
    folds = [(train[:2], priors[0]), (train[2:], priors[1])]
    best, mean = script.retune(small, settings, genome, folds, trials=1)  # only the enqueued own genes
    assert best == genome
    by_hand = [StrategySolver(small, settings, strategy=genome, prior=p) for p in priors]
    expected = np.concatenate([script.run_bench(small, s, settings, part, 0).scores()
                               for (part, _), s in zip(folds, by_hand)]).mean()
    assert mean == pytest.approx(expected)
    best3, mean3 = script.retune(small, settings, genome, folds, trials=3)
    assert mean3 <= mean  # the best of three trials, the own genes among them
    changed = {k for k, v in best3.as_dict().items() if v != genome.as_dict()[k]}
    assert changed <= set(script.RETUNED)


def test_save_strategy_writes_the_genome_with_the_fitted_prior_and_not_the_old_tree(script, small, tmp_path, capsys):
    import argparse

    from evo_wordle.evolve.strategy import StoredPrior, Strategy, StrategyFile, read_strategy_file
    from evo_wordle.game import Settings

    settings = Settings(candidates="allowed", guess_from="allowed")
    genome = Strategy(opener="slate", w_plural=0.2)
    source = StrategyFile("src.json", genome, {"split": {"seed": 3}, "lookahead": {"turns": 2}, "plan": {"top": 9}},
                           {"": "crane"}, None)
    weights = np.linspace(0.5, 2.0, len(WORDS)) / 3.0
    out = tmp_path / "fitted.json"
    args = argparse.Namespace(save_strategy=out, strategy="src")
    script.save_fitted(args, small, source, settings, StoredPrior(weights, "fitted here"), {"C": 1.0})
    assert capsys.readouterr().out == f"wrote {out}\n"
    f = read_strategy_file(out)
    assert f.strategy == genome and f.tree == {} and f.made_for["candidates"] == "allowed"
    np.testing.assert_allclose(f.prior.weights, weights, rtol=5e-7)
    assert f.prior.about == "fitted here"
    assert f.provenance["split"] == {"seed": 3} and "lookahead" not in f.provenance and "plan" not in f.provenance
    assert f.provenance["prior"]["from"] == "src" and f.provenance["prior"]["C"] == 1.0
    assert f.provenance["prior"]["command"].startswith("python experiments/prior_bound.py")
    bad = argparse.Namespace(save_strategy=tmp_path / "missing" / "x.json", strategy="src")
    with pytest.raises(SystemExit) as stop:
        script.save_fitted(bad, small, source, settings, StoredPrior(weights, "x"), {})
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("prior_bound.py: --save-strategy") and err.count("\n") == 1


def test_the_first_row_of_a_file_with_a_stored_prior_plays_and_names_that_prior(script, small, tmp_path):
    """--strategy FILE with a stored prior (p0-fitted, p0-plan): the first row was labelled "own"
    and played the genome's frequency prior, not the prior the file is replayed with everywhere.
    Now it is the "stored" row, played and scored under that prior; a file without one keeps
    "own", the genome's prior."""
    from evo_wordle.evolve.strategy import StoredPrior, Strategy, StrategySolver, read_strategy_file, save_strategy
    from evo_wordle.game import Settings

    settings = Settings(candidates="allowed", guess_from="allowed")
    genome = Strategy(opener="slate")
    stored = np.ones(len(WORDS))
    stored[WORDS.index("zzxqv")] = 1000.0  # a made-up word, the rarest by frequency, likeliest here
    with_prior, without = tmp_path / "stored.json", tmp_path / "plain.json"
    save_strategy(with_prior, genome, {}, None, settings, small.words, StoredPrior(stored, "by hand"))
    save_strategy(without, genome, {}, None, settings, small.words)
    fitted, bound = np.linspace(1.0, 2.0, len(WORDS)), np.full(len(WORDS), 1e-9)
    everything = np.arange(len(WORDS))

    players = script.priors_played(small, read_strategy_file(with_prior), fitted, bound)
    assert list(players) == ["stored", "fitted", "answer list"]
    played_genome, played, weights = players["stored"]
    assert played_genome == genome
    np.testing.assert_allclose(played, stored, rtol=1e-6)
    np.testing.assert_allclose(weights, stored / stored.sum(), rtol=1e-6)
    replayed = StrategySolver(small, settings, strategy=str(with_prior)).policy
    row = StrategySolver(small, settings, strategy=genome, prior=played).policy
    np.testing.assert_allclose(row.weights(everything), replayed.weights(everything))  # as every command plays it

    own = script.priors_played(small, read_strategy_file(without), fitted, bound)
    assert list(own) == ["own", "fitted", "answer list"] and own["own"][1] is None
    genome_weights = StrategySolver(small, settings, strategy=genome).policy.weights(everything)
    np.testing.assert_allclose(own["own"][2], genome_weights)
    assert np.argmax(weights) == WORDS.index("zzxqv") != np.argmax(genome_weights)  # the two rows differ sharply
