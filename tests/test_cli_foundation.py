"""The foundation commands, and their error paths: one line on stderr, exit 2, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from evo_wordle.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_entropy_json(capsys, ctx):
    code, out, _ = run(capsys, "entropy", "TARES", "black", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["tares"] == pytest.approx(6.19405254, abs=1e-6)
    assert data["black"] == pytest.approx(4.14023705, abs=1e-6)


def test_rank_top_naive_and_priority(capsys, ctx):
    code, out, _ = run(capsys, "rank", "--top", "3", "--json")
    assert code == 0 and [r["word"] for r in json.loads(out)] == ["tares", "lares", "rales"]
    code, out, _ = run(capsys, "rank", "--top", "1", "--by", "priority", "--json")
    assert json.loads(out)[0]["word"] == "rates"  # the thesis's greedy best starter


def test_a_guess_that_cannot_split_has_zero_bits_not_minus_zero(capsys, tmp_path, cache_dir):
    """One candidate: every guess has 0 bits; -Σ 1·log 1 is -0.0, which printed as "-0.00000000"."""
    one = tmp_path / "one.txt"
    one.write_text("crane\n")
    code, out, _ = run(capsys, "entropy", "crane", "--allowed", str(one))
    assert code == 0 and out == "CRANE  0.00000000\n"
    code, out, _ = run(capsys, "entropy", "crane", "--allowed", str(one), "--json")
    assert code == 0 and out.split() == ["{", '"crane":', "0.0", "}"]
    code, out, _ = run(capsys, "rank", "--allowed", str(one))
    assert code == 0 and "-0" not in out
    assert out.splitlines()[1].split() == ["1", "CRANE", "0.00000", "0.1192", "0.00000"]


def test_pattern_command(capsys, ctx):
    code, out, _ = run(capsys, "pattern", "asses", "passe")
    assert code == 0 and "11210" in out and "YYGYB" in out and "🟨🟨🟩🟨⬛" in out


def test_table_command(capsys, ctx):
    code, out, _ = run(capsys, "table")
    assert code == 0 and "12972 x 12972 uint8" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["entropy", "zzzzz"], "not an allowed word"),
        (["entropy", "tare"], "not a 5-letter word"),
        (["pattern", "roars", "eul3r"], "not a 5-letter word"),
        (["rank", "--top", "0"], "at least 1"),
        (["rank", "--candidates", "everything"], "invalid choice"),
        (["entropy", "tares", "--answers", "/nonexistent/list.txt"], "not found"),
        (["nonsense-command"], "invalid choice"),
    ],
)
def test_errors_are_one_line(capsys, ctx, argv, fragment):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors exit from inside parse_args
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unwritable_cache_dir_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    env = {**os.environ, "EVO_WORDLE_CACHE": str(blocker / "cache")}
    proc = subprocess.run([sys.executable, "-m", "evo_wordle", "entropy", "tares"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "not writable" in proc.stderr and "Traceback" not in proc.stderr


def test_help_lists_commands():
    proc = subprocess.run([sys.executable, "-m", "evo_wordle", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    for command in ("table", "entropy", "rank", "pattern"):
        assert command in proc.stdout
    assert "examples:" in proc.stdout
