"""Options and helpers shared by every sub-command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..context import Context
from ..errors import EvoWordleError
from ..outputs import check_file
from ..params import arg_type, as_float, as_int, as_seed


def add_word_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("word lists")
    group.add_argument("--allowed", metavar="FILE", help="allowed-guess list (default: bundled 12,972)")
    group.add_argument(
        "--answers",
        metavar="LIST",
        default=None,
        help="answer list: nyt (2,309, the default), original (2,315) or a FILE "
        "(with a custom --allowed list the default is that list itself)",
    )


def context_from_args(args: argparse.Namespace) -> Context:
    return Context(allowed=args.allowed, answers=args.answers)


def add_candidates_arg(parser: argparse.ArgumentParser, default: str = "allowed") -> None:
    parser.add_argument(
        "--candidates",
        choices=["allowed", "answers"],
        default=default,
        help="who may be the answer as far as the solver knows (default: %(default)s)",
    )


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


#: argparse ``type=`` converters: every typed flag goes through :mod:`evo_wordle.params`.
probability = arg_type(as_float, 0.0, 1.0)
positive_int = arg_type(as_int, 1, None)
nonnegative_int = arg_type(as_int, 0, None)
finite_float = arg_type(as_float, None, None)
nonnegative_float = arg_type(as_float, 0.0, None)
seed_int = arg_type(as_seed)


def output_file(*suffixes: str, flag: str = "--out"):
    """argparse ``type=`` for a file to write, checked up front (see :mod:`evo_wordle.outputs`)."""

    def parse(text: str) -> Path:
        try:
            return check_file(text, flag, suffixes or None)
        except EvoWordleError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{flag} ")) from None

    parse.__name__ = "file"
    return parse


#: Any file to write (``--log``, ``--csv``, …).
output_path = output_file()


def color_enabled() -> bool:
    return sys.stdout.isatty()


def add_solver_options(parser: argparse.ArgumentParser) -> None:
    """``--opener`` plus every registered solver family's own flags (GA, strategy, …)."""
    from ..solvers import SOLVERS, load_all

    load_all()
    parser.add_argument("--opener", metavar="WORD", help="first guess (default: the solver's own best)")
    seen = set()
    for cls in SOLVERS.values():
        fn = cls.add_options.__func__
        if fn not in seen:
            seen.add(fn)
            cls.add_options(parser)


def solver_params(name: str, args: argparse.Namespace) -> dict:
    """Keyword arguments for ``make_solver(name, …)`` from parsed flags."""
    from ..solvers import SOLVERS, load_all

    load_all()
    if name not in SOLVERS:
        raise EvoWordleError(f"unknown solver {name!r} (choose from {', '.join(sorted(SOLVERS))})")
    params = SOLVERS[name].options_from_args(args)
    if getattr(args, "opener", None):
        params["opener"] = args.opener
    return params
