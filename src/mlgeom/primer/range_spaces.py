r"""ε-samples and ε-nets for the range space of halfplanes in the plane.

The primer's "VC-dimension and Sample Complexity" slides take a range space
:math:`(X, \mathcal{R})` and ask how well a subset :math:`S` represents :math:`X`:

* :math:`S` is an **ε-sample** if
  :math:`\max_{R \in \mathcal{R}} \big| |X \cap R| / |X| - |S \cap R| / |S| \big| \le
  \varepsilon`; a random sample of size :math:`O(\nu / \varepsilon^2)` is one with constant
  probability [2]_;
* :math:`S` is an **ε-net** if every :math:`R \in \mathcal{R}` with
  :math:`|R \cap X| / |X| \ge \varepsilon` satisfies :math:`S \cap R \neq \emptyset`; a
  random sample of size :math:`O(\frac{\nu}{\varepsilon} \log \frac{\nu}{\varepsilon})`
  is one with constant probability [3]_.

Here :math:`\mathcal{R}` is the family of halfplanes in :math:`\mathbb{R}^2`, whose
VC-dimension is :math:`\nu = 3`. :func:`halfplane_discrepancy` computes the ε-sample deviation
(the left-hand side above) and :func:`halfplane_net_gap` the largest fraction of :math:`X` in a
halfplane that misses :math:`S` (so :math:`S` is an ε-net iff this is :math:`< \varepsilon`).

Both scan directions :math:`u = (\cos\theta, \sin\theta)`. For a fixed :math:`u` the
halfplanes :math:`\{x : \langle u, x\rangle \ge c\}` cut the points, sorted by projection,
into a suffix; points with equal projections enter together. On a finite set open and closed
halfplanes cut out the same subsets, so the choice between them only matters through how ties
are grouped.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "VC-dimension and
   Sample Complexity".
.. [2] V. N. Vapnik and A. Ya. Chervonenkis, "On the uniform convergence of relative frequencies
   of events to their probabilities", Theory of Probability and its Applications 16(2),
   264-280, 1971.
.. [3] D. Haussler and E. Welzl, "ε-nets and simplex range queries", Discrete & Computational
   Geometry 2, 127-151, 1987.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_matrix, check_positive_int

__all__ = ["EXACT_MAX_POINTS", "halfplane_discrepancy", "halfplane_net_gap"]

#: Largest ``len(X) + len(S)`` accepted with ``exact=True`` (the exact scan evaluates
#: O(m^2) directions at O(m log m) each).
EXACT_MAX_POINTS = 400

# Critical angles closer than this (radians) are merged before taking midpoints, so that every
# evaluated direction is well away from every swap: collinear triples give mathematically equal
# critical angles that differ in the last bits, and a direction between such near-duplicates
# would order nearly tied projections by rounding error.
_ANGLE_MERGE_TOL = 1e-9

# Number of (direction, point) entries processed at once.
_BLOCK_ENTRIES = 1 << 21


def _check_inputs(X: Any, S: Any, n_directions: Any, exact: Any) -> tuple[np.ndarray, ...]:
    """Validate the shared arguments of the two public functions."""
    X = check_matrix(X, "X", n_cols=2)
    S = check_matrix(S, "S", n_cols=2)
    n_directions = check_positive_int(n_directions, "n_directions")
    if not isinstance(exact, bool | np.bool_):
        raise ValueError(f"exact must be a bool; got {exact!r}")
    if exact and X.shape[0] + S.shape[0] > EXACT_MAX_POINTS:
        raise ValueError(
            f"exact=True accepts at most {EXACT_MAX_POINTS} points in total; got "
            f"len(X) + len(S) = {X.shape[0]} + {S.shape[0]} = {X.shape[0] + S.shape[0]}. "
            "Use exact=False with a fine grid of directions instead."
        )
    return X, S, n_directions


def _midpoint_angles(critical: np.ndarray, period: float) -> np.ndarray:
    """One angle strictly inside each arc between consecutive (merged) critical angles.

    ``critical`` holds angles in ``[0, period)``; the arcs wrap around the period. With no
    critical angle (all points coincide) every direction is equivalent and ``[0.0]`` is
    returned.
    """
    if critical.size == 0:
        return np.zeros(1)
    a = np.sort(np.mod(critical, period))
    # Merge near-duplicates: keep a cluster's first and last angle, drop the inside.
    gap_after = np.diff(a) > _ANGLE_MERGE_TOL
    starts = a[np.concatenate(([True], gap_after))]
    ends = a[np.concatenate((gap_after, [True]))]
    if starts.size > 1 and starts[0] + period - ends[-1] <= _ANGLE_MERGE_TOL:
        # The last cluster wraps around into the first one: merge them.
        starts = np.concatenate(([starts[-1] - period], starts[1:-1]))
        ends = ends[:-1]
    # Arc i runs from the end of cluster i to the start of cluster i+1 (wrapping around).
    nxt = np.roll(starts, -1)
    nxt[-1] += period
    mids = 0.5 * (ends + nxt)
    return np.mod(mids, period)


def _pair_normal_angles(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    r"""Angles of the directions normal to every difference ``p - q`` (p in P, q in Q, p != q).

    A direction :math:`u` orders :math:`p` and :math:`q` differently on the two sides of the
    angle where :math:`\langle u, p - q\rangle = 0`, i.e. where :math:`u` is normal to
    :math:`p - q`.
    """
    d = (P[:, None, :] - Q[None, :, :]).reshape(-1, 2)
    d = d[np.any(d != 0, axis=1)]
    return np.arctan2(d[:, 1], d[:, 0]) + 0.5 * np.pi


def _unique_with_counts(X: np.ndarray, S: np.ndarray) -> tuple[np.ndarray, ...]:
    """Distinct points of X ∪ S with their multiplicities in X and in S."""
    pts, inv = np.unique(np.vstack((X, S)), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    m = pts.shape[0]
    cx = np.bincount(inv[: X.shape[0]], minlength=m)
    cs = np.bincount(inv[X.shape[0] :], minlength=m)
    return pts, cx, cs


def _discrepancy_over(
    angles: np.ndarray, pts: np.ndarray, cx: np.ndarray, cs: np.ndarray, nx: int, ns: int
) -> float:
    """Max over the given directions and thresholds of | |X∩R|/|X| - |S∩R|/|S| |."""
    m = pts.shape[0]
    # Integer weights: |X∩R|/|X| - |S∩R|/|S| = (|X∩R| |S| - |S∩R| |X|) / (|X| |S|), so the
    # scan is exact in integers and the only rounding is the final division.
    wdiff = cx.astype(np.int64) * ns - cs.astype(np.int64) * nx
    best = 0
    block = max(1, _BLOCK_ENTRIES // m)
    for start in range(0, angles.size, block):
        th = angles[start : start + block]
        proj = np.cos(th)[:, None] * pts[:, 0] + np.sin(th)[:, None] * pts[:, 1]
        order = np.argsort(proj, axis=1)
        proj_sorted = np.take_along_axis(proj, order, axis=1)
        # Prefix sums in increasing projection: the prefix up to a group end is the closed
        # halfplane {<u, x> <= c}; its complement (an open halfplane) has the same |deviation|,
        # so one scan covers the direction and its opposite.
        # Primer (ε-sample): | |X ∩ R| / |X| - |S ∩ R| / |S| |, times |X| |S|.
        dev = np.abs(np.cumsum(wdiff[order], axis=1))
        # Equal projections enter together: only group ends are valid thresholds (the order
        # of tied points is arbitrary, so only the totals after a whole group are used).
        dev[:, :-1][proj_sorted[:, 1:] == proj_sorted[:, :-1]] = 0
        best = max(best, int(np.max(dev)))
    return best / (nx * ns)


def halfplane_discrepancy(
    X: Any,
    S: Any,
    *,
    n_directions: int = 1024,
    exact: bool = False,
) -> float:
    r"""Return the ε-sample deviation of ``S`` with respect to ``X`` for halfplanes.

    .. math::

        \max_{R \text{ halfplane}} \left| \frac{|X \cap R|}{|X|} -
        \frac{|S \cap R|}{|S|} \right|,

    so ``S`` is an ε-sample of ``X`` iff the value is :math:`\le \varepsilon`. ``S`` is
    usually a sample of ``X`` but need not be a subset; repeated points count with their
    multiplicity.

    For each direction :math:`u` the points of :math:`X \cup S` are sorted by
    :math:`\langle u, x\rangle` and every threshold is scanned with prefix counts, points with
    equal projections entering together: :math:`O(m \log m)` per direction for
    :math:`m = |X| + |S|`, vectorised over blocks of directions.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        The ground set; finite.
    S : array_like of shape (s, 2)
        The sample; finite, non-empty.
    n_directions : int, default=1024
        With ``exact=False``: number of evenly spaced angles
        :math:`\theta_j = \pi j / n_{\text{directions}}` in :math:`[0, \pi)`. Half a
        turn suffices because a direction and its opposite give the same value (the
        halfplanes of :math:`-u` are complements of those of :math:`u`, and
        :math:`|\text{deviation}|` is the same for a set and its complement). The result is
        then a **lower bound** on the maximum that equals it once the grid is finer than the
        narrowest arc between critical angles (see ``exact``); it is deterministic. Ignored
        when ``exact=True``.
    exact : bool, default=False
        Evaluate every combinatorially distinct ordering: the order of the projections only
        changes at the *critical angles*, where :math:`u` is normal to a difference
        :math:`p - q` of two distinct points; one direction strictly inside each arc between
        consecutive critical angles is evaluated. (The critical angles themselves are not:
        every subset a halfplane cuts there, ties grouped, is also cut just beside it, and
        rounding at an exact tie can split a collinear group into an order no halfplane
        realises.) Critical angles within ``1e-9`` rad of each other are merged, so the value
        is exact up to that angular resolution. Accepts at most :data:`EXACT_MAX_POINTS`
        points in total (:math:`O(m^3 \log m)` time); for many subsets of one larger set in
        general position, :class:`mlgeom.primer.discrepancy.HalfplaneSweep` gives the same
        maximum in :math:`O(n^2)` per subset.

    Returns
    -------
    float
        The deviation, in :math:`[0, 1]`.

    Raises
    ------
    ValueError
        If ``X`` or ``S`` is not a finite array of 2-D points, ``S`` (or ``X``) is empty,
        ``n_directions < 1``, ``exact`` is not a bool, or ``exact=True`` with more than
        :data:`EXACT_MAX_POINTS` points.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "VC-dimension and Sample Complexity" (definition of an ε-sample).
    .. [2] V. N. Vapnik and A. Ya. Chervonenkis, "On the uniform convergence of relative
       frequencies of events to their probabilities", Theory of Probability and its
       Applications 16(2), 264-280, 1971.

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    >>> halfplane_discrepancy(X, X, exact=True)
    0.0
    >>> halfplane_discrepancy(X, [[0.0, 0.0]], exact=True)  # R = {x + y <= 1/2}: 1/4 vs 1
    0.75
    """
    X, S, n_directions = _check_inputs(X, S, n_directions, exact)
    pts, cx, cs = _unique_with_counts(X, S)
    if exact:
        # Critical angles modulo pi: u is normal to p - q for two distinct points.
        angles = _midpoint_angles(_pair_normal_angles(pts, pts), np.pi)
    else:
        angles = np.pi * np.arange(n_directions) / n_directions
    return _discrepancy_over(angles, pts, cx, cs, X.shape[0], S.shape[0])


def halfplane_net_gap(
    X: Any,
    S: Any,
    *,
    n_directions: int = 1024,
    exact: bool = False,
) -> float:
    r"""Return the largest fraction of ``X`` in a halfplane that contains no point of ``S``.

    .. math::

        \max_{R \text{ halfplane},\; R \cap S = \emptyset} \frac{|X \cap R|}{|X|}
        = \max_{u} \frac{|\{x \in X : \langle u, x\rangle >
        \max_{s \in S} \langle u, s\rangle\}|}{|X|},

    the largest open halfplane in direction :math:`u` that misses :math:`S` being
    :math:`\{x : \langle u, x\rangle > \max_{s \in S} \langle u, s\rangle\}`. By the
    primer's definition, ``S`` is an **ε-net** of ``X`` for halfplanes iff this value is
    strictly below :math:`\varepsilon` (every halfplane holding at least
    :math:`\varepsilon |X|` points must hit ``S``). A point of ``X`` that coincides with a
    point of ``S`` is never in a halfplane missing ``S``.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        The ground set; finite.
    S : array_like of shape (s, 2)
        The candidate net; finite, non-empty.
    n_directions : int, default=1024
        With ``exact=False``: number of evenly spaced angles
        :math:`\theta_j = 2\pi j / n_{\text{directions}}` in :math:`[0, 2\pi)` (a full
        turn: here a direction and its opposite differ). The result is a deterministic
        **lower bound** that equals the maximum once the grid is finer than the narrowest arc
        between critical angles; so with the grid, "value < ε" is necessary but not
        sufficient for an ε-net. Ignored when ``exact=True``.
    exact : bool, default=False
        Evaluate one direction strictly inside each arc between consecutive critical angles,
        the angles where :math:`u` is normal to :math:`x - s` for a point :math:`x \in X`
        and a point :math:`s \in S` (the count only changes when some :math:`x` crosses the
        level of the highest point of :math:`S`). At a critical angle itself the count is never
        larger than just beside it (tied points are not in the open halfplane). Critical
        angles within ``1e-9`` rad of each other are merged. Accepts at most
        :data:`EXACT_MAX_POINTS` points in total.

    Returns
    -------
    float
        The fraction, in :math:`[0, 1]`.

    Raises
    ------
    ValueError
        If ``X`` or ``S`` is not a finite array of 2-D points, ``S`` (or ``X``) is empty,
        ``n_directions < 1``, ``exact`` is not a bool, or ``exact=True`` with more than
        :data:`EXACT_MAX_POINTS` points.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "VC-dimension and Sample Complexity" (definition of an ε-net).
    .. [2] D. Haussler and E. Welzl, "ε-nets and simplex range queries", Discrete &
       Computational Geometry 2, 127-151, 1987.

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]
    >>> halfplane_net_gap(X, [[1.0, 0.0]], exact=True)  # {x > 1} holds 2 of 4 points
    0.5
    """
    X, S, n_directions = _check_inputs(X, S, n_directions, exact)
    if exact:
        ux = np.unique(X, axis=0)
        us = np.unique(S, axis=0)
        # Critical angles modulo 2*pi: u is normal to x - s (two angles per pair, u and -u).
        normals = _pair_normal_angles(ux, us)
        angles = _midpoint_angles(np.concatenate((normals, normals + np.pi)), 2.0 * np.pi)
    else:
        angles = 2.0 * np.pi * np.arange(n_directions) / n_directions
    best = 0
    block = max(1, _BLOCK_ENTRIES // (X.shape[0] + S.shape[0]))
    for start in range(0, angles.size, block):
        th = angles[start : start + block]
        c, s = np.cos(th)[:, None], np.sin(th)[:, None]
        top_s = np.max(c * S[:, 0] + s * S[:, 1], axis=1)
        # Primer (ε-net): count |X ∩ R| for the largest open halfplane R with R ∩ S empty.
        count = np.sum(c * X[:, 0] + s * X[:, 1] > top_s[:, None], axis=1)
        best = max(best, int(np.max(count)))
    return best / X.shape[0]
