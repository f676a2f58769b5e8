"""Rule tests of evo_wordle/folder_lock.py: who holds a sweep folder, when a lock is refused, when
an owner counts as gone (by pid and start time, on this host only), what the refusal says, and
that a released lock leaves no owner on record (the module's targeted tests for mutation testing;
a second process holding the lock: tests/test_faults_processes.py)."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import time

import psutil
import pytest

from evo_wordle import folder_lock as fl
from evo_wordle.errors import EvoWordleError
from evo_wordle.folder_lock import LOCK_FILE, file_lock, folder_lock

HOST = socket.gethostname()


def test_start_time_is_the_kernels_start_tick():
    """Field 22 of /proc/PID/stat: the start time in clock ticks after boot."""
    ticks = fl._start_time(os.getpid())
    assert ticks is not None and ticks.isdigit()
    started = psutil.boot_time() + int(ticks) / os.sysconf("SC_CLK_TCK")
    assert abs(started - psutil.Process().create_time()) < 2.0
    parent = fl._start_time(os.getppid())
    assert parent is not None and int(parent) <= int(ticks)


def test_start_time_of_a_command_with_spaces_and_brackets(tmp_path):
    """The command name may hold ") " and spaces: fields are counted after the last ")"."""
    odd = tmp_path / "a) b c) d"
    odd.symlink_to(sys.executable)
    child = subprocess.Popen([str(odd), "-c", "import time; time.sleep(30)"])
    try:
        deadline = time.time() + 10
        while psutil.Process(child.pid).name() != odd.name[:15] and time.time() < deadline:
            time.sleep(0.02)
        assert f"({odd.name}) " in open(f"/proc/{child.pid}/stat").read()  # the case under test
        ticks = fl._start_time(child.pid)
        started = psutil.boot_time() + int(ticks) / os.sysconf("SC_CLK_TCK")
        assert abs(started - psutil.Process(child.pid).create_time()) < 2.0
    finally:
        child.kill()
        child.wait()


def test_start_time_of_no_process_is_none():
    assert fl._start_time(2**22 + 12345) is None  # above pid_max: never a process


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_alive_by_host_pid_and_start_time():
    me, started = os.getpid(), fl._start_time(os.getpid())
    assert fl._alive({"host": HOST, "pid": me, "started": started})
    assert fl._alive({"host": HOST, "pid": me})  # no start time recorded: the pid decides
    assert fl._alive({"host": HOST, "pid": me, "started": None})
    assert not fl._alive({"host": HOST, "pid": me, "started": str(int(started) + 1)})  # a reused pid
    assert not fl._alive({"host": HOST, "pid": _dead_pid(), "started": started})
    assert fl._alive({"host": HOST + "-other", "pid": _dead_pid()})  # another host: cannot tell, alive
    assert fl._alive({"pid": _dead_pid()})  # no host named: not this host's record, so alive


@pytest.mark.parametrize("pid", [0, -1, "123", None, 1.5, True])
def test_a_record_without_a_usable_pid_is_gone(pid):
    record = {"host": HOST, "started": None}
    if pid is not None:
        record["pid"] = pid
    assert fl._alive(record) is (pid is True)  # True is an int (pid 1, init): alive


def test_a_process_of_another_user_counts_as_alive(monkeypatch):
    def denied(pid, sig):
        raise PermissionError

    monkeypatch.setattr(fl.os, "kill", denied)
    assert fl._alive({"host": HOST, "pid": os.getpid(), "started": fl._start_time(os.getpid())})


def _fd(tmp_path, content: bytes) -> int:
    path = tmp_path / "record"
    path.write_bytes(content)
    return os.open(path, os.O_RDONLY)


@pytest.mark.parametrize("content, expected", [
    (b'{"pid": 7, "host": "h"}', {"pid": 7, "host": "h"}),
    (b"", {}), (b"  \n", {}), (b"{not json", {}), (b"[1, 2]", {}), (b"\xff\xfe", {}), (b'"text"', {}),
])
def test_read_record(tmp_path, content, expected):
    fd = _fd(tmp_path, content)
    try:
        assert fl._read_record(fd) == expected
    finally:
        os.close(fd)


def test_read_record_reads_at_most_the_cap(tmp_path):
    def record(size: int) -> bytes:
        head = b'{"pid": 7, "pad": "'
        return head + b"x" * (size - len(head) - 2) + b'"}'

    fd = _fd(tmp_path, record(fl._RECORD_CAP))
    try:
        assert fl._read_record(fd)["pid"] == 7  # a record of the cap's size is read whole
    finally:
        os.close(fd)
    fd = _fd(tmp_path, record(fl._RECORD_CAP + 1))
    try:
        assert fl._read_record(fd) == {}  # one byte more is cut: no longer JSON
    finally:
        os.close(fd)
    assert len(record(4096)) == 4096 == fl._RECORD_CAP


def test_owner_text():
    assert fl._owner_text({}) == "another process"
    assert fl._owner_text({"pid": 12, "host": "box"}) == "process 12 on box"
    since = time.mktime((2026, 11, 29, 6, 7, 8, 0, 0, -1))
    assert fl._owner_text({"pid": 12, "host": "box", "since": since}) == "process 12 on box since 06:07:08"
    assert fl._owner_text({"pid": 12, "host": "box", "since": int(since)}) == "process 12 on box since 06:07:08"
    assert fl._owner_text({"pid": 12, "host": "box", "since": "noon"}) == "process 12 on box"


@pytest.mark.parametrize("record", [
    {"pid": 12, "host": "\x1b]0;owned\x07\x1b[2Jbox"},  # reached the terminal in the refusal
    {"pid": "\x1b[2J", "host": "box"},
    {"pid": True, "host": "box"},
    {"pid": 12, "host": ["box"]},
    {"pid": 12, "host": "b" * 10_000},
])
def test_a_hostile_owner_record_shows_as_another_process(record):
    assert fl._owner_text(record) == "another process"


def test_a_host_name_is_shown_up_to_255_characters():
    """255 is the longest host name POSIX allows: shown; one more is no host's."""
    assert fl._owner_text({"pid": 12, "host": "b" * 255}) == f"process 12 on {'b' * 255}"
    assert fl._owner_text({"pid": 12, "host": "b" * 256}) == "another process"


def test_a_record_nested_too_deeply_reads_as_none(tmp_path):
    """Four kilobytes of brackets were a RecursionError out of the lock (an internal error)."""
    fd = os.open(tmp_path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.write(fd, b"[" * 2048 + b"]" * 2048)
        assert fl._read_record(fd) == {}
    finally:
        os.close(fd)


@pytest.mark.parametrize("content", [
    b'{"pid": 7, "host": "h"}' + b" " * 10_000,  # a valid head on a huge record: was read as pid 7
    b'{"pid": 7, "host": "h", "pid": 8}',  # a key given twice: json kept the last copy
    b'{"pid": 7, "host": "h\\u001b[2J"}',  # a control character, refused as in every shared file
    b'{"pid": 7, "x": ' + b"[" * 25 + b"]" * 25 + b"}",  # past the shared files' depth, far within json's
])
def test_a_record_the_capped_reader_refuses_is_damaged_and_reads_as_none(tmp_path, content):
    """The record is read as every shared JSON file is (files.parse_json, within the cap): what it
    refuses is a damaged record, {} (no owner known), as a record that is not JSON at all."""
    fd = _fd(tmp_path, content)
    try:
        assert fl._read_record(fd) == {}
    finally:
        os.close(fd)


@pytest.mark.parametrize("content", [b'{"pid": 7, "host": "h"}' + b" " * 10_000, b'{"pid": 1, "host": "h", "pid": 7}'])
def test_a_damaged_record_is_no_owner_either_way(tmp_path, monkeypatch, content):
    """Refused, it names no owner; without record locks, it is taken over (as an empty record)."""
    (tmp_path / LOCK_FILE).write_bytes(content)
    _locks_refused(monkeypatch, errno.EAGAIN)
    with pytest.raises(EvoWordleError) as info:
        with folder_lock(tmp_path):
            pass
    assert str(info.value) == f"another sweep is writing to {tmp_path} (another process)"
    _locks_refused(monkeypatch, errno.ENOLCK)
    (tmp_path / LOCK_FILE).write_bytes(content.replace(b'"h"', json.dumps(HOST).encode())
                                       .replace(b'"pid": 7', f'"pid": {os.getppid()}'.encode()))
    with folder_lock(tmp_path):
        assert json.loads((tmp_path / LOCK_FILE).read_text())["pid"] == os.getpid()


@pytest.mark.parametrize("since", [1e308, -1e20, float("nan"), float("inf")])
def test_an_owner_record_with_no_real_time_shows_none(since):
    """Each was an internal error (OverflowError or ValueError from localtime), not the refusal."""
    assert fl._owner_text({"pid": 12, "host": "box", "since": since}) == "process 12 on box"


def test_the_lock_records_its_owner_and_leaves_none_when_released(tmp_path):
    path = tmp_path / LOCK_FILE
    before = time.time()
    with folder_lock(tmp_path):
        record = json.loads(path.read_text())
        assert record["pid"] == os.getpid() and record["host"] == HOST
        assert record["started"] == fl._start_time(os.getpid())
        assert before <= record["since"] <= time.time()
        umask = os.umask(0)
        os.umask(umask)
        assert oct(path.stat().st_mode & 0o777) == oct(0o644 & ~umask)
    assert path.read_bytes() == b""
    with folder_lock(tmp_path):  # free again
        pass


def test_a_second_hold_in_this_process_is_refused_and_the_first_kept(tmp_path):
    with folder_lock(tmp_path, what="evolution"):
        with pytest.raises(EvoWordleError) as info:
            with folder_lock(tmp_path, what="evolution"):
                pass
        assert str(info.value) == f"another evolution is writing to {tmp_path} (this process)"
        assert json.loads((tmp_path / LOCK_FILE).read_text())["pid"] == os.getpid()  # still ours
    with folder_lock(tmp_path):  # released once the first is done
        pass


def test_a_body_that_raises_still_releases(tmp_path):
    with pytest.raises(KeyError):
        with folder_lock(tmp_path):
            raise KeyError("x")
    assert (tmp_path / LOCK_FILE).read_bytes() == b""
    with folder_lock(tmp_path):
        pass


def test_an_unopenable_lock_is_one_line(tmp_path):
    with pytest.raises(EvoWordleError) as info:
        with folder_lock(tmp_path / "missing"):
            pass
    assert str(info.value) == f"cannot lock {tmp_path / 'missing'}: No such file or directory"
    (tmp_path / "elsewhere").write_text("")
    (tmp_path / LOCK_FILE).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(EvoWordleError, match="cannot lock .*: Too many levels of symbolic links"):
        with folder_lock(tmp_path):
            pass


def _locks_refused(monkeypatch, code: int) -> None:
    def lockf(fd, flags):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(fl.fcntl, "lockf", lockf)


@pytest.mark.parametrize("code", [errno.EACCES, errno.EAGAIN])
def test_a_held_record_lock_names_its_owner(tmp_path, monkeypatch, code):
    (tmp_path / LOCK_FILE).write_text(json.dumps({"pid": 4242, "host": "far"}))
    _locks_refused(monkeypatch, code)
    with pytest.raises(EvoWordleError) as info:
        with folder_lock(tmp_path):
            pass
    assert str(info.value) == f"another sweep is writing to {tmp_path} (process 4242 on far)"
    assert json.loads((tmp_path / LOCK_FILE).read_text()) == {"pid": 4242, "host": "far"}  # untouched


def test_without_record_locks_a_live_owner_refuses(tmp_path, monkeypatch):
    live = {"pid": os.getppid(), "host": HOST, "started": fl._start_time(os.getppid())}
    (tmp_path / LOCK_FILE).write_text(json.dumps(live))
    _locks_refused(monkeypatch, errno.ENOLCK)
    with pytest.raises(EvoWordleError) as info:
        with folder_lock(tmp_path):
            pass
    assert str(info.value) == f"another sweep is writing to {tmp_path} (process {os.getppid()} on {HOST})"


@pytest.mark.parametrize("record", [{}, {"pid": 0, "host": HOST}, "dead"])
def test_without_record_locks_a_gone_owner_is_taken_over(tmp_path, monkeypatch, record):
    if record == "dead":
        record = {"pid": _dead_pid(), "host": HOST, "started": "1"}
    (tmp_path / LOCK_FILE).write_text(json.dumps(record) if record else "")
    _locks_refused(monkeypatch, errno.ENOLCK)
    with folder_lock(tmp_path):
        assert json.loads((tmp_path / LOCK_FILE).read_text())["pid"] == os.getpid()


def test_asking_whether_an_owner_lives_sends_it_no_signal(tmp_path):
    """Signal 0 only checks: an owner that would stop on any real signal keeps running."""
    code = ("import signal, sys, time\n"
            "for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGUSR1):\n"
            "    signal.signal(s, lambda n, f: sys.exit(3))\n"
            "print('ready', flush=True)\ntime.sleep(30)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n"
        assert fl._alive({"host": HOST, "pid": child.pid, "started": fl._start_time(child.pid)})
        time.sleep(0.3)
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()
        child.stdout.close()


def test_a_file_lock_is_held_beside_the_file_and_names_it(tmp_path):
    """A checkpoint's lock: FILE.lock next to FILE (never FILE itself, which the run rewrites),
    the refusal naming FILE; released, the lock file is removed."""
    target = tmp_path / "ck.json"
    with file_lock(target, "evolve-strategy run"):
        record = json.loads((tmp_path / "ck.json.lock").read_text())
        assert record["pid"] == os.getpid() and not target.exists()
        with pytest.raises(EvoWordleError, match=f"^another evolve-strategy run is writing to {target} "
                                                 r"\(this process\)$"):
            with file_lock(target, "evolve-strategy run"):
                pass
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_file_lock_removed_by_its_owner_before_it_was_taken_is_opened_again(tmp_path, monkeypatch):
    """The owner removes the lock file as it releases it: a process that opened that file just before
    and then locks it must not count it as held (a third would create and lock a new one)."""
    target, lock = tmp_path / "ck.json", tmp_path / "ck.json.lock"
    take, calls = fl._take, []

    def owner_releases_first(fd, ident, what, folder):
        calls.append(ident)
        if len(calls) == 1:
            lock.unlink()  # the owner's release, between this process's open and its lock
        take(fd, ident, what, folder)

    monkeypatch.setattr(fl, "_take", owner_releases_first)
    with file_lock(target, "evolve-strategy run"):
        assert len(calls) == 2  # the first file was gone once locked: opened again (its inode may be reused)
        held = os.stat(lock)
        assert (held.st_dev, held.st_ino) == calls[1] and json.loads(lock.read_text())["pid"] == os.getpid()
    assert not lock.exists()


def test_a_file_lock_whose_path_became_a_link_to_it_is_not_held(tmp_path, monkeypatch):
    """Between this process's open and its lock, the lock file was moved away and a link to it put
    in its place: the path is no longer the lock file (it is a link), so it is opened again, which
    a link refuses (no write goes through a link)."""
    target, lock, moved = tmp_path / "ck.json", tmp_path / "ck.json.lock", tmp_path / "elsewhere"
    take = fl._take

    def linked_first(fd, ident, what, folder):
        if not lock.is_symlink():
            lock.rename(moved)
            lock.symlink_to(moved)
        take(fd, ident, what, folder)

    monkeypatch.setattr(fl, "_take", linked_first)
    with pytest.raises(EvoWordleError, match=rf"^cannot lock {target}: Too many levels of symbolic links$"):
        with file_lock(target, "evolve-strategy run"):
            pytest.fail("held through a link")
