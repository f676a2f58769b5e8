"""Counts in printed text take the singular for one: "1 game", "2 games"."""

from __future__ import annotations

from evo_wordle.cli import main
from evo_wordle.split import split_answers
from evo_wordle.wording import count, plural


def test_count_and_plural():
    assert [count(n, "trial") for n in (0, 1, 2)] == ["0 trials", "1 trial", "2 trials"]
    assert count(1, "guess", "guesses") == "1 guess" and count(3, "guess", "guesses") == "3 guesses"
    assert count(2309, "game", fmt=",") == "2,309 games" and plural(1.0, "seed") == "seed"


def test_one_test_answer_and_one_game_are_singular(cache_dir, capsys):
    import numpy as np

    assert split_answers(np.arange(4), 0, train=2, validation=1).describe().endswith("test 1 answer")
    assert main(["compare", "--solvers", "greedy,naive", "--games", "1"]) == 0
    assert capsys.readouterr().out.startswith("1 game, seed 0")
