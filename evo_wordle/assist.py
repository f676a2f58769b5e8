"""The assistant: help a person play today's puzzle, one guess and one row of colours at a time.

:class:`AssistSession` holds the game (a stack of :class:`~evo_wordle.game.GameState`, so ``undo``
is exact and impossible feedback never loses what came before) and answers questions about it;
:func:`run_assist` is the text dialogue on any pair of streams, so it is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from . import patterns
from .context import Context
from .entropy import entropies
from .errors import EvoWordleError, ImpossibleFeedback
from .game import GameState, Settings, hard_mode_mask

UNDO = {"undo", "u", "back"}
QUIT = {"quit", "exit", "q"}


@dataclass(frozen=True)
class Alternative:
    """A possible next guess with the two scores the assistant shows."""

    word: str
    entropy: float
    score: float  # priority × entropy, the greedy baseline's criterion
    candidate: bool  # could it be the answer?


class AssistSession:
    """One puzzle being played with help from ``solver`` (any registered solver, already built)."""

    def __init__(self, ctx: Context, settings: Settings, solver) -> None:
        self.ctx = ctx
        self.settings = settings
        self.solver = solver
        self.states: list[GameState] = [GameState.start(ctx, settings)]
        self.solved = False
        self._suggested: dict[tuple, int] = {}

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def turn(self) -> int:
        """Guesses entered so far."""
        return self.state.turn

    def suggest(self) -> str:
        """The solver's next guess for the current state (asked once per state, so a stochastic
        or GA solver keeps its suggestion across re-prompts and undo)."""
        key = self.state.history
        if key not in self._suggested:
            self._suggested[key] = int(self.solver.choose(self.state))
        return self.ctx.words.allowed[self._suggested[key]]

    def check_guess(self, text: str) -> int:
        """Index of the typed word, or EvoWordleError if it is unknown or breaks hard mode."""
        guess = self.ctx.words.index(text)
        if self.state.hard and self.state.history:
            if not hard_mode_mask(self.ctx, self.state.history)[guess]:
                raise EvoWordleError(
                    f"{text.strip().upper()} breaks hard mode: every revealed green must stay in place "
                    "and every revealed yellow must be reused"
                )
        return guess

    def enter(self, guess: int, pattern: int) -> GameState:
        """Record ``guess`` with its colours; ImpossibleFeedback leaves the game unchanged."""
        nxt = self.state.after(guess, pattern)  # raises ImpossibleFeedback before anything changes
        self.states.append(nxt)
        self.solved = pattern == self.ctx.words.solved
        return nxt

    def fits_any_allowed(self, guess: int, pattern: int) -> bool:
        """Would some allowed word (not only the candidates) fit the history plus this row?"""
        words = self.ctx.all_words
        for g, p in self.state.history + ((guess, pattern),):
            words = words[self.ctx.table[g, words] == p]
        return len(words) > 0

    def undo(self) -> bool:
        """Take back the last guess; False if there is none."""
        if len(self.states) == 1:
            return False
        self.states.pop()
        self.solved = False
        return True

    def remaining(self, limit: int | None = None) -> list[str]:
        """Remaining candidates, most common words first (by the thesis's frequency priority)."""
        cand = self.state.candidates
        order = np.lexsort((cand, -self.ctx.priority[cand]))
        if limit is not None:
            order = order[:limit]
        return [self.ctx.words.allowed[i] for i in cand[order]]

    def alternatives(self, top: int = 5) -> list[Alternative]:
        """The best next guesses by priority × entropy (ties: higher entropy, then alphabetical)."""
        state = self.state
        if len(state.candidates) <= 1:
            return []
        pool = state.guessable(self.settings.guess_from)
        bits = entropies(self.ctx.table, pool, state.candidates, n_patterns=self.ctx.words.n_patterns)
        score = bits * self.ctx.priority[pool]
        order = np.lexsort((pool, -bits, -score))[:top]
        possible = np.isin(pool[order], state.candidates)
        return [
            Alternative(self.ctx.words.allowed[pool[i]], float(bits[i]), float(score[i]), bool(p))
            for i, p in zip(order, possible)
        ]


def _lines(stream: TextIO) -> Iterator[str]:
    for line in stream:
        yield line.rstrip("\r\n")


def run_assist(
    session: AssistSession,
    stdin: TextIO,
    stdout: TextIO,
    color: bool = False,
    top: int = 5,
    show: int = 8,
) -> int:
    """The dialogue: suggest, read a word (Enter accepts), read its colours, report; returns 0.

    Commands at either prompt: ``undo`` (at the colours prompt it drops the word just chosen;
    otherwise it takes back the last guess) and ``quit``.  End of input ends cleanly.
    """
    ctx = session.ctx
    n = ctx.words.length
    lines = _lines(stdin)

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    def ask(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()
        line = next(lines, None)
        if line is None:
            stdout.write("\n")
        return line

    say(
        f"evo-wordle assist: {session.solver.name} solver, {len(session.state.candidates):,} possible answers"
        f"{', hard mode' if session.settings.hard else ''}."
    )
    say("Type a word or press Enter for the suggestion, then its colours as 20110, GYBBY or 🟩🟨⬛.")
    say("'undo' takes back a guess, 'quit' or end of input stops.")
    while not session.solved:
        suggestion = session.suggest()
        say()
        say(f"Guess {session.turn + 1}: suggested {suggestion.upper()}")
        line = ask("word> ")
        if line is None or line.strip().lower() in QUIT:
            say("Bye.")
            return 0
        text = line.strip().lower()
        if text in UNDO:
            if session.undo():
                say(f"Took back guess {session.turn + 1}; {len(session.state.candidates):,} candidates again.")
            else:
                say("Nothing to undo.")
            continue
        try:
            guess = session.check_guess(text) if text else ctx.words.index(suggestion)
        except EvoWordleError as exc:
            say(f"! {exc}")
            continue
        word = ctx.words.allowed[guess]
        while True:
            line = ask(f"colours for {word.upper()}> ")
            if line is None or line.strip().lower() in QUIT:
                say("Bye.")
                return 0
            if line.strip().lower() in UNDO:
                say(f"Dropped {word.upper()}.")
                break
            if not line.strip():
                say("! type the colours you got, e.g. 20110, GYBBY or 🟩🟨⬛⬛⬛ (or 'undo')")
                continue
            try:
                pattern = patterns.parse(line, n)
            except EvoWordleError as exc:
                say(f"! {exc}")
                continue
            try:
                session.enter(guess, pattern)
            except ImpossibleFeedback:
                say(
                    f"! Impossible feedback: no candidate word gives {patterns.to_emoji(pattern, n)} for "
                    f"{word.upper()} after the guesses so far. Check the colours and type them again "
                    f"({_kept(session.turn)}), "
                    "or 'undo'."
                    + (" (Only answer-list words are considered, but an allowed word fits: "
                       "try --candidates allowed.)"
                       if session.settings.candidates == "answers" and session.fits_any_allowed(guess, pattern)
                       else "")
                )
                continue
            _report(session, word, pattern, color, top, show, say)
            break
    return 0


def _kept(turns: int) -> str:
    if turns == 0:
        return "nothing was entered yet"
    return f"your earlier guess{'es are' if turns != 1 else ' is'} kept"


def _report(session: AssistSession, word: str, pattern: int, color: bool, top: int, show: int, say) -> None:
    """Print the row just entered, what is left, and the best alternatives."""
    say(patterns.tiles(word, pattern, color=color))
    if session.solved:
        guesses = session.turn
        say(f"Solved in {guesses} guess{'es' if guesses != 1 else ''}: {word.upper()}!")
        return
    left = len(session.state.candidates)
    names = session.remaining(show)
    more = f" … (+{left - len(names):,})" if left > len(names) else ""
    say(f"{left:,} candidate{'s' if left != 1 else ''} left: {' '.join(w.upper() for w in names)}{more}")
    if left == 1:
        return
    alts = session.alternatives(top)
    if alts:
        say("  best next guesses      entropy   priority×entropy")
        for alt in alts:
            mark = "*" if alt.candidate else " "
            say(f"  {alt.word.upper():<8}{mark}            {alt.entropy:7.4f}   {alt.score:7.4f}")
        say("  (* could be the answer)")
