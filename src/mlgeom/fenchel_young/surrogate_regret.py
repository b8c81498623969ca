r"""Algorithm 2 of Sakaue et al. (2024): online structured prediction, learning rates, bounds.

For :math:`t = 1, \dots, T`: receive :math:`x_t`, compute :math:`\theta_t = W_t x_t`
(:math:`W_1 = 0`), play :math:`\hat y_t = \psi_\Omega(\theta_t)` (Algorithm 1), observe
:math:`y_t` and send :math:`S_t(W) = s\,S_\Omega(Wx_t; y_t)` to the online learner, whose
gradient is :math:`s(\hat y_\Omega(\theta_t) - y_t)x_t^\top` (Proposition 2.3). The scale
:math:`s` is ``1`` for the structured results (Theorems 4.2, 4.3, 4.6) and :math:`1/\ln 2` for
the base-2 logistic loss of Theorem 5.1.

:func:`run_online` is the plain per-round reference loop for any structure; it records, per
round, the realised target loss, its exact conditional expectation :math:`E_t`, the surrogate
loss, the squared gradient norm and the decoding's :math:`p`. The multiclass fast path lives in
:mod:`mlgeom.fenchel_young.logistic_ogd` and is checked against this loop.

The randomness of round ``t`` is the row ``t`` of a uniforms array drawn once from the seed
(``1 + structure.n_tilde_uniforms`` per round), so that every implementation consuming the
same array plays the same outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._validation import check_in, check_positive_int, check_real, check_unit_interval
from mlgeom.algorithms.online_gradient import OGD, AdaptiveOGD, CoinBettingOGD
from mlgeom.fenchel_young.decoding import (
    DECODINGS,
    decode,
    multiclass_decoding_law,
    randomized_decoding,
)
from mlgeom.fenchel_young.losses import Multiclass, Structure
from mlgeom.fenchel_young.streams import Stream, check_stream
from mlgeom.random import Seed, as_generator, spawn

__all__ = [
    "OnlineRecord",
    "draw_uniforms",
    "run_online",
    "run_seeds",
    "eta_theorem_4_2",
    "eta_theorem_4_3",
    "eta_theorem_5_1",
    "eta_gaptron",
    "bound_theorem_4_2",
    "bound_theorem_4_3",
    "bound_theorem_4_6",
    "bound_theorem_e_1",
    "bound_theorem_5_1",
    "bound_gaptron",
    "LN2",
]

LN2 = float(np.log(2.0))


@dataclass(frozen=True)
class OnlineRecord:
    r"""Per-round records of one run of Algorithm 2.

    Attributes
    ----------
    played : numpy.ndarray
        Played outputs :math:`\hat y_t`, ``(T, d)`` (class indices ``(T,)`` on the fast path).
    target_loss : numpy.ndarray
        :math:`L(\hat y_t; y_t)`, ``(T,)``.
    expected_loss : numpy.ndarray
        :math:`E_t[L(\hat y_t; y_t)]`, exact, ``(T,)``.
    surrogate_loss : numpy.ndarray
        :math:`S_t(W_t)` (with the run's scale), ``(T,)``.
    grad_norm_sq : numpy.ndarray
        :math:`\|\nabla S_t(W_t)\|_F^2`, ``(T,)``.
    p : numpy.ndarray
        Probability of the random branch (or exploration), ``(T,)``.
    W : numpy.ndarray
        Final weights :math:`W_{T+1}`.
    W_mean : numpy.ndarray
        :math:`\bar W = \frac1T\sum_{t\le T} W_t` (Theorem 4.6).
    """

    played: np.ndarray
    target_loss: np.ndarray
    expected_loss: np.ndarray
    surrogate_loss: np.ndarray
    grad_norm_sq: np.ndarray
    p: np.ndarray
    W: np.ndarray
    W_mean: np.ndarray

    @property
    def T(self) -> int:
        """Number of rounds."""
        return int(self.target_loss.shape[0])


def draw_uniforms(structure: Structure, T: int, seed: Seed) -> np.ndarray:
    """Draw the run's randomness: ``(T, 1 + structure.n_tilde_uniforms)`` uniforms in [0, 1)."""
    T = check_positive_int(T, "T")
    return as_generator(seed).random((T, 1 + structure.n_tilde_uniforms))


def run_online(
    structure: Structure,
    stream: Stream,
    *,
    eta: float | None = None,
    decoding: str = "randomized",
    loss_scale: float = 1.0,
    learner: str = "ogd",
    seed: Seed = None,
    uniforms: np.ndarray | None = None,
    B: float | None = None,
) -> OnlineRecord:
    r"""Run Algorithm 2 round by round (the reference implementation).

    Parameters
    ----------
    structure : Structure
        Output space with its Fenchel–Young loss.
    stream : Stream
        The rounds :math:`(x_t, y_t)`.
    eta : float, optional
        OGD learning rate (required for ``learner="ogd"``).
    decoding : {"randomized", "deterministic", "gaptron"}, default="randomized"
        Algorithm 1, always :math:`y^*`, or Gaptron-style (multiclass only).
    loss_scale : float, default=1.0
        :math:`s` in :math:`S_t = s\,S_\Omega` (:math:`1/\ln 2` for Theorem 5.1's loss).
    learner : {"ogd", "adaptive", "parameter_free"}, default="ogd"
        Alg: constant-rate OGD, OGD with Appendix E.1's adaptive rate on the ball of diameter
        ``B`` (Theorem E.1), or the Cutkosky–Orabona reduction (Appendix E.2).
    seed : int or numpy.random.Generator
        Draws the uniforms when ``uniforms`` is not given.
    uniforms : numpy.ndarray, optional
        ``(T, 1 + structure.n_tilde_uniforms)`` uniforms (overrides ``seed``).
    B : float, optional
        Diameter of the domain (required for ``learner="adaptive"``).

    Returns
    -------
    OnlineRecord
        Per-round records.
    """
    check_stream(structure, stream)
    check_in(decoding, "decoding", DECODINGS)
    check_in(learner, "learner", ("ogd", "adaptive", "parameter_free"))
    if B is not None:
        B = check_real(B, "B", low=0.0, low_inclusive=False)
    scale = check_real(loss_scale, "loss_scale", low=0.0, low_inclusive=False)
    if decoding == "gaptron" and not isinstance(structure, Multiclass):
        raise ValueError("decoding='gaptron' (uniform exploration) is defined for Multiclass only")
    T, (d, p_feat) = stream.T, (structure.d, stream.X.shape[1])
    shape = (T, 1 + structure.n_tilde_uniforms)
    if uniforms is None:
        U = draw_uniforms(structure, T, seed)
    else:
        U = check_unit_interval(uniforms, "uniforms", shape=shape)
    if learner == "ogd":
        if eta is None:
            raise ValueError("eta is required for learner='ogd'")
        alg: OGD | AdaptiveOGD | CoinBettingOGD = OGD((d, p_feat), eta)
    elif learner == "adaptive":
        if B is None:
            raise ValueError("B (the domain's diameter) is required for learner='adaptive'")
        alg = AdaptiveOGD((d, p_feat), B)
    else:
        alg = CoinBettingOGD((d, p_feat), G=scale * structure.diameter_l2 * stream.C)
    played = np.empty((T, d))
    rec = {k: np.empty(T) for k in ("L", "E", "S", "G", "p")}
    W_sum = np.zeros((d, p_feat))
    for t in range(T):
        i = stream.order[t]
        x, y = stream.X[i], stream.Y[i]
        W = alg.weights
        W_sum += W
        theta = W @ x
        if decoding == "gaptron":
            # Gaptron-style: explore uniformly with probability g = min{1, S_log2(θ; y*)}
            law = multiclass_decoding_law(theta, "gaptron")
            y_hat = structure.predict(theta)
            k = int(np.argmax(theta))
            g = float(min(1.0, -np.log2(y_hat[k])))
            idx = min(int(U[t, 1] * d), d - 1) if U[t, 0] < g else k
            y_play = np.eye(d)[idx]
            e_t = float(1.0 - law[int(np.argmax(y))])
            rec["p"][t] = g
        else:
            dec = randomized_decoding(structure, theta)
            y_hat = dec.y_hat
            if decoding == "randomized":
                y_play = decode(structure, dec, U[t])
                e_t = (1.0 - dec.p) * float(structure.target_loss(dec.y_star, y)) + dec.p * float(
                    structure.target_loss(y_hat, y)
                )
                rec["p"][t] = dec.p
            else:
                y_play = dec.y_star
                e_t = float(structure.target_loss(dec.y_star, y))
                rec["p"][t] = 0.0
        played[t] = y_play
        rec["L"][t] = float(structure.target_loss(y_play, y))
        rec["E"][t] = e_t
        rec["S"][t] = scale * float(structure.loss(theta, y))
        r = y_hat - y
        rec["G"][t] = scale**2 * float(r @ r) * float(x @ x)
        alg.update(scale * np.outer(r, x))
    return OnlineRecord(
        played,
        rec["L"],
        rec["E"],
        rec["S"],
        rec["G"],
        rec["p"],
        alg.weights.copy(),
        W_sum / T,
    )


def run_seeds(
    fn: Callable[..., Any],
    seeds: Sequence[Any] | int,
    *,
    seed: Seed = None,
    n_jobs: int | None = 1,
    desc: str | None = None,
) -> list[Any]:
    """Run ``fn(seed=child)`` for independent child seeds, through :func:`mlgeom.parallel.pmap`.

    Parameters
    ----------
    fn : callable
        Called as ``fn(seed=g)`` with a :class:`numpy.random.Generator` per run.
    seeds : int or sequence
        Number of runs (children spawned from ``seed``) or explicit seeds/generators.
    seed : int or numpy.random.Generator
        Parent seed when ``seeds`` is an int.
    n_jobs : int or None, default=1
        Workers (``1``: in this process; ``None``: ``$MLGEOM_N_JOBS``); ``MLGEOM_BACKEND``
        picks joblib or Dask. The results do not depend on it (each run has its own stream).
    desc : str, optional
        Label of the progress bar.
    """
    from mlgeom.parallel import pmap

    children = spawn(seed, seeds) if isinstance(seeds, int) else list(seeds)
    return pmap(_WithSeed(fn), children, n_jobs=n_jobs, desc=desc or "seeds")


class _WithSeed:
    """``g -> fn(seed=g)`` as a picklable object (joblib and Dask ship it to their workers)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.__qualname__ = getattr(fn, "__qualname__", type(fn).__name__)

    def __call__(self, g: Any) -> Any:
        return self.fn(seed=g)


# -- learning rates ---------------------------------------------------------------------


def eta_theorem_4_2(structure: Structure, C: float) -> float:
    r"""Return Theorem 4.2's rate.

    :math:`\eta = \frac{\lambda}{C^2\kappa^2}\min\{\frac12, 1 - \frac{4\gamma}{\lambda\nu}\}`.
    """
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    a = structure.a
    if a <= 0:
        raise ValueError(
            f"Theorem 4.2 needs lambda > 4 gamma / nu (a > 0); got a = {a:.4g} for {structure!r}"
        )
    return structure.lam / (C**2 * structure.kappa**2) * min(0.5, a)


def eta_theorem_4_3(structure: Structure, C: float) -> float:
    r""":math:`\eta = a/b = \frac{a\lambda}{2C^2\kappa^2}` (Theorem 4.3)."""
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    if structure.a <= 0:
        raise ValueError(f"Theorem 4.3 needs a > 0; got a = {structure.a:.4g}")
    return structure.a * structure.lam / (2.0 * C**2 * structure.kappa**2)


def eta_theorem_5_1(C: float) -> float:
    r""":math:`\eta = (1 - \ln 2)\ln 2 / C^2` for the base-2 logistic loss (Theorem 5.1)."""
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    return (1.0 - LN2) * LN2 / C**2


def eta_gaptron(d: int, C: float) -> float:
    r"""Return Gaptron's rate :math:`\ln 2/(dC^2)`.

    :math:`\eta = 2a/b` of Proposition 4.1 with gap :math:`a = 1/d`, :math:`b = 2C^2/\ln 2`.
    """
    d = check_positive_int(d, "d")
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    return LN2 / (d * C**2)


# -- bounds -----------------------------------------------------------------------------


def bound_theorem_4_2(structure: Structure, C: float, U_norm_sq: float) -> float:
    r"""Return Theorem 4.2's additive term.

    :math:`\frac{2\gamma C^2\kappa^2\|U\|_F^2}{\lambda^2\nu(1-m)m}`, :math:`m = \min\{\frac12, a\}`.
    """
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    U_norm_sq = check_real(U_norm_sq, "U_norm_sq", low=0.0)
    m = min(0.5, structure.a)
    s = structure
    return 2 * s.gamma * C**2 * s.kappa**2 * U_norm_sq / (s.lam**2 * s.nu * (1 - m) * m)


def bound_theorem_4_3(structure: Structure, C: float, U_norm_sq: float, delta: float) -> float:
    r"""Return Theorem 4.3's additive term.

    :math:`\frac1a(\frac{8\gamma C^2\kappa^2\|U\|_F^2}{\lambda^2\nu} + \gamma D\ln\frac1\delta)`.
    """
    s = structure
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    U_norm_sq = check_real(U_norm_sq, "U_norm_sq", low=0.0)
    delta = check_real(delta, "delta", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    main = 8 * s.gamma * C**2 * s.kappa**2 * U_norm_sq / (s.lam**2 * s.nu)
    return (main + s.gamma * s.diameter * np.log(1.0 / delta)) / s.a


def bound_theorem_4_6(structure: Structure, C: float, U_norm_sq: float, T: int) -> float:
    """Theorem 4.6's excess term: Theorem 4.2's additive term divided by ``T``."""
    bound = bound_theorem_4_2(structure, C, U_norm_sq)
    return bound / check_positive_int(T, "T")


def bound_theorem_e_1(structure: Structure, C: float, B: float) -> float:
    r"""Return Theorem E.1's additive term :math:`\frac{16\gamma C^2\kappa^2B^2}{a\lambda^2\nu}`.

    :math:`a = 1 - 4\gamma/(\lambda\nu)`; the bound holds for every :math:`U` in the domain of
    :math:`\ell_2` diameter :math:`B` that the adaptive-rate OGD works on. It is
    :math:`2(1-a)bB^2/a` with :math:`b = 2C^2\kappa^2/\lambda`, as in the proof.
    """
    s = structure
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    B = check_real(B, "B", low=0.0)
    if not s.a > 0:
        raise ValueError(f"Theorem E.1 needs lambda > 4 gamma / nu (a > 0); got a = {s.a}")
    return 16 * s.gamma * C**2 * s.kappa**2 * B**2 / (s.a * s.lam**2 * s.nu)


def bound_theorem_5_1(C: float, U_norm_sq: float) -> float:
    r"""Theorem 5.1's additive term :math:`C^2\|U\|_F^2 / (2(1-\ln 2)\ln 2)`."""
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    U_norm_sq = check_real(U_norm_sq, "U_norm_sq", low=0.0)
    return C**2 * U_norm_sq / (2.0 * (1.0 - LN2) * LN2)


def bound_gaptron(d: int, C: float, U_norm_sq: float) -> float:
    r"""Return Gaptron's additive term :math:`dC^2\|U\|_F^2/(2\ln 2)`.

    Proposition 4.1 with :math:`a = 1/d`, :math:`b = 2C^2/\ln 2`: :math:`b\|U\|^2/(4a)`.
    """
    d = check_positive_int(d, "d")
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    U_norm_sq = check_real(U_norm_sq, "U_norm_sq", low=0.0)
    return d * C**2 * U_norm_sq / (2.0 * LN2)
