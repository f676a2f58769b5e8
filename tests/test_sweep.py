"""Sweeps: end to end, resumed after a kill, the same on dask as locally, spec changes refused."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from evo_wordle.bench import run_bench
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.sweep import (
    SweepSpec,
    format_report,
    format_value,
    load_sweep,
    mean_ci,
    parse_grid_arg,
    run_sweep,
    summarize,
    t975,
    task_seed,
)

# A cheap solver; greedy without an opener computes its opener in every bench (~0.3 s),
# which makes the interrupted run's kill land part-way.  Seeds change the answer sample.
ARGS = ["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "max_guesses=6,9",
        "--set", "hard=false,true", "--seeds", "2", "--games", "50", "--quiet"]
COMPARED = ("bench_seed", "games", "mean", "win_rate", "fail_rate", "worst_guesses", "histogram", "version")


def read_rows(path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def keyed(rows: list[dict]) -> dict:
    return {(r["max_guesses"], r["hard"], r["seed"]): tuple(r[c] for c in COMPARED) for r in rows}


@pytest.fixture(scope="module")
def reference(tmp_path_factory, cache_dir):
    """An uninterrupted run of the small sweep (2 x 2 configurations, 2 seeds, 50 games)."""
    out = tmp_path_factory.mktemp("sweep") / "ref"
    assert main([*ARGS, "--out", str(out), "--jobs", "2"]) == 0
    return out


def test_small_sweep_end_to_end(reference, ctx, capsys):
    rows = read_rows(reference / "results.csv")
    assert len(rows) == 8
    assert len(keyed(rows)) == 8  # one row per (configuration, seed)
    spec = json.loads((reference / "sweep.json").read_text())
    assert spec["grid"] == {"max_guesses": [6, 9], "hard": [False, True]}
    assert spec["seeds"] == 2 and spec["games"] == 50
    # Each row is the bench it claims to be: replay one independently.
    row = next(r for r in rows if r["max_guesses"] == "6" and r["hard"] == "true" and r["seed"] == "1")
    bench_seed = task_seed(0, 1)
    settings = SweepSpec.from_dict(spec).settings_for({"max_guesses": 6, "hard": True})
    assert settings.hard and settings.candidates == "answers" and settings.max_guesses == 6
    res = run_bench(ctx, "greedy", settings, games=50, seed=bench_seed)  # `bench --seed BENCH_SEED --games 50`
    assert float(row["mean"]) == pytest.approx(res.mean_guesses, abs=0)
    assert json.loads(row["histogram"]) == res.histogram
    assert int(row["bench_seed"]) == bench_seed
    # The report: mean of the seed means, and the best configuration.
    capsys.readouterr()
    assert main(["report", str(reference), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    means: dict = {}
    for r in rows:
        means.setdefault((r["max_guesses"], r["hard"]), []).append(float(r["mean"]))
    for s in report["summary"]:
        vals = means[(format_value(s["max_guesses"]), format_value(s["hard"]))]
        assert s["mean"] == pytest.approx(np.mean(vals))
        assert s["ci95"] == pytest.approx(12.706 * np.std(vals, ddof=1) / np.sqrt(2))
    # the grid sweeps the guess cap: a best per cap (a failed game scores the cap), none overall
    assert report["best"] is None and "not comparable" in report["best_note"]
    for b in report["best_within"]:
        cap = format_value(b["max_guesses"])
        best = min((k for k in means if k[0] == cap), key=lambda k: np.mean(means[k]))
        assert (cap, format_value(b["hard"])) == best
    assert main(["report", str(reference)]) == 0
    text = capsys.readouterr().out
    assert "best at max_guesses=6: max_guesses=6" in text and "<- best at max_guesses=9" in text
    assert "no overall best" in text


def test_rerun_is_a_no_op(reference, capsys):
    before = (reference / "results.csv").read_bytes()
    assert main([*ARGS, "--out", str(reference)]) == 0
    assert "8 already done" in capsys.readouterr().out
    assert (reference / "results.csv").read_bytes() == before


def test_killed_and_resumed_gives_the_same_rows(reference, tmp_path):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "evo_wordle", *ARGS, "--out", str(out), "--jobs", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    csv_path = out / "results.csv"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if csv_path.exists() and len(csv_path.read_text().splitlines()) >= 2:  # header + a row
                break
            time.sleep(0.01)
        assert proc.poll() is None, proc.stderr.read().decode()
        os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its pool worker, like a crash
    finally:
        proc.wait(timeout=30)
        proc.stderr.close()
    partial = read_rows(csv_path)
    assert 1 <= len(partial) < 8
    # Simulate a write torn by the crash: half a row without its newline.
    with open(csv_path, "a") as fh:
        fh.write("answers,true,1,123,5")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "torn" in result.stderr
    rows = read_rows(csv_path)
    assert len(rows) == 8
    assert keyed(rows) == keyed(read_rows(reference / "results.csv"))
    for r in partial:  # rows written before the kill are kept as they were
        assert r in rows


def test_ctrl_c_stops_workers_and_resumes(reference, tmp_path):
    out = tmp_path / "interrupted"
    cmd = [sys.executable, "-m", "evo_wordle", *ARGS, "--out", str(out), "--jobs", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    csv_path = out / "results.csv"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if csv_path.exists() and len(csv_path.read_text().splitlines()) >= 2:
                break
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        assert proc.wait(timeout=30) == 130
        assert proc.stderr.read().strip().splitlines()[-1] == "evo-wordle: interrupted"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stderr.close()
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert left == []  # no pool worker keeps running
    assert 1 <= len(read_rows(csv_path)) < 8
    assert main([*ARGS, "--out", str(out)]) == 0
    assert keyed(read_rows(csv_path)) == keyed(read_rows(reference / "results.csv"))


GA = SweepSpec(solver="ga-thesis", grid={"population": [5, 10], "mutation": [0.1]}, seeds=2, games=20)


def ga_rows(folder):
    return {(r["population"], r["seed"]): tuple(r[c] for c in COMPARED) for r in read_rows(folder / "results.csv")}


@pytest.fixture(scope="module")
def ga_local(tmp_path_factory, cache_dir):
    out = tmp_path_factory.mktemp("ga") / "local"
    run_sweep(GA, out, jobs=2)
    assert len(ga_rows(out)) == 4
    return out


def test_chunked_benches_give_the_same_rows(ga_local, tmp_path):
    out = tmp_path / "chunked"
    assert main(["sweep", "--solver", "ga-thesis", "--population", "5,10", "--mutation", "0.1", "--seeds", "2",
                 "--games", "20", "--chunks", "3", "--jobs", "2", "--quiet", "--out", str(out)]) == 0
    assert ga_rows(out) == ga_rows(ga_local)


def test_dask_matches_local(reference, ga_local, tmp_path):
    import distributed

    ga = GA
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        spec = SweepSpec.from_dict(json.loads((reference / "sweep.json").read_text()))
        outcome = run_sweep(spec, tmp_path / "dask", executor="dask", scheduler=cluster.scheduler_address)
        run_sweep(ga, tmp_path / "ga-dask", executor="dask", scheduler=cluster.scheduler_address)
    assert outcome.ran == 8
    assert keyed(read_rows(tmp_path / "dask" / "results.csv")) == keyed(read_rows(reference / "results.csv"))
    assert ga_rows(tmp_path / "ga-dask") == ga_rows(ga_local)


def test_changed_spec_is_refused(reference, capsys):
    before = (reference / "results.csv").read_bytes()
    changed = [a if a != "--games" else "--games" for a in ARGS]
    changed[changed.index("50")] = "40"
    assert main([*changed, "--out", str(reference)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "different sweep" in err and "games" in err
    assert (reference / "results.csv").read_bytes() == before


def test_bad_input_is_one_line(tmp_path, capsys):
    assert main(["sweep", "--solver", "greedy", "--set", "population=10", "--out", str(tmp_path / "x")]) == 2
    assert "no parameter 'population'" in capsys.readouterr().err
    assert main(["sweep", "--solver", "greedy", "--out", str(tmp_path / "y")]) == 2
    assert "nothing to sweep" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "not a sweep folder" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_values_and_intervals():
    assert parse_grid_arg("init=random,best") == ("init", ["random", "best"])
    assert parse_grid_arg("mutation=0,0.1") == ("mutation", [0, 0.1])
    assert parse_grid_arg("hard=true,false") == ("hard", [True, False])
    with pytest.raises(EvoWordleError):
        parse_grid_arg("population")
    assert [format_value(v) for v in (0.1, 10, True, None, "best")] == ["0.1", "10", "true", "none", "best"]
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert 2.0 < t975(60) < t975(31) < 2.042
    mean, half = mean_ci([4.0, 5.0, 6.0])
    assert mean == 5.0 and half == pytest.approx(4.303 * 1.0 / np.sqrt(3))
    assert np.isnan(mean_ci([4.0])[1])


def test_summary_with_one_seed_uses_games(tmp_path):
    spec = SweepSpec(solver="greedy", grid={"opener": ["tares"]}, seeds=1, games=30,
                     settings={"candidates": "answers", "guess_from": "candidates", "hard": False, "daily": False,
                               "max_guesses": 9, "boards": 1})
    run_sweep(spec, tmp_path, jobs=1)
    loaded, rows = load_sweep(tmp_path)
    assert loaded == spec and len(rows) == 1
    (s,) = summarize(spec, rows)
    scores = np.repeat([int(k) for k in rows[0]["histogram"]], list(rows[0]["histogram"].values()))
    assert s["ci_basis"] == "games" and len(scores) == 30
    assert s["ci95"] == pytest.approx(t975(29) * scores.std(ddof=1) / np.sqrt(30))


def test_seeds_that_scored_the_same_games_are_copies_not_an_interval_of_zero():
    """greedy (deterministic) on every answer with --seeds 2 printed "3.771 ± 0.000 (95 % interval over
    seeds)" where one seed printed "± 0.037 over games": its seeds play the same games, so they are
    copies.  Seeds whose benches scored the very same histogram now get one bench's interval over
    games, as one seed does; seeds that differ keep theirs."""
    spec = SweepSpec(solver="greedy", grid={"opener": ["tales", "slate"]}, seeds=2)
    hist = {"2": 3, "3": 10, "4": 6, "5": 1}
    other = {"2": 2, "3": 11, "4": 6, "5": 1}

    def row(opener: str, seed: int, h: dict) -> dict:
        scores = np.repeat([int(k) for k in h], list(h.values()))
        return {"opener": opener, "seed": seed, "bench_seed": seed, "games": 20, "mean": float(scores.mean()),
                "win_rate": 1.0, "fail_rate": 0.0, "worst_guesses": 5, "seconds": 0.1, "histogram": h}

    copies, varied = summarize(spec, [row("tales", 0, hist), row("tales", 1, dict(hist)),
                                      row("slate", 0, hist), row("slate", 1, other)])
    scores = np.repeat([2, 3, 4, 5], [3, 10, 6, 1])
    assert copies["ci_basis"] == "games" and copies["seeds"] == 2
    assert copies["ci95"] == pytest.approx(t975(19) * scores.std(ddof=1) / np.sqrt(20)) and copies["ci95"] > 0
    assert np.isnan(copies["fail_ci95"])
    assert varied["ci_basis"] == "seeds" and varied["ci95"] == pytest.approx(mean_ci([3.25, 3.3])[1])
    text = format_report(spec, [copies, varied])
    assert "3.250 ± 0.000" not in text and "(95 % interval over games)" in text


def test_second_writer_is_refused(reference):
    from evo_wordle.folder_lock import folder_lock

    spec = SweepSpec.from_dict(json.loads((reference / "sweep.json").read_text()))
    with folder_lock(reference):
        with pytest.raises(EvoWordleError, match="another sweep is writing"):
            run_sweep(spec, reference)
    assert run_sweep(spec, reference).skipped == 8
    assert sorted(p.name for p in reference.iterdir()) == [".lock", "results.csv", "sweep.json"]


def test_a_word_parameter_outside_the_list_is_refused_before_the_folder_exists(tmp_path, capsys):
    from evo_wordle.errors import EvoWordleError
    from evo_wordle.sweep import SweepSpec, run_sweep

    with pytest.raises(EvoWordleError, match="'zzzzz' is not an allowed word"):
        run_sweep(SweepSpec("greedy", {"opener": ["tales", "zzzzz"]}, games=3), tmp_path / "a")
    assert not (tmp_path / "a").exists()
    out = tmp_path / "b"
    assert main(["sweep", "--solver", "two-preset", "--set", "second=linum,qqqqq", "--games", "3",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'qqqqq' is not an allowed word" in err and not out.exists()


def test_a_sweep_of_several_boards_is_refused_before_the_folder_exists(tmp_path):
    """A sweep plays one board: one of several made its folder and sweep.json, then its first
    bench refused the games (a folder nothing could resume or report)."""
    from evo_wordle.game import Settings
    from evo_wordle.sweep import SweepSpec, run_sweep

    one = "a sweep plays one board, not 4: compare several boards with evo-wordle bench --boards N or "
    with pytest.raises(EvoWordleError, match="^" + one):
        run_sweep(SweepSpec("greedy", {"opener": ["tales"]}, settings=Settings(boards=4).as_dict(), games=3),
                  tmp_path / "a")
    assert not (tmp_path / "a").exists()
    assert SweepSpec("greedy", {"opener": ["tales"]}, settings=Settings().as_dict()).settings_for({}).boards == 1


def test_report_json_of_a_one_seed_sweep_is_strict_json(tmp_path, capsys, cache_dir):
    """`report --format json` printed `"fail_ci95": NaN` for a configuration with one seed (no
    interval over seeds), which strict parsers (jq, JSON.parse) refuse; it is null now."""
    out = tmp_path / "one"
    assert main(["sweep", "--solver", "naive", "--set", "opener=tares,slate", "--seeds", "1", "--games", "5",
                 "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(out), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(f"{c} in report JSON"))
    assert all(s["fail_ci95"] is None and s["ci_basis"] == "games" for s in report["summary"])
    assert report["best"] in report["summary"]


def test_report_of_a_partial_sweep_says_what_each_interval_is_over(tmp_path, capsys, cache_dir):
    """A partial sweep holds configurations with several seeds (interval over the seeds) and
    with one (interval over that bench's games): the ci95 column mixed both without saying which.
    Each row now names it, in the table, Markdown, CSV and JSON."""
    import io

    out = tmp_path / "partial"
    assert main(["sweep", "--solver", "naive", "--set", "opener=tares,slate", "--seeds", "2", "--games", "5",
                 "--out", str(out), "--quiet"]) == 0
    with open(out / "results.csv", newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, [r for r in reader if (r["opener"], r["seed"]) != ("slate", "1")]
    with open(out / "results.csv", "w", newline="") as fh:  # as if stopped before slate's second seed
        writer = csv.DictWriter(fh, fields)
        writer.writeheader()
        writer.writerows(rows)
    capsys.readouterr()
    want = {"tares": "seeds", "slate": "games"}
    assert main(["report", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[1].split()[:6] == ["opener", "seeds", "games/seed", "mean", "ci95", "ci"]
    assert {line.split()[0]: line.split()[5] for line in table[2:4]} == want
    assert main(["report", str(out), "--format", "markdown"]) == 0
    md = [[c.strip() for c in line.strip("|").split("|")] for line in capsys.readouterr().out.splitlines()
          if line.startswith("|")]
    assert {r[0]: r[md[0].index("ci over")] for r in md[2:]} == want
    assert main(["report", str(out), "--format", "csv"]) == 0
    assert {r["opener"]: r["ci_basis"] for r in csv.DictReader(io.StringIO(capsys.readouterr().out))} == want
    assert main(["report", str(out), "--format", "json"]) == 0
    assert {s["opener"]: s["ci_basis"] for s in json.loads(capsys.readouterr().out)["summary"]} == want


def test_report_counts_games_per_seed_not_seeds_times_games(tmp_path, capsys, cache_dir):
    """The report's "games" column held seeds × K (10 for 2 seeds of --games 5), read as games
    per seed.  Text and Markdown now show games/seed (5); CSV and JSON name both counts."""
    import io

    out = tmp_path / "k"
    assert main(["sweep", "--solver", "naive", "--set", "opener=tares", "--seeds", "2", "--games", "5",
                 "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[1].split()[1:3] == ["seeds", "games/seed"] and table[2].split()[1:3] == ["2", "5"]
    assert "games " not in table[1] + " "  # no bare "games" column left to misread
    assert main(["report", str(out), "--format", "markdown"]) == 0
    md = [[c.strip() for c in line.strip("|").split("|")] for line in capsys.readouterr().out.splitlines()
          if line.startswith("|")]
    assert md[0][1:3] == ["seeds", "games/seed"] and md[2][1:3] == ["2", "5"]
    assert main(["report", str(out), "--format", "csv"]) == 0
    (row,) = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert (row["seeds"], row["games_per_seed"], row["games"]) == ("2", "5", "10")
    assert main(["report", str(out), "--format", "json"]) == 0
    (s,) = json.loads(capsys.readouterr().out)["summary"]
    assert (s["seeds"], s["games_per_seed"], s["games"]) == (2, 5, 10)


def test_a_list_file_edited_between_runs_is_not_resumed_over(tmp_path, capsys, cache_dir):
    """A sweep over --allowed FILE, stopped, then resumed after FILE was edited, mixed rows of
    both lists (500 games beside 300) in one report; the folder records what the file held and
    the resume is refused in one line."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 50_000) if len(w) == 6 and w.isascii() and w.isalpha()][:60]
    lst = tmp_path / "six.txt"
    lst.write_text("\n".join(words) + "\n")
    out = tmp_path / "s"
    argv = ["sweep", "--solver", "naive", "--set", "opener=" + words[0], "--seeds", "1", "--allowed", str(lst),
            "--out", str(out), "--quiet"]
    assert main(argv) == 0
    assert main(argv) == 0  # the same lists: a no-op resume
    capsys.readouterr()
    lst.write_text("\n".join(words[:40]) + "\n")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "differs in the word lists' content" in err
    spec, rows = load_sweep(out)  # the folder still reads as a sweep
    assert spec.allowed == str(lst) and len(rows) == 1


def _capped_summary(means: dict) -> list[dict]:
    """A summary of a grid over ``max_guesses`` x ``hard`` with the given means (one seed each)."""
    return [{"max_guesses": cap, "hard": hard, "seeds": 1, "games": 10, "mean": mean, "ci95": 0.1,
             "ci_basis": "games", "fail_rate": 0.0, "win_rate": 1.0, "worst_guesses": cap, "seconds": 0.1}
            for (cap, hard), mean in means.items()]


def test_a_lower_guess_cap_is_not_called_best():
    """A grid over --max-guesses marked the lowest cap "best": a failed game scores the cap, so
    a lower cap lowers the mean by itself.  Now each cap has its best and no row is best overall."""
    spec = SweepSpec("greedy", {"max_guesses": [3, 6], "hard": [False, True]}, seeds=1)
    summary = _capped_summary({(3, False): 2.9, (3, True): 2.95, (6, False): 3.6, (6, True): 3.5})
    report = json.loads(format_report(spec, summary, "json"))
    assert report["best"] is None
    assert [(b["max_guesses"], b["hard"]) for b in report["best_within"]] == [(3, False), (6, True)]
    text = format_report(spec, summary)
    marked = [line for line in text.splitlines() if "<- " in line]
    assert [line.split()[:2] for line in marked] == [["3", "false"], ["6", "true"]]
    assert marked[0].endswith("<- best at max_guesses=3") and marked[1].endswith("<- best at max_guesses=6")
    assert "no overall best" in text and "\nbest:" not in text
    markdown = format_report(spec, summary, "markdown")
    assert markdown.count("**best at max_guesses=") == 2
    # one cap (or none swept): one best, as before
    one = SweepSpec("greedy", {"hard": [False, True]}, seeds=1)
    report = json.loads(format_report(one, [s for s in summary if s["max_guesses"] == 6], "json"))
    assert report["best"]["hard"] is True and "best_within" not in report


def test_an_empty_sweep_folder_is_a_usage_error_naming_the_argument(tmp_path, capsys, monkeypatch):
    """`report ""` read the current folder ("evo-wordle: error: . is not a sweep folder"), and
    would have reported a sweep or tune study that happened to be there: an empty DIR is refused
    as an empty --params or --out is, naming the argument."""
    monkeypatch.chdir(tmp_path)
    for argv, name in ((["report", ""], "DIR|URL"), (["plot", "heatmap", "", "--out", "h.png"], "DIR"),
                       (["plot", "lines", "", "--out", "h.png"], "DIR")):
        with pytest.raises(SystemExit) as exc:  # a usage error exits from inside parse_args
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"argument {name}: must name a folder, not ''" in err, err
    with pytest.raises(EvoWordleError, match="^a sweep folder needs a name, not an empty string$"):
        load_sweep("")


@pytest.mark.parametrize("lists", [["--allowed", "missing.txt"], ["--answers", "bad.txt"]])
def test_a_bad_word_list_is_refused_before_the_out_folder_exists(tmp_path, capsys, monkeypatch, lists):
    """Without --games and without a word parameter (an opener) the lists were first read inside
    the folder lock: the refusal left the new --out folder and its .lock behind."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.txt").write_text("abc\n")
    out = tmp_path / "out"
    assert main(["sweep", "--solver", "greedy", "--set", "problem=P0,P1", "--seeds", "1", *lists,
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("missing.txt" in err or "3 letters" in err), err
    assert not out.exists()


def test_a_grid_axis_contradicting_its_cells_problem_is_refused(tmp_path, capsys):
    """`--set problem=P0,P1 --set candidates=allowed` played P0 in the cells labelled P1 (the
    axis was applied over the preset): refused like `bench --problem P1 --candidates allowed`,
    in one line naming both, before the folder exists.  An axis that agrees is kept."""
    out = tmp_path / "out"
    for grid, said in ((["problem=P0,P1", "candidates=allowed"], "problem=P1 and candidates=allowed"),
                       (["problem=p3", "daily=false"], "problem=p3 and daily=false")):
        argv = ["sweep", "--solver", "greedy", "--seeds", "1", "--out", str(out)]
        for item in grid:
            argv += ["--set", item]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err and "would play" in err, err
        assert not out.exists()
    with pytest.raises(EvoWordleError, match=r"P1 sets candidates=answers, so that cell would play P0"):
        SweepSpec("greedy", {"problem": ["P1"], "candidates": ["allowed"]}, seeds=1).validate()
    SweepSpec("greedy", {"problem": ["P1"], "candidates": ["answers"], "guess_from": ["allowed"]}, seeds=1).validate()


def test_a_fixed_setting_a_grid_problem_would_replace_is_refused():
    """From Python, settings={"daily": True} with a grid problem=P0 played P0 (the preset replaced
    the fixed setting in every cell, silently); `sweep --daily --set problem=P0` is refused.  Now
    validate refuses it in one line naming both; a fixed setting the problem agrees with, or one
    the grid itself sweeps, is kept."""
    for fixed, grid, said in (({"daily": True}, ["P0"], "daily=true and the grid's problem=P0"),
                              ({"daily": True}, ["P2", "P1"], "daily=true and the grid's problem=P1"),
                              ({"candidates": "answers"}, ["P1", "P0"], "candidates=answers and the grid's problem=P0"),
                              ({"guess_from": "allowed"}, ["P1"], "guess_from=allowed and the grid's problem=P1")):
        with pytest.raises(EvoWordleError, match=f"^the sweep's fixed setting {said} contradict: ") as exc:
            SweepSpec("greedy", {"problem": grid}, seeds=1, settings=fixed).validate()
        assert "\n" not in str(exc.value)
    SweepSpec("greedy", {"problem": ["P2", "P3"]}, seeds=1, settings={"daily": True, "hard": True}).validate()
    SweepSpec("greedy", {"problem": ["P1"], "guess_from": ["allowed"]}, seeds=1,
              settings={"guess_from": "allowed"}).validate()


def test_the_spec_leaves_out_a_file_value_no_configuration_reads_and_records_not_where_it_came_from(capsys):
    """One place owns the rule for ``sweep --params FILE``'s values (it was checked twice, in the
    command and again by validate): the spec knows which keys the file gave.  Such a key no
    configuration reads is left out with one warning naming the file; the same key asked for in
    the grid is refused; sweep.json records neither the file nor its keys, and refuses them."""
    grid = {"population": [4], "selection": ["roulette"], "tournament_size": [7], "mutation": [0.1, 0.2]}
    spec = SweepSpec(solver="ga-thesis", grid=dict(grid), seeds=1, games=2, params_file="best.json",
                     file_keys=("population", "selection", "tournament_size"))
    spec.validate()
    assert capsys.readouterr().err == (
        "evo-wordle: warning: parameter file best.json sets tournament_size=7, which no configuration reads "
        "(tournament_size is for tournament selection, but ga-thesis selects parents by roulette and chooses its "
        "guess by roulette): left out of the grid\n")
    assert spec.grid == {"population": [4], "selection": ["roulette"], "mutation": [0.1, 0.2]}
    assert "params_file" not in spec.as_dict() and "file_keys" not in spec.as_dict()
    with pytest.raises(EvoWordleError, match="grid key 'tournament_size' .* so no run would read it"):
        SweepSpec(solver="ga-thesis", grid=dict(grid), seeds=1, games=2).validate()
    with pytest.raises(EvoWordleError, match="not a sweep specification: unexpected key 'file_keys'"):
        SweepSpec.from_dict({**spec.as_dict(), "file_keys": ["population"]})
