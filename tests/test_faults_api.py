"""Fault suite, Python API: public entry points check their arguments at the boundary and raise
EvoWordleError (a ValueError) with the CLI's one-line messages; negative word indices never wrap."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle import Context, EvoWordleError
from evo_wordle.assist import AssistSession
from evo_wordle.bench import run_bench
from evo_wordle.evolve.metaga import EvolveConfig
from evo_wordle.executors import make_executor
from evo_wordle.ga.config import GAConfig
from evo_wordle.ga.toolbox import GAState, make_toolbox
from evo_wordle.game import GameState, Settings, hard_mode_mask, illegal_move
from evo_wordle.params import as_bool, as_float, as_int, as_list, as_seed
from evo_wordle.plots.compare import compare_data
from evo_wordle.plots.convergence import convergence_data
from evo_wordle.plots.evolution import evolution_data
from evo_wordle.solvers import make_solver
from evo_wordle.sweep import SweepSpec, format_report, run_sweep


def test_the_package_error_is_a_value_error():
    assert issubclass(EvoWordleError, ValueError)
    with pytest.raises(ValueError):
        Settings(max_guesses=0)


def _start(ctx):
    return GameState.start(ctx, Settings())


def _tales(ctx):
    return ctx.words.index("tales")


def _session(ctx):
    return AssistSession(ctx, Settings(), make_solver("greedy", ctx, Settings()))


BAD_CALLS = [
    # Settings
    ("Settings max_guesses=2.5", lambda ctx, tmp: Settings(max_guesses=2.5), "--max-guesses must be a whole number"),
    ("Settings max_guesses='abc'", lambda ctx, tmp: Settings(max_guesses="abc"), "whole number, not 'abc'"),
    ("Settings max_guesses=True", lambda ctx, tmp: Settings(max_guesses=True), "whole number, not True"),
    ("Settings max_guesses=0", lambda ctx, tmp: Settings(max_guesses=0), "between 1 and"),
    ("Settings hard='maybe'", lambda ctx, tmp: Settings(hard="maybe"), "--hard must be true or false"),
    ("Settings daily=1", lambda ctx, tmp: Settings(daily=1), "--daily must be true or false"),
    ("Settings boards=-2", lambda ctx, tmp: Settings(boards=-2), "--boards must be between 1"),
    ("Settings candidates='all'", lambda ctx, tmp: Settings(candidates="all"), "--candidates must be one of"),
    ("Settings guess_from=None", lambda ctx, tmp: Settings(guess_from=None), "--guess-from must be one of"),
    ("Settings.problem('P7')", lambda ctx, tmp: Settings.problem("P7"), "unknown problem"),
    # Context and word indices
    ("Context(allowed=5)", lambda ctx, tmp: Context(allowed=5), "allowed must be a file name"),
    ("Context(words='x')", lambda ctx, tmp: Context(words="x"), "words must be a WordSet"),
    ("entropy of index -1", lambda ctx, tmp: ctx.entropy([-1]), "index -1 is outside"),
    ("entropy of index n", lambda ctx, tmp: ctx.entropy([len(ctx.words)]), "index 12972 is outside"),
    ("entropy of a float", lambda ctx, tmp: ctx.entropy([1.0]), "neither a word nor"),
    ("entropy of a bool", lambda ctx, tmp: ctx.entropy([True]), "neither a word nor"),
    ("entropy of one string", lambda ctx, tmp: ctx.entropy("tares"), "not one string"),
    ("entropy of a number", lambda ctx, tmp: ctx.entropy(5), "expected a sequence of guesses, not int"),
    ("answers, one word missing", lambda ctx, tmp: Context(allowed=["crane", "slate"], answers=["crane", "react"]),
     "1 answer is not in the allowed list (first: 'react')"),
    ("answers, two words missing", lambda ctx, tmp: Context(allowed=["crane"], answers=["slate", "react"]),
     "2 answers are not in the allowed list (first: 'react')"),
    ("entropy, negative candidate", lambda ctx, tmp: ctx.entropy(["tares"], np.array([-5])), "index -5"),
    ("candidates('some')", lambda ctx, tmp: ctx.candidates("some"), "candidates must be allowed or answers"),
    ("words[-1]", lambda ctx, tmp: ctx.words[-1], "word index -1 is outside 0 … 12971"),
    ("words[n]", lambda ctx, tmp: ctx.words[99999], "word index 99999 is outside 0 … 12971"),
    ("words[np.int64(-2)]", lambda ctx, tmp: ctx.words[np.int64(-2)], "word index -2 is outside"),
    ("words[[0, -1]]", lambda ctx, tmp: ctx.words[[0, -1]], "word index -1 is outside"),
    ("words[np.array([5, n])]", lambda ctx, tmp: ctx.words[np.array([5, 12972])], "word index 12972 is outside"),
    ("words[2.0]", lambda ctx, tmp: ctx.words[2.0], "word 2.0 is not a whole-number index"),
    ("words[True]", lambda ctx, tmp: ctx.words[True], "word True is not a whole-number index"),
    ("words['tales']", lambda ctx, tmp: ctx.words["tales"], "ctx.words.index('tales')"),
    ("words.index(5)", lambda ctx, tmp: ctx.words.index(5), "5 is not a word"),
    # game states and the assistant: guesses are in-range indices, patterns in-range codes
    ("after, guess -1", lambda ctx, tmp: _start(ctx).after(-1, 0), "guess index -1 is outside 0 … 12971"),
    ("after, guess 10**6", lambda ctx, tmp: _start(ctx).after(10**6, 0), "guess index 1000000 is outside"),
    ("after, guess 3.7", lambda ctx, tmp: _start(ctx).after(3.7, 0), "guess 3.7 is not a whole-number index"),
    ("after, guess True", lambda ctx, tmp: _start(ctx).after(True, 0), "guess True is not a whole-number index"),
    ("after, guess a word", lambda ctx, tmp: _start(ctx).after("tales", 0), "pass ctx.words.index('tales')"),
    ("after, pattern 999", lambda ctx, tmp: _start(ctx).after(_tales(ctx), 999),
     "pattern code 999 is outside 0 … 242 (the codes for 5 letters)"),
    ("after, pattern 3**5", lambda ctx, tmp: _start(ctx).after(_tales(ctx), 243), "pattern code 243 is outside"),
    ("after, pattern -1", lambda ctx, tmp: _start(ctx).after(_tales(ctx), -1), "pattern code -1 is outside"),
    ("after, pattern 1.0", lambda ctx, tmp: _start(ctx).after(_tales(ctx), 1.0), "pattern code 1.0 is not a whole"),
    ("after, pattern text", lambda ctx, tmp: _start(ctx).after(_tales(ctx), "20110"), "patterns.parse('20110')"),
    ("enter, guess -1", lambda ctx, tmp: _session(ctx).enter(-1, 0), "guess index -1 is outside"),
    ("enter, guess np.int64(-1)", lambda ctx, tmp: _session(ctx).enter(np.int64(-1), 0), "guess index -1"),
    ("enter, pattern 999", lambda ctx, tmp: _session(ctx).enter(_tales(ctx), 999), "pattern code 999 is outside"),
    ("fits_any_allowed, guess -1", lambda ctx, tmp: _session(ctx).fits_any_allowed(-1, 0), "guess index -1"),
    ("fits_any_allowed, pattern 999", lambda ctx, tmp: _session(ctx).fits_any_allowed(0, 999), "pattern code 999"),
    # the rules: illegal_move and hard_mode_mask check every index and code they are given
    ("illegal_move, guess -1", lambda ctx, tmp: illegal_move(ctx, Settings(hard=True), (), -1),
     "guess index -1 is outside 0 … 12971"),
    ("illegal_move, guess n", lambda ctx, tmp: illegal_move(ctx, Settings(), (), 12972), "guess index 12972"),
    ("illegal_move, guess 2.0", lambda ctx, tmp: illegal_move(ctx, Settings(), (), 2.0), "not a whole-number"),
    ("illegal_move, history guess -1", lambda ctx, tmp: illegal_move(ctx, Settings(hard=True), ((-1, 0),), 0),
     "history move 1: guess index -1 is outside"),
    ("illegal_move, history pattern 243", lambda ctx, tmp: illegal_move(ctx, Settings(), ((0, 243),), 0),
     "pattern code 243 is outside 0 … 242"),
    ("illegal_move, history not pairs", lambda ctx, tmp: illegal_move(ctx, Settings(), (5,), 0),
     "history move 1 is 5, not a (guess, pattern) pair"),
    ("hard_mode_mask, history guess -1", lambda ctx, tmp: hard_mode_mask(ctx, ((0, 0), (-1, 0))),
     "history move 2: guess index -1 is outside"),
    ("hard_mode_mask, history guess n", lambda ctx, tmp: hard_mode_mask(ctx, ((12972, 0),)), "index 12972"),
    ("hard_mode_mask, history pattern -1", lambda ctx, tmp: hard_mode_mask(ctx, ((0, -1),)),
     "pattern code -1 is outside"),
    ("hard_mode_mask, words -1", lambda ctx, tmp: hard_mode_mask(ctx, ((0, 0),), np.array([3, -1])),
     "word index -1 is outside 0 … 12971"),
    ("hard_mode_mask, words n", lambda ctx, tmp: hard_mode_mask(ctx, (), [12972]), "word index 12972 is outside"),
    ("hard_mode_mask, words 1.5", lambda ctx, tmp: hard_mode_mask(ctx, (), [1.5]), "neither a word nor"),
    # run_bench
    ("run_bench ctx=None", lambda ctx, tmp: run_bench(None, "greedy"), "ctx must be a Context"),
    ("run_bench solver=3", lambda ctx, tmp: run_bench(ctx, 3), "solver must be a solver name"),
    ("run_bench unknown solver", lambda ctx, tmp: run_bench(ctx, "nope", answers=[0]), "unknown solver 'nope'"),
    ("run_bench settings='P1'", lambda ctx, tmp: run_bench(ctx, "greedy", "P1"), "settings must be a Settings"),
    ("run_bench answers=[-1]", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[-1]), "index -1 is outside"),
    ("run_bench answers=[10**9]", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[10**9]), "outside"),
    ("run_bench answers=[1.5]", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[1.5]), "neither a word"),
    ("run_bench answers=[]", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[]), "no answers to play"),
    # an answer P1 beliefs rule out was played and counted as a failure at the cap (mean 9)
    ("run_bench P1 answer outside the answer list",
     lambda ctx, tmp: run_bench(ctx, "greedy", Settings(candidates="answers"), ["aahed"]),
     "'aahed' is not in the answer list, and candidates='answers'"),
    ("run_bench P1 boards with an answer outside the answer list",
     lambda ctx, tmp: run_bench(ctx, "summed-entropy", Settings(candidates="answers", boards=2),
                                np.array([[ctx.words.index("aahed"), int(ctx.words.answer_index[0])]])),
     "'aahed' is not in the answer list"),
    ("run_bench seed=-1", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[0], seed=-1), "--seed must be"),
    ("run_bench seed=0.5", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[0], seed=0.5), "whole number"),
    ("run_bench jobs=0", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[0], jobs=0), "--jobs must be"),
    ("run_bench daily_rule", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[0], daily_rule="x"), "daily-rule"),
    ("run_bench GA param to greedy", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[0],
                                                                 solver_params={"population": 5}),
     "solver greedy has no parameter 'population' (it takes: opener)"),
    ("run_bench params not a dict", lambda ctx, tmp: run_bench(ctx, "greedy", answers=[0], solver_params=[1]),
     "must be a dict"),
    # make_solver and GA parameters
    ("make_solver ctx='x'", lambda ctx, tmp: make_solver("greedy", "x", Settings()), "ctx must be a Context"),
    ("make_solver settings=None", lambda ctx, tmp: make_solver("greedy", ctx, None), "settings must be a Settings"),
    # one-board solvers and states refuse several boards instead of playing board 1 alone
    ("make_solver boards=4", lambda ctx, tmp: make_solver("greedy", ctx, Settings(boards=4)),
     "solver greedy plays one board, not 4: several boards are played by the summed-entropy policy"),
    ("GameState.start boards=2", lambda ctx, tmp: GameState.start(ctx, Settings(boards=2)),
     "GameState plays one board, not 2"),
    # a population below ga's default elite blamed --elite, which nobody had typed
    ("make_solver ga population=2", lambda ctx, tmp: make_solver("ga", ctx, Settings(), population=2),
     "--population 2 is smaller than ga's default --elite 10 (parents carried over): give --elite 0 to 2 too"),
    ("make_solver unknown kwarg", lambda ctx, tmp: make_solver("random", ctx, Settings(), foo=1), "no parameter 'foo'"),
    ("make_solver ga population=-1", lambda ctx, tmp: make_solver("ga", ctx, Settings(), population=-1),
     "--population must be between 1"),
    ("make_solver ga mutation=nan", lambda ctx, tmp: make_solver("ga", ctx, Settings(), mutation=float("nan")),
     "finite"),
    ("make_solver ga unknown param", lambda ctx, tmp: make_solver("ga", ctx, Settings(), foo=1),
     "unknown GA parameter 'foo'"),
    ("make_solver bad opener", lambda ctx, tmp: make_solver("greedy", ctx, Settings(), opener="zzzzz"),
     "not an allowed word"),
    ("run_bench opener=5", lambda ctx, tmp: run_bench(ctx, "greedy", Settings(), seed=0, solver_params={"opener": 5}),
     "--opener must be a word, not 5"),
    ("make_solver opener=0", lambda ctx, tmp: make_solver("greedy", ctx, Settings(), opener=0),
     "--opener must be a word, not 0"),
    ("make_solver ga opener=5", lambda ctx, tmp: make_solver("ga", ctx, Settings(), opener=5),
     "--opener must be a word"),
    ("make_solver ga-search opener", lambda ctx, tmp: make_solver("ga-search", ctx, Settings(), opener=b"salet"),
     "--opener must be a word, not b'salet'"),
    ("make_solver strategy opener=0", lambda ctx, tmp: make_solver("strategy", ctx, Settings(), opener=0),
     "--opener must be a word, not 0"),
    ("make_solver two-preset second=5", lambda ctx, tmp: make_solver("two-preset", ctx, Settings(), second=5),
     "--second-preset must be a word, not 5"),
    ("GAConfig population='100'", lambda ctx, tmp: GAConfig(population="100"), "whole number, not '100'"),
    ("GAConfig pressure=inf", lambda ctx, tmp: GAConfig(pressure=float("inf")), "--pressure must be a finite"),
    ("GAConfig elite > population", lambda ctx, tmp: GAConfig(population=5, elite=6), "--elite must be between 0"),
    ("GAConfig distinct='yes'", lambda ctx, tmp: GAConfig(distinct="yes"), "--distinct must be true or false"),
    ("GAConfig selection", lambda ctx, tmp: GAConfig(selection="worst"), "--selection must be one of"),
    ("GAConfig.with_ unknown", lambda ctx, tmp: GAConfig().with_(foo=1), "unknown GA parameter"),
    ("make_toolbox config=dict", lambda ctx, tmp: make_toolbox({}, ctx, GAState(ctx)), "config must be a GAConfig"),
    ("make_toolbox foreign state", lambda ctx, tmp: make_toolbox(GAConfig(), ctx, object()), "must be a GAState"),
    ("GAState rng=5", lambda ctx, tmp: GAState(ctx, rng=5), "rng must be a numpy Generator"),
    ("toolbox population -1", lambda ctx, tmp: make_toolbox(GAConfig(), ctx, GAState(ctx)).init_population(-1),
     "--population must be at least 1"),
    # meta-GA configuration
    ("EvolveConfig penalty=nan", lambda ctx, tmp: EvolveConfig(penalty=float("nan")), "--penalty must be a finite"),
    ("EvolveConfig penalty=-5", lambda ctx, tmp: EvolveConfig(penalty=-5), "--penalty must be at least 0"),
    ("EvolveConfig seed=-1", lambda ctx, tmp: EvolveConfig(seed=-1), "--seed must be"),
    ("EvolveConfig train=0", lambda ctx, tmp: EvolveConfig(train_size=0), "--train must be at least 1"),
    ("EvolveConfig cxpb=2", lambda ctx, tmp: EvolveConfig(cxpb=2.0), "--cxpb must be between"),
    # multi-board
    ("boards, negative index", lambda ctx, tmp: run_bench(ctx, "summed-entropy", Settings(boards=2),
                                                           answers=[[0, -1]]), "index -1 is outside"),
    ("boards, float answers", lambda ctx, tmp: run_bench(ctx, "summed-entropy", Settings(boards=2),
                                                          answers=[[0.5, 1.0]]), "whole-number word indices"),
    ("boards seed=-3", lambda ctx, tmp: run_bench(ctx, "summed-entropy", Settings(boards=2), seed=-3),
     "--seed must be"),
    ("boards opener=5", lambda ctx, tmp: run_bench(ctx, "summed-entropy", Settings(boards=2), seed=0,
                                                    solver_params={"opener": 5}), "--opener must be a word, not 5"),
    # sweeps: refused before any folder exists
    ("SweepSpec from a list", lambda ctx, tmp: SweepSpec.from_dict(["x"]), "not a sweep specification"),
    ("SweepSpec unknown field", lambda ctx, tmp: SweepSpec.from_dict({"solver": "ga", "grid": {}, "x": 1}),
     "not a sweep specification"),
    ("sweep grid not a dict", lambda ctx, tmp: run_sweep(SweepSpec("ga", [1]), tmp / "s"), "grid an object"),
    ("sweep values not a list", lambda ctx, tmp: run_sweep(SweepSpec("ga", {"population": 5}), tmp / "s"),
     "grid 'population' must be a list"),
    ("sweep seeds=0", lambda ctx, tmp: run_sweep(SweepSpec("ga", {"population": [5]}, seeds=0), tmp / "s"),
     "--seeds must be at least 1"),
    ("sweep games=5000", lambda ctx, tmp: run_sweep(SweepSpec("ga", {"population": [5]}, games=5000), tmp / "s"),
     "more than the 2309 answers"),
    ("sweep base_seed=-1", lambda ctx, tmp: run_sweep(SweepSpec("ga", {"population": [5]}, base_seed=-1), tmp / "s"),
     "--seed must be"),
    ("sweep population=2.5", lambda ctx, tmp: run_sweep(SweepSpec("ga", {"population": [2.5]}), tmp / "s"),
     "--population must be a whole number, not 2.5"),
    ("sweep max_guesses=2.5", lambda ctx, tmp: run_sweep(SweepSpec("greedy", {"max_guesses": [2.5]}), tmp / "s"),
     "--max-guesses must be a whole number"),
    ("sweep settings with a stray key", lambda ctx, tmp: run_sweep(
        SweepSpec("greedy", {"hard": [True]}, settings={"x": 1}), tmp / "s"), "not a sweep's settings"),
    ("sweep jobs=0", lambda ctx, tmp: run_sweep(SweepSpec("greedy", {"hard": [True]}), tmp / "s", jobs=0),
     "--jobs must be at least 1"),
    ("sweep executor", lambda ctx, tmp: run_sweep(SweepSpec("greedy", {"hard": [True]}), tmp / "s", executor="x"),
     "unknown executor"),
    ("sweep out ''", lambda ctx, tmp: run_sweep(SweepSpec("greedy", {"hard": [True]}), ""), "empty string"),
    # plot data: raw TypeError / numpy messages for runs 0, a figure of 9s for an answer P1 rules out
    ("convergence_data runs=0", lambda ctx, tmp: convergence_data(ctx, "greedy", Settings(), answer="merry", runs=0),
     "--runs must be between 1 and 10000, not 0"),
    ("convergence_data jobs=0", lambda ctx, tmp: convergence_data(ctx, "greedy", Settings(), answer="merry", runs=1,
                                                                  jobs=0), "--jobs must be at least 1, not 0"),
    ("evolution_data runs=-2", lambda ctx, tmp: evolution_data(ctx, "greedy", Settings(), None, "merry", runs=-2),
     "--runs must be between 1 and 10000, not -2"),
    ("evolution_data seed=-1", lambda ctx, tmp: evolution_data(ctx, "greedy", Settings(), None, "merry", 2, seed=-1),
     "--seed must be a whole number from 0"),
    ("evolution_data P1 answer outside the answer list",
     lambda ctx, tmp: evolution_data(ctx, "greedy", Settings(candidates="answers"), None, "aahed", runs=2),
     "AAHED is not in the answer list the solver assumes"),
    ("compare_data solvers=[]", lambda ctx, tmp: compare_data(ctx, [], Settings(), games=3),
     "solvers must be a non-empty list of solvers, not []"),
    ("compare_data solvers='greedy'", lambda ctx, tmp: compare_data(ctx, "greedy", Settings(), games=3),
     "solvers must be a non-empty list of solvers, not 'greedy'"),
    ("format_report fmt='xml'", lambda ctx, tmp: format_report(SweepSpec("greedy", {"hard": [True]}), [], "xml"),
     "--format must be one of text, markdown, csv, json, not 'xml'"),
    ("make_executor kind", lambda ctx, tmp: make_executor("threads"), "unknown executor 'threads'"),
    # the one converter
    ("as_int True", lambda ctx, tmp: as_int("n", True), "--n must be a whole number, not True"),
    ("as_int text by default", lambda ctx, tmp: as_int("n", "5"), "whole number, not '5'"),
    ("as_float -inf", lambda ctx, tmp: as_float("x", "-inf", text=True), "finite number"),
    ("as_bool maybe", lambda ctx, tmp: as_bool("hard", "maybe", text=True), "true or false"),
    ("as_seed 2**63", lambda ctx, tmp: as_seed("seed", 2**63), "from 0 to 2**63 - 1"),
    ("as_list empty item", lambda ctx, tmp: as_list("solvers", "greedy,"),
     "--solvers must be values separated by single ',' with no empty item, not 'greedy,'"),
    ("as_list empty item of a named whole", lambda ctx, tmp: as_list("--space", "a||b", sep="|", what="init=a||b",
                                                                     item="choice"),
     "--space 'init=a||b' has an empty choice: separate choices by single '|', with none at the end"),
]


@pytest.mark.parametrize("call, message", [c[1:] for c in BAD_CALLS], ids=[c[0] for c in BAD_CALLS])
def test_bad_api_call_raises_the_package_error(ctx, tmp_path, call, message):
    with pytest.raises(EvoWordleError) as info:
        call(ctx, tmp_path)
    text = str(info.value)
    assert message in text and "\n" not in text
    assert not (tmp_path / "s").exists()  # a refused sweep leaves no folder


def _solver_classes():
    from evo_wordle.ga.solvers import GASolver
    from evo_wordle.solvers import SOLVERS, load_all

    load_all()
    return sorted({*SOLVERS.values(), GASolver}, key=lambda c: c.__name__)


@pytest.mark.parametrize("cls", _solver_classes(), ids=lambda c: c.__name__)
def test_a_solver_class_built_directly_refuses_several_boards(ctx, cls):
    """Built without make_solver, a one-board solver played board 1 alone and called it the game."""
    with pytest.raises(EvoWordleError) as info:
        cls(ctx, Settings(boards=4))
    text = str(info.value)
    assert text.startswith(f"{cls.__name__} plays one board, not 4: ") and "\n" not in text
    assert cls(ctx, Settings()).settings.boards == 1  # one board is still built


def test_converters_accept_what_they_should():
    assert as_int("n", "7", text=True) == 7 and as_int("n", np.int64(7)) == 7
    assert as_float("x", "0.25", text=True) == 0.25 and as_float("x", 1) == 1.0
    assert as_bool("b", "Yes", text=True) is True and as_bool("b", np.bool_(False)) is False
    assert as_seed("s", 2**63 - 1) == 2**63 - 1
    assert Settings(max_guesses=np.int64(6)).max_guesses == 6


def test_words_and_indices_mean_the_same_answers(ctx):
    """A valid index is played as that word: nothing is shifted or wrapped."""
    last = len(ctx.words) - 1
    assert ctx.word_indices(["tares", last, np.int32(3)]).tolist() == [ctx.words.index("tares"), last, 3]
    by_index = run_bench(ctx, "greedy", Settings(), answers=[ctx.words.index("merry")])
    by_word = run_bench(ctx, "greedy", Settings(), answers=["merry"])
    assert by_index.records[0].guesses == by_word.records[0].guesses


def test_word_indices_in_range_are_looked_up_as_given(ctx):
    """Only what is outside is refused: the last word, numpy integers, index arrays and slices
    (which keep Python's meaning) are looked up as before."""
    last = len(ctx.words) - 1
    assert ctx.words[last] == "zymic" and ctx.words[np.int64(0)] == ctx.words.allowed[0]
    assert ctx.words[np.array([last, 0])] == ["zymic", ctx.words.allowed[0]]
    assert ctx.words[-2:] == list(ctx.words.allowed[-2:])  # a slice is a slice, not a word index
    assert not ctx.words.contains(5) and ctx.words.contains("TALES")


def test_indices_and_codes_in_range_are_played_as_given(ctx):
    """The checks refuse only what is outside: numpy integers, the last word and the all-green
    code pass, and the history keeps plain ints."""
    last, tales = len(ctx.words) - 1, ctx.words.index("tales")
    state = _start(ctx).after(np.int32(tales), np.int64(0))
    assert state.history == ((tales, 0),) and all(type(v) is int for v in state.history[0])
    assert state.after(last, 0).history[-1] == (last, 0)
    sess = _session(ctx)
    sess.enter(np.int64(tales), np.int64(ctx.words.solved))
    assert sess.solved and sess.state.candidates.tolist() == [tales]


def test_rules_take_in_range_indices_as_given(ctx):
    """illegal_move and hard_mode_mask refuse only what is outside: numpy integers and the last
    word pass and mean the same words as plain ints."""
    last, tales, crane = len(ctx.words) - 1, ctx.words.index("tales"), ctx.words.index("crane")
    history = ((np.int64(tales), np.int32(ctx.table[tales, crane])),)  # A green, E yellow
    assert hard_mode_mask(ctx, history, np.array([crane, last])).tolist() == [True, False]
    hard = Settings(hard=True, guess_from="allowed")
    assert illegal_move(ctx, hard, history, np.int64(crane)) is None
    assert "ZYMIC breaks hard mode" in illegal_move(ctx, hard, history, last)


def test_a_refused_entry_leaves_the_session_unchanged(ctx):
    sess = _session(ctx)
    for guess, pattern in ((-1, 0), (_tales(ctx), 999), ("tales", 0)):
        with pytest.raises(EvoWordleError):
            sess.enter(guess, pattern)
    assert sess.turn == 0 and len(sess.states) == 1


def test_no_opener_is_none_or_empty(ctx):
    """None and "" still mean the solver's own opener (``opener=""``: the GA population picks it)."""
    assert make_solver("greedy", ctx, Settings(), opener="").opener is None
    assert make_solver("ga", ctx, Settings(), opener="").opener is None
    assert make_solver("greedy", ctx, Settings(), opener=None).opener == ctx.words.index("tales")
