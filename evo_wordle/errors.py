"""The exceptions users see: the CLI turns each into one line on stderr and an exit code.

``EvoWordleError`` is a ValueError, so Python callers that already catch ValueError for bad
arguments keep working.
"""


class EvoWordleError(ValueError):
    """Bad input from the user (word, pattern, list, parameter, file); never a bug.  Exit 2."""

    exit_code = 2


class ImpossibleFeedback(EvoWordleError):
    """The feedback given so far leaves no candidate: it cannot come from any answer."""


class WorkerDied(EvoWordleError):
    """A worker process was killed (out of memory, ``kill``): not the user's input.  Exit 1."""

    exit_code = 1


class OutputError(EvoWordleError):
    """A result could not be written at the end (disk full, permissions changed).  Exit 1."""

    exit_code = 1
