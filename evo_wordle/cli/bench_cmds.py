"""``bench`` (one solver over many answers) and ``compare`` (several solvers, one ranked table)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from ..artefacts import list_mismatch, other_lists_note
from ..bench import DAILY_RULES, BenchResult, check_boards, derived_seeds, run_bench, sample_answers
from ..boards import POLICY_NAME, ROLLOUT_MAX, check_distinct_answers, draw_answers
from ..context import Context
from ..errors import EvoWordleError
from ..files import atomic_write_csv
from ..game import Settings
from ..outputs import IMAGE_FORMATS, writing
from ..params import arg_type, as_int, as_list
from ..split import Split, recorded_split
from ..stats import mean_ci
from ..wording import count, unit
from .common import (
    add_command,
    add_solver_options,
    add_word_args,
    check_solver_flags,
    output_file,
    output_path,
    params_file_for,
    positive_int,
    print_json,
    seed_int,
    solver_list,
    solver_params,
    with_opener,
    wrote,
)
from .settings_args import (
    Artefact,
    add_settings_args,
    artefact_of,
    board_policy_file,
    board_policy_params,
    game_label,
    run_context,
    settings_from_args,
    warn,
)

#: The parts of a train/validation/test split that --split names.
SPLIT_PARTS = ("train", "validation", "test")
#: Weights of the position-ranking paper's overall score (lower is better).
SCORE_WEIGHTS = {"fail_rate": 0.70, "mean_guesses": 0.25, "seconds_per_game": 0.05}
#: Most runs of --repeat: 10**12 derived that many seeds and ended in "out of memory" (exit 1, as
#: if not the user's input); sweep --seeds has the same cap.
MAX_REPEAT = 10_000

def _add_run_args(p: argparse.ArgumentParser) -> None:
    add_settings_args(p)
    p.add_argument(
        "--daily-rule",
        dest="daily_rule",
        choices=DAILY_RULES,
        help="daily mode (P2/P3): past answers are removed from later games' candidates (remove, "
        "default) or stay candidates but are never guessed (forbid, the thesis's own simulator)",
    )
    add_word_args(p)
    p.add_argument("--games", type=positive_int, metavar="K",
                   help="play a seeded sample of K answers (default: all); with --boards N, K board sets drawn "
                   "with replacement (default: 1,000, at most 1,000,000)")
    p.add_argument("--distinct-answers", action=argparse.BooleanOptionalAction, default=None,
                   help="with --boards N: no board set repeats an answer, as in the real Quordle and Octordle "
                   "(default: drawn with replacement, so one guess may solve two boards; a replayed file evolved "
                   "with --distinct-answers plays its own choice)")
    p.add_argument("--rollout", type=arg_type(as_int, 0, ROLLOUT_MAX), metavar="N",
                   help="with --boards N or a multi-board --strategy/--params file: the policy's exact lookahead "
                   "plays in states whose boards' candidate counts multiply to at most N (0: off), instead of "
                   f"the file's own reach; at most {ROLLOUT_MAX:,} (on 8 boards; less on fewer). A deeper reach "
                   "costs time (docs/evolve.md)")
    p.add_argument("--seed", type=seed_int, default=0, metavar="S", help="seed (default 0)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                   help="processes; games are seeded by position, so results do not depend on J")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (otherwise a bar on a terminal, a line every few seconds when piped)")
    p.add_argument("--split", choices=SPLIT_PARTS, metavar="PART",
                   help="play only one part (train, validation or test) of the train/validation/test split the "
                   "replayed strategy or parameter file records: test = the answers it never saw. With "
                   "--boards N and no --games, the very board sets the file's evolution used for that part")
    add_solver_options(p)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "bench", help="play a solver on every answer (or a sample) and summarise",
        description="Play a solver on every answer (or a seeded sample) and report mean guesses, win "
        "and fail rate, the worst game, the histogram and the time taken. The summary, the JSON and "
        "the CSV name the opener played.",
        examples=[
            ("evo-wordle bench --solver greedy", "the baseline (opener TALES) on all 2,309 answers: 3.7713"),
            ("evo-wordle bench --solver ga --games 20 --seed 1", "the tuned GA on a seeded sample of 20 answers"),
            ("evo-wordle bench --solver naive --problem P1 --opener slate --json --csv games.csv --plot hist.png",
             "answer list known; JSON summary, one CSV row per game and the histogram"),
            ("evo-wordle bench --solver ga-thesis --repeat 3 --games 50",
             "mean ± 95 % interval over 3 runs on the same 50 answers"),
            ("evo-wordle bench --strategy quordle-evolved --games 1000",
             "the shipped evolved Quordle policy in its own game (4 boards, answers known, any allowed guess)"),
        ],
        extra=solver_list(),
    )
    p.add_argument("--solver", metavar="NAME",
                   help=f"solver to run, see the list below (default: greedy; {POLICY_NAME} for --boards N, which "
                   "ga-search also plays, with a decision search on top)")
    _add_run_args(p)
    p.add_argument("--repeat", type=arg_type(as_int, 1, MAX_REPEAT), default=1, metavar="R",
                   help="R runs with seeds derived from --seed, at most 10,000 (as sweep --seeds); report "
                   "mean ± 95 %% interval over the runs (one board: on the same answers, so not a --games "
                   "sample's error)")
    p.add_argument("--json", action="store_true", help="print one JSON object (BenchResult.summary)")
    p.add_argument("--csv", type=output_path, metavar="FILE", help="write one row per game")
    p.add_argument("--plot", type=output_file(*IMAGE_FORMATS, flag="--plot"), metavar="FILE",
                   help="save the histogram as an image (.png, .svg or .pdf)")
    p.set_defaults(func=cmd_bench)

    p = add_command(
        sub, "compare", help="bench several solvers and rank them",
        description="Bench several solvers under one setting on the same answers and rank them with the "
        "position-ranking paper's score: 70 % fail rate, 25 % mean guesses, 5 % time per game, each "
        "divided by its largest value among the compared solvers (lower is better). A strategy or tree "
        "file plays the game it was made for unless flags say otherwise; rows that would not play the "
        "same game are refused unless --mixed.",
        examples=[
            ("evo-wordle compare --solvers greedy,ga --opener tales --seed 0 --jobs 2",
             "the README's main job: the tuned GA against the greedy baseline"),
            ("evo-wordle compare --solvers random,position-rank,two-preset,greedy --games 100",
             "literature baselines on a seeded sample of 100 answers"),
            ("evo-wordle compare --solvers naive,greedy --problem P1 --json", "answer list known, as JSON"),
            ("evo-wordle compare --solvers naive,strategy --strategy answers-known-salet --opener salet --games 200",
             "a shipped strategy beside max entropy, both in the strategy's own game"),
            ("evo-wordle compare --solvers strategy,summed-entropy --strategy dordle-evolved --boards 2 "
             "--candidates answers --guess-from allowed --games 500",
             "the shipped evolved Dordle policy beside plain summed entropy on the same board sets"),
        ],
        extra=solver_list(),
    )
    p.add_argument("--solvers", required=True, metavar="A,B,C", help="comma-separated solver names (list below)")
    p.add_argument("--mixed", action="store_true",
                   help="allow rows that play different games (flagged in the table), e.g. a strategy file's "
                   "own setting beside baselines under the flags")
    _add_run_args(p)
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per solver")
    p.set_defaults(func=cmd_compare)


# -- running --------------------------------------------------------------------------------


class Puzzles:
    """Which puzzles a run plays: every answer or a seeded sample, or one part of the replayed
    file's train/validation/test split (``--split``); board sets are drawn from them, or are the
    file's own recorded sets of that part."""

    def __init__(self, ctx: Context, args: argparse.Namespace, names: list[str], settings: Settings) -> None:
        self.ctx, self.args, self.settings = ctx, args, settings
        self.artefact: Artefact | None = artefact_of(args, names)
        record = self.artefact.provenance.get("split") if self.artefact else None
        # A split is of the answers the file was made for: on other lists its parts (or, for a
        # seed and sizes, a split rebuilt on these answers) are not the answers it saw or not.
        self.other_lists = list_mismatch(self.artefact.made_for, ctx.words) \
            if record is not None and isinstance(self.artefact.made_for, dict) else None
        if self.other_lists and args.split:
            raise EvoWordleError(f"--split plays part of the split of the word lists {self.artefact.label} was "
                                 f"made for, but {self.other_lists}: drop --split or use those lists")
        self.split: Split | None = None if self.other_lists or record is None else recorded_split(
            record, ctx.words, self.artefact.label)
        if args.split and self.artefact is None:
            raise EvoWordleError("--split plays part of a replayed file's train/validation/test split: give the "
                                 "file with --strategy (or --params)")
        if args.split and self.split is None:
            raise EvoWordleError(f"--split needs a file that records its train/validation/test split; "
                                 f"{self.artefact.label} records none")
        self.distinct = self._distinct()

    def _distinct(self) -> bool:
        """Whether board sets are drawn without a repeated answer: ``--distinct-answers``, else
        the choice the replayed file's evolution drew its sets with (a file from before the
        setting, or none: with replacement).  One board, or replaying the file's own sets under
        the other choice, is refused; drawing new sets under the other choice is warned about."""
        asked = self.args.distinct_answers
        if asked is not None:
            check_distinct_answers(asked, self.settings.boards)
        sets = self.artefact.provenance.get("sets") if self.artefact else None
        recorded = sets.get("distinct_answers") is True if isinstance(sets, dict) else None
        if asked is None or recorded is None or asked == recorded:
            return bool(asked if asked is not None else recorded)
        label = self.artefact.label
        drawn = "with distinct answers" if recorded else "with replacement"
        if self.recorded:
            flag = "--distinct-answers" if asked else "--no-distinct-answers"
            raise EvoWordleError(f"--split {self.args.split} without --games replays the board sets {label} drew "
                                 f"{drawn}: drop {flag}, or give --games K to draw new sets")
        warn(f"{label} was evolved on board sets drawn {drawn}; these are drawn "
             f"{'with distinct answers' if asked else 'with replacement'}")
        return asked

    @property
    def recorded(self) -> bool:
        """Whether the run replays the file's own board sets (the same sets at every seed)."""
        return bool(self.args.split) and self.settings.boards > 1 and self.args.games is None

    def answers(self, seed: int) -> np.ndarray:
        """The answers (one board) or board sets (N boards) a run with ``seed`` plays.

        One board: the sample always comes from ``--seed``.  Several boards: ``seed`` draws the
        sets, so repeats differ where chance plays a part."""
        args = self.args
        part = self.split.part(args.split) if args.split else None
        if self.recorded:
            from ..evolve.metaga import file_sets

            record = {"provenance": self.artefact.provenance, "made_for": self.artefact.made_for}
            return file_sets(self.ctx, record, args.split, self.artefact.label)
        if self.settings.boards > 1:
            return draw_answers(self.ctx, self.settings.boards, args.games or 1000, seed, pool=part,
                                distinct=self.distinct)
        return sample_answers(self.ctx.words.answer_index if part is None else part, args.games, args.seed)

    def warn_seen(self, answers: np.ndarray) -> None:
        """Warn when the puzzles include answers the replayed file was trained or selected on."""
        if self.args.split or self.artefact is None:
            return
        label = self.artefact.label
        if self.other_lists:  # said already (the lists differ); which answers it saw is unknown here
            return
        if self.split is None:
            if "logbook" in self.artefact.provenance:  # evolved, but on answers it does not list
                warn(f"{label} records no train/validation/test split: these figures may include the answers "
                     "it was evolved on")
            return
        seen = np.isin(answers, np.union1d(self.split.train, self.split.validation))
        what = "answers"
        if seen.ndim == 2:
            seen, what = seen.any(axis=1), "board sets"
        if seen.any():
            warn(f"{label} was trained or selected on answers in {int(seen.sum())} of these {len(seen)} {what}, so "
                 f"they flatter it; --split test plays only the {count(len(self.split.test), 'answer')} it never saw")

    def describe(self) -> dict:
        """What the JSON summary records of the split (nothing without --split); run_bench records
        board sets of distinct answers itself."""
        if not self.args.split:
            return {}
        return {"split": self.args.split, "split_seed": self.split.seed,
                "split_sizes": self.split.sizes(), "split_recorded_sets": self.recorded}


def lists_note(found: Artefact | None, ctx: Context) -> dict:
    """What a row records of its replayed file (``found``, :func:`artefact_of`) played on other
    word lists (:func:`~evo_wordle.artefacts.other_lists_note`): worked out once per run, from
    the file the run read already, not read again for each repeat or row."""
    return other_lists_note(found.made_for, ctx.words) if found else {}


def bench_once(ctx: Context, name: str, settings: Settings, args: argparse.Namespace, params: dict, seed: int,
               answers: np.ndarray, distinct: bool = False, note: dict | None = None) -> BenchResult:
    """One bench run as the flags describe on ``answers`` (:meth:`Puzzles.answers`), for one
    board or N (one engine, :func:`run_bench`), with the solver keywords ``params`` (the
    command's one :func:`bench_params`); ``seed`` drives the games (solver randomness, daily
    order).  ``distinct`` (:attr:`Puzzles.distinct`): the sets hold no repeated answer, which
    run_bench checks and records.  ``note`` (:func:`lists_note`): the row's record of a file
    played on other word lists."""
    policy = engine(name, args)
    player = name if board_search(name, args) else policy  # run_bench routes ga-search on boards
    result = run_bench(
        ctx, player, settings, answers, seed, params, jobs=args.jobs, progress=not args.quiet,
        daily_rule=args.daily_rule or DAILY_RULES[0], label=name, distinct_answers=distinct,
    )
    if policy != name:  # the policy (a --strategy file's, or ga-search's): the row says so
        # as run_bench does for ga-search: settings.solver is the solver asked for, not the policy's
        result.solver, result.params = name, {**result.params, "solver": name, "strategy": board_policy_file(args)}
    if note:  # a file replayed on other lists (--other-lists): the row says so (the strategy
        # solver's own description says it too, from Python as well)
        result.params = {**result.params, **note}
    return result


def board_search(name: str, args: argparse.Namespace) -> bool:
    """True for ``ga-search`` in a game of several boards (``--boards N``, or a multi-board
    policy file named by ``--strategy``): the summed-entropy policy with its decision search."""
    return name == "ga-search" and ((getattr(args, "boards", None) or 1) > 1 or bool(board_policy_file(args)))


def engine(name: str, args: argparse.Namespace) -> str:
    """The player behind solver ``name``: ``strategy`` with a multi-board policy file
    (``--strategy quordle-evolved``) is the summed-entropy policy with the file's parameters, and
    ``ga-search`` on several boards is that policy with its decision search on."""
    if (name == "strategy" and board_policy_file(args)) or board_search(name, args):
        return POLICY_NAME
    return name


def board_search_params(args: argparse.Namespace) -> dict:
    """``ga-search --boards N``: the base policy (the file ``--strategy`` names, else plain summed
    entropy, ``--opener`` on top) with the decision search of ``--search-population`` and
    ``--search-generations`` (left out: the defaults of :func:`evo_wordle.bench.board_route`);
    flags the multi-board search cannot honour are refused."""
    if getattr(args, "strategy", None) and not board_policy_file(args):
        raise EvoWordleError(f"ga-search on several boards builds on a multi-board policy file; {args.strategy} is "
                             "a one-board strategy")
    given = [("--tree", "tree"), ("--exact-limit", "exact_limit")]
    if not getattr(args, "solvers", None):  # in compare, --params and other flags may serve another row
        given.append(("--params", "params"))
        check_solver_flags(["ga-search", "strategy"], args)
    for flag, dest in given:
        if getattr(args, dest, None) is not None:
            raise EvoWordleError(f"ga-search on several boards takes no {flag} (a one-board option; the base policy "
                                 "comes from --strategy FILE)")
    base = board_policy_params(args) or with_opener({}, args)
    population = getattr(args, "search_population", None)
    generations = getattr(args, "search_generations", None)
    if (population is not None and population < 1) or (generations is not None and generations < 0):
        raise EvoWordleError("--search-population must be ≥ 1 and --search-generations ≥ 0")
    search = {"search": population, "search_generations": generations}
    return {**base, **{key: value for key, value in search.items() if value is not None}}


def bench_params(name: str, args: argparse.Namespace, check: bool = True) -> dict:
    """Solver keywords from the flags; the summed-entropy policy takes only ``--opener``,
    ``--params FILE`` and ``--rollout`` (which replaces a file's lookahead reach).
    With ``check``, a flag ``name`` does not take is refused."""
    params = _keywords(name, args, check)
    rollout = getattr(args, "rollout", None)
    if rollout is None:
        return params
    if engine(name, args) != POLICY_NAME:  # refused whatever ``check`` says: it would be ignored
        raise EvoWordleError(f"--rollout is the multi-board policy's lookahead; solver {name} plays one board "
                             "(give --boards N, or a multi-board --strategy/--params file)")
    return {**params, "rollout": rollout}


def _keywords(name: str, args: argparse.Namespace, check: bool) -> dict:
    """:func:`bench_params` before ``--rollout``."""
    if board_search(name, args):
        return board_search_params(args)
    board = board_policy_params(args) if name == "strategy" else None
    if board is not None:  # --strategy names a multi-board policy: its parameters, as --params gives them
        if check:  # the policy takes no other solver flag (--population, --tree … were ignored)
            check_solver_flags(["strategy"], args)
        return board
    if name == POLICY_NAME:  # its genes come from --params FILE (written by evolve-strategy --boards N)
        if check:
            check_solver_flags([POLICY_NAME], args)
        params = params_file_for(name, args)
        return with_opener(params, args)
    return solver_params(name, args, check=check)


def repeats(name: str, settings: Settings, repeat: int, recorded: bool = False) -> int:
    """Runs worth making: one for a deterministic solver on a fixed set of games (``recorded``:
    a file's own board sets)."""
    from ..solvers import SOLVERS

    stochastic = name != POLICY_NAME and SOLVERS[name].stochastic
    chance = stochastic or settings.daily or (settings.boards > 1 and not recorded)
    return repeat if chance else 1


def pooled(results: list[BenchResult]) -> BenchResult:
    """All games of several runs as one result (seconds summed)."""
    first = results[0]
    records = [r for res in results for r in res.records]
    return BenchResult(first.solver, first.settings, records, sum(r.seconds for r in results), dict(first.params))


def check_daily_rule(args: argparse.Namespace, settings) -> None:
    """``--daily-rule`` only means something in daily games: refused elsewhere, not ignored."""
    if args.daily_rule is not None and not settings.daily:
        raise EvoWordleError(f"--daily-rule {args.daily_rule} applies to daily games only (--daily, or --problem "
                             "P2/P3)")


def cmd_bench(args: argparse.Namespace) -> int:
    flag_settings = settings_from_args(args)
    check_daily_rule(args, flag_settings)
    if args.params and not args.solver:
        from ..tune import load_params

        args.solver = load_params(args.params)["solver"]
    args.solver = args.solver or (POLICY_NAME if flag_settings.boards > 1 else "greedy")
    check_boards(engine(args.solver, args), flag_settings)
    params = bench_params(args.solver, args)  # unknown solver / bad options fail before any work
    ctx, settings = run_context(args, [args.solver])
    puzzles = Puzzles(ctx, args, [args.solver], settings)
    seeds = derived_seeds(args.seed, repeats(engine(args.solver, args), settings, args.repeat, puzzles.recorded))
    plays = [puzzles.answers(s) for s in seeds]
    puzzles.warn_seen(plays[0])
    note = lists_note(puzzles.artefact, ctx)  # the file Puzzles read: artefact_of(args, [args.solver])
    results = [bench_once(ctx, args.solver, settings, args, params, s, a, puzzles.distinct, note)
               for s, a in zip(seeds, plays)]
    means = [r.mean_guesses for r in results]
    mean, half = mean_ci(means)  # half is nan for one run (then not printed)
    combined = pooled(results) if len(results) > 1 else results[0]
    summary = combined.summary()
    summary["settings"]["seed"] = args.seed
    summary["settings"].update(puzzles.describe())
    summary["settings"]["answers"] = ctx.words.label  # the answer list, as compare names it
    if len(results) > 1:
        summary["settings"].update(repeat=len(results), seeds=seeds, run_means=means, mean_ci95=half)
    elif args.repeat > 1:
        summary["settings"]["repeat_asked"] = args.repeat
    if args.json:  # the result first: a late write failure cannot lose it
        print_json(summary)
    else:
        print_summary(summary, mean, half, len(results), repeat_basis(ctx, settings, puzzles, plays[0]))
    sys.stdout.flush()
    if args.csv:
        with writing(args.csv):
            write_csv(ctx, results, seeds, args.csv, puzzles.distinct, note)
        wrote(args.csv, args.json)
    if args.plot:
        from ..plots.histogram import plot_histogram
        from ..plots.style import lists_text

        with writing(args.plot):
            plot_histogram(summary, args.plot, lists=lists_text(ctx.words, args.allowed, args.answers))
        wrote(args.plot, args.json)
    return 0


def _word(ctx: Context, answer) -> str:
    if isinstance(answer, (int, np.integer)):
        return ctx.words.allowed[int(answer)]
    return "+".join(ctx.words.allowed[int(a)] for a in answer)  # multi-board: one answer per board


def write_csv(ctx: Context, results: list[BenchResult], seeds: list[int], path: Path, distinct: bool = False,
              note: dict | None = None) -> None:
    """One row per game: answer, guesses used, solved, the guess sequence, its opener, the run's
    seed, and with ``distinct`` a ``distinct_answers`` column of 1 (board sets without a
    repeated answer; left out when drawn with replacement, so those files are as before); with
    ``note`` (:func:`lists_note`: a file played on other word lists) ``other_lists`` (1) and
    ``lists_differ`` (why) columns, as the JSON settings record them, so the CSV alone tells those
    games from the file's own (left out otherwise: files as before).
    Written atomically: a symlink at ``path`` is replaced, never written through."""
    extra = {"distinct_answers": 1} if distinct else {}  # optional columns: their header and their value
    if note:
        extra.update(other_lists=1, lists_differ=note["lists_differ"])
    rows = [["answer", "guesses", "solved", "sequence", "opener", "seed", *extra]]
    for seed, res in zip(seeds, results):
        cap = res.settings.max_guesses
        for rec in res.records:
            seq = [ctx.words.allowed[int(g)] for g in rec.guesses]
            rows.append([_word(ctx, rec.answer), rec.score(cap), int(rec.solved), " ".join(seq),
                         seq[0] if seq else "", seed, *extra.values()])
    atomic_write_csv(path, rows)


def repeat_basis(ctx: Context, settings: Settings, puzzles: Puzzles, answers: np.ndarray) -> str:
    """What the interval over ``--repeat`` runs covers, said beside it.  One board (and a file's own
    recorded board sets) replays the same puzzles in every run, so the interval holds the runs' own
    chance (a stochastic solver, the daily order), not the draw of a ``--games K`` sample: read as
    the solver's mean over all answers, it was too narrow.  Board sets are drawn anew per run."""
    if settings.boards > 1 and not puzzles.recorded:
        return f", each on its own {count(len(answers), unit(settings.boards), fmt=',')}"
    what = count(len(answers), "answer" if settings.boards == 1 else "board set", fmt=",")
    pool = len(puzzles.split.part(puzzles.args.split)) if puzzles.args.split else len(ctx.words.answer_index)
    if settings.boards == 1 and len(answers) < pool:
        return (f" on the same {what}: run-to-run chance only, not which {len(answers):,} of the "
                f"{pool:,} answers were drawn")
    return f" on the same {what}"


def print_summary(summary: dict, mean: float, half: float, runs: int, basis: str = "") -> None:
    s = summary["settings"]
    hide = ("solver", "opener", "seeds", "run_means", "mean_ci95", "repeat_asked", "split", "split_seed",
            "split_sizes", "split_recorded_sets", "distinct_answers")
    shown = ", ".join(f"{k}={v}" for k, v in s.items() if k not in hide)
    if s.get("distinct_answers"):  # said in words beside the figures: no set repeats an answer
        shown += ", distinct answers"
    games = summary["games"]
    rule, cap = Settings(boards=s.get("boards", 1), max_guesses=s["max_guesses"]), s["max_guesses"]
    one, short = unit(rule.boards), unit(rule.boards, short=True)  # "game"/"board set"; "set" where narrow
    # below the win limit the cap is what a game is won within (nothing goes on to the limit)
    within = f"{cap}, the --max-guesses cap; the win limit is {rule.win_limit}" if rule.capped else f"{rule.win_limit}"
    print(f"solver:       {summary['solver']}, opener {_opener(summary)}")
    print(f"settings:     {shown}")
    if "split" in s:
        sets = "; its own recorded board sets" if s["split_recorded_sets"] else ""
        part = count(s["split_sizes"][s["split"]], "answer")
        print(f"answers:      the {s['split']} part ({part}) of the file's split, seed {s['split_seed']}{sets}")
    note = f" ({runs} runs)" if runs > 1 else (" (deterministic: one run)" if s.get("repeat_asked", 1) > 1 else "")
    print(f"{one + 's:':<14}{games}{note}")
    if runs > 1:
        print(f"mean guesses: {mean:.4f} ± {half:.4f} (95 % interval over runs{basis})")
    else:
        print(f"mean guesses: {summary['mean_guesses']:.4f}")
    print(f"win rate:     {100 * summary['win_rate']:.2f} % (solved within {within})")
    print(f"fail rate:    {100 * summary['fail_rate']:.2f} %")
    print(f"{'worst ' + short + ':':<14}{count(summary['worst_guesses'], 'guess', 'guesses')} (worst_guesses; a "
          f"failure counts as the cap, max_guesses={cap})")
    width = max(summary["histogram"].values())
    for k, v in summary["histogram"].items():
        bar = "#" * max(1, round(40 * v / width)) if v else ""
        print(f"  {k:>2}: {v:6d} {bar}")
    if summary["guesses_outside_source"]:
        print(f"outside:      {outside_text(summary)}")
    secs = summary["seconds"]
    print(f"seconds:      {secs:.3f} total, {1000 * secs / games:.3f} ms per {one}")


# -- compare --------------------------------------------------------------------------------


def outside_text(summary: dict) -> str:
    """One line for a run that played outside its setting's guess source (the thesis's GAs
    play mutants that are no longer candidates): how often, and what the figures then mean."""
    source = summary["settings"]["guess_from"]
    what = "possible answers (candidates)" if source == "candidates" else "legal guesses (hard mode)"
    n = summary["guesses_outside_source"]
    return (f"{count(n, 'guess', 'guesses', ',')} in {summary['games_outside_source']:,} of "
            f"{count(summary['games'], 'game', fmt=',')} {'was' if n == 1 else 'were'} not {what} when "
            f"played: {summary['solver']} does not keep to guess_from={source}, so its figures are not of that game")


def ranking_scores(rows: list[dict]) -> list[float]:
    """The paper's overall score per row: each metric divided by its largest value, weighted
    70/25/5 (fail rate, mean guesses, seconds per game); lower is better."""
    out = np.zeros(len(rows))
    for key, weight in SCORE_WEIGHTS.items():
        vals = np.array([r[key] for r in rows], dtype=float)
        top = vals.max()
        if top > 0:
            out += weight * vals / top
    return [float(v) for v in out]


def _opener(summary: dict) -> str:
    """The opener a summary's solver played (upper case), or "-" if it has none (a tree, a genome)."""
    return (summary["settings"].get("opener") or "-").upper()


def cmd_compare(args: argparse.Namespace) -> int:
    names = as_list("--solvers", args.solvers)  # an empty name (greedy,) is refused
    if len(set(names)) != len(names):
        raise EvoWordleError("--solvers lists a solver twice")
    families = [f for n in names if n != POLICY_NAME
                for f in (("ga-search", "strategy") if board_search(n, args) else (n,))]
    check_solver_flags(families, args)  # every flag must serve one of them
    given = settings_from_args(args)  # what the flags alone describe
    check_daily_rule(args, given)
    params = {}
    for name in names:  # validate all before running any
        check_boards(engine(name, args), given)
        params[name] = bench_params(name, args, check=False)
    ctx, game = run_context(args, names)
    files = {name: artefact_of(args, [name]) for name in names}  # each row's replayed file, read once
    row_settings = {name: game if files[name] else given for name in names}
    games = {name: game_label(s) for name, s in row_settings.items()}
    mixed = len(set(games.values())) > 1
    if mixed and not args.mixed:
        raise EvoWordleError("the rows do not play the same game (" + "; ".join(f"{n}: {g}" for n, g in games.items())
                             + "): give the settings as flags so every row plays them, or --mixed")
    boards = {name: s.boards for name, s in row_settings.items()}
    if len(set(boards.values())) > 1:  # a board set is not a puzzle of a one-board row, nor the reverse
        raise EvoWordleError("the rows play different numbers of boards (" + ", ".join(
            f"{n}: {b}" for n, b in boards.items()) + "), so they cannot play the same puzzles, even with --mixed")
    puzzles = Puzzles(ctx, args, names, game)
    answers = puzzles.answers(args.seed)  # every row plays the same puzzles
    puzzles.warn_seen(answers)
    rows = []
    for name in names:
        summary = bench_once(ctx, name, row_settings[name], args, params[name], args.seed, answers, puzzles.distinct,
                             lists_note(files[name], ctx)).summary()
        summary["settings"]["seed"] = args.seed
        summary["settings"].update(puzzles.describe())
        summary["settings"]["answers"] = ctx.words.label
        summary["game"] = games[name]
        if summary["guesses_outside_source"] and row_settings[name].guess_from == "candidates":
            # it guessed beyond the candidates: in effect it played "guess from any allowed word"
            summary["game"] = game_label(row_settings[name].with_(guess_from="allowed"))
        summary["seconds_per_game"] = summary["seconds"] / summary["games"]
        rows.append(summary)
    beyond = [name for name, row in zip(names, rows) if row["game"] != games[name]]
    found = not mixed and len({row["game"] for row in rows}) > 1  # known only once played: flagged, not refused
    mixed = mixed or found
    for row, score in zip(rows, ranking_scores(rows)):
        row["score"] = score
    # rank by what the seed fixes (fail rate, then mean guesses), never by time: the paper's score
    # is shown beside it, but its time term varies with the machine's load
    def key(i: int) -> tuple:
        return rows[i]["fail_rate"], rows[i]["mean_guesses"]

    order = sorted(range(len(rows)), key=lambda i: (*key(i), i))
    for place, i in enumerate(order, 1):  # ties share a rank (1, 1, 3): --solvers' order must not decide
        rows[i]["rank"] = place if place == 1 or key(i) != key(order[place - 2]) else rows[order[place - 2]]["rank"]
    if mixed:
        why = f" ({', '.join(beyond)} guessed words that were not candidates: guess_from=allowed in effect)" \
            if found else ""
        warn(f"MIXED GAMES: these rows do not play the same game{why}, so their figures are not comparable")
    if args.json:
        print_json([rows[i] for i in order])
        return 0
    part = f" ({args.split} part of the file's split)" if args.split else ""
    part += ", distinct answers" if puzzles.distinct else ""
    rows_boards = row_settings[names[0]].boards  # every row plays as many boards (checked above)
    one, short = unit(rows_boards), unit(rows_boards, short=True)
    print(f"{count(rows[0]['games'], one)}, seed {args.seed}, answers {ctx.words.label}{part}"
          + ("" if mixed else f", {rows[0]['game']}"))
    if mixed:
        print("!! MIXED GAMES: the rows below play different games; their figures are NOT comparable !!")
    width = max(len(r["game"]) for r in rows)
    head = (f"{'rank':>4}  {'solver':22s} {'opener':7s} {'mean':>7} {'win %':>7} {'fail %':>7} {'worst':>5} "
            f"{'ms/' + short:>9} {'score':>7}  {'game':{width}s}")
    print(head)
    print("-" * len(head))
    for i in order:
        r = rows[i]
        print(
            f"{r['rank']:>4}  {r['solver']:22s} {_opener(r):7s} {r['mean_guesses']:7.4f} {100 * r['win_rate']:7.2f} "
            f"{100 * r['fail_rate']:7.2f} {r['worst_guesses']:5d} {1000 * r['seconds_per_game']:9.3f} {r['score']:7.4f}"
            f"  {r['game']}"
        )
    for i in order:
        if rows[i]["guesses_outside_source"]:
            print(f"{rows[i]['solver']}: {outside_text(rows[i])}")
    print("rank: by fail rate, then mean guesses (the seed fixes both; equal ones share a rank); score: the paper's "
          "0.70·fail/max + 0.25·mean/max + 0.05·time/max over the solvers above (lower is better; its time term "
          "varies with load)")
    return 0
