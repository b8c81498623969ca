"""Theorem 12's bound with explicit constants, and its loss against ``p`` and ``d``.

Guruganesh et al. (2021), Theorem 12: for even ``p`` the ``L^p`` nearest-neighbour problem has
an algorithm with expected total loss ``O(p^4 d^{(p+1)/p} k^2 log d)``. The proof (Appendix
E.2) maps a centre ``x`` to ``G(x)`` and a query ``q`` to ``H(q)`` in ``R^{(p+1)d}``
(Definitions 18–21), so that ``⟨G(x), H(q)⟩ = (1/(pd)) ‖(x − q)/p‖_p^p`` (Lemma E.1) and

    ``‖x − q‖_p = p^{(p+1)/p} d^{1/p} ⟨G(x), H(q)⟩^{1/p}``            (eq. (3)),

and runs the inner-product learner with ``α = 1/p`` on the mapped queries. The explicit chain,
for the two-centre learner of Corollary 3.1 (Theorem 8 with Algorithm 1, the chapter's
:class:`~mlgeom.multiscale.partition_learners.HyperplaneLearner`) on ``f = −H(q)``:

1. a mistake on ``q`` (centre ``x`` given, ``x*`` nearest) costs, with ``A = ⟨G(x), H(q)⟩ >=
   B = ⟨G(x*), H(q)⟩ >= 0`` and ``c = p^{(p+1)/p} d^{1/p}``,
   ``‖q − x‖_p − ‖q − x*‖_p = c (A^{1/p} − B^{1/p}) <= c (A − B)^{1/p}`` (eq. (3), then
   ``a^{1/p} − b^{1/p} <= (a − b)^{1/p}`` for ``a >= b >= 0``: the paper's
   ``|x|^p − |y|^p >= |x − y|^p``, which holds for ``x >= y >= 0``, the case used);
2. ``A − B = ⟨f, G(x*) − G(x)⟩`` is the inner-product loss of the mapped problem, so the ``L^p``
   loss is at most ``c`` times its ``α = 1/p`` power;
3. the sum of those powers is at most the sub-learner's initial potential
   ``Ψ_0 = 2^α Φ_α(B_D)/log(4/3)`` in dimension ``D = (p+1)d`` (Definition 9, Lemma A.1; the
   scale ``2^α/log(4/3)`` of :class:`HyperplaneLearner`, whose knowledge set is kept for
   ``u = w/2 ∈ B_D``; ``‖G(x)‖ <= 1`` so ``u`` starts in ``B_D``).

Hence :func:`even_p_bound`: ``total L^p loss <= c · Ψ_0`` for ``k = 2``; with Theorem 11's
``k``-class learner (expected loss at most twice the starting potentials of its ``C(k, 2)``
pairs) ``<= c · k(k − 1) · Ψ_0``. The paper's O-form: ``Φ_α(B_D) = O(α^{-2} D + α^{-1} D log D)``
(Appendix A) ``= O(p^3 d + p^2 d log d)`` (the ``log(p + 1)`` inside ``log D`` is absorbed by
the first term), times ``c = O(p d^{1/p})``, gives ``O(p^4 d^{(p+1)/p} log d)`` for ``d >= 2``.
The printed proof writes the ambient dimension as ``p(d + 1)`` and Corollary 3.3's bound as
``O(p^2 k^2 d log d)``; the mapped dimension is ``(p + 1)d`` (Definition 19), which we use.

:func:`even_p_adversarial_run` and :func:`even_p_rate_sweep` measure the total loss on a
stream built to be hard for the learner (an adaptive sign choice near the ``L^p`` bisector).
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from mlgeom._validation import check_in, check_int_vector, check_positive_int, check_vector_in
from mlgeom.multiscale import kernel_maps as km
from mlgeom.multiscale.adversary import MARGIN_CYCLE
from mlgeom.multiscale.baselines import MidpointLearner
from mlgeom.multiscale.contextual_search import BallKnowledgeSet, initial_potential
from mlgeom.multiscale.partition_learners import LOG43, HyperplaneLearner, cone_extent
from mlgeom.parallel import pmap
from mlgeom.random import as_generator

__all__ = [
    "EVEN_P_LEARNERS",
    "even_p_adversarial_run",
    "even_p_bound",
    "even_p_loss_scale",
    "even_p_rate_summary",
    "even_p_rate_sweep",
    "power_law_exponents",
]

EVEN_P_LEARNERS = ("ours", "midpoint")
_N_TERMS = 600  # terms of Φ_α: 2^{-α·600} <= 2^{-100} of the first at α >= 1/6


def even_p_loss_scale(p: int, d: int) -> float:
    """Return ``c = p^{(p+1)/p} d^{1/p}``, the factor of eq. (3) (Appendix E.2).

    ``‖y − z‖_p = c ⟨G(y), H(z)⟩^{1/p}``: an ``L^p`` loss is at most ``c`` times the
    ``α = 1/p`` power of the mapped inner-product loss.

    Examples
    --------
    >>> round(even_p_loss_scale(2, 4), 6)  # 2^{3/2} · 4^{1/2}
    5.656854
    """
    p = km._even_p(p)
    d = check_positive_int(d, "d")
    return p ** ((p + 1) / p) * d ** (1.0 / p)


def even_p_bound(p: int, d: int, k: int = 2, *, multiclass: bool = False) -> float:
    """Explicit-constant form of Theorem 12's bound for the chapter's learners.

    ``c · Ψ_0`` with ``c = p^{(p+1)/p} d^{1/p}`` (eq. (3)) and
    ``Ψ_0 = 2^{1/p} Φ_{1/p}(B_{(p+1)d}) / log(4/3)`` (the initial potential of one two-centre
    sub-learner with ``α = 1/p`` in the mapped dimension ``(p+1)d``; Appendix A, Theorem 10).
    With ``multiclass=True`` (Theorem 11's learner, expected loss at most twice the sum of the
    ``C(k, 2)`` starting potentials) the bound is ``c · k(k − 1) · Ψ_0``; without, ``k`` must be
    2 (Corollary 3.1's deterministic learner on the mapped queries, one pair). ``Φ`` is summed
    over ``i = 1 … 600``.

    Parameters
    ----------
    p : int
        Even integer ``>= 2``.
    d : int
        Dimension of the queries (``>= 1``).
    k : int, default=2
        Number of centres.
    multiclass : bool, default=False
        Bound Theorem 11's randomised ``k``-class learner instead of the two-centre learner.

    Returns
    -------
    float
        The bound on the (expected) total ``L^p`` loss.

    Examples
    --------
    >>> from mlgeom.multiscale import initial_potential
    >>> b = even_p_bound(2, 1)
    >>> bool(abs(b - 2 ** 1.5 * 2 ** 0.5 * initial_potential(3, 0.5, 600) / math.log(4 / 3)) < 1e-9)
    True
    """
    p = km._even_p(p)
    d = check_positive_int(d, "d")
    k = check_positive_int(k, "k", minimum=2)
    if not isinstance(multiclass, bool):
        raise TypeError(f"multiclass must be a bool; got {multiclass!r}")
    if not multiclass and k != 2:
        raise ValueError(f"k must be 2 for the two-centre learner (multiclass=False); got {k}")
    alpha = 1.0 / p
    psi0 = 2.0**alpha * initial_potential((p + 1) * d, alpha, _N_TERMS) / LOG43
    pairs = k * (k - 1) if multiclass else 1
    return even_p_loss_scale(p, d) * pairs * psi0


class _ConeKnowledgeSet(BallKnowledgeSet):
    """:class:`BallKnowledgeSet` whose LP support is replaced, for homogeneous cuts, by Moreau's.

    Used only by :func:`even_p_adversarial_run`. The learner's guesses never call ``_support``
    (its widths come from :func:`cone_extent`); the sampler does, to restart the particles when
    a cut leaves none of them (the extreme point of ``K`` in the cut's direction). In the mapped
    dimension ``(p+1)d`` that happens on most cuts, and the LP with Kelley's tangent cuts of the
    ball took seconds per run; for cuts through the origin the exact extreme point is
    ``Π_C(c)/‖Π_C(c)‖`` (the same NNLS as :func:`cone_extent`), the apex when ``Π_C(c) = 0``.
    """

    def _support(self, q: np.ndarray) -> tuple[float, np.ndarray]:
        if len(self.b) and np.any(self.b != 0):
            return super()._support(q)
        hi = cone_extent(self.A, q, self.radius)[1]
        if hi <= 0:
            return 0.0, np.zeros(self.d)
        lam = _nnls_projection(self.A, q)
        proj = q - self.A.T @ lam if len(self.A) else q
        return hi, self.radius * proj / float(np.linalg.norm(proj))


def _nnls_projection(A: np.ndarray, q: np.ndarray) -> np.ndarray:
    from scipy.optimize import nnls

    if len(A) == 0:
        return np.zeros(0)
    try:
        lam, _ = nnls(A.T, q)
    except RuntimeError:
        lam, _ = nnls(A.T, q, maxiter=100 * max(len(A), 10))
    return lam


def _lp(q: np.ndarray, X: np.ndarray, p: int) -> np.ndarray:
    return np.sum((q[None, :] - X) ** p, axis=1) ** (1.0 / p)


def _bisector_point(b: np.ndarray, n: np.ndarray, X: np.ndarray, p: int) -> np.ndarray:
    """Return the point of the line ``b + τn`` equidistant (``L^p``) from the rows of ``X``.

    ``h(τ) = ‖b + τn − x_1‖_p^p − ‖b + τn − x_2‖_p^p`` is strictly decreasing for
    ``n ∝ x_1 − x_2`` (coordinate-wise, ``t ↦ t^p`` has an increasing derivative), so Brent's
    method on an expanding bracket finds its unique zero.
    """
    r1, r2 = b - X[0], b - X[1]
    # h(τ) = Σ_k C(p, k) τ^k Σ_j n_j^k (r1_j^{p−k} − r2_j^{p−k}), evaluated by Horner's rule
    k = np.arange(p + 1)
    c = [math.comb(p, int(i)) * float(np.sum(n**i * (r1 ** (p - i) - r2 ** (p - i)))) for i in k][
        ::-1
    ]

    def h(t: float) -> float:
        v = 0.0
        for ci in c:
            v = v * t + ci
        return v

    lo, hi = -1.0, 1.0
    while h(lo) < 0:
        lo *= 2
    while h(hi) > 0:
        hi *= 2
    return b + brentq(h, lo, hi, xtol=1e-15) * n


def _H_fast(q: np.ndarray, p: int, coef: np.ndarray) -> np.ndarray:
    """``H(q)`` of Definition 21 (binomial signs), vectorised; equals :func:`km.H_even`."""
    k = np.arange(p + 1)
    a = q[:, None] / p
    return (coef[None, :] * (-a) ** (p - k)[None, :]).ravel() / math.sqrt(p * q.size)


def even_p_adversarial_run(T: int, d: int, p: int, keys, learner: str = "ours") -> dict:
    """Theorem 12's two-centre learner (or the midpoint strawman) against an adaptive sign choice.

    The ``k = 2`` problem under ``L^p`` similarity: centres ``x_1, x_2`` drawn in ``½B_d``;
    round ``t`` takes a point ``b_t`` on the ``L^p`` bisector through a random point of the
    plane orthogonal to ``n = (x_1 − x_2)/‖x_1 − x_2‖`` near the midpoint (offset uniform in
    ``[−½, ½]`` along a random unit direction ``⊥ n``), and the two candidates
    ``b_t ± m_t n`` (scaled into ``B_d``) with ``m_t`` from the cycle
    :data:`~mlgeom.multiscale.adversary.MARGIN_CYCLE`; of the two, tried in a seeded order, it
    plays the first on which the learner's prediction is wrong (the first when none is). This is
    the sign step of the chapter's adaptive adversary transported through the kernel map: the
    direction step cannot be, since the mapped queries ``−H(q)`` fill only a ``d``-dimensional
    surface of ``R^{(p+1)d}``.

    The learner sees ``f = −H(q)`` (Definition 21; the minus sign makes the nearest centre the
    largest inner product) and label 1 when ``x_1`` is nearest: ``"ours"`` is
    :class:`HyperplaneLearner` with ``α = 1/p`` in dimension ``(p+1)d`` (Corollary 3.1 on the
    map, the proof of Theorem 12 at ``k = 2``), ``"midpoint"`` the
    :class:`~mlgeom.multiscale.baselines.MidpointLearner` on the same ``f``. Ours restarts a
    particle population emptied by a cut at the exact extreme point of the cone of cuts
    (:class:`_ConeKnowledgeSet`) instead of by LP, for time only.

    Parameters
    ----------
    T : int
        Rounds.
    d : int
        Dimension (``>= 2``).
    p : int
        Even integer ``>= 2``.
    keys : sequence of int
        Three non-negative integer keys: centres (combined with ``d``), adversary draws
        (combined with ``d``), sampler; the same keys give paired runs across learners and
        across ``p``.
    learner : {"ours", "midpoint"}, default="ours"

    Returns
    -------
    dict
        ``loss`` (cumulative ``L^p`` loss, length ``T``), ``uniform`` (a fair coin's expected
        cumulative loss on the first candidate of each round), ``mistakes``, ``seconds``.
    """
    T = check_positive_int(T, "T")
    d = check_positive_int(d, "d", minimum=2)
    p = km._even_p(p)
    keys = check_int_vector(keys, "keys", minimum=0)
    if keys.size != 3:
        raise ValueError(f"keys must hold 3 integers; got {keys.size}")
    learner = check_in(learner, "learner", EVEN_P_LEARNERS)
    return _play(_candidates(T, d, p, keys), learner, p, d, int(keys[2]))


def _candidates(T: int, d: int, p: int, keys) -> dict:
    """Draw the adversary's two candidates per round (they do not depend on the learner)."""
    crng = np.random.default_rng([int(keys[0]), d])
    arng = np.random.default_rng([int(keys[1]), d])
    g = crng.standard_normal((2, d))
    X = 0.5 * g / np.linalg.norm(g, axis=1, keepdims=True) * crng.random((2, 1)) ** (1.0 / d)
    n = (X[0] - X[1]) / np.linalg.norm(X[0] - X[1])
    mid = 0.5 * (X[0] + X[1])
    margins = np.resize(np.asarray(MARGIN_CYCLE), T)
    coef = np.array([math.comb(p, j) for j in range(p + 1)], dtype=float)
    F = np.empty((T, 2, (p + 1) * d))
    gap = np.empty((T, 2))
    label = np.empty((T, 2), dtype=int)
    for t in range(T):
        o = arng.standard_normal(d)
        o -= (o @ n) * n
        o /= np.linalg.norm(o)
        base = _bisector_point(mid + arng.uniform(-0.5, 0.5) * o, n, X, p)
        s0 = 1.0 if arng.random() < 0.5 else -1.0
        for j, s in enumerate((s0, -s0)):
            q = base + s * margins[t] * n
            q /= max(1.0, float(np.linalg.norm(q)))
            dist = _lp(q, X, p)
            label[t, j] = 1 if dist[0] <= dist[1] else 2
            gap[t, j] = abs(dist[0] - dist[1])
            F[t, j] = -_H_fast(q, p, coef)
    return {"F": F, "gap": gap, "label": label}


def _play(c: dict, learner: str, p: int, d: int, sampler_key: int) -> dict:
    """Run one learner against the adaptive sign choice on the candidates ``c``."""
    D = (p + 1) * d
    if learner == "ours":
        L = HyperplaneLearner(D, 1.0 / p, seed=np.random.default_rng(sampler_key))
        L.cs.K.__class__ = _ConeKnowledgeSet  # exact restart point, no LP (same state)
    else:
        L = MidpointLearner(D)
    T = len(c["F"])
    loss = np.zeros(T)
    mistakes = 0
    tic = time.perf_counter()
    for t in range(T):
        j, guess = 0, L.predict(c["F"][t, 0])
        if guess == c["label"][t, 0]:  # the first candidate does not fool it: try the second
            guess2 = L.predict(c["F"][t, 1])
            if guess2 != c["label"][t, 1]:
                j, guess = 1, guess2
        y = int(c["label"][t, j])
        if guess != y:
            loss[t] = c["gap"][t, j]
            mistakes += 1
        L.learn(c["F"][t, j], y, guess)
    return {
        "loss": np.cumsum(loss),
        "uniform": np.cumsum(0.5 * c["gap"][:, 0]),
        "mistakes": mistakes,
        "seconds": time.perf_counter() - tic,
    }


def _rate_task(args) -> list[dict]:
    learners, T, d, p, keys = args
    c = _candidates(T, d, p, keys)
    rows = []
    for name in learners:
        r = _play(c, name, p, d, keys[2])
        rows.append(
            {
                "learner": name,
                "p": p,
                "d": d,
                "D": (p + 1) * d,
                "total": float(r["loss"][-1]),
                "half": float(r["loss"][(T - 1) // 2]),
                "uniform": float(r["uniform"][-1]),
                "mistakes": r["mistakes"],
                "ms_per_round": 1e3 * r["seconds"] / T,
            }
        )
    return rows


def even_p_rate_sweep(ps, ds, T: int, seeds, learners=EVEN_P_LEARNERS) -> pd.DataFrame:
    """Total ``L^p`` loss at ``T`` over the grid ``ps × ds``, per seed and learner (Theorem 12).

    Runs :func:`even_p_adversarial_run` through :func:`~mlgeom.parallel.pmap`. Three integer keys
    are drawn from each seed and shared by every ``(p, d)`` and learner of that seed (paired
    runs: at a given ``d`` the same centres and adversary draws for every ``p``).

    Parameters
    ----------
    ps : sequence of int
        Even integers ``>= 2``.
    ds : sequence of int
        Dimensions ``>= 2``.
    T : int
        Rounds.
    seeds : list of numpy.random.Generator or int
        One per replicate.
    learners : sequence of str, default=EVEN_P_LEARNERS
        Among ``"ours"`` and ``"midpoint"``.

    Returns
    -------
    pandas.DataFrame
        One row per (seed, learner, p, d): ``seed`` (index), ``learner``, ``p``, ``d``, ``D``,
        ``total``, ``half`` (the loss after ``⌈T/2⌉`` rounds), ``uniform``, ``mistakes``,
        ``ms_per_round`` (the learner's wall time per round, the adversary's excluded), ``bound``
        (:func:`even_p_bound`) and ``ratio = total/bound``.
    """
    ps = [km._even_p(p) for p in check_int_vector(ps, "ps", minimum=2)]
    ds = [int(d) for d in check_int_vector(ds, "ds", minimum=2)]
    T = check_positive_int(T, "T")
    learners = [check_in(n, "learners", EVEN_P_LEARNERS) for n in learners]
    if not learners:
        raise ValueError("learners must name at least one learner")
    if len(seeds) == 0:
        raise ValueError("seeds must hold at least one generator")
    keys = [tuple(int(v) for v in as_generator(s).integers(0, 2**63, size=3)) for s in seeds]
    tasks = [(tuple(learners), T, d, p, k) for k in keys for p in ps for d in ds]
    out = pmap(_rate_task, tasks, desc="Theorem 12: loss against p and d")
    df = pd.DataFrame([row for rows in out for row in rows])
    per_seed = len(ps) * len(ds) * len(learners)
    df.insert(0, "seed", np.repeat(np.arange(len(keys)), per_seed))
    bounds = {(p, d): even_p_bound(p, d) for p in ps for d in ds}
    df["bound"] = [bounds[p, d] for p, d in zip(df["p"], df["d"], strict=True)]
    df["ratio"] = df["total"] / df["bound"]
    return df


def power_law_exponents(p, d, y) -> tuple[float, float]:
    """Least-squares exponents ``(b_p, b_d)`` of ``log y = a + b_p log p + b_d log d``.

    The fitted growth of a loss (or of :func:`even_p_bound`) in ``p`` at fixed ``d`` and in
    ``d`` at fixed ``p`` over a grid, as in Theorem 12's ``p^4 d^{(p+1)/p}``.

    Parameters
    ----------
    p, d, y : array_like
        Equal-length 1-D arrays of positive values; the points ``(log p, log d)`` must not lie
        on a line (at least two values of each, not all on a diagonal).

    Returns
    -------
    (b_p, b_d) : tuple of float

    Examples
    --------
    >>> p = [2, 4, 2, 4]; d = [2, 2, 3, 3]
    >>> b = power_law_exponents(p, d, [pi**4 * di**1.5 for pi, di in zip(p, d)])
    >>> tuple(round(v, 6) for v in b)
    (4.0, 1.5)
    """
    cols = []
    for name, v in (("p", p), ("d", d), ("y", y)):
        a = check_vector_in(v, name, low=0.0, low_inclusive=False, min_size=3)
        cols.append(a)
    if not cols[0].size == cols[1].size == cols[2].size:
        raise ValueError(
            f"p, d and y must have the same length; got {cols[0].size}, {cols[1].size}, "
            f"{cols[2].size}"
        )
    X = np.column_stack([np.ones(cols[0].size), np.log(cols[0]), np.log(cols[1])])
    if np.linalg.matrix_rank(X) < 3:
        raise ValueError("p and d must vary independently (the grid is degenerate)")
    coef, *_ = np.linalg.lstsq(X, np.log(cols[2]), rcond=None)
    return float(coef[1]), float(coef[2])


def even_p_rate_summary(df: pd.DataFrame) -> dict:
    """Tables and exponent fits of an :func:`even_p_rate_sweep` (Theorem 12 at ``k = 2``).

    Parameters
    ----------
    df : pandas.DataFrame
        The output of :func:`even_p_rate_sweep` with both learners.

    Returns
    -------
    dict
        ``grid``: per ``(p, d)``, ``D``, the bound, ours' mean total loss and 95% interval and
        mean mistakes, the midpoint learner's, uniform guessing's expected loss, and each
        learner's mean share of its loss paid after round ``⌈T/2⌉``;
        ``fits``: per learner (and ``"uniform guessing"``) an array ``(n_seeds, 2)`` of
        :func:`power_law_exponents` per seed; ``clustered``: per learner ``{"p": Interval,
        "d": Interval}``, the exponents of one least-squares fit over all seeds' points with
        their 95% intervals clustered by seed (:func:`mlgeom.stats.loglog_fit_interval`; empty
        with one seed); ``bound_exponents``: ``{"p": b_p, "d": b_d}`` of the bound;
        ``exponents``: the table of the clustered fits beside the bound's exponents; ``ratio``:
        per seed, the largest ratio of ours' total loss to the bound.
    """
    from mlgeom.stats import loglog_fit_interval, mean_interval

    if not isinstance(df, pd.DataFrame):
        raise TypeError(
            f"df must be a pandas.DataFrame from even_p_rate_sweep; got {type(df).__name__}"
        )
    need = {
        "seed",
        "learner",
        "p",
        "d",
        "D",
        "total",
        "half",
        "uniform",
        "mistakes",
        "bound",
        "ratio",
    }
    if missing := need - set(df.columns):
        raise ValueError(f"df lacks the columns {sorted(missing)} of even_p_rate_sweep")
    if set(df["learner"]) != set(EVEN_P_LEARNERS):
        raise ValueError(
            f"df must hold both learners {EVEN_P_LEARNERS}; got {sorted(set(df['learner']))}"
        )

    def iv(x) -> str:
        i = mean_interval(np.asarray(x, dtype=float))
        return f"[{i.low:.3g}, {i.high:.3g}]"

    by = {who: df[df["learner"] == who] for who in EVEN_P_LEARNERS}
    g = {who: b.groupby(["p", "d"]) for who, b in by.items()}
    grid = df.groupby(["p", "d"])[["D", "bound"]].first().reset_index()
    grid["ours (mean)"] = g["ours"]["total"].mean().values
    grid["ours 95% interval"] = [iv(x) for _, x in g["ours"]["total"]]
    grid["ours mistakes"] = g["ours"]["mistakes"].mean().values
    for who in EVEN_P_LEARNERS:
        share = 1.0 - by[who]["half"] / by[who]["total"].where(by[who]["total"] > 0)
        grid[f"{who} share after T/2"] = (
            share.fillna(0.0).groupby([by[who]["p"], by[who]["d"]]).mean().values
        )
    grid["midpoint (mean)"] = g["midpoint"]["total"].mean().values
    grid["midpoint mistakes"] = g["midpoint"]["mistakes"].mean().values
    grid["uniform (mean)"] = g["ours"]["uniform"].mean().values
    grid = grid[
        [
            "p", "d", "D", "bound", "ours (mean)", "ours 95% interval", "ours mistakes",
            "ours share after T/2", "midpoint (mean)", "midpoint mistakes",
            "midpoint share after T/2", "uniform (mean)",
        ]
    ]  # fmt: skip
    bp, bd = power_law_exponents(grid["p"], grid["d"], grid["bound"])
    fits = {}
    for who, frame, col in (
        ("ours", by["ours"], "total"),
        ("midpoint", by["midpoint"], "total"),
        ("uniform guessing", by["ours"], "uniform"),
    ):
        fits[who] = np.array(
            [power_law_exponents(s["p"], s["d"], s[col]) for _, s in frame.groupby("seed")]
        )
    clustered: dict[str, dict] = {}
    for who, frame, col in (
        ("ours", by["ours"], "total"),
        ("midpoint", by["midpoint"], "total"),
        ("uniform guessing", by["ours"], "uniform"),
    ):
        clustered[who] = {}
        if frame["seed"].nunique() > 1:
            X, y = frame[["p", "d"]].to_numpy(float), frame[col].to_numpy(float)
            for i, v in enumerate("pd"):
                clustered[who][v] = loglog_fit_interval(X, y, frame["seed"].to_numpy(), i)[1]
    rows = []
    for who, f in fits.items():
        row = {"learner": who}
        for i, v in enumerate("pd"):
            c = clustered[who].get(v)
            row[f"b_{v} (fit)"] = round(c.estimate if c else float(f[:, i].mean()), 3)
            row[f"b_{v} 95% interval"] = f"[{c.low:.3g}, {c.high:.3g}]" if c else ""
        rows.append(row)
    rows.append(
        {
            "learner": "bound",
            "b_p (fit)": round(bp, 3),
            "b_p 95% interval": "",
            "b_d (fit)": round(bd, 3),
            "b_d 95% interval": "",
        }
    )
    return {
        "grid": grid.round(3),
        "fits": fits,
        "clustered": clustered,
        "bound_exponents": {"p": bp, "d": bd},
        "exponents": pd.DataFrame(rows),
        "ratio": by["ours"].groupby("seed")["ratio"].max().to_numpy(),
    }
