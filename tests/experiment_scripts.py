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


def board_study_across_jobs(tmp_path: Path, script: str, boards: int, args: list[str]) -> dict:
    """One board count's record of a board study (``experiments/<script>.py``, writing
    ``<script>.json``) run with ``--jobs 1`` and ``--jobs 2``: the two must be equal but for their
    timing, and the record is returned (every board study promises figures that do not depend on --jobs)."""
    import json
    import subprocess

    records = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        subprocess.run([sys.executable, str(EXPERIMENTS / f"{script}.py"), "--boards", str(boards), *args,
                        "--jobs", jobs, "--out", str(out)], check=True, capture_output=True, text=True)
        record = json.loads((out / f"{script}.json").read_text())["boards"][str(boards)]
        record.pop("seconds")
        records.append(record)
    assert records[0] == records[1]
    return records[0]
