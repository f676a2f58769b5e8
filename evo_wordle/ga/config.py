"""The GA's parameters as one validated dataclass: bad values become one-line user errors."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from ..errors import EvoWordleError
from ..params import as_bool, as_choice, as_float, as_int

INITS = ("random", "best")
SELECTIONS = ("roulette", "tournament", "best")
FITNESSES = ("dynamic", "static", "expected", "first")
CROSSOVERS = ("uniform", "recombine", "weak")
MUTATIONS = ("neighbour", "thesis")
SCOPES = ("all", "consistent")


#: Largest population, generation count, … a GA may ask for (memory grows with it).
MAX_COUNT = 1_000_000


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
        def put(name: str, value) -> None:
            object.__setattr__(self, name, value)

        for name in ("population", "generations_per_guess", "tournament_size", "mutation_tries"):
            put(name, as_int(name, getattr(self, name), 1, MAX_COUNT))
        put("hof_size", as_int("hof_size", self.hof_size, 0, MAX_COUNT))
        put("elite", as_int("elite", self.elite, 0, self.population))
        for name in ("mutation", "crossover_rate"):
            put(name, as_float(name, getattr(self, name), 0.0, 1.0))
        put("pressure", as_float("pressure", self.pressure, 0.0, None))
        for name in ("exclude_guessed", "distinct"):
            put(name, as_bool(name, getattr(self, name)))
        as_choice("init", self.init, INITS)
        as_choice("selection", self.selection, SELECTIONS)
        as_choice("choice", self.choice, SELECTIONS)
        as_choice("fitness", self.fitness, FITNESSES)
        as_choice("crossover", self.crossover, CROSSOVERS)
        as_choice("mutation_kind", self.mutation_kind, MUTATIONS)
        as_choice("mutation_scope", self.mutation_scope, SCOPES)

    def with_(self, **changes) -> GAConfig:
        """A copy with ``changes`` applied (validated; unknown names are an error)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise EvoWordleError(f"unknown GA parameter {sorted(unknown)[0]!r}")
        return replace(self, **changes)

    def as_dict(self) -> dict:
        """The fields by name."""
        return asdict(self)
