"""``evo-wordle`` command line: one sub-command module per area, errors as one line + exit 2."""

from __future__ import annotations

import argparse
import sys

from ..errors import EvoWordleError
from ..progress import interval as progress_interval
from . import bench_cmds, evolve_cmds, openers_cmds, play_cmds, sweep_cmds, table_cmds, tree_cmds, tune_cmds
from .common import check_distinct_outputs

#: Modules with ``register(subparsers)``; each sub-parser sets ``func(args) -> int``.
COMMAND_MODULES = [table_cmds, sweep_cmds, bench_cmds, play_cmds, evolve_cmds, tree_cmds, openers_cmds, tune_cmds]

EPILOG = """examples:
  evo-wordle table                         build or check the pattern-table cache
  evo-wordle entropy tares black           bits of information per word
  evo-wordle rank --candidates answers     best openers when the answer list is known
  evo-wordle pattern roars euler           coloured feedback and its code
  evo-wordle solve crane --solver greedy   one game as coloured tiles
  evo-wordle solve crane spill --boards 2  a Dordle game (summed-entropy policy)
  evo-wordle assist --candidates answers   help with today's puzzle (stdin)
  evo-wordle bench --solver greedy --opener tales      the baseline over all 2,309 answers
  evo-wordle bench --solver naive --problem P1 --opener slate --json --plot hist.png
  evo-wordle compare --solvers random,position-rank,two-preset,greedy   ranked table
  evo-wordle sweep --solver ga-thesis --population 10,100 --mutation 0,0.1 --seeds 3 --out runs/pop
                                           parameter sweep (resumable; --executor dask to scale out)
  evo-wordle report runs/pop               mean ± 95 % interval per configuration, best one
  evo-wordle plot heatmap runs/pop --out pop.png      population x mutation heatmap
  evo-wordle plot convergence --answer merry --runs 50 --out merry.png
  evo-wordle evolve-strategy --problem P0 --guess-from allowed --jobs 2 --final --out s.json
                                           evolve a strategy genome (meta-GA, resumable)
  evo-wordle bench --strategy data/strategies/p0-evolved.json --problem P0 --guess-from allowed
  evo-wordle openers --words 2 --scan      best fixed two-word opening, GA checked by a scan
  evo-wordle ga-tree --candidates answers --guess-from allowed --tree t.txt --out t.json
                                           look-ahead GA decision tree for every answer
  evo-wordle ga-tree --candidates answers --guess-from allowed --exact --objective max --tree t.txt
                                           the smallest worst case, proven (branch and bound)
  evo-wordle cheatsheet --tree t.txt --plot sheet.png   the second guess for each feedback
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


class _CommandParser(_Parser):
    """A sub-command's parser: it reports its own unknown arguments (``evo-wordle bench: error:
    unrecognized arguments: --bogus``) instead of passing them up to the top parser."""

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="evo-wordle",
        description="Genetic algorithms and entropy solvers for Wordle.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"evo-wordle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure ends as one line on stderr and an exit code
    (0 done, 1 internal failure or lost worker, 2 bad input, 130 interrupted)."""
    from .. import console

    console.ascii_fallback()
    console.hold_warnings()  # until the work starts: a refused input gets its one line alone
    streams = sys.stdout, sys.stderr
    # ... or the first write; a stream nobody reads any more (| head, a full log disk) never stops the work
    sys.stdout, sys.stderr = console.Releasing(streams[0]), console.Releasing(streams[1], diagnostics=True)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()  # the program name alone asks for help
            return 0
        check_distinct_outputs(args)
        if getattr(args, "quiet", True) is False:
            progress_interval()  # a bad $EVO_WORDLE_PROGRESS_SECONDS fails before any work
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except EvoWordleError as exc:
        if exc.exit_code == 2:  # bad input: the error is the one line (the run the warnings were about never ran)
            console.drop_warnings()
        return console.fail(exc.for_cli(), exc.exit_code)
    except KeyboardInterrupt:
        return console.interrupted()
    except BaseException as exc:
        if isinstance(exc, SystemExit):
            raise
        return console.unexpected(exc)
    finally:
        # held warnings not yet out (a command that wrote nothing), then the streams back for
        # in-process callers; an error or progress line above released them as it was written
        console.release_warnings()
        sys.stdout, sys.stderr = streams
