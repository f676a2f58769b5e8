"""Multi-board games (Dordle 2, Quordle 4, Octordle 8, … N-dle): the summed-entropy policy.

Every guess is scored on each unsolved board; boards are independent, so the entropy of the
joint feedback is the sum of the boards' entropies (each board uniform over its own remaining
candidates), and the policy plays the word maximising that sum (Fetterman, "Solving N-dle using
Information Entropy").  A board whose candidates are down to one is solved at once.  Ties (equal
sums within 1e-9 bits) go to the word that is still a candidate on the most unsolved boards, then
to the alphabetically first.

Speed: a board's entropy vector (one float per allowed guess) depends only on that board's
candidate set, so it is memoised in an LRU cache keyed by the set; sets of the same first guesses
recur across games.  Small sets (the common case after two guesses) are scored by sorting each
guess's few feedback codes instead of counting all 243 patterns for all 12,972 guesses.

Three genes (all 0 by default, which is the plain summed entropy) let the meta-GA evolve the
policy (``evolve-strategy --boards N``): ``weight`` weighs each board's bits by its share of
candidates, (n_b / max n)^weight (above 0: work on the widest boards; below 0: finish the nearly
solved ones); ``bonus`` adds that many bits times the number of boards the guess may solve now
(Σ_b [g ∈ C_b] / n_b); ``late`` keeps guesses to the boards' candidates once the guesses left
minus the unsolved boards fall below it (1: when every guess must solve a board).

Lookahead (``rollout``, 0 = off, the default): in a state whose boards' candidate counts
multiply to at most ``rollout`` (and no board is down to one word), each of the best
:data:`ROLLOUT_WIDTH` guesses by score and every word still possible on a board is scored by the
exact expected number of guesses left when the policy above (the *base* policy: same genes, no
lookahead) plays on after it, over every combination of the boards' remaining answers (each
board uniform over its candidates, boards independent); the guess of least expectation is
played, the base policy's own guess on ties.  This is one step of policy improvement, so in
expectation it is never worse than the base policy from any state where it applies.  It is not
a gene the meta-GA evolves (playing it on every training set would take too long); the
evolution's command fixes it for the winner (``evolve-strategy --rollout N``).

Decision search (``search``, 0 = off): ``ga-search --boards N``, a GA per decision above the
lookahead's reach (:class:`evo_wordle.evolve.search.BoardSearch`); measured without gain.

The bench (:func:`evo_wordle.bench.run_bench`) plays board sets like single games: the same
processes, seeds, progress, repeats and outputs; one board is the case N = 1.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .context import Context
from .entropy import entropies
from .errors import EvoWordleError
from .game import MAX_BOARDS, Settings, check_solver_args
from .params import as_bool, as_int, as_seed

#: Candidate sets up to PAIR_MAX are scored by pairwise comparison, up to SORT_MAX by sorting,
#: larger ones by counting patterns (the fastest way for each size, measured).
PAIR_MAX = 12
SORT_MAX = 40
#: Larger sets than this go to the foundation's blocked counter (bounded memory; P0 openings).
COUNT_MAX = 3000
#: Sums within this many bits of the best count as ties.
TIE_BITS = 1e-9
#: Tie rules: prefer words still possible on most boards, or plain alphabetical order.
TIE_RULES = ("candidates", "alphabetical")
#: Name the bench reports for the multi-board policy.
POLICY_NAME = "summed-entropy"
#: The evolvable genes of the policy with their (low, high) bounds; 0 is the plain summed entropy.
GENES: dict[str, tuple[float, float]] = {"weight": (-2.0, 2.0), "bonus": (0.0, 8.0), "late": (0.0, 4.0)}
#: Lookahead: guesses by score tried besides the boards' candidates, and the largest threshold.
ROLLOUT_WIDTH = 8
ROLLOUT_MAX = 100_000
#: The lookahead's work a decision, at most: a state it plays has boards of at least 2 words whose
#: counts multiply to at most the reach R, so it weighs at most ROLLOUT_WIDTH + R/2^(N−1) + 2(N−1)
#: guesses (N boards), each over up to R answer combinations.  The bound is Octordle's at
#: ROLLOUT_MAX (the deepest reach the registered studies play, ≈ 0.7 s a set): the same reach on
#: two boards weighs 62 times as much (measured ≈ 31 s a Dordle set against 0.06 s at its own 200).
ROLLOUT_WORK = ROLLOUT_MAX * (ROLLOUT_WIDTH + ROLLOUT_MAX // 2**7 + 2 * 7)
#: Expected costs within this many guesses of the base policy's count as ties (it keeps its guess).
TIE_GUESSES = 1e-9
#: The base policy's values memoised before the memo is emptied (bounded memory).
ROLLOUT_MEMO = 200_000
#: Memory the board-entropy cache may hold: one float64 per allowed word a board (103,776 bytes at
#: 12,972 words, ≈ 113 kB measured with its key), so at most 10,346 boards at the bundled lists; a
#: parameter file's ``cache_size`` beyond it is refused (the old cap of 100,000 boards was ≈ 10 GB).
CACHE_BUDGET = 2**30
#: Most board sets one draw makes: each keeps its own SeedSequence (≈ 0.4 kB, ≈ 8 s per million),
#: so ``bench --boards 2 --games 1000000000`` ran out of memory instead of being refused.
MAX_SETS = 1_000_000
#: Decision search (``search``: words the GA keeps per decision, 0 = off; ``search_generations``):
#: the largest values a parameter file may ask for, and the largest board it plays on.
SEARCH_MAX = 1000
SEARCH_GENERATIONS_MAX = 50
#: Most words a multi-board decision search may breed, ``search × (1 + search_generations)``, besides
#: the boards' candidates it always weighs (≈ 500 a decision on Octordle): each costs ≈ 0.1 s there
#: (measured, one core), so a searched decision takes at most a few minutes; both caps at once
#: (51,000 words, ≈ 1.4 h a decision) made a shared file's Octordle replay run for days.
BOARD_SEARCH_WORDS = 1000
#: Most words one board's decision GA (``ga-search``) may evaluate, ``search_population × (1 +
#: search_generations)``: a word costs ≈ 0.45 s at the root of the bundled lists (2,309 answers,
#: cold memo; ≈ 0.01-0.06 s at a second guess after SALET), measured on one core, so a decision
#: takes about 2.3 minutes at most (hard mode tries 5 × population words at ≈ 0.07-0.14 s: ≈ 2-3.5
#: minutes); both caps at once (51,000 words) made a shared file's first decision run ≈ 6 hours.
SEARCH_WORDS = 300
BOARD_SEARCH_LARGEST = 1000
#: ``ga-search --boards N`` without ``--search-population`` / ``--search-generations``.
BOARD_SEARCH_DEFAULTS = (60, 0)
#: Parameters of the policy that are not genes (not evolved): lookahead and decision search.
SEARCH_PARAMS = ("rollout", "search", "search_generations")


def rollout_work(reach: int, boards: int) -> int:
    """The most guess × combination pairs one lookahead decision of ``reach`` weighs on ``boards``."""
    return reach * (ROLLOUT_WIDTH + reach // 2 ** (boards - 1) + 2 * (boards - 1))


@functools.cache  # every policy built (one per genome evaluated) checks its reach
def rollout_most(boards: int) -> int:
    """The deepest reach whose :func:`rollout_work` on ``boards`` stays within :data:`ROLLOUT_WORK`."""
    low, high = 0, ROLLOUT_MAX
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if rollout_work(mid, boards) <= ROLLOUT_WORK else (low, mid - 1)
    return low


def check_search_words(population: int, generations: int, most: int,
                       names: tuple[str, str] = ("search", "search_generations")) -> None:
    """Refuse a decision search that would breed more than ``most`` words a decision,
    ``population × (1 + generations)`` (each option alone within its own cap), in one line
    naming the options as ``names`` spells them."""
    bred = population * (1 + generations)
    if bred > most:
        raise EvoWordleError(f"the decision search would breed up to {bred:,} words a decision ({names[0]} "
                             f"{population} × (1 + {names[1]} {generations})): at most {most:,}")


def check_rollout(reach: int, boards: int, option: str = "--rollout") -> None:
    """Refuse a lookahead reach too deep for the board count (a shared Dordle file at 100,000 made
    each set 500 times slower than its own reach), in one line naming the reach as ``option``."""
    most = rollout_most(boards)
    if reach > most:
        raise EvoWordleError(f"{option} {reach:,} on {boards} board(s) may weigh {rollout_work(reach, boards):,} "
                             f"(guess, answers) pairs a decision: at most {most:,} there (the work of "
                             f"{ROLLOUT_MAX:,} on 8 boards)")


@dataclass
class BoardsRecord:
    """One finished board set: its answers, every guess, and whether all boards were solved."""

    answers: tuple[int, ...]
    guesses: list[int]
    solved: bool
    solved_at: tuple[int | None, ...]  # guess number that solved each board (None: unsolved)
    #: guesses possible on no unsolved board when ``guess_from="candidates"`` (e.g. a fixed opener)
    outside_source: int = 0

    @property
    def answer(self) -> tuple[int, ...]:
        """The answers' word indices (the single-board record's ``answer``, one per board)."""
        return self.answers

    def score(self, cap: int) -> int:
        """Guesses used to solve every board; a failure counts as the cap."""
        return len(self.guesses) if self.solved else cap

    def answer_words(self, ctx: Context) -> str:
        """The answers as one ``+``-joined string (for CSV rows and messages)."""
        return "+".join(ctx.words.allowed[a] for a in self.answers)


def _transposed(ctx: Context, universe: np.ndarray) -> np.ndarray:
    """(len(universe), n_allowed) codes ``table[g, a]`` with answers as contiguous rows (cached)."""
    if len(universe) == len(ctx.words):  # every word: a transposed view, no 168 MB copy
        return np.asarray(ctx.table).T
    key = ("_boards_T", universe.tobytes())
    cache = ctx.__dict__.setdefault("_boards_transposed", {})
    hit = cache.get(key)
    if hit is None:
        hit = np.ascontiguousarray(ctx.table[:, universe].T)
        cache[key] = hit
    return hit


def _entropy_pairwise(rows: np.ndarray, log2: np.ndarray) -> np.ndarray:
    """Entropy of every column of ``rows`` (k candidates × G guesses) for small k.

    Σ_patterns c·log2 c equals Σ over candidates of log2(how many candidates share its pattern).
    """
    k = rows.shape[0]
    same = np.zeros(rows.shape, dtype=np.int16)
    for j in range(k):
        same += rows == rows[j]
    return np.log2(k) - log2[same].sum(axis=0) / k


def _entropy_sorted(rows: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Entropy of every column of ``rows`` (k candidates × G guesses) by sorting each guess's codes.

    Σ_patterns c·log2 c equals Σ over sorted elements of delta[rank within its run], with
    delta[m] = m·log2 m − (m−1)·log2(m−1); so only run starts are needed.
    """
    k = rows.shape[0]
    s = np.sort(rows.T, axis=1)  # (G, k)
    pos = np.arange(k, dtype=np.int32)
    new = np.empty(s.shape, dtype=bool)
    new[:, 0] = True
    np.not_equal(s[:, 1:], s[:, :-1], out=new[:, 1:])
    start = np.maximum.accumulate(np.where(new, pos, 0), axis=1)
    clogs = delta[pos - start + 1].sum(axis=1)
    return np.log2(k) - clogs / k


def _entropy_counted(rows: np.ndarray, clog: np.ndarray, n_patterns: int) -> np.ndarray:
    """Entropy of every column of ``rows`` by counting patterns (better for large sets)."""
    k, n = rows.shape
    keys = rows.astype(np.int32)
    keys += (np.arange(n, dtype=np.int32) * n_patterns)[None, :]
    counts = np.bincount(keys.ravel(), minlength=n * n_patterns)
    return np.log2(k) - clog[counts].reshape(n, n_patterns).sum(axis=1) / k


def check_board_settings(settings: Settings) -> None:
    """Refuse, in one line, what several boards do not define: hard mode and daily play."""
    if settings.hard:
        raise EvoWordleError("hard mode is not defined for several boards (drop --hard)")
    if settings.daily:
        raise EvoWordleError("daily play is not defined for several boards (drop --daily/P2/P3)")


class SummedEntropy:
    """The N-dle policy: maximise Σ over unsolved boards of H(feedback | board's candidates).

    Boards are given as sorted arrays of positions in ``universe`` (the words the solver believes
    may be answers: the answer list or every allowed word, per ``settings.candidates``).
    """

    name = POLICY_NAME

    def __init__(
        self,
        ctx: Context,
        settings: Settings,
        opener: str | None = None,
        cache_size: int = 2048,
        ties: str = "candidates",
        weight: float = 0.0,
        bonus: float = 0.0,
        late: float = 0.0,
        cache: OrderedDict | None = None,
        rollout: int = 0,
        search: int = 0,
        search_generations: int = 0,
    ) -> None:
        from .params import as_float, as_int, as_word

        check_solver_args(ctx, settings, type(self).__name__)
        if ties not in TIE_RULES:
            raise EvoWordleError(f"ties must be one of {', '.join(TIE_RULES)}, not {ties!r}")
        self.ties = ties
        self.weight, self.bonus, self.late = (as_float(name, value, *GENES[name])
                                              for name, value in zip(GENES, (weight, bonus, late)))
        check_board_settings(settings)
        self.ctx = ctx
        self.settings = settings
        self.universe = np.asarray(ctx.candidates(settings.candidates), dtype=np.int64)
        self.rows = _transposed(ctx, self.universe)
        self.n_patterns = ctx.words.n_patterns
        n = len(self.universe)
        m = np.arange(n + 1, dtype=np.float64)
        self._clog = np.zeros(n + 1)
        self._clog[1:] = m[1:] * np.log2(m[1:])
        self._delta = np.zeros(n + 1)
        self._delta[1:] = self._clog[1:] - self._clog[:-1]
        self._log2 = np.zeros(n + 1)
        self._log2[1:] = np.log2(m[1:])
        self.opener = as_word("opener", opener, ctx.words)
        # a parameter file may set it: "abc" was an internal error at the first board, -5 or 2.5 played on
        self.cache_size = as_int("cache_size", cache_size, 0)
        entry, size = 8 * self.rows.shape[1], self.cache_size  # one float64 per allowed guess a board
        if size * entry > CACHE_BUDGET:
            raise EvoWordleError(f"--cache-size {size:,} would keep up to {size * entry / 1e9:,.1f} GB of board bits "
                                 f"({entry:,} bytes a board): at most {CACHE_BUDGET // entry:,} (1 GiB)")
        # a board's bits do not depend on the genes: genomes evolved together may share one cache
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict() if cache is None else cache
        self.rollout = as_int("rollout", rollout, 0, ROLLOUT_MAX)
        check_rollout(self.rollout, settings.boards)
        self._values: dict[tuple, float] = {}
        self.search = as_int("search", search, 0, SEARCH_MAX)
        self.search_generations = as_int("search_generations", search_generations, 0, SEARCH_GENERATIONS_MAX)
        check_search_words(self.search, self.search_generations, BOARD_SEARCH_WORDS)
        self._searcher = None  # built at the first searched decision

    def reset(self, rng: np.random.Generator | None = None) -> None:
        """A new game (the bench's per-game call): nothing to forget, the policy is deterministic."""

    def describe(self) -> dict:
        """Parameters worth recording next to results (as :meth:`~evo_wordle.solvers.base.Solver.describe`)."""
        opener = self.ctx.words.allowed[self.opener] if self.opener is not None else None
        genes = {name: getattr(self, name) for name in (*GENES, *SEARCH_PARAMS) if getattr(self, name)}
        return {"solver": self.name, "opener": opener, "ties": self.ties, **genes}

    def full_board(self) -> np.ndarray:
        """Every universe position: a board before any feedback."""
        return np.arange(len(self.universe), dtype=np.int32)

    def board_entropy(self, board: np.ndarray) -> np.ndarray:
        """Bits of every allowed guess on one board (uniform over its candidates), memoised."""
        k = len(board)
        if k <= 1:
            return np.zeros(self.rows.shape[1])
        if k == 2:
            return (self.rows[board[0]] != self.rows[board[1]]).astype(np.float64)
        key = board.tobytes()
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        rows = self.rows[board] if k <= COUNT_MAX else None
        if k <= PAIR_MAX:
            bits = _entropy_pairwise(rows, self._log2)
        elif k <= SORT_MAX:
            bits = _entropy_sorted(rows, self._delta)
        elif k > COUNT_MAX:
            bits = entropies(self.ctx.table, self.ctx.all_words, self.universe[board], n_patterns=self.n_patterns)
        else:
            bits = _entropy_counted(rows, self._clog, self.n_patterns)
        self._cache[key] = bits
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return bits

    def board_of(self, words) -> np.ndarray:
        """A board (sorted universe positions) whose candidates are the word indices ``words``."""
        words = np.unique(np.asarray(words, dtype=np.int64))
        pos = np.searchsorted(self.universe, words)
        if np.any(pos >= len(self.universe)) or np.any(self.universe[np.minimum(pos, len(self.universe) - 1)] != words):
            raise EvoWordleError("a board candidate is outside the words the solver considers possible")
        return pos.astype(np.int32)

    def words_of(self, board: np.ndarray) -> np.ndarray:
        """Allowed-word indices of a board's universe positions."""
        return self.universe[board]

    def choose(self, boards: list[np.ndarray], turn: int) -> int:
        """The next guess for the unsolved ``boards`` (lists of universe positions)."""
        guess = self.base_choice(boards, turn)
        if self.looks_ahead(boards, turn):
            return self.lookahead(boards, turn, guess)
        if self.search and self.decides(boards, turn) and max(len(b) for b in boards) <= BOARD_SEARCH_LARGEST:
            return self.searched(boards, turn, guess)
        return guess

    def searched(self, boards: list[np.ndarray], turn: int, base: int) -> int:
        """The decision search's guess (``ga-search --boards N``, see
        :class:`evo_wordle.evolve.search.BoardSearch`); within the same words the base policy
        may play (only the boards' candidates under ``late`` or ``--guess-from candidates``)."""
        if self._searcher is None:
            from .evolve.search import BoardSearch

            self._searcher = BoardSearch(self.ctx, self.settings.guess_from == "allowed", self.search,
                                         self.search_generations)
        only = self.settings.guess_from == "candidates" or self.late_rule(boards, turn)
        return self._searcher.choose([self.words_of(b) for b in boards], lambda: self.scores(boards), base, only)

    def base_choice(self, boards: list[np.ndarray], turn: int) -> int:
        """The one-step policy's guess (no lookahead)."""
        for board in boards:
            if len(board) == 1:
                return int(self.universe[board[0]])
        if turn == 0:
            if self.opener is None:
                self.opener = self._best(boards[:1])
            return self.opener
        return self._best(boards, candidates_only=self.late_rule(boards, turn))

    def late_rule(self, boards: list[np.ndarray], turn: int) -> bool:
        """Whether the ``late`` gene keeps guesses to the boards' candidates now (guesses left minus
        unsolved boards below it)."""
        return self.late > 0 and self.settings.max_guesses - turn - len(boards) < round(self.late)

    # -- lookahead --------------------------------------------------------------------------
    @staticmethod
    def decides(boards: list[np.ndarray], turn: int) -> bool:
        """Whether a state leaves the lookahead or the search a decision: after the opener, with no
        board down to one word (whose word is then played)."""
        return turn > 0 and min(len(b) for b in boards) > 1

    def looks_ahead(self, boards: list[np.ndarray], turn: int) -> bool:
        """Whether :meth:`choose` plays the lookahead in this state: ``rollout`` on, a state that
        :meth:`decides`, and the boards' candidate counts multiplying to at most ``rollout``."""
        return bool(self.rollout) and self.decides(boards, turn) and math.prod(len(b) for b in boards) <= self.rollout

    def lookahead_pool(self, boards: list[np.ndarray], width: int = ROLLOUT_WIDTH) -> list[int]:
        """The guesses the lookahead weighs: the ``width`` best by score, then every word still
        possible on a board (each once, in that order)."""
        top = np.argsort(-self.scores(boards), kind="stable")[:width]
        return list(dict.fromkeys([*(int(g) for g in top), *(int(g) for b in boards for g in self.words_of(b))]))

    def lookahead(self, boards: list[np.ndarray], turn: int, base: int) -> int:
        """The guess of least expected guesses left when the base policy plays on after it,
        among ``base`` and :meth:`lookahead_pool`."""
        best, least = base, self.after(boards, base, turn)
        for guess in self.lookahead_pool(boards):
            if guess != base:
                cost = self.after(boards, guess, turn)
                if cost < least - TIE_GUESSES:
                    best, least = guess, cost
        return best

    def split(self, board: np.ndarray, guess: int) -> list[tuple[float, np.ndarray | None]]:
        """The board after ``guess``: (probability, remaining candidates; None if solved) per feedback."""
        groups: dict[int, list[int]] = {}  # plain Python: boards here are small, numpy calls cost more
        for pos, code in zip(board.tolist(), self.rows[board, guess].tolist()):
            groups.setdefault(code, []).append(pos)
        n, solved = len(board), self.ctx.words.solved
        return [(len(g) / n, None if code == solved else np.array(g, dtype=board.dtype)) for code, g in groups.items()]

    def after(self, boards: list[np.ndarray], guess: int, turn: int) -> float:
        """Expected guesses left after playing ``guess`` at ``turn`` (not counting it), the base
        policy playing on: exact, over every combination of the boards' answers."""
        total = 0.0
        for outcome in itertools.product(*(self.split(b, guess) for b in boards)):
            p = 1.0
            for q, _ in outcome:
                p *= q
            total += p * self.expected_cost([b for _, b in outcome if b is not None], turn + 1)
        return total

    def expected_cost(self, boards: list[np.ndarray], turn: int) -> float:
        """Expected guesses the base policy still plays from ``boards`` at ``turn`` (a failure
        counts as the cap, as in :meth:`BoardsRecord.score`), memoised."""
        left = self.settings.max_guesses - turn
        if not boards or left <= 0:
            return 0.0
        if all(len(b) == 1 for b in boards):  # one guess per distinct answer
            return float(min(len({int(b[0]) for b in boards}), left))
        key = (turn, *(b.tobytes() for b in boards))
        value = self._values.get(key)
        if value is None:
            value = 1.0 + self.after(boards, self.base_choice(boards, turn), turn)
            if len(self._values) >= ROLLOUT_MEMO:
                self._values.clear()
            self._values[key] = value
        return value

    def scores(self, boards: list[np.ndarray]) -> np.ndarray:
        """Score of every allowed guess for the unsolved ``boards`` (higher is better): the
        boards' bits, weighted by ``weight``, plus ``bonus`` bits per board it may solve now."""
        largest = max(len(b) for b in boards)
        total = np.zeros(self.rows.shape[1])
        for board in boards:
            bits = self.board_entropy(board)
            total += (len(board) / largest) ** self.weight * bits if self.weight else bits
        if self.bonus:  # bits for the boards this guess may solve now
            for board in boards:
                total[self.words_of(board)] += self.bonus / len(board)
        return total

    def _best(self, boards: list[np.ndarray], candidates_only: bool = False) -> int:
        total = self.scores(boards)
        if self.settings.guess_from == "candidates" or candidates_only:
            pool = np.unique(np.concatenate([self.words_of(b) for b in boards]))
            scores = total[pool]
        else:
            pool = None
            scores = total
        tied = np.flatnonzero(scores >= scores.max() - TIE_BITS)
        words = tied if pool is None else pool[tied]
        if len(words) == 1 or self.ties == "alphabetical":
            return int(words[0])
        on_boards = np.zeros(len(words), dtype=np.int64)
        for board in boards:
            on_boards += np.isin(words, self.words_of(board))
        return int(words[np.argmax(on_boards)])  # first maximum: alphabetical among equals


def play_boards(policy: SummedEntropy, answers: tuple[int, ...] | list[int], cap: int) -> BoardsRecord:
    """Play one board set: every guess is scored on each unsolved board until all are solved or
    ``cap`` guesses are used.  Answers are words or allowed-word indices: one out of range (a
    negative one too: it would wrap to another word) is refused, as is a cap below 1."""
    ctx = policy.ctx
    table = ctx.table
    solved_code = ctx.words.solved
    answers = tuple(int(a) for a in ctx.word_indices(answers, "answer"))
    if not 1 <= len(answers) <= MAX_BOARDS:
        raise EvoWordleError(f"a board set needs 1 to {MAX_BOARDS} answers, not {len(answers)}")
    cap = as_int("max_guesses", cap, 1, None)
    boards: dict[int, np.ndarray] = {b: policy.full_board() for b in range(len(answers))}
    solved_at: list[int | None] = [None] * len(answers)
    guesses: list[int] = []
    outside = 0
    only_candidates = policy.settings.guess_from == "candidates"
    for turn in range(cap):
        guess = policy.choose(list(boards.values()), turn)
        guesses.append(guess)
        if only_candidates:
            outside += not any((policy.words_of(b) == guess).any() for b in boards.values())
        row = table[guess]
        for b in list(boards):
            pattern = row[answers[b]]
            if pattern == solved_code:
                solved_at[b] = turn + 1
                del boards[b]
                continue
            board = boards[b]
            board = board[row[policy.universe[board]] == pattern]
            if len(board) == 0:  # the answer lies outside the solver's belief
                return BoardsRecord(answers, guesses, False, tuple(solved_at), outside)
            boards[b] = board
        if not boards:
            return BoardsRecord(answers, guesses, True, tuple(solved_at), outside)
    return BoardsRecord(answers, guesses, False, tuple(solved_at), outside)


def check_distinct_answers(distinct, boards: int) -> bool:
    """``distinct_answers`` as a bool, refused in one line on one board (one board has one
    answer): the one rule bench, compare, evolve-strategy and the Python API all apply."""
    distinct = as_bool("distinct_answers", distinct)  # named as the commands spell it
    if distinct and boards == 1:
        raise EvoWordleError("--distinct-answers (distinct_answers) needs --boards N with N ≥ 2 "
                             "(one board has one answer)")
    return distinct


def distinct_pool(pool: np.ndarray) -> np.ndarray:
    """The pool's distinct answers in order of first appearance (a repeated entry is one answer)."""
    return pool[np.sort(np.unique(pool, return_index=True)[1])]


def draw_answers(ctx: Context | None, boards: int, games: int, seed, pool: np.ndarray | None = None,
                 distinct: bool = False) -> np.ndarray:
    """(games, boards) answer indices, drawn with replacement from the answer list (or from
    ``pool``, e.g. one part of a train/validation/test split); set k uses its own generator from
    ``SeedSequence(seed).spawn(games)[k]`` (``seed``: an int or a SeedSequence).

    ``distinct``: each set's answers all differ, as in the real Quordle and Octordle (drawn
    without replacement from the pool's distinct answers; set k still depends on k alone).  With
    replacement a set may repeat an answer, and one guess then solves two boards."""
    boards = as_int("boards", boards, 1, MAX_BOARDS)
    games = as_int("games", games, 1, None)
    distinct = check_distinct_answers(distinct, boards)
    if games > MAX_SETS:
        raise EvoWordleError(f"--games must be at most {MAX_SETS} board sets, not {games}")
    if pool is None and ctx is None:  # was an AttributeError on None
        raise EvoWordleError("draw_answers needs a context (its answer list) or a pool of answers")
    pool = ctx.words.answer_index if pool is None else np.asarray(pool, dtype=np.int64)
    if len(pool) == 0:
        raise EvoWordleError("no answers to draw board sets from")
    if distinct:
        pool = distinct_pool(pool)
        if len(pool) < boards:
            raise EvoWordleError(f"{boards} boards with distinct answers need at least {boards} answers to draw "
                                 f"from, not {len(pool)}")
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(as_seed("seed", seed))
    seqs = seq.spawn(games)
    out = np.empty((games, boards), dtype=np.int64)
    for k, seq in enumerate(seqs):
        rng = np.random.default_rng(seq)
        out[k] = pool[rng.choice(len(pool), size=boards, replace=False) if distinct
                      else rng.integers(len(pool), size=boards)]
    return out


__all__ = [
    "GENES",
    "MAX_SETS",
    "BoardsRecord",
    "SummedEntropy",
    "check_distinct_answers",
    "distinct_pool",
    "draw_answers",
    "play_boards",
]
