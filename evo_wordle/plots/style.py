"""One look for every figure: a colour-blind-safe palette with fixed meanings, readable type,
and a caption line (solver, seed, N, setting) at the foot of each figure.

Colours are Okabe & Ito's (2008) palette, distinguishable under the common colour-vision
deficiencies.  Each colour means one thing everywhere:

* blue — the GA or the solver studied;  orange — the baseline (greedy);
* bluish green — games solved within the win limit;  vermillion — games lost (failures);
* further series take reddish purple, sky blue, black — never bluish green or vermillion,
  which keep their solved/failed meaning.  Yellow is not used (it reads as Wordle's "right
  letter, wrong place" and is too light on white).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

STUDIED = OKABE_ITO["blue"]
BASELINE = OKABE_ITO["orange"]
SOLVED = OKABE_ITO["bluish_green"]
FAILED = OKABE_ITO["vermillion"]
NEUTRAL = "#7f7f7f"
#: Series colours in order (the studied solver first, the baseline second); no yellow, and not
#: the solved/failed colours.  More series than colours repeat them with other markers.
SERIES = (STUDIED, BASELINE, OKABE_ITO["reddish_purple"], OKABE_ITO["sky_blue"], OKABE_ITO["black"])
#: Colours for the values of one parameter (a sweep's lines): no baseline orange either.
HUES = (STUDIED, OKABE_ITO["reddish_purple"], OKABE_ITO["sky_blue"], OKABE_ITO["black"], NEUTRAL)
#: Marker per series, so lines stay apart in grey print too.
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
BASELINE_SOLVERS = ("greedy",)

#: Matplotlib settings every figure is drawn under (see :func:`rc`).
RC = {
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "legend.framealpha": 0.9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": None,  # filled in by rc()
    "savefig.dpi": 150,
}


def rc() -> dict:
    """The rcParams of :data:`RC` (with the series colours as the property cycle)."""
    from cycler import cycler

    return {**RC, "axes.prop_cycle": cycler(color=list(SERIES))}


def context():
    """``with context():`` draws under :func:`rc` (for figures built outside this package)."""
    import matplotlib

    return matplotlib.rc_context(rc())


def styled(fn: Callable) -> Callable:
    """Decorator: run a plotting function under :func:`context`, so every element it draws
    (created lazily by matplotlib) takes the house style."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with context():
            return fn(*args, **kwargs)

    return wrapper


def solver_colours(names: Iterable[str]) -> dict[str, str]:
    """A colour per solver: the baseline orange, the others the series colours in order."""
    out: dict[str, str] = {}
    others = [c for c in SERIES if c != BASELINE]
    k = 0
    for name in names:
        if name in BASELINE_SOLVERS:
            out[name] = BASELINE
        else:
            out[name] = others[k % len(others)]
            k += 1
    return out


def setting_text(settings: dict) -> str:
    """A short name for a problem setting: the thesis's preset name when it is one (P0-P3),
    else its axes, plus hard mode and boards when set."""
    from ..game import PROBLEMS

    axes = {"candidates": settings.get("candidates", "allowed"), "guess_from": settings.get("guess_from", "candidates"),
            "daily": bool(settings.get("daily", False))}
    name = next((p for p, v in sorted(PROBLEMS.items()) if all(axes[k] == v[k] for k in axes)), None)
    if name is None:
        name = (f"answer from {axes['candidates']}, guesses from {axes['guess_from']}"
                + (", daily" if axes["daily"] else ""))
    extra = []
    if settings.get("hard"):
        extra.append("hard mode")
    if int(settings.get("boards", 1) or 1) > 1:
        extra.append(f"{settings['boards']} boards")
    if settings.get("max_guesses") not in (None, 9):
        extra.append(f"cap {settings['max_guesses']}")
    return ", ".join([name, *extra])


def won_within(settings: dict) -> tuple[int, str, str]:
    """The guesses within which a game is won under ``settings`` (a settings dict: the win limit,
    6 or boards + 5, or the ``max_guesses`` cap when lower) and the legend labels of the games
    won and failed, worded by :meth:`~evo_wordle.game.Settings.fail_text` (the rule's owner)."""
    from ..game import Settings

    cap = settings.get("max_guesses")
    rule = Settings(boards=int(settings.get("boards", 1) or 1), max_guesses=None if cap is None else int(cap))
    limit, failed = rule.won_within, rule.fail_text(cap_note=False)
    if rule.capped:
        return limit, f"solved within {limit} (the cap)", failed
    if rule.plays_past_limit:
        return limit, f"solved within {limit}", f"{failed} (or not solved)"
    return limit, f"solved within {limit}", failed


@functools.lru_cache(maxsize=1)
def _default_digests() -> dict:
    from ..artefacts import list_digests
    from ..words import load_words

    return list_digests(load_words())


def lists_text(words, allowed=None, answers=None) -> str | None:
    """The word lists of a figure when they are not the default ones (the bundled allowed list,
    the NYT answers), for its caption: each other list by name (``allowed`` / ``answers`` as
    given: a file's name, a bundled list's name) and the first 8 hex digits of its sha256
    (:func:`evo_wordle.artefacts.list_digests`, what files, sweeps and studies record); None for
    the default lists.  A figure over another list is otherwise indistinguishable from one over
    the default lists."""
    from ..artefacts import word_lists

    return lists_record_text(word_lists(words, allowed, answers))


def lists_record_text(record: dict | None) -> str | None:
    """:func:`lists_text` of a result's recorded lists (:func:`evo_wordle.artefacts.word_lists`),
    for figures drawn from saved JSON (the meta-GA's); None for the default lists or no record."""
    if not record:
        return None
    default = _default_digests()
    parts = []
    if record["allowed_sha256"] != default["allowed_sha256"]:
        parts.append(f"allowed {record.get('allowed') or 'list'} (sha256 {record['allowed_sha256'][:8]})")
    if record["answers_sha256"] != default["answers_sha256"]:
        if record.get("label") == "allowed":  # a custom allowed list alone: every allowed word may be the answer
            parts.append("answers: every allowed word")
        else:
            given = record.get("answers") or record.get("label") or "list"
            parts.append(f"answers {given} (sha256 {record['answers_sha256'][:8]})")
    return "word lists: " + ", ".join(parts) if parts else None


def caption_text(*, solver: str | None = None, seed=None, n: str | None = None, settings: dict | None = None,
                 opener: str | None = None, extra: str | None = None, lists: str | None = None) -> str:
    """``solver · opener · seed · N · setting · word lists`` for the foot of a figure (parts left
    out when None; ``lists``: :func:`lists_text`, None for the default lists)."""
    parts = []
    if solver:
        parts.append(solver)
    if opener:
        parts.append(f"opener {opener.upper() if opener.isalpha() else opener}")
    if seed is not None:
        parts.append(f"seed {seed}")
    if n:
        parts.append(f"N = {n}")
    if settings is not None:
        parts.append(setting_text(settings))
    if lists:
        parts.append(lists)
    if extra:
        parts.append(extra)
    return " · ".join(parts)


#: Where a line may not break: before a number, "=" or an item's "·", and after "=" ("cap 5",
#: "seed 0", "N = 20"; a line never starts with the dot).
_GLUED = re.compile(r" (?=[\d=·])|(?<==) ")
#: The separator of a caption's items (:func:`caption_text`).
_ITEM = " · "


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (longer only for one unbreakable run),
    never broken between a label and its number (:data:`_GLUED`)."""
    import textwrap

    return [line.replace("\u00a0", " ") for line in textwrap.wrap(_GLUED.sub("\u00a0", text), width=width)]


def caption_lines(text: str, width: int) -> list[str]:
    """A caption in lines of about ``width`` characters, broken between its `` · `` items
    (an item is wrapped only when it is longer than a line), and never between a label and its
    number: "cap" at a line's end and "5" at the next one's start read as two things."""
    lines: list[str] = []
    line = ""
    for item in text.split(_ITEM):
        joined = f"{line}{_ITEM}{item}" if line else item
        if len(joined) <= width - len(_ITEM) or (not line and len(item) <= width):  # room for an ending dot
            line = joined
            continue
        if len(item) > width:  # too long for any line: wrapped from where the line stands
            *full, line = _wrap(joined, width)
            lines += full
        else:
            lines.append(line + _ITEM.rstrip())  # the dot ends the line: the caption goes on
            line = item
    return [*lines, line] if line else lines


def add_caption(fig, text: str) -> None:
    """Write ``text`` as small grey lines at the foot of ``fig`` (wrapped to its width by
    :func:`caption_lines`; room kept by the layout)."""
    lines = caption_lines(text, max(40, int(fig.get_figwidth() * 16)))
    # room in inches: a margin plus 7.5 pt lines at matplotlib's 1.2 spacing and a little more
    # (the old share of the height, tuned on 4.4-inch figures, let a third line reach the x label)
    foot = (0.06 + 0.135 * len(lines)) / fig.get_figheight()
    fig.get_layout_engine().set(rect=(0, foot, 1, 1 - foot))
    fig.text(0.005, 0.008, "\n".join(lines), ha="left", va="bottom", fontsize=7.5, color="#444444")


def wrapped_title(ax, text: str) -> None:
    """``text`` as the axes' title, wrapped to the figure's width (a narrow figure, e.g. a
    one-column heatmap, would cut a long title off at both ends); never between a label and its number."""
    ax.set_title("\n".join(_wrap(text, max(30, int(ax.figure.get_figwidth() * 11)))))


def legend_below(ax, ncol: int = 2) -> None:
    """A legend under the axes, so long labels are never cut off or drawn over data."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=ncol, frameon=False)
