"""A strategy or parameter file replayed from Python on other word lists than its ``made_for``
names is refused in one line unless ``other_lists=True`` asks for it, as ``--other-lists`` does
on the command line (a genome-only file and a parameter dict used to be played silently); a
stored tree or a recorded split is refused even so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evo_wordle import Context
from evo_wordle.artefacts import PARAMS_FORMAT, made_for
from evo_wordle.bench import run_bench
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import file_test_sets
from evo_wordle.evolve.strategy import (
    Strategy,
    StrategySolver,
    file_policy,
    load_strategy,
    load_strategy_file,
    read_strategy_file,
    save_strategy,
)
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers import make_solver
from evo_wordle.tune import load_params
from evo_wordle.words import WordSet

from .small_lists import IGHT, small_context

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "strategies"
GENOME = Strategy(opener="sight")


@pytest.fixture(scope="module")
def made(cache_dir) -> Context:
    """The lists the files are made for."""
    return small_context("test-other-lists", IGHT, slice(400, 430), slice(None, None, 173), 70)


@pytest.fixture(scope="module")
def other(cache_dir) -> Context:
    """Other lists: the same answers, ten fewer other allowed words."""
    return small_context("test-other-lists", IGHT, slice(400, 430), slice(None, None, 173), 60)


def genome_file(tmp_path, ctx: Context, tree: dict | None = None) -> Path:
    path = tmp_path / "genome.json"
    save_strategy(path, GENOME, {}, tree, Settings(), ctx.words)
    return path


def refused(call) -> str:
    with pytest.raises(EvoWordleError) as info:
        call()
    text = str(info.value)
    assert "\n" not in text
    return text


WHY = "the allowed list differs from the one it was made for"


def test_a_genome_only_file_on_other_lists_is_refused_unless_asked_for(made, other, tmp_path):
    path = genome_file(tmp_path, made)
    expected = (f"strategy file {path} was made for other word lists ({WHY}): play it on its own lists, "
                "or pass other_lists=True to play it on these")
    assert refused(lambda: StrategySolver(other, Settings(), strategy=path)) == expected
    assert refused(lambda: make_solver("strategy", other, Settings(), strategy=path)) == expected
    assert refused(lambda: run_bench(other, "strategy", solver_params={"strategy": str(path)})) == expected
    # asked for: the genome plays on these lists, as it does on its own
    answer = int(other.words.answer_index[0])
    asked = make_solver("strategy", other, Settings(), strategy=path, other_lists=True)
    rec = play(asked, GameState.start(other, Settings()), answer, Settings())
    plain = play(StrategySolver(other, Settings(), strategy=GENOME), GameState.start(other, Settings()), answer,
                 Settings())
    assert rec.guesses == plain.guesses
    res = run_bench(other, "strategy", answers=[answer], solver_params={"strategy": str(path), "other_lists": True})
    assert res.records[0].guesses == plain.guesses
    # on its own lists nothing is asked for
    assert make_solver("strategy", made, Settings(), strategy=path).genome == GENOME
    assert "--other-lists must be true or false, not 'yes'" == refused(
        lambda: make_solver("strategy", other, Settings(), strategy=path, other_lists="yes"))


def test_a_stored_tree_on_other_lists_is_refused_even_when_asked_for(made, other, tmp_path):
    path = genome_file(tmp_path, made, tree={"": "sight"})
    for asked in (False, True):
        assert refused(lambda asked=asked: StrategySolver(other, Settings(), strategy=path, other_lists=asked)) == (
            f"strategy file {path}: its decision tree cannot be replayed: {WHY}")


def test_loading_a_file_for_a_context_checks_its_lists(made, other, tmp_path):
    path = genome_file(tmp_path, made)
    assert load_strategy(path) == GENOME  # no ctx: nothing to compare with
    assert load_strategy(path, ctx=made) == GENOME
    assert "was made for other word lists" in refused(lambda: load_strategy(path, ctx=other))
    assert "was made for other word lists" in refused(lambda: load_strategy_file(path, ctx=other))
    assert load_strategy(path, ctx=other, other_lists=True) == GENOME
    f = read_strategy_file(path)  # the policy lookahead-tree and plan-tree build on
    assert "was made for other word lists" in refused(lambda: file_policy(other, f))
    assert file_policy(other, f, other_lists=True).strategy == GENOME
    assert file_policy(made, f).strategy == GENOME
    params = tmp_path / "params.json"
    params.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "greedy", "params": {"opener": "sight"},
                                  "made_for": made_for(Settings(), made.words)}))
    assert load_params(params, ctx=made)["params"] == {"opener": "sight"}
    assert refused(lambda: load_params(params, ctx=other)) == (
        f"parameter file {params} was made for other word lists ({WHY}): play it on its own lists, "
        "or pass other_lists=True to play it on these")
    assert load_params(params, ctx=other, other_lists=True)["solver"] == "greedy"
    assert load_params(params)["solver"] == "greedy"
    params.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "greedy", "params": {}, "made_for": [1]}))
    assert refused(lambda: load_params(params, ctx=other)) == (
        f'parameter file {params}: "made_for" must be a JSON object')


def test_recorded_board_sets_on_other_answers_are_refused(ctx):
    """The split's words are all allowed words, so the sets were rebuilt silently on the original
    answers, which are not the lists the evolution drew them from."""
    original = Context(answers="original")
    doc = load_params(SHIPPED / "dordle-evolved.json")
    assert file_test_sets(ctx, doc).shape[1] == 2
    assert refused(lambda: file_test_sets(original, doc)) == (
        "the file: its test board sets are of the word lists it was made for, but the answer list (original) "
        "differs from the one it was made for (nyt)")


def test_the_command_line_passes_other_lists_through(made, tmp_path, capsys):
    """--other-lists reaches the strategy solver: the replay warns once instead of being refused."""
    path = genome_file(tmp_path, made)
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in sorted(set(IGHT) | {"crane", "spill"})))
    lists = ["--allowed", str(words), "--answers", str(words), "--games", "3", "--quiet"]
    assert main(["bench", "--strategy", str(path), *lists]) == 2
    err = capsys.readouterr().err
    assert err == (f"evo-wordle: error: strategy file {path} was made for other word lists ({WHY}): play it on its "
                   "own lists (drop --allowed/--answers), or give --other-lists to play it on these\n")
    assert main(["bench", "--strategy", str(path), *lists, "--other-lists"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "built pattern table" not in line]
    assert len(said) == 1 and "warning" in said[0] and WHY in said[0]


def test_ctx_and_other_lists_are_keyword_only_and_refusing_is_the_default(made, other, tmp_path):
    """A positional True can never silently mean "other lists", nor a positional context be taken
    for settings; and every entry point refuses other lists unless asked."""
    path = genome_file(tmp_path, made)
    f = read_strategy_file(path)
    for call in (lambda: load_strategy_file(path, None, other), lambda: load_strategy(path, other),
                 lambda: file_policy(other, f, True)):
        with pytest.raises(TypeError):
            call()
    assert load_strategy_file(path=path, ctx=made)[0] == GENOME
    assert load_strategy(path=path, ctx=made) == GENOME
    assert file_policy(ctx=made, f=f).strategy == GENOME
    for call in (lambda: load_strategy_file(path, ctx=other), lambda: load_strategy(path, ctx=other),
                 lambda: file_policy(other, f), lambda: StrategySolver(other, Settings(), strategy=path)):
        assert "was made for other word lists" in refused(call)


def test_a_genome_played_on_other_lists_says_so_in_its_description(made, other, tmp_path):
    """describe() (recorded next to bench and sweep results) says the file played on other lists,
    and why; not when the lists are the file's own, asked for or not."""
    path = genome_file(tmp_path, made)
    asked = StrategySolver(other, Settings(), strategy=path, other_lists=True).describe()
    assert asked["other_lists"] is True and asked["lists_differ"] == WHY
    for ctx, flag in ((made, False), (made, True)):
        own = StrategySolver(ctx, Settings(), strategy=path, other_lists=flag).describe()
        assert "other_lists" not in own and "lists_differ" not in own
    assert "other_lists" not in StrategySolver(other, Settings(), strategy=GENOME).describe()  # no file
    answer = int(other.words.answer_index[0])
    res = run_bench(other, "strategy", answers=[answer], solver_params={"strategy": str(path), "other_lists": True})
    recorded = res.summary()["settings"]
    assert recorded["other_lists"] is True and recorded["lists_differ"] == WHY


def _tiny_lists(tmp_path) -> list[str]:
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in sorted(set(IGHT) | {"crane", "spill"})))
    return ["--allowed", str(words), "--answers", str(words)]


def test_the_command_line_records_a_replay_on_other_lists(made, tmp_path, capsys):
    """bench --json of a strategy file (one board) and of a multi-board policy file (--boards N,
    replayed by the summed-entropy policy) on other lists records it, as describe() does."""
    one = genome_file(tmp_path, made)
    board = tmp_path / "dordle.json"
    two = Settings(candidates="answers", boards=2)
    board.write_text(json.dumps({"format": PARAMS_FORMAT, "solver": "summed-entropy",
                                 "made_for": made_for(two, made.words),
                                 "params": {"opener": "sight", "weight": 0.0, "bonus": 0.0, "late": 0.0}}))
    lists = _tiny_lists(tmp_path)
    for path, extra in ((one, []), (board, ["--boards", "2"])):
        assert main(["bench", "--strategy", str(path), *lists, *extra, "--games", "3", "--quiet", "--json",
                     "--other-lists"]) == 0
        settings = json.loads(capsys.readouterr().out)["settings"]
        assert settings["other_lists"] is True and settings["lists_differ"] == WHY, path
    # on the file's own lists nothing is recorded
    own = made.words
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("".join(f"{w}\n" for w in own.allowed))
    answers.write_text("".join(f"{w}\n" for w in own.answers))
    for path, extra in ((one, []), (board, ["--boards", "2"])):
        assert main(["bench", "--strategy", str(path), "--allowed", str(allowed), "--answers", str(answers), *extra,
                     "--games", "3", "--quiet", "--json"]) == 0
        settings = json.loads(capsys.readouterr().out)["settings"]
        assert "other_lists" not in settings and "lists_differ" not in settings, path


def _sweep(path: Path, out: Path, lists: list[str], *extra: str) -> list[str]:
    return ["sweep", "--solver", "strategy", "--set", f"strategy={path}", *extra, "--seeds", "1", "--games", "2",
            "--jobs", "1", "--quiet", "--out", str(out), *lists]


def test_a_sweep_of_a_file_made_for_other_lists_is_refused_unless_asked_for(made, tmp_path, capsys):
    """sweep --set strategy=FILE on other lists: one line, exit 2 and no --out folder left behind
    (the refusal came from the first task, once the folder and its sweep.json existed, so the
    same command with other_lists=true was then refused as another sweep in that folder);
    --set other_lists=true or --other-lists play it, and the rows say other_lists=true."""
    path = genome_file(tmp_path, made)
    lists = _tiny_lists(tmp_path)
    out = tmp_path / "sweep"
    assert main(_sweep(path, out, lists)) == 2
    assert capsys.readouterr().err == (
        f"evo-wordle: error: strategy file {path} was made for other word lists ({WHY}): play it on its own lists, "
        "or give --other-lists to play it on these\n")
    assert not out.exists()
    for asked in (["--set", "other_lists=true"], ["--other-lists"]):
        assert main(_sweep(path, out, lists, *asked)) == 0
        capsys.readouterr()
        header, row = (out / "results.csv").read_text().splitlines()
        assert dict(zip(header.split(","), row.split(",")))["other_lists"] == "true"
        assert json.loads((out / "sweep.json").read_text())["grid"]["other_lists"] == [True]
    assert main(_sweep(path, out, lists, "--other-lists", "--set", "other_lists=true")) == 2
    assert "give it once" in capsys.readouterr().err
    # a stored tree is refused on other lists even when asked for, also before the folder exists
    (tmp_path / "t").mkdir()
    treed = genome_file(tmp_path / "t", made, tree={"": "sight"})
    assert main(_sweep(treed, tmp_path / "treed", lists, "--other-lists")) == 2
    assert capsys.readouterr().err == (
        f"evo-wordle: error: strategy file {treed}: its decision tree cannot be replayed: {WHY}\n")
    assert not (tmp_path / "treed").exists()
    # --other-lists with no file it could apply to is refused, not ignored
    greedy = ["sweep", "--solver", "greedy", "--set", "opener=crane", "--other-lists", "--seeds", "1",
              "--out", str(tmp_path / "g"), *lists]
    assert main(greedy) == 2 and "names neither" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


def _refusal(call) -> str | None:
    try:
        call()
    except EvoWordleError as exc:
        return str(exc)
    return None


def test_the_up_front_check_refuses_what_the_constructor_refuses(made, other, tmp_path):
    """StrategySolver.check_word_lists (what a sweep asks before its folder exists) refuses a
    configuration exactly when building the solver on those lists does, with the same line."""
    import numpy as np

    from evo_wordle.evolve.strategy import StoredPrior

    gone = next(w for w in made.words.allowed if not other.words.contains(w))  # in made's list only
    files = {}
    for name, kwargs in (("genome", {}), ("tree", {"tree": {"": "sight"}}),
                         ("prior", {"prior": StoredPrior(np.ones(len(made.words)), "flat")})):
        files[name] = tmp_path / f"{name}.json"
        save_strategy(files[name], GENOME, {}, kwargs.get("tree"), Settings(), made.words, kwargs.get("prior"))
    files["gone"] = tmp_path / "gone.json"
    save_strategy(files["gone"], Strategy(opener=gone), {}, None, Settings(), made.words)
    files["old"] = tmp_path / "old.json"  # no made_for: nothing to compare with
    save_strategy(files["old"], GENOME, {}, {"": "sight"})
    flat = np.ones(len(other.words))
    # the same allowed list, one answer fewer: a stored prior (one weight per allowed word) still holds
    answers = Context(words=WordSet(made.words.allowed, made.words.answers[1:], label=made.words.label))
    cases = [  # (lists, parameters, refused?)
        (other, {"opener": "sight"}, False), (other, {"strategy": GENOME}, False),
        (made, {"strategy": str(files["genome"])}, False),
        (other, {"strategy": str(files["genome"])}, True),
        (other, {"strategy": str(files["genome"]), "other_lists": True}, False),
        (other, {"strategy": str(files["tree"]), "other_lists": True}, True),
        (other, {"strategy": str(files["tree"]), "other_lists": True, "prior": flat}, False),
        (other, {"strategy": str(files["tree"]), "prior": flat}, True),
        (made, {"strategy": str(files["tree"])}, False),
        (other, {"strategy": str(files["prior"]), "other_lists": True}, True),
        (other, {"strategy": str(files["gone"]), "other_lists": True}, True),
        (other, {"strategy": str(files["gone"]), "other_lists": True, "opener": "sight"}, False),
        (other, {"strategy": str(files["gone"]), "opener": "sight"}, True),
        (other, {"strategy": str(files["old"])}, False),
        (answers, {"strategy": str(files["prior"]), "other_lists": True}, False),
        (answers, {"strategy": str(files["prior"])}, True),
        # a tree given replaces the stored one: only the file's lists are asked about (the check
        # used to refuse the stored tree, which the solver does not play)
        (other, {"strategy": str(files["tree"]), "tree": {"": "sight"}}, True),
        (other, {"strategy": str(files["tree"]), "tree": {"": "sight"}, "other_lists": True}, False),
    ]
    said = set()
    for ctx, params, refuses in cases:
        built = _refusal(lambda ctx=ctx, params=params: StrategySolver(ctx, Settings(), **params))
        checked = _refusal(lambda ctx=ctx, params=params: StrategySolver.check_word_lists(params, ctx.words))
        assert checked == built and (built is not None) == refuses, (params, built, checked)
        said.add(built)
    assert any("decision tree" in s for s in said if s) and any("its prior" in s for s in said if s)
    assert any("is not an allowed word" in s for s in said if s)


def test_the_constructor_and_the_up_front_check_share_one_function(made, other, tmp_path, monkeypatch):
    """Both ask evolve.strategy.check_replay (the refusals are stated once, not restated)."""
    import evo_wordle.evolve.strategy as st

    asked = []
    real = st.check_replay
    monkeypatch.setattr(st, "check_replay", lambda *a, **k: asked.append(k) or real(*a, **k))
    path = genome_file(tmp_path, made)
    StrategySolver(other, Settings(), strategy=path, other_lists=True)
    StrategySolver.check_word_lists({"strategy": str(path), "other_lists": True}, other.words)
    assert len(asked) == 2 and asked[0] == asked[1]
