"""Rules of the GA solvers (evo_wordle/ga/solvers.py): each solver's defaults are the table in
docs/ga.md, ``ga`` opens like the greedy baseline, a game seeds DEAP's ``random`` from its own
generator, the hard-mode guess comes from the population's legal words, the logbook summarises
every generation (built once, the last pattern filled in later), the halls of fame hold each
decision's best distinct words, and configuration errors name the flags the user typed."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.ga import solvers as gas
from evo_wordle.ga.adapter import vectorised
from evo_wordle.game import GameState, Settings, hard_mode_mask
from evo_wordle.patterns import to_digits
from evo_wordle.solvers import make_solver

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ga.md"
NAMES = ("ga", "ga-thesis", "ga-first")


def _docs_defaults() -> dict[str, dict[str, str]]:
    """docs/ga.md's table of defaults: {solver: {row: cell}}; its second ``mutation`` row (the
    operator, after the rate) is read as ``mutation operator``."""
    lines = DOCS.read_text().splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("| default | `ga` |"))
    names = [c.strip().strip("`") for c in lines[head].strip("|").split("|")][1:]
    table: dict[str, dict[str, str]] = {n: {} for n in names}
    for ln in lines[head + 2:]:
        if not ln.startswith("|"):
            break
        row, *cells = (c.strip() for c in ln.strip("|").split("|"))
        if row in table[names[0]]:
            row += " operator"
        for n, cell in zip(names, cells):
            table[n][row] = cell
    return table


@pytest.mark.parametrize("name", NAMES)
def test_each_solvers_defaults_are_the_table_in_docs_ga_md(ctx, name):
    """Every GA figure is quoted with "the defaults" of its solver: the documented table must be
    what the solver plays (population, rates, operators, elite, pressure, mutation filters)."""
    doc = _docs_defaults()[name]
    cfg = make_solver(name, ctx, Settings()).config
    assert cfg.population == int(doc["population"])
    assert cfg.mutation == float(doc["mutation"])
    assert cfg.crossover_rate == float(doc["crossover rate"])
    assert cfg.init == doc["init"]
    assert cfg.elite == int(doc["elite"])
    assert cfg.generations_per_guess == int(doc["generations per guess"])
    for row, field in (("selection (pressure)", "selection"), ("choice of the guess", "choice")):
        m = re.fullmatch(r"(\w+)(?: \(([\d.]+)\))?", doc[row])
        assert getattr(cfg, field) == m.group(1), row
        if m.group(2):
            assert cfg.pressure == float(m.group(2)), row
    assert cfg.fitness == doc["fitness"]
    assert cfg.crossover == doc["crossover"]
    kind, scope, *rest = (p.strip() for p in doc["mutation operator"].split(","))
    assert (cfg.mutation_kind, cfg.mutation_scope) == (kind, scope)
    assert cfg.exclude_guessed == (rest == ["never a guessed word"])
    assert cfg.distinct == {"yes": True, "no": False}[doc["distinct"]]


@pytest.mark.parametrize("name", NAMES)
def test_only_ga_opens_with_tales_and_only_when_any_allowed_word_may_be_the_answer(ctx, name):
    """docs/ga.md's opener row: ``ga`` opens like greedy (TALES) in P0; with the answers known,
    and for the thesis's GAs, the population picks the first guess; a given opener is kept."""
    own = make_solver(name, ctx, Settings())
    assert own.fixed_opener == (ctx.words.index("tales") if name == "ga" else None)
    assert make_solver(name, ctx, Settings(candidates="answers")).fixed_opener is None
    crane = ctx.words.index("crane")
    for settings in (Settings(), Settings(candidates="answers")):
        assert make_solver(name, ctx, settings, opener="crane").fixed_opener == crane
    assert make_solver(name, ctx, Settings(), opener="").fixed_opener is None
    solver = make_solver(name, ctx, Settings(), opener="crane", population=20, elite=0)
    solver.reset(np.random.default_rng(0))
    assert solver.choose(GameState.start(ctx, Settings())) == crane


def test_without_tales_ga_opens_with_the_starting_candidate_of_most_entropy(small):
    """A list without TALES (e.g. six letters): the candidate whose patterns split the starting
    candidates most evenly, the first in the list among equals."""
    start = small.candidates("allowed")
    assert not small.words.contains("tales")

    def bits(word):
        counts = np.array(list(Counter(small.table[word, start].tolist()).values())) / len(start)
        return float(-(counts * np.log2(counts)).sum())

    scores = [bits(w) for w in start]
    best = start[int(np.argmax(np.round(scores, 9)))]
    assert gas.CardGA.opener_for(small, Settings()) == small.words.allowed[best]
    assert make_solver("ga", small, Settings()).fixed_opener == best


@pytest.fixture(scope="module")
def small(cache_dir):
    from tests.small_lists import IGHT, small_context

    return small_context("rules-ga-solvers", IGHT, slice(0, 20), slice(0, 400), 30)


def test_reset_seeds_deaps_random_from_the_games_generator(ctx):
    """DEAP's own operators draw from ``random``: a game seeds it with one 63-bit draw of its own
    generator, so a game with DEAP operators replays from its seed and seeds rarely share a stream."""
    solver = make_solver("ga-thesis", ctx, Settings(), population=10)
    for seed in (0, 7):
        solver.reset(np.random.default_rng(seed))
        got = [random.random() for _ in range(3)]
        random.seed(int(np.random.default_rng(seed).integers(2**63)))
        assert got == [random.random() for _ in range(3)]
    draws = set()
    for seed in range(40):
        solver.reset(np.random.default_rng(seed))
        draws.add(random.getrandbits(64))
    assert len(draws) == 40


def _manual_game(ctx, name, answer, settings=None, seed=1, **params):
    """Play ``answer`` by hand; returns (solver, states before each guess, guesses, patterns)."""
    settings = settings or Settings()
    solver = make_solver(name, ctx, settings, **params)
    solver.reset(np.random.default_rng(seed))
    state, states, guesses, patterns = GameState.start(ctx, settings), [], [], []
    answer = ctx.words.index(answer)
    while True:
        guess = solver.choose(state)
        states.append(state)
        guesses.append(guess)
        patterns.append(int(ctx.table[guess, answer]))
        if patterns[-1] == ctx.words.solved:
            solver.finish(state, guess, patterns[-1])
            return solver, states, guesses, patterns
        state = state.after(guess, patterns[-1])


def test_each_logbook_record_summarises_its_generation(ctx):
    """best / mean / std / diversity are those of the generation's fitness and words; guess_no,
    candidates and the played word are those of the decision the generation was bred for."""
    solver, states, guesses, patterns = _manual_game(ctx, "ga", "merry", population=40, generations_per_guess=3)
    entries, log = solver._generations, solver.logbook
    assert len(log) == len(entries) == 1 + 3 * (len(guesses) - 1)
    decision = 0
    for gen, (record, entry) in enumerate(zip(log, entries)):
        pop, fit = entry[2], entry[3]
        assert record["gen"] == gen
        assert record["best"] == pytest.approx(fit.max()) and record["mean"] == pytest.approx(fit.mean())
        assert record["std"] == pytest.approx(np.std(fit), rel=1e-6, abs=1e-12)
        assert record["diversity"] == len(set(pop.tolist()))
        state = states[decision]
        assert record["guess_no"] == state.turn + 1 == decision + 1
        assert record["candidates"] == len(state.candidates)
        if record["guess"] is not None:
            assert record["guess"] == ctx.words.allowed[guesses[decision]]
            assert record["pattern"] == to_digits(patterns[decision])
            decision += 1
        else:
            assert record["pattern"] is None and record["guess_fitness"] is None
    assert decision == len(guesses)


def _copies_of_the_first(solver):
    """Toolbox entries that breed copies of population[0] and play it."""

    @vectorised
    def first(population, k, fitness=None):
        return population[np.zeros(k, dtype=np.int64)]

    solver.toolbox.register("select", first)
    solver.toolbox.register("choose", first)
    solver.toolbox.register("mate", vectorised(lambda a, b: (a.copy(), b.copy())))
    solver.toolbox.register("mutate", vectorised(lambda words: words))


def test_a_generation_of_one_word_has_zero_spread(ctx):
    """A population of one repeated word: std 0 (never NaN from rounding below zero), diversity 1."""
    for n in (3, 7, 30, 300):
        solver = make_solver("ga", ctx, Settings(), population=n, elite=0, opener="", mutation_scope="all",
                             distinct=False)
        _copies_of_the_first(solver)
        solver.reset(np.random.default_rng(0))
        state = GameState.start(ctx, Settings())
        first = solver.choose(state)
        solver.choose(state.after(first, int(ctx.table[first, ctx.words.index("merry")])))
        last = solver.logbook[-1]
        assert last["diversity"] == 1 and last["std"] == 0.0
        assert last["mean"] == pytest.approx(last["best"], rel=1e-12)


def test_the_logbook_is_built_once_per_generation_and_takes_the_last_pattern_later(ctx):
    """Reading the logbook twice gives the same object; a new generation rebuilds it; the last
    guess's pattern arrives with ``finish`` and fills the record already built."""
    solver = make_solver("ga", ctx, Settings(), population=30)
    solver.reset(np.random.default_rng(2))
    answer = ctx.words.index("merry")
    state = GameState.start(ctx, Settings())
    guess = solver.choose(state)
    log = solver.logbook
    assert solver.logbook is log and len(log) == 1 and log[0]["pattern"] is None
    halls = solver.halls_of_fame
    assert solver.halls_of_fame is halls and [h.turn for h in halls] == [0]
    pattern = int(ctx.table[guess, answer])
    state = state.after(guess, pattern)
    second = solver.choose(state)
    again = solver.logbook
    assert again is not log and len(again) == 3 and again[0]["pattern"] == to_digits(pattern)
    assert again[-1]["pattern"] is None
    last = int(ctx.table[second, answer])
    solver.finish(state, second, last)
    assert solver.logbook is again and again[-1]["pattern"] == to_digits(last)


def test_after_an_undo_each_decision_keeps_the_feedback_of_its_own_word_in_the_line_played(ctx):
    """The assistant's undo: the GA's logbook gave the feedback of the next move entered to the
    suggestion of the line taken back, and left the taken-back feedback on the word before it.
    Each decision's record holds the feedback its word got in the game as it now stands: none
    for a suggestion of a line taken back or for a word the player did not take."""
    from evo_wordle.assist import AssistSession

    settings = Settings(candidates="answers")
    session = AssistSession(ctx, settings, make_solver("ga", ctx, settings, population=30))
    session.solver.reset(np.random.default_rng(5))
    answer = ctx.words.index("merry")

    def play(word: int, pattern: int | None = None) -> int:
        pattern = int(ctx.table[word, answer]) if pattern is None else pattern
        session.enter(word, pattern)
        return pattern

    def decisions() -> list[tuple[str, str | None]]:
        return [(r["guess"], r["pattern"]) for r in session.solver.logbook if r["guess"] is not None]

    first = ctx.words.index(session.suggest())
    p0 = play(first)
    second = ctx.words.index(session.suggest())
    p1 = play(second)
    third = session.suggest()
    assert decisions() == [(ctx.words.allowed[first], to_digits(p0)), (ctx.words.allowed[second], to_digits(p1)),
                           (third, None)]
    # the colours of the second word were mistyped: taken back and entered again, other colours
    assert session.undo() and session.suggest() == ctx.words.allowed[second]
    other = next(int(ctx.table[second, w]) for w in session.state.candidates if int(ctx.table[second, w]) != p1)
    play(second, other)
    fourth = session.suggest()
    assert decisions() == [(ctx.words.allowed[first], to_digits(p0)), (ctx.words.allowed[second], to_digits(other)),
                           (third, None), (fourth, None)]
    # taken back again, and another word than the suggestion played: the suggestion got no feedback
    assert session.undo()
    word = next(int(w) for w in session.state.candidates if int(w) != second)
    play(word)
    session.suggest()
    assert [p for _, p in decisions()] == [to_digits(p0), None, None, None, None]


def _reference_halls(solver, size):
    """Per decision: the ``size`` best distinct words of every generation bred for it (the
    played word included), best first, ties by word index."""
    halls, seen = [], {}
    for _, _, pop, fit, guess, _, _, guess_fit in solver._generations:
        seen.update(zip(pop.tolist(), fit.tolist()))
        if guess is not None:
            seen[guess] = guess_fit
            halls.append(sorted(seen.items(), key=lambda wf: (-wf[1], wf[0]))[:size])
            seen = {}
    return halls


@pytest.mark.parametrize("name, params", [
    ("ga", {"population": 40, "generations_per_guess": 3}),  # the default hall of five over many words
    ("ga", {"population": 40, "hof_size": 12, "init": "random"}),  # the fixed opener outside a random population
    ("ga", {"population": 3, "elite": 0, "hof_size": 8}),  # fewer distinct words than places
    # no elite: a later generation's best may fall between the hall's first and last places
    ("ga-thesis", {"population": 30, "generations_per_guess": 4}),
])
def test_each_hall_of_fame_holds_the_best_distinct_words_bred_for_its_decision(ctx, name, params):
    solver, _, guesses, _ = _manual_game(ctx, name, "merry", **params)
    size = params.get("hof_size", 5)
    want = _reference_halls(solver, size)
    halls = solver.halls_of_fame
    assert [h.turn for h in halls] == list(range(len(guesses)))
    for hof, ref in zip(halls, want):
        got = [(ctx.words.index(w), f) for w, f in hof.words()]
        assert [f for _, f in got] == [f for _, f in ref] and sorted(got) == sorted(ref)
    assert [(r["turn"], r["rank"]) for r in solver.hall_of_fame_words()] == [
        (t, rank) for t, ref in enumerate(want) for rank in range(1, len(ref) + 1)]
    assert solver.hall_of_fame is halls[-1]


def test_before_any_decision_the_hall_is_empty_and_hof_size_zero_keeps_none(ctx):
    solver = make_solver("ga", ctx, Settings(), population=20)
    hof = solver.hall_of_fame
    assert len(hof) == 0 and hof.turn == 0 and hof.maxsize == 5 and str(hof) == "turn 0: "
    none, *_ = _manual_game(ctx, "ga", "merry", population=20, hof_size=0)
    assert none.hall_of_fame is None and none.halls_of_fame == [] and none.hall_of_fame_words() == []
    assert len(none.logbook) > 1  # the logbook is kept all the same


def _recording_choose(solver):
    """Replace the guess choice by one that records what it is offered and plays its first word."""
    offered = []

    @vectorised
    def choose(population, k, fitness=None):
        offered.append((population.copy(), np.asarray(fitness).copy()))
        return population[:k]

    solver.toolbox.register("choose", choose)
    return offered


def _mutate_to(solver, word, share):
    """Mutation that turns the first ``share`` of each generation's children into ``word``."""

    @vectorised
    def mutate(words):
        out = words.copy()
        out[: int(round(share * len(out)))] = word
        return out

    solver.toolbox.register("mutate", mutate)


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_a_hard_mode_guess_is_chosen_among_the_populations_legal_words(ctx, share):
    """Hard mode: the choice sees the population's legal words (all of it when every word is
    legal); with none legal it sees the candidates, evaluated for the purpose."""
    settings = Settings(hard=True)
    solver = make_solver("ga-thesis", ctx, settings, population=40, mutation=1.0, opener="tales")
    offered = _recording_choose(solver)
    answer, tales = ctx.words.index("merry"), ctx.words.index("tales")
    illegal = ctx.words.index("crown")  # ignores TALES's yellow E
    _mutate_to(solver, illegal, share)
    solver.reset(np.random.default_rng(0))
    assert solver.choose(GameState.start(ctx, settings)) == tales
    state = GameState.start(ctx, settings).after(tales, int(ctx.table[tales, answer]))
    assert not hard_mode_mask(ctx, state.history)[illegal]
    guess = solver.choose(state)
    pop, fit = solver.population, solver.fitness
    legal = hard_mode_mask(ctx, state.history)[pop]
    words, seen_fit = offered[-1]
    if legal.all():
        np.testing.assert_array_equal(words, pop)
        np.testing.assert_array_equal(seen_fit, fit)
    elif legal.any():
        np.testing.assert_array_equal(words, pop[legal])
        np.testing.assert_array_equal(seen_fit, fit[legal])
    else:
        np.testing.assert_array_equal(words, state.candidates)
        # parents re-scored, children, the candidates, and the played candidate (not in the
        # population) once more for its logged fitness
        assert solver.logbook[-1]["nevals"] == 2 * 40 + len(state.candidates) + 1
    assert legal.all() == (share == 0.0) and legal.any() == (share < 1.0)
    assert guess == words[0] and hard_mode_mask(ctx, state.history)[guess]


def test_outside_hard_mode_the_choice_sees_the_whole_population(ctx):
    """The hard-mode filter applies only in hard mode: otherwise illegal-in-hard words may be played."""
    solver = make_solver("ga-thesis", ctx, Settings(), population=40, mutation=1.0, opener="tales")
    offered = _recording_choose(solver)
    answer, tales = ctx.words.index("merry"), ctx.words.index("tales")
    _mutate_to(solver, ctx.words.index("crown"), 0.5)
    solver.reset(np.random.default_rng(0))
    assert solver.choose(GameState.start(ctx, Settings())) == tales
    state = GameState.start(ctx, Settings()).after(tales, int(ctx.table[tales, answer]))
    solver.choose(state)
    assert not hard_mode_mask(ctx, state.history)[solver.population].all()
    np.testing.assert_array_equal(offered[-1][0], solver.population)


def test_hard_mode_first_guess_of_the_population_is_not_filtered(ctx):
    """Before any feedback every word is legal: the first choice sees the whole population."""
    settings = Settings(hard=True)
    solver = make_solver("ga", ctx, settings, population=20, opener="")
    offered = _recording_choose(solver)
    solver.reset(np.random.default_rng(0))
    solver.choose(GameState.start(ctx, settings))
    np.testing.assert_array_equal(offered[-1][0], solver.population)


def test_a_population_below_the_default_elite_names_both_flags(ctx):
    with pytest.raises(EvoWordleError, match=r"^--population 9 is smaller than ga's default --elite 10 "
                                             r"\(parents carried over\): give --elite 0 to 9 too$"):
        make_solver("ga", ctx, Settings(), population=9)
    assert make_solver("ga", ctx, Settings(), population=10).config.elite == 10
    assert make_solver("ga", ctx, Settings(), population=5, elite=2).config.population == 5
    # a population below 1 is its own error, not an elite one; one word is a population
    for name in NAMES:
        with pytest.raises(EvoWordleError, match=r"^--population must be between 1 and 1000000, not 0$"):
            make_solver(name, ctx, Settings(), population=0)
    assert make_solver("ga-thesis", ctx, Settings(), population=1).config.population == 1
    with pytest.raises(EvoWordleError, match="elite must be between 0 and 5, not 6"):
        make_solver("ga", ctx, Settings(), population=5, elite=6)


def test_check_params_ignores_the_opener_and_absent_values(ctx):
    """Sweeps check each configuration before building it: the opener and None (flag not
    given) are not GA fields; bad GA values are refused."""
    gas.CardGA.check_params({"opener": "tales", "population": None, "mutation": 0.2})
    gas.ThesisGA.check_params({"opener": None, "population": 1})
    with pytest.raises(EvoWordleError, match=r"^--population must be between 1 and 1000000, not 0$"):
        gas.ThesisGA.check_params({"opener": "tales", "population": 0})
    with pytest.raises(EvoWordleError, match="default --elite 10"):
        gas.CardGA.check_params({"population": 4})


def test_describe_names_replaced_operators_only(ctx):
    solver = make_solver("ga", ctx, Settings(), population=20)
    assert "operators" not in solver.describe()
    assert solver.describe()["population"] == 20 and solver.describe()["pressure"] == 50.0
    _recording_choose(solver)
    assert list(solver.describe()["operators"]) == ["choose"]


def test_a_word_tied_with_the_halls_last_place_enters_it_by_word_order(ctx):
    """Ties in fitness go to the lower word index, whichever generation bred the word: a later
    generation's word tied with the hall's last place and earlier in the list takes that place."""
    solver = make_solver("ga-thesis", ctx, Settings(), population=30, generations_per_guess=3, opener="tales")
    solver.toolbox.register("evaluate", vectorised(lambda words: np.ones(len(words))))
    solver.reset(np.random.default_rng(3))
    state = GameState.start(ctx, Settings())
    answer = ctx.words.index("merry")
    tales = solver.choose(state)
    solver.choose(state.after(tales, int(ctx.table[tales, answer])))
    bred = [set(e[2].tolist()) for e in solver._generations[1:]]
    assert min(bred[1] | bred[2]) < max(sorted(bred[0])[:5])  # a later generation brings a lower word
    hall = [ctx.words.index(w) for w, _ in solver.halls_of_fame[1].words()]
    assert sorted(hall) == sorted(set().union(*bred))[:5]


@pytest.mark.parametrize("name", NAMES)
def test_a_ga_game_depends_on_its_seed_so_bench_repeats_it(name):
    """The GA solvers draw from their generator: ``bench --repeat N`` runs them N times (a
    deterministic solver once)."""
    from evo_wordle.cli.bench_cmds import repeats
    from evo_wordle.solvers import SOLVERS, load_all

    load_all()
    assert SOLVERS[name].stochastic is True
    assert repeats(name, Settings(), 4) == 4 and repeats("greedy", Settings(), 4) == 1


def test_a_game_may_be_taken_up_at_a_later_turn_and_taken_back_to_the_start(ctx):
    """The assistant asks a fresh solver about a game already under way, and its undo may go
    back to the first turn: no pattern is invented for a record whose feedback never came."""
    answer, tales = ctx.words.index("merry"), ctx.words.index("tales")
    start = GameState.start(ctx, Settings())
    later = start.after(tales, int(ctx.table[tales, answer]))
    solver = make_solver("ga", ctx, Settings(), population=20)
    solver.reset(np.random.default_rng(0))
    guess = solver.choose(later)
    assert guess in later.candidates and solver.logbook[0]["pattern"] is None
    assert solver.choose(start) == tales  # back to the first turn: the opener again
    log = solver.logbook
    assert [r["guess_no"] for r in log if r["guess"]] == [2, 1]
    assert [r["pattern"] for r in log] == [None] * len(log)


def test_a_later_generation_enters_the_hall_between_its_places(ctx):
    """Generations bred for one decision: a word better than the hall's last place enters it
    even when it is worse than the others (here fitness = word index, a hall of three)."""
    solver = make_solver("ga-thesis", ctx, Settings(), population=3, generations_per_guess=3, hof_size=3,
                         opener="tales")
    bred = iter([[100, 90, 80], [85, 1, 2], [3, 4, 5]])
    solver.toolbox.register("evaluate", vectorised(lambda words: words.astype(float)))
    solver.toolbox.register("breed", lambda population, fitness: np.array(next(bred), dtype=np.int64))
    solver.reset(np.random.default_rng(0))
    state = GameState.start(ctx, Settings())
    tales = solver.choose(state)
    solver.choose(state.after(tales, int(ctx.table[tales, ctx.words.index("merry")])))
    assert [(ctx.words.index(w), f) for w, f in solver.halls_of_fame[1].words()] == [
        (100, 100.0), (90, 90.0), (85, 85.0)]


def test_unread_params_name_what_selection_and_choice_turn_off():
    """Tournament size is read only under tournament selection or choice, pressure only under
    roulette: a flag, a grid key or a tuned value under the other methods would be ignored."""
    from evo_wordle.solvers import SOLVERS, load_all

    load_all()
    ga, first = SOLVERS["ga"], SOLVERS["ga-first"]
    assert ga.unread_params({}) == {} and ga.unread_params({"pressure": 3.0}) == {}  # ga: roulette both
    alone = ga.unread_params({"tournament_size": 4})
    assert list(alone) == ["tournament_size"]
    assert alone["tournament_size"].why == ("is for tournament selection, but ga selects parents by roulette and "
                                            "chooses its guess by roulette")
    assert alone["tournament_size"].fixes == {"selection": "tournament", "choice": "tournament"}
    assert ga.unread_params({"tournament_size": 4, "selection": "tournament"}) == {}
    assert ga.unread_params({"tournament_size": 4, "choice": "tournament"}) == {}
    assert ga.unread_params({"pressure": 3.0, "selection": "tournament"}) == {}  # the choice still reads it
    assert ga.unread_params({"pressure": 3.0, "choice": "best"}) == {}  # the selection still reads it
    both = ga.unread_params({"pressure": 3.0, "tournament_size": 4, "selection": "best", "choice": "best"})
    assert sorted(both) == ["pressure", "tournament_size"]
    assert both["pressure"].fixes == {"selection": "roulette", "choice": "roulette"}
    assert both["pressure"].why.startswith("is for roulette selection, but ga selects parents by best and chooses")
    assert first.unread_params({"pressure": 2.0})["pressure"].why == (
        "is for roulette selection, but ga-first selects parents by best and chooses its guess by best")
    # a flag is refused; the same value from a parameter file is not a flag and plays on
    with pytest.raises(EvoWordleError) as caught:
        ga.check_flags_used({"tournament_size": 4}, {"tournament_size": 4})
    assert str(caught.value) == ("--tournament-size is for tournament selection, but ga selects parents by roulette "
                                 "and chooses its guess by roulette: give --selection tournament or --choice "
                                 "tournament, or drop --tournament-size")
    ga.check_flags_used({}, {"tournament_size": 4})
    ga.check_flags_used({"tournament_size": 4}, {"tournament_size": 4, "choice": "tournament"})
    assert SOLVERS["greedy"].unread_params({"opener": "tales"}) == {}


@pytest.mark.parametrize("name", ["ga", "ga-first", "ga-thesis"])
def test_param_defaults_are_read_from_the_class_and_are_what_a_solver_built_with_nothing_records(ctx, name):
    """A parameter file's unread value is warned of only when it differs from these (tune writes
    every value): they are asked of the solver's class, before any solver is built."""
    from evo_wordle.solvers import SOLVERS, load_all

    load_all()
    defaults = SOLVERS[name].param_defaults()
    described = make_solver(name, ctx, Settings()).describe()
    assert {"tournament_size", "pressure", "selection", "choice"} <= set(defaults)
    assert {k: described[k] for k in defaults} == defaults
