"""The figure registry: every figure the docs quote, defined once in ``experiments/figures.toml``.

A *run* is one command (an ``evo-wordle`` call or an experiment script) that writes JSON;
a *figure* is one number read from a run's JSON, with the value the docs state, its
tolerance and how it is printed.  Docs quote a figure between markers,
``<!-- figure:ID -->3.7713<!-- /figure -->``, and a generated table between
``<!-- table:ID -->`` and ``<!-- /table -->``; this module reads and renders both, so
``reproduce.py`` and the tests share one parser.  No run happens here.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from evo_wordle.files import atomic_write_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
REGISTRY = HERE / "figures.toml"
#: The files whose figures must come from the registry.
DOC_GLOBS = ("README.md", "docs/*.md", "experiments/README.md", "experiments/results/*.md")

FIGURE_RE = re.compile(r"<!-- figure:([a-z0-9_-]+) -->(.*?)<!-- /figure -->")
TABLE_RE = re.compile(r"<!-- table:([a-z0-9_-]+) -->\n(.*?)<!-- /table -->", re.S)
NUMBER_RE = re.compile(r"[-+−]?\d+(?:\.\d+)?")


#: Files whose prose must not retype a registered figure (experiments/results/*.md are generated).
PROSE_GLOBS = ("README.md", "docs/*.md", "experiments/README.md")
FENCE_RE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.S | re.M)
#: Fenced blocks the snippet test runs and checks (tests/test_doc_snippets.py), unless marked not run.
RUN_LANGS = {"python", "console", "bash", "sh", "shell"}
NOT_RUN_RE = re.compile(r"<!--\s*snippet:\s*not run")
#: Published figures that equal a registered one (the proven optima): quoting the paper is no retype.
PUBLISHED = {"3.4201", "3.4212", "3.5076"}
#: Lines that hold a registered value but do not quote it, by file: another configuration's own
#: result that happens to be equal (the history tables of docs/ga.md), or an example of a rule.
NOT_QUOTES = {
    "docs/ga.md": ("| pressure 3000 | 3.7731 |", "| pressure 1000 | 3.7735 |",
                   "| pressure 100, population 100, 2 generations/guess |"),
    "docs/foundation.md": ("a trailing comment such as `# TARES 6.19405254`",),
}


class RegistryError(ValueError):
    """The registry or a doc marker is malformed."""


@dataclass(frozen=True)
class Run:
    """One command that produces JSON: ``output`` is ``stdout`` or a file inside the run folder."""

    id: str
    command: str
    output: str = "stdout"
    quick: bool = False
    outputs: dict[str, str] = field(default_factory=dict)  # file in run folder -> tracked path (--write-docs)
    note: str = ""


@dataclass(frozen=True)
class Figure:
    """One quoted number: ``key`` walks the run's JSON (a string is a field, a table picks the
    list element whose fields match) to a number that, times ``scale`` (100 for a percentage),
    should be ``value`` within the tolerance; the docs print ``value`` with ``digits`` decimals."""

    id: str
    run: str
    key: tuple
    value: float
    digits: int = 4
    scale: float = 1.0
    tol: float | None = None
    rel_tol: float | None = None
    factor: float | None = None  # speed ratios: within value/factor .. value*factor
    file: str | None = None
    note: str = ""

    def agrees(self, measured: float) -> bool:
        """Whether a regenerated value is what the docs say, within the tolerance."""
        if self.factor is not None:
            return self.value / self.factor <= measured <= self.value * self.factor
        return abs(measured - self.value) <= self.tolerance + 1e-12

    def tolerance_text(self) -> str:
        return f"a factor {self.factor:g}" if self.factor is not None else f"{self.tolerance:g}"

    @property
    def tolerance(self) -> float:
        if self.rel_tol is not None:
            return abs(self.value) * self.rel_tol
        return self.tol if self.tol is not None else 10.0 ** -self.digits

    def text(self, value: float | None = None) -> str:
        """How the docs print ``value`` (default: the registered value)."""
        v = self.value if value is None else value
        return f"{v:.{self.digits}f}"


@dataclass(frozen=True)
class Table:
    """A generated Markdown table: ``file`` in the run folder, kept in git at ``tracked``."""

    id: str
    run: str
    file: str
    tracked: str
    tol_units: float = 1.0  # numbers may differ by this many units of their last printed digit


@dataclass(frozen=True)
class Registry:
    runs: dict[str, Run]
    figures: dict[str, Figure]
    tables: dict[str, Table]

    def runs_for(self, figure_ids: list[str] | None = None, quick: bool = False) -> list[Run]:
        """The runs needed for these figures/tables (default: all), in registry order."""
        if figure_ids is None:
            wanted = {r.id for r in self.runs.values() if r.quick or not quick}
        else:
            wanted = set()
            for fid in figure_ids:
                if fid in self.figures:
                    wanted.add(self.figures[fid].run)
                elif fid in self.tables:
                    wanted.add(self.tables[fid].run)
                elif fid in self.runs:
                    wanted.add(fid)
                else:
                    raise RegistryError(f"no figure, table or run called {fid!r} in {REGISTRY.name}")
        return [r for r in self.runs.values() if r.id in wanted]


def load(path: Path = REGISTRY) -> Registry:
    """Parse and validate the registry file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{path.name}: {exc}") from None
    unknown = set(data) - {"runs", "figure", "table"}
    if unknown:
        raise RegistryError(f"{path.name}: unknown sections {sorted(unknown)}")
    try:
        runs = {k: Run(id=k, **v) for k, v in data.get("runs", {}).items()}
        figures = {k: Figure(id=k, **{**v, "key": tuple(v["key"])}) for k, v in data.get("figure", {}).items()}
        tables = {k: Table(id=k, **v) for k, v in data.get("table", {}).items()}
    except (TypeError, KeyError) as exc:
        raise RegistryError(f"{path.name}: {exc}") from None
    for item in [*figures.values(), *tables.values()]:
        if item.run not in runs:
            raise RegistryError(f"{path.name}: {item.id} names unknown run {item.run!r}")
    clash = set(figures) & set(tables)
    if clash:
        raise RegistryError(f"{path.name}: ids used twice: {sorted(clash)}")
    return Registry(runs, figures, tables)


def extract(data, key: tuple, where: str = "") -> float:
    """Follow ``key`` through parsed JSON and return the number it ends on."""
    node = data
    for step in key:
        if isinstance(step, dict):
            if not isinstance(node, list):
                raise RegistryError(f"{where}: expected a list before {step}")
            hits = [x for x in node if isinstance(x, dict) and all(x.get(k) == v for k, v in step.items())]
            if len(hits) != 1:
                raise RegistryError(f"{where}: {len(hits)} elements match {step}")
            node = hits[0]
        elif isinstance(node, list):
            node = node[int(step)]
        elif isinstance(node, dict) and step in node:
            node = node[step]
        else:
            raise RegistryError(f"{where}: no field {step!r}")
    if isinstance(node, bool) or not isinstance(node, int | float):
        raise RegistryError(f"{where}: {key} is {node!r}, not a number")
    return float(node)


def doc_files(root: Path = ROOT) -> list[Path]:
    files: list[Path] = []
    for pattern in DOC_GLOBS:
        files += sorted(root.glob(pattern))
    return files


def doc_markers(root: Path = ROOT) -> tuple[list[tuple[Path, str, str]], list[tuple[Path, str, str]]]:
    """(figure markers, table blocks) in the docs, each as (file, id, quoted text)."""
    figures, tables = [], []
    for path in doc_files(root):
        text = path.read_text(encoding="utf-8")
        figures += [(path, m.group(1), m.group(2)) for m in FIGURE_RE.finditer(text)]
        tables += [(path, m.group(1), m.group(2)) for m in TABLE_RE.finditer(text)]
    return figures, tables


def doc_problems(reg: Registry, root: Path = ROOT) -> list[str]:
    """Every place where the docs disagree with the registry (empty when they agree)."""
    problems = []
    figures, tables = doc_markers(root)
    for path, fid, text in figures:
        rel = path.relative_to(root)
        if fid not in reg.figures:
            problems.append(f"{rel}: figure {fid} is not in the registry")
        elif text != reg.figures[fid].text():
            problems.append(f"{rel}: figure {fid} says {text!r}, the registry {reg.figures[fid].text()!r}")
    for path, tid, text in tables:
        rel = path.relative_to(root)
        if tid not in reg.tables:
            problems.append(f"{rel}: table {tid} is not in the registry")
            continue
        tracked = root / reg.tables[tid].tracked
        if not tracked.exists():
            problems.append(f"{rel}: table {tid}: {reg.tables[tid].tracked} is missing")
        elif text.strip() != tracked.read_text(encoding="utf-8").strip():
            problems.append(f"{rel}: table {tid} differs from {reg.tables[tid].tracked}")
    problems += retyped(reg, root)
    quoted = {fid for _, fid, _ in figures} | {tid for _, tid, _ in tables}
    for item in [*reg.figures, *reg.tables]:
        if item not in quoted:
            problems.append(f"{item} is registered but quoted nowhere")
    return problems


def retyped(reg: Registry, root: Path = ROOT) -> list[str]:
    """Registered figures (three or more decimals) typed by hand outside a marker: in prose, in
    hand-made tables and in code blocks the snippet test does not run.  A retyped figure goes
    stale when the figure is regenerated; quote it with its marker instead."""
    values: dict[str, list[str]] = {}
    for f in reg.figures.values():
        text = f.text()
        if f.digits >= 3 and text not in PUBLISHED:
            values.setdefault(text.lstrip("-"), []).append(f.id)
    problems = []
    for pattern in PROSE_GLOBS:
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            text = FIGURE_RE.sub("", path.read_text(encoding="utf-8"))
            text = TABLE_RE.sub(lambda m: "\n" * m.group(0).count("\n"), text)

            def blank_checked(m: re.Match, text: str = text) -> str:
                before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
                runs = m.group("lang") in RUN_LANGS and not NOT_RUN_RE.search(before)
                return "\n" * m.group(0).count("\n") if runs else m.group(0)

            text = FENCE_RE.sub(blank_checked, text)
            for n, line in enumerate(text.splitlines(), 1):
                if any(c in line for c in NOT_QUOTES.get(rel, ())):
                    continue
                for m in re.finditer(r"(?<![\w.])\d+\.\d{3,}(?![\w.])", line):
                    if m.group() in values:
                        problems.append(f"{rel}:{n}: {m.group()} is figure {', '.join(values[m.group()])} "
                                        "typed by hand: quote it with its marker")
    return problems


def render_docs(reg: Registry, root: Path = ROOT) -> list[Path]:
    """Rewrite every marker in the docs from the registry (and tracked tables); returns the files changed."""
    changed = []

    def table_text(m: re.Match) -> str:
        tid = m.group(1)
        if tid not in reg.tables:
            raise RegistryError(f"table {tid} is not in the registry")
        body = (root / reg.tables[tid].tracked).read_text(encoding="utf-8").strip()
        return f"<!-- table:{tid} -->\n{body}\n<!-- /table -->"

    def figure_text(m: re.Match) -> str:
        fid = m.group(1)
        if fid not in reg.figures:
            raise RegistryError(f"figure {fid} is not in the registry")
        return f"<!-- figure:{fid} -->{reg.figures[fid].text()}<!-- /figure -->"

    for path in doc_files(root):
        old = path.read_text(encoding="utf-8")
        new = FIGURE_RE.sub(figure_text, TABLE_RE.sub(table_text, old))
        if new != old:
            atomic_write_text(path, new)
            changed.append(path)
    return changed


def set_values(values: dict[str, float], path: Path = REGISTRY) -> None:
    """Store new expected values in the registry file, keeping its layout and comments."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    section, done = None, set()
    for i, line in enumerate(lines):
        head = re.match(r"\[figure\.([a-z0-9_-]+)\]\s*$", line.strip())
        if head or line.startswith("["):
            section = head.group(1) if head else None
            continue
        if section in values and re.match(r"value\s*=", line):
            lines[i] = f"value = {values[section]!r}\n"
            done.add(section)
    missing = set(values) - done
    if missing:
        raise RegistryError(f"{path.name}: no 'value =' line for {sorted(missing)}")
    atomic_write_text(path, "".join(lines))


def numbers_differ(new: str, old: str, tol_units: float) -> str | None:
    """Compare two generated tables: same words, numbers within ``tol_units`` of the last digit."""
    if NUMBER_RE.sub("#", new).split() != NUMBER_RE.sub("#", old).split():
        return "the text differs"
    for a, b in zip(NUMBER_RE.findall(new), NUMBER_RE.findall(old)):
        decimals = len(b.split(".")[1]) if "." in b else 0
        x, y = (float(s.replace("−", "-")) for s in (a, b))
        if abs(x - y) > tol_units * 10.0 ** -decimals + 1e-12:
            return f"{a} where the tracked table says {b}"
    return None


def read_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))
