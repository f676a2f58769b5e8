"""``make_toolbox``: the word GA as a DEAP toolbox whose every operator can be swapped.

The operators are registered under DEAP's usual names and read the game through a mutable
:class:`GAState` (current candidates, feedback, generator), so one toolbox serves a whole
bench: the solver updates the state after each guess and reseeds it for each game.

Two operator styles plug in (see docs/ga.md, "Writing your own operators"): DEAP's own,
on lists of individuals (``tools.selTournament``, a per-individual ``evaluate`` returning a
1-tuple), and whole-population numpy operators marked with :func:`~evo_wordle.ga.adapter.vectorised`
(the package's own, the fast path).  ``select`` picks parents, ``choose`` the word played.

>>> tb = make_toolbox(GAConfig(), ctx, GAState(ctx, Settings()))
>>> tb.register("select", tools.selTournament, tournsize=3)     # parents only
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings, check_solver_args, hard_mode_mask, letter_counts
from ..params import as_int
from . import adapter
from . import operators as ops
from .config import GAConfig
from .creator import ensure_classes, individual
from .fitness import (
    FirstKnowledge,
    answer_weights,
    dynamic_fitness,
    expected_fitness,
    first_fitness,
    static_entropy,
    static_fitness,
)

#: Candidate sets whose fitness tables are kept per process (≈100 kB each, least recently
#: used dropped first).
MEMO_STATES = 256


class GAState:
    """What the operators may know about the game in progress; one per solver, reset per game."""

    def __init__(self, ctx: Context, settings: Settings | None = None, rng: np.random.Generator | None = None):
        settings = Settings() if settings is None else settings
        check_solver_args(ctx, settings, "GAState")
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise EvoWordleError(f"rng must be a numpy Generator (np.random.default_rng(seed)), not {rng!r}")
        self.ctx = ctx
        self.settings = settings
        self.start_candidates = ctx.candidates(self.settings.candidates)
        self.reset(rng if rng is not None else np.random.default_rng(0))

    def reset(self, rng: np.random.Generator | None = None) -> None:
        """Forget the previous game (and switch to ``rng`` when given)."""
        if rng is not None:
            self.rng = rng
        self.game: GameState | None = None
        self.attempts: list[int] = []
        self._first = FirstKnowledge(self.ctx.words.length)
        self._first_seen = 0
        self._seen = 0
        self._mask: np.ndarray | None = None
        self._attempted: np.ndarray | None = None
        self._weak: np.ndarray | None = None
        self._hard_legal: np.ndarray | None = None
        self._state_key: tuple | None = None  # identifies the candidate set (fitness memo)

    def observe(self, game: GameState) -> None:
        """Take in the game state before a guess: new feedback updates every derived view."""
        if self.game is not None and game.history[: self._seen] != self.game.history[: self._seen]:
            # another line of play (e.g. the assistant's undo): relearn from this history
            self.attempts, self._seen = [], 0
            self._first, self._first_seen = FirstKnowledge(self.ctx.words.length), 0
            self._mask = None  # every derived view is stale, even back at an empty history
        self.game = game
        if len(game.history) != self._seen or self._mask is None:
            self.attempts.extend(int(guess) for guess, _ in game.history[self._seen :])
            self._seen = len(game.history)
            self._mask = self._attempted = self._weak = self._hard_legal = None
            self._state_key = None

    @property
    def first(self) -> FirstKnowledge:
        """The first GA's per-position knowledge, brought up to date on demand."""
        if self.game is not None and self._first_seen < len(self.game.history):
            letters = self.ctx.words.letters
            for guess, pattern in self.game.history[self._first_seen :]:
                self._first.update(letters[guess], pattern)
            self._first_seen = len(self.game.history)
        return self._first

    def dynamic(self, words: np.ndarray, kind: str = "dynamic") -> np.ndarray:
        """Fitness under the current feedback (``dynamic`` or ``expected``), remembering words
        already evaluated since the last guess (survivors and elites are not recomputed)."""
        table = self._fitness_table(kind)
        values = table[words]
        missing = words[np.isnan(values)]
        if len(missing):
            missing, _ = _first_occurrences(missing)
            if kind == "expected":
                weights = answer_weights(self.ctx, self.settings.candidates)
                table[missing] = expected_fitness(self.ctx, missing, self.candidates, weights, distinct=True)
            else:
                table[missing] = dynamic_fitness(self.ctx, missing, self.candidates, distinct=True)
            values = table[words]
        return values

    def _fitness_table(self, kind: str) -> np.ndarray:
        """The memo of fitness values under the current feedback (NaN: not computed yet).

        A word's fitness depends only on the candidates (and the answer prior), so the memo
        lives on the context, one table per candidate set, shared by every game of a bench
        that reaches that set (all games share the opener's few hundred follow-up states):
        each (word, state) is evaluated once per process, with the very same values."""
        if self._state_key is None:
            cand = np.ascontiguousarray(self.candidates, dtype=np.int64)
            self._state_key = (len(cand), hashlib.blake2b(cand.tobytes(), digest_size=16).digest())
        key = (kind, self.settings.candidates, *self._state_key)
        memo = self.ctx.__dict__.setdefault("_ga_fitness_memo", OrderedDict())
        table = memo.get(key)
        if table is None:
            table = memo[key] = np.full(len(self.ctx.words), np.nan)
            if len(memo) > MEMO_STATES:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        return table

    @property
    def turn(self) -> int:
        return 0 if self.game is None else self.game.turn

    @property
    def candidates(self) -> np.ndarray:
        """Words consistent with every (guess, pattern) seen."""
        return self.start_candidates if self.game is None else self.game.candidates

    @property
    def consistent(self) -> np.ndarray:
        """Bool mask over allowed words: consistent with all feedback."""
        if self._mask is None:
            mask = np.zeros(len(self.ctx.words), dtype=bool)
            mask[self.candidates] = True
            self._mask = mask
        return self._mask

    @property
    def attempted(self) -> np.ndarray:
        """Bool mask over allowed words: already guessed this game."""
        if self._attempted is None:
            mask = np.zeros(len(self.ctx.words), dtype=bool)
            mask[self.attempts] = True
            self._attempted = mask
        return self._attempted

    @property
    def hard_legal(self) -> np.ndarray:
        """Bool mask over allowed words: playable in hard mode after the feedback so far."""
        if self._hard_legal is None:
            history = self.game.history if self.game is not None else ()
            self._hard_legal = hard_mode_mask(self.ctx, history)
        return self._hard_legal

    @property
    def weak_pool(self) -> np.ndarray:
        """The first GA's crossover pool: words passing its green/yellow filter, not yet guessed."""
        if self._weak is None:
            ok = self.first.weak_mask(self.ctx.words.letters, letter_counts(self.ctx)) & ~self.attempted
            pool = np.flatnonzero(ok)
            self._weak = pool if len(pool) else self.candidates
        return self._weak


# --------------------------------------------------------------------------- DEAP edge helpers


def _is_individual(obj) -> bool:
    return hasattr(obj, "fitness") and isinstance(obj, list)


def _words(population) -> np.ndarray:
    """Word indices of an int array, a list of DEAP individuals, or a plain list of ints."""
    if isinstance(population, np.ndarray):
        return population.astype(np.int64, copy=False)
    if all(_is_individual(ind) for ind in population):
        return np.fromiter((ind[0] for ind in population), dtype=np.int64, count=len(population))
    try:
        words = np.asarray(population, dtype=np.int64)
    except (TypeError, ValueError):
        words = None
    if words is None or words.ndim != 1:
        raise EvoWordleError("a population is an int array of word indices or a list of DEAP individuals")
    return words


# --------------------------------------------------------------------------- registered operators


@adapter.vectorised
def evaluate(population, *, ctx: Context, state: GAState, kind: str):
    """Fitness of every word of ``population`` (an int array) in one call; a DEAP individual
    gets DEAP's 1-tuple."""
    if _is_individual(population):
        return (float(evaluate(np.array([population[0]]), ctx=ctx, state=state, kind=kind)[0]),)
    words = _words(population)
    if kind == "first":
        return first_fitness(ctx, words, state.first, static_entropy(ctx, state.start_candidates))
    if kind == "static" or (kind == "dynamic" and len(state.candidates) == len(state.start_candidates)):
        return static_fitness(ctx, state.start_candidates)[words]
    return state.dynamic(words, kind)


@adapter.vectorised
def select(population, k: int, fitness=None, *, state: GAState, method: str, pressure: float, size: int):
    """``k`` words (or DEAP individuals) chosen by ``method``: roulette (numpy, with the
    ``pressure`` exponent), tournament or best."""
    is_array = isinstance(population, np.ndarray)
    if fitness is None:
        fitness = np.array([ind.fitness.values[0] for ind in population])
    fitness = np.asarray(fitness, dtype=np.float64)
    if method == "roulette":
        pos = ops.roulette(fitness, k, state.rng, pressure, what="evaluate",
                           hint="shift the fitness, or select and choose by tournament or best")
    elif method == "tournament":
        pos = ops.tournament(fitness, k, state.rng, size)
    else:
        pos = ops.best(fitness, k)
    return population[pos] if is_array else [population[i] for i in pos]


@adapter.vectorised
def mate(parents1, parents2, *, ctx: Context, state: GAState, kind: str):
    """Pattern-filtered crossover: two children per parent pair, each consistent with the
    feedback (``uniform``, ``recombine``) or with the first GA's filter (``weak``)."""
    if _is_individual(parents1):
        c1, c2 = mate(np.array([parents1[0]]), np.array([parents2[0]]), ctx=ctx, state=state, kind=kind)
        parents1[0], parents2[0] = int(c1[0]), int(c2[0])
        del parents1.fitness.values, parents2.fitness.values
        return parents1, parents2
    p1, p2 = _words(parents1), _words(parents2)
    n, rng = len(p1), state.rng
    if kind == "uniform":
        return ops.uniform_children(state.candidates, n, rng), ops.uniform_children(state.candidates, n, rng)
    if kind == "weak":
        return ops.uniform_children(state.weak_pool, n, rng), ops.uniform_children(state.weak_pool, n, rng)
    cand, mask = state.candidates, state.consistent
    return ops.recombine_pairs(ctx, (p1, p2), mask, cand, rng, members=cand)  # the mask is made of cand


@adapter.vectorised
def mutate(population, *, state: GAState, index: ops.NeighbourIndex, config: GAConfig):
    """Dictionary-valid mutation of every word given (the caller applies the probability);
    a DEAP individual is mutated in place and returned as DEAP's 1-tuple."""
    if _is_individual(population):
        population[0] = int(mutate(np.array([population[0]]), state=state, index=index, config=config)[0])
        del population.fitness.values
        return (population,)
    mask = state.consistent if config.mutation_scope == "consistent" else None
    if config.exclude_guessed and state.attempts:
        mask = ~state.attempted if mask is None else mask & ~state.attempted
    if config.mutation_kind == "thesis":
        return ops.mutate_words(
            _words(population), index, state.rng, mask, skip_letter=25, tries=config.mutation_tries, letters=25
        )
    return ops.mutate_words(_words(population), index, state.rng, mask)


def _entropy_order(ctx: Context, start: np.ndarray) -> np.ndarray:
    """Starting candidates by decreasing static entropy (ties: later word first, as the thesis)."""
    memo = ctx.__dict__.setdefault("_ga_entropy_order", {})
    key = start.tobytes() if len(start) != len(ctx.words) else b"all"
    if key not in memo:
        ent = static_entropy(ctx, start)[start]
        memo[key] = start[np.lexsort((start, ent))[::-1]]
    return memo[key]


def init_population(n: int, *, state: GAState, config: GAConfig) -> np.ndarray:
    """``random``: n words drawn from the guessable pool; ``best``: its n highest-entropy words."""
    n = as_int("population", n, 1, None)
    pool = state.game.guessable(state.settings.guess_from) if state.game is not None else state.start_candidates
    if config.init == "best":
        if len(pool) == len(state.start_candidates):
            top = _entropy_order(state.ctx, state.start_candidates)[:n]
        else:
            ent = static_entropy(state.ctx, state.start_candidates)[pool]
            top = pool[np.lexsort((pool, ent))[::-1][:n]]
        if len(top) < n:
            top = np.concatenate([top, pool[state.rng.integers(len(pool), size=n - len(top))]])
        return top.astype(np.int64)
    return pool[state.rng.integers(len(pool), size=n)].astype(np.int64)


def _ignores_parents(fn) -> bool:
    """True for the registered uniform/weak crossover, whose children do not depend on parents."""
    return getattr(fn, "func", None) is mate and fn.keywords.get("kind") in ("uniform", "weak")


def breed(population: np.ndarray, fitness: np.ndarray, *, toolbox, config: GAConfig, state: GAState) -> np.ndarray:
    """One generation: select parents, mate pairs with ``crossover_rate``, mutate each child
    with ``mutation``, then carry the ``elite`` best distinct parents not yet guessed.  With
    mutation scope ``consistent`` the whole population keeps to consistent words: elites must
    be consistent and unmated copies of parents that the feedback ruled out are replaced by
    uniform consistent words."""
    n, rng = config.population, state.rng
    n_children = n  # less the elites actually carried: with none eligible the children fill every place
    out = []
    if config.elite:
        keep = ~state.attempted[population]  # a word already guessed is no use again
        if config.mutation_scope == "consistent":
            keep &= state.consistent[population]
        pool, fit = population[keep], fitness[keep]
        if len(pool):
            uniq, first = _first_occurrences(pool)
            order = np.argsort(-fit[first], kind="stable")[: config.elite]
            out.append(uniq[order])
            n_children = n - len(order)
    if n_children > 0:
        pairs = math.ceil(n_children / 2)
        cross = rng.random(pairs) < config.crossover_rate
        if cross.all() and _ignores_parents(toolbox.mate):
            p1, p2 = np.zeros(pairs, dtype=np.int64), np.zeros(pairs, dtype=np.int64)  # parents unused
        else:
            parents = adapter.select(toolbox, population, 2 * pairs, fitness)
            p1, p2 = parents[0::2].copy(), parents[1::2].copy()
        if cross.any():
            c1, c2 = adapter.mate(toolbox, p1[cross], p2[cross])
            p1[cross], p2[cross] = c1, c2
        children = np.stack([p1, p2], axis=1).ravel()[:n_children]
        mut = rng.random(n_children) < config.mutation
        if mut.any():
            children[mut] = adapter.mutate(toolbox, children[mut])
        if config.mutation_scope == "consistent":  # unmated copies of stale parents
            stale = ~state.consistent[children]
            if stale.any():
                children[stale] = ops.uniform_children(state.candidates, int(stale.sum()), rng)
        out.append(children)
    pop = np.concatenate(out).astype(np.int64)
    if config.distinct:
        pop = _distinct(pop, state)
    return pop


def _first_occurrences(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(words, return_index=True)`` without its generic overhead (a hot path)."""
    order = np.argsort(words, kind="stable")
    ranked = words[order]
    new = np.empty(len(words), dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    return ranked[new], order[new]


def _distinct(pop: np.ndarray, state: GAState) -> np.ndarray:
    """Replace repeated words by consistent words not in the population, while any are left."""
    _, first = _first_occurrences(pop)
    if len(first) == len(pop):
        return pop
    dup = np.ones(len(pop), dtype=bool)
    dup[first] = False
    present = np.zeros(len(state.ctx.words), dtype=bool)
    present[pop] = True
    fresh = state.candidates[~present[state.candidates]]
    k = min(int(dup.sum()), len(fresh))
    if k:
        pop = pop.copy()
        pop[np.flatnonzero(dup)[:k]] = state.rng.choice(fresh, size=k, replace=False)
    return pop


def make_toolbox(
    config: GAConfig, ctx: Context, state: GAState, rng: np.random.Generator | None = None
) -> adapter.WordToolbox:
    """A DEAP toolbox for ``config``.

    Entries: ``evaluate`` (fitness), ``select`` (parents: ``config.selection``), ``mate``,
    ``mutate``, ``choose`` (the word played: ``config.choice``, same signature as
    ``select``), ``init_population`` (an int array) / ``population`` / ``individual`` (DEAP
    individuals) and ``breed`` (one generation).  The package's operators work on int arrays
    of word indices (the fast path) and accept DEAP individuals too; replace any of them with
    ``toolbox.register(name, fn)``, a DEAP-standard operator or a :func:`~evo_wordle.ga.adapter.vectorised`
    one.  ``toolbox.state`` is the :class:`GAState` the operators read."""
    if not isinstance(config, GAConfig):
        raise EvoWordleError(f"config must be a GAConfig, not {type(config).__name__}")
    if not isinstance(state, GAState):
        raise EvoWordleError(f"state must be a GAState, not {type(state).__name__}")
    if state.ctx is not ctx:
        raise EvoWordleError("state was made for another Context than ctx")
    ensure_classes()
    if rng is not None:
        state.rng = rng
    index = ops.neighbour_index(ctx)
    tb = adapter.WordToolbox()
    tb.state = state
    tb.register("evaluate", evaluate, ctx=ctx, state=state, kind=config.fitness)
    tb.register(
        "select", select, state=state, method=config.selection, pressure=config.pressure, size=config.tournament_size
    )
    tb.register(
        "choose", select, state=state, method=config.choice, pressure=config.pressure, size=config.tournament_size
    )
    tb.register("mate", mate, ctx=ctx, state=state, kind=config.crossover)
    tb.register("mutate", mutate, state=state, index=index, config=config)
    tb.register("init_population", init_population, state=state, config=config)
    tb.register("individual", _individual, toolbox=tb)
    tb.register("population", _population, toolbox=tb)
    tb.register("breed", breed, toolbox=tb, config=config, state=state)
    return tb


def _individual(*, toolbox) -> list:
    """One DEAP individual drawn like the initial population."""
    return individual(toolbox.init_population(1)[0])


def _population(n: int, *, toolbox) -> list:
    """``n`` DEAP individuals drawn like the initial population (for ``deap.algorithms``)."""
    return [individual(w) for w in toolbox.init_population(n)]
