"""Rule tests of evo_wordle.params: every user value goes through these converters, so each
boundary, each accepted spelling and each refusal's exact wording is pinned here (the module's
targeted tests for mutation testing, experiments/mutation.py)."""

from __future__ import annotations

import argparse
import math

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.params import (
    _label,
    arg_type,
    as_bool,
    as_choice,
    as_file_name,
    as_float,
    as_folder_name,
    as_int,
    as_list,
    as_seed,
    as_word,
)


def refused(call, *args, **kwargs) -> str:
    """The one-line message of a refusal (the package's own error, ValueError-compatible)."""
    with pytest.raises(EvoWordleError) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_labels_are_flags():
    assert _label("max_guesses") == "--max-guesses"
    assert _label("seed") == "--seed"
    assert _label("-j") == "-j"  # already a flag
    assert _label("--max_guesses") == "--max_guesses"  # spelled as a flag: kept as written
    assert _label("a list") == "a list"  # words, not a name


def test_as_int_accepts_whole_numbers_and_their_text():
    assert as_int("n", 7) == 7 and type(as_int("n", 7)) is int
    assert type(as_int("n", np.int64(3))) is int
    assert as_int("n", " 12 ", text=True) == 12
    assert as_int("n", "-4", text=True) == -4


@pytest.mark.parametrize("value", [2.5, 2.0, True, False, None, "3", [1]])
def test_as_int_refuses_other_values(value):
    assert refused(as_int, "max_guesses", value) == f"--max-guesses must be a whole number, not {value!r}"


def test_as_int_refuses_text_that_is_no_whole_number():
    assert refused(as_int, "games", " 2.5 ", text=True) == "--games must be a whole number, not '2.5'"
    assert refused(as_int, "games", "", text=True) == "--games must be a whole number, not ''"


def test_int_bounds_are_inclusive_and_worded_by_which_are_given():
    assert as_int("n", 1, 1, 3) == 1 and as_int("n", 3, 1, 3) == 3
    assert refused(as_int, "n", 0, 1, 3) == "--n must be between 1 and 3, not 0"
    assert refused(as_int, "n", 4, 1, 3) == "--n must be between 1 and 3, not 4"
    assert as_int("n", 1, 1) == 1 and as_int("n", 10**9, 1) == 10**9
    assert refused(as_int, "n", 0, 1) == "--n must be at least 1, not 0"
    assert as_int("n", 3, None, 3) == 3 and as_int("n", -10**9, None, 3) == -10**9
    assert refused(as_int, "n", 4, None, 3) == "--n must be at most 3, not 4"
    assert as_int("n", 0, 0, 0) == 0


def test_as_float_accepts_finite_numbers():
    assert as_float("rate", 0.25) == 0.25
    value = as_float("rate", 2)
    assert value == 2.0 and type(value) is float
    assert as_float("rate", " 1e-3 ", text=True) == 0.001
    assert as_float("rate", 0.0, 0.0, 1.0) == 0.0 and as_float("rate", 1.0, 0.0, 1.0) == 1.0


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_as_float_refuses_non_finite(value):
    assert refused(as_float, "mutation", value) == f"--mutation must be a finite number, not {value}"


def test_as_float_refuses_non_finite_text_and_other_types():
    assert refused(as_float, "mutation", "nan", text=True) == "--mutation must be a finite number, not nan"
    assert refused(as_float, "mutation", "abc", text=True) == "--mutation must be a number, not 'abc'"
    assert refused(as_float, "mutation", True) == "--mutation must be a number, not True"
    assert refused(as_float, "mutation", "0.5") == "--mutation must be a number, not '0.5'"


def test_float_bounds():
    assert refused(as_float, "mutation", 1.5, 0.0, 1.0) == "--mutation must be between 0.0 and 1.0, not 1.5"
    assert refused(as_float, "mutation", -0.1, 0.0) == "--mutation must be at least 0.0, not -0.1"
    assert refused(as_float, "mutation", 0.6, None, 0.5) == "--mutation must be at most 0.5, not 0.6"


def test_as_bool():
    assert as_bool("hard", True) is True and as_bool("hard", False) is False
    assert as_bool("hard", np.bool_(True)) is True and as_bool("hard", np.bool_(False)) is False
    for spelled in ("true", " YES ", "On", "1"):
        assert as_bool("hard", spelled, text=True) is True
    for spelled in ("false", "No ", "OFF", "0"):
        assert as_bool("hard", spelled, text=True) is False
    assert refused(as_bool, "hard", "maybe", text=True) == "--hard must be true or false, not 'maybe'"
    assert refused(as_bool, "hard", "true") == "--hard must be true or false, not 'true'"  # text only when asked
    assert refused(as_bool, "hard", 1) == "--hard must be true or false, not 1"
    assert refused(as_bool, "hard", None, text=True) == "--hard must be true or false, not None"


def test_as_choice():
    assert as_choice("executor", "dask", ["local", "dask"]) == "dask"
    assert refused(as_choice, "executor", "Dask", ("local", "dask")) == \
        "--executor must be one of local, dask, not 'Dask'"
    assert refused(as_choice, "executor", 1, iter(["local"])) == "--executor must be one of local, not 1"


class Words:
    """Just the lookup as_word needs."""

    def index(self, word: str) -> int:
        if word != "tales":
            raise EvoWordleError(f"not a word: {word}")
        return 42


def test_as_word():
    assert as_word("opener", None, Words()) is None
    assert as_word("opener", "", Words()) is None
    assert as_word("opener", "tales", Words()) == 42
    assert refused(as_word, "opener", "zzzzz", Words()) == "not a word: zzzzz"
    assert refused(as_word, "opener", 5, Words()) == "--opener must be a word, not 5"
    assert refused(as_word, "opener", b"tales", Words()) == "--opener must be a word, not b'tales'"


def test_file_and_folder_names():
    assert as_file_name("allowed", "w.txt") == "w.txt"
    assert as_file_name("allowed", "w.txt", text=True) == "w.txt"
    assert refused(as_file_name, "allowed", "") == "--allowed must name a file, not ''"
    assert refused(as_file_name, "allowed", None) == "--allowed must name a file, not None"
    assert as_folder_name("sweep", "out") == "out"
    assert refused(as_folder_name, "sweep", "") == "--sweep must name a folder, not ''"
    assert refused(as_folder_name, "sweep", 3) == "--sweep must name a folder, not 3"


def test_as_seed_bounds():
    assert as_seed("seed", 0) == 0
    assert as_seed("seed", 2**63 - 1) == 2**63 - 1
    assert as_seed("seed", "17", text=True) == 17
    assert refused(as_seed, "seed", -1) == "--seed must be a whole number from 0 to 2**63 - 1, not -1"
    assert refused(as_seed, "seed", 2**63) == f"--seed must be a whole number from 0 to 2**63 - 1, not {2**63}"
    assert refused(as_seed, "seed", 1.0) == "--seed must be a whole number, not 1.0"


def test_as_list_strips_and_splits():
    assert as_list("solvers", "greedy, ga ,naive") == ["greedy", "ga", "naive"]
    assert as_list("grid", "10;20", sep=";") == ["10", "20"]
    assert as_list("grid", "one") == ["one"]


@pytest.mark.parametrize("value", ["10,", "10,,20", ",", ", 10"])
def test_as_list_refuses_an_empty_item(value):
    assert refused(as_list, "solvers", value) == \
        f"--solvers must be values separated by single ',' with no empty item, not {value!r}"


def test_as_list_refuses_nothing_and_non_text():
    assert refused(as_list, "solvers", "") == "--solvers must be a value, not ''"
    assert refused(as_list, "solvers", "  ") == "--solvers must be a value, not '  '"
    assert refused(as_list, "solvers", 3) == "--solvers must be a list of values separated by ',', not 3"
    assert refused(as_list, "set", 3, sep=";") == "--set must be a list of values separated by ';', not 3"


def test_as_list_quotes_the_whole_text_when_given():
    assert refused(as_list, "set", "10,", what="games=10,") == \
        "--set 'games=10,' has an empty value: separate values by single ',', with none at the end"
    assert refused(as_list, "set", "a,,b", what="solver=a,,b", item="choice", sep=",") == \
        "--set 'solver=a,,b' has an empty choice: separate choices by single ',', with none at the end"


def test_arg_type_reports_argparse_errors_without_the_flag():
    parse = arg_type(as_int, 1, 9, name="max_guesses")
    assert parse.__name__ == "int"
    assert parse("5") == 5
    with pytest.raises(argparse.ArgumentTypeError) as info:
        parse("0")
    assert str(info.value) == "must be between 1 and 9, not 0"
    with pytest.raises(argparse.ArgumentTypeError) as info:
        arg_type(as_bool, name="hard")("maybe")
    assert str(info.value) == "must be true or false, not 'maybe'"
    assert arg_type(as_float)("0.5") == 0.5
    assert arg_type(as_float).__name__ == "float"
    with pytest.raises(argparse.ArgumentTypeError) as info:
        arg_type(as_float)("x")
    assert str(info.value) == "must be a number, not 'x'"  # the default name: "--value must" trimmed


def test_arg_type_of_a_list():
    parse = arg_type(as_list, name="solvers")
    assert parse.__name__ == "list"
    assert parse("a, b") == ["a", "b"]
    with pytest.raises(argparse.ArgumentTypeError) as info:
        parse("a,,b")
    assert str(info.value) == "must be values separated by single ',' with no empty item, not 'a,,b'"


def test_arg_type_quotes_the_value_as_given_even_when_it_spells_the_flag():
    parse = arg_type(as_int, name="games")
    with pytest.raises(argparse.ArgumentTypeError) as info:
        parse("--games must")
    assert str(info.value) == "must be a whole number, not '--games must'"


def test_converters_take_their_arguments_by_keyword():
    """The Python API may name every argument (none is positional-only)."""
    assert as_int(name="n", value=3, lo=1, hi=5, text=False) == 3
    assert as_float(name="x", value=0.5, lo=0.0, hi=1.0, text=False) == 0.5
    assert as_bool(name="hard", value="yes", text=True) is True
    assert as_file_name(name="allowed", value="w.txt", text=False) == "w.txt"
    assert as_folder_name(name="sweep", value="out", text=False) == "out"
    assert as_seed(name="seed", value="3", text=True) == 3
    assert as_list(name="solvers", value="a,b", text=True, sep=",", what=None, item="value") == ["a", "b"]


def test_a_seed_is_read_from_text_only_when_asked():
    assert refused(as_seed, "seed", "17") == "--seed must be a whole number, not '17'"
