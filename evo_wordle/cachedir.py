"""The cache folder: who may own it, leftovers of killed writers, and self-checking cache files.

* Trust: like ssh with its keys, a cache folder owned by another user or writable by group or
  others is refused (one line, exit 2): whoever can write there could plant a table or an
  opener that makes every solver report wrong figures.
* Leftovers: a writer killed half-way leaves ``.NAME.PID.XXXXXXXX.tmp``; the next run removes
  such files when their pid is gone or they are older than :data:`STALE_SECONDS` (only our own
  pattern, only regular files owned by us).
* Sealed files: the small caches (word frequencies, GA static entropy, openers) are stored as
  one JSON header line ``{"format": ..., "kind": ..., "size": ..., "sha256": ...}`` followed by
  the payload; a file whose digest does not match is reported in one line and recomputed.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .errors import EvoWordleError
from .files import atomic_write_bytes, read_capped

#: A temporary file whose writer is alive is left alone unless it is this old (seconds).
STALE_SECONDS = 3600
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[a-z0-9_]{8}\.tmp$")
#: The temporary names of evo-wordle ≤ 0.1 (no pid): removed by age only.
_LEGACY_TEMP = re.compile(r"^(\.patterns-[a-z0-9_]{8}\.npy\.tmp|tmp[a-z0-9_]{8}\.tmp(\.npy)?)$")

SEALED_FORMAT = "evo-wordle-cache"
#: Largest header line of a sealed file.
_HEADER_MAX = 1024


def notice(msg: str) -> None:
    """Tell the user about the cache on stderr, prefixed ``evo-wordle:``."""
    print(f"evo-wordle: {msg}", file=sys.stderr)


def default_cache_dir() -> Path:
    """The cache folder: ``$EVO_WORDLE_CACHE``, else the user cache folder."""
    env = os.environ.get("EVO_WORDLE_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("evo-wordle"))


def check_trusted(root: Path) -> None:
    """Refuse a cache folder owned by someone else or writable by group/others."""
    try:
        st = os.stat(root)
    except OSError as exc:
        raise EvoWordleError(f"cache folder {root} is not usable: {exc.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise EvoWordleError(f"cache folder {root} is not a folder")
    if st.st_uid != os.geteuid():
        raise EvoWordleError(
            f"cache folder {root} belongs to another user (uid {st.st_uid}); "
            "use a folder of your own (EVO_WORDLE_CACHE)"
        )
    if st.st_mode & stat.S_IWOTH or (st.st_mode & stat.S_IWGRP and not _private_group(st.st_gid)):
        raise EvoWordleError(
            f"cache folder {root} is writable by {'others' if st.st_mode & stat.S_IWOTH else 'its group'}; "
            f"chmod go-w {root} or use a folder of your own"
        )


def _private_group(gid: int) -> bool:
    """True for a user-private group (named after the user, no other member), as with umask 002."""
    try:
        import grp
        import pwd

        user = pwd.getpwuid(os.geteuid()).pw_name
        group = grp.getgrgid(gid)
    except (ImportError, KeyError):
        return False
    return group.gr_name == user and set(group.gr_mem) <= {user}


def prepare(root: Path | None = None) -> Path:
    """The cache folder, created (mode 0700) if missing, checked, with stale temp files removed."""
    root = Path(root) if root is not None else default_cache_dir()
    if not root.exists():
        try:
            root.mkdir(parents=True, mode=0o700, exist_ok=True)
        except OSError as exc:
            raise EvoWordleError(f"cache folder {root} is not writable: {exc.strerror}") from None
    check_trusted(root)
    remove_stale_temps(root)
    return root


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def remove_stale_temps(root: Path, now: float | None = None) -> list[str]:
    """Remove temporary files of dead or long-gone writers; returns their names."""
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    me = os.geteuid()
    for entry in entries:
        m = _TEMP.match(entry.name)
        legacy = m is None and _LEGACY_TEMP.match(entry.name)
        if m is None and not legacy:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_uid != me:
            continue
        old = now - st.st_mtime > STALE_SECONDS
        if old or (m is not None and int(m["pid"]) != os.getpid() and not _alive(int(m["pid"]))):
            try:
                os.unlink(entry.path)
                removed.append(entry.name)
            except OSError:
                pass
    return removed


@contextmanager
def lock(root: Path, name: str) -> Iterator[None]:
    """An exclusive lock held while one process builds ``name`` (others wait, then reuse it).

    The lock file stays (empty); the kernel releases the lock when its holder dies."""
    try:
        fd = os.open(root / f".{name}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:
        yield  # an unlockable folder still works: concurrent builders then each write a copy
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------ sealed files


def write_sealed(path: Path, kind: str, payload: bytes) -> None:
    """Store ``payload`` with its digest; an unwritable cache only costs time (no error)."""
    header = {"format": SEALED_FORMAT, "kind": kind, "size": len(payload),
              "sha256": hashlib.sha256(payload).hexdigest()}
    try:
        atomic_write_bytes(path, json.dumps(header).encode() + b"\n" + payload)
    except OSError:
        pass


def read_sealed(path: Path, kind: str, limit: int) -> bytes | None:
    """The payload of a sealed file, or None if it is missing; a damaged or foreign file is
    reported in one line and also gives None (the caller recomputes and rewrites it)."""
    if not os.path.lexists(path):
        return None
    try:
        data = read_capped(path, limit + _HEADER_MAX, "cache file")
        head, sep, payload = data.partition(b"\n")
        if not sep or len(head) > _HEADER_MAX:
            raise ValueError("no header")
        info = json.loads(head)
        if not isinstance(info, dict) or info.get("format") != SEALED_FORMAT or info.get("kind") != kind:
            raise ValueError("not a cache file of this kind")
        if info.get("size") != len(payload) or info.get("sha256") != hashlib.sha256(payload).hexdigest():
            raise ValueError("its digest does not match")
        return payload
    except (EvoWordleError, ValueError, UnicodeDecodeError) as exc:
        notice(f"cache file {path} is damaged ({exc}); recomputing it")
        return None


def write_sealed_array(path: Path, kind: str, values: np.ndarray) -> None:
    """Write ``values`` as a sealed ``.npy`` payload of ``kind`` (see :func:`write_sealed`)."""
    buf = io.BytesIO()
    np.save(buf, np.asarray(values), allow_pickle=False)
    write_sealed(path, kind, buf.getvalue())


def read_sealed_array(path: Path, kind: str, n: int) -> np.ndarray | None:
    """A sealed float64 vector of length ``n`` with only finite, non-negative values, else None."""
    payload = read_sealed(path, kind, limit=8 * n + 1024)
    if payload is None:
        return None
    try:
        values = np.load(io.BytesIO(payload), allow_pickle=False)
    except (ValueError, EOFError, OSError):
        values = None
    ok = (values is not None and values.shape == (n,) and values.dtype == np.float64
          and bool(np.all(np.isfinite(values) & (values >= 0))))
    if not ok:
        notice(f"cache file {path} does not hold {n} {kind} values; recomputing it")
        return None
    return values
