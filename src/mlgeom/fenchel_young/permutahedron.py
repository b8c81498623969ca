r"""Ranking on the permutahedron with the SparseMAP loss (Sakaue et al. 2024, Appendix C.1).

:math:`\mathcal Y` is the set of the :math:`d!` permutations of :math:`w = (d, d-1, \dots, 1)`,
:math:`\mathrm{conv}(\mathcal Y)` the permutahedron; :math:`\Omega = \frac s2\|y\|_2^2 +
I_{\mathrm{conv}(\mathcal Y)}` (the paper takes :math:`s = 1`, so :math:`\lambda = 1`), ℓ2 norm,
:math:`\nu = \sqrt 2` (two vertices differ at least by one adjacent transposition) and the
target loss :math:`L(y'; y) = \langle y, y - y'\rangle / M`, :math:`M = d(d^2-1)/6`.

The Lipschitz constant. Appendix C.1 prints :math:`L(y'; y) \le \frac1M\|y\|_2\|y - y'\|_2 =
\gamma\|y - y'\|_2` "for :math:`\gamma = \frac{1}{d-1}\sqrt{\frac{2d+1}{6d(d+1)}}`", but
:math:`\|y\|_2/M = \frac{1}{d-1}\sqrt{\frac{6(2d+1)}{d(d+1)}}`, six times the printed value,
and the printed value is not a valid constant (:func:`lipschitz_search`). Because
:math:`\langle \mathbf 1, y - y'\rangle = 0` on the permutahedron, centring :math:`y` gives the
smallest valid constant,

.. math::

    L(y'; y) = \tfrac1M\langle y - \tfrac{d+1}2\mathbf 1, y - y'\rangle
    \le \tfrac1M\sqrt{\tfrac{d(d^2-1)}{12}}\,\|y - y'\|_2 = \sqrt{\tfrac{3}{d(d^2-1)}}\,
    \|y - y'\|_2,

with equality on the segment from :math:`y` to the centroid :math:`\frac{d+1}2\mathbf 1`
(a point of the polytope).
:class:`Permutahedron` uses this :math:`\gamma` (the evident intent: the bound the appendix
derives, without the slip); ``gamma_printed`` keeps the printed one.

References
----------
.. [1] S. Sakaue, H. Bao, T. Tsuchiya, T. Oki, COLT 2024, Appendix C.1, Proposition C.1.
.. [2] M. Blondel, O. Teboul, Q. Berthet, J. Djolonga, "Fast Differentiable Sorting and
   Ranking", ICML 2020, Proposition 3 (projection onto the permutahedron by isotonic
   regression).
.. [3] A. W. Marshall, I. Olkin, B. C. Arnold, *Inequalities: Theory of Majorization*,
   2nd ed., Lemma 2.B.1 (T-transforms).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from mlgeom._validation import check_last_axis, check_not_complex, check_positive_int, check_real
from mlgeom.fenchel_young.birkhoff import birkhoff_von_neumann
from mlgeom.fenchel_young.losses import _SparseMAP01, isotonic_decreasing
from mlgeom.random import Seed, as_generator

__all__ = [
    "Permutahedron",
    "permutahedron_decomposition",
    "project_permutahedron",
    "lipschitz_search",
    "proposition_c1_gap",
    "decomposition_error",
]


def _weights(d: int) -> np.ndarray:
    return np.arange(d, 0, -1, dtype=np.float64)


def project_permutahedron(z: Any) -> np.ndarray:
    r"""Euclidean projection of ``z`` (last axis) onto the permutahedron of :math:`(d, \dots, 1)`.

    Blondel et al. (2020, Proposition 3): with :math:`\sigma` sorting ``z`` in decreasing order
    and :math:`w = (d, \dots, 1)`, the projection is :math:`z - v_{\sigma^{-1}}` where :math:`v`
    is the decreasing isotonic regression of :math:`z_\sigma - w` (pool-adjacent-violators,
    :math:`O(d\log d)` with the sort). This is :math:`\hat y_\Omega(z)` for the SparseMAP
    :math:`\Omega` of Appendix C.1.

    Parameters
    ----------
    z : array_like
        Finite scores, shape ``(..., d)`` with ``d >= 1``.

    Returns
    -------
    numpy.ndarray
        The projections, same shape.
    """
    arr = check_last_axis(z, "z")
    d = arr.shape[-1]
    order = np.argsort(-arr, axis=-1, kind="stable")
    zs = np.take_along_axis(arr, order, axis=-1)
    v = isotonic_decreasing(zs - _weights(d))
    out = np.empty_like(arr)
    np.put_along_axis(out, order, zs - v, axis=-1)
    return out


def permutahedron_decomposition(y: Any, *, tol: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact convex combination of vertices of the permutahedron with mean ``y``.

    Sorted decreasingly, :math:`y` is majorized by :math:`w = (d, \dots, 1)`; at most
    :math:`d - 1` T-transforms :math:`\lambda I + (1-\lambda)Q_{jk}` carry :math:`w` to it
    (Marshall–Olkin–Arnold, Lemma 2.B.1), so :math:`y_{\mathrm{sorted}} = Dw` with :math:`D`
    their (doubly stochastic) product; a Birkhoff–von Neumann decomposition
    :math:`D = \sum_k \alpha_k P_k` then gives :math:`y = \sum_k \alpha_k v_k` with vertices
    :math:`v_k` (:math:`P_k w`, unsorted). This replaces the paper's Frank–Wolfe
    (Garber & Wolf 2021) in step 5 of Algorithm 1: it is exact, not iterative.

    Parameters
    ----------
    y : array_like
        A point of the permutahedron, shape ``(d,)`` (checked to within ``1e-7``).
    tol : float, default=1e-10
        Residual mass at which the Birkhoff–von Neumann step stops.

    Returns
    -------
    weights : numpy.ndarray
        Nonnegative weights summing to one, shape ``(k,)``.
    vertices : numpy.ndarray
        The vertices, shape ``(k, d)``.
    """
    tol = check_real(tol, "tol", low=0.0, low_inclusive=False)
    check_not_complex(y, "y")
    try:
        arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must be a real array; got {y!r:.60}") from exc
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"y must be one finite non-empty vector; got {arr!r:.80}")
    d = arr.size
    w = _weights(d)
    order = np.argsort(-arr, kind="stable")
    x = arr[order]
    gap = np.cumsum(w) - np.cumsum(x)
    if np.min(gap) < -1e-7 or abs(gap[-1]) > 1e-7:
        raise ValueError(
            f"y must lie in the permutahedron of (d, ..., 1); got {arr!r:.80} "
            f"(prefix-sum slack {np.min(gap):.3g}, total {gap[-1]:.3g})"
        )
    D = np.eye(d)
    cur = w.copy()
    for _ in range(d):
        diff = cur - x
        big = np.flatnonzero(diff > 1e-12)
        small = np.flatnonzero(diff < -1e-12)
        if big.size == 0 or small.size == 0:
            break
        j = int(big.max())
        later = small[small > j]
        if later.size == 0:
            break
        k = int(later.min())
        delta = min(diff[j], -diff[k])
        lam = 1.0 - delta / (cur[j] - cur[k])
        T = np.eye(d)  # lam I + (1 - lam) Q_jk
        T[j, j] = T[k, k] = lam
        T[j, k] = T[k, j] = 1.0 - lam
        cur = T @ cur
        D = T @ D
    dec = birkhoff_von_neumann(np.clip(D, 0.0, None), tol=tol)
    verts_sorted = w[dec.permutations]  # row i of P_k w is w[perm_k[i]]
    verts = np.empty_like(verts_sorted)
    verts[:, order] = verts_sorted
    return dec.weights, verts


def _lipschitz_ratio(s: Permutahedron, gamma: float, z: np.ndarray) -> float:
    w = _weights(s.d)
    yp = project_permutahedron(z)
    dist = float(np.linalg.norm(w - yp))
    if dist < 1e-9:
        return 0.0
    return float(s.target_loss(yp, w)) / (gamma * dist)


def lipschitz_search(
    d: int, gamma: float, n_starts: int = 8, *, max_evals: int = 2000, seed: Seed = None
) -> tuple[float, np.ndarray]:
    r"""Largest :math:`L(y'; y)/(\gamma\|y - y'\|_2)` found over :math:`y'` in the permutahedron.

    Assumption 2.1 (III) asks :math:`L(y'; y) \le \gamma\|y - y'\|_2` on
    :math:`\mathrm{conv}(\mathcal Y)`; a ratio above 1 shows that ``gamma`` is not valid.
    :math:`y = w = (d, \dots, 1)` (every vertex is :math:`w` up to a permutation of the
    coordinates, which preserves :math:`L` and the norm); :math:`y'` is the projection of a
    free :math:`z \in \mathbb R^d`, and bounded Nelder–Mead (:math:`|z_i| \le 2d`, at most
    ``max_evals`` evaluations each) maximises over :math:`z` from :math:`z = 0` (the centroid),
    from :math:`z = t(w - rac{d+1}2\mathbf 1)` for :math:`t \in \{0.5, 1.5\}` and from
    ``n_starts`` Gaussian starts. By the module docstring the supremum is
    :math:`\sqrt{3/(d(d^2-1))}/\gamma`, attained on the segment from :math:`w` to the
    centroid.

    Returns
    -------
    ratio : float
        The largest ratio found.
    y_prime : numpy.ndarray
        Where (a point of the permutahedron).
    """
    from scipy.optimize import minimize

    s = Permutahedron(d)
    gamma = check_real(gamma, "gamma", low=0.0, low_inclusive=False)
    n_starts = check_positive_int(n_starts, "n_starts", minimum=0)
    max_evals = check_positive_int(max_evals, "max_evals")
    rng = as_generator(seed)
    c = _weights(s.d) - (s.d + 1) / 2.0
    starts = [np.zeros(s.d), 0.5 * c, 1.5 * c]
    starts += [s.d * rng.standard_normal(s.d) for _ in range(n_starts)]
    box = 2.0 * s.d
    best = (-np.inf, starts[0])
    for z0 in starts:
        z0 = np.clip(z0, -box, box)
        res = minimize(
            lambda z: -_lipschitz_ratio(s, gamma, z),
            z0,
            method="Nelder-Mead",
            bounds=[(-box, box)] * s.d,
            options={"maxfev": max_evals, "adaptive": True, "xatol": 1e-12, "fatol": 1e-15},
        )
        for r, z in ((-float(res.fun), res.x), (_lipschitz_ratio(s, gamma, z0), z0)):
            if r > best[0]:
                best = (r, np.asarray(z, dtype=np.float64))
    return float(best[0]), project_permutahedron(best[1])


def proposition_c1_gap(d: int, n_points: int, *, seed: Seed = None) -> float:
    r"""Proposition C.1 against brute force: how much farther the sorted vertex is than the nearest.

    For ``n_points`` points :math:`y'` (projections onto the permutahedron of Gaussian scores
    with a log-uniform scale in :math:`[10^{-1}, 10^{1.5}]`, so that faces of every dimension
    occur) returns :math:`\max_{y', p}\ \|y^* - y'\|_p - \min_{y\in\mathcal Y}\|y - y'\|_p` over
    :math:`p \in \{1, 2, \infty\}`, with :math:`y^*` from
    :meth:`Permutahedron.nearest_extreme_point` and the minimum over all :math:`d!` vertices.
    Proposition C.1 says it is 0 (up to rounding).
    """
    d = check_positive_int(d, "d", minimum=2)
    if d > 8:
        raise ValueError(f"d must be <= 8 (brute force over the d! vertices); got {d}")
    s = Permutahedron(d)
    n_points = check_positive_int(n_points, "n_points")
    rng = as_generator(seed)
    V = s.outputs()
    gap = -np.inf
    for _ in range(n_points):
        yp = project_permutahedron(10 ** rng.uniform(-1.0, 1.5) * rng.standard_normal(s.d))
        ys = s.nearest_extreme_point(yp)
        for p in (1, 2, np.inf):
            near = float(np.min(np.linalg.norm(V - yp, ord=p, axis=1)))
            gap = max(gap, float(np.linalg.norm(ys - yp, ord=p)) - near)
    return gap


def decomposition_error(structure: Permutahedron, n_scores: int, *, seed: Seed = None) -> float:
    r"""Largest defect of the exact decomposition used in step 5 of Algorithm 1.

    For ``n_scores`` Gaussian scores :math:`	heta` (log-uniform scale in
    :math:`[10^{-1}, 10^{1.5}]`) and a uniform :math:`y`: the largest of
    :math:`\|\sum_k w_k v_k - \hat y\|_\infty`, :math:`|\sum_k w_k - 1|`, :math:`-\min_k w_k`
    and the difference between :math:`E[L(\psi_\Omega(	heta); y)]` summed over the decoding's
    law and by the affine shortcut of Lemma 3.1's proof.
    """
    from mlgeom.fenchel_young.decoding import (
        expected_target_loss,
        expected_target_loss_enumerated,
    )

    if not isinstance(structure, Permutahedron):
        raise ValueError(f"structure must be a Permutahedron; got {structure!r:.60}")
    n_scores = check_positive_int(n_scores, "n_scores")
    rng = as_generator(seed)
    err = 0.0
    for _ in range(n_scores):
        theta = 10 ** rng.uniform(-1.0, 1.5) * rng.standard_normal(structure.d)
        y = structure.random_outputs(rng, 1)[0]
        mu = structure.predict(theta)
        w, V = structure.tilde_distribution(mu)
        e1 = expected_target_loss(structure, theta, y)
        e2 = expected_target_loss_enumerated(structure, theta, y)
        err = max(
            err,
            float(np.abs(w @ V - mu).max()),
            abs(float(w.sum()) - 1.0),
            -float(w.min()),
            abs(e1 - e2),
        )
    return err


class Permutahedron(_SparseMAP01):
    r"""Ranking on the permutahedron with the SparseMAP loss (Appendix C.1).

    Outputs are the permutations of :math:`(d, \dots, 1)` (entry ``i`` is item ``i``'s score,
    ``d`` for the top item); :math:`\hat y_\Omega(\theta)` is the projection of
    :math:`\theta/s` onto the permutahedron (:func:`project_permutahedron`); the nearest vertex
    is by sorting (Proposition C.1); :math:`\tilde y` is drawn from the exact decomposition of
    :func:`permutahedron_decomposition`. Constants: ℓ2 norm, :math:`\nu = \sqrt 2`,
    :math:`\lambda = s`, :math:`\kappa = 1`, :math:`\gamma = \sqrt{3/(d(d^2-1))}` (the smallest
    valid constant; ``gamma_printed`` is Appendix C.1's value, see the module docstring).
    Theorem 4.2 needs :math:`s > 4\gamma/\nu`; for :math:`s = 1` that is :math:`d \ge 4`.

    Parameters
    ----------
    d : int
        Number of items (>= 2).
    strength : float, default=1.0
        Scale :math:`s` of :math:`\Psi`.
    """

    name = "permutahedron"

    def __init__(self, d: int, strength: float = 1.0):
        super().__init__(d, strength)
        d = self.d
        self.M = d * (d * d - 1) / 6.0
        self.nu = float(np.sqrt(2.0))
        self.gamma = float(np.sqrt(3.0 / (d * (d * d - 1))))
        self.gamma_printed = float(np.sqrt((2 * d + 1) / (6.0 * d * (d + 1))) / (d - 1))
        self.diameter = float(np.sqrt(d * (d * d - 1) / 3.0))  # |w - reversed(w)|_2
        self.diameter_l2 = self.diameter

    def describe_outputs(self) -> str:
        """Describe the encoding of the outputs."""
        return f"permutations of ({self.d}, ..., 1)"

    def _is_output(self, y: np.ndarray) -> np.ndarray:
        return np.all(np.sort(y, axis=-1) == np.arange(1, self.d + 1), axis=-1)

    def predict(self, theta: Any) -> np.ndarray:
        r"""Projection of :math:`\theta/s` onto the permutahedron."""
        return project_permutahedron(self.check_theta(theta) / self.strength)

    def target_loss(self, y_pred: Any, y: Any) -> np.ndarray:
        r"""Return :math:`L(y'; y) = \langle y, y - y'\rangle / M`, :math:`M = d(d^2-1)/6`."""
        yp = self.check_theta(y_pred, "y_pred")
        yy = self.check_output(y)
        return np.sum(yy * (yy - yp), axis=-1) / self.M

    def linear_oracle(self, c: np.ndarray) -> np.ndarray:
        r"""Minimise :math:`\langle c, y\rangle` (``d`` at the least ``c_i``)."""
        cc = self._check_point(c, "c")
        y = np.empty(self.d)
        y[np.argsort(cc, kind="stable")] = _weights(self.d)
        return y

    def nearest_extreme_point(self, y_prime: Any) -> np.ndarray:
        r"""Proposition C.1: :math:`y^*_i` is the rank of :math:`y'_i` in increasing order.

        With :math:`\pi` sorting :math:`y'` increasingly, :math:`y^* = (\pi^{-1}(1), \dots,
        \pi^{-1}(d))`; nearest in every ℓp norm, :math:`p \in [1, \infty]`.
        """
        yp = self._check_point(y_prime, "y_prime")
        y = np.empty(self.d)
        y[np.argsort(yp, kind="stable")] = np.arange(1, self.d + 1, dtype=np.float64)
        return y

    def sample_tilde(self, mu: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Pick a vertex of the exact decomposition of ``mu`` by its weight (one uniform)."""
        u = self._check_uniforms(u)
        w, Y = self.tilde_distribution(mu)
        i = min(int(np.searchsorted(np.cumsum(w), u[0], side="right")), len(w) - 1)
        return Y[i]

    def tilde_distribution(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ``mu``'s draw (weights, vertices): :func:`permutahedron_decomposition`."""
        return permutahedron_decomposition(self._check_point(mu, "mu"))

    def random_outputs(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """Draw ``n`` outputs uniformly from the ``d!`` permutations."""
        n = check_positive_int(n, "n", minimum=0)
        return np.array([rng.permutation(self.d) + 1.0 for _ in range(n)]).reshape(n, self.d)

    def outputs(self) -> np.ndarray:
        """All ``d!`` permutations of ``(d, ..., 1)`` (refuses ``d > 8``)."""
        if self.d > 8:
            raise ValueError(f"refusing to enumerate {self.d}! permutations")
        return np.array(list(itertools.permutations(_weights(self.d))))
