"""Guess-count histograms of several solvers side by side, and the cumulative share of
puzzles solved within k guesses."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import Settings
from ..params import as_int
from ..solvers.base import SolverSpec, pack_solver, solver_label, unpack_solver
from ..wording import count
from .common import Plotted, new_figure, save
from .style import MARKERS, caption_text, lists_text, solver_colours, styled, won_within
from .style import legend_below as style_legend_below


def _bench(payload: dict) -> dict:
    """One solver's bench (an executor work unit): guess counts of solved games and scores."""
    from ..bench import run_bench
    from ..executors import worker_context

    ctx = payload.get("ctx") or worker_context(*payload["lists"])
    settings = Settings(**payload["settings"])
    res = run_bench(ctx, unpack_solver(payload["solver"]), settings, np.asarray(payload["answers"]),
                    seed=payload["seed"], solver_params=payload["params"])
    return {
        "solver": payload["label"],
        "games": res.games,
        "scores": res.scores().tolist(),
        "solved_in": [len(r.guesses) for r in res.records if r.solved],
        "mean": res.mean_guesses,
        "fail_rate": res.fail_rate,
        "histogram": res.histogram,
        "opener": res.params.get("opener"),
        "outside": res.guesses_outside_source,
        "outside_games": res.games_outside_source,
    }


def compare_data(
    ctx: Context,
    solvers: list[SolverSpec],
    settings: Settings,
    params: dict[str, dict] | None = None,
    games: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    lists: tuple[str | None, str] | None = None,
) -> dict:
    """Bench every solver on the same answers (all, or the seeded sample of ``games``), exactly
    as ``evo-wordle compare --seed SEED --games GAMES`` does (the one sampling rule,
    :func:`~evo_wordle.bench.game_plan`).

    Keys: ``k`` (guess counts 1..max), and per solver in ``solvers``: ``share`` (fraction of
    games with each score, failures at the cap), ``within`` (fraction solved within k),
    ``mean``, ``fail_rate``, ``games``, ``histogram``, ``outside`` / ``outside_games`` (guesses,
    and games with one, outside the setting's guess source: the thesis's GAs play mutants that
    are no longer candidates, so their bars are not of the same game; the caption says so).

    Each solver is a registered name, a Solver object or a factory (as for
    :func:`evo_wordle.bench.run_bench`), keyed by :func:`~evo_wordle.solvers.base.solver_label`
    (set a ``label`` attribute to tell two objects of one class apart); ``params`` is keyed
    by label too.
    """
    from ..bench import game_plan

    if isinstance(solvers, str) or not isinstance(solvers, list | tuple) or not solvers:
        shown = repr(solvers) if isinstance(solvers, str | list | tuple) else type(solvers).__name__
        raise EvoWordleError(f"solvers must be a non-empty list of solvers, not {shown}")
    jobs = as_int("jobs", jobs, 1, None)
    labels = [solver_label(s) for s in solvers]
    if len(set(labels)) != len(labels):
        raise EvoWordleError(f"two solvers share a label ({', '.join(labels)}); give them a `label` attribute")
    parallel = jobs > 1 and len(solvers) > 1 and lists is not None

    answers, _ = game_plan(ctx.words.answer_index, games, seed)  # exactly `compare --seed S --games K`
    bench_seed = seed
    payloads = [{"lists": lists or (None, "nyt"), "settings": settings.as_dict(),
                 "solver": pack_solver(s) if parallel else s, "label": label,
                 "params": (params or {}).get(label, {}), "answers": answers.tolist(), "seed": bench_seed}
                for s, label in zip(solvers, labels)]
    if parallel:
        from ..executors import local_workers, make_executor, running

        with running(make_executor("local", jobs=min(local_workers(jobs), len(solvers)))) as ex:
            results = list(ex.map(_bench, payloads))
    else:
        results = [_bench({**p, "ctx": ctx}) for p in payloads]
    kmax = max(max(r["scores"]) for r in results)
    ks = np.arange(1, kmax + 1)
    data: dict = {"k": ks.tolist(), "solvers": labels, "win_limit": settings.won_within, "seed": seed,
                  "settings": settings.as_dict(), "lists": lists_text(ctx.words, *(lists or (None, None)))}
    for r in results:
        scores = np.asarray(r["scores"])
        solved = np.asarray(r["solved_in"], dtype=int)
        data[r["solver"]] = {
            "share": np.array([(scores == k).mean() for k in ks]),
            "within": np.array([(solved <= k).sum() / r["games"] for k in ks]),
            "mean": r["mean"],
            "fail_rate": r["fail_rate"],
            "games": r["games"],
            "histogram": r["histogram"],
            "opener": r["opener"],
            "outside": r["outside"],
            "outside_games": r["outside_games"],
        }
    return data


@styled
def plot_histograms(data: dict, path: str | Path) -> Plotted:
    """Left: share of games per guess count, bars side by side; right: share solved within k.
    ``data`` as :func:`compare_data` returns it or as saved JSON (:func:`~evo_wordle.plots.common.as_json`)."""
    fig, (left, right) = new_figure(11, 4.4, ncols=2)
    ks = np.asarray(data["k"])
    n = len(data["solvers"])
    width = 0.8 / n
    colours = solver_colours(data["solvers"])
    _, won, failed = won_within(data["settings"])
    failed = failed.split(" (")[0]
    for i, name in enumerate(data["solvers"]):
        d = data[name]
        opener = f", {d['opener'].upper()}" if d.get("opener") else ""
        label = f"{name}{opener}: mean {d['mean']:.3f}, {100 * d['fail_rate']:.2f} % {failed}"
        left.bar(ks + (i - (n - 1) / 2) * width, 100 * np.asarray(d["share"]), width=width, color=colours[name],
                 label=label)
        right.step(ks, 100 * np.asarray(d["within"]), where="post", color=colours[name],
                   marker=MARKERS[i % len(MARKERS)], label=name)
    games = data[data["solvers"][0]]["games"]
    left.set_xticks(ks)
    left.set_xlabel("guesses (failures count as the cap; fewer is better)")
    left.set_ylabel("% of games")
    left.set_title(f"Guess counts over {count(games, 'puzzle', fmt=',')}")
    style_legend_below(left)
    limit = "cap" if won.endswith("(the cap)") else "win limit"
    right.axvline(data["win_limit"], color="grey", linestyle=":", linewidth=1, label=f"{limit} {data['win_limit']}")
    right.set_xticks(ks)
    right.set_ylim(0, 101)
    right.set_xlabel("k guesses")
    right.set_ylabel("% of puzzles solved within k (higher is better)")
    right.set_title("Cumulative share solved")
    right.legend(loc="lower right")
    openers = {name: (data[name].get("opener") or "per game") for name in data["solvers"]}
    extra = "openers: " + ", ".join(f"{k} {v.upper() if v != 'per game' else v}" for k, v in openers.items())
    source = (data.get("settings") or {}).get("guess_from", "candidates")
    for name in data["solvers"]:
        if data[name].get("outside"):  # not the same game as the others: say it where the figure goes
            extra += (f" · {name} played {count(data[name]['outside'], 'guess', 'guesses', ',')} in "
                      f"{count(data[name]['outside_games'], 'game', fmt=',')} outside guess_from={source}")
    caption = caption_text(seed=data.get("seed"), n=count(games, "puzzle", fmt=","), settings=data.get("settings"),
                           lists=data.get("lists"), extra=extra)
    return save(fig, path, data, caption)
