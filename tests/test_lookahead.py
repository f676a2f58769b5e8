"""evo_wordle/evolve/lookahead.py and ``evo-wordle lookahead-tree``: the expected guesses of a
guess under the genome's own play (checked against a plain replay with reference patterns), the
tree's choices (the cheapest of the genome's ``width`` best, never worse than the genome in
expectation), its bounds, and the command's file and errors, on a small list."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.lookahead import MAX_TURNS, MAX_WIDTH, expected_guesses, lookahead_tree, play_out
from evo_wordle.evolve.strategy import (
    Strategy,
    StrategyPolicy,
    StrategySolver,
    history_key,
    parse_history_key,
    read_strategy_file,
    save_strategy,
)
from evo_wordle.game import GameState, Settings
from evo_wordle.words import WordSet
from tests.reference import reference_pattern

from .small_lists import IGHT, small_context

P0 = Settings(candidates="allowed", guess_from="allowed")
STRICT = Settings(candidates="allowed", guess_from="candidates")


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    return small_context("test-look", IGHT, slice(300, 330), slice(None, None, 151), 50)


@pytest.fixture(scope="module")
def genome(small) -> Strategy:
    return Strategy(opener="sight", steepness=8.0, midpoint=0.4, k1=0.3, k2=0.7, bonus=1.0, switch_eff=3.0)


def plain_play(small, policy, state, answer, guess_from, cap) -> int:
    """The genome's guesses from ``state`` to ``answer`` (at most ``cap``), patterns from the reference."""
    n = 0
    while n < cap:
        g = policy.decide(state, guess_from)
        n += 1
        if g == answer:
            return n
        state = state.after(g, reference_pattern(small.words.allowed[g], small.words.allowed[answer]))
    return cap


def plain_expectation(small, policy, state, guess, settings) -> float:
    cand = state.candidates
    w = policy.weights(cand)
    cap = settings.max_guesses - state.turn - 1
    total = 0.0
    for c, wc in zip(cand.tolist(), w.tolist()):
        if c == guess:
            total += wc
            continue
        later = state.after(guess, reference_pattern(small.words.allowed[guess], small.words.allowed[c]))
        total += wc * (1 + plain_play(small, policy, later, c, settings.guess_from, cap))
    return total


def tree_mean(small, policy, settings, tree) -> float:
    """The prior-weighted mean guesses over every candidate, the tree's moves first, then the genome's."""
    chosen = {k: small.words.index(v) for k, v in tree.items()}
    start = GameState.start(small, settings)
    w = policy.weights(start.candidates)
    total = 0.0
    for c, wc in zip(start.candidates.tolist(), w.tolist()):
        state, n = start, 0
        while True:
            g = chosen.get(history_key(small, state.history))
            g = policy.decide(state, settings.guess_from) if g is None else g
            n += 1
            if g == c or n == settings.max_guesses:
                break
            state = state.after(g, int(small.table[g, c]))
        total += wc * n
    return total


@pytest.mark.parametrize("settings", [P0, STRICT], ids=["any-guess", "strict"])
def test_expected_guesses_follow_the_genomes_own_play_weighted_by_its_prior(small, genome, settings):
    policy = StrategyPolicy(small, genome)
    start = GameState.start(small, settings)
    first = policy.decide(start, settings.guess_from)
    answer = small.words.index("night")  # SIGHT leaves the -IGHT family
    state = start.after(first, int(small.table[first, answer]))
    assert len(state.candidates) > 2
    guesses, cost = policy.costs(state, settings.guess_from)
    for g in guesses[np.argsort(cost, kind="stable")[:4]].tolist():
        assert expected_guesses(policy, state, g, settings) == pytest.approx(
            plain_expectation(small, policy, state, g, settings), rel=1e-12)
    for c in state.candidates[:5].tolist():
        assert play_out(policy, state, c, settings.guess_from, 9) == plain_play(small, policy, state, c,
                                                                               settings.guess_from, 9)


def test_a_game_that_runs_out_of_guesses_counts_every_guess_left(small, genome):
    policy = StrategyPolicy(small, genome)
    start = GameState.start(small, P0)
    stuck = [c for c in start.candidates.tolist() if plain_play(small, policy, start, c, "allowed", 9) >= 3]
    assert stuck
    c = stuck[0]
    assert play_out(policy, start, c, "allowed", 2) == 2 and play_out(policy, start, c, "allowed", 0) == 0
    sight = small.words.index("sight")
    state = start.after(sight, int(small.table[sight, c]))
    g = next(x for x in state.candidates.tolist() if x != c)
    w = dict(zip(state.candidates.tolist(), policy.weights(state.candidates).tolist()))
    # the last guess of the game: a hit and a miss both end it at the cap (a failure scores the cap)
    assert expected_guesses(policy, state, g, P0.with_(max_guesses=2)) == pytest.approx(1.0)
    # one more guess after this one: a miss then costs 2 whatever the genome plays
    assert expected_guesses(policy, state, g, P0.with_(max_guesses=3)) == pytest.approx(w[g] + 2 * (1 - w[g]))


@pytest.mark.parametrize("settings", [P0, STRICT], ids=["any-guess", "strict"])
def test_the_tree_keeps_the_cheapest_of_the_genomes_best_and_never_loses_in_expectation(small, genome, settings):
    policy = StrategyPolicy(small, genome)
    tree, stats = lookahead_tree(small, settings, policy, turns=2, width=6)
    assert tree[""] == "sight"
    assert len(stats["states"]) == 2 and stats["states"][0] > 0
    for key, word in tree.items():  # the opener, then states after one or two guesses
        assert len(parse_history_key(small, key)) <= 2 and small.words.contains(word)
    start = GameState.start(small, settings)
    first = small.words.index("sight")
    for answer in start.candidates.tolist()[:12]:  # decision 1: the cheapest of the genome's 6 best
        if answer == first:
            continue
        state = start.after(first, int(small.table[first, answer]))
        if len(state.candidates) <= 2:
            assert history_key(small, state.history) not in tree
            continue
        guesses, cost = policy.costs(state, settings.guess_from)
        best6 = guesses[np.argsort(cost, kind="stable")[:6]].tolist()
        scores = [plain_expectation(small, policy, state, g, settings) for g in best6]
        assert tree[history_key(small, state.history)] == small.words.allowed[best6[int(np.argmin(scores))]]
    own = tree_mean(small, policy, settings, {"": "sight"})
    assert tree_mean(small, policy, settings, tree) <= own + 1e-12
    narrow, narrow_stats = lookahead_tree(small, settings, policy, turns=2, width=1)
    assert narrow_stats["changed"] == [0, 0]  # one guess scored: the genome's own
    assert tree_mean(small, policy, settings, narrow) == pytest.approx(own)


def test_the_lookahead_is_bounded(small, genome):
    policy = StrategyPolicy(small, genome)
    for turns, width in ((0, 10), (MAX_TURNS + 1, 10), (True, 10), (2, 0), (2, MAX_WIDTH + 1), (2, 2.5)):
        with pytest.raises(EvoWordleError, match="the lookahead"):
            lookahead_tree(small, P0, policy, turns, width)


def write_lists(tmp_path, small) -> tuple[str, str]:
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(small.words.allowed) + "\n")
    answers.write_text("\n".join(small.words.answers) + "\n")
    return str(allowed), str(answers)


def test_the_command_writes_the_genome_its_settings_and_the_lookahead_tree(small, genome, tmp_path, capsys):
    allowed, answers = write_lists(tmp_path, small)
    ctx = Context(allowed=allowed, answers=answers)
    source = tmp_path / "g.json"
    planned = {"split": {"seed": 1}, "command": "made by hand", "plan": {"opener": "sight"}}
    save_strategy(source, genome, planned, {"": "sight"}, P0, ctx.words)
    out = tmp_path / "look.json"
    assert main(["lookahead-tree", "--strategy", str(source), "--allowed", allowed, "--answers", answers,
                 "--turns", "1", "--width", "5", "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    f = read_strategy_file(out)
    tree, stats = lookahead_tree(ctx, P0, StrategyPolicy(ctx, genome), 1, 5)
    assert f.strategy == genome and f.tree == tree and f.made_for == read_strategy_file(source).made_for
    assert summary["states"] == stats["states"] and summary["overruled"] == stats["changed"]
    assert f.provenance["command"] == "made by hand" and f.provenance["split"] == {"seed": 1}
    assert "plan" not in f.provenance  # the plan's tree is not in this file
    look = f.provenance["lookahead"]
    assert (look["turns"], look["width"], look["from"]) == (1, 5, str(source))
    assert look["command"].startswith("evo-wordle lookahead-tree")
    played = StrategySolver(ctx, P0, strategy=out)
    assert played.policy.tree == {k: ctx.words.index(v) for k, v in tree.items()}


def test_the_command_refuses_what_it_cannot_look_ahead_in_one_line(small, genome, tmp_path, capsys):
    allowed, answers = write_lists(tmp_path, small)
    ctx = Context(allowed=allowed, answers=answers)
    old = tmp_path / "old.json"
    save_strategy(old, genome)  # no settings recorded
    other = tmp_path / "other.json"
    save_strategy(other, genome, {}, None, P0, Context(words=WordSet(small.words.allowed[:60],
                                                                        small.words.allowed[:5])).words)
    good = tmp_path / "good.json"
    save_strategy(good, genome, {}, None, P0, ctx.words)
    cases = [
        (["--strategy", str(old)], "records no settings"),
        (["--strategy", str(other)], "differs from the one it was made for"),
        (["--strategy", str(good), "--turns", "9"], "--turns is at most"),
        (["--strategy", str(good), "--width", "101"], "--width at most"),
        (["--strategy", str(tmp_path / "missing.json")], "does not exist"),
    ]
    for argv, message in cases:
        code = main(["lookahead-tree", *argv, "--allowed", allowed, "--answers", answers,
                     "--out", str(tmp_path / "x.json")])
        err = capsys.readouterr().err
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert not (tmp_path / "x.json").exists()


def test_every_state_of_more_than_two_candidates_is_decided_and_no_other(small, genome):
    policy = StrategyPolicy(small, genome)
    tree, stats = lookahead_tree(small, P0, policy, turns=2, width=3)
    chosen = {k: small.words.index(v) for k, v in tree.items()}
    start = GameState.start(small, P0)
    seen = {1: set(), 2: set()}
    for answer in start.candidates.tolist():
        state = start
        while state.turn < 2:
            g = chosen.get(history_key(small, state.history), None)
            g = policy.decide(state, "allowed") if g is None else g
            if g == answer:
                break
            state = state.after(g, int(small.table[g, answer]))
            key = history_key(small, state.history)
            seen[state.turn].add(key)
            assert (key in tree) == (len(state.candidates) > 2), (key, len(state.candidates))
    assert [len(seen[1]), len(seen[2])] == stats["states"]
    assert {len(parse_history_key(small, k)) for k in tree} == {0, 1, 2}  # the opener, then both decisions


def test_the_bounds_and_defaults_are_those_the_command_and_the_shipped_file_state(small, genome):
    # the help of lookahead-tree and docs/evolve.md state 1-4 decisions and 1-100 guesses; p0-lookahead.json
    # was built with the defaults (2 decisions, 10 guesses), as its provenance records
    assert (MAX_TURNS, MAX_WIDTH) == (4, 100)
    assert lookahead_tree.__defaults__ == (2, 10, None)
    look = read_strategy_file("p0-lookahead").provenance["lookahead"]
    assert (look["turns"], look["width"]) == lookahead_tree.__defaults__[:2]
    policy = StrategyPolicy(small, genome)
    tree, stats = lookahead_tree(small, P0, policy, MAX_TURNS, 1)  # the largest bounds are accepted
    assert len(stats["states"]) == MAX_TURNS
    wide, _ = lookahead_tree(small, P0, policy, 1, MAX_WIDTH)
    assert wide[""] == "sight"
