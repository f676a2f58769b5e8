"""Game rules: problem settings, the state a solver sees, hard mode, and one game's loop."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np

from .context import Context
from .errors import EvoWordleError, ImpossibleFeedback
from .params import as_bool, as_choice, as_int
from .patterns import check_code

#: The thesis's relaxations as settings of the three axes (candidates, guess_from, daily).
PROBLEMS = {
    "P0": {"candidates": "allowed", "guess_from": "candidates", "daily": False},
    "P1": {"candidates": "answers", "guess_from": "candidates", "daily": False},
    "P2": {"candidates": "allowed", "guess_from": "candidates", "daily": True},
    "P3": {"candidates": "answers", "guess_from": "candidates", "daily": True},
}


#: Largest guess cap and board count a setting may ask for (beyond them nothing is meaningful
#: and a game's arrays would only grow).
MAX_GUESSES = 1000
MAX_BOARDS = 64


def win_limit(boards: int) -> int:
    """Guesses within which a game counts as won: 6 for Wordle, N + 5 for N boards."""
    return 6 if boards == 1 else boards + 5


def default_cap(boards: int) -> int:
    """The guess cap when none is given: 9 for one board (the thesis's), the win limit N + 5 for
    N boards."""
    return 9 if boards == 1 else win_limit(boards)


@dataclass(frozen=True)
class Settings:
    """How a game is played, as far as the solver is concerned."""

    candidates: str = "allowed"  # who may be the answer: "allowed" (P0) or "answers" (P1)
    guess_from: str = "candidates"  # "candidates" (consistent words only) or "allowed"
    hard: bool = False
    daily: bool = False  # P2/P3: past answers leave later games' candidates
    #: a game not solved by then is a failure; None (the default) is :func:`default_cap` of the
    #: board count, so ``Settings(boards=8)`` plays to Octordle's 13, not one board's 9
    max_guesses: int | None = None
    boards: int = 1

    def __post_init__(self) -> None:
        as_choice("candidates", self.candidates, ("allowed", "answers"))
        as_choice("guess_from", self.guess_from, ("candidates", "allowed"))
        for name in ("hard", "daily"):
            object.__setattr__(self, name, as_bool(name, getattr(self, name)))
        object.__setattr__(self, "boards", as_int("boards", self.boards, 1, MAX_BOARDS))
        # whether the cap was given (not a field: equal settings play alike, asdict is unchanged);
        # with_ moves only a cap that was not, so a given 9 stays 9 on eight boards
        object.__setattr__(self, "_cap_given", self.max_guesses is not None)
        cap = default_cap(self.boards) if self.max_guesses is None else self.max_guesses
        object.__setattr__(self, "max_guesses", as_int("max_guesses", cap, 1, MAX_GUESSES))

    @classmethod
    def problem(cls, name: str, **overrides) -> Settings:
        """The settings of problem ``name`` (P0-P3), with ``overrides``."""
        try:
            base = PROBLEMS[name.upper()]
        except KeyError:
            raise EvoWordleError(f"unknown problem {name!r} (choose from {', '.join(PROBLEMS)})") from None
        return cls(**{**base, **overrides})

    def with_(self, **changes) -> Settings:
        """A copy with ``changes`` applied (validated).  A cap left to its default follows a new
        board count (``Settings().with_(boards=8)`` plays to Octordle's 13, not one board's 9); a
        cap that was given stays, even one equal to the old default (``Settings(max_guesses=9)``
        asked for 9: it was moved to 13 because 9 is one board's default).  A cap read back
        from a file or summary (``Settings(**d)``) was given.  (``dataclasses.replace`` keeps
        every cap.)"""
        if "max_guesses" not in changes and not self._cap_given:
            changes["max_guesses"] = None
        return replace(self, **changes)

    def as_dict(self) -> dict:
        """The fields by name (what bench summaries record)."""
        return asdict(self)

    @property
    def win_limit(self) -> int:
        """Guesses within which a game counts as won here (:func:`win_limit` of the board count)."""
        return win_limit(self.boards)

    @property
    def capped(self) -> bool:
        """Whether the ``max_guesses`` cap is below the win limit (no game then goes on to it)."""
        return self.max_guesses < self.win_limit

    @property
    def plays_past_limit(self) -> bool:
        """Whether the ``max_guesses`` cap lies above the win limit (one board's default 9 over 6):
        only then may a game go on, and be solved, after the limit."""
        return self.max_guesses > self.win_limit

    @property
    def won_within(self) -> int:
        """Guesses within which a game is won here: the win limit, or ``max_guesses`` when that
        cap is lower."""
        return self.max_guesses if self.capped else self.win_limit

    def fail_text(self, cap_note: bool = True) -> str:
        """What a failure is here, for "fail rate … %": "over 6" when games may go on past the
        win limit; else "not solved within 9" (Quordle: the cap is the limit) or "not solved within
        4 (the --max-guesses cap)" when the cap is below the limit (``cap_note=False``: without
        the parenthesis, as figure legends put it).  The one wording of the failure rule."""
        if self.plays_past_limit:
            return f"over {self.win_limit}"
        note = " (the --max-guesses cap)" if cap_note and self.capped else ""
        return f"not solved within {self.won_within}{note}"


def check_one_board(settings: Settings, who: str) -> None:
    """Refuse, in one line, several boards where only one is played (a one-board solver or game
    state would otherwise play board 1 alone and report it as the whole game)."""
    if settings.boards > 1:
        raise EvoWordleError(f"{who} plays one board, not {settings.boards}: several boards are played by the "
                             "summed-entropy policy (evo_wordle.boards.play_boards; bench/solve --boards N)")


def check_solver_args(ctx: Context, settings: Settings, who: str = "") -> None:
    """Refuse, in one line, a ``ctx`` that is not a Context or ``settings`` that are not Settings,
    before anything reads ``ctx.words`` or ``settings.candidates`` (an AttributeError otherwise);
    ``who`` (a class name) leads the message when given.  One check for make_solver, every
    solver class and the multi-board policy."""
    lead = f"{who}: " if who else ""
    if not isinstance(ctx, Context):
        raise EvoWordleError(f"{lead}ctx must be a Context, not {type(ctx).__name__}")
    if not isinstance(settings, Settings):
        raise EvoWordleError(f"{lead}settings must be a Settings (e.g. Settings.problem('P1')), not {settings!r}")


@dataclass(frozen=True)
class GameState:
    """What a solver knows: the remaining candidates and the (guess, pattern) history.

    ``candidates`` is a sorted int64 array of allowed-word indices; states are immutable so
    solvers can memoise decisions on :meth:`key`.
    """

    ctx: Context = field(repr=False, compare=False)
    candidates: np.ndarray
    history: tuple[tuple[int, int], ...] = ()
    hard: bool = False

    @classmethod
    def start(cls, ctx: Context, settings: Settings, excluded: np.ndarray | None = None) -> GameState:
        """The state before the first guess: every candidate of ``settings`` but ``excluded``
        (one board: several are played by :func:`evo_wordle.boards.play_boards`)."""
        check_one_board(settings, "GameState")
        cand = ctx.candidates(settings.candidates)
        if excluded is not None and len(excluded):
            cand = np.setdiff1d(cand, excluded, assume_unique=True)
        return cls(ctx, np.asarray(cand, dtype=np.int64), (), settings.hard)

    @property
    def turn(self) -> int:
        """How many guesses have been made."""
        return len(self.history)

    def key(self) -> bytes:
        """A hashable identity of the decision situation (for memoising solvers)."""
        extra = np.asarray(self.history, dtype=np.int64).tobytes() if self.hard else b""
        return self.candidates.tobytes() + extra

    def after(self, guess: int, pattern: int) -> GameState:
        """The state once ``guess`` got ``pattern``; raises ImpossibleFeedback if nothing fits.
        ``guess`` is an allowed-word index, ``pattern`` a feedback code (0 … 3^length − 1): anything
        else (a negative index included: it never wraps) is refused with EvoWordleError."""
        words = self.ctx.words
        guess, pattern = words.check_index(guess, "guess"), check_code(pattern, words.length)
        keep = self.ctx.table[guess, self.candidates] == pattern
        nxt = GameState(self.ctx, self.candidates[keep], self.history + ((guess, pattern),), self.hard)
        if len(nxt.candidates) == 0:
            raise ImpossibleFeedback("no candidate word fits this feedback")
        return nxt

    def guessable(self, guess_from: str = "candidates") -> np.ndarray:
        """Words a solver may play now: the candidates, or every allowed word (hard-mode filtered)."""
        if guess_from == "candidates":
            return self.candidates
        pool = self.ctx.all_words
        if self.hard and self.history:
            pool = pool[hard_mode_mask(self.ctx, self.history)]
        return pool

    def may_play(self, guess: int, guess_from: str = "candidates") -> bool:
        """Whether ``guess`` is among :meth:`guessable` now, without building that pool (checked on
        every move a game records: a solver may play outside its setting, e.g. a GA's mutant)."""
        if guess_from == "candidates":
            i = int(np.searchsorted(self.candidates, guess))
            return i < len(self.candidates) and int(self.candidates[i]) == guess
        if self.hard and self.history:
            return bool(_hard_mask(self.ctx, self.history, np.array([guess], dtype=np.int64))[0])
        return True


def letter_counts(ctx: Context) -> np.ndarray:
    """(n, 26) how often each letter occurs in each allowed word (cached on the context)."""
    cached = ctx.__dict__.get("_letter_counts")
    if cached is None:
        letters = ctx.words.letters
        cached = np.zeros((len(letters), 26), dtype=np.int8)
        for pos in range(letters.shape[1]):
            np.add.at(cached, (np.arange(len(letters)), letters[:, pos]), 1)
        ctx.__dict__["_letter_counts"] = cached
    return cached


def check_history(ctx: Context, history) -> tuple[tuple[int, int], ...]:
    """``history`` as (guess, pattern) pairs of plain ints, each index and code checked: a bad
    one is refused in one line instead of wrapping (numpy reads -1 as the last word)."""
    words, out = ctx.words, []
    for k, move in enumerate(history, 1):
        try:
            guess, pattern = move
        except (TypeError, ValueError):
            raise EvoWordleError(f"history move {k} is {move!r}, not a (guess, pattern) pair") from None
        out.append((words.check_index(guess, f"history move {k}: guess"), check_code(pattern, words.length)))
    return tuple(out)


def hard_mode_mask(ctx: Context, history: tuple[tuple[int, int], ...], words: np.ndarray | None = None) -> np.ndarray:
    """Allowed words (or just ``words``) legal in hard mode: every revealed green in place, every
    revealed yellow (and green) letter used at least as often as it was revealed.  A bad index
    or code in ``history`` or ``words`` is refused (EvoWordleError), never wrapped."""
    return _hard_mask(ctx, check_history(ctx, history), None if words is None else ctx.word_indices(words, "word"))


def _hard_mask(ctx: Context, history: tuple[tuple[int, int], ...], words: np.ndarray | None) -> np.ndarray:
    """:func:`hard_mode_mask` on a history and words already checked."""
    from .patterns import decode

    letters = ctx.words.letters
    counts = letter_counts(ctx)
    if words is not None:
        letters, counts = letters[words], counts[words]
    ok = np.ones(len(letters), dtype=bool)
    for guess, pattern in history:
        trits = decode(pattern, ctx.words.length)
        need: dict[int, int] = {}
        for pos, (c, t) in enumerate(zip(ctx.words.letters[guess].tolist(), trits)):
            if t == 2:
                ok &= letters[:, pos] == c
            if t > 0:
                need[c] = need.get(c, 0) + 1
        for c, k in need.items():
            ok &= counts[:, c] >= k
    return ok


def illegal_move(ctx: Context, settings: Settings, history: tuple[tuple[int, int], ...], guess: int) -> str | None:
    """Why playing ``guess`` after ``history`` breaks the rules of the game ``settings`` describe
    (hard mode; guessing only possible words), or None if the move is legal.  Replayed moves
    (decision trees) are checked with this before they are scored.  A bad index or code is
    refused (EvoWordleError), never wrapped."""
    guess, history = ctx.words.check_index(guess, "guess"), check_history(ctx, history)
    word = ctx.words.allowed[guess].upper()
    if settings.hard and history and not _hard_mask(ctx, history, np.array([guess]))[0]:
        return f"{word} breaks hard mode (a revealed hint is not reused)"
    if settings.guess_from == "candidates":
        cand = ctx.candidates(settings.candidates)  # sorted
        i = int(np.searchsorted(cand, guess))
        possible = i < len(cand) and int(cand[i]) == guess
        if not possible or any(int(ctx.table[g, guess]) != p for g, p in history):
            return f"{word} cannot be the answer here (the game guesses only possible words)"
    return None


@dataclass
class GameRecord:
    """One finished game: the answer, every guess, whether it was solved within the cap, and how
    many guesses were outside the setting's guess source when played (``Settings.guess_from``:
    the thesis's GAs play mutants that are no longer candidates)."""

    answer: int
    guesses: list[int]
    solved: bool
    outside_source: int = 0

    def score(self, cap: int) -> int:
        """Guesses used; a failure counts as the cap (the thesis's convention)."""
        return len(self.guesses) if self.solved else cap


def lost(record, settings: Settings) -> bool:
    """Whether a finished game (a :class:`GameRecord` or a board set's record) is lost: not
    solved, or solved after the win limit.  Scores cannot tell: a lost game scores the cap, and
    the cap may equal the limit (several boards) or lie below it (``--max-guesses 5``)."""
    return not (record.solved and len(record.guesses) <= settings.win_limit)


def scores_of(records, settings: Settings) -> np.ndarray:
    """Guesses per finished game (:class:`GameRecord` or a board set's record), in order: a game
    not solved counts as the cap, ``settings.max_guesses`` (the thesis's convention).  The one
    rule for a list of games' scores; whether a game is lost is :func:`lost`'s to say."""
    return np.array([r.score(settings.max_guesses) for r in records], dtype=np.int64)


def play(solver, state: GameState, answer: int, settings: Settings) -> GameRecord:
    """Play one game of ``solver`` (already reset) from ``state`` against ``answer`` (an
    allowed-word index; one outside the list, negative included, is refused, never wrapped)."""
    answer = int(state.ctx.word_indices([answer], "answer")[0])
    table = state.ctx.table
    solved_code = state.ctx.words.solved
    guesses: list[int] = []
    outside = 0
    while True:
        guess = int(solver.choose(state))
        guesses.append(guess)
        outside += not state.may_play(guess, settings.guess_from)
        pattern = int(table[guess, answer])
        if pattern == solved_code or len(guesses) == settings.max_guesses:
            break
        try:
            state = state.after(guess, pattern)
        except ImpossibleFeedback:
            break  # the solver's belief excluded the real answer (e.g. P1 beliefs on a custom list)
    solver.finish(state, guess, pattern)
    return GameRecord(answer, guesses, pattern == solved_code, outside)
