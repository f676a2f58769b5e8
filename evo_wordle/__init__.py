"""evo-wordle: genetic algorithms and entropy solvers for Wordle, built on DEAP and numpy.

Data flows one way: words → pattern table → entropy/fitness → solvers → benchmark → plots.
The public names below load on first use, so the command line can start (and be interrupted)
before numpy is imported.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "Context": "evo_wordle.context",
    "EvoWordleError": "evo_wordle.errors",
    "WordSet": "evo_wordle.words",
    "load_words": "evo_wordle.words",
}

__all__ = ["Context", "EvoWordleError", "WordSet", "load_words", "__version__"]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'evo_wordle' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names and the package's submodules (not the helpers this file imports)."""
    hidden = {"annotations", "importlib"}
    return sorted((set(globals()) - hidden) | set(__all__))
