"""Counts in printed text: "1 trial", "2 trials" (a count of one never takes the plural)."""

from __future__ import annotations


def plural(n: int | float, noun: str, nouns: str | None = None) -> str:
    """``noun`` for a count of one, else ``nouns`` (default: ``noun`` + "s")."""
    return noun if n == 1 else (nouns or noun + "s")


def count(n: int | float, noun: str, nouns: str | None = None, fmt: str = "") -> str:
    """``n`` (formatted with ``fmt``, e.g. "," for thousands) and its noun: ``count(1, "game")``
    is "1 game", ``count(2309, "game", fmt=",")`` "2,309 games"."""
    return f"{n:{fmt}} {plural(n, noun, nouns)}"


def unit(boards: int, short: bool = False) -> str:
    """What one played unit is called: a "game" of one board, a "board set" of several (N answers
    played together), so output never counts a Quordle run's sets as games; ``short``: "set",
    where a column is narrow."""
    return "game" if int(boards or 1) == 1 else "set" if short else "board set"
