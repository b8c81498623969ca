"""Seeded sweeps of the ``lp_multiscale_kernels`` chapter, run through :func:`mlgeom.parallel.pmap`.

Every task carries its own :class:`numpy.random.Generator` (spawned by the caller in a fixed
order), so results do not depend on the backend or on the number of workers. Each sweep runs the
paper's learner and its strawmen (:mod:`.baselines`, the Perceptron) on the same stream.

* :func:`binary_sweep`: Theorem 8's learner, the Perceptron, the midpoint learner and uniform
  guessing on ``k = 2`` streams (Corollary 3.1, Theorem 1).
* :func:`adversary_sweep`: Theorem 8's learner and four strawmen against the adaptive
  adversary of :mod:`.adversary`.
* :func:`separating_sweep`: Theorem 8's learner and three strawmen against the same adversary
  on the separating margin schedule (margins shrinking to ``10^{-12}``), losses ``|⟨q, w⟩|^α``
  for several ``α`` (Theorem 14).
* :func:`dims_sweep`: total loss against ``d`` (``Φ(B_d) ∝ d log d``, Lemma A.1).
* :func:`margin_sweep`: mistakes against the margin ``γ`` (Theorem 16).
* :func:`thm17_sweep`: mistakes of the ``k``-class learner against the margin ``γ`` (Theorem 17).
* :func:`multi_sweep`: Theorem 11's ``k``-class learner and the multiclass Perceptron.
* :func:`convex_sweep`: the Appendix F adversary (Theorem 4).
* :func:`multiscale_runs`: Algorithm 2 (corrected and printed ``F_i``) and Theorem 13's learner.
* :func:`sampler_runs`: the learner's sampled guesses against exact areas in ``d = 2``
  (Lemma A.1).
* :func:`printed_split_runs`: the printed-law sampler's split of ``K_t + z_iB_d`` in
  ``d = 2, 3, 5`` (exact areas in ``d = 2``; exact-law rejection estimates beyond).
* :func:`late_slope`: the log–log slope of one cumulative-loss curve over late horizons;
  :func:`late_slope_interval` and :func:`late_slope_gap_interval`: the slope (or two learners'
  paired slope difference) fitted over all seeds' curves at once, with the fit's uncertainty
  (issue 29); :func:`bits_slope_interval`: Theorem 17's largest slope ratio over ``k``.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

import numpy as np
import pandas as pd

from mlgeom._validation import (
    check_in,
    check_int_vector,
    check_matrix,
    check_positive_int,
    check_real,
    check_vector,
    check_vector_in,
)
from mlgeom.algorithms.multiclass_perceptron import OnlinePerceptron
from mlgeom.multiscale import experiments as ex
from mlgeom.multiscale.adversary import MARGIN_CYCLE, adversarial_run, separating_margins
from mlgeom.multiscale.baselines import (
    CentroidLearner,
    HalvingLearner,
    MidpointLearner,
    run_midpoint,
    uniform_guessing_loss,
)
from mlgeom.multiscale.contextual_search import (
    _clip_convex,
    _knowledge_polygons,
    _shoelace,
    _uniform_polygon,
    disk_polygon_area,
    minkowski_halfplane_area,
    split_fraction_mc,
    steiner_area,
    z_scale,
)
from mlgeom.multiscale.partition_learners import HyperplaneLearner
from mlgeom.parallel import pmap
from mlgeom.random import as_generator
from mlgeom.stats import Interval, loglog_slope, within_fit_interval

__all__ = [
    "PRINTED",
    "ADVERSARY_LEARNERS",
    "SEPARATING_LEARNERS",
    "adversary_sweep",
    "binary_sweep",
    "bits_slope_interval",
    "convex_sweep",
    "dims_sweep",
    "late_slope",
    "late_slope_gap_interval",
    "late_slope_interval",
    "margin_sweep",
    "mixed_margin_stream",
    "multi_sweep",
    "multiscale_runs",
    "printed_split_runs",
    "sampler_runs",
    "separating_sweep",
    "thm17_sweep",
]


def mixed_margin_stream(T: int, d: int, seed=None, low: float = 5e-4, high: float = 0.5):
    """Draw a ``k = 2`` stream whose margins ``|⟨q_t, w⟩|`` are log-uniform in ``[low, high]``.

    Small and large margins are interleaved at every horizon (the regime in which the Perceptron
    and the halving learner have no margin-free guarantee), sides are fair coins, ``‖q_t‖ = 1``.

    Returns
    -------
    (w, Q)
        ``w`` a unit normal (centres ``x_{1,2} = ±w/2``) and the ``(T, d)`` queries.
    """
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    low = check_real(low, "low", low=0.0, high=1.0, low_inclusive=False)
    high = check_real(high, "high", low=low, high=1.0)
    rng = as_generator(seed)
    w = ex.unit(rng, d)
    m = np.exp(rng.uniform(math.log(low), math.log(high), size=T))
    m *= rng.choice([-1.0, 1.0], size=T)
    Q = np.array([mi * w + math.sqrt(1 - mi * mi) * ex._orth(rng, w) for mi in m])
    return w, Q


def late_slope(Ts, curve) -> float:
    """Log–log slope of a non-decreasing cumulative loss over the horizons ``Ts``.

    A curve that is constant over ``Ts`` (zero loss included) has slope 0; leading zeros are
    dropped (a loss first paid inside the window has no finite log-log slope before it).

    Examples
    --------
    >>> late_slope([10, 100], [0.0, 0.0])
    0.0
    >>> round(late_slope([10, 100, 1000], [1.0, 10.0, 100.0]), 6)
    1.0
    """
    Ts = check_vector_in(Ts, "Ts", low=0.0, low_inclusive=False, min_size=2)
    curve = check_vector(curve, "curve")
    if curve.size != Ts.size:
        raise ValueError(f"Ts and curve must have the same length; got {Ts.size}, {curve.size}")
    if curve[-1] == curve[0]:
        return 0.0
    keep = curve > 0
    if keep.sum() < 2:
        return 0.0
    return float(loglog_slope(Ts[keep], curve[keep]).slope)


def _late_points(Ts, curves, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Return the (log T, log loss, seed) points of the fit and the number of flat seeds.

    A seed paying loss at two or more horizons gives its points with positive loss (a loss
    first paid inside the window has no logarithm before it). A seed paying loss at fewer than
    two horizons is flat (:func:`late_slope` gives it slope 0): it enters the fit as a constant
    curve at every horizon, which weighs for slope 0 exactly as a seed with constant positive
    loss does (with every seed at every horizon the fitted slope is the mean of the per-seed
    slopes of :func:`late_slope`).
    """
    Ts = check_vector_in(Ts, "Ts", low=0.0, low_inclusive=False, min_size=2)
    c = check_matrix(curves, name, n_cols=Ts.size, min_rows=2)
    if np.any(c < 0):
        raise ValueError(f"{name} must be >= 0 (cumulative losses); got {float(c[c < 0][0])!r}")
    flat = (c > 0).sum(axis=1) < 2
    use = (c > 0) | flat[:, None]
    y = np.log(np.where(flat[:, None], 1.0, np.where(c > 0, c, 1.0)))
    seed = np.broadcast_to(np.arange(c.shape[0])[:, None], c.shape)
    lT = np.broadcast_to(np.log(Ts), c.shape)
    return lT[use], y[use], seed[use], int(flat.sum())


def _with_flat(iv: Interval, n_flat: int, n_seeds: int) -> Interval:
    if not n_flat:
        return iv
    return replace(
        iv,
        method=f"{iv.method}; {n_flat} of {n_seeds} seeds pay loss at fewer than two "
        "horizons (flat, slope 0)",
    )


def late_slope_interval(Ts, curves, level: float = 0.95) -> Interval:
    """Late log–log slope of cumulative losses, fitted over all seeds with its uncertainty.

    One least-squares fit of ``log loss = a_s + b log T`` over every seed's late horizons, with
    an intercept ``a_s`` per seed (seeds differ in how much loss they paid before the window;
    that is not growth) and errors clustered by seed
    (:func:`mlgeom.stats.within_fit_interval`): the interval carries the spread between seeds
    and how far each seed's curve is from one power law over the window, unlike the spread of
    per-seed slopes (:func:`late_slope`). Horizons where a seed has paid no loss yet have no
    logarithm and are left out; a seed that pays loss at fewer than two horizons is flat
    (slope 0) and enters as a constant curve; the interval's ``method`` says how many were.

    Parameters
    ----------
    Ts : array_like, shape (k,)
        The late horizons (positive, at least two).
    curves : array_like, shape (n_seeds, k)
        Each seed's cumulative loss at ``Ts`` (finite, ``>= 0``; at least two seeds).
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    Interval
        The fitted slope and its interval. When every seed's curve is one exact power law with
        a common slope (every seed flat included), the interval has width 0: the slope is
        then the exact number it is.

    Examples
    --------
    >>> iv = late_slope_interval([10, 100, 1000], [[1, 10, 100], [2, 20, 200], [0, 0, 0]])
    >>> round(iv.estimate, 12), iv.width > 0
    (0.666666666667, True)
    >>> iv.method.split("; ")[1]
    '1 of 3 seeds pay loss at fewer than two horizons (flat, slope 0)'
    """
    lT, ly, seed, n_flat = _late_points(Ts, curves, "curves")
    _, (iv,) = within_fit_interval(lT, ly, seed, level=level, what="log-log fit of the late loss")
    return _with_flat(iv, n_flat, int(np.shape(curves)[0]))


def late_slope_gap_interval(Ts, curves_a, curves_b, level: float = 0.95) -> Interval:
    """Paired difference of two learners' late log–log slopes (``a − b``) on the same seeds.

    One fit over both learners' curves with an intercept per (seed, learner), a common slope and
    the slope difference as a second coefficient, errors clustered by seed (the two learners
    share each seed's instance): the interval of the difference carries the fit's uncertainty.
    Points and flat seeds are treated as in :func:`late_slope_interval`.

    Examples
    --------
    >>> a = [[1, 10, 100], [2, 20, 200]]  # slope 1
    >>> b = [[1, 2, 4], [3, 6, 12]]  # slope log10(2)
    >>> round(late_slope_gap_interval([10, 100, 1000], a, b).estimate, 6)
    0.69897
    """
    la, ya, sa, flat_a = _late_points(Ts, curves_a, "curves_a")
    lb, yb, sb, flat_b = _late_points(Ts, curves_b, "curves_b")
    if np.shape(curves_a) != np.shape(curves_b):
        raise ValueError(
            f"curves_a and curves_b must have one curve per seed each (paired); got shapes "
            f"{np.shape(curves_a)} and {np.shape(curves_b)}"
        )
    X = np.column_stack([np.r_[la, lb], np.r_[la, np.zeros_like(lb)]])
    groups = np.r_[sa, sb]
    strata = np.r_[2 * sa, 2 * sb + 1]
    _, (_, gap) = within_fit_interval(
        X,
        np.r_[ya, yb],
        groups,
        strata=strata,
        level=level,
        what="paired log-log fit of the late losses (slope difference)",
    )
    n = int(np.shape(curves_a)[0])
    if flat_a or flat_b:
        gap = replace(
            gap,
            method=f"{gap.method}; flat seeds (fewer than two horizons with loss): "
            f"{flat_a} and {flat_b} of {n}",
        )
    return gap


def bits_slope_interval(table: pd.DataFrame, who: str, bound: dict, level: float = 0.95):
    """Theorem 17: the largest over ``k`` of the slope of mistakes in ``log2(1/γ)`` over its bound.

    For each ``k``, mistakes divided by the per-bit bound ``bound[k]`` are fitted linearly in
    ``bits = log2(1/γ)`` over all seeds at once, with an intercept per (seed, ``k``) and errors
    clustered by seed (:func:`mlgeom.stats.within_fit_interval`). The reported number is the
    largest fitted slope ratio over ``k``; its interval, ``[max_k low_k, max_k high_k]`` from
    intervals at level ``1 − (1 − level)/K`` each (Bonferroni over the ``K`` values of ``k``),
    holds the largest true ratio with probability at least ``level``.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per (seed, k, γ) with columns ``seed``, ``k``, ``bits`` and ``who``.
    who : str
        The learner's column.
    bound : dict
        ``k`` → the bound's mistakes per bit, ``C(k, 2) · d · log_{4/3} 2``.
    level : float, default=0.95

    Returns
    -------
    (Interval, dict)
        The interval of the largest ratio and each ``k``'s fitted ratio.
    """
    level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    for col in ("seed", "k", "bits", who):
        if col not in table:
            raise ValueError(f"table must have a column {col!r}; got {list(table.columns)}")
    ks = sorted(int(k) for k in table["k"].unique())
    missing = [k for k in ks if k not in bound]
    if missing:
        raise ValueError(f"bound must give the per-bit bound of every k; missing {missing}")
    X = np.column_stack([table["bits"].to_numpy() * (table["k"].to_numpy() == k) for k in ks])
    y = table[who].to_numpy(float) / table["k"].map(bound).to_numpy(float)
    strata = table["seed"].astype(str) + "/" + table["k"].astype(str)
    each = 1 - (1 - level) / len(ks)
    coef, ivs = within_fit_interval(
        X,
        y,
        table["seed"].to_numpy(),
        strata=strata.to_numpy(),
        level=each,
        what=f"linear fit in log2(1/γ) per k (largest of {len(ks)}, Bonferroni)",
    )
    j = int(np.argmax(coef))
    low = max(iv.low for iv in ivs)
    high = max(iv.high for iv in ivs)
    ref = ivs[j]
    iv = Interval(
        float(coef[j]),
        min(low, float(coef[j])),
        max(high, float(coef[j])),
        ref.n,
        level,
        ref.method,
        ref.se,
        ref.df,
    )
    return iv, {int(k): float(b) for k, b in zip(ks, coef, strict=True)}


def _one_list_per(seeds, name: str, n: int, what: str) -> None:
    if len(seeds) != n:
        raise ValueError(f"{name} must hold one entry per {what} ({n}); got {len(seeds)}")


def _binary_task(args) -> dict:
    stream, T, d, rng, printed = args
    w, Q = (ex.boundary_stream if stream == "boundary" else mixed_margin_stream)(T, d, rng)
    r = ex.run_binary(w, Q, seed=rng)
    out = {
        "ours": r["ours"],
        "perceptron": r["perceptron"],
        "midpoint": run_midpoint(w, Q),
        "uniform": uniform_guessing_loss(w, Q),
    }
    if printed:  # spawned after the other runs, which thus draw exactly as without it
        pr = ex.run_binary(w, Q, seed=rng.spawn(1)[0], perceptron=False, sampler="printed")
        out[PRINTED] = pr["ours"]
    return out


def binary_sweep(stream: str, T: int, d: int, seeds, printed: bool = False) -> list[dict]:
    """Cumulative losses of four (or five) learners on one ``k = 2`` stream per seed.

    Parameters
    ----------
    stream : {"boundary", "mixed"}
        :func:`~mlgeom.multiscale.experiments.boundary_stream` (margins ``0.1 t^{-1/2}``) or
        :func:`mixed_margin_stream`.
    T, d : int
        Horizon and dimension.
    seeds : list of numpy.random.Generator
        One per run (stream and sampler).
    printed : bool, default=False
        Also run Algorithm 1 as printed (``sampler="printed"``) on the same stream, as
        ``"printed"``; its generator is spawned from the seed after the other learners' runs,
        which are therefore the same with or without it.

    Returns
    -------
    list of dict
        Per seed, arrays of length ``T``: ``ours`` (Theorem 8, the convolution variant),
        ``perceptron``, ``midpoint``, ``uniform`` (expected) and, with ``printed``,
        ``"printed"``.
    """
    stream = check_in(stream, "stream", ("boundary", "mixed"))
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    if not isinstance(printed, bool | np.bool_):
        raise ValueError(f"printed must be True or False; got {printed!r}")
    tasks = [(stream, T, d, s, bool(printed)) for s in seeds]
    return pmap(_binary_task, tasks, desc=f"k = 2, {stream} stream")


ADVERSARY_LEARNERS = ("ours", "midpoint", "centroid", "halving", "perceptron")
#: Algorithm 1 with the law it prints (:mod:`.printed_law`); "ours" is the convolution variant
PRINTED = "printed"


def _adversary_learner(name: str, d: int, sampler: np.random.Generator):
    return {
        "ours": lambda: HyperplaneLearner(d, seed=sampler),
        "printed": lambda: HyperplaneLearner(d, seed=sampler, sampler="printed"),
        "midpoint": lambda: MidpointLearner(d),
        "centroid": lambda: CentroidLearner(d, seed=sampler),
        "halving": lambda: HalvingLearner(d, seed=sampler),
        "perceptron": lambda: OnlinePerceptron(d),
    }[name]()


def _adversary_task(args) -> dict:
    name, T, d, keys = args
    w = ex.unit(np.random.default_rng(keys[0]), d)
    learner = _adversary_learner(name, d, np.random.default_rng(keys[2]))
    tic = time.perf_counter()
    r = adversarial_run(learner, w, T, np.random.default_rng(keys[1]))
    return {"loss": r["loss"], "mistakes": r["mistakes"], "seconds": time.perf_counter() - tic}


def _paired_tasks(T, d, seeds, learners, names=ADVERSARY_LEARNERS, min_d: int = 2) -> tuple:
    """Validate an adversary sweep's arguments; one task per (seed, learner), paired by seed.

    Three integer keys are drawn from each seed (hidden ``w``, adversary, sampler), so every
    learner meets the same ``w`` and the same adversary randomness. ``names`` are the learners
    the sweep knows and ``min_d`` its smallest dimension (Remark 3.4's sweep passes its own).
    """
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=min_d)
    learners = [check_in(n, "learners", (*names, PRINTED)) for n in learners]
    if not learners:
        raise ValueError("learners must name at least one learner")
    if len(seeds) == 0:
        raise ValueError("seeds must hold at least one generator")
    keys = [as_generator(s).integers(0, 2**63, size=3) for s in seeds]
    return T, d, learners, keys, [(n, T, d, k) for k in keys for n in learners]


def adversary_sweep(T: int, d: int, seeds, learners=ADVERSARY_LEARNERS) -> list[dict]:
    """Cumulative losses of each learner against the adaptive adversary, paired by seed.

    Per seed, the hidden ``w``, the adversary's draws and the sampler's seed are the same for
    every learner (:func:`~mlgeom.multiscale.adversary.adversarial_run`); the loss is
    ``|⟨q, w⟩|`` on a mistake (``α = 1``, Corollary 3.1).

    Parameters
    ----------
    T, d : int
        Horizon and dimension (``d >= 2``).
    seeds : list of numpy.random.Generator
        One per run; three integer keys are drawn from each (hidden ``w``, adversary, sampler).
    learners : sequence of str, default=ADVERSARY_LEARNERS
        Among ``"ours"`` (Theorem 8), ``"midpoint"``, ``"centroid"``, ``"halving"`` and
        ``"perceptron"``.

    Returns
    -------
    list of dict
        Per seed: per learner, the cumulative loss (length ``T``), plus ``"uniform"``, the
        expected cumulative loss of a fair coin (``Σ m_t / 2``: the adversary cannot see the
        coin, so every round costs half its margin in expectation), and
        ``"mistakes"``/``"seconds"`` dicts per learner.
    """
    T, d, learners, keys, tasks = _paired_tasks(T, d, seeds, learners)
    out = pmap(_adversary_task, tasks, desc=f"adaptive adversary, d = {d}")
    m = np.resize(np.asarray(MARGIN_CYCLE), T)  # the margins adversarial_run plays
    runs = []
    for j in range(len(keys)):
        res = dict(zip(learners, out[j * len(learners) : (j + 1) * len(learners)], strict=True))
        run = {n: r["loss"] for n, r in res.items()}
        run["uniform"] = np.cumsum(m / 2.0)
        run["mistakes"] = {n: r["mistakes"] for n, r in res.items()}
        run["seconds"] = {n: r["seconds"] for n, r in res.items()}
        runs.append(run)
    return runs


SEPARATING_LEARNERS = ("ours", "midpoint", "halving", "perceptron")


def _separating_task(args) -> dict:
    name, T, d, keys = args
    w = ex.unit(np.random.default_rng(keys[0]), d)
    learner = _adversary_learner(name, d, np.random.default_rng(keys[2]))
    tic = time.perf_counter()
    r = adversarial_run(
        learner, w, T, np.random.default_rng(keys[1]), margins=separating_margins(T)
    )
    return {"mistake": r["mistake"], "seconds": time.perf_counter() - tic}


def separating_sweep(T: int, d: int, seeds, alphas, learners=SEPARATING_LEARNERS) -> list[dict]:
    """Cumulative losses ``Σ|⟨q, w⟩|^α`` against the separating adversary, paired by seed.

    The adversary of :func:`~mlgeom.multiscale.adversary.adversarial_run` on the margins of
    :func:`~mlgeom.multiscale.adversary.separating_margins` (Section 1.2: the regime in which
    the halving learner's and the Perceptron's guarantees, which depend on the margin, say
    nothing; Theorem 14 bounds Algorithm 1's total loss by ``O(α^{-2} d log d)``). Neither the
    learners' predictions nor the adversary's choices depend on ``α``, so one run per learner
    and seed gives the loss for every ``α``: a mistake in round ``t`` costs ``m_t^α``.

    Parameters
    ----------
    T, d : int
        Horizon and dimension (``d >= 2``).
    seeds : list of numpy.random.Generator
        One per run; three integer keys are drawn from each (hidden ``w``, adversary, sampler),
        as in :func:`adversary_sweep`.
    alphas : array_like
        Loss exponents, each ``> 0``.
    learners : sequence of str, default=SEPARATING_LEARNERS
        Among ``"ours"`` (Theorem 8), ``"midpoint"``, ``"centroid"``, ``"halving"`` and
        ``"perceptron"``.

    Returns
    -------
    list of dict
        Per seed: per learner, the cumulative losses, shape ``(len(alphas), T)``; ``"uniform"``,
        a fair coin's expected cumulative losses ``Σ m_t^α / 2``, same shape; and
        ``"mistakes"``/``"seconds"`` dicts per learner.
    """
    T, d, learners, keys, tasks = _paired_tasks(T, d, seeds, learners)
    alphas = check_vector_in(alphas, "alphas", low=0.0, low_inclusive=False)
    out = pmap(_separating_task, tasks, desc=f"separating adversary, d = {d}")
    cost = separating_margins(T)[None, :] ** alphas[:, None]  # m_t^α, shape (len(alphas), T)
    runs = []
    for j in range(len(keys)):
        res = dict(zip(learners, out[j * len(learners) : (j + 1) * len(learners)], strict=True))
        run = {n: np.cumsum(np.where(r["mistake"], cost, 0.0), axis=1) for n, r in res.items()}
        run["uniform"] = np.cumsum(cost / 2.0, axis=1)
        run["mistakes"] = {n: int(r["mistake"].sum()) for n, r in res.items()}
        run["seconds"] = {n: r["seconds"] for n, r in res.items()}
        runs.append(run)
    return runs


def _dims_task(args) -> dict:
    T, d, j, rng = args
    w, Q = ex.boundary_stream(T, d, rng)
    r = ex.run_binary(w, Q, seed=rng, perceptron=False)
    return {"d": d, "seed": j, "ours": r["ours"][-1], "uniform": uniform_guessing_loss(w, Q)[-1]}


def dims_sweep(ds, T: int, seeds_by_d) -> pd.DataFrame:
    """Total loss of Theorem 8's learner and of uniform guessing against ``d`` (one row per run).

    ``seeds_by_d[m][j]`` is the generator of dimension ``ds[m]``, seed ``j``.
    """
    ds = [int(d) for d in check_int_vector(ds, "ds", minimum=2)]
    T = check_positive_int(T, "T")
    _one_list_per(seeds_by_d, "seeds_by_d", len(ds), "d")
    tasks = [(T, d, j, s) for d, ss in zip(ds, seeds_by_d, strict=True) for j, s in enumerate(ss)]
    return pd.DataFrame(pmap(_dims_task, tasks, desc="k = 2: loss against d"))


def _margin_task(args) -> dict:
    T, d, g, j, rng = args
    w, Q = ex.margin_stream(T, d, g, rng)
    r = ex.run_binary(w, Q, seed=rng)
    return {
        "gamma": g,
        "seed": j,
        "ours": r["mistakes"],
        "perceptron": int(np.count_nonzero(np.diff(r["perceptron"], prepend=0.0))),
    }


def margin_sweep(gammas, T: int, d: int, seeds_by_gamma) -> pd.DataFrame:
    """Mistakes of Theorem 8's learner and of the Perceptron on margin-``γ`` streams (Theorem 16).

    Every query has margin ``>= γ > 0``, so a Perceptron mistake is a round of positive loss.
    """
    gammas = check_vector_in(gammas, "gammas", low=0.0, high=1.0, low_inclusive=False)
    gammas = [float(g) for g in gammas]
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    _one_list_per(seeds_by_gamma, "seeds_by_gamma", len(gammas), "gamma")
    tasks = [
        (T, d, g, j, s)
        for g, ss in zip(gammas, seeds_by_gamma, strict=True)
        for j, s in enumerate(ss)
    ]
    return pd.DataFrame(pmap(_margin_task, tasks, desc="Theorem 16: mistakes against γ"))


def _thm17_task(args) -> dict:
    k, g, T, d, j, rng = args
    X, Q = ex.margin_nn_stream(T, k, d, g, rng)
    r = ex.run_multiclass(X, Q, kind="inner", seed=rng)
    # every wrong label costs >= γ > 0: a mistake is a round of positive loss
    n_err = {
        w: int(np.count_nonzero(np.diff(r[w], prepend=0.0) > 0)) for w in ("ours", "perceptron")
    }
    return {"k": k, "gamma": g, "seed": j, **n_err}


def thm17_sweep(ks, gammas, T: int, d: int, seeds) -> pd.DataFrame:
    """Mistakes of Theorem 2's ``k``-class learner and of the multiclass Perceptron (Theorem 17).

    Every query of :func:`~mlgeom.multiscale.experiments.margin_nn_stream` has margin ``>= γ``;
    one run per ``k``, ``γ`` and seed. ``seeds[j]`` is a list of generators, one per
    ``(k, γ)`` in the order of ``itertools.product(ks, gammas)``.
    """
    ks = [int(k) for k in check_int_vector(ks, "ks", minimum=2)]
    gammas = check_vector_in(gammas, "gammas", low=0.0, high=0.25, low_inclusive=False)
    gammas = [float(g) for g in gammas]
    T, d = check_positive_int(T, "T"), check_positive_int(d, "d", minimum=2)
    configs = [(k, g) for k in ks for g in gammas]
    for j, ss in enumerate(seeds):
        _one_list_per(ss, f"seeds[{j}]", len(configs), "(k, gamma)")
    tasks = [
        (k, g, T, d, j, ss[c]) for j, ss in enumerate(seeds) for c, (k, g) in enumerate(configs)
    ]
    return pd.DataFrame(pmap(_thm17_task, tasks, desc="Theorem 17: mistakes against γ"))


def _multi_task(args) -> dict:
    kind, p, k, T, d, j, rng = args
    X, Q = ex.nn_stream(T, k, d, rng)
    r = ex.run_multiclass(X, Q, kind=kind, p=p, seed=rng)
    return {
        "similarity": {"inner": "inner", "l2": "l2"}.get(kind, f"L^{int(p)}"),
        "k": k,
        "seed": j,
        "ours": r["ours"][-1],
        "ours_half": r["ours"][T // 2 - 1],
        "perceptron": r["perceptron"][-1],
        "perceptron_half": r["perceptron"][T // 2 - 1],
        "infeasible": r["infeasible"],
        "sym_violations": r["sym_violations"],
    }


def multi_sweep(configs, T: int, d: int, seeds) -> pd.DataFrame:
    """Theorem 11's learner and the multiclass Perceptron per ``(kind, p, k)`` and seed.

    ``seeds[j]`` is a list of generators, one per configuration of ``configs``.
    """
    T, d = check_positive_int(T, "T", minimum=2), check_positive_int(d, "d", minimum=2)
    for c, cfg in enumerate(configs):
        if not isinstance(cfg, tuple | list) or len(cfg) != 3:
            raise ValueError(f"configs[{c}] must be a (kind, p, k) triple; got {cfg!r}")
        check_in(cfg[0], f"configs[{c}] kind", ("inner", "l2", "even_p"))
        check_positive_int(cfg[2], f"configs[{c}] k", minimum=2)
    for j, ss in enumerate(seeds):
        _one_list_per(ss, f"seeds[{j}]", len(configs), "configuration")
    tasks = [
        (kind, p, k, T, d, j, ss[c])
        for j, ss in enumerate(seeds)
        for c, (kind, p, k) in enumerate(configs)
    ]
    return pd.DataFrame(pmap(_multi_task, tasks, desc="Theorem 11: k classes"))


def _convex_task(args) -> dict:
    T, d, j, rng = args
    r = ex.run_appendix_f(T, d, rng)
    inv = r["invariants"]
    ok = inv["sep"] > ex.DEGENERATE_MARGIN
    lost = inv["t"][~ok]
    lost_ii = r["cones"]["t"][~(r["cones"]["pointed"] > ex.DEGENERATE_MARGIN)]
    # geometric shrinkage of the certified margin: log10 slope per round over the certified rounds
    rate = np.polyfit(inv["t"][ok], np.log10(inv["sep"][ok]), 1)[0] if ok.sum() > 1 else np.nan
    return {
        "T": T,
        "seed": j,
        "total_loss": r["cumloss"][-1],
        "degenerate": r["n_degenerate"],
        "invariant_i": float(inv["sep"].min()),
        "invariant_ii": float(inv["pointed"].min()),
        "lost_at": int(lost[0]) if lost.size else 0,
        "invariant_ii_cones": float(r["cones"]["pointed"].min()),
        "lost_ii_at": int(lost_ii[0]) if lost_ii.size else 0,
        "decades_per_round": float(rate),
    }


def convex_sweep(Ts, d: int, seeds_by_T) -> pd.DataFrame:
    """Total loss of Theorem 8's learner against the Appendix F adversary, per ``T`` and seed.

    Also the smallest certified margins of Appendix F's invariants (i) and (ii) over the run's
    rounds (``invariant_i``, ``invariant_ii``), the first round at which (i) is no longer
    certified (``lost_at``, ``0`` if never), the smallest margin of (ii) with each cone decided on
    its own (``invariant_ii_cones``) and the first round it is not certified (``lost_ii_at``), and
    the fitted shrinkage of (i)'s margin over the
    certified rounds (``decades_per_round``, the slope of ``log10`` margin against the round).
    """
    Ts = [int(T) for T in check_int_vector(Ts, "Ts", minimum=3)]
    d = check_positive_int(d, "d", minimum=3)
    _one_list_per(seeds_by_T, "seeds_by_T", len(Ts), "T")
    tasks = [(T, d, j, s) for T, ss in zip(Ts, seeds_by_T, strict=True) for j, s in enumerate(ss)]
    return pd.DataFrame(pmap(_convex_task, tasks, desc="Appendix F adversary"))


def _multiscale_task(args) -> dict:
    which, T, rng = args
    if which == "thm13":
        return ex.run_multiscale_multiclass(T, 3, 2, 3.0, 0.3, seed=rng)
    return ex.run_multiscale(T, 2, 3.0, 0.3, seed=rng, printed=which == "printed")


def multiscale_runs(T_alg2: int, T_thm13: int, seeds) -> dict:
    """Algorithm 2 with the corrected and the printed ``F_i`` and Theorem 13's learner, in parallel.

    All at ``d = 2``, ``p = 3``, ``Δ = 0.3`` (Theorem 13 with ``k = 3``); ``seeds`` holds three
    generators. Returns ``{"corrected": ..., "printed": ..., "thm13": ...}``.
    """
    T_alg2 = check_positive_int(T_alg2, "T_alg2")
    T_thm13 = check_positive_int(T_thm13, "T_thm13")
    if len(seeds) != 3:
        raise ValueError(f"seeds must hold 3 generators; got {len(seeds)}")
    names = ("corrected", "printed", "thm13")
    Ts = (T_alg2, T_alg2, T_thm13)
    out = pmap(_multiscale_task, list(zip(names, Ts, seeds, strict=True)), desc="Algorithm 2")
    return dict(zip(names, out, strict=True))


def _ideal_fractions(h, A, q, z, aux) -> tuple[float, float]:
    """Exact split fractions of the guesses an ideal sampler of the same size would make."""
    K, S = _knowledge_polygons(A, np.zeros(len(A)), z, 1.0, 2048)
    m = h.cs.K.n_particles
    g_conv = float(np.median((_uniform_polygon(K, m, aux) + z * h.cs._noise) @ q))
    g_sum = float(np.median(_uniform_polygon(S, m, aux) @ q))
    total = _shoelace(S)
    return tuple(_shoelace(_clip_convex(S, -q, -g)) / total for g in (g_conv, g_sum))


def _sampler_task(args) -> dict:
    T, n_particles, n_steps, sampler, sum_steps, j, rng = args
    (aux,) = rng.spawn(1)  # the ideal samplers' draws; the learner's stream is untouched
    w, Q = mixed_margin_stream(T, 2, rng)
    h = HyperplaneLearner(2, seed=rng, n_particles=n_particles, n_steps=n_steps,
                          sampler=sampler, sum_steps=sum_steps)  # fmt: skip
    rows, seconds = [], 0.0
    for t, q in enumerate(Q):
        y = 1 if q @ w >= 0 else 2
        tic = time.perf_counter()
        a = h.assess(q)
        seconds += time.perf_counter() - tic
        guessed = a["lo"] < 0 < a["hi"]
        if guessed:  # Algorithm 1's guess was used: measure its split of K_t + z_i B_2
            z = float(z_scale(min(h.cs.scale_index(a["hi"] - a["lo"]), 1000), 2))
            A = h.cs.K.A.copy()
            side, total = minkowski_halfplane_area(A, np.zeros(len(A)), q, a["guess"], z)
            ideal = _ideal_fractions(h, A, q, z, aux)
        tic = time.perf_counter()
        cut = h.learn(q, y, a["label"])
        seconds += time.perf_counter() - tic
        if not guessed:
            continue
        row = {
            "seed": j,
            "t": t,
            "z": z,
            "fraction": side / total,
            "mistake": bool(cut),
            "fraction_uniform_K": ideal[0],
            "fraction_uniform_sum": ideal[1],
        }
        if cut:
            A1 = h.cs.K.A
            row["ratio_steiner"] = steiner_area(A1, np.zeros(len(A1)), z) / steiner_area(
                A, np.zeros(len(A)), z
            )
            row["ratio_area"] = (
                disk_polygon_area(A1, np.zeros(len(A1)))[0]
                / disk_polygon_area(A, np.zeros(len(A)))[0]
            )
        rows.append(row)
    K = h.cs.K
    work = {
        "seed": j,
        "guesses": h.cs.n_guesses,
        "mistakes": h.n_updates,
        "steps_K": K.n_particle_steps,
        "steps_sum": K.n_sum_steps,
        "tests": K.n_sum_tests,
        "nnls": K.n_nnls,
    }
    return {"rows": rows, "seconds_per_round": seconds / T, "work": work}


def sampler_runs(
    T: int,
    seeds,
    *,
    n_particles: int = 128,
    n_steps: int = 2,
    sampler: str = "convolution",
    sum_steps: int = 16,
) -> tuple:
    """Theorem 8's learner in ``d = 2`` with its sampled guesses checked against exact areas.

    On the mixed stream (:func:`mixed_margin_stream`), every round in which Algorithm 1's
    guess is used (the sign of ``⟨q, u⟩`` is not yet known) records the exact fraction of
    ``K_t + z_iB_2`` on the side ``⟨v, q⟩ >= g_t`` (:func:`minkowski_halfplane_area`; Algorithm 1
    wants 1/2), and every mistake the exact ratios ``Area(K_{t+1} + z_iB_2)/Area(K_t + z_iB_2)``
    (Steiner's formula; Lemma A.1: at most 3/4) and ``Area(K_{t+1})/Area(K_t)``. Beside the
    learner's guess, two ideal samplers of the same size are scored on the same rounds (their
    own stream, so the learner's run is unchanged): exact uniform points of ``K_t`` plus
    ``z_i``·(the learner's ball noise), the law the learner's particles aim at (a convolution),
    and exact uniform points of ``K_t + z_iB_2``, the law Algorithm 1 asks for.

    Parameters
    ----------
    T : int
        Rounds per run.
    seeds : list of numpy.random.Generator
        One per run (stream and sampler).
    n_particles, n_steps : int
        The sampler's population and hit-and-run steps per cut
        (:class:`~mlgeom.multiscale.contextual_search.BallKnowledgeSet`; defaults as in the
        learners).
    sampler : {"convolution", "minkowski"}, default="convolution"
        The learner's guess (:class:`~mlgeom.multiscale.contextual_search.ContextualSearch`):
        the median of the particles plus ball noise (the learners' default), or of the same
        points after ``sum_steps`` hit-and-run steps on ``K_t + z_iB_2`` (the uniform law that
        Algorithm 1 halves). The stream and the ideal samplers' draws do not depend on it.
    sum_steps : int, default=16
        Hit-and-run steps on ``K_t + z_iB_2`` per guess (``sampler="minkowski"`` only).

    Returns
    -------
    (rows, seconds, work) : (pandas.DataFrame, numpy.ndarray, pandas.DataFrame)
        One row per guessed round (``seed``, ``t``, ``z``, ``fraction``,
        ``fraction_uniform_K``, ``fraction_uniform_sum``, ``mistake``, ``ratio_steiner``,
        ``ratio_area``; ratios NaN without a mistake); per run the
        learner's mean time per round (the exact areas excluded); and per run the sampler's
        work counts: ``guesses``, ``mistakes``, hit-and-run point-steps on ``K_t`` (after cuts,
        ``steps_K``) and on ``K_t + z_iB_2`` (at guesses, ``steps_sum``), membership tests of
        ``K_t + z_iB_2`` (``tests``, one projection onto ``K_t`` each) and the projections
        that needed an NNLS solve (``nnls``).
    """
    T = check_positive_int(T, "T")
    n_particles = check_positive_int(n_particles, "n_particles", minimum=2)
    n_steps = check_positive_int(n_steps, "n_steps", minimum=0)
    sampler = check_in(sampler, "sampler", ("convolution", "minkowski"))
    sum_steps = check_positive_int(sum_steps, "sum_steps", minimum=0)
    tasks = [(T, n_particles, n_steps, sampler, sum_steps, j, s) for j, s in enumerate(seeds)]
    if not tasks:
        raise ValueError("seeds must hold at least one generator")
    desc = f"sampler in the learner, {n_steps} steps"
    desc += f", {sum_steps} on K + zB per guess" if sampler == "minkowski" else ""
    out = pmap(_sampler_task, tasks, desc=desc)
    rows = pd.DataFrame([r for o in out for r in o["rows"]])
    cols = ["seed", "t", "z", "fraction", "fraction_uniform_K", "fraction_uniform_sum"]
    cols += ["mistake", "ratio_steiner", "ratio_area"]
    rows = rows.reindex(columns=cols)
    work = pd.DataFrame([o["work"] for o in out])
    return rows, np.array([o["seconds_per_round"] for o in out]), work


def _printed_split_task(args) -> dict:
    d, T, n_proposals, j, rng = args
    (aux,) = rng.spawn(1)  # the split estimates' draws; the learner's stream is untouched
    w, Q = mixed_margin_stream(T, d, rng)
    h = HyperplaneLearner(d, seed=rng, sampler="printed")
    fracs, kept, seconds = [], [], 0.0
    for q in Q:
        y = 1 if q @ w >= 0 else 2
        tic = time.perf_counter()
        a = h.assess(q)
        seconds += time.perf_counter() - tic
        if a["lo"] < 0 < a["hi"]:  # Algorithm 1's guess was used: measure its split
            z = float(z_scale(min(h.cs.scale_index(a["hi"] - a["lo"]), 1000), d))
            A = h.cs.K.A.copy()
            if d == 2:
                side, total = minkowski_halfplane_area(A, np.zeros(len(A)), q, a["guess"], z)
                fracs.append(side / total)
                kept.append(0)
            else:
                f, k = split_fraction_mc(
                    A, q, a["guess"], z, n_proposals, aux, axis=h.cs.K.particles.mean(axis=0)
                )
                fracs.append(f)
                kept.append(k)
        tic = time.perf_counter()
        h.learn(q, y, a["label"])
        seconds += time.perf_counter() - tic
    return {
        "seed": j,
        "fractions": np.array(fracs),
        "kept": np.array(kept),
        "mistakes": h.n_updates,
        "seconds_per_round": seconds / T,
    }


def printed_split_runs(d: int, T: int, seeds, n_proposals: int = 20_000) -> list[dict]:
    """Run the printed-law learner and measure the share of ``K_t + z_iB_d`` on its guesses' side.

    Theorem 8's learner with ``sampler="printed"`` on the mixed stream
    (:func:`mixed_margin_stream`) in dimension ``d``; at every round in which Algorithm 1's
    guess is used, the share of the uniform law on ``K_t + z_iB_d`` on the side
    ``⟨v, q⟩ >= g_t`` (Algorithm 1 wants 1/2): in ``d = 2`` from the independent polygon
    computation :func:`~mlgeom.multiscale.contextual_search.minkowski_halfplane_area` (the
    guess itself is exact, so this checks the closed form); in ``d > 2`` estimated from
    ``n_proposals`` exact-law rejection proposals
    (:func:`~mlgeom.multiscale.printed_law.split_fraction_mc`, a stream of its own).

    Parameters
    ----------
    d : int
        Dimension, ``>= 2``.
    T : int
        Rounds per run.
    seeds : list of numpy.random.Generator
        One per run.
    n_proposals : int, default=20000
        Proposals per split estimate (``d > 2``).

    Returns
    -------
    list of dict
        Per seed: ``fractions`` (one per guessed round), ``kept`` (accepted proposals per
        estimate; 0 in ``d = 2``), ``mistakes`` and the learner's ``seconds_per_round``.
    """
    d = check_positive_int(d, "d", minimum=2)
    T = check_positive_int(T, "T")
    n_proposals = check_positive_int(n_proposals, "n_proposals")
    if len(seeds) == 0:
        raise ValueError("seeds must hold at least one generator")
    tasks = [(d, T, n_proposals, j, s) for j, s in enumerate(seeds)]
    return pmap(_printed_split_task, tasks, desc=f"printed-law split, d = {d}")
