"""The bench, its CLI (bench, compare), settings flags, and the thesis figures that run fast."""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.bench import BenchResult, derived_seeds, run_bench, sample_answers
from evo_wordle.cli import main
from evo_wordle.cli.bench_cmds import ranking_scores
from evo_wordle.cli.settings_args import add_settings_args, settings_from_args
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import GameRecord, Settings
from evo_wordle.stats import mean_ci

SUMMARY_KEYS = {
    "solver", "settings", "games", "mean_guesses", "win_rate", "fail_rate", "worst_guesses", "histogram", "seconds",
    "guesses_outside_source", "games_outside_source",
}


# -- the thesis's figures (2,309 answers, P0 unless stated) -------------------------------------


@pytest.mark.parametrize(
    "solver,opener,settings,thesis",
    [
        ("naive", "tares", Settings(), 4.227),
        ("greedy", "rates", Settings(), 3.842),
        ("greedy", "tales", Settings(), 3.773),
        ("naive", "slate", Settings.problem("P1"), 3.527),
    ],
)
def test_thesis_figures(ctx, solver, opener, settings, thesis) -> None:
    res = run_bench(ctx, solver, settings, solver_params={"opener": opener})
    assert res.games == 2309
    assert res.mean_guesses == pytest.approx(thesis, abs=0.01)
    if solver == "naive" and opener == "tares":
        over6 = sum(v for k, v in res.histogram.items() if int(k) > 6) / res.games
        assert over6 == pytest.approx(0.0407, abs=0.001)  # the thesis's 4.07 % over 6


# -- bench mechanics -----------------------------------------------------------------------------


def test_jobs_do_not_change_results(ctx) -> None:
    answers = ctx.words.answer_index[::20]
    one = run_bench(ctx, "random", Settings(), answers, seed=11, jobs=1)
    two = run_bench(ctx, "random", Settings(), answers, seed=11, jobs=2)
    assert [r.guesses for r in one.records] == [r.guesses for r in two.records]
    assert [r.answer for r in two.records] == answers.tolist()


def test_sample_is_seeded_and_distinct(ctx) -> None:
    a = sample_answers(ctx.words.answer_index, 50, 3)
    assert len(np.unique(a)) == 50
    assert np.array_equal(a, sample_answers(ctx.words.answer_index, 50, 3))
    assert not np.array_equal(a, sample_answers(ctx.words.answer_index, 50, 4))
    with pytest.raises(EvoWordleError):
        sample_answers(ctx.words.answer_index, 0, 3)


@pytest.mark.parametrize("rule", ["remove", "forbid"])
def test_daily_rules(ctx, rule) -> None:
    answers = sample_answers(ctx.words.answer_index, 120, 2)
    res = run_bench(ctx, "naive", Settings.problem("P3"), answers, seed=2, daily_rule=rule,
                    solver_params={"opener": "slate"})
    assert res.params["daily_rule"] == rule
    assert sorted(res.order.tolist()) == list(range(len(answers)))
    past: set[int] = set()
    for k in res.order:
        rec = res.records[k]
        assert rec.solved
        assert not (set(rec.guesses[1:]) & past), "a past answer was guessed"
        past.add(rec.answer)
    plain = run_bench(ctx, "naive", Settings.problem("P1"), answers, seed=2, solver_params={"opener": "slate"})
    assert res.mean_guesses <= plain.mean_guesses  # knowing past answers never hurts on average


def test_daily_remove_shrinks_later_candidates(tmp_path) -> None:
    """With ``remove``, a game's candidates exclude earlier answers: on a tiny answer list the
    last game is down to one candidate after the opener."""
    words = ["bound", "found", "hound", "mound", "pound", "round", "sound", "wound"]
    path = tmp_path / "answers.txt"
    path.write_text("\n".join(words) + "\n")
    small = Context(answers=str(path))
    for seed in range(3):
        res = run_bench(small, "naive", Settings.problem("P3"), seed=seed, solver_params={"opener": "slate"})
        assert all(r.solved for r in res.records)
        assert len(res.records[res.order[-1]].guesses) <= 2


def test_bad_daily_rule(ctx) -> None:
    with pytest.raises(EvoWordleError):
        run_bench(ctx, "naive", Settings(daily=True), ctx.words.answer_index[:3], daily_rule="keep")


def test_mean_ci() -> None:
    mean, half = mean_ci([3.0])
    assert mean == 3.0 and np.isnan(half)
    mean, half = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(4.303 * 1.0 / np.sqrt(3))
    assert derived_seeds(5, 3)[0] == 5 and len(set(derived_seeds(5, 3))) == 3


def test_ranking_scores() -> None:
    rows = [
        {"fail_rate": 0.1, "mean_guesses": 4.0, "seconds_per_game": 0.01},
        {"fail_rate": 0.2, "mean_guesses": 5.0, "seconds_per_game": 0.04},
        {"fail_rate": 0.0, "mean_guesses": 3.0, "seconds_per_game": 0.02},
    ]
    got = ranking_scores(rows)
    assert got[1] == pytest.approx(1.0)
    assert got[0] == pytest.approx(0.7 * 0.5 + 0.25 * 0.8 + 0.05 * 0.25)
    assert got[2] == pytest.approx(0.25 * 0.6 + 0.05 * 0.5)


# -- settings flags ------------------------------------------------------------------------------


def _settings(*argv: str) -> Settings:
    p = argparse.ArgumentParser()
    add_settings_args(p)
    return settings_from_args(p.parse_args(list(argv)))


def test_settings_flags() -> None:
    assert _settings() == Settings()
    assert _settings("--problem", "p3") == Settings.problem("P3")
    assert _settings("--problem", "P3", "--candidates", "answers", "--daily") == Settings.problem("P3")  # agreeing
    assert _settings("--problem", "P1", "--guess-from", "allowed") == Settings.problem("P1", guess_from="allowed")
    got = _settings("--guess-from", "allowed", "--hard", "--max-guesses", "6")
    assert (got.guess_from, got.hard, got.max_guesses) == ("allowed", True, 6)
    assert _settings("--boards", "8").max_guesses == 13  # N + 5 by default
    assert _settings("--daily").daily


# -- the CLI -------------------------------------------------------------------------------------


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_bench_json_keys_exact(capsys) -> None:
    code, out, _ = run_cli(capsys, "bench", "--solver", "greedy", "--games", "30", "--opener", "tales", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == SUMMARY_KEYS
    assert data["games"] == 30 and data["settings"]["opener"] == "tales"
    assert sum(data["histogram"].values()) == 30
    assert 0 <= data["fail_rate"] == pytest.approx(1 - data["win_rate"])


def test_rates_come_from_the_counts_without_float_noise() -> None:
    """199 wins in 200 games: fail_rate is 0.005 as JSON shows it, not 1 - 0.995 = 0.0050000000000000044."""
    won, lost = GameRecord(0, [1, 0], True), GameRecord(0, list(range(9)), False)
    result = BenchResult("greedy", Settings(), [won] * 199 + [lost], seconds=1.0)
    summary = json.loads(json.dumps(result.summary()))
    assert repr(summary["fail_rate"]) == "0.005" and summary["win_rate"] == 0.995
    assert result.fail_rate == 0.005 and result.wins == 199
    late = BenchResult("greedy", Settings(), [GameRecord(0, list(range(7)), True)], seconds=1.0)
    assert (late.fail_rate, late.wins) == (1.0, 0)  # solved in 7 is a failure over 6


def test_bench_text_csv_and_plot(capsys, tmp_path) -> None:
    out_csv, out_png = tmp_path / "games.csv", tmp_path / "hist.png"
    code, out, _ = run_cli(capsys, "bench", "--solver", "two-preset", "--games", "25", "--hard",
                           "--csv", str(out_csv), "--plot", str(out_png))
    assert code == 0
    assert "mean guesses:" in out and "hard=True" in out
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 25
    assert set(rows[0]) == {"answer", "guesses", "solved", "sequence", "opener", "seed"}
    for row in rows:
        seq = row["sequence"].split()
        assert seq[0] == row["opener"] == "tares"
        if row["solved"] == "1":
            assert seq[-1] == row["answer"] and int(row["guesses"]) == len(seq)
    data = out_png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_bench_repeat(capsys) -> None:
    code, out, _ = run_cli(capsys, "bench", "--solver", "random", "--games", "20", "--repeat", "3", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == SUMMARY_KEYS
    assert data["games"] == 60 and len(data["settings"]["run_means"]) == 3
    assert data["mean_guesses"] == pytest.approx(np.mean(data["settings"]["run_means"]))
    code, out, _ = run_cli(capsys, "bench", "--solver", "greedy", "--games", "20", "--repeat", "4", "--json")
    data = json.loads(out)
    assert data["games"] == 20 and data["settings"]["repeat_asked"] == 4  # deterministic: one run
    code, out, _ = run_cli(capsys, "bench", "--solver", "greedy", "--problem", "P3", "--games", "30", "--repeat", "2")
    assert code == 0 and "±" in out and "(2 runs)" in out  # daily order is random: runs differ


def test_bench_repeat_says_what_its_interval_covers(capsys) -> None:
    """One board replays the same answers in every run, so the interval over runs holds the runs' own
    chance, not the draw of a --games sample; it said only "95 % interval over runs", which read as
    the solver's mean over all answers, known to ± that.  Board sets are drawn anew in each run."""
    code, out, _ = run_cli(capsys, "bench", "--solver", "random", "--games", "20", "--repeat", "3")
    assert code == 0 and ("(95 % interval over runs on the same 20 answers: run-to-run chance only, not which 20 "
                          "of the 2,309 answers were drawn)") in out
    code, out, _ = run_cli(capsys, "bench", "--boards", "2", "--candidates", "answers", "--games", "6",
                           "--repeat", "2")
    assert code == 0 and "(95 % interval over runs, each on its own 6 board sets)" in out


def test_bench_boards_route(capsys, tmp_path) -> None:
    out_csv = tmp_path / "sets.csv"
    code, out, _ = run_cli(capsys, "bench", "--boards", "2", "--games", "4", "--candidates", "answers",
                           "--opener", "soare", "--json", "--csv", str(out_csv))
    assert code == 0
    data = json.loads(out)
    assert set(data) == SUMMARY_KEYS and data["games"] == 4 and data["settings"]["boards"] == 2
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 4 and all(len(r["answer"].split("+")) == 2 for r in rows)


def test_compare(capsys) -> None:
    code, out, _ = run_cli(capsys, "compare", "--solvers", "random,position-rank,greedy", "--games", "30", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert {r["solver"] for r in rows} == {"random", "position-rank", "greedy"}
    # the order is what the seed fixes (fail rate, then mean guesses), never the time
    quality = [(r["fail_rate"], r["mean_guesses"]) for r in rows]
    assert quality == sorted(quality)
    assert all(SUMMARY_KEYS <= set(r) and 0 <= r["score"] <= 1.0 + 1e-9 for r in rows)
    code, out, _ = run_cli(capsys, "compare", "--solvers", "letter-frequency,naive", "--games", "10")
    assert code == 0 and "letter-frequency" in out and "score" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--solver", "nope"],
        ["bench", "--games", "0"],
        ["bench", "--answers", "/nonexistent/answers.txt"],
        ["bench", "--opener", "zzzzq"],
        ["bench", "--solver", "position-rank", "--second-preset", "linum"],
        ["bench", "--solver", "two-preset", "--second-preset", "qqqqq"],
        ["bench", "--jobs", "x"],
        ["bench", "--plot", "/nonexistent/dir/h.png"],
        ["compare", "--solvers", "greedy,nope"],
        ["compare", "--solvers", "greedy,greedy"],
        ["compare", "--solvers", "greedy", "--boards", "2"],
        ["bench", "--solver", "naive", "--boards", "2"],
    ],
)
def test_bad_input_one_line(capsys, argv) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_answers_file_content(capsys, tmp_path) -> None:
    bad = tmp_path / "answers.txt"
    bad.write_text("qqqqq\nzzzzz\n")
    code, _, err = run_cli(capsys, "bench", "--answers", str(bad))
    assert code == 2 and err.count("\n") == 1


def test_subprocess_error_and_run(tmp_path) -> None:
    env = {**os.environ}
    proc = subprocess.run([sys.executable, "-m", "evo_wordle", "bench", "--solver", "nope"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "evo_wordle", "bench", "--solver", "letter-frequency",
                           "--games", "10", "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and json.loads(proc.stdout)["games"] == 10
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal


def test_bench_result_pooled_histogram(ctx) -> None:
    res = run_bench(ctx, "greedy", Settings(max_guesses=4), ctx.words.answer_index[:40])
    assert isinstance(res, BenchResult)
    assert res.worst_guesses <= 4 and sum(res.histogram.values()) == 40


# -- the speed paths are exact -------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 64, 128, 300])
def test_small_entropies_bitwise_equal(ctx, n) -> None:
    """The fast path must give the very same floats as counting all 243 patterns, or ties
    between guesses (hence whole games) would change with the number of candidates."""
    from evo_wordle.entropy import entropy_from_counts, pattern_counts, small_entropies

    rng = np.random.default_rng(n)
    for pool in (ctx.words.answer_index, ctx.all_words):
        cand = np.sort(rng.choice(pool, n, replace=False))
        for guesses in (ctx.all_words[::3], cand):
            slow = entropy_from_counts(pattern_counts(ctx.table, guesses, cand))
            fast = small_entropies(ctx.table, guesses, cand)
            assert np.array_equal(slow.view(np.int64), fast.view(np.int64))


def test_bench_names_the_answer_list_as_compare_does(capsys) -> None:
    code, out, _ = run_cli(capsys, "bench", "--games", "5", "--json")
    assert code == 0 and json.loads(out)["settings"]["answers"] == "nyt"
    code, out, _ = run_cli(capsys, "bench", "--games", "5", "--answers", "original")
    assert code == 0 and "answers=original" in out


def test_compare_rank_does_not_depend_on_time(capsys, monkeypatch) -> None:
    # a solver that is better but much slower still ranks first (the paper's score, with its time
    # term, is only shown beside the rank)
    import evo_wordle.cli.bench_cmds as bench_cmds

    monkeypatch.setitem(bench_cmds.SCORE_WEIGHTS, "seconds_per_game", 100.0)  # time would decide the score
    code, out, _ = run_cli(capsys, "compare", "--solvers", "random,greedy", "--games", "30", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["solver"] for r in rows][0] == min(rows, key=lambda r: r["mean_guesses"])["solver"]


def test_compare_ties_share_a_rank_whatever_the_order_of_solvers(capsys) -> None:
    """Equal fail rate and mean were ranked 1 and 2 in --solvers' order, so the order given
    decided which solver 'won'; with --max-guesses 1 every solver fails every game: one tie."""
    for solvers in ("greedy,naive,random", "random,naive,greedy"):
        code, out, _ = run_cli(capsys, "compare", "--solvers", solvers, "--games", "3", "--max-guesses", "1", "--json")
        assert code == 0 and [r["rank"] for r in json.loads(out)] == [1, 1, 1]
    code, out, _ = run_cli(capsys, "compare", "--solvers", "greedy,random", "--games", "30", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["rank"] for r in rows] == [1, 2] and rows[0]["mean_guesses"] < rows[1]["mean_guesses"]


def test_jobs_far_beyond_the_cpus_are_capped_and_said_once(capsys, monkeypatch) -> None:
    import evo_wordle.executors as executors

    monkeypatch.setattr(executors.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(executors, "_warned_jobs", set())
    assert executors.local_workers(4) == 4 and capsys.readouterr().err == ""
    assert executors.local_workers(50) == 4 and executors.local_workers(50) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs 50 is more than 4 workers for each of this machine's 1 CPUs: using 4" in err
    code, out, err = run_cli(capsys, "bench", "--games", "12", "--jobs", "999", "--json")
    capped = json.loads(out)
    code1, out1, _ = run_cli(capsys, "bench", "--games", "12", "--jobs", "1", "--json")
    assert code == code1 == 0 and "using 4" in err
    assert capped["mean_guesses"] == json.loads(out1)["mean_guesses"]


def test_the_jobs_cap_warning_names_the_jobs_the_user_gave(capsys, monkeypatch, tmp_path) -> None:
    """`sweep --jobs 50` with 30 benches warned '--jobs 30 is more than ...': the number it named
    was the sweep's own cut to its work units, not the user's."""
    import evo_wordle.executors as executors

    monkeypatch.setattr(executors.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(executors, "_warned_jobs", set())
    code, _, err = run_cli(capsys, "sweep", "--solver", "naive", "--set", "opener=tares,slate,crane,raise,arise,irate",
                           "--seeds", "1", "--games", "3", "--jobs", "50", "--out", str(tmp_path / "s"), "--quiet")
    assert code == 0 and "--jobs 50 is more than 4 workers" in err and "--jobs 6 " not in err


def test_a_cap_below_the_win_limit_is_the_limit_stated(capsys, tmp_path) -> None:
    """With --max-guesses 4 the win-rate line said "solved within 6" (the Wordle win limit), and
    the sweep report "% over 6", though no game goes past 4 guesses: both state the cap in use."""
    from evo_wordle.game import Settings

    assert Settings(max_guesses=4).won_within == 4 and Settings().won_within == 6
    assert Settings(max_guesses=4).fail_text().startswith("not solved within 4")
    assert Settings().fail_text() == "over 6" and Settings(boards=2, max_guesses=7).fail_text() == "not solved within 7"
    code, out, _ = run_cli(capsys, "bench", "--solver", "greedy", "--games", "30", "--max-guesses", "4")
    assert code == 0
    assert "(solved within 4, the --max-guesses cap; the win limit is 6)" in out
    code, out, _ = run_cli(capsys, "bench", "--solver", "greedy", "--games", "30")
    assert code == 0 and "% (solved within 6)\n" in out
    folder = tmp_path / "capped"
    code, _, _ = run_cli(capsys, "sweep", "--solver", "greedy", "--set", "max_guesses=4", "--seeds", "1",
                         "--games", "10", "--out", str(folder), "--quiet")
    code, out, _ = run_cli(capsys, "report", str(folder))
    assert code == 0 and out.rstrip().endswith("% not solved within 4 (the --max-guesses cap)")
