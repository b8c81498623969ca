r"""Fenchel–Young losses for four output structures (Sakaue et al. 2024, Sections 2.2–2.3, App. C).

A structure bundles what the paper's analysis needs about an output space
:math:`\mathcal Y \subset \mathbb R^d`:

* the regularized prediction :math:`\hat y_\Omega(\theta) = \arg\max\{\langle\theta, y\rangle
  - \Psi(y) : y \in \mathrm{conv}(\mathcal Y)\}` (Proposition 2.3),
* the Fenchel–Young loss :math:`S_\Omega(\theta; y) = \Omega^*(\theta) + \Omega(y) -
  \langle\theta, y\rangle` (Definition 2.2) and its gradient :math:`\hat y_\Omega(\theta) - y`,
* the target loss :math:`L(\cdot; y)`, affine on :math:`\mathrm{conv}(\mathcal Y)`
  (Assumption 2.1 (II)),
* the constants :math:`\nu` (min distance, Assumption 2.1 (I)), :math:`\gamma` (Lipschitz
  constant of :math:`L`, (III)), :math:`\lambda` (strong convexity of :math:`\Psi` w.r.t. the
  structure's norm :math:`\|\cdot\|`), :math:`\kappa` (:math:`\kappa\|y\| \ge \|y\|_2`) and the
  diameter :math:`D` of :math:`\mathrm{conv}(\mathcal Y)` in :math:`\|\cdot\|`,
* a linear optimisation oracle on :math:`\mathcal Y` and, through it, the nearest extreme point
  of Proposition 3.2.

===============  ==========================  ======  ===========  =================  ==========
structure        :math:`\Omega`               norm    :math:`\nu`  :math:`\gamma`     λ
===============  ==========================  ======  ===========  =================  ==========
multiclass       :math:`-H^s` on simplex      ℓ1      2            1/2                1
multilabel       :math:`\frac s2\|y\|^2`      ℓ2      1            :math:`1/\sqrt d`  s
ranking          :math:`-\frac1\mu H^s`       ℓ1      4            1/(2n)             1/(nμ)
ordinal          :math:`\frac s2\|y\|^2`      ℓ2      1            :math:`1/\sqrt d`  s
===============  ==========================  ======  ===========  =================  ==========

The SparseMAP structures carry a *strength* :math:`s` (the paper's "scale up Ψ", Section 4.1);
:math:`s = 1` is the paper's example. All methods are vectorised over leading axes of
``theta`` and ``y``.

References
----------
.. [1] S. Sakaue, H. Bao, T. Tsuchiya, T. Oki, COLT 2024, Sections 2–3 and Appendix C.
.. [2] M. Blondel, A. F. T. Martins, V. Niculae, "Learning with Fenchel–Young Losses",
   JMLR 21(35), 2020.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from mlgeom._validation import (
    check_last_axis,
    check_not_complex,
    check_positive_int,
    check_real,
    check_unit_interval,
)
from mlgeom.fenchel_young.birkhoff import assignment, sinkhorn_log

__all__ = [
    "Structure",
    "Multiclass",
    "Multilabel",
    "Ranking",
    "Ordinal",
    "softmax",
    "logsumexp",
    "isotonic_decreasing",
    "smooth_hinge",
]


def logsumexp(theta: np.ndarray, axis: int = -1) -> np.ndarray:
    r"""Stable :math:`\log\sum_i e^{\theta_i}` along ``axis`` (max-shifted)."""
    theta = _check_scores(theta, "theta", axis)
    m = np.max(theta, axis=axis, keepdims=True)
    return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(theta - m), axis=axis))


def _check_scores(theta: Any, name: str, axis: int) -> np.ndarray:
    check_not_complex(theta, name)
    try:
        arr = np.asarray(theta, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real array; got {theta!r:.60}") from exc
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one axis; got the scalar {arr.item()!r}")
    if not isinstance(axis, int | np.integer) or not -arr.ndim <= axis < arr.ndim:
        raise ValueError(f"axis must be an axis of {name} (ndim {arr.ndim}); got {axis!r}")
    if arr.shape[axis] == 0:
        raise ValueError(f"{name} must be non-empty along axis {axis}; got shape {arr.shape}")
    bad = np.isnan(arr) | (arr == np.inf)
    if np.any(bad):
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must not contain NaN or +inf; got {arr[at]} at index {at}")
    if np.any(np.all(arr == -np.inf, axis=axis)):
        raise ValueError(f"{name} has a slice along axis {axis} that is all -inf")
    return arr


def softmax(theta: np.ndarray, axis: int = -1) -> np.ndarray:
    r"""Stable softmax :math:`\sigma_i(\theta) = e^{\theta_i}/\sum_j e^{\theta_j}` (Section 5).

    ``theta`` must be real, non-empty along ``axis``, free of NaN and ``+inf``; ``-inf`` scores
    get probability 0 unless a whole slice is ``-inf``.
    """
    theta = _check_scores(theta, "theta", axis)
    z = np.exp(theta - np.max(theta, axis=axis, keepdims=True))
    return z / np.sum(z, axis=axis, keepdims=True)


def isotonic_decreasing(v: np.ndarray) -> np.ndarray:
    r"""Euclidean projection of ``v`` (last axis) onto :math:`\{y_1 \ge y_2 \ge \dots \ge y_d\}`.

    Pool-adjacent-violators on each row; used with clipping to project onto the ordinal
    polytope :math:`\{1 \ge y_1 \ge \dots \ge y_d \ge 0\}` (clipping commutes with isotonic
    regression for box constraints).
    """
    arr = check_last_axis(v, "v")
    flat = arr.reshape(-1, arr.shape[-1])
    out = np.empty_like(flat)
    for r, row in enumerate(flat):
        means: list[float] = []
        sizes: list[int] = []
        for x in row:
            means.append(float(x))
            sizes.append(1)
            while len(means) > 1 and means[-2] < means[-1]:
                m2, s2 = means.pop(), sizes.pop()
                m1, s1 = means.pop(), sizes.pop()
                means.append((m1 * s1 + m2 * s2) / (s1 + s2))
                sizes.append(s1 + s2)
        out[r] = np.repeat(means, sizes)
    return out.reshape(arr.shape)


def smooth_hinge(margin: np.ndarray) -> np.ndarray:
    r"""Smooth hinge loss of the multiclass margin :math:`m = \theta_y - \max_{k\ne y}\theta_k`.

    :math:`1 - 2m` for :math:`m \le 0`, :math:`(1 - m)^2` for :math:`0 < m \le 1`, :math:`0`
    beyond (the quadratically smoothed hinge scaled to upper-bound the 0-1 loss, as used by
    Van der Hoeven 2020). Not a Fenchel–Young loss of the kind Algorithm 1 needs (footnote 9).
    """
    check_not_complex(margin, "margin")
    try:
        m = np.asarray(margin, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"margin must be a real array; got {margin!r:.60}") from exc
    if not np.all(np.isfinite(m)):
        at = tuple(int(i) for i in np.argwhere(~np.isfinite(np.atleast_1d(m)))[0])
        raise ValueError(f"margin must be finite; got {np.atleast_1d(m)[at]} at index {at}")
    return np.where(m <= 0, 1.0 - 2.0 * m, np.where(m <= 1, (1.0 - m) ** 2, 0.0))


class Structure:
    """Base class: an output space with its Fenchel–Young loss, target loss and constants.

    Subclasses set ``d`` (dimension of scores and outputs), ``nu``, ``gamma``, ``lam``,
    ``kappa``, ``norm_p`` (1 or 2) and ``diameter``, and implement :meth:`predict`,
    :meth:`_omega`, :meth:`target_loss`, :meth:`linear_oracle`, :meth:`sample_tilde` and
    :meth:`outputs` (enumeration, for small cases and tests).
    """

    name: str = "structure"
    d: int
    nu: float
    gamma: float
    lam: float
    kappa: float
    norm_p: int
    diameter: float
    #: ℓ2 diameter of conv(Y) (bounds ‖∇S‖ / ‖x‖) and Lipschitz constant of ŷ_Ω in ℓ2
    diameter_l2: float
    smoothness: float
    #: uniforms needed to draw one ỹ with E[ỹ] = ŷ_Ω (Algorithm 1, step 5)
    n_tilde_uniforms: int = 1

    # -- validation -------------------------------------------------------------------
    def check_theta(self, theta: Any, name: str = "theta") -> np.ndarray:
        """Return ``theta`` as a finite float array whose last axis has length ``d``."""
        check_not_complex(theta, name)
        try:
            arr = np.asarray(theta, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a real array; got {theta!r:.60}") from exc
        if arr.ndim < 1 or arr.shape[-1] != self.d:
            raise ValueError(f"{name} must have last axis of length d={self.d}; got {arr.shape}")
        if not np.all(np.isfinite(arr)):
            bad = np.argwhere(~np.isfinite(arr))[0]
            raise ValueError(
                f"{name} must be finite; got {arr[tuple(bad)]} at index {tuple(map(int, bad))}"
            )
        return arr

    def _check_point(self, x: Any, name: str) -> np.ndarray:
        """Return ``x`` as one finite vector of length ``d`` (1-D), or raise ``ValueError``."""
        arr = self.check_theta(x, name)
        if arr.ndim != 1:
            raise ValueError(f"{name} must be 1-D of length d={self.d}; got shape {arr.shape}")
        return arr

    def _check_uniforms(self, u: Any) -> np.ndarray:
        """Return ``u`` as ``n_tilde_uniforms`` uniforms in [0, 1), or raise ``ValueError``."""
        return check_unit_interval(u, "u", shape=(self.n_tilde_uniforms,))

    def check_output(self, y: Any, name: str = "y") -> np.ndarray:
        r"""Return ``y`` as a float array of elements of :math:`\mathcal Y` (or raise)."""
        arr = self.check_theta(y, name)
        ok = self._is_output(arr)
        if not np.all(ok):
            i = int(np.flatnonzero(~np.atleast_1d(ok))[0])
            row = arr.reshape(-1, self.d)[i]
            raise ValueError(
                f"{name} must contain elements of Y ({self.describe_outputs()}); "
                f"row {i} is {np.array2string(row, precision=3, threshold=20)}"
            )
        return arr

    def describe_outputs(self) -> str:  # pragma: no cover - overridden
        """One phrase describing the encoding of ``Y``."""
        return "outputs"

    def _is_output(self, y: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- the loss ---------------------------------------------------------------------
    def predict(self, theta: Any) -> np.ndarray:  # pragma: no cover - overridden
        r"""Regularized prediction :math:`\hat y_\Omega(\theta)` (Proposition 2.3)."""
        raise NotImplementedError

    def _omega(self, mu: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        r""":math:`\Psi(\mu)` for ``mu`` in conv(Y) (last axis)."""
        raise NotImplementedError

    def loss(self, theta: Any, y: Any) -> np.ndarray:
        r"""Fenchel–Young loss :math:`S_\Omega(\theta; y)` (Definition 2.2).

        Computed as :math:`\langle\theta, \hat y\rangle - \Psi(\hat y) + \Psi(y) -
        \langle\theta, y\rangle` with :math:`\hat y = \hat y_\Omega(\theta)`, i.e.
        :math:`\Omega^*(\theta) = \langle\theta,\hat y\rangle - \Psi(\hat y)`.
        """
        th = self.check_theta(theta)
        yy = self.check_output(y)
        mu = self.predict(th)
        val = np.sum(th * (mu - yy), axis=-1) - self._omega(mu) + self._omega(yy)
        return np.maximum(val, 0.0)

    def grad(self, theta: Any, y: Any) -> np.ndarray:
        r"""Gradient :math:`\nabla S_\Omega(\theta; y) = \hat y_\Omega(\theta) - y` (Prop. 2.3)."""
        th = self.check_theta(theta)
        return self.predict(th) - self.check_output(y)

    # -- target loss and geometry -------------------------------------------------------
    def target_loss(self, y_pred: Any, y: Any) -> np.ndarray:  # pragma: no cover
        """Target loss :math:`L(y'; y)`, affine in ``y_pred`` on conv(Y) (Assumption 2.1)."""
        raise NotImplementedError

    def norm(self, v: Any) -> np.ndarray:
        r"""Return the structure's norm :math:`\|\cdot\|` (ℓ1 or ℓ2) along the last axis."""
        return np.linalg.norm(self.check_theta(v, "v"), ord=self.norm_p, axis=-1)

    @property
    def a(self) -> float:
        r"""Surrogate-gap constant :math:`a = 1 - 4\gamma/(\lambda\nu)` (proof of Theorem 4.2)."""
        return 1.0 - 4.0 * self.gamma / (self.lam * self.nu)

    @property
    def lemma31_constant(self) -> float:
        r""":math:`4\gamma/(\lambda\nu)`, the constant of Lemma 3.1."""
        return 4.0 * self.gamma / (self.lam * self.nu)

    def linear_oracle(self, c: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        r"""Return a point of :math:`\arg\min\{\langle c, y\rangle : y \in \mathcal Y\}`."""
        raise NotImplementedError

    def nearest_extreme_point(self, y_prime: Any) -> np.ndarray:
        r"""Nearest :math:`y^* \in \mathcal Y` to ``y_prime`` in :math:`\|\cdot\|_p` (Prop. 3.2).

        One call to the linear oracle with :math:`c_i = |1 - y'_i|^p - |y'_i|^p`
        (valid for :math:`\mathcal Y \subseteq \{0, 1\}^d`).
        """
        yp = self._check_point(y_prime, "y_prime")
        p = self.norm_p
        c = np.abs(1.0 - yp) ** p - np.abs(yp) ** p
        return self.linear_oracle(c)

    def sample_tilde(self, mu: np.ndarray, u: np.ndarray) -> np.ndarray:  # pragma: no cover
        """Draw ỹ ∈ Y with E[ỹ] = ``mu`` from ``n_tilde_uniforms`` uniforms ``u``."""
        raise NotImplementedError

    def tilde_distribution(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of :meth:`sample_tilde` as (weights, outputs); enumerates small cases."""
        raise NotImplementedError  # pragma: no cover

    def outputs(self) -> np.ndarray:  # pragma: no cover - overridden
        r"""Every element of :math:`\mathcal Y` as rows (small cases only)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(d={self.d}, nu={self.nu:g}, gamma={self.gamma:.4g}, "
            f"lambda={self.lam:.4g}, a={self.a:.4g})"
        )


class Multiclass(Structure):
    r"""Multiclass classification with the logistic loss (Section 2.3, Section 5).

    :math:`\mathcal Y = \{e_1, \dots, e_d\}`, :math:`\Omega = -H^s + I_{\Delta^d}` (eq. (2)),
    :math:`\hat y_\Omega = \mathrm{softmax}`, :math:`S_\Omega(\theta; e_i) =
    \log\sum_j e^{\theta_j} - \theta_i` (natural log; Theorem 5.1's base-2 loss is
    :math:`S_\Omega/\ln 2`), target 0-1 loss :math:`L(y'; e_i) = \langle y', 1 - e_i\rangle`.
    Constants: ℓ1 norm, :math:`\nu = 2`, :math:`\gamma = 1/2`, :math:`\lambda = 1` (Pinsker),
    :math:`\kappa = 1`, :math:`D = 2`.

    Parameters
    ----------
    d : int
        Number of classes, at least 2.
    """

    name = "multiclass"

    def __init__(self, d: int):
        self.d = check_positive_int(d, "d", minimum=2)
        self.nu, self.gamma, self.lam, self.kappa = 2.0, 0.5, 1.0, 1.0
        self.norm_p, self.diameter = 1, 2.0
        self.diameter_l2, self.smoothness = float(np.sqrt(2.0)), 1.0

    def describe_outputs(self) -> str:
        """Describe the encoding of the outputs."""
        return f"one-hot vectors e_i of length {self.d}"

    def _is_output(self, y: np.ndarray) -> np.ndarray:
        return np.all((y == 0) | (y == 1), axis=-1) & (np.sum(y, axis=-1) == 1)

    def encode(self, labels: Any) -> np.ndarray:
        """One-hot encode integer class labels in ``{0, …, d-1}``."""
        lab = np.asarray(labels)
        if not np.issubdtype(lab.dtype, np.integer) or np.any((lab < 0) | (lab >= self.d)):
            raise ValueError(f"labels must be integers in [0, {self.d - 1}]; got {labels!r:.80}")
        return np.eye(self.d)[lab]

    def predict(self, theta: Any) -> np.ndarray:
        """Softmax of the scores (Section 5)."""
        return softmax(self.check_theta(theta))

    def _omega(self, mu: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(mu > 0, mu * np.log(np.where(mu > 0, mu, 1.0)), 0.0)
        return np.sum(t, axis=-1)

    def loss(self, theta: Any, y: Any) -> np.ndarray:
        r"""Logistic loss :math:`\log\sum_j e^{\theta_j} - \langle\theta, y\rangle`."""
        th = self.check_theta(theta)
        yy = self.check_output(y)
        return np.maximum(logsumexp(th) - np.sum(th * yy, axis=-1), 0.0)

    def target_loss(self, y_pred: Any, y: Any) -> np.ndarray:
        r"""0-1 loss extended affinely: :math:`\langle y', 1 - y\rangle`."""
        yp = self.check_theta(y_pred, "y_pred")
        yy = self.check_output(y)
        return np.sum(yp * (1.0 - yy), axis=-1)

    def linear_oracle(self, c: np.ndarray) -> np.ndarray:
        r""":math:`e_i` with :math:`i = \arg\min_i c_i`."""
        return np.eye(self.d)[int(np.argmin(self._check_point(c, "c")))]

    def sample_tilde(self, mu: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Class ``i`` with probability ``mu_i`` by inverse CDF (Section 3.1)."""
        mu, u = self._check_point(mu, "mu"), self._check_uniforms(u)
        i = min(int(np.searchsorted(np.cumsum(mu), u[0], side="right")), self.d - 1)
        return np.eye(self.d)[i]

    def tilde_distribution(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return the categorical law ``mu`` over the basis vectors."""
        return self._check_point(mu, "mu"), np.eye(self.d)

    def outputs(self) -> np.ndarray:
        """Return the basis vectors."""
        return np.eye(self.d)


class _SparseMAP01(Structure):
    """Shared code of the SparseMAP losses on 0-1 polytopes (hypercube, ordinal chain)."""

    def __init__(self, d: int, strength: float = 1.0, *, min_d: int = 2):
        self.d = check_positive_int(d, "d", minimum=min_d)
        self.strength = check_real(strength, "strength", low=0.0, low_inclusive=False)
        self.nu, self.gamma = 1.0, 1.0 / np.sqrt(self.d)
        self.lam, self.kappa = self.strength, 1.0
        self.norm_p, self.diameter = 2, float(np.sqrt(self.d))
        self.diameter_l2, self.smoothness = self.diameter, 1.0 / self.strength

    def _omega(self, mu: np.ndarray) -> np.ndarray:
        return 0.5 * self.strength * np.sum(mu * mu, axis=-1)

    def loss(self, theta: Any, y: Any) -> np.ndarray:
        r"""SparseMAP loss as a sum of two nonnegative terms (no cancellation).

        With :math:`\hat y = \hat y_\Omega(\theta)`, Definition 2.2 rearranges to
        :math:`S_\Omega(\theta; y) = \langle\theta - s\hat y, \hat y - y\rangle +
        \frac s2\|\hat y - y\|_2^2`; the first term is nonnegative because :math:`\hat y` is
        the Euclidean projection of :math:`\theta/s` onto :math:`\mathrm{conv}(\mathcal Y)`.
        """
        th = self.check_theta(theta)
        yy = self.check_output(y)
        mu = self.predict(th)
        r = mu - yy
        first = np.maximum(np.sum((th - self.strength * mu) * r, axis=-1), 0.0)
        return first + 0.5 * self.strength * np.sum(r * r, axis=-1)

    def target_loss(self, y_pred: Any, y: Any) -> np.ndarray:
        r"""Return the scaled Hamming/absolute loss (Section 2.3, Appendix C.2).

        :math:`L(y'; y) = \frac1d(\langle y',1\rangle + \langle y,1\rangle
        - 2\langle y', y\rangle)`.
        """
        yp = self.check_theta(y_pred, "y_pred")
        yy = self.check_output(y)
        return (yp.sum(-1) + yy.sum(-1) - 2.0 * np.sum(yp * yy, axis=-1)) / self.d


class Multilabel(_SparseMAP01):
    r"""Multilabel classification with the SparseMAP loss on the hypercube (Section 2.3).

    :math:`\mathcal Y = \{0,1\}^d`, :math:`\Omega = \frac s2\|y\|_2^2 + I_{[0,1]^d}`, so
    :math:`\hat y_\Omega(\theta) = \mathrm{clip}(\theta/s, 0, 1)` and, for :math:`s = 1`,
    :math:`S_\Omega(\theta; y) = \frac12\|y - \theta\|^2 - \frac12\|\hat y_\Omega(\theta) -
    \theta\|^2`. Hamming loss scaled to [0, 1]. Constants: ℓ2 norm, :math:`\nu = 1`,
    :math:`\gamma = 1/\sqrt d`, :math:`\lambda = s`; Theorem 4.2 needs :math:`s\sqrt d > 4`.

    Parameters
    ----------
    d : int
        Number of labels (>= 2).
    strength : float, default=1.0
        Scale :math:`s` of :math:`\Psi` (the paper's example is ``1``).
    """

    name = "multilabel"
    n_tilde_uniforms: int

    def __init__(self, d: int, strength: float = 1.0):
        super().__init__(d, strength)
        self.n_tilde_uniforms = self.d

    def describe_outputs(self) -> str:
        """Describe the encoding of the outputs."""
        return f"0/1 vectors of length {self.d}"

    def _is_output(self, y: np.ndarray) -> np.ndarray:
        return np.all((y == 0) | (y == 1), axis=-1)

    def predict(self, theta: Any) -> np.ndarray:
        r"""Clip :math:`\theta/s` to the unit hypercube."""
        return np.clip(self.check_theta(theta) / self.strength, 0.0, 1.0)

    def linear_oracle(self, c: np.ndarray) -> np.ndarray:
        """Coordinatewise: :math:`y_i = 1` iff :math:`c_i < 0`."""
        return (self._check_point(c, "c") < 0).astype(np.float64)

    def sample_tilde(self, mu: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Independent Bernoulli(``mu_i``) coordinates (direct; Section 3.1)."""
        mu, u = self._check_point(mu, "mu"), self._check_uniforms(u)
        return (u < mu).astype(np.float64)

    def tilde_distribution(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Product-Bernoulli law over all :math:`2^d` outputs (small ``d`` only)."""
        mu = self._check_point(mu, "mu")
        Y = self.outputs()
        w = np.prod(np.where(Y == 1, mu, 1.0 - mu), axis=1)
        return w, Y

    def outputs(self) -> np.ndarray:
        """All :math:`2^d` binary vectors (refuses ``d > 16``)."""
        if self.d > 16:
            raise ValueError(f"refusing to enumerate 2^{self.d} outputs")
        return np.array(list(itertools.product([0.0, 1.0], repeat=self.d)))


class Ordinal(_SparseMAP01):
    r"""Ordinal regression with the SparseMAP loss on the chain polytope (Appendix C.2).

    :math:`\mathcal Y = \{0, e_1, e_1 + e_2, \dots, e_1 + \dots + e_d\}` (label ``k`` is the
    vector with ``k`` leading ones), :math:`\mathrm{conv}(\mathcal Y) = \{1 \ge y_1 \ge \dots
    \ge y_d \ge 0\}`; :math:`\hat y_\Omega(\theta)` is the Euclidean projection of
    :math:`\theta/s` onto it (isotonic regression, then clipping). Absolute loss scaled to
    [0, 1]; constants as for :class:`Multilabel`.

    Parameters
    ----------
    d : int
        Number of thresholds (``d + 1`` ordered levels), >= 2.
    strength : float, default=1.0
        Scale :math:`s` of :math:`\Psi`.
    """

    name = "ordinal"

    def describe_outputs(self) -> str:
        """Describe the encoding of the outputs."""
        return f"staircases (k leading ones, 0 <= k <= {self.d})"

    def _is_output(self, y: np.ndarray) -> np.ndarray:
        binary = np.all((y == 0) | (y == 1), axis=-1)
        return binary & np.all(np.diff(y, axis=-1) <= 0, axis=-1)

    def encode(self, levels: Any) -> np.ndarray:
        """Staircase encoding of integer levels in ``{0, …, d}``."""
        lev = np.asarray(levels)
        if not np.issubdtype(lev.dtype, np.integer) or np.any((lev < 0) | (lev > self.d)):
            raise ValueError(f"levels must be integers in [0, {self.d}]; got {levels!r:.80}")
        return (np.arange(self.d) < lev[..., None]).astype(np.float64)

    def predict(self, theta: Any) -> np.ndarray:
        r"""Projection of :math:`\theta/s` onto the chain polytope."""
        th = self.check_theta(theta) / self.strength
        return np.clip(isotonic_decreasing(th), 0.0, 1.0)

    def linear_oracle(self, c: np.ndarray) -> np.ndarray:
        r"""Staircase of length :math:`\arg\min_k \sum_{i \le k} c_i` (prefix sums, O(d))."""
        prefix = np.concatenate([[0.0], np.cumsum(self._check_point(c, "c"))])
        k = int(np.argmin(prefix))
        return (np.arange(self.d) < k).astype(np.float64)

    def sample_tilde(self, mu: np.ndarray, u: np.ndarray) -> np.ndarray:
        r"""Draw by thresholding, :math:`\tilde y_i = 1\{\mu_i > u\}`: :math:`E[\tilde y] = \mu`."""
        mu, u = self._check_point(mu, "mu"), self._check_uniforms(u)
        return (mu > u[0]).astype(np.float64)

    def tilde_distribution(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r"""Law of threshold sampling: level ``k`` with weight :math:`\mu_k - \mu_{k+1}`."""
        m = np.concatenate([[1.0], self._check_point(mu, "mu"), [0.0]])
        return m[:-1] - m[1:], self.outputs()

    def outputs(self) -> np.ndarray:
        """Return the ``d + 1`` staircases."""
        return self.encode(np.arange(self.d + 1))


class Ranking(Structure):
    r"""Ranking with the entropic loss on the Birkhoff polytope (Section 2.3).

    Outputs are :math:`n\times n` permutation matrices, flattened (:math:`d = n^2`);
    :math:`\Omega = -\frac1\mu H^s + I_{\mathrm{Birkhoff}}`, :math:`\hat y_\Omega(\theta)` is
    the Sinkhorn scaling of :math:`e^{\mu\theta}` (log domain, to ``tol``), and
    :math:`S_\Omega(\theta; y) = \langle\theta, \hat y_\Omega(\theta) - y\rangle +
    \frac1\mu H^s(\hat y_\Omega(\theta))`. Target loss: mismatch rate
    :math:`\frac1n\langle y', 1 - y\rangle`. Constants: ℓ1 norm, :math:`\nu = 4`,
    :math:`\gamma = 1/(2n)`, :math:`\lambda = 1/(n\mu)`; Theorem 4.2 needs :math:`\mu < 2`.

    Parameters
    ----------
    n : int
        Number of items (>= 2).
    mu : float
        Regularisation parameter :math:`\mu > 0`.
    tol : float, default=1e-9
        Tolerance on the ℓ1 marginal error of :math:`\hat y_\Omega` (Sinkhorn, Newton-polished).
    max_iter : int, default=200
        Newton steps allowed after the Sinkhorn sweeps.
    """

    name = "ranking"

    def __init__(self, n: int, mu: float, *, tol: float = 1e-9, max_iter: int = 200):
        self.n = check_positive_int(n, "n", minimum=2)
        self.mu = check_real(mu, "mu", low=0.0, low_inclusive=False)
        self.tol = check_real(tol, "tol", low=0.0, low_inclusive=False)
        self.max_iter = check_positive_int(max_iter, "max_iter")
        self.d = self.n * self.n
        self.nu, self.gamma = 4.0, 1.0 / (2 * self.n)
        self.lam, self.kappa = 1.0 / (self.n * self.mu), 1.0
        self.norm_p, self.diameter = 1, 2.0 * self.n
        self.diameter_l2, self.smoothness = float(np.sqrt(2.0 * self.n)), self.mu

    def describe_outputs(self) -> str:
        """Describe the encoding of the outputs."""
        return f"flattened {self.n}x{self.n} permutation matrices"

    def _is_output(self, y: np.ndarray) -> np.ndarray:
        m = y.reshape(y.shape[:-1] + (self.n, self.n))
        binary = np.all((y == 0) | (y == 1), axis=-1)
        return binary & np.all(m.sum(-1) == 1, axis=-1) & np.all(m.sum(-2) == 1, axis=-1)

    def encode(self, perms: Any) -> np.ndarray:
        """Permutation(s) ``perm`` (item ``i`` at position ``perm[i]``) to flattened matrices."""
        P = np.asarray(perms)
        if (
            P.shape[-1] != self.n
            or not np.issubdtype(P.dtype, np.integer)
            or np.any(np.sort(P, axis=-1) != np.arange(self.n))
        ):
            raise ValueError(f"perms must be permutations of 0..{self.n - 1}; got {perms!r:.80}")
        return np.eye(self.n)[P].reshape(P.shape[:-1] + (self.d,))

    def predict(self, theta: Any) -> np.ndarray:
        r"""Sinkhorn scaling of :math:`e^{\mu\theta}` (log domain)."""
        th = self.check_theta(theta)
        L = self.mu * th.reshape(th.shape[:-1] + (self.n, self.n))
        res = sinkhorn_log(L, tol=self.tol, max_iter=self.max_iter)
        return res.P.reshape(th.shape)

    def _omega(self, mu: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(mu > 0, mu * np.log(np.where(mu > 0, mu, 1.0)), 0.0)
        return np.sum(t, axis=-1) / self.mu

    def target_loss(self, y_pred: Any, y: Any) -> np.ndarray:
        r"""Mismatch rate :math:`\frac1n\langle y', 1 - y\rangle`."""
        yp = self.check_theta(y_pred, "y_pred")
        yy = self.check_output(y)
        return np.sum(yp * (1.0 - yy), axis=-1) / self.n

    def linear_oracle(self, c: np.ndarray) -> np.ndarray:
        """Solve the assignment problem on the ``n × n`` cost (scipy's Hungarian-type solver)."""
        return assignment(self._check_point(c, "c").reshape(self.n, self.n)).ravel()

    def sample_tilde(self, mu: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Pick a permutation of the Birkhoff–von Neumann decomposition by its weight."""
        u = self._check_uniforms(u)
        w, Y = self.tilde_distribution(mu)
        i = min(int(np.searchsorted(np.cumsum(w), u[0], side="right")), len(w) - 1)
        return Y[i]

    def tilde_distribution(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Birkhoff–von Neumann decomposition of ``mu`` (weights, flattened permutations)."""
        from mlgeom.fenchel_young.birkhoff import birkhoff_von_neumann

        mu = self._check_point(mu, "mu")
        dec = birkhoff_von_neumann(mu.reshape(self.n, self.n), tol=1e-10)
        return dec.weights, self.encode(dec.permutations)

    def outputs(self) -> np.ndarray:
        """All ``n!`` permutation matrices (refuses ``n > 7``)."""
        if self.n > 7:
            raise ValueError(f"refusing to enumerate {self.n}! permutations")
        return self.encode(np.array(list(itertools.permutations(range(self.n)))))
