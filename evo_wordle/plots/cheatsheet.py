"""A tree's cheat sheet as a figure: one bar per feedback on the opener (most answers first),
labelled with the feedback and the second guess, split by the guesses its answers take."""

from __future__ import annotations

from pathlib import Path

from ..wording import count
from .common import Plotted, count_axis, new_figure, save
from .style import FAILED, caption_text, styled, won_within


def guess_colours(counts: list[int], win_limit: int) -> dict[int, str]:
    """A colour per guess count: light to dark blue (one hue, readable without colour vision)
    up to the win limit, vermillion beyond it (the package's "failure" colour)."""
    from matplotlib import colormaps

    ramp = colormaps["Blues"]
    inside = [c for c in counts if c <= win_limit]
    span = max(1, len(inside) - 1)
    out = {c: ramp(0.3 + 0.65 * i / span) for i, c in enumerate(sorted(inside))}
    out.update({c: FAILED for c in counts if c > win_limit})
    return out


@styled
def plot_cheat_sheet(sheet: dict, path: str | Path, settings: dict | None = None, top: int = 30,
                     source: str | None = None, lists: str | None = None) -> Plotted:
    """Save the first ``top`` rows of ``sheet`` (:func:`evo_wordle.evolve.cheatsheet.cheat_sheet`)
    as stacked horizontal bars.  ``data`` holds the rows drawn (``labels``, ``answers``,
    ``segments``: guesses → answers per row) and the rows left out (``rest_rows``, ``rest_answers``)."""
    from matplotlib.patches import Patch

    rows = sheet["rows"][:top] if top else sheet["rows"]
    rest = sheet["rows"][len(rows):]
    settings = settings or {}
    win_limit = won_within(settings)[0]
    counts = sorted({int(k) for r in rows for k in r["histogram"]})
    colours = guess_colours(counts, win_limit)
    opener = sheet["opener"].upper()
    labels = [f"{r['feedback']} {r['letters']} → " + (r["second_guess"].upper() if r["second_guess"] else "solved")
              for r in rows]
    fig, (ax,) = new_figure(7.5, 1.9 + 0.2 * len(rows))
    ys = list(range(len(rows)))
    left = [0] * len(rows)
    for c in counts:
        widths = [r["histogram"].get(str(c), 0) for r in rows]
        ax.barh(ys, widths, left=left, color=colours[c], height=0.75)
        left = [a + b for a, b in zip(left, widths)]
    for y, r in zip(ys, rows):
        ax.text(r["answers"], y, f" {r['answers']}  (mean {r['mean_guesses']:.2f}, worst {r['max_guesses']})",
                va="center", fontsize=7)
    ax.set_yticks(ys, labels, fontfamily="monospace", fontsize=7.5)
    ax.invert_yaxis()
    ax.set_xlim(0, max(r["answers"] for r in rows) * 1.45)
    ax.grid(axis="y", visible=False)
    count_axis(ax.xaxis)
    ax.set_xlabel("answers behind the feedback → second guess (colour: guesses each answer takes)")
    ax.set_title(f"{opener}: the second guess for each feedback ({len(rows)} of {sheet['feedbacks']})\n"
                 "feedback 0 grey, 1 yellow, 2 green; letters CAPITAL green, small yellow, . grey",
                 loc="left", fontsize=9)
    fig.legend(handles=[Patch(color=colours[c], label=count(c, "guess", "guesses")) for c in counts],
               loc="outside upper right", ncol=len(counts), frameon=False)
    left_out = sum(r["answers"] for r in rest)
    extra = (f"total {sheet['total_guesses']}, mean {sheet['mean_guesses']:.4f}, worst {sheet['max_guesses']}"
             + (f"; {count(len(rest), 'smaller feedback')} ({count(left_out, 'answer')}) not shown" if rest else "")
)
    caption = caption_text(solver=f"tree {Path(source).name}" if source else "decision tree", opener=opener,
                           n=count(sheet["answers"], "answer", fmt=","), settings=settings, extra=extra,
                           lists=lists)
    data = {"labels": labels, "answers": [r["answers"] for r in rows],
            "segments": [{int(k): v for k, v in r["histogram"].items()} for r in rows],
            "rest_rows": len(rest), "rest_answers": sum(r["answers"] for r in rest)}
    return save(fig, path, data, caption)
