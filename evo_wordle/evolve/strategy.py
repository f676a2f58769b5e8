"""Strategy genomes: a small vector of genes that fully defines a fast entropy-style policy.

A genome says which opener to play and how to score every later guess ``g``:

* the candidates are weighted by a frequency prior (``frequency.priority_paper`` with the
  genome's ``steepness`` and ``midpoint``, mixed with a uniform share ``mix``; steepness 0 is
  the plain uniform weighting used when the answer list is known); words that look like a
  plural (one final s) or a past tense (final ed) have their prior multiplied by ``w_plural``
  and ``w_past``, because curated answer lists hold almost none of them (2 of 2,309) while
  word frequencies rank them high; likewise ``w_proper`` for words a dictionary knows only as
  names and ``w_unlisted`` for words it does not list (``lexicon.py``);
* ``H(g)`` is the entropy of g's feedback under that weighting, ``rem = H_now − H(g)`` the
  expected bits left, and ``p(g)`` the chance that g itself is the answer;
* the estimated cost is ``1 + (1 − min(1, bonus·p(g)))·(1 + k1·rem + k2·log2(1 + rem))``
  minus ``w_freq·priority(g)`` for candidates (the thesis's frequency priority);
* any allowed word may be guessed until the effective number of candidates ``2**H_now``
  drops to ``switch_eff`` or the turn reaches ``switch_turn``; from then on only candidates
  (when the settings allow non-candidate guesses at all); in hard mode ``hard_candidates``
  keeps to candidates throughout.

The strategy solver memoises each decision on ``state.key()``, and a strategy file may also
carry a decision tree (``tree``: history → guess) that is played before the genome is asked.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..artefacts import MAX_FILE_BYTES, PARAMS_FORMAT, check_lists, list_mismatch, lists_note, refuse_other_lists
from ..artefacts import STRATEGY_FORMAT as FORMAT
from ..context import Context
from ..errors import EvoWordleError
from ..files import atomic_write_text, read_json
from ..frequency import priority_paper
from ..game import GameState, Settings
from ..params import arg_type, as_file_name, as_word
from ..patterns import to_digits
from ..solvers.base import Solver, register
from ..words import WordSet

VERSION = 1
#: The version of a file that stores a prior: an evo-wordle from before stored priors refuses it
#: (unsupported version) instead of playing the genome's own prior with the file's tree.
PRIOR_VERSION = 2
#: Every top-level key a strategy file may hold: a misspelt one ("priors") is refused, not ignored.
FILE_KEYS = frozenset({"format", "version", "genome", "provenance", "made_for", "tree", "prior"})

#: Real genes with their (low, high) bounds; Gaussian mutation clips to these.
REAL_GENES: dict[str, tuple[float, float]] = {
    "steepness": (0.0, 40.0),
    "midpoint": (0.0, 1.0),
    "mix": (0.0, 1.0),
    "k1": (0.0, 1.5),
    "k2": (0.0, 2.0),
    "bonus": (0.0, 2.0),
    "w_freq": (0.0, 1.0),
    "switch_eff": (1.0, 50.0),
    "switch_turn": (1.0, 7.0),
    "w_plural": (0.001, 1.0),
    "w_past": (0.001, 1.0),
    "w_proper": (0.001, 1.0),
    "w_unlisted": (0.001, 1.0),
}
#: Real genes that act as multipliers: mutation steps their log10, so 0.01 is as near to 0.1 as
#: 0.1 is to 1 (a linear step would spend most of its moves near the top of the range).
LOG_GENES = frozenset({"w_plural", "w_past", "w_proper", "w_unlisted"})
#: The prior multipliers (1 = off).
MULTIPLIERS = ("w_plural", "w_past", "w_proper", "w_unlisted")
#: Cells per bincount block when scoring guesses (bounds temporary memory).
BLOCK_CELLS = 1 << 23
#: Most weights a stored prior may hold (far above any allowed list; bounds what a file can make us build).
MAX_PRIOR_WORDS = 200_000


@dataclass(frozen=True)
class Strategy:
    """One genome (see the module docstring for what each gene does)."""

    opener: str = "salet"
    steepness: float = 10.0
    midpoint: float = 0.5
    mix: float = 0.0
    k1: float = 0.25
    k2: float = 0.6
    bonus: float = 1.0
    w_freq: float = 0.0
    switch_eff: float = 2.0
    switch_turn: float = 6.0
    hard_candidates: bool = False
    w_plural: float = 1.0  # genes added later come last (a file must still give every gene)
    w_past: float = 1.0
    w_proper: float = 1.0
    w_unlisted: float = 1.0

    def __post_init__(self) -> None:
        for name, (lo, hi) in REAL_GENES.items():
            value = getattr(self, name)
            # ints are finite (math.isfinite would overflow on one past 1e308, read from a file)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or (
                    isinstance(value, float) and not math.isfinite(value)):
                raise EvoWordleError(f"strategy gene {name} must be a number, not {value!r}")
            if not lo <= value <= hi:
                raise EvoWordleError(f"strategy gene {name}={value} is outside [{lo}, {hi}]")
        if not isinstance(self.opener, str) or not self.opener:
            raise EvoWordleError("strategy gene opener must be a word")
        if not isinstance(self.hard_candidates, bool):
            raise EvoWordleError("strategy gene hard_candidates must be true or false")

    def as_dict(self) -> dict:
        """The genes by name (the strategy file's ``genome``)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Strategy:
        """A genome from a strategy file's ``genome`` object: every gene given (a file never plays
        a default it does not state: defaults change as genes are added), none unknown, each checked."""
        if not isinstance(data, dict):
            raise EvoWordleError("strategy genome must be a JSON object")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise EvoWordleError(f"unknown strategy gene(s): {', '.join(unknown)}")
        missing = [name for name in names if name not in data]
        if missing:
            raise EvoWordleError(f"strategy genome lacks gene(s): {', '.join(missing)}")
        return cls(**data)

    def describe(self, settings: Settings | None = None) -> str:
        """The genome in plain words (for reports and docs); under ``settings`` that allow only
        candidates as guesses, the exploration genes (which then never act) are not mentioned."""
        prior = "uniform prior" if self.steepness == 0 else (
            f"frequency prior (steepness {self.steepness:.1f}, midpoint {self.midpoint:.2f},"
            f" {self.mix:.0%} uniform)"
        )
        damp = [f"{what} ×{getattr(self, gene):.3g}" for what, gene in zip(
            ("plurals", "-ed words", "names", "words no dictionary lists"), MULTIPLIERS) if getattr(self, gene) != 1.0]
        if damp:
            prior += f" with {', '.join(damp[:-1])}{' and ' if len(damp) > 1 else ''}{damp[-1]}"
        only_cand = settings is not None and (
            settings.guess_from == "candidates" or (settings.hard and self.hard_candidates))
        guesses = ("guess only words that may be the answer" if only_cand else
                   f"explore with any word until ≤ {self.switch_eff:.1f} effective candidates or turn "
                   f"{int(round(self.switch_turn))}")
        return (
            f"open with {self.opener.upper()}; weight candidates by a {prior}; cost = 1 + (1 − "
            f"{self.bonus:.2f}·p)·(1 + {self.k1:.2f}·rem + {self.k2:.2f}·log2(1+rem))"
            f"{f' − {self.w_freq:.2f}·priority' if self.w_freq else ''}; {guesses}"
        )


@lru_cache(maxsize=4)
def _inflections(words: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(plural, past) masks of a word list; cached, because every genome the meta-GA scores
    builds a policy over the same list."""
    past = np.fromiter((w.endswith("ed") for w in words), dtype=bool, count=len(words))
    plural = np.fromiter((w.endswith("s") and not w.endswith(("ss", "us", "is")) for w in words), dtype=bool,
                         count=len(words))
    return plural, past


@lru_cache(maxsize=4)
def _names_and_unlisted(words: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    from ..lexicon import word_classes

    return word_classes(words)


def inflection_weights(words, w_plural: float, w_past: float) -> np.ndarray:
    """A prior multiplier per word: ``w_plural`` for a word ending in one s (not ss, us or is:
    GLASS, FOCUS and BASIS are not plurals), ``w_past`` for one ending in ed, else 1."""
    plural, past = _inflections(tuple(words))
    return np.where(past, w_past, np.where(plural, w_plural, 1.0))


def prior_multipliers(words, strategy: Strategy) -> np.ndarray:
    """The product of the genome's four prior multipliers for each word (1 where none applies)."""
    out = inflection_weights(words, strategy.w_plural, strategy.w_past)
    if strategy.w_proper != 1.0 or strategy.w_unlisted != 1.0:
        proper, unlisted = _names_and_unlisted(tuple(words))
        out *= np.where(proper, strategy.w_proper, 1.0) * np.where(unlisted, strategy.w_unlisted, 1.0)
    return out


# ---------------------------------------------------------------------------------- files


def save_strategy(path: str | Path, strategy: Strategy, provenance: dict | None = None,
                  tree: dict[str, str] | None = None, settings: Settings | None = None,
                  words=None, prior: StoredPrior | None = None) -> None:
    """Write a strategy file atomically: genome, how it was produced, the game it was made for
    (``made_for``: settings and word-list hashes, when ``settings`` and ``words`` are given), an
    optional prior (one weight per allowed word, which then replaces the genome's prior genes;
    it needs ``made_for``, since it is tied to the allowed list) and an optional decision tree
    (valid only in that game, under the file's prior)."""
    from ..artefacts import made_for

    doc = {"format": FORMAT, "version": VERSION if prior is None else PRIOR_VERSION, "genome": strategy.as_dict(),
           "provenance": provenance or {}}
    if settings is not None and words is not None:
        doc["made_for"] = made_for(settings, words)
    if prior is not None:
        if "made_for" not in doc:
            raise EvoWordleError("a stored prior needs the game and word lists it was made for (settings and words)")
        weights = check_prior(prior.weights, len(words))
        # 7 significant digits: the file is what is replayed, so its rounded weights are the prior
        doc["prior"] = {"about": str(prior.about), "weights": [float(f"{w:.7g}") for w in weights.tolist()]}
    if tree:
        doc["tree"] = tree
    atomic_write_text(path, json.dumps(doc, indent=1) + "\n")


@dataclass(frozen=True)
class StoredPrior:
    """A prior a strategy file carries: one weight > 0 per allowed word of its ``made_for`` list
    (replacing the genome's frequency curve, multipliers and mix), and how it was made."""

    weights: np.ndarray
    about: str


def _stored_prior(doc: dict, path: Path) -> StoredPrior | None:
    """The file's ``prior`` block checked as data (numbers, size, > 0), or None if it has none."""
    if "prior" not in doc:  # left out: no prior; null is a malformed prior, not an absent one
        return None
    block = doc["prior"]
    where = f"strategy file {path}: its prior"
    if not isinstance(block, dict) or not isinstance(block.get("weights"), list):
        raise EvoWordleError(f"{where} must be a JSON object with a list of \"weights\"")
    unknown = sorted(set(block) - {"about", "weights"})
    if unknown:  # a misspelt "about" would be lost silently
        raise EvoWordleError(f"{where} has unknown key(s): {', '.join(unknown)}")
    if doc.get("made_for") is None:
        raise EvoWordleError(f"{where} is not tied to a word list (the file has no \"made_for\")")
    about, weights = block.get("about", ""), block["weights"]
    if not isinstance(about, str):
        raise EvoWordleError(f"{where}: \"about\" must be a string")
    if not weights:
        raise EvoWordleError(f"{where} has no weights")
    if len(weights) > MAX_PRIOR_WORDS:
        raise EvoWordleError(f"{where} has {len(weights)} weights, more than {MAX_PRIOR_WORDS}")
    if not all(type(w) in (int, float) for w in weights):  # not bool, str or null
        raise EvoWordleError(f"{where}: every weight must be a number")
    try:
        return StoredPrior(check_prior(weights, len(weights)), about)
    except EvoWordleError as exc:
        raise EvoWordleError(f"{where}: {exc}") from None


@dataclass(frozen=True)
class StrategyFile:
    """A loaded strategy file: genome, provenance, tree, and the game it was made for (if known)."""

    path: str
    strategy: Strategy
    provenance: dict
    tree: dict[str, str]
    made_for: dict | None
    prior: StoredPrior | None = None


def resolve_strategy_path(name: str | Path) -> Path:
    """A path as given, else a strategy shipped in the package (``answers-known-salet``)."""
    path = Path(name)
    if path.exists() or path.parent != Path(".") or str(name).endswith(".tree"):
        return path
    from importlib import resources

    stem = path.name[:-5] if path.name.endswith(".json") else path.name
    shipped = resources.files("evo_wordle.strategies").joinpath(stem + ".json")
    return Path(str(shipped)) if shipped.is_file() else path


def shipped_strategies() -> list[str]:
    """Names of the strategy files shipped in the package."""
    from importlib import resources

    return sorted(p.name[:-5] for p in resources.files("evo_wordle.strategies").iterdir()
                  if p.name.endswith(".json") and not p.name.endswith(".log.json"))


def read_strategy_file(name: str | Path) -> StrategyFile:
    """Load a strategy file (a path or a shipped name); one-line EvoWordleError if unusable."""
    path = resolve_strategy_path(name)
    if not path.exists() and not path.is_symlink():
        known = ", ".join(shipped_strategies())
        raise EvoWordleError(f"strategy file {name} does not exist (shipped strategies: {known})")
    doc = read_json(path, MAX_FILE_BYTES, "strategy file")
    if isinstance(doc, dict) and doc.get("format") == PARAMS_FORMAT:  # e.g. a shipped multi-board policy
        boards = (doc.get("made_for") or {}).get("boards", 1) if isinstance(doc.get("made_for"), dict) else 1
        raise EvoWordleError(f"{path} holds parameters for the {doc.get('solver')} solver ({boards} board(s)), "
                             "not a one-board strategy: replay it with bench or compare --strategy")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise EvoWordleError(f"{path} is not an evo-wordle strategy file (no \"format\": \"{FORMAT}\")")
    version = doc.get("version")
    if type(version) is not int or version not in (VERSION, PRIOR_VERSION):
        raise EvoWordleError(f"strategy file {path} has unsupported version {version!r}")
    unknown = sorted(set(doc) - FILE_KEYS)
    if unknown:
        raise EvoWordleError(f"strategy file {path} has unknown key(s): {', '.join(unknown)}")
    if ("prior" in doc) != (version == PRIOR_VERSION):  # a prior only in version 2, so older readers refuse it
        raise EvoWordleError(f"strategy file {path} is version {version} but " + (
            f"stores a prior (a file with a prior is version {PRIOR_VERSION})" if "prior" in doc
            else "stores no prior (version 2 is a file with a prior)"))
    try:  # JSON keys are strings and every gene is checked: a bad genome is an EvoWordleError
        strategy = Strategy.from_dict(doc.get("genome"))
    except EvoWordleError as exc:
        raise EvoWordleError(f"strategy file {path}: {exc}") from None
    tree = doc.get("tree", {})  # left out: no tree; [] or null is a malformed tree, not an absent one
    if not isinstance(tree, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tree.items()):
        raise EvoWordleError(f"strategy file {path}: tree must map history strings to words")
    record = doc.get("made_for")
    if record is not None:
        from ..artefacts import settings_of

        settings_of(record, f"strategy file {path}")  # validates the block
    prov = doc.get("provenance", {})
    if not isinstance(prov, dict):
        raise EvoWordleError(f"strategy file {path}: provenance must be a JSON object")
    return StrategyFile(str(path), strategy, prov, tree, record, _stored_prior(doc, path))


def load_strategy_file(path: str | Path, settings: Settings | None = None, *, ctx: Context | None = None,
                       other_lists: bool = False) -> tuple[Strategy, dict, dict[str, str]]:
    """(genome, provenance, tree) from a strategy file; one-line EvoWordleError if unusable.

    With ``ctx`` (the game it is to be played in) a file made for other word lists is refused
    unless ``other_lists=True``; without ``ctx`` the lists are not checked at all.  Either way the
    genome returned no longer carries the lists it was made for."""
    f = read_strategy_file(path)
    if ctx is not None:
        check_lists(f.made_for, ctx.words, f"strategy file {f.path}", other_lists)
    return f.strategy, f.provenance, f.tree


#: Settings a stored decision tree depends on (the genome plays when any of them differs).
TREE_KEYS = ("candidates", "guess_from", "hard")


def usable_tree(ctx: Context, settings: Settings, f: StrategyFile) -> dict[str, str]:
    """The file's tree if it was made for this game, else {} (the genome plays instead).

    A tree made for other word lists is refused (its histories may not exist here); an old file
    without ``made_for`` keeps its tree (the CLI warns), and every tree used is checked move by
    move by :func:`check_tree`, so an illegal one is refused either way."""
    check_stored_tree(f, ctx.words)
    return _tree_for(settings, f)


def _tree_for(settings: Settings, f: StrategyFile) -> dict[str, str]:
    """:func:`usable_tree` once its word lists are checked: the tree, or {} under other settings."""
    if not f.tree or f.made_for is None:
        return f.tree or {}
    if any(f.made_for.get(k) != getattr(settings, k) for k in TREE_KEYS):
        return {}
    return f.tree


def check_stored_tree(f: StrategyFile, words: WordSet) -> None:
    """Refuse the file's stored tree on other word lists than it was made for (its histories may
    not exist there); a file without a tree, or without ``made_for``, passes."""
    if f.tree:
        _refuse_tree(f, lists_why(f, words))


def _refuse_tree(f: StrategyFile, why: str | None) -> None:
    """:func:`check_stored_tree` once the lists are compared (``why``: :func:`lists_why`)."""
    if f.tree and why:
        raise EvoWordleError(f"strategy file {f.path}: its decision tree cannot be replayed: {why}")


def lists_why(f: StrategyFile, words: WordSet) -> str | None:
    """Why ``words`` are not the lists ``f`` was made for (None: they are, or it records none):
    the one comparison a replay's checks and its note share."""
    return None if f.made_for is None else list_mismatch(f.made_for, words)


#: Why a stored prior cannot be played on a list (its weights would fall on other words).
PRIOR_ELSEWHERE = "its prior was made for another allowed list"


def file_prior(ctx: Context, f: StrategyFile) -> np.ndarray:
    """The file's stored prior as weights over ``ctx``'s allowed list; a one-line error when the
    file was made for another allowed list."""
    return _prior_on(f, ctx.words)


def _prior_on(f: StrategyFile, words: WordSet) -> np.ndarray:
    """:func:`file_prior` on the word lists ``words``."""
    from ..artefacts import allowed_differs

    if allowed_differs(f.made_for, words):
        raise EvoWordleError(f"strategy file {f.path}: {PRIOR_ELSEWHERE}")
    try:
        return check_prior(f.prior.weights, len(words))
    except EvoWordleError as exc:  # e.g. fewer weights than the list it names has words
        raise EvoWordleError(f"strategy file {f.path}: its prior: {exc}") from None


def check_replay(f: StrategyFile, words: WordSet, *, why: str | None, opener: str | None, prior_given: bool,
                 tree_given: bool, other_lists: bool) -> np.ndarray | None:
    """Every refusal of playing strategy file ``f`` on ``words`` as :class:`StrategySolver` plays
    it, in its order: the file's opener not a word there (unless ``opener`` replaces it); its
    stored prior (unless a prior is given) or stored tree (unless a prior or a tree is given) off
    the lists they were made for, even with ``other_lists``; then, without ``other_lists``, the
    file itself made for other lists.  The solver's constructor and its up-front check
    (:meth:`StrategySolver.check_word_lists`, a sweep's before its folder exists) both call it,
    so they cannot disagree; both say every flag (no defaults).  ``why`` is :func:`lists_why` of
    ``f`` and ``words``, compared once by the caller, which needs it too.  Returns the stored
    prior's weights on ``words`` when it plays."""
    where = f"strategy file {f.path}"
    if not opener and not words.contains(f.strategy.opener):
        raise EvoWordleError(f"{where}: its opener {f.strategy.opener!r} is not an allowed word of this list")
    prior = None
    if not prior_given:  # a given prior plays neither the stored prior nor the tree made under it
        prior = None if f.prior is None else _prior_on(f, words)
        if not tree_given:
            _refuse_tree(f, why)
    refuse_other_lists(why, where, other_lists)
    return prior


def file_policy(ctx: Context, f: StrategyFile, *, other_lists: bool = False) -> StrategyPolicy:
    """The file's genome under the file's prior (the one it stores, else the genome's own), with
    no tree: what lookahead-tree and plan-tree build a new tree from.  A file made for other word
    lists than ``ctx``'s is refused unless ``other_lists=True`` (a stored prior even then)."""
    prior = None if f.prior is None else file_prior(ctx, f)
    check_lists(f.made_for, ctx.words, f"strategy file {f.path}", other_lists)
    return StrategyPolicy(ctx, f.strategy, prior=prior)


def load_strategy(path: str | Path, *, ctx: Context | None = None, other_lists: bool = False) -> Strategy:
    """Only the genome of a strategy file (``ctx``, ``other_lists``: as :func:`load_strategy_file`).

    The word lists the file was made for are checked only when ``ctx`` is given: without it the
    bare genome returned no longer knows them, and nothing stops it playing on other lists."""
    return load_strategy_file(path, ctx=ctx, other_lists=other_lists)[0]


def history_key(ctx: Context, history) -> str:
    """Decision-tree key of a history: ``word:digits,word:digits`` ('' at the start)."""
    n = ctx.words.length
    return ",".join(f"{ctx.words.allowed[g]}:{to_digits(p, n)}" for g, p in history)


def parse_history_key(ctx: Context, key: str) -> tuple[tuple[int, int], ...]:
    """The history a :func:`history_key` stands for (one-line EvoWordleError if malformed)."""
    from ..patterns import parse

    if not key:
        return ()
    out = []
    for step in key.split(","):
        word, sep, digits = step.partition(":")
        if not sep:
            raise EvoWordleError(f"bad tree key {key!r}")
        out.append((ctx.words.index(word), parse(digits, ctx.words.length)))
    return tuple(out)


def check_tree(ctx: Context, settings: Settings, tree: dict[str, str], where: str) -> dict[str, int]:
    """History key → guess index, after checking every stored move against the rules of the game
    ``settings`` describe (:func:`evo_wordle.game.illegal_move`) and that each history could
    happen (some possible answer gives that feedback); a tree that breaks them is refused."""
    from ..game import illegal_move

    cand = ctx.candidates(settings.candidates)
    out: dict[str, int] = {}
    for key, word in tree.items():
        try:
            history = parse_history_key(ctx, key)
            guess = ctx.words.index(word)
        except (EvoWordleError, ValueError) as exc:
            raise EvoWordleError(f"{where}: tree entry {key!r}: {exc}") from None
        left = cand
        for g, pat in history:
            left = left[ctx.table[g, left] == pat]
        if not len(left):
            raise EvoWordleError(f"{where}: tree entry {key!r} cannot happen: no possible answer gives that feedback")
        why = illegal_move(ctx, settings, history, guess)
        if why:
            raise EvoWordleError(f"{where}: the tree is illegal in this game: {why} after {key or 'the start'}")
        out[key] = guess
    return out


# ---------------------------------------------------------------------------- fast scoring


def transposed_table(ctx: Context) -> np.ndarray:
    """``table.T`` as a C-contiguous array (candidate rows are then cheap to gather); cached."""
    tt = ctx.__dict__.get("_table_T")
    if tt is None:
        tt = np.ascontiguousarray(np.asarray(ctx.table).T)
        ctx.__dict__["_table_T"] = tt
    return tt


def pattern_mass(ctx: Context, guesses: np.ndarray | None, candidates: np.ndarray,
                 weights: np.ndarray) -> np.ndarray:
    """Flat (len(guesses)·n_patterns) summed candidate ``weights`` per (guess, pattern).

    ``guesses=None`` means every allowed word.  Works on the transposed table so a small
    candidate set costs only its own rows.
    """
    tt = transposed_table(ctx)
    npat = ctx.words.n_patterns
    n_g = tt.shape[1] if guesses is None else len(guesses)
    out = np.zeros(n_g * npat, dtype=np.float64)
    offsets = np.arange(n_g, dtype=np.int64) * npat
    step = max(1, BLOCK_CELLS // max(n_g, 1))
    for start in range(0, len(candidates), step):
        rows = candidates[start:start + step]
        block = tt[rows] if guesses is None else tt[rows][:, guesses]
        idx = block.astype(np.int64)
        idx += offsets[None, :]
        w = np.broadcast_to(weights[start:start + step, None], idx.shape)
        out += np.bincount(idx.ravel(), weights=w.ravel(), minlength=n_g * npat)
    return out


def mass_entropy(mass: np.ndarray, n_patterns: int) -> np.ndarray:
    """Entropy (bits) of each guess's pattern distribution from a flat :func:`pattern_mass`."""
    nz = np.flatnonzero(mass)
    vals = mass[nz]
    n_g = len(mass) // n_patterns
    return -np.bincount(nz // n_patterns, weights=vals * np.log2(vals), minlength=n_g)


#: Up to this many candidates, entropies come from sorting each guess's patterns (cost ∝ n)
#: rather than from a (guesses × 243) histogram.
SORT_LIMIT = 160


def weighted_entropies(ctx: Context, guesses: np.ndarray | None, candidates: np.ndarray,
                       weights: np.ndarray) -> np.ndarray:
    """H(feedback of g) for each guess g, candidates weighted by ``weights`` (summing to 1)."""
    n = len(candidates)
    if n > SORT_LIMIT:
        return mass_entropy(pattern_mass(ctx, guesses, candidates, weights), ctx.words.n_patterns)
    tt = transposed_table(ctx)
    block = tt[candidates] if guesses is None else tt[candidates][:, guesses]  # (n, G) patterns
    # key = pattern << 8 | candidate's position (n ≤ SORT_LIMIT < 256): 16 bits hold codes below 256
    # (words of up to 5 letters); longer words' codes (3^6 = 729 and up) need 32
    wide = np.uint16 if ctx.words.n_patterns <= 256 else np.uint32
    keys = block.T.astype(wide) << 8
    keys |= np.arange(n, dtype=wide)[None, :]
    keys.sort(axis=1)
    pats = keys >> 8
    ws = weights[keys & 0xFF]
    start = np.ones(keys.shape, dtype=bool)
    start[:, 1:] = pats[:, 1:] != pats[:, :-1]
    first = np.flatnonzero(start)
    gm = np.add.reduceat(ws.ravel(), first)
    return -np.bincount(first // n, weights=gm * np.log2(gm), minlength=keys.shape[0])


#: Non-candidate guesses considered per decision (0 = every allowed word): the best ``pool``
#: words by a letter-information proxy, plus the likeliest candidates.  Exact scoring of all
#: 12,972 words costs ~20x more for a small gain (see docs/evolve.md).
DEFAULT_POOL = 300


def _letter_tables(ctx: Context) -> tuple[np.ndarray, np.ndarray]:
    cached = ctx.__dict__.get("_letter_presence")
    if cached is None:
        from ..game import letter_counts

        presence = (letter_counts(ctx) > 0).astype(np.float64)  # (N, 26)
        cached = (presence, np.asarray(ctx.words.letters, dtype=np.int64))
        ctx.__dict__["_letter_presence"] = cached
    return cached


def _h2(q: np.ndarray) -> np.ndarray:
    q = np.clip(q, 1e-12, 1 - 1e-12)
    return -(q * np.log2(q) + (1 - q) * np.log2(1 - q))


def explore_pool(ctx: Context, candidates: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Sorted guess pool: the ``size`` best words by Σ binary entropy of letter presence and of
    letter-in-place over the weighted candidates (an independence proxy for feedback entropy),
    plus the ``size`` likeliest candidates."""
    presence, letters = _letter_tables(ctx)
    q = weights @ presence[candidates]  # P(letter occurs in the answer)
    length = letters.shape[1]
    place = np.zeros((length, 26))
    for pos in range(length):  # P(letter at pos), 5 tiny bincounts
        place[pos] = np.bincount(letters[candidates, pos], weights=weights, minlength=26)
    score = presence @ _h2(q) + _h2(place[np.arange(length)[None, :], letters]).sum(axis=1)
    n_all = len(score)
    top = np.argpartition(-score, min(size, n_all - 1))[:size]
    likely = candidates if len(candidates) <= size else candidates[np.argpartition(-weights, size)[:size]]
    return np.union1d(top, likely)


def check_prior(prior, n_words: int) -> np.ndarray:
    """``prior`` as float weights, one per allowed word, each finite and > 0 (a word of weight 0
    could still be the answer and leave its candidates no weight to normalise)."""
    try:
        w = np.asarray(prior, dtype=np.float64)
    except (TypeError, ValueError):
        raise EvoWordleError(f"a prior must be numbers, one per allowed word, not {type(prior).__name__}") from None
    except OverflowError:  # a whole number past 1e308 (a file may hold one)
        raise EvoWordleError("a prior's weights must be finite and > 0") from None
    if w.shape != (n_words,):
        raise EvoWordleError(f"a prior needs one weight per allowed word ({n_words}), not shape {w.shape}")
    if not np.isfinite(w).all() or (w <= 0).any():
        raise EvoWordleError("a prior's weights must be finite and > 0")
    # weights count relative to their sum: 1e308 each overflowed it (the policy then played on
    # NaN scores, with numpy's warnings), and a weight whose share of it is 0 is a weight of 0
    with np.errstate(over="ignore", under="ignore"):
        total = w.sum()
        if not np.isfinite(total) or (w / total <= 0).any():
            raise EvoWordleError("a prior's weights must add up to a finite number in which each has a share "
                                 "above 0 (weights count relative to their sum: scale them down)")
    return w


class StrategyPolicy:
    """A genome bound to a context: ``decide(state, guess_from)`` → word index (memoised)."""

    def __init__(self, ctx: Context, strategy: Strategy, tree: dict[str, str] | None = None,
                 pool: int = DEFAULT_POOL, prior: np.ndarray | None = None) -> None:
        self.ctx = ctx
        self.pool = pool
        self.strategy = strategy
        self.opener = ctx.words.index(strategy.opener)
        s = strategy
        if prior is not None:  # replaces the genome's whole prior: curve, multipliers and mix
            self.prior, self.mix = check_prior(prior, len(ctx.words)), 0.0
        else:
            self.prior, self.mix = priority_paper(ctx.frequencies, s.steepness, s.midpoint), s.mix
            if any(getattr(s, gene) != 1.0 for gene in MULTIPLIERS):
                self.prior = self.prior * prior_multipliers(ctx.words.allowed, s)
        self.bonus_priority = ctx.priority
        self.tree = {k: (v if isinstance(v, int) else ctx.words.index(v)) for k, v in (tree or {}).items()}
        self._memo: dict[tuple[bytes, str], int] = {}

    def weights(self, candidates: np.ndarray) -> np.ndarray:
        """Answer probabilities of ``candidates``: the frequency prior mixed with uniform by the genome."""
        w = self.prior[candidates]
        w = w / w.sum()
        mix = self.mix
        return (1.0 - mix) * w + mix / len(candidates) if mix else w

    def decide(self, state: GameState, guess_from: str = "allowed") -> int:
        """The genome's guess in ``state`` (the opener, the stored tree's move, or the cost model's argmin)."""
        if state.turn == 0 and not self.tree:
            return self.opener
        if self.tree:
            hit = self.tree.get(history_key(self.ctx, state.history))
            if hit is not None:
                return hit
            if state.turn == 0:
                return self.opener
        cand = state.candidates
        if len(cand) <= 1:
            return int(cand[0])
        key = (state.key(), guess_from)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._score(state, guess_from)
            self._memo[key] = hit
        return hit

    def _score(self, state: GameState, guess_from: str) -> int:
        cand = state.candidates
        if len(cand) == 2:  # guessing the likelier one is optimal
            return int(cand[np.argmax(self.weights(cand))])
        guesses, cost = self.costs(state, guess_from)
        return int(guesses[np.argmin(cost)])  # ties: first = alphabetical

    def costs(self, state: GameState, guess_from: str = "allowed") -> tuple[np.ndarray, np.ndarray]:
        """(guesses, estimated cost of each) in ``state``: the words the explore/candidates switch
        lets the genome consider (sorted), each scored by its cost model (the module docstring)."""
        s = self.strategy
        cand = state.candidates
        w = self.weights(cand)
        h_now = float(-(w * np.log2(np.where(w > 0, w, 1.0))).sum())
        only_cand = (
            guess_from == "candidates"
            or 2.0 ** h_now <= s.switch_eff
            or state.turn + 1 >= round(s.switch_turn)
            or (state.hard and s.hard_candidates)
        )
        if only_cand:
            guesses = cand
        elif self.pool:
            guesses = explore_pool(self.ctx, cand, w, self.pool)
            if state.hard and state.history:
                guesses = np.intersect1d(guesses, state.guessable("allowed"), assume_unique=True)
        else:
            guesses = state.guessable("allowed")
        all_words = len(guesses) == len(self.ctx.words)
        h = weighted_entropies(self.ctx, None if all_words else guesses, cand, w)
        rem = np.maximum(h_now - h, 0.0)
        p = self._answer_chance(guesses, cand, w)
        future = 1.0 + s.k1 * rem + s.k2 * np.log2(1.0 + rem)
        cost = 1.0 + (1.0 - np.minimum(1.0, s.bonus * p)) * future
        if s.w_freq:
            cost -= s.w_freq * self.bonus_priority[guesses] * (p > 0)
        return guesses, cost

    def _answer_chance(self, guesses: np.ndarray, cand: np.ndarray, w: np.ndarray) -> np.ndarray:
        """The weight of each guess as a candidate (0 for words already ruled out)."""
        pos = np.searchsorted(cand, guesses)
        pos = np.minimum(pos, len(cand) - 1)
        return np.where(cand[pos] == guesses, w[pos], 0.0)


class _StrategyAction(argparse.Action):
    """``--strategy FILE`` also switches ``--solver`` (still at its default) to ``strategy``."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, values)
        if hasattr(namespace, "solver") and namespace.solver in (None, parser.get_default("solver")):
            namespace.solver = "strategy"


@register("strategy")
class StrategySolver(Solver):
    """Play a strategy genome (``--strategy FILE``; default genome if none is given).

    A file's stored prior replaces the genome's prior genes, and its tree (made under that prior)
    is played with it.  ``prior`` (Python API: one weight > 0 per allowed word) replaces the
    genome's or the file's prior, e.g. to ask how the same search fares with a better prior; a
    file's stored tree is then not played, since it was made under another prior.

    A file made for other word lists than ``ctx``'s is refused unless ``other_lists=True`` asks to
    play its genome on them (``--other-lists``); its stored tree or prior is refused even so."""

    def __init__(self, ctx: Context, settings, opener: str | None = None,
                 strategy: str | Path | Strategy | None = None, tree: dict[str, str] | None = None,
                 pool: int = DEFAULT_POOL, prior: np.ndarray | None = None, other_lists: bool = False) -> None:
        super().__init__(ctx, settings, None)
        as_word("opener", opener, ctx.words)  # 5 or b'x' refused in one line, "" is none
        self.source = None
        self.lists_note: dict = {}  # set when a file plays on other lists than its own (describe records it)
        given = prior is not None
        self.prior_about = "given (replaces the genome's prior, its multipliers and mix)" if given else None
        where = "the tree"
        if isinstance(strategy, Strategy):
            genome = strategy
        elif strategy is not None:
            f = read_strategy_file(strategy)
            genome, where, self.source = f.strategy, f"strategy file {f.path}", str(strategy)
            why = lists_why(f, ctx.words)  # compared once: the checks and the note share it
            stored = check_replay(f, ctx.words, why=why, opener=opener, prior_given=given, tree_given=bool(tree),
                                  other_lists=other_lists)
            if stored is not None:
                prior, self.prior_about = stored, f"stored in the file: {f.prior.about}"
            if not given:  # a given prior does not play the file's tree (made under another prior)
                tree = tree or _tree_for(settings, f)  # check_replay refused it off its lists
            self.lists_note = lists_note(why)
        else:
            genome = Strategy()
        if opener:
            genome = Strategy.from_dict({**genome.as_dict(), "opener": opener})
            if tree and tree.get("") != opener:
                tree = None  # a stored tree only holds after its own opener
        if tree:
            tree = check_tree(ctx, settings, tree, where)
        self.genome = genome
        self.policy = StrategyPolicy(ctx, genome, None if given else tree, pool, prior)
        self.opener = None  # the policy plays the opener (tree or genome)

    def choose(self, state: GameState) -> int:
        """The policy's guess for ``state``."""
        return self.policy.decide(state, self.settings.guess_from)

    def pick(self, state: GameState) -> int:
        """The policy's guess for ``state`` (after the opener)."""
        return self.policy.decide(state, self.settings.guess_from)

    @classmethod
    def add_options(cls, parser) -> None:
        group = parser.add_argument_group("strategy solver")
        group.add_argument("--strategy", metavar="FILE", action=_StrategyAction, type=arg_type(as_file_name),
                           help="strategy file (JSON) to play, a path or a shipped name (answers-known-salet; "
                           "dordle-, quordle- and octordle-evolved are multi-board policies, played in their own "
                           "game); selects the strategy solver unless another --solver is given after it")

    @classmethod
    def options_from_args(cls, args) -> dict:
        path = getattr(args, "strategy", None)
        # --other-lists reaches a strategy file a --params file names too (the command line has
        # refused or warned already about the file it was given: settings_args.run_context)
        asked = {"other_lists": True} if getattr(args, "other_lists", False) else {}
        return {"strategy": path, **asked} if path else asked

    @classmethod
    def check_word_lists(cls, params: dict, words: WordSet) -> dict[str, str]:
        """A strategy file the constructor would refuse on ``words`` is refused now, with its
        message (both ask :func:`check_replay`): its opener not a word there, or, made for other
        lists, its stored tree or prior (even with ``other_lists``) or, without ``other_lists``,
        the file itself.  ``{"strategy": why}`` when the file will play on other lists (what
        :meth:`describe` records as ``lists_differ``), else {}."""
        path = params.get("strategy")
        if path is None or isinstance(path, Strategy):
            return {}
        f = read_strategy_file(path)
        why = lists_why(f, words)
        check_replay(f, words, why=why, opener=params.get("opener"),
                     prior_given=params.get("prior") is not None, tree_given=bool(params.get("tree")),
                     other_lists=params.get("other_lists", False))
        return {"strategy": why} if why else {}

    def describe(self) -> dict:
        first = self.policy.tree.get("")  # a stored tree may open with another word (plan-tree --openers)
        opener = self.genome.opener if first is None else self.ctx.words.allowed[first]
        out = {"solver": self.name, "opener": opener, "strategy": self.source,
               "genome": self.genome.as_dict()}
        if self.prior_about:  # the genome's prior genes were not played
            out["prior"] = self.prior_about
        return {**out, **self.lists_note}
