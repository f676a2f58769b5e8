"""Exhaustive optimal trees (exact.py) and the ga-search solver on small answer lists."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.exact import ExactSolver, optimal_cost
from evo_wordle.evolve.search import load_tree, tree_paths, write_tree
from evo_wordle.game import Settings
from evo_wordle.words import WordSet


def brute_force(ctx: Context, answers: tuple[int, ...], guesses: tuple[int, ...]) -> int:
    """Plain recursion over every guess, no bounds, no ordering (tiny inputs only)."""
    if len(answers) == 1:
        return 1
    best = None
    for g in guesses:
        parts: dict[int, list[int]] = {}
        for a in answers:
            parts.setdefault(int(ctx.table[g, a]), []).append(a)
        if len(parts) == 1 and g not in answers:
            continue
        total = len(answers) + sum(
            brute_force(ctx, tuple(p), guesses) for code, p in parts.items() if code != ctx.words.solved
        )
        best = total if best is None else min(best, total)
    return best


def test_exact_matches_brute_force(ctx):
    rng = np.random.default_rng(11)
    for _ in range(4):
        answers = np.sort(rng.choice(ctx.words.answer_index, 7, replace=False))
        guesses = np.union1d(answers, rng.choice(len(ctx.words), 4, replace=False))
        want = brute_force(ctx, tuple(answers.tolist()), tuple(guesses.tolist()))
        assert optimal_cost(ctx, answers, guesses) == want
        tree = ExactSolver(ctx, guesses).tree(answers)
        assert sorted(tree) == answers.tolist()
        assert sum(len(p) for p in tree.values()) == want and all(p[-1] == a for a, p in tree.items())


def test_exact_refuses_large_lists(ctx):
    with pytest.raises(EvoWordleError, match="at most 30"):
        optimal_cost(ctx, ctx.words.answer_index[:31])


@pytest.fixture(scope="module")
def small_ctx(ctx) -> Context:
    """28 answers, a 70-word guess list (the answers plus 42 others): its own pattern table."""
    rng = np.random.default_rng(4)
    answers = sorted(ctx.words.allowed[i] for i in rng.choice(ctx.words.answer_index, 28, replace=False))
    others = [ctx.words.allowed[i] for i in rng.choice(len(ctx.words), 42, replace=False)]
    allowed = tuple(sorted(set(answers) | set(others)))
    small = Context(words=WordSet(allowed, tuple(answers), label="test-small"))
    small.table  # noqa: B018
    return small


@pytest.mark.parametrize("hard", [False, True])
def test_ga_search_finds_optimal_tree(small_ctx, hard):
    settings = Settings(candidates="answers", guess_from="allowed", hard=hard)
    answers = small_ctx.words.answer_index
    result = run_bench(small_ctx, "ga-search", settings, answers, 0,
                       {"exact_limit": 12, "population": 8, "generations": 4})
    assert all(r.solved for r in result.records)
    best = optimal_cost(small_ctx, answers, small_ctx.all_words)
    if hard:  # hard mode only removes options; its look-ahead finishes over candidates
        assert best <= result.scores().sum() <= run_bench(small_ctx, "naive", settings, answers).scores().sum()
    else:
        assert result.scores().sum() == best


def test_ga_search_beats_or_matches_greedy_rollout(small_ctx):
    settings = Settings(candidates="answers", guess_from="allowed")
    answers = small_ctx.words.answer_index
    ga = run_bench(small_ctx, "ga-search", settings, answers, 0, {"exact_limit": 0, "population": 6})
    naive = run_bench(small_ctx, "naive", settings, answers)
    assert ga.scores().sum() <= naive.scores().sum() + 0  # look-ahead over greedy never loses here
    assert ga.scores().sum() >= optimal_cost(small_ctx, answers, small_ctx.all_words)


def test_tree_export_and_instant_replay(tmp_path, ctx):
    settings = Settings(candidates="answers", guess_from="allowed")
    answers = ctx.words.answer_index[::150]
    built = run_bench(ctx, "ga-search", settings, answers, 0)
    path = tmp_path / "tree.txt"
    write_tree(ctx, path, tree_paths(built.records))
    lines = path.read_text().splitlines()
    assert len(lines) == len(answers) and lines[0].startswith(ctx.words.allowed[answers[0]] + ": salet")
    replay = run_bench(ctx, "ga-search", settings, answers, 0, {"tree": path})
    assert [r.guesses for r in replay.records] == [r.guesses for r in built.records]
    assert replay.seconds < built.seconds
    tree = load_tree(ctx, path)
    assert tree[""] == ctx.words.index("salet")
    bad = tmp_path / "bad.txt"
    bad.write_text("cigar: salet zzzzz cigar\n")
    with pytest.raises(EvoWordleError, match="line 1"):
        load_tree(ctx, bad)
    assert main(["bench", "--solver", "ga-search", "--tree", str(bad), "--games", "2"]) == 2


def test_a_replayed_tree_names_its_opener_and_refuses_another(tmp_path, ctx, capsys):
    # the tree's first move is the opener every summary names; an --opener the tree would not
    # play is refused instead of printed beside another word's games
    settings = Settings(candidates="answers", guess_from="allowed")
    answers = ctx.words.answer_index[::300]
    path = tmp_path / "tree.txt"
    built = run_bench(ctx, "ga-search", settings, answers, 0, {"opener": "crane"})
    write_tree(ctx, path, tree_paths(built.records), settings)
    replay = run_bench(ctx, "ga-search", settings, answers, 0, {"tree": path})
    assert replay.params["opener"] == "crane" and {r.guesses[0] for r in replay.records} == {ctx.words.index("crane")}
    same = run_bench(ctx, "ga-search", settings, answers, 0, {"tree": path, "opener": "crane"})
    assert same.params["opener"] == "crane"
    with pytest.raises(EvoWordleError, match="opens with CRANE"):
        run_bench(ctx, "ga-search", settings, answers, 0, {"tree": path, "opener": "salet"})
    flags = ["--candidates", "answers", "--guess-from", "allowed", "--games", "8", "--tree", str(path)]
    assert main(["bench", "--solver", "ga-search", *flags, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["opener"] == "crane"
    assert main(["bench", "--solver", "ga-search", *flags, "--opener", "salet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "opens with CRANE" in err


def test_ga_tree_cli_writes_strategy_file(tmp_path, ctx, capsys):
    tree, out = tmp_path / "t.txt", tmp_path / "s.json"
    assert main(["ga-tree", "--candidates", "answers", "--guess-from", "allowed", "--games", "12",
                 "--tree", str(tree), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["bench", "--strategy", str(out), "--candidates", "answers", "--guess-from", "allowed",
                 "--games", "12", "--json"]) == 0
    assert '"solver": "strategy"' in capsys.readouterr().out
