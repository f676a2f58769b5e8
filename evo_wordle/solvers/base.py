"""The interface every solver implements, and the registry commands look solvers up in."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings

#: The one baseline opener: greedy and ``ga`` open with it when any allowed word may be the
#: answer.  TALES, not the greedy's own best-scoring RATES, because it is the thesis's baseline
#: and plays better over a whole benchmark (3.7713 against 3.8437 mean guesses, all 2,309
#: answers; experiments/openers.py).
BASELINE_OPENER = "tales"


def baseline_opener(ctx: Context, settings: Settings) -> str | None:
    """BASELINE_OPENER where it applies (answer may be any allowed word, word in the list), else None."""
    if settings.candidates == "allowed" and ctx.words.contains(BASELINE_OPENER):
        return BASELINE_OPENER
    return None


class Solver:
    """A guessing policy.  Subclasses set ``name`` and implement :meth:`pick`.

    ``choose`` plays the opener on the first turn and otherwise asks ``pick``.  Stochastic
    solvers set ``stochastic = True`` and draw only from ``self.rng``, which :meth:`reset`
    sets before every game, so a game depends on its seed alone.
    """

    name = "base"
    stochastic = False
    #: One line for ``bench --help`` (default: the docstring's first sentence).
    blurb: str = ""

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
    def summary(cls) -> str:
        """One line saying what the solver does (``blurb``, or the docstring's first sentence)."""
        if cls.__dict__.get("blurb"):  # not inherited: a subclass says what it changes
            return cls.blurb
        text = " ".join((cls.__doc__ or "").split()).replace("``", "")
        return text.split(". ")[0].rstrip(".")

    @classmethod
    def add_options(cls, parser) -> None:
        """Add this solver family's CLI flags to ``parser`` (called once per distinct function)."""

    @classmethod
    def options_from_args(cls, args) -> dict:
        """Constructor keyword arguments from parsed CLI flags (those added by add_options)."""
        return {}

    @classmethod
    def check_params(cls, params: dict) -> None:
        """Refuse bad constructor keywords without building the solver (sweeps check every
        configuration up front); families with typed parameters override it."""

    def describe(self) -> dict:
        """Parameters worth recording next to results."""
        opener = self.ctx.words.allowed[self.opener] if self.opener is not None else None
        return {"solver": self.name, "opener": opener}


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
    """A solver by registered name; bad arguments are one-line :class:`EvoWordleError` s."""
    from . import load_all

    load_all()
    if not isinstance(ctx, Context):
        raise EvoWordleError(f"ctx must be a Context, not {type(ctx).__name__}")
    if not isinstance(settings, Settings):
        raise EvoWordleError(f"settings must be a Settings (e.g. Settings.problem('P1')), not {settings!r}")
    if not isinstance(name, str):
        raise EvoWordleError(f"solver must be a solver name, not {type(name).__name__}")
    try:
        factory = SOLVERS[name]
    except KeyError:
        raise EvoWordleError(f"unknown solver {name!r} (choose from {', '.join(sorted(SOLVERS))})") from None
    accepted = accepted_params(factory)
    unknown = sorted(k for k in params if accepted is not None and k not in accepted)
    if unknown:
        raise EvoWordleError(
            f"solver {name} has no parameter {unknown[0]!r} (it takes: {', '.join(sorted(accepted)) or 'none'})"
        )
    factory.check_params(params)
    return factory(ctx, settings, **params)


def accepted_params(cls) -> set[str] | None:
    """Constructor keywords a solver class takes (None if it accepts any ``**kwargs``)."""
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return None
    return {n for n in params if n not in ("self", "ctx", "settings")}
