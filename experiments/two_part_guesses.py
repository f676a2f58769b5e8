"""Is an outside guess that splits the candidates into exactly two parts ever the only best one?

`evo_wordle/evolve/bnb.py` tries every guess that splits a candidate set; its one surviving mutant
(`useful = (parts > 2) | in_set`) never tries an outside word (not a candidate) that splits the set
into exactly two parts.  docs/testing.md proves that such a word is never optimal in the exact
search of normal mode; in hard mode the proof does not hold.  This script looks for a
counterexample by brute force, independently of the package: random tiny word lists (4 or 5
letters over 3–6 letters of the alphabet, 3–7 candidates, 1–8 outside words), the optimal total
guesses computed with and without those words, in normal and hard mode (NYT's rule: greens stay,
revealed letters are reused), without and with a limit of 3 or 4 guesses.

    python experiments/two_part_guesses.py [--sets 2000] [--seed 0] [--hard-only] [--family chain] [--out DIR]

Prints the number of sets and settings compared and any set where the two optima differ (exit 1
if one is found), and writes them to DIR/two-part-guesses.json (default experiments/out/
two_part_guesses, untracked; --write-docs: experiments/results/).
"""

from __future__ import annotations

import argparse
import random
import sys
from functools import cache

from _study import add_output_args, output_dirs, write_json

INFEASIBLE = 10**9


def feedback(guess: str, answer: str) -> tuple[int, ...]:
    """Wordle colours: 2 green, 1 yellow (leftmost unmatched copies first), 0 grey."""
    out = [0] * len(guess)
    unmatched: dict[str, int] = {}
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            out[i] = 2
        else:
            unmatched[a] = unmatched.get(a, 0) + 1
    for i, g in enumerate(guess):
        if out[i] == 0 and unmatched.get(g, 0) > 0:
            out[i] = 1
            unmatched[g] -= 1
    return tuple(out)


def obeys(word: str, guess: str, colours: tuple[int, ...]) -> bool:
    """Hard mode: greens stay in place and every revealed letter is used as often as revealed."""
    need: dict[str, int] = {}
    for i, (g, c) in enumerate(zip(guess, colours)):
        if c == 2 and word[i] != g:
            return False
        if c:
            need[g] = need.get(g, 0) + 1
    return all(word.count(g) >= k for g, k in need.items())


def optimum(candidates: list[str], guesses: list[str], hard: bool, depth: int, skip_two_part: bool) -> int:
    """The fewest total guesses that solve every candidate within ``depth`` guesses (brute force);
    ``skip_two_part`` leaves out outside words that split a set into exactly two parts."""

    @cache
    def cost(cands: tuple[str, ...], legal: tuple[str, ...], left: int) -> int:
        if left < 1 or (len(cands) > 1 and left < 2):
            return INFEASIBLE
        if len(cands) == 1:
            return 1
        best = INFEASIBLE
        for g in legal:
            parts: dict[tuple[int, ...], list[str]] = {}
            for a in cands:
                parts.setdefault(feedback(g, a), []).append(a)
            inside = g in cands
            if not inside and (len(parts) == 1 or (skip_two_part and len(parts) == 2)):
                continue
            total = len(cands)
            for colours, part in parts.items():
                if inside and part == [g]:
                    continue
                if len(part) == len(cands):
                    total = INFEASIBLE
                    break
                after = tuple(w for w in legal if obeys(w, g, colours)) if hard else legal
                total += cost(tuple(part), after, left - 1)
                if total >= best:
                    break
            best = min(best, total)
        return best

    return cost(tuple(candidates), tuple(guesses), depth)


def random_lists(rng: random.Random) -> tuple[list[str], list[str]]:
    length = rng.choice([4, 5])
    letters = "abcdef"[: rng.choice([3, 4, 5, 6])]

    def word() -> str:
        return "".join(rng.choice(letters) for _ in range(length))

    candidates: set[str] = set()
    size = rng.randint(3, 7)
    while len(candidates) < size:
        candidates.add(word())
    outside: set[str] = set()
    extra = rng.randint(1, 8)
    while len(outside) < extra:
        w = word()
        if w not in candidates:
            outside.add(w)
    return sorted(candidates), sorted(candidates) + sorted(outside)


def chain_lists(rng: random.Random) -> tuple[list[str], list[str]]:
    """A family of words that differ in one position only (as BATCH, CATCH, HATCH …), plus up to two
    other candidates and 2–10 outside words: the sets where an answer guessed in hard mode pins the
    shared letters and leaves only the family to guess from."""
    length = rng.choice([4, 5])
    letters = "abcdefgh"[: rng.choice([4, 5, 6, 7, 8])]
    base = [rng.choice(letters) for _ in range(length)]
    pos = rng.randrange(length)
    candidates: set[str] = set()
    for first in rng.sample(letters, rng.randint(3, min(6, len(letters)))):
        word = base[:]
        word[pos] = first
        candidates.add("".join(word))
    for _ in range(rng.randint(0, 2)):
        candidates.add("".join(rng.choice(letters) for _ in range(length)))
    outside: set[str] = set()
    extra = rng.randint(2, 10)
    while len(outside) < extra:
        w = "".join(rng.choice(letters) for _ in range(length))
        if w not in candidates:
            outside.add(w)
    return sorted(candidates), sorted(candidates) + sorted(outside)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", type=int, default=2000, help="random word lists to try (default 2000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hard-only", action="store_true", help="hard mode only (normal mode is proven)")
    p.add_argument("--family", choices=["random", "chain"], default="random",
                   help="random lists, or one-position word families with a few other words (default random)")
    add_output_args(p, "two_part_guesses")
    args = p.parse_args(argv)
    if args.sets < 1:
        p.error("--sets must be at least 1")
    results, _ = output_dirs(args)
    rng = random.Random(args.seed)
    modes = [True] if args.hard_only else [False, True]
    compared, found = 0, None
    for i in range(args.sets):
        candidates, guesses = (chain_lists if args.family == "chain" else random_lists)(rng)
        for hard in modes:
            for depth in (99, 3, 4):
                full = optimum(candidates, guesses, hard, depth, False)
                without = optimum(candidates, guesses, hard, depth, True)
                compared += 1
                if full != without and found is None:
                    found = {"set": i, "hard": hard, "depth": depth, "candidates": candidates, "guesses": guesses,
                             "optimum": full, "without_two_part_outside": without}
                    print(f"counterexample: {found}")
        if found:
            break
    write_json(results / "two-part-guesses.json",
               {"sets": i + 1, "settings_compared": compared, "seed": args.seed, "hard_only": args.hard_only,
                "family": args.family,
                "depth_limits": [None, 3, 4], "counterexample": found})
    if found:
        return 1
    print(f"{args.sets} {args.family} lists, {compared} settings compared (seed {args.seed}, "
          f"{'hard mode' if args.hard_only else 'normal and hard mode'}, no limit and limits of 3 and 4 guesses): "
          "no outside two-part guess is ever needed for the optimum")
    return 0


if __name__ == "__main__":
    sys.exit(main())
