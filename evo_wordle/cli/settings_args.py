"""Problem-setting flags shared by every command that plays games (bench, compare, solve, assist, …).

``--problem P0..P3`` sets the thesis's three axes (candidates, guess source, daily).  The guess
source may be given on top (``--problem P1 --guess-from allowed`` works); a ``--candidates`` or
``--daily`` that contradicts the preset is refused (:func:`check_preset_flags`), as ``sweep``
refuses a flag its grid's problem would replace.
"""

from __future__ import annotations

import argparse
from functools import lru_cache
from typing import NamedTuple

from ..console import warn  # re-exported for the command modules
from ..context import Context
from ..errors import EvoWordleError
from ..game import PROBLEMS, Settings
from .common import positive_int, with_opener


def add_settings_args(parser: argparse.ArgumentParser, daily: bool = True, boards: bool = True) -> None:
    """Add --candidates, --guess-from, --hard, --daily, --problem, --max-guesses and --boards.

    ``daily=False`` / ``boards=False`` leave those flags out for commands that play one game.
    """
    group = parser.add_argument_group("problem setting")
    group.add_argument(
        "--problem",
        type=str.upper,
        choices=sorted(PROBLEMS),
        help="the thesis's presets: P0 any allowed word may be the answer, P1 the answer list is "
        "known, P2/P3 the same plus daily play (past answers excluded)",
    )
    group.add_argument(
        "--candidates",
        choices=["allowed", "answers"],
        default=None,
        help="who may be the answer as far as the solver knows (default: allowed, or the preset's)",
    )
    group.add_argument(
        "--guess-from",
        dest="guess_from",
        choices=["candidates", "allowed"],
        default=None,
        help="guess only words consistent with the feedback (default) or any allowed word",
    )
    group.add_argument("--hard", action="store_true", help="Wordle hard mode: revealed hints must be reused")
    if daily:
        group.add_argument(
            "--daily",
            action="store_true",
            default=None,
            help="play answers in a seeded random order, past answers leaving later games (P2/P3)",
        )
    group.add_argument(
        "--max-guesses",
        dest="max_guesses",
        type=positive_int,
        default=None,
        metavar="N",
        help="guess cap; a game unsolved by then is a failure (default: 9, or boards + 5 … see --boards)",
    )
    if boards:
        group.add_argument(
            "--boards",
            type=positive_int,
            default=None,  # None, not 1: a file made for several boards tells "--boards 1" from no flag
            metavar="N",
            help="play N boards at once (2 Dordle, 4 Quordle, 8 Octordle; default 1)",
        )


#: The axes the presets P0-P3 differ in: a flag that contradicts its preset on one asks for another problem.
PRESET_AXES = ("candidates", "daily")


def check_preset_flags(args: argparse.Namespace) -> None:
    """Refuse ``--candidates`` or ``--daily`` contradicting ``--problem``: ``--problem P1
    --candidates allowed`` played P0 while the user and the output said P1.  The one check of
    every command with presets (through :func:`settings_from_args`)."""
    problem = getattr(args, "problem", None)
    if not problem:
        return
    preset = PROBLEMS[problem]
    for axis in PRESET_AXES:
        value = getattr(args, axis, None)
        if value is None or value is False or value == preset[axis]:
            continue
        flag = "--" + axis.replace("_", "-")
        shown = flag if value is True else f"{flag} {value}"
        asked = {**preset, axis: value}
        other = next(name for name, p in PROBLEMS.items() if all(p[k] == asked[k] for k in PRESET_AXES))
        setting = str(preset[axis]).lower()
        raise EvoWordleError(f"--problem {problem} sets {axis}={setting}, which {shown} contradicts (that game is "
                             f"{other}): give --problem {other}, or drop {shown}")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The :class:`Settings` the flags describe (preset first, explicit flags on top).

    The guess cap defaults to 9 for one board and N + 5 for N boards.
    """
    check_preset_flags(args)
    base: dict = dict(PROBLEMS[args.problem]) if getattr(args, "problem", None) else {}
    for name in ("candidates", "guess_from"):
        value = getattr(args, name, None)
        if value is not None:
            base[name] = value
    if getattr(args, "daily", None):
        base["daily"] = True
    # no --max-guesses: Settings plays to the board count's default cap (game.default_cap)
    return Settings(hard=bool(getattr(args, "hard", False)), max_guesses=getattr(args, "max_guesses", None),
                    boards=getattr(args, "boards", 1) or 1, **base)


# -- settings that travel with strategy and tree files ----------------------------------------

#: Setting → the flags that set it explicitly (``--problem`` sets three axes at once).
_GIVEN = {
    "candidates": lambda a: getattr(a, "candidates", None) is not None or bool(getattr(a, "problem", None)),
    "guess_from": lambda a: getattr(a, "guess_from", None) is not None or bool(getattr(a, "problem", None)),
    "daily": lambda a: bool(getattr(a, "daily", None)) or bool(getattr(a, "problem", None)),
    "hard": lambda a: bool(getattr(a, "hard", False)),
    "max_guesses": lambda a: getattr(a, "max_guesses", None) is not None,
    "boards": lambda a: getattr(a, "boards", None) is not None,
}


def board_policy_file(args: argparse.Namespace) -> str | None:
    """The file ``--strategy`` names if it is a parameter file (a multi-board policy, replayed by
    the summed-entropy solver), else None (a strategy file, or no --strategy).  What a file is
    is decided by :func:`evo_wordle.artefacts.replay_kind`."""
    name = getattr(args, "strategy", None)
    if not name:
        return None
    from ..evolve.strategy import resolve_strategy_path

    path = resolve_strategy_path(name)
    if not path.is_file():
        return None  # read_strategy_file names the shipped files in its error
    st = path.stat()
    return _params_file(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _params_file(path: str, mtime_ns: int, size: int) -> str | None:
    """``path`` if it is a parameter file: read once per run, not at every question a command asks
    (the file's stat is in the key, so an edited file is read again)."""
    from ..artefacts import replay_kind

    return path if replay_kind(path) == "params" else None


def board_policy_params(args: argparse.Namespace) -> dict | None:
    """The summed-entropy parameters of the multi-board policy ``--strategy`` names (None if it
    names none), ``--opener`` on top; a parameter file for another solver is refused.  They are
    read as ``--params FILE`` reads the same file (:func:`~evo_wordle.tune.file_params`): its
    ``solver_params`` too, which were ignored here without a word."""
    board = board_policy_file(args)
    if not board:
        return None
    from ..boards import POLICY_NAME
    from ..tune import file_params, load_params

    given = getattr(args, "params", None)
    if given and not getattr(args, "solvers", None):  # (in compare --params may serve another row)
        raise EvoWordleError(f"--strategy {args.strategy} and --params {given} both give the multi-board policy's "
                             "parameters (--params was ignored): give one of them")
    data = load_params(board)
    if data["solver"] != POLICY_NAME:
        raise EvoWordleError(f"{board} holds parameters for solver {data['solver']!r}: give it as --params "
                             f"with --solver {data['solver']} (--strategy replays strategies and {POLICY_NAME} "
                             "policies)")
    params = file_params(data)
    policy_genes(params, board)
    return with_opener(params, args)


def policy_genes(params: dict, path: str) -> None:
    """Refuse a multi-board policy file that lacks one of the policy's genes (its opener and
    ``boards.GENES``): the missing gene would silently play its default, the plain policy's."""
    from ..boards import GENES

    missing = [name for name in ("opener", *GENES) if name not in params]
    if missing:
        raise EvoWordleError(f"{path} lacks the multi-board policy gene(s) {', '.join(missing)}")


class Artefact(NamedTuple):
    """The strategy, tree or parameter file a run replays: a label for messages, the game it
    was made for (None in old files), whether it holds a decision tree, its provenance,
    whether it stores a prior (tied to its allowed list), and the opener it plays (if any)."""

    label: str
    made_for: dict | None
    has_tree: bool
    provenance: dict
    has_prior: bool = False
    opener: str | None = None


def artefact_of(args: argparse.Namespace, solvers: list[str]) -> Artefact | None:
    """The strategy, tree or parameter file the run replays (None if it replays none)."""
    strategy, tree = getattr(args, "strategy", None), getattr(args, "tree", None)
    board = board_policy_file(args)
    if strategy and ("strategy" in solvers or ("ga-search" in solvers and board)):  # ga-search builds on a board file
        from ..evolve.strategy import read_strategy_file

        if board:
            from ..tune import load_params

            return _params_artefact(f"strategy file {board}", load_params(board))
        f = read_strategy_file(strategy)
        return Artefact(f"strategy file {f.path}", f.made_for, bool(f.tree), f.provenance, f.prior is not None,
                        f.strategy.opener)
    if tree and "ga-search" in solvers:
        from ..evolve.search import tree_made_for

        return Artefact(f"tree file {tree}", tree_made_for(tree), True, {})
    params = getattr(args, "params", None)
    if params:
        from ..tune import load_params

        data = load_params(params)
        if data["solver"] in solvers and "made_for" in data:  # files from before made_for keep the flags' game
            return _params_artefact(f"parameter file {params}", data)
    return None


def _params_artefact(label: str, data: dict) -> Artefact:
    """The artefact of a loaded parameter file (read once by the caller)."""
    from ..tune import file_params

    opener = file_params(data).get("opener")
    return Artefact(label, data.get("made_for"), False, data.get("provenance", {}),  # load_params checked it
                    opener=opener if isinstance(opener, str) and opener else None)


def game_label(settings: Settings) -> str:
    """The game a row plays, in a few words (rows of one ``compare`` must share it)."""
    parts = [f"candidates={settings.candidates}", f"guess_from={settings.guess_from}"]
    parts += ["hard"] if settings.hard else []
    parts += ["daily"] if settings.daily else []
    parts += [f"max_guesses={settings.max_guesses}"] + ([f"boards={settings.boards}"] if settings.boards > 1 else [])
    return " ".join(parts)


def record_context(args: argparse.Namespace, record: dict) -> tuple[Context, str | None]:
    """(the word lists to play, why they differ from those ``record`` (a ``made_for`` block) was
    made for, or None): the lists the flags give, else the bundled answer list the record names."""
    from ..artefacts import BUNDLED, list_mismatch
    from .common import context_from_args

    if args.answers is None and args.allowed is None and record.get("answers") in BUNDLED:
        args.answers = record["answers"]
    ctx = context_from_args(args)
    return ctx, list_mismatch(record, ctx.words)


def refuse_idle_other_lists(args: argparse.Namespace) -> None:
    """``--other-lists`` with no file to replay would change nothing: refused rather than
    ignored, as ``sweep`` does (bench, solve, compare, assist and plot took it silently)."""
    if getattr(args, "other_lists", False) and not any(
            getattr(args, name, None) for name in ("strategy", "params", "tree")):
        raise EvoWordleError("--other-lists replays a --strategy, --params or --tree file on other word lists; "
                             "this run names none")


def run_context(args: argparse.Namespace, solvers: list[str]) -> tuple[Context, Settings]:
    """The word lists and settings a run plays: the flags, with every setting the user did not
    give taken from the strategy/tree file being replayed (and its answer list, if bundled).

    Overriding a file's setting prints a one-line warning; so does replaying an old file that
    records no settings.  Other word lists than the file's are refused in one line (its figures
    would be of a policy off the game it was made for, one board or several alike) unless
    ``--other-lists`` asks for them, which then warns; a stored tree or prior is refused on other
    lists even so (its moves or weights may not exist here)."""
    from ..artefacts import allowed_differs, overrides, settings_of
    from .common import context_from_args

    found = artefact_of(args, solvers)
    given = settings_from_args(args)
    if found is None:
        refuse_idle_other_lists(args)
        return context_from_args(args), given
    label, record, has_tree, _, has_prior, opener = found
    if record is None:
        warn(f"{label} records no settings (an old file): playing the settings given on the command line")
        return context_from_args(args), given
    stored = settings_of(record, label)
    if _GIVEN["boards"](args) and given.boards != stored.boards:  # its genes were evolved for that game
        raise EvoWordleError(f"{label} was made for {stored.boards} board{'s' if stored.boards > 1 else ''}, "
                             f"not {given.boards}: it replays only in its own game")
    settings = stored.with_(**{k: getattr(given, k) for k, test in _GIVEN.items() if test(args)})
    ctx, why = record_context(args, record)
    if why and has_tree:
        raise EvoWordleError(f"{label} cannot be replayed: {why}")
    if has_prior and allowed_differs(record, ctx.words):  # one line, no warning before it
        from ..evolve.strategy import PRIOR_ELSEWHERE

        raise EvoWordleError(f"{label}: {PRIOR_ELSEWHERE}")
    if why and opener and getattr(args, "opener", None) is None and not ctx.words.contains(opener):
        # one line naming the file, before the warning (a 6-letter file on 5-letter lists said
        # only "'senior' is not a 5-letter word", a word the user never typed)
        if len(opener) != ctx.words.length:
            why = f"it was made for {len(opener)}-letter words, these lists have {ctx.words.length}"
        raise EvoWordleError(f"{label}: its opener {opener!r} is not an allowed word of this list ({why})")
    if why and not getattr(args, "other_lists", False):  # a figure off the file's own game is asked for, not given
        raise EvoWordleError(f"{label} was made for other word lists ({why}): play it on its own lists (drop "
                             "--allowed/--answers), or give --other-lists to play it on these")
    if why:
        warn(f"{label}: {why}")
    changed = overrides(stored, settings)
    if changed:
        warn(f"{label} was made for other settings; overriding {', '.join(changed)}")
    return ctx, settings
