"""Baseline solvers: every one plays legal games under every setting; the family's scores."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle.bench import run_bench
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import GameState, Settings, hard_mode_mask, play
from evo_wordle.patterns import encode
from evo_wordle.solvers import SOLVERS, load_all, make_solver
from evo_wordle.solvers.letter_frequency import letter_presence
from evo_wordle.solvers.position_rank import (
    TOP_K,
    clue_state,
    letter_entropy_scores,
    paper_code_scores,
    position_scores,
)

MINE = [
    "random",
    "letter-frequency",
    "position-rank",
    "low-position-rank",
    "average-position-rank",
    "two-preset",
    "letter-entropy",
    "hybrid",
    "hybrid-two-preset",
    "max-prune",
]


@pytest.fixture(scope="module")
def sample(ctx) -> np.ndarray:
    rng = np.random.default_rng(7)
    return np.sort(rng.choice(ctx.words.answer_index, 40, replace=False))


def _idx(ctx, word: str) -> int:
    return ctx.words.index(word)


def check_legal(ctx, res, settings: Settings) -> None:
    """Guesses are allowed words, games stop when solved, the cap holds, and consistency (guess
    from candidates) or hard-mode rules hold at every turn."""
    table = ctx.table
    start = ctx.candidates(settings.candidates)
    for rec in res.records:
        assert 1 <= len(rec.guesses) <= settings.max_guesses
        assert all(0 <= g < len(ctx.words) for g in rec.guesses)
        codes = [int(table[g, rec.answer]) for g in rec.guesses]
        assert rec.solved == (codes[-1] == ctx.words.solved)
        assert ctx.words.solved not in codes[:-1]
        history: list[tuple[int, int]] = []
        cand = start
        for g, c in zip(rec.guesses, codes):
            if history and settings.hard:
                assert hard_mode_mask(ctx, tuple(history))[g], "hard-mode rule broken"
            if history and settings.guess_from == "candidates" and not res.solver.endswith("two-preset"):
                assert g in cand, "guess not consistent with the feedback"
            history.append((g, c))
            cand = cand[table[g, cand] == c]


def test_all_registered() -> None:
    load_all()
    assert set(MINE) <= set(SOLVERS)


@pytest.mark.parametrize("name", MINE)
@pytest.mark.parametrize(
    "settings",
    [
        Settings(),
        Settings(hard=True),
        Settings(candidates="answers", guess_from="allowed", hard=True),
        Settings(max_guesses=3),
    ],
    ids=["P0", "hard", "P1-allowed-hard", "cap3"],
)
def test_solvers_play_legal_games(ctx, sample, name, settings) -> None:
    res = run_bench(ctx, name, settings, sample[:15], seed=3)
    check_legal(ctx, res, settings)
    if settings.max_guesses == 3:
        assert res.worst_guesses <= 3
        assert res.fail_rate > 0  # nobody solves 15 answers in 3 from the full allowed list


@pytest.mark.parametrize("name", MINE)
def test_opener_is_played_and_deterministic(ctx, sample, name) -> None:
    res = run_bench(ctx, name, Settings(), sample[:10], seed=1, solver_params={"opener": "crane"})
    assert all(r.guesses[0] == _idx(ctx, "crane") for r in res.records)
    again = run_bench(ctx, name, Settings(), sample[:10], seed=1, solver_params={"opener": "crane"})
    assert [r.guesses for r in res.records] == [r.guesses for r in again.records]


@pytest.mark.parametrize("name", MINE)
def test_unknown_opener_is_a_user_error(ctx, name) -> None:
    with pytest.raises(EvoWordleError):
        make_solver(name, ctx, Settings(), opener="qqqqq")


def test_random_depends_on_seed_only(ctx, sample) -> None:
    a = run_bench(ctx, "random", Settings(), sample, seed=5)
    b = run_bench(ctx, "random", Settings(), sample, seed=5)
    c = run_bench(ctx, "random", Settings(), sample, seed=6)
    seqs = [r.guesses for r in a.records]
    assert seqs == [r.guesses for r in b.records]
    assert seqs != [r.guesses for r in c.records]
    assert len({r.guesses[0] for r in a.records}) > 1  # a fresh random opener each game


def test_family_defaults_to_paper_opener(ctx, sample) -> None:
    res = run_bench(ctx, "position-rank", Settings(), sample[:5])
    assert res.params["opener"] == "tares"
    res = run_bench(ctx, "two-preset", Settings(), sample[:5])
    assert res.params["second_preset"] == "linum"


def test_clue_state_paper_example(ctx) -> None:
    """The paper's ADIEU-against-ALOUD grid: A green in slot 1, D and U yellow, E and I absent."""
    guess = _idx(ctx, "adieu")
    code = int(ctx.table[guess, _idx(ctx, "aloud")])
    slots, known = clue_state(ctx, ((guess, code),))
    a, d, e, i, u, b = (ord(c) - 97 for c in "adieub")
    assert slots[a].tolist() == [2, 1, 1, 1, 1]
    assert slots[d].tolist() == [0, 0, 1, 1, 1]
    assert slots[u].tolist() == [0, 1, 1, 1, 0]
    assert slots[e].tolist() == slots[i].tolist() == [0, 0, 0, 0, 0]
    assert slots[b].tolist() == [0, 1, 1, 1, 1]
    assert known[[a, d, u]].all() and not known[[e, i, b]].any()
    words = ctx.words.indices(["aloud", "dhuti", "daddy"])
    hist = ((guess, code),)
    # ALOUD: a green (2) + l, o, u, d each possible in their slots (1): 6.  DHUTI: d cannot be
    # in slot 1 (a is green there), i is absent: 3.  DADDY: only the first d counts: 0 + 1 + 1.
    assert position_scores(ctx, words, hist).tolist() == [6.0, 3.0, 2.0]
    # The paper's code: letters not yet guessed (l, o, h, t, y) score 0.
    assert paper_code_scores(ctx, words, hist).tolist() == [4.0, 1.0, 1.0]


def test_clue_state_grey_duplicate_is_not_absent(ctx) -> None:
    """A grey copy of a letter that is also yellow/green only excludes that slot."""
    guess = _idx(ctx, "speed")
    code = int(ctx.table[guess, _idx(ctx, "abide")])  # first e yellow, second e grey
    slots, known = clue_state(ctx, ((guess, code),))
    e = ord("e") - 97
    assert known[e]
    assert slots[e, 2] == 0 and slots[e, 3] == 0
    assert slots[e, 0] == 1 and slots[e, 4] == 1


def test_second_guesses_of_variants(ctx) -> None:
    settings = Settings()
    answer = _idx(ctx, "pilot")
    for name, expect in [("low-position-rank", "lowest"), ("average-position-rank", "median")]:
        solver = make_solver(name, ctx, settings)
        state = GameState.start(ctx, settings)
        opener = solver.choose(state)
        state = state.after(opener, int(ctx.table[opener, answer]))
        scores = position_scores(ctx, state.candidates, state.history)
        order = state.candidates[np.argsort(-scores, kind="stable")]
        want = order[-1] if expect == "lowest" else order[len(order) // 2]
        assert solver.choose(state) == want
        assert scores[np.searchsorted(state.candidates, want)] <= scores.max()
    solver = make_solver("two-preset", ctx, settings)
    rec = play(solver, GameState.start(ctx, settings), answer, settings)
    assert [ctx.words.allowed[g] for g in rec.guesses[:2]] == ["tares", "linum"]


def test_two_preset_skips_an_illegal_hard_mode_preset(ctx) -> None:
    settings = Settings(hard=True)
    solver = make_solver("two-preset", ctx, settings)
    rec = play(solver, GameState.start(ctx, settings), _idx(ctx, "stare"), settings)
    assert ctx.words.allowed[rec.guesses[1]] != "linum"  # TARES lit s,t,a,r,e: LINUM breaks hard mode


def test_max_prune_picks_best_of_top_ten(ctx) -> None:
    settings = Settings()
    solver = make_solver("max-prune", ctx, settings)
    state = GameState.start(ctx, settings)
    tares = _idx(ctx, "tares")
    state = state.after(tares, int(ctx.table[tares, _idx(ctx, "pilot")]))
    pick = solver.choose(state)
    scores = position_scores(ctx, state.candidates, state.history)
    top = state.candidates[np.argsort(-scores, kind="stable")[:TOP_K]]
    assert pick in top

    def survivors(g):
        _, counts = np.unique(ctx.table[g, state.candidates], return_counts=True)
        return (counts**2).sum()

    assert survivors(pick) == min(survivors(g) for g in top)


def test_letter_scores(ctx) -> None:
    cand = ctx.words.indices(["crane", "crate", "trace"])
    guesses = ctx.words.indices(["crane", "eerie"])
    presence = letter_presence(ctx)
    freq = presence[cand].sum(axis=0)
    # crane: c3 r3 a3 n1 e3 = 13; eerie: e3 r3 i0 = 6 (distinct letters once)
    assert (presence[guesses] @ freq).tolist() == [13.0, 6.0]
    ent = letter_entropy_scores(ctx, guesses[:1], cand)
    # slot shares for crane over {crane, crate, trace}: c 2/3, r 1, a 1, n 1/3, e 1
    x = np.array([2 / 3, 1, 1, 1 / 3, 1])
    assert ent[0] == pytest.approx((x * (1 - x)).sum())


def test_pattern_helpers_agree(ctx) -> None:
    """Sanity: the table matches the pattern encoder the clue picture decodes."""
    code = int(ctx.table[_idx(ctx, "adieu"), _idx(ctx, "aloud")])
    assert code == encode([2, 1, 0, 0, 1])


def test_default_opener_is_cached_on_disk(ctx, tmp_path, monkeypatch) -> None:
    """A deterministic solver's default opener is computed once, then read from its cache file;
    other settings get their own entry, and a corrupt file is simply rebuilt."""
    from evo_wordle.solvers import opener_cache

    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path))
    assert ctx.cache_dir is None  # the session context follows $EVO_WORDLE_CACHE
    settings = Settings(candidates="answers")
    state = GameState.start(ctx, settings)
    first = make_solver("naive", ctx, settings).choose(state)
    path = tmp_path / opener_cache.FILE
    assert path.exists() and ctx.words.allowed[first] in path.read_text()

    calls = []
    solver = make_solver("naive", ctx, settings)
    monkeypatch.setattr(solver, "default_opener", lambda s: calls.append(1) or 0)
    assert solver.choose(state) == first and not calls  # served from disk

    other = Settings(candidates="answers", hard=True)  # another key: computed, not reused
    solver = make_solver("naive", ctx, other)
    monkeypatch.setattr(solver, "default_opener", lambda s: calls.append(1) or 7)
    assert solver.choose(GameState.start(ctx, other)) == 7 and calls == [1]
    assert len(opener_cache._read(path)) == 2

    path.write_text("{not json")  # corrupt: recomputed and rewritten
    assert make_solver("naive", ctx, settings).choose(state) == first
    assert len(opener_cache._read(path)) == 1

    rnd = make_solver("random", ctx, settings)  # stochastic solvers are never cached
    rnd.choose(state)
    assert len(opener_cache._read(path)) == 1
