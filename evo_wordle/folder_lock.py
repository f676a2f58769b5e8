"""One writer per sweep folder (or checkpoint file), and a lock whose owner is gone is taken over.

The lock is a POSIX record lock (``fcntl.lockf``) on ``DIR/.lock`` (``FILE.lock``): the kernel drops it when
its owner dies, even by SIGKILL, and forked pool workers never inherit it (unlike ``flock``,
which let orphaned workers of a killed sweep block every re-run).  The file also records the
owner (pid, host, process start time) for the refusal message, and for file systems without
record locks, where a record whose process is gone (checked by pid and start time on this
host) is taken over.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import EvoWordleError
from .files import decode_utf8, parse_json

LOCK_FILE = ".lock"
#: Lock files (device, inode) this process holds: record locks do not exclude the process itself.
_HELD: set[tuple[int, int]] = set()
#: Largest owner record read back (it is a few dozen bytes).
_RECORD_CAP = 4096


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), to tell a reused pid apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]


def _alive(record: dict) -> bool:
    """Whether the process a lock record names still runs (records from other hosts count as alive)."""
    if record.get("host") != socket.gethostname():
        return True
    pid = record.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    started = record.get("started")
    return started is None or _start_time(pid) in (None, started)


def _read_record(fd: int) -> dict:
    """The owner record, or {} (no owner known) when it is missing or damaged: longer than the
    cap, not UTF-8, not one JSON object, or refused by :func:`~evo_wordle.files.parse_json` as
    every shared JSON file is (a key given twice, deep nesting, control characters)."""
    try:
        data = os.pread(fd, _RECORD_CAP + 1, 0)
        if len(data) > _RECORD_CAP or not data.strip():  # a huge record is damaged, not cut to a valid head
            return {}
        record = parse_json(decode_utf8(data, LOCK_FILE, "lock record"), LOCK_FILE, "lock record")
    except (OSError, EvoWordleError):
        return {}
    return record if isinstance(record, dict) else {}


def _write_record(fd: int) -> None:
    pid = os.getpid()
    record = {"pid": pid, "host": socket.gethostname(), "started": _start_time(pid), "since": time.time()}
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(record).encode(), 0)
    os.fsync(fd)


def _owner_text(record: dict) -> str:
    """Who holds the lock, as its record says, for the one-line refusal.  The record is another
    process's file: a host with an escape sequence reached the terminal, a ``since`` of 1e308 or
    NaN was an internal error, so only a plain pid, a printable host and a real time are shown."""
    pid, host, since = record.get("pid"), record.get("host"), record.get("since")
    if (isinstance(pid, bool) or not isinstance(pid, int) or not isinstance(host, str) or not host
            or len(host) > 255 or not host.isprintable()):
        return "another process"
    try:
        when = time.strftime(" since %H:%M:%S", time.localtime(since)) \
            if isinstance(since, int | float) and not isinstance(since, bool) else ""
    except (OverflowError, ValueError, OSError):
        when = ""
    return f"process {pid} on {host}{when}"


@contextmanager
def folder_lock(folder: Path, what: str = "sweep") -> Iterator[None]:
    """Hold ``folder``'s lock for the body, or refuse in one line if a live process holds it."""
    with _lock(Path(folder) / LOCK_FILE, what, folder):
        yield


@contextmanager
def file_lock(target: Path, what: str) -> Iterator[None]:
    """Hold the lock of one file (``FILE.lock`` beside it, e.g. an evolution's checkpoint) for the
    body, as :func:`folder_lock` holds a folder's: one writer, a dead owner's lock taken over.
    Released, the lock file is removed (by its holder, so nothing is left beside FILE)."""
    target = Path(target)
    with _lock(target.with_name(target.name + ".lock"), what, target, remove=True):
        yield


def _same_file(path: Path, ident: tuple[int, int]) -> bool:
    """Whether ``path`` is still the lock file locked (its releasing owner may have removed it)."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == ident


def _take(fd: int, ident: tuple[int, int], what: str, folder: Path) -> None:
    """Lock ``fd`` or refuse in one line naming the live owner."""
    if ident in _HELD:
        raise EvoWordleError(f"another {what} is writing to {folder} (this process)")
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EAGAIN):
            raise EvoWordleError(
                f"another {what} is writing to {folder} ({_owner_text(_read_record(fd))})"
            ) from None
        # No record locks on this file system: trust the owner record and its liveness.
        record = _read_record(fd)
        if record and _alive(record):
            raise EvoWordleError(f"another {what} is writing to {folder} ({_owner_text(record)})") from None


@contextmanager
def _lock(path: Path, what: str, folder: Path, remove: bool = False) -> Iterator[None]:
    """Hold the lock file ``path`` of ``folder`` (a folder or a file) for the body; with ``remove``,
    delete it on release, so a lock taken on a file its owner has just removed is taken again."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise EvoWordleError(f"cannot lock {folder}: {exc.strerror}") from None
        st = os.fstat(fd)
        ident = (st.st_dev, st.st_ino)
        try:
            _take(fd, ident, what, folder)
        except BaseException:
            os.close(fd)
            raise
        if not remove or _same_file(path, ident):
            break
        os.close(fd)  # removed by its owner between our open and our lock: open the new one
    try:
        _write_record(fd)
        _HELD.add(ident)
        try:
            yield
        finally:
            _HELD.discard(ident)
            if remove and _same_file(path, ident):
                os.unlink(path)  # still held: whoever opened it before sees it gone and opens again
            else:
                os.ftruncate(fd, 0)  # released: no owner left on record
    finally:
        os.close(fd)
