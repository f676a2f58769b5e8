"""Rules of evo_wordle/artefacts.py, the settings/provenance checks of stored strategies and
trees (issue 19, mutation testing): what ``made_for`` records, how the answer list is hashed,
which stored settings are refused and how, which list differences are named, and the
``name stored -> playing`` override lines.  Small hand-made word lists, no pattern table."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from evo_wordle.artefacts import (
    SETTING_KEYS,
    answers_digest,
    check_lists,
    list_mismatch,
    made_for,
    other_lists_note,
    overrides,
    settings_of,
)
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import Settings
from evo_wordle.words import WordSet, load_words

ALLOWED = ("cigar", "rebut", "sissy", "humph", "awake", "blush")


def words(answers=("cigar", "rebut", "sissy"), allowed=ALLOWED, label="mine") -> WordSet:
    return WordSet(tuple(sorted(allowed)), tuple(answers), label=label)


def test_the_answer_digest_is_sha256_of_the_lines_with_a_final_newline():
    w = words()
    text = "".join(a + "\n" for a in w.answers)
    assert answers_digest(w) == hashlib.sha256(text.encode()).hexdigest()
    assert answers_digest(w) != answers_digest(words(answers=("cigar", "rebut")))


def test_made_for_records_every_setting_the_list_name_and_both_digests():
    settings = Settings(candidates="answers", guess_from="allowed", hard=True, daily=True, max_guesses=7, boards=2)
    w = words()
    record = made_for(settings, w)
    assert record == {"candidates": "answers", "guess_from": "allowed", "hard": True, "daily": True,
                      "max_guesses": 7, "boards": 2, "answers": "mine",
                      "allowed_sha256": w.digest, "answers_sha256": answers_digest(w)}
    assert set(SETTING_KEYS) == {f.name for f in Settings.__dataclass_fields__.values()}


def test_settings_of_reads_back_what_made_for_wrote():
    settings = Settings(candidates="answers", guess_from="allowed", hard=True, daily=False, max_guesses=6, boards=1)
    assert settings_of(made_for(settings, words()), "here") == settings


@pytest.mark.parametrize("record, message", [
    ([], 'f.json: "made_for" must be a JSON object'),
    ("hard", 'f.json: "made_for" must be a JSON object'),
    ({"candidates": "answers", "guess_from": "allowed", "hard": True, "daily": False},
     'f.json: "made_for" lacks max_guesses, boards'),
    ({}, 'f.json: "made_for" lacks candidates, guess_from, hard, daily, max_guesses, boards'),
])
def test_a_malformed_block_is_named_with_what_is_wrong(record, message):
    with pytest.raises(EvoWordleError) as err:
        settings_of(record, "f.json")
    assert str(err.value) == message


def test_bad_stored_settings_are_one_line_errors():
    good = made_for(Settings(), words())
    head = r'^f\.json: bad "made_for" settings '
    with pytest.raises(EvoWordleError, match=head + r"\(--max-guesses must be between 1 and \d+, not 0\)$"):
        settings_of({**good, "max_guesses": 0}, "f.json")
    with pytest.raises(EvoWordleError, match=head + r"\(--candidates must be one of .*, not 'everyone'\)$"):
        settings_of({**good, "candidates": "everyone"}, "f.json")


def test_list_mismatch_names_the_list_that_differs():
    w = words()
    record = made_for(Settings(), w)
    assert list_mismatch(record, w) is None
    other_allowed = words(allowed=ALLOWED + ("zesty",))
    assert list_mismatch(record, other_allowed) == "the allowed list differs from the one it was made for"
    other_answers = words(answers=("cigar", "humph"), label="yours")
    assert list_mismatch(record, other_answers) == \
        "the answer list (yours) differs from the one it was made for (mine)"
    assert list_mismatch({}, w) == "the allowed list differs from the one it was made for"
    assert list_mismatch({"allowed_sha256": w.digest}, w) == \
        "the answer list (mine) differs from the one it was made for (None)"


def test_check_lists_refuses_other_lists_unless_asked_and_passes_a_file_that_records_none():
    """The Python API's rule (``other_lists``, the CLI's --other-lists): a file made for other
    lists is refused in one line naming why, unless asked for; its own lists, or a file that
    records no lists, pass; refusing is the default."""
    w = words()
    record = made_for(Settings(), w)
    check_lists(record, w, "strategy file s.json")  # its own lists: nothing to say
    other = words(answers=("cigar", "rebut"))
    expected = (r"^strategy file s\.json was made for other word lists \(the answer list \(mine\) differs from the one "
                r"it was made for \(mine\)\): play it on its own lists, or pass other_lists=True to play it on these$")
    with pytest.raises(EvoWordleError, match=expected):
        check_lists(record, other, "strategy file s.json")
    with pytest.raises(EvoWordleError, match=expected):
        check_lists(record, other, "strategy file s.json", other_lists=False)
    assert check_lists(record, other, "strategy file s.json", other_lists=True) is None
    assert check_lists(None, other, "strategy file s.json") is None  # an old file records no lists
    with pytest.raises(EvoWordleError, match=r"^--other-lists must be true or false, not 'yes'$"):
        check_lists(record, w, "strategy file s.json", other_lists="yes")


def test_a_result_notes_other_lists_only_when_the_lists_differ():
    """What a bench or sweep row records of a file played on other lists: ``other_lists`` and the
    reason when they differ; nothing on its own lists or for a file that records none."""
    w = words()
    record = made_for(Settings(), w)
    other = words(answers=("cigar", "rebut"))
    assert other_lists_note(record, w) == {}
    assert other_lists_note(record, other) == {"other_lists": True, "lists_differ": list_mismatch(record, other)}
    assert other_lists_note(record, other)["lists_differ"].startswith("the answer list (mine) differs")
    assert other_lists_note(None, other) == {}  # an old file records no lists
    assert other_lists_note("not a block", other) == {}


def test_overrides_list_each_changed_setting_in_order():
    stored = Settings(candidates="answers", guess_from="allowed", hard=False, max_guesses=6)
    assert overrides(stored, stored) == []
    playing = stored.with_(hard=True, max_guesses=9, boards=2)
    assert overrides(stored, playing) == ["hard False -> True", "max_guesses 6 -> 9", "boards 1 -> 2"]


def test_a_replayable_file_is_read_up_to_16_mib_and_not_a_byte_more(tmp_path):
    """The cap on what --strategy reads: a parameter file of exactly 16 MiB is read and recognised,
    one byte more is a one-line error before anything is parsed."""
    from evo_wordle.artefacts import MAX_FILE_BYTES, PARAMS_FORMAT, replay_kind

    assert MAX_FILE_BYTES == 16 * 2**20
    head = f'{{"format": "{PARAMS_FORMAT}", "pad": "'.encode()
    at_cap = tmp_path / "at-cap.json"
    at_cap.write_bytes(head + b"x" * (MAX_FILE_BYTES - len(head) - 2) + b'"}')
    assert at_cap.stat().st_size == MAX_FILE_BYTES
    assert replay_kind(at_cap) == "params"
    over = tmp_path / "over.json"
    over.write_bytes(head + b"x" * (MAX_FILE_BYTES - len(head) - 1) + b'"}')
    with pytest.raises(EvoWordleError, match="too large"):
        replay_kind(over)
    (tmp_path / "other.json").write_text('{"format": "something-else"}')
    with pytest.raises(EvoWordleError, match="not an evo-wordle strategy file"):
        replay_kind(tmp_path / "other.json")


def test_list_file_digests_are_recorded_only_when_a_list_is_a_file(tmp_path):
    from evo_wordle.artefacts import list_digests, list_file_digests
    from evo_wordle.words import load_words

    for answers in (None, "nyt", "original"):
        assert list_file_digests(None, answers) is None  # bundled lists cannot change under a run
    bundled = load_words()
    assert list_digests(bundled) == {"allowed_sha256": bundled.digest, "answers_sha256": answers_digest(bundled)}
    path = tmp_path / "answers.txt"
    path.write_text("cigar\nrebut\n")
    got = list_file_digests(None, str(path))
    assert got == list_digests(load_words(None, str(path)))
    allowed = tmp_path / "allowed.txt"
    allowed.write_text("cigar\nrebut\nsissy\n")
    assert list_file_digests(str(allowed), None) == list_digests(load_words(str(allowed), None))
    path.write_text("cigar\nsissy\n")  # the file edited: another record
    assert list_file_digests(None, str(path)) != got


def test_lists_made_for_loads_the_named_lists_and_checks_their_digests():
    from evo_wordle.artefacts import lists_made_for
    from evo_wordle.words import load_words

    record = made_for(Settings(), load_words(answers="original"))
    assert len(lists_made_for(record, "f").answers) == 2315 and lists_made_for(record, "f").label == "original"
    with pytest.raises(EvoWordleError, match="^f: the allowed list differs from the one it was made for$"):
        lists_made_for({**record, "allowed_sha256": "0" * 64}, "f")
    with pytest.raises(EvoWordleError, match=r"^f: the answer list \(nyt\) differs .* \(nyt\)$"):
        lists_made_for({**record, "answers": "nyt"}, "f")
    for bad, message in [(None, "no \"made_for\" block"),
                         ({**record, "answers": 3}, "\"made_for\" does not name its answer list"),
                         ({**record, "answers": "/no/such.txt"}, "made for the answer list /no/such.txt, which is")]:
        with pytest.raises(EvoWordleError, match=f"^f: {message}"):
            lists_made_for(bad, "f")


def test_word_lists_record_each_list_by_its_file_name_and_both_digests():
    from evo_wordle.artefacts import list_digests, word_lists

    words = WordSet(("cigar", "crane", "slate"), ("cigar",), label="lists/mine.txt")
    got = word_lists(words, "some/dir/allowed.txt", Path("other/answers.txt"))
    assert got == {"allowed": "allowed.txt", "answers": "answers.txt", "label": "mine.txt", **list_digests(words)}
    assert set(list_digests(words)) == {"allowed_sha256", "answers_sha256"}
    assert word_lists(words, None, None)["allowed"] is None  # no list named: the default
    assert word_lists(words, 5, b"x.txt")["answers"] is None  # not a file name at all


@pytest.mark.parametrize("empty", ["", Path(""), ".", "/"])
def test_word_lists_refuse_a_list_named_by_an_empty_path(empty):
    """``Path("")`` was recorded as ``""`` and ``""`` as the default list, though load_words (and
    every CLI list flag) refuses an empty list name: no run reads its lists from one."""
    from evo_wordle.artefacts import word_lists

    words = WordSet(("cigar", "crane", "slate"), ("cigar",), label="lists/mine.txt")
    # "" and Path("") (which is ".") read as an empty string; "/" is named as given
    shown = "/" if empty == "/" else "an empty string"
    for args, what in (((empty, None), "allowed"), ((None, empty), "answers")):
        with pytest.raises(EvoWordleError, match=f"^{what} list needs a file name, not {re.escape(shown)}$"):
            word_lists(words, *args)
    with pytest.raises(EvoWordleError, match="^allowed list needs a file name, not an empty string$"):
        load_words("")  # the refusal word_lists agrees with
