"""Convergence against the greedy baseline: candidates and entropy left after each guess.

For one puzzle every GA run is a curve; for all puzzles a run's curve is the mean over
puzzles of the remaining entropy (log2 of the candidates left, candidates uniform), and the
candidates curve is its geometric mean 2**bits.  The GA is drawn as the median over runs
with a 10–90 % band, the deterministic baseline as a line.  A third panel shows the GA's
best and mean fitness per generation from its DEAP Logbook.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameRecord, GameState, Settings, play
from ..params import as_int, as_seed
from ..solvers.base import SolverSpec, build_solver, pack_solver, solver_label, unpack_solver
from ..wording import count
from .common import MAX_RUNS, Plotted, count_axis, new_figure, save
from .style import BASELINE, SERIES, STUDIED, caption_text, lists_text, styled


def play_games(
    ctx: Context, solver: SolverSpec, settings: Settings, params: dict | None, answers, seed: int = 0
) -> list[tuple[GameRecord, list[dict]]]:
    """Play like :func:`evo_wordle.bench.run_bench` (same per-game seeds, so the same games)
    and keep each game's Logbook records (empty for solvers without one).  ``solver``: a
    name, a Solver object or a factory, as for ``run_bench``."""
    if settings.daily:
        raise EvoWordleError("this figure plays independent games; drop --daily / P2 / P3")
    seed = as_seed("seed", seed)
    answers = np.asarray(answers, dtype=np.int64)
    if len(answers) == 0:
        raise EvoWordleError("no answers to play")
    outside = answers[~np.isin(answers, ctx.words.answer_index)] if settings.candidates == "answers" else []
    if len(outside):  # every run would fail at the cap: the solver rules the answer out
        raise EvoWordleError(f"{ctx.words[int(outside[0])].upper()} is not in the answer list the solver assumes")
    engine = build_solver(solver, ctx, settings, **(params or {}))
    seeds = np.random.SeedSequence(seed).spawn(len(answers))
    base = GameState.start(engine.ctx, settings)
    out = []
    for k, answer in enumerate(answers):
        engine.reset(np.random.default_rng(seeds[k]))
        record = play(engine, base, int(answer), settings)
        log = getattr(engine, "logbook", None)
        out.append((record, [dict(r) for r in log] if log is not None else []))
    return out


def trace(ctx: Context, settings: Settings, record: GameRecord) -> np.ndarray:
    """Candidates left before the first guess and after each guess (1 once solved)."""
    state = GameState.start(ctx, settings)
    counts = [len(state.candidates)]
    for guess in record.guesses:
        pattern = int(ctx.table[guess, record.answer])
        if pattern == ctx.words.solved:
            counts.append(1)
            break
        state = state.after(guess, pattern)
        counts.append(len(state.candidates))
    return np.array(counts, dtype=np.int64)


def _pad(curves: list[np.ndarray], length: int) -> np.ndarray:
    """Stack curves, each carried on at its last value up to ``length`` points."""
    out = np.empty((len(curves), length))
    for i, c in enumerate(curves):
        out[i, : len(c)] = c
        out[i, len(c):] = c[-1]
    return out


def _fitness_rows(logs: list[list[dict]]) -> list[tuple[int, float, float]]:
    return [(int(r.get("gen", i)), float(r["best"]), float(r["mean"]))
            for log in logs for i, r in enumerate(log) if "best" in r and "mean" in r]


def _run_all(payload: dict) -> dict:
    """One GA run over many puzzles (a work unit for the executor)."""
    from ..executors import worker_context

    ctx = worker_context(*payload["lists"])
    settings = Settings(**payload["settings"])
    solver = unpack_solver(payload["solver"])
    games = play_games(ctx, solver, settings, payload["params"], payload["answers"], payload["seed"])
    return _summarise_run(ctx, settings, games)


def _summarise_run(ctx: Context, settings: Settings, games) -> dict:
    traces = [trace(ctx, settings, rec) for rec, _ in games]
    length = max(len(t) for t in traces)
    bits = np.log2(_pad(traces, length))
    return {
        "bits": bits.mean(axis=0).tolist(),
        "fitness": _fitness_rows([log for _, log in games]),
        "scores": [rec.score(settings.max_guesses) for rec, _ in games],
    }


def convergence_data(
    ctx: Context,
    solver: SolverSpec,
    settings: Settings,
    params: dict | None = None,
    answer: str | None = None,
    runs: int = 50,
    games: int | None = None,
    seed: int = 0,
    baseline: str = "greedy",
    jobs: int = 1,
    lists: tuple[str | None, str] | None = None,
) -> dict:
    """The numbers the convergence figure draws.

    Keys: ``guess`` (0 = before the first guess), ``runs`` (the GA's per-run curves of
    remaining bits, runs × guesses), ``ga_bits`` / ``ga_candidates`` (``median``, ``p10``,
    ``p90`` per guess), ``baseline_bits`` / ``baseline_candidates``, ``fitness`` (``gen``,
    ``best``, ``mean``, ``best_p10``, ``best_p90`` per generation, or None), ``answer``,
    ``games``, and the solver names.  ``solver`` is a registered name, a Solver object or a
    factory (as for :func:`evo_wordle.bench.run_bench`; with ``jobs > 1`` it is pickled to
    the workers); ``baseline`` likewise.
    """
    from ..bench import derived_seeds, game_plan

    runs = as_int("runs", runs, 1, MAX_RUNS)
    jobs = as_int("jobs", jobs, 1, None)
    if answer is not None:
        idx = ctx.words.index(answer)
        played = play_games(ctx, solver, settings, params, np.full(runs, idx), seed)
        traces = [trace(ctx, settings, rec) for rec, _ in played]
        base_record = play_games(ctx, baseline, settings, None, [idx], seed)[0][0]
        base = trace(ctx, settings, base_record)
        base_opener = ctx.words.allowed[base_record.guesses[0]]
        length = max(len(base), *(len(t) for t in traces))
        curves = np.log2(_pad(traces, length))
        base_bits = np.log2(_pad([base], length)[0])
        fitness = _fitness_rows([log for _, log in played])
        n_games = 1
    else:
        # The puzzles `bench --seed SEED --games GAMES` plays; run r plays them with the game seeds
        # of `bench --repeat RUNS`'s run r (run 0 and the baseline are exactly that bench).
        answers, _ = game_plan(ctx.words.answer_index, games, seed)
        run_seeds = derived_seeds(seed, runs)
        parallel = jobs > 1 and runs > 1 and lists is not None
        packed = pack_solver(solver) if parallel else solver
        payloads = [
            {"lists": lists or (None, "nyt"), "settings": settings.as_dict(), "solver": packed, "params": params,
             "answers": answers.tolist(),
             "seed": run_seeds[r]}
            for r in range(runs)
        ]
        if parallel:
            from ..executors import local_workers, make_executor, running

            with running(make_executor("local", jobs=min(local_workers(jobs), runs))) as ex:
                results = list(ex.map(_run_all, payloads))
        else:
            results = [_summarise_run(ctx, settings, play_games(ctx, solver, settings, params, answers, p["seed"]))
                       for p in payloads]
        base_games = play_games(ctx, baseline, settings, None, answers, seed)
        base_run = _summarise_run(ctx, settings, base_games)
        base_opener = ctx.words.allowed[base_games[0][0].guesses[0]]
        length = max(len(base_run["bits"]), *(len(r["bits"]) for r in results))
        curves = _pad([np.array(r["bits"]) for r in results], length)
        base_bits = _pad([np.array(base_run["bits"])], length)[0]
        fitness = [row for r in results for row in r["fitness"]]
        n_games = len(answers)
    data = {
        "solver": solver_label(solver),
        "baseline": solver_label(baseline),
        "answer": answer.lower() if answer else None,
        "games": n_games,
        "guess": list(range(curves.shape[1])),
        "runs": curves,
        "ga_bits": _bands(curves),
        "ga_candidates": _bands(2.0**curves),
        "baseline_bits": base_bits,
        "baseline_candidates": 2.0**base_bits,
        "fitness": _fitness_bands(fitness),
        "seed": seed,
        "settings": settings.as_dict(),
        "lists": lists_text(ctx.words, *(lists or (None, None))),
        "baseline_opener": base_opener,
        "opener": (params or {}).get("opener"),
    }
    return data


def _bands(curves: np.ndarray) -> dict:
    return {
        "median": np.median(curves, axis=0),
        "p10": np.percentile(curves, 10, axis=0),
        "p90": np.percentile(curves, 90, axis=0),
    }


def _fitness_bands(rows: list[tuple[int, float, float]]) -> dict | None:
    if not rows:
        return None
    arr = np.array(rows)
    gens = np.unique(arr[:, 0]).astype(int)
    best = [arr[arr[:, 0] == g, 1] for g in gens]
    mean = [arr[arr[:, 0] == g, 2] for g in gens]
    return {
        "gen": gens.tolist(),
        "best": np.array([np.median(b) for b in best]),
        "mean": np.array([np.median(m) for m in mean]),
        "best_p10": np.array([np.percentile(b, 10) for b in best]),
        "best_p90": np.array([np.percentile(b, 90) for b in best]),
        "n": [len(b) for b in best],
    }


@styled
def plot_convergence(data: dict, path: str | Path) -> Plotted:
    """Candidates left (log scale), remaining bits, and fitness per generation.

    With 5 runs or more the GA is a median line in a 10-90 % band; with fewer, every run is
    drawn as its own thin line (a percentile band of 3 runs would be a sliver)."""
    panels = 3 if data["fitness"] is not None else 2
    fig, axes = new_figure(5.0 * panels, 4.6, ncols=panels)
    x = data["guess"]
    n = len(data["runs"])
    what = f"on {data['answer'].upper()}" if data["answer"] else f"over {count(data['games'], 'puzzle', fmt=',')}"
    base_label = f"{data['baseline']} ({data.get('baseline_opener', '?').upper()})"
    for ax, key, label in ((axes[0], "candidates", "candidates left"), (axes[1], "bits", "entropy left (bits)")):
        ga, base = data[f"ga_{key}"], data[f"baseline_{key}"]
        if n >= 5:
            ax.fill_between(x, ga["p10"], ga["p90"], color=STUDIED, alpha=0.3, linewidth=0,
                            label=f"{data['solver']}: 10-90 % of {count(n, 'run')}")
        else:
            runs = np.asarray(data["runs"]) if key == "bits" else 2.0 ** np.asarray(data["runs"])
            for r, curve in enumerate(runs):
                ax.plot(x, curve, color=STUDIED, linewidth=0.8, alpha=0.6,
                        label=f"{data['solver']}: each of {count(n, 'run')}" if r == 0 else None)
        ax.plot(x, ga["median"], color=STUDIED, marker="o", label=f"{data['solver']}: median of {count(n, 'run')}")
        ax.plot(x, base, color=BASELINE, marker="s", linestyle="--", label=base_label)
        ax.set_xlabel("guesses made")
        mean = "" if data["answer"] else " (mean over puzzles)" if key == "bits" else " (geometric mean)"
        ax.set_ylabel(f"{label}{mean}, fewer is better")
        ax.set_xticks(x)
        ax.legend()
    axes[0].set_yscale("log")
    axes[0].set_title(f"Candidates left {what}")
    axes[1].set_title(f"Entropy left {what}")
    if data["fitness"] is not None:
        f, ax = data["fitness"], axes[2]
        # each game has its own Logbook: over every puzzle the band and medians are of all the
        # runs' games (3 runs × 2,309 puzzles), not of the runs, as "of runs" said
        games = "runs" if data["answer"] else "games"
        ax.fill_between(f["gen"], f["best_p10"], f["best_p90"], color=SERIES[2], alpha=0.3, linewidth=0,
                        label=f"best: 10-90 % of {games}")
        ax.plot(f["gen"], f["best"], color=SERIES[2], marker="o", label=f"best (median of {games})")
        ax.plot(f["gen"], f["mean"], color=SERIES[3], marker="^", label=f"population mean (median of {games})")
        ax.set_xlabel("generation of the game\nValues from different turns are NOT comparable:\n"
                      "each turn breeds from the words still consistent\nwith the feedback (a dynamic fitness is "
                      "also re-scored\nover that turn's candidates), so fitness falls as that\n"
                      "pool shrinks, not because the GA gets worse.", fontsize=8)
        ax.set_ylabel("fitness (higher is better within a generation)")
        count_axis(ax.xaxis)
        ax.set_title(f"{data['solver']}: fitness per generation (Logbook)")
        low, high = ax.get_ylim()
        ax.set_ylim(low, high + 0.3 * (high - low))  # room above the band for the legend
        ax.legend(loc="upper right", title=None if data["answer"] else
                  f"games: {count(n, 'run')} x {count(data['games'], 'puzzle', fmt=',')}")
    games = "1 puzzle" if data["answer"] else count(data["games"], "puzzle", fmt=",")
    caption = caption_text(solver=f"{data['solver']} against {base_label}", seed=data.get("seed"),
                           n=f"{count(n, 'run')} x {games}", settings=data.get("settings"),
                           opener=data.get("opener"), lists=data.get("lists"))
    return save(fig, path, data, caption)
