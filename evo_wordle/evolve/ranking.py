"""Opening words ranked by their trees (``rank --by tree``, issue 14).

Every guessable word is pre-screened by the partition bound of a first guess (3n − s − P,
then Σ c² over its parts, then words that may be the answer first: the order the branch and
bound itself uses); the ``screen`` best are built with :class:`~evo_wordle.evolve.bnb.TreeSearch`
and ranked by total guesses.  An exhaustive search (the default) gives each screened opener its
optimal total, which is also its lower bound; with ``width`` the totals are achievable but not
proven.  Each finished opener is written to the trees folder (its tree file and a JSON record),
so an interrupted run resumes where it stopped; openers run in parallel on any executor.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import Executor, as_completed
from pathlib import Path

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..files import atomic_write_text
from ..game import Settings
from .bnb import TreeSearch, order_keys, part_stats

#: Format tag of a per-opener record in the trees folder.
RECORD_FORMAT = "evo-wordle-opener-tree"


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


def load_done(ctx: Context, folder: Path, header: dict) -> dict[str, dict]:
    """Records of openers already built into ``folder`` for the same game and search."""
    done: dict[str, dict] = {}
    if not folder.is_dir():
        return done
    for path in sorted(folder.glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a foreign or broken file is rebuilt, never trusted
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            continue
        if record.get("search") != header or not ctx.words.contains(str(record.get("opener", ""))):
            continue
        done[record["opener"]] = record
    return done


def rank_by_tree(ctx: Context, settings: Settings, top: int, screen: int, width: int | None = None,
                 depth: int | None = 6, folder: str | Path | None = None, executor: Executor | None = None,
                 spec: tuple | None = None, progress: Callable[[dict], None] | None = None) -> dict:
    """Build the trees of the ``screen`` best-screened openers and rank them by total guesses.

    Returns ``{"ranking": [records, best first][:top], "screened": [...], "reused": n}``.  With
    ``folder`` each finished opener's tree file (``WORD.tree``) and record (``WORD.json``) are
    written there and reused by a later run with the same settings.  ``executor`` (with
    ``spec`` = the word-list arguments for workers) builds openers in parallel.
    """
    from ..artefacts import made_for
    from .search import write_tree

    if screen < top:
        raise EvoWordleError(f"--screen ({screen}) must be at least --top ({top})")
    openers = screen_openers(ctx, settings, screen)
    header = {"made_for": made_for(settings, ctx.words), "width": width, "depth_limit": depth}
    out = Path(folder) if folder is not None else None
    done = load_done(ctx, out, header) if out is not None else {}
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
            "built": len(todo)}


__all__ = ["build_opener", "load_done", "rank_by_tree", "screen_openers"]
