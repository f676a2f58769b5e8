"""Lookahead over a strategy genome: better early decisions from the genome's own play.

At the first ``turns`` decisions after the opener, each of the genome's ``width`` cheapest
guesses (by its cost model) is scored by the guesses the game then takes in expectation: the
guess itself, then the genome's own play below it, for every candidate weighted by the
genome's prior.  The cheapest is kept (ties: the genome's order).  The decisions form a tree
(history key → word) that a strategy file stores and replays; deeper states are left to the
genome.  No answer list is read: the expectation runs over the candidates the game allows, so
a P0 tree uses only what a P0 player knows.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings
from .strategy import StrategyPolicy, history_key

#: Most decisions a lookahead may cover after the opener, and most guesses it may score at each.
MAX_TURNS = 4
MAX_WIDTH = 100


def play_out(policy: StrategyPolicy, state: GameState, answer: int, guess_from: str, cap: int) -> int:
    """Guesses the genome takes from ``state`` to find ``answer``, at most ``cap`` (a game that
    would run on counts as ``cap``, as a failure counts as the guess cap in a bench)."""
    table = policy.ctx.table
    n = 0
    while n < cap:
        g = policy.decide(state, guess_from)
        n += 1
        if g == answer:
            return n
        state = state.after(g, int(table[g, answer]))
    return cap


def expected_guesses(policy: StrategyPolicy, state: GameState, guess: int, settings: Settings) -> float:
    """Expected guesses from ``state`` when ``guess`` is played now and the genome plays on,
    over the candidates weighted by the genome's prior."""
    cand = state.candidates
    w = policy.weights(cand)
    patterns = policy.ctx.table[guess, cand]
    cap = settings.max_guesses - state.turn - 1  # guesses left after this one (a failure: all of them)
    total = 0.0
    for p in np.unique(patterns):
        part = patterns == p
        sub = cand[part]
        later = GameState(policy.ctx, sub, state.history + ((guess, int(p)),), state.hard)
        for c, wc in zip(sub.tolist(), w[part].tolist()):
            total += wc * (1 if c == guess else 1 + play_out(policy, later, c, settings.guess_from, cap))
    return total


def lookahead_tree(
    ctx: Context,
    settings: Settings,
    policy: StrategyPolicy,
    turns: int = 2,
    width: int = 10,
    on_turn: Callable[[int, int, int], None] | None = None,
) -> tuple[dict[str, str], dict]:
    """(tree, stats): the opener and the lookahead's choice in every state the game reaches at
    decisions 1..``turns`` after it, for every candidate of the game as the answer.  ``stats``
    counts the states decided and those where the lookahead overrules the genome per turn;
    ``on_turn(turn, states, changed)`` reports each turn as it ends."""
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_TURNS:
        raise EvoWordleError(f"the lookahead covers 1 to {MAX_TURNS} decisions after the opener, not {turns!r}")
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
        raise EvoWordleError(f"the lookahead scores 1 to {MAX_WIDTH} guesses per decision, not {width!r}")
    guess_from = settings.guess_from
    start = GameState.start(ctx, settings)
    opener = policy.decide(start, guess_from)
    chosen: dict[tuple, int] = {(): opener}
    table = ctx.table
    stats = {"states": [], "changed": []}
    for turn in range(1, turns + 1):
        reached: dict[tuple, GameState] = {}
        for answer in start.candidates.tolist():  # every candidate may be the answer
            state = start
            while state is not None and state.turn < turn:
                g = chosen.get(state.history)
                g = policy.decide(state, guess_from) if g is None else g
                state = None if g == answer else state.after(g, int(table[g, answer]))
            if state is not None:
                reached[state.history] = state
        changed = 0
        for history in sorted(reached):
            state = reached[history]
            if len(state.candidates) <= 2:  # the genome already plays the likelier of two
                continue
            guesses, cost = policy.costs(state, guess_from)
            order = np.argsort(cost, kind="stable")[:width]
            scores = [expected_guesses(policy, state, int(guesses[j]), settings) for j in order]
            best = int(guesses[order[int(np.argmin(scores))]])  # first minimum: the genome's order on ties
            chosen[history] = best
            changed += best != policy.decide(state, guess_from)
        stats["states"].append(len(reached))
        stats["changed"].append(changed)
        if on_turn is not None:
            on_turn(turn, len(reached), changed)
    tree = {history_key(ctx, h): ctx.words.allowed[g] for h, g in chosen.items()}
    return tree, stats
