"""Playing commands: ``solve`` (one game, shown as coloured tiles) and ``assist`` (help with today's puzzle)."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from .. import console, patterns
from ..assist import AssistSession, run_assist, terminal_reader
from ..boards import POLICY_NAME, SummedEntropy, play_boards
from ..errors import EvoWordleError, ImpossibleFeedback
from ..files import atomic_write_text
from ..game import MAX_BOARDS, GameState, Settings, play
from ..outputs import writing
from ..solvers import make_solver
from ..wording import plural
from .common import (
    add_command,
    add_solver_options,
    add_word_args,
    check_solver_flags,
    color_enabled,
    context_from_args,
    output_path,
    params_file_for,
    positive_int,
    seed_int,
    solver_list,
    solver_params,
    with_opener,
    wrote,
)
from .settings_args import add_settings_args, board_policy_file, board_policy_params, run_context, settings_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "solve", help="play one game and show it as coloured tiles",
        description="Play one game against ANSWER and print every guess with the candidates left. "
        "Several answers play a multi-board game (Dordle, Quordle, …) with the summed-entropy policy. "
        "Piped output shows the tiles as letters: G green, Y yellow, B grey.",
        examples=[("evo-wordle solve crane", "the greedy baseline on CRANE"),
                  ("evo-wordle solve merry --solver ga --seed 3 --log run.json",
                   "the tuned GA; run.json holds the game, its hall of fame and logbook (as words)"),
                  ("evo-wordle solve crane spill --boards 2", "a Dordle game")],
        extra=solver_list(),
    )
    p.add_argument("answer", nargs="+", metavar="ANSWER", help="the hidden word (several: one per board)")
    p.add_argument("--solver", default=None, metavar="NAME",
                   help=f"solver name, see the list below (default: greedy; {POLICY_NAME} for several boards)")
    p.add_argument("--seed", type=seed_int, default=0, help="seed for stochastic solvers (default 0)")
    p.add_argument("--log", type=output_path, metavar="FILE",
                   help="write the game (and a GA solver's per-generation logbook) as JSON")
    add_settings_args(p, daily=False, boards=True)
    add_solver_options(p)
    add_word_args(p)
    p.set_defaults(func=cmd_solve)

    p = add_command(
        sub, "assist", help="help play today's puzzle (reads your guesses and colours)",
        description="Suggests each guess; type another word or press Enter to accept, then the colours "
        "you got, one digit, letter or square per tile (20110, GBYYB or pasted 🟩⬛🟨🟨⬛ for five letters; "
        "'help' shows them at the game's word length). After every change the board is drawn again with the "
        "candidates left and the expected number of guesses to finish. Commands: 'undo' takes back a "
        "guess, 'list answers' / 'list allowed' switches who may be the answer, 'help' lists the "
        "commands, 'quit' or end of input stops. On a terminal the prompt has line editing and history.",
        examples=[("evo-wordle assist --candidates answers", "help with today's puzzle, the answer list known"),
                  ("evo-wordle assist --strategy data/strategies/answers-known-salet.json --candidates answers "
                   "--guess-from allowed", "follow the evolved decision tree (3.42 guesses on average)"),
                  ("evo-wordle assist --hard --top 3", "hard mode, three alternatives per turn")],
        extra=solver_list(),
    )
    p.add_argument("--solver", default="greedy", metavar="NAME",
                   help="solver that makes the suggestions, see the list below (default: greedy)")
    p.add_argument("--seed", type=seed_int, default=0, help="seed for stochastic solvers (default 0)")
    p.add_argument("--top", type=positive_int, default=5, metavar="N", help="alternatives to show (default 5)")
    p.add_argument("--show", type=positive_int, default=8, metavar="N", help="candidates to list (default 8)")
    add_settings_args(p, daily=False, boards=False)
    add_solver_options(p)
    add_word_args(p)
    p.set_defaults(func=cmd_assist)


def _jsonable(obj):
    """json.dump fallback for numpy values (and anything else a logbook may hold)."""
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return str(obj)


def _write_log(path, payload: dict) -> None:
    """Write the game log (after the game was printed, so a failure loses nothing; atomically,
    so a symlink at ``path`` is replaced, never written through)."""
    sys.stdout.flush()
    with writing(path):
        atomic_write_text(path, json.dumps(payload, indent=2, default=_jsonable) + "\n")
    wrote(path)


def _game_rng(seed: int) -> np.random.Generator:
    """The generator the bench would give game 0 of ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])


def _check_answers(ctx, settings: Settings, words: list[str], answers: list[int]) -> None:
    """Refuse up front an answer the solver is told cannot be one (``--candidates answers``/P1/P3)."""
    if settings.candidates != "answers":
        return
    outside = [w for w, a in zip(words, answers) if a not in set(ctx.words.answer_index.tolist())]
    if outside:
        raise EvoWordleError(
            f"{outside[0]!r} is not in the answer list, and --candidates answers (P1/P3) only considers "
            "those; use --candidates allowed (P0) or another answer"
        )


def cmd_solve(args: argparse.Namespace) -> int:
    name = args.solver or "greedy"
    if len(args.answer) > 1 or (args.boards or 1) > 1 or name == POLICY_NAME:
        ctx = context_from_args(args)
        return _solve_boards(args, ctx, [ctx.words.index(w) for w in args.answer])
    file = board_policy_file(args) if name == "strategy" else None
    if file:  # one answer: the loader's message sent the user to bench or compare only
        from ..tune import load_params

        made = load_params(file).get("made_for")
        boards = made.get("boards") if isinstance(made, dict) else None
        raise EvoWordleError(f"{args.strategy} is a multi-board policy ({boards} boards): give one answer per board "
                             f"to solve, or replay it with bench or compare --strategy")
    ctx, settings = run_context(args, [name])
    answers = [ctx.words.index(w) for w in args.answer]
    _check_answers(ctx, settings, args.answer, answers)
    solver = make_solver(name, ctx, settings, **solver_params(name, args))
    solver.reset(_game_rng(args.seed))
    answer = answers[0]
    state = GameState.start(ctx, settings)
    record = play(solver, state, answer, settings)
    color = color_enabled()
    if not color:
        print(patterns.PLAIN_LEGEND)
    n = ctx.words.length
    rows = []
    for guess in record.guesses:
        pattern = int(ctx.table[guess, answer])
        word = ctx.words.allowed[guess]
        if pattern != ctx.words.solved:
            try:
                state = state.after(guess, pattern)
                left = len(state.candidates)
            except ImpossibleFeedback:
                left = 0
            note = f"{left:,} candidate{'s' if left != 1 else ''} left"
        else:
            left, note = 1, "solved"
        rows.append(
            {"guess": word, "pattern": patterns.to_digits(pattern, n), "code": pattern, "candidates_left": left}
        )
        print(f"{patterns.tiles(word, pattern, color=color)}  {note}")
    count = len(record.guesses)
    if record.solved:
        print(f"{name}: solved {ctx.words.allowed[answer].upper()} in {count} guess{'es' if count != 1 else ''}")
    else:
        why = "" if answer in state.candidates or len(state.candidates) else " (the answer is outside the candidates)"
        cap = f"{settings.max_guesses} {plural(settings.max_guesses, 'guess', 'guesses')}"
        print(f"{name}: not solved within {cap}{why}: {ctx.words.allowed[answer].upper()}")
    if args.log:
        payload = {
            "answer": ctx.words.allowed[answer],
            "solver": name,
            "params": solver.describe(),
            "settings": settings.as_dict(),
            "seed": args.seed,
            "solved": record.solved,
            "guesses": count,
            "rows": rows,
        }
        logbook = getattr(solver, "logbook", None)
        if logbook is not None:
            payload["logbook"] = [dict(entry) for entry in logbook]
        hof = getattr(solver, "hall_of_fame_words", None)
        if hof is not None:  # per decision (turn), words with their fitness, best first (never indices)
            payload["hall_of_fame"] = hof()
        _write_log(args.log, payload)
    return 0


def _solve_boards(args: argparse.Namespace, ctx, answers: list[int]) -> int:
    """Several answers: one board each, guesses by the summed-entropy policy (with the genes and
    the game of a multi-board policy file, if ``--strategy`` names one)."""
    params = board_policy_params(args) if args.solver == "strategy" else None
    file = board_policy_file(args) if params is not None else None
    if args.solver == "strategy" and params is None and getattr(args, "strategy", None):
        raise EvoWordleError(f"several boards are played by the {POLICY_NAME} policy; {args.strategy} is a one-board "
                             "strategy file (a multi-board policy is written by evolve-strategy --boards N)")
    if args.solver not in (None, POLICY_NAME) and params is None:
        raise EvoWordleError(f"several boards are played by the {POLICY_NAME} policy; drop --solver {args.solver}")
    check_solver_flags(["strategy" if params is not None else POLICY_NAME], args)  # --population … were ignored
    if args.boards is not None and args.boards != len(answers):  # --boards 1 too: never ignored
        raise EvoWordleError(f"--boards {args.boards} needs {args.boards} {plural(args.boards, 'answer', 'answers')}, "
                             f"got {len(answers)}")
    if len(answers) > MAX_BOARDS:  # said as "--boards must be …", a flag the user did not give
        raise EvoWordleError(f"solve plays at most {MAX_BOARDS} boards, one per answer, not {len(answers)} answers")
    args.boards = len(answers)
    if params is None and getattr(args, "params", None):  # --params FILE: its genes (were ignored) and game
        params = with_opener(params_file_for(POLICY_NAME, args), args)
        file = args.params
        ctx, settings = run_context(args, [POLICY_NAME])
    elif params is None:
        settings: Settings = settings_from_args(args)
        params = {"opener": getattr(args, "opener", None)}
    else:  # the file's game (a board count other than its own is refused there)
        ctx, settings = run_context(args, ["strategy"])
    _check_answers(ctx, settings, args.answer, answers)
    policy = SummedEntropy(ctx, settings, **params)
    record = play_boards(policy, tuple(answers), settings.max_guesses)
    color = color_enabled()
    if not color:
        print(patterns.PLAIN_LEGEND)
    n = ctx.words.length
    boards = {b: policy.full_board() for b in range(len(answers))}
    blank = " " * (3 * n if color else 3 * n - 1)  # the visible width of one row of tiles
    rows = []
    for turn, guess in enumerate(record.guesses, 1):
        word = ctx.words.allowed[guess]
        cells, lefts = [], []
        for b, answer in enumerate(answers):
            if b not in boards:
                cells.append(blank)
                lefts.append(0)
                continue
            pattern = int(ctx.table[guess, answer])
            cells.append(patterns.tiles(word, pattern, color=color))
            if pattern == ctx.words.solved:
                del boards[b]
                lefts.append(0)
            else:
                board = boards[b]
                boards[b] = board[ctx.table[guess, policy.universe[board]] == pattern]
                lefts.append(len(boards[b]))
        rows.append({"guess": word, "candidates_left": lefts})
        print(f"{turn:>2}  " + "  ".join(cells) + "   left " + " ".join(str(k) for k in lefts))
    count = len(record.guesses)
    names = " ".join(ctx.words.allowed[a].upper() for a in answers)
    label = POLICY_NAME if file is None else f"{POLICY_NAME} ({args.strategy or args.params})"  # not the plain one
    if record.solved:
        print(f"{label}: solved {len(answers)} {plural(len(answers), 'board', 'boards')} ({names}) in {count} "
              f"{plural(count, 'guess', 'guesses')}")
    else:
        cap = f"{settings.max_guesses} {plural(settings.max_guesses, 'guess', 'guesses')}"
        print(f"{label}: not solved within {cap}: {names}")
    if args.log:
        _write_log(args.log, {
            "answers": [ctx.words.allowed[a] for a in answers],
            "solver": POLICY_NAME,
            "strategy": file,
            "params": policy.describe(),
            "settings": settings.as_dict(),
            "solved": record.solved,
            "guesses": count,
            "solved_at": list(record.solved_at),
            "rows": rows,
        })
    return 0


def _solver_prior(solver, params: dict):
    """(weights, mix, what they are) of the prior a strategy solver decides by: the one its file
    stores, else its genome's own (frequency curve, multipliers and uniform mix); (None, 0.0, "")
    for other solvers. Assist shows the candidates by it, as the solver weighs them."""
    from ..evolve.strategy import StrategySolver

    if not isinstance(solver, StrategySolver):
        return None, 0.0, ""
    policy, name = solver.policy, params.get("strategy")
    if solver.prior_about:  # the file's stored prior replaced the genome's
        about = f"the prior stored in strategy file {name}"
    elif name:
        about = f"the prior of the genome in strategy file {name} (its frequency curve, multipliers and mix)"
    else:
        about = "the default strategy genome's prior (its frequency curve)"
    return policy.prior, policy.mix, about


def cmd_assist(args: argparse.Namespace) -> int:
    ctx, settings = run_context(args, [args.solver])
    params = solver_params(args.solver, args)

    def build(s: Settings):
        solver = make_solver(args.solver, ctx, s, **params)
        solver.reset(_game_rng(args.seed))
        return solver

    solver = build(settings)
    prior, mix, about = _solver_prior(solver, params)
    session = AssistSession(ctx, settings, solver, make_solver=build, prior=prior, prior_about=about, mix=mix)
    read = terminal_reader() if sys.stdin.isatty() else None  # piped: plain lines, as tests drive it
    console.release_warnings()  # the session starts: its warnings belong above the first suggestion
    return run_assist(session, sys.stdin, sys.stdout, color=color_enabled(), top=args.top, show=args.show, read=read)
