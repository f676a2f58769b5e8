"""Regenerate ``lexicon.txt`` (dictionary words and proper nouns) from Debian's wamerican package.

Provenance: Debian's ``wamerican`` 2020.12.07-2 (SCOWL size 50, American spelling) ships
``/usr/share/dict/american-english``.  We take its alphabetic ASCII entries of 2 to 10 letters and
write one line per word: the word in lower case if the dictionary has it in lower case, else
``Word`` capitalised (known only as a proper noun).  The strategy genes ``w_proper`` and
``w_unlisted`` read it (evo_wordle/lexicon.py).  SCOWL's copyright notice is in
``lexicon-COPYRIGHT.txt``.  Only maintainers run this; it checks the sha256 of what it writes.

Usage: python data/fetch_lexicon.py   (runs ``apt-get download wamerican`` in a temp folder)
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSION = "2020.12.07-2"
EXPECTED = "4bede8caa162efb6ee3edf0b39885a57bd57a452a285da56c982a258a7b8d16a"


def build(text: str) -> str:
    """The lexicon lines from the dictionary's text (sorted, one per word)."""
    entries = [w for w in text.split("\n") if w.isascii() and w.isalpha() and 2 <= len(w) <= 10]
    lower = {w for w in entries if w.islower()}
    proper = {w.lower() for w in entries if not w.islower()} - lower
    return "".join(f"{w}\n" for w in sorted(lower | {p.capitalize() for p in proper}, key=str.lower))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["apt-get", "download", f"wamerican={VERSION}"], cwd=tmp, check=True)
        deb = next(Path(tmp).glob("wamerican_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), tmp + "/x"], check=True)
        text = (Path(tmp) / "x/usr/share/dict/american-english").read_text()
    out = build(text)
    digest = hashlib.sha256(out.encode()).hexdigest()
    if digest != EXPECTED:
        print(f"lexicon.txt: sha256 {digest} differs from {EXPECTED}", file=sys.stderr)
        return 1
    (HERE / "lexicon.txt").write_text(out)
    print(f"wrote {HERE / 'lexicon.txt'} ({len(out.splitlines())} words, sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
