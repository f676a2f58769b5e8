"""Strategy genomes, strategy files, the meta-GA (improvement, checkpoint + resume)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.metaga import EvolveConfig, MetaGA, genome_key, play_genome, to_strategy
from evo_wordle.evolve.strategy import (
    Strategy,
    StrategySolver,
    load_strategy_file,
    mass_entropy,
    pattern_mass,
    read_strategy_file,
    save_strategy,
    usable_tree,
    weighted_entropies,
)
from evo_wordle.game import GameState, Settings
from evo_wordle.split import split_answers

P1A = Settings(candidates="answers", guess_from="allowed")


def tiny_config(**kw) -> EvolveConfig:
    base = dict(settings=P1A, train_size=40, holdout_size=30, mu=4, lambda_=6, generations=3, seed=2)
    return EvolveConfig(**{**base, **kw})


def test_weighted_entropies_match_histogram_path(ctx):
    rng = np.random.default_rng(0)
    for n in (3, 40, 300):  # sort path and histogram path
        cand = np.sort(rng.choice(len(ctx.words), n, replace=False))
        w = rng.random(n)
        w /= w.sum()
        guesses = np.sort(rng.choice(len(ctx.words), 500, replace=False))
        fast = weighted_entropies(ctx, guesses, cand, w)
        ref = mass_entropy(pattern_mass(ctx, guesses, cand, w), ctx.words.n_patterns)
        np.testing.assert_allclose(fast, ref, atol=1e-9)
    # uniform weights reproduce the foundation's entropies
    cand = ctx.words.answer_index[:200]
    ours = weighted_entropies(ctx, np.arange(300), cand, np.full(200, 1 / 200))
    np.testing.assert_allclose(ours, ctx.entropy(np.arange(300), cand), atol=1e-9)


def test_strategy_file_round_trip(tmp_path, ctx):
    s = Strategy(opener="crane", steepness=12.5, midpoint=0.7, mix=0.1, k1=0.3, k2=0.5, bonus=1.2,
                 w_freq=0.05, switch_eff=3.0, switch_turn=5.0, hard_candidates=True)
    path = tmp_path / "s.json"
    tree = {"": "crane", "crane:00000": "spilt"}
    save_strategy(path, s, {"seed": 3}, tree, P1A, ctx.words)
    loaded, prov, t = load_strategy_file(path)
    assert loaded == s and prov == {"seed": 3} and t == tree
    f = read_strategy_file(path)
    assert f.made_for["candidates"] == "answers" and f.made_for["allowed_sha256"] == ctx.words.digest
    # the tree is only used under the settings it was built for
    assert usable_tree(ctx, P1A, f) == tree
    assert usable_tree(ctx, P1A.with_(hard=True), f) == {}


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("{not json", "not valid JSON"),
        ('{"format": "something-else"}', "not an evo-wordle strategy file"),
        (json.dumps({"format": "evo-wordle-strategy", "version": 1, "genome": {**Strategy().as_dict(), "k1": "x"}}),
         "k1 must be a number"),
        ('{"format": "evo-wordle-strategy", "version": 1, "genome": {"zzz": 1}}', "unknown strategy gene"),
        (json.dumps({"format": "evo-wordle-strategy", "version": 1,
                     "genome": {**Strategy().as_dict(), "steepness": 99}}), "outside"),
        ('{"format": "evo-wordle-strategy", "version": 1, "genome": {"opener": "salet"}}', "lacks gene"),
        (json.dumps({"format": "evo-wordle-strategy", "version": 1, "genome": Strategy().as_dict(), "provenance": []}),
         "provenance must be a JSON object"),
    ],
)
def test_corrupt_strategy_file_one_line_error(tmp_path, ctx, capsys, text, fragment):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(EvoWordleError, match=fragment):
        load_strategy_file(path)
    assert main(["bench", "--strategy", str(path), "--games", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and fragment.split()[0] in err and "Traceback" not in err


def test_unknown_opener_in_file_is_one_line_error(tmp_path, ctx, capsys):
    path = tmp_path / "s.json"
    save_strategy(path, Strategy(opener="qqqqq"))
    assert main(["bench", "--strategy", str(path), "--games", "3"]) == 2
    assert "qqqqq" in capsys.readouterr().err


def test_strategy_solver_is_memoised_and_deterministic(ctx):
    s = Strategy()
    answers = ctx.words.answer_index[::97]
    a = play_genome(ctx, s, P1A, answers)
    b = play_genome(ctx, s, P1A, answers)
    assert (a == b).all() and a.max() <= 6
    solver = StrategySolver(ctx, P1A, strategy=s)
    state = GameState.start(ctx, P1A).after(ctx.words.index("salet"), 0)
    first = solver.choose(state)
    assert solver.choose(state) == first and len(solver.policy._memo) == 1


def test_strategy_flag_selects_solver_and_plays_tree(tmp_path, ctx, capsys):
    path = tmp_path / "s.json"
    save_strategy(path, Strategy(opener="crane", steepness=0.0))
    assert main(["bench", "--strategy", str(path), "--games", "20", "--candidates", "answers",
                 "--guess-from", "allowed", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solver"] == "strategy" and out["settings"]["opener"] == "crane"
    # a stored tree is played first, unless --opener asks for another first guess
    save_strategy(path, Strategy(opener="crane", steepness=0.0), tree={"": "slate"}, settings=P1A, words=ctx.words)
    state = GameState.start(ctx, P1A)
    assert StrategySolver(ctx, P1A, strategy=path).choose(state) == ctx.words.index("slate")
    assert StrategySolver(ctx, P1A, strategy=path, opener="trace").choose(state) == ctx.words.index("trace")
    assert StrategySolver(ctx, P1A.with_(hard=True), strategy=path).choose(state) == ctx.words.index("crane")


def test_tiny_evolution_improves_on_initial_best(ctx):
    ga = MetaGA(ctx, tiny_config(generations=4))
    best = ga.run()
    gen0 = ga.logbook[0]["best"]
    assert ga.logbook[-1]["best"] < gen0
    assert ga.cache[genome_key(ga.hof[0])] == ga.logbook[-1]["best"]
    assert isinstance(best, Strategy)
    # the chosen genome is the hall-of-fame member best on the held-out sample
    holdouts = [ga.holdout_fitness(ind) for ind in ga.hof]
    assert ga.hold_cache[genome_key(ga.hof[int(np.argmin(holdouts))])] == min(holdouts)


def test_population_stays_mu_when_fewer_distinct_genomes_exist(ctx):
    """With no gene mutating (indpb 0) the offspring repeat their parents' genomes, so only the two
    genomes of generation 0 exist, fewer than μ.  Every generation still keeps μ individuals: the
    distinct genomes first (best first), then repeats of the best of the rest; and it is
    deterministic (two runs keep the same genomes and log the same)."""
    cfg = tiny_config(mu=5, lambda_=3, generations=3, indpb=0.0)
    runs = []
    for _ in range(2):
        ga = MetaGA(ctx, cfg)
        ga.initialise()
        assert len({genome_key(ind) for ind in ga.population}) == 1
        other = type(ga.population[1])(ga.population[1])
        other[-1] = not other[-1]  # hard_candidates: a second genome
        ga._evaluate([other], ga.train, ga.cache)
        ga.population[1] = other
        kept = []
        for _ in range(cfg.generations):
            ga.step()
            assert len(ga.population) == cfg.mu
            ranked = [(ind.fitness.values[0], genome_key(ind)) for ind in ga.population]
            assert len({k for _, k in ranked}) == 2 and ranked[0][1] != ranked[1][1]
            assert ranked[:2] == sorted(ranked[:2]) and ranked[2:] == sorted(ranked[2:])
            kept.append(ranked)
        runs.append((kept, [(r["best"], r["mean"], r["nevals"]) for r in ga.logbook]))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) == cfg.generations + 1


def test_resumed_run_equals_uninterrupted(tmp_path, ctx):
    cfg = tiny_config(generations=3)
    whole = MetaGA(ctx, cfg)
    best_whole = whole.run(tmp_path / "a.ckpt")
    part = MetaGA(ctx, cfg)
    part.run(tmp_path / "b.ckpt", stop_after=1)
    assert part.generation == 1
    saved = (tmp_path / "b.ckpt").read_bytes()
    with pytest.raises(EvoWordleError, match="exists: continue it with MetaGA.resume"):
        MetaGA(ctx, cfg).run(tmp_path / "b.ckpt")  # a fresh run never overwrites a checkpoint
    assert (tmp_path / "b.ckpt").read_bytes() == saved
    resumed = MetaGA.resume(ctx, cfg, tmp_path / "b.ckpt")
    best_resumed = resumed.run(tmp_path / "b.ckpt")
    assert best_resumed == best_whole
    assert [list(i) for i in resumed.population] == [list(i) for i in whole.population]
    keys = ("gen", "nevals", "best", "mean", "holdout")
    assert [[r[k] for k in keys] for r in resumed.logbook] == [[r[k] for k in keys] for r in whole.logbook]
    # a different configuration refuses to resume
    with pytest.raises(EvoWordleError, match="different settings"):
        MetaGA.resume(ctx, tiny_config(seed=8), tmp_path / "b.ckpt")
    (tmp_path / "c.ckpt").write_bytes(b"garbage")
    with pytest.raises(EvoWordleError, match="not valid JSON"):
        MetaGA.resume(ctx, cfg, tmp_path / "c.ckpt")


def test_a_checkpoint_from_before_init_and_test_size_resumes_at_their_defaults(tmp_path, ctx):
    """A checkpoint written before `init` and `test_size` were recorded resumes (exactly) under
    their defaults, which play as those runs did; a run setting either is refused naming it."""
    cfg = tiny_config(generations=2)
    whole = MetaGA(ctx, cfg)
    whole.run()
    path = tmp_path / "old.ckpt"
    MetaGA(ctx, cfg).run(path, stop_after=1)
    doc = json.loads(path.read_text())
    assert doc["config"].pop("init") is None and doc["config"].pop("test_size") is None
    path.write_text(json.dumps(doc))
    resumed = MetaGA.resume(ctx, cfg, path)
    assert resumed.run() == whole.best()
    assert [list(i) for i in resumed.population] == [list(i) for i in whole.population]
    for changed, name in ((dict(test_size=50), "test_size"), (dict(init={"k1": 0.5}), "init")):
        with pytest.raises(EvoWordleError, match=rf"was made with different settings \({name}\)$"):
            MetaGA.resume(ctx, tiny_config(generations=2, **changed), path)


def test_evolve_strategy_cli_end_to_end(tmp_path, ctx, capsys):
    out = tmp_path / "best.json"
    args = ["evolve-strategy", "--candidates", "answers", "--guess-from", "allowed", "--train", "25",
            "--validation", "20", "--mu", "3", "--lambda", "3", "--generations", "1", "--seed", "2",
            "--out", str(out), "--checkpoint", str(tmp_path / "ck"), "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    genome, prov, _ = load_strategy_file(out)
    assert genome.as_dict() == result["genome"] and prov["seed"] == 2 and "evolve-strategy" in prov["command"]
    # the file carries the split (rebuilt from the seed) and the three means
    split = split_answers(ctx.words.answer_index, 2, 25, 20)
    assert prov["split"] == split.as_dict(ctx.words.allowed)
    assert len(prov["split"]["test"]) == len(ctx.words.answers) - 45
    assert set(prov["means"]) == {"train", "validation", "test"} == set(result["means"])
    scores = play_genome(ctx, genome, P1A, split.test)
    assert prov["means"]["test"] == pytest.approx(scores.mean())
    # the same command again, without --resume, would start over: refused before any work,
    # the checkpoint (its progress) left as it was
    checkpoint = (tmp_path / "ck").read_bytes()
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"evo-wordle: error: checkpoint {tmp_path / 'ck'} exists: add --resume to "
                                 "continue it, or remove it to start again\n")
    assert (tmp_path / "ck").read_bytes() == checkpoint
    assert main([*args[:-1], "--resume", "--generations", "2", "--quiet"]) == 0
    assert main(["evolve-strategy", "--resume", "--quiet"]) == 2


def test_a_checkpoint_is_not_resumed_over_other_word_lists(tmp_path, capsys, cache_dir):
    """A checkpoint of a run over --allowed FILE, resumed after FILE was edited, went on with a
    split of the new list and a population scored on the old one; it is refused now."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 50_000) if len(w) == 6 and w.isascii() and w.isalpha()][:150]
    lst, ck = tmp_path / "six.txt", tmp_path / "ck.json"
    lst.write_text("\n".join(words[:120]) + "\n")
    args = ["evolve-strategy", "--allowed", str(lst), "--train", "30", "--validation", "30", "--mu", "2",
            "--lambda", "2", "--pool", "30", "--checkpoint", str(ck), "--quiet"]
    assert main([*args, "--generations", "1"]) == 0
    assert main([*args, "--generations", "2", "--resume"]) == 0  # the same lists resume
    capsys.readouterr()
    lst.write_text("\n".join(words) + "\n")  # 30 words more: every word of the checkpoint still exists
    assert main([*args, "--generations", "3", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "was made with other word lists" in err


@pytest.mark.parametrize("length", [4, 6, 7])
def test_evolution_commands_work_on_any_word_length(tmp_path, capsys, length):
    """Issue 17: evolve-strategy, bench --strategy, ga-tree and openers on a list of another
    word length: the strategy starts from that list's best word (SALET is not in it)."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 200_000) if len(w) == length and w.isascii() and w.isalpha()][:400]
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(words) + "\n")
    answers.write_text("\n".join(words[:150]) + "\n")
    lists = ["--allowed", str(allowed), "--answers", str(answers)]
    out = tmp_path / "s.json"
    assert main(["evolve-strategy", *lists, "--generations", "1", "--mu", "3", "--lambda", "3", "--train", "40",
                 "--validation", "40", "--pool", "50", "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["genome"]["opener"]) == length and result["genome"]["opener"] in words
    assert set(result["means"]) == {"train", "validation", "test"} and result["split"]["test"] == 70
    assert main(["bench", "--strategy", str(out), *lists, "--json"]) == 0
    replay = json.loads(capsys.readouterr().out)
    assert replay["mean_guesses"] == pytest.approx(result["all_answers"]["mean_guesses"])
    tree = tmp_path / "t.txt"
    assert main(["ga-tree", *lists, "--candidates", "answers", "--guess-from", "allowed", "--tree", str(tree)]) == 0
    paths = [line for line in tree.read_text().splitlines() if not line.startswith("#")]
    assert len(paths) == 150 and all(line.split(": ")[1].split()[-1] == line.split(":")[0] for line in paths)
    # the summary names the opener its figures depend on (SALET, the default, is not in this list)
    first = paths[0].split(": ")[1].split()[0]
    assert capsys.readouterr().out.startswith(f"150 answers, opener {first.upper()}: total ")
    assert main(["openers", *lists, "--pool", "40", "--scan", "--json"]) == 0
    pair = json.loads(capsys.readouterr().out)
    assert pair["ga_found_best"] and all(len(w) == length for w in pair["ga"]["words"])


def test_init_from_python_starts_from_its_genes_and_the_default_genome_for_the_rest(ctx):
    """EvolveConfig.init is a starting point given in Python, not a file: genes it leaves out start
    at Strategy()'s (as a multi-board init's start at 0); an unknown gene is still refused."""
    base = MetaGA(ctx, tiny_config(init={"opener": "crane", "k1": 0.5})).base_genes()
    assert to_strategy(base) == Strategy(opener="crane", k1=0.5)
    with pytest.raises(EvoWordleError, match=r"^unknown strategy gene\(s\): kone$"):
        MetaGA(ctx, tiny_config(init={"kone": 0.5})).base_genes()


def test_evolve_strategy_counts_games_lost_at_a_cap_below_the_win_limit(tmp_path, capsys):
    """With --max-guesses 2 a lost game scores 2, below the win limit 6: the report's count of
    lost games (all_answers.lost, once misnamed over_6) must come from the games, as the bench's fail
    rate does, and say the rule that counted them."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 50_000) if len(w) == 5 and w.isascii() and w.isalpha()][:300]
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(words) + "\n")
    answers.write_text("\n".join(words[:120]) + "\n")
    lists = ["--allowed", str(allowed), "--answers", str(answers), "--max-guesses", "2"]
    out = tmp_path / "s.json"
    assert main(["evolve-strategy", *lists, "--generations", "0", "--mu", "2", "--lambda", "2", "--train", "30",
                 "--validation", "30", "--pool", "50", "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["all_answers"]
    assert main(["bench", "--strategy", str(out), *lists, "--json"]) == 0
    bench = json.loads(capsys.readouterr().out)
    lost = round(bench["fail_rate"] * bench["games"])
    assert result["games"] == bench["games"] == 120 and lost > 60
    assert result["lost"] == lost and result["lost_means"] == "not solved within 2"
    assert "over_6" not in result
