"""The game's rules, each test naming the rule it pins: settings, state updates, hard mode, one game.

Hard mode is NYT's: every revealed green stays in place and every revealed yellow (or green)
letter is used again at least as often as it was revealed; a yellow may be reused in its old spot.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError, ImpossibleFeedback
from evo_wordle.game import (
    PROBLEMS,
    GameRecord,
    GameState,
    Settings,
    check_solver_args,
    default_cap,
    hard_mode_mask,
    letter_counts,
    lost,
    play,
    scores_of,
)
from evo_wordle.patterns import decode


def _history(ctx, *pairs: tuple[str, str]) -> tuple[tuple[int, int], ...]:
    """((guess, pattern), …) for guesses played against answers."""
    out = []
    for guess, answer in pairs:
        g, a = ctx.words.index(guess), ctx.words.index(answer)
        out.append((g, int(ctx.table[g, a])))
    return tuple(out)


def _legal(ctx, history, word: str) -> bool:
    return bool(hard_mode_mask(ctx, history)[ctx.words.index(word)])


def reference_hard_legal(guess: str, pattern: int, word: str) -> bool:
    """Plain rule: greens kept in place; each letter revealed k times (green or yellow) used ≥ k times."""
    trits = decode(pattern, len(guess))
    if any(t == 2 and word[i] != guess[i] for i, t in enumerate(trits)):
        return False
    need = Counter(c for c, t in zip(guess, trits) if t > 0)
    have = Counter(word)
    return all(have[c] >= k for c, k in need.items())


# --------------------------------------------------------------------------- hard mode refusals


def test_hard_mode_refuses_a_word_that_drops_a_green(ctx):
    # TRACE against CRATE: t yellow, r a green, c yellow, e green.
    hist = _history(ctx, ("trace", "crate"))
    assert _legal(ctx, hist, "crate")
    # REACT uses every revealed letter but moves the greens R (pos 1) and E (pos 4): refused.
    assert not _legal(ctx, hist, "react")
    # CARET keeps E? no: C A R E T moves R and A out of their green spots: refused.
    assert not _legal(ctx, hist, "caret")


def test_hard_mode_refuses_a_word_that_omits_a_yellow_letter(ctx):
    hist = _history(ctx, ("trace", "crate"))
    # GRACE keeps every green (r, a, e) in place but has no T (a revealed yellow): refused.
    assert not _legal(ctx, hist, "grace")
    # BRATE? not a word; TRADE keeps the greens and the T but drops the yellow C: refused.
    assert not _legal(ctx, hist, "trade")


def test_hard_mode_accepts_a_yellow_in_its_old_spot_nyt_rule(ctx):
    # NYT hard mode only asks that a yellow letter be used again, anywhere: replaying TRACE is legal.
    hist = _history(ctx, ("trace", "crate"))
    assert _legal(ctx, hist, "trace")


def test_hard_mode_counts_repeated_revealed_letters(ctx):
    # EERIE against THREE: the two revealed Es (and the R) must both be used again.
    hist = _history(ctx, ("eerie", "three"))
    trits = decode(hist[0][1])
    assert sum(t > 0 for c, t in zip("eerie", trits) if c == "e") == 2
    assert _legal(ctx, hist, "three")
    assert not _legal(ctx, hist, "rebut")  # one E only
    # every word with ≥ 2 Es and an R that keeps the greens is legal
    for w in ("there", "rupee", "ester", "merle"):
        if ctx.words.contains(w):
            assert _legal(ctx, hist, w) == reference_hard_legal("eerie", hist[0][1], w)


def test_hard_mode_grey_tiles_ask_nothing(ctx):
    hist = _history(ctx, ("fuzzy", "crate"))
    assert hist[0][1] == 0
    assert hard_mode_mask(ctx, hist).all()


def test_hard_mode_mask_equals_the_written_rule_on_random_histories(ctx):
    rng = np.random.default_rng(19)
    words = ctx.words.allowed
    sample = rng.choice(len(words), 600, replace=False)
    for _ in range(12):
        answer = int(rng.choice(ctx.words.answer_index))
        guesses = rng.choice(len(words), 2, replace=False)
        hist = tuple((int(g), int(ctx.table[g, answer])) for g in guesses)
        mask = hard_mode_mask(ctx, hist)
        for w in sample.tolist():
            want = all(reference_hard_legal(words[g], p, words[w]) for g, p in hist)
            assert mask[w] == want, (words[w], [(words[g], p) for g, p in hist])
        assert mask[answer]  # the answer itself is always legal


def test_no_history_allows_every_word(ctx):
    assert hard_mode_mask(ctx, ()).all()


def test_letter_counts_count_every_letter(ctx):
    counts = letter_counts(ctx)
    assert letter_counts(ctx) is counts  # cached on the context
    assert counts.shape == (len(ctx.words), 26)  # one column per letter a…z
    for w in ("geese", "crate", "mamma", "fuzzy"):
        row = counts[ctx.words.index(w)]
        assert {chr(97 + i): int(k) for i, k in enumerate(row) if k} == dict(Counter(w))
    assert counts.sum(axis=1).tolist() == [5] * len(ctx.words)


# --------------------------------------------------------------------------- settings


def test_settings_defaults_are_p0_with_a_cap_of_nine():
    s = Settings()
    assert (s.candidates, s.guess_from, s.hard, s.daily, s.max_guesses, s.boards) == (
        "allowed", "candidates", False, False, 9, 1)


@pytest.mark.parametrize("bad", [{"candidates": "nyt"}, {"guess_from": "answers"}, {"max_guesses": 0},
                                 {"boards": 0}])
def test_settings_refuse_bad_values(bad):
    with pytest.raises(EvoWordleError):
        Settings(**bad)


def test_settings_edge_values_are_accepted():
    assert Settings(max_guesses=1).max_guesses == 1
    assert Settings(boards=1, candidates="answers", guess_from="allowed").boards == 1


def test_problems_are_the_thesis_relaxations():
    assert PROBLEMS == {
        "P0": {"candidates": "allowed", "guess_from": "candidates", "daily": False},
        "P1": {"candidates": "answers", "guess_from": "candidates", "daily": False},
        "P2": {"candidates": "allowed", "guess_from": "candidates", "daily": True},
        "P3": {"candidates": "answers", "guess_from": "candidates", "daily": True},
    }
    p3 = Settings.problem("p3", hard=True)  # case-insensitive, overrides win
    assert (p3.candidates, p3.daily, p3.hard) == ("answers", True, True)
    with pytest.raises(EvoWordleError, match="unknown problem"):
        Settings.problem("P9")


def test_with_and_as_dict():
    s = Settings().with_(max_guesses=6)
    assert s.max_guesses == 6 and Settings().max_guesses == 9
    assert s.as_dict() == {"candidates": "allowed", "guess_from": "candidates", "hard": False, "daily": False,
                           "max_guesses": 6, "boards": 1}


@pytest.mark.parametrize(("boards", "limit"), [(1, 6), (2, 7), (4, 9), (8, 13)])
def test_a_game_is_won_within_six_guesses_or_n_plus_five_for_n_boards(boards, limit):
    assert Settings(boards=boards).win_limit == limit


# --------------------------------------------------------------------------- state


def test_start_takes_the_candidate_rule_and_leaves_out_past_answers(ctx):
    assert len(GameState.start(ctx, Settings()).candidates) == len(ctx.words)
    p1 = GameState.start(ctx, Settings(candidates="answers", hard=True))
    assert p1.candidates.tolist() == ctx.words.answer_index.tolist() and p1.hard and p1.turn == 0
    gone = ctx.words.answer_index[:3]
    daily = GameState.start(ctx, Settings(candidates="answers"), excluded=gone)
    assert len(daily.candidates) == len(ctx.words.answer_index) - 3
    assert not np.isin(gone, daily.candidates).any()
    assert daily.candidates.dtype == np.int64
    same = GameState.start(ctx, Settings(candidates="answers"), excluded=np.array([], dtype=np.int64))
    assert len(same.candidates) == len(ctx.words.answer_index)


def test_after_keeps_exactly_the_words_that_give_the_same_feedback(ctx):
    state = GameState.start(ctx, Settings(candidates="answers"))
    g, a = ctx.words.index("crane"), ctx.words.index("merry")
    p = int(ctx.table[g, a])
    nxt = state.after(g, p)
    want = [c for c in state.candidates.tolist() if ctx.table[g, c] == p]
    assert nxt.candidates.tolist() == want and a in want
    assert nxt.history == ((g, p),) and nxt.turn == 1 and state.turn == 0
    with pytest.raises(ImpossibleFeedback):
        nxt.after(g, ctx.words.solved)  # CRANE is no longer a candidate


def test_key_includes_the_history_only_in_hard_mode(ctx):
    g, a = ctx.words.index("crane"), ctx.words.index("merry")
    p = int(ctx.table[g, a])
    easy = GameState.start(ctx, Settings(candidates="answers")).after(g, p)
    hard = GameState.start(ctx, Settings(candidates="answers", hard=True)).after(g, p)
    assert easy.key() == easy.candidates.tobytes()
    assert hard.key() != easy.key() and hard.key().startswith(easy.key())


def test_guessable_words(ctx):
    state = GameState.start(ctx, Settings(hard=True))
    assert state.guessable("allowed").tolist() == ctx.all_words.tolist()  # no history yet
    hist = _history(ctx, ("trace", "crate"))
    nxt = state.after(*hist[0])
    assert nxt.guessable() is nxt.candidates
    legal = nxt.guessable("allowed")
    assert legal.tolist() == np.flatnonzero(hard_mode_mask(ctx, hist)).tolist()
    assert len(legal) < len(ctx.words)
    easy = GameState.start(ctx, Settings()).after(*hist[0])
    assert len(easy.guessable("allowed")) == len(ctx.words)


# --------------------------------------------------------------------------- one game


class Scripted:
    """A solver that plays a fixed list of words and records what ``finish`` was told."""

    def __init__(self, ctx, words):
        self.ids = [ctx.words.index(w) for w in words]
        self.finished = None

    def choose(self, state):
        return self.ids[min(state.turn, len(self.ids) - 1)]

    def finish(self, state, guess, pattern):
        self.finished = (guess, pattern)


def test_play_stops_when_solved(ctx):
    solver = Scripted(ctx, ["crane", "merry"])
    a = ctx.words.index("merry")
    rec = play(solver, GameState.start(ctx, Settings()), a, Settings())
    assert rec.guesses == [ctx.words.index("crane"), a] and rec.solved
    assert solver.finished == (a, ctx.words.solved)
    assert rec.score(9) == 2


@pytest.mark.parametrize("answer", [-1, -2, "last+1", True, 2.0])
def test_play_refuses_an_answer_outside_the_list_and_never_wraps_it(ctx, answer):
    """``play(solver, state, -1, settings)`` wrapped to the last allowed word (ZYMIC), played that
    game and recorded answer -1 as solved: an index outside 0 … n-1, a bool or a float is one
    line, as every other index the package takes."""
    answer = len(ctx.words.allowed) if answer == "last+1" else answer
    with pytest.raises(EvoWordleError, match=r"^answer|index"):
        play(Scripted(ctx, ["crane"]), GameState.start(ctx, Settings()), answer, Settings())
    last = len(ctx.words.allowed) - 1
    rec = play(Scripted(ctx, [ctx.words.allowed[last]]), GameState.start(ctx, Settings()), np.int64(last), Settings())
    assert rec.answer == last and type(rec.answer) is int and rec.solved and rec.guesses == [last]


def test_play_stops_at_the_cap_as_a_failure(ctx):
    solver = Scripted(ctx, ["crane", "crane"])  # never solves: after the first turn CRANE is impossible
    state = GameState.start(ctx, Settings())
    a = ctx.words.index("merry")
    rec = play(Scripted(ctx, ["fuzzy", "jumbo", "vivid", "gawky", "pluck"]), state, a, Settings(max_guesses=3))
    assert len(rec.guesses) == 3 and not rec.solved and rec.score(3) == 3 and rec.score(9) == 9
    rec1 = play(solver, state, a, Settings(max_guesses=1))
    assert len(rec1.guesses) == 1 and not rec1.solved


def test_play_ends_when_the_feedback_leaves_no_candidate(ctx):
    # The candidates (the NYT answers) exclude the real answer: the game ends, unsolved, early.
    outsider = ctx.words.index("aahed")
    assert outsider not in set(ctx.words.answer_index.tolist())
    state = GameState.start(ctx, Settings(candidates="answers"))
    solver = Scripted(ctx, ["crane", "sloth", "dumpy", "fight", "wreck"])
    rec = play(solver, state, outsider, Settings())
    assert not rec.solved and 1 <= len(rec.guesses) < 9
    assert solver.finished[0] == rec.guesses[-1]


def test_record_score_is_guesses_used_or_the_cap():
    assert GameRecord(0, [1, 2, 3], True).score(9) == 3
    assert GameRecord(0, [1, 2, 3], False).score(9) == 9


def test_settings_and_states_are_immutable_and_hashable_settings(ctx):
    """Settings travel between runs and solvers memoise on states: neither may change after creation."""
    import dataclasses

    s = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.max_guesses = 3  # type: ignore[misc]
    assert hash(s) == hash(Settings()) and len({s, Settings(), Settings(hard=True)}) == 2
    state = GameState(ctx, np.arange(3, dtype=np.int64))
    assert state.hard is False and state.history == ()  # a state built by hand is easy mode, turn 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.hard = True  # type: ignore[misc]


# ------------------------------------------------------------------ replayed moves and limits


def test_illegal_move_refuses_a_hard_mode_break_and_only_in_hard_mode(ctx):
    from evo_wordle.game import illegal_move

    history = _history(ctx, ("crane", "cigar"))  # C green, R yellow, A yellow
    hard = Settings(candidates="answers", guess_from="allowed", hard=True)
    why = illegal_move(ctx, hard, history, ctx.words.index("spilt"))  # drops every hint
    assert why == "SPILT breaks hard mode (a revealed hint is not reused)"
    assert illegal_move(ctx, hard, history, ctx.words.index("cigar")) is None
    assert illegal_move(ctx, hard, (), ctx.words.index("spilt")) is None  # nothing revealed yet
    normal = Settings(candidates="answers", guess_from="allowed")
    assert illegal_move(ctx, normal, history, ctx.words.index("spilt")) is None


def test_illegal_move_refuses_a_word_that_cannot_be_the_answer_when_only_those_may_be_guessed(ctx):
    from evo_wordle.game import illegal_move

    strict = Settings(candidates="answers", guess_from="candidates")
    msg = "cannot be the answer here (the game guesses only possible words)"
    assert illegal_move(ctx, strict, (), ctx.words.index("cigar")) is None
    # not an answer; the last allowed word sorts after every answer (the search runs off the end)
    assert illegal_move(ctx, strict, (), ctx.words.index("zymic")) == f"ZYMIC {msg}"
    assert illegal_move(ctx, strict, (), ctx.words.index("aahed")) == f"AAHED {msg}"
    history = _history(ctx, ("crane", "cigar"))
    assert illegal_move(ctx, strict, history, ctx.words.index("cigar")) is None
    assert illegal_move(ctx, strict, history, ctx.words.index("crane")) == f"CRANE {msg}"  # an answer, ruled out
    free = Settings(candidates="answers", guess_from="allowed")
    assert illegal_move(ctx, free, history, ctx.words.index("zymic")) is None


def test_the_guess_cap_and_board_count_have_their_documented_limits():
    from evo_wordle.game import MAX_BOARDS, MAX_GUESSES

    assert (MAX_GUESSES, MAX_BOARDS) == (1000, 64)
    assert Settings(max_guesses=1000, boards=64).max_guesses == 1000
    for bad in ({"max_guesses": 1001}, {"max_guesses": 0}, {"boards": 65}, {"boards": 0}):
        with pytest.raises(EvoWordleError):
            Settings(**bad)


def test_hard_and_daily_must_be_true_or_false():
    for name in ("hard", "daily"):
        with pytest.raises(EvoWordleError, match=name):
            Settings(**{name: "yes"})
        with pytest.raises(EvoWordleError, match=name):
            Settings(**{name: 1})
        value = getattr(Settings(**{name: np.bool_(True)}), name)
        assert value is True


@pytest.mark.parametrize("history, message", [
    (((0, 0), (1, 2, 3)), "history move 2 is (1, 2, 3), not a (guess, pattern) pair"),
    ((7,), "history move 1 is 7, not a (guess, pattern) pair"),
    (((-1, 0),), "history move 1: guess"),
    (((0, 0), (0, 3 ** 5)), "pattern"),
])
def test_a_bad_history_is_refused_by_the_rules_naming_its_move(ctx, history, message):
    from evo_wordle.game import check_history, illegal_move

    for call in (lambda: check_history(ctx, history), lambda: hard_mode_mask(ctx, history),
                 lambda: illegal_move(ctx, Settings(hard=True), history, 0)):
        with pytest.raises(EvoWordleError, match=re.escape(message)):
            call()
    good = ((ctx.words.index("salet"), 5), (ctx.words.index("crane"), 0))
    assert check_history(ctx, good) == good and all(type(v) is int for move in check_history(ctx, good) for v in move)


@pytest.mark.parametrize("boards, cap", [(1, 9), (1, 6), (1, 4), (1, 1), (2, 7), (2, 5), (4, 9), (4, 12)])
def test_the_failure_rule_is_worded_once(boards, cap):
    """Settings owns the failure rule; the figures' legends (plots.style.won_within) and the
    bench summary say what Settings.fail_text says."""
    from evo_wordle.plots.style import won_within

    rule = Settings(boards=boards, max_guesses=cap)
    limit, won, failed = won_within({"boards": boards, "max_guesses": cap})
    assert limit == rule.won_within == (cap if rule.capped else rule.win_limit)
    assert rule.capped == (cap < rule.win_limit)
    assert failed.startswith(rule.fail_text(cap_note=False)) and rule.fail_text().startswith(failed.split(" (")[0])
    assert won.startswith(f"solved within {limit}")
    assert (rule.fail_text() == f"over {rule.win_limit}") == rule.plays_past_limit == (cap > rule.win_limit)
    assert failed.endswith("(or not solved)") == rule.plays_past_limit


def test_the_failure_wording_names_the_cap_by_default():
    capped = Settings(max_guesses=4)
    assert capped.fail_text() == "not solved within 4 (the --max-guesses cap)"
    assert capped.fail_text(cap_note=False) == "not solved within 4"
    assert Settings().fail_text() == Settings().fail_text(cap_note=False) == "over 6"


@pytest.mark.parametrize("boards, cap, text", [(4, 9, "not solved within 9"), (8, 13, "not solved within 13"),
                                               (2, 7, "not solved within 7"), (1, 6, "not solved within 6"),
                                               (2, 8, "over 7"), (4, 7, "not solved within 7 (the --max-guesses cap)")])
def test_a_failure_at_a_cap_equal_to_the_win_limit_is_not_solved_within_it(boards, cap, text):
    """On N boards the default cap is the win limit N + 5: no game takes "over 9" guesses on
    Quordle, so a failure there is one not solved within 9.  "over L" only when the cap lies above
    the limit, and the cap's note only when it lies below."""
    rule = Settings(boards=boards, max_guesses=cap)
    assert rule.fail_text() == text
    assert rule.fail_text(cap_note=False) == text.split(" (")[0]


def test_a_game_record_built_without_a_count_played_nothing_outside_its_source():
    assert GameRecord(answer=0, guesses=[0], solved=True).outside_source == 0

P0_ALLOWED = Settings.problem("P0", guess_from="allowed")
TWO_BOARDS = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7)


def test_a_game_is_lost_when_unsolved_or_solved_after_the_win_limit():
    from evo_wordle.boards import BoardsRecord

    assert not lost(GameRecord(0, [1] * 6, True), P0_ALLOWED)  # at the limit: won
    assert lost(GameRecord(0, [1] * 7, True), P0_ALLOWED)
    capped = Settings.problem("P0", guess_from="allowed", max_guesses=6)
    assert lost(GameRecord(0, [1] * 6, False), capped)  # scores 6, the limit, yet lost
    assert lost(GameRecord(0, [1] * 3, False), P0_ALLOWED)  # unsolved in fewer guesses than the limit
    assert not lost(GameRecord(0, [1] * 6, True), capped)
    assert not lost(BoardsRecord((0, 1), [1] * 7, True, (3, 7)), TWO_BOARDS)
    assert lost(BoardsRecord((0, 1), [1] * 7, False, (3, None)), TWO_BOARDS)  # cap 7 = the limit 7
    assert lost(BoardsRecord((0, 1), [1] * 8, True, (3, 8)), Settings(candidates="answers", boards=2, max_guesses=9))


def test_a_list_of_games_scores_its_guesses_and_the_cap_for_each_lost_one():
    """scores_of: a solved game scores its guess count (after the win limit too: lost, yet the
    guesses it took), an unsolved one the cap, in the records' order; board sets alike."""
    from evo_wordle.boards import BoardsRecord

    games = [GameRecord(0, [1] * 3, True), GameRecord(0, [1] * 4, False), GameRecord(0, [1] * 8, True),
             GameRecord(0, [1], True)]
    scores = scores_of(games, P0_ALLOWED)
    assert scores.tolist() == [3, 9, 8, 1] and scores.dtype.kind == "i"
    assert scores_of(games, P0_ALLOWED.with_(max_guesses=12)).tolist() == [3, 12, 8, 1]
    sets = [BoardsRecord((0, 1), [1] * 6, True, (3, 6)), BoardsRecord((0, 1), [1] * 7, False, (3, None))]
    assert scores_of(sets, TWO_BOARDS).tolist() == [6, 7]
    assert scores_of([], TWO_BOARDS).tolist() == []


@pytest.mark.parametrize("boards, cap", [(1, 9), (2, 7), (3, 8), (4, 9), (8, 13), (64, 69)])
def test_the_default_guess_cap_is_9_for_one_board_and_the_win_limit_for_several(boards, cap):
    """default_cap (what --max-guesses defaults to, and a figure's settings without a cap): 9 on
    one board, over its win limit 6; N + 5 on N boards, the win limit itself, so that a failure
    there is a set not solved within it."""
    assert default_cap(boards) == cap
    rule = Settings(boards=boards, max_guesses=default_cap(boards))
    assert rule.plays_past_limit == (boards == 1) and not rule.capped
    assert rule.fail_text() == ("over 6" if boards == 1 else f"not solved within {cap}")


@pytest.mark.parametrize(("boards", "cap"), [(1, 9), (2, 7), (4, 9), (8, 13)])
def test_settings_without_a_cap_play_to_the_board_counts_default_cap(boards, cap):
    """The Python API's Settings(boards=8) plays Octordle to 13 guesses, as the CLI does: with one
    board's 9 as its default, every set needing 10 to 13 guesses was a failure through the API
    only.  A cap given is kept, on any board count."""
    assert Settings(boards=boards).max_guesses == cap
    assert Settings(boards=boards, max_guesses=5).max_guesses == 5
    assert Settings(boards=boards) == Settings(boards=boards, max_guesses=cap)


@pytest.mark.parametrize(("start", "boards", "cap"), [
    (Settings(), 8, 13), (Settings(boards=8), 1, 9), (Settings(boards=4), 2, 7), (Settings(boards=2), 2, 7),
    (Settings(max_guesses=12), 8, 12), (Settings(boards=8, max_guesses=10), 4, 10),
    (Settings(boards=4, max_guesses=6), 8, 6),
    # a cap given equal to the old default was still moved: asked for 9 on one board, 13 on eight
    (Settings(max_guesses=9), 8, 9), (Settings(boards=8, max_guesses=13), 1, 13),
    (Settings(boards=2, max_guesses=7), 4, 7),
    (Settings().with_(boards=4), 8, 13), (Settings(max_guesses=9).with_(hard=True), 8, 9),
])
def test_a_copy_with_another_board_count_keeps_a_given_cap_and_follows_a_default_one(start, boards, cap):
    """``Settings().with_(boards=8)`` kept one board's cap of 9, so every Octordle set needing 10 to
    13 guesses was lost through the API: a cap at the old default now follows the new board count,
    a cap set to anything else stays, and a cap given with the change wins.  A cap that was given
    stays even when it equals the old default (it was moved, as if never asked for)."""
    moved = start.with_(boards=boards)
    assert (moved.boards, moved.max_guesses) == (boards, cap)
    assert start.with_(boards=boards, max_guesses=11).max_guesses == 11
    assert start.with_(hard=True).max_guesses == start.max_guesses


def test_a_given_cap_stays_given_through_pickling_and_copies():
    """Whether the cap was given travels with the settings (a sweep's workers get them pickled),
    and does not change what they are: equal settings, the same ``as_dict``."""
    import copy
    import pickle

    given, default = Settings(max_guesses=9), Settings()
    assert given == default and given.as_dict() == default.as_dict()
    for copied in (pickle.loads(pickle.dumps(given)), copy.deepcopy(given), copy.copy(given)):
        assert copied.with_(boards=8).max_guesses == 9
    assert pickle.loads(pickle.dumps(default)).with_(boards=8).max_guesses == 13


def test_a_solver_needs_a_context_and_settings_named_by_who_asks(ctx):
    """One check for make_solver, every solver class and the multi-board policy: the class that
    asks leads the one-line message; make_solver (no ``who``) keeps its own wording."""
    check_solver_args(ctx, Settings())  # both right: nothing said
    with pytest.raises(EvoWordleError, match=r"^GreedySolver: ctx must be a Context, not NoneType$"):
        check_solver_args(None, Settings(), "GreedySolver")
    with pytest.raises(EvoWordleError, match=r"^ctx must be a Context, not str$"):
        check_solver_args("ctx", Settings())
    with pytest.raises(EvoWordleError, match=r"^X: settings must be a Settings \(e\.g\. .*\), not 'P1'$"):
        check_solver_args(ctx, "P1", "X")
    with pytest.raises(EvoWordleError, match=r"^settings must be a Settings .*, not None$"):
        check_solver_args(ctx, None)
