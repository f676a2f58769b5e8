"""Safe file I/O: atomic writes that never follow a symlink, and capped reads of shared files.

Writes go to a fresh ``mkstemp`` file in the target's folder (``.NAME.PID.XXXXXXXX.tmp``: the
pid lets a later run recognise and remove the leftovers of a killed writer), are flushed and
renamed over the target.  A rename replaces a symlink at the target instead of writing through
it, and ``mkstemp`` (O_EXCL) never opens a planted one.  Files get the mode ``open()`` would give
them (0666 minus the umask), not mkstemp's 0600.

Reads of anything a user may pass or share go through :func:`read_capped`: only regular files
(a FIFO or a folder is refused before opening can block), at most ``limit`` bytes, decoded
strictly, so that no file can make the program hang, allocate without bound or print terminal
escape sequences (:func:`check_value`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

import numpy as np

from .errors import EvoWordleError

#: Suffix of every temporary file we create (see ``cachedir.remove_stale_temps``).
TEMP_SUFFIX = ".tmp"


def _umask() -> int:
    """The process umask, read without changing it (Linux), else by setting it back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def make_temp(path: Path) -> tuple[int, str]:
    """A new temporary file ``.NAME.PID.XXXXXXXX.tmp`` next to ``path`` (O_EXCL, never a planted
    symlink) with the mode ``open()`` would give it; returns (fd, name)."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.{os.getpid()}.", suffix=TEMP_SUFFIX)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
    except OSError:
        os.close(fd)
        os.unlink(tmp)  # mkstemp made it a moment ago
        raise
    return fd, tmp


def atomic_write(path: str | Path, write: Callable[[IO[bytes]], None], durable: bool = False) -> None:
    """Call ``write(fh)`` on a temporary file next to ``path``, then rename it over ``path``.

    ``durable`` adds an fsync before the rename (for results that cannot be recomputed)."""
    path = Path(path)
    fd, tmp = make_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: str | Path, data: bytes, durable: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (``durable``: fsync before the rename)."""
    atomic_write(path, lambda fh: fh.write(data), durable)


def atomic_write_text(path: str | Path, text: str, durable: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    atomic_write_bytes(path, text.encode("utf-8"), durable)


def atomic_write_csv(path: str | Path, rows: Iterable[Iterable], durable: bool = False) -> None:
    """Write ``rows`` as CSV (the ``csv`` module's default dialect, UTF-8) atomically."""
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    atomic_write_text(path, buf.getvalue(), durable)


def atomic_write_npy(path: str | Path, array: np.ndarray, durable: bool = False) -> None:
    """Write ``array`` as a ``.npy`` file atomically (never with pickles)."""
    atomic_write(path, lambda fh: np.save(fh, np.asarray(array), allow_pickle=False), durable)


def open_append_nofollow(path: str | Path) -> int:
    """A file descriptor appending to ``path`` (created if missing), refusing a symlink."""
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o666)
    except OSError as exc:
        if Path(path).is_symlink():
            raise EvoWordleError(f"{path} is a symlink; refusing to write through it") from None
        raise EvoWordleError(f"cannot write {path}: {exc.strerror}") from None


# ------------------------------------------------------------------------------------- reading


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n:,} bytes"


def read_capped(path: str | Path, limit: int, what: str, streams: bool = False) -> bytes:
    """The bytes of ``path`` (at most ``limit``), with a one-line EvoWordleError otherwise.

    Only regular files are read unless ``streams`` (pipes and devices, e.g. ``<(cmd)``) is set;
    either way no more than ``limit + 1`` bytes are ever read."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise EvoWordleError(f"{what} {path} does not exist") from None
    except OSError as exc:
        raise EvoWordleError(f"cannot read {what} {path}: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise EvoWordleError(f"{what} {path} is a folder, not a file")
    if not stat.S_ISREG(st.st_mode) and not streams:
        raise EvoWordleError(f"{what} {path} is not a regular file")
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise EvoWordleError(f"{what} {path} is too large ({_mb(st.st_size)}; at most {_mb(limit)})")
    try:
        flags = os.O_RDONLY | (0 if streams else os.O_NONBLOCK)
        fd = os.open(path, flags)
    except OSError as exc:
        raise EvoWordleError(f"cannot read {what} {path}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) and not streams:  # swapped after the stat
            raise EvoWordleError(f"{what} {path} is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise EvoWordleError(f"cannot read {what} {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise EvoWordleError(f"{what} {path} is too large (more than {_mb(limit)})")
    return b"".join(chunks)


def decode_utf8(data: bytes, path: str | Path, what: str) -> str:
    """``data`` as text, or a one-line error naming ``what``, ``path`` and the bad byte's offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EvoWordleError(f"{what} {path} is not UTF-8 text (bad byte at offset {exc.start})") from None


#: Deepest nesting accepted in a JSON file (ours are at most 4 levels deep).
MAX_JSON_DEPTH = 20


def control_char(s: str) -> str | None:
    """The first control character of ``s`` other than tab and newline (None if there is none)."""
    return next((c for c in s if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0), None)


def check_value(value: Any, path: str | Path, what: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse nesting deeper than ``max_depth`` and strings with control characters (terminal
    escape sequences among them), iteratively so that no input can exhaust the stack."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            raise EvoWordleError(f"{what} {path} is nested too deeply (more than {max_depth} levels)")
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):  # only what can nest or hold a control character is stacked:
            if item and depth >= max_depth:  # a flat list of numbers (a stored prior) then costs no tuple per item
                raise EvoWordleError(f"{what} {path} is nested too deeply (more than {max_depth} levels)")
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list, str)))
        elif isinstance(item, str) and (bad := control_char(item)) is not None:
            raise EvoWordleError(f"{what} {path} holds a control character ({bad!r})")


class RepeatedKey(Exception):
    """A JSON object naming one key twice (not a ValueError: ``parse_json`` reports it apart)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``object_pairs_hook`` for JSON from others: an object, unless a key repeats (``json`` kept
    the last copy, so a file whose first ``"weight"`` a reader sees played another one); raises
    :class:`RepeatedKey`, which :func:`parse_json` turns into its one line."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return obj


def parse_json(text: str, path: str | Path, what: str) -> Any:
    """JSON with a one-line error for bad syntax, a key given twice in one object, deep nesting
    or control characters."""
    try:
        value = json.loads(text, object_pairs_hook=unique_keys)
    except RepeatedKey as exc:
        key = str(exc.args[0])
        shown = repr(key[:40]) if control_char(key) is None else "with a control character"
        raise EvoWordleError(f"{what} {path} gives the key {shown} twice in one object") from None
    except RecursionError:
        raise EvoWordleError(f"{what} {path} is nested too deeply") from None
    except ValueError as exc:
        raise EvoWordleError(f"{what} {path} is not valid JSON (line {getattr(exc, 'lineno', '?')})") from None
    check_value(value, path, what)
    return value


def read_json(path: str | Path, limit: int, what: str) -> Any:
    """A capped, strictly decoded, depth-limited JSON file."""
    return parse_json(decode_utf8(read_capped(path, limit, what), path, what), path, what)
