"""The repository stands on its own: its code and docs never point outside it.

A person who clones the book has no ``../shared`` folder (the project machines' copies of the
papers and corpora) and no ``/work`` tree; every contract, provenance note and command the book
relies on must be inside the repository. The one exception is ``.ci/run``, the CI machine's
set-up script, which copies that machine's raw corpora into ``data/`` when they are there.
"""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(r"\.\./shared|/work/|shared/spec|shared/papers|shared/data")
EXEMPT = {".ci/run", "tests/test_self_contained.py"}


def _tracked_text_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [f for f in out.split("\0") if f and f not in EXEMPT]


def test_nothing_in_the_repository_refers_to_paths_outside_it():
    offenders = []
    for name in _tracked_text_files():
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary data
        for lineno, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{name}:{lineno}: {line.strip()[:100]}")
    assert not offenders, "references outside the repository:\n" + "\n".join(offenders)
