"""Rule tests for the meta-GA (evo_wordle/evolve/metaga.py), written against expectations spelt
out here: how the winner is chosen on validation (``select``), what a run's configuration
refuses, and what its fingerprint keeps so that older checkpoints resume."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evo_wordle.artefacts import made_for
from evo_wordle.boards import GENES as BOARD_GENES
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve import metaga
from evo_wordle.evolve.metaga import (
    BOARD_GENE_NAMES,
    CAPPED,
    GENE_NAMES,
    SELECT_RULES,
    EvolveConfig,
    MetaGA,
    gene_names,
    genome_key,
    real_genes,
    to_individual,
    to_strategy,
)
from evo_wordle.evolve.strategy import REAL_GENES, Strategy
from evo_wordle.ga.config import MAX_COUNT
from evo_wordle.game import Settings

KNOWN2 = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=7)


def tiny(**kw) -> EvolveConfig:
    base = dict(settings=KNOWN2, train_size=300, holdout_size=300, mu=3, lambda_=3, generations=2, seed=4,
                train_sets=12, holdout_sets=10)
    return EvolveConfig(**{**base, **kw})


@pytest.fixture(scope="module")
def runs(ctx):
    """The same tiny Dordle evolution under both rules (the runs are identical until the choice)."""
    out = {}
    for rule in SELECT_RULES:
        ga = MetaGA(ctx, tiny(select=rule))
        ga.run()
        out[rule] = ga
    return out


def _hall_choice(ga):
    return min(ga.hof, key=lambda ind: (ga.hold_cache[genome_key(ind)], ind.fitness.values[0], genome_key(ind)))


def test_hall_picks_the_hall_of_fames_best_on_validation(runs):
    ga = runs["hall"]
    assert ga.best() == dict(zip(["opener", "weight", "bonus", "late"], _hall_choice(ga)))


def test_validated_runs_equal_hall_runs_until_the_choice(runs):
    a, b = runs["hall"], runs["validated"]
    assert list(a.logbook) == [dict(r, seconds=a.logbook[i]["seconds"]) for i, r in enumerate(b.logbook)]
    assert a.hold_cache.keys() == b.hold_cache.keys()


def test_validated_picks_a_genome_outside_the_hall_when_it_is_best_on_validation(runs):
    """A genome scored on validation in an early generation (planted here with a better validation
    fitness than every hall member) wins under "validated" and is ignored under "hall"."""
    for rule in SELECT_RULES:
        ga = runs[rule]
        winner = _hall_choice(ga)
        planted = ("crane", 0.5, 1.25, 0.0)
        assert planted not in {genome_key(i) for i in ga.hof}
        ga.cache[planted] = 99.0  # worse on training than anything: only validation speaks for it
        ga.hold_cache[planted] = ga.hold_cache[genome_key(winner)] - 0.001
        try:
            chosen = ga.best()
        finally:
            del ga.cache[planted], ga.hold_cache[planted]
        expected = planted if rule == "validated" else tuple(winner)
        assert tuple(chosen.values()) == expected


def test_validated_breaks_ties_on_validation_by_training_fitness_then_key(runs):
    ga = runs["validated"]
    winner = _hall_choice(ga)
    v = ga.hold_cache[genome_key(winner)]
    tied_better_train = ("crane", 0.5, 1.25, 0.0)
    tied_worse_train = ("aaaaa", 0.5, 1.25, 0.0)  # a smaller key, but a worse training fitness
    try:
        ga.cache[tied_better_train], ga.hold_cache[tied_better_train] = winner.fitness.values[0] - 0.01, v
        ga.cache[tied_worse_train], ga.hold_cache[tied_worse_train] = winner.fitness.values[0] + 0.01, v
        assert tuple(ga.best().values()) == tied_better_train
        ga.cache[tied_better_train] = winner.fitness.values[0]  # tied on both: the smaller key
        assert genome_key(winner) > tied_better_train and tuple(ga.best().values()) == tied_better_train
        del ga.cache[tied_better_train], ga.hold_cache[tied_better_train]
        late = ("zzzzz", 0.5, 1.25, 0.0)
        ga.cache[late], ga.hold_cache[late] = winner.fitness.values[0], v
        assert tuple(ga.best().values()) == tuple(winner)  # the hall's own genome has the smaller key
    finally:
        for k in (tied_better_train, tied_worse_train, ("zzzzz", 0.5, 1.25, 0.0)):
            ga.cache.pop(k, None)
            ga.hold_cache.pop(k, None)


def test_select_is_checked_and_recorded_only_when_not_the_old_rule():
    with pytest.raises(EvoWordleError, match="select"):
        tiny(select="best")
    assert "select" not in tiny().fingerprint()  # checkpoints of runs before --select still resume
    assert tiny(select="validated").fingerprint()["select"] == "validated"
    assert SELECT_RULES == ("hall", "validated")


def test_the_command_lines_select_choices_are_the_rules_the_run_accepts():
    """--select's choices are the meta-GA's SELECT_RULES (one list, in evolve/winner.py): a rule
    offered by one and refused by the other, or a different default, fails here."""
    import argparse
    import dataclasses

    from evo_wordle.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    select = next(a for a in sub.choices["evolve-strategy"]._actions if a.dest == "select")
    assert tuple(select.choices) == SELECT_RULES and len(SELECT_RULES) >= 2
    assert select.default == next(f.default for f in dataclasses.fields(EvolveConfig) if f.name == "select")
    for rule in select.choices:
        assert tiny(select=rule).select == rule


def test_the_command_line_offers_select_without_loading_the_meta_ga():
    """The CLI keeps start-up light: building its parser (every command's flags, --select's
    choices included) does not import evolve/metaga.py."""
    import subprocess
    import sys

    code = "import sys; from evo_wordle.cli import build_parser; build_parser(); print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "'evo_wordle.evolve.winner'" in loaded and "'evo_wordle.evolve.metaga'" not in loaded


def test_the_command_line_passes_select_to_the_run(tmp_path, capsys, cache_dir):
    """`evolve-strategy --select validated` reaches the run: its checkpoint records the rule (so a
    resume under the other rule is refused), and the default records none."""
    import json

    from evo_wordle.cli import main

    base = ["evolve-strategy", "--boards", "2", "--candidates", "answers", "--generations", "0", "--mu", "2",
            "--lambda", "1", "--train-sets", "4", "--validation-sets", "3", "--test-sets", "2", "--seed", "3"]
    for extra, expected in ((["--select", "validated"], "validated"), ([], None)):
        ckpt = tmp_path / f"{expected}.ckpt"
        assert main([*base, *extra, "--checkpoint", str(ckpt), "--quiet"]) == 0
        assert json.loads(ckpt.read_text())["config"].get("select") == expected
    capsys.readouterr()
    assert main([*base, "--checkpoint", str(tmp_path / "None.ckpt"), "--resume", "--select", "validated"]) == 2
    assert "different settings" in capsys.readouterr().err


# ------------------------------------------------------------------ the pieces, on a small list
# 120 NYT answers and 200 other allowed words (no SALET): the table is built in milliseconds, a
# generation of μ = 3 takes a few, so each rule below runs in well under a second.

ONE = Settings.problem("P0", guess_from="allowed")


@pytest.fixture(scope="module")
def small(cache_dir):
    from evo_wordle import Context
    from evo_wordle.words import WordSet, load_words

    w = load_words()
    answers = list(w.answers[:120])
    extra = [x for x in w.allowed[::60] if x not in answers][:200]
    return Context(words=WordSet(sorted(set(answers + extra)), answers, label="test-rules-metaga"))


def one_cfg(**kw) -> EvolveConfig:
    base = dict(train_size=40, holdout_size=30, mu=3, lambda_=3, generations=2, seed=1)
    return EvolveConfig(**{**base, **kw})


def boards_cfg(**kw) -> EvolveConfig:
    return one_cfg(**{"settings": KNOWN2, "train_sets": 8, "holdout_sets": 6, **kw})


class Script(random.Random):
    """A ``random.Random`` whose ``random()`` and ``gauss()`` answer from scripts (``gauss`` also
    records its arguments); ``randrange``, ``choice`` and ``sample`` stay the seeded generator's."""

    def __init__(self, uniforms=(), gausses=()):
        super().__init__(0)
        self.uniforms, self.gausses, self.gauss_args = list(uniforms), list(gausses), []

    def random(self):
        return self.uniforms.pop(0)

    def gauss(self, mu=0.0, sigma=1.0):
        self.gauss_args.append((mu, sigma))
        return self.gausses.pop(0)

    def getrandbits(self, k):  # defined here, so randrange and co. draw bits, not random()
        return super().getrandbits(k)


def test_the_genome_is_the_strategys_on_one_board_and_the_summed_policys_on_several():
    for boards in (2, 4):
        several = Settings(candidates="answers", guess_from="allowed", boards=boards)
        assert gene_names(several) == ["opener", "weight", "bonus", "late"] == BOARD_GENE_NAMES
        assert real_genes(several) == BOARD_GENES
    assert gene_names(ONE) == GENE_NAMES == ["opener", *REAL_GENES, "hard_candidates"]
    assert real_genes(ONE) == REAL_GENES


def test_defaults_are_the_documented_run():
    cfg = EvolveConfig()
    expected = dict(settings=ONE, train_size=400, holdout_size=400, test_size=None, mu=10, lambda_=20,
                    generations=12, cxpb=0.4, mutpb=0.6, sigma=0.12, indpb=0.35, penalty=1.0, seed=0,
                    pool=300, openers=40, hof_size=5, init=None, train_sets=400, holdout_sets=400, select="hall")
    assert {k: getattr(cfg, k) for k in expected} == expected


@pytest.mark.parametrize("name, least, flag", [
    ("train_size", 1, "--train"), ("holdout_size", 1, "--holdout"), ("mu", 2, "--mu"), ("lambda_", 1, "--lambda"),
    ("generations", 0, "--generations"), ("pool", 0, "--pool"), ("openers", 1, "--openers"), ("hof_size", 1, "--hof"),
    ("train_sets", 1, "--train-sets"), ("holdout_sets", 1, "--validation-sets"), ("test_size", 1, "--test")])
def test_counts_accept_their_least_and_refuse_one_less(name, least, flag):
    assert getattr(one_cfg(**{name: least}), name) == least
    with pytest.raises(EvoWordleError, match=f"^{flag} must be (at least|between) {least}"):
        one_cfg(**{name: least - 1})


def test_population_and_loop_counts_are_capped_the_sample_sizes_are_not():
    for name in CAPPED:
        assert getattr(one_cfg(**{name: MAX_COUNT}), name) == MAX_COUNT
        with pytest.raises(EvoWordleError, match=f"and {MAX_COUNT}, not {MAX_COUNT + 1}$"):
            one_cfg(**{name: MAX_COUNT + 1})
    for name in ("train_size", "holdout_size", "pool", "openers"):
        assert getattr(one_cfg(**{name: MAX_COUNT + 1}), name) == MAX_COUNT + 1
    assert one_cfg().test_size is None


def test_rates_are_shares_and_crossover_plus_mutation_at_most_one():
    for name in ("cxpb", "mutpb", "sigma", "indpb"):
        other = {"mutpb": 0.0} if name == "cxpb" else {"cxpb": 0.0}
        for ok in (0.0, 1.0):
            assert getattr(one_cfg(**{name: ok, **other}), name) == ok
        for bad in (-0.01, 1.01):
            with pytest.raises(EvoWordleError, match=f"--{name} must be between 0.0 and 1.0"):
                one_cfg(**{name: bad, **other})
    assert one_cfg(cxpb=0.4, mutpb=0.6).cxpb == 0.4  # a sum of exactly 1 is allowed
    for cxpb, mutpb in ((0.5, 0.6), (1.0, 0.01)):
        with pytest.raises(EvoWordleError, match="--cxpb \\+ --mutpb must be at most 1"):
            one_cfg(cxpb=cxpb, mutpb=mutpb)
    assert one_cfg(penalty=0.0).penalty == 0.0
    with pytest.raises(EvoWordleError, match="--penalty must be at least 0.0"):
        one_cfg(penalty=-0.5)


def test_fingerprint_keeps_board_set_counts_only_for_several_boards():
    one, two = one_cfg().fingerprint(), boards_cfg().fingerprint()
    assert "train_sets" not in one and "holdout_sets" not in one
    assert (two["train_sets"], two["holdout_sets"]) == (8, 6)
    assert one["settings"] == ONE.as_dict() and two["settings"] == KNOWN2.as_dict()
    assert one["mu"] == 3 and one["seed"] == 1


def test_genome_key_rounds_reals_to_ten_places_and_keeps_the_rest():
    assert genome_key(["crane", 0.1 + 4e-10, 3, True]) == ("crane", 0.1000000004, 3, True)
    assert genome_key(["crane", 0.1 + 4e-11]) == genome_key(["crane", 0.1]) == ("crane", 0.1)


def test_an_individual_becomes_a_typed_strategy_and_back():
    genes = list(to_individual(Strategy()))
    assert genes == [Strategy().as_dict()[n] for n in GENE_NAMES]
    genes[GENE_NAMES.index("steepness")] = 7  # an int gene value (a JSON file may hold one)
    genes[GENE_NAMES.index("hard_candidates")] = 1
    s = to_strategy(genes)
    assert type(s.steepness) is float and s.steepness == 7.0 and s.hard_candidates is True
    assert all(type(getattr(s, n)) is float for n in REAL_GENES)


def test_board_sets_are_drawn_from_the_salted_seed_one_child_per_part(small):
    from evo_wordle.boards import draw_answers

    cfg = boards_cfg(seed=5)
    ga = MetaGA(small, cfg)
    sets = metaga.split_sets(cfg, ga.split, 3)
    seqs = np.random.SeedSequence([5, 0xB0A4D]).spawn(3)
    for part, seq, n in zip(("train", "validation", "test"), seqs, (8, 6, 3)):
        expected = draw_answers(None, 2, n, seq, pool=ga.split.part(part))
        assert np.array_equal(sets[part], expected)
        assert np.isin(sets[part], ga.split.part(part)).all()
    assert np.array_equal(ga.train, sets["train"]) and np.array_equal(ga.holdout, sets["validation"])


def test_fitness_is_the_mean_plus_the_penalty_times_the_share_of_games_lost():
    scores = np.array([3, 4, 7, 8])
    assert metaga.fitness_of(scores, np.array([False, False, True, True]), 2.0) == 5.5 + 2.0 * 0.5
    assert metaga.fitness_of(np.array([6, 6]), np.array([False, False]), 3.0) == 6.0
    assert metaga.fitness_of(np.array([7, 7, 7]), np.array([False, True, True]), 1.5) == 7 + 1.5 * 2 / 3


def test_lost_board_sets_below_the_win_limit_take_the_penalty_and_are_counted(small):
    """Two boards with a cap of 2 (below the limit 7): most sets are lost and score 2, below the
    limit, so only their records tell; the fitness and the test report must count them."""
    cap2 = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=2)
    answers = small.words.answer_index
    sets = np.array([[answers[i], answers[i + 1]] for i in range(0, 20, 2)])
    genes = ["arose", 0.0, 0.0, 0.0]
    records = metaga.play_sets(small, genes, cap2, sets)
    lost = sum(not r.solved for r in records)
    assert lost >= 5
    scores = metaga.genome_scores(small, genes, cap2, sets, 0)
    assert metaga.genome_fitness(small, genes, cap2, sets, 0, 1.0) == pytest.approx(scores.mean() + lost / len(sets))
    report = metaga.test_board_genome(small, genes, cap2, sets)
    assert report["evolved"]["test_failures"] == lost


def test_genome_scores_play_answers_on_one_board_and_board_sets_on_several(small):
    answers = small.words.answer_index[:6]
    genes = list(to_individual(Strategy(opener="arose")))
    records = metaga.play_records(small, Strategy(opener="arose"), ONE, answers, 300)
    expected = [r.score(ONE.max_guesses) for r in records]
    assert list(metaga.genome_scores(small, genes, ONE, answers, 300)) == expected
    assert list(metaga.play_genome(small, Strategy(opener="arose"), ONE, answers)) == expected
    assert all(r.guesses[0] == small.words.index("arose") for r in records)
    sets = np.array([[answers[0], answers[1]], [answers[2], answers[2]]])
    board_genes = ["arose", 0.5, 1.0, 0.0]
    rows = [r.score(KNOWN2.max_guesses) for r in metaga.play_sets(small, board_genes, KNOWN2, sets)]
    assert list(metaga.genome_scores(small, board_genes, KNOWN2, sets, 300)) == rows
    assert len(rows) == 2


def test_policies_of_one_context_share_their_board_entropy_cache(small, ctx):
    a = metaga.board_policy(small, ["arose", 0.0, 0.0, 0.0], KNOWN2)
    b = metaga.board_policy(small, [None, 1.0, 2.0, 0.5], KNOWN2)
    assert a._cache is b._cache and a.rollout == 0 and (b.weight, b.bonus, b.late) == (1.0, 2.0, 0.5)
    assert a.opener == small.words.index("arose") and b.opener is None
    assert metaga.board_policy(small, ["arose", 0.0, 0.0, 0.0], KNOWN2, rollout=3).rollout == 3
    other = metaga.board_policy(ctx, ["crane", 0.0, 0.0, 0.0], KNOWN2)
    assert other._cache is not a._cache and len(metaga._BOARD_CACHES) == 1  # the old one is let go


def test_a_worker_keeps_one_context_and_scores_as_this_process(small, monkeypatch):
    spec = (tuple(small.words.allowed), tuple(small.words.answers))
    monkeypatch.setattr(metaga, "_WORKER", {})
    first = metaga._worker_ctx(spec)
    assert metaga._worker_ctx(spec) is first and first.words.allowed == small.words.allowed
    genes = tuple(to_individual(Strategy(opener="arose", k1=0.5)))
    answers = small.words.answer_index[:5]
    mine = metaga.genome_fitness(small, genes, ONE, answers, 300, 2.0)
    assert metaga._evaluate_task(spec, genes, ONE, answers, 300, 2.0) == mine
    other = (spec[0], spec[1][:50])
    assert metaga._worker_ctx(other) is not first and list(metaga._WORKER) == [other]


def test_an_executor_scores_each_new_genome_once_as_this_process_does(small):
    from concurrent.futures import ThreadPoolExecutor

    spec = (tuple(small.words.allowed), tuple(small.words.answers))
    here = MetaGA(small, one_cfg())
    with ThreadPoolExecutor(2) as pool:
        there = MetaGA(small, one_cfg(), executor=pool, words_spec=spec)
        assert there.words_spec == spec and MetaGA(small, one_cfg()).words_spec == (None, "nyt")
        base = creator_individual(here.base_genes())
        inds = [base, creator_individual(base), creator_individual(["adore", *base[1:]])]
        assert there._evaluate(inds, there.train, there.cache) == 2  # two distinct genomes
        assert here._evaluate(inds, here.train, here.cache) == 2
    assert there.cache == here.cache and len(there.cache) == 2
    assert [i.fitness.values for i in inds] == [(there.cache[genome_key(i)],) for i in inds]


def creator_individual(genes):
    from deap import creator

    return creator.StrategyIndividual(list(genes))


def test_evaluation_is_cached_and_validation_leaves_the_training_fitness_alone(small):
    ga = MetaGA(small, one_cfg())
    base = creator_individual(ga.base_genes())
    assert ga._evaluate([base], ga.train, ga.cache) == 1
    train = base.fitness.values
    assert ga._evaluate([creator_individual(base)], ga.train, ga.cache) == 0  # cached
    hold = ga.holdout_fitness(base)
    expected = metaga.genome_fitness(small, tuple(base), ONE, ga.holdout, 300, 1.0)
    assert hold == expected == ga.hold_cache[genome_key(base)] and base.fitness.values == train
    assert train == (metaga.genome_fitness(small, tuple(base), ONE, ga.train, 300, 1.0),)


def test_a_word_gene_moves_to_a_neighbour_below_one_half_else_to_the_opener_pool(small):
    """Boards genome (opener, weight, bonus, late), indpb 0.5: a gene mutates when its draw is below
    0.5; the opener then moves to a word one letter away when the next draw is below 0.5 (and the
    word has one), else to a word of the opener pool; a real gene takes a Gaussian step of sigma
    times its range, clipped to its bounds."""
    ga = MetaGA(small, boards_cfg(indpb=0.5, sigma=0.25))
    pool = {small.words.allowed[int(i)] for i in ga.opener_pool()}
    ga.py_rng = Script([0.49, 0.49, 0.5, 0.2, 0.0], [1.0, 0.25])  # weight's draw 0.5: it stays
    ind = creator_individual(["adore", 0.5, 7.5, 1.0])
    assert ga.mutate(ind) == (ind,)
    assert ind[0] in {"adobe", "adorn"} and ind[1:] == [0.5, 8.0, 1.25]  # bonus clipped at 8
    assert ga.py_rng.gauss_args == [(0.0, 0.25 * 8), (0.0, 0.25 * 4)] and not ga.py_rng.uniforms
    ga.py_rng = Script([0.0, 0.5, 0.0, 0.9, 0.9], [-3.0])  # a draw of 0.5: the pool
    ind = creator_individual(["adore", 0.5, 7.5, 1.0])
    ga.mutate(ind)
    assert ind[0] in pool and ind[1:] == [-2.0, 7.5, 1.0]  # weight clipped at -2
    ga.py_rng = Script([0.0, 0.1, 0.9, 0.9, 0.9])  # no word one letter from AJWAN: the pool
    ind = creator_individual(["ajwan", 0.5, 7.5, 1.0])
    ga.mutate(ind)
    assert ind[0] in pool and ind[1:] == [0.5, 7.5, 1.0]
    ga.py_rng = Script([0.5] * 4)
    assert ga.mutate(creator_individual(["adore", 0.5, 7.5, 1.0]))[0] == ["adore", 0.5, 7.5, 1.0]


def test_one_board_genes_step_in_their_range_or_in_decades_and_the_switch_flips(small):
    import math

    from evo_wordle.evolve.strategy import LOG_GENES

    ga = MetaGA(small, one_cfg(indpb=1.0, sigma=0.2))
    reals = [n for n in GENE_NAMES if n in REAL_GENES]
    steps = [0.5 if n == "w_plural" else 0.0 for n in reals]
    ga.py_rng = Script([0.0, 0.9] + [0.0] * (len(GENE_NAMES) - 1), steps)
    base = Strategy(opener="adore", w_plural=0.1, hard_candidates=True)
    ind = to_individual(base)
    ga.mutate(ind)
    out = to_strategy(ind)
    expected = {n: getattr(base, n) for n in reals}
    expected["w_plural"] = 0.1 * 10 ** 0.5
    assert {n: getattr(out, n) for n in reals} == pytest.approx(expected, rel=1e-12)
    assert out.hard_candidates is False and out.opener in {small.words.allowed[int(i)] for i in ga.opener_pool()}
    for (mu, sigma), n in zip(ga.py_rng.gauss_args, reals):
        lo, hi = REAL_GENES[n]
        assert mu == 0.0
        assert sigma == pytest.approx(0.2 * (math.log10(hi / lo) if n in LOG_GENES else hi - lo))
    assert len(ga.py_rng.gauss_args) == len(reals) == len(steps)
    ga.py_rng = Script([0.0, 0.9] + [0.0] * (len(GENE_NAMES) - 1), [5.0] * len(reals))
    ind = to_individual(base)
    ga.mutate(ind)
    assert to_strategy(ind).w_plural == 1.0  # ten to the power of a large step: clipped at the top
    ga.py_rng = Script([0.0, 0.9] + [0.0] * (len(GENE_NAMES) - 1), [-5.0] * len(reals))
    ind = to_individual(base)
    ga.mutate(ind)
    assert to_strategy(ind).w_plural == 0.001


def test_crossover_swaps_genes_below_one_half_and_blends_real_ones_half_the_time(small):
    ga = MetaGA(small, boards_cfg())
    # opener: swapped; weight: draw 0.5, kept; bonus: blended with t = 0.25; late: swapped
    ga.py_rng = Script([0.2, 0.5, 0.1, 0.3, 0.25, 0.4, 0.5])
    a, b = creator_individual(["arose", 0.5, 2.0, 1.0]), creator_individual(["adore", -1.0, 6.0, 3.0])
    assert ga.crossover(a, b) == (a, b)
    assert a == ["adore", 0.5, 0.25 * 2.0 + 0.75 * 6.0, 3.0] and b == ["arose", -1.0, 0.75 * 2.0 + 0.25 * 6.0, 1.0]
    assert not ga.py_rng.uniforms


def test_a_first_individual_is_three_rounds_of_mutation_of_a_copy(small):
    ga = MetaGA(small, boards_cfg())
    rounds = []
    ga.mutate = lambda ind: (rounds.append(list(ind)), ind.__setitem__(1, ind[1] + 0.5), (ind,))[-1]
    base = ["arose", 0.0, 0.0, 0.0]
    ind = ga.random_individual(base)
    assert rounds == [["arose", 0.0, 0.0, 0.0], ["arose", 0.5, 0.0, 0.0], ["arose", 1.0, 0.0, 0.0]]
    assert ind == ["arose", 1.5, 0.0, 0.0] and base == ["arose", 0.0, 0.0, 0.0]
    assert hasattr(ind, "fitness")


def test_the_opener_pool_is_the_best_entropy_words_over_a_sample_of_at_most_about_1500_candidates(cache_dir):
    """Candidates are sampled with a stride of len // 1500 (at least 1): 2,998 keep every one,
    3,000 every other one."""
    from evo_wordle import Context
    from evo_wordle.entropy import entropies
    from evo_wordle.words import WordSet, load_words

    w = load_words()
    wide = Context(words=WordSet(w.allowed[:3000], w.allowed[1:2999], label="test-rules-metaga-wide"))
    for candidates, stride in (("answers", 1), ("allowed", 2)):
        ga = MetaGA(wide, one_cfg(settings=ONE.with_(candidates=candidates), openers=7))
        cand = wide.candidates(candidates)
        assert len(cand) == {"answers": 2998, "allowed": 3000}[candidates]
        bits = entropies(wide.table, wide.all_words, cand[::stride], n_patterns=wide.words.n_patterns)
        order = sorted(range(len(bits)), key=lambda i: (-bits[i], i))[:7]
        assert list(ga.opener_pool()) == order
        assert ga.opener_pool() is ga.opener_pool()  # computed once


def test_a_run_needs_test_answers_and_draws_its_own_stream_from_the_seed(small):
    """120 answers: train + validation must leave at least one for the test part.  The GA's
    generators come from the second child of SeedSequence(seed), the split has its own salt."""
    with pytest.raises(EvoWordleError, match="--train 60 \\+ --validation 60 exceed the 120 answers"):
        MetaGA(small, one_cfg(train_size=60, holdout_size=60))
    ga = MetaGA(small, one_cfg(train_size=60, holdout_size=59, seed=7))
    assert ga.split.sizes() == {"train": 60, "validation": 59, "test": 1}
    child = np.random.SeedSequence(7).spawn(2)[1]
    assert ga.py_rng.random() == random.Random(int(child.generate_state(1)[0])).random()
    assert ga.np_rng.random() == np.random.default_rng(child).random()
    assert (ga.generation, ga.seconds, ga.population, len(ga.logbook)) == (-1, 0.0, [], 0)  # nothing run yet
    assert ga.logbook.header == ["gen", "nevals", "best", "mean", "holdout", "seconds"]
    assert np.array_equal(ga.train, ga.split.train) and np.array_equal(ga.holdout, ga.split.validation)


def test_the_first_individual_is_the_default_genome_or_init_and_on_boards_the_plain_policy(small):
    from evo_wordle.boards import SummedEntropy

    ga = MetaGA(small, one_cfg())  # no SALET in this list: the pool's best word opens
    assert ga.base_genes() == list(to_individual(Strategy(opener=small.words.allowed[int(ga.opener_pool()[0])])))
    ga = MetaGA(small, one_cfg(init={"opener": "adore", "k1": 0.5}))
    assert ga.base_genes() == list(to_individual(Strategy(opener="adore", k1=0.5)))
    plain = SummedEntropy(small, KNOWN2)
    first = small.words.allowed[plain.choose([plain.full_board()], 0)]
    assert MetaGA(small, boards_cfg()).base_genes() == [first, 0.0, 0.0, 0.0]
    assert MetaGA(small, boards_cfg(init={"opener": "adore", "bonus": 2})).base_genes() == ["adore", 0.0, 2.0, 0.0]
    assert MetaGA(small, boards_cfg(init={"late": 1.5})).base_genes() == [first, 0.0, 0.0, 1.5]
    with pytest.raises(EvoWordleError, match="unknown multi-board gene\\(s\\): k1, zeta$"):
        MetaGA(small, boards_cfg(init={"zeta": 1.0, "k1": 0.5, "bonus": 1.0})).base_genes()


def test_generation_zero_is_the_base_genome_and_mu_minus_one_mutants(small):
    ga = MetaGA(small, boards_cfg(mu=4))
    ga.initialise()
    assert len(ga.population) == 4 and ga.population[0] == ga.base_genes() and ga.generation == 0
    assert ga.logbook[0]["gen"] == 0 and ga.logbook[0]["nevals"] == len({genome_key(i) for i in ga.population})
    assert list(ga.hof) and all(genome_key(i) in ga.cache for i in ga.hof)
    best = min(ga.cache.values())
    assert ga.hof[0].fitness.values == (best,) and ga.logbook[0]["best"] == best


def test_the_logbook_records_each_generations_best_mean_validation_and_time(small, monkeypatch):
    import itertools

    clock = itertools.count(0.0, 1.23456)  # each call 1.23456 s after the one before
    monkeypatch.setattr(metaga.time, "perf_counter", lambda: next(clock))
    ga = MetaGA(small, boards_cfg(mu=3, lambda_=2))
    ga.run()
    fits = [i.fitness.values[0] for i in ga.population]
    last = ga.logbook[-1]
    assert (last["best"], last["mean"]) == (min(fits), pytest.approx(sum(fits) / len(fits)))
    assert last["holdout"] == ga.hold_cache[genome_key(min(ga.population, key=lambda i: i.fitness.values[0]))]
    assert [r["gen"] for r in ga.logbook] == [0, 1, 2]
    assert [r["seconds"] for r in ga.logbook] == [1.23, 2.47, 3.70]  # the sums, to two places
    assert ga.seconds == pytest.approx(3 * 1.23456)


def test_a_generation_breeds_lambda_offspring_by_crossover_mutation_or_copy(small):
    """cxpb 0.4, mutpb 0.3: a draw below 0.4 crosses, below 0.7 mutates, else copies."""
    ga = MetaGA(small, boards_cfg(mu=3, lambda_=3, cxpb=0.4, mutpb=0.3))
    ga.initialise()
    calls = []
    ga.crossover = lambda a, b: (calls.append("crossover"), (a, b))[-1]
    ga.mutate = lambda a: (calls.append("mutate"), (a,))[-1]
    ga.py_rng = Script([0.4, 0.7, 0.39])
    ga.step()
    assert calls == ["mutate", "crossover"] and not ga.py_rng.uniforms
    assert ga.generation == 1 and ga.logbook[1]["gen"] == 1


def test_a_generation_keeps_the_mu_best_distinct_genomes_least_key_first_on_ties(small):
    ga = MetaGA(small, boards_cfg(mu=3, lambda_=4, seed=0))
    ga.initialise()
    ga.step()  # the cache now holds exactly generation 0 and its offspring
    ranked = sorted(ga.cache, key=lambda k: (ga.cache[k], k))
    assert [genome_key(i) for i in ga.population] == ranked[:3]
    assert len({ga.cache[k] for k in ranked}) > 1  # fitness decides first, then the key


def test_a_generation_keeps_mu_members_when_fewer_genomes_are_distinct(small):
    """No gene mutates (indpb 0) and offspring are copies: every genome is the base genome, and
    the population keeps its μ copies (it used to shrink to one, and a crossover's draw of two
    parents then failed; a checkpoint of it could not be resumed)."""
    ga = MetaGA(small, boards_cfg(mu=4, lambda_=3, indpb=0.0, cxpb=0.0, mutpb=0.0))
    ga.initialise()
    ga.step()
    assert len(ga.population) == 4 and len({id(i) for i in ga.population}) == 4
    assert all(i == ga.base_genes() for i in ga.population)
    ga.cfg.cxpb = 1.0
    ga.step()
    assert len(ga.population) == 4


def test_a_run_reports_each_generation_stops_when_asked_and_never_overwrites_a_checkpoint(small, tmp_path):
    seen = []
    ga = MetaGA(small, boards_cfg(generations=3))
    ga.run(tmp_path / "a.ckpt", stop_after=1, progress=seen.append)
    assert ga.generation == 1 and [r["gen"] for r in seen] == [0, 1] and seen == list(ga.logbook)
    assert json_of(tmp_path / "a.ckpt")["generation"] == 1
    ga.run(tmp_path / "a.ckpt", stop_after=0)
    assert ga.generation == 1
    ga.run(tmp_path / "a.ckpt", progress=seen.append)
    assert ga.generation == 3 and [r["gen"] for r in seen] == [0, 1, 2, 3]
    assert json_of(tmp_path / "a.ckpt")["generation"] == 3
    saved = (tmp_path / "a.ckpt").read_bytes()
    with pytest.raises(EvoWordleError, match="a.ckpt exists: continue it with MetaGA.resume"):
        MetaGA(small, boards_cfg(generations=3)).run(tmp_path / "a.ckpt")
    assert (tmp_path / "a.ckpt").read_bytes() == saved
    assert MetaGA(small, boards_cfg(generations=0)).run() is not None  # no checkpoint asked: none written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ckpt"]


def json_of(path):
    import json

    return json.loads(path.read_text())


def test_a_resumed_run_equals_the_uninterrupted_one(small, tmp_path):
    cfg = one_cfg(generations=2, mu=2, lambda_=2)
    whole = MetaGA(small, cfg)
    best = whole.run()
    part = MetaGA(small, cfg)
    part.run(tmp_path / "b.ckpt", stop_after=1)
    resumed = MetaGA.resume(small, cfg, tmp_path / "b.ckpt")
    assert resumed.generation == 1 and list(resumed.logbook) == list(part.logbook)
    assert [list(i) for i in resumed.hof] == [list(i) for i in part.hof]
    assert resumed.run(tmp_path / "b.ckpt") == best and isinstance(best, Strategy)
    assert [list(i) for i in resumed.population] == [list(i) for i in whole.population]
    assert [i.fitness.values for i in resumed.hof] == [i.fitness.values for i in whole.hof]
    assert resumed.cache == whole.cache and resumed.hold_cache == whole.hold_cache


@pytest.mark.parametrize("np_rng", [
    {"bit_generator": "PCG64"},  # KeyError
    {"bit_generator": "MT19937", "state": {}},  # ValueError
    {"bit_generator": "PCG64", "state": {"state": 2 ** 200, "inc": 1}, "has_uint32": 0, "uinteger": 0},  # Overflow
    {"bit_generator": "PCG64", "state": {"state": "x", "inc": 1}, "has_uint32": 0, "uinteger": 0}])  # TypeError
def test_a_generator_state_that_cannot_be_set_is_a_one_line_error(small, tmp_path, np_rng):
    import json

    cfg = boards_cfg(generations=1)
    MetaGA(small, cfg).run(tmp_path / "c.ckpt", stop_after=0)
    doc = json_of(tmp_path / "c.ckpt")
    doc["np_rng"] = np_rng
    (tmp_path / "c.ckpt").write_text(json.dumps(doc))
    with pytest.raises(EvoWordleError, match="c.ckpt is corrupt \\(bad generator state\\)$"):
        MetaGA.resume(small, cfg, tmp_path / "c.ckpt")


def test_the_winner_is_the_hall_member_best_on_validation_a_strategy_on_one_board(small):
    ga = MetaGA(small, one_cfg(generations=1, mu=3, lambda_=3, hof_size=3))
    ga.run()
    members = list(ga.hof)
    assert len(members) == 3
    for i, v in zip(range(3), (3.0, 2.0, 1.0)):  # the last member is best on validation
        ga.hold_cache[genome_key(members[i])] = v
    assert ga.best() == to_strategy(members[2])
    ga.hold_cache[genome_key(members[0])] = 1.0  # tied on validation: the better training fitness
    expected = members[0] if members[0].fitness.values < members[2].fitness.values else members[2]
    assert ga.best() == to_strategy(expected)


def test_save_logbook_writes_the_records_as_indented_json(tmp_path, small):
    import json

    ga = MetaGA(small, boards_cfg(generations=0))
    ga.run()
    metaga.save_logbook(tmp_path / "log.json", ga.logbook)
    assert (tmp_path / "log.json").read_text() == json.dumps(list(ga.logbook), indent=1) + "\n"


def board_file(ga: MetaGA, counts=(8, 6, 3)) -> dict:
    """What a multi-board parameter file records of its run (its game and word lists, the split's
    words, the set counts)."""
    words = {p: [ga.ctx.words.allowed[int(i)] for i in ga.split.part(p)] for p in ("train", "validation", "test")}
    return {"made_for": made_for(ga.cfg.settings, ga.ctx.words),
            "provenance": {"split": {"seed": ga.split.seed, **words},
                           "sets": dict(zip(("train_sets", "validation_sets", "test_sets"), counts))}}


def test_a_parameter_files_sets_are_its_runs_sets(small):
    ga = MetaGA(small, boards_cfg(seed=3))
    doc = board_file(ga)
    assert np.array_equal(metaga.file_sets(small, doc, "train"), ga.train)
    assert np.array_equal(metaga.file_sets(small, doc, "validation"), ga.holdout)
    assert np.array_equal(metaga.file_test_sets(small, doc), metaga.split_sets(ga.cfg, ga.split, 3)["test"])
    doc["provenance"]["sets"]["test_sets"] = 1
    assert metaga.file_test_sets(small, doc).shape == (1, 2)
    # a split is of the lists the file was made for: on others its sets are refused, not redrawn
    doc["made_for"] = {**doc["made_for"], "answers_sha256": "0" * 64}
    with pytest.raises(EvoWordleError, match="its train board sets are of the word lists it was made for, but the "
                                             "answer list .* differs"):
        metaga.file_sets(small, doc, "train")


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("provenance"), "x.json records no provenance object, so no split and test sets"),
    (lambda d: d.update(provenance=[1]), "x.json records no provenance object"),
    (lambda d: d["provenance"].pop("split"), "x.json records no provenance.split, so no test sets"),
    (lambda d: d["provenance"].update(sets=[8, 6, 3]), "provenance.sets of x.json must be an object"),
    (lambda d: d["provenance"]["sets"].update(test_sets=0), "provenance.sets.test_sets of x.json must be a whole "
                                                            "number ≥ 1, not 0"),
    (lambda d: d["provenance"]["sets"].update(train_sets=True), "provenance.sets.train_sets .* not True"),
    (lambda d: d["provenance"]["sets"].update(validation_sets=2.0), "provenance.sets.validation_sets .* not 2.0"),
    (lambda d: d["provenance"]["sets"].pop("validation_sets"), "provenance.sets.validation_sets .* not None")])
def test_a_parameter_file_without_a_usable_split_or_set_counts_is_one_line(small, change, message):
    doc = board_file(MetaGA(small, boards_cfg(seed=3)))
    change(doc)
    with pytest.raises(EvoWordleError, match=message):
        metaga.file_sets(small, doc, "test", where="x.json")
    assert metaga.file_sets(small, board_file(MetaGA(small, boards_cfg(seed=3)), (1, 1, 1)), "test").shape == (1, 2)


def test_the_test_sets_are_played_by_the_evolved_genes_and_both_plain_policies(small):
    from evo_wordle.stats import paired

    ga = MetaGA(small, boards_cfg(seed=3))
    sets = metaga.split_sets(ga.cfg, ga.split, 12)["test"]
    genes = ["adore", -1.5, 3.0, 0.5]
    out = metaga.test_board_genome(small, genes, KNOWN2, sets)
    plays = {"evolved": genes, "summed_entropy": [None, 0.0, 0.0, 0.0],
             "summed_entropy_same_opener": ["adore", 0.0, 0.0, 0.0]}
    assert set(out) == {*plays, "evolved_minus_summed_entropy"}
    scores = {}
    for label, g in plays.items():
        s = scores[label] = np.array([r.score(7) for r in metaga.play_sets(small, g, KNOWN2, sets)])
        assert out[label]["test_mean"] == s.mean() and out[label]["worst_guesses"] == s.max()
        assert out[label]["test_failures"] == int((s > 7).sum())
        assert out[label]["histogram"] == {str(v): int((s == v).sum()) for v in sorted(set(s.tolist()))}
    assert len({tuple(s) for s in scores.values()}) > 1  # the three policies play differently here
    assert out["evolved_minus_summed_entropy"] == paired(scores["evolved"], scores["summed_entropy"])
    ahead = metaga.test_board_genome(small, genes, KNOWN2, sets[:4], rollout=6)
    assert ahead["rollout"] == 6 and set(ahead) > {"evolved_without_rollout", "rollout_gain"}
    with_it = np.array([r.score(7) for r in metaga.play_sets(small, genes, KNOWN2, sets[:4], 6)])
    without = np.array([r.score(7) for r in metaga.play_sets(small, genes, KNOWN2, sets[:4])])
    assert ahead["evolved"]["test_mean"] == with_it.mean()
    assert ahead["evolved_without_rollout"]["test_mean"] == without.mean()
    assert ahead["rollout_gain"] == paired(with_it, without)


def test_one_local_job_evaluates_here_more_take_a_pool_or_the_shared_executors(monkeypatch):
    import sys

    from evo_wordle import executors

    assert metaga.make_executor() is None and metaga.make_executor("local", 1) is None
    asked = []
    monkeypatch.setattr(executors, "make_executor", lambda **kw: asked.append(kw) or "shared")
    assert metaga.make_executor("local", 2) == "shared"
    assert metaga.make_executor("dask", 1, "tcp://x:1") == "shared"
    assert asked == [{"kind": "local", "jobs": 2, "scheduler": None},
                     {"kind": "dask", "jobs": 1, "scheduler": "tcp://x:1"}]
    monkeypatch.setitem(sys.modules, "evo_wordle.executors", None)  # as if the module were missing
    pool = metaga.make_executor("local", 2)
    try:
        assert isinstance(pool, metaga.ProcessPoolExecutor) and pool._max_workers == 2
    finally:
        pool.shutdown()
    with pytest.raises(EvoWordleError, match="the dask executor needs evo_wordle.executors"):
        metaga.make_executor("dask", 2)


def test_the_hall_of_fame_keeps_the_least_training_fitness_first(small):
    ga = MetaGA(small, boards_cfg(mu=4, lambda_=4, generations=2, seed=3))
    ga.run()
    fits = [i.fitness.values[0] for i in ga.hof]
    assert fits == sorted(fits) and fits[0] == min(ga.cache.values())
    assert fits[-1] < max(ga.cache.values())  # the worst genomes seen are not kept


# ------------------------------------------------------- rules the first mutation run showed untested


def test_a_run_stopped_after_generation_zero_goes_on_from_it(small):
    ga = MetaGA(small, boards_cfg(generations=3))
    ga.run(stop_after=0)
    first = [list(i) for i in ga.population]
    seen = []
    ga.run(stop_after=2, progress=seen.append)  # two more generations, not a new generation 0
    assert ga.generation == 2 and [r["gen"] for r in seen] == [1, 2]
    assert [r["gen"] for r in ga.logbook] == [0, 1, 2] and len(first) == 3


def test_a_worker_context_has_the_specs_answers(small, monkeypatch):
    spec = (tuple(small.words.allowed), tuple(small.words.answers))
    monkeypatch.setattr(metaga, "_WORKER", {})
    assert metaga._worker_ctx(spec).words.answers == small.words.answers != small.words.allowed


def test_the_dask_executor_defaults_to_one_job(monkeypatch):
    from evo_wordle import executors

    asked = []
    monkeypatch.setattr(executors, "make_executor", lambda **kw: asked.append(kw) or "shared")
    assert metaga.make_executor("dask") == "shared" and asked == [{"kind": "dask", "jobs": 1, "scheduler": None}]


def test_the_default_genome_keeps_salet_on_a_list_that_has_it(ctx):
    assert MetaGA(ctx, one_cfg()).base_genes() == list(to_individual(Strategy()))


def test_without_validation_answers_the_winner_is_the_hall_of_fames_best_on_training(small):
    """Every configuration has validation answers; the rule for none (an emptied ``holdout``)
    is the hall of fame's first member, and NaN as its validation fitness."""
    ga = MetaGA(small, boards_cfg(mu=4, lambda_=4, generations=1, seed=3))
    ga.run()
    assert len({genome_key(i) for i in ga.hof}) > 1
    ga.holdout = ga.holdout[:0]
    assert ga.best() == dict(zip(BOARD_GENE_NAMES, ga.hof[0]))
    assert np.isnan(ga.holdout_fitness(ga.hof[1]))


def test_the_plain_policys_first_word_takes_no_bonus(cache_dir):
    """On this list a bonus for words that may be the answer would open with ALONE; the plain
    policy (all genes 0) opens with GLUEY, and so does the first individual."""
    from evo_wordle import Context
    from evo_wordle.boards import SummedEntropy
    from evo_wordle.words import WordSet, load_words

    w = load_words()
    answers = list(w.answers[40:80])
    extra = [x for x in w.allowed[2::97] if x not in answers][:150]
    c = Context(words=WordSet(sorted(set(answers + extra)), answers, label="test-rules-metaga-bonus"))
    assert MetaGA(c, boards_cfg(train_size=10, holdout_size=10)).base_genes() == ["gluey", 0.0, 0.0, 0.0]
    bonus = SummedEntropy(c, KNOWN2, bonus=1.0)
    assert c.words.allowed[bonus.choose([bonus.full_board()], 0)] == "alone"


def test_a_set_at_the_win_limit_is_no_failure(cache_dir):
    """Two boards of the -ATCH and -IGHT families (allowed guesses: those words only) take up to
    the cap of 9 guesses; a set solved in 7, the win limit, is won, in 8 or 9 failed."""
    import itertools

    from evo_wordle import Context
    from evo_wordle.words import WordSet, load_words

    fam = [x for x in load_words().answers if x.endswith(("atch", "ight"))]
    c = Context(words=WordSet(fam, fam, label="test-rules-metaga-families"))
    # a cap of 9, past Dordle's win limit of 7, so that sets solved in 8 or 9 are lost too
    two = Settings(candidates="answers", guess_from="allowed", boards=2, max_guesses=9)
    sets = np.array(list(itertools.combinations_with_replacement(range(len(fam)), 2)))
    out = metaga.test_board_genome(c, ["fight", 0.0, 0.0, 0.0], two, sets)["evolved"]
    hist = out["histogram"]
    assert hist["7"] > 0 and out["test_failures"] == hist["8"] + hist["9"] > 0


def test_a_checkpoint_from_before_init_and_test_size_resumes_under_their_none(small, tmp_path):
    import json

    assert EvolveConfig.fingerprint_defaults() == {"test_size": None, "init": None}
    cfg = boards_cfg(generations=1)
    MetaGA(small, cfg).run(tmp_path / "old.ckpt", stop_after=0)
    doc = json_of(tmp_path / "old.ckpt")
    del doc["config"]["test_size"], doc["config"]["init"]
    (tmp_path / "old.ckpt").write_text(json.dumps(doc))
    assert MetaGA.resume(small, cfg, tmp_path / "old.ckpt").generation == 0


def test_a_files_set_counts_may_reach_the_cap_but_not_pass_it(small, monkeypatch):
    """A count equal to the board-set cap is what an evolution may have drawn: accepted; one more
    is refused before anything is drawn (the cap lowered to 8 here, so the check costs nothing)."""
    monkeypatch.setattr(metaga, "MAX_SETS", 8)
    ga = MetaGA(small, boards_cfg(seed=3))
    assert metaga.file_sets(small, board_file(ga, (8, 8, 8)), "test").shape == (8, 2)
    with pytest.raises(EvoWordleError, match=r"^provenance.sets.test_sets of x.json must be at most 8, not 9$"):
        metaga.file_sets(small, board_file(ga, (8, 8, 9)), "test", where="x.json")


@pytest.mark.parametrize("cap,penalty", [(6, 2.0), (9, 0.5), (13, 0.0), (6, 7.5)])
def test_the_worst_fitness_is_what_losing_every_game_scores(cap, penalty):
    """A checkpoint's scores are bounded by it: every game lost, each scoring the cap, plus the
    whole penalty; no lost game or a game of fewer guesses scores below it."""
    cfg = EvolveConfig(settings=Settings(max_guesses=cap), penalty=penalty)
    lost_all = metaga.fitness_of(np.full(5, cap), np.ones(5, dtype=bool), penalty)
    assert metaga.worst_fitness(cfg) == lost_all == cap + penalty
    assert metaga.fitness_of(np.array([cap, cap - 1]), np.array([True, False]), penalty) < metaga.worst_fitness(cfg)
