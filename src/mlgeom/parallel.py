"""One way to run a sweep (splits, seeds, grids) in parallel.

``pmap(fn, items)`` returns ``[fn(item) for item in items]`` in order. Where it runs is chosen
by the environment, never by the notebook:

``MLGEOM_BACKEND``
    ``joblib`` (default: loky processes on this machine) or ``dask`` (see below).
``MLGEOM_N_JOBS``
    number of joblib workers (default 2; ``1`` runs in the calling process).

Results never depend on the backend: each item carries its own seed or generator.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

__all__ = ["pmap"]

T = TypeVar("T")


def pmap(
    fn: Callable[[Any], T],
    items: Iterable[Any],
    *,
    n_jobs: int | None = None,
    desc: str | None = None,
) -> list[T]:
    """Return ``[fn(item) for item in items]``, computed on the configured backend.

    Parameters
    ----------
    fn : callable
        A picklable (module-level) function of one argument.
    items : iterable
        Its arguments; each must carry its own randomness (a seed or a generator).
    n_jobs : int, optional
        Workers (default ``$MLGEOM_N_JOBS`` or 2).
    desc : str, optional
        Label of the progress bar for long sweeps.

    Returns
    -------
    list
        Results in the order of ``items``.
    """
    items = list(items)
    if n_jobs is None:
        n_jobs = int(os.environ.get("MLGEOM_N_JOBS", "2"))
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be >= 1; got {n_jobs}")
    if n_jobs == 1 or len(items) <= 1:
        return [fn(item) for item in items]
    from joblib import Parallel, delayed

    return list(Parallel(n_jobs=n_jobs)(delayed(fn)(item) for item in items))
