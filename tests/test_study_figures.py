"""Every study figure in docs/figures/ is redrawn here from the tracked data it is drawn from, by
the function its script or registered command draws it with, and what is drawn is checked
against the data read independently: line points and bar heights (the means of the tracked
results.csv or JSON, medians and percentiles recomputed from per-run curves, shares from
histograms), error bars (the 95 % t interval over the repeated seeds, none for single runs),
axis and legend labels, and the seed, N and setting the caption states.  PNG bytes are never
compared (matplotlib versions differ); a plotting bug (swapped series, a dropped point, the
wrong column, error bars from the wrong spread, a wrong N) fails here.

convergence.py's four figures are drawn from experiments/results/convergence_figures.json (the
script draws them from that record) and bench_greedy_tales.png from the JSON its registered run
printed (bench_greedy_tales.json); both are cross-checked with the summaries the docs quote."""

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
            # the file's cap is its win limit (N + 5): a lost set is one not solved within it
            assert doc["settings"]["max_guesses"] == doc["settings"]["boards"] + 5
            assert label == (f"{name}: mean {prov[key]['test_mean']:.3f}, {prov[key]['test_failures']} not solved "
                             f"within {doc['settings']['max_guesses']}")
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


# ---------------------------------------------------------------- convergence.py's figures
CONVERGENCE = RESULTS / "convergence_figures.json"


def convergence_record(name: str) -> dict:
    """What convergence.py drew ``name`` from (the tracked convergence_figures.json)."""
    return json.loads(CONVERGENCE.read_text())[name]


def greedy_tales() -> dict:
    """The JSON the registered run greedy-tales printed (its bench over every answer)."""
    return json.loads((RESULTS / "bench_greedy_tales.json").read_text())


def _is_p0(settings: dict) -> bool:
    return ((settings["candidates"], settings["guess_from"], settings["daily"], settings["hard"])
            == ("allowed", "candidates", False, False) and settings["max_guesses"] == 9)


def band_of(collection, xs) -> tuple[np.ndarray, np.ndarray]:
    """A fill_between band's lower and upper edge at each x (its outline's lowest and highest
    point there; every outline point at an x is one of the two)."""
    verts = collection.get_paths()[0].vertices
    low, high = [], []
    for x in xs:
        ys = verts[np.isclose(verts[:, 0], x), 1]
        low.append(ys.min())
        high.append(ys.max())
        assert all(np.isclose(y, ys.min(), rtol=1e-12) or np.isclose(y, ys.max(), rtol=1e-12) for y in ys)
    return np.array(low), np.array(high)


def check_convergence(name: str, tmp_path) -> tuple[dict, np.ndarray]:
    """plot_convergence over the tracked record of ``name``: the GA's median (and 10-90 % band,
    or each run for fewer than 5) recomputed here from the per-run curves of bits left, in bits
    and as candidates (2**bits); the baseline's curve; the Logbook panel; labels and caption."""
    from evo_wordle.plots.convergence import plot_convergence

    data = convergence_record(name)
    runs = np.array(data["runs"], dtype=float)  # runs x guesses, bits left
    n, x = len(runs), data["guess"]
    assert x == list(range(runs.shape[1])) and len(data["baseline_bits"]) == len(x)
    fig = plot_convergence(data, tmp_path / name).figure
    assert len(fig.axes) == 3
    what = f"on {data['answer'].upper()}" if data["answer"] else f"over {data['games']:,} puzzles"
    base_label = f"{data['baseline']} ({data['baseline_opener'].upper()})"
    for ax, curves, base, title in ((fig.axes[0], 2.0 ** runs, 2.0 ** np.array(data["baseline_bits"]), "Candidates"),
                                    (fig.axes[1], runs, np.array(data["baseline_bits"]), "Entropy")):
        lines = plotted_lines(ax)
        if n >= 5:
            assert len(ax.collections) == 1 and len(lines) == 2
            low, high = band_of(ax.collections[0], x)
            np.testing.assert_allclose(low, np.percentile(curves, 10, axis=0), rtol=1e-12)
            np.testing.assert_allclose(high, np.percentile(curves, 90, axis=0), rtol=1e-12)
            spread = f"{data['solver']}: 10-90 % of {n} runs"
        else:  # each run its own thin line, in run order
            assert not ax.collections and len(lines) == n + 2
            for line, curve in zip(lines[:n], curves):
                np.testing.assert_array_equal(line.get_xydata(), np.column_stack([x, curve]))
            spread = f"{data['solver']}: each of {n} runs"
        median, baseline = lines[-2:]
        np.testing.assert_allclose(median.get_xydata(), np.column_stack([x, np.median(curves, axis=0)]), rtol=1e-12)
        np.testing.assert_allclose(baseline.get_xydata(), np.column_stack([x, base]), rtol=1e-12)
        assert baseline.get_linestyle() == "--" and median.get_linestyle() == "-"
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [
            spread, f"{data['solver']}: median of {n} runs", base_label]
        assert ax.get_xlabel() == "guesses made" and list(ax.get_xticks()) == x
        assert ax.get_title() == f"{title} left {what}"
    assert fig.axes[0].get_yscale() == "log"
    assert fig.axes[0].get_ylabel().startswith("candidates left")
    assert fig.axes[1].get_ylabel().startswith("entropy left (bits)")
    # the Logbook panel: the median best and mean per generation, the best's 10-90 % band
    f, ax = data["fitness"], fig.axes[2]
    best, mean = plotted_lines(ax)
    np.testing.assert_array_equal(best.get_xydata(), np.column_stack([f["gen"], f["best"]]))
    np.testing.assert_array_equal(mean.get_xydata(), np.column_stack([f["gen"], f["mean"]]))
    low, high = band_of(ax.collections[0], f["gen"])
    np.testing.assert_allclose(low, f["best_p10"], rtol=1e-12)
    np.testing.assert_allclose(high, f["best_p90"], rtol=1e-12)
    assert all(lo <= b <= hi for lo, b, hi in zip(f["best_p10"], f["best"], f["best_p90"]))
    # one answer: a game per run; every puzzle: the Logbooks of all the runs' games, so the legend
    # says so (it said "of runs" of a band over 3 runs x 2,309 puzzles' games)
    games = "runs" if data["answer"] else "games"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        f"best: 10-90 % of {games}", f"best (median of {games})", f"population mean (median of {games})"]
    assert ax.get_legend().get_title().get_text() == ("" if data["answer"] else
                                                      f"games: {n} runs x {data['games']:,} puzzles")
    bottom, top = ax.get_ylim()  # room above the band and the lines for the legend, not on them
    assert top - max(max(f["best_p90"]), max(f["mean"])) > 0.2 * (top - bottom)
    if not data["answer"]:  # the rows behind each generation's band: more than the runs
        assert min(f["n"]) > n
    # what the study ran: ga-thesis against greedy with the opener the greedy-tales bench uses, P0, seed 0
    assert (data["solver"], data["baseline"], data["seed"]) == ("ga-thesis", "greedy", 0)
    assert data["baseline_opener"] == greedy_tales()["settings"]["opener"]
    assert _is_p0(data["settings"])
    games = "1 puzzle" if data["answer"] else f"{all_answers():,} puzzles"
    assert data["games"] == (1 if data["answer"] else all_answers())
    assert caption(fig) == f"ga-thesis against {base_label} · seed 0 · N = {n} runs x {games} · P0"
    return data, runs


def test_convergence_merry_png_draws_the_tracked_runs_on_merry(tmp_path):
    data, runs = check_convergence("convergence_merry.png", tmp_path)
    assert data["answer"] == "merry" and len(runs) == 50
    # the summary the docs quote (convergence.md) is of the same runs
    summary = json.loads((RESULTS / "convergence.json").read_text())["merry_50"]
    np.testing.assert_allclose(summary["ga_candidates"], np.median(2.0 ** runs, axis=0)[1:4], rtol=1e-12)
    np.testing.assert_allclose(summary["greedy_candidates"], 2.0 ** np.array(data["baseline_bits"])[1:4], rtol=1e-12)


def test_convergence_all_png_draws_the_tracked_runs_over_every_answer(tmp_path):
    data, runs = check_convergence("convergence_all.png", tmp_path)
    assert data["answer"] is None and len(runs) == 3
    g = json.loads((RESULTS / "convergence.json").read_text())["per_guess"]
    assert g["guess"] == data["guess"]
    np.testing.assert_allclose(g["ga_candidates"], np.median(2.0 ** runs, axis=0), rtol=1e-12)
    np.testing.assert_allclose(g["ga_bits"], np.median(runs, axis=0), rtol=1e-12)
    np.testing.assert_allclose(g["greedy_bits"], data["baseline_bits"], rtol=1e-12)
    np.testing.assert_allclose(g["greedy_candidates"], 2.0 ** np.array(data["baseline_bits"]), rtol=1e-12)


def test_histograms_png_draws_the_tracked_benches(tmp_path):
    """Per solver, the bars are its share of games per guess count and the steps its share
    solved within k, both recomputed here from its histogram; legends carry the mean and the
    share over 6 of that histogram; greedy's bench is the tracked greedy-tales one."""
    from evo_wordle.plots.compare import plot_histograms

    data = convergence_record("histograms.png")
    fig = plot_histograms(data, tmp_path / "histograms.png").figure
    left, right = fig.axes
    solvers = data["solvers"]
    assert solvers == ["ga-thesis", "greedy"]
    ks = data["k"]
    assert [t.get_text() for t in left.get_xticklabels()] == [str(k) for k in ks]
    bars = bar_containers(left)
    steps = plotted_lines(right)
    assert len(bars) == len(solvers) and len(steps) == len(solvers) + 1  # + the win limit's line
    legend = []
    games = set()
    for b, step, name in zip(bars, steps, solvers):
        d = data[name]
        hist = {int(k): v for k, v in d["histogram"].items()}
        total = sum(hist.values())
        games.add(total)
        assert total == d["games"] and max(hist) == ks[-1]
        np.testing.assert_allclose([p.get_height() for p in b.patches], [100 * hist.get(k, 0) / total for k in ks],
                                   rtol=1e-12, atol=1e-12)
        assert [tick_of(left, p.get_x() + p.get_width() / 2) for p in b.patches] == [str(k) for k in ks]
        # solved within k: every game scoring under the cap was solved in that many guesses
        xy = step.get_xydata()
        assert list(xy[:, 0]) == ks and step.get_drawstyle() == "steps-post"
        cum = np.cumsum([hist.get(k, 0) for k in ks]) / total
        np.testing.assert_allclose(xy[:-1, 1], 100 * cum[:-1], rtol=1e-12, atol=1e-12)
        # at the cap, those it lost score it too: the share solved lies between the two sums
        assert xy[-1, 1] == pytest.approx(100 * d["within"][-1], abs=1e-12)
        assert cum[-2] <= d["within"][-1] <= cum[-1] + 1e-12
        mean = sum(k * v for k, v in hist.items()) / total
        over = sum(v for k, v in hist.items() if k > data["win_limit"]) / total
        assert (mean, over) == (pytest.approx(d["mean"], abs=1e-12), pytest.approx(d["fail_rate"], abs=1e-12))
        opener = f", {d['opener'].upper()}" if d["opener"] else ""
        legend.append(f"{name}{opener}: mean {mean:.3f}, {100 * over:.2f} % over 6")
    assert [t.get_text() for t in left.get_legend().get_texts()] == legend
    assert [t.get_text() for t in right.get_legend().get_texts()] == [*solvers, f"win limit {data['win_limit']}"]
    assert data["win_limit"] == 6 and list(steps[-1].get_xdata()) == [6, 6]
    assert (left.get_ylabel(), right.get_ylabel()) == ("% of games", "% of puzzles solved within k (higher is better)")
    assert games == {all_answers()} and left.get_title() == f"Guess counts over {all_answers():,} puzzles"
    # greedy here is the greedy-tales bench (same games, same seed); the summary the docs quote agrees
    bench = greedy_tales()
    assert data["greedy"]["histogram"] == bench["histogram"] and data["greedy"]["opener"] == "tales"
    quoted = json.loads((RESULTS / "convergence.json").read_text())["bench"]
    assert {s: (data[s]["mean"], data[s]["fail_rate"]) for s in solvers} == {
        s: (quoted[s]["mean"], quoted[s]["fail_rate"]) for s in solvers}
    ga = data["ga-thesis"]
    assert _is_p0(data["settings"]) and data["seed"] == 0
    assert caption(fig) == (f"seed 0 · N = {all_answers():,} puzzles · P0 · openers: ga-thesis per game, greedy TALES"
                            f" · ga-thesis played {ga['outside']} guesses in {ga['outside_games']} games outside "
                            "guess_from=candidates")


def test_evolution_merry_png_draws_the_tracked_sequences(tmp_path):
    """The runs per guess count and the most frequent endings are recomputed here from the
    tracked distinct guess sequences (each with its number of runs)."""
    from collections import Counter

    import matplotlib.colors as mcolors

    from evo_wordle.plots import style
    from evo_wordle.plots.evolution import plot_evolution

    data = convergence_record("evolution_merry.png")
    fig = plot_evolution(data, tmp_path / "evolution_merry.png").figure
    left, right = fig.axes
    top = [(tuple(seq), n) for seq, n in data["top"]]
    runs = sum(n for _, n in top)
    assert runs == data["runs"] == 200 and len({s for s, _ in top}) == len(top)
    assert all(seq[-1] == "MERRY" or len(seq) == data["settings"]["max_guesses"] for seq, _ in top)
    # a run scores its guesses (a lost one the cap, which it played in full)
    per_k = Counter()
    for seq, n in top:
        per_k[len(seq)] += n
    ks = list(range(1, max(per_k) + 1))
    (bars,) = bar_containers(left)
    assert [round(p.get_x() + p.get_width() / 2) for p in bars.patches] == ks
    assert [p.get_height() for p in bars.patches] == [per_k[k] for k in ks]
    assert [mcolors.to_hex(p.get_facecolor()) for p in bars.patches] == [
        mcolors.to_hex(style.SOLVED if k <= data["win_limit"] else style.FAILED) for k in ks]
    assert [t.get_text() for t in left.texts] == [str(per_k[k]) if per_k[k] else "" for k in ks]
    mean = sum(k * v for k, v in per_k.items()) / runs
    assert mean == pytest.approx(data["mean"], abs=1e-12)
    assert left.get_title() == f"ga-thesis on MERRY: {runs} seeds, mean {mean:.3f}"
    assert (left.get_xlabel(), left.get_ylabel()) == ("guesses (fewer is better; failures count as the cap)", "runs")
    # every sequence distinct: the ten most frequent last three guesses, most frequent on top
    assert max(n for _, n in top) == 1
    endings = Counter()
    for seq, n in top:
        endings[seq[-3:]] += n
    shown = sorted(endings.items(), key=lambda kv: (-kv[1], kv[0]))[:10][::-1]
    (hbars,) = bar_containers(right)
    assert [p.get_width() for p in hbars.patches] == [n for _, n in shown]
    assert [round(p.get_y() + p.get_height() / 2) for p in hbars.patches] == list(range(len(shown)))
    assert [t.get_text() for t in right.get_yticklabels()] == ["... > " + " > ".join(s) for s, _ in shown]
    assert right.get_title() == f"Most frequent last 3 guesses (all {len(top)} sequences distinct)"
    # the summary the docs quote is of the same runs
    quoted = json.loads((RESULTS / "convergence.json").read_text())
    assert quoted["merry_200_mean"] == pytest.approx(mean, abs=1e-12)
    assert quoted["merry_200"] == {"distinct": len(top), "most_frequent": max(n for _, n in top)}
    assert _is_p0(data["settings"]) and data["seed"] == 0
    assert caption(fig) == f"ga-thesis · opener chosen per run · seed 0 · N = {runs} runs on MERRY · P0"


def test_bench_greedy_tales_png_draws_the_registered_bench(tmp_path):
    """bench_greedy_tales.png redrawn from the JSON the registered run printed: one bar per
    guess count its histogram holds, coloured by the win limit, the title's mean and share
    over 6 those of the histogram, which are the values the registry (and so docs) quote."""
    import tomllib

    import matplotlib.colors as mcolors

    from evo_wordle.plots import style
    from evo_wordle.plots.histogram import plot_histogram

    summary = greedy_tales()
    fig = plot_histogram(summary, tmp_path / "bench_greedy_tales.png").figure
    (ax,) = fig.axes
    hist = {int(k): v for k, v in summary["histogram"].items()}
    games = sum(hist.values())
    settings = summary["settings"]
    xs = list(range(1, settings["max_guesses"] + 1))
    solved, unsolved = bar_containers(ax)  # the cap (9) is over the win limit: nothing stacked
    assert [round(p.get_x() + p.get_width() / 2) for p in solved.patches] == xs
    assert [p.get_height() for p in solved.patches] == [hist.get(x, 0) for x in xs]
    assert [p.get_height() for p in unsolved.patches] == [0] * len(xs)
    assert [mcolors.to_hex(p.get_facecolor()) for p in solved.patches] == [
        mcolors.to_hex(style.SOLVED if x <= 6 else style.FAILED) for x in xs]
    assert [t.get_text() for t in ax.texts] == [str(hist[x]) if hist.get(x) else "" for x in xs]
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(x) for x in xs]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("guesses (failures count as the cap; fewer is better)", "games")
    mean = sum(k * v for k, v in hist.items()) / games
    over = sum(v for k, v in hist.items() if k > 6) / games
    assert ax.get_title() == f"greedy (TALES): mean {mean:.3f}, fail {100 * over:.2f} % over 6, {games} games"
    # the registered command, its figures and this JSON agree
    registry = tomllib.loads((ROOT / "experiments" / "figures.toml").read_text())
    run = registry["runs"]["greedy-tales"]
    argv = run["command"].split()
    assert run["outputs"]["stdout.txt"] == "experiments/results/bench_greedy_tales.json"
    assert run["outputs"]["bench_greedy_tales.png"] == "docs/figures/bench_greedy_tales.png"
    assert (summary["solver"], settings["opener"], settings["seed"]) == (
        argv[argv.index("--solver") + 1], argv[argv.index("--opener") + 1], int(argv[argv.index("--seed") + 1]))
    for fid, value in (("greedy-tales", mean), ("greedy-tales-over6", 100 * over)):
        registered = registry["figure"][fid]
        assert abs(registered["value"] - value) <= 10 ** -registered.get("digits", 4)
    assert games == summary["games"] == all_answers() and _is_p0(settings)
    assert caption(fig) == f"greedy · opener TALES · seed 0 · N = {all_answers():,} games · P0"


# ---------------------------------------------------------------- every figure
def test_every_figure_in_docs_figures_is_redrawn_here():
    """A figure added to docs/figures/ comes with its tracked data and a test here, named
    test_<figure>_png_... (without git: the figures present)."""
    import subprocess

    try:
        out = subprocess.run(["git", "ls-files", "--", "docs/figures"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
        names = [Path(p).name for p in out]
    except (OSError, subprocess.CalledProcessError):
        names = [p.name for p in (ROOT / "docs" / "figures").iterdir()]
    figures = {n.removesuffix(".png") for n in names if n.endswith(".png")}
    assert len(figures) >= 16, "no tracked figures found"
    tested = {name for name, fn in globals().items() if name.startswith("test_") and callable(fn)}
    missing = sorted(f for f in figures if not any(t.startswith(f"test_{f}_png_") for t in tested))
    assert not missing, f"figures with no redraw test here: {missing}"
