r"""Randomized decoding :math:`\psi_\Omega` (Sakaue et al. 2024, Algorithm 1) and its baselines.

Algorithm 1, for scores :math:`\theta`:

1. :math:`\hat y_\Omega(\theta)`, the regularized prediction;
2. :math:`y^* \in \arg\min_{y\in\mathcal Y}\|y - \hat y_\Omega(\theta)\|` (Proposition 3.2);
3. :math:`\Delta^* = \|y^* - \hat y_\Omega(\theta)\|`, :math:`p = \min\{1, 2\Delta^*/\nu\}`;
4. :math:`Z \sim \mathrm{Bernoulli}(p)`;
5. return :math:`y^*` if :math:`Z = 0`, else :math:`\tilde y` with
   :math:`E[\tilde y \mid Z = 1] = \hat y_\Omega(\theta)`.

Because the target loss is affine (Assumption 2.1 (II)), the conditional expectation the
theorems bound is exact and cheap (proof of Lemma 3.1):

.. math::

    E[L(\psi_\Omega(\theta); y)] = (1 - p) L(y^*; y) + p L(\hat y_\Omega(\theta); y).

Baselines: *deterministic* decoding (always :math:`y^*`) and, for multiclass only, the
*Gaptron-style* decoding of Van der Hoeven (2020): play :math:`y^* = \arg\max\theta` with
probability :math:`1 - g` and a uniformly random class with probability
:math:`g = \min\{1, S_{\log_2}(\theta; y^*)\}` (the base-2 logistic loss of the arg max), which
leaves a surrogate gap :math:`a = 1/d` with respect to the base-2 logistic loss.

References
----------
.. [1] S. Sakaue, H. Bao, T. Tsuchiya, T. Oki, COLT 2024, Algorithm 1, Lemma 3.1,
   Proposition 3.2, Appendix D.
.. [2] D. van der Hoeven, "Exploiting the Surrogate Gap in Online Multiclass
   Classification", NeurIPS 2020.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._validation import check_in, check_not_complex, check_real, check_unit_interval
from mlgeom.fenchel_young.losses import Multiclass, Structure, softmax

__all__ = [
    "Decoding",
    "DECODINGS",
    "randomized_decoding",
    "decode",
    "expected_target_loss",
    "expected_target_loss_enumerated",
    "lemma31_ratio",
    "multiclass_decoding_law",
    "appendix_d_ratio",
    "appendix_d_ratio_closed_form",
]

DECODINGS: tuple[str, ...] = ("randomized", "deterministic", "gaptron")

_LN2 = float(np.log(2.0))


@dataclass(frozen=True)
class Decoding:
    r"""Steps 1–3 of Algorithm 1 for one score vector.

    Attributes
    ----------
    y_hat : numpy.ndarray
        :math:`\hat y_\Omega(\theta)`.
    y_star : numpy.ndarray
        Nearest extreme point :math:`y^*`.
    delta_star : float
        :math:`\Delta^* = \|y^* - \hat y_\Omega(\theta)\|`.
    p : float
        Probability :math:`\min\{1, 2\Delta^*/\nu\}` of returning the random :math:`\tilde y`.
    """

    y_hat: np.ndarray
    y_star: np.ndarray
    delta_star: float
    p: float


def randomized_decoding(structure: Structure, theta: Any) -> Decoding:
    r"""Compute steps 1–3 of Algorithm 1: :math:`\hat y_\Omega(\theta)`, :math:`y^*`, Δ* and p.

    Parameters
    ----------
    structure : Structure
        The output space and its Fenchel–Young loss.
    theta : array_like
        Scores, shape ``(d,)``.

    Returns
    -------
    Decoding
        The decoding's ingredients; :func:`decode` draws from it.
    """
    th = structure.check_theta(theta)
    if th.ndim != 1:
        raise ValueError(f"theta must be 1-D; got shape {th.shape}")
    y_hat = structure.predict(th)
    y_star = structure.nearest_extreme_point(y_hat)  # Proposition 3.2
    delta = float(structure.norm(y_star - y_hat))
    p = min(1.0, 2.0 * delta / structure.nu)  # step 3
    return Decoding(y_hat, y_star, delta, p)


def decode(structure: Structure, dec: Decoding, u: Any) -> np.ndarray:
    r"""Draw steps 4–5 of Algorithm 1 from ``1 + structure.n_tilde_uniforms`` uniforms ``u``.

    ``u[0] < p`` sets :math:`Z = 1`; the remaining uniforms draw :math:`\tilde y`.
    """
    uu = check_unit_interval(u, "u", shape=(1 + structure.n_tilde_uniforms,))
    if uu[0] < dec.p:
        return structure.sample_tilde(dec.y_hat, uu[1:])
    return dec.y_star


def _check_one_output(structure: Structure, y: Any) -> np.ndarray:
    """Return ``y`` as one element of the structure's output space (1-D), or raise."""
    yy = structure.check_output(y)
    if yy.ndim != 1:
        raise ValueError(f"y must be one output (1-D); got shape {yy.shape}")
    return yy


def expected_target_loss(structure: Structure, theta: Any, y: Any) -> float:
    r"""Exact :math:`E[L(\psi_\Omega(\theta); y)] = (1-p)L(y^*; y) + pL(\hat y_\Omega(\theta); y)`.

    The identity uses only that :math:`L(\cdot; y)` is affine (Assumption 2.1 (II)), as in
    the proof of Lemma 3.1.
    """
    dec = randomized_decoding(structure, theta)
    yy = _check_one_output(structure, y)
    return float(
        (1.0 - dec.p) * structure.target_loss(dec.y_star, yy)
        + dec.p * structure.target_loss(dec.y_hat, yy)
    )


def expected_target_loss_enumerated(structure: Structure, theta: Any, y: Any) -> float:
    r"""Compute the same expectation by summing over the decoding's actual law (no affinity used).

    :math:`\tilde y` is drawn from :meth:`Structure.tilde_distribution` (a product of
    Bernoullis, threshold sampling or a Birkhoff–von Neumann decomposition), so this checks
    :math:`E[\tilde y] = \hat y_\Omega` and the affine shortcut together.
    """
    dec = randomized_decoding(structure, theta)
    yy = _check_one_output(structure, y)
    w, Y = structure.tilde_distribution(dec.y_hat)
    tilde = float(np.sum(w * structure.target_loss(Y, np.broadcast_to(yy, Y.shape))))
    return float((1.0 - dec.p) * structure.target_loss(dec.y_star, yy) + dec.p * tilde)


def lemma31_ratio(structure: Structure, theta: Any, y: Any) -> float:
    r"""Return :math:`E[L(\psi_\Omega(\theta); y)] / S_\Omega(\theta; y)` (Lemma 3.1's ratio).

    Lemma 3.1 says it is at most :math:`4\gamma/(\lambda\nu)`.

    Returns ``0`` when both are zero and ``inf`` when only the loss is zero.
    """
    e = expected_target_loss(structure, theta, y)
    s = float(structure.loss(theta, y))
    if s <= 0.0:
        return 0.0 if e <= 1e-15 else float("inf")
    return e / s


def multiclass_decoding_law(theta: Any, decoding: str = "randomized") -> np.ndarray:
    r"""Law of the played class for each score vector (rows of ``theta``), multiclass only.

    * ``"randomized"`` (Algorithm 1 with :math:`\Omega` of eq. (2)): :math:`y^* = e_k`,
      :math:`k = \arg\max_i \sigma_i(\theta)`, :math:`\Delta^* = \|e_k - \sigma\|_1 =
      2(1 - \sigma_k)`, :math:`p = \min\{1, \Delta^*\}` (:math:`\nu = 2`), law
      :math:`(1-p)e_k + p\,\sigma(\theta)`;
    * ``"deterministic"``: :math:`e_k`;
    * ``"gaptron"``: :math:`(1-g)e_k + g\,\mathbf 1/d`, :math:`g = \min\{1, -\log_2\sigma_k\}`.

    Ties in the arg max go to the smallest index. The exact :math:`E_t[1\{\hat y \ne y\}]` is
    one minus the law's entry at the true class.
    """
    check_not_complex(theta, "theta")
    try:
        th = np.asarray(theta, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"theta must be a real array; got {theta!r:.60}") from exc
    if th.ndim < 1 or th.shape[-1] < 2 or not np.all(np.isfinite(th)):
        raise ValueError(f"theta must be finite with last axis >= 2; got shape {th.shape}")
    check_in(decoding, "decoding", DECODINGS)
    d = th.shape[-1]
    sig = softmax(th)
    k = np.argmax(th, axis=-1)
    onehot = np.eye(d)[k]
    sk = np.take_along_axis(sig, k[..., None], axis=-1)
    if decoding == "deterministic":
        return onehot
    if decoding == "randomized":
        p = np.minimum(1.0, 2.0 * (1.0 - sk))
        return (1.0 - p) * onehot + p * sig
    g = np.minimum(1.0, -np.log2(sk))
    return (1.0 - g) * onehot + g / d


def appendix_d_ratio(eps: float) -> float:
    r"""Return Appendix D's ratio :math:`\frac{\lambda\nu}{\gamma}E[L(\psi_\Omega(\theta); e_1)]/S`.

    Computed with the library on :math:`\theta = (1, 1 + \ln(2^{1+\varepsilon} - 1))`,
    :math:`\mathcal Y = \{e_1, e_2\}`; tends to :math:`2/\ln 2` as :math:`\varepsilon \to 0`.
    """
    e = check_real(eps, "eps", low=0.0, low_inclusive=False)
    s = Multiclass(2)
    theta = np.array([1.0, 1.0 + np.log(2.0 ** (1.0 + e) - 1.0)])
    y = np.array([1.0, 0.0])
    return s.lam * s.nu / s.gamma * lemma31_ratio(s, theta, y)


def appendix_d_ratio_closed_form(eps: float) -> float:
    r"""Return Appendix D's printed closed form.

    :math:`4(1 - 2^{-1-2\varepsilon})/((1+\varepsilon)\ln 2)`.
    """
    e = check_real(eps, "eps", low=0.0, low_inclusive=False)
    return 4.0 * (1.0 - 2.0 ** (-1.0 - 2.0 * e)) / ((1.0 + e) * _LN2)
