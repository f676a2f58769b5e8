"""Context from Python word sequences: the checks of list files, WordSet checks, six letters."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from evo_wordle import Context, EvoWordleError, WordSet, load_words
from evo_wordle.bench import run_bench
from evo_wordle.game import Settings
from evo_wordle.solvers import make_solver

SIX = ["planet", "plants", "stripe", "string", "strong", "plains", "ponder", "wander", "winter", "sprint",
       "spring", "sprain", "strain", "trains", "grains", "brains"]


@pytest.mark.parametrize(
    "bad, message",
    [
        (["crane", "crane"], "duplicate word: 'crane'"),
        (["crane", "cranes"], "mixes word lengths"),
        (["cr4ne"], "non-letter word"),
        ([], "is empty"),
        (["crane", 7], "non-string entry"),
        (["crane", " "], "empty word"),
    ],
)
def test_sequences_get_the_checks_of_files(tmp_path, bad, message):
    with pytest.raises(EvoWordleError, match=message):
        Context(allowed=bad)
    with pytest.raises(EvoWordleError, match=message):
        WordSet(tuple(bad), tuple(bad[:1]))
    if bad and all(isinstance(w, str) and w.strip() for w in bad):  # blank lines in a file are skipped
        path = tmp_path / "list.txt"
        path.write_text("\n".join(bad) + "\n")
        with pytest.raises(EvoWordleError, match=message):
            Context(allowed=str(path))


def test_sequence_and_file_give_the_same_words(tmp_path):
    path = tmp_path / "six.txt"
    path.write_text("\n".join(SIX) + "\n")
    assert Context(allowed=SIX).words.allowed == Context(allowed=str(path)).words.allowed == tuple(sorted(SIX))
    words = load_words(SIX, ["planet", "winter"])
    assert words.answers == ("planet", "winter") and words.length == 6
    with pytest.raises(EvoWordleError, match="not in the allowed list"):
        load_words(SIX, ["zzzzzz"])
    with pytest.raises(EvoWordleError, match="either"):
        Context(allowed=SIX, words=words)


def test_wordset_is_subscriptable_and_sorted():
    ws = WordSet(("wander", "planet"), ("planet",))
    assert ws.allowed == ("planet", "wander") and ws[1] == "wander" and ws[np.array([1, 0])] == ["wander", "planet"]
    assert list(ws) == ["planet", "wander"] and ws[:1] == ["planet"]


def test_six_letter_ga_opens_with_the_best_entropy_word(ctx):
    six = Context(allowed=SIX)
    ga = make_solver("ga", six, Settings(), population=12)
    bits = six.entropy(six.all_words)
    best = six.words.allowed[int(np.argmax(bits))]
    assert ga.describe()["opener"] == best
    assert ctx.words.length == 5 and make_solver("ga", ctx, Settings()).describe()["opener"] == "tales"
    result = run_bench(six, "ga", Settings(), seed=0, solver_params={"population": 12})
    assert result.games == len(SIX) and all(r.guesses[0] == six.words.index(best) for r in result.records)
    assert all(r.solved for r in result.records)


def test_a_context_travels_light():
    ctx = Context(allowed=SIX)
    ctx.entropy(["planet"])  # builds the table and memos
    data = pickle.dumps(ctx)
    assert len(data) < 10_000
    back = pickle.loads(data)
    assert back.words == ctx.words and np.array_equal(back.entropy(["planet"]), ctx.entropy(["planet"]))
