"""The exceptions users see: the CLI turns each into one line on stderr and an exit code.

``EvoWordleError`` is a ValueError, so Python callers that already catch ValueError for bad
arguments keep working.
"""


class EvoWordleError(ValueError):
    """Bad input from the user (word, pattern, list, parameter, file); never a bug.  Exit 2."""

    exit_code = 2

    def for_cli(self) -> str:
        """The line the command line prints: the message, unless it names a Python argument
        that the command line spells as a flag (:class:`~evo_wordle.errors.OtherListsRefused`)."""
        return str(self)


class OtherListsRefused(EvoWordleError):
    """A file replayed on other word lists than it was made for, without asking for them.  The
    way to ask differs: ``other_lists=True`` from Python, ``--other-lists`` on the command line,
    so the message names the one the caller can give."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(where, why)  # both in args: the error pickles (a sweep's worker) intact
        self.where, self.why = where, why

    def _text(self, ask: str) -> str:
        return (f"{self.where} was made for other word lists ({self.why}): play it on its own lists, "
                f"or {ask} to play it on these")

    def __str__(self) -> str:
        return self._text("pass other_lists=True")

    def for_cli(self) -> str:
        return self._text("give --other-lists")


class ImpossibleFeedback(EvoWordleError):
    """The feedback given so far leaves no candidate: it cannot come from any answer."""


class WorkerDied(EvoWordleError):
    """A worker process was killed (out of memory, ``kill``): not the user's input.  Exit 1."""

    exit_code = 1


class OutputError(EvoWordleError):
    """A result could not be written at the end (disk full, permissions changed).  Exit 1."""

    exit_code = 1
