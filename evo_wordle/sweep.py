"""Parameter sweeps: a specification, its task list, a resumable lossless CSV, and summaries.

A sweep is a grid of solver parameters (and, optionally, problem-setting axes) × seeds.
Each (configuration, seed) is one task: a whole bench, run on a local process pool or a
dask cluster through :mod:`evo_wordle.executors`.  Rows are appended to ``results.csv``
as tasks finish, each written with flush + fsync, so an interrupted sweep loses at most
the tasks that were running; rerunning the same specification runs only what is missing.

Seeds: task seed ``i`` plays a bench with seed ``SeedSequence(base_seed, spawn_key=(i, 0))``
(:func:`task_seed`, recorded as ``bench_seed``), which picks the puzzles and each game's seed by
the one sampling rule every entry point shares (:func:`~evo_wordle.bench.game_plan`): a row is
exactly ``bench --seed BENCH_SEED [--games K]``.  Every configuration sees the same puzzles and
game seeds for a given seed index (paired comparisons), and results do not depend on the
executor or on ``--jobs``.
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import inspect
import io
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from itertools import product
from pathlib import Path

import numpy as np

from .errors import EvoWordleError, WorkerDied
from .files import (
    RepeatedKey,
    atomic_write_text,
    control_char,
    decode_utf8,
    open_append_nofollow,
    read_capped,
    read_json,
    unique_keys,
)
from .game import PROBLEMS, Settings
from .params import as_choice, as_int, as_list, as_seed
from .solvers.base import SolverSpec, build_solver, pack_solver, solver_identity, solver_label, unpack_solver
from .stats import mean_ci, t975
from .wording import count

SPEC_FILE = "sweep.json"
RESULTS_FILE = "results.csv"
#: Caps on what a (shared) sweep folder may make the program read or expand.
MAX_SPEC_BYTES = 2**20
MAX_RESULTS_BYTES = 64 * 2**20
MAX_CONFIGS = 10_000
MAX_SEEDS = 10_000
MAX_GAMES_PER_ROW = 10_000_000

#: Grid keys that change the problem setting rather than the solver.
SETTING_KEYS = ("problem", "candidates", "guess_from", "hard", "daily", "max_guesses")

#: The axes the problem presets differ in (candidates, daily): a grid value of one that
#: contradicts its cell's problem would play another problem under that problem's name.
PRESET_AXES = tuple(k for k in PROBLEMS["P0"] if len({p[k] for p in PROBLEMS.values()}) > 1)

#: Result columns after the configuration columns.
RESULT_COLUMNS = (
    "seed", "bench_seed", "games", "mean", "win_rate", "fail_rate", "worst_guesses", "seconds", "histogram", "version",
)
#: The columns one bench decides (not its time or the version that ran it): two rows of one
#: configuration and seed that differ in any of them are two different results, never a copy.
_FIGURES = ("bench_seed", "games", "mean", "win_rate", "fail_rate", "worst_guesses", "histogram")


# ---------------------------------------------------------------------------------------- values


def parse_value(text: str):
    """A grid value from the command line: int, float, true/false/none, or the text itself."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def format_value(value) -> str:
    """The canonical text of a grid value (CSV cells and task keys)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def parse_grid_arg(text: str, flag: str = "--set") -> tuple[str, list]:
    """``key=v1,v2`` → (key, [v1, v2]) with typed values (``flag`` names the option in errors)."""
    key, sep, values = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key or not values.strip():
        raise EvoWordleError(f"{flag} expects key=value[,value…], not {text!r}")
    return key, [parse_value(v) for v in as_list(flag, values, what=text)]


# ------------------------------------------------------------------------------------------ spec


@dataclass
class SweepSpec:
    """Everything that determines a sweep's rows (saved as ``sweep.json``).

    ``solver`` is a registered name, a factory ``callable(ctx, settings, **params) ->
    Solver`` (a Solver subclass, or a function; the grid's solver keys are its keyword
    arguments) or a ready Solver object (then the grid may only vary nothing but the seeds,
    and its settings must be the sweep's).  An object or factory travels to the workers
    pickled, so define it at module top level; ``sweep.json`` records its module path (and,
    for an object, a digest of its parameters), so resuming with another one is refused.
    """

    solver: SolverSpec
    grid: dict[str, list]
    seeds: int = 3
    games: int | None = None
    settings: dict = field(default_factory=lambda: Settings().as_dict())
    allowed: str | None = None
    answers: str = "nyt"
    base_seed: int = 0
    #: The parameter file (``sweep --params FILE``) whose values ``file_keys`` are, one-value
    #: axes the file gave rather than asked for: :meth:`validate` leaves one that no
    #: configuration reads out of the grid with a warning naming the file, where a grid key is
    #: refused.  Where they came from is not the sweep's identity: ``sweep.json`` omits both.
    params_file: str | None = field(default=None, compare=False, metadata={"recorded": False})
    file_keys: tuple[str, ...] = field(default=(), compare=False, metadata={"recorded": False})

    def as_dict(self) -> dict:
        """The JSON form (``sweep.json``): an object or factory solver by its identity."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.metadata.get("recorded", True)}
        data["solver"] = solver_identity(self.solver)
        return json.loads(json.dumps(data))

    @classmethod
    def from_dict(cls, data: dict) -> SweepSpec:
        """A specification from its JSON form (``sweep.json``)."""
        if not isinstance(data, dict):
            raise EvoWordleError("not a sweep specification: not a JSON object")
        unrecorded = sorted(f.name for f in fields(cls) if not f.metadata.get("recorded", True) and f.name in data)
        if unrecorded:  # never written: a sweep.json holding one was not made by a sweep
            raise EvoWordleError(f"not a sweep specification: unexpected key {unrecorded[0]!r}")
        try:
            spec = cls(**{k: v for k, v in data.items() if k not in NOT_SPEC_KEYS})
        except TypeError as exc:
            raise EvoWordleError(f"not a sweep specification: {exc}") from None
        spec.check_shape()
        # ranges too (from Python, validate() names the argument): a folder's sweep.json of
        # seeds 0 or base_seed -1 was blamed on results.csv, or on numpy
        if spec.seeds < 1 or not 0 <= spec.base_seed < 2**63 or spec.games is not None and spec.games < 1:
            raise EvoWordleError(f"not a sweep specification: seeds ({spec.seeds}) and games ({spec.games}) "
                                 f"must be at least 1, base_seed ({spec.base_seed}) from 0 to 2**63 - 1")
        return spec

    def check_shape(self) -> None:
        """Types and sizes, checked before the grid is ever expanded."""
        def bad(what: str) -> EvoWordleError:
            return EvoWordleError(f"not a sweep specification: {what}")

        from .solvers import Solver

        solver_ok = isinstance(self.solver, str | Solver) or callable(self.solver)
        if not solver_ok or not isinstance(self.grid, dict):
            raise bad("solver must be a name (from Python also a Solver object or factory) and grid an object")
        scalar = (str, int, float, bool, type(None))
        for key, values in self.grid.items():
            if not isinstance(values, list) or not all(isinstance(v, scalar) for v in values):
                raise bad(f"grid {key!r} must be a list of plain values")
            # here, not only in validate(): a sweep.json listing a value twice was reported with
            # that configuration twice, its rows counted for both (6 of 6 benches from 4 rows)
            if not values:
                raise EvoWordleError(f"no values for {key}")
            if len(set(map(format_value, values))) != len(values):
                raise EvoWordleError(f"repeated value in {key}")
        for name in ("seeds", "base_seed"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad(f"{name} must be an integer")
        if not (self.games is None or isinstance(self.games, int) and not isinstance(self.games, bool)):
            raise bad("games must be an integer or null")
        if not isinstance(self.settings, dict) or not all(
                v is None or isinstance(v, str) for v in (self.answers, self.allowed)):
            raise bad("settings must be an object, answers and allowed list names")
        configs = math.prod(len(v) for v in self.grid.values())
        if configs > MAX_CONFIGS:
            raise EvoWordleError(f"the grid has {configs:,} configurations (at most {MAX_CONFIGS:,})")
        if self.seeds > MAX_SEEDS:
            raise EvoWordleError(f"--seeds {self.seeds} is more than {MAX_SEEDS:,}")

    @property
    def keys(self) -> list[str]:
        return list(self.grid)

    @property
    def columns(self) -> list[str]:
        return [*self.keys, *RESULT_COLUMNS]

    def configs(self) -> list[dict]:
        """Every configuration, in grid order."""
        keys = self.keys
        return [dict(zip(keys, values)) for values in product(*(self.grid[k] for k in keys))]

    def settings_for(self, config: dict) -> Settings:
        """The game settings of one configuration: the spec's, then its problem, then its setting keys."""
        base = dict(self.settings)
        if "problem" in config:
            name = str(config["problem"]).upper()
            if name not in PROBLEMS:
                raise EvoWordleError(f"unknown problem {config['problem']!r} (choose from {', '.join(PROBLEMS)})")
            base.update(PROBLEMS[name])
        base.update({k: v for k, v in config.items() if k in SETTING_KEYS and k != "problem"})
        try:
            settings = Settings(**base)
        except TypeError as exc:
            raise EvoWordleError(f"not a sweep's settings: {exc}") from None
        if settings.boards != 1:  # its folder was made, then the first bench refused the games
            raise EvoWordleError(f"a sweep plays one board, not {settings.boards}: compare several boards with "
                                 "evo-wordle bench --boards N or evolve-strategy --boards N")
        return settings

    @staticmethod
    def solver_params(config: dict) -> dict:
        """The configuration's solver parameters (every key that is not a setting)."""
        return {k: v for k, v in config.items() if k not in SETTING_KEYS}

    def tasks(self) -> list[dict]:
        """One task per (configuration, seed), the costliest configurations first."""
        spec = self.as_dict()
        extra = {} if isinstance(self.solver, str) else {"packed": pack_solver(self.solver)}
        out = [
            {"spec": spec, "config": config, "seed": i, **extra}
            for config in self.configs()
            for i in range(self.seeds)
        ]
        out.sort(key=lambda t: -_cost(t["config"]))  # stable: grid order among equals
        return out

    def validate(self) -> list[dict]:
        """Refuse unknown solvers, parameters and settings before anything runs.  Returns what
        ``sweep.json`` records of the files the grid names that its rows play on other word
        lists than they were made for (:data:`GRID_FILES_KEY`; [] when none)."""
        from .solvers import SOLVERS, Solver, load_all

        load_all()
        self.check_shape()
        if isinstance(self.solver, str) and self.solver not in SOLVERS:
            raise EvoWordleError(f"unknown solver {self.solver!r} (choose from {', '.join(sorted(SOLVERS))})")
        if not isinstance(self.solver, str | Solver) and not callable(self.solver):
            raise EvoWordleError(f"a sweep's solver is a name, a Solver object or a factory, not {self.solver!r}")
        if not isinstance(self.grid, dict):
            raise EvoWordleError(f"the sweep grid must map parameter names to lists, not {self.grid!r}")
        self.seeds = as_int("seeds", self.seeds, 1, None)
        self.base_seed = as_seed("seed", self.base_seed)
        from .words import load_words

        # the word lists are read now, whatever the grid: a missing or bad list was found only
        # inside the folder lock, leaving the new --out folder and its lock file behind
        words = load_words(self.allowed, self.answers)
        if self.games is not None:
            from .bench import check_games

            self.games = check_games(self.games, len(words.answer_index))
        if isinstance(self.solver, Solver):
            accepted: set[str] | None = set()
        else:
            accepted = _accepted_params(SOLVERS[self.solver] if isinstance(self.solver, str) else self.solver)
        unknown = [k for k in self.grid if k not in SETTING_KEYS and accepted is not None and k not in accepted]
        if unknown:
            if isinstance(self.solver, Solver):
                raise EvoWordleError(
                    f"a solver object's parameters are fixed (grid key {unknown[0]!r}); sweep a factory instead"
                )
            raise EvoWordleError(
                f"solver {solver_label(self.solver)} has no parameter {unknown[0]!r} "
                f"(it takes: {', '.join(sorted(accepted)) or 'none'})"
            )
        fixed = self.settings_for({})
        played: dict[tuple[str, str], str] = {}  # (parameter, file) -> why its lists differ
        # a registered name, or a factory that is a Solver class, answers the same up-front
        # questions (its parameters, a file it names on these lists) before any task runs; a
        # factory function's are known only by calling it (_build_each, below)
        family = SOLVERS[self.solver] if isinstance(self.solver, str) else (
            self.solver if isinstance(self.solver, type) and issubclass(self.solver, Solver) else None)
        unread: dict[str, list] = {}  # grid key -> why it is not read, once per configuration that ignores it
        configs = self.configs()
        for config in configs:
            settings = self.settings_for(config)
            _check_preset(config, settings, fixed)
            if isinstance(self.solver, Solver) and settings != self.solver.settings:
                raise EvoWordleError(
                    f"the solver object was built for settings {self.solver.settings}, the sweep asks for {settings}"
                )
            if family is not None:
                params = self.solver_params(config)
                family.check_params(params)
                for key, why in family.unread_params(params).items():
                    unread.setdefault(key, []).append(why)
                found = family.check_word_lists(params, words)  # e.g. a strategy file's
                played.update({(key, format_value(config[key])): why for key, why in found.items()})
        for key in self._unread_file_keys(unread, len(configs)):
            unread.pop(key)
        _check_unread(unread, len(configs))
        self.check_words(words)
        if family is None and not isinstance(self.solver, Solver):
            played.update(self._build_each())
        return [{"param": key, "file": file, "lists_differ": why} for (key, file), why in played.items()]

    def _unread_file_keys(self, unread: dict[str, list], points: int) -> list[str]:
        """The :attr:`file_keys` that no configuration reads (``unread``: key -> why, once per
        configuration that ignores it), each left out of the grid with one warning naming
        :attr:`params_file`.  Not refused as such a grid key is: the file records a whole solver
        (tune writes a winner's every sampled value, ``tournament_size`` under roulette selection
        included), so the value was not asked for here, and refusing it left a tuned file that
        ``bench --params`` plays unsweepable; kept, it would label every row with a value no run
        read.  One that some configurations read stays, with the grid's one-line warning."""
        from .console import warn

        dropped = [k for k in self.file_keys if len(unread.get(k, ())) == points]
        for key in dropped:
            warn(f"parameter file {self.params_file} sets {key}={format_value(self.grid[key][0])}, which no "
                 f"configuration reads ({key} {unread[key][0].why}): left out of the grid")
        self.grid = {k: v for k, v in self.grid.items() if k not in dropped}
        return dropped

    def _build_each(self) -> dict[tuple[str, str], str]:
        """A factory function's parameters are known only by calling it: each configuration's
        solver is built here as its tasks build it (:func:`~evo_wordle.bench.make_engine`; no game
        is played), so a bad value is refused before the folder exists, not by a worker.  Returns
        what :meth:`validate` records of the files they play on other word lists (a built
        solver's ``describe()`` says so, as bench records it): {(parameter, file): why}."""
        from .bench import make_engine
        from .executors import worker_context

        ctx = worker_context(self.allowed, self.answers)  # the one a task in this process would use
        played: dict[tuple[str, str], str] = {}
        for config in self.configs():
            engine = make_engine(ctx, self.solver, self.settings_for(config), self.solver_params(config))
            described = engine.describe() if hasattr(engine, "describe") else {}
            why = described.get("lists_differ")
            if why:
                played[_file_param(self.solver_params(config), described.get("strategy"))] = why
        return played

    def check_words(self, words=None) -> None:
        """Word parameters (an opener, the two-preset solvers' second word) must be words of the
        sweep's list (``words``, loaded if not given): refused now, before the folder exists,
        not by the first task."""
        from .words import load_words

        named = {value for config in self.configs() for key, value in self.solver_params(config).items()
                 if key in WORD_PARAMS and isinstance(value, str) and value}
        if named:
            words = words if words is not None else load_words(self.allowed, self.answers)
            for word in sorted(named):
                words.index(word)


def _check_unread(unread: dict[str, list], points: int) -> None:
    """A grid key no configuration reads is refused (every point would be the run without it);
    one that some configurations ignore is a warning: where it is not read, points that differ
    only in it play the same games (each seed index is one bench seed for every point)."""
    from .console import warn

    for key, whys in unread.items():
        why = whys[0]
        if len(whys) == points:
            fixes = why.give("{key}={value}")
            raise EvoWordleError(f"grid key {key!r} {why.why}, so no run would read it: set {fixes} too, or drop {key}")
        warn(f"grid key {key!r} is not read by {count(len(whys), 'configuration')} of {points} "
             f"({key} {why.why} there): where it is not read, points that differ only in it play identical runs")


def _file_param(params: dict, file) -> tuple[str, str]:
    """(the parameter, the file) of a factory's configuration whose solver plays ``file`` (what
    it describes as its ``strategy``) on other word lists: the parameter that names it, whatever
    the factory calls it (``strategy`` when none does, e.g. a factory that reads a fixed path)."""
    named = [k for k, v in params.items() if isinstance(v, str | Path) and file is not None and str(v) == str(file)]
    return (named[0] if named else "strategy", format_value(file if not named else params[named[0]]))


def replaced_setting(problem: str, fixed: Settings, swept) -> tuple[str, object, object] | None:
    """(key, fixed value, the problem's value) of the first setting ``fixed`` holds away from its
    default that the known ``problem``'s preset would replace (one ``swept`` does not name), or None."""
    default = Settings()
    for key, value in PROBLEMS[problem.upper()].items():
        given = getattr(fixed, key)
        if key not in swept and given != getattr(default, key) and given != value:
            return key, given, value
    return None


def _check_preset(config: dict, settings: Settings, fixed: Settings) -> None:
    """Refuse a cell whose candidates or daily axis contradicts its problem (``--set problem=P1
    --set candidates=allowed`` played P0 in a row labelled P1), as ``bench`` refuses
    ``--problem P1 --candidates allowed`` (cli.settings_args.check_preset_flags); and a setting
    the spec fixes (away from its default) that the cell's problem would silently replace
    (``settings={"daily": True}`` with a grid ``problem=P0`` played P0), as ``sweep`` refuses
    ``--daily --set problem=P0``."""
    if "problem" not in config:
        return
    name = str(config["problem"]).upper()  # a known problem: settings_for refused any other
    preset = PROBLEMS[name]
    replaced = replaced_setting(name, fixed, config)
    if replaced:
        key, given, value = replaced
        raise EvoWordleError(
            f"the sweep's fixed setting {key}={format_value(given)} and the grid's problem={config['problem']} "
            f"contradict: {name} sets {key}={format_value(value)} and would replace it in that cell; drop "
            f"{key} from the fixed settings, or sweep it in the grid")
    for axis in PRESET_AXES:
        if axis in config and getattr(settings, axis) != preset[axis]:
            asked = {**preset, axis: getattr(settings, axis)}
            other = next(n for n, p in PROBLEMS.items() if all(p[k] == asked[k] for k in PRESET_AXES))
            raise EvoWordleError(
                f"the grid's problem={config['problem']} and {axis}={format_value(config[axis])} contradict: "
                f"{name} sets {axis}={format_value(preset[axis])}, so that cell would play {other} under the name "
                f"{name}; sweep problem={other}, or drop {axis} from the grid")


#: Key of ``sweep.json`` recording the sha256 of list files (not a field of the specification).
LISTS_KEY = "lists_sha256"
#: Key of ``sweep.json`` recording that the parameters came from a file played on other word lists
#: than it was made for (``--params FILE --other-lists``): the file and why (absent otherwise).
FILE_LISTS_KEY = "params_file_other_lists"
#: Key of ``sweep.json`` recording each file the grid names (``--set strategy=FILE``) that its rows
#: play on other word lists than it was made for, as ``other_lists=true`` asked: a list of
#: ``{"param", "file", "lists_differ"}`` (absent when none: asking alone changes nothing).
GRID_FILES_KEY = "grid_files_other_lists"
#: ``sweep.json`` keys that are records beside the specification, not fields of it.
NOT_SPEC_KEYS = (LISTS_KEY, FILE_LISTS_KEY, GRID_FILES_KEY)

#: Solver parameters that name a word.
WORD_PARAMS = ("opener", "second")


def _accepted_params(factory) -> set[str] | None:
    """Keywords a solver class's constructor or a factory function takes after
    ``(ctx, settings)`` (None if it accepts **kwargs)."""
    target = factory.__init__ if isinstance(factory, type) else factory
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    if params and params[0].name == "self":
        params = params[1:]
    return {p.name for p in params[2:]}


def _cost(config: dict) -> float:
    """A rough relative cost, for scheduling long tasks first (better load balance)."""
    cost = 1.0
    for key in ("population", "generations_per_guess"):
        value = config.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            cost *= max(float(value), 1.0)
    return cost


def task_key(config: dict, seed, keys: list[str]) -> tuple[str, ...]:
    """Identity of a task, from canonical text (so CSV rows and tasks compare equal)."""
    return (*(format_value(config[k]) for k in keys), str(seed))


def row_key(row: dict, keys: list[str]) -> tuple[str, ...]:
    """The identity of a CSV row, comparable with :func:`task_key`."""
    return (*(row[k] for k in keys), str(row["seed"]))


def task_seed(base_seed: int, index: int) -> int:
    """The bench seed of seed index ``index`` (recorded as the row's ``bench_seed``).

    A row is exactly ``evo-wordle bench --seed BENCH_SEED [--games K]`` of its configuration:
    the puzzles and each game's seed come from the one sampling rule, :func:`~evo_wordle.bench.game_plan`.
    """
    return int(np.random.SeedSequence(base_seed, spawn_key=(index, 0)).generate_state(1)[0])


# ------------------------------------------------------------------------------------------ work


def _task_solver(task: dict, spec: SweepSpec):
    """The task's solver: its name, or the object / factory sent pickled with it."""
    return unpack_solver(task["packed"]) if "packed" in task else spec.solver


def _task_setup(task: dict):
    """(spec, config, seed index, ctx, settings, bench seed, answers) of a task, in a worker."""
    from .bench import game_plan
    from .executors import worker_context

    spec = SweepSpec.from_dict(task["spec"])
    config, index = task["config"], int(task["seed"])
    ctx = worker_context(spec.allowed, spec.answers)
    settings = spec.settings_for(config)
    bench_seed = task_seed(spec.base_seed, index)
    answers, _ = game_plan(ctx.words.answer_index, spec.games, bench_seed)
    return spec, config, index, ctx, settings, bench_seed, answers


def _row(spec: SweepSpec, config: dict, index: int, bench_seed: int, result) -> dict:
    from . import __version__

    row = {k: format_value(config[k]) for k in spec.keys}
    row.update(
        seed=str(index),
        bench_seed=str(bench_seed),
        games=str(result.games),
        mean=repr(result.mean_guesses),
        win_rate=repr(result.win_rate),
        fail_rate=repr(result.fail_rate),
        worst_guesses=str(result.worst_guesses),
        seconds=f"{result.seconds:.3f}",
        histogram=json.dumps(result.histogram, separators=(",", ":")),
        version=__version__,
    )
    return row


def run_task(task: dict) -> dict:
    """Run one (configuration, seed) bench in a worker and return its CSV row."""
    from .bench import run_bench

    spec, config, index, ctx, settings, bench_seed, answers = _task_setup(task)
    result = run_bench(ctx, _task_solver(task, spec), settings, answers, seed=bench_seed,
                       solver_params=spec.solver_params(config))
    return _row(spec, config, index, bench_seed, result)


def run_chunk(task: dict) -> dict:
    """Play games ``task["chunk"] = (lo, hi)`` of a bench (positions in its answer list).

    Game ``k`` gets ``SeedSequence(bench_seed).spawn(n)[k]``, exactly as in ``run_bench``, so
    the chunks of a bench add up to the same games as the whole bench.
    """
    from .game import GameState, play

    spec, config, index, ctx, settings, bench_seed, answers = _task_setup(task)
    lo, hi = task["chunk"]
    start = time.perf_counter()
    engine = build_solver(_task_solver(task, spec), ctx, settings, **spec.solver_params(config))
    base = GameState.start(engine.ctx, settings)
    records = []
    for k in range(lo, hi):
        engine.reset(np.random.default_rng(np.random.SeedSequence(bench_seed, spawn_key=(k,))))
        records.append(play(engine, base, int(answers[k]), settings))
    return {"chunk": (lo, hi), "records": records, "seconds": time.perf_counter() - start}


def _split(task: dict, chunks: int) -> list[dict]:
    """A bench as ``chunks`` runs of consecutive puzzles (daily benches stay whole)."""
    spec = SweepSpec.from_dict(task["spec"])
    if chunks <= 1 or spec.settings_for(task["config"]).daily:
        return [task]
    n = spec.games or _answer_count(spec)
    bounds = np.linspace(0, n, min(chunks, n) + 1).astype(int)
    return [{**task, "chunk": (int(lo), int(hi))} for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]


def _answer_count(spec: SweepSpec) -> int:
    from .executors import worker_context

    return len(worker_context(spec.allowed, spec.answers).words.answer_index)


def _work(task: dict) -> dict:
    """Executor entry point: a whole bench (its row) or a chunk of one."""
    return run_chunk(task) if "chunk" in task else {"row": run_task(task)}


class _Assembler:
    """Collects the chunks of each bench and builds its row once all have arrived."""

    def __init__(self) -> None:
        self.parts: dict[tuple, list[dict]] = {}

    def add(self, task: dict, result: dict, n_chunks: int) -> dict | None:
        from .bench import BenchResult

        spec = SweepSpec.from_dict(task["spec"])
        key = task_key(task["config"], task["seed"], spec.keys)
        parts = self.parts.setdefault(key, [])
        parts.append(result)
        if len(parts) < n_chunks:
            return None
        del self.parts[key]
        parts.sort(key=lambda p: p["chunk"][0])
        records = [r for p in parts for r in p["records"]]
        settings = spec.settings_for(task["config"])
        bench = BenchResult(spec.solver, settings, records, sum(p["seconds"] for p in parts))
        bench_seed = task_seed(spec.base_seed, int(task["seed"]))
        return _row(spec, task["config"], int(task["seed"]), bench_seed, bench)


# ------------------------------------------------------------------------------------- the store


class ResultsStore:
    """``results.csv``: append-only, one fsync'd line per finished task.

    Opening repairs what an abrupt stop can leave: a torn last line is cut off.  The rows are
    read as ``report`` reads them (:func:`parse_results`), so a resume over a row ``report``
    refuses (another grid's, a damaged line, figures that do not hold) is refused in the same
    line before any bench runs, and a copy of a row (a manual merge) is ignored as there.
    """

    def __init__(self, path: Path, spec: SweepSpec) -> None:
        self.path = Path(path)
        self.columns = spec.columns
        self.keys = spec.keys
        self.done: set[tuple[str, ...]] = set()
        self._repair_and_load(spec)

    def _repair_and_load(self, spec: SweepSpec) -> None:
        if not os.path.lexists(self.path) or (not self.path.is_symlink() and self.path.stat().st_size == 0):
            self._write_raw(_csv_line(self.columns))
            return
        if self.path.is_symlink():
            raise EvoWordleError(f"{self.path} is a symlink; refusing to write through it")
        data = read_capped(self.path, MAX_RESULTS_BYTES, "results file")
        if not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            fd = os.open(self.path, os.O_WRONLY | os.O_NOFOLLOW)
            try:
                os.ftruncate(fd, cut)
                os.fsync(fd)
            finally:
                os.close(fd)
            data = data[:cut]
            print(f"evo-wordle: dropped a torn last line in {self.path}", file=sys.stderr)
        if not data:
            self._write_raw(_csv_line(self.columns))
            return
        self.done = set(parse_results(data, self.path, spec))
        # the parser checked the header holds these columns, in any order: new rows follow its order
        self.columns = next(csv.reader(io.StringIO(data[: data.find(b"\n")].decode("utf-8"))))

    def _write_raw(self, text: str) -> None:
        fd = open_append_nofollow(self.path)
        try:
            os.write(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def __contains__(self, key: tuple[str, ...]) -> bool:
        return key in self.done

    def append(self, row: dict) -> bool:
        """Write ``row`` unless its task is already stored; True if written."""
        key = row_key(row, self.keys)
        if key in self.done:
            return False
        self._write_raw(_csv_line([row[c] for c in self.columns]))
        self.done.add(key)
        return True


def _csv_line(cells: list[str]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    return buf.getvalue()


def _check_spec(out: Path, spec: SweepSpec, notes: dict | None = None) -> None:
    """Save the specification (with ``notes``: records beside it such as :data:`FILE_LISTS_KEY`,
    each written only when not empty), or refuse if the folder holds a different one."""
    path = out / SPEC_FILE
    mine = spec.as_dict()
    mine.update({k: v for k, v in (notes or {}).items() if v})
    # a list file is named by its path: what it held is recorded too, so a resume over an edited
    # file (rows of two lists averaged in one report) is refused
    from .artefacts import list_file_digests

    lists = list_file_digests(spec.allowed, spec.answers)
    if lists is not None:
        mine[LISTS_KEY] = lists
    if os.path.lexists(path):
        theirs = read_json(path, MAX_SPEC_BYTES, "sweep specification")
        if theirs != mine and _no_rows(out):
            # Nothing was run under the old specification (a bad spec, or one stopped before its
            # first row): a new one replaces it instead of blocking the folder for ever.
            (out / RESULTS_FILE).unlink(missing_ok=True)
        elif theirs != mine and GRID_FILES_KEY not in theirs and theirs == _without(mine, GRID_FILES_KEY):
            pass  # written before sweeps recorded it: the same sweep, whose rows were played so; add it
        elif theirs != mine:
            diff = sorted("the word lists' content" if k == LISTS_KEY else k
                          for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            raise EvoWordleError(
                f"{out} holds a different sweep (differs in {', '.join(diff)}); "
                "repeat its options to resume or choose another --out"
            )
        else:
            return
    atomic_write_text(path, json.dumps(mine, indent=2) + "\n", durable=True)


def _without(data: dict, key: str) -> dict:
    return {k: v for k, v in data.items() if k != key}


def _no_rows(out: Path) -> bool:
    """True if ``out/results.csv`` holds no result row (missing, empty or a header only)."""
    path = out / RESULTS_FILE
    try:
        with open(path, "rb") as fh:
            return fh.read(1 << 20).count(b"\n") <= 1
    except FileNotFoundError:
        return True
    except OSError:
        return False


@dataclass
class SweepOutcome:
    """What a :func:`run_sweep` call did: tasks in the grid, already stored, run now, and its seconds."""
    total: int
    skipped: int
    ran: int
    seconds: float


def run_sweep(
    spec: SweepSpec,
    out: str | Path,
    executor: str = "local",
    jobs: int = 2,
    scheduler: str | None = None,
    progress: Callable[[int, int, dict], None] | None = None,
    chunks: int = 1,
    file_lists: dict | None = None,
) -> SweepOutcome:
    """Run every task of ``spec`` not yet in ``out/results.csv``; rows land as tasks finish.

    ``file_lists``: where the grid's parameters came from a file made for other word lists than
    the sweep's (``sweep --params FILE --other-lists``), ``{"file": …, "lists_differ": why}``;
    ``sweep.json`` records it, a resume must give the same, and ``report`` warns of it.  A file
    the grid names (``strategy``) that ``other_lists=true`` plays on other lists is recorded the
    same way, found by the sweep itself (:data:`GRID_FILES_KEY`).

    ``chunks > 1`` splits each bench into that many runs of puzzles (more, smaller work units
    for many workers); the rows are the same, a bench's row is written when its last chunk is
    in, and chunks of an unfinished bench are lost on interruption (only whole rows are kept).
    """
    from .executors import check_executor, local_workers, make_executor, terminate
    from .folder_lock import LOCK_FILE, folder_lock
    from .outputs import check_folder

    played = spec.validate()
    jobs = as_int("jobs", jobs, 1, None)
    chunks = as_int("chunks", chunks, 1, None)
    check_executor(executor, scheduler)  # a missing dask is reported before the folder exists
    out = check_folder(out, files=(SPEC_FILE, RESULTS_FILE, LOCK_FILE))  # no FIFO, device or symlink in it
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with folder_lock(out):
        _check_spec(out, spec, {FILE_LISTS_KEY: file_lists, GRID_FILES_KEY: played})
        store = ResultsStore(out / RESULTS_FILE, spec)  # every row it holds is one of these tasks'
        tasks = spec.tasks()
        todo = [t for t in tasks if task_key(t["config"], t["seed"], spec.keys) not in store]
        outcome = SweepOutcome(len(tasks), len(tasks) - len(todo), 0, 0.0)
        if not todo:
            return outcome
        units = [(t, part, n) for t in todo for parts in [_split(t, chunks)] for part in parts
                 for n in [len(parts)]]
        workers = min(local_workers(jobs), len(units)) if executor == "local" else jobs  # the cap says --jobs as given
        ex = make_executor(executor, jobs=workers, scheduler=scheduler)
        assembler = _Assembler()
        try:
            futures = {ex.submit(_work, part): (t, n) for t, part, n in units}
            for fut in cf.as_completed(futures):
                result = fut.result()
                task, n = futures[fut]
                row = result["row"] if "row" in result else assembler.add(task, result, n)
                if row is None:
                    continue
                store.append(row)
                outcome.ran += 1
                if progress:
                    progress(outcome.skipped + outcome.ran, outcome.total, row)
        except BaseException as exc:
            terminate(ex)
            if isinstance(exc, cf.process.BrokenProcessPool):
                raise WorkerDied(
                    f"a worker process died; {outcome.skipped + outcome.ran} of {outcome.total} tasks are "
                    "saved - rerun the same command to resume"
                ) from None
            raise
        ex.shutdown(wait=True)
    outcome.seconds = time.perf_counter() - start
    return outcome


# ------------------------------------------------------------------------------------ summaries

def histogram_ci(histogram: dict[str, int]) -> float:
    """95 % half-width of a mean guess count from one bench's per-game histogram."""
    scores = np.array([int(k) for k in histogram], dtype=np.float64)
    counts = np.array([int(v) for v in histogram.values()], dtype=np.float64)
    n = int(counts.sum())
    if n < 2:
        return float("nan")
    mean = (scores * counts).sum() / n
    std = math.sqrt((counts * (scores - mean) ** 2).sum() / (n - 1))
    return float(t975(n - 1) * std / math.sqrt(n))


def _histogram(cell: str, games: int) -> dict[str, int]:
    """A row's histogram (guesses → games), checked: small integers adding up to ``games``."""
    if len(cell) > 10_000:
        raise ValueError("histogram too long")
    try:
        hist = json.loads(cell, object_pairs_hook=unique_keys)
    except RepeatedKey as exc:  # the last copy counted: {"4": 1, "4": 3} read as 3 games at 4
        raise ValueError(f"histogram gives {exc.args[0]!r} twice") from None
    if not isinstance(hist, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 and k.isdigit() and len(k) <= 4
            for k, v in hist.items()):
        raise ValueError("histogram is not guesses → counts")
    if sum(hist.values()) != games:
        raise ValueError(f"histogram counts add up to {sum(hist.values())}, not games = {games}")
    return hist


def _limits(spec: SweepSpec, config: dict) -> tuple[int, int]:
    """(guess cap, win limit) of one configuration's games."""
    settings = spec.settings_for({k: config[k] for k in spec.keys})
    return settings.max_guesses, settings.win_limit


def _check_figures(row: dict, spec: SweepSpec, limits: tuple[int, int]) -> None:
    """Refuse a row whose figures disagree with its own histogram or with the sweep: an edited
    or damaged ``results.csv`` showed a mean of 1.000 marked best, a fail rate of -100 % or an
    extra seed, with no word of it.  Every figure follows from the histogram (a failure scores
    the cap) except the wins, which are bounded by it (a game at the cap may be won or lost)."""
    cap, win_limit = limits
    games, hist = row["games"], {int(k): v for k, v in row["histogram"].items()}
    if not 0 <= row["seed"] < spec.seeds:
        raise ValueError(f"seed = {row['seed']}, not one of the sweep's {spec.seeds} seed indices")
    if row["bench_seed"] != task_seed(spec.base_seed, row["seed"]):
        raise ValueError(f"bench_seed = {row['bench_seed']} is not the one of seed {row['seed']}")
    if spec.games is not None and games != spec.games:
        raise ValueError(f"games = {games}, but the sweep plays {spec.games} per bench")
    if any(not 1 <= k <= cap for k, v in hist.items() if v):
        raise ValueError(f"histogram has guess counts outside 1..{cap}")
    mean = sum(k * v for k, v in hist.items()) / games
    if not math.isclose(row["mean"], mean, rel_tol=1e-9):
        raise ValueError(f"mean = {row['mean']!r}, but the histogram's is {mean!r}")
    if row["worst_guesses"] != max(k for k, v in hist.items() if v):
        raise ValueError(f"worst_guesses = {row['worst_guesses']}, not the histogram's")
    wins = row["win_rate"] * games
    surely = sum(v for k, v in hist.items() if k <= win_limit and k < cap)  # solved before the cap
    maybe = sum(v for k, v in hist.items() if k <= win_limit)
    if not (math.isfinite(wins) and abs(wins - round(wins)) < 1e-6 and surely <= round(wins) <= maybe):
        raise ValueError(f"win_rate = {row['win_rate']!r} does not fit the histogram")
    if not math.isclose(row["fail_rate"], (games - round(wins)) / games, rel_tol=1e-9, abs_tol=1e-12):
        raise ValueError(f"fail_rate = {row['fail_rate']!r} is not 1 - win_rate")
    if not (math.isfinite(row["seconds"]) and row["seconds"] >= 0):
        raise ValueError(f"seconds = {row['seconds']!r}")


def read_spec(path: Path) -> tuple[SweepSpec, dict]:
    """``sweep.json``, read once: the specification (capped, checked for shape and size before
    the grid is expanded) and the records beside it (:data:`NOT_SPEC_KEYS` it holds)."""
    data = read_json(path, MAX_SPEC_BYTES, "sweep specification")
    spec = SweepSpec.from_dict(data)  # refuses anything but an object
    _check_solver_name(spec.solver, path)
    for config in spec.configs():  # check_shape capped them; a bad one was blamed on results.csv, or never seen
        try:
            spec.settings_for(config)
        except EvoWordleError as exc:
            raise EvoWordleError(f"{path} holds settings no game has: {str(exc)[:120]}") from None
    records = {k: data[k] for k in NOT_SPEC_KEYS if k in data}
    _check_records(records, path)
    return spec, records


#: The fields of each note :func:`lists_warnings` reads, all text (as :func:`run_sweep` writes them).
_NOTE_FIELDS = {FILE_LISTS_KEY: ("file", "lists_differ"), GRID_FILES_KEY: ("param", "file", "lists_differ")}


def _check_records(records: dict, path: Path) -> None:
    """Refuse a record of files played on other word lists that is not as written: one of
    another shape was skipped, so ``report`` lost the warning it stands for without a word."""
    for key, names in _NOTE_FIELDS.items():
        if key not in records:
            continue
        notes = records[key] if key == GRID_FILES_KEY else [records[key]]
        if not isinstance(notes, list) or not notes or not all(
                isinstance(n, dict) and sorted(n) == sorted(names) and all(isinstance(v, str) for v in n.values())
                for n in notes):
            shape = "a list of objects" if key == GRID_FILES_KEY else "an object"
            raise EvoWordleError(f"{path}: {key} is not {shape} of text fields {', '.join(names)}")


def _check_solver_name(solver: str, path: Path) -> None:
    """A sweep.json's solver is a registered name, or what :func:`solver_identity` records of a
    Python object or factory: any other name (an edit, a typo) was reported as that solver's sweep."""
    from .solvers import SOLVERS, load_all

    load_all()
    if solver not in SOLVERS and not solver.startswith(("object:", "factory:")):
        raise EvoWordleError(f"{path} names solver {solver[:40]!r}, which is not a registered solver "
                             f"(known: {', '.join(sorted(SOLVERS))})")


def lists_warnings(records: dict) -> list[str]:
    """One line per file that a sweep's records (:func:`load_sweep_folder`) say its rows played
    on other word lists than it was made for: the ``--params`` file (:data:`FILE_LISTS_KEY`) and
    each file the grid names (:data:`GRID_FILES_KEY`); [] when none, so ``report`` warns only of
    what was played, never of an ``other_lists=true`` that changed nothing."""
    lines = []
    note = records.get(FILE_LISTS_KEY)
    if isinstance(note, dict):
        lines.append(f"these rows were played on other word lists than parameter file {note.get('file')} was made "
                     f"for ({note.get('lists_differ')})")
    notes = records.get(GRID_FILES_KEY)
    for note in notes if isinstance(notes, list) else []:
        if isinstance(note, dict):
            lines.append(f"the rows with {note.get('param')}={note.get('file')} were played on other word lists "
                         f"than that file was made for ({note.get('lists_differ')})")
    return lines


def load_sweep(out: str | Path) -> tuple[SweepSpec, list[dict]]:
    """The specification and the rows (config values typed as in the spec) of a sweep folder.

    Both files are read with caps and checked; anything malformed is a one-line error naming
    the file and line (a torn last line, left by an interrupted sweep, is ignored)."""
    spec, rows, _ = load_sweep_folder(out)
    return spec, rows


def load_sweep_folder(out: str | Path) -> tuple[SweepSpec, list[dict], dict]:
    """:func:`load_sweep` and the records ``sweep.json`` holds beside the specification (what
    :func:`lists_warnings` reads), from one read of it."""
    if isinstance(out, str) and not out:  # Path("") is the current folder, never the one meant
        raise EvoWordleError("a sweep folder needs a name, not an empty string")
    out = Path(out)
    path = out / SPEC_FILE
    if not out.is_dir():
        raise EvoWordleError(f"{out} is not a sweep folder")
    if not os.path.lexists(path):
        raise EvoWordleError(f"{out} is not a sweep folder (no {SPEC_FILE})")
    spec, records = read_spec(path)
    csv_path = out / RESULTS_FILE
    if not os.path.lexists(csv_path):
        return spec, [], records
    data = read_capped(csv_path, MAX_RESULTS_BYTES, "results file")
    return spec, list(parse_results(data[: data.rfind(b"\n") + 1], csv_path, spec).values()), records


def parse_results(data: bytes, path: Path, spec: SweepSpec) -> dict[tuple[str, ...], dict]:
    """The rows of ``results.csv`` (``data``: its whole lines; a torn last line, left by an
    interrupted sweep, is the caller's to cut), keyed by :func:`task_key`, each checked against
    ``spec``: the one reader of ``report`` (:func:`load_sweep_folder`) and of a resume
    (:class:`ResultsStore`), so a row one of them refuses the other refuses in the same line.
    A copy of a row (a manual merge) is dropped; anything else malformed is a one-line error
    naming the file and line."""
    text = decode_utf8(data, path, "results file")
    if (bad := control_char(text.replace("\r", ""))) is not None:
        raise EvoWordleError(f"results file {path} holds a control character ({bad!r})")
    reader = csv.DictReader(io.StringIO(text))
    twice = next((c for i, c in enumerate(reader.fieldnames or []) if c in (reader.fieldnames or [])[:i]), None)
    if twice is not None:  # DictReader keeps a twice-named column's last cell: the first would be read as absent
        raise EvoWordleError(f"results file {path} names the column {twice[:40]!r} twice")
    missing = [c for c in spec.columns if c not in (reader.fieldnames or [])]
    if missing:
        raise EvoWordleError(f"results file {path} lacks the column(s) {', '.join(missing)}")
    extra = [c for c in reader.fieldnames or [] if c not in spec.columns]
    if extra:  # rows of another grid: the configurations would merge, one row standing for all
        raise EvoWordleError(f"results file {path} has the column(s) {', '.join(extra)[:80]}, "
                             f"which {SPEC_FILE} does not name: not this sweep's results")
    typed = {k: {format_value(v): v for v in spec.grid[k]} for k in spec.keys}
    limits: dict[tuple, tuple[int, int]] = {}
    rows: dict[tuple[str, ...], dict] = {}
    for raw in reader:
        if None in raw or any(v is None for v in raw.values()):  # whole lines are written: a damaged one
            cells = sum(v is not None for k, v in raw.items() if k is not None) + len(raw.get(None) or [])
            raise EvoWordleError(f"results file {path} line {reader.line_num} has {cells} cells, "
                                 f"not the header's {len(reader.fieldnames or [])}")
        foreign = next((k for k in spec.keys if raw[k] not in typed[k]), None)
        if foreign is not None:  # the grid cannot have made it: an edited or mixed folder, never skipped
            raise EvoWordleError(f"results file {path} line {reader.line_num}: {foreign} = {raw[foreign][:40]!r} "
                                 f"is not in {SPEC_FILE}'s grid ({', '.join(typed[foreign])[:80]})")
        config = tuple(raw[k] for k in spec.keys)
        try:
            row = _read_row(raw, spec, typed, limits, config)
        except (ValueError, RecursionError) as exc:
            raise EvoWordleError(f"results file {path} line {reader.line_num}: {str(exc)[:80]}") from None
        key = (*config, str(row["seed"]))  # task_key's: a seed written "00" is seed 0's row
        if key in rows:  # a copy (a manual merge) is dropped; another figure for the same bench is no copy
            if any(row[c] != rows[key][c] for c in _FIGURES):
                raise EvoWordleError(f"results file {path} line {reader.line_num}: a second row for the same "
                                     "configuration and seed with other figures (two results of one bench)")
            continue
        rows[key] = row
    return rows


def _read_row(raw: dict, spec: SweepSpec, typed: dict, limits: dict, config: tuple) -> dict:
    """One line of results.csv as a row: its grid values as the specification types them
    (``typed``: text -> value per key), its figures parsed and checked against the bounds of its
    configuration ``config`` (computed once per configuration into ``limits``); ValueError
    naming the first thing wrong."""
    row = {k: typed[k][raw[k]] for k in spec.keys}
    games = int(raw["games"])
    if not 1 <= games <= MAX_GAMES_PER_ROW:
        raise ValueError(f"games = {games}")
    row.update(
        seed=int(raw["seed"]), bench_seed=int(raw["bench_seed"]), games=games,
        mean=float(raw["mean"]), win_rate=float(raw["win_rate"]), fail_rate=float(raw["fail_rate"]),
        worst_guesses=int(raw["worst_guesses"]), seconds=float(raw["seconds"]),
        histogram=_histogram(raw["histogram"], games),
        version=raw["version"],
    )
    if config not in limits:
        limits[config] = _limits(spec, row)
    _check_figures(row, spec, limits[config])
    return row


def summarize(spec: SweepSpec, rows: list[dict]) -> list[dict]:
    """One entry per configuration (grid order) with at least one row.

    ``ci95`` is the half-width of the 95 % t interval over seeds; with a single seed it is
    computed from that bench's games instead (``ci_basis`` says which: ``"seeds"`` or
    ``"games"``; a partial sweep can hold both, and every output names it beside ``ci95``).
    So it is when every seed's bench scored the very same histogram: a deterministic solver on
    every answer plays the same games at each seed, and those copies gave "± 0.000 over seeds"
    for a mean that one seed gave "± 0.037 over games" (``fail_ci95`` is then None, as for one seed).
    """
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(tuple(format_value(row[k]) for k in spec.keys), []).append(row)
    out = []
    for config in spec.configs():
        group = groups.get(tuple(format_value(config[k]) for k in spec.keys))
        if not group:
            continue
        group = sorted(group, key=lambda r: r["seed"])
        mean, ci = mean_ci([r["mean"] for r in group])
        fail, fail_ci = mean_ci([r["fail_rate"] for r in group])
        basis = "seeds"
        if all(r["histogram"] == group[0]["histogram"] for r in group):  # one seed, or copies of one bench
            ci, basis = histogram_ci(group[0]["histogram"]), "games"
            fail_ci = float("nan") if len(group) > 1 else fail_ci
        per_seed = {r["games"] for r in group}
        out.append({
            **config,
            "seeds": len(group),
            "games_per_seed": per_seed.pop() if len(per_seed) == 1 else None,  # each bench plays the same K
            "games": sum(r["games"] for r in group),  # all seeds together: seeds × games_per_seed
            "mean": mean,
            "ci95": ci,
            "ci_basis": basis,
            "fail_rate": fail,
            "fail_ci95": fail_ci,
            "win_rate": float(np.mean([r["win_rate"] for r in group])),
            "worst_guesses": max(r["worst_guesses"] for r in group),
            "seconds": float(np.mean([r["seconds"] for r in group])),
            "seed_means": [r["mean"] for r in group],
        })
    return out


def best_config(summary: list[dict]) -> dict | None:
    """Lowest mean guesses; ties go to the lower fail rate, then grid order."""
    return min(summary, key=lambda s: (s["mean"], s["fail_rate"]), default=None)


#: Grid keys that change what a game scores: a failed game scores the guess cap, so a lower
#: cap lowers the mean by itself.  Means under different values of these are not comparable.
SCORING_KEYS = ("max_guesses",)


def scoring_keys(summary: list[dict]) -> list[str]:
    """The :data:`SCORING_KEYS` that take more than one value in ``summary``."""
    return [k for k in SCORING_KEYS if len({format_value(s[k]) for s in summary if k in s}) > 1]


def best_configs(summary: list[dict]) -> list[dict]:
    """The best configuration of each group of comparable ones: one group, unless the grid
    sweeps a key that changes the scoring rule (the guess cap), then one per value of it."""
    keys = scoring_keys(summary)
    groups: dict[tuple, list[dict]] = {}
    for s in summary:
        groups.setdefault(tuple(format_value(s[k]) for k in keys), []).append(s)
    return [best_config(g) for g in groups.values()]


def restrict(spec: SweepSpec, summary: list[dict], where: dict[str, object]) -> tuple[SweepSpec, list[dict]]:
    """The slice of a sweep where each key of ``where`` takes its one value: a spec whose grid
    holds only that value, and the summary rows that have it.  This lets a figure show one guess
    cap (or one value of any third key) of a wider sweep instead of mixing means that do not compare."""
    grid = dict(spec.grid)
    for key, value in where.items():
        if key not in grid:
            raise EvoWordleError(f"--where {key}: the sweep has no parameter {key!r} (it has: {', '.join(spec.keys)})")
        match = [v for v in grid[key] if format_value(v) == format_value(value)]
        if not match:
            raise EvoWordleError(f"--where {key}={format_value(value)}: the sweep's {key} is "
                                 f"{', '.join(format_value(v) for v in grid[key])}")
        grid[key] = match[:1]
    rows = [s for s in summary if all(format_value(s[k]) == format_value(v) for k, v in where.items())]
    return replace(spec, grid=grid), rows


def parse_where(items: list[str]) -> dict[str, object]:
    """``["max_guesses=6", …]`` (``--where``) → ``{"max_guesses": 6, …}``: one value per key."""
    out: dict[str, object] = {}
    for item in items:
        key, values = parse_grid_arg(item, "--where") if "=" in item else ("", [])
        if len(values) != 1 or key in out:
            raise EvoWordleError(f"--where takes one value per key (key=value), not {item!r}")
        out[key] = values[0]
    return out


def _not_comparable(keys: list[str]) -> str:
    """Why ``report`` names no overall best when the grid sweeps ``keys``."""
    return (f"no overall best: a failed game scores the guess cap, so means under different {' and '.join(keys)} "
            "are not comparable (a lower cap lowers the mean); the best is marked within each")


#: What :func:`format_report` writes (``report --format``).
REPORT_FORMATS = ("text", "markdown", "csv", "json")


def _per_seed(s: dict) -> str:
    """One bench's games of a summary row ("mixed" if its benches differ: never a sum)."""
    k = s.get("games_per_seed", s["games"] // s["seeds"] if s["games"] % s["seeds"] == 0 else None)
    return "mixed" if k is None else str(k)


def format_report(spec: SweepSpec, summary: list[dict], fmt: str = "text", total: int | None = None) -> str:
    """The report table as text, Markdown, CSV or JSON."""
    as_choice("format", fmt, REPORT_FORMATS)  # an unknown one ("xml") was printed as text
    keys = spec.keys
    split = scoring_keys(summary)  # swept keys that change the scoring rule: no best across them
    bests = best_configs(summary)
    best = None if split else best_config(summary)

    def label(s: dict) -> str:
        """The row's mark: "best", or "best at max_guesses=6" when each cap has its own."""
        if not any(s is b for b in bests):
            return ""
        return "best" + (" at " + ", ".join(f"{k}={format_value(s[k])}" for k in split) if split else "")

    if fmt == "json":  # strict JSON: an interval that one seed or one game cannot give is null, never NaN
        strict = [{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in s.items()} for s in summary]
        doc = {"spec": spec.as_dict(), "summary": strict, "best": None if best is None else strict[summary.index(best)]}
        if split:
            doc.update(best_within=[strict[summary.index(b)] for b in bests], best_note=_not_comparable(split))
        return json.dumps(doc, indent=2)
    # "ci over": whether a row's interval is over its seeds or, with one seed, over its games;
    # "games/seed": one bench's games (a bare "games" of seeds × K read as games per seed)
    header = [*keys, "seeds", "games/seed", "mean", "ci95", "ci over", "fail %", "win %", "worst", "s/bench"]

    def cells(s: dict) -> list[str]:
        ci = "n/a" if math.isnan(s["ci95"]) else f"{s['ci95']:.3f}"
        return [*(format_value(s[k]) for k in keys), str(s["seeds"]), _per_seed(s), f"{s['mean']:.3f}", ci,
                s["ci_basis"], f"{100 * s['fail_rate']:.2f}", f"{100 * s['win_rate']:.2f}", str(s["worst_guesses"]),
                f"{s['seconds']:.1f}"]

    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([*keys, "seeds", "games_per_seed", "games", "mean", "ci95", "ci_basis", "fail_rate", "win_rate",
                    "worst_guesses", "seconds"])
        for s in summary:
            w.writerow([*(format_value(s[k]) for k in keys), s["seeds"], _per_seed(s), s["games"], repr(s["mean"]),
                        repr(s["ci95"]), s["ci_basis"], repr(s["fail_rate"]), repr(s["win_rate"]), s["worst_guesses"],
                        repr(s["seconds"])])
        return buf.getvalue().rstrip("\n")
    rows = [cells(s) for s in summary]
    lines = []
    if fmt == "markdown":
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "|".join("---:" if i >= len(keys) else "---" for i in range(len(header))) + "|")
        for r, s in zip(rows, summary):
            mark = f" **{label(s)}**" if label(s) else ""
            lines.append("| " + " | ".join(r) + mark + " |")
    else:
        title = f"sweep of {spec.solver}: {count(len(summary), 'configuration')}"
        if total is not None:
            title += f", {sum(s['seeds'] for s in summary)} of {total} benches done"
        lines.append(title)
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)] if rows else map(len, header)
        widths = list(widths)
        lines.append("  ".join(h.rjust(w) for h, w in zip(header, widths)))
        for r, s in zip(rows, summary):
            lines.append("  ".join(c.rjust(w) for c, w in zip(r, widths)) + (f"  <- {label(s)}" if label(s) else ""))
    if bests:
        lines.append("")
    for b in bests:
        cfg = ", ".join(f"{k}={format_value(b[k])}" for k in keys)
        ci = "" if math.isnan(b["ci95"]) else f" ± {b['ci95']:.3f}"
        lines.append(f"{label(b)}: {cfg}: mean {b['mean']:.3f}{ci} guesses (95 % interval over {b['ci_basis']}), "
                     f"{100 * b['fail_rate']:.2f} % {spec.settings_for({k: b[k] for k in keys}).fail_text()}")
    if split and bests:
        lines.append(_not_comparable(split))
    return "\n".join(lines)
