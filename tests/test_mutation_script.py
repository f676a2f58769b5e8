"""experiments/mutation.py: its module → tests map points at real tests, and its operator set
keeps each operator's natural partner (cosmic-ray itself is not needed here)."""

from __future__ import annotations

import importlib.util
import re
import sys
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
                                "evo_wordle/evolve/endgame.py", "evo_wordle/split.py", "evo_wordle/boards.py",
                                "evo_wordle/ga/fitness.py", "evo_wordle/stats.py", "evo_wordle/frequency.py",
                                "evo_wordle/solvers/base.py", "evo_wordle/evolve/strategy.py",
                                "evo_wordle/ga/toolbox.py", "evo_wordle/solvers/entropy_solvers.py",
                                "evo_wordle/words.py", "evo_wordle/ga/adapter.py", "evo_wordle/evolve/search.py",
                                "evo_wordle/evolve/objectives.py", "evo_wordle/evolve/lookahead.py",
                                "evo_wordle/evolve/plan.py", "evo_wordle/cachedir.py", "evo_wordle/files.py",
                                "evo_wordle/ga/solvers.py",
                                "evo_wordle/evolve/checkpoint.py", "evo_wordle/evolve/metaga.py",
                                "evo_wordle/solvers/position_rank.py", "evo_wordle/evolve/ranking.py",
                                "evo_wordle/bench.py", "evo_wordle/params.py", "evo_wordle/context.py",
                                "evo_wordle/folder_lock.py", "evo_wordle/solvers/opener_cache.py",
                                "evo_wordle/solvers/letter_frequency.py", "evo_wordle/solvers/random_solver.py",
                                "evo_wordle/evolve/cheatsheet.py", "evo_wordle/executors.py", "evo_wordle/lexicon.py",
                                "evo_wordle/assist.py"}
    for module, cfg in mod.MODULES.items():
        assert (ROOT / module).is_file()
        for target in cfg["tests"]:
            path, _, name = target.partition("::")
            text = (ROOT / path).read_text()
            assert not name or f"def {name}(" in text, target


#: Test files named after a mutation module that are not among its targets, and why (per module).
NOT_TARGETS = {
    "evo_wordle/assist.py": {
        "tests/test_assist_estimate.py": "the study script experiments/assist_estimate.py, not the assistant"},
    "evo_wordle/entropy.py": {
        "tests/test_entropy_solvers.py": "the entropy solvers (solvers/), not the entropy module"},
    "evo_wordle/ga/solvers.py": {
        "tests/test_solvers.py": "the baseline solvers (solvers/), not the GA solvers",
        "tests/test_rules_solvers.py": "the scoring solvers' rules (solvers/base.py), not the GA solvers"},
}


def test_the_modules_paragraph_of_docs_testing_md_names_every_module():
    """docs/testing.md lists the modules mutation testing covers and their rule tests; it left
    out ga/toolbox.py (and so test_rules_toolbox.py) while MODULES ran it."""
    text = (ROOT / "docs" / "testing.md").read_text()
    start = text.index("Modules: `evo_wordle/patterns.py`")
    paragraph = text[start:text.index("each has its own targeted tests", start)]
    named = set(re.findall(r"`([\w/]+\.py)`", paragraph))
    missing = [m for m in _script().MODULES if m not in named and m.removeprefix("evo_wordle/") not in named]
    assert missing == []
    assert "`test_rules_toolbox.py`" in paragraph


def test_test_files_named_after_a_module_are_among_its_targets():
    """test_M.py, test_M_*.py, test_rules_M.py and test_evolve_M.py test module M: a feature whose tests
    are missing from the module's targets goes unnoticed by its mutation run (openings.py's whole-game
    score once did), so each such file is a target or is excused above."""
    mod = _script()
    for module, cfg in mod.MODULES.items():
        stem = Path(module).stem
        named = {f"tests/{f.name}" for pattern in (f"test_{stem}.py", f"test_{stem}_*.py", f"test_rules_{stem}.py",
                                                   f"test_evolve_{stem}.py")
                 for f in (ROOT / "tests").glob(pattern)}
        targets = {t.partition("::")[0] for t in cfg["tests"]}
        assert named - targets - set(NOT_TARGETS.get(module, {})) == set(), module
    assert all((ROOT / f).is_file() for files in NOT_TARGETS.values() for f in files)
    assert set(NOT_TARGETS) <= set(mod.MODULES)


def test_stale_equivalent_entries_are_this_modules_own_unmatched_ones():
    """An entry for every module ("*") is not reported stale where it has nothing to match; a
    module's own entry that no mutant matched is."""
    mod = _script()
    module = "evo_wordle/game.py"
    report = mod.score([], module, (ROOT / module).read_text())
    stale = report["stale_equivalent_entries"]
    own = [e for e in mod.load_equivalent(module) if e["module"] == module]
    assert own and stale == own
    assert any(e["module"] == "*" for e in mod.load_equivalent(module))


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


def test_a_mutant_cosmic_ray_cannot_make_is_incompetent_and_the_run_goes_on(monkeypatch):
    # cosmic-ray's ExceptionReplacer raises AttributeError on a dotted name inside an except tuple
    # (solvers/base.py has one); the worker route must count such a mutant incompetent, as
    # cosmic-ray's own route does, and go on (cosmic-ray itself is not installed in CI: its
    # mutate_code is played here by a function that fails as it does)
    mod = _script()

    def failing(source, module, m):
        raise AttributeError("'PythonNode' object has no attribute 'value'")

    monkeypatch.setattr(mod, "mutant_source", failing)
    m = {"operator": "core/ExceptionReplacer", "occurrence": 1}
    assert mod.made_mutant("x = 1\n", "m.py", m) is None
    assert m["outcome"] == "incompetent" and "could not make" in m["why"] and "PythonNode" in m["why"]
    monkeypatch.setattr(mod, "mutant_source", lambda source, module, m: None)
    m = {"operator": "core/NumberReplacer", "occurrence": 0}
    assert mod.made_mutant("x = 1\n", "m.py", m) is None
    assert m["outcome"] == "incompetent" and "nothing to mutate" in m["why"]
    monkeypatch.setattr(mod, "mutant_source", lambda source, module, m: "x = 2\n")
    m = {"operator": "core/NumberReplacer", "occurrence": 0}
    assert mod.made_mutant("x = 1\n", "m.py", m) == "x = 2\n" and "outcome" not in m


def test_an_existing_workdir_is_a_one_line_error(tmp_path):
    import subprocess

    proc = subprocess.run([sys.executable, str(ROOT / "experiments" / "mutation.py"), "--module", "evo_wordle/game.py",
                           "--workdir", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"mutation: --workdir {tmp_path} exists: give a new folder (or --resume / --rescore it)"]


def test_every_equivalent_entry_matches_no_more_source_lines_than_it_says():
    """An entry names one source line unless it says ``sites = N``: metaga.py's
    ``progress(self.logbook[-1])`` entry matched both of that line's copies, the second one's
    mutants being killed by a test and not equivalent at all (``above`` now tells them apart)."""
    mod = _script()
    for module in mod.MODULES:
        lines = (ROOT / module).read_text().splitlines()
        equivalent = mod.load_equivalent(module)
        sites = mod.equivalent_sites(equivalent, lines)  # a one-line SystemExit if any entry matches too many
        for e, found in zip(equivalent, sites):
            if e["module"] == module:
                assert len(found) <= e.get("sites", 1), (module, e["line"])
    metaga = "evo_wordle/evolve/metaga.py"
    lines = (ROOT / metaga).read_text().splitlines()
    entry = next(e for e in mod.load_equivalent(metaga) if "logbook" in e["line"])
    [site] = mod.entry_sites(entry, lines)
    assert "self.initialise()" in "\n".join(lines[site - 4:site - 1])
    assert sum(line.strip() == "progress(self.logbook[-1])" for line in lines) == 2


def _entries(tmp_path, monkeypatch, mod, text: str) -> None:
    path = tmp_path / "equivalent.toml"
    path.write_text(text)
    monkeypatch.setattr(mod, "EQUIVALENT_FILE", path)


SOURCE = "def f(progress, log):\n    start()\n    progress(log[-1])\n    while more():\n        step()\n" \
         "        progress(log[-1])\n"


def _survivor(line_no: int) -> dict:
    return {"job_id": str(line_no), "operator": "core/NumberReplacer", "occurrence": line_no, "line_no": line_no,
            "outcome": "survived", "diff": "+    progress(log[0])"}


def test_an_entry_matching_several_lines_it_does_not_declare_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    mod = _script()
    _entries(tmp_path, monkeypatch, mod, "[[equivalent]]\nmodule = 'm.py'\noperator = 'core/NumberReplacer'\n"
             "line = '^progress\\(log\\[-1\\]\\)$'\nreason = 'after start the log holds one record'\n")
    try:
        mod.score([_survivor(3)], "m.py", SOURCE)
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("an entry matching two lines was accepted")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the m.py entry core/NumberReplacer" in err[0] and "progress" in err[0]
    assert "matches 2 source lines (3, 6), not 1" in err[0] and "sites = 2" in err[0]


def test_an_entry_names_one_of_two_alike_lines_by_the_line_above_or_both_by_saying_so(tmp_path, monkeypatch):
    mod = _script()
    entry = ("[[equivalent]]\nmodule = 'm.py'\noperator = 'core/NumberReplacer'\nline = '^progress\\(log\\[-1\\]\\)$'\n"
             "{extra}reason = 'after start the log holds one record'\n")
    _entries(tmp_path, monkeypatch, mod, entry.format(extra="above = '^start\\(\\)$'\n"))
    report = mod.score([_survivor(3), _survivor(6)], "m.py", SOURCE)
    assert [e["line_no"] for e in report["equivalents"]] == [3]
    assert [s["line_no"] for s in report["survivors"]] == [6] and report["score"] == 0.0
    _entries(tmp_path, monkeypatch, mod, entry.format(extra="above = '^step\\(\\)$'\n"))
    assert [e["line_no"] for e in mod.score([_survivor(3), _survivor(6)], "m.py", SOURCE)["equivalents"]] == [6]
    _entries(tmp_path, monkeypatch, mod, entry.format(extra="sites = 2\n"))
    report = mod.score([_survivor(3), _survivor(6)], "m.py", SOURCE)
    assert [e["line_no"] for e in report["equivalents"]] == [3, 6] and not report["survivors"]


def test_one_job_is_singular_in_the_report_and_the_docs_row():
    """A run with --jobs 1 was reported and tabled as "1 jobs"."""
    mod = _script()
    r = {"module": "evo_wordle/game.py", "killed": 5, "survived": 0, "equivalent": 1, "incompetent": 0, "total": 6,
         "pending": 0, "score": 1.0, "seconds": 10.0, "cpu_seconds": 8.0, "load": 1.0, "load_before": 1.0,
         "route": "worker", "jobs": 1, "survivors": [], "stale_equivalent_entries": []}
    assert "with 1 job, load" in mod.report_text(r) and ", 1 job, load" in mod.score_row(r)
    assert "jobs" not in mod.report_text(r).split("\n")[0] and "1 jobs" not in mod.score_row(r)
    two = {**r, "jobs": 2}
    assert "with 2 jobs, load" in mod.report_text(two) and ", 2 jobs, load" in mod.score_row(two)
    assert ", 1 job, load 1" in mod.score_row({**r, "cpu_seconds": None})
    assert "1 jobs" not in (ROOT / "docs" / "testing.md").read_text()  # the tracked rows as the script writes them


def test_a_module_tested_in_forked_children_runs_every_test_on_a_line_coverage_did_not_see(monkeypatch):
    """Coverage follows only the parent: executors.py's worker start-up runs in forked children,
    and its mutants survived untested ("no targeted test runs this line") until the module said so."""
    mutation = _script()
    assert mutation.MODULES["evo_wordle/executors.py"]["forks"] is True
    monkeypatch.setitem(mutation.MODULES, "m.py", {"tests": ["t.py"], "pristine_table": False})
    assert mutation.unseen_in_children("m.py", []) == [] and mutation.unseen_in_children("m.py", None) is None
    monkeypatch.setitem(mutation.MODULES, "m.py", {"tests": ["t.py"], "pristine_table": False, "forks": True})
    assert mutation.unseen_in_children("m.py", []) is None
    assert mutation.unseen_in_children("m.py", ["t.py::a"]) == ["t.py::a"]


def _rows() -> dict[str, str]:
    """The module → source digest of each row of docs/testing.md's score table."""
    text = (ROOT / "docs" / "testing.md").read_text()
    table = text.split("<!-- mutation:scores -->\n", 1)[1].split("<!-- /mutation:scores -->", 1)[0]
    return dict(re.findall(r"^\| `([\w/]+\.py)` \|.*\| `([^`]*)` \|$", table, re.M))


#: Rows whose rerun is known to be pending, each marked `stale` in docs/testing.md's source column
#: (so a reader sees the score is of older code) and named in the closing note of the stop that
#: left it: boards.py's run (≈ 1 h of 2 cores at that stop's load) did not finish before the stop.
PENDING_RERUNS = {"evo_wordle/boards.py"}


def test_every_modules_row_was_measured_on_its_code_as_it_is_now():
    """A row's score is a claim about the code it was measured on: a core module changed since
    (an operator, a constant, a new branch) must be run again, not keep the old code's score.
    Only a row listed in PENDING_RERUNS may say `stale` instead, and only while it is stale."""
    mod, rows = _script(), _rows()
    assert set(rows) == set(mod.MODULES)
    digests = {m: mod.source_digest((ROOT / m).read_text()) for m in mod.MODULES}
    stale = [m for m in mod.MODULES if rows[m] != digests[m] and not (m in PENDING_RERUNS and rows[m] == "stale")]
    assert stale == [], ("changed since their mutation row: " + ", ".join(stale)
                         + " (python experiments/mutation.py --module M --jobs 2 --write-docs)")
    done = [m for m in PENDING_RERUNS if rows.get(m) == digests[m]]
    assert done == [], f"rerun, so no longer pending: take {', '.join(done)} out of PENDING_RERUNS"


def test_the_source_digest_follows_the_code_not_its_docstrings_comments_or_layout():
    digest = _script().source_digest
    code = 'def f(a, b):\n    """Why."""\n    return a < b  # the rule\n'
    assert digest(code) == digest('def f(a, b):\n    """Why not."""\n\n    return (a <\n            b)\n')
    assert digest(code) == digest("def f(a, b):\n    return a < b\n")
    changed = ["def f(a, b):\n    return a <= b\n", "def f(a, b):\n    return b < a\n",
               "def f(a, b):\n    return a < b + 0\n", "def f(a, c):\n    return a < c\n",
               'def f(a, b):\n    """Why."""\n    """Why."""\n    return a < b\n',  # a second string is code
               "def f(a, b=1):\n    return a < b\n", "class f:\n    pass\n"]
    assert len({digest(code), *(digest(c) for c in changed)}) == 1 + len(changed)
    assert digest('X = "a"\n') != digest("X = 'a' 'b'\n") and digest("X = 1\n") != digest("X = 1.0\n")
    assert re.fullmatch(r"[0-9a-f]{12}", digest(code))


def test_a_rows_source_is_the_digest_of_the_code_the_run_mutated():
    """score() records the digest of the source it was given (the run's unmutated copy), and the
    row the docs get carries it."""
    mod = _script()
    source = "def f(a):\n    return a + 1\n"
    r = mod.score([], "evo_wordle/game.py", source)
    assert r["source"] == mod.source_digest(source)
    row = mod.score_row({**r, "seconds": 1.0, "jobs": 1, "load": 1.0, "cpu_seconds": 1.0, "load_before": 1.0,
                         "route": "worker"})
    assert row.endswith(f"| `{mod.source_digest(source)}` |")
