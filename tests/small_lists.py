"""Small word lists cut from the bundled ones: contexts small enough for exhaustive tests."""

from __future__ import annotations

from evo_wordle import Context
from evo_wordle.words import WordSet, load_words

#: Rhyming families: many answers that one guess cannot tell apart, so searches must recurse.
IGHT = ["bight", "eight", "fight", "light", "might", "night", "right", "sight", "tight", "wight"]
ATCH = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]


def small_context(label: str, families: list[str], answers: slice, others: slice, n_others: int) -> Context:
    """Answers = ``families`` plus the bundled answers in ``answers``; allowed = those plus the
    first ``n_others`` other bundled words picked by ``others``.  The pattern table is built here."""
    bundled = load_words()
    chosen = sorted(set(families) | set(bundled.answers[answers]))
    extra = [w for w in bundled.allowed[others] if w not in chosen][:n_others]
    ctx = Context(words=WordSet(tuple(sorted(set(chosen) | set(extra))), tuple(chosen), label=label))
    ctx.table  # noqa: B018 - built once, before the tests time anything
    return ctx
