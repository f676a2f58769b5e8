"""The interface every solver implements, and the registry commands look solvers up in."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings


class Solver:
    """A guessing policy.  Subclasses set ``name`` and implement :meth:`pick`.

    ``choose`` plays the opener on the first turn and otherwise asks ``pick``.  Stochastic
    solvers set ``stochastic = True`` and draw only from ``self.rng``, which :meth:`reset`
    sets before every game, so a game depends on its seed alone.
    """

    name = "base"
    stochastic = False

    def __init__(self, ctx: Context, settings: Settings, opener: str | None = None) -> None:
        self.ctx = ctx
        self.settings = settings
        self.opener = ctx.words.index(opener) if opener else None
        self.rng = np.random.default_rng(0)

    def reset(self, rng: np.random.Generator | None = None) -> None:
        """Start a new game (GA solvers start a new population here)."""
        if rng is not None:
            self.rng = rng

    def choose(self, state: GameState) -> int:
        if state.turn == 0:
            if self.opener is None:
                self.opener = self._first_guess(state)
            return self.opener
        return self.pick(state)

    def _first_guess(self, state: GameState) -> int:
        """The default opener; a deterministic solver's comes from the disk cache when it can."""
        if self.stochastic or state.history:
            return self.default_opener(state)
        from .opener_cache import cached_default_opener

        return cached_default_opener(self, state)

    def finish(self, state: GameState, guess: int, pattern: int) -> None:
        """Told the last guess's feedback when a game ends (solved or out of guesses);
        solvers that keep per-game logs complete them here."""

    def default_opener(self, state: GameState) -> int:
        """The solver's own best first guess (default: what ``pick`` would play)."""
        return self.pick(state)

    def pick(self, state: GameState) -> int:
        raise NotImplementedError

    @classmethod
    def add_options(cls, parser) -> None:
        """Add this solver family's CLI flags to ``parser`` (called once per distinct function)."""

    @classmethod
    def options_from_args(cls, args) -> dict:
        """Constructor keyword arguments from parsed CLI flags (those added by add_options)."""
        return {}

    def describe(self) -> dict:
        """Parameters worth recording next to results: the name, the opener, the class (so a
        subclass or a modified object is told apart from the registered solver)."""
        opener = self.ctx.words.allowed[self.opener] if self.opener is not None else None
        cls = type(self)
        return {"solver": self.name, "opener": opener, "class": f"{cls.__module__}.{cls.__qualname__}"}


class ScoringSolver(Solver):
    """A deterministic solver that plays the best-scoring guessable word, memoised per state.

    Subclasses implement :meth:`scores`.  Ties go to the first (alphabetical) word; with
    ``prefer_candidates`` and guesses from all allowed words, near-ties go to a word that may
    itself be the answer (equal partitions can differ in the last bits of an entropy sum).
    """

    prefer_candidates = False

    def __init__(self, ctx: Context, settings: Settings, opener: str | None = None) -> None:
        super().__init__(ctx, settings, opener)
        self._memo: dict[bytes, int] = {}

    def scores(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        raise NotImplementedError

    def pick(self, state: GameState) -> int:
        if len(state.candidates) == 1:
            return int(state.candidates[0])
        key = state.key()
        hit = self._memo.get(key)
        if hit is None:
            guesses = state.guessable(self.settings.guess_from)
            scores = self.scores(guesses, state)
            hit = int(guesses[np.argmax(scores)])
            if self.prefer_candidates and self.settings.guess_from == "allowed" and hit not in state.candidates:
                tied = guesses[scores >= scores.max() - 1e-9]
                possible = tied[np.isin(tied, state.candidates, assume_unique=True)]
                if len(possible):
                    hit = int(possible[0])
            self._memo[key] = hit
        return hit


SOLVERS: dict[str, Callable[..., Solver]] = {}


def register(name: str):
    """Class decorator adding a solver to :data:`SOLVERS` under ``name``."""

    def deco(cls):
        cls.name = name
        SOLVERS[name] = cls
        return cls

    return deco


def make_solver(name: str, ctx: Context, settings: Settings, **params) -> Solver:
    from . import load_all

    load_all()
    try:
        factory = SOLVERS[name]
    except KeyError:
        raise EvoWordleError(f"unknown solver {name!r} (choose from {', '.join(sorted(SOLVERS))})") from None
    return factory(ctx, settings, **params)
