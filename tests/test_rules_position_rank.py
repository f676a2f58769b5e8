"""Rules of the position-ranking family (evo_wordle/solvers/position_rank.py), against values
worked out by hand or written out from the bundled lists: the clue picture, first occurrences,
the three scores, and how each member turns them into a guess (presets, special turns, ties,
one candidate, the memo, max-prune's shortlist of ten)."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers import make_solver
from evo_wordle.solvers import position_rank as pr
from evo_wordle.solvers.position_rank import (
    clue_state,
    first_occurrence,
    letter_entropy_scores,
    paper_code_scores,
    position_scores,
)

ANY = Settings(candidates="answers", guess_from="allowed")


def _after(ctx, settings, *moves) -> GameState:
    """The state after ``moves`` ((guess word, answer word) pairs)."""
    state = GameState.start(ctx, settings)
    for guess, answer in moves:
        g = ctx.words.index(guess)
        state = state.after(g, int(ctx.table[g, ctx.words.index(answer)]))
    return state


def _words(ctx, indices) -> list[str]:
    return [ctx.words.allowed[int(i)] for i in indices]


def _row(slots, letter: str) -> list[int]:
    return slots[ord(letter) - 97].tolist()


# ------------------------------------------------------------------------------ the clues


def test_no_clue_leaves_every_slot_possible_and_no_letter_known(ctx):
    slots, known = clue_state(ctx, ())
    assert slots.shape == (26, 5) and (slots == 1).all() and not known.any()


def test_a_later_green_closes_its_slot_to_every_other_letter(ctx):
    """TARES then LINGO against PILOT: T yellow (not slot 1); A, R, E, S absent; then L yellow
    (not slot 1), I green in slot 2, N and G absent, O yellow (not slot 5)."""
    state = _after(ctx, Settings(), ("tares", "pilot"), ("lingo", "pilot"))
    slots, known = clue_state(ctx, state.history)
    assert _row(slots, "i") == [1, 2, 1, 1, 1]
    assert _row(slots, "t") == [0, 0, 1, 1, 1]
    assert _row(slots, "l") == [0, 0, 1, 1, 1]
    assert _row(slots, "o") == [1, 0, 1, 1, 0]
    assert _row(slots, "p") == [1, 0, 1, 1, 1]
    for letter in "aresng":
        assert _row(slots, letter) == [0, 0, 0, 0, 0]
    assert sorted(chr(97 + c) for c in np.flatnonzero(known)) == ["i", "l", "o", "t"]
    words = ctx.words.indices(["pilot", "idiot", "tares", "plonk"])
    # PILOT 1+2+1+1+1; IDIOT i 1, d 0, (second i), o 1, t 1; TARES all 0; PLONK p 1, l 0, o 1, n 0, k 1
    assert position_scores(ctx, words, state.history).tolist() == [6.0, 3.0, 0.0, 3.0]
    # the paper's code: P, D and K were never guessed and score 0
    assert paper_code_scores(ctx, words, state.history).tolist() == [5.0, 3.0, 0.0, 1.0]


def test_a_grey_letter_is_absent_everywhere_unless_a_copy_is_lit(ctx):
    """EERIE against THREE: E yellow, E grey (its other copy is lit: only that slot), R green in
    slot 3, I grey (no lit copy: absent), E green in slot 5."""
    state = _after(ctx, Settings(), ("eerie", "three"))
    slots, known = clue_state(ctx, state.history)
    assert _row(slots, "e") == [0, 0, 0, 1, 2]
    assert _row(slots, "r") == [1, 1, 2, 1, 0]
    assert _row(slots, "i") == [0, 0, 0, 0, 0]
    assert _row(slots, "t") == [1, 1, 0, 1, 0]
    assert known[ord("e") - 97] and known[ord("r") - 97] and not known[ord("i") - 97] and not known[ord("t") - 97]


def test_first_occurrence_marks_each_letters_first_slot(ctx):
    rows = first_occurrence(ctx)[ctx.words.indices(["eerie", "daddy", "llama", "tares"])].tolist()
    t, f = True, False
    assert rows == [[t, f, t, t, f], [t, t, f, f, t], [t, f, t, t, f], [t, t, t, t, t]]
    assert first_occurrence(ctx) is first_occurrence(ctx)  # computed once per context


def test_letter_entropy_is_the_sum_of_slot_shares_times_their_complement(ctx):
    """Over CRANE, CRATE, TRACE: TRACE has t in 1/3, r a e in all, c in 1/3 of their slots:
    2/9 + 0 + 0 + 2/9 + 0; FUZZY's letters are in no slot of any: 0."""
    cand = ctx.words.indices(["crane", "crate", "trace"])
    got = letter_entropy_scores(ctx, ctx.words.indices(["trace", "fuzzy", "crane"]), cand)
    assert got == pytest.approx([4 / 9, 0.0, 2 / 9 + 2 / 9])
    one = letter_entropy_scores(ctx, ctx.words.indices(["trace", "zebra"]), cand[:1])
    assert one.tolist() == [0.0, 0.0]  # one candidate: every share is 0 or 1


@pytest.mark.parametrize("values,expect", [([1.0, 2.0, 4.0], [0.25, 0.5, 1.0]), ([0.1, 0.5], [0.2, 1.0]),
                                           ([0.0, 0.0], [0.0, 0.0]), ([-1.0, -2.0], [0.0, 0.0]), ([], [])])
def test_normalised_divides_by_the_largest_and_leaves_zeros(values, expect):
    assert pr._normalised(np.array(values, dtype=float)).tolist() == pytest.approx(expect)


# --------------------------------------------------------------------------- the members


def test_without_the_papers_words_the_opener_is_the_best_ranked_and_no_second_preset(cache_dir):
    """A list without TARES opens with its best position rank (CRANE, five distinct letters
    where ABBEY has four and EERIE three); without LINUM two-preset has no second preset."""
    small = Context(allowed=["abbey", "crane", "eerie"])
    for name in ("position-rank", "two-preset", "hybrid-two-preset"):
        solver = make_solver(name, small, Settings())
        assert _words(small, [solver.choose(GameState.start(small, Settings()))]) == ["crane"]
        assert "second_preset" not in solver.describe() and solver.second is None


def test_one_candidate_is_played_without_scoring(ctx, monkeypatch):
    state = _after(ctx, Settings(), ("tares", "pilot"), ("lingo", "pilot"))
    state = state.after(ctx.words.index("pilot"), ctx.words.solved) if len(state.candidates) > 1 else state
    solver = make_solver("position-rank", ctx, Settings())
    monkeypatch.setattr(solver, "scores", lambda *a: pytest.fail("scored one candidate"))
    assert len(state.candidates) == 1 and solver.choose(state) == state.candidates[0]


def test_of_two_candidates_the_higher_ranked_is_played_even_second(ctx):
    """After TARES against SATYR: RASTA (rank 5) and SATYR (rank 6) remain; SATYR is played."""
    state = _after(ctx, Settings(), ("tares", "satyr"))
    assert _words(ctx, state.candidates) == ["rasta", "satyr"]
    assert position_scores(ctx, state.candidates, state.history).tolist() == [5.0, 6.0]
    assert _words(ctx, [make_solver("position-rank", ctx, Settings()).choose(state)]) == ["satyr"]


def test_the_memo_tells_histories_with_the_same_candidates_apart(ctx):
    """BUMPY and JUMBO against LIMBO both leave LIMBO and MAMBO; over every allowed word the
    clue pictures differ, and so do the best ranks (ABMHO, DIMBO)."""
    solver = make_solver("position-rank", ctx, ANY)
    first = _after(ctx, ANY, ("bumpy", "limbo"))
    second = _after(ctx, ANY, ("jumbo", "limbo"))
    assert _words(ctx, first.candidates) == _words(ctx, second.candidates) == ["limbo", "mambo"]
    assert _words(ctx, [solver.choose(first), solver.choose(second), solver.choose(first)]) == [
        "abmho", "dimbo", "abmho"]


def test_ties_go_to_the_alphabetically_first_word(ctx):
    state = _after(ctx, Settings(), ("tares", "pilot"))
    scores = position_scores(ctx, state.candidates, state.history)
    tied = state.candidates[scores == scores.max()]
    assert len(tied) > 1
    assert make_solver("position-rank", ctx, Settings()).choose(state) == tied.min()


@pytest.mark.parametrize("name,turns", [("low-position-rank", ["lowest", "highest", "highest"]),
                                        ("average-position-rank", ["median", "median", "highest"]),
                                        ("position-rank", ["highest", "highest", "highest"])])
def test_each_member_plays_its_own_rank_on_guesses_two_to_four(ctx, name, turns):
    settings = Settings()
    solver = make_solver(name, ctx, settings)
    rec = play(solver, GameState.start(ctx, settings), ctx.words.index("jazzy"), settings)
    assert len(rec.guesses) >= 5
    state = GameState.start(ctx, settings)
    for turn, guess in enumerate(rec.guesses[:4]):
        if turn:
            scores = position_scores(ctx, state.candidates, state.history)
            order = state.candidates[np.argsort(-scores, kind="stable")]
            want = {"lowest": order[-1], "median": order[len(order) // 2], "highest": order[0]}[turns[turn - 1]]
            assert guess == want, (turn, _words(ctx, [guess, want]))
        state = state.after(guess, int(ctx.table[guess, ctx.words.index("jazzy")]))


def test_two_preset_plays_its_second_preset_unless_already_played(ctx):
    settings = Settings()
    pilot = ctx.words.index("pilot")
    solver = make_solver("two-preset", ctx, settings, second="crane")
    assert _words(ctx, play(solver, GameState.start(ctx, settings), pilot, settings).guesses[:2]) == ["tares", "crane"]
    assert solver.describe()["second_preset"] == "crane"
    for name in ("two-preset", "hybrid-two-preset"):  # the paper's presets by default
        solver = make_solver(name, ctx, settings)
        assert _words(ctx, play(solver, GameState.start(ctx, settings), pilot, settings).guesses[:2]) == [
            "tares", "linum"]
    # LINUM opening: the preset LINUM is not played again; the second guess is the best rank
    solver = make_solver("hybrid-two-preset", ctx, settings, opener="linum")
    rec = play(solver, GameState.start(ctx, settings), pilot, settings)
    state = _after(ctx, settings, ("linum", "pilot"))
    assert rec.guesses[0] == ctx.words.index("linum") and rec.guesses[1] != rec.guesses[0]
    assert rec.guesses[1] == make_solver("hybrid", ctx, settings).best(state.candidates, state)
    # a solver without presets never plays a second preset, even when given one
    solver = make_solver("position-rank", ctx, settings, second="crane")
    assert _words(ctx, play(solver, GameState.start(ctx, settings), pilot, settings).guesses[:2]) != ["tares", "crane"]
    assert "second_preset" not in solver.describe()


def test_hybrid_scores_are_the_mean_of_both_normalised_scores(ctx):
    state = _after(ctx, Settings(), ("tares", "pilot"))
    guesses = state.candidates
    pos = position_scores(ctx, guesses, state.history)
    ent = letter_entropy_scores(ctx, guesses, state.candidates)
    got = make_solver("hybrid", ctx, Settings()).scores(guesses, state)
    assert got == pytest.approx((pos / pos.max() + ent / ent.max()) / 2)
    assert make_solver("letter-entropy", ctx, Settings()).scores(guesses, state) == pytest.approx(ent)


def test_max_prune_looks_at_exactly_the_ten_best_ranked(ctx):
    """After TARES against GRASS the ten best-ranked candidates leave, over the 100 candidates,
    sums of squared group sizes 3058, 2140, 2248, 2314, 3036, 2792, 2730, 2718, 1972, 1764: the
    tenth, BRADS, prunes most (the eleventh, BRAGS, 1676, would prune more)."""
    state = _after(ctx, Settings(), ("tares", "grass"))
    cand = state.candidates
    scores = position_scores(ctx, cand, state.history)
    order = cand[np.argsort(-scores, kind="stable")][:11]
    assert _words(ctx, order) == ["amirs", "arcos", "arcus", "argus", "arils", "arums", "arvos", "aryls", "boars",
                                  "brads", "brags"]

    def squares(word):
        _, counts = np.unique(ctx.table[word, cand], return_counts=True)
        return int((counts**2).sum())

    assert [squares(w) for w in order] == [3058, 2140, 2248, 2314, 3036, 2792, 2730, 2718, 1972, 1764, 1676]
    assert _words(ctx, [make_solver("max-prune", ctx, Settings()).choose(state)]) == ["brads"]


def test_max_prune_prunes_by_the_exact_expected_survivors(ctx):
    """After TARES against BATCH (103 candidates) the ten best-ranked leave sums of squared group
    sizes 2225, 1883, 1823, 1807, 2127, 2135, 2395, 1877, 3189, 2569: BANTU (1807) leaves the fewest
    expected survivors, 1807 / 103 = 17.54, though BALTI's 1823 / 103 = 17.70 rounds down to the
    same 17; and by sums of cubes BATON would be the best."""
    state = _after(ctx, Settings(), ("tares", "batch"))
    cand = state.candidates
    top = cand[np.argsort(-position_scores(ctx, cand, state.history), kind="stable")][:10]
    assert _words(ctx, top) == ["bahut", "baith", "balti", "bantu", "banty", "batch", "batik", "baton", "bawty",
                                "cagot"]
    groups = [np.unique(ctx.table[w, cand], return_counts=True)[1] for w in top]
    assert [int((g**2).sum()) for g in groups] == [2225, 1883, 1823, 1807, 2127, 2135, 2395, 1877, 3189, 2569]
    assert _words(ctx, [top[int(np.argmin([(g**3).sum() for g in groups]))]]) == ["baton"]
    assert _words(ctx, [make_solver("max-prune", ctx, Settings()).choose(state)]) == ["bantu"]


def test_max_prune_over_every_allowed_word(ctx):
    """With any allowed word to guess, the shortlist holds words that cannot be the answer (their
    feedback never says solved): after TARES against ABACK (97 answers left) the ten best-ranked
    leave sums of squared group sizes 929, 1125, 1069, 527, 981, 753, 553, 799, 1281, 933:
    max-prune plays the fourth, ABOIL."""
    state = _after(ctx, ANY, ("tares", "aback"))
    guesses = state.guessable("allowed")
    scores = position_scores(ctx, guesses, state.history)
    top = guesses[np.argsort(-scores, kind="stable")][:10]
    assert _words(ctx, top) == ["ablow", "abmho", "abohm", "aboil", "acidy", "acing", "acold", "admin", "admix",
                                "adown"]
    assert len(state.candidates) == 97 and not np.isin(top[-1], state.candidates)
    assert _words(ctx, [make_solver("max-prune", ctx, ANY).choose(state)]) == ["aboil"]


def test_second_preset_option(ctx):
    parser = argparse.ArgumentParser()
    pr.PositionRankSolver.add_options(parser)
    args = parser.parse_args(["--second-preset", "crane"])
    two = make_solver("two-preset", ctx, Settings()).__class__
    assert two.options_from_args(args) == {"second": "crane"}
    assert two.options_from_args(parser.parse_args([])) == {}
    assert two.options_from_args(argparse.Namespace()) == {}
    with pytest.raises(EvoWordleError, match="^--second-preset only applies to two-preset solvers, not position-rank$"):
        pr.PositionRankSolver.options_from_args(args)
    assert pr.PositionRankSolver.options_from_args(parser.parse_args([])) == {}
