"""Progress with an ETA on stderr when output is piped (bench, compare, sweep, evolve); --quiet."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.progress import INTERVAL_VARIABLE, _Lines, interval, progress_bar

LINE = re.compile(r"^(bench \S+|sweep|evolve-strategy).*: \d+/\d+ \w+ \(\d+ %\), \S+ elapsed, ETA \S+$")


def progress_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if LINE.match(line)]


@pytest.fixture
def every_update(monkeypatch):
    """A progress line at every update (the default is one every 5 s, none for short runs)."""
    monkeypatch.setenv(INTERVAL_VARIABLE, "0")


def test_piped_bench_prints_lines_to_stderr_only():
    env = {**os.environ, INTERVAL_VARIABLE: "0"}
    cmd = [sys.executable, "-m", "evo_wordle", "bench", "--solver", "letter-frequency", "--games", "12", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["games"] == 12  # stdout is the result and nothing else
    lines = progress_lines(proc.stderr)
    assert lines and lines[-1].startswith("bench letter-frequency: 12/12 games (100 %)")
    assert "\r" not in proc.stderr  # whole lines, not a redrawn bar
    quiet = subprocess.run([*cmd, "--quiet"], capture_output=True, text=True, env=env, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_compare_and_parallel_bench_lines(capsys, every_update):
    assert main(["compare", "--solvers", "greedy,letter-frequency", "--opener", "tales", "--games", "8"]) == 0
    out, err = capsys.readouterr()
    assert not progress_lines(out)
    assert {line.split(":")[0] for line in progress_lines(err)} == {"bench greedy", "bench letter-frequency"}
    assert main(["bench", "--solver", "greedy", "--opener", "tales", "--games", "30", "--jobs", "2"]) == 0
    out, err = capsys.readouterr()
    assert not progress_lines(out) and progress_lines(err)[-1].startswith("bench greedy: 30/30 games")
    assert main(["compare", "--solvers", "greedy", "--opener", "tales", "--games", "8", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_compare_labels_ga_search_on_boards_as_its_row(capsys, every_update):
    """ga-search on several boards plays the summed-entropy policy with its search: its lines
    carry the row's name, not the policy's."""
    assert main(["compare", "--solvers", "summed-entropy,ga-search", "--boards", "2", "--games", "2", "--seed", "1",
                 "--candidates", "answers", "--guess-from", "allowed", "--search-population", "4"]) == 0
    out, err = capsys.readouterr()
    labels = [line.split(":")[0] for line in progress_lines(err)]
    assert set(labels) == {"bench summed-entropy", "bench ga-search"}
    assert labels[-1] == "bench ga-search" and " ga-search " in out  # the second row, as the table names it


def test_compare_labels_a_multi_board_strategy_file_as_its_row(capsys, every_update):
    """A ``strategy`` row replaying a multi-board file plays the summed-entropy policy: its lines
    carry the row's name, so two rows of that policy are told apart."""
    assert main(["compare", "--solvers", "strategy,summed-entropy", "--strategy", "dordle-evolved",
                 "--boards", "2", "--candidates", "answers", "--guess-from", "allowed", "--max-guesses", "7",
                 "--split", "test", "--games", "2", "--seed", "1"]) == 0
    labels = [line.split(":")[0] for line in progress_lines(capsys.readouterr().err)]
    assert labels[0] == "bench strategy" and set(labels) == {"bench strategy", "bench summed-entropy"}


def test_sweep_lines(capsys, tmp_path, every_update):
    args = ["sweep", "--solver", "greedy", "--candidates", "answers",
            "--set", "max_guesses=6,9", "--seeds", "1", "--games", "10", "--out", str(tmp_path / "s"), "--jobs", "1"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert not progress_lines(out)
    assert progress_lines(err)[-1].startswith("sweep: 2/2 benches (100 %)")
    assert main([*args[:-4], "--out", str(tmp_path / "q"), "--jobs", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_evolve_lines(capsys, tmp_path, every_update):
    args = ["evolve-strategy", "--candidates", "answers", "--guess-from", "allowed", "--train", "10",
            "--holdout", "5", "--mu", "2", "--lambda", "2", "--generations", "2", "--seed", "1",
            "--out", str(tmp_path / "best.json"), "--checkpoint", str(tmp_path / "ck"), "--json"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    json.loads(out)
    assert progress_lines(err)[-1].startswith("evolve-strategy: 2/2 generations (100 %)")


def test_short_runs_print_nothing_and_lines_are_whole():
    sink = io.StringIO()
    lines = _Lines(sink)
    lines.write("\rbench ga: 1/2 games   ")
    lines.write("\r")
    lines.write("\n")
    assert sink.getvalue() == "bench ga: 1/2 games\n"
    with progress_bar(3, "bench x", "games") as bar:  # default interval: too short to show
        bar.update(3)


def test_the_last_line_is_not_printed_twice(monkeypatch, every_update):
    """Closing the bar printed the final count again when its last update had printed it (a
    slow run: every generation or bench past the interval ended on two "N/N (100 %)" lines)."""
    sink = io.StringIO()
    monkeypatch.setattr(sys, "stderr", sink)
    with progress_bar(2, "bench x", "games") as bar:
        bar.update(1)
        bar.update(1)
    lines = progress_lines(sink.getvalue())
    assert [line.split(" (")[0] for line in lines] == ["bench x: 0/2 games", "bench x: 1/2 games", "bench x: 2/2 games"]


def test_interval_setting(monkeypatch):
    monkeypatch.delenv(INTERVAL_VARIABLE, raising=False)
    assert interval() == 5.0
    monkeypatch.setenv(INTERVAL_VARIABLE, "0.5")
    assert interval() == 0.5
    for bad in ("soon", "-1", "inf"):
        monkeypatch.setenv(INTERVAL_VARIABLE, bad)
        with pytest.raises(EvoWordleError, match=INTERVAL_VARIABLE):
            interval()


def test_bad_interval_is_one_line(capsys, monkeypatch):
    monkeypatch.setenv(INTERVAL_VARIABLE, "soon")
    assert main(["bench", "--solver", "greedy", "--opener", "tales", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and INTERVAL_VARIABLE in err
