"""Rules of the GA's operator adapter (evo_wordle/ga/adapter.py), on a stand-in toolbox of
ten words: a word index is whole and in 0..n−1 on both routes (vectorised and DEAP-style), a
vectorised result is checked for its shape and count, a DEAP-style evaluate is called once per
distinct word, short selections repeat in order, ``describe`` names only replaced operators with
their scalar arguments, and only ``mate``/``mutate`` refuse DEAP's position operators."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import pytest
from deap import base, tools

from evo_wordle.errors import EvoWordleError
from evo_wordle.ga import adapter
from evo_wordle.ga.creator import individual

N = 10  # words the stand-in toolbox plays with


def toolbox(**ops) -> base.Toolbox:
    tb = adapter.WordToolbox()
    tb.state = SimpleNamespace(ctx=SimpleNamespace(words=range(N)))
    for alias, fn in ops.items():
        tb.register(alias, fn)
    return tb


WORDS = np.array([1, 4, 4, 9], dtype=np.int64)
FIT = np.array([1.0, 2.0, 2.0, 3.0])


def run(alias: str, tb) -> np.ndarray:
    """One call of the adapter for ``alias`` on WORDS."""
    if alias == "select":
        return adapter.select(tb, WORDS, 3, FIT)
    if alias == "choose":
        return np.array([adapter.choose(tb, WORDS, FIT)])
    if alias == "mate":
        return np.concatenate(adapter.mate(tb, WORDS, WORDS[::-1].copy()))
    return adapter.mutate(tb, WORDS)


def deap_op(alias: str, word: int):
    """A DEAP-style operator of ``alias`` whose individuals all hold ``word``."""
    if alias in ("select", "choose"):
        return lambda inds, k: [individual(word) for _ in range(k)]
    if alias == "mate":
        return lambda a, b: (individual(word), individual(word))
    return lambda ind: (individual(word),)


def vec_op(alias: str, word):
    """A vectorised operator of ``alias`` that returns ``word`` for every slot."""
    if alias in ("select", "choose"):
        return adapter.vectorised(lambda w, k, f: np.full(k, word))
    if alias == "mate":
        return adapter.vectorised(lambda a, b: (np.full(len(a), word), np.full(len(b), word)))
    return adapter.vectorised(lambda w: np.full(len(w), word))


@pytest.mark.parametrize("alias", ["select", "choose", "mate", "mutate"])
@pytest.mark.parametrize("make", [deap_op, vec_op], ids=["deap", "vectorised"])
def test_word_indices_from_zero_to_n_minus_one_pass_and_none_beyond(alias, make):
    for word in (0, N - 1):
        out = run(alias, toolbox(**{alias: make(alias, word)}))
        assert out.dtype == np.int64 and set(out.tolist()) == {word}
    for word in (-1, N):
        with pytest.raises(EvoWordleError, match=f"{alias} gave word index {word}, outside 0..{N - 1}$"):
            run(alias, toolbox(**{alias: make(alias, word)}))


@pytest.mark.parametrize("words, named", [([0, N], N), ([5, -1], -1), ([-3, N + 4], -3), ([N - 1, N + 2, 0], N + 2)])
def test_an_out_of_range_vectorised_result_names_a_word_index_outside_the_range(words, named):
    """Among good and bad indices the error names a bad one: a negative one if any, else one past the end."""
    with pytest.raises(EvoWordleError, match=f"^mutate gave word index {named}, outside 0..{N - 1}$"):
        adapter.mutate(toolbox(mutate=adapter.vectorised(lambda w: np.array(words))), np.arange(len(words)))


def test_a_vectorised_result_is_one_row_of_whole_numbers_one_per_word():
    ok = run("mutate", toolbox(mutate=adapter.vectorised(lambda w: w.astype(np.uint16))))
    assert ok.tolist() == WORDS.tolist() and ok.dtype == np.int64
    for bad, why in ((lambda w: w.astype(float), "1-D array of word indices, got float64 of shape \\(4,\\)"),
                     (lambda w: w.reshape(2, 2), "1-D array of word indices, got int64 of shape \\(2, 2\\)"),
                     (lambda w: w > 3, "1-D array of word indices, got bool"),
                     (lambda w: w[:3], "returned 3 words for 4"),
                     (lambda w: np.concatenate([w, w]), "returned 8 words for 4")):
        with pytest.raises(EvoWordleError, match=why):
            run("mutate", toolbox(mutate=adapter.vectorised(bad)))
    with pytest.raises(EvoWordleError, match="returned 3 words for 4"):  # mate checks each child array
        run("mate", toolbox(mate=adapter.vectorised(lambda a, b: (a, b[:3]))))
    empty = np.array([], dtype=np.int64)
    assert adapter.mutate(toolbox(mutate=adapter.vectorised(lambda w: np.array([]))), empty).tolist() == []


def test_a_deap_evaluate_is_called_once_per_distinct_word_and_spread_back():
    calls = []

    def evaluate(ind):
        calls.append(ind[0])
        return (ind[0] * 0.5,)

    words = np.array([7, 3, 7, 3, 0, 7])
    assert adapter.evaluate(toolbox(evaluate=evaluate), words).tolist() == [3.5, 1.5, 3.5, 1.5, 0.0, 3.5]
    assert sorted(calls) == [0, 3, 7]


def test_a_vectorised_evaluate_gives_one_finite_number_per_word():
    words = np.array([2, 5, 5])
    assert adapter.evaluate(toolbox(evaluate=adapter.vectorised(lambda w: [1, 2, 3])), words).tolist() == [1, 2, 3]
    for bad, why in ((lambda w: [1.0, 2.0], "2 fitness values of shape \\(2,\\) for 3 words"),
                     (lambda w: np.ones((3, 1)), "3 fitness values of shape \\(3, 1\\) for 3 words"),
                     (lambda w: ["a", "b", "c"], "must return an array of numbers, got list"),
                     (lambda w: [1.0, -np.inf, np.nan], "evaluate gave a fitness of -inf;")):
        with pytest.raises(EvoWordleError, match=why):
            adapter.evaluate(toolbox(evaluate=adapter.vectorised(bad)), words)
    with pytest.raises(EvoWordleError, match="evaluate gave a fitness of nan"):
        adapter.evaluate(toolbox(evaluate=lambda ind: (float("nan") if ind[0] == 5 else 1.0,)), words)


@pytest.mark.parametrize("vectorised", [False, True])
def test_fewer_parents_than_asked_repeat_in_order_and_none_is_an_error(vectorised):
    pair = [individual(4), individual(9)]
    fn = (adapter.vectorised(lambda w, k, f: np.array([4, 9])) if vectorised else lambda inds, k: pair)
    assert adapter.select(toolbox(select=fn), WORDS, 5, FIT).tolist() == [4, 9, 4, 9, 4]
    none = adapter.vectorised(lambda w, k, f: w[:0]) if vectorised else lambda inds, k: []
    with pytest.raises(EvoWordleError, match="select returned no (words|individuals) \\(asked for 5\\)"):
        adapter.select(toolbox(select=none), WORDS, 5, FIT)


def test_deap_selection_sees_each_word_with_its_fitness_and_choose_asks_for_one():
    seen = []

    def select(inds, k):
        seen.append((k, [(ind[0], ind.fitness.values[0]) for ind in inds]))
        return [max(inds, key=lambda i: i.fitness.values[0])]

    assert adapter.choose(toolbox(choose=select), WORDS, FIT) == 9
    assert seen == [(1, [(1, 1.0), (4, 2.0), (4, 2.0), (9, 3.0)])]


def test_deap_mate_pairs_the_parents_in_order():
    pairs = []

    def mate(a, b):
        pairs.append((a[0], b[0]))
        return b, a

    c1, c2 = adapter.mate(toolbox(mate=mate), np.array([1, 2, 3]), np.array([7, 8, 9]))
    assert pairs == [(1, 7), (2, 8), (3, 9)] and c1.tolist() == [7, 8, 9] and c2.tolist() == [1, 2, 3]
    with pytest.raises(EvoWordleError, match="a DEAP-style mate must return two individuals"):
        adapter.mate(toolbox(mate=lambda a, b: (a,)), np.array([1]), np.array([2]))
    with pytest.raises(EvoWordleError, match="a DEAP-style mutate must return a 1-tuple"):
        adapter.mutate(toolbox(mutate=lambda ind: None), np.array([1]))


def test_the_marker_is_found_through_nested_partials():
    fn = adapter.vectorised(lambda w: w)
    assert adapter.is_vectorised(functools.partial(functools.partial(fn)))
    assert not adapter.is_vectorised(functools.partial(lambda w: w))


def test_only_mate_and_mutate_refuse_deap_position_operators():
    tb = toolbox()
    with pytest.raises(EvoWordleError, match="deap.tools.cxTwoPoint does not work on words"):
        tb.register("mate", functools.partial(tools.cxTwoPoint))
    with pytest.raises(EvoWordleError, match="deap.tools.mutFlipBit does not work on words"):
        tb.register("mutate", tools.mutFlipBit, indpb=0.5)
    tb.register("select", tools.cxTwoPoint)  # no refusal outside mate and mutate

    def cxTwoPoint(a, b):  # a function of the same name outside DEAP is the user's own
        return a, b

    tb.register("mate", cxTwoPoint)
    tb.register("mutate", tools.mutUniformInt, low=0, up=N - 1, indpb=1.0)  # DEAP, but one that fits words
    assert adapter.refusal(tools.cxTwoPoint) and adapter.refusal(cxTwoPoint) is None


def test_describe_names_each_replaced_operator_with_its_scalar_arguments():
    from evo_wordle.ga import toolbox as package_ops

    own = next(getattr(package_ops, n) for n in dir(package_ops)
               if callable(getattr(package_ops, n)) and getattr(getattr(package_ops, n), "__module__", "")
               == "evo_wordle.ga.toolbox")
    tb = toolbox(evaluate=own, mutate=lambda ind: (ind,))
    tb.register("select", tools.selTournament, tournsize=3, fit_attr="fitness", extra=[1])
    tb.register("choose", tools.selBest)
    out = adapter.describe(tb)
    assert set(out) == {"select", "choose", "mutate"}  # the package's own evaluate and the unset mate left out
    assert out["select"] == "deap.tools.selection.selTournament(fit_attr='fitness', tournsize=3)"
    assert out["choose"] == "deap.tools.selection.selBest"
    assert out["mutate"].startswith(f"{__name__}.test_describe_names_each_replaced_operator")
