r"""Lemmas 7–9 of Theorem 2's proof, round by round, and Remark 6's average-margin bound.

The proof of Theorem 2 (Cesa-Bianchi, Gentile & Zaniboni 2006, Section 7) bounds, for every
node :math:`i` and round :math:`t`, with :math:`A = I + S_{i,Q} S_{i,Q}^\top` (the instances
node :math:`i` stored before round :math:`t`) and :math:`\Delta_{i,t} = \mathbf u_i^\top
\mathbf x_t`:

* the conditional bias :math:`B_{i,t} = \mathbf u_i^\top (I + \mathbf x_t\mathbf x_t^\top)
  (A + \mathbf x_t\mathbf x_t^\top)^{-1}\mathbf x_t \le \sqrt{r_{i,t,Q}} + |\Delta_{i,t}|
  r_{i,t,Q}` (Lemma 7), with :math:`r_{i,t,Q} = \mathbf x_t^\top (A + \mathbf x_t
  \mathbf x_t^\top)^{-1}\mathbf x_t`;
* the conditional variance :math:`\|\mathbf Z_{i,t}\|^2 \le r_{i,t,Q}` with
  :math:`\mathbf Z_{i,t} = S_{i,Q}^\top (A + \mathbf x_t\mathbf x_t^\top)^{-1}\mathbf x_t`
  (eq. 11, Lemma 8);
* :math:`\sum_{t: \mathcal K_{i,t}} e^{-\Delta_i^2/(8 r_{i,t,Q})} \le 8 M_i/(e\Delta_i^2)`,
  :math:`M_i = \sum_{t:\mathcal K_{i,t}} r_{i,t,Q}` (Lemma 9 as the proof applies it).

With :math:`\mathbf z = A^{-1}\mathbf x_t` and :math:`a = \mathbf x_t^\top\mathbf z`,
Sherman–Morrison gives :math:`(A + \mathbf x_t\mathbf x_t^\top)^{-1}\mathbf x_t = \mathbf z/(1 +
a)`, :math:`r = a/(1 + a)`, :math:`B = \mathbf u_i^\top\mathbf z/(1 + a) + \Delta_{i,t} r` and,
since :math:`S S^\top = A - I`, :math:`\|\mathbf Z\|^2 = (a - \|\mathbf z\|^2)/(1 + a)^2`: every
quantity costs :math:`O(d^2)` per node and round, as H-RLS itself in the primal
(:func:`mlgeom.hierarchical.experiments.hrls_primal`).

Remark 6 says the proof gives a bound with "some sort of average squared margin" in place of
:math:`\Delta_i^2 = \min_t \Delta_{i,t}^2`. Our reading keeps :math:`\Delta_{i,t}^2` in the
Chernoff–Hoeffding step and in (14) and bounds each term by :math:`e^{-\alpha/a} \le a/(e\alpha)`
(the pointwise inequality behind Lemma 9):

.. math::

   \sum_{t=1}^T P(\hat y_{i,t} \ne y_{i,t}, \mathcal K_{i,t}) \le 16(1 + 1/e)\,
   \mathbb E \sum_{t:\mathcal K_{i,t}} \frac{r_{i,t,Q}}{\Delta_{i,t}^2},

an :math:`r`-weighted harmonic mean of the squared margins; summed with the weights
:math:`C_i` of eq. (10) it is never above Theorem 2's bound.

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.optimize as so

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import check_in, check_positive_int, check_real
from mlgeom.hierarchical.experiments import _dense_instances
from mlgeom.hierarchical.label_model import BOUND_CONSTANT, HierarchicalLabelModel, subtree_costs
from mlgeom.parallel import pmap
from mlgeom.random import Seed, as_generator, spawn

__all__ = ["LEMMAS", "LemmaRounds", "lemma_probe", "lemma_rounds"]

LEMMAS = ("7", "8", "9")


@dataclass(frozen=True)
class LemmaRounds:
    r"""Output of :func:`lemma_rounds` (one row per label sequence).

    Attributes
    ----------
    lemma7_excess, lemma8_excess : numpy.ndarray
        ``(reps,)`` largest :math:`|B_{i,t}| - (\sqrt r + |\Delta_{i,t}| r)` and
        :math:`\|\mathbf Z_{i,t}\|^2 - r` over all rounds and nodes (``<= 0`` where the lemma
        holds).
    lemma7_ratio, lemma8_ratio : numpy.ndarray
        ``(reps,)`` largest ratio of the bounded quantity to its bound.
    lemma9_lhs, lemma9_rhs : numpy.ndarray
        ``(reps, N)`` :math:`\sum_{t:\mathcal K_{i,t}} e^{-\Delta_i^2/(8r)}` and
        :math:`8 M_i/(e\Delta_i^2)` (``inf`` where :math:`\Delta_i = 0`).
    M : numpy.ndarray
        ``(reps, N)`` :math:`M_i = \sum_{t:\mathcal K_{i,t}} r_{i,t,Q}`.
    log_det : numpy.ndarray
        ``(reps, N)`` :math:`\log\det(I + S_{i,Q(i,T)}S_{i,Q(i,T)}^\top)` (the proof's last
        step: :math:`M_i \le` it).
    avg_margin : numpy.ndarray
        ``(reps, n_checkpoints, N)`` :math:`\sum_{t \le T,\ \mathcal K_{i,t}} r_{i,t,Q} /
        \Delta_{i,t}^2` at each checkpoint :math:`T` (Remark 6).
    remark6 : numpy.ndarray
        ``(reps, n_checkpoints)`` each sequence's value of Remark 6's bound,
        :math:`16(1 + 1/e)\sum_i C_i \sum_{t:\mathcal K_{i,t}} r/\Delta_{i,t}^2`; its mean over
        the sequences estimates the bound's expectation.
    checkpoints : numpy.ndarray
        The horizons :math:`T`.
    """

    lemma7_excess: np.ndarray
    lemma7_ratio: np.ndarray
    lemma8_excess: np.ndarray
    lemma8_ratio: np.ndarray
    lemma9_lhs: np.ndarray
    lemma9_rhs: np.ndarray
    M: np.ndarray
    log_det: np.ndarray
    avg_margin: np.ndarray
    remark6: np.ndarray
    checkpoints: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)


def _lemma_rep(args: tuple) -> dict[str, Any]:
    model, X, seed, cps = args
    G = model.taxonomy
    V = model.sample(X, seed)
    T, d = X.shape
    N = G.n_nodes
    U = model.U
    par = G.parent
    is_root = par < 0
    Delta = X @ U.T  # Δ_{i,t}
    Ainv = np.broadcast_to(np.eye(d), (N, d, d)).copy()
    log_det = np.zeros(N)
    a = np.empty((T, N))  # xᵀA⁻¹x
    zz = np.empty((T, N))  # ‖A⁻¹x‖²
    uz = np.empty((T, N))  # u_iᵀA⁻¹x
    K = np.empty((T, N), dtype=bool)
    for t in range(T):
        x = X[t]
        z = Ainv @ x  # A⁻¹x, with A the state before round t's update
        a[t] = z @ x
        zz[t] = np.einsum("nd,nd->n", z, z)
        uz[t] = np.einsum("nd,nd->n", U, z)
        upd = is_root | V[t, np.maximum(par, 0)]  # K_{i,t}: node i stores x_t
        K[t] = upd
        idx = np.flatnonzero(upd)
        zu = z[idx]
        Ainv[idx] -= zu[:, :, None] * zu[:, None, :] / (1.0 + a[t, idx])[:, None, None]
        log_det[idx] += np.log1p(a[t, idx])
    r = a / (1.0 + a)  # r_{i,t,Q} (Sherman–Morrison)
    B = uz / (1.0 + a) + Delta * r  # conditional bias B_{i,t}
    b7 = np.sqrt(r) + np.abs(Delta) * r  # Lemma 7
    Z2 = (a - zz) / (1.0 + a) ** 2  # ‖Z_{i,t}‖², eq. (11), with S Sᵀ = A − I
    ex7, ra7 = float(np.max(np.abs(B) - b7)), float(np.max(np.abs(B) / b7))
    ex8, ra8 = float(np.max(Z2 - r)), float(np.max(Z2 / r))  # Lemma 8
    Kr = np.where(K, r, 0.0)
    sq = Delta**2
    alpha = sq.min(axis=0) / 8.0  # Δ_i²/8 with Δ_i² = min_t Δ_{i,t}²
    with np.errstate(divide="ignore", invalid="ignore"):
        lhs = np.where(K, np.exp(-alpha / r), 0.0).sum(axis=0)
        M = Kr.sum(axis=0)
        rhs = M / (np.e * alpha)  # Lemma 9 with a_t = r_{i,t,Q}
        avg = np.cumsum(Kr / sq, axis=0)[cps - 1]
    return {
        "ex7": ex7, "ra7": ra7, "ex8": ex8, "ra8": ra8, "lhs": lhs, "rhs": rhs, "M": M,
        "log_det": log_det, "avg": avg,
    }  # fmt: skip


def lemma_rounds(
    model: HierarchicalLabelModel,
    X: Any,
    *,
    reps: int,
    seed: Seed,
    checkpoints: Sequence[int],
    costs: Any = None,
) -> LemmaRounds:
    r"""Run H-RLS (Figure 3, primal) and record what Lemmas 7–9 bound, round by round.

    On ``reps`` independent label sequences drawn from ``model`` (one child generator of
    ``seed`` each, through :func:`mlgeom.parallel.pmap`) on the fixed instances ``X``, node
    :math:`i` stores :math:`\mathbf x_t` on the rounds :math:`\mathcal K_{i,t}` (root, or parent
    labelled 1) exactly as :func:`mlgeom.hierarchical.experiments.hrls_primal`; before each
    round's update the bias :math:`B_{i,t}`, :math:`r_{i,t,Q}` and :math:`\|\mathbf Z_{i,t}\|^2`
    are computed for every node (module docstring), and after the run Lemma 9's two sides, the
    proof's :math:`M_i` and log-determinant, and Remark 6's average-margin sum.

    Parameters
    ----------
    model : HierarchicalLabelModel
        The Section 5 label model (unit :math:`\mathbf u_i`).
    X : array_like
        ``(T, d)`` unit instances.
    reps : int
        Independent label sequences.
    seed : int or numpy.random.Generator
        Root of the label sequences.
    checkpoints : sequence of int
        Horizons in ``1 … T`` at which Remark 6's sum is returned.
    costs : array_like, optional
        Node costs :math:`c_i` of Remark 5 (default 1): :math:`C_i = \sum_{k\in SUB(i)} c_k`.

    Returns
    -------
    LemmaRounds
    """
    reps = check_positive_int(reps, "reps")
    X = _dense_instances(model, X)
    cps = np.asarray(sorted(set(int(c) for c in checkpoints)), dtype=np.int64)
    if cps.size == 0 or cps[0] < 1 or cps[-1] > X.shape[0]:
        raise ValueError(f"checkpoints must lie in 1 … {X.shape[0]}; got {cps.tolist()}")
    C = subtree_costs(model.taxonomy, costs)
    outs = pmap(_lemma_rep, [(model, X, g, cps) for g in spawn(seed, reps)], desc="Lemmas 7–9")
    avg = np.stack([o["avg"] for o in outs])
    return LemmaRounds(
        lemma7_excess=np.array([o["ex7"] for o in outs]),
        lemma7_ratio=np.array([o["ra7"] for o in outs]),
        lemma8_excess=np.array([o["ex8"] for o in outs]),
        lemma8_ratio=np.array([o["ra8"] for o in outs]),
        lemma9_lhs=np.stack([o["lhs"] for o in outs]),
        lemma9_rhs=np.stack([o["rhs"] for o in outs]),
        M=np.stack([o["M"] for o in outs]),
        log_det=np.stack([o["log_det"] for o in outs]),
        avg_margin=avg,
        remark6=BOUND_CONSTANT * (avg * C).sum(axis=-1),
        checkpoints=cps,
    )


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-300)


def _ratio(lemma: str, p: np.ndarray, d: int, n: int, m_over_alpha: float) -> float:
    """Ratio of the lemma's left side to its bound at the parameters ``p`` (module docstring)."""
    if lemma == "9":  # a = M softmax(p), α = 1, M = m_over_alpha
        M = m_over_alpha
        e = np.exp(p - p.max())
        a = M * e / e.sum()
        with np.errstate(divide="ignore"):
            s = np.exp(-1.0 / a).sum()
        return float(s * np.e / M)
    L = p[: d * d].reshape(d, d)
    x = _unit(p[d * d : d * d + d])
    A = np.eye(d) + L @ L.T
    w = np.linalg.solve(A + np.outer(x, x), x)  # (A + x xᵀ)⁻¹ x
    r = float(x @ w)
    if lemma == "8":
        return float((w @ L) @ (L.T @ w)) / r  # ‖Z‖² / r with S = L
    u = _unit(p[d * d + d :])
    delta = float(u @ x)
    B = float(u @ w) + delta * r
    return abs(B) / (np.sqrt(r) + abs(delta) * r)


def lemma_probe(
    lemma: str,
    *,
    starts: int,
    seed: Seed,
    d: int = 3,
    n: int = 20,
    m_over_alpha: float = 8.0,
) -> float:
    r"""Largest ratio of a lemma's left side to its bound found by local search.

    Maximises, from ``starts`` random starting points (L-BFGS-B on the negated ratio), over

    * Lemma 7: :math:`A = I + LL^\top` (any ``d × d`` :math:`L`), unit :math:`\mathbf x` and
      :math:`\mathbf u`, the ratio :math:`|B|/(\sqrt r + |\Delta| r)`;
    * Lemma 8: :math:`L` (:math:`S = L`) and unit :math:`\mathbf x`, :math:`\|\mathbf Z\|^2/r`;
    * Lemma 9: :math:`a \ge 0` with :math:`\sum_{t=1}^n a_t = M` (a softmax), :math:`\alpha = 1`
      and :math:`M = ` ``m_over_alpha``, :math:`\sum_t e^{-\alpha/a_t}/(M/(e\alpha))`. The
      maximiser in the proof puts :math:`a_t = \alpha` on :math:`M/\alpha` terms, so the bound
      is attained when ``m_over_alpha`` is an integer at most ``n``. The starts spread from
      nearly equal to very uneven :math:`a` (a term driven to 0 cannot come back, the function
      being flat there).

    Parameters
    ----------
    lemma : {"7", "8", "9"}
        Which lemma.
    starts : int
        Random starting points.
    seed : int or numpy.random.Generator
        Root of the starting points.
    d : int, default=3
        Dimension (Lemmas 7 and 8).
    n : int, default=20
        Number of terms (Lemma 9).
    m_over_alpha : float, default=8.0
        :math:`M/\alpha` (Lemma 9).

    Returns
    -------
    float
        The largest ratio found (at most 1 where the lemma holds).
    """
    lemma = check_in(lemma, "lemma", LEMMAS)
    starts = check_positive_int(starts, "starts")
    d = check_positive_int(d, "d")
    n = check_positive_int(n, "n")
    m_over_alpha = check_real(m_over_alpha, "m_over_alpha", low=0.0, low_inclusive=False)
    rng = as_generator(seed)
    size = {"7": d * d + 2 * d, "8": d * d + d, "9": n}[lemma]
    best = 0.0
    for _ in range(starts):
        # Lemma 9: e^{−α/a} is flat at a = 0, so a term the search drives to 0 never returns;
        # starts from nearly uniform to very uneven a (softmax of scale 0.1 … 3)
        scale = float(np.exp(rng.uniform(np.log(0.1), np.log(3.0)))) if lemma == "9" else 1.0
        p0 = rng.standard_normal(size) * scale
        res = so.minimize(lambda p: -_ratio(lemma, p, d, n, m_over_alpha), p0, method="L-BFGS-B")
        best = max(best, _ratio(lemma, p0, d, n, m_over_alpha), -float(res.fun))
    return best
