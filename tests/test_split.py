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
    "kwargs",
    [dict(train=9, validation=1), dict(train=5, validation=5, test=1), dict(train=1.5), dict(train=0),
     dict(seed=-1), dict(train="x"), dict(validation=True)],
)
def test_bad_sizes_are_refused(kwargs):
    kwargs.setdefault("seed", 0)
    with pytest.raises(EvoWordleError):
        split_answers(np.arange(10), **kwargs)


def test_unknown_part_and_duplicates():
    with pytest.raises(EvoWordleError):
        split_answers(np.arange(10), 0).part("holdout")
    with pytest.raises(EvoWordleError):
        split_answers(np.array([1, 1, 2, 3]), 0)
