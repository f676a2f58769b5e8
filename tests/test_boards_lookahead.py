"""The multi-board lookahead (``rollout``): off by default and then the one-step policy, exact
expected guesses checked by hand and by brute force, never a worse guess than the base policy's,
and the evolution's ``--rollout`` written to a file that replays."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from evo_wordle import patterns
from evo_wordle.boards import ROLLOUT_MAX, SummedEntropy, draw_answers, play_boards
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings

KNOWN2 = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7)
FIRST = ["crane", "crate", "grace", "brace", "trace", "grade", "brave"]
SECOND = ["spill", "still", "skill", "shall", "spell", "swill"]


def boards(ctx, policy: SummedEntropy, *groups: list[str]) -> list[np.ndarray]:
    return [policy.board_of(ctx.words.indices(g)) for g in groups]


def play_from(policy: SummedEntropy, state: list[np.ndarray], answers: tuple[int, ...], turn: int) -> int:
    """Guesses the base policy plays from ``state`` at ``turn`` until every board is solved (the
    cap if not), written out here without the memo or the recursion."""
    table, cap = policy.ctx.table, policy.settings.max_guesses
    live = dict(enumerate(state))
    played = 0
    while live and turn < cap:
        guess = policy.base_choice(list(live.values()), turn)
        played, turn = played + 1, turn + 1
        for b in list(live):
            if guess == answers[b]:
                del live[b]
            else:
                live[b] = live[b][table[guess, policy.universe[live[b]]] == table[guess, answers[b]]]
    return played


def test_rollout_off_is_the_one_step_policy(ctx, monkeypatch):
    """The default plays exactly the old policy: the lookahead is never called, and the
    description (hence a parameter file) does not mention it."""
    policy = SummedEntropy(ctx, KNOWN2, opener="slane", weight=-0.2, bonus=1.7)
    assert policy.rollout == 0 and "rollout" not in policy.describe()
    monkeypatch.setattr(policy, "lookahead", lambda *a: pytest.fail("the lookahead ran with rollout 0"))
    for row in draw_answers(ctx, 2, 20, 11):
        play_boards(policy, row, 7)
    assert SummedEntropy(ctx, KNOWN2, rollout=50).describe()["rollout"] == 50


def test_expected_guesses_by_hand(ctx):
    """APPLE scores FIGHT and NIGHT alike, CRANE does not (checked with the reference scorer)."""
    assert patterns.score("apple", "fight") == patterns.score("apple", "night")
    assert patterns.score("crane", "fight") != patterns.score("crane", "night")
    policy = SummedEntropy(ctx, KNOWN2)
    # APPLE (solves its board), then FIGHT (half the time right), then NIGHT: 1 + 1 + 1/2
    assert policy.expected_cost(boards(ctx, policy, ["fight", "night"], ["apple"]), 1) == pytest.approx(2.5)
    # CRANE tells FIGHT from NIGHT: two guesses
    assert policy.expected_cost(boards(ctx, policy, ["fight", "night"], ["crane"]), 1) == pytest.approx(2.0)
    # one guess per distinct known answer, and never more than the guesses left (a failure counts as the cap)
    assert policy.expected_cost(boards(ctx, policy, ["fight"], ["apple"]), 1) == 2.0
    assert policy.expected_cost(boards(ctx, policy, ["fight"], ["fight"]), 1) == 1.0
    assert policy.expected_cost(boards(ctx, policy, ["fight"], ["apple"]), 6) == 1.0
    assert policy.expected_cost(boards(ctx, policy, ["fight", "night"], ["apple"]), 7) == 0.0
    # after FIGHT on {FIGHT, NIGHT} and {LIGHT, MIGHT}: solved or NIGHT known (LIGHT and MIGHT still
    # alike), then the second board takes 1.5 guesses: 1/2·1.5 + 1/2·(1 + 1.5)
    state = boards(ctx, policy, ["fight", "night"], ["light", "might"])
    assert policy.after(state, ctx.words.index("fight"), 1) == pytest.approx(2.0)
    # FLAME tells both pairs apart: two known answers, two guesses
    assert policy.after(state, ctx.words.index("flame"), 1) == pytest.approx(2.0)
    # nothing does better here, so the lookahead keeps the base policy's guess (ties go to it)
    assert SummedEntropy(ctx, KNOWN2, rollout=4).choose(state, 1) == policy.base_choice(state, 1)


@pytest.mark.parametrize("genes", [{}, {"weight": -0.3, "bonus": 2.0, "late": 1.0}])
def test_expected_guesses_equal_brute_force(ctx, genes):
    """The memoised recursion equals the mean over every pair of answers of a plain playout."""
    policy = SummedEntropy(ctx, KNOWN2, **genes)
    state = boards(ctx, policy, FIRST, SECOND)
    for turn in (2, 4, 5):
        plays = [play_from(policy, state, pair, turn)
                 for pair in itertools.product(*(policy.words_of(b).tolist() for b in state))]
        assert len(plays) == len(FIRST) * len(SECOND)
        assert policy.expected_cost(state, turn) == pytest.approx(np.mean(plays), abs=1e-12)


def test_lookahead_tries_the_best_eight_and_every_candidate(ctx, monkeypatch):
    policy = SummedEntropy(ctx, KNOWN2, rollout=100)
    state = boards(ctx, policy, FIRST, SECOND)
    tried = []
    real = policy.after
    monkeypatch.setattr(policy, "after", lambda b, g, t: (t == 2 and tried.append(g)) or real(b, g, t))
    policy.choose(state, 2)
    top = np.argsort(-policy.scores(state), kind="stable")[:8]
    assert set(tried) == {*top.tolist(), *ctx.words.indices(FIRST + SECOND).tolist()}
    assert len(tried) == len(set(tried))  # each once


def test_the_lookahead_plays_after_the_opener_with_no_board_down_to_one_word_within_rollout(ctx, monkeypatch):
    """looks_ahead is choose's rule (board_endgame.py stops where it is true): 7 × 6 = 42 words here,
    7 × 1 with a board down to one word (whose word is played, with no lookahead)."""
    state = boards(ctx, SummedEntropy(ctx, KNOWN2), FIRST, SECOND)
    one = boards(ctx, SummedEntropy(ctx, KNOWN2), FIRST, ["spill"])
    for rollout, turn, where, expected in ((42, 2, state, True), (41, 2, state, False), (42, 1, state, True),
                                           (42, 0, state, False), (0, 2, state, False), (7, 2, one, False)):
        policy = SummedEntropy(ctx, KNOWN2, rollout=rollout)
        assert policy.looks_ahead(where, turn) is expected
        monkeypatch.setattr(policy, "lookahead", lambda *a: -1)
        assert (policy.choose(where, turn) == -1) is expected


def test_lookahead_never_picks_a_worse_guess_and_sometimes_a_better_one(ctx, monkeypatch):
    """On 40 Dordle sets, every guess the lookahead plays has at most the base guess's expected
    cost, some strictly less; the games stay legal."""
    policy = SummedEntropy(ctx, KNOWN2, opener="slane", rollout=200)
    seen = []
    real = policy.lookahead

    def spy(state, turn, base):
        chosen = real(state, turn, base)
        seen.append((policy.after(state, chosen, turn), policy.after(state, base, turn)))
        return chosen

    monkeypatch.setattr(policy, "lookahead", spy)
    for row in draw_answers(ctx, 2, 40, 3):
        rec = play_boards(policy, row, 7)
        assert rec.solved and [rec.guesses[t - 1] for t in rec.solved_at] == list(rec.answers)
    assert seen and all(ours <= base for ours, base in seen)
    assert any(ours < base - 1e-6 for ours, base in seen)


def test_rollout_is_checked(ctx):
    SummedEntropy(ctx, KNOWN2.with_(boards=8, max_guesses=13), rollout=ROLLOUT_MAX)
    for bad in (-1, ROLLOUT_MAX + 1, 2.5, True):
        with pytest.raises(EvoWordleError, match="rollout"):
            SummedEntropy(ctx, KNOWN2, rollout=bad)


def test_the_deepest_reach_falls_with_the_boards(ctx):
    """A reach's work (guesses weighed × answer combinations) is bounded by Octordle's at 100,000:
    a Dordle set at 100,000 took ≈ 31 s (0.06 s at its own 200), so fewer boards reach less deep."""
    from evo_wordle.boards import ROLLOUT_WORK, rollout_most, rollout_work

    assert {n: rollout_most(n) for n in (1, 2, 4, 8, 16)} == {1: 8957, 2: 12_663, 4: 25_291, 8: ROLLOUT_MAX,
                                                               16: ROLLOUT_MAX}
    for n in (1, 2, 4):
        most = rollout_most(n)
        assert rollout_work(most, n) <= ROLLOUT_WORK < rollout_work(most + 1, n)
        settings = KNOWN2.with_(boards=n, max_guesses=5 + n)
        assert SummedEntropy(ctx, settings, rollout=most).rollout == most
        with pytest.raises(EvoWordleError, match=rf"^--rollout {most + 1:,} on {n} board\(s\) may weigh "):
            SummedEntropy(ctx, settings, rollout=most + 1)
    with pytest.raises(EvoWordleError, match=r"^--rollout 100,000 on 2 board\(s\) may weigh 5,001,000,000 \(guess, "
                                             r"answers\) pairs a decision: at most 12,663 there \(the work of 100,000 "
                                             r"on 8 boards\)$"):
        SummedEntropy(ctx, KNOWN2, rollout=100_000)


def test_evolution_writes_the_rollout_and_the_file_replays(tmp_path, capsys, cache_dir):
    from evo_wordle import Context
    from evo_wordle.bench import run_bench
    from evo_wordle.evolve.metaga import file_test_sets
    from evo_wordle.tune import load_params

    out = tmp_path / "dordle.json"
    argv = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "0", "--mu", "2",
            "--lambda", "1", "--train-sets", "6", "--validation-sets", "6", "--test-sets", "40", "--rollout", "200",
            "--seed", "3", "--out", str(out), "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    doc = load_params(out)
    assert doc["params"] == {**result["genome"], "rollout": 200} and "--rollout 200" in doc["provenance"]["command"]
    gain = result["rollout_gain"]
    with_it, without = result["evolved"]["test_mean"], result["evolved_without_rollout"]["test_mean"]
    assert gain["mean"] == pytest.approx(with_it - without) and gain["games"] == 40
    assert doc["provenance"]["rollout_gain"] == gain
    ctx = Context()
    replayed = run_bench(ctx, "summed-entropy", KNOWN2, file_test_sets(ctx, doc), 0, doc["params"], jobs=2)
    assert replayed.mean_guesses == with_it


@pytest.mark.parametrize("extra, message", [
    (["--rollout", "5"], "--rollout needs --boards N"),
    (["--boards", "2", "--rollout", str(ROLLOUT_MAX + 1)], "--rollout must be at most"),
    (["--boards", "2", "--rollout", str(ROLLOUT_MAX)], "--rollout 100,000 on 2 board(s) may weigh"),
])
def test_bad_rollouts_are_one_line(capsys, cache_dir, extra, message):
    code = main(["evolve-strategy", "--generations", "0", "--mu", "2", "--lambda", "1", *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1
