"""The figure registry: docs agree with it, a hand edit is caught, a fast subset of
``reproduce.py --check`` regenerates its figures, and no experiment script writes a tracked
file unless asked (``--write-docs``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "experiments"
sys.path.insert(0, str(EXPERIMENTS))

import registry  # noqa: E402

#: Cheap deterministic figures regenerated in CI (each one bench or less).
FAST = ["entropy-tares", "naive-tares", "greedy-tales", "greedy-rates", "p1-naive-slate"]


def git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def reproduce(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXPERIMENTS / "reproduce.py"), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_registry_loads_and_every_figure_names_a_run():
    reg = registry.load()
    assert len(reg.figures) > 50
    assert all(f.run in reg.runs for f in reg.figures.values())
    assert {f.run for f in reg.figures.values() if reg.runs[f.run].quick} >= {"greedy-tales", "naive-tares"}


def test_docs_agree_with_the_registry():
    """Every marker in README/docs/experiments quotes the registered value, every table its tracked file."""
    assert registry.doc_problems(registry.load()) == []


def copy_docs(tmp: Path) -> Path:
    for pattern in registry.DOC_GLOBS:
        for path in ROOT.glob(pattern):
            (tmp / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, tmp / path.relative_to(ROOT))
    for table in registry.load().tables.values():
        (tmp / table.tracked).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / table.tracked, tmp / table.tracked)
    return tmp


def test_a_figure_edited_by_hand_is_named(tmp_path):
    root = copy_docs(tmp_path)
    readme = root / "README.md"
    text = readme.read_text()
    marker = "<!-- figure:greedy-tales -->3.7713<!-- /figure -->"
    assert marker in text
    readme.write_text(text.replace(marker, "<!-- figure:greedy-tales -->3.7712<!-- /figure -->", 1))
    problems = registry.doc_problems(registry.load(), tmp_path)
    assert problems == ["README.md: figure greedy-tales says '3.7712', the registry '3.7713'"]


def test_a_table_edited_by_hand_and_an_unknown_figure_are_named(tmp_path):
    root = copy_docs(tmp_path)
    tracked = root / registry.load().tables["openers"].tracked
    tracked.write_text(tracked.read_text().replace("3.7713", "3.7714"))
    (root / "docs" / "extra.md").write_text("mean <!-- figure:no-such-figure -->1.0<!-- /figure -->\n")
    problems = registry.doc_problems(registry.load(), tmp_path)
    assert "experiments/README.md: table openers differs from experiments/results/openers.md" in problems
    assert "docs/extra.md: figure no-such-figure is not in the registry" in problems


def test_a_registered_figure_typed_by_hand_is_named(tmp_path):
    reg = registry.load()
    value = reg.figures["greedy-tales"].text()
    (tmp_path / "docs").mkdir()
    doc = tmp_path / "docs" / "x.md"
    quoted = f"greedy <!-- figure:greedy-tales -->{value}<!-- /figure --> mean guesses\n"
    checked = f"```console\n$ evo-wordle bench --solver greedy   # {value}\n```\n"  # the snippet test checks it
    doc.write_text(quoted + checked)
    assert registry.retyped(reg, tmp_path) == []
    for text in (f"greedy scores {value} here\n", f"| greedy | {value} |\n",
                 f"<!-- snippet: not run — slow -->\n```sh\nevo-wordle bench   # {value}\n```\n",
                 f"```\ngreedy {value}\n```\n"):
        doc.write_text(quoted + checked + text)
        assert registry.retyped(reg, tmp_path) == [
            f"docs/x.md:{5 + text[:text.index(value)].count(chr(10))}: {value} is figure greedy-tales typed by hand: "
            "quote it with its marker"], text
    doc.write_text(f"the proven optimum is {registry.PUBLISHED.copy().pop()}, and {value}1 is another number\n")
    assert registry.retyped(reg, tmp_path) == []


def test_render_docs_restores_a_hand_edit(tmp_path):
    root = copy_docs(tmp_path)
    bench = root / "docs" / "bench.md"
    good = bench.read_text()
    bench.write_text(good.replace("<!-- figure:naive-tares -->4.2269<!-- /figure -->",
                                  "<!-- figure:naive-tares -->4.3<!-- /figure -->"))
    assert registry.render_docs(registry.load(), root) == [bench]
    assert bench.read_text() == good


def test_set_values_rewrites_only_the_value_line(tmp_path):
    path = tmp_path / "figures.toml"
    shutil.copyfile(registry.REGISTRY, path)
    registry.set_values({"greedy-tales": 3.7801}, path)
    reg = registry.load(path)
    assert reg.figures["greedy-tales"].value == 3.7801
    assert reg.figures["greedy-rates"].value == registry.load().figures["greedy-rates"].value
    assert len(path.read_text().splitlines()) == len(registry.REGISTRY.read_text().splitlines())


def test_extract_picks_list_elements_by_fields():
    data = {"rows": [{"label": "a", "mean": 1.5}, {"label": "b", "mean": 2.5}]}
    assert registry.extract(data, ("rows", {"label": "b"}, "mean")) == 2.5
    with pytest.raises(registry.RegistryError, match="0 elements match"):
        registry.extract(data, ("rows", {"label": "c"}, "mean"))
    with pytest.raises(registry.RegistryError, match="not a number"):
        registry.extract(data, ("rows", 0, "label"))


def test_table_numbers_compare_within_the_last_digit():
    old = "| a | 4.753 ± 0.074 | 8.89 |"
    assert registry.numbers_differ("| a | 4.754 ± 0.074 | 8.89 |", old, 1) is None
    assert "4.760" in registry.numbers_differ("| a | 4.760 ± 0.074 | 8.89 |", old, 1)
    assert registry.numbers_differ("| b | 4.753 ± 0.074 | 8.89 |", old, 1) == "the text differs"


def test_fast_subset_of_reproduce_check(tmp_path):
    """The cheap deterministic figures regenerate to the registered values; nothing tracked changes."""
    before = git_status()
    proc = reproduce("--only", *FAST, "--check", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "all agree" in proc.stdout
    summary = json.loads((tmp_path / "figures.json").read_text())
    assert {"greedy-tales", "naive-tares", "naive-tares-over6", "entropy-tares", "p1-naive-slate"} <= set(
        summary["figures"])
    assert abs(summary["figures"]["greedy-tales"]["measured"] - 3.7713) < 1e-4
    assert summary["runs"]["greedy-tales"]["command"].startswith("evo-wordle bench --solver greedy")
    assert git_status() == before


def test_check_names_a_figure_that_differs(tmp_path):
    reg = tmp_path / "figures.toml"
    shutil.copyfile(registry.REGISTRY, reg)
    registry.set_values({"entropy-black": 4.2}, reg)
    proc = reproduce("--registry", str(reg), "--only", "entropy-black", "--check", "--out", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "DIFFERS entropy-black: docs say 4.20000000, regenerated 4.14023705" in proc.stderr
    # the docs still print 4.14023705, so the doc check names it too
    assert "figure entropy-black says '4.14023705', the registry '4.20000000'" in proc.stderr


def test_reproduce_refuses_an_out_folder_inside_the_repository_and_unknown_ids():
    proc = reproduce("--out", str(ROOT / "docs"), "--only", "greedy-tales")
    assert proc.returncode == 2 and "inside the repository" in proc.stderr
    proc = reproduce("--only", "no-such-figure")
    assert proc.returncode == 2 and "no figure, table or run called 'no-such-figure'" in proc.stderr


@pytest.mark.parametrize("content", [None, "{not json", '{"figures": {}}'])
def test_from_a_folder_without_a_usable_summary_is_one_line(tmp_path, content):
    """``--from DIR`` names what is wrong with DIR in one line (exit 2), never a traceback."""
    if content is not None:
        (tmp_path / "figures.json").write_text(content)
    proc = reproduce("--only", "greedy-tales", "--from", str(tmp_path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"reproduce: error: --from {tmp_path} holds no usable figures.json")
    assert len(proc.stderr.strip().splitlines()) == 1


# -- experiment scripts write no tracked file unless asked --------------------------------

SCRIPTS = sorted(p.name for p in EXPERIMENTS.glob("*.py")
                 if not p.name.startswith("_") and p.name not in ("registry.py", "reproduce.py"))

#: Tiny runs of the scripts cheap enough for CI: the sweep machinery (_study.py, shared by every
#: study script), a standalone script and a board run; the others are checked through --help
#: and run in full by `reproduce.py`, which fails when `git status` changes.
TINY = {
    "population_table.py": ["--games", "3", "--jobs", "1"],
    "init_study.py": ["--games", "2", "--jobs", "1"],
    "ga_tuning.py": ["--stage", "1", "--sample", "5", "--only", '"pressure": 1000, "population": 100',
                     "--no-baseline"],
    "multiboard.py": ["--boards", "2", "--games", "10", "--jobs", "1", "--ties", "candidates"],
}


def test_the_default_output_folder_is_untracked():
    from _study import OUT

    assert OUT == EXPERIMENTS / "out"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(OUT / "any" / "file.json")], cwd=ROOT)
    assert ignored.returncode == 0


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_has_out_and_write_docs(script):
    proc = subprocess.run([sys.executable, str(EXPERIMENTS / script), "--help"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    assert "--out" in proc.stdout and "--write-docs" in proc.stdout


@pytest.mark.parametrize("script", sorted(TINY))
def test_a_tiny_run_writes_only_into_out(script, tmp_path):
    before = git_status()
    proc = subprocess.run([sys.executable, str(EXPERIMENTS / script), *TINY[script], "--out", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, env=_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert git_status() == before
    assert any(tmp_path.rglob("*.json")) or any(tmp_path.rglob("*.md"))
    if script in ("population_table.py", "init_study.py"):  # _study.py's line said "(1 local workers)"
        assert "s wall (1 local worker)\n" in proc.stdout, proc.stdout[-2000:]


def _env() -> dict:
    import os

    return {**os.environ, "MPLBACKEND": "Agg"}


@pytest.mark.parametrize("kind", ["to-a-file", "dangling"])
def test_an_output_that_is_a_symlink_is_replaced_not_written_through(tmp_path, kind):
    """The scripts write through the package's atomic writers (experiments/_study.py): a symlink
    at an output path becomes a regular file holding the output, its target left alone."""
    victim = tmp_path / "victim.json"
    if kind == "to-a-file":
        victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    link = out / "multiboard.json"
    link.symlink_to(victim)
    proc = subprocess.run([sys.executable, str(EXPERIMENTS / "multiboard.py"), *TINY["multiboard.py"],
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, env=_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not link.is_symlink() and json.loads(link.read_text())  # the script's rows
    assert (victim.read_text() == "precious\n") if kind == "to-a-file" else not victim.exists()


def test_speed_figures_from_a_run_started_on_a_busy_machine_are_not_stored():
    import reproduce

    reg = registry.load()
    runs = reg.runs_for(["speed-ga", "greedy-tales"])
    records = {"speed-ga": {"load_before": 3.7}, "greedy-tales": {"load_before": 3.7}}
    # a record without the load measured during the run (an older --out folder): the load at its start decides;
    # only the timed run is held back (a seeded figure does not depend on the load), and only above the cores
    assert reproduce.too_busy(reg, runs, records, cpus=2) == {"speed-ga": "the run started at load 3.70 on 2 cores"}
    assert reproduce.too_busy(reg, runs, records, cpus=4) == {}
    assert reproduce.too_busy(reg, runs, {"speed-ga": {"load_before": 2.0}}, cpus=2) == {}


def test_speed_figures_timed_while_other_work_started_are_not_stored():
    import reproduce

    reg = registry.load()
    runs = reg.runs_for(["speed-ga", "greedy-tales"])
    limit = reproduce.FOREIGN_LIMIT
    # a quiet start does not excuse other work that ran during the timing, and the measure during the run wins
    rising = {"speed-ga": {"load_before": 0.1, "foreign_load": 1.3}, "greedy-tales": {"foreign_load": 1.3}}
    assert reproduce.too_busy(reg, runs, rising, cpus=2) == {
        "speed-ga": f"other processes used 1.30 cores on average while it ran (limit {limit})"}
    assert reproduce.too_busy(reg, runs, {"speed-ga": {"load_before": 3.7, "foreign_load": limit}}, cpus=2) == {}
    over = {"speed-ga": {"load_before": 0.0, "foreign_load": limit + 0.01}}
    assert list(reproduce.too_busy(reg, runs, over, cpus=2)) == ["speed-ga"]
    # a damaged record (someone else's --from folder) is neither trusted nor a traceback
    for bad in ({"foreign_load": "low"}, {"foreign_load": float("nan")}, {"load_before": True}, {}, "x"):
        assert reproduce.too_busy(reg, runs, {"speed-ga": bad}, cpus=2) == {
            "speed-ga": "its record holds no load measured while it ran"}


def test_the_cpu_of_a_runs_own_processes_is_not_counted_as_other_work():
    import reproduce

    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.0: pass"
    before = reproduce.machine_and_own_cpu()
    # a grandchild, as the pool workers of a --jobs 2 run are
    subprocess.run([sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {burn!r}])"],
                   check=True)
    machine, own = (a - b for a, b in zip(reproduce.machine_and_own_cpu(), before))
    assert own >= 0.95 and machine >= own - 0.1


def test_a_run_records_the_cpu_other_processes_used_while_it_ran(tmp_path):
    import reproduce

    burn = "import time\nt = time.time()\nwhile time.time() - t < 3: pass"
    other = subprocess.Popen([sys.executable, "-c", burn])  # not part of the run: waited for only afterwards
    try:
        run = registry.Run(id="sleeper", command="python -c 'import time; time.sleep(2.5)'")
        record = reproduce.do_run(run, tmp_path, log=sys.stderr)
    finally:
        other.wait()
    assert record["returncode"] == 0 and record["foreign_load"] >= 0.3


def test_write_docs_from_a_busy_speed_run_stores_nothing_and_says_why(tmp_path):
    (tmp_path / "runs" / "speed-ga").mkdir(parents=True)
    record = {"command": "x", "argv": [], "returncode": 0, "seconds": 1.0, "load_before": 99.0, "load_after": 99.0}
    (tmp_path / "figures.json").write_text(json.dumps({"figures": {}, "runs": {"speed-ga": record}}))
    before = git_status()
    proc = reproduce("--only", "speed-ga", "--from", str(tmp_path), "--write-docs")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "speed-ga: speed figures not stored: the run started at load 99.00 on" in proc.stderr
    assert git_status() == before
