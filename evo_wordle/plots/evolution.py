"""Per-puzzle evolution: one answer played with many seeds — how many guesses it takes and
which guess sequences the GA keeps finding."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from ..context import Context
from ..game import Settings
from ..params import as_int
from ..wording import count
from .common import MAX_RUNS, Plotted, count_axis, new_figure, save
from .convergence import play_games
from .style import FAILED, SOLVED, STUDIED, caption_text, lists_text, styled, won_within


def evolution_data(
    ctx: Context,
    solver: str,
    settings: Settings,
    params: dict | None,
    answer: str,
    runs: int = 200,
    seed: int = 0,
    lists: tuple[str | None, str | None] = (None, None),
) -> dict:
    """Keys: ``answer``, ``runs``, ``scores`` (one per run), ``k`` / ``counts`` (runs per guess
    count), ``sequences`` (every run's guesses, upper case), ``top`` ((sequence, runs) most
    frequent first, ties alphabetical), ``endings`` (the same for the last three guesses:
    with random openers every full sequence may be unique), ``mean``, ``solved``."""
    runs = as_int("runs", runs, 1, MAX_RUNS)
    idx = ctx.words.index(answer)
    played = play_games(ctx, solver, settings, params, np.full(runs, idx), seed)
    scores = [rec.score(settings.max_guesses) for rec, _ in played]
    sequences = [tuple(ctx.words.allowed[g].upper() for g in rec.guesses) for rec, _ in played]
    counts = Counter(scores)
    ks = list(range(1, max(scores) + 1))
    top = sorted(Counter(sequences).items(), key=lambda kv: (-kv[1], kv[0]))
    endings = sorted(Counter(seq[-3:] for seq in sequences).items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "solver": solver,
        "answer": answer.lower(),
        "runs": runs,
        "scores": scores,
        "k": ks,
        "counts": [counts.get(k, 0) for k in ks],
        "sequences": sequences,
        "top": top,
        "endings": endings,
        "mean": float(np.mean(scores)),
        "solved": sum(rec.solved for rec, _ in played),
        "win_limit": settings.won_within,
        "seed": seed,
        "settings": settings.as_dict(),
        "lists": lists_text(ctx.words, *lists),  # the caption names word lists other than the default
        "opener": (params or {}).get("opener"),
    }


@styled
def plot_evolution(data: dict, path: str | Path, top: int = 10) -> Plotted:
    """Left: runs per guess count (solved within the win limit or not); right: the ``top`` most
    frequent guess sequences (their last three guesses when no full sequence occurs twice)."""
    from matplotlib.patches import Patch

    full = bool(data["top"]) and data["top"][0][1] > 1
    shown = (data["top"] if full else data["endings"])[:top]
    fig, (left, right) = new_figure(12, max(4.2, 0.38 * len(shown) + 1.8), ncols=2)
    limit = data["win_limit"]
    bars = left.bar(data["k"], data["counts"], color=[SOLVED if k <= limit else FAILED for k in data["k"]])
    left.bar_label(bars, labels=[str(c) if c else "" for c in data["counts"]], fontsize=8)
    left.set_xticks(data["k"])
    left.set_xlabel("guesses (fewer is better; failures count as the cap)")
    left.set_ylabel("runs")
    count_axis(left.yaxis)
    _, won, failed = won_within(data["settings"])
    left.legend(handles=[Patch(color=SOLVED, label=won), Patch(color=FAILED, label=failed)], loc="upper left")
    left.set_title(f"{data['solver']} on {data['answer'].upper()}: {count(data['runs'], 'seed')}, "
                   f"mean {data['mean']:.3f}")
    labels = [("" if full or len(seq) < 3 else "... > ") + " > ".join(seq) for seq, _ in shown][::-1]
    values = [n for _, n in shown][::-1]
    right.barh(range(len(values)), values, color=STUDIED)
    right.set_yticks(range(len(values)), labels, fontsize=8, family="monospace")
    right.set_xlabel("runs that played it")
    right.grid(axis="y", visible=False)
    if full:
        title = f"Most frequent guess sequences ({len(data['top'])} distinct)"
    else:
        title = f"Most frequent last 3 guesses (all {len(data['top'])} sequences distinct)"
    right.set_title(title)
    count_axis(right.xaxis)
    caption = caption_text(solver=data["solver"], opener=data.get("opener") or "chosen per run",
                           seed=data.get("seed"), n=f"{count(data['runs'], 'run')} on {data['answer'].upper()}",
                           settings=data.get("settings"), lists=data.get("lists"))
    return save(fig, path, {**data, "shown": shown, "shown_kind": "sequences" if full else "endings"}, caption)
