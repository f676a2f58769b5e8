"""Solver classes built directly (not through make_solver) refuse a ctx that is not a Context or
settings that are not Settings in one line naming the class; several used to read ``ctx.words`` or
``settings.candidates`` before the base class looked and crashed with AttributeError."""

from __future__ import annotations

import pytest

from evo_wordle.boards import SummedEntropy
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings
from evo_wordle.solvers import load_all, make_solver
from evo_wordle.solvers.base import SOLVERS

load_all()
CLASSES = [*(SOLVERS[name] for name in sorted(SOLVERS)), SummedEntropy]
IDS = [cls.__name__ for cls in CLASSES]


@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
@pytest.mark.parametrize("bad", [None, "P1", {"candidates": "answers"}], ids=["None", "str", "dict"])
def test_a_bad_settings_is_refused_naming_the_class(cls, bad, ctx):
    with pytest.raises(EvoWordleError, match=rf"^{cls.__name__}: settings must be a Settings \(") as err:
        cls(ctx, bad)
    assert isinstance(err.value, ValueError) and repr(bad) in str(err.value)


@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
@pytest.mark.parametrize("bad", [None, "allowed", ["crane", "slate"]], ids=["None", "str", "list"])
def test_a_bad_ctx_is_refused_naming_the_class(cls, bad):
    board = Settings(boards=2) if cls is SummedEntropy else Settings()
    with pytest.raises(EvoWordleError, match=rf"^{cls.__name__}: ctx must be a Context, not {type(bad).__name__}$"):
        cls(bad, board)


def test_make_solver_keeps_its_own_messages(ctx):
    with pytest.raises(EvoWordleError, match=r"^ctx must be a Context, not str$"):
        make_solver("greedy", "x", Settings())
    given = r"^settings must be a Settings \(e\.g\. Settings\.problem\('P1'\)\), not 'P1'$"
    with pytest.raises(EvoWordleError, match=given):
        make_solver("greedy", ctx, "P1")
