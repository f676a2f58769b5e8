"""Every tracked sweep table (experiments/results/<study>/table.md) is what
:func:`evo_wordle.sweep.format_report` writes today from the tracked sweep beside it
(sweep.json + results.csv), as experiments/_study.py writes it: a hand edit of a table, or a
report format change without regenerating the tables, fails here.  So is each tracked
summary.json: a summary copied from one run beside the data of another fails too."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from evo_wordle.sweep import format_report, load_sweep, summarize

from .experiment_scripts import load_experiment

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "experiments" / "results"


def tracked_tables() -> list[Path]:
    """The table.md files git tracks under experiments/results (a checkout without git: those present)."""
    try:
        out = subprocess.run(["git", "ls-files", "--", "experiments/results/*/table.md"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return sorted(RESULTS.glob("*/table.md"))
    return sorted(ROOT / p for p in out)


TABLES = tracked_tables()


def test_the_study_tables_are_found():
    # the eight sweeps the studies track (population, mutation, init, openers x2, problems x3)
    assert len(TABLES) >= 8 and all((t.parent / "sweep.json").is_file() for t in TABLES)


@pytest.mark.parametrize("table", TABLES, ids=[t.parent.name for t in TABLES])
def test_a_tracked_study_table_is_what_format_report_writes_from_its_tracked_sweep(table):
    spec, rows = load_sweep(table.parent)
    assert rows, f"{table.parent} has no results"
    expected = format_report(spec, summarize(spec, rows), "markdown") + "\n"
    assert table.read_text(encoding="utf-8") == expected, (
        f"{table.relative_to(ROOT)} differs from format_report of its sweep.json/results.csv: regenerate it "
        f"(evo-wordle report {table.parent.relative_to(ROOT)} --format markdown > {table.relative_to(ROOT)}) "
        "instead of editing it by hand")


@pytest.mark.parametrize("table", TABLES, ids=[t.parent.name for t in TABLES])
def test_a_tracked_sweep_summary_is_what_the_study_writes_from_its_tracked_sweep(table):
    # every sweep the studies track keeps its summary.json (experiments/_study.py's sweep_files), and
    # reproduce.py --write-docs copies it together with the sweep.json and results.csv it came from
    path = table.parent / "summary.json"
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing: the sweep's summary is tracked with its data"
    spec, rows = load_sweep(table.parent)
    expected = load_experiment("_study").sweep_files(spec, summarize(spec, rows))["summary.json"]
    assert path.read_text(encoding="utf-8") == expected, (
        f"{path.relative_to(ROOT)} differs from the summary of its sweep.json/results.csv: it came from "
        "another run; regenerate it with the data (experiments/reproduce.py --write-docs)")
