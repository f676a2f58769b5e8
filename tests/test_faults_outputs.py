"""Fault suite, output targets: a file or folder a command would write that exists and is not a
regular file (a FIFO, a device such as /dev/null or /dev/full, a folder, a socket, or any of
them behind a symlink) is refused before any work, in one line with exit 2; nothing hangs on a
FIFO, nothing vanishes into /dev/null, nothing is written through a symlink in a sweep or tune
folder.  Driven in-process through ``cli.main`` under an alarm, so a blocking open fails the
test instead of hanging it."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from evo_wordle.cli import main
from evo_wordle.cli.tune_cmds import OUT_FILES
from evo_wordle.errors import EvoWordleError
from evo_wordle.folder_lock import LOCK_FILE
from evo_wordle.outputs import check_file, check_folder, special
from evo_wordle.sweep import RESULTS_FILE, SPEC_FILE

from . import alarms

#: Seconds a refusal may take (it comes before any work; a FIFO open would block for ever).
LIMIT = 20


def alarm(seconds: int = LIMIT):
    return alarms.alarm(seconds)


def refused(capsys, argv: list[str]) -> str:
    """Run ``argv``; it must be refused up front: exit 2, one line, nothing on stdout, quickly."""
    start = time.perf_counter()
    with alarm():
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's type= errors
            code = exc.code
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    assert out == ""
    assert time.perf_counter() - start < LIMIT
    return err


@pytest.fixture
def sockets():
    """Unix sockets made by a test, closed at its end."""
    made: list[socket.socket] = []
    yield made
    for s in made:
        s.close()


def _socket(path: Path, sockets: list) -> None:
    """Bind by a name relative to its folder: AF_UNIX paths are capped at 108 bytes, which a deep
    temporary folder (pytest-xdist's popen-gwN, a long $TMPDIR) passes."""
    s = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        s.bind(path.name)
    finally:
        os.chdir(here)
    sockets.append(s)


def make_target(kind: str, path: Path, sockets: list) -> tuple[str, str]:
    """Make ``path`` a ``kind`` of non-regular file; returns (the path to give, the message)."""
    if kind == "fifo":
        os.mkfifo(path)
        return str(path), "is a FIFO, not a regular file"
    if kind == "folder":
        path.mkdir()
        return str(path), "is a folder"
    if kind == "socket":
        _socket(path, sockets)
        return str(path), "is a socket, not a regular file"
    if kind in ("link-to-null", "link-to-full"):
        path.symlink_to("/dev/null" if kind == "link-to-null" else "/dev/full")
        return str(path), "is a character device, not a regular file"
    if kind == "link-to-fifo":
        fifo = path.with_name("real-fifo")
        os.mkfifo(fifo)
        path.symlink_to(fifo)
        return str(path), "is a FIFO, not a regular file"
    raise AssertionError(kind)


KINDS = ["fifo", "folder", "socket", "link-to-null", "link-to-full", "link-to-fifo"]

#: Every file flag of every command, with the rest of a command line that would run (cheaply).
FILE_TARGETS = {
    "bench --csv": (["bench", "--games", "2", "--csv"], ".csv"),
    "bench --plot": (["bench", "--games", "2", "--plot"], ".png"),
    "solve --log": (["solve", "crane", "--log"], ".json"),
    "plot --out": (["plot", "histograms", "--solvers", "greedy", "--games", "2", "--out"], ".svg"),
    "evolve-strategy --out": (["evolve-strategy", "--generations", "1", "--mu", "2", "--lambda", "2",
                               "--train", "10", "--validation", "10", "--out"], ".json"),
    "evolve-strategy --log": (["evolve-strategy", "--generations", "1", "--mu", "2", "--lambda", "2",
                               "--train", "10", "--validation", "10", "--log"], ".json"),
    "evolve-strategy --checkpoint": (["evolve-strategy", "--generations", "1", "--mu", "2", "--lambda", "2",
                                      "--train", "10", "--validation", "10", "--checkpoint"], ".ckpt"),
    "ga-tree --tree": (["ga-tree", "--candidates", "answers", "--guess-from", "allowed", "--games", "2",
                        "--tree"], ".txt"),
    "ga-tree --out": (["ga-tree", "--candidates", "answers", "--guess-from", "allowed", "--games", "2",
                       "--tree", "{ok}", "--out"], ".json"),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("target", sorted(FILE_TARGETS))
def test_file_output_that_is_not_a_regular_file_is_refused_up_front(tmp_path, capsys, sockets, target, kind):
    argv, ext = FILE_TARGETS[target]
    path, message = make_target(kind, tmp_path / f"t{ext}", sockets)
    argv = [a.replace("{ok}", str(tmp_path / "ok.txt")) for a in argv]
    err = refused(capsys, [*argv, path])
    assert message in err and target.split()[1] in err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "real-fifo") == [f"t{ext}"]  # nothing written


@pytest.mark.parametrize("device, message", [("/dev/null", "is a character device, not a regular file"),
                                             ("/dev/full", "is a character device, not a regular file"),
                                             ("/dev/stdout", "")])
@pytest.mark.parametrize("target", ["bench --csv", "solve --log", "evolve-strategy --checkpoint", "ga-tree --tree"])
def test_devices_named_directly_are_refused(capsys, target, device, message):
    """/dev/null would swallow the result, /dev/full fail after the run, /dev/stdout (a pipe
    under pytest, a terminal or a file otherwise) is not ours to replace: use --json instead."""
    argv, _ = FILE_TARGETS[target]
    err = refused(capsys, [*argv, device])
    if device == "/dev/stdout":  # a terminal, a pipe or (under pytest) a file: refused all the same
        assert any(m in err for m in ("character device", "FIFO", "under /dev;")), err
    assert message in err


#: Folders a command writes several files into, with the files it would write there.
FOLDER_TARGETS = {
    "sweep": (["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "opener=tares,salet",
               "--seeds", "1", "--games", "2", "--jobs", "1", "--quiet", "--out"],
              [SPEC_FILE, RESULTS_FILE, LOCK_FILE]),
    "tune": (["tune", "--solver", "ga", "--space", "population=10:50", "--trials", "1", "--out"], list(OUT_FILES)),
}


@pytest.mark.parametrize("kind", ["fifo", "socket", "link-to-null", "link-to-fifo"])
@pytest.mark.parametrize("command", sorted(FOLDER_TARGETS))
def test_output_folder_that_is_not_a_folder_is_refused(tmp_path, capsys, sockets, command, kind):
    argv, _ = FOLDER_TARGETS[command]
    path, message = make_target(kind, tmp_path / "out", sockets)
    err = refused(capsys, [*argv, path])
    assert message.split(",")[0] + ", not a folder" in err


#: What a file inside an output folder is refused with (symlinks are never followed there).
INSIDE = {"fifo": "is a FIFO, not a regular file", "folder": "is a folder, not a regular file",
          "socket": "is a socket, not a regular file", "link-to-null": "is a symlink; refusing",
          "link-to-fifo": "is a symlink; refusing", "symlink": "is a symlink; refusing"}


@pytest.mark.parametrize("kind", sorted(INSIDE))
@pytest.mark.parametrize("command", sorted(FOLDER_TARGETS))
def test_files_inside_an_output_folder_are_checked_up_front(tmp_path, capsys, sockets, command, kind):
    """A sweep or tune folder (perhaps received from someone) whose files are FIFOs, devices,
    folders or symlinks: refused before anything runs; a symlink's target is left alone."""
    argv, names = FOLDER_TARGETS[command]
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for name in names:
        out = tmp_path / f"out-{name}"
        out.mkdir()
        if kind == "symlink":
            (out / name).symlink_to(victim)
        else:
            make_target(kind, out / name, sockets)
        err = refused(capsys, [*argv, str(out)])
        assert f"{name} {INSIDE[kind]}" in err
        assert sorted(p.name for p in out.iterdir() if p.name != "real-fifo") == [name]  # nothing else written
    assert victim.read_text() == "precious"


def test_a_fifo_results_file_does_not_hang_the_python_api(tmp_path):
    """run_sweep checks its folder itself: the API refuses what the CLI refuses."""
    from evo_wordle.sweep import SweepSpec, run_sweep

    out = tmp_path / "sweep"
    out.mkdir()
    os.mkfifo(out / RESULTS_FILE)
    spec = SweepSpec(solver="greedy", grid={"opener": ["tares"]}, seeds=1, games=2,
                     settings={"candidates": "answers"})
    with alarm(), pytest.raises(EvoWordleError, match="results.csv is a FIFO"):
        run_sweep(spec, out, jobs=1)
    assert sorted(p.name for p in out.iterdir()) == [RESULTS_FILE]


# ------------------------------------------------------------------------- the checks alone


def test_special_names_each_kind(tmp_path, sockets):
    os.mkfifo(tmp_path / "f")
    _socket(tmp_path / "s", sockets)
    (tmp_path / "r").write_text("x")
    (tmp_path / "l").symlink_to(tmp_path / "r")
    (tmp_path / "d").symlink_to(tmp_path / "gone")
    assert special(tmp_path / "f") == "a FIFO" and special(tmp_path / "s") == "a socket"
    assert special(Path("/dev/null")) == "a character device" and special(tmp_path) == "a folder"
    assert special(tmp_path / "r") is None and special(tmp_path / "missing") is None
    assert special(tmp_path / "l") is None and special(tmp_path / "l", follow=False) == "a symlink"
    assert special(tmp_path / "d") is None  # dangling: the write creates a regular file


def test_regular_targets_still_pass(tmp_path):
    (tmp_path / "old.csv").write_text("x")
    assert check_file(tmp_path / "old.csv", "--csv") == tmp_path / "old.csv"
    assert check_file(tmp_path / "new.csv", "--csv") == tmp_path / "new.csv"
    (tmp_path / "sweep").mkdir()
    (tmp_path / "sweep" / RESULTS_FILE).write_text("a\n")
    assert check_folder(tmp_path / "sweep", files=[RESULTS_FILE, SPEC_FILE]) == tmp_path / "sweep"
    assert check_folder(tmp_path / "new" / "deeper", files=[RESULTS_FILE]) == tmp_path / "new" / "deeper"


def _deny(monkeypatch, *paths: Path) -> None:
    """``os.access`` says no for ``paths`` (as for a user without the permission: the tests may run as root)."""
    real = os.access
    denied = {str(p) for p in paths}
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: str(p) not in denied and real(p, mode, **kw))


def test_the_check_agrees_with_the_atomic_writer(tmp_path, monkeypatch):
    """Files are written to a temporary file in their folder and renamed into place: the folder
    must be writable even when the file exists, and a symlink is replaced, so its target's
    permissions do not matter (a dangling link is fine)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "old.csv").write_text("x")
    victim = tmp_path / "read-only.txt"
    victim.write_text("precious")
    (tmp_path / "link.csv").symlink_to(victim)
    (tmp_path / "dangling.csv").symlink_to("/nonexistent/x.csv")
    (tmp_path / "loop.csv").symlink_to("loop.csv")
    _deny(monkeypatch, folder, victim)
    with pytest.raises(EvoWordleError, match=r"^--csv .*old.csv: folder .*ro is not writable$"):
        check_file(folder / "old.csv", "--csv")
    with pytest.raises(EvoWordleError, match=r"read-only.txt is not writable$"):
        check_file(victim, "--csv")
    assert check_file(tmp_path / "link.csv", "--csv") == tmp_path / "link.csv"
    assert check_file(tmp_path / "dangling.csv", "--csv") == tmp_path / "dangling.csv"
    assert check_file(tmp_path / "loop.csv", "--csv") == tmp_path / "loop.csv"  # replaced like any link


def test_a_file_of_another_user_in_a_sticky_folder_is_refused(tmp_path, monkeypatch):
    """In /tmp (sticky) only a file's owner may rename over it: refused up front, not after the run."""
    (tmp_path / "theirs.csv").write_text("x")
    (tmp_path / "link.csv").symlink_to("/nonexistent/x.csv")
    tmp_path.chmod(0o1777)
    assert check_file(tmp_path / "theirs.csv", "--csv")  # ours
    monkeypatch.setattr(os, "geteuid", lambda: 4242)  # someone else, not root
    for name in ("theirs.csv", "link.csv"):
        with pytest.raises(EvoWordleError, match=f"{name} belongs to another user in the sticky folder"):
            check_file(tmp_path / name, "--csv")
    assert check_file(tmp_path / "new.csv", "--csv") == tmp_path / "new.csv"


SHIPPED = Path(__file__).resolve().parent.parent / "data" / "strategies"


@pytest.mark.parametrize("command,flag,source", [
    ("cheatsheet --top 2 --tree {in} --export {out}", "tree", "answers-known-salet.tree"),
    ("cheatsheet --top 2 --tree {in} --csv {out}", "tree", "answers-known-salet.tree"),
    ("bench --games 2 --solver ga-search --tree {in} --csv {out}", "tree", "answers-known-salet.tree"),
    ("bench --games 2 --strategy {in} --json --csv {out}", "strategy", "p0-evolved.json"),
    ("evolve-strategy --generations 0 --init {in} --out {out}", "init", "p0-evolved.json"),
    ("bench --games 2 --allowed {in} --csv {out}", "allowed", "p0-evolved.json"),
])
@pytest.mark.parametrize("how", ["same", "symlink"])
def test_an_output_naming_an_input_file_is_refused(tmp_path, capsys, command, flag, source, how):
    """`cheatsheet --tree t --export t` replaced the tree by its JSON export (which no command
    reads as a tree) and `bench --tree t --csv t` by the games' CSV: an output that is a file the
    command reads is refused up front, through a symlink too, and the input is left as it was."""
    given = tmp_path / source
    given.write_bytes((SHIPPED / source).read_bytes())
    out = given
    if how == "symlink":
        out = tmp_path / "link"
        out.symlink_to(given)
    argv = command.format(**{"in": given, "out": out}).split(" ")
    err = refused(capsys, argv)
    output_flag = argv[len(argv) - 2 - argv[::-1].index(str(out))]  # the flag before the last mention
    assert err.endswith(f"error: {output_flag} {out} is the --{flag} file this command reads: writing it would "
                        "destroy that input; give the output another name\n"), err
    assert given.read_bytes() == (SHIPPED / source).read_bytes()
