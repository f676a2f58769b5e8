"""Options and helpers shared by every sub-command."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from ..context import Context
from ..errors import EvoWordleError


def add_command(
    sub: argparse._SubParsersAction,
    name: str,
    help: str,
    description: str,
    examples: list[tuple[str, str]],
    extra: str = "",
) -> argparse.ArgumentParser:
    """A sub-command parser with a wrapped description and an ``examples:`` epilog.

    ``examples`` are (command line, what it does) pairs; ``extra`` is more epilog text
    (e.g. the solver list).  tests/test_cli_help.py parses every example with the real parser.
    """
    lines = ["examples:"]
    for command, what in examples:
        lines.append(f"  {command}")
        lines.append(textwrap.fill(what, 88, initial_indent=" " * 6, subsequent_indent=" " * 6))
    epilog = "\n".join(lines) + ("\n\n" + extra if extra else "")
    return sub.add_parser(
        name,
        help=help,
        description="\n\n".join(textwrap.fill(par, 88) for par in description.split("\n\n")),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def solver_list() -> str:
    """Every registered solver with its one-line summary (for ``--help``)."""
    from ..solvers import SOLVERS, load_all

    load_all()
    width = max(len(name) for name in SOLVERS)
    rows = [f"  {name:<{width}}  {SOLVERS[name].summary()}" for name in sorted(SOLVERS)]
    return "solvers (--solver NAME):\n" + "\n".join(rows)


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


def wrote(path, json_on_stdout: bool = False) -> None:
    """Tell the user a file was written: ``wrote FILE`` on stdout, or on stderr when stdout
    carries JSON (so ``--json`` output stays parseable)."""
    print(f"wrote {path}", file=sys.stderr if json_on_stdout else sys.stdout)


def probability(text: str) -> float:
    """argparse type: a float in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is outside [0, 1]")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} must be 0 or more")
    return value


class _PathError(EvoWordleError, argparse.ArgumentTypeError):
    """Both kinds: argparse turns it into a one-line usage error when output_path is a ``type=``."""


def output_path(text: str) -> Path:
    path = Path(text)
    if path.parent and not path.parent.exists():
        raise _PathError(f"folder {path.parent} does not exist")
    return path


def color_enabled() -> bool:
    return sys.stdout.isatty()


def add_solver_options(parser: argparse.ArgumentParser) -> None:
    """``--opener`` plus every registered solver family's own flags (GA, strategy, …)."""
    from ..solvers import SOLVERS, load_all

    load_all()
    parser.add_argument("--opener", metavar="WORD", help="first guess (default: the solver's own best)")
    parser.add_argument("--params", metavar="FILE",
                        help="solver parameters from a file written by `evo-wordle tune` (best-params.json); "
                        "flags given on the command line override them")
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
    params = {**params_file_for(name, args), **SOLVERS[name].options_from_args(args)}
    if getattr(args, "opener", None):
        params["opener"] = args.opener
    return params


def params_file_for(name: str, args: argparse.Namespace) -> dict:
    """The parameters ``--params FILE`` holds for solver ``name`` ({} without the flag).

    A file made for another solver is refused for a bench of that one solver; in ``compare``
    it applies to its own solver's row only.
    """
    path = getattr(args, "params", None)
    if not path:
        return {}
    from ..tune import load_params

    data = load_params(path)
    if data["solver"] != name:
        if getattr(args, "solvers", None):
            return {}
        raise EvoWordleError(f"{path} holds parameters for solver {data['solver']!r}, not {name!r}")
    return dict(data["params"])
