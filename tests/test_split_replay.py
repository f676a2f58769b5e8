"""``bench``/``compare --split PART`` (issue 12: figures on answers a strategy never saw): the part
of a replayed file's recorded train/validation/test split, the file's own board sets for several
boards, and a warning whenever the puzzles include answers the file was trained or selected on."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import file_sets, file_test_sets
from evo_wordle.split import Split, recorded_split, split_answers
from evo_wordle.tune import load_params

ROOT = Path(__file__).resolve().parents[1]
P0 = ROOT / "data" / "strategies" / "p0-strict.json"
DORDLE = ROOT / "data" / "strategies" / "dordle-evolved.json"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def played(path: Path) -> list[str]:
    with open(path, newline="") as fh:
        return [row["answer"] for row in csv.DictReader(fh)]


def p0_split(ctx) -> Split:
    return recorded_split(json.loads(P0.read_text())["provenance"]["split"], ctx.words)


def test_a_recorded_split_is_rebuilt_from_its_words_or_from_its_seed_and_sizes(ctx):
    split = p0_split(ctx)
    assert split.sizes() == {"train": 800, "validation": 500, "test": 1009} and split.seed == 3
    assert len(np.unique(np.concatenate([split.train, split.validation, split.test]))) == 2309
    again = recorded_split(split.as_dict(ctx.words.allowed), ctx.words)  # written and read back
    parts = ("train", "validation", "test")
    assert again.seed == 3 and all(np.array_equal(again.part(p), split.part(p)) for p in parts)
    tuned = recorded_split({"seed": 5, "train": 924, "validation": 577, "test": 808}, ctx.words)  # what tune records
    expected = split_answers(ctx.words.answer_index, 5)
    for part in ("train", "validation", "test"):
        assert np.array_equal(tuned.part(part), expected.part(part))
    assert recorded_split(None, ctx.words) is None
    top = {"seed": 2**63 - 1, "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]}
    assert recorded_split(top, ctx.words).seed == 2**63 - 1  # the largest seed a flag takes


@pytest.mark.parametrize("record, message", [
    ({"seed": 1, "train": ["cigar"], "validation": ["cigar"], "test": ["rebut"]},
     "provenance.split of the file has parts that overlap"),
    ({"seed": 1, "train": ["cigar"], "validation": ["zzzzz"], "test": ["rebut"]},
     "provenance.split.validation of the file: 'zzzzz' is not an allowed word"),
    ({"seed": 1, "train": ["cigar"], "validation": [5], "test": ["rebut"]},
     "provenance.split.validation of the file: 5 is not a word (a string of 5 letters)"),
    ({"train": 10, "validation": 10, "test": 10}, "provenance.split of the file lacks seed"),
    ({"seed": 1, "train": 10, "validation": 10}, "provenance.split of the file lacks test"),
    ({"seed": [1], "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]},  # was int()'s own message
     "provenance.split.seed of the file must be a whole number ≥ 0, not [1]"),
    ({"seed": "1", "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]},
     "provenance.split.seed of the file must be a whole number ≥ 0, not '1'"),
    ({"seed": 1.5, "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]},  # was rounded down
     "provenance.split.seed of the file must be a whole number ≥ 0, not 1.5"),
    ({"seed": -1, "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]},
     "provenance.split.seed of the file must be a whole number ≥ 0, not -1"),
    ({"seed": 2**63, "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]},  # blamed on --seed
     "provenance.split.seed of the file must be at most 9223372036854775807, not 9223372036854775808"),
    ({"seed": True, "train": 10, "validation": 10, "test": 10},
     "provenance.split.seed of the file must be a whole number ≥ 0, not True"),
    ({"seed": 1, "train": "x", "validation": 10, "test": 10},  # was int()'s own message
     "provenance.split.train of the file must be a whole number ≥ 1, not 'x'"),
    ({"seed": 1, "train": 10.5, "validation": 10, "test": 10},
     "provenance.split.train of the file must be a whole number ≥ 1, not 10.5"),
    ({"seed": 1, "train": 10, "validation": 0, "test": 10},
     "provenance.split.validation of the file must be a whole number ≥ 1, not 0"),
    ({"seed": 1, "train": 10, "validation": 10, "test": 5000},
     "provenance.split of the file: train 10 + validation 10 + test 5000 exceed the 2309 answers"),
    ({"seed": 1, "train": ["cigar"], "validation": 10, "test": ["rebut"]},  # words and sizes mixed
     "provenance.split.validation of the file must be a non-empty list of words"),
    ({"seed": 1, "train": ["cigar"], "validation": [], "test": ["rebut"]},
     "provenance.split.validation of the file must be a non-empty list of words"),
    ("3", "provenance.split of the file must be an object (seed, train, validation, test), not str"),
    ([], "provenance.split of the file must be an object (seed, train, validation, test), not list"),
])
def test_a_bad_recorded_split_is_a_clear_error(ctx, record, message):
    with pytest.raises(EvoWordleError) as err:
        recorded_split(record, ctx.words)
    assert str(err.value) == message
    with pytest.raises(EvoWordleError) as err:
        recorded_split(record, ctx.words, "strategy file s.json")
    assert str(err.value) == message.replace("the file", "strategy file s.json")


def test_a_recorded_split_of_numpy_numbers_is_read(ctx):
    """JSON gives ints; a split built in Python may hold numpy integers, which are whole numbers too."""
    got = recorded_split({"seed": np.int64(5), "train": np.int32(924), "validation": 577, "test": 808}, ctx.words)
    assert got.seed == 5 and type(got.seed) is int and got.sizes() == {"train": 924, "validation": 577, "test": 808}


def test_split_test_plays_only_answers_the_strategy_never_saw(ctx, capsys, tmp_path):
    split = p0_split(ctx)
    out = tmp_path / "games.csv"
    code, text, err = run(capsys, "bench", "--strategy", str(P0), "--split", "test", "--games", "40",
                          "--csv", str(out), "--json", "--quiet")
    assert code == 0 and err == f"wrote {out}\n"  # nothing seen before: no warning
    summary = json.loads(text)
    assert summary["settings"]["split"] == "test" and summary["settings"]["split_seed"] == 3
    words = played(out)
    assert len(words) == 40 and set(ctx.words.indices(words)) <= set(split.test.tolist())
    code, text, err = run(capsys, "bench", "--strategy", str(P0), "--split", "validation", "--games", "40",
                          "--csv", str(out), "--quiet")
    assert code == 0 and "the validation part (500 answers) of the file's split, seed 3" in text
    assert set(ctx.words.indices(played(out))) <= set(split.validation.tolist())


def test_answers_it_was_trained_or_selected_on_are_counted_in_a_warning(ctx, capsys, tmp_path):
    split = p0_split(ctx)
    out = tmp_path / "games.csv"
    code, _, err = run(capsys, "bench", "--strategy", str(P0), "--games", "60", "--csv", str(out), "--quiet")
    seen = int(np.isin(ctx.words.indices(played(out)), np.concatenate([split.train, split.validation])).sum())
    assert code == 0 and 0 < seen < 60
    assert err.count("\n") == 1 and f"was trained or selected on answers in {seen} of these 60 answers" in err
    assert "--split test plays only the 1009 answers it never saw" in err
    code, _, err = run(capsys, "bench", "--strategy", "p0-ga-genes", "--games", "5", "--quiet")
    assert code == 0 and "records no train/validation/test split" in err and err.count("\n") == 1


def test_compare_plays_every_row_on_the_same_held_out_answers(ctx, capsys):
    code, text, err = run(capsys, "compare", "--solvers", "greedy,strategy", "--strategy", str(P0), "--split", "test",
                          "--games", "30", "--json", "--quiet")
    assert code == 0 and err == ""
    rows = json.loads(text)
    assert {r["settings"]["split"] for r in rows} == {"test"} and {r["games"] for r in rows} == {30}
    code, text, _ = run(capsys, "compare", "--solvers", "greedy,strategy", "--strategy", str(P0), "--split", "test",
                        "--games", "30", "--quiet")
    assert text.splitlines()[0].startswith("30 games, seed 0, answers nyt (test part of the file's split)")


def test_several_boards_replay_the_files_own_sets_of_that_part(ctx, capsys, tmp_path):
    doc = load_params(DORDLE)
    # the recorded validation fitness is the evolved genes' own, before the lookahead the file adds
    genes = {k: v for k, v in doc["params"].items() if k != "rollout"}
    plain = tmp_path / "dordle-genes.json"
    plain.write_text(json.dumps({**doc, "params": genes}))
    code, text, err = run(capsys, "bench", "--strategy", str(plain), "--split", "validation",
                          "--repeat", "3", "--json", "--quiet")
    assert code == 0 and err == ""
    summary = json.loads(text)
    assert summary["games"] == 1000 and summary["settings"]["split_recorded_sets"] is True
    assert "repeat" not in summary["settings"]  # the same sets and a deterministic policy: one run
    validation = doc["provenance"]["fitness"]["validation"]  # recorded to 3 decimals
    assert summary["mean_guesses"] == pytest.approx(validation, abs=5e-4)
    assert file_sets(ctx, doc, "validation").shape == (1000, 2)
    assert np.array_equal(file_sets(ctx, doc, "test"), file_test_sets(ctx, doc))
    out = tmp_path / "sets.csv"
    code, _, err = run(capsys, "bench", "--strategy", "dordle-evolved", "--split", "train", "--games", "25",
                       "--csv", str(out), "--quiet")
    train = set(doc["provenance"]["split"]["train"])
    boards = [set(row.split("+")) for row in played(out)]
    assert code == 0 and len(boards) == 25 and all(b <= train for b in boards)


@pytest.mark.parametrize("argv, why", [
    (["--solver", "greedy"], "give the file with --strategy"),
    (["--strategy", "answers-known-salet"], "answers-known-salet.json records none"),
])
def test_split_without_a_recorded_split_is_refused_in_one_line(capsys, argv, why):
    code, out, err = run(capsys, "bench", *argv, "--split", "test", "--games", "3", "--quiet")
    assert code == 2 and out == "" and err.count("\n") == 1 and why in err


def _tuned_file(ctx, tmp_path) -> Path:
    """A parameter file as ``tune`` writes it: its split recorded as a seed and part sizes of the NYT answers."""
    from evo_wordle.artefacts import PARAMS_FORMAT, made_for
    from evo_wordle.game import Settings

    path = tmp_path / "best-params.json"
    path.write_text(json.dumps({
        "format": PARAMS_FORMAT, "version": 1, "solver": "naive", "params": {"opener": "tares"},
        "settings": {k: v for k, v in made_for(Settings(), ctx.words).items() if k in Settings().as_dict()},
        "made_for": made_for(Settings(), ctx.words),
        "provenance": {"split": {"seed": 0, "train": 924, "validation": 577, "test": 808}}}))
    return path


def test_split_on_other_answers_than_the_files_is_refused_not_rebuilt(ctx, capsys, tmp_path):
    """A seed-and-sizes split rebuilt on the 2,315 original answers is another split (most of its
    'test' answers were trained on): --split with other lists is refused, and a plain replay on them
    neither fails on the split nor counts 'seen' answers from a split that is not the file's."""
    path = _tuned_file(ctx, tmp_path)
    code, _, err = run(capsys, "bench", "--params", str(path), "--split", "test", "--games", "5", "--quiet")
    assert code == 0 and err == ""
    code, out, err = run(capsys, "bench", "--params", str(path), "--answers", "original", "--split", "test",
                         "--games", "5", "--quiet", "--other-lists")
    assert code == 2 and out == "" and "--split" in err.splitlines()[-1] and "original" in err.splitlines()[-1]
    code, out, err = run(capsys, "bench", "--params", str(path), "--answers", "original", "--games", "5", "--quiet",
                         "--other-lists")
    assert code == 0 and "trained or selected" not in err and "differs" in err and err.count("\n") == 1
    small = tmp_path / "small.txt"
    small.write_text("\n".join(ctx.words.answers[:50]) + "\n")
    code, out, err = run(capsys, "bench", "--params", str(path), "--answers", str(small), "--games", "5", "--quiet",
                         "--other-lists")
    assert code == 0 and "mean guesses" in out and "unusable" not in err
