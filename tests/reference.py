"""A slow, obviously-correct Wordle colouring used only to check the fast implementations."""


def reference_pattern(guess: str, answer: str) -> int:
    """Mark greens, strike them from the answer, then give each other guess letter a yellow
    if an unstruck copy remains in the answer (leftmost first).  Returns the base-3 code."""
    colours = ["grey"] * len(guess)
    pool = list(answer)
    for i, letter in enumerate(guess):
        if answer[i] == letter:
            colours[i] = "green"
            pool[i] = None
    for i, letter in enumerate(guess):
        if colours[i] == "green":
            continue
        if letter in pool:
            colours[i] = "yellow"
            pool[pool.index(letter)] = None
    value = {"grey": 0, "yellow": 1, "green": 2}
    code = 0
    for c in colours:
        code = code * 3 + value[c]
    return code
