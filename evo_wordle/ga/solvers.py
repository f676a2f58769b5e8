"""The registered GA solvers: ``ga`` (the card's GA), ``ga-thesis`` and ``ga-first``.

A game is an evolution: each generation the population yields one guess, the feedback
shrinks the candidate set, and the next generation is bred under that feedback.  All three
share one implementation (:class:`GASolver`) and one set of CLI flags; they differ only in
their default :class:`~evo_wordle.ga.config.GAConfig`.
"""

from __future__ import annotations

import argparse
import random
from typing import ClassVar

import numpy as np
from deap import tools

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings
from ..params import as_int
from ..patterns import to_digits
from ..solvers.base import Solver, Unread, baseline_opener, register
from . import adapter
from .config import CROSSOVERS, FITNESSES, INITS, MAX_COUNT, SCOPES, SELECTIONS, GAConfig
from .creator import individual
from .fitness import static_entropy, static_fitness
from .toolbox import GAState, _first_occurrences, make_toolbox

#: The constructor keywords every GA solver takes (the CLI flags, and what sweeps pass).
PARAMS = (
    "population",
    "mutation",
    "crossover_rate",
    "init",
    "elite",
    "generations_per_guess",
    "selection",
    "pressure",
    "fitness",
    "crossover",
)
#: Further GAConfig fields reachable from the CLI.
EXTRA_FLAGS = ("choice", "mutation_scope", "tournament_size", "distinct", "exclude_guessed")

#: Logbook columns: ``nevals`` = fitness evaluations since the previous record (the parents
#: are re-scored under new feedback), ``guess`` / ``guess_fitness`` = the word played and its
#: fitness under the same feedback (None for generations bred between guesses).
LOG_FIELDS = (
    "gen", "guess_no", "nevals", "candidates", "best", "mean", "std", "diversity", "guess", "guess_fitness", "pattern",
)


class WordHallOfFame(tools.HallOfFame):
    """A DEAP hall of fame of one decision (``turn``: guesses made before it) that prints
    words, not indices."""

    def __init__(self, maxsize: int, allowed: tuple[str, ...], turn: int) -> None:
        super().__init__(maxsize)
        self.allowed = allowed
        self.turn = turn

    def words(self) -> list[tuple[str, float]]:
        """(word, fitness) pairs, best first."""
        return [(self.allowed[ind[0]], ind.fitness.values[0]) for ind in self]

    def __str__(self) -> str:
        body = ", ".join(f"{w.upper()} {f:.4g}" for w, f in self.words())
        return f"turn {self.turn}: {body}"


def _config_params(params: dict) -> dict:
    """The parameters :meth:`GASolver.configure` reads: all but the opener and unset ones."""
    return {k: v for k, v in params.items() if k != "opener" and v is not None}


class GASolver(Solver):
    """A word GA playing Wordle; ``self.toolbox`` holds its swappable DEAP operators
    (:func:`~evo_wordle.ga.toolbox.make_toolbox`), ``self.config`` its :class:`GAConfig`.

    ``self.state`` (a :class:`~evo_wordle.ga.toolbox.GAState`) is the game as the operators
    see it; :meth:`choose` brings it up to date with ``state.observe(game_state)``.
    ``self.population`` / ``self.fitness`` are the current generation (int array of word
    indices, fitness array).  ``self.logbook`` (one record per generation) and
    ``self.halls_of_fame`` (one per decision) describe the last game; :meth:`reset` starts
    a new one.
    """

    stochastic = True
    defaults: ClassVar[dict] = {}

    def __init__(
        self,
        ctx: Context,
        settings: Settings,
        opener: str | None = None,
        population: int | None = None,
        mutation: float | None = None,
        crossover_rate: float | None = None,
        init: str | None = None,
        elite: int | None = None,
        generations_per_guess: int | None = None,
        selection: str | None = None,
        pressure: float | None = None,
        fitness: str | None = None,
        crossover: str | None = None,
        **extra,
    ) -> None:
        super().__init__(ctx, settings, opener)
        given = dict(
            population=population,
            mutation=mutation,
            crossover_rate=crossover_rate,
            init=init,
            elite=elite,
            generations_per_guess=generations_per_guess,
            selection=selection,
            pressure=pressure,
            fitness=fitness,
            crossover=crossover,
            **extra,
        )
        self.config = self.configure({k: v for k, v in given.items() if v is not None})
        self.fixed_opener = self.opener
        self.state = GAState(ctx, settings, self.rng)
        self.toolbox = make_toolbox(self.config, ctx, self.state)
        # Warm the per-context caches now, so bench worker processes inherit them.
        static_fitness(ctx, self.state.start_candidates)
        self._new_game()

    # ----------------------------------------------------------------- game loop

    def reset(self, rng: np.random.Generator | None = None) -> None:
        super().reset(rng)
        random.seed(int(self.rng.integers(2**63)))  # DEAP's own operators draw from `random`
        self._new_game()

    def _new_game(self) -> None:
        self.state.reset(self.rng)
        self.population: np.ndarray | None = None
        self.fitness: np.ndarray | None = None
        # One raw entry per generation: [guess_no, candidates, population, fitness, guess, pattern,
        # nevals, guess fitness]; the logbook and halls of fame are summarised from them only
        # when asked for (a bench never asks, and summarising every generation cost a sixth of
        # a game's time).
        self._generations: list[list] = []
        self._summarised: tuple[int, tools.Logbook, list[WordHallOfFame]] | None = None
        # (the history a decision was made at, its raw entry): its feedback is looked up there
        self._decisions: list[tuple[tuple, list]] = []
        self._nevals = 0

    def _evaluate(self, words: np.ndarray) -> np.ndarray:
        """Fitness through the toolbox (either operator style), counted for ``nevals``."""
        self._nevals += len(words)
        return adapter.evaluate(self.toolbox, words)

    def choose(self, state: GameState) -> int:
        """Evolve under the feedback in ``state`` and return the word to play (logged in :attr:`logbook`)."""
        tb = self.toolbox
        self.state.observe(state)
        self._attach_feedback(state.history)
        if self.population is None:
            self.population = tb.init_population(self.config.population)
            self.fitness = self._evaluate(self.population)
        else:
            self.fitness = self._evaluate(self.population)  # the parents, under the new feedback
            for g in range(self.config.generations_per_guess):
                self.population = tb.breed(self.population, self.fitness)
                self.fitness = self._evaluate(self.population)
                if g < self.config.generations_per_guess - 1:
                    self._record(state, None)
        if state.turn == 0 and self.fixed_opener is not None:
            guess = self.fixed_opener
        elif state.hard and state.history:
            guess = self._hard_guess(state)
        else:
            guess = adapter.choose(tb, self.population, self.fitness)
        self._decisions.append((state.history, self._record(state, int(guess))))
        return int(guess)

    def pick(self, state: GameState) -> int:
        """Same as :meth:`choose`: the GA decides the opener too unless one is fixed."""
        return self.choose(state)

    def finish(self, state: GameState, guess: int, pattern: int) -> None:
        """The last guess's feedback completes the logbook's last record."""
        self._attach_feedback(state.history + ((guess, pattern),))

    def _attach_feedback(self, history: tuple) -> None:
        """Give each decision's record the feedback its word got in ``history``, the game as it
        now stands: none when the move after the decision was another word or was taken back
        (the assistant's undo gave the next move's feedback to a suggestion never played)."""
        for made_at, entry in self._decisions:
            turn = len(made_at)
            played = turn < len(history) and history[turn][0] == entry[4] and history[:turn] == made_at
            entry[5] = to_digits(history[turn][1], self.ctx.words.length) if played else None

    def _hard_guess(self, state: GameState) -> int:
        """In hard mode the guess is chosen among the population's legal words (mutants that
        ignore a revealed hint are not playable); with none, among the candidates."""
        legal = self.state.hard_legal[self.population]
        if legal.all():
            return adapter.choose(self.toolbox, self.population, self.fitness)
        if legal.any():
            return adapter.choose(self.toolbox, self.population[legal], self.fitness[legal])
        cand = state.candidates
        return adapter.choose(self.toolbox, cand, self._evaluate(cand))

    def _guess_fitness(self, guess: int) -> float:
        """The played word's fitness under the current feedback (looked up in the population,
        evaluated when it is not there, e.g. a fixed opener)."""
        at = np.flatnonzero(self.population == guess)
        if len(at):
            return float(self.fitness[at[0]])
        return float(self._evaluate(np.array([guess], dtype=np.int64))[0])

    def _record(self, state: GameState, guess: int | None) -> list:
        """Keep this generation (population and fitness, evaluations since the last record,
        the played word's fitness) for the logbook and halls of fame."""
        guess_fit = None if guess is None else self._guess_fitness(guess)
        entry = [state.turn + 1, int(len(state.candidates)), self.population, self.fitness, guess, None,
                 self._nevals, guess_fit]
        self._nevals = 0
        self._generations.append(entry)
        return entry

    def _summarise(self) -> tuple[tools.Logbook, list[WordHallOfFame]]:
        """(logbook, halls of fame) of the game so far, built once per generation count: one
        logbook record per generation, and per decision the ``hof_size`` best distinct words
        bred under its feedback (best fitness each), the word played among them."""
        done = self._summarised
        if done is not None and done[0] == len(self._generations):
            self._fill_patterns(done[1])
            return done[1:]
        logbook = tools.Logbook()
        logbook.header = LOG_FIELDS
        halls: list[WordHallOfFame] = []
        hof_words, hof_fit = np.zeros(0, dtype=np.int64), np.zeros(0)
        size = self.config.hof_size
        for gen, (guess_no, n_cand, pop, fit, guess, pattern, nevals, guess_fit) in enumerate(self._generations):
            words, first = _first_occurrences(pop)
            mean = float(fit.mean())
            logbook.record(
                gen=gen,
                guess_no=guess_no,
                nevals=nevals,
                candidates=n_cand,
                best=float(fit.max()),
                mean=mean,
                std=float(np.sqrt(max(float(np.dot(fit, fit)) / len(fit) - mean * mean, 0.0))),
                diversity=int(len(words)),
                guess=None if guess is None else self.ctx.words.allowed[guess],
                guess_fitness=guess_fit,
                pattern=pattern,
            )
            if size:
                best = fit[first]
                if guess is not None and not (words == guess).any():
                    words, best = np.append(words, guess), np.append(best, guess_fit)  # a fixed opener
                if len(hof_fit) < size or best.max() >= hof_fit[-1]:  # else none of these can enter
                    hof_words, hof_fit = _merge_hof(hof_words, hof_fit, words, best, size)
                if guess is not None:  # the decision is made: its hall of fame is complete
                    hof = WordHallOfFame(size, self.ctx.words.allowed, guess_no - 1)
                    hof.update([individual(w, f) for w, f in zip(hof_words.tolist(), hof_fit.tolist())])
                    halls.append(hof)
                    hof_words, hof_fit = np.zeros(0, dtype=np.int64), np.zeros(0)
        self._summarised = (len(self._generations), logbook, halls)
        return logbook, halls

    def _fill_patterns(self, logbook: tools.Logbook) -> None:
        """Feedback that arrived after the logbook was built (the last guess's pattern)."""
        for record, entry in zip(logbook, self._generations):
            record["pattern"] = entry[5]

    @property
    def logbook(self) -> tools.Logbook:
        """A DEAP ``tools.Logbook`` of this game, one record per generation (see :data:`LOG_FIELDS`)."""
        return self._summarise()[0]

    @property
    def halls_of_fame(self) -> list[WordHallOfFame]:
        """One DEAP hall of fame per decision of this game, in turn order (empty when hof_size is 0)."""
        return self._summarise()[1]

    @property
    def hall_of_fame(self) -> WordHallOfFame | None:
        """The last decision's hall of fame (a DEAP ``tools.HallOfFame`` of the best words
        bred under the feedback of that turn, and the word played); None when hof_size is 0.
        :attr:`halls_of_fame` holds one per decision of the game, in turn order."""
        if not self.config.hof_size:
            return None
        halls = self.halls_of_fame
        return halls[-1] if halls else WordHallOfFame(self.config.hof_size, self.ctx.words.allowed, 0)

    # ----------------------------------------------------------------- reporting, CLI

    def describe(self) -> dict:
        """The solver name, opener, class, every GAConfig field and, under ``operators``, the
        toolbox entries replaced by other functions."""
        replaced = adapter.describe(self.toolbox)
        return {**super().describe(), **self.config.as_dict(), **({"operators": replaced} if replaced else {})}

    def hall_of_fame_words(self) -> list[dict]:
        """The game's halls of fame as rows ``{turn, rank, word, fitness}`` (turn 0 = the
        opener), best first within each turn; fitness values compare only within a turn."""
        return [
            {"turn": hof.turn, "rank": rank, "word": word, "fitness": fit}
            for hof in self.halls_of_fame
            for rank, (word, fit) in enumerate(hof.words(), start=1)
        ]

    @classmethod
    def add_options(cls, parser) -> None:
        g = parser.add_argument_group("genetic algorithm (ga, ga-thesis, ga-first; default: each solver's own)")
        g.add_argument("--population", type=int, metavar="N", help="individuals per generation")
        g.add_argument("--mutation", type=float, metavar="P", help="mutation probability per child")
        g.add_argument("--crossover-rate", type=float, metavar="P", help="crossover probability per parent pair")
        g.add_argument("--init", choices=INITS, help="initial population: random words or the N of most entropy")
        g.add_argument("--elite", type=int, metavar="K", help="best words carried to the next generation")
        g.add_argument("--generations-per-guess", type=int, metavar="G", help="generations bred between guesses")
        g.add_argument("--selection", choices=SELECTIONS, help="how parents are chosen")
        g.add_argument("--choice", choices=SELECTIONS, help="how the word played is chosen from the population")
        g.add_argument("--pressure", type=float, metavar="X", help="roulette weight = fitness**X (0: random)")
        g.add_argument(
            "--fitness",
            choices=FITNESSES,
            help="entropy·priority over current (dynamic) or all (static) words, or exp(−expected guesses)",
        )
        g.add_argument("--crossover", choices=CROSSOVERS, help="uniform consistent word, or recombine the parents")
        g.add_argument("--mutation-scope", choices=SCOPES, help="mutants: any allowed word, or consistent ones only")
        g.add_argument("--tournament-size", type=int, metavar="T", help="aspirants per tournament")
        g.add_argument(
            "--distinct",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="replace duplicate children by consistent words not yet in the population",
        )
        g.add_argument(
            "--exclude-guessed",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="mutation never yields a word already guessed this game (thesis Fig. 3.8)",
        )

    @classmethod
    def options_from_args(cls, args) -> dict:
        return {k: getattr(args, k) for k in PARAMS + EXTRA_FLAGS if getattr(args, k, None) is not None}

    @classmethod
    def check_params(cls, params: dict) -> None:
        cls.configure(_config_params(params))

    @classmethod
    def unread_params(cls, params: dict) -> dict[str, Unread]:
        """``tournament_size`` is read only under tournament selection or choice, ``pressure``
        only under roulette: under the other methods the run is the one without them."""
        config = cls.configure(_config_params(params))
        methods = (config.selection, config.choice)
        return {key: Unread(f"is for {method} selection, but {cls.name} selects parents by {config.selection} "
                            f"and chooses its guess by {config.choice}", {"selection": method, "choice": method})
                for key, method in (("tournament_size", "tournament"), ("pressure", "roulette"))
                if key in params and method not in methods}

    @classmethod
    def param_defaults(cls) -> dict:
        """This solver's configuration with nothing given (``describe`` records its fields)."""
        return cls.configure({}).as_dict()

    @classmethod
    def configure(cls, given: dict) -> GAConfig:
        """The solver's defaults with ``given`` on top.  A population below the default elite
        names both (``--elite must be between 0 and 2, not 10`` blamed a flag nobody typed)."""
        base = GAConfig().with_(**cls.defaults)
        if "population" in given and "elite" not in given:
            population = as_int("population", given["population"], 1, MAX_COUNT)
            if population < base.elite:
                raise EvoWordleError(
                    f"--population {population} is smaller than {cls.name}'s default --elite {base.elite} "
                    f"(parents carried over): give --elite 0 to {population} too")
        return base.with_(**given)


def _merge_hof(
    hof_words: np.ndarray, hof_fit: np.ndarray, words: np.ndarray, fit: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """The ``size`` best distinct words of both lists (best fitness each; ties: lower index)."""
    allw = np.concatenate([hof_words, words])
    allf = np.concatenate([hof_fit, fit])
    order = np.lexsort((allw, -allf))
    allw, allf = allw[order], allf[order]
    _, first = _first_occurrences(allw)
    keep = np.sort(first)[:size]
    return allw[keep], allf[keep]


@register("ga-thesis")
class ThesisGA(GASolver):
    """The thesis's Genetic Information Theory Algorithm: static entropy × priority fitness,
    roulette picks the guess, N uniform consistent children, thesis mutation (not filtered by
    the feedback, but never to an already-guessed word: thesis Fig. 3.8 and §3.2.2; the
    thesis's published code lacks that check, ``--no-exclude-guessed`` restores it)."""
    blurb = "The thesis's GA: static entropy × priority fitness, roulette picks the guess"

    defaults: ClassVar[dict] = dict(
        population=100,
        mutation=0.1,
        crossover_rate=1.0,
        init="random",
        selection="roulette",
        pressure=1.0,
        fitness="static",
        crossover="uniform",
        mutation_kind="thesis",
        mutation_scope="all",
        exclude_guessed=True,
    )


@register("ga-first")
class FirstGA(GASolver):
    """The thesis's first GA: fitness H + 5G + 2A − 2N, the best individual is the guess,
    crossover draws a random word passing the green/yellow filter, thesis mutation."""
    blurb = "The thesis's first GA: fitness H + 5G + 2A − 2N, the best individual is guessed"

    defaults: ClassVar[dict] = dict(
        population=50,
        mutation=0.1,
        crossover_rate=1.0,
        init="random",
        selection="best",
        choice="best",
        fitness="first",
        crossover="weak",
        mutation_kind="thesis",
        mutation_scope="all",
        exclude_guessed=True,
    )


@register("ga")
class CardGA(GASolver):
    """The card's GA: fitness over the current candidates (``expected``: exp(−estimated
    guesses left)), Boltzmann-like roulette (pressure 50), recombining crossover, dictionary
    mutation among consistent words; defaults from experiments/ga_tuning.py (stage 3).

    Like the greedy baseline it is compared with, it opens with TALES when the answer may be
    any allowed word (``opener=""`` lets the population choose the first guess too).
    """
    blurb = "The tuned GA: expected-guesses fitness, roulette, recombining crossover"

    def preset_opener(self, ctx: Context, settings: Settings) -> str | None:
        return self.opener_for(ctx, settings) if settings.candidates == "allowed" else None

    @classmethod
    def opener_for(cls, ctx: Context, settings: Settings) -> str:
        """The baseline opener (TALES) when the list has it, else the starting candidate of most
        entropy (ties: first alphabetically), e.g. for a six-letter list."""
        opener = baseline_opener(ctx, settings)
        if opener is not None:
            return opener
        start = ctx.candidates(settings.candidates)
        return ctx.words.allowed[int(start[np.argmax(static_entropy(ctx, start)[start])])]

    defaults: ClassVar[dict] = dict(
        population=300,
        mutation=0.1,
        crossover_rate=0.9,
        init="best",
        elite=10,
        generations_per_guess=2,
        selection="roulette",
        pressure=50.0,
        fitness="expected",
        crossover="recombine",
        mutation_kind="neighbour",
        mutation_scope="consistent",
        distinct=True,
    )
