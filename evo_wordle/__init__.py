"""evo-wordle: genetic algorithms and entropy solvers for Wordle, built on DEAP and numpy.

Data flows one way: words → pattern table → entropy/fitness → solvers → benchmark → plots.
"""

from .context import Context
from .errors import EvoWordleError
from .words import WordSet, load_words

__version__ = "0.1.0"

__all__ = ["Context", "EvoWordleError", "WordSet", "load_words", "__version__"]
