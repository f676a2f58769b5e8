"""Rules of the modules that keep files safe (evo_wordle/files.py, evo_wordle/cachedir.py): a read
never goes past its cap, not by one byte; a write never goes through a symlink; a cache folder
others may write is refused; a damaged cache never gives a figure.  Where a rule depends on who
runs the tests (root may write anywhere), the ownership or mode is monkeypatched instead."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from evo_wordle import files
from evo_wordle.errors import EvoWordleError

from .alarms import alarm

# ------------------------------------------------------------------------------ capped reads


@pytest.mark.parametrize("size", [0, 1, 99, 100])
def test_a_file_of_at_most_the_cap_is_read_whole(tmp_path: Path, size: int):
    path = tmp_path / "f"
    path.write_bytes(b"x" * size)
    assert files.read_capped(path, 100, "list") == b"x" * size


def test_one_byte_over_the_cap_is_refused(tmp_path: Path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 101)
    with pytest.raises(EvoWordleError, match=r"^list .* is too large \(101 bytes; at most 100 bytes\)$"):
        files.read_capped(path, 100, "list")


def test_a_stream_is_read_up_to_its_cap_and_refused_one_byte_beyond(tmp_path: Path):
    r, w = os.pipe()
    os.write(w, b"y" * 100)
    os.close(w)
    try:
        assert files.read_capped(f"/dev/fd/{r}", 100, "list", streams=True) == b"y" * 100
    finally:
        os.close(r)
    r, w = os.pipe()
    os.write(w, b"y" * 101)
    os.close(w)
    try:
        with pytest.raises(EvoWordleError, match=r"too large \(more than 100 bytes\)$"):
            files.read_capped(f"/dev/fd/{r}", 100, "list", streams=True)
    finally:
        os.close(r)


def test_a_stream_is_never_read_past_one_byte_beyond_its_cap(monkeypatch):
    """However the reads are split (here at most 60 bytes each), a stream longer than its cap is
    refused after exactly ``limit + 1`` bytes: nothing more is taken from the producer."""
    real, taken = os.read, []

    def short_read(fd, n):
        data = real(fd, min(n, 60))
        taken.append(len(data))
        return data

    r, w = os.pipe()
    os.write(w, b"z" * 500)
    os.close(w)
    monkeypatch.setattr(os, "read", short_read)
    try:
        with pytest.raises(EvoWordleError, match="too large"):
            files.read_capped(f"/dev/fd/{r}", 100, "list", streams=True)
    finally:
        os.close(r)
    assert sum(taken) == 101


def test_a_stream_one_byte_over_its_cap_is_refused_in_chunks_that_end_at_the_cap(monkeypatch):
    """Reads of 10 bytes reach the cap exactly; the byte after it is still looked for."""
    real = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real(fd, min(n, 10)))
    r, w = os.pipe()
    os.write(w, b"z" * 101)
    os.close(w)
    try:
        with pytest.raises(EvoWordleError, match="too large"):
            files.read_capped(f"/dev/fd/{r}", 100, "list", streams=True)
    finally:
        os.close(r)


def test_a_device_is_refused_unless_streams_are_allowed_and_then_capped():
    with pytest.raises(EvoWordleError, match=r"^list /dev/zero is not a regular file$"):
        files.read_capped("/dev/zero", 100, "list")
    with pytest.raises(EvoWordleError, match=r"^list /dev/zero is too large \(more than 100 bytes\)$"):
        files.read_capped("/dev/zero", 100, "list", streams=True)


def test_a_fifo_swapped_in_after_the_check_neither_blocks_nor_is_read(tmp_path: Path, monkeypatch):
    """The stat says "regular file", the open finds a FIFO with no writer: the open must not wait
    for a writer (O_NONBLOCK) and the file is refused (an alarm ends the test if it blocks)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    regular = tmp_path / "regular"
    regular.write_bytes(b"x")
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: real_stat(regular if Path(p) == fifo else p, *a, **k))
    with alarm(5), pytest.raises(EvoWordleError, match=r"^list .*fifo is not a regular file$"):
        files.read_capped(fifo, 100, "list")


def test_folders_missing_and_unreachable_paths_are_one_line_errors(tmp_path: Path):
    with pytest.raises(EvoWordleError, match=r"^list .* is a folder, not a file$"):
        files.read_capped(tmp_path, 100, "list")
    with pytest.raises(EvoWordleError, match=r"^list .*nope does not exist$"):
        files.read_capped(tmp_path / "nope", 100, "list")
    (tmp_path / "plain").write_text("x")
    with pytest.raises(EvoWordleError, match=r"^cannot read list .*plain/x: Not a directory$"):
        files.read_capped(tmp_path / "plain" / "x", 100, "list")


def test_an_unopenable_file_is_a_one_line_error(tmp_path: Path, monkeypatch):
    path = tmp_path / "f"
    path.write_text("x")

    def refuse(*_):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(EvoWordleError, match=r"^cannot read list .*f: Permission denied$"):
        files.read_capped(path, 100, "list")


def test_a_read_error_is_a_one_line_error_and_closes_the_file(tmp_path: Path, monkeypatch):
    path = tmp_path / "f"
    path.write_text("x")
    closed = []
    real_close = os.close

    def fail(fd, n):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "read", fail)
    monkeypatch.setattr(os, "close", lambda fd: closed.append(fd) or real_close(fd))
    with pytest.raises(EvoWordleError, match=r"^cannot read list .*f: Input/output error$"):
        files.read_capped(path, 100, "list")
    assert len(closed) == 1


@pytest.mark.parametrize("size,text", [(99_999, "99,999 bytes"), (100_000, "0.1 MB"),
                                       (1_049_999, "1.0 MB"), (1_050_001, "1.1 MB")])
def test_the_size_in_a_too_large_message_is_the_files(tmp_path: Path, size: int, text: str):
    path = tmp_path / "f"
    with open(path, "wb") as fh:
        fh.truncate(size)
    with pytest.raises(EvoWordleError, match=rf"too large \({text}; at most 10 bytes\)$"):
        files.read_capped(path, 10, "list")


def test_bad_utf8_names_the_offset_of_the_bad_byte():
    assert files.decode_utf8("é".encode(), "p", "list") == "é"
    with pytest.raises(EvoWordleError, match=r"^list p is not UTF-8 text \(bad byte at offset 2\)$"):
        files.decode_utf8(b"ab\xffcd", "p", "list")


# ------------------------------------------------------------------------------ JSON checks


def _nested(levels: int) -> str:
    """A JSON value ``levels`` deep: lists around a number (the number is the deepest level)."""
    return "[" * (levels - 1) + "1" + "]" * (levels - 1)


def test_json_of_twenty_levels_is_read_and_of_twenty_one_refused(tmp_path: Path):
    assert files.MAX_JSON_DEPTH == 20
    assert files.parse_json(_nested(20), "p", "file") is not None
    with pytest.raises(EvoWordleError, match=r"^file p is nested too deeply \(more than 20 levels\)$"):
        files.parse_json(_nested(21), "p", "file")
    deep_dict = '{"k": ' * 19 + "1" + "}" * 19
    files.parse_json(deep_dict, "p", "file")
    with pytest.raises(EvoWordleError, match="nested too deeply"):
        files.parse_json('{"k": ' * 20 + "1" + "}" * 20, "p", "file")


def test_json_too_deep_for_the_parser_is_a_one_line_error():
    with pytest.raises(EvoWordleError, match=r"^file p is nested too deeply$"):
        files.parse_json("[" * 100_000 + "]" * 100_000, "p", "file")


def test_bad_json_names_its_line():
    with pytest.raises(EvoWordleError, match=r"^file p is not valid JSON \(line 3\)$"):
        files.parse_json('{\n"a": 1,\n"b": }', "p", "file")


def test_a_long_flat_list_is_checked_without_a_stack_entry_per_number():
    """A 16 MiB file of one list of numbers (a hostile stored prior) once took 19 s and 740 MB to
    check, one stacked tuple per number; numbers need no look, so the check holds no copy of them."""
    import tracemalloc

    value = {"prior": {"weights": [1.5] * 1_000_000}}
    tracemalloc.start()
    try:
        files.check_value(value, "p", "file")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, peak  # one tuple per number: over 60 MB
    for bad in ([["x\x1b"], 1], [1] * 5 + ["\x1b"]):  # strings and lists inside one are still looked at
        with pytest.raises(EvoWordleError, match="control character"):
            files.check_value(bad, "p", "file")


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x1f", "\r", "\x7f", "\x9b", "\x9f"])
def test_control_characters_are_refused_in_values_and_keys(char: str):
    assert files.control_char(f"a{char}b") == char
    for value in ([f"x{char}"], {f"k{char}": 1}, {"k": {"j": [f"{char}"]}}):
        with pytest.raises(EvoWordleError, match=r"^file p holds a control character"):
            files.check_value(value, "p", "file")


@pytest.mark.parametrize("char", ["\t", "\n", " ", "~", "\xa0", "é", "\u2028"])
def test_tab_newline_and_printable_characters_pass(char: str):
    assert files.control_char(f"a{char}b") is None
    files.check_value({f"k{char}": [f"v{char}"]}, "p", "file")


def test_read_json_caps_decodes_and_checks(tmp_path: Path):
    path = tmp_path / "f.json"
    path.write_text('{"a": [1, "é"]}')
    assert files.read_json(path, 100, "file") == {"a": [1, "é"]}
    with pytest.raises(EvoWordleError, match="too large"):
        files.read_json(path, 10, "file")
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(EvoWordleError, match="not UTF-8"):
        files.read_json(path, 100, "file")
    path.write_text('{"a": "\\u001b[31m"}')
    with pytest.raises(EvoWordleError, match="control character"):
        files.read_json(path, 100, "file")


# ------------------------------------------------------------------------------------ writes


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    return victim


def test_a_temporary_file_is_made_beside_its_target_with_the_name_the_sweeper_knows(tmp_path: Path):
    from evo_wordle import cachedir

    (tmp_path / "sub").mkdir()
    fd, name = files.make_temp(tmp_path / "sub" / "out.json")
    os.close(fd)
    tmp = Path(name)
    assert tmp.parent == tmp_path / "sub"
    m = cachedir._TEMP.match(tmp.name)
    assert m is not None and m["name"] == "out.json" and int(m["pid"]) == os.getpid()


def test_a_temporary_file_for_a_bare_name_is_made_in_the_current_folder(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fd, name = files.make_temp(Path("out.json"))
    os.close(fd)
    assert Path(name).resolve().parent == tmp_path.resolve() and Path(name).resolve().is_file()


def test_a_temporary_file_that_cannot_get_its_mode_is_removed(tmp_path: Path, monkeypatch):
    def refuse(fd, mode):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", refuse)
    with pytest.raises(PermissionError):
        files.make_temp(tmp_path / "x")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("mask", [0o000, 0o022, 0o077])
def test_the_umask_is_read_without_proc_too(monkeypatch, mask: int):
    old = os.umask(mask)
    try:
        assert files._umask() == mask

        def no_proc(*a, **k):
            raise FileNotFoundError(2, "No such file or directory")

        monkeypatch.setattr(files, "open", no_proc, raising=False)
        assert files._umask() == mask
        assert os.umask(mask) == mask  # and left as it was
    finally:
        os.umask(old)


def test_an_unreadable_umask_line_falls_back_to_the_system_call(monkeypatch):
    import io

    old = os.umask(0o027)
    try:
        monkeypatch.setattr(files, "open", lambda *a, **k: io.StringIO("Name:\tx\nUmask:\tzz\n"), raising=False)
        assert files._umask() == 0o027
    finally:
        os.umask(old)


def test_a_write_that_fails_part_way_leaves_the_target_and_no_temporary_file(tmp_path: Path):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def half(fh):
        fh.write(b"new")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(path, half)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["out.txt"]


def test_an_interrupt_just_after_the_rename_is_reported_as_the_interrupt(tmp_path: Path, monkeypatch):
    """Ctrl-C landing between the rename and the end of the write: the file is complete, the
    temporary name is gone, and the interrupt (not a missing temporary file) reaches the caller."""
    real = os.replace

    def replace_then_interrupt(src, dst):
        real(src, dst)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", replace_then_interrupt)
    path = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt) as info:
        files.atomic_write_text(path, "new")
    assert info.value.__context__ is None
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["out.txt"]


def test_durable_writes_and_only_they_are_synced_before_the_rename(tmp_path: Path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    for write in (lambda p, **k: files.atomic_write(p, lambda fh: fh.write(b"x"), **k),
                  lambda p, **k: files.atomic_write_bytes(p, b"x", **k),
                  lambda p, **k: files.atomic_write_text(p, "x", **k),
                  lambda p, **k: files.atomic_write_csv(p, [["x"]], **k),
                  lambda p, **k: files.atomic_write_npy(p, [1], **k)):
        synced.clear()
        write(tmp_path / "a")
        assert synced == []
        write(tmp_path / "a", durable=True)
        assert len(synced) == 1


def test_text_and_csv_are_written_as_utf8_rows(tmp_path: Path):
    files.atomic_write_text(tmp_path / "t", "é\n")
    assert (tmp_path / "t").read_bytes() == "é\n".encode()
    files.atomic_write_csv(tmp_path / "c", [["a", "b,c"], [1, 2.5]])
    assert (tmp_path / "c").read_bytes() == b'a,"b,c"\r\n1,2.5\r\n'


def test_a_symlinked_target_is_replaced_never_written_through(tmp_path: Path):
    victim = _victim(tmp_path)
    for i, write in enumerate((lambda p: files.atomic_write_bytes(p, b"new"),
                               lambda p: files.atomic_write_csv(p, [["new"]]),
                               lambda p: files.atomic_write_npy(p, [1]))):
        link = tmp_path / f"out{i}"
        link.symlink_to(victim)
        write(link)
        assert not link.is_symlink() and victim.read_text() == "precious"


def test_appending_keeps_what_is_there_and_creates_with_the_umask_mode(tmp_path: Path):
    path = tmp_path / "log"
    old = os.umask(0)
    try:
        fd = files.open_append_nofollow(path)
    finally:
        os.umask(old)
    os.write(fd, b"one\n")
    os.close(fd)
    assert (path.stat().st_mode & 0o777) == 0o666
    fd = files.open_append_nofollow(path)
    os.write(fd, b"two\n")
    os.close(fd)
    assert path.read_bytes() == b"one\ntwo\n"


def test_appending_through_a_symlink_is_refused(tmp_path: Path):
    victim = _victim(tmp_path)
    link = tmp_path / "log"
    link.symlink_to(victim)
    with pytest.raises(EvoWordleError, match=r"^.*log is a symlink; refusing to write through it$"):
        files.open_append_nofollow(link)
    dangling = tmp_path / "log2"
    dangling.symlink_to(tmp_path / "absent")
    with pytest.raises(EvoWordleError, match="is a symlink"):
        files.open_append_nofollow(dangling)
    assert victim.read_text() == "precious" and not (tmp_path / "absent").exists()
    with pytest.raises(EvoWordleError, match=r"^cannot write .*nope/log: No such file or directory$"):
        files.open_append_nofollow(tmp_path / "nope" / "log")


# ------------------------------------------------------------------------- the cache folder


def test_the_cache_folder_is_the_environments_else_the_users(monkeypatch, tmp_path: Path):
    import platformdirs

    from evo_wordle import cachedir

    monkeypatch.setenv("EVO_WORDLE_CACHE", "~/evo-cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cachedir.default_cache_dir() == tmp_path / "evo-cache"
    for unset in (lambda: monkeypatch.setenv("EVO_WORDLE_CACHE", ""),
                  lambda: monkeypatch.delenv("EVO_WORDLE_CACHE")):
        unset()
        assert cachedir.default_cache_dir() == Path(platformdirs.user_cache_dir("evo-wordle"))


def test_prepare_makes_the_default_folder_private(monkeypatch, tmp_path: Path):
    from evo_wordle import cachedir

    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path / "a" / "b"))
    assert cachedir.prepare() == tmp_path / "a" / "b"
    assert (os.stat(tmp_path / "a" / "b").st_mode & 0o777) == 0o700


def test_a_folder_made_by_another_process_meanwhile_is_taken(monkeypatch, tmp_path: Path):
    """Two processes may both see no folder and both make it: the second one must not fail."""
    from evo_wordle import cachedir

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    real = Path.exists
    monkeypatch.setattr(Path, "exists", lambda p: False if p == cache else real(p))
    assert cachedir.prepare(cache) == cache


def test_a_cache_folder_that_cannot_be_made_or_read_is_a_one_line_error(tmp_path: Path):
    from evo_wordle import cachedir

    (tmp_path / "plain").write_text("x")
    with pytest.raises(EvoWordleError, match=r"^cache folder .*plain/cache is not writable: Not a directory$"):
        cachedir.prepare(tmp_path / "plain" / "cache")
    with pytest.raises(EvoWordleError, match=r"^cache folder .*plain/cache is not usable: Not a directory$"):
        cachedir.check_trusted(tmp_path / "plain" / "cache")


def _group_file(monkeypatch, name: str, members: list[str] | None = None, missing: bool = False) -> None:
    import grp

    def getgrgid(gid):
        if missing:
            raise KeyError(gid)
        return grp.struct_group((name, "x", gid, members or []))

    monkeypatch.setattr(grp, "getgrgid", getgrgid)


def _me() -> str:
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def test_a_group_writable_folder_is_ours_only_if_the_group_is_the_users_alone(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o770)
    _group_file(monkeypatch, _me(), [_me()])  # the user's own group, the user its only member
    cachedir.check_trusted(cache)
    _group_file(monkeypatch, _me(), [_me(), "mallory"])
    with pytest.raises(EvoWordleError, match="writable by its group"):
        cachedir.check_trusted(cache)
    _group_file(monkeypatch, _me(), missing=True)  # a group the system does not know
    with pytest.raises(EvoWordleError, match="writable by its group"):
        cachedir.check_trusted(cache)
    cache.chmod(0o750)  # not group-writable: the group does not matter
    cachedir.check_trusted(cache)


def test_a_cache_folder_inside_a_folder_others_may_write_is_refused_unless_sticky(tmp_path: Path, monkeypatch):
    """Whoever may write the parent may rename the checked folder away and put their own in its
    place: refused as ssh refuses it, unless the parent is sticky (as /tmp is), which stops that."""
    from evo_wordle import cachedir

    shared = tmp_path / "shared"
    cache = shared / "deeper" / "cache"
    cache.mkdir(parents=True, mode=0o700)
    shared.chmod(0o777)
    refused = (rf"^cache folder {cache} is inside {shared}, which others may write \(no sticky bit\): they "
               rf"could replace the cache folder; chmod go-w {shared} \(or \+t\) or use a folder of your own$")
    with pytest.raises(EvoWordleError, match=refused):
        cachedir.check_trusted(cache)
    with pytest.raises(EvoWordleError, match=refused):
        cachedir.prepare(cache)
    shared.chmod(0o1777)
    cachedir.check_trusted(cache)
    shared.chmod(0o775)
    _group_file(monkeypatch, _me(), [_me(), "mallory"])
    with pytest.raises(EvoWordleError, match=rf"^cache folder {cache} is inside {shared}, which its group may write"):
        cachedir.check_trusted(cache)
    _group_file(monkeypatch, _me(), [_me()])  # a user-private group writes as the user
    cachedir.check_trusted(cache)
    shared.chmod(0o755)
    # reached through a link: the folders the link leads through count too, and those of the link
    link = tmp_path / "link"
    link.symlink_to(cache)
    cachedir.check_trusted(link)
    shared.chmod(0o777)
    with pytest.raises(EvoWordleError, match=rf"^cache folder {link} is inside {shared}, which others"):
        cachedir.check_trusted(link)
    shared.chmod(0o755)
    (shared / "sub").mkdir()
    (shared / "sub").chmod(0o777)
    (shared / "sub" / "link").symlink_to(cache)
    with pytest.raises(EvoWordleError, match=rf"^cache folder {shared / 'sub' / 'link'} is inside {shared / 'sub'}, "):
        cachedir.check_trusted(shared / "sub" / "link")


def test_a_parent_gone_since_the_folders_check_is_passed_over_and_the_next_one_judged(tmp_path: Path, monkeypatch):
    """A folder renamed between the cache folder's own check and its parents' (a race) is not an
    error, and the parents above it are still judged."""
    from evo_wordle import cachedir

    shared = tmp_path / "shared"
    cache = shared / "mid" / "cache"
    cache.mkdir(parents=True, mode=0o700)
    shared.chmod(0o777)
    real = os.stat

    def stat(path, *args, **kwargs):
        if Path(path) == shared / "mid":
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(cachedir.os, "stat", stat)
    try:
        with pytest.raises(EvoWordleError, match=rf"^cache folder {cache} is inside {shared}, which others"):
            cachedir.check_trusted(cache)
    finally:
        monkeypatch.undo()
        shared.chmod(0o755)


# --------------------------------------------------------------------------- leftovers


def _temp(cache: Path, pid: int, age: float, now: float) -> Path:
    path = cache / f".openers.cache.{pid}.abcd1234.tmp"
    path.write_bytes(b"x")
    os.utime(path, (now - age, now - age))
    return path


def test_a_live_writers_temp_file_is_removed_after_exactly_the_stale_age(tmp_path: Path, writer):
    """Also: asking whether the writer lives (signal 0) never signals it."""
    from evo_wordle import cachedir

    now = 2_000_000_000.0
    live = writer.pid
    at = _temp(tmp_path, live, cachedir.STALE_SECONDS, now)
    past = tmp_path / f".sweep.json.{live}.zzzz9999.tmp"
    past.write_bytes(b"x")
    os.utime(past, (now - 3600.5, now - 3600.5))
    assert cachedir.STALE_SECONDS == 3600
    assert cachedir.remove_stale_temps(tmp_path, now=now) == [past.name]
    assert at.exists()
    with pytest.raises(subprocess.TimeoutExpired):  # not signalled: still running
        writer.wait(timeout=0.3)


def test_a_temp_file_of_this_process_is_never_swept_while_young(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    now = 2_000_000_000.0
    mine = _temp(tmp_path, os.getpid(), 10, now)
    monkeypatch.setattr(cachedir, "_alive", lambda pid: False)  # as if its liveness were unknown
    assert cachedir.remove_stale_temps(tmp_path, now=now) == [] and mine.exists()


@pytest.mark.parametrize("error", [PermissionError, OverflowError])
def test_a_writer_we_may_not_signal_counts_as_alive(tmp_path: Path, monkeypatch, error):
    """kill(pid, 0) refused (another user's process; a pid beyond the kernel's range): alive."""
    from evo_wordle import cachedir

    def kill(pid, sig):
        raise error()

    monkeypatch.setattr(os, "kill", kill)
    path = _temp(tmp_path, 4_000_000, 10, time_now := 2_000_000_000.0)
    assert cachedir.remove_stale_temps(tmp_path, now=time_now) == [] and path.exists()


def test_a_dead_writers_temp_file_is_swept_at_once(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    def kill(pid, sig):
        raise ProcessLookupError()

    monkeypatch.setattr(os, "kill", kill)
    path = _temp(tmp_path, 4_000_000, 1, 2_000_000_000.0)
    assert cachedir.remove_stale_temps(tmp_path, now=2_000_000_000.0) == [path.name]


def test_a_temp_file_of_another_user_is_never_swept(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    now = 2_000_000_000.0
    path = _temp(tmp_path, 4_000_000, 2 * cachedir.STALE_SECONDS, now)
    monkeypatch.setattr(os, "geteuid", lambda: path.stat().st_uid + 1)
    assert cachedir.remove_stale_temps(tmp_path, now=now) == [] and path.exists()


def test_old_files_of_other_names_are_never_swept(tmp_path: Path):
    """Age alone removes only our own temporary names (and evo-wordle 0.1's): an old cache file,
    a user's notes, a lookalike ``.tmp`` stay."""
    from evo_wordle import cachedir

    now = 2_000_000_000.0
    names = ["freq-x.cache", "notes.txt", "patterns.tmp", ".openers.cache.tmp", "tmpabcdefgh.txt"]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (now - 10 * cachedir.STALE_SECONDS,) * 2)
    legacy = tmp_path / ".patterns-q1w2e3r4.npy.tmp"
    legacy.write_bytes(b"x")
    os.utime(legacy, (now - 10 * cachedir.STALE_SECONDS,) * 2)
    assert cachedir.remove_stale_temps(tmp_path, now=now) == [legacy.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def test_sweeping_an_unreadable_folder_or_vanishing_files_is_quiet(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    assert cachedir.remove_stale_temps(tmp_path / "absent") == []
    now = 2_000_000_000.0
    path = _temp(tmp_path, 4_000_000, 2 * cachedir.STALE_SECONDS, now)

    def refuse(p):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "unlink", refuse)
    assert cachedir.remove_stale_temps(tmp_path, now=now) == [] and path.exists()
    monkeypatch.undo()

    class Gone:  # listed, then removed by someone else before its stat
        name = path.name

        def stat(self, follow_symlinks=True):
            raise FileNotFoundError(2, "No such file or directory")

    Gone.path = str(path)
    listed = list(os.scandir(tmp_path))  # the stale file itself, after the vanished one: still swept
    monkeypatch.setattr(os, "scandir", lambda root: [Gone(), *listed])
    assert cachedir.remove_stale_temps(tmp_path, now=now) == [path.name]


# ------------------------------------------------------------------------------------ lock


def test_the_build_lock_is_exclusive_private_and_never_follows_a_symlink(tmp_path: Path):
    import fcntl

    from evo_wordle import cachedir

    old = os.umask(0o022)
    try:
        with cachedir.lock(tmp_path, "t"):
            fd = os.open(tmp_path / ".t.lock", os.O_RDONLY)
            try:
                with pytest.raises(BlockingIOError):
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            finally:
                os.close(fd)
    finally:
        os.umask(old)
    assert (os.stat(tmp_path / ".t.lock").st_mode & 0o777) == 0o600
    (tmp_path / ".u.lock").symlink_to(tmp_path / "victim")
    ran = []
    with cachedir.lock(tmp_path, "u"):
        ran.append(1)
    assert ran == [1] and not (tmp_path / "victim").exists()


def test_a_lock_the_system_refuses_still_lets_the_build_run(tmp_path: Path, monkeypatch):
    import fcntl

    from evo_wordle import cachedir

    def refuse(fd, op):
        raise OSError(37, "No locks available")

    monkeypatch.setattr(fcntl, "flock", refuse)
    ran = []
    with cachedir.lock(tmp_path, "t"):
        ran.append(1)
    assert ran == [1]


# ---------------------------------------------------------------------------- verified stamps


def _checked(tmp_path: Path, mode: int = 0o644) -> tuple[Path, os.stat_result]:
    path = tmp_path / "big.npy"
    path.write_bytes(b"table")
    path.chmod(mode)
    return path, os.stat(path)


def _settled(st: os.stat_result) -> int:
    """A check start time after which the file has been unchanged for exactly the margin."""
    from evo_wordle import cachedir

    return max(st.st_mtime_ns, st.st_ctime_ns) + cachedir.STAMP_MARGIN_NS


def test_a_stamp_is_written_only_for_a_file_unchanged_for_the_whole_margin(tmp_path: Path):
    from evo_wordle import cachedir

    assert cachedir.STAMP_MARGIN_NS == 2_000_000_000
    path, st = _checked(tmp_path)
    stamp = tmp_path / "big.verified"
    cachedir.write_stamp(stamp, st, st, "d1", _settled(st) - 1)  # changed 1 ns inside the margin
    assert not stamp.exists()
    cachedir.write_stamp(stamp, st, st, "d1", _settled(st))
    assert cachedir.stamp_matches(stamp, st, "d1") and not cachedir.stamp_matches(stamp, st, "d2")
    assert (os.stat(stamp).st_mode & 0o777) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_no_stamp_for_a_file_changed_during_its_check_or_that_others_may_write(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    path, before = _checked(tmp_path)
    stamp = tmp_path / "big.verified"
    path.write_bytes(b"tablf")
    after = os.stat(path)
    cachedir.write_stamp(stamp, before, after, "d", _settled(after))
    assert not stamp.exists()
    _group_file(monkeypatch, _me(), [_me(), "mallory"])  # a group others are in
    for mode in (0o664, 0o646):
        path.chmod(mode)
        st = os.stat(path)
        cachedir.write_stamp(stamp, st, st, "d", _settled(st))
        assert not stamp.exists()


def test_a_stamp_that_cannot_be_written_costs_nothing(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    path, st = _checked(tmp_path)
    stamp = tmp_path / "big.verified"

    def refuse(*a):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cachedir, "make_temp", refuse)
    cachedir.write_stamp(stamp, st, st, "d", _settled(st))
    monkeypatch.undo()
    monkeypatch.setattr(os, "replace", refuse)
    cachedir.write_stamp(stamp, st, st, "d", _settled(st))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.npy"]


def _stamp_for(tmp_path: Path, st: os.stat_result, digest: str, size: int | None = None,
               mode: int = 0o600) -> Path:
    import json

    from evo_wordle import cachedir

    data = json.dumps({"digest": digest, **cachedir._identity(st)})
    stamp = tmp_path / "big.verified"
    stamp.unlink(missing_ok=True)
    stamp.write_text(" " * ((size or len(data)) - len(data)) + data)  # padded in front: a cut shows
    stamp.chmod(mode)
    return stamp


def test_a_stamp_of_up_to_1024_bytes_is_read_and_a_longer_one_ignored(tmp_path: Path):
    from evo_wordle import cachedir

    _, st = _checked(tmp_path)
    assert cachedir.stamp_matches(_stamp_for(tmp_path, st, "d", size=1024), st, "d")
    assert not cachedir.stamp_matches(_stamp_for(tmp_path, st, "d", size=1025), st, "d")


@pytest.mark.parametrize("mode,counts", [(0o600, True), (0o400, True), (0o700, True), (0o640, False),
                                         (0o604, False), (0o601, False), (0o610, False), (0o620, False)])
def test_a_stamp_counts_only_if_no_one_else_may_read_or_write_it(tmp_path: Path, monkeypatch, mode, counts):
    from evo_wordle import cachedir

    _group_file(monkeypatch, _me(), [_me()])  # even the user's own group may not touch a stamp
    _, st = _checked(tmp_path)
    assert cachedir.stamp_matches(_stamp_for(tmp_path, st, "d", mode=mode), st, "d") is counts


def test_a_stamp_of_another_user_or_for_a_file_others_may_write_never_counts(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    path, st = _checked(tmp_path)
    stamp = _stamp_for(tmp_path, st, "d")
    assert cachedir.stamp_matches(stamp, st, "d")
    path.chmod(0o646)
    shared = os.stat(path)
    assert not cachedir.stamp_matches(_stamp_for(tmp_path, shared, "d"), shared, "d")
    path.chmod(0o644)
    st = os.stat(path)
    stamp = _stamp_for(tmp_path, st, "d")
    monkeypatch.setattr(os, "geteuid", lambda: st.st_uid + 1)
    assert not cachedir.stamp_matches(stamp, st, "d")




def test_a_fifo_or_a_symlink_in_place_of_a_stamp_never_counts_nor_blocks(tmp_path: Path):
    from evo_wordle import cachedir

    _, st = _checked(tmp_path)
    stamp = _stamp_for(tmp_path, st, "d")
    real = stamp.rename(tmp_path / "real.verified")
    stamp.symlink_to(real)  # a good stamp, but reached through a link
    assert not cachedir.stamp_matches(stamp, st, "d")
    stamp.unlink()
    os.mkfifo(stamp, 0o600)
    with alarm(5):
        assert not cachedir.stamp_matches(stamp, st, "d")


def test_a_stamp_the_system_will_not_let_us_read_never_counts(tmp_path: Path, monkeypatch):
    from evo_wordle import cachedir

    _, st = _checked(tmp_path)
    stamp = _stamp_for(tmp_path, st, "d")

    def fail(*a):
        raise OSError(5, "Input/output error")

    for name in ("read", "fstat"):
        with monkeypatch.context() as m:
            m.setattr(os, name, fail)
            counts = cachedir.stamp_matches(stamp, st, "d")
        assert not counts, name
    assert cachedir.stamp_matches(stamp, st, "d")


# ------------------------------------------------------------------------------ sealed files


def _sealed(path: Path, payload: bytes, head_size: int | None = None, **fields) -> None:
    import hashlib
    import json

    from evo_wordle import cachedir

    head = json.dumps({"format": cachedir.SEALED_FORMAT, "kind": "k", "size": len(payload),
                       "sha256": hashlib.sha256(payload).hexdigest(), **fields})
    head += " " * ((head_size or len(head)) - len(head))
    path.write_bytes(head.encode() + b"\n" + payload)


def test_a_sealed_vector_is_never_written_as_a_pickle(tmp_path: Path):
    """A cache file is data only: an object array is refused instead of being pickled."""
    import numpy as np

    from evo_wordle import cachedir

    path = tmp_path / "c"
    with pytest.raises(ValueError):
        cachedir.write_sealed_array(path, "k", np.array([object()]))
    assert not path.exists()


def test_a_sealed_file_round_trips_and_a_missing_one_is_quiet(tmp_path: Path, capsys):
    from evo_wordle import cachedir

    path = tmp_path / "c"
    assert cachedir.read_sealed(path, "k", 100) is None
    cachedir.write_sealed(path, "k", b"payload")
    assert cachedir.read_sealed(path, "k", 100) == b"payload"
    assert capsys.readouterr().err == ""


def test_a_sealed_file_that_cannot_be_written_costs_nothing(tmp_path: Path):
    from evo_wordle import cachedir

    (tmp_path / "plain").write_text("x")
    cachedir.write_sealed(tmp_path / "plain" / "c", "k", b"payload")


def test_a_sealed_header_of_up_to_1024_bytes_is_read_and_a_longer_one_refused(tmp_path: Path, capsys):
    from evo_wordle import cachedir

    path = tmp_path / "c"
    _sealed(path, b"p", head_size=1024)
    assert cachedir.read_sealed(path, "k", 10) == b"p"
    _sealed(path, b"p", head_size=1025)
    assert cachedir.read_sealed(path, "k", 10) is None
    assert capsys.readouterr().err.count("\n") == 1


def test_a_sealed_file_is_capped_at_its_limit_plus_the_header_room(tmp_path: Path, capsys):
    from evo_wordle import cachedir

    path = tmp_path / "c"
    _sealed(path, b"p" * 1000)
    size = path.stat().st_size
    assert cachedir.read_sealed(path, "k", size - 1024) == b"p" * 1000
    assert cachedir.read_sealed(path, "k", size - 1025) is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too large" in err and "recomputing" in err


@pytest.mark.parametrize("how", ["no-newline", "not-json", "not-utf8", "list", "format", "kind", "size", "sha256",
                                 "folder"])
def test_a_damaged_or_foreign_sealed_file_is_one_notice_and_no_payload(tmp_path: Path, capsys, how):
    from evo_wordle import cachedir

    path = tmp_path / "c"
    if how == "no-newline":  # a torn write: the header line of an empty payload, its newline lost
        _sealed(path, b"")
        path.write_bytes(path.read_bytes().rstrip(b"\n"))
    elif how == "not-json":
        path.write_bytes(b"{nope\npayload")
    elif how == "not-utf8":
        path.write_bytes(b'{"kind": "\xff"}\npayload')
    elif how == "list":
        path.write_bytes(b'["evo-wordle-cache"]\npayload')
    elif how == "folder":
        path.mkdir()
    else:
        _sealed(path, b"payload", **{how: {"format": "other", "kind": "other-kind", "size": 8,
                                           "sha256": "0" * 64}[how]})
    assert cachedir.read_sealed(path, "k", 100) is None
    err = capsys.readouterr().err
    assert err.startswith(f"evo-wordle: cache file {path} is damaged") and err.count("\n") == 1


def _sealed_npy(path: Path, values, total: int | None = None) -> None:
    """A sealed .npy payload of ``values``; with ``total``, its npy header is padded with spaces
    (as numpy allows) until the whole file has ``total`` bytes."""
    import io

    import numpy as np

    values = np.asarray(values)
    buf = io.BytesIO()
    np.save(buf, values, allow_pickle=False)
    payload = buf.getvalue()
    header = payload[10:10 + int.from_bytes(payload[8:10], "little")].rstrip(b"\n")
    pad = 0
    while True:
        _sealed(path, payload)
        if total is None or path.stat().st_size == total:
            return
        pad += total - path.stat().st_size
        padded = header + b" " * pad + b"\n"
        payload = payload[:8] + len(padded).to_bytes(2, "little") + padded + values.tobytes()


def test_a_sealed_vector_of_n_values_may_take_8n_plus_2048_bytes_and_no_more(tmp_path: Path, capsys):
    """The cap of a vector cache: 8 bytes a value, 1 KiB of .npy header, 1 KiB of seal header."""
    import numpy as np

    from evo_wordle import cachedir

    path = tmp_path / "c"
    good = np.arange(10.0)
    _sealed_npy(path, good, total=8 * 10 + 2048)
    assert np.array_equal(cachedir.read_sealed_array(path, "k", 10), good)
    _sealed_npy(path, good, total=8 * 10 + 2049)
    assert cachedir.read_sealed_array(path, "k", 10) is None
    assert "too large" in capsys.readouterr().err


@pytest.mark.parametrize("values", [[0.0, 1.0, float("inf")], [0.0, float("nan"), 1.0], [0.0, -1.0, 2.0],
                                    [0.0, -0.5, float("inf")]])
def test_a_sealed_vector_with_a_value_no_count_can_have_is_recomputed(tmp_path: Path, capsys, values):
    from evo_wordle import cachedir

    path = tmp_path / "c"
    _sealed_npy(path, values)
    assert cachedir.read_sealed_array(path, "k", 3) is None
    assert "does not hold 3 k values; recomputing it" in capsys.readouterr().err


def test_a_sealed_vector_of_another_type_shape_or_no_array_is_recomputed(tmp_path: Path, capsys):
    import numpy as np

    from evo_wordle import cachedir

    path = tmp_path / "c"
    _sealed_npy(path, np.zeros(3))
    assert np.array_equal(cachedir.read_sealed_array(path, "k", 3), np.zeros(3))  # zero is a count
    for bad in (np.zeros(3, dtype=np.float32), np.zeros(4), np.zeros((3, 1)), np.zeros(3, dtype=np.int64)):
        _sealed_npy(path, bad)
        assert cachedir.read_sealed_array(path, "k", 3) is None
    for payload in (b"", b"not an array", b"\x93NUMPY\x01\x00"):
        _sealed(path, payload)
        assert cachedir.read_sealed_array(path, "k", 3) is None
    assert capsys.readouterr().err.count("recomputing") == 7


def _header(version: tuple[int, int], shape, descr: str = "<f8") -> bytes:
    import io

    import numpy as np

    fh = io.BytesIO()
    d = {"descr": descr, "fortran_order": False, "shape": shape}
    if version == (1, 0):
        np.lib.format.write_array_header_1_0(fh, d)
    else:
        np.lib.format.write_array_header_2_0(fh, d)
    return fh.getvalue()


def test_a_sealed_vector_in_either_npy_header_version_is_read(tmp_path: Path):
    import numpy as np

    from evo_wordle import cachedir

    path = tmp_path / "c"
    for version in ((1, 0), (2, 0)):
        cachedir.write_sealed(path, "k", _header(version, (3,)) + np.arange(3.0).tobytes())
        assert np.array_equal(cachedir.read_sealed_array(path, "k", 3), np.arange(3.0))


@pytest.mark.parametrize("how", ["npz", "huge-shape", "trailing-byte", "short-data", "big-endian", "version-3"])
def test_a_sealed_vector_payload_that_is_not_exactly_n_floats_is_recomputed(tmp_path: Path, capsys, how):
    """Whatever the payload (its digest right: written by someone with access to the folder, or by
    a bug), the answer is the vector or a recompute: no traceback, no allocation its header asks
    for.  An .npz payload used to crash (np.load opens it as an archive, which has no shape)."""
    import io
    import tracemalloc

    import numpy as np

    from evo_wordle import cachedir

    good = np.arange(3.0).tobytes()
    if how == "npz":
        fh = io.BytesIO()
        np.savez(fh, values=np.arange(3.0))
        payload = fh.getvalue()
    elif how == "huge-shape":
        payload = _header((1, 0), (10**12,)) + good
    elif how == "trailing-byte":
        payload = _header((1, 0), (3,)) + good + b"\0"
    elif how == "short-data":
        payload = _header((1, 0), (3,)) + good[:-1]
    elif how == "big-endian":
        payload = _header((1, 0), (3,), ">f8") + np.arange(3.0).astype(">f8").tobytes()
    else:
        payload = b"\x93NUMPY\x03\x00" + _header((2, 0), (3,))[8:] + good
    path = tmp_path / "c"
    cachedir.write_sealed(path, "k", payload)
    tracemalloc.start()
    try:
        assert cachedir.read_sealed_array(path, "k", 3) is None
        assert tracemalloc.get_traced_memory()[1] < 1_000_000
    finally:
        tracemalloc.stop()
    assert "does not hold 3 k values; recomputing it" in capsys.readouterr().err


def _users(monkeypatch, *entries: tuple[str, int]) -> None:
    import pwd

    monkeypatch.setattr(pwd, "getpwall", lambda: [pwd.struct_passwd((name, "x", 1000 + i, gid, "", "/", "/bin/sh"))
                                                  for i, (name, gid) in enumerate(entries)])


def test_a_group_someone_else_has_as_primary_group_is_not_private(tmp_path: Path, monkeypatch):
    """/etc/group lists no members of a user's primary group: mallory, whose primary group is the
    folder's, may write a group-writable folder although the group's member list is empty."""
    from evo_wordle import cachedir

    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o775)
    gid = os.stat(cache).st_gid
    _group_file(monkeypatch, _me(), [])
    _users(monkeypatch, (_me(), gid), ("bob", gid + 1))
    cachedir.check_trusted(cache)
    _users(monkeypatch, (_me(), gid), ("bob", gid + 1), ("mallory", gid))
    with pytest.raises(EvoWordleError, match="writable by its group"):
        cachedir.check_trusted(cache)


def test_without_a_group_database_a_group_writable_folder_is_refused(tmp_path: Path, monkeypatch):
    import sys

    from evo_wordle import cachedir

    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o770)
    monkeypatch.setitem(sys.modules, "grp", None)  # `import grp` raises ImportError
    with pytest.raises(EvoWordleError, match="writable by its group"):
        cachedir.check_trusted(cache)


def test_on_linux_the_umask_is_read_without_setting_it_even_for_a_moment(monkeypatch):
    """Setting the umask to read it races with other threads creating files; /proc avoids that."""
    old = os.umask(0o027)
    os.umask(old)

    def no_set(mask):
        raise AssertionError("the umask was set")

    monkeypatch.setattr(os, "umask", no_set)
    assert files._umask() == old


def test_a_repeated_key_is_named_by_its_first_40_characters():
    """The one line names the key, cut to 40 characters (a key may be as long as the file)."""
    key = "k" * 39 + "xyz"
    with pytest.raises(EvoWordleError) as caught:
        files.parse_json(f'{{"{key}": 1, "{key}": 2}}', "f.json", "parameter file")
    assert str(caught.value) == f"parameter file f.json gives the key {'k' * 39 + 'x'!r} twice in one object"
