"""Fixed openings scored by the whole game (``--objective game``): scores against games played out
one by one with a plain reference, the scan and the GA against brute force over every pair, the
endgame memo's cap, fresh memos, and the command line."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import evo_wordle.evolve.endgame as endgame
from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.endgame import GreedyEndgame
from evo_wordle.evolve.openings import LOWER_IS_BETTER, OpeningGA, OpeningProblem, evolve, make_problem, scan
from evo_wordle.game import GameState


def feedback(guess: str, answer: str) -> tuple[int, ...]:
    """Wordle colours, written out plainly: 2 green, 1 yellow (leftmost copies first), 0 grey."""
    out = [0] * len(guess)
    left = [a for g, a in zip(guess, answer) if g != a]
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            out[i] = 2
    for i, g in enumerate(guess):
        if out[i] != 2 and g in left:
            out[i] = 1
            left.remove(g)
    return tuple(out)


def bits(guess: str, group: list[str]) -> float:
    """Entropy of the feedback of ``guess`` over ``group`` (sizes summed smallest first)."""
    sizes = sorted(sum(1 for a in group if feedback(guess, a) == f) for f in {feedback(guess, a) for a in group})
    n = len(group)
    return -sum(s / n * math.log2(s / n) for s in sizes)


def play(opening: list[str], answer: str, candidates: list[str], allowed: list[str], guess_from: str) -> int:
    """Guesses one game takes: the opening word by word, then the guess of most bits over the
    words still possible (ties: the first in list order; from every allowed word, a near-tie goes
    to a possible word)."""
    left = list(candidates)
    for turn, word in enumerate(opening, 1):
        if word == answer:
            return turn
        left = [c for c in left if feedback(word, c) == feedback(word, answer)]
    turn = len(opening)
    while True:
        turn += 1
        pool = left if guess_from == "candidates" else allowed
        scores = [bits(g, left) for g in pool]
        top = max(scores)
        guess = pool[scores.index(top)]
        if guess not in left:
            guess = next((g for g, s in zip(pool, scores) if s >= top - 1e-9 and g in left), guess)
        if guess == answer:
            return turn
        left = [c for c in left if feedback(guess, c) == feedback(guess, answer)]


def mean_in_order(opening, candidates, allowed, guess_from="candidates") -> float:
    """Mean guesses over every candidate, the opening played in this order."""
    return sum(play(list(opening), a, candidates, allowed, guess_from) for a in candidates) / len(candidates)


def reference_mean(opening, candidates, allowed, guess_from="candidates") -> float:
    """Mean guesses over every candidate, with the opening's words in their best order."""
    return min(mean_in_order(order, candidates, allowed, guess_from) for order in itertools.permutations(opening))


@pytest.fixture(scope="module")
def small(ctx) -> Context:
    """40 allowed words, 16 of them the answers (a few answers share letters, so groups form)."""
    rng = np.random.default_rng(11)
    allowed = [ctx.words.allowed[i] for i in sorted(rng.choice(len(ctx.words), 34, replace=False))]
    answers = [ctx.words.allowed[i] for i in sorted(rng.choice(ctx.words.answer_index, 10, replace=False))]
    answers += ["sores", "soars", "score", "cores", "corer", "roses"]
    allowed = sorted(set(allowed) | set(answers))
    return Context(allowed=allowed, answers=sorted(set(answers)))


def words_of(ctx: Context, idx) -> list[str]:
    return [ctx.words.allowed[int(i)] for i in idx]


@pytest.mark.parametrize("guess_from", ["candidates", "allowed"])
def test_game_score_is_the_mean_of_games_played_out_one_by_one(small, guess_from):
    cand = small.candidates("answers")
    cand_words, allowed = words_of(small, cand), list(small.words.allowed)
    problem = OpeningProblem(small, cand, small.all_words, "game", guess_from)
    index = {w: i for i, w in enumerate(allowed)}
    openings = [["sores"], [allowed[0]], ["sores", "corer"], [allowed[1], "roses"], [allowed[2], allowed[5]],
                ["score", allowed[3], "cores"], [allowed[4], allowed[7], allowed[9]]]
    for opening in openings:
        genome = np.array(sorted(index[w] for w in opening))
        got = problem.scores(genome[None, :])[0]
        assert got == pytest.approx(reference_mean(opening, cand_words, allowed, guess_from), abs=1e-12), opening
        # the printed order is one that reaches the score
        assert mean_in_order(problem.opening(genome), cand_words, allowed, guess_from) == pytest.approx(got)


def test_answers_in_the_opening_cost_their_turn_and_are_played_first():
    """Hand-counted: abcde, fghij and klmno are the answers and share no letter; pqrst (not an
    answer) tells nothing about them."""
    tiny = Context(allowed=["abcde", "fghij", "klmno", "pqrst"], answers=["abcde", "fghij", "klmno"])
    problem = OpeningProblem(tiny, tiny.candidates("answers"), tiny.all_words, "game")
    # abcde first: solved at 1; fghij and klmno stay together, the endgame plays fghij (first of a tie): 2, 3
    # pqrst first: all three together; the endgame plays abcde (2), then fghij (3), then klmno (4)
    # {pqrst, abcde}: abcde is played first (1), then pqrst; the other two: fghij 3, klmno 4
    # {abcde, fghij}: 1, 2, and klmno alone after two words: 3
    genomes = np.array([[0, -1], [3, -1], [0, 3], [0, 1]])
    assert problem.scores(genomes[:2, :1]).tolist() == [6 / 3, 9 / 3]
    assert problem.scores(genomes[2:]).tolist() == [8 / 3, 6 / 3]
    assert problem.opening([0, 3]) == ["abcde", "pqrst"] and problem.opening([3, 0]) == ["abcde", "pqrst"]
    assert problem.words([3, 0]) == ["pqrst", "abcde"]
    assert problem.endgame.total(np.array([0, 1, 2])) == 2 + 3 + 4 - 3  # counted from the endgame's first guess


def test_one_word_openings_score_what_the_bench_plays(small):
    """With one opening word the game is the ``naive`` solver's bench with that opener."""
    from evo_wordle.bench import run_bench
    from evo_wordle.game import Settings

    cand = small.candidates("answers")
    problem = OpeningProblem(small, cand, small.all_words, "game")
    settings = Settings(candidates="answers", guess_from="candidates")
    for w in (0, 7, small.words.index("roses")):
        bench = run_bench(small, "naive", settings, solver_params={"opener": small.words.allowed[w]})
        assert problem.scores(np.array([[w]]))[0] == pytest.approx(bench.mean_guesses, abs=1e-12)


def brute_best_pair(ctx: Context, pool_words: list[str]) -> float:
    cand = words_of(ctx, ctx.candidates("answers"))
    return min(reference_mean(pair, cand, list(ctx.words.allowed)) for pair in itertools.combinations(pool_words, 2))


def test_scan_and_ga_find_the_brute_force_best_pair(small):
    problem = make_problem(small, small.candidates("answers"), 12, "game")
    best = brute_best_pair(small, problem.words(range(12)))
    exact = scan(problem.fresh(), 2)
    assert exact.score == pytest.approx(best, abs=1e-12)
    assert exact.evaluations == math.comb(12, 2)
    for seed in (0, 1):
        found = evolve(problem.fresh(), 2, OpeningGA(population=12, patience=6, restarts=2), seed=seed)
        assert found.score == pytest.approx(best, abs=1e-12)
        assert found.words in (exact.words, found.hall_of_fame[0][0])
        assert found.evaluations <= exact.evaluations


def test_game_pool_is_ranked_by_candidates_left_and_lower_is_better(small):
    cand = small.candidates("answers")
    game = make_problem(small, cand, 8, "game")
    remaining = make_problem(small, cand, 8, "remaining")
    assert game.pool.tolist() == remaining.pool.tolist()
    assert "game" in LOWER_IS_BETTER and "entropy" not in LOWER_IS_BETTER
    assert game.better(np.array([3.5])).tolist() == [-3.5]
    assert game.fitness(np.array([2.0, 4.0])).tolist() == [0.5, 0.25]


def test_memo_stops_growing_at_its_cap(small, monkeypatch):
    assert endgame.MAX_MEMO == 1_000_000
    cand = small.candidates("answers")
    free = OpeningProblem(small, cand, small.all_words, "game")
    pairs = np.array(list(itertools.combinations(range(12), 2)))
    expect = free.scores(pairs)
    assert len(free.endgame.memo) > 3
    monkeypatch.setattr(endgame, "MAX_MEMO", 3)
    capped = OpeningProblem(small, cand, small.all_words, "game")
    assert capped.scores(pairs).tolist() == expect.tolist()  # same scores, recomputed past the cap
    assert len(capped.endgame.memo) == 3
    assert len(GreedyEndgame(small, max_memo=0).memo) == 0


def test_fresh_starts_with_an_empty_memo_and_scores_alike(small):
    problem = OpeningProblem(small, small.candidates("answers"), small.all_words, "game")
    genomes = np.array([[0, 1], [2, 5], [3, 9]])
    first = problem.scores(genomes)
    size = len(problem.endgame.memo)
    assert size > 0
    other = problem.fresh()
    assert len(other.endgame.memo) == 0 and other.endgame is not problem.endgame
    assert other.scores(genomes).tolist() == first.tolist()
    assert len(problem.endgame.memo) == size and other.patterns is problem.patterns
    assert OpeningProblem(small, small.candidates("answers"), small.all_words).fresh().endgame is None


def write_lists(tmp_path, ctx: Context):
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(ctx.words.allowed) + "\n")
    answers.write_text("\n".join(words_of(ctx, ctx.candidates("answers"))) + "\n")
    return ["--allowed", str(allowed), "--answers", str(answers)]


def test_cli_openers_game_end_to_end(small, tmp_path, capsys):
    lists = write_lists(tmp_path, small)
    args = ["openers", "--objective", "game", "--pool", "10", "--scan", "--population", "10", "--patience", "5",
            *lists]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["setting"]["objective"] == "game" and out["setting"]["guess_from"] == "candidates"
    assert out["setting"]["hard"] is False
    best = brute_best_pair(small, make_problem(small, small.candidates("answers"), 10).words(range(10)))
    assert out["scan"]["score"] == pytest.approx(best, abs=1e-12)
    assert out["ga_found_best"] is True and out["scan"]["evaluations"] == 45
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "guesses on average" in text and "scored by whole games" in text and "by remaining" in text
    assert main(["openers", "--objective", "game", "--pool", "10", "--guess-from", "allowed", "--population",
                 "10", "--patience", "3", "--json", *lists]) == 0
    assert json.loads(capsys.readouterr().out)["setting"]["guess_from"] == "allowed"
    assert main(["openers", "--objective", "game", "--pool", "10", "--guess-from", "allowed", "--population",
                 "10", "--patience", "3", *lists]) == 0  # the text said "guesses from the allowed to the end"
    assert "entropy-greedy guesses from every allowed word to the end" in capsys.readouterr().out


def test_bad_input_is_one_line_and_exit_2(small, tmp_path, capsys):
    lists = write_lists(tmp_path, small)
    assert main(["openers", "--guess-from", "allowed", "--pool", "10", *lists]) == 2
    err = capsys.readouterr().err
    assert "--guess-from is for --objective game" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exit_:
        main(["openers", "--objective", "games", *lists])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'games'" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(EvoWordleError, match="guess-from"):
        OpeningProblem(small, small.candidates("answers"), small.all_words, "game", "any")
    with pytest.raises(EvoWordleError, match="objective"):
        make_problem(small, small.candidates("answers"), 5, "games")


@pytest.mark.parametrize("guess_from", ["candidates", "allowed"])
def test_the_endgame_from_scratch_totals_the_games_played_one_by_one(small, guess_from):
    """The endgame on all 16 answers: its first guess leaves several parts of two or more answers,
    each finished on its own (a part is cut where the sorted feedback changes, not elsewhere)."""
    cand = small.candidates("answers")
    cand_words, allowed = words_of(small, cand), list(small.words.allowed)
    total = GreedyEndgame(small, guess_from).total(np.sort(cand))
    assert total == sum(play([], a, cand_words, allowed, guess_from) for a in cand_words)
    first = allowed[GreedyEndgame(small, guess_from).solver.best_guess(GameState(small, np.sort(cand)))]
    sizes = sorted(sum(feedback(first, a) == f for a in cand_words) for f in {feedback(first, a) for a in cand_words})
    assert sum(s > 1 for s in sizes) >= 2  # the case this test is about


def test_a_guess_that_splits_nothing_is_an_error_not_an_endless_recursion(monkeypatch):
    """pqrst shares no letter with the answers: a policy that played it would recurse on the same group."""
    tiny = Context(allowed=["abcde", "fghij", "klmno", "pqrst"], answers=["abcde", "fghij", "klmno"])
    end = GreedyEndgame(tiny)
    monkeypatch.setattr(end.solver, "best_guess", lambda state: 3)
    with pytest.raises(EvoWordleError, match="guess 'pqrst' does not split its 3 candidates"):
        end.total(np.array([0, 1, 2]))


def test_the_memo_cap_is_a_count_from_zero(small):
    assert GreedyEndgame(small, max_memo=0).max_memo == 0
    with pytest.raises(EvoWordleError, match="max-memo must be at least 0"):
        GreedyEndgame(small, max_memo=-1)


def test_no_openings_score_nothing(small):
    problem = OpeningProblem(small, small.candidates("answers"), small.all_words, "game")
    codes = np.zeros((0, len(problem.candidates)), dtype=np.uint16)
    none = problem.game_scores(codes, np.zeros((0, 2), dtype=np.int64))
    assert none.shape == (0,)
