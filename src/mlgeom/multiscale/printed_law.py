"""The law Algorithm 1 prints: the median of the uniform law on ``K_t + z_iB_d`` along ``x_t``.

Guruganesh et al. (2021), Appendix A ([LLS20] Algorithm 1): with ``i`` the largest integer with
``width(K_t; x_t) <= 2^{-i}`` and ``z_i = 2^{-i}/(8d)``, the guess ``g_t`` makes the hyperplane
``⟨v, x_t⟩ = g_t`` halve ``Vol(K_t + z_iB_d)``. This module computes that guess.

* ``d = 2`` (exact): ``K_t = rB_2 ∩ {Aw <= b}`` is bounded by segments and arcs of the circle,
  and so is ``K_t + zB_2`` (each edge moved out by ``z`` along its outer normal, each arc's
  radius grown by ``z``, each corner rounded by an arc of radius ``z``:
  :func:`sum_boundary_2d`). The area on the side ``⟨v, u⟩ >= g`` then has a closed form
  (Green's theorem over the boundary pieces on that side, closed by the chord:
  :func:`halfplane_area_2d`), whose derivative in ``g`` is minus the chord's length; the
  median is its root, found by Newton's method safeguarded by bisection
  (:func:`median_2d`).
* ``d > 2`` (sampled): hit-and-run on ``K_t + z_iB_d`` itself
  (:meth:`~mlgeom.multiscale.contextual_search.BallKnowledgeSet.minkowski_hit_and_run`),
  started from the knowledge set's particles (warm: they persist across rounds) plus ``z_i``
  times points of ``B_d``, for a schedule of steps; the pool is computed once per knowledge
  set and scale, with randomness derived from the learner's key, the number of cuts and the
  scale (:func:`state_rng`), so the guess is a function of the learner's state and the query.

The split test in ``d > 2`` is
:func:`~mlgeom.multiscale.contextual_search.split_fraction_mc` (it projects onto ``K_t``).
"""

from __future__ import annotations

import math

import numpy as np

from mlgeom._validation import check_matrix, check_real, check_vector

__all__ = [
    "halfplane_area_2d",
    "median_2d",
    "state_rng",
    "sum_boundary_2d",
]

_TWO_PI = 2.0 * math.pi


def state_rng(key: int, n_cuts: int, scale: int) -> np.random.Generator:
    """Return a generator derived from the learner's key, its number of cuts and the scale.

    The printed-law sampler's randomness in ``d > 2``: the same state (cuts) and scale give the
    same draws, whatever queries were asked before, so repeated ``predict`` calls agree.
    """
    return np.random.default_rng([int(key), int(n_cuts), int(min(scale, 10**6)) + 64])


def _clip(P: np.ndarray, a: np.ndarray, b: float) -> np.ndarray:
    """Convex polygon ``P`` (CCW rows) clipped to ``{x : ⟨a, x⟩ <= b}`` (Sutherland–Hodgman)."""
    Q = np.roll(P, -1, axis=0)
    fp, fq = P @ a - b, Q @ a - b
    with np.errstate(divide="ignore", invalid="ignore"):
        X = P + (fp / (fp - fq))[:, None] * (Q - P)
    slots = np.stack([P, X], axis=1)  # per edge: its start (if kept), the crossing (if any)
    keep = np.column_stack([fp <= 0, fp * fq < 0])
    return slots[keep].reshape(-1, 2)


def _disk_edge_pieces(poly: np.ndarray, r: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return the pieces of a convex CCW polygon's edges inside ``rB_2``, in boundary order.

    Each edge ``P + t(Q − P)``, ``t ∈ [0, 1]``, is split where it crosses the circle (the
    roots of ``‖P + tD‖² = r²``) and a piece is kept when its midpoint lies in the disk. The
    boundary of ``poly ∩ rB_2`` is these pieces joined by arcs of the circle wherever one piece
    ends away from where the next begins (:func:`_k_boundary`;
    :func:`~mlgeom.multiscale.contextual_search.disk_polygon_area`).
    """
    pieces = []
    n = len(poly)
    rr = r * r
    for k in range(n):
        P, Q = poly[k], poly[(k + 1) % n]
        D = Q - P
        aa = float(D @ D)
        if aa == 0:
            continue
        bq, cc = 2 * float(P @ D), float(P @ P) - rr
        disc = bq * bq - 4 * aa * cc
        ts = [0.0]
        if disc > 0:
            s = math.sqrt(disc)
            ts += sorted(t for t in ((-bq - s) / (2 * aa), (-bq + s) / (2 * aa)) if 0 < t < 1)
        ts.append(1.0)
        for t0, t1 in zip(ts[:-1], ts[1:], strict=True):
            M = P + 0.5 * (t0 + t1) * D
            if M @ M <= rr:
                pieces.append((P + t0 * D, P + t1 * D))
    return pieces


def _origin_inside(poly: np.ndarray) -> bool:
    """Return whether the origin lies in the convex CCW polygon ``poly`` (left of each edge)."""
    n = len(poly)
    return all(
        (poly[(k + 1) % n] - poly[k])[0] * -poly[k][1]
        - (poly[(k + 1) % n] - poly[k])[1] * -poly[k][0]
        >= 0
        for k in range(n)
    )


def _k_boundary(A: np.ndarray, b: np.ndarray, r: float) -> tuple[list, list] | None:
    """Boundary of ``K = rB_2 ∩ {Aw <= b}`` as CCW pieces, or ``None`` when ``K`` is empty.

    Returns ``(segments, arcs)`` in boundary order as one list of tuples:
    ``("s", P, Q)`` (an edge piece) and ``("a", cx, cy, rho, phi0, delta)`` (an arc of the
    circle of centre ``(cx, cy)``, radius ``rho``, from angle ``phi0`` over ``delta >= 0``).
    """
    poly = 2 * r * np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    for a, bb in zip(A, b, strict=True):
        poly = _clip(poly, a, float(bb))
        if len(poly) < 3:
            return None
    pieces = _disk_edge_pieces(poly, r)
    if not pieces:  # the polygon's boundary avoids the disk: the disk is inside it, or outside
        return [("a", 0.0, 0.0, r, 0.0, _TWO_PI)] if _origin_inside(poly) else None
    out = []
    tol = 1e-12 * r
    for k, (U, V) in enumerate(pieces):
        if float(np.linalg.norm(V - U)) > 0:
            out.append(("s", U, V))
        W = pieces[(k + 1) % len(pieces)][0]
        if float(np.linalg.norm(W - V)) > tol:  # leave the disk at V, come back at W
            phi0 = math.atan2(V[1], V[0])  # the angle from V to W, exact for thin arcs
            delta = math.atan2(V[0] * W[1] - V[1] * W[0], V @ W) % _TWO_PI
            out.append(("a", 0.0, 0.0, r, phi0, delta))
    return out


def _normals(piece) -> tuple[float, float]:
    """Angles of the outer normal at the start and at the end of a boundary piece."""
    if piece[0] == "s":
        D = piece[2] - piece[1]
        ang = math.atan2(-D[0], D[1])  # (dy, -dx): outward for a CCW boundary
        return ang, ang
    return piece[4], piece[4] + piece[5]


def sum_boundary_2d(A, b, z: float, radius: float = 1.0) -> list:
    """Boundary of ``K + zB_2``, ``K = radius·B_2 ∩ {Aw <= b}``: segments and arcs, CCW.

    Each edge piece of ``K`` moves out by ``z`` along its outer normal, each arc of the circle
    of radius ``r`` becomes the arc of radius ``r + z`` over the same angles, and at each
    corner (where the outer normal jumps) an arc of radius ``z`` centred at the corner joins
    them (the boundary of the Minkowski sum of a convex set and a disk).

    Parameters
    ----------
    A : array_like of shape (m, 2)
        Cut normals (``m`` may be 0).
    b : array_like of shape (m,)
        Cut offsets.
    z : float
        Radius of the added disk, ``>= 0``.
    radius : float, default=1.0
        Radius ``r`` of the disk ``K`` is cut from.

    Returns
    -------
    list of tuple
        ``("s", P, Q)`` for a segment from ``P`` to ``Q`` and ``("a", cx, cy, rho, phi0,
        delta)`` for an arc; empty when ``K`` is empty (or flat).

    Examples
    --------
    >>> [p[0] for p in sum_boundary_2d([[0.0, -1.0]], [0.0], 0.1)]
    ['s', 'a', 'a', 'a']
    """
    A = check_matrix(A, "A", n_cols=2, min_rows=0)
    b = check_vector(b, "b", size=A.shape[0], min_size=0)
    z = check_real(z, "z", low=0.0)
    r = check_real(radius, "radius", low=0.0, low_inclusive=False)
    return _offset(_k_boundary(A, b, r), z)


def _offset(K: list | None, z: float) -> list:
    """Boundary of ``K + zB_2`` from the boundary of ``K`` (:func:`_k_boundary`)."""
    if K is None:
        return []
    out = []
    n = len(K)
    for k, piece in enumerate(K):
        if piece[0] == "s":
            _, P, Q = piece
            n0, _ = _normals(piece)
            off = z * np.array([math.cos(n0), math.sin(n0)])
            out.append(("s", P + off, Q + off))
        else:
            _, cx, cy, rho, phi0, delta = piece
            out.append(("a", cx, cy, rho + z, phi0, delta))
        if z > 0 and (n > 1 or piece[0] == "s"):
            nxt = K[(k + 1) % n]
            _, end = _normals(piece)
            start, _ = _normals(nxt)
            jump = (start - end) % _TWO_PI
            if jump > 1e-15 and jump < _TWO_PI - 1e-15:  # a corner: round it
                V = piece[2] if piece[0] == "s" else _arc_point(piece, piece[5])
                out.append(("a", float(V[0]), float(V[1]), z, end, jump))
    return out


def _arc_point(piece, t: float) -> np.ndarray:
    _, cx, cy, rho, phi0, _ = piece
    return np.array([cx + rho * math.cos(phi0 + t), cy + rho * math.sin(phi0 + t)])


def _side(boundary: list, ux: float, uy: float, g: float) -> tuple[float, float, float, float]:
    """``(area on ⟨v, u⟩ >= g, chord length, min ⟨v, u⟩, max ⟨v, u⟩)`` of a CCW boundary."""
    area = 0.0
    tx, ty = uy, -ux  # along the chord, the side ⟨v, u⟩ >= g on the left
    e_best, n_best = math.inf, -math.inf
    ex = ey = nx = ny = 0.0
    lo, hi = math.inf, -math.inf

    def cross_point(x, y):
        nonlocal e_best, n_best, ex, ey, nx, ny
        s = x * tx + y * ty
        if s < e_best:
            e_best, ex, ey = s, x, y
        if s > n_best:
            n_best, nx, ny = s, x, y

    psi = math.atan2(uy, ux)
    for piece in boundary:
        if piece[0] == "s":
            P, Q = piece[1], piece[2]
            px, py, qx, qy = float(P[0]), float(P[1]), float(Q[0]), float(Q[1])
            fp, fq = px * ux + py * uy, qx * ux + qy * uy
            lo, hi = min(lo, fp, fq), max(hi, fp, fq)
            fp, fq = fp - g, fq - g
            if fp >= 0 and fq >= 0:
                area += 0.5 * (px * qy - py * qx)
            elif fp >= 0 or fq >= 0:
                t = fp / (fp - fq)
                cx_, cy_ = px + t * (qx - px), py + t * (qy - py)
                if fp >= 0:
                    area += 0.5 * (px * cy_ - py * cx_)
                else:
                    area += 0.5 * (cx_ * qy - cy_ * qx)
                cross_point(cx_, cy_)
            continue
        _, cx, cy, rho, phi0, delta = piece
        c_u = cx * ux + cy * uy
        # extremes of ⟨v, u⟩ on the arc: its ends, and c_u ± rho where ψ (or ψ + π) lies on it
        for ang in (phi0, phi0 + delta):
            val = c_u + rho * math.cos(ang - psi)
            lo, hi = min(lo, val), max(hi, val)
        if (psi - phi0) % _TWO_PI <= delta:
            hi = max(hi, c_u + rho)
        if (psi + math.pi - phi0) % _TWO_PI <= delta:
            lo = min(lo, c_u - rho)
        kappa = (g - c_u) / rho
        if kappa >= 1.0:
            continue
        if kappa <= -1.0:
            ivs = ((0.0, delta),)
        else:
            a = math.acos(kappa)
            s = (psi - a - phi0) % _TWO_PI
            ivs = []
            if s < delta:
                ivs.append((s, min(s + 2 * a, delta)))
            if s + 2 * a > _TWO_PI:
                ivs.append((0.0, min(s + 2 * a - _TWO_PI, delta)))
            for tc in (s, (s + 2 * a) % _TWO_PI):
                if tc <= delta:
                    cross_point(cx + rho * math.cos(phi0 + tc), cy + rho * math.sin(phi0 + tc))
        for t0, t1 in ivs:
            if t1 <= t0:
                continue
            x0, y0 = cx + rho * math.cos(phi0 + t0), cy + rho * math.sin(phi0 + t0)
            x1, y1 = cx + rho * math.cos(phi0 + t1), cy + rho * math.sin(phi0 + t1)
            area += 0.5 * (rho * rho * (t1 - t0) + cx * (y1 - y0) - cy * (x1 - x0))
    chord = 0.0
    if n_best > e_best:  # close along the chord, from the exit point to the entry point
        area += 0.5 * (ex * ny - ey * nx)
        chord = n_best - e_best
    return area, chord, lo, hi


def halfplane_area_2d(boundary: list, q, g: float) -> tuple[float, float]:
    """Area of ``S ∩ {⟨v, q⟩ >= g}`` and of ``S``, ``S`` given by :func:`sum_boundary_2d`.

    Green's theorem: ``Area = ½∮(x dy − y dx)``; a segment ``P → Q`` contributes
    ``½ P × Q`` and an arc of centre ``c``, radius ``ρ``, from ``P_0`` to ``P_1`` over the
    angle ``Δφ`` contributes ``½(ρ²Δφ + c × (P_1 − P_0))``; the pieces on the side
    ``⟨v, q⟩ >= g`` are closed by the chord of the line ``⟨v, q⟩ = g``.

    Parameters
    ----------
    boundary : list
        Output of :func:`sum_boundary_2d`.
    q : array_like of shape (2,)
        Direction (any non-zero length; ``g`` is in units of ``⟨v, q⟩``).
    g : float
        Offset.

    Returns
    -------
    (side, total) : tuple of float
    """
    q = check_vector(q, "q", size=2)
    g = check_real(g, "g")
    nq = float(np.linalg.norm(q))
    if nq == 0:
        raise ValueError("q must be non-zero")
    if not boundary:
        return 0.0, 0.0
    ux, uy = float(q[0]) / nq, float(q[1]) / nq
    side = _side(boundary, ux, uy, g / nq)[0]
    total = _side(boundary, ux, uy, -math.inf)[0]
    return side, total


def median_2d(boundary: list, q, rtol: float = 1e-13) -> float:
    """Find ``g`` with ``Area(S ∩ {⟨v, q⟩ >= g}) = Area(S)/2`` (Algorithm 1's guess, ``d = 2``).

    ``F(g) = Area(S ∩ {⟨v, q⟩ >= g}) − Area(S)/2`` decreases with ``F'(g) = −(chord length)``;
    Newton's method from the middle of the extent, each step kept inside the bracket where
    ``F`` changes sign (bisection otherwise), until the bracket or the step is below
    ``rtol`` times the extent.

    Parameters
    ----------
    boundary : list
        Output of :func:`sum_boundary_2d` (non-empty).
    q : array_like of shape (2,)
        The query ``x_t`` (non-zero).
    rtol : float, default=1e-13
        Tolerance relative to the extent of ``S`` along ``q``.

    Returns
    -------
    float
        The median of the uniform law on ``S`` along ``q``, in units of ``⟨v, q⟩``.
    """
    q = check_vector(q, "q", size=2)
    rtol = check_real(rtol, "rtol", low=0.0, low_inclusive=False)
    nq = float(np.linalg.norm(q))
    if nq == 0:
        raise ValueError("q must be non-zero")
    if not boundary:
        raise ValueError("boundary is empty: the knowledge set has no area")
    ux, uy = float(q[0]) / nq, float(q[1]) / nq
    total, _, lo, hi = _side(boundary, ux, uy, -math.inf)
    half = 0.5 * total
    tol = rtol * max(hi - lo, 1e-300)
    g = 0.5 * (lo + hi)
    for _ in range(200):
        area, chord, _, _ = _side(boundary, ux, uy, g)
        F = area - half
        if F > 0:
            lo = g
        else:
            hi = g
        if hi - lo <= tol:
            break
        step = F / chord if chord > 0 else math.inf
        g_new = g + step
        if not lo < g_new < hi or abs(step) > 0.5 * (hi - lo):
            g_new = 0.5 * (lo + hi)
        elif abs(step) <= tol:
            g = g_new
            break
        g = g_new
    return g * nq
