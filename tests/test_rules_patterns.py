"""Pattern rules: which text reads as which colour, what a word must look like, the code's range."""

from __future__ import annotations

import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.patterns import (
    GREEN,
    GREY,
    YELLOW,
    check_code,
    check_word,
    decode,
    encode,
    parse,
    score,
    tiles,
    to_digits,
    to_emoji,
    to_letters,
)


def test_colour_codes_are_grey_0_yellow_1_green_2():
    assert (GREY, YELLOW, GREEN) == (0, 1, 2)
    assert encode([2, 2, 2, 2, 2]) == 242 and encode([1, 0, 0, 0, 0]) == 81 and encode([0, 0, 0, 0, 1]) == 1


@pytest.mark.parametrize("char", ["b", "x", "-", ".", "w", "0", "B", "X", "W"])
def test_grey_aliases(char):
    assert parse("g" + char * 3 + "y") == encode([2, 0, 0, 0, 1])


@pytest.mark.parametrize(("char", "trit"), [("y", 1), ("Y", 1), ("1", 1), ("g", 2), ("G", 2), ("2", 2)])
def test_yellow_and_green_aliases(char, trit):
    assert parse(char * 5) == encode([trit] * 5)


@pytest.mark.parametrize(("emoji", "trit"), [("⬛", 0), ("⬜", 0), ("🟨", 1), ("🟦", 1), ("🟩", 2), ("🟧", 2)])
def test_emoji_aliases_including_high_contrast(emoji, trit):
    # 🟦/🟧 are the high-contrast yellow/green; ⬜ is light-mode grey
    assert parse(emoji * 5) == encode([trit] * 5)
    assert parse(emoji + "\ufe0f" + emoji * 4) == encode([trit] * 5)  # variation selector ignored


def test_whitespace_is_ignored_and_mixing_emoji_with_letters_is_refused():
    assert parse(" 2 0 1\t1 0\n") == encode([2, 0, 1, 1, 0])
    with pytest.raises(EvoWordleError, match="cannot read pattern"):
        parse("🟩🟩ggg")
    with pytest.raises(EvoWordleError, match="cannot read pattern"):
        parse("ggggz")


def test_parse_checks_the_tile_count_for_any_length():
    assert parse("2101", length=4) == encode([2, 1, 0, 1])
    assert parse("gyb", length=3) == 2 * 9 + 3
    with pytest.raises(EvoWordleError, match="has 5 tiles, expected 4"):
        parse("22222", length=4)
    with pytest.raises(EvoWordleError, match="has 4 tiles, expected 5"):
        parse("2222")


def test_check_word_lowercases_and_strips():
    assert check_word("  CrAnE \n") == "crane"
    assert check_word("cat", length=3) == "cat"


@pytest.mark.parametrize("bad", ["cran", "cranes", "cr4ne", "cr ne", "crâne", "", "crane!", "éclat"])
def test_check_word_refuses_anything_but_ascii_letters_of_the_length(bad):
    with pytest.raises(EvoWordleError, match="is not a 5-letter word"):
        check_word(bad)


def test_check_word_refuses_the_wrong_length_for_other_lengths():
    with pytest.raises(EvoWordleError, match="is not a 4-letter word"):
        check_word("crane", length=4)


def test_decode_range_and_order():
    assert decode(0) == [0] * 5 and decode(242) == [2] * 5
    assert decode(81) == [1, 0, 0, 0, 0] and decode(1) == [0, 0, 0, 0, 1]
    assert decode(3**6 - 1, 6) == [2] * 6 and decode(5, 2) == [1, 2]
    for bad, length in [(-1, 5), (243, 5), (300, 5), (9, 2), (10**6, 5)]:
        with pytest.raises(EvoWordleError, match="out of range"):
            decode(bad, length)


def test_score_duplicate_letters():
    # greens before yellows; each answer letter lights at most one guess tile, leftmost first
    assert to_digits(score("speed", "abide")) == "00101"
    assert to_digits(score("eerie", "three")) == "10202"
    assert to_digits(score("lolly", "hello")) == "01220"
    assert to_digits(score("geese", "eerie")) == "02102"
    assert to_digits(score("allee", "lleal")) == "12110"
    assert to_digits(score("crane", "crane")) == "22222"
    assert to_digits(score("abbey", "babes")) == "11220"
    with pytest.raises(EvoWordleError, match="different lengths"):
        score("crane", "cranes")


def test_text_forms():
    code = encode([2, 1, 0, 0, 1])
    assert to_digits(code) == "21001"
    assert to_letters(code) == "GYBBY"
    assert to_emoji(code) == "🟩🟨⬛⬛🟨"
    assert to_digits(encode([1, 2]), length=2) == "12" and to_letters(5, 2) == "YG" and to_emoji(5, 2) == "🟨🟩"


def test_tiles_plain_and_coloured():
    code = encode([2, 1, 0, 0, 1])
    assert tiles("crane", code, color=False) == "CG RY AB NB EY"
    coloured = tiles("crane", code)
    assert coloured == (
        "\x1b[1;97;42m C \x1b[0m" "\x1b[1;30;43m R \x1b[0m" "\x1b[1;97;100m A \x1b[0m"
        "\x1b[1;97;100m N \x1b[0m" "\x1b[1;30;43m E \x1b[0m"
    )


# --- check_code: the feedback codes the public API accepts ---------------------------------------


@pytest.mark.parametrize("length", [3, 4, 5, 6])
def test_check_code_accepts_exactly_0_to_3_to_the_length_minus_1(length):
    top = 3**length - 1
    for code in (0, 1, top // 2, top - 1, top):
        assert check_code(code, length) == code and type(check_code(code, length)) is int
    for code in (-1, top + 1, 3 * top):
        with pytest.raises(EvoWordleError, match=f"pattern code {code} is outside 0 … {top} "
                                                 f"\\(the codes for {length} letters\\)"):
            check_code(code, length)


def test_check_code_defaults_to_five_letters():
    assert check_code(242) == 242
    with pytest.raises(EvoWordleError, match="outside 0 … 242"):
        check_code(243)


def test_check_code_takes_numpy_integers_as_plain_ints():
    import numpy as np

    for code in (np.int64(7), np.uint8(242), np.int16(0)):
        got = check_code(code)
        assert got == int(code) and type(got) is int
    with pytest.raises(EvoWordleError, match="outside"):
        check_code(np.int64(-1))


@pytest.mark.parametrize("bad, message", [
    (True, "is not a whole number"), (False, "is not a whole number"), (3.0, "is not a whole number"),
    (None, "is not a whole number"), ("20110", "is text, not a code: pass patterns.parse\\('20110'\\)"),
])
def test_check_code_refuses_what_is_not_a_code(bad, message):
    import numpy as np

    with pytest.raises(EvoWordleError, match=message):
        check_code(bad)
    if isinstance(bad, bool):
        with pytest.raises(EvoWordleError, match="is not a whole number"):
            check_code(np.bool_(bad))
