"""Fixed opening sequences: scores against a plain reference, the scan against brute force, and
the GA against the scan (issue 17: "the fixed-opening GA finds the exhaustive optimum")."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from collections import Counter

import numpy as np
import pytest

import evo_wordle.evolve.openings as openings
from evo_wordle import Context
from evo_wordle.cli import build_parser, main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.openings import (
    OpeningGA,
    OpeningProblem,
    _best_first,
    _distinct_rows,
    _unique_population,
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
    for k in (0, 6):
        with pytest.raises(EvoWordleError):
            evolve(problem, k, OpeningGA(population=4, generations=2, elite=1))
    with pytest.raises(EvoWordleError):
        scan(problem, 0)
    with pytest.raises(EvoWordleError, match="pool of opening words is empty"):
        OpeningProblem(small, small.candidates("answers"), np.array([], dtype=np.int64))


def test_cli_openers_caps_population_and_generations(capsys, ctx):
    """--population 10**9 ended in "out of memory" with exit 1, as if not the user's input, and
    --generations had no cap either (each generation keeps a logbook record)."""
    for flag in ("--population", "--generations"):
        assert main(["openers", "--pool", "30", flag, "1000000001"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{flag} must be between" in err and "1000000, not 1000000001" in err
    with pytest.raises(EvoWordleError, match="^--population must be between 2 and 1000000"):
        OpeningGA(population=10**7)


def test_cli_openers_scan_json(capsys, ctx):
    code = main(["openers", "--words", "2", "--pool", "60", "--scan", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    lists = out["setting"].pop("word_lists")
    assert out["setting"] == {"candidates": "answers", "n_candidates": 2309, "pool": 60, "words": 2,
                              "objective": "remaining", "seed": 0}
    assert (lists["allowed"], lists["answers"], lists["label"]) == (None, None, "nyt")
    assert lists["allowed_sha256"] == ctx.words.digest
    assert out["ga_found_best"] is True
    assert out["ga"]["score"] == pytest.approx(out["scan"]["score"])
    assert out["scan"]["evaluations"] == 60 * 59 // 2


def test_cli_openers_text_and_errors(capsys, ctx):
    assert main(["openers", "--words", "2", "--pool", "30", "--scan"]) == 0
    out = capsys.readouterr().out
    assert "GA (seed 0):" in out and "found the scan's best opening" in out
    assert main(["openers", "--words", "2", "--pool", "30"]) == 0
    out = capsys.readouterr().out
    assert "--scan scores them all" in out and out.startswith("fixed opening of 2 words over")
    assert "exactly, in seconds)" in out and "about a second" not in out  # 161,700 triples took 9 s of CPU
    assert main(["openers", "--words", "1", "--pool", "30"]) == 0
    assert capsys.readouterr().out.startswith("fixed opening of 1 word over 2,309 candidates")
    assert main(["openers", "--words", "3", "--pool", "2"]) == 2
    assert "needs a pool of at least 3" in capsys.readouterr().err
    assert main(["openers", "--words", "3", "--pool", "2000", "--scan"]) == 2
    assert "limit 50,000,000" in capsys.readouterr().err


def test_cli_openers_does_not_call_a_tie_with_other_words_the_scans_opening(capsys, ctx, tmp_path):
    """When every opening separates the 4 answers, the GA's pair and the scan's tie at 1.0 with
    other words; the text said "the GA found the scan's best opening" all the same."""
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("".join(w + "\n" for w in ctx.words.answers[:60]))
    answers.write_text("".join(w + "\n" for w in ctx.words.answers[:60:15]))
    args = ["openers", "--allowed", str(allowed), "--answers", str(answers), "--pool", "60", "--population", "10",
            "--generations", "5", "--scan"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ga"]["score"] == result["scan"]["score"] == 1.0 and result["ga_found_best"]
    assert sorted(result["ga"]["words"]) != sorted(result["scan"]["words"])  # the case under test
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "found the scan's best opening" not in out
    assert "the GA found an opening that ties the scan's best (same score, other words);" in out


def test_cli_openers_pool_larger_than_the_list_says_so(capsys, ctx, tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("\n".join(ctx.words.allowed[i] for i in ctx.words.answer_index[:40]) + "\n")
    lists = ["--allowed", str(words), "--answers", str(words), "--json"]
    assert main(["openers", "--words", "2", "--pool", "99999", *lists]) == 0
    text = capsys.readouterr()
    assert json.loads(text.out)["setting"]["pool"] == 40
    assert text.err.count("warning") == 1 and "--pool 99,999 is more than the 40 allowed words" in text.err
    assert json.loads(text.out)["setting"]["word_lists"]["allowed"] == "w.txt"  # the figures' lists are named
    assert main(["openers", "--words", "2", *lists[:-1]]) == 0
    assert "candidates (answers; answer list w.txt, allowed list w.txt); pool" in capsys.readouterr().out
    assert main(["openers", "--words", "2", *lists]) == 0  # the default pool on a short list: no warning
    text = capsys.readouterr()
    assert json.loads(text.out)["setting"]["pool"] == 40 and "--pool" not in text.err


# --- rules pinned for mutation testing (issue 19): each test says the rule it pins -------------------------


def _answers(small):
    cand = small.candidates("answers")
    return cand, [small.words.allowed[i] for i in cand]


def test_fitness_is_one_over_remaining_or_bits_plus_one(small):
    cand, _ = _answers(small)
    rem = OpeningProblem(small, cand, small.all_words[:3], "remaining")
    bits = OpeningProblem(small, cand, small.all_words[:3], "entropy")
    assert rem.fitness(np.array([2.0, 4.0, 1.0])).tolist() == [0.5, 0.25, 1.0]
    assert bits.fitness(np.array([0.0, 2.5])).tolist() == [1.0, 3.5]  # zero bits still has a chance
    assert rem.better(np.array([2.0])).tolist() == [-2.0] and bits.better(np.array([2.0])).tolist() == [2.0]


def test_opening_ga_roulette_refusal_names_the_opening_fitness_not_evaluate(small, monkeypatch):
    """The opening GA has no ``evaluate`` and no select/choose options: a bad fitness is named
    as its own, without the GA's advice."""
    problem = make_problem(small, small.candidates("answers"), 30)
    monkeypatch.setattr(OpeningProblem, "fitness", lambda self, scores: -scores)
    with pytest.raises(EvoWordleError) as err:
        evolve(problem, 2, OpeningGA(population=20, patience=5, restarts=0), seed=0)
    message = str(err.value)
    assert message.startswith("roulette needs fitness values of at least 0, one of them above 0 "
                              "(the opening GA's remaining fitness gave -")
    assert "evaluate" not in message and "tournament" not in message


def test_joint_codes_are_mixed_radix_in_the_narrowest_type(small):
    """Code of K feedbacks p_0 … p_{K-1} = Σ p_j·243^(K−1−j) (checked in Python ints), held in uint16
    while 243^K ≤ 2^16 (K ≤ 2), uint32 while 243^K ≤ 2^32 (K ≤ 4), else uint64; up to K = 8, the widest
    that fits 64 bits, they are these codes themselves (only wider ones are renumbered)."""
    cand, _ = _answers(small)
    pool = small.all_words[:9]
    problem = OpeningProblem(small, cand, pool)
    table = small.table
    narrowest = {1: np.uint16, 2: np.uint16, 3: np.uint32, 4: np.uint32} | {k: np.uint64 for k in range(5, 9)}
    for k in range(1, 9):
        genome = [6, 2, 4, 0, 5, 8, 1, 7][:k]
        want = [sum(int(table[pool[g], c]) * 243 ** (k - 1 - j) for j, g in enumerate(genome)) for c in cand]
        codes = problem._codes(np.array([genome]))
        assert codes.dtype == narrowest[k] and codes[0].tolist() == want, k
        after = problem.codes_after(np.array(genome[:-1], dtype=np.int64), 243, 3)  # last word: pool 3…8
        assert after.dtype == narrowest[k] and after.shape == (6, len(cand)), k
        for row, last in zip(after, range(3, 9)):
            full = genome[:-1] + [last]
            assert row.tolist() == [sum(int(table[pool[g], c]) * 243 ** (k - 1 - j) for j, g in enumerate(full))
                                    for c in cand], (k, last)


def test_ties_go_to_the_smallest_genome():
    problem = OpeningProblem(Context(allowed=["abcde", "fghij"], answers=["abcde"]), [0], [0, 1])
    genomes = np.array([[1, 2], [0, 5], [0, 3], [4, 6]])
    # remaining: 1.0 is best, then the three ties at 2.0 by first word, then second word
    assert _best_first(problem, genomes, np.array([2.0, 2.0, 2.0, 1.0])).tolist() == [3, 2, 1, 0]


def test_scan_returns_the_first_best_opening_in_pool_order(small):
    """50 pairs of the 25-word pool split the 30 answers apart (1.0 left): the first pair in pool order wins."""
    cand, cand_words = _answers(small)
    problem = make_problem(small, cand, 25)
    pairs = list(itertools.combinations(problem.words(range(25)), 2))
    scores = [reference_score(small, list(pair), cand_words, "remaining") for pair in pairs]
    assert scores.count(min(scores)) > 1  # the rule is exercised
    assert scan(problem, 2).words == list(pairs[scores.index(min(scores))])


def test_scan_scores_every_subset_the_last_included(small):
    """The best pair of a pool whose last two words are that pair (and unique best) is found; a
    progress bar is told of every one of the C(m, K) openings."""
    cand = small.all_words  # all 73 words: no pair splits them all, so the best pair is unique
    cand_words = list(small.words.allowed)
    best = scan(make_problem(small, cand, 25), 2).words
    weak = make_problem(small, cand, 73).words(range(60, 68))  # 8 poor single words
    words = [w for w in weak if w not in best] + best
    problem = OpeningProblem(small, cand, [small.words.allowed.index(w) for w in words])
    m = len(words)
    scores = {pair: reference_score(small, list(pair), cand_words, "remaining")
              for pair in itertools.combinations(words, 2)}
    assert sorted(scores.values())[0] < sorted(scores.values())[1]  # a unique best ...
    assert min(scores, key=scores.get) == tuple(words[-2:])  # ... made of the last two words

    class Count:
        total = 0

        def update(self, n):
            self.total += n

    result = scan(problem, 2)
    assert result.words == best and result.score == pytest.approx(min(scores.values()))
    found = evolve(problem, 2, OpeningGA(population=20, patience=5))
    assert found.words == best and found.score == pytest.approx(min(scores.values()))  # the GA's best, not a runner-up
    for k in (1, 2, 3):
        bar = Count()
        scan(problem, k, progress=bar)
        assert bar.total == math.comb(m, k), k


def test_each_run_stops_after_patience_generations_without_progress(small):
    """One candidate: every opening leaves 1, so no generation beats the first of its run; a run
    ends after ``patience`` more generations, a restart starts the next, the cap ends them all."""
    one = OpeningProblem(small, small.candidates("answers")[:1], small.all_words[:40])  # 780 pairs: never all seen
    params = {"population": 6, "patience": 3, "restarts": 2, "elite": 1}
    found = evolve(one, 2, OpeningGA(generations=100, **params), seed=0)
    assert [r["run"] for r in found.logbook] == [0] * 4 + [1] * 4 + [2] * 4
    assert [r["gen"] for r in found.logbook] == list(range(12))
    assert sum(r["nevals"] for r in found.logbook) == found.evaluations
    capped = evolve(one, 2, OpeningGA(generations=5, **params), seed=0)
    assert [r["run"] for r in capped.logbook] == [0] * 4 + [1] * 2


def test_hall_of_fame_holds_the_five_best_openings_seen(small):
    cand, cand_words = _answers(small)
    problem = make_problem(small, cand, 7)  # 21 pairs
    found = evolve(problem, 2, OpeningGA(population=12, generations=40, patience=40), seed=0)
    assert found.evaluations == 21  # every pair was scored
    # and the run ended in the generation that scored the last of them, not after 40
    assert found.logbook[-1]["nevals"] > 0 and len(found.logbook) < 41
    assert sum(r["nevals"] for r in found.logbook) == 21
    ref = sorted(reference_score(small, list(pair), cand_words, "remaining")
                 for pair in itertools.combinations(problem.words(range(7)), 2))
    assert len(found.hall_of_fame) == 5 and len({tuple(w) for w, _ in found.hall_of_fame}) == 5
    assert [s for _, s in found.hall_of_fame] == pytest.approx(ref[:5])
    for record in found.logbook:  # each generation's words are its best opening
        assert reference_score(small, record["words"].split(), cand_words, "remaining") == pytest.approx(record["best"])


def test_mutation_and_crossover_rates(small, monkeypatch):
    """mutpb 1: every child is mutated and none crossed (cxpb 0); and the other way round."""
    problem = make_problem(small, small.candidates("answers"), 12)
    calls: dict[str, list[int]] = {"mutate": [], "crossover": []}
    real_mutate, real_crossover = openings.mutate, openings.crossover

    def spy_mutate(rows, *args, **kwargs):
        calls["mutate"].append(len(rows))
        return real_mutate(rows, *args, **kwargs)

    def spy_crossover(a, b, rng):
        calls["crossover"].append(len(a))
        return real_crossover(a, b, rng)

    monkeypatch.setattr(openings, "mutate", spy_mutate)
    monkeypatch.setattr(openings, "crossover", spy_crossover)
    for cxpb, mutpb in ((0.0, 1.0), (1.0, 0.0)):
        calls["mutate"].clear()
        calls["crossover"].clear()
        evolve(problem, 2, OpeningGA(population=20, generations=5, cxpb=cxpb, mutpb=mutpb, elite=2, patience=10))
        assert calls["mutate"] == [18 * int(mutpb)] * 5 and calls["crossover"] == [18 * int(cxpb)] * 5


def test_letter_masks_set_one_bit_per_letter_a_first():
    assert letter_masks(["abc", "zz", "aaz", "a-é"]).tolist() == [0b111, 1 << 25, 1 | 1 << 25, 1]


def test_mutation_ignores_the_letters_of_the_word_it_replaces():
    """{abcde, fghij}: the words sharing no letter with the one kept share letters with the one replaced."""
    words = ["abcde", "fghij", "abklm", "fgnop"]
    bits = [(0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (0, 1, 10, 11, 12), (5, 6, 13, 14, 15)]  # a = bit 0
    masks = np.array([sum(1 << b for b in word) for word in bits])
    assert letter_masks(words).tolist() == masks.tolist()
    out = mutate(np.array([[0, 1]] * 200), masks, np.random.default_rng(0), fresh=1.0)
    for a, b in out:
        assert masks[a] & masks[b] == 0, (words[a], words[b])


def test_repeated_sets_are_replaced_and_the_rest_kept():
    rows = np.array([[0, 1], [2, 3], [1, 0], [4, 5], [2, 3]])
    out = _unique_population(rows.copy(), 50, np.random.default_rng(0))
    assert out[[0, 1, 3]].tolist() == [[0, 1], [2, 3], [4, 5]]  # first copies kept (as sorted sets)
    assert len({tuple(r) for r in out}) == 5 and all(a < b for a, b in out)


def test_opening_ga_accepts_its_bounds_and_refuses_beyond():
    OpeningGA(population=2, elite=1, generations=0, cxpb=0.0, mutpb=1.0, pressure=0.0, patience=1, restarts=0,
              fresh=0.0)
    OpeningGA(population=5, elite=4, cxpb=1.0, mutpb=0.0, fresh=1.0)
    OpeningGA(elite=0)
    for bad in ({"population": 5, "elite": 5}, {"population": 1, "elite": 0}, {"pressure": -0.5}, {"elite": -1},
                {"patience": 0}, {"restarts": -1}, {"generations": -1}, {"cxpb": 1.5}, {"cxpb": -0.1},
                {"mutpb": 1.5}, {"mutpb": -0.1}, {"fresh": 1.1}, {"fresh": -0.1}):
        with pytest.raises(EvoWordleError):
            OpeningGA(**bad)
    with pytest.raises(dataclasses.FrozenInstanceError):  # settings cannot change under a running GA
        OpeningGA().population = 3


def test_python_defaults_are_the_cli_defaults():
    """docs/openers.md runs OpeningGA() from Python and the CLI with its defaults: the same GA."""
    args = build_parser().parse_args(["openers"])
    ga = OpeningGA()
    for name in ("population", "generations", "cxpb", "mutpb", "pressure", "patience", "restarts"):
        assert getattr(ga, name) == getattr(args, name), name
    assert ga.elite == 4 and ga.fresh == 1.0  # "elitism (4)"; every mutation looks for a letter-fresh word


def test_evolve_defaults_to_seed_zero_and_takes_one_word_openings(small):
    problem = make_problem(small, small.candidates("answers"), 12)
    params = OpeningGA(population=10, patience=4, restarts=0)
    default = evolve(problem, 2, params).as_dict()["logbook"]
    assert default == evolve(problem, 2, params, seed=0).as_dict()["logbook"]
    assert default != evolve(problem, 2, params, seed=1).as_dict()["logbook"]
    assert evolve(problem, 1, params).words == problem.words([0])  # the pool's best single word


def test_results_time_themselves_and_scan_has_no_logbook(small):
    problem = make_problem(small, small.candidates("answers"), 8)
    for run in (lambda: scan(problem, 2), lambda: evolve(problem, 2, OpeningGA(population=8, patience=3))):
        t0 = time.perf_counter()
        result = run()
        took = time.perf_counter() - t0
        assert 0 <= result.seconds <= took
        assert result.as_dict()["seconds"] == round(result.seconds, 3)
    d = scan(problem, 2).as_dict()
    assert "logbook" not in d and d["method"] == "scan" and d["evaluations"] == 28


def test_no_rows_and_no_genomes_give_empty_scores(small):
    squares, xlogx = bucket_stats(np.zeros((0, 4), dtype=np.uint16))
    assert squares.shape == (0,) and xlogx.shape == (0,)
    problem = OpeningProblem(small, small.candidates("answers"), small.all_words[:5])
    assert problem.scores(np.zeros((0, 2), dtype=np.int64)).shape == (0,)


def test_scan_refuses_more_than_fifty_million_openings_by_default(small):
    problem = make_problem(small, small.candidates("answers"), 73)
    assert math.comb(73, 6) == 170_230_452  # 73·72·71·70·69·68 / 720
    with pytest.raises(EvoWordleError, match=r"170,230,452 openings \(limit 50,000,000\)"):
        scan(problem, 6)
    small_pool = make_problem(small, small.candidates("answers"), 8)
    assert scan(small_pool, 2, max_subsets=28).evaluations == 28  # exactly at the limit: scanned
    with pytest.raises(EvoWordleError):
        scan(small_pool, 2, max_subsets=27)


def test_repeated_words_in_a_row_are_redrawn():
    rows = np.array([[1, 0, 1], [2, 2, 3], [6, 4, 5], [7, 7, 7]])
    out = _distinct_rows(rows.copy(), 9, np.random.default_rng(0))
    assert out[2].tolist() == [4, 5, 6]  # already a set: only sorted
    assert out[0][[0, 1]].tolist() != [1, 1] and 0 in out[0] and 1 in out[0]
    assert 3 in out[1] and 7 in out[3]
    assert all(len(set(r)) == 3 and list(r) == sorted(r) and max(r) < 9 for r in out.tolist())


def test_a_run_ends_patience_generations_after_its_last_improvement(small):
    problem = make_problem(small, small.all_words, 40)  # 73 candidates, 3 words: the best improves by steps
    found = evolve(problem, 3, OpeningGA(population=10, patience=3, restarts=2, generations=200), seed=0)
    runs = sorted({r["run"] for r in found.logbook})
    assert runs == [0, 1, 2]
    improved_late = False
    for run in runs:
        best = [r["best"] for r in found.logbook if r["run"] == run]
        assert all(b <= a for a, b in zip(best, best[1:]))  # elitism: the best is never lost
        last = max(i for i in range(len(best)) if i == 0 or best[i] < best[i - 1])
        improved_late |= last > 0
        assert len(best) == last + 1 + 3, run  # 3 (patience) generations without progress, then it ends
    assert improved_late  # the rule was exercised: some run improved after its first generation


class _Draws:
    """A stand-in generator for mutate(): replace position 0 of each row, and the draws are word
    3 except word 2 at column ``fresh_at`` (when there is such a column)."""

    def __init__(self, fresh_at: int):
        self.fresh_at = fresh_at

    def integers(self, high, size):
        if not isinstance(size, tuple):
            return np.zeros(size, dtype=np.int64)
        draws = np.full(size, 3, dtype=np.int64)
        if self.fresh_at < size[1]:
            draws[:, self.fresh_at] = 2
        return draws

    def random(self, n):
        return np.zeros(n)


def test_mutation_looks_for_a_letter_fresh_word_in_up_to_64_draws():
    """docs/openers.md: the new word is the first of up to 64 draws sharing no letter with the rest."""
    masks = letter_masks(["abcde", "fghij", "abklm", "fgnop"])  # keep fghij: only abklm is fresh
    rows = np.array([[0, 1]])
    assert mutate(rows, masks, _Draws(63), fresh=1.0).tolist() == [[2, 1]]  # found at the 64th draw
    assert mutate(rows, masks, _Draws(64), fresh=1.0).tolist() == [[3, 1]]  # a 65th is never drawn
    assert mutate(rows, masks, _Draws(10)).tolist() == [[2, 1]]  # by default every mutation looks for one



def test_scores_in_chunks_equal_the_reference(small, monkeypatch):
    cand, cand_words = _answers(small)
    problem = OpeningProblem(small, cand, small.all_words[:12])
    genomes = np.array(list(itertools.combinations(range(12), 2))[:10])
    monkeypatch.setattr(openings, "CHUNK_ELEMENTS", 3 * len(cand))  # 3 openings per chunk: 4 chunks
    got = problem.scores(genomes)
    want = [reference_score(small, problem.words(g), cand_words, "remaining") for g in genomes]
    assert got == pytest.approx(want, abs=1e-12)


def test_default_pool_is_the_2000_best_single_words(ctx):
    problem = make_problem(ctx, ctx.candidates("answers")[:20])  # docs/openers.md: default 2,000
    assert len(problem.pool) == 2000


def test_result_dict_rounds_seconds_to_milliseconds():
    result = openings.OpeningResult(["abcde"], 1.5, "remaining", 3, 1.23456, "scan")
    assert result.as_dict()["seconds"] == 1.235


def test_unique_population_stops_once_no_set_repeats(monkeypatch):
    """One np.unique for a population without copies, two when one round of immigrants suffices
    (the GA calls this every generation)."""
    calls = []
    real = np.unique

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(np, "unique", spy)
    _unique_population(np.array([[0, 1], [2, 3], [4, 5]]), 50, np.random.default_rng(0))
    assert len(calls) == 1
    calls.clear()
    out = _unique_population(np.array([[0, 1], [1, 0], [4, 5]]), 10**6, np.random.default_rng(0))
    assert len(calls) == 2 and len({tuple(r) for r in out}) == 3


def test_a_pool_of_one_word_is_a_problem():
    ctx = Context(allowed=["abcde", "fghij", "abkde"], answers=["abcde", "abkde"])
    problem = make_problem(ctx, ctx.candidates("answers"), 1)
    assert problem.words([0]) == ["abcde"]  # the only split of the two answers (GGGGG / GGBGG)
    assert scan(problem, 1).score == 1.0


def test_without_fresh_the_new_word_is_any_pool_word():
    """fresh = 0: the replacing word is uniform over the pool, so it shares no letter with the kept
    word in about half of the rows here (2 of 4 words), against all of them with fresh = 1."""
    masks = letter_masks(["abcde", "fghij", "abklm", "fgnop"])
    rows = np.array([[0, 1]] * 400)
    for fresh, low, high in ((0.0, 0.35, 0.65), (1.0, 1.0, 1.0)):
        out = mutate(rows, masks, np.random.default_rng(5), fresh=fresh)
        share = np.mean([masks[a] & masks[b] == 0 for a, b in out])
        assert low <= share <= high, (fresh, share)


@pytest.mark.parametrize("objective", ["remaining", "entropy"])
def test_joint_feedback_of_many_words_never_wraps_into_another(small, objective):
    """The joint code of K words is Σ pattern·243**position: from K = 9 (243**9 > 2**64; the command
    refuses such a K, OpeningProblem takes it) it wrapped silently in 64 bits, so the feedback whose
    code is exactly 2**64 (its base-243 digits) shared code 0 with the all-grey feedback and two
    buckets merged: "remaining" said 1.0667 candidates left where every candidate stands alone.
    Such codes are now renumbered before every further word, in the GA's and in the scan's route."""
    cand = small.candidates("answers")
    n = len(cand)
    problem = OpeningProblem(small, cand, small.all_words[:9], objective)
    base = small.words.n_patterns
    digits, value = [], 2**64
    while value:
        value, digit = divmod(value, base)
        digits.append(digit)
    assert base == 243 and len(digits) == 9  # 2**64 needs all nine words' digits
    patterns = np.zeros((9, n), dtype=problem.patterns.dtype)
    patterns[:, 0] = digits[::-1]  # candidate 0: the feedback whose joint code is 2**64
    patterns[-1, 2:] = np.arange(1, n - 1)  # candidate 1 all grey; the others apart on the last word
    problem.patterns = patterns
    genome = np.arange(9)[None, :]
    alone = 1.0 if objective == "remaining" else math.log2(n)  # n buckets of one
    assert problem.scores(genome)[0] == pytest.approx(alone, abs=1e-12)
    after = problem.codes_after(np.arange(8), base, 8)  # the scan's route to the same codes
    assert after.shape == (1, n) and len(np.unique(after[0])) == n


def test_codes_renumber_from_the_first_k_past_64_bits_one_letter_words():
    """One-letter words have 3 feedbacks, so K = 41 words (3**41 lies in (2**64, 2**65]) is the one K
    whose codes pass 64 bits but not 65: the feedback whose code is exactly 2**64 (its 41 base-3 digits)
    wrapped onto the all-grey one.  Wide means past 2**64, not past any larger bound."""
    small = Context(allowed=list("abc"), answers=list("ab"))
    problem = OpeningProblem(small, small.candidates("answers"), small.all_words)
    digits, value = [], 2**64
    while value:
        value, digit = divmod(value, 3)
        digits.append(digit)
    assert small.words.n_patterns == 3 and len(digits) == 41 and 3**40 < 2**64 < 3**41 <= 2**65
    problem.patterns = np.array([[0, 0], [1, 0], [2, 0]], dtype=problem.patterns.dtype)  # row r: r, all grey
    genome = np.array(digits[::-1])[None, :]  # candidate 0's joint code is 2**64, candidate 1's is 0
    assert problem.scores(genome)[0] == pytest.approx(1.0)  # two buckets of one, not one of two
    after = problem.codes_after(genome[0, :-1], 3, int(genome[0, -1]))  # the scan's route
    assert after[0, 0] != after[0, 1]
