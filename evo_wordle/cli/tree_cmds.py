"""``cheatsheet``: a decision-tree file as people read it (text, JSON, CSV, a figure, an export)."""

from __future__ import annotations

import argparse
import sys

from ..outputs import IMAGE_FORMATS, writing
from .common import add_command, add_word_args, nonnegative_int, output_file, output_path, print_json, wrote
from .settings_args import add_settings_args, run_context


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
