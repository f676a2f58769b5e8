"""pyproject lists every sub-package explicitly (the word lists map from data/): keep it complete."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "evo_wordle").rglob("__init__.py")
    }
    assert found <= listed, f"add to pyproject.toml packages: {sorted(found - listed)}"
    assert config["package-dir"]["evo_wordle.wordlists"] == "data"


def test_dir_of_the_package_shows_its_public_names_not_its_helpers():
    import evo_wordle

    names = dir(evo_wordle)
    assert {"Context", "EvoWordleError", "WordSet", "load_words", "__version__"} <= set(names)
    assert not {"annotations", "importlib"} & set(names)
