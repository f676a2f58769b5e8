"""Shared fixtures: one pattern-table cache per test session, built once (≈1 s)."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest
from hypothesis import HealthCheck, settings

from evo_wordle import Context

# Property tests are deterministic and bounded: the same examples on every run and machine.
settings.register_profile(
    "evo-wordle", derandomize=True, database=None, deadline=None, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "evo-wordle"))

# Piped progress lines appear after 5 s by default: on a loaded machine a short in-process bench
# can take that long and its stderr, which many tests expect empty or one line, gets ETA lines.
# Tests of the progress lines set the interval themselves (tests/test_progress.py).
os.environ.setdefault("EVO_WORDLE_PROGRESS_SECONDS", "3600")


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    """A cache dir for the session; reuses $EVO_WORDLE_CACHE when set (CI sets it)."""
    env = os.environ.get("EVO_WORDLE_CACHE")
    if env:
        return env
    path = tmp_path_factory.mktemp("cache")
    os.environ["EVO_WORDLE_CACHE"] = str(path)
    return str(path)


@pytest.fixture(scope="session", autouse=True)
def table_built_first(cache_dir) -> None:
    """The bundled lists' pattern table, loaded (or built) before any test runs: on a fresh cache
    (CI's) its one-time notice "built pattern table ..." went to the stderr of whichever test came
    first, and one expecting a single line of stderr failed by test order alone."""
    Context().table  # noqa: B018


def _default_signals() -> None:
    for sig in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass


@pytest.fixture
def writer():
    """A live process of ours standing for a writer of temporary files (not this test's parent:
    a sweep that signalled the pids it checks would then hit a process the test owns).  Every
    signal is reset to end it, so a check that sent one instead of asking (signal 0) is seen
    however this session was started: under nohup a SIGHUP was ignored and went unnoticed."""
    proc = subprocess.Popen(["sleep", "120"], preexec_fn=_default_signals)
    yield proc
    proc.kill()
    proc.wait()


@pytest.fixture(scope="session")
def ctx(cache_dir) -> Context:
    """The bundled lists (12,972 allowed, 2,309 NYT answers) with their pattern table loaded."""
    c = Context()
    c.table  # noqa: B018 - build or load once for the session
    return c
