"""Multi-board evolution (issue 17): the summed-entropy policy's genes, each checked against a
reference computed here from the foundation's entropies; the meta-GA on board sets drawn from
their own part of the split; the CLI writing a parameter file that bench replays."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle.boards import GENES, SummedEntropy, draw_answers, play_boards
from evo_wordle.cli import main
from evo_wordle.entropy import entropies
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import (
    BOARD_GENE_NAMES,
    EvolveConfig,
    MetaGA,
    genome_scores,
    play_sets,
    split_sets,
)
from evo_wordle.game import Settings

KNOWN2 = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7)
FIRST = ["crane", "crate", "grace", "brace", "trace", "grade", "brave"]
SECOND = ["spill", "still", "skill", "shall", "spell", "swill"]
PAIR = ["mound", "wound"]


def bits(ctx, group: list[str]) -> np.ndarray:
    """Bits of every allowed guess on a board holding ``group``, from the foundation."""
    return entropies(ctx.table, ctx.all_words, ctx.words.indices(group))


def pick(ctx, policy: SummedEntropy, groups: list[list[str]], turn: int = 2) -> str:
    return ctx.words.allowed[policy.choose([policy.board_of(ctx.words.indices(g)) for g in groups], turn)]


def reference_scores(ctx, groups: list[list[str]], weight=0.0, bonus=0.0) -> np.ndarray:
    """Every guess's score, computed independently: Σ_b (n_b/max n)^weight·H_b + bonus·Σ_b [g ∈ C_b]/n_b."""
    largest = max(len(g) for g in groups)
    total = sum((len(g) / largest) ** weight * bits(ctx, g) for g in groups)
    for g in groups:
        total[ctx.words.indices(g)] += bonus / len(g)
    return total


def reference(ctx, groups: list[list[str]], weight=0.0, bonus=0.0, pool=None) -> set[str]:
    """The words of best score (within 1e-9 bits)."""
    total = reference_scores(ctx, groups, weight, bonus)
    words = np.arange(len(total)) if pool is None else np.asarray(pool)
    top = total[words].max()
    return {ctx.words.allowed[w] for w in words[total[words] >= top - 1e-9]}


def test_zero_genes_are_the_plain_policy(ctx):
    """Genes 0, 0, 0 play exactly what summed entropy plays (same opener), set by set."""
    sets = draw_answers(ctx, 2, 30, 5)
    plain = SummedEntropy(ctx, KNOWN2, opener="salet")
    want = [play_boards(plain, row, 7) for row in sets]
    got = play_sets(ctx, ["salet", 0.0, 0.0, 0.0], KNOWN2, sets)
    assert [r.guesses for r in got] == [r.guesses for r in want]
    assert genome_scores(ctx, ["salet", 0.0, 0.0, 0.0], KNOWN2, sets, 0).tolist() == [r.score(7) for r in want]


@pytest.mark.parametrize("weight", [-1.5, 0.0, 1.0, 2.0])
def test_weight_scales_each_board_by_its_share_of_candidates(ctx, weight):
    policy = SummedEntropy(ctx, KNOWN2, weight=weight)
    groups = [FIRST, SECOND[:3]]
    assert pick(ctx, policy, groups) in reference(ctx, groups, weight=weight)
    if weight == 2.0:  # the wide board dominates: the pick is (near) best on it alone
        assert bits(ctx, FIRST)[ctx.words.index(pick(ctx, policy, groups))] >= bits(ctx, FIRST).max() - 0.2


@pytest.mark.parametrize("bonus", [0.0, 0.5, 8.0])
def test_bonus_rewards_guesses_that_may_solve_a_board_now(ctx, bonus):
    policy = SummedEntropy(ctx, KNOWN2, bonus=bonus)
    groups = [PAIR, FIRST]
    chosen = pick(ctx, policy, groups)
    assert chosen in reference(ctx, groups, bonus=bonus)
    if bonus == 8.0:  # 4 bits for a 1-in-2 chance beat any split of the other board (≤ log2 7 < 2.81)
        assert chosen in PAIR
    if bonus == 0.0:
        assert chosen not in PAIR + FIRST  # plain entropy splits both boards with an outside word


@pytest.mark.parametrize("weight, bonus", [(0.0, 0.0), (1.3, 0.0), (-0.7, 2.5), (0.0, 5.0)])
def test_every_guess_is_scored_as_the_formula_says(ctx, weight, bonus):
    policy = SummedEntropy(ctx, KNOWN2, weight=weight, bonus=bonus)
    groups = [FIRST, SECOND[:3], PAIR]
    got = policy.scores([policy.board_of(ctx.words.indices(g)) for g in groups])
    assert got == pytest.approx(reference_scores(ctx, groups, weight, bonus), abs=1e-9)


def test_late_keeps_to_candidates_when_every_guess_must_solve_a_board(ctx):
    groups = [FIRST, SECOND]
    union = ctx.words.indices(FIRST + SECOND)
    cap = KNOWN2.max_guesses
    for late, turn, only in [(0.0, cap - 2, False), (1.0, cap - 3, False), (1.0, cap - 2, True),
                             (3.0, cap - 4, True), (3.0, cap - 5, False)]:
        policy = SummedEntropy(ctx, KNOWN2, late=late)
        chosen = pick(ctx, policy, groups, turn=turn)
        # guesses left minus unsolved boards below round(late): candidates only
        assert (chosen in FIRST + SECOND) == only, (late, turn)
        assert chosen in reference(ctx, groups, pool=union if only else None)


def test_genes_are_checked(ctx):
    for name, (lo, hi) in GENES.items():
        SummedEntropy(ctx, KNOWN2, **{name: lo})
        SummedEntropy(ctx, KNOWN2, **{name: hi})
        with pytest.raises(EvoWordleError, match=name):
            SummedEntropy(ctx, KNOWN2, **{name: hi + 0.5})
        with pytest.raises(EvoWordleError, match=name):
            SummedEntropy(ctx, KNOWN2, **{name: lo - 0.5})
        with pytest.raises(EvoWordleError, match=name):
            SummedEntropy(ctx, KNOWN2, **{name: float("nan")})


def tiny(**kw) -> EvolveConfig:
    base = dict(settings=KNOWN2, train_size=300, holdout_size=300, mu=3, lambda_=3, generations=2, seed=4,
                train_sets=12, holdout_sets=10)
    return EvolveConfig(**{**base, **kw})


def test_board_sets_come_from_their_own_part_of_the_split(ctx):
    ga = MetaGA(ctx, tiny())
    sets = split_sets(ga.cfg, ga.split, 25)
    assert sets["train"].shape == (12, 2) and sets["validation"].shape == (10, 2) and sets["test"].shape == (25, 2)
    for part in ("train", "validation", "test"):
        assert set(sets[part].ravel()) <= set(ga.split.part(part).tolist())
    assert np.array_equal(ga.train, sets["train"]) and np.array_equal(ga.holdout, sets["validation"])
    again = split_sets(tiny(), MetaGA(ctx, tiny()).split, 25)
    assert all(np.array_equal(sets[k], again[k]) for k in sets)  # rebuilt from the seed


def test_boards_meta_ga_starts_from_the_plain_policy_and_resumes_exactly(ctx, tmp_path):
    cfg = tiny()
    whole = MetaGA(ctx, cfg)
    best = whole.run(tmp_path / "a.ckpt")
    first = whole.logbook[0]
    plain = whole.base_genes()
    assert plain[1:] == [0.0, 0.0, 0.0] and plain[0] == ctx.words.allowed[SummedEntropy(ctx, KNOWN2).choose(
        [SummedEntropy(ctx, KNOWN2).full_board()], 0)]
    scores = genome_scores(ctx, plain, KNOWN2, whole.train, 0)
    assert whole.cache[tuple(plain)] == pytest.approx(scores.mean() + np.mean(scores > KNOWN2.win_limit))
    assert first["best"] <= whole.cache[tuple(plain)]
    assert set(best) == set(BOARD_GENE_NAMES) and whole.logbook[-1]["best"] <= first["best"]
    part = MetaGA(ctx, cfg)
    part.run(tmp_path / "b.ckpt", stop_after=1)
    resumed = MetaGA.resume(ctx, cfg, tmp_path / "b.ckpt")
    assert resumed.run(tmp_path / "b.ckpt") == best
    assert [list(i) for i in resumed.population] == [list(i) for i in whole.population]
    with pytest.raises(EvoWordleError, match="different settings"):
        MetaGA.resume(ctx, tiny(train_sets=13), tmp_path / "b.ckpt")


@pytest.mark.parametrize("boards, init, message", [
    # a file of the other kind: the loaders' messages advised "replay it with bench or compare --strategy"
    ([], "dordle-evolved", "--init dordle-evolved is a multi-board policy file; give --boards N to evolve from it "
                           "(one board starts from a strategy file)"),
    (["--boards", "2"], "p0-evolved", "--init p0-evolved is a one-board strategy file; with --boards N, --init takes "
                                      "a multi-board policy file (written by evolve-strategy --boards N)"),
    # an opener not in these lists: was "'slane' is not a 6-letter word", without the file
    (["--boards", "2"], "dordle-evolved", "--init dordle-evolved: its opener 'slane' is not an allowed word of this "
                                          "list"),
    ([], "p0-evolved", "--init p0-evolved: its opener 'cares' is not an allowed word of this list"),
])
def test_init_files_of_the_wrong_kind_or_lists_are_one_line_naming_them(capsys, cache_dir, tmp_path, boards, init,
                                                                        message):
    from evo_wordle.evolve.strategy import resolve_strategy_path

    lists = []
    if "opener" in message:
        six = tmp_path / "six.txt"
        six.write_text("planet\nplants\nstripe\nstring\nstrong\nplains\nsprint\nsprain\n")
        lists = ["--allowed", str(six), "--answers", str(six), "--train", "2", "--validation", "2"]
    else:
        lists = ["--train", "20", "--validation", "20"]
    code = main(["evolve-strategy", *boards, "--generations", "0", "--mu", "2", "--lambda", "1", *lists,
                 "--init", init, "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err == f"evo-wordle: error: {message}\n"
    assert resolve_strategy_path(init).is_file()  # shipped by name: the same check as for a path


@pytest.mark.parametrize("change, message", [
    # parameters that are not genes were never read: accepted without a word, whatever they held
    ({"cache_size": "abc"}, "--cache-size must be a whole number, not 'abc'"),
    ({"bogus": 1}, "solver summed-entropy has no parameter 'bogus'"),
    ({"rollout": -3}, "--rollout must be between 0 and 100000, not -3"),
])
def test_an_init_policy_file_is_checked_as_a_replay_checks_it(capsys, cache_dir, tmp_path, change, message):
    import json

    from evo_wordle.evolve.strategy import resolve_strategy_path

    doc = json.loads(resolve_strategy_path("dordle-evolved").read_text())
    doc["params"].update(change)
    path = tmp_path / "init.json"
    path.write_text(json.dumps(doc))
    code = main(["evolve-strategy", "--boards", "2", "--generations", "0", "--mu", "2", "--lambda", "1",
                 "--train-sets", "3", "--validation-sets", "3", "--test-sets", "3", "--init", str(path), "--quiet"])
    # the table's one-time build notice comes first on a fresh cache (whichever test builds it)
    said = [line for line in capsys.readouterr().err.splitlines() if "built pattern table" not in line]
    assert code == 2 and len(said) == 1
    assert said[0].startswith(f"evo-wordle: error: --init {path}: ") and message in said[0]


def test_the_text_names_the_game_beside_its_figures(capsys, cache_dir):
    """The summary gave test means and "not solved within 9" but never the board count, who may
    be the answer or where guesses come from (the JSON has them under settings)."""
    assert main(["evolve-strategy", "--boards", "4", "--candidates", "answers", "--generations", "0", "--mu", "2",
                 "--lambda", "1", "--train-sets", "3", "--validation-sets", "3", "--test-sets", "3", "--quiet"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "game: candidates=answers guess_from=allowed max_guesses=9 boards=4, answers nyt"


def test_a_checkpoint_past_the_generations_asked_is_refused(tmp_path, capsys, cache_dir):
    """Resuming a checkpoint of 2 generations with --generations 0 ran nothing, reported the
    2 generations and wrote a file whose provenance command said --generations 0."""
    ck, out = tmp_path / "c.ckpt", tmp_path / "p.json"
    args = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--mu", "2", "--lambda", "2",
            "--train-sets", "6", "--validation-sets", "6", "--test-sets", "6", "--checkpoint", str(ck), "--quiet"]
    assert main([*args, "--generations", "2"]) == 0
    capsys.readouterr()
    saved = ck.read_bytes()
    assert main([*args, "--generations", "1", "--resume", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"evo-wordle: error: checkpoint {ck} has run 2 generations, more than --generations 1: give "
                   "--generations 2 or more to resume it\n")
    assert not out.exists() and ck.read_bytes() == saved
    assert main([*args, "--generations", "2", "--resume", "--out", str(out)]) == 0  # its own count: reported
    assert json.loads(out.read_text())["provenance"]["generations"] == 2


def test_cli_writes_a_parameter_file_that_bench_replays_in_its_game(tmp_path, capsys, cache_dir):
    out = tmp_path / "dordle.json"
    argv = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "1", "--mu", "3",
            "--lambda", "3", "--train-sets", "10", "--validation-sets", "8", "--test-sets", "30", "--seed", "3",
            "--out", str(out), "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    doc = json.loads(out.read_text())
    assert doc["solver"] == "summed-entropy" and doc["params"] == result["genome"]
    assert doc["made_for"]["boards"] == 2 and doc["made_for"]["candidates"] == "answers"
    assert set(result) >= {"evolved", "summed_entropy", "summed_entropy_same_opener", "split", "fitness"}
    assert result["split"]["test_sets"] == 30
    # the test figure is the genome played on the test sets its seed draws
    from evo_wordle import Context

    ctx = Context()
    cfg = EvolveConfig(settings=Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7),
                       seed=3, train_sets=10, holdout_sets=8)
    sets = split_sets(cfg, MetaGA(ctx, cfg).split, 30)["test"]
    genes = [result["genome"][k] for k in BOARD_GENE_NAMES]
    assert result["evolved"]["test_mean"] == pytest.approx(genome_scores(ctx, genes, cfg.settings, sets, 0).mean())
    plain = genome_scores(ctx, [None, 0.0, 0.0, 0.0], cfg.settings, sets, 0)
    assert result["summed_entropy"]["test_mean"] == pytest.approx(plain.mean())
    ours = genome_scores(ctx, genes, cfg.settings, sets, 0)
    d = result["evolved_minus_summed_entropy"]
    assert d["mean"] == pytest.approx((ours - plain).mean()) and d["games"] == 30
    assert d["low"] <= d["mean"] <= d["high"]
    # each policy's histogram counts its test sets by guesses, as played
    for label, scores in (("evolved", ours), ("summed_entropy", plain)):
        values, counts = np.unique(scores, return_counts=True)
        assert result[label]["histogram"] == {str(v): int(c) for v, c in zip(values, counts)}
    assert result["settings"]["boards"] == 2 and result["settings"]["max_guesses"] == 7
    # the figures draw exactly these numbers (the logbook from --log, as the experiment script reads it)
    from evo_wordle.plots.metaga import plot_board_histograms, plot_metaga_convergence

    log = [{"gen": 0, "nevals": 3, "best": 4.9, "mean": 5.0, "holdout": 5.1, "seconds": 1.0},
           {"gen": 1, "nevals": 3, "best": 4.8, "mean": 4.95, "holdout": 5.0, "seconds": 2.0}]
    runs = {2: {**result, "logbook": log}}
    hist = plot_board_histograms(runs, tmp_path / "hist.png")
    assert hist.path.stat().st_size > 0
    drawn = hist.data[2]["summed_entropy"]
    assert sum(drawn["share"]) == pytest.approx(100)
    assert drawn["share"][drawn["guesses"].index(int(values[0]))] == pytest.approx(100 * counts[0] / 30)
    assert "seed 3" in hist.data["caption"] and "Dordle 7" in hist.data["caption"]
    assert hist.data[2]["evolved"]["name"] == "evolved"  # this run added no lookahead
    # a run with the (not evolved) lookahead says so beside its bars
    looked = plot_board_histograms({2: {**result, "rollout": 200}}, tmp_path / "hist-rollout.png")
    assert looked.data[2]["evolved"]["name"] == "evolved + lookahead (--rollout 200)"
    assert looked.data[2]["summed_entropy"]["name"] == "summed entropy"
    conv = plot_metaga_convergence(runs, tmp_path / "conv.png")
    assert conv.data[2]["gen"] == [0, 1] and conv.data[2]["the same best, on the validation sets"] == [5.1, 5.0]
    # the winner's own validation figure is drawn: the genome shipped, which need not be the last best
    assert conv.data[2]["the winner, on the validation sets"] == result["fitness"]["validation"]
    # bench --params plays the file's own game (answers known, guesses from allowed, 2 boards)
    assert main(["bench", "--params", str(out), "--games", "20", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["settings"]["boards"] == 2 and summary["settings"]["candidates"] == "answers"
    assert summary["settings"]["guess_from"] == "allowed"


@pytest.mark.parametrize("extra, message", [
    (["--train-sets", "5"], "--train-sets needs --boards N"),
    (["--boards", "2", "--final"], "--final"),
    (["--boards", "2", "--hard"], "hard mode"),
])
def test_bad_multi_board_evolutions_are_one_line(capsys, cache_dir, extra, message):
    code = main(["evolve-strategy", "--generations", "0", "--mu", "2", "--lambda", "1", "--train", "20",
                 "--validation", "20", *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--train-sets", "--validation-sets", "--test-sets"])
def test_board_set_counts_are_capped_before_anything_runs(capsys, cache_dir, flag):
    """--test-sets had no cap (10**9 sets ran the whole evolution, then ran out of memory), and
    --validation-sets 10**9 was refused as "--holdout-sets", a flag that does not exist."""
    with pytest.raises(SystemExit) as exc:
        main(["evolve-strategy", "--boards", "2", "--generations", "0", "--mu", "2", "--lambda", "1",
              "--train", "20", "--validation", "20", flag, "1000001"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"{flag}: must be between" in err and "1000000, not 1000001" in err
    assert "holdout" not in err and len(err.strip().splitlines()) == 1


def test_config_errors_name_the_flags_users_give():
    with pytest.raises(EvoWordleError, match="^--validation-sets must be between 1 and 1000000, not 10000000$"):
        tiny(holdout_sets=10**7)


def test_one_test_set_is_refused_it_has_no_interval(capsys, cache_dir):
    """--test-sets 1 printed "[+nan, +nan]" and wrote NaN into --json and the parameter file (the
    paired difference of one set has no interval); it is refused before anything runs."""
    with pytest.raises(SystemExit) as exc:
        main(["evolve-strategy", "--boards", "2", "--generations", "0", "--mu", "2", "--lambda", "1",
              "--train", "20", "--validation", "20", "--test-sets", "1"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--test-sets: must be between 2 and 1000000, not 1" in err and "Traceback" not in err


def test_metaga_figures_of_a_run_on_custom_lists_name_them(tmp_path, capsys, cache_dir):
    """The meta-GA figures' caption named seed, setting and board sets but not the word lists: a
    run on --allowed FILE --answers FILE drew a figure that read like one over the NYT lists.
    The run's JSON records its lists and both figures name them (file name, sha256 prefix)."""
    from evo_wordle import Context
    from evo_wordle.artefacts import list_digests
    from evo_wordle.plots.metaga import plot_board_histograms, plot_metaga_convergence

    ctx = Context()
    answers = list(ctx.words.answers[:40])
    allowed = sorted(set(answers) | set(ctx.words.allowed[:60]))
    (tmp_path / "mine.txt").write_text("\n".join(allowed) + "\n")
    (tmp_path / "picked.txt").write_text("\n".join(answers) + "\n")
    small = Context(allowed=str(tmp_path / "mine.txt"), answers=str(tmp_path / "picked.txt"))
    small.table  # noqa: B018 - build now: no table notice in the run's output
    digests = {k: v[:8] for k, v in list_digests(small.words).items()}
    argv = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--allowed", str(tmp_path / "mine.txt"),
            "--answers", str(tmp_path / "picked.txt"), "--generations", "1", "--mu", "2", "--lambda", "2",
            "--train", "12", "--validation", "12", "--train-sets", "6", "--validation-sets", "6",
            "--test-sets", "6", "--seed", "1", "--json", "--quiet"]
    capsys.readouterr()
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    log = [{"gen": 0, "nevals": 2, "best": 4.9, "mean": 5.0, "holdout": 5.1, "seconds": 1.0}]
    named = (f"word lists: allowed mine.txt (sha256 {digests['allowed_sha256']}), answers picked.txt "
             f"(sha256 {digests['answers_sha256']})")
    for plot in (plot_board_histograms, plot_metaga_convergence):
        caption = plot({2: {**result, "logbook": log}}, tmp_path / f"{plot.__name__}.png").data["caption"]
        assert named in caption
    # runs on different lists side by side: each board count says which lists it used
    default = {**result, "word_lists": None, "logbook": log}
    mixed = plot_metaga_convergence({2: {**result, "logbook": log}, 4: default}, tmp_path / "mixed.png")
    caption = mixed.data["caption"]
    assert f"Dordle: {named}; Quordle: the default word lists" in caption


def test_cli_names_lost_test_sets_as_not_solved_within_the_cap_it_equals(capsys, cache_dir):
    """On two boards the default cap is the win limit 7: no set takes "over 7" guesses, so the
    summary line counts test sets "not solved within 7" (Settings.fail_text)."""
    argv = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "0", "--mu", "2",
            "--lambda", "1", "--train-sets", "4", "--validation-sets", "4", "--test-sets", "6", "--seed", "3",
            "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "never-seen board sets" in out and " not solved within 7; on the same sets plain summed entropy" in out
    assert "over 7" not in out


def test_a_policy_that_plays_like_plain_summed_entropy_is_not_said_to_detect_zero(capsys, cache_dir):
    """Generation 0's all-zero genome with the plain opener scores as plain summed entropy on every
    test set: the line said "no significant difference (detects 0.0000 with 80 % power)"."""
    assert main(["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "0", "--mu", "2",
                 "--lambda", "1", "--train-sets", "3", "--validation-sets", "3", "--test-sets", "3", "--quiet"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("evolved − summed entropy, set by set: +0.0000 [+0.0000, +0.0000] (95 %): ")
    assert line.endswith("no difference: both scored the same on each of the 3 board sets")
    assert "detects" not in line


def test_distinct_answers_draw_every_part_without_a_repeat_and_stay_out_of_default_fingerprints(ctx):
    """``distinct_answers``: training, validation and test sets all hold different answers, each
    from its own part; off, the fingerprint (and so every old checkpoint) is what it was."""
    cfg = tiny(distinct_answers=True, train_sets=300, holdout_sets=300)
    ga = MetaGA(ctx, cfg)
    sets = split_sets(cfg, ga.split, 300)
    for part in ("train", "validation", "test"):
        assert all(len(set(row)) == 2 for row in sets[part].tolist()), part
        assert set(sets[part].ravel()) <= set(ga.split.part(part).tolist())
    assert np.array_equal(ga.train, sets["train"]) and np.array_equal(ga.holdout, sets["validation"])
    plain = split_sets(tiny(train_sets=300, holdout_sets=300), ga.split, 300)
    assert any(len(set(row)) == 1 for row in plain["train"].tolist())  # with replacement 300 pairs of 300 repeat
    assert cfg.fingerprint()["distinct_answers"] is True
    assert "distinct_answers" not in tiny().fingerprint() and "distinct_answers" not in tiny(
        distinct_answers=False).fingerprint()
    with pytest.raises(EvoWordleError, match=r"^--distinct-answers \(distinct_answers\) needs --boards N with N ≥ 2 "
                                             r"\(one board has one answer\)$"):
        EvolveConfig(distinct_answers=True)


def test_a_distinct_answers_evolution_records_it_and_a_resume_must_match(tmp_path, capsys, cache_dir):
    """A tiny ``evolve-strategy --boards 2 --distinct-answers`` records the choice in its JSON,
    its checkpoint and its parameter file (so bench --split replays those very sets), and a
    resume under the other choice is refused in one line, either way round."""
    from evo_wordle import Context
    from evo_wordle.evolve.metaga import file_sets

    ck, out = tmp_path / "c.ckpt", tmp_path / "p.json"
    args = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--mu", "2", "--lambda", "2",
            "--train-sets", "6", "--validation-sets", "6", "--test-sets", "6", "--checkpoint", str(ck), "--quiet"]
    assert main([*args, "--distinct-answers", "--generations", "1", "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["split"]["distinct_answers"] is True
    doc = json.loads(out.read_text())
    assert doc["provenance"]["sets"]["distinct_answers"] is True
    assert "--distinct-answers" in doc["provenance"]["command"].split()
    assert json.loads(ck.read_text())["config"]["distinct_answers"] is True
    ctx = Context()
    cfg = EvolveConfig(settings=Settings(candidates="answers", guess_from="allowed", boards=2), train_sets=6,
                       holdout_sets=6, distinct_answers=True)
    want = split_sets(cfg, MetaGA(ctx, cfg).split, 6)
    for part in ("train", "validation", "test"):  # the file rebuilds the sets it was evolved and tested on
        np.testing.assert_array_equal(file_sets(ctx, doc, part), want[part])
    saved = ck.read_bytes()
    assert main([*args, "--generations", "2", "--resume"]) == 2  # without --distinct-answers: refused
    err = capsys.readouterr().err
    assert err == f"evo-wordle: error: checkpoint {ck} was made with different settings (distinct_answers)\n"
    assert ck.read_bytes() == saved
    plain = tmp_path / "plain.ckpt"
    plain_args = [a if a != str(ck) else str(plain) for a in args]
    assert main([*plain_args, "--generations", "1"]) == 0
    capsys.readouterr()
    assert "distinct_answers" not in json.loads(plain.read_text())["config"]
    assert main([*plain_args, "--generations", "2", "--resume", "--distinct-answers"]) == 2
    err = capsys.readouterr().err
    assert err == f"evo-wordle: error: checkpoint {plain} was made with different settings (distinct_answers)\n"
    assert main([*args, "--generations", "2", "--resume", "--distinct-answers"]) == 0  # the same choice resumes


def test_the_text_says_distinct_answers_beside_the_board_sets(capsys, cache_dir):
    assert main(["evolve-strategy", "--boards", "4", "--candidates", "answers", "--generations", "0", "--mu", "2",
                 "--lambda", "1", "--train-sets", "3", "--validation-sets", "3", "--test-sets", "3",
                 "--distinct-answers", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].endswith("; board sets (distinct answers): train 3, validation 3, test 3")
    assert "on 3 never-seen board sets of distinct answers, " in out[3]


@pytest.mark.parametrize("extra", [[], ["--boards", "1"]])
def test_distinct_answers_on_one_board_is_refused_in_one_line(capsys, cache_dir, extra):
    code = main(["evolve-strategy", "--generations", "0", "--mu", "2", "--lambda", "1", "--train", "20",
                 "--validation", "20", *extra, "--distinct-answers"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("evo-wordle: error: --distinct-answers (distinct_answers) needs --boards N with N ≥ 2 "
                   "(one board has one answer)\n")


def test_distinct_answers_refuses_a_part_smaller_than_the_boards(capsys, cache_dir, tmp_path):
    """Eight boards of distinct answers cannot be drawn from a validation part of five answers."""
    code = main(["evolve-strategy", "--boards", "8", "--candidates", "answers", "--generations", "0", "--mu", "2",
                 "--lambda", "1", "--train", "20", "--validation", "5", "--train-sets", "3", "--validation-sets", "3",
                 "--test-sets", "3", "--distinct-answers", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("evo-wordle: error: --distinct-answers: 8 boards need at least 8 answers in each part of the "
                   "split, and the validation part has 5\n")


def test_distinct_answers_need_as_many_answers_in_each_part_as_boards(ctx):
    """A part of exactly as many answers as boards deals each of them once per set; a part of
    one fewer is refused in one line naming it (not by the draw, which knows no part)."""
    quordle = Settings(candidates="answers", guess_from="allowed", boards=4)
    ga = MetaGA(ctx, tiny(settings=quordle, distinct_answers=True, holdout_size=4))
    assert all(sorted(row) == sorted(ga.split.part("validation").tolist()) for row in ga.holdout.tolist())
    with pytest.raises(EvoWordleError, match=r"^--distinct-answers: 4 boards need at least 4 answers in each part "
                                             r"of the split, and the validation part has 3$"):
        MetaGA(ctx, tiny(settings=quordle, distinct_answers=True, holdout_size=3))


def test_bench_replays_a_distinct_answers_file_under_its_own_choice(tmp_path, capsys, cache_dir):
    """A file evolved with --distinct-answers: bench drawing new sets follows it (and warns when
    told otherwise); --split test without --games replays its own distinct sets, and the other
    choice is then refused in one line (those sets were drawn under this one)."""
    from evo_wordle import Context

    out = tmp_path / "p.json"
    assert main(["evolve-strategy", "--boards", "2", "--candidates", "answers", "--mu", "2", "--lambda", "1",
                 "--generations", "0", "--train-sets", "4", "--validation-sets", "4", "--test-sets", "6",
                 "--distinct-answers", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    ctx = Context()
    bench = ["bench", "--params", str(out), "--quiet", "--json"]
    fresh = tmp_path / "fresh.csv"  # new sets from the test part (other parts would warn that they flatter it)
    assert main([*bench, "--split", "test", "--games", "200", "--csv", str(fresh)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["settings"]["distinct_answers"] is True and "warning" not in captured.err
    assert all(len(set(line.split(",")[0].split("+"))) == 2 for line in fresh.read_text().splitlines()[1:])
    assert main([*bench, "--split", "test", "--games", "200", "--no-distinct-answers"]) == 0
    captured = capsys.readouterr()
    assert "distinct_answers" not in json.loads(captured.out)["settings"]
    assert captured.err == (f"evo-wordle: warning: parameter file {out} was evolved on board sets drawn with distinct "
                            "answers; these are drawn with replacement\n")
    csv = tmp_path / "test.csv"
    assert main([*bench, "--split", "test", "--csv", str(csv)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["settings"]["distinct_answers"] is True and summary["settings"]["split_recorded_sets"] is True
    from evo_wordle.evolve.metaga import file_sets

    want = file_sets(ctx, json.loads(out.read_text()), "test")
    played = [[ctx.words.index(w) for w in line.split(",")[0].split("+")] for line in csv.read_text().splitlines()[1:]]
    assert played == want.tolist() and all(len(set(row)) == 2 for row in played)
    assert main([*bench, "--split", "test", "--no-distinct-answers"]) == 2
    err = capsys.readouterr().err
    assert err == (f"evo-wordle: error: --split test without --games replays the board sets parameter file {out} "
                   "drew with distinct answers: drop --no-distinct-answers, or give --games K to draw new sets\n")
