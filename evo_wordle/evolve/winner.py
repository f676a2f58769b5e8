"""How an evolve-strategy run chooses its winner on the validation answers or sets.

Kept apart from the meta-GA (which loads DEAP) so the command line can offer the choices
without importing it at start-up: one list that ``--select`` and ``EvolveConfig.select`` share.
"""

from __future__ import annotations

#: ``hall``: the final hall of fame's best on validation (the rule of every run before --select);
#: ``validated``: the best on validation of every genome scored there.
SELECT_RULES = ("hall", "validated")
