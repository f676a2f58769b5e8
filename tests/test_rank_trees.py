"""``rank --by tree`` (evolve/ranking.py, issue 14): the screen follows the first-guess bound
computed here from reference colours, each opener's total is its exhaustive optimum, the
ranking is their order, tree files replay, a rerun resumes, parallel runs agree."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import TreeSearch
from evo_wordle.evolve.ranking import build_opener, load_done, rank_by_tree, screen_openers
from evo_wordle.game import Settings

from .alarms import alarm
from .reference import reference_pattern
from .small_lists import IGHT, small_context


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    """26 answers and 70 allowed words, written to files for the CLI."""
    return small_context("test-rank", IGHT, slice(300, 316), slice(5, None, 233), 44)


@pytest.fixture()
def lists(small, tmp_path):
    allowed, answers = tmp_path / "allowed.txt", tmp_path / "answers.txt"
    allowed.write_text("\n".join(small.words.allowed) + "\n")
    answers.write_text("\n".join(small.words.answers) + "\n")
    return ["--allowed", str(allowed), "--answers", str(answers), "--candidates", "answers"]


def screen_by_hand(ctx: Context, k: int, guesses=None) -> list[str]:
    """First guesses (``guesses``: word indices, default every allowed word) by (n + Σ(2c − 1),
    Σ c², not an answer, list order), from reference colours."""
    answers = [ctx.words.allowed[a] for a in ctx.words.answer_index.tolist()]
    keys = []
    for i in range(len(ctx.words.allowed)) if guesses is None else guesses.tolist():
        g = ctx.words.allowed[i]
        codes = [reference_pattern(g, a) for a in answers]
        sizes = {c: codes.count(c) for c in codes}
        bound = len(answers) + sum(2 * c - 1 for code, c in sizes.items() if code != 242)
        keys.append((bound, sum(c * c for c in sizes.values()), g not in answers, i))
    return [ctx.words.allowed[key[3]] for key in sorted(keys)[:k]]


def test_ranking_is_the_order_of_exhaustive_totals(small, tmp_path):
    settings = Settings(candidates="answers", guess_from="allowed")
    result = rank_by_tree(small, settings, top=3, screen=6, folder=tmp_path / "trees")
    assert result["screened"] == screen_by_hand(small, 6)
    totals = {}
    for word in result["screened"]:
        search = TreeSearch(small, "allowed")
        tree = search.tree(small.words.answer_index, None, 6, small.words.index(word))
        totals[word] = sum(len(p) for p in tree.values())
    want = sorted(totals, key=lambda w: (totals[w], w))[:3]
    assert [r["opener"] for r in result["ranking"]] == want
    assert [r["total_guesses"] for r in result["ranking"]] == [totals[w] for w in want]
    assert all(r["lower_bound"] == r["total_guesses"] and r["rank"] == k for k, r in enumerate(result["ranking"], 1))
    again = rank_by_tree(small, settings, top=3, screen=6, folder=tmp_path / "trees")
    assert again["reused"] == 6 and again["built"] == 0 and again["ranking"] == result["ranking"]
    narrow = rank_by_tree(small, settings, top=3, screen=6, width=1, folder=tmp_path / "trees")
    assert narrow["built"] == 6  # other search settings: nothing reused
    assert all(r["total_guesses"] >= totals[r["opener"]] and r["lower_bound"] is None for r in narrow["ranking"])


def test_rank_by_tree_cli(small, lists, tmp_path, capsys):
    trees = tmp_path / "trees"
    args = ["rank", "--by", "tree", *lists, "--top", "2", "--screen", "4", "--trees", str(trees), "--json"]
    assert main([*args, "--quiet"]) == 0
    first = json.loads(capsys.readouterr().out)
    best = first["ranking"][0]["opener"]
    tree_file = trees / f"{best}.tree"
    assert tree_file.exists() and (trees / f"{best}.json").exists()
    assert main(["bench", "--solver", "ga-search", "--tree", str(tree_file), *lists, "--guess-from", "allowed",
                 "--json"]) == 0
    bench = json.loads(capsys.readouterr().out)
    assert bench["mean_guesses"] == pytest.approx(first["ranking"][0]["mean_guesses"])
    (trees / f"{best}.json").write_text("{not json")  # a broken record is rebuilt, not trusted
    assert main([*args, "--jobs", "2"]) == 0
    captured = capsys.readouterr()
    second = json.loads(captured.out)
    def order(result: dict) -> list[tuple]:
        return [(r["opener"], r["total_guesses"], r["lower_bound"]) for r in result["ranking"]]

    assert order(second) == order(first) and second["built"] == 1 and second["reused"] == 3
    assert best.upper() in captured.err  # the progress line of the rebuilt opener
    assert main(["rank", "--by", "tree", *lists, "--top", "3"]) == 0
    table = capsys.readouterr().out
    assert "exhaustive" in table and best.upper() in table
    # the totals and means are over a stated set: the table says which (not only --json)
    assert table.splitlines()[0] == (f"trees over {len(small.words.answer_index)} candidates (answers list), "
                                     "guesses from allowed, within 6 guesses")
    assert main(["rank", *lists, "--width", "3"]) == 2
    assert "--by tree" in capsys.readouterr().err
    assert main(["rank", "--by", "tree", *lists, "--top", "5", "--screen", "2"]) == 2
    assert np.all(np.diff([r["total_guesses"] for r in second["ranking"]]) >= 0)


def test_prescreen_keeps_the_openers_whose_quick_trees_total_least(small):
    settings = Settings(candidates="answers", guess_from="allowed")
    pool = screen_by_hand(small, 12)
    quick = {}
    for word in pool:
        try:
            tree = TreeSearch(small, "allowed", width=1).tree(small.words.answer_index, None, 6,
                                                              small.words.index(word))
            quick[word] = sum(len(p) for p in tree.values())
        except EvoWordleError:  # no quick tree within 6 guesses: ranked after every quick tree
            quick[word] = None
    # ties keep the bound's order
    want = sorted(pool, key=lambda w: (quick[w] is None, quick[w] or 0, pool.index(w)))
    result = rank_by_tree(small, settings, top=2, screen=4, prescreen=12)
    assert result["screened"] == want[:4]
    assert result["prescreen"] == [{"opener": w, "quick_total": quick[w]} for w in want]
    assert rank_by_tree(small, settings, top=2, screen=4)["prescreen"] == []  # off: the bound alone
    with pytest.raises(EvoWordleError, match="--prescreen"):
        rank_by_tree(small, settings, top=2, screen=4, prescreen=3)


def test_rank_cli_prescreens_ten_times_the_screen_by_default(small, lists, capsys):
    assert main(["rank", "--by", "tree", *lists, "--top", "2", "--screen", "3", "--json", "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["prescreen"]) == min(30, len(small.words.allowed))
    assert main(["rank", "--by", "tree", *lists, "--top", "2", "--screen", "3", "--prescreen", "0", "--json",
                 "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["screened"] == screen_by_hand(small, 3)


def test_screen_from_the_candidates_alone_follows_the_bound_among_them(small):
    """``--guess-from candidates``: the screen scores the answers as guesses (every one a candidate),
    not the whole allowed list's rows."""
    settings = Settings(candidates="answers", guess_from="candidates")
    answers = small.words.answer_index
    assert [small.words.allowed[g] for g in screen_openers(small, settings, 6)] == screen_by_hand(small, 6, answers)


def test_a_screen_as_wide_as_the_top_and_a_prescreen_as_wide_as_the_screen_are_allowed(small):
    settings = Settings(candidates="answers", guess_from="allowed")
    result = rank_by_tree(small, settings, top=2, screen=2, prescreen=2)
    assert len(result["ranking"]) == 2 and len(result["screened"]) == 2 and len(result["prescreen"]) == 2
    with pytest.raises(EvoWordleError, match=r"^--screen \(1\) must be at least --top \(2\)$"):
        rank_by_tree(small, settings, top=2, screen=1)


def test_openers_without_a_quick_tree_within_the_limit_go_after_every_quick_tree(small):
    """At a limit of 5 guesses most quick trees (one proposal per node) fail; those openers are
    prescreened last, so the screen keeps the ones that have a tree."""
    settings = Settings(candidates="answers", guess_from="allowed")
    result = rank_by_tree(small, settings, top=1, screen=2, depth=5, prescreen=30)
    totals = [q["quick_total"] for q in result["prescreen"]]
    have = [t for t in totals if t is not None]
    assert 0 < len(have) < len(totals)  # a mix, or the order of None is not tested
    assert totals == sorted(have) + [None] * (len(totals) - len(have))
    assert [r["opener"] for r in result["ranking"]][0] in result["screened"]
    assert result["screened"] == [q["opener"] for q in result["prescreen"][:2]]


def test_an_opener_record_times_its_own_search(small):
    before = time.perf_counter()
    record = build_opener(small, Settings(candidates="answers", guess_from="allowed"), small.words.index("burnt"),
                          None, 6)
    assert 0 <= record["seconds"] <= time.perf_counter() - before + 0.01


def test_the_trees_folder_may_be_nested_and_its_foreign_files_never_stop_the_reuse(small, tmp_path):
    """A folder path of several new levels is made; a broken file, a JSON list, a record of
    another format (even naming this search and a listed opener) and a record of another search
    are each skipped, and the records after them in name order are still reused."""
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "a" / "b" / "trees"
    first = rank_by_tree(small, settings, top=2, screen=3, folder=folder)
    records = sorted(folder.glob("*.json"))
    assert len(records) == 3
    header = json.loads(records[0].read_text())["search"]
    assert header["depth_limit"] == 6  # the game's guess limit when no depth is given
    (folder / "0broken.json").write_text("{not json")
    (folder / "0list.json").write_text("[1, 2]")
    foreign = json.loads(records[0].read_text())
    foreign["format"] = "something-else"
    (folder / "0foreign.json").write_text(json.dumps(foreign))
    other = json.loads(records[0].read_text())
    other["search"] = {**header, "depth_limit": 5}  # a record of another search: rebuilt, not reused
    (folder / "0other.json").write_text(json.dumps(other))
    again = rank_by_tree(small, settings, top=2, screen=3, folder=folder)
    assert again["reused"] == 3 and again["built"] == 0 and again["ranking"] == first["ranking"]
    assert load_done(small, folder, header).keys() == {r["opener"] for r in map(json.loads, map(Path.read_text,
                                                                                                records))}


def _edit(path: Path, **changes) -> None:
    record = json.loads(path.read_text())
    for key, value in changes.items():
        if value is _DROP:
            del record[key]
        else:
            record[key] = value
    path.write_text(json.dumps(record))


_DROP = object()


def _figures(result: dict) -> list[tuple]:
    """The ranking without the build times (a rebuilt opener takes its own)."""
    return [(r["opener"], r["total_guesses"], r["mean_guesses"], r["max_guesses"], r["lower_bound"])
            for r in result["ranking"]]


#: Records of this search whose figures are not their tree's: reused, they were ranked as
#: written (a total of 1 first) or were an internal error (a missing or non-numeric figure).
EDITED = {
    "total-one": {"total_guesses": 1, "mean_guesses": 0.04},
    "total-text": {"total_guesses": "x"},
    "mean-missing": {"mean_guesses": _DROP},
    "max-nan": {"max_guesses": float("nan")},
    "bound-below": {"lower_bound": 1},
    "total-true": {"total_guesses": True},
    "seconds-negative": {"seconds": -1.0},
    "seconds-true": {"seconds": True},
    "seconds-text": {"seconds": "x"},
    "seconds-inf": {"seconds": float("inf")},
    "mean-text": {"mean_guesses": "x"},
    "nodes-negative": {"nodes_expanded": -1},
    "nodes-true": {"nodes_expanded": True},
    "nodes-text": {"nodes_expanded": "x"},
}
#: The same, each from the record's own figures: the right number in the wrong type, or a mean a
#: hundredth off its total's.
EDITED_FROM = {
    "total-float": lambda r: {"total_guesses": float(r["total_guesses"])},
    "max-float": lambda r: {"max_guesses": float(r["max_guesses"])},
    "mean-off": lambda r: {"mean_guesses": r["mean_guesses"] * 1.01},
}


@pytest.mark.parametrize("kind", sorted(EDITED) + sorted(EDITED_FROM))
def test_an_edited_record_is_rebuilt_from_its_search_never_ranked(small, tmp_path, capsys, kind):
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    victim = folder / f"{first['ranking'][1]['opener']}.json"
    _edit(victim, **(EDITED[kind] if kind in EDITED else EDITED_FROM[kind](json.loads(victim.read_text()))))
    again = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    assert _figures(again) == _figures(first) and again["built"] == 1 and again["reused"] == 1
    assert f"opener record {victim}" in capsys.readouterr().err
    assert json.loads(victim.read_text())["total_guesses"] == first["ranking"][1]["total_guesses"]


def test_a_record_whose_tree_file_is_missing_or_not_its_own_is_rebuilt(small, tmp_path, capsys):
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    (a, b) = (r["opener"] for r in first["ranking"])
    (folder / f"{a}.tree").unlink()
    (folder / f"{b}.tree").write_text((folder / f"{b}.tree").read_text().replace(f": {b} ", f": {a} "))
    again = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    assert _figures(again) == _figures(first) and again["built"] == 2
    err = capsys.readouterr().err
    assert "has no usable tree file" in err and f"{b}.json" in err


def test_a_fifo_or_an_oversized_record_never_blocks_the_reuse(small, tmp_path):
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    (a, b) = (r["opener"] for r in first["ranking"])
    (folder / f"{a}.json").unlink()
    os.mkfifo(folder / f"{a}.json")  # reading it used to block for ever
    with open(folder / f"{b}.json", "a") as fh:
        fh.write(" " * (70 * 1024))
    with alarm(60):
        again = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    assert _figures(again) == _figures(first) and again["built"] == 2


def test_a_record_at_its_limits_is_reused(small, tmp_path, capsys):
    """Reused as it is: a tree exactly as deep as the search's depth limit, no node expanded (a
    count of 0), a record of exactly 64 KiB; one byte more is another file's, rebuilt."""
    settings = Settings(candidates="answers", guess_from="allowed")
    worst = rank_by_tree(small, settings, top=2, screen=2, folder=tmp_path / "probe")["ranking"][0]["max_guesses"]
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder, depth=worst)
    assert max(r["max_guesses"] for r in first["ranking"]) == worst
    (a, b) = (folder / f"{r['opener']}.json" for r in first["ranking"])
    _edit(a, nodes_expanded=0)
    text = b.read_text()
    b.write_text(text + " " * (64 * 1024 - len(text.encode())))
    again = rank_by_tree(small, settings, top=2, screen=2, folder=folder, depth=worst)
    assert again["reused"] == 2 and again["built"] == 0 and _figures(again) == _figures(first)
    assert "opener record" not in capsys.readouterr().err
    b.write_text(b.read_text() + " ")
    assert rank_by_tree(small, settings, top=2, screen=2, folder=folder, depth=worst)["built"] == 1


def test_a_record_of_another_search_is_rebuilt_not_reused(small, tmp_path):
    """A record names the search it came from: one of another depth limit, its opener still a
    word of the list, is not this search's figure."""
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    victim = folder / f"{first['ranking'][0]['opener']}.json"
    record = json.loads(victim.read_text())
    _edit(victim, search={**record["search"], "depth_limit": 5})
    again = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    assert again["built"] == 1 and again["reused"] == 1 and _figures(again) == _figures(first)


def test_a_record_whose_tree_file_is_another_opener_s_is_rebuilt(small, tmp_path, capsys):
    """A whole, valid tree of another opener under this opener's name is not its tree."""
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    (a, b) = (r["opener"] for r in first["ranking"])
    (folder / f"{b}.tree").write_text((folder / f"{a}.tree").read_text())
    again = rank_by_tree(small, settings, top=2, screen=2, folder=folder)
    assert again["built"] == 1 and again["reused"] == 1 and _figures(again) == _figures(first)
    assert "is not the opener's tree over every candidate" in capsys.readouterr().err


def test_records_of_a_search_without_a_depth_limit_are_reused(small, tmp_path):
    settings = Settings(candidates="answers", guess_from="allowed")
    folder = tmp_path / "trees"
    first = rank_by_tree(small, settings, top=2, screen=2, folder=folder, depth=None)
    again = rank_by_tree(small, settings, top=2, screen=2, folder=folder, depth=None)
    assert again["reused"] == 2 and again["built"] == 0 and _figures(again) == _figures(first)
