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


def test_an_empty_opener_flag_asks_for_the_own_best_word_as_from_python(ctx, capsys):
    # `--opener ""` is not "no flag": greedy opens with its own best word (RATES), as
    # run_bench(..., {"opener": ""}) does, in bench, solve and compare alike
    from evo_wordle.bench import run_bench

    py = run_bench(ctx, "greedy", Settings(), ctx.words.answer_index[:40], 0, {"opener": ""})
    assert main(["bench", "--solver", "greedy", "--opener", "", "--games", "40", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["settings"]["opener"] == "rates" == py.params["opener"]
    assert main(["solve", "crane", "--solver", "greedy", "--opener", ""]) == 0
    first = capsys.readouterr().out.splitlines()[1].split()[:5]  # tiles such as RY AY TB EY SB
    assert "".join(t[0] for t in first) == "RATES"
    assert main(["compare", "--solvers", "greedy,naive", "--opener", "", "--games", "20", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["solver"]: r["settings"]["opener"] for r in rows} == {"greedy": "rates", "naive": "tares"}
