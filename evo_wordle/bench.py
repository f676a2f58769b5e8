"""The simulation bench: play a solver on many answers (or board sets) and summarise the games.

The sampling rule (:func:`game_plan`, used by every entry point: CLI bench/compare,
``run_bench``, sweep tasks, the convergence and comparison plots): a seed and a number of
games pick the puzzles (:func:`sample_answers`) and every game draws only from its own
generator, spawned from ``SeedSequence(seed)`` by the game's position in that list
(:func:`game_seeds`), so a bench gives the same games whether it runs in one process or in
``jobs`` processes, in any chunking.  One board is the case N = 1 of N boards:
a game's answer is one word index or a set of N (one per board), played by a registered
solver or, for any N, by the summed-entropy policy (:mod:`evo_wordle.boards`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .artefacts import check_lists, other_lists_note, settings_of
from .boards import (
    BOARD_SEARCH_DEFAULTS,
    POLICY_NAME,
    BoardsRecord,
    SummedEntropy,
    check_distinct_answers,
    draw_answers,
    play_boards,
)
from .context import Context
from .errors import EvoWordleError
from .game import GameRecord, GameState, Settings, check_solver_args, lost, play, scores_of
from .params import as_bool, as_choice, as_int, as_seed
from .progress import progress_bar
from .solvers.base import SolverSpec, accepted_params, build_solver, pack_solver, solver_label, unpack_solver

#: How past answers affect later games in daily mode (P2/P3).
#: ``remove``: they leave later games' candidates (the issue's definition, default).
#: ``forbid``: they stay candidates but are never guessed (the thesis's own simulator).
DAILY_RULES = ("remove", "forbid")


@dataclass
class BenchResult:
    """Games of one solver under one setting, with the summary figures the CLI prints
    (records are :class:`GameRecord` for one board, :class:`~evo_wordle.boards.BoardsRecord`
    from the summed-entropy policy)."""

    solver: str
    settings: Settings
    records: list[GameRecord | BoardsRecord]
    seconds: float
    params: dict = field(default_factory=dict)
    #: Positions of ``records`` in the order they were played (daily mode); None = any order.
    order: np.ndarray | None = None

    @property
    def games(self) -> int:
        return len(self.records)

    def scores(self) -> np.ndarray:
        """Guesses per game in ``records`` order, a failure counting as the guess cap."""
        return scores_of(self.records, self.settings)

    @property
    def mean_guesses(self) -> float:
        return float(self.scores().mean()) if self.records else float("nan")

    @property
    def wins(self) -> int:
        """Games solved within ``settings.win_limit`` guesses (6 for one board)."""
        return sum(not lost(r, self.settings) for r in self.records)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.records else float("nan")

    @property
    def fail_rate(self) -> float:
        """Games not won, as a share: from the counts (0.005, not 1 - 0.995 = 0.0050000000000000044)."""
        return (self.games - self.wins) / self.games if self.records else float("nan")

    @property
    def worst_guesses(self) -> int:
        """Guesses of the worst game (a failure counts as the cap, ``settings.max_guesses``); a
        result without games has none (one-line error, not numpy's about an empty array)."""
        self._need_games("no worst game")
        return int(self.scores().max())

    def _need_games(self, what: str) -> None:
        """Refuse a figure that does not exist without games (a hand-built empty result; a bench
        always plays at least one game).  The rates are nan instead: a number, read as none."""
        if not self.records:
            raise EvoWordleError(f"this bench result holds no games, so it has {what}")

    @property
    def histogram(self) -> dict[str, int]:
        counts = Counter(int(s) for s in self.scores())
        return {str(k): counts[k] for k in sorted(counts)}

    @property
    def guesses_outside_source(self) -> int:
        """Guesses played outside the setting's guess source (``settings.guess_from``: with
        "candidates", words no longer possible when played); 0 for a solver that keeps to it."""
        return sum(r.outside_source for r in self.records)

    @property
    def games_outside_source(self) -> int:
        """Games with at least one guess outside the setting's guess source."""
        return sum(r.outside_source > 0 for r in self.records)

    def summary(self) -> dict:
        """Exactly the keys of ``bench --json`` (refused for a result without games)."""
        self._need_games("no summary")
        return {
            "solver": self.solver,
            "settings": {**self.settings.as_dict(), **self.params},
            "games": self.games,
            "mean_guesses": self.mean_guesses,
            "win_rate": self.win_rate,
            "fail_rate": self.fail_rate,
            "worst_guesses": self.worst_guesses,
            "histogram": self.histogram,
            "guesses_outside_source": self.guesses_outside_source,
            "games_outside_source": self.games_outside_source,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class ForbidState(GameState):
    """A daily-mode state under the thesis's rule: past answers stay candidates (they still
    shape the entropy) but may not be guessed.  ``forbidden`` is a sorted index array."""

    forbidden: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64), compare=False, repr=False)

    def after(self, guess: int, pattern: int) -> ForbidState:
        nxt = GameState.after(self, guess, pattern)
        return ForbidState(self.ctx, nxt.candidates, nxt.history, self.hard, self.forbidden)

    def guessable(self, guess_from: str = "candidates") -> np.ndarray:
        pool = GameState.guessable(self, guess_from)
        keep = pool[~np.isin(pool, self.forbidden, assume_unique=True)]
        return keep if len(keep) else pool

    def may_play(self, guess: int, guess_from: str = "candidates") -> bool:
        if not GameState.may_play(self, guess, guess_from):
            return False
        if not np.isin(guess, self.forbidden).item():
            return True
        return bool(np.isin(guess, self.guessable(guess_from)).item())  # every word forbidden: all allowed

    def key(self) -> bytes:
        # The forbidden words decide what may be played, so they are part of the decision
        # situation; all of them count because ``guess_from="allowed"`` sees beyond candidates.
        return GameState.key(self) + b"|" + self.forbidden.tobytes()


def check_games(games, available: int) -> int:
    """``--games`` as a whole number from 1 to the ``available`` answers (a larger sample
    without replacement cannot exist: refused rather than silently shrunk)."""
    games = as_int("games", games, 1, None)
    if games > available:
        raise EvoWordleError(f"--games {games} is more than the {available} answers (leave it out to play all)")
    return games


def sample_answers(answers: np.ndarray, games: int | None, seed: int) -> np.ndarray:
    """A seeded, sorted sample of ``games`` answers without replacement (all of them if None
    or at least as many as there are)."""
    if games is None:
        return answers
    games = check_games(games, len(answers))
    if games == len(answers):
        return answers
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x5A3]))
    return np.sort(rng.choice(answers, size=games, replace=False))


def game_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """The seed of each of ``n`` games of a run with ``seed`` (by position in its answer list)."""
    return np.random.SeedSequence(seed).spawn(n)


def game_plan(answers: np.ndarray, games: int | None, seed: int) -> tuple[np.ndarray, list[np.random.SeedSequence]]:
    """The one sampling rule: the puzzles ``seed`` and ``games`` pick, and each game's seed."""
    picked = sample_answers(np.asarray(answers, dtype=np.int64), games, seed)
    return picked, game_seeds(seed, len(picked))


# -- one game, one engine, any number of boards ----------------------------------------------


def board_route(solver: SolverSpec, settings: Settings, params: dict) -> tuple[SolverSpec, dict]:
    """The player ``solver`` names and its parameters: ``ga-search`` on several boards is the
    summed-entropy policy with its decision search on (``search`` and ``search_generations``
    from :data:`~evo_wordle.boards.BOARD_SEARCH_DEFAULTS` unless ``params`` give them), the
    one route the command line and the Python API share; any other solver plays as itself."""
    if solver == "ga-search" and settings.boards > 1:
        population, generations = BOARD_SEARCH_DEFAULTS
        return POLICY_NAME, {"search": population, "search_generations": generations, **params}
    return solver, params


def check_boards(solver: str, settings: Settings) -> None:
    """Refuse, in one line, a solver that cannot play ``settings.boards`` boards."""
    if settings.boards > 1 and board_route(solver, settings, {})[0] != POLICY_NAME:
        raise EvoWordleError(f"{solver} plays one board; --boards {settings.boards} needs the {POLICY_NAME} solver "
                             "(or ga-search, that policy with its decision search)")


def make_engine(ctx: Context, solver: SolverSpec, settings: Settings, params: dict):
    """The player of a bench: a solver (a name, object or factory; one board) or the
    summed-entropy policy (any number of boards, ``ga-search`` too: :func:`board_route`; its
    opener is worked out here, once, before any worker forks)."""
    check_boards(solver_label(solver), settings)
    solver, params = board_route(solver, settings, params)
    if not isinstance(solver, str):
        return build_solver(solver, ctx, settings, **params)
    if solver == POLICY_NAME:
        takes = sorted(accepted_params(SummedEntropy) - {"cache"})  # cache: shared by the meta-GA, not a setting
        unknown = sorted(set(params) - set(takes))
        if unknown:  # as make_solver says it: a misspelt gene in a policy file is not a TypeError
            raise EvoWordleError(f"solver {POLICY_NAME} has no parameter {unknown[0]!r} (it takes: {', '.join(takes)})")
        policy = SummedEntropy(ctx, settings, **params)
        policy.choose([policy.full_board()], 0)
        return policy
    return build_solver(solver, ctx, settings, **params)


def play_one(engine, state: GameState, answer, settings: Settings):
    """One game from ``state``: a word index for one board, or a set of N answers."""
    if isinstance(engine, SummedEntropy):
        return play_boards(engine, tuple(int(a) for a in np.atleast_1d(answer)), settings.max_guesses)
    return play(engine, state, int(answer), settings)


# -- worker side --------------------------------------------------------------------------

_WORKER: dict = {}


def _worker_init(ctx: Context, solver: str | bytes, settings: Settings, params: dict) -> None:
    """Build the worker's engine: a registered name, or a solver object / factory sent
    pickled by :func:`~evo_wordle.solvers.base.pack_solver` (no reliance on fork)."""
    engine = make_engine(ctx, unpack_solver(solver), settings, params)
    ctx = getattr(engine, "ctx", ctx)
    _WORKER["ctx"] = ctx
    _WORKER["engine"] = engine
    _WORKER["settings"] = settings
    _WORKER["base"] = GameState.start(ctx, settings) if settings.boards == 1 else None  # boards: play_boards


def _play_chunk(chunk: list[tuple[int, object, np.random.SeedSequence]]) -> tuple[list[tuple[int, object]], dict]:
    engine, settings, base = _WORKER["engine"], _WORKER["settings"], _WORKER["base"]
    out = []
    for k, answer, ss in chunk:
        engine.reset(np.random.default_rng(ss))
        out.append((k, play_one(engine, base, answer, settings)))
    return out, engine.describe()


def check_run_args(ctx, solver, settings, params=None) -> Settings:
    """The arguments every public entry point that plays games shares, checked at the boundary
    (one-line errors instead of an AttributeError deep inside); returns the settings."""
    settings = Settings() if settings is None else settings
    check_solver_args(ctx, settings)
    from .solvers.base import Solver

    if not (isinstance(solver, str | Solver) or callable(solver)):
        raise EvoWordleError(f"solver must be a solver name, a Solver object or a factory, not {type(solver).__name__}")
    if params is not None and not isinstance(params, dict):
        raise EvoWordleError(f"solver parameters must be a dict, not {type(params).__name__}")
    return settings


def run_bench(
    ctx: Context,
    solver: SolverSpec,
    settings: Settings | None = None,
    answers: np.ndarray | None = None,
    seed: int = 0,
    solver_params: dict | None = None,
    *,
    jobs: int = 1,
    progress: bool = False,
    daily_rule: str = "remove",
    on_game: Callable[[int], None] | None = None,
    games: int | None = None,
    label: str | None = None,
    distinct_answers: bool = False,
    made_for: dict | None = None,
    other_lists: bool = False,
) -> BenchResult:
    """Play ``solver`` on every answer in ``answers``: word indices for one board (default:
    the answer list, or the ``games`` of them that ``seed`` picks, :func:`game_plan`), a
    (games, N) array of answer sets for ``settings.boards`` = N (default: ``games`` sets, else
    1,000, drawn with ``seed``, :func:`~evo_wordle.boards.draw_answers`).  Any solver plays one
    board; ``summed-entropy`` plays any number, and so does ``ga-search`` as that policy with
    its decision search (:func:`board_route`; others get a one-line error).

    ``solver`` is a registered name (``solver_params`` go to its constructor), a ready
    :class:`~evo_wordle.solvers.base.Solver` object (e.g. a GA whose toolbox you changed;
    ``settings`` default to its own) or a factory ``callable(ctx, settings, **solver_params)``
    such as a Solver subclass.  With ``jobs > 1`` an object or factory is pickled to the
    workers, so it must be defined at module top level.  The result's ``params`` (and the
    summary) record the solver's class and parameters (:meth:`~evo_wordle.solvers.base.Solver.describe`).

    Each game gets its own generator from :func:`game_seeds`, indexed by its
    position in ``answers``, so results do not depend on ``jobs`` or on chunking.
    ``progress`` shows progress with an ETA on stderr (:mod:`evo_wordle.progress`), labelled
    ``label`` (default: the solver's name; a compare row gives its own).
    In daily mode games run sequentially in a seeded random order; ``daily_rule`` says what
    past answers do to later games (see :data:`DAILY_RULES`).
    ``distinct_answers`` (several boards): no set repeats an answer, as in the real Quordle and
    Octordle (``bench --distinct-answers``): drawn sets are drawn so, given ones are checked, and
    the result's settings record it.
    ``made_for``: the ``made_for`` block of the file ``solver_params`` came from (a loaded
    parameter file's, ``tune.load_params(path)["made_for"]``), so the result can say what the
    parameters alone cannot: on other word lists than ``ctx``'s it is refused unless
    ``other_lists=True`` asks for them (as ``bench --params FILE --other-lists``), and then the
    result's settings record ``other_lists`` and why (``lists_differ``).  A strategy file in
    ``solver_params`` is asked about by its own ``other_lists`` parameter.
    """
    if settings is None and isinstance(getattr(solver, "settings", None), Settings):
        settings = solver.settings  # a ready solver object plays under its own settings
    settings = check_run_args(ctx, solver, settings, solver_params)
    as_choice("daily_rule", daily_rule, DAILY_RULES)
    seed = as_seed("seed", seed)
    jobs = as_int("jobs", jobs, 1, None)
    distinct_answers = check_distinct_answers(distinct_answers, settings.boards)
    note = _file_note(ctx, made_for, other_lists)
    drawn = answers is None and settings.boards > 1  # already the ``games`` sets asked for
    answers = _answer_sets(ctx, settings, answers, seed, games, distinct_answers)
    if settings.boards == 1:
        answers = sample_answers(answers, games, seed)
    elif not drawn:  # given board sets: the same seeded sample of them as of one board's answers
        answers = answers[sample_answers(np.arange(len(answers)), games, seed)]
    seeds = game_seeds(seed, len(answers))
    params = dict(solver_params or {})
    engine = make_engine(ctx, solver, settings, params)
    # the name asked for labels the bar and the result (ga-search on boards: the policy plays)
    name = solver if board_route(solver, settings, {})[0] != solver else engine.name
    if isinstance(engine, SummedEntropy) and not params.get("opener"):
        params["opener"] = engine.describe()["opener"]  # workers start from the parent's opener
    parallel = not (settings.daily or jobs <= 1 or len(answers) < 2)
    packed = pack_solver(solver) if parallel else None  # fails here, not in a worker
    records: list[GameRecord | BoardsRecord | None] = [None] * len(answers)
    start = time.perf_counter()
    unit = "games" if settings.boards == 1 else "sets"
    with progress_bar(len(answers), f"bench {label or name}", unit, progress) as bar:
        if not parallel:
            order = _run_sequential(ctx, engine, settings, answers, seed, seeds, records, daily_rule, bar, on_game)
            extra = engine.describe()
        else:
            order = None
            extra = _run_parallel(ctx, packed, settings, params, answers, seeds, records, jobs, bar, on_game)
    seconds = time.perf_counter() - start
    if name != engine.name:  # ga-search on boards: the policy's details, under the solver asked for
        extra = {**extra, "solver": name}
    if settings.daily:
        extra = {**extra, "daily_rule": daily_rule}
    if distinct_answers:  # recorded only when on, as bench --json does
        extra = {**extra, "distinct_answers": True}
    return BenchResult(name, settings, records, seconds, {**extra, **note}, order if settings.daily else None)


def _file_note(ctx: Context, made_for, other_lists) -> dict:
    """What a result records of the file its parameters came from (``made_for``, its block)
    played on other lists (refused unless ``other_lists``); {} without one or on its own lists."""
    if made_for is None:
        if as_bool("other_lists", other_lists):
            raise EvoWordleError("other_lists=True asks to play the file made_for names on other word lists, but "
                                 "made_for is not given (a strategy file's own is its solver parameter other_lists)")
        return {}
    settings_of(made_for, "the file the parameters came from")  # a malformed block in one line, not an AttributeError
    check_lists(made_for, ctx.words, "the file the parameters came from", other_lists)
    return other_lists_note(made_for, ctx.words)


def _answer_sets(ctx: Context, settings: Settings, answers, seed: int, games: int | None = None,
                 distinct: bool = False) -> np.ndarray:
    """The games' answers: word indices for one board, a (games, N) array for N boards
    (default: the answer list; for N boards ``games`` sets, else 1,000, drawn with ``seed``,
    without a repeated answer within a set when ``distinct``; given sets are checked for it)."""
    if settings.boards > 1 and len(ctx.words.answer_index) < 2:
        raise EvoWordleError(f"--boards {settings.boards} needs an answer list of at least 2 words "
                             f"(this one has {len(ctx.words.answer_index)})")
    drawn = answers is None  # drawn sets are distinct by construction: only given ones are checked
    if answers is None:
        sets = 1000 if games is None else as_int("games", games, 1, None)
        answers = (ctx.words.answer_index if settings.boards == 1
                   else draw_answers(ctx, settings.boards, sets, seed, distinct=distinct))
    elif settings.boards == 1:
        answers = ctx.word_indices(answers, "answer")  # a negative or too large index never wraps
    else:
        given = np.asarray(answers)
        if given.dtype.kind not in "iu":
            raise EvoWordleError(f"answers must be whole-number word indices, not {given.dtype}")
        answers = ctx.word_indices(given.ravel(), "answer").reshape(given.shape)
    answers = np.asarray(answers, dtype=np.int64)
    if len(answers) == 0:
        raise EvoWordleError("no answers to play")
    if settings.candidates == "answers":
        outside = answers[~np.isin(answers, ctx.words.answer_index)]
        if len(outside):  # the solver would rule the answer out and the game count as a failure
            raise EvoWordleError(
                f"{ctx.words[int(outside.flat[0])]!r} is not in the answer list, and candidates='answers' "
                "(P1/P3) only considers those; play it with candidates='allowed' (P0)")
    shape = (len(answers),) if settings.boards == 1 else (len(answers), settings.boards)
    if answers.shape != shape:
        raise EvoWordleError(f"{settings.boards} boards need one answer per board in each game, not {answers.shape}")
    if distinct and not drawn:
        ordered = np.sort(answers, axis=1)
        repeats = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if len(repeats):
            row = ordered[repeats[0]]
            word = ctx.words.allowed[int(row[1:][row[1:] == row[:-1]][0])]
            raise EvoWordleError(f"board set {int(repeats[0])} repeats the answer {word!r}, and distinct_answers is on")
    return answers


def _run_sequential(ctx, engine, settings, answers, seed, seeds, records, daily_rule, bar, on_game) -> np.ndarray:
    order = np.arange(len(answers))
    if settings.daily:
        order = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0]).permutation(len(answers))
    base = GameState.start(ctx, settings) if settings.boards == 1 else None  # boards: play_boards starts its own
    past: list[int] = []
    for k in order:
        state = base
        if settings.daily and past:
            done = np.array(sorted(past), dtype=np.int64)
            if daily_rule == "remove":
                state = GameState.start(ctx, settings, done)
            else:
                state = ForbidState(ctx, base.candidates, (), settings.hard, done)
        engine.reset(np.random.default_rng(seeds[k]))
        records[k] = play_one(engine, state, answers[k], settings)
        if settings.daily:
            past.append(int(answers[k]))
        bar.update(1)
        if on_game:
            on_game(1)
    return order


def _run_parallel(ctx, solver, settings, params, answers, seeds, records, jobs, bar, on_game) -> dict:
    n_chunks = min(len(answers), jobs * 8)
    bounds = np.linspace(0, len(answers), n_chunks + 1).astype(int)
    spans = [(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
    chunks = [[(k, answers[k].tolist(), seeds[k]) for k in range(lo, hi)] for lo, hi in spans]
    ctx.table  # noqa: B018 - load (memory-mapped) before forking so workers share it
    from .executors import process_pool, running

    described: dict = {}
    with running(process_pool(jobs, _worker_init, (ctx, solver, settings, params))) as pool:
        for done, about in pool.map(_play_chunk, chunks):
            described = about  # any worker's view: the opener is the same everywhere
            for k, rec in done:
                records[k] = rec
            bar.update(len(done))
            if on_game:
                on_game(len(done))
    return described


def derived_seeds(seed: int, repeat: int) -> list[int]:
    """``repeat`` run seeds derived from one user seed (the first run uses ``seed`` itself)."""
    extra = np.random.SeedSequence([seed, 0xBE5C]).generate_state(max(repeat - 1, 0), dtype=np.uint32)
    return [seed, *(int(s) for s in extra)]


