"""A solver's constructor checks its ``ctx`` and ``settings`` once: CardGA, GASearchSolver and
GreedySolver checked them themselves before ``Solver.__init__`` checked them again, because
their preset openers read both first (now ``Solver.preset_opener``, called after the check).
Built by ``make_solver``, which checks them at its boundary with its own messages, a solver is
not checked again by its constructor (nor a GA's ``GAState``): each build checks them once."""

from __future__ import annotations

import sys

import pytest

import evo_wordle.game as game
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.search import GASearchSolver
from evo_wordle.ga.solvers import CardGA
from evo_wordle.game import Settings
from evo_wordle.solvers import load_all, make_solver
from evo_wordle.solvers.base import SOLVERS
from evo_wordle.solvers.entropy_solvers import GreedySolver

P1 = Settings(candidates="answers")
load_all()


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


@pytest.fixture
def board_checks(monkeypatch) -> list:
    """Who asked check_one_board, wherever a module imported it from."""
    asked: list = []
    real = game.check_one_board

    def counting(settings, who):
        asked.append(who)
        return real(settings, who)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("evo_wordle") and getattr(module, "check_one_board",
                                                                                  None) is real:
            monkeypatch.setattr(module, "check_one_board", counting)
    return asked


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_make_solver_checks_its_arguments_once(ctx, checks, board_checks, name):
    """make_solver checks ctx and settings at its boundary (its own messages), and neither the
    constructor it calls nor a GA's GAState checks the same two objects again (they did: two or
    three checks of each build)."""
    make_solver(name, ctx, Settings())
    assert len(checks) == 1 and len(board_checks) == 1, (checks, board_checks)


class _Nested(GreedySolver):
    """A solver whose constructor builds another one under other settings."""

    def __init__(self, ctx, settings, boards=1):
        super().__init__(ctx, settings)
        self.inner = GreedySolver(ctx, settings.with_(boards=boards))


def test_a_solver_built_inside_make_solver_on_other_arguments_is_still_checked(ctx, monkeypatch):
    monkeypatch.setitem(SOLVERS, "nested-test", _Nested)
    assert make_solver("nested-test", ctx, Settings()).inner.settings == Settings()
    with pytest.raises(EvoWordleError, match="^GreedySolver plays one board, not 2"):
        make_solver("nested-test", ctx, Settings(), boards=2)
    assert game._CHECKED.get() is None  # cleared after the build, even a failed one
