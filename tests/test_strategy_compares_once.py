"""StrategySolver compares a file's word lists with the game's once: its checks (the stored
prior, the stored tree, the file itself), the tree it plays and the note ``describe`` records
share one comparison (it compared them up to four times); ``check_word_lists`` likewise."""

from __future__ import annotations

import pytest

import evo_wordle.artefacts as artefacts
import evo_wordle.evolve.strategy as st
from evo_wordle.evolve.strategy import StrategySolver
from evo_wordle.game import Settings

from . import test_other_lists_api as api

made, other = api.made, api.other  # the lists the files are made for, and other lists (fixtures)
WHY = "the allowed list differs from the one it was made for"


@pytest.fixture
def compared(monkeypatch) -> list:
    """Each comparison of a file's lists with a game's (artefacts.list_mismatch, wherever called)."""
    asked: list = []
    real = artefacts.list_mismatch

    def counting(record, words):
        asked.append(words)
        return real(record, words)

    monkeypatch.setattr(artefacts, "list_mismatch", counting)
    monkeypatch.setattr(st, "list_mismatch", counting, raising=False)
    return asked


def test_the_constructor_compares_the_lists_once(made, other, tmp_path, compared):
    treed = api.genome_file(tmp_path, made, tree={"": "sight"})
    (tmp_path / "g").mkdir()
    genome = api.genome_file(tmp_path / "g", made)
    cases = [  # (ctx, params, the note describe() records)
        (made, {"strategy": treed}, {}),
        (made, {"strategy": treed, "other_lists": True}, {}),
        (other, {"strategy": genome, "other_lists": True}, {"other_lists": True, "lists_differ": WHY}),
        (made, {"strategy": genome}, {}),
    ]
    for ctx, params, note in cases:
        compared.clear()
        solver = StrategySolver(ctx, Settings(), **params)
        assert len(compared) == 1, params
        described = solver.describe()
        assert {k: described[k] for k in ("other_lists", "lists_differ") if k in described} == note
        compared.clear()
        found = StrategySolver.check_word_lists({k: str(v) if k == "strategy" else v for k, v in params.items()},
                                                ctx.words)
        assert len(compared) == 1 and found == ({"strategy": WHY} if note else {}), params
    assert StrategySolver(made, Settings(), strategy=treed).policy.tree  # its own game: the stored tree plays
