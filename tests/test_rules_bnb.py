"""Rules of evolve/bnb.py that the comparisons with the exhaustive reference in
test_evolve_bnb.py leave open, one per test (issue 19, mutation testing): the partition bound
3n − s − P, fail-hard thresholds, memo keys (depth, hard-mode legal words), depth limits,
the order of guesses, part counts past 255 and across chunks, certify's per-part bounds and
the counters ``ga-tree --json`` reports."""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import (
    CHUNK,
    CLOCK_EVERY,
    HEAD,
    INFEASIBLE,
    PAIRWISE_MAX,
    OutOfTime,
    SearchStats,
    TreeSearch,
    certify,
    order_keys,
    part_stats,
)
from evo_wordle.table import MAX_TABLE_BYTES

from . import test_evolve_bnb as base
from .reference import reference_pattern
from .test_evolve_bnb import ATCH, IGHT, INF, Reference, _words, check_tree, first_guess_bound

#: the same 36-answer, 96-word list as test_evolve_bnb.py (its fixture, built once per module)
small = base.small


def count_parts(block: np.ndarray) -> tuple[list[int], list[int]]:
    """Distinct values and Σ count² of each column, written out with np.unique."""
    parts, squares = [], []
    for j in range(block.shape[1]):
        _, counts = np.unique(block[:, j], return_counts=True)
        parts.append(len(counts))
        squares.append(int((counts ** 2).sum()))
    return parts, squares


def test_part_stats_past_255_equal_answers_and_across_chunks():
    # pairwise counting uses byte sums, so sets above 255 must take the histogram path; the
    # histogram goes CHUNK guesses at a time and every chunk (the last one short) is counted
    assert PAIRWISE_MAX < 256
    rng = np.random.default_rng(8)
    n, g = 300, 2 * CHUNK + 7
    block = rng.integers(0, 243, size=(n, g)).astype(np.uint8)
    block[:, 0] = 5  # one part of 300 answers
    block[:, -1] = 7
    block[: n // 2, 1] = 9  # two parts of 150
    parts, squares = part_stats(block, 243)
    want_parts, want_squares = count_parts(block)
    assert parts.tolist() == want_parts and squares.tolist() == want_squares
    assert parts[0] == 1 and squares[0] == n * n and parts[-1] == 1
    small_block = block[:PAIRWISE_MAX, :40]
    parts, squares = part_stats(small_block, 243)
    assert (parts.tolist(), squares.tolist()) == count_parts(small_block)


@pytest.mark.parametrize("n, n_words", [(10, 96), (36, 12972), (2309, 12972), (20000, 23170),
                                        (5000, 2**16 - 1), (5000, 2**16), (46340, 3), (10**6, 10**5)])
def test_order_keys_increase_in_bound_squares_outside_then_position(n, n_words):
    """Whatever the field widths (packed into 62 bits or ranked when they do not fit), the keys
    sort the guesses by (bound ≤ 3n, Σc² ≤ n², not a candidate, position < n_words)."""
    rng = np.random.default_rng(n + n_words)
    m = min(n_words, 400)
    position = rng.choice(n_words, m, replace=False)
    bound = np.where(rng.random(m) < 0.3, 3 * n, rng.integers(0, 3 * n + 1, m))
    squares = np.where(rng.random(m) < 0.3, n * n, rng.integers(0, n * n + 1, m))
    outside = rng.random(m) < 0.5
    bound[: m // 4] = bound[0]  # ties on the first fields, so later fields decide
    squares[: m // 8] = squares[0]
    key = order_keys(bound, squares, outside, position, n, n_words)
    assert key.dtype == np.int64 and len(set(key.tolist())) == m
    want = sorted(range(m), key=lambda i: (bound[i], squares[i], outside[i], position[i]))
    assert np.argsort(key).tolist() == want


def test_order_keys_at_the_edge_of_62_bits():
    """Sizes whose fields need 61 to 65 bits in all: keys still sort lexicographically."""
    for n in (3, 40, 700, 9000):
        need = (3 * n).bit_length() + (n * n).bit_length() + 1
        for total in range(61, 66):
            n_words = 2 ** (total - need) - 1
            if n_words < 4:
                continue
            position = np.array([0, n_words - 1, n_words - 2, 1, 2])
            bound = np.array([3 * n, 3 * n, 3 * n - 1, 3 * n, 0])
            squares = np.array([n * n, n * n, n * n, n * n - 1, 0])
            outside = np.array([True, False, True, True, False])
            key = order_keys(bound, squares, outside, position, n, n_words)
            assert np.argsort(key).tolist() == [4, 2, 3, 1, 0], (n, total)


@pytest.mark.parametrize("width", [None, 1, 5, HEAD - 1, HEAD, HEAD + 1, 50, 1000])
def test_in_order_yields_the_width_smallest_keys_smallest_first(small, width):
    search = TreeSearch(small, "allowed", width=width)
    rng = np.random.default_rng(2)
    for m in (1, 2, 5, HEAD - 1, HEAD, HEAD + 1, HEAD + 2, 70, 300):
        keys = rng.permutation(10 * m)[:m].astype(np.int64)
        k = m if width is None else min(width, m)
        assert list(search.in_order(keys)) == np.argsort(keys)[:k].tolist()


def test_stats_dict_counts_ranks_below_1_5_10_50():
    stats = SearchStats(expanded=7, examined=5, scanned=100, seconds=1.23456,
                        best_rank={0: 3, 1: 1, 4: 2, 5: 1, 9: 1, 10: 1, 49: 1, 50: 1, 60: 1})
    assert stats.as_dict() == {"nodes_expanded": 7, "guesses_examined": 5, "guesses_scanned": 100,
                               "seconds": 1.23, "nodes_solved": 12,
                               "best_in_top": {"1": 3, "5": 6, "10": 8, "50": 10}, "worst_best_rank": 60}
    assert SearchStats().as_dict() == {"nodes_expanded": 0, "guesses_examined": 0, "guesses_scanned": 0,
                                       "seconds": 0.0, "nodes_solved": 0,
                                       "best_in_top": {"1": 0, "5": 0, "10": 0, "50": 0}, "worst_best_rank": 0}


def test_counters_of_a_search(small):
    """Every expansion scans all guessable words; each solved node is counted once by rank."""
    cand = np.sort(small.words.indices(IGHT + ATCH))
    search = TreeSearch(small, "allowed")
    search.cost(cand)
    stats = search.stats
    assert stats.expanded > 1 and stats.scanned == stats.expanded * len(small.words)
    assert 0 < stats.examined and sum(stats.best_rank.values()) == len(search.exact) > 1
    narrow = TreeSearch(small, "candidates", width=3)
    narrow.cost(cand)
    assert max(narrow.stats.best_rank) <= 2


def test_bad_settings_are_refused(small):
    with pytest.raises(EvoWordleError, match="at least 1, not 0"):
        TreeSearch(small, width=0)
    with pytest.raises(EvoWordleError, match="allowed or candidates, not 'answers'"):
        TreeSearch(small, guess_from="answers")
    assert TreeSearch(small, width=1).width == 1


def test_infeasible_is_above_every_total():
    """The marker of an infeasible set must exceed any real total: n answers of the largest
    supported list, each solved within n guesses."""
    largest = math.isqrt(MAX_TABLE_BYTES)
    assert INFEASIBLE > largest * largest


def test_the_partition_bound_3n_minus_s_minus_p(small):
    """node_bound is min over guesses of n + Σ(2c − 1) over the unsolved parts = 3n − s − P,
    worked out here from reference colours; never above the optimum, and below it where the
    optimum needs recursion."""
    rng = np.random.default_rng(11)
    for size in (3, 6, 12):
        answers = np.sort(rng.choice(small.words.answer_index, size, replace=False))
        search = TreeSearch(small, "allowed")
        assert search.node_bound(answers) == first_guess_bound(small, answers) <= search.cost(answers)
    ight = np.sort(small.words.indices(IGHT))
    fresh = TreeSearch(small, "allowed")
    assert fresh.node_bound(ight, None, 5) == first_guess_bound(small, ight) < fresh.cost(ight, None, 5)
    assert fresh.node_bound(ight, None, 5) == fresh.cost(ight, None, 5)  # once known, the exact cost
    pair = np.sort(small.words.indices(["fight", "light"]))
    assert fresh.node_bound(pair) == 3 and fresh.node_bound(pair[:1]) == 1
    assert fresh.node_bound(pair, None, 1) == INFEASIBLE
    assert fresh.node_bound(ight, None, 1) == fresh.node_bound(ight, None, 0) == INFEASIBLE
    # three answers a candidate splits into single answers: two guesses suffice, one does not
    ref = Reference(list(small.words.allowed), False)
    triple = next(np.array(t) for t in itertools.combinations(small.words.answer_index.tolist(), 3)
                  if ref.cost(_words(small, t), frozenset(small.words.allowed), 2) == 5)
    assert fresh.node_bound(triple, None, 2) == 5 and fresh.node_bound(triple, None, 1) == INFEASIBLE


def test_with_two_guesses_left_the_bound_is_exact(small):
    """Two guesses left: only guesses that split the set into single answers count, so the
    one-scan bound is the optimum (2n − 1 or 2n) or infeasible."""
    rng = np.random.default_rng(4)
    ref = Reference(list(small.words.allowed), False)
    seen = set()
    for size in (3, 4, 5, 6, 8):
        answers = np.sort(rng.choice(small.words.answer_index, size, replace=False))
        want = ref.cost(_words(small, answers), frozenset(small.words.allowed), 2)
        got = TreeSearch(small, "allowed").node_bound(answers, None, 2)
        assert got == (INFEASIBLE if want == INF else want)
        seen.add(want == INF)
    assert seen == {True, False}


def test_one_answer_costs_one_guess_and_none_left_is_infeasible(small):
    search = TreeSearch(small, "allowed")
    one = small.words.indices(["light"])
    assert search.cost(one, None, 1) == 1 and search.search(one, None, INFEASIBLE, 1) == 1
    assert search.search(one, None, INFEASIBLE, 0) == INFEASIBLE
    pair = np.sort(small.words.indices(["fight", "light"]))
    assert search.cost(pair, None, 2) == 3


def test_a_limit_deeper_than_any_tree_changes_nothing(small):
    """Limits of 255 guesses and more share one memo key: no tree of these lists is that deep."""
    ight = np.sort(small.words.indices(IGHT))
    search = TreeSearch(small, "allowed")
    assert search.cost(ight, None, 300) == search.cost(ight, None, 255) == TreeSearch(small, "allowed").cost(ight)


def test_fail_hard_thresholds(small):
    """search(cand, beta) is the exact cost when that is below beta, else a lower bound of at
    least beta (never above the cost); one search object asked again and again agrees."""
    ight = np.sort(small.words.indices(IGHT))
    want = TreeSearch(small, "allowed").cost(ight)
    shared = TreeSearch(small, "allowed")
    for beta in range(2 * len(ight), want + 3):
        for search in (TreeSearch(small, "allowed"), shared):
            value = search.search(ight, None, beta)
            if want < beta:
                assert value == want
            else:
                assert beta <= value <= want
    assert shared.cost(ight) == want


def test_memo_keys_hold_the_depth_and_the_legal_words(small):
    """One search object answers each query as a fresh one would: the same candidates with
    fewer guesses left, or (hard mode) with fewer legal words, cost more."""
    atch = np.sort(small.words.indices(ATCH))
    shared = TreeSearch(small, "allowed", hard=True)
    free = shared.cost(atch)
    with pytest.raises(EvoWordleError, match="within 3 guesses"):
        shared.cost(atch, None, 3)
    assert shared.cost(atch, None, 4) == free == TreeSearch(small, "allowed", hard=True).cost(atch)
    catch = small.words.index("catch")
    (rest, legal), = [(c, lg) for c, lg in shared.parts(catch, atch) if len(c) > 2]
    loose = shared.cost(rest)
    narrowed = shared.cost(rest, legal)
    assert narrowed == TreeSearch(small, "allowed", hard=True).cost(rest, legal) > loose
    assert shared.cost(rest) == loose
    # guessing only candidates ignores the legal words, in the key too
    only = TreeSearch(small, "candidates", hard=True)
    assert only.cost(rest, legal) == only.cost(rest) == TreeSearch(small, "candidates").cost(rest)


def test_cost_is_the_total_of_its_tree_when_subtrees_add_up(small):
    """A set whose best first guess leaves two parts of 5 and 6 answers: every part's subtree
    is added to the cost (reference optimum), and the tree it describes has that total."""
    cand = np.sort(small.words.indices(IGHT + ATCH))
    want = Reference(list(small.words.allowed), False).cost(_words(small, cand), frozenset(small.words.allowed))
    search = TreeSearch(small, "allowed")
    assert search.cost(cand) == want
    first = search.best_guess(cand)
    _, sizes = np.unique(np.asarray(small.table[first, cand]), return_counts=True)
    assert (sizes >= 3).sum() >= 2
    check_tree(small, search.tree(cand), cand, False, want)


def test_a_pair_is_guessed_in_list_order(small):
    """Both words of a pair have the same bound and Σc², so the first in the list goes first."""
    pair = np.sort(small.words.indices(["fight", "light"]))
    tree = TreeSearch(small, "allowed").tree(pair)
    assert tree == {int(pair[0]): [int(pair[0])], int(pair[1]): [int(pair[0]), int(pair[1])]}


def test_no_guess_left_for_a_single_answer_is_named(small):
    """An opener with no guess after it leaves the other answer unsolved: the message gives
    the opener's colours for the answer left."""
    pair = np.sort(small.words.indices(["fight", "light"]))
    code = reference_pattern("fight", "light")
    digits = "".join(str(code // 3 ** k % 3) for k in range(4, -1, -1))
    with pytest.raises(EvoWordleError, match=f"the 1 answers left after FIGHT:{digits} cannot all be solved "
                                             "in the 0 guesses left"):
        TreeSearch(small, "allowed").tree(pair, None, 1, int(pair[0]))


def test_certify_bounds_each_part_by_its_optimum(small):
    """With time, each part's bound is its exhaustive optimum and settled; with none, each is
    at least the one-scan bound and at most the optimum."""
    answers = small.words.answer_index
    opener = small.words.index("tight")
    helper = TreeSearch(small, "allowed")
    parts = list(helper.parts(opener, answers))
    exact = [TreeSearch(small, "allowed").cost(c, lg) for c, lg in parts]
    upper = [e + 2 for e in exact]
    start = time.monotonic()
    cert = certify(small, parts, upper, seconds=30)
    assert cert.bounds == exact and all(cert.settled) and cert.total == sum(exact)
    assert 0 < cert.seconds <= time.monotonic() - start
    quick = certify(small, parts, upper, seconds=0)
    scans = [TreeSearch(small, "allowed").node_bound(c, lg) for c, lg in parts]
    assert all(s <= q <= e for s, q, e in zip(scans, quick.bounds, exact))


def test_a_deadline_stops_only_once_passed_and_trees_time_themselves(small):
    """The clock is read every CLOCK_EVERY expansions: a search longer than that with time left
    gives the same cost as one without a deadline, one past its deadline raises OutOfTime;
    ``stats.seconds`` adds the time spent building trees."""
    cand = np.sort(small.words.indices(IGHT + ATCH))
    plain = TreeSearch(small, "allowed")
    want = plain.cost(cand)
    assert plain.stats.expanded > CLOCK_EVERY
    assert TreeSearch(small, "allowed", deadline=time.monotonic() + 600).cost(cand) == want
    with pytest.raises(OutOfTime):
        TreeSearch(small, "allowed", deadline=time.monotonic() - 1).cost(cand)
    timed = TreeSearch(small, "allowed")
    start = time.monotonic()
    timed.tree(cand)
    took = time.monotonic() - start
    assert 0 < timed.stats.seconds <= took
    timed.tree(cand)
    assert timed.stats.seconds <= time.monotonic() - start


def test_certify_keeps_the_trivial_bound_of_parts_the_clock_stops(small):
    """With no time, parts the clock stops before their search keep 2c − 1: never less, never
    above the part's optimum."""
    rng = np.random.default_rng(6)
    seen, parts = set(), []
    while len(parts) < 200:
        c = tuple(sorted(rng.choice(small.words.answer_index, 3, replace=False).tolist()))
        if c not in seen:
            seen.add(c)
            parts.append((np.array(c, dtype=np.int64), None))
    helper = TreeSearch(small, "allowed")
    exact = [helper.cost(c) for c, _ in parts]
    cert = certify(small, parts, [e + 1 for e in exact], seconds=0)
    assert not all(cert.settled)
    assert all(type(b) is int and 5 <= b <= e for b, e in zip(cert.bounds, exact))


@pytest.mark.parametrize("elapsed, settled", [(59.5, True), (60.5, False)])
def test_certify_gives_itself_a_minute_by_default(small, monkeypatch, elapsed, settled):
    """Without ``seconds`` the budget is 60 s: a clock that reads ``elapsed`` seconds after the
    start stops a search of more than CLOCK_EVERY nodes only past one minute."""
    import evo_wordle.evolve.bnb as bnb

    class Clock:
        calls = 0

        @classmethod
        def monotonic(cls) -> float:
            cls.calls += 1
            return 0.0 if cls.calls == 1 else elapsed

    cand = np.sort(small.words.indices(IGHT + ATCH))
    want = TreeSearch(small, "allowed").cost(cand)
    monkeypatch.setattr(bnb, "time", Clock)
    cert = certify(small, [(cand, None)], [want + 1])
    assert cert.settled == [settled] and (cert.bounds == [want]) is settled


def greedy_tree(ctx, answers: list[int], path: list[int], out: dict) -> None:
    """The tree of one proposal per node, by hand: a pair or a single answer guesses its first
    word; a larger set the guess first by (3n − s − P, Σc², not a candidate, list position)
    among those that split it (or are in it); reference colours."""
    words = ctx.words.allowed
    if len(answers) <= 2:
        guess = answers[0]
    else:
        keys = []
        for g in range(len(words)):
            codes = [reference_pattern(words[g], words[a]) for a in answers]
            sizes = [codes.count(c) for c in set(codes)]
            inside = g in answers
            if len(sizes) > 1 or inside:
                keys.append((3 * len(answers) - inside - len(sizes), sum(c * c for c in sizes), not inside, g))
        guess = min(keys)[3]
    groups: dict[int, list[int]] = {}
    for a in answers:
        groups.setdefault(reference_pattern(words[guess], words[a]), []).append(a)
    for code, group in groups.items():
        if code == 242:
            out[guess] = path + [guess]
        else:
            greedy_tree(ctx, group, path + [guess], out)


def test_one_proposal_per_node_follows_the_documented_order(small):
    """width=1 keeps only the first guess of the search order at each node, so its tree is the
    greedy tree of that order (built here by hand).  The second list has a first-guess tie on
    bound and Σc² between a candidate and another word: the candidate goes first."""
    tie = ["arbor", "ardor", "arena", "argue", "arise", "array", "catch", "might", "night", "right", "wight"]
    for words in (IGHT + ATCH, tie):
        cand = np.sort(small.words.indices(words))
        want: dict[int, list[int]] = {}
        greedy_tree(small, cand.tolist(), [], want)
        assert TreeSearch(small, "allowed", width=1).tree(cand) == want


def test_the_limit_message_names_the_width_only_when_there_is_one(small):
    ight = np.sort(small.words.indices(IGHT))
    tight = small.words.index("tight")
    for width, tail in ((None, r"within 2 guesses$"), (2, r"within 2 guesses using the 2 best guesses per node$")):
        with pytest.raises(EvoWordleError, match=tail):
            TreeSearch(small, "allowed", width=width).cost(ight, None, 2)
        with pytest.raises(EvoWordleError, match=r"^no tree solves these 10 candidates " + tail):
            TreeSearch(small, "allowed", width=width).tree(ight, None, 2)  # no opener: the root's own message
    for width, tail in ((None, r"guesses left$"), (2, r"guesses left \(using the 2 best guesses per node\)$")):
        with pytest.raises(EvoWordleError, match=tail):
            TreeSearch(small, "allowed", width=width).tree(ight, None, 2, tight)


def test_certify_settles_a_part_whose_bound_meets_its_tree_without_searching(small):
    """A part whose bound already equals its tree's cost is settled without a search, even with
    no time left: here 200 sets of 3 answers that a candidate splits into single answers."""
    from evo_wordle.evolve.strategy import transposed_table

    tt = transposed_table(small)
    rng = np.random.default_rng(9)
    seen, parts = set(), []
    while len(parts) < 200:
        c = tuple(sorted(rng.choice(small.words.answer_index, 3, replace=False).tolist()))
        rows = tt[list(c)][:, list(c)]  # patterns of the three answers against each other
        if c not in seen and any(len(set(rows[:, j].tolist())) == 3 for j in range(3)):
            seen.add(c)
            parts.append((np.array(c, dtype=np.int64), None))
    cert = certify(small, parts, [5] * len(parts), seconds=0)
    assert all(cert.settled) and cert.bounds == [5] * len(parts)
    # the same after 100 parts that each need a search (a tree one guess worse): the clock stops
    # one of those, and the parts after it are still settled
    cert = certify(small, parts[:100] + parts, [6] * 100 + [5] * len(parts), seconds=0)
    assert not all(cert.settled[:100]) and all(cert.settled[100:]) and cert.bounds[100:] == [5] * len(parts)
