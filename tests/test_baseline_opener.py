"""One baseline opener (TALES) for greedy and ga, named in every output that summarises games."""

from __future__ import annotations

import csv
import json

from evo_wordle.cli import main
from evo_wordle.game import GameState, Settings
from evo_wordle.solvers import make_solver
from evo_wordle.solvers.base import BASELINE_OPENER


def _first(ctx, name, settings, **params):
    solver = make_solver(name, ctx, settings, **params)
    return ctx.words.allowed[solver.choose(GameState.start(ctx, settings))]


def test_greedy_and_ga_share_the_baseline_opener(ctx):
    assert BASELINE_OPENER == "tales"
    assert _first(ctx, "greedy", Settings()) == "tales"
    assert _first(ctx, "ga", Settings()) == "tales"
    # the greedy's own best word is another one: the default is a choice, not its argmax
    assert _first(ctx, "greedy", Settings(), opener="") == "rates"
    # answers known: TALES is no answer, so greedy opens with its own best candidate
    assert _first(ctx, "greedy", Settings(candidates="answers")) != "tales"


def test_bench_text_json_csv_and_compare_name_the_opener(ctx, tmp_path, capsys):
    out = tmp_path / "g.csv"
    assert main(["bench", "--solver", "greedy", "--games", "20", "--csv", str(out)]) == 0
    assert "solver:       greedy, opener TALES" in capsys.readouterr().out
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 20 and {r["opener"] for r in rows} == {"tales"}
    assert all(r["sequence"].split()[0] == r["opener"] for r in rows)
    assert main(["bench", "--solver", "naive", "--opener", "slate", "--games", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["opener"] == "slate"
    assert main(["compare", "--solvers", "greedy,naive", "--games", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    greedy = next(ln for ln in lines if " greedy " in ln)
    assert "TALES" in greedy.split()
    assert "opener" in lines[1]
