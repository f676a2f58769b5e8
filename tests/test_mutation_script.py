"""experiments/mutation.py: its module → tests map points at real tests, and its operator set
keeps each operator's natural partner (cosmic-ray itself is not needed here)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("mutation_script", ROOT / "experiments" / "mutation.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_module_and_target_exists():
    mod = _script()
    assert set(mod.MODULES) == {"evo_wordle/patterns.py", "evo_wordle/entropy.py", "evo_wordle/table.py",
                                "evo_wordle/ga/operators.py", "evo_wordle/game.py", "evo_wordle/evolve/exact.py",
                                "evo_wordle/evolve/openings.py", "evo_wordle/evolve/bnb.py", "evo_wordle/artefacts.py",
                                "evo_wordle/evolve/endgame.py"}
    for module, cfg in mod.MODULES.items():
        assert (ROOT / module).is_file()
        for target in cfg["tests"]:
            path, _, name = target.partition("::")
            text = (ROOT / path).read_text()
            assert not name or f"def {name}(" in text, target


def test_operator_set_keeps_natural_partners_and_drops_the_rest():
    excluded = set(_script().excluded_operators())
    assert "core/ReplaceBinaryOperator_Add_Sub$" not in excluded
    assert "core/ReplaceBinaryOperator_Add_BitXor$" in excluded
    assert "core/ReplaceComparisonOperator_Lt_LtE$" not in excluded
    assert "core/ReplaceComparisonOperator_Lt_GtE$" not in excluded
    assert "core/ReplaceComparisonOperator_Lt_Is$" in excluded
    assert not any("NumberReplacer" in e or "AddNot" in e for e in excluded)


def test_equivalent_list_gives_a_reason_for_each_entry():
    path = ROOT / "experiments" / "mutation_equivalent.toml"
    entries = tomllib.loads(path.read_text())["equivalent"]
    modules = set(_script().MODULES)
    for e in entries:
        assert e["module"] in modules or e["module"] == "*"
        assert e["operator"].startswith("core/") and e["line"] and len(e["reason"]) > 10


def test_config_writer_round_trips():
    data = {"cosmic-ray": {"module-path": "m.py", "timeout": 5.0, "excluded-modules": [],
                           "distributor": {"name": "http", "http": {"worker-urls": ["http://127.0.0.1:1"]}}}}
    assert tomllib.loads(_script()._toml(data)) == data
