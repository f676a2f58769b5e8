"""Opening words ranked by their trees (``rank --by tree``, issue 14).

Every guessable word is pre-screened by the partition bound of a first guess (3n − s − P,
then Σ c² over its parts, then words that may be the answer first: the order the branch and
bound itself uses).  With ``prescreen`` M, the M best by that bound then get a quick tree each
(``prescreen_width`` proposals per node, a fraction of a second) and the ``screen`` best by
those totals go on; otherwise the ``screen`` best by the bound do.  They are built with
:class:`~evo_wordle.evolve.bnb.TreeSearch` and ranked by total guesses. An exhaustive search
(the default) gives each screened opener its optimal total, which is also its lower bound; with
``width`` the totals are achievable but not proven. Each finished opener is written to the trees
folder (its tree file and a JSON record), so an interrupted run resumes where it stopped;
openers run in parallel on any executor.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from concurrent.futures import Executor, as_completed
from pathlib import Path

import numpy as np

from ..console import warn
from ..context import Context
from ..errors import EvoWordleError
from ..files import atomic_write_text, read_json
from ..game import Settings
from .bnb import TreeSearch, order_keys, part_stats

#: Format tag of a per-opener record in the trees folder.
RECORD_FORMAT = "evo-wordle-opener-tree"
#: Largest record read back (bytes); ours are well under 2 kB.
MAX_RECORD_BYTES = 64 * 1024


def screen_openers(ctx: Context, settings: Settings, k: int) -> np.ndarray:
    """The ``k`` best first guesses by the branch and bound's own order (one vectorised scan)."""
    cand = ctx.candidates(settings.candidates)
    guesses = cand if settings.guess_from == "candidates" else ctx.all_words
    # from the table itself (guesses × answers), so a parent that only screens makes no transposed copy
    table = np.asarray(ctx.table)
    block = (table[:, cand] if len(guesses) == len(ctx.words) else table[np.ix_(guesses, cand)]).T
    parts, squares = part_stats(block, ctx.words.n_patterns)
    outside = ~np.isin(guesses, cand, assume_unique=True)
    bound = 3 * len(cand) - (~outside) - parts
    keys = order_keys(bound, squares, outside, np.arange(len(guesses)), len(cand), len(guesses))
    return guesses[np.argsort(keys)[:k]]


def build_opener(ctx: Context, settings: Settings, opener: int, width: int | None,
                 depth: int | None) -> dict:
    """One opener's tree and figures (``paths`` maps answer index → guess indices)."""
    start = time.perf_counter()
    search = TreeSearch(ctx, settings.guess_from, settings.hard, width)
    cand = ctx.candidates(settings.candidates)
    paths = search.tree(cand, None, depth, int(opener))
    total = sum(len(p) for p in paths.values())
    return {"opener": ctx.words.allowed[int(opener)], "total_guesses": total,
            "mean_guesses": total / len(cand), "max_guesses": max(len(p) for p in paths.values()),
            "lower_bound": total if width is None else None, "seconds": round(time.perf_counter() - start, 2),
            "nodes_expanded": search.stats.expanded, "paths": paths}


def _build_in_worker(spec: tuple, settings: dict, opener: int, width: int | None, depth: int | None) -> dict:
    from ..executors import worker_context

    return build_opener(worker_context(*spec), Settings(**settings), opener, width, depth)


def _record_path(folder: Path, word: str) -> Path:
    return folder / f"{word}.json"


def load_done(ctx: Context, folder: Path, header: dict, settings: Settings | None = None) -> dict[str, dict]:
    """Records of openers already built into ``folder`` for the same game and search.

    A file that is no record of this search (not a regular file, too large, not JSON, another
    format or search) is skipped and the opener rebuilt.  With ``settings`` a record of this
    search is reused only if its figures are those of its own tree file (a record edited to a
    total of 1 was ranked first, one with a missing or non-numeric figure was an internal
    error); one that is not is rebuilt, with a warning naming it."""
    done: dict[str, dict] = {}
    if not folder.is_dir():
        return done
    for path in sorted(folder.glob("*.json")):
        try:
            record = read_json(path, MAX_RECORD_BYTES, "opener record")
        except EvoWordleError:
            continue  # a foreign or broken file is rebuilt, never trusted
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            continue
        if record.get("search") != header or not ctx.words.contains(str(record.get("opener", ""))):
            continue
        why = _record_disagrees(ctx, path, record, header, settings) if settings is not None else None
        if why:
            warn(f"opener record {path} {why}; rebuilding it")
            continue
        done[record["opener"]] = record
    return done


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _record_disagrees(ctx: Context, path: Path, record: dict, header: dict, settings: Settings) -> str | None:
    """Why a record of this search cannot be reused (None if its figures are its tree's)."""
    from .search import read_tree

    opener = record["opener"]
    if path.stem != opener:
        return f"names the opener {opener}"
    try:
        _, paths = read_tree(ctx, path.with_suffix(".tree"), settings)
    except EvoWordleError as exc:
        return f"has no usable tree file ({exc})"
    cand = ctx.candidates(settings.candidates)
    first = ctx.words.index(opener)
    if set(paths) != set(cand.tolist()) or any(p[0] != first for p in paths.values()):
        return "has a tree file that is not the opener's tree over every candidate"
    total, worst = sum(len(p) for p in paths.values()), max(len(p) for p in paths.values())
    bound = total if header.get("width") is None else None
    depth = header.get("depth_limit")
    if isinstance(depth, int) and worst > depth:
        return f"has a tree deeper than its depth limit {depth}"
    figures = {k: record.get(k) for k in ("total_guesses", "mean_guesses", "max_guesses", "lower_bound")}
    mean = figures["mean_guesses"]
    if (figures["total_guesses"] != total or not _whole(figures["total_guesses"])
            or figures["max_guesses"] != worst or not _whole(figures["max_guesses"])
            or isinstance(mean, bool) or not isinstance(mean, int | float)
            or not math.isclose(mean, total / len(cand), rel_tol=1e-9)
            or figures["lower_bound"] != bound or isinstance(figures["lower_bound"], bool)):
        return f"does not hold its tree's figures (total {total}, max {worst})"
    seconds = record.get("seconds")
    if (isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds)
            or seconds < 0 or not _whole(record.get("nodes_expanded"))):
        return "has a bad seconds or nodes_expanded"
    return None


def rank_by_tree(ctx: Context, settings: Settings, top: int, screen: int, width: int | None = None,
                 depth: int | None = 6, folder: str | Path | None = None, executor: Executor | None = None,
                 spec: tuple | None = None, progress: Callable[[dict], None] | None = None,
                 prescreen: int | None = None, prescreen_width: int = 1) -> dict:
    """Build the trees of the ``screen`` best-screened openers and rank them by total guesses.

    Returns ``{"ranking": [records, best first][:top], "screened": [...], "reused": n,
    "prescreen": [{opener, quick_total}, best first]}`` (the last empty without ``prescreen``).  With
    ``folder`` each finished opener's tree file (``WORD.tree``) and record (``WORD.json``) are
    written there and reused by a later run with the same settings.  ``executor`` (with
    ``spec`` = the word-list arguments for workers) builds openers in parallel.
    """
    from ..artefacts import made_for
    from .search import write_tree

    if screen < top:
        raise EvoWordleError(f"--screen ({screen}) must be at least --top ({top})")
    quick: list[dict] = []
    if prescreen:
        if prescreen < screen:
            raise EvoWordleError(f"--prescreen ({prescreen}) must be at least --screen ({screen})")
        openers = _prescreen(ctx, settings, screen_openers(ctx, settings, prescreen), screen, prescreen_width,
                             depth, executor, spec, quick)
    else:
        openers = screen_openers(ctx, settings, screen)
    header = {"made_for": made_for(settings, ctx.words), "width": width, "depth_limit": depth}
    out = Path(folder) if folder is not None else None
    done = load_done(ctx, out, header, settings) if out is not None else {}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    records = [done[w] for w in (ctx.words.allowed[o] for o in openers) if w in done]
    todo = [int(o) for o in openers if ctx.words.allowed[o] not in done]

    def finish(result: dict) -> None:
        paths = result.pop("paths")
        record = {"format": RECORD_FORMAT, "search": header, **result}
        if out is not None:
            write_tree(ctx, out / f"{result['opener']}.tree", paths, settings)
            atomic_write_text(_record_path(out, result["opener"]), json.dumps(record, indent=1) + "\n")
        records.append(record)
        if progress is not None:
            progress(record)

    if executor is None:
        for o in todo:
            finish(build_opener(ctx, settings, o, width, depth))
    else:
        if spec is None:
            raise EvoWordleError("rank_by_tree: an executor needs spec=(allowed, answers)")
        futures = [executor.submit(_build_in_worker, spec, settings.as_dict(), o, width, depth) for o in todo]
        for fut in as_completed(futures):
            finish(fut.result())
    records.sort(key=lambda r: (r["total_guesses"], r["opener"]))
    clean = [{k: v for k, v in r.items() if k not in ("format", "search")} for r in records]
    for rank, r in enumerate(clean, 1):
        r["rank"] = rank
    return {"ranking": clean[:top], "screened": [ctx.words.allowed[o] for o in openers], "reused": len(done),
            "built": len(todo), "prescreen": quick}


def _prescreen(ctx: Context, settings: Settings, openers: np.ndarray, keep: int, width: int, depth: int | None,
               executor: Executor | None, spec: tuple | None, out: list[dict]) -> np.ndarray:
    """The ``keep`` openers whose quick trees (``width`` proposals per node) total least (ties:
    the bound's order); ``out`` receives every opener's quick total in that order."""
    if executor is None:
        totals = [quick_total(ctx, settings, int(o), width, depth) for o in openers]
    else:
        if spec is None:
            raise EvoWordleError("rank_by_tree: an executor needs spec=(allowed, answers)")
        futures = [executor.submit(_quick_in_worker, spec, settings.as_dict(), int(o), width, depth) for o in openers]
        totals = [f.result() for f in futures]
    # an opener whose quick tree cannot keep within the depth limit goes last (its full search may)
    order = sorted(range(len(openers)), key=lambda i: (totals[i] is None, totals[i] or 0, i))
    out.extend({"opener": ctx.words.allowed[int(openers[i])], "quick_total": totals[i]} for i in order)
    return openers[order[:keep]]


def quick_total(ctx: Context, settings: Settings, opener: int, width: int, depth: int | None) -> int | None:
    """Total guesses of ``opener``'s tree over ``width`` proposals per node (None: no such tree
    within ``depth`` guesses)."""
    try:
        return build_opener(ctx, settings, opener, width, depth)["total_guesses"]
    except EvoWordleError:
        return None


def _quick_in_worker(spec: tuple, settings: dict, opener: int, width: int, depth: int | None) -> int | None:
    from ..executors import worker_context

    return quick_total(worker_context(*spec), Settings(**settings), opener, width, depth)


__all__ = ["build_opener", "load_done", "rank_by_tree", "screen_openers"]
