"""Progress of long runs on stderr, with an ETA, whether stderr is a terminal or a pipe.

On a terminal: tqdm's usual bar, redrawn in place and cleared at the end.  Piped or
redirected (a log file, CI, ``| tee``): one plain line every ``EVO_WORDLE_PROGRESS_SECONDS``
seconds (default 5), the first only once that much time has passed, so short runs print
nothing, and a last line with the total time (unless the line before already showed the final
count).  Never on stdout, which carries results.
"""

from __future__ import annotations

import os
import sys

from .errors import EvoWordleError

#: Seconds between progress lines when stderr is not a terminal (environment override).
INTERVAL_VARIABLE = "EVO_WORDLE_PROGRESS_SECONDS"
DEFAULT_INTERVAL = 5.0
PLAIN_FORMAT = "{desc}: {n_fmt}/{total_fmt} {unit} ({percentage:.0f} %), {elapsed} elapsed, ETA {remaining}"


class _Lines:
    """A file for tqdm that turns its carriage-return redraws into whole lines."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        line = text.replace("\r", "").rstrip()
        if line:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


def _plain_bar(**kwargs):
    """A tqdm bar for :class:`_Lines` whose closing line (the total time) is left out when the
    last line printed already showed the final count: the two differed by a second at most, so
    a run ended on two "N/N (100 %)" lines (every slow generation or bench printed its update)."""
    from tqdm import tqdm

    class Plain(tqdm):
        def close(self) -> None:
            if not self.disable and getattr(self, "last_print_n", None) == self.n:
                self.leave = False  # tqdm then clears the line instead: _Lines writes nothing
            super().close()

    return Plain(**kwargs)


def interval() -> float:
    """Seconds between piped progress lines (``$EVO_WORDLE_PROGRESS_SECONDS``, default 5)."""
    text = os.environ.get(INTERVAL_VARIABLE)
    if text is None or text == "":
        return DEFAULT_INTERVAL
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value < float("inf"):
        raise EvoWordleError(f"{INTERVAL_VARIABLE} must be a number of seconds ≥ 0, not {text!r}")
    return value


def progress_bar(total: int | None, desc: str, unit: str, enabled: bool = True, initial: int = 0):
    """A tqdm bar on stderr (a disabled one when ``enabled`` is false); use it as a context
    manager and call ``update(n)``.  ``initial`` counts work done before (a resumed run).
    The work starts here: warnings the command held while checking its input are printed."""
    from tqdm import tqdm

    from .console import release_warnings

    release_warnings()

    if not enabled:
        return tqdm(total=total, disable=True)
    stream = sys.stderr
    if stream.isatty():
        return tqdm(total=total, desc=desc, unit=unit, file=stream, leave=False, initial=initial)
    every = interval()
    return _plain_bar(
        total=total,
        desc=desc,
        unit=unit,
        file=_Lines(stream),
        mininterval=every,
        maxinterval=max(every, 10.0),
        miniters=1,
        delay=every,
        bar_format=PLAIN_FORMAT,
        initial=initial,
        leave=True,
        ascii=True,
    )


def note(bar, line: str) -> None:
    """Print a line on stderr without tearing a terminal's bar."""
    if getattr(bar, "disable", True) or not sys.stderr.isatty():
        print(line, file=sys.stderr, flush=True)
    else:
        bar.write(line, file=sys.stderr)
