"""``cheatsheet``: a decision-tree file as people read it (text, JSON, CSV, a figure, an export)."""

from __future__ import annotations

import argparse
import sys

from ..outputs import IMAGE_FORMATS, writing
from .common import (
    add_command,
    add_word_args,
    nonnegative_int,
    output_file,
    output_path,
    positive_int,
    print_json,
    wrote,
)
from .settings_args import add_settings_args, record_context, run_context


def register(sub) -> None:
    p = add_command(
        sub, "cheatsheet", help="the second guess for each feedback of a tree file (table, JSON, figure)",
        description="Read a tree file (ga-tree --tree, one guess path per answer) and show its cheat "
        "sheet: for each feedback the opener can get, the number of answers behind it, the second "
        "guess, and the mean and worst guesses of those answers. Every move of the file is checked "
        "against the game it was made for (its '# made_for:' header) before anything is shown.",
        examples=[
            ("evo-wordle cheatsheet --tree data/strategies/answers-known-salet.tree",
             "the table, biggest feedbacks first (--top 0 for every row)"),
            ("evo-wordle cheatsheet --tree t.tree --json --plot sheet.png --csv sheet.csv --export t.json",
             "every row as JSON and CSV, the figure, and the whole tree as JSON"),
        ],
    )
    p.add_argument("--tree", metavar="FILE", required=True, help="tree file (from ga-tree --tree)")
    add_word_args(p)
    add_settings_args(p, daily=False, boards=False)
    p.add_argument("--top", type=nonnegative_int, default=30, metavar="N",
                   help="rows in the text table and the figure, biggest first; 0 = all (default: %(default)s; "
                   "--json and --csv always hold every row)")
    p.add_argument("--json", action="store_true", help="print the cheat sheet as JSON (every row)")
    p.add_argument("--csv", type=output_path, metavar="FILE", help="write one row per feedback")
    p.add_argument("--plot", type=output_file(*IMAGE_FORMATS, flag="--plot"), metavar="FILE",
                   help="save the figure (.png, .svg or .pdf)")
    p.add_argument("--export", type=output_path, metavar="FILE",
                   help="write the whole tree as JSON: answer paths and feedback history -> guess")
    p.set_defaults(func=cmd_cheatsheet)

    p = add_command(
        sub, "lookahead-tree", help="a strategy file's early decisions improved by looking one guess ahead",
        description="Read a strategy file and, at the first --turns decisions after its opener, score "
        "each of the genome's --width cheapest guesses by the guesses the game then takes in "
        "expectation (the genome's own play below it, over every candidate weighted by the genome's "
        "prior), keep the cheapest, and write a strategy file with the same genome and settings whose "
        "tree holds those decisions (bench/solve/assist --strategy replay it; deeper states are the "
        "genome's). No answer list is read beyond what the file's game allows: a P0 tree uses only "
        "what a P0 player knows.",
        examples=[
            ("evo-wordle lookahead-tree --strategy p0-evolved --out p0-lookahead.json",
             "two decisions after the opener, 10 guesses scored at each (minutes on 2 cores)"),
            ("evo-wordle lookahead-tree --strategy p0-strict --turns 1 --width 20 --out s.json --json",
             "one decision after the opener, 20 guesses scored; the summary as JSON (then: evo-wordle "
             "bench --strategy s.json --split test)"),
        ],
    )
    p.add_argument("--strategy", metavar="FILE", required=True,
                   help="strategy file (a path or a shipped name) whose genome looks ahead")
    add_word_args(p)
    p.add_argument("--turns", type=positive_int, default=2, metavar="N",
                   help="decisions after the opener that look ahead (1-4; default: %(default)s)")
    p.add_argument("--width", type=positive_int, default=10, metavar="K",
                   help="the genome's K cheapest guesses scored at each (1-100; default: %(default)s)")
    p.add_argument("--out", type=output_path, metavar="FILE", required=True, help="strategy file to write")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_lookahead_tree)


def cmd_cheatsheet(args: argparse.Namespace) -> int:
    import json

    from ..artefacts import made_for
    from ..evolve.cheatsheet import cheat_sheet, text_table, tree_export, tree_file_paths
    from ..evolve.search import tree_made_for
    from ..files import atomic_write_csv, atomic_write_text

    ctx, settings = run_context(args, ["ga-search"])
    paths = tree_file_paths(ctx, args.tree, settings)
    sheet = {"tree": str(args.tree), "settings": settings.as_dict(), **cheat_sheet(ctx, paths)}
    if args.json:  # the result first: a late write failure cannot lose it
        print_json(sheet)
    else:
        print(text_table(sheet, args.top or None))
    sys.stdout.flush()
    if args.csv:
        header = ["feedback", "letters", "answers", "second_guess", "mean_guesses", "max_guesses"]
        rows = [[r["feedback"], r["letters"], r["answers"], r["second_guess"] or "", r["mean_guesses"],
                 r["max_guesses"]] for r in sheet["rows"]]
        with writing(args.csv):
            atomic_write_csv(args.csv, [header, *rows])
        wrote(args.csv, args.json)
    if args.plot:
        from ..plots.cheatsheet import plot_cheat_sheet
        from ..plots.style import lists_text

        lists = lists_text(ctx.words, args.allowed, args.answers)
        with writing(args.plot):
            plot_cheat_sheet(sheet, args.plot, sheet["settings"], args.top, str(args.tree), lists=lists)
        wrote(args.plot, args.json)
    if args.export:
        record = tree_made_for(args.tree) or made_for(settings, ctx.words)
        with writing(args.export):
            atomic_write_text(args.export, json.dumps(tree_export(ctx, paths, record), indent=1) + "\n")
        wrote(args.export, args.json)
    return 0


def cmd_lookahead_tree(args: argparse.Namespace) -> int:
    import time

    from ..artefacts import settings_of
    from ..errors import EvoWordleError
    from ..evolve.lookahead import MAX_TURNS, MAX_WIDTH, lookahead_tree
    from ..evolve.strategy import StrategyPolicy, read_strategy_file, save_strategy
    from .evolve_cmds import command_line

    command = command_line(args)  # as given, before the file's answer list fills in --answers
    if args.turns > MAX_TURNS or args.width > MAX_WIDTH:  # before the lists load
        raise EvoWordleError(f"--turns is at most {MAX_TURNS} and --width at most {MAX_WIDTH}")
    f = read_strategy_file(args.strategy)
    label = f"strategy file {f.path}"
    if f.made_for is None:
        raise EvoWordleError(f"{label} records no settings (an old file): a lookahead needs the game it was made for")
    settings = settings_of(f.made_for, label)
    if settings.boards != 1:
        raise EvoWordleError(f"{label} is a {settings.boards}-board policy: the lookahead plays one board")
    ctx, why = record_context(args, f.made_for)
    if why:
        raise EvoWordleError(f"{label}: {why}")
    if not ctx.words.contains(f.strategy.opener):
        raise EvoWordleError(f"{label}: its opener {f.strategy.opener!r} is not an allowed word of this list")
    policy = StrategyPolicy(ctx, f.strategy)
    t0 = time.perf_counter()

    def report(turn: int, states: int, changed: int) -> None:
        print(f"decision {turn + 1}: {states} states, the lookahead overrules the genome in {changed} "
              f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)

    tree, stats = lookahead_tree(ctx, settings, policy, args.turns, args.width, report)
    seconds = round(time.perf_counter() - t0, 1)
    provenance = {**f.provenance, "lookahead": {
        "command": command, "from": str(args.strategy), "turns": args.turns, "width": args.width,
        "states": stats["states"], "overruled": stats["changed"], "seconds": seconds}}
    summary = {"strategy": str(args.strategy), "out": str(args.out), "settings": settings.as_dict(),
               "turns": args.turns, "width": args.width, "states": stats["states"],
               "overruled": stats["changed"], "tree_entries": len(tree), "seconds": seconds}
    if args.json:  # the result first: a late write failure cannot lose it
        print_json(summary)
    else:
        print(f"lookahead over {args.turns} decision(s) after {f.strategy.opener.upper()}, {args.width} guesses "
              f"each: {sum(stats['states'])} states, {sum(stats['changed'])} decisions changed, {seconds} s")
    sys.stdout.flush()
    with writing(args.out):
        save_strategy(args.out, f.strategy, provenance, tree, settings, ctx.words)
    wrote(args.out, args.json)
    return 0
