"""Fixed opening sequences: the K words a player always opens with, found by a GA or a scan.

A fixed opening of K words splits the candidates by the K feedbacks together.  Its score is
the expected number of candidates left afterwards (``remaining``: Σ bucket² / n, lower is
better), the information of the joint feedback (``entropy``, in bits, higher is better) or the
mean guesses of the whole game (``game``, lower is better): the K words first, then the
entropy-greedy policy to the end on each group of candidates sharing the joint feedback
(:class:`~evo_wordle.evolve.endgame.GreedyEndgame`).  None depends on the order of the K words
once the words that may be the answer are played first (``game``), so a genome is a sorted set
of K distinct words.

The GA (DEAP logbook and hall of fame, numpy roulette, whole-population evaluation) searches a
pool of the best single words; :func:`scan` scores every K-subset of the same pool, so the two
can be compared on the same space: the scan is the ground truth the GA is measured against.
"""

from __future__ import annotations

import copy
import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np
from deap import base, creator, tools

from ..context import Context
from ..errors import EvoWordleError
from ..ga.config import MAX_COUNT
from ..ga.operators import roulette
from ..params import as_choice, as_float, as_int, as_seed
from .endgame import GreedyEndgame

OBJECTIVES = ("remaining", "entropy", "game")
#: Objectives where a smaller score is better.
LOWER_IS_BETTER = frozenset({"remaining", "game"})

#: Joint feedback codes are sorted in rows of this many elements per chunk (bounds memory).
CHUNK_ELEMENTS = 8_000_000

if not hasattr(creator, "OpeningFitness"):
    creator.create("OpeningFitness", base.Fitness, weights=(1.0,))
if not hasattr(creator, "OpeningIndividual"):
    creator.create("OpeningIndividual", list, fitness=creator.OpeningFitness)


def bucket_stats(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Σ size² and Σ size·log2(size) over the buckets of each row of joint feedback codes.

    Rows are sorted and their runs measured at once (numpy, no Python loop over rows)."""
    rows, n = codes.shape
    if rows == 0:
        return np.zeros(0), np.zeros(0)
    ordered = np.sort(codes, axis=1, kind="stable")
    starts_mask = np.ones((rows, n), dtype=bool)
    starts_mask[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    starts = np.flatnonzero(starts_mask.ravel())
    sizes = np.diff(np.append(starts, rows * n)).astype(np.float64)
    row_of = starts // n
    squares = np.bincount(row_of, weights=sizes * sizes, minlength=rows)
    xlogx = np.bincount(row_of, weights=sizes * np.log2(sizes), minlength=rows)
    return squares, xlogx


def _renumbered(codes: np.ndarray) -> np.ndarray:
    """``codes`` renumbered 0, 1, … in their own type: equal codes stay equal and distinct ones
    distinct, which is all a score reads, and the numbers stay below ``codes.size``.

    Joint codes wider than 64 bits (nine five-letter words: 243**9 > 2**64; the command refuses
    such a K, the Python API takes it) are renumbered before every further word, so the products
    never wrap: a wrapped code could equal another feedback's and merge their buckets."""
    return np.unique(codes, return_inverse=True)[1].reshape(codes.shape).astype(codes.dtype)


@dataclass
class OpeningProblem:
    """The patterns of a pool of guesses against the candidates, and how openings are scored."""

    ctx: Context
    candidates: np.ndarray
    pool: np.ndarray  # allowed-word indices, best single word first
    objective: str = "remaining"
    guess_from: str = "candidates"  # the endgame's guesses (``game`` only)
    patterns: np.ndarray = field(init=False, repr=False)
    endgame: GreedyEndgame | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.objective = as_choice("objective", self.objective, OBJECTIVES)
        self.guess_from = as_choice("guess_from", self.guess_from, ("candidates", "allowed"))
        self.candidates = np.sort(np.asarray(self.candidates, dtype=np.int64))  # groups come out sorted
        self.pool = np.asarray(self.pool, dtype=np.int64)
        if len(self.candidates) == 0:
            raise EvoWordleError("no candidates to split")
        if len(self.pool) == 0:
            raise EvoWordleError("the pool of opening words is empty")
        self.patterns = np.ascontiguousarray(self.ctx.table[np.ix_(self.pool, self.candidates)])
        self.in_candidates = np.isin(self.pool, self.candidates)
        self.endgame = self._new_endgame()

    def _new_endgame(self) -> GreedyEndgame | None:
        return GreedyEndgame(self.ctx, self.guess_from) if self.objective == "game" else None

    def fresh(self) -> OpeningProblem:
        """The same problem with an empty endgame memo (so a timed run pays for its own groups)."""
        other = copy.copy(self)
        other.endgame = self._new_endgame()
        return other

    @property
    def n(self) -> int:
        """Number of candidates."""
        return len(self.candidates)

    def _codes(self, genomes: np.ndarray) -> np.ndarray:
        """Joint feedback codes of each genome (rows of pool positions) on every candidate, in
        the narrowest unsigned type that holds base**K (beyond 64 bits: renumbered as they go)."""
        k = genomes.shape[1]
        base_ = self.ctx.words.n_patterns
        dtype = np.uint16 if base_**k <= 2**16 else np.uint32 if base_**k <= 2**32 else np.uint64
        codes = self.patterns[genomes[:, 0]].astype(dtype)
        wide = base_**k > 2**64  # renumbered before each word (_renumbered), else they would wrap
        for j in range(1, k):
            codes = _renumbered(codes) if wide else codes
            codes *= dtype(base_)
            codes += self.patterns[genomes[:, j]]
        return codes

    def score_codes(self, codes: np.ndarray, genomes: np.ndarray) -> np.ndarray:
        """The objective of each row of joint codes (``genomes``: the openings they belong to)."""
        if self.objective == "game":
            return self.game_scores(codes, genomes)
        squares, xlogx = bucket_stats(codes)
        if self.objective == "remaining":
            return squares / self.n
        return math.log2(self.n) - xlogx / self.n

    def game_scores(self, codes: np.ndarray, genomes: np.ndarray) -> np.ndarray:
        """Mean guesses of whole games: every candidate sees the K opening words, then the
        endgame's guesses for its group (a group of one: one more guess).  An opening word
        that is the answer ends the game at its turn instead; such words are played first, so
        the c of them cost 1 … c rather than K + 1 each."""
        rows, n = codes.shape
        k = genomes.shape[1]
        order = np.argsort(codes, axis=1, kind="stable")
        ordered = np.take_along_axis(codes, order, axis=1)
        starts_mask = np.ones((rows, n), dtype=bool)
        starts_mask[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        solved_early = self.in_candidates[genomes].sum(axis=1)
        out = np.empty(rows)
        for r in range(rows):
            starts = np.flatnonzero(starts_mask[r])
            ends = np.r_[starts[1:], n]
            big = ends - starts > 1
            total = k * n + int(len(starts) - big.sum())  # a group of one: its answer next
            members = self.candidates[order[r]]
            for s, e in zip(starts[big].tolist(), ends[big].tolist()):
                total += self.endgame.total(members[s:e])
            c = int(solved_early[r])
            total -= c * (k + 1) - c * (c + 1) // 2  # answers among the opening: turn i, not K + 1
            out[r] = total / n
        return out

    def scores(self, genomes: np.ndarray) -> np.ndarray:
        """Expected candidates left (``remaining``), bits (``entropy``) or mean guesses of the
        whole game (``game``) of each opening."""
        genomes = np.atleast_2d(np.asarray(genomes, dtype=np.int64))
        out = np.empty(len(genomes))
        step = max(1, CHUNK_ELEMENTS // self.n)
        for lo in range(0, len(genomes), step):
            chunk = genomes[lo: lo + step]
            out[lo: lo + step] = self.score_codes(self._codes(chunk), chunk)
        return out

    def codes_after(self, prefix: np.ndarray, base_: int, first: int) -> np.ndarray:
        """Joint codes of ``prefix`` followed by each pool word from ``first`` on (one row each;
        beyond 64 bits renumbered as in ``_codes``)."""
        k = len(prefix) + 1
        dtype = np.uint16 if base_**k <= 2**16 else np.uint32 if base_**k <= 2**32 else np.uint64
        joint = np.zeros(self.n, dtype=dtype)
        room = _renumbered if base_**k > 2**64 else (lambda c: c)  # as in _codes
        for g in prefix:
            joint = room(joint) * dtype(base_) + self.patterns[g]
        return room(joint) * dtype(base_) + self.patterns[first:]

    def better(self, scores: np.ndarray) -> np.ndarray:
        """Scores turned so that larger is better (the GA's fitness direction)."""
        return -scores if self.objective in LOWER_IS_BETTER else scores

    def fitness(self, scores: np.ndarray) -> np.ndarray:
        """Strictly positive roulette fitness: 1 / remaining or 1 / mean guesses (both ≥ 1),
        or bits + 1."""
        return 1.0 / scores if self.objective in LOWER_IS_BETTER else scores + 1.0

    def words(self, genome) -> list[str]:
        """The words of a genome (pool positions), as the user reads them."""
        return [self.ctx.words.allowed[int(self.pool[g])] for g in genome]

    def opening(self, genome) -> list[str]:
        """The words of a genome in the order to play them: for ``game``, the words that may be
        the answer first (the order the score assumes), else pool order."""
        genome = [int(g) for g in genome]
        if self.objective == "game":
            genome = sorted(genome, key=lambda g: not self.in_candidates[g])
        return self.words(genome)


def make_problem(ctx: Context, candidates: np.ndarray, pool_size: int = 2000, objective: str = "remaining",
                 restrict: np.ndarray | None = None, guess_from: str = "candidates") -> OpeningProblem:
    """The ``pool_size`` best single openers (by the same objective, but by ``remaining`` for
    ``game``: whole games for 12,972 single words would take too long; ties by list order)
    among ``restrict`` (default: every allowed word)."""
    pool_size = as_int("pool", pool_size, 1)
    objective = as_choice("objective", objective, OBJECTIVES)
    words = ctx.all_words if restrict is None else np.asarray(restrict, dtype=np.int64)
    single = OpeningProblem(ctx, candidates, words, "remaining" if objective == "game" else objective)
    scores = single.better(single.scores(np.arange(len(words))[:, None]))
    order = np.lexsort((words, -scores))[:pool_size]
    return OpeningProblem(ctx, candidates, words[order], objective, guess_from)


def count_subsets(m: int, k: int) -> int:
    """Openings of k words from a pool of m: what a scan scores."""
    return math.comb(m, k)


@dataclass
class OpeningResult:
    """The best opening found, how it was found and what it cost."""

    words: list[str]
    score: float
    objective: str
    evaluations: int
    seconds: float
    method: str
    logbook: tools.Logbook | None = None
    hall_of_fame: list[tuple[list[str], float]] = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready: words, score, cost, hall of fame and (GA) the logbook."""
        out = {"method": self.method, "words": self.words, "objective": self.objective, "score": self.score,
               "evaluations": self.evaluations, "seconds": round(self.seconds, 3),
               "hall_of_fame": [{"words": w, "score": s} for w, s in self.hall_of_fame]}
        if self.logbook is not None:
            out["logbook"] = [dict(r) for r in self.logbook]
        return out


def _best_first(problem: OpeningProblem, genomes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Positions of ``genomes`` best first; ties go to the lexicographically smallest genome."""
    keys = [genomes[:, j] for j in range(genomes.shape[1] - 1, -1, -1)]
    return np.lexsort((*keys, -problem.better(scores)))


def scan(problem: OpeningProblem, k: int, progress=None, max_subsets: int = 50_000_000) -> OpeningResult:
    """Score every k-subset of the pool: the exact best opening over that pool.

    For each (k-1)-subset (the prefix), every later pool word is appended at once: the prefix's
    joint codes are broadcast against the pattern rows, so no Python loop runs over openings."""
    k = as_int("words", k, 1, len(problem.pool))
    m = len(problem.pool)
    total = count_subsets(m, k)
    if total > max_subsets:
        raise EvoWordleError(f"an exhaustive scan of {m} words taken {k} at a time is "
                             f"{total:,} openings (limit {max_subsets:,}): use a smaller --pool")
    start = time.perf_counter()
    base_ = problem.ctx.words.n_patterns
    best_genome, best_score = None, None
    for prefix in itertools.combinations(range(m - 1), k - 1):
        first = prefix[-1] + 1 if prefix else 0
        codes = problem.codes_after(np.array(prefix, dtype=np.int64), base_, first)
        genomes = np.column_stack((np.tile(np.array(prefix, dtype=np.int64), (m - first, 1)),
                                   np.arange(first, m, dtype=np.int64)))
        scores = problem.score_codes(codes, genomes)
        top = _best_first(problem, genomes, scores)[0]
        if best_score is None or problem.better(np.array([scores[top] - best_score]))[0] > 0:
            best_genome, best_score = genomes[top], float(scores[top])
        if progress is not None:
            progress.update(m - first)
    return OpeningResult(problem.opening(best_genome), best_score, problem.objective, total,
                         time.perf_counter() - start, "scan")


@dataclass(frozen=True)
class OpeningGA:
    """Parameters of the opening GA (defaults chosen on the NYT answers, pool 2,000, K = 2:
    see docs/openers.md)."""

    population: int = 400
    generations: int = 1000
    cxpb: float = 0.6
    mutpb: float = 0.9
    pressure: float = 2.0
    elite: int = 4
    patience: int = 60  # a run stalls after this many generations without a better best
    restarts: int = 2  # fresh populations after a stall (the best found so far is kept aside)
    fresh: float = 1.0  # share of mutations that bring a word sharing no letter with the rest

    def __post_init__(self) -> None:
        # capped as the word GA's counts: --population 10**9 ended in "out of memory" (exit 1)
        object.__setattr__(self, "population", as_int("population", self.population, 2, MAX_COUNT))
        object.__setattr__(self, "generations", as_int("generations", self.generations, 0, MAX_COUNT))
        object.__setattr__(self, "cxpb", as_float("cxpb", self.cxpb, 0.0, 1.0))
        object.__setattr__(self, "mutpb", as_float("mutpb", self.mutpb, 0.0, 1.0))
        object.__setattr__(self, "pressure", as_float("pressure", self.pressure, 0.0))
        object.__setattr__(self, "elite", as_int("elite", self.elite, 0, self.population - 1))
        object.__setattr__(self, "patience", as_int("patience", self.patience, 1))
        object.__setattr__(self, "restarts", as_int("restarts", self.restarts, 0))
        object.__setattr__(self, "fresh", as_float("fresh", self.fresh, 0.0, 1.0))


def _distinct_rows(rows: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """Rows made sets: a repeated word is replaced by a random pool word until all differ
    (rows sorted, so every set has one spelling)."""
    rows = np.sort(rows, axis=1)
    while True:
        dup = np.zeros(rows.shape, dtype=bool)
        dup[:, 1:] = rows[:, 1:] == rows[:, :-1]
        if not dup.any():
            return rows
        rows[dup] = rng.integers(m, size=int(dup.sum()))
        rows = np.sort(rows, axis=1)


def _unique_population(rows: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """Rows made distinct sets, and a repeated set replaced by a random one (an immigrant):
    copies would only shrink the population's diversity."""
    rows = _distinct_rows(rows, m, rng)
    for _ in range(100):
        _, first = np.unique(rows, axis=0, return_index=True)
        repeated = np.setdiff1d(np.arange(len(rows)), first)
        if len(repeated) == 0:
            break
        rows[repeated] = _distinct_rows(rng.integers(m, size=(len(repeated), rows.shape[1])), m, rng)
    return rows


def crossover(a: np.ndarray, b: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Children that keep K words drawn from the union of their parents' words (set crossover:
    a word both parents share is drawn twice as often)."""
    pooled = np.concatenate((a, b), axis=1)
    take = np.argsort(rng.random(pooled.shape), axis=1)[:, : a.shape[1]]
    return np.take_along_axis(pooled, take, axis=1)


def letter_masks(words: list[str]) -> np.ndarray:
    """A bit per letter each word uses (bit 0: a)."""
    return np.array([sum(1 << (ord(c) - 97) for c in set(w) if "a" <= c <= "z") for w in words], dtype=np.int64)


#: Draws per mutation when looking for a word that shares no letter with the rest of the row.
FRESH_TRIES = 64


def mutate(rows: np.ndarray, masks: np.ndarray, rng: np.random.Generator, fresh: float = 1.0) -> np.ndarray:
    """Replace one word of each row by a random pool word; with probability ``fresh`` the new
    word is the first of up to FRESH_TRIES random draws that shares no letter with the rest of
    the row (an opening tells most when its words test different letters), else any word.
    Repeats are mended by the caller.  Vectorised: no Python loop over rows."""
    rows = rows.copy()
    n_rows, k = rows.shape
    m = len(masks)
    which = rng.integers(k, size=n_rows)
    row_masks = masks[rows]
    row_masks[np.arange(n_rows), which] = 0
    used = np.bitwise_or.reduce(row_masks, axis=1)
    draws = rng.integers(m, size=(n_rows, FRESH_TRIES))
    ok = (masks[draws] & used[:, None]) == 0
    first_ok = np.argmax(ok, axis=1)
    disjoint = draws[np.arange(n_rows), first_ok]
    want = (rng.random(n_rows) < fresh) & ok.any(axis=1)
    rows[np.arange(n_rows), which] = np.where(want, disjoint, draws[:, -1])
    return rows


def evolve(problem: OpeningProblem, k: int, params: OpeningGA = OpeningGA(), seed: int = 0,
           hof_size: int = 5) -> OpeningResult:
    """Evolve the best fixed opening of ``k`` words over the pool.

    Elitist generational GA: numpy roulette (fitness**pressure), set crossover, letter-aware
    mutation, copies replaced by immigrants; after ``patience`` generations without progress
    the population starts afresh (``restarts`` times).  Every opening is scored once (memo), and
    the run ends as soon as every opening of the pool has been scored: its best is then exact."""
    k = as_int("words", k, 1, len(problem.pool))
    rng = np.random.default_rng(np.random.SeedSequence(as_seed("seed", seed)))
    m = len(problem.pool)
    every_opening = count_subsets(m, k)
    start = time.perf_counter()
    logbook = tools.Logbook()
    logbook.header = ["gen", "run", "nevals", "best", "median", "words"]
    hof = tools.HallOfFame(hof_size, similar=lambda a, b: list(a) == list(b))
    seen: dict[tuple[int, ...], float] = {}
    masks = letter_masks(problem.words(range(m)))

    def evaluate(rows: np.ndarray) -> np.ndarray:
        keys = [tuple(int(x) for x in r) for r in rows]
        new = sorted({key for key in keys if key not in seen})
        if new:
            for key, score in zip(new, problem.scores(np.array(new, dtype=np.int64))):
                seen[key] = float(score)
        return np.array([seen[key] for key in keys])

    def fresh_population() -> np.ndarray:
        return _unique_population(rng.integers(m, size=(params.population, k)), m, rng)

    run, gen, run_best, stalled = 0, 0, None, 0
    pop = fresh_population()
    while True:
        before = len(seen)
        scores = evaluate(pop)
        order = _best_first(problem, pop, scores)
        individuals = []
        for i in order[:hof_size]:
            ind = creator.OpeningIndividual(problem.opening(pop[i]))
            ind.fitness.values = (float(problem.better(scores[i:i + 1])[0]),)
            individuals.append(ind)
        hof.update(individuals)
        top = float(scores[order[0]])
        logbook.record(gen=gen, run=run, nevals=len(seen) - before, best=top, median=float(np.median(scores)),
                       words=" ".join(problem.opening(pop[order[0]])))
        if run_best is None or problem.better(np.array([top - run_best]))[0] > 0:
            run_best, stalled = top, 0
        else:
            stalled += 1
        if gen == params.generations or len(seen) == every_opening:
            break
        gen += 1
        if stalled >= params.patience:
            if run == params.restarts:
                break
            run, run_best, stalled = run + 1, None, 0
            pop = fresh_population()
            continue
        n_children = params.population - params.elite
        parents = roulette(problem.fitness(scores), 2 * n_children, rng, params.pressure,
                           what=f"the opening GA's {problem.objective} fitness")
        first, second = pop[parents[:n_children]], pop[parents[n_children:]]
        children = first.copy()
        mixed = rng.random(n_children) < params.cxpb
        children[mixed] = crossover(first[mixed], second[mixed], rng)
        mutated = rng.random(n_children) < params.mutpb
        children[mutated] = mutate(children[mutated], masks, rng, params.fresh)
        pop = _unique_population(np.concatenate((pop[order[: params.elite]], children)), m, rng)
    every = np.array(list(seen), dtype=np.int64)
    best = every[_best_first(problem, every, np.array(list(seen.values())))[0]]
    fame = [(list(ind), float(problem.better(np.array(ind.fitness.values))[0])) for ind in hof]
    return OpeningResult(problem.opening(best), seen[tuple(int(x) for x in best)], problem.objective, len(seen),
                         time.perf_counter() - start, "ga", logbook, fame)
