"""Typed parameters, converted and checked in one place for the CLI, sweeps and the Python API.

Every number, flag or choice a user gives (a command-line option, a ``--set key=value`` of a
sweep, an argument of a public function) goes through these functions, so the same bad value
gets the same one-line :class:`~evo_wordle.errors.EvoWordleError` wherever it comes from:
no NaN or infinite float, no ``2.5`` guesses, no ``hard=maybe``, no negative seed.
"""

from __future__ import annotations

import argparse
import math
import numbers
from collections.abc import Callable, Iterable

import numpy as np

from .errors import EvoWordleError

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _label(name: str) -> str:
    """``max_guesses`` → ``--max-guesses`` (names already spelled as flags stay as they are)."""
    return name if name.startswith("-") or " " in name else "--" + name.replace("_", "-")


def _number(name: str, value, kind: type, abstract: type, what: str, text: bool):
    """``value`` as ``kind`` if it is an ``abstract`` number (never a bool), or, with ``text``,
    a string spelling one; else the one-line error naming ``what`` was expected."""
    if isinstance(value, str) and text:
        spelled = value.strip()
        try:
            return kind(spelled)
        except ValueError:
            raise EvoWordleError(f"{_label(name)} must be {what}, not {spelled!r}") from None
    if isinstance(value, bool) or not isinstance(value, abstract):
        raise EvoWordleError(f"{_label(name)} must be {what}, not {value!r}")
    return kind(value)


def as_int(name: str, value, lo: int | None = None, hi: int | None = None, *, text: bool = False) -> int:
    """A whole number in [lo, hi] (``2.5``, ``True`` refused); with ``text``, also a string
    spelling one (command-line values)."""
    value = _number(name, value, int, numbers.Integral, "a whole number", text)
    _check_range(name, value, lo, hi)
    return value


def as_float(name: str, value, lo: float | None = None, hi: float | None = None, *, text: bool = False) -> float:
    """A finite number in [lo, hi] (``nan``, ``inf``, ``True`` refused); with ``text``, also a
    string spelling one."""
    value = _number(name, value, float, numbers.Real, "a number", text)
    if not math.isfinite(value):
        raise EvoWordleError(f"{_label(name)} must be a finite number, not {value}")
    _check_range(name, value, lo, hi)
    return value


def _check_range(name: str, value, lo, hi) -> None:
    if lo is not None and hi is not None and not lo <= value <= hi:
        raise EvoWordleError(f"{_label(name)} must be between {lo} and {hi}, not {value}")
    if lo is not None and value < lo:
        raise EvoWordleError(f"{_label(name)} must be at least {lo}, not {value}")
    if hi is not None and value > hi:
        raise EvoWordleError(f"{_label(name)} must be at most {hi}, not {value}")


def as_bool(name: str, value, *, text: bool = False) -> bool:
    """True or False; with ``text``, also true/false/yes/no/on/off/1/0 (``maybe`` refused)."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if text and isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise EvoWordleError(f"{_label(name)} must be true or false, not {value!r}")


def as_choice(name: str, value, choices: Iterable[str]) -> str:
    """One of ``choices`` (exact spelling)."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise EvoWordleError(f"{_label(name)} must be one of {', '.join(choices)}, not {value!r}")
    return value


def as_word(name: str, value, words) -> int | None:
    """The index in ``words`` (a :class:`~evo_wordle.words.WordSet`) of a word parameter such as
    an opener: None or ``""`` for none (the solver's own choice), else an allowed word (``5``,
    ``b"tales"`` refused)."""
    if value is None or isinstance(value, str) and value == "":
        return None
    if not isinstance(value, str):
        raise EvoWordleError(f"{_label(name)} must be a word, not {value!r}")
    return words.index(value)


def as_file_name(name: str, value, *, text: bool = False) -> str:
    """The name of a file to read: a non-empty string (``""`` read as no flag at all, or as the
    current folder, is refused; ``text`` is accepted for :func:`arg_type`)."""
    if not isinstance(value, str) or not value:
        raise EvoWordleError(f"{_label(name)} must name a file, not {value!r}")
    return value


def as_folder_name(name: str, value, *, text: bool = False) -> str:
    """The name of a folder to read (a sweep's): a non-empty string (``""`` is ``Path(".")``,
    which read the current folder as if it had been named; ``text`` is accepted for :func:`arg_type`)."""
    if not isinstance(value, str) or not value:
        raise EvoWordleError(f"{_label(name)} must name a folder, not {value!r}")
    return value


def as_seed(name: str, value, *, text: bool = False) -> int:
    """A seed: a whole number from 0 to 2**63 - 1 (numpy's SeedSequence refuses negatives)."""
    value = as_int(name, value, text=text)
    if not 0 <= value < 2**63:
        raise EvoWordleError(f"{_label(name)} must be a whole number from 0 to 2**63 - 1, not {value}")
    return value


def as_list(name: str, value, *, text: bool = True, sep: str = ",", what: str | None = None,
            item: str = "value") -> list[str]:
    """The items of a ``sep``-separated list, stripped (``10,100`` → ["10", "100"]).  An empty
    item (``10,``, ``10,,20``, ``,``) is refused: dropping it silently would run a grid or a
    search the user did not write, and keeping it would pass ``""`` on as a value.  ``what``
    is the whole text the user wrote when the list is part of it (``games=10,`` of ``--set``):
    the error quotes that, and calls each element an ``item`` (value, choice)."""
    if not isinstance(value, str):
        raise EvoWordleError(f"{_label(name)} must be a list of values separated by {sep!r}, not {value!r}")
    items = [part.strip() for part in value.split(sep)]
    if all(items):
        return items
    if what is not None:
        raise EvoWordleError(f"{_label(name)} {what!r} has an empty {item}: separate {item}s by single {sep!r}, "
                             "with none at the end")
    expected = "a value" if not value.strip() else f"values separated by single {sep!r} with no empty item"
    raise EvoWordleError(f"{_label(name)} must be {expected}, not {value!r}")


def arg_type(convert: Callable, *bounds, name: str = "value") -> Callable[[str], object]:
    """An argparse ``type=`` from a converter: argparse reports its message as a usage error."""

    def parse(spelled: str):
        try:
            return convert(name, spelled, *bounds, text=True)
        except EvoWordleError as exc:
            message = str(exc)
            prefix = f"{_label(name)} must"
            raise argparse.ArgumentTypeError(message.replace(prefix, "must", 1)) from None

    parse.__name__ = getattr(convert, "__name__", "value").removeprefix("as_")
    return parse
