"""Rule tests of evo_wordle/solvers/base.py: how every solver turns scores into a guess (the
opener on the first turn, the best score after it, ties, the near-tie rule for words that may be
the answer, the memo) and how solvers are looked up, built, labelled and sent to workers."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.game import GameState, Settings
from evo_wordle.solvers import base
from evo_wordle.solvers.base import (
    SOLVERS,
    ScoringSolver,
    Solver,
    accepted_params,
    build_solver,
    make_solver,
    pack_solver,
    register,
    solver_identity,
    solver_label,
    unpack_solver,
)

ANY = Settings(candidates="answers", guess_from="allowed")
ONLY = Settings(candidates="answers", guess_from="candidates")


class Scripted(ScoringSolver):
    """Scores set by the test: ``table[word]`` (default 0), counting every scoring call."""

    prefer_candidates = True

    def __init__(self, ctx, settings, opener=None, table=None):
        super().__init__(ctx, settings, opener)
        self.table = dict(table or {})
        self.calls = 0

    def scores(self, guesses, state):
        self.calls += 1
        out = np.zeros(len(guesses))
        for word, value in self.table.items():
            out[guesses == word] = value
        return out


class Plain(Scripted):
    prefer_candidates = False


def state_after(ctx, settings, *moves):
    """The state after ``moves`` ((guess word, answer word) pairs) from the start of ``settings``."""
    state = GameState.start(ctx, settings)
    for guess, answer in moves:
        g = ctx.words.index(guess)
        state = state.after(g, int(ctx.table[g, ctx.words.index(answer)]))
    return state


@pytest.fixture(scope="module")
def mid(ctx):
    """A state with a few candidates left (several allowed words outside them)."""
    state = state_after(ctx, ANY, ("salet", "cigar"), ("crony", "cigar"))
    assert 2 <= len(state.candidates) <= 40
    return state


def outsider(ctx, state, k=0):
    """The k-th allowed word that is not a candidate of ``state``."""
    return int(np.setdiff1d(ctx.all_words, state.candidates)[k])


def test_the_best_score_is_played_and_ties_go_to_the_first_word(ctx, mid):
    a, b = outsider(ctx, mid, 3), outsider(ctx, mid, 7)
    assert a < b
    assert Scripted(ctx, ANY, table={b: 2.0, a: 1.0}).pick(mid) == b
    assert Scripted(ctx, ANY, table={b: 2.0, a: 2.0}).pick(mid) == a
    # every word tied: the first word that may be the answer is played (the first word otherwise)
    assert Scripted(ctx, ANY).pick(mid) == int(mid.candidates[0])
    assert Plain(ctx, ANY).pick(mid) == int(ctx.all_words[0])


def test_a_near_tie_goes_to_a_word_that_may_be_the_answer(ctx, mid):
    top = outsider(ctx, mid, 5)
    cand = int(mid.candidates[-1])
    assert Scripted(ctx, ANY, table={top: 3.0, cand: 3.0 - 5e-10}).pick(mid) == cand
    # exactly at the margin still counts as a tie
    assert Scripted(ctx, ANY, table={top: 1.0, cand: 1.0 - 1e-9}).pick(mid) == cand
    # a candidate clearly below stays below
    assert Scripted(ctx, ANY, table={top: 3.0, cand: 3.0 - 1e-6}).pick(mid) == top
    # among tied candidates the first one is played
    first, last = int(mid.candidates[0]), int(mid.candidates[-1])
    assert Scripted(ctx, ANY, table={top: 3.0, last: 3.0, first: 3.0}).pick(mid) == first


def test_the_near_tie_rule_needs_it_switched_on_and_guesses_from_all_words(ctx, mid):
    top = outsider(ctx, mid, 5)
    cand = int(mid.candidates[-1])
    table = {top: 3.0, cand: 3.0 - 5e-10}

    assert Plain(ctx, ANY, table=table).pick(mid) == top
    # guessing among candidates only: the outsider is not even guessable
    only = state_after(ctx, ONLY, ("salet", "cigar"), ("crony", "cigar"))
    other = int(only.candidates[0])
    assert Scripted(ctx, ONLY, table={cand: 3.0, other: 3.0 - 5e-10}).pick(only) == cand


def test_a_best_word_that_may_be_the_answer_is_kept(ctx, mid):
    cand, top = int(mid.candidates[-1]), outsider(ctx, mid, 0)
    assert Scripted(ctx, ANY, table={cand: 3.0, top: 3.0}).pick(mid) == cand
    assert Scripted(ctx, ANY, table={cand: 3.0, top: 3.0 - 5e-10}).pick(mid) == cand


def test_one_candidate_is_played_without_scoring(ctx):
    state = state_after(ctx, ANY, ("salet", "cigar"), ("crony", "cigar"), ("cigar", "cigar"))
    assert len(state.candidates) == 1
    solver = Scripted(ctx, ANY, table={outsider(ctx, state): 99.0})
    assert solver.pick(state) == int(state.candidates[0])
    assert solver.best_guess(state) == int(state.candidates[0])
    assert solver.calls == 0


def test_decisions_are_memoised_per_state_and_best_guess_is_not(ctx, mid):
    solver = Scripted(ctx, ANY, table={outsider(ctx, mid, 2): 1.0})
    first = solver.pick(mid)
    assert solver.calls == 1
    solver.table = {outsider(ctx, mid, 9): 5.0}  # a memo hit ignores the new scores
    assert solver.pick(mid) == first and solver.calls == 1
    assert solver.best_guess(mid) == outsider(ctx, mid, 9) and solver.calls == 2
    assert solver.pick(mid) == first and solver.calls == 2


def test_the_opener_is_played_on_the_first_turn_only(ctx, mid):
    start = GameState.start(ctx, ANY)
    solver = Scripted(ctx, ANY, opener="crane", table={outsider(ctx, mid, 4): 1.0})
    assert solver.choose(start) == ctx.words.index("crane") and solver.calls == 0
    assert solver.choose(mid) == outsider(ctx, mid, 4) and solver.calls == 1


def test_without_an_opener_the_first_guess_is_worked_out_once_and_kept(ctx, tmp_path):
    start = GameState.start(ctx, ANY)

    class Fresh(Scripted):
        stochastic = True  # no disk cache: the first guess comes from default_opener

    word = ctx.words.index("ratio")
    solver = Fresh(ctx, ANY, table={word: 2.0})
    assert solver.opener is None
    assert solver.choose(start) == word and solver.opener == word and solver.calls == 1
    solver.table = {}
    assert solver.choose(start) == word and solver.calls == 1


def test_a_first_guess_after_history_is_not_taken_from_the_cache(ctx, monkeypatch):
    from evo_wordle.solvers import opener_cache

    def refuse(*args, **kwargs):
        raise AssertionError("the opener cache was asked")

    monkeypatch.setattr(opener_cache, "cached_default_opener", refuse)
    state = state_after(ctx, ANY, ("salet", "cigar"))
    word = outsider(ctx, state, 1)
    solver = Scripted(ctx, ANY, table={word: 1.0})
    assert solver._first_guess(state) == word
    stochastic = Scripted(ctx, ANY, table={word: 1.0})
    stochastic.stochastic = True
    assert stochastic._first_guess(GameState.start(ctx, ANY)) == word
    # a deterministic solver at a fresh start does ask the cache
    with pytest.raises(AssertionError, match="opener cache"):
        Scripted(ctx, ANY)._first_guess(GameState.start(ctx, ANY))


def test_reset_keeps_or_replaces_the_generator(ctx):
    solver = Scripted(ctx, ANY)
    rng = solver.rng
    solver.reset()
    assert solver.rng is rng
    new = np.random.default_rng(5)
    solver.reset(new)
    assert solver.rng is new


def test_summary_is_the_own_blurb_or_the_first_sentence():
    class A(Solver):
        """Pick ``words`` well. More text here."""

    class B(A):
        """Second class. Ignored."""

        blurb = "B's own line"

    class C(B):
        """Third one, no period"""

    assert A.summary() == "Pick words well"
    assert B.summary() == "B's own line"
    assert C.summary() == "Third one, no period"  # B's blurb is not inherited


def test_describe_names_the_solver_its_opener_and_class(ctx):
    d = Scripted(ctx, ANY, opener="crane").describe()
    assert d == {"solver": "base", "opener": "crane", "class": f"{__name__}.Scripted"}
    assert Scripted(ctx, ANY).describe()["opener"] is None


def test_register_names_and_records_a_class(monkeypatch):
    monkeypatch.setattr(base, "SOLVERS", dict(SOLVERS))

    @register("rule-test")
    class R(Solver):
        pass

    assert R.name == "rule-test" and base.SOLVERS["rule-test"] is R


def test_make_solver_checks_everything_it_is_given(ctx):
    assert make_solver("naive", ctx, ANY).name == "naive"
    with pytest.raises(EvoWordleError, match="unknown solver 'nope'"):
        make_solver("nope", ctx, ANY)
    with pytest.raises(EvoWordleError, match="no parameter 'colour'"):
        make_solver("naive", ctx, ANY, colour=1)
    with pytest.raises(EvoWordleError, match="must be a Context"):
        make_solver("naive", object(), ANY)
    with pytest.raises(EvoWordleError, match="must be a Settings"):
        make_solver("naive", ctx, {"candidates": "answers"})
    with pytest.raises(EvoWordleError, match="solver name"):
        make_solver(3, ctx, ANY)
    assert make_solver("naive", ctx, ANY, opener="crane").opener == ctx.words.index("crane")


def test_accepted_params_lists_keywords_or_none_for_any():
    class Kw(Solver):
        def __init__(self, ctx, settings, opener=None, depth=2):
            super().__init__(ctx, settings, opener)

    class Any_(Solver):
        def __init__(self, ctx, settings, **params):
            pass

    assert accepted_params(Kw) == {"opener", "depth"}
    assert accepted_params(Any_) is None


def test_build_solver_takes_names_objects_and_factories_and_refuses_misfits(ctx, mid):
    assert build_solver("naive", ctx, ANY).name == "naive"
    ready = Scripted(ctx, ANY)
    assert build_solver(ready, ctx, ANY) is ready
    with pytest.raises(EvoWordleError, match="cannot change a ready solver"):
        build_solver(ready, ctx, ANY, opener="crane")
    with pytest.raises(EvoWordleError, match="other settings"):
        build_solver(ready, ctx, ONLY)
    built = build_solver(Scripted, ctx, ANY, opener="crane")
    assert isinstance(built, Scripted) and built.opener == ctx.words.index("crane")
    with pytest.raises(EvoWordleError, match="returned int"):
        build_solver(lambda c, s, **p: 3, ctx, ANY)
    with pytest.raises(EvoWordleError, match="not int"):
        build_solver(5, ctx, ANY)


def test_a_solver_object_for_other_word_lists_is_refused(ctx):
    from tests.small_lists import IGHT, small_context

    small = small_context("rule-solvers", IGHT, slice(0, 20), slice(0, 400), 30)
    with pytest.raises(EvoWordleError, match="other word lists"):
        build_solver(Scripted(small, ANY), ctx, ANY)


def labelled(ctx, settings, **params):
    return Scripted(ctx, settings, **params)


def test_labels_and_identities(ctx):
    assert solver_label("greedy") == "greedy"
    obj = Scripted(ctx, ANY)
    assert solver_label(obj) == "Scripted"
    obj.label = "mine"
    assert solver_label(obj) == "mine"
    obj.label = ""
    assert solver_label(obj) == "Scripted"
    assert solver_label(labelled) == "labelled"
    assert solver_identity("greedy") == "greedy"
    a, b = solver_identity(Scripted(ctx, ANY)), solver_identity(Scripted(ctx, ANY, opener="crane"))
    assert a.startswith(f"object:{__name__}.Scripted#") and len(a.split("#")[1]) == 12 and a != b
    assert solver_identity(labelled) == f"factory:{__name__}.labelled"


def test_packing_keeps_names_and_round_trips_objects(ctx):
    assert pack_solver("greedy") == "greedy" and unpack_solver("greedy") == "greedy"
    packed = pack_solver(labelled)
    assert isinstance(packed, bytes) and unpack_solver(packed) is labelled
    with pytest.raises(EvoWordleError, match="cannot send solver"):
        pack_solver(lambda c, s: None)


class Default(ScoringSolver):
    """A scoring solver that keeps every class default (no near-tie rule unless it asks)."""

    def __init__(self, ctx, settings, table):
        super().__init__(ctx, settings)
        self.table = table

    def scores(self, guesses, state):
        out = np.zeros(len(guesses))
        for word, value in self.table.items():
            out[guesses == word] = value
        return out


def test_a_scoring_solver_has_no_near_tie_rule_unless_it_asks(ctx, mid):
    top, cand = outsider(ctx, mid, 5), int(mid.candidates[-1])
    assert ScoringSolver.prefer_candidates is False
    assert Default(ctx, ANY, {top: 3.0, cand: 3.0 - 5e-10}).pick(mid) == top


def test_two_candidates_are_scored_like_any_other_state(ctx):
    start = GameState.start(ctx, ANY)
    g = ctx.words.index("salet")
    codes, sizes = np.unique(ctx.table[g, start.candidates], return_counts=True)
    state = start.after(g, int(codes[np.flatnonzero(sizes == 2)[0]]))
    first, second = (int(c) for c in state.candidates)
    assert Scripted(ctx, ANY, table={second: 1.0}).pick(state) == second
    assert Scripted(ctx, ANY, table={first: 1.0}).pick(state) == first


def test_a_solver_used_before_any_reset_draws_from_seed_zero(ctx):
    a, b = Scripted(ctx, ANY).rng.random(3), np.random.default_rng(0).random(3)
    assert a.tolist() == b.tolist()


def test_an_unknown_parameter_is_named_first_alphabetically_and_a_bare_solver_takes_none(ctx, monkeypatch):
    with pytest.raises(EvoWordleError, match="no parameter 'alpha'"):
        make_solver("naive", ctx, ANY, zeta=1, alpha=2)
    monkeypatch.setattr(base, "SOLVERS", dict(SOLVERS))

    @register("rule-bare")
    class Bare(Solver):
        def __init__(self, ctx, settings):
            super().__init__(ctx, settings)

    with pytest.raises(EvoWordleError, match=r"no parameter 'depth' \(it takes: none\)"):
        make_solver("rule-bare", ctx, ANY, depth=1)


def test_an_identity_depends_on_what_describe_says_not_on_its_key_order(ctx):
    class Ordered(Scripted):
        def __init__(self, ctx, settings, order):
            super().__init__(ctx, settings)
            self.order = order

        def describe(self):
            items = {"solver": "x", "depth": 2, "width": 3}
            return {k: items[k] for k in self.order}

    one = solver_identity(Ordered(ctx, ANY, ["solver", "depth", "width"]))
    two = solver_identity(Ordered(ctx, ANY, ["width", "solver", "depth"]))
    assert one == two


# ---------------------------------------------------------------- the entropy solvers (entropy_solvers.py)


def _reference_bits(guess: str, answers: list[str]) -> float:
    """Shannon entropy (bits) of the feedback ``guess`` gets over equally likely ``answers``,
    from the plain colouring of tests/reference.py."""
    from collections import Counter

    from tests.reference import reference_pattern

    parts = Counter(reference_pattern(guess, a) for a in answers).values()
    n = len(answers)
    return -sum(k / n * np.log2(k / n) for k in parts)


def test_naive_scores_entropy_and_greedy_scores_priority_times_entropy(ctx, mid):
    """naive maximises H(X_w); greedy the product g(r_w)·H(X_w) (the thesis's baseline), so a
    word's greedy score scales with its priority and a word of no information scores 0."""
    answers = [ctx.words.allowed[int(c)] for c in mid.candidates]
    guesses = np.concatenate([mid.candidates[:3], np.setdiff1d(ctx.all_words, mid.candidates)[::1500]])
    bits = np.array([_reference_bits(ctx.words.allowed[int(g)], answers) for g in guesses])
    assert (bits == 0).any() and len(set(bits[bits > 0])) > 2  # words of no information among them
    naive, greedy = make_solver("naive", ctx, ANY), make_solver("greedy", ctx, ANY)
    np.testing.assert_allclose(naive.scores(guesses, mid), bits, rtol=1e-9, atol=1e-12)
    priority = ctx.priority[guesses]
    assert 0 < priority.min() < priority.max() < 1
    np.testing.assert_allclose(greedy.scores(guesses, mid), priority * bits, rtol=1e-9, atol=1e-12)


def test_a_family_that_leaves_no_parameter_unread_has_no_defaults_to_compare():
    """param_defaults is asked of the class (a parameter file's unread value is compared with
    it before any solver exists); a family whose parameters are all read has none."""
    from evo_wordle.solvers import SOLVERS, load_all
    from evo_wordle.solvers.base import Solver

    load_all()
    assert Solver.param_defaults() == {} and Solver.unread_params({"anything": 1}) == {}
    assert SOLVERS["greedy"].param_defaults() == {} and SOLVERS["greedy"].unread_params({"tournament_size": 3}) == {}
