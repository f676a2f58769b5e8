"""Every tracked Markdown table under experiments/results/ that a script builds from data it
also tracks (a sweep folder or a JSON) is what that script's own table function writes from the
tracked data today, byte for byte: a number retyped by hand, a table copied without its data, or
a format change without regenerating the table fails here.  No game is played: each table is
rebuilt from the files beside it (openers.md also needs each opener's P0 bits, from the lists)."""

from __future__ import annotations

import json
import subprocess
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
    "evolved_strategies.md": lambda ctx: load_experiment("evolved_strategies").markdown(
        data("evolved_strategies.json")),
    "fixed_openings.md": lambda ctx: load_experiment("fixed_openings").table(data("fixed_openings.json")),
    "fixed_openings_game.md": lambda ctx: load_experiment("fixed_openings").table(data("fixed_openings_game.json")),
    "ga-thesis-tables.md": lambda ctx: load_experiment("ga_thesis_tables").markdown(
        data("ga-thesis-tables.json")) + "\n",
    "ga-tuning-stage3.md": lambda ctx: load_experiment("ga_tuning").markdown(data("ga-tuning-stage3.json")) + "\n",
}

#: tracked tables whose data is not tracked (nothing to rebuild them from), and why
DATA_NOT_TRACKED = {
    "convergence.md": "convergence.json keeps the bench means, not the per-guess medians of the table",
    "p0_split_compare.md": "split_compare.json is not tracked",
    "prior_bound.md": "prior_bound.json is not tracked",
    "prior_bound_strict.md": "prior_bound.json (strict run) is not tracked",
    "prior_retune.md": "prior_bound.json (retune run) is not tracked",
    "rank_openers.md": "rank_openers.json is not tracked",
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


def test_every_tracked_table_is_rebuilt_here_or_named_as_lacking_its_data():
    # sweep reports (<sweep>/table.md) are tests/test_study_tables.py's
    tables = {t for t in tracked_markdown() if not t.endswith("/table.md")}
    assert tables, "no tracked tables found"
    unknown = tables - set(REBUILD) - set(DATA_NOT_TRACKED)
    assert not unknown, f"tracked tables with no rebuild test: {sorted(unknown)} (add them to REBUILD)"
    gone = (set(REBUILD) | set(DATA_NOT_TRACKED)) - tables
    assert not gone, f"listed here but not tracked: {sorted(gone)}"


@pytest.mark.parametrize("name", sorted(REBUILD))
def test_a_tracked_table_is_what_its_script_writes_from_the_tracked_data(name, ctx):
    expected = REBUILD[name](ctx)
    assert (RESULTS / name).read_text(encoding="utf-8") == expected, (
        f"experiments/results/{name} differs from what its script builds from the tracked data: regenerate "
        "table and data together (experiments/reproduce.py --write-docs) instead of editing the table")
