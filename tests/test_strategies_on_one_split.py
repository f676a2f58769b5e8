"""experiments/split_compare.py: strategy files sharing one split, compared game by game on a
part (means, standard errors, paired differences with the first), and its refusals, on a small list."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.strategy import Strategy, save_strategy
from evo_wordle.game import Settings
from evo_wordle.split import split_answers
from evo_wordle.stats import paired

from .experiment_scripts import load_experiment
from .small_lists import IGHT, small_context

P0 = Settings(candidates="allowed", guess_from="allowed")


@pytest.fixture(scope="module")
def script():
    return load_experiment("split_compare")


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    return small_context("test-split-compare", IGHT, slice(300, 340), slice(None, None, 151), 40)


def files(tmp_path, small, split_seed=(4, 4), settings=(P0, P0)):
    genomes = [Strategy(opener="sight", k1=0.3), Strategy(opener="light", steepness=0.0, bonus=0.2)]
    paths = []
    for i, (genome, seed, s) in enumerate(zip(genomes, split_seed, settings)):
        split = split_answers(small.words.answer_index, seed, 0.4, 0.2)
        path = tmp_path / f"s{i}.json"
        save_strategy(path, genome, {"split": split.as_dict(small.words.allowed)}, None, s, small.words)
        paths.append(str(path))
    return paths


def test_rows_are_each_files_own_play_and_the_paired_difference_with_the_first(script, small, tmp_path):
    paths = files(tmp_path, small)
    out = script.compare(small, paths, "test")
    split = split_answers(small.words.answer_index, 4, 0.4, 0.2)
    scores = [run_bench(small, "strategy", P0, split.test, 0, {"strategy": p}).scores() for p in paths]
    assert out["part"] == "test" and out["split_seed"] == 4 and len(split.test) > 5
    first, second = out["rows"]
    assert first["mean"] == round(float(scores[0].mean()), 4) and first["first_minus"] is None
    assert first["se"] == round(float(scores[0].std(ddof=1) / np.sqrt(len(scores[0]))), 4)
    d = paired(scores[0], scores[1])
    assert second["first_minus"] == round(d["mean"], 4) and second["first_minus_ci95"] == round(d["ci95"], 4)
    assert (scores[0] != scores[1]).any()  # two genomes that play differently
    assert second["games"] == len(split.test)
    train = script.compare(small, paths, "train")
    assert train["rows"][0]["games"] == len(split.train)


def test_files_that_do_not_play_the_same_game_on_the_same_split_are_refused(script, small, tmp_path):
    with pytest.raises(EvoWordleError, match="records another split"):
        script.compare(small, files(tmp_path, small, split_seed=(4, 5)), "test")
    strict = P0.with_(guess_from="candidates")
    with pytest.raises(EvoWordleError, match="made for another game or other lists"):
        script.compare(small, files(tmp_path, small, settings=(P0, strict)), "test")
    bare = tmp_path / "bare.json"
    save_strategy(bare, Strategy(opener="sight"), {}, None, P0, small.words)
    with pytest.raises(EvoWordleError, match="records no train/validation/test split"):
        script.compare(small, [files(tmp_path, small)[0], str(bare)], "test")
    old = tmp_path / "old.json"
    save_strategy(old, Strategy(opener="sight"))
    with pytest.raises(EvoWordleError, match="records no settings"):
        script.compare(small, [str(old), str(bare)], "test")


def test_one_file_is_refused_in_one_line(script, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["split_compare.py", "p0-plan"])
    with pytest.raises(SystemExit) as stop:
        script.main()
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err == "split_compare.py: give at least two strategy files to compare\n"
