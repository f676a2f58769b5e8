"""Rules of evolve-strategy's checkpoints (evo_wordle/evolve/checkpoint.py), checked against
documents written out here rather than against a run: what a checkpoint file holds, byte for
byte; what a read gives back; and each field's limits, accepted at the limit and refused one
step beyond it, in one line naming the field."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import numpy as np
import pytest

from evo_wordle.artefacts import list_digests
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.checkpoint import read_checkpoint, write_checkpoint
from evo_wordle.evolve.metaga import BOARD_GENE_NAMES, GENE_NAMES
from evo_wordle.words import load_words

WORDS = load_words(["crane", "slate", "trace", "lions", "dough"], ["crane", "slate", "trace"])
CONFIG = {"mu": 2, "seed": 5, "generations": 3, "settings": {"hard": False}}
MU, HOF = 2, 3
#: the largest fitness read: a guess cap of 9 plus a penalty of 1 (every game lost)
WORST = 10.0
#: one genome per name of GENE_NAMES (the one-board genome, hard_candidates last)
GENES = ["crane", 10.0, 0.5, 0.0, 0.25, 0.6, 1.0, 0.0, 2.0, 6.0, 1.0, 1.0, 1.0, 1.0, False]
OTHER = ["slate", 9.0, 0.4, 0.1, 0.2, 0.5, 1, 0.0, 2.0, 5.0, 1.0, 1.0, 1.0, 1.0, True]
#: a genome in no member of the good document (its cached value is free)
THIRD = GENES[:1] + [9.0] + GENES[2:]
PY_RNG = random.Random(3).getstate()
NP_RNG = np.random.default_rng(3).bit_generator.state


def _doc(**fields) -> dict:
    """A good checkpoint document of generation 1 (two population members, a hall of fame of
    two, two logbook records, one cached fitness each), with ``fields`` replaced."""
    assert GENE_NAMES[0] == "opener" and GENE_NAMES[-1] == "hard_candidates" and len(GENE_NAMES) == len(GENES)
    doc = {"format": "evo-wordle-checkpoint", "version": 1, "config": CONFIG, "generation": 1,
           "lists": list_digests(WORDS),
           "population": [[GENES, [4.5]], [OTHER, [4]]], "hof": [[OTHER, [4]], [GENES, [4.5]]],
           "logbook": [{"gen": 0, "best": 4.5}, {"gen": 1, "best": 4}],
           "cache": [[GENES, 4.5], [OTHER, 4]], "hold_cache": [[OTHER, 3.75]],
           "py_rng": [PY_RNG[0], list(PY_RNG[1]), PY_RNG[2]], "np_rng": NP_RNG, "seconds": 12.5}
    return json.loads(json.dumps({**doc, **fields}))


def _read(tmp_path: Path, doc, fingerprint: dict = CONFIG, gene_names=GENE_NAMES, mu: int = MU,
          hof: int = HOF, worst: float = WORST, **kw) -> dict:
    path = tmp_path / "run.ckpt"
    path.write_text(json.dumps(doc))
    return read_checkpoint(path, fingerprint, WORDS, gene_names, mu, hof, worst=worst, **kw)


def _refused(tmp_path: Path, doc, message: str, **kw) -> None:
    path = tmp_path / "run.ckpt"
    with pytest.raises(EvoWordleError, match="^" + re.escape(f"checkpoint {path} {message}") + "$"):
        _read(tmp_path, doc, **kw)


# ------------------------------------------------------------------------------------ writing


def test_a_checkpoint_is_one_line_of_compact_json_format_and_version_first(tmp_path):
    path = tmp_path / "run.ckpt"
    write_checkpoint(path, {"generation": 2, "logbook": [{"gen": 0, "best": 4.5}], "py_rng": [3, [1, 2], None]})
    assert path.read_text() == ('{"format":"evo-wordle-checkpoint","version":1,"generation":2,'
                                '"logbook":[{"gen":0,"best":4.5}],"py_rng":[3,[1,2],null]}\n')


def test_a_checkpoint_is_written_durably(tmp_path, monkeypatch):
    """A checkpoint is all a killed run has: it is synced to disk before it replaces the last one."""
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    write_checkpoint(tmp_path / "run.ckpt", {"generation": 0})
    assert synced


def test_what_is_written_reads_back_as_the_run_state(tmp_path):
    path = tmp_path / "run.ckpt"
    doc = _doc()
    write_checkpoint(path, {k: v for k, v in doc.items() if k not in ("format", "version")})
    st = read_checkpoint(path, CONFIG, WORDS, GENE_NAMES, MU, HOF, worst=WORST)
    assert st == {
        "generation": 1,
        "population": [(GENES, (4.5,)), (OTHER, (4,))],
        "hof": [(OTHER, (4,)), (GENES, (4.5,))],
        "logbook": [{"gen": 0, "best": 4.5}, {"gen": 1, "best": 4}],
        "cache": {tuple(GENES): 4.5, tuple(OTHER): 4},
        "hold_cache": {tuple(OTHER): 3.75},
        "py_rng": (3, tuple(PY_RNG[1]), None),
        "np_rng": NP_RNG,
        "seconds": 12.5,
    }
    assert st["py_rng"] == PY_RNG and isinstance(st["py_rng"][1], tuple)
    assert all(isinstance(f, tuple) for _, f in st["population"] + st["hof"])
    random.Random().setstate(st["py_rng"])  # a state random accepts


def test_a_multi_board_genome_reads_back(tmp_path):
    genes = ["slate", 0.5, 1.0, 0.0]
    st = _read(tmp_path, _doc(population=[[genes, [7.0]], [genes, [7.0]]], hof=[], cache=[[genes, 7.0]],
                              hold_cache=[]), gene_names=BOARD_GENE_NAMES)
    assert st["population"] == [(genes, (7.0,))] * 2 and st["hof"] == [] and st["cache"] == {tuple(genes): 7.0}


# ---------------------------------------------------------------------- the file as a whole


def test_the_size_cap_is_64_mib(tmp_path):
    path = tmp_path / "run.ckpt"
    with path.open("wb") as fh:
        fh.truncate(64 * 2**20 + 1)
    with pytest.raises(EvoWordleError, match=re.escape(f"checkpoint {path} is too large (67.1 MB; at most 67.1 MB)")):
        read_checkpoint(path, CONFIG, WORDS, GENE_NAMES, MU, HOF, worst=WORST)
    with path.open("wb") as fh:
        fh.truncate(64 * 2**20)  # at the cap: read, and refused for what it holds, not its size
    with pytest.raises(EvoWordleError) as info:
        read_checkpoint(path, CONFIG, WORDS, GENE_NAMES, MU, HOF, worst=WORST)
    assert "too large" not in str(info.value)


@pytest.mark.parametrize("field,value,message", [
    ("format", "evo-wordle-checkpoints", "is not an evo-wordle checkpoint (checkpoints are JSON since this "
                                         "version; older ones cannot be resumed)"),
    ("version", 2, "has unsupported version 2"),
    ("version", 0, "has unsupported version 0"),
    ("version", "1", "has unsupported version '1'"),
    ("config", [CONFIG], "is corrupt (no configuration)"),
])
def test_format_version_and_configuration_are_checked_first(tmp_path, field, value, message):
    _refused(tmp_path, _doc(**{field: value}), message)


def test_a_checkpoint_without_version_names_none(tmp_path):
    doc = _doc()
    del doc["version"]
    _refused(tmp_path, doc, "has unsupported version None")


def test_other_settings_are_named_and_more_generations_resume(tmp_path):
    assert _read(tmp_path, _doc(config={**CONFIG, "generations": 1}))["generation"] == 1
    assert _read(tmp_path, _doc(), fingerprint={**CONFIG, "generations": 50})["generation"] == 1
    # a tuple in the run's configuration is a list in the file: the same setting
    assert _read(tmp_path, _doc(config={**CONFIG, "sizes": [1, 2]}),
                 fingerprint={**CONFIG, "sizes": (1, 2)})["generation"] == 1
    _refused(tmp_path, _doc(config={**CONFIG, "seed": 6, "mu": 3}), "was made with different settings (mu, seed)")
    _refused(tmp_path, _doc(config={"mu": 2, "generations": 3}),
             "was made with different settings (seed, settings)")
    _refused(tmp_path, _doc(config={**CONFIG, "extra": None}), "was made with different settings (extra)")


def test_a_setting_added_since_the_checkpoint_resumes_only_at_its_default(tmp_path):
    """A checkpoint made before a setting existed (CONFIG lacks init and test_size) resumes when
    the run leaves the setting at the default that plays as before; any other value is refused
    naming it, and so is a value the checkpoint records itself."""
    defaults = {"init": None, "test_size": None}
    now = {**CONFIG, "init": None, "test_size": None}
    assert _read(tmp_path, _doc(), fingerprint=now, defaults=defaults)["generation"] == 1
    assert _read(tmp_path, _doc(), defaults=defaults)["generation"] == 1  # a default the run does not record
    _refused(tmp_path, _doc(), "was made with different settings (test_size)",
             fingerprint={**now, "test_size": 50}, defaults=defaults)
    _refused(tmp_path, _doc(), "was made with different settings (init)",
             fingerprint={**now, "init": {"opener": "crane"}}, defaults=defaults)
    _refused(tmp_path, _doc(config={**CONFIG, "test_size": 50}), "was made with different settings (test_size)",
             fingerprint=now, defaults=defaults)
    _refused(tmp_path, _doc(), "was made with different settings (init, test_size)", fingerprint=now)


def test_the_word_lists_must_be_the_same_when_recorded(tmp_path):
    doc = _doc()
    del doc["lists"]
    assert _read(tmp_path, doc)["generation"] == 1  # from before the lists were recorded
    other = list_digests(load_words(["crane", "slate", "trace", "lions", "dough"], ["crane", "slate"]))
    _refused(tmp_path, _doc(lists=other), "was made with other word lists (their content differs): "
                                          "resume it with the lists it was made with")


# -------------------------------------------------------------------------- field by field


def test_generation_zero_is_a_count_and_its_logbook_holds_one_record(tmp_path):
    st = _read(tmp_path, _doc(generation=0, logbook=[{"gen": 0, "best": 4.5}]))
    assert st["generation"] == 0 and st["logbook"] == [{"gen": 0, "best": 4.5}]
    _refused(tmp_path, _doc(generation=0), "is corrupt (logbook has 2 entries, not 1)")


@pytest.mark.parametrize("value", [-1, True, 1.0, None])
def test_a_generation_that_is_not_a_count_is_refused(tmp_path, value):
    _refused(tmp_path, _doc(generation=value), "is corrupt (generation is not a count)")


def test_the_logbook_holds_one_record_per_generation_in_order(tmp_path):
    """A run records generation 0 and then each generation once, in order: a logbook missing,
    repeating or moving one was written out by --log and drawn as a curve no run made."""
    records = [{"gen": g, "best": 4} for g in range(4)]
    assert _read(tmp_path, _doc(generation=3, logbook=records))["logbook"] == records
    _refused(tmp_path, _doc(generation=3, logbook=[]), "is corrupt (logbook has 0 entries, not 4)")
    _refused(tmp_path, _doc(generation=3, logbook=records[:3]), "is corrupt (logbook has 3 entries, not 4)")
    _refused(tmp_path, _doc(generation=2, logbook=records), "is corrupt (logbook has 4 entries, not 3)")
    order = "a run records each generation once, in order"
    for gens, at, found in (([0, 1, 1, 3], 2, 1), ([0, 2, 1, 3], 1, 2), ([1, 0, 2, 3], 0, 1), ([0, 1, 2, 4], 3, 4)):
        moved = [{"gen": g, "best": 4} for g in gens]
        _refused(tmp_path, _doc(generation=3, logbook=moved),
                 f"is corrupt (logbook[{at}].gen is {found}, not {at}: {order})")
    _refused(tmp_path, _doc(logbook=[{"gen": 0, "best": 4.5}, {"best": 4}]),
             "is corrupt (logbook[1].gen is None: not a count)")
    _refused(tmp_path, _doc(logbook=[{"gen": 0, "best": 4.5}, {"gen": True, "best": 4}]),
             "is corrupt (logbook[1].gen is not a number)")
    _refused(tmp_path, _doc(logbook=[{"gen": 0, "best": 4.5}, {"gen": 1.0, "best": 4}]),
             "is corrupt (logbook[1].gen is 1.0: not a count)")
    _refused(tmp_path, _doc(logbook={"gen": 0}), "is corrupt (logbook is not a list)")


@pytest.mark.parametrize("record,message", [
    ([0, 4.5], "logbook[1] is not a record"),
    (["gen", "best"], "logbook[1] is not a record"),
    ("gen", "logbook[1] is not a record"),
    ({"gen": 1, "best": True}, "logbook[1].best is not a number"),
    ({"gen": 1, "best": "4"}, "logbook[1].best is not a number"),
    ({"gen": 1, "best": None}, "logbook[1].best is not a number"),
])
def test_logbook_records_hold_numbers(tmp_path, record, message):
    _refused(tmp_path, _doc(logbook=[{"gen": 0, "best": 4.5}, record]), f"is corrupt ({message})")


def test_a_logbook_record_may_hold_infinity(tmp_path):
    """Logbook values are numbers, not necessarily finite (a best of inf before any game counts)."""
    doc = _doc(logbook=[{"gen": 0, "best": float("inf")}, {"gen": 1, "best": 4}])
    assert _read(tmp_path, doc)["logbook"][0] == {"gen": 0, "best": float("inf")}


def test_a_logbook_score_of_exactly_1_is_a_mean_guess_count(tmp_path):
    """A mean guess count is at least 1, and 1 itself is one (every game solved at the first guess)."""
    record, then = {"gen": 0, "best": 1.0, "mean": 1.0, "holdout": 1.0}, {"gen": 1, "best": 4}
    assert _read(tmp_path, _doc(logbook=[record, then]))["logbook"] == [record, then]
    _refused(tmp_path, _doc(logbook=[{**record, "mean": 0.999}, then]),
             "is corrupt (logbook[0].mean is 0.999: a mean guess count is at least 1)")


def test_the_population_has_exactly_mu_members(tmp_path):
    _refused(tmp_path, _doc(population=[[GENES, [4.5]]]), "is corrupt (population has 1 entries, not 2)")
    three = [[GENES, [4.5]]] * 3
    _refused(tmp_path, _doc(population=three), "is corrupt (population has 3 entries, not 2)")
    assert len(_read(tmp_path, _doc(population=three), mu=3)["population"]) == 3


def test_the_hall_of_fame_holds_at_most_its_size(tmp_path):
    three = [[GENES, [4.5]], [OTHER, [4]], [THIRD, [5]]]
    assert [f for _, f in _read(tmp_path, _doc(hof=three))["hof"]] == [(4.5,), (4,), (5,)]
    _refused(tmp_path, _doc(hof=three), "is corrupt (hof has more than 2 entries)", hof=2)


@pytest.mark.parametrize("member,message", [
    ([GENES], "population[1] has 1 entries, not 2"),
    ([GENES, [4.5], 0], "population[1] has 3 entries, not 2"),
    ("crane", "population[1] is not a list"),
    ([GENES[:-1], [4.5]], "population[1] has 14 entries, not 15"),
    ([GENES, []], "population[1] fitness has 0 entries, not 1"),
    ([GENES, [4.5, 4.5]], "population[1] fitness has 2 entries, not 1"),
    ([GENES, 4.5], "population[1] fitness is not a list"),
    ([GENES, [False]], "population[1] fitness is not a number"),
    ([["dough"] + GENES[1:], [4.5]], None),
    ([["zzzzz"] + GENES[1:], [4.5]], "population[1]: opener is not an allowed word"),
    ([[" crane"] + GENES[1:], [4.5]], "population[1]: opener is not an allowed word"),
    ([["crane "] + GENES[1:], [4.5]], "population[1]: opener is not an allowed word"),
    ([[3] + GENES[1:], [4.5]], "population[1]: opener is not an allowed word"),
    # words.contains reads any case: "CRANE" was accepted, missed the cache of "crane" and was saved as "CRANE"
    ([["CRANE"] + GENES[1:], [4.5]], "population[1]: opener 'CRANE' is not written as the word list writes it "
                                     "('crane')"),
    ([["Dough"] + GENES[1:], [4.5]], "population[1]: opener 'Dough' is not written as the word list writes it "
                                     "('dough')"),
    ([GENES[:-1] + [0], [4.5]], "population[1]: hard_candidates is not true/false"),
    ([GENES[:-1] + ["true"], [4.5]], "population[1]: hard_candidates is not true/false"),
    ([GENES[:1] + [True] + GENES[2:], [4.5]], "population[1]: steepness is not a number"),
    ([GENES[:1] + ["10"] + GENES[2:], [4.5]], "population[1]: steepness is not a number"),
    ([GENES[:13] + [float("-inf"), False], [4.5]], "population[1]: w_unlisted is not finite"),
    ([GENES[:2] + [float("nan")] + GENES[3:], [4.5]], "population[1]: midpoint is not finite"),
])
def test_each_member_is_a_genome_and_one_fitness(tmp_path, member, message):
    doc = _doc(population=[[GENES, [4.5]], member])
    if message is None:
        assert _read(tmp_path, doc)["population"][1] == (member[0], (4.5,))
    else:
        _refused(tmp_path, doc, f"is corrupt ({message})")


def test_the_hall_of_fame_is_checked_as_the_population(tmp_path):
    _refused(tmp_path, _doc(hof=[[GENES, [4.5]], [GENES, ["4"]]]), "is corrupt (hof[1] fitness is not a number)")
    _refused(tmp_path, _doc(hof={"a": 1}), "is corrupt (hof is not a list)")


def test_fitness_values_are_mean_guess_counts(tmp_path):
    """A fitness is a mean guess count plus a penalty ≥ 0: at least 1 and finite (a planted
    -1, 0 or NaN was the best genome ever seen and chose the winner); 1 itself passes."""
    st = _read(tmp_path, _doc(population=[[GENES, [1]], [OTHER, [4]]], hof=[], cache=[[GENES, 1]]))
    assert st["population"][0] == (GENES, (1,)) and st["cache"] == {tuple(GENES): 1}
    for bad, says in ((float("inf"), "is not finite"), (0.999, "is 0.999: a mean guess count is at least 1")):
        _refused(tmp_path, _doc(population=[[GENES, [bad]], [OTHER, [4]]], cache=[]),
                 f"is corrupt (population[0] fitness {says})")
        _refused(tmp_path, _doc(hold_cache=[[GENES, bad]]), f"is corrupt (hold_cache[0] value {says})")


def test_fitness_values_are_at_most_the_cap_plus_the_penalty(tmp_path):
    """Every game lost scores the cap plus the whole penalty, the largest fitness a run gives: that
    passes, a planted score above it (one no game gives, which a run's figures would carry) is
    refused in every field that holds scores, in one line naming the field and the bound."""
    st = _read(tmp_path, _doc(population=[[GENES, [WORST]], [OTHER, [4]]], hof=[], cache=[[GENES, WORST]],
                              hold_cache=[[OTHER, WORST]],
                              logbook=[{"gen": 0, "best": WORST, "holdout": WORST}, {"gen": 1, "best": 4}]))
    assert st["population"][0] == (GENES, (WORST,)) and st["hold_cache"] == {tuple(OTHER): WORST}
    above = "10.001: above 10.0, the guess cap plus the penalty, which losing every game scores"
    _refused(tmp_path, _doc(population=[[GENES, [10.001]], [OTHER, [4]]], hof=[], cache=[]),
             f"is corrupt (population[0] fitness is {above})")
    _refused(tmp_path, _doc(hof=[[THIRD, [10.001]]]), f"is corrupt (hof[0] fitness is {above})")
    _refused(tmp_path, _doc(cache=[[THIRD, 10.001]]), f"is corrupt (cache[0] value is {above})")
    _refused(tmp_path, _doc(hold_cache=[[GENES, 10.001]]), f"is corrupt (hold_cache[0] value is {above})")
    for key in ("best", "mean", "holdout"):
        _refused(tmp_path, _doc(logbook=[{"gen": 0, key: 10.001}, {"gen": 1, "best": 4}]),
                 f"is corrupt (logbook[0].{key} is {above})")
    # a mean of equal fitnesses may round one unit in the last place above it: up to 1e-12 over passes
    edge = WORST * (1 + 1e-12)
    assert _read(tmp_path, _doc(cache=[[THIRD, edge]]))["cache"][tuple(THIRD)] == edge
    with pytest.raises(EvoWordleError, match=re.escape(f"is {WORST * (1 + 3e-12)!r}: above {WORST!r}")):
        _read(tmp_path, _doc(cache=[[THIRD, WORST * (1 + 3e-12)]]))
    # the bound is the one given: a penalty of 3 with a cap of 6 reads 9 and refuses 9.001
    assert _read(tmp_path, _doc(cache=[[THIRD, 9.0]]), worst=9.0)["cache"][tuple(THIRD)] == 9.0
    with pytest.raises(EvoWordleError, match=re.escape("is 9.001: above 9.0")):
        _read(tmp_path, _doc(cache=[[THIRD, 9.001]]), worst=9.0)


def test_a_members_fitness_is_the_one_its_cache_holds(tmp_path):
    """The population's and hall of fame's fitnesses are the training cache's values: one
    changed alone is refused; a genome the cache lacks passes."""
    _refused(tmp_path, _doc(hof=[[OTHER, [4]], [GENES, [4.25]]]),
             "is corrupt (hof[1] fitness 4.25 is not the cache's 4.5)")
    assert _read(tmp_path, _doc(cache=[[OTHER, 4]]))["population"][0] == (GENES, (4.5,))


def test_a_member_meets_its_cache_entry_by_its_genes_rounded_to_10_places(tmp_path):
    """The meta-GA keys its cache by genome_key (reals rounded to 10 places) and writes members as
    they are: a member's 0.123456789123 is the cache's 0.1234567891, so its fitness is checked
    against that entry (rounded to 9 or 11 places it would meet none and pass unchecked)."""
    raw, key = ([*GENES[:2], x, *GENES[3:]] for x in (0.123456789123, 0.1234567891))
    _refused(tmp_path, _doc(population=[[raw, [4.25]], [OTHER, [4]]], cache=[[key, 4.5], [OTHER, 4]]),
             "is corrupt (population[0] fitness 4.25 is not the cache's 4.5)")
    assert _read(tmp_path, _doc(population=[[raw, [4.5]], [OTHER, [4]]], cache=[[key, 4.5], [OTHER, 4]]))


@pytest.mark.parametrize("field", ["cache", "hold_cache"])
@pytest.mark.parametrize("entry,message", [
    ([GENES], "{f}[1] has 1 entries, not 2"),
    ([GENES, 4.5, 1], "{f}[1] has 3 entries, not 2"),
    ([GENES, "4.5"], "{f}[1] value is not a number"),
    ([GENES, True], "{f}[1] value is not a number"),
    ([GENES[:-1] + [1], 4.5], "{f}[1]: hard_candidates is not true/false"),
    ([["LIONS"] + GENES[1:], 4], "{f}[1]: opener 'LIONS' is not written as the word list writes it ('lions')"),
    ([["lions"] + GENES[1:], 4], None),
])
def test_cached_fitnesses_are_a_genome_and_a_number(tmp_path, field, entry, message):
    doc = _doc(**{field: [[OTHER, 4], entry]})
    if message is None:
        assert _read(tmp_path, doc)[field] == {tuple(OTHER): 4, tuple(entry[0]): 4}
    else:
        _refused(tmp_path, doc, f"is corrupt ({message.format(f=field)})")
    _refused(tmp_path, _doc(**{field: None}), f"is corrupt ({field} is not a list)")


def test_a_repeated_genome_in_the_cache_keeps_its_last_value(tmp_path):
    assert _read(tmp_path, _doc(cache=[[THIRD, 4.5], [THIRD, 5]]))["cache"] == {tuple(THIRD): 5}


# ------------------------------------------------------------------------------- generators


def _py(version=3, internal=None, gauss=None) -> list:
    return [version, list(PY_RNG[1]) if internal is None else internal, gauss]


def test_the_python_generator_state_reads_back_as_getstate_gives_it(tmp_path):
    low = [0] * 624 + [624]
    high = [2**32 - 1] * 624 + [0]
    for internal in (low, high):
        st = _read(tmp_path, _doc(py_rng=_py(internal=internal)))
        assert st["py_rng"] == (3, tuple(internal), None)
    assert _read(tmp_path, _doc(py_rng=_py(gauss=0.25)))["py_rng"] == (3, tuple(PY_RNG[1]), 0.25)


@pytest.mark.parametrize("py_rng,message", [
    (_py(version=2), "py_rng is not a Mersenne Twister state"),
    (_py(version=4), "py_rng is not a Mersenne Twister state"),
    (_py(gauss=1), "py_rng is not a Mersenne Twister state"),
    (_py(gauss="0.5"), "py_rng is not a Mersenne Twister state"),
    (_py(internal=[0] * 624 + [625]), "py_rng is not a Mersenne Twister state"),
    (_py(internal=[0] * 625 + [1]), "py_rng state has 626 entries, not 625"),
    (_py(internal=[0] * 624), "py_rng state has 624 entries, not 625"),
    (_py(internal=[2**32] + [0] * 624), "py_rng state holds values that are not 32-bit words"),
    (_py(internal=[0] * 623 + [-1, 0]), "py_rng state holds values that are not 32-bit words"),
    (_py(internal=[True] + [0] * 624), "py_rng state holds values that are not 32-bit words"),
    (_py(internal=[1.0] + [0] * 624), "py_rng state holds values that are not 32-bit words"),
    ([3, list(PY_RNG[1])], "py_rng has 2 entries, not 3"),
    ([3, list(PY_RNG[1]), None, None], "py_rng has 4 entries, not 3"),
    (_py(internal={"0": 0}), "py_rng state is not a list"),
    ("3", "py_rng is not a list"),
])
def test_a_python_generator_state_that_random_would_not_take_is_refused(tmp_path, py_rng, message):
    _refused(tmp_path, _doc(py_rng=py_rng), f"is corrupt ({message})")


@pytest.mark.parametrize("np_rng", [None, "PCG64", {"state": 1}, {"bit_generator": 64}])
def test_the_numpy_generator_state_names_its_bit_generator(tmp_path, np_rng):
    _refused(tmp_path, _doc(np_rng=np_rng), "is corrupt (np_rng is not a generator state)")


# --------------------------------------------------------------------------------- seconds


@pytest.mark.parametrize("seconds", [0, 7, 0.5])
def test_seconds_are_a_finite_number(tmp_path, seconds):
    assert _read(tmp_path, _doc(seconds=seconds))["seconds"] == seconds


@pytest.mark.parametrize("seconds,message", [(float("nan"), "seconds is not finite"),
                                             (float("-inf"), "seconds is not finite"),
                                             (True, "seconds is not a number"), ("1", "seconds is not a number"),
                                             (None, "seconds is not a number")])
def test_seconds_that_are_not_a_finite_number_are_refused(tmp_path, seconds, message):
    _refused(tmp_path, _doc(seconds=seconds), f"is corrupt ({message})")

