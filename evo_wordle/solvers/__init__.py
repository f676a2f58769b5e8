"""Solvers: one small module each, all behind :class:`~evo_wordle.solvers.base.Solver`."""

from __future__ import annotations

import importlib

from .base import SOLVERS, Solver, SolverSpec, build_solver, make_solver, register, solver_label

#: Modules that register solvers when imported.
SOLVER_MODULES = ["evo_wordle.solvers.entropy_solvers", "evo_wordle.evolve.strategy", "evo_wordle.evolve.search"]


def load_all() -> None:
    """Import every solver module so that :data:`SOLVERS` is complete."""
    for module in SOLVER_MODULES:
        importlib.import_module(module)


__all__ = ["SOLVERS", "Solver", "SolverSpec", "build_solver", "load_all", "make_solver", "register", "solver_label"]

# Baseline solvers from the literature (issue 3).
SOLVER_MODULES += [
    "evo_wordle.solvers.random_solver",
    "evo_wordle.solvers.letter_frequency",
    "evo_wordle.solvers.position_rank",
]

# The DEAP genetic algorithms (issue 4).
SOLVER_MODULES += ["evo_wordle.ga.solvers"]
