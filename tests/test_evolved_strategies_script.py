"""experiments/evolved_strategies.py's figure captions: the game and word-list sizes of each
panel come from the strategy file's own ``made_for`` block, never from typed-in numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from evo_wordle.evolve.strategy import Strategy, read_strategy_file, save_strategy
from evo_wordle.game import Settings
from evo_wordle.words import load_words

from .experiment_scripts import load_experiment

ROOT = Path(__file__).resolve().parents[1]
STRATS = ROOT / "data" / "strategies"
KNOWN = Settings(candidates="answers", guess_from="allowed")


@pytest.fixture(scope="module")
def script():
    return load_experiment("evolved_strategies")


def test_the_shipped_caption_states_the_sizes_of_the_lists_the_files_were_made_for(script):
    p0 = read_strategy_file(STRATS / "p0-evolved.json")
    n, seed = len(p0.provenance["split"]["test"]), p0.provenance["seed"]
    caption = script.hist_caption(STRATS / "p0-evolved.json", STRATS / "answers-known-salet.json", n, seed)
    assert caption.startswith(f"Left: the {n} test answers of split seed {seed} (never seen while evolving), "
                              "12,972 allowed words may be the answer, guesses from any allowed word, normal mode")
    assert caption.endswith("Right: all 2,309 NYT answers, candidates = the answer list, any allowed guess, "
                            "one game each.")


def test_a_caption_for_a_strategy_made_for_another_list_names_that_lists_size(script, tmp_path):
    original = tmp_path / "original.json"
    save_strategy(original, Strategy(), {}, settings=KNOWN.with_(hard=True), words=load_words(answers="original"))
    caption = script.hist_caption(STRATS / "p0-evolved.json", original, 1009, 3)
    assert "Right: all 2,315 original answers, candidates = the answer list, any allowed guess, hard mode" in caption
    assert "2,309" not in caption and "Right: word lists: answers original (sha256 f40e4797)." in caption
    picked = tmp_path / "picked.txt"
    picked.write_text("cigar\nrebut\nsissy\n")
    mine = tmp_path / "mine.json"
    save_strategy(mine, Strategy(), {}, settings=KNOWN, words=load_words(answers=str(picked)))
    caption = script.hist_caption(mine, mine, 1, 0)
    assert "candidates = the 3 picked.txt answers, guesses from any allowed word" in caption
    assert "Right: all 3 picked.txt answers" in caption and "Left: word lists: answers picked.txt (sha256" in caption


def test_a_caption_refuses_a_file_whose_lists_are_gone_or_changed(script, tmp_path):
    picked = tmp_path / "picked.txt"
    picked.write_text("cigar\nrebut\nsissy\n")
    mine = tmp_path / "mine.json"
    save_strategy(mine, Strategy(), {}, settings=KNOWN, words=load_words(answers=str(picked)))
    picked.write_text("cigar\nrebut\n")
    with pytest.raises(ValueError, match="the answer list .* differs from the one it was made for"):
        script.hist_caption(mine, mine, 1, 0)
    picked.unlink()
    with pytest.raises(ValueError, match="made for the answer list .*picked.txt, which is not here"):
        script.hist_caption(mine, mine, 1, 0)
    bare = tmp_path / "bare.json"
    save_strategy(bare, Strategy(), {})
    with pytest.raises(SystemExit, match="no made_for block"):
        script.hist_caption(bare, bare, 1, 0)
