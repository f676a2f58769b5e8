"""Optuna studies over a solver's parameters, reported honestly on answers they never saw.

A trial benches the solver on the *training* answers of a seeded train / validation / test
split, in growing steps (100, 300, 1,000 games, then all), reporting the running mean after
each so a pruner can stop bad trials early.  Every trial plays the same answers in the same
order with the same per-game seeds (common random numbers), so trials differ only by their
parameters and the comparison between them is paired.  The study lives in an Optuna storage
(SQLite by default), so a killed run resumes and several processes can share one study.

After the search the best trials are re-benched on the *validation* answers with repeats; the
winner is benched once on the *test* answers beside the solver's current defaults, game by
game with the same seeds, and the paired difference gets a 95 % interval.
"""

from __future__ import annotations

import copy
import datetime
import json
import logging
import math
import re
import time
import uuid
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .artefacts import PARAMS_FORMAT, SETTING_KEYS, STRATEGY_FORMAT, check_lists, replay_kind, settings_of
from .bench import derived_seeds, run_bench
from .context import Context
from .errors import EvoWordleError
from .files import check_value, control_char, decode_utf8, parse_json, read_capped, read_json
from .game import Settings
from .params import as_int, as_list
from .split import Split, split_answers
from .stats import mean_ci, paired, t975  # noqa: F401 - paired is part of tune's API

PRUNERS = ("median", "halving", "none")
#: The study name ``tune`` uses without ``--study`` (its flag default, kept literal there so the
#: command line starts without importing this module); ``report`` picks it among several.
DEFAULT_STUDY = "evo-wordle"
DEFAULT_STEPS = (100, 300, 1000)
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_MAX_SPACE_BYTES = 64 * 1024
_SALT = 0x7E5


def _optuna():
    try:
        import optuna
    except ImportError:  # pragma: no cover - optuna is a core dependency
        raise EvoWordleError("tune needs optuna: pip install optuna") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


# ------------------------------------------------------------------------------------ the space


@dataclass(frozen=True)
class Param:
    """One searched parameter: ``int`` / ``float`` in [low, high] (``log`` scale or not), or ``cat``."""

    name: str
    kind: str
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple = ()

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise EvoWordleError(f"bad parameter name {self.name!r} in the search space")
        if self.kind == "cat":
            if len(self.choices) == 1:
                raise EvoWordleError(f"{self.name}={self.choices[0]} is one value, nothing to search: "
                                     f"use --fix {self.name}={self.choices[0]}")
            if len(self.choices) < 1 or len(set(map(repr, self.choices))) != len(self.choices):
                raise EvoWordleError(f"{self.name}: give two or more distinct choices")
            return
        if self.kind not in ("int", "float"):
            raise EvoWordleError(f"{self.name}: unknown kind {self.kind!r}")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                   for v in (self.low, self.high)):
            raise EvoWordleError(f"{self.name}: bounds must be finite numbers")
        if self.low > self.high:
            raise EvoWordleError(f"{self.name}: low {self.low} is above high {self.high}")
        if self.log and self.low <= 0:
            raise EvoWordleError(f"{self.name}: a log scale needs a low bound above 0, not {self.low}")

    def suggest(self, trial):
        """This parameter's value for an optuna ``trial`` (int, float or categorical)."""
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log)
        if self.kind == "float":
            return trial.suggest_float(self.name, float(self.low), float(self.high), log=self.log)
        return trial.suggest_categorical(self.name, list(self.choices))

    def corner(self):
        """A legal value (the low end or first choice), used to check the space before any trial."""
        return self.extremes()[0]

    def extremes(self) -> tuple:
        """The values checked before any trial: both bounds, or every choice."""
        if self.kind == "cat":
            return self.choices
        cast = int if self.kind == "int" else float
        return cast(self.low), cast(self.high)


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise EvoWordleError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise EvoWordleError(f"{text!r} is not a finite number")
    return value


def parse_param(text: str) -> Param:
    """``name=lo:hi[:log]`` (integers if both bounds are whole numbers) or ``name=a|b|c``."""
    from .sweep import parse_value

    name, sep, body = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not body.strip():
        raise EvoWordleError(f"--space expects name=low:high[:log] or name=a|b, not {text!r}")
    if "|" not in body and ":" not in body:  # population=abc read as one choice: "use --fix population=abc"
        value = body.strip()
        raise EvoWordleError(f"--space {text!r}: {value!r} is neither a range nor choices: expected "
                             f"{name}=LOW:HIGH[:log] or {name}=A|B; to hold one value, use --fix {name}={value}")
    if "|" in body:
        choices = as_list("--space", body, sep="|", what=text, item="choice")
        return Param(name, "cat", choices=tuple(parse_value(v) for v in choices))
    parts = body.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2].strip() not in ("log", "lin")):
        raise EvoWordleError(f"--space: {text!r} is not name=low:high or name=low:high:log")

    def bound(which: str, part: str) -> int | float:
        try:
            return _number(part.strip())
        except EvoWordleError as exc:  # "'abc' is not a number" alone named neither the item nor the form
            raise EvoWordleError(f"--space {text!r}: the {which} bound {exc}: expected {name}=LOW:HIGH[:log] "
                                 "with numbers as bounds") from None

    low, high = bound("low", parts[0]), bound("high", parts[1])
    kind = "int" if isinstance(low, int) and isinstance(high, int) else "float"
    return Param(name, kind, low, high, log=len(parts) == 3 and parts[2].strip() == "log")


def parse_space(text: str) -> dict[str, Param]:
    """A comma-separated list of :func:`parse_param` items."""
    if not isinstance(text, str) or not text.strip():
        raise EvoWordleError("--space is empty")
    return _unique([parse_param(t) for t in as_list("--space", text)])


def _unique(params: list[Param]) -> dict[str, Param]:
    out: dict[str, Param] = {}
    for p in params:
        if p.name in out:
            raise EvoWordleError(f"parameter {p.name!r} appears twice in the search space")
        out[p.name] = p
    return out


def load_space(path: str | Path) -> dict[str, Param]:
    """A space from a JSON or TOML file: ``{name: {low, high, log?, int?} | [choice, …]}``."""
    path = Path(path)
    text = decode_utf8(read_capped(path, _MAX_SPACE_BYTES, "space file"), path, "space file")
    if path.suffix.lower() == ".toml":
        import tomllib

        try:
            data = tomllib.loads(text)
        except (ValueError, RecursionError) as exc:
            raise EvoWordleError(f"space file {path} is not valid TOML: {exc}") from None
        check_value(data, path, "space file")
    else:
        data = parse_json(text, path, "space file")
    if not isinstance(data, dict) or not data:
        raise EvoWordleError(f"space file {path} must map parameter names to ranges or choices")
    params = []
    for name, spec in data.items():
        if isinstance(spec, list):
            params.append(Param(str(name), "cat", choices=tuple(spec)))
        elif isinstance(spec, dict) and {"low", "high"} <= set(spec) <= {"low", "high", "log", "int"}:
            low, high = spec["low"], spec["high"]
            is_int = spec.get("int", isinstance(low, int) and isinstance(high, int))
            params.append(Param(str(name), "int" if is_int else "float", low, high, bool(spec.get("log", False))))
        else:
            raise EvoWordleError(f"space file {path}: {name!r} needs {{low, high[, log]}} or a list of choices")
    return _unique(params)


# ------------------------------------------------------------------------------------- the spec


@dataclass
class TuneSpec:
    """Everything that decides a study's trials (stored in the study; a resume must match)."""

    solver: str
    space: dict[str, Param]
    settings: dict = field(default_factory=lambda: Settings().as_dict())
    fixed: dict = field(default_factory=dict)  # parameters held constant in every trial
    seed: int = 0
    split_seed: int = 0
    steps: tuple[int, ...] = DEFAULT_STEPS
    pruner: str = "median"
    allowed: str | None = None
    answers: str | None = "nyt"  # None: every allowed word (the default with a custom allowed list)

    def __post_init__(self) -> None:
        if self.pruner not in PRUNERS:
            raise EvoWordleError(f"--pruner must be one of {', '.join(PRUNERS)}, not {self.pruner!r}")
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in self.steps):
            raise EvoWordleError("--steps must be whole numbers ≥ 1")
        if list(self.steps) != sorted(set(self.steps)):
            raise EvoWordleError("--steps must increase")
        for name in ("seed", "split_seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EvoWordleError(f"--{name.replace('_', '-')} must be a whole number ≥ 0, not {value!r}")
        overlap = set(self.space) & set(self.fixed)
        if overlap:
            raise EvoWordleError(f"{sorted(overlap)[0]!r} is both searched and fixed")

    def as_dict(self) -> dict:
        """The JSON form of the specification."""
        d = asdict(self)
        d["space"] = {k: asdict(v) for k, v in self.space.items()}
        d["steps"] = list(self.steps)
        return json.loads(json.dumps(d))

    @classmethod
    def from_dict(cls, data: dict) -> TuneSpec:
        """A specification from its JSON form."""
        data = dict(data)
        data["space"] = {k: Param(**{**v, "choices": tuple(v.get("choices", ()))}) for k, v in data["space"].items()}
        data["steps"] = tuple(data["steps"])
        return cls(**data)

    def game_settings(self) -> Settings:
        """The game :class:`~evo_wordle.game.Settings` every trial plays under."""
        return Settings(**self.settings)

    def context(self) -> Context:
        """The worker's :class:`~evo_wordle.context.Context` for these word lists (built once per process)."""
        from .executors import worker_context

        return worker_context(self.allowed, self.answers)

    def split(self, ctx: Context) -> Split:
        """The seeded train/validation/test split of the answers."""
        return split_answers(ctx.words.answer_index, self.split_seed)

    def check(self, ctx: Context) -> None:
        """Refuse an unknown solver or parameter before any trial runs."""
        from .solvers import make_solver

        settings = self.game_settings()
        if settings.daily:
            raise EvoWordleError("tune plays independent games; daily mode (P2/P3) is not supported")
        test = len(self.split(ctx).test)
        if test < 2:  # one game has no interval: the report would say [nan, nan]
            raise EvoWordleError(f"the test part of the split holds {test} answer: tune compares the winner with "
                                 "the defaults there game by game and needs at least 2 (a longer answer list)")
        low = {p.name: p.corner() for p in self.space.values()}
        high = {p.name: p.extremes()[-1] for p in self.space.values()}
        # the low ends, then every other bound and choice beside them, then all high ends: a value
        # no trial could play is refused now, not in the middle of the study
        if self.fixed:  # blamed on the space's first values before ("refuses mutation=0.0: unknown … 'foo'")
            try:
                make_solver(self.solver, ctx, settings, **self.fixed)
            except EvoWordleError as exc:
                values = ", ".join(f"{k}={v}" for k, v in self.fixed.items())
                raise EvoWordleError(f"--fix: the solver refuses {values}: {exc}") from None
        tried = [(low, list(low)), *(({**low, p.name: v}, [p.name]) for p in self.space.values()
                                     for v in p.extremes()[1:]), (high, list(high))]
        for params, named in tried:
            try:
                make_solver(self.solver, ctx, settings, **{**self.fixed, **params})
            except EvoWordleError as exc:
                values = ", ".join(f"{k}={params[k]}" for k in named)
                raise EvoWordleError(f"--space: the solver refuses {values}: {exc}") from None
        self._check_read([{**self.fixed, **params} for params, _ in tried])

    def _check_read(self, tried: list[dict]) -> None:
        """A fixed or searched parameter that no tried combination reads is refused: every trial
        would play the run without it (``--fix pressure=3`` beside tournament selection)."""
        from .solvers import SOLVERS

        family = SOLVERS[self.solver]
        unread = [family.unread_params(params) for params in tried]
        for key in [*self.fixed, *self.space]:
            if all(key in u for u in unread):
                why = unread[0][key]
                flag = "--fix" if key in self.fixed else "--space"
                fixes = why.give("--fix {key}={value}")
                raise EvoWordleError(f"{flag}: {key} {why.why}, so no trial would read it: give {fixes}, "
                                     f"search those, or drop {key}")


def training_plan(spec: TuneSpec, train: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """The training games in steps: ``(answers, bench seed)`` per step, the same for every trial.

    The order is a seeded shuffle of the training answers, so the first step is a fair sample;
    each step's per-game seeds derive from ``spec.seed`` and the step index only.
    """
    order = np.random.default_rng(np.random.SeedSequence([spec.seed, _SALT])).permutation(train)
    bounds = [s for s in spec.steps if s < len(order)] + [len(order)]
    seeds = np.random.SeedSequence([spec.seed, _SALT, 1]).generate_state(len(bounds), dtype=np.uint32)
    plan, lo = [], 0
    for hi, s in zip(bounds, seeds):
        plan.append((order[lo:hi], int(s)))
        lo = hi
    return plan


def play_scores(ctx: Context, spec: TuneSpec, params: dict, answers: np.ndarray, seed: int,
                jobs: int = 1) -> np.ndarray:
    """Each game's score for ``params`` (on top of the spec's fixed ones), one bench."""
    result = run_bench(ctx, spec.solver, spec.game_settings(), answers, seed, {**spec.fixed, **params}, jobs=jobs)
    return result.scores().astype(float)


def make_objective(spec: TuneSpec, ctx: Context) -> Callable:
    """The Optuna objective: training mean guesses, reported after every step."""
    optuna = _optuna()
    plan = training_plan(spec, spec.split(ctx).train)

    def objective(trial) -> float:
        params = {p.name: p.suggest(trial) for p in spec.space.values()}
        earlier = same_trial(trial.study, params)
        if earlier is not None:  # the same games with the same seeds: its figures, not a replay
            trial.set_user_attr("same_as", earlier.number)
            if earlier.state == optuna.trial.TrialState.COMPLETE:
                trial.set_user_attr("games", 0)
                return float(earlier.value)
        known = {} if earlier is None else dict(earlier.intermediate_values)  # games -> running mean
        total = sum(len(a) for a, _ in plan)
        games, new, prefix = 0, [], (0, 0.0)  # prefix: games and mean taken from ``earlier``
        for answers, seed in plan:
            games += len(answers)
            if games in known and not new:
                prefix = (games, known[games])
                mean = prefix[1]
            else:
                new.append(play_scores(ctx, spec, params, answers, seed))
                played = np.concatenate(new)
                mean = (float(played.mean()) if not prefix[0]
                        else (prefix[0] * prefix[1] + float(played.sum())) / games)
            trial.set_user_attr("games", games - prefix[0])
            trial.report(mean, games)
            if games < total and trial.should_prune():
                raise optuna.TrialPruned()
        return mean

    return objective


def same_trial(study, params: dict):
    """The finished trial of ``study`` that had exactly ``params``, else the pruned one that got
    furthest, else None.

    Every trial plays the same games with the same seeds, so a repeated point (frequent in
    integer and categorical spaces, where TPE proposes its favourites again) would score the
    same: a repeat of a finished point takes its figure, and a repeat of a pruned one reports
    the running means already known and plays only the games after them, if the pruner now
    lets it go on."""
    optuna = _optuna()
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    same = [t for t in study.get_trials(deepcopy=False, states=states) if t.params == params]
    if not same:
        return None
    return min(same, key=lambda t: (t.state != optuna.trial.TrialState.COMPLETE,
                                    -max(t.intermediate_values, default=0), t.number))


# ------------------------------------------------------------------------------------ the study

#: Most trials one study runs, as a sweep's most configurations (sweep.MAX_CONFIGS): ``--trials
#: 10**12`` was accepted and began a study that could never finish (a usage error now).
MAX_TRIALS = 10_000


def check_storage_url(url: str, *, writes: bool = False) -> None:
    """Refuse a storage URL that cannot work, before anything runs or is written.  SQLite writes
    its file in place (it cannot be replaced atomically), so a symlink there, dangling or not,
    is refused rather than written through, and so is anything but a regular file.  ``writes``
    (tune, which makes its study there): an existing file must be empty, an SQLite database
    without tables or one holding Optuna's (:func:`require_study_database`), never another
    program's database, which Optuna would add its tables to."""
    from .outputs import special

    if not isinstance(url, str) or "://" not in url:
        raise EvoWordleError(f"--storage must be a database URL such as sqlite:///tune.db, not {url!r}")
    if url.startswith("sqlite:///"):
        db = Path(url[len("sqlite:///"):]).expanduser()
        if not db.parent.is_dir():
            raise EvoWordleError(f"the folder of the study database does not exist: {db.parent}")
        if db.is_symlink():
            raise EvoWordleError(f"the study database {db} is a symlink; refusing to write through it "
                                 "(give the file itself)")
        if (kind := special(db)) is not None:
            raise EvoWordleError(f"the study database {db} is {kind}, not a regular file")
        if writes:
            require_study_database(db, new=True)


def _storage(url: str):
    _optuna()
    from optuna.storages import RDBStorage, RetryHeartbeatStaleTrialCallback

    check_storage_url(url)
    for attempt in range(1, STORAGE_TRIES + 1):
        try:
            # Heartbeats let a re-run mark a killed process's trial as failed; the callback enqueues
            # its parameters again, so no trial is lost or counted twice.
            return RDBStorage(url, heartbeat_interval=5, grace_period=15,
                              heartbeat_stale_trial_callback=RetryHeartbeatStaleTrialCallback(max_retry=2))
        except Exception as exc:  # sqlalchemy/optuna errors: bad URL, unreachable server, unreadable file
            first = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
            if attempt < STORAGE_TRIES and any(text in first for text in SCHEMA_RACE):
                time.sleep(0.25 * attempt)  # another tune is making the schema: it is there at the next try
                continue
            raise EvoWordleError(f"cannot open the study storage {url}: {first}") from None


#: How often a storage is opened while another process makes its schema (see :data:`SCHEMA_RACE`).
STORAGE_TRIES = 4
#: What opening a new study database says when another tune makes its tables at the same moment:
#: two `tune --out DIR` started together (a documented way to share a study) ended one of them
#: with "cannot open the study storage ...: table studies already exists", exit 2.
SCHEMA_RACE = ("already exists", "UNIQUE constraint failed: alembic_version", "database is locked")
#: The tables Optuna's RDB storage makes (and alembic's version table): a new database holding
#: only some of them is a study whose schema another tune is writing at this moment.
OPTUNA_TABLES = frozenset({
    "alembic_version", "studies", "study_directions", "study_system_attributes", "study_user_attributes",
    "trial_heartbeats", "trial_intermediate_values", "trial_params", "trial_system_attributes",
    "trial_user_attributes", "trial_values", "trials", "version_info",
})


def _pruner(name: str, first_step: int):
    optuna = _optuna()
    if name == "median":
        return optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0)
    if name == "halving":
        return optuna.pruners.SuccessiveHalvingPruner(min_resource=first_step, reduction_factor=3)
    return optuna.pruners.NopPruner()


def open_study(spec: TuneSpec, storage: str, name: str, sampler_seed: int | None = None):
    """Create the study or load it, refusing one made for another spec."""
    optuna = _optuna()
    sampler = optuna.samplers.TPESampler(seed=spec.seed if sampler_seed is None else sampler_seed)
    study = optuna.create_study(
        study_name=name, storage=_storage(storage), sampler=sampler, direction="minimize",
        pruner=_pruner(spec.pruner, spec.steps[0]), load_if_exists=True,
    )
    stored = study.user_attrs.get("spec")
    # list files are named by path in the spec: what they held is recorded too (an edited file
    # would mix trials of two lists in one study)
    from .artefacts import list_file_digests

    lists = list_file_digests(spec.allowed, spec.answers)
    if stored is None:
        check_trials(study)  # a new study has no trial; one with trials and no spec was edited
        study.set_user_attr("spec", spec.as_dict())
        if lists is not None:
            study.set_user_attr("lists_sha256", lists)
    elif stored != spec.as_dict():
        raise EvoWordleError(f"study {name!r} in {storage} was made with other settings; use another --study name")
    elif lists is not None and study.user_attrs.get("lists_sha256", lists) != lists:
        raise EvoWordleError(f"study {name!r} in {storage} was made with other word lists (their content "
                             "differs); use another --study name")
    else:
        check_trials(study)  # before any trial is added to it, or takes an earlier one's figure
    return study


def counted(study) -> int:
    """Trials that count toward ``--trials``: finished or pruned (failed ones are retried)."""
    optuna = _optuna()
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return len(study.get_trials(deepcopy=False, states=states))


#: Seconds between looks at the study while a process waits for trials other processes play.
_POLL_SECONDS = 0.5
#: A running trial not yet tagged with its run is a live worker's for this long after its start
#: (the tag is its objective's first step); older, it is a killed process's, never to finish.
_UNTAGGED_SECONDS = 10.0


class _Surplus(Exception):
    """A trial started when the study's other trials already fill ``--trials``: ended unplayed."""


def _census(study, run: str, number: int | None = None) -> tuple[int, int, int]:
    """(counted trials, running ones, waiting ones) of ``study``; with ``number``, only the
    running and waiting trials numbered below it (the ones that came first).

    Running trials are those of ``run`` (this command's workers) and untagged ones just
    started: a running trial of another run is a killed process's (failed and queued again
    only once its heartbeat is stale, or never if it died before its first heartbeat) or
    another command's sharing the study, and is not waited for."""
    optuna = _optuna()
    state = optuna.trial.TrialState
    trials = study.get_trials(deepcopy=False)
    first = [t for t in trials if number is None or t.number < number]
    now = datetime.datetime.now()

    def live(t) -> bool:
        tag = t.user_attrs.get("run")
        return tag == run or (tag is None and t.datetime_start is not None
                              and (now - t.datetime_start).total_seconds() < _UNTAGGED_SECONDS)

    return (sum(t.state in (state.COMPLETE, state.PRUNED) for t in trials),
            sum(t.state == state.RUNNING and t.number != number and live(t) for t in first),
            sum(t.state == state.WAITING for t in first))


def _wait(study) -> None:
    """Let time pass while other processes play; a dead process's trial is failed (and queued
    again by the storage's retry callback) once its heartbeat is stale."""
    optuna = _optuna()
    optuna.storages.fail_stale_trials(study)
    time.sleep(_POLL_SECONDS)


def _reserve(study, run: str, number: int, trials: int) -> bool:
    """Whether trial ``number`` (just started) may play: the trials that came before it
    (lower numbers, running or waiting) and every finished one leave room under ``trials``.

    Trial numbers are handed out one at a time by the storage, so of any set of trials that
    all pass this test the highest-numbered one saw every other one, and together they are at
    most ``trials``: no count of workers of one run can overshoot.  While a trial that came
    first is still running (and might fail, freeing its place) this one waits for it."""
    while True:
        done, running, waiting = _census(study, run, number)
        if done + running + waiting < trials:
            return True
        if not running:
            return False
        _wait(study)


def optimize(spec_dict: dict, storage: str, name: str, trials: int, sampler_seed: int,
             run: str | None = None) -> int:
    """Run trials until the study holds ``trials`` counted ones (one process; picklable).

    ``run`` tags each trial this process starts (``user_attrs["run"]``; a new tag if None).
    The processes of one run wait for each other's running trials, so together they stop at
    exactly ``trials`` (:func:`_reserve`), and the process that started a pool of them can
    queue again the trials its workers were playing when Ctrl-C stopped them
    (:func:`requeue_running`).  A Ctrl-C here queues the trial it interrupted again
    (:func:`requeue`): a resumed study plays it with the same parameters."""
    optuna = _optuna()
    spec = TuneSpec.from_dict(spec_dict)
    ctx = spec.context()
    run = run or uuid.uuid4().hex  # the trials this process waits for (see _census)
    study = open_study(spec, storage, name, sampler_seed)
    done = len(study.get_trials(deepcopy=False))
    if done:  # resumed: a sampler seeded as at the start would propose the study's first points again
        seed = int(np.random.SeedSequence([sampler_seed, _SALT, done]).generate_state(1)[0])
        study.sampler = optuna.samplers.TPESampler(seed=seed)
    if counted(study) < trials:
        objective, current = make_objective(spec, ctx), []

        def tracked(trial) -> float:
            current[:] = [trial.number]
            trial.set_user_attr("run", run)
            if not _reserve(trial.study, run, trial.number, trials):
                trial.set_user_attr("surplus", True)
                raise _Surplus(trial.number)
            return objective(trial)

        quiet = _QuietOwnErrors()
        log = logging.getLogger("optuna.study._optimize")  # where Optuna reports failed trials
        log.addFilter(quiet)
        try:
            while True:  # one trial at a time, started only while the others leave room for it
                done, running, _ = _census(study, run)
                if done >= trials:
                    break
                if done + running >= trials:  # the trials being played may fill the study
                    _wait(study)
                    continue
                study.optimize(tracked, n_trials=1, catch=(_Surplus,))
                current.clear()
        except KeyboardInterrupt:
            requeue(study, current, set(spec.space))
            raise
        finally:
            log.removeFilter(quiet)
    return counted(study)


def requeue(study, numbers, names: set[str]) -> list[int]:
    """Queue again, with the same parameters, the trials ``numbers`` that Ctrl-C interrupted:
    one still ``RUNNING`` (the interrupt landed in Optuna's bookkeeping) is failed first; one
    that finished or was pruned before the interrupt landed, that never got all its parameters
    (no game played), or that is queued again already, is left alone.  Returns the numbers
    queued again.  (A killed process's trial is queued again by the heartbeat callback of
    :func:`_storage` instead.)"""
    optuna = _optuna()
    fail = optuna.trial.TrialState.FAIL
    # Optuna's own retry: the same WAITING trial and failed_trial / retry_history bookkeeping
    # as the heartbeat's retry of a killed process's trial (no retry limit here)
    retry = optuna.storages.RetryHeartbeatStaleTrialCallback()
    for n in numbers:
        study.tell(n, state=fail, skip_if_finished=True)
    trials = study.get_trials(deepcopy=False)
    queued = {n for t in trials for n in retry.retry_history(t)}
    out = []
    for t in trials:
        if t.number in numbers and t.state == fail and set(t.params) == names and t.number not in queued:
            bare = copy.deepcopy(t)
            bare.user_attrs = {}  # its figures (games played, same_as, run) are not the retry's
            retry(study, bare)
            out.append(t.number)
    return out


def requeue_running(study, run: str, names: set[str]) -> list[int]:
    """:func:`requeue` the trials of ``run`` still ``RUNNING``: those of pool workers that were
    stopped (call it once they are dead)."""
    optuna = _optuna()
    running = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,))
    return requeue(study, [t.number for t in running if t.user_attrs.get("run") == run], names)



class _QuietOwnErrors(logging.Filter):
    """Drop Optuna's "trial failed" reports (one with a traceback, one with the value) of a trial
    that failed with the package's own error or Ctrl-C: the error itself ends the run as one line
    ("interrupted" for Ctrl-C)."""

    def __init__(self) -> None:
        super().__init__()
        self.trials: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        number = re.match(r"Trial (\d+) failed", str(record.msg))
        if record.exc_info and isinstance(record.exc_info[1], EvoWordleError | KeyboardInterrupt | _Surplus):
            if number:
                self.trials.add(number.group(1))
            return False
        return not (number and number.group(1) in self.trials)


def run_study(spec: TuneSpec, storage: str, name: str, trials: int, *, jobs: int = 1, executor: str = "local",
              scheduler: str | None = None):
    """Run (or resume) the study until ``trials`` trials are finished or pruned; return it."""
    ctx = spec.context()
    spec.check(ctx)
    trials = as_int("trials", trials, 1, MAX_TRIALS)
    check_storage_url(storage, writes=True)  # once, here: the workers' opens find the study made
    study = open_study(spec, storage, name)
    if jobs <= 1 and executor == "local":
        optimize(spec.as_dict(), storage, name, trials, spec.seed)
        return open_study(spec, storage, name)
    from .executors import make_executor, terminate

    # Each worker has its own sampler stream; the per-game seeds never depend on the worker.
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence([spec.seed, _SALT, 2]).spawn(jobs)]
    # no more workers than trials left: workers starting at once would each start a trial
    # before seeing the others' (the extra ones would end unplayed, see _reserve)
    seeds = seeds[:max(1, trials - counted(study))]
    run = uuid.uuid4().hex
    pool = make_executor(executor, jobs, scheduler)
    try:
        futures = [pool.submit(optimize, spec.as_dict(), storage, name, trials, s, run) for s in seeds]
        for f in futures:
            f.result()
    except BaseException as exc:
        terminate(pool)
        # Ctrl-C: the local workers ignore it and are now dead, their trials left RUNNING; queue
        # them again now (a Dask worker's trial is queued again by its heartbeat going stale)
        if isinstance(exc, KeyboardInterrupt) and executor == "local":
            requeue_running(study, run, set(spec.space))
        raise
    pool.shutdown()
    del study
    return open_study(spec, storage, name)


# ---------------------------------------------------------------------------- the honest report


@dataclass
class Finalist:
    """One of the best trials: its parameters, training mean and a validation mean per repeat."""
    number: int
    params: dict
    train_mean: float
    validation: list[float]  # one mean per repeat

    @property
    def validation_ci(self) -> tuple[float, float]:
        return mean_ci(self.validation)


#: Most training games one trial may record (``games``): a trial plays at most every answer once.
MAX_TRIAL_GAMES = 10_000_000


def _stored_spec(study) -> TuneSpec | None:
    """The specification a study records (None if it records none or a malformed one)."""
    stored = study.user_attrs.get("spec")
    try:
        return TuneSpec.from_dict(stored) if isinstance(stored, dict) else None
    except (EvoWordleError, TypeError, KeyError, AttributeError, ValueError):
        return None


def _in_space(param: Param, value) -> bool:
    if param.kind == "cat":
        return any(value == c and type(value) is type(c) for c in param.choices)
    kinds = int if param.kind == "int" else int | float
    return (isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value)
            and param.low <= value <= param.high)


def check_trials(study) -> None:
    """Refuse a study whose finished or pruned trials hold figures no game could give: a training
    mean (final or running) that is not a mean guess count from 1 to the cap, or a point outside
    the study's own space.  A study database is a file like any other: one edited to a mean of
    0.5 or -inf was reported as the best trial and always made the finalists, and a repeated
    point would take the planted figure as its own (:func:`same_trial`)."""
    optuna = _optuna()
    where = f"study {study.study_name!r}"
    if control_char(study.study_name) is not None:
        raise EvoWordleError("a study's name holds a control character: the study database was edited or damaged")
    spec = _stored_spec(study)
    cap = spec.game_settings().max_guesses if spec is not None else None
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    if "spec" not in study.user_attrs and study.get_trials(deepcopy=False):  # tune records it before any trial
        raise EvoWordleError(f"{where} has trials but records no specification (no cap, no space to check them "
                             "against): the study database was edited or damaged, or tune did not write it")
    for t in study.get_trials(deepcopy=False):
        games = t.user_attrs.get("games", 0)  # summed by games_played: "x" was an internal error
        if isinstance(games, bool) or not isinstance(games, int) or not 0 <= games <= MAX_TRIAL_GAMES:
            raise EvoWordleError(f"{where}: trial {t.number} records {games!r} games played: the study database "
                                 "was edited or damaged")
        if any(control_char(str(k)) is not None or isinstance(v, str) and control_char(v) is not None
               for k, v in t.params.items()):
            raise EvoWordleError(f"{where}: trial {t.number} has a parameter holding a control character: the "
                                 "study database was edited or damaged")
        if t.state not in states:
            continue
        figures = [*([t.value] if t.state == optuna.trial.TrialState.COMPLETE else []),
                   *t.intermediate_values.values()]
        bad = [v for v in figures if isinstance(v, bool) or not isinstance(v, int | float)  # None included
               or not math.isfinite(v) or v < 1 or (cap is not None and v > cap)]
        if bad:
            limit = f"from 1 to {cap}" if cap is not None else "at least 1"
            raise EvoWordleError(f"{where}: trial {t.number} records a training mean of {bad[0]}, "
                                 f"not a mean guess count ({limit}): the study database was edited or damaged")
        outside = [k for k, v in t.params.items()
                   if spec is not None and (k not in spec.space or not _in_space(spec.space[k], v))]
        if outside:
            raise EvoWordleError(f"{where}: trial {t.number} played {outside[0]}="
                                 f"{t.params[outside[0]]!r}, outside the study's space: the study database "
                                 "was edited or damaged")
        missing = [k for k in spec.space if k not in t.params] if spec is not None else []
        if missing:  # every trial samples every searched parameter: it was reported as a point of the space
            raise EvoWordleError(f"{where}: trial {t.number} lacks {missing[0]}, which the study searches: the "
                                 "study database was edited or damaged")


def finalists(study, top: int) -> list[tuple[int, dict, float]]:
    """The ``top`` best finished trials with distinct parameters: (number, params, train mean),
    once the study's figures are checked (:func:`check_trials`)."""
    optuna = _optuna()
    check_trials(study)
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    out, seen = [], set()
    for t in sorted(done, key=lambda t: (t.value, t.number)):
        key = json.dumps(t.params, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((t.number, dict(t.params), float(t.value)))
        if len(out) == top:
            break
    return out


def honest_report(spec: TuneSpec, study, *, top: int = 5, repeats: int = 3, jobs: int = 1) -> dict:
    """Validation repeats for the best trials and the defaults (one run for a deterministic
    solver: its repeats would be copies); the validation winner and the defaults are then benched
    once on the test answers, game by game with the same seeds.

    The defaults take part in the validation round, so a study that found nothing better says so
    (the winner is then the defaults themselves)."""
    ctx = spec.context()
    split = spec.split(ctx)
    best = finalists(study, top)
    if not best:
        raise EvoWordleError("the study has no finished trial yet")
    # a deterministic solver scores the same on every repeat: copies, not repeats, whose interval
    # of 0 read as a validation mean known exactly (bench --repeat runs such a solver once too)
    vseeds = derived_seeds(spec.seed, repeats if _stochastic(spec.solver) else 1)
    entrants = [*best, (-1, {}, float("nan"))]  # -1: the solver's defaults (with the fixed parameters)
    rows = [Finalist(n, p, m, [float(play_scores(ctx, spec, p, split.validation, s, jobs).mean()) for s in vseeds])
            for n, p, m in entrants]
    winner = min(rows, key=lambda r: (r.validation_ci[0], r.number < 0, r.number))
    test_seed = int(np.random.SeedSequence([spec.seed, _SALT, 3]).generate_state(1)[0])
    default = play_scores(ctx, spec, {}, split.test, test_seed, jobs)
    won = default if winner.number < 0 else play_scores(ctx, spec, winner.params, split.test, test_seed, jobs)
    return {
        "solver": spec.solver,
        "settings": spec.settings,
        "split": {"seed": split.seed, **split.sizes()},
        "trials": counted(study),
        "games_played": games_played(study),
        "deterministic": not _stochastic(spec.solver),  # then one validation run, no interval
        # one repeat has no interval: None, never a NaN in the JSON
        "finalists": [{"trial": r.number if r.number >= 0 else "defaults", "params": r.params,
                       "train_mean": None if r.number < 0 else r.train_mean,
                       "validation_mean": r.validation_ci[0],
                       "validation_ci95": r.validation_ci[1] if len(r.validation) > 1 else None,
                       "repeats": len(r.validation)} for r in rows],
        "winner": {"trial": winner.number if winner.number >= 0 else "defaults",
                   "params": {**spec.fixed, **winner.params}},
        # the defaults against themselves is no test (a difference of 0 "detecting" 0): None
        "test": {"seed": test_seed, "winner_mean": float(won.mean()), "default_mean": float(default.mean()),
                 "games": int(len(default)),
                 "winner_minus_default": None if winner.number < 0 else paired(won, default)},
    }


def _stochastic(solver: str) -> bool:
    """Whether the registered solver ``solver`` draws on its seed (a repeat can then differ)."""
    from .solvers import SOLVERS, load_all

    load_all()
    return bool(getattr(SOLVERS.get(solver), "stochastic", True))


def games_played(study) -> int:
    """Training games played by every trial so far (pruned ones count what they played)."""
    return int(sum(t.user_attrs.get("games", 0) for t in study.get_trials(deepcopy=False)))


def surplus(study) -> int:
    """Failed trials that never played: started by a worker when the others' trials already
    filled ``--trials`` (:func:`_reserve`), so ended at once."""
    return sum(bool(t.user_attrs.get("surplus")) for t in study.get_trials(deepcopy=False))


def repeated(study) -> int:
    """Trials that repeated an earlier trial's point and took its figure (:func:`same_trial`)."""
    return sum("same_as" in t.user_attrs for t in study.get_trials(deepcopy=False))


def _scalar(value) -> bool:
    """Whether a parameter value can go in a parameter file (text, a whole or finite number, a flag)."""
    return isinstance(value, str | int | float | bool) and not (isinstance(value, float) and not math.isfinite(value))


def full_params(spec: TuneSpec, ctx: Context, params: dict) -> dict:
    """Every parameter of the solver built with ``params`` (the solver's defaults for the
    others, the opener included), as it describes itself: a parameter file that records them
    replays the solver that was tuned even after a default changes.  Only ``params`` when the
    description does not build the same solver again (a solver whose description holds more
    than its constructor's keywords)."""
    from .solvers import make_solver

    settings = spec.game_settings()
    described = make_solver(spec.solver, ctx, settings, **params).describe()
    full = {k: v for k, v in described.items() if k not in ("solver", "class") and v is not None and _scalar(v)}
    full.update(params)
    try:
        again = make_solver(spec.solver, ctx, settings, **full).describe()
    except (EvoWordleError, TypeError):
        return dict(params)
    return full if again == described else dict(params)


def params_file(report: dict, study_name: str, storage: str, made_for: dict | None = None,
                solver_params: dict | None = None, spec: dict | None = None) -> dict:
    """The parameter file ``bench --params`` reads: ``params`` the tuned (and fixed) ones,
    ``solver_params`` every parameter of that solver (:func:`full_params`), ``made_for`` the
    game and word lists it was tuned for (:func:`evo_wordle.artefacts.made_for`, which a
    replay takes as its settings), and the study's spec (seeds, space) in the provenance."""
    return {
        "format": PARAMS_FORMAT,
        "version": PARAMS_VERSION,
        "solver": report["solver"],
        "params": report["winner"]["params"],
        **({"solver_params": solver_params} if solver_params else {}),
        "settings": report["settings"],
        **({"made_for": made_for} if made_for else {}),
        "provenance": {"study": study_name, "storage": storage, "split": report["split"],
                       "test": report["test"], "trials": report["trials"], **({"spec": spec} if spec else {})},
    }


def file_params(data: dict) -> dict:
    """The solver parameters a loaded parameter file plays: every one it records
    (``solver_params``; files written before it record the tuned ones only) with the tuned ones."""
    return {**data.get("solver_params", {}), **data["params"]}


def _is_strategy(path: str | Path) -> bool:
    """Whether ``path`` is a strategy file (read with the strategy file's larger size cap)."""
    try:
        return replay_kind(path) == "strategy"
    except EvoWordleError:
        return False


#: The version of the parameter files written here, and the keys such a file may hold.
PARAMS_VERSION = 1
PARAMS_KEYS = frozenset({"format", "version", "solver", "params", "solver_params", "settings", "made_for",
                         "provenance"})


def load_params(path: str | Path, *, ctx: Context | None = None, other_lists: bool = False) -> dict:
    """Read a parameter file written by ``tune``: ``{"solver", "params", "settings"}`` checked.

    With ``ctx`` (the game its parameters are to be played in) a file whose ``made_for`` names
    other word lists is refused unless ``other_lists=True``; without ``ctx`` the lists are not
    checked.  The parameters returned no longer carry the lists they were made for."""
    not_params = f"{path} is a strategy file, not a parameter file: replay it with --strategy {path}"
    try:
        data = read_json(path, _MAX_SPACE_BYTES, "parameter file")
    except EvoWordleError as exc:  # too large for parameters: perhaps a strategy file with its tree
        if Path(path).is_file() and _is_strategy(path):
            raise EvoWordleError(not_params) from None
        raise exc from None
    if isinstance(data, dict) and data.get("format") == STRATEGY_FORMAT:
        raise EvoWordleError(not_params)
    if not isinstance(data, dict) or data.get("format") != PARAMS_FORMAT:
        raise EvoWordleError(f"{path} is not an evo-wordle parameter file (written by `evo-wordle tune`)")
    # as a strategy file's: a file of another version was played as this one, and a misspelt key
    # ("solver_param") was lost without a word (files written before "version" carry none)
    if "version" in data and (type(data["version"]) is not int or data["version"] != PARAMS_VERSION):
        raise EvoWordleError(f"parameter file {path} has unsupported version {data['version']!r}")
    unknown = sorted(set(data) - PARAMS_KEYS)
    if unknown:
        raise EvoWordleError(f"parameter file {path} has unknown key(s): {', '.join(map(repr, unknown))[:120]}")
    if not isinstance(data.get("solver"), str) or not isinstance(data.get("params"), dict):
        raise EvoWordleError(f"parameter file {path} lacks a solver name or its parameters")
    if not isinstance(data.get("solver_params", {}), dict):
        raise EvoWordleError(f"parameter file {path}: solver_params must be an object")
    for key, value in [*data["params"].items(), *data.get("solver_params", {}).items()]:
        if not _NAME.match(str(key)) or not _scalar(value):
            raise EvoWordleError(f"parameter file {path}: bad parameter {key!r}")
    if not isinstance(data.get("settings", {}), dict):
        raise EvoWordleError(f"parameter file {path}: settings must be an object")
    if not isinstance(data.get("provenance", {}), dict):
        raise EvoWordleError(f"parameter file {path}: provenance must be an object")
    _refuse_disagreement(path, data)
    if ctx is not None:
        record = data.get("made_for")
        if record is not None:
            settings_of(record, f"parameter file {path}")  # a malformed block, not "other lists"
        check_lists(record, ctx.words, f"parameter file {path}", other_lists)
    return data


def _refuse_disagreement(path: str | Path, data: dict) -> None:
    """Refuse a file whose two records of one thing differ: ``params`` and ``solver_params`` on a
    parameter, ``settings`` and ``made_for`` on a game setting.  ``tune`` writes them equal; one
    edited alone was played silently (``params`` and ``made_for`` won), so the file said two things."""
    tuned, every = data["params"], data.get("solver_params", {})
    for key in sorted(set(tuned) & set(every)):
        if tuned[key] != every[key] or isinstance(tuned[key], bool) != isinstance(every[key], bool):  # 1 == True
            raise EvoWordleError(f"parameter file {path}: params and solver_params disagree on {key} "
                                 f"({tuned[key]!r} and {every[key]!r})")
    settings, record = data.get("settings", {}), data.get("made_for")
    if not isinstance(record, dict):
        return  # no made_for (older files), or a malformed one: settings_of names it
    for key in SETTING_KEYS:
        if key in settings and key in record and settings[key] is not None and settings[key] != record[key]:
            raise EvoWordleError(f"parameter file {path}: settings and made_for disagree on {key} "
                                 f"({settings[key]!r} and {record[key]!r})")


#: The first 16 bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


def require_study_database(path: Path, *, new: bool = False) -> None:
    """Refuse a file that holds no Optuna study tables, read-only and before Optuna opens it:
    Optuna writes its schema into whatever SQLite file it is given, so a report (which only
    reads) turned an empty file, or another program's database, into a study database.  With
    ``new`` (tune, which makes a study) an empty file or a database without any table is
    accepted too (or with only some of Optuna's: another tune is making them): nothing of
    anyone else's is in it."""
    import sqlite3

    if not path.is_file():
        return  # missing (a new database), a folder or special file: check_storage_url names it
    with path.open("rb") as fh:
        head = fh.read(len(SQLITE_MAGIC))
    if new and not head:
        return
    if head != SQLITE_MAGIC:
        what = "an empty file" if not head else "not an SQLite database"
        raise EvoWordleError(f"{path} is not a study database ({what}; tune --out or --storage makes one)")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise EvoWordleError(f"cannot read the study database {path}: {exc}") from None
    if new and tables <= OPTUNA_TABLES:  # none, or a schema another tune is making right now
        return
    if not {"studies", "version_info"} <= tables:
        why = "tune adds its tables only to a new file or a study database" if new else "not one tune wrote"
        raise EvoWordleError(f"{path} is an SQLite database without Optuna study tables: {why}")


def study_summary(storage: str, name: str | None = None) -> dict:
    """What ``report`` prints for a study: counts, games and the best trials (``name`` None: the
    storage's only study)."""
    optuna = _optuna()
    if isinstance(storage, str) and storage.startswith("sqlite:///"):
        path = Path(storage[len("sqlite:///"):]).expanduser()
        if not path.exists() and not path.is_symlink():  # opening it would make an empty database there
            raise EvoWordleError(f"no study database at {path} (a report reads one; tune --out or --storage makes it)")
        check_storage_url(storage)
        require_study_database(path)
    db = _storage(storage)
    if name is None:
        names = optuna.get_all_study_names(storage=db)
        if len(names) > 1 and DEFAULT_STUDY in names:
            names = [DEFAULT_STUDY]
        if len(names) != 1:
            raise EvoWordleError(f"{storage} holds {len(names)} studies"
                                 + (f" ({', '.join(sorted(names))}): name one with --study" if names else ""))
        name = names[0]
    try:
        study = optuna.load_study(study_name=name, storage=db)
    except KeyError:
        raise EvoWordleError(f"no study named {name!r} in {storage}") from None
    states = {s.name.lower(): len(study.get_trials(deepcopy=False, states=(s,))) for s in optuna.trial.TrialState}
    best = finalists(study, 5) if states.get("complete") else []
    return {"study": name, "storage": storage, "states": states, "games_played": games_played(study),
            "repeated": repeated(study), "surplus": surplus(study),
            "best": [{"trial": n, "params": p, "train_mean": m} for n, p, m in best],
            "spec": study.user_attrs.get("spec")}
