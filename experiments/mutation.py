"""Mutation testing of one core module with cosmic-ray: how many changed operators, comparisons
and constants does that module's targeted test set notice?

    python experiments/mutation.py --module evo_wordle/game.py [--jobs 2] [--route worker|old] [--out DIR]
                                    [--write-docs]

Why cosmic-ray (docs/testing.md has the long form): it mutates the whole module, module-level
tables included (mutmut 3 only mutates inside functions), and is maintained and works on
Python 3.11 (mutatest is not maintained since 2022).  Both routes take their mutants from it.

How one run works:
  1. the tracked files of this checkout are copied into a scratch folder (one copy per job), so
     the checkout is never edited and parallel jobs never see each other's mutants;
  2. the pattern table is built once there with the unmutated code (except when table.py itself
     is mutated: then every mutant builds its own);
  3. each mutant runs pytest on the module's targeted tests (``MODULES`` below) with ``-x``, in a
     FRESH cache folder holding only hard links to that unmutated table, so no cached opener or
     fitness computed by one mutant (or by the unmutated code) hides another:
     - route ``worker`` (default, experiments/_mutation_worker.py): one warm test worker per job forks a
       child per mutant (no Python, numpy or pytest start-up per mutant), and coverage picks the tests:
       one coverage run maps each line to the tests that run it; a mutant runs only those (quickest
       first), the full list for import-time lines, none for a line no test runs (it survives) or a
       change inside an annotation (never evaluated: equivalent by construction);
     - route ``old``: cosmic-ray's own loop, a fresh ``--test-mutant`` process per mutant (kept to
       compare: ``--compare-routes`` runs both and lists every verdict that differs);
  4. the result is scored: killed / (total − equivalent), where equivalent mutants are listed
     with a reason in experiments/mutation_equivalent.toml, matched by operator, source line and
     (optionally) the mutated line, all regular expressions, so the list survives edits elsewhere;
     an entry names one source line (``above`` tells lines of the same text apart) unless it says
     ``sites = N``, and one that matches more lines than that is refused in one line.

Each row of docs/testing.md names the code it was measured on (``source``: a digest of the
module's syntax tree, docstrings and comments aside, see :func:`source_digest`);
tests/test_mutation_script.py fails when a module's code no longer has its row's digest, so a
changed core module cannot keep the score of the code it replaced.

Runs under ``nice -n 10`` are expected (the machine is shared); not part of CI.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import difflib
import hashlib
import json
import os
import queue
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "experiments") not in sys.path:
    sys.path.insert(0, str(ROOT / "experiments"))  # _mutation_worker.py, when this file is loaded by path
EQUIVALENT_FILE = ROOT / "experiments" / "mutation_equivalent.toml"
DOCS = ROOT / "docs" / "testing.md"

#: The core modules and the tests that target each (fast ones; the run stops at the first failure).
MODULES: dict[str, dict] = {
    "evo_wordle/patterns.py": {
        "tests": ["tests/test_rules_patterns.py", "tests/test_properties.py::test_feedback_equals_the_plain_reference",
                  "tests/test_patterns.py::test_documented_examples",
                  "tests/test_patterns.py::test_parse_accepts_variants",
                  "tests/test_patterns.py::test_parse_rejects_bad_text",
                  "tests/test_patterns.py::test_text_forms_round_trip",
                  "tests/test_patterns.py::test_tiles_show_letters_and_colours"],
        "pristine_table": True,
    },
    "evo_wordle/entropy.py": {
        "tests": ["tests/test_rules_entropy.py", "tests/test_entropy.py",
                  "tests/test_properties.py::test_partition_sizes_sum_to_the_candidates",
                  "tests/test_properties.py::test_entropy_is_at_most_log2_candidates_and_the_partition_formula"],
        "pristine_table": True,
    },
    "evo_wordle/table.py": {
        "tests": ["tests/test_rules_table.py", "tests/test_properties.py::test_built_table_equals_the_plain_reference",
                  "tests/test_table.py",
                  # the verified stamp and the adoption of old caches (table.py's side of them)
                  "tests/test_faults_cache.py::test_a_stamped_table_loads_without_reading_it_again",
                  "tests/test_faults_cache.py::test_damage_in_place_with_times_restored_is_detected",
                  "tests/test_faults_cache.py::test_a_table_others_may_write_is_rebuilt_as_ours_alone",
                  "tests/test_faults_cache.py::test_a_table_is_built_writable_by_its_owner_alone_whatever_the_umask",
                  "tests/test_faults_cache.py::test_a_cache_of_the_old_checksum_is_adopted_without_a_rebuild",
                  "tests/test_faults_cache.py::test_a_folder_with_content_at_the_table_path_is_one_line_error"],
        "pristine_table": False,  # the module under test builds the table: each mutant builds its own
    },
    "evo_wordle/ga/operators.py": {
        "tests": ["tests/test_rules_operators.py", "tests/test_ga_operators.py"],
        "pristine_table": True,
    },
    "evo_wordle/ga/toolbox.py": {
        # the GA's wiring of DEAP: evaluation, selection, mating, mutation, breeding, the first population
        "tests": ["tests/test_rules_toolbox.py", "tests/test_ga_solvers.py", "tests/test_ga_adapter.py",
                  "tests/test_ga_proposals.py"],
        "pristine_table": True,
    },
    "evo_wordle/ga/solvers.py": {
        # the GA solvers every GA figure comes from (ga, ga-thesis, ga-first): their defaults, the
        # game loop (opener, hard-mode guess, generations per guess), logbook and halls of fame
        "tests": ["tests/test_rules_ga_solvers.py", "tests/test_ga_solvers.py",
                  "tests/test_baseline_opener.py::test_greedy_and_ga_share_the_baseline_opener"],
        "pristine_table": True,
    },
    "evo_wordle/ga/adapter.py": {
        # the boundary between the GA's numpy population and DEAP-style operators: checks, refusals
        "tests": ["tests/test_rules_adapter.py", "tests/test_ga_adapter.py", "tests/test_rules_toolbox.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/search.py": {
        # ga-search: the look-ahead totals, the decision GA, its board variant and the tree files;
        # the benches and CLI runs on the full lists (test_evolve_search.py's tree replays, 3-4 s
        # each, and test_board_search.py's) are left to the full suite: test_rules_search.py
        # replays a tree on a small list instead
        "tests": ["tests/test_rules_search.py",
                  "tests/test_evolve_search.py::test_ga_search_finds_optimal_tree",
                  "tests/test_evolve_search.py::test_ga_search_beats_or_matches_greedy_rollout",
                  "tests/test_ga_proposals.py::test_evolve_exposes_the_decision",
                  *(f"tests/test_board_search.py::{name}" for name in (
                      "test_fitness_is_the_boards_finishing_guesses_by_brute_force",
                      "test_a_search_over_every_word_finds_the_least_fitness",
                      "test_candidates_only_keeps_to_the_boards_words",
                      "test_generations_never_lose_the_best_seed_and_repeat_exactly",
                      "test_search_off_by_default_and_its_place_in_the_policy")),
                  *(f"tests/test_faults_files.py::{name}" for name in (
                      "test_tree_reader_is_linear", "test_bad_tree_file", "test_tree_sources_capped",
                      "test_tree_round_trip")),
                  *(f"tests/test_artefacts.py::{name}" for name in (
                      "test_tree_breaking_hard_mode_is_refused", "test_tree_file_records_its_game",
                      "test_list_mismatch_under_a_tree_is_an_error"))],
        "pristine_table": True,
    },
    "evo_wordle/game.py": {
        "tests": ["tests/test_rules_game.py", "tests/test_guess_source.py",
                  "tests/test_properties.py::test_hard_mode_legality_is_closed_under_feedback",
                  # one board only: GameState.start refuses several (check_one_board)
                  "tests/test_faults_api.py::test_bad_api_call_raises_the_package_error"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/exact.py": {
        "tests": ["tests/test_rules_exact.py", "tests/test_evolve_search.py::test_exact_matches_brute_force",
                  "tests/test_evolve_search.py::test_exact_refuses_large_lists",
                  "tests/test_properties.py::test_every_tree_path_is_consistent_with_its_answer"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/bnb.py": {
        "tests": ["tests/test_rules_bnb.py", "tests/test_evolve_bnb.py", "tests/test_rank_trees.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/objectives.py": {
        # ga-tree --exact --objective max / mean-then-max: depth limits lowered over the bnb search
        "tests": ["tests/test_evolve_objectives.py"],
        "pristine_table": True,
    },
    "evo_wordle/artefacts.py": {
        # the rule tests and the fast file-level checks (the CLI replays take 1-6 s each)
        "tests": ["tests/test_rules_artefacts.py",
                  "tests/test_artefacts.py::test_list_mismatch_under_a_tree_is_an_error",
                  "tests/test_artefacts.py::test_tree_file_records_its_game",
                  "tests/test_artefacts.py::test_every_shipped_file_records_its_game",
                  "tests/test_artefacts.py::test_strategy_tree_moves_are_checked"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/openings.py": {
        # everything in test_openings.py but the two CLI tests (full answer list: ~25 s per mutant)
        "tests": ["tests/test_openings.py::test_bucket_stats_match_counter",
                  "tests/test_openings.py::test_scores_match_reference",
                  "tests/test_openings.py::test_remaining_of_one_word_counts_its_partition",
                  "tests/test_openings.py::test_scan_equals_brute_force",
                  "tests/test_openings.py::test_pool_is_best_single_words_first",
                  "tests/test_openings.py::test_ga_finds_the_scan_optimum",
                  "tests/test_openings.py::test_ga_is_reproducible_and_reports_words",
                  "tests/test_openings.py::test_entropy_ga_maximises",
                  "tests/test_openings.py::test_mutation_brings_a_letter_disjoint_word_when_asked",
                  "tests/test_openings.py::test_crossover_children_take_their_words_from_the_parents",
                  "tests/test_openings.py::test_bad_parameters_are_refused",
                  "tests/test_openings.py::test_fitness_is_one_over_remaining_or_bits_plus_one",
                  "tests/test_openings.py::test_joint_codes_are_mixed_radix_in_the_narrowest_type",
                  "tests/test_openings.py::test_joint_feedback_of_many_words_never_wraps_into_another",
                  "tests/test_openings.py::test_codes_renumber_from_the_first_k_past_64_bits_one_letter_words",
                  "tests/test_openings.py::test_ties_go_to_the_smallest_genome",
                  "tests/test_openings.py::test_scan_returns_the_first_best_opening_in_pool_order",
                  "tests/test_openings.py::test_scan_scores_every_subset_the_last_included",
                  "tests/test_openings.py::test_each_run_stops_after_patience_generations_without_progress",
                  "tests/test_openings.py::test_hall_of_fame_holds_the_five_best_openings_seen",
                  "tests/test_openings.py::test_mutation_and_crossover_rates",
                  "tests/test_openings.py::test_letter_masks_set_one_bit_per_letter_a_first",
                  "tests/test_openings.py::test_mutation_ignores_the_letters_of_the_word_it_replaces",
                  "tests/test_openings.py::test_repeated_sets_are_replaced_and_the_rest_kept",
                  "tests/test_openings.py::test_opening_ga_accepts_its_bounds_and_refuses_beyond",
                  "tests/test_openings.py::test_python_defaults_are_the_cli_defaults",
                  "tests/test_openings.py::test_evolve_defaults_to_seed_zero_and_takes_one_word_openings",
                  "tests/test_openings.py::test_results_time_themselves_and_scan_has_no_logbook",
                  "tests/test_openings.py::test_no_rows_and_no_genomes_give_empty_scores",
                  "tests/test_openings.py::test_scan_refuses_more_than_fifty_million_openings_by_default",
                  "tests/test_openings.py::test_repeated_words_in_a_row_are_redrawn",
                  "tests/test_openings.py::test_a_run_ends_patience_generations_after_its_last_improvement",
                  "tests/test_openings.py::test_mutation_looks_for_a_letter_fresh_word_in_up_to_64_draws",
                  "tests/test_openings.py::test_scores_in_chunks_equal_the_reference",
                  "tests/test_openings.py::test_default_pool_is_the_2000_best_single_words",
                  "tests/test_openings.py::test_result_dict_rounds_seconds_to_milliseconds",
                  "tests/test_openings.py::test_unique_population_stops_once_no_set_repeats",
                  "tests/test_openings.py::test_a_pool_of_one_word_is_a_problem",
                  "tests/test_openings.py::test_without_fresh_the_new_word_is_any_pool_word",
                  # the whole-game objective (game_scores) and its endgame: about 2 s in all
                  "tests/test_openings_game.py"],
        "pristine_table": True,
    },
    "evo_wordle/split.py": {
        # the held-out answers every evolved and tuned figure is reported on; the CLI replays of
        # --split (test_split_replay.py's bench runs, 1-8 s each) are left to the full suite
        "tests": ["tests/test_split.py",
                  "tests/test_split_replay.py::test_a_recorded_split_is_rebuilt_from_its_words_or_from_its_seed_and_sizes",
                  "tests/test_split_replay.py::test_a_bad_recorded_split_is_a_clear_error",
                  "tests/test_split_replay.py::test_a_recorded_split_of_numpy_numbers_is_read"],
        "pristine_table": True,
    },
    "evo_wordle/boards.py": {
        # the rules of several boards (a guess scored on every unsolved board, a set's score, the
        # draw of board sets) and the summed-entropy policy every multi-board figure comes from
        # (the CLI runs of test_boards.py and test_boards_lookahead.py are left to the full suite)
        "tests": ["tests/test_rules_boards.py",
                  *(f"tests/test_boards.py::{name}" for name in (
                      "test_board_entropy_matches_foundation_on_both_paths", "test_any_allowed_word_universe",
                      "test_summed_choice_equals_brute_force", "test_singleton_board_is_played_at_once",
                      "test_tie_rules_on_two_candidates", "test_guess_from_candidates_stays_in_the_union",
                      "test_board_of_rejects_words_outside_the_universe", "test_duplicate_answers_solve_together",
                      "test_draw_answers_with_replacement_and_prefix_stable", "test_failures_count_as_the_cap",
                      "test_bad_settings_are_one_line_errors", "test_board_sets_need_one_answer_per_board",
                      # the public API's argument checks (play_boards, draw_answers and its cap)
                      "test_play_boards_refuses_out_of_range_answers_and_caps",
                      "test_draw_answers_refuses_bad_arguments_in_one_line",
                      "test_draw_answers_caps_the_sets_before_allocating",
                      # board sets of distinct answers (and the default draw left as it was)
                      "test_draw_answers_default_is_the_old_draw_with_replacement",
                      "test_draw_answers_distinct_sets_never_repeat_an_answer",
                      "test_draw_answers_distinct_set_k_does_not_depend_on_the_number_of_sets",
                      "test_draw_answers_distinct_refuses_a_pool_smaller_than_the_boards",
                      "test_distinct_answers_are_one_rule_refused_on_one_board_only")),
                  # the count of guesses outside the guess source (play_boards' outside)
                  "tests/test_guess_source.py::test_boards_count_an_opener_that_is_no_candidate",
                  *(f"tests/test_boards_lookahead.py::{name}" for name in (
                      "test_rollout_off_is_the_one_step_policy", "test_expected_guesses_by_hand",
                      "test_expected_guesses_equal_brute_force",
                      "test_lookahead_tries_the_best_eight_and_every_candidate",
                      "test_the_lookahead_plays_after_the_opener_with_no_board_down_to_one_word_within_rollout",
                      "test_lookahead_never_picks_a_worse_guess_and_sometimes_a_better_one",
                      "test_rollout_is_checked")),
                  *(f"tests/test_evolve_boards.py::{name}" for name in (
                      "test_zero_genes_are_the_plain_policy", "test_every_guess_is_scored_as_the_formula_says",
                      "test_weight_scales_each_board_by_its_share_of_candidates",
                      "test_bonus_rewards_guesses_that_may_solve_a_board_now",
                      "test_late_keeps_to_candidates_when_every_guess_must_solve_a_board", "test_genes_are_checked")),
                  "tests/test_board_search.py::test_search_off_by_default_and_its_place_in_the_policy",
                  "tests/test_board_search.py::test_from_python_ga_search_on_boards_is_the_policy_with_its_search",
                  # the caps a shared file meets: the board bits' memory, the search's words, the reach
                  "tests/test_board_search.py::test_the_search_may_breed_up_to_its_bound_of_words_a_decision",
                  "tests/test_boards_lookahead.py::test_the_deepest_reach_falls_with_the_boards",
                  *(f"tests/test_faults_provenance.py::{name}" for name in (
                      "test_a_board_policy_cache_size_is_checked_in_one_line",
                      "test_a_board_policy_file_reaching_too_deep_for_its_boards_is_refused_in_one_line",
                      "test_a_board_policy_file_breeding_too_many_words_a_decision_is_refused_in_one_line"))],
        "pristine_table": True,
    },
    "evo_wordle/ga/fitness.py": {
        # the GA's entropy x frequency fitness (static, dynamic, expected cost, first-guess knowledge)
        "tests": ["tests/test_rules_fitness.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/endgame.py": {
        # the endgame that finishes each group of a fixed opening (openers --objective game)
        "tests": ["tests/test_openings_game.py"],
        "pristine_table": True,
    },
    "evo_wordle/stats.py": {
        # the 95 % intervals and paired differences beside every repeated or compared figure
        "tests": ["tests/test_rules_stats.py"],
        "pristine_table": True,
    },
    "evo_wordle/frequency.py": {
        # word frequencies, their rank and the priority curves of greedy, the GA fitness and priors
        "tests": ["tests/test_rules_frequency.py"],
        "pristine_table": True,
    },
    "evo_wordle/solvers/base.py": {
        # the scoring solvers' decision rule (pool, ties, memo, opener): greedy, the baseline
        "tests": ["tests/test_rules_solvers.py", "tests/test_entropy_solvers.py", "tests/test_solvers.py",
                  "tests/test_baseline_opener.py",
                  # make_solver refuses several boards (check_one_board)
                  "tests/test_faults_api.py::test_bad_api_call_raises_the_package_error",
                  # check_flags_used: a flag the solver never reads (its unread_params) is refused
                  "tests/test_rules_ga_solvers.py::test_unread_params_name_what_selection_and_choice_turn_off"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/strategy.py": {
        # the strategy genome and its policy (prior, multipliers, cost model, explore/candidates switch,
        # explore pool, memo, describe, strategy files): the P0 strategies' figures
        "tests": ["tests/test_rules_strategy.py",
                  # a file's word lists checked where it meets a context (other_lists, --other-lists)
                  "tests/test_other_lists_api.py",
                  "tests/test_strategy_compares_once.py",  # one comparison of the lists per replay
                  *(f"tests/test_strategy_genes.py::{name}" for name in (
                      "test_inflection_weights_follow_the_word_endings",
                      "test_the_dictionary_tells_names_and_unlisted_words",
                      "test_prior_multipliers_multiply_every_class_a_word_is_in",
                      "test_default_genes_leave_the_prior_alone", "test_multipliers_scale_each_candidates_odds",
                      "test_candidates_that_are_all_plurals_keep_their_relative_weights",
                      "test_inflection_genes_outside_their_bounds_are_refused",
                      "test_inflection_genes_accept_their_bounds",
                      "test_a_file_without_the_new_genes_is_refused_naming_them",
                      "test_genes_survive_the_individual_round_trip",
                      "test_inflection_genes_mutate_in_decades_within_their_bounds",
                      "test_inflection_genes_stay_within_their_bounds_under_wide_steps",
                      "test_describe_says_what_the_genome_does_in_its_game")),
                  "tests/test_faults_provenance.py::"
                  "test_every_shipped_strategy_file_gives_every_gene_and_an_object_provenance"],
        "pristine_table": True,
    },
    "evo_wordle/solvers/entropy_solvers.py": {
        # naive (max entropy) and greedy (priority x entropy, opening TALES): the baseline every GA
        # figure is compared with; the solver rules, greedy's own and the scoring base's tests
        "tests": ["tests/test_rules_solvers.py", "tests/test_entropy_solvers.py", "tests/test_baseline_opener.py",
                  "tests/test_solvers.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/checkpoint.py": {
        # evolve-strategy's checkpoints (a killed run resumes from them): written as JSON, read back
        # field by field, refused in one line when damaged or made with other settings or lists
        "tests": ["tests/test_rules_checkpoint.py",
                  *(f"tests/test_faults_files.py::{name}" for name in (
                      "test_pickle_checkpoint_never_runs", "test_damaged_checkpoint_refused",
                      "test_checkpoint_sources_capped", "test_deeply_nested_checkpoint",
                      "test_checkpoint_is_json_and_resumes")),
                  "tests/test_evolve.py::test_resumed_run_equals_uninterrupted",
                  "tests/test_evolve.py::test_a_checkpoint_is_not_resumed_over_other_word_lists",
                  "tests/test_evolve.py::test_evolve_strategy_cli_end_to_end",
                  "tests/test_evolve_boards.py::test_boards_meta_ga_starts_from_the_plain_policy_and_resumes_exactly"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/metaga.py": {
        # the meta-GA behind evolve-strategy: its configuration, genome, operators, selection, run,
        # resume and winner, on a small list (milliseconds per generation); the evolutions on the
        # full lists (test_evolve.py, test_evolve_boards.py: minutes per mutant) are left to the full suite
        "tests": ["tests/test_rules_metaga.py",
                  # resuming at and past the generations asked (six board sets: seconds, not minutes)
                  "tests/test_evolve_boards.py::test_a_checkpoint_past_the_generations_asked_is_refused",
                  # board sets of distinct answers: config, fingerprint, sets, a resume under the other choice
                  "tests/test_evolve_boards.py::"
                  "test_distinct_answers_draw_every_part_without_a_repeat_and_stay_out_of_default_fingerprints",
                  "tests/test_evolve_boards.py::test_a_distinct_answers_evolution_records_it_and_a_resume_must_match",
                  "tests/test_evolve_boards.py::test_distinct_answers_need_as_many_answers_in_each_part_as_boards"],
        "pristine_table": True,
    },
    "evo_wordle/solvers/position_rank.py": {
        # the paper's position-ranking family (position-rank … max-prune): the clue picture, the
        # three scores, presets, special turns, ties, the memo, max-prune's shortlist
        "tests": ["tests/test_rules_position_rank.py", "tests/test_solvers.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/plan.py": {
        # the plan over a prior's likeliest words (the planned words, the cheapest opener's
        # branch-and-bound tree, the cut after --depth decisions, the bounds, plan-tree): p0-plan's figures
        "tests": ["tests/test_plan.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/ranking.py": {
        # rank --by tree: openers ranked by their exact (or width-limited) trees, resumable
        "tests": ["tests/test_rank_trees.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/lookahead.py": {
        # the lookahead tree over a strategy genome (expected guesses under its own play and prior,
        # the cheapest of its best guesses, the bounds, the lookahead-tree command): p0-lookahead's figures
        "tests": ["tests/test_lookahead.py"],
        "pristine_table": True,
    },
    "evo_wordle/words.py": {
        # the word lists every module indexes: loading, the checks of lists from files and from
        # Python, the word <-> index mapping and its one-line errors
        "tests": ["tests/test_rules_words.py", "tests/test_words.py", "tests/test_context_lists.py",
                  *(f"tests/test_faults_files.py::{name}" for name in (
                      "test_bad_word_list_one_line", "test_word_list_sources_capped", "test_utf8_bom_is_accepted",
                      "test_duplicate_search_is_linear")),
                  "tests/test_faults_api.py"],
        "pristine_table": True,
    },
    "evo_wordle/cachedir.py": {
        # the cache folder: who may own it, stale temporary files, sealed small caches, the verified
        # stamps of big ones (test_faults_cache.py but its slow concurrency and kill runs)
        "tests": ["tests/test_rules_files.py",
                  *(f"tests/test_faults_cache.py::{name}" for name in (
                      "test_every_damage_is_detected_and_rebuilt",
                      "test_a_folder_with_content_at_the_table_path_is_one_line_error",
                      "test_stale_temp_files_removed_only_when_ours_and_dead_or_old",
                      "test_a_link_met_first_among_the_temps_does_not_end_the_cleanup",
                      "test_shared_cache_folder_refused", "test_group_named_otherwise_refused",
                      "test_cache_folder_inside_a_folder_others_may_write_refused",
                      "test_user_private_group_may_write", "test_cache_folder_of_another_user_refused",
                      "test_cache_path_that_is_a_file_refused", "test_private_and_new_folders_accepted",
                      "test_planted_frequency_cache_detected",
                      "test_frequency_cache_with_right_digest_but_wrong_values_detected",
                      "test_planted_static_entropy_cache_detected", "test_planted_opener_detected",
                      "test_a_stamped_table_loads_without_reading_it_again",
                      "test_no_stamp_for_a_file_changed_within_the_margin",
                      "test_every_damage_after_a_stamp_is_detected_and_rebuilt",
                      "test_damage_in_place_with_times_restored_is_detected",
                      "test_a_stamp_that_cannot_be_trusted_means_a_full_check",
                      "test_a_table_others_may_write_is_rebuilt_as_ours_alone"))],
        "pristine_table": True,
    },
    "evo_wordle/files.py": {
        # atomic writes that never follow a symlink, capped and strictly decoded reads of shared
        # files, the JSON depth and control-character checks
        "tests": ["tests/test_rules_files.py", "tests/test_faults_files.py", "tests/test_faults_outputs.py"],
        "pristine_table": True,
    },
    "evo_wordle/bench.py": {
        # every bench figure: the sample and each game's seed, the board route, the daily rules, the
        # boundary checks and the result's figures (test_rules_bench.py, on a small list: under 1 s);
        # test_bench.py's in-process benches and CLI runs (6 s in all) but its subprocess run
        "tests": ["tests/test_rules_bench.py",
                  *(f"tests/test_bench.py::{name}" for name in (
                      "test_thesis_figures", "test_jobs_do_not_change_results", "test_sample_is_seeded_and_distinct",
                      "test_daily_rules", "test_daily_remove_shrinks_later_candidates", "test_bad_daily_rule",
                      "test_settings_flags", "test_bench_json_keys_exact",
                      "test_rates_come_from_the_counts_without_float_noise", "test_bench_text_csv_and_plot",
                      "test_bench_repeat", "test_bench_boards_route", "test_compare", "test_bad_input_one_line",
                      "test_bad_answers_file_content", "test_bench_result_pooled_histogram",
                      "test_small_entropies_bitwise_equal", "test_bench_names_the_answer_list_as_compare_does",
                      "test_a_cap_below_the_win_limit_is_the_limit_stated"))],
        "pristine_table": True,
    },
    "evo_wordle/solvers/opener_cache.py": {
        # the disk cache of deterministic solvers' openers: served only for the case it was
        # computed for, recomputed when damaged or stale, bounded
        "tests": ["tests/test_rules_opener_cache.py", "tests/test_solvers.py::test_default_opener_is_cached_on_disk",
                  "tests/test_faults_cache.py::test_planted_opener_detected"],
        "pristine_table": True,
    },
    "evo_wordle/solvers/letter_frequency.py": {
        # the letter-frequency floor: each distinct letter counts the candidates containing it
        "tests": ["tests/test_rules_baseline_solvers.py"],
        "pristine_table": True,
    },
    "evo_wordle/solvers/random_solver.py": {
        # the random floor: a seeded uniform draw from the guessable pool, a fixed opener on turn 0 only
        "tests": ["tests/test_rules_baseline_solvers.py"],
        "pristine_table": True,
    },
    "evo_wordle/executors.py": {
        # where parallel work runs: workers die with their parent and leave Ctrl-C to it, pools stop at once
        "tests": ["tests/test_rules_executors.py",
                  "tests/test_faults_processes.py::test_a_ctrl_c_pending_when_the_pool_forks_a_worker_leaves_sigint_unblocked"],
        "pristine_table": False,
        "forks": True,  # the worker's start-up runs in forked children, out of coverage's sight
    },
    "evo_wordle/lexicon.py": {
        # the dictionary classes behind the w_proper and w_unlisted genes
        "tests": ["tests/test_rules_lexicon.py",
                  "tests/test_strategy_genes.py::test_the_dictionary_tells_names_and_unlisted_words",
                  "tests/test_rules_strategy.py::test_prior_multipliers_multiply_each_class_of_a_word"],
        "pristine_table": False,
    },
    "evo_wordle/assist.py": {
        # the interactive assistant's figures: candidates left, expected guesses to finish, alternatives
        "tests": ["tests/test_assist.py", "tests/test_rules_assist.py"],
        "pristine_table": True,
    },
    "evo_wordle/evolve/cheatsheet.py": {
        # the figures people read off a tree: groups by first feedback, second guess, mean and worst
        "tests": ["tests/test_cheatsheet.py",
                  "tests/test_faults_files.py::test_a_cheat_sheet_under_a_cap_its_tree_exceeds_is_refused"],
        "pristine_table": True,
    },
    "evo_wordle/folder_lock.py": {
        # one writer per sweep or evolution folder: who holds it, when an owner counts as gone, the
        # refusal's wording, a released lock leaving no owner on record
        "tests": ["tests/test_rules_folder_lock.py",
                  "tests/test_faults_processes.py::test_a_live_lock_holder_is_named_and_a_dead_one_is_taken_over"],
        "pristine_table": True,
    },
    "evo_wordle/context.py": {
        # the word lists a Context accepts, words and indices as allowed-word indices (never wrapping,
        # never a float or a bool), who may be the answer, what travels to workers
        "tests": ["tests/test_rules_context.py", "tests/test_context_lists.py"],
        "pristine_table": True,
    },
    "evo_wordle/params.py": {
        # every number, flag, choice, word, seed and list a user gives goes through these converters:
        # their bounds, accepted spellings and one-line refusals
        "tests": ["tests/test_rules_params.py", "tests/test_faults_api.py"],
        "pristine_table": True,
    },
}

#: The operator set.  cosmic-ray replaces each binary operator by all 11 others and each comparison
#: by all 7 others; most of those are redundant (killed whenever the natural swap is), so, as in
#: selective mutation, a binary operator becomes only its natural partners and a comparison its
#: boundary and its negation.  The rest (numbers ±1, unary operators, not/and/or, True/False,
#: break/continue, zero-iteration loops, decorators) run in full.  VariableReplacer/-Inserter
#: draw random numbers and need arguments: not configured, so every run makes the same mutants.
KEEP_BINARY = {
    "Add": {"Sub", "Mul"}, "Sub": {"Add", "Mul"}, "Mul": {"Div", "Add"}, "Div": {"Mul", "FloorDiv"},
    "FloorDiv": {"Div", "Mul"}, "Mod": {"FloorDiv", "Mul"}, "Pow": {"Mul"}, "LShift": {"RShift"},
    "RShift": {"LShift"}, "BitAnd": {"BitOr", "BitXor"}, "BitOr": {"BitAnd", "BitXor"}, "BitXor": {"BitAnd", "BitOr"},
}
KEEP_COMPARISON = {
    "Eq": {"NotEq"}, "NotEq": {"Eq"}, "Lt": {"LtE", "GtE"}, "LtE": {"Lt", "Gt"}, "Gt": {"GtE", "LtE"},
    "GtE": {"Gt", "Lt"}, "Is": {"IsNot"}, "IsNot": {"Is"},
}


def excluded_operators() -> list[str]:
    """cosmic-ray operator names left out of the run (exact names, for its operators-filter)."""
    out = []
    for kind, keep in (("ReplaceBinaryOperator", KEEP_BINARY), ("ReplaceComparisonOperator", KEEP_COMPARISON)):
        for src, targets in keep.items():
            out += [f"core/{kind}_{src}_{dst}$" for dst in keep if dst != src and dst not in targets]
    return out


#: what a kept run's run.json records about the run itself (not the verdicts), for --rescore
RUN_FIELDS = ("seconds", "jobs", "load", "load_before", "cpu_seconds", "route", "run", "not_run", "timeouts",
              "worker_deaths")

PYTEST_ARGS = ["-x", "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts="]


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of every child it has waited for (workers, their forks)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def fail(msg: str) -> None:
    print(f"mutation: {msg}", file=sys.stderr)
    raise SystemExit(2)


def copy_checkout(dest: Path) -> None:
    """Copy the tracked and new (not ignored) files, as they are in the working tree, into ``dest``."""
    listing = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    names = subprocess.run(listing, cwd=ROOT, capture_output=True, check=True).stdout
    for name in names.decode().split("\0"):
        src = ROOT / name
        if not name or not src.is_file() or src.is_symlink():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)


def build_pristine(copy: Path, cache: Path) -> None:
    env = {**os.environ, "EVO_WORDLE_CACHE": str(cache), "PYTHONPATH": str(copy)}
    code = "from evo_wordle import Context; import evo_wordle, sys; Context().table; print(evo_wordle.__file__)"
    out = subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip().startswith(str(copy)):
        fail(f"could not build the unmutated table in the scratch copy: {out.stderr.strip() or out.stdout}")


def test_mutant(module: str, pristine: str | None, tests: list[str]) -> int:
    """Run the module's targeted tests in a fresh cache folder (the cosmic-ray test command)."""
    import pytest

    sys.path.insert(0, os.getcwd())
    import evo_wordle

    if not evo_wordle.__file__.startswith(os.getcwd()):
        fail(f"imported {evo_wordle.__file__}, not the scratch copy")

    with tempfile.TemporaryDirectory(prefix="evo-wordle-mutant-") as fresh:
        if pristine:
            for f in Path(pristine).iterdir():
                if f.is_file():
                    os.link(f, Path(fresh) / f.name)
        os.environ["EVO_WORDLE_CACHE"] = fresh
        return int(pytest.main([*PYTEST_ARGS, *tests]))


def free_port() -> int:
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_workers(config: dict, copies: list[Path], workdir: Path) -> list:
    """One cosmic-ray HTTP worker per source copy; points ``config``'s distributor at them.
    Returns (process, log file) pairs, closed by the caller."""
    ports = [free_port() for _ in copies]
    config["distributor"] = {"name": "http", "http": {"worker-urls": [f"http://127.0.0.1:{p}" for p in ports]}}
    workers = []
    for c, p in zip(copies, ports):
        log = open(workdir / f"worker-{p}.log", "w")  # noqa: SIM115 - closed with the worker
        workers.append((subprocess.Popen([sys.executable, "-m", "cosmic_ray.cli", "http-worker", "--port", str(p)],
                                         cwd=c, stdout=log, stderr=subprocess.STDOUT), log))
    time.sleep(2)
    return workers


def load_equivalent(module: str) -> list[dict]:
    if not EQUIVALENT_FILE.exists():
        return []
    data = tomllib.loads(EQUIVALENT_FILE.read_text())
    return [e for e in data.get("equivalent", []) if e["module"] in (module, "*")]


def line_text(source_lines: list[str], pos: tuple[int, int]) -> str:
    return source_lines[pos[0] - 1].strip()


#: How many lines just above a mutated line an entry's ``above`` regex is searched in.
ABOVE_LINES = 3


def entry_sites(entry: dict, source_lines: list[str]) -> list[int]:
    """The source lines (1-based) an equivalent entry names: its ``line`` regex matches the line's
    stripped text and, if given, its ``above`` regex one of the ABOVE_LINES lines just above it
    (how two lines of the same text are told apart)."""
    above = entry.get("above")

    def placed(n: int) -> bool:
        return not above or any(re.search(above, t.strip()) for t in source_lines[max(0, n - 1 - ABOVE_LINES):n - 1])

    return [n for n, text in enumerate(source_lines, 1) if re.search(entry["line"], text.strip()) and placed(n)]


def equivalent_sites(equivalent: list[dict], source_lines: list[str]) -> list[set[int]]:
    """Each entry's source lines (:func:`entry_sites`).  A module's entry that matches more lines
    than it says (``sites``, default 1) is refused in one line: it would count as equivalent the
    survivors of a line its reason was not written for.  Entries for every module ("*") are rules
    of a kind of line, not sites, and may match any number."""
    out = []
    for e in equivalent:
        sites = entry_sites(e, source_lines)
        expected = e.get("sites", 1)
        if e["module"] != "*" and len(sites) > expected:
            fail(f"{EQUIVALENT_FILE.name}: the {e['module']} entry {e['operator']} {e['line']!r} matches "
                 f"{len(sites)} source lines ({', '.join(map(str, sites))}), not {expected}: narrow it with "
                 f"`above`, or say `sites = {len(sites)}` if its reason holds for each")
        out.append(set(sites))
    return out


def session_records(session: Path) -> list[dict]:
    """The mutants of a cosmic-ray session (the old route) as the records ``score`` reads."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    records = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in db.pending_work_items:
            m = item.mutations[0]
            records.append({"job_id": item.job_id, "operator": m.operator_name, "occurrence": m.occurrence,
                            "line_no": m.start_pos[0], "outcome": "pending", "diff": ""})
        for item, result in db.completed_work_items:
            m = item.mutations[0]
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                outcome = "filtered"
            elif result.worker_outcome != WorkerOutcome.NORMAL or result.test_outcome == TestOutcome.INCOMPETENT:
                outcome = "incompetent"  # the mutant could not be applied or run (e.g. a syntax error)
            else:
                outcome = "killed" if result.test_outcome == TestOutcome.KILLED else "survived"
            records.append({"job_id": item.job_id, "operator": m.operator_name, "occurrence": m.occurrence,
                            "line_no": m.start_pos[0], "outcome": outcome, "diff": result.diff or ""})
    return records


def _canonical(node) -> str:
    """A syntax tree as text, without what one Python version adds as None or an empty list
    (``type_params`` in 3.12, ``kind`` of a constant): the same code gives the same text on 3.11 and later."""
    if isinstance(node, ast.AST):
        fields = [f"{name}={_canonical(value)}" for name, value in ast.iter_fields(node)
                  if value is not None and value != []]
        return f"({type(node).__name__} {' '.join(fields)})"
    if isinstance(node, list):
        return "[" + ",".join(_canonical(x) for x in node) + "]"
    return repr(node)


def source_digest(source: str) -> str:
    """Twelve hex digits of the sha256 of ``source``'s syntax tree with every docstring dropped:
    a change to what the code does changes it, a change to comments, docstrings or layout does not."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(_canonical(tree).encode()).hexdigest()[:12]


def score(records: list[dict], module: str, source: str) -> dict:
    """Killed / survived counts of a run (either route), equivalents matched by (operator, line, mutant)."""
    lines = source.splitlines()
    equivalent = load_equivalent(module)
    sites = equivalent_sites(equivalent, lines)
    outside = re.compile("|".join(f"(?:{e})" for e in excluded_operators()))
    used = [0] * len(equivalent)
    killed = survived = incompetent = filtered = pending = 0
    survivors, equivalents = [], []
    for r in records:
        if r["outcome"] == "pending":
            pending += 1
            continue
        if r["outcome"] == "filtered" or outside.match(r["operator"]):
            filtered += 1  # an operator outside the set (KEEP_BINARY / KEEP_COMPARISON)
            continue
        if r["outcome"] == "incompetent":
            incompetent += 1
            continue
        if r["outcome"] == "killed":
            killed += 1
            continue
        text = line_text(lines, (r["line_no"], 0))
        added = "\n".join(x[1:].strip() for x in r["diff"].splitlines()
                           if x.startswith("+") and not x.startswith("+++"))
        match = next(
            (i for i, e in enumerate(equivalent)
             if re.fullmatch(e["operator"], r["operator"]) and r["line_no"] in sites[i]
             and re.search(e.get("mutant", ""), added)),
            None,
        )
        entry = {"job_id": r["job_id"], "operator": r["operator"], "occurrence": r["occurrence"],
                 "line_no": r["line_no"], "line": text, "diff": r["diff"]}
        if r.get("why"):
            entry["why"] = r["why"]  # the worker route did not run it: annotation only, or no test runs the line
        if match is None:
            survived += 1
            survivors.append(entry)
        else:
            used[match] += 1
            equivalents.append({**entry, "reason": equivalent[match]["reason"]})
    total = killed + survived + len(equivalents)
    non_equivalent = killed + survived
    return {
        "module": module,
        "source": source_digest(source),  # the code the mutants were made from
        "total": total,
        "killed": killed,
        "survived": survived,
        "equivalent": len(equivalents),
        "incompetent": incompetent,
        "filtered": filtered,
        "pending": pending,  # not run yet (an interrupted run): the score covers the others only
        "score": round(killed / non_equivalent, 4) if non_equivalent else 1.0,
        "survivors": survivors,
        "equivalents": equivalents,
        # an entry for every module ("*") need not match in each one: only this module's own go stale
        "stale_equivalent_entries": [e for e, n in zip(equivalent, used) if n == 0 and e["module"] != "*"],
    }


def run(module: str, jobs: int, timeout: float, workdir: Path, tests: list[str]) -> dict:
    copies = [workdir / f"src{i}" for i in range(jobs)]
    for c in copies:
        copy_checkout(c)
    # the unmutated source, for scoring (the copies are mutated in place while the run goes on)
    (workdir / "source.py").write_text((copies[0] / module).read_text())
    pristine = None
    if MODULES[module]["pristine_table"]:
        pristine = workdir / "pristine-cache"
        build_pristine(copies[0], pristine)
    test_cmd = [sys.executable, "experiments/mutation.py", "--test-mutant", module, "--tests", ",".join(tests)]
    if pristine:
        test_cmd += ["--pristine", str(pristine)]
    # The unmutated code must pass its targeted tests, or every mutant would count as killed.
    check = subprocess.run(test_cmd, cwd=copies[0], capture_output=True, text=True)
    if check.returncode != 0:
        fail(f"the targeted tests fail on the unmutated code:\n{check.stdout[-3000:]}")
    config = {
        "module-path": module,
        "timeout": timeout,
        "excluded-modules": [],
        "test-command": " ".join(test_cmd),
        "distributor": {"name": "local"},
        "filters": {"operators-filter": {"exclude-operators": excluded_operators()}},
    }
    workers = start_workers(config, copies, workdir) if jobs > 1 else []
    cfg = workdir / "cosmic-ray.toml"
    cfg.write_text(_toml({"cosmic-ray": config}))
    session = workdir / "session.sqlite"
    cr = [sys.executable, "-m", "cosmic_ray.cli"]
    start = time.perf_counter()
    try:
        subprocess.run([*cr, "init", str(cfg), str(session)], cwd=copies[0], check=True)
        subprocess.run([sys.executable, "-m", "cosmic_ray.tools.filters.operators_filter", str(session), str(cfg)],
                       cwd=copies[0], check=True)
        subprocess.run([*cr, "exec", str(cfg), str(session)], cwd=copies[0], check=True)
    finally:
        for proc, log in workers:
            proc.terminate()
            proc.wait()
            log.close()
    seconds = time.perf_counter() - start
    (workdir / "run.json").write_text(json.dumps({"seconds": round(seconds, 1), "jobs": jobs,
                                                  "load": os.getloadavg()[0]}))
    result = score(session_records(session), module, (workdir / "source.py").read_text())
    result.update(seconds=round(seconds, 1), jobs=jobs, tests=tests,
                  load=os.getloadavg()[0])
    return result


def enumerate_mutants(copy: Path, module: str) -> list[dict]:
    """Every mutant cosmic-ray's core operators make of ``module``, as its ``init`` enumerates them (same
    operators, same occurrence numbers; operators that need arguments, VariableReplacer/-Inserter, are left
    out as there), the operators outside the set marked filtered.  ``mutant_source`` makes each one."""
    import cosmic_ray.plugins
    from cosmic_ray.ast import ast_nodes, get_ast

    source = (copy / module).read_text()
    outside = re.compile("|".join(f"(:?{e})" for e in excluded_operators()))  # as cosmic-ray's operators-filter
    mutants = []
    nodes = list(ast_nodes(get_ast(source)))
    for name in cosmic_ray.plugins.operator_names():
        cls = cosmic_ray.plugins.get_operator(name)
        if cls.arguments():
            continue
        operator = cls()
        positions = [pos for node in nodes for pos in operator.mutation_positions(node)]
        for occurrence, (start, end) in enumerate(positions):
            record = {"job_id": f"{name}#{occurrence}", "operator": name, "occurrence": occurrence,
                      "line_no": start[0], "end_line": end[0], "diff": ""}
            if outside.match(name):
                record["outcome"] = "filtered"
            mutants.append(record)
    return mutants


def mutant_source(source: str, module: str, m: dict) -> str | None:
    """The mutated module of record ``m`` (cosmic-ray's own mutate_code), its diff stored in ``m``."""
    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_code

    mutated = mutate_code(source, cosmic_ray.plugins.get_operator(m["operator"])(), m["occurrence"])
    if mutated is not None:
        diff = difflib.unified_diff(source.split("\n"), mutated.split("\n"), fromfile=f"a/{module}",
                                    tofile=f"b/{module}", lineterm="")
        m["diff"] = "\n".join(["--- mutation diff ---", *diff])
    return mutated


def made_mutant(source: str, module: str, m: dict) -> str | None:
    """:func:`mutant_source`, or None with ``m`` marked incompetent when cosmic-ray finds nothing to
    mutate or its operator fails on the node (ExceptionReplacer on a dotted name inside an except
    tuple raises AttributeError): cosmic-ray's own route counts both incompetent, and one such
    mutant must not end the run."""
    try:
        mutated = mutant_source(source, module, m)
    except Exception as e:  # noqa: BLE001 - any failure of cosmic-ray's operator on this node
        m.update(outcome="incompetent", why=f"cosmic-ray could not make this mutant ({type(e).__name__}: {e})")
        return None
    if mutated is None:
        m.update(outcome="incompetent", why="cosmic-ray found nothing to mutate there")
    return mutated


class WorkerDied(RuntimeError):
    """A worker process ended while running a mutant (the mutant killed it, its tests' parent)."""


class WorkerPool:
    """One _mutation_worker.py process per scratch copy; ``run`` hands mutants to whichever is free."""

    def __init__(self, copies: list[Path], module: str, tests: list[str], pristine: Path | None, workdir: Path):
        self.copies, self.module, self.workdir = copies, module, workdir
        self.sources = [(c / module).read_text() for c in copies]  # unmutated: no worker has run yet
        self.cmds = []
        for i, c in enumerate(copies):
            cmd = [sys.executable, str(c / "experiments" / "_mutation_worker.py"), "serve", "--copy", str(c),
                   "--module", module, "--tests", ",".join(tests), "--log", str(workdir / f"worker{i}.log")]
            if pristine:
                cmd += ["--pristine", str(pristine)]
            self.cmds.append(cmd)
        self.procs = [self._start(i) for i in range(len(copies))]
        for i in range(len(copies)):
            self._ready(i)

    def _start(self, i: int) -> subprocess.Popen:
        return subprocess.Popen(self.cmds[i], cwd=self.copies[i], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True)

    def _ready(self, i: int) -> None:
        if not self.procs[i].stdout.readline().strip():
            self.close()
            fail(f"mutation worker {i} did not start (see {self.workdir / f'worker{i}.log'})")

    def restart(self, i: int) -> None:
        """A fresh worker in place of a dead one, on its copy restored (the dead one may have left a mutant there)."""
        old = self.procs[i]
        with contextlib.suppress(OSError):
            old.kill()
        old.wait()
        (self.copies[i] / self.module).write_text(self.sources[i])
        self.procs[i] = self._start(i)
        self._ready(i)

    def ask(self, i: int, source: str | None, tests: list[str], timeout: float, order: list[str] | None) -> dict:
        p = self.procs[i]
        try:
            p.stdin.write(json.dumps({"source": source, "tests": tests, "timeout": timeout, "order": order}) + "\n")
            p.stdin.flush()
        except OSError:  # BrokenPipeError: it died after its last answer
            raise WorkerDied(f"mutation worker {i} died") from None
        line = p.stdout.readline()
        if not line:
            raise WorkerDied(f"mutation worker {i} died")
        return json.loads(line)

    def run(self, jobs, timeout: float, tests: list[str], progress) -> None:
        """Run each job ({"source", "tests"}) of the iterable, storing the answer in the job.  The jobs are
        made by a thread of their own while the workers run the ones before (making one takes 0.2 s)."""
        todo: queue.Queue = queue.Queue(maxsize=2 * len(self.procs))
        errors: list[Exception] = []

        def produce() -> None:
            try:
                for job in jobs:
                    todo.put(job)
            except Exception as e:  # noqa: BLE001 - reported once all threads stop
                errors.append(e)
            finally:
                for _ in self.procs:
                    todo.put(None)

        def consume(i: int) -> None:
            while (job := todo.get()) is not None:
                if errors:
                    continue  # drain, so the producer never blocks
                try:
                    budget = job.get("timeout", timeout)
                    job["answer"] = self.ask(i, job["source"], job["tests"] or tests, budget, job.get("order"))
                    if job["tests"] and job["answer"]["code"] in (4, 5):
                        # a test id of the coverage run is gone (the mutant changed what is collected):
                        # the whole targeted list decides, as for an import-time line
                        budget = job.get("timeout_all", timeout)
                        job["answer"] = self.ask(i, job["source"], tests, budget, job.get("order"))
                        job["tests"] = None
                    job["budget"] = budget
                except WorkerDied as e:
                    if job["source"] is None:  # the unmutated module: nothing to blame
                        errors.append(e)
                        continue
                    # the mutant killed the worker running its tests (their parent): killed, and the run
                    # goes on with a fresh worker
                    self.restart(i)
                    job["answer"] = {"outcome": "killed", "code": None, "seconds": None, "worker_died": True}
                    job["budget"] = budget
                except Exception as e:  # noqa: BLE001 - reported once all threads stop
                    errors.append(e)
                    continue
                if job["answer"]["outcome"] == "error":
                    errors.append(RuntimeError(job["answer"]["error"]))
                progress(job)

        threads = [threading.Thread(target=produce)]
        threads += [threading.Thread(target=consume, args=(i,)) for i in range(len(self.procs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            fail(str(errors[0]))

    def close(self) -> None:
        for p in self.procs:
            with contextlib.suppress(OSError):
                p.stdin.close()
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def unseen_in_children(module: str, chosen: list[str] | None) -> list[str] | None:
    """A module whose tests run some of its lines in forked children (``"forks": True`` in
    ``MODULES``): coverage sees only the parent, so a line no test seems to run gets the whole
    list (None) rather than surviving untested."""
    return None if chosen == [] and MODULES[module].get("forks") else chosen


def run_worker(module: str, jobs: int, timeout: float, workdir: Path, tests: list[str]) -> dict:
    """The worker route: warm forked test workers, each mutant's tests picked by coverage."""
    import _mutation_worker as mw

    copies = [workdir / f"src{i}" for i in range(jobs)]
    for c in copies:
        copy_checkout(c)
    source = (copies[0] / module).read_text()
    (workdir / "source.py").write_text(source)
    pristine = None
    if MODULES[module]["pristine_table"]:
        pristine = workdir / "pristine-cache"
        build_pristine(copies[0], pristine)
    start = time.perf_counter()
    # one run of the targeted tests under coverage: which tests run each line (and they must pass)
    cov_file = workdir / "coverage.json"
    cmd = [sys.executable, str(copies[0] / "experiments" / "_mutation_worker.py"), "coverage", "--copy",
           str(copies[0]), "--module", module, "--tests", ",".join(tests), "--out", str(cov_file)]
    if pristine:
        cmd += ["--pristine", str(pristine)]
    check = subprocess.run(cmd, cwd=copies[0], capture_output=True, text=True,
                           env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if check.returncode != 0 or not cov_file.is_file():
        fail(f"the coverage run failed:\n{check.stdout[-3000:]}{check.stderr[-3000:]}")
    cov = json.loads(cov_file.read_text())
    if cov["exit"] != 0:
        fail(f"the targeted tests fail on the unmutated code:\n{check.stdout[-3000:]}")
    mutants = enumerate_mutants(copies[0], module)
    full = mw.quickest_first(cov, set(cov["order"]))  # the whole targeted list, quickest test first
    others = "\n".join(f.read_text() for folder in ("evo_wordle", "tests")
                       for f in sorted((copies[0] / folder).rglob("*.py")) if f != copies[0] / module)
    constants = mw.constant_readers(source, others)
    budget_all = mw.time_budget(cov, full, timeout)  # CPU seconds for a run of the whole list
    runs: list[dict] = []

    def planned():
        """The mutants to run; the others get their verdict here (not applicable, annotation, no test)."""
        for m in mutants:
            if "outcome" in m:
                continue
            mutated = made_mutant(source, module, m)
            if mutated is None:
                pass  # incompetent: made_mutant says why
            elif mw.annotation_only(source, mutated):
                m.update(outcome="survived",
                         why="annotation only: never evaluated (`from __future__ import annotations`)")
            elif (chosen := unseen_in_children(module, mw.select_tests(cov, source, m["line_no"], m["end_line"],
                                                                       constants))) == []:
                m.update(outcome="survived", why="no targeted test runs this line")
            else:
                runs.append(m)
                # the whole list as its files (a mutant may change what they collect), quickest tests first
                yield {"mutant": m, "source": mutated, "tests": chosen, "order": full, "timeout_all": budget_all,
                       "timeout": budget_all if chosen is None else mw.time_budget(cov, chosen, timeout)}

    pool = WorkerPool(copies, module, tests, pristine, workdir)
    try:
        # the unmutated module through the worker itself: it must pass, or every mutant would count as killed
        # and within the budget a whole-list mutant gets, or budgets would be too tight to trust
        base = [{"source": None, "tests": None, "order": full, "timeout": budget_all}]
        pool.run(base, timeout, tests, lambda job: None)
        if base[0]["answer"]["outcome"] != "survived":
            fail(f"the targeted tests fail on the unmutated code in the worker: {base[0]['answer']}")
        done = [0]
        lock = threading.Lock()

        def progress(job: dict) -> None:
            with lock:
                done[0] += 1
                if done[0] % 25 == 0:
                    print(f"  {done[0]} mutants run of {len(mutants)} made, {time.perf_counter() - start:.0f} s, "
                          f"load {os.getloadavg()[0]:.1f}", flush=True)

        jobs_done = []

        def made():
            for job in planned():
                jobs_done.append(job)
                yield job

        pool.run(made(), timeout, tests, progress)
    finally:
        pool.close()
    seconds = time.perf_counter() - start
    for job in jobs_done:
        a, m = job["answer"], job["mutant"]
        m.update(outcome="survived" if a["outcome"] == "survived" else "killed", seconds=a["seconds"],
                 timed_out=a["outcome"] == "timeout", tests_run=len(job["tests"]) if job["tests"] else "all",
                 cpu_budget=job["budget"], worker_died=bool(a.get("worker_died")))
    records = mutants
    (workdir / "mutants.json").write_text(json.dumps(records, indent=1))
    (workdir / "run.json").write_text(json.dumps({"seconds": round(seconds, 1), "jobs": jobs, "route": "worker",
                                                  "load": os.getloadavg()[0]}))
    result = score(records, module, source)
    result.update(seconds=round(seconds, 1), jobs=jobs, tests=tests, load=os.getloadavg()[0], route="worker",
                  run=len(runs), not_run=sum(1 for m in mutants if m.get("why")),
                  timeouts=sum(1 for m in runs if m.get("timed_out")),
                  worker_deaths=sum(1 for m in runs if m.get("worker_died")))
    return result


def compare_routes(module: str, jobs: int, timeout: float, workdir: Path, tests: list[str]) -> int:
    """The self-check of the worker route: run both routes on ``module`` and compare every mutant's verdict
    (killed, survived, incompetent, filtered), matched by operator and occurrence.  0 if all agree."""
    (workdir / "worker").mkdir()
    (workdir / "old").mkdir()
    new = run_worker(module, jobs, timeout, workdir / "worker", tests)
    run(module, jobs, timeout, workdir / "old", tests)
    mine = {(m["operator"], m["occurrence"]): m for m in json.loads((workdir / "worker" / "mutants.json").read_text())}
    theirs = {(r["operator"], r["occurrence"]): r for r in session_records(workdir / "old" / "session.sqlite")}
    differ = [(key, mine.get(key, {}).get("outcome"), theirs.get(key, {}).get("outcome"))
              for key in sorted(set(mine) | set(theirs))
              if mine.get(key, {}).get("outcome") != theirs.get(key, {}).get("outcome")]
    for (operator, occurrence), a, b in differ:
        print(f"  DIFFERENT {operator} #{occurrence} line {mine.get((operator, occurrence), {}).get('line_no')}: "
              f"worker {a}, old {b}")
    print(f"{module}: {len(mine)} mutants (filtered included), {len(differ)} verdicts differ between the routes; "
          f"worker route {new['seconds']:.0f} s")
    return 1 if differ else 0


def resume(module: str, workdir: Path) -> dict:
    """Go on with an interrupted run kept with --workdir: restore the module in each copy (a killed
    worker may have left a mutant there), then let cosmic-ray run the mutants still pending."""
    source_file = workdir / "source.py" if (workdir / "source.py").is_file() else ROOT / module
    copies = sorted(workdir.glob("src[0-9]*"))
    for c in copies:
        (c / module).write_text(source_file.read_text())
    config = tomllib.loads((workdir / "cosmic-ray.toml").read_text())["cosmic-ray"]
    workers = start_workers(config, copies, workdir) if len(copies) > 1 else []
    cfg = workdir / "cosmic-ray.toml"
    cfg.write_text(_toml({"cosmic-ray": config}))
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-m", "cosmic_ray.cli", "exec", str(cfg), str(workdir / "session.sqlite")],
                       cwd=copies[0], check=True)
    finally:
        for proc, log in workers:
            proc.terminate()
            proc.wait()
            log.close()
    seconds = time.perf_counter() - start
    (workdir / "run.json").write_text(json.dumps({"seconds": round(seconds, 1), "jobs": len(copies),
                                                  "load": os.getloadavg()[0], "resumed": True}))
    return score(session_records(workdir / "session.sqlite"), module, source_file.read_text())


def retest_survivors(module: str, workdir: Path, tests: list[str], timeout: float) -> dict:
    """Run each surviving non-equivalent mutant of a kept run again, against today's targeted tests.

    Tests are only ever added, so a killed mutant stays killed; re-running the survivors makes a
    full run's score current without running every mutant again.  Refused if the module's source
    differs from the one the run mutated (occurrences would point elsewhere)."""
    from cosmic_ray.mutating import mutate_and_test
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import MutationSpec

    session = workdir / "session.sqlite"
    source_file = workdir / "source.py" if (workdir / "source.py").is_file() else workdir / "src0" / module
    source = source_file.read_text()
    fresh = workdir / "retest"
    if fresh.exists():
        shutil.rmtree(fresh)
    copy_checkout(fresh)
    if (fresh / module).read_text() != source:
        fail(f"{module} changed since that run: run it again in full")
    pristine = workdir / "pristine-cache" if MODULES[module]["pristine_table"] else None
    test_cmd = [sys.executable, "experiments/mutation.py", "--test-mutant", module, "--tests", ",".join(tests)]
    if pristine:
        test_cmd += ["--pristine", str(pristine)]
    check = subprocess.run(test_cmd, cwd=fresh, capture_output=True, text=True)
    if check.returncode != 0:
        fail(f"the targeted tests fail on the unmutated code:\n{check.stdout[-3000:]}")
    before = score(session_records(session), module, source)
    here = os.getcwd()
    os.chdir(fresh)
    try:
        for s in before["survivors"]:
            spec = MutationSpec(module, s["operator"], s["occurrence"], (s["line_no"], 0), (s["line_no"], 1))
            result = mutate_and_test([spec], " ".join(test_cmd), timeout)
            with use_db(str(session), WorkDB.Mode.open) as db:
                db.set_result(s["job_id"], result)
            print(f"  retested {s['operator']} line {s['line_no']}: {result.test_outcome}", flush=True)
    finally:
        os.chdir(here)
    after = score(session_records(session), module, source)
    after["retested"] = len(before["survivors"])
    return after


def _toml(data: dict, prefix: str = "") -> str:
    """The tiny TOML writer the config needs (strings, numbers, lists, nested tables)."""
    simple, tables = [], []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            simple.append(f"{k} = {json.dumps(v)}")
    out = "\n".join(simple) + ("\n" if simple else "")
    for k, v in tables:
        name = f"{prefix}.{k}" if prefix else k
        out += f"\n[{name}]\n" + _toml(v, name)
    return out


def equivalents_markdown() -> str:
    """experiments/mutation_equivalent.toml as a Markdown table (module, operator, line, why)."""
    rows = tomllib.loads(EQUIVALENT_FILE.read_text())["equivalent"]
    out = ["| module | operator | source line (regex) | why it is equivalent |", "|---|---|---|---|"]
    for e in rows:
        line = (f"`{e['line']}`" + (f" (below `{e['above']}`)" if e.get("above") else "")
                + (f" → `{e['mutant']}`" if e.get("mutant") else ""))
        cells = [e["module"].replace("evo_wordle/", ""), e["operator"].replace("core/", ""), line, e["reason"]]
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out)


def _jobs(n: int) -> str:
    """The job count with its noun: "1 job", "2 jobs" (rows said "1 jobs"; evo_wordle.wording is not
    imported at the top of this script)."""
    return f"{n} job" if n == 1 else f"{n} jobs"


def report_text(r: dict) -> str:
    lines = [
        f"{r['module']}: killed {r['killed']} / {r['killed'] + r['survived']} non-equivalent "
        f"({100 * r['score']:.1f} %), {r['equivalent']} equivalent, {r['incompetent']} incompetent, "
        f"{r['total']} mutants in {r['seconds']:.0f} s with {_jobs(r['jobs'])}, load {r['load']:.1f}"
    ]
    if r.get("route") == "worker" and "run" in r:
        lines.append(f"  worker route: {r['run']} mutants run, {r['not_run']} not run (annotation only, or no "
                     f"targeted test runs the line), {r['timeouts']} timed out (counted killed), "
                     f"{r.get('worker_deaths', 0)} killed their worker (counted killed), "
                     f"load {r.get('load_before', float('nan')):.1f} before, {r.get('cpu_seconds', 0):.0f} s of CPU")
    for s in r["survivors"]:
        lines.append(f"  SURVIVED {s['operator']} line {s['line_no']}: {s['line']}")
    for e in r["stale_equivalent_entries"]:
        lines.append(f"  (equivalent entry no longer matched: {e['operator']} {e['line']!r})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: nice -n 10 python experiments/mutation.py --module evo_wordle/game.py --jobs 2",
    )
    ap.add_argument("--module", choices=sorted(MODULES), help="the module to mutate")
    ap.add_argument("--route", choices=["worker", "old"], default="worker",
                    help="worker (default): warm forked test workers, tests picked by coverage "
                         "(experiments/_mutation_worker.py); old: a fresh pytest process per mutant through cosmic-ray")
    ap.add_argument("--jobs", type=int, default=1, help="parallel test workers (default 1)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds before a mutant's tests count as hung (worker route: the most CPU seconds; "
                         "each mutant gets 20 s plus 3 times its tests' time in the coverage run, up to this)")
    ap.add_argument("--out", type=Path, default=ROOT / "experiments" / "out" / "mutation",
                    help="folder for the result JSON, survivor diffs included (default experiments/out/mutation)")
    ap.add_argument("--write-docs", action="store_true",
                    help="also put the module's score and the equivalent list into docs/testing.md")
    ap.add_argument("--workdir", type=Path, help="scratch folder to keep (default: a temporary one)")
    ap.add_argument("--tests", help="comma-separated pytest targets instead of the module's own list")
    ap.add_argument("--retest-survivors", type=Path, metavar="WORKDIR",
                    help="run the survivors of a kept run again against the current tests, then score it")
    ap.add_argument("--resume", type=Path, metavar="WORKDIR", help="go on with an interrupted run kept with --workdir")
    ap.add_argument("--rescore", type=Path, metavar="WORKDIR",
                    help="score a finished run kept with --workdir again (after editing the equivalent list)")
    ap.add_argument("--compare-routes", action="store_true",
                    help="self-check: run the module through both routes and compare each mutant's verdict")
    ap.add_argument("--equivalents-markdown", action="store_true",
                    help="print the equivalent-mutant list as the Markdown table docs/testing.md quotes")
    ap.add_argument("--test-mutant", metavar="MODULE", help=argparse.SUPPRESS)
    ap.add_argument("--pristine", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.equivalents_markdown:
        print(equivalents_markdown())
        return 0
    module = args.test_mutant or args.module
    if not module:
        fail("--module is required")
    tests = args.tests.split(",") if args.tests else MODULES[module]["tests"]
    if args.test_mutant:
        return test_mutant(module, args.pristine, tests)
    if args.out.exists() and not args.out.is_dir():
        fail(f"--out {args.out} is not a folder")
    if args.retest_survivors or args.rescore or args.resume:
        workdir = args.retest_survivors or args.rescore or args.resume
        worker_run = (workdir / "mutants.json").is_file()
        if not worker_run and not (workdir / "session.sqlite").is_file():
            fail(f"no kept run (cosmic-ray session or worker mutants.json) in {workdir}")
        if worker_run and not args.rescore:
            fail("--resume and --retest-survivors read a cosmic-ray session (--route old); "
                 "a worker run is fast enough to run again")
        if args.resume:
            result = resume(module, workdir)
        elif args.retest_survivors:
            result = retest_survivors(module, workdir, tests, args.timeout)
        else:
            source = workdir / "source.py"
            source = source if source.is_file() else ROOT / module
            records = (json.loads((workdir / "mutants.json").read_text()) if worker_run
                       else session_records(workdir / "session.sqlite"))
            result = score(records, module, source.read_text())
        meta = json.loads((workdir / "run.json").read_text()) if (workdir / "run.json").is_file() else {}
        result.update(seconds=meta.get("seconds", float("nan")), jobs=meta.get("jobs", 0), tests=tests,
                      load=meta.get("load", float("nan")), route=meta.get("route", "old"))
        result.update({k: meta[k] for k in RUN_FIELDS if k in meta and k not in result})
        return finish(result, args)
    if args.jobs < 1:
        fail("--jobs must be at least 1")
    equivalent_sites(load_equivalent(module), (ROOT / module).read_text().splitlines())  # refused before the run
    if args.workdir and args.workdir.exists():  # an earlier run's mutants and results: never mixed with a new run
        fail(f"--workdir {args.workdir} exists: give a new folder (or --resume / --rescore it)")
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        fail("cosmic-ray is not installed: pip install -e '.[mutation]'")
    with contextlib.ExitStack() as stack:
        if args.workdir:
            args.workdir.mkdir(parents=True)
            workdir = args.workdir
        else:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="evo-wordle-mutation-")))
        load_before, cpu_before = os.getloadavg()[0], cpu_seconds()
        if args.compare_routes:
            return compare_routes(module, args.jobs, args.timeout, workdir, tests)
        if args.route == "worker":
            result = run_worker(module, args.jobs, args.timeout, workdir, tests)
        else:
            result = run(module, args.jobs, args.timeout, workdir, tests)
            result["route"] = "old"
        result["load_before"] = load_before
        result["cpu_seconds"] = round(cpu_seconds() - cpu_before, 1)  # the run and every process it waited for
        meta = {k: result[k] for k in RUN_FIELDS if k in result}
        (workdir / "run.json").write_text(json.dumps(meta))  # what --rescore reports again
    return finish(result, args)


def finish(result: dict, args: argparse.Namespace) -> int:
    """Print the report, write the JSON into --out and, if asked, the docs."""
    from evo_wordle.files import atomic_write_text  # not at the top: --test-mutant imports the copy's package

    print(report_text(result))
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / (Path(result["module"]).stem + ".json")
    atomic_write_text(path, json.dumps(result, indent=1, default=str))
    print(f"wrote {path}")
    if args.write_docs:
        write_docs(result)
        print(f"wrote {DOCS}")
    return 0


def score_row(r: dict) -> str:
    run = r["killed"] + r["survived"] + r["equivalent"]
    partial = f" of {run + r['pending']} (interrupted)" if r["pending"] else ""
    took = f"{r['seconds']:.0f} s, {_jobs(r['jobs'])}, load {r['load']:.0f}" if r.get("jobs") else "n/a"
    if r.get("jobs") and r.get("cpu_seconds") is not None:
        took = (f"{r['seconds']:.0f} s ({r['cpu_seconds']:.0f} s CPU), {_jobs(r['jobs'])}, "
                f"load {r.get('load_before', r['load']):.1f} → {r['load']:.1f}, {r.get('route', 'old')} route")
    return (f"| `{r['module']}` | {run}{partial} | {r['equivalent']} | {r['killed']} / {r['killed'] + r['survived']} | "
            f"**{100 * r['score']:.1f} %** | {took} | `{r.get('source', 'unknown')}` |")


def write_docs(r: dict) -> None:
    """Replace the module's row of the score table and the equivalent list in docs/testing.md."""
    from evo_wordle.files import atomic_write_text  # not at the top: --test-mutant imports the copy's package

    text = DOCS.read_text()
    head, rest = text.split("<!-- mutation:scores -->\n", 1)
    table, tail = rest.split("<!-- /mutation:scores -->", 1)
    rows = [x for x in table.splitlines() if x.strip()]
    mine = f"| `{r['module']}` |"
    rows = [score_row(r) if x.startswith(mine) else x for x in rows]
    if not any(x.startswith(mine) for x in rows):
        rows.append(score_row(r))
    text = head + "<!-- mutation:scores -->\n" + "\n".join(rows) + "\n<!-- /mutation:scores -->" + tail
    head, rest = text.split("<!-- mutation:equivalents -->\n", 1)
    _, tail = rest.split("<!-- /mutation:equivalents -->", 1)
    atomic_write_text(DOCS, head + "<!-- mutation:equivalents -->\n" + equivalents_markdown()
                    + "\n<!-- /mutation:equivalents -->" + tail)


if __name__ == "__main__":
    sys.exit(main())
