"""The GA's parameters as one validated dataclass: bad values become one-line user errors."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from ..errors import EvoWordleError

INITS = ("random", "best")
SELECTIONS = ("roulette", "tournament", "best")
FITNESSES = ("dynamic", "static", "expected", "first")
CROSSOVERS = ("uniform", "recombine", "weak")
MUTATIONS = ("neighbour", "thesis")
SCOPES = ("all", "consistent")


def _choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise EvoWordleError(f"--{name.replace('_', '-')} must be one of {', '.join(choices)}, not {value!r}")


@dataclass(frozen=True)
class GAConfig:
    """Everything that defines a word GA (see docs/ga.md for what each knob does).

    ``fitness``: ``dynamic`` = H(X_w | current candidates)·g(r_w), ``static`` = the same over
    the starting candidates computed once (the thesis), ``expected`` = exp(−estimated guesses
    left) from the frequency-weighted entropy and the chance to win now, ``first`` = the thesis's
    first GA (H + 5G + 2A − 2N).  ``crossover``: ``uniform`` draws a random consistent word (the thesis),
    ``recombine`` a consistent word taking each letter from one of the parents, ``weak`` the
    first GA's per-position green/yellow filter.  ``mutation_kind``: ``neighbour`` = uniform over
    allowed one-letter neighbours, ``thesis`` = the thesis's 100 random tries with letters a–y.
    ``distinct`` replaces duplicate children by consistent words not yet in the population
    (random immigrants), so a population at least as large as the candidate set covers it.
    ``selection`` picks the parents, ``choice`` the word played (both with ``pressure`` for
    roulette and ``tournament_size`` for tournaments): changing one leaves the other alone.

    ``GAConfig()``'s defaults are the thesis's GA (``ga-thesis`` without its thesis mutation),
    not the ``ga`` solver's: each solver class starts from its own ``defaults``
    (``evo_wordle.ga.solvers.CardGA.defaults`` for ``ga``: population 300, pressure 50,
    fitness ``expected``, crossover ``recombine`` …; the table in docs/ga.md).  Build the
    ``ga`` solver's configuration with ``GAConfig().with_(**CardGA.defaults)``.
    """

    population: int = 100
    mutation: float = 0.1
    crossover_rate: float = 1.0
    init: str = "random"
    elite: int = 0
    generations_per_guess: int = 1
    selection: str = "roulette"
    choice: str = "roulette"
    pressure: float = 1.0
    fitness: str = "static"
    crossover: str = "uniform"
    tournament_size: int = 3
    mutation_kind: str = "neighbour"
    mutation_scope: str = "all"
    mutation_tries: int = 100
    exclude_guessed: bool = False
    distinct: bool = False
    hof_size: int = 5

    def __post_init__(self) -> None:
        for name in ("population", "elite", "generations_per_guess", "tournament_size", "mutation_tries", "hof_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise EvoWordleError(f"--{name.replace('_', '-')} must be a whole number, not {value!r}")
        if self.population < 1:
            raise EvoWordleError(f"--population must be at least 1, not {self.population}")
        if self.generations_per_guess < 1:
            raise EvoWordleError(f"--generations-per-guess must be at least 1, not {self.generations_per_guess}")
        if not 0 <= self.elite <= self.population:
            raise EvoWordleError(f"--elite must be between 0 and the population ({self.population}), not {self.elite}")
        if self.tournament_size < 1:
            raise EvoWordleError(f"tournament size must be at least 1, not {self.tournament_size}")
        if self.mutation_tries < 1:
            raise EvoWordleError(f"mutation tries must be at least 1, not {self.mutation_tries}")
        if self.hof_size < 0:
            raise EvoWordleError(f"hall-of-fame size must be 0 or more, not {self.hof_size}")
        for name in ("mutation", "crossover_rate"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
                raise EvoWordleError(f"--{name.replace('_', '-')} must be a probability in [0, 1], not {value!r}")
        if not isinstance(self.pressure, int | float) or not 0.0 <= float(self.pressure) < float("inf"):
            raise EvoWordleError(f"--pressure must be a finite number ≥ 0, not {self.pressure!r}")
        _choice("init", self.init, INITS)
        _choice("selection", self.selection, SELECTIONS)
        _choice("choice", self.choice, SELECTIONS)
        _choice("fitness", self.fitness, FITNESSES)
        _choice("crossover", self.crossover, CROSSOVERS)
        _choice("mutation_kind", self.mutation_kind, MUTATIONS)
        _choice("mutation_scope", self.mutation_scope, SCOPES)

    def with_(self, **changes) -> GAConfig:
        """A copy with ``changes`` applied (validated; unknown names are an error)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise EvoWordleError(f"unknown GA parameter {sorted(unknown)[0]!r}")
        return replace(self, **changes)

    def as_dict(self) -> dict:
        """The fields by name."""
        return asdict(self)
