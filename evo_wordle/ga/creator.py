"""DEAP ``creator`` classes for the word GA, created once per process.

DEAP's creator writes classes into its own module namespace and warns when a name is
created twice, so every creation is guarded with ``hasattr``.
"""

from __future__ import annotations

from deap import base, creator


def ensure_classes() -> tuple[type, type]:
    """``creator.WordFitness`` (maximise one value) and ``creator.WordIndividual``.

    A word individual is a one-gene list holding an index into the allowed list.
    """
    if not hasattr(creator, "WordFitness"):
        creator.create("WordFitness", base.Fitness, weights=(1.0,))
    if not hasattr(creator, "WordIndividual"):
        creator.create("WordIndividual", list, fitness=creator.WordFitness)
    return creator.WordFitness, creator.WordIndividual


def individual(word: int, fitness: float | None = None):
    """A DEAP individual for allowed-word index ``word`` (fitness set when given)."""
    _, cls = ensure_classes()
    ind = cls([int(word)])
    if fitness is not None:
        ind.fitness.values = (float(fitness),)
    return ind


ensure_classes()
