r"""Compiled loops of the conflict graph's greedy matching and cover pruning (Section 4).

The greedy maximal matching over the sorted bichromatic pairs and the pruning of its cover are
sequential (each step depends on the vertices matched or dropped before it), so they run as
numba loops: :func:`_greedy_matching` behind
:meth:`mlgeom.metric_nn.vertex_cover.ConflictPairs.from_distances` and
:func:`mlgeom.metric_nn.vertex_cover.matching_cover`, and :func:`_prune` behind
:func:`mlgeom.metric_nn.vertex_cover.prune_cover`. Both return exactly what the per-edge Python
loops they replace returned (the tests keep those loops as references).

The kernels live in one file on purpose: numba's on-disk cache (``cache=True``) checks only the
file defining the cached function.
"""

from __future__ import annotations

import numba
import numpy as np

__all__: list[str] = []


@numba.njit(cache=True)
def _greedy_matching(i, j, n):  # pragma: no cover - compiled
    """Greedy maximal matching of the pairs ``(i[t], j[t])`` in order (self-loops skipped).

    Returns ``match_time`` (the position at which each vertex was matched, ``len(i)`` if never)
    and ``step`` (``step[t + 1] = 1`` iff pair ``t`` joined the matching).
    """
    m = i.shape[0]
    match_time = np.full(n, m, dtype=np.int64)
    step = np.zeros(m + 1, dtype=np.int64)
    matched = np.zeros(n, dtype=np.bool_)
    free = n
    for t in range(m):
        a = i[t]
        b = j[t]
        if a != b and not matched[a] and not matched[b]:
            matched[a] = True
            matched[b] = True
            match_time[a] = t
            match_time[b] = t
            step[t + 1] = 1
            free -= 2
            if free < 2:  # no further pair can join the matching
                break
    return match_time, step


@numba.njit(cache=True)
def _prune(a, b, c):  # pragma: no cover - compiled
    """Drop, in index order, every cover vertex all of whose neighbours are in the cover.

    ``a, b`` are the edges' endpoints and ``c`` the cover mask, modified in place.
    """
    n = c.shape[0]
    deg = np.zeros(n + 1, dtype=np.int64)
    for e in range(a.shape[0]):
        deg[a[e] + 1] += 1
        deg[b[e] + 1] += 1
    start = np.cumsum(deg)
    fill = start[:-1].copy()
    nbr = np.empty(start[-1], dtype=np.int64)
    for e in range(a.shape[0]):
        nbr[fill[a[e]]] = b[e]
        fill[a[e]] += 1
        nbr[fill[b[e]]] = a[e]
        fill[b[e]] += 1
    for v in range(n):
        if not c[v]:
            continue
        redundant = True
        for k in range(start[v], start[v + 1]):
            if not c[nbr[k]]:
                redundant = False
                break
        if redundant:
            c[v] = False
    return c
