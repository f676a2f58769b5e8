"""`evo-wordle tune`: spaces, a tiny study end to end, resume, kill, pruning, sharing, params files."""

from __future__ import annotations

import json
import os
import re
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
    games_played,
    load_params,
    load_space,
    open_study,
    optimize,
    paired,
    parse_space,
    repeated,
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


@pytest.mark.parametrize("text, message", [
    ("population=abc", "--space 'population=abc': 'abc' is neither a range nor choices: expected "
     "population=LOW:HIGH[:log] or population=A|B; to hold one value, use --fix population=abc"),
    ("population=10:abc", "--space 'population=10:abc': the high bound 'abc' is not a number: expected "
     "population=LOW:HIGH[:log] with numbers as bounds"),
    ("mutation=x:0.5", "--space 'mutation=x:0.5': the low bound 'x' is not a number: expected "
     "mutation=LOW:HIGH[:log] with numbers as bounds"),
])
def test_a_space_value_that_does_not_parse_is_named_with_the_form_expected(tmp_path, capsys, text, message):
    """`--space population=abc` said "population=abc is one value, nothing to search: use --fix
    population=abc" (which fails too) and `population=10:abc` only "'abc' is not a number"."""
    with pytest.raises(EvoWordleError) as caught:
        parse_space(f"pressure=1:100,{text}")
    assert str(caught.value) == message
    assert main(["tune", "--space", text, "--out", str(tmp_path / "t")]) == 2
    assert capsys.readouterr().err == f"evo-wordle: error: {message}\n"
    assert not (tmp_path / "t").exists()


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


def test_a_repeated_point_takes_the_earlier_figure_and_plays_no_game(lists, tmp_path):
    # Four points, ten trials: TPE proposes some again. A repeat must carry exactly the figure a
    # bench of its point gives (the same games and seeds), and cost no game.
    url = f"sqlite:///{tmp_path / 'd.db'}"
    spec = _spec(lists, space=parse_space("population=2|4,mutation=0.0|0.5"), pruner="none")
    optimize(spec.as_dict(), url, "d", 10, 3)
    study = open_study(spec, url, "d")
    trials = sorted(study.trials, key=lambda t: t.number)
    firsts = [t for t in trials if "same_as" not in t.user_attrs]
    again = [t for t in trials if "same_as" in t.user_attrs]
    assert again and repeated(study) == len(again) and len(firsts) + len(again) == 10
    assert len({json.dumps(t.params, sort_keys=True) for t in firsts}) == len(firsts) <= 4
    ctx = spec.context()
    plan = training_plan(spec, spec.split(ctx).train)
    by_number = {t.number: t for t in trials}
    for t in again:
        first = by_number[t.user_attrs["same_as"]]
        assert first.params == t.params and "same_as" not in first.user_attrs and first.number < t.number
        assert t.user_attrs["games"] == 0 and t.value == first.value
        played = np.concatenate([run_bench(ctx, "ga-thesis", spec.game_settings(), a, s, t.params).scores()
                                 for a, s in plan])
        assert t.value == pytest.approx(played.mean())
    assert games_played(study) == len(firsts) * sum(len(a) for a, _ in plan)


def test_a_repeat_of_a_pruned_point_plays_only_the_games_after_what_is_known(lists):
    import optuna

    from evo_wordle.tune import make_objective

    class Switch(optuna.pruners.BasePruner):
        on = True

        def prune(self, study, trial):
            return self.on

    spec = _spec(lists, space=parse_space("population=2|4"))
    ctx = spec.context()
    plan = training_plan(spec, spec.split(ctx).train)
    full = np.concatenate([run_bench(ctx, "ga-thesis", spec.game_settings(), a, s, {"population": 4}).scores()
                           for a, s in plan])
    pruner = Switch()
    study = optuna.create_study(pruner=pruner)
    objective = make_objective(spec, ctx)
    study.enqueue_trial({"population": 4})
    study.optimize(objective, n_trials=1)  # pruned after the first step (5 games)
    assert study.trials[0].state.name == "PRUNED" and study.trials[0].user_attrs == {"games": 5}
    study.enqueue_trial({"population": 4})
    study.optimize(objective, n_trials=1)  # still pruned there: no game played
    assert study.trials[1].state.name == "PRUNED" and study.trials[1].user_attrs == {"games": 0, "same_as": 0}
    assert study.trials[1].intermediate_values == study.trials[0].intermediate_values
    pruner.on = False
    study.enqueue_trial({"population": 4})
    study.optimize(objective, n_trials=1)  # goes on: plays only the games after the first 5
    t = study.trials[2]
    assert t.state.name == "COMPLETE" and t.user_attrs == {"games": len(full) - 5, "same_as": 0}
    assert t.value == pytest.approx(full.mean()) and t.intermediate_values[5] == study.trials[0].intermediate_values[5]
    assert t.intermediate_values[12] == pytest.approx(full[:12].mean())
    study.enqueue_trial({"population": 4})
    study.optimize(objective, n_trials=1)  # finished now: its figure, no game
    assert study.trials[3].user_attrs == {"games": 0, "same_as": 2} and study.trials[3].value == t.value


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
    # every parameter of the solver travels with the tuned ones, and the study's seeds and space
    ctx = Context(allowed=lists[0], answers=lists[1])
    from evo_wordle.solvers import make_solver

    described = make_solver("ga-thesis", ctx, Settings(candidates="answers"), **params["params"]).describe()
    assert params["solver_params"] == {k: v for k, v in described.items()
                                       if k not in ("solver", "class") and v is not None}
    assert {"crossover_rate", "elite", "hof_size"} <= set(params["solver_params"]) - set(params["params"])
    assert params["provenance"]["spec"]["seed"] == 3 and set(params["provenance"]["spec"]["space"]) == {
        "population", "mutation"}
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
    assert main(["report", str(out)]) == 0  # the folder tune wrote: its study
    assert "4 complete" in capsys.readouterr().out
    # csv and markdown are the sweep report's forms: a study's report printed its text form instead
    assert main(["report", str(out), "--format", "csv"]) == 2
    assert "report of a tune study prints text or json, not --format csv" in capsys.readouterr().err
    # the same command again resumes: nothing more to run, the same trials
    assert main(_cli(lists, out, "--trials", "6")) == 0
    capsys.readouterr()
    assert json.loads((out / "tune.json").read_text())["trials"] == 6


def test_when_the_defaults_win_validation_no_paired_test_is_reported(lists, tmp_path, capsys, monkeypatch):
    # every trial scores 2 per game, the defaults 1: the defaults win, and pairing them with
    # themselves would print a difference of 0 that "detects" 0
    import evo_wordle.tune as tune_mod

    def scores(ctx, spec, params, answers, seed, jobs=1, *rest, **kw):
        return np.full(len(answers), 1.0 if not params else 2.0)

    monkeypatch.setattr(tune_mod, "play_scores", scores)
    out = tmp_path / "dw"
    assert main(_cli(lists, out, "--trials", "2")) == 0
    text = capsys.readouterr().out
    assert "test (21 answers never seen): defaults 1.0000; no paired test" in text
    assert "detects" not in text and "winner − defaults" not in text
    report = json.loads((out / "tune.json").read_text())
    assert report["winner"]["trial"] == "defaults" and report["test"]["winner_minus_default"] is None
    assert report["test"]["games"] == 21


def test_one_validation_repeat_gives_no_interval_and_strict_json(lists, tmp_path, capsys):
    out = tmp_path / "one"
    args = _cli(lists, out, "--trials", "2")
    args[args.index("--repeats") + 1] = "1"
    assert main(args) == 0
    assert "(one repeat)" in capsys.readouterr().out
    report = json.loads((out / "tune.json").read_text(), parse_constant=lambda c: pytest.fail(f"{c} in tune.json"))
    assert all(f["validation_ci95"] is None and f["repeats"] == 1 for f in report["finalists"])


def test_a_strategy_file_given_as_params_is_named_as_such(tmp_path, capsys):
    small = tmp_path / "s.json"
    small.write_text(json.dumps({"format": "evo-wordle-strategy", "version": 1}))
    large = tmp_path / "l.json"  # past the parameter file's size cap, as shipped strategies with trees are
    large.write_text(json.dumps({"format": "evo-wordle-strategy", "version": 1, "tree": {"x" * 10: "y" * 80_000}}))
    for path in (small, large):
        with pytest.raises(EvoWordleError, match="is a strategy file, not a parameter file: replay it with --strategy"):
            load_params(path)
        assert main(["bench", "--params", str(path), "--games", "2"]) == 2
        assert capsys.readouterr().err.count("\n") == 1
    (tmp_path / "x.json").write_text("x" * 70_000)  # too large and no strategy: the size is the reason
    with pytest.raises(EvoWordleError, match="too large"):
        load_params(tmp_path / "x.json")


def _made_for_file(lists, path: Path, solver_params: dict) -> None:
    """A parameter file as tune writes it, made for hard mode with the answers known, cap 8."""
    from evo_wordle.artefacts import made_for

    ctx = Context(allowed=lists[0], answers=lists[1])
    game = Settings(candidates="answers", hard=True, max_guesses=8)
    path.write_text(json.dumps({
        "format": "evo-wordle-params", "version": 1, "solver": "ga-thesis", "params": {"population": 4},
        "solver_params": solver_params, "settings": game.as_dict(), "made_for": made_for(game, ctx.words),
        "provenance": {}}))


def test_sweep_names_the_params_file_whose_setting_a_grid_problem_would_replace(lists, tmp_path, capsys):
    """`sweep --params FILE --set problem=P1,P0` with a file made for candidates=answers was
    refused with "drop candidates from the fixed settings", which no flag had given.  Now the
    one line names the file as the source and advice one can follow (and following it works)."""
    path = tmp_path / "best-params.json"
    _made_for_file(lists, path, {"population": 4})
    out = tmp_path / "sweep"
    argv = ["sweep", "--solver", "ga-thesis", "--params", str(path), "--set", "problem=P1,P0", "--games", "2",
            "--seeds", "1", "--jobs", "1", "--quiet", "--out", str(out), "--allowed", lists[0], "--answers", lists[1]]
    assert main(argv) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln]
    assert err == [f"evo-wordle: error: parameter file {path} was made for candidates=answers, which the grid's "
                   "problem=P0 would replace (P0 sets candidates=allowed): drop --set problem to play the file's "
                   'game, or set candidates to allowed in the file\'s "made_for" (and "settings")']
    assert not out.exists()
    doc = json.loads(path.read_text())
    doc["made_for"]["candidates"] = "allowed"  # alone, the file says two things: refused, naming the key
    path.write_text(json.dumps(doc))
    assert main(argv) == 2 and capsys.readouterr().err == (
        f"evo-wordle: error: parameter file {path}: settings and made_for disagree on candidates "
        "('answers' and 'allowed')\n")
    doc["settings"]["candidates"] = "allowed"
    path.write_text(json.dumps(doc))
    assert main(argv) == 0 and len((out / "results.csv").read_text().splitlines()) == 3


def test_sweep_leaves_out_a_params_files_value_no_configuration_reads_with_one_warning(lists, tmp_path, capsys):
    """A tuned winner of a search over selection and tournament_size may be a roulette run whose
    file holds a tournament_size too (tune writes every sampled value).  `sweep --params` refused
    it as a grid key ("... or drop tournament_size", which the file, not the grid, gave), so a
    file bench plays could not be swept.  Now it is left out of the grid with one warning naming
    the file; one that some configurations read stays, with the grid's warning."""
    path = tmp_path / "best-params.json"
    _made_for_file(lists, path, {})
    doc = json.loads(path.read_text())
    doc["params"] = {"population": 4, "selection": "roulette", "choice": "roulette", "tournament_size": 7}
    path.write_text(json.dumps(doc))
    common = ["--games", "2", "--seeds", "1", "--jobs", "1", "--quiet", "--allowed", lists[0], "--answers", lists[1]]
    out = tmp_path / "sweep"
    assert main(["sweep", "--solver", "ga-thesis", "--params", str(path), "--set", "mutation=0.1,0.2",
                 "--out", str(out), *common]) == 0
    err = [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln]
    assert err == [f"evo-wordle: warning: parameter file {path} sets tournament_size=7, which no configuration reads "
                   "(tournament_size is for tournament selection, but ga-thesis selects parents by roulette and "
                   "chooses its guess by roulette): left out of the grid"]
    assert json.loads((out / "sweep.json").read_text())["grid"] == {
        "population": [4], "selection": ["roulette"], "choice": ["roulette"], "mutation": [0.1, 0.2]}
    assert main(["sweep", "--solver", "ga-thesis", "--params", str(path), "--set", "selection=roulette,tournament",
                 "--out", str(tmp_path / "both"), *common]) == 0
    err = [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln]
    assert len(err) == 1 and err[0].startswith("evo-wordle: warning: grid key 'tournament_size' is not read by "
                                               "1 configuration of 2")
    assert json.loads((tmp_path / "both" / "sweep.json").read_text())["grid"]["tournament_size"] == [7]


def test_bench_warns_once_of_a_params_files_value_the_solver_never_reads(lists, tmp_path, capsys):
    """The same file to bench: its tournament_size was played without it and without a word.
    Now one warning naming the file (not a refusal, as the flag gets: the file gave it), and the
    run is the one without it; a flag the solver reads is no warning."""
    path = tmp_path / "best-params.json"
    _made_for_file(lists, path, {})
    doc = json.loads(path.read_text())
    doc["params"] = {"population": 4, "selection": "roulette", "choice": "roulette", "tournament_size": 7}
    path.write_text(json.dumps(doc))
    common = ["--games", "3", "--seed", "2", "--json", "--allowed", lists[0], "--answers", lists[1]]
    assert main(["bench", "--params", str(path), *common]) == 0
    captured = capsys.readouterr()
    err = [ln for ln in captured.err.splitlines() if "built pattern table" not in ln]
    assert err == [f"evo-wordle: warning: parameter file {path} sets tournament_size=7, which ga-thesis never reads "
                   "here (tournament_size is for tournament selection, but ga-thesis selects parents by roulette and "
                   "chooses its guess by roulette): played without it"]
    doc["params"].pop("tournament_size")
    path.write_text(json.dumps(doc))
    assert main(["bench", "--params", str(path), *common]) == 0
    without = capsys.readouterr()
    assert without.err == "" and json.loads(without.out)["mean_guesses"] == json.loads(captured.out)["mean_guesses"]


def _roulette_file(lists, path: Path, **solver_params) -> None:
    """A roulette winner's parameter file with a sampled tournament_size (tune writes every value)."""
    _made_for_file(lists, path, solver_params)
    doc = json.loads(path.read_text())
    doc["params"] = {"population": 4, "selection": "roulette", "choice": "roulette", "tournament_size": 7}
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("command", [
    ["bench", "--games", "2", "--repeat", "2"],  # two runs of one solver: its parameters were built three times
    ["compare", "--solvers", "ga-thesis,greedy", "--games", "2", "--mixed"],  # each row's, checked first, then run
    ["solve", "ANSWER", "--solver", "ga-thesis"],
    ["plot", "histograms", "--solvers", "ga-thesis,greedy", "--games", "2", "--jobs", "1", "--out", "OUT"],
    ["plot", "evolution", "--answer", "ANSWER", "--runs", "2", "--out", "OUT"],
    ["plot", "convergence", "--answer", "ANSWER", "--runs", "2", "--baseline", "greedy", "--jobs", "1",
     "--out", "OUT"],
], ids=lambda c: "-".join(c[:2]))
def test_every_command_warns_once_of_a_params_files_value_the_solver_never_reads(lists, tmp_path, capsys, command):
    """bench and compare built a solver's parameters more than once (to check the flags, then for
    each run), so the warning was kept from repeating by a mark on the parsed flags; each command
    now builds them once per solver, and says it once."""
    path = tmp_path / "best-params.json"
    _roulette_file(lists, path)
    answer = Path(lists[1]).read_text().split()[0]
    argv = [answer if a == "ANSWER" else str(tmp_path / "p.png") if a == "OUT" else a for a in command]
    assert main([*argv, "--params", str(path), "--allowed", lists[0], "--answers", lists[1]]) == 0
    err = [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln]
    assert [ln for ln in err if "never reads" in ln] == [
        f"evo-wordle: warning: parameter file {path} sets tournament_size=7, which ga-thesis never reads here "
        "(tournament_size is for tournament selection, but ga-thesis selects parents by roulette and chooses its "
        "guess by roulette): played without it"]


def test_bench_warns_of_a_hand_edited_solver_params_value_the_solver_never_reads(lists, tmp_path, capsys):
    """The warning named the file's tuned values (``params``) only: a tournament_size set by hand in
    its ``solver_params`` (every value the solver plays) was played without it and without a word.
    Now it is named too; one at the solver's default (tune writes every value, an unread one so)
    is no warning."""
    from evo_wordle.solvers import SOLVERS, load_all

    load_all()
    default = SOLVERS["ga-thesis"].configure({}).tournament_size
    path = tmp_path / "best-params.json"
    common = ["--games", "2", "--allowed", lists[0], "--answers", lists[1]]
    _made_for_file(lists, path, {"population": 4, "selection": "roulette", "choice": "roulette",
                                 "tournament_size": default + 4})
    assert main(["bench", "--params", str(path), *common]) == 0
    err = [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln]
    assert err == [f"evo-wordle: warning: parameter file {path} sets tournament_size={default + 4}, which ga-thesis "
                   "never reads here (tournament_size is for tournament selection, but ga-thesis selects parents by "
                   "roulette and chooses its guess by roulette): played without it"]
    _made_for_file(lists, path, {"population": 4, "selection": "roulette", "choice": "roulette",
                                 "tournament_size": default})
    assert main(["bench", "--params", str(path), *common]) == 0
    assert [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln] == []


def test_strategy_plays_a_policy_files_solver_params_as_params_does(tmp_path, capsys):
    """``--strategy FILE`` naming a multi-board policy read the file's ``params`` only, so a value
    in its ``solver_params`` (which ``--params FILE`` plays) was ignored without a word; both now
    read the file alike."""
    from evo_wordle.evolve.strategy import resolve_strategy_path

    doc = json.loads(resolve_strategy_path("dordle-evolved").read_text())
    doc["params"].pop("rollout")
    doc["solver_params"] = {"ties": "alphabetical"}
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(doc))
    played = []
    for flag in ("--strategy", "--params"):
        solver = ["--solver", "strategy"] if flag == "--strategy" else []
        assert main(["bench", *solver, flag, str(path), "--games", "2", "--json"]) == 0
        captured = capsys.readouterr()
        played.append(json.loads(captured.out)["settings"]["ties"])
    assert played == ["alphabetical", "alphabetical"]


def test_sweep_and_bench_play_the_settings_and_every_parameter_a_params_file_records(lists, tmp_path, capsys):
    """`sweep --params` took the tuned parameters only: it swept under the flags' game (any
    word may be the answer, easy mode, cap 9), not the one the file was tuned for, and the
    file held none of the solver's other parameters.  Now the file's settings are played (a
    flag overriding one warns, as bench does), and its other parameters travel with it."""
    path = tmp_path / "best-params.json"
    _made_for_file(lists, path, {"population": 4, "crossover_rate": 0.5, "elite": 0})
    words = ["--allowed", lists[0], "--answers", lists[1]]
    out = tmp_path / "sweep"
    assert main(["sweep", "--solver", "ga-thesis", "--params", str(path), "--set", "mutation=0.1,0.2", "--games",
                 "2", "--seeds", "1", "--jobs", "1", "--quiet", "--out", str(out), *words]) == 0
    # no warning; the first test of a worker to use these lists also builds their table and says so
    assert [ln for ln in capsys.readouterr().err.splitlines() if "built pattern table" not in ln] == []
    spec = json.loads((out / "sweep.json").read_text())
    assert spec["settings"] == {**Settings(candidates="answers", hard=True, max_guesses=8).as_dict()}
    # the tuned parameter and the one that differs from the default; elite 0 is the default here
    assert spec["grid"] == {"population": [4], "crossover_rate": [0.5], "mutation": [0.1, 0.2]}
    assert main(["sweep", "--solver", "ga-thesis", "--params", str(path), "--set", "mutation=0.1", "--games", "2",
                 "--seeds", "1", "--jobs", "1", "--quiet", "--max-guesses", "9", "--out", str(tmp_path / "s9"),
                 *words]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "made for other settings; overriding max_guesses 8 -> 9" in err
    assert json.loads((tmp_path / "s9" / "sweep.json").read_text())["settings"]["max_guesses"] == 9
    # bench plays every recorded parameter: the same as giving them as flags
    common = ["--seed", "1", "--games", "4", "--json", *words]
    assert main(["bench", "--params", str(path), *common]) == 0
    via_file = json.loads(capsys.readouterr().out)
    assert main(["bench", "--solver", "ga-thesis", "--population", "4", "--crossover-rate", "0.5", "--candidates",
                 "answers", "--hard", "--max-guesses", "8", *common]) == 0
    via_flags = json.loads(capsys.readouterr().out)
    assert via_file["settings"]["crossover_rate"] == 0.5 and via_file["settings"] == via_flags["settings"]
    assert via_file["mean_guesses"] == via_flags["mean_guesses"]


def test_params_file_is_checked(tmp_path, capsys):
    bad = tmp_path / "p.json"
    for text in ("{", "[]", json.dumps({"format": "x"}),
                 json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {"x y": 1}}),
                 json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {"a": [1]}}),
                 json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {}, "solver_params": []}),
                 json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {},
                             "solver_params": {"elite": float("nan")}})):
        bad.write_text(text)
        with pytest.raises(EvoWordleError):
            load_params(bad)
    bad.write_text(json.dumps({"format": "evo-wordle-params", "solver": "ga", "params": {"population": 5}}))
    assert main(["bench", "--solver", "greedy", "--params", str(bad), "--games", "3"]) == 2
    assert "for solver 'ga', not 'greedy'" in capsys.readouterr().err


@pytest.mark.parametrize("change, message", [
    ({"version": 2}, "unsupported version 2"),  # a later format was played as this one
    ({"version": "1"}, "unsupported version '1'"),
    ({"version": True}, "unsupported version True"),
    ({"solver_param": {"population": 5}}, "unknown key(s): 'solver_param'"),  # a misspelling was lost
])
def test_a_params_file_of_another_version_or_with_an_unknown_key_is_refused(tmp_path, capsys, change, message):
    path = tmp_path / "p.json"
    doc = {"format": "evo-wordle-params", "version": 1, "solver": "greedy", "params": {"opener": "crane"}}
    path.write_text(json.dumps(doc))
    assert load_params(path)["params"] == {"opener": "crane"}
    path.write_text(json.dumps({**doc, **change}))
    with pytest.raises(EvoWordleError, match=re.escape(message)):
        load_params(path)
    assert main(["bench", "--params", str(path), "--games", "3"]) == 2
    assert message in capsys.readouterr().err


def test_a_params_file_that_says_two_things_is_refused(tmp_path, capsys):
    """A file whose ``params`` and ``solver_params`` differ on a parameter, or whose
    ``settings`` and ``made_for`` differ on a setting, was played silently (``params`` and
    ``made_for`` won).  Now one line names the key; equal records still load."""
    from evo_wordle.artefacts import made_for

    game = Settings(candidates="answers", max_guesses=8)
    doc = {"format": "evo-wordle-params", "version": 1, "solver": "greedy", "params": {"opener": "crane"},
           "solver_params": {"opener": "crane", "hard_candidates": True}, "settings": game.as_dict(),
           "made_for": made_for(game, Context().words), "provenance": {}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    assert load_params(path)["params"] == {"opener": "crane"}
    for edit, message in (
            (lambda d: d["solver_params"].update(opener="salet"),
             "params and solver_params disagree on opener ('crane' and 'salet')"),
            (lambda d: d["params"].update(hard_candidates=1),
             "params and solver_params disagree on hard_candidates (1 and True)"),
            (lambda d: d["settings"].update(max_guesses=4), "settings and made_for disagree on max_guesses (4 and 8)"),
            (lambda d: d["made_for"].update(hard=True), "settings and made_for disagree on hard (False and True)")):
        bad = json.loads(json.dumps(doc))
        edit(bad)
        path.write_text(json.dumps(bad))
        with pytest.raises(EvoWordleError, match=re.escape(f"parameter file {path}: {message}")):
            load_params(path)
        assert main(["bench", "--params", str(path), "--games", "3"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == f"evo-wordle: error: parameter file {path}: {message}\n"


def test_bad_command_lines_are_one_line(lists, tmp_path, capsys):
    for extra in (["--storage", "nonsense"], ["--steps", "9,3"], ["--fix", "population=1,2"]):
        assert main(_cli(lists, tmp_path / "x", *extra)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    (tmp_path / "file").write_text("")
    assert main(_cli(lists, tmp_path / "file")) == 2


def test_tune_refuses_another_programs_sqlite_file_and_takes_an_empty_one_or_its_own_study(lists, tmp_path, capsys):
    """`tune --storage sqlite:///FILE` on another program's SQLite database added Optuna's
    tables to it; it is refused (the check `report` makes, read-only) and left byte for byte.
    An empty file, a missing one and an existing study still work."""
    import sqlite3

    from evo_wordle.tune import run_study

    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.commit()
    con.close()
    before = other.read_bytes()
    Context(allowed=lists[0], answers=lists[1]).table  # noqa: B018 - built now: no notice below
    assert main(_cli(lists, tmp_path / "x", "--trials", "1", "--storage", f"sqlite:///{other}")) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"evo-wordle: error: {other} is an SQLite database without Optuna study tables: "
                                 "tune adds its tables only to a new file or a study database\n")
    assert other.read_bytes() == before and not (tmp_path / "x").exists()
    with pytest.raises(ValueError, match="without Optuna study tables"):  # the Python API too
        run_study(_spec(lists), f"sqlite:///{other}", "s", 1)
    assert other.read_bytes() == before
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for db, trials in ((empty, "1"), (empty, "2"), (tmp_path / "new.db", "1")):  # the second: its own study
        assert main(_cli(lists, tmp_path / "y", "--trials", trials, "--storage", f"sqlite:///{db}")) == 0, \
            capsys.readouterr().err
        capsys.readouterr()
    from evo_wordle.tune import study_summary

    assert study_summary(f"sqlite:///{empty}")["states"]["complete"] + \
        study_summary(f"sqlite:///{empty}")["states"]["pruned"] == 2


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


def test_opening_a_new_study_while_another_tune_makes_its_schema_waits_for_it(tmp_path, monkeypatch):
    """Two tunes started together into one new --out: the second's open met the first's schema
    half-made ("table studies already exists", "UNIQUE constraint failed: alembic_version"),
    exit 2; it tries again once the tables are there.  Any other failure is still one line at once."""
    import sqlite3

    import optuna.storages

    from evo_wordle import tune

    calls = []

    def racing(url, **kwargs):
        calls.append(url)
        if len(calls) == 1:
            raise RuntimeError("(sqlite3.OperationalError) table studies already exists\n[SQL: CREATE TABLE]")
        return "storage"

    monkeypatch.setattr(optuna.storages, "RDBStorage", racing)
    monkeypatch.setattr(tune.time, "sleep", lambda s: None)
    url = f"sqlite:///{tmp_path / 'study.db'}"
    assert tune._storage(url) == "storage" and len(calls) == 2

    def broken(url, **kwargs):
        calls.append(url)
        raise RuntimeError("unable to open database file")

    calls.clear()
    monkeypatch.setattr(optuna.storages, "RDBStorage", broken)
    with pytest.raises(EvoWordleError, match="cannot open the study storage .*: unable to open database file"):
        tune._storage(url)
    assert len(calls) == 1
    # the check before the open: some of Optuna's tables (being made) pass for a new study only
    half = tmp_path / "half.db"
    con = sqlite3.connect(half)
    con.execute("CREATE TABLE studies (study_id INTEGER)")
    con.commit()
    con.close()
    tune.require_study_database(half, new=True)
    with pytest.raises(EvoWordleError, match="without Optuna study tables"):
        tune.require_study_database(half)


def test_two_tunes_started_together_into_one_new_folder_both_finish(lists, tmp_path):
    argv = [sys.executable, "-m", "evo_wordle", *_cli(lists, tmp_path / "t", "--trials", "2", "--repeats", "1")]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stdout.read(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert [code for code, _, _ in results] == [0, 0], [err for _, _, err in results]


@pytest.mark.parametrize("space, refused", [
    ("population=2:12,mutation=0.1|5", "mutation=5"),             # a choice out of range
    ("population=2:12,mutation=0.5:3.0", "mutation=3.0"),         # the upper bound
    ("population=2:5000000:log,mutation=0:0.5", "population=5000000"),
    ("population=2:12,opener=OK|zzzzz", "opener=zzzzz"),          # not a word (OK: one of the list)
])
def test_every_bound_and_choice_is_checked_before_any_trial(lists, tmp_path, capsys, space, refused):
    space = space.replace("OK", Path(lists[0]).read_text().split()[0])
    spec = _spec(lists, space=parse_space(space))
    with pytest.raises(EvoWordleError, match=f"refuses {refused}:"):
        spec.check(spec.context())
    args = _cli(lists, tmp_path / "x")
    args[args.index("--space") + 1] = space
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and refused in err and not (tmp_path / "x").exists()


def test_a_single_value_is_not_a_search():
    with pytest.raises(EvoWordleError, match="use --fix population=10"):
        parse_space("population=10")
    parse_space("population=10|20")


def test_an_error_inside_a_trial_ends_the_run_in_one_line(lists, tmp_path, capfd, monkeypatch):
    import evo_wordle.tune as tune

    def refuse(*args, **kw):
        raise EvoWordleError("this trial cannot be played")

    monkeypatch.setattr(tune, "play_scores", refuse)
    with pytest.raises(EvoWordleError, match="cannot be played"):
        optimize(_spec(lists).as_dict(), f"sqlite:///{tmp_path / 'e.db'}", "e", 2, 3)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "failed" not in err


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
    proc = _tune_process(lists, out, 10_000, log)  # the cap: never finishes, the kill lands mid-study
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


HELD_TUNE = """
import os, sys, time
import evo_wordle.tune as tune
real, calls, folder = tune.play_scores, [], sys.argv[1]
def held(*args, **kw):
    calls.append(1)
    if len(calls) == 2:  # this process's second bench: a trial past its first step, held until Ctrl-C
        open(os.path.join(folder, f"held-{os.getpid()}"), "w").close()
        time.sleep(120)
    return real(*args, **kw)
tune.play_scores = held
from evo_wordle.console import run
sys.argv = ["evo-wordle", *sys.argv[2:]]
sys.exit(run())
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_cleanly_and_the_resumed_study_plays_the_interrupted_trial_again(lists, tmp_path, jobs):
    """A trial interrupted by Ctrl-C was marked failed, printed with a traceback and never played
    again: the resumed study went on with other points.  Now Ctrl-C is one line, exit 130, and
    the resumed study plays the interrupted trials first, with the same parameters, until
    --trials are counted (jobs 2: the pool's workers, stopped by the parent, as well)."""
    out, held = tmp_path / "t", tmp_path / "held"
    held.mkdir()
    cmd = [sys.executable, "-c", HELD_TUNE, str(held), *_cli(lists, out, "--trials", "2", "--jobs", str(jobs))]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and len(list(held.iterdir())) < jobs:
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        assert proc.wait(timeout=60) == 130
        err = proc.stderr.read()
        assert err.splitlines()[-1] == "evo-wordle: interrupted" and len(err.splitlines()) == 2, err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stderr.close()
    url = f"sqlite:///{out.resolve() / 'study.db'}"
    failed = {t.number: t.params for t in open_study(_spec(lists), url, "evo-wordle").trials
              if t.state.name == "FAIL"}
    assert len(failed) == jobs
    assert main(_cli(lists, out, "--trials", "2")) == 0
    study = open_study(_spec(lists), url, "evo-wordle")
    done = [t for t in study.trials if t.state.name in ("COMPLETE", "PRUNED")]
    assert counted(study) == 2 and not [t for t in study.trials if t.state.name in ("RUNNING", "WAITING")]
    again = {t.system_attrs.get("failed_trial"): t.params for t in done if "failed_trial" in t.system_attrs}
    assert again == failed  # each interrupted trial played again, with its own parameters


def test_jobs_2_plays_exactly_the_trials_asked_for_and_a_resume_does_not_overshoot(lists, tmp_path):
    """`tune --trials 6 --jobs 2` ran 7 trials: a worker that finished one while the other still
    played the sixth started a seventh.  Resumed with one trial to go, both workers started one."""
    from evo_wordle.tune import run_study

    url = f"sqlite:///{tmp_path / 'exact.db'}"
    for trials in (6, 7, 7):
        study = run_study(_spec(lists), url, "exact", trials, jobs=2)
        assert counted(study) == trials
        assert not [t for t in study.trials if t.state.name in ("RUNNING", "WAITING")]


@pytest.mark.filterwarnings("ignore:Heartbeat of storage")
def test_a_trial_gives_way_to_the_trials_started_before_it(lists, tmp_path):
    """Two workers that both start a trial when one is left: the later-numbered one waits while
    the earlier one plays, and does not play once that one has filled the study."""
    import optuna

    from evo_wordle.tune import _reserve

    study = open_study(_spec(lists), f"sqlite:///{tmp_path / 'r.db'}", "r")
    # one finished trial; the study is to hold 2
    study.add_trial(optuna.trial.create_trial(value=4.0, params={}, distributions={}))
    first, second = study.ask(), study.ask()
    for t in (first, second):  # two workers of one run
        t.set_user_attr("run", "r")
    assert _reserve(study, "r", first.number, 2)  # nothing before it: it plays
    study.tell(first, 4.5)
    assert not _reserve(study, "r", second.number, 2)  # the study is full: it ends unplayed
    study.tell(second, state=optuna.trial.TrialState.FAIL)
    third = study.ask()
    assert _reserve(study, "r", third.number, 3)  # room again when the study is to hold 3


@pytest.mark.filterwarnings("ignore:Heartbeat of storage")
def test_requeue_queues_an_interrupted_trial_once_with_optuna_retry_bookkeeping(lists, tmp_path):
    """requeue: the interrupted trial's parameters queued again once (a second call, or a trial
    with a missing parameter, queues nothing), with Optuna's failed_trial / retry_history, and
    none of its figures (games played) on the retry; a retry interrupted again chains history."""
    import optuna

    from evo_wordle.tune import requeue

    study = open_study(_spec(lists), f"sqlite:///{tmp_path / 'q.db'}", "q")
    names = {"population", "mutation"}
    first, partial = study.ask(), study.ask()
    first.suggest_int("population", 2, 12)
    first.suggest_float("mutation", 0.0, 0.5)
    first.set_user_attr("games", 5)
    partial.suggest_int("population", 2, 12)  # interrupted before its second parameter
    assert requeue(study, [first.number, partial.number], names) == [first.number]
    assert requeue(study, [first.number], names) == []  # queued already
    waiting = study.get_trials(states=(optuna.trial.TrialState.WAITING,))
    assert len(waiting) == 1 and waiting[0].params == first.params and not waiting[0].user_attrs
    retry = optuna.storages.RetryHeartbeatStaleTrialCallback
    assert retry.retried_trial_number(waiting[0]) == first.number
    assert retry.retry_history(waiting[0]) == [first.number]
    again = study.ask()  # the queued trial, interrupted in its turn
    assert again.params == first.params
    assert requeue(study, [again.number], names) == [again.number]
    last = study.get_trials(states=(optuna.trial.TrialState.WAITING,))
    assert [retry.retry_history(t) for t in last] == [[first.number, again.number]]
    assert retry.retried_trial_number(last[0]) == first.number


def test_two_processes_share_one_study(lists, tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    open_study(_spec(lists), url, "shared")
    code = ("import sys; from evo_wordle.tune import optimize, TuneSpec; import json; "
            "optimize(json.loads(sys.argv[1]), sys.argv[2], 'shared', 6, int(sys.argv[3]), 'one-run')")
    procs = [subprocess.Popen([sys.executable, "-c", code, json.dumps(_spec(lists).as_dict()), url, str(s)])
             for s in (11, 12)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    study = open_study(_spec(lists), url, "shared")
    numbers = [t.number for t in study.trials]
    assert len(numbers) == len(set(numbers)) and counted(study) == 6  # two workers, no seventh


def test_dask_workers_share_one_study_and_values_do_not_depend_on_the_worker(lists, tmp_path):
    """`tune --executor dask --jobs 2`: two Dask workers fill one study; each trial's value is the
    bench of its parameters on the planned games, whichever worker played it."""
    from evo_wordle.tune import run_study

    spec = _spec(lists)
    url = f"sqlite:///{tmp_path / 'dask.db'}"
    study = run_study(spec, url, "d", 6, jobs=2, executor="dask")
    numbers = [t.number for t in study.trials]
    assert len(numbers) == len(set(numbers)) and counted(study) == 6  # two workers, no seventh
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
    from evo_wordle.artefacts import list_digests

    digests = list_digests(spec.context().words)  # the lists fixture's files, named in the caption
    assert (f"word lists: allowed allowed.txt (sha256 {digests['allowed_sha256'][:8]}), answers answers.txt "
            f"(sha256 {digests['answers_sha256'][:8]})") in plotted.data["caption"]
    imp = plot_importance(study, spec, tmp_path / "importance.png").data["importance"]
    assert set(imp) == {"population", "mutation"} and sum(imp.values()) == pytest.approx(1.0)
    land = plot_landscape(study, spec, "population", "mutation", tmp_path / "contour.png").data
    done = [t for t in study.trials if t.state.name == "COMPLETE"]
    assert land["trial"] == [t.number for t in done]
    assert land["x"] == [t.params["population"] for t in done] and land["value"] == [t.value for t in done]
    for name in ("history.png", "importance.png", "contour.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_captions_count_the_trials_drawn_and_name_the_others(lists, tmp_path):
    """A run killed mid-trial leaves FAIL trials (re-queued by the next run): the captions said
    "N = 9 trials" under a history of 7 points; N now counts what each figure draws."""
    import optuna

    from evo_wordle.plots.tune import plot_history, plot_importance, plot_landscape

    url = f"sqlite:///{tmp_path / 'k.db'}"
    spec = _spec(lists, pruner="halving")
    optimize(spec.as_dict(), url, "k", 6, 3)
    study = open_study(spec, url, "k")
    for _ in range(2):
        study.add_trial(optuna.trial.create_trial(state=optuna.trial.TrialState.FAIL))
    states = [t.state.name for t in study.trials]
    done, pruned = states.count("COMPLETE"), states.count("PRUNED")
    history = plot_history(study, spec, None, tmp_path / "h.png").data["caption"]
    assert f"N = {done + pruned} trials" in history and "not drawn: 2 failed" in history
    for plotted in (plot_importance(study, spec, tmp_path / "i.png"),
                    plot_landscape(study, spec, "population", "mutation", tmp_path / "c.png")):
        caption = plotted.data["caption"]
        assert f"N = {done} trial" in caption and "2 failed" in caption
        assert ("pruned" in caption) == (pruned > 0)
    # a surplus trial (FAIL with the marker: --trials was reached before it played) is named apart
    for _ in range(3):
        study.add_trial(optuna.trial.create_trial(state=optuna.trial.TrialState.FAIL, user_attrs={"surplus": True}))
    history = plot_history(study, spec, None, tmp_path / "h.png").data["caption"]
    assert f"N = {done + pruned} trials" in history
    assert "not drawn: 2 failed, 3 surplus, never played" in history and "5 failed" not in history


def test_a_custom_allowed_list_alone_is_its_own_answer_list(tmp_path, cache_dir, capsys):
    """`tune --allowed six.txt` (no --answers) tunes on the six-letter list, as every other command
    does, instead of failing on the bundled five-letter answers."""
    six = ["planet", "plants", "stripe", "string", "strong", "plains", "travel", "trails", "master",
           "mister", "sister", "silver", "golden", "garden", "harden", "border", "burden", "carpet",
           "carton", "cotton", "button", "mutton", "lesson", "person", "reason", "season", "prison",
           "poison", "listen", "silent", "tinsel", "result", "rescue", "secure", "senior"]
    (tmp_path / "six.txt").write_text("\n".join(dict.fromkeys(six)) + "\n")
    out = tmp_path / "t"
    assert main(["tune", "--solver", "naive", "--space", "opener=planet|senior", "--trials", "2",
                 "--steps", "5", "--top", "1", "--repeats", "1", "--allowed", str(tmp_path / "six.txt"),
                 "--out", str(out), "--no-plots"]) == 0
    report = json.loads((out / "tune.json").read_text())
    assert report["split"]["train"] + report["split"]["validation"] + report["split"]["test"] == len(set(six))


def test_a_resumed_study_samples_new_points_not_its_first_ones_again(lists, tmp_path):
    """After Ctrl-C (or a smaller --trials), running the command again with more trials went on
    with a sampler seeded as at the start, which proposed the study's first points again: the
    'new' trials were repeats that played no game.  The resumed run now samples new points."""
    out = tmp_path / "resumed"
    assert main(_cli(lists, out, "--trials", "3")) == 0
    assert main(_cli(lists, out, "--trials", "6")) == 0
    study = open_study(_spec(lists), f"sqlite:///{out.resolve() / 'study.db'}", "evo-wordle")
    points = [tuple(sorted(t.params.items())) for t in study.trials]
    assert len(points) == 6 and len(set(points)) == 6
    assert not any("same_as" in t.user_attrs for t in study.trials)


def test_a_split_with_one_test_answer_is_refused_before_any_trial(tmp_path, cache_dir, capsys):
    """Four answers split 2/1/1: the report said 'winner − defaults +1.0000 [+nan, +nan] ... detects
    nan' and wrote NaN into tune.json and best-params.json; now refused in one line, nothing written."""
    (tmp_path / "four.txt").write_text("planet\nsecond\nsenior\nstring\n")
    out = tmp_path / "t"
    code = main(["tune", "--solver", "naive", "--space", "opener=planet|senior", "--trials", "2", "--steps", "1",
                 "--allowed", str(tmp_path / "four.txt"), "--out", str(out), "--no-plots"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "test part of the split holds 1 answer" in err
    assert not (out / "tune.json").exists()


def test_a_study_is_not_resumed_over_an_edited_list_file(lists, tmp_path, capsys):
    """A study over --allowed/--answers FILE, resumed after a file was edited, went on mixing
    trials of two lists; the study records the lists' sha256 and refuses such a resume."""
    allowed = tmp_path / "allowed.txt"
    allowed.write_text(Path(lists[0]).read_text())
    mine = (str(allowed), lists[1])
    out = tmp_path / "edited"
    assert main(_cli(mine, out, "--trials", "2")) == 0
    assert main(_cli(mine, out, "--trials", "3")) == 0  # the same lists resume
    capsys.readouterr()
    extra = next(w for w in Context().words.allowed if w not in allowed.read_text().split())
    allowed.write_text(allowed.read_text() + extra + "\n")
    assert main(_cli(mine, out, "--trials", "4")) == 2
    err = capsys.readouterr().err.splitlines()  # the split line, then the error
    assert err[-1].startswith("evo-wordle: error: ") and "made with other word lists" in err[-1]


def test_counts_of_one_are_singular(lists, tmp_path, capsys):
    """The summary said "1 trials repeated an earlier point" (and "1 trials" after --trials 1)."""
    out = tmp_path / "one"
    assert main(_cli(lists, out, "--trials", "1")) == 0
    text = capsys.readouterr()
    assert "study evo-wordle: 1 trial, " in text.err and "; 1 trial, " in text.out
    study = open_study(_spec(lists), f"sqlite:///{out.resolve() / 'study.db'}", "evo-wordle")
    study.enqueue_trial(study.trials[0].params)  # the next trial repeats trial 0: exactly one repeat
    assert main(_cli(lists, out, "--trials", "2")) == 0
    err = capsys.readouterr().err
    assert "2 trials, " in err and "(1 trial repeated an earlier point: its games were not played again)" in err
    assert main(["report", str(out)]) == 0
    assert "(1 trial repeated an earlier point)" in capsys.readouterr().out


def test_a_winner_that_ties_the_defaults_on_every_test_game_is_not_said_to_detect_zero(lists, tmp_path, capsys,
                                                                                     monkeypatch):
    """A trial that beats the defaults on validation but scores as they do on every test game: the
    report said "no significant difference (this test detects 0.0000 with 80 % power)"."""
    import evo_wordle.tune as tune_mod

    def scores(ctx, spec, params, answers, seed, jobs=1, *rest, **kw):
        if np.array_equal(answers, spec.split(ctx).test):
            return np.full(len(answers), 3.0)  # the same on every test game, whoever plays
        return np.full(len(answers), 1.0 if params else 2.0)

    monkeypatch.setattr(tune_mod, "play_scores", scores)
    out = tmp_path / "tie"
    assert main(_cli(lists, out, "--trials", "2")) == 0
    text = capsys.readouterr().out
    report = json.loads((out / "tune.json").read_text())
    d = report["test"]["winner_minus_default"]
    assert d["detectable"] == 0 and d["mean"] == 0 and not d["significant"]
    assert f"(95 %): no difference: both scored the same on each of the {d['games']} games" in text
    assert "detects" not in text


def test_a_significant_test_difference_never_prints_an_interval_that_reaches_zero():
    """The report printed 4 decimals, so a significant difference whose interval starts at +0.00002
    read "[+0.0000, +0.0123] (95 %): the winner is significantly worse": a 0 it does not hold."""
    from evo_wordle.cli.tune_cmds import format_tune

    d = {"mean": 0.00616, "ci95": 0.00614, "low": 0.00002, "high": 0.0123, "significant": True,
         "detectable": 0.0087, "games": 400}
    report = {"solver": "ga", "settings": {"candidates": "answers", "guess_from": "candidates", "hard": False,
                                           "max_guesses": 9},
              "split": {"seed": 0, "train": 1000, "validation": 500, "test": 400}, "trials": 3, "games_played": 3000,
              "finalists": [], "winner": {"trial": 2, "params": {"population": 50}},
              "test": {"winner_mean": 3.61, "default_mean": 3.60, "games": 400, "winner_minus_default": d}}
    text = format_tune(report)
    assert "winner − defaults +0.0062 [+2.0e-05, +0.0123] (95 %): the winner is significantly worse" in text
    assert "+0.0000" not in text



def test_a_deterministic_solver_is_validated_once_not_given_an_interval_of_zero(lists, tmp_path, capsys):
    """naive scores the same on every validation repeat, so --repeats 3 gave three copies of one
    figure and printed "validation 3.1000 ± 0.0000", an interval that read as the validation mean
    known exactly.  A deterministic solver now plays the validation answers once (as bench --repeat
    runs it once) and the report says so; a stochastic one keeps its repeats."""
    import evo_wordle.tune as tune_mod

    out = tmp_path / "naive"
    assert main(["tune", "--solver", "naive", "--space", "opener=" + "|".join(_openers(lists, 3)), "--candidates",
                 "answers", "--allowed", lists[0], "--answers", lists[1], "--steps", "5,12", "--trials", "3",
                 "--top", "2", "--repeats", "3", "--out", str(out), "--no-plots"]) == 0
    text = capsys.readouterr().out
    report = json.loads((out / "tune.json").read_text())
    assert report["deterministic"] is True
    assert all(f["repeats"] == 1 and f["validation_ci95"] is None for f in report["finalists"])
    assert "± 0.0000" not in text and text.count("(deterministic: one run)") == len(report["finalists"])
    assert tune_mod._stochastic("ga-thesis") and not tune_mod._stochastic("naive")


def _openers(lists, k: int) -> list[str]:
    """The first ``k`` words of the small answer list (openers a naive study can choose among)."""
    return Path(lists[1]).read_text().split()[:k]


# --------------------------------------------------------------------- a study database from others

@pytest.fixture(scope="module")
def tiny_study(lists, tmp_path_factory) -> Path:
    """A finished three-trial study database, copied by each test before it edits it."""
    db = tmp_path_factory.mktemp("study") / "study.db"
    optimize(_spec(lists).as_dict(), f"sqlite:///{db}", "s", 3, 3)
    return db


#: SQL edits of a study's own records that no trial could have written: each was reported as a
#: figure (a mean of 0.5 or -inf marked best, always among the finalists, taken over by a
#: repeated point) or was an internal error (games "x"), or printed a terminal escape.
STUDY_EDITS = {
    "mean-below-one": ("update trial_values set value = 0.5 where trial_id = 1", "training mean of 0.5"),
    "mean-negative-infinity": ("update trial_values set value = NULL, value_type = 'INF_NEG' where trial_id = 1",
                               "training mean of -inf"),
    "mean-above-the-cap": ("update trial_values set value = 1e308 where trial_id = 1", "training mean of 1e+308"),
    "running-mean-below-one": ("update trial_intermediate_values set intermediate_value = 0.1 where trial_id = 1",
                               "training mean of 0.1"),
    "point-outside-the-space": ("update trial_params set param_value = 1e9 where trial_id = 1 "
                                "and param_name = 'population'", "played population=1000000000, outside"),
    "parameter-not-searched": ("update trial_params set param_name = 'elite' where trial_id = 1 "
                               "and param_name = 'population'", "played elite="),
    # a trial without a searched parameter was reported as a point of the space (the default in its place)
    "point-missing-a-parameter": ("delete from trial_params where trial_id = 1 and param_name = 'population'",
                                  "trial 0 lacks population, which the study searches"),
    # with no specification nothing was checked, and a resume wrote its own over the trials
    "spec-removed": ("delete from study_user_attributes where key = 'spec'", "has trials but records no specification"),
    "games-not-a-count": ("update trial_user_attributes set value_json = '\"x\"' where trial_id = 1 "
                          "and key = 'games'", "records 'x' games played"),
    "name-with-an-escape": ("update studies set study_name = 's\x1b[2J'", "a study's name holds a control character"),
}


@pytest.mark.parametrize("kind", sorted(STUDY_EDITS))
def test_a_study_edited_to_figures_no_game_gives_is_refused_by_report_and_tune(lists, tiny_study, tmp_path,
                                                                                capsys, kind):
    import shutil
    import sqlite3

    sql, message = STUDY_EDITS[kind]
    (tmp_path / "run").mkdir()
    db = tmp_path / "run" / "study.db"  # as tune --out writes it
    shutil.copy(tiny_study, db)
    assert main(["report", str(db.parent)]) == 0  # the intact copy reports
    capsys.readouterr()
    with sqlite3.connect(db) as con:
        con.execute(sql)
    con.close()
    assert main(["report", str(db.parent)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "edited or damaged" in err and "\x1b" not in err
    if kind != "name-with-an-escape":  # a resume (tune --storage) is refused before any trial runs
        with pytest.raises(EvoWordleError, match=re.escape(message)):
            open_study(_spec(lists), f"sqlite:///{db}", "s")
