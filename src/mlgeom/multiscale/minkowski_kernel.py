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
``min_{λ>=0} ‖v − Aᵀλ‖`` on the Gram matrix ``AAᵀ`` (a Cholesky factor of the passive block,
at most ``d`` cuts, grown by one row as a cut enters). When that solve meets a singular passive
block or runs out of iterations, the kernel stops and reports it; the caller then falls back to
the reference. All scratch arrays are allocated once per call, the small helpers are inlined,
and one call runs a pool's whole schedule (:func:`pool_hit_and_run`).
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__ = ["pool_hit_and_run", "sum_hit_and_run", "sum_membership", "warm_up"]

_OK, _FAILED = 0, 1


@numba.njit(cache=True, inline="always")
def _append_row(G, idx, k, Lc):
    """Extend the Cholesky factor ``Lc`` of ``G[idx[:k], idx[:k]]`` by the cut ``idx[k]``; ``ok``.

    ``False`` when the new pivot is not above ``10^{-13}`` times its diagonal entry (the face
    system is singular to rounding).
    """
    j = idx[k]
    for b in range(k):
        s = G[j, idx[b]]
        for q in range(b):
            s -= Lc[k, q] * Lc[b, q]
        Lc[k, b] = s / Lc[b, b]
    s = G[j, j]
    for q in range(k):
        s -= Lc[k, q] * Lc[k, q]
    if s <= 1e-13 * G[j, j]:
        return False
    Lc[k, k] = math.sqrt(s)
    return True


@numba.njit(cache=True, inline="always")
def _factor_solve(c, idx, k, Lc, y, x):
    """Solve ``G[idx[:k], idx[:k]] x = c[idx[:k]]`` from the factor ``Lc`` into ``x[:k]``."""
    for a in range(k):
        s = c[idx[a]]
        for q in range(a):
            s -= Lc[a, q] * y[q]
        y[a] = s / Lc[a, a]
    for a in range(k - 1, -1, -1):
        s = y[a]
        for q in range(a + 1, k):
            s -= Lc[q, a] * x[q]
        x[a] = s / Lc[a, a]


@numba.njit(cache=True)
def _scratch(m, d):
    """Scratch arrays of :func:`_member` for ``m`` cuts in ``R^d`` (allocated once per call)."""
    return (
        np.zeros(m),  # lam
        np.zeros(m, dtype=np.bool_),  # passive
        np.zeros(m, dtype=np.bool_),  # barred
        np.zeros(m),  # w
        np.zeros(m, dtype=np.int64),  # idx: the passive cuts, in order of entry
        np.zeros((m, m)),  # Lc: Cholesky factor of the passive block
        np.zeros(m),  # y
        np.zeros(m),  # s
        np.zeros(m),  # tolw
        np.zeros(d),  # p
    )


@numba.njit(cache=True, inline="always")
def _cone_multipliers(G, c, tolw, maxiter, lam, passive, barred, w, idx, Lc, yb, s):
    """Lawson–Hanson NNLS ``min_{λ>=0} ½λᵀGλ − cᵀλ`` (``G = AAᵀ``, ``c = Av``) into ``lam``.

    ``v − Aᵀλ`` is then the projection of ``v`` onto ``{Av <= 0}`` (Moreau). An index whose
    first solve gives it a non-positive multiplier (rounding) is barred from re-entering.
    Returns ``False`` on a singular passive block or after ``maxiter`` solves. The other
    arguments are scratch arrays (:func:`_scratch`). The Cholesky factor of the passive block
    is kept across iterations: a cut entering adds one row (``O(k^2)``), and it is rebuilt only
    after cuts leave.
    """
    m = c.shape[0]
    for j in range(m):
        lam[j] = 0.0
        passive[j] = False
        barred[j] = False
        w[j] = c[j]
    k = 0
    it = 0
    while True:
        jb = -1
        wb = 0.0
        for j in range(m):
            if not passive[j] and not barred[j] and w[j] > tolw[j] and w[j] > wb:
                jb, wb = j, w[j]
        if jb < 0:
            return True
        idx[k] = jb
        if not _append_row(G, idx, k, Lc):
            return False
        k += 1
        passive[jb] = True
        first = True
        while True:
            it += 1
            if it > maxiter:
                return False
            _factor_solve(c, idx, k, Lc, yb, s)
            pos = True
            for a in range(k):
                if s[a] <= 0.0:
                    pos = False
            if pos:
                for a in range(k):
                    lam[idx[a]] = s[a]
                break
            if first and s[k - 1] <= 0.0:  # the entering cut itself (rounding): bar it
                passive[jb] = False
                barred[jb] = True
                k -= 1  # it is the factor's last row: the rest of the factor stands
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
            kk = 0
            for a in range(k):
                j = idx[a]
                lam[j] += alpha * (s[a] - lam[j])
                if a == arg or lam[j] <= 0.0:
                    lam[j] = 0.0
                    passive[j] = False
                else:
                    idx[kk] = j
                    kk += 1
            k = kk
            for a in range(k):  # rebuild the factor of the remaining block
                if not _append_row(G, idx, a, Lc):
                    return False
        for j in range(m):
            s0 = c[j]
            for a in range(k):
                s0 -= G[j, idx[a]] * lam[idx[a]]
            w[j] = s0


@numba.njit(cache=True, inline="always")
def _member(x, Ax, A, G, norms, r, z, maxiter, ws):
    """``dist(x, rB ∩ {Av <= 0}) <= z``: ``(inside, used_nnls, ok)`` (``ws``: :func:`_scratch`)."""
    lam, passive, barred, w, idx, Lc, yb, s, tolw, p = ws
    d = x.shape[0]
    m = A.shape[0]
    xx = 0.0
    for q in range(d):
        xx += x[q] * x[q]
    if xx <= z * z:  # 0 ∈ K
        return True, False, True
    nx = math.sqrt(xx)
    inC = True
    for j in range(m):
        tolw[j] = 1e-12 * norms[j] * nx
        if Ax[j] > tolw[j]:
            inC = False
    for q in range(d):
        p[q] = x[q]
    used = False
    if not inC:
        ok = _cone_multipliers(G, Ax, tolw, maxiter, lam, passive, barred, w, idx, Lc, yb, s)
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
    ws = _scratch(m, d)
    for i in range(n):
        Ax = A @ X[i] if m else np.zeros(0)
        inside, used, ok = _member(X[i], Ax, A, G, norms, r, z, maxiter, ws)
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
    Ay = np.empty(m)
    ws = _scratch(m, d)
    for i in range(n):
        y = Y[i]
        for j in range(m):
            s = 0.0
            for q in range(d):
                s += A[j, q] * y[q]
            Ay[j] = s
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
                inside, used, ok = _member(x, Ax, A, G, norms, r, z, maxiter, ws)
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


@numba.njit(cache=True)
def _direction_factor(Y):
    """Cholesky factor of the rows' covariance plus ``10^{-9}`` of its trace (or the identity).

    The compiled twin of :func:`mlgeom.multiscale.contextual_search._direction_factor` (same
    rule; rounding may differ in the last bits): the identity when the trace is not above
    ``10^{-200}`` (the points nearly coincide) or the factorisation fails.
    """
    n, d = Y.shape
    mu = np.zeros(d)
    for i in range(n):
        for a in range(d):
            mu[a] += Y[i, a]
    for a in range(d):
        mu[a] /= n
    S = np.zeros((d, d))
    for i in range(n):
        for a in range(d):
            ea = Y[i, a] - mu[a]
            for b in range(a + 1):
                S[a, b] += ea * (Y[i, b] - mu[b])
    trace = 0.0
    for a in range(d):
        for b in range(a + 1):
            S[a, b] /= n - 1
        trace += S[a, a]
    Lf = np.zeros((d, d))
    if not trace > 1e-200:
        for a in range(d):
            Lf[a, a] = 1.0
        return Lf
    ridge = 1e-9 * trace / d
    for a in range(d):
        S[a, a] += ridge
    for a in range(d):
        for b in range(a + 1):
            s = S[a, b]
            for q in range(b):
                s -= Lf[a, q] * Lf[b, q]
            if a == b:
                if not s > 0.0:  # pragma: no cover - the ridge makes S positive definite
                    Lf[:, :] = 0.0
                    for c in range(d):
                        Lf[c, c] = 1.0
                    return Lf
                Lf[a, a] = math.sqrt(s)
            else:
                Lf[a, b] = s / Lf[b, b]
    return Lf


@numba.njit(cache=True)
def _pool_kernel(Y, A, r, z, n_steps, every, max_shrink, maxiter, gen):
    """``n_steps`` steps of the rows of ``Y``, the direction factor re-estimated every ``every``."""
    n, d = Y.shape
    n_tests = 0
    n_nnls = 0
    done = 0
    while done < n_steps:
        if n > 1:
            L = _direction_factor(Y)
        else:
            L = np.eye(d)
        k = min(every, n_steps - done)
        nt, nn, status = _steps_kernel(Y, L, A, r, z, k, max_shrink, maxiter, gen)
        n_tests += nt
        n_nnls += nn
        if status != _OK:
            return n_tests, n_nnls, status
        done += k
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


def pool_hit_and_run(
    Y: np.ndarray,
    A: np.ndarray,
    r: float,
    z: float,
    n_steps: int,
    rng: np.random.Generator,
    rounding_every: int = 4,
    max_shrink: int = 64,
) -> tuple[int, int, bool]:
    """:func:`sum_hit_and_run` with the direction law re-estimated from ``Y`` along the way.

    Before every block of ``rounding_every`` steps the factor ``L`` is the Cholesky factor of
    the covariance of the rows of ``Y`` (plus ``10^{-9}`` of its trace; the identity for a
    single row or coinciding rows), computed in the kernel: the rule of
    :meth:`~mlgeom.multiscale.contextual_search.BallKnowledgeSet.minkowski_hit_and_run` in one
    compiled call instead of one Python round trip (and a NumPy covariance) per block.

    Parameters
    ----------
    Y : numpy.ndarray of shape (n, d)
        C-contiguous float array of starting points, moved in place.
    A : numpy.ndarray of shape (m, d)
        Cut normals of ``K = rB_d ∩ {Av <= 0}``.
    r, z : float
        Radius of the ball of ``K`` and of the added ball.
    n_steps : int
        Steps per point.
    rng : numpy.random.Generator
        Source of the draws (advanced in place).
    rounding_every : int, default=4
        Steps between re-estimates of the direction factor.
    max_shrink : int, default=64
        Draws per step before the point stays put.

    Returns
    -------
    (n_tests, n_nnls, ok) : tuple of (int, int, bool)
        As :func:`sum_hit_and_run` (``ok`` is ``False`` when a solve failed; ``Y`` is then
        partly moved).
    """
    A = np.ascontiguousarray(A, dtype=float).reshape(-1, Y.shape[1])
    n_tests, n_nnls, status = _pool_kernel(
        Y,
        A,
        float(r),
        float(z),
        int(n_steps),
        int(rounding_every),
        int(max_shrink),
        _maxiter(len(A)),
        rng,
    )
    return int(n_tests), int(n_nnls), status == _OK


def warm_up() -> None:
    """Load (or compile) the kernels once, so that timings exclude numba's start-up."""
    A = np.array([[0.0, 0.0, -1.0]])
    Y = np.array([[0.0, 0.0, 0.5], [0.1, 0.0, 0.2]])
    sum_membership(Y, A, 1.0, 0.1)
    sum_hit_and_run(Y, np.eye(3), A, 1.0, 0.1, 1, np.random.default_rng(0))
    pool_hit_and_run(Y.copy(), A, 1.0, 0.1, 1, np.random.default_rng(0))
