r"""Losses between multilabels on a taxonomy (Section 3, Remark 5 and Table 2).

Cesa-Bianchi, Gentile & Zaniboni (2006) compare a predicted multilabel
:math:`\hat{\mathbf y} \in \{0,1\}^N` with the true one :math:`\mathbf v` by

* the zero-one loss
  :math:`\ell_{0/1}(\hat{\mathbf y}, \mathbf v) = \{\exists i: \hat y_i \ne v_i\}`;
* the symmetric difference loss
  :math:`\ell_\Delta(\hat{\mathbf y}, \mathbf v) = \sum_i \{\hat y_i \ne v_i\}`;
* the H-loss (hierarchical loss) with node costs :math:`c_i > 0` (Section 3, Remark 5)

  .. math::

     \ell_H(\hat{\mathbf y}, \mathbf v) = \sum_{i=1}^N c_i\,
     \{\hat y_i \ne v_i \wedge \hat y_j = v_j,\ j \in \mathrm{ANC}(i)\},

  the *uniform* H-loss when every :math:`c_i = 1`; then
  :math:`\ell_{0/1} \le \ell_H \le \ell_\Delta`.

Table 2 counts "H-loss mistakes" by depth with a slightly different definition, printed after
Table 1: node :math:`i` makes an H-loss mistake when
:math:`\hat y_i \ne v_i \wedge \hat y_j = v_j = 1,\ j \in \mathrm{ANC}(i)` (false positive when
:math:`\hat y_i = 1`, false negative when :math:`\hat y_i = 0`). When both multilabels respect
the taxonomy the two definitions count the same nodes (an ancestor with
:math:`\hat y_j = v_j = 0` forces :math:`\hat y_i = v_i = 0`); :func:`h_loss_mistakes`
implements the Table 2 definition as printed.

Every function takes batches: ``(n, N)`` 0/1 matrices, dense (numpy) or sparse (scipy), a 1-D
vector being one example, and returns per-example ``float`` arrays of shape ``(n,)`` (callers
take the mean), except the mistake counts, which are summed over the batch.

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from mlgeom._validation import check_multilabels, check_not_complex, check_real
from mlgeom.hierarchical.taxonomy import Taxonomy, check_taxonomy

__all__ = [
    "HMistakes",
    "ancestors_agree",
    "depth_costs",
    "h_loss",
    "h_loss_mistakes",
    "h_loss_nodes",
    "per_depth_mistakes",
    "sibling_costs",
    "symmetric_difference_loss",
    "zero_one_loss",
]


class HMistakes(NamedTuple):
    r"""Per-node H-loss mistake counts of Table 2, summed over a batch.

    Attributes
    ----------
    fp : numpy.ndarray
        ``(N,)`` int64, false positives: :math:`\hat y_i = 1, v_i = 0` with every ancestor
        predicted and labelled 1.
    fn : numpy.ndarray
        ``(N,)`` int64, false negatives: :math:`\hat y_i = 0, v_i = 1`, same condition.
    """

    fp: np.ndarray
    fn: np.ndarray


# ------------------------------------------------------------------------------- validation
def _pair(Yhat: Any, V: Any, taxonomy: Taxonomy | None) -> tuple[np.ndarray, np.ndarray]:
    n_cols = None if taxonomy is None else taxonomy.n_nodes
    yh = check_multilabels(Yhat, "Yhat", n_cols=n_cols)
    v = check_multilabels(V, "V", n_cols=yh.shape[1])
    if yh.shape != v.shape:
        raise ValueError(f"Yhat and V must have the same shape; got {yh.shape} and {v.shape}")
    return yh, v


def _check_costs(costs: Any, n_nodes: int) -> np.ndarray:
    if costs is None:
        return np.ones(n_nodes)
    check_not_complex(costs, "costs")
    try:
        c = np.asarray(costs, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"costs must be numeric, one per node; got {costs!r:.60}") from exc
    if c.shape != (n_nodes,):
        raise ValueError(f"costs must have shape ({n_nodes},), one per node; got {c.shape}")
    bad = ~np.isfinite(c) | (c <= 0)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"costs must be finite and > 0 (Remark 5); got {c[i]} at node {i}")
    return c


# ------------------------------------------------------------------------------- the losses
def zero_one_loss(Yhat: Any, V: Any) -> np.ndarray:
    r"""Zero-one loss :math:`\{\exists i: \hat y_i \ne v_i\}` per example (Section 3).

    Parameters
    ----------
    Yhat, V : array_like or scipy.sparse matrix
        ``(n, N)`` 0/1 predicted and true multilabels (a 1-D vector is one example).

    Returns
    -------
    numpy.ndarray
        ``(n,)`` float, 0 or 1.

    Examples
    --------
    >>> zero_one_loss([[1, 0, 1], [1, 1, 0]], [[1, 0, 1], [0, 0, 0]]).tolist()
    [0.0, 1.0]
    """
    yh, v = _pair(Yhat, V, None)
    return np.any(yh != v, axis=1).astype(float)


def symmetric_difference_loss(Yhat: Any, V: Any) -> np.ndarray:
    r"""Symmetric difference (Δ-) loss :math:`\sum_i \{\hat y_i \ne v_i\}` per example (Section 3).

    Parameters
    ----------
    Yhat, V : array_like or scipy.sparse matrix
        ``(n, N)`` 0/1 predicted and true multilabels.

    Returns
    -------
    numpy.ndarray
        ``(n,)`` float, the number of nodes where they differ.

    Examples
    --------
    >>> symmetric_difference_loss([[1, 0, 1], [1, 1, 0]], [[1, 0, 1], [0, 0, 0]]).tolist()
    [0.0, 2.0]
    """
    yh, v = _pair(Yhat, V, None)
    return np.count_nonzero(yh != v, axis=1).astype(float)


def ancestors_agree(Yhat: Any, V: Any, taxonomy: Taxonomy) -> np.ndarray:
    r"""``(n, N)`` bool: :math:`\hat y_j = v_j` for every :math:`j \in \mathrm{ANC}(i)`.

    True at the roots (no ancestors). Computed top-down in one pass over
    :attr:`Taxonomy.order`.
    """
    check_taxonomy(taxonomy)
    yh, v = _pair(Yhat, V, taxonomy)
    return _agree(yh == v, taxonomy)


def _agree(same: np.ndarray, taxonomy: Taxonomy) -> np.ndarray:
    """Top-down AND of ``same`` over the strict ancestors of every node."""
    out = np.ones_like(same, dtype=bool)
    par = taxonomy.parent
    for i in taxonomy.order:
        p = par[i]
        if p >= 0:
            out[:, i] = out[:, p] & same[:, p]
    return out


def h_loss_nodes(Yhat: Any, V: Any, taxonomy: Taxonomy) -> np.ndarray:
    r"""``(n, N)`` bool: node ``i`` is charged by the H-loss on each example (Section 3).

    Node :math:`i` is charged iff :math:`\hat y_i \ne v_i` and :math:`\hat y_j = v_j` for every
    :math:`j \in \mathrm{ANC}(i)`: the first disagreement on every root-to-leaf path.
    """
    check_taxonomy(taxonomy)
    yh, v = _pair(Yhat, V, taxonomy)
    diff = yh != v
    return diff & _agree(~diff, taxonomy)


def h_loss(Yhat: Any, V: Any, taxonomy: Taxonomy, costs: Any = None) -> np.ndarray:
    r"""H-loss per example, with node costs (Section 3; Remark 5).

    .. math::

       \ell_H(\hat{\mathbf y}, \mathbf v) = \sum_{i=1}^N c_i\,
       \{\hat y_i \ne v_i \wedge \hat y_j = v_j,\ j \in \mathrm{ANC}(i)\}

    Parameters
    ----------
    Yhat, V : array_like or scipy.sparse matrix
        ``(n, N)`` 0/1 predicted and true multilabels; neither needs to respect the taxonomy.
    taxonomy : Taxonomy
        The forest G.
    costs : array_like of shape (N,), optional
        Positive cost coefficients :math:`c_i` (Remark 5); default 1 (the uniform H-loss).

    Returns
    -------
    numpy.ndarray
        ``(n,)`` float.

    Examples
    --------
    A root with two children; the prediction misses the root, so the children's mistakes are
    not charged:

    >>> G = Taxonomy([-1, 0, 0])
    >>> h_loss([[0, 0, 0], [1, 1, 0]], [[1, 1, 1], [1, 0, 1]], G).tolist()
    [1.0, 2.0]
    """
    check_taxonomy(taxonomy)
    c = _check_costs(costs, taxonomy.n_nodes)
    return h_loss_nodes(Yhat, V, taxonomy) @ c


def h_loss_mistakes(Yhat: Any, V: Any, taxonomy: Taxonomy) -> HMistakes:
    r"""Per-node false-positive and false-negative H-loss mistakes (Table 2), summed over a batch.

    Node :math:`i` makes an H-loss mistake on :math:`(\mathbf x, \mathbf v)` if
    :math:`\hat y_i \ne v_i \wedge \hat y_j = v_j = 1,\ j \in \mathrm{ANC}(i)` (the definition
    printed after Table 1); a false positive when :math:`\hat y_i = 1`, a false negative when
    :math:`\hat y_i = 0`. For multilabels that respect G, ``fp + fn`` summed over nodes equals
    the uniform H-loss summed over the batch.

    Returns
    -------
    HMistakes
        ``fp`` and ``fn``, each ``(N,)`` int64.
    """
    check_taxonomy(taxonomy)
    yh, v = _pair(Yhat, V, taxonomy)
    ok = _agree(yh & v, taxonomy)  # every ancestor j has ŷ_j = v_j = 1
    fp = (yh & ~v & ok).sum(axis=0).astype(np.int64)
    fn = (~yh & v & ok).sum(axis=0).astype(np.int64)
    return HMistakes(fp, fn)


def per_depth_mistakes(Yhat: Any, V: Any, taxonomy: Taxonomy) -> dict[str, np.ndarray]:
    """Table 2's FP/FN H-loss mistakes summed by depth (roots at depth 0).

    Returns
    -------
    dict
        ``{"FP": (max_depth + 1,) int64, "FN": (max_depth + 1,) int64}``.
    """
    check_taxonomy(taxonomy)
    m = h_loss_mistakes(Yhat, V, taxonomy)
    nd = taxonomy.max_depth + 1
    depth = taxonomy.depth
    return {
        "FP": np.bincount(depth, weights=m.fp, minlength=nd).astype(np.int64),
        "FN": np.bincount(depth, weights=m.fn, minlength=nd).astype(np.int64),
    }


# ------------------------------------------------------------------------------- cost helpers
def sibling_costs(taxonomy: Taxonomy, *, recursive: bool = False) -> np.ndarray:
    r"""Sibling-normalised node costs for the H-loss of Remark 5.

    The paper leaves the costs :math:`c_i` free (Remark 5); the spec's "going beyond" asks for
    :math:`c_i = 1/|\mathrm{SIBL}(i)|`, the siblings counted including :math:`i` itself (the
    roots are siblings of one another). With ``recursive=True`` the cost is also divided among
    the ancestors' siblings, :math:`c_i = c_{\mathrm{PAR}(i)}/|\mathrm{SIBL}(i)|` with
    :math:`c_r = 1/|\mathrm{ROOT}(G)|` (the form used in the authors' later work, where the
    costs of every level of a complete tree sum to one).

    Returns
    -------
    numpy.ndarray
        ``(N,)`` float, positive.

    Examples
    --------
    >>> sibling_costs(Taxonomy([-1, -1, 0, 0, 0])).tolist()
    [0.5, 0.5, 0.3333333333333333, 0.3333333333333333, 0.3333333333333333]
    """
    check_taxonomy(taxonomy)
    par = taxonomy.parent
    n_roots = len(taxonomy.roots)
    c = np.empty(taxonomy.n_nodes)
    for i in taxonomy.order:
        p = int(par[i])
        n_sib = n_roots if p < 0 else len(taxonomy.children(p))
        base = c[p] if (recursive and p >= 0) else 1.0
        c[i] = base / n_sib
    return c


def depth_costs(taxonomy: Taxonomy, decay: float) -> np.ndarray:
    r"""Depth-decaying node costs :math:`c_i = \text{decay}^{\,\mathrm{depth}(i)}` (Remark 5).

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest (roots at depth 0, cost 1).
    decay : float
        In ``(0, 1]``; 1 gives the uniform H-loss.

    Examples
    --------
    >>> depth_costs(Taxonomy([-1, 0, 1]), 0.5).tolist()
    [1.0, 0.5, 0.25]
    """
    check_taxonomy(taxonomy)
    d = check_real(decay, "decay", low=0.0, high=1.0, low_inclusive=False)
    return d ** taxonomy.depth.astype(float)
