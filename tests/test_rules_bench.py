"""The bench's rules (evo_wordle/bench.py), each test named after the rule it pins: which puzzles a
seed and a number of games pick, each game's own seed, the route to the player on several boards,
the daily rules, the checks at the boundary, and the figures a result reports.  Every bench figure
in the README comes through these rules; the games are played on a small list (milliseconds each)
and checked against games played here by hand from the documented seeds."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.bench import (
    DAILY_RULES,
    BenchResult,
    ForbidState,
    _answer_sets,
    _play_chunk,
    _worker_init,
    board_route,
    check_boards,
    check_games,
    check_run_args,
    derived_seeds,
    game_plan,
    game_seeds,
    make_engine,
    play_one,
    run_bench,
    sample_answers,
)
from evo_wordle.boards import BOARD_SEARCH_DEFAULTS, POLICY_NAME, BoardsRecord, SummedEntropy, draw_answers, play_boards
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import GameRecord, GameState, Settings, play
from evo_wordle.solvers.base import Solver, make_solver
from evo_wordle.words import WordSet

from .small_lists import IGHT, small_context

P1 = Settings.problem("P1")
TWO = Settings(candidates="answers", boards=2)


@pytest.fixture(scope="module")
def small():
    """30 answers (the -ight family and 20 bundled ones) among 60 allowed words."""
    return small_context("rules-bench", IGHT, slice(0, 20), slice(0, 400), 30)


def _by_hand(ctx, solver: str, settings: Settings, answers, seeds, states=None) -> list[GameRecord]:
    """Each game played here from its own seed: a fresh solver, reset with ``default_rng(seeds[k])``."""
    engine = make_solver(solver, ctx, settings)
    out = []
    for k, answer in enumerate(answers):
        engine.reset(np.random.default_rng(seeds[k]))
        state = GameState.start(ctx, settings) if states is None else states[k]
        out.append(play(engine, state, int(answer), settings))
    return out


def _records(result) -> list[tuple]:
    return [(r.answer, list(r.guesses), r.solved, r.outside_source) for r in result.records]


# -- the number of games and the sample -------------------------------------------------------


def test_games_are_a_whole_number_from_one_to_the_answers():
    assert check_games(1, 5) == 1 and check_games(5, 5) == 5 and check_games(np.int64(3), 5) == 3
    with pytest.raises(EvoWordleError, match=r"^--games 6 is more than the 5 answers \(leave it out to play all\)$"):
        check_games(6, 5)
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(EvoWordleError):
            check_games(bad, 5)


def test_a_sample_is_all_answers_when_none_or_as_many_else_a_seeded_sorted_draw():
    answers = np.array([9, 3, 7, 1, 5, 8], dtype=np.int64)  # not sorted: "all" keeps the given order
    assert sample_answers(answers, None, 4) is answers
    assert sample_answers(answers, 6, 4).tolist() == answers.tolist()
    for seed in (0, 4, 123):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 0x5A3]))
        expected = sorted(rng.choice(answers, size=3, replace=False).tolist())
        got = sample_answers(answers, 3, seed)
        assert got.tolist() == expected and len(set(got.tolist())) == 3
    assert sample_answers(answers, 1, 0).shape == (1,)
    assert len({tuple(sample_answers(answers, 3, s).tolist()) for s in range(12)}) > 1  # the seed decides
    with pytest.raises(EvoWordleError, match="more than the 6 answers"):
        sample_answers(answers, 7, 0)


def test_each_game_has_the_spawned_child_of_its_position_and_a_prefix_is_stable():
    seeds = game_seeds(7, 5)
    assert len(seeds) == 5 and game_seeds(7, 0) == []
    for k, ss in enumerate(seeds):
        assert ss.entropy == 7 and ss.spawn_key == (k,)
        assert ss.generate_state(4).tolist() == np.random.SeedSequence(7, spawn_key=(k,)).generate_state(4).tolist()
    assert [s.generate_state(2).tolist() for s in game_seeds(7, 3)] == [s.generate_state(2).tolist() for s in seeds[:3]]


def test_the_plan_is_the_sample_and_one_seed_per_picked_game():
    answers = [11, 4, 19, 2, 30, 8, 15]
    picked, seeds = game_plan(answers, 4, 21)
    assert picked.dtype == np.int64
    assert picked.tolist() == sample_answers(np.array(answers), 4, 21).tolist()
    assert [s.spawn_key for s in seeds] == [(0,), (1,), (2,), (3,)] and {s.entropy for s in seeds} == {21}
    everything, seeds = game_plan(answers, None, 21)
    assert everything.tolist() == answers and len(seeds) == 7


def test_run_seeds_are_the_seed_then_draws_of_its_own_sequence():
    assert derived_seeds(5, 1) == [5] and derived_seeds(5, 0) == [5]
    expected = np.random.SeedSequence([5, 0xBE5C]).generate_state(3, dtype=np.uint32).tolist()
    got = derived_seeds(5, 4)
    assert got == [5, *expected] and all(type(s) is int for s in got)
    assert derived_seeds(6, 4)[1:] != expected


# -- the player: board route, checks, engine, one game -------------------------------------------


def test_ga_search_on_several_boards_is_the_policy_with_its_search():
    population, generations = BOARD_SEARCH_DEFAULTS
    assert board_route("ga-search", TWO, {}) == (POLICY_NAME, {"search": population,
                                                              "search_generations": generations})
    assert board_route("ga-search", TWO, {"search": 5, "opener": "fight"}) == (
        POLICY_NAME, {"search": 5, "search_generations": generations, "opener": "fight"})
    params = {"x": 1}
    for solver, settings in (("ga-search", P1), ("greedy", TWO), (POLICY_NAME, TWO)):
        route = board_route(solver, settings, params)
        assert route[0] == solver and route[1] is params


def test_only_the_policy_and_ga_search_play_several_boards():
    for solver in ("summed-entropy", "ga-search"):
        check_boards(solver, TWO)
    for solver in ("greedy", "random", "ga"):
        check_boards(solver, P1)
    with pytest.raises(EvoWordleError) as err:
        check_boards("greedy", TWO)
    assert str(err.value) == ("greedy plays one board; --boards 2 needs the summed-entropy solver "
                              "(or ga-search, that policy with its decision search)")


def test_the_engine_is_the_named_solver_or_the_policy_with_its_opener_worked_out(small):
    greedy = make_engine(small, "greedy", P1, {})
    assert isinstance(greedy, Solver) and greedy.name == "greedy"
    policy = make_engine(small, POLICY_NAME, TWO, {})
    assert isinstance(policy, SummedEntropy) and policy.opener is not None  # worked out before any fork
    assert policy.opener == SummedEntropy(small, TWO).choose([np.arange(len(policy.universe))], 0)
    searched = make_engine(small, "ga-search", TWO, {})
    assert isinstance(searched, SummedEntropy)
    assert (searched.search, searched.search_generations) == BOARD_SEARCH_DEFAULTS
    ready = make_solver("random", small, P1)
    assert make_engine(small, ready, P1, {}) is ready
    built = make_engine(small, lambda ctx, settings, **kw: make_solver("naive", ctx, settings, **kw), P1,
                        {"opener": "fight"})
    assert built.name == "naive" and built.opener == small.words.index("fight")
    with pytest.raises(EvoWordleError, match=r"^greedy plays one board; --boards 2"):
        make_engine(small, "greedy", TWO, {})


def test_a_misspelt_policy_parameter_is_named_with_what_the_policy_takes(small):
    with pytest.raises(EvoWordleError) as err:
        make_engine(small, POLICY_NAME, TWO, {"wieght": 0.1, "zzz": 1})
    message = str(err.value)
    assert message.startswith("solver summed-entropy has no parameter 'wieght' (it takes: ")
    takes = message.split("(it takes: ")[1].rstrip(")").split(", ")
    assert takes == sorted(takes) and "cache" not in takes and {"opener", "weight", "search", "ties"} <= set(takes)
    with pytest.raises(EvoWordleError, match="no parameter 'cache'"):  # shared by the meta-GA, not a setting
        make_engine(small, POLICY_NAME, TWO, {"cache": None})
    assert make_engine(small, POLICY_NAME, TWO, {"weight": 0.5}).weight == 0.5


def test_one_game_is_play_on_one_board_and_play_boards_on_a_set(small):
    policy = make_engine(small, POLICY_NAME, TWO, {})
    pair = np.array([small.words.index("fight"), small.words.index("night")])
    got = play_one(policy, None, pair, TWO)
    assert isinstance(got, BoardsRecord) and got == play_boards(policy, tuple(int(a) for a in pair), TWO.max_guesses)
    one = make_engine(small, POLICY_NAME, TWO.with_(boards=1), {})
    single = play_one(one, None, np.int64(pair[0]), TWO)
    assert single.answer == (int(pair[0]),) and single.solved
    greedy = make_engine(small, "greedy", P1, {})
    state = GameState.start(small, P1)
    record = play_one(greedy, state, np.int64(pair[1]), P1)
    assert isinstance(record, GameRecord) and record == play(greedy, state, int(pair[1]), P1)


# -- the daily rule "forbid" -----------------------------------------------------------------


def test_forbidden_words_stay_candidates_but_are_not_guessed_unless_all_are(small):
    base = GameState.start(small, P1)
    cand = base.candidates
    forbidden = np.array(sorted(cand[:3].tolist()), dtype=np.int64)
    state = ForbidState(small, cand, (), False, forbidden)
    assert state.guessable().tolist() == [w for w in cand.tolist() if w not in forbidden.tolist()]
    assert not state.may_play(int(forbidden[0])) and state.may_play(int(cand[5]))
    outside = int(np.setdiff1d(small.all_words, cand)[0])
    assert not state.may_play(outside) and state.may_play(outside, "allowed")
    assert not state.may_play(int(forbidden[1]), "allowed")
    assert len(state.guessable("allowed")) == len(small.all_words) - 3
    # the answer is forbidden and after a guess only it is left: every word is forbidden, all are allowed
    answer = int(forbidden[0])
    for g in cand.tolist():
        if g in forbidden.tolist():
            continue
        nxt = state.after(g, int(small.table[g, answer]))
        if nxt.candidates.tolist() == [answer]:
            break
    assert isinstance(nxt, ForbidState) and nxt.forbidden is forbidden
    assert nxt.history == ((g, int(small.table[g, answer])),)
    assert nxt.guessable().tolist() == [answer] and nxt.may_play(answer)
    # the forbidden words are part of the decision situation
    other = ForbidState(small, cand, (), False, forbidden[:2])
    assert state.key() == base.key() + b"|" + forbidden.tobytes()
    assert state.key() != other.key() and state.key() != base.key()
    assert state == other  # compare=False: the forbidden words do not make states unequal
    assert "forbidden" not in repr(state)  # repr=False: the state's repr stays GameState's
    plain = ForbidState(small, cand)  # nothing forbidden by default
    assert plain.forbidden.dtype == np.int64 and plain.forbidden.tolist() == []
    assert plain.guessable().tolist() == cand.tolist() and plain.key() == base.key() + b"|"


# -- the boundary ----------------------------------------------------------------------------------


def test_the_run_arguments_are_checked_at_the_boundary(small):
    assert check_run_args(small, "greedy", None) == Settings()
    assert check_run_args(small, "greedy", P1, {"opener": "fight"}) is P1
    assert check_run_args(small, lambda ctx, settings: None, P1) is P1
    assert check_run_args(small, make_solver("random", small, P1), P1, None) is P1
    bad = [((None, "greedy", P1, None), "ctx must be a Context, not NoneType"),
           ((small, 5, P1, None), "solver must be a solver name, a Solver object or a factory, not int"),
           ((small, "greedy", P1, ["opener"]), "solver parameters must be a dict, not list"),
           ((small, "greedy", "P1", None), "settings must be a Settings (e.g. Settings.problem('P1')), not 'P1'")]
    for args, message in bad:
        with pytest.raises(EvoWordleError) as err:
            check_run_args(*args)
        assert str(err.value) == message


def test_answer_sets_default_to_the_list_or_a_thousand_drawn_sets(small):
    assert _answer_sets(small, P1, None, 0).tolist() == small.words.answer_index.tolist()
    drawn = _answer_sets(small, TWO, None, 3)
    assert drawn.shape == (1000, 2) and drawn.dtype == np.int64
    assert drawn.tolist() == draw_answers(small, 2, 1000, 3).tolist()
    assert _answer_sets(small, TWO, None, 3, games=4).tolist() == draw_answers(small, 2, 4, 3).tolist()
    distinct = _answer_sets(small, TWO, None, 3, games=50, distinct=True)
    assert distinct.tolist() == draw_answers(small, 2, 50, 3, distinct=True).tolist()
    assert (distinct[:, 0] != distinct[:, 1]).all()
    given = [[1, 2], [3, 3]]
    assert _answer_sets(small, Settings(boards=2), given, 0).tolist() == given
    assert _answer_sets(small, Settings(), ["fight", 3], 0).tolist() == [small.words.index("fight"), 3]


def test_bad_answer_sets_are_one_line_errors(small):
    n = len(small.words)
    two = Settings(boards=2)
    cases = [
        ((Settings(), [], 0), "no answers to play"),
        ((Settings(), [n], 0), f"answer index {n} is outside 0 … {n - 1} (the allowed list)"),
        ((two, [[1, n]], 0), f"answer index {n} is outside 0 … {n - 1} (the allowed list)"),
        ((two, [[1.0, 2.0]], 0), "answers must be whole-number word indices, not float64"),
        ((two, [[1, 2, 3]], 0), "2 boards need one answer per board in each game, not (1, 3)"),
        ((two, [1, 2], 0), "2 boards need one answer per board in each game, not (2,)"),
    ]
    outside = int(np.setdiff1d(small.all_words, small.words.answer_index)[0])
    word = small.words.allowed[outside]
    for settings in (P1, TWO):
        second = int(np.setdiff1d(small.all_words, small.words.answer_index)[1])
        given = [outside, second] if settings.boards == 1 else [[int(small.words.answer_index[0]), outside],
                                                                [second, second]]
        cases.append(((settings, given, 0), f"{word!r} is not in the answer list, and candidates='answers' (P1/P3) "
                                            "only considers those; play it with candidates='allowed' (P0)"))
    for args, message in cases:
        with pytest.raises(EvoWordleError) as err:
            _answer_sets(small, *args)
        assert str(err.value) == message
    assert _answer_sets(small, Settings(), [outside], 0).tolist() == [outside]  # P0: any allowed word


def test_several_boards_need_an_answer_list_of_two_words(tmp_path):
    one = Context(words=WordSet(("fight", "night", "light"), ("fight",)), cache_dir=tmp_path)
    with pytest.raises(EvoWordleError) as err:
        _answer_sets(one, Settings(boards=2), [[0, 0]], 0)
    assert str(err.value) == "--boards 2 needs an answer list of at least 2 words (this one has 1)"
    assert _answer_sets(one, Settings(), [0], 0).tolist() == [0]
    two = Context(words=WordSet(("fight", "night", "light"), ("fight", "night")), cache_dir=tmp_path)
    assert _answer_sets(two, Settings(boards=2), [[0, 1]], 0).tolist() == [[0, 1]]


def test_given_sets_with_a_repeated_answer_are_refused_when_answers_must_differ(small):
    words = small.words
    sets = [[1, 2, 3], [4, 6, 5], [9, 8, 9], [7, 7, 2]]
    three = Settings(boards=3)
    with pytest.raises(EvoWordleError) as err:
        _answer_sets(small, three, sets, 0, distinct=True)
    assert str(err.value) == f"board set 2 repeats the answer {words.allowed[9]!r}, and distinct_answers is on"
    with pytest.raises(EvoWordleError, match=f"board set 0 repeats the answer {words.allowed[4]!r},"):
        _answer_sets(small, three, [[4, 1, 4], [2, 2, 3]], 0, distinct=True)
    with pytest.raises(EvoWordleError, match=f"board set 1 repeats the answer {words.allowed[4]!r},"):  # the least
        _answer_sets(small, Settings(boards=4), [[1, 2, 3, 5], [7, 4, 7, 4]], 0, distinct=True)
    assert _answer_sets(small, three, sets, 0).tolist() == sets  # allowed unless asked
    assert _answer_sets(small, three, sets[:2], 0, distinct=True).tolist() == sets[:2]
    with pytest.raises(EvoWordleError, match=r"^--distinct-answers"):  # one board has one answer
        run_bench(small, "greedy", P1, games=2, distinct_answers=True)


# -- the run ------------------------------------------------------------------------------------


def test_every_game_is_played_from_its_own_seed_by_position_in_one_process_or_many(small):
    settings = P1
    picked, seeds = game_plan(small.words.answer_index, 9, 5)
    expected = [(r.answer, r.guesses, r.solved, r.outside_source)
                for r in _by_hand(small, "random", settings, picked, seeds)]
    counted = []
    sequential = run_bench(small, "random", settings, seed=5, games=9, on_game=counted.append)
    assert _records(sequential) == expected and counted == [1] * 9
    assert len({tuple(r[1]) for r in expected}) > 1 and len({r[1][0] for r in expected}) > 1  # random openers
    counted.clear()
    parallel = run_bench(small, "random", settings, seed=5, games=9, jobs=2, on_game=counted.append)
    assert _records(parallel) == expected and sum(counted) == 9 and len(counted) > 1
    assert parallel.order is None and sequential.order is None
    assert parallel.params == sequential.params == make_solver("random", small, settings).describe()
    assert _records(run_bench(small, "random", settings, seed=6, games=9)) != expected
    two = run_bench(small, "random", settings, answers=picked[:2], seed=5, jobs=2)  # two games: two chunks
    assert _records(two) == expected[:2]


def test_games_in_parallel_go_in_eight_chunks_per_job_of_near_equal_size(small):
    counted = []
    everything = run_bench(small, "random", P1, jobs=2, on_game=counted.append)  # 30 games, 16 chunks
    assert everything.games == 30 and len(counted) == 16 and sum(counted) == 30 and set(counted) == {1, 2}
    counted.clear()
    run_bench(small, "random", P1, games=9, jobs=2, on_game=counted.append)  # fewer games than chunks
    assert counted == [1] * 9


def test_a_worker_plays_its_chunk_as_the_sequential_bench_does(small):
    picked, seeds = game_plan(small.words.answer_index, 4, 2)
    _worker_init(small, "random", P1, {})
    done, about = _play_chunk([(k, int(picked[k]), seeds[k]) for k in (3, 1)])
    expected = _by_hand(small, "random", P1, picked, seeds)
    assert [k for k, _ in done] == [3, 1] and [r for _, r in done] == [expected[3], expected[1]]
    assert about == make_solver("random", small, P1).describe()
    _worker_init(small, POLICY_NAME, TWO, {"opener": "fight"})
    sets = draw_answers(small, 2, 3, 8)
    done, about = _play_chunk([(k, sets[k].tolist(), s) for k, s in enumerate(game_seeds(8, 3))])
    policy = SummedEntropy(small, TWO, opener="fight")
    assert [r for _, r in done] == [play_boards(policy, tuple(s), TWO.max_guesses) for s in sets.tolist()]
    assert about["opener"] == "fight"


def test_the_answers_given_are_sampled_with_the_seed_as_the_answer_list_is(small):
    given = small.words.answer_index[::-2]  # not sorted: the sample is sorted by word
    result = run_bench(small, "greedy", P1, answers=given, games=5, seed=3)
    assert [r.answer for r in result.records] == sample_answers(given, 5, 3).tolist()
    everything = run_bench(small, "greedy", P1, answers=given[::-1], seed=3)
    assert [r.answer for r in everything.records] == given[::-1].tolist()
    listed = run_bench(small, "greedy", P1, games=4, seed=3)
    assert [r.answer for r in listed.records] == sample_answers(small.words.answer_index, 4, 3).tolist()


def test_board_sets_drawn_with_the_seed_or_given_and_sampled_as_one_board(small):
    drawn = run_bench(small, POLICY_NAME, TWO, games=6, seed=4)
    assert [r.answer for r in drawn.records] == [tuple(s) for s in draw_answers(small, 2, 6, 4).tolist()]
    assert drawn.solver == POLICY_NAME and drawn.params["opener"] is not None
    assert "distinct_answers" not in drawn.params and "daily_rule" not in drawn.params
    apart = run_bench(small, POLICY_NAME, TWO, games=6, seed=4, distinct_answers=True)
    assert [r.answer for r in apart.records] == [tuple(s) for s in draw_answers(small, 2, 6, 4, distinct=True).tolist()]
    assert apart.params["distinct_answers"] is True
    given = draw_answers(small, 2, 10, 1)
    sampled = run_bench(small, POLICY_NAME, TWO, answers=given, games=4, seed=9)
    rows = sample_answers(np.arange(10), 4, 9)
    assert [r.answer for r in sampled.records] == [tuple(s) for s in given[rows].tolist()]
    policy = SummedEntropy(small, TWO, opener=drawn.params["opener"])
    assert sampled.records == [play_boards(policy, tuple(s), TWO.max_guesses) for s in given[rows].tolist()]
    again = run_bench(small, POLICY_NAME, TWO, answers=given, games=4, seed=9, jobs=2)
    assert again.records == sampled.records and again.params == sampled.params


def test_ga_search_on_boards_is_labelled_as_asked_with_the_policy_details(small):
    result = run_bench(small, "ga-search", TWO, games=1, seed=0, solver_params={"search": 4, "search_generations": 1})
    assert result.solver == "ga-search" and result.params["solver"] == "ga-search"
    assert result.params["search"] == 4 and result.params["search_generations"] == 1 and result.params["opener"]
    plain = run_bench(small, POLICY_NAME, TWO, games=1, seed=0)
    assert plain.solver == POLICY_NAME and plain.params["solver"] == POLICY_NAME


def test_a_solver_object_plays_under_its_own_settings_and_a_factory_is_built(small):
    obj = make_solver("greedy", small, P1)
    result = run_bench(small, obj, games=3, seed=1)
    assert result.settings is P1 and result.solver == "greedy"
    assert _records(result) == _records(run_bench(small, "greedy", P1, games=3, seed=1))
    assert run_bench(small, "greedy", games=2).settings == Settings()
    drawn = make_solver("random", small, P1)  # sent pickled to the workers, as it is: no parameter added
    assert _records(run_bench(small, drawn, games=4, seed=2, jobs=2)) == _records(
        run_bench(small, "random", P1, games=4, seed=2))


def test_only_games_in_parallel_are_sent_to_workers(small):
    def local(ctx, settings, **params):  # a local function cannot be pickled to a worker
        return make_solver("greedy", ctx, settings, **params)

    with pytest.raises(EvoWordleError, match="^cannot send solver"):
        run_bench(small, local, P1, games=2, jobs=2)
    for kwargs in ({"games": 2, "jobs": 1}, {"games": 1, "jobs": 2}, {"games": 2}):  # one process by default
        assert run_bench(small, local, P1, **kwargs).games == kwargs["games"]
    assert run_bench(small, local, Settings.problem("P3"), games=3, jobs=2).games == 3  # daily: one process


@pytest.mark.parametrize("rule", DAILY_RULES)
@pytest.mark.parametrize("solver", ["random", "greedy"])
def test_daily_games_run_in_a_seeded_order_and_past_answers_follow_the_rule(small, rule, solver):
    settings = Settings.problem("P3")
    picked, seeds = game_plan(small.words.answer_index, None, 11)
    n = len(picked)
    result = run_bench(small, solver, settings, seed=11, daily_rule=rule)
    order = np.random.default_rng(np.random.SeedSequence(11).spawn(1)[0]).permutation(n)
    assert result.order.tolist() == order.tolist()
    assert result.params["daily_rule"] == rule
    base = GameState.start(small, settings)
    states: list = [None] * n
    for i, k in enumerate(order):
        past = np.array(sorted(picked[order[:i]].tolist()), dtype=np.int64)
        if i == 0:
            states[k] = base
        elif rule == "remove":
            states[k] = GameState.start(small, settings, past)
        else:
            states[k] = ForbidState(small, base.candidates, (), settings.hard, past)
    expected = _by_hand(small, solver, settings, picked, seeds, states)
    assert result.records == expected  # stored by position in the answer list, played in ``order``
    assert [r.answer for r in result.records] == picked.tolist()
    with pytest.raises(EvoWordleError, match=r"^--daily-rule must be one of remove, forbid, not 'keep'$"):
        run_bench(small, "random", settings, games=2, daily_rule="keep")


def test_forbidden_past_answers_still_shape_greedy_choices(small):
    """Under "forbid" past answers stay candidates: greedy's entropy sees them, so some games differ
    from "remove" (random draws from the guessable words alone and cannot tell the two apart)."""
    settings = Settings.problem("P3")
    remove, forbid = (run_bench(small, "greedy", settings, seed=11, daily_rule=rule) for rule in DAILY_RULES)
    assert [r.answer for r in remove.records] == [r.answer for r in forbid.records]
    assert 0 < sum(a.guesses != b.guesses for a, b in zip(remove.records, forbid.records)) < remove.games


def test_the_run_checks_its_seed_and_jobs_and_times_its_games(small):
    for kwargs in ({"seed": -1}, {"seed": 1.5}, {"jobs": 0}, {"jobs": "2"}):
        with pytest.raises(EvoWordleError):
            run_bench(small, "greedy", P1, games=1, **kwargs)
    start = time.perf_counter()
    result = run_bench(small, "greedy", P1, games=2)
    assert 0 < result.seconds <= time.perf_counter() - start
    assert _records(run_bench(small, "random", P1, games=4)) == _records(run_bench(small, "random", P1, games=4,
                                                                                  seed=0))  # seed 0 by default


# -- the figures of a result -------------------------------------------------------------------------


ONE = Settings()


def _result(records, settings=ONE, params=None) -> BenchResult:
    return BenchResult("x", settings, records, 1.25, params or {})


def test_a_result_counts_failures_as_the_cap_and_wins_within_the_limit():
    records = [GameRecord(1, [1, 2, 3], True), GameRecord(2, list(range(7)), True, 2),
               GameRecord(3, list(range(9)), False, 1), GameRecord(4, list(range(6)), True, 3)]
    result = _result(records)  # one board: won within 6, a failure scores the cap 9
    assert result.games == 4 and result.scores().tolist() == [3, 7, 9, 6]
    assert result.mean_guesses == 25 / 4 and result.worst_guesses == 9
    assert result.wins == 2 and result.win_rate == 0.5 and result.fail_rate == 0.5
    assert result.histogram == {"3": 1, "6": 1, "7": 1, "9": 1}
    assert list(result.histogram) == ["3", "6", "7", "9"]
    assert result.guesses_outside_source == 6 and result.games_outside_source == 3
    capped = _result(records[:3], Settings(max_guesses=12))
    assert capped.scores().tolist() == [3, 7, 12] and list(capped.histogram) == ["3", "7", "12"]
    boards = _result([BoardsRecord((1, 2), [5, 1, 2], True, (2, 3)), BoardsRecord((1, 2), [5], False, (1, None))],
                     Settings(boards=2))
    assert boards.scores().tolist() == [3, 7] and boards.wins == 1 and boards.worst_guesses == 7


def test_rates_come_from_the_counts_and_an_empty_result_has_none():
    records = [GameRecord(1, [1, 2], True)] * 199 + [GameRecord(2, [1] * 9, False)]
    result = _result(records)
    assert result.fail_rate == 0.005 and result.win_rate == 0.995 and result.wins == 199
    empty = _result([])
    assert empty.games == 0 and empty.wins == 0
    assert all(math.isnan(v) for v in (empty.mean_guesses, empty.win_rate, empty.fail_rate))
    assert empty.histogram == {} and empty.guesses_outside_source == 0 and empty.games_outside_source == 0
    assert BenchResult("x", Settings(), [], 0.0).params == {} and BenchResult("x", Settings(), [], 0.0).order is None


def test_an_empty_result_refuses_its_worst_game_and_summary_in_one_line():
    """numpy's "zero-size array to reduction operation maximum" was raised instead (a ValueError
    that is not the package's); the rates stay nan (a number, read as none)."""
    empty = _result([])
    for call, what in ((lambda: empty.worst_guesses, "no worst game"), (empty.summary, "no summary")):
        with pytest.raises(EvoWordleError) as info:
            call()
        assert str(info.value) == f"this bench result holds no games, so it has {what}"
    emptied = _result([GameRecord(1, [1, 2], True)])
    assert emptied.summary()["worst_guesses"] == 2
    emptied.records.clear()  # emptied after it was built: refused the same way
    with pytest.raises(EvoWordleError, match="holds no games"):
        emptied.summary()


def test_the_summary_has_exactly_the_bench_json_keys():
    records = [GameRecord(1, [1, 2, 3], True, 1), GameRecord(2, list(range(9)), False)]
    result = _result(records, P1, {"solver": "greedy", "opener": "tales"})
    assert result.summary() == {
        "solver": "x",
        "settings": {**P1.as_dict(), "solver": "greedy", "opener": "tales"},
        "games": 2, "mean_guesses": 6.0, "win_rate": 0.5, "fail_rate": 0.5, "worst_guesses": 9,
        "histogram": {"3": 1, "9": 1}, "guesses_outside_source": 1, "games_outside_source": 1, "seconds": 1.25,
    }


def test_progress_is_labelled_with_the_name_asked_or_the_label_and_counts_games_or_sets(small, monkeypatch, capsys):
    monkeypatch.setenv("EVO_WORDLE_PROGRESS_SECONDS", "0")  # every update a line on stderr (not a terminal)
    search = {"search": 2}
    runs = [({"solver": "greedy", "settings": P1}, "bench greedy: 3/3 games (100 %)"),
            ({"solver": "ga-search", "settings": TWO, "solver_params": search}, "bench ga-search: 3/3 sets (100 %)"),
            ({"solver": "ga-search", "settings": TWO, "solver_params": search, "label": "row"},
             "bench row: 3/3 sets (100 %)")]
    for kwargs, last in runs:
        run_bench(small, games=3, progress=True, **kwargs)
        lines = capsys.readouterr().err.splitlines()
        assert lines and lines[-1].startswith(last), lines
    run_bench(small, "greedy", P1, games=3)
    assert capsys.readouterr().err == ""
