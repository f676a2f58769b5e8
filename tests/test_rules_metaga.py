"""Rule tests for the meta-GA (evo_wordle/evolve/metaga.py), written against expectations spelt
out here: how the winner is chosen on validation (``select``), what a run's configuration
refuses, and what its fingerprint keeps so that older checkpoints resume."""

from __future__ import annotations

import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import SELECT_RULES, EvolveConfig, MetaGA, genome_key
from evo_wordle.game import Settings

KNOWN2 = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7)


def tiny(**kw) -> EvolveConfig:
    base = dict(settings=KNOWN2, train_size=300, holdout_size=300, mu=3, lambda_=3, generations=2, seed=4,
                train_sets=12, holdout_sets=10)
    return EvolveConfig(**{**base, **kw})


@pytest.fixture(scope="module")
def runs(ctx):
    """The same tiny Dordle evolution under both rules (the runs are identical until the choice)."""
    out = {}
    for rule in SELECT_RULES:
        ga = MetaGA(ctx, tiny(select=rule))
        ga.run()
        out[rule] = ga
    return out


def _hall_choice(ga):
    return min(ga.hof, key=lambda ind: (ga.hold_cache[genome_key(ind)], ind.fitness.values[0], genome_key(ind)))


def test_hall_picks_the_hall_of_fames_best_on_validation(runs):
    ga = runs["hall"]
    assert ga.best() == dict(zip(["opener", "weight", "bonus", "late"], _hall_choice(ga)))


def test_validated_runs_equal_hall_runs_until_the_choice(runs):
    a, b = runs["hall"], runs["validated"]
    assert list(a.logbook) == [dict(r, seconds=a.logbook[i]["seconds"]) for i, r in enumerate(b.logbook)]
    assert a.hold_cache.keys() == b.hold_cache.keys()


def test_validated_picks_a_genome_outside_the_hall_when_it_is_best_on_validation(runs):
    """A genome scored on validation in an early generation (planted here with a better validation
    fitness than every hall member) wins under "validated" and is ignored under "hall"."""
    for rule in SELECT_RULES:
        ga = runs[rule]
        winner = _hall_choice(ga)
        planted = ("crane", 0.5, 1.25, 0.0)
        assert planted not in {genome_key(i) for i in ga.hof}
        ga.cache[planted] = 99.0  # worse on training than anything: only validation speaks for it
        ga.hold_cache[planted] = ga.hold_cache[genome_key(winner)] - 0.001
        try:
            chosen = ga.best()
        finally:
            del ga.cache[planted], ga.hold_cache[planted]
        expected = planted if rule == "validated" else tuple(winner)
        assert tuple(chosen.values()) == expected


def test_validated_breaks_ties_on_validation_by_training_fitness_then_key(runs):
    ga = runs["validated"]
    winner = _hall_choice(ga)
    v = ga.hold_cache[genome_key(winner)]
    tied_better_train = ("crane", 0.5, 1.25, 0.0)
    tied_worse_train = ("aaaaa", 0.5, 1.25, 0.0)  # a smaller key, but a worse training fitness
    try:
        ga.cache[tied_better_train], ga.hold_cache[tied_better_train] = winner.fitness.values[0] - 0.01, v
        ga.cache[tied_worse_train], ga.hold_cache[tied_worse_train] = winner.fitness.values[0] + 0.01, v
        assert tuple(ga.best().values()) == tied_better_train
        ga.cache[tied_better_train] = winner.fitness.values[0]  # tied on both: the smaller key
        assert genome_key(winner) > tied_better_train and tuple(ga.best().values()) == tied_better_train
        del ga.cache[tied_better_train], ga.hold_cache[tied_better_train]
        late = ("zzzzz", 0.5, 1.25, 0.0)
        ga.cache[late], ga.hold_cache[late] = winner.fitness.values[0], v
        assert tuple(ga.best().values()) == tuple(winner)  # the hall's own genome has the smaller key
    finally:
        for k in (tied_better_train, tied_worse_train, ("zzzzz", 0.5, 1.25, 0.0)):
            ga.cache.pop(k, None)
            ga.hold_cache.pop(k, None)


def test_select_is_checked_and_recorded_only_when_not_the_old_rule():
    with pytest.raises(EvoWordleError, match="select"):
        tiny(select="best")
    assert "select" not in tiny().fingerprint()  # checkpoints of runs before --select still resume
    assert tiny(select="validated").fingerprint()["select"] == "validated"
    assert SELECT_RULES == ("hall", "validated")


def test_the_command_line_passes_select_to_the_run(tmp_path, capsys, cache_dir):
    """`evolve-strategy --select validated` reaches the run: its checkpoint records the rule (so a
    resume under the other rule is refused), and the default records none."""
    import json

    from evo_wordle.cli import main

    base = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "0", "--mu", "2",
            "--lambda", "1", "--train-sets", "4", "--validation-sets", "3", "--test-sets", "2", "--seed", "3"]
    for extra, expected in ((["--select", "validated"], "validated"), ([], None)):
        ckpt = tmp_path / f"{expected}.ckpt"
        assert main([*base, *extra, "--checkpoint", str(ckpt), "--quiet"]) == 0
        assert json.loads(ckpt.read_text())["config"].get("select") == expected
    capsys.readouterr()
    assert main([*base, "--checkpoint", str(tmp_path / "None.ckpt"), "--resume", "--select", "validated"]) == 2
    assert "different settings" in capsys.readouterr().err
