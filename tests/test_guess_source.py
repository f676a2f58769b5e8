"""Guesses played outside the setting's guess source are counted and reported, never hidden:
the thesis's GAs play mutants that are no longer candidates while the setting says they guess
only candidates (bench prints the count, compare treats such a row as guessing from any word)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.bench import ForbidState, run_bench
from evo_wordle.cli import main
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers.base import Solver

WORDS = ["blush", "cigar", "evade", "focal", "humph", "rebut"]


class DetourSolver(Solver):
    """Plays CIGAR, then HUMPH whatever the feedback, then the first candidate: a solver forced
    to play a non-candidate once HUMPH is ruled out."""

    name = "detour"

    def choose(self, state: GameState) -> int:
        words = self.ctx.words
        if state.turn == 0:
            return words.index("cigar")
        if state.turn == 1:
            return words.index("humph")
        return int(state.candidates[0])


@pytest.fixture(scope="module")
def tiny(cache_dir) -> Context:
    return Context(allowed=WORDS, answers=WORDS)


def test_a_forced_non_candidate_is_counted(tiny) -> None:
    # REBUT: CIGAR shows only a yellow R, which leaves REBUT alone (no C, I, G, A; an R not
    # last); HUMPH is then no candidate (1 outside), and REBUT is played third.
    start = GameState.start(tiny, Settings())
    rebut = play(DetourSolver(tiny, Settings()), start, tiny.words.index("rebut"), Settings())
    assert [tiny.words.allowed[g] for g in rebut.guesses] == ["cigar", "humph", "rebut"]
    assert rebut.outside_source == 1
    # HUMPH: still a candidate after CIGAR (all grey), so playing it is within the source.
    humph = play(DetourSolver(tiny, Settings()), start, tiny.words.index("humph"), Settings())
    assert humph.guesses == [tiny.words.index("cigar"), tiny.words.index("humph")]
    assert humph.outside_source == 0
    # guessing from any allowed word, the same game keeps to its source
    anything = Settings(guess_from="allowed")
    assert play(DetourSolver(tiny, anything), start, tiny.words.index("rebut"), anything).outside_source == 0


def test_bench_counts_guesses_and_games_outside(tiny) -> None:
    answers = [tiny.words.index(w) for w in ("cigar", "humph", "rebut")]
    res = run_bench(tiny, DetourSolver, Settings(), answers)
    assert (res.guesses_outside_source, res.games_outside_source) == (1, 1)
    summary = res.summary()
    assert (summary["guesses_outside_source"], summary["games_outside_source"]) == (1, 1)


def test_greedy_keeps_to_candidates_and_ga_thesis_does_not(ctx) -> None:
    greedy = run_bench(ctx, "greedy", Settings(), games=100, seed=0)
    assert greedy.guesses_outside_source == 0 and greedy.games_outside_source == 0
    thesis = run_bench(ctx, "ga-thesis", Settings(), games=100, seed=0)
    assert thesis.guesses_outside_source >= thesis.games_outside_source > 0


def test_forbidden_word_is_outside_the_source(tiny) -> None:
    start = GameState.start(tiny, Settings())
    forbid = ForbidState(tiny, start.candidates, (), False, np.array([tiny.words.index("rebut")]))
    assert not forbid.may_play(tiny.words.index("rebut"))
    assert forbid.may_play(tiny.words.index("blush"))
    assert forbid.may_play(tiny.words.index("blush"), "allowed")


def test_hard_mode_breach_is_outside_an_allowed_source(tiny) -> None:
    state = GameState.start(tiny, Settings(hard=True))
    rebut = tiny.words.index("rebut")
    state = state.after(tiny.words.index("cigar"), int(tiny.table[tiny.words.index("cigar"), rebut]))
    assert not state.may_play(tiny.words.index("humph"), "allowed")  # drops the revealed R
    assert state.may_play(rebut, "allowed")


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bench_text_says_it_in_one_line(capsys) -> None:
    code, out, _ = run_cli(capsys, "bench", "--solver", "ga-thesis", "--games", "100", "--seed", "0", "--quiet")
    lines = [line for line in out.splitlines() if line.startswith("outside:")]
    assert code == 0 and len(lines) == 1
    assert "were not possible answers (candidates)" in lines[0] and "guess_from=candidates" in lines[0]
    code, out, _ = run_cli(capsys, "bench", "--solver", "greedy", "--games", "30", "--quiet")
    assert code == 0 and "outside" not in out


def test_compare_treats_a_row_outside_its_source_as_guessing_from_allowed(capsys) -> None:
    code, out, err = run_cli(capsys, "compare", "--solvers", "greedy,ga-thesis", "--games", "100", "--quiet",
                             "--json")
    rows = {r["solver"]: r for r in json.loads(out)}
    assert code == 0
    assert rows["greedy"]["guesses_outside_source"] == 0 and "guess_from=candidates" in rows["greedy"]["game"]
    assert rows["ga-thesis"]["guesses_outside_source"] > 0 and "guess_from=allowed" in rows["ga-thesis"]["game"]
    assert "MIXED GAMES" in err and "ga-thesis guessed words that were not candidates" in err
    code, out, _ = run_cli(capsys, "compare", "--solvers", "greedy,ga-thesis", "--games", "100", "--quiet")
    assert "MIXED GAMES" in out and "ga-thesis: " in out and "not possible answers" in out


def test_boards_count_an_opener_that_is_no_candidate(ctx) -> None:
    # answers known (P1): TALES is not an answer, so the opener is outside guess_from=candidates
    # once per board set; the policy's own choices keep to the candidates of some board.
    settings = Settings(candidates="answers", boards=2)
    assert "tales" not in ctx.words.answers
    fixed = run_bench(ctx, "summed-entropy", settings, games=5, solver_params={"opener": "tales"})
    assert (fixed.guesses_outside_source, fixed.games_outside_source) == (5, 5)
    assert run_bench(ctx, "summed-entropy", settings, games=5).guesses_outside_source == 0


def test_the_histogram_figure_says_which_solver_played_outside_its_source(tiny, tmp_path) -> None:
    from evo_wordle.plots.compare import compare_data, plot_histograms

    data = compare_data(tiny, [DetourSolver, "greedy"], Settings(), games=None, seed=0)
    detour = data["solvers"][0]
    assert (data[detour]["outside"], data[detour]["outside_games"]) == (
        run_bench(tiny, DetourSolver, Settings(), tiny.words.answer_index).guesses_outside_source,
        run_bench(tiny, DetourSolver, Settings(), tiny.words.answer_index).games_outside_source)
    assert data[detour]["outside"] > 0 and data["greedy"]["outside"] == 0
    caption = plot_histograms(data, tmp_path / "h.png").figure.texts[-1].get_text().replace("\n", " ")
    n, g = data[detour]["outside"], data[detour]["outside_games"]
    assert f"{detour} played {n} guess{'es' if n > 1 else ''} in {g} game{'s' if g > 1 else ''} outside " \
           "guess_from=candidates" in caption
    assert "greedy played" not in caption
