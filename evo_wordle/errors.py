"""The one exception type users see: the CLI turns it into a one-line message and exit 2."""


class EvoWordleError(Exception):
    """Bad input from the user (word, pattern, list, parameter, file); never a bug."""


class ImpossibleFeedback(EvoWordleError):
    """The feedback given so far leaves no candidate: it cannot come from any answer."""
