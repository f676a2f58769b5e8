"""The simulation bench: play a solver on many answers and summarise the games."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .context import Context
from .game import GameRecord, GameState, Settings, play
from .solvers import make_solver


@dataclass
class BenchResult:
    """Games of one solver under one setting, with the summary figures the CLI prints."""

    solver: str
    settings: Settings
    records: list[GameRecord]
    seconds: float
    params: dict = field(default_factory=dict)

    @property
    def games(self) -> int:
        return len(self.records)

    def scores(self) -> np.ndarray:
        return np.array([r.score(self.settings.max_guesses) for r in self.records])

    @property
    def mean_guesses(self) -> float:
        return float(self.scores().mean()) if self.records else float("nan")

    @property
    def win_rate(self) -> float:
        limit = self.settings.win_limit
        return float(np.mean([r.solved and len(r.guesses) <= limit for r in self.records]))

    @property
    def fail_rate(self) -> float:
        return 1.0 - self.win_rate

    @property
    def max_guesses(self) -> int:
        return int(self.scores().max())

    @property
    def histogram(self) -> dict[str, int]:
        counts = Counter(int(s) for s in self.scores())
        return {str(k): counts[k] for k in sorted(counts)}

    def summary(self) -> dict:
        """Exactly the keys of ``bench --json``."""
        return {
            "solver": self.solver,
            "settings": {**self.settings.as_dict(), **self.params},
            "games": self.games,
            "mean_guesses": self.mean_guesses,
            "win_rate": self.win_rate,
            "fail_rate": self.fail_rate,
            "max_guesses": self.max_guesses,
            "histogram": self.histogram,
            "seconds": self.seconds,
        }


def run_bench(
    ctx: Context,
    solver: str,
    settings: Settings | None = None,
    answers: np.ndarray | None = None,
    seed: int = 0,
    solver_params: dict | None = None,
) -> BenchResult:
    """Play ``solver`` on every answer index in ``answers`` (default: the answer list).

    Each game gets its own generator from ``SeedSequence(seed).spawn``, indexed by its
    position in ``answers``, so results do not depend on how games are split over processes.
    In daily mode games run in a seeded random order and solved answers leave later games'
    candidates.
    """
    settings = settings or Settings()
    answers = ctx.words.answer_index if answers is None else np.asarray(answers, dtype=np.int64)
    engine = make_solver(solver, ctx, settings, **(solver_params or {}))
    seeds = np.random.SeedSequence(seed).spawn(len(answers))
    order = np.arange(len(answers))
    if settings.daily:
        order = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0]).permutation(len(answers))
    start = time.perf_counter()
    base = GameState.start(ctx, settings)
    records: list[GameRecord | None] = [None] * len(answers)
    past: list[int] = []
    for k in order:
        state = GameState.start(ctx, settings, np.array(past, dtype=np.int64)) if settings.daily else base
        engine.reset(np.random.default_rng(seeds[k]))
        records[k] = play(engine, state, int(answers[k]), settings)
        if settings.daily:
            past.append(int(answers[k]))
    return BenchResult(engine.name, settings, records, time.perf_counter() - start, engine.describe())
