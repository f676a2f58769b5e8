"""The GA toolbox's rules (evo_wordle/ga/toolbox.py), each checked against what it states and
written out here: what a generation keeps (elites), breeds (crossover and mutation rates) and
replaces (stale and repeated words), what the game state tells the operators, which fitness
each kind reads, and how the first population is drawn."""

from __future__ import annotations

import numpy as np
import pytest
from deap import tools

from evo_wordle.errors import EvoWordleError
from evo_wordle.ga import operators as ops
from evo_wordle.ga import toolbox as tbx
from evo_wordle.ga.config import GAConfig
from evo_wordle.ga.creator import individual
from evo_wordle.ga.fitness import dynamic_fitness, static_entropy, static_fitness
from evo_wordle.game import GameState, Settings, hard_mode_mask
from evo_wordle.patterns import score as feedback

ANSWERS = Settings(candidates="answers")


def _state(ctx, settings=ANSWERS, guesses=(), answer="cigar", seed=0):
    """A GAState that has observed ``guesses`` against ``answer``."""
    st = tbx.GAState(ctx, settings, np.random.default_rng(seed))
    game = GameState.start(ctx, settings)
    for g in guesses:
        game = game.after(ctx.words.index(g), feedback(g, answer))
        st.observe(game)
    return st, game


def _words(ctx, *words):
    return np.array([ctx.words.index(w) for w in words], dtype=np.int64)


def _toolbox(ctx, st, **config):
    return tbx.make_toolbox(GAConfig().with_(**config), ctx, st)


# --------------------------------------------------------------------------- the game state


def test_the_state_refuses_what_is_not_a_context_settings_or_generator(ctx):
    with pytest.raises(EvoWordleError, match="ctx must be a Context, not dict"):
        tbx.GAState({})
    with pytest.raises(EvoWordleError, match="settings must be a Settings"):
        tbx.GAState(ctx, {"hard": True})
    with pytest.raises(EvoWordleError, match="rng must be a numpy Generator"):
        tbx.GAState(ctx, None, 3)
    st = tbx.GAState(ctx)
    assert st.settings == Settings() and st.turn == 0
    assert st.rng.random(3).tolist() == np.random.default_rng(0).random(3).tolist()  # no rng: seeded 0
    _assert_first_knows(ctx, st, GameState.start(ctx, Settings()))  # no game yet: nothing learnt, no error
    assert np.array_equal(st.candidates, ctx.candidates(Settings().candidates))


def test_views_before_any_guess_are_the_starting_candidates(ctx):
    st = tbx.GAState(ctx, ANSWERS)
    assert np.array_equal(st.candidates, ctx.words.answer_index)
    assert np.array_equal(np.flatnonzero(st.consistent), ctx.words.answer_index)
    assert not st.attempted.any() and st.attempts == []
    assert st.hard_legal.all()


def test_each_guess_updates_candidates_consistent_attempted_and_hard_legal(ctx):
    st, game = _state(ctx, guesses=("salet",))
    assert st.turn == 1 and st.attempts == [ctx.words.index("salet")]
    assert np.array_equal(st.candidates, game.candidates)
    assert np.array_equal(np.flatnonzero(st.consistent), game.candidates)
    assert np.flatnonzero(st.attempted).tolist() == [ctx.words.index("salet")]
    assert np.array_equal(st.hard_legal, hard_mode_mask(ctx, game.history))
    game2 = game.after(ctx.words.index("crony"), feedback("crony", "cigar"))
    st.observe(game2)
    assert st.turn == 2 and st.attempts == _words(ctx, "salet", "crony").tolist()
    assert np.array_equal(np.flatnonzero(st.consistent), game2.candidates)
    assert np.flatnonzero(st.attempted).tolist() == sorted(_words(ctx, "salet", "crony").tolist())
    assert np.array_equal(st.hard_legal, hard_mode_mask(ctx, game2.history))


def test_another_line_of_play_is_learnt_from_its_own_history(ctx):
    """The assistant's undo: a history that is not a continuation replaces what was learnt."""
    st, game = _state(ctx, guesses=("salet", "crony"))
    st.first  # noqa: B018 - learnt up to the second guess
    other = GameState.start(ctx, ANSWERS).after(ctx.words.index("trace"), feedback("trace", "cigar"))
    other = other.after(ctx.words.index("build"), feedback("build", "cigar"))
    st.observe(other)
    assert st.attempts == _words(ctx, "trace", "build").tolist() and st.turn == 2
    assert np.flatnonzero(st.attempted).tolist() == sorted(_words(ctx, "trace", "build").tolist())
    _assert_first_knows(ctx, st, other)
    assert np.array_equal(np.flatnonzero(st.consistent), other.candidates)
    fresh = tbx.GAState(ctx, ANSWERS)
    fresh.observe(other)
    assert np.array_equal(st.weak_pool, fresh.weak_pool)
    # back to the empty history: every view is the start's again
    st.observe(GameState.start(ctx, ANSWERS))
    assert st.attempts == [] and not st.attempted.any()
    assert np.array_equal(np.flatnonzero(st.consistent), ctx.words.answer_index)


def test_a_history_seen_at_once_is_learnt_whole(ctx):
    """A state that observes a game already two guesses in (a fresh or reset one) learns both."""
    _, game = _state(ctx, guesses=("salet", "crony"))
    for st in (tbx.GAState(ctx, ANSWERS), _state(ctx, guesses=("trace",))[0]):
        st.reset()
        st.observe(game)
        assert st.attempts == _words(ctx, "salet", "crony").tolist()
        assert np.flatnonzero(st.attempted).tolist() == sorted(_words(ctx, "salet", "crony").tolist())
        _assert_first_knows(ctx, st, game)


def _assert_first_knows(ctx, st, game):
    from evo_wordle.ga.fitness import FirstKnowledge

    want = FirstKnowledge(ctx.words.length)
    for g, p in game.history:
        want.update(ctx.words.letters[g], p)
    assert vars(st.first).keys() == vars(want).keys()
    for key, value in vars(want).items():
        assert np.array_equal(np.asarray(getattr(st.first, key)), np.asarray(value)), key


def test_observing_the_same_state_twice_learns_it_once(ctx):
    st, game = _state(ctx, guesses=("salet",))
    st.observe(game)
    assert st.attempts == [ctx.words.index("salet")]


def test_reset_forgets_the_game_and_takes_the_new_generator(ctx):
    st, _ = _state(ctx, guesses=("salet",))
    rng = np.random.default_rng(5)
    st.reset(rng)
    assert st.rng is rng and st.game is None and st.attempts == [] and st.turn == 0
    assert not st.attempted.any()
    assert np.array_equal(st.candidates, ctx.words.answer_index)
    keep = st.rng
    st.reset()
    assert st.rng is keep


def test_the_weak_pool_is_the_filter_minus_guessed_words_else_the_candidates(ctx):
    st, game = _state(ctx, guesses=("salet",))
    from evo_wordle.game import letter_counts

    want = np.flatnonzero(st.first.weak_mask(ctx.words.letters, letter_counts(ctx)) & ~st.attempted)
    assert len(want) and np.array_equal(st.weak_pool, want)
    assert ctx.words.index("salet") not in set(st.weak_pool.tolist())
    # a filter that nothing passes falls back to the candidates
    st2, game2 = _state(ctx, guesses=("salet",))
    st2.first.weak_mask = lambda *a: np.zeros(len(ctx.words), dtype=bool)
    st2._weak = None
    assert np.array_equal(st2.weak_pool, game2.candidates)


def test_first_knowledge_follows_every_guess_seen(ctx):
    st, game = _state(ctx, guesses=("salet", "crony"))
    _assert_first_knows(ctx, st, game)


def test_the_fitness_memo_keeps_256_candidate_sets(ctx):
    ctx.__dict__.pop("_ga_fitness_memo", None)
    st = tbx.GAState(ctx, ANSWERS)
    keys = []
    for i in range(257):
        st._state_key = (i, b"")
        st._fitness_table("dynamic")
        keys.append(("dynamic", "answers", i, b""))
        memo = ctx.__dict__["_ga_fitness_memo"]
        assert len(memo) == min(i + 1, 256)
    assert list(memo) == keys[1:]
    ctx.__dict__.pop("_ga_fitness_memo", None)


def test_fitness_memo_is_one_table_per_candidate_set_least_recently_used_dropped(ctx):
    ctx.__dict__.pop("_ga_fitness_memo", None)
    st, _ = _state(ctx, guesses=("salet",))
    words = _words(ctx, "crony", "cigar", "crony")
    got = st.dynamic(words)
    want = dynamic_fitness(ctx, _words(ctx, "crony", "cigar"), st.candidates, distinct=True)
    assert np.array_equal(got, want[[0, 1, 0]])
    memo = ctx.__dict__["_ga_fitness_memo"]
    assert len(memo) == 1
    (key, table), = memo.items()
    assert key[0] == "dynamic" and key[1] == "answers" and key[2] == len(st.candidates)
    assert np.flatnonzero(~np.isnan(table)).tolist() == sorted(_words(ctx, "crony", "cigar").tolist())
    # the same candidate set reached by another route shares the table
    other, _ = _state(ctx, guesses=("salet",), seed=9)
    assert np.array_equal(other.dynamic(_words(ctx, "cigar")), want[[1]]) and len(memo) == 1
    for i in range(tbx.MEMO_STATES):
        memo[("filler", i)] = None
    assert len(memo) == tbx.MEMO_STATES + 1
    st._state_key = None
    st._fitness_table("expected")  # a new key: the oldest (the dynamic table) goes
    assert len(memo) == tbx.MEMO_STATES + 1 and key not in memo and ("filler", 0) in memo
    st._fitness_table("expected")  # found again: kept, moved to the end
    assert list(memo)[-1][0] == "expected"
    ctx.__dict__.pop("_ga_fitness_memo", None)


# --------------------------------------------------------------------------- evaluate


def test_each_fitness_kind_reads_its_own_formula(ctx):
    st, game = _state(ctx, guesses=("salet",))
    words = _words(ctx, "crony", "cigar", "adieu")
    static = static_fitness(ctx, st.start_candidates)[words]
    assert np.array_equal(tbx.evaluate(words, ctx=ctx, state=st, kind="static"), static)
    assert np.array_equal(tbx.evaluate(words, ctx=ctx, state=st, kind="dynamic"),
                          dynamic_fitness(ctx, words, game.candidates, distinct=True))
    assert not np.allclose(static, dynamic_fitness(ctx, words, game.candidates, distinct=True))
    fresh = tbx.GAState(ctx, ANSWERS)  # before feedback, dynamic is the static table
    assert np.array_equal(tbx.evaluate(words, ctx=ctx, state=fresh, kind="dynamic"), static)
    from evo_wordle.ga.fitness import answer_weights, expected_fitness, first_fitness

    assert np.array_equal(tbx.evaluate(words, ctx=ctx, state=st, kind="expected"),
                          expected_fitness(ctx, words, game.candidates, answer_weights(ctx, "answers"), distinct=True))
    assert np.array_equal(tbx.evaluate(words, ctx=ctx, state=st, kind="first"),
                          first_fitness(ctx, words, st.first, static_entropy(ctx, st.start_candidates)))


def test_a_plain_list_of_word_indices_is_a_population(ctx):
    st, _ = _state(ctx, guesses=("salet",))
    words = _words(ctx, "crony", "cigar")
    got = tbx.evaluate(words.tolist(), ctx=ctx, state=st, kind="dynamic")
    assert isinstance(got, np.ndarray) and np.array_equal(got, tbx.evaluate(words, ctx=ctx, state=st, kind="dynamic"))
    for bad in ([[1, 2], [3, 4]], ["crony"], [None]):
        with pytest.raises(EvoWordleError, match="a population is an int array of word indices"):
            tbx.evaluate(bad, ctx=ctx, state=st, kind="dynamic")


def test_a_list_of_deap_individuals_is_a_population_of_their_words(ctx):
    st, _ = _state(ctx, guesses=("salet",))
    words = _words(ctx, "crony", "cigar", "mound")
    got = tbx.evaluate([individual(w) for w in words.tolist()], ctx=ctx, state=st, kind="dynamic")
    assert np.array_equal(got, tbx.evaluate(words, ctx=ctx, state=st, kind="dynamic"))


def test_the_package_operators_take_the_whole_population_at_once(ctx):
    """The fast path: evaluate, select, choose, mate and mutate are marked vectorised."""
    from evo_wordle.ga import adapter

    tb = _toolbox(ctx, tbx.GAState(ctx, ANSWERS))
    assert all(adapter.is_vectorised(getattr(tb, name)) for name in ("evaluate", "select", "choose", "mate", "mutate"))


def test_a_deap_individual_gets_its_fitness_as_a_one_tuple(ctx):
    st, _ = _state(ctx, guesses=("salet",))
    ind = individual(ctx.words.index("crony"))
    got = tbx.evaluate(ind, ctx=ctx, state=st, kind="dynamic")
    assert isinstance(got, tuple) and len(got) == 1 and isinstance(got[0], float)
    assert got[0] == tbx.evaluate(_words(ctx, "crony"), ctx=ctx, state=st, kind="dynamic")[0]


# --------------------------------------------------------------------------- select, mate, mutate


@pytest.mark.parametrize("method", ["roulette", "tournament", "best"])
def test_select_draws_with_the_named_method_and_its_parameters(ctx, method):
    st = tbx.GAState(ctx, ANSWERS, np.random.default_rng(3))
    pop = np.arange(10, 20, dtype=np.int64)
    fit = np.linspace(0.1, 1.0, 10)
    got = tbx.select(pop, 7, fit, state=st, method=method, pressure=2.5, size=4)
    rng = np.random.default_rng(3)
    pos = {"roulette": lambda: ops.roulette(fit, 7, rng, 2.5), "tournament": lambda: ops.tournament(fit, 7, rng, 4),
           "best": lambda: ops.best(fit, 7)}[method]()
    assert np.array_equal(got, pop[pos])


def test_select_reads_deap_individuals_fitness_and_returns_them(ctx):
    st = tbx.GAState(ctx, ANSWERS)
    pop = [individual(w) for w in (5, 6, 7)]
    for ind, f in zip(pop, (0.2, 0.9, 0.5)):
        ind.fitness.values = (f,)
    got = tbx.select(pop, 2, state=st, method="best", pressure=1.0, size=3)
    assert got == [pop[1], pop[2]] and got[0] is pop[1]


def test_mate_draws_children_the_crossover_kind_names(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=4)
    p1, p2 = _words(ctx, "crony", "cigar", "adieu"), _words(ctx, "mound", "proxy", "vivid")
    rng = np.random.default_rng(4)
    c1, c2 = tbx.mate(p1, p2, ctx=ctx, state=st, kind="uniform")
    assert np.array_equal(c1, ops.uniform_children(game.candidates, 3, rng))
    assert np.array_equal(c2, ops.uniform_children(game.candidates, 3, rng))
    c1, c2 = tbx.mate(p1, p2, ctx=ctx, state=st, kind="weak")
    assert np.array_equal(c1, ops.uniform_children(st.weak_pool, 3, rng))
    assert np.array_equal(c2, ops.uniform_children(st.weak_pool, 3, rng))
    c1, c2 = tbx.mate(p1, p2, ctx=ctx, state=st, kind="recombine")
    w1, w2 = ops.recombine_pairs(ctx, (p1, p2), st.consistent, game.candidates, rng, members=game.candidates)
    assert np.array_equal(c1, w1) and np.array_equal(c2, w2)


def test_mate_on_deap_individuals_changes_them_in_place_and_drops_their_fitness(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=4)
    a, b = individual(ctx.words.index("crony")), individual(ctx.words.index("mound"))
    a.fitness.values, b.fitness.values = (1.0,), (2.0,)
    out = tbx.mate(a, b, ctx=ctx, state=st, kind="uniform")
    assert out[0] is a and out[1] is b and not a.fitness.valid and not b.fitness.valid
    assert {a[0], b[0]} <= set(game.candidates.tolist())


def _mutants(ctx, st, config, words):
    return tbx.mutate(words, state=st, index=ops.neighbour_index(ctx), config=GAConfig().with_(**config))


def test_mutation_keeps_to_the_masks_the_configuration_names(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=2)
    words = np.repeat(_words(ctx, "cigar", "crony", "mound"), 200)
    index = ops.neighbour_index(ctx)
    for config, mask in [({}, None), ({"mutation_scope": "consistent"}, st.consistent),
                         ({"exclude_guessed": True}, ~st.attempted),
                         ({"mutation_scope": "consistent", "exclude_guessed": True}, st.consistent & ~st.attempted)]:
        st.rng = np.random.default_rng(2)
        got = _mutants(ctx, st, config, words)
        want = ops.mutate_words(words, index, np.random.default_rng(2), mask)
        assert np.array_equal(got, want), config
    st.rng = np.random.default_rng(2)
    got = _mutants(ctx, st, {"mutation_kind": "thesis", "mutation_tries": 7}, words)
    want = ops.mutate_words(words, index, np.random.default_rng(2), None, skip_letter=25, tries=7, letters=25)
    assert np.array_equal(got, want)


def test_consistent_mutation_that_also_excludes_guessed_words_still_mutates(ctx):
    st, game = _state(ctx, Settings(candidates="allowed"), guesses=("salet",), answer="crony", seed=5)
    cand = set(game.candidates.tolist())
    letters = ctx.words.allowed
    movers = [c for c in game.candidates.tolist()
              if any(sum(a != b for a, b in zip(letters[c], letters[d])) == 1 for d in cand)][:20]
    assert movers
    words = np.repeat(np.array(movers, dtype=np.int64), 20)
    got = _mutants(ctx, st, {"mutation_scope": "consistent", "exclude_guessed": True}, words)
    assert (got != words).any() and set(got.tolist()) <= cand


def test_thesis_mutation_never_brings_in_a_z(ctx):
    """The thesis drew letters a–y: no neighbour made with z; y still comes in."""
    st = tbx.GAState(ctx, ANSWERS, np.random.default_rng(3))
    words = np.repeat(_words(ctx, "crane", "blame", "parts", "dusts"), 300)
    got = _mutants(ctx, st, {"mutation_kind": "thesis", "mutation_tries": 100}, words)
    new_letters = {next(b for a, b in zip(ctx.words.allowed[w], ctx.words.allowed[m]) if a != b)
                   for w, m in zip(words.tolist(), got.tolist()) if w != m}
    assert "z" not in new_letters and "y" in new_letters


def test_exclude_guessed_means_nothing_before_the_first_guess(ctx):
    st = tbx.GAState(ctx, ANSWERS, np.random.default_rng(1))
    words = np.repeat(_words(ctx, "cigar"), 50)
    got = _mutants(ctx, st, {"exclude_guessed": True}, words)
    assert np.array_equal(got, ops.mutate_words(words, ops.neighbour_index(ctx), np.random.default_rng(1), None))


def test_mutating_a_deap_individual_returns_a_one_tuple_of_it(ctx):
    st = tbx.GAState(ctx, ANSWERS, np.random.default_rng(1))
    ind = individual(ctx.words.index("cigar"))
    ind.fitness.values = (1.0,)
    out = tbx.mutate(ind, state=st, index=ops.neighbour_index(ctx), config=GAConfig())
    assert isinstance(out, tuple) and len(out) == 1 and out[0] is ind and not ind.fitness.valid
    word = ctx.words.allowed[ind[0]]
    assert sum(a != b for a, b in zip(word, "cigar")) == 1


# --------------------------------------------------------------------------- the first population


def test_entropy_order_is_by_decreasing_entropy_ties_later_word_first(ctx):
    start = ctx.words.answer_index
    order = tbx._entropy_order(ctx, start)
    ent = static_entropy(ctx, start)
    want = sorted(start.tolist(), key=lambda w: (-ent[w], -w))
    assert order.tolist() == want
    assert tbx._entropy_order(ctx, start) is order  # remembered
    everything = tbx._entropy_order(ctx, ctx.all_words)
    assert len(everything) == len(ctx.words) and ent is not None
    for part in (start[:300], start[300:600], ctx.all_words[:300]):  # each starting set its own order
        ent = static_entropy(ctx, part)
        assert tbx._entropy_order(ctx, part).tolist() == sorted(part.tolist(), key=lambda w: (-ent[w], -w))


def test_best_init_takes_the_highest_entropy_guessable_words(ctx):
    st = tbx.GAState(ctx, ANSWERS)
    top = tbx.init_population(5, state=st, config=GAConfig(init="best"))
    ent = static_entropy(ctx, ctx.words.answer_index)
    want = sorted(ctx.words.answer_index.tolist(), key=lambda w: (-ent[w], -w))[:5]
    assert top.tolist() == want and top.dtype == np.int64
    # after feedback, among the words guessable now (the candidates), by the same starting entropy
    st, game = _state(ctx, guesses=("salet",))
    pool = game.candidates
    got = tbx.init_population(4, state=st, config=GAConfig(init="best"))
    assert got.tolist() == sorted(pool.tolist(), key=lambda w: (-ent[w], -w))[:4]


def test_best_init_larger_than_the_pool_tops_up_with_random_pool_words(ctx):
    st, game = _state(ctx, guesses=("salet", "crony"), seed=6)
    pool = game.candidates
    assert len(pool) < 40
    got = tbx.init_population(40, state=st, config=GAConfig(init="best"))
    ent = static_entropy(ctx, ctx.words.answer_index)
    ranked = sorted(pool.tolist(), key=lambda w: (-ent[w], -w))
    assert len(got) == 40 and got[: len(pool)].tolist() == ranked
    assert set(got[len(pool):].tolist()) <= set(pool.tolist())
    rng = np.random.default_rng(6)
    assert got[len(pool):].tolist() == pool[rng.integers(len(pool), size=40 - len(pool))].tolist()


def test_random_init_draws_uniformly_from_what_may_be_guessed(ctx):
    st = tbx.GAState(ctx, ANSWERS, np.random.default_rng(7))
    got = tbx.init_population(12, state=st, config=GAConfig())
    answers = ctx.words.answer_index
    assert got.tolist() == answers[np.random.default_rng(7).integers(len(answers), size=12)].tolist()
    allowed = Settings(candidates="answers", guess_from="allowed")
    st, game = _state(ctx, allowed, guesses=("salet",), seed=7)
    got = tbx.init_population(3000, state=st, config=GAConfig())
    assert not set(got.tolist()) <= set(game.candidates.tolist())  # any allowed word may be guessed
    with pytest.raises(EvoWordleError, match="population"):
        tbx.init_population(0, state=st, config=GAConfig())


def test_deap_population_helpers_draw_like_the_first_population(ctx):
    st = tbx.GAState(ctx, ANSWERS, np.random.default_rng(8))
    tb = _toolbox(ctx, st, init="best")
    pop = tb.population(3)
    assert [ind[0] for ind in pop] == tbx.init_population(3, state=st, config=GAConfig(init="best")).tolist()
    one = tb.individual()
    assert one[0] == pop[0][0] and hasattr(one, "fitness")
    st.rng = np.random.default_rng(9)
    tb = _toolbox(ctx, st)
    drawn = [tb.individual()[0] for _ in range(3)]
    rng = np.random.default_rng(9)
    answers = ctx.words.answer_index
    assert drawn == [int(answers[rng.integers(len(answers), size=1)[0]]) for _ in range(3)]


def test_the_operators_leading_parameters_may_be_named(ctx):
    """``toolbox.population(n=300)`` is DEAP's idiom; the words, ``k`` and the fitness of the
    other operators may be named too (none is positional-only), with the same draws."""

    def run(named: bool) -> list:
        st, _ = _state(ctx, guesses=("salet",), seed=3)
        tb = _toolbox(ctx, st)
        if named:
            words = tb.init_population(n=6)
            fit = tb.evaluate(population=words)
            out = [tb.select(population=words, k=4, fitness=fit), *tb.mate(parents1=words[:3], parents2=words[3:]),
                   tb.mutate(population=words), tb.breed(population=words, fitness=fit),
                   [ind[0] for ind in tb.population(n=2)]]
        else:
            words = tb.init_population(6)
            fit = tb.evaluate(words)
            out = [tb.select(words, 4, fit), *tb.mate(words[:3], words[3:]), tb.mutate(words), tb.breed(words, fit),
                   [ind[0] for ind in tb.population(2)]]
        return [words.tolist(), fit.tolist(), *(np.asarray(x).tolist() for x in out)]

    assert run(named=True) == run(named=False)


# --------------------------------------------------------------------------- one generation


def _breed(ctx, st, pop, fit, **config):
    tb = _toolbox(ctx, st, **config)
    return tbx.breed(np.asarray(pop, dtype=np.int64), np.asarray(fit, dtype=np.float64), toolbox=tb,
                     config=tb.breed.keywords["config"], state=st)


def test_copies_of_the_best_parents_without_crossover_or_mutation(ctx):
    st, game = _state(ctx, guesses=("salet",))
    pop = game.candidates[:6]
    fit = np.array([0.1, 0.6, 0.3, 0.9, 0.2, 0.5])
    got = _breed(ctx, st, pop, fit, population=6, crossover_rate=0.0, mutation=0.0, selection="best")
    assert got.tolist() == pop[[3, 1, 5, 2, 4, 0]].tolist()
    got = _breed(ctx, st, pop, fit, population=5, crossover_rate=0.0, mutation=0.0, selection="best")
    assert got.tolist() == pop[[3, 1, 5, 2, 4]].tolist()  # an odd count: the last pair's second child dropped


def test_elites_are_the_best_distinct_parents_not_yet_guessed(ctx):
    st, game = _state(ctx, guesses=("salet",))
    salet = ctx.words.index("salet")
    a, b, c, d = game.candidates[:4].tolist()
    pop = [salet, a, b, a, c, d]
    fit = [9.0, 5.0, 1.0, 5.0, 7.0, 2.0]
    got = _breed(ctx, st, pop, fit, population=6, elite=2, crossover_rate=0.0, mutation=0.0, selection="best")
    assert got[:2].tolist() == [c, a]  # SALET (already guessed) is no elite; A counts once
    # the children (copies of the best parents) fill the rest
    assert got[2:].tolist() == [salet, c, a, a]


def test_the_population_keeps_its_size_when_one_child_is_left_to_breed(ctx):
    st, game = _state(ctx, guesses=("salet",))
    a, b, c = game.candidates[:3].tolist()
    got = _breed(ctx, st, [a, b, c], [3.0, 2.0, 1.0], population=3, elite=2, crossover_rate=0.0, mutation=0.0,
                 selection="best")
    assert got.tolist() == [a, b, a]


def test_elites_with_equal_fitness_come_in_word_order(ctx):
    st, game = _state(ctx, guesses=("salet",))
    a, b, c = game.candidates[:3].tolist()
    got = _breed(ctx, st, [c, a, b], [1.0, 1.0, 1.0], population=3, elite=3, crossover_rate=0.0, mutation=0.0)
    assert got.tolist() == [a, b, c]


def test_under_the_consistent_scope_elites_and_unmated_parents_keep_to_the_candidates(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=3)
    cand = set(game.candidates.tolist())
    ruled_out = [w for w in _words(ctx, "adieu", "mound", "pinky").tolist() if w not in cand]
    a = game.candidates[0]
    assert len(ruled_out) == 3
    pop = [*ruled_out, a]
    fit = [9.0, 8.0, 7.0, 1.0]
    got = _breed(ctx, st, pop, fit, population=4, elite=2, crossover_rate=0.0, mutation=0.0, selection="best",
                 mutation_scope="consistent")
    assert got[0] == a  # the only consistent parent is the only elite
    assert len(got) == 4 and set(got.tolist()) <= cand
    # the same generation under the "all" scope keeps the ruled-out words
    got = _breed(ctx, st, pop, fit, population=4, elite=2, crossover_rate=0.0, mutation=0.0, selection="best")
    assert got[:2].tolist() == ruled_out[:2] and not set(got.tolist()) <= cand


def test_an_elite_of_the_whole_population_with_none_eligible_breeds_them_all(ctx):
    st, _ = _state(ctx, guesses=("salet", "crony"))
    guessed = _words(ctx, "salet", "crony").tolist()
    got = _breed(ctx, st, guessed, [1.0, 2.0], population=2, elite=2, crossover_rate=0.0, mutation=0.0,
                 selection="best")
    assert got.tolist() == [guessed[1], guessed[0]]


def test_a_generation_with_no_eligible_elite_breeds_the_whole_population(ctx):
    # elite 2 of 5, every parent already guessed: no elite is carried, so five children, not three
    st, _ = _state(ctx, guesses=("salet", "crony"))
    guessed = _words(ctx, "salet", "crony").tolist()
    got = _breed(ctx, st, guessed, [1.0, 2.0], population=5, elite=2, crossover_rate=0.0, mutation=0.0,
                 selection="best")
    assert got.tolist() == [guessed[1], guessed[0], guessed[1], guessed[0], guessed[1]]


def test_under_the_consistent_scope_a_generation_with_no_consistent_parent_keeps_its_size(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=3)
    cand = set(game.candidates.tolist())
    ruled_out = [w for w in _words(ctx, "adieu", "mound", "pinky").tolist() if w not in cand]
    got = _breed(ctx, st, ruled_out, [3.0, 2.0, 1.0], population=6, elite=2, crossover_rate=0.0, mutation=0.0,
                 selection="best", mutation_scope="consistent")
    assert len(got) == 6 and set(got.tolist()) <= cand


def test_every_pair_is_crossed_at_rate_one_and_none_at_rate_zero(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=11)
    outside = [w for w in _words(ctx, "adieu", "mound", "pinky", "vivid").tolist() if w not in set(game.candidates)]
    pop, fit = outside, [1.0] * len(outside)
    got = _breed(ctx, st, pop, fit, population=40, crossover_rate=1.0, mutation=0.0, crossover="uniform")
    assert len(got) == 40 and set(got.tolist()) <= set(game.candidates.tolist())  # children of the crossover
    got = _breed(ctx, st, pop, fit, population=40, crossover_rate=0.0, mutation=0.0, crossover="uniform")
    assert set(got.tolist()) <= set(outside)  # copies of the parents


def test_crossover_rate_is_the_share_of_pairs_crossed(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=12)
    outside = _words(ctx, "adieu")
    got = _breed(ctx, st, outside, [1.0], population=4000, crossover_rate=0.3, mutation=0.0, crossover="uniform")
    pairs = got.reshape(-1, 2)
    crossed = np.isin(pairs, game.candidates)
    assert np.array_equal(crossed[:, 0], crossed[:, 1])  # both children of a pair, or neither
    assert abs(crossed[:, 0].mean() - 0.3) < 0.04


def test_mutation_is_the_share_of_children_mutated(ctx):
    st, _ = _state(ctx, seed=13)
    cigar = ctx.words.index("cigar")
    for rate in (0.0, 0.25, 1.0):
        got = _breed(ctx, st, [cigar], [1.0], population=4000, crossover_rate=0.0, mutation=rate)
        changed = got != cigar
        assert abs(changed.mean() - rate) < 0.03, rate
        for w in set(got[changed].tolist()):
            assert sum(x != y for x, y in zip(ctx.words.allowed[w], "cigar")) == 1


def test_distinct_replaces_repeats_by_candidates_not_in_the_population(ctx):
    st, game = _state(ctx, guesses=("salet",), seed=14)
    a = game.candidates[0]
    got = _breed(ctx, st, [a], [1.0], population=6, crossover_rate=0.0, mutation=0.0, distinct=True)
    assert got[0] == a and len(set(got.tolist())) == 6 and set(got.tolist()) <= set(game.candidates.tolist())
    got = _breed(ctx, st, [a], [1.0], population=6, crossover_rate=0.0, mutation=0.0)
    assert got.tolist() == [a] * 6


def test_distinct_keeps_first_occurrences_and_stops_when_no_fresh_word_is_left(ctx):
    st, game = _state(ctx, guesses=("salet", "crony"), seed=15)
    cand = game.candidates
    pop = np.array([cand[0], cand[0], cand[1], cand[0], *cand[2:].tolist(), cand[1]], dtype=np.int64)
    out = tbx._distinct(pop, st)
    assert out[0] == cand[0] and out[2] == cand[1] and np.array_equal(out[4:-1], cand[2:])
    # three repeats, no fresh candidate left: the repeats stay
    assert sorted(out.tolist()) == sorted(pop.tolist())
    small = np.array([cand[0], cand[0], cand[0]], dtype=np.int64)
    out = tbx._distinct(small, st)
    assert out[0] == cand[0] and len(set(out.tolist())) == min(3, len(cand))
    rng = np.random.default_rng(15)
    fresh = cand[cand != cand[0]]
    same = _state(ctx, guesses=("salet", "crony"), seed=15)[0]
    assert tbx._distinct(small, same)[1:].tolist() == rng.choice(fresh, size=min(2, len(fresh)), replace=False).tolist()
    once = np.array(cand[:2], dtype=np.int64)
    assert tbx._distinct(once, st) is once


def test_first_occurrences_are_the_sorted_words_and_where_each_first_appears():
    words = np.array([7, 3, 7, 1, 3, 9, 1], dtype=np.int64)
    uniq, first = tbx._first_occurrences(words)
    assert uniq.tolist() == [1, 3, 7, 9] and first.tolist() == [3, 1, 0, 5]
    uniq, first = tbx._first_occurrences(np.array([4], dtype=np.int64))
    assert uniq.tolist() == [4] and first.tolist() == [0]
    uniq, first = tbx._first_occurrences(np.array([], dtype=np.int64))
    assert uniq.tolist() == [] and first.tolist() == []


def test_uniform_crossover_at_rate_one_reads_no_parents(ctx):
    """The thesis's crossover ignores the parents: with every pair crossed none are selected,
    so a selection that would fail is never called."""
    st, game = _state(ctx, guesses=("salet",), seed=16)
    tb = _toolbox(ctx, st, population=8, crossover_rate=1.0, mutation=0.0, crossover="uniform")

    def refuse(*args, **kwargs):
        raise AssertionError("selection called")

    tb.register("select", refuse)
    got = tbx.breed(np.arange(8, dtype=np.int64), np.ones(8), toolbox=tb, config=tb.breed.keywords["config"],
                    state=st)
    assert set(got.tolist()) <= set(game.candidates.tolist())
    tb = _toolbox(ctx, st, population=8, crossover_rate=1.0, mutation=0.0, crossover="recombine")
    tb.register("select", refuse)
    with pytest.raises(AssertionError, match="selection called"):
        tbx.breed(np.arange(8, dtype=np.int64), np.ones(8), toolbox=tb, config=tb.breed.keywords["config"], state=st)
    assert tbx._ignores_parents(_toolbox(ctx, st, crossover="weak").mate)
    assert not tbx._ignores_parents(_toolbox(ctx, st, crossover="recombine").mate)
    assert not tbx._ignores_parents(tools.cxTwoPoint)


# --------------------------------------------------------------------------- the toolbox


def test_make_toolbox_refuses_mismatched_parts_and_registers_the_configuration(ctx):
    st = tbx.GAState(ctx, ANSWERS)
    with pytest.raises(EvoWordleError, match="config must be a GAConfig, not dict"):
        tbx.make_toolbox({}, ctx, st)
    with pytest.raises(EvoWordleError, match="state must be a GAState, not NoneType"):
        tbx.make_toolbox(GAConfig(), ctx, None)
    from evo_wordle import Context

    with pytest.raises(EvoWordleError, match="another Context"):
        tbx.make_toolbox(GAConfig(), Context(), st)
    config = GAConfig(selection="tournament", choice="best", pressure=3.0, tournament_size=5, fitness="dynamic",
                      crossover="weak")
    rng = np.random.default_rng(1)
    tb = tbx.make_toolbox(config, ctx, st, rng)
    assert st.rng is rng and tb.state is st
    assert tb.select.keywords == {"state": st, "method": "tournament", "pressure": 3.0, "size": 5}
    assert tb.choose.keywords == {"state": st, "method": "best", "pressure": 3.0, "size": 5}
    assert tb.evaluate.keywords == {"ctx": ctx, "state": st, "kind": "dynamic"}
    assert tb.mate.keywords == {"ctx": ctx, "state": st, "kind": "weak"}
    assert tb.mutate.keywords["config"] is config and tb.mutate.keywords["state"] is st
    assert tb.breed.keywords["config"] is config and tb.init_population.keywords["config"] is config
    keep = st.rng
    tbx.make_toolbox(config, ctx, st)
    assert st.rng is keep
