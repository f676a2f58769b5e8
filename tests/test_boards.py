"""Multi-board games: legality, the summed-entropy choice against brute force, determinism, --jobs."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from evo_wordle import patterns
from evo_wordle.bench import run_bench
from evo_wordle.boards import (
    COUNT_MAX,
    PAIR_MAX,
    POLICY_NAME,
    SORT_MAX,
    BoardsRecord,
    SummedEntropy,
    check_distinct_answers,
    draw_answers,
    play_boards,
)
from evo_wordle.entropy import entropies
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings

KNOWN = Settings(candidates="answers", guess_from="allowed")  # the paper's setting


def boards_settings(n: int, **kw) -> Settings:
    return KNOWN.with_(boards=n, max_guesses=n + 5, **kw)


@pytest.fixture(scope="module")
def quordle(ctx):
    return SummedEntropy(ctx, boards_settings(4))


def check_legal(ctx, record: BoardsRecord, n: int) -> None:
    """Every board solved by guessing its own answer; nothing played after the last board fell."""
    assert len(record.answers) == n
    assert record.solved
    assert all(0 <= g < len(ctx.words) for g in record.guesses)
    assert all(a in set(ctx.words.answer_index.tolist()) for a in record.answers)
    for answer, at in zip(record.answers, record.solved_at):
        assert at is not None and record.guesses[at - 1] == answer
        assert answer not in record.guesses[: at - 1]  # solved the first time it was played
    assert max(record.solved_at) == len(record.guesses)
    assert record.score(n + 5) == len(record.guesses) <= n + 5


def python_entropy(words: list[str], guess: str) -> float:
    """Entropy of ``guess`` over ``words`` from the reference scorer, no table involved."""
    counts = Counter(patterns.score(guess, w) for w in words)
    k = len(words)
    return -sum(c / k * np.log2(c / k) for c in counts.values())


def test_board_entropy_matches_foundation_on_both_paths(ctx, quordle):
    rng = np.random.default_rng(5)
    for k in (2, 3, PAIR_MAX, PAIR_MAX + 1, SORT_MAX, SORT_MAX + 1, 300):
        board = np.sort(rng.choice(len(quordle.universe), size=k, replace=False)).astype(np.int32)
        ref = entropies(ctx.table, ctx.all_words, quordle.universe[board])
        np.testing.assert_allclose(quordle.board_entropy(board), ref, atol=1e-12)


def test_any_allowed_word_universe(ctx):
    """P0 beliefs (every allowed word may be an answer): the table is read through a view."""
    policy = SummedEntropy(ctx, Settings(boards=2, max_guesses=7), opener="tares")
    assert len(policy.universe) == len(ctx.words)
    rng = np.random.default_rng(2)
    for k in (7, 500, COUNT_MAX + 1):
        board = np.sort(rng.choice(len(ctx.words), size=k, replace=False)).astype(np.int32)
        np.testing.assert_allclose(policy.board_entropy(board), entropies(ctx.table, ctx.all_words, board), atol=1e-12)
    rec = play_boards(policy, tuple(ctx.words.indices(["crane", "spill"])), 7)
    check_legal(ctx, rec, 2)
    assert ctx.words.allowed[rec.guesses[0]] == "tares"


def test_summed_choice_equals_brute_force(ctx, quordle):
    """Tiny case: two boards of a few words; the pick maximises the sum computed from scratch."""
    words = ctx.words.allowed
    first = ["crane", "crate", "grace", "brace", "trace"]
    second = ["spill", "still", "skill", "shall", "spell", "swill"]
    boards = [quordle.board_of(ctx.words.indices(b)) for b in (first, second)]
    for board, group in zip(boards, (first, second)):
        assert np.array_equal(quordle.universe[board], np.sort(ctx.words.indices(group)))
    pick = quordle.choose(boards, turn=2)
    total = sum(entropies(ctx.table, ctx.all_words, ctx.words.indices(b)) for b in (first, second))
    best = total.max()
    brute_pick = python_entropy(first, words[pick]) + python_entropy(second, words[pick])
    assert brute_pick == pytest.approx(best, abs=1e-9)
    # a sample of other words, scored without the table, never beats the pick
    rng = np.random.default_rng(1)
    for g in rng.choice(len(words), size=150, replace=False):
        other = python_entropy(first, words[g]) + python_entropy(second, words[g])
        assert other <= brute_pick + 1e-9
        assert other == pytest.approx(total[g], abs=1e-9)
    # tie rule: among words within 1e-9 of the best, the pick is possible on the most boards
    tied = np.flatnonzero(total >= best - 1e-9)
    on = [sum(words[t] in b for b in (first, second)) for t in tied]
    assert sum(words[pick] in b for b in (first, second)) == max(on)


def test_singleton_board_is_played_at_once(ctx, quordle):
    full = quordle.full_board()
    single = quordle.board_of([ctx.words.index("spill")])
    assert ctx.words.allowed[quordle.choose([full, single], turn=3)] == "spill"


def test_tie_rules_on_two_candidates(ctx):
    """Two words left: every splitter is worth 1 bit; 'candidates' plays one of the two,
    'alphabetical' (the paper's plain rule) the first splitter of the list."""
    two = ["crane", "crate"]
    for ties in ("candidates", "alphabetical"):
        policy = SummedEntropy(ctx, boards_settings(2), ties=ties)
        board = policy.board_of(ctx.words.indices(two))
        pick = ctx.words.allowed[policy.choose([board], turn=1)]
        splitters = [w for w in ctx.words.allowed if patterns.score(w, "crane") != patterns.score(w, "crate")]
        assert pick == ("crane" if ties == "candidates" else splitters[0])


def test_guess_from_candidates_stays_in_the_union(ctx):
    policy = SummedEntropy(ctx, boards_settings(2, guess_from="candidates"))
    rec = play_boards(policy, tuple(ctx.words.indices(["crane", "spill"])), 7)
    check_legal(ctx, rec, 2)
    boards = {b: policy.full_board() for b in range(2)}
    for g in rec.guesses:
        assert any(g in policy.universe[board] for board in boards.values())
        for b, answer in enumerate(rec.answers):
            if b in boards:
                p = ctx.table[g, answer]
                if p == ctx.words.solved:
                    del boards[b]
                else:
                    boards[b] = boards[b][ctx.table[g, policy.universe[boards[b]]] == p]


def test_board_of_rejects_words_outside_the_universe(ctx, quordle):
    with pytest.raises(EvoWordleError, match="outside"):
        quordle.board_of([ctx.words.index("aahed")])  # allowed, not an answer


def test_duplicate_answers_solve_together(ctx, quordle):
    crane = ctx.words.index("crane")
    rec = play_boards(quordle, (crane, crane, crane, crane), 9)
    assert rec.solved and len(set(rec.solved_at)) == 1


def test_play_boards_refuses_out_of_range_answers_and_caps(ctx, quordle):
    """play_boards is public: -1 wrapped to the last allowed word (a game against ZYMIC nobody
    asked for, reported as answers=(-1, …)), 99999 raised numpy's IndexError, a cap of 0 or -1
    returned an unplayed, unsolved set and 2.5 a TypeError."""
    crane = ctx.words.index("crane")
    for answers in [(-1, crane, crane, crane), (crane, 99999, crane, crane), (crane, 2.0, crane, crane), ()]:
        with pytest.raises(EvoWordleError) as err:
            play_boards(quordle, answers, 9)
        assert "\n" not in str(err.value)
    for cap in (0, -1, 2.5):
        with pytest.raises(EvoWordleError, match="--max-guesses"):
            play_boards(quordle, (crane,) * 4, cap)
    by_word = play_boards(quordle, ("crane", "spill", "crane", "tacit"), 9)  # words, as word_indices reads them
    assert by_word.answers == tuple(ctx.words.indices(["crane", "spill", "crane", "tacit"]).tolist())
    assert by_word.solved


def test_draw_answers_with_replacement_and_prefix_stable(ctx):
    a = draw_answers(ctx, 4, 50, seed=7)
    b = draw_answers(ctx, 4, 20, seed=7)
    assert a.shape == (50, 4)
    np.testing.assert_array_equal(a[:20], b)  # set k depends on its own seed only
    assert np.isin(a, ctx.words.answer_index).all()
    big = draw_answers(ctx, 8, 400, seed=1)
    assert any(len(set(row)) < 8 for row in big)  # with replacement: duplicates do occur
    assert not np.array_equal(a, draw_answers(ctx, 4, 50, seed=8))


def test_draw_answers_refuses_bad_arguments_in_one_line(ctx):
    """Public API: every bad argument is an EvoWordleError (0 boards gave an empty array, -1 or
    an empty pool numpy's ValueError, 2.5 sets a TypeError)."""
    bad = [dict(boards=0), dict(boards=-1), dict(boards=65), dict(boards=2.0), dict(games=2.5),
           dict(seed=-1), dict(pool=np.array([], dtype=np.int64))]
    for change in bad:
        kwargs = {"boards": 2, "games": 3, "seed": 0, **change}
        with pytest.raises(EvoWordleError) as err:
            draw_answers(ctx, kwargs.pop("boards"), kwargs.pop("games"), **kwargs)
        assert "\n" not in str(err.value), change
    assert draw_answers(ctx, 2, 3, np.int64(5)).shape == (3, 2)  # numpy integers are whole numbers
    with pytest.raises(EvoWordleError, match="needs a context"):
        draw_answers(None, 2, 3, 0)  # no context and no pool: was an AttributeError
    assert draw_answers(None, 2, 3, 0, pool=ctx.words.answer_index).tolist() == draw_answers(ctx, 2, 3, 0).tolist()


def test_draw_answers_caps_the_sets_before_allocating(ctx):
    """Each set keeps a SeedSequence: 10**9 sets ran out of memory instead of being refused."""
    from evo_wordle.boards import MAX_SETS

    for games in (MAX_SETS + 1, 10**9):
        with pytest.raises(EvoWordleError, match="^--games must be at most 1000000 board sets, not "):
            draw_answers(ctx, 2, games, 0)


def _old_draw(pool, boards, games, seed):
    """draw_answers as it was before ``distinct`` (with replacement), written out independently."""
    seqs = np.random.SeedSequence(seed).spawn(games)
    return np.array([pool[np.random.default_rng(s).integers(len(pool), size=boards)] for s in seqs])


def test_draw_answers_default_is_the_old_draw_with_replacement(ctx):
    """``distinct`` off (the default, and spelt out) draws exactly what every existing figure drew."""
    pool = ctx.words.answer_index
    for boards, games, seed in ((2, 30, 0), (4, 50, 7), (8, 40, 1)):
        old = _old_draw(pool, boards, games, seed)
        np.testing.assert_array_equal(draw_answers(ctx, boards, games, seed), old)
        np.testing.assert_array_equal(draw_answers(ctx, boards, games, seed, distinct=False), old)
    part = pool[::7]
    np.testing.assert_array_equal(draw_answers(None, 4, 25, 3, pool=part), _old_draw(part, 4, 25, 3))


def test_draw_answers_distinct_sets_never_repeat_an_answer(ctx):
    """Real Quordle/Octordle never repeat an answer in one set; with replacement 400 Octordle sets
    do (test_draw_answers_with_replacement_and_prefix_stable), with ``distinct`` none does."""
    for boards in (2, 4, 8):
        sets = draw_answers(ctx, boards, 400, 1, distinct=True)
        assert sets.shape == (400, boards)
        assert all(len(set(row)) == boards for row in sets.tolist())
        assert np.isin(sets, ctx.words.answer_index).all()
    # a pool of exactly as many answers as boards: every set is that pool, in some order
    pool = ctx.words.answer_index[:4]
    small = draw_answers(None, 4, 30, 2, pool=pool, distinct=True)
    assert all(sorted(row) == sorted(pool.tolist()) for row in small.tolist())
    assert len({tuple(row) for row in small.tolist()}) > 1  # the order is drawn, not fixed
    # a pool that repeats a word holds it once: still four different answers
    twice = np.concatenate([pool, pool])
    assert all(len(set(row)) == 4 for row in draw_answers(None, 4, 30, 2, pool=twice, distinct=True).tolist())
    assert not np.array_equal(draw_answers(ctx, 4, 50, 7, distinct=True), draw_answers(ctx, 4, 50, 8, distinct=True))


def test_draw_answers_distinct_set_k_does_not_depend_on_the_number_of_sets(ctx):
    """Set k comes from SeedSequence(seed).spawn(games)[k] alone: 20 sets are the first 20 of 50,
    and each is the draw without replacement from its own generator."""
    a = draw_answers(ctx, 4, 50, 7, distinct=True)
    np.testing.assert_array_equal(a[:20], draw_answers(ctx, 4, 20, 7, distinct=True))
    np.testing.assert_array_equal(a[:1], draw_answers(ctx, 4, 1, 7, distinct=True))
    pool = ctx.words.answer_index
    for k, seq in enumerate(np.random.SeedSequence(7).spawn(50)):
        want = pool[np.random.default_rng(seq).choice(len(pool), size=4, replace=False)]
        np.testing.assert_array_equal(a[k], want)


def test_distinct_answers_are_one_rule_refused_on_one_board_only(ctx):
    """boards.check_distinct_answers, the rule every entry point applies: on for one board is
    refused in one line (the draw itself too), any board count from two is accepted, off passes."""
    one_board = r"^--distinct-answers \(distinct_answers\) needs --boards N with N ≥ 2 \(one board has one answer\)$"
    with pytest.raises(EvoWordleError, match=one_board):
        check_distinct_answers(True, 1)
    with pytest.raises(EvoWordleError, match=one_board):
        draw_answers(ctx, 1, 3, 5, distinct=True)
    assert check_distinct_answers(False, 1) is False
    assert [check_distinct_answers(True, b) for b in (2, 4, 8)] == [True, True, True]
    with pytest.raises(EvoWordleError, match=r"^--distinct-answers must be true or false, not 'yes'$"):
        check_distinct_answers("yes", 4)


def test_draw_answers_distinct_refuses_a_pool_smaller_than_the_boards(ctx):
    pool = ctx.words.answer_index[:3]
    with pytest.raises(EvoWordleError) as err:
        draw_answers(None, 4, 5, 0, pool=pool, distinct=True)
    assert str(err.value) == "4 boards with distinct answers need at least 4 answers to draw from, not 3"
    with pytest.raises(EvoWordleError, match="at least 4 answers to draw from, not 3$"):  # repeats are one answer
        draw_answers(None, 4, 5, 0, pool=np.concatenate([pool, pool]), distinct=True)
    assert draw_answers(None, 4, 5, 0, pool=pool).shape == (5, 4)  # with replacement three answers do
    with pytest.raises(EvoWordleError, match="^--distinct-answers must be true or false, not 'yes'$"):
        draw_answers(ctx, 4, 5, 0, distinct="yes")


def test_bench_refuses_more_board_sets_than_the_cap(capsys):
    from evo_wordle.cli import main

    assert main(["bench", "--boards", "2", "--games", "1000000000", "--candidates", "answers", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--games" in err and "1000000" in err


QUORDLE_FLAGS = ["--boards", "4", "--candidates", "answers", "--guess-from", "allowed", "--games", "30", "--quiet"]


def _csv_sets(ctx, path) -> np.ndarray:
    import csv

    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return np.array([ctx.words.indices(row["answer"].split("+")) for row in rows])


def test_bench_distinct_answers_plays_and_records_sets_without_a_repeat(ctx, capsys, tmp_path):
    """``bench --boards 4 --distinct-answers`` plays draw_answers(distinct=True) (no set repeats an
    answer), records it in the JSON settings and a CSV column, and says it on the settings line;
    without the flag the JSON, the CSV header and the sets are what they were."""
    from evo_wordle.cli import main

    on, off = tmp_path / "on.csv", tmp_path / "off.csv"
    assert main(["bench", *QUORDLE_FLAGS, "--distinct-answers", "--json", "--csv", str(on)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["settings"]["distinct_answers"] is True and summary["games"] == 30
    sets = _csv_sets(ctx, on)
    np.testing.assert_array_equal(sets, draw_answers(ctx, 4, 30, 0, distinct=True))
    assert all(len(set(row)) == 4 for row in sets.tolist())
    assert on.read_text().splitlines()[0] == "answer,guesses,solved,sequence,opener,seed,distinct_answers"
    assert {line.rsplit(",", 1)[1] for line in on.read_text().splitlines()[1:]} == {"1"}
    assert main(["bench", *QUORDLE_FLAGS, "--json", "--csv", str(off)]) == 0
    assert "distinct_answers" not in json.loads(capsys.readouterr().out)["settings"]
    assert off.read_text().splitlines()[0] == "answer,guesses,solved,sequence,opener,seed"
    np.testing.assert_array_equal(_csv_sets(ctx, off), _old_draw(ctx.words.answer_index, 4, 30, 0))
    assert main(["bench", *QUORDLE_FLAGS, "--no-distinct-answers", "--csv", str(off)]) == 0  # said: as the default
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("settings:"))
    assert "distinct" not in line
    np.testing.assert_array_equal(_csv_sets(ctx, off), _old_draw(ctx.words.answer_index, 4, 30, 0))
    assert main(["bench", *QUORDLE_FLAGS, "--distinct-answers"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("settings:"))
    assert line.endswith(", answers=nyt, distinct answers") and "distinct_answers" not in line


def test_compare_distinct_answers_plays_every_row_on_the_same_distinct_sets(capsys, ctx):
    """(``ctx``: the list's pattern table is built before, so a first build's note never joins the
    one warning counted below.)"""
    from evo_wordle.cli import main

    argv = ["compare", "--solvers", "summed-entropy,strategy", "--strategy", "dordle-evolved", "--boards", "2",
            "--candidates", "answers", "--guess-from", "allowed", "--games", "8", "--split", "test", "--quiet"]
    assert main([*argv, "--distinct-answers"]) == 0
    captured = capsys.readouterr()
    head = captured.out.splitlines()[0]
    assert head.startswith("8 board sets, seed 0, answers nyt (test part of the file's split), distinct answers, ")
    # the shipped policy was evolved on sets drawn with replacement: said, not silently mixed
    assert captured.err.endswith("was evolved on board sets drawn with replacement; these are drawn with distinct "
                                 "answers\n") and captured.err.count("\n") == 1
    assert main([*argv, "--distinct-answers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["settings"]["distinct_answers"] for r in rows] == [True, True]
    assert main([*argv, "--json"]) == 0
    assert all("distinct_answers" not in r["settings"] for r in json.loads(capsys.readouterr().out))


@pytest.mark.parametrize("argv", [
    ["bench", "--distinct-answers", "--games", "5"],
    ["bench", "--boards", "1", "--distinct-answers", "--games", "5"],
    ["bench", "--solver", "naive", "--distinct-answers", "--games", "5", "--json"],
    ["compare", "--solvers", "greedy,naive", "--distinct-answers", "--games", "5"],
])
def test_distinct_answers_on_one_board_is_refused_in_one_line(capsys, argv):
    from evo_wordle.cli import main

    assert main([*argv, "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("evo-wordle: error: --distinct-answers (distinct_answers) needs --boards N with N ≥ 2 "
                            "(one board has one answer)\n")
    assert captured.out == ""


def run_boards_bench(ctx, settings, games, seed=0, jobs=1, ties="candidates"):
    """N board sets through the one bench engine (as ``bench --boards N`` plays them)."""
    return run_bench(ctx, POLICY_NAME, settings, draw_answers(ctx, settings.boards, games, seed), seed,
                     {"ties": ties}, jobs=jobs)


@pytest.mark.parametrize("n", [2, 4])
def test_small_bench_is_legal_and_deterministic(ctx, n):
    settings = boards_settings(n)
    res = run_boards_bench(ctx, settings, games=20, seed=11)
    assert res.games == 20 and res.solver == "summed-entropy"
    assert res.params["opener"] == "soare"  # the paper's opener (max entropy over the answers)
    np.testing.assert_array_equal(np.array([r.answers for r in res.records]), draw_answers(ctx, n, 20, 11))
    for r in res.records:
        check_legal(ctx, r, n)
        assert ctx.words.allowed[r.guesses[0]] == "soare"
    assert res.win_rate == 1.0 and n + 1 <= res.mean_guesses <= n + 5
    summary = res.summary()
    assert sum(summary["histogram"].values()) == 20
    again = run_boards_bench(ctx, settings, games=20, seed=11)
    assert [r.guesses for r in again.records] == [r.guesses for r in res.records]


def test_jobs_do_not_change_results(ctx):
    settings = boards_settings(4)
    one = run_boards_bench(ctx, settings, games=20, seed=3, jobs=1)
    two = run_boards_bench(ctx, settings, games=20, seed=3, jobs=2)
    assert [(r.answers, r.guesses) for r in one.records] == [(r.answers, r.guesses) for r in two.records]
    assert one.mean_guesses == two.mean_guesses


def test_failures_count_as_the_cap(ctx):
    settings = boards_settings(8).with_(max_guesses=8)  # too few guesses for eight boards
    res = run_boards_bench(ctx, settings, games=5, seed=2)
    assert all(not r.solved and len(r.guesses) == 8 for r in res.records)
    assert res.win_rate == 0.0 and res.mean_guesses == 8


def test_bad_settings_are_one_line_errors(ctx):
    with pytest.raises(EvoWordleError, match="hard mode"):
        SummedEntropy(ctx, boards_settings(2, hard=True))
    with pytest.raises(EvoWordleError, match="daily"):
        SummedEntropy(ctx, boards_settings(2, daily=True))
    with pytest.raises(EvoWordleError, match="ties"):
        SummedEntropy(ctx, boards_settings(2), ties="random")
    with pytest.raises(EvoWordleError, match="games"):
        run_boards_bench(ctx, boards_settings(2), games=0)


# -- one engine for one or N boards (bench.run_bench) -------------------------------------------


def test_one_board_is_the_case_n_equals_1(ctx):
    """summed-entropy on one board through the bench: the same games as playing each answer alone."""
    settings = KNOWN.with_(max_guesses=9)
    answers = ctx.words.answer_index[:25]
    res = run_bench(ctx, POLICY_NAME, settings, answers, seed=0)
    policy = SummedEntropy(ctx, settings)
    alone = [play_boards(policy, (int(a),), 9) for a in answers]
    assert [(r.answers, r.guesses, r.solved) for r in res.records] == [(r.answers, r.guesses, r.solved) for r in alone]
    assert res.params["opener"] == "soare" and res.settings.boards == 1


def test_board_sets_need_one_answer_per_board(ctx):
    with pytest.raises(EvoWordleError, match="one answer per board"):
        run_bench(ctx, POLICY_NAME, boards_settings(4), draw_answers(ctx, 2, 5, 0))
    with pytest.raises(EvoWordleError, match="plays one board"):
        run_bench(ctx, "greedy", boards_settings(2), draw_answers(ctx, 2, 5, 0))


@pytest.mark.parametrize("argv", [
    ["--boards", "2", "--population", "50"],
    ["--solver", POLICY_NAME, "--mutation", "0.2"],
    ["--boards", "2", "--solver", POLICY_NAME, "--strategy", "quordle-evolved"],  # played plain, 1 board
    ["--strategy", "dordle-evolved", "--tree", "t.json"],
    ["--strategy", "dordle-evolved", "--second-preset", "linum"],
])
def test_cli_bench_of_the_board_policy_refuses_flags_it_ignores(capsys, argv):
    """compare refused them; bench played on as if they had not been given."""
    from evo_wordle.cli import main

    assert main(["bench", *argv, "--games", "3", "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and " has no --" in captured.err


@pytest.mark.parametrize("repeat", ["10001", str(10**12)])
def test_cli_bench_repeat_is_capped_as_sweep_seeds_are(capsys, repeat):
    """Board sets are drawn anew per run, so --repeat repeats them; 10**12 derived that many seeds
    and ended in "out of memory" with exit 1, as if the input were not the user's."""
    from evo_wordle.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["bench", "--boards", "2", "--games", "2", "--repeat", repeat, "--quiet"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert f"--repeat: must be between 1 and 10000, not {repeat}" in err


def test_cli_boards_repeat_jobs_csv_and_compare(capsys, tmp_path):
    from evo_wordle.cli import main

    base = ["--boards", "2", "--candidates", "answers", "--games", "6", "--quiet"]
    assert main(["bench", *base, "--repeat", "2", "--jobs", "2", "--json", "--csv", str(tmp_path / "a.csv")]) == 0
    two_jobs = json.loads(capsys.readouterr().out)
    assert two_jobs["games"] == 12 and two_jobs["settings"]["repeat"] == 2  # two runs of 6 sets, pooled
    assert main(["bench", *base, "--repeat", "2", "--json", "--csv", str(tmp_path / "b.csv")]) == 0
    one_job = json.loads(capsys.readouterr().out)
    assert one_job["settings"]["run_means"] == two_jobs["settings"]["run_means"]
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()
    rows = (tmp_path / "a.csv").read_text().splitlines()
    assert len(rows) == 13 and all(len(r.split(",")[0].split("+")) == 2 for r in rows[1:])
    assert main(["compare", "--solvers", POLICY_NAME, *base, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["solver"] == POLICY_NAME and row["games"] == 6 and row["settings"]["boards"] == 2
    assert main(["bench", "--solver", POLICY_NAME, "--candidates", "answers", "--games", "5", "--quiet"]) == 0
    assert "solver:       summed-entropy" in capsys.readouterr().out
    assert main(["compare", "--solvers", f"{POLICY_NAME},greedy", *base]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "greedy plays one board" in err


def test_cli_output_counts_board_sets_not_games(capsys, tmp_path):
    """`bench --boards 4` printed "games: 5", "worst game" and "ms per game", compare "5 games" and
    "ms/game", and the histogram said "games" on its axis, title and caption, for board sets."""
    from evo_wordle.cli import main

    base = ["--boards", "2", "--candidates", "answers", "--guess-from", "allowed", "--games", "3", "--quiet"]
    assert main(["bench", *base, "--plot", str(tmp_path / "h.png")]) == 0
    out = capsys.readouterr().out
    assert "board sets:   3\n" in out and "worst set:    " in out and " ms per board set\n" in out
    assert "game" not in out.replace("wrote", "")
    assert main(["compare", "--solvers", POLICY_NAME, *base]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 board sets, seed 0") and "ms/set" in out and "ms/game" not in out
    assert main(["bench", "--games", "3", "--quiet"]) == 0  # one board: games, as before
    out = capsys.readouterr().out
    assert "games:        3\n" in out and "worst game:   " in out and " ms per game\n" in out



def test_the_histogram_of_board_sets_says_board_sets(tmp_path):
    from evo_wordle.plots.histogram import plot_histogram

    summary = {"solver": POLICY_NAME, "games": 4, "mean_guesses": 7.0, "fail_rate": 0.0,
               "histogram": {"6": 1, "7": 2, "8": 1}, "settings": {"boards": 4, "max_guesses": 9, "seed": 0}}
    plotted = plot_histogram(summary, tmp_path / "sets.png")
    ax = plotted.figure.axes[0]
    assert ax.get_ylabel() == "board sets" and ax.get_title().endswith(", 4 board sets")
    assert "N = 4 board sets" in plotted.data["caption"]
    one = plot_histogram({**summary, "settings": {"max_guesses": 9, "seed": 0}}, tmp_path / "games.png")
    assert one.figure.axes[0].get_ylabel() == "games" and "N = 4 games" in one.data["caption"]


def test_run_bench_distinct_answers_draws_checks_and_records_sets_without_a_repeat():
    """The Python API as bench --distinct-answers: drawn sets never repeat an answer (and are
    draw_answers' distinct sets), given sets that do are refused naming set and word, one board
    is refused, and the result's settings say it (off: not recorded, as before)."""
    from evo_wordle import Context

    ctx = Context()
    settings = Settings(candidates="answers", guess_from="allowed", boards=8)
    res = run_bench(ctx, "summed-entropy", settings, games=40, seed=5, distinct_answers=True)
    answers = np.array([r.answers for r in res.records])
    assert all(len(set(row)) == 8 for row in answers.tolist())
    np.testing.assert_array_equal(answers, draw_answers(ctx, 8, 40, 5, distinct=True))
    assert res.summary()["settings"]["distinct_answers"] is True
    plain = run_bench(ctx, "summed-entropy", settings, games=3, seed=5)
    assert "distinct_answers" not in plain.summary()["settings"]
    crane, spill = ctx.words.index("crane"), ctx.words.index("spill")
    given = np.array([[crane, spill] * 4, [crane, spill, *answers[0, 2:]]])
    with pytest.raises(EvoWordleError, match=r"^board set 0 repeats the answer 'crane', and distinct_answers is on$"):
        run_bench(ctx, "summed-entropy", settings, given, distinct_answers=True)
    one_board = r"^--distinct-answers \(distinct_answers\) needs --boards N with N ≥ 2 \(one board has one answer\)$"
    with pytest.raises(EvoWordleError, match=one_board):
        run_bench(ctx, "greedy", Settings(), games=3, distinct_answers=True)
    with pytest.raises(EvoWordleError, match=one_board):  # the same rule, in the draw itself
        draw_answers(ctx, 1, 3, 5, distinct=True)
    assert draw_answers(ctx, 1, 3, 5, distinct=False).shape == (3, 1)
    with pytest.raises(EvoWordleError, match=r"^--distinct-answers must be true or false, not 'yes'$"):
        run_bench(ctx, "summed-entropy", settings, games=3, distinct_answers="yes")
