"""Compiled hit-and-run on ``K + zB_d``, ``K = rB_d ∩ {v : Av <= 0}`` (numba).

The same chain as
:meth:`~mlgeom.multiscale.contextual_search.BallKnowledgeSet.minkowski_hit_and_run` (the
NumPy reference): per step a direction ``Lg/‖Lg‖`` (``g`` standard normal, ``L`` a fixed
factor), the chord of the outer set ``(r + z)B_d ∩ {⟨a_j, v⟩ <= z‖a_j‖}`` through the point,
and uniform draws on it shrunk towards the point until one lies in ``K + zB_d``
(``dist(v, K) <= z``, at most ``max_shrink`` draws, after which the point stays put). The law of
every step is that of the reference; the draws are taken point by point (the reference draws
them step by step for all points at once), so the two give different, equally distributed
chains from one generator.

Where the time goes in the reference (``d = 5``): the membership tests, each a projection onto
``K`` through vectorised NumPy shortcuts and a SciPy NNLS call per hard point. Here each test
is a loop of a few flops: the products ``Av`` are carried along the chord
(``A(y + tu) = Ay + tAu``, two products per step instead of one per draw), a point of the cone
is its own projection, and the others are projected by a Lawson–Hanson active-set solve of
``min_{λ>=0} ‖v − Aᵀλ‖`` on the Gram matrix ``AAᵀ`` (Cholesky of the passive block, at most
``d`` cuts). When that solve meets a singular passive block or runs out of iterations, the
kernel stops and reports it; the caller then falls back to the reference.
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__ = ["sum_hit_and_run", "sum_membership", "warm_up"]

_OK, _FAILED = 0, 1


@numba.njit(cache=True)
def _cholesky_solve(M, rhs):
    """Solve ``Ms = rhs`` for a small SPD ``M`` by Cholesky; ``(s, ok)``."""
    k = M.shape[0]
    Lc = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1):
            s = M[i, j]
            for q in range(j):
                s -= Lc[i, q] * Lc[j, q]
            if i == j:
                if s <= 1e-13 * M[i, i]:
                    return rhs, False
                Lc[i, i] = math.sqrt(s)
            else:
                Lc[i, j] = s / Lc[j, j]
    y = np.empty(k)
    for i in range(k):
        s = rhs[i]
        for q in range(i):
            s -= Lc[i, q] * y[q]
        y[i] = s / Lc[i, i]
    x = np.empty(k)
    for i in range(k - 1, -1, -1):
        s = y[i]
        for q in range(i + 1, k):
            s -= Lc[q, i] * x[q]
        x[i] = s / Lc[i, i]
    return x, True


@numba.njit(cache=True)
def _cone_multipliers(G, c, tolw, maxiter):
    """Lawson–Hanson NNLS ``min_{λ>=0} ½λᵀGλ − cᵀλ`` (``G = AAᵀ``, ``c = Av``); ``(λ, ok)``.

    ``v − Aᵀλ`` is then the projection of ``v`` onto ``{Av <= 0}`` (Moreau). An index whose
    first solve gives it a non-positive multiplier (rounding) is barred from re-entering.
    """
    m = c.shape[0]
    lam = np.zeros(m)
    passive = np.zeros(m, dtype=np.bool_)
    barred = np.zeros(m, dtype=np.bool_)
    w = c.copy()
    it = 0
    while True:
        jb = -1
        wb = 0.0
        for j in range(m):
            if not passive[j] and not barred[j] and w[j] > tolw[j] and w[j] > wb:
                jb, wb = j, w[j]
        if jb < 0:
            return lam, True
        passive[jb] = True
        first = True
        while True:
            it += 1
            if it > maxiter:
                return lam, False
            k = 0
            for j in range(m):
                if passive[j]:
                    k += 1
            idx = np.empty(k, dtype=np.int64)
            k = 0
            for j in range(m):
                if passive[j]:
                    idx[k] = j
                    k += 1
            M = np.empty((k, k))
            rhs = np.empty(k)
            for a in range(k):
                rhs[a] = c[idx[a]]
                for b in range(k):
                    M[a, b] = G[idx[a], idx[b]]
            s, ok = _cholesky_solve(M, rhs)
            if not ok:
                return lam, False
            pos = True
            for a in range(k):
                if s[a] <= 0.0:
                    pos = False
            if pos:
                for a in range(k):
                    lam[idx[a]] = s[a]
                break
            if first:  # the entering index itself: rounding, bar it and keep the rest
                for a in range(k):
                    if idx[a] == jb and s[a] <= 0.0:
                        passive[jb] = False
                        barred[jb] = True
                if barred[jb]:
                    break
            first = False
            alpha = 1.0
            arg = -1
            for a in range(k):
                if s[a] <= 0.0:
                    la = lam[idx[a]]
                    r = la / (la - s[a])
                    if r < alpha:
                        alpha, arg = r, a
            for a in range(k):
                lam[idx[a]] += alpha * (s[a] - lam[idx[a]])
            for a in range(k):
                if a == arg or lam[idx[a]] <= 0.0:
                    lam[idx[a]] = 0.0
                    passive[idx[a]] = False
        for j in range(m):
            s0 = c[j]
            for q in range(m):
                s0 -= G[j, q] * lam[q]
            w[j] = s0


@numba.njit(cache=True)
def _member(x, Ax, A, G, norms, r, z, maxiter):
    """``dist(x, rB ∩ {Av <= 0}) <= z``: ``(inside, used_nnls, ok)``."""
    d = x.shape[0]
    m = A.shape[0]
    xx = 0.0
    for q in range(d):
        xx += x[q] * x[q]
    if xx <= z * z:  # 0 ∈ K
        return True, False, True
    nx = math.sqrt(xx)
    tolw = np.empty(m)
    inC = True
    for j in range(m):
        tolw[j] = 1e-12 * norms[j] * nx
        if Ax[j] > tolw[j]:
            inC = False
    p = x.copy()
    used = False
    if not inC:
        lam, ok = _cone_multipliers(G, Ax, tolw, maxiter)
        if not ok:
            return False, True, False
        used = True
        for j in range(m):
            if lam[j] != 0.0:
                for q in range(d):
                    p[q] -= lam[j] * A[j, q]
    pp = 0.0
    for q in range(d):
        pp += p[q] * p[q]
    scale = 1.0
    if pp > r * r:
        scale = r / math.sqrt(pp)
    dist2 = 0.0
    for q in range(d):
        e = x[q] - scale * p[q]
        dist2 += e * e
    return math.sqrt(dist2) <= z * (1.0 + 1e-12), used, True


@numba.njit(cache=True)
def _membership_kernel(X, A, r, z, maxiter):
    n, d = X.shape
    m = A.shape[0]
    G = A @ A.T if m else np.zeros((0, 0))
    norms = np.empty(m)
    for j in range(m):
        norms[j] = math.sqrt(G[j, j])
    out = np.zeros(n, dtype=np.bool_)
    n_nnls = 0
    for i in range(n):
        Ax = A @ X[i] if m else np.zeros(0)
        inside, used, ok = _member(X[i], Ax, A, G, norms, r, z, maxiter)
        if not ok:
            return out, n_nnls, _FAILED
        out[i] = inside
        n_nnls += used
    return out, n_nnls, _OK


@numba.njit(cache=True)
def _steps_kernel(Y, L, A, r, z, n_steps, max_shrink, maxiter, gen):
    """``n_steps`` hit-and-run steps of every row of ``Y`` (in place); work counts, status."""
    n, d = Y.shape
    m = A.shape[0]
    G = A @ A.T if m else np.zeros((0, 0))
    norms = np.empty(m)
    for j in range(m):
        norms[j] = math.sqrt(G[j, j])
    R = r + z
    n_tests = 0
    n_nnls = 0
    g = np.empty(d)
    u = np.empty(d)
    x = np.empty(d)
    Au = np.empty(m)
    Ax = np.empty(m)
    for i in range(n):
        y = Y[i]
        Ay = A @ y if m else np.zeros(0)
        for _ in range(n_steps):
            for q in range(d):
                g[q] = gen.standard_normal()
            nu = 0.0
            for q in range(d):
                s = 0.0
                for k in range(q + 1):
                    s += L[q, k] * g[k]
                u[q] = s
                nu += s * s
            nu = math.sqrt(nu)
            xu = 0.0
            yy = 0.0
            for q in range(d):
                u[q] /= nu
                xu += y[q] * u[q]
                yy += y[q] * y[q]
            disc = math.sqrt(max(xu * xu - (yy - R * R), 0.0))
            lo, hi = -xu - disc, -xu + disc
            for j in range(m):
                s = 0.0
                for q in range(d):
                    s += A[j, q] * u[q]
                Au[j] = s
                off = z * norms[j]
                if s > 0.0:
                    hi = min(hi, (off - Ay[j]) / s)
                elif s < 0.0:
                    lo = max(lo, (off - Ay[j]) / s)
            hi = max(hi, lo)
            lo, hi = min(lo, 0.0), max(hi, 0.0)
            for _k in range(max_shrink):
                t = lo + (hi - lo) * gen.random()
                for q in range(d):
                    x[q] = y[q] + t * u[q]
                for j in range(m):
                    Ax[j] = Ay[j] + t * Au[j]
                inside, used, ok = _member(x, Ax, A, G, norms, r, z, maxiter)
                n_tests += 1
                n_nnls += used
                if not ok:
                    return n_tests, n_nnls, _FAILED
                if inside:
                    for q in range(d):
                        y[q] = x[q]
                    for j in range(m):
                        Ay[j] = Ax[j]
                    break
                if t > 0:
                    hi = t
                else:
                    lo = t
    return n_tests, n_nnls, _OK


def _maxiter(m: int) -> int:
    return 100 * max(m, 10)


def sum_membership(
    X: np.ndarray, A: np.ndarray, r: float, z: float
) -> tuple[np.ndarray, int, bool]:
    """Membership of the rows of ``X`` in ``rB_d ∩ {Av <= 0} + zB_d``, compiled.

    Parameters
    ----------
    X : numpy.ndarray of shape (n, d)
        Points.
    A : numpy.ndarray of shape (m, d)
        Cut normals (cuts through the origin).
    r : float
        Radius of the ball.
    z : float
        Radius of the added ball.

    Returns
    -------
    (inside, n_nnls, ok) : tuple of (numpy.ndarray of bool, int, bool)
        Membership; how many points needed an active-set solve; ``False`` when a solve failed
        (singular passive block or too many iterations: use the reference projection).
    """
    X = np.ascontiguousarray(X, dtype=float)
    A = np.ascontiguousarray(A, dtype=float).reshape(-1, X.shape[1])
    out, n_nnls, status = _membership_kernel(X, A, float(r), float(z), _maxiter(len(A)))
    return out, int(n_nnls), status == _OK


def sum_hit_and_run(
    Y: np.ndarray,
    L: np.ndarray,
    A: np.ndarray,
    r: float,
    z: float,
    n_steps: int,
    rng: np.random.Generator,
    max_shrink: int = 64,
) -> tuple[int, int, bool]:
    """Move the rows of ``Y`` (in place) by ``n_steps`` hit-and-run steps on ``K + zB_d``.

    Parameters
    ----------
    Y : numpy.ndarray of shape (n, d)
        C-contiguous float array of starting points (points outside ``K + zB_d`` stay put).
    L : numpy.ndarray of shape (d, d)
        Lower-triangular factor of the direction law (``u = Lg/‖Lg‖``).
    A : numpy.ndarray of shape (m, d)
        Cut normals of ``K = rB_d ∩ {Av <= 0}``.
    r, z : float
        Radius of the ball of ``K`` and of the added ball.
    n_steps : int
        Steps per point.
    rng : numpy.random.Generator
        Source of the draws (advanced in place).
    max_shrink : int, default=64
        Draws per step before the point stays put.

    Returns
    -------
    (n_tests, n_nnls, ok) : tuple of (int, int, bool)
        Membership tests, active-set solves, and ``False`` when a solve failed (``Y`` is then
        partly moved: the caller restarts from a copy with the reference).
    """
    A = np.ascontiguousarray(A, dtype=float).reshape(-1, Y.shape[1])
    L = np.ascontiguousarray(np.tril(L), dtype=float)
    n_tests, n_nnls, status = _steps_kernel(
        Y, L, A, float(r), float(z), int(n_steps), int(max_shrink), _maxiter(len(A)), rng
    )
    return int(n_tests), int(n_nnls), status == _OK


def warm_up() -> None:
    """Load (or compile) the kernels once, so that timings exclude numba's start-up."""
    A = np.array([[0.0, 0.0, -1.0]])
    Y = np.array([[0.0, 0.0, 0.5], [0.1, 0.0, 0.2]])
    sum_membership(Y, A, 1.0, 0.1)
    sum_hit_and_run(Y, np.eye(3), A, 1.0, 0.1, 1, np.random.default_rng(0))
