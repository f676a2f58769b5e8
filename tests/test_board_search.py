"""``ga-search --boards N``: the decision GA for several boards.  Its fitness is checked against a
brute-force optimum written here, its choice against every allowed word, its place in the
policy (off by default, after the exact lookahead, only on boards small enough, within the words
``late`` allows) and its command line (labels, parameters recorded, one-line refusals, results
that do not depend on --jobs)."""

from __future__ import annotations

import json
import re
from functools import cache

import numpy as np
import pytest

from evo_wordle import boards as boards_mod
from evo_wordle.boards import SummedEntropy, draw_answers, play_boards
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.search import BoardSearch
from evo_wordle.game import Settings

KNOWN2 = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7)
FIRST = ["crane", "crate", "grace", "brace"]
SECOND = ["spill", "still", "skill", "shall"]
THIRD = ["fight", "night", "light", "might"]


def reference_total(ctx, cand: tuple[int, ...]) -> int:
    """The least total of guesses that finishes every answer of ``cand`` (each answer counts the
    guesses until it is played), any allowed word as a guess: brute force over every word."""
    return _total(ctx, cand)


@cache
def _total(ctx, cand: tuple[int, ...]) -> int:
    if len(cand) == 1:
        return 1
    rows = np.unique(np.asarray(ctx.table)[:, list(cand)], axis=0)  # guesses that split alike, once
    useful = [row for row in rows if len(set(row.tolist())) > 1 or row[0] == ctx.words.solved]  # others tell nothing
    return min(len(cand) + _after(ctx, cand, tuple(int(p) for p in row)) for row in useful)


def _after(ctx, cand: tuple[int, ...], pats: tuple[int, ...]) -> int:
    """Guesses still needed after a guess that gives ``pats`` on ``cand`` (its solved answer needs none)."""
    total = 0
    for code in sorted(set(pats)):
        if code == ctx.words.solved:
            continue
        part = tuple(a for a, p in zip(cand, pats) if p == code)
        total += reference_total(ctx, part)
    return total


def reference_fitness(ctx, guess: int, boards: list[tuple[int, ...]]) -> float:
    """Σ over boards of the guesses that board still needs after ``guess`` if finished alone, per answer."""
    out = 0.0
    for cand in boards:
        pats = tuple(int(p) for p in np.asarray(ctx.table)[guess, list(cand)])
        same = len(set(pats)) == 1 and pats[0] != ctx.words.solved  # tells this board nothing
        out += (reference_total(ctx, cand) if same else _after(ctx, cand, pats)) / len(cand)
    return out


@pytest.fixture(scope="module")
def small(ctx, cache_dir):
    """A dictionary of about 1,450 words (every ninth allowed word and the boards' words), so
    a search over every word and its brute-force check stay quick."""
    from evo_wordle import Context

    mine = set(FIRST + SECOND + THIRD)
    allowed = sorted(set(ctx.words.allowed[::9]) | mine)
    answers = sorted(mine | (set(ctx.words.answers) & set(allowed)))
    return Context(allowed=allowed, answers=answers, cache_dir=cache_dir)


def word_boards(ctx, *groups: list[str]) -> list[np.ndarray]:
    return [np.sort(ctx.words.indices(g)) for g in groups]


def test_fitness_is_the_boards_finishing_guesses_by_brute_force(small):
    """Exact parts (at most 6 answers): the fitness of a guess equals the brute-force optimum of
    every board it leaves, summed over boards; a board the guess solves costs nothing more."""
    ctx = small
    search = BoardSearch(ctx, True, population=8, generations=0)
    state = word_boards(ctx, FIRST, SECOND)
    ref = [tuple(int(w) for w in b) for b in state]
    for word in ["crane", "grace", "spill", "shall", *small.words.allowed[::150]]:
        g = ctx.words.index(word)
        assert search.fitness(g, state) == pytest.approx(reference_fitness(ctx, g, ref)), word
    # by hand: CRANE solves its answer (0), and tells CRATE, GRACE, BRACE apart? each part finished alone
    crane = ctx.words.index("crane")
    assert search.fitness(crane, word_boards(ctx, ["crane"], ["spill"])) == pytest.approx(1.0)  # SPILL next


@pytest.mark.parametrize("groups", [(FIRST, SECOND), (THIRD, ["crane", "grace"]), (FIRST, SECOND, THIRD)])
def test_a_search_over_every_word_finds_the_least_fitness(small, groups):
    """With every allowed word in its population the search plays a word of least fitness over
    the whole dictionary (brute force); among equals the policy's own guess, then the first word."""
    ctx = small
    state = word_boards(ctx, *groups)
    ref = [tuple(int(w) for w in b) for b in state]
    all_fit = np.array([reference_fitness(ctx, g, ref) for g in range(len(ctx.words))])
    policy = SummedEntropy(ctx, Settings(candidates="answers", guess_from="allowed", boards=len(groups),
                                         max_guesses=9))
    pos = [policy.board_of(b) for b in state]
    base = policy.base_choice(pos, 1)
    search = BoardSearch(ctx, True, population=len(ctx.words), generations=0)
    choice = search.choose(state, lambda: policy.scores(pos), base, candidates_only=False)
    least = all_fit.min()
    assert all_fit[choice] == pytest.approx(least)
    if all_fit[base] <= least + 1e-9:
        assert choice == base
    else:
        assert choice == int(np.flatnonzero(all_fit <= least + 1e-9)[0])
    # memoised on the boards, in any order
    assert search.choose(state[::-1], lambda: policy.scores(pos), base, candidates_only=False) == choice


def test_candidates_only_keeps_to_the_boards_words(ctx):
    """Under ``late`` (or --guess-from candidates) only words still possible on a board are weighed."""
    state = word_boards(ctx, FIRST, SECOND)
    ref = [tuple(int(w) for w in b) for b in state]
    policy = SummedEntropy(ctx, KNOWN2)
    pos = [policy.board_of(b) for b in state]
    possible = np.concatenate(state)
    base = int(possible[0])
    choice = BoardSearch(ctx, True, population=50, generations=2).choose(state, lambda: policy.scores(pos), base, True)
    assert choice in possible.tolist()
    fits = {int(w): reference_fitness(ctx, int(w), ref) for w in possible}
    assert fits[choice] == pytest.approx(min(fits.values()))


def test_generations_never_lose_the_best_seed_and_repeat_exactly(ctx):
    """More generations only add words: the fitness found never rises; a fresh search of the same
    state (its generator seeded from the boards) makes the same choice."""
    state = word_boards(ctx, THIRD, ["crane", "crate", "grace"])
    policy = SummedEntropy(ctx, KNOWN2)
    pos = [policy.board_of(b) for b in state]
    scores, base = policy.scores(pos), policy.base_choice(pos, 1)
    found = []
    for gens in (0, 1, 3):
        a = BoardSearch(ctx, True, population=12, generations=gens)
        choice = a.choose(state, lambda: scores, base, False)
        again = BoardSearch(ctx, True, population=12, generations=gens)
        assert again.choose(state, lambda: scores, base, False) == choice
        found.append(a.fitness(choice, state))
    assert found[0] >= found[1] >= found[2]


def test_search_off_by_default_and_its_place_in_the_policy(ctx, monkeypatch):
    """search 0 (the default) never searches and is not described; with it on, the exact lookahead
    still decides the states it covers, the first guess is the opener, and boards above the size
    limit get the base policy's guess."""
    plain = SummedEntropy(ctx, KNOWN2, opener="slane")
    assert plain.search == 0 and "search" not in plain.describe()
    monkeypatch.setattr(plain, "searched", lambda *a: pytest.fail("searched with search 0"))
    for row in draw_answers(ctx, 2, 5, 3):
        play_boards(plain, row, 7)
    on = SummedEntropy(ctx, KNOWN2, opener="slane", search=10, search_generations=1, rollout=16)
    assert on.describe()["search"] == 10 and on.describe()["search_generations"] == 1
    state = [on.board_of(b) for b in word_boards(ctx, THIRD, ["crane", "crate", "grace"])]
    calls = []
    monkeypatch.setattr(on, "lookahead", lambda b, t, g: calls.append("rollout") or g)
    monkeypatch.setattr(on, "searched", lambda b, t, g: calls.append("search") or g)
    on.choose(state, 1)  # 4 × 3 = 12 combinations ≤ 16: the exact lookahead
    on.choose([on.board_of(b) for b in word_boards(ctx, FIRST + ["trace"], SECOND)], 1)  # 20 > 16: the search
    assert calls == ["rollout", "search"]
    assert on.choose([on.full_board(), on.full_board()], 0) == ctx.words.index("slane")
    monkeypatch.setattr(boards_mod, "BOARD_SEARCH_LARGEST", 3)
    on.choose([on.board_of(b) for b in word_boards(ctx, FIRST + ["trace"], SECOND)], 1)
    assert calls == ["rollout", "search"]  # boards of 5 and 4 > 3: the base policy's guess


@pytest.mark.parametrize("params, message", [
    ({"search": -1}, "--search must be between 0 and 1000, not -1"), ({"search": 2.5}, "--search must be a whole"),
    ({"search": 1001}, "--search must be between 0 and 1000, not 1001"),
    ({"search_generations": 51}, "--search-generations must be between 0 and 50, not 51"),
    # both caps at once bred 51,000 words a decision (≈ 1.4 h on Octordle): a shared file ran for days
    ({"search": 1000, "search_generations": 50}, r"would breed up to 51,000 words a decision \(search 1000 × "
     r"\(1 \+ search_generations 50\)\): at most 1,000$"),
    ({"search": 501, "search_generations": 1}, "would breed up to 1,002 words a decision")])
def test_bad_search_parameters_are_one_line(ctx, params, message):
    with pytest.raises(EvoWordleError, match=message):
        SummedEntropy(ctx, KNOWN2, **params)


def test_the_search_may_breed_up_to_its_bound_of_words_a_decision(ctx):
    """search × (1 + search_generations) ≤ BOARD_SEARCH_WORDS: each cap alone, and the product at the bound."""
    from evo_wordle.boards import BOARD_SEARCH_WORDS

    assert BOARD_SEARCH_WORDS == 1000  # the documented bound
    for search, generations in ((1000, 0), (0, 50), (500, 1), (20, 49), (60, 15)):
        policy = SummedEntropy(ctx, KNOWN2, search=search, search_generations=generations)
        assert (policy.search, policy.search_generations) == (search, generations)


def test_one_word_past_the_search_bound_is_refused_in_one_line_naming_it(ctx):
    """The words bred a decision are search × (1 + search_generations): one more than the bound is
    refused whatever the split, and search alone past its own cap by that cap's message."""
    for search, generations in ((501, 1), (1000, 1), (334, 2), (21, 47)):
        bred = search * (1 + generations)
        with pytest.raises(EvoWordleError, match="^" + re.escape(
                f"the decision search would breed up to {bred:,} words a decision (search {search} × "
                f"(1 + search_generations {generations})): at most 1,000") + "$"):
            SummedEntropy(ctx, KNOWN2, search=search, search_generations=generations)
    with pytest.raises(EvoWordleError, match=r"^--search must be between 0 and 1000, not 1001$"):
        SummedEntropy(ctx, KNOWN2, search=1001)


def test_cli_bench_and_compare_label_and_record_the_search(capsys, cache_dir):
    args = ["--candidates", "answers", "--guess-from", "allowed", "--games", "2", "--seed", "1", "--quiet", "--json"]
    assert main(["bench", "--solver", "ga-search", "--boards", "2", "--search-population", "8",
                 "--search-generations", "1", *args]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["solver"] == "ga-search" and one["settings"]["boards"] == 2
    assert one["settings"]["search"] == 8 and one["settings"]["search_generations"] == 1
    assert main(["bench", "--solver", "ga-search", "--boards", "2", "--search-population", "8",
                 "--search-generations", "1", "--jobs", "2", *args]) == 0
    two = json.loads(capsys.readouterr().out)
    assert two["histogram"] == one["histogram"] and two["mean_guesses"] == one["mean_guesses"]
    # compare: the file's policy and the search on top of it play the file's game, the same sets
    assert main(["compare", "--solvers", "strategy,ga-search", "--strategy", "dordle-evolved",
                 "--search-population", "4", "--games", "1", "--seed", "1", "--quiet", "--json"]) == 0
    rows = {r["solver"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"strategy", "ga-search"}
    assert rows["ga-search"]["game"] == rows["strategy"]["game"] and "boards=2" in rows["strategy"]["game"]
    assert rows["ga-search"]["settings"]["search"] == 4
    assert rows["ga-search"]["settings"]["bonus"] == rows["strategy"]["settings"]["bonus"]  # the file's genes


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bench_json_records_ga_search_as_the_solver_asked_for(ctx, capsys, jobs):
    """settings.solver names ga-search, as the row does, not the summed-entropy policy it plays;
    the policy's details (opener, ties, search) are still recorded beside it."""
    assert main(["bench", "--solver", "ga-search", "--boards", "2", "--games", "2", "--seed", "1",
                 "--candidates", "answers", "--guess-from", "allowed", "--search-population", "4",
                 "--jobs", jobs, "--quiet", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["solver"] == doc["settings"]["solver"] == "ga-search"
    policy = SummedEntropy(ctx, KNOWN2, search=4)
    policy.choose([policy.full_board()], 0)
    details = {key: value for key, value in policy.describe().items() if key != "solver"}
    assert details["search"] == 4 and details["opener"]
    assert {key: doc["settings"][key] for key in details} == details


@pytest.mark.parametrize("extra, message", [
    (["--boards", "2", "--exact-limit", "3"], "takes no --exact-limit"),
    (["--boards", "2", "--tree", "x.tree"], "takes no --tree"),
    (["--boards", "2", "--pressure", "3"], "takes --pressure"),
    (["--strategy", "p0-evolved"], "has no --strategy"),
    (["--boards", "2", "--strategy", "p0-evolved"], "one-board strategy"),
    (["--boards", "2", "--search-population", "0"], "--search-population must be ≥ 1"),
    (["--boards", "2", "--search-population", "5000"], "search must be"),
])
def test_bad_multi_board_searches_are_one_line(capsys, cache_dir, extra, message):
    assert main(["bench", "--solver", "ga-search", "--games", "2", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_from_python_ga_search_on_boards_is_the_policy_with_its_search(ctx):
    """run_bench routes ga-search on several boards as the command line does: the summed-entropy
    policy with its decision search (the default search unless given), labelled ga-search;
    a one-board solver is still refused in one line."""
    from evo_wordle.bench import make_engine, run_bench

    sets = draw_answers(ctx, 2, 2, 1)
    with pytest.raises(EvoWordleError, match="greedy plays one board; --boards 2 needs the summed-entropy solver"):
        run_bench(ctx, "greedy", KNOWN2, sets, 0)
    engine = make_engine(ctx, "ga-search", KNOWN2, {})
    assert (engine.search, engine.search_generations) == boards_mod.BOARD_SEARCH_DEFAULTS
    result = run_bench(ctx, "ga-search", KNOWN2, sets, 0, {"search": 4})
    assert result.solver == "ga-search" and result.params["search"] == 4
    policy = SummedEntropy(ctx, KNOWN2, search=4)
    policy.choose([policy.full_board()], 0)
    assert [r.guesses for r in result.records] == [play_boards(policy, row, 7).guesses for row in sets]
    given = draw_answers(ctx, 2, 5, 2)  # games samples given board sets as it samples one board's answers
    sample = run_bench(ctx, boards_mod.POLICY_NAME, KNOWN2, given, 0, games=2)
    assert sample.games == 2 and {r.answers for r in sample.records} <= {tuple(row) for row in given.tolist()}


def test_run_bench_ga_search_on_boards_gives_the_command_line_figures(ctx, capsys, cache_dir):
    """The same seed and games give the same games from run_bench and from bench --boards 2
    (``games`` draws that many board sets in both)."""
    from evo_wordle.bench import run_bench

    assert main(["bench", "--solver", "ga-search", "--boards", "2", "--games", "2", "--seed", "1",
                 "--candidates", "answers", "--guess-from", "allowed", "--search-population", "4",
                 "--quiet", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    result = run_bench(ctx, "ga-search", KNOWN2, seed=1, games=2, solver_params={"search": 4})
    api = result.summary()
    assert [r.answer for r in result.records] == [tuple(row) for row in draw_answers(ctx, 2, 2, 1).tolist()]
    for key in ("solver", "games", "mean_guesses", "histogram", "worst_guesses", "win_rate"):
        assert api[key] == cli[key], key
    assert api["settings"]["search"] == cli["settings"]["search"] == 4


def test_the_board_search_study_counts_lost_sets_by_the_rule_not_by_score(cache_dir, monkeypatch):
    """experiments/board_search.py counted failures as scores over the win limit; on N boards the
    cap is the limit, so an unsolved set scores the limit and was never counted."""
    from types import SimpleNamespace

    from evo_wordle import Context
    from evo_wordle.boards import BoardsRecord

    from .experiment_scripts import load_experiment

    mod = load_experiment("board_search")

    def bench(ctx, solver, settings, played, seed, params, jobs):
        assert settings.max_guesses == settings.win_limit == 7
        won = [BoardsRecord(tuple(row), [1] * 5, True, (4, 5)) for row in played[1:]]
        return SimpleNamespace(records=[BoardsRecord(tuple(played[0]), [1] * 7, False, (3, None)), *won])

    monkeypatch.setattr(mod, "run_bench", bench)
    out = mod.measure(Context(), 2, 4, 1)
    for label in ("without_search", "with_search"):
        assert out[label]["failures"] == 1 and out[label]["mean"] == (7 + 3 * 5) / 4
