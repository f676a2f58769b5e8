"""``ga-search``: at every decision a small GA evolves the guess under a look-ahead fitness.

Fitness of a guess g for candidates C = the total number of guesses needed to finish every
answer in C after playing g: ``|C| + Σ_parts T(C_p)`` over the feedback parts other than
"solved", where T is the total of a fast memoised finishing policy — exact (see
:mod:`evo_wordle.evolve.exact`) for parts of at most ``exact_limit`` answers, max-entropy
greedy above that.  The GA is seeded with the top-entropy words and bred with the
recombining crossover and the one-letter dictionary mutation of :mod:`evo_wordle.ga.operators`;
its generator is seeded from the state itself, so a decision does not depend on game order.

Decisions are memoised; the tree of a whole benchmark can be exported (``ga-tree`` command,
one line per answer with its guess path) and loaded back (``--tree FILE``) for instant play.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from ..boards import BOARD_SEARCH_WORDS, SEARCH_GENERATIONS_MAX, SEARCH_MAX, SEARCH_WORDS, TIE_BITS, check_search_words
from ..context import Context
from ..errors import EvoWordleError
from ..files import atomic_write_text, decode_utf8, parse_json, read_capped
from ..game import GameState, Settings, illegal_move
from ..params import arg_type, as_file_name, as_int
from ..patterns import to_digits
from ..solvers.base import Solver, register
from .exact import MAX_ANSWERS, ExactSolver
from .strategy import explore_pool, history_key, weighted_entropies

#: Largest ``exact_limit``: the exact solver's own size limit (a part of hundreds of answers
#: sent to it began a search that never ended).
EXACT_LIMIT_MAX = MAX_ANSWERS


def rank_by_score(words: np.ndarray, score: np.ndarray, cand: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` best of ``words`` (highest ``score`` first: entropy, or a negated
    cost), by the one tie rule of this module, as :mod:`evo_wordle.boards` states it: scores
    within ``TIE_BITS`` (1e-9) of the best word not yet ranked tie with it, since equal partitions
    or costs can differ in the last bits of a float sum; among ties a word that may be the answer
    (in ``cand``) comes first, then the lower word index."""
    order = np.lexsort((words, -score))  # highest score first, exact equals by word index
    lower = -score[order]  # ascending
    may = np.isin(words, cand)
    k = min(k, len(words))
    ranked: list[np.ndarray] = []
    start = count = 0
    while count < k:
        end = int(np.searchsorted(lower, lower[start] + TIE_BITS, side="right"))
        tied = order[start:end]
        ranked.append(tied[np.lexsort((words[tied], ~may[tied]))])
        count += end - start
        start = end
    return np.concatenate(ranked)[:k]


def best_by_score(words: np.ndarray, score: np.ndarray, cand: np.ndarray) -> int:
    """The best word of ``words`` by :func:`rank_by_score`'s tie rule."""
    return int(words[rank_by_score(words, score, cand, 1)[0]])


class LookAhead:
    """Memoised finishing totals T(C) for candidate sets (shared by all decisions)."""

    def __init__(self, ctx: Context, allowed_guesses: bool, exact_limit: int = 6, pool: int = 60) -> None:
        self.ctx = ctx
        self.allowed_guesses = allowed_guesses
        self.exact_limit = as_int("exact_limit", exact_limit, 0, EXACT_LIMIT_MAX)
        self.pool = pool
        self.solved = ctx.words.solved
        self.exact = ExactSolver(ctx, ctx.all_words if allowed_guesses else None)
        self.memo: dict[bytes, int] = {}

    def rollout_guesses(self, cand: np.ndarray) -> np.ndarray:
        """Guesses a rollout considers for these candidates (the candidates, or a pool of allowed words)."""
        if not self.allowed_guesses or not self.pool:
            return cand
        w = np.full(len(cand), 1.0 / len(cand))
        return explore_pool(self.ctx, cand, w, self.pool)

    def total(self, cand: np.ndarray) -> int:
        """Guesses the finishing policy needs, summed over every answer in ``cand``."""
        return self.finish(cand)[0]

    def finish(self, cand: np.ndarray) -> tuple[int, int]:
        """(summed guesses, worst-case guesses) of the finishing policy on ``cand``."""
        m = len(cand)
        if m <= 2:
            return 2 * m - 1, m
        key = cand.tobytes()
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if m <= self.exact_limit:
            value = (self.exact.cost(cand), self.exact.depth(cand))
        else:
            guesses = self.rollout_guesses(cand)
            bits = weighted_entropies(self.ctx, guesses, cand, np.full(m, 1.0 / m))
            value = self.split(best_by_score(guesses, bits, cand), cand)
        self.memo[key] = value
        return value

    def split_total(self, guess: int, cand: np.ndarray) -> int:
        """``|C|`` plus the finishing totals of the parts ``guess`` splits ``cand`` into."""
        return self.split(guess, cand)[0]

    def split(self, guess: int, cand: np.ndarray) -> tuple[int, int]:
        """(``|C|`` + finishing totals of the parts ``guess`` leaves, worst-case guesses)."""
        row = np.asarray(self.ctx.table[guess, cand])
        order = np.argsort(row, kind="stable")
        srt = row[order]
        cuts = np.flatnonzero(np.diff(srt)) + 1
        total, depth = len(cand), 1
        for part, first in zip(np.split(order, cuts), np.concatenate(([0], cuts))):
            if srt[first] != self.solved:
                t, d = self.finish(cand[np.sort(part)])
                total += t
                depth = max(depth, d + 1)
        return total, depth


#: Look-ahead cost of each guess beyond the win limit in the worst case (so a decision never
#: trades a loss for a slightly lower mean).
DEPTH_PENALTY = 1000
#: In hard mode a decision with at most this many legal words tries every one of them.
HARD_EXHAUSTIVE = 400
#: ``ga-search``'s population and generations on one board when none are given.
SEARCH_DEFAULTS = (16, 4)
#: The two options as the joint bound's refusal names them (:func:`~evo_wordle.boards.check_search_words`).
SEARCH_NAMES = ("search_population", "search_generations")


def _state_seed(seed: int, key: bytes) -> np.random.Generator:
    digest = hashlib.blake2b(key, digest_size=8).digest()
    return np.random.default_rng(np.random.SeedSequence([seed, int.from_bytes(digest, "little")]))


def breed(ctx: Context, seeds: np.ndarray, mask: np.ndarray, generations: int, rng: np.random.Generator,
          fitness: dict, evaluate) -> np.ndarray:
    """The decision GA's generations from the evaluated ``seeds`` (lower fitness is better):
    tournament parents, letter recombination and one-letter dictionary mutation within ``mask``;
    ``evaluate(words)`` adds the new words to ``fitness``.  Returns the final population (the
    best ``len(seeds)`` words seen, ties alphabetical)."""
    from ..ga.operators import mutate_words, neighbour_index, recombine_children, tournament

    pop = seeds
    k = len(seeds)
    index = neighbour_index(ctx) if generations else None
    for _ in range(generations):
        fit = np.array([fitness[int(w)] for w in pop], dtype=np.float64)
        n_child = len(pop)
        a = pop[tournament(-fit, n_child, rng)]
        b = pop[tournament(-fit, n_child, rng)]
        children = recombine_children(ctx, a, b, mask, seeds, rng)
        half = n_child // 2
        children[half:] = mutate_words(pop[tournament(-fit, n_child - half, rng)], index, rng, mask)
        evaluate(children)
        union = np.unique(np.concatenate([pop, children]))
        score = np.array([fitness[int(w)] for w in union])
        pop = union[np.lexsort((union, score))][:k]
    return pop


@register("ga-search")
class GASearchSolver(Solver):
    """Evolve each guess with a look-ahead fitness (expected guesses to finish)."""

    def __init__(self, ctx: Context, settings: Settings, opener: str | None = None,
                 population: int = SEARCH_DEFAULTS[0], generations: int = SEARCH_DEFAULTS[1], exact_limit: int = 6,
                 seed: int = 0, tree: str | Path | None = None) -> None:
        self.tree_file = str(tree) if tree else None  # before the preset opener, which a tree replaces
        super().__init__(ctx, settings, opener)
        # the multi-board search's caps, each alone and jointly: a huge value began a search that never ended
        self.population = as_int("search_population", population, 1, SEARCH_MAX)
        self.generations = as_int("search_generations", generations, 0, SEARCH_GENERATIONS_MAX)
        check_search_words(self.population, self.generations, SEARCH_WORDS, SEARCH_NAMES)
        self.seed = seed
        self.look = LookAhead(ctx, settings.guess_from == "allowed" and not settings.hard, exact_limit)
        self._memo: dict[bytes, int] = {}
        self.tree: dict[str, int] = load_tree(ctx, tree, settings) if tree else {}
        root = self.tree.get("")  # the tree's first move is the opener every summary names
        if root is not None and self.opener is not None and self.opener != root:
            raise EvoWordleError(f"the tree {tree} opens with {ctx.words.allowed[root].upper()}; --opener "
                                 f"{ctx.words.allowed[self.opener]} cannot apply (drop it)")
        if root is not None:
            self.opener = root
        self.evaluations = 0

    def preset_opener(self, ctx: Context, settings: Settings) -> str | None:
        return None if self.tree_file else ("salet" if ctx.words.contains("salet") else None)

    def choose(self, state: GameState) -> int:
        """The guess for ``state``: the tree's move when it has one, else a fresh search."""
        if self.tree:
            hit = self.tree.get(history_key(self.ctx, state.history))
            if hit is not None:
                return hit
        return super().choose(state)

    def pick(self, state: GameState) -> int:
        """A fresh look-ahead GA search for ``state`` (used for the opener too)."""
        cand = state.candidates
        if len(cand) <= 2:
            return int(cand[0])
        key = state.key()
        hit = self._memo.get(key)
        if hit is None:
            hit = self.search(state)
            self._memo[key] = hit
        return hit

    def search(self, state: GameState) -> int:
        """The best guess the GA finds for ``state`` (lowest look-ahead total)."""
        cand = state.candidates
        if len(cand) <= self.look.exact_limit and not (state.hard and self.settings.guess_from == "allowed"):
            return self.look.exact.best(cand)[1]
        return self.evolve(state)["choice"]

    def evolve(self, state: GameState) -> dict:
        """The decision GA for ``state`` (no exact shortcut): ``choice`` (its guess),
        ``population`` (the final population: the GA's proposals), ``seeds``
        (the top-entropy words it started from) and ``fitness`` (every word it evaluated).
        In hard mode with few legal words every one is tried: population = seeds = those words."""
        ctx = self.ctx
        cand = state.candidates
        look = self.look
        hard = state.hard and self.settings.guess_from == "allowed"
        legal = state.guessable(self.settings.guess_from)
        if hard and len(legal) <= HARD_EXHAUSTIVE:
            # hard mode: few legal words; try them all (the finishing policy keeps to candidates)
            choice = self._best_of(legal, cand, self.settings.win_limit - state.turn)
            return {"choice": choice, "population": legal, "seeds": legal, "fitness": {}}
        uniform = np.full(len(cand), 1.0 / len(cand))
        bits = weighted_entropies(ctx, None if len(legal) == len(ctx.words) else legal, cand, uniform)
        k = min(self.population, len(legal))
        seeds = legal[rank_by_score(legal, bits, cand, k)]
        mask = np.zeros(len(ctx.words), dtype=bool)
        mask[legal] = True
        fitness: dict[int, int] = {}
        limit = self.settings.win_limit - state.turn  # guesses left within the win limit

        def evaluate(words: np.ndarray) -> None:
            for w in np.unique(words).tolist():
                if w not in fitness:
                    total, depth = look.split(w, cand)
                    fitness[w] = total + DEPTH_PENALTY * max(0, depth - limit)
                    self.evaluations += 1

        evaluate(seeds)
        pop = seeds
        if hard:
            tried = legal[rank_by_score(legal, bits, cand, 4 * k)]
            choice = self._best_of(tried, cand, self.settings.win_limit - state.turn)
            return {"choice": choice, "population": tried, "seeds": seeds, "fitness": fitness}
        if len(legal) > k:
            pop = breed(ctx, seeds, mask, self.generations, _state_seed(self.seed, state.key()), fitness, evaluate)
        choice = min(fitness, key=lambda w: (fitness[w], w not in set(cand.tolist()), w))
        return {"choice": choice, "population": pop, "seeds": seeds, "fitness": fitness}

    def _best_of(self, words: np.ndarray, cand: np.ndarray, limit: int) -> int:
        """The word with the lowest look-ahead fitness among ``words`` (exhaustive)."""
        best, best_key = -1, None
        in_cand = set(cand.tolist())
        for w in words.tolist():
            total, depth = self.look.split(w, cand)
            key = (total + DEPTH_PENALTY * max(0, depth - limit), w not in in_cand, w)
            self.evaluations += 1
            if best_key is None or key < best_key:
                best, best_key = w, key
        return best

    @classmethod
    def add_options(cls, parser) -> None:
        g = parser.add_argument_group("ga-search solver")
        g.add_argument("--tree", type=arg_type(as_file_name), metavar="FILE",
                       help="decision tree file (from ga-tree) to play instantly")
        g.add_argument("--search-population", type=int, metavar="N",
                       help=f"ga-search: words per decision GA, at most {SEARCH_MAX:,}, and population × (1 + "
                       f"generations) at most {SEARCH_WORDS:,} on one board, {BOARD_SEARCH_WORDS:,} on several "
                       "(default: 16; 60 on several boards)")
        g.add_argument("--search-generations", type=int, metavar="N",
                       help=f"ga-search: generations per decision, at most {SEARCH_GENERATIONS_MAX} (default: 4; "
                       "0 on several boards)")
        g.add_argument("--exact-limit", type=arg_type(as_int, 0, EXACT_LIMIT_MAX), metavar="N",
                       help=f"ga-search: parts of at most N answers are finished exactly, N at most "
                       f"{EXACT_LIMIT_MAX} (default: 6; one board)")

    @classmethod
    def check_params(cls, params: dict) -> None:
        """The constructor's caps, checked before a sweep's folder exists (``--set exact_limit=100``
        was refused by the first task, after sweep.json and results.csv were written)."""
        caps = {"population": ("search_population", 1, SEARCH_MAX),
                "generations": ("search_generations", 0, SEARCH_GENERATIONS_MAX),
                "exact_limit": ("exact_limit", 0, EXACT_LIMIT_MAX)}
        given = {key: as_int(name, params[key], lo, hi) for key, (name, lo, hi) in caps.items() if key in params}
        check_search_words(given.get("population", SEARCH_DEFAULTS[0]), given.get("generations", SEARCH_DEFAULTS[1]),
                           SEARCH_WORDS, SEARCH_NAMES)

    @classmethod
    def options_from_args(cls, args) -> dict:
        out = {}
        for name, key in (("search_population", "population"), ("search_generations", "generations"),
                          ("exact_limit", "exact_limit"), ("tree", "tree")):
            value = getattr(args, name, None)
            if value is not None:
                out[key] = value
        if out.get("population", 1) < 1 or out.get("generations", 0) < 0 or out.get("exact_limit", 0) < 0:
            raise EvoWordleError("--search-population must be ≥ 1, --search-generations and --exact-limit ≥ 0")
        return out

    def describe(self) -> dict:
        return {**super().describe(), "population": self.population, "generations": self.generations,
                "exact_limit": self.look.exact_limit, "tree": self.tree_file}


#: Finishing totals (and decisions) kept before a memo is emptied (bounded memory over many games).
BOARD_MEMO = 300_000


class BoardSearch:
    """``ga-search`` for several boards: the decision GA with a look-ahead fitness summed over boards.

    Fitness of a guess g (lower is better): Σ over unsolved boards of the expected guesses that
    board needs after g if it were then finished alone, ``(split_total(g, C_b) − |C_b|) / |C_b|``
    with the finishing totals of :class:`LookAhead` (exact for parts of at most ``exact_limit``
    answers).  The sum ignores that later guesses serve several boards at once, so it ranks
    guesses rather than predicting the score.  The GA starts from the ``population`` best words by
    the policy's own score and also weighs the policy's guess and every word still possible on a
    board; ties keep the policy's guess.  Decisions are memoised on the boards' candidate sets and
    the generator of each is seeded from them, so a decision does not depend on game order."""

    def __init__(self, ctx: Context, allowed_guesses: bool, population: int, generations: int,
                 exact_limit: int = 6, seed: int = 0) -> None:
        self.ctx = ctx
        self.population = population
        self.generations = generations
        self.seed = seed
        self.look = LookAhead(ctx, allowed_guesses, exact_limit)
        self._memo: dict[tuple, int] = {}

    def fitness(self, guess: int, boards: list[np.ndarray]) -> float:
        """Σ over ``boards`` (sorted word indices) of the expected guesses left on that board after ``guess``."""
        return sum((self.look.split_total(guess, c) - len(c)) / len(c) for c in boards)

    def choose(self, boards: list[np.ndarray], scores, base: int, candidates_only: bool) -> int:
        """The searched guess for ``boards`` (word indices, each board sorted); ``scores()`` gives
        the policy's score of every allowed word (higher is better; asked only when the decision
        is not memoised), ``base`` its guess; ``candidates_only``: only words still possible on a
        board may be played."""
        key = (candidates_only, *sorted(b.tobytes() for b in boards))
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        for memo in (self.look.memo, self._memo):  # bounded memory over many games
            if len(memo) > BOARD_MEMO:
                memo.clear()
        possible = np.unique(np.concatenate(boards))
        fitness: dict[int, float] = {}

        def evaluate(words: np.ndarray) -> None:
            for w in np.unique(words).tolist():
                if w not in fitness:
                    fitness[w] = self.fitness(w, boards)

        evaluate(np.array([base, *possible.tolist()]))
        if not candidates_only:
            everyone = np.arange(len(self.ctx.words))
            seeds = rank_by_score(everyone, scores(), possible, self.population)
            evaluate(seeds)
            mask = np.ones(len(self.ctx.words), dtype=bool)
            rng = _state_seed(self.seed, b"".join(key[1:]))
            breed(self.ctx, np.sort(seeds), mask, self.generations, rng, fitness, evaluate)
        weighed = np.fromiter(fitness, dtype=np.int64)
        choice = best_by_score(weighed, -np.array([fitness[w] for w in weighed.tolist()]), possible)
        if fitness[choice] >= fitness[base] - TIE_BITS:
            choice = base  # ties keep the policy's own guess
        self._memo[key] = choice
        return choice


# ------------------------------------------------------------------------------ tree files


#: Header line of a tree file: the game it was made for (``artefacts.made_for``) as JSON.
HEADER = "# made_for: "


def write_tree(ctx: Context, path: str | Path, paths: dict[int, list[int]], settings: Settings | None = None) -> None:
    """One line per answer: ``answer: guess1 guess2 … answer``, after a ``# made_for:`` header
    naming the settings and word lists (when ``settings`` is given)."""
    from ..artefacts import made_for

    words = ctx.words.allowed
    lines = [HEADER + json.dumps(made_for(settings, ctx.words))] if settings is not None else []
    lines += [f"{words[a]}: {' '.join(words[g] for g in p)}" for a, p in sorted(paths.items())]
    atomic_write_text(path, "\n".join(lines) + "\n")


#: Largest tree file read (bytes), longest line (characters) and most guesses on a line (one
#: answer's path).  With one line per answer these bound the tree's memory too.
MAX_TREE_BYTES = 4 * 2**20
MAX_TREE_LINE = 1000
MAX_TREE_GUESSES = 24


def _read_tree_text(path: Path) -> str:
    text = decode_utf8(read_capped(path, MAX_TREE_BYTES, "tree file"), path, "tree file")
    if text.lstrip().startswith("{"):  # the strategy file `ga-tree --out` writes beside the tree
        raise EvoWordleError(f"tree file {path} is JSON, not a tree file (one line per answer): give the file "
                             "ga-tree wrote with --tree, or replay a strategy file with --strategy")
    return text


def _check_first_path(path: Path, text: str) -> None:
    """Refuse a headerless file that is no tree at all (no path line, or a first line without
    ``answer:``) before a caller warns that it is an old tree: one line, the error alone."""
    lineno, line = next(((n, ln) for n, ln in enumerate(text.splitlines(), 1)
                         if ln.strip() and not ln.startswith("#")), (0, ""))
    if not lineno:
        raise EvoWordleError(f"tree file {path}: no answer paths")
    if ":" not in line[:MAX_TREE_LINE]:
        raise EvoWordleError(f"tree file {path} line {lineno}: missing ':' (a tree file has one line "
                             "'answer: guess … answer' per answer)")


def tree_made_for(path: str | Path) -> dict | None:
    """The ``made_for`` header of a tree file (None for an old file without one)."""
    from ..artefacts import settings_of

    path = Path(path)
    text = _read_tree_text(path)
    first = text.partition("\n")[0]
    if not first.startswith(HEADER):
        _check_first_path(path, text)
        return None
    # parse_json, as every JSON file from others: json.loads alone let a header nested 100,000
    # deep be an internal error (RecursionError), a key given twice play its last copy, and an
    # escape sequence reach the terminal in a message naming the answer list
    record = parse_json(first[len(HEADER):], path, "the made_for header of tree file")
    settings_of(record, f"tree file {path}")
    return record


def load_tree(ctx: Context, path: str | Path, settings: Settings | None = None) -> dict[str, int]:
    """History key → guess, rebuilt from a tree file; one-line errors on bad files.

    Linear in the file's size: each line's keys are built incrementally, lines are capped.
    With ``settings``, every move is checked against the rules of that game (hard mode,
    guessing only possible words) and every answer must be a possible answer in it: a tree that
    breaks them is refused, never played."""
    return read_tree(ctx, path, settings)[0]


def read_tree(ctx: Context, path: str | Path,
              settings: Settings | None = None) -> tuple[dict[str, int], dict[int, list[int]]]:
    """:func:`load_tree`'s history key → guess, and each answer's guess path as written."""
    from ..artefacts import list_mismatch

    path = Path(path)
    text = _read_tree_text(path)
    if text.startswith(HEADER):
        why = list_mismatch(tree_made_for(path), ctx.words)
        if why:
            raise EvoWordleError(f"tree file {path} cannot be replayed: {why}")
    possible = set(ctx.candidates(settings.candidates).tolist()) if settings is not None else None
    n = ctx.words.length
    tree: dict[str, int] = {}
    paths: dict[int, list[int]] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if len(line) > MAX_TREE_LINE:
            raise EvoWordleError(f"tree file {path} line {lineno}: longer than {MAX_TREE_LINE} characters")
        head, sep, rest = line.partition(":")
        try:
            if not sep:
                raise EvoWordleError("missing ':'")
            answer = ctx.words.index(head.strip())
            if answer in paths:
                raise EvoWordleError(f"a second path for {ctx.words.allowed[answer]!r}")
            guesses = rest.split()
            if len(guesses) > MAX_TREE_GUESSES:
                raise EvoWordleError(f"more than {MAX_TREE_GUESSES} guesses")
            guesses = paths[answer] = [ctx.words.index(w) for w in guesses]
        except EvoWordleError as exc:
            raise EvoWordleError(f"tree file {path} line {lineno}: {exc}") from None
        if possible is not None and answer not in possible:
            raise EvoWordleError(f"tree file {path} line {lineno}: {head.strip()} cannot be the answer "
                                 f"with --candidates {settings.candidates}")
        key = ""
        history: list[tuple[int, int]] = []
        for g in guesses:
            if settings is not None:
                why = illegal_move(ctx, settings, tuple(history), g)
                if why:
                    raise EvoWordleError(f"tree file {path} line {lineno} is illegal in this game: {why}"
                                         f" after {key or 'the start'}")
            if tree.setdefault(key, g) != g:
                raise EvoWordleError(f"tree file {path} line {lineno}: two guesses after the same feedback")
            pattern = int(ctx.table[g, answer])
            history.append((g, pattern))
            step = f"{ctx.words.allowed[g]}:{to_digits(pattern, n)}"
            key = f"{key},{step}" if key else step
        if not guesses or guesses[-1] != answer:
            raise EvoWordleError(f"tree file {path} line {lineno}: the path does not end with the answer")
    return tree, paths


def tree_paths(records) -> dict[int, list[int]]:
    return {r.answer: list(r.guesses) for r in records}


def tree_json(ctx: Context, paths: dict[int, list[int]]) -> dict[str, str]:
    """History key → guess word (the ``tree`` of a strategy file)."""
    out: dict[str, str] = {}
    for a, guesses in paths.items():
        hist: list[tuple[int, int]] = []
        for g in guesses:
            out.setdefault(history_key(ctx, hist), ctx.words.allowed[g])
            hist.append((g, int(ctx.table[g, a])))
    return out


__all__ = ["GASearchSolver", "LookAhead", "load_tree", "read_tree", "tree_json", "tree_made_for", "write_tree"]
