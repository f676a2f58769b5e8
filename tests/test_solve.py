"""``evo-wordle solve``: tiles per guess, the log file, several boards, one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle import patterns
from evo_wordle.boards import SummedEntropy, play_boards
from evo_wordle.cli import main
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers import SOLVERS, make_solver
from evo_wordle.solvers.entropy_solvers import NaiveSolver

P1 = ["--problem", "P1"]


def run_cli(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse usage errors
        return int(exc.code)


def test_solve_prints_each_guess_and_ends_with_the_answer(ctx, capsys):
    assert main(["solve", "crane", "--solver", "greedy", *P1]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    settings = Settings.problem("P1")
    ref = play(make_solver("greedy", ctx, settings), GameState.start(ctx, settings), ctx.words.index("crane"), settings)
    assert out.pop(0) == patterns.PLAIN_LEGEND  # piped tiles come with their legend first
    assert len(out) == len(ref.guesses) + 1
    state = GameState.start(ctx, settings)
    for line, g in zip(out, ref.guesses):
        word = ctx.words.allowed[g]
        code = patterns.score(word, "crane")
        assert line.startswith(patterns.tiles(word, code, color=False))  # no colour: not a TTY
        assert "\x1b[" not in line
        if code != ctx.words.solved:
            state = state.after(g, code)
            assert line.endswith(f"{len(state.candidates):,} candidate{'s' if len(state.candidates) != 1 else ''} left")
    assert out[-2].startswith("CG RG AG NG EG") and out[-2].endswith("solved")
    assert out[-1] == f"greedy: solved CRANE in {len(ref.guesses)} guesses"


def test_solve_respects_opener_and_settings(ctx, capsys):
    assert main(["solve", "crane", "--solver", "naive", "--opener", "tares", "--max-guesses", "1"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[1].startswith("TB AY RY EY SB") and out[-1].startswith("naive: not solved within 1 guess:")


def test_solve_log_has_game_and_logbook(ctx, tmp_path, capsys, monkeypatch):
    """A solver exposing ``logbook`` (as GA solvers do) gets it written next to the game."""

    class LoggingNaive(NaiveSolver):
        name = "logging-naive"

        def reset(self, rng=None):
            super().reset(rng)
            self.logbook = []

        def pick(self, state):
            self.logbook.append({"gen": len(self.logbook), "nevals": np.int64(len(state.candidates)),
                                 "max": np.float64(1.5)})
            return super().pick(state)

    monkeypatch.setitem(SOLVERS, "logging-naive", LoggingNaive)
    log = tmp_path / "game.json"
    argv = ["solve", "crane", "--solver", "logging-naive", *P1, "--opener", "slate", "--seed", "4", "--log", str(log)]
    assert main(argv) == 0
    capsys.readouterr()
    data = json.loads(log.read_text())
    assert data["answer"] == "crane" and data["solved"] is True and data["seed"] == 4
    assert data["settings"]["candidates"] == "answers"
    assert [r["guess"] for r in data["rows"]][-1] == "crane"
    assert data["guesses"] == len(data["rows"])
    assert all(r["pattern"] == patterns.to_digits(patterns.score(r["guess"], "crane")) for r in data["rows"])
    assert len(data["logbook"]) == data["guesses"] - 1  # the opener is not picked
    assert data["logbook"][0] == {"gen": 0, "nevals": data["rows"][0]["candidates_left"], "max": 1.5}


def test_solve_log_without_logbook(ctx, tmp_path, capsys):
    log = tmp_path / "g.json"
    assert main(["solve", "spill", "--solver", "naive", *P1, "--log", str(log)]) == 0
    capsys.readouterr()
    data = json.loads(log.read_text())
    assert "logbook" not in data and data["params"]["solver"] == "naive"


def test_solve_several_boards(ctx, capsys):
    argv = ["solve", "crane", "spill", "bloke", "tacit", "--candidates", "answers", "--guess-from", "allowed"]
    assert main(argv) == 0
    out = capsys.readouterr().out.rstrip().splitlines()
    assert out.pop(0) == patterns.PLAIN_LEGEND
    settings = Settings(candidates="answers", guess_from="allowed", boards=4, max_guesses=9)
    rec = play_boards(SummedEntropy(ctx, settings), tuple(ctx.words.indices(["crane", "spill", "bloke", "tacit"])), 9)
    assert rec.solved and len(out) == len(rec.guesses) + 1
    for k, (line, g) in enumerate(zip(out, rec.guesses), 1):
        assert line.startswith(f"{k:>2}  ")
        assert ctx.words.allowed[g].upper()[0] in line
    assert out[-1] == f"summed-entropy: solved 4 boards (CRANE SPILL BLOKE TACIT) in {len(rec.guesses)} guesses"
    assert out[-2].rstrip().endswith("left 0 0 0 0")


def test_solve_with_an_evolved_board_policy_names_it_and_logs_its_genes(ctx, tmp_path, capsys):
    """`solve shiny crane --strategy dordle-evolved` ended 'summed-entropy: solved ...' and logged
    no parameters, as if plain summed entropy had played; it names the file and logs the genes now."""
    log = tmp_path / "game.json"
    assert main(["solve", "shiny", "crane", "--strategy", "dordle-evolved", "--log", str(log)]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-2]  # then 'wrote FILE'
    assert last.startswith("summed-entropy (dordle-evolved): solved 2 boards (SHINY CRANE) in ")
    game = json.loads(log.read_text())
    assert game["params"]["opener"] == "slane" and game["params"]["rollout"] == 200 and "weight" in game["params"]
    assert game["strategy"].endswith("dordle-evolved.json")


def test_solve_several_boards_plays_a_params_file_and_refuses_other_solver_flags(ctx, tmp_path, capsys):
    """`solve crane spill --params dordle-evolved.json` played plain summed entropy (the file was
    ignored), and --population, --tree … were ignored on several boards (bench refuses them)."""
    from evo_wordle.evolve.strategy import resolve_strategy_path

    path = str(resolve_strategy_path("dordle-evolved"))
    log_params, log_strategy = tmp_path / "p.json", tmp_path / "s.json"
    assert main(["solve", "shiny", "crane", "--params", path, "--log", str(log_params)]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-2]
    assert last.startswith(f"summed-entropy ({path}): solved 2 boards (SHINY CRANE) in ")
    assert main(["solve", "shiny", "crane", "--strategy", "dordle-evolved", "--log", str(log_strategy)]) == 0
    capsys.readouterr()
    by_params, by_strategy = json.loads(log_params.read_text()), json.loads(log_strategy.read_text())
    assert by_params["params"] == by_strategy["params"] and by_params["params"]["bonus"] > 0  # the file's genes
    assert by_params["rows"] == by_strategy["rows"] and by_params["settings"] == by_strategy["settings"]
    assert main(["solve", "shiny", "crane", "mound", "--params", path]) == 2  # its board count, as bench
    assert "made for 2 boards, not 3" in capsys.readouterr().err
    for flag in (["--population", "50"], ["--tree", "t.json"], ["--mutation", "0.2"]):
        for route in ([], ["--strategy", "dordle-evolved"]):
            assert main(["solve", "shiny", "crane", *route, *flag]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and f"has no {flag[0]}" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "zzzzz"], "not an allowed word"),
        (["solve", "crane", "--solver", "nosuch"], "unknown solver"),
        (["solve", "crane", "spill", "--boards", "3"], "--boards 3 needs 3 answers"),
        # --boards 1 with two answers played a Dordle game as if the flag had not been given
        (["solve", "crane", "spill", "--boards", "1"], "--boards 1 needs 1 answer, got 2"),
        (["solve", "crane", "--boards", "2"], "--boards 2 needs 2 answers, got 1"),
        # 65 answers and no --boards were refused as "--boards must be between 1 and 64, not 65"
        (["solve", *(["crane"] * 65)], "solve plays at most 64 boards, one per answer, not 65 answers"),
        (["solve", "crane", "spill", "--solver", "greedy"], "drop --solver"),
        # no --solver was typed: the message speaks of the file (it said "drop --solver strategy")
        (["solve", "crane", "spill", "--strategy", "p0-evolved"], "p0-evolved is a one-board strategy file"),
        (["solve", "crane", "spill", "--hard"], "hard mode"),
        (["solve", "crane", "--log", "/nonexistent/dir/x.json"], "does not exist"),
        (["solve", "crane", "--max-guesses", "0"], "must be at least 1"),
        (["solve"], "required"),
    ],
)
def test_solve_errors_are_one_line_exit_2(ctx, capsys, argv, message):
    assert run_cli(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1 and "Traceback" not in captured.err


def test_solve_log_of_a_ga_names_words_not_indices(tmp_path, capsys):
    """The GA's logbook and hall of fame in --log carry words (and feedback digits), never indices."""
    log = tmp_path / "ga.json"
    assert main(["solve", "merry", "--solver", "ga-thesis", "--population", "30", "--seed", "3",
                 "--log", str(log)]) == 0
    data = json.loads(log.read_text())
    guesses = [row["guess"] for row in data["rows"]]
    assert [rec["guess"] for rec in data["logbook"]] == guesses
    assert all(isinstance(rec["guess"], str) and rec["guess"].isalpha() for rec in data["logbook"])
    hof = data["hall_of_fame"]  # one hall of fame per decision: fitness compares within a turn only
    assert {h["turn"] for h in hof} == set(range(len(guesses)))
    assert all(isinstance(h["word"], str) and len(h["word"]) == 5 for h in hof)
    for turn in range(len(guesses)):
        fits = [h["fitness"] for h in hof if h["turn"] == turn]
        assert 1 <= len(fits) <= 5 and fits == sorted(fits, reverse=True)
