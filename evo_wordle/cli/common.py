"""Options and helpers shared by every sub-command."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from pathlib import Path

from ..context import Context
from ..errors import EvoWordleError
from ..outputs import check_file
from ..params import arg_type, as_file_name, as_float, as_int, as_seed


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


#: argparse ``type=`` converters: every typed flag goes through :mod:`evo_wordle.params`.
probability = arg_type(as_float, 0.0, 1.0)
positive_int = arg_type(as_int, 1, None)
nonnegative_int = arg_type(as_int, 0, None)
finite_float = arg_type(as_float, None, None)
nonnegative_float = arg_type(as_float, 0.0, None)
seed_int = arg_type(as_seed)
#: A file to read (``--params ""`` was taken as no flag at all).
file_name = arg_type(as_file_name)


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


def check_distinct_outputs(args: argparse.Namespace) -> None:
    """Refuse two output flags naming one file (``--csv x --plot x``, ``--out s.json --log
    s.json``): the last write would silently replace the other's result.  Output flags are the
    arguments :func:`output_file` parsed, the only ones holding a :class:`~pathlib.Path`."""
    seen: dict[str, str] = {}
    for dest, value in vars(args).items():
        if not isinstance(value, Path):
            continue
        key = os.path.join(os.path.realpath(value.parent), value.name)
        flag = "--" + dest.replace("_", "-")
        if key in seen:
            raise EvoWordleError(f"{seen[key]} and {flag} both name {value}; give each output its own file")
        seen[key] = flag
        for name in INPUT_FILE_FLAGS:
            source = vars(args).get(name)
            if isinstance(source, str) and os.path.isfile(source) and os.path.exists(value) \
                    and os.path.samefile(source, value):
                raise EvoWordleError(f"{flag} {value} is the --{name.replace('_', '-')} file this command reads: "
                                     "writing it would destroy that input; give the output another name")


#: Flags naming a file a command reads (when a string: ga-tree's --tree is an output, a Path).
#: ``cheatsheet --tree t.txt --export t.txt`` replaced the tree by its JSON export, which no
#: command reads back as a tree; ``bench --tree t.txt --csv t.txt`` by the games' CSV.
INPUT_FILE_FLAGS = ("tree", "strategy", "params", "init", "allowed", "answers", "space")


def color_enabled() -> bool:
    return sys.stdout.isatty()


def add_other_lists_arg(parser: argparse.ArgumentParser) -> None:
    """``--other-lists``: the explicit choice to replay a file off the word lists it was made for."""
    parser.add_argument("--other-lists", action="store_true",
                        help="replay a --strategy/--params file on word lists other than those it was made for "
                        "(with a warning; without this flag that is refused, since the figures would be of a policy "
                        "off its own game; a stored tree or prior is refused on other lists even so)")


def add_solver_options(parser: argparse.ArgumentParser) -> None:
    """``--opener`` plus every registered solver family's own flags (GA, strategy, …).

    Which family added which flag is remembered, so a flag given to a solver that has no use
    for it (``--population`` with greedy) is refused instead of ignored.
    """
    from ..solvers import SOLVERS, load_all

    load_all()
    parser.add_argument("--opener", metavar="WORD", help="first guess (default: the solver's own best)")
    parser.add_argument("--params", type=file_name, metavar="FILE",
                        help="solver parameters from a file written by `evo-wordle tune` (best-params.json); "
                        "flags given on the command line override them")
    add_other_lists_arg(parser)
    owners: dict[str, tuple] = {}
    seen = set()
    for cls in SOLVERS.values():
        fn = cls.add_options.__func__
        if fn not in seen:
            seen.add(fn)
            before = len(parser._actions)
            cls.add_options(parser)
            for action in parser._actions[before:]:
                owners[action.dest] = (fn, action.option_strings[0], action.default)
    parser.set_defaults(_solver_flags=owners)


def check_solver_flags(names: list[str], args: argparse.Namespace) -> None:
    """Refuse a solver flag that none of the solvers ``names`` takes, naming the flags they do take
    (the multi-board policy, not a registered solver, takes only ``--opener`` and ``--params``)."""
    from ..boards import POLICY_NAME
    from ..solvers import SOLVERS, load_all

    load_all()
    owners = getattr(args, "_solver_flags", None) or {}
    unknown = [n for n in names if n not in SOLVERS and n != POLICY_NAME]
    if unknown:
        raise EvoWordleError(f"unknown solver {unknown[0]!r} (choose from {', '.join(sorted(SOLVERS))})")
    families = {SOLVERS[n].add_options.__func__ for n in names if n in SOLVERS}
    for dest, (fn, flag, default) in owners.items():
        if fn not in families and getattr(args, dest, default) not in (default, None):
            own = sorted(f for f, *_ in (v[1:] for v in owners.values() if v[0] in families))
            takes = ", ".join(["--opener", "--params", *own])
            if len(names) == 1:
                raise EvoWordleError(f"solver {names[0]} has no {flag} (its flags: {takes})")
            raise EvoWordleError(f"none of the solvers {', '.join(names)} takes {flag} (their flags: {takes})")


def solver_params(name: str, args: argparse.Namespace, check: bool = True) -> dict:
    """Keyword arguments for ``make_solver(name, …)`` from parsed flags and ``--params FILE``
    (with ``check``, flags that ``name`` does not take are refused first).  A value the file
    gives that the solver never reads is one warning (:func:`_warn_unread_file_values`): each
    command builds its parameters once per solver, so it is said once."""
    from ..solvers import SOLVERS
    from ..tune import file_params

    if check:
        check_solver_flags([name], args)
    flags = SOLVERS[name].options_from_args(args)
    data = _params_file_data(name, args)
    params = with_opener({**(file_params(data) if data else {}), **flags}, args)
    SOLVERS[name].check_flags_used(flags, params)
    if data:
        _warn_unread_file_values(name, args.params, data, set(flags), params)
    return params


def _warn_unread_file_values(name: str, path: str, data: dict, flags: set[str], params: dict) -> None:
    """One warning per value the parameter file ``path`` (loaded: ``data``) gives that the solver
    built with ``params`` never reads: a tuned roulette winner's sampled ``tournament_size`` was
    played without it and without a word.  Its tuned values (``params``) are named, and those of
    ``solver_params`` that differ from the solver's defaults (tune writes every value, an unread
    one at its default: only a hand-edited one was asked for).  Not refused as such a flag is:
    the file, not the command line, gave it (``sweep --params`` leaves it out of the grid the
    same way)."""
    from ..console import warn
    from ..solvers import SOLVERS
    from ..tune import file_params

    family = SOLVERS[name]
    unread = family.unread_params(params)
    defaults = family.param_defaults() if unread else {}
    for key, value in file_params(data).items():
        edited = key in data["params"] or key not in defaults or defaults[key] != value
        if key in unread and key not in flags and edited:
            warn(f"parameter file {path} sets {key}={value}, which {name} never reads here "
                 f"({key} {unread[key].why}): played without it")


def with_opener(params: dict, args: argparse.Namespace) -> dict:
    """``params`` with ``--opener`` on top when it was given (``""`` too: the solver's own best word)."""
    opener = getattr(args, "opener", None)
    return params if opener is None else {**params, "opener": opener}


def params_file_for(name: str, args: argparse.Namespace) -> dict:
    """The parameters ``--params FILE`` holds for solver ``name`` ({} without the flag)."""
    from ..tune import file_params

    data = _params_file_data(name, args)
    return file_params(data) if data else {}


def _params_file_data(name: str, args: argparse.Namespace) -> dict | None:
    """``--params FILE`` loaded, if it holds parameters for solver ``name`` (None without the flag).

    A file made for another solver is refused for a bench of that one solver; in ``compare``
    it applies to its own solver's row only (None for the others).
    """
    path = getattr(args, "params", None)
    if not path:
        return None
    from ..tune import load_params

    data = load_params(path)
    if data["solver"] != name:
        if getattr(args, "solvers", None):
            return None
        raise EvoWordleError(f"{path} holds parameters for solver {data['solver']!r}, not {name!r}")
    return data
