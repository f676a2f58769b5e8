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


def _deeper_than(reach: int, boards: int) -> str:
    """The policy's own refusal of ``reach`` on ``boards`` (boards.check_rollout, the option as --rollout)."""
    from evo_wordle.boards import check_rollout
    from evo_wordle.errors import EvoWordleError

    with pytest.raises(EvoWordleError) as info:
        check_rollout(reach, boards)
    return str(info.value)


@pytest.mark.parametrize(("script", "args", "option", "reach", "boards"), [
    ("board_goals", ["--rollout", "12664"], "--rollout", 12664, 2),  # default --boards 2 4 8: Dordle's bound
    ("board_goals", ["--boards", "8", "4", "--rollout", "25292"], "--rollout", 25292, 4),
    ("board_reach", ["--boards", "2", "--reach", "0", "12664"], "--reach", 12664, 2),
    ("board_reach", ["--boards", "4"], "--reach", 100_000, 4),  # the default reaches reach 100,000
    ("board_genes_deep", ["--boards", "4", "--weight", "-0.25", "--bonus", "3", "--reach", "25292"], "--reach",
     25292, 4),
])
def test_a_reach_the_policy_refuses_on_the_board_count_is_refused_before_any_set_is_played(
        tmp_path, script, args, option, reach, boards):
    """Each script checked its reach against ROLLOUT_MAX only: one the policy refuses on fewer boards
    (boards.check_rollout) failed deep inside the run, after sets were played.  Now the script
    refuses it first, with the policy's own bound and the script's option, and writes nothing."""
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, str(EXPERIMENTS / f"{script}.py"), *args, "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    expected = _deeper_than(reach, boards).replace("--rollout", option, 1)
    assert done.returncode == 2 and done.stderr.endswith(f"{script}.py: error: {expected}\n"), done.stderr
    assert not out.exists()


def test_a_reach_at_the_policys_bound_for_each_board_count_is_accepted():
    """The shared check (board_goals.check_reaches) lets through exactly the deepest reach each
    board count allows, and refuses one more, as the policy would (no study is run here)."""
    import argparse

    from evo_wordle.boards import rollout_most

    from .experiment_scripts import load_experiment

    check_reaches = load_experiment("board_goals").check_reaches
    parser = argparse.ArgumentParser(prog="study")
    for boards in (2, 4, 8):
        most = rollout_most(boards)
        check_reaches(parser, "--reach", [0, most], [boards])
        with pytest.raises(SystemExit):
            check_reaches(parser, "--reach", [most + 1], [boards])
    check_reaches(parser, "--rollout", [rollout_most(2)], [2, 4, 8])  # the shallowest bound serves all
    with pytest.raises(SystemExit):
        check_reaches(parser, "--rollout", [rollout_most(2) + 1], [8, 4, 2])
