"""Strict separation of cones through the origin (Appendix F, Theorem 33).

Guruganesh et al. (2021), proof of Theorem 4: the adversary keeps two invariants on the conic
hulls ``A`` (label 1) and ``B`` (label 2) of the points played so far, (i) ``A ∩ B = {0}`` and
(ii) ``A′ = A ∩ −A = B′ = {0}``, so that Theorem 33 (Klee) gives a hyperplane through the origin
strictly separating ``A − {0}`` from ``B − {0}``. For finitely many points both are decided by
one least-distance programme: the rows ``s_i`` (``x_i`` signed by its label) admit ``h`` with
``⟨h, s_i⟩ > 0`` for all ``i`` iff ``min ‖h‖ s.t. S h >= 1`` is feasible, and then
``h/‖h‖`` is the max-margin separator, of margin ``1/‖h‖``. The programme is solved as Lawson &
Hanson (1974, Ch. 23) do, by one non-negative least squares (an active-set method; a simplex or
interior-point LP has a ``1e-7`` feasibility tolerance, above the margins that matter here),
refined by rescaling when the margin is small, and the margin is then *recomputed* on the
points, so that a positive value certifies the separation up to the rounding of ``⟨h, x⟩``.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import nnls

from mlgeom._validation import check_matrix, check_positive_int, check_real, check_vector

__all__ = ["appendix_f_invariants", "cone_pointedness", "separation_margin"]


def _ldp(S: np.ndarray) -> np.ndarray | None:
    """Return the unit ``h`` of ``min ‖h‖ s.t. S h >= 1`` (NNLS), ``None`` if infeasible."""
    n, d = S.shape
    E = np.vstack([S.T, np.ones(n)])
    f = np.zeros(d + 1)
    f[-1] = 1.0
    u, _ = nnls(E, f, maxiter=max(50 * n, 1000))
    r = E @ u - f
    if not r[-1] < 0.0:  # residual 0: 0 ∈ conv(rows), the programme is infeasible
        return None
    h = -r[:d] / r[-1]
    nh = float(np.linalg.norm(h))
    return h / nh if np.isfinite(nh) and nh > 0.0 else None


def separation_margin(
    S, n_refine: int = 3, h0=None, scale: float | None = None
) -> tuple[float, np.ndarray | None]:
    """Max-margin unit ``h`` with ``⟨h, s_i⟩ > 0`` for every row, and its certified margin.

    The least-distance programme resolves margins down to about ``sqrt(eps) ≈ 1e-8`` only (its
    residual is of the order of the squared margin), so a small margin is refined: strict
    separation through 0 is invariant under invertible linear maps, and stretching a direction
    ``h`` that nearly separates by ``1/m`` (``M = I + (1/m − 1) h hᵀ``, rows renormalised)
    makes the margin of order one; the programme is solved again and its solution mapped back
    (``M h′``). The best ``h`` is kept, judged by its margin recomputed on the original rows.

    Parameters
    ----------
    S : array_like, shape (n, d)
        Signed points (row ``i`` is ``±x_i``; Appendix F: ``+`` for label 1, ``−`` for label 2).
    n_refine : int, default=3
        Rescaled re-solves while the margin is below ``1e-6``.
    h0 : array_like, shape (d,), optional
        A direction that nearly separates (e.g. the previous round's separator), used when it
        beats the programme's answer and as the first stretch direction.
    scale : float, optional
        The margin expected near ``h0`` (e.g. the previous round's); the stretch is
        ``1/max(|m|, scale)``.

    Returns
    -------
    margin : float
        ``min_i ⟨h, s_i⟩`` recomputed for the unit ``h`` returned: positive certifies that the
        rows lie strictly on one side of the hyperplane ``h^⊥`` through 0 (up to the rounding
        of ``⟨h, s_i⟩``); ``<= 0`` certifies nothing; ``0.0`` with ``h = None`` when the
        programme is infeasible and no ``h0`` is given (0 is in the convex hull of the rows, to
        rounding).
    h : numpy.ndarray or None
        The unit normal found.

    References
    ----------
    Lawson, C. L. and Hanson, R. J. (1974). *Solving Least Squares Problems*, Ch. 23 (LDP).
    """
    S = check_matrix(S, "S")
    n_refine = check_positive_int(n_refine, "n_refine", minimum=0)
    floor = 1e-15
    if scale is not None:
        floor = max(floor, check_real(scale, "scale", low=0.0, low_inclusive=False))
    h, best = _ldp(S), -np.inf
    if h is not None:
        best = float(np.min(S @ h))
    if h0 is not None:
        h0 = check_vector(h0, "h0", size=S.shape[1])
        n0 = float(np.linalg.norm(h0))
        if n0 == 0.0:
            raise ValueError(f"h0 must be non-zero; got {h0.tolist()}")
        m0 = float(np.min(S @ (h0 / n0)))
        if m0 > best:
            h, best = h0 / n0, m0
    if h is None:
        return 0.0, None
    for _ in range(n_refine):
        if best >= 1e-6:
            break
        lam = 1.0 / max(abs(best), floor)
        M = np.eye(S.shape[1]) + (lam - 1.0) * np.outer(h, h)
        S2 = S @ M
        S2 /= np.linalg.norm(S2, axis=1, keepdims=True)
        h2 = _ldp(S2)
        if h2 is None:
            break
        h2 = M @ h2
        h2 /= np.linalg.norm(h2)
        m2 = float(np.min(S @ h2))
        if m2 <= best:
            break
        h, best = h2, m2
    return best, h


def _check_labelled_points(P, labels) -> tuple[np.ndarray, np.ndarray]:
    """``(T, d)`` points with ``T >= 2`` and their ``(T,)`` labels, each 0 or 1."""
    P = check_matrix(P, "P", min_rows=2)
    lab = check_vector(labels, "labels", size=P.shape[0])
    if not np.all((lab == 0) | (lab == 1)):
        raise ValueError(f"labels must be 0 or 1; got {sorted(set(lab.tolist()))}")
    return P, lab


def appendix_f_invariants(P, labels) -> dict:
    """Certified margins of Appendix F's invariants (i) and (ii) after every round.

    Parameters
    ----------
    P : array_like, shape (T, d)
        The points in the order played (Appendix F: ``x_1 = e_1``, ``x_2 = −e_1``, ...).
    labels : array_like, shape (T,)
        ``0`` for label 1, ``1`` for label 2.

    Returns
    -------
    dict
        ``t`` (the rounds ``3 … T``: the prefix ``x_1 … x_t``), ``sep`` (invariant (i): the
        certified margin of the max-margin strict separator through 0 of the prefix, from
        :func:`separation_margin` on the signed points) and ``pointed`` (invariant (ii): the
        smaller of the two cones' pointedness margins, each from :func:`separation_margin` on
        one label's points; ``inf`` for a label with no point yet). A positive margin certifies
        the invariant on that round. While ``sep > 0`` its separator ``h`` certifies (ii) too
        (``pointed`` is then the smaller of ``min_A ⟨h, a⟩`` and ``min_B ⟨−h, b⟩``, at least
        ``sep``); otherwise each cone gets its own programme. Each programme is warm-started
        from the last certified separator of the same set (``h0``, ``scale``), so margins
        below the programme's ``1e-8`` resolution are still found.
    """
    P, lab = _check_labelled_points(P, labels)
    sig = np.where(lab == 0, 1.0, -1.0)
    ts = np.arange(3, P.shape[0] + 1)
    sep, pointed = np.empty(ts.size), np.empty(ts.size)
    warm = [(None, None)] * 3  # the last certified (h, margin) of: signed set, cone A, cone B
    for j, t in enumerate(ts):
        sets = [P[:t] * sig[:t, None]] + [P[:t][lab[:t] == c] for c in (0, 1)]
        m = [np.inf] * 3
        m[0], h = separation_margin(sets[0], h0=warm[0][0], scale=warm[0][1])
        if m[0] > 0:  # a strict separator: each cone is strictly on one side of it
            warm[0] = (h, m[0])
            m[1:] = [float(np.min(sets[i] @ (s * h), initial=np.inf)) for i, s in ((1, 1), (2, -1))]
        else:
            for i in (1, 2):
                if len(sets[i]):
                    m[i], hi = separation_margin(sets[i], h0=warm[i][0], scale=warm[i][1])
                    if m[i] > 0:
                        warm[i] = (hi, m[i])
        sep[j], pointed[j] = m[0], min(m[1], m[2])
    return {"t": ts, "sep": sep, "pointed": pointed}


def cone_pointedness(P, labels) -> dict:
    """Certified pointedness margins of the two labelled cones after every round (invariant (ii)).

    Appendix F, Definition 32: for the 0-cone ``A`` (conic hull of the label-1 points),
    ``A′ = A ∩ −A``; invariant (ii) is ``A′ = B′ = {0}``. For a cone generated by finitely many
    non-zero points this holds iff some ``h`` has ``⟨h, a⟩ > 0`` for every generator (Gordan),
    i.e. iff 0 is not in the convex hull of the unit generators; the largest such margin is that
    distance (LDP duality). Unlike :func:`appendix_f_invariants`, each cone is decided on its own,
    on every round, whatever becomes of invariant (i): the cone that receives the new point gets
    a fresh :func:`separation_margin`, warm-started from its own last certified separator; the
    other cone is unchanged, so its margin is carried over.

    Parameters
    ----------
    P : array_like, shape (T, d)
        The points in the order played.
    labels : array_like, shape (T,)
        ``0`` for label 1 (cone ``A``), ``1`` for label 2 (cone ``B``).

    Returns
    -------
    dict
        ``t`` (the rounds ``3 … T``), ``A`` and ``B`` (each cone's certified margin on the prefix
        ``x_1 … x_t``; ``inf`` while a cone has no point) and ``pointed`` (their minimum). A
        positive margin certifies ``A′ = {0}`` (``B′ = {0}``) up to the rounding of ``⟨h, x⟩``.
    """
    P, lab = _check_labelled_points(P, labels)
    norms = np.linalg.norm(P, axis=1, keepdims=True)
    if np.any(norms == 0):
        i = int(np.flatnonzero(norms[:, 0] == 0)[0])
        raise ValueError(f"P's points must be non-zero (cone generators); row {i} is 0")
    P = P / norms
    ts = np.arange(3, P.shape[0] + 1)
    out = {c: np.empty(ts.size) for c in (0, 1)}
    m = {c: np.inf for c in (0, 1)}
    warm = {c: (None, None) for c in (0, 1)}
    for c in (0, 1):  # the cones of the first two points
        if np.any(lab[:2] == c):
            m[c], h = separation_margin(P[:2][lab[:2] == c])
            if m[c] > 0:
                warm[c] = (h, m[c])
    for j, t in enumerate(ts):
        c = int(lab[t - 1])  # the cone that received x_t
        m[c], h = separation_margin(P[:t][lab[:t] == c], h0=warm[c][0], scale=warm[c][1])
        if m[c] > 0:
            warm[c] = (h, m[c])
        out[0][j], out[1][j] = m[0], m[1]
    return {"t": ts, "A": out[0], "B": out[1], "pointed": np.minimum(out[0], out[1])}
