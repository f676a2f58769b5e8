"""experiments/board_reach.py and board_goals.py --rollout: a shipped multi-board file replayed
with another lookahead reach than its own, on its validation sets (board_reach) or the goal's test
sets (board_goals).  The reach must be the one played, the file's own reach the reference, and the
figures must not depend on --jobs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from evo_wordle.artefacts import settings_of
from evo_wordle.evolve.metaga import BOARD_GENE_NAMES, file_sets, play_sets
from evo_wordle.evolve.strategy import resolve_strategy_path
from evo_wordle.game import scores_of
from evo_wordle.tune import load_params

from .experiment_scripts import EXPERIMENTS


def _run(tmp_path, script: str, args: list[str], jobs: str) -> dict:
    out = tmp_path / f"{script}-j{jobs}"
    subprocess.run([sys.executable, str(EXPERIMENTS / f"{script}.py"), *args, "--jobs", jobs, "--out", str(out)],
                   check=True, capture_output=True, text=True)
    return json.loads((out / f"{script}.json").read_text())


def _dordle(ctx):
    doc = load_params(resolve_strategy_path("dordle-evolved"))
    return doc, [doc["params"][n] for n in BOARD_GENE_NAMES], settings_of(doc["made_for"], "dordle-evolved")


def test_each_reach_plays_the_files_validation_sets_against_its_own_reach(ctx, tmp_path):
    records = []
    for jobs in ("1", "2"):
        data = _run(tmp_path, "board_reach", ["--boards", "2", "--reach", "0", "2000", "--sets", "20"], jobs)
        for row in data["reach"].values():
            row.pop("seconds")
        data.pop("load_average")
        records.append(data)
    assert records[0] == records[1]  # the figures do not depend on --jobs
    data = records[0]
    assert data["own_reach"] == 200 and data["part"] == "validation" and data["sets"] == 20
    assert list(data["reach"]) == ["200", "0", "2000"]  # the file's own reach first: the reference
    assert "minus_own" not in data["reach"]["200"]
    doc, genes, settings = _dordle(ctx)
    sets = file_sets(ctx, doc, "validation")[:20]
    for reach in (0, 200, 2000):
        mean = scores_of(play_sets(ctx, genes, settings, sets, reach), settings).mean()
        assert data["reach"][str(reach)]["mean"] == pytest.approx(mean)
    means = {data["reach"][r]["mean"] for r in ("0", "200", "2000")}
    assert len(means) == 3  # each reach plays other games here: a reach left unplayed would show
    gain = data["reach"]["0"]["minus_own"]["mean"]
    assert gain == pytest.approx(data["reach"]["0"]["mean"] - data["reach"]["200"]["mean"])


def test_board_goals_replays_the_file_with_the_reach_asked_for(ctx, tmp_path):
    script_out = _run(tmp_path, "board_goals", ["--boards", "2", "--sets", "6", "--rollout", "0"], "1")
    data = script_out["boards"]["2"]
    assert data["rollout"] == 0 and data["file_rollout"] == 200
    doc, genes, settings = _dordle(ctx)
    from evo_wordle.evolve.metaga import file_test_sets

    sets = file_test_sets(ctx, doc)[:6]
    assert data["evolved"]["mean"] == pytest.approx(scores_of(play_sets(ctx, genes, settings, sets, 0),
                                                              settings).mean())


@pytest.mark.parametrize(("script", "bad"), [("board_reach", ["--reach", "-1"]), ("board_reach", ["--sets", "1"]),
                                             ("board_reach", ["--boards", "3"]),
                                             ("board_goals", ["--rollout", "100001"])])
def test_bad_arguments_are_refused_in_one_line(tmp_path, script, bad):
    done = subprocess.run([sys.executable, str(EXPERIMENTS / f"{script}.py"), *bad, "--out", str(tmp_path / "bad")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr
