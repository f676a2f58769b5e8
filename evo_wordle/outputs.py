"""Output paths checked before any work starts, so a long run never ends in an unwritable file.

Every command that writes a file (``bench --csv/--plot``, ``sweep --out``, ``plot --out``,
``evolve-strategy --out/--log/--checkpoint``, ``ga-tree --tree/--out``, ``solve --log``) calls
:func:`check_file` or :func:`check_folder` on its targets up front.  What can still fail at the
end (a disk that fills up meanwhile) is reported by :func:`write_failed` after the result has
been printed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import EvoWordleError, OutputError

#: Image formats matplotlib writes for every figure command.
IMAGE_FORMATS = (".png", ".svg", ".pdf")
#: Pseudo file systems nothing should be written to.
_FORBIDDEN = ("/proc", "/sys")


def _is_under_forbidden(path: Path) -> bool:
    resolved = str(path.resolve())
    return any(resolved == root or resolved.startswith(root + "/") for root in _FORBIDDEN)


def _writable_dir(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


def check_file(text: str | Path, flag: str = "--out", suffixes: tuple[str, ...] | None = None) -> Path:
    """A file path that can be written: not empty, not a folder, in an existing writable folder,
    not under /proc or /sys, and (with ``suffixes``) ending in one of them.  Else one line."""
    if text is None or str(text).strip() == "":
        raise EvoWordleError(f"{flag} needs a file name, not an empty string")
    path = Path(text)
    if path.is_dir() or str(text).endswith(os.sep):
        raise EvoWordleError(f"{flag} {text} is a folder; give a file name")
    if _is_under_forbidden(path):
        raise EvoWordleError(f"{flag} {text} is under /proc or /sys; give a normal file")
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise EvoWordleError(f"{flag} must end in {', '.join(suffixes)}, not {path.name!r}")
    folder = path.parent
    if not folder.is_dir():
        raise EvoWordleError(f"{flag} {text}: folder {folder} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise EvoWordleError(f"{flag} {text} is not writable")
    if not path.exists() and not _writable_dir(folder):
        raise EvoWordleError(f"{flag} {text}: folder {folder} is not writable")
    return path


def check_folder(text: str | Path, flag: str = "--out") -> Path:
    """A folder that exists and is writable, or can be created (its nearest existing parent is
    writable); not a file, not empty, not under /proc or /sys.  Else one line."""
    if text is None or str(text).strip() == "":
        raise EvoWordleError(f"{flag} needs a folder name, not an empty string")
    path = Path(text)
    if _is_under_forbidden(path):
        raise EvoWordleError(f"{flag} {text} is under /proc or /sys; give a normal folder")
    if path.exists() and not path.is_dir():
        raise EvoWordleError(f"{flag} {text} is a file, not a folder")
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise EvoWordleError(f"{flag} {text}: {probe} is a file, not a folder")
    if not _writable_dir(probe):
        raise EvoWordleError(f"{flag} {text}: {probe} is not writable")
    return path


def write_failed(path: str | Path, exc: OSError) -> OutputError:
    """The one-line error for a write that failed at the end (the result is already printed)."""
    reason = exc.strerror or exc.__class__.__name__
    return OutputError(f"cannot write {path}: {reason} (the result above is complete)")


@contextmanager
def writing(path: str | Path | None = None) -> Iterator[None]:
    """Writes at the end of a command (after its result is printed): a failure is one line
    naming ``path`` (or the file the error names)."""
    try:
        yield
    except OSError as exc:
        raise write_failed(exc.filename or path or "the output", exc) from None
