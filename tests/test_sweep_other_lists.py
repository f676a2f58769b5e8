"""A sweep's ``other_lists`` column says what was asked; what was played is recorded apart: a
strategy file in the grid played on other word lists than it was made for is named in
``sweep.json`` (``grid_files_other_lists``, with why) and ``report`` warns of it in one line,
as bench records ``lists_differ`` only when the lists really differ.  Asking on the file's own
lists records nothing (the rows' ``other_lists=true`` alone changed nothing)."""

from __future__ import annotations

import json

from evo_wordle.cli import main
from evo_wordle.sweep import SweepSpec, run_sweep

from . import test_other_lists_api as api
from .test_other_lists_wording import _MyStrategy

made, other = api.made, api.other  # the lists the file is made for, and other lists (fixtures)
WHY = "the allowed list differs from the one it was made for"


def _own_lists(tmp_path, made) -> list[str]:
    """The lists ``made`` as files, for the command line."""
    allowed, answers = tmp_path / "own.txt", tmp_path / "own-answers.txt"
    allowed.write_text("".join(f"{w}\n" for w in made.words.allowed))
    answers.write_text("".join(f"{w}\n" for w in made.words.answers))
    return ["--allowed", str(allowed), "--answers", str(answers)]


def test_a_sweep_records_a_grid_file_played_on_other_lists_and_report_warns(made, tmp_path, capsys):
    genome = api.genome_file(tmp_path, made)
    out = tmp_path / "other"
    assert main(api._sweep(genome, out, api._tiny_lists(tmp_path), "--other-lists")) == 0
    saved = json.loads((out / "sweep.json").read_text())
    assert saved["grid_files_other_lists"] == [{"param": "strategy", "file": str(genome), "lists_differ": WHY}]
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert capsys.readouterr().err == (f"evo-wordle: warning: the rows with strategy={genome} were played on other "
                                       f"word lists than that file was made for ({WHY})\n")
    assert main(api._sweep(genome, out, api._tiny_lists(tmp_path), "--other-lists")) == 0  # resumes: the same record

    own = tmp_path / "own"  # asked on the file's own lists: the rows say other_lists=true, nothing is claimed
    assert main(api._sweep(genome, own, _own_lists(tmp_path, made), "--set", "other_lists=true")) == 0
    header, row = (own / "results.csv").read_text().splitlines()
    assert dict(zip(header.split(","), row.split(",")))["other_lists"] == "true"
    assert "grid_files_other_lists" not in json.loads((own / "sweep.json").read_text())
    capsys.readouterr()
    assert main(["report", str(own)]) == 0 and capsys.readouterr().err == ""


def test_run_sweep_records_it_from_python_too(made, other, tmp_path):
    """The record is the sweep's own finding (SweepSpec.validate), not the command line's: a
    Solver-class factory from Python gets it as well, and validate returns it."""
    genome = api.genome_file(tmp_path, made)
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in other.words.allowed))
    answers = tmp_path / "answers.txt"
    answers.write_text("".join(f"{w}\n" for w in other.words.answers))
    spec = SweepSpec(solver=_MyStrategy, grid={"strategy": [str(genome)], "other_lists": [True]}, seeds=1, games=2,
                     allowed=str(words), answers=str(answers))
    note = {"param": "strategy", "file": str(genome), "lists_differ": WHY}
    assert spec.validate() == [note]
    run_sweep(spec, tmp_path / "s", jobs=1)
    assert json.loads((tmp_path / "s" / "sweep.json").read_text())["grid_files_other_lists"] == [note]
    assert SweepSpec(solver="greedy", grid={"opener": ["sight"]}, seeds=1, games=2, allowed=str(words),
                     answers=str(answers)).validate() == []


def _strategy_factory(ctx, settings, **params):
    """A factory *function* (not a Solver class): its parameters are known only by calling it."""
    from evo_wordle.evolve.strategy import StrategySolver

    return StrategySolver(ctx, settings, **params)


def test_a_factory_function_records_it_too(made, other, tmp_path):
    """A factory function that plays a strategy file made for other word lists was built (and
    played) but not recorded: only the registered names and Solver classes were asked.  Now
    the solver it builds says so (``describe``), and the sweep records the file as for them."""
    genome = api.genome_file(tmp_path, made)
    words, answers = tmp_path / "words.txt", tmp_path / "answers.txt"
    words.write_text("".join(f"{w}\n" for w in other.words.allowed))
    answers.write_text("".join(f"{w}\n" for w in other.words.answers))
    spec = SweepSpec(solver=_strategy_factory, grid={"strategy": [str(genome)], "other_lists": [True]}, seeds=1,
                     games=2, allowed=str(words), answers=str(answers))
    note = {"param": "strategy", "file": str(genome), "lists_differ": WHY}
    assert spec.validate() == [note]
    run_sweep(spec, tmp_path / "s", jobs=1)
    assert json.loads((tmp_path / "s" / "sweep.json").read_text())["grid_files_other_lists"] == [note]
    own = _own_lists(tmp_path, made)  # on the file's own lists: asked, nothing played elsewhere
    assert SweepSpec(solver=_strategy_factory, grid={"strategy": [str(genome)], "other_lists": [True]}, seeds=1,
                     games=2, allowed=own[1], answers=own[3]).validate() == []


def test_a_folder_from_before_the_record_resumes_and_gets_it(made, tmp_path, capsys):
    """A sweep.json written before sweeps recorded grid_files_other_lists is the same sweep: a
    rerun resumes it (not 'holds a different sweep') and adds the record; any other difference
    is still refused."""
    genome = api.genome_file(tmp_path, made)
    out = tmp_path / "old"
    argv = api._sweep(genome, out, api._tiny_lists(tmp_path), "--other-lists")
    assert main(argv) == 0
    path = out / "sweep.json"
    old = json.loads(path.read_text())
    record = old.pop("grid_files_other_lists")
    path.write_text(json.dumps(old))
    capsys.readouterr()
    assert main(argv) == 0 and "1/1 benches" in capsys.readouterr().out
    assert json.loads(path.read_text())["grid_files_other_lists"] == record
    path.write_text(json.dumps({**old, "base_seed": 7}))
    assert main(argv) == 2 and "differs in base_seed, grid_files_other_lists" in capsys.readouterr().err
