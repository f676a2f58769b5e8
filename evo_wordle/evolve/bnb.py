"""Branch and bound on decision trees: the fewest total guesses that solve every candidate.

A node is a candidate set C (n answers) and the words that may be guessed there.  Its cost is
the total number of guesses, summed over the answers in C, of the best subtree.  Lower bounds
come from partition sizes alone: a part of c answers costs at least ``2c − 1`` (one answer can
be solved by its first guess, each other one needs a second), so after a guess g that splits C
into parts c_1 … c_k other than "solved" (s = 1 if g is in C, else 0)

    cost(g) ≥ n + Σ (2c_i − 1) = 3n − 2s − k = 3n − s − P,   P = number of distinct patterns,

and ``cost(C) ≥ min_g (3n − s − P)``.  The bound is exact when every part has at most two
answers, so most small nodes are settled by one vectorised scan: ``2n − 1`` if a word of C
splits it into singletons, ``2n`` if only an outside word does.

:meth:`TreeSearch.search` is a fail-hard branch and bound with a threshold ``beta``: it
returns the exact cost if it is below ``beta``, else a lower bound of at least ``beta``.
Exact costs and proven lower bounds are memoised on the candidate set (plus a digest of the
legal words in hard mode).  At each node the partition counts of every guessable word are
computed at once from the transposed pattern table (no Python loop over words); guesses are
tried in order of their bound, then of Σ c_i² (smaller parts first), then words of C first,
and a guess whose bound cannot beat the best total so far ends the loop.

``width=None`` tries every word whose bound allows it: the result is the optimum.  ``width=K``
keeps only the K best-ordered words at each node (the "proposals"): the result is then the
optimum over trees built from proposals, an achievable total but not a proof.
:func:`certify` bounds the parts of a tree from below by exhaustive searches with rising
thresholds, within a time budget.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import hard_mode_mask
from ..patterns import to_digits
from .strategy import transposed_table

#: Candidate sets up to this size count their parts by pairwise comparison (byte counts, so
#: below 256); larger ones by a per-guess histogram (both vectorised over the guesses).
PAIRWISE_MAX = 200
#: Guesses per histogram chunk (keeps each bincount small enough to stay in cache).
CHUNK = 2048
#: Guesses put in order first at a node (most nodes are decided within them).
HEAD = 32
#: Node expansions between two looks at the clock.
CLOCK_EVERY = 64
#: The cost of a candidate set that cannot be solved within the guesses left.
INFEASIBLE = 10**12


class OutOfTime(Exception):
    """Raised inside a search when its deadline has passed (caught by the callers here)."""


def part_stats(block: np.ndarray, n_patterns: int) -> tuple[np.ndarray, np.ndarray]:
    """For a ``(n, G)`` block of patterns (candidates × guesses): the number of distinct
    patterns of each guess and Σ c² over its parts (both int64 arrays of length G)."""
    n, g = block.shape
    if n <= PAIRWISE_MAX:
        dup = np.zeros(g, dtype=np.int32)
        same = np.zeros(g, dtype=np.int32)
        for i in range(1, n):
            earlier = (block[i][None, :] == block[:i]).view(np.uint8).sum(axis=0, dtype=np.uint8)
            dup += earlier > 0
            same += earlier
        return (n - dup).astype(np.int64), (n + 2 * same).astype(np.int64)
    parts = np.empty(g, dtype=np.int64)
    squares = np.empty(g, dtype=np.int64)
    for start in range(0, g, CHUNK):
        cols = block[:, start:start + CHUNK]
        width = cols.shape[1]
        keys = cols.astype(np.int32) + (np.arange(width, dtype=np.int32) * n_patterns)[None, :]
        hist = np.bincount(keys.ravel(), minlength=width * n_patterns).reshape(width, n_patterns)
        parts[start:start + width] = np.count_nonzero(hist, axis=1)
        squares[start:start + width] = np.einsum("ij,ij->i", hist, hist)
    return parts, squares


def order_keys(bound: np.ndarray, squares: np.ndarray, outside: np.ndarray, position: np.ndarray,
               n: int, n_words: int) -> np.ndarray:
    """One int64 key per guess, increasing in (bound, Σ c², not a candidate, position): packed
    bit fields when they fit in 62 bits, else the ranks of a lexicographic sort."""
    sq_bits, pos_bits = (n * n).bit_length(), n_words.bit_length()
    if (3 * n).bit_length() + sq_bits + 1 + pos_bits <= 62:
        key = bound.astype(np.int64) << (sq_bits + 1 + pos_bits)
        key |= squares.astype(np.int64) << (1 + pos_bits)
        key |= outside.astype(np.int64) << pos_bits
        return key | position.astype(np.int64)
    key = np.empty(len(bound), dtype=np.int64)
    key[np.lexsort((position, outside, squares, bound))] = np.arange(len(bound))
    return key


@dataclass
class SearchStats:
    """What a search did: node expansions, guesses whose partition was examined, time."""

    expanded: int = 0
    examined: int = 0
    scanned: int = 0  # guessable words scored at expanded nodes (what a full scan costs)
    seconds: float = 0.0
    #: solved nodes by the rank of their best guess in the search order (0 = the first proposal)
    best_rank: dict[int, int] = field(default_factory=dict)

    def as_dict(self) -> dict:
        """The counters under the names ``ga-tree --json`` reports; ``best_in_top`` says at how
        many solved nodes the best guess was among the first 1, 5, 10 and 50 of the order."""
        solved = sum(self.best_rank.values())
        top = {str(k): sum(v for r, v in self.best_rank.items() if r < k) for k in (1, 5, 10, 50)}
        return {"nodes_expanded": self.expanded, "guesses_examined": self.examined,
                "guesses_scanned": self.scanned, "seconds": round(self.seconds, 2),
                "nodes_solved": solved, "best_in_top": top,
                "worst_best_rank": max(self.best_rank, default=0)}


class TreeSearch:
    """Memoised branch and bound on the total-guesses objective.

    ``guess_from``: ``"allowed"`` (any allowed word, hard-mode filtered when ``hard``) or
    ``"candidates"`` (only words that may still be the answer).  ``width``: None for the exact
    search, or the number of best-ordered guesses tried per node.  The ``depth`` arguments are
    the guesses left for the node (None: no limit); a set that cannot be solved within them
    costs :data:`INFEASIBLE`.
    """

    def __init__(self, ctx: Context, guess_from: str = "allowed", hard: bool = False,
                 width: int | None = None, deadline: float | None = None) -> None:
        if guess_from not in ("allowed", "candidates"):
            raise EvoWordleError(f"guess_from must be allowed or candidates, not {guess_from!r}")
        if width is not None and width < 1:
            raise EvoWordleError(f"width must be at least 1, not {width}")
        self.ctx = ctx
        self.guess_from = guess_from
        self.hard = hard
        self.width = width
        self.deadline = deadline
        self.tt = transposed_table(ctx)
        self.solved = ctx.words.solved
        self.n_patterns = ctx.words.n_patterns
        self.exact: dict[bytes, tuple[int, int]] = {}
        self.lower: dict[bytes, int] = {}
        self.stats = SearchStats()

    # ------------------------------------------------------------------ nodes

    def _key(self, cand: np.ndarray, legal: np.ndarray | None, depth: int | None) -> bytes:
        key = cand.tobytes() if depth is None else cand.tobytes() + bytes([min(depth, 255)])
        if legal is None or self.guess_from == "candidates":
            return key
        return key + hashlib.blake2b(legal.tobytes(), digest_size=12).digest()

    def _guessable(self, cand: np.ndarray, legal: np.ndarray | None) -> np.ndarray | None:
        """Words that may be guessed at this node (None: every allowed word)."""
        return cand if self.guess_from == "candidates" else legal

    def child_legal(self, legal: np.ndarray | None, guess: int, pattern: int) -> np.ndarray | None:
        """The legal words after ``guess`` got ``pattern`` (hard mode only narrows them)."""
        if not self.hard or self.guess_from == "candidates":
            return legal
        pool = self.ctx.all_words if legal is None else legal
        return pool[hard_mode_mask(self.ctx, ((int(guess), int(pattern)),), pool)]

    def expand(self, cand: np.ndarray, legal: np.ndarray | None, depth: int | None = None) -> tuple:
        """``(guesses, bounds, keys, block, columns)`` for the guesses worth trying, unsorted:
        a guess that splits nothing is dropped, and with two guesses left every guess that does
        not split ``cand`` into single answers.  ``keys`` give the search order (bound, then
        Σ c², then words of ``cand`` first, then the word list's order; all distinct), and
        ``block[:, columns[i]]`` holds guess i's patterns."""
        stats = self.stats
        stats.expanded += 1
        if self.deadline is not None and stats.expanded % CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
            raise OutOfTime
        n = len(cand)
        guesses = self._guessable(cand, legal)
        rows = self.tt[cand]
        block = rows if guesses is None else rows[:, guesses]
        parts, squares = part_stats(block, self.n_patterns)
        if guesses is None:
            ids = self.ctx.all_words
            in_set = np.zeros(len(ids), dtype=bool)
            in_set[cand] = True
        else:
            ids = guesses
            in_set = np.isin(ids, cand, assume_unique=True)
        bound = 3 * n - in_set - parts
        useful = (parts > 1) | in_set
        if depth is not None and depth <= 2:
            useful &= parts == n
        stats.scanned += len(ids)
        cols = np.flatnonzero(useful)
        return ids[cols], bound[cols], order_keys(bound[cols], squares[cols], ~in_set[cols], cols, n, len(ids)), \
            block, cols

    def in_order(self, keys: np.ndarray):
        """Positions of ``keys`` in increasing order (the first ``width`` only, if set); the
        first few are found by partial selection, so a node cut off early sorts almost nothing."""
        m = len(keys)
        k = m if self.width is None else min(self.width, m)
        first = min(k, HEAD)
        head = np.argpartition(keys, first - 1)[:first] if first < m else np.arange(m)
        head = head[np.argsort(keys[head])]
        yield from head.tolist()
        if first < k:
            rest = np.ones(m, dtype=bool)
            rest[head] = False
            rest = np.flatnonzero(rest)
            yield from rest[np.argsort(keys[rest])][: k - first].tolist()

    # ------------------------------------------------------------------ search

    def cost(self, cand, legal: np.ndarray | None = None, depth: int | None = None) -> int:
        """The optimal (or, with ``width``, the best proposal-tree) total for ``cand``."""
        value = self.search(np.asarray(cand, dtype=np.int64), legal, INFEASIBLE, depth)
        if value >= INFEASIBLE:
            raise EvoWordleError(f"no tree solves these {len(cand)} candidates within {depth} guesses"
                                 + (f" using the {self.width} best guesses per node" if self.width else ""))
        return value

    def search(self, cand: np.ndarray, legal: np.ndarray | None, beta: int, depth: int | None = None) -> int:
        """The cost of ``cand`` if it is below ``beta``, else a lower bound ≥ ``beta``
        (:data:`INFEASIBLE` if it cannot be solved within ``depth`` guesses)."""
        n = len(cand)
        if depth is not None and (depth < 1 or depth < 2 <= n):
            return INFEASIBLE
        if n <= 2:
            return 2 * n - 1
        key = self._key(cand, legal, depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        known = self.lower.get(key, 2 * n - 1)
        if known >= beta:
            return known
        guesses, bounds, keys, block, cols = self.expand(cand, legal, depth)
        if not len(guesses):
            if depth is None and self.width is None:
                raise EvoWordleError("no guessable word separates these candidates")
            self.lower[key] = INFEASIBLE
            return INFEASIBLE
        floor = int(bounds.min())
        if floor >= beta:
            self.lower[key] = max(known, floor)
            return max(known, floor)
        best, best_guess, best_rank = beta, -1, -1
        for j, pos in enumerate(self.in_order(keys)):
            bound = int(bounds[pos])
            if bound >= best:
                break
            self.stats.examined += 1
            row = block[:, cols[pos]]
            order = np.argsort(row, kind="stable")
            srt = row[order]
            cuts = np.flatnonzero(srt[1:] != srt[:-1]) + 1
            starts = np.concatenate(([0], cuts))
            sizes = np.diff(np.concatenate((starts, [n])))
            big = np.flatnonzero(sizes >= 3)
            running = bound
            g = int(guesses[pos])
            for k in big[np.argsort(-sizes[big], kind="stable")].tolist():
                c = int(sizes[k])
                members = np.sort(cand[order[starts[k]:starts[k] + c]])
                pattern = int(srt[starts[k]])
                base = 2 * c - 1
                sub = self.search(members, self.child_legal(legal, g, pattern), best - running + base,
                                  None if depth is None else depth - 1)
                running += sub - base
                if running >= best:
                    break
            if running < best:
                best, best_guess, best_rank = running, g, j
        if best_guess < 0:
            self.lower[key] = max(known, beta)
            return max(known, beta)
        self.exact[key] = (best, best_guess)
        self.stats.best_rank[best_rank] = self.stats.best_rank.get(best_rank, 0) + 1
        return best

    def best_guess(self, cand: np.ndarray, legal: np.ndarray | None = None, depth: int | None = None) -> int:
        """The first guess of the best tree for ``cand`` (searched if not known yet)."""
        cand = np.asarray(cand, dtype=np.int64)
        if len(cand) <= 2:
            return int(cand[0])
        self.cost(cand, legal, depth)
        return self.exact[self._key(cand, legal, depth)][1]

    # ------------------------------------------------------------------ trees

    def opener_tree(self, opener: int, cand, legal: np.ndarray | None = None,
                    depth: int | None = None) -> dict[int, list[int]]:
        """The best tree that opens with ``opener`` within ``depth`` guesses:
        ``{answer: [guess, …, answer]}``."""
        return self.tree(cand, legal, depth, opener)

    def tree(self, cand, legal: np.ndarray | None = None, depth: int | None = None,
             opener: int | None = None) -> dict[int, list[int]]:
        """The best tree for ``cand`` (opening with ``opener`` if given) as
        ``{answer: [guess, …, answer]}``."""
        cand = np.asarray(cand, dtype=np.int64)
        out: dict[int, list[int]] = {}
        start = time.monotonic()
        try:
            self._walk(cand, legal, depth, [], out, opener)
        finally:
            self.stats.seconds += time.monotonic() - start
        return out

    def _walk(self, cand: np.ndarray, legal, depth: int | None, path: list[int], out: dict,
              guess: int | None) -> None:
        if guess is None:
            try:
                if depth is not None and depth < 1:
                    raise EvoWordleError("no guess left")
                guess = self.best_guess(cand, legal, depth)
            except EvoWordleError:
                if depth is None or not path:
                    raise
                n = self.ctx.words.length
                where = ",".join(f"{self.ctx.words.allowed[g].upper()}:{to_digits(int(self.ctx.table[g, cand[0]]), n)}"
                                 for g in path)
                raise EvoWordleError(f"no tree solves every answer within the guess limit: the {len(cand)} "
                                     f"answers left after {where} cannot all be solved in the {max(depth, 0)} "
                                     f"guesses left" + (f" (using the {self.width} best guesses per node)"
                                                        if self.width else "")) from None
        left = None if depth is None else depth - 1
        row = np.asarray(self.ctx.table[guess, cand])
        for p in np.unique(row).tolist():
            if p == self.solved:
                out[int(guess)] = path + [int(guess)]
            else:
                self._walk(cand[row == p], self.child_legal(legal, guess, p), left, path + [int(guess)], out, None)

    def parts(self, guess: int, cand: np.ndarray, legal: np.ndarray | None = None):
        """The parts (candidates, legal words) other than "solved" that ``guess`` leaves."""
        row = np.asarray(self.ctx.table[guess, cand])
        for p in np.unique(row).tolist():
            if p != self.solved:
                yield cand[row == p], self.child_legal(legal, guess, p)

    # ------------------------------------------------------------------ bounds

    def node_bound(self, cand: np.ndarray, legal: np.ndarray | None = None, depth: int | None = None) -> int:
        """A lower bound on the cost of ``cand`` from one scan (the exact value if known)."""
        n = len(cand)
        if n <= 2 or depth is not None and depth < 2:
            return self.search(cand, legal, INFEASIBLE, depth)
        key = self._key(cand, legal, depth)
        if key in self.exact:
            return self.exact[key][0]
        bounds = self.expand(cand, legal, depth)[1]
        floor = int(bounds.min()) if len(bounds) else INFEASIBLE
        return max(self.lower.get(key, 2 * n - 1), floor)


@dataclass
class Certificate:
    """Lower bounds on the optimal cost of each part and whether each is proven optimal."""

    bounds: list[int]
    settled: list[bool]
    seconds: float

    @property
    def total(self) -> int:
        """The bound on the sum of the parts."""
        return sum(self.bounds)


def certify(ctx: Context, parts: list[tuple[np.ndarray, np.ndarray | None]], upper: list[int],
            guess_from: str = "allowed", hard: bool = False, depth: int | None = None,
            seconds: float = 60.0) -> Certificate:
    """Lower bounds on the optimal cost of each part, by exhaustive search within ``seconds``.

    ``upper`` holds achievable costs (a tree's); each part's bound is raised one threshold at a
    time towards it: a search that comes back below its threshold gives the exact optimum, one
    that fails proves the threshold.  Parts are taken smallest first; the deadline is shared,
    and a part the clock stops keeps the bound proven so far.
    """
    start = time.monotonic()
    search = TreeSearch(ctx, guess_from, hard, width=None, deadline=start + seconds)
    lows = [2 * len(cand) - 1 for cand, _ in parts]
    done = [False] * len(parts)
    try:
        for i, (cand, legal) in enumerate(parts):
            lows[i] = max(lows[i], search.node_bound(cand, legal, depth))
    except OutOfTime:
        pass
    for i in sorted(range(len(parts)), key=lambda i: len(parts[i][0])):
        cand, legal = parts[i]
        try:
            while lows[i] < upper[i]:
                value = search.search(cand, legal, lows[i] + 1, depth)
                if value <= lows[i]:  # below the threshold: exact, and no lower than the bound
                    break
                lows[i] = value
            done[i] = True
        except OutOfTime:
            continue
    return Certificate(lows, done, time.monotonic() - start)


__all__ = ["INFEASIBLE", "Certificate", "OutOfTime", "SearchStats", "TreeSearch", "certify", "order_keys", "part_stats"]
