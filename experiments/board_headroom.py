"""How much better could the shipped multi-board policies play their second guess?

Issue 17's goals (Dordle ≤ 4.688, Quordle ≤ 6.80, Octordle ≤ 10.55 on the test sets) are unmet,
and nobody knows the optimum.  This study measures the one-step headroom at the decision that
costs most, the second guess: is there a guess the policy should have played instead?

For each of the first K validation board sets of a shipped file (``NAME-evolved``; sets its
evolution was selected on, never the test sets): the state after the file's opener; the
policy's own second guess and the W best others by its score; each played on S answer tuples
drawn from the state's candidates (each board uniform over its own, boards independent: the
state's exact posterior), with the shipped policy (its genes and lookahead) playing on after it.
The guess of least mean game length is *selected* on those S tuples and then measured against
the policy's own guess on S *fresh* tuples: selecting the least of W + 1 noisy means favours
luck, the fresh draw does not.  The mean fresh gain over the states, with its 95 % interval, is
the expected number of guesses one step of policy improvement at the second guess would save
(restricted to the W + 1 guesses; 0 where the policy's own guess is selected).

    python experiments/board_headroom.py [--boards 8 4 2] [--states 24 12 12] [--width 12]
        [--samples 160] [--seed 0] [--jobs 2] [--out DIR]

Results are identical for any --jobs (each state draws from its own SeedSequence child).
Writes board_headroom.json under --out (default experiments/out/board_headroom, untracked);
the registry (``reproduce.py --only board-headroom``) holds the figures the docs quote.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from _study import add_output_args, summary_dir, write_json

from evo_wordle import Context
from evo_wordle.artefacts import settings_of
from evo_wordle.boards import SummedEntropy
from evo_wordle.evolve.metaga import BOARD_GENE_NAMES, board_policy, file_sets
from evo_wordle.evolve.strategy import resolve_strategy_path
from evo_wordle.stats import interval
from evo_wordle.tune import load_params

NAMES = {2: "dordle-evolved", 4: "quordle-evolved", 8: "octordle-evolved"}


_POLICIES: dict = {}  # per process: the policy keeps its board-entropy cache across states


def shipped_policy(ctx: Context, boards: int) -> tuple[SummedEntropy, dict]:
    """The shipped file's policy (genes and lookahead) and the file."""
    key = (id(ctx), boards)
    if key in _POLICIES:
        return _POLICIES[key]
    doc = load_params(resolve_strategy_path(NAMES[boards]))
    settings = settings_of(doc["made_for"], NAMES[boards])
    params = doc["params"]
    genes = [params[name] for name in BOARD_GENE_NAMES]
    _POLICIES[key] = board_policy(ctx, genes, settings, params.get("rollout", 0)), doc
    return _POLICIES[key]


def _context() -> Context:
    """One Context per process (workers build theirs once)."""
    if "ctx" not in _POLICIES:
        _POLICIES["ctx"] = Context()
    return _POLICIES["ctx"]


def after(policy: SummedEntropy, boards: list, answers, guess: int) -> tuple[list, list]:
    """The unsolved boards (each cut to the candidates that give its answer's feedback) and their
    answers (universe positions) once ``guess`` is played."""
    row, universe, solved = policy.ctx.table[guess], policy.universe, policy.ctx.words.solved
    kept = [(b[row[universe[b]] == row[universe[a]]], int(a)) for b, a in zip(boards, answers)
            if row[universe[a]] != solved]
    return [b for b, _ in kept], [a for _, a in kept]


def game_length(policy: SummedEntropy, boards: list[np.ndarray], answers: list[int], turn: int) -> int:
    """Guesses the whole game takes when ``policy`` plays on from ``boards`` at ``turn`` (each
    board's answer a universe position in ``answers``); a failure counts as the cap."""
    cap = policy.settings.max_guesses
    while boards:
        if turn == cap:
            return cap
        boards, answers = after(policy, boards, answers, policy.choose(boards, turn))
        turn += 1
    return turn


def after_guess(policy: SummedEntropy, boards: list[np.ndarray], guess: int, tuples: np.ndarray,
                turn: int) -> np.ndarray:
    """Game lengths when ``guess`` is played at ``turn`` and the policy plays on, per answer tuple."""
    return np.array([game_length(policy, *after(policy, boards, answers, guess), turn + 1) for answers in tuples],
                    dtype=float)


def state_headroom(task: tuple) -> dict:
    """One state: the policy's second guess against the best of its top ``width`` (see above)."""
    boards_n, answers, width, samples, seq = task  # answers: word indices
    ctx = _context()
    policy, _ = shipped_policy(ctx, boards_n)
    words = ctx.words.allowed
    full = policy.full_board()
    boards = [full] * boards_n
    opener = policy.choose(boards, 0)
    row = ctx.table[opener]
    codes = row[policy.universe]
    state = [full[codes == row[a]] for a in answers]
    record = {"answers": [words[a] for a in answers], "sizes": [len(b) for b in state]}
    if any(row[a] == ctx.words.solved for a in answers) or min(len(b) for b in state) <= 1:
        record.update(skipped="the opener solved or determined a board: the next guess is forced")
        return record
    own = policy.choose(state, 1)
    order = np.argsort(-policy.scores(state), kind="stable")
    pool = list(dict.fromkeys([own, *(int(g) for g in order[:width])]))
    select_seq, fresh_seq = seq.spawn(2)

    def draw(s: np.random.SeedSequence) -> np.ndarray:
        rng = np.random.default_rng(s)
        return np.stack([b[rng.integers(len(b), size=samples)] for b in state], axis=1)

    chosen = draw(select_seq)
    means = [float(after_guess(policy, state, g, chosen, 1).mean()) for g in pool]
    best = pool[int(np.argmin(means))]  # the first least: the policy's own guess on ties
    fresh = draw(fresh_seq)
    gain = 0.0
    if best != own:
        gain = float((after_guess(policy, state, own, fresh, 1) - after_guess(policy, state, best, fresh, 1)).mean())
    record.update(own=words[own], selected=words[best], own_mean=means[0], selected_mean=min(means),
                  selected_gain=means[0] - min(means), fresh_gain=gain)
    return record


def measure(ctx: Context, boards: int, states: int, width: int, samples: int, seed: int, jobs: int) -> dict:
    """The headroom of one shipped file at its second guess over its first ``states`` validation sets."""
    _, doc = shipped_policy(ctx, boards)
    sets = file_sets(ctx, doc, "validation")[:states]
    seqs = np.random.SeedSequence([seed, boards]).spawn(len(sets))
    tasks = [(boards, [int(a) for a in row], width, samples, s) for row, s in zip(sets, seqs)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            records = list(pool.map(state_headroom, tasks))
    else:
        records = [state_headroom(t) for t in tasks]
    gains = [r["fresh_gain"] for r in records if "fresh_gain" in r]
    return {"file": NAMES[boards], "states": len(gains), "skipped": len(records) - len(gains), "width": width,
            "samples": samples, "seed": seed, "fresh_gain": interval(gains),
            "changed": sum(r["own"] != r["selected"] for r in records if "own" in r),
            "seconds": round(time.perf_counter() - start, 1), "records": records}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[8, 4, 2], choices=sorted(NAMES),
                        help="board counts (default: 8 4 2)")
    parser.add_argument("--states", type=int, nargs="+", default=[24, 12, 12],
                        help="validation sets per board count, in the order of --boards (default: 24 12 12)")
    parser.add_argument("--width", type=int, default=12, help="the policy's best guesses tried besides its own")
    parser.add_argument("--samples", type=int, default=160, help="answer tuples per estimate (select, then fresh)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "board_headroom")
    args = parser.parse_args()
    if len(args.states) != len(args.boards) or min(args.states) < 2:
        parser.error("give one --states value (at least 2) per board count")
    if not 1 <= args.width <= 1000 or not 2 <= args.samples <= 100_000 or args.seed < 0 or args.jobs < 1:
        parser.error("--width must be 1…1000, --samples 2…100000, --seed ≥ 0 and --jobs ≥ 1")
    results = summary_dir(args)
    ctx = _context()
    summary = {str(b): measure(ctx, b, k, args.width, args.samples, args.seed, args.jobs)
               for b, k in zip(args.boards, args.states)}
    write_json(results / "board_headroom.json", {"boards": summary})


if __name__ == "__main__":
    main()
