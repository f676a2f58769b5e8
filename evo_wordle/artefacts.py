"""The game an artefact (strategy file, decision tree) was made for, and checks against a run.

A stored strategy or tree is only meaningful under the problem settings and word lists it was
built with, so files record them (``made_for``) and every replay compares them with the game
about to be played: a setting the user changes is an override (a warning), a different word
list under a stored tree is an error (the tree's moves may not even exist).

What a file *is* is decided here too (:func:`replay_kind`), once for every command: a strategy
file holds a one-board ``Strategy`` genome (and maybe a tree) for the ``strategy`` solver; a
parameter file holds keyword parameters of one registered solver (``tune``'s winners, and the
multi-board policies ``evolve-strategy --boards N`` writes, solver ``summed-entropy``).
``--strategy NAME`` finds either kind among the shipped files.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .errors import EvoWordleError, OtherListsRefused
from .files import read_json
from .game import Settings
from .words import BUNDLED_ANSWERS, WordSet, load_words

#: The ``format`` of a strategy file (a one-board genome, maybe a tree) and of a parameter file.
STRATEGY_FORMAT = "evo-wordle-strategy"
PARAMS_FORMAT = "evo-wordle-params"
#: Largest replayable file read (bytes); a strategy with a tree for every NYT answer is ≈ 0.5 MB.
MAX_FILE_BYTES = 16 * 2**20

#: Answer-list names the package ships (a file made for one of them selects it by default).
BUNDLED = tuple(BUNDLED_ANSWERS)
#: Problem settings a file records (``Settings`` fields), plus the answer list's name.
SETTING_KEYS = ("candidates", "guess_from", "hard", "daily", "max_guesses", "boards")


def answers_digest(words: WordSet) -> str:
    """sha256 of the (sorted) answer list, as ``WordSet.digest`` is of the allowed list."""
    return hashlib.sha256(("\n".join(words.answers) + "\n").encode()).hexdigest()


def list_digests(words: WordSet) -> dict:
    """The sha256 of both lists, as files, checkpoints, sweeps and studies record them."""
    return {"allowed_sha256": words.digest, "answers_sha256": answers_digest(words)}


def list_file_digests(allowed: str | None, answers: str | None) -> dict | None:
    """:func:`list_digests` of the lists a run names, when one is a file (named by its path,
    its content may change between a run and its resume); None for the bundled lists."""
    if allowed is None and (answers is None or answers in BUNDLED_ANSWERS):
        return None
    return list_digests(load_words(allowed, answers))


def word_lists(words: WordSet, allowed=None, answers=None) -> dict:
    """What a result records of its word lists, for a caption drawn later from it alone: the
    lists as the run named them (a file's name, a bundled list's name; None: the default),
    the answer list's label, and both sha256 (:func:`list_digests`).

    A list named by an empty path (``""``, or ``Path("")``, which is ``Path(".")``) is refused
    as :func:`~evo_wordle.words.load_words` refuses it: no run reads a list from it, so
    recording it as the default (or as ``""``) would caption lists the run never had."""
    def name(source, what: str | None = None) -> str | None:
        if not isinstance(source, str | Path):
            return None
        base = Path(source).name
        if not base and what is not None:
            raise EvoWordleError(f"{what} list needs a file name, not an empty string"
                                 if str(source) in ("", ".") else f"{what} list needs a file name, not {source}")
        return base or None

    return {"allowed": name(allowed, "allowed"), "answers": name(answers, "answers"), "label": name(words.label),
            **list_digests(words)}


def made_for(settings: Settings, words: WordSet) -> dict:
    """The JSON block a strategy or tree file stores: settings, answer list name, list hashes."""
    return {**{k: getattr(settings, k) for k in SETTING_KEYS}, "answers": words.label, **list_digests(words)}


def settings_of(record: dict, where: str) -> Settings:
    """The :class:`Settings` stored in a ``made_for`` block (one-line error if malformed)."""
    if not isinstance(record, dict):
        raise EvoWordleError(f"{where}: \"made_for\" must be a JSON object")
    missing = [k for k in SETTING_KEYS if k not in record]
    if missing:
        raise EvoWordleError(f"{where}: \"made_for\" lacks {', '.join(missing)}")
    try:
        return Settings(**{k: record[k] for k in SETTING_KEYS})
    except (TypeError, EvoWordleError) as exc:
        raise EvoWordleError(f"{where}: bad \"made_for\" settings ({exc})") from None


def allowed_differs(record: dict, words: WordSet) -> bool:
    """Whether ``words``' allowed list is not the one a ``made_for`` block names (a stored prior,
    one weight per allowed word, holds only on its own list)."""
    return record.get("allowed_sha256") != words.digest


#: Provenance records that describe how a file's stored tree was made (``lookahead-tree``,
#: ``plan-tree``): a file written without that tree must not carry them.
TREE_RECORDS = ("lookahead", "plan")


def without_tree_records(provenance: dict) -> dict:
    """``provenance`` without :data:`TREE_RECORDS`, for a file that does not keep the source's tree."""
    return {k: v for k, v in provenance.items() if k not in TREE_RECORDS}


def list_mismatch(record: dict, words: WordSet) -> str | None:
    """Why the word lists differ from those the artefact was made for (None when they match)."""
    if allowed_differs(record, words):
        return "the allowed list differs from the one it was made for"
    if record.get("answers_sha256") != answers_digest(words):
        return f"the answer list ({words.label}) differs from the one it was made for ({record.get('answers')})"
    return None


def other_lists_note(record: dict | None, words: WordSet) -> dict:
    """What a result records of a file played on other word lists than its ``made_for`` names
    (``other_lists`` and the reason), so its figures are not taken for the file's own game;
    empty when the lists match or the file records none."""
    return lists_note(list_mismatch(record, words) if isinstance(record, dict) else None)


def lists_note(why: str | None) -> dict:
    """:func:`other_lists_note` once the lists are compared (``why``: :func:`list_mismatch`'s
    answer, None when they match or the file records none)."""
    return {"other_lists": True, "lists_differ": why} if why else {}


def check_lists(record: dict | None, words: WordSet, where: str, other_lists: bool = False) -> None:
    """Refuse, in one line, replaying a file on other word lists than its ``made_for`` names (its
    figures would be of a policy off the game it was made for) unless ``other_lists`` asks for
    them, as ``--other-lists`` does on the command line (the error names whichever the caller
    can give: :class:`~evo_wordle.errors.OtherListsRefused`); a file that records no lists passes."""
    refuse_other_lists(None if record is None else list_mismatch(record, words), where, other_lists)


def refuse_other_lists(why: str | None, where: str, other_lists: bool) -> None:
    """:func:`check_lists` once the lists are compared (``why`` as for :func:`lists_note`), for a
    caller that needs the comparison for more than this check and makes it once."""
    from .params import as_bool

    if not as_bool("other_lists", other_lists) and why:
        raise OtherListsRefused(where, why)


def lists_made_for(record: dict, where: str) -> WordSet:
    """The word lists a ``made_for`` block names, loaded and checked against its sha256, so a
    caption or report can state their sizes from the file alone.  The answer list is the one it
    names (a bundled name, or the file at the recorded path); the allowed list is the bundled one
    (a block does not name another).  One-line error when they cannot be loaded or differ."""
    if not isinstance(record, dict):
        raise EvoWordleError(f"{where}: no \"made_for\" block: the word lists it was made for are unknown")
    label = record.get("answers")
    if not isinstance(label, str) or not label:
        raise EvoWordleError(f"{where}: \"made_for\" does not name its answer list")
    if label == "allowed":  # every allowed word was an answer: the allowed list names both
        words = load_words("allowed")
    elif label in BUNDLED or Path(label).is_file():
        words = load_words(answers=label)
    else:
        raise EvoWordleError(f"{where}: made for the answer list {label}, which is not here")
    why = list_mismatch(record, words)
    if why:
        raise EvoWordleError(f"{where}: {why}")
    return words


def overrides(stored: Settings, playing: Settings) -> list[str]:
    """``name: stored -> playing`` for each setting the run changes."""
    return [f"{k} {getattr(stored, k)} -> {getattr(playing, k)}" for k in SETTING_KEYS
            if getattr(stored, k) != getattr(playing, k)]


def replay_kind(path: str | Path) -> str:
    """``"strategy"`` or ``"params"``: what the file ``--strategy`` names holds (one-line error if neither).

    A multi-board policy is stored as a parameter file, not a strategy file: what it holds is the
    keyword parameters of a registered solver (``summed-entropy``: opener and genes), exactly
    what ``--params`` carries and ``evolve-strategy --init`` reads, checked by the same loader;
    a strategy file's genome drives the one-board ``strategy`` solver and means nothing on
    several boards.  ``--strategy`` is the by-name door to both kinds of shipped file."""
    doc = read_json(path, MAX_FILE_BYTES, "strategy file")
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt == STRATEGY_FORMAT:
        return "strategy"
    if fmt == PARAMS_FORMAT:
        return "params"
    raise EvoWordleError(f"{path} is not an evo-wordle strategy file (no \"format\": \"{STRATEGY_FORMAT}\")")
