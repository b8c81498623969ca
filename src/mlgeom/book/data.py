"""Data resolution, checksum verification, and the one clear error for missing data.

Inputs that are too large to ship (or may not be redistributed) are read from a data folder,
``$MLGEOM_DATA`` (default: the project's ``data/``). ``data/manifest.json`` lists every
dataset the notebooks read: its files with SHA-256 checksums, where it comes from, its terms,
and the command that gets it. A file whose checksum is not published anywhere (a corpus this
project never had a copy of) has ``null`` instead: :func:`require` then checks only that it is
present, and the dataset's loader checks its format line by line. Loaders call
:func:`require` before reading, which returns the verified path or raises :class:`DataError`
with one message saying what is missing or corrupt, where it comes from and how to get it;
never a traceback from deep inside a parser.

Nothing here touches the network: getting data is an explicit, separate step.

Command line::

    python -m mlgeom.book.data status          # every dataset: present, missing or corrupt
                                               # (exit status 1 when one is corrupt)
    python -m mlgeom.book.data hash FOLDER     # SHA-256 of every file below FOLDER
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from mlgeom.book.paths import project_root

__all__ = ["DataError", "Dataset", "data_dir", "load_manifest", "require", "sha256", "status"]

MANIFEST_NAME = "manifest.json"
_REQUIRED_KEYS = ("description", "source", "terms", "get", "files")


class DataError(RuntimeError):
    """A dataset is missing or does not match its checksum (the message says what to do)."""


@dataclass(frozen=True)
class Dataset:
    """One manifest entry.

    Parameters
    ----------
    name : str
        Manifest key, e.g. ``"rcv1-sample"``.
    description, source, terms, get : str
        What it is, where it comes from, its terms of use, and the command that gets it.
    files : dict of str to str or None
        Path relative to the data folder -> expected SHA-256 (hex), or ``None`` when no
        checksum is known (presence only; the loader checks the format).
    """

    name: str
    description: str
    source: str
    terms: str
    get: str
    files: dict[str, str | None]


def data_dir() -> Path:
    """Return the data folder: ``$MLGEOM_DATA`` if set, else the project's ``data/``."""
    env = os.environ.get("MLGEOM_DATA")
    return Path(env).expanduser().resolve() if env else project_root() / "data"


def load_manifest(path: str | os.PathLike | None = None) -> dict[str, Dataset]:
    """Read and validate the manifest (default: the project's ``data/manifest.json``).

    Raises
    ------
    DataError
        If the manifest is unreadable or an entry misses a field or has a malformed checksum.
    """
    p = Path(path) if path is not None else project_root() / "data" / MANIFEST_NAME
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataError(f"data manifest {p} not found; it ships with the project") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"data manifest {p} is not valid JSON: {exc}") from exc
    entries = raw.get("datasets") if isinstance(raw, dict) else None
    if not isinstance(entries, dict):
        raise DataError(f"data manifest {p}: top level must be {{'datasets': {{...}}}}")
    out: dict[str, Dataset] = {}
    for name, entry in entries.items():
        missing = [k for k in _REQUIRED_KEYS if k not in entry]
        if missing:
            raise DataError(f"data manifest {p}: dataset {name!r} misses {missing}")
        files = entry["files"]
        if not isinstance(files, dict) or not files:
            raise DataError(f"data manifest {p}: dataset {name!r} must list at least one file")
        for rel, digest in files.items():
            if digest is not None and not (
                isinstance(digest, str)
                and len(digest) == 64
                and set(digest) <= set("0123456789abcdef")
            ):
                raise DataError(
                    f"data manifest {p}: dataset {name!r}, file {rel!r}: "
                    f"checksum must be 64 lower-case hex digits or null; got {digest!r}"
                )
            if Path(rel).is_absolute() or ".." in Path(rel).parts:
                raise DataError(
                    f"data manifest {p}: dataset {name!r}: file path {rel!r} must be relative"
                )
        out[name] = Dataset(name, *(str(entry[k]) for k in _REQUIRED_KEYS[:4]), dict(files))
    return out


_HASH_CACHE: dict[tuple[str, int, int], str] = {}


def sha256(path: str | os.PathLike) -> str:
    """Return the SHA-256 hex digest of a file (cached per path, size and mtime)."""
    p = Path(path)
    st = p.stat()
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _HASH_CACHE:
        h = hashlib.sha256()
        with p.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        _HASH_CACHE[key] = h.hexdigest()
    return _HASH_CACHE[key]


def _problems(ds: Dataset, root: Path) -> tuple[list[str], list[str]]:
    missing, corrupt = [], []
    for rel, expected in ds.files.items():
        f = root / rel
        if not f.is_file():
            missing.append(rel)
        elif expected is not None and sha256(f) != expected:
            corrupt.append(rel)
    return missing, corrupt


def _shown(base: Path) -> str:
    """Return ``base`` relative to the project when inside it (the same text on every machine)."""
    try:
        return f"{base.relative_to(project_root())}/"
    except ValueError:
        return str(base)


def require(
    name: str,
    *,
    manifest: dict[str, Dataset] | None = None,
    root: str | os.PathLike | None = None,
) -> Path:
    """Verify dataset ``name`` and return the data folder it lives in.

    Parameters
    ----------
    name : str
        Manifest key.
    manifest : dict, optional
        Parsed manifest (default: :func:`load_manifest`).
    root : path-like, optional
        Data folder (default: :func:`data_dir`).

    Returns
    -------
    pathlib.Path
        The data folder; the dataset's files are at ``root / <relative path>``.

    Raises
    ------
    DataError
        If the dataset is unknown, or any of its files is missing or fails its checksum; the
        message names the files, the folder searched, the source, the terms and the command
        that gets the data.
    """
    datasets = manifest if manifest is not None else load_manifest()
    if name not in datasets:
        raise DataError(
            f"unknown dataset {name!r}; the manifest lists {', '.join(sorted(datasets))}"
        )
    ds = datasets[name]
    base = Path(root).resolve() if root is not None else data_dir()
    missing, corrupt = _problems(ds, base)
    if missing or corrupt:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if corrupt:
            parts.append(
                f"checksum mismatch for {', '.join(corrupt)} (corrupt or a different version)"
            )
        shown = _shown(base)
        raise DataError(
            f"dataset {name!r} ({ds.description}) is not usable in {shown} "
            f"[MLGEOM_DATA={os.environ.get('MLGEOM_DATA', '<unset: project data/>')}]: "
            f"{'; '.join(parts)}. It comes from {ds.source} (terms: {ds.terms}). "
            f"Get it with: {ds.get}"
        )
    return base


def status(
    manifest: dict[str, Dataset] | None = None, root: str | os.PathLike | None = None
) -> dict[str, str]:
    """Return ``{dataset: "present" | "missing" | "corrupt"}`` for every manifest entry."""
    datasets = manifest if manifest is not None else load_manifest()
    base = Path(root).resolve() if root is not None else data_dir()
    out = {}
    for name, ds in datasets.items():
        missing, corrupt = _problems(ds, base)
        out[name] = "corrupt" if corrupt else "missing" if missing else "present"
    return out


def _hash_folder(folder: Path) -> dict[str, str]:
    return {
        str(f.relative_to(folder.parent)): sha256(f)
        for f in sorted(folder.rglob("*"))
        if f.is_file() and f.name != "PROVENANCE.txt"
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["status"] and len(args) == 1:
        states = status()
        for name, state in states.items():
            print(f"{name:24s} {state}")
        corrupt = [name for name, state in states.items() if state == "corrupt"]
        if corrupt:
            print(f"error: corrupt dataset(s): {', '.join(corrupt)}", file=sys.stderr)
            return 1
        return 0
    if args[:1] == ["hash"] and len(args) == 2:
        folder = Path(args[1]).resolve()
        if not folder.is_dir():
            print(f"error: hash FOLDER: {args[1]!r} is not a directory", file=sys.stderr)
            return 2
        hashes = _hash_folder(folder)
        if not hashes:
            print(f"error: hash FOLDER: {args[1]!r} holds no file to hash", file=sys.stderr)
            return 1
        print(json.dumps(hashes, indent=2))
        return 0
    print("usage: python -m mlgeom.book.data status | hash FOLDER", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
