"""evo_wordle/evolve/plan.py and ``evo-wordle plan-tree``: the planned words are the prior's
likeliest, the tree is the branch-and-bound tree over them for the cheapest opener (checked
against TreeSearch itself and against every answer's own path), it is cut after ``depth``
decisions, and the command writes genome, prior, settings and tree, or refuses in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import TreeSearch
from evo_wordle.evolve.objectives import optimise
from evo_wordle.evolve.plan import MAX_DEPTH, MAX_OPENERS, MAX_WIDTH, likeliest, plan_tree
from evo_wordle.evolve.strategy import (
    StoredPrior,
    Strategy,
    StrategyPolicy,
    StrategySolver,
    history_key,
    parse_history_key,
    read_strategy_file,
    save_strategy,
)
from evo_wordle.game import GameState, Settings

from .small_lists import IGHT, small_context

P0 = Settings(candidates="allowed", guess_from="allowed")


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    return small_context("test-plan", IGHT, slice(300, 340), slice(None, None, 151), 60)


@pytest.fixture(scope="module")
def prior(small) -> np.ndarray:
    """Weights with ties: word i weighs 1 + (i * 7 mod 5), the -IGHT family 10 more (planned
    together, they need deep trees)."""
    w = 1.0 + (np.arange(len(small.words)) * 7 % 5)
    w[[small.words.index(x) for x in IGHT]] += 10.0
    return w


def test_the_planned_words_are_the_heaviest_with_ties_to_the_earlier_word():
    prior = np.array([1.0, 3.0, 2.0, 3.0, 0.5, 2.0])
    assert likeliest(prior, 2).tolist() == [1, 3]
    assert likeliest(prior, 3).tolist() == [1, 2, 3]  # 2 and 5 tie: the earlier word is planned
    assert likeliest(prior, 6).tolist() == [0, 1, 2, 3, 4, 5]
    for bad in (1, 7, 0, -2, True, 2.0, "3"):
        with pytest.raises(EvoWordleError, match="a plan covers 2 to 6 words") as err:
            likeliest(prior, bad)
        assert isinstance(err.value, ValueError)


def test_the_tree_is_the_cheapest_openers_branch_and_bound_tree_over_the_planned_words(small, prior):
    openers = [small.words.index(w) for w in ("sight", "caste", "light")]
    tree, info = plan_tree(small, P0, prior, 25, openers, width=4, depth=MAX_DEPTH)
    planned = likeliest(prior, 25)
    totals, paths = {}, {}
    for o in openers:
        found = optimise(TreeSearch(small, "allowed", False, 4), planned, o, P0.max_guesses)
        totals[small.words.allowed[o]], paths[small.words.allowed[o]] = found.total, found.paths
    assert info["totals"] == totals and info["planned"] == 25
    least = min(totals.values())
    first = next(w for w, t in totals.items() if t == least)  # the first of equal totals
    assert info["opener"] == first and tree[""] == first and len(set(totals.values())) > 1
    assert info["mean_over_planned"] == pytest.approx(least / 25)
    # each planned word meets the winner's own path in the stored tree, up to the opener + 4 decisions
    keys = set()
    for answer in planned.tolist():
        state = GameState.start(small, P0)
        for g in paths[first][answer][: 1 + MAX_DEPTH]:
            key = history_key(small, state.history)
            assert tree[key] == small.words.allowed[g]
            keys.add(key)
            state = state.after(g, int(small.table[g, answer]))
    assert keys == set(tree) and info["tree_entries"] == len(tree)
    assert max(len(p) for p in paths[first].values()) > 1 + MAX_DEPTH  # the cut at 4 decisions shows


def test_of_equal_totals_the_first_opener_wins(small, prior, monkeypatch):
    import evo_wordle.evolve.plan as plan

    class Found:  # every opener's tree costs the same
        def __init__(self, opener, planned):
            self.total, self.paths = 50, {int(a): [opener, int(a)] for a in planned}

    monkeypatch.setattr(plan, "optimise", lambda search, planned, opener, cap: Found(opener, planned))
    a, b = small.words.index("light"), small.words.index("caste")
    for first, second in ((a, b), (b, a)):
        tree, info = plan_tree(small, P0, prior, 10, [first, second], 3, 1)
        assert tree[""] == info["opener"] == small.words.allowed[first]
        assert info["totals"] == {small.words.allowed[first]: 50, small.words.allowed[second]: 50}


def test_the_tree_is_cut_after_depth_decisions(small, prior):
    opener = [small.words.index("sight")]
    full, _ = plan_tree(small, P0, prior, 30, opener, width=3, depth=MAX_DEPTH)
    for depth in (1, 2):
        cut, info = plan_tree(small, P0, prior, 30, opener, width=3, depth=depth)
        assert cut == {k: w for k, w in full.items() if len(parse_history_key(small, k)) <= depth}
        assert max(len(parse_history_key(small, k)) for k in cut) == depth
        assert info["tree_entries"] == len(cut)
    assert any(len(parse_history_key(small, k)) > 2 for k in full)  # the cut removed something


def test_a_plan_is_bounded(small, prior):
    sight = small.words.index("sight")
    cases = [
        (dict(openers=[]), "1 to 20 openers"),
        (dict(openers=[sight] * (MAX_OPENERS + 1)), "1 to 20 openers"),
        (dict(width=0), "1 to 100 guesses per node"),
        (dict(width=MAX_WIDTH + 1), "1 to 100 guesses per node"),
        (dict(width=True), "1 to 100 guesses per node"),
        (dict(depth=0), "1 to 4 decisions"),
        (dict(depth=MAX_DEPTH + 1), "1 to 4 decisions"),
        (dict(depth=1.0), "1 to 4 decisions"),
    ]
    for change, message in cases:
        kwargs = {"openers": [sight], "width": 3, "depth": 1, **change}
        with pytest.raises(EvoWordleError, match=message):
            plan_tree(small, P0, prior, 20, kwargs.pop("openers"), **kwargs)
    assert (MAX_OPENERS, MAX_WIDTH, MAX_DEPTH) == (20, 100, 4)
    assert plan_tree.__defaults__ == (20, 1)
    assert plan_tree(small, P0, prior, 20, [sight] * MAX_OPENERS, 1, 1)[1]["opener"] == "sight"
    assert plan_tree(small, P0, prior, 12, [sight], MAX_WIDTH, MAX_DEPTH)[0][""] == "sight"  # the upper bounds


def write_lists(tmp_path, small) -> tuple[str, str]:
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(small.words.allowed) + "\n")
    answers.write_text("\n".join(small.words.answers) + "\n")
    return str(allowed), str(answers)


GENOME = Strategy(opener="sight", steepness=8.0, midpoint=0.4, k1=0.3, k2=0.7, bonus=1.0, switch_eff=3.0)


def test_the_command_plans_under_the_files_prior_and_keeps_it(small, prior, tmp_path, capsys):
    allowed, answers = write_lists(tmp_path, small)
    ctx = Context(allowed=allowed, answers=answers)
    source = tmp_path / "g.json"
    stored = StoredPrior(prior, "made by hand")
    save_strategy(source, GENOME, {"split": {"seed": 1}, "lookahead": {"old": 1}}, {"": "sight"}, P0, ctx.words, stored)
    out = tmp_path / "plan.json"
    assert main(["plan-tree", "--strategy", str(source), "--allowed", allowed, "--answers", answers,
                 "--top", "25", "--openers", "caste, light,caste", "--width", "4", "--depth", "2",
                 "--out", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert captured.err.splitlines()[0] == (f"evo-wordle: warning: strategy file {source}'s stored tree (1 decision, "
                                            "opening with SIGHT) is not kept: plan-tree starts from the genome's "
                                            "opener SIGHT")
    caste, light = ctx.words.index("caste"), ctx.words.index("light")
    tree, info = plan_tree(ctx, P0, prior, 25, [caste, light], 4, 2)  # a repeated opener is tried once
    f = read_strategy_file(out)
    assert f.tree == tree and f.strategy == GENOME and f.made_for == read_strategy_file(source).made_for
    np.testing.assert_array_equal(f.prior.weights, prior)
    assert f.prior.about == "made by hand"
    assert summary["totals"] == info["totals"] and summary["opener"] == info["opener"] == tree[""]
    plan = f.provenance["plan"]
    assert (plan["top"], plan["width"], plan["depth"], plan["from"]) == (25, 4, 2, str(source))
    assert plan["command"].startswith("evo-wordle plan-tree") and "lookahead" not in f.provenance
    assert f.provenance["split"] == {"seed": 1}
    played = StrategySolver(ctx, P0, strategy=out)
    assert played.policy.tree == {k: ctx.words.index(v) for k, v in tree.items()}
    np.testing.assert_array_equal(played.policy.prior, prior)


def test_without_openers_the_genomes_own_opens_and_its_own_prior_picks_the_words(small, tmp_path, capsys):
    allowed, answers = write_lists(tmp_path, small)
    ctx = Context(allowed=allowed, answers=answers)
    source = tmp_path / "g.json"
    save_strategy(source, GENOME, {}, None, P0, ctx.words)
    out = tmp_path / "plan.json"
    assert main(["plan-tree", "--strategy", str(source), "--allowed", allowed, "--answers", answers,
                 "--top", "20", "--width", "3", "--out", str(out)]) == 0
    assert "SIGHT opens" in capsys.readouterr().out
    own = StrategyPolicy(ctx, GENOME).prior
    tree, _ = plan_tree(ctx, P0, own, 20, [ctx.words.index("sight")], 3, 1)
    f = read_strategy_file(out)
    assert f.tree == tree and f.prior is None


def test_the_command_refuses_what_it_cannot_plan_in_one_line(small, tmp_path, capsys):
    allowed, answers = write_lists(tmp_path, small)
    ctx = Context(allowed=allowed, answers=answers)
    good = tmp_path / "good.json"
    save_strategy(good, GENOME, {}, None, P0, ctx.words)
    old = tmp_path / "old.json"
    save_strategy(old, GENOME)
    many = ",".join(ctx.words.allowed[:21])
    cases = [
        (["--strategy", str(old), "--top", "20"], "records no settings"),
        (["--strategy", str(good), "--top", "1"], f"--top takes 2 to {len(ctx.words)} words"),
        (["--strategy", str(good), "--top", str(len(ctx.words) + 1)], "--top takes 2 to"),
        (["--strategy", str(good), "--top", "20", "--width", "101"], "--width is at most 100"),
        (["--strategy", str(good), "--top", "20", "--depth", "5"], "--depth at most 4"),
        (["--strategy", str(good), "--top", "20", "--openers", many], "at most 20 words, not 21"),
        (["--strategy", str(good), "--top", "20", "--openers", "caste,,light"], "--openers"),
        (["--strategy", str(good), "--top", "20", "--openers", ""], "--openers must be a value"),
        (["--strategy", str(good), "--top", "20", "--openers", " "], "--openers must be a value"),
        (["--strategy", str(good), "--top", "20", "--openers", "zzzzz"], "zzzzz"),
        (["--strategy", str(tmp_path / "missing.json"), "--top", "20"], "does not exist"),
    ]
    for argv, message in cases:
        code = main(["plan-tree", *argv, "--allowed", allowed, "--answers", answers, "--out", str(tmp_path / "x.json")])
        err = capsys.readouterr().err
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert not (tmp_path / "x.json").exists()


def test_the_shipped_plan_is_the_documented_command_over_the_shipped_fitted_prior():
    """p0-plan.json: made from p0-fitted (whose prior it keeps) with the registered command's options."""
    plan, fitted = read_strategy_file("p0-plan"), read_strategy_file("p0-fitted")
    np.testing.assert_array_equal(plan.prior.weights, fitted.prior.weights)
    assert plan.strategy == fitted.strategy and plan.made_for == fitted.made_for
    record = plan.provenance["plan"]
    assert (record["from"], record["top"], record["width"], record["depth"]) == ("p0-fitted", 2300, 20, 1)
    assert plan.tree[""] == record["opener"] == "crane"
    assert fitted.provenance["split"] == plan.provenance["split"] and not fitted.tree


def test_a_file_whose_prior_weighs_another_allowed_list_is_refused_in_one_line(small, prior, tmp_path, capsys):
    """bench, solve and compare: one error line (no warning about the lists before it), exit 2."""
    allowed, answers = write_lists(tmp_path, small)
    ctx = Context(allowed=allowed, answers=answers)
    source = tmp_path / "g.json"
    save_strategy(source, GENOME, {}, None, P0, ctx.words, StoredPrior(prior, "by hand"))
    fewer = tmp_path / "fewer.txt"  # another allowed list that still holds every answer and the opener
    dropped = next(w for w in ctx.words.allowed if w not in ctx.words.answers)
    fewer.write_text("\n".join(w for w in ctx.words.allowed if w != dropped) + "\n")
    lists = ["--allowed", str(fewer), "--answers", answers]
    for argv in (["bench", "--games", "3"], ["solve", "light"], ["compare", "--solvers", "strategy", "--games", "3"]):
        code = main([*argv, "--strategy", str(source), *lists])
        err = capsys.readouterr().err
        assert code == 2 and err.strip().splitlines() == [
            f"evo-wordle: error: strategy file {source}: its prior was made for another allowed list"], (argv, err)
    assert main(["solve", "light", "--strategy", str(source), "--allowed", allowed, "--answers", answers]) == 0
