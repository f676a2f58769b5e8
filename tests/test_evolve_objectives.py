"""Objectives beyond the mean (evolve/objectives.py, ``ga-tree --exact --objective``) against
exhaustive searches written here: the smallest worst case by a min-max recursion over every
tree, and (total, worst) minimised lexicographically over every tree — neither uses depth
limits, so they check the limit-lowering of the module from outside.  Normal and hard mode,
with and without an opener; the CLI end to end."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import INFEASIBLE, TreeSearch
from evo_wordle.evolve.objectives import optimise, root_cost

from .reference import reference_pattern
from .small_lists import ATCH, IGHT, small_context
from .test_evolve_bnb import INF, Reference, _words, check_tree

SOLVED = 3 ** 5 - 1


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    """36 answers (two rhyming families and 19 NYT answers) and 96 allowed words."""
    return small_context("test-obj", IGHT + ATCH, slice(100, 119), slice(None, None, 211), 60)


class TreeReference(Reference):
    """Every tree, searched for the smallest worst case and for the least (total, worst)."""

    def parts(self, answers: frozenset, guess: str) -> dict[int, frozenset]:
        out: dict[int, set] = {}
        for a in answers:
            out.setdefault(self.colours(guess, a), set()).add(a)
        return {code: frozenset(p) for code, p in out.items()}

    def guesses(self, answers: frozenset, legal: frozenset):
        for g in sorted(answers if self.only_candidates else legal):
            parts = self.parts(answers, g)
            if len(parts) > 1 or g in answers:
                yield g, parts

    def after(self, legal: frozenset, guess: str, code: int) -> frozenset:
        return self.narrow(legal, guess, code) if self.hard else legal

    def minmax(self, answers: frozenset, legal: frozenset) -> float:
        """The fewest guesses that always suffice (no limit, no totals)."""
        if len(answers) == 1:
            return 1
        key = ("minmax", answers, legal if self.hard else None)
        if key not in self.memo:
            self.memo[key] = min((1 + max((self.minmax(p, self.after(legal, g, c))
                                           for c, p in parts.items() if c != SOLVED), default=0)
                                  for g, parts in self.guesses(answers, legal)), default=INF)
        return self.memo[key]

    def lexi(self, answers: frozenset, legal: frozenset, left: float = INF) -> tuple[float, float]:
        """The least (total, worst) over trees within ``left`` guesses, compared as pairs."""
        if left < 1 or (len(answers) >= 2 and left < 2):
            return INF, INF
        if len(answers) == 1:
            return 1, 1
        key = ("lexi", answers, legal if self.hard else None, left)
        if key not in self.memo:
            best = (INF, INF)
            for g, parts in self.guesses(answers, legal):
                subs = [self.lexi(p, self.after(legal, g, c), left - 1) for c, p in parts.items() if c != SOLVED]
                best = min(best, (len(answers) + sum(t for t, _ in subs), 1 + max((w for _, w in subs), default=0)))
            self.memo[key] = best
        return self.memo[key]

    def with_opener(self, answers: frozenset, opener: str, left: float = INF) -> dict:
        """The three objectives' figures for trees opening with ``opener``."""
        legal = frozenset(self.words)
        parts = [(p, self.after(legal, opener, c)) for c, p in self.parts(answers, opener).items() if c != SOLVED]
        n = len(answers)
        worst = 1 + max((self.minmax(p, lg) for p, lg in parts), default=0)
        subs = [self.lexi(p, lg, left - 1) for p, lg in parts]
        return {"mean": n + sum(self.cost(p, lg, left - 1) for p, lg in parts),
                "max": (worst, n + sum(self.cost(p, lg, worst - 1) for p, lg in parts)),
                "mean-then-max": (n + sum(t for t, _ in subs), 1 + max((w for _, w in subs), default=0))}

    def without_opener(self, answers: frozenset, left: float = INF) -> dict:
        legal = frozenset(self.words)
        worst = self.minmax(answers, legal)
        return {"mean": self.cost(answers, legal, left), "max": (worst, self.cost(answers, legal, worst)),
                "mean-then-max": self.lexi(answers, legal, left)}


def _figures(result) -> object:
    return result.total if result.objective == "mean" else (
        (result.worst, result.total) if result.objective == "max" else (result.total, result.worst))


#: Answer sets where the objectives disagree (found by trying random subsets of the fixture's
#: answers): the smallest worst case costs total guesses (COSTLY), or the plain mean search's
#: tree is deeper than an equally short one (SHALLOWER).
COSTLY = {False: "arise arose arson artsy ashen askew asset batch catch fight hatch latch light match patch right "
                 "tight",
          True: "arbor arise armor arrow arson atoll bight catch fight hatch latch might patch right"}
SHALLOWER = {False: "arbor arena argue arrow arson artsy batch fight hatch match patch sight wight",
             True: "arena aroma arson ashen aside askew assay batch catch fight light might right sight tight"}


@pytest.mark.parametrize("hard", [False, True])
def test_objectives_equal_the_exhaustive_reference(small, hard):
    rng = np.random.default_rng(11)
    ref = TreeReference(list(small.words.allowed), hard)
    cases = [(np.sort(rng.choice(small.words.answer_index, size, replace=False)), None) for size in (6, 12)]
    cases += [(np.sort(small.words.indices(words.split())), None) for words in (COSTLY[hard], SHALLOWER[hard])]
    cases += [(np.sort(small.words.indices(SHALLOWER[hard].split())), "fight")]
    if not hard:  # the whole list (in hard mode the -IGHT family needs 10 guesses: slow, not telling)
        cases += [(small.words.answer_index, "batch")]
    costly = shallower = 0
    for answers, opener in cases:
        words = _words(small, answers)
        want = ref.with_opener(words, opener) if opener else ref.without_opener(words)
        search = TreeSearch(small, "allowed", hard)
        op = None if opener is None else small.words.index(opener)
        plain = None
        for objective in ("mean", "max", "mean-then-max"):
            result = optimise(search, answers, op, None, objective)
            plain = plain or result
            assert _figures(result) == want[objective], (objective, opener, len(answers))
            check_tree(small, result.paths, answers, hard, result.total, result.worst)
            info = result.as_dict()
            assert info["total_proven"] and info["worst_case_proven"] == (objective != "mean")
            if objective == "max":  # d is minimal: the attempt at d - 1 failed, and it has no tree
                d = result.worst
                assert result.attempts[-1].depth_limit == d - 1 and result.attempts[-1].total is None
                assert root_cost(TreeSearch(small, "allowed", hard), answers, op, d - 1) >= INFEASIBLE
                assert result.as_dict()["infeasible_depths"] == [d - 1]
            if objective == "mean-then-max":  # the optimal total, and no tree with it is shallower
                assert result.total == want["mean"]
                fresh = TreeSearch(small, "allowed", hard)
                assert root_cost(fresh, answers, op, result.worst - 1) > result.total
        costly += want["max"][1] > want["mean"]
        shallower += result.worst < plain.worst
    # the cases exercise a worst case that costs total guesses, and a mean tree made shallower
    assert costly >= 1 and shallower >= 1


def test_a_cap_binds_every_objective(small):
    """Within a cap the three objectives agree with the reference limited to it; below the
    smallest worst case nothing is found (a one-line error)."""
    answers = np.sort(small.words.indices(COSTLY[False].split()))
    ref = TreeReference(list(small.words.allowed), False)
    words = _words(small, answers)
    worst = ref.minmax(words, frozenset(small.words.allowed))
    means = []
    for cap in (worst, worst + 1):
        want = ref.without_opener(words, cap)
        means.append(want["mean"])
        for objective in ("mean", "max", "mean-then-max"):
            result = optimise(TreeSearch(small, "allowed"), answers, None, cap, objective)
            assert _figures(result) == want[objective] and result.worst <= cap
    assert means[0] > means[1]  # the cap binds the mean objective
    with pytest.raises(EvoWordleError, match=f"within {worst - 1} guesses"):
        optimise(TreeSearch(small, "allowed"), answers, None, worst - 1, "max")
    with pytest.raises(EvoWordleError, match="objective must be"):
        optimise(TreeSearch(small, "allowed"), answers, None, None, "median")


def test_proposals_only_are_not_proofs(small):
    answers = small.words.answer_index
    tight = small.words.index("tight")
    exact = optimise(TreeSearch(small, "allowed"), answers, tight, 6, "max")
    for objective in ("max", "mean-then-max"):
        narrow = optimise(TreeSearch(small, "allowed", width=1), answers, tight, 6, objective)
        check_tree(small, narrow.paths, answers, False, narrow.total, narrow.worst)
        info = narrow.as_dict()
        assert not info["exhaustive"] and not info["worst_case_proven"] and not info["total_proven"]
        assert "among the proposals (not a proof)" in info["worst_case_note"]
        assert (info["total"], info["worst"]) == (narrow.total, narrow.worst)
        assert narrow.worst >= exact.worst
    assert (narrow.total, narrow.worst) >= (exact.total, 0)


def _lists(small, tmp_path, answer_words=None) -> list[str]:
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(small.words.allowed) + "\n")
    answers.write_text("\n".join(answer_words or small.words.answers) + "\n")
    return ["--allowed", str(allowed), "--answers", str(answers), "--candidates", "answers", "--guess-from", "allowed"]


@pytest.mark.parametrize("hard", [False, True])
def test_ga_tree_objective_cli(small, tmp_path, capsys, hard):
    words = COSTLY[hard].split()  # no SALET in the list: the first guess is searched too
    common = _lists(small, tmp_path, words) + (["--hard"] if hard else [])
    tree = tmp_path / "t.txt"
    ref = TreeReference(list(small.words.allowed), hard)
    want = ref.without_opener(frozenset(words), 6)
    assert want["max"][1] > want["mean"]
    seen = {}
    for objective in ("mean", "max", "mean-then-max"):
        assert main(["ga-tree", *common, "--exact", "--objective", objective, "--tree", str(tree), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        seen[objective] = out
        assert out["objective"] == objective and out["seconds"] >= 0
        assert out["mean_guesses"] == pytest.approx(out["total_guesses"] / len(words))
        lines = [line for line in tree.read_text().splitlines() if not line.startswith("#")]
        assert sum(len(line.split(":")[1].split()) for line in lines) == out["total_guesses"]
        assert max(len(line.split(":")[1].split()) for line in lines) == out["max_guesses"]
    assert seen["mean"]["total_guesses"] == want["mean"] and not seen["mean"]["worst_case_proven"]
    assert (seen["max"]["max_guesses"], seen["max"]["total_guesses"]) == want["max"]
    found = seen["max"]["objective_search"]
    assert seen["max"]["worst_case_proven"] and found["infeasible_depths"] == [want["max"][0] - 1]
    assert found["depth_limit"] == seen["max"]["settings"]["depth_limit"] == want["max"][0]
    assert [a["depth_limit"] for a in found["attempts"]][0] == 6 == seen["max"]["settings"]["depth_cap"]
    assert (seen["mean-then-max"]["total_guesses"], seen["mean-then-max"]["max_guesses"]) == want["mean-then-max"]
    assert seen["mean-then-max"]["total_proven"] and seen["mean-then-max"]["worst_case_proven"]
    # text output names the objective and what it proved
    assert main(["ga-tree", *common, "--exact", "--objective", "max", "--tree", str(tree)]) == 0
    text = capsys.readouterr().out
    assert f"objective max: {want['max'][0]} guesses always suffice, {want['max'][0] - 1} do not" in text
    assert f"least total within {want['max'][0]}: {want['max'][1]} " in text
    # a sample of the answers is shown, the objective's line still speaks of the whole tree
    assert main(["ga-tree", *common, "--exact", "--objective", "max", "--games", "3", "--tree", str(tree)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("3 answers (a sample, seed 0), opener ")
    assert f"least total within {want['max'][0]}: {want['max'][1]} " in text


def test_ga_tree_cap_follows_max_guesses(small, tmp_path, capsys):
    words = COSTLY[False].split()
    common = _lists(small, tmp_path, words)
    tree = tmp_path / "t.txt"
    d = TreeReference(list(small.words.allowed), False).minmax(frozenset(words), frozenset(small.words.allowed))
    assert main(["ga-tree", *common, "--exact", "--max-guesses", str(d), "--tree", str(tree), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["depth_cap"] == d and out["max_guesses"] <= d
    assert main(["ga-tree", *common, "--exact", "--max-guesses", str(d - 1), "--tree", str(tree)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"within {d - 1} guesses" in err
    for bad, words in ((["--max-guesses", "5", "--depth-limit", "6"], "exceeds the guess cap 5"),
                       (["--max-guesses", "5", "--depth-limit", "0"], "contradicts --max-guesses 5"),
                       (["--objective", "max"], "need --exact")):
        exact = [] if "need --exact" in words else ["--exact"]
        assert main(["ga-tree", *common, *exact, *bad, "--tree", str(tree)]) == 2
        err = capsys.readouterr().err.strip()
        assert words in err and len(err.splitlines()) == 1
    with pytest.raises(SystemExit) as stop:  # argparse refuses an unknown objective
        main(["ga-tree", *common, "--exact", "--objective", "worst", "--tree", str(tree)])
    assert stop.value.code == 2 and "invalid choice: 'worst'" in capsys.readouterr().err


def test_reference_lexicographic_pairs_are_consistent(small):
    """The reference's own sanity: its (total, worst) optimum has the optimal total, and its
    min-max depth is the least limit with any tree."""
    ref = TreeReference(list(small.words.allowed), False)
    words = _words(small, np.sort(small.words.indices(ATCH)))
    legal = frozenset(small.words.allowed)
    total, worst = ref.lexi(words, legal)
    assert total == ref.cost(words, legal) and worst >= ref.minmax(words, legal)
    assert ref.cost(words, legal, ref.minmax(words, legal) - 1) == INF
    assert reference_pattern("tight", "tight") == SOLVED


def test_root_cost_is_the_optimum_below_beta_and_a_bound_from_beta_on(small):
    """root_cost(cand, opener, depth, beta): the least total of a tree opening with ``opener``
    within ``depth`` guesses when it is below ``beta``; otherwise a value ≥ ``beta`` (≥ INFEASIBLE
    when no tree exists).  Checked against the exhaustive reference at every depth and at
    thresholds around the optimum, and by hand for one answer, one guess and no guesses left."""
    ref = TreeReference(list(small.words.allowed), False)
    rng = np.random.default_rng(5)
    cases = [(np.sort(small.words.indices(SHALLOWER[False].split())), "fight"),
             (np.sort(rng.choice(small.words.answer_index, 8, replace=False)), None)]
    cases[1] = (cases[1][0], small.words.allowed[int(cases[1][0][3])])  # an opener that may be the answer
    cases.append((np.sort(small.words.indices(IGHT[:6])), "tight"))
    for answers, opener in cases:
        words = _words(small, answers)
        op = small.words.index(opener)
        for depth in (None, 1, 2, 3, 4, 5):
            want = ref.with_opener(words, opener, INF if depth is None else depth)["mean"]
            finite = want < INF
            for beta in sorted({INFEASIBLE, *((want + 1, want, want - 1, want - 3) if finite else ())}):
                got = root_cost(TreeSearch(small, "allowed"), answers, op, depth, beta)
                if want < beta:
                    assert got == want, (opener, depth, beta)
                else:
                    assert got >= beta, (opener, depth, beta)
            if not finite:
                assert root_cost(TreeSearch(small, "allowed"), answers, op, depth) >= INFEASIBLE
    one = np.array([small.words.index("tight")])
    night = small.words.index("night")
    assert root_cost(TreeSearch(small, "allowed"), one, int(one[0]), 1) == 1  # the opener is the answer
    assert root_cost(TreeSearch(small, "allowed"), one, night, 1) >= INFEASIBLE  # one guess, not the answer
    assert root_cost(TreeSearch(small, "allowed"), one, night, 2) == 2
    assert root_cost(TreeSearch(small, "allowed"), one, int(one[0]), 0) >= INFEASIBLE
    two = np.sort(small.words.indices(["tight", "night"]))
    assert root_cost(TreeSearch(small, "allowed"), two, int(two[0]), 1) >= INFEASIBLE
    assert root_cost(TreeSearch(small, "allowed"), two, int(two[0]), 2) == 3


def test_the_attempts_record_each_limit_lowered_and_why_the_last_failed(small):
    """max / mean-then-max: the limits tried fall one by one from the worst game found; a tree found
    within a limit is recorded again at its own worst game (no search, 0 s); the last attempt
    fails: no tree within d − 1 (max), or every tree within it totals at least T* + 1
    (mean-then-max); the result's limit is its worst game."""
    answers = np.sort(small.words.indices(COSTLY[False].split()))
    ref = TreeReference(list(small.words.allowed), False)
    words = _words(small, answers)
    d = ref.minmax(words, frozenset(small.words.allowed))
    best_total = ref.cost(words, frozenset(small.words.allowed))
    for objective in ("max", "mean-then-max"):
        result = optimise(TreeSearch(small, "allowed"), answers, None, 8, objective)
        steps = result.attempts
        assert steps[0].depth_limit == 8 and steps[0].total is not None
        limits = [a.depth_limit for a in steps]
        assert all(b <= a for a, b in zip(limits, limits[1:]))
        for prev, a in zip(steps, steps[1:]):
            if a.note == "the tree above is within this limit":
                assert a.seconds == 0.0 and a.total == prev.total and a.worst == a.depth_limit == prev.worst
                assert a.depth_limit < prev.depth_limit  # only a tree below the limit tried is recorded again
            elif prev.total is not None and prev.worst < prev.depth_limit:
                pytest.fail(f"the tree within {prev.depth_limit} is {prev.worst} deep: not recorded at {prev.worst}")
            elif a.total is not None:
                assert a.depth_limit == prev.depth_limit - 1 and a.worst <= a.depth_limit
        last = steps[-1]
        assert last.total is None and last.worst is None
        if objective == "max":
            assert last.depth_limit == d - 1 and last.note == "no tree within this limit"
            assert result.worst == result.depth_limit == d
        else:
            assert result.total == best_total and last.depth_limit == result.worst - 1
            assert last.note.startswith("every tree within it totals ≥ ")
            assert int(last.note.rsplit(" ", 1)[1]) >= best_total + 1
            assert result.depth_limit == result.worst
        info = result.as_dict()
        assert info["limits_failed"] == [d - 1] if objective == "max" else info["limits_failed"] == [last.depth_limit]
    # one answer: one guess always suffices and no lower limit is tried; two: one guess does not
    one = optimise(TreeSearch(small, "allowed"), answers[:1], None, 6, "max")
    assert one.worst == 1 and one.as_dict()["limits_failed"] == []
    two = optimise(TreeSearch(small, "allowed"), answers[:2], None, 6, "max")
    assert two.worst == 2 and two.as_dict()["limits_failed"] == [1]
    attempt = result.attempts[0]
    attempt.seconds = 1.23456
    assert attempt.as_dict()["seconds"] == 1.23


def test_a_limit_no_proposal_tree_meets_names_the_proposal_width(small):
    answers = np.sort(small.words.indices(COSTLY[False].split()))
    d = TreeReference(list(small.words.allowed), False).minmax(_words(small, answers), frozenset(small.words.allowed))
    with pytest.raises(EvoWordleError, match=f"within {d - 1} guesses using the 1 best guesses per node$"):
        optimise(TreeSearch(small, "allowed", width=1), answers, None, d - 1, "max")
    with pytest.raises(EvoWordleError, match=f"within {d - 1} guesses$"):
        optimise(TreeSearch(small, "allowed"), answers, None, d - 1, "max")


def test_attempt_and_search_seconds_are_within_the_call(small):
    import time

    answers = np.sort(small.words.indices(COSTLY[False].split()))
    search = TreeSearch(small, "allowed")
    start = time.monotonic()
    result = optimise(search, answers, None, 8, "max")
    took = time.monotonic() - start
    assert all(0 <= a.seconds <= took for a in result.attempts)
    assert 0 < search.stats.seconds <= took


def _spy_on_part_searches(search: TreeSearch, monkeypatch) -> list[tuple[int, int]]:
    """(part size, threshold) of each search root_cost starts itself (not the searches those
    start in turn)."""
    calls: list[tuple[int, int]] = []
    inner = search.search
    depth = [0]

    def spy(members, legal, beta, limit=None):
        if not depth[0]:
            calls.append((len(members), beta))
        depth[0] += 1
        try:
            return inner(members, legal, beta, limit)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(search, "search", spy)
    return calls


def test_root_cost_searches_the_largest_part_first_and_stops_once_beta_is_reached(small, monkeypatch):
    """BATCH splits these 13 answers into parts of 3, 4, 1, 3 and 1 (in pattern order).  root_cost
    searches them largest first, each with what is left of beta beyond the other parts' bounds
    (2c − 1 each); with beta at the opener's own bound n + Σ (2c − 1) the first part's search
    proves it without expanding a node, and no other part is searched."""
    answers = np.sort(small.words.indices(SHALLOWER[False].split()))
    batch = small.words.index("batch")
    sizes = [len(m) for m, _ in TreeSearch(small, "allowed").parts(batch, answers)]
    assert sizes == [3, 4, 1, 3, 1]
    floor = len(answers) + sum(2 * c - 1 for c in sizes)
    want = TreeReference(list(small.words.allowed), False).with_opener(_words(small, answers), "batch")["mean"]
    assert want > floor
    search = TreeSearch(small, "allowed")
    calls = _spy_on_part_searches(search, monkeypatch)
    assert root_cost(search, answers, batch, None) == want
    assert [c for c, _ in calls] == [4, 3, 3, 1, 1]
    search = TreeSearch(small, "allowed")
    calls = _spy_on_part_searches(search, monkeypatch)
    assert root_cost(search, answers, batch, None, floor) == floor
    assert calls == [(4, 2 * 4 - 1)] and search.stats.expanded == 0


def test_a_cap_of_no_guess_has_no_tree_even_when_the_opener_is_the_answer(small):
    """The tree walk would play an opener that is the only answer with no guess left; optimise
    refuses it (one line; with proposals the width is named)."""
    tight = np.array([small.words.index("tight")])
    with pytest.raises(EvoWordleError, match="^no tree solves these 1 answers within 0 guesses$"):
        optimise(TreeSearch(small, "allowed"), tight, int(tight[0]), 0, "max")
    with pytest.raises(EvoWordleError, match="within 0 guesses using the 1 best guesses per node$"):
        optimise(TreeSearch(small, "allowed", width=1), tight, int(tight[0]), 0, "mean-then-max")


def test_proposals_stop_when_a_lower_limit_makes_the_total_worse(small):
    """mean-then-max over the 2 best proposals per node: the tree within 8 guesses totals 39 with
    games of at most 4; within 3 the proposals' best tree totals more, so the search stops there,
    keeps the 39-guess tree and records the limit as failed."""
    words = "arbor aroma arose ashen asset atoll batch bight eight light might night patch sight watch wight"
    answers = np.sort(small.words.indices(words.split()))
    result = optimise(TreeSearch(small, "allowed", width=2), answers, None, 8, "mean-then-max")
    assert [(a.depth_limit, a.total, a.worst, a.note) for a in result.attempts] == [
        (8, 39, 4, ""), (3, None, None, "total above 39")]
    assert (result.total, result.worst, result.depth_limit) == (39, 4, 4)
    assert result.as_dict()["limits_failed"] == [3]


def test_a_tree_within_a_lower_limit_that_is_shallower_still_is_recorded_at_its_own_depth(cache_dir):
    """Hard mode, 19 answers of another small list: the least total, 47 guesses, is met by a tree
    5 deep (the one found within 5 guesses) and by one 3 deep (found within 4).  Both objectives record
    the tree found within 4 again at 3, its own worst game, before trying 2; with a cap of 5 too, where
    the first tree is as deep as the cap and is not recorded again."""
    ctx = small_context("test-rules-search", IGHT, slice(400, 430), slice(None, None, 173), 70)
    words = "bight clasp cleat cleft clerk climb cloak clone clove clown clued coast colon eight fight might right " \
            "sight tight"
    answers = np.sort(ctx.words.indices(words.split()))
    again = "the tree above is within this limit"
    for objective in ("max", "mean-then-max"):
        for cap in (None, 5):
            result = optimise(TreeSearch(ctx, "allowed", True), answers, None, cap, objective)
            check_tree(ctx, result.paths, answers, True, result.total, result.worst)
            steps = [(a.depth_limit, a.total, a.worst, a.note) for a in result.attempts]
            first = [(cap, 47, 5, "")] + ([(5, 47, 5, again)] if cap is None else [])
            assert steps[:-1] == first + [(4, 47, 3, ""), (3, 47, 3, again)], (objective, cap)
            assert steps[-1][:3] == (2, None, None)
            assert result.worst == result.depth_limit == 3 and result.total == 47
