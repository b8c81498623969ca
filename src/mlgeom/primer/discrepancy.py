r"""Discrepancy-based ε-samples for halfplanes, and their exact deviation.

The primer's slide "VC-dimension and Sample Complexity" states: "An ε-**sample** is a subset
:math:`S \subset X` so :math:`|S| = O(1/\varepsilon^{2-2/(\nu+1)})`" with
:math:`\max_{R} \big| |X \cap R|/|X| - |S \cap R|/|S| \big| \le \varepsilon`, where
":math:`\nu`: largest :math:`Y \subset X` so all :math:`Z \subset Y` can be defined so
:math:`Z = Y \cap R`" is the VC-dimension. Random samples need :math:`O(\nu/\varepsilon^2)`
points; the smaller size comes from *discrepancy*: colour the points :math:`\pm 1` so that
every range holds nearly as many of each colour, keep one colour (half the points), and repeat
[2]_ [3]_. The error of one round is the colouring's discrepancy divided by the set's size, and
the rounds' errors form a geometric series dominated by the last one.

:func:`halving_sample` is that construction for points in the plane: the points are ordered
along a Hilbert curve, consecutive points are paired, and a fair coin keeps one point of each
pair (a random colouring of a matching). A line crosses few pairs of a space-filling-curve
matching (:math:`O(\sqrt n)` for well-spread points), so each range's imbalance is a sum of
few random signs. This is the practical form of the low-crossing-number matchings of [2]_; it
is our choice, the slides give only the size.

:class:`HalfplaneSweep` computes the deviation exactly, over *all* halfplanes, for any subset
(with multiplicity) of a fixed planar set :math:`X` in general position, in
:math:`O(n^2 \log n)` set-up and :math:`O(n^2)` per subset: every set a halfplane cuts from
:math:`X` (other than :math:`\emptyset` and :math:`X`) is cut by a halfplane whose boundary passes
through two points :math:`p, q` (translate the boundary to the first point, rotate it about that
point to the next), and is then the open side of the line :math:`pq` plus any of the four
subsets of :math:`\{p, q\}` (with no three points collinear, a small rotation or translation
realises each). Around each pivot :math:`p` the other points sorted by angle give all open sides
of the lines through :math:`p` as windows of half a turn, summed by prefix sums.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slide "VC-dimension and
   Sample Complexity".
.. [2] J. Matoušek, E. Welzl and L. Wernisch, "Discrepancy and approximations for bounded
   VC-dimension", Combinatorica 13(4), 455-466, 1993.
.. [3] B. Chazelle and J. Matoušek, "On linear-time deterministic algorithms for optimization
   problems in fixed dimension", Journal of Algorithms 21(3), 579-597, 1996 (merge-reduce).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_matrix, check_positive_int
from mlgeom.random import Seed, as_generator

__all__ = ["COLLINEAR_TOL", "HalfplaneSweep", "halving_sample", "hilbert_order"]

#: Angles (radians, modulo π) closer than this around a pivot count as collinear points.
#: The computed angles are within a few 1e-15 of the true ones: a difference of two floats is
#: correctly rounded (relative error u = 2**-53 per coordinate, at most u in angle), ``arctan2``
#: is within an ulp of π (4.4e-16), and reducing modulo 2π and π adds at most an ulp each. So a
#: gap above 1e-13 (over 20 times the largest error of a gap) orders the points as exact
#: arithmetic would, and an exactly collinear triple (true gap 0) is always refused.
COLLINEAR_TOL = 1e-13

# Pivots processed at once when evaluating a subset (memory ~ block * 2n floats).
_PIVOT_BLOCK = 256


def _hilbert_index(ix: np.ndarray, iy: np.ndarray, bits: int) -> np.ndarray:
    """Distance along the Hilbert curve of order ``bits`` of integer cells (x, y)."""
    x, y = ix.astype(np.int64), iy.astype(np.int64)
    side = np.int64(1) << bits
    d = np.zeros_like(x)
    s = side >> 1
    while s > 0:
        rx = ((x & s) > 0).astype(np.int64)
        ry = ((y & s) > 0).astype(np.int64)
        d += s * s * ((3 * rx) ^ ry)
        # rotate the quadrant so that the sub-curve has the standard orientation
        flip = (ry == 0) & (rx == 1)
        x = np.where(flip, side - 1 - x, x)
        y = np.where(flip, side - 1 - y, y)
        swap = ry == 0
        x, y = np.where(swap, y, x), np.where(swap, x, y)
        s >>= 1
    return d


def hilbert_order(X: Any, bits: int = 16) -> np.ndarray:
    r"""Order planar points along a Hilbert curve through their bounding square.

    The bounding square of ``X`` is cut into :math:`2^{\text{bits}} \times 2^{\text{bits}}`
    cells, and the points are sorted by the position of their cell along the Hilbert curve of
    that order (ties, points in one cell, keep their input order).

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Finite points.
    bits : int, default=16
        Order of the curve, in 1..30.

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        A permutation of ``range(n)``.

    Examples
    --------
    >>> hilbert_order([[0, 0], [1, 1], [0, 1], [1, 0]], bits=1).tolist()  # the order-1 "U"
    [0, 2, 1, 3]
    """
    X = check_matrix(X, "X", n_cols=2)
    bits = check_positive_int(bits, "bits")
    if bits > 30:
        raise ValueError(f"bits must be in 1..30; got {bits}")
    lo = X.min(axis=0)
    span = float((X.max(axis=0) - lo).max())
    cells = (1 << bits) - 1
    if span == 0.0:
        return np.arange(X.shape[0])
    q = np.rint((X - lo) / span * cells).astype(np.int64)
    return np.argsort(_hilbert_index(q[:, 0], q[:, 1], bits), kind="stable")


def halving_sample(X: Any, size: int, seed: Seed) -> np.ndarray:
    r"""Draw a discrepancy-halving ε-sample of ``X``: indices of ``size`` points.

    Each round pairs consecutive points along the Hilbert curve (:func:`hilbert_order`) and keeps
    one point of each pair by a fair coin: a random :math:`\pm 1` colouring of a matching, of
    which the :math:`+1` class is kept. ``len(X) / size`` rounds halve ``X`` to ``size`` points.
    The same ``seed`` gives nested samples: the run to a smaller size continues the run to a
    larger one.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Finite points; ``n`` must be ``size * 2**r`` for some :math:`r \ge 0`.
    size : int
        Size of the sample (>= 1).
    seed : int or numpy.random.Generator
        Source of the coins.

    Returns
    -------
    numpy.ndarray of int, shape (size,)
        Sorted indices into ``X``.

    Examples
    --------
    >>> idx = halving_sample([[0, 0], [1, 1], [0, 1], [1, 0]], 2, seed=0)
    >>> len(idx)  # one point of each Hilbert-consecutive pair: {0, 2} and {1, 3}
    2
    """
    X = check_matrix(X, "X", n_cols=2)
    size = check_positive_int(size, "size")
    n = X.shape[0]
    rounds = n // size
    if n % size or rounds & (rounds - 1):
        raise ValueError(f"len(X) must be size * 2**r; got len(X) = {n}, size = {size}")
    rng = as_generator(seed)
    idx = hilbert_order(X)
    while idx.size > size:
        keep = rng.integers(0, 2, size=idx.size // 2)
        idx = idx.reshape(-1, 2)[np.arange(idx.size // 2), keep]
    return np.sort(idx)


class HalfplaneSweep:
    r"""Exact halfplane ε-sample deviation of subsets of a fixed planar point set.

    For a multiset :math:`S` of points of :math:`X` (indices with repetition),
    :meth:`deviation` returns

    .. math::

        \max_{R \text{ halfplane}} \left| \frac{|X \cap R|}{|X|} -
        \frac{|S \cap R|}{|S|} \right|,

    the ε of the slide "VC-dimension and Sample Complexity", over all halfplanes (see the
    module notes for why lines through two points suffice). Set-up sorts the other points by
    angle around each point, :math:`O(n^2 \log n)`; each deviation is :math:`O(n^2)`.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Distinct points, no three collinear (angles within :data:`COLLINEAR_TOL` are refused),
        :math:`n \ge 2`.

    Examples
    --------
    >>> sweep = HalfplaneSweep([[0, 0], [1, 0], [0, 1], [1, 1.1]])
    >>> sweep.deviation([0])  # R = a halfplane around (0, 0) alone: 1 vs 1/4
    0.75
    >>> sweep.deviation([0, 1, 2, 3])
    0.0
    """

    def __init__(self, X: Any) -> None:
        X = check_matrix(X, "X", n_cols=2, min_rows=2)
        n = X.shape[0]
        # int32 halves the set-up's memory (2 n^2 indices: 200 MB at n = 5,000)
        itype = np.int32 if n < 2**31 - 1 else np.int64
        order = np.empty((n, n - 1), dtype=itype)
        ends = np.empty((n, n - 1), dtype=itype)
        for i in range(n):
            others = np.delete(np.arange(n), i)
            v = X[others] - X[i]
            if np.any(np.all(v == 0.0, axis=1)):
                j = int(others[np.flatnonzero(np.all(v == 0.0, axis=1))[0]])
                raise ValueError(f"X must have distinct points; X[{i}] == X[{j}] = {X[i]}")
            ang = np.mod(np.arctan2(v[:, 1], v[:, 0]), 2.0 * np.pi)
            half = np.sort(np.mod(ang, np.pi))
            gaps = np.diff(np.concatenate([half, [half[0] + np.pi]]))
            if gaps.size > 1 and gaps.min() <= COLLINEAR_TOL:
                raise ValueError(
                    f"X must have no three collinear points; X[{i}] = {X[i]} is collinear "
                    f"with two others (angle gap {gaps.min():.3g})"
                )
            o = np.argsort(ang)
            a = ang[o]
            order[i] = others[o]
            # open side of the directed line at angle a_j: angles in (a_j, a_j + π), i.e.
            # positions j+1 .. ends-1 of the doubled sorted list
            ends[i] = np.searchsorted(np.concatenate([a, a + 2.0 * np.pi]), a + np.pi, "left")
        self.X = X
        self.n = n
        self._order = order
        # the window j+1 .. ends-1 of the doubled list wraps past the end when ends > n - 1:
        # its sum is then (prefix[n-1] - prefix[j+1]) + prefix[ends - (n-1)]
        self._wrap = ends > n - 1
        self._ends = np.where(self._wrap, ends - (n - 1), ends)

    def weights(self, S: Any) -> np.ndarray:
        r"""Signed weights :math:`1/|X| - c_i/|S|` of the points, :math:`c_i` = copies in ``S``."""
        S = np.asarray(S)
        if S.ndim != 1 or S.size == 0 or not np.issubdtype(S.dtype, np.integer):
            raise ValueError(
                f"S must be a non-empty 1-D array of indices into X; got shape {S.shape}, "
                f"dtype {S.dtype}"
            )
        if S.min() < 0 or S.max() >= self.n:
            bad = int(S[(S < 0) | (S >= self.n)][0])
            raise ValueError(f"S must index X (0..{self.n - 1}); got {bad}")
        return 1.0 / self.n - np.bincount(S, minlength=self.n) / S.size

    def deviation(self, S: Any) -> float:
        """Return the exact ε-sample deviation of the multiset ``X[S]`` (indices ``S``)."""
        hi, lo = self._window_extremes(self.weights(S))
        return max(hi, -lo)

    def net_gap(self, S: Any) -> float:
        r"""Return the exact ε-net gap: the largest share of ``X`` in a halfplane missing ``S``.

        .. math::

            \max_{R \text{ halfplane},\ R \cap S = \emptyset} \frac{|X \cap R|}{|X|},

        so ``X[S]`` is an ε-net of ``X`` for halfplanes iff the value is :math:`< \varepsilon`
        (slide "VC-dimension and Sample Complexity"). The points of ``S`` get weight
        :math:`-1` and the others :math:`1/|X|`: a halfplane holding a point of ``S`` has a
        negative total, one missing ``S`` totals its fraction of ``X``, and the empty halfplane
        gives 0.
        """
        w = self.weights(S)  # validates S
        w = np.where(w < 1.0 / self.n, -1.0, 1.0 / self.n)
        hi, _ = self._window_extremes(w)
        return max(hi, 0.0)

    def _window_extremes(self, w: np.ndarray) -> tuple[float, float]:
        """Largest and smallest total weight of a halfplane (lines through two points)."""
        m = self.n - 1
        j = np.arange(m)
        best_hi, best_lo = 0.0, 0.0
        for start in range(0, self.n, _PIVOT_BLOCK):
            rows = slice(start, min(start + _PIVOT_BLOCK, self.n))
            wq = w[self._order[rows]]
            C = np.zeros((wq.shape[0], m + 1))
            np.cumsum(wq, axis=1, out=C[:, 1:])
            W = np.take_along_axis(C, self._ends[rows], axis=1) - C[:, j + 1]
            W += np.where(self._wrap[rows], C[:, m:], 0.0)
            wp = w[rows][:, None]
            hi = W + np.maximum(wp, 0.0) + np.maximum(wq, 0.0)
            lo = W + np.minimum(wp, 0.0) + np.minimum(wq, 0.0)
            best_hi = max(best_hi, float(hi.max()))
            best_lo = min(best_lo, float(lo.min()))
        return best_hi, best_lo
