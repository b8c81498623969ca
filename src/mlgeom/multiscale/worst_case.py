"""Worst cases of Lemma E.2 and Claim 28 (Guruganesh et al. 2021, Appendix E.3.1), by optimisation.

Random points almost never probe Lemma E.2 where it is tight. Per coordinate, the proof of
Lemma E.2 applies Claim 28 with ``x = (y_j − z_j)/2`` and ``x′ = y_j/2 − c_jδ_i``, so
``x′ − x = z_j/2 − c_jδ_i ∈ [0, δ_i)``; the error of coordinate ``j`` is the Taylor remainder
of ``|x|^p`` at ``x′`` to order ``⌊p⌋``. Far from 0 that remainder is
``O(|x′|^{p−⌊p⌋−1}δ_i^{⌊p⌋+1})``, far below ``(pδ_i)^p``; it is largest where ``|x| ≲ δ_i``,
i.e. in the band ``|y_j − z_j| < 2δ_i``.

The remainder is homogeneous of degree ``p`` (``x, x′ → λx, λx′``), so with ``x = δ_i u`` and
``x′ = δ_i (u + s)``, ``s ∈ [0, 1)``, the error of one coordinate is ``δ_i^p E(u, s)`` and its
ratio to the per-coordinate bound ``(pδ_i)^p`` is ``E(u, s)/p^p``, whatever ``i``. A point
``(y, z)`` with every coordinate at the same ``(u, s)`` attains ``d`` times that error, i.e. the
same ratio to ``d(pδ_i)^p``; no point does better, so the supremum of the lemma's ratio over
``B_d × B_d`` is ``sup E/p^p``. :func:`lemma_e2_worst_case` maximises ``E/p^p`` (scipy's L-BFGS-B
from many starts, half of them in the band ``|u| < 1``, plus a grid over the band), maps the
maximiser back to a point ``(y, z)`` at scale ``i`` (``c_j = 0``: ``z_j = 2sδ_i``,
``y_j = 2(u + s)δ_i``) and re-evaluates Lemma E.2 there in 60-digit arithmetic
(:func:`~mlgeom.multiscale.kernel_maps.lemma_e2_error_exact`).

:func:`holder_step_worst_case` and :func:`claim28_worst_case` do the same for the proof of
Claim 28: its step ``|sign(y)^n|y|^a − sign(x′)^n|x′|^a| <= |y − x′|^a`` (``n = ⌊p⌋``,
``a = p − n``) and its conclusion ``|remainder| <= (p|x − x′|)^p``.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
from scipy.optimize import minimize

from mlgeom._validation import check_int_vector, check_not_complex, check_positive_int, check_real
from mlgeom.multiscale import kernel_maps as km
from mlgeom.random import as_generator

__all__ = [
    "claim28_constant",
    "claim28_remainder",
    "claim28_worst_case",
    "holder_step_ratio",
    "holder_step_worst_case",
    "lemma_e2_worst_case",
]


def _p(p) -> float:
    return check_real(p, "p", low=1.0, low_inclusive=False)


def _reals(x, name: str) -> np.ndarray:
    check_not_complex(x, name)
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real number or a numeric array; got {x!r:.60}") from exc
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite; got {x!r:.60}")
    return arr


def _together(**arrays: np.ndarray) -> list[np.ndarray]:
    """Broadcast the arrays together, or raise ``ValueError`` naming them and their shapes."""
    try:
        return np.broadcast_arrays(*arrays.values())
    except ValueError:
        shapes = ", ".join(f"{k} {a.shape}" for k, a in arrays.items())
        raise ValueError(
            f"{' and '.join(arrays)} must be numbers or arrays that broadcast together; got "
            f"shapes {shapes}"
        ) from None


def claim28_remainder(x, xp, p: float) -> np.ndarray:
    """Taylor remainder of Claim 28: ``|x|^p − Σ_{k<=⌊p⌋} C_k (x − x′)^k sign(x′)^k |x′|^{p−k}``.

    ``C_k = p(p−1)…(p−k+1)/k!``; vectorised over ``x`` and ``xp`` (float arithmetic: use it
    where the terms are of the size of the result, as in the scaled variables of this module).

    Examples
    --------
    >>> float(claim28_remainder(0.3, 0.3, 2.5))  # expansion at the point itself
    0.0
    >>> float(claim28_remainder(-0.5, 0.5, 3.0))  # |x|^3 is not a cubic across 0
    0.25
    """
    p = _p(p)
    x, xp = _together(x=_reals(x, "x"), xp=_reals(xp, "xp"))
    D = km.D_map(xp, p)  # sign(x′)^k |x′|^{p−k}, k = 0..⌊p⌋ (Definition 23)
    k = np.arange(km.p_prime(p))
    terms = km._taylor_coefficients(p) * (x - xp)[..., None] ** k * D
    return np.abs(x) ** p - terms.sum(axis=-1)


def holder_step_ratio(y, xp, p: float) -> np.ndarray:
    """Ratio of the two sides of the Hölder step in the proof of Claim 28.

    ``|sign(y)^n |y|^a − sign(x′)^n |x′|^a| / |y − x′|^a`` with ``n = ⌊p⌋``, ``a = p − n``
    (the proof prints ``<= 1``, "since ``p − ⌊p⌋ < 1``"). ``sign(0) = 0`` (Definition 22);
    ``|y − x′|^0 = 1``. Undefined (NaN) where ``y = x′``.

    Examples
    --------
    >>> round(float(holder_step_ratio(-0.5, 0.5, 3.5)), 6)  # odd ⌊p⌋: 2/2^{1/2}
    1.414214
    >>> float(holder_step_ratio(0.5, 0.2, 2.5)) < 1  # even ⌊p⌋: subadditivity of t^a
    True
    """
    p = _p(p)
    y, xp = _together(y=_reals(y, "y"), xp=_reals(xp, "xp"))
    n = math.floor(p)
    a = p - n
    f = lambda t: np.sign(t) ** n * np.abs(t) ** a  # noqa: E731
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.abs(f(y) - f(xp)) / np.abs(y - xp) ** a
    return np.where(y == xp, np.nan, out)


def claim28_constant(p: float) -> float:
    """Return ``C`` with ``|remainder| <= C (p|x − x′|)^p`` from the proof of Claim 28, repaired.

    The proof bounds ``⌊p⌋`` nested integrals of ``|h(y) − h(x′)|``, ``h(y) = sign(y)^n|y|^a``
    (``n = ⌊p⌋``, ``a = p − n``). With the sharp Hölder constant ``H`` of ``h`` (``1`` for even
    ``n``, ``2^{1−a}`` for odd ``n``, see :func:`holder_step_ratio`) and the nested integrals
    ``∫…∫|y − x′|^a = |x − x′|^p/((a+1)(a+2)…(a+n))`` (which the proof drops), the remainder is
    at most ``p(p−1)…(p−n+1) H/((a+1)…(a+n)) |x − x′|^p``; this returns that factor over
    ``p^p``. Claim 28 holds when it is ``<= 1``.

    Examples
    --------
    >>> round(claim28_constant(3.0), 6)  # 3!·2/3!/27 = 2/27
    0.074074
    >>> claim28_constant(1.2) > 1  # below p = 2 the argument no longer gives Claim 28
    True
    """
    p = _p(p)
    n = math.floor(p)
    a = p - n
    h = 2.0 ** (1.0 - a) if n % 2 else 1.0
    falling = math.prod(p - j for j in range(n))
    return falling * h / math.prod(a + j for j in range(1, n + 1)) / p**p


def _maximise(vfun, lo, hi, starts, grid) -> tuple[float, np.ndarray]:
    """Largest ``vfun`` (vectorised over rows) over the box: a grid, then L-BFGS-B runs."""
    vals = vfun(grid)
    vals = np.where(np.isfinite(vals), vals, -np.inf)
    best = int(np.argmax(vals))
    best_x, best_v = grid[best], float(vals[best])
    bounds = list(zip(lo, hi, strict=True))
    top = grid[np.argsort(vals)[-8:]]  # polish the best grid points too
    for x0 in np.vstack([starts, top]):
        res = minimize(lambda v: -float(vfun(v[None, :])[0]), x0, method="L-BFGS-B", bounds=bounds)
        v = float(-res.fun)
        if np.isfinite(v) and v > best_v:
            best_v, best_x = v, np.asarray(res.x, dtype=float)
    # the maxima sit on kinks (x′ crossing 0): polish the best point without gradients
    res = minimize(
        lambda v: -float(vfun(v[None, :])[0]),
        best_x,
        method="Nelder-Mead",
        bounds=bounds,
        options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 2000},
    )
    if np.isfinite(res.fun) and -res.fun > best_v:
        best_v, best_x = float(-res.fun), np.asarray(res.x, dtype=float)
    return best_v, best_x


def _e2_scaled(v: np.ndarray, p: float) -> np.ndarray:
    u, s = v[:, 0], v[:, 1]
    return np.abs(claim28_remainder(u, u + s, p)) / p**p


def lemma_e2_worst_case(
    p: float, scales=(1, 2, 3, 4), d: int = 2, *, seed=None, n_starts: int = 40, n_grid: int = 81
) -> dict:
    """Worst case of Lemma E.2, ``|⟨G_i(y), H_i(z)⟩ − ‖(y − z)/2‖_p^p| / d(pδ_i)^p``.

    Parameters
    ----------
    p : float
        Exponent (``p > 1``; the paper's Appendix E.3 assumes ``p > 2``).
    scales : sequence of int, default=(1, 2, 3, 4)
        Scales ``i`` at which the maximiser is re-evaluated exactly.
    d : int, default=2
        Dimension of the point ``(y, z)`` built from the maximiser.
    seed : int or numpy.random.Generator, optional
        Draws the optimiser's starting points.
    n_starts : int, default=40
        L-BFGS-B starts (half with ``|u| < 1``, the band ``|y_j − z_j| < 2δ_i``; half with
        ``|u| < 4``).
    n_grid : int, default=81
        Grid points per axis over the band (``u ∈ [−1, 1]``, ``s ∈ [0, 1)``).

    Returns
    -------
    dict
        ``ratio``: the largest ``E(u, s)/p^p`` found (float); ``u``, ``s``: the maximiser;
        ``exact``: per scale ``i``, the ratio re-evaluated in 60-digit arithmetic at the point
        ``(y, z)`` of ``B_d`` built from it; ``y``, ``z``: that point at the first scale.
    """
    p = _p(p)
    d = check_positive_int(d, "d")
    n_starts = check_positive_int(n_starts, "n_starts")
    n_grid = check_positive_int(n_grid, "n_grid", minimum=2)
    scales = [int(i) for i in check_int_vector(scales, "scales", minimum=1)]
    rng = as_generator(seed)
    s_hi = 1.0 - 1e-9  # s < 1 (the floor in Definition 26)
    width = np.where(np.arange(n_starts) < n_starts // 2, 1.0, 4.0)
    starts = np.column_stack([rng.uniform(-width, width), rng.uniform(0.0, s_hi, size=n_starts)])
    gu, gs = np.meshgrid(np.linspace(-1.0, 1.0, n_grid), np.linspace(0.0, s_hi, n_grid))
    grid = np.column_stack([gu.ravel(), gs.ravel()])
    ratio, (u, s) = _maximise(lambda v: _e2_scaled(v, p), [-4.0, 0.0], [4.0, s_hi], starts, grid)
    exact, first = {}, None
    for i in scales:
        dl = km.delta_i(i, d, p)
        y = np.full(d, 2.0 * (u + s) * dl)
        z = np.full(d, 2.0 * s * dl)
        err = km.lemma_e2_error_exact(y, z, i, p)
        with localcontext() as ctx:
            ctx.prec = 60
            P = Decimal(repr(p))
            bound = d * (P / (100 * d * d * km.p_prime(p) * 2**i)) ** P  # d (p δ_i)^p
            exact[i] = float(err / bound)
        if first is None:
            first = (y, z)
    return {
        "ratio": ratio,
        "u": float(u),
        "s": float(s),
        "exact": exact,
        "y": first[0],
        "z": first[1],
    }


def _exact_holder(y: float, xp: float, p: float) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        P = Decimal(repr(p))
        n = math.floor(p)
        a = P - n
        Y, X = Decimal(repr(y)), Decimal(repr(xp))

        def f(t):
            sg = (t > 0) - (t < 0)
            return Decimal(sg**n) * (abs(t) ** a if t != 0 else Decimal(0))

        den = abs(Y - X) ** a if a != 0 else Decimal(1)
        return float(abs(f(Y) - f(X)) / den)


def _exact_remainder_ratio(x: float, xp: float, p: float) -> float:
    # The terms are of size max(|x|, |x′|)^p and the remainder may be as small as (p|x − x′|)^p
    # times the ratio: keep 60 digits beyond the ones that cancel between them.
    scale, gap = max(abs(x), abs(xp)), abs(x - xp)
    lost = p * math.log10(scale / (p * gap)) if scale > 0 and gap > 0 else 0.0
    with localcontext() as ctx:
        ctx.prec = 60 + max(0, math.ceil(lost))
        P = Decimal(repr(p))
        X, XP = Decimal(repr(x)), Decimal(repr(xp))
        sg = (XP > 0) - (XP < 0)
        total, coef = Decimal(0), Decimal(1)
        for k in range(km.p_prime(p)):
            if k:
                coef = coef * (P - k + 1) / k
            mag = abs(XP) ** (P - k) if XP != 0 else Decimal(int(P == k))
            total += coef * ((X - XP) ** k if k else Decimal(1)) * Decimal(sg**k) * mag
        lhs = (abs(X) ** P if X != 0 else Decimal(0)) - total
        return float(abs(lhs) / (P * abs(X - XP)) ** P)


def _pair_search(fun, exact, seed, n_starts, n_grid) -> dict:
    n_starts = check_positive_int(n_starts, "n_starts")
    n_grid = check_positive_int(n_grid, "n_grid", minimum=2)
    rng = as_generator(seed)
    starts = rng.uniform(-1.0, 1.0, size=(n_starts, 2))
    g = np.linspace(-1.0, 1.0, n_grid)
    gx, gy = np.meshgrid(g, g)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    grid = grid[grid[:, 0] != grid[:, 1]]
    ratio, (a, b) = _maximise(fun, [-1.0, -1.0], [1.0, 1.0], starts, grid)
    return {"ratio": ratio, "x": float(a), "xp": float(b), "exact": exact(float(a), float(b))}


def holder_step_worst_case(p: float, *, seed=None, n_starts: int = 40, n_grid: int = 81) -> dict:
    """Largest :func:`holder_step_ratio` over ``y, x′ ∈ [−1, 1]`` (grid plus L-BFGS-B starts).

    Returns ``ratio`` (float search), the maximiser ``x`` (= ``y``), ``xp``, and ``exact``: the
    ratio there in 60-digit arithmetic. The sharp value is ``1`` for even ``⌊p⌋`` and
    ``2^{1−a}`` for odd ``⌊p⌋`` (at ``y = −x′``).
    """
    p = _p(p)

    def fun(v):
        r = holder_step_ratio(v[:, 0], v[:, 1], p)
        return np.where(np.isfinite(r), r, -np.inf)

    return _pair_search(fun, lambda a, b: _exact_holder(a, b, p), seed, n_starts, n_grid)


# The float remainder is trusted where it is above this share of its terms' size: their
# rounding is at most about 32 ulp of that size for p <= 6 (the sum of the |C_k|).
_TRUSTED = 1e-10


def claim28_worst_case(p: float, *, seed=None, n_starts: int = 40, n_grid: int = 81) -> dict:
    """Largest ``|remainder| / (p|x − x′|)^p`` of Claim 28 over ``x, x′ ∈ [−1, 1]``.

    Same search and return values as :func:`holder_step_worst_case`. In floating point the
    remainder is a difference of terms of size ``max(|x|, |x′|)^p``, so where ``x′`` nearly equals
    ``x`` its computed value is rounding noise and the ratio can reach ``10^40``; the search scores
    points whose remainder is below ``10^{-10}`` of that size as 0 (their ratio is
    ``O((|x − x′|/|x′|)^{⌊p⌋+1−p})``, small, since ``⌊p⌋ + 1 > p``), and the exact ratio keeps 60
    digits beyond those that cancel.
    """
    p = _p(p)

    def fun(v):
        gap = np.abs(v[:, 0] - v[:, 1])
        rem = np.abs(claim28_remainder(v[:, 0], v[:, 1], p))
        size = np.maximum(np.abs(v[:, 0]), np.abs(v[:, 1])) ** p
        with np.errstate(divide="ignore", invalid="ignore"):
            r = rem / (p * gap) ** p
        return np.where((gap > 0) & (rem > _TRUSTED * size), r, 0.0)

    return _pair_search(fun, lambda a, b: _exact_remainder_ratio(a, b, p), seed, n_starts, n_grid)
