"""Experiment drivers and query streams of the ``lp_multiscale_kernels`` chapter.

Streams (all seeded): :func:`boundary_stream` (``k = 2``, margins ``|⟨q, w⟩| = t^{-β}`` shrinking
to 0, plus a uniform part), :func:`nn_stream` (``k`` centres, queries pulled towards the
bisector of two random centres), :func:`margin_stream` (every ``|⟨q, w⟩| >= γ``, Theorem 16) and
:func:`appendix_f_stream` (the lower-bound construction of Appendix F).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from mlgeom._validation import (
    check_in,
    check_int_vector,
    check_matrix,
    check_positive_int,
    check_real,
    check_vector,
)
from mlgeom.algorithms.multiclass_perceptron import MulticlassPerceptron, OnlinePerceptron
from mlgeom.multiscale import kernel_maps as km
from mlgeom.multiscale.losses import nn_loss, similarity
from mlgeom.multiscale.partition_learners import HyperplaneLearner, MulticlassLearner
from mlgeom.multiscale.separation import (
    appendix_f_invariants,
    cone_pointedness,
    separation_margin,
)
from mlgeom.random import as_generator

__all__ = [
    "appendix_f_stream",
    "boundary_stream",
    "claim29_box_slack",
    "margin_nn_stream",
    "margin_stream",
    "nn_stream",
    "run_appendix_f",
    "run_binary",
    "run_multiclass",
    "run_multiscale",
    "run_multiscale_multiclass",
    "sampler_check",
    "time_rounds",
    "unit",
]


def unit(rng, d: int) -> np.ndarray:
    """Draw a uniform unit vector of ``R^d``."""
    d = check_positive_int(d, "d")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator; got {type(rng).__name__}")
    g = rng.standard_normal(d)
    return g / np.linalg.norm(g)


def _orth(rng, w):
    u = rng.standard_normal(w.size)
    u -= (u @ w) * w
    return u / np.linalg.norm(u)


def boundary_stream(T: int, d: int, seed=None, beta: float = 0.5, scale: float = 0.1):
    """Draw a ``k = 2`` stream with ``|⟨q_t, w⟩| = scale·t^{-β}`` (margins → 0), ``‖q_t‖ = 1``.

    Sides are random.

    Returns ``(w, Q)`` with ``w`` a unit normal (centres ``x_{1,2} = ±w/2``).
    """
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    beta = check_real(beta, "beta", low=0.0)
    scale = check_real(scale, "scale", low=0.0, high=1.0)
    rng = as_generator(seed)
    w = unit(rng, d)
    m = scale * np.arange(1, T + 1) ** (-beta) * rng.choice([-1.0, 1.0], size=T)
    Q = np.array([mi * w + math.sqrt(1 - mi * mi) * _orth(rng, w) for mi in m])
    return w, Q


def margin_stream(T: int, d: int, gamma: float, seed=None):
    """Draw unit queries with ``|⟨q_t, w⟩| = γ·(1 + Exp)`` capped at 1 (margin ``>= γ``)."""
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, low_inclusive=False)
    rng = as_generator(seed)
    w = unit(rng, d)
    m = np.minimum(gamma * (1 + rng.exponential(size=T)), 1.0) * rng.choice([-1.0, 1.0], size=T)
    Q = np.array([mi * w + math.sqrt(1 - mi * mi) * _orth(rng, w) for mi in m])
    return w, Q


def nn_stream(T: int, k: int, d: int, seed=None, beta: float = 0.5):
    """``k`` centres in ``B_d`` (norm 1/2) and queries near a random pair's bisector.

    Query ``t``: pick a pair ``(i, j)``, a point on its bisector hyperplane near the midpoint,
    pushed off by ``±t^{-β}`` along ``x_i − x_j``; rescaled into ``B_d``.
    """
    T, k = check_positive_int(T, "T"), check_positive_int(k, "k", minimum=2)
    d = check_positive_int(d, "d", minimum=2)
    beta = check_real(beta, "beta")
    rng = as_generator(seed)
    X = np.array([unit(rng, d) / 2 for _ in range(k)])
    Q = np.empty((T, d))
    for t in range(T):
        i, j = rng.choice(k, size=2, replace=False)
        n = (X[i] - X[j]) / np.linalg.norm(X[i] - X[j])
        mid = (X[i] + X[j]) / 2 + 0.3 * _orth(rng, n)
        q = mid + rng.choice([-1, 1]) * (t + 1) ** (-beta) * n
        Q[t] = q / max(1.0, np.linalg.norm(q))
    return X, Q


MAX_MARGIN_TRIES = 100_000
"""Proposals in a row :func:`margin_nn_stream` makes for one query before it gives up."""


def margin_nn_stream(T: int, k: int, d: int, gamma: float, seed=None):
    """``k`` centres (norm 1/2) and queries whose every wrong label costs ``>= γ`` (Theorem 17).

    With the inner-product similarity the loss of predicting ``j`` on a query of true label
    ``r`` is ``⟨q, x_r − x_j⟩``; Theorem 17 assumes every query is ``γ`` away from the regions
    it is not in, read here as ``min_{j ≠ r} ⟨q, x_r − x_j⟩ >= γ`` (the ``k``-class form of
    Theorem 16's ``|⟨q, x_1 − x_2⟩| >= γ``). Query ``t``: a random pair ``(i, j)``, a point on its
    bisector ``⟨q, x_i − x_j⟩ = 0`` near the pair's midpoint, pushed off to the gap
    ``±γ(1 + Exp)`` (capped at 1) along ``x_i − x_j``, rescaled into ``B_d``; redrawn until its
    smallest gap to every other label is ``>= γ``.

    A label ``r`` can be a query's only if every other centre is at least ``γ`` away
    (``⟨q, x_r − x_j⟩ <= ‖x_r − x_j‖`` on ``B_d``). The centres are redrawn (all of them)
    until at least two labels pass that test, so that a stream with margin ``γ`` exists: for
    ``k = 2`` this is exactly ``‖x_1 − x_2‖ >= γ``, without which no query qualifies. Centres
    that pass at once are kept, so the test changes no stream that could be generated before.

    Returns
    -------
    X : numpy.ndarray, shape (k, d)
        The centres.
    Q : numpy.ndarray, shape (T, d)
        The queries, all with margin ``>= γ``.

    Raises
    ------
    RuntimeError
        If :data:`MAX_MARGIN_TRIES` proposals in a row miss the margin (the labels that pass the
        test leave too little room for ``γ``); the message gives the centres' closest pair.
    """
    T, k = check_positive_int(T, "T"), check_positive_int(k, "k", minimum=2)
    d = check_positive_int(d, "d", minimum=2)
    gamma = check_real(gamma, "gamma", low=0.0, high=0.25, low_inclusive=False)
    rng = as_generator(seed)
    while True:
        X = np.array([unit(rng, d) / 2 for _ in range(k)])
        dist = np.linalg.norm(X[:, None, :] - X[None, :, :], axis=2)
        np.fill_diagonal(dist, np.inf)
        if np.count_nonzero(dist.min(axis=1) >= gamma) >= 2:
            break
    Q = np.empty((T, d))
    t = misses = 0
    while t < T:
        if misses >= MAX_MARGIN_TRIES:
            raise RuntimeError(
                f"margin_nn_stream: {misses} proposals in a row missed the margin gamma={gamma} "
                f"(query {t} of {T}; the closest centres are {dist.min():.3g} apart)"
            )
        i, j = rng.choice(k, size=2, replace=False)
        diff = X[i] - X[j]
        n2 = float(diff @ diff)
        mid = (X[i] + X[j]) / 2 + 0.3 * _orth(rng, diff / math.sqrt(n2))
        gap = min(gamma * (1.0 + rng.exponential()), 1.0) * rng.choice([-1.0, 1.0])
        q = mid + gap * diff / n2
        q /= max(1.0, float(np.linalg.norm(q)))
        s = X @ q
        r = int(np.argmax(s))
        if np.delete(s[r] - s, r).min() >= gamma:
            Q[t] = q
            t += 1
            misses = 0
        else:
            misses += 1
    return X, Q


def run_binary(
    w, Q, *, seed=None, alpha=1.0, width_method="cone", perceptron=True, sampler="convolution"
):
    """Cumulative losses of Theorem 8's learner and the Perceptron on one ``k = 2`` stream.

    Loss ``|⟨q, x_1 − x_2⟩|`` on a mistake with ``x_{1,2} = ±w/2`` (Section 3.1).
    ``sampler`` is the learner's guess (:class:`~.contextual_search.ContextualSearch`):
    ``"printed"`` is Algorithm 1's median of the uniform law on ``K_t + z_iB_d``, the default
    ``"convolution"`` its cheaper variant.
    """
    Q = check_matrix(Q, "Q")
    w = check_vector(w, "w", size=Q.shape[1])
    d = Q.shape[1]
    ours = HyperplaneLearner(d, alpha, width_method, seed=seed, sampler=sampler)
    perc = OnlinePerceptron(d) if perceptron else None
    lo, lp, mist, upd = np.zeros(len(Q)), np.zeros(len(Q)), 0, 0
    for t, q in enumerate(Q):
        y = 1 if q @ w >= 0 else 2
        a = ours.assess(q)
        if a["label"] != y:
            lo[t] = abs(q @ w) ** alpha
            mist += 1
        upd += ours.learn(q, y, a["label"])
        if perc is not None:
            if perc.predict(q) != y:
                lp[t] = abs(q @ w) ** alpha
            perc.learn(q, y)
    return {
        "ours": np.cumsum(lo),
        "perceptron": np.cumsum(lp),
        "mistakes": mist,
        "updates": upd,
        "potential": ours.potential,
    }


def run_multiclass(X, Q, *, kind="inner", p=2.0, seed=None, perceptron=True):
    """Theorem 11's learner (inner-product, ``L²`` via Appendix C or even ``p`` via E.2).

    Returns cumulative losses of ours and of the multiclass Perceptron (on the raw queries for
    ``kind="inner"``; on ``Q(q)`` for ``"l2"``; on ``−H(q)`` for ``"even_p"``), the number of
    rounds where ``Mv >= 0`` was infeasible, and the smallest ``min(Mv)``.
    """
    X = check_matrix(X, "X", min_rows=2)
    Q = check_matrix(Q, "Q", n_cols=X.shape[1])
    kind = check_in(kind, "kind", ("inner", "l2", "even_p"))
    p = check_real(p, "p", low=1.0) if kind != "even_p" else km._even_p(p)
    k, d = X.shape
    if kind == "inner":
        fmap, dim, alpha, sim = None, d, 1.0, ("inner", 2.0)
    elif kind == "l2":
        fmap, dim, alpha, sim = km.Q_map, d + 1, 0.5, ("lp", 2.0)
    else:
        pe = int(p)
        fmap, dim, alpha, sim = (lambda q: -km.H_even(q, pe)), (pe + 1) * d, 1.0 / pe, ("lp", pe)
    learner = MulticlassLearner(k, d, alpha, fmap, dim, seed=seed)
    mp = MulticlassPerceptron(k, dim) if perceptron else None
    lo, lp = np.zeros(len(Q)), np.zeros(len(Q))
    for t, q in enumerate(Q):
        r = int(np.argmin(similarity(q, X, *sim)))
        g, _ = learner.step(q, r)
        lo[t] = nn_loss(q, X, g, *sim)
        if mp is not None:
            f = q if fmap is None else fmap(q)
            lp[t] = nn_loss(q, X, mp.predict(f), *sim)
            mp.learn(f, r)
    return {
        "ours": np.cumsum(lo),
        "perceptron": np.cumsum(lp),
        "infeasible": learner.n_infeasible,
        "min_Mv": float(np.min(learner.min_Mv)),
        "sym_violations": learner.symmetric_violations,
    }


DEGENERATE_MARGIN = 1e-13


def appendix_f_stream(T: int, d: int, seed=None, n_candidates: int = 200):
    """Generate the Appendix F adversary: sphere points on a separating hyperplane, ε-apart.

    ``ε = T^{-1/(d−2)}``; ``x_1 = e_1`` (label 1), ``x_2 = −e_1`` (label 2); each later point lies
    on ``{H = 0} ∩ S^{d−1}`` for a hyperplane ``H`` through 0 strictly separating the labelled
    cones (Theorem 33; the max-margin separator of
    :func:`~mlgeom.multiscale.separation.separation_margin`, whose margin is recomputed on the
    points), is at least ``ε`` from all earlier points when one of ``n_candidates`` random
    candidates is (else the farthest candidate), and gets a uniform random label.

    Returns ``(P, labels, eps, min_sep, min_margin, n_degenerate)``: ``n_degenerate`` counts
    rounds whose certified separation margin was at most :data:`DEGENERATE_MARGIN` (``1e-13``,
    the rounding of ``⟨h, x⟩``): no strict separator is known in double precision, and the
    previous separator is kept, so invariant (i) of Appendix F may be lost from then on.
    """
    T, d = check_positive_int(T, "T", minimum=3), check_positive_int(d, "d", minimum=3)
    n_candidates = check_positive_int(n_candidates, "n_candidates")
    rng = as_generator(seed)
    eps = T ** (-1.0 / (d - 2))
    P = [np.eye(d)[0], -np.eye(d)[0]]
    lab = [0, 1]
    min_sep, min_margin, n_degenerate = 2.0, 1.0, 0
    h, h_margin = np.eye(d)[0], 1.0
    for _ in range(T - 2):
        # ⟨h, a⟩ > 0 on label 1, ⟨h, b⟩ < 0 on label 2: the rows signed by label
        S = np.array(P) * np.where(np.array(lab) == 0, 1.0, -1.0)[:, None]
        margin, h_new = separation_margin(S, h0=h, scale=h_margin)
        if h_new is not None and margin > DEGENERATE_MARGIN:
            h, h_margin = h_new, margin
        else:  # strict separation below double precision: keep the last separator
            n_degenerate += 1
        min_margin = min(min_margin, margin)
        C = rng.standard_normal((n_candidates, d))
        C -= np.outer(C @ h, h)
        C /= np.linalg.norm(C, axis=1, keepdims=True)
        dist = np.sqrt(np.maximum(2 - 2 * C @ np.array(P).T, 0)).min(axis=1)
        ok = np.flatnonzero(dist >= eps)
        c = ok[0] if ok.size else int(np.argmax(dist))
        min_sep = min(min_sep, float(dist[c]))
        P.append(C[c])
        lab.append(int(rng.integers(2)))
    return np.array(P), np.array(lab), eps, min_sep, min_margin, n_degenerate


def _dist_to_hull(x, V):
    big = 1e3
    A = np.vstack([V.T, big * np.ones(len(V))])
    lam, res = nnls(A, np.append(x, big))
    return float(np.linalg.norm(V.T @ lam - x))


def run_appendix_f(T: int, d: int, seed=None):
    """Run Theorem 8's learner on the Appendix F stream.

    The loss of a mistake is the distance to the convex hull of the predicted label's points
    (the final regions ``R_i = conv``, Section 2.1). ``invariants`` holds the certified margins
    of invariants (i) and (ii) after every round
    (:func:`~mlgeom.multiscale.separation.appendix_f_invariants`), ``cones`` those of (ii) with
    each cone decided on its own (:func:`~mlgeom.multiscale.separation.cone_pointedness`).
    """
    rng = as_generator(seed)
    P, lab, eps, min_sep, min_margin, n_deg = appendix_f_stream(T, d, rng)
    inv = appendix_f_invariants(P, lab)
    cones = cone_pointedness(P, lab)
    learner = HyperplaneLearner(d, seed=rng)
    loss = np.zeros(T)
    for t in range(T):
        y = 1 if lab[t] == 0 else 2
        a = learner.assess(P[t])
        if a["label"] != y:
            loss[t] = _dist_to_hull(P[t], P[lab == (a["label"] - 1)])
        learner.learn(P[t], y, a["label"])
    return {
        "cumloss": np.cumsum(loss),
        "eps": eps,
        "min_sep": min_sep,
        "min_margin": min_margin,
        "n_degenerate": n_deg,
        "invariants": inv,
        "cones": cones,
    }


def time_rounds(ds, n_rounds: int, seed=None, width_method="cone") -> pd.DataFrame:
    """Median wall time of one round (assess + learn) of Theorem 8's learner against ``d``."""
    ds = check_int_vector(ds, "ds", minimum=2)
    n_rounds = check_positive_int(n_rounds, "n_rounds")
    width_method = check_in(width_method, "width_method", ("lp", "cone"))
    rng = as_generator(seed)
    rows = []
    for d in map(int, ds):
        w, Q = boundary_stream(n_rounds, d, rng)
        L = HyperplaneLearner(d, width_method=width_method, seed=rng)
        ts = []
        for q in Q:
            t0 = time.perf_counter()
            a = L.assess(q)
            L.learn(q, 1 if q @ w >= 0 else 2, a["label"])
            ts.append(time.perf_counter() - t0)
        rows.append(
            {
                "d": d,
                "method": width_method,
                "median_ms": 1e3 * float(np.median(ts)),
                "mean_ms": 1e3 * float(np.mean(ts)),
            }
        )
    return pd.DataFrame(rows)


def sampler_check(n_polys: int, n: int, seed=None) -> pd.DataFrame:
    """Monte Carlo ``Area(B_2 ∩ cuts)`` against the exact area on random cut sets."""
    from mlgeom.multiscale.contextual_search import ball_fraction, disk_polygon_area

    n_polys = check_positive_int(n_polys, "n_polys")
    n = check_positive_int(n, "n")
    rng = as_generator(seed)
    rows = []
    for _ in range(n_polys):
        m = int(rng.integers(1, 6))
        A = rng.standard_normal((m, 2))
        b = rng.uniform(-0.3, 0.8, size=m)
        exact, _ = disk_polygon_area(A, b)
        f, se = ball_fraction(A, b, n, rng)
        rows.append({"cuts": m, "exact": exact, "estimate": math.pi * f, "stderr": math.pi * se})
    df = pd.DataFrame(rows)
    df["z"] = (df["estimate"] - df["exact"]) / np.maximum(df["stderr"], 1e-12)
    return df


def separated_centres(d: int, p: float, Delta: float, seed=None, k: int = 2) -> np.ndarray:
    """Draw ``k`` centres of ``B_d`` (norm <= 1/2), pairwise ``‖x_i − x_j‖_p >= Δ``."""
    k = check_positive_int(k, "k", minimum=2)
    rng = as_generator(seed)
    for _ in range(10_000):
        X = np.array([unit(rng, d) * 0.5 * rng.random() ** (1 / d) for _ in range(k)])
        gaps = np.sum(np.abs(X[:, None, :] - X[None, :, :]) ** p, axis=2) ** (1 / p)
        if gaps[np.triu_indices(k, 1)].min() >= Delta:
            return X
    raise RuntimeError(f"no {k} centres with pairwise L^{p} separation {Delta} found")


def run_multiscale(
    T: int, d: int, p: float, Delta: float, *, seed=None, printed=False, n_scales: int = 6
) -> dict:
    """Algorithm 2 on a ``k = 2`` stream near the ``L^p`` bisector of ``Δ``-separated centres.

    Queries: a uniform point of the segment's orthogonal direction through the midpoint, pushed
    off by ``±0.1 t^{-1/2}`` along ``x_1 − x_2``, kept in ``B_d``. Returns the cumulative
    ``L^p`` loss and that of uniform guessing (expected), the scale used each round (0: none
    qualified), the Claim 29 slack of the true centres (``claim29_slack`` at their point,
    ``claim29_ball`` on the ball of radius ``0.1(pδ_i)^p`` as the claim states, and
    ``claim29_ball_parts``, its ``(cuts, box)`` parts) and the number of active coordinates per
    scale.
    """
    from mlgeom.multiscale.learner import MultiscaleLearner

    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    p = check_real(p, "p", low=1.0)
    Delta = check_real(Delta, "Delta", low=0.0, high=2.0, low_inclusive=False)
    n_scales = check_positive_int(n_scales, "n_scales")
    rng = as_generator(seed)
    X = separated_centres(d, p, Delta, rng)
    learner = MultiscaleLearner(d, p, n_scales=n_scales, printed=printed, seed=rng)
    n = (X[0] - X[1]) / np.linalg.norm(X[0] - X[1])
    loss, uniform, scales = np.zeros(T), np.zeros(T), np.zeros(T, dtype=int)
    for t in range(T):
        o = _orth(rng, n)
        q = (
            (X[0] + X[1]) / 2
            + rng.uniform(-0.5, 0.5) * o
            + rng.choice([-1, 1]) * 0.1 * (t + 1) ** -0.5 * n
        )
        q /= max(1.0, np.linalg.norm(q))
        r = int(np.argmin(similarity(q, X, "lp", p)))
        guess, i = learner.step(q, r + 1)
        loss[t] = nn_loss(q, X, guess - 1, "lp", p)
        uniform[t] = 0.5 * nn_loss(q, X, 1 - r, "lp", p)
        scales[t] = 0 if i is None else i
    parts = learner.claim29_ball_parts(X[0], X[1])
    return {
        "cumloss": np.cumsum(loss),
        "uniform": np.cumsum(uniform),
        "scales": scales,
        "claim29_slack": learner.centre_slack(X[0], X[1]),
        "claim29_ball": min(parts),
        "claim29_ball_parts": parts,
        "active": {i: len(S.col) for i, S in learner.S.items()},
    }


def run_multiscale_multiclass(
    T: int, k: int, d: int, p: float, Delta: float, *, seed=None, n_scales: int = 6
) -> dict:
    """Theorem 13's learner (Algorithm 2 per pair inside Theorem 11) on ``k`` separated centres.

    Centres from :func:`separated_centres`; query ``t`` is drawn as in :func:`run_multiscale`
    around the midpoint of a random pair (pushed off by ``±0.1 t^{-1/2}`` along ``x_i − x_j``).
    Returns the cumulative ``L^p`` loss (and uniform guessing's expected one), the scale of each
    update (0: no update), the rounds
    with infeasible ``Mv >= 0``, the smallest ``min(Mv)`` and ``min(M + Mᵀ)``, rounds where a
    pair had no scale, and the smallest Claim 29 slack of the pairs' true centres (at the point,
    on the ball and the ball's ``(cuts, box)`` parts, as in :func:`run_multiscale`).
    """
    from mlgeom.multiscale.learner import MultiscaleMulticlassLearner

    T, k = check_positive_int(T, "T"), check_positive_int(k, "k", minimum=2)
    d = check_positive_int(d, "d", minimum=2)
    p = check_real(p, "p", low=2.0)
    Delta = check_real(Delta, "Delta", low=0.0, high=2.0, low_inclusive=False)
    n_scales = check_positive_int(n_scales, "n_scales")
    rng = as_generator(seed)
    X = separated_centres(d, p, Delta, rng, k=k)
    learner = MultiscaleMulticlassLearner(k, d, p, Delta, n_scales=n_scales, seed=rng)
    loss, uniform = np.zeros(T), np.zeros(T)
    for t in range(T):
        a, b = rng.choice(k, size=2, replace=False)
        n = (X[a] - X[b]) / np.linalg.norm(X[a] - X[b])
        q = (
            (X[a] + X[b]) / 2
            + rng.uniform(-0.5, 0.5) * _orth(rng, n)
            + rng.choice([-1, 1]) * 0.1 * (t + 1) ** -0.5 * n
        )
        q /= max(1.0, np.linalg.norm(q))
        r = int(np.argmin(similarity(q, X, "lp", p)))
        guess, _ = learner.step(q, r)
        loss[t] = nn_loss(q, X, guess, "lp", p)
        uniform[t] = np.mean([nn_loss(q, X, j, "lp", p) for j in range(k)])
    # the smallest (cuts, box) slack over the pairs; the ball's slack is the smaller of the two
    parts = tuple(
        np.min([learner.sub[(i, j)].claim29_ball_parts(X[i], X[j]) for i, j in learner.pairs],
               axis=0).tolist()
    )  # fmt: skip
    return {
        "cumloss": np.cumsum(loss),
        "uniform": np.cumsum(uniform),
        "scales": np.array(learner.scales_used),
        "infeasible": learner.n_infeasible,
        "min_Mv": float(np.min(learner.min_Mv)),
        "min_sym": float(np.min(learner.min_sym)),
        "no_scale": learner.no_scale_rounds,
        "updates": learner.n_updates,
        "Delta": Delta,
        "claim29_slack": min(
            learner.sub[(i, j)].centre_slack(X[i], X[j]) for i, j in learner.pairs
        ),
        "claim29_ball": min(parts),
        "claim29_ball_parts": parts,
    }


def claim29_box_slack(
    ps: Sequence[float], scales: Sequence[int], d: int, n_centres: int, seed=None
) -> pd.DataFrame:
    """Claim 29's base case: the ball around ``(G_i(x_1), G_i(x_2))`` inside ``[−1, 1]^n``.

    ``S_i^{(1)} = [−1, 1]^{2p'd(2D_i+1)}`` (Algorithm 2) contains the ``L^2`` ball of radius
    ``r_i = 0.1(pδ_i)^p`` around ``c = (G_i(x_1), G_i(x_2))`` exactly when
    ``max_j |c_j| <= 1 − r_i``. For each ``p`` and scale ``i``, ``n_centres`` pairs of centres
    are drawn uniformly from ``[−1/2, 1/2]^d`` (the domain of Algorithm 2's ``S_i``).

    Returns
    -------
    pandas.DataFrame
        One row per ``(p, i)``: ``r_i``, the largest ``|c_j|`` over the centres and the
        smallest slack ``(1 − max_j |c_j|) − r_i`` (``>= 0`` where the base case holds; in this
        order, so that a radius below the spacing of floats near 1 is not lost).
    """
    ps = [check_real(p, "ps", low=2.0, low_inclusive=False) for p in np.atleast_1d(ps)]
    scales = [check_positive_int(i, "scales") for i in np.atleast_1d(scales)]
    if not ps or not scales:
        raise ValueError(f"ps and scales must be non-empty; got ps={ps}, scales={scales}")
    d = check_positive_int(d, "d")
    n_centres = check_positive_int(n_centres, "n_centres")
    from mlgeom.multiscale.learner import _claim29_radius

    rng = as_generator(seed)
    rows = []
    for p in ps:
        for i in scales:
            r = _claim29_radius(i, d, p)
            top = max(
                float(np.abs(km.G_i(x, i, p)).max())
                for x in rng.uniform(-0.5, 0.5, (2 * n_centres, d))
            )
            slack = (1.0 - top) - r
            rows.append({"p": p, "scale": i, "radius": r, "max |c_j|": top, "slack": slack})
    return pd.DataFrame(rows)
