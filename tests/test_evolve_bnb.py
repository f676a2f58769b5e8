"""Branch and bound on decision trees (evolve/bnb.py, issue 14) against an exhaustive search
written here from first principles: colours from tests/reference.py, hard-mode legality from
the rule's text, no bounds and no ordering.  Normal and hard mode, with and without a depth
limit; bounds never above trees; trees replay; ga-tree --exact end to end."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import INFEASIBLE, TreeSearch, certify, part_stats

from .reference import reference_pattern
from .small_lists import ATCH, IGHT, small_context

INF = float("inf")


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    """36 answers (two rhyming families and 19 NYT answers) and 96 allowed words."""
    return small_context("test-bnb", IGHT + ATCH, slice(100, 119), slice(None, None, 211), 60)


class Reference:
    """Exhaustive optimal totals over words (strings), memoised on (answers, legal words, depth)."""

    def __init__(self, words: list[str], hard: bool, only_candidates: bool = False) -> None:
        self.words = words
        self.hard = hard
        self.only_candidates = only_candidates
        self.memo: dict = {}

    @staticmethod
    @cache
    def colours(guess: str, answer: str) -> int:
        return reference_pattern(guess, answer)

    @staticmethod
    def legal_after(word: str, guess: str, code: int) -> bool:
        """Hard mode: every green of ``guess`` kept in place, every revealed letter reused as often."""
        trits = []
        for _ in guess:
            trits.append(code % 3)
            code //= 3
        trits.reverse()
        for pos, t in enumerate(trits):
            if t == 2 and word[pos] != guess[pos]:
                return False
        revealed = [c for c, t in zip(guess, trits) if t > 0]
        return all(word.count(c) >= revealed.count(c) for c in set(revealed))

    @staticmethod
    @cache
    def narrow(legal: frozenset, guess: str, code: int) -> frozenset:
        return frozenset(w for w in legal if Reference.legal_after(w, guess, code))

    def cost(self, answers: frozenset, legal: frozenset, left: float = INF) -> float:
        if left < 1 or (len(answers) >= 2 and left < 2):
            return INF
        if len(answers) == 1:
            return 1
        key = (answers, legal if self.hard else None, left)
        if key in self.memo:
            return self.memo[key]
        best = INF
        pool = answers if self.only_candidates else legal
        for g in sorted(pool):
            parts: dict[int, set] = {}
            for a in answers:
                parts.setdefault(self.colours(g, a), set()).add(a)
            if len(parts) == 1 and g not in answers:
                continue
            total = len(answers)
            for code, part in parts.items():
                if code == 3 ** 5 - 1:
                    continue
                nxt = self.narrow(legal, g, code) if self.hard else legal
                total += self.cost(frozenset(part), nxt, left - 1)
            best = min(best, total)
        self.memo[key] = best
        return best


def _words(ctx, idx) -> frozenset:
    return frozenset(ctx.words.allowed[i] for i in np.asarray(idx).tolist())


def first_guess_bound(ctx, answers: np.ndarray) -> int:
    """min over guesses of n + Σ (2c − 1) over the parts other than "solved" (written out here)."""
    n, best = len(answers), None
    for g in range(len(ctx.words)):
        codes = [reference_pattern(ctx.words.allowed[g], ctx.words.allowed[a]) for a in answers.tolist()]
        parts = {c: codes.count(c) for c in codes if c != 242}
        if len(parts) == 1 and g not in answers.tolist() and len(set(codes)) == 1:
            continue
        bound = n + sum(2 * c - 1 for c in parts.values())
        best = bound if best is None else min(best, bound)
    return best


def check_tree(ctx, tree: dict[int, list[int]], answers: np.ndarray, hard: bool, total: int, depth=None) -> None:
    """Every answer solved, the tree consistent (one guess per history), hard-mode legal."""
    assert sorted(tree) == answers.tolist()
    assert sum(len(p) for p in tree.values()) == total
    if depth is not None:
        assert max(len(p) for p in tree.values()) <= depth
    seen: dict[tuple, int] = {}
    words = ctx.words.allowed
    for answer, path in tree.items():
        assert path[-1] == answer and answer not in path[:-1]
        history: tuple = ()
        for g in path:
            assert seen.setdefault(history, g) == g
            for prev, code in history:
                if hard:
                    assert Reference.legal_after(words[g], words[prev], code)
            history += ((g, reference_pattern(words[g], words[answer])),)


def test_part_stats_count_parts_and_squares():
    rng = np.random.default_rng(3)
    for n in (3, 9, 30, 201, 240):  # both code paths: pairwise and histogram
        block = rng.integers(0, 7, size=(n, 50)).astype(np.uint8)
        parts, squares = part_stats(block, 243)
        for j in range(50):
            _, counts = np.unique(block[:, j], return_counts=True)
            assert parts[j] == len(counts) and squares[j] == int((counts ** 2).sum())


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("depth", [None, 3])
def test_exhaustive_search_equals_reference(small, hard, depth):
    rng = np.random.default_rng(5)
    allowed = list(small.words.allowed)
    ref = Reference(allowed, hard)
    search = TreeSearch(small, "allowed", hard)
    for size in (5, 9, 13):
        answers = np.sort(rng.choice(small.words.answer_index, size, replace=False))
        want = ref.cost(_words(small, answers), frozenset(allowed), INF if depth is None else depth)
        if want == INF:
            with pytest.raises(EvoWordleError, match="within"):
                search.cost(answers, None, depth)
            continue
        assert search.cost(answers, None, depth) == want
        check_tree(small, search.tree(answers, None, depth), answers, hard, want, depth)


def test_optimum_needs_recursion_and_matches_reference(small):
    # the -IGHT family: the optimum lies above every first guess's bound, so subtrees are searched
    answers = np.sort(small.words.indices(IGHT))
    want = Reference(list(small.words.allowed), False).cost(_words(small, answers), frozenset(small.words.allowed))
    assert want > first_guess_bound(small, answers)
    search = TreeSearch(small, "allowed", False)
    assert search.cost(answers) == want
    assert search.stats.expanded > 1 and search.stats.examined > 1


def test_guessing_only_candidates_equals_reference(small):
    answers = np.sort(small.words.indices(ATCH + ["fight", "light"]))
    want = Reference([], False, only_candidates=True).cost(_words(small, answers), frozenset())
    search = TreeSearch(small, "candidates")
    assert search.cost(answers) == want
    tree = search.tree(answers)
    check_tree(small, tree, answers, False, want)
    assert all(set(p) <= set(answers.tolist()) for p in tree.values())


def test_every_answer_of_the_list_with_an_opener(small):
    """The whole 36-answer list from a fixed opener: exact = reference, a narrow search never
    below it, and the certified bound never above any tree (equal to the optimum with time)."""
    answers = small.words.answer_index
    opener = small.words.index("tight")
    allowed = frozenset(small.words.allowed)
    ref = Reference(list(small.words.allowed), False)
    codes: dict[int, set] = {}
    for a in answers.tolist():
        codes.setdefault(reference_pattern("tight", small.words.allowed[a]), set()).add(small.words.allowed[a])
    want = len(answers) + sum(ref.cost(frozenset(p), allowed) for c, p in codes.items() if c != 242)
    exact = TreeSearch(small, "allowed")
    tree = exact.tree(answers, None, None, opener)
    check_tree(small, tree, answers, False, want)
    narrow = TreeSearch(small, "allowed", width=1)
    narrow_total = sum(len(p) for p in narrow.tree(answers, None, None, opener).values())
    assert narrow_total >= want
    assert narrow.stats.examined <= narrow.stats.expanded < exact.stats.examined  # one proposal per node
    assert narrow.stats.as_dict()["worst_best_rank"] == 0
    counts = exact.stats.as_dict()
    top = [counts["best_in_top"][k] for k in ("1", "5", "10", "50")]
    assert top == sorted(top) and top[-1] <= counts["nodes_solved"] == sum(exact.stats.best_rank.values()) > 0
    parts = list(exact.parts(opener, answers))
    upper = [sum(len(tree[a]) - 1 for a in part.tolist()) for part, _ in parts]
    cert = certify(small, parts, upper, seconds=30)
    assert all(cert.settled) and len(answers) + cert.total == want <= narrow_total
    quick = certify(small, parts, upper, seconds=0)  # no time: the one-scan bounds only
    assert len(answers) + quick.total <= want


def test_hard_mode_certificate_never_exceeds_the_tree(small):
    answers = small.words.answer_index
    opener = small.words.index("crane") if small.words.contains("crane") else int(answers[0])
    narrow = TreeSearch(small, "allowed", hard=True, width=2)
    tree = narrow.tree(answers, None, 6, opener)
    total = sum(len(p) for p in tree.values())
    check_tree(small, tree, answers, True, total, 6)
    parts = list(narrow.parts(opener, answers))
    upper = [sum(len(tree[a]) - 1 for a in part.tolist()) for part, _ in parts]
    cert = certify(small, parts, upper, hard=True, depth=5, seconds=30)
    exact_total = sum(len(p) for p in TreeSearch(small, "allowed", hard=True).tree(answers, None, 6, opener).values())
    assert len(answers) + cert.total == exact_total <= total


def test_depth_one_and_two_are_infeasible_for_pairs(small):
    search = TreeSearch(small, "allowed")
    pair = np.sort(small.words.indices(["fight", "light"]))
    assert search.search(pair, None, INFEASIBLE, 1) == INFEASIBLE
    assert search.search(pair, None, INFEASIBLE, 2) == 3
    with pytest.raises(EvoWordleError, match="within 2 guesses"):
        search.cost(np.sort(small.words.indices(IGHT)), None, 2)
    tight = small.words.index("tight")
    with pytest.raises(EvoWordleError, match=r"answers left after TIGHT:0222\d cannot all be solved in the 1 guesses"):
        search.tree(np.sort(small.words.indices(IGHT)), None, 2, tight)


def test_ga_tree_exact_cli(small, tmp_path, capsys):
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(small.words.allowed) + "\n")
    answers.write_text("\n".join(small.words.answers) + "\n")
    tree = tmp_path / "t.txt"
    common = ["--allowed", str(allowed), "--answers", str(answers), "--candidates", "answers",
              "--guess-from", "allowed", "--opener", "tight"]
    assert main(["ga-tree", *common, "--exact", "--bound", "--tree", str(tree), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total_guesses"] == out["lower_bound"] and out["gap"] == 0
    assert out["mean_guesses"] == pytest.approx(out["total_guesses"] / len(small.words.answers))
    assert out["max_guesses"] <= 6 and out["seconds"] >= 0 and out["method"] == "exact"
    lines = [line for line in tree.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == len(small.words.answers) and all(": tight" in line for line in lines)
    assert sum(len(line.split(":")[1].split()) for line in lines) == out["total_guesses"]
    assert main(["ga-tree", *common, "--exact", "--width", "1", "--bound", "--bound-seconds", "20",
                 "--tree", str(tree), "--json"]) == 0
    narrow = json.loads(capsys.readouterr().out)
    assert narrow["lower_bound"] <= out["total_guesses"] <= narrow["total_guesses"]
    assert narrow["gap"] == narrow["total_guesses"] - narrow["lower_bound"]
    assert main(["bench", *common[:-2], "--solver", "ga-search", "--tree", str(tree), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean_guesses"] == narrow["mean_guesses"]
    assert main(["ga-tree", *common, "--width", "3", "--tree", str(tree)]) == 2
    assert "--exact" in capsys.readouterr().err
    assert main(["ga-tree", *common, "--exact", "--bound", "--games", "5", "--tree", str(tree)]) == 2
