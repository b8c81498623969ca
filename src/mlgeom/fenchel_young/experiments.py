r"""Experiment drivers and figures of the chapter on Sakaue et al. (2024).

The paper has no experiments; each driver measures one theorem's quantity so that the notebook
can draw it against its bound. Every driver takes a ``seed`` and returns plain arrays or
:class:`pandas.DataFrame` objects; the plotting helpers take those and return a figure.

The sweeps over ``d``, ``T``, ``M`` and seeds run through :func:`mlgeom.parallel.pmap` (the
environment picks joblib, Dask or a plain loop): child streams are spawned here in the order of
the plain loop and handed to the tasks, so the numbers do not depend on where they run.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd

from mlgeom._validation import (
    check_in,
    check_int_vector,
    check_positive_int,
    check_real,
    check_vector,
    check_vector_in,
)
from mlgeom.fenchel_young import comparator as cmp
from mlgeom.fenchel_young import surrogate_regret as sr
from mlgeom.fenchel_young.decoding import (
    appendix_d_ratio,
    appendix_d_ratio_closed_form,
    lemma31_ratio,
)
from mlgeom.fenchel_young.logistic_ogd import logistic_ogd_batch, logistic_ogd_loop
from mlgeom.fenchel_young.losses import Multiclass, Structure, smooth_hinge
from mlgeom.fenchel_young.streams import (
    Stream,
    _random_outputs,
    check_stream,
    correlated_prototype_stream,
    lower_bound_instance,
    prototype_stream,
    random_prototype_stream,
)
from mlgeom.parallel import pmap
from mlgeom.random import Seed, as_generator, spawn
from mlgeom.stats import loglog_slope

__all__ = [
    "appendix_d_supremum",
    "lemma31_supremum",
    "lemma31_draws",
    "lemma31_line",
    "appendix_d_table",
    "multiclass_runs",
    "worst_case_table",
    "correlated_table",
    "slope_per_seed",
    "second_half_fractions",
    "STEPS",
    "GEOMETRIES",
    "step_size",
    "own_step",
    "uniform_mean_output",
    "uniform_expected_losses",
    "uniform_realised_losses",
    "horizon_table",
    "lower_bound_table",
    "structured_check",
    "theorem_e1_table",
    "high_probability_table",
    "online_to_batch",
    "margin_comparison",
    "speed_benchmark",
    "slope_table",
    "plot_lemma31",
    "plot_appendix_d",
    "plot_d_scaling",
    "plot_lower_bound",
    "plot_cumulative",
]

LOG2E = 1.0 / sr.LN2


# -- Lemma 3.1 and Appendix D --------------------------------------------------------------


def lemma31_draws(structure: Structure, n_draws: int, *, seed: Seed = None) -> np.ndarray:
    r"""Return Lemma 3.1's ratios :math:`E[L(\psi_\Omega(\theta); y)]/S_\Omega(\theta; y)`.

    :math:`\theta = s\,g` with :math:`g \sim N(0, I)` and a log-uniform scale
    :math:`s \in [10^{-1.5}, 10^{1.5}]`; :math:`y` is the arg max output
    :math:`\arg\max_y\langle\theta, y\rangle` (small-loss regime) or a uniform output, with
    probability 1/2 each.
    """
    n_draws = check_positive_int(n_draws, "n_draws", minimum=0)
    rng = as_generator(seed)
    out = np.empty(n_draws)
    for k in range(n_draws):
        theta = 10 ** rng.uniform(-1.5, 1.5) * rng.standard_normal(structure.d)
        if rng.random() < 0.5:
            y = structure.linear_oracle(-theta)
        else:
            y = _random_outputs(structure, rng, 1)[0]
        out[k] = lemma31_ratio(structure, theta, y)
    return out


def lemma31_line(structure: Structure, ts: np.ndarray) -> np.ndarray:
    r"""Lemma 3.1's ratio along a one-parameter family of scores that is tight or near-tight.

    For the 0-1 polytopes (multilabel, ordinal) :math:`\theta = t\mathbf 1` with
    :math:`y = 0`: when the projection pools every coordinate, each inequality of the lemma's
    proof is an equality and the ratio equals :math:`4\gamma/(\lambda\nu)`. For multiclass
    :math:`\theta = t e_1`, :math:`y = e_1` (for :math:`t < 0` the other classes are favoured
    equally; Appendix D's configuration in ``d`` classes).
    Other structures are not covered (``ValueError``).
    """
    from mlgeom.fenchel_young.losses import Multilabel, Ordinal

    ts = check_vector(ts, "ts", min_size=0)
    if isinstance(structure, Multilabel | Ordinal):
        pairs = [(np.full(structure.d, t), np.zeros(structure.d)) for t in ts]
    elif isinstance(structure, Multiclass):
        e = np.eye(structure.d)
        pairs = [(t * e[0], e[0]) for t in ts]
    else:
        raise ValueError(f"no tight family is known for {structure!r}")
    return np.array([lemma31_ratio(structure, th, y) for th, y in pairs])


def lemma31_supremum(
    structure: Structure,
    n_starts: int,
    *,
    starts: list[tuple[Any, Any]] | None = None,
    screen: int = 20,
    max_evals: int = 1500,
    box: float = 10.0,
    seed: Seed = None,
) -> tuple[float, np.ndarray, np.ndarray]:
    r"""Maximise Lemma 3.1's ratio :math:`E[L(\psi_\Omega(\theta); y)]/S_\Omega(\theta; y)`.

    Lemma 3.1 states the ratio is at most :math:`4\gamma/(\lambda\nu)` for *every*
    :math:`(\theta, y)`; random draws under-probe such a statement, so this searches for its
    supremum. Starting points: the given ``starts`` (the known tight configurations, e.g.
    multilabel :math:`\theta = t\mathbf 1`, :math:`y = 0`) and the ``n_starts`` largest of
    ``screen * n_starts`` random pairs drawn as in :func:`lemma31_draws`. From each, bounded
    Nelder–Mead (adaptive, :math:`|\theta_i| \le` ``box``, at most ``max_evals`` evaluations)
    maximises the ratio over :math:`\theta` with :math:`y` fixed (the starts run through
    :func:`~mlgeom.parallel.pmap`; each is deterministic). Points where
    :math:`S_\Omega < 10^{-12}` count as ratio 0: there both sides are below rounding and the
    computed quotient is noise.

    Returns
    -------
    ratio : float
        The largest ratio found.
    theta, y : numpy.ndarray
        Where it was found.
    """
    n_starts = check_positive_int(n_starts, "n_starts", minimum=0)
    screen = check_positive_int(screen, "screen")
    max_evals = check_positive_int(max_evals, "max_evals")
    box = check_real(box, "box", low=0.0, low_inclusive=False)
    pairs = []
    for th, y in starts or []:
        th = check_vector(th, "starts theta", size=structure.d)
        pairs.append((th, structure.check_output(y)))
    if not pairs and n_starts == 0:
        raise ValueError("lemma31_supremum needs n_starts >= 1 or some starts; got neither")
    rng = as_generator(seed)
    drawn = []
    for _ in range(screen * n_starts):
        theta = 10 ** rng.uniform(-1.5, 1.5) * rng.standard_normal(structure.d)
        if rng.random() < 0.5:
            y = structure.linear_oracle(-theta)
        else:
            y = _random_outputs(structure, rng, 1)[0]
        drawn.append((_safe_ratio(structure, theta, y), theta, y))
    drawn.sort(key=lambda r: -r[0])
    pairs += [(th, y) for _, th, y in drawn[:n_starts]]
    pairs = [(np.clip(th, -box, box), y) for th, y in pairs]
    tasks = [(structure, th0, y, box, max_evals) for th0, y in pairs]
    found = pmap(_lemma31_local_max, tasks, desc="Lemma 3.1: maximise from each start")
    best = (-np.inf, pairs[0][0], pairs[0][1])
    for r, th, y in found:
        if r > best[0]:
            best = (r, th, y)
    return float(best[0]), best[1], best[2]


def _lemma31_local_max(task: tuple) -> tuple[float, np.ndarray, np.ndarray]:
    """One start of :func:`lemma31_supremum`: bounded Nelder–Mead, or the start if better."""
    from scipy.optimize import minimize

    structure, th0, y, box, max_evals = task
    res = minimize(
        lambda th: -_safe_ratio(structure, th, y),
        th0,
        method="Nelder-Mead",
        bounds=[(-box, box)] * structure.d,
        options={"maxfev": max_evals, "adaptive": True, "xatol": 1e-10, "fatol": 1e-14},
    )
    r0 = _safe_ratio(structure, th0, y)
    if r0 >= -float(res.fun):
        return r0, np.asarray(th0, dtype=np.float64), y
    return -float(res.fun), np.asarray(res.x, dtype=np.float64), y


def _safe_ratio(structure: Structure, theta: np.ndarray, y: np.ndarray) -> float:
    """Lemma 3.1's ratio, 0 where the surrogate loss is below rounding (< 1e-12)."""
    if float(structure.loss(theta, y)) < 1e-12:
        return 0.0
    return lemma31_ratio(structure, theta, y)


def appendix_d_supremum(hi: float = 5.0) -> tuple[float, float]:
    r"""Supremum over :math:`\varepsilon \in (0, hi]` of Appendix D's normalised ratio.

    Appendix D prints the limit :math:`2/\ln 2` as :math:`\varepsilon \to 0`; the ratio
    :math:`4(1 - 2^{-1-2\varepsilon})/((1+\varepsilon)\ln 2)` first increases, so its supremum
    is a larger lower bound on Lemma 3.1's constant. Bounded scalar optimisation of the
    library's ratio (:func:`~mlgeom.fenchel_young.decoding.appendix_d_ratio`).

    Returns
    -------
    eps, ratio : float
        The maximiser and the supremum.
    """
    from scipy.optimize import minimize_scalar

    hi = check_real(hi, "hi", low=0.0, low_inclusive=False)
    res = minimize_scalar(
        lambda e: -appendix_d_ratio(e), bounds=(0.0, hi), method="bounded", options={"xatol": 1e-10}
    )
    return float(res.x), float(-res.fun)


def appendix_d_table(eps: np.ndarray) -> pd.DataFrame:
    r"""Appendix D: the library's ratio, the printed closed form, and deterministic decoding.

    Columns: ``ratio`` (randomized decoding, :math:`\frac{\lambda\nu}{\gamma}E[L]/S_\Omega`),
    ``closed_form`` (the paper's formula), ``det_ratio`` (the same ratio for deterministic
    decoding) and ``det_gap`` (the surrogate gap :math:`a = 1 - E[L]/S_{\log_2}` left by
    deterministic decoding w.r.t. the base-2 loss). Every column but ``closed_form`` is
    computed with the library on :math:`\theta = (1, 1 + \ln(2^{1+\varepsilon} - 1))`,
    :math:`y = e_1`: the loss :meth:`Multiclass.loss` and the law of the played class
    (:func:`~mlgeom.fenchel_young.decoding.multiclass_decoding_law`). Section 3 gives the
    deterministic values in closed form, :math:`4/((1+\varepsilon)\ln 2)` and
    :math:`\varepsilon/(1+\varepsilon)`; the tests compare the two.
    """
    from mlgeom.fenchel_young.decoding import multiclass_decoding_law

    check_vector_in(eps, "eps", low=0.0, low_inclusive=False)
    s = Multiclass(2)
    norm = s.lam * s.nu / s.gamma
    y = np.array([1.0, 0.0])
    rows = []
    for e in eps:
        theta = np.array([1.0, 1.0 + np.log(2.0 ** (1.0 + e) - 1.0)])  # Appendix D
        S = float(s.loss(theta, y))  # natural-log logistic loss, (1 + eps) ln 2
        E_det = 1.0 - float(multiclass_decoding_law(theta, "deterministic")[0])
        rows.append(
            {
                "eps": e,
                "ratio": appendix_d_ratio(e),
                "closed_form": appendix_d_ratio_closed_form(e),
                "det_ratio": norm * E_det / S,
                "det_gap": 1.0 - E_det / (S * LOG2E),
            }
        )
    return pd.DataFrame(rows).set_index("eps")


# -- multiclass (Theorem 5.1, Gaptron) ----------------------------------------------------------


#: The two step sizes of the headline's 2×2 design.
STEPS = ("theorem_5_1", "gaptron")

#: The prototype geometries of :func:`worst_case_table`.
GEOMETRIES = ("orthonormal", "random")


def step_size(step: str, d: int, C: float = 1.0) -> float:
    r"""Return a named OGD step size for ``d`` classes and input bound ``C``.

    ``"theorem_5_1"``: :math:`\eta = (1-\ln 2)\ln 2/C^2` (Theorem 5.1);
    ``"gaptron"``: :math:`\eta = \ln 2/(dC^2)` (Proposition 4.1 with :math:`a = 1/d`).
    """
    check_in(step, "step", STEPS)
    check_positive_int(d, "d")
    if step == "theorem_5_1":
        return sr.eta_theorem_5_1(C)
    if step == "gaptron":
        return sr.eta_gaptron(d, C)
    raise ValueError(f"step must be one of {STEPS}; got {step!r}")


def own_step(decoding: str) -> str:
    """Return the step size a decoding is analysed with (Gaptron's for ``"gaptron"``)."""
    check_in(decoding, "decoding", sr.DECODINGS)
    return "gaptron" if decoding == "gaptron" else "theorem_5_1"


def multiclass_runs(
    streams: list[Stream],
    d: int,
    decoding: str,
    *,
    seed: Seed = None,
    C: float = 1.0,
    step: str | None = None,
):
    """Run the fast path on several streams (one per seed) and return the batch record.

    ``step`` names the OGD step size (:func:`step_size`); by default the decoding's own
    (:func:`own_step`), so that the decoding and the step size can be varied one at a time.
    """
    d = check_positive_int(d, "d", minimum=2)
    check_in(decoding, "decoding", sr.DECODINGS)
    if step is not None:
        check_in(step, "step", STEPS)
    T = streams[0].T
    if any(s.T != T for s in streams):
        raise ValueError("streams must have equal lengths")
    X, labels = streams[0].X, streams[0].labels
    orders = np.stack([s.order for s in streams])
    unif = np.stack([g.random((T, 2)) for g in spawn(seed, len(streams))])
    eta = step_size(own_step(decoding) if step is None else step, d, C)
    return logistic_ogd_batch(X, labels, orders, unif, d=d, eta=eta, decoding=decoding)


def worst_case_table(
    ds: list[int],
    T: int,
    n_prototypes: int,
    n_seeds: int,
    *,
    decodings: tuple[str, ...] = ("randomized", "gaptron", "deterministic"),
    steps: tuple[str, ...] | None = None,
    uniform: bool = False,
    noise: float = 0.0,
    geometry: str = "orthonormal",
    dim: int | None = None,
    max_cosine: float = 0.5,
    horizons: tuple[int, ...] | None = None,
    arms: tuple[tuple[str, str], ...] | None = None,
    seed: Seed = None,
) -> pd.DataFrame:
    r"""Run the headline sweep: worst-case surrogate regret per unit :math:`\|U\|_F^2` against d.

    For each number of classes and seed, a prototype stream; each decoding runs on it and
    :math:`c^* = \sup_U R_T(U)/\|U\|_F^2` is computed exactly (ridge bisection). Theorem 5.1
    says :math:`c^* \le 1/(2(1-\ln 2)\ln 2)` for the randomized decoding; Gaptron's analysis
    gives :math:`c^* \le d/(2\ln 2)`.

    ``steps=None`` runs each decoding with its own step size (:func:`own_step`); a tuple of
    step names (:data:`STEPS`) runs every decoding with every step (the 2×2 design that
    changes one factor at a time). ``uniform=True`` adds the uniform guesser
    (:math:`\sum_t E_t = T(1 - 1/d)`, ``decoding = "uniform"``, ``step = "none"``) on the
    same streams. ``arms``, a tuple of ``(decoding, step)`` pairs, replaces the product of
    ``decodings`` and ``steps`` (each decoding draws its uniforms once, in the order of its
    first appearance, and shares them across its steps). Every arm of one call runs on the
    same streams (one call per design: a second call with the same
    ``numpy.random.Generator`` draws new streams, because spawning advances it).

    ``geometry="orthonormal"`` uses :func:`~mlgeom.fenchel_young.streams.prototype_stream`
    (a seed only relabels the prototypes and reorders the visits); ``geometry="random"`` uses
    :func:`~mlgeom.fenchel_young.streams.random_prototype_stream` with ``dim`` (default
    ``2 * n_prototypes``) and ``max_cosine``, so that each seed draws a new geometry.
    ``horizons`` (default ``(T,)``) gives :math:`c^*` on prefixes of the same runs (to see
    whether it has stabilised). Columns: ``d, seed, decoding, step, T, sum_E, mistakes,
    c_star``.
    """
    check_int_vector(ds, "ds", minimum=2)
    T = check_positive_int(T, "T")
    m = check_positive_int(n_prototypes, "n_prototypes")
    check_positive_int(n_seeds, "n_seeds")
    check_real(noise, "noise", low=0.0, high=1.0)
    check_in(geometry, "geometry", GEOMETRIES)
    p = 2 * m if dim is None else check_positive_int(dim, "dim", minimum=m)
    rho = check_real(
        max_cosine, "max_cosine", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
    )
    hs = (T,) if horizons is None else tuple(check_int_vector(horizons, "horizons", minimum=1))
    if max(hs) > T:
        raise ValueError(f"horizons must be <= T={T}; got {max(hs)}")
    if isinstance(decodings, str) or not decodings:
        raise ValueError(f"decodings must be a non-empty tuple of names; got {decodings!r}")
    for dec in decodings:
        check_in(dec, "decodings", sr.DECODINGS)
    if steps is not None:
        if isinstance(steps, str) or not steps:
            raise ValueError(f"steps must be a non-empty tuple of names; got {steps!r}")
        for st in steps:
            check_in(st, "steps", STEPS)
    if arms is None:
        arm_list = tuple(
            (dec, st) for dec in decodings for st in ((own_step(dec),) if steps is None else steps)
        )
    else:
        if isinstance(arms, str) or not arms:
            raise ValueError(f"arms must be a non-empty tuple of (decoding, step); got {arms!r}")
        for a in arms:
            if not isinstance(a, tuple) or len(a) != 2:
                raise ValueError(f"each arm must be a (decoding, step) pair; got {a!r}")
            check_in(a[0], "arms decoding", sr.DECODINGS)
            check_in(a[1], "arms step", STEPS)
        arm_list = tuple(arms)
    tasks = [
        (d, g, T, n_prototypes, n_seeds, arm_list, uniform, noise, (geometry, p, rho), hs)
        for d, g in zip(ds, spawn(seed, len(ds)), strict=True)
    ]
    per_d = pmap(_worst_case_rows, tasks, desc="Theorem 5.1: worst case against d")
    return pd.DataFrame([row for rows in per_d for row in rows])


def _worst_case_rows(task: tuple) -> list[dict[str, Any]]:
    """One ``d`` of :func:`worst_case_table`: its streams, every arm, every seed."""
    from threadpoolctl import threadpool_limits

    # small fits: one BLAS thread, so that the numbers do not depend on the caller's threads
    with threadpool_limits(limits=1, user_api="blas"):
        return _worst_case_rows_1(task)


def _worst_case_rows_1(task: tuple) -> list[dict[str, Any]]:
    """Body of :func:`_worst_case_rows`, under a one-thread BLAS limit."""
    d, g, T, n_prototypes, n_seeds, arm_list, uniform, noise, geo, hs = task
    geometry, dim, max_cosine = geo
    gs = spawn(g, n_seeds + 1)
    if geometry == "orthonormal":
        streams = [
            prototype_stream(d, T, n_prototypes=n_prototypes, noise=noise, seed=h)
            for h in gs[:n_seeds]
        ]
    else:
        streams = [
            random_prototype_stream(
                d,
                T,
                n_prototypes=n_prototypes,
                dim=dim,
                max_cosine=max_cosine,
                noise=noise,
                seed=h,
            )
            for h in gs[:n_seeds]
        ]
    s = Multiclass(d)
    rows = []

    def add(k, st, dec, step, E, mistakes, hi=1e4):
        for h in hs:
            c = cmp.worst_case_constant(s, st.head(h), float(E[h - 1]), loss_scale=LOG2E, hi=hi)
            rows.append(
                {
                    "d": d,
                    "seed": k,
                    "decoding": dec,
                    "step": step,
                    "T": h,
                    "sum_E": float(E[h - 1]),
                    "mistakes": float(mistakes[h - 1]),
                    "c_star": c,
                }
            )

    # the decodings' uniforms do not depend on the step size: arms differ in one factor only
    decodings = tuple(dict.fromkeys(dec for dec, _ in arm_list))
    for dec, h in zip(decodings, spawn(gs[-1], len(decodings)), strict=True):
        for step in (st for dd, st in arm_list if dd == dec):
            if geometry == "orthonormal":  # one pool for every seed: one batch
                rec = multiclass_runs(streams, d, dec, seed=h, step=step)
                E_all, L_all = rec.expected_loss, rec.target_loss
            else:  # a pool per seed: the same uniforms as the batch would draw, per stream
                unif = np.stack([u.random((T, 2)) for u in spawn(h, len(streams))])
                eta = step_size(step, d)
                recs = [
                    logistic_ogd_batch(
                        st.X, st.labels, st.order[None], unif[k : k + 1], d=d, eta=eta, decoding=dec
                    )
                    for k, st in enumerate(streams)
                ]
                E_all = np.concatenate([r.expected_loss for r in recs])
                L_all = np.concatenate([r.target_loss for r in recs])
            for k, st in enumerate(streams):
                add(k, st, dec, step, np.cumsum(E_all[k]), np.cumsum(L_all[k]))
    if uniform:
        E_u = (1.0 - 1.0 / d) * np.arange(1, T + 1)
        for k, st in enumerate(streams):
            add(k, st, "uniform", "none", E_u, E_u, hi=1e7)
    return rows


def correlated_table(
    ds: list[int],
    T: int,
    n_seeds: int,
    *,
    arms: tuple[tuple[str, str], ...],
    n_prototypes: int,
    cosine: float,
    feature_noise: float,
    label_noise: float,
    pool: int,
    adversary: bool = False,
    uniform: bool = False,
    horizons: tuple[int, ...] | None = None,
    seed: Seed = None,
) -> pd.DataFrame:
    r"""Measure the headline's :math:`c^*` on streams that do not decompose, optionally adaptive.

    For each number of classes and seed, a
    :func:`~mlgeom.fenchel_young.streams.correlated_prototype_stream` (correlated prototypes,
    feature noise, label noise). Each arm ``(decoding, step)`` runs on it; with
    ``adversary=True`` (``label_noise`` must be 0) the stream's order is discarded and the
    adaptive adversary of :func:`~mlgeom.fenchel_young.adversary.adversarial_ogd_batch`
    chooses each round's pair among the stream's distinct (input, clean class) pairs, the one
    with the largest exact :math:`E_t` against that arm's learner (so each arm gets its own
    order over the same labelled pool, and the comparators that fit the pool stay accurate).
    :math:`c^* = \sup_U R_T(U)/\|U\|_F^2` is computed exactly (ridge bisection,
    :func:`~mlgeom.fenchel_young.comparator.worst_case_constant`) on the rounds the arm faced,
    at every horizon of ``horizons`` (prefixes of the same run; default ``(T,)``).

    ``uniform=True`` adds the uniform guesser (:math:`\sum_t E_t = T(1 - 1/d)`,
    ``decoding = "uniform"``, ``step = "none"``) on the rounds faced by the first arm (with an
    adversary, the classes it chose against that arm's learner). The decodings' uniforms are
    shared across arms. Columns: ``d, seed, decoding, step, T, sum_E, c_star``.
    """
    check_int_vector(ds, "ds", minimum=2)
    T = check_positive_int(T, "T")
    check_positive_int(n_seeds, "n_seeds")
    if isinstance(arms, str) or not arms:
        raise ValueError(f"arms must be a non-empty tuple of (decoding, step); got {arms!r}")
    for arm in arms:
        if not isinstance(arm, tuple) or len(arm) != 2:
            raise ValueError(f"each arm must be a (decoding, step) pair; got {arm!r}")
        check_in(arm[0], "arms decoding", sr.DECODINGS)
        check_in(arm[1], "arms step", STEPS)
    hs = (T,) if horizons is None else tuple(check_int_vector(horizons, "horizons", minimum=1))
    if max(hs) > T:
        raise ValueError(f"horizons must be <= T={T}; got {max(hs)}")
    kw = {
        "n_prototypes": n_prototypes,
        "cosine": cosine,
        "feature_noise": feature_noise,
        "label_noise": label_noise,
        "pool": pool,
    }
    correlated_prototype_stream(2, 1, seed=0, **kw)  # validate the stream's parameters here
    if adversary and kw["label_noise"] != 0.0:
        raise ValueError(
            f"the adversary reveals clean pairs only: label_noise must be 0; got {label_noise!r}"
        )
    tasks = [
        (d, k, h, T, tuple(arms), kw, bool(adversary), bool(uniform), hs)
        for d, g in zip(ds, spawn(seed, len(ds)), strict=True)
        for k, h in enumerate(spawn(g, n_seeds))
    ]
    rows = pmap(_correlated_rows, tasks, desc="Theorem 5.1: correlated streams against d")
    return pd.DataFrame([r for rs in rows for r in rs])


def _correlated_rows(task: tuple) -> list[dict[str, Any]]:
    """One ``(d, seed)`` of :func:`correlated_table`: its stream, every arm, every horizon."""
    from threadpoolctl import threadpool_limits

    # the fits are small: one BLAS thread is ~25x faster than two on a 2-core machine, and the
    # numbers then do not depend on the caller's thread count
    with threadpool_limits(limits=1, user_api="blas"):
        return _correlated_rows_1(task)


def _correlated_rows_1(task: tuple) -> list[dict[str, Any]]:
    """Body of :func:`_correlated_rows`, under a one-thread BLAS limit."""
    from dataclasses import replace

    from mlgeom.fenchel_young.adversary import adversarial_ogd_batch

    d, k, g, T, arms, kw, adversary, uniform, hs = task
    h_stream, h_dec = spawn(g, 2)
    st = correlated_prototype_stream(d, T, seed=h_stream, **kw)
    unif = h_dec.random((1, T, 2))
    s = Multiclass(d)
    rows: list[dict[str, Any]] = []
    faced = []
    for dec, step in arms:
        eta = step_size(step, d)
        if adversary:
            # candidates: the distinct (input, clean class) pairs of the stream (pool rows)
            cand = np.unique(st.order)
            rec, picks = adversarial_ogd_batch(
                st.X[cand], st.labels[cand], unif, d=d, eta=eta, decoding=dec
            )
            arm_stream = replace(st, order=cand[picks[0]])
        else:
            arm_stream = st
            rec = logistic_ogd_batch(
                st.X, st.labels, st.order[None], unif, d=d, eta=eta, decoding=dec
            )
        faced.append(arm_stream)
        E = np.cumsum(rec.expected_loss[0])
        for h in hs:
            c = cmp.worst_case_constant(s, arm_stream.head(h), float(E[h - 1]), loss_scale=LOG2E)
            rows.append(
                {
                    "d": d,
                    "seed": k,
                    "decoding": dec,
                    "step": step,
                    "T": h,
                    "sum_E": float(E[h - 1]),
                    "c_star": c,
                }
            )
    if uniform:
        for h in hs:
            E_u = h * (1.0 - 1.0 / d)
            c = cmp.worst_case_constant(s, faced[0].head(h), E_u, loss_scale=LOG2E, hi=1e7)
            rows.append(
                {
                    "d": d,
                    "seed": k,
                    "decoding": "uniform",
                    "step": "none",
                    "T": h,
                    "sum_E": E_u,
                    "c_star": c,
                }
            )
    return rows


def slope_per_seed(table: pd.DataFrame, x: str, y: str) -> np.ndarray:
    """Log–log slope of ``y`` against ``x`` fitted separately for each ``seed`` of ``table``."""
    return np.array(
        [
            loglog_slope(g[x].to_numpy(float), g[y].to_numpy(float)).slope
            for _, g in table.groupby("seed", sort=True)
        ]
    )


def second_half_fractions(
    d: int,
    T: int,
    n_prototypes: int,
    n_seeds: int,
    *,
    learner: str = "parameter_free",
    seed: Seed = None,
) -> np.ndarray:
    r"""Fraction of :math:`\sum_t E_t` paid in the second half, one prototype stream per seed.

    Appendix E.2's parameter-free learner (or ``learner="ogd"`` with Theorem 5.1's rate) on
    :func:`~mlgeom.fenchel_young.streams.prototype_stream` streams; a finite surrogate regret
    makes the fraction small, a learner that keeps erring at a constant rate pays about 1/2.
    """
    if learner not in ("parameter_free", "ogd"):
        raise ValueError(f"learner must be 'parameter_free' or 'ogd'; got {learner!r}")
    check_positive_int(d, "d", minimum=2)
    check_positive_int(T, "T")
    check_positive_int(n_prototypes, "n_prototypes")
    check_positive_int(n_seeds, "n_seeds")
    tasks = [(d, T, n_prototypes, learner, g) for g in spawn(seed, n_seeds)]
    return np.array(pmap(_second_half_fraction, tasks, desc="App. E.2: seeds"))


def _second_half_fraction(task: tuple) -> float:
    """One seed of :func:`second_half_fractions`."""
    d, T, n_prototypes, learner, g = task
    h1, h2 = spawn(g, 2)
    st = prototype_stream(d, T, n_prototypes=n_prototypes, seed=h1)
    if learner == "parameter_free":
        kw: dict[str, Any] = {"learner": "parameter_free"}
    else:
        kw = {"eta": sr.eta_theorem_5_1(1.0)}
    rec = sr.run_online(Multiclass(d), st, loss_scale=LOG2E, seed=h2, **kw)
    E = rec.expected_loss
    return float(E[T // 2 :].sum() / E.sum())


# -- the uniform guesser: the strawman of every bound -------------------------------------------


def uniform_mean_output(structure: Structure) -> np.ndarray:
    r"""Mean of the uniform distribution on :math:`\mathcal Y` (the uniform guesser's play).

    The target loss is affine on :math:`\mathrm{conv}(\mathcal Y)` (Assumption 2.1), so the
    uniform guesser's expected loss is :math:`L(\bar y; y)` with this mean :math:`\bar y`.
    """
    from mlgeom.fenchel_young.losses import Multilabel, Ranking
    from mlgeom.fenchel_young.permutahedron import Permutahedron

    if isinstance(structure, Multilabel):
        return np.full(structure.d, 0.5)
    if isinstance(structure, Ranking):
        return np.full(structure.d, 1.0 / structure.n)
    if isinstance(structure, Permutahedron):
        return np.full(structure.d, (structure.d + 1) / 2.0)
    return structure.outputs().mean(axis=0)


def uniform_expected_losses(structure: Structure, stream: Stream) -> np.ndarray:
    r"""Per-round expected target loss of uniform guessing, :math:`E_t = L(\bar y; y_t)`."""
    Y = stream.Y[stream.order]
    return structure.target_loss(np.broadcast_to(uniform_mean_output(structure), Y.shape), Y)


def uniform_realised_losses(
    structure: Structure, stream: Stream, n_seeds: int, *, seed: Seed = None
) -> np.ndarray:
    r"""Realised :math:`\sum_t L(\hat y_t; y_t)` of uniform guessing, one total per seed.

    Multilabel plays independent fair bits; the other structures a uniform element of
    :meth:`~mlgeom.fenchel_young.losses.Structure.outputs`.
    """
    from mlgeom.fenchel_young.losses import Multilabel

    n_seeds = check_positive_int(n_seeds, "n_seeds", minimum=0)
    Y = stream.Y[stream.order]
    out = np.empty(n_seeds)
    for k, g in enumerate(spawn(seed, n_seeds)):
        if isinstance(structure, Multilabel):
            P = (g.random(Y.shape) < 0.5).astype(np.float64)
        else:
            outs = structure.outputs()
            P = outs[g.integers(len(outs), size=len(Y))]
        out[k] = float(structure.target_loss(P, Y).sum())
    return out


def slope_table(table: pd.DataFrame, x: str, y: str, by: str) -> pd.DataFrame:
    """Log–log slopes of the seed-mean of ``y`` against ``x`` for each group of ``by``."""
    rows = []
    for key, grp in table.groupby(by, sort=False):
        m = grp.groupby(x)[y].mean()
        fit = loglog_slope(m.index.to_numpy(float), m.to_numpy(float))
        rows.append({by: key, "slope": fit.slope, "stderr": fit.stderr})
    return pd.DataFrame(rows).set_index(by)


def horizon_table(
    stream: Stream,
    d: int,
    Ts: list[int],
    n_seeds: int,
    *,
    competitors: tuple[str, ...] = (),
    seed: Seed = None,
) -> pd.DataFrame:
    r"""Theorem 5.1 at every horizon: slack :math:`\min_U\{\sum S_t(U) + c\|U\|^2\} - \sum E_t`.

    ``stream`` is cut at each ``T`` in ``Ts``; one run per seed on the full stream gives all
    prefixes. ``slack >= 0`` means the bound holds for every comparator :math:`U` at that ``T``.
    Each decoding named in ``competitors`` (``"deterministic"``, ``"gaptron"``) also runs on
    the same stream with Theorem 5.1's step, under the same bound: columns
    ``sum_E_<decoding>`` and ``slack_<decoding>``. In full information :math:`E_t` does not
    depend on the decoding's draws, so the competitors' numbers do not depend on ``seed``.
    """
    check_positive_int(d, "d", minimum=2)
    check_int_vector(Ts, "Ts", minimum=1, maximum=stream.T)
    check_positive_int(n_seeds, "n_seeds")
    if isinstance(competitors, str):
        raise ValueError(f"competitors must be a tuple of decoding names; got {competitors!r}")
    for dec in competitors:
        check_in(dec, "competitors", sr.DECODINGS)
    s = Multiclass(d)
    c51 = sr.bound_theorem_5_1(stream.C, 1.0)
    rec = multiclass_runs([stream] * n_seeds, d, "randomized", seed=seed, C=stream.C)
    comp = {
        dec: multiclass_runs([stream], d, dec, C=stream.C, step="theorem_5_1", seed=0)
        for dec in competitors
    }
    fits = pmap(_ridge_at_horizon, [(s, stream, T, c51) for T in Ts], desc="Theorem 5.1: horizons")
    rows = []
    for T, (total_loss, norm) in zip(Ts, fits, strict=True):
        opt = total_loss + c51 * norm**2
        for k in range(n_seeds):
            E = float(rec.expected_loss[k, :T].sum())
            row = {
                "T": T,
                "seed": k,
                "sum_E": E,
                "min_bound": opt,
                "slack": opt - E,
                "U_norm": norm,
                "sum_S_U": total_loss,
            }
            for dec, r in comp.items():
                E_c = float(r.expected_loss[0, :T].sum())
                row[f"sum_E_{dec}"] = E_c
                row[f"slack_{dec}"] = opt - E_c
            rows.append(row)
    return pd.DataFrame(rows)


def _ridge_at_horizon(task: tuple) -> tuple[float, float]:
    """Theorem 5.1's ridge comparator on the first ``T`` rounds: (total loss, ‖U‖_F)."""
    s, stream, T, c51 = task
    fit = cmp.fit_ridge(s, stream.head(T), c51, loss_scale=LOG2E)
    return fit.total_loss, fit.norm


def lower_bound_table(
    ds: list[int], Ms: list[int], T: int, n_seeds: int, *, seed: Seed = None
) -> pd.DataFrame:
    r"""Theorem 5.2's instance: our regret against :math:`U'` beside the bounds.

    Columns: ``regret`` (:math:`\sum E_t - \sum S_t(U')`, Theorem 5.1's learner;
    ``regret_deterministic`` and ``regret_gaptron``: deterministic and Gaptron-style decoding
    with the same step on the same instance, the natural competitors),
    ``first_M`` (its part over the first ``M`` rounds), ``block_E`` (its expected 0-1 loss
    summed over rounds ``M+1..T``, the fresh round ``M+1`` included), ``exact_lb`` (what
    *every* algorithm pays in expectation: :math:`(M+1)(1 - 1/d) - \sum_t S_t(U')`),
    ``upper`` (Theorem 5.1's bound with :math:`U'`) and ``B2`` (:math:`\|U'\|_F^2`).
    """
    check_int_vector(ds, "ds", minimum=2)
    Ms_ = check_int_vector(Ms, "Ms", minimum=1)
    check_positive_int(T, "T", minimum=int(Ms_.max()) + 1)
    check_positive_int(n_seeds, "n_seeds")
    tasks = [
        (d, M, T, k, hh)
        for d, g in zip(ds, spawn(seed, len(ds)), strict=True)
        for M, h in zip(Ms, spawn(g, len(Ms)), strict=True)
        for k, hh in enumerate(spawn(h, n_seeds))
    ]
    return pd.DataFrame(pmap(_lower_bound_row, tasks, desc="Theorem 5.2: d × M × seeds"))


def _lower_bound_row(task: tuple) -> dict[str, Any]:
    """One run of :func:`lower_bound_table` (the instance and the learner share ``hh``)."""
    d, M, T, k, hh = task
    s = Multiclass(d)
    st, B = lower_bound_instance(d, M, T, seed=hh)
    rec = multiclass_runs([st], d, "randomized", seed=hh)
    E = rec.expected_loss[0]
    S_U = LOG2E * s.loss(st.X[st.order] @ st.U.T, st.Y[st.order])
    # the competitors: E_t is exact and does not depend on the draws (full information)
    E_c = {
        dec: multiclass_runs([st], d, dec, seed=0, step="theorem_5_1").expected_loss[0]
        for dec in ("deterministic", "gaptron")
    }
    return {
        "regret_deterministic": float(E_c["deterministic"].sum() - S_U.sum()),
        "regret_gaptron": float(E_c["gaptron"].sum() - S_U.sum()),
        "d": d,
        "M": M,
        "seed": k,
        "B2": B**2,
        "regret": float(E.sum() - S_U.sum()),
        "first_M": float(E[:M].sum() - S_U[:M].sum()),
        "exact_lb": float((M + 1) * (1 - 1 / d) - S_U.sum()),
        "repeated_mean_E": float(E[M + 1 :].mean()),
        "block_E": float(E[M:].sum()),  # rounds M+1..T together (the fresh round M+1 included)
        "upper": sr.bound_theorem_5_1(1.0, B**2),
        "B2_over_ln2d": B**2 / np.log(d) ** 2,
    }


# -- structured outputs (Theorems 4.2, 4.3, 4.6) ---------------------------------------------


def structured_check(
    structure: Structure,
    stream: Stream,
    n_seeds: int,
    *,
    seed: Seed = None,
    n_jobs: int = 1,
    decoding: str = "randomized",
    fit: cmp.Fit | None = None,
) -> tuple[pd.DataFrame, list[sr.OnlineRecord]]:
    r"""Theorem 4.2 on one stream: runs over seeds and the slack against every comparator.

    ``slack = min_U {Σ S_t(U) + c‖U‖²} − Σ E_t`` with :math:`c` Theorem 4.2's coefficient.
    ``fit`` is that minimiser, ``fit_ridge(structure, stream, c)``, when the caller has
    already computed it (it is computed here when ``None``; a given one is trusted, only its
    shape is checked), so that a chapter reusing the comparator fits it once.
    """
    check_positive_int(n_seeds, "n_seeds")
    check_in(decoding, "decoding", sr.DECODINGS)
    if fit is not None and (
        not isinstance(fit, cmp.Fit) or np.shape(fit.U) != (structure.d, stream.X.shape[1])
    ):
        raise ValueError(
            f"fit must be the Fit of fit_ridge(structure, stream, c) with U of shape "
            f"{(structure.d, stream.X.shape[1])}; got {fit!r:.80}"
        )
    C = stream.C
    eta = sr.eta_theorem_4_2(structure, C)

    def one(seed):
        return sr.run_online(structure, stream, eta=eta, decoding=decoding, seed=seed)

    recs = sr.run_seeds(one, n_seeds, seed=seed, n_jobs=n_jobs, desc="Theorem 4.2: seeds")
    c42 = sr.bound_theorem_4_2(structure, C, 1.0)
    if fit is None:
        fit = cmp.fit_ridge(structure, stream, c42)
    opt = fit.total_loss + c42 * fit.norm**2
    rows = [
        {
            "seed": k,
            "sum_E": float(r.expected_loss.sum()),
            "sum_L": float(r.target_loss.sum()),
            "min_bound": opt,
            "slack": opt - float(r.expected_loss.sum()),
        }
        for k, r in enumerate(recs)
    ]
    return pd.DataFrame(rows), recs


def theorem_e1_table(
    structure: Structure, streams: list[Stream], *, seed: Seed = None, n_jobs: int | None = None
) -> pd.DataFrame:
    r"""Theorem E.1 on each stream: the adaptive-rate OGD learner against its bound.

    For each stream, :math:`U` minimises :math:`\sum_t S_t(U) + c\|U\|_F^2` (ridge fit) with
    :math:`c` Theorem E.1's additive term at :math:`B = 2\|U\|_F`, the diameter of the
    smallest ball centred at 0 that holds :math:`U`; the learner
    (:class:`mlgeom.algorithms.online_gradient.AdaptiveOGD`) gets that :math:`B`.

    Returns
    -------
    pandas.DataFrame
        One row per stream: ``B``, ``sum_E``, ``bound``
        (:math:`\sum_t S_t(U) + c\|U\|_F^2`), ``uniform`` (the uniform guesser's expected
        loss) and ``slack = bound - sum_E``.
    """
    streams = list(streams)
    if not streams:
        raise ValueError("streams must hold at least one stream")
    for st in streams:
        check_stream(structure, st)
    tasks = [(structure, st, g) for st, g in zip(streams, spawn(seed, len(streams)), strict=True)]
    rows = pmap(_theorem_e1_one, tasks, n_jobs=n_jobs, desc="Theorem E.1: streams")
    out = pd.DataFrame(rows)
    out["slack"] = out["bound"] - out["sum_E"]
    return out


def _theorem_e1_one(task: tuple) -> dict[str, float]:
    structure, stream, g = task
    c = sr.bound_theorem_e_1(structure, stream.C, 2.0)  # per |U|^2: B = 2|U|, B^2 = 4|U|^2
    fit = cmp.fit_ridge(structure, stream, c)
    B = 2.0 * fit.norm
    rec = sr.run_online(structure, stream, learner="adaptive", B=B, seed=g)
    return {
        "B": B,
        "sum_E": float(rec.expected_loss.sum()),
        "bound": float(fit.total_loss + c * fit.norm**2),
        "uniform": float(uniform_expected_losses(structure, stream).sum()),
    }


def high_probability_table(
    structure: Structure,
    stream: Stream,
    n_seeds: int,
    delta: float,
    *,
    seed: Seed = None,
    n_jobs: int = 1,
) -> pd.DataFrame:
    r"""Theorem 4.3: realised :math:`\sum_t L_t(\hat y_t)` over decoding seeds against the bound.

    Per seed, ``slack = min_U {Σ S_t(U) + c‖U‖²} + γD ln(1/δ)/a − Σ L_t`` with
    :math:`c = 8\gamma C^2\kappa^2/(a\lambda^2\nu)`; the theorem says
    :math:`P(\text{slack} < 0) \le \delta`.
    """
    check_positive_int(n_seeds, "n_seeds")
    check_real(delta, "delta", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    C = stream.C
    eta = sr.eta_theorem_4_3(structure, C)
    recs = sr.run_seeds(
        lambda seed: sr.run_online(structure, stream, eta=eta, seed=seed),
        n_seeds,
        seed=seed,
        n_jobs=n_jobs,
        desc="Theorem 4.3: seeds",
    )
    s = structure
    coef = sr.bound_theorem_4_3(s, C, 1.0, delta) - sr.bound_theorem_4_3(s, C, 0.0, delta)
    const = sr.bound_theorem_4_3(s, C, 0.0, delta)
    fit = cmp.fit_ridge(s, stream, coef)
    opt = fit.total_loss + coef * fit.norm**2 + const
    return pd.DataFrame(
        [
            {
                "seed": k,
                "sum_L": float(r.target_loss.sum()),
                "sum_E": float(r.expected_loss.sum()),
                "bound": opt,
                "slack": opt - float(r.target_loss.sum()),
            }
            for k, r in enumerate(recs)
        ]
    )


def online_to_batch(
    structure: Structure, train: Stream, test: Stream, *, seed: Seed = None
) -> dict[str, float]:
    r"""Theorem 4.6: expected target risk of :math:`\psi_\Omega(\bar W x)` on held-out data.

    Returns the held-out risk of the averaged iterate, the right-hand side minimised over
    :math:`U` (:math:`\min_U E_{\text{test}}[S(Ux; y)] + c_{4.2}\|U\|_F^2/T`) and the held-out
    risk of the last iterate.
    """
    from mlgeom.fenchel_young.decoding import expected_target_loss

    C = max(train.C, test.C)
    rec = sr.run_online(structure, train, eta=sr.eta_theorem_4_2(structure, C), seed=seed)
    Xt, Yt = test.X[test.order], test.Y[test.order]

    def risk(W):
        return float(
            np.mean(
                [expected_target_loss(structure, W @ x, y) for x, y in zip(Xt, Yt, strict=True)]
            )
        )

    n = test.T
    coef = sr.bound_theorem_4_2(structure, C, 1.0) / train.T
    fit = cmp.fit_ridge(structure, test, coef * n)  # Σ over n test points = n · E_test
    rhs = (fit.total_loss + coef * n * fit.norm**2) / n
    return {"risk_avg": risk(rec.W_mean), "rhs": rhs, "risk_last": risk(rec.W), "T": train.T}


# -- the paper's logistic vs smooth hinge remark --------------------------------------------------


def margin_comparison(margins: np.ndarray) -> pd.DataFrame:
    r"""Binary logistic :math:`\log_2(1 + e^{-m})` against smooth hinge losses at margins ``m``.

    ``printed`` is the formula printed in Section 5, :math:`\max\{1 - m^2, 0\}`;
    ``smooth_hinge`` is :func:`mlgeom.fenchel_young.losses.smooth_hinge`.
    """
    m = check_vector(margins, "margins", min_size=0)
    return pd.DataFrame(
        {
            "logistic": np.log2(1.0 + np.exp(-m)),
            "printed": np.maximum(1.0 - m**2, 0.0),
            "smooth_hinge": smooth_hinge(m),
        },
        index=pd.Index(m, name="margin"),
    )


# -- speed --------------------------------------------------------------------------------


def speed_benchmark(
    *,
    d: int = 10,
    p: int = 100,
    T: int = 200_000,
    n_seeds: int = 8,
    loop_T: int = 20_000,
    seed: Seed = None,
    repeats: int = 3,
) -> dict[str, Any]:
    r"""Measure rounds per second of the compiled batch and of the plain per-round numpy loop.

    Multiclass OGD with randomized decoding and exact :math:`E_t` on a planted stream with
    ``d`` classes and ``p`` features. The batch runs ``n_seeds`` seeds of ``T`` rounds; the loop
    runs the first ``loop_T`` rounds of seed 0 (and, with ``libm=True``, must give bitwise
    identical records). Best of ``repeats`` timings. Volatile: never put into a claims record.
    """
    d = check_positive_int(d, "d", minimum=2)
    p = check_positive_int(p, "p")
    T = check_positive_int(T, "T")
    n_seeds = check_positive_int(n_seeds, "n_seeds")
    loop_T = check_positive_int(loop_T, "loop_T")
    if loop_T > T:
        raise ValueError(f"loop_T must be <= T={T}; got {loop_T}")
    repeats = check_positive_int(repeats, "repeats")
    rng = as_generator(seed)
    n = 2000
    X = rng.standard_normal((n, p))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    labels = np.argmax(X @ rng.standard_normal((d, p)).T, axis=1)
    orders = rng.integers(n, size=(n_seeds, T))
    unif = rng.random((n_seeds, T, 2))
    eta = sr.eta_theorem_5_1(1.0)
    logistic_ogd_batch(X, labels, orders[:, :10], unif[:, :10], d=d, eta=eta)  # compile
    best_b = best_l = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        batch = logistic_ogd_batch(X, labels, orders, unif, d=d, eta=eta)
        best_b = min(best_b, time.perf_counter() - t0)
    for _ in range(repeats):
        t0 = time.perf_counter()
        loop = logistic_ogd_loop(X, labels, orders[0, :loop_T], unif[0, :loop_T], d=d, eta=eta)
        best_l = min(best_l, time.perf_counter() - t0)
    exact = logistic_ogd_loop(
        X, labels, orders[0, :loop_T], unif[0, :loop_T], d=d, eta=eta, libm=True
    )
    fields = ("played", "target_loss", "expected_loss", "surrogate_loss", "grad_norm_sq", "p")
    identical = all(
        np.array_equal(getattr(batch, f)[0, :loop_T], getattr(exact, f)[0]) for f in fields
    )
    same_play = bool(np.array_equal(batch.played[0, :loop_T], loop.played[0]))
    max_diff = max(
        float(np.max(np.abs(getattr(batch, f)[0, :loop_T] - getattr(loop, f)[0])))
        for f in fields[1:]
    )
    rb, rl = n_seeds * T / best_b, loop_T / best_l
    return {
        "batch_rounds_per_s": rb,
        "loop_rounds_per_s": rl,
        "ratio": rb / rl,
        "identical_libm": identical,
        "same_played_numpy_exp": same_play,
        "max_diff_numpy_exp": max_diff,
    }


# -- figures ------------------------------------------------------------------------------


def plot_lemma31(ratios: dict[str, np.ndarray], bounds: dict[str, float]):
    """Distribution of Lemma 3.1's ratio per structure, bound as a dashed tick."""
    from mlgeom.book.plotting import COLORS, figure

    fig, ax = figure()
    names = list(ratios)
    for k, name in enumerate(names):
        r = ratios[name]
        ax.scatter(
            np.full(r.size, k) + np.linspace(-0.25, 0.25, r.size),
            r,
            s=4,
            alpha=0.35,
            color=COLORS["ours"],
            label="draws" if k == 0 else None,
        )
        ax.hlines(
            bounds[name],
            k - 0.35,
            k + 0.35,
            colors=COLORS["paper"],
            linestyles="--",
            label=r"$4\gamma/(\lambda\nu)$" if k == 0 else None,
        )
    ax.set_xticks(range(len(names)), names)
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.set_ylim(bottom=0.0)
    ax.set_ylabel(r"$E[L(\psi_\Omega(\theta); y)] / S_\Omega(\theta; y)$")
    ax.legend(loc="lower right")
    return fig


def plot_appendix_d(table: pd.DataFrame):
    """Appendix D's ratio against ε with the limit 2/ln 2 and Lemma 3.1's constant 4."""
    from mlgeom.book.plotting import COLORS, PAPER_STYLE, figure

    fig, ax = figure()
    ax.semilogx(
        table.index, table["ratio"], "o-", color=COLORS["ours"], label="randomized decoding (ours)"
    )
    ax.semilogx(
        table.index,
        table["det_ratio"],
        "s-",
        color=COLORS["baseline"],
        label="deterministic decoding",
    )
    ax.axhline(2 / np.log(2), **PAPER_STYLE, label=r"limit $2/\ln 2$")
    ax.axhline(4.0, color=COLORS["neutral"], lw=1, label="Lemma 3.1's constant 4")
    ax.axhline(
        4 / np.log(2),
        color=COLORS["accent"],
        lw=1,
        ls=":",
        label=r"$4/\ln 2$: no surrogate gap left",
    )
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$\frac{\lambda\nu}{\gamma}\,E[L]/S_\Omega$")
    ax.legend(fontsize=9)
    return fig


def plot_d_scaling(table: pd.DataFrame, bound_ours: float):
    """Worst-case regret per unit ‖U‖² against d, mean and min–max band over seeds.

    One colour per decoding; with a ``step`` column (the 2×2 design), solid lines for
    Theorem 5.1's step size and dashed ones for Gaptron's. Uniform-guessing rows are skipped.
    """
    from mlgeom.book.plotting import COLORS, PAPER_STYLE, figure

    bound_ours = check_real(bound_ours, "bound_ours", low=0.0, low_inclusive=False)
    fig, ax = figure()
    colors = {
        "randomized": COLORS["ours"],
        "gaptron": COLORS["baseline"],
        "deterministic": COLORS["accent"],
    }
    table = table[table["decoding"] != "uniform"]
    keys = ["decoding", "step"] if "step" in table else ["decoding"]
    multi = "step" in table and table["step"].nunique() > 1
    for key, grp in table.groupby(keys, sort=False):
        dec = key[0] if isinstance(key, tuple) else key
        step = key[1] if isinstance(key, tuple) and len(key) > 1 else None
        ls = "--" if step == "gaptron" and multi else "-"
        label = _DECODING_WORDS[dec] + (f", {_STEP_WORDS[step]}" if multi else "")
        agg = grp.groupby("d")["c_star"].agg(["mean", "min", "max"])
        ax.loglog(agg.index, agg["mean"], "o", ls=ls, color=colors[dec], label=label)
        ax.fill_between(agg.index, agg["min"], agg["max"], color=colors[dec], alpha=0.15)
    ds = np.array(sorted(table["d"].unique()), dtype=float)
    ax.loglog(ds, np.full(ds.size, bound_ours), **PAPER_STYLE, label="Theorem 5.1 bound")
    ax.loglog(
        ds,
        ds / (2 * np.log(2)),
        color=COLORS["neutral"],
        ls=":",
        label=r"Gaptron bound $d/(2\ln 2)$",
    )
    ax.set_xticks(ds, [str(int(d)) for d in ds])
    ax.minorticks_off()
    ax.set_xlabel("number of classes $d$")
    ax.set_ylabel(r"$c^* = \sup_U R_T(U)/\|U\|_F^2$")
    ax.legend(fontsize=9)
    return fig


#: Legend words for the decodings and step sizes (issue 28: legends in words).
_DECODING_WORDS = {
    "randomized": "randomized decoding",
    "gaptron": "Gaptron-style decoding",
    "deterministic": "deterministic decoding",
}
_STEP_WORDS = {"theorem_5_1": "Theorem 5.1's step", "gaptron": "Gaptron's step"}


def plot_lower_bound(table: pd.DataFrame):
    """Regret on Theorem 5.2's instance against ‖U'‖², with the lower and upper bounds."""
    from mlgeom.book.plotting import COLORS, PAPER_STYLE, figure

    fig, ax = figure()
    markers = iter("osD^v")
    for d, grp in table.groupby("d"):
        agg = grp.groupby("B2")[["regret", "exact_lb"]].mean()
        mk = next(markers)
        ax.loglog(agg.index, agg["regret"], mk + "-", color=COLORS["ours"], label=f"ours, d = {d}")
        ax.loglog(
            agg.index,
            agg["exact_lb"],
            mk + ":",
            color=COLORS["baseline"],
            label=f"any algorithm ≥, d = {d}",
        )
    b2 = np.sort(table["B2"].unique())
    ax.loglog(
        b2, b2 / (2 * (1 - np.log(2)) * np.log(2)), **PAPER_STYLE, label="Theorem 5.1 upper bound"
    )
    ax.set_xlabel(r"$B^2 = \|U'\|_F^2$")
    ax.set_ylabel("surrogate regret against $U'$")
    ax.legend(fontsize=9, ncols=2)
    return fig


def plot_cumulative(curves: dict[str, np.ndarray], ylabel: str):
    """Cumulative curves (rows = seeds) per method: mean line and min–max band."""
    from mlgeom.book.plotting import COLORS, figure

    fig, ax = figure()
    palette = [COLORS["ours"], COLORS["baseline"], COLORS["accent"], COLORS["neutral"]]
    for (name, arr), col in zip(curves.items(), palette, strict=False):
        c = np.cumsum(np.atleast_2d(arr), axis=1)
        t = np.arange(1, c.shape[1] + 1)
        ax.plot(t, c.mean(0), color=col, label=name)
        ax.fill_between(t, c.min(0), c.max(0), color=col, alpha=0.2)
    ax.set_xlabel("round $t$")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=9)
    return fig
