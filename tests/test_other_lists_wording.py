"""The refusal of a file played on other word lists names the way the caller can ask for them:
``other_lists=True`` from Python, ``--other-lists`` on the command line (a sweep's up-front
check, and a strategy file a parameter file names, used to print the Python keyword to CLI
users); and ``--other-lists`` reaches a strategy file named inside a ``--params`` file."""

from __future__ import annotations

import json
import pickle

import pytest

from evo_wordle import Context
from evo_wordle.artefacts import PARAMS_FORMAT, check_lists, made_for
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError, OtherListsRefused
from evo_wordle.evolve.strategy import Strategy, StrategySolver, save_strategy
from evo_wordle.game import Settings
from evo_wordle.solvers import make_solver

from . import test_other_lists_api as api
from .small_lists import IGHT

WHY = "the allowed list differs from the one it was made for"
API = "or pass other_lists=True to play it on these"
CLI = "or give --other-lists to play it on these"


made, other = api.made, api.other  # the lists the files are made for, and other lists (fixtures)


@pytest.fixture
def files(made, tmp_path) -> dict:
    """A genome file made for ``made``, a parameter file of the strategy solver naming it, the
    lists of the CLI runs (IGHT and two words: not the files' lists)."""
    genome = tmp_path / "genome.json"
    save_strategy(genome, Strategy(opener="sight"), {}, None, Settings(), made.words)
    params = tmp_path / "params.json"
    params.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "strategy",
                                  "made_for": made_for(Settings(), made.words), "params": {"strategy": str(genome)}}))
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in sorted(set(IGHT) | {"crane", "spill"})))
    return {"genome": genome, "params": params, "lists": ["--allowed", str(words), "--answers", str(words)]}


def test_the_python_api_names_the_keyword(made, other, files):
    record = made_for(Settings(), made.words)
    with pytest.raises(OtherListsRefused) as info:
        check_lists(record, other.words, "strategy file s.json")
    assert isinstance(info.value, EvoWordleError) and isinstance(info.value, ValueError)
    head = f"strategy file s.json was made for other word lists ({WHY}): play it on its own lists, "
    assert str(info.value) == head + API
    assert info.value.for_cli() == head + CLI
    for call in (lambda: make_solver("strategy", other, Settings(), strategy=files["genome"]),
                 lambda: StrategySolver.check_word_lists({"strategy": str(files["genome"])}, other.words)):
        with pytest.raises(EvoWordleError) as info:
            call()
        assert str(info.value).endswith(API) and "--other-lists" not in str(info.value)
    # a worker's error reaches the parent intact (a sweep task), both wordings
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is OtherListsRefused and str(again) == str(info.value)
    assert again.for_cli() == info.value.for_cli()
    assert EvoWordleError("plain").for_cli() == "plain"


def _sweep(files, out, *extra) -> list[str]:
    return ["sweep", "--solver", "strategy", *extra, "--seeds", "1", "--games", "2", "--jobs", "1", "--quiet",
            "--out", str(out), *files["lists"]]


def test_the_command_line_names_the_flag(files, tmp_path, capsys):
    """sweep --set strategy=FILE is refused by the sweep's up-front check (Python code): one
    line, exit 2, naming --other-lists, not the Python keyword."""
    out = tmp_path / "sweep"
    assert main(_sweep(files, out, "--set", f"strategy={files['genome']}")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("evo-wordle: error: ")
    assert err.rstrip("\n").endswith(CLI) and "other_lists=True" not in err
    assert not out.exists()


def test_other_lists_reaches_a_strategy_file_a_params_file_names(files, tmp_path, capsys):
    """--params FILE of the strategy solver whose parameters name a strategy file: --other-lists
    plays both on these lists (it asked for the parameter file only, and the strategy file was
    then refused, telling the user to give the flag they had given)."""
    bench = ["bench", "--params", str(files["params"]), "--games", "2", "--quiet", "--json", *files["lists"]]
    assert main(bench) == 2
    assert capsys.readouterr().err.rstrip("\n").endswith("or give --other-lists to play it on these")
    assert main([*bench, "--other-lists"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["other_lists"] is True and settings["lists_differ"] == WHY
    out = tmp_path / "sweep"
    swept = _sweep(files, out, "--params", str(files["params"]), "--set", "opener=sight,right")
    assert main(swept) == 2
    assert capsys.readouterr().err.rstrip("\n").endswith(CLI) and not out.exists()
    assert main([*swept, "--other-lists"]) == 0
    capsys.readouterr()
    header, *rows = (out / "results.csv").read_text().splitlines()
    assert len(rows) == 2 and all(dict(zip(header.split(","), r.split(",")))["other_lists"] == "true" for r in rows)


def test_a_run_reads_the_replayed_file_once_for_its_note(made, files, tmp_path, capsys, monkeypatch):
    """bench --repeat R and compare's rows record the other-lists note from the file the run read
    once (artefact_of ran again for every repeat and row); the recorded JSON is the same."""
    import evo_wordle.cli.bench_cmds as bench_cmds

    board = tmp_path / "dordle.json"
    board.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "summed-entropy",
                                 "made_for": made_for(Settings(candidates="answers", boards=2), made.words),
                                 "params": {"opener": "sight", "weight": 0.0, "bonus": 0.0, "late": 0.0}}))
    calls = []
    real = bench_cmds.artefact_of
    monkeypatch.setattr(bench_cmds, "artefact_of", lambda *a: calls.append(a[1]) or real(*a))
    run = ["bench", "--strategy", str(board), "--boards", "2", "--games", "3", "--quiet", "--json", "--other-lists",
           *files["lists"]]
    for repeat in (1, 3):
        calls.clear()
        assert main([*run, "--repeat", str(repeat)]) == 0
        settings = json.loads(capsys.readouterr().out)["settings"]
        assert settings["other_lists"] is True and settings["lists_differ"] == WHY
        assert settings.get("repeat", 1) == repeat and len(calls) == 1, (repeat, calls)
    calls.clear()
    assert main(["compare", "--solvers", "strategy,greedy", "--strategy", str(files["genome"]), "--games", "2",
                 "--quiet", "--json", "--other-lists", *files["lists"]]) == 0
    rows = {row["solver"]: row["settings"] for row in json.loads(capsys.readouterr().out)}
    assert rows["strategy"]["other_lists"] is True and "other_lists" not in rows["greedy"]
    assert sorted(map(tuple, calls)) == [("greedy",), ("strategy",), ("strategy", "greedy")]  # rows, Puzzles


def test_run_bench_records_parameters_from_a_file_on_other_lists(made, other, tmp_path):
    """Parameters read by load_params are a plain dict: run_bench could not know they came from a
    file made for other lists, so the summary did not say so.  ``made_for`` tells it; other lists
    are refused (before any game) unless ``other_lists=True``, and then recorded."""
    from evo_wordle.bench import run_bench
    from evo_wordle.tune import file_params, load_params

    path = tmp_path / "greedy.json"
    path.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "greedy",
                                "made_for": made_for(Settings(), made.words), "params": {"opener": "sight"}}))
    data = load_params(path, ctx=other, other_lists=True)
    answers = other.words.answer_index[:3]
    played = []

    def bench(ctx, **kw):
        return run_bench(ctx, data["solver"], Settings(), answers, 0, file_params(data), on_game=played.append, **kw)

    recorded = bench(other, made_for=data["made_for"], other_lists=True).summary()["settings"]
    assert recorded["other_lists"] is True and recorded["lists_differ"] == WHY and recorded["opener"] == "sight"
    assert "other_lists" not in bench(made, made_for=data["made_for"]).summary()["settings"]  # its own lists
    played.clear()
    with pytest.raises(OtherListsRefused) as info:
        bench(other, made_for=data["made_for"])
    assert str(info.value).endswith(API) and not played
    with pytest.raises(EvoWordleError, match="made_for is not given"):
        bench(other, other_lists=True)
    with pytest.raises(EvoWordleError, match="made_for"):
        bench(other, made_for={"candidates": "allowed"})
    assert not played


class _MyGA(__import__("evo_wordle.ga.solvers", fromlist=["CardGA"]).CardGA):
    """A Solver class given to run_sweep as a factory (module level: it travels to workers)."""


class _MyStrategy(StrategySolver):
    """A StrategySolver subclass given as a factory."""


def test_a_factory_class_is_checked_before_any_task_runs(made, files, tmp_path, monkeypatch):
    """A Solver class as the sweep's factory: a bad parameter, or a strategy file on other lists,
    is refused before the folder exists and before any task runs (the tasks found them, after
    sweep.json and results.csv were written)."""
    import evo_wordle.sweep as sweep

    ran = []  # task lists made (the tasks run in worker processes, where no counter reaches)
    real = sweep.SweepSpec.tasks
    monkeypatch.setattr(sweep.SweepSpec, "tasks", lambda self: ran.append(self) or real(self))
    words = files["lists"][1]
    out = tmp_path / "sweep"
    bad_ga = sweep.SweepSpec(solver=_MyGA, grid={"population": [30, 0]}, seeds=1, games=2, allowed=words,
                             answers=words)
    with pytest.raises(EvoWordleError, match="population"):
        sweep.run_sweep(bad_ga, out, jobs=1)
    other = sweep.SweepSpec(solver=_MyStrategy, grid={"strategy": [str(files["genome"])]}, seeds=1, games=2,
                            allowed=words, answers=words)
    with pytest.raises(OtherListsRefused):
        sweep.run_sweep(other, out, jobs=1)
    assert not ran and not out.exists()
    asked = sweep.SweepSpec(solver=_MyStrategy, grid={"strategy": [str(files["genome"])], "other_lists": [True]},
                            seeds=1, games=2, allowed=words, answers=words)
    sweep.run_sweep(asked, out, jobs=1)
    assert len(ran) == 1 and (out / "results.csv").read_text().count("\n") == 2


def test_bench_csv_says_a_file_played_on_other_lists(made, files, tmp_path, capsys):
    """bench --csv of a file replayed with --other-lists carries other_lists and lists_differ, as
    the JSON does (a reader of the CSV alone took those games for the file's own); without a
    difference the columns are left out, so those files are as before."""
    import csv

    out = tmp_path / "games.csv"
    run = ["bench", "--strategy", str(files["genome"]), "--games", "3", "--quiet", "--csv", str(out)]
    assert main([*run, *files["lists"], "--other-lists"]) == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 3 and all(r["other_lists"] == "1" and r["lists_differ"] == WHY for r in rows)
    assert list(rows[0])[:6] == ["answer", "guesses", "solved", "sequence", "opener", "seed"]
    own = tmp_path / "own.txt"
    own.write_text("".join(f"{w}\n" for w in made.words.allowed))
    answers = tmp_path / "answers.txt"
    answers.write_text("".join(f"{w}\n" for w in made.words.answers))
    assert main([*run, "--allowed", str(own), "--answers", str(answers)]) == 0
    capsys.readouterr()
    assert out.read_text().splitlines()[0] == "answer,guesses,solved,sequence,opener,seed"


def test_a_sweep_of_parameters_from_a_file_on_other_lists_records_it(made, files, tmp_path, capsys):
    """sweep --solver greedy --params FILE --other-lists played the file's parameters on other
    lists and recorded that nowhere: sweep.json now names the file and why, a resume must agree,
    and report warns in one line; a sweep on the file's own lists records nothing."""
    params = tmp_path / "greedy.json"
    params.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "greedy",
                                  "made_for": made_for(Settings(), made.words), "params": {"opener": "sight"}}))
    out = tmp_path / "sweep"
    argv = ["sweep", "--solver", "greedy", "--params", str(params), "--set", "opener=sight,night", "--seeds", "1",
            "--games", "2", "--jobs", "1", "--quiet", *files["lists"], "--out", str(out)]
    assert main([*argv, "--other-lists"]) == 0
    spec = json.loads((out / "sweep.json").read_text())
    why = "the allowed list differs from the one it was made for"
    assert spec["params_file_other_lists"] == {"file": str(params), "lists_differ": why}
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err == (f"evo-wordle: warning: these rows were played on other word lists than parameter file "
                            f"{params} was made for ({why})\n")
    assert "opener" in captured.out
    assert main([*argv, "--other-lists"]) == 0  # the same sweep resumes (nothing left to run)
    assert main(argv) == 2  # without --other-lists: refused before the folder is touched
    assert "give --other-lists" in capsys.readouterr().err

    own = tmp_path / "own"
    lists = tmp_path / "made.txt"
    lists.write_text("".join(f"{w}\n" for w in made.words.allowed))
    answers = tmp_path / "made-answers.txt"
    answers.write_text("".join(f"{w}\n" for w in made.words.answers))
    mine = tmp_path / "mine.json"
    with_files = Context(allowed=str(lists), answers=str(answers))
    mine.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "greedy",
                                "made_for": made_for(Settings(), with_files.words), "params": {"opener": "sight"}}))
    assert main(["sweep", "--solver", "greedy", "--params", str(mine), "--set", "opener=sight,night", "--seeds", "1",
                 "--games", "2", "--jobs", "1", "--quiet", "--allowed", str(lists), "--answers", str(answers),
                 "--out", str(own)]) == 0
    assert "params_file_other_lists" not in json.loads((own / "sweep.json").read_text())
    capsys.readouterr()
    assert main(["report", str(own)]) == 0 and capsys.readouterr().err == ""
