"""The terminal side of the command line: ASCII fallbacks and the one-line failure report.

Kept free of heavy imports so the console-script entry point can catch Ctrl-C while numpy,
matplotlib and the rest are still loading.
"""

from __future__ import annotations

import codecs
import errno
import os
import sys

#: What the non-ASCII characters the commands print become on an ASCII terminal.
ASCII = {
    "🟩": "G", "🟨": "Y", "⬛": "B", "⬜": "B", "🟧": "G", "🟦": "Y", "→": "->", "←": "<-", "±": "+/-",
    "·": "*", "−": "-", "…": "...", "×": "x", "≥": ">=", "≤": "<=", "—": "--", "–": "-", "≈": "~",
    "Σ": "sum", "ε": "eps", "μ": "mu", "λ": "lambda", "∝": "~", "∈": "in", "²": "^2", "§": "S",
}
_HANDLER = "evo_wordle_ascii"


def _to_ascii(exc: UnicodeError):
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(ASCII.get(ch, "?") for ch in text), exc.end


codecs.register_error(_HANDLER, _to_ascii)


def ascii_fallback() -> None:
    """Let stdout/stderr that cannot encode a character print its ASCII stand-in instead of
    raising (``PYTHONIOENCODING=ascii``, a C locale, a pipe to an old tool)."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=_HANDLER)
            except (ValueError, OSError):
                pass


def _to_devnull(stream) -> None:
    """Point ``stream``'s file descriptor at /dev/null so no later write or flush can fail again."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, stream.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def fail(message: str, code: int, prefix: str = "evo-wordle: error: ") -> int:
    """Print one line on stderr and return ``code``."""
    line = " ".join(str(message).split())  # one line, whatever the message held
    try:
        print(f"{prefix}{line}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    return code


#: Warnings held while a command checks its input (None: print at once, as outside the command
#: line): a bad flag found after a warning was a second line under it, the first not the error.
_held: list[str] | None = None


def hold_warnings() -> None:
    """From now on, hold warnings until :func:`release_warnings` (the work starts) or
    :func:`drop_warnings` (the input was refused: its one line is the error)."""
    global _held
    _held = []


def warn(message: str) -> None:
    """``evo-wordle: warning: …`` on stderr, or held (see :func:`hold_warnings`)."""
    line = "evo-wordle: warning: " + " ".join(str(message).split())
    if _held is not None:
        _held.append(line)
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def release_warnings() -> None:
    """Print the held warnings (the work starts: they concern it) and print later ones at once."""
    global _held
    lines, _held = _held or [], None
    for line in lines:
        try:
            print(line, file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass


class Releasing:
    """A stdout or stderr that prints the held warnings before anything else is written to it:
    the work has begun (a result, a "wrote FILE", a progress line), and the warnings concern it,
    so they come first, as they did before they were held.

    A stream nobody reads any more never stops the work: stderr (``diagnostics``: warnings,
    progress) that fails in any way (a full disk, a closed pipe), or stdout whose reader is gone
    (``| head -1``), is pointed at /dev/null and the command runs on to write its files.  A
    progress line into ``2>&1 | head -1`` ended a sweep part-way with exit 0, and a closed stdout
    an evolve-strategy run before its ``--out`` was written, exit 0 too.  stdout failing otherwise
    (a full disk) still ends the command: its result is lost, and that is said."""

    def __init__(self, stream, diagnostics: bool = False) -> None:
        self._stream = stream
        self._diagnostics = diagnostics
        self._gone = False

    def write(self, text: str) -> int:
        """Write ``text``, the held warnings first."""
        if _held:
            release_warnings()
        if not self._gone:
            try:
                return self._stream.write(text)
            except OSError as exc:
                self._lost(exc)
        return len(text)

    def flush(self) -> None:
        """Flush, unless nobody reads this stream any more."""
        if not self._gone:
            try:
                self._stream.flush()
            except OSError as exc:
                self._lost(exc)

    def _lost(self, exc: OSError) -> None:
        if not (self._diagnostics or isinstance(exc, BrokenPipeError)):
            raise exc
        self._gone = True
        _to_devnull(self._stream)  # what it still buffers, and the interpreter's last flush, go nowhere

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def drop_warnings() -> None:
    """Forget the held warnings: the input was refused, so they concern no run."""
    global _held
    _held = None


# a forked worker inherited the parent's held warnings and printed them again at its first
# progress line (a sweep's warning came once per worker): they are the parent's to print
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=drop_warnings)


def interrupted() -> int:
    """Ctrl-C: "interrupted", exit 130, on a line of its own (a prompt's half-typed word or a
    progress bar may hold the terminal's line)."""
    try:
        if sys.stderr.isatty():
            print(file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass
    return fail("interrupted", 130, prefix="evo-wordle: ")


def unexpected(exc: BaseException) -> int:
    """Anything that is not the user's input: a lost worker, a full disk, a closed pipe, a bug."""
    from concurrent.futures.process import BrokenProcessPool

    if _interrupted:
        return interrupted()
    if isinstance(exc, BrokenPipeError):
        _to_devnull(sys.stdout)  # the interpreter's last flush cannot fail again
        return 0
    if isinstance(exc, BrokenProcessPool):
        return fail("a worker process died (killed or out of memory); nothing was lost that a "
                    "rerun cannot redo - run the command again", 1)
    if isinstance(exc, MemoryError):
        return fail("out of memory", 1)
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EIO, errno.EPIPE, errno.EBADF) and exc.filename is None:
            _to_devnull(sys.stdout)  # the interpreter's last flush cannot fail again
            return fail(f"cannot write the output: {exc.strerror or exc}", 1)
        where = f" {exc.filename}" if exc.filename else ""
        return fail(f"{exc.strerror or exc.__class__.__name__}:{where}".rstrip(":"), 1)
    if os.environ.get("EVO_WORDLE_DEBUG"):
        import traceback

        traceback.print_exception(exc)
        return 1
    return fail(f"internal error: {exc.__class__.__name__}: {exc} "
                "(a bug: set EVO_WORDLE_DEBUG=1 for the traceback and report it)", 1)


#: Set by the SIGINT handler: a Ctrl-C that a library turned into another error (numpy's C
#: extension reports an interrupted import as ImportError) still ends as "interrupted", 130.
_interrupted = False


#: How long a Ctrl-C lost in a callback waits before it is raised again (seconds).
RETRY_SECONDS = 0.005


def _on_sigint(signum, frame) -> None:
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def _on_lost_interrupt(unraisable) -> None:
    """``sys.unraisablehook``: a Ctrl-C that landed in a callback Python cannot raise from (the
    import lock's weakref callback while the modules load, a ``__del__``) would be printed as
    "Exception ignored … Traceback" and lost, the command running on to exit 0.  It is raised
    again a moment later, in ordinary code (SIGALRM, one shot); anything else goes to the default hook."""
    if _interrupted and isinstance(unraisable.exc_value, KeyboardInterrupt):
        import _signal

        if hasattr(_signal, "setitimer"):
            _signal.signal(_signal.SIGALRM, _on_sigint)
            _signal.setitimer(_signal.ITIMER_REAL, RETRY_SECONDS)
            return
    _other_hook(unraisable)


_other_hook = sys.__unraisablehook__  # the hook in place before run() installed ours


def run() -> int:
    """The ``evo-wordle`` console script: Ctrl-C even while the modules load exits 130 in one line."""
    global _other_hook
    try:
        # the builtin _signal, loaded with the interpreter: importing `signal` first (and enum with
        # it) took milliseconds in which a Ctrl-C still ended in a traceback
        import _signal

        if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
            _other_hook, sys.unraisablehook = sys.unraisablehook, _on_lost_interrupt
            _signal.signal(_signal.SIGINT, _on_sigint)
        from .cli import main
    except KeyboardInterrupt:
        return interrupted()
    except ImportError:
        if _interrupted:
            return interrupted()
        raise
    try:
        return main()
    except KeyboardInterrupt:  # between main's handlers (e.g. while it reports)
        return interrupted()
    finally:
        _ignore_late_ctrl_c(_signal)


def _ignore_late_ctrl_c(_signal) -> None:
    """The command is over (its result printed, its exit code chosen): a Ctrl-C landing while the
    interpreter exits would only turn that ending into a traceback and a death by SIGINT, so it
    is ignored from here on (only if the handler is still ours)."""
    if _signal.getsignal(_signal.SIGINT) is _on_sigint:
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    if hasattr(_signal, "setitimer") and _signal.getsignal(_signal.SIGALRM) is _on_sigint:
        _signal.setitimer(_signal.ITIMER_REAL, 0)  # a lost Ctrl-C's retry, not yet raised
        _signal.signal(_signal.SIGALRM, _signal.SIG_DFL)
