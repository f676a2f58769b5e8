"""A solver's constructor checks its ``ctx`` and ``settings`` once: CardGA, GASearchSolver and
GreedySolver checked them themselves before ``Solver.__init__`` checked them again, because
their preset openers read both first (now ``Solver.preset_opener``, called after the check)."""

from __future__ import annotations

import sys

import pytest

import evo_wordle.game as game
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.search import GASearchSolver
from evo_wordle.ga.solvers import CardGA
from evo_wordle.game import Settings
from evo_wordle.solvers.entropy_solvers import GreedySolver

P1 = Settings(candidates="answers")


@pytest.fixture
def checks(monkeypatch) -> list:
    """Who asked check_solver_args, wherever a module imported it from."""
    asked: list = []
    real = game.check_solver_args

    def counting(ctx, settings, who=None):
        asked.append(who)
        return real(ctx, settings, who)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("evo_wordle") and getattr(module, "check_solver_args",
                                                                                  None) is real:
            monkeypatch.setattr(module, "check_solver_args", counting)
    return asked


@pytest.mark.parametrize("cls", [CardGA, GASearchSolver, GreedySolver])
def test_the_constructor_checks_its_arguments_once(ctx, checks, cls):
    cls(ctx, Settings())
    assert checks.count(cls.__name__) == 1, checks


def test_the_preset_openers_are_as_before(ctx, tmp_path):
    word = ctx.words.allowed
    assert word[CardGA(ctx, Settings()).opener] == "tales" and CardGA(ctx, P1).opener is None
    assert CardGA(ctx, Settings(), opener="").opener is None
    assert word[CardGA(ctx, Settings(), "crane").opener] == "crane"
    assert word[GreedySolver(ctx, Settings()).opener] == "tales" and GreedySolver(ctx, P1).opener is None
    assert GreedySolver(ctx, Settings(), opener="").opener is None
    assert word[GASearchSolver(ctx, Settings()).opener] == "salet" and word[GASearchSolver(ctx, P1).opener] == "salet"
    assert GASearchSolver(ctx, Settings(), opener="").opener is None
    # bad arguments are refused in one line before any preset is worked out
    for cls in (CardGA, GASearchSolver, GreedySolver):
        with pytest.raises(EvoWordleError, match=cls.__name__):
            cls(None, Settings())
        with pytest.raises(EvoWordleError):
            cls(ctx, Settings(boards=2))
