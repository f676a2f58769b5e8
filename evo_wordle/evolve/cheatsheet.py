"""A decision tree as people read it: the second guess for each feedback on the opener.

A tree file (``ga-tree --tree``) holds one guess path per answer.  The cheat sheet groups the
answers by the feedback the opener gets, and gives each group its second guess, its size and
how many guesses its answers take (mean, worst, histogram).  The rows follow the tree file
exactly (read through :func:`evo_wordle.evolve.search.load_tree`, so every move is checked
against the game first); nothing is searched again.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..context import Context
from ..errors import EvoWordleError
from ..game import Settings
from ..patterns import to_digits
from .search import read_tree, tree_json


def tree_file_paths(ctx: Context, path: str | Path, settings: Settings | None = None) -> dict[int, list[int]]:
    """``{answer: [guess, …, answer]}`` of a tree file, checked by :func:`read_tree`
    (one-line errors on a bad file, an illegal move or a path that does not end in its answer)."""
    paths = read_tree(ctx, path, settings)[1]
    if not paths:
        raise EvoWordleError(f"tree file {path}: no answer paths")
    if len({p[0] for p in paths.values()}) != 1:
        raise EvoWordleError(f"tree file {path}: the paths do not share one first guess")
    worst = max(len(p) for p in paths.values())
    if settings is not None and worst > settings.max_guesses:
        # the sheet's figures are the tree's paths: under a lower cap they were printed as if
        # every answer were solved (mean 3.42, worst 5 with max_guesses=3)
        raise EvoWordleError(f"tree file {path} needs {worst} guesses for some answers, more than max_guesses "
                             f"{settings.max_guesses}: a cheat sheet shows the tree's own games (give a cap of "
                             f"{worst} or more; bench --tree plays it under a lower cap)")
    return paths


def feedback_letters(guess: str, digits: str) -> str:
    """The feedback written with the guess's letters: capital = right place (green), small =
    in the word elsewhere (yellow), ``.`` = not in the word (grey)."""
    return "".join(c.upper() if d == "2" else c if d == "1" else "." for c, d in zip(guess, digits))


def cheat_sheet(ctx: Context, paths: dict[int, list[int]]) -> dict:
    """The cheat sheet of a tree: one row per feedback on the opener, most answers first (ties:
    by feedback code).  Each row: ``feedback`` (digits, 0 grey, 1 yellow, 2 green), ``letters``
    (see :func:`feedback_letters`), ``answers``, ``second_guess`` (None when the opener solved
    it), ``mean_guesses``, ``max_guesses``, ``histogram`` (guesses → answers)."""
    words, n = ctx.words.allowed, ctx.words.length
    opener = next(iter(paths.values()))[0]
    groups: dict[int, list[int]] = {}
    for answer in paths:
        groups.setdefault(int(ctx.table[opener, answer]), []).append(answer)
    rows = []
    for code, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lengths = [len(paths[a]) for a in members]
        seconds = {paths[a][1] for a in members if len(paths[a]) > 1}
        if len(seconds) > 1:  # load_tree refuses such files; kept as a guard for callers with dicts
            raise EvoWordleError(f"two second guesses after {words[opener].upper()}:{to_digits(code, n)}")
        digits = to_digits(code, n)
        rows.append({"feedback": digits, "letters": feedback_letters(words[opener], digits),
                     "answers": len(members), "second_guess": words[seconds.pop()] if seconds else None,
                     "mean_guesses": round(sum(lengths) / len(lengths), 4), "max_guesses": max(lengths),
                     "histogram": {str(k): v for k, v in sorted(Counter(lengths).items())}})
    total = sum(len(p) for p in paths.values())
    return {"opener": words[opener], "answers": len(paths), "total_guesses": total,
            "mean_guesses": round(total / len(paths), 4), "max_guesses": max(len(p) for p in paths.values()),
            "feedbacks": len(rows), "rows": rows}


def text_table(sheet: dict, limit: int | None = None) -> str:
    """The cheat sheet as a fixed-width table (the first ``limit`` rows, the rest summed up)."""
    opener = sheet["opener"].upper()
    lines = [f"{opener}: {sheet['answers']} answers, total {sheet['total_guesses']}, mean "
             f"{sheet['mean_guesses']:.4f}, worst {sheet['max_guesses']}; {sheet['feedbacks']} feedbacks "
             f"(0/. grey, 1/small yellow, 2/CAPITAL green)",
             f"{'feedback':<8} {'':<{len(opener)}} {'answers':>7}  {'then':<6} {'mean':>6} {'worst':>5}"]
    rows = sheet["rows"] if limit is None else sheet["rows"][:limit]
    for r in rows:
        then = r["second_guess"].upper() if r["second_guess"] else "solved"
        lines.append(f"{r['feedback']:<8} {r['letters']:<{len(opener)}} {r['answers']:>7}  {then:<6} "
                     f"{r['mean_guesses']:>6.3f} {r['max_guesses']:>5}")
    rest = sheet["rows"][len(rows):]
    if rest:
        lines.append(f"… {len(rest)} more feedbacks with {sum(r['answers'] for r in rest)} answers (--top 0 shows all)")
    return "\n".join(lines)


def tree_export(ctx: Context, paths: dict[int, list[int]], made_for: dict | None) -> dict:
    """The whole tree as JSON data: ``paths`` (answer → its guesses) and ``tree`` (feedback
    history → next guess, the ``tree`` field of a strategy file), with the file's ``made_for``."""
    words = ctx.words.allowed
    return {"format": "evo-wordle-tree", "version": 1, "made_for": made_for,
            "opener": words[next(iter(paths.values()))[0]],
            "paths": {words[a]: [words[g] for g in p] for a, p in sorted(paths.items())},
            "tree": tree_json(ctx, paths)}


__all__ = ["cheat_sheet", "feedback_letters", "text_table", "tree_export", "tree_file_paths"]
