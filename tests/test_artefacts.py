"""Settings travel with strategy and tree files; replayed trees obey the game's rules; one
sampling rule picks the same puzzles and game seeds in every entry point."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from evo_wordle.artefacts import made_for, replay_kind
from evo_wordle.bench import game_plan, run_bench
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.search import load_tree, tree_made_for
from evo_wordle.evolve.strategy import (
    Strategy,
    check_tree,
    read_strategy_file,
    resolve_strategy_path,
    save_strategy,
    shipped_strategies,
)
from evo_wordle.game import Settings, illegal_move
from evo_wordle.solvers.base import solver_label
from evo_wordle.tune import load_params

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "data" / "strategies"
P1A = Settings(candidates="answers", guess_from="allowed")


def bench_json(capsys, *argv) -> tuple[dict, str]:
    assert main(["bench", *argv, "--json"]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


# -- settings travel with the files ---------------------------------------------------------


def test_every_shipped_file_records_its_game(ctx):
    names = shipped_strategies()
    assert {"answers-known-salet", "answers-known-hard-salet", "original-answers-salet"} <= set(names)
    for name in names:
        path = resolve_strategy_path(name)  # a one-board strategy, or a multi-board policy's parameter file
        record = read_strategy_file(name).made_for if replay_kind(path) == "strategy" else load_params(path)["made_for"]
        assert record is not None, name
        assert record["allowed_sha256"] == ctx.words.digest
    for tree in SHIPPED.glob("*.tree"):
        assert tree_made_for(tree) == read_strategy_file(tree.with_suffix(".json")).made_for


def test_replay_without_flags_equals_replay_with_own_settings(capsys):
    own, err = bench_json(capsys, "--strategy", str(SHIPPED / "answers-known-salet.json"))
    assert err == ""  # nothing overridden, nothing to warn about
    f = read_strategy_file("answers-known-salet")
    assert own["mean_guesses"] == pytest.approx(f.provenance["mean_guesses"])  # the file's own figure
    assert own["settings"]["candidates"] == "answers" and own["settings"]["guess_from"] == "allowed"
    flagged, err = bench_json(capsys, "--strategy", "answers-known-salet", "--candidates", "answers",
                              "--guess-from", "allowed")
    assert err == "" and flagged["mean_guesses"] == own["mean_guesses"]
    assert flagged["histogram"] == own["histogram"]


def test_named_file_uses_its_own_answer_list(capsys):
    own, err = bench_json(capsys, "--strategy", "original-answers-salet")
    assert err == "" and own["games"] == 2315
    assert own["mean_guesses"] == pytest.approx(read_strategy_file("original-answers-salet").provenance["mean_guesses"])


def test_override_prints_one_line_warning(capsys):
    out, err = bench_json(capsys, "--strategy", "answers-known-salet", "--hard", "--games", "40")
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "warning" in lines[0] and "hard False -> True" in lines[0]
    assert out["settings"]["hard"] is True
    # the hard game is played by the genome (its tree is for the normal game), legally
    assert out["settings"]["guess_from"] == "allowed"


def test_old_file_without_settings_warns(tmp_path, capsys):
    path = tmp_path / "old.json"
    save_strategy(path, Strategy(opener="crane", steepness=0.0))
    _, err = bench_json(capsys, "--strategy", str(path), "--games", "5")
    assert "records no settings" in err and len(err.strip().splitlines()) == 1


def test_list_mismatch_under_a_tree_is_an_error(capsys):
    assert main(["bench", "--strategy", "answers-known-salet", "--answers", "original", "--games", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "answer list" in err and "Traceback" not in err


def test_unknown_strategy_name_lists_the_shipped_ones(capsys):
    assert main(["bench", "--strategy", "no-such-strategy", "--games", "5"]) == 2
    err = capsys.readouterr().err
    assert "answers-known-salet" in err and "\n" not in err.strip()


def test_strategy_files_ship_in_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"]["evo_wordle.strategies"] == "data/strategies"
    assert "evo_wordle.strategies" in config["packages"]
    patterns = config["package-data"]["evo_wordle.strategies"]
    shipped = {p.name for p in SHIPPED.iterdir() if p.suffix in (".json", ".tree")}
    assert shipped and all(any(Path(name).match(pat) for pat in patterns) for name in shipped)
    installed = {p.name for p in resources.files("evo_wordle.strategies").iterdir()}
    assert shipped <= installed


# -- replayed trees obey the rules --------------------------------------------------------


def test_illegal_move_uses_the_hard_mode_rule(ctx):
    hard = P1A.with_(hard=True)
    salet, aback = ctx.words.index("salet"), ctx.words.index("aback")
    history = ((salet, int(ctx.table[salet, aback])),)  # A yellow, the rest grey
    assert "hard mode" in illegal_move(ctx, hard, history, ctx.words.index("brond"))  # drops the A
    assert illegal_move(ctx, hard, history, ctx.words.index("aback")) is None
    assert illegal_move(ctx, P1A, history, ctx.words.index("brond")) is None  # fine outside hard mode
    crane, cloth = ctx.words.index("crane"), ctx.words.index("cloth")
    green_c = ((crane, int(ctx.table[crane, cloth])),)  # C green
    assert "hard mode" in illegal_move(ctx, hard, green_c, ctx.words.index("octal"))  # C moved away
    assert illegal_move(ctx, hard, green_c, ctx.words.index("clout")) is None
    strict = Settings(candidates="answers", guess_from="candidates")
    assert "possible" in illegal_move(ctx, strict, history, ctx.words.index("brond"))


def test_tree_breaking_hard_mode_is_refused(ctx, capsys):
    tree = SHIPPED / "answers-known-salet.tree"
    assert len(load_tree(ctx, tree, P1A)) > 2000  # legal in its own game
    with pytest.raises(EvoWordleError, match="hard mode"):
        load_tree(ctx, tree, P1A.with_(hard=True))
    argv = ["bench", "--solver", "ga-search", "--tree", str(tree), "--candidates", "answers",
            "--guess-from", "allowed", "--hard"]
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and "illegal" in out.err and "Traceback" not in out.err
    assert [ln for ln in out.err.splitlines() if "error" in ln] == [out.err.splitlines()[-1]]


def test_strategy_tree_moves_are_checked(ctx, tmp_path):
    hard = P1A.with_(hard=True)
    with pytest.raises(EvoWordleError, match="hard mode"):
        check_tree(ctx, hard, {"": "salet", "salet:01000": "brond"}, "t")
    assert check_tree(ctx, hard, {"": "salet", "salet:01000": "aback"}, "t")["salet:01000"] == ctx.words.index("aback")
    with pytest.raises(EvoWordleError, match="cannot happen"):
        check_tree(ctx, P1A, {"salet:22222,crane:00000": "brond"}, "t")
    # a file whose stored game is hard mode, with an illegal tree, is refused when played
    path = tmp_path / "bad.json"
    save_strategy(path, Strategy(), None, {"": "salet", "salet:01000": "brond"}, hard, ctx.words)
    assert main(["bench", "--strategy", str(path), "--games", "3"]) == 2


def test_tree_file_records_its_game(ctx, tmp_path, capsys):
    from evo_wordle.evolve.search import write_tree

    path = tmp_path / "t.tree"
    write_tree(ctx, path, {ctx.words.index("aback"): [ctx.words.index("aback")]}, P1A)
    assert tree_made_for(path) == made_for(P1A, ctx.words)
    assert main(["bench", "--solver", "ga-search", "--tree", str(path), "--answers", "original", "--games", "3"]) == 2
    assert "answer list" in capsys.readouterr().err


# -- one sampling rule ------------------------------------------------------------------------


def test_same_seed_and_games_pick_the_same_games_everywhere(ctx, tmp_path, capsys, monkeypatch):
    """run_bench, CLI bench, compare, a sweep row, the histogram and convergence plots' data
    pick the same puzzles and per-game seeds for one seed and number of games."""
    games, seed = 25, 4
    answers, _ = game_plan(ctx.words.answer_index, games, seed)
    words = [ctx.words.allowed[int(a)] for a in answers]
    ref = run_bench(ctx, "random", Settings(), seed=seed, games=games)  # seeded per game
    assert [r.answer for r in ref.records] == answers.tolist()
    # CLI bench (per-game CSV) and compare
    csv = tmp_path / "g.csv"
    assert main(["bench", "--solver", "random", "--games", str(games), "--seed", str(seed), "--csv", str(csv),
                 "--json"]) == 0
    bench = json.loads(capsys.readouterr().out)
    rows = [ln.split(",") for ln in csv.read_text().splitlines()[1:]]
    assert [r[0] for r in rows] == words and bench["mean_guesses"] == ref.mean_guesses
    assert main(["compare", "--solvers", "random,greedy", "--games", str(games), "--seed", str(seed), "--json"]) == 0
    compared = {r["solver"]: r for r in json.loads(capsys.readouterr().out)}
    assert compared["random"]["mean_guesses"] == ref.mean_guesses
    # the histogram figure's data is `compare --seed 4 --games 25`
    from evo_wordle.plots.compare import compare_data

    data = compare_data(ctx, ["random", "greedy"], Settings(), games=games, seed=seed)
    assert data["random"]["mean"] == ref.mean_guesses
    assert data["greedy"]["mean"] == compared["greedy"]["mean_guesses"]
    # a sweep row is `bench --seed BENCH_SEED --games 25`
    import csv as csvlib

    out = tmp_path / "sweep"
    assert main(["sweep", "--solver", "random", "--set", "max_guesses=6,9", "--seeds", "2", "--games", str(games),
                 "--seed", str(seed), "--quiet", "--out", str(out)]) == 0
    capsys.readouterr()
    with open(out / "results.csv", newline="") as fh:
        swept = list(csvlib.DictReader(fh))
    assert len(swept) == 4
    for row in swept:
        settings = Settings(max_guesses=int(row["max_guesses"]))
        replay = run_bench(ctx, "random", settings, seed=int(row["bench_seed"]), games=games)
        assert float(row["mean"]) == replay.mean_guesses
    # the convergence figure: the baseline and run 0 play `bench --seed 4 --games 25`, run r the
    # game seeds of `bench --repeat`'s run r, all on the same puzzles
    import evo_wordle.plots.convergence as convergence
    from evo_wordle.bench import derived_seeds

    calls = []
    real = convergence.play_games

    def spy(ctx_, solver, settings, params, answers_, seed_=0):
        calls.append((solver_label(solver), np.asarray(answers_).tolist(), seed_))
        return real(ctx_, solver, settings, params, answers_, seed_)

    monkeypatch.setattr(convergence, "play_games", spy)
    convergence.convergence_data(ctx, "random", Settings(), runs=3, games=games, seed=seed, baseline="greedy")
    assert calls == [*(("random", answers.tolist(), s) for s in derived_seeds(seed, 3)),
                     ("greedy", answers.tolist(), seed)]


def test_compare_refuses_rows_of_different_games_unless_mixed(capsys):
    argv = ["compare", "--solvers", "strategy,greedy", "--strategy", "answers-known-salet", "--games", "30"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "not play the same game" in err and "--mixed" in err
    assert main([*argv, "--mixed", "--json"]) == 0
    out = capsys.readouterr()
    rows = {r["solver"]: r for r in json.loads(out.out)}
    assert "MIXED" in out.err
    assert rows["strategy"]["settings"]["candidates"] == "answers"
    assert rows["greedy"]["settings"]["candidates"] == "allowed"
    assert rows["strategy"]["game"] != rows["greedy"]["game"]


def test_compare_mixed_rows_of_different_board_counts_are_refused_in_plain_words(capsys):
    """`compare --solvers greedy,strategy --strategy quordle-evolved --mixed` handed Quordle board
    sets to greedy and failed with "answer array([10540, 12029, 56, 3768]) is neither a word nor a
    whole-number index"; rows of different board counts are now refused, saying so."""
    argv = ["compare", "--solvers", "greedy,strategy", "--strategy", "quordle-evolved", "--games", "5", "--mixed"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "different numbers of boards (greedy: 1, strategy: 4)" in err[-1] and "array" not in err[-1]


def test_compare_rows_print_their_game(capsys):
    assert main(["compare", "--solvers", "strategy,greedy", "--strategy", "answers-known-salet", "--games", "30",
                 "--candidates", "answers", "--guess-from", "allowed"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and "MIXED" not in out.out
    body = [ln for ln in out.out.splitlines() if ln.strip().startswith(("1 ", "2 "))]
    assert len(body) == 2 and all("candidates=answers guess_from=allowed" in ln for ln in body)
