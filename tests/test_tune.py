"""`evo-wordle tune`: spaces, a tiny study end to end, resume, kill, pruning, sharing, params files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings
from evo_wordle.tune import (
    Param,
    TuneSpec,
    counted,
    load_params,
    load_space,
    open_study,
    optimize,
    paired,
    parse_space,
    training_plan,
)


@pytest.fixture(scope="module")
def lists(tmp_path_factory, cache_dir):
    """60 NYT answers inside 200 allowed words: small enough for trials of a few games."""
    ctx = Context()
    answers = [ctx.words.allowed[i] for i in ctx.words.answer_index[::37][:60]]
    others = [w for w in ctx.words.allowed[::61] if w not in answers][:140]
    folder = tmp_path_factory.mktemp("lists")
    (folder / "allowed.txt").write_text("\n".join(sorted(answers + others)) + "\n")
    (folder / "answers.txt").write_text("\n".join(sorted(answers)) + "\n")
    return str(folder / "allowed.txt"), str(folder / "answers.txt")


def _spec(lists, **kw) -> TuneSpec:
    base = dict(solver="ga-thesis", space=parse_space("population=2:12,mutation=0:0.5"),
                settings=Settings(candidates="answers").as_dict(), seed=3, split_seed=3, steps=(5, 12),
                allowed=lists[0], answers=lists[1])
    return TuneSpec(**{**base, **kw})


def _cli(lists, out: Path, *extra: str) -> list[str]:
    return ["tune", "--solver", "ga-thesis", "--space", "population=2:12,mutation=0:0.5", "--candidates",
            "answers", "--allowed", lists[0], "--answers", lists[1], "--steps", "5,12", "--seed", "3",
            "--top", "2", "--repeats", "2", "--out", str(out), "--no-plots", *extra]


# ------------------------------------------------------------------------------------ spaces


def test_space_grammar():
    space = parse_space("population=10:500:log, mutation=0:0.5, pressure=1:100:log, fitness=expected|dynamic")
    assert space["population"] == Param("population", "int", 10, 500, True)
    assert space["mutation"] == Param("mutation", "float", 0, 0.5, False)
    assert space["pressure"].kind == "int" and space["pressure"].log
    assert space["fitness"] == Param("fitness", "cat", choices=("expected", "dynamic"))
    assert parse_space("mutation=0.0:1")["mutation"].kind == "float"


@pytest.mark.parametrize("text", ["", "population", "population=", "p=1:2:3", "p=5:1", "p=0:10:log",
                                  "p=a:b", "p=1:nan", "p=1:2,p=3:4", "p=x|x", "Bad-Name!=1:2"])
def test_bad_spaces_are_refused(text):
    with pytest.raises(EvoWordleError):
        parse_space(text)


def test_space_files(tmp_path):
    (tmp_path / "s.toml").write_text('population = {low = 10, high = 500, log = true}\nfitness = ["a", "b"]\n')
    (tmp_path / "s.json").write_text(json.dumps({"mutation": {"low": 0, "high": 0.5}}))
    assert load_space(tmp_path / "s.toml")["population"] == Param("population", "int", 10, 500, True)
    assert load_space(tmp_path / "s.json")["mutation"].kind == "float"
    for bad in ('{"x": 3}', "[1]", "{", '{"x": {"low": 1}}', "x" * 70000):
        (tmp_path / "b.json").write_text(bad)
        with pytest.raises(EvoWordleError):
            load_space(tmp_path / "b.json")
    with pytest.raises(EvoWordleError):
        load_space(tmp_path)


# ------------------------------------------------------------------------------- the trials


def test_training_plan_is_fixed_and_the_objective_is_the_bench(lists):
    spec = _spec(lists)
    ctx = spec.context()
    train = spec.split(ctx).train
    plan = training_plan(spec, train)
    assert [len(a) for a, _ in plan] == [5, 7, len(train) - 12]
    assert sorted(np.concatenate([a for a, _ in plan])) == sorted(train)
    again = training_plan(spec, train)
    assert all(np.array_equal(a, b) and s == t for (a, s), (b, t) in zip(plan, again))
    # A trial's value is exactly the bench of its parameters on the planned games.
    import optuna

    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=0))
    from evo_wordle.tune import make_objective

    study.optimize(make_objective(spec, ctx), n_trials=1)
    t = study.trials[0]
    direct = np.concatenate([
        run_bench(ctx, "ga-thesis", spec.game_settings(), a, s, t.params).scores() for a, s in plan
    ])
    assert t.value == pytest.approx(direct.mean())
    assert t.user_attrs["games"] == len(train)


def test_same_seed_same_parameters(lists, tmp_path):
    def params(name):
        url = f"sqlite:///{tmp_path / name}"
        optimize(_spec(lists).as_dict(), url, "s", 3, 3)
        return [t.params for t in open_study(_spec(lists), url, "s").trials]

    assert params("a.db") == params("b.db")


def test_spec_mismatch_and_unknown_parameter_are_refused(lists, tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    open_study(_spec(lists), url, "s")
    with pytest.raises(EvoWordleError, match="other settings"):
        open_study(_spec(lists, seed=4), url, "s")
    with pytest.raises(EvoWordleError):
        _spec(lists, space=parse_space("tournsize=2:5")).check(Context(allowed=lists[0], answers=lists[1]))
    with pytest.raises(EvoWordleError):
        TuneSpec("ga", parse_space("population=2:5"), fixed={"population": 3})


def test_halving_prunes_and_counts_played_games(lists, tmp_path):
    url = f"sqlite:///{tmp_path / 'p.db'}"
    spec = _spec(lists, pruner="halving")
    optimize(spec.as_dict(), url, "p", 8, 3)
    study = open_study(spec, url, "p")
    states = [t.state.name for t in study.trials]
    assert states.count("PRUNED") >= 1 and states.count("COMPLETE") >= 1
    pruned = [t for t in study.trials if t.state.name == "PRUNED"]
    assert all(t.user_attrs["games"] < 24 for t in pruned)


# -------------------------------------------------------------------------- end to end, CLI


def test_tiny_study_end_to_end_and_params_round_trip(lists, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_cli(lists, out, "--trials", "4")) == 0
    text = capsys.readouterr()
    assert "split seed 3: train 24, validation 15, test 21" in text.err
    assert "test (21 answers never seen" in text.out and "finalists on validation" in text.out
    report = json.loads((out / "tune.json").read_text())
    assert report["trials"] == 4 and len(report["finalists"]) == 3  # 2 best trials + the defaults
    params = load_params(out / "best-params.json")
    assert params["solver"] == "ga-thesis"
    # bench --params plays exactly what the same flags play.
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in params["params"].items()]
    common = ["--candidates", "answers", "--allowed", lists[0], "--answers", lists[1], "--json", "--seed", "1"]
    assert main(["bench", "--params", str(out / "best-params.json"), *common]) == 0
    via_file = json.loads(capsys.readouterr().out)
    assert main(["bench", "--solver", "ga-thesis", *flags, *common]) == 0
    via_flags = json.loads(capsys.readouterr().out)
    assert via_file["mean_guesses"] == via_flags["mean_guesses"] and via_file["solver"] == "ga-thesis"
    # --split test replays the file's own test figure: the split it records, the test seed it reports
    held_out = ["--split", "test", "--seed", str(report["test"]["seed"])]
    assert main(["bench", "--params", str(out / "best-params.json"), *common[:-2], *held_out]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["games"] == 21
    assert replayed["settings"]["split_sizes"] == {"train": 24, "validation": 15, "test": 21}
    assert replayed["mean_guesses"] == pytest.approx(report["test"]["winner_mean"], abs=1e-12)
    # report reads the study
    assert main(["report", f"sqlite:///{out / 'study.db'}"]) == 0
    assert "4 complete" in capsys.readouterr().out
    # the same command again resumes: nothing more to run, the same trials
    assert main(_cli(lists, out, "--trials", "6")) == 0
    capsys.readouterr()
    assert json.loads((out / "tune.json").read_text())["trials"] == 6


def test_params_file_is_checked(tmp_path, capsys):
    bad = tmp_path / "p.json"
    for text in ("{", "[]", json.dumps({"format": "x"}),
                 json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {"x y": 1}}),
                 json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {"a": [1]}})):
        bad.write_text(text)
        with pytest.raises(EvoWordleError):
            load_params(bad)
    bad.write_text(json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {"population": 5}}))
    assert main(["bench", "--solver", "greedy", "--params", str(bad), "--games", "3"]) == 2
    assert "for solver 'ga', not 'greedy'" in capsys.readouterr().err


def test_bad_command_lines_are_one_line(lists, tmp_path, capsys):
    for extra in (["--storage", "nonsense"], ["--steps", "9,3"], ["--fix", "population=1,2"]):
        assert main(_cli(lists, tmp_path / "x", *extra)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    (tmp_path / "file").write_text("")
    assert main(_cli(lists, tmp_path / "file")) == 2


@pytest.mark.parametrize("kind", ["to-a-file", "dangling", "fifo"])
def test_a_study_database_is_never_written_through_a_symlink(lists, tmp_path, capsys, kind):
    """SQLite writes its file in place: a symlink (or a FIFO) as --storage is refused up front."""
    victim = tmp_path / "precious.db"
    db = tmp_path / "study.db"
    if kind == "to-a-file":
        victim.write_bytes(b"")  # an empty file is a valid empty database to SQLite
        db.symlink_to(victim)
    elif kind == "dangling":
        db.symlink_to(victim)
    else:
        os.mkfifo(db)
    assert main(_cli(lists, tmp_path / "x", "--storage", f"sqlite:///{db}")) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert ("is a symlink; refusing" if kind != "fifo" else "is a FIFO, not a regular file") in err
    assert (victim.read_bytes() == b"") if kind == "to-a-file" else not victim.exists()
    assert not (tmp_path / "x").exists()


def test_paired_difference():
    a = np.array([3, 4, 4, 5, 3, 4] * 50, float)
    assert paired(a, a)["mean"] == 0 and not paired(a, a)["significant"]
    d = paired(a - 0.5, a)
    assert d["mean"] == pytest.approx(-0.5) and d["significant"] and d["high"] < 0
    rng = np.random.default_rng(0)
    x, y = rng.integers(3, 6, 400).astype(float), rng.integers(3, 6, 400).astype(float)
    p = paired(x, y)
    assert p["low"] < p["mean"] < p["high"] and p["detectable"] > 0


# ------------------------------------------------------------------- kill, resume, sharing


def _tune_process(lists, out: Path, trials: int, log: Path) -> subprocess.Popen:
    code = "import sys; from evo_wordle.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, *_cli(lists, out, "--trials", str(trials))],
                            stdout=subprocess.DEVNULL, stderr=log.open("w"), env=os.environ.copy())


def _finished_trials(db: Path) -> int:
    """Finished or pruned trials, read without creating anything (the tune process owns the
    database: opening the study from here could race its table creation)."""
    import sqlite3

    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            return con.execute("SELECT count(*) FROM trials WHERE state IN ('COMPLETE', 'PRUNED')").fetchone()[0]
    except sqlite3.Error:  # tables not made yet, or the writer holds the lock
        return 0


def test_killed_tune_continues_the_same_study(lists, tmp_path):
    out = tmp_path / "killed"
    log = tmp_path / "tune.log"
    proc = _tune_process(lists, out, 100_000, log)  # never finishes on its own: the kill lands mid-study
    url = f"sqlite:///{out.resolve() / 'study.db'}"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None and _finished_trials(out / "study.db") < 2:
        time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, log.read_text()[-2000:]
    before = {t.number: t.params for t in open_study(_spec(lists), url, "evo-wordle").trials
              if t.state.name in ("COMPLETE", "PRUNED")}
    assert len(before) >= 2
    assert main(_cli(lists, out, "--trials", str(len(before) + 2))) == 0
    study = open_study(_spec(lists), url, "evo-wordle")
    after = {t.number: t.params for t in study.trials if t.state.name in ("COMPLETE", "PRUNED")}
    assert len(after) == len(before) + 2
    assert all(after[n] == p for n, p in before.items())  # nothing lost, nothing redone


def test_two_processes_share_one_study(lists, tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    open_study(_spec(lists), url, "shared")
    code = ("import sys; from evo_wordle.tune import optimize, TuneSpec; import json; "
            "optimize(json.loads(sys.argv[1]), sys.argv[2], 'shared', 6, int(sys.argv[3]))")
    procs = [subprocess.Popen([sys.executable, "-c", code, json.dumps(_spec(lists).as_dict()), url, str(s)])
             for s in (11, 12)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    study = open_study(_spec(lists), url, "shared")
    numbers = [t.number for t in study.trials]
    assert len(numbers) == len(set(numbers)) and counted(study) >= 6


def test_dask_workers_share_one_study_and_values_do_not_depend_on_the_worker(lists, tmp_path):
    """`tune --executor dask --jobs 2`: two Dask workers fill one study; each trial's value is the
    bench of its parameters on the planned games, whichever worker played it."""
    from evo_wordle.tune import run_study

    spec = _spec(lists)
    url = f"sqlite:///{tmp_path / 'dask.db'}"
    study = run_study(spec, url, "d", 6, jobs=2, executor="dask")
    numbers = [t.number for t in study.trials]
    assert len(numbers) == len(set(numbers)) and counted(study) >= 6
    ctx = spec.context()
    plan = training_plan(spec, spec.split(ctx).train)
    done = [t for t in study.trials if t.state.name == "COMPLETE"]
    assert done
    for t in done:
        direct = np.concatenate([run_bench(ctx, "ga-thesis", spec.game_settings(), a, s, t.params).scores()
                                 for a, s in plan])
        assert t.value == pytest.approx(direct.mean())


def test_figures_show_every_trial_in_the_house_style(lists, tmp_path):
    """history: finished trials, pruned ones where they stopped, best so far monotone, the
    baseline; importance: Optuna's shares adding up to 1; landscape: exactly the finished trials."""
    from evo_wordle.plots.style import BASELINE, STUDIED
    from evo_wordle.plots.tune import history_data, plot_history, plot_importance, plot_landscape

    url = f"sqlite:///{tmp_path / 'f.db'}"
    spec = _spec(lists, pruner="halving")
    optimize(spec.as_dict(), url, "f", 10, 3)
    study = open_study(spec, url, "f")
    data = history_data(study)
    states = [t.state.name for t in study.trials]
    assert len(data["complete"]) == states.count("COMPLETE") >= 2
    assert len(data["pruned"]) == states.count("PRUNED") >= 1
    assert all(games < 24 for _, _, games in data["pruned"])
    assert data["best"] == sorted(data["best"], reverse=True)  # never rises
    assert data["best"][-1] == min(v for _, v in data["complete"])
    plotted = plot_history(study, spec, 4.25, tmp_path / "history.png")
    ax = plotted.figure.axes[0]
    assert [line.get_color() for line in ax.lines[:2]] == [STUDIED, STUDIED]
    assert any(line.get_color() == BASELINE and list(line.get_ydata()) == [4.25, 4.25] for line in ax.lines)
    assert "seed 3" in plotted.data["caption"] and "16 trials" not in plotted.data["caption"]
    imp = plot_importance(study, spec, tmp_path / "importance.png").data["importance"]
    assert set(imp) == {"population", "mutation"} and sum(imp.values()) == pytest.approx(1.0)
    land = plot_landscape(study, spec, "population", "mutation", tmp_path / "contour.png").data
    done = [t for t in study.trials if t.state.name == "COMPLETE"]
    assert land["trial"] == [t.number for t in done]
    assert land["x"] == [t.params["population"] for t in done] and land["value"] == [t.value for t in done]
    for name in ("history.png", "importance.png", "contour.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
