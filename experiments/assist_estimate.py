"""How far is the assistant's "expected guesses to finish" from the figure it estimates?

Above 100 candidates ``evo-wordle assist`` does not play every candidate: a seeded draw of 100
stands for them.  This study measures that estimate against the exact figure, the weighted mean
over every candidate (each played, weighted as the assistant weighs it), for two draws:

* **current** — the assistant's own (``AssistSession.expected_to_finish``): 100 answers drawn by
  the weights with replacement, each counted as often as drawn (unbiased);
* **old** — the draw the assistant made before commit 031911a, kept here only as the reference
  (:func:`old_draw`): 100 distinct answers drawn by the weights without replacement, each counted
  once, which flattens a word-frequency prior towards the plain mean.

States: one guess into a game, in the setting ``evo-wordle assist`` starts with (greedy solver,
every allowed word may be the answer weighted by its word frequency, guesses from the
candidates, normal mode).  The openers take turns (CRANE, SLATE, PIOUS, TARES); each answer is
drawn from the answer list with ``--seed`` (default 0); a state is kept when more than 100
candidates are left (below that the assistant plays every candidate) and its colours are new
for its opener, until there are ``--states`` (default 10).  Games are played on past the guess
cap (9 by default), as the assistant plays them, and with no time budget, so every draw is played in
full (the assistant stops after 1.5 s).

Per state: the exact figure, the plain (unweighted) mean, each draw made with the assistant's
own seed (what it showed, and what it showed before 031911a), and over ``--redraws`` (default
1000) further seeded draws of each kind the mean error (bias, with its 95 % interval over the
redraws) and the root-mean-square error.  The
greedy solver plays each answer the same way every time, so the redraws score answers from the
exact pass; the assistant's own figures, played by its own code, are checked against them.

    python experiments/assist_estimate.py [--seed 0] [--states 10] [--redraws 1000] [--out DIR]

Writes assist_estimate.json and assist_estimate.md to --out DIR (default
experiments/out/assist_estimate/; --write-docs: experiments/results/).  About 10 s.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from _study import add_output_args, markdown_table, output_dirs, write_report

from evo_wordle import Context, patterns
from evo_wordle.assist import SAMPLE, AssistSession
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import MAX_GUESSES, Settings, play
from evo_wordle.solvers import make_solver
from evo_wordle.stats import mean_ci, t975

OPENERS = ("crane", "slate", "pious", "tares")
SOLVER = "greedy"
#: The assistant's default game (``evo-wordle assist`` without options).
SETTINGS = Settings()
#: Answers tried per state asked for before the study gives up finding states.
TRIES = 100


def fail(message: str) -> None:
    """Bad input: one line on stderr, exit 2."""
    print(f"assist_estimate.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def old_draw(rng: np.random.Generator, cand: np.ndarray, w: np.ndarray, sample: int) -> tuple[np.ndarray, np.ndarray]:
    """The reference: the assistant's draw before commit 031911a, ``sample`` distinct answers by
    the weights ``w`` without replacement, each counted once (answers, counts)."""
    return rng.choice(cand, size=sample, replace=False, p=w), np.ones(sample)


def current_draw(rng: np.random.Generator, cand: np.ndarray, w: np.ndarray,
                 sample: int) -> tuple[np.ndarray, np.ndarray]:
    """The assistant's draw today: ``sample`` answers by the weights with replacement, each
    counted as often as drawn (answers, counts)."""
    return np.unique(rng.choice(cand, size=sample, replace=True, p=w), return_counts=True)


def assist_rng(session: AssistSession) -> np.random.Generator:
    """The generator the assistant draws a state's sample from (seeded by the state alone)."""
    state = session.state
    return np.random.default_rng(np.random.SeedSequence([len(state.history), len(state.candidates)]))


def new_session(ctx: Context, settings: Settings, sample: int) -> AssistSession:
    """An assistant as ``evo-wordle assist`` builds it, drawing ``sample`` and never cut by time."""
    session = AssistSession(ctx, settings, make_solver(SOLVER, ctx, settings),
                            make_solver=lambda s: make_solver(SOLVER, ctx, s))
    session.sample, session.budget = sample, math.inf
    return session


def find_states(ctx: Context, settings: Settings, seed: int, states: int, sample: int,
                openers: tuple[str, ...] = OPENERS) -> list[tuple[int, int, int]]:
    """(opener, answer, colours) of ``states`` one-guess states with more than ``sample``
    candidates, the openers in turn and the answers drawn from the answer list with ``seed``."""
    rng = np.random.default_rng(seed)
    answers = ctx.candidates("answers")
    guesses = [ctx.words.index(w) for w in openers]
    start = new_session(ctx, settings, sample).state
    found, seen = [], set()
    for k in range(TRIES * states):
        if len(found) == states:
            break
        guess = guesses[k % len(guesses)]
        answer = int(answers[rng.integers(len(answers))])
        colours = int(ctx.table[guess, answer])
        left = start.after(guess, colours).candidates
        if len(left) > sample and (guess, colours) not in seen:
            seen.add((guess, colours))
            found.append((guess, answer, colours))
    if len(found) < states:
        raise EvoWordleError(f"found only {len(found)} states with more than {sample} candidates in "
                             f"{TRIES * states} answers; ask for fewer --states")
    return found


def scores_of(ctx: Context, session: AssistSession) -> np.ndarray:
    """Guesses each candidate of the session's state needs from there on (the next one counted),
    played as the assistant plays on: its solver afresh, no guess cap."""
    settings = session.settings.with_(max_guesses=MAX_GUESSES)
    solver = make_solver(SOLVER, ctx, session.settings)
    out = []
    for answer in session.state.candidates:
        solver.reset(np.random.default_rng(0))
        out.append(play(solver, session.state, int(answer), settings).score(MAX_GUESSES))
    return np.asarray(out, dtype=float)


def one_state(ctx: Context, settings: Settings, found: tuple[int, int, int], seed: int, index: int,
              redraws: int, sample: int) -> dict:
    """The exact figure of one state (``found``: opener, answer, colours) and the two draws'
    figures and errors (see the module's docstring)."""
    guess, answer, colours = found
    session = new_session(ctx, settings, sample)
    session.enter(guess, colours)
    cand = session.state.candidates
    w = session.weights(cand)
    scores = scores_of(ctx, session)

    def estimate(draw, rng) -> float:
        answers, counts = draw(rng, cand, w, sample)
        return float(np.average(scores[np.searchsorted(cand, answers)], weights=counts))

    exact = float(np.average(scores, weights=w))
    every = new_session(ctx, settings, len(cand))
    every.enter(guess, colours)
    shown = session.expected_to_finish()[0]  # the assistant's own figure, played by its own code
    if (not math.isclose(every.expected_to_finish()[0], exact, rel_tol=1e-12)
            or not math.isclose(shown, estimate(current_draw, assist_rng(session)), rel_tol=1e-12)):
        raise EvoWordleError("the assistant's own figures differ from this study's replay of them: "
                             f"{SOLVER} no longer plays an answer the same way every time, or the draw changed")
    row = {"opener": ctx.words.allowed[guess], "answer": ctx.words.allowed[answer],
           "colours": patterns.to_digits(colours, ctx.words.length), "candidates": int(len(cand)),
           "exact": round(exact, 4), "plain": round(float(scores.mean()), 4)}
    for name, draw in (("current", current_draw), ("old", old_draw)):
        row[f"{name}_shown"] = round(estimate(draw, assist_rng(session)), 4)
        e = np.array([estimate(draw, np.random.default_rng([seed, index, r, name == "old"])) - exact
                      for r in range(redraws)])
        bias, half = mean_ci(e)
        row[f"{name}_bias"], row[f"{name}_bias_ci95"] = round(bias, 4), round(half, 4)
        row[f"{name}_bias_se"] = round(float(e.std(ddof=1) / math.sqrt(redraws)), 6) if redraws > 1 else None
        row[f"{name}_rmse"] = round(float(np.sqrt((e ** 2).mean())), 4)
    return row


def study(ctx: Context, seed: int = 0, states: int = 10, redraws: int = 1000, sample: int = SAMPLE,
          settings: Settings = SETTINGS, openers: tuple[str, ...] = OPENERS) -> dict:
    """Every state's row and, per draw, the summary over the states: the mean absolute error of
    the figure the assistant showed (its own seed), the mean of the states' biases with its 95 %
    interval over the redraws (these states fixed: each state's redraws are independent, so the
    variances of the states' means add), and the root-mean-square error over every redraw of every
    state.  A t interval over the ten states' biases instead read their chance agreement as a
    bias: -0.0018 ± 0.0011 for a draw unbiased by construction."""
    found = find_states(ctx, settings, seed, states, sample, openers)
    rows = [one_state(ctx, settings, f, seed, i, redraws, sample) for i, f in enumerate(found)]
    summary = {}
    for name in ("current", "old"):
        bias = float(np.mean([r[f"{name}_bias"] for r in rows]))
        ses = [r[f"{name}_bias_se"] for r in rows]
        half = (float("nan") if None in ses else
                t975(len(rows) * (redraws - 1)) * math.sqrt(sum(x ** 2 for x in ses)) / len(rows))
        summary[name] = {
            "shown_abs_error": round(float(np.mean([abs(r[f"{name}_shown"] - r["exact"]) for r in rows])), 4),
            "bias": round(bias, 4), "bias_ci95": round(half, 4),
            # states whose bias is told apart from none by its redraws (its 95 % interval excludes 0)
            "biased_states": sum(abs(r[f"{name}_bias"]) > r[f"{name}_bias_ci95"] for r in rows),
            "rmse": round(float(np.sqrt(np.mean([r[f"{name}_rmse"] ** 2 for r in rows]))), 4),
        }
    return {"seed": seed, "states": states, "redraws": redraws, "sample": sample, "solver": SOLVER,
            "openers": list(openers),
            "settings": {"candidates": settings.candidates, "guess_from": settings.guess_from,
                         "hard": settings.hard, "max_guesses": settings.max_guesses},
            "rows": rows, "summary": summary}


def markdown(out: dict) -> str:
    """assist_estimate.md from the JSON main() writes beside it (:func:`study`'s result), so a
    test rebuilds the tracked table from the tracked JSON."""
    rows = [[r["opener"].upper(), r["answer"].upper(), r["colours"], r["candidates"], f"{r['exact']:.4f}",
             f"{r['plain']:.4f}", f"{r['current_shown']:.4f}", f"{r['old_shown']:.4f}",
             *(f"{r[f'{n}_bias']:+.4f} ± {r[f'{n}_bias_ci95']:.4f} / {r[f'{n}_rmse']:.4f}" for n in ("current", "old"))]
            for r in out["rows"]]
    summary = out["summary"]
    rows.append(["**all states**", "", "", "", "", "", *(f"mean abs. error {summary[n]['shown_abs_error']:.4f}"
                                                          for n in ("current", "old")),
                 *(f"{summary[n]['bias']:+.4f} ± {summary[n]['bias_ci95']:.4f} / {summary[n]['rmse']:.4f}; "
                   f"biased in {summary[n]['biased_states']} of {out['states']}" for n in ("current", "old"))])
    table = markdown_table(
        ["opener", "answer", "colours", "candidates", "exact (weighted, every candidate)", "plain mean",
         "current draw shown", "old draw shown", f"current: bias / RMSE ({out['redraws']} draws)",
         f"old: bias / RMSE ({out['redraws']} draws)"], rows)
    s = out["settings"]
    caption = (f"{out['states']} states, seed {out['seed']}: one guess (openers {', '.join(out['openers']).upper()} "
               f"in turn, answers drawn from the answer list) with more than {out['sample']} candidates left. "
               f"{out['solver']} solver; candidates {s['candidates']} (weighted by word frequency), guesses from "
               f"{s['guess_from']}, {'hard' if s['hard'] else 'normal'} mode; games played on past the "
               f"{s['max_guesses']}-guess cap; draws of {out['sample']}, no time budget. \"shown\": the draw "
               "with the assistant's own seed; bias (± its 95 % interval) and RMSE: against the exact figure, over "
               "the seeded redraws; in the last row the mean bias over the states ± its 95 % interval over "
               "their redraws, the RMSE over every redraw, and the states whose bias interval excludes 0. "
               "Old draw: without replacement, each "
               "answer counted once (before commit 031911a); current: with replacement, counted as drawn.")
    return f"{table}\n\n{caption}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0, help="seed of the states' answers and the redraws (default 0)")
    ap.add_argument("--states", type=int, default=10, help="states measured (default 10)")
    ap.add_argument("--redraws", type=int, default=1000, help="seeded draws of each kind per state (default 1000)")
    add_output_args(ap, "assist_estimate")
    args = ap.parse_args()
    for name in ("seed", "states", "redraws"):
        least = 0 if name == "seed" else 1
        if getattr(args, name) < least:
            fail(f"--{name} takes a whole number ≥ {least}, not {getattr(args, name)}")
    res, _ = output_dirs(args)
    start = time.perf_counter()
    try:
        out = study(Context(), args.seed, args.states, args.redraws)
    except EvoWordleError as exc:
        fail(str(exc))
    write_report(res, "assist_estimate", out, markdown(out))
    print(f"{time.perf_counter() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
