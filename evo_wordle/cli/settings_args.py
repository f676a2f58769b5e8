"""Problem-setting flags shared by every command that plays games (bench, compare, solve, assist, …).

``--problem P0..P3`` sets the thesis's three axes (candidates, guess source, daily); any axis
given explicitly overrides the preset, so ``--problem P1 --guess-from allowed`` works.
"""

from __future__ import annotations

import argparse

from ..game import PROBLEMS, Settings
from .common import positive_int


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
            default=1,
            metavar="N",
            help="play N boards at once (2 Dordle, 4 Quordle, 8 Octordle; default 1)",
        )


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The :class:`Settings` the flags describe (preset first, explicit flags on top).

    The guess cap defaults to 9 for one board and N + 5 for N boards.
    """
    base: dict = dict(PROBLEMS[args.problem]) if getattr(args, "problem", None) else {}
    for name in ("candidates", "guess_from"):
        value = getattr(args, name, None)
        if value is not None:
            base[name] = value
    if getattr(args, "daily", None):
        base["daily"] = True
    boards = getattr(args, "boards", 1) or 1
    cap = getattr(args, "max_guesses", None)
    if cap is None:
        cap = 9 if boards == 1 else boards + 5
    return Settings(hard=bool(getattr(args, "hard", False)), max_guesses=cap, boards=boards, **base)
