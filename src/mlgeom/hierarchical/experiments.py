r"""Experiment drivers of the hierarchical-classification chapter (Cesa-Bianchi et al. 2006).

Each function runs one experiment of ``notebooks/hierarchical_classification.md`` and returns
:class:`pandas.DataFrame` tables or small dataclasses, so that notebook cells stay short:

* :func:`hloss_definition_checks` — Section 3: the Figure 1 / Figure 2 cases, the ordering
  :math:`\ell_{0/1} \le \ell_H \le \ell_\Delta` and Lemma 1 on random multilabels;
* :func:`theorem2_experiment` — Sections 5–7: the cumulative regret of H-RLS against the
  reference classifier (4), in exact expectation over the labels of each round, with the
  Theorem 2 bound, eq. (7) and eq. (10), and per-node contributions by depth (Remark 4);
* :func:`run_protocol` — Section 8: the Table 1 / Table 2 / Figure 4 protocol (online learners
  for one epoch, SVMs) over a list of train/test splits, in parallel through
  :func:`mlgeom.parallel.pmap`; the paper's numbers are data here (:data:`PAPER_TABLE1`,
  :data:`PAPER_TABLE2`);
* :func:`work_counts` — deterministic cost of training (stored instances, kernel products,
  inverse updates) for hierarchical versus flat learners; wall-clock ratios are printed by
  :func:`main` (``python -m mlgeom.hierarchical.experiments``, part of ``make bench``) and never
  stored.

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd
import scipy.sparse as sp

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import (
    check_in,
    check_int_vector,
    check_matrix,
    check_positive_int,
    check_real,
)
from mlgeom.book import claims as C
from mlgeom.hierarchical.corpus import HierarchicalCorpus, label_statistics
from mlgeom.hierarchical.label_model import (
    BOUND_CONSTANT,
    HierarchicalLabelModel,
    _check_instances,
    eq7_log_term,
    expected_parent_positives,
    subtree_costs,
)
from mlgeom.hierarchical.losses import (
    _check_costs,
    h_loss,
    h_loss_mistakes,
    symmetric_difference_loss,
    zero_one_loss,
)
from mlgeom.hierarchical.taxonomy import Taxonomy, check_taxonomy
from mlgeom.parallel import pmap
from mlgeom.random import Seed, as_generator, spawn

__all__ = [
    "ALGORITHMS",
    "cost_ranking",
    "cost_table",
    "EMPTY",
    "figure2_example",
    "HIERARCHICAL",
    "hloss_definition_checks",
    "hrls_primal",
    "LEMMA1_COLUMN",
    "margin_floor_instances",
    "orthonormal_model",
    "paper_table1",
    "PAPER_TABLE1",
    "paper_table2",
    "PAPER_TABLE2",
    "PAPER_TEST_SIZE",
    "plot_figure4",
    "profile_distance",
    "ProtocolResult",
    "random_model",
    "rcv1_like_forest",
    "record_table1_orderings",
    "record_corpus_claims",
    "corpus_statistics",
    "CORPUS_STATISTICS",
    "RegretResult",
    "run_protocol",
    "sphere_instances",
    "split_losses",
    "table1",
    "table2",
    "theorem2_experiment",
    "TRUNCATED",
    "uniform_guess_regret",
    "with_empty_prediction",
    "work_counts",
]

#: The six algorithms of Table 1, in the paper's order.
ALGORITHMS: tuple[str, ...] = ("PERC", "H-PERC", "S-RLS", "SH-RLS", "SVM", "H-SVM")
#: The hierarchical ones (trained with the hierarchical protocol, evaluated top-down, eq. 15).
HIERARCHICAL: tuple[str, ...] = ("H-PERC", "SH-RLS", "H-SVM")
#: Hierarchical algorithm -> its flat variant (Section 8).
FLAT_OF: dict[str, str] = {"H-PERC": "PERC", "SH-RLS": "S-RLS", "H-SVM": "SVM"}
LOSSES: tuple[str, ...] = ("zero-one", "uniform H-loss", "Δ-loss")
#: Flat algorithm -> the name of its G-truncated variant (:func:`run_protocol`, ``truncate_flat``).
TRUNCATED: dict[str, str] = {f: f"{f} (truncated)" for f in ("PERC", "S-RLS", "SVM")}
#: Column of :func:`run_protocol` counting the test documents on which the G-truncation
#: increased a flat prediction's uniform H-loss (Lemma 1 says none).
LEMMA1_COLUMN = "Lemma 1 violations"

# ---------------------------------------------------------------------------------------------
# The paper's numbers (Table 1: mean (± std) test error over 5 splits; Table 2: average number
# of FP / FN H-loss mistakes per depth over the 5 test sets).

_T1 = {
    "RCV1": {
        "PERC": [(0.702, 0.045), (1.196, 0.127), (1.695, 0.182)],
        "H-PERC": [(0.655, 0.040), (1.224, 0.114), (1.861, 0.172)],
        "S-RLS": [(0.559, 0.005), (0.981, 0.020), (1.413, 0.033)],
        "SH-RLS": [(0.456, 0.010), (0.743, 0.026), (1.086, 0.036)],
        "SVM": [(0.482, 0.009), (0.790, 0.023), (1.173, 0.051)],
        "H-SVM": [(0.440, 0.008), (0.712, 0.021), (1.050, 0.027)],
    },
    "OHSUMED": {
        "PERC": [(0.899, 0.024), (1.938, 0.219), (2.639, 0.226)],
        "H-PERC": [(0.846, 0.024), (1.560, 0.155), (2.528, 0.251)],
        "S-RLS": [(0.873, 0.004), (1.814, 0.024), (2.627, 0.027)],
        "SH-RLS": [(0.769, 0.004), (1.200, 0.007), (1.957, 0.011)],
        "SVM": [(0.784, 0.003), (1.206, 0.003), (1.872, 0.005)],
        "H-SVM": [(0.759, 0.002), (1.170, 0.005), (1.910, 0.007)],
    },
}

_T2 = {  # depth -> (FP mean, FP std, FN mean, FN std) for H-PERC, SH-RLS, H-SVM
    "RCV1": {
        "H-PERC": [(4144, 2431, 2690, 851), (6769, 2509, 7961, 838), (1161, 261, 1513, 833),
                   (161, 314, 88, 44)],
        "SH-RLS": [(1449, 79, 2436, 112), (1361, 108, 8135, 476), (413, 32, 937, 51),
                   (14, 16, 115, 31)],
        "H-SVM": [(1769, 163, 2513, 148), (1317, 81, 7260, 450), (380, 28, 624, 23),
                  (20, 26, 94, 24)],
    },
    "OHSUMED": {
        "H-PERC": [(7916, 2638, 12639, 1418), (1816, 730, 1606, 373), (88, 20, 86, 31),
                   (10, 5, 16, 11), (3, 2, 5, 6)],
        "SH-RLS": [(3192, 88, 12888, 64), (828, 14, 1594, 33), (30, 6, 54, 4), (2, 1, 13, 3),
                   (1, 1, 1, 1)],
        "H-SVM": [(3062, 60, 12587, 49), (839, 11, 1542, 25), (37, 7, 55, 2), (3, 1, 14, 1),
                  (4, 1, 2, 1)],
    },
}  # fmt: skip


def paper_table1(dataset: str) -> pd.DataFrame:
    """Return the paper's Table 1 for ``"RCV1"`` or ``"OHSUMED"``: mean and std of each loss."""
    if dataset not in _T1:
        raise ValueError(f"dataset must be 'RCV1' or 'OHSUMED'; got {dataset!r}")
    rows = []
    for alg in ALGORITHMS:
        row: dict[str, Any] = {"algorithm": alg}
        for loss, (m, s) in zip(LOSSES, _T1[dataset][alg], strict=True):
            row[(loss, "mean")] = m
            row[(loss, "std")] = s
        rows.append(row)
    df = pd.DataFrame(rows).set_index("algorithm")
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    return df


def paper_table2(dataset: str) -> pd.DataFrame:
    """Return the paper's Table 2 for ``"RCV1"`` or ``"OHSUMED"`` (long: depth, kind, algorithm)."""
    if dataset not in _T2:
        raise ValueError(f"dataset must be 'RCV1' or 'OHSUMED'; got {dataset!r}")
    rows = []
    for alg, per_depth in _T2[dataset].items():
        for depth, (fp, fps, fn, fns) in enumerate(per_depth):
            rows.append({"algorithm": alg, "depth": depth, "kind": "FP", "mean": fp, "std": fps})
            rows.append({"algorithm": alg, "depth": depth, "kind": "FN", "mean": fn, "std": fns})
    return pd.DataFrame(rows)


#: Table 1 as data: ``PAPER_TABLE1["RCV1"]`` and ``PAPER_TABLE1["OHSUMED"]``.
PAPER_TABLE1: dict[str, pd.DataFrame] = {k: paper_table1(k) for k in _T1}
#: Table 2 as data (long format).
PAPER_TABLE2: dict[str, pd.DataFrame] = {k: paper_table2(k) for k in _T2}


# ---------------------------------------------------------------------------------------------
# Section 3: definition checks


def figure2_example() -> tuple[Taxonomy, np.ndarray, np.ndarray, np.ndarray]:
    """Return a 12-node tree and multilabels (a), (b), (c) matching the caption of Figure 2.

    The figure is a drawing; this tree and these multilabels are ours, chosen to match its
    caption: (a) does not respect G, (b) is its G-truncation, (c) respects G, and between (b)
    and (c) the H-loss is 3, the zero-one loss 1 and the symmetric difference 4.

    Returns
    -------
    (Taxonomy, numpy.ndarray, numpy.ndarray, numpy.ndarray)
        The tree ``0 -> {1, 2, 3}, 1 -> {4, 5}, 2 -> {6, 7}, 3 -> {8, 9}, 4 -> 10, 6 -> 11``
        and the 0/1 vectors (a), (b), (c).
    """
    G = Taxonomy([-1, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 6])

    def ml(nodes: set[int]) -> np.ndarray:
        v = np.zeros(12, dtype=np.int8)
        v[sorted(nodes)] = 1
        return v

    return G, ml({0, 1, 4, 3, 8, 11, 7}), ml({0, 1, 4, 3, 8}), ml({0, 1, 4, 10, 2})


def _random_forest(rng: np.random.Generator, n: int) -> Taxonomy:
    parents = [-1] + [int(rng.integers(-1, i)) for i in range(1, n)]
    perm = rng.permutation(n)
    inv = np.empty(n, dtype=np.int64)
    inv[perm] = np.arange(n)
    relabelled = [-1] * n
    for old, p in enumerate(parents):
        relabelled[inv[old]] = -1 if p < 0 else int(inv[p])
    return Taxonomy(relabelled)


def hloss_definition_checks(n_cases: int = 2000, *, seed: Seed) -> tuple[pd.DataFrame, dict]:
    r"""Section 3 on worked and random cases.

    Returns
    -------
    (pandas.DataFrame, dict)
        The worked examples (Figure 1's two multilabels against its respecting one; Figure 2's
        (a)/(b) against (c)) with their three losses, and counts over ``n_cases`` random
        forests (2–15 nodes) and multilabel pairs (prediction arbitrary, truth closed upward):
        violations of :math:`\ell_{0/1} \le \ell_H \le \ell_\Delta` and of Lemma 1.
    """
    n_cases = check_positive_int(n_cases, "n_cases")
    fig1 = Taxonomy([-1, 0, 0, 2, 2, -1, 5, 5, 7, 7, 7])
    v1 = np.array([1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0])
    bad1 = np.array([1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0])
    G2, a2, b2, c2 = figure2_example()
    cases = [
        ("Figure 1: (1,1,0,1,0,…) vs (1,1,1,0,0,1,0,1,0,1,0)", fig1, bad1, v1),
        ("Figure 1: its G-truncation vs the same", fig1, fig1.truncate(bad1)[0], v1),
        ("Figure 2: (a) vs (c)", G2, a2, c2),
        ("Figure 2: (b) = truncation of (a) vs (c)", G2, b2, c2),
    ]
    rows = []
    for name, G, y, v in cases:
        rows.append(
            {
                "case": name,
                "ŷ respects G": bool(G.respects(y)[0]),
                "v respects G": bool(G.respects(v)[0]),
                "zero-one": float(zero_one_loss(y, v)[0]),
                "H-loss": float(h_loss(y, v, G)[0]),
                "Δ-loss": float(symmetric_difference_loss(y, v)[0]),
            }
        )
    worked = pd.DataFrame(rows).set_index("case")
    rng = as_generator(seed)
    order_viol = lemma_viol = strict_lemma = 0
    for _ in range(n_cases):
        n = int(rng.integers(2, 16))
        G = _random_forest(rng, n)
        y = rng.random(n) < rng.uniform(0.1, 0.9)
        v = G.close_upward(rng.random(n) < rng.uniform(0.05, 0.5))[0]
        z, h, d = zero_one_loss(y, v)[0], h_loss(y, v, G)[0], symmetric_difference_loss(y, v)[0]
        order_viol += not (z <= h <= d)
        ht = h_loss(G.truncate(y), v, G)[0]
        lemma_viol += ht > h
        strict_lemma += ht < h
    counts = {
        "cases": n_cases,
        "ordering violations": order_viol,
        "Lemma 1 violations": lemma_viol,
        "truncation strictly lowers H-loss": strict_lemma,
    }
    return worked, counts


# ---------------------------------------------------------------------------------------------
# Theorem 2 on synthetic data from the Section 5 model


def rcv1_like_forest() -> Taxonomy:
    """Return a 24-node forest shaped like RCV1's: 4 roots, maximum depth 3 (Section 8).

    RCV1's nodes by depth are 4%, 53%, 42%, 1%; here 4 roots, 12 nodes at depth 1 (three per
    root), 7 at depth 2 and 1 at depth 3.
    """
    parents = [-1, -1, -1, -1]
    parents += [r for r in range(4) for _ in range(3)]  # nodes 4…15 at depth 1
    parents += [4, 4, 5, 7, 10, 13, 14]  # nodes 16…22 at depth 2
    parents += [16]  # node 23 at depth 3
    return Taxonomy(parents)


def orthonormal_model(taxonomy: Taxonomy, d: int, *, seed: Seed) -> HierarchicalLabelModel:
    r"""Return a Section 5 model with random orthonormal :math:`\mathbf u_i` (``d >= N``)."""
    check_taxonomy(taxonomy)
    N = taxonomy.n_nodes
    d = check_positive_int(d, "d", minimum=N)
    rng = as_generator(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((d, N)))
    return HierarchicalLabelModel(taxonomy, Q.T.copy())


def margin_floor_instances(
    model: HierarchicalLabelModel, T: int, gamma: float, *, seed: Seed
) -> np.ndarray:
    r"""Draw unit-norm instances with every margin in :math:`[\gamma, 1/\sqrt N]` in absolute value.

    With orthonormal :math:`\mathbf u_i` (:func:`orthonormal_model`), :math:`\mathbf x_t =
    \sum_i c_{i,t} \mathbf u_i + \mathbf r_t` with :math:`|c_{i,t}|` uniform on
    :math:`[\gamma, 1/\sqrt N]`, random signs, and :math:`\mathbf r_t` orthogonal to every
    :math:`\mathbf u_i` filling the norm to 1. The floor keeps Theorem 2's
    :math:`\Delta_i^2 = \min_t \Delta_{i,t}^2 \ge \gamma^2` away from zero (otherwise the bound
    is infinite); the spread of margins above it makes mistakes at small margins persist, the
    regime where the regret grows like :math:`\log T`.
    """
    T = check_positive_int(T, "T")
    U = model.U
    N, d = U.shape
    if not np.allclose(U @ U.T, np.eye(N), atol=1e-10):
        raise ValueError("margin_floor_instances needs orthonormal u_i (orthonormal_model)")
    top = 1.0 / np.sqrt(N)
    gamma = check_real(gamma, "gamma", low=0.0, high=top, low_inclusive=False)
    rng = as_generator(seed)
    c = rng.uniform(gamma, top, size=(T, N)) * rng.choice([-1.0, 1.0], size=(T, N))
    X = c @ U
    if d > N:
        R = rng.standard_normal((T, d))
        R -= (R @ U.T) @ U  # orthogonal to every u_i
        R /= np.linalg.norm(R, axis=1, keepdims=True)
        rest = np.sqrt(np.clip(1.0 - (c**2).sum(axis=1), 0.0, None))
        X += rest[:, None] * R
    else:
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X


def random_model(taxonomy: Taxonomy, d: int, *, seed: Seed) -> HierarchicalLabelModel:
    r"""Return a Section 5 model with independent uniformly random unit vectors."""
    check_taxonomy(taxonomy)
    d = check_positive_int(d, "d")
    rng = as_generator(seed)
    U = rng.standard_normal((taxonomy.n_nodes, d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    return HierarchicalLabelModel(taxonomy, U)


def sphere_instances(
    model: HierarchicalLabelModel, T: int, gamma: float, *, seed: Seed, max_draws: int = 10**8
) -> np.ndarray:
    r"""Draw instances uniform on the unit sphere with every margin at least gamma in modulus.

    Rejection sampling in batches.

    The floor keeps Theorem 2's :math:`\Delta_i^2 = \min_t \Delta_{i,t}^2 \ge \gamma^2` away
    from zero (otherwise the bound is infinite), while the margins above it keep a density near
    the floor, the regime where mistakes at small margins persist and the regret grows like
    :math:`\log T` until :math:`T` is of order :math:`d/\gamma^2`.

    Raises
    ------
    ValueError
        If fewer than ``T`` instances are accepted within ``max_draws`` draws (floor too high
        for this many nodes in this dimension).
    """
    T = check_positive_int(T, "T")
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, high_inclusive=False)
    max_draws = check_positive_int(max_draws, "max_draws")
    rng = as_generator(seed)
    d = model.dim
    out: list[np.ndarray] = []
    have = drawn = 0
    while have < T:
        if drawn >= max_draws:
            raise ValueError(
                f"only {have} of {T} instances have every margin >= gamma={gamma} after "
                f"{drawn} draws; lower gamma"
            )
        batch = max(1024, 2 * (T - have))
        Z = rng.standard_normal((batch, d))
        Z /= np.linalg.norm(Z, axis=1, keepdims=True)
        keep = np.all(np.abs(Z @ model.U.T) >= gamma, axis=1)
        out.append(Z[keep])
        have += int(keep.sum())
        drawn += batch
    return np.concatenate(out)[:T]


@dataclass(frozen=True)
class HRLSRun:
    r"""One run of :func:`hrls_primal`.

    Attributes
    ----------
    margins : numpy.ndarray
        ``(T, N)`` :math:`\hat\Delta_{i,t} = \mathbf w_{i,t}^\top \mathbf x_t` before round
        ``t``'s update.
    predictions : numpy.ndarray
        ``(T, N)`` bool, top-down (Figure 3, step 2).
    log_det : numpy.ndarray
        ``(T, N)`` :math:`\log\det(I + S_{i,Q(i,t)} S_{i,Q(i,t)}^\top)` after round ``t``
        (:math:`\sum_j \log(1 + \lambda_{i,j})` of Theorem 2).
    n_stored : numpy.ndarray
        ``(N,)`` :math:`Q(i, T)`.
    """

    margins: np.ndarray
    predictions: np.ndarray
    log_det: np.ndarray
    n_stored: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)


@numba.njit(cache=True)
def _hrls_kernel(X, parent_pos, targets, parent, order):  # pragma: no cover - compiled
    """H-RLS in the primal (Sherman–Morrison), one compiled loop; see :func:`hrls_primal`."""
    T, d = X.shape
    N = targets.shape[1]
    Ainv = np.zeros((N, d, d))
    for i in range(N):
        for k in range(d):
            Ainv[i, k, k] = 1.0
    b = np.zeros((N, d))
    z = np.zeros((N, d))
    a = np.zeros(N)
    logdet = np.zeros(N)
    n_stored = np.zeros(N, dtype=np.int64)
    margins = np.zeros((T, N))
    preds = np.zeros((T, N), dtype=np.bool_)
    logdets = np.zeros((T, N))
    for t in range(T):
        for i in range(N):
            m = 0.0
            aa = 0.0
            for k in range(d):
                s = 0.0
                for j in range(d):
                    s += Ainv[i, k, j] * X[t, j]
                z[i, k] = s
                aa += s * X[t, k]
                m += b[i, k] * s
            a[i] = aa
            margins[t, i] = m / (1.0 + aa)  # eq. (1) via Sherman–Morrison
            preds[t, i] = margins[t, i] >= 0.0
        for i in order:  # Figure 3, step 2 (top-down)
            if parent[i] >= 0 and not preds[t, parent[i]]:
                preds[t, i] = False
        for i in range(N):
            if parent_pos[t, i]:
                c = 1.0 / (1.0 + a[i])
                for k in range(d):
                    for j in range(d):
                        Ainv[i, k, j] -= z[i, k] * z[i, j] * c
                    b[i, k] += targets[t, i] * X[t, k]
                logdet[i] += np.log1p(a[i])  # det(A + x xᵀ) = det(A)(1 + xᵀA⁻¹x)
                n_stored[i] += 1
            logdets[t, i] = logdet[i]
    return margins, preds, logdets, n_stored


def hrls_primal(taxonomy: Taxonomy, X: Any, V: Any) -> HRLSRun:
    r"""H-RLS (Figure 3, eq. 1) in the primal, for low-dimensional dense instances.

    Node :math:`i` keeps :math:`A_i^{-1} = (I + S_i S_i^\top)^{-1}` (``d × d``) and
    :math:`\mathbf b_i = S_i \mathbf y_i`; by Sherman–Morrison the estimator of eq. (1), which
    includes the current instance, has margin

    .. math::

       \mathbf w_{i,t}^\top \mathbf x_t = \mathbf x_t^\top (A_i + \mathbf x_t \mathbf x_t^\top)^{-1}
       \mathbf b_i = \frac{\mathbf b_i^\top A_i^{-1} \mathbf x_t}{1 + \mathbf x_t^\top A_i^{-1}
       \mathbf x_t}.

    After the prediction, every node that is a root or whose parent has :math:`v_{\mathrm{PAR}(i),t}
    = 1` stores :math:`\mathbf x_t` (Section 4). The regression targets are the labels in
    :math:`\{-1, +1\}` (:math:`2 v - 1`): the printed eq. (1) writes :math:`v_{i,i_k}`, but the
    analysis needs :math:`\mathbb E[V] = \mathbf u_i^\top \mathbf x` ("By definition of our
    parametric model (3) we have :math:`\mathbb E_{i,t}[(V_{i,i_1}, …)] = S^\top \mathbf u_i`"),
    which holds for :math:`\pm 1` labels only. The cost per round is :math:`O(N d^2)`; for
    sparse high-dimensional text use the dual learners of :mod:`mlgeom.hierarchical.learners`.

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest (N nodes).
    X : array_like
        ``(T, d)`` dense instances.
    V : array_like
        ``(T, N)`` 0/1 multilabels respecting the taxonomy.

    Returns
    -------
    HRLSRun
    """
    check_taxonomy(taxonomy)
    X = check_matrix(X, "X")
    Vb = taxonomy.as_multilabels(V, "V")
    if Vb.shape[0] != X.shape[0]:
        raise ValueError(
            f"X must be (T, d) with T = {Vb.shape[0]} rows (one per row of V); got shape {X.shape}"
        )
    par = np.asarray(taxonomy.parent, dtype=np.int64)
    parent_pos = np.where((par < 0)[None, :], True, Vb[:, np.maximum(par, 0)])
    order = np.asarray(taxonomy.order, dtype=np.int64)
    Xc = np.ascontiguousarray(X, dtype=float)
    margins, preds, logdets, n_stored = _hrls_kernel(Xc, parent_pos, 2.0 * Vb - 1.0, par, order)
    return HRLSRun(margins, preds, logdets, n_stored)


@dataclass(frozen=True)
class RegretResult:
    r"""Output of :func:`theorem2_experiment`.

    Attributes
    ----------
    curve : pandas.DataFrame
        Indexed by the horizon ``T`` (checkpoints): mean cumulative regret over the label
        sequences and its standard error, the Theorem 2 bound (expectation estimated by the
        mean over the sequences), eq. (7), eq. (10)'s intermediate bound, the reference
        classifier's cumulative expected H-loss, and the regret per round.
    per_node : pandas.DataFrame
        One row per node: depth, :math:`C_i`, :math:`\Delta_i^2`, the node's share of the
        regret, :math:`\sum_t P(\hat y_{i,t} \ne y_{i,t}, \mathcal K_{i,t})` and
        :math:`C_i` times it (eq. 10), :math:`\mathbb E Q(i,T)`, and the eq. (7) term.
    eq10_worst : float
        Largest per-round excess of the regret over eq. (10)'s bound (``<= 0`` when it holds).
    rounds : numpy.ndarray
        ``(T,)`` mean per-round regret.
    regret_reps : numpy.ndarray
        ``(reps, n_checkpoints)`` cumulative regret of each label sequence (for intervals over
        the sequences).
    eq10_node_reps : numpy.ndarray
        ``(reps, N)`` each sequence's per-node eq. (10) term
        :math:`C_i \sum_t P(\hat y_{i,t} \ne y_{i,t}, \mathcal K_{i,t})`.
    weighted : RegretResult or None
        With ``costs`` given to :func:`theorem2_experiment`: the same runs scored with the
        cost-weighted H-loss of Remark 5, its bounds with :math:`C_i = \sum_{k \in
        \mathrm{SUB}(i)} c_k` (``None`` otherwise).
    """

    curve: pd.DataFrame
    per_node: pd.DataFrame
    eq10_worst: float
    rounds: np.ndarray
    regret_reps: np.ndarray
    eq10_node_reps: np.ndarray
    weighted: RegretResult | None = None


def _rep_losses(
    model: HierarchicalLabelModel,
    X: np.ndarray,
    preds: np.ndarray,
    ref: np.ndarray,
    reach: np.ndarray,
    costs: np.ndarray | None,
    cp: np.ndarray,
) -> dict[str, Any]:
    """One label sequence's regret terms for the H-loss with node costs ``costs`` (Remark 5)."""
    e_alg = model.expected_h_loss(X, preds, costs, per_node=True)
    e_ref = model.expected_h_loss(X, ref, costs, per_node=True)
    disagree = (preds != ref) * reach  # P(ŷ_i ≠ y_i, K_i) given the past
    C = subtree_costs(model.taxonomy, costs)  # C_i = Σ_{k ∈ SUB(i)} c_k (Remark 5)
    per_round = e_alg.sum(axis=1) - e_ref.sum(axis=1)
    eq10 = disagree @ C
    return {
        "regret": np.cumsum(per_round)[cp],
        "per_round": per_round,
        "ref_loss": np.cumsum(e_ref.sum(axis=1))[cp],
        "eq10": np.cumsum(eq10)[cp],
        "eq10_gap": float(np.max(per_round - eq10)),
        "node_regret": (e_alg - e_ref).sum(axis=0),
        "node_disagree": disagree.sum(axis=0),
    }


def _regret_rep(args: tuple) -> list[dict[str, Any]]:
    model, X, seed, checkpoints, cost_list = args
    G = model.taxonomy
    V = model.sample(X, seed)
    run = hrls_primal(G, X, V)
    ref = model.reference_predict(X)
    reach = expected_parent_positives(model, X)  # P(K_{i,t}) = P(V_PAR(i),t = 1)
    cp = np.asarray(checkpoints) - 1
    outs = [_rep_losses(model, X, run.predictions, ref, reach, c, cp) for c in cost_list]
    for o in outs:  # the learner's run is shared by every cost vector
        o["log_det"] = run.log_det[cp]
        o["n_stored"] = run.n_stored
    return outs


def _dense_instances(model: HierarchicalLabelModel, X: Any) -> np.ndarray:
    """``(T, d)`` dense instances of the model's dimension, finite, unit norm at most, T >= 1."""
    if not isinstance(model, HierarchicalLabelModel):
        raise TypeError(f"model must be a HierarchicalLabelModel; got {type(model).__name__}")
    Xc = _check_instances(X, model.dim)
    Xc = Xc.toarray() if sp.issparse(Xc) else np.asarray(Xc, dtype=float)
    if Xc.shape[0] == 0:
        raise ValueError(f"X must hold at least one instance; got shape {Xc.shape}")
    return Xc


def theorem2_experiment(
    model: HierarchicalLabelModel,
    X: Any,
    *,
    reps: int,
    seed: Seed,
    checkpoints: Sequence[int] | None = None,
    costs: Any = None,
) -> RegretResult:
    r"""Cumulative regret of H-RLS against the reference classifier (4) (eq. 5, H-loss).

    The instances ``X`` are fixed (Theorem 2 holds for any sequence); ``reps`` independent label
    sequences are drawn from the model (one child generator each, run through
    :func:`mlgeom.parallel.pmap`). On every round the regret
    :math:`\mathbb E\ell_H(\hat{\mathbf y}_t, \mathbf V_t) - \mathbb E\ell_H(\mathbf y_t,
    \mathbf V_t)` is computed exactly over :math:`\mathbf V_t` given the past
    (:meth:`HierarchicalLabelModel.expected_h_loss`); the mean over sequences estimates the
    expectation over the past.

    Theorem 2's bound uses :math:`\Delta_i^2 = \min_{t \le T}\Delta_{i,t}^2` and
    :math:`\mathbb E[\sum_j \log(1 + \lambda_{i,j})]`, estimated by the mean over the sequences
    of the log-determinant H-RLS accumulates; eq. (7) replaces it by
    :math:`d\log(1 + \mathbb E Q(i,T)/d)`, exact. Eq. (10),
    :math:`\sum_i C_i \sum_t P(\hat y_{i,t} \ne y_{i,t}, \mathcal K_{i,t})`, is the proof's
    first step; it is checked round by round. Where a node's margin :math:`\Delta_i` is 0 the
    theorem's assumption fails and both bounds are ``inf``.

    With ``costs`` (Remark 5) the same runs, on the same label sequences, are also scored with
    the cost-weighted H-loss :math:`\sum_i c_i\{\hat y_i \ne v_i \wedge \hat y_j = v_j,
    j \in \mathrm{ANC}(i)\}`; neither H-RLS nor the reference classifier (4) depends on the
    costs, and the bounds take the generalised regret factors :math:`C_i = \sum_{k \in
    \mathrm{SUB}(i)} c_k`. That result is :attr:`RegretResult.weighted`; the unit-cost
    result is unchanged by it.

    Parameters
    ----------
    model : HierarchicalLabelModel
        The label model of Section 5 (true :math:`\mathbf u_i`).
    X : array_like
        ``(T, d)`` unit instances.
    reps : int
        Independent label sequences (one child generator of ``seed`` each).
    seed : int or numpy.random.Generator
        Root of the label sequences.
    checkpoints : sequence of int, optional
        Horizons in ``1 … T``; default 13 log-spaced ones from 10.
    costs : array_like of shape (N,), optional
        Positive node costs :math:`c_i` of Remark 5 for :attr:`RegretResult.weighted`.

    Returns
    -------
    RegretResult
    """
    reps = check_positive_int(reps, "reps")
    X = _dense_instances(model, X)
    G = model.taxonomy
    cost_list = [None] if costs is None else [None, _check_costs(costs, G.n_nodes)]
    T = X.shape[0]
    if checkpoints is None:
        checkpoints = np.unique(np.round(np.logspace(1, np.log10(T), 13)).astype(int))
    cps = np.asarray(sorted(set(int(c) for c in checkpoints)), dtype=np.int64)
    if cps[0] < 1 or cps[-1] > T:
        raise ValueError(f"checkpoints must lie in 1 … {T}; got {cps.tolist()}")
    items = [(model, X, g, cps, cost_list) for g in spawn(seed, reps)]
    outs_all = pmap(_regret_rep, items, desc="Theorem 2 regret")
    results = [
        _regret_result(model, X, cps, [o[k] for o in outs_all], c) for k, c in enumerate(cost_list)
    ]
    if len(results) == 1:
        return results[0]
    return dataclasses.replace(results[0], weighted=results[1])


def _regret_result(
    model: HierarchicalLabelModel,
    X: np.ndarray,
    cps: np.ndarray,
    outs: list[dict[str, Any]],
    costs: np.ndarray | None,
) -> RegretResult:
    """Assemble :class:`RegretResult` from the label sequences' terms for one cost vector."""
    reps = len(outs)
    G = model.taxonomy
    C = subtree_costs(G, costs)
    regret = np.stack([o["regret"] for o in outs])
    log_det = np.mean([o["log_det"] for o in outs], axis=0)  # (n_cp, N)
    margins_sq = (X @ model.U.T) ** 2
    min_sq = np.minimum.accumulate(margins_sq, axis=0)[cps - 1]  # (n_cp, N)
    EQ = np.cumsum(expected_parent_positives(model, X), axis=0)[cps - 1]
    with np.errstate(divide="ignore"):  # a zero margin Δ_i: the bound is +inf, as it should be
        thm2 = (BOUND_CONSTANT * C * log_det / min_sq).sum(axis=1)
        eq7 = (BOUND_CONSTANT * C * eq7_log_term(EQ, model.dim) / min_sq).sum(axis=1)
        eq7_last = BOUND_CONSTANT * C * eq7_log_term(EQ[-1], model.dim) / min_sq[-1]
    curve = pd.DataFrame(
        {
            "regret": regret.mean(axis=0),
            "std err": regret.std(axis=0, ddof=1) / np.sqrt(reps) if reps > 1 else np.nan,
            "regret / T": regret.mean(axis=0) / cps,
            "eq. (10)": np.mean([o["eq10"] for o in outs], axis=0),
            "Theorem 2 bound": thm2,
            "eq. (7) bound": eq7,
            "reference E loss": np.mean([o["ref_loss"] for o in outs], axis=0),
        },
        index=pd.Index(cps, name="T"),
    )
    node_regret = np.mean([o["node_regret"] for o in outs], axis=0)
    node_dis = np.mean([o["node_disagree"] for o in outs], axis=0)
    per_node = pd.DataFrame(
        {
            "depth": G.depth,
            "C_i": C,
            "Δ_i²": min_sq[-1],
            "regret share": node_regret,
            "Σ_t P(ŷ≠y, K)": node_dis,
            "C_i Σ_t P(ŷ≠y, K)": C * node_dis,
            "E Q(i,T)": EQ[-1],
            "mean Q(i,T)": np.mean([o["n_stored"] for o in outs], axis=0),
            "eq. (7) term": eq7_last,
        },
        index=pd.Index(np.arange(G.n_nodes), name="node"),
    )
    rounds = np.mean([o["per_round"] for o in outs], axis=0)
    eq10_worst = float(max(o["eq10_gap"] for o in outs))
    eq10_nodes = np.stack([C * o["node_disagree"] for o in outs])
    return RegretResult(curve, per_node, eq10_worst, rounds, regret, eq10_nodes)


def uniform_guess_regret(
    model: HierarchicalLabelModel,
    X: Any,
    *,
    reps: int,
    seed: Seed,
    checkpoints: Sequence[int],
    costs: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Measure the strawman of Theorem 2: uniform guessing against the reference classifier (4).

    Each round every node is predicted 1 or 0 with probability 1/2, independently (no
    learning). As for H-RLS (:func:`theorem2_experiment`) the expected H-loss of each
    prediction is exact given :math:`\mathbf x_t`, and the eq. (10) term of node :math:`i` is
    :math:`C_i \sum_t P(\hat y_{i,t} \ne y_{i,t}, \mathcal K_{i,t})` with :math:`y` the
    reference prediction. Its regret grows linearly in :math:`T`, so a criterion it passes
    cannot tell a learner from guessing.

    Parameters
    ----------
    model : HierarchicalLabelModel
        The label model (Section 5).
    X : array_like
        ``(T, d)`` unit instances, the same sequence H-RLS ran on.
    reps : int
        Independent guessing sequences (one child generator of ``seed`` each).
    seed : int or numpy.random.Generator
        Root of the random guesses.
    checkpoints : sequence of int
        Horizons ``T`` at which the cumulative regret is returned.
    costs : array_like of shape (N,), optional
        Positive node costs :math:`c_i` of Remark 5: the regret and the eq. (10) terms (with
        :math:`C_i = \sum_{k \in \mathrm{SUB}(i)} c_k`) of the cost-weighted H-loss.

    Returns
    -------
    regret : numpy.ndarray
        ``(reps, n_checkpoints)`` cumulative regret.
    eq10_nodes : numpy.ndarray
        ``(reps, N)`` per-node eq. (10) terms over all ``T`` rounds.
    """
    reps = check_positive_int(reps, "reps")
    X = _dense_instances(model, X)
    cps = np.asarray(sorted(set(int(c) for c in checkpoints)), dtype=np.int64)
    if cps.size == 0 or cps[0] < 1 or cps[-1] > X.shape[0]:
        raise ValueError(f"checkpoints must lie in 1 … {X.shape[0]}; got {cps.tolist()}")
    G = model.taxonomy
    c = None if costs is None else _check_costs(costs, G.n_nodes)
    C = subtree_costs(G, c)
    ref = model.reference_predict(X)
    e_ref = model.expected_h_loss(X, ref, c)
    reach = expected_parent_positives(model, X)
    regret, nodes = [], []
    for g in spawn(seed, reps):
        guess = g.random(ref.shape) < 0.5
        per_round = model.expected_h_loss(X, guess, c) - e_ref
        regret.append(np.cumsum(per_round)[cps - 1])
        nodes.append(C * ((guess != ref) * reach).sum(axis=0))
    return np.stack(regret), np.stack(nodes)


# ---------------------------------------------------------------------------------------------
# Section 8: the Table 1 / Table 2 protocol


@dataclass(frozen=True)
class ProtocolResult:
    """Output of :func:`run_protocol`: one row per (algorithm, split).

    Attributes
    ----------
    runs : pandas.DataFrame
        Columns ``algorithm``, ``split``, the mean test losses (``zero-one``,
        ``uniform H-loss``, ``Δ-loss`` and the cost-weighted H-losses), the number of test
        documents, the stored instances (RLS) or updates (Perceptrons) summed over nodes and
        the training work of :func:`work_counts` (online learners; -1 and NaN for the SVMs).
    depth : pandas.DataFrame
        Long format: ``algorithm``, ``split``, ``depth``, ``kind`` (FP/FN), ``count`` (Table 2
        H-loss mistakes on the split's test set).
    name : str
        What it ran on (the corpus's name).
    """

    runs: pd.DataFrame
    depth: pd.DataFrame
    name: str


def _make(name: str, taxonomy: Taxonomy, params: dict[str, Any]):
    if name in ("SVM", "H-SVM"):
        from mlgeom.hierarchical.svm import FlatSVM, HierarchicalSVM

        cls = HierarchicalSVM if name == "H-SVM" else FlatSVM
        return cls(taxonomy, **params)
    from mlgeom.hierarchical.learners import make_learner

    return make_learner(name, taxonomy, **params)


def _protocol_item(args: tuple) -> list[dict[str, Any]]:
    name, split, taxonomy, Xtr, Vtr, Xte, Vte, params, cost_sets, truncate_flat = args
    model = _make(name, taxonomy, params)
    if name in ("SVM", "H-SVM"):
        model.fit(Xtr, Vtr)
        stored, work = -1, float("nan")
    else:
        model.partial_fit(Xtr, Vtr)  # one epoch (Section 8)
        stored = int(np.asarray(model.n_stored).sum())
        w = model.work
        work = w["predict"] + w["margin"] + w["insert"] + w["update"]
    Yhat = np.asarray(model.predict(Xte), dtype=bool)
    rows = [_score(name, split, taxonomy, Yhat, Vte, cost_sets, stored, work)]
    if truncate_flat and name in TRUNCATED:
        rows.append(_truncated_row(name, split, taxonomy, Yhat, Vte, cost_sets, stored, work))
    return rows


def _truncated_row(
    name: str,
    split: int,
    taxonomy: Taxonomy,
    Yhat: np.ndarray,
    Vte: Any,
    cost_sets: dict[str, np.ndarray],
    stored: int,
    work: float,
) -> dict[str, Any]:
    """Score the G-truncation of a flat prediction (Section 3) and count Lemma 1's violations."""
    Yt = taxonomy.truncate(Yhat)  # the same as predicting top-down with the flat weights (eq. 15)
    row = _score(TRUNCATED[name], split, taxonomy, Yt, Vte, cost_sets, stored, work)
    V = taxonomy.as_multilabels(Vte, "V")
    row[LEMMA1_COLUMN] = int(np.sum(h_loss(Yt, V, taxonomy) > h_loss(Yhat, V, taxonomy)))
    return row


def _score(
    name: str,
    split: int,
    taxonomy: Taxonomy,
    Yhat: np.ndarray,
    Vte: Any,
    cost_sets: dict[str, np.ndarray],
    stored: int,
    work: float,
) -> dict[str, Any]:
    V = taxonomy.as_multilabels(Vte, "V")
    row: dict[str, Any] = {
        "algorithm": name,
        "split": split,
        "zero-one": float(zero_one_loss(Yhat, V).mean()),
        "uniform H-loss": float(h_loss(Yhat, V, taxonomy).mean()),
        "Δ-loss": float(symmetric_difference_loss(Yhat, V).mean()),
        "n_test": int(V.shape[0]),
        "stored": stored,
        "work": work,
        "respects G": float(taxonomy.respects(Yhat).mean()),
    }
    for label, costs in cost_sets.items():
        row[label] = float(h_loss(Yhat, V, taxonomy, costs).mean())
    m = h_loss_mistakes(Yhat, V, taxonomy)
    nd = taxonomy.max_depth + 1
    fp = np.bincount(taxonomy.depth, weights=m.fp, minlength=nd)
    fn = np.bincount(taxonomy.depth, weights=m.fn, minlength=nd)
    row["_depth"] = (fp.astype(np.int64), fn.astype(np.int64))
    return row


def run_protocol(
    corpus: Any,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    algorithms: Sequence[str] = ALGORITHMS,
    params: dict[str, dict[str, Any]] | None = None,
    cost_sets: dict[str, np.ndarray] | None = None,
    n_jobs: int | None = None,
    truncate_flat: bool = False,
) -> ProtocolResult:
    """Run the Table 1 / Table 2 protocol of Section 8 on ``corpus`` over ``splits``.

    For each split ``(train, test)`` and algorithm: the online learners (PERC, H-PERC, S-RLS,
    SH-RLS; :mod:`mlgeom.hierarchical.learners`) make one pass over the training documents in
    the given order; the SVMs (:mod:`mlgeom.hierarchical.svm`, C = 1) are fit in batch. Then
    every learner predicts the test documents (hierarchical ones top-down, eq. 15) and the
    losses are computed. All (algorithm, split) pairs run through
    :func:`mlgeom.parallel.pmap`, slowest first.

    Parameters
    ----------
    corpus : HierarchicalCorpus
        ``X`` (CSR, unit rows), ``V`` (CSR 0/1), ``taxonomy``, ``name``.
    splits : sequence of (array, array)
        Row indices ``(train, test)``.
    algorithms : sequence of str, default=ALGORITHMS
        Which of the six to run.
    params : dict, optional
        Extra constructor parameters per algorithm name.
    cost_sets : dict of str to array, optional
        Extra H-loss cost vectors to score the same predictions with (Remark 5), e.g.
        ``{"sibling H-loss": sibling_costs(G)}``.
    n_jobs : int, optional
        Passed to :func:`mlgeom.parallel.pmap`.
    truncate_flat : bool, default=False
        Also score the G-truncation (Section 3) of each flat learner's test prediction, in
        rows named :data:`TRUNCATED` ``[name]`` (the same trained model: node i is kept only
        when its parent is predicted, as top-down evaluation, eq. 15, would). These rows carry
        :data:`LEMMA1_COLUMN`, the number of test documents whose H-loss the truncation
        increased (0 by Lemma 1, since the observed multilabels respect G); NaN elsewhere.
        Section 8's flat variants are "trained and evaluated independently of the others",
        read here as untruncated (the plain rows); the truncated rows are the variant that
        Lemma 1 recommends.

    Returns
    -------
    ProtocolResult
    """
    if not isinstance(truncate_flat, bool | np.bool_):
        raise ValueError(f"truncate_flat must be a bool; got {truncate_flat!r}")
    unknown = [a for a in algorithms if a not in ALGORITHMS]
    if unknown:
        raise ValueError(f"unknown algorithm(s) {unknown}; choose from {ALGORITHMS}")
    if not splits:
        raise ValueError("splits must not be empty")
    params = params or {}
    cost_sets = cost_sets or {}
    G = corpus.taxonomy
    slow_first = sorted(algorithms, key=lambda a: ["S-RLS", "SH-RLS", "H-SVM", "SVM"].index(a)
                        if a in ("S-RLS", "SH-RLS", "H-SVM", "SVM") else 9)  # fmt: skip
    items = []
    for alg in slow_first:
        for k, (tr, te) in enumerate(splits):
            tr, te = np.asarray(tr), np.asarray(te)
            items.append(
                (alg, k, G, corpus.X[tr], corpus.V[tr], corpus.X[te], corpus.V[te],
                 params.get(alg, {}), cost_sets, bool(truncate_flat))
            )  # fmt: skip
    per_item = pmap(_protocol_item, items, n_jobs=n_jobs, desc=f"Table 1 on {corpus.name}")
    rows = [row for item in per_item for row in item]
    return _result(rows, str(getattr(corpus, "name", "corpus")))


def _result(rows: list[dict[str, Any]], name: str) -> ProtocolResult:
    depth_rows = []
    for r in rows:
        fp, fn = r.pop("_depth")
        for dep in range(len(fp)):
            depth_rows.append(
                {"algorithm": r["algorithm"], "split": r["split"], "depth": dep,
                 "kind": "FP", "count": int(fp[dep])}
            )  # fmt: skip
            depth_rows.append(
                {"algorithm": r["algorithm"], "split": r["split"], "depth": dep,
                 "kind": "FN", "count": int(fn[dep])}
            )  # fmt: skip
    order = {a: k for k, a in enumerate((*ALGORITHMS, *TRUNCATED.values()))}
    runs = pd.DataFrame(rows).sort_values(["algorithm", "split"], key=lambda s: s.map(
        lambda v: order.get(v, v))).reset_index(drop=True)  # fmt: skip
    depth = pd.DataFrame(depth_rows)
    depth = depth.sort_values(["algorithm", "split", "depth", "kind"]).reset_index(drop=True)
    return ProtocolResult(runs, depth, name)


#: Name of the strawman that predicts no label at all (:func:`with_empty_prediction`).
EMPTY = "empty prediction"


def with_empty_prediction(
    result: ProtocolResult,
    corpus: Any,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    cost_sets: dict[str, np.ndarray] | None = None,
) -> ProtocolResult:
    """Add the strawman that predicts the empty multilabel on every test document.

    Scored like the six learners of :func:`run_protocol` on the same splits (rows named
    :data:`EMPTY`). Its uniform H-loss is the number of positive roots of a document: a
    learner whose H-loss is not below it has learnt nothing the H-loss rewards, and an
    ordering between two learners that it also satisfies does not discriminate.

    Parameters
    ----------
    result : ProtocolResult
        Output of :func:`run_protocol` on ``corpus`` and ``splits``.
    corpus : HierarchicalCorpus
        The corpus.
    splits : sequence of (array, array)
        The same ``(train, test)`` splits.
    cost_sets : dict of str to array, optional
        The same cost vectors as given to :func:`run_protocol`.
    """
    G = corpus.taxonomy
    rows = []
    for k, (_, te) in enumerate(splits):
        te = np.asarray(te)
        Yhat = np.zeros((te.size, G.n_nodes), dtype=bool)
        rows.append(_score(EMPTY, k, G, Yhat, corpus.V[te], cost_sets or {}, -1, float("nan")))
    extra = _result(rows, result.name)
    runs = pd.concat([result.runs, extra.runs], ignore_index=True)
    depth = pd.concat([result.depth, extra.depth], ignore_index=True)
    return ProtocolResult(runs, depth, result.name)


def _check_loss_column(result: ProtocolResult, value: Any, name: str) -> None:
    loss_cols = [c for c in result.runs.columns if c not in _NON_LOSS_COLUMNS]
    if not isinstance(value, str) or value not in loss_cols:
        raise ValueError(f"{name} must be one of {loss_cols}; got {value!r}")


def _check_dataset(dataset: Any) -> None:
    if dataset is not None and dataset not in PAPER_TABLE1:
        raise ValueError(f"dataset must be None, 'RCV1' or 'OHSUMED'; got {dataset!r}")


#: Columns of ProtocolResult.runs that are not losses.
_NON_LOSS_COLUMNS = ("algorithm", "split", "n_test", "stored", "work", "respects G", LEMMA1_COLUMN)


def split_losses(result: ProtocolResult, loss: str = "uniform H-loss") -> pd.DataFrame:
    """Per-split test losses, one column per algorithm (rows: splits), for paired tests."""
    _check_loss_column(result, loss, "loss")
    return result.runs.pivot(index="split", columns="algorithm", values=loss)


def table1(result: ProtocolResult, dataset: str | None = None) -> pd.DataFrame:
    """Table 1 from a :class:`ProtocolResult`: mean and std over splits, paper's values beside.

    Parameters
    ----------
    result : ProtocolResult
        Output of :func:`run_protocol`.
    dataset : {"RCV1", "OHSUMED"}, optional
        Add the paper's mean and std for this dataset in columns ``(loss, "paper")`` and
        ``(loss, "paper std")``.
    """
    _check_dataset(dataset)
    g = result.runs.groupby("algorithm", sort=False)
    present = list(dict.fromkeys(result.runs["algorithm"]))
    algs = [a for a in ALGORITHMS if a in present] + [a for a in present if a not in ALGORITHMS]
    cols = {}
    for loss in LOSSES:
        cols[(loss, "mean")] = g[loss].mean()
        cols[(loss, "std")] = g[loss].std(ddof=1) if g.size().min() > 1 else np.nan
        if dataset is not None:
            paper = PAPER_TABLE1[dataset]
            cols[(loss, "paper")] = paper[(loss, "mean")]
            cols[(loss, "paper std")] = paper[(loss, "std")]
    df = pd.DataFrame(cols).loc[algs]
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    df.index.name = "algorithm"
    return df


#: Test-set sizes behind the paper's Table 2 counts (Section 8).
PAPER_TEST_SIZE: dict[str, int] = {"RCV1": 20_000, "OHSUMED": 15_503}


def table2(
    result: ProtocolResult,
    dataset: str | None = None,
    *,
    per_docs: int | None = None,
    algorithms: Sequence[str] = HIERARCHICAL,
) -> pd.DataFrame:
    """Table 2 from a :class:`ProtocolResult`: mean (std) FP/FN H-loss mistakes per depth.

    Rows ``(depth, kind)`` with FP before FN; columns ``(algorithm, "mean" | "std")`` for the
    hierarchical learners over the splits, and ``(algorithm, "paper")`` with the paper's means
    when ``dataset`` is given.

    Parameters
    ----------
    result : ProtocolResult
        Output of :func:`run_protocol`.
    dataset : {"RCV1", "OHSUMED"}, optional
        Add the paper's means.
    per_docs : int, optional
        Report counts per ``per_docs`` test documents instead of per test set (ours divided by
        each split's test size, the paper's by :data:`PAPER_TEST_SIZE`), so that test sets of
        different sizes compare.
    algorithms : sequence of str, default=HIERARCHICAL
        The columns (e.g. add :data:`EMPTY` for the strawman's profile).
    """
    _check_dataset(dataset)
    if per_docs is not None:
        per_docs = check_positive_int(per_docs, "per_docs")
    d = result.depth[result.depth["algorithm"].isin(algorithms)].copy()
    if per_docs is not None:
        size = result.runs.set_index(["algorithm", "split"])["n_test"]
        n = np.array([size[(a, k)] for a, k in zip(d["algorithm"], d["split"], strict=True)])
        d["count"] = d["count"] * per_docs / n
    g = d.groupby(["depth", "kind", "algorithm"])["count"]
    stats = pd.DataFrame({"mean": g.mean(), "std": g.std(ddof=1)}).unstack("algorithm")
    stats = stats.swaplevel(0, 1, axis=1)
    algs = [a for a in algorithms if a in set(d["algorithm"])]
    out = stats[[(a, c) for a in algs for c in ("mean", "std")]].copy()
    if dataset is not None:
        p = PAPER_TABLE2[dataset].set_index(["depth", "kind", "algorithm"])["mean"]
        scale = 1.0 if per_docs is None else per_docs / PAPER_TEST_SIZE[dataset]
        for a in algs:
            out[(a, "paper")] = [p.get((dep, kind, a), np.nan) * scale for dep, kind in out.index]
        out = out[[(a, c) for a in algs for c in ("mean", "std", "paper")]]
    depths = sorted(set(out.index.get_level_values(0)))
    out = out.reindex(pd.MultiIndex.from_product([depths, ["FP", "FN"]], names=["depth", "kind"]))
    return out


def profile_distance(t2: pd.DataFrame, a: str, b: str, column: str = "mean") -> float:
    """Total-variation distance between two algorithms' FP/FN mistake profiles over depths.

    Each profile is the vector of Table 2 counts over ``(depth, kind)`` rows, normalised to sum
    to one; the distance is half the L1 distance (0: same shape, 1: disjoint). Quantifies
    Section 8's "close similarity between the distributions obtained by SH-RLS and H-SVM,
    whereas the behavior of H-PERC looks quite different" (Figure 4).

    Parameters
    ----------
    t2 : pandas.DataFrame
        Output of :func:`table2` (or the same layout).
    a, b : str
        Algorithm names (top column level).
    column : str, default="mean"
        ``"mean"`` for ours, ``"paper"`` for the paper's numbers.
    """
    algs = list(dict.fromkeys(t2.columns.get_level_values(0)))
    cols = list(dict.fromkeys(t2.columns.get_level_values(1)))
    for name, value, options in (("a", a, algs), ("b", b, algs), ("column", column, cols)):
        if not isinstance(value, str) or value not in options:
            raise ValueError(f"{name} must be one of {options}; got {value!r}")
    pa = np.nan_to_num(t2[(a, column)].to_numpy(dtype=float))
    pb = np.nan_to_num(t2[(b, column)].to_numpy(dtype=float))
    if pa.sum() <= 0 or pb.sum() <= 0:
        raise ValueError(f"no mistakes to compare for {a!r} or {b!r}")
    return float(0.5 * np.abs(pa / pa.sum() - pb / pb.sum()).sum())


def plot_figure4(axes: Any, t2: pd.DataFrame, *, paper: bool = True) -> None:
    """Figure 4: mean FP and FN H-loss mistakes per depth, one panel per algorithm.

    Bars are ours (FP and FN side by side, ± one std over splits); the paper's values (if the
    table has a ``paper`` column) are drawn as markers.
    """
    from mlgeom.book.plotting import COLORS

    algs = [a for a in HIERARCHICAL if (a, "mean") in t2.columns]
    depths = sorted(set(t2.index.get_level_values("depth")))
    x = np.arange(len(depths))
    for ax, a in zip(np.atleast_1d(axes), algs, strict=False):
        for k, (kind, colour) in enumerate(
            (("FP", COLORS["positive"]), ("FN", COLORS["negative"]))
        ):
            rows = [(dep, kind) for dep in depths]
            m = t2.loc[rows, (a, "mean")].to_numpy(dtype=float)
            sd = np.nan_to_num(t2.loc[rows, (a, "std")].to_numpy(dtype=float))
            ax.bar(x + (k - 0.5) * 0.38, m, 0.38, yerr=sd, color=colour, label=f"{kind} (ours)")
            if paper and (a, "paper") in t2.columns:
                pv = t2.loc[rows, (a, "paper")].to_numpy(dtype=float)
                ax.plot(x + (k - 0.5) * 0.38, pv, "D", color=COLORS["paper"], ms=4,
                        label="paper (FP, FN)" if k == 0 else None)  # fmt: skip
        ax.set_xticks(x, [str(d) for d in depths])
        ax.set_xlabel("depth")
        ax.set_title(a)
    np.atleast_1d(axes)[0].legend()


def cost_ranking(result: ProtocolResult, columns: Sequence[str]) -> pd.DataFrame:
    """Mean of each H-loss column per algorithm, and each algorithm's rank under it (1 = best)."""
    g = result.runs.groupby("algorithm")[list(columns)].mean()
    algs = [a for a in ALGORITHMS if a in g.index]
    g = g.loc[algs]
    ranks = g.rank(method="min").astype(int).add_suffix(" rank")
    return pd.concat([g, ranks], axis=1)


# ---------------------------------------------------------------------------------------------
# Deterministic cost (running time, Section 8)


def work_counts(name: str, taxonomy: Taxonomy, X: Any, V: Any, **params: Any) -> dict[str, float]:
    r"""Deterministic work of one training epoch of an online learner (no clock involved).

    Reads the learner's counters (:attr:`mlgeom.hierarchical.learners.HRLS.work`) after one
    epoch of :meth:`partial_fit`: for RLS learners ``predict`` is
    :math:`\sum (N_i\,\mathrm{nnz}(\mathbf x_t) + N_i)` over node evaluations, ``margin`` and
    ``insert`` are :math:`\sum N_i^2` over exact margin magnitudes (SH-RLS's test) and
    insertions, with :math:`N_i` the instances stored at the node before the step; for
    Perceptrons ``predict`` is :math:`\sum \mathrm{nnz}(\mathbf x_t)` over node evaluations
    and ``update`` the same over updates. ``total`` is their sum, ``stored`` the instances
    stored (RLS) or updates (Perceptron) summed over nodes, ``n`` the examples.
    """
    from mlgeom.hierarchical.learners import make_learner

    learner = make_learner(name, taxonomy, **params)
    learner.partial_fit(X, V)
    w = learner.work
    total = w["predict"] + w["margin"] + w["insert"] + w["update"]
    return {"n": int(w["examples"]), **{k: w[k] for k in ("predict", "margin", "insert",
            "update", "stored")}, "total": total}  # fmt: skip


def _work_item(args: tuple) -> dict[str, Any]:
    name, taxonomy, X, V, n = args
    return {"algorithm": name, **work_counts(name, taxonomy, X[:n], V[:n])}


def cost_table(
    taxonomy: Taxonomy,
    X: Any,
    V: Any,
    sizes: Sequence[int],
    *,
    algorithms: Sequence[str] = ("PERC", "H-PERC", "S-RLS", "SH-RLS"),
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """:func:`work_counts` for each algorithm on the first ``n`` examples, ``n`` in ``sizes``.

    Returns a long table (``algorithm``, ``n``, counters), run through
    :func:`mlgeom.parallel.pmap`. Used for the hierarchical/flat cost ratios and the growth of
    the RLS cost with the number of stored instances (Section 8).
    """
    sizes = check_int_vector(sizes, "sizes", minimum=1)
    X = sp.csr_matrix(X)
    items = [(a, taxonomy, X, V, int(n)) for a in algorithms for n in sizes]
    rows = pmap(_work_item, items, n_jobs=n_jobs, desc="work counts")
    return pd.DataFrame(rows)


def record_table1_orderings(
    record: C.ClaimsRecord,
    prefix: str,
    per: pd.DataFrame,
    scale: str,
    *,
    others: Sequence[str] = ("S-RLS", "H-PERC", "PERC", "SVM"),
    interval: Any = None,
) -> None:
    """Measure the orderings the paper draws from Table 1 on per-split uniform H-losses (Section 8).

    H-SVM below the best of the other five (by mean); SH-RLS below S-RLS, H-PERC, PERC and the
    flat SVM; SH-RLS "reasonably close" to H-SVM (per-split ratio,
    :func:`mlgeom.stats.mean_interval`). Differences are judged split by split (paired t
    intervals, :func:`mlgeom.stats.paired_interval`), and each is also measured with the
    strawman :data:`EMPTY` in place of the first learner: an ordering that predicting nothing
    also satisfies does not discriminate. Ids are ``<prefix>.hsvm-best``,
    ``<prefix>.shrls-below-<other>`` and ``<prefix>.shrls-close-to-hsvm``, in that order.

    Parameters
    ----------
    record : mlgeom.book.claims.ClaimsRecord
        Where the claims go (preregistered in its registry).
    prefix : str
        The claims' id prefix, e.g. ``"hier.t1.synthetic"``.
    per : pandas.DataFrame
        One row per split, one column per algorithm of :data:`ALGORITHMS` and :data:`EMPTY`
        (uniform H-loss).
    scale : str
        The corpus size and splits, stored with every result.
    others : sequence of str, default=("S-RLS", "H-PERC", "PERC", "SVM")
        The learners SH-RLS is compared with, in this order (a subset of them where a
        comparison is measured elsewhere, e.g. the facet benchmark's SH-RLS − S-RLS pair).
    interval : callable, optional
        ``interval(a, b)`` → :class:`mlgeom.stats.Interval` of the mean of ``a - b`` (``b=None``:
        of ``a``), for replicates that share data (e.g. a corrected resampled t interval);
        default paired / plain t intervals over independent splits.
    """
    from mlgeom.stats import mean_interval, paired_interval

    if interval is None:

        def interval(a: Any, b: Any = None) -> Any:
            return mean_interval(a) if b is None else paired_interval(a, b)

    elif not callable(interval):
        raise TypeError(f"interval must be callable or None; got {type(interval).__name__}")

    allowed = ("S-RLS", "H-PERC", "PERC", "SVM")
    if isinstance(others, str) or any(o not in allowed for o in others):
        raise ValueError(f"others must be a sequence of learners from {allowed}; got {others!r}")
    if not isinstance(prefix, str) or not prefix:
        raise ValueError(f"prefix must be a non-empty string; got {prefix!r}")
    if not isinstance(per, pd.DataFrame):
        raise TypeError(f"per must be a pandas DataFrame; got {type(per).__name__} {per!r:.60}")
    missing = [a for a in (*ALGORITHMS, EMPTY) if a not in per.columns]
    if missing:
        raise ValueError(f"per must have a column for each of {missing}; got {list(per.columns)}")
    n = len(per)
    if n < 2:
        raise ValueError(f"per must hold at least 2 splits for a paired interval; got {n}")
    if not (per["H-SVM"] > 0).all():
        raise ValueError(
            "per['H-SVM'] must be positive on every split (SH-RLS / H-SVM is a ratio); got "
            f"{per['H-SVM'].tolist()}"
        )
    means = per[list(ALGORITHMS)].mean()
    best_other = str(means.drop("H-SVM").idxmin())

    def measure(cid: str, iv: Any, biv: Any, note: str | None = None) -> None:
        record.measure(
            cid,
            iv.estimate,
            interval=iv,
            seeds=n,
            scale=scale,
            baseline=biv.estimate,
            baseline_interval=biv,
            note=note,
        )

    def paired(a: str, b: str, cid: str) -> None:
        iv = interval(per[a], per[b])
        biv = interval(per[EMPTY], per[b])
        note = (
            None
            if iv.high < 0
            else f"{a} {means[a]:.3f} vs {b} {means[b]:.3f} (paired interval "
            f"[{iv.low:.3f}, {iv.high:.3f}] over {n} splits)"
        )
        measure(cid, iv, biv, note)

    paired("H-SVM", best_other, f"{prefix}.hsvm-best")
    for other in others:
        paired("SH-RLS", other, f"{prefix}.shrls-below-{other.lower()}")
    ratio = interval(per["SH-RLS"] / per["H-SVM"])
    note = (
        None
        if ratio.high <= 1.1
        else f"SH-RLS {means['SH-RLS']:.3f} vs H-SVM {means['H-SVM']:.3f}: the per-split ratio "
        f"[{ratio.low:.3f}, {ratio.high:.3f}] over {n} splits reaches above 1.10"
    )
    measure(f"{prefix}.shrls-close-to-hsvm", ratio, interval(per[EMPTY] / per["H-SVM"]), note)


#: The corpus statistics Section 8 prints, by claim suffix (``hier.data.<key>.<suffix>``).
CORPUS_STATISTICS = ("n-docs", "classes", "roots", "depth", "depth-distribution", "paths-per-doc")


def corpus_statistics(corpus: HierarchicalCorpus) -> dict[str, Any]:
    """Section 8's description of a corpus, measured on it.

    ``n-docs`` documents; ``classes`` nodes of its taxonomy; ``roots`` trees; ``depth`` the
    longest path (roots at depth 0, so the paper's "longest path has length 3" is depth 3);
    ``depth-distribution`` the fractions of the nodes at each depth as the paper prints them
    (two decimals, comma-separated); ``paths-per-doc`` the mean number of paths of a
    multilabel (:func:`~mlgeom.hierarchical.corpus.paths_per_document`).

    Parameters
    ----------
    corpus : HierarchicalCorpus
        The corpus a loader returned.

    Returns
    -------
    dict
        One value per name of :data:`CORPUS_STATISTICS`.
    """
    if not isinstance(corpus, HierarchicalCorpus):
        got = f"{type(corpus).__name__} {corpus!r:.60}"
        raise TypeError(f"corpus must be a HierarchicalCorpus; got {got}")
    G = corpus.taxonomy
    stats = label_statistics(corpus.V, G)
    return {
        "n-docs": int(corpus.n_docs),
        "classes": int(G.n_nodes),
        "roots": int(G.roots.size),
        "depth": int(G.max_depth),
        "depth-distribution": ", ".join(f"{f:.2f}" for f in stats["depth_distribution"]),
        "paths-per-doc": stats["paths_per_doc"]["mean"],
    }


def record_corpus_claims(
    record: C.ClaimsRecord, key: str, corpus: HierarchicalCorpus
) -> dict[str, Any]:
    """Measure the claims ``hier.data.<key>.*``: Section 8's corpus statistics on ``corpus``.

    Every statistic of :func:`corpus_statistics` whose id the record's registry holds is
    measured; the others are returned only.

    Parameters
    ----------
    record : mlgeom.book.claims.ClaimsRecord
        Where the claims go.
    key : str
        The corpus key of the ids, ``"rcv1"`` or ``"ohsumed"``.
    corpus : HierarchicalCorpus
        The corpus the profile loaded.

    Returns
    -------
    dict
        The statistics (:func:`corpus_statistics`).
    """
    key = check_in(key, "key", ("rcv1", "ohsumed"))
    stats = corpus_statistics(corpus)
    for name, value in stats.items():
        cid = f"hier.data.{key}.{name}"
        if cid in record.registry.entries:
            record.measure(cid, value)
    return stats
