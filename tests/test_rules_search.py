"""Rules of ``ga-search`` (evo_wordle/evolve/search.py), each checked against something written
out here: the finishing totals of the look-ahead (one and two answers by hand, exact parts
against the exact solver, larger parts finished by a most-informative guess, a split's total
and worst case), the decision GA's fitness and choice (the win-limit penalty, ties to a possible
answer, then the first word), its final population (the best words it evaluated), hard mode's
exhaustive decisions, the option checks, and the tree files' edge cases."""

from __future__ import annotations

import math
import re
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

from evo_wordle.bench import run_bench
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve import search as search_mod
from evo_wordle.evolve.exact import ExactSolver
from evo_wordle.evolve.search import (
    GASearchSolver,
    LookAhead,
    best_by_score,
    load_tree,
    rank_by_score,
    read_tree,
    tree_json,
    tree_made_for,
    tree_paths,
    write_tree,
)
from evo_wordle.evolve.strategy import explore_pool, history_key, weighted_entropies
from evo_wordle.game import GameState, Settings

from .small_lists import IGHT, small_context

ALLOWED = Settings(candidates="answers", guess_from="allowed")


@pytest.fixture(scope="module")
def small(cache_dir):
    return small_context("test-rules-search", IGHT, slice(400, 430), slice(None, None, 173), 70)


def parts_of(ctx, guess: int, cand) -> dict[int, list[int]]:
    """Feedback code → the answers of ``cand`` that give it (plain loop over the table)."""
    out: dict[int, list[int]] = {}
    for a in cand:
        out.setdefault(int(ctx.table[guess, a]), []).append(int(a))
    return out


def plain_entropy(ctx, guess: int, cand) -> float:
    n = len(cand)
    return -sum(c / n * math.log2(c / n) for c in Counter(int(ctx.table[guess, a]) for a in cand).values())


# ------------------------------------------------------------------------------ look-ahead totals


def test_one_answer_takes_one_guess_and_two_take_three(small):
    look = LookAhead(small, False, exact_limit=0)
    a, b = (int(w) for w in small.words.indices(["fight", "night"]))
    assert look.finish(np.array([a])) == (1, 1)
    assert look.finish(np.array([a, b])) == (3, 2)  # guess one: right, or the other one next
    assert look.total(np.array([a, b])) == 3


def test_parts_within_the_exact_limit_are_finished_by_the_exact_solver(small):
    rng = np.random.default_rng(3)
    ight = np.sort(small.words.indices(IGHT))
    for allowed in (False, True):
        look = LookAhead(small, allowed, exact_limit=6)
        exact = ExactSolver(small, small.all_words if allowed else None)
        for size in (3, 4, 5, 6):
            cand = np.sort(rng.choice(ight, size, replace=False))
            assert look.finish(cand) == (exact.cost(cand), exact.depth(cand)), (allowed, size)


def test_a_split_costs_its_answers_plus_each_part_finished_and_one_more_guess_deep(small):
    """split(g, C) = (|C| + Σ T(part), 1 + the deepest part) over the parts other than 'solved';
    a guess that solves every answer is one guess deep."""
    look = LookAhead(small, False, exact_limit=4)
    cand = np.sort(small.words.indices(IGHT))
    for guess in range(len(small.words)):
        total, depth = len(cand), 1
        for code, part in parts_of(small, guess, cand).items():
            if code != small.words.solved:
                t, d = look.finish(np.array(part))
                total, depth = total + t, max(depth, d + 1)
        assert look.split(guess, cand) == (total, depth), guess
        assert look.split_total(guess, cand) == total
    solo = cand[:1]
    assert look.split(int(solo[0]), solo) == (1, 1)
    other = int(cand[1])
    assert look.split(other, solo) == (2, 2)  # a wrong guess, then the answer


@pytest.mark.parametrize("allowed, exact_limit", [(False, 0), (False, 4), (True, 2)])
def test_larger_parts_are_finished_by_a_most_informative_guess(small, allowed, exact_limit):
    """Above the exact limit the finishing policy guesses a word of greatest feedback entropy
    (among the candidates, or the rollout pool when any allowed word may be guessed) and
    finishes each part the same way: T(C) is split(g, C) for such a g."""
    look = LookAhead(small, allowed, exact_limit=exact_limit)
    answers = small.words.answer_index
    sets = [np.sort(small.words.indices(IGHT)), answers, answers[::2], answers[1::3]]
    for cand in sets:
        pool = look.rollout_guesses(cand)
        ent = np.array([plain_entropy(small, int(g), cand) for g in pool])
        best = [int(g) for g, e in zip(pool, ent) if e >= ent.max() - 1e-9]
        top = [g for g in best if g in set(cand.tolist())] or best  # ties: a word that may be the answer
        got = look.finish(cand)
        assert got in {look.split(g, cand) for g in top}
        assert got[0] < look.split(int(pool[np.argmin(ent)]), cand)[0] or ent.min() >= ent.max() - 1e-9
        assert look.memo[cand.tobytes()] == got


def test_a_rollout_tie_goes_to_a_word_that_may_be_the_answer(small):
    """BIGHT, CLASP, CLASS: CLASP and the outside word BASSO both split the three apart (equal
    entropy): the finishing policy guesses CLASP, which may win at once: 3 + 1 + 1 = 5 guesses, not 6."""
    cand = np.sort(small.words.indices(["bight", "clasp", "class"]))
    look = LookAhead(small, True, exact_limit=0)
    basso, clasp = small.words.index("basso"), small.words.index("clasp")
    assert basso in look.rollout_guesses(cand).tolist()
    assert plain_entropy(small, basso, cand) == plain_entropy(small, clasp, cand) == math.log2(3)
    assert look.finish(cand) == (5, 2)


def test_entropy_ties_are_decided_by_the_stated_rule_not_by_float_summation(ctx):
    """Two outside words that split 40 answers into parts of the same sizes have equal entropy
    in exact arithmetic, but their float sums (parts added in feedback-code order) differ in the
    last bits: the larger float used to win; the rule takes the lower word index."""
    cand = ctx.words.answer_index[:40]
    bits = weighted_entropies(ctx, None, cand, np.full(len(cand), 1 / len(cand)))
    rows = np.asarray(ctx.table[:, cand])
    outside = np.setdiff1d(np.arange(len(ctx.words)), cand)
    sizes = {}
    for g in outside.tolist():
        sizes.setdefault(tuple(sorted(np.bincount(rows[g]).tolist())), []).append(g)
    a, b = next((x, y) for same in sizes.values() for x in same for y in same if x < y and bits[x] < bits[y])
    assert sorted(Counter(rows[a].tolist()).values()) == sorted(Counter(rows[b].tolist()).values())
    assert 0 < bits[b] - bits[a] < 1e-12
    pair = np.array([a, b])
    assert best_by_score(pair, bits[pair], cand) == a
    assert int(pair[np.argmax(bits[pair] + 1e-9 * np.isin(pair, cand))]) == b  # the old rule: float order
    # a word that may be the answer still comes first among ties, and a clear winner stays one
    assert best_by_score(pair, bits[pair], np.array([b])) == b
    assert best_by_score(pair, bits[pair] + np.array([0.0, 2e-9]), cand) == b


def test_entropy_ranking_groups_ties_within_1e_9_of_the_best_then_candidates_then_index():
    guesses = np.array([3, 5, 8, 9, 12])
    bits = np.array([2.0 - 4e-10, 2.0, 2.0 - 3e-9, 1.0, 2.0 - 3e-9 + 5e-10])
    # 3 ties with 5 (lower index first); 8 and 12 tie with each other, below them; then 9
    assert rank_by_score(guesses, bits, np.array([], dtype=np.int64), 5).tolist() == [0, 1, 2, 4, 3]
    assert rank_by_score(guesses, bits, np.array([5, 12]), 5).tolist() == [1, 0, 4, 2, 3]
    assert rank_by_score(guesses, bits, np.array([9]), 3).tolist() == [0, 1, 2]  # k words, not k groups
    assert rank_by_score(guesses, bits, np.array([9]), 9).tolist() == [0, 1, 2, 4, 3]


def _crafted_entropies(target: np.ndarray, offsets: dict[int, float]):
    """weighted_entropies for a monkeypatch: for the candidates ``target``, each word of
    ``offsets`` scores 1 bit above every real entropy plus its offset; elsewhere the real ones."""
    def fake(ctx, guesses, cand, weights):
        out = weighted_entropies(ctx, guesses, cand, weights)
        if np.array_equal(cand, target):
            words = np.arange(len(ctx.words)) if guesses is None else np.asarray(guesses)
            top = out.max() + 1.0
            for i, w in enumerate(words.tolist()):
                if w in offsets:
                    out[i] = top + offsets[w]
        return out
    return fake


def test_the_rollout_and_the_decision_ga_break_entropy_ties_by_the_rule(small, monkeypatch):
    """Near-equal entropies (within 1e-9): the rollout's guess and the decision GA's seeds follow
    the rule (a possible answer, then the lower index), not the larger float."""
    cand = small.words.answer_index
    look = LookAhead(small, True, exact_limit=0)
    pool = look.rollout_guesses(cand)
    real = weighted_entropies(small, pool, cand, np.full(len(cand), 1 / len(cand)))
    x, y = sorted(int(g) for g in pool[np.argsort(-real, kind="stable")] if g not in set(cand.tolist()))[:2]
    assert min(plain_entropy(small, x, cand), plain_entropy(small, y, cand)) > 0  # both split the answers
    monkeypatch.setattr(search_mod, "weighted_entropies", _crafted_entropies(cand, {x: -5e-10, y: 0.0}))
    played = []
    split = look.split
    monkeypatch.setattr(look, "split", lambda g, c: played.append(g) or split(g, c))
    look.finish(cand)
    assert played[0] == x  # the old rule played y, the larger float
    c = int(cand[-1])
    assert c > y
    monkeypatch.setattr(search_mod, "weighted_entropies",
                        _crafted_entropies(cand, {x: -5e-10, y: 0.0, c: -8e-10}))
    ga = GASearchSolver(small, ALLOWED, opener="tight", population=3, generations=0)
    seeds = ga.evolve(GameState.start(small, ALLOWED))["seeds"]
    assert np.asarray(seeds).tolist() == [c, x, y]  # the old rule: [c, y, x]


def test_three_candidates_are_searched_not_answered_with_the_first(small):
    """Two candidates are played in order; three are searched: BIGHT does not tell CLASP from
    CLASS, CLASP tells all three apart."""
    solver = GASearchSolver(small, ALLOWED, opener="tight")
    cand = np.sort(small.words.indices(["bight", "clasp", "class"]))
    state = SimpleNamespace(candidates=cand, hard=False, key=lambda: cand.tobytes())
    choice = solver.pick(state)
    assert choice != int(cand[0]) and LookAhead(small, True).split(choice, cand) == (5, 2)


def test_rollout_guesses_are_the_candidates_unless_any_word_may_be_guessed(small):
    cand = np.sort(small.words.indices(IGHT))
    assert LookAhead(small, False).rollout_guesses(cand).tolist() == cand.tolist()
    assert LookAhead(small, True, pool=0).rollout_guesses(cand).tolist() == cand.tolist()
    pool = LookAhead(small, True, pool=12).rollout_guesses(cand)
    assert set(cand.tolist()) <= set(pool.tolist()) and len(pool) > len(cand)
    # the explore pool of the uniform weights: every candidate as likely as any other
    assert pool.tolist() == explore_pool(small, cand, np.full(len(cand), 1 / len(cand)), 12).tolist()


# ------------------------------------------------------------------------------ the decision GA


def test_fitness_is_the_look_ahead_total_plus_a_thousand_per_guess_past_the_win_limit(small):
    """Each word the decision GA weighs costs split total + 1000 × the guesses its worst case
    needs beyond the win limit (6 here) from this turn on; the choice has the least cost, ties
    to a word that may be the answer, then to the first word."""
    state = GameState.start(small, ALLOWED)
    tight = small.words.index("tight")
    any_word = LookAhead(small, True, exact_limit=6)
    for turn_state in (state, state.after(tight, int(small.table[tight, small.words.index("eight")]))):
        if len(turn_state.candidates) <= 6:
            continue
        for turns in (0, 3, 4):  # push the state later in the game: the limit tightens
            late = SimpleNamespace(**{k: getattr(turn_state, k) for k in ("candidates", "hard", "key")},
                                   turn=turn_state.turn + turns, guessable=turn_state.guessable)
            solver = GASearchSolver(small, ALLOWED, opener="tight", population=6, generations=2)
            ga = solver.evolve(late)
            limit = 6 - late.turn
            assert ga["fitness"]
            penalised = 0
            for w, fit in ga["fitness"].items():
                total, depth = any_word.split(w, late.candidates)  # any allowed word finishes a part
                assert fit == total + 1000 * max(0, depth - limit), (w, turns)
                penalised += depth > limit
            cand = set(late.candidates.tolist())
            want = min(ga["fitness"], key=lambda w: (ga["fitness"][w], w not in cand, w))
            assert ga["choice"] == want
            if turns == 4:
                assert penalised  # the limit of 2 guesses left is below some words' worst case
            assert solver.evaluations == len(ga["fitness"])


def test_the_population_is_the_best_words_evaluated_and_the_seeds_the_most_informative(small):
    state = GameState.start(small, ALLOWED)
    for population, generations in ((5, 0), (5, 3), (8, 2)):
        ga = GASearchSolver(small, ALLOWED, opener="tight", population=population,
                            generations=generations).evolve(state)
        fit = ga["fitness"]
        ranked = sorted(fit, key=lambda w: (fit[w], w))
        seeds = np.asarray(ga["seeds"]).tolist()
        # after a generation: the best words weighed, ties to the first; before one: the seeds
        assert np.asarray(ga["population"]).tolist() == (ranked[:population] if generations else seeds)
        cand = state.candidates
        ent = {g: plain_entropy(small, g, cand) for g in range(len(small.words))}
        assert len(seeds) == population
        worst_seed = min(ent[s] for s in seeds)
        assert all(ent[g] <= worst_seed + 1e-9 for g in range(len(small.words)) if g not in seeds)
        if generations:
            assert len(fit) > population  # the generations weighed new words


def test_with_few_legal_words_every_one_is_weighed_and_seeds_are_all_of_them(small):
    state = GameState.start(small, ALLOWED)
    legal = state.guessable("allowed")
    ga = GASearchSolver(small, ALLOWED, opener="tight", population=len(legal) + 5, generations=1).evolve(state)
    assert sorted(ga["fitness"]) == legal.tolist() and len(ga["seeds"]) == len(legal)
    assert np.asarray(ga["population"]).tolist() == np.asarray(ga["seeds"]).tolist()  # nothing left to breed


def test_guessing_only_candidates_weighs_only_candidates(small):
    """--guess-from candidates: the legal words are the candidates, the seeds the most informative of them."""
    only = Settings(candidates="answers", guess_from="candidates")
    state = GameState.start(small, only)
    cand = state.candidates
    ga = GASearchSolver(small, only, opener="tight", population=6, generations=2).evolve(state)
    assert set(ga["fitness"]) <= set(cand.tolist())
    ent = {g: plain_entropy(small, g, cand) for g in cand.tolist()}
    seeds = np.asarray(ga["seeds"]).tolist()
    assert len(seeds) == 6 and min(ent[s] for s in seeds) >= max(ent[g] for g in ent if g not in seeds) - 1e-9


def test_hard_mode_weighs_every_legal_word_up_to_the_exhaustive_limit(small, monkeypatch):
    """Hard mode with at most HARD_EXHAUSTIVE legal words tries each of them; with more, the 4 ×
    population most informative ones."""
    hard = Settings(candidates="answers", guess_from="allowed", hard=True)
    state = GameState.start(small, hard)
    legal = state.guessable("allowed")
    solver = GASearchSolver(small, hard, opener="tight", population=3)
    only_candidates = LookAhead(small, False, exact_limit=6)  # hard mode's parts are finished from candidates

    def best_by_hand(words, left=6):
        cand = set(state.candidates.tolist())
        keys = {}
        for w in words:
            total, depth = only_candidates.split(w, state.candidates)
            keys[w] = (total + 1000 * max(0, depth - left), w not in cand, w)
        return min(keys, key=keys.get)

    monkeypatch.setattr(search_mod, "HARD_EXHAUSTIVE", len(legal))
    ga = solver.evolve(state)
    assert np.asarray(ga["population"]).tolist() == legal.tolist() == np.asarray(ga["seeds"]).tolist()
    assert ga["choice"] == best_by_hand(legal.tolist()) and solver.evaluations == len(legal)
    monkeypatch.setattr(search_mod, "HARD_EXHAUSTIVE", len(legal) - 1)
    ga = solver.evolve(state)
    ent = {g: plain_entropy(small, g, state.candidates) for g in legal.tolist()}
    tried = np.asarray(ga["population"]).tolist()
    assert len(tried) == 12 and ga["choice"] == best_by_hand(tried)
    assert min(ent[g] for g in tried) >= max(ent[g] for g in legal.tolist() if g not in tried) - 1e-9
    # later in the game the win limit is nearer: the penalty counts the guesses left from this turn
    choices = set()
    for exhaustive in (len(legal), len(legal) - 1):
        monkeypatch.setattr(search_mod, "HARD_EXHAUSTIVE", exhaustive)
        for turn in range(0, 6):
            late = SimpleNamespace(candidates=state.candidates, hard=True, key=state.key, turn=turn,
                                   guessable=state.guessable)
            ga = solver.evolve(late)
            words = np.asarray(ga["population"]).tolist()
            assert ga["choice"] == best_by_hand(words, 6 - turn), (exhaustive, turn)
            choices.add(ga["choice"])
    assert len(choices) > 1  # the limit changes the choice


def test_hard_mode_with_few_candidates_still_weighs_every_legal_word(small):
    """The exact shortcut (at most exact_limit candidates) is for normal mode: in hard mode the
    decision weighs every legal word, which may be a word that cannot be the answer."""
    hard = Settings(candidates="answers", guess_from="allowed", hard=True)
    only_candidates = LookAhead(small, False, exact_limit=6)
    start = GameState.start(small, hard)
    light = small.words.index("light")
    seen = 0
    for code, part in sorted(parts_of(small, light, start.candidates).items()):
        if not 2 < len(part) <= 6:
            continue
        state = start.after(light, code)
        legal = state.guessable("allowed")
        cand = set(state.candidates.tolist())
        keys = {}
        for w in legal.tolist():
            total, depth = only_candidates.split(w, state.candidates)
            keys[w] = (total + 1000 * max(0, depth - 5), w not in cand, w)
        want = min(keys, key=keys.get)
        assert GASearchSolver(small, hard, opener="light").search(state) == want
        seen += 1
    assert seen


@pytest.mark.parametrize("words, exhaustive", [(400, True), (401, False)])
def test_hard_mode_tries_every_word_of_a_400_word_dictionary_and_not_of_401(cache_dir, words, exhaustive):
    """docs/evolve.md: in hard mode a decision with at most 400 legal words tries them all.  At the
    start of a hard game every word is legal: a 400-word dictionary is tried whole, a 401-word one
    by its 4 × population most informative words."""
    from evo_wordle import Context
    from evo_wordle.words import WordSet, load_words

    bundled = load_words()
    answers = tuple(sorted(set(IGHT) | set(bundled.answers[:40])))
    others = [w for w in bundled.allowed[::23] if w not in answers][: words - len(answers)]
    allowed = tuple(sorted(set(answers) | set(others)))
    assert len(allowed) == words
    ctx = Context(words=WordSet(allowed, answers, label=f"test-rules-search-{words}"))
    hard = Settings(candidates="answers", guess_from="allowed", hard=True)
    ga = GASearchSolver(ctx, hard, opener=None, population=4, exact_limit=2).evolve(GameState.start(ctx, hard))
    assert len(ga["population"]) == (words if exhaustive else 16)


def test_small_states_are_decided_exactly_or_by_the_first_of_two(small):
    solver = GASearchSolver(small, ALLOWED, opener="tight", exact_limit=6)
    state = GameState.start(small, ALLOWED)
    tight = small.words.index("tight")
    sizes = {code: len(part) for code, part in parts_of(small, tight, state.candidates).items()}
    code = next(c for c, n in sorted(sizes.items()) if 2 < n <= 6)
    after = state.after(tight, code)
    cand = after.candidates
    assert 2 < len(cand) <= 6
    assert solver.search(after) == ExactSolver(small, small.all_words).best(cand)[1]
    two = SimpleNamespace(candidates=cand[:2])
    assert solver.pick(two) == int(cand[0])


def test_a_decision_is_memoised_on_its_state(small):
    solver = GASearchSolver(small, ALLOWED, opener="tight", population=4, generations=1)
    state = GameState.start(small, ALLOWED)
    first = solver.pick(state)
    spent = solver.evaluations
    assert spent and solver.pick(state) == first and solver.evaluations == spent


@pytest.mark.parametrize("argv, ok", [
    ({"search_population": 1, "search_generations": 0, "exact_limit": 0}, True),
    ({"search_population": 0}, False), ({"search_generations": -1}, False), ({"exact_limit": -1}, False)])
def test_options_accept_their_bounds_and_refuse_beyond(argv, ok):
    args = SimpleNamespace(**argv)
    if ok:
        assert GASearchSolver.options_from_args(args) == {"population": 1, "generations": 0, "exact_limit": 0}
    else:
        with pytest.raises(EvoWordleError, match="--search-population must be ≥ 1"):
            GASearchSolver.options_from_args(args)


# ------------------------------------------------------------------------------ tree files


def test_a_tree_replays_its_moves_without_searching_and_opens_with_its_root(small, tmp_path):
    answers = small.words.answer_index
    built = run_bench(small, "ga-search", ALLOWED, answers, 0, {"opener": "light", "population": 6})
    path = tmp_path / "t.txt"
    write_tree(small, path, tree_paths(built.records), ALLOWED)
    solver = GASearchSolver(small, ALLOWED, tree=path)
    light = small.words.index("light")
    assert solver.opener == light and solver.describe()["tree"] == str(path)
    replay = run_bench(small, solver, ALLOWED, answers, 0)
    assert [r.guesses for r in replay.records] == [r.guesses for r in built.records]
    assert solver.evaluations == 0  # every move came from the tree
    assert GASearchSolver(small, ALLOWED, tree=path, opener="light").opener == light
    with pytest.raises(EvoWordleError, match="opens with LIGHT; --opener tight cannot apply"):
        GASearchSolver(small, ALLOWED, tree=path, opener="tight")
    # a state the tree does not hold is searched afresh
    one = tmp_path / "one.txt"
    first = int(answers[0])
    write_tree(small, one, {first: built.records[0].guesses}, ALLOWED)
    partial = GASearchSolver(small, ALLOWED, tree=one, population=4)
    code = next(c for c, part in parts_of(small, light, answers).items()
                if len(part) > 6 and c != int(small.table[light, first]))
    state = GameState.start(small, ALLOWED).after(light, code)
    assert partial.choose(state) == GASearchSolver(small, ALLOWED, population=4).pick(state)
    assert partial.evaluations > 0


def test_the_default_opener_is_salet_when_the_list_has_it_and_a_given_one_is_kept(ctx, small):
    assert GASearchSolver(ctx, ALLOWED).opener == ctx.words.index("salet")
    assert GASearchSolver(ctx, ALLOWED, opener="crane").opener == ctx.words.index("crane")
    assert GASearchSolver(small, ALLOWED).opener is None  # no SALET: the first guess is searched too
    assert GASearchSolver(small, ALLOWED, opener="tight").opener == small.words.index("tight")


def test_a_tree_file_skips_blank_and_comment_lines_and_keys_every_step(small, tmp_path):
    w = small.words
    path = tmp_path / "t.txt"
    tight, eight = w.index("tight"), w.index("eight")
    other = next(a for a in w.answer_index.tolist() if small.table[tight, a] != small.table[tight, eight])
    path.write_text(f"\n# a comment\n   \neight: tight eight\n{w.allowed[other]}: tight {w.allowed[other]}\n")
    tree, paths = read_tree(small, path)
    assert paths == {eight: [tight, eight], other: [tight, other]}
    key = history_key(small, [(tight, int(small.table[tight, eight]))])
    key2 = history_key(small, [(tight, int(small.table[tight, other]))])
    assert tree == {"": tight, key: eight, key2: other}
    assert tree_json(small, paths) == {"": "tight", key: "eight", key2: w.allowed[other]}
    assert tree_made_for(path) is None


def test_tree_limits_are_inclusive(small, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("eight:\n")
    with pytest.raises(EvoWordleError, match="line 1: the path does not end with the answer"):
        read_tree(small, path)
    path.write_text("eight: " + "tight " * 23 + "eight\n")  # 24 guesses: the most allowed
    assert read_tree(small, path)[1][small.words.index("eight")][-1] == small.words.index("eight")
    path.write_text("eight: " + "tight " * 24 + "eight\n")
    with pytest.raises(EvoWordleError, match="more than 24 guesses"):
        read_tree(small, path)
    line = "eight: tight eight"
    path.write_text(line + " " * (1000 - len(line)) + "\n")  # 1000 characters: allowed
    assert load_tree(small, path)[""] == small.words.index("tight")
    path.write_text(line + " " * (1001 - len(line)) + "\n")
    with pytest.raises(EvoWordleError, match="longer than 1000"):
        load_tree(small, path)


def test_a_tree_file_of_4_mib_is_read_and_one_byte_more_is_refused(small, tmp_path):
    path = tmp_path / "t.txt"
    head = "eight: eight\n"
    pad = 4 * 2**20 - len(head)
    lines = ["#" + "x" * 998 + "\n"] * (pad // 1000)
    rest = pad - 1000 * len(lines)
    path.write_text(head + "".join(lines) + ("#" + "x" * (rest - 2) + "\n" if rest else ""))
    assert path.stat().st_size == 4 * 2**20
    assert load_tree(small, path)[""] == small.words.index("eight")
    with open(path, "a") as f:
        f.write("\n")
    with pytest.raises(EvoWordleError, match="tree file"):
        load_tree(small, path)


def test_an_illegal_first_move_is_named_after_the_start(small, tmp_path):
    path = tmp_path / "t.txt"
    outside = next(wd for wd in small.words.allowed if wd not in set(small.words.answers))
    path.write_text(f"eight: {outside} eight\n")
    with pytest.raises(EvoWordleError, match="is illegal in this game: .* after the start$"):
        load_tree(small, path, Settings(candidates="answers", guess_from="candidates"))


def test_a_tree_whose_answer_cannot_be_the_answer_is_refused(small, tmp_path):
    path = tmp_path / "t.txt"
    outside = next(wd for wd in small.words.allowed if wd not in set(small.words.answers))
    path.write_text(f"{outside}: {outside}\n")
    assert load_tree(small, path)  # without settings no game to check against
    with pytest.raises(EvoWordleError, match="cannot be the answer with --candidates answers"):
        load_tree(small, path, ALLOWED)
    assert load_tree(small, path, Settings(candidates="allowed", guess_from="allowed"))


def test_a_strategy_file_or_a_bad_header_given_as_a_tree_is_one_line(small, tmp_path):
    path = tmp_path / "t.json"
    path.write_text('  {"tree": {}}\n')
    with pytest.raises(EvoWordleError, match="is JSON, not a tree file"):
        load_tree(small, path)
    path.write_text("# made_for: {not json\neight: eight\n")
    with pytest.raises(EvoWordleError, match=f"^the made_for header of tree file {path} is not valid JSON"):
        tree_made_for(path)


@pytest.mark.parametrize("header, message", [
    ("[" * 100_000 + "]" * 100_000, "is nested too deeply"),  # was an internal error (RecursionError)
    ('{"hard": false, "hard": true}', "gives the key 'hard' twice"),  # the last copy was played
    ('{"answers": "\\u001b[2Jnyt"}', "holds a control character"),  # printed when the lists differ
])
def test_a_hostile_tree_header_is_one_line(small, tmp_path, header, message):
    path = tmp_path / "t.tree"
    path.write_text(f"# made_for: {header}\neight: eight\n")
    with pytest.raises(EvoWordleError, match=f"^the made_for header of tree file {path} {message}"):
        tree_made_for(path)
    with pytest.raises(EvoWordleError, match=message):
        load_tree(small, path)


# ------------------------------------------------------------------------------ breeding, boards


def test_parents_are_tournament_winners_and_half_the_children_mutants(small, monkeypatch):
    """breed: both parents of a recombinant and the parent of a mutant win tournaments (lower
    fitness is better: they are fitter than the population on average); the first half of the
    children are recombinants, the second half mutants."""
    from evo_wordle.ga import operators

    seen = {"pairs": [], "mutated": []}
    real_recombine, real_mutate = operators.recombine_children, operators.mutate_words

    def recombine(ctx, a, b, *args):
        seen["pairs"].append((a.copy(), b.copy()))
        return real_recombine(ctx, a, b, *args)

    def mutate(words, *args):
        seen["mutated"].append(words.copy())
        return real_mutate(words, *args)

    monkeypatch.setattr(operators, "recombine_children", recombine)
    monkeypatch.setattr(operators, "mutate_words", mutate)
    seeds = np.arange(0, len(small.words), 5)[:10]
    fitness: dict[int, int] = {}

    def evaluate(words):
        for w in np.unique(words).tolist():
            fitness.setdefault(w, w)  # the word's index: lower is fitter

    evaluate(seeds)
    mask = np.ones(len(small.words), dtype=bool)
    search_mod.breed(small, seeds, mask, 3, np.random.default_rng(5), fitness, evaluate)
    pops, mean_parent = [], []
    pop = seeds
    for (a, b), mutated in zip(seen["pairs"], seen["mutated"]):
        assert len(a) == len(b) == len(pop) and len(mutated) == len(pop) - len(pop) // 2
        assert set(a.tolist()) | set(b.tolist()) | set(mutated.tolist()) <= set(pop.tolist())
        pops.append(np.mean([fitness[w] for w in pop.tolist()]))
        mean_parent.append(np.mean([fitness[w] for w in np.concatenate([a, b, mutated]).tolist()]))
        union = sorted(fitness)
        pop = np.array(sorted(union, key=lambda w: (fitness[w], w))[: len(seeds)])
    assert len(seen["pairs"]) == 3
    assert np.mean(mean_parent) < np.mean(pops)


def test_board_search_seeds_are_the_policys_best_scored_words(small):
    """population = 1, no generations: besides the policy's guess and the boards' words only the
    best-scored word is weighed, so a search whose scores put the least-fitness word first finds it."""
    from evo_wordle.evolve.search import BoardSearch

    boards = [np.sort(small.words.indices(["fight", "light", "might", "night"])),
              np.sort(small.words.indices(["eight", "right", "sight"]))]
    search = BoardSearch(small, True, population=1, generations=0)
    fit = np.array([search.fitness(g, boards) for g in range(len(small.words))])
    possible = set(np.concatenate(boards).tolist())
    outside = [g for g in np.argsort(fit, kind="stable").tolist() if g not in possible]
    best, worst = outside[0], outside[-1]
    assert fit[best] < min(fit[list(possible)])
    scores = np.zeros(len(small.words))
    scores[best] = 1.0
    assert search.choose(boards, lambda: scores, worst, False) == best


def test_board_search_keeps_the_policys_guess_within_1e_9(small, monkeypatch):
    """Ties keep the policy's own guess: a word whose summed fitness is below it by at most 1e-9
    (a float sum of equal fractions in another order) does not replace it; one clearly below does."""
    from evo_wordle.evolve.search import BoardSearch

    boards = [np.sort(small.words.indices(["fight", "light"]))]
    fight, light = (int(w) for w in boards[0])
    for base_fit, other_fit, want in ((0.1 + 0.2, 0.3, "base"), (1.0, 1.0 - 1e-9, "base"), (1.0, 0.99, "other")):
        search = BoardSearch(small, True, population=1, generations=0)
        monkeypatch.setattr(search, "fitness", lambda g, b, bf=base_fit, of=other_fit: bf if g == light else of)
        got = search.choose(boards, lambda: np.zeros(len(small.words)), light, True)
        assert got == (light if want == "base" else fight), (base_fit, other_fit)


def test_board_search_ties_follow_the_rule_not_the_float_order(small, monkeypatch):
    """Among words tied within 1e-9 (other than the policy's own), the board search picks by the
    module's rule, the lower index, where the smaller float won; its seeds too: population 1
    seeds the lower-indexed of two near-equally scored words, not the larger float."""
    from evo_wordle.evolve.search import BoardSearch

    boards = [np.sort(small.words.indices(["fight", "light", "might"]))]
    fight, light, might = (int(w) for w in boards[0])
    search = BoardSearch(small, True, population=1, generations=0)
    fits = {fight: 1.0 + 4e-10, light: 1.0, might: 2.0}
    monkeypatch.setattr(search, "fitness", lambda g, b: fits[g])
    assert search.choose(boards, lambda: np.zeros(len(small.words)), might, True) == fight  # was light
    outside = [g for g in range(len(small.words)) if g not in (fight, light, might)]
    q, p = outside[0], outside[1]
    scores = np.zeros(len(small.words))
    scores[[q, p]] = [1.0 - 5e-10, 1.0]
    search = BoardSearch(small, True, population=1, generations=0)
    monkeypatch.setattr(search, "fitness", lambda g, b: {q: 0.5, p: 0.7}.get(g, 1.0))
    assert search.choose(boards, lambda: scores, might, False) == q  # the old seed was p


@pytest.mark.parametrize("exhaustive", [True, False])
def test_a_lower_total_within_the_limit_beats_a_shallower_tree(small, monkeypatch, exhaustive):
    """Hard mode after AWNED (all grey), 15 candidates, 5 guesses left: CLIMB finishes them in 39
    guesses with games of at most 5, BOWRS in 41 with at most 4.  Depth costs only beyond the win
    limit, so CLIMB is played; each turn's choice is the least (total + 1000 × guesses past the
    limit) among the words weighed."""
    hard = Settings(candidates="answers", guess_from="allowed", hard=True)
    awned = small.words.index("awned")
    state = GameState.start(small, hard).after(awned, 0)
    look = LookAhead(small, False, exact_limit=6)
    climb, bowrs = small.words.index("climb"), small.words.index("bowrs")
    assert len(state.candidates) == 15 and state.turn == 1
    assert look.split(climb, state.candidates) == (39, 5) and look.split(bowrs, state.candidates) == (41, 4)
    legal = state.guessable("allowed")
    if not exhaustive:
        monkeypatch.setattr(search_mod, "HARD_EXHAUSTIVE", len(legal) - 1)
    solver = GASearchSolver(small, hard, opener="awned", population=30)  # 4 × 30 ≥ every legal word
    assert solver.evolve(state)["choice"] == climb
    cand = set(state.candidates.tolist())
    for turn in range(1, 6):
        late = SimpleNamespace(candidates=state.candidates, hard=True, key=state.key, turn=turn,
                               guessable=state.guessable)

        def key(w, left=6 - turn):
            total, depth = look.split(w, state.candidates)
            return (total + 1000 * max(0, depth - left), w not in cand, w)

        assert solver.evolve(late)["choice"] == min(legal.tolist(), key=key), turn


def test_the_help_states_the_solvers_defaults(small):
    import argparse
    import re

    parser = argparse.ArgumentParser()
    GASearchSolver.add_options(parser)
    helps = {a.dest: a.help for a in parser._actions}
    said = {key: int(re.search(r"default: (\d+)", helps[dest]).group(1))
            for dest, key in (("search_population", "population"), ("search_generations", "generations"),
                              ("exact_limit", "exact_limit"))}
    described = GASearchSolver(small, ALLOWED).describe()
    assert said == {key: described[key] for key in said} == {"population": 16, "generations": 4, "exact_limit": 6}


def test_a_state_of_exact_limit_candidates_is_decided_by_the_exact_solver(small):
    """After AAHED (feedback 81) six candidates remain, as many as exact_limit: the exact solver
    decides (BOWRS, a tree of 12 guesses at most 2 deep), not the GA, which ties CLASP on the total
    and prefers a word that may be the answer."""
    aahed = small.words.index("aahed")
    state = GameState.start(small, ALLOWED).after(aahed, 81)
    cand = state.candidates
    assert [small.words.allowed[i] for i in cand] == ["clasp", "class", "cloak", "coast", "cobra", "cocoa"]
    solver = GASearchSolver(small, ALLOWED, opener="aahed", exact_limit=6)
    bowrs, clasp = small.words.index("bowrs"), small.words.index("clasp")
    assert solver.search(state) == ExactSolver(small, small.all_words).best(cand)[1] == bowrs
    assert solver.evolve(state)["choice"] == clasp  # what the GA alone would play
    assert LookAhead(small, True).split(bowrs, cand) == (12, 2) and LookAhead(small, True).split(clasp, cand) == (12, 3)


#: Sets whose finish tells the look-ahead's limits apart (all words may be guessed): six answers
#: the exact solver finishes in 12 guesses at most 3 deep and a rollout in 12 at most 2 deep; seven
#: -IGHT words the exact solver finishes in 18 guesses and a rollout in 19.
SIX = "bight cling clone clout colon fight"
SEVEN = "bight light might night right sight tight"


def test_a_part_of_exactly_exact_limit_answers_is_finished_exactly_and_one_more_by_a_rollout(small):
    six, seven = (np.sort(small.words.indices(words.split())) for words in (SIX, SEVEN))
    exact = ExactSolver(small, small.all_words)
    for cand in (six, seven):
        k = len(cand)
        want = (exact.cost(cand), exact.depth(cand))
        assert LookAhead(small, True, exact_limit=k).finish(cand) == want
        assert LookAhead(small, True, exact_limit=k - 1).finish(cand) != want  # the set tells them apart


def test_the_look_ahead_defaults_are_exact_up_to_six_answers_and_a_60_word_rollout(small):
    """LookAhead, BoardSearch and ga-search finish parts of up to 6 answers exactly (docs: "default:
    6") and roll larger ones out over a pool of 60 words."""
    from evo_wordle.evolve.search import BoardSearch

    six, seven = (np.sort(small.words.indices(words.split())) for words in (SIX, SEVEN))
    stated = LookAhead(small, True, exact_limit=6, pool=60)
    for look in (LookAhead(small, True), BoardSearch(small, True, population=1, generations=0).look,
                 GASearchSolver(small, ALLOWED).look):
        for cand in (six, seven):
            assert look.finish(cand) == stated.finish(cand)
        assert np.array_equal(look.rollout_guesses(seven), stated.rollout_guesses(seven))
    uniform = np.full(len(seven), 1 / len(seven))
    assert np.array_equal(stated.rollout_guesses(seven), explore_pool(small, seven, uniform, 60))
    for pool in (59, 61):  # the set tells the pools apart
        other = LookAhead(small, True, pool=pool).rollout_guesses(seven)
        assert not np.array_equal(other, stated.rollout_guesses(seven))
    assert LookAhead(small, True, exact_limit=5).finish(six) != stated.finish(six)
    assert LookAhead(small, True, exact_limit=7).finish(seven) != stated.finish(seven)


def test_the_decision_gas_default_seed_is_0(small):
    """The published ga-search figures were made with seed 0: a solver built without a seed
    evaluates the same words and keeps the same population as one given seed 0 (seed 1 does not)."""
    state = GameState.start(small, ALLOWED)

    def run(**seed):
        ga = GASearchSolver(small, ALLOWED, opener="tight", population=8, generations=2, **seed).evolve(state)
        return sorted(ga["fitness"]), np.asarray(ga["population"]).tolist()

    default = run()
    assert default == run(seed=0) and default != run(seed=1)


def test_the_board_searchs_default_seed_is_0(small, monkeypatch):
    from evo_wordle.evolve.search import BoardSearch

    boards = [np.sort(small.words.indices(["fight", "light", "might", "night"])),
              np.sort(small.words.indices(["eight", "right", "sight", "tight", "wight"]))]
    scores = np.random.default_rng(0).random(len(small.words))

    def weighed(**seed) -> list[int]:
        search = BoardSearch(small, True, population=8, generations=2, **seed)
        seen: list[int] = []
        inner = search.fitness
        monkeypatch.setattr(search, "fitness", lambda g, b: seen.append(g) or inner(g, b))
        search.choose(boards, lambda: scores, int(boards[0][0]), False)
        return seen

    default = weighed()
    assert default == weighed(seed=0) and default != weighed(seed=1)


def test_hard_mode_with_few_candidates_may_play_a_word_that_cannot_be_the_answer(small):
    """Hard mode after SALSA and CLOWN (all grey): six -IGHT words remain, fewer than exact_limit.
    The decision weighs every legal word, and AMBLE (which tells B, E and M apart) beats every
    candidate; the exact solver over the candidates alone would play one of them."""
    hard = Settings(candidates="answers", guess_from="allowed", hard=True)
    salsa, clown, amble = (small.words.index(w) for w in ("salsa", "clown", "amble"))
    state = GameState.start(small, hard).after(salsa, 0).after(clown, 0)
    cand = state.candidates
    assert [small.words.allowed[i] for i in cand] == ["bight", "eight", "fight", "might", "right", "tight"]
    only_candidates = LookAhead(small, False, exact_limit=6)
    legal = state.guessable("allowed").tolist()

    def key(w):
        total, depth = only_candidates.split(w, cand)
        return (total + 1000 * max(0, depth - (6 - state.turn)), w not in set(cand.tolist()), w)

    assert min(legal, key=key) == amble
    assert GASearchSolver(small, hard, opener="salsa").search(state) == amble
    assert ExactSolver(small, None).best(cand)[1] in set(cand.tolist())


def test_a_headerless_tree_file_is_an_old_tree_only_if_its_first_path_line_has_a_colon(tmp_path):
    """A file without the made_for header is an old tree (no settings) when its first line that is
    neither blank nor a comment is a path; otherwise one error names that line (counted from 1), or
    says there is no path at all."""
    path = tmp_path / "t.txt"
    path.write_text("fight: fight\n")
    assert tree_made_for(path) is None
    for text, message in (("# a note\n\nfight fight\nlight: light\n", "line 3: missing ':'"),
                          ("fight fight\n", "line 1: missing ':'"),
                          ("# only a note\n\n", "no answer paths$"), ("", "no answer paths$")):
        path.write_text(text)
        with pytest.raises(EvoWordleError, match=message):
            tree_made_for(path)


def test_the_decision_ga_accepts_its_bounds_and_refuses_beyond(small):
    """population 1 … SEARCH_MAX and generations 0 … SEARCH_GENERATIONS_MAX (a huge value began a
    search that never ended); one step beyond either end is an error naming the option and its range."""
    from evo_wordle.boards import SEARCH_GENERATIONS_MAX, SEARCH_MAX, SEARCH_WORDS

    for population, generations in ((1, 0), (1, SEARCH_GENERATIONS_MAX), (SEARCH_WORDS, 0)):
        solver = GASearchSolver(small, ALLOWED, population=population, generations=generations)
        assert (solver.population, solver.generations) == (population, generations)
    for kwargs in ({"population": 0}, {"population": SEARCH_MAX + 1}, {"generations": -1},
                   {"generations": SEARCH_GENERATIONS_MAX + 1}):
        (option, value), = kwargs.items()
        lo, hi = (1, SEARCH_MAX) if option == "population" else (0, SEARCH_GENERATIONS_MAX)
        with pytest.raises(EvoWordleError, match=f"^--search-{option} must be between {lo} and {hi}, not {value}$"):
            GASearchSolver(small, ALLOWED, **kwargs)


#: population × (1 + generations) exactly at the joint bound (300), and one word past it.
AT_THE_BOUND = [(300, 0), (100, 2), (60, 4), (6, 49)]
ONE_PAST = [(301, 0), (43, 6), (7, 42)]


def _past_the_bound(population: int, generations: int) -> str:
    return (f"the decision search would breed up to {population * (1 + generations):,} words a decision "
            f"(search_population {population} × (1 + search_generations {generations})): at most 300")


def test_the_decision_ga_evaluates_at_most_its_joint_bound_of_words_a_decision(small):
    """Each cap alone let a file ask population 1,000 × (1 + 50 generations) = 51,000 words a
    decision (≈ 6 h at the root of the bundled lists): population × (1 + generations) is bounded
    as the multi-board search's is, by the same check; exactly at it is accepted, one past refused."""
    from evo_wordle.boards import SEARCH_WORDS

    assert SEARCH_WORDS == 300  # the documented bound
    for population, generations in AT_THE_BOUND:
        assert population * (1 + generations) == SEARCH_WORDS
        solver = GASearchSolver(small, ALLOWED, population=population, generations=generations)
        assert (solver.population, solver.generations) == (population, generations)
        GASearchSolver.check_params({"population": population, "generations": generations})
    for population, generations in [*ONE_PAST, (1000, 50)]:
        message = "^" + re.escape(_past_the_bound(population, generations)) + "$"
        with pytest.raises(EvoWordleError, match=message):
            GASearchSolver(small, ALLOWED, population=population, generations=generations)
        with pytest.raises(EvoWordleError, match=message):  # a sweep's values, before its folder exists
            GASearchSolver.check_params({"population": population, "generations": generations})


def test_the_joint_bound_counts_the_default_of_the_option_not_given(small):
    """``population`` alone is bred for the default 4 generations (60 × 5 = 300), and
    ``generations`` alone over the default population of 16 (16 × 19 = 304 > 300)."""
    GASearchSolver(small, ALLOWED, population=60)
    GASearchSolver.check_params({"population": 60})
    GASearchSolver(small, ALLOWED, generations=17)  # 16 × 18 = 288
    for kwargs, (population, generations) in (({"population": 61}, (61, 4)), ({"generations": 18}, (16, 18))):
        with pytest.raises(EvoWordleError, match=r"breed up to " + f"{population * (1 + generations)} words"):
            GASearchSolver(small, ALLOWED, **kwargs)
        with pytest.raises(EvoWordleError, match=r"breed up to " + f"{population * (1 + generations)} words"):
            GASearchSolver.check_params(kwargs)


def _small_lists(small, tmp_path) -> list[str]:
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(small.words.allowed) + "\n")
    answers.write_text("\n".join(small.words.answers) + "\n")
    return ["--allowed", str(allowed), "--answers", str(answers), "--candidates", "answers", "--guess-from", "allowed"]


def _params_file(tmp_path, population: int, generations: int):
    import json

    from evo_wordle.artefacts import PARAMS_FORMAT

    path = tmp_path / f"ga-search-{population}-{generations}.json"
    path.write_text(json.dumps({"format": PARAMS_FORMAT, "version": 1, "solver": "ga-search",
                                "params": {"population": population, "generations": generations}}))
    return path


@pytest.mark.parametrize("via", ["flags", "params file", "ga-tree"])
def test_the_cli_plays_at_the_joint_bound_and_refuses_one_word_past_it_in_one_line(small, tmp_path, capsys, via):
    """bench's flags, bench --params FILE and ga-tree's flags: at the bound a game is played,
    one word past it the command exits 2 with the one line, and ga-tree writes no tree."""
    from evo_wordle.cli import main

    lists = _small_lists(small, tmp_path)

    def argv(population: int, generations: int) -> list[str]:
        if via == "params file":
            return ["bench", "--params", str(_params_file(tmp_path, population, generations)), *lists,
                    "--games", "1", "--quiet", "--json"]
        flags = ["--search-population", str(population), "--search-generations", str(generations)]
        if via == "flags":
            return ["bench", "--solver", "ga-search", *flags, *lists, "--games", "1", "--quiet", "--json"]
        return ["ga-tree", *flags, *lists, "--games", "1", "--tree", str(tmp_path / "t.tree"), "--json"]

    for population, generations in (AT_THE_BOUND[1], AT_THE_BOUND[3]):
        assert main(argv(population, generations)) == 0
        out = capsys.readouterr().out  # the summary names the search it played
        assert f'"population": {population},' in out and f'"generations": {generations},' in out, out
        assert '"games": 1,' in out, out
    (tmp_path / "t.tree").unlink(missing_ok=True)
    for population, generations in ONE_PAST:
        assert main(argv(population, generations)) == 2
        captured = capsys.readouterr()
        assert captured.err == f"evo-wordle: error: {_past_the_bound(population, generations)}\n", captured.err
        assert not (tmp_path / "t.tree").exists()


def test_the_exact_limit_is_capped_at_the_exact_solvers_size(small, capsys):
    """``--exact-limit`` had no upper bound: a part of hundreds of answers went to the exact
    solver (meant for at most 30) and the search never ended.  The cap holds for the flag of
    bench and ga-tree (one line, exit 2) and for the Python API."""
    from evo_wordle.cli import main
    from evo_wordle.evolve.exact import MAX_ANSWERS

    assert LookAhead(small, False, exact_limit=MAX_ANSWERS).exact_limit == MAX_ANSWERS == 30
    with pytest.raises(EvoWordleError, match="^--exact-limit must be between 0 and 30, not 31$"):
        LookAhead(small, False, exact_limit=MAX_ANSWERS + 1)
    with pytest.raises(EvoWordleError, match="^--exact-limit must be between 0 and 30, not 400$"):
        GASearchSolver(small, ALLOWED, exact_limit=400)
    for argv in (["bench", "--solver", "ga-search", "--exact-limit", "31"],
                 ["ga-tree", "--exact-limit", "400", "--tree", "t.txt"]):
        with pytest.raises(SystemExit) as exc:  # a usage error exits from inside parse_args
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "argument --exact-limit: must be between 0 and 30" in err, err
    assert search_mod.EXACT_LIMIT_MAX == MAX_ANSWERS


@pytest.mark.parametrize("key, value", [("exact_limit", 31), ("population", 0), ("generations", 51),
                                        ("exact_limit", -1), ("generations", -1)])
def test_a_sweep_over_ga_search_refuses_a_value_beyond_its_caps_before_the_folder_exists(tmp_path, key, value):
    """The caps were the constructor's only: ``sweep --set exact_limit=100`` wrote sweep.json and
    results.csv, then its first task refused the value.  Values within the caps pass."""
    from evo_wordle.sweep import SweepSpec, run_sweep

    out = tmp_path / "out"
    with pytest.raises(EvoWordleError, match=f"^--{'search-' if key != 'exact_limit' else ''}"
                                             f"{key.replace('_', '-')} must be between"):
        run_sweep(SweepSpec("ga-search", {key: [value]}, seeds=1, games=1), out)
    assert not out.exists()
    GASearchSolver.check_params({"exact_limit": 30, "population": 1, "generations": 50})
    GASearchSolver.check_params({"exact_limit": 0, "population": 1, "generations": 0})  # both lower limits
