"""Multi-board policies as replayable files (issue 17): ``evolve-strategy --boards N --out`` writes a
parameter file that ``bench``/``compare --strategy NAME|PATH`` replay in its own game; the
shipped Dordle, Quordle and Octordle files record their game and provenance and replay to their figures."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from evo_wordle.artefacts import replay_kind, settings_of
from evo_wordle.bench import run_bench
from evo_wordle.boards import POLICY_NAME
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import file_test_sets
from evo_wordle.evolve.strategy import read_strategy_file, resolve_strategy_path, shipped_strategies
from evo_wordle.tune import load_params

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "data" / "strategies"
#: The shipped multi-board files, their board count and their registered test figure.
BOARD_FILES = {"dordle-evolved": (2, "dordle-evolved-test"), "quordle-evolved": (4, "quordle-evolved-test"),
               "octordle-evolved": (8, "octordle-evolved-test")}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, cache_dir) -> Path:
    """A tiny Dordle evolution's file (one generation, a few sets: seconds)."""
    out = tmp_path_factory.mktemp("boards") / "tiny-dordle.json"
    assert main(["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "1", "--mu", "3",
                 "--lambda", "3", "--train-sets", "10", "--validation-sets", "8", "--test-sets", "30", "--seed", "3",
                 "--out", str(out), "--quiet"]) == 0
    return out


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def bench(capsys, *argv) -> tuple[dict, str]:
    code, out, err = run(capsys, "bench", *argv, "--json", "--quiet")
    assert code == 0, err
    return json.loads(out), err


def test_a_multi_board_file_is_a_parameter_file_decided_in_one_place(tiny):
    assert replay_kind(tiny) == "params"
    assert replay_kind(SHIPPED / "answers-known-salet.json") == "strategy"
    with pytest.raises(EvoWordleError, match="holds parameters for the summed-entropy solver .2 board"):
        read_strategy_file(tiny)  # the one-board strategy loader says what it is and where it replays


def test_tiny_file_round_trips_to_its_own_test_figure(ctx, tiny):
    doc = load_params(tiny)
    sets = file_test_sets(ctx, doc)
    assert sets.shape == (30, 2)
    assert set(sets.ravel()) <= set(ctx.words.indices(doc["provenance"]["split"]["test"]))
    result = run_bench(ctx, POLICY_NAME, settings_of(doc["made_for"], "tiny"), sets, 0, doc["params"])
    assert result.mean_guesses == doc["provenance"]["evolved"]["test_mean"]
    broken = {**doc, "provenance": {**doc["provenance"], "sets": {}}}
    with pytest.raises(EvoWordleError, match="^provenance.sets.train_sets of the file must be a whole number"):
        file_test_sets(ctx, broken)


def test_replay_by_path_plays_the_files_game_without_flags_deterministically(capsys, tiny):
    first, err = bench(capsys, "--strategy", str(tiny), "--games", "15", "--split", "test")
    assert err == ""  # nothing overridden, no answer it has seen: nothing to warn about
    s = first["settings"]
    assert (s["boards"], s["candidates"], s["guess_from"], s["max_guesses"]) == (2, "answers", "allowed", 7)
    params = load_params(tiny)["params"]
    assert first["solver"] == s["solver"] == "strategy" and s["strategy"] == str(tiny)  # as for one board
    assert {k: s.get(k, 0.0) for k in params} == params  # the evolved genes (0 ones unlisted), not plain
    assert any(params[k] != 0 for k in ("weight", "bonus", "late"))
    again, _ = bench(capsys, "--strategy", str(tiny), "--games", "15", "--split", "test", "--boards", "2")  # fine
    assert again["histogram"] == first["histogram"] and again["mean_guesses"] == first["mean_guesses"]
    # the same policy given as --params plays the same games
    same, err = bench(capsys, "--params", str(tiny), "--games", "15", "--split", "test")
    assert err == "" and same["histogram"] == first["histogram"]


def test_an_override_warns_in_one_line_and_plays(capsys, tiny):
    summary, err = bench(capsys, "--strategy", str(tiny), "--games", "5", "--split", "test", "--max-guesses", "8")
    assert summary["settings"]["max_guesses"] == 8 and summary["settings"]["boards"] == 2
    assert err.count("\n") == 1 and "warning" in err and "overriding max_guesses 7 -> 8" in err


@pytest.mark.parametrize("boards", ["1", "4"])
@pytest.mark.parametrize("flag", ["--strategy", "--params"])
def test_another_board_count_is_refused_in_one_line_and_never_scored(capsys, tiny, flag, boards):
    code, out, err = run(capsys, "bench", flag, str(tiny), "--boards", boards, "--games", "5", "--quiet")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"made for 2 boards, not {boards}" in err


@pytest.mark.parametrize("command", ["bench", "compare", "solve"])
def test_a_file_whose_opener_is_not_in_other_lists_is_refused_in_one_line_naming_it(capsys, tiny, tmp_path,
                                                                                    command):
    """On other word lists a multi-board file is refused unless --other-lists asks for it; when its
    opener is not one of their words (another word length, or just not listed), that is what the
    one line names, with the file: the run used to warn and then print "'slate' is not a 6-letter
    word", a word the user never typed, without the file."""
    opener = load_params(tiny)["params"]["opener"]
    six, five = tmp_path / "six.txt", tmp_path / "five.txt"
    six.write_text("planet\nplants\nstripe\nstring\nstrong\nplains\n")
    five.write_text("".join(f"{w}\n" for w in ("crane", "spill", "mound", "tacit", "shiny") if w != opener))
    for lists, why in [((six, "stripe plants"), "it was made for 5-letter words, these lists have 6"),
                       ((five, "crane spill"), "the allowed list differs from the one it was made for")]:
        path, answers = lists
        given = {"bench": ["bench", "--games", "3", "--quiet"],
                 "compare": ["compare", "--solvers", "strategy,summed-entropy", "--games", "3", "--quiet"],
                 "solve": ["solve", *answers.split()]}[command]
        code, out, err = run(capsys, *given, "--strategy", str(tiny), "--allowed", str(path), "--answers", str(path))
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err == (f"evo-wordle: error: strategy file {tiny}: its opener {opener!r} is not an allowed word of "
                       f"this list ({why})\n")
    code, out, err = run(capsys, "bench", "--params", str(tiny), "--boards", "2", "--games", "3", "--quiet",
                         "--allowed", str(six), "--answers", str(six))
    assert code == 2 and err.count("\n") == 1 and f"parameter file {tiny}: its opener" in err


@pytest.mark.parametrize("command", [["bench", "--games", "3", "--quiet"], ["solve", "crane", "spill"]])
def test_a_policy_given_by_both_strategy_and_params_is_refused(capsys, tiny, command):
    """`bench --strategy dordle-evolved --params FILE` played dordle-evolved's genes and ignored FILE."""
    code, out, err = run(capsys, *command, "--strategy", "dordle-evolved", "--params", str(tiny))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"--strategy dordle-evolved and --params {tiny} both give the multi-board policy's parameters" in err


def test_compare_puts_the_file_beside_plain_summed_entropy(capsys, tiny):
    game = ["--boards", "2", "--candidates", "answers", "--guess-from", "allowed", "--games", "10", "--quiet"]
    code, out, err = run(capsys, "compare", "--solvers", "strategy,summed-entropy", "--strategy", str(tiny), *game,
                         "--json")
    assert code == 0 and err.count("\n") == 1 and "was trained or selected on answers in" in err  # all answers
    rows = {r["solver"]: r for r in json.loads(out)}
    assert rows["strategy"]["game"] == rows["summed-entropy"]["game"]
    assert rows["strategy"]["settings"]["opener"] == load_params(tiny)["params"]["opener"]
    plain, _ = bench(capsys, *game[:-1])
    assert rows["summed-entropy"]["histogram"] == plain["histogram"]
    mine, _ = bench(capsys, "--strategy", str(tiny), "--games", "10")
    assert rows["strategy"]["histogram"] == mine["histogram"]


def test_solve_plays_the_file_on_its_own_boards_only(capsys, tiny):
    opener = load_params(tiny)["params"]["opener"]
    code, out, err = run(capsys, "solve", "crane", "spill", "--strategy", str(tiny))
    assert code == 0 and err == ""
    first = out.splitlines()[1].split()  # "1", then one tile (letter + colour) per letter and board
    assert "".join(t[0] for t in first[1:6]) == opener.upper() and "solved 2 boards" in out
    code, out, err = run(capsys, "solve", "crane", "spill", "mound", "--strategy", str(tiny))
    assert code == 2 and out == "" and "made for 2 boards, not 3" in err
    code, out, err = run(capsys, "solve", "crane", "--strategy", str(tiny))  # one board: not this file's game
    assert code == 2 and err.count("\n") == 1 and "replay it with bench or compare" in err
    # the docs' own route, one answer per board, is named (it said only bench or compare)
    assert f"{tiny} is a multi-board policy (2 boards): give one answer per board to solve" in err


def test_shipped_board_files_record_their_game_and_provenance(ctx):
    registry = tomllib.loads((ROOT / "experiments" / "figures.toml").read_text())["figure"]
    assert set(BOARD_FILES) <= set(shipped_strategies())
    for name, (boards, figure) in BOARD_FILES.items():
        path = resolve_strategy_path(name)
        assert path.name == f"{name}.json" and replay_kind(path) == "params"
        doc = load_params(path)
        made = doc["made_for"]
        assert doc["solver"] == POLICY_NAME and made["boards"] == boards
        assert (made["candidates"], made["guess_from"], made["max_guesses"]) == ("answers", "allowed", boards + 5)
        assert made["allowed_sha256"] == ctx.words.digest and made["answers"] == "nyt"
        prov = doc["provenance"]
        for option in ("--seed 0", "--generations 12", "--mu 8", "--lambda 16", "--train-sets 1000",
                       "--validation-sets 1000", "--test-sets 5000", f"--out {name}.json"):
            assert option in prov["command"], (name, option)
        assert prov["sets"]["test_sets"] == 5000 and len(prov["logbook"]) == 13
        assert round(prov["evolved"]["test_mean"], 4) == registry[figure]["value"]


def test_shipped_board_file_replays_the_same_by_name_and_by_path(capsys):
    by_name, err = bench(capsys, "--strategy", "dordle-evolved", "--games", "12", "--split", "test")
    assert err == "" and by_name["settings"]["boards"] == 2
    by_path, _ = bench(capsys, "--strategy", str(SHIPPED / "dordle-evolved.json"), "--games", "12", "--split", "test")
    assert by_path["histogram"] == by_name["histogram"] and by_path["mean_guesses"] == by_name["mean_guesses"]
    code, out, err = run(capsys, "bench", "--strategy", "quordle-evolved", "--boards", "2", "--games", "3")
    assert code == 2 and out == "" and "made for 4 boards, not 2" in err



@pytest.mark.parametrize("command", [["bench", "--games", "3"],
                                     ["compare", "--solvers", "strategy,summed-entropy", "--games", "3", "--boards",
                                      "4", "--candidates", "answers", "--guess-from", "allowed"]])
def test_other_word_lists_are_refused_unless_asked_for_as_a_one_board_file_is(capsys, tmp_path, command):
    """`bench --strategy quordle-evolved --boards 4` on other 5-letter lists only warned and gave a
    figure for the policy on a game it was not made for, while every shipped one-board strategy file
    is refused there; now both are refused in one line, and --other-lists is the explicit choice."""
    opener = load_params(resolve_strategy_path("quordle-evolved"))["params"]["opener"]
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in sorted({opener, "crane", "spill", "mound", "tacit", "shiny", "plumb",
                                                       "forge", "wheat", "dizzy", "brown", "glyph"})))
    lists = ["--allowed", str(words), "--answers", str(words), "--quiet"]
    code, out, err = run(capsys, *command, "--strategy", "quordle-evolved", *lists)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err == (f"evo-wordle: error: strategy file {resolve_strategy_path('quordle-evolved')} was made for other "
                   "word lists (the allowed list differs from the one it was made for): play it on its own lists "
                   "(drop --allowed/--answers), or give --other-lists to play it on these\n")
    code, out, err = run(capsys, *command, "--strategy", "quordle-evolved", *lists, "--other-lists")
    assert code == 0 and "mean" in out, err
    # one warning; the note of a first build of this list's pattern table depends on the cache, not on the file
    said = [line for line in err.splitlines() if "built pattern table" not in line]
    assert len(said) == 1 and "warning" in said[0]
    assert "the allowed list differs from the one it was made for" in said[0]
    if command[0] == "bench":  # a shipped one-board file there: refused, asked or not (its tree holds on its lists)
        for more in ([], ["--other-lists"]):
            code, out, err = run(capsys, *command, "--strategy", "p0-evolved", *lists, *more)
            assert code == 2 and out == "" and err.count("\n") == 1 and "the allowed list differs" in err, err


def test_rollout_replaces_the_files_reach_in_bench_and_compare(ctx, capsys, tiny):
    doc = load_params(tiny)
    sets, settings = file_test_sets(ctx, doc), settings_of(doc["made_for"], "tiny")
    assert doc["params"].get("rollout", 0) == 0  # the tiny evolution fixed no lookahead
    played = {}
    for reach in (0, 400):
        summary, _ = bench(capsys, "--strategy", str(tiny), "--split", "test", "--rollout", str(reach))
        expected = run_bench(ctx, POLICY_NAME, settings, sets, 0, {**doc["params"], "rollout": reach})
        assert summary["settings"].get("rollout", 0) == reach  # recorded beside the figure (0: left out)
        assert summary["mean_guesses"] == expected.mean_guesses
        assert summary["histogram"] == expected.summary()["histogram"]
        played[reach] = [r.guesses for r in expected.records]
    assert played[0] != played[400]  # the reach changes games here, so the flag cannot be a no-op
    game = ["--boards", "2", "--candidates", "answers", "--guess-from", "allowed", "--games", "10"]
    code, out, err = run(capsys, "compare", "--solvers", "strategy,summed-entropy", "--strategy", str(tiny), *game,
                         "--rollout", "400", "--json", "--quiet")
    assert code == 0, err
    assert [row["settings"]["rollout"] for row in json.loads(out)] == [400, 400]  # every policy row


@pytest.mark.parametrize("argv", [["bench", "--solver", "greedy", "--games", "3"],
                                  ["compare", "--solvers", "greedy,naive", "--games", "3"]])
def test_rollout_on_one_board_is_refused_in_one_line(capsys, argv):
    code, out, err = run(capsys, *argv, "--rollout", "10", "--quiet")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--rollout is the multi-board policy's lookahead" in err
