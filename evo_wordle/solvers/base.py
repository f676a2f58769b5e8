"""The interface every solver implements, and the registry commands look solvers up in."""

from __future__ import annotations

import hashlib
import inspect
import json
import pickle
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings, check_one_board, check_solver_args
from ..params import as_word
from ..words import WordSet


def _flag(key: str) -> str:
    """``tournament_size`` → ``--tournament-size``: a parameter as the command line spells it."""
    return "--" + key.replace("_", "-")


class Unread(NamedTuple):
    """Why a parameter is never read (``why``, after its name) and the values of other
    parameters under which it would be (``fixes``, any one of them)."""

    why: str
    fixes: dict

    def give(self, form: str) -> str:
        """The values that would have it read, in ``form`` (``{flag}``: the name as a flag,
        ``{key}``, ``{value}``), joined by "or": the one phrasing of the advice."""
        return " or ".join(form.format(flag=_flag(k), key=k, value=v) for k, v in self.fixes.items())

    def refuse_flag(self, key: str) -> EvoWordleError:
        """The refusal of flag ``key`` given on the command line: why it is not read, and
        :meth:`give`'s values that would have it read, or drop it."""
        flag = _flag(key)
        return EvoWordleError(f"{flag} {self.why}: give {self.give('{flag} {value}')}, or drop {flag}")


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
        # built directly (not via make_solver): wrong types, or several boards played as board 1 alone
        check_solver_args(ctx, settings, type(self).__name__)
        check_one_board(settings, type(self).__name__)
        self.ctx = ctx
        self.settings = settings
        if opener is None:  # checked above: a preset may read ctx and settings (one check, not one per class)
            opener = self.preset_opener(ctx, settings)
        self.opener = as_word("opener", opener, ctx.words)
        self.rng = np.random.default_rng(0)

    def preset_opener(self, ctx: Context, settings: Settings) -> str | None:
        """The first word played when no ``opener`` is given (None: the solver's own best, found
        on the first turn).  Called by ``__init__`` once ``ctx`` and ``settings`` are checked;
        ``""`` asks for the solver's own best even where a subclass presets a word."""
        return None

    def reset(self, rng: np.random.Generator | None = None) -> None:
        """Start a new game (GA solvers start a new population here)."""
        if rng is not None:
            self.rng = rng

    def choose(self, state: GameState) -> int:
        """The guess for ``state``: the opener on the first turn (its default when none is set), else :meth:`pick`."""
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
        """The guess after the first turn; what a subclass implements."""
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

    @classmethod
    def unread_params(cls, params: dict) -> dict[str, Unread]:
        """The parameters of ``params`` that the solver built with them never reads, since another
        of them turns them off, each with why and what would read it ({} when none): a flag,
        a sweep's grid key or a tuned value there would be ignored silently.  Families whose
        parameters depend on each other override it."""
        return {}

    @classmethod
    def param_defaults(cls) -> dict:
        """The value each parameter :meth:`unread_params` may name takes when none is given, as
        :meth:`describe` records it ({} when none may be unread): a parameter file records every
        value (tune's ``solver_params``), an unread one at its default, so only one that differs
        was set by hand."""
        return {}

    @classmethod
    def check_flags_used(cls, flags: dict, params: dict) -> None:
        """Refuse a flag given on the command line (``flags``, from :meth:`options_from_args`)
        that the solver built with ``params`` never reads (:meth:`unread_params`)."""
        unread = cls.unread_params(params)
        for key in flags:
            if key in unread:
                raise unread[key].refuse_flag(key)

    @classmethod
    def check_word_lists(cls, params: dict, words: WordSet) -> dict[str, str]:
        """Refuse parameters that cannot be played on word lists ``words`` without building the
        solver (a sweep checks every configuration before its folder exists); families whose
        parameters name files made for given lists override it.  Returns ``{parameter: why}``
        for each file a parameter names that will be played on other word lists than it was made
        for (its ``other_lists`` asked for it), so a sweep records what was played, not only
        what was asked; {} when none."""
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
        """A score per word of ``guesses`` in ``state``; the highest is played."""
        raise NotImplementedError

    def pick(self, state: GameState) -> int:
        """The best-scoring guessable word (memoised per state)."""
        if len(state.candidates) == 1:
            return int(state.candidates[0])
        key = state.key()
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self.best_guess(state)
        return hit

    def best_guess(self, state: GameState) -> int:
        """The best-scoring guessable word, not memoised (callers with their own memo, such as
        the fixed-opening endgame, use it so that no second memo grows)."""
        if len(state.candidates) == 1:
            return int(state.candidates[0])
        guesses = state.guessable(self.settings.guess_from)
        scores = self.scores(guesses, state)
        hit = int(guesses[np.argmax(scores)])
        if self.prefer_candidates and self.settings.guess_from == "allowed" and hit not in state.candidates:
            tied = guesses[scores >= scores.max() - 1e-9]
            possible = tied[np.isin(tied, state.candidates, assume_unique=True)]
            if len(possible):
                hit = int(possible[0])
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
    """A new solver registered as ``name`` (see :data:`SOLVERS`), built with ``params``; one board
    only (several are played by :class:`~evo_wordle.boards.SummedEntropy`, :func:`~evo_wordle.boards.play_boards`)."""
    from . import load_all

    load_all()
    check_solver_args(ctx, settings)
    if not isinstance(name, str):
        raise EvoWordleError(f"solver must be a solver name, not {type(name).__name__}")
    check_one_board(settings, f"solver {name}")
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


#: What benches, sweeps and plot data accept as a solver: a registered name, a ready
#: :class:`Solver` object, or a factory ``callable(ctx, settings, **params) -> Solver``
#: (a Solver subclass is one).
SolverSpec = str | Solver | Callable[..., Solver]


def build_solver(solver: SolverSpec, ctx: Context, settings: Settings, **params) -> Solver:
    """The :class:`Solver` for ``solver``: a registered name is looked up (``params`` go to
    its constructor), a factory is called with ``(ctx, settings, **params)``, an object is
    used as it is (then ``params`` must be empty and its word lists and settings must be
    the bench's)."""
    if isinstance(solver, str):
        return make_solver(solver, ctx, settings, **params)
    if isinstance(solver, Solver):
        if params:
            raise EvoWordleError(
                f"parameters {sorted(params)} cannot change a ready solver object; pass a factory "
                "callable(ctx, settings, **params) instead"
            )
        if solver.ctx.words != ctx.words:
            raise EvoWordleError("the solver object was built for other word lists than this bench's")
        if solver.settings != settings:
            raise EvoWordleError(
                f"the solver object was built for other settings ({solver.settings}) than this bench's ({settings})"
            )
        return solver
    if callable(solver):
        built = solver(ctx, settings, **params)
        if not isinstance(built, Solver):
            raise EvoWordleError(f"the solver factory returned {type(built).__name__}, not a Solver")
        return built
    raise EvoWordleError(
        f"a solver is a registered name, a Solver object or a factory (ctx, settings) -> Solver, "
        f"not {type(solver).__name__}"
    )


def solver_label(solver: SolverSpec) -> str:
    """A short name for tables and legends: the registered name, else a ``label`` attribute,
    else the class (object) or function (factory) name."""
    if isinstance(solver, str):
        return solver
    label = getattr(solver, "label", None)
    if isinstance(label, str) and label:
        return label
    if isinstance(solver, Solver):
        return type(solver).__name__
    return getattr(solver, "__qualname__", None) or type(solver).__name__


def solver_identity(solver: SolverSpec) -> str:
    """What a sweep records for ``solver`` (and compares on resume): the name, or
    ``object:``/``factory:`` with the module path and, for an object, a digest of
    :meth:`Solver.describe` (so a changed parameter is another sweep)."""
    if isinstance(solver, str):
        return solver
    if isinstance(solver, Solver):
        cls = type(solver)
        about = json.dumps(solver.describe(), sort_keys=True, default=str).encode()
        return f"object:{cls.__module__}.{cls.__qualname__}#{hashlib.sha256(about).hexdigest()[:12]}"
    return f"factory:{getattr(solver, '__module__', '?')}.{getattr(solver, '__qualname__', repr(solver))}"


def pack_solver(solver: SolverSpec) -> str | bytes:
    """``solver`` ready to travel to worker processes (any start method, or a dask cluster):
    a name stays a name, an object or factory is pickled here, so a solver that cannot travel
    fails at once with a clear error instead of inside a worker.  (Pickle is used only
    between the processes of one run, never for files.)"""
    if isinstance(solver, str):
        return solver
    try:
        return pickle.dumps(solver, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        raise EvoWordleError(
            f"cannot send solver {solver_label(solver)} to worker processes ({exc}); define its class, factory "
            "and custom operators at module top level (no lambdas or local functions), or run with jobs=1"
        ) from None


def unpack_solver(packed: str | bytes | SolverSpec) -> SolverSpec:
    """The inverse of :func:`pack_solver`, in a worker (anything not packed passes through)."""
    return pickle.loads(packed) if isinstance(packed, bytes) else packed


def accepted_params(cls) -> set[str] | None:
    """Constructor keywords a solver class takes (None if it accepts any ``**kwargs``)."""
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return None
    return {n for n in params if n not in ("self", "ctx", "settings")}
