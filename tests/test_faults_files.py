"""Fault suite, files: hostile or damaged word lists, strategy and tree files, sweep folders and
checkpoints each give one line (exit 2) quickly and without big memory; writes never follow a
symlink and respect the umask; a checkpoint never runs code."""

from __future__ import annotations

import csv
import io
import json
import os
import pickle
import re
import resource
import stat
import time
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import files
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve import checkpoint
from evo_wordle.evolve.metaga import EvolveConfig, MetaGA
from evo_wordle.evolve.search import load_tree, write_tree
from evo_wordle.evolve.strategy import Strategy, load_strategy_file, save_strategy
from evo_wordle.game import Settings
from evo_wordle.sweep import RESULTS_FILE, SPEC_FILE, ResultsStore, SweepSpec, load_sweep
from evo_wordle.words import load_words

from .alarms import alarm

P1A = Settings(candidates="answers", guess_from="allowed")


class Budget:
    """Each hostile input must be refused within 1 s of CPU and without growing memory by 200 MB
    (CPU time, not wall time: other work on a shared machine does not count against it)."""

    def __enter__(self):
        self.t = time.process_time()
        self.rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return self

    def __exit__(self, *exc):
        assert time.process_time() - self.t < 1.0
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - self.rss < 200_000  # KB
        return False


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("evo-wordle: error: "), err
    assert "\x1b" not in err and "Traceback" not in err
    return err


# ------------------------------------------------------------------------------- word lists

WORDS = load_words().allowed[:300]
GOOD = ("\n".join(WORDS) + "\n").encode()


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as fh:
        fh.truncate(size)
    return path


#: What a file that is not a readable one of its kind is refused with.
SOURCES = {"huge": "too large", "folder": "is a folder", "fifo": "not a regular file"}


def _source(path: Path, kind: str, cap: int) -> Path:
    """A file bigger than ``cap`` (sparse: no disk used), a folder or a FIFO with no writer."""
    if kind == "huge":
        _sparse(path, cap + 1)
    elif kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    return path


LISTS = {
    "utf16-bom": ("\n".join(WORDS).encode("utf-16"), "UTF-16"),
    "nul-bytes": (GOOD[:60] + b"\0\0\0" + GOOD[60:], "NUL bytes"),
    "invalid-utf8": (GOOD + b"caf\xe9s\n", "not UTF-8"),
    "escape-sequence": (GOOD + b"\x1b[2Jabc\n", "non-letter word"),
    "latin-letters": (GOOD + "crème\n".encode(), "non-letter word"),
    "mixed-lengths": (GOOD + b"abcdef\n", "mixes word lengths [5, 6]"),
    "too-long-words": (b"abcdefghijk\nbcdefghijkl\n", "at most 10"),
    "duplicate": (GOOD + WORDS[17].encode() + b"\n", f"duplicate word: '{WORDS[17]}'"),
    "empty": (b"\n \n", "is empty"),
    "binary": (np.random.default_rng(3).bytes(2000).replace(b"\0", b"\1"), "not UTF-8"),
}


@pytest.mark.parametrize("kind", sorted(LISTS))
def test_bad_word_list_one_line(tmp_path, capsys, kind):
    data, message = LISTS[kind]
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    with Budget():
        assert main(["pattern", "crane", "slate", "--allowed", str(path)]) == 2
    assert message in one_line(capsys)


@pytest.mark.parametrize("kind", ["dev-zero", "huge-file", "folder", "missing"])
def test_word_list_sources_capped(tmp_path, capsys, kind):
    path = {"dev-zero": Path("/dev/zero"), "huge-file": _sparse(tmp_path / "big.txt", 5 * 2**30),
            "folder": tmp_path, "missing": tmp_path / "nope.txt"}[kind]
    with Budget():
        assert main(["pattern", "crane", "slate", "--allowed", str(path)]) == 2
    err = one_line(capsys)
    assert {"dev-zero": "is not a regular file", "huge-file": "too large", "folder": "is a folder",
            "missing": "not found"}[kind] in err


@pytest.mark.parametrize("what", ["answers", "allowed"])
def test_a_fifo_as_a_word_list_is_refused_before_it_is_opened(tmp_path, capsys, what):
    """`--answers /tmp/fifo` blocked for ever in the open (lists were read as streams); a word
    list is a regular file, refused otherwise as every other input file is (files.read_capped)."""
    fifo = _source(tmp_path / "fifo", "fifo", 0)
    with alarm(20):
        assert main(["pattern", "crane", "slate", f"--{what}", str(fifo)]) == 2
    assert one_line(capsys) == f"evo-wordle: error: {what} list {fifo} is not a regular file\n"
    with alarm(20), pytest.raises(ValueError, match=f"^{what} list {fifo} is not a regular file$"):
        load_words(**{what: fifo})


def test_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD)
    assert load_words(allowed=path).allowed == tuple(sorted(WORDS))


def test_duplicate_search_is_linear(tmp_path):
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [a + b + c + d + "s" for a in letters for b in letters for c in letters[:10] for d in letters[:12]]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(words) + "\n" + words[-1] + "\n")  # 81,120 words, last one repeated
    with Budget(), pytest.raises(EvoWordleError, match="duplicate word"):
        load_words(allowed=path)


# ---------------------------------------------------------------------------- strategy files


def _nested(depth: int) -> str:
    return '{"format": "evo-wordle-strategy", "x": ' + "[" * depth + "]" * depth + "}"


STRATEGY_FILES = {
    "deep-nesting": (_nested(200_000), "nested too deeply"),
    "moderate-nesting": (_nested(50), "nested too deeply"),
    "not-json": ("{genome: crane}", "not valid JSON"),
    "not-object": ("[1, 2]", "not an evo-wordle strategy file"),
    "escape-in-provenance": (None, "control character"),
    "invalid-utf8": (b'{"format": "\xff"}', "not UTF-8"),
    # json kept the last copy: a reader saw one opener, the bench played the other
    "repeated-key": ('{"format": "evo-wordle-strategy", "version": 1, "genome": {"opener": "crane", '
                     '"opener": "zzzzz"}}', "gives the key 'opener' twice in one object"),
}


@pytest.mark.parametrize("kind", sorted(STRATEGY_FILES))
def test_bad_strategy_file_one_line(tmp_path, capsys, kind):
    text, message = STRATEGY_FILES[kind]
    path = tmp_path / "s.json"
    if text is None:
        save_strategy(path, Strategy(), provenance={"note": "\x1b]0;owned\x07"})
    elif isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with Budget():
        assert main(["bench", "--strategy", str(path), "--games", "5"]) == 2
    assert message in one_line(capsys)


def test_a_key_given_twice_is_refused_in_every_json_file_and_at_any_depth(tmp_path, capsys):
    """Parameter files, sweep specifications, checkpoints: everything read_json reads."""
    with pytest.raises(EvoWordleError, match=r"^x f gives the key 'b' twice in one object$"):
        files.parse_json('{"a": [{"b": 1, "c": 2, "b": 1}]}', "f", "x")
    assert files.parse_json('{"a": [{"b": 1}, {"b": 1}], "c": {"b": 2}}', "f", "x") == {
        "a": [{"b": 1}, {"b": 1}], "c": {"b": 2}}  # the same key in two objects is fine
    with pytest.raises(EvoWordleError, match="with a control character twice"):
        files.parse_json(r'{"\u001b": 1, "\u001b": 2}', "f", "x")
    params = tmp_path / "p.json"
    params.write_text('{"format": "evo-wordle-params", "version": 1, "solver": "greedy", '
                      '"params": {"opener": "crane", "opener": "tales"}}')
    assert main(["bench", "--params", str(params), "--games", "5"]) == 2
    assert f"parameter file {params} gives the key 'opener' twice" in one_line(capsys)


def test_a_strategy_opener_outside_the_list_names_the_file(tmp_path, capsys):
    path = tmp_path / "s.json"
    save_strategy(path, Strategy(opener="zzzzz"))
    assert main(["bench", "--strategy", str(path), "--games", "5"]) == 2
    err = capsys.readouterr().err  # (a warning first: the file records no settings)
    assert err.count("error:") == 1 and "Traceback" not in err
    assert f"strategy file {path}: its opener 'zzzzz' is not an allowed word" in err.splitlines()[-1]
    assert main(["bench", "--strategy", str(path), "--games", "5", "--opener", "crane"]) == 0  # overridden
    capsys.readouterr()


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_strategy_file_sources_capped(tmp_path, capsys, kind):
    path = _source(tmp_path / "s.json", kind, 16 * 2**20)
    with Budget():
        assert main(["bench", "--strategy", str(path), "--games", "5"]) == 2
    assert SOURCES[kind] in one_line(capsys)


def test_strategy_file_round_trip_still_works(tmp_path):
    path = tmp_path / "s.json"
    save_strategy(path, Strategy(opener="crane"), provenance={"seed": 3})
    genome, prov, tree = load_strategy_file(path)
    assert genome.opener == "crane" and prov == {"seed": 3} and tree == {}


# -------------------------------------------------------------------------------- tree files


def _tree_line(ctx, answer: str, guesses: list[str]) -> str:
    return f"{answer}: {' '.join(guesses)}"


def test_tree_reader_is_linear(ctx, tmp_path):
    """A 60 KB line cost 154 s before; now it is refused at once."""
    path = tmp_path / "t.txt"
    path.write_text("crane: " + " ".join(["slate"] * 10_000) + " crane\n")
    with Budget(), pytest.raises(EvoWordleError, match="longer than 1000 characters"):
        load_tree(ctx, path)


TREES = {
    "too-many-guesses": ("crane: " + " ".join(["slate"] * 30) + " crane\n", "more than 24 guesses"),
    "second-path": ("crane: slate crane\ncrane: slate crane\n", "a second path for 'crane'"),
    "no-colon": ("crane slate crane\n", "missing ':'"),
    "unknown-word": ("crane: zzzzz crane\n", "not an allowed word"),
    "not-ending-with-answer": ("crane: slate\n", "does not end with the answer"),
    "conflict": ("crane: slate crane\ncrate: trace crate\n", "two guesses after the same feedback"),
    "invalid-utf8": (b"crane: sl\xffte crane\n", "not UTF-8"),
    "escape": ("crane: \x1b[31m crane\n", "not a 5-letter word"),
}


@pytest.mark.parametrize("kind", sorted(TREES))
def test_bad_tree_file(ctx, tmp_path, kind):
    text, message = TREES[kind]
    path = tmp_path / "t.txt"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with Budget(), pytest.raises(EvoWordleError, match=message) as err:
        load_tree(ctx, path)
    assert "\x1b" not in str(err.value)


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_tree_sources_capped(ctx, tmp_path, kind):
    path = _source(tmp_path / "t.txt", kind, 4 * 2**20)
    with Budget(), pytest.raises(EvoWordleError, match=SOURCES[kind]):
        load_tree(ctx, path)


def test_tree_round_trip(ctx, tmp_path):
    path = tmp_path / "t.txt"
    w = ctx.words
    write_tree(ctx, path, {w.index("crane"): [w.index("slate"), w.index("crane")],
                           w.index("slate"): [w.index("slate")]})
    tree = load_tree(ctx, path)
    assert tree[""] == w.index("slate") and len(tree) == 2


@pytest.mark.parametrize("cap,code", [(4, 2), (5, 0)])
def test_a_cheat_sheet_under_a_cap_its_tree_exceeds_is_refused(capsys, cap, code):
    """`cheatsheet --max-guesses 3` of a tree needing 5 guesses printed the tree's mean 3.4205 and
    worst 5 as if every answer were solved under the cap (bench --tree plays the cap: 42 % lost)."""
    tree = Path(__file__).resolve().parent.parent / "data" / "strategies" / "answers-known-salet.tree"
    assert main(["cheatsheet", "--tree", str(tree), "--max-guesses", str(cap), "--top", "1", "--json"]) == code
    captured = capsys.readouterr()
    if code:
        assert captured.out == "" and captured.err.splitlines()[-1].endswith(
            f"needs 5 guesses for some answers, more than max_guesses {cap}: a cheat sheet shows the tree's own "
            "games (give a cap of 5 or more; bench --tree plays it under a lower cap)")
    else:
        assert json.loads(captured.out)["settings"]["max_guesses"] == 5


# ------------------------------------------------------------------------------ sweep folders


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory, cache_dir):
    out = tmp_path_factory.mktemp("faults") / "sweep"
    assert main(["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "opener=tares,crane",
                 "--seeds", "1", "--games", "5", "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    return out


def _copy(sweep_dir: Path, tmp_path: Path) -> Path:
    out = tmp_path / "copy"
    out.mkdir()
    for name in (SPEC_FILE, RESULTS_FILE):
        (out / name).write_bytes((sweep_dir / name).read_bytes())
    return out


def _spec(out: Path, change) -> None:
    doc = json.loads((out / SPEC_FILE).read_text())
    change(doc)
    (out / SPEC_FILE).write_text(json.dumps(doc))


def _csv(out: Path, change) -> None:
    lines = (out / RESULTS_FILE).read_text().splitlines()
    (out / RESULTS_FILE).write_text("\n".join(change(lines)) + "\n")


def _cell(column: str, value: str):
    def change(lines):
        header = lines[0].split(",")
        import csv
        import io

        rows = list(csv.reader(io.StringIO("\n".join(lines[1:]))))
        rows[0][header.index(column)] = value
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([header, *rows])
        return buf.getvalue().splitlines()

    return lambda out: _csv(out, change)


def _repeat_last_histogram_key(lines: list[str]) -> list[str]:
    """The first row's histogram with its last key given once more, at its own count: the row's
    figures still hold for the copy json keeps."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    column = rows[0].index("histogram")
    hist = json.loads(rows[1][column])
    key = list(hist)[-1]
    rows[1][column] = json.dumps(hist)[:-1] + f', "{key}": {hist[key]}}}'
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().splitlines()



def _mean_twice(lines: list[str]) -> list[str]:
    """results.csv with its mean column given again at the end, each row's own mean in it (every
    figure still holds: csv.DictReader read the row from the second copy without a word)."""
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    at = rows[0].index("mean")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([*row, row[at]] for row in rows if row)
    return out.getvalue().splitlines()

SWEEPS = {
    "huge-grid": (lambda o: _spec(o, lambda d: d.update(grid={f"k{i}": list(range(10)) for i in range(10)})),
                  "10,000,000,000 configurations"),
    "many-seeds": (lambda o: _spec(o, lambda d: d.update(seeds=10**9)), "more than 10,000"),
    "nested-spec": (lambda o: (o / SPEC_FILE).write_text("[" * 100_000 + "]" * 100_000), "nested too deeply"),
    "spec-not-object": (lambda o: (o / SPEC_FILE).write_text("[]"), "not a JSON object"),
    "spec-unknown-key": (lambda o: _spec(o, lambda d: d.update(evil=1)), "unexpected keyword"),
    "spec-grid-not-list": (lambda o: _spec(o, lambda d: d.update(grid={"opener": "tares"})), "list of plain"),
    # a value listed twice (or none at all), which sweep refuses: report showed the configuration
    # twice and counted its rows for both (6 of 6 benches done from 4 rows)
    "spec-grid-repeats-a-value": (lambda o: _spec(o, lambda d: d["grid"]["opener"].append(d["grid"]["opener"][0])),
                                  "repeated value in opener"),
    "spec-grid-no-values": (lambda o: _spec(o, lambda d: d["grid"].update(opener=[])), "no values for opener"),
    "spec-key-twice": (lambda o: (o / SPEC_FILE).write_text((o / SPEC_FILE).read_text().replace(
        '"seeds": 1', '"seeds": 1, "seeds": 1')), "gives the key 'seeds' twice"),
    "spec-seeds-text": (lambda o: _spec(o, lambda d: d.update(seeds="3")), "seeds must be an integer"),
    "escape-in-solver": (lambda o: _spec(o, lambda d: d.update(solver="\x1b[2Jgreedy")), "control character"),
    "spec-invalid-utf8": (lambda o: (o / SPEC_FILE).write_bytes(b'{"solver": "\xff"}'), "not UTF-8"),
    "spec-folder": (lambda o: ((o / SPEC_FILE).unlink(), (o / SPEC_FILE).mkdir()), "is a folder"),
    "spec-fifo": (lambda o: ((o / SPEC_FILE).unlink(), os.mkfifo(o / SPEC_FILE)), "not a regular file"),
    "spec-huge": (lambda o: _sparse(o / SPEC_FILE, 2 * 2**20), "too large"),
    "histogram-bomb": (_cell("histogram", '{"3":6000000000}'), "add up to 6000000000"),
    # json kept the last copy: {"4": 1, "4": 2} counted as 2 games at 4 guesses, figures to match
    "histogram-key-twice": (lambda o: _csv(o, _repeat_last_histogram_key), "histogram gives '"),
    # two rows of one bench (a manual merge of two runs): the first was reported, the other dropped
    "second-row-other-figures": (lambda o: _csv(o, lambda ls: [*ls, ls[2].replace("crane,", "tares,", 1)]),
                                 "a second row for the same configuration and seed with other figures"),
    # a row the grid cannot have made (an edited or mixed folder) was skipped without a word
    "row-value-not-in-the-grid": (lambda o: _csv(o, lambda ls: [*ls, ls[1].replace("tares,", "slate,", 1)]),
                                  "line 4: opener = 'slate' is not in sweep.json's grid (tares, crane)"),
    # so was a line of too few or too many cells (whole lines are written; a torn last one is cut)
    "row-short": (lambda o: _csv(o, lambda ls: [*ls[:2], "tares,0,1", *ls[2:]]),
                  "line 3 has 3 cells, not the header's 11"),
    "row-long": (lambda o: _csv(o, lambda ls: [*ls, ls[1] + ",x"]), "line 4 has 12 cells, not the header's 11"),
    # a solver no one registered was reported as that solver's sweep
    "spec-unknown-solver": (lambda o: _spec(o, lambda d: d.update(solver="nosuch")),
                            "names solver 'nosuch', which is not a registered solver (known: average-position-rank, "),
    # settings no game has were blamed on results.csv's first row, and not seen with no row
    "spec-settings-cap-zero": (lambda o: _spec(o, lambda d: d["settings"].update(max_guesses=0)),
                               "holds settings no game has: --max-guesses must be between 1 and 1000, not 0"),
    "spec-settings-no-rows": (lambda o: (_spec(o, lambda d: d["settings"].update(hard="yes")),
                                         (o / RESULTS_FILE).unlink()), "holds settings no game has: --hard must be"),
    # several boards, which no sweep plays, were reported as the game of the rows
    "spec-settings-boards": (lambda o: _spec(o, lambda d: d["settings"].update(boards=4)),
                             "holds settings no game has: a sweep plays one board, not 4"),
    # a record of a file played on other lists, in another shape, was skipped: its warning lost
    "spec-params-file-note-not-object": (lambda o: _spec(o, lambda d: d.update(params_file_other_lists=5)),
                                         "params_file_other_lists is not an object of text fields file, lists_differ"),
    "spec-grid-files-note-not-list": (lambda o: _spec(o, lambda d: d.update(grid_files_other_lists={"file": "f"})),
                                      "grid_files_other_lists is not a list of objects of text fields param, file"),
    "spec-grid-files-note-missing-field": (
        lambda o: _spec(o, lambda d: d.update(grid_files_other_lists=[{"param": "strategy", "file": "f"}])),
        "grid_files_other_lists is not a list of objects"),
    "histogram-not-dict": (_cell("histogram", "[1,2]"), "not guesses"),
    "histogram-nested": (_cell("histogram", "[" * 5000 + "]" * 5000), "line 2"),
    "games-huge": (_cell("games", "100000000000"), "games = 100000000000"),
    "mean-not-number": (_cell("mean", "abc"), "line 2"),
    # figures that parse but disagree with the row's own histogram or the sweep: once shown as
    # the best configuration (mean 1.000), a -100 % fail rate, or an extra seed
    "mean-not-the-histograms": (_cell("mean", "1.0"), "mean = 1.0, but the histogram's"),
    "mean-nan": (_cell("mean", "nan"), "mean = nan"),
    "win-rate-above-one": (_cell("win_rate", "2.0"), "win_rate = 2.0 does not fit"),
    # an infinite (or overflowing) win rate was an internal error (OverflowError in round)
    "win-rate-inf": (_cell("win_rate", "inf"), "win_rate = inf does not fit"),
    "win-rate-overflows": (_cell("win_rate", "1e308"), "win_rate = 1e+308 does not fit"),
    "win-rate-nan": (_cell("win_rate", "nan"), "win_rate = nan does not fit"),
    "fail-rate-negative": (_cell("fail_rate", "-1.0"), "fail_rate = -1.0 is not 1 - win_rate"),
    "worst-not-the-histograms": (_cell("worst_guesses", "99"), "worst_guesses = 99"),
    "seed-outside-the-sweep": (_cell("seed", "7"), "seed = 7, not one of the sweep's 1"),
    "bench-seed-not-the-seeds": (_cell("bench_seed", "12345"), "bench_seed = 12345 is not"),
    "seconds-negative": (_cell("seconds", "-inf"), "seconds = -inf"),
    "histogram-above-the-cap": (_cell("histogram", '{"0":1,"3":4}'), "outside 1..9"),
    "games-not-the-sweeps": (lambda o: _spec(o, lambda d: d.update(games=6)), "the sweep plays 6"),
    "spec-seeds-zero": (lambda o: _spec(o, lambda d: d.update(seeds=0)), "seeds (0) and games (5) must be"),
    "spec-base-seed-negative": (lambda o: _spec(o, lambda d: d.update(base_seed=-1)), "base_seed (-1) from 0"),
    # a grid narrowed in sweep.json: its rows of two openers merged into one configuration
    "results-of-another-grid": (lambda o: _spec(o, lambda d: d.update(grid={})),
                                "has the column(s) opener, which sweep.json does not name"),
    "missing-column": (lambda o: _csv(o, lambda ls: [ls[0].replace(",mean,", ",avg,"), *ls[1:]]),
                       "lacks the column(s) mean"),
    # a column named twice: csv.DictReader kept the second cell and read the row on without a word
    "results-column-twice": (lambda o: _csv(o, _mean_twice), "names the column 'mean' twice"),
    "results-invalid-utf8": (lambda o: (o / RESULTS_FILE).write_bytes(
        (o / RESULTS_FILE).read_bytes() + b"tares,\xff\n"), "not UTF-8"),
    "results-escape": (_cell("version", "\x1b[2J"), "control character"),
    "results-folder": (lambda o: ((o / RESULTS_FILE).unlink(), (o / RESULTS_FILE).mkdir()), "is a folder"),
    "results-fifo": (lambda o: ((o / RESULTS_FILE).unlink(), os.mkfifo(o / RESULTS_FILE)), "not a regular file"),
    "results-huge": (lambda o: _sparse(o / RESULTS_FILE, 65 * 2**20), "too large"),
}


@pytest.mark.parametrize("kind", sorted(SWEEPS))
def test_hostile_sweep_folder_refused_by_report(sweep_dir, tmp_path, capsys, kind):
    damage, message = SWEEPS[kind]
    out = _copy(sweep_dir, tmp_path)
    damage(out)
    with Budget():
        assert main(["report", str(out)]) == 2
    assert message in one_line(capsys)


def test_a_copied_row_is_still_dropped_as_before(sweep_dir, tmp_path, capsys):
    out = _copy(sweep_dir, tmp_path)
    lines = (out / RESULTS_FILE).read_text().splitlines()
    assert lines[2].startswith("crane,") and lines[1].startswith("tares,")
    _csv(out, lambda ls: [*ls, ls[1]])
    assert main(["report", str(out)]) == 0
    assert "2 of 2 benches done" in capsys.readouterr().out


#: The damaged results.csv files of SWEEPS (sweep.json intact): what a resume reads as report does
#: (a folder or FIFO in its place is named by the resume's --out check; another grid by its spec check).
RESULTS_DAMAGE = sorted(k for k in SWEEPS if k.startswith(("histogram-", "row-", "games-huge", "mean-", "win-rate-",
                                                            "fail-rate-", "worst-", "seed-", "bench-seed-", "seconds-",
                                                            "second-row-", "missing-column", "results-"))
                        and k not in ("results-folder", "results-fifo", "results-of-another-grid"))


def _resume(out: Path) -> int:
    """The sweep that made ``sweep_dir``, resumed in ``out``."""
    return main(["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "opener=tares,crane",
                 "--seeds", "1", "--games", "5", "--out", str(out), "--jobs", "1", "--quiet"])


@pytest.mark.parametrize("kind", RESULTS_DAMAGE)
def test_a_resume_and_report_refuse_a_damaged_results_file_in_the_same_line(sweep_dir, tmp_path, capsys, kind):
    """results.csv had two readers with their own checks: a resume skipped a line of the wrong cell
    count, kept the first of two rows of one bench, and read a mean of "abc" or a row of another
    grid without a word (or with other words than report's), adding benches to a folder no report
    can read.  Both now read it with one parser: the same one line, and nothing appended."""
    out = _copy(sweep_dir, tmp_path)
    SWEEPS[kind][0](out)
    before = (out / RESULTS_FILE).read_bytes()
    assert main(["report", str(out)]) == 2
    refused = one_line(capsys)
    assert SWEEPS[kind][1] in refused
    assert _resume(out) == 2
    assert one_line(capsys) == refused
    assert (out / RESULTS_FILE).read_bytes() == before


def test_a_copied_row_is_dropped_by_a_resume_and_report_alike(sweep_dir, tmp_path, capsys):
    out = _copy(sweep_dir, tmp_path)
    _csv(out, lambda ls: [*ls, ls[1]])
    before = (out / RESULTS_FILE).read_bytes()
    assert main(["report", str(out)]) == 0
    assert "2 of 2 benches done" in capsys.readouterr().out
    assert _resume(out) == 0
    assert "2/2 benches" in capsys.readouterr().out and (out / RESULTS_FILE).read_bytes() == before


def test_plot_refuses_a_hostile_sweep_too(sweep_dir, tmp_path, capsys):
    out = _copy(sweep_dir, tmp_path)
    SWEEPS["histogram-bomb"][0](out)
    with Budget():
        assert main(["plot", "heatmap", str(out), "--out", str(tmp_path / "p.png")]) == 2
    assert "add up to" in one_line(capsys)


def test_report_of_an_intact_copy_works(sweep_dir, tmp_path, capsys):
    out = _copy(sweep_dir, tmp_path)
    assert main(["report", str(out)]) == 0
    assert "best:" in capsys.readouterr().out
    spec, rows = load_sweep(out)
    assert len(rows) == 2 and spec.solver == "greedy"


def test_report_on_a_file_or_missing_folder(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    assert main(["report", str(tmp_path / "f")]) == 2
    assert "not a sweep folder" in one_line(capsys)
    assert main(["report", str(tmp_path / "none")]) == 2
    assert "not a sweep folder" in one_line(capsys)


# ---------------------------------------------------------------------- symlinks and umask


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    return victim


def test_atomic_write_replaces_a_symlink_instead_of_following_it(tmp_path):
    victim = _victim(tmp_path)
    link = tmp_path / "out.json"
    link.symlink_to(victim)
    files.atomic_write_text(link, "new")
    assert victim.read_text() == "precious" and not link.is_symlink() and link.read_text() == "new"


def test_atomic_write_npy_and_no_temp_left(tmp_path):
    path = tmp_path / "a.npy"
    files.atomic_write_npy(path, np.arange(5))
    assert np.array_equal(np.load(path), np.arange(5)) and sorted(os.listdir(tmp_path)) == ["a.npy"]
    with pytest.raises(ValueError):
        files.atomic_write_npy(path, np.array([object()]))  # never a pickle
    assert sorted(os.listdir(tmp_path)) == ["a.npy"] and np.array_equal(np.load(path), np.arange(5))


@pytest.mark.parametrize("mask,mode", [(0o077, 0o600), (0o022, 0o644), (0o002, 0o664)])
def test_written_files_respect_the_umask(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        files.atomic_write_text(tmp_path / "x.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "x.txt").st_mode) == mode


def test_results_csv_symlink_is_not_written_through(tmp_path):
    victim = _victim(tmp_path)
    (tmp_path / "sweep").mkdir()
    link = tmp_path / "sweep" / RESULTS_FILE
    link.symlink_to(victim)
    with pytest.raises(EvoWordleError, match="symlink"):
        ResultsStore(link, SweepSpec(solver="greedy", grid={"a": [1]}))
    assert victim.read_text() == "precious"


def test_sweep_spec_symlink_is_not_written_through(tmp_path, capsys, cache_dir):
    victim = _victim(tmp_path)
    out = tmp_path / "sweep"
    out.mkdir()
    (out / SPEC_FILE).symlink_to(tmp_path / "absent.json")  # dangling: would be created through
    (out / f".{SPEC_FILE}.tmp").symlink_to(victim)  # the old fixed temp name
    assert main(["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "opener=tares",
                 "--seeds", "1", "--games", "2", "--out", str(out), "--jobs", "1", "--quiet"]) == 2
    assert not (tmp_path / "absent.json").exists() and victim.read_text() == "precious"
    capsys.readouterr()


def test_strategy_output_symlink_not_followed(tmp_path):
    victim = _victim(tmp_path)
    link = tmp_path / "s.json"
    link.symlink_to(victim)
    save_strategy(link, Strategy())
    assert victim.read_text() == "precious" and load_strategy_file(link)[0] == Strategy()


# -------------------------------------------------------------------------------- checkpoints


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory, ctx):
    cfg = EvolveConfig(settings=P1A, train_size=12, holdout_size=6, mu=3, lambda_=3, generations=1, seed=5)
    path = tmp_path_factory.mktemp("ckpt") / "run.ckpt"
    MetaGA(ctx, cfg).run(path)
    return cfg, path, json.loads(path.read_text())


class Evil:
    def __reduce__(self):
        return (os.system, (f"touch {os.environ.get('EVIL_TARGET', '/tmp/evo-wordle-pwned')}",))


def test_pickle_checkpoint_never_runs(ctx, ckpt, tmp_path, monkeypatch):
    cfg, _, _ = ckpt
    target = tmp_path / "pwned"
    monkeypatch.setenv("EVIL_TARGET", str(target))
    path = tmp_path / "evil.ckpt"
    path.write_bytes(pickle.dumps({"config": cfg.fingerprint(), "x": Evil()}))
    with Budget(), pytest.raises(EvoWordleError, match="not valid JSON|not UTF-8"):
        MetaGA.resume(ctx, cfg, path)
    assert not target.exists()


def _edit(doc: dict, path: list, value) -> dict:
    doc = json.loads(json.dumps(doc))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


CHECKPOINTS = {
    "not-object": (lambda d: [d], "not an evo-wordle checkpoint"),
    "other-format": (lambda d: {**d, "format": "pickle"}, "not an evo-wordle checkpoint"),
    "other-version": (lambda d: {**d, "version": 99}, "unsupported version"),
    "other-config": (lambda d: _edit(d, ["config", "mu"], 4), "different settings (mu)"),
    "no-config": (lambda d: {**d, "config": None}, "no configuration"),
    "generation-negative": (lambda d: {**d, "generation": -1}, "generation"),
    "generation-text": (lambda d: {**d, "generation": "1"}, "generation"),
    "population-short": (lambda d: {**d, "population": d["population"][:1]}, "population has 1 entries"),
    "population-long": (lambda d: {**d, "population": d["population"] * 1000}, "population has 3000"),
    "gene-not-word": (lambda d: _edit(d, ["population", 0, 0, 0], "zzzzz"), "opener is not an allowed word"),
    "gene-code": (lambda d: _edit(d, ["population", 0, 0, 0], "__import__('os')"), "opener"),
    "gene-nan": (lambda d: _edit(d, ["population", 0, 0, 1], float("nan")), "not finite"),
    "gene-text": (lambda d: _edit(d, ["population", 0, 0, 2], "0.5"), "not a number"),
    "gene-bool": (lambda d: _edit(d, ["population", 0, 0, -1], 1), "true/false"),
    "genes-short": (lambda d: _edit(d, ["population", 0, 0], ["crane"]), "entries, not"),
    "fitness-text": (lambda d: _edit(d, ["population", 0, 1], ["x"]), "fitness is not a number"),
    # a planted score below any mean guess count was taken as the best genome and chose the winner
    "fitness-negative": (lambda d: _edit(d, ["population", 0, 1], [-1.0]), "fitness is -1.0: a mean guess count"),
    "fitness-nan": (lambda d: _edit(d, ["population", 0, 1], [float("nan")]), "fitness is not finite"),
    "hof-fitness-zero": (lambda d: _edit(d, ["hof", 0, 1], [0.0]), "hof[0] fitness is 0.0"),
    # a score no game gives (above the cap of 9 plus the penalty of 1) was read as a fitness
    "hold-cache-above-every-game-lost": (lambda d: _edit(d, ["hold_cache", 0, 1], 10.5),
                                         "hold_cache[0] value is 10.5: above 10.0, the guess cap plus the penalty"),
    "logbook-best-above-every-game-lost": (lambda d: _edit(d, ["logbook", 0, "best"], 50.0),
                                           "logbook[0].best is 50.0: above 10.0"),
    "cache-value-zero": (lambda d: _edit(d, ["cache", 0, 1], 0.5), "cache[0] value is 0.5"),
    "hold-cache-nan": (lambda d: _edit(d, ["hold_cache", 0, 1], float("nan")), "hold_cache[0] value is not finite"),
    "hof-fitness-not-the-caches": (lambda d: _edit(d, ["hof", 0, 1], [d["hof"][0][1][0] + 0.5]),
                                   "hof[0] fitness"),
    "hof-too-big": (lambda d: {**d, "hof": d["population"] * 10}, "more than"),
    "cache-entry": (lambda d: {**d, "cache": [[["crane"], 1.0]]}, "cache[0]"),
    "logbook-long": (lambda d: {**d, "logbook": d["logbook"] * 50}, "logbook has 100 entries, not 2"),
    "logbook-text": (lambda d: _edit(d, ["logbook", 0, "best"], "x"), "logbook[0].best"),
    # a logbook's values were written out by --log as they were: NaN, negatives
    "logbook-nan": (lambda d: _edit(d, ["logbook", 0, "best"], float("nan")), "logbook[0].best is NaN"),
    "logbook-mean-zero": (lambda d: _edit(d, ["logbook", 1, "mean"], 0.0), "logbook[1].mean is 0.0: a mean guess"),
    "logbook-nevals-negative": (lambda d: _edit(d, ["logbook", 1, "nevals"], -3), "logbook[1].nevals is -3: negative"),
    "logbook-nevals-float": (lambda d: _edit(d, ["logbook", 1, "nevals"], 2.5), "logbook[1].nevals is 2.5"),
    "logbook-gen-ahead": (lambda d: _edit(d, ["logbook", 1, "gen"], 7),
                          "logbook[1].gen is 7, not 1: a run records each generation once, in order"),
    "logbook-seconds-negative": (lambda d: _edit(d, ["logbook", 1, "seconds"], -5), "logbook[1].seconds is -5"),
    "logbook-seconds-inf": (lambda d: _edit(d, ["logbook", 1, "seconds"], float("inf")),
                            "logbook[1].seconds is not finite"),
    "logbook-other-negative": (lambda d: _edit(d, ["logbook", 0, "note"], -1), "logbook[0].note is -1: negative"),
    "seconds-negative": (lambda d: {**d, "seconds": -1.0}, "seconds is -1.0: a time is not negative"),
    "py-rng-short": (lambda d: _edit(d, ["py_rng", 1], [1, 2, 3]), "py_rng state has 3"),
    "py-rng-big": (lambda d: _edit(d, ["py_rng", 1, 0], 2**40), "32-bit"),
    "py-rng-version": (lambda d: _edit(d, ["py_rng", 0], 2), "Mersenne"),
    "np-rng-other": (lambda d: _edit(d, ["np_rng", "bit_generator"], "MT19937"), "generator state"),
    "np-rng-text": (lambda d: {**d, "np_rng": "PCG64"}, "np_rng is not"),
    "seconds-inf": (lambda d: {**d, "seconds": float("inf")}, "seconds is not finite"),
    "escape-string": (lambda d: _edit(d, ["population", 0, 0, 0], "\x1b[2J"), "control character"),
}


@pytest.mark.parametrize("kind", sorted(CHECKPOINTS))
def test_damaged_checkpoint_refused(ctx, ckpt, tmp_path, kind):
    cfg, _, doc = ckpt
    change, message = CHECKPOINTS[kind]
    path = tmp_path / "bad.ckpt"
    path.write_text(json.dumps(change(doc)))
    with Budget(), pytest.raises(EvoWordleError, match=re.escape(message)):
        MetaGA.resume(ctx, cfg, path)


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_checkpoint_sources_capped(ctx, ckpt, tmp_path, kind):
    cfg, _, _ = ckpt
    path = _source(tmp_path / "bad.ckpt", kind, checkpoint.MAX_BYTES)
    with Budget(), pytest.raises(EvoWordleError, match=SOURCES[kind]):
        MetaGA.resume(ctx, cfg, path)


def test_deeply_nested_checkpoint(ctx, ckpt, tmp_path):
    cfg, _, _ = ckpt
    path = tmp_path / "bad.ckpt"
    path.write_text("[" * 200_000 + "]" * 200_000)
    with Budget(), pytest.raises(EvoWordleError, match="nested too deeply"):
        MetaGA.resume(ctx, cfg, path)


def test_checkpoint_is_json_and_resumes(ctx, ckpt):
    cfg, path, doc = ckpt
    assert doc["format"] == checkpoint.FORMAT and isinstance(doc["np_rng"], dict) and len(doc["py_rng"][1]) == 625
    ga = MetaGA.resume(ctx, cfg, path)
    assert ga.generation == 1 and ga.np_rng.bit_generator.state == doc["np_rng"]


# ------------------------------------------------------------------------- tune's input files


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_tune_space_and_parameter_files_capped(tmp_path, kind):
    from evo_wordle.tune import load_params, load_space

    for loader, name in ((load_space, "space.json"), (load_params, "params.json")):
        path = _source(tmp_path / name, kind, 64 * 1024)
        with Budget(), pytest.raises(EvoWordleError, match=SOURCES[kind]):
            loader(path)


@pytest.mark.parametrize("text,message", [("[" * 100_000 + "]" * 100_000, "too large"),
                                          ("[" * 30_000 + "]" * 30_000, "nested too deeply"),
                                          ('{"\\u001b[2Jpop": [1, 2]}', "control character")])
def test_tune_space_file_hostile_json(tmp_path, text, message):
    from evo_wordle.tune import load_space

    path = tmp_path / "space.json"
    path.write_text(text)
    with Budget(), pytest.raises(EvoWordleError, match=re.escape(message)):
        load_space(path)


def test_tune_space_toml_escape_refused(tmp_path):
    from evo_wordle.tune import load_space

    path = tmp_path / "space.toml"
    path.write_text('"\\u001b]0;x\\u0007" = [1, 2]\n')
    with pytest.raises(EvoWordleError, match="control character"):
        load_space(path)


def test_a_resume_extends_a_results_file_whose_columns_report_reads_in_another_order(sweep_dir, tmp_path, capsys):
    """report reads the columns in any order; a resume refused such a file ("other columns than
    this sweep").  Reading it as report does, a resume now writes its rows in the file's order."""
    out = _copy(sweep_dir, tmp_path)

    def swap(lines):
        rows = list(csv.reader(io.StringIO("\n".join(lines[:2]))))  # the header and the tares row only
        i, j = rows[0].index("mean"), rows[0].index("seconds")
        for row in rows:
            row[i], row[j] = row[j], row[i]
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        return buf.getvalue().splitlines()

    _csv(out, swap)
    assert _resume(out) == 0 and "2/2 benches" in capsys.readouterr().out
    assert main(["report", str(out)]) == 0
    assert "2 of 2 benches done" in capsys.readouterr().out
    spec, rows = load_sweep(out)
    assert sorted(r["opener"] for r in rows) == ["crane", "tares"]
