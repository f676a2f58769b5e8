"""The position-ranking family of "Analysis of algorithmic methods to effectively solve Wordle".

All members share one picture of the clues (:func:`clue_state`): for each letter and slot,
2 = revealed green there, 1 = may be there, 0 = cannot be there (absent letters are 0
everywhere, a green slot is 0 for every other letter).  A word's *position rank* sums, over
its distinct letters (first occurrence only), the slot value of each letter.  Letters not yet
guessed count 1 where their slot is open ("may be there", as the issue defines it); the
paper's own code counts only letters already guessed, which — once guesses are restricted to
words consistent with every clue — makes nearly all candidates tie and the policy degenerate
to "first consistent word" (position-rank 4.836 mean / 88.0 % wins against 4.634 / 92.2 %
here; the paper reports 4.676 / 91.4 %).  ``paper_code_scores`` keeps that variant for study.

Members differ in how the rank is used:

``position-rank``          the highest rank (paper: HPRG)
``low-position-rank``      the lowest-ranked word as 2nd guess, then highest (LPRG)
``average-position-rank``  the median-ranked word as 2nd and 3rd guesses, then highest (APRG)
``two-preset``             two fixed openers covering ten letters (TARES, LINUM), then highest (TPWG)
``letter-entropy``         highest sum over slots of x·(1−x), x the share of remaining candidates
                           with that letter in that slot (ERG)
``hybrid``                 highest mean of the max-normalised position and letter-entropy scores (HEPG)
``hybrid-two-preset``      the two presets, then ``hybrid`` (HETPG)
``max-prune``              of the top 10 by position rank, the word removing most candidates on
                           average over the remaining candidates (MPG)

Every member opens with TARES (the paper's fixed first guess) unless ``opener`` says
otherwise; ties go to the alphabetically first word; decisions are memoised on the state and
its history (the clue picture depends on the history, not only on the candidates).
"""

from __future__ import annotations

import argparse

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, hard_mode_mask
from ..params import as_word
from ..patterns import decode
from .base import Solver, register

PAPER_OPENER = "tares"
PAPER_SECOND = "linum"
TOP_K = 10  # max-prune's shortlist, as in the paper


def clue_state(ctx: Context, history: tuple[tuple[int, int], ...]) -> tuple[np.ndarray, np.ndarray]:
    """(26, L) slot values (2 green, 1 possible, 0 excluded) and (26,) known-present flags."""
    length = ctx.words.length
    slots = np.ones((26, length), dtype=np.int8)
    known = np.zeros(26, dtype=bool)
    greens: dict[int, int] = {}
    letters = ctx.words.letters
    for guess, pattern in history:
        word = letters[guess].tolist()
        trits = decode(pattern, length)
        hit = {c for c, t in zip(word, trits) if t > 0}
        for pos, (c, t) in enumerate(zip(word, trits)):
            if t == 2:
                greens[pos] = c
                known[c] = True
            elif t == 1:
                slots[c, pos] = 0
                known[c] = True
            else:
                slots[c, pos] = 0
                if c not in hit:  # grey with no green/yellow copy in this guess: absent
                    slots[c, :] = 0
    for pos, c in greens.items():
        slots[:, pos] = 0
        slots[c, pos] = 2
    return slots, known


def first_occurrence(ctx: Context) -> np.ndarray:
    """(n, L) bool: True where a word's letter appears for the first time (cached on ctx)."""
    cached = ctx.__dict__.get("_first_occurrence")
    if cached is None:
        letters = ctx.words.letters
        cached = np.ones(letters.shape, dtype=bool)
        for pos in range(1, letters.shape[1]):
            cached[:, pos] = (letters[:, :pos] != letters[:, pos : pos + 1]).all(axis=1)
        ctx.__dict__["_first_occurrence"] = cached
    return cached


def position_scores(
    ctx: Context, guesses: np.ndarray, history: tuple[tuple[int, int], ...], known_only: bool = False
) -> np.ndarray:
    """The position rank of each guess given the clues so far (``known_only``: only letters
    known to be in the answer score, as in the paper's code)."""
    slots, known = clue_state(ctx, history)
    weights = slots * known[:, None] if known_only else slots
    letters = ctx.words.letters[guesses]
    values = weights[letters, np.arange(letters.shape[1])]
    return (values * first_occurrence(ctx)[guesses]).sum(axis=1).astype(np.float64)


def paper_code_scores(ctx: Context, guesses: np.ndarray, history: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The variant of the paper's code: unguessed letters score 0."""
    return position_scores(ctx, guesses, history, known_only=True)


def letter_entropy_scores(ctx: Context, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Sum over slots of x·(1−x), x the share of candidates with the guess's letter in that slot."""
    letters = ctx.words.letters
    length = letters.shape[1]
    share = np.zeros((26, length))
    for pos in range(length):
        share[:, pos] = np.bincount(letters[candidates, pos], minlength=26) / len(candidates)
    x = share[letters[guesses], np.arange(length)]
    return (x * (1.0 - x)).sum(axis=1)


def _normalised(values: np.ndarray) -> np.ndarray:
    top = values.max() if len(values) else 0.0
    return values / top if top > 0 else np.zeros_like(values)


class PositionRankSolver(Solver):
    """Base of the family: the highest position rank (``position-rank``)."""

    #: Turns (0-based guess numbers) at which this member plays something else than its best.
    special_turns: dict[int, str] = {}
    presets = False

    def __init__(self, ctx, settings, opener=None, second: str | None = None) -> None:
        super().__init__(ctx, settings, opener)
        self.second = as_word("second_preset", second, ctx.words)
        if self.presets and self.second is None:
            self.second = self._paper_word(PAPER_SECOND)
        self._memo: dict[bytes, int] = {}

    def _paper_word(self, word: str) -> int | None:
        try:
            return self.ctx.words.index(word)
        except EvoWordleError:  # a custom word list without the paper's words
            return None

    def default_opener(self, state: GameState) -> int:
        paper = self._paper_word(PAPER_OPENER)
        return paper if paper is not None else self.pick(state)

    # -- scoring -----------------------------------------------------------------------
    def scores(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        """Higher is better; the base ranks by position."""
        return position_scores(self.ctx, guesses, state.history)

    def best(self, guesses: np.ndarray, state: GameState) -> int:
        """The highest-scoring word of ``guesses``."""
        return int(guesses[np.argmax(self.scores(guesses, state))])

    def ranked(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        """Guesses best first; equal scores keep alphabetical order."""
        return guesses[np.argsort(-self.scores(guesses, state), kind="stable")]

    # -- the policy --------------------------------------------------------------------
    def pick(self, state: GameState) -> int:
        """The best guessable word in ``state``."""
        if len(state.candidates) == 1:
            return int(state.candidates[0])
        key = state.key() + b"|" + np.asarray(state.history, dtype=np.int64).tobytes()
        hit = self._memo.get(key)
        if hit is None:
            hit = self._decide(state)
            self._memo[key] = hit
        return hit

    def _decide(self, state: GameState) -> int:
        if self.presets and state.turn == 1 and self.second is not None and self._legal(self.second, state):
            return self.second
        guesses = state.guessable(self.settings.guess_from)
        how = self.special_turns.get(state.turn)
        if how == "lowest":
            return self.ranked(guesses, state)[-1].item()
        if how == "median":
            return self.ranked(guesses, state)[len(guesses) // 2].item()
        return self.best(guesses, state)

    def _legal(self, word: int, state: GameState) -> bool:
        """A preset is skipped when hard mode forbids it or it was already played."""
        if any(word == g for g, _ in state.history):
            return False
        return not (state.hard and not hard_mode_mask(self.ctx, state.history)[word])

    # -- options -----------------------------------------------------------------------
    @classmethod
    def add_options(cls, parser: argparse.ArgumentParser) -> None:
        group = parser.add_argument_group("position-ranking solvers")
        group.add_argument(
            "--second-preset",
            metavar="WORD",
            help="two-preset / hybrid-two-preset: the second fixed guess (default: linum)",
        )

    @classmethod
    def options_from_args(cls, args: argparse.Namespace) -> dict:
        second = getattr(args, "second_preset", None)
        if second and not cls.presets:
            raise EvoWordleError(f"--second-preset only applies to two-preset solvers, not {cls.name}")
        return {"second": second} if second else {}

    def describe(self) -> dict:
        out = super().describe()
        if self.presets and self.second is not None:
            out["second_preset"] = self.ctx.words.allowed[self.second]
        return out


register("position-rank")(PositionRankSolver)


@register("low-position-rank")
class LowPositionRankSolver(PositionRankSolver):
    """The lowest-ranked word as the 2nd guess, then the highest."""

    special_turns = {1: "lowest"}


@register("average-position-rank")
class AveragePositionRankSolver(PositionRankSolver):
    """The median-ranked word as the 2nd and 3rd guesses, then the highest."""

    special_turns = {1: "median", 2: "median"}


@register("two-preset")
class TwoPresetSolver(PositionRankSolver):
    """Two fixed guesses covering ten letters (TARES, LINUM), then the highest position rank."""

    presets = True


@register("letter-entropy")
class LetterEntropySolver(PositionRankSolver):
    """The highest summed per-slot letter entropy x·(1−x) over the remaining candidates."""

    def scores(self, guesses, state):
        return letter_entropy_scores(self.ctx, guesses, state.candidates)


@register("hybrid")
class HybridSolver(PositionRankSolver):
    """The highest mean of the max-normalised position rank and letter-entropy score."""

    def scores(self, guesses, state):
        pos = _normalised(position_scores(self.ctx, guesses, state.history))
        ent = _normalised(letter_entropy_scores(self.ctx, guesses, state.candidates))
        return (pos + ent) / 2.0


@register("hybrid-two-preset")
class HybridTwoPresetSolver(HybridSolver):
    """The two presets, then ``hybrid``."""

    presets = True


@register("max-prune")
class MaxPruneSolver(PositionRankSolver):
    """Of the top 10 by position rank, the word that removes most candidates on average."""

    def best(self, guesses, state):
        """Among the top-ranked words, the one expected to leave the fewest candidates."""
        short = self.ranked(guesses, state)[:TOP_K]
        table = self.ctx.table
        cand = state.candidates
        codes = table[short][:, cand].astype(np.int64)
        codes += (np.arange(len(short)) * self.ctx.words.n_patterns)[:, None]
        counts = np.bincount(codes.ravel(), minlength=len(short) * self.ctx.words.n_patterns)
        counts = counts.reshape(len(short), -1).astype(np.float64)
        # Expected survivors over a uniform answer = Σ count² / n; pruned = n − survivors.
        pruned = len(cand) - (counts**2).sum(axis=1) / len(cand)
        return int(short[np.argmax(pruned)])
