"""Output paths checked before any work starts, so a long run never ends in an unwritable file.

Every command that writes a file (``bench --csv/--plot``, ``sweep --out``, ``plot --out``,
``evolve-strategy --out/--log/--checkpoint``, ``ga-tree --tree/--out``, ``solve --log``,
``cheatsheet --csv/--plot/--export``) calls :func:`check_file` or :func:`check_folder` on its
targets up front.  Files are written by :mod:`evo_wordle.files` (a temporary file in the
target's folder renamed over it), so the check asks what that writer needs: a writable folder,
and for a symlink only the link itself (the rename replaces it; its target is never written).
What can still fail at the end (a disk that fills up meanwhile) is reported by
:func:`write_failed` after the result has been printed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import EvoWordleError, OutputError

#: Image formats matplotlib writes for every figure command.
IMAGE_FORMATS = (".png", ".svg", ".pdf")
#: Pseudo file systems and device folders nothing should be written to, whether the path is
#: under them as given (/dev/stdout, /proc/self/fd/1 point at whatever stdout is) or once resolved.
_FORBIDDEN = ("/proc", "/sys", "/dev")
#: ... except a RAM disk for ordinary files.
_ALLOWED = ("/dev/shm",)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/")


def _forbidden_root(path: Path) -> str | None:
    """The pseudo file system ``path`` is under (as given or resolved), or None.  (``realpath``
    stops at a symlink loop, which the writer replaces like any link, where ``resolve`` raises.)"""
    for text in (os.path.abspath(path), os.path.realpath(path)):
        for root in _FORBIDDEN:
            if _under(text, root) and not any(_under(text, ok) for ok in _ALLOWED):
                return root
    return None


def _writable_dir(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words (for 'X is a FIFO, not a regular file')."""
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISLNK, "a symlink")):
        if test(mode):
            return name
    return "a special file"


def special(path: Path, follow: bool = True) -> str | None:
    """What ``path`` is if it exists and is not a regular file ("a FIFO", "a character device",
    "a folder", …; with ``follow=False`` also "a symlink"), else None.

    Writing to such a target blocks for ever (a FIFO without reader), vanishes (/dev/null),
    fails only at the end (/dev/full) or replaces something that is not ours to replace."""
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError:
        return None  # missing, or a dangling symlink (created by the write), or unreachable
    return None if stat.S_ISREG(st.st_mode) else _kind(st.st_mode)


def _sticky_other(path: Path, folder: Path) -> bool:
    """``path`` exists in a sticky folder (such as /tmp) where neither it nor the folder is ours:
    only their owners (or root) may rename over it."""
    try:
        mine, st, dst = os.geteuid(), os.lstat(path), os.stat(folder)
    except (OSError, AttributeError):
        return False
    return bool(dst.st_mode & stat.S_ISVTX) and mine not in (0, st.st_uid, dst.st_uid)


def check_file(text: str | Path, flag: str = "--out", suffixes: tuple[str, ...] | None = None) -> Path:
    """A file path that can be written: not empty, a regular file if it exists (never a folder,
    FIFO, device such as /dev/null, or socket, even behind a symlink), in an existing writable
    folder, not under /proc, /sys or /dev (/dev/stdout included), and (with ``suffixes``)
    ending in one of them.  Else one line.  There is no ``-`` for stdout: commands print to stdout anyway
    (``--json`` for the machine-readable form).

    It agrees with the atomic writer of :mod:`evo_wordle.files`: the folder must be writable even
    for an existing file (the temporary file is made there), an existing regular file must be
    writable, and a symlink (dangling or not) is fine whatever its target's permissions, since
    the rename replaces the link itself; in a sticky folder the entry must be ours to replace."""
    if text is None or str(text).strip() == "":
        raise EvoWordleError(f"{flag} needs a file name, not an empty string")
    path = Path(text)
    kind = special(path)
    if kind == "a folder" or str(text).endswith(os.sep):
        raise EvoWordleError(f"{flag} {text} is a folder; give a file name")
    if kind is not None:
        raise EvoWordleError(f"{flag} {text} is {kind}, not a regular file; give a file name")
    if (root := _forbidden_root(path)) is not None:
        raise EvoWordleError(f"{flag} {text} is under {root}; give a normal file")
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise EvoWordleError(f"{flag} must end in {', '.join(suffixes)}, not {path.name!r}")
    folder = path.parent
    if not folder.is_dir():
        raise EvoWordleError(f"{flag} {text}: folder {folder} does not exist")
    if not path.is_symlink() and path.exists() and not os.access(path, os.W_OK):
        raise EvoWordleError(f"{flag} {text} is not writable")
    if not _writable_dir(folder):
        raise EvoWordleError(f"{flag} {text}: folder {folder} is not writable")
    if _sticky_other(path, folder):
        raise EvoWordleError(f"{flag} {text} belongs to another user in the sticky folder {folder}; "
                             "it cannot be replaced: give another name")
    return path


def check_folder(text: str | Path, flag: str = "--out", files: Iterable[str] = ()) -> Path:
    """A folder that exists and is writable, or can be created (its nearest existing parent is
    writable); not a file, not empty, not under /proc, /sys or /dev.  The ``files`` the command will
    write in it must be regular files where they exist, and not symlinks (a shared folder could
    point them at someone's files).  Else one line."""
    if text is None or str(text).strip() == "":
        raise EvoWordleError(f"{flag} needs a folder name, not an empty string")
    path = Path(text)
    kind = special(path)
    if path.exists() and kind != "a folder":
        raise EvoWordleError(f"{flag} {text} is {kind or 'a file'}, not a folder")
    if (root := _forbidden_root(path)) is not None:
        raise EvoWordleError(f"{flag} {text} is under {root}; give a normal folder")
    for name in files if kind == "a folder" else ():
        inner = special(path / name, follow=False)
        if inner == "a symlink":
            raise EvoWordleError(f"{flag} {text}: {name} is a symlink; refusing to write through it")
        if inner is not None:
            raise EvoWordleError(f"{flag} {text}: {name} is {inner}, not a regular file; remove it")
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise EvoWordleError(f"{flag} {text}: {probe} is a file, not a folder")
    if not _writable_dir(probe):
        raise EvoWordleError(f"{flag} {text}: {probe} is not writable")
    return path


def write_failed(path: str | Path, exc: OSError, printed: bool = True) -> OutputError:
    """The one-line error for a write that failed at the end: ``cannot write FILE: REASON``,
    with ``(the result above is complete)`` when the result was printed before (``printed``)."""
    reason = exc.strerror or exc.__class__.__name__
    note = " (the result above is complete)" if printed else ""
    return OutputError(f"cannot write {path}: {reason}{note}")


@contextmanager
def writing(path: str | Path | None = None, printed: bool = True) -> Iterator[None]:
    """Writes at the end of a command (after its result is printed, unless not ``printed``): a
    failure is one line naming ``path``, the file the user gave (never the writer's temporary
    file), or else the file the error names."""
    try:
        yield
    except OSError as exc:
        raise write_failed(path or exc.filename or "the output", exc, printed) from None
