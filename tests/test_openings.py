"""Fixed opening sequences: scores against a plain reference, the scan against brute force, and
the GA against the scan (issue 17: "the fixed-opening GA finds the exhaustive optimum")."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.openings import (
    OpeningGA,
    OpeningProblem,
    bucket_stats,
    crossover,
    evolve,
    letter_masks,
    make_problem,
    mutate,
    scan,
)

from .reference import reference_pattern


@pytest.fixture(scope="module")
def small(ctx) -> Context:
    """70 allowed words (duplicate letters included), the first 30 of them the answers."""
    rng = np.random.default_rng(7)
    allowed = [ctx.words.allowed[i] for i in sorted(rng.choice(len(ctx.words), 70, replace=False))]
    for word in ("geese", "eerie", "llama"):
        if word not in allowed:
            allowed.append(word)
    answers = allowed[:27] + ["geese", "eerie", "llama"]
    return Context(allowed=allowed, answers=answers)


def reference_score(ctx: Context, words: list[str], candidates: list[str], objective: str) -> float:
    """Buckets of the joint feedback counted with the slow reference colouring."""
    sizes = Counter(tuple(reference_pattern(w, c) for w in words) for c in candidates).values()
    n = len(candidates)
    if objective == "remaining":
        return sum(s * s for s in sizes) / n
    return -sum(s / n * math.log2(s / n) for s in sizes)


def brute_best(ctx: Context, k: int, candidates: list[str], objective: str, pool: list[str]):
    scored = [(reference_score(ctx, list(combo), candidates, objective), combo)
              for combo in itertools.combinations(pool, k)]
    sign = 1 if objective == "remaining" else -1
    return min(scored, key=lambda t: sign * t[0])


def test_bucket_stats_match_counter():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 6, size=(9, 31)).astype(np.uint16)
    squares, xlogx = bucket_stats(codes)
    for row, sq, xl in zip(codes, squares, xlogx):
        sizes = Counter(row.tolist()).values()
        assert sq == sum(s * s for s in sizes)
        assert xl == pytest.approx(sum(s * math.log2(s) for s in sizes))


@pytest.mark.parametrize("objective", ["remaining", "entropy"])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_scores_match_reference(small, objective, k):
    cand = small.candidates("answers")
    cand_words = [small.words.allowed[i] for i in cand]
    problem = OpeningProblem(small, cand, small.all_words, objective)
    rng = np.random.default_rng(k)
    genomes = np.sort(np.array([rng.choice(len(small.words), k, replace=False) for _ in range(12)]), axis=1)
    got = problem.scores(genomes)
    for genome, value in zip(genomes, got):
        assert value == pytest.approx(reference_score(small, problem.words(genome), cand_words, objective), abs=1e-9)


def test_remaining_of_one_word_counts_its_partition(small):
    """One word: Σ size² / n over its feedback buckets, e.g. the answers themselves split apart."""
    cand = small.candidates("answers")
    problem = OpeningProblem(small, cand, cand, "remaining")
    scores = problem.scores(np.arange(len(cand))[:, None])
    assert scores.min() >= 1.0  # at best every candidate alone
    assert scores.max() <= len(cand)


@pytest.mark.parametrize("objective", ["remaining", "entropy"])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_scan_equals_brute_force(small, objective, k):
    cand = small.candidates("answers")
    cand_words = [small.words.allowed[i] for i in cand]
    problem = make_problem(small, cand, 25, objective)
    result = scan(problem, k)
    expect_score, _ = brute_best(small, k, cand_words, objective, problem.words(range(25)))
    assert result.score == pytest.approx(expect_score, abs=1e-9)
    assert result.evaluations == math.comb(25, k)
    assert reference_score(small, result.words, cand_words, objective) == pytest.approx(result.score, abs=1e-9)


def test_pool_is_best_single_words_first(small):
    cand = small.candidates("answers")
    problem = make_problem(small, cand, 10)
    every = OpeningProblem(small, cand, small.all_words).scores(small.all_words[:, None])
    assert np.allclose(problem.scores(np.arange(10)[:, None]), np.sort(every)[:10])
    entropy = make_problem(small, cand, 10, "entropy")
    bits = OpeningProblem(small, cand, small.all_words, "entropy").scores(small.all_words[:, None])
    assert np.allclose(entropy.scores(np.arange(10)[:, None]), np.sort(bits)[::-1][:10])


@pytest.mark.parametrize("k,seed", [(2, 0), (2, 1), (3, 0), (3, 2)])
def test_ga_finds_the_scan_optimum(small, k, seed):
    cand = small.candidates("answers")
    problem = make_problem(small, cand, 40)
    exact = scan(problem, k)
    found = evolve(problem, k, OpeningGA(population=40, patience=15, restarts=2), seed=seed)
    assert found.score == pytest.approx(exact.score, abs=1e-12)
    assert found.evaluations < exact.evaluations  # it did not simply score everything
    assert found.hall_of_fame[0][1] == pytest.approx(exact.score)
    assert found.logbook[0]["gen"] == 0 and found.logbook[-1]["best"] == pytest.approx(
        min(r["best"] for r in found.logbook if r["run"] == found.logbook[-1]["run"]))


def test_ga_is_reproducible_and_reports_words(small):
    problem = make_problem(small, small.candidates("answers"), 30)
    a = evolve(problem, 2, OpeningGA(population=20, patience=5, restarts=1), seed=3)
    b = evolve(problem, 2, OpeningGA(population=20, patience=5, restarts=1), seed=3)
    assert a.as_dict()["logbook"] == b.as_dict()["logbook"] and a.words == b.words
    assert all(w in small.words.allowed for w in a.words)
    assert all(isinstance(w, str) for row in a.logbook for w in row["words"].split())
    assert {r["run"] for r in a.logbook} <= {0, 1}


def test_entropy_ga_maximises(small):
    problem = make_problem(small, small.candidates("answers"), 30, "entropy")
    found = evolve(problem, 2, OpeningGA(population=30, patience=10), seed=0)
    assert found.score == pytest.approx(scan(problem, 2).score)
    assert found.score <= math.log2(len(small.candidates("answers")))


def test_mutation_brings_a_letter_disjoint_word_when_asked():
    words = ["abcde", "fghij", "abfgz", "klmno", "pqrst"]
    masks = letter_masks(words)
    rows = np.array([[0, 2]] * 200)
    rng = np.random.default_rng(0)
    out = mutate(rows, masks, rng, fresh=1.0)
    for before, after in zip(rows, out):
        kept = [w for w in after if w in before]
        new = [w for w in after if w not in before]
        assert len(kept) >= 1
        for w in new:  # shares no letter with the word kept
            assert int(masks[w]) & int(masks[kept[0]]) == 0
    plain = mutate(rows, masks, np.random.default_rng(1), fresh=0.0)
    assert (plain != rows).any()


def test_crossover_children_take_their_words_from_the_parents():
    rng = np.random.default_rng(0)
    a = np.array([[1, 2, 3]] * 50)
    b = np.array([[4, 5, 6]] * 50)
    kids = crossover(a, b, rng)
    assert kids.shape == a.shape
    assert set(np.unique(kids)) <= {1, 2, 3, 4, 5, 6}
    assert len({tuple(sorted(k)) for k in kids}) > 5  # mixed, not copies


def test_bad_parameters_are_refused(small):
    problem = make_problem(small, small.candidates("answers"), 5)
    with pytest.raises(EvoWordleError):
        scan(problem, 6)
    with pytest.raises(EvoWordleError):
        scan(make_problem(small, small.candidates("answers"), 60), 3, max_subsets=100)
    with pytest.raises(EvoWordleError):
        OpeningGA(population=1)
    with pytest.raises(EvoWordleError):
        make_problem(small, small.candidates("answers"), 5, "mean")
    with pytest.raises(ValueError):
        OpeningProblem(small, np.array([], dtype=np.int64), small.all_words)


def test_cli_openers_scan_json(capsys, ctx):
    code = main(["openers", "--words", "2", "--pool", "60", "--scan", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["setting"] == {"candidates": "answers", "n_candidates": 2309, "pool": 60, "words": 2,
                              "objective": "remaining", "seed": 0}
    assert out["ga_found_best"] is True
    assert out["ga"]["score"] == pytest.approx(out["scan"]["score"])
    assert out["scan"]["evaluations"] == 60 * 59 // 2


def test_cli_openers_text_and_errors(capsys, ctx):
    assert main(["openers", "--words", "2", "--pool", "30", "--scan"]) == 0
    out = capsys.readouterr().out
    assert "GA (seed 0):" in out and "found the scan's best opening" in out
    assert main(["openers", "--words", "2", "--pool", "30"]) == 0
    assert "--scan scores them all" in capsys.readouterr().out
    assert main(["openers", "--words", "3", "--pool", "2"]) == 2
    assert "needs a pool of at least 3" in capsys.readouterr().err
    assert main(["openers", "--words", "3", "--pool", "2000", "--scan"]) == 2
    assert "limit 50,000,000" in capsys.readouterr().err
