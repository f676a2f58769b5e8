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
* Verified stamps: a big file whose digest was checked gets a stamp (mode 0600) naming what the
  kernel says of it (device, inode, size, owner, mtime and ctime in ns) and the digest; a later
  load may skip reading the file only while all of these still match (:func:`stamp_matches`).
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
from .files import atomic_write_bytes, make_temp, read_capped

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
    if writable_by_others(st):
        raise EvoWordleError(
            f"cache folder {root} is writable by {_writers(st)}; "
            f"chmod go-w {root} or use a folder of your own"
        )
    _check_parents(root)


def _check_parents(root: Path) -> None:
    """Refuse a cache folder inside a folder others may write without the sticky bit (as /tmp
    has): whoever may write there may rename the checked folder away and put their own in its
    place once this check has passed.  The path as given and the one its links lead to."""
    given = Path(os.path.abspath(root))
    for path in dict.fromkeys([*given.parents, *Path(os.path.realpath(root)).parents]):
        try:
            st = os.stat(path)
        except OSError:
            continue  # gone since the folder's own check (a race): nothing left to judge
        if writable_by_others(st) and not st.st_mode & stat.S_ISVTX:
            raise EvoWordleError(
                f"cache folder {root} is inside {path}, which {_writers(st)} may write (no sticky bit): they could "
                f"replace the cache folder; chmod go-w {path} (or +t) or use a folder of your own"
            )


def _writers(st: os.stat_result) -> str:
    """Who besides the owner may write what ``st`` describes, for a refusal (given it is so)."""
    return "others" if st.st_mode & stat.S_IWOTH else "its group"


def writable_by_others(st: os.stat_result) -> bool:
    """True if someone other than the owner may write (others, or a group that is not ours alone)."""
    return bool(st.st_mode & stat.S_IWOTH or (st.st_mode & stat.S_IWGRP and not _private_group(st.st_gid)))


def _private_group(gid: int) -> bool:
    """True for a user-private group (named after the user, no other member), as with umask 002.

    A user whose primary group it is belongs to it without being listed among its members."""
    try:
        import grp
        import pwd

        user = pwd.getpwuid(os.geteuid()).pw_name
        group = grp.getgrgid(gid)
    except (ImportError, KeyError):
        return False
    if group.gr_name != user or not set(group.gr_mem) <= {user}:
        return False
    return all(p.pw_gid != gid or p.pw_name == user for p in pwd.getpwall())


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


# --------------------------------------------------------------------------- verified stamps

#: A file changed less than this long before its check began gets no stamp: file times come from
#: a coarse clock, so a change within the same tick as the stamped one would leave them equal.
STAMP_MARGIN_NS = 2_000_000_000
_STAMP_MAX = 1024


def _identity(st: os.stat_result) -> dict:
    return {"dev": st.st_dev, "ino": st.st_ino, "size": st.st_size, "uid": st.st_uid,
            "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns}


def _stampable(st: os.stat_result) -> bool:
    """Only a regular file of ours that nobody else may write can be trusted by its stamp."""
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and not writable_by_others(st)


def stamp_matches(stamp: Path, st: os.stat_result, digest: str) -> bool:
    """True if ``stamp`` says that the file ``st`` describes was checked to hold ``digest``.

    Any write to the file (even one that restores its mtime) sets its ctime, a replaced file has
    another inode, so a match means the bytes are those that were checked.  A stamp counts only
    if it is a regular file of ours, writable by us alone, never followed through a symlink;
    anything else (missing, foreign, damaged) is False and the caller checks the whole file."""
    if not _stampable(st):
        return False
    try:
        fd = os.open(stamp, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        sst = os.fstat(fd)
        if not _stampable(sst) or sst.st_mode & 0o077 or sst.st_size > _STAMP_MAX:
            return False
        data = os.read(fd, _STAMP_MAX + 1)
    except OSError:
        return False
    finally:
        os.close(fd)
    try:
        info = json.loads(data)
    except ValueError:
        return False
    return info == {"digest": digest, **_identity(st)}


def write_stamp(stamp: Path, before: os.stat_result, after: os.stat_result, digest: str, started_ns: int) -> None:
    """Record that the file was checked to hold ``digest`` between the ``before`` and ``after``
    stats (the check began at ``started_ns``, ``time.time_ns()``).  Nothing is recorded if the
    file changed meanwhile or less than :data:`STAMP_MARGIN_NS` before the check began (a change
    in the same clock tick could go unseen), nor if it is not ours alone; a failed write only
    costs the next load a full check."""
    if _identity(before) != _identity(after) or not _stampable(after):
        return
    if max(after.st_mtime_ns, after.st_ctime_ns) > started_ns - STAMP_MARGIN_NS:
        return
    data = json.dumps({"digest": digest, **_identity(after)}).encode()
    try:
        fd, tmp = make_temp(stamp)
    except OSError:
        return
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, stamp)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


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


def _npy_vector(payload: bytes, n: int) -> np.ndarray | None:
    """The float64 vector of length ``n`` that a ``.npy`` payload holds, else None.  Its header is
    checked before any array is made: ``np.load`` would open a zip (``.npz``) payload as an archive
    and allocate whatever shape a header claims."""
    fh = io.BytesIO(payload)
    try:
        version = np.lib.format.read_magic(fh)
        if version == (1, 0):
            header = np.lib.format.read_array_header_1_0(fh)
        elif version == (2, 0):
            header = np.lib.format.read_array_header_2_0(fh)
        else:
            return None
    except ValueError:
        return None
    if header != ((n,), False, np.dtype(np.float64)) or len(payload) - fh.tell() != 8 * n:
        return None
    return np.frombuffer(payload, dtype=np.float64, offset=fh.tell()).copy()


def read_sealed_array(path: Path, kind: str, n: int) -> np.ndarray | None:
    """A sealed float64 vector of length ``n`` with only finite, non-negative values, else None."""
    payload = read_sealed(path, kind, limit=8 * n + 1024)
    if payload is None:
        return None
    values = _npy_vector(payload, n)
    ok = values is not None and bool(np.all(np.isfinite(values) & (values >= 0)))
    if not ok:
        notice(f"cache file {path} does not hold {n} {kind} values; recomputing it")
        return None
    return values
