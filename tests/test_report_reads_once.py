"""``report`` reads a sweep folder's ``sweep.json`` once: the specification and the records
beside it (the files played on other word lists it warns of) come from one read
(:func:`evo_wordle.sweep.load_sweep_folder`); it read the file again for the records."""

from __future__ import annotations

import os
from pathlib import Path

from evo_wordle.cli import main
from evo_wordle.sweep import GRID_FILES_KEY, load_sweep, load_sweep_folder

from . import test_other_lists_api as api

made = api.made  # the lists the file is made for (fixture)


def test_report_reads_sweep_json_once(made, tmp_path, capsys, monkeypatch):
    genome = api.genome_file(tmp_path, made)
    out = tmp_path / "sweep"
    assert main(api._sweep(genome, out, api._tiny_lists(tmp_path), "--other-lists")) == 0
    opened: list[str] = []
    real = os.open

    def counting(path, *args, **kwargs):
        opened.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting)
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert opened.count("sweep.json") == 1, opened
    assert "were played on other word lists" in capsys.readouterr().err  # the records were read
    spec, rows, records = load_sweep_folder(out)
    assert (spec, rows) == load_sweep(out) and records[GRID_FILES_KEY][0]["file"] == str(genome)
