"""The API reference builds with pdoc, and every public name has a docstring whose
cross-references resolve (docs/build_api.py)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def build_api():
    importlib.import_module("pdoc")  # in the `test` and `docs` extras: missing, the test fails
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        yield importlib.import_module("build_api")
    finally:
        sys.path.pop(0)


def test_every_public_name_is_documented_and_every_reference_resolves(build_api):
    assert build_api.check(build_api.modules()) == []


def test_the_checker_finds_problems(build_api, tmp_path, monkeypatch):
    (tmp_path / "fake_api_module.py").write_text(
        '"""A module."""\n\n\ndef undocumented():\n    return 1\n\n\n'
        'def linked():\n    """See :func:`no_such_function` and :func:`undocumented`."""\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    problems = build_api.check(["fake_api_module"])
    assert problems == [
        "fake_api_module.linked: broken reference 'no_such_function'",
        "fake_api_module.undocumented: no docstring",
    ]


def test_the_reference_builds(build_api, tmp_path):
    build_api.build(tmp_path)
    assert (tmp_path / "index.html").exists()
    for page in ("evo_wordle.html", "evo_wordle/bench.html", "evo_wordle/ga/adapter.html",
                 "evo_wordle/ga/toolbox.html", "evo_wordle/plots/sweep.html", "evo_wordle/solvers/base.html"):
        assert (tmp_path / page).stat().st_size > 1000, page
    bench = (tmp_path / "evo_wordle/bench.html").read_text()
    assert "BenchResult" in bench and "records" in bench and "run_bench" in bench
    assert not (tmp_path / "evo_wordle/cli").exists()


def test_the_packages_lazy_names_are_documented_in_a_fresh_process(tmp_path):
    """A fresh process has not loaded evo_wordle's lazy names (Context, WordSet, …): pdoc warned
    that they "do not resolve" and left them out of the package page."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "docs" / "build_api.py"), "--out", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "does not resolve" not in proc.stderr
    page = (tmp_path / "site" / "evo_wordle.html").read_text()
    assert all(f'id="{name}"' in page for name in ("Context", "WordSet", "load_words", "EvoWordleError"))


@pytest.mark.parametrize("out, message", [
    ("", "--out needs a folder name, not an empty string"),  # wrote 65 pages into the current folder
    ("{tmp}/afile", "is a file, not a folder"),  # a FileExistsError traceback
    (str(ROOT), "holds the evo_wordle sources"),
])
def test_a_bad_out_folder_is_one_line_before_any_work(build_api, tmp_path, capsys, monkeypatch, out, message):
    (tmp_path / "afile").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(build_api, "check", lambda names: pytest.fail("checked the docstrings before --out"))
    assert build_api.main(["--out", out.format(tmp=tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
