"""Lemma E.4 ([LLS20]) probed where it is tight: the volume of a polytope in a thin strip.

Guruganesh et al. (2021), Lemma E.4 (from Lobel, Leme & Slivkins 2020): if the width of a
convex polytope ``S ⊂ R^d`` in the direction ``v`` is at least ``8dε``, every strip of width
``ε`` normal to ``v`` holds at most ``1/4`` of ``vol(S)``. The fraction depends only on
``ε / width`` and on the shape; by Brunn's theorem the section areas ``A(t)^{1/(d−1)}`` are
concave, so the strip holds the most when the body is a cone with its base in the strip,
``1 − (1 − ε/W)^d`` (about ``1/8`` at ``W = 8dε``). The probe below evaluates exact volumes
(``d = 2, 3``; convex hulls of the clipped polytope) and maximises over the strip's position and
over polytopes (the cone, and random polytopes improved by a seeded hill climb).
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.spatial import ConvexHull, QhullError

from mlgeom._validation import check_in, check_matrix, check_positive_int, check_real
from mlgeom.random import as_generator

__all__ = [
    "cone_strip_fraction",
    "lemma_e4_probe",
    "lemma_e4_slack",
    "strip_fraction",
    "worst_strip_fraction",
]


def _volume(X: np.ndarray) -> float:
    try:
        return float(ConvexHull(X).volume) if len(X) > X.shape[1] else 0.0
    except QhullError:  # flat: no volume
        return 0.0


def strip_fraction(V, a: float, eps: float) -> float:
    """Share of ``vol(conv V)`` in the strip ``{a <= x_1 <= a + ε}`` (exact, ``v = e_1``).

    Parameters
    ----------
    V : array_like, shape (n, d)
        Points whose convex hull is the polytope (``d = 2`` or ``3``, full-dimensional).
    a : float
        The strip's lower end along ``v = e_1``.
    eps : float
        The strip's width, ``> 0``.

    Returns
    -------
    float
        ``vol(conv V ∩ strip) / vol(conv V)``: the hull of the vertices inside the strip and of
        the points where the hull's edges cross its two planes.
    """
    V = check_matrix(V, "V", min_rows=3)
    if V.shape[1] not in (2, 3):
        raise ValueError(f"V must have 2 or 3 columns (exact volumes); got {V.shape[1]}")
    a = check_real(a, "a")
    eps = check_real(eps, "eps", low=0.0, low_inclusive=False)
    try:
        hull = ConvexHull(V)
    except QhullError:
        hull = None
    total = float(hull.volume) if hull is not None else 0.0
    if total <= 0.0:
        raise ValueError("V must span a full-dimensional polytope (zero volume)")
    P = V[hull.vertices]
    x = V[:, 0]
    pts = [P[(P[:, 0] >= a) & (P[:, 0] <= a + eps)]]
    edges = {tuple(sorted(e)) for s in hull.simplices for e in itertools.combinations(s, 2)}
    for i, j in edges:
        for c in (a, a + eps):
            if (x[i] - c) * (x[j] - c) < 0:  # the edge crosses the plane x_1 = c
                lam = (c - x[i]) / (x[j] - x[i])
                pts.append((V[i] + lam * (V[j] - V[i]))[None, :])
    return _volume(np.vstack(pts)) / total


def worst_strip_fraction(V, eps: float, n_grid: int = 24) -> tuple[float, float]:
    """Largest :func:`strip_fraction` over the strip's position, and that position.

    A grid of ``n_grid`` positions over the polytope's extent along ``e_1``, then a bounded
    scalar search around the best grid point.
    """
    V = check_matrix(V, "V", min_rows=3)
    eps = check_real(eps, "eps", low=0.0, low_inclusive=False)
    n_grid = check_positive_int(n_grid, "n_grid", minimum=2)
    lo, hi = float(V[:, 0].min()) - eps, float(V[:, 0].max())
    grid = np.linspace(lo, hi, n_grid)
    vals = [strip_fraction(V, a, eps) for a in grid]
    k = int(np.argmax(vals))
    step = grid[1] - grid[0]
    res = minimize_scalar(
        lambda a: -strip_fraction(V, a, eps),
        bounds=(max(lo, grid[k] - step), min(hi, grid[k] + step)),
        method="bounded",
        options={"xatol": 1e-6 * (hi - lo)},
    )
    if -res.fun > vals[k]:
        return float(-res.fun), float(res.x)
    return float(vals[k]), float(grid[k])


def cone_strip_fraction(d: int, ratio: float) -> float:
    """``1 − (1 − ratio)^d``: a cone's share in a strip at its base, ``ratio = ε / width``.

    The worst case of Lemma E.4 (Brunn's concavity of ``A(t)^{1/(d−1)}``).
    """
    d = check_positive_int(d, "d")
    ratio = check_real(ratio, "ratio", low=0.0, high=1.0)
    return float(1.0 - (1.0 - ratio) ** d)


def _to_width(V: np.ndarray, width: float) -> np.ndarray:
    V = V - V.mean(axis=0)
    return V * np.r_[width / np.ptp(V[:, 0]), np.ones(V.shape[1] - 1)]


def _cone(d: int, width: float) -> np.ndarray:
    """Apex at ``x_1 = 0``, base (a segment or an equilateral triangle) at ``x_1 = width``."""
    if d == 2:
        base = np.array([[1.0], [-1.0]])
    else:
        ang = 2 * np.pi * np.arange(3) / 3
        base = np.c_[np.cos(ang), np.sin(ang)]
    return np.vstack([np.zeros(d), np.c_[np.full(len(base), width), base]])


def lemma_e4_probe(
    d: int,
    seed=None,
    *,
    n_restarts: int = 3,
    n_steps: int = 60,
    n_vertices: int = 6,
    family: str = "all",
) -> dict:
    """Largest share of a polytope of width ``8dε`` in a strip of width ``ε`` (Lemma E.4).

    Parameters
    ----------
    d : int
        Dimension, 2 or 3 (exact volumes).
    seed : int or numpy.random.Generator, optional
        The random polytopes and the hill climb's moves.
    n_restarts, n_steps : int
        Random starting polytopes, and hill-climb moves from each (a Gaussian move of one
        vertex, rescaled to width ``8dε``, kept when the worst share grows).
    n_vertices : int
        Points per random polytope.
    family : {"all", "cone", "random"}
        Which polytopes to probe: the cone with its base at the top (the analytic worst case),
        the hill-climbed random ones, or both.

    Returns
    -------
    dict
        ``fraction`` (the largest share found, ``ε = 1``, width ``8d``), ``cone`` (the cone's),
        ``random`` (the best hill-climbed polytope's; ``nan`` if not probed) and ``V`` (the
        polytope attaining ``fraction``).
    """
    d = check_positive_int(d, "d", minimum=2)
    if d > 3:
        raise ValueError(f"d must be 2 or 3 (exact volumes); got {d}")
    n_restarts = check_positive_int(n_restarts, "n_restarts")
    n_steps = check_positive_int(n_steps, "n_steps", minimum=0)
    n_vertices = check_positive_int(n_vertices, "n_vertices", minimum=d + 1)
    family = check_in(family, "family", ("all", "cone", "random"))
    rng = as_generator(seed)
    width = 8.0 * d
    best_V, cone, rand = None, np.nan, np.nan
    if family in ("all", "cone"):
        best_V = _cone(d, width)
        cone = worst_strip_fraction(best_V, 1.0)[0]
    if family in ("all", "random"):
        for _ in range(n_restarts):
            V = _to_width(rng.standard_normal((n_vertices, d)), width)
            f = worst_strip_fraction(V, 1.0)[0]
            for _ in range(n_steps):
                W = V.copy()
                W[rng.integers(n_vertices)] += (
                    rng.standard_normal(d) * np.r_[width / 4, np.ones(d - 1)]
                )
                W = _to_width(W, width)
                try:
                    g = worst_strip_fraction(W, 1.0)[0]
                except (ValueError, QhullError):
                    continue
                if g > f:
                    V, f = W, g
            if not f <= rand:  # first restart, or a better one
                rand, rand_V = f, V
        if best_V is None or rand > cone:
            best_V = rand_V
    return {"fraction": float(np.nanmax([cone, rand])), "cone": cone, "random": rand, "V": best_V}


def lemma_e4_slack(d: int) -> float:
    """Smallest ``c`` at which a width of ``c·d·ε`` still keeps every strip ``<= 1/4``.

    Found on the worst case, the cone with its base in the strip (exact volumes of
    :func:`worst_strip_fraction`, bisection on ``c``); Lemma E.4 assumes ``c = 8``, so ``8/c``
    is the slack of its constant.
    """
    d = check_positive_int(d, "d", minimum=2)
    if d > 3:
        raise ValueError(f"d must be 2 or 3 (exact volumes); got {d}")

    def excess(c: float) -> float:
        return worst_strip_fraction(_cone(d, c * d), 1.0)[0] - 0.25

    return float(brentq(excess, 1.0, 8.0, xtol=1e-6))
