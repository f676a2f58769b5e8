"""Would a deeper search in the endgame help the shipped multi-board policies?

Issue 17's goals are unmet.  The shipped policies look one guess ahead (``rollout``) once their
boards' candidate counts multiply to at most R: there they play the guess of least expected game
length with the one-step policy playing on.  This study asks what an *exact* search would add
there: for each of the first K validation board sets of a shipped file (``NAME-evolved``; sets
its evolution was selected on, never the test sets), the policy plays until the first state
where its lookahead applies (product ≤ R, no board down to one word); in that state three
expected game lengths (guesses still to play, each board uniform over its candidates, boards
independent; a failure counts as the cap) are computed exactly, with no sampling:

* ``base`` — the one-step policy (the file's genes, no lookahead) plays on;
* ``lookahead`` — the lookahead's guess, then the one-step policy (what the file plays there is at
  least this good, since it looks ahead again later);
* ``exact`` — the least expectation of any way of playing on, by expectimax over every answer
  combination, with the guesses at every node restricted to the lookahead's own pool (the
  ``--width`` best by the policy's score and every word still possible on a board).

``lookahead − exact`` per set (0 for a set that never reaches such a state) bounds what an exact
endgame search could save beyond the shipped lookahead, in guesses per set, within that pool.

    python experiments/board_endgame.py [--boards 8 4 2] [--sets 150 400 400] [--width 8] [--jobs 2] [--out DIR]

Deterministic (no sampling): identical for any --jobs.  Writes board_endgame.json under --out
(default experiments/out/board_endgame, untracked); the registry (``reproduce.py --only
board-endgame``) holds the figures the docs quote.
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from _study import add_output_args, summary_dir, write_json
from board_headroom import NAMES, _context, after, shipped_policy

from evo_wordle.boards import ROLLOUT_WIDTH, SummedEntropy
from evo_wordle.evolve.metaga import file_sets
from evo_wordle.stats import interval

#: Cleared when it holds this many states (a bound on memory; values are recomputed the same).
MEMO_MAX = 2_000_000


class Exact:
    """Least expected guesses still to play from a state, the guesses at every node from the
    policy's :meth:`~evo_wordle.boards.SummedEntropy.lookahead_pool` of ``width``."""

    def __init__(self, policy: SummedEntropy, width: int) -> None:
        self.policy, self.width, self.memo = policy, width, {}

    def value(self, boards: list[np.ndarray], turn: int) -> float:
        left = self.policy.settings.max_guesses - turn
        if not boards or left <= 0:
            return 0.0
        if all(len(b) == 1 for b in boards):  # one guess per distinct answer, as many as are left
            return float(min(len({int(b[0]) for b in boards}), left))
        key = (turn, *sorted(b.tobytes() for b in boards))  # the value does not depend on board order
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        best = float("inf")
        for guess in self.policy.lookahead_pool(boards, self.width):
            total = 0.0
            for outcome in itertools.product(*(self.policy.split(b, guess) for b in boards)):
                p = 1.0
                for q, _ in outcome:
                    p *= q
                total += p * self.value([b for _, b in outcome if b is not None], turn + 1)
                if 1.0 + total >= best:  # every term is ≥ 0: this guess cannot beat the best
                    break
            best = min(best, 1.0 + total)
            if best <= 1.0:  # nothing is below one guess
                break
        if len(self.memo) >= MEMO_MAX:
            self.memo.clear()
        self.memo[key] = best
        return best


_EXACT: dict = {}  # per process and board count: the memo is kept across states


def first_lookahead_state(policy: SummedEntropy, answers: list[int]) -> tuple[list[np.ndarray], int] | None:
    """The boards and turn where the policy's lookahead first applies on this set, if ever."""
    full = policy.full_board()
    boards, positions = [full] * len(answers), [int(np.searchsorted(policy.universe, a)) for a in answers]
    turn = 0
    while boards and turn < policy.settings.max_guesses:
        if policy.looks_ahead(boards, turn):
            return boards, turn
        boards, positions = after(policy, boards, positions, policy.choose(boards, turn))
        turn += 1
    return None


def set_endgame(task: tuple) -> dict:
    """One board set: the three expectations in the first state where the lookahead applies."""
    boards_n, answers, width = task
    ctx = _context()
    policy, _ = shipped_policy(ctx, boards_n)
    exact = _EXACT.setdefault((boards_n, width), Exact(policy, width))
    record = {"answers": [ctx.words.allowed[a] for a in answers]}
    state = first_lookahead_state(policy, answers)
    if state is None:
        return record
    boards, turn = state
    guess = policy.lookahead(boards, turn, policy.base_choice(boards, turn))
    record.update(turn=turn, sizes=[len(b) for b in boards], base=policy.expected_cost(boards, turn),
                  lookahead=1.0 + policy.after(boards, guess, turn), exact=exact.value(boards, turn))
    return record


def measure(boards: int, sets: int, width: int, jobs: int) -> dict:
    """The endgame study of one shipped file over its first ``sets`` validation sets."""
    ctx = _context()
    policy, doc = shipped_policy(ctx, boards)
    rows = file_sets(ctx, doc, "validation")[:sets]
    tasks = [(boards, [int(a) for a in row], width) for row in rows]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            records = list(pool.map(set_endgame, tasks, chunksize=4))
    else:
        records = [set_endgame(t) for t in tasks]
    reached = [r for r in records if "exact" in r]
    # rounded: expectations summed in different orders differ in the 16th digit where they are equal
    gain = {"lookahead_over_base": [round(r.get("base", 0.0) - r.get("lookahead", 0.0), 12) for r in records],
            "exact_over_lookahead": [round(r.get("lookahead", 0.0) - r.get("exact", 0.0), 12) for r in records]}
    return {"file": NAMES[boards], "rollout": policy.rollout, "width": width, "sets": len(records),
            "states": len(reached), "per_set": {k: interval(v) for k, v in gain.items()},
            "exact_below_lookahead": sum(g > 0 for g in gain["exact_over_lookahead"]),
            "seconds": round(time.perf_counter() - start, 1), "records": records}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[8, 4, 2], choices=sorted(NAMES),
                        help="board counts (default: 8 4 2)")
    parser.add_argument("--sets", type=int, nargs="+", default=[150, 400, 400],
                        help="validation sets per board count, in the order of --boards (default: 150 400 400)")
    parser.add_argument("--width", type=int, default=ROLLOUT_WIDTH,
                        help=f"the policy's best guesses tried at every node besides the boards' words "
                             f"(default: {ROLLOUT_WIDTH}, the lookahead's)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "board_endgame")
    args = parser.parse_args()
    if len(args.sets) != len(args.boards) or min(args.sets) < 2:
        parser.error("give one --sets value (at least 2) per board count")
    if not 1 <= args.width <= 1000 or args.jobs < 1:
        parser.error("--width must be 1…1000 and --jobs ≥ 1")
    results = summary_dir(args)
    summary = {str(b): measure(b, k, args.width, args.jobs) for b, k in zip(args.boards, args.sets)}
    write_json(results / "board_endgame.json", {"boards": summary})


if __name__ == "__main__":
    main()
