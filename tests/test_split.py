import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.split import split_answers


def test_parts_are_disjoint_cover_and_rebuild_from_the_seed():
    answers = np.arange(100, 2409, dtype=np.int64)
    s = split_answers(answers, seed=7)
    assert s.sizes() == {"train": 924, "validation": 577, "test": 808}
    joined = np.concatenate([s.train, s.validation, s.test])
    assert len(np.unique(joined)) == len(answers) and set(joined) == set(answers)
    again = split_answers(answers, seed=7)
    for name in ("train", "validation", "test"):
        assert np.array_equal(s.part(name), again.part(name))
        assert np.all(np.diff(s.part(name)) > 0)
    other = split_answers(answers, seed=8)
    assert not np.array_equal(s.train, other.train)
    assert "train 924, validation 577, test 808" in s.describe()


def test_counts_and_rest_and_as_dict():
    s = split_answers(np.arange(10), seed=0, train=3, validation=2, test=4)
    assert s.sizes() == {"train": 3, "validation": 2, "test": 4}
    d = s.as_dict([f"w{i}" for i in range(10)])
    assert d["seed"] == 0 and len(d["test"]) == 4 and all(w.startswith("w") for w in d["train"])


@pytest.mark.parametrize(
    "kwargs, why",
    [(dict(train=9, validation=1), "needs each part"), (dict(train=5, validation=5, test=1), "exceed the 10"),
     (dict(train=1.5), "share must be between 0 and 1"), (dict(train=0.0), "share must be between 0 and 1"),
     (dict(validation=1.0), "share must be between 0 and 1"), (dict(test=-0.5), "share must be between"),
     (dict(train=0), "needs each part"), (dict(seed=-1), "seed must be"), (dict(seed=True), "seed must be"),
     (dict(seed="3"), "seed must be"), (dict(seed=1.0), "seed must be"), (dict(train="x"), "must be a number"),
     (dict(validation=True), "must be a number")],
)
def test_bad_sizes_are_refused(kwargs, why):
    kwargs.setdefault("seed", 0)
    with pytest.raises(EvoWordleError, match=why):
        split_answers(np.arange(10), **kwargs)


def test_a_split_cannot_be_changed_after_it_is_made():
    import dataclasses

    s = split_answers(np.arange(10), seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.seed = 1


def test_unknown_part_and_duplicates():
    with pytest.raises(EvoWordleError):
        split_answers(np.arange(10), 0).part("holdout")
    with pytest.raises(EvoWordleError):
        split_answers(np.array([1, 1, 2, 3]), 0)


def test_the_shipped_files_splits_are_what_their_seeds_rebuild(ctx):
    """The split rule (salt, permutation, part order) is pinned: the shipped evolved files list
    the words of their splits, and the seed they record rebuilds exactly those words."""
    import json
    from pathlib import Path

    from evo_wordle.split import recorded_split

    shipped = Path(__file__).resolve().parents[1] / "data" / "strategies"
    for name, seed, train, validation in (("p0-strict", 3, 800, 500), ("dordle-evolved", 0, 400, 400)):
        record = json.loads((shipped / f"{name}.json").read_text())["provenance"]["split"]
        listed = recorded_split(record, ctx.words)
        rebuilt = split_answers(ctx.words.answer_index, seed, train, validation)
        assert record["seed"] == seed and listed.sizes() == rebuilt.sizes()
        for part in ("train", "validation", "test"):
            assert np.array_equal(listed.part(part), rebuilt.part(part)), (name, part)


def test_a_share_rounds_to_the_nearest_count_and_a_count_is_taken_as_is():
    s = split_answers(np.arange(10), seed=1, train=0.25, validation=0.35)  # 2.5 → 2 (banker's), 3.5 → 4
    assert s.sizes() == {"train": 2, "validation": 4, "test": 4}
    s = split_answers(np.arange(10), seed=1, train=0.26, validation=0.14)  # 2.6 → 3, 1.4 → 1
    assert s.sizes() == {"train": 3, "validation": 1, "test": 6}
    s = split_answers(np.arange(10), seed=1, train=1, validation=1, test=1)  # smallest parts; 7 left out
    assert s.sizes() == {"train": 1, "validation": 1, "test": 1}
    full = split_answers(np.arange(10), seed=1, train=8, validation=1, test=1)  # exactly every answer
    assert sum(full.sizes().values()) == 10
