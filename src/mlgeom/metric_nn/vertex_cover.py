r"""The conflict graph :math:`G_L` and its 2-approximate vertex cover (Section 4 of [1]_).

For a labelled sample :math:`S = (X_i, Y_i)_{i=1}^n` and a Lipschitz constant :math:`L`, a
function :math:`h \in H_L` can be consistent (margin :math:`\ge 1`) with two differently
labelled points only if

.. math:: L\, d(X_i, X_j) \ge 2 \qquad \text{(eq. 12)},

so the :math:`k`-partite *conflict graph* :math:`G_L` joins :math:`X_i, X_j` iff
:math:`Y_i \ne Y_j` and :math:`d(X_i, X_j) < 2/L`. The fewest sample points any
:math:`h \in H_L` must be inconsistent with, :math:`\hat m(L)`, is the size of a minimum vertex
cover of :math:`G_L`; the paper uses the 2-approximation :math:`\tilde m(L) \le 2 \hat m(L)` given
by the endpoints of a maximal matching (Papadimitriou & Steiglitz).

Our maximal matching is greedy over the edges in increasing order of distance (ties by index).
Since :math:`G_{L'} \subseteq G_L` for :math:`L' > L` and the edges of :math:`G_{L'}` are a
*prefix* of that order, the greedy matching of :math:`G_{L'}` is the part of the matching of
:math:`G_L` built from that prefix. Hence :math:`\tilde m(L)` is non-increasing in :math:`L` (which
the binary search of :mod:`mlgeom.metric_nn.srm` needs), and one pass over the sorted bichromatic
pairs
(:class:`ConflictPairs`, :math:`O(n^2 \log n)`, the paper's training cost) gives
:math:`\tilde m(L)` at every one of the :math:`O(n^2)` candidate values of :math:`L` at once.

References
----------
.. [1] A. Kontorovich and R. Weiss, "Maximum Margin Multiclass Nearest Neighbors", ICML 2014.
.. [2] C. H. Papadimitriou and K. Steiglitz, "Combinatorial Optimization: Algorithms and
   Complexity", 1998.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import LinearConstraint, milp
from scipy.sparse import csr_matrix

from mlgeom._validation import check_indices, check_positive_int, check_real
from mlgeom.metric_nn._kernels import _greedy_matching, _prune
from mlgeom.metric_nn.spaces import check_distance_matrix

__all__ = [
    "ConflictPairs",
    "conflict_edges",
    "prune_cover",
    "exact_vertex_cover",
    "is_vertex_cover",
    "matching_cover",
]


def _check_D_y(D: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    # square, non-negative, zero diagonal, symmetric (as check_distance_matrix, without the
    # cubic triangle check)
    D = check_distance_matrix(D, "D", max_triangle_points=0)
    y = np.asarray(y)
    if y.ndim != 1 or len(y) != D.shape[0]:
        raise ValueError(f"y must be 1-D with one label per row of D ({D.shape[0]}); got {y.shape}")
    return D, y


def _check_L_values(L: Any, name: str = "L") -> np.ndarray:
    """Return Lipschitz constants (a number or an array) as floats, finite and >= 0, or raise."""
    raw = np.asarray(L)
    if raw.dtype.kind not in "biufO":
        raise ValueError(f"{name} must be a number or an array of numbers >= 0; got {L!r:.60}")
    try:
        arr = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must be a number or an array of numbers >= 0; got {L!r:.60}"
        ) from exc
    bad = ~(np.isfinite(arr) & (arr >= 0))
    if np.any(bad):
        raise ValueError(f"{name} must be >= 0; got {arr[bad].ravel()[0]} (finite values only)")
    return arr


def _check_edges_cover(edges: Any, cover: Any) -> tuple[np.ndarray, np.ndarray]:
    """Validate a boolean (or 0/1) vertex mask and the integer edges it should cover."""
    c = np.asarray(cover)
    if c.ndim != 1:
        raise ValueError(f"cover must be a 1-D boolean mask; got shape {c.shape}")
    if c.dtype != bool:
        if c.dtype.kind not in "iuf":
            raise ValueError(f"cover must be a boolean mask; got dtype {c.dtype}")
        bad = (c != 0) & (c != 1)
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"cover must hold booleans (0/1); got {c[i]} at index {i}")
        c = c.astype(bool)
    E = np.asarray(edges)
    if E.size == 0:
        return np.zeros((0, 2), dtype=np.int64), c
    E = check_indices(E.reshape(-1, 2), "edges (vertices of cover)", n=len(c))
    return E, c


def _check_edge_array(edges: Any, n: int) -> np.ndarray:
    """``edges`` as an ``(n_edges, 2)`` int64 array of vertex indices in ``[0, n)``, or raise.

    A fractional vertex is refused, not truncated (``[[0, 1.5]]`` is not the edge ``(0, 1)``);
    integral floats are read as integers; an empty list is no edge.
    """
    raw = np.asarray(edges)
    if raw.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if raw.ndim != 2 or raw.shape[1] != 2:
        raise ValueError(f"edges must have shape (n_edges, 2); got shape {raw.shape}")
    if raw.dtype.kind == "f":
        frac = ~np.isfinite(raw) | (raw != np.round(raw))
        if np.any(frac):
            at = tuple(int(i) for i in np.argwhere(frac)[0])
            raise ValueError(f"edges must hold integer vertex indices; got {raw[at]} at index {at}")
        raw = raw.astype(np.int64)
    if raw.dtype.kind in "iu" and (raw.min() < 0 or raw.max() >= n):
        at = tuple(int(i) for i in np.argwhere((raw < 0) | (raw >= n))[0])
        raise ValueError(
            f"edges must index vertices 0 … n - 1 = {n - 1} (n = {n}); got {raw[at]} at index {at}"
        )
    return check_indices(raw, "edges", n=n)


def conflict_edges(D: Any, y: Any, L: float) -> np.ndarray:
    r"""Edges of the conflict graph :math:`G_L`, sorted by distance (ties by index).

    :math:`(i, j) \in E \iff Y_i \ne Y_j \text{ and } d(X_i, X_j) < 2/L` (Section 4, the
    violations of eq. 12).

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distance matrix of the sample.
    y : array_like, shape (n,)
        Labels.
    L : float
        Lipschitz constant, ``L > 0``.

    Returns
    -------
    numpy.ndarray of int64, shape (n_edges, 2)
        Pairs ``i < j``.
    """
    D, y = _check_D_y(D, y)
    L = check_real(L, "L", low=0.0, low_inclusive=False)
    i, j = np.triu_indices(len(y), k=1)
    d = D[i, j]
    keep = (y[i] != y[j]) & (d < 2.0 / L)
    i, j, d = i[keep], j[keep], d[keep]
    order = np.lexsort((j, i, d))
    return np.stack([i[order], j[order]], axis=1).astype(np.int64)


def matching_cover(edges: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Greedy maximal matching in the given edge order and the vertex cover it induces.

    Every edge either joins the matching or meets an already matched vertex, so the matched
    vertices cover every edge and their number is at most twice a minimum cover (each matching
    edge needs its own cover vertex).

    Parameters
    ----------
    edges : array_like of int, shape (n_edges, 2)
        Edges, processed in the given order.
    n : int
        Number of vertices.

    Returns
    -------
    matching : numpy.ndarray of int64, shape (n_matched_edges, 2)
        The maximal matching.
    cover : numpy.ndarray of bool, shape (n,)
        ``cover[v]`` iff ``v`` is matched.
    """
    n = check_positive_int(n, "n", minimum=0)
    E = _check_edge_array(edges, n)
    match_time, step = _greedy_matching(
        np.ascontiguousarray(E[:, 0]), np.ascontiguousarray(E[:, 1]), n
    )
    return E[np.flatnonzero(step[1:])], match_time < len(E)


def prune_cover(edges: Any, cover: Any) -> np.ndarray:
    """Drop redundant vertices from a vertex cover (in index order), keeping it a cover.

    A cover vertex all of whose neighbours are in the cover is not needed; removing such
    vertices one at a time never uncovers an edge and never increases the size, so a
    2-approximate cover stays 2-approximate. (A maximal-matching cover of a complete
    multipartite graph is every vertex; pruning leaves one class out of it.)

    Returns
    -------
    numpy.ndarray of bool
        The pruned cover (a new array).
    """
    E, c = _check_edges_cover(edges, cover)
    c = c.copy()
    if not is_vertex_cover(E, c):
        raise ValueError("cover must be a vertex cover of the edges")
    return _prune(np.ascontiguousarray(E[:, 0]), np.ascontiguousarray(E[:, 1]), c)


def is_vertex_cover(edges: Any, cover: Any) -> bool:
    """Whether the boolean mask ``cover`` meets every edge."""
    E, c = _check_edges_cover(edges, cover)
    return bool(np.all(c[E[:, 0]] | c[E[:, 1]]))


def exact_vertex_cover(edges: Any, n: int) -> np.ndarray:
    """Return a minimum vertex cover by integer programming (HiGHS, :func:`scipy.optimize.milp`).

    Minimum vertex cover is NP-hard (and hard to approximate within 1.3606, Dinur & Safra,
    cited in Section 4); this exact solver is for the small graphs on which the chapter checks
    the 2- and 4-approximations.

    Returns
    -------
    numpy.ndarray of bool, shape (n,)
        A minimum cover.
    """
    n = check_positive_int(n, "n", minimum=0)
    E = _check_edge_array(edges, n)
    E = np.unique(np.sort(E, axis=1), axis=0)
    if len(E) == 0:
        return np.zeros(n, dtype=bool)
    rows = np.repeat(np.arange(len(E)), 2)
    A = csr_matrix((np.ones(2 * len(E)), (rows, E.ravel())), shape=(len(E), n))
    res = milp(
        c=np.ones(n),
        constraints=LinearConstraint(A, lb=1.0, ub=np.inf),
        integrality=np.ones(n),
        bounds=(0, 1),
    )
    if not res.success:  # pragma: no cover - HiGHS solves these tiny programmes
        raise RuntimeError(f"vertex-cover MILP failed: {res.message}")
    return res.x > 0.5


@dataclass(frozen=True)
class ConflictPairs:
    r"""All bichromatic pairs of a sample, sorted by distance, with the greedy matching run once.

    Attributes
    ----------
    i, j : numpy.ndarray of int64
        The pairs (``i < j``, ``y[i] != y[j]``) in increasing order of distance.
    d : numpy.ndarray of float64
        Their distances.
    matched_prefix : numpy.ndarray of int64, shape (n_pairs + 1,)
        ``matched_prefix[t]`` = number of matching edges among the first ``t`` pairs.
    match_time : numpy.ndarray of int64, shape (n,)
        Position at which vertex ``v`` got matched (``n_pairs`` if never).
    n : int
        Number of sample points.
    """

    i: np.ndarray
    j: np.ndarray
    d: np.ndarray
    matched_prefix: np.ndarray
    match_time: np.ndarray
    n: int

    @classmethod
    def from_distances(cls, D: Any, y: Any) -> ConflictPairs:
        r"""Sort the bichromatic pairs (:math:`O(n^2 \log n)`) and run the greedy matching once."""
        D, y = _check_D_y(D, y)
        n = len(y)
        i, j = np.triu_indices(n, k=1)
        keep = y[i] != y[j]
        i, j = i[keep], j[keep]
        d = D[i, j]
        # the pairs come in (i, j) order, so a stable sort by d orders them by (d, i, j)
        order = np.argsort(d, kind="stable")
        i, j, d = i[order], j[order], d[order]
        match_time, step = _greedy_matching(i.astype(np.int64), j.astype(np.int64), n)
        return cls(i, j, d, np.cumsum(step), match_time, n)

    def prefix_length(self, L: Any) -> np.ndarray:
        r"""Count the pairs with :math:`d < 2/L`, i.e. the edges of :math:`G_L` (vectorised in L).

        ``L = 0`` stands for the limit :math:`L \to 0`, where every bichromatic pair is an edge.
        """
        L = _check_L_values(L)
        with np.errstate(divide="ignore"):
            thresholds = 2.0 / L
        return np.searchsorted(self.d, thresholds, side="left")

    def m_tilde(self, L: Any) -> np.ndarray:
        r""":math:`\tilde m(L)`: size of the matching cover of :math:`G_L` (vectorised in L)."""
        return self.m_tilde_at(self.prefix_length(L))

    def m_tilde_at(self, t: Any) -> np.ndarray:
        r""":math:`\tilde m` of the graph made of the first ``t`` pairs (vectorised in ``t``)."""
        return 2 * self.matched_prefix[self._prefix(t)]

    def cover(self, L: float) -> np.ndarray:
        """Boolean mask of the matching cover of :math:`G_L` (the set :math:`S_0`)."""
        return self.cover_at(int(self.prefix_length(check_real(L, "L", low=0.0))))

    def cover_at(self, t: int) -> np.ndarray:
        """Boolean mask of the matching cover of the graph made of the first ``t`` pairs."""
        return self.match_time < int(self._prefix(t))

    def edges(self, L: float) -> np.ndarray:
        """Edges of :math:`G_L` as an ``(n_edges, 2)`` array, in the matching order."""
        return self.edges_at(int(self.prefix_length(check_real(L, "L", low=0.0))))

    def edges_at(self, t: int) -> np.ndarray:
        """Return the first ``t`` pairs as a ``(t, 2)`` edge array (the graph at a rank)."""
        t = int(self._prefix(t))
        return np.stack([self.i[:t], self.j[:t]], axis=1)

    def _prefix(self, t: Any) -> np.ndarray:
        t = np.asarray(t)
        if not np.issubdtype(t.dtype, np.integer) or np.any((t < 0) | (t > len(self.d))):
            raise ValueError(f"t must be integers in [0, {len(self.d)}]; got {t!r}")
        return t

    def candidates(self) -> np.ndarray:
        r"""Return the :math:`O(n^2)` candidate Lipschitz constants :math:`2/d_{ij}`, sorted.

        :math:`\tilde m` is constant between consecutive candidates (edge :math:`(i, j)` leaves
        :math:`G_L` exactly at :math:`L = 2/d_{ij}`) and the complexity term grows with
        :math:`L`, so the minimum of :math:`Q` over :math:`L > 0` is attained at a candidate or
        as :math:`L \to 0` (:meth:`candidate_ranks` with ``limit=True`` adds that limit);
        pairs at distance 0 never leave the graph and give no candidate.
        """
        d = np.unique(self.d[self.d > 0])
        return (2.0 / d)[::-1]

    def candidate_ranks(self, *, limit: bool = True) -> tuple[np.ndarray, np.ndarray]:
        r"""Candidates with the number of edges of :math:`G_L` at each, counted by pair rank.

        At :math:`L_c = 2/d_c` the graph has exactly the pairs with :math:`d < d_c`; counting
        them on the sorted distances (not by recomputing :math:`2/L_c`, which can round one ulp
        above :math:`d_c` and keep the defining pair) makes :math:`\tilde m` at a candidate
        exact.

        Parameters
        ----------
        limit : bool, default=True
            Prepend the limit :math:`L \to 0` (returned as ``L = 0``), where every bichromatic
            pair is an edge: :math:`\hat m(0) = n - n_{\max}` and the classifier is a single
            class (the majority class for an exact cover).

        Returns
        -------
        L : numpy.ndarray
            Ascending candidate values (``0`` first when ``limit``).
        t : numpy.ndarray of int64
            Number of edges of :math:`G_L` at each (the argument of :meth:`m_tilde_at`).
        """
        d = np.unique(self.d[self.d > 0])[::-1]
        L = 2.0 / d
        t = np.searchsorted(self.d, d, side="left").astype(np.int64)
        if limit:
            L = np.concatenate([[0.0], L])
            t = np.concatenate([[len(self.d)], t]).astype(np.int64)
        return L, t
