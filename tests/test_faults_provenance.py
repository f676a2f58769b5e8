"""Strategy and parameter files a user hands in that are malformed in ways once read silently
or reported with Python's own words: a genome or multi-board policy missing a gene (which then
played its default), a provenance that is not an object (read as none), and a malformed
provenance.split or provenance.sets (int()'s message).  Each is one line on stderr and exit 2
from the command line, and an EvoWordleError naming the field from Python."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evo_wordle.artefacts import PARAMS_FORMAT, made_for, settings_of
from evo_wordle.bench import run_bench
from evo_wordle.boards import GENES
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import file_sets, file_test_sets
from evo_wordle.evolve.strategy import Strategy, read_strategy_file, shipped_strategies
from evo_wordle.game import Settings
from evo_wordle.tune import load_params

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "strategies"
P0 = SHIPPED / "p0-strict.json"
DORDLE = SHIPPED / "dordle-evolved.json"


def error_line(capsys) -> str:
    """The one line a refused command prints (nothing on stdout, no traceback)."""
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and out.err.startswith("evo-wordle: error: "), out.err
    assert "Traceback" not in out.err
    return out.err.strip().removeprefix("evo-wordle: error: ")


def edited(tmp_path, source: Path, change, name: str = "edited.json") -> Path:
    """A copy of ``source`` with ``change(doc)`` applied."""
    doc = json.loads(source.read_text())
    change(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


# ------------------------------------------------------------------------ shipped files


def test_every_shipped_strategy_file_gives_every_gene_and_an_object_provenance():
    """The strict reader refuses none of the shipped files: each states every gene (the four
    prior multipliers were written out as 1.0, the value the older files were made and measured
    with, before those genes existed) and records its provenance as an object."""
    genes = list(Strategy().as_dict())
    for name in shipped_strategies():
        doc = json.loads((SHIPPED / f"{name}.json").read_text())
        assert isinstance(doc["provenance"], dict), name
        if doc["format"] == PARAMS_FORMAT:  # the multi-board policies: every policy gene
            assert {"opener", *GENES} <= set(doc["params"]), name
            assert load_params(SHIPPED / f"{name}.json")["provenance"] == doc["provenance"]
            continue
        assert list(doc["genome"]) == genes, name
        assert read_strategy_file(name).strategy.as_dict() == doc["genome"]


# ------------------------------------------------------------------- strategy files (CLI)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["genome"].pop("w_unlisted"), "strategy genome lacks gene(s): w_unlisted"),
    (lambda d: [d["genome"].pop(g) for g in ("k1", "bonus")], "strategy genome lacks gene(s): k1, bonus"),
    (lambda d: d["genome"].update(w_plurals=0.5), "unknown strategy gene(s): w_plurals"),
    (lambda d: d.update(provenance=[]), "provenance must be a JSON object"),
    (lambda d: d.update(provenance=None), "provenance must be a JSON object"),
])
def test_a_strategy_file_missing_a_gene_or_with_a_non_object_provenance_is_refused(tmp_path, capsys, change, message):
    path = edited(tmp_path, P0, change)
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == f"strategy file {path}: {message}"
    assert main(["solve", "cigar", "--strategy", str(path)]) == 2
    assert error_line(capsys) == f"strategy file {path}: {message}"
    with pytest.raises(EvoWordleError) as err:
        read_strategy_file(path)
    assert str(err.value) == f"strategy file {path}: {message}"


def test_evolve_init_from_a_genome_missing_a_gene_is_refused(tmp_path, capsys):
    path = edited(tmp_path, P0, lambda d: d["genome"].pop("switch_eff"))
    assert main(["evolve-strategy", "--init", str(path), "--generations", "0", "--train", "20", "--holdout", "10",
                 "--quiet"]) == 2
    assert error_line(capsys) == f"strategy file {path}: strategy genome lacks gene(s): switch_eff"


@pytest.mark.parametrize(("split", "message"), [
    ({"seed": [3], "train": ["cigar"], "validation": ["rebut"], "test": ["sissy"]},
     "provenance.split.seed of strategy file {path} must be a whole number ≥ 0, not [3]"),
    ({"seed": 3, "train": 800, "validation": "500", "test": 1009},
     "provenance.split.validation of strategy file {path} must be a whole number ≥ 1, not '500'"),
    ([], "provenance.split of strategy file {path} must be an object (seed, train, validation, test), not list"),
])
def test_a_malformed_split_is_one_line_naming_the_field_and_the_file(tmp_path, capsys, split, message):
    path = edited(tmp_path, P0, lambda d: d["provenance"].update(split=split))
    for argv in (["bench", "--strategy", str(path), "--games", "3", "--quiet"],
                 ["bench", "--strategy", str(path), "--split", "test", "--games", "3", "--quiet"],
                 ["compare", "--solvers", "greedy,strategy", "--strategy", str(path), "--games", "3", "--quiet"]):
        assert main(argv) == 2
        assert error_line(capsys) == message.format(path=path)


# ------------------------------------------------------------------ parameter files (CLI)


def _tuned(ctx, tmp_path, **extra) -> Path:
    """A parameter file as ``tune`` writes it (a split as seed and sizes), with ``extra`` on top."""
    path = tmp_path / "best-params.json"
    path.write_text(json.dumps({
        "format": PARAMS_FORMAT, "version": 1, "solver": "naive", "params": {"opener": "tares"},
        "settings": Settings().as_dict(), "made_for": made_for(Settings(), ctx.words),
        "provenance": {"split": {"seed": 0, "train": 924, "validation": 577, "test": 808}}, **extra}))
    return path


@pytest.mark.parametrize("provenance", [[], None, "tune", 3])
def test_a_parameter_file_with_a_non_object_provenance_is_refused(ctx, tmp_path, capsys, provenance):
    path = _tuned(ctx, tmp_path, provenance=provenance)
    assert main(["bench", "--params", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == f"parameter file {path}: provenance must be an object"
    board = edited(tmp_path, DORDLE, lambda d: d.update(provenance=provenance), "board.json")
    assert main(["bench", "--strategy", str(board), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == f"parameter file {board}: provenance must be an object"
    with pytest.raises(EvoWordleError, match="provenance must be an object"):
        load_params(path)


def test_a_parameter_file_without_provenance_still_replays(ctx, tmp_path, capsys):
    doc = json.loads(_tuned(ctx, tmp_path).read_text())
    del doc["provenance"]
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(doc))
    assert main(["bench", "--params", str(path), "--games", "3", "--quiet"]) == 0
    assert "mean guesses" in capsys.readouterr().out


def test_a_tuned_files_malformed_split_is_one_line(ctx, tmp_path, capsys):
    path = _tuned(ctx, tmp_path, provenance={"split": {"seed": 0, "train": 924.5, "validation": 577, "test": 808}})
    assert main(["bench", "--params", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == (f"provenance.split.train of parameter file {path} must be a whole number ≥ 1, "
                                  "not 924.5")


@pytest.mark.parametrize("gene", ["opener", *GENES])
def test_a_board_policy_missing_a_gene_is_refused_not_played_plain(tmp_path, capsys, gene):
    """A missing gene would play 0 (or summed entropy's own opener): the plain policy, not the file's."""
    path = edited(tmp_path, DORDLE, lambda d: d["params"].pop(gene))
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == f"{path} lacks the multi-board policy gene(s) {gene}"
    assert main(["evolve-strategy", "--boards", "2", "--candidates", "answers", "--init", str(path),
                 "--generations", "0", "--quiet"]) == 2
    assert error_line(capsys) == f"{path} lacks the multi-board policy gene(s) {gene}"


def test_a_board_policy_missing_every_gene_names_them_all(tmp_path, capsys):
    path = edited(tmp_path, DORDLE, lambda d: d.update(params={"rollout": 0}))
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == f"{path} lacks the multi-board policy gene(s) opener, {', '.join(GENES)}"


@pytest.mark.parametrize(("value", "message"), [
    ("abc", "--cache-size must be a whole number, not 'abc'"),  # was an internal error (exit 1)
    (-5, "--cache-size must be at least 0, not -5"),  # played on, with no cache
    (2.5, "--cache-size must be a whole number, not 2.5"),
    # the old cap of 100,000 boards was accepted: ≈ 10 GB of board bits
    (100_000, "--cache-size 100,000 would keep up to 10.4 GB of board bits (103,776 bytes a board): "
     "at most 10,346 (1 GiB)"),
    (10**12, "--cache-size 1,000,000,000,000 would keep up to 103,776,000.0 GB of board bits (103,776 bytes a board): "
     "at most 10,346 (1 GiB)"),
])
def test_a_board_policy_cache_size_is_checked_in_one_line(tmp_path, capsys, value, message):
    path = edited(tmp_path, DORDLE, lambda d: d["params"].update(cache_size=value))
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == message


def test_a_board_policy_file_reaching_too_deep_for_its_boards_is_refused_in_one_line(tmp_path, capsys):
    """A Dordle file at the lookahead's cap (100,000, Octordle's deepest studied reach) played each set
    ≈ 31 s instead of 0.06 s."""
    path = edited(tmp_path, DORDLE, lambda d: d["params"].update(rollout=100_000))
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == ("--rollout 100,000 on 2 board(s) may weigh 5,001,000,000 (guess, answers) pairs a "
                                  "decision: at most 12,663 there (the work of 100,000 on 8 boards)")


def test_a_board_policy_file_breeding_too_many_words_a_decision_is_refused_in_one_line(tmp_path, capsys):
    """search and search_generations at their caps at once: ≈ 1.4 h a searched Octordle decision."""
    path = edited(tmp_path, DORDLE, lambda d: d["params"].update(search=1000, search_generations=50))
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == ("the decision search would breed up to 51,000 words a decision (search 1000 × "
                                  "(1 + search_generations 50)): at most 1,000")


@pytest.mark.parametrize("name", ["wieght", "cache"])
def test_a_board_policy_with_an_unknown_parameter_is_refused_in_one_line(ctx, tmp_path, capsys, name):
    """A misspelt gene was a TypeError from the policy's constructor: an internal error, exit 1."""
    path = edited(tmp_path, DORDLE, lambda d: d["params"].update({name: 0.5}))
    message = (f"solver summed-entropy has no parameter {name!r} (it takes: bonus, cache_size, late, opener, rollout, "
               "search, search_generations, ties, weight)")
    assert main(["bench", "--strategy", str(path), "--games", "3", "--quiet"]) == 2
    assert error_line(capsys) == message
    settings = settings_of(load_params(DORDLE)["made_for"], "dordle")
    with pytest.raises(EvoWordleError) as err:
        run_bench(ctx, "summed-entropy", settings, ctx.words.answer_index[None, :2], 0,
                  {**load_params(DORDLE)["params"], name: 0.5})
    assert str(err.value) == message


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p.update(sets={**p["sets"], "test_sets": "5000"}),
     "provenance.sets.test_sets of strategy file {path} must be a whole number ≥ 1, not '5000'"),
    (lambda p: p.update(sets={**p["sets"], "train_sets": 2.5}),
     "provenance.sets.train_sets of strategy file {path} must be a whole number ≥ 1, not 2.5"),
    (lambda p: p["sets"].pop("validation_sets"),
     "provenance.sets.validation_sets of strategy file {path} must be a whole number ≥ 1, not None"),
    (lambda p: p.update(sets=[400, 400, 5000]),
     "provenance.sets of strategy file {path} must be an object (train_sets, validation_sets, test_sets)"),
    (lambda p: p.update(sets={**p["sets"], "test_sets": 10**9}),  # was "--games must be …", a flag not given
     "provenance.sets.test_sets of strategy file {path} must be at most 1000000, not 1000000000"),
    (lambda p: p["split"].update(seed="0"),
     "provenance.split.seed of strategy file {path} must be a whole number ≥ 0, not '0'"),
])
def test_malformed_recorded_board_sets_are_one_line(tmp_path, capsys, change, message):
    path = edited(tmp_path, DORDLE, lambda d: change(d["provenance"]))
    assert main(["bench", "--strategy", str(path), "--split", "test", "--quiet"]) == 2
    assert error_line(capsys) == message.format(path=path)


# ---------------------------------------------------------------------- file_sets (Python)


def test_file_sets_names_what_the_file_lacks(ctx):
    doc = load_params(DORDLE)
    prov = doc["provenance"]
    cases = [
        ({**doc, "provenance": {**prov, "sets": {}}},
         "provenance.sets.train_sets of the file must be a whole number ≥ 1, not None"),
        ({**doc, "provenance": {**prov, "split": None}}, "the file records no provenance.split, so no test sets"),
        ({k: v for k, v in doc.items() if k != "provenance"},
         "the file records no provenance object, so no split and test sets"),
        ({**doc, "provenance": []}, "the file records no provenance object, so no split and test sets"),
        ({**doc, "made_for": None}, "the file: \"made_for\" must be a JSON object"),
    ]
    for broken, message in cases:
        with pytest.raises(EvoWordleError) as err:
            file_test_sets(ctx, broken)
        assert str(err.value) == message
    with pytest.raises(EvoWordleError) as err:
        file_sets(ctx, {**doc, "provenance": {**prov, "sets": None}}, "validation", "dordle.json")
    assert str(err.value) == ("provenance.sets of dordle.json must be an object (train_sets, validation_sets, "
                              "test_sets)")
