"""Every tracked Markdown table under experiments/results/ that a script builds from data it
also tracks (a sweep folder or a JSON) is what that script's own table function writes from the
tracked data today, byte for byte: a number retyped by hand, a table copied without its data, or
a format change without regenerating the table fails here.  No game is played: each table is
rebuilt from the files beside it (openers.md also needs each opener's P0 bits, from the lists)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from evo_wordle.sweep import load_sweep, summarize

from .experiment_scripts import load_experiment

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "experiments" / "results"


def summary(sweep: str) -> list[dict]:
    return summarize(*load_sweep(RESULTS / sweep))


def by(sweep: str, key: str) -> dict[str, dict]:
    return {s[key]: s for s in summary(sweep)}


def data(name: str):
    return json.loads((RESULTS / name).read_text(encoding="utf-8"))


def openers(ctx) -> str:
    script = load_experiment("openers")
    results = {solver: by(f"openers-{solver}", "opener") for solver in ("greedy", "naive")}
    words = list(results["greedy"])
    return script.comparison(results, words, script.top_naive_starters(ctx),
                             dict(zip(words, ctx.entropy(words))))


#: tracked table -> how its script rebuilds it from tracked data (ctx for the lists' entropies)
REBUILD = {
    "population/comparison.md": lambda ctx: load_experiment("population_table").comparison(summary("population")),
    "mutation/comparison.md": lambda ctx: load_experiment("mutation_table").comparison(summary("mutation")),
    "init/comparison.md": lambda ctx: load_experiment("init_study").comparison(summary("init")),
    "problems.md": lambda ctx: load_experiment("problems").comparison(
        {s: by(f"problems-{s}", "problem") for s, _, _ in load_experiment("problems").SOLVERS}),
    "openers.md": openers,
    "convergence.md": lambda ctx: load_experiment("convergence").markdown(data("convergence.json")),
    "p0_split_compare.md": lambda ctx: load_experiment("split_compare").markdown(data("p0_split_compare.json")),
    "assist_estimate.md": lambda ctx: load_experiment("assist_estimate").markdown(data("assist_estimate.json")),
    "prior_bound.md": lambda ctx: load_experiment("prior_bound").markdown(data("prior_bound.json")),
    "prior_bound_strict.md": lambda ctx: load_experiment("prior_bound").markdown(data("prior_bound_strict.json")),
    "rank_openers.md": lambda ctx: load_experiment("rank_openers").markdown(data("rank_openers.json")),
    "prior_retune.md": lambda ctx: load_experiment("prior_bound").markdown(data("prior_retune.json")),
    "evolved_strategies.md": lambda ctx: load_experiment("evolved_strategies").markdown(
        data("evolved_strategies.json")),
    "fixed_openings.md": lambda ctx: load_experiment("fixed_openings").table(data("fixed_openings.json")),
    "fixed_openings_game.md": lambda ctx: load_experiment("fixed_openings").table(data("fixed_openings_game.json")),
    "ga-thesis-tables.md": lambda ctx: load_experiment("ga_thesis_tables").markdown(
        data("ga-thesis-tables.json")) + "\n",
    "ga-tuning-stage3.md": lambda ctx: load_experiment("ga_tuning").markdown(data("ga-tuning-stage3.json")) + "\n",
}

SWEEP_FILES = ("sweep.json", "results.csv", "table.md", "summary.json")


def sweeps(*names: str) -> list[str]:
    return [f"{n}/{f}" for n in names for f in SWEEP_FILES]


#: tracked table -> the tracked data REBUILD reads for it (reproduce.py must copy them together)
SOURCES = {
    "population/comparison.md": sweeps("population"),
    "mutation/comparison.md": sweeps("mutation"),
    "init/comparison.md": sweeps("init"),
    "problems.md": sweeps("problems-greedy", "problems-naive", "problems-ga-thesis"),
    "openers.md": sweeps("openers-greedy", "openers-naive"),
    "convergence.md": ["convergence.json"],
    "p0_split_compare.md": ["p0_split_compare.json"],
    "assist_estimate.md": ["assist_estimate.json"],
    "prior_bound.md": ["prior_bound.json"],
    "prior_bound_strict.md": ["prior_bound_strict.json"],
    "prior_retune.md": ["prior_retune.json"],
    "rank_openers.md": ["rank_openers.json"],
    "evolved_strategies.md": ["evolved_strategies.json"],
    "fixed_openings.md": ["fixed_openings.json"],
    "fixed_openings_game.md": ["fixed_openings_game.json"],
    "ga-thesis-tables.md": ["ga-thesis-tables.json"],
    "ga-tuning-stage3.md": ["ga-tuning-stage3.json"],
}

def tracked_markdown() -> list[str]:
    """The .md files git tracks under experiments/results, relative to it (without git: those present)."""
    try:
        out = subprocess.run(["git", "ls-files", "--", "experiments/results"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
        paths = [ROOT / p for p in out if p.endswith(".md")]
    except (OSError, subprocess.CalledProcessError):
        paths = list(RESULTS.rglob("*.md"))
    return sorted(p.relative_to(RESULTS).as_posix() for p in paths)


def test_every_tracked_table_is_rebuilt_here():
    # sweep reports (<sweep>/table.md) are tests/test_study_tables.py's; a new table comes with its data
    tables = {t for t in tracked_markdown() if not t.endswith("/table.md")}
    assert tables, "no tracked tables found"
    unknown = tables - set(REBUILD)
    assert not unknown, f"tracked tables with no rebuild test: {sorted(unknown)} (track their data; add to REBUILD)"
    gone = set(REBUILD) - tables
    assert not gone, f"listed here but not tracked: {sorted(gone)}"


@pytest.mark.parametrize("name", sorted(REBUILD))
def test_a_tracked_table_is_what_its_script_writes_from_the_tracked_data(name, ctx):
    expected = REBUILD[name](ctx)
    assert (RESULTS / name).read_text(encoding="utf-8") == expected, (
        f"experiments/results/{name} differs from what its script builds from the tracked data: regenerate "
        "table and data together (experiments/reproduce.py --write-docs) instead of editing the table")


def test_reproduce_writes_each_tracked_table_together_with_the_data_it_is_built_from():
    # reproduce.py --write-docs copies a run's `outputs`: a table copied without its data (as openers'
    # summary.json once was, beside another run's results.csv) leaves the tracked pair disagreeing
    assert set(SOURCES) == set(REBUILD)
    sys.path.insert(0, str(ROOT / "experiments"))  # as tests/test_registry.py imports it (its dataclasses
    try:                                             # need a module in sys.modules)
        registry = importlib.import_module("registry")
    finally:
        sys.path.remove(str(ROOT / "experiments"))
    runs = registry.load().runs.values()
    copied = set()
    for run in runs:
        written = {dst.removeprefix("experiments/results/") for dst in run.outputs.values()}
        for table in written & set(SOURCES):
            copied.add(table)
            missing = [f for f in SOURCES[table] if f not in written]
            assert not missing, f"run {run.id} writes {table} without its data {missing}"
    assert copied == set(SOURCES), f"no run writes {sorted(set(SOURCES) - copied)}"


def test_the_problems_table_says_what_each_columns_interval_is_over():
    """problems.md printed a bare ± in every column: ga-thesis's is over its 3 seeds, greedy's and
    naive's over one deterministic run's 2,309 games, so a narrower ga-thesis ± (P3: 0.025 against
    0.032) read as a more precise figure of the same kind.  Each column header now names its basis."""
    problems = load_experiment("problems")
    header = problems.comparison({s: by(f"problems-{s}", "problem") for s, _, _ in problems.SOLVERS}).splitlines()[0]
    assert "greedy: mean ± 95 % over one run's games" in header and "naive: mean ± 95 % over one run's games" in header
    assert "ga-thesis: mean ± 95 % over 3 seeds" in header
    mixed = [{"ci_basis": "seeds", "seeds": 3}, {"ci_basis": "games", "seeds": 1}]
    assert problems.interval_basis(mixed) == "over seeds or games (mixed)"
