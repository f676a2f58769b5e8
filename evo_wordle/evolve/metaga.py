"""The meta-GA: evolve strategy genomes (DEAP, (μ + λ) with a hall of fame), resumable.

The answers are split three ways by :func:`evo_wordle.split.split_answers` from the seed:
fitness of a genome = mean guesses + ``penalty`` per game over the win limit on the training
answers (lower is better); each generation the best genomes are also scored on the validation
answers, and the genome returned is the hall-of-fame member best on validation.  The test
answers are never seen here: the caller scores the winner on them once, at the end.

Several boards (``settings.boards > 1``, Dordle, Quordle, Octordle): the genome is the
summed-entropy policy's opener and genes (:data:`evo_wordle.boards.GENES`; all 0 is the plain
summed entropy, the first individual), and fitness is the mean over seeded board sets drawn
from the training answers; validation sets come from the validation answers and the caller's
test sets from the test answers, so no set the winner is reported on shares an answer with
the games it was chosen on.

Every generation ends with an atomic checkpoint (population, hall of fame, logbook, fitness
cache and the ``random`` and numpy generator states), so an interrupted run resumed from its
checkpoint gives exactly the result of an uninterrupted run with the same seed.
"""

from __future__ import annotations

import math
import random
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
from deap import base, creator, tools

from ..artefacts import list_digests
from ..boards import GENES as BOARD_GENES
from ..boards import MAX_SETS, SummedEntropy, check_distinct_answers, distinct_pool, draw_answers, play_boards
from ..context import Context
from ..errors import EvoWordleError
from ..files import atomic_write_text
from ..ga.config import MAX_COUNT
from ..game import GameState, Settings, lost, play, scores_of
from ..params import as_choice, as_float, as_int, as_seed
from ..split import recorded_split, split_answers
from .checkpoint import genome_key, read_checkpoint, write_checkpoint
from .strategy import DEFAULT_POOL, LOG_GENES, REAL_GENES, Strategy, StrategySolver
from .winner import SELECT_RULES

GENE_NAMES = ["opener", *REAL_GENES, "hard_candidates"]
#: The multi-board genome: the summed-entropy policy's opener and genes.
BOARD_GENE_NAMES = ["opener", *BOARD_GENES]
#: Salt of the seeds that draw the training, validation and test board sets.
_SETS_SALT = 0xB0A4D


def gene_names(settings: Settings) -> list[str]:
    """The genes of the genome evolved under ``settings`` (one board or several)."""
    return BOARD_GENE_NAMES if settings.boards > 1 else GENE_NAMES


def real_genes(settings: Settings) -> dict[str, tuple[float, float]]:
    """The real genes and their bounds under ``settings``."""
    return BOARD_GENES if settings.boards > 1 else REAL_GENES

if not hasattr(creator, "StrategyFitness"):
    creator.create("StrategyFitness", base.Fitness, weights=(-1.0,))
if not hasattr(creator, "StrategyIndividual"):
    creator.create("StrategyIndividual", list, fitness=creator.StrategyFitness)


#: Counts that size populations and loops: capped as the word GA's (``--lambda 10**12`` began to run).
CAPPED = ("mu", "lambda_", "generations", "hof_size", "train_sets", "holdout_sets")
#: Fields whose command-line flag is not spelled after them: an error names a flag that exists.
FLAG_NAMES = {"holdout_sets": "validation_sets"}


@dataclass
class EvolveConfig:
    """Everything that determines a run (stored in the checkpoint; a resume must match)."""

    settings: Settings = field(default_factory=lambda: Settings.problem("P0", guess_from="allowed"))
    train_size: int = 400
    holdout_size: int = 400  # the validation answers
    test_size: int | None = None  # None: every answer not in train or validation
    mu: int = 10
    lambda_: int = 20
    generations: int = 12
    cxpb: float = 0.4
    mutpb: float = 0.6
    sigma: float = 0.12  # Gaussian step as a share of each real gene's range
    indpb: float = 0.35  # chance each gene mutates
    penalty: float = 1.0  # per game over the win limit
    seed: int = 0
    pool: int = DEFAULT_POOL
    openers: int = 40  # high-entropy words a word gene may jump to
    hof_size: int = 5
    init: dict | None = None  # genes the first individual starts from (the rest: Strategy()'s, or 0 on boards)
    train_sets: int = 400  # several boards: board sets drawn from the training answers
    holdout_sets: int = 400  # … and from the validation answers
    #: how the winner is chosen on validation: among the final hall of fame ("hall"), or among
    #: every genome scored there, each generation's best included ("validated")
    select: str = "hall"
    #: several boards: no set repeats an answer (real Quordle/Octordle); off, sets are drawn with
    #: replacement, as every run before the setting
    distinct_answers: bool = False

    def __post_init__(self) -> None:
        self.penalty = as_float("penalty", self.penalty, 0.0, None)
        self.seed = as_seed("seed", self.seed)
        for name, lo in (("train_size", 1), ("holdout_size", 1), ("mu", 2), ("lambda_", 1), ("generations", 0),
                         ("pool", 0), ("openers", 1), ("hof_size", 1), ("train_sets", 1), ("holdout_sets", 1)):
            hi = MAX_COUNT if name in CAPPED else None
            label = FLAG_NAMES.get(name, name.removesuffix("_size").rstrip("_"))
            setattr(self, name, as_int(label, getattr(self, name), lo, hi))
        for name in ("cxpb", "mutpb", "sigma", "indpb"):
            setattr(self, name, as_float(name, getattr(self, name), 0.0, 1.0))
        if self.test_size is not None:
            self.test_size = as_int("test", self.test_size, 1, None)
        if self.mu < 2 or self.lambda_ < 1 or self.generations < 0:
            raise EvoWordleError("--mu must be ≥ 2, --lambda ≥ 1, --generations ≥ 0")
        if self.cxpb + self.mutpb > 1.0:
            raise EvoWordleError("--cxpb + --mutpb must be at most 1")
        as_choice("select", self.select, SELECT_RULES)
        self.distinct_answers = check_distinct_answers(self.distinct_answers, self.settings.boards)

    def fingerprint(self) -> dict:
        """The configuration as plain data; a checkpoint resumes only under the same one."""
        d = asdict(self)
        d["settings"] = self.settings.as_dict()
        if self.settings.boards == 1:  # one board plays answers, not sets (and old checkpoints resume)
            del d["train_sets"], d["holdout_sets"]
        if self.select == "hall":  # the rule of every run before --select: its checkpoints still resume
            del d["select"]
        if not self.distinct_answers:  # sets with replacement, as every run before the setting: old checkpoints resume
            del d["distinct_answers"]
        return d

    @classmethod
    def fingerprint_defaults(cls) -> dict:
        """The settings whose default (None) plays as every run did before the setting existed: a
        checkpoint that lacks one resumes under that default, not under another value."""
        return {f.name: None for f in fields(cls) if f.default is None}


# ------------------------------------------------------------------- genome <-> individual


def to_individual(strategy: Strategy):
    """A DEAP individual holding the genome's genes in ``GENE_NAMES`` order."""
    d = strategy.as_dict()
    return creator.StrategyIndividual([d[name] for name in GENE_NAMES])


def to_strategy(ind) -> Strategy:
    """The :class:`~evo_wordle.evolve.strategy.Strategy` an individual's genes describe (typed)."""
    d = dict(zip(GENE_NAMES, ind))
    for name in REAL_GENES:
        d[name] = float(d[name])
    d["hard_candidates"] = bool(d["hard_candidates"])
    return Strategy(**d)


# ------------------------------------------------------------------------------ evaluation

_WORKER: dict = {}


def _worker_ctx(words_spec: tuple) -> Context:
    ctx = _WORKER.get(words_spec)
    if ctx is None:
        ctx = Context(allowed=words_spec[0], answers=words_spec[1])
        _WORKER.clear()
        _WORKER[words_spec] = ctx
    return ctx


def play_records(ctx: Context, strategy: Strategy, settings: Settings, answers: np.ndarray,
                 pool: int = DEFAULT_POOL) -> list:
    """One GameRecord per answer for a genome (the policy is deterministic: no seeds needed)."""
    solver = StrategySolver(ctx, settings, strategy=strategy, pool=pool)
    start = GameState.start(ctx, settings)
    return [play(solver, start, int(a), settings) for a in answers]


def play_genome(ctx: Context, strategy: Strategy, settings: Settings, answers: np.ndarray,
                pool: int = DEFAULT_POOL) -> np.ndarray:
    """Scores (guesses, the cap for failures) of one genome on ``answers``."""
    records = play_records(ctx, strategy, settings, answers, pool)
    return scores_of(records, settings)


def split_means(answers: np.ndarray, scores: np.ndarray, split) -> dict[str, float]:
    """Mean guesses on each part of a train/validation/test split (``scores[i]`` is ``answers[i]``'s)."""
    return {part: float(scores[np.isin(answers, split.part(part))].mean())
            for part in ("train", "validation", "test")}


_BOARD_CACHES: dict = {}


def board_policy(ctx: Context, genes, settings: Settings, rollout: int = 0) -> SummedEntropy:
    """The summed-entropy policy a multi-board genome describes (with ``rollout``, the lookahead
    of :class:`~evo_wordle.boards.SummedEntropy`; not a gene).  Policies of one process share
    their board-entropy cache: a board's bits do not depend on the genes."""
    key = (id(ctx), settings.candidates)
    cache = _BOARD_CACHES.get(key)
    if cache is None:
        _BOARD_CACHES.clear()
        cache = _BOARD_CACHES[key] = OrderedDict()
    d = dict(zip(BOARD_GENE_NAMES, genes))
    return SummedEntropy(ctx, settings, opener=d.pop("opener"), cache=cache, rollout=rollout,
                         **{k: float(v) for k, v in d.items()})


def play_sets(ctx: Context, genes, settings: Settings, sets: np.ndarray, rollout: int = 0) -> list:
    """One BoardsRecord per board set (rows of ``sets``) for a multi-board genome."""
    policy = board_policy(ctx, genes, settings, rollout)
    return [play_boards(policy, row, settings.max_guesses) for row in sets]


def genome_records(ctx: Context, genes, settings: Settings, sample: np.ndarray, pool: int) -> list:
    """The games of a genome (as genes) on ``sample``: answers for one board, board sets for several."""
    if settings.boards > 1:
        return play_sets(ctx, genes, settings, sample)
    return play_records(ctx, to_strategy(genes), settings, sample, pool)


def genome_scores(ctx: Context, genes, settings: Settings, sample: np.ndarray, pool: int) -> np.ndarray:
    """Scores of a genome (as genes) on ``sample`` (a failure counts as the cap)."""
    return scores_of(genome_records(ctx, genes, settings, sample, pool), settings)


def split_sets(config: EvolveConfig, split, test_sets: int) -> dict[str, np.ndarray]:
    """The seeded training, validation and test board sets, each from its own part of the split."""
    seqs = np.random.SeedSequence([config.seed, _SETS_SALT]).spawn(3)
    sizes = {"train": config.train_sets, "validation": config.holdout_sets, "test": test_sets}
    boards = config.settings.boards
    for part in sizes if config.distinct_answers else ():  # named here: draw_answers knows a pool, not its part
        have = len(distinct_pool(split.part(part)))
        if have < boards:
            raise EvoWordleError(f"--distinct-answers: {boards} boards need at least {boards} answers in each part of "
                                 f"the split, and the {part} part has {have}")
    return {part: draw_answers(None, boards, sizes[part], seq, pool=split.part(part),
                               distinct=config.distinct_answers)
            for (part, seq) in zip(("train", "validation", "test"), seqs)}


def file_test_sets(ctx: Context, doc: dict) -> np.ndarray:
    """The test board sets a multi-board parameter file (``evolve-strategy --boards N --out``)
    was reported on, rebuilt from what it records (the split's words and seed, the set counts,
    the board count), so anyone can replay a shipped policy on exactly those sets."""
    return file_sets(ctx, doc, "test")


def file_sets(ctx: Context, doc: dict, part: str, where: str = "the file") -> np.ndarray:
    """The board sets of one part (train, validation or test) of a multi-board parameter file's
    evolution: the sets it trained on, selected on or was reported on.  A file that records no
    usable split, set counts or game is a one-line EvoWordleError naming the field."""
    from ..artefacts import list_mismatch, settings_of

    prov = doc.get("provenance") if isinstance(doc, dict) else None
    if not isinstance(prov, dict):
        raise EvoWordleError(f"{where} records no provenance object, so no split and {part} sets")
    stored = settings_of(doc.get("made_for"), where)
    why = list_mismatch(doc["made_for"], ctx.words)
    if why:  # a split is of the answers the file was made for (other_lists cannot change that)
        raise EvoWordleError(f"{where}: its {part} board sets are of the word lists it was made for, but {why}")
    split = recorded_split(prov.get("split"), ctx.words, where)
    if split is None:
        raise EvoWordleError(f"{where} records no provenance.split, so no {part} sets")
    sets = prov.get("sets")
    if not isinstance(sets, dict):
        raise EvoWordleError(f"provenance.sets of {where} must be an object (train_sets, validation_sets, test_sets)")
    counts = {}
    for key in ("train_sets", "validation_sets", "test_sets"):
        value = sets.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EvoWordleError(f"provenance.sets.{key} of {where} must be a whole number ≥ 1, not {value!r}")
        if value > MAX_SETS:  # no evolution drew more; refused before anything is allocated
            raise EvoWordleError(f"provenance.sets.{key} of {where} must be at most {MAX_SETS}, not {value!r}")
        counts[key] = value
    distinct = sets.get("distinct_answers", False)  # files from before the setting drew with replacement
    if not isinstance(distinct, bool):
        raise EvoWordleError(f"provenance.sets.distinct_answers of {where} must be true or false, not {distinct!r}")
    cfg = EvolveConfig(settings=stored, seed=split.seed, train_sets=counts["train_sets"],
                       holdout_sets=counts["validation_sets"], distinct_answers=distinct)
    return split_sets(cfg, split, counts["test_sets"])[part]


def test_board_genome(ctx: Context, genes, settings: Settings, sets: np.ndarray, rollout: int = 0) -> dict:
    """Play the never-seen test board sets once: the evolved genes (with the lookahead
    ``rollout``, if any), plain summed entropy (what ``bench --boards N`` plays) and plain summed
    entropy with the evolved opener, on the same sets, with the set-by-set difference evolved −
    summed entropy and its 95 % interval, and each policy's histogram of guesses (a failure
    counts as the cap).  With ``rollout`` the evolved genes also play without it, and the
    lookahead's own set-by-set gain is reported."""
    from ..stats import paired

    opener = dict(zip(BOARD_GENE_NAMES, genes))["opener"]
    plain = [0.0 for _ in BOARD_GENES]
    out: dict = {}
    played = {}
    policies = [("evolved", list(genes), rollout), ("summed_entropy", [None, *plain], 0),
                ("summed_entropy_same_opener", [opener, *plain], 0)]
    if rollout:
        policies.append(("evolved_without_rollout", list(genes), 0))
    for label, g, r in policies:
        records = play_sets(ctx, g, settings, sets, r)
        scores = played[label] = scores_of(records, settings)
        values, counts = np.unique(scores, return_counts=True)
        out[label] = {"test_mean": float(scores.mean()), "test_failures": sum(lost(rec, settings) for rec in records),
                      "worst_guesses": int(scores.max()),
                      "histogram": {str(int(v)): int(c) for v, c in zip(values, counts)}}
    out["evolved_minus_summed_entropy"] = paired(played["evolved"], played["summed_entropy"])
    if rollout:
        out["rollout"] = rollout
        out["rollout_gain"] = paired(played["evolved"], played["evolved_without_rollout"])
    return out


def fitness_of(scores: np.ndarray, failed: np.ndarray, penalty: float) -> float:
    """Mean guesses plus ``penalty`` times the share of games lost (minimised)."""
    return float(np.mean(scores) + penalty * np.mean(failed))


def worst_fitness(config: EvolveConfig) -> float:
    """The largest fitness :func:`fitness_of` can give under ``config``: every game lost, each
    scoring the guess cap, plus the whole penalty (a checkpoint's bound on its scores)."""
    return float(config.settings.max_guesses + config.penalty)


def genome_fitness(ctx: Context, genes, settings: Settings, sample: np.ndarray, pool: int, penalty: float) -> float:
    """A genome's fitness on ``sample``: lost games are told from their records (see :func:`lost`)."""
    records = genome_records(ctx, genes, settings, sample, pool)
    return fitness_of(scores_of(records, settings),
                      np.array([lost(r, settings) for r in records]), penalty)


def _evaluate_task(words_spec: tuple, genes: tuple, settings: Settings, answers: np.ndarray,
                   pool: int, penalty: float) -> float:
    return genome_fitness(_worker_ctx(words_spec), genes, settings, answers, pool, penalty)


def local_executor(jobs: int) -> Executor:
    """A process pool (replaced by ``evo_wordle.executors.make_executor`` when available)."""
    return ProcessPoolExecutor(max_workers=jobs)


def make_executor(kind: str = "local", jobs: int = 1, scheduler: str | None = None) -> Executor | None:
    """``None`` (evaluate in this process) for one local job, else a concurrent.futures Executor."""
    if kind == "local" and jobs <= 1:
        return None
    try:
        from ..executors import make_executor as shared
    except ImportError:
        if kind != "local":
            raise EvoWordleError("the dask executor needs evo_wordle.executors") from None
        return local_executor(jobs)
    return shared(kind=kind, jobs=jobs, scheduler=scheduler)


# ---------------------------------------------------------------------------------- the GA


class MetaGA:
    """One resumable strategy-evolution run."""

    def __init__(self, ctx: Context, config: EvolveConfig, executor: Executor | None = None,
                 words_spec: tuple | None = None) -> None:
        self.ctx = ctx
        self.cfg = config
        self.executor = executor
        self.words_spec = words_spec or (None, "nyt")
        ga_seq = np.random.SeedSequence(config.seed).spawn(2)[1]
        n = len(ctx.words.answer_index)
        if config.train_size + config.holdout_size >= n:
            raise EvoWordleError(f"--train {config.train_size} + --validation {config.holdout_size} exceed the {n} "
                                 "answers (the test answers would be empty)")
        self.split = split_answers(ctx.words.answer_index, config.seed, config.train_size,
                                   config.holdout_size, config.test_size)
        self.genes, self.real = gene_names(config.settings), real_genes(config.settings)
        if config.settings.boards > 1:
            sets = split_sets(config, self.split, 1)
            self.train, self.holdout = sets["train"], sets["validation"]
        else:
            self.train, self.holdout = self.split.train, self.split.validation
        self.np_rng = np.random.default_rng(ga_seq)
        self.py_rng = random.Random(int(ga_seq.generate_state(1)[0]))
        self.cache: dict[tuple, float] = {}
        self.hold_cache: dict[tuple, float] = {}
        self.population: list = []
        self.hof = tools.HallOfFame(config.hof_size)
        self.logbook = tools.Logbook()
        self.logbook.header = ["gen", "nevals", "best", "mean", "holdout", "seconds"]
        self.generation = -1  # last completed generation
        self.seconds = 0.0
        self._openers: np.ndarray | None = None

    # ----------------------------------------------------------------- operators
    def opener_pool(self) -> np.ndarray:
        """High-entropy words (under the settings' candidate set) a word gene may jump to."""
        if self._openers is None:
            cand = self.ctx.candidates(self.cfg.settings.candidates)
            from ..entropy import entropies

            bits = entropies(self.ctx.table, self.ctx.all_words, cand[:: max(1, len(cand) // 1500)],
                             n_patterns=self.ctx.words.n_patterns)
            self._openers = np.argsort(-bits, kind="stable")[: self.cfg.openers]
        return self._openers

    def neighbours(self, word: str) -> np.ndarray:
        """Allowed words one letter away (the dictionary mutation's moves)."""
        from ..ga.operators import neighbour_index

        return neighbour_index(self.ctx).of(self.ctx.words.index(word))

    def mutate(self, ind):
        """Gaussian steps on real genes and resets of discrete ones, each with probability ``indpb``; in place."""
        cfg = self.cfg
        rng = self.py_rng
        for i, name in enumerate(self.genes):
            if rng.random() >= cfg.indpb:
                continue
            if name == "opener":
                if rng.random() < 0.5:
                    nb = self.neighbours(ind[i])
                    if len(nb):
                        ind[i] = self.ctx.words.allowed[int(nb[rng.randrange(len(nb))])]
                        continue
                pool = self.opener_pool()
                ind[i] = self.ctx.words.allowed[int(pool[rng.randrange(len(pool))])]
            elif name == "hard_candidates":
                ind[i] = not ind[i]
            else:
                lo, hi = self.real[name]
                if name in LOG_GENES:  # a step in decades: sigma of the range's log10 width
                    step = rng.gauss(0.0, cfg.sigma * math.log10(hi / lo))
                    ind[i] = float(min(hi, max(lo, ind[i] * 10.0 ** step)))
                else:
                    ind[i] = float(min(hi, max(lo, ind[i] + rng.gauss(0.0, cfg.sigma * (hi - lo)))))
        return (ind,)

    def crossover(self, a, b):
        """Uniform gene swap; real genes are blended half the time."""
        rng = self.py_rng
        for i, name in enumerate(self.genes):
            if rng.random() < 0.5:
                if name in self.real and rng.random() < 0.5:
                    t = rng.random()
                    x, y = a[i], b[i]
                    a[i], b[i] = t * x + (1 - t) * y, (1 - t) * x + t * y
                else:
                    a[i], b[i] = b[i], a[i]
        return a, b

    def random_individual(self, base_genome: list):
        """A mutant of ``base_genome`` (genes; three rounds of :meth:`mutate`), for the first population."""
        ind = creator.StrategyIndividual(list(base_genome))
        for _ in range(3):
            self.mutate(ind)
        return ind

    # --------------------------------------------------------------- evaluation
    def _evaluate(self, inds: list, answers: np.ndarray, cache: dict) -> int:
        todo: dict[tuple, list] = {}
        for ind in inds:
            k = genome_key(ind)
            if k not in cache:
                todo.setdefault(k, []).append(ind)
        keys = list(todo)
        if self.executor is None:
            vals = [genome_fitness(self.ctx, k, self.cfg.settings, answers, self.cfg.pool, self.cfg.penalty)
                    for k in keys]
        else:
            futs = [self.executor.submit(_evaluate_task, self.words_spec, k, self.cfg.settings, answers,
                                         self.cfg.pool, self.cfg.penalty) for k in keys]
            vals = [f.result() for f in futs]
        cache.update(zip(keys, vals))
        for ind in inds:
            ind.fitness.values = (cache[genome_key(ind)],) if cache is self.cache else ind.fitness.values
        return len(keys)

    def holdout_fitness(self, ind) -> float:
        """The genome's fitness on the held-out answers (NaN without a hold-out), cached."""
        if not len(self.holdout):
            return float("nan")
        self._evaluate([ind], self.holdout, self.hold_cache)
        return self.hold_cache[genome_key(ind)]

    # --------------------------------------------------------------------- loop
    def _record(self, gen: int, nevals: int, t0: float) -> None:
        fits = np.array([ind.fitness.values[0] for ind in self.population])
        best = min(self.population, key=lambda ind: ind.fitness.values[0])
        self.seconds += time.perf_counter() - t0
        self.logbook.record(gen=gen, nevals=nevals, best=float(fits.min()), mean=float(fits.mean()),
                            holdout=self.holdout_fitness(best), seconds=round(self.seconds, 2))

    def initialise(self) -> None:
        """Generation 0: the base genome and its mutants, evaluated; the hall of fame and logbook start."""
        t0 = time.perf_counter()
        base_genome = self.base_genes()
        self.population = [creator.StrategyIndividual(list(base_genome))]
        self.population += [self.random_individual(base_genome) for _ in range(self.cfg.mu - 1)]
        nevals = self._evaluate(self.population, self.train, self.cache)
        self.hof.update(self.population)
        self.generation = 0
        self._record(0, nevals, t0)

    def base_genes(self) -> list:
        """The first individual's genes: ``init``, else the unevolved genome (one board: the
        default strategy; several: the plain summed entropy with its own best opener)."""
        if self.cfg.settings.boards > 1:
            init = dict(self.cfg.init or {})
            unknown = sorted(set(init) - set(BOARD_GENE_NAMES))
            if unknown:
                raise EvoWordleError(f"--init: unknown multi-board gene(s): {', '.join(unknown)}")
            if init.get("opener"):
                opener = init["opener"]
            else:  # the plain policy's own best first word for this list and setting
                policy = board_policy(self.ctx, [None, 0.0, 0.0, 0.0], self.cfg.settings)
                opener = self.ctx.words.allowed[policy.choose([policy.full_board()], 0)]
            return [opener, *(float(init.get(name, 0.0)) for name in BOARD_GENES)]
        # genes init leaves out start at the default genome's, as missing multi-board genes start at 0
        base_genome = Strategy.from_dict({**Strategy().as_dict(), **self.cfg.init}) if self.cfg.init else Strategy()
        if not self.cfg.init and not self.ctx.words.contains(base_genome.opener):
            # another list (or word length): start from its word of most entropy, not SALET
            best = self.ctx.words.allowed[int(self.opener_pool()[0])]
            base_genome = Strategy.from_dict({**base_genome.as_dict(), "opener": best})
        return list(to_individual(base_genome))

    def step(self) -> None:
        """One (μ + λ) generation: λ offspring by crossover or mutation, keep the μ best."""
        t0 = time.perf_counter()
        cfg = self.cfg
        rng = self.py_rng
        offspring = []
        for _ in range(cfg.lambda_):
            op = rng.random()
            if op < cfg.cxpb:
                a, b = (creator.StrategyIndividual(list(p)) for p in rng.sample(self.population, 2))
                a, _ = self.crossover(a, b)
                offspring.append(a)
            elif op < cfg.cxpb + cfg.mutpb:
                a = creator.StrategyIndividual(list(rng.choice(self.population)))
                offspring.append(self.mutate(a)[0])
            else:
                offspring.append(creator.StrategyIndividual(list(rng.choice(self.population))))
        nevals = self._evaluate(offspring, self.train, self.cache)
        merged = self.population + offspring
        merged.sort(key=lambda ind: (ind.fitness.values[0], genome_key(ind)))
        seen, survivors = set(), []
        for ind in merged:  # distinct genomes first, so the population does not collapse
            k = genome_key(ind)
            if k not in seen:
                seen.add(k)
                survivors.append(ind)
        if len(survivors) < cfg.mu:  # fewer distinct genomes than μ: repeats of the best of the rest
            taken = {id(ind) for ind in survivors}  # by identity: each one left equals some survivor
            survivors += [ind for ind in merged if id(ind) not in taken][: cfg.mu - len(survivors)]
        self.population = survivors[: cfg.mu]
        self.hof.update(self.population)
        self.generation += 1
        self._record(self.generation, nevals, t0)

    def run(self, checkpoint: str | Path | None = None, stop_after: int | None = None,
            progress=None) -> Strategy:
        """Run (or continue) to ``generations``; ``stop_after`` ends early (to test resuming).

        A fresh run never overwrites an existing ``checkpoint`` (continue it with :meth:`resume`)."""
        if self.generation < 0:
            if checkpoint is not None and Path(checkpoint).exists():  # as the command line: a dangling link is none
                raise EvoWordleError(f"checkpoint {checkpoint} exists: continue it with MetaGA.resume, or remove it "
                                     "to start again")
            self.initialise()
            self._checkpoint(checkpoint)
            if progress:
                progress(self.logbook[-1])
        done = 0
        while self.generation < self.cfg.generations:
            if stop_after is not None and done >= stop_after:
                break
            self.step()
            done += 1
            self._checkpoint(checkpoint)
            if progress:
                progress(self.logbook[-1])
        return self.best()

    def best(self) -> Strategy:
        """The hall-of-fame genome with the best held-out fitness (train fitness if no holdout):
        a Strategy for one board, the genes by name (a dict) for several.  With ``select =
        "validated"`` the winner is the best on validation of every genome scored there (each
        generation's best by training fitness and the final hall of fame): a genome the later
        generations beat on the training answers but not on validation is not lost.  Ties go to
        the better training fitness, then to the genome key."""
        members = list(self.hof)
        if len(self.holdout):
            winner = min(members, key=lambda ind: (self.holdout_fitness(ind), ind.fitness.values[0], genome_key(ind)))
            if self.cfg.select == "validated":
                winner = self._best_validated(winner)
        else:
            winner = members[0]
        if self.cfg.settings.boards > 1:
            return dict(zip(BOARD_GENE_NAMES, winner))
        return to_strategy(winner)

    def _best_validated(self, hall_winner):
        """The genome of least validation fitness among all scored on validation (the hall's
        members are; their own genes are kept, others are rebuilt from their cache key)."""
        rank = {k: (v, self.cache[k], k) for k, v in self.hold_cache.items() if k in self.cache}
        key = min(rank, key=rank.__getitem__)
        if key == genome_key(hall_winner):
            return hall_winner
        ind = creator.StrategyIndividual(list(key))
        ind.fitness.values = (self.cache[key],)
        return ind

    # --------------------------------------------------------------- checkpoints
    def state(self) -> dict:
        """The run's state as JSON-able data (see evolve/checkpoint.py)."""
        version, internal, gauss = self.py_rng.getstate()
        return {
            "config": self.cfg.fingerprint(), "generation": self.generation,
            "lists": list_digests(self.ctx.words),
            "population": [[list(ind), list(ind.fitness.values)] for ind in self.population],
            "hof": [[list(ind), list(ind.fitness.values)] for ind in self.hof.items],
            "logbook": list(self.logbook),
            "cache": [[list(k), v] for k, v in self.cache.items()],
            "hold_cache": [[list(k), v] for k, v in self.hold_cache.items()],
            "py_rng": [version, list(internal), gauss], "np_rng": self.np_rng.bit_generator.state,
            "seconds": self.seconds,
        }

    def _checkpoint(self, path: str | Path | None) -> None:
        if path is not None:
            write_checkpoint(path, self.state())

    @classmethod
    def resume(cls, ctx: Context, config: EvolveConfig, path: str | Path, executor: Executor | None = None,
               words_spec: tuple | None = None) -> MetaGA:
        """Continue from a checkpoint written by a run with the same configuration."""
        st = read_checkpoint(path, config.fingerprint(), ctx.words, gene_names(config.settings), config.mu,
                             config.hof_size, worst=worst_fitness(config), defaults=config.fingerprint_defaults())
        if st["generation"] > config.generations:  # it would report the further run under the smaller count
            raise EvoWordleError(f"checkpoint {path} has run {st['generation']} generations, more than --generations "
                                 f"{config.generations}: give --generations {st['generation']} or more to resume it")
        ga = cls(ctx, config, executor, words_spec)
        try:
            ga.py_rng.setstate(st["py_rng"])
            ga.np_rng.bit_generator.state = st["np_rng"]
        except (TypeError, ValueError, KeyError, OverflowError):
            raise EvoWordleError(f"checkpoint {path} is corrupt (bad generator state)") from None
        ga.generation = st["generation"]
        ga.population = [_restore(g, f) for g, f in st["population"]]
        ga.hof = tools.HallOfFame(config.hof_size)
        ga.hof.items = [_restore(g, f) for g, f in st["hof"]]  # exactly, ties in the same order
        ga.hof.keys = [ind.fitness for ind in reversed(ga.hof.items)]
        for rec in st["logbook"]:
            ga.logbook.record(**rec)
        ga.cache, ga.hold_cache = st["cache"], st["hold_cache"]
        ga.seconds = st["seconds"]
        return ga


def _restore(genes: list, fitness: tuple):
    ind = creator.StrategyIndividual(genes)
    ind.fitness.values = fitness
    return ind


def save_logbook(path: str | Path, logbook) -> None:
    """Write the logbook's records as JSON to ``path`` (atomically)."""
    import json

    atomic_write_text(path, json.dumps(list(logbook), indent=1) + "\n")
