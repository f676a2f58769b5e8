"""Rule tests for evo_wordle/lexicon.py (mutation testing): the dictionary is read once per
process, and its two classes (known only as a name; not listed at all) never overlap."""

from __future__ import annotations

import evo_wordle.lexicon as lexicon


def test_the_dictionary_is_read_once_per_process(monkeypatch):
    lexicon._lexicon.cache_clear()
    reads = []
    real = lexicon.resources.files

    def counting(package):
        reads.append(package)
        return real(package)

    monkeypatch.setattr(lexicon.resources, "files", counting)
    first = lexicon._lexicon()
    lexicon.word_classes(["crane", "kevin"])
    lexicon.word_classes(["texas"])
    assert lexicon._lexicon() is first and reads == ["evo_wordle.wordlists"]


def test_names_are_never_also_dictionary_words_and_every_word_is_in_one_class_at_most():
    lower, capital = lexicon._lexicon()
    assert lower and capital and not (lower & capital)
    assert "crane" in lower and "kevin" in capital and "texas" in capital
    words = ["crane", "kevin", "zzzzq", "texas", "aargh"]
    proper, unlisted = lexicon.word_classes(words)
    assert proper.dtype == bool and unlisted.dtype == bool and len(proper) == len(unlisted) == 5
    assert not (proper & unlisted).any()
