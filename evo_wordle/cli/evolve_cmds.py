"""``evolve-strategy``: evolve a strategy genome with the meta-GA and write a strategy file."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from ..boards import MAX_SETS, SEARCH_GENERATIONS_MAX, SEARCH_MAX, SEARCH_WORDS, check_distinct_answers
from ..errors import EvoWordleError
from ..evolve.search import EXACT_LIMIT_MAX, SEARCH_DEFAULTS
from ..evolve.winner import SELECT_RULES
from ..game import lost, scores_of
from ..outputs import writing
from ..params import arg_type, as_int
from ..progress import progress_bar
from ..stats import bound_text, interval_text, no_significant_difference
from ..wording import count
from .common import (
    add_command,
    add_word_args,
    context_from_args,
    file_name,
    nonnegative_float,
    nonnegative_int,
    output_path,
    positive_int,
    print_json,
    probability,
    seed_int,
    wrote,
)
from .settings_args import add_settings_args, game_label, policy_genes, settings_from_args


def command_line(args: argparse.Namespace) -> str:
    """The command, every option spelled out, that reproduces this run (for provenance)."""
    parts = ["evo-wordle", args.command]
    for key, value in vars(args).items():
        if key in ("command", "func", "resume", "json", "quiet") or value is None or value is False:
            continue
        flag = "--" + key.rstrip("_").replace("_", "-")
        parts += [flag] if value is True else [flag, str(value)]
    return shlex.join(parts)


def register(sub) -> None:
    p = add_command(
        sub, "evolve-strategy", help="evolve a strategy genome (meta-GA) and save it as a strategy file",
        description="Evolve opener, scoring weights and exploration switch of the strategy solver "
        "with a (mu + lambda) GA. The answers are split three ways from --seed (the split is "
        "printed and stored in --out): fitness on the training answers, the hall-of-fame genome "
        "best on the validation answers wins, and the winner is scored once on the test answers "
        "(its headline figure, with the training mean beside it).",
        examples=[
            ("evo-wordle evolve-strategy --generations 1 --mu 4 --lambda 4 --train 30 --validation 30 --out s.json",
             "a tiny run that writes a strategy file (train/validation/test means and split inside)"),
            ("evo-wordle evolve-strategy --problem P0 --guess-from allowed --final --out s.json",
             "the full meta-GA (resumable with --checkpoint FILE --resume)"),
            ("evo-wordle evolve-strategy --init s.json --generations 4 --seed 1 --out s2.json",
             "start again from an evolved genome; play results with bench --strategy s2.json"),
        ],
    )
    add_word_args(p)
    add_settings_args(p, daily=False, boards=True)
    g = p.add_argument_group("meta-GA")
    g.add_argument("--generations", type=nonnegative_int, default=12, metavar="N",
                   help="generations (default: %(default)s)")
    g.add_argument("--mu", type=positive_int, default=10, metavar="N", help="parents kept (default: %(default)s)")
    g.add_argument("--lambda", dest="lambda_", type=positive_int, default=20, metavar="N",
                   help="offspring per generation (default: %(default)s)")
    g.add_argument("--cxpb", type=probability, default=0.4, metavar="P", help="crossover share (default: %(default)s)")
    g.add_argument("--mutpb", type=probability, default=0.6, metavar="P", help="mutation share (default: %(default)s)")
    g.add_argument("--train", type=positive_int, default=400, metavar="N",
                   help="training answers (default: %(default)s)")
    g.add_argument("--validation", "--holdout", dest="holdout", type=positive_int, default=400, metavar="N",
                   help="validation answers that choose the winner (default: %(default)s)")
    g.add_argument("--select", choices=SELECT_RULES, default="hall",
                   help="the winner: the final hall of fame's best on validation (hall), or the best on "
                   "validation of every genome scored there, each generation's best included (validated) "
                   "(default: %(default)s)")
    g.add_argument("--test", type=positive_int, default=None, metavar="N",
                   help="test answers, scored once at the end (default: every answer left)")
    g.add_argument("--penalty", type=nonnegative_float, default=1.0, metavar="X",
                   help="fitness penalty per game lost: not solved within the win limit (default: %(default)s)")
    g.add_argument("--train-sets", type=arg_type(as_int, 1, MAX_SETS), default=None, metavar="N",
                   help="with --boards N: board sets drawn from the training answers (default: 400)")
    g.add_argument("--validation-sets", type=arg_type(as_int, 1, MAX_SETS), default=None, metavar="N",
                   help="with --boards N: board sets drawn from the validation answers (default: 400)")
    g.add_argument("--test-sets", type=arg_type(as_int, 2, MAX_SETS), default=None, metavar="N",
                   help="with --boards N: board sets drawn from the test answers, played once by the winner "
                   "and by plain summed entropy, at least 2 for the interval of their difference (default: 2000)")
    g.add_argument("--distinct-answers", action="store_true",
                   help="with --boards N: no board set repeats an answer, as in the real Quordle and Octordle "
                   "(training, validation and test sets alike; default: drawn with replacement, so one guess may "
                   "solve two boards)")
    g.add_argument("--rollout", type=nonnegative_int, default=0, metavar="N",
                   help="with --boards N: the winner looks one guess ahead (exact expected guesses, the "
                   "evolved policy playing on) in states whose candidate counts multiply to at most N; "
                   "not evolved, played on the test sets and written to --out (default: 0, off)")
    g.add_argument("--pool", type=nonnegative_int, default=300, metavar="N",
                   help="non-candidate guesses scored per decision, 0 = all (default: %(default)s)")
    g.add_argument("--init", type=file_name, metavar="FILE", help="strategy file the first individual starts from")
    g.add_argument("--seed", type=seed_int, default=0, metavar="S", help="seed of the samples and the GA (default: 0)")
    g.add_argument("--checkpoint", type=output_path, metavar="FILE",
                   help="JSON checkpoint written after every generation (data only); an existing FILE is "
                   "never overwritten: continue it with --resume, or remove it to start again")
    g.add_argument("--resume", action="store_true", help="continue from --checkpoint FILE (which must exist)")
    g.add_argument("--executor", choices=["local", "dask"], default="local",
                   help="where evaluations run (default: local)")
    g.add_argument("--jobs", type=positive_int, default=1, metavar="J", help="parallel evaluations (default: 1)")
    g.add_argument("--scheduler", metavar="ADDR", help="dask scheduler address (with --executor dask)")
    p.add_argument("--out", type=output_path, metavar="FILE", help="strategy file to write (JSON)")
    p.add_argument("--log", type=output_path, metavar="FILE", help="write the per-generation logbook (JSON)")
    p.add_argument("--final", action="store_true",
                   help="score the winner on all answers at the end (its decision tree goes into --out, "
                   "so replays under the same settings are instant)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no per-generation lines and no progress on stderr")
    p.set_defaults(func=cmd_evolve_strategy)
    register_tree(sub)


def cmd_evolve_strategy(args: argparse.Namespace) -> int:
    """One run per checkpoint: a second run pointed at it is refused before it reads or checks it
    (both would overwrite each other's progress); a killed run's lock is taken over by a resume."""
    from ..folder_lock import file_lock

    if not args.checkpoint:
        return evolve_strategy(args)
    with file_lock(Path(args.checkpoint), "evolve-strategy run"):
        return evolve_strategy(args)


def evolve_strategy(args: argparse.Namespace) -> int:
    from ..evolve.metaga import EvolveConfig, genome_key, play_records, split_means, to_individual
    from ..evolve.strategy import load_strategy, save_strategy

    check_checkpoint(args.checkpoint, args.resume)
    settings = settings_from_args(args)
    if args.problem is None and args.guess_from is None:
        settings = settings.with_(guess_from="allowed")  # strategies explore unless told not to
    if settings.boards > 1:
        return evolve_boards(args, settings)
    for flag in ("train_sets", "validation_sets", "test_sets"):
        if getattr(args, flag) is not None:
            raise EvoWordleError(f"--{flag.replace('_', '-')} needs --boards N (one board plays answers, not sets)")
    check_distinct_answers(args.distinct_answers, settings.boards)
    if args.rollout:
        raise EvoWordleError("--rollout needs --boards N (it is the multi-board policy's lookahead)")
    ctx = context_from_args(args)
    init = None
    if args.init:
        init_kind(args.init, "strategy")
        init = load_strategy(args.init).as_dict()
        init_opener(ctx, init["opener"], args.init)
    cfg = EvolveConfig(
        settings=settings, train_size=args.train, holdout_size=args.holdout, test_size=args.test, mu=args.mu,
        lambda_=args.lambda_, generations=args.generations, cxpb=args.cxpb, mutpb=args.mutpb,
        penalty=args.penalty, seed=args.seed, select=args.select, pool=args.pool, init=init,
    )
    start = time.perf_counter()
    ga = run_meta_ga(args, ctx, cfg, "")
    best = ga.best()
    key = genome_key(to_individual(best))
    result: dict = {"genome": best.as_dict(), "plain": best.describe(settings),
                    "fitness": {"train": ga.cache.get(key), "validation": ga.hold_cache.get(key)},
                    "generations": ga.generation, "seconds": round(ga.seconds, 1)}
    # The test answers are touched here, once: every answer is played by the winner, and the
    # means are read per part of the split.
    t0 = time.perf_counter()
    records = play_records(ctx, best, settings, ctx.words.answer_index, args.pool)
    scores = scores_of(records, settings)
    result["means"] = split_means(ctx.words.answer_index, scores, ga.split)
    result["split"] = {"seed": ga.split.seed, **ga.split.sizes()}
    result["all_answers"] = {
        "games": len(scores), "mean_guesses": float(scores.mean()),
        # named by the rule that counts them: "over 6" only while the cap lets games go past 6
        "lost": sum(lost(r, settings) for r in records), "lost_means": settings.fail_text(cap_note=False),
        "worst_guesses": int(scores.max()),
        "seconds": round(time.perf_counter() - t0, 2),
    }
    tree = None
    if args.final:
        from ..evolve.search import tree_json, tree_paths

        tree = tree_json(ctx, tree_paths(records))
    result["total_seconds"] = round(time.perf_counter() - start, 1)
    if args.json:  # the result first: a late write failure cannot lose it
        print_json(result)
    else:
        print(best.describe(settings))
        m, n = result["means"], result["split"]
        print(f"test mean {m['test']:.4f} on {n['test']} never-seen answers (train {m['train']:.4f} on "
              f"{n['train']}, validation {m['validation']:.4f} on {n['validation']}); "
              f"{ga.split.describe()}")
    write_log(args, ga)
    if args.out:
        prov = {"command": command_line(args),
                "seed": args.seed, "settings": settings.as_dict(), "runtime_seconds": result["total_seconds"],
                "means": result["means"], "fitness": result["fitness"],
                "split": ga.split.as_dict(ctx.words.allowed),
                "all_answers": result["all_answers"], "logbook": list(ga.logbook)}
        with writing(args.out):
            save_strategy(args.out, best, prov, tree, settings, ctx.words)
        wrote(args.out, args.json)
    return 0


def init_kind(path: str, wanted: str) -> None:
    """``--init`` takes the kind of file the run evolves: a one-board strategy file, or with
    ``--boards N`` a multi-board parameter file (the loaders' own errors advise a replay)."""
    from ..artefacts import replay_kind
    from ..evolve.strategy import resolve_strategy_path

    found = resolve_strategy_path(path)  # a shipped name too
    kind = replay_kind(found) if found.is_file() else wanted  # a missing file: the loader says so
    if kind == wanted:
        return
    if wanted == "params":
        raise EvoWordleError(f"--init {path} is a one-board strategy file; with --boards N, --init takes a "
                             "multi-board policy file (written by evolve-strategy --boards N)")
    raise EvoWordleError(f"--init {path} is a multi-board policy file; give --boards N to evolve from it "
                         "(one board starts from a strategy file)")


def init_opener(ctx, opener: str, path: str) -> None:
    """The ``--init`` file's opener must be a word of the lists the run evolves on (a file made
    for 6-letter words said only "'senior' is not a 5-letter word")."""
    if not ctx.words.contains(opener):
        raise EvoWordleError(f"--init {path}: its opener {opener!r} is not an allowed word of this list")


def check_checkpoint(path, resume: bool) -> None:
    """Before any work: ``--resume`` needs an existing checkpoint, and a new run never overwrites
    one (the generations it holds would be lost without a word)."""
    if resume and not path:
        raise EvoWordleError("--resume needs --checkpoint FILE")
    if not path:
        return
    exists = Path(path).exists()  # a dangling symlink holds no progress: the first write replaces it
    if resume and not exists:
        raise EvoWordleError(f"checkpoint {path} does not exist: drop --resume to start a new run")
    if not resume and exists:
        raise EvoWordleError(f"checkpoint {path} exists: add --resume to continue it, or remove it to start again")


def write_log(args: argparse.Namespace, ga) -> None:
    """After the result is printed (and flushed): the logbook to ``--log``, if asked."""
    from ..evolve.metaga import save_logbook

    sys.stdout.flush()
    if args.log:
        with writing(args.log):
            save_logbook(args.log, ga.logbook)
        wrote(args.log, args.json)


def run_meta_ga(args: argparse.Namespace, ctx, cfg, unit: str):
    """Run (or resume) the meta-GA of ``cfg`` with progress lines; return it."""
    from ..evolve.metaga import MetaGA, make_executor

    executor = make_executor(args.executor, args.jobs, args.scheduler)
    spec = (args.allowed, args.answers)
    try:
        ga = MetaGA.resume(ctx, cfg, args.checkpoint, executor, spec) if args.resume else MetaGA(ctx, cfg, executor,
                                                                                                spec)
        if not args.json:  # the game beside the figures (--json records it under settings)
            print(f"game: {game_label(cfg.settings)}, answers {ctx.words.label}", flush=True)
            print(ga.split.describe() + unit, flush=True)
        bar = progress_bar(cfg.generations, "evolve-strategy", "generations", not args.quiet,
                           initial=max(ga.generation, 0))

        def show(rec: dict) -> None:
            if not args.quiet and not args.json:
                bar.write(f"gen {rec['gen']:3d}  evals {rec['nevals']:3d}  best {rec['best']:.4f}  "
                          f"mean {rec['mean']:.4f}  holdout {rec['holdout']:.4f}  {rec['seconds']:.0f}s")
            if rec["gen"] > 0:
                bar.update(rec["gen"] - bar.n)

        with bar:
            ga.run(args.checkpoint, progress=show)
    finally:
        if executor is not None:
            from ..executors import terminate

            terminate(executor)
    return ga


def evolve_boards(args: argparse.Namespace, settings) -> int:
    """``evolve-strategy --boards N``: evolve the summed-entropy policy's opener and genes on
    training board sets; the winner (best on validation sets) and plain summed entropy are
    played once on the same test sets; the winner is written as a parameter file that
    ``bench --boards N --params FILE`` replays."""

    from ..artefacts import word_lists
    from ..bench import make_engine
    from ..boards import POLICY_NAME, check_board_settings
    from ..evolve.metaga import BOARD_GENE_NAMES, EvolveConfig, genome_key, split_sets, test_board_genome
    from ..files import atomic_write_text

    check_board_settings(settings)  # before the run begins (the policy would refuse them only then)
    if args.final:
        raise EvoWordleError("--final keeps a decision tree, which several boards do not have (drop --final)")
    if args.pool != 300:
        raise EvoWordleError("--pool applies to one board (the summed-entropy policy scores every allowed word)")
    from ..boards import ROLLOUT_MAX, check_rollout

    if args.rollout > ROLLOUT_MAX:
        raise EvoWordleError(f"--rollout must be at most {ROLLOUT_MAX}, not {args.rollout}")
    check_rollout(args.rollout, settings.boards)  # before the run (the winner's policy would refuse it only then)
    ctx = context_from_args(args)
    init = None
    if args.init:
        from ..evolve.strategy import resolve_strategy_path
        from ..tune import load_params

        init_kind(args.init, "params")
        found = resolve_strategy_path(args.init)  # a shipped policy by name, as --strategy finds it
        data = load_params(found if found.is_file() else args.init)
        if data["solver"] != POLICY_NAME:
            raise EvoWordleError(f"--init {args.init} holds parameters for {data['solver']!r}, not {POLICY_NAME}")
        policy_genes(data["params"], args.init)
        init = {k: v for k, v in data["params"].items() if k in BOARD_GENE_NAMES}
        if "opener" in init:
            init_opener(ctx, init["opener"], args.init)
        try:  # every parameter the file holds, as a replay of it checks them: a cache_size of "abc"
            # was accepted without a word, a weight of 5 blamed on a --weight flag nobody gave
            make_engine(ctx, POLICY_NAME, settings, data["params"])
        except EvoWordleError as exc:
            raise EvoWordleError(f"--init {args.init}: {exc}") from None
    test_sets = args.test_sets or 2000
    cfg = EvolveConfig(
        settings=settings, train_size=args.train, holdout_size=args.holdout, test_size=args.test, mu=args.mu,
        lambda_=args.lambda_, generations=args.generations, cxpb=args.cxpb, mutpb=args.mutpb,
        penalty=args.penalty, seed=args.seed, select=args.select, init=init, train_sets=args.train_sets or 400,
        holdout_sets=args.validation_sets or 400, distinct_answers=args.distinct_answers,
    )
    start = time.perf_counter()
    distinct = " (distinct answers)" if cfg.distinct_answers else ""
    ga = run_meta_ga(args, ctx, cfg, f"; board sets{distinct}: train {cfg.train_sets}, validation {cfg.holdout_sets}, "
                     f"test {test_sets}")
    best = ga.best()
    genes = [best[name] for name in BOARD_GENE_NAMES]
    key = genome_key(genes)
    # The test sets are played here, once, by the winner and by the plain policy.
    t0 = time.perf_counter()
    sets = split_sets(cfg, ga.split, test_sets)
    failed = settings.fail_text()
    result: dict = {"genome": best, "boards": settings.boards, "settings": settings.as_dict(),
                    "fitness": {"train": ga.cache.get(key), "validation": ga.hold_cache.get(key)},
                    "generations": ga.generation, "seconds": round(ga.seconds, 1), "split": {
                        "seed": ga.split.seed, **ga.split.sizes(), "train_sets": cfg.train_sets,
                        "validation_sets": cfg.holdout_sets, "test_sets": test_sets,
                        # only when on: files and JSON of runs with replacement stay as they were
                        **({"distinct_answers": True} if cfg.distinct_answers else {})},
                    **test_board_genome(ctx, genes, settings, sets["test"], args.rollout),
                    # the figures drawn from this JSON name lists other than the default (plots.metaga)
                    "word_lists": word_lists(ctx.words, args.allowed, args.answers)}
    result["test_seconds"] = round(time.perf_counter() - t0, 1)
    result["total_seconds"] = round(time.perf_counter() - start, 1)
    ev, se, so = result["evolved"], result["summed_entropy"], result["summed_entropy_same_opener"]
    if args.json:
        print_json(result)
    else:
        print("genome: " + ", ".join(f"{k} {v}" if k == "opener" else f"{k} {v:.3f}" for k, v in best.items()))
        of = " of distinct answers" if cfg.distinct_answers else ""
        print(f"test mean {ev['test_mean']:.4f} on {test_sets} never-seen board sets{of}, {ev['test_failures']} "
              f"{failed}; on the same sets plain summed entropy {se['test_mean']:.4f} ({se['test_failures']} "
              f"{failed}), with the evolved opener {best['opener'].upper()} {so['test_mean']:.4f}; training fitness "
              f"{result['fitness']['train']:.4f}, validation {result['fitness']['validation']:.4f}")
        if args.rollout:
            d = result["rollout_gain"]
            print(f"with --rollout {args.rollout}; without it {result['evolved_without_rollout']['test_mean']:.4f}, "
                  f"the lookahead's gain set by set {bound_text(d['mean'])} {interval_text(d)} (95 %)")
        d = result["evolved_minus_summed_entropy"]
        print(f"evolved − summed entropy, set by set: {bound_text(d['mean'])} {interval_text(d)} (95 %): "
              + ("significant" if d["significant"] else no_significant_difference(d, "board sets")))
    write_log(args, ga)
    if args.out:
        import json

        from ..artefacts import made_for
        from ..tune import PARAMS_FORMAT

        params = {**best, "rollout": args.rollout} if args.rollout else best
        doc = {"format": PARAMS_FORMAT, "version": 1, "solver": POLICY_NAME, "params": params,
               "settings": settings.as_dict(), "made_for": made_for(settings, ctx.words),
               "provenance": {"command": command_line(args), "split": ga.split.as_dict(ctx.words.allowed),
                              **{k: result[k] for k in ("fitness", "evolved", "summed_entropy",
                                                        "summed_entropy_same_opener", "evolved_minus_summed_entropy",
                                                        "evolved_without_rollout", "rollout_gain", "generations")
                                 if k in result},
                              "sets": result["split"], "runtime_seconds": result["total_seconds"],
                              "logbook": list(ga.logbook)}}
        with writing(args.out):
            atomic_write_text(args.out, json.dumps(doc, indent=1) + "\n")
        wrote(args.out, args.json)
    return 0


#: ga-tree's flags that only mean something beside another, with the value they play at.
TREE_DEFAULTS = {"search_population": SEARCH_DEFAULTS[0], "search_generations": SEARCH_DEFAULTS[1], "exact_limit": 6,
                 "bound_seconds": 120.0}


def register_tree(sub) -> None:
    p = add_command(
        sub, "ga-tree", help="build a ga-search decision tree for every answer and export it",
        description="Play --solver ga-search on every answer (or --games N of them), write the tree "
        "(one line per answer with its guess path) to --tree and, with --out, a strategy file "
        "that bench/solve/assist play instantly with --strategy.",
        examples=[
            ("evo-wordle ga-tree --candidates answers --guess-from allowed --games 20 --tree t.txt",
             "a tree for a seeded sample of 20 answers (seconds)"),
            ("evo-wordle ga-tree --candidates answers --guess-from allowed --tree t.txt --out t.json",
             "every answer, plus a strategy file for bench/solve/assist --strategy t.json"),
            ("evo-wordle ga-tree --candidates answers --guess-from allowed --exact --bound --tree t.txt",
             "the optimal tree for SALET by branch and bound, with its lower bound (gap 0 = proof)"),
            ("evo-wordle ga-tree --candidates answers --guess-from allowed --exact --width 10 --tree t.txt",
             "branch and bound over the 10 best-ordered guesses per node (seconds, not a proof)"),
        ],
    )
    add_word_args(p)
    add_settings_args(p, daily=False, boards=True)
    p.add_argument("--opener", metavar="WORD", help="first guess (default: salet)")
    p.add_argument("--search-population", type=arg_type(as_int, 1, SEARCH_MAX), metavar="N",
                   help=f"words per decision GA, at most {SEARCH_MAX:,}, and population × (1 + generations) at "
                   f"most {SEARCH_WORDS:,} (default: {TREE_DEFAULTS['search_population']}; not with --exact)")
    p.add_argument("--search-generations", type=arg_type(as_int, 0, SEARCH_GENERATIONS_MAX), metavar="N",
                   help=f"generations per decision, at most {SEARCH_GENERATIONS_MAX} "
                   f"(default: {TREE_DEFAULTS['search_generations']}; not with --exact)")
    p.add_argument("--exact-limit", type=arg_type(as_int, 0, EXACT_LIMIT_MAX), metavar="N",
                   help=f"parts of at most N answers are finished by exact search, N at most {EXACT_LIMIT_MAX} "
                   f"(default: {TREE_DEFAULTS['exact_limit']}; not with --exact, which searches every part)")
    p.add_argument("--seed", type=seed_int, default=0, metavar="S", help="seed of the sample and the GAs (default: 0)")
    p.add_argument("--games", type=positive_int, metavar="N", help="only a seeded sample of N answers")
    p.add_argument("--tree", type=output_path, metavar="FILE", required=True, help="tree file to write")
    p.add_argument("--out", type=output_path, metavar="FILE", help="also write a strategy file carrying the tree")
    g = p.add_argument_group("branch and bound (issue 14)")
    g.add_argument("--exact", action="store_true",
                   help="build the tree by branch and bound on the total number of guesses instead of the GA: "
                   "the optimum for the opener (within --depth-limit), unless --width limits it")
    g.add_argument("--width", type=positive_int, metavar="K",
                   help="with --exact: try only the K best-ordered guesses at each node (much faster; "
                   "the best tree built from them, not a proof)")
    g.add_argument("--objective", choices=["mean", "max", "mean-then-max"], default="mean",
                   help="with --exact: mean = the fewest total guesses; max = the smallest worst case (the "
                   "fewest guesses that always suffice), then the fewest total within it; mean-then-max = "
                   "the fewest total guesses, then the smallest worst case among such trees; all within the "
                   "cap (default: %(default)s)")
    g.add_argument("--depth-limit", type=nonnegative_int, metavar="N",
                   help="with --exact: every answer solved within N guesses, at most --max-guesses "
                   "(default: --max-guesses if given, else the game's win limit, 6; 0 = no limit)")
    g.add_argument("--bound", action="store_true",
                   help="also report a lower bound on the total for this opener and the gap (tree - bound); "
                   "gap 0 proves the tree optimal")
    g.add_argument("--bound-seconds", type=nonnegative_float, metavar="S",
                   help=f"with --bound: time for the exhaustive searches behind it (default: "
                   f"{TREE_DEFAULTS['bound_seconds']:g}; not with an exhaustive --exact tree, its own bound)")
    p.add_argument("--json", action="store_true",
                   help="print the summary as JSON (with total_guesses, max_guesses, seconds, lower_bound)")
    p.set_defaults(func=cmd_ga_tree)


def cmd_ga_tree(args: argparse.Namespace) -> int:
    import numpy as np

    from ..bench import check_games, run_bench
    from ..evolve.search import tree_json, tree_paths, write_tree
    from ..evolve.strategy import Strategy, save_strategy

    settings = settings_from_args(args)
    if settings.boards > 1:  # was "2 boards need one answer per board in each game, not (20,)"
        raise EvoWordleError(f"ga-tree builds one-board trees, not --boards {settings.boards}: play several boards "
                             f"with bench --boards {settings.boards} (ga-search searches their decisions too)")
    ctx = context_from_args(args)
    if not args.exact and (args.width is not None or args.depth_limit is not None or args.objective != "mean"):
        raise EvoWordleError("--width, --depth-limit and --objective need --exact")
    _check_tree_flags(args)
    answers = ctx.words.answer_index
    if args.games:
        check_games(args.games, len(answers))
        rng = np.random.default_rng(np.random.SeedSequence(args.seed))
        answers = np.sort(rng.choice(answers, args.games, replace=False))
    start = time.perf_counter()
    exact_info: dict = {}
    if args.exact:
        paths, exact_info = _exact_tree(ctx, settings, args)
        paths = {a: paths[a] for a in answers.tolist()}
        with writing(args.tree):
            write_tree(ctx, args.tree, paths, settings)
        # the tree is replayed by the ordinary solver: every move is checked against the game
        result = run_bench(ctx, "ga-search", settings, answers, args.seed, {"tree": args.tree})
        if tree_paths(result.records) != paths or not all(r.solved for r in result.records):
            raise EvoWordleError("the branch-and-bound tree did not replay to itself (a bug; please report it)")
    else:
        params = {"population": args.search_population, "generations": args.search_generations,
                  "exact_limit": args.exact_limit, "seed": args.seed}
        if args.opener:
            params["opener"] = args.opener
        result = run_bench(ctx, "ga-search", settings, answers, args.seed, params)
        paths = tree_paths(result.records)
    seconds = time.perf_counter() - start
    unsolved = [ctx.words.allowed[r.answer] for r in result.records if not r.solved]
    summary = {**result.summary(), "total_guesses": int(sum(len(p) for p in paths.values())),
               "max_guesses": result.worst_guesses, "seconds": round(seconds, 2),
               "build_seconds": round(seconds, 1), "tree": str(args.tree), "method": "exact" if args.exact else "ga"}
    if args.exact:
        summary["settings"] = {**settings.as_dict(), "solver": "ga-search", "opener": exact_info["opener"],
                               "width": args.width, "depth_limit": exact_info["depth_limit"],
                               "depth_cap": exact_info["depth_cap"]}
        summary["search"] = exact_info["stats"]
        found = exact_info["objective"]
        summary.update({"objective": args.objective, "total_proven": found["total_proven"],
                        "worst_case_proven": found["worst_case_proven"], "objective_search": found})
    if args.bound:
        summary.update(_tree_bound(ctx, settings, args, paths, exact_info))
    if args.json:  # the result first: a late write failure cannot lose it
        print_json(summary)
    else:
        opener = ctx.words.allowed[next(iter(paths.values()))[0]].upper()  # the figures depend on it
        sample = f" (a sample, seed {args.seed})" if args.games else ""
        print(f"{count(result.games, 'answer')}{sample}, opener {opener}: total {summary['total_guesses']}, "
              f"mean {result.mean_guesses:.4f}, "
              f"worst {result.worst_guesses}, histogram {result.histogram}; built in {seconds:.1f} s"
              + (f" by branch and bound ({_exact_words(args)})" if args.exact else "")
              + (f"; {len(unsolved)} NOT SOLVED within {settings.max_guesses}" if unsolved else ""))
        if args.exact and args.objective != "mean":
            print(_objective_line(summary["objective_search"]))
        if args.bound:
            gap = summary["gap"]
            print(f"lower bound {summary['lower_bound']} ({summary['bound_note']}): gap {gap}"
                  + (" - the tree is optimal" if gap == 0 else "")
                  + f"; {summary['parts_settled']} of {summary['parts']} opener parts proven optimal")
    sys.stdout.flush()
    if unsolved:  # a tree file holds solved paths: one that stops short is refused by every reader
        raise EvoWordleError(f"{count(len(unsolved), 'answer')} of {result.games} not solved within max_guesses "
                             f"{settings.max_guesses} (first: {unsolved[0]!r}), so no tree file is written: "
                             "give a higher --max-guesses")
    if not args.exact:
        with writing(args.tree):
            write_tree(ctx, args.tree, paths, settings)
    wrote(args.tree, args.json)
    if args.out:
        opener = ctx.words.allowed[next(iter(paths.values()))[0]]
        genome = Strategy(opener=opener, steepness=0.0)
        prov = {"command": command_line(args), "seed": args.seed,
                "settings": settings.as_dict(), "runtime_seconds": round(seconds, 1),
                "mean_guesses": result.mean_guesses, "histogram": result.histogram}
        with writing(args.out):
            save_strategy(args.out, genome, prov, tree_json(ctx, paths), settings, ctx.words)
        wrote(args.out, args.json)
    return 0


def _check_tree_flags(args: argparse.Namespace) -> None:
    """Refuse a flag the tree being built never reads (it was ignored), then fill in the
    defaults: the decision GA's flags under --exact, --bound-seconds without --bound or under an
    exhaustive --exact tree (which is its own bound)."""
    given = [k for k in TREE_DEFAULTS if getattr(args, k) is not None]
    flag = {k: "--" + k.replace("_", "-") for k in TREE_DEFAULTS}
    ga_only = [flag[k] for k in given if k != "bound_seconds"]
    if args.exact and ga_only:
        raise EvoWordleError(f"{ga_only[0]} is for the GA's tree: --exact builds it by branch and bound "
                             "(drop one of them)")
    if "bound_seconds" in given and not args.bound:
        raise EvoWordleError("--bound-seconds needs --bound (it is the time for the bound's searches)")
    if "bound_seconds" in given and args.exact and args.width is None:
        raise EvoWordleError("--bound-seconds means nothing for an exhaustive --exact tree (it is its own bound, "
                             "found without a search): drop it, or give --width")
    for k, value in TREE_DEFAULTS.items():
        if getattr(args, k) is None:
            setattr(args, k, value)


def _exact_words(args: argparse.Namespace) -> str:
    return f"the {args.width} best guesses per node" if args.width else "exhaustive"


def _objective_line(found: dict) -> str:
    """What ``--objective max|mean-then-max`` found and proved, in one line (for the whole
    tree, also when ``--games`` shows a sample of it)."""
    tried = ", ".join(f"{a['depth_limit']}: " + (f"{a['total']}" if a["total"] is not None else "fails")
                      for a in found["attempts"])
    head = f"objective {found['objective']}: {found['worst_case_note']}"
    if found["objective"] == "max":
        head += f"; least total within {found['depth_limit']}: {found['total']}"
    return head + f" (totals by depth limit: {tried})"


def _depth_limit(settings, args: argparse.Namespace) -> int | None:
    """Guesses within which every answer must be solved (None: no limit).

    ``--max-guesses`` is the game's hard cap, so the tree keeps to it; ``--depth-limit`` may
    only tighten it.  With neither flag the cap is the game's win limit (6 for one board),
    not the generic 9 of ``--max-guesses``' default."""
    given_cap = getattr(args, "max_guesses", None)
    if args.depth_limit is None:
        return given_cap if given_cap is not None else settings.win_limit
    if args.depth_limit == 0:
        if given_cap is not None:
            raise EvoWordleError(f"--depth-limit 0 (no limit) contradicts --max-guesses {given_cap}: drop one of them")
        return None
    if args.depth_limit > settings.max_guesses:
        raise EvoWordleError(f"--depth-limit {args.depth_limit} exceeds the guess cap {settings.max_guesses} "
                             "(--max-guesses): a tree cannot need more guesses than the game allows")
    return args.depth_limit


def _opener(ctx, args: argparse.Namespace) -> int | None:
    if args.opener:
        return ctx.words.index(args.opener)
    return ctx.words.index("salet") if ctx.words.contains("salet") else None


def _exact_tree(ctx, settings, args: argparse.Namespace) -> tuple[dict[int, list[int]], dict]:
    """The branch-and-bound tree over every candidate of the game, and how the search went."""
    from ..evolve.bnb import TreeSearch
    from ..evolve.objectives import optimise

    search = TreeSearch(ctx, settings.guess_from, settings.hard, args.width)
    cap = _depth_limit(settings, args)
    found = optimise(search, ctx.candidates(settings.candidates), _opener(ctx, args), cap, args.objective)
    paths = found.paths
    first = next(iter(paths.values()))[0]
    return paths, {"depth_limit": found.depth_limit, "depth_cap": cap, "stats": search.stats.as_dict(),
                   "opener": ctx.words.allowed[first], "objective": found.as_dict()}


def _tree_bound(ctx, settings, args: argparse.Namespace, paths: dict[int, list[int]], exact_info: dict) -> dict:
    """``lower_bound`` and ``gap`` of the tree for its opener, and how they were proven.

    An exhaustive --exact tree is its own certificate.  Otherwise each part the opener leaves
    gets an exhaustive search with rising thresholds (evolve/bnb.certify) within
    --bound-seconds; for a GA tree the bound ignores any depth limit (it holds for every tree).
    """
    import numpy as np

    from ..evolve.bnb import TreeSearch, certify

    cand = ctx.candidates(settings.candidates)
    total = sum(len(p) for p in paths.values())
    if len(paths) != len(cand):
        raise EvoWordleError("--bound needs the tree of every answer (leave out --games)")
    opener = next(iter(paths.values()))[0]
    helper = TreeSearch(ctx, settings.guess_from, settings.hard)
    parts = list(helper.parts(opener, cand))
    upper = [sum(len(paths[a]) - 1 for a in part.tolist()) for part, _ in parts]
    if args.exact and args.width is None:
        cert_total, settled, note = total, len(parts), "exhaustive branch and bound"
        seconds = 0.0
    else:
        depth = exact_info.get("depth_limit") if args.exact else None
        cert = certify(ctx, parts, upper, settings.guess_from, settings.hard,
                       None if depth is None else depth - 1, args.bound_seconds)
        cert_total = len(cand) + cert.total
        settled, seconds = int(np.sum(cert.settled)), round(cert.seconds, 2)
        note = f"exhaustive search of each part within {args.bound_seconds:g} s"
    limit = exact_info.get("depth_limit") if args.exact else None
    if limit:
        note += f", trees within {count(limit, 'guess', 'guesses')}"
    return {"lower_bound": int(cert_total), "gap": int(total - cert_total), "parts": len(parts),
            "parts_settled": settled, "bound_seconds": seconds, "bound_note": note}
