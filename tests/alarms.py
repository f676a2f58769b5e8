"""A test that would hang (an open waiting for a FIFO's writer) fails instead, after ``seconds``."""

from __future__ import annotations

import signal
from contextlib import contextmanager


@contextmanager
def alarm(seconds: int):
    def hung(signum, frame):
        raise TimeoutError(f"still running after {seconds} s (blocked on a FIFO?)")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
