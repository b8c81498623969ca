r"""Metric spaces for nearest-neighbour learning: distances, metric checks, doubling dimension.

Kontorovich & Weiss [1]_ work in a metric instance space :math:`(\mathcal X, d)` with
:math:`\operatorname{diam}(\mathcal X) = 1` and doubling dimension
:math:`\operatorname{ddim}(\mathcal X) = D` (Section 2). This module provides the metrics used in
the chapter, all through one function, :func:`pairwise_distances`:

* ``"euclidean"`` and ``"l1"`` (``"chebyshev"`` too) on rows of a float matrix;
* ``"edit"``: the Levenshtein distance on strings, a metric that does not embed in a Hilbert
  space without large distortion (Andoni & Krauthgamer, cited in [1]_, Section 1). Strings are
  encoded as rows of an integer matrix padded with :data:`PAD` (:func:`encode_strings`) so that
  every metric works on a 2-D array and subsets are taken with ``X[idx]``; the distances are
  computed by RapidFuzz (``rapidfuzz.process.cdist``), checked in the tests against a
  numpy-vectorised Wagner-Fischer programme kept here as the reference;
* any callable ``metric(A, B) -> (len(A), len(B))`` distance matrix.

:func:`check_distance_matrix` verifies the metric axioms on a (sub)matrix, so that a
non-metric "distance" fails loudly at the public boundary; :func:`doubling_dimension` estimates
:math:`\operatorname{ddim}` of a finite sample from greedy nets (the definition in Section 2:
the smallest :math:`\lambda` such that every ball is covered by :math:`\lambda` balls of half
the radius, :math:`\operatorname{ddim} = \log_2 \lambda`).

References
----------
.. [1] A. Kontorovich and R. Weiss, "Maximum Margin Multiclass Nearest Neighbors", ICML 2014,
   PMLR 32, 892-900.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist as rf_cdist
from scipy.spatial.distance import cdist

from mlgeom._validation import check_in, check_matrix, check_positive_int, check_real

__all__ = [
    "METRICS",
    "PAD",
    "MetricLike",
    "check_distance_matrix",
    "check_metric_input",
    "decode_strings",
    "diameter",
    "doubling_dimension",
    "edit_distance",
    "edit_distance_matrix",
    "encode_strings",
    "greedy_net",
    "pairwise_distances",
]

#: Names of the built-in metrics.
METRICS: tuple[str, ...] = ("euclidean", "l1", "chebyshev", "edit")

#: Padding symbol of encoded strings (:func:`encode_strings`); real symbols are >= 0.
PAD = -1

MetricLike = str | Callable[[np.ndarray, np.ndarray], np.ndarray]

# Pairs processed at once by the reference edit-distance programme (memory ~ 8 bytes x block x len).
_EDIT_BLOCK = 1 << 16
# Absolute slack of the triangle-inequality check (relative to the largest distance).
_TRIANGLE_RTOL = 1e-9


def encode_strings(strings: Sequence[str], alphabet: str | None = None) -> np.ndarray:
    """Encode strings as rows of an integer matrix padded with :data:`PAD`.

    Parameters
    ----------
    strings : sequence of str
        The strings (may differ in length; the empty string is allowed).
    alphabet : str, optional
        Symbols in code order (default: the sorted set of characters in ``strings``).

    Returns
    -------
    numpy.ndarray of int64, shape (n, max_length)
        ``codes[i, j]`` is the code of character ``j`` of string ``i``, :data:`PAD` past its end.

    Examples
    --------
    >>> encode_strings(["ab", "b"]).tolist()
    [[0, 1], [1, -1]]
    """
    if isinstance(strings, str) or not all(isinstance(s, str) for s in strings):
        raise ValueError(f"strings must be a sequence of str; got {strings!r:.60}")
    symbols = sorted(set("".join(strings))) if alphabet is None else list(alphabet)
    code = {c: i for i, c in enumerate(symbols)}
    missing = set("".join(strings)) - set(code)
    if missing:
        raise ValueError(f"characters {sorted(missing)} are not in the alphabet {alphabet!r}")
    width = max((len(s) for s in strings), default=0)
    out = np.full((len(strings), max(width, 1)), PAD, dtype=np.int64)
    for i, s in enumerate(strings):
        out[i, : len(s)] = [code[c] for c in s]
    return out


def decode_strings(codes: np.ndarray, alphabet: str) -> list[str]:
    """Invert :func:`encode_strings` given the alphabet used to encode."""
    if not isinstance(alphabet, str):
        raise ValueError(f"alphabet must be a str of symbols; got {alphabet!r:.60}")
    codes = _check_codes(codes, "codes")
    if codes.size and codes.max() >= len(alphabet):
        raise ValueError(
            f"codes has code {codes.max()}, beyond the alphabet {alphabet!r} "
            f"(codes 0..{len(alphabet) - 1})"
        )
    return ["".join(alphabet[c] for c in row if c != PAD) for row in codes]


def _lengths(codes: np.ndarray) -> np.ndarray:
    return (codes != PAD).sum(axis=1)


def _check_codes(codes: Any, name: str) -> np.ndarray:
    arr = np.asarray(codes)
    if arr.ndim == 2 and arr.size == 0 and arr.dtype.kind in "fb":
        arr = arr.astype(np.int64)  # an empty float array holds no non-integer code
    if arr.ndim != 2 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(
            f"{name} must be a 2-D integer array of encoded strings (see encode_strings); "
            f"got dtype {arr.dtype} and shape {arr.shape}"
        )
    if np.any(arr < PAD):
        raise ValueError(f"{name} has codes below the padding symbol {PAD}")
    valid = arr != PAD
    # Padding must be a suffix: once a row hits PAD it stays PAD.
    if np.any(valid[:, 1:] & ~valid[:, :-1]):
        i = int(np.flatnonzero(np.any(valid[:, 1:] & ~valid[:, :-1], axis=1))[0])
        raise ValueError(f"{name} row {i} has symbols after the padding: {arr[i].tolist()}")
    return arr.astype(np.int64, copy=False)


def _edit_block_reference(
    a: np.ndarray, la: np.ndarray, b: np.ndarray, lb: np.ndarray
) -> np.ndarray:
    """Levenshtein distances of the pairs (a[p], b[p]), vectorised over p (Wagner-Fischer).

    The hand-written programme that :func:`edit_distance_matrix` used before RapidFuzz; kept as
    the oracle of the tests and the reference of the benchmark
    (:func:`_edit_distance_matrix_reference`). The dynamic-programme rows are stored transposed,
    ``(len + 1, n_pairs)``, so that the inner loop over positions of ``b`` touches contiguous
    memory.
    """
    n_pairs, ma = a.shape
    mb = b.shape[1]
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    prev = np.repeat(np.arange(mb + 1, dtype=np.int32)[:, None], n_pairs, axis=1)
    out = np.where(la == 0, lb, 0).astype(np.int64)
    cols = np.arange(n_pairs)
    cur = np.empty_like(prev)
    for i in range(1, ma + 1):
        cur[0] = i
        # substitution (or match) and deletion, then insertions left to right
        best = np.minimum(prev[:-1] + (at[i - 1] != bt), prev[1:] + 1)
        for j in range(1, mb + 1):
            np.minimum(best[j - 1], cur[j - 1] + 1, out=cur[j])
        done = la == i
        if np.any(done):
            out[done] = cur[lb[done], cols[done]]
        prev, cur = cur, prev
    return out


def edit_distance(s: str, t: str) -> int:
    """Levenshtein distance between two Python strings (unit-cost insert, delete, substitute).

    Examples
    --------
    >>> edit_distance("kitten", "sitting")
    3
    """
    if not isinstance(s, str) or not isinstance(t, str):
        raise ValueError(f"s and t must be str; got {s!r:.40} and {t!r:.40}")
    codes = encode_strings([s, t])
    return int(edit_distance_matrix(codes[:1], codes[1:])[0, 0])


def _rows(codes: np.ndarray, lengths: np.ndarray) -> list[array]:
    """Return the rows of ``codes`` without their padding, as ``array('q')`` for RapidFuzz.

    RapidFuzz reads an integer ``array`` by value (each element cast to ``uint64``), so every
    code ``0 .. 2**63 - 1`` stays distinct. A list of Python ints would be hashed instead, and
    CPython hashes ints modulo ``2**61 - 1``: codes ``0`` and ``2**61 - 1`` would compare equal.
    """
    rows = []
    for row, n in zip(codes, lengths.tolist(), strict=True):
        seq = array("q")
        seq.frombytes(np.ascontiguousarray(row[:n], dtype=np.int64).tobytes())
        rows.append(seq)
    return rows


def edit_distance_matrix(A: Any, B: Any | None = None) -> np.ndarray:
    """Levenshtein distances between encoded strings: ``out[i, j] = lev(A[i], B[j])``.

    Computed by ``rapidfuzz.process.cdist`` with the Levenshtein scorer (unit costs) on one
    thread (``workers=1``): the package runs its own parallelism (:mod:`mlgeom.parallel`), and
    the distances are exact integers, the same whatever the thread count. The tests check them
    against the numpy Wagner-Fischer programme that computed them before.

    Parameters
    ----------
    A : array_like of int, shape (m, la)
        Encoded strings (:func:`encode_strings`).
    B : array_like of int, shape (n, lb), optional
        Encoded strings (default ``A``).

    Returns
    -------
    numpy.ndarray of float64, shape (m, n)
        The distances (integers stored as floats).
    """
    A = _check_codes(A, "A")
    B = None if B is None else _check_codes(B, "B")
    queries = _rows(A, _lengths(A))
    choices = queries if B is None else _rows(B, _lengths(B))
    out = rf_cdist(queries, choices, scorer=Levenshtein.distance, dtype=np.int64, workers=1)
    return out.astype(np.float64)


def _edit_distance_matrix_reference(A: Any, B: Any | None = None) -> np.ndarray:
    """:func:`edit_distance_matrix` by the numpy Wagner-Fischer programme (the test oracle).

    The implementation used before RapidFuzz: blocks of pairs through
    :func:`_edit_block_reference`, the pairs ``i < j`` only when ``B`` is omitted.
    """
    A = _check_codes(A, "A")
    symmetric = B is None
    B = A if B is None else _check_codes(B, "B")
    la, lb = _lengths(A), _lengths(B)
    A, B = A[:, : max(int(la.max(initial=0)), 1)], B[:, : max(int(lb.max(initial=0)), 1)]
    m, n = len(A), len(B)
    if symmetric:  # d is symmetric with a zero diagonal: compute the pairs i < j only
        ii, jj = np.triu_indices(m, k=1)
    else:
        ii, jj = np.divmod(np.arange(m * n), n)
    vals = np.empty(len(ii), dtype=np.float64)
    for start in range(0, len(ii), _EDIT_BLOCK):
        sl = slice(start, start + _EDIT_BLOCK)
        i, j = ii[sl], jj[sl]
        vals[sl] = _edit_block_reference(A[i], la[i], B[j], lb[j])
    out = np.zeros((m, n), dtype=np.float64)
    out[ii, jj] = vals
    if symmetric:
        out[jj, ii] = vals
    return out


def check_metric_input(X: Any, metric: MetricLike, name: str = "X") -> np.ndarray:
    """Validate the points ``X`` for ``metric`` (finite floats, or encoded strings for edit)."""
    if not callable(metric):
        check_in(metric, "metric", METRICS)
    if metric == "edit":
        return _check_codes(X, name)
    if callable(metric):
        arr = np.asarray(X)
        if arr.ndim != 2 or len(arr) == 0:
            raise ValueError(f"{name} must be a non-empty 2-D array; got shape {arr.shape}")
        if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite; it contains NaN or inf")
        return arr
    return check_matrix(X, name)


def pairwise_distances(
    A: Any, B: Any | None = None, metric: MetricLike = "euclidean"
) -> np.ndarray:
    """Distance matrix ``out[i, j] = d(A[i], B[j])`` for a built-in or callable metric.

    Parameters
    ----------
    A : array_like, shape (m, ...)
        Points: rows of a float matrix, or encoded strings for ``metric="edit"``.
    B : array_like, shape (n, ...), optional
        Points (default ``A``).
    metric : {"euclidean", "l1", "chebyshev", "edit"} or callable, default="euclidean"
        A callable gets the two arrays and must return an ``(m, n)`` non-negative matrix.

    Returns
    -------
    numpy.ndarray, shape (m, n)
        The distances.
    """
    if not callable(metric):
        check_in(metric, "metric", METRICS)
    A = check_metric_input(A, metric, "A")
    B = A if B is None else check_metric_input(B, metric, "B")
    if metric == "edit":
        return edit_distance_matrix(A, B)
    if callable(metric):
        out = np.asarray(metric(A, B), dtype=np.float64)
        if out.shape != (len(A), len(B)):
            raise ValueError(f"metric returned shape {out.shape}; expected {(len(A), len(B))}")
        if not np.all(np.isfinite(out)) or np.any(out < 0):
            raise ValueError("metric returned a negative or non-finite distance")
        return out
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A and B must have the same number of columns; got {A.shape}, {B.shape}")
    name = {"euclidean": "euclidean", "l1": "cityblock", "chebyshev": "chebyshev"}[metric]
    return cdist(A, B, name)


def check_distance_matrix(
    D: Any, name: str = "D", *, max_triangle_points: int = 300, atol: float = 1e-9
) -> np.ndarray:
    r"""Return ``D`` if it is the distance matrix of a (pseudo)metric, else raise ``ValueError``.

    Checks: square, finite, non-negative, zero diagonal, symmetric, and the triangle inequality
    :math:`d(i, j) \le d(i, l) + d(l, j)` on the first ``max_triangle_points`` points (all
    triples among them, vectorised; the cubic check is capped so that large inputs stay cheap).

    Parameters
    ----------
    D : array_like, shape (n, n)
        Candidate distance matrix.
    name : str, default="D"
        Name used in messages.
    max_triangle_points : int, default=300
        How many points enter the triangle-inequality check (``0``: none, the other checks
        only).
    atol : float, default=1e-9
        Absolute slack of the equality checks, relative to the largest distance.

    Returns
    -------
    numpy.ndarray
        The validated matrix.
    """
    D = check_matrix(D, name)
    max_triangle_points = check_positive_int(max_triangle_points, "max_triangle_points", minimum=0)
    atol = check_real(atol, "atol", low=0.0)
    n = D.shape[0]
    if D.shape != (n, n):
        raise ValueError(f"{name} must be square; got shape {D.shape}")
    scale = max(float(D.max(initial=0.0)), 1.0)
    if np.any(D < 0):
        i, j = np.argwhere(D < 0)[0]
        raise ValueError(f"{name} is not a metric: negative distance {D[i, j]} at ({i}, {j})")
    diag = np.abs(np.diag(D))
    if np.any(diag > atol * scale):
        i = int(np.argmax(diag))
        raise ValueError(f"{name} is not a metric: d(x, x) = {D[i, i]} != 0 at index {i}")
    asym = np.abs(D - D.T)
    if np.any(asym > atol * scale):
        i, j = np.unravel_index(int(np.argmax(asym)), asym.shape)
        raise ValueError(
            f"{name} is not a metric: not symmetric, d({i}, {j}) = {D[i, j]} but "
            f"d({j}, {i}) = {D[j, i]}"
        )
    m = min(n, max_triangle_points)  # 0: no triangle check
    S = D[:m, :m]
    for i in range(m):  # d(i, j) <= min_l d(i, l) + d(l, j), one row at a time
        via = np.min(S[i][:, None] + S, axis=0)
        gap = S[i] - via
        if np.any(gap > max(atol, _TRIANGLE_RTOL) * scale):
            j = int(np.argmax(gap))
            l_ = int(np.argmin(S[i] + S[:, j]))
            raise ValueError(
                f"{name} is not a metric: triangle inequality fails, d({i}, {j}) = {S[i, j]:.6g}"
                f" > d({i}, {l_}) + d({l_}, {j}) = {S[i, l_] + S[l_, j]:.6g}"
            )
    return D


def diameter(D: Any) -> float:
    """Largest entry of a distance matrix (the diameter of the sample)."""
    D = check_matrix(D, "D")
    return float(D.max(initial=0.0))


def greedy_net(D: np.ndarray, r: float) -> np.ndarray:
    """Return the indices of a greedy :math:`r`-net of the points with distance matrix ``D``.

    Points are scanned in index order; a point joins the net if it is farther than ``r`` from
    every net point so far. The result is an :math:`r`-packing and an :math:`r`-cover.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distance matrix: square, non-negative, zero diagonal and symmetric (checked as by
        :func:`check_distance_matrix`, without its cubic triangle-inequality check).
    r : float
        Radius, ``r > 0``.

    Returns
    -------
    numpy.ndarray of int64
        The net's indices, increasing.
    """
    D = check_distance_matrix(D, "D", max_triangle_points=0)
    r = check_real(r, "r", low=0.0, low_inclusive=False)
    return _greedy_net(D, r)


def _greedy_net(D: np.ndarray, r: float) -> np.ndarray:
    """:func:`greedy_net` on checked input."""
    n = D.shape[0]
    covered = np.zeros(n, dtype=bool)
    net = []
    for i in range(n):
        if not covered[i]:
            net.append(i)
            covered |= D[i] <= r
    return np.asarray(net, dtype=np.int64)


def doubling_dimension(D: Any, *, n_scales: int = 8, min_net: int = 2) -> float:
    r"""Estimate the doubling dimension of a finite sample from greedy nets.

    For radii :math:`r_j = \operatorname{diam}/2^j`, :math:`j = 1, \dots,` ``n_scales``, let
    :math:`N_j` be the size of a greedy :math:`r_j`-net. A doubling space has
    :math:`N_{j+1} \le \lambda^{O(1)} N_j`; we return the median over scales of
    :math:`\log_2(N_{j+1}/N_j)` among the scales where the net has at least ``min_net`` points
    and is not yet the whole sample (where the sample stops looking like the space).

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distance matrix of the sample.
    n_scales : int, default=8
        Number of dyadic radii.
    min_net : int, default=2
        Smallest net size that counts.

    Returns
    -------
    float
        The estimate (at least ``1``; ``1`` also when no scale qualifies).
    """
    D = check_matrix(D, "D")
    if D.shape[0] != D.shape[1]:
        raise ValueError(f"D must be square; got shape {D.shape}")
    if np.any(D < 0):
        i, j = np.argwhere(D < 0)[0]
        raise ValueError(f"D must be a distance matrix: negative entry {D[i, j]} at ({i}, {j})")
    asym = np.abs(D - D.T)
    if np.any(asym > 1e-9 * max(float(D.max()), 1.0)):
        i, j = np.unravel_index(int(np.argmax(asym)), asym.shape)
        raise ValueError(
            f"D must be symmetric: D[{i}, {j}] = {D[i, j]} but D[{j}, {i}] = {D[j, i]}"
        )
    n_scales = check_positive_int(n_scales, "n_scales")
    min_net = check_positive_int(min_net, "min_net")
    diam = float(D.max(initial=0.0))
    if diam == 0.0:
        return 1.0
    sizes = np.array([len(_greedy_net(D, diam / 2**j)) for j in range(1, n_scales + 2)])
    n = D.shape[0]
    ok = (sizes[:-1] >= min_net) & (sizes[1:] < n)
    if not np.any(ok):
        return 1.0
    return float(max(1.0, np.median(np.log2(sizes[1:][ok] / sizes[:-1][ok]))))
