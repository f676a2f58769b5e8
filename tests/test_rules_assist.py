"""Rules of the assistant, each pinned exactly: the counts and wordings of the board, the thresholds
of the expected guesses to finish (sample size, budget, fewest games), the defaults, the bounds
of ``mix``, the order of the alternatives, list switching and the stream reader's end of input."""

from __future__ import annotations

import dataclasses
import io
import types

import numpy as np
import pytest

import evo_wordle.assist as assist
from evo_wordle import patterns
from evo_wordle.assist import Alternative, AssistSession, draw_board, run_assist, stream_reader
from evo_wordle.entropy import entropies
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings
from evo_wordle.solvers import make_solver
from tests.test_assist import P1, _board, dialogue, digits, record_plays, session

RAISE = ("raise", "00210")  # leaves 29 answers in P1


def _after_raise(ctx, settings: Settings = P1, **kw) -> AssistSession:
    sess = AssistSession(ctx, settings, make_solver("greedy", ctx, settings), **kw)
    sess.enter(ctx.words.index(RAISE[0]), patterns.parse(RAISE[1], 5))
    assert len(sess.state.candidates) == 29
    return sess


def _board_with(sess: AssistSession, color: bool = False, top: int = 3, show: int = 6) -> str:
    out = io.StringIO()
    draw_board(sess, color, top, show, lambda line: out.write(line + "\n"))
    return out.getvalue()


def _slate_row_leaving(ctx, n: int) -> str:
    """A row of colours for SLATE that leaves exactly ``n`` answers."""
    codes, sizes = np.unique(ctx.table[ctx.words.index("slate"), ctx.words.answer_index], return_counts=True)
    return patterns.to_digits(int(codes[sizes == n][0]), 5)


def _with_left(ctx, n: int) -> AssistSession:
    sess = session(ctx)
    sess.enter(ctx.words.index("slate"), patterns.parse(_slate_row_leaving(ctx, n), 5))
    assert len(sess.state.candidates) == n and not sess.solved
    return sess


# --- defaults -------------------------------------------------------------------------------

def test_the_documented_sampling_defaults(ctx):
    """docs/play.md: above 100 candidates a draw of 100, play stops after 1.5 s."""
    sess = session(ctx)
    assert (sess.sample, sess.budget) == (100, 1.5)
    assert (assist.SAMPLE, assist.BUDGET, assist.MIN_SAMPLE) == (100, 1.5, 10)


def test_run_assist_shows_five_alternatives_and_eight_candidates_by_default(ctx):
    text = dialogue(session(ctx), ["raise", "00210", "quit"])
    line = next(line for line in text.splitlines() if "candidates left:" in line)
    assert line.endswith(" … (+21)") and len(line.split("left: ")[1].split(" …")[0].split()) == 8
    rows = text.split("could be the answer\n")[1].split("\n\n")[0].splitlines()
    assert len(rows) == 5 and all(r.split()[-1] in ("yes", "no") for r in rows)


def test_alternatives_default_to_five(ctx):
    assert len(_after_raise(ctx).alternatives()) == 5


def test_alternative_is_frozen():
    alt = Alternative("crane", 1.0, 0.5, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        alt.word = "slate"


# --- mix ------------------------------------------------------------------------------------

def test_mix_bounds_zero_and_one_are_accepted_and_beyond_refused(ctx):
    prior = np.ones(len(ctx.words))
    solver = make_solver("greedy", ctx, P1)
    for mix in (0, 0.0, 1, 1.0, 0.5):
        assert AssistSession(ctx, P1, solver, prior=prior, mix=mix).mix == float(mix)
    for mix in (-0.5, -1.0, 1.5, True, False, "0.5", None):
        with pytest.raises(EvoWordleError, match=r"mix must be a number in \[0, 1\]"):
            AssistSession(ctx, P1, solver, prior=prior, mix=mix)


# --- fits_any_allowed and switching lists ---------------------------------------------------

def test_fits_any_allowed(ctx):
    sess = session(ctx)
    aahed = ctx.words.index("aahed")  # allowed, not an answer
    assert sess.fits_any_allowed(aahed, ctx.words.solved) is True
    assert sess.fits_any_allowed(ctx.words.index("slate"), patterns.parse("22221", 5)) is False  # no word


def test_switching_replays_every_row(ctx):
    """Switching to the allowed list replays each row on the state before it, not on the start."""
    sess = session(ctx)
    rows = [("slate", digits("slate", "crane")), ("crony", digits("crony", "crane"))]
    for word, row in rows:
        sess.enter(ctx.words.index(word), patterns.parse(row, 5))
    sess.switch_candidates("allowed")
    words = ctx.all_words
    for word, row in rows:
        words = words[ctx.table[ctx.words.index(word), words] == patterns.parse(row, 5)]
    np.testing.assert_array_equal(sess.state.candidates, words)
    assert [g for g, _ in sess.state.history] == [ctx.words.index(w) for w, _ in rows]


def test_switching_rebuilds_the_solver_only_with_make_solver(ctx):
    plain = session(ctx)
    solver = plain.solver
    plain.switch_candidates("allowed")
    assert plain.solver is solver and plain.settings.candidates == "allowed"
    built = []

    def make(settings):
        built.append(make_solver("greedy", ctx, settings))
        return built[-1]

    sess = AssistSession(ctx, P1, make_solver("greedy", ctx, P1), make_solver=make)
    sess.switch_candidates("allowed")
    assert len(built) == 1 and sess.solver is built[0] and built[0].settings.candidates == "allowed"


def test_list_answers_and_list_allowed_wordings(ctx):
    sess = AssistSession(ctx, P1, make_solver("greedy", ctx, P1),
                         make_solver=lambda s: make_solver("greedy", ctx, s))
    text = dialogue(sess, ["slate", digits("slate", "crane"), "list allowed", "list answers", "quit"])
    lines = [line[line.index("Now any "):] for line in text.splitlines() if "Now any " in line]
    assert lines == ["Now any allowed word may be the answer.", "Now any answer-list word may be the answer."]


def test_a_refused_switch_is_said_and_the_dialogue_goes_on(ctx):
    """An allowed-list game whose row fits no answer-list word: 'list answers' is refused with a line."""
    settings = Settings()  # the allowed list
    slate = ctx.words.index("slate")
    answer_codes = set(ctx.table[slate, ctx.words.answer_index].tolist())
    code = next(int(c) for c in ctx.table[slate, ctx.all_words] if int(c) not in answer_codes
                and int(c) != ctx.words.solved)
    sess = session(ctx, settings)
    sess.enter(slate, code)
    text = dialogue(sess, ["list answers", "quit"])
    assert "! no answers-list word fits the colours entered so far; kept the allowed list" in text
    assert "Now any" not in text and text.rstrip().endswith("Bye.")
    assert sess.settings.candidates == "allowed"


# --- the board ------------------------------------------------------------------------------

def test_the_count_of_candidates_not_shown(ctx):
    sess = _after_raise(ctx)
    lines = {show: next(line for line in _board_with(sess, show=show).splitlines() if "candidates left:" in line)
             for show in (6, 29, 30)}
    assert lines[6].endswith(" … (+23)") and lines[6].startswith("29 candidates left: ")
    assert "…" not in lines[29] and "+" not in lines[29] and len(lines[29].split(": ")[1].split()) == 29
    assert lines[30] == lines[29]


def test_one_and_two_candidates_left(ctx):
    one, two = _with_left(ctx, 1), _with_left(ctx, 2)
    text_one, text_two = _board(one), _board(two)
    assert "1 candidate left: " in text_one and "1 candidates" not in text_one
    assert "2 candidates left: " in text_two
    assert "could be the answer" not in text_one  # one left: nothing to choose between
    assert "could be the answer" in text_two  # two left: the table is shown
    assert one.alternatives() == [] and len(two.alternatives()) == 2


def test_the_colour_hint_line_only_without_colour_and_after_a_guess(ctx):
    hint = "  (each letter followed by G green, Y yellow or B grey)"
    fresh, played = session(ctx), _after_raise(ctx)
    assert hint not in _board_with(fresh, color=False).splitlines()
    assert hint not in _board_with(fresh, color=True).splitlines()
    assert hint in _board_with(played, color=False).splitlines()
    assert hint not in _board_with(played, color=True).splitlines()


def test_the_candidate_column_says_yes_or_no(ctx):
    sess = _after_raise(ctx, P1.with_(guess_from="allowed"))
    alts = sess.alternatives(40)
    assert {a.candidate for a in alts} == {True, False}  # both kinds in the table
    rows = _board_with(sess, top=40).split("could be the answer\n")[1].splitlines()
    assert [(r.split()[0], r.split()[-1]) for r in rows] == [
        (a.word.upper(), "yes" if a.candidate else "no") for a in alts]


def test_the_greeting_names_hard_mode_only_in_hard_mode(ctx):
    easy = dialogue(session(ctx), ["quit"]).splitlines()[0]
    hard = dialogue(session(ctx, P1.with_(hard=True)), ["quit"]).splitlines()[0]
    assert easy == "evo-wordle assist: greedy solver, 2,309 possible answers (answers list)."
    assert hard == "evo-wordle assist: greedy solver, 2,309 possible answers (answers list), hard mode."


def test_impossible_feedback_on_the_first_guess_says_nothing_was_entered(ctx):
    text = dialogue(session(ctx), ["aahed", "22222", "quit"])
    assert "(nothing was entered yet)" in text and "kept" not in text


def test_no_cap_line_when_no_answer_needs_more_guesses(ctx):
    sess = _after_raise(ctx)
    assert sess.beyond_cap() == 0.0
    text = _board(sess)
    assert "expected guesses to finish:" in text and "% of them need more" not in text


def test_guesses_left_of_the_cap_are_never_below_zero(ctx):
    """At the cap none is left; past it (the assistant lets one play on) still none, never -1."""
    at_cap = _after_raise(ctx, P1.with_(max_guesses=1))
    assert at_cap.beyond_cap() == 1.0
    assert "  100 % of them need more than the 0 guesses left of --max-guesses 1" in _board(at_cap)
    past = _after_raise(ctx, P1.with_(max_guesses=1))
    answer = next(ctx.words.allowed[i] for i in past.state.candidates if ctx.words.allowed[i] != "count")
    past.enter(ctx.words.index("count"), patterns.parse(digits("count", answer), 5))
    assert past.turn == 2 and not past.solved
    text = _board(past)
    assert "of them need more than the 0 guesses left of --max-guesses 1" in text and "-1" not in text


# --- expected guesses to finish -------------------------------------------------------------

def test_exactly_sample_candidates_are_all_played_not_drawn(ctx, monkeypatch):
    played = record_plays(monkeypatch)
    sess = _after_raise(ctx)
    mean, games = sess.expected_to_finish(sample=29, budget=600.0)
    assert games == 29 and sorted(a for a, _ in played) == sorted(sess.state.candidates.tolist())
    assert np.isnan(sess.spread())
    assert "(every candidate)" in _board(sess)
    drawn = _after_raise(ctx)
    played.clear()
    assert drawn.expected_to_finish(sample=28, budget=600.0)[1] == 28 and not np.isnan(drawn.spread())


def test_exactly_min_sample_games_give_an_estimate(ctx):
    sess = _after_raise(ctx)
    sess.sample, sess.budget = assist.MIN_SAMPLE, 600.0
    text = _board(sess)
    assert f"following the suggestions ({assist.MIN_SAMPLE} sampled candidates)" in text
    assert "not estimated" not in text


def test_the_budget_cut_comes_only_past_the_budget(ctx, monkeypatch):
    """A clock ticking one second per reading: with a 2 s budget play stops once 3 s have passed."""
    ticks = iter(range(1000))
    monkeypatch.setattr(assist, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    sess = _after_raise(ctx)
    assert sess.expected_to_finish(budget=2.0)[1] == 3


def test_the_solver_is_reset_with_the_seeded_draws(ctx, monkeypatch):
    """Each game's solver gets a generator seeded from the state's seeded stream (integers below 2**63)."""
    sess = _after_raise(ctx)
    seen = []
    reset = sess.solver.reset

    def recording_reset(rng):
        seen.append(rng.bit_generator.state["state"])
        return reset(rng)

    monkeypatch.setattr(sess.solver, "reset", recording_reset)
    sess.expected_to_finish(budget=600.0)
    rng = np.random.default_rng(np.random.SeedSequence([1, 29]))
    rng.permutation(29)
    want = [np.random.default_rng(rng.integers(2**63)).bit_generator.state["state"] for _ in range(29)]
    assert seen == want


# --- alternatives ---------------------------------------------------------------------------

def test_alternatives_tied_on_score_put_the_higher_entropy_first(ctx):
    """Two non-candidates, one of 2 bits at half the priority of one of 1 bit: the same score
    (exactly, powers of two); the one of more entropy comes first."""
    settings = P1.with_(guess_from="allowed")
    cand = _with_left(ctx, 4).state.candidates
    bits = entropies(ctx.table, ctx.all_words, cand)
    outside = ~np.isin(ctx.all_words, cand)
    two = int(ctx.all_words[outside & (bits == 2.0)][0])
    one = int(ctx.all_words[outside & (bits == 1.0)][0])
    prior = np.full(len(ctx.words), 1e-6)
    prior[two], prior[one] = 0.5, 1.0
    sess = AssistSession(ctx, settings, make_solver("greedy", ctx, settings), prior=prior)
    sess.enter(ctx.words.index("slate"), patterns.parse(_slate_row_leaving(ctx, 4), 5))
    alts = sess.alternatives(2)
    assert [a.score for a in alts] == [1.0, 1.0]
    assert [(a.word, a.entropy) for a in alts] == [(ctx.words.allowed[two], 2.0), (ctx.words.allowed[one], 1.0)]


# --- the stream reader ----------------------------------------------------------------------

def test_the_stream_reader_ends_input_with_a_newline_only_at_the_end():
    out = io.StringIO()
    read = stream_reader(io.StringIO("slate\r\n"), out)
    assert read("word> ") == "slate" and out.getvalue() == "word> "
    assert read("word> ") is None and out.getvalue() == "word> word> \n"


def test_run_assist_reads_through_a_given_reader(ctx):
    asked = []

    def read(prompt):
        asked.append(prompt)
        return None

    out = io.StringIO()
    assert run_assist(session(ctx), io.StringIO("slate\n"), out, read=read) == 0
    assert asked == ["word> "] and out.getvalue().rstrip().endswith("Bye.")
