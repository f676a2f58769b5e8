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
