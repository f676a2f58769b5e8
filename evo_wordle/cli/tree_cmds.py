"""Tree commands: ``cheatsheet`` (a decision-tree file as people read it), and ``lookahead-tree``
and ``plan-tree`` (a strategy file's early decisions, looked ahead or planned)."""

from __future__ import annotations

import argparse
import sys

from ..outputs import IMAGE_FORMATS, writing
from .common import (
    add_command,
    add_word_args,
    file_name,
    nonnegative_int,
    output_file,
    output_path,
    positive_int,
    print_json,
    wrote,
)
from .settings_args import add_settings_args, record_context, run_context, warn


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
    p.add_argument("--tree", type=file_name, metavar="FILE", required=True, help="tree file (from ga-tree --tree)")
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
        "expectation (the genome's own play below it, over every candidate weighted by the file's "
        "prior: the one it stores, else the genome's), keep the cheapest, and write a strategy file with "
        "the same genome, prior and settings whose tree holds those decisions (bench/solve/assist "
        "--strategy replay it; deeper states are the genome's). No answer list is read beyond what "
        "the file's game allows: a P0 tree uses only "
        "what a P0 player knows.",
        examples=[
            ("evo-wordle lookahead-tree --strategy p0-evolved --out p0-lookahead.json",
             "two decisions after the opener, 10 guesses scored at each (minutes on 2 cores)"),
            ("evo-wordle lookahead-tree --strategy p0-strict --turns 1 --width 20 --out s.json --json",
             "one decision after the opener, 20 guesses scored; the summary as JSON (then: evo-wordle "
             "bench --strategy s.json --split test)"),
        ],
    )
    p.add_argument("--strategy", metavar="FILE", required=True, type=file_name,
                   help="strategy file (a path or a shipped name) whose genome looks ahead")
    add_word_args(p)
    p.add_argument("--turns", type=positive_int, default=2, metavar="N",
                   help="decisions after the opener that look ahead (1-4; default: %(default)s)")
    p.add_argument("--width", type=positive_int, default=10, metavar="K",
                   help="the genome's K cheapest guesses scored at each (1-100; default: %(default)s)")
    p.add_argument("--out", type=output_path, metavar="FILE", required=True, help="strategy file to write")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_lookahead_tree)

    p = add_command(
        sub, "plan-tree", help="a P0 strategy's early guesses from a tree over the words its prior weighs most",
        description="Read a strategy file, take the --top words its prior weighs most (the prior it "
        "stores, else the genome's) as if they were the answer list, build the tree of fewest total "
        "guesses over them by branch and bound (--width proposals per node) for each of --openers, keep "
        "the opener whose tree is cheapest, and write a strategy file with the same genome, prior and "
        "settings whose tree holds that opener and the tree's first --depth decisions after it; the "
        "genome plays on under its prior, which still weighs every allowed word. No answer list is "
        "read: the plan uses only what a player who does not know the list knows.",
        examples=[
            ("evo-wordle plan-tree --strategy p0-fitted --top 2300 --openers crane,slate,trace --out p.json",
             "plan the second guess over the 2,300 likeliest words, three openers tried (seconds)"),
            ("evo-wordle plan-tree --strategy p0-fitted --top 2300 --depth 2 --out p.json --json",
             "the genome's own opener, the second and third guesses planned; the summary as JSON"),
        ],
    )
    p.add_argument("--strategy", metavar="FILE", required=True, type=file_name,
                   help="strategy file (a path or a shipped name) whose prior picks the planned words")
    add_word_args(p)
    p.add_argument("--top", type=positive_int, required=True, metavar="M",
                   help="plan over the M words the prior weighs most (2 to the allowed list's size)")
    p.add_argument("--openers", metavar="W,W,...",
                   help="openers to try, comma-separated (up to 20; default: the genome's opener)")
    p.add_argument("--width", type=positive_int, default=20, metavar="K",
                   help="guesses tried at each node of the tree (1-100; default: %(default)s)")
    p.add_argument("--depth", type=positive_int, default=1, metavar="D",
                   help="decisions after the opener the file stores (1-4; default: %(default)s)")
    p.add_argument("--out", type=output_path, metavar="FILE", required=True, help="strategy file to write")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_plan_tree)


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


def _one_board_file(args: argparse.Namespace):
    """(file, settings, context) of a one-board strategy file made for known settings and lists."""
    from ..artefacts import settings_of
    from ..errors import EvoWordleError
    from ..evolve.strategy import read_strategy_file

    f = read_strategy_file(args.strategy)
    label = f"strategy file {f.path}"
    if f.made_for is None:
        raise EvoWordleError(f"{label} records no settings (an old file): {args.command} needs the game "
                             "it was made for")
    settings = settings_of(f.made_for, label)
    if settings.boards != 1:
        raise EvoWordleError(f"{label} is a {settings.boards}-board policy: {args.command} plays one board")
    ctx, why = record_context(args, f.made_for)
    if why:
        raise EvoWordleError(f"{label}: {why}")
    if not ctx.words.contains(f.strategy.opener):
        raise EvoWordleError(f"{label}: its opener {f.strategy.opener!r} is not an allowed word of this list")
    if f.tree:  # the new file's tree replaces it: say so, since it may open with another word
        from ..wording import count

        first = f.tree.get("", "?").upper()
        warn(f"{label}'s stored tree ({count(len(f.tree), 'decision', fmt=',')}, opening with {first}) is not "
             f"kept: {args.command} starts from the genome's opener {f.strategy.opener.upper()}")
    return f, settings, ctx


def cmd_plan_tree(args: argparse.Namespace) -> int:
    import time

    from ..errors import EvoWordleError
    from ..evolve.plan import MAX_DEPTH, MAX_OPENERS, MAX_WIDTH, plan_tree
    from ..evolve.strategy import StrategyPolicy, file_prior, save_strategy
    from ..params import as_list
    from .evolve_cmds import command_line

    command = command_line(args)
    if args.width > MAX_WIDTH or args.depth > MAX_DEPTH:  # before the lists load
        raise EvoWordleError(f"--width is at most {MAX_WIDTH} and --depth at most {MAX_DEPTH}")
    # "" is a usage error, not the flag left out (which tries the genome's opener)
    names = as_list("--openers", args.openers, item="word") if args.openers is not None else []
    if len(names) > MAX_OPENERS:
        raise EvoWordleError(f"--openers takes at most {MAX_OPENERS} words, not {len(names)}")
    f, settings, ctx = _one_board_file(args)
    if args.top < 2 or args.top > len(ctx.words):
        raise EvoWordleError(f"--top takes 2 to {len(ctx.words)} words (the allowed list), not {args.top}")
    openers = list(dict.fromkeys(ctx.words.index(w) for w in names)) or [ctx.words.index(f.strategy.opener)]
    prior = StrategyPolicy(ctx, f.strategy, prior=None if f.prior is None else file_prior(ctx, f)).prior
    t0 = time.perf_counter()
    tree, info = plan_tree(ctx, settings, prior, args.top, openers, args.width, args.depth)
    seconds = round(time.perf_counter() - t0, 1)
    record = {"command": command, "from": str(args.strategy), "top": args.top, "width": args.width,
              "depth": args.depth, **info, "seconds": seconds}
    provenance = {**{k: v for k, v in f.provenance.items() if k not in ("lookahead", "plan")}, "plan": record}
    summary = {"strategy": str(args.strategy), "out": str(args.out), "settings": settings.as_dict(), **record}
    if args.json:  # the result first: a late write failure cannot lose it
        print_json(summary)
    else:
        tried = ", ".join(f"{w.upper()} {t}" for w, t in info["totals"].items())
        print(f"plan over the {args.top} likeliest words: {info['opener'].upper()} opens "
              f"(total guesses over them: {tried}; mean {info['mean_over_planned']:.4f}); "
              f"{info['tree_entries']} decisions stored, {seconds} s")
    sys.stdout.flush()
    with writing(args.out):
        save_strategy(args.out, f.strategy, provenance, tree, settings, ctx.words, f.prior)
    wrote(args.out, args.json)
    return 0


def cmd_lookahead_tree(args: argparse.Namespace) -> int:
    import time

    from ..errors import EvoWordleError
    from ..evolve.lookahead import MAX_TURNS, MAX_WIDTH, lookahead_tree
    from ..evolve.strategy import StrategyPolicy, file_prior, save_strategy
    from .evolve_cmds import command_line

    command = command_line(args)  # as given, before the file's answer list fills in --answers
    if args.turns > MAX_TURNS or args.width > MAX_WIDTH:  # before the lists load
        raise EvoWordleError(f"--turns is at most {MAX_TURNS} and --width at most {MAX_WIDTH}")
    f, settings, ctx = _one_board_file(args)
    # under the file's own prior when it stores one: the tree is played with that prior
    policy = StrategyPolicy(ctx, f.strategy, prior=None if f.prior is None else file_prior(ctx, f))
    t0 = time.perf_counter()

    def report(turn: int, states: int, changed: int) -> None:
        print(f"decision {turn + 1}: {states} states, the lookahead overrules the genome in {changed} "
              f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)

    tree, stats = lookahead_tree(ctx, settings, policy, args.turns, args.width, report)
    seconds = round(time.perf_counter() - t0, 1)
    # a plan's record goes with its tree, which the lookahead does not keep (it looks ahead after the genome's opener)
    provenance = {**{k: v for k, v in f.provenance.items() if k != "plan"}, "lookahead": {
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
        save_strategy(args.out, f.strategy, provenance, tree, settings, ctx.words, f.prior)
    wrote(args.out, args.json)
    return 0
