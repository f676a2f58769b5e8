"""The assistant, driven by scripted stdin: solving, undo, impossible feedback, bad input, EOF, hard mode."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest

from evo_wordle import patterns
from evo_wordle.assist import AssistSession, draw_board, run_assist
from evo_wordle.cli import main
from evo_wordle.entropy import entropies
from evo_wordle.errors import EvoWordleError, ImpossibleFeedback
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers import make_solver

P1 = Settings.problem("P1")  # the answer list is known: quick suggestions


def digits(guess: str, answer: str) -> str:
    return patterns.to_digits(patterns.score(guess, answer))


def session(ctx, settings: Settings = P1, solver: str = "greedy") -> AssistSession:
    return AssistSession(ctx, settings, make_solver(solver, ctx, settings))


def dialogue(sess: AssistSession, lines, **kw) -> str:
    out = io.StringIO()
    stdin = io.StringIO("".join(f"{line}\n" for line in lines)) if isinstance(lines, list) else lines
    assert run_assist(sess, stdin, out, **kw) == 0
    return out.getvalue()


def record_plays(monkeypatch) -> list[tuple[int, int]]:
    """Every game the assistant's estimate plays, as (answer, guesses), in order."""
    import evo_wordle.assist as assist

    played = []

    def recording_play(solver, state, answer, settings):
        record = play(solver, state, answer, settings)
        played.append((answer, record.score(settings.max_guesses)))
        return record

    monkeypatch.setattr(assist, "play", recording_play)
    return played


def test_accepting_every_suggestion_solves_like_play(ctx):
    """An oracle types Enter and the true colours; the game matches game.play move for move."""
    answer = "crane"
    sess = session(ctx)

    def oracle():
        while True:
            word = sess.suggest()  # evaluated lazily, when the dialogue asks
            yield "\n"
            yield digits(word, answer) + "\n"

    text = dialogue(sess, oracle())
    reference = play(make_solver("greedy", ctx, P1), GameState.start(ctx, P1), ctx.words.index(answer), P1)
    n = len(reference.guesses)
    assert f"Solved in {n} guess{'es' if n != 1 else ''}: CRANE!" in text
    assert [g for g, _ in sess.state.history] == reference.guesses
    for k, g in enumerate(reference.guesses, 1):
        assert f"Guess {k}: suggested {ctx.words.allowed[g].upper()}" in text
    assert text.rstrip().endswith("CRANE!")


def test_report_lists_candidates_and_scored_alternatives(ctx):
    sess = session(ctx)
    text = dialogue(sess, ["slate", digits("slate", "crane")])
    left = sess.state.candidates
    assert f"{len(left):,} candidates left:" in text
    assert "CRANE" in text.split("candidates left:")[1].splitlines()[0] or len(left) > 8
    alts = sess.alternatives(5)
    assert len(alts) == 5
    pool = sess.state.guessable(P1.guess_from)
    bits = entropies(ctx.table, pool, left)
    score = bits * ctx.priority[pool]
    assert alts[0].score == pytest.approx(score.max())
    assert [a.score for a in alts] == sorted((a.score for a in alts), reverse=True)
    for alt in alts:
        i = ctx.words.index(alt.word)
        assert alt.entropy == pytest.approx(float(entropies(ctx.table, [i], left)[0]))
        assert f"{alt.word.upper():<8}" in text and f"{alt.entropy:7.4f}" in text
        assert alt.candidate == (i in set(left.tolist()))
    # the listed candidates are real candidates, most common first
    shown = text.split("candidates left: ")[1].split("…")[0].split()
    assert set(w.lower() for w in shown) <= {ctx.words.allowed[i] for i in left}


def test_emoji_and_letter_patterns_are_read(ctx):
    sess = session(ctx)
    emoji = patterns.to_emoji(patterns.score("slate", "crane"))
    letters = patterns.to_letters(patterns.score("crony", "crane"))
    text = dialogue(sess, ["slate", emoji, "crony", letters.lower(), "crane", "🟩🟩🟩🟩🟩"])
    assert "Solved in 3 guesses: CRANE!" in text


def test_undo_takes_back_a_guess(ctx):
    sess = session(ctx)
    text = dialogue(sess, ["undo", "slate", digits("slate", "crane"), "undo", "crane", "22222"])
    assert "Nothing to undo." in text
    assert "Took back guess 1; 2,309 candidates again." in text
    assert "Solved in 1 guess: CRANE!" in text


def test_undo_at_the_colours_prompt_drops_the_word(ctx):
    sess = session(ctx)
    text = dialogue(sess, ["slate", "undo", "crane", "22222"])
    assert "Dropped SLATE." in text and "Solved in 1 guess: CRANE!" in text


def test_impossible_feedback_keeps_the_game(ctx):
    sess = session(ctx)
    first = digits("slate", "crane")
    text = dialogue(sess, ["slate", first, "crane", "22221", "22222"])
    assert "! Impossible feedback" in text and "your earlier guess is kept" in text
    assert "Solved in 2 guesses: CRANE!" in text
    assert [ctx.words.allowed[g] for g, _ in sess.state.history] == ["slate", "crane"]


def test_impossible_feedback_hints_at_wider_candidates_only_when_useful(ctx):
    # "aahed" is allowed but not an answer: all green is impossible in P1 yet fits an allowed word
    text = dialogue(session(ctx), ["aahed", "22222", "22221"])
    assert text.count("! Impossible feedback") == 2
    assert text.count("type 'list allowed'") == 1


def test_impossible_feedback_session_api(ctx):
    sess = session(ctx)
    sess.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "crane")))
    before = sess.state
    with pytest.raises(ImpossibleFeedback):
        sess.enter(ctx.words.index("slate"), patterns.parse("00000"))  # contradicts the first row
    assert sess.state is before and sess.turn == 1 and not sess.solved
    with pytest.raises(ImpossibleFeedback):
        sess.enter(ctx.words.index("aahed"), ctx.words.solved)  # all green for a non-candidate


def test_bad_word_and_bad_pattern_reprompt(ctx):
    sess = session(ctx)
    text = dialogue(sess, ["zzzzz", "toolong", "slate", "21", "abcde", "", digits("slate", "crane")])
    lines = text.splitlines()
    assert any("! 'zzzzz' is not an allowed word" in line for line in lines)
    assert any("! 'toolong' is not a 5-letter word" in line for line in lines)
    assert any("! pattern '21' has 2 tiles, expected 5" in line for line in lines)
    assert any("! cannot read pattern 'abcde'" in line for line in lines)
    assert any("! type the colours you got" in line for line in lines)
    assert sess.turn == 1  # the good pattern was still taken
    assert text.count("colours for SLATE> ") == 4


def test_eof_ends_cleanly_at_either_prompt(ctx):
    assert dialogue(session(ctx), []).rstrip().endswith("Bye.")
    sess = session(ctx)
    text = dialogue(sess, ["slate"])
    assert text.rstrip().endswith("Bye.") and sess.turn == 0
    assert dialogue(session(ctx), ["quit"]).rstrip().endswith("Bye.")


def test_hard_mode_refuses_words_breaking_the_rules(ctx):
    hard = Settings.problem("P1", hard=True)
    sess = session(ctx, hard)
    first = digits("slate", "crane")  # 00202: A and E green
    text = dialogue(sess, ["slate", first, "crony", "crane", "22222"])
    assert "! CRONY breaks hard mode" in text
    assert "Solved in 2 guesses: CRANE!" in text
    assert sess.undo() and sess.turn == 1
    with pytest.raises(EvoWordleError, match="hard mode"):
        sess.check_guess("crony")
    assert sess.check_guess("crane") == ctx.words.index("crane")


def test_suggestions_come_from_the_solver(ctx):
    sess = session(ctx, P1, "naive")
    solver = make_solver("naive", ctx, P1)
    assert sess.suggest() == ctx.words.allowed[solver.choose(GameState.start(ctx, P1))]
    sess.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "crane")))
    assert sess.suggest() == ctx.words.allowed[solver.choose(sess.state)]


def test_a_stochastic_suggestion_is_kept_across_reprompts(ctx):
    sess = session(ctx, P1, "random")
    first = digits("slate", "crane")
    text = dialogue(sess, ["slate", first, "zzzzz", "undo", "slate", first])
    second = [line for line in text.splitlines() if line.startswith("Guess 2: suggested")]
    assert len(second) == 3 and len(set(second)) == 1


def test_remaining_are_sorted_by_priority(ctx):
    sess = session(ctx)
    sess.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "crane")))
    words = sess.remaining()
    pri = [ctx.priority[ctx.words.index(w)] for w in words]
    assert pri == sorted(pri, reverse=True) and len(words) == len(sess.state.candidates)
    assert np.isin(ctx.words.indices(sess.remaining(3)), sess.state.candidates).all()


def test_cli_assist_reads_stdin(ctx, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("slate\n00202\ncrane\n22222\n"))
    assert main(["assist", "--problem", "P1", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "Solved in 2 guesses: CRANE!" in out


def run_cli(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse usage errors
        return int(exc.code)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["assist", "--solver", "nosuch"], "unknown solver"),
        (["assist", "--top", "0"], "must be at least 1"),
        (["assist", "--opener", "zzzzz"], "not an allowed word"),
        (["assist", "--answers", "/nonexistent/list.txt"], "not found"),
    ],
)
def test_cli_assist_errors_are_one_line(ctx, capsys, monkeypatch, argv, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_list_switch_keeps_the_guesses_and_redraws(ctx):
    """'list allowed' / 'list answers' change who may be the answer without a restart."""
    sess = AssistSession(ctx, P1, make_solver("greedy", ctx, P1),
                         make_solver=lambda s: make_solver("greedy", ctx, s))
    text = dialogue(sess, ["slate", digits("slate", "crane"), "list allowed", "list answers", "list nonsense"])
    assert text.count("  1  SB LB AG TB EG") == 3  # the board drawn after the guess and each switch
    assert "Now any allowed word may be the answer." in text
    assert "! type 'list answers' or 'list allowed'" in text
    assert sess.settings.candidates == "answers" and [g for g, _ in sess.state.history] == [ctx.words.index("slate")]
    counts = [int(line.split()[0].replace(",", "")) for line in text.splitlines() if " candidates left: " in line]
    assert len(counts) == 3 and counts[1] > counts[0] == counts[2]
    # the allowed list's candidates are exactly the allowed words fitting the same row
    allowed = sess.ctx.all_words[ctx.table[ctx.words.index("slate"), sess.ctx.all_words]
                                 == patterns.parse(digits("slate", "crane"), 5)]
    assert counts[1] == len(allowed)


def test_list_switch_refused_when_no_word_of_that_list_fits(ctx):
    sess = session(ctx, Settings())  # allowed list
    sess.enter(ctx.words.index("tales"), patterns.parse("22222", 5))  # TALES is solved: not an answer
    sess.solved = False
    with pytest.raises(EvoWordleError, match="no answers-list word fits"):
        sess.switch_candidates("answers")
    assert sess.settings.candidates == "allowed" and sess.turn == 1


def test_undo_redraws_the_board(ctx):
    sess = session(ctx)
    text = dialogue(sess, ["slate", digits("slate", "crane"), "crony", digits("crony", "crane"), "undo"])
    after_undo = text.split("Took back guess 2")[1]
    assert "  1  SB LB AG TB EG" in after_undo and "CG RG OB NG YB" not in after_undo
    assert "candidates left:" in after_undo and "expected guesses to finish:" in after_undo


def test_expected_guesses_to_finish_is_the_mean_of_playing_on(ctx):
    """With few candidates the estimate is exact: the greedy played on against each of them."""
    sess = session(ctx)
    sess.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "crane"), 5))
    mean, games = sess.expected_to_finish()
    left = sess.state.candidates
    assert games == len(left) < 100
    solver = make_solver("greedy", ctx, P1)
    direct = [len(play(solver, sess.state, int(a), P1).guesses) for a in left]
    assert mean == pytest.approx(np.mean(direct))
    sess.enter(ctx.words.index("crane"), patterns.parse("22222", 5))
    assert sess.expected_to_finish() == (0.0, 0) or sess.solved


def test_cli_assist_follows_a_strategy_tree(ctx, capsys, monkeypatch):
    """--strategy FILE: the suggestions are the evolved tree's moves (SALET first)."""
    from evo_wordle.evolve.strategy import load_strategy_file

    path = "data/strategies/answers-known-salet.json"
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[1])
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"\n{digits('salet', 'crane')}\nquit\n"))
    assert main(["assist", "--strategy", path, "--candidates", "answers", "--guess-from", "allowed"]) == 0
    out = capsys.readouterr().out
    assert "strategy solver" in out and "Guess 1: suggested SALET" in out
    settings = Settings(candidates="answers", guess_from="allowed")
    solver = make_solver("strategy", ctx, settings, strategy=path)
    state = GameState.start(ctx, settings).after(ctx.words.index("salet"),
                                                 patterns.parse(digits("salet", "crane"), 5))
    assert f"Guess 2: suggested {ctx.words.allowed[solver.choose(state)].upper()}" in out
    assert load_strategy_file  # the file is a real strategy with a tree


def test_terminal_reader_ends_on_eof(monkeypatch, capsys):
    from evo_wordle.assist import terminal_reader

    answers = iter(["slate"])

    def fake_input(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    read = terminal_reader()
    assert read("word> ") == "slate" and read("word> ") is None


def test_expected_guesses_to_finish_is_not_cut_by_the_guess_cap(ctx):
    """With --max-guesses 2 and 29 candidates after RAISE, play on was capped at the one guess
    left and every unsolved game counted as finished in it: "expected guesses to finish: 1.00"."""
    capped, free = session(ctx, P1.with_(max_guesses=2)), session(ctx)
    for sess in (capped, free):
        sess.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    assert capped.expected_to_finish() == free.expected_to_finish()
    mean, games = capped.expected_to_finish()
    assert games == 29 and mean > 2
    greedy = make_solver("greedy", ctx, P1)
    direct = [len(play(greedy, free.state, int(a), P1).guesses) for a in free.state.candidates]
    assert capped.beyond_cap() == pytest.approx(np.mean([n > 1 for n in direct])) and free.beyond_cap() == 0.0
    out = io.StringIO()
    draw_board(capped, False, 3, 6, lambda line: out.write(line + "\n"))
    share = f"{100 * capped.beyond_cap():.0f} %"
    assert f"{share} of them need more than the 1 guess left of --max-guesses 2" in out.getvalue()


SIX = ["banana", "castle", "gravel", "mirror", "orange", "output", "pickle", "planet", "plants", "silver", "string",
       "stripe"]


def test_colour_examples_have_the_games_word_length(cache_dir):
    """A six-letter game shows six-tile examples (a five-tile one would be refused), in the
    greeting, in help and at an empty colours prompt, and the example typed is read as colours."""
    from evo_wordle import Context

    six = Context(allowed=SIX, answers=SIX[:6])
    sess = AssistSession(six, Settings(), make_solver("greedy", six, Settings()))
    out = dialogue(sess, ["help", "silver", "", "201100", "quit"])
    assert "20110," not in out and "20110 " not in out and "GBYYB " not in out
    assert "its colours as 201100, GBYYBB or 🟩⬛🟨🟨⬛⬛." in out
    assert "at the colours prompt: 201100 / GBYYBB / 🟩⬛🟨🟨⬛⬛ " in out
    assert "! type the colours you got, e.g. 201100, GBYYBB or 🟩⬛🟨🟨⬛⬛ (or 'undo')" in out
    assert "tiles, expected" not in out  # the example is a well-formed six-tile row
    assert "(6 answers, list answers)" in out  # the answer list as it is, not the bundled 2,309


def test_colour_examples_follow_the_length(cache_dir):
    from evo_wordle.assist import colour_examples

    assert colour_examples(5) == ("20110", "GBYYB", "🟩⬛🟨🟨⬛")
    for n in (2, 4, 6, 8):
        digits, letters, emoji = colour_examples(n)
        assert len(digits) == len(letters) == len(emoji) == n
        assert patterns.parse(digits, n) == patterns.parse(letters, n) == patterns.parse(emoji, n)


def _reversed_prior_file(ctx, tmp_path, settings: Settings):
    """A strategy file whose stored prior ranks the words in reverse frequency order (the rarest
    word likeliest): sharply unlike the frequency weights assist showed before."""
    from evo_wordle.evolve.strategy import StoredPrior, Strategy, save_strategy
    from evo_wordle.frequency import frequency_rank

    prior = 1.0 + (len(ctx.words) - frequency_rank(ctx.frequencies)).astype(float) ** 2
    path = tmp_path / "reversed.json"
    save_strategy(path, Strategy(), {}, None, settings, ctx.words, StoredPrior(prior, "reversed frequency"))
    from evo_wordle.evolve.strategy import read_strategy_file

    return path, read_strategy_file(path).prior.weights


def test_a_session_with_a_prior_shows_everything_by_that_prior(ctx, tmp_path):
    """Candidate order, the weights of the expected guesses to finish and the alternatives'
    entropy and score come from the session's prior (a strategy file's), not from frequency."""
    path, prior = _reversed_prior_file(ctx, tmp_path, P1)
    solver = make_solver("strategy", ctx, P1, strategy=str(path))
    sess = AssistSession(ctx, P1, solver, prior=prior, prior_about="x")
    plain = AssistSession(ctx, P1, make_solver("strategy", ctx, P1, strategy=str(path)))
    for s in (sess, plain):
        s.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "crane"), 5))
    left = sess.state.candidates
    by_prior = [ctx.words.allowed[i] for i in left[np.lexsort((left, -prior[left]))]]
    assert sess.remaining() == by_prior != plain.remaining()
    np.testing.assert_allclose(sess.weights(left), prior[left] / prior[left].sum())
    mean, games = sess.expected_to_finish(budget=60.0)
    assert games == len(left) < 100
    direct = [len(play(make_solver("strategy", ctx, P1, strategy=str(path)), sess.state, int(a), P1).guesses)
              for a in left]
    assert mean == pytest.approx(np.average(direct, weights=prior[left]))
    pool = sess.state.guessable(P1.guess_from)
    bits = entropies(ctx.table, pool, left, prior[left] / prior[left].sum())
    score = bits * prior[pool] / prior.max()
    alts = sess.alternatives(3)
    assert [a.word for a in alts] == [ctx.words.allowed[pool[i]] for i in np.lexsort((pool, -bits, -score))[:3]]
    assert [a.score for a in alts] == pytest.approx(np.sort(score)[::-1][:3])
    assert [a.word for a in alts] != [a.word for a in plain.alternatives(3)]


def test_cli_assist_with_a_strategy_file_that_stores_a_prior_shows_its_weights(ctx, tmp_path, capsys, monkeypatch):
    """`assist --strategy FILE` (a file with a stored prior, as p0-plan) showed the candidates,
    the expected guesses and the priority×entropy table by word frequency, while its solver
    decides by the file's prior."""
    path, prior = _reversed_prior_file(ctx, tmp_path, P1)
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"slate\n{digits('slate', 'crane')}\nquit\n"))
    assert main(["assist", "--strategy", str(path), "--problem", "P1", "--show", "3"]) == 0
    out = capsys.readouterr().out
    assert f"weighted by the prior stored in strategy file {path}, as the solver weighs them" in out
    state = GameState.start(ctx, P1).after(ctx.words.index("slate"), patterns.parse(digits("slate", "crane"), 5))
    left = state.candidates
    first = left[np.lexsort((left, -prior[left]))][:3]
    shown = out.split("candidates left: ")[1].split("\n")[0].split()[:3]
    assert shown == [ctx.words.allowed[i].upper() for i in first]
    assert "prior×entropy" in out and "priority×entropy" not in out


#: A genome whose own prior is sharply unlike plain frequency: plurals, -ed words, names and
#: unlisted words damped a thousandfold, a flat frequency curve and a fifth of uniform mix.
DAMPED = dict(steepness=3.0, midpoint=0.9, mix=0.2, w_plural=0.001, w_past=0.001, w_proper=0.001,
              w_unlisted=0.001)
P0 = Settings.problem("P0")


def _genome_file(ctx, tmp_path):
    """A strategy file with no stored prior (as p0-evolved): its solver decides by its genome's prior."""
    from evo_wordle.evolve.strategy import Strategy, save_strategy

    path = tmp_path / "damped.json"
    save_strategy(path, Strategy(**DAMPED), {}, None, P0, ctx.words)
    return path


def test_a_session_with_a_genome_prior_and_mix_weighs_as_the_strategy_solver(ctx, tmp_path):
    """With the genome's prior and its uniform mix, the session weighs the candidates exactly as
    the strategy solver does (order, expected-guess weights, entropy, and the score's prior)."""
    solver = make_solver("strategy", ctx, P0, strategy=str(_genome_file(ctx, tmp_path)))
    policy = solver.policy
    assert policy.mix == DAMPED["mix"]
    sess = AssistSession(ctx, P0, solver, prior=policy.prior, mix=policy.mix)
    sess.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "cares"), 5))
    left = sess.state.candidates
    np.testing.assert_allclose(sess.weights(left), policy.weights(left))
    assert sess.remaining(8) == [ctx.words.allowed[i] for i in left[np.lexsort((left, -policy.weights(left)))][:8]]
    every = policy.weights(ctx.all_words)
    np.testing.assert_allclose(sess.priority, every / every.max())
    pool = sess.state.guessable(P0.guess_from)
    bits = entropies(ctx.table, pool, left, policy.weights(left))
    score = bits * every[pool] / every.max()
    top = np.lexsort((pool, -bits, -score))[:3]
    alts = sess.alternatives(3)
    assert [a.word for a in alts] == [ctx.words.allowed[pool[i]] for i in top]
    assert [(a.entropy, a.score) for a in alts] == [pytest.approx((bits[i], score[i])) for i in top]
    with pytest.raises(EvoWordleError, match="mix"):
        AssistSession(ctx, P0, solver, prior=policy.prior, mix=1.5)


def test_a_sessions_prior_priority_is_computed_once(ctx, tmp_path):
    """The prior's priority weighs all 12,972 allowed words: one session computes it once, not
    at every access (each alternatives() reads it), and the value is the same."""
    solver = make_solver("strategy", ctx, P0, strategy=str(_genome_file(ctx, tmp_path)))
    sess = AssistSession(ctx, P0, solver, prior=solver.policy.prior, mix=solver.policy.mix)
    weights, over_all = sess.weights, []

    def counted(candidates):
        over_all.append(len(candidates) == len(ctx.all_words))
        return weights(candidates)

    sess.weights = counted
    first = sess.priority
    sess.enter(ctx.words.index("slate"), patterns.parse(digits("slate", "cares"), 5))
    sess.alternatives(3)
    sess.alternatives(3)
    assert sess.priority is first and over_all.count(True) == 1
    every = weights(ctx.all_words)
    np.testing.assert_array_equal(first, every / every.max())


def test_cli_assist_with_a_genome_file_shows_the_genomes_prior(ctx, tmp_path, capsys, monkeypatch):
    """`assist --strategy FILE` for a file without a stored prior (as p0-evolved) showed the
    candidates, expected guesses and entropy table by word frequency, while its solver decides
    by the genome's own prior (frequency curve, multipliers and mix)."""
    path = _genome_file(ctx, tmp_path)
    policy = make_solver("strategy", ctx, P0, strategy=str(path)).policy
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"slate\n{digits('slate', 'cares')}\nquit\n"))
    assert main(["assist", "--strategy", str(path), "--problem", "P0", "--show", "5", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert f"weighted by the prior of the genome in strategy file {path} (its frequency curve" in out
    state = GameState.start(ctx, P0).after(ctx.words.index("slate"), patterns.parse(digits("slate", "cares"), 5))
    left = state.candidates
    by_genome = [ctx.words.allowed[i].upper() for i in left[np.lexsort((left, -policy.weights(left)))][:5]]
    by_frequency = [ctx.words.allowed[i].upper() for i in left[np.lexsort((left, -ctx.priority[left]))][:5]]
    shown = out.split("candidates left: ")[1].split("\n")[0].split()[:5]
    assert shown == by_genome != by_frequency
    rows = out.split("could be the answer\n")[1].splitlines()[:3]
    pool = state.guessable(P0.guess_from)
    bits = entropies(ctx.table, pool, left, policy.weights(left))
    every = policy.weights(ctx.all_words)
    score = bits * every[pool] / every.max()
    top = np.lexsort((pool, -bits, -score))[:3]
    assert [r.split()[0] for r in rows] == [ctx.words.allowed[pool[i]].upper() for i in top]
    assert [float(r.split()[1]) for r in rows] == pytest.approx(bits[top], abs=1e-4)


def _board(sess: AssistSession) -> str:
    out = io.StringIO()
    draw_board(sess, False, 3, 6, lambda line: out.write(line + "\n"))
    return out.getvalue()


def test_too_few_games_in_the_budget_give_no_estimate(ctx):
    """A slow solver (p0-plan on the allowed list) played one game in the budget and assist printed
    "expected guesses to finish: 4.00 … (1 sampled candidates)": a single game shown as an estimate
    of hundreds of candidates, and in broken grammar."""
    sess = session(ctx)
    sess.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    left = len(sess.state.candidates)
    assert left == 29
    sess.budget = 0.0  # the budget is spent after the first game, as with a slow solver
    assert sess.expected_to_finish()[1] == 1
    text = _board(sess)
    assert ("expected guesses to finish: not estimated: only 1 game fitted in the 0 s budget, too few to "
            "stand for 29 candidates (it takes 10)") in text
    assert "following the suggestions" not in text and "sampled" not in text
    assert "could be the answer" in text  # the table is still shown
    enough = session(ctx)
    enough.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    enough.sample, enough.budget = 12, 60.0  # a draw of 12 stands for the 29
    assert "following the suggestions (12 sampled candidates)" in _board(enough)


def test_a_sampled_estimate_weighs_the_candidates_as_every_candidate_does(ctx):
    """Above the sample size the draw was made by the weights *without* replacement and each drawn
    answer counted once, which flattens the weights towards a plain mean: with a word-frequency
    prior on the allowed list the figure shown was 3.50 where every candidate, weighted, gives 3.16.
    Here one candidate holds almost all the weight: a draw of 12 must give its score."""
    probe = session(ctx)
    probe.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    cand = probe.state.candidates
    solver = make_solver("greedy", ctx, P1)
    scores = np.array([len(play(solver, probe.state, int(a), P1).guesses) for a in cand])
    heavy = int(np.argmax(np.abs(scores - scores.mean())))  # the score furthest from the plain mean
    prior = np.ones(len(ctx.words))
    prior[cand[heavy]] = 1e9
    sess = AssistSession(ctx, P1, make_solver("greedy", ctx, P1), prior=prior)
    sess.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    every, games = sess.expected_to_finish(sample=1000, budget=600.0)
    assert games == len(cand) == 29 and every == pytest.approx(np.average(scores, weights=prior[cand]))
    sess._estimates.clear()
    drawn, games = sess.expected_to_finish(sample=12, budget=600.0)
    assert games == 12 and drawn == pytest.approx(every, abs=1e-6)  # 12 draws, of the heavy word alone
    assert abs(scores.mean() - every) > 0.2  # a flattened draw would be far off
    assert sess.spread() == 0.0  # twelve draws of one word: no spread


def test_a_sampled_estimate_shows_its_95_interval_and_every_candidate_none(ctx, monkeypatch):
    """The sampled figure is an estimate (±0.1 to ±0.2 guesses with 100 draws after one guess on the
    allowed list) and was shown as bare as an exact one."""
    from evo_wordle.stats import mean_ci

    played = record_plays(monkeypatch)
    sess = session(ctx)
    sess.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    sess.sample, sess.budget = 12, 600.0
    drawn = np.random.default_rng(np.random.SeedSequence([1, 29])).choice(
        sess.state.candidates, size=12, replace=True, p=sess.weights(sess.state.candidates))
    mean, games = sess.expected_to_finish()
    score_of = dict(played)
    want_mean, want_half = mean_ci([score_of[int(a)] for a in drawn])  # every draw, repeats included
    assert games == 12 and mean == pytest.approx(want_mean) and sess.spread() == pytest.approx(want_half)
    assert 0 < want_half < 2
    assert f"expected guesses to finish: {mean:.2f} ± {want_half:.2f} following the suggestions (12 sampled" \
        in _board(sess)
    whole = session(ctx)
    whole.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    text = _board(whole)
    assert np.isnan(whole.spread()) and "(every candidate)" in text and "±" not in text


def test_a_cut_short_estimate_plays_a_random_part_of_the_candidates(ctx, monkeypatch):
    """Candidates up to the sample size were played in alphabetical order, so a budget cut left
    the alphabetically first of them standing as "sampled candidates"."""
    played = record_plays(monkeypatch)
    sess = session(ctx)
    sess.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    cand = sess.state.candidates
    sess.budget = 0.0
    sess.expected_to_finish()
    assert len(played) == 1 and played[0][0] in cand and played[0][0] != cand[0]
    full = session(ctx)
    full.enter(ctx.words.index("raise"), patterns.parse("00210", 5))
    played.clear()
    full.expected_to_finish()
    assert sorted(a for a, _ in played) == list(cand)  # uncut, every candidate is played once
