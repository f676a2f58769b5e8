"""The assistant: help a person play today's puzzle, one guess and one row of colours at a time.

:class:`AssistSession` holds the game (a stack of :class:`~evo_wordle.game.GameState`, so ``undo``
is exact and impossible feedback never loses what came before) and answers questions about it;
:func:`run_assist` is the text dialogue on any pair of streams, so it is tested without a terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, TextIO

import numpy as np

from . import patterns
from .context import Context
from .entropy import entropies
from .errors import EvoWordleError, ImpossibleFeedback
from .game import MAX_GUESSES, GameState, Settings, hard_mode_mask, play
from .stats import mean_ci
from .wording import count

UNDO = {"undo", "u", "back"}
QUIT = {"quit", "exit", "q"}
LISTS = ("answers", "allowed")
#: Candidates the expected guesses to finish plays at most (a seeded draw stands for more) ...
SAMPLE = 100
#: ... within this many seconds ...
BUDGET = 1.5
#: ... and the fewest games a figure is shown from when they stand for more candidates: one or two
#: games of a slow solver (p0-plan on the allowed list) are no estimate of hundreds of candidates.
MIN_SAMPLE = 10


class _Estimate(NamedTuple):
    """One state's expected guesses to finish with what is shown beside it, cached as one record so
    the figure, its cap share and its interval cannot come from different runs."""

    mean: float
    games: int  # answers it averages over (the candidates played or the draws they stand for)
    beyond: float  # share (same weights) needing more guesses than the cap leaves
    spread: float  # half-width of the draws' 95 % interval; nan for the candidates themselves


@dataclass(frozen=True)
class Alternative:
    """A possible next guess with the two scores the assistant shows."""

    word: str
    entropy: float
    score: float  # priority × entropy, the greedy baseline's criterion (or the session's prior × entropy)
    candidate: bool  # could it be the answer?


class AssistSession:
    """One puzzle being played with help from ``solver`` (any registered solver, already built).

    ``prior`` (one weight > 0 per allowed word, e.g. the prior a strategy solver plays by: the
    one its file stores, else its genome's) replaces the frequency weights in everything shown:
    the order of the candidates, the weights of the expected guesses to finish, and the
    alternatives' entropy and score; ``mix`` (in [0, 1], a genome's gene) blends it with a uniform
    share over the candidates, as that solver does; ``prior_about`` says where it comes from
    (printed once)."""

    def __init__(self, ctx: Context, settings: Settings, solver, make_solver: Callable | None = None,
                 prior: np.ndarray | None = None, prior_about: str = "", mix: float = 0.0) -> None:
        self.ctx = ctx
        self.settings = settings
        self.solver = solver
        #: ``make_solver(settings)`` builds the solver again when the candidate list switches.
        self.make_solver = make_solver
        if prior is not None:
            from .evolve.strategy import check_prior

            prior = check_prior(prior, len(ctx.words))
        if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0.0 <= mix <= 1.0:
            raise EvoWordleError(f"mix must be a number in [0, 1], not {mix!r}")
        if mix and prior is None:
            raise EvoWordleError("mix blends a prior with uniform weights: give the prior too")
        self.prior = prior
        self.mix = float(mix)
        self.prior_about = prior_about
        self.states: list[GameState] = [GameState.start(ctx, settings)]
        self.solved = False
        self._suggested: dict[tuple, int] = {}
        self._estimates: dict[tuple, _Estimate] = {}
        #: How :meth:`expected_to_finish` samples by default (a slow solver gets few games in the budget).
        self.sample, self.budget = SAMPLE, BUDGET

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
        nxt = self.state.after(guess, pattern)  # checks both; raises before anything changes
        self.states.append(nxt)
        self.solved = nxt.history[-1][1] == self.ctx.words.solved
        return nxt

    def fits_any_allowed(self, guess: int, pattern: int) -> bool:
        """Would some allowed word (not only the candidates) fit the history plus this row?"""
        guess = self.ctx.words.check_index(guess, "guess")
        pattern = patterns.check_code(pattern, self.ctx.words.length)
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

    def switch_candidates(self, candidates: str) -> None:
        """Let ``candidates`` ("answers" or "allowed") be who may be the answer, keeping every guess
        entered; refused (EvoWordleError, nothing changed) if the feedback so far rules that list out."""
        if candidates not in LISTS:
            raise EvoWordleError(f"unknown list {candidates!r} (answers or allowed)")
        if candidates == self.settings.candidates:
            return
        settings = self.settings.with_(candidates=candidates)
        states = [GameState.start(self.ctx, settings)]
        try:
            for guess, pattern in self.state.history:
                states.append(states[-1].after(guess, pattern))
        except ImpossibleFeedback:
            raise EvoWordleError(f"no {candidates}-list word fits the colours entered so far; kept the "
                                 f"{self.settings.candidates} list") from None
        solver = self.make_solver(settings) if self.make_solver else self.solver
        self.settings, self.states, self.solver = settings, states, solver
        self._suggested.clear()

    def weights(self, candidates: np.ndarray) -> np.ndarray:
        """How likely each of ``candidates`` is the answer (summing to 1): the session's prior when
        it has one (blended with ``mix`` uniform, as the strategy solver weighs them), else the answer
        prior of the list (uniform for answers, word frequency for allowed)."""
        if self.prior is not None:
            w = self.prior[candidates]
        else:
            from .ga.fitness import answer_weights

            w = answer_weights(self.ctx, self.settings.candidates)[candidates].astype(float)
        w = w / w.sum()
        return (1.0 - self.mix) * w + self.mix / len(candidates) if self.mix else w

    def expected_to_finish(self, sample: int | None = None, budget: float | None = None) -> tuple[float, int]:
        """(mean guesses still needed when every suggestion is followed, answers it averages over:
        the candidates played or, sampled, the draws they stand for).

        The solver (built afresh, so the session's own is untouched) plays on from the current
        state against the candidates left, each weighted by :meth:`weights`; above ``sample``
        (default: the session's ``sample``, :data:`SAMPLE`) candidates a seeded draw of ``sample``
        by the weights (with replacement; an answer drawn twice counts twice) stands for them, and
        play stops after ``budget`` (default: its ``budget``,
        :data:`BUDGET`) seconds with what it has: the candidates are played in a seeded random
        order, so a cut leaves a random part of them, not the alphabetically first."""
        estimate = self._estimate(sample, budget)
        return estimate.mean, estimate.games

    def _estimate(self, sample: int | None = None, budget: float | None = None) -> _Estimate:
        """The state's :class:`_Estimate` (see :meth:`expected_to_finish`), played once per
        candidate list and history."""
        sample = self.sample if sample is None else sample
        budget = self.budget if budget is None else budget
        key = (self.settings.candidates, self.state.history)
        if key in self._estimates:
            return self._estimates[key]
        cand = self.state.candidates
        w = self.weights(cand)
        rng = np.random.default_rng(np.random.SeedSequence([len(self.state.history), len(cand)]))
        if len(cand) > sample:
            # A draw by the weights with replacement, each answer counted as often as drawn: the
            # weighted mean without bias.  Drawn without replacement and counted once each, a word
            # frequency prior was flattened towards the plain mean (3.50 shown for 3.16).
            drawn, counts = np.unique(rng.choice(cand, size=sample, replace=True, p=w), return_counts=True)
            order = rng.permutation(len(drawn))
            answers, weights = drawn[order], counts[order].astype(float)
        else:
            order = rng.permutation(len(cand))
            answers, weights = cand[order], w[order]
        # Played on without the guess cap: capped at the guesses left, every game the cap cut
        # short counted as finished in them ("1.00" with 167 candidates left at the cap).
        left = self.settings.max_guesses - self.turn
        settings = self.settings.with_(max_guesses=MAX_GUESSES)
        solver = self.make_solver(self.settings) if self.make_solver else self.solver
        scores, used, beyond = [], [], []
        start = time.perf_counter()
        for answer, weight in zip(answers, weights):
            solver.reset(np.random.default_rng(rng.integers(2**63)))
            record = play(solver, self.state, int(answer), settings)
            scores.append(record.score(settings.max_guesses))
            beyond.append(not record.solved or len(record.guesses) > left)
            used.append(weight)
            if time.perf_counter() - start > budget:
                break
        # a sampled figure stands for as many draws as its games were drawn (an answer drawn twice, twice)
        sampled = len(cand) > sample
        estimate = _Estimate(
            float(np.average(scores, weights=used)),
            int(sum(used)) if sampled else len(scores),
            float(np.average(beyond, weights=used)),
            # the draws' 95 % interval; none for the candidates themselves (whole, or a budget's random part)
            mean_ci(np.repeat(scores, np.asarray(used, dtype=int)))[1] if sampled else float("nan"),
        )
        self._estimates[key] = estimate
        return estimate

    def spread(self) -> float:
        """Half-width of the 95 % interval of :meth:`expected_to_finish` when a draw stood for the
        candidates (nan otherwise, and for a single draw): the figure is an estimate, and says so."""
        return self._estimate().spread

    def beyond_cap(self) -> float:
        """The share (same weights) of the answers :meth:`expected_to_finish` played on that need
        more guesses than ``--max-guesses`` leaves (0.0 when the cap never binds)."""
        return self._estimate().beyond

    def remaining(self, limit: int | None = None) -> list[str]:
        """Remaining candidates, likeliest first (by the session's prior, else the thesis's
        frequency priority; ties alphabetical)."""
        cand = self.state.candidates
        order = np.lexsort((cand, -self.priority[cand]))
        if limit is not None:
            order = order[:limit]
        return [self.ctx.words.allowed[i] for i in cand[order]]

    @cached_property
    def priority(self) -> np.ndarray:
        """Each allowed word's priority in [0, 1]: the thesis's frequency priority, or the
        session's prior (with its mix, over the whole allowed list) scaled so that its likeliest
        word has 1.  Computed once: the prior and mix do not change during a session."""
        if self.prior is None:
            return self.ctx.priority
        w = self.weights(self.ctx.all_words)
        return w / w.max()

    def alternatives(self, top: int = 5) -> list[Alternative]:
        """The best next guesses by priority × entropy (ties: higher entropy, then alphabetical);
        with a prior, the entropy weighs the candidates by it and the priority is :attr:`priority`."""
        state = self.state
        if len(state.candidates) <= 1:
            return []
        pool = state.guessable(self.settings.guess_from)
        w = None if self.prior is None else self.weights(state.candidates)
        bits = entropies(self.ctx.table, pool, state.candidates, w, n_patterns=self.ctx.words.n_patterns)
        score = bits * self.priority[pool]
        order = np.lexsort((pool, -bits, -score))[:top]
        possible = np.isin(pool[order], state.candidates)
        return [
            Alternative(self.ctx.words.allowed[pool[i]], float(bits[i]), float(score[i]), bool(p))
            for i, p in zip(order, possible)
        ]


Reader = Callable[[str], "str | None"]


def stream_reader(stdin: TextIO, stdout: TextIO) -> Reader:
    """Read answers line by line from any stream (piped input, tests): the prompt is written,
    end of input gives None."""
    lines = (line.rstrip("\r\n") for line in stdin)

    def read(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()
        line = next(lines, None)
        if line is None:
            stdout.write("\n")
        return line

    return read


def terminal_reader() -> Reader:
    """Read from the terminal with the stdlib's readline: arrow keys edit the line, up and down
    recall earlier answers of this session; Ctrl-D (end of input) gives None."""
    import readline  # noqa: F401  (importing it gives input() line editing and history)

    def read(prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            print()
            return None

    return read


def run_assist(
    session: AssistSession,
    stdin: TextIO,
    stdout: TextIO,
    color: bool = False,
    top: int = 5,
    show: int = 8,
    read: Reader | None = None,
) -> int:
    """The dialogue: suggest, read a word (Enter accepts), read its colours, redraw; returns 0.

    Commands at the word prompt: ``undo`` (take back the last guess), ``list answers`` /
    ``list allowed`` (switch who may be the answer), ``help``, ``quit``; at the colours prompt
    ``undo`` drops the word just chosen.  After every change the board is drawn again.  End of
    input ends cleanly.  ``read`` (default: lines of ``stdin``) asks one question.
    """
    ctx = session.ctx
    n = ctx.words.length
    ask = read or stream_reader(stdin, stdout)

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    say(
        f"evo-wordle assist: {session.solver.name} solver, {len(session.state.candidates):,} possible answers"
        f" ({session.settings.candidates} list){', hard mode' if session.settings.hard else ''}."
    )
    if session.prior is not None:
        say(f"Candidates are weighted by {session.prior_about or 'the given prior'}, as the solver weighs them "
            "(not by assist's usual weights).")
    digits, letters, emoji = colour_examples(n)
    say(f"Type a word or press Enter for the suggestion, then its colours as {digits}, {letters} or {emoji}.")
    say("'undo' takes back a guess, 'list answers' or 'list allowed' switches who may be the answer,")
    say("'help' shows this again, 'quit' or end of input stops.")
    while not session.solved:
        suggestion = session.suggest()
        say()
        say(f"Guess {session.turn + 1}: suggested {suggestion.upper()}")
        line = ask("word> ")
        if line is None or line.strip().lower() in QUIT:
            say("Bye.")
            return 0
        text = " ".join(line.strip().lower().split())
        if text in UNDO:
            if session.undo():
                say(f"Took back guess {session.turn + 1}; {len(session.state.candidates):,} candidates again.")
                draw_board(session, color, top, show, say)
            else:
                say("Nothing to undo.")
            continue
        if text in HELP:
            say(help_text(ctx))
            continue
        if text.split()[:1] == ["list"]:
            _switch(session, text, color, top, show, say)
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
                say(f"! type the colours you got, e.g. {digits}, {letters} or {emoji} (or 'undo')")
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
                       "type 'list allowed'.)"
                       if session.settings.candidates == "answers" and session.fits_any_allowed(guess, pattern)
                       else "")
                )
                continue
            draw_board(session, color, top, show, say)
            break
    return 0


HELP = {"help", "h", "?"}
def colour_examples(length: int) -> tuple[str, str, str]:
    """One row of colours written the three ways the colours prompt reads (digits, G/Y/B letters,
    emoji), with one tile per letter of the game's words: five-tile examples are refused in a
    six-letter game."""
    code = patterns.encode(([2, 0, 1, 1, 0] + [0] * length)[:length])
    return patterns.to_digits(code, length), patterns.to_letters(code, length), patterns.to_emoji(code, length)


def help_text(ctx: Context) -> str:
    """The commands, with colour examples as long as the words and the answer list as it is."""
    digits, letters, emoji = colour_examples(ctx.words.length)
    answers = f"{len(ctx.words.answer_index):,} answers, list {ctx.words.label}"
    return f"""commands at the word prompt:
  Enter                play the suggested word
  WORD                 play another allowed word
  undo                 take back the last guess
  list answers         only answer-list words may be the answer ({answers})
  list allowed         any allowed word may be the answer
  help                 this text
  quit                 stop (so does end of input)
at the colours prompt: {digits} / {letters} / {emoji} (2 G 🟩 green, 1 Y 🟨 yellow, 0 B ⬛ grey), or undo"""


def _switch(session: AssistSession, text: str, color: bool, top: int, show: int, say) -> None:
    parts = text.split()
    if len(parts) != 2 or parts[1] not in LISTS:
        say("! type 'list answers' or 'list allowed'")
        return
    try:
        session.switch_candidates(parts[1])
    except EvoWordleError as exc:
        say(f"! {exc}")
        return
    say(f"Now any {'answer-list' if parts[1] == 'answers' else 'allowed'} word may be the answer.")
    draw_board(session, color, top, show, say)


def _kept(turns: int) -> str:
    if turns == 0:
        return "nothing was entered yet"
    return f"your earlier guess{'es are' if turns != 1 else ' is'} kept"


def draw_board(session: AssistSession, color: bool, top: int, show: int, say) -> None:
    """The whole board so far, what is left, the expected guesses to finish and the best
    alternatives (drawn after every guess, undo and list switch)."""
    ctx = session.ctx
    for k, (guess, pattern) in enumerate(session.state.history, 1):
        say(f"  {k}  {patterns.tiles(ctx.words.allowed[guess], pattern, color=color)}")
    if session.solved:
        guesses = session.turn
        word = ctx.words.allowed[session.state.history[-1][0]]
        say(f"Solved in {guesses} guess{'es' if guesses != 1 else ''}: {word.upper()}!")
        return
    if not color and session.state.history:
        say("  (each letter followed by G green, Y yellow or B grey)")
    left = len(session.state.candidates)
    names = session.remaining(show)
    more = f" … (+{left - len(names):,})" if left > len(names) else ""
    say(f"{left:,} candidate{'s' if left != 1 else ''} left: {' '.join(w.upper() for w in names)}{more}")
    mean, games = session.expected_to_finish()
    needed = min(left, MIN_SAMPLE)
    if games < needed:
        say(f"expected guesses to finish: not estimated: only {count(games, 'game', fmt=',')} fitted in the "
            f"{session.budget:g} s budget, too few to stand for {count(left, 'candidate', fmt=',')} "
            f"(it takes {needed})")
    else:
        over = "every candidate" if games == left else f"{count(games, 'sampled candidate', fmt=',')}"
        half = session.spread()
        plus = "" if np.isnan(half) else f" ± {half:.2f}"
        say(f"expected guesses to finish: {mean:.2f}{plus} following the suggestions ({over})")
        beyond = session.beyond_cap()
        if beyond > 0:
            cap, rest = session.settings.max_guesses, max(session.settings.max_guesses - session.turn, 0)
            say(f"  {100 * beyond:.0f} % of them need more than the {rest} guess{'' if rest == 1 else 'es'} left "
                f"of --max-guesses {cap}")
    if left == 1:
        return
    _alternatives(session, top, say)


def _alternatives(session: AssistSession, top: int, say) -> None:
    """The table of the best next guesses."""
    alts = session.alternatives(top)
    if alts:
        say(f"  best guesses        entropy   {'priority' if session.prior is None else '   prior'}×entropy   "
            "could be the answer")
        for alt in alts:
            say(f"  {alt.word.upper():<8}          {alt.entropy:7.4f}   {alt.score:16.4f}   "
                f"{'yes' if alt.candidate else 'no'}")
