"""experiments/board_genes.py: the gene-space headroom of the shipped multi-board policies.  It
must never play a test answer, select on one draw and measure on another, compare the right
genes (the grid with the file's opener and ``late``, the pool with the file's genes), report
gains as guesses saved, and give the same figures for any --jobs."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from evo_wordle.evolve.metaga import genome_scores
from evo_wordle.split import recorded_split

from .experiment_scripts import EXPERIMENTS, board_study_across_jobs, load_experiment


@pytest.fixture(scope="module")
def script():
    return load_experiment("board_genes")


@pytest.fixture(scope="module")
def dordle(ctx, script):
    return script.shipped(ctx, 2)


def test_the_draws_hold_training_and_validation_answers_only_and_differ(ctx, script, dordle):
    doc, _, _ = dordle
    split = recorded_split(doc["provenance"]["split"], ctx.words)
    draws = script.draw_sets(ctx, doc, 2, 400, 0)
    assert draws["select"].shape == draws["fresh"].shape == (400, 2)
    seen = np.unique(np.concatenate([draws["select"], draws["fresh"]]))
    assert not np.isin(seen, split.part("test")).any()
    assert np.isin(seen, split.part("train")).any() and np.isin(seen, split.part("validation")).any()
    assert (draws["select"] != draws["fresh"]).any()
    again = script.draw_sets(ctx, doc, 2, 400, 0)
    assert all((again[k] == draws[k]).all() for k in draws)
    assert (script.draw_sets(ctx, doc, 2, 400, 1)["select"] != draws["select"]).any()


def test_measure_selects_on_one_draw_and_measures_on_the_other(ctx, script, dordle):
    doc, genes, settings = dordle
    out = script.measure(ctx, 2, 40, [-0.5, 0.0], [0.0, 3.0], 3, 0, 1)
    draws = script.draw_sets(ctx, doc, 2, 40, 0)
    opener, _, _, late = genes
    assert out["genes"] == dict(zip(["opener", "weight", "bonus", "late"], genes))
    assert out["shipped_select"] == pytest.approx(genome_scores(ctx, genes, settings, draws["select"], 0).mean())
    assert out["shipped_fresh"] == pytest.approx(genome_scores(ctx, genes, settings, draws["fresh"], 0).mean())
    grid = {(g["weight"], g["bonus"]): g["mean"] for g in out["grid"]}
    assert set(grid) == {(-0.5, 0.0), (-0.5, 3.0), (0.0, 0.0), (0.0, 3.0)}
    for (w, b), mean in grid.items():  # the grid keeps the file's opener and late
        assert mean == pytest.approx(genome_scores(ctx, [opener, w, b, late], settings, draws["select"], 0).mean())
    best = out["best_grid"]
    assert grid[(best["weight"], best["bonus"])] == min(grid.values())
    assert best["select_gain"] == pytest.approx(out["shipped_select"] - min(grid.values()))
    fresh = genome_scores(ctx, [opener, best["weight"], best["bonus"], late], settings, draws["fresh"], 0)
    assert best["fresh_gain"]["mean"] == pytest.approx(out["shipped_fresh"] - fresh.mean())  # saved, not added
    assert best["fresh_gain"]["low"] <= best["fresh_gain"]["mean"] <= best["fresh_gain"]["high"]
    words = [o["opener"] for o in out["openers"]]
    assert words == script.opener_pool(ctx, settings, 3) and len(words) == 3
    means = {o["opener"]: o["mean"] for o in out["openers"]}
    for word in words:  # the pool keeps the file's genes
        assert means[word] == pytest.approx(genome_scores(ctx, [word, *genes[1:]], settings, draws["select"], 0).mean())
    chosen = out["best_opener"]
    assert means[chosen["opener"]] == min(means.values())
    fresh = genome_scores(ctx, [chosen["opener"], *genes[1:]], settings, draws["fresh"], 0)
    assert chosen["fresh_gain"]["mean"] == pytest.approx(out["shipped_fresh"] - fresh.mean())


def test_figures_do_not_depend_on_jobs_and_bad_arguments_are_refused(tmp_path):
    data = board_study_across_jobs(tmp_path, "board_genes", 2, ["--sets", "20", "--weights", "-0.5", "0",
                                                                 "--bonuses", "0", "2", "--openers", "2"])
    assert data["sets"] == 20 and len(data["grid"]) == 4 and len(data["openers"]) == 2
    for bad in (["--sets", "1"], ["--openers", "0"], ["--weights", "-3"], ["--bonuses", "9"]):
        done = subprocess.run([sys.executable, str(EXPERIMENTS / "board_genes.py"), "--boards", "2", *bad,
                               "--out", str(tmp_path / "bad")], capture_output=True, text=True)
        assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "bad").exists()  # refused before any folder is made
