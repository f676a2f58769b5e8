"""Feedback patterns: exact Wordle colouring, the 0…3^L−1 code, and its text forms.

A pattern is an integer whose base-3 digits, leftmost letter most significant, are
grey 0 / yellow 1 / green 2, so an all-green 5-letter row is 242.
"""

from __future__ import annotations

import numbers
from collections import Counter

import numpy as np

from .errors import EvoWordleError

GREY, YELLOW, GREEN = 0, 1, 2
_LETTER_TRIT = {"b": 0, "x": 0, "-": 0, ".": 0, "w": 0, "y": 1, "g": 2, "0": 0, "1": 1, "2": 2}
_EMOJI_TRIT = {"⬛": 0, "⬜": 0, "🟨": 1, "🟦": 1, "🟩": 2, "🟧": 2}
_EMOJI_OUT = {0: "⬛", 1: "🟨", 2: "🟩"}
_ANSI_BG = {0: "\x1b[1;97;100m", 1: "\x1b[1;30;43m", 2: "\x1b[1;97;42m"}


def check_word(word: str, length: int = 5) -> str:
    """``word`` lowercased, or a clear error if it is not ``length`` ASCII letters."""
    w = word.strip().lower()
    if len(w) != length or not (w.isascii() and w.isalpha()):
        raise EvoWordleError(f"{word!r} is not a {length}-letter word")
    return w


def score(guess: str, answer: str) -> int:
    """The pattern for ``guess`` against ``answer``: greens first, then yellows left to right,
    each answer letter used at most once."""
    if len(guess) != len(answer):
        raise EvoWordleError(f"{guess!r} and {answer!r} have different lengths")
    trits = [GREY] * len(guess)
    unused: Counter[str] = Counter()
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            trits[i] = GREEN
        else:
            unused[a] += 1
    for i, g in enumerate(guess):
        if trits[i] != GREEN and unused[g] > 0:
            trits[i] = YELLOW
            unused[g] -= 1
    return encode(trits)


def encode(trits: list[int] | tuple[int, ...]) -> int:
    """The pattern code of trits (grey 0, yellow 1, green 2), leftmost letter most significant."""
    code = 0
    for t in trits:
        code = code * 3 + t
    return code


def check_code(code, length: int = 5) -> int:
    """``code`` as a plain int if it is a whole number (a numpy integer too, never a bool) from 0
    to 3^length − 1, a feedback pattern; else the one-line error (text is read by :func:`parse`)."""
    if isinstance(code, str):
        raise EvoWordleError(f"pattern code {code!r} is text, not a code: pass patterns.parse({code!r})")
    if isinstance(code, bool | np.bool_) or not isinstance(code, numbers.Integral):
        raise EvoWordleError(f"pattern code {code!r} is not a whole number")
    top = 3**length - 1
    if not 0 <= code <= top:
        raise EvoWordleError(f"pattern code {code} is outside 0 … {top} (the codes for {length} letters)")
    return int(code)


def decode(code: int, length: int = 5) -> list[int]:
    """Trits of ``code``, leftmost letter first."""
    if not 0 <= code < 3**length:
        raise EvoWordleError(f"pattern code {code} is out of range for {length} letters")
    out = []
    for _ in range(length):
        code, t = divmod(code, 3)
        out.append(t)
    return out[::-1]


def parse(text: str, length: int = 5) -> int:
    """Read ``20110``, ``GYBBY`` (B/X/./- grey) or pasted emoji (🟩🟨⬛⬜) into a code."""
    raw = "".join(text.split())
    chars = [c for c in raw if c != "\ufe0f"]  # variation selectors ride along with emoji
    try:
        if any(c in _EMOJI_TRIT for c in chars):
            trits = [_EMOJI_TRIT[c] for c in chars]
        else:
            trits = [_LETTER_TRIT[c.lower()] for c in chars]
    except KeyError:
        raise EvoWordleError(
            f"cannot read pattern {text!r}: use digits 0/1/2, letters G/Y/B or 🟩🟨⬛"
        ) from None
    if len(trits) != length:
        raise EvoWordleError(f"pattern {text!r} has {len(trits)} tiles, expected {length}")
    return encode(trits)


def to_digits(code: int, length: int = 5) -> str:
    """A pattern code as digits, e.g. ``20110``."""
    return "".join(str(t) for t in decode(code, length))


def to_letters(code: int, length: int = 5) -> str:
    """A pattern code as letters B/Y/G, e.g. ``GBYYB``."""
    return "".join("BYG"[t] for t in decode(code, length))


def to_emoji(code: int, length: int = 5) -> str:
    """A pattern code as emoji squares."""
    return "".join(_EMOJI_OUT[t] for t in decode(code, length))


#: Printed once above tiles shown without colour (piped output), so ``RY AB`` cannot be misread.
PLAIN_LEGEND = "tiles: letter + G green (right spot), Y yellow (in the word, elsewhere), B grey (not in the word)"


def tiles(guess: str, code: int, color: bool = True) -> str:
    """The guess as coloured terminal tiles (ANSI), or ``G Y B`` letters when colour is off."""
    trits = decode(code, len(guess))
    if not color:
        return " ".join(f"{c.upper()}{'BYG'[t]}" for c, t in zip(guess, trits))
    return "".join(f"{_ANSI_BG[t]} {c.upper()} \x1b[0m" for c, t in zip(guess, trits))
