r"""The stochastic label model of Section 5, its reference classifier (4) and Theorem 2's bound.

Every node :math:`i` of the taxonomy :math:`G` carries a unit vector :math:`\mathbf u_i \in
\mathbb R^d`. Given a unit-norm instance :math:`\mathbf x`, labels are drawn top-down
(eqs. 2–3):

.. math::

   \mathbb P(V_i = 1 \mid V_{\mathrm{PAR}(i)} = 1, \mathbf x) = \frac{1 + \mathbf u_i^\top
   \mathbf x}{2}, \qquad \mathbb P(V_i = 1 \mid V_{\mathrm{PAR}(i)} = 0, \mathbf x) = 0,

the root form having no condition, and children of a node are independent given it. The
reference classifier (4) is the top-down evaluation of the true margins
:math:`\Delta_i = \mathbf u_i^\top \mathbf x`. Theorem 2 bounds the cumulative regret of
H-RLS against it,

.. math::

   \sum_{t=1}^T \bigl(\mathbb E\ell_H(\hat{\mathbf y}_t, \mathbf V_t)
   - \mathbb E\ell_H(\mathbf y_t, \mathbf V_t)\bigr)
   \le 16(1 + 1/e) \sum_{i=1}^N \frac{C_i}{\Delta_i^2}\,
   \mathbb E\Bigl[\sum_{j=1}^d \log(1 + \lambda_{i,j})\Bigr],

with :math:`\Delta_i^2 = \min_{t \le T} (\mathbf u_i^\top \mathbf x_t)^2`,
:math:`C_i = \sum_{k \in \mathrm{SUB}(i)} c_k` (Remark 5; :math:`|\mathrm{SUB}(i)|` for the
uniform H-loss) and :math:`\lambda_{i,j}` the eigenvalues of
:math:`S_{i,Q(i,T)} S_{i,Q(i,T)}^\top`, the instances node :math:`i` stored (those whose parent
label is 1). Remark 4 relaxes the expectation by Jensen's inequality to eq. (7),
:math:`d \log(1 + \mathbb E Q(i, T)/d)` with
:math:`\mathbb E Q(i, T) = \sum_t \prod_{j \in \mathrm{ANC}(i)} (1 + \Delta_{j,t})/2`.

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import check_multilabels, check_not_complex, check_positive_int
from mlgeom.hierarchical.losses import _check_costs
from mlgeom.hierarchical.taxonomy import Taxonomy, check_taxonomy
from mlgeom.random import Seed, as_generator

__all__ = [
    "BOUND_CONSTANT",
    "HierarchicalLabelModel",
    "Theorem2Bound",
    "eq7_log_term",
    "expected_parent_positives",
    "log_det_term",
    "subtree_costs",
    "theorem2_bound",
]

#: The constant :math:`16(1 + 1/e)` of Theorem 2.
BOUND_CONSTANT = 16.0 * (1.0 + 1.0 / np.e)

_NORM_TOL = 1e-8


def _check_instances(X: Any, d: int, name: str = "X") -> np.ndarray | sp.csr_matrix:
    """Dense or CSR ``(n, d)`` instances with finite entries and row norms at most 1."""
    if sp.issparse(X):
        Xc = sp.csr_matrix(X, dtype=float)
        if Xc.ndim != 2 or Xc.shape[1] != d:
            raise ValueError(f"{name} must have {d} columns (the model's d); got shape {Xc.shape}")
        if not np.all(np.isfinite(Xc.data)):
            raise ValueError(f"{name} must be finite")
        norms = np.sqrt(np.asarray(Xc.multiply(Xc).sum(axis=1)).ravel())
    else:
        check_not_complex(X, name)
        try:
            Xc = np.asarray(X, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a numeric (n, {d}) array; got {X!r:.60}") from exc
        if Xc.ndim == 1:
            Xc = Xc[None, :]
        if Xc.ndim != 2 or Xc.shape[1] != d:
            raise ValueError(f"{name} must have {d} columns (the model's d); got shape {Xc.shape}")
        if not np.all(np.isfinite(Xc)):
            bad = np.argwhere(~np.isfinite(Xc))[0]
            raise ValueError(f"{name} must be finite; got {Xc[tuple(bad)]} at {tuple(bad)}")
        norms = np.linalg.norm(Xc, axis=1)
    over = np.flatnonzero(norms > 1.0 + _NORM_TOL)
    if over.size:
        i = int(over[0])
        raise ValueError(
            f"rows of {name} must have norm <= 1 (Section 5: unit-norm instances); "
            f"row {i} has norm {norms[i]:.6g}"
        )
    return Xc


class HierarchicalLabelModel:
    r"""The Section 5 label model on a taxonomy, with parameters :math:`\mathbf u_1 … \mathbf u_N`.

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest G (N nodes).
    U : array_like of shape (N, d)
        Unit-norm rows :math:`\mathbf u_i` (checked to 1e-8).

    Examples
    --------
    >>> G = Taxonomy([-1, 0])
    >>> model = HierarchicalLabelModel(G, [[1.0, 0.0], [0.0, 1.0]])
    >>> model.probabilities([[0.6, 0.8]]).tolist()
    [[0.8, 0.9]]
    >>> model.marginals([[0.6, 0.8]]).round(2).tolist()
    [[0.8, 0.72]]
    >>> model.reference_predict([[0.6, -0.8]]).tolist()
    [[True, False]]
    """

    def __init__(self, taxonomy: Taxonomy, U: Any) -> None:
        check_taxonomy(taxonomy)
        check_not_complex(U, "U")
        try:
            Ua = np.array(U, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"U must be a numeric (N, d) array; got {U!r:.60}") from exc
        if Ua.ndim != 2 or Ua.shape[0] != taxonomy.n_nodes:
            raise ValueError(
                f"U must have shape (N, d) with N = {taxonomy.n_nodes} rows; got {Ua.shape}"
            )
        if not np.all(np.isfinite(Ua)):
            raise ValueError("U must be finite")
        norms = np.linalg.norm(Ua, axis=1)
        bad = np.flatnonzero(np.abs(norms - 1.0) > _NORM_TOL)
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                f"rows of U must be unit vectors (Section 5); row {i} has norm {norms[i]:.6g}"
            )
        Ua.setflags(write=False)
        self.taxonomy = taxonomy
        self.U = Ua

    @property
    def n_nodes(self) -> int:
        """N."""
        return self.taxonomy.n_nodes

    @property
    def dim(self) -> int:
        """d, the instance dimension."""
        return int(self.U.shape[1])

    # ---------------------------------------------------------------------- the model
    def margins(self, X: Any) -> np.ndarray:
        r"""``(n, N)`` true margins :math:`\Delta_i = \mathbf u_i^\top \mathbf x` (in [-1, 1])."""
        Xc = _check_instances(X, self.dim)
        return np.asarray(Xc @ self.U.T)

    def probabilities(self, X: Any) -> np.ndarray:
        r"""``(n, N)`` conditionals :math:`P(V_i = 1 \mid V_{\mathrm{PAR}(i)} = 1, \mathbf x)`.

        Eq. (3): :math:`(1 + \mathbf u_i^\top \mathbf x)/2`.
        """
        return (1.0 + self.margins(X)) / 2.0  # eq. (3)

    def marginals(self, X: Any) -> np.ndarray:
        r"""``(n, N)`` marginals :math:`P(V_i = 1 \mid \mathbf x)`: products along the path."""
        P = self.probabilities(X)
        par = self.taxonomy.parent
        for i in self.taxonomy.order:
            if par[i] >= 0:
                P[:, i] *= P[:, par[i]]  # eq. (2): V_i = 1 needs V_PAR(i) = 1
        return P

    def sample(self, X: Any, seed: Seed) -> np.ndarray:
        r"""Draw one multilabel per instance from :math:`f_G(\cdot \mid \mathbf x)` (Section 5).

        Roots first; a child is drawn only when its parent is 1 (eq. 2), otherwise it is 0.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix
            ``(n, d)`` instances of norm at most 1.
        seed : int or numpy.random.Generator
            Randomness; the same seed gives the same labels.

        Returns
        -------
        numpy.ndarray
            ``(n, N)`` bool multilabels, each respecting G.
        """
        P = self.probabilities(X)
        rng = as_generator(seed)
        draw = rng.random(P.shape) < P
        par = self.taxonomy.parent
        for i in self.taxonomy.order:
            if par[i] >= 0:
                draw[:, i] &= draw[:, par[i]]
        return draw

    def reference_predict(self, X: Any) -> np.ndarray:
        r"""Predict with the reference classifier of eq. (4) (top-down signs of the true margins).

        Returns
        -------
        numpy.ndarray
            ``(n, N)`` bool, respecting G.
        """
        Y = self.margins(X) >= 0.0
        par = self.taxonomy.parent
        for i in self.taxonomy.order:
            if par[i] >= 0:
                Y[:, i] &= Y[:, par[i]]  # eq. (4), third case
        return Y

    def expected_h_loss(
        self, X: Any, Yhat: Any, costs: Any = None, *, per_node: bool = False
    ) -> np.ndarray:
        r"""Exact :math:`E[\ell_H(\hat{\mathbf y}, \mathbf V) \mid \mathbf x]` under the model.

        Node :math:`i` is charged when :math:`\hat y_i \ne V_i` and :math:`\hat y_j = V_j` on
        :math:`\mathrm{ANC}(i)`. Along a path the labels form a Markov chain, so with
        :math:`q_j = \mathbb P(V_j = \hat y_j \mid V_{\mathrm{PAR}(j)} = \hat y_{\mathrm{PAR}(j)},
        \mathbf x)` and :math:`R_i = \prod_{j \in \mathrm{ANC}(i)} q_j`, node :math:`i`
        contributes :math:`c_i R_i (1 - q_i)`. (:math:`q_j` is :math:`p_j` or
        :math:`1 - p_j` below a predicted-positive parent, and 1 or 0 below a negative one.)

        Parameters
        ----------
        X : array_like or scipy.sparse matrix
            ``(n, d)`` instances.
        Yhat : array_like or scipy.sparse matrix
            ``(n, N)`` 0/1 predictions (need not respect G).
        costs : array_like of shape (N,), optional
            Node costs of Remark 5 (default 1).
        per_node : bool, default=False
            Return the ``(n, N)`` per-node contributions instead of their sum.

        Returns
        -------
        numpy.ndarray
            ``(n,)`` (or ``(n, N)`` with ``per_node=True``) float.
        """
        c = _check_costs(costs, self.n_nodes)
        P = self.probabilities(X)
        yh = check_multilabels(Yhat, "Yhat", n_cols=self.n_nodes)
        if yh.shape[0] != P.shape[0]:
            raise ValueError(
                f"Yhat has {yh.shape[0]} rows but X has {P.shape[0]} (instances); they must match"
            )
        par = self.taxonomy.parent
        q = np.where(yh, P, 1.0 - P)  # P(V_i = ŷ_i | V_PAR = 1) (or no parent)
        R = np.ones_like(P)  # P(V_j = ŷ_j for all j in ANC(i))
        for i in self.taxonomy.order:
            p = par[i]
            if p >= 0:
                # below a parent labelled 0 the node is 0 surely: q = 1 if ŷ_i = 0 else 0
                q[:, i] = np.where(yh[:, p], q[:, i], (~yh[:, i]).astype(float))
                R[:, i] = R[:, p] * q[:, p]
        contrib = R * (1.0 - q) * c
        return contrib if per_node else contrib.sum(axis=1)


# ------------------------------------------------------------------------------- Theorem 2
def subtree_costs(taxonomy: Taxonomy, costs: Any = None) -> np.ndarray:
    r"""Return :math:`C_i = \sum_{k \in \mathrm{SUB}(i)} c_k` (Theorem 2, Remark 5).

    With the default unit costs, :math:`C_i = |\mathrm{SUB}(i)|`.

    Examples
    --------
    >>> subtree_costs(Taxonomy([-1, 0, 0, 1])).tolist()
    [4.0, 2.0, 1.0, 1.0]
    """
    check_taxonomy(taxonomy)
    c = _check_costs(costs, taxonomy.n_nodes).copy()
    par = taxonomy.parent
    for i in taxonomy.order[::-1]:
        if par[i] >= 0:
            c[par[i]] += c[i]
    return c


def expected_parent_positives(model: HierarchicalLabelModel, X: Any) -> np.ndarray:
    r"""Return the per-round probability that the parent of each node is labelled 1.

    That is :math:`\prod_{j \in \mathrm{ANC}(i)} (1 + \Delta_{j,t})/2`, or 1 at a root.

    Remark 4: summing the ``(T, N)`` result over rounds gives :math:`\mathbb E Q(i, T)`; the
    entry is 1 at the roots (a root observes every label).
    """
    M = model.marginals(X)
    par = model.taxonomy.parent
    out = np.ones_like(M)
    child = par >= 0
    out[:, child] = M[:, par[child]]
    return out


def log_det_term(S: Any) -> float:
    r""":math:`\sum_j \log(1 + \lambda_j)` for the eigenvalues of :math:`S S^\top` (Theorem 2).

    ``S`` holds the stored instances as *rows* (``(Q, d)``, dense or sparse), so the value is
    :math:`\log\det(I_d + S^\top S) = \log\det(I_Q + S S^\top)` (Remark 3); the smaller of the
    two Gram matrices is factorised.
    """
    if sp.issparse(S):
        S = S.toarray()
    check_not_complex(S, "S")
    try:
        A = np.asarray(S, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"S must be a numeric (Q, d) matrix; got {S!r:.60}") from exc
    if A.ndim != 2:
        raise ValueError(f"S must be a (Q, d) matrix of stored instances; got shape {A.shape}")
    if not np.all(np.isfinite(A)):
        at = tuple(int(k) for k in np.argwhere(~np.isfinite(A))[0])
        raise ValueError(f"S must be finite; got {A[at]} at index {at}")
    if A.shape[0] == 0:
        return 0.0
    G = A.T @ A if A.shape[0] >= A.shape[1] else A @ A.T
    sign, logdet = np.linalg.slogdet(np.eye(G.shape[0]) + G)
    return float(logdet)


def eq7_log_term(expected_Q: Any, d: int) -> np.ndarray:
    r"""Eq. (7): :math:`d \log(1 + \mathbb E Q(i, T)/d)`, elementwise."""
    check_not_complex(expected_Q, "expected_Q")
    try:
        q = np.asarray(expected_Q, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"expected_Q must be numeric; got {expected_Q!r:.60}") from exc
    bad = ~np.isfinite(q) | (q < 0)
    if np.any(bad):
        at = tuple(int(k) for k in np.argwhere(bad)[0])
        raise ValueError(f"expected_Q must be finite and >= 0; got {q[at]} at index {at}")
    d = check_positive_int(d, "d")
    return d * np.log1p(q / d)


@dataclass(frozen=True)
class Theorem2Bound:
    r"""Theorem 2's regret bound at horizon ``T``, node by node.

    Attributes
    ----------
    T : int
        Horizon.
    C : numpy.ndarray
        ``(N,)`` :math:`C_i`.
    min_margin_sq : numpy.ndarray
        ``(N,)`` :math:`\Delta_i^2 = \min_{t \le T} \Delta_{i,t}^2`.
    log_term : numpy.ndarray
        ``(N,)`` the log-determinant factor used (an estimate of its expectation for
        ``"theorem2"``, eq. (7) for ``"eq7"``).
    per_node : numpy.ndarray
        ``(N,)`` :math:`16(1 + 1/e)\,C_i\,\text{log\_term}_i / \Delta_i^2`.
    kind : str
        ``"theorem2"`` or ``"eq7"``.
    """

    T: int
    C: np.ndarray
    min_margin_sq: np.ndarray
    log_term: np.ndarray
    per_node: np.ndarray
    kind: str

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def total(self) -> float:
        """The bound: the sum of the per-node terms."""
        return float(self.per_node.sum())


def theorem2_bound(
    model: HierarchicalLabelModel,
    X: Any,
    *,
    V: Any = None,
    costs: Any = None,
    kind: str = "theorem2",
) -> Theorem2Bound:
    r"""Theorem 2's bound (or its relaxation through eq. 7) for instances ``X`` (rounds 1 … T).

    Parameters
    ----------
    model : HierarchicalLabelModel
        The true parameters :math:`\mathbf u_i`.
    X : array_like or scipy.sparse matrix
        ``(T, d)`` instances :math:`\mathbf x_1, …, \mathbf x_T`.
    V : array_like or list of array_like, optional
        For ``kind="theorem2"``: one or more ``(T, N)`` label sequences drawn from the model.
        The expectation :math:`\mathbb E[\sum_j \log(1 + \lambda_{i,j})]` is estimated by the
        average over them of :func:`log_det_term` on the instances node :math:`i` stored
        (rounds with :math:`V_{\mathrm{PAR}(i),t} = 1`; every round at a root). Unbiased, but
        an estimate: say so where it is shown.
    costs : array_like of shape (N,), optional
        Node costs (Remark 5); :math:`C_i = \sum_{k \in \mathrm{SUB}(i)} c_k`.
    kind : {"theorem2", "eq7"}
        ``"eq7"`` replaces the expectation by :math:`d \log(1 + \mathbb E Q(i, T)/d)`
        (Remark 4, Jensen), computed exactly; it needs no ``V``.

    Returns
    -------
    Theorem2Bound
        Per-node terms and :attr:`Theorem2Bound.total`. A node whose margin vanishes on some
        round has :math:`\Delta_i^2 = 0` and an infinite term (the bound is vacuous).
    """
    if kind not in ("theorem2", "eq7"):
        raise ValueError(f"kind must be 'theorem2' or 'eq7'; got {kind!r}")
    Xc = _check_instances(X, model.dim)
    T = Xc.shape[0]
    if T < 1:
        raise ValueError("X must hold at least one instance")
    G = model.taxonomy
    C = subtree_costs(G, costs)
    margins = np.asarray(Xc @ model.U.T)
    min_sq = (margins**2).min(axis=0)
    if kind == "eq7":
        EQ = expected_parent_positives(model, Xc).sum(axis=0)
        log_term = eq7_log_term(EQ, model.dim)
    else:
        if V is None:
            raise ValueError("kind='theorem2' needs V (label sequences drawn from the model)")
        Vs = V if isinstance(V, (list, tuple)) else [V]
        log_term = np.zeros(G.n_nodes)
        par = G.parent
        for Vk in Vs:
            vb = check_multilabels(Vk, "V", n_cols=G.n_nodes)
            if vb.shape[0] != T:
                raise ValueError(f"V has {vb.shape[0]} rows for T = {T} instances")
            for i in range(G.n_nodes):
                rows = np.arange(T) if par[i] < 0 else np.flatnonzero(vb[:, par[i]])
                log_term[i] += log_det_term(Xc[rows])
        log_term /= len(Vs)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_node = np.where(log_term > 0, BOUND_CONSTANT * C * log_term / min_sq, 0.0)  # Theorem 2
    return Theorem2Bound(T, C, min_sq, log_term, per_node, kind)
