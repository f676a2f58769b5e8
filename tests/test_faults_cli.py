"""Fault suite, command line: every bad command line ends in one line on stderr and exit 2,
before any work (nothing on stdout, no file or folder written); a write that fails at the end
comes after the printed result and exits 1; no write follows a symlink (the link is replaced by
a regular file holding the output, its target left alone).  Driven in-process through ``cli.main``."""

from __future__ import annotations

import json
import os
import resource
from contextlib import contextmanager
from pathlib import Path

import pytest

from evo_wordle import Context
from evo_wordle.cli import main

from .alarms import alarm


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(err: str) -> None:
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err


@pytest.fixture(scope="module")
def files(tmp_path_factory, cache_dir):
    """A folder with an existing file, a one-word list (its table built) and a sweep folder."""
    root = tmp_path_factory.mktemp("faults")
    (root / "afile").write_text("x\n")
    (root / "one.txt").write_text("crane\n")
    Context(allowed=str(root / "one.txt")).table  # noqa: B018 - build now: no notice during the test
    (root / "adir").mkdir()
    (root / "roulette.json").write_text(json.dumps({  # a parameter file that chooses by roulette too
        "format": "evo-wordle-params", "version": 1, "solver": "ga-thesis", "params": {"choice": "roulette"}}))
    return root


# Each case: argv with {d} for the module's folder; the message must contain the snippet.
BAD_INPUT = [
    # bench: numbers
    ("bench --games 5000", "more than the 2309 answers"),
    ("bench --games 0", "must be at least 1"),
    ("bench --games -3", "must be at least 1"),
    ("bench --games abc", "whole number"),
    ("bench --seed -1", "from 0 to 2**63"),
    ("bench --seed 1.5", "whole number"),
    ("bench --jobs 0", "must be at least 1"),
    ("bench --repeat 0", "must be between 1 and 10000, not 0"),
    ("bench --max-guesses 0", "must be at least 1"),
    ("bench --max-guesses 2.5", "whole number"),
    ("bench --boards 0", "must be at least 1"),
    # bench: solver flags that do not belong to the solver, bad GA values
    ("bench --population 5", "solver greedy has no --population (its flags: --opener, --params)"),
    ("bench --solver random --mutation 0.2", "solver random has no --mutation"),
    ("bench --solver greedy --fitness dynamic", "has no --fitness"),
    ("bench --solver ga --mutation nan --games 3", "finite number"),
    ("bench --solver ga --mutation 1.5 --games 3", "between 0.0 and 1.0"),
    ("bench --solver ga --pressure inf --games 3", "finite number"),
    ("bench --solver ga --population 0 --games 3", "--population must be between 1"),
    ("bench --solver ga --elite 500 --games 3", "--elite must be between 0 and 300"),
    ("bench --solver ga --population 2 --games 3", "--population 2 is smaller than ga's default --elite 10"),
    # two outputs naming one file: the later write silently replaced the other's result
    ("bench --games 3 --csv {d}/same.png --plot {d}/same.png", "--csv and --plot both name"),
    ("bench --games 3 --csv {d}/../same.png --plot {d}/adir/../../same.png", "--csv and --plot both name"),
    ("evolve-strategy --generations 1 --out {d}/s.json --log {d}/s.json", "--out and --log both name"),
    ("evolve-strategy --generations 1 --out {d}/s.json --checkpoint {d}/s.json", "--checkpoint and --out both name"),
    ("sweep --solver ga --population 2,300 --out {d}/s", "--population 2 is smaller than ga's default --elite 10"),
    ("bench --solver ga --tournament-size -1 --games 3", "--tournament-size must be between 1"),
    # a warning (a file's setting overridden, a pool cut) printed before the error made it two lines
    ("bench --strategy p0-evolved --max-guesses 8 --games 99999", "--games 99999 is more than the 2309 answers"),
    ("bench --strategy p0-evolved --max-guesses 8 --opener zzzzz", "'zzzzz' is not an allowed word"),
    ("compare --solvers strategy,greedy --strategy p0-evolved --max-guesses 8", "the rows do not play the same game"),
    ("solve zzzzz --solver strategy --strategy p0-evolved --max-guesses 8", "'zzzzz' is not an allowed word"),
    ("openers --pool 99999 --words 9", "too many joint feedbacks to count"),
    ("evolve-strategy --jobs 99 --generations 1 --train 99999", "--train 99999 + --validation 400 exceed"),
    # a flag another setting turns off was ignored silently: the run was the flag-less one
    ("bench --solver ga --tournament-size 5 --games 3",
     "--tournament-size is for tournament selection, but ga selects parents by roulette and chooses its guess by "
     "roulette: give --selection tournament or --choice tournament, or drop --tournament-size"),
    ("bench --solver ga-thesis --params {d}/roulette.json --tournament-size 5 --games 3",
     "--tournament-size is for tournament selection, but ga-thesis selects parents by roulette"),
    ("bench --solver ga-first --pressure 3 --games 3", "--pressure is for roulette selection, but ga-first selects "
     "parents by best and chooses its guess by best"),
    ("compare --solvers ga,greedy --tournament-size 4 --games 3", "--tournament-size is for tournament selection"),
    ("solve crane --solver ga --tournament-size 4", "--tournament-size is for tournament selection"),
    ("plot convergence --answer merry --out {d}/x.png --tournament-size 4", "--tournament-size is for tournament"),
    # ... and so was a sweep's grid key or a tuned value that no run reads
    ("sweep --solver ga --set tournament_size=2,3 --out {d}/s",
     "grid key 'tournament_size' is for tournament selection, but ga selects parents by roulette and chooses its "
     "guess by roulette, so no run would read it: set selection=tournament or choice=tournament too, or drop "
     "tournament_size"),
    ("sweep --solver ga-first --set pressure=2,5 --out {d}/s", "grid key 'pressure' is for roulette selection"),
    ("tune --solver ga --space population=10:50 --fix tournament_size=5 --out {d}/t",
     "--fix: tournament_size is for tournament selection, but ga selects parents by roulette and chooses its guess "
     "by roulette, so no trial would read it: give --fix selection=tournament or --fix choice=tournament, search "
     "those, or drop tournament_size"),
    ("tune --solver ga --space pressure=1:10 --fix selection=tournament --fix choice=best --out {d}/t",
     "--space: pressure is for roulette selection, but ga selects parents by tournament and chooses its guess by best"),
    ("ga-tree --bound-seconds 5 --tree {d}/t.txt", "--bound-seconds needs --bound"),
    ("ga-tree --exact --bound --bound-seconds 5 --tree {d}/t.txt", "--bound-seconds means nothing for an exhaustive"),
    ("ga-tree --exact --search-population 8 --tree {d}/t.txt", "--search-population is for the GA's tree: --exact"),
    ("ga-tree --exact --search-generations 2 --tree {d}/t.txt", "--search-generations is for the GA's tree"),
    ("ga-tree --exact --exact-limit 3 --tree {d}/t.txt", "--exact-limit is for the GA's tree"),
    ("bench --boards 2 --solver greedy", "needs the summed-entropy solver"),
    ("bench --solver nope", "unknown solver 'nope'"),
    ("bench --opener zzzzz --games 3", "'zzzzz' is not an allowed word"),
    ("bench --opener toolong --games 3", "is not a 5-letter word"),
    ("bench --problem P9", "invalid choice"),
    ("bench --daily-rule nope", "invalid choice"),
    ("bench --boards 1000 --games 3", "--boards must be between 1 and 64, not 1000"),
    ("bench --daily-rule forbid --games 3", "applies to daily games only"),
    ("compare --solvers greedy,naive --daily-rule remove --games 3", "applies to daily games only"),
    ("bench --answers {d}/missing.txt", "missing.txt"),
    ("bench --boards 2 --allowed {d}/one.txt --games 3", "needs an answer list of at least 2 words"),
    # bench: outputs checked before the run
    ("bench --plot {d}/adir", "is a folder"),
    ("bench --plot /tmp", "is a folder"),
    ("bench --plot {d}/noext", "must end in .png, .svg, .pdf"),
    ("bench --plot {d}/hist.txt", "must end in .png, .svg, .pdf"),
    ("bench --csv ", "empty string"),
    ("bench --csv /proc/x.csv", "under /proc;"),
    ("bench --csv {d}/missing/x.csv", "does not exist"),
    ("bench --csv {d}/adir", "is a folder"),
    ("bench --csv {d}/afile/x.csv", "does not exist"),
    ("bench --json --plot /sys/x.png", "under /sys;"),
    # compare
    ("compare --solvers greedy,greedy", "lists a solver twice"),
    ("compare --solvers ,", "no empty item, not ','"),
    ("compare --solvers greedy,nope", "unknown solver 'nope'"),
    ("compare --solvers greedy,random --population 10", "none of the solvers greedy, random takes --population"),
    ("compare --solvers greedy --boards 2", "needs the summed-entropy solver"),
    ("compare --solvers greedy --games 9999", "more than the 2309 answers"),
    # sweep: bad specs never leave a folder behind
    ("sweep --solver greedy --set max_guesses=2.5 --out {d}/s", "--max-guesses must be a whole number, not 2.5"),
    ("sweep --solver greedy --set hard=maybe --out {d}/s", "--hard must be true or false, not 'maybe'"),
    ("sweep --solver greedy --set max_guesses=abc --out {d}/s", "--max-guesses must be a whole number, not 'abc'"),
    ("sweep --solver greedy --set max_guesses=0 --out {d}/s", "--max-guesses must be between 1"),
    ("sweep --solver greedy --set daily=3 --out {d}/s", "--daily must be true or false"),
    ("sweep --solver greedy --set candidates=some --out {d}/s", "--candidates must be one of"),
    ("sweep --solver ga --set population=abc --out {d}/s", "--population must be a whole number, not 'abc'"),
    ("sweep --solver ga --set mutation=nan --out {d}/s", "--mutation must be a finite number"),
    ("sweep --solver ga --mutation 2 --out {d}/s", "--mutation must be between 0.0 and 1.0"),
    ("sweep --solver ga --set selection=best,worst --out {d}/s", "--selection must be one of"),
    ("sweep --solver greedy --set population=10 --out {d}/s", "no parameter 'population'"),
    ("sweep --solver nope --population 5 --out {d}/s", "unknown solver 'nope'"),
    ("sweep --population 5 --out ", "empty string"),
    ("sweep --population 5 --out /proc/x", "under /proc;"),
    ("sweep --population 5 --out {d}/afile", "is a file, not a folder"),
    ("sweep --population 5 --out {d}/afile/sub", "is a file, not a folder"),
    ("sweep --population 5 --games 5000 --out {d}/s", "more than the 2309 answers"),
    ("sweep --population 5 --seeds 0 --out {d}/s", "must be at least 1"),
    ("sweep --population 5 --seed -1 --out {d}/s", "from 0 to 2**63"),
    ("sweep --set population --out {d}/s", "expects key=value"),
    ("sweep --set =5 --out {d}/s", "expects key=value"),
    ("sweep --population 5 --jobs 0 --out {d}/s", "must be at least 1"),
    ("sweep --population 5 --chunks 0 --out {d}/s", "must be at least 1"),
    ("sweep --population 5 --scheduler tcp://127.0.0.1:1 --out {d}/s", "only applies to --executor dask"),
    ("sweep --solver greedy --set problem=P9 --out {d}/s", "unknown problem"),
    ("sweep --population 5 --set population=10 --out {d}/s", "given twice"),
    ("sweep --solver greedy --set problem=P1,P0 --guess-from allowed --out {d}/s",
     "--set problem=... would replace --guess-from allowed in every cell"),
    ("sweep --solver greedy --set problem=P1,P0 --problem P2 --out {d}/s", "both give problem"),
    ("sweep --solver greedy --set max_guesses=4,5 --max-guesses 3 --out {d}/s", "both give max_guesses"),
    ("sweep --solver greedy --set hard=true,false --hard --out {d}/s", "both give hard"),
    ("sweep --solver ga --set mutation=0.1,0.1 --out {d}/s", "repeated value"),
    ("sweep --solver greedy --out {d}/s", "nothing to sweep"),
    # report / plot
    ("report {d}/missing", "not a sweep folder"),
    ("report sqlite:///{d}/nodb.db", "no study database at"),  # made an empty 114 KB database there
    ("plot heatmap {d} --out {d}/adir", "is a folder"),
    ("plot heatmap {d} --out {d}/x.txt", "must end in .png, .svg, .pdf"),
    ("plot heatmap {d} --out /proc/x.png", "under /proc;"),
    ("plot heatmap {d} --out ", "empty string"),
    ("plot lines {d} --out {d}/missing/x.png", "does not exist"),
    ("plot convergence --out {d}/x.png --runs 0", "must be between 1 and 10000, not 0"),
    # a huge --runs began to play and ran out of memory (exit 1): a usage error now, before any game
    ("plot convergence --answer merry --out {d}/x.png --runs 999999999999", "must be between 1 and 10000"),
    ("plot evolution --answer merry --out {d}/x.png --runs 10001", "must be between 1 and 10000"),
    ("plot histograms --solvers greedy,random --population 5 --out {d}/x.png", "none of the solvers"),
    # evolve-strategy: everything checked before the long run
    ("evolve-strategy --penalty nan", "finite number"),
    ("evolve-strategy --boards 2 --hard", "hard mode is not defined for several boards"),
    ("evolve-strategy --boards 2 --problem P2", "daily play is not defined for several boards"),
    ("evolve-strategy --penalty -5", "at least 0.0"),
    ("evolve-strategy --penalty inf", "finite number"),
    ("evolve-strategy --train 100000", "exceed the 2309 answers"),
    ("evolve-strategy --train 2000 --holdout 400", "exceed the 2309 answers"),
    ("evolve-strategy --seed -1", "from 0 to 2**63"),
    ("evolve-strategy --mu 1", "--mu must be"),
    # population sizes and loops share the word GA's cap: --lambda 10**12 began to run
    ("evolve-strategy --lambda 999999999999", "--lambda must be between 1 and 1000000"),
    ("evolve-strategy --mu 1000001", "--mu must be between 2 and 1000000"),
    ("evolve-strategy --generations 1000001", "--generations must be between 0 and 1000000"),
    ("evolve-strategy --cxpb 0.8 --mutpb 0.8", "at most 1"),
    ("evolve-strategy --cxpb 1.5", "between 0.0 and 1.0"),
    ("evolve-strategy --out {d}/adir", "is a folder"),
    ("evolve-strategy --out /proc/x.json", "under /proc;"),
    ("evolve-strategy --log {d}/missing/x.json", "does not exist"),
    ("evolve-strategy --checkpoint ", "empty string"),
    ("evolve-strategy --resume", "--resume needs --checkpoint"),
    ("evolve-strategy --checkpoint {d}/afile", "afile exists: add --resume to continue it, or remove it to start"),
    ("evolve-strategy --boards 2 --checkpoint {d}/afile", "afile exists: add --resume"),
    ("evolve-strategy --checkpoint {d}/missing.ckpt --resume", "missing.ckpt does not exist: drop --resume"),
    # ga-tree
    ("ga-tree --seed -1 --tree {d}/t.txt", "from 0 to 2**63"),
    ("ga-tree --tree /proc/t.txt", "under /proc;"),
    ("ga-tree --tree {d}/adir", "is a folder"),
    ("ga-tree --games 5000 --tree {d}/t.txt", "more than the 2309 answers"),
    ("ga-tree --tree {d}/t.txt --out ", "empty string"),
    # tune
    ("tune --solver ga --space population=10:50 --out /proc/x", "under /proc;"),
    ("tune --solver ga --space population=10:50 --out {d}/afile", "is a file, not a folder"),
    ("tune --solver ga --space population=10:50 --out ", "empty string"),
    ("tune --solver ga --space population=10:50 --seed -1 --out {d}/t", "from 0 to 2**63"),
    ("tune --solver ga --space population=10:50 --trials 0 --out {d}/t", "must be between 1 and 10000, not 0"),
    # a bad --fix was blamed on the space: "the solver refuses population=10: unknown GA parameter 'foo'"
    ("tune --solver ga --space population=10:50 --fix foo=1 --out {d}/t",
     "--fix: the solver refuses foo=1: unknown GA parameter 'foo'"),
    # solve
    ("solve fibre --problem P1", "'fibre' is not in the answer list"),
    ("solve fibre spill --candidates answers", "'fibre' is not in the answer list"),
    ("solve crane spill --boards 3", "needs 3 answers"),
    ("solve zzzzz", "not an allowed word"),
    ("solve crane --solver nope", "unknown solver"),
    ("solve crane --population 5", "solver greedy has no --population"),
    ("solve crane --log {d}/adir", "is a folder"),
    ("solve crane --log /proc/x", "under /proc;"),
    ("solve crane --max-guesses 2.5", "whole number"),
    ("solve crane --seed -1", "from 0 to 2**63"),
    # the rest of the command line
    ("entropy tares zzzzz", "not an allowed word"),
    ("pattern roars eule", "5-letter"),
    ("assist --top 0", "must be at least 1"),
    ("frobnicate", "invalid choice"),
    # an unknown argument is reported by the command it follows, not by the top parser
    ("bench --bogus", "evo-wordle bench: error: unrecognized arguments: --bogus"),
    ("bench --games 3 extra", "evo-wordle bench: error: unrecognized arguments: extra"),
    ("plot heatmap {d} --out x.png --bogus", "evo-wordle plot heatmap: error: unrecognized arguments: --bogus"),
    ("--bogus bench", "evo-wordle: error: unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("line, message", BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_command_line_is_one_line_exit_2(files, capsys, line, message):
    argv = [a.replace("{d}", str(files)) for a in line.split(" ")]
    before = sorted(p.name for p in files.iterdir())
    code, out, err = run(capsys, argv)
    assert code == 2, err
    assert_one_line(err)
    assert message in err
    assert out == ""  # refused before any work
    assert sorted(p.name for p in files.iterdir()) == before  # no file or folder left behind
    assert not Path("/tmp.png").exists()


@contextmanager
def disk_fills_up(limit: int = 64):
    """Writes of regular files fail past ``limit`` bytes (EFBIG, as a full disk fails them with
    ENOSPC) while the command runs: a failure no up-front check can see.  Python ignores
    SIGXFSZ, so the write raises instead of killing the process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_warnings_held_while_the_input_is_checked_are_printed_for_a_run(tmp_path, capsys):
    """Warnings wait until the work starts (so a refused input is one line): a run that goes
    ahead still prints them, before its progress, and so does one that fails late (exit 1)."""
    argv = ["bench", "--strategy", "p0-evolved", "--max-guesses", "8", "--games", "3", "--split", "test"]
    warning = ("evo-wordle: warning: strategy file {} was made for other settings; overriding max_guesses 9 -> 8\n")
    from evo_wordle.evolve.strategy import read_strategy_file

    path = read_strategy_file("p0-evolved").path
    code, out, err = run(capsys, [*argv, "--quiet"])
    assert code == 0 and "mean guesses" in out and err == warning.format(path)
    code, out, err = run(capsys, [*argv, "--quiet", "--opener", "zzzzz"])
    assert code == 2 and out == "" and err == "evo-wordle: error: 'zzzzz' is not an allowed word\n"
    with disk_fills_up():
        code, out, err = run(capsys, [*argv, "--quiet", "--csv", str(tmp_path / "games.csv")])
    assert code == 1 and "mean guesses" in out
    assert err.startswith(warning.format(path)) and err.count("\n") == 2 and "evo-wordle: error:" in err


def test_bench_result_is_printed_before_a_late_write_failure(tmp_path, capsys):
    """--csv fails when written (the disk filled up during the run): the summary is on stdout first."""
    target = tmp_path / "games.csv"
    with disk_fills_up():
        code, out, err = run(capsys, ["bench", "--games", "5", "--csv", str(target)])
    assert code == 1
    assert_one_line(err)
    assert f"cannot write {target}" in err and "File too large" in err
    assert "mean guesses:" in out and "games:        5" in out


def test_solve_game_is_printed_before_a_late_log_failure(tmp_path, capsys):
    target = tmp_path / "run.json"
    with disk_fills_up():
        code, out, err = run(capsys, ["solve", "crane", "--log", str(target)])
    assert code == 1
    assert_one_line(err)
    assert f"cannot write {target}" in err
    assert "solved CRANE" in out


def test_bench_plot_late_failure_is_the_same_one_line(tmp_path, capsys):
    """--plot fails as --csv and --log do: the file named, the reason, the result kept."""
    target = tmp_path / "hist.png"
    with disk_fills_up():
        code, out, err = run(capsys, ["bench", "--games", "5", "--plot", str(target)])
    assert code == 1
    assert err == f"evo-wordle: error: cannot write {target}: File too large (the result above is complete)\n"
    assert "mean guesses:" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no temporary file left behind


def test_plot_command_late_failure_is_one_line(tmp_path, capsys):
    """``plot`` prints nothing before its figure: the same line without the note."""
    target = tmp_path / "h.png"
    with disk_fills_up():
        code, out, err = run(capsys, ["plot", "histograms", "--solvers", "greedy", "--games", "2", "--out",
                                      str(target)])
    assert code == 1
    assert err == f"evo-wordle: error: cannot write {target}: File too large\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_bench_json_plot_and_csv_written_after_the_summary(tmp_path, capsys):
    code, out, err = run(capsys, ["bench", "--games", "4", "--json", "--csv", str(tmp_path / "g.csv"),
                                  "--plot", str(tmp_path / "h.svg")])
    assert code == 0
    assert err == f"wrote {tmp_path / 'g.csv'}\nwrote {tmp_path / 'h.svg'}\n"  # JSON alone on stdout
    assert '"games": 4' in out
    assert len((tmp_path / "g.csv").read_text().splitlines()) == 5
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")


def test_internal_error_is_one_line_exit_1_and_debug_shows_traceback(capsys, monkeypatch):
    from evo_wordle.cli import table_cmds

    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(table_cmds, "cmd_pattern", broken)
    code, out, err = run(capsys, ["pattern", "roars", "euler"])
    assert code == 1
    assert_one_line(err)
    assert "internal error: RuntimeError: boom" in err and "EVO_WORDLE_DEBUG" in err
    monkeypatch.setenv("EVO_WORDLE_DEBUG", "1")
    code, out, err = run(capsys, ["pattern", "roars", "euler"])
    assert code == 1 and "Traceback" in err


def test_ctrl_c_inside_a_command_is_one_line_exit_130(capsys, monkeypatch):
    from evo_wordle.cli import table_cmds

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(table_cmds, "cmd_pattern", interrupted)
    code, out, err = run(capsys, ["pattern", "roars", "euler"])
    assert code == 130
    assert err == "evo-wordle: interrupted\n"


def test_ctrl_c_at_a_terminal_starts_its_own_line(monkeypatch):
    # at a prompt ("word> lun^C") the message must not be glued to the half-typed word
    import io

    from evo_wordle import console

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, expected in ((Terminal(), "\nevo-wordle: interrupted\n"), (io.StringIO(), "evo-wordle: interrupted\n")):
        monkeypatch.setattr("sys.stderr", stream)
        assert console.interrupted() == 130 and stream.getvalue() == expected


def test_a_rerun_after_a_bad_spec_is_not_blocked(tmp_path, capsys):
    """A spec that ran nothing (no result row) is replaced by the corrected command."""
    out = tmp_path / "s"
    out.mkdir()
    (out / "sweep.json").write_text('{"solver": "greedy", "grid": {"max_guesses": [9]}}\n')
    (out / "results.csv").write_text("max_guesses,seed\n")
    code, _, err = run(capsys, ["sweep", "--solver", "greedy", "--set", "hard=false", "--seeds", "1",
                                "--games", "3", "--quiet", "--jobs", "1", "--out", str(out)])
    assert code == 0, err
    assert '"hard"' in (out / "sweep.json").read_text()
    assert len((out / "results.csv").read_text().splitlines()) == 2


def test_ascii_terminal_gets_ascii_stand_ins():
    from evo_wordle.console import ASCII, _to_ascii

    text = "🟩🟨⬛ 3.7 ± 0.1 → done…"
    assert text.encode("ascii", errors="evo_wordle_ascii") == b"GYB 3.7 +/- 0.1 -> done..."
    assert all(v.isascii() for v in ASCII.values())
    assert _to_ascii(UnicodeEncodeError("ascii", "☃", 0, 1, "x")) == ("?", 1)
    assert os.environ.get("PYTHONIOENCODING") != "ascii"  # the subprocess tests cover the real stream


# ---------------------------------------------------------------- no write follows a symlink

SALET_TREE = Path(__file__).resolve().parents[1] / "data" / "strategies" / "answers-known-salet.tree"
TINY_EVOLVE = ["evolve-strategy", "--candidates", "answers", "--guess-from", "allowed", "--generations", "1",
               "--mu", "2", "--lambda", "2", "--train", "10", "--validation", "10", "--quiet"]

#: Every file a command writes, with a cheap command line: ``@NAME`` is an output file (``@?NAME``
#: one that must not exist yet: an existing checkpoint is refused, so only a dangling link there).
WRITES = {
    "bench --csv": ["bench", "--games", "5", "--csv", "@games.csv"],
    "bench --plot": ["bench", "--games", "5", "--plot", "@hist.png"],
    "solve --log": ["solve", "crane", "--log", "@run.json"],
    "cheatsheet --csv --plot --export": ["cheatsheet", "--tree", str(SALET_TREE), "--top", "3", "--csv", "@sheet.csv",
                                         "--plot", "@sheet.svg", "--export", "@tree.json"],
    "plot --out": ["plot", "histograms", "--solvers", "greedy", "--games", "2", "--out", "@h.pdf"],
    "evolve-strategy --out --log --checkpoint": [*TINY_EVOLVE, "--out", "@s.json", "--log", "@log.json",
                                                 "--checkpoint", "@?ck.json"],
}


def written_as(path: Path) -> bool:
    """``path`` holds what its suffix says (the command's output, not the symlink's target)."""
    data = path.read_bytes()
    return {".csv": lambda: data.count(b",") > 3 and b"\n" in data,
            ".json": lambda: bool(json.loads(data)),
            ".png": lambda: data.startswith(b"\x89PNG\r\n\x1a\n"),
            ".svg": lambda: b"<svg" in data,
            ".pdf": lambda: data.startswith(b"%PDF")}[path.suffix]()


@pytest.mark.parametrize("kind", ["to-a-file", "dangling"])
@pytest.mark.parametrize("command", sorted(WRITES))
def test_no_write_follows_a_symlink(tmp_path, capsys, command, kind):
    """An output that is a symlink (to someone's file, or to nothing: /nonexistent/x) is replaced
    by a regular file holding the output; the link's target is left alone, exit 0."""
    victim = tmp_path / "precious.txt"
    victim.write_text("precious\n")
    outputs = []
    argv = []
    for arg in WRITES[command]:
        if arg.startswith("@"):
            link = tmp_path / arg.lstrip("@?")
            link.symlink_to(victim if kind == "to-a-file" and arg[1] != "?" else tmp_path / "missing" / "x")
            outputs.append(link)
            arg = str(link)
        argv.append(arg)
    code, out, err = run(capsys, argv)
    assert code == 0, err
    assert victim.read_text() == "precious\n"
    assert not (tmp_path / "missing").exists()
    for link in outputs:
        assert not link.is_symlink() and link.is_file(), link
        assert written_as(link), link
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["precious.txt", *(p.name for p in outputs)])


def test_a_symlink_loop_is_replaced_too(tmp_path, capsys):
    """``ln -s x.csv x.csv``: no internal error while checking it; the write replaces the link."""
    link = tmp_path / "x.csv"
    link.symlink_to("x.csv")
    code, out, err = run(capsys, ["bench", "--games", "5", "--csv", str(link)])
    assert code == 0, err
    assert not link.is_symlink() and written_as(link)


#: Every comma-list flag, with a value holding an empty item: dropped silently before (``10,``
#: swept one population), or passed on as "" (``--set``).  Each is one line naming the flag.
EMPTY_ITEMS = [
    (["sweep", "--population", "10,"], "--population", "'10,'"),
    (["sweep", "--population", "10,,20"], "--population", "'10,,20'"),
    (["sweep", "--mutation", ",0.1"], "--mutation", "',0.1'"),
    (["sweep", "--set", "init=random,"], "--set", "'init=random,'"),
    (["tune", "--space", "population=2:12,"], "--space", "'population=2:12,'"),
    (["tune", "--space", "init=random|best|"], "--space", "'init=random|best|'"),
    (["tune", "--space", "population=2:12", "--steps", "5,,12"], "--steps", "'5,,12'"),
    (["tune", "--space", "population=2:12", "--fix", "init=best,"], "--fix", "'init=best,'"),
    (["compare", "--solvers", "greedy,"], "--solvers", "'greedy,'"),
    (["plot", "histograms", "--solvers", "greedy,,naive"], "--solvers", "'greedy,,naive'"),
]


@pytest.mark.parametrize("argv,flag,shown", EMPTY_ITEMS, ids=[" ".join(a[:3]) for a, *_ in EMPTY_ITEMS])
def test_an_empty_item_in_a_comma_list_is_refused(tmp_path, capsys, argv, flag, shown):
    out = tmp_path / "out"
    tail = [] if argv[0] == "compare" else ["--out", str(out) + (".png" if argv[0] == "plot" else "")]
    code, stdout, err = run(capsys, [*argv, *tail])
    assert code == 2 and not stdout
    assert_one_line(err)
    assert flag in err and shown in err, err
    assert not list(tmp_path.iterdir())


#: The whole message for an empty item inside a key=value item: it quotes the item the user
#: wrote (not only its values) and says how to fix it, in as_list's own words (no rewording).
EMPTY_ITEM_MESSAGES = [
    (["sweep", "--set", "init=random,"],
     "--set 'init=random,' has an empty value: separate values by single ',', with none at the end"),
    (["sweep", "--set", "init=random,,best"],
     "--set 'init=random,,best' has an empty value: separate values by single ',', with none at the end"),
    (["tune", "--space", "population=2:12", "--fix", "init=best,"],
     "--fix 'init=best,' has an empty value: separate values by single ',', with none at the end"),
    (["tune", "--space", "init=random|best|"],
     "--space 'init=random|best|' has an empty choice: separate choices by single '|', with none at the end"),
    (["tune", "--space", "population=2:12,"],
     "--space must be values separated by single ',' with no empty item, not 'population=2:12,'"),
]


@pytest.mark.parametrize("argv,message", EMPTY_ITEM_MESSAGES, ids=[" ".join(a) for a, _ in EMPTY_ITEM_MESSAGES])
def test_an_empty_value_in_a_set_or_space_item_names_the_item(tmp_path, capsys, argv, message):
    code, stdout, err = run(capsys, [*argv, "--out", str(tmp_path / "out")])
    assert code == 2 and not stdout
    assert err == f"evo-wordle: error: {message}\n"


def test_report_leaves_a_file_that_is_no_study_database_as_it_was(tmp_path, capsys):
    """`report sqlite:///FILE` on an empty file or another program's SQLite database let Optuna
    write its schema there (an empty file became a 114 KB database) and then said "holds 0
    studies"; a report only reads, so such a file is refused first and left byte for byte."""
    import sqlite3

    empty, other, text = tmp_path / "empty.db", tmp_path / "other.db", tmp_path / "notes.txt"
    empty.write_bytes(b"")
    text.write_text("not a database\n")
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.commit()
    con.close()
    (tmp_path / "tuned").mkdir()
    (tmp_path / "tuned" / "study.db").write_bytes(b"")  # a `tune --out` folder whose database is empty
    cases = [(f"sqlite:///{empty}", f"{empty} is not a study database (an empty file"),
             (f"sqlite:///{text}", f"{text} is not a study database (not an SQLite database"),
             (f"sqlite:///{other}", f"{other} is an SQLite database without Optuna study tables"),
             (str(tmp_path / "tuned"), "study.db is not a study database (an empty file")]
    for target, message in cases:
        before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
        code, out, err = run(capsys, ["report", target])
        assert code == 2 and out == "" and message in err, err
        assert_one_line(err)
        assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_the_runs_of_a_figure_and_the_meta_ga_counts_are_capped_in_the_python_api_too(files):
    from evo_wordle.evolve.metaga import EvolveConfig
    from evo_wordle.game import Settings
    from evo_wordle.plots.convergence import convergence_data
    from evo_wordle.plots.evolution import evolution_data

    ctx = Context(allowed=str(files / "one.txt"))
    for make in (convergence_data, evolution_data):
        with pytest.raises(ValueError, match="^--runs must be between 1 and 10000, not 10001$"):
            make(ctx, "greedy", Settings(), None, answer="crane", runs=10_001)
    for name in ("mu", "lambda_", "generations", "hof_size", "train_sets", "holdout_sets"):
        with pytest.raises(ValueError, match="must be between .* and 1000000, not 1000001$"):
            EvolveConfig(**{name: 1_000_001})


@pytest.mark.parametrize("argv, message, helped", [
    (["ga-tree", "--search-generations", "999999999999"], "--search-generations: must be between 0 and 50",
     "generations per decision, at most 50"),
    (["ga-tree", "--search-population", "1001"], "--search-population: must be between 1 and 1000",
     "words per decision GA, at most 1,000"),
    (["tune", "--space", "population=10:50", "--trials", "999999999999"], "--trials: must be between 1 and 10000",
     "trials to finish or prune, at most 10,000"),
    # bench takes the flags through the solver: the cap is the solver's own, checked before any game
    (["bench", "--solver", "ga-search", "--search-generations", "51", "--games", "1"],
     "--search-generations must be between 0 and 50, not 51", "generations per decision, at most 50"),
])
def test_search_counts_and_tune_trials_are_capped_and_the_cap_is_in_help(files, capsys, argv, message, helped):
    """`ga-tree --search-generations 10**12` and `tune --trials 10**12` were accepted and began
    work that could not end; they share the capped counts' mechanism (arg_type / as_int)."""
    out_flags = {"ga-tree": ["--tree", str(files / "t.txt")], "tune": ["--out", str(files / "t")], "bench": []}
    with alarm(60):  # before the fix the search began and never ended
        code, out, err = run(capsys, [*argv, *out_flags[argv[0]]])
    assert code == 2 and out == "" and message in err, err
    assert_one_line(err)
    assert not (files / "t.txt").exists() and not (files / "t").exists()
    with pytest.raises(SystemExit):
        main([argv[0], "--help"])
    assert helped in " ".join(capsys.readouterr().out.split())


def test_ga_search_counts_are_capped_in_the_python_api_too(files):
    from evo_wordle.evolve.search import GASearchSolver
    from evo_wordle.game import Settings

    ctx = Context(allowed=str(files / "one.txt"))
    with pytest.raises(ValueError, match="^--search-population must be between 1 and 1000, not 1001$"):
        GASearchSolver(ctx, Settings(), population=1001)
    with pytest.raises(ValueError, match="^--search-generations must be between 0 and 50, not 51$"):
        GASearchSolver(ctx, Settings(), generations=51)


@pytest.mark.parametrize("flag", ["--allowed", "--answers"])
@pytest.mark.parametrize("command", [
    "pattern crane slate", "entropy crane", "bench --games 1", "solve crane", "assist",
    "tune --solver ga --space population=10:50 --out {d}/t", "ga-tree --games 1 --tree {d}/t.txt",
    "evolve-strategy --generations 0 --out {d}/s.json",
])
def test_an_empty_word_list_path_is_named_as_such(files, capsys, command, flag):
    """`--answers ""` was read as the current folder ("answers list . is a folder, not a file"),
    and tune took it as no flag at all (the NYT list); every command and the API name it."""
    argv = [a.replace("{d}", str(files)) for a in command.split(" ")] + [flag, ""]
    before = sorted(p.name for p in files.iterdir())
    code, out, err = run(capsys, argv)
    what = flag.removeprefix("--")
    names = " (or nyt, original)" if what == "answers" else ""
    message = f"error: {what} list needs a file name{names}, not an empty string\n"
    assert (code, out) == (2, "") and err.endswith(message), err
    assert_one_line(err)
    assert sorted(p.name for p in files.iterdir()) == before
    with pytest.raises(ValueError, match=f"^{what} list needs a file name"):
        Context(**{what: ""})


@pytest.mark.parametrize("command", [
    "bench --games 1", "compare --solvers greedy,naive --games 1", "solve crane", "assist",
    "sweep --solver greedy --set games=1,2 --out {d}/sw", "tune --solver ga --space population=10:50 --out {d}/t",
    "ga-tree --games 1 --tree {d}/t.txt", "evolve-strategy --generations 0 --out {d}/s.json",
])
def test_a_flag_that_contradicts_the_problem_preset_is_refused_by_every_command(files, capsys, command):
    """`bench --problem P1 --candidates allowed` played P0 (the flag silently won over the
    preset) while sweep refused such a conflict; every command now refuses it, with one message
    (settings_args.check_preset_flags); --guess-from still refines a preset."""
    argv = [a.replace("{d}", str(files)) for a in command.split(" ")]
    before = sorted(p.name for p in files.iterdir())
    for extra, message in (
            (["--problem", "P1", "--candidates", "allowed"], "--problem P1 sets candidates=answers, which --candidates "
             "allowed contradicts (that game is P0): give --problem P0, or drop --candidates allowed"),
            (["--problem", "p0", "--daily"], "--problem P0 sets daily=false, which --daily contradicts (that game is "
             "P2): give --problem P2, or drop --daily")):
        if extra[-1] == "--daily" and command.split()[0] in ("solve", "assist", "tune", "ga-tree", "evolve-strategy"):
            continue  # these play one game at a time: no --daily
        code, out, err = run(capsys, argv + extra)
        assert (code, out) == (2, "") and err.endswith(f"error: {message}\n"), err
        assert_one_line(err)
    assert sorted(p.name for p in files.iterdir()) == before


@pytest.mark.parametrize("command", [
    "bench --games 1 --params", "compare --solvers greedy,naive --games 1 --params",
    "sweep --solver greedy --set games=1,2 --out {d}/sw --params", "bench --games 1 --solver ga-search --tree",
    "cheatsheet --tree", "evolve-strategy --generations 0 --out {d}/s.json --init",
    "bench --games 1 --strategy", "compare --solvers strategy,greedy --games 1 --strategy",
    "plan-tree --top 10 --out {d}/p.json --strategy", "lookahead-tree --out {d}/l.json --strategy",
])
def test_an_empty_file_name_of_another_input_flag_is_refused(files, capsys, command):
    """`--params ""`, `bench --solver ga-search --tree ""` and `evolve-strategy --init ""` were
    taken as no flag at all (exit 0, the defaults played), `cheatsheet --tree ""` said "tree
    file . is a folder": each is a usage error naming the flag (params.as_file_name)."""
    argv = [a.replace("{d}", str(files)) for a in command.split(" ")] + [""]
    before = sorted(p.name for p in files.iterdir())
    code, out, err = run(capsys, argv)
    flag = command.split(" ")[-1]
    assert (code, out) == (2, "") and err.endswith(f"error: argument {flag}: must name a file, not ''\n"), err
    assert_one_line(err)
    assert sorted(p.name for p in files.iterdir()) == before


@pytest.mark.parametrize("command", [
    "bench --games 1", "compare --solvers greedy,naive --games 1", "solve crane", "assist",
    "plot histograms --solvers greedy,naive --games 1 --out {d}/h.png",
    "plot convergence --answer crane --runs 1 --out {d}/c.png",
])
def test_other_lists_without_a_file_to_replay_is_refused(files, capsys, command):
    """`--other-lists` with no --strategy/--params/--tree changes nothing: bench, solve, compare,
    assist and plot took it silently (exit 0) while sweep refused it; all refuse it now."""
    argv = [a.replace("{d}", str(files)) for a in command.split(" ")] + ["--other-lists"]
    before = sorted(p.name for p in files.iterdir())
    code, out, err = run(capsys, argv)
    assert (code, out) == (2, "") and err.endswith(
        "error: --other-lists replays a --strategy, --params or --tree file on other word lists; "
        "this run names none\n"), err
    assert_one_line(err)
    assert sorted(p.name for p in files.iterdir()) == before


def test_plot_convergence_plays_a_strategy_file_in_its_own_game(files, capsys, monkeypatch):
    """`plot convergence --strategy answers-known-salet` played the file in the flags' game (every
    allowed word a candidate) while bench plays it in its own (answers known, any guess)."""
    import evo_wordle.plots.convergence as convergence

    seen = []

    def spy(ctx, solver, settings, *args, **kwargs):
        seen.append(settings)
        raise KeyboardInterrupt  # stop before any game: the settings are what this test is about

    monkeypatch.setattr(convergence, "convergence_data", spy)
    code, _, _ = run(capsys, ["plot", "convergence", "--answer", "crane", "--runs", "1", "--solver", "strategy",
                              "--strategy", "answers-known-salet", "--out", str(files / "c.png")])
    assert code == 130 and [(s.candidates, s.guess_from) for s in seen] == [("answers", "allowed")]


def test_ga_tree_that_leaves_answers_unsolved_writes_no_tree(files, capsys):
    """`ga-tree --max-guesses 2` printed "mean 2.0000, worst 2" (every game a failure at the cap,
    not said) and wrote a tree file whose paths stop short, which every reader refuses; now the
    summary says how many are not solved and no tree file is written (exit 2)."""
    tree = files / "short.txt"
    code, out, err = run(capsys, ["ga-tree", "--candidates", "answers", "--guess-from", "allowed", "--games", "3",
                                  "--search-population", "4", "--search-generations", "1", "--max-guesses", "2",
                                  "--tree", str(tree)])
    assert code == 2 and out.rstrip().endswith("; 3 NOT SOLVED within 2"), out
    assert err.endswith("error: 3 answers of 3 not solved within max_guesses 2 (first: 'magic'), so no tree file is "
                        "written: give a higher --max-guesses\n"), err
    assert_one_line(err)
    assert not tree.exists()


@pytest.mark.parametrize("flag,value,message", [
    ("--study", "", "--study needs a name, not ''"), ("--study", " ", "--study needs a name, not ' '"),
    ("--storage", "", "--storage needs a URL, not ''"),
])
def test_tune_refuses_an_empty_study_name_or_storage(files, capsys, flag, value, message):
    """`tune --storage ""` was taken as no flag (the default SQLite file in OUT) and `--study ""`
    ran a study named nothing; both are refused before the folder is made."""
    out = files / "tune-empty"
    code, stdout, err = run(capsys, ["tune", "--solver", "greedy", "--space", "opener=crane|slate", "--trials", "1",
                                     "--steps", "5", "--top", "1", "--repeats", "1", "--no-plots", "--out", str(out),
                                     flag, value])
    assert (code, stdout) == (2, "") and err.endswith(f"error: {message}\n"), err
    assert_one_line(err)
    assert not out.exists()


def test_ga_tree_on_several_boards_is_one_clear_line(files, capsys):
    """`ga-tree --boards 2` failed deep inside with "2 boards need one answer per board in each
    game, not (20,)", a numpy shape; it builds one-board trees, and says so."""
    code, out, err = run(capsys, ["ga-tree", "--games", "3", "--boards", "2", "--tree", str(files / "b.txt")])
    assert (code, out) == (2, "") and err.endswith(
        "error: ga-tree builds one-board trees, not --boards 2: play several boards with bench --boards 2 "
        "(ga-search searches their decisions too)\n"), err
    assert not (files / "b.txt").exists()


def test_the_assistant_prints_held_warnings_before_its_first_suggestion(capsys, monkeypatch):
    """Warnings wait until the work starts; the assistant has no progress bar to start it, so a
    warning about the file it plays ("overriding max_guesses 9 -> 8") came after the whole session,
    once the player had typed 'quit', instead of above the first suggestion."""
    import io

    from evo_wordle.cli import play_cmds

    seen = {}
    session = play_cmds.run_assist

    def run_assist(*args, **kwargs):
        seen["err"] = capsys.readouterr().err  # what the player has seen when the session starts
        return session(*args, **kwargs)

    monkeypatch.setattr(play_cmds, "run_assist", run_assist)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, ["assist", "--strategy", "p0-evolved", "--max-guesses", "8"])
    assert code == 0 and "suggested" in out and err == ""
    assert seen["err"].startswith("evo-wordle: warning: strategy file ")
    assert seen["err"].endswith("was made for other settings; overriding max_guesses 9 -> 8\n")


def test_held_warnings_come_before_a_command_s_first_output():
    """A command with no progress bar (solve) must not print its game and then the warning about
    the setting it was played in, below the figures it qualifies: the first output releases them.
    Run as a process, so stdout and stderr share one stream in the order they were written."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "evo_wordle", "solve", "crane", "--strategy", "p0-evolved",
                           "--max-guesses", "8"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300, check=False)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1] == "strategy: solved CRANE in 3 guesses"
    assert lines[0].startswith("evo-wordle: warning: strategy file ") and "overriding max_guesses 9 -> 8" in lines[0]
    assert sum("warning" in line for line in lines) == 1


def test_a_grid_key_some_points_ignore_is_one_warning_and_the_runs_say_so(tmp_path):
    """Tournament size beside roulette and tournament selection: the roulette points that differ
    only in it play identical runs (one bench seed per seed index), which the warning says, once,
    whatever --jobs (forked workers inherited the held warning and printed it again)."""
    import csv
    import subprocess
    import sys

    for jobs in ("1", "2"):
        out = tmp_path / f"s{jobs}"
        done = subprocess.run([sys.executable, "-m", "evo_wordle", "sweep", "--solver", "ga", "--set",
                               "selection=roulette,tournament", "--set", "tournament_size=2,3", "--population", "20",
                               "--seeds", "2", "--games", "4", "--jobs", jobs, "--out", str(out)],
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        warned = [line for line in done.stderr.splitlines() if "warning" in line]
        assert warned == ["evo-wordle: warning: grid key 'tournament_size' is not read by 2 configurations of 4 "
                          "(tournament_size is for tournament selection, but ga selects parents by roulette and "
                          "chooses its guess by roulette there): where it is not read, points that differ only in "
                          "it play identical runs"]
        rows = list(csv.DictReader((out / "results.csv").open()))
        mean = {(r["selection"], r["tournament_size"], r["seed"]): r["mean"] for r in rows}
        for seed in ("0", "1"):
            assert mean[("roulette", "2", seed)] == mean[("roulette", "3", seed)]


def test_a_forked_worker_does_not_inherit_the_held_warnings():
    """The parent prints what it held; a worker forked while they were held starts with none."""
    import multiprocessing

    from evo_wordle import console

    console.hold_warnings()
    try:
        console.warn("held in the parent")
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        child = ctx.Process(target=_report_held, args=(queue,))
        child.start()
        child.join(60)
        assert queue.get(timeout=5) is None
        assert console._held == ["evo-wordle: warning: held in the parent"]
    finally:
        console.drop_warnings()


def _report_held(queue) -> None:
    from evo_wordle import console

    queue.put(console._held)
