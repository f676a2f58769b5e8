"""Every tracked study figure (docs/figures/*.png drawn from tracked data) is redrawn here from
that data by the function its script draws it with, and what is drawn is checked against the
data read independently: line points and bar heights (the means of the tracked results.csv or
JSON), error bars (the 95 % t interval over the repeated seeds, none for single runs), axis
and legend labels, and the seed, N and setting the caption states.  PNG bytes are never
compared (matplotlib versions differ); a plotting bug (swapped series, a dropped point, the
wrong column, error bars from the wrong spread, a wrong N) fails here.

Figures not drawn from tracked data (convergence_*.png, histograms.png, evolution_merry.png:
GA runs whose per-game results are not kept) are listed in docs/testing.md."""

from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from evo_wordle.sweep import format_value, load_sweep, summarize
from evo_wordle.words import load_words

from .experiment_scripts import load_experiment
from .reference import reference_pattern

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "experiments" / "results"
STRATS = ROOT / "data" / "strategies"
#: The package's t quantiles are a 3-decimal table (4.303 for 2 degrees of freedom, exact 4.3027):
#: half-widths agree with the exact interval to this share (a wrong spread is off by far more).
T_TABLE = 2e-4


# ---------------------------------------------------------------- the data, read without the package
def cells(folder: Path, keys: list[str]) -> dict[tuple, dict]:
    """results.csv of a tracked sweep by configuration (its keys' values as written): the seeds'
    means, fail rates and games, with the mean over seeds and the half-width of its 95 % t interval."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    with open(folder / "results.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            groups[tuple(row[k] for k in keys)].append(row)
    out = {}
    for key, rows in groups.items():
        means = np.array([float(r["mean"]) for r in rows])
        n = len(means)
        half = stats.t.ppf(0.975, n - 1) * means.std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
        out[key] = {"seeds": n, "mean": float(means.mean()), "ci95": float(half),
                    "fail_rate": float(np.mean([float(r["fail_rate"]) for r in rows])),
                    "games": {int(r["games"]) for r in rows}, "seed_values": sorted(int(r["seed"]) for r in rows)}
    return out


def sweep_json(folder: Path) -> dict:
    return json.loads((folder / "sweep.json").read_text())


def tracked_sweep(name: str):
    spec, rows = load_sweep(RESULTS / name)
    return spec, summarize(spec, rows)


def caption(fig) -> str:
    """The caption drawn at the foot of a figure (its last text), unwrapped."""
    return fig.texts[-1].get_text().replace("\n", " ")


def all_answers() -> int:
    return len(load_words().answers)


def plotted_lines(ax) -> list:
    """The data lines of an axes (not error-bar caps, which have no line style)."""
    return [ln for ln in ax.get_lines() if ln.get_linestyle() not in ("None", "none", "")]


def error_bars(ax) -> list[np.ndarray]:
    """Per error-bar container: an array of (x, low, high) per bar."""
    from matplotlib.container import ErrorbarContainer

    out = []
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            segments = c.lines[2][0].get_segments()
            out.append(np.array([(s[0][0], min(s[0][1], s[1][1]), max(s[0][1], s[1][1])) for s in segments]))
    return out


def bar_containers(ax) -> list:
    from matplotlib.container import BarContainer

    return [c for c in ax.containers if isinstance(c, BarContainer)]


def tick_of(ax, x: float) -> str:
    """The label of the x tick nearest a drawn x (in log units on a log axis): a dodged point
    belongs to the tick it sits beside."""
    ticks, labels = ax.get_xticks(), [t.get_text() for t in ax.get_xticklabels()]
    scale = np.log10 if ax.get_xscale() == "log" else (lambda v: v)
    return labels[int(np.argmin(np.abs(scale(np.asarray(ticks, float)) - scale(x))))]


# ---------------------------------------------------------------- the sweep line figures
def check_lines(plotted, folder: Path, x: str, hue: str | None, where: dict | None = None) -> None:
    """A plot_lines figure of the sweep in ``folder``: one line per ``hue`` value (legend in grid
    order), each point the mean over seeds of its cell at the tick of its ``x`` value, error bars
    the seeds' 95 % t interval; labels and caption as the sweep records."""
    meta = sweep_json(folder)
    keys = list(meta["grid"])
    data = cells(folder, keys)
    where = where or {}

    def cell(config: dict) -> dict | None:
        return data.get(tuple(format_value(config[k]) for k in keys))

    fixed = {k: v[0] for k, v in meta["grid"].items() if k not in (x, hue)}
    fixed.update(where)
    hues = meta["grid"][hue] if hue else [None]
    fig = plotted.figure
    (ax,) = fig.axes
    lines = plotted_lines(ax)
    assert len(lines) == len(hues)
    if hue:
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"{hue.replace('_', ' ')} {format_value(h)}"
                                                                        for h in hues]
    bars = error_bars(ax)
    assert len(bars) == len(hues), "every series has repeated seeds, so every series has error bars"
    for line, errs, h in zip(lines, bars, hues):
        points = [(v, cell({**fixed, x: v, **({hue: h} if hue else {})})) for v in meta["grid"][x]]
        points = [(v, c) for v, c in points if c is not None]
        xy = line.get_xydata()
        assert [tick_of(ax, px) for px in xy[:, 0]] == [format_value(v) for v, _ in points]
        np.testing.assert_allclose(xy[:, 1], [c["mean"] for _, c in points], rtol=0, atol=1e-12)
        np.testing.assert_allclose(errs[:, 0], xy[:, 0], rtol=0, atol=1e-12)
        np.testing.assert_allclose((errs[:, 1] + errs[:, 2]) / 2, xy[:, 1], rtol=0, atol=1e-12)
        np.testing.assert_allclose((errs[:, 2] - errs[:, 1]) / 2, [c["ci95"] for _, c in points], rtol=T_TABLE)
    assert ax.get_xlabel() == x.replace("_", " ")
    assert ax.get_ylabel().startswith("mean guesses ± 95 % interval over seeds")
    seeds = {c["seeds"] for c in data.values()}
    games = set().union(*(c["games"] for c in data.values()))
    assert seeds == {meta["seeds"]} and games == {all_answers()} and meta["games"] is None
    text = caption(fig)
    assert f"{meta['solver']} · seed {meta['base_seed']} (SeedSequence base)" in text
    assert f"N = {meta['seeds']} seeds x all answers per configuration" in text
    settings = meta["settings"]
    assert (settings["candidates"], settings["guess_from"], settings["daily"]) == ("allowed", "candidates", False)
    assert f"P0, cap {settings['max_guesses']}" in text
    title = ax.get_title()
    assert f"{meta['solver']}, {meta['seeds']} seeds × all games" in title
    for k, v in fixed.items():
        assert f"{k}={format_value(v)}" in title


def test_population_lines_png_draws_the_tracked_population_sweep(tmp_path):
    spec, summary = tracked_sweep("population")
    plotted = load_experiment("population_table").figures(spec, summary, tmp_path)["population_lines.png"]
    check_lines(plotted, RESULTS / "population", "population", None)


def test_mutation_lines_png_draws_the_tracked_mutation_sweep(tmp_path):
    spec, summary = tracked_sweep("mutation")
    plotted = load_experiment("mutation_table").figures(spec, summary, tmp_path)["mutation_lines.png"]
    check_lines(plotted, RESULTS / "mutation", "population", "mutation")


def test_init_lines_png_draws_the_tracked_init_sweep_at_mutation_0_3(tmp_path):
    spec, summary = tracked_sweep("init")
    plotted = load_experiment("init_study").figures(spec, summary, tmp_path)["init_lines.png"]
    check_lines(plotted, RESULTS / "init", "population", "init", where={"mutation": 0.3})


def test_mutation_heatmap_png_draws_the_tracked_mutation_sweep(tmp_path):
    folder = RESULTS / "mutation"
    meta = sweep_json(folder)
    data = cells(folder, list(meta["grid"]))
    spec, summary = tracked_sweep("mutation")
    fig = load_experiment("mutation_table").figures(spec, summary, tmp_path)["mutation_heatmap.png"].figure
    ax = fig.axes[0]
    pops, muts = meta["grid"]["population"], meta["grid"]["mutation"]
    expected = np.array([[data[(format_value(p), format_value(m))]["mean"] for p in pops] for m in muts])
    fails = np.array([[data[(format_value(p), format_value(m))]["fail_rate"] for p in pops] for m in muts])
    # rows mutation (bottom up), columns population
    np.testing.assert_allclose(np.ma.getdata(ax.images[0].get_array()), expected, rtol=0, atol=1e-12)
    assert [t.get_text() for t in ax.get_xticklabels()] == [format_value(p) for p in pops]
    assert [t.get_text() for t in ax.get_yticklabels()] == [format_value(m) for m in muts]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("population", "mutation")
    assert ax.images[0].origin == "lower"
    # each cell's annotation: its mean and % over 6, at the cell
    notes = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
    assert notes == {(r, c): f"{expected[r, c]:.3f}\n{100 * fails[r, c]:.1f} %"
                     for r in range(len(muts)) for c in range(len(pops))}
    # the outline marks the lowest mean (no tie in the tracked sweep)
    r, c = np.unravel_index(np.argmin(expected), expected.shape)
    assert np.sum(expected == expected[r, c]) == 1
    outlined = {(round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2))
                for p in ax.patches if not p.get_fill()}
    assert outlined == {(r, c)}
    text = caption(fig)
    assert f"outlined: the best cell, population={format_value(pops[c])}, mutation={format_value(muts[r])}" in text
    assert f"seed {meta['base_seed']} (SeedSequence base)" in text
    assert f"N = {meta['seeds']} seeds x all answers per configuration" in text
    assert f"cap {meta['settings']['max_guesses']}" in text
    assert fig.axes[1].get_ylabel() == "mean guesses (darker is better)"


# ---------------------------------------------------------------- problems.png and openers.png
def _by(folder: Path, key: str) -> tuple[dict, dict]:
    """A one-key-plus-fixed sweep's cells by the value of ``key`` (the grid's other keys fixed)."""
    meta = sweep_json(folder)
    keys = list(meta["grid"])
    return meta, {k[keys.index(key)]: c for k, c in cells(folder, keys).items()}


def test_problems_png_draws_the_tracked_problem_sweeps(tmp_path):
    mod = load_experiment("problems")
    results, specs, expected = {}, {}, {}
    for solver, _, _ in mod.SOLVERS:
        specs[solver], summary = tracked_sweep(f"problems-{solver}")
        results[solver] = {s["problem"]: s for s in summary}
        expected[solver] = _by(RESULTS / f"problems-{solver}", "problem")
    fig = mod.plot_problems(results, specs, tmp_path / "problems.png").figure
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == mod.PROBLEMS
    bars = bar_containers(ax)
    assert [b.get_label() for b in bars] == [s for s, _, _ in mod.SOLVERS]
    repeated = []
    for b, (solver, _, _) in zip(bars, mod.SOLVERS):
        meta, data = expected[solver]
        heights = [p.get_height() for p in b.patches]
        np.testing.assert_allclose(heights, [data[p]["mean"] for p in mod.PROBLEMS], rtol=0, atol=1e-12)
        assert [tick_of(ax, p.get_x() + p.get_width() / 2) for p in b.patches] == mod.PROBLEMS
        if meta["seeds"] > 1:
            repeated.append((solver, meta, data, b))
    # error bars for the solvers with repeated seeds only, their half-widths the seeds' interval
    errs = error_bars(ax)
    assert len(errs) == len(repeated) == 1
    for e, (_, meta, data, b) in zip(errs, repeated):
        np.testing.assert_allclose(e[:, 0], [p.get_x() + p.get_width() / 2 for p in b.patches], atol=1e-12)
        np.testing.assert_allclose((e[:, 2] - e[:, 1]) / 2, [data[p]["ci95"] for p in mod.PROBLEMS], rtol=T_TABLE)
        assert all(data[p]["seeds"] == meta["seeds"] for p in mod.PROBLEMS)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [*(s for s, _, _ in mod.SOLVERS),
                      *(f"{s}: 95 % interval over {m['seeds']} seeds" for s, m, _, _ in repeated)]
    assert ax.get_ylabel() == "mean guesses (lower is better)" and ax.get_ylim()[0] == 0
    text = caption(fig)
    seeds = {expected[s][0]["base_seed"] for s in expected}
    games = set().union(*(c["games"] for _, d in expected.values() for c in d.values()))
    assert len(seeds) == 1 and f"seed {seeds.pop()} (SeedSequence base)" in text
    assert games == {all_answers()} and f"N = {all_answers()} answers per run" in text


def test_openers_png_draws_the_tracked_opener_sweeps(tmp_path):
    mod = load_experiment("openers")
    results, specs, expected = {}, {}, {}
    for solver in ("greedy", "naive"):
        specs[solver], summary = tracked_sweep(f"openers-{solver}")
        results[solver] = {s["opener"]: s for s in summary}
        expected[solver] = _by(RESULTS / f"openers-{solver}", "opener")
    openers = expected["greedy"][0]["grid"]["opener"]
    assert expected["naive"][0]["grid"]["opener"] == openers
    fig = mod.plot_openers(results, specs, openers, tmp_path / "openers.png").figure
    ax, dx = fig.axes[:2]
    base = mod.BASELINE_OPENER
    for a in (ax, dx):
        assert [t.get_text() for t in a.get_xticklabels()] == [w.upper() for w in openers]
        assert [b.get_label() for b in bar_containers(a)] == ["greedy", "naive"]
    for solver, left, right in zip(("greedy", "naive"), bar_containers(ax), bar_containers(dx)):
        data = expected[solver][1]
        means = np.array([data[w]["mean"] for w in openers])
        np.testing.assert_allclose([p.get_height() for p in left.patches], means, rtol=0, atol=1e-12)
        np.testing.assert_allclose([p.get_height() for p in right.patches], means - data[base]["mean"], atol=1e-12)
        for bars in (left, right):
            assert [tick_of(ax, p.get_x() + p.get_width() / 2) for p in bars.patches] == [w.upper() for w in openers]
    assert not error_bars(ax) and not error_bars(dx)  # one deterministic run per opener: no interval drawn
    assert base.upper() in dx.get_title() and base.upper() in dx.get_ylabel()
    text = caption(fig)
    metas = [m for m, _ in expected.values()]
    assert {m["seeds"] for m in metas} == {1} and "one run each" in text
    assert {m["base_seed"] for m in metas} == {0} and "seed 0 (both solvers deterministic" in text
    games = set().union(*(c["games"] for _, d in expected.values() for c in d.values()))
    assert games == {all_answers()} and f"N = {all_answers()} answers per opener" in text
    assert " · P0 · " in text


# ---------------------------------------------------------------- the evolved strategies' figures
def test_evolve_hist_png_draws_the_tracked_evolved_strategies_rows(tmp_path):
    mod = load_experiment("evolved_strategies")
    record = json.loads((RESULTS / "evolved_strategies.json").read_text())
    p0 = json.loads((STRATS / "p0-evolved.json").read_text())["provenance"]
    n_test = len(p0["split"]["test"])
    cap = mod.hist_caption(STRATS / "p0-evolved.json", STRATS / "answers-known-salet.json", n_test, p0["seed"])
    fig = mod.hist_figure(record["rows"], cap)
    panels = [("P0 any guess", "test"), ("known", "all")]
    for ax, (group, on) in zip(fig.axes, panels):
        rows = [r for r in record["rows"] if r["group"] == group and r["on"] == on]
        bars = bar_containers(ax)
        assert len(rows) >= 2 and len(bars) == len(rows)
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"{mod.short(r['label'])} ({r['mean']:.3f})"
                                                                        for r in rows]
        for b, r in zip(bars, rows):
            ks = sorted(int(k) for k in r["histogram"])
            assert [round(p.get_x() + p.get_width() / 2) for p in b.patches] == ks
            assert [p.get_height() for p in b.patches] == [r["histogram"][str(k)] for k in ks]
            assert sum(r["histogram"].values()) == r["games"]
            mean = sum(int(k) * v for k, v in r["histogram"].items()) / r["games"]
            assert mean == pytest.approx(r["mean"], abs=5e-5)  # the legend's mean is the bars' mean
            assert r["games"] == (n_test if on == "test" else all_answers())
        assert (ax.get_xlabel(), ax.get_ylabel()) == ("guesses", "answers")
    text = caption(fig)
    assert f"Left: the {n_test} test answers of split seed {p0['seed']}" in text
    assert f"Right: all {all_answers():,} NYT answers" in text


def test_evolve_convergence_png_draws_the_tracked_logbook(tmp_path):
    mod = load_experiment("evolved_strategies")
    log = json.loads((STRATS / "p0-evolved.log.json").read_text())
    prov = json.loads((STRATS / "p0-evolved.json").read_text())["provenance"]
    fig = mod.convergence_figure(log, prov)
    (ax,) = fig.axes
    lines = plotted_lines(ax)
    assert len(lines) == 3
    for line, column in zip(lines, ("best", "mean", "holdout")):
        np.testing.assert_array_equal(line.get_xydata(), [[r["gen"], r[column]] for r in log])
    n_train, n_val = len(prov["split"]["train"]), len(prov["split"]["validation"])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        f"best (training {n_train})", "population mean (training)", f"generation best on validation {n_val}"]
    assert ax.get_xlabel() == "generation" and f"seed {prov['seed']}" in ax.get_title()
    argv = prov["command"].split()
    mu, lam = argv[argv.index("--mu") + 1], argv[argv.index("--lambda") + 1]
    text = caption(fig)
    assert f"μ {mu}, λ {lam}, seed {prov['seed']}, one run" in text
    assert f"on {n_train} training answers" in text and f"on {n_val} other answers" in text
    # the logbook drawn is the one the shipped strategy file records
    assert [{k: r[k] for k in ("gen", "best", "mean", "holdout")} for r in prov["logbook"]] == \
        [{k: r[k] for k in ("gen", "best", "mean", "holdout")} for r in log]


# ---------------------------------------------------------------- the multi-board figures
MULTIBOARD = {2: "dordle", 4: "quordle", 8: "octordle"}


def _multiboard(tmp_path):
    mod = load_experiment("multiboard_evolution")
    docs = {b: json.loads((STRATS / f"{name}-evolved.json").read_text()) for b, name in MULTIBOARD.items()}
    drawn = mod.draw(mod.runs_from_files({b: STRATS / f"{name}-evolved.json" for b, name in MULTIBOARD.items()}),
                     tmp_path)
    return docs, drawn


def _multiboard_caption(text: str, docs: dict) -> None:
    sets = {json.dumps(d["provenance"]["sets"], sort_keys=True) for d in docs.values()}
    assert len(sets) == 1
    s = json.loads(sets.pop())
    assert f"seed {s['seed']}" in text
    assert (f"board sets: training {s['train_sets']}, validation {s['validation_sets']}, test {s['test_sets']}"
            in text)
    caps = ", ".join(f"{n.capitalize()} {d['settings']['max_guesses']}" for n, d in zip(MULTIBOARD.values(),
                                                                                        docs.values()))
    assert f"guess caps: {caps}" in text


def test_multiboard_convergence_png_draws_the_shipped_files_logbooks(tmp_path):
    docs, drawn = _multiboard(tmp_path)
    fig = drawn["multiboard_convergence.png"].figure
    assert len(fig.axes) == len(docs)
    for ax, (boards, doc) in zip(fig.axes, docs.items()):
        log, prov = doc["provenance"]["logbook"], doc["provenance"]
        assert f"({boards} boards)" in ax.get_title()
        lines = plotted_lines(ax)
        for line, column in zip(lines[:3], ("best", "mean", "holdout")):
            np.testing.assert_array_equal(line.get_xydata(), [[r["gen"], r[column]] for r in log])
        winner = lines[3].get_ydata()
        assert len(lines) == 4 and set(winner) == {prov["fitness"]["validation"]}
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [
            "best (training sets)", "population mean (training sets)", "the same best, on the validation sets",
            f"the winner, on the validation sets ({prov['fitness']['validation']:.3f})"]
    _multiboard_caption(caption(fig), docs)


def test_multiboard_hist_png_draws_the_shipped_files_test_histograms(tmp_path):
    docs, drawn = _multiboard(tmp_path)
    fig = drawn["multiboard_hist.png"].figure
    for ax, doc in zip(fig.axes, docs.values()):
        prov = doc["provenance"]
        bars = bar_containers(ax)
        assert len(bars) == 2
        rollout = doc["params"].get("rollout")
        names = [f"evolved + lookahead (--rollout {rollout})" if rollout else "evolved", "summed entropy"]
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        for b, key, name, label in zip(bars, ("evolved", "summed_entropy"), names, labels):
            hist = prov[key]["histogram"]
            total = sum(hist.values())
            assert total == prov["sets"]["test_sets"]
            ks = sorted({int(k) for k in (*prov["evolved"]["histogram"], *prov["summed_entropy"]["histogram"])})
            assert [round(p.get_x() + p.get_width() / 2) for p in b.patches] == ks
            np.testing.assert_allclose([p.get_height() for p in b.patches],
                                       [100 * hist.get(str(k), 0) / total for k in ks], rtol=1e-12)
            assert label == (f"{name}: mean {prov[key]['test_mean']:.3f}, {prov[key]['test_failures']} over "
                             "the win limit")
            mean = sum(int(k) * v for k, v in hist.items()) / total
            assert mean == pytest.approx(prov[key]["test_mean"], abs=5e-5)
        assert ax.get_ylabel() == "% of test board sets"
    _multiboard_caption(caption(fig), docs)


# ---------------------------------------------------------------- cheatsheet_salet.png
def test_cheatsheet_salet_png_draws_the_shipped_tree(tmp_path, capsys, cache_dir, monkeypatch):
    """cheatsheet_salet.png's registered command, its figure checked against the tree file read
    here line by line: per feedback on SALET, the answers by guesses taken, biggest first."""
    from evo_wordle.cli import main
    from evo_wordle.plots import cheatsheet as module

    tree = STRATS / "answers-known-salet.tree"
    drawn = []
    real = module.plot_cheat_sheet

    def spy(*args, **kwargs):
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(module, "plot_cheat_sheet", spy)
    assert main(["cheatsheet", "--tree", str(tree), "--top", "20", "--json", "--plot",
                 str(tmp_path / "cheatsheet_salet.png")]) == 0
    capsys.readouterr()
    groups: dict[str, dict] = {}
    for line in tree.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        answer, path = line.split(":")
        path = path.split()
        code, digits = reference_pattern(path[0], answer), []
        for _ in range(5):
            digits.append(str(code % 3))
            code //= 3
        g = groups.setdefault("".join(reversed(digits)), {"second": None if len(path) == 1 else path[1],
                                                          "hist": defaultdict(int)})
        g["hist"][len(path)] += 1
    # biggest first, ties in feedback order (the base-3 code's order)
    rows = sorted(groups.items(), key=lambda kv: (-sum(kv[1]["hist"].values()), kv[0]))[:20]
    fig = drawn[0].figure
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert [lab.split()[0] for lab in labels] == [f for f, _ in rows]
    assert [lab.split("→ ")[1] for lab in labels] == [(g["second"] or "solved").upper() for _, g in rows]
    # stacked bars, one barh call per guess count (ascending): per row, that count's answers
    counts = sorted({k for _, g in rows for k in g["hist"]})
    per_count = [ax.patches[i * len(rows):(i + 1) * len(rows)] for i in range(len(counts))]
    assert len(ax.patches) == len(counts) * len(rows)
    for c, patches in zip(counts, per_count):
        assert [p.get_width() for p in patches] == [g["hist"].get(c, 0) for _, g in rows]
        assert [round(p.get_y() + p.get_height() / 2) for p in patches] == list(range(len(rows)))
    total = sum(sum(g["hist"].values()) for g in groups.values())
    text = caption(fig)
    assert total == all_answers() and f"N = {total:,} answers" in text and "opener SALET" in text
    assert f"({len(rows)} of {len(groups)})" in ax.get_title(loc="left")
