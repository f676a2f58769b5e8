"""Import a script of experiments/ as a module (its folder on sys.path while it loads, as when run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def load_experiment(name: str) -> ModuleType:
    """``experiments/<name>.py`` as a module; its sibling helpers (``_study``) import as they do when run."""
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(EXPERIMENTS))
    return mod
