"""Where the project's folders are, wherever a notebook or a test runs from.

The project root is the nearest folder above the working directory that holds both
``_toc.yml`` and ``pyproject.toml`` (notebooks run with their own folder as working
directory); outside a checkout, ``$MLGEOM_ROOT`` names it. Results go to ``data/results``
unless ``$MLGEOM_RESULTS`` points elsewhere (``make test`` uses that to write the records of
its re-execution beside, not over, the committed ones and then compares the two).
"""

from __future__ import annotations

import os
from pathlib import Path

from mlgeom.book.profiles import check_profile

__all__ = ["project_root", "results_dir"]


def project_root(start: str | os.PathLike | None = None) -> Path:
    """Return the project root (see the module docstring); raise ``FileNotFoundError`` if none."""
    env = os.environ.get("MLGEOM_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(start if start is not None else Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "_toc.yml").is_file() and (folder / "pyproject.toml").is_file():
            return folder
    raise FileNotFoundError(
        f"no project root (a folder with _toc.yml and pyproject.toml) above {here}; "
        "run from inside the checkout or set MLGEOM_ROOT"
    )


def results_dir(profile: str = "book") -> Path:
    """Folder of the claims records for ``profile``.

    ``book`` records live in ``data/results/`` (the status page reads them); other profiles
    in ``data/results/<profile>/``. ``$MLGEOM_RESULTS`` replaces ``data/results``.
    """
    profile = check_profile(profile)
    env = os.environ.get("MLGEOM_RESULTS")
    base = Path(env).resolve() if env else project_root() / "data" / "results"
    return base if profile == "book" else base / profile
