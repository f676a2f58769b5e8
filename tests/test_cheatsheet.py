"""``evo-wordle cheatsheet`` (evolve/cheatsheet.py, plots/cheatsheet.py): a tree file's second
guess per first feedback, checked against the tree's own paths recomputed here with the
reference colours; the JSON export round-trips; the figure is written; bad files exit 2."""

from __future__ import annotations

import csv
import json

import pytest

from evo_wordle import Context
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import TreeSearch
from evo_wordle.evolve.cheatsheet import feedback_letters
from evo_wordle.evolve.search import write_tree
from evo_wordle.game import Settings

from .reference import reference_pattern
from .small_lists import IGHT, small_context


@pytest.fixture(scope="module")
def small(cache_dir) -> Context:
    """30 answers and 90 allowed words."""
    return small_context("test-sheet", IGHT, slice(300, 320), slice(None, None, 197), 60)


@pytest.fixture(scope="module")
def tree_file(small, tmp_path_factory):
    """The optimal tree opening with TIGHT (an answer, so one feedback is "solved")."""
    settings = Settings(candidates="answers", guess_from="allowed")
    paths = TreeSearch(small, "allowed").tree(small.words.answer_index, None, 6, small.words.index("tight"))
    folder = tmp_path_factory.mktemp("sheet")
    for name in ("allowed", "answers"):
        (folder / f"{name}.txt").write_text("\n".join(getattr(small.words, name)) + "\n")
    path = folder / "t.tree"
    write_tree(small, path, paths, settings)
    return path, {small.words.allowed[a]: [small.words.allowed[g] for g in p] for a, p in paths.items()}


def _args(tree_file) -> list[str]:
    path, _ = tree_file
    return ["cheatsheet", "--tree", str(path), "--allowed", str(path.parent / "allowed.txt"),
            "--answers", str(path.parent / "answers.txt")]


def _digits(guess: str, answer: str) -> str:
    code, out = reference_pattern(guess, answer), []
    for _ in guess:
        out.append(str(code % 3))
        code //= 3
    return "".join(reversed(out))


def test_rows_follow_the_tree(tree_file, capsys):
    _, words = tree_file
    assert main([*_args(tree_file), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    groups: dict[str, list[str]] = {}
    for answer in words:
        groups.setdefault(_digits("tight", answer), []).append(answer)
    assert sheet["opener"] == "tight" and sheet["answers"] == len(words) == 30
    assert sum(r["answers"] for r in sheet["rows"]) == len(words)
    assert sheet["feedbacks"] == len(sheet["rows"]) == len(groups)
    assert [r["answers"] for r in sheet["rows"]] == sorted((r["answers"] for r in sheet["rows"]), reverse=True)
    for row in sheet["rows"]:
        members = groups[row["feedback"]]
        assert row["answers"] == len(members)
        lengths = [len(words[a]) for a in members]
        assert row["max_guesses"] == max(lengths) and row["mean_guesses"] == round(sum(lengths) / len(lengths), 4)
        assert sum(row["histogram"].values()) == len(members)
        if row["feedback"] == "22222":
            assert row["second_guess"] is None and members == ["tight"]
        else:
            assert {words[a][1] for a in members} == {row["second_guess"]}
    rows = sheet["rows"]
    ties = [(a["feedback"], b["feedback"]) for a, b in zip(rows, rows[1:]) if a["answers"] == b["answers"]]
    assert ties and all(a < b for a, b in ties)  # equal groups by feedback code (digits, most significant first)
    assert sheet["total_guesses"] == sum(len(p) for p in words.values())
    assert sheet["mean_guesses"] == round(sheet["total_guesses"] / 30, 4)
    assert sheet["max_guesses"] == max(len(p) for p in words.values())


def test_text_csv_export_and_figure(tree_file, tmp_path, capsys):
    _, words = tree_file
    plot, table, export = tmp_path / "sheet.png", tmp_path / "sheet.csv", tmp_path / "tree.json"
    assert main([*_args(tree_file), "--top", "4", "--plot", str(plot), "--csv", str(table),
                 "--export", str(export)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("TIGHT: 30 answers, total ")
    rows = list(csv.DictReader(table.open()))
    assert sum(int(r["answers"]) for r in rows) == 30
    body = out[2:6]  # the four biggest rows, then the rest summed up
    assert [line.split()[0] for line in body] == [r["feedback"] for r in rows[:4]]
    assert [line.split()[3] for line in body] == [(r["second_guess"] or "solved").upper() for r in rows[:4]]
    rest = sum(int(r["answers"]) for r in rows[4:])
    assert out[6].startswith(f"… {len(rows) - 4} more feedbacks with {rest} answers")
    assert plot.stat().st_size > 10_000 and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(export.read_text())
    assert data["format"] == "evo-wordle-tree" and data["version"] == 1
    assert data["paths"] == words and data["opener"] == "tight" and data["made_for"]["candidates"] == "answers"
    histories = {tuple((g, _digits(g, a)) for g in path[:k]) for a, path in words.items() for k in range(len(path))}
    assert data["tree"][""] == "tight" and len(data["tree"]) == len(histories)
    assert set(data["tree"].values()) == {path[k] for path in words.values() for k in range(len(path))}


def test_plot_data_match_the_rows(tree_file, tmp_path, small):
    from evo_wordle.evolve.cheatsheet import cheat_sheet, tree_file_paths
    from evo_wordle.plots.cheatsheet import plot_cheat_sheet

    path, _ = tree_file
    settings = Settings(candidates="answers", guess_from="allowed")
    sheet = cheat_sheet(small, tree_file_paths(small, path, settings))
    drawn = plot_cheat_sheet(sheet, tmp_path / "s.svg", settings.as_dict(), top=3, source=str(path)).data
    assert drawn["answers"] == [r["answers"] for r in sheet["rows"][:3]]
    assert [sum(s.values()) for s in drawn["segments"]] == drawn["answers"]
    assert drawn["rest_answers"] + sum(drawn["answers"]) == 30 and drawn["rest_rows"] == len(sheet["rows"]) - 3
    assert "t.tree" in drawn["caption"] and "opener TIGHT" in drawn["caption"]
    assert feedback_letters("tight", "02100") == ".Ig.."


def test_bad_tree_files_exit_2(tree_file, tmp_path, capsys):
    path, _ = tree_file
    cases = {"garbage.tree": "not a tree\n",
             "branch.tree": path.read_text().replace(": tight ", ": tight zzzzz ", 1),
             "empty.tree": "# nothing\n", "zero.tree": "", "blank.tree": "\n  \n"}
    for name, text in cases.items():
        bad = tmp_path / name
        bad.write_text(text)
        args = _args(tree_file)
        args[2] = str(bad)
        assert main(args) == 2, name
        err = capsys.readouterr().err.strip()
        lines = err.splitlines()  # a headerless file that is no tree: the error alone, no "old file" warning first
        assert len(lines) == 1 and lines[0].startswith("evo-wordle: error: ") and str(bad) in lines[0], (name, err)
    args = _args(tree_file)
    args[2] = str(tmp_path / "missing.tree")
    assert main(args) == 2 and "missing.tree" in capsys.readouterr().err


def test_the_strategy_file_beside_a_tree_is_named_for_what_it_is(tree_file, tmp_path, capsys):
    """`cheatsheet --tree t.json` (the strategy file `ga-tree --out` writes) warned that the file
    'records no settings (an old file)' and then failed on 'line 1: missing ':''; it now says the
    file is JSON, not a tree file, with no warning."""
    path, _ = tree_file
    strategy = tmp_path / "t.json"
    strategy.write_text(json.dumps({"format": "evo-wordle-strategy", "version": 1, "genome": {"opener": "tight"},
                                    "tree": {"": "tight"}}, indent=2))
    args = _args(tree_file)
    args[2] = str(strategy)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is JSON, not a tree file" in err and "--strategy" in err


def _grouped(tree_file, small) -> tuple[dict, int, dict[int, list[int]]]:
    """The tree's paths, its opener and its answers grouped by the opener's feedback code."""
    from evo_wordle.evolve.cheatsheet import tree_file_paths

    path, _ = tree_file
    paths = tree_file_paths(small, path, Settings(candidates="answers", guess_from="allowed"))
    opener = next(iter(paths.values()))[0]
    groups: dict[int, list[int]] = {}
    for answer in paths:
        groups.setdefault(int(small.table[opener, answer]), []).append(answer)
    return paths, opener, groups


def test_a_group_with_two_second_guesses_is_refused(tree_file, small):
    """load_tree refuses such files; callers handing cheat_sheet paths of their own get the same."""
    from evo_wordle.evolve.cheatsheet import cheat_sheet

    paths, opener, groups = _grouped(tree_file, small)
    code, members = next((c, m) for c, m in groups.items() if len({paths[a][1] for a in m if len(paths[a]) > 1}) == 1
                         and len(m) >= 2)
    other = next(w for w in range(len(small.words.allowed)) if w != paths[members[0]][1])
    changed = {**paths, members[0]: [opener, other, members[0]]}
    with pytest.raises(EvoWordleError) as info:
        cheat_sheet(small, changed)
    digits = "".join(str(code // 3 ** k % 3) for k in reversed(range(5)))
    assert str(info.value) == f"two second guesses after TIGHT:{digits}"


def test_means_are_rounded_to_four_decimals(tree_file, small):
    """Three answers of one group taking 3, 3 and 4 guesses: the row's and the sheet's mean are 3.3333."""
    from evo_wordle.evolve.cheatsheet import cheat_sheet

    paths, opener, groups = _grouped(tree_file, small)
    a, b, c = next(m for m in groups.values() if len(m) >= 3)[:3]
    second, third = [w for w in range(len(small.words.allowed)) if w not in (a, b, c, opener)][:2]
    sheet = cheat_sheet(small, {a: [opener, second, a], b: [opener, second, b], c: [opener, second, third, c]})
    assert sheet["total_guesses"] == 10 and sheet["max_guesses"] == 4
    assert sheet["mean_guesses"] == 3.3333 and sheet["rows"][0]["mean_guesses"] == 3.3333
    assert sheet["rows"][0]["histogram"] == {"3": 2, "4": 1}
