"""Fault suite, cache: every kind of damage detected and rebuilt, concurrent and killed builders,
full disks, oversized lists, foreign cache folders, planted small caches, stale temp files."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context, cachedir, table
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.table import cache_paths, checksum, load_table
from evo_wordle.words import load_words

ROOT = Path(__file__).resolve().parents[1]


def _list_file(tmp_path: Path, n: int, name: str = "allowed.txt") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(load_words().allowed[:n]) + "\n")
    return path


@pytest.fixture
def small(tmp_path):
    """400 words, their table built once into a private cache folder."""
    words = load_words(allowed=_list_file(tmp_path, 400))
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    return words, cache, good


def _temps(cache: Path) -> list[str]:
    return [p.name for p in cache.iterdir() if p.name.endswith(".tmp")]


# ----------------------------------------------------------------------------- damage kinds


def _swap_cells(t: np.ndarray) -> None:  # two different cells of one row
    row = t[3]
    j = int(np.flatnonzero(row != row[0])[0])
    row[0], row[j] = row[j], row[0]


def _swap_cells_column(t: np.ndarray) -> None:
    col = t[:, 5]
    i = int(np.flatnonzero(col != col[0])[0])
    t[0, 5], t[i, 5] = t[i, 5], t[0, 5]


def _swap_rows(t: np.ndarray) -> None:
    t[[10, 200]] = t[[200, 10]]


def _swap_columns(t: np.ndarray) -> None:
    t[:, [7, 300]] = t[:, [300, 7]]


def _swap_far_cells(t: np.ndarray) -> None:  # same byte position of two 64-bit words
    flat = t.reshape(-1)
    j = next(j for j in range(8, len(flat), 8) if flat[j] != flat[0])
    flat[0], flat[j] = flat[j], flat[0]


def _edit_table(edit):
    def damage(npy: Path, meta: Path, good: np.ndarray) -> None:
        t = good.copy()
        edit(t)
        assert not np.array_equal(t, good)
        np.save(npy, t)

    return damage


def _write(kind: str, data):
    def damage(npy: Path, meta: Path, good: np.ndarray) -> None:
        target = npy if kind == "npy" else meta
        target.unlink()
        if isinstance(data, bytes):
            target.write_bytes(data)
        else:
            target.write_text(data)

    return damage


def _npz(npy: Path, meta: Path, good: np.ndarray) -> None:
    npy.unlink()
    with open(npy, "wb") as fh:
        np.savez(fh, table=good)
    assert zipfile.is_zipfile(npy)


def _truncate(npy: Path, meta: Path, good: np.ndarray) -> None:
    raw = npy.read_bytes()
    npy.write_bytes(raw[: len(raw) // 2])


def _trailing(npy: Path, meta: Path, good: np.ndarray) -> None:
    with open(npy, "ab") as fh:
        fh.write(b"\0" * 64)


def _flip(npy: Path, meta: Path, good: np.ndarray) -> None:
    raw = bytearray(npy.read_bytes())
    raw[-1000] ^= 0x5A
    npy.write_bytes(bytes(raw))


def _other_dtype(npy: Path, meta: Path, good: np.ndarray) -> None:
    np.save(npy, good.astype(np.uint16))


def _other_shape(npy: Path, meta: Path, good: np.ndarray) -> None:
    np.save(npy, good[:-1])


def _pickled(npy: Path, meta: Path, good: np.ndarray) -> None:
    obj = np.empty((len(good), len(good)), dtype=object)
    np.save(npy, obj[:2, :2], allow_pickle=True)


def _fortran(npy: Path, meta: Path, good: np.ndarray) -> None:
    np.save(npy, np.asfortranarray(good))


def _empty_dir(npy: Path, meta: Path, good: np.ndarray) -> None:
    npy.unlink()
    npy.mkdir()


def _fifo(npy: Path, meta: Path, good: np.ndarray) -> None:
    npy.unlink()
    os.mkfifo(npy)


def _symlink(npy: Path, meta: Path, good: np.ndarray) -> None:
    victim = npy.parent.parent / "victim.npy"
    np.save(victim, good)
    npy.unlink()
    npy.symlink_to(victim)


def _sidecar(transform):
    def damage(npy: Path, meta: Path, good: np.ndarray) -> None:
        info = json.loads(meta.read_text())
        meta.write_text(json.dumps(transform(info)))

    return damage


def _no_sidecar(npy: Path, meta: Path, good: np.ndarray) -> None:
    meta.unlink()


def _sidecar_dir(npy: Path, meta: Path, good: np.ndarray) -> None:
    meta.unlink()
    meta.mkdir()


DAMAGE = {
    "zero-bytes": _write("npy", b""),
    "random-bytes": _write("npy", np.random.default_rng(1).bytes(5000)),
    "npz-zip": _npz,
    "truncated": _truncate,
    "trailing-bytes": _trailing,
    "flipped-byte": _flip,
    "swapped-cells-in-row": _edit_table(_swap_cells),
    "swapped-cells-in-column": _edit_table(_swap_cells_column),
    "swapped-rows": _edit_table(_swap_rows),
    "swapped-columns": _edit_table(_swap_columns),
    "swapped-aligned-bytes": _edit_table(_swap_far_cells),
    "transposed": _edit_table(lambda t: t.__setitem__(slice(None), t.T.copy())),
    "all-zero": _edit_table(lambda t: t.fill(0)),
    "other-dtype": _other_dtype,
    "other-shape": _other_shape,
    "object-dtype-pickle": _pickled,
    "fortran-order": _fortran,
    "empty-folder": _empty_dir,
    "symlink": _symlink,
    "fifo": _fifo,
    "text-file": _write("npy", "patterns\n"),
    "sidecar-list": _write("meta", "[]"),
    "sidecar-string": _write("meta", '"x"'),
    "sidecar-torn": _write("meta", '{"version": 2, "dig'),
    "sidecar-missing": _no_sidecar,
    "sidecar-folder": _sidecar_dir,
    "sidecar-other-list": _sidecar(lambda i: {**i, "digest": "0" * 64}),
    "sidecar-old-version": _sidecar(lambda i: {**i, "version": 1}),
    "sidecar-int-checksum": _sidecar(lambda i: {**i, "checksum": 12345}),
    "sidecar-wrong-checksum": _sidecar(lambda i: {**i, "checksum": "0" * 64}),
    "sidecar-huge": _write("meta", json.dumps({"pad": "x" * 10_000})),
    "sidecar-nested": _write("meta", "[" * 100_000 + "]" * 100_000),
    "sidecar-nested-small": _write("meta", "[" * 2000 + "]" * 2000),
    "sidecar-not-utf8": _write("meta", b"\xff\xfe{}"),
}


def damage_and_reload(setup, capsys, damage: str):
    """Apply one damage to a cached table, load it again: one notice, the good table back."""
    words, cache, good = setup
    npy, meta = cache_paths(words, cache)
    DAMAGE[damage](npy, meta, good)
    capsys.readouterr()
    repaired = load_table(words, cache)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rebuilding" in err, err
    assert np.array_equal(np.array(repaired), good)
    return words, cache, good, npy, meta


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_every_damage_is_detected_and_rebuilt(small, capsys, damage):
    words, cache, good, npy, meta = damage_and_reload(small, capsys, damage)
    assert npy.is_file() and not npy.is_symlink() and meta.is_file()
    load_table(words, cache)
    assert capsys.readouterr().err == ""  # valid again
    assert not _temps(cache)
    victim = cache.parent / "victim.npy"
    if victim.exists():  # the symlink was replaced, its target left alone
        assert np.array_equal(np.load(victim), good)


def test_a_folder_with_content_at_the_table_path_is_one_line_error(small, capsys):
    words, cache, good = small
    npy, meta = cache_paths(words, cache)
    npy.unlink()
    npy.mkdir()
    (npy / "keep").write_text("mine")
    allowed = cache.parent / "allowed.txt"
    os.environ["EVO_WORDLE_CACHE"], old = str(cache), os.environ.get("EVO_WORDLE_CACHE")
    try:
        assert main(["table", "--allowed", str(allowed)]) == 2
    finally:
        os.environ["EVO_WORDLE_CACHE"] = old or ""
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "not empty; remove it" in err  # the unusable notice + the error
    assert (npy / "keep").read_text() == "mine"


def test_checksum_sees_position():
    rng = np.random.default_rng(0)
    t = rng.integers(0, 243, size=(1000, 1000), dtype=np.uint8)
    base = checksum(t)
    for _ in range(50):
        u = t.copy()
        i, j = rng.integers(0, 1000, size=2), rng.integers(0, 1000, size=2)
        if u[i[0], i[1]] == u[j[0], j[1]]:
            continue
        u[i[0], i[1]], u[j[0], j[1]] = u[j[0], j[1]], u[i[0], i[1]]
        assert checksum(u) != base


def test_swapped_rows_of_the_full_table_are_caught_and_figures_stay_right(tmp_path, ctx, capsys):
    """The issue's case: swapped rows used to pass the sum check and give wrong figures."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    npy, meta = cache_paths(ctx.words, cache)
    src_npy, src_meta = cache_paths(ctx.words, Path(os.environ["EVO_WORDLE_CACHE"]))
    t = np.array(ctx.table)
    i, j = ctx.words.index("tares"), ctx.words.index("fuzzy")
    t[[i, j]] = t[[j, i]]
    np.save(npy, t)
    meta.write_bytes(src_meta.read_bytes())
    del t
    c = Context(cache_dir=cache)
    assert round(float(c.entropy(["tares"])[0]), 8) == 6.19405254
    assert "checksum does not match" in capsys.readouterr().err


# ------------------------------------------------------------------------ concurrency, kill

BUILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from evo_wordle.table import load_table
    from evo_wordle.words import load_words
    words = load_words(allowed=sys.argv[1])
    t = load_table(words, Path(sys.argv[2]), rebuild=sys.argv[3] == "rebuild")
    print(int(t.sum(dtype="int64")))
""")


def _builders(allowed: Path, cache: Path, mode: str, n: int = 8) -> list[subprocess.CompletedProcess]:
    procs = [subprocess.Popen([sys.executable, "-c", BUILD, str(allowed), str(cache), mode],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(n)]
    return [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["cold", "rebuild", "damaged"])
def test_eight_concurrent_builders_all_succeed(tmp_path, mode):
    allowed = _list_file(tmp_path, 1500)
    words = load_words(allowed=allowed)
    cache = tmp_path / "cache"
    expected = None
    if mode != "cold":
        expected = int(np.array(load_table(words, cache)).sum(dtype=np.int64))
    if mode == "damaged":
        npy, _ = cache_paths(words, cache)
        npy.write_bytes(b"")
    results = _builders(allowed, cache, "rebuild" if mode == "rebuild" else "load")
    assert [rc for rc, _, _ in results] == [0] * 8, [err for _, _, err in results]
    sums = {out.strip() for _, out, _ in results}
    assert len(sums) == 1
    table_now = np.array(load_table(words, cache))
    assert int(table_now.sum(dtype=np.int64)) == int(sums.pop())
    assert expected is None or int(table_now.sum(dtype=np.int64)) == expected
    assert np.array_equal(table_now, table.build_table(words.letters))
    assert not _temps(cache)
    if mode == "damaged":  # one builder repaired it, the others waited and reused it
        notices = sum(err.count("rebuilding") for _, _, err in results)
        assert notices == 1


@pytest.mark.slow
def test_sigkill_during_build_then_rerun_gives_the_same_table(tmp_path):
    allowed = _list_file(tmp_path, 6000)
    words = load_words(allowed=allowed)
    reference = table.build_table(words.letters)
    rng = random.Random(13)
    killed_mid_build = 0
    for attempt in range(3):
        cache = tmp_path / f"cache{attempt}"
        proc = subprocess.Popen([sys.executable, "-c", BUILD, str(allowed), str(cache), "rebuild"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # wait until the build has started (its temp file exists), then kill at a random point
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if cache.exists() and _temps(cache):
                break
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed_mid_build += proc.returncode == -signal.SIGKILL and bool(_temps(cache))
        again = subprocess.run([sys.executable, "-c", BUILD, str(allowed), str(cache), "load"],
                               capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
        assert np.array_equal(np.array(load_table(words, cache)), reference)
        assert not _temps(cache)
    assert killed_mid_build >= 1  # at least one kill left a half-built temp file to clean up


# --------------------------------------------------------------------------- stale temp files


def test_stale_temp_files_removed_only_when_ours_and_dead_or_old(tmp_path, writer):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    names = {
        "dead": f".patterns-v2-0123456789abcdef.npy.{dead}.abcd1234.tmp",
        "alive": f".openers.cache.{writer.pid}.abcd1234.tmp",
        "alive-old": f".freq-x.cache.{writer.pid}.zzzz9999.tmp",
        "legacy-old": ".patterns-q1w2e3r4.npy.tmp",
        "legacy-new": ".patterns-a1s2d3f4.npy.tmp",
        "not-ours": f"notes.{dead}.abcd1234.txt",
        "user-file": "patterns.tmp",
    }
    for name in names.values():
        (cache / name).write_bytes(b"x" * 100)
    old = time.time() - 2 * cachedir.STALE_SECONDS
    for key in ("alive-old", "legacy-old"):
        os.utime(cache / names[key], (old, old))
    victim = tmp_path / "victim"
    victim.write_text("keep")
    link = cache / f".sweep.json.{dead}.abcd1234.tmp"
    link.symlink_to(victim)
    removed = cachedir.remove_stale_temps(cache)
    assert sorted(removed) == sorted([names["dead"], names["alive-old"], names["legacy-old"]])
    left = {p.name for p in cache.iterdir()}
    assert {names[k] for k in ("alive", "legacy-new", "not-ours", "user-file")} | {link.name} == left
    assert victim.read_text() == "keep"
    with pytest.raises(subprocess.TimeoutExpired):  # asking whether it lives did not signal it
        writer.wait(timeout=0.3)



def test_a_link_met_first_among_the_temps_does_not_end_the_cleanup(tmp_path, monkeypatch):
    """An entry passed over (a link, another user's file) must not stop the scan: the files
    after it are still looked at.  The directory's own order put the link last in the test
    above on some file systems, so here it comes first."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    (tmp_path / "victim").write_text("keep")
    (cache / f".sweep.json.{dead}.abcd1234.tmp").symlink_to(tmp_path / "victim")
    stale = cache / f".patterns-v2-0123456789abcdef.npy.{dead}.abcd1234.tmp"
    stale.write_bytes(b"x")
    real = os.scandir
    monkeypatch.setattr(cachedir.os, "scandir", lambda path: sorted(real(path), key=lambda e: not e.is_symlink()))
    assert cachedir.remove_stale_temps(cache) == [stale.name]
    assert (tmp_path / "victim").read_text() == "keep"

# ----------------------------------------------------------------------------- disk, size cap


def test_full_disk_is_checked_before_building(small, monkeypatch):
    words, cache, good = small
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10**9, 10**9 - 1000, 1000))
    with pytest.raises(EvoWordleError, match=rf"not enough free space in {cache}.*needs \d+ MB, 0 MB free"):
        load_table(words, cache, rebuild=True)
    assert not _temps(cache)


def test_space_refused_by_the_os_gives_one_line_and_no_temp(tmp_path):
    """A real refusal by the kernel (file-size limit, EFBIG) while reserving the table's space."""
    allowed = _list_file(tmp_path, 3000)
    cache = tmp_path / "cache"
    code = textwrap.dedent("""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1_000_000, 1_000_000))
        from evo_wordle.cli import main
        sys.exit(main(["table", "--allowed", sys.argv[1]]))
    """)
    env = {**os.environ, "EVO_WORDLE_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", code, str(allowed)], capture_output=True, text=True, env=env,
                         timeout=60)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "cannot reserve" in out.stderr and str(cache) in out.stderr
    assert not _temps(cache)


def test_fallocate_enospc_gives_one_line_and_no_temp(small, monkeypatch):
    import errno

    words, cache, good = small

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full)
    with pytest.raises(EvoWordleError, match="cannot reserve"):
        load_table(words, cache, rebuild=True)
    assert not _temps(cache)


def _many_words(n: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        w = ""
        for _ in range(5):
            w += letters[i % 26]
            i //= 26
        out.append(w)
    return out


def test_oversized_list_refused_before_allocating(tmp_path, capsys):
    import resource
    import tracemalloc

    path = tmp_path / "big.txt"
    path.write_text("\n".join(_many_words(40_000)) + "\n")  # 240 KB: would need a 1.6 GB table
    assert path.stat().st_size == 240_000
    start = time.perf_counter()
    tracemalloc.start()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert main(["table", "--allowed", str(path)]) == 2
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1.6 GB pattern table" in err and "at most 23,170 words" in err
    assert time.perf_counter() - start < 5 and peak < 50e6
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 200_000  # KB


# ----------------------------------------------------------------------------- folder trust


def _cli_table(cache: Path, allowed: Path, capsys) -> tuple[int, str]:
    old = os.environ.get("EVO_WORDLE_CACHE")
    os.environ["EVO_WORDLE_CACHE"] = str(cache)
    try:
        code = main(["table", "--allowed", str(allowed)])
    finally:
        os.environ["EVO_WORDLE_CACHE"] = old or ""
    return code, capsys.readouterr().err


def _group(monkeypatch, members: list[str], name: str | None = None) -> None:
    """Make the folder's group look shared (other members) or user-private."""
    import grp
    import pwd

    user = pwd.getpwuid(os.geteuid()).pw_name
    monkeypatch.setattr(grp, "getgrgid", lambda gid: grp.struct_group((name or user, "x", gid, members)))


@pytest.mark.parametrize("mode,words", [(0o777, "writable by others"), (0o770, "writable by its group"),
                                        (0o1777, "writable by others"), (0o2775, "writable by its group")])
def test_shared_cache_folder_refused(small, capsys, monkeypatch, mode, words):
    _, cache, _ = small
    cache.chmod(mode)
    _group(monkeypatch, ["mallory"])
    code, err = _cli_table(cache, cache.parent / "allowed.txt", capsys)
    assert code == 2 and err.count("\n") == 1 and words in err


def test_cache_folder_inside_a_folder_others_may_write_refused(small, capsys):
    """They could rename the checked folder away and put a planted one in its place: one line,
    exit 2; the sticky bit (as /tmp has) stops that."""
    _, cache, _ = small
    cache.parent.chmod(0o777)
    try:
        code, err = _cli_table(cache, cache.parent / "allowed.txt", capsys)
        assert code == 2 and err.count("\n") == 1
        assert f"is inside {cache.parent}, which others may write (no sticky bit)" in err
        cache.parent.chmod(0o1777)
        assert _cli_table(cache, cache.parent / "allowed.txt", capsys)[0] == 0
    finally:
        cache.parent.chmod(0o700)


def test_group_named_otherwise_refused(small, capsys, monkeypatch):
    _, cache, _ = small
    cache.chmod(0o770)
    _group(monkeypatch, [], name="staff")
    assert _cli_table(cache, cache.parent / "allowed.txt", capsys)[0] == 2


def test_user_private_group_may_write(small, capsys, monkeypatch):
    """umask 002 systems: a group-writable folder whose group is the user's own is fine."""
    _, cache, _ = small
    cache.chmod(0o775)
    _group(monkeypatch, [])
    assert _cli_table(cache, cache.parent / "allowed.txt", capsys)[0] == 0


def test_cache_folder_of_another_user_refused(small, capsys, monkeypatch):
    _, cache, _ = small
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(cache).st_uid + 1)
    code, err = _cli_table(cache, cache.parent / "allowed.txt", capsys)
    assert code == 2 and err.count("\n") == 1 and "belongs to another user" in err


def test_cache_path_that_is_a_file_refused(tmp_path, capsys):
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    code, err = _cli_table(cache, _list_file(tmp_path, 50), capsys)
    assert code == 2 and err.count("\n") == 1 and "is not a folder" in err


def test_private_and_new_folders_accepted(tmp_path, capsys):
    allowed = _list_file(tmp_path, 50)
    cache = tmp_path / "new" / "cache"
    code, _ = _cli_table(cache, allowed, capsys)
    assert code == 0 and (os.stat(cache).st_mode & 0o777) == 0o700
    cache.chmod(0o755)
    assert _cli_table(cache, allowed, capsys)[0] == 0


# --------------------------------------------------------------------- planted small caches


@pytest.fixture
def small_ctx(tmp_path):
    allowed = _list_file(tmp_path, 400)
    cache = tmp_path / "cache"
    c = Context(allowed=allowed, answers=allowed, cache_dir=cache)
    c.table  # noqa: B018
    return c, allowed, cache


def _tamper(path: Path, how: str) -> None:
    raw = path.read_bytes()
    head, _, payload = raw.partition(b"\n")
    if how == "payload":  # same header, changed data: the digest no longer matches
        payload = bytearray(payload)
        payload[-3] ^= 0x01
        path.write_bytes(head + b"\n" + bytes(payload))
    elif how == "raw-json":  # the old unsealed format
        path.write_text("[0.5, 0.5]")
    elif how == "folder":
        path.unlink()
        path.mkdir()
    elif how == "wrong-kind":
        info = json.loads(head)
        path.write_bytes(json.dumps({**info, "kind": "openers"}).encode() + b"\n" + payload)


@pytest.mark.parametrize("how", ["payload", "raw-json", "folder", "wrong-kind"])
def test_planted_frequency_cache_detected(small_ctx, capsys, how):
    c, allowed, cache = small_ctx
    good = c.frequencies.copy()
    (path,) = cache.glob("freq-*.cache")
    _tamper(path, how)
    capsys.readouterr()
    again = Context(allowed=allowed, answers=allowed, cache_dir=cache).frequencies
    assert np.array_equal(again, good)
    assert "recomputing" in capsys.readouterr().err


def test_frequency_cache_with_right_digest_but_wrong_values_detected(small_ctx, capsys):
    c, allowed, cache = small_ctx
    c.frequencies  # noqa: B018
    (path,) = cache.glob("freq-*.cache")
    cachedir.write_sealed_array(path, "word-frequencies", np.full(3, -1.0))  # right digest, wrong shape
    capsys.readouterr()
    again = Context(allowed=allowed, answers=allowed, cache_dir=cache).frequencies
    assert np.array_equal(again, c.frequencies) and "recomputing" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["payload", "raw-json", "wrong-kind"])
def test_planted_static_entropy_cache_detected(small_ctx, capsys, how):
    from evo_wordle.ga.fitness import static_entropy

    c, allowed, cache = small_ctx
    good = static_entropy(c).copy()
    (path,) = cache.glob("ga-static-entropy-*.cache")
    _tamper(path, how)
    capsys.readouterr()
    fresh = Context(allowed=allowed, answers=allowed, cache_dir=cache)
    assert np.array_equal(static_entropy(fresh), good)
    assert "recomputing" in capsys.readouterr().err


def test_planted_opener_detected(ctx, tmp_path, monkeypatch, capsys):
    """The issue's attack: an openers file telling greedy to open with XYLYL."""
    from evo_wordle.game import GameState, Settings
    from evo_wordle.solvers import make_solver, opener_cache

    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path))
    settings = Settings(candidates="answers")
    state = GameState.start(ctx, settings)
    first = make_solver("naive", ctx, settings).choose(state)
    path = tmp_path / opener_cache.FILE
    raw = path.read_bytes()
    path.write_bytes(raw.replace(ctx.words.allowed[first].encode(), b"xylyl"))
    capsys.readouterr()
    assert make_solver("naive", ctx, settings).choose(state) == first
    assert "digest does not match" in capsys.readouterr().err


# --------------------------------------------------------------- verified stamps (fast loads)


@pytest.fixture
def stamped(small, monkeypatch):
    """``small`` after one full check that left a stamp (the 2 s margin waived: the table was
    built a moment ago; a short sleep gives the damage below a later ctime than the stamp's)."""
    words, cache, good = small
    monkeypatch.setattr(cachedir, "STAMP_MARGIN_NS", 0)
    time.sleep(0.05)
    load_table(words, cache)
    npy, _ = cache_paths(words, cache)
    assert table.stamp_path(npy).is_file()
    time.sleep(0.05)
    return small


def _count_checksums(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = table.checksum
    monkeypatch.setattr(table, "checksum", lambda t: calls.append(1) or real(t))
    return calls


def test_a_stamped_table_loads_without_reading_it_again(stamped, monkeypatch, capsys):
    words, cache, good = stamped
    npy, _ = cache_paths(words, cache)
    calls = _count_checksums(monkeypatch)
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert calls == []  # the stamp matched: no pass over the file
    assert np.array_equal(np.array(load_table(words, cache, verify=True)), good)
    assert calls == [1]  # verify=True (the `table` command) reads it all the same
    assert stat.S_IMODE(os.stat(table.stamp_path(npy)).st_mode) == 0o600
    assert capsys.readouterr().err == ""


def test_no_stamp_for_a_file_changed_within_the_margin(small):
    """A table built a moment ago gets no stamp: a change in the same clock tick could keep its
    times, so only a file unchanged for STAMP_MARGIN_NS before the check is stamped."""
    words, cache, good = small
    load_table(words, cache)
    npy, _ = cache_paths(words, cache)
    assert not table.stamp_path(npy).exists()


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_every_damage_after_a_stamp_is_detected_and_rebuilt(stamped, capsys, damage):
    """The stamp never hides damage: every write to the file changes what the stamp names."""
    damage_and_reload(stamped, capsys, damage)


def test_damage_in_place_with_times_restored_is_detected(stamped, capsys):
    """Swapped cells written into the file, its size and mtime put back: the ctime (which no
    user can set) and the inode still differ from the stamp, so the file is read and refused."""
    words, cache, good = stamped
    npy, _ = cache_paths(words, cache)
    st = os.stat(npy)
    offset = st.st_size - good.size
    row = good[3]
    j = int(np.flatnonzero(row != row[0])[0])
    with open(npy, "r+b") as fh:
        fh.seek(offset + 3 * good.shape[1])
        fh.write(bytes([row[j]]))
        fh.seek(offset + 3 * good.shape[1] + j)
        fh.write(bytes([row[0]]))
    os.utime(npy, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(npy).st_mtime_ns == st.st_mtime_ns and os.stat(npy).st_size == st.st_size
    capsys.readouterr()
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert "checksum does not match" in capsys.readouterr().err


def _forged_stamp(npy: Path) -> None:  # the stamp of the file as it is now, with a foreign digest
    st = os.stat(npy)
    stamp = table.stamp_path(npy)
    stamp.unlink()
    stamp.write_text(json.dumps({"digest": "xxh3-128:" + "0" * 32, "dev": st.st_dev, "ino": st.st_ino,
                                 "size": st.st_size, "uid": st.st_uid, "mtime_ns": st.st_mtime_ns,
                                 "ctime_ns": st.st_ctime_ns}))
    stamp.chmod(0o600)


STAMP_FAULTS = {
    "writable-by-others": lambda npy: table.stamp_path(npy).chmod(0o602),
    "symlink": lambda npy: (table.stamp_path(npy).rename(npy.with_suffix(".real")),
                            table.stamp_path(npy).symlink_to(npy.with_suffix(".real"))),
    "folder": lambda npy: (table.stamp_path(npy).unlink(), table.stamp_path(npy).mkdir()),
    "fifo": lambda npy: (table.stamp_path(npy).unlink(), os.mkfifo(table.stamp_path(npy), 0o600)),
    "garbage": lambda npy: table.stamp_path(npy).write_bytes(b"\xff" * 100),
    "huge": lambda npy: table.stamp_path(npy).write_bytes(b" " * 5000),
    "other-digest": _forged_stamp,
}


@pytest.mark.parametrize("fault", sorted(STAMP_FAULTS))
def test_a_stamp_that_cannot_be_trusted_means_a_full_check(stamped, monkeypatch, capsys, fault):
    """A stamp that is not ours alone, not a plain file, unreadable or for another digest, or a
    table others may write, is ignored: the whole table is read (and found intact)."""
    words, cache, good = stamped
    npy, _ = cache_paths(words, cache)
    STAMP_FAULTS[fault](npy)
    calls = _count_checksums(monkeypatch)
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert calls == [1]
    assert capsys.readouterr().err == ""


def test_a_table_others_may_write_is_rebuilt_as_ours_alone(stamped, monkeypatch, capsys):
    """Such a table was checked on every load and then mapped: a write by another user after the
    check changed the figures of the run that had just checked it.  It is rebuilt, private."""
    words, cache, good = stamped
    npy, _ = cache_paths(words, cache)
    npy.chmod(0o646)
    time.sleep(0.05)
    mapped = load_table(words, cache)
    assert "is unusable (someone else may write it); rebuilding" in capsys.readouterr().err
    assert np.array_equal(np.array(mapped), good)
    assert not os.stat(npy).st_mode & 0o022
    calls = _count_checksums(monkeypatch)
    load_table(words, cache)
    assert capsys.readouterr().err == "" and calls in ([], [1])  # reused, not rebuilt again


@pytest.mark.parametrize("mask", [0o000, 0o002, 0o022])
def test_a_table_is_built_writable_by_its_owner_alone_whatever_the_umask(tmp_path, mask):
    """Under umask 000 the table was made writable by everyone (and then loaded as trusted)."""
    words = load_words(allowed=_list_file(tmp_path, 60))
    old = os.umask(mask)
    try:
        load_table(words, tmp_path / "cache")
    finally:
        os.umask(old)
    npy, _ = cache_paths(words, tmp_path / "cache")
    assert stat.S_IMODE(os.stat(npy).st_mode) == 0o644 & ~mask


def test_a_cache_of_the_old_checksum_is_adopted_without_a_rebuild(small, capsys):
    """A sidecar written by evo-wordle <= 0.2 (row/column-sum checksum) is checked the old way
    once, then carries the new checksum; a damaged old cache is still rebuilt."""
    words, cache, good = small
    npy, meta = cache_paths(words, cache)
    info = json.loads(meta.read_text())
    info["checksum"] = table.legacy_checksum(good)
    meta.write_text(json.dumps(info))
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert json.loads(meta.read_text())["checksum"] == checksum(good)
    assert capsys.readouterr().err == ""
    info["checksum"] = table.legacy_checksum(good[::-1])
    meta.write_text(json.dumps(info))
    load_table(words, cache)
    assert "checksum does not match" in capsys.readouterr().err
