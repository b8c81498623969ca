r"""Online hierarchical learners: H-RLS, SH-RLS, S-RLS, H-PERC and PERC (Sections 4, 6, 8).

Cesa-Bianchi, Gentile & Zaniboni (2006) learn one linear-threshold classifier
:math:`\{\mathbf w_i^\top \mathbf x \ge 0\}` per node of a taxonomy :math:`G` and evaluate them
top-down (Figure 3, eq. 15): a root is labelled by its classifier, a child only when its parent
was labelled 1, and every descendant of a node labelled 0 is 0. All learners here follow one
online protocol (predict the multilabel of :math:`\mathbf x_t`, then observe
:math:`\mathbf v_t` and update):

============  ==============  ===================================================================
name          class           update rule
============  ==============  ===================================================================
``H-RLS``     :class:`HRLS`   Figure 3 / eq. (1): node :math:`i` stores every instance with
                              :math:`i \in \mathrm{ROOT}(G)` or :math:`v_{\mathrm{PAR}(i),t}=1`
``SH-RLS``    :class:`SHRLS`  Section 8: as H-RLS, but stores only when
                              :math:`|\mathbf w_{i,t}^\top\mathbf x_t| \le
                              \sqrt{5\ln t / N_{i,t}}`
``S-RLS``     :class:`SRLS`   flat SH-RLS: every node sees every example, evaluated independently
``H-PERC``    :class:`HPerceptron`  Section 8: Perceptron at each node, hierarchical updates
``PERC``      :class:`Perceptron`   flat Perceptron
============  ==============  ===================================================================

Regularized least squares in the dual
-------------------------------------
Eq. (1) defines, with :math:`S_i = [\mathbf x_{i_1} \dots \mathbf x_{i_Q}]` the node's stored
instances and :math:`\mathbf y_i \in \{-1,+1\}^Q` their labels (the analysis of Section 7 uses
:math:`\mathbb E[V_{i,s}] = \mathbf u_i^\top\mathbf x_s`, i.e. labels :math:`\pm 1`),

.. math::

   \mathbf w_{i,t} = (I + S_i S_i^\top + \mathbf x_t\mathbf x_t^\top)^{-1} S_i\mathbf y_i .

With :math:`A = I + S_iS_i^\top`, Sherman–Morrison and the push-through identity
:math:`A^{-1}S_i = S_i(I + S_i^\top S_i)^{-1}` give, for :math:`\mathbf k = S_i^\top\mathbf x_t`,
:math:`M = (I + S_i^\top S_i)^{-1}` and :math:`\boldsymbol\alpha = M\mathbf y_i`,

.. math::

   \mathbf w_{i,t}^\top\mathbf x_t = \frac{m}{1 + q},\qquad
   m = \mathbf k^\top\boldsymbol\alpha,\qquad
   q = \mathbf x_t^\top A^{-1}\mathbf x_t = \|\mathbf x_t\|^2 - \mathbf k^\top M\mathbf k
   \in [0, \|\mathbf x_t\|^2]

(the paper's :math:`r_{i,t}` of Section 7 is :math:`q/(1+q)`). The *sign*, all that
prediction needs, costs :math:`O(N_i)` once :math:`\mathbf k` is known; the magnitude (SH-RLS's
test) costs :math:`O(N_i^2)`. Storing :math:`\mathbf x_t` with label :math:`v` grows the inverse
by the block (Schur complement) formula with Schur complement :math:`s = 1 + q`:

.. math::

   \boldsymbol\alpha \leftarrow \begin{pmatrix}\boldsymbol\alpha + \mathbf b\,(m - v)/s\\
   (v - m)/s\end{pmatrix},\qquad \mathbf b = M\mathbf k .

The inverse :math:`M` is kept in factored form :math:`M = R^\top R` with :math:`R = L^{-1}` the
inverse of the Cholesky factor of :math:`I + S_i^\top S_i` (lower triangular, packed by rows).
Growing it appends one row, :math:`(-\mathbf b^\top/\sqrt s,\ 1/\sqrt s)` with
:math:`\mathbf l = R\mathbf k`, :math:`\mathbf b = R^\top\mathbf l`,
:math:`q = \|\mathbf x_t\|^2 - \|\mathbf l\|^2`: an insertion reads the :math:`N_i(N_i+1)/2`
numbers of :math:`R` once (row :math:`r` gives :math:`l_r`, and adds :math:`l_r R_{r,:}` to
:math:`\mathbf b` while it is in cache) and writes only :math:`O(N_i)` (a rank-one update of
:math:`M` itself would rewrite all :math:`N_i^2` entries). No :math:`d\times d` matrix is ever
formed and documents stay sparse.

The nodes store overlapping subsets of the same documents, so every stored document is kept
once, in an inverted index (feature → stored documents), and
:math:`\mathbf g = D\mathbf x_t` over all stored documents :math:`D` is computed once per round
in :math:`O(\sum_{j \in \mathbf x_t} |\text{column } j|)`; each node's
:math:`\mathbf k = S_i^\top\mathbf x_t` is then a gather of :math:`\mathbf g`. The whole
epoch runs in one compiled (numba) loop; buffers grow geometrically (×1.5). Dot products use
eight accumulators in a fixed order and no fast-math, so results do not depend on the CPU's
vector width.

SH-RLS needs :math:`|\mathbf w^\top\mathbf x| = |m|/(1+q)` only near the threshold
:math:`\theta`: since :math:`q \in [\max(0, \|\mathbf x\|^2 - \|\mathbf k\|^2),\ \|\mathbf x\|^2]`
the test is decided in :math:`O(N_i)` unless :math:`\theta` falls between the two bounds. Then
:math:`\mathbf l = R\mathbf k` is computed row by row: its first :math:`j` entries involve only
the first :math:`j` stored instances and :math:`\sum_{r<j} l_r^2` only grows, so
:math:`|m|/(1 + \|\mathbf x\|^2 - \sum_{r<j} l_r^2)` is a lower bound on the margin that rises
to it; the sweep stops as soon as it exceeds :math:`\theta` (not stored). Sums of non-negative
floating-point terms are monotone, so every decision is exactly the one of the full computation;
a sweep that does not stop is reused by the insertion.

Decisions on points the paper leaves open
-----------------------------------------
* **Threshold.** :math:`\hat y_i = \{\mathbf w_i^\top\mathbf x \ge 0\}` as printed, so a node with
  no stored instance, or an instance sharing no feature with them (:math:`m = 0`), predicts 1.
* **Time index of SH-RLS.** Section 8 writes :math:`\sqrt{(5\ln t)/N_{i,t}}` with :math:`t` the
  round of Figure 3 and :math:`N_{i,t}` the instances stored at node :math:`i` before round
  :math:`t`; we use this global round (``margin_time="global"``, the printed version). The
  selective-sampling rule it comes from (Cesa-Bianchi, Conconi & Gentile 2003) runs on a single
  stream, where the round is the node's own count of examples; ``margin_time="node"`` uses the
  number of examples node :math:`i` has been eligible for (equal to the global round for roots
  and for the flat S-RLS). :math:`N_{i,t} = 0` always stores (the threshold is :math:`+\infty`;
  the weight is 0 anyway).
* **Current instance.** The weight of eq. (1) depends on :math:`\mathbf x_t` itself;
  :meth:`decision_one` returns :math:`\mathbf w_{i}(\mathbf x)^\top\mathbf x = m/(1+q)` and the
  test-time predictions use the same form. Including :math:`\mathbf x` never changes the sign.
* **Perceptron labels.** :math:`\mathbf w \leftarrow \mathbf w + v\,\mathbf x` with
  :math:`v \in \{-1, +1\}` (the 0/1 label mapped to :math:`\pm1`), on a mistake
  :math:`\{\mathbf w^\top\mathbf x \ge 0\} \ne v`, only at nodes allowed to update.

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.

N. Cesa-Bianchi, A. Conconi, C. Gentile. Learning probabilistic linear-threshold classifiers
via selective sampling. COLT 2003.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
import scipy.sparse as sp
from numba import types
from numba.typed import List

from mlgeom._validation import check_in, check_not_complex, check_positive_int
from mlgeom.hierarchical.taxonomy import Taxonomy

__all__ = [
    "HRLS",
    "LEARNERS",
    "SHRLS",
    "SRLS",
    "HPerceptron",
    "Perceptron",
    "make_learner",
]

_MARGIN_TIMES = ("global", "node")
# work counters (float64 to avoid overflow of sums of squares): index -> name
_WORK_KEYS = ("predict", "margin", "insert", "update")
_INT0 = np.zeros(0, dtype=np.int64)  # dtype prototypes for _empty_lists
_FLOAT0 = np.zeros(0, dtype=np.float64)


# ---------------------------------------------------------------------------------- kernels
@numba.njit(cache=True)
def _grow(a, need):  # pragma: no cover - compiled
    """Return ``a`` or a zero-padded copy (same dtype) with at least ``need`` entries (x1.5)."""
    n = a.shape[0]
    if n >= need:
        return a
    cap = max(need, n + n // 2, 8)
    b = np.zeros(cap, dtype=a.dtype)
    b[:n] = a
    return b


@numba.njit(cache=True)
def _empty_lists(n, proto):  # pragma: no cover - compiled
    """Return a typed list of ``n`` empty arrays of ``proto``'s dtype."""
    out = List()
    for _ in range(n):
        out.append(np.zeros(0, dtype=proto.dtype))
    return out


@numba.njit(cache=True)
def _row_dot(R, off, k, m):  # pragma: no cover - compiled
    """``Σ_{c<m} R[off + c] k[c]`` with eight accumulators in a fixed order (deterministic)."""
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    c = 0
    while c + 8 <= m:
        a0 += R[off + c] * k[c]
        a1 += R[off + c + 1] * k[c + 1]
        a2 += R[off + c + 2] * k[c + 2]
        a3 += R[off + c + 3] * k[c + 3]
        a4 += R[off + c + 4] * k[c + 4]
        a5 += R[off + c + 5] * k[c + 5]
        a6 += R[off + c + 6] * k[c + 6]
        a7 += R[off + c + 7] * k[c + 7]
        c += 8
    while c < m:
        a0 += R[off + c] * k[c]
        c += 1
    return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))


@numba.njit(cache=True)
def _tri_mv(R, k, n, out):  # pragma: no cover - compiled
    """``out[:n] = R k`` for the packed lower-triangular ``R`` (row r at r(r+1)/2)."""
    off = 0
    for r in range(n):
        out[r] = _row_dot(R, off, k, r + 1)
        off += r + 1


@numba.njit(cache=True)
def _tri_lb(R, k, n, lout, bout, x2, am, theta, test):  # pragma: no cover - compiled
    """``l = R k`` and ``b = Rᵀ l`` in one sweep over the rows of the packed ``R``.

    Row ``r`` gives ``l_r`` (a dot product) and, while it is in cache, adds ``l_r R[r, :]`` to
    ``b``: one pass over memory instead of two. Row ``r`` of ``R k`` involves only the first
    ``r + 1`` stored instances and ``Σ_{r<j} l_r²`` only grows with ``j``, so with ``test``
    (SH-RLS) ``q_j = x2 - Σ_{r<j} l_r² >= q`` and ``|m|/(1 + q_j) <= |w·x|``: once this lower
    bound exceeds θ the instance will not be stored and the sweep stops (floating-point sums of
    non-negative terms are monotone, so the early answer is the one the full computation
    gives). Returns ``(Σ l_r², rows swept, rejected)``.
    """
    for c in range(n):
        bout[c] = 0.0
    off = 0
    l2 = 0.0
    for r in range(n):
        lr = _row_dot(R, off, k, r + 1)
        lout[r] = lr
        l2 += lr * lr
        for c in range(r + 1):
            bout[c] += R[off + c] * lr
        off += r + 1
        if test and am / (1.0 + (x2 - l2)) > theta:
            return l2, r + 1, True
    return l2, n, False


@numba.njit(cache=True)
def _scatter_g(x_idx, x_val, inv_doc, inv_val, inv_len, g, sign):  # pragma: no cover
    """``g += D x`` over the stored documents (sign=1), or reset the touched entries (sign=0)."""
    for p in range(x_idx.shape[0]):
        j = x_idx[p]
        ln = inv_len[j]
        if ln == 0:
            continue
        dl = inv_doc[j]
        if sign == 0:
            for q in range(ln):
                g[dl[q]] = 0.0
        else:
            xv = x_val[p]
            vl = inv_val[j]
            for q in range(ln):
                g[dl[q]] += xv * vl[q]


@numba.njit(cache=True)
def _rls_batch(  # pragma: no cover - compiled
    indptr,
    indices,
    data,
    V,
    learn,
    record,
    out,
    parent,
    order,
    hierarchical,
    selective,
    node_time,
    inv_doc,
    inv_val,
    inv_len,
    nd_idx,
    nd_y,
    nd_alpha,
    nd_R,
    nd_n,
    nd_t,
    fbuf,
    doc_time,
    state,
    work,
):
    """One pass of the online protocol of Figure 3 over the CSR rows (see the module docstring).

    ``state = [n_docs, t]``: stored documents, rounds learned so far. ``fbuf = [g, k, l, b]``.
    Predictions (top-down for hierarchical learners) go to ``out[r]`` when ``record``;
    with ``learn`` the rows' multilabels ``V`` update the nodes afterwards.
    """
    N = parent.shape[0]
    n_rows = indptr.shape[0] - 1
    yhat = np.zeros(N, dtype=np.bool_)
    for r in range(n_rows):
        a = indptr[r]
        e = indptr[r + 1]
        x_idx = indices[a:e]
        x_val = data[a:e]
        nnz = e - a
        x2 = 0.0
        for p in range(nnz):
            x2 += x_val[p] * x_val[p]
        t = 0
        if learn:
            state[1] += 1
            t = state[1]
        n_docs = state[0]
        g = fbuf[0]
        if n_docs > 0:
            _scatter_g(x_idx, x_val, inv_doc, inv_val, inv_len, g, 1)
        new_doc = -1
        for oi in range(N):
            i = order[oi]
            pi = parent[i]
            elig = learn and ((not hierarchical) or pi < 0 or V[r, pi] != 0)
            reach = record and ((not hierarchical) or pi < 0 or yhat[pi])
            yhat[i] = False
            if not (elig or reach):
                continue
            ni = nd_n[i]
            idx = nd_idx[i]
            al = nd_alpha[i]
            # m = kᵀα with k = S_iᵀx gathered from g; ||k||² for SH-RLS's bounds
            m = 0.0
            k2 = 0.0
            for s in range(ni):
                gs = g[idx[s]]
                m += gs * al[s]
                k2 += gs * gs
            work[0] += ni * nnz + ni
            if reach:
                yhat[i] = m >= 0.0  # Figure 3 / eq. (15): {w·x >= 0}; sign(m/(1+q)) = sign(m)
            if not elig:
                continue
            nd_t[i] += 1
            v = 1.0 if V[r, i] != 0 else -1.0  # eq. (1) targets are ±1
            have_l = False
            kb = fbuf[1]
            lb = fbuf[2]
            bb = fbuf[3]
            q = 0.0
            store = True
            if selective and ni > 0:
                tt = nd_t[i] if node_time else t
                theta = math.sqrt(5.0 * math.log(tt) / ni)  # Section 8 margin threshold
                am = abs(m)
                qlo = max(x2 - k2, 0.0)
                if am / (1.0 + qlo) <= theta:
                    store = True
                elif am / (1.0 + x2) > theta:
                    store = False
                else:  # ambiguous: q = ||x||² - ||R k||², stopped early on a rejection
                    for s in range(ni):
                        kb[s] = g[idx[s]]
                    l2, rows, rejected = _tri_lb(nd_R[i], kb, ni, lb, bb, x2, am, theta, True)
                    work[1] += rows * rows
                    if rejected:
                        store = False
                    else:
                        q = x2 - l2
                        have_l = True
                        store = am / (1.0 + q) <= theta
            if not store:
                continue
            # insertion: block-inverse growth (Schur complement s = 1 + q), b = Rᵀ R k = M k
            R = nd_R[i]
            if ni > 0 and not have_l:
                for s in range(ni):
                    kb[s] = g[idx[s]]
                l2, rows, rejected = _tri_lb(R, kb, ni, lb, bb, x2, 0.0, 0.0, False)
                q = x2 - l2
            elif ni == 0:
                q = x2
            s_c = 1.0 + q
            delta = math.sqrt(s_c)
            need_tri = (ni + 1) * (ni + 2) // 2
            if R.shape[0] < need_tri:
                cap = max(ni + 1, (idx.shape[0] * 3) // 2, 8)
                R = _grow(R, cap * (cap + 1) // 2)
                nd_R[i] = R
                idx = _grow(idx, cap)
                nd_idx[i] = idx
                al = _grow(al, cap)
                nd_alpha[i] = al
                nd_y[i] = _grow(nd_y[i], cap)
            off = ni * (ni + 1) // 2
            for c in range(ni):
                R[off + c] = -bb[c] / delta
            R[off + ni] = 1.0 / delta
            coef = (m - v) / s_c
            for c in range(ni):
                al[c] += coef * bb[c]
            al[ni] = (v - m) / s_c
            if new_doc < 0:
                new_doc = n_docs
            idx[ni] = new_doc
            nd_y[i][ni] = v
            nd_n[i] = ni + 1
            work[2] += ni * ni
            # scratch buffers large enough for the next round at this node
            if fbuf[1].shape[0] < ni + 1:
                fbuf[1] = _grow(fbuf[1], ni + 1)
                fbuf[2] = _grow(fbuf[2], ni + 1)
                fbuf[3] = _grow(fbuf[3], ni + 1)
        if n_docs > 0:
            _scatter_g(x_idx, x_val, inv_doc, inv_val, inv_len, g, 0)
        if record:
            for i in range(N):
                out[r, i] = yhat[i]
        if new_doc >= 0:  # add x_t to the store (inverted index)
            for p in range(nnz):
                j = x_idx[p]
                ln = inv_len[j]
                if inv_doc[j].shape[0] <= ln:
                    inv_doc[j] = _grow(inv_doc[j], ln + 1)
                    inv_val[j] = _grow(inv_val[j], ln + 1)
                inv_doc[j][ln] = new_doc
                inv_val[j][ln] = x_val[p]
                inv_len[j] = ln + 1
            state[0] = n_docs + 1
            if fbuf[0].shape[0] < n_docs + 1:
                fbuf[0] = _grow(fbuf[0], n_docs + 1)
            doc_time[0] = _grow(doc_time[0], n_docs + 1)
            doc_time[0][n_docs] = t - 1


@numba.njit(cache=True)
def _rls_decision(  # pragma: no cover - compiled
    x_idx, x_val, inv_doc, inv_val, inv_len, nd_idx, nd_alpha, nd_R, nd_n, fbuf, state, work
):
    """Exact ``w_i(x)·x = m/(1+q)`` at every node (O(N_i²) each)."""
    N = nd_n.shape[0]
    out = np.zeros(N)
    g = fbuf[0]
    nnz = x_idx.shape[0]
    x2 = 0.0
    for p in range(nnz):
        x2 += x_val[p] * x_val[p]
    if state[0] > 0:
        _scatter_g(x_idx, x_val, inv_doc, inv_val, inv_len, g, 1)
    kb = fbuf[1]
    lb = fbuf[2]
    for i in range(N):
        ni = nd_n[i]
        if ni == 0:
            continue
        idx = nd_idx[i]
        al = nd_alpha[i]
        m = 0.0
        for s in range(ni):
            kb[s] = g[idx[s]]
            m += kb[s] * al[s]
        _tri_mv(nd_R[i], kb, ni, lb)
        l2 = 0.0
        for s in range(ni):
            l2 += lb[s] * lb[s]
        out[i] = m / (1.0 + x2 - l2)
        work[0] += ni * nnz + ni
        work[1] += ni * ni
    if state[0] > 0:
        _scatter_g(x_idx, x_val, inv_doc, inv_val, inv_len, g, 0)
    return out


@numba.njit(cache=True)
def _perc_batch(  # pragma: no cover - compiled
    indptr, indices, data, V, learn, record, out, parent, order, hierarchical, Wt, n_upd, work
):
    r"""One pass of the Perceptron protocol (Section 8) over the CSR rows.

    ``Wt`` is ``(d, N)``: the weights of all nodes for one feature are contiguous, so
    :math:`\mathbf w_i^\top\mathbf x` for every node is one sweep over the non-zeros of x.
    """
    N = parent.shape[0]
    n_rows = indptr.shape[0] - 1
    yhat = np.zeros(N, dtype=np.bool_)
    m = np.zeros(N)
    for r in range(n_rows):
        a = indptr[r]
        e = indptr[r + 1]
        nnz = e - a
        for i in range(N):
            m[i] = 0.0
        for p in range(a, e):
            row = Wt[indices[p]]
            xv = data[p]
            for i in range(N):
                m[i] += row[i] * xv
        for oi in range(N):
            i = order[oi]
            pi = parent[i]
            elig = learn and ((not hierarchical) or pi < 0 or V[r, pi] != 0)
            reach = record and ((not hierarchical) or pi < 0 or yhat[pi])
            yhat[i] = False
            if not (elig or reach):
                continue
            work[0] += nnz
            pos = m[i] >= 0.0  # eq. (15): {w·x >= 0}
            if reach:
                yhat[i] = pos
            if elig and pos != (V[r, i] != 0):  # mistake: w <- w + v x, v in {-1, +1}
                v = 1.0 if V[r, i] != 0 else -1.0
                for p in range(a, e):
                    Wt[indices[p], i] += v * data[p]
                n_upd[i] += 1
                work[3] += nnz
        if record:
            for i in range(N):
                out[r, i] = yhat[i]


# ---------------------------------------------------------------------------------- inputs
def _canonical_csr(X: Any, n_features: int | None, name: str) -> sp.csr_matrix:
    """Validate ``X`` (CSR/sparse or dense, 2-D or one 1-D row) and return a canonical CSR.

    Canonical: float64 data, int64 indices, sorted, no duplicates, no explicit zeros, so that a
    dense and a sparse version of the same data follow the same arithmetic.
    """
    if sp.issparse(X):
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D; got a sparse array of shape {X.shape}")
        M = sp.csr_matrix(X, dtype=np.float64, copy=True)
    else:
        check_not_complex(X, name)
        try:
            arr = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be numeric (dense array or scipy sparse)") from exc
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 1-D (one instance) or 2-D; got shape {arr.shape}")
        M = sp.csr_matrix(arr)
    M.sum_duplicates()
    M.eliminate_zeros()
    M.sort_indices()
    if not np.all(np.isfinite(M.data)):
        r = int(np.searchsorted(M.indptr, np.flatnonzero(~np.isfinite(M.data))[0], side="right"))
        raise ValueError(f"{name} must be finite; row {r - 1} has a non-finite entry")
    if n_features is not None and M.shape[1] != n_features:
        raise ValueError(
            f"{name} must have {n_features} features (as the data seen so far); got shape {M.shape}"
        )
    M.indices = M.indices.astype(np.int64, copy=False)
    M.indptr = M.indptr.astype(np.int64, copy=False)
    return M


def _check_multilabels(taxonomy: Taxonomy, V: Any, n: int, name: str = "V") -> np.ndarray:
    """Return ``V`` as a C-contiguous ``(n, N)`` int8 array; it must be 0/1 and respect G."""
    Vb = taxonomy.as_multilabels(V, name)
    if Vb.shape[0] != n:
        raise ValueError(f"{name} has {Vb.shape[0]} rows but X has {n}")
    bad = ~taxonomy.respects(Vb)
    if np.any(bad):
        r = int(np.flatnonzero(bad)[0])
        child = np.flatnonzero(taxonomy.parent >= 0)
        viol = child[Vb[r, child] & ~Vb[r, taxonomy.parent[child]]]
        c = int(viol[0])
        raise ValueError(
            f"{name}[{r}] does not respect the taxonomy: node {c} ({taxonomy.names[c]!r}) is 1 "
            f"but its parent {int(taxonomy.parent[c])} "
            f"({taxonomy.names[taxonomy.parent[c]]!r}) is 0"
        )
    return np.ascontiguousarray(Vb, dtype=np.int8)


# ---------------------------------------------------------------------------------- learners
class _OnlineLearner:
    """Shared protocol of the online learners (see the module docstring)."""

    name: str = ""
    hierarchical: bool = True

    def __init__(self, taxonomy: Taxonomy, *, n_features: int | None = None) -> None:
        if not isinstance(taxonomy, Taxonomy):
            raise TypeError(f"taxonomy must be a mlgeom.hierarchical.Taxonomy; got {taxonomy!r}")
        self.taxonomy = taxonomy
        self._parent = np.ascontiguousarray(taxonomy.parent, dtype=np.int64)
        self._order = np.ascontiguousarray(taxonomy.order, dtype=np.int64)
        self._work = np.zeros(len(_WORK_KEYS), dtype=np.float64)
        self.t_ = 0
        self.n_features_: int | None = None
        if n_features is not None:
            self._allocate(check_positive_int(n_features, "n_features"))

    # -- to be provided by subclasses
    def _allocate(self, d: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _run(
        self, M: sp.csr_matrix, V: np.ndarray, learn: bool, record: bool, out: np.ndarray
    ) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- common plumbing
    @property
    def n_nodes(self) -> int:
        """N, the number of nodes of the taxonomy."""
        return self.taxonomy.n_nodes

    def _rows(self, X: Any, name: str = "X") -> sp.csr_matrix:
        M = _canonical_csr(X, self.n_features_, name)
        if self.n_features_ is None:
            self._allocate(int(M.shape[1]))
        return M

    def _one(self, x: Any) -> sp.csr_matrix:
        M = self._rows(x, "x")
        if M.shape[0] != 1:
            raise ValueError(f"x must be one instance (1-D or a 1×d row); got shape {M.shape}")
        return M

    def _batch(self, M: sp.csr_matrix, V: np.ndarray | None, learn: bool, record: bool):
        out = np.zeros((M.shape[0], self.n_nodes) if record else (0, self.n_nodes), dtype=bool)
        Vk = V if V is not None else np.zeros((0, self.n_nodes), dtype=np.int8)
        self._run(M, Vk, learn, record, out)
        if learn:
            self.t_ += M.shape[0]
        return out

    def predict_one(self, x: Any) -> np.ndarray:
        r"""Predict the multilabel of one instance, ``(N,)`` bool (no update).

        Hierarchical learners evaluate top-down (eq. 15): a non-root node is 1 only if its
        parent is 1 and :math:`\mathbf w_i^\top\mathbf x \ge 0`; flat learners threshold
        every node independently.
        """
        return self._batch(self._one(x), None, learn=False, record=True)[0]

    def learn_one(self, x: Any, v: Any) -> _OnlineLearner:
        """Update with one example; ``v`` is the ``(N,)`` 0/1 multilabel, respecting G.

        Hierarchical learners update only nodes that are roots or whose parent has
        :math:`v = 1` (Section 4); flat learners update every node.
        """
        M = self._one(x)
        V = _check_multilabels(self.taxonomy, v, 1, "v")
        self._batch(M, V, learn=True, record=False)
        return self

    def run_online(self, X: Any, V: Any) -> np.ndarray:
        """One epoch of the online protocol; returns the ``(n, N)`` bool predictions.

        Row ``t`` is predicted with the state after rows ``0 … t-1`` (predict, then update).
        """
        M = self._rows(X)
        Vc = _check_multilabels(self.taxonomy, V, M.shape[0])
        return self._batch(M, Vc, learn=True, record=True)

    def partial_fit(self, X: Any, V: Any) -> _OnlineLearner:
        """One epoch of updates (as :meth:`run_online`, without keeping the predictions)."""
        M = self._rows(X)
        Vc = _check_multilabels(self.taxonomy, V, M.shape[0])
        self._batch(M, Vc, learn=True, record=False)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict every row of ``X`` with the current weights, ``(n, N)`` bool; no update."""
        return self._batch(self._rows(X), None, learn=False, record=True)

    @property
    def work(self) -> dict[str, float]:
        r"""Deterministic cost counters (sums over all calls so far).

        ``stored``: stored instances (RLS) or updates (Perceptron) summed over nodes;
        ``predict``: Σ over node evaluations of :math:`N_i\,\mathrm{nnz}(x) + N_i` (RLS) or
        :math:`\mathrm{nnz}(x)` (Perceptron); ``margin``: Σ :math:`N_i^2` over exact margin
        magnitudes that SH-RLS's test needed; ``insert``: Σ :math:`N_i^2` over insertions
        (:math:`N_i` before the insertion); ``update``: Σ nnz(x) over Perceptron updates;
        ``examples``: rounds learned.
        """
        out = {k: float(v) for k, v in zip(_WORK_KEYS, self._work, strict=True)}
        out["stored"] = float(self.n_stored.sum())
        out["examples"] = float(self.t_)
        return out

    def reset_work(self) -> None:
        """Set the ``predict``/``margin``/``insert``/``update`` counters to zero."""
        self._work[:] = 0.0

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(N={self.n_nodes}, d={self.n_features_}, t={self.t_}, "
            f"stored={int(self.n_stored.sum())})"
        )


class _RLS(_OnlineLearner):
    """Regularized least squares per node in the dual (eq. 1); see the module docstring."""

    selective: bool = False

    def __init__(
        self,
        taxonomy: Taxonomy,
        *,
        margin_time: str = "global",
        n_features: int | None = None,
    ) -> None:
        self.margin_time = check_in(margin_time, "margin_time", _MARGIN_TIMES)
        N = taxonomy.n_nodes if isinstance(taxonomy, Taxonomy) else 0
        self._nd_n = np.zeros(N, dtype=np.int64)
        self._nd_t = np.zeros(N, dtype=np.int64)
        self._state = np.zeros(2, dtype=np.int64)
        self._nd_idx = _empty_lists(N, _INT0)
        self._nd_y = _empty_lists(N, _FLOAT0)
        self._nd_alpha = _empty_lists(N, _FLOAT0)
        self._nd_R = _empty_lists(N, _FLOAT0)
        fb = List.empty_list(types.float64[::1])
        for _ in range(4):
            fb.append(np.zeros(8, dtype=np.float64))
        self._fbuf = fb
        dt = List.empty_list(types.int64[::1])
        dt.append(np.zeros(8, dtype=np.int64))
        self._doc_time = dt
        super().__init__(taxonomy, n_features=n_features)

    def _allocate(self, d: int) -> None:
        self.n_features_ = d
        self._inv_doc = _empty_lists(d, _INT0)
        self._inv_val = _empty_lists(d, _FLOAT0)
        self._inv_len = np.zeros(d, dtype=np.int64)

    def _run(self, M, V, learn, record, out) -> None:
        _rls_batch(
            M.indptr,
            M.indices,
            M.data,
            V,
            learn,
            record,
            out,
            self._parent,
            self._order,
            self.hierarchical,
            self.selective,
            self.margin_time == "node",
            self._inv_doc,
            self._inv_val,
            self._inv_len,
            self._nd_idx,
            self._nd_y,
            self._nd_alpha,
            self._nd_R,
            self._nd_n,
            self._nd_t,
            self._fbuf,
            self._doc_time,
            self._state,
            self._work,
        )

    def decision_one(self, x: Any) -> np.ndarray:
        r""":math:`\mathbf w_i^\top\mathbf x` at every node, ``(N,)`` float (no update).

        The weight of eq. (1) includes the instance itself:
        :math:`\mathbf w_i(\mathbf x)^\top\mathbf x = m/(1+q)` (module docstring); exact,
        :math:`O(N_i^2)` per node. Nodes with no stored instance give 0.
        """
        M = self._one(x)
        return _rls_decision(
            M.indices,
            M.data,
            self._inv_doc,
            self._inv_val,
            self._inv_len,
            self._nd_idx,
            self._nd_alpha,
            self._nd_R,
            self._nd_n,
            self._fbuf,
            self._state,
            self._work,
        )

    @property
    def n_stored(self) -> np.ndarray:
        """Stored instances per node, ``(N,)`` int64."""
        return self._nd_n.copy()

    @property
    def n_documents(self) -> int:
        """Distinct instances stored by at least one node (the shared store)."""
        return int(self._state[0])

    def stored(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the rounds (0-based, in the learned stream) and ±1 labels stored at node ``i``."""
        i = self.taxonomy._check_node(i)
        n = int(self._nd_n[i])
        docs = self._nd_idx[i][:n]
        return self._doc_time[0][docs].copy(), self._nd_y[i][:n].copy()

    def dual(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Node ``i``'s dual state: ``alpha`` :math:`= M\mathbf y` and the inverse ``M``.

        ``M`` :math:`= (I + S_i^\top S_i)^{-1} = R^\top R` is formed densely here (for tests
        and inspection only; the learner never forms it).
        """
        i = self.taxonomy._check_node(i)
        n = int(self._nd_n[i])
        R = np.zeros((n, n))
        packed = self._nd_R[i]
        for r in range(n):
            R[r, : r + 1] = packed[r * (r + 1) // 2 : r * (r + 1) // 2 + r + 1]
        return self._nd_alpha[i][:n].copy(), R.T @ R

    def memory_bytes(self) -> int:
        """Bytes held by the learner's arrays (inverted index, inverses, duals, buffers)."""
        total = sum(a.nbytes for lst in (self._nd_idx, self._nd_y, self._nd_alpha) for a in lst)
        total += sum(a.nbytes for a in self._nd_R) + sum(a.nbytes for a in self._fbuf)
        if self.n_features_ is not None:
            total += sum(a.nbytes for a in self._inv_doc) + sum(a.nbytes for a in self._inv_val)
            total += self._inv_len.nbytes
        return int(total + self._doc_time[0].nbytes)


class HRLS(_RLS):
    r"""H-RLS (Figure 3, eq. 1): hierarchical regularized least squares.

    Node :math:`i` stores every instance :math:`\mathbf x_t` with :math:`i` a root or
    :math:`v_{\mathrm{PAR}(i),t} = 1`, with label :math:`2v_{i,t} - 1`; predictions are
    top-down (eq. 15) with the Vovk–Azoury–Warmuth weights of eq. (1). Cost per round:
    :math:`O(N_i)` per evaluated node after one pass over the inverted index,
    :math:`O(N_i^2)` per insertion.

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest G.
    n_features : int, optional
        d; otherwise taken from the first data seen.

    Examples
    --------
    >>> from mlgeom.hierarchical.taxonomy import Taxonomy
    >>> G = Taxonomy([-1, 0, 0])
    >>> learner = HRLS(G)
    >>> _ = learner.learn_one([1.0, 0.0], [1, 1, 0]).learn_one([0.0, 1.0], [0, 0, 0])
    >>> learner.predict_one([1.0, 0.0]).tolist(), learner.n_stored.tolist()
    ([True, True, False], [2, 1, 1])
    """

    name = "H-RLS"
    hierarchical = True
    selective = False

    def __init__(self, taxonomy: Taxonomy, *, n_features: int | None = None) -> None:
        super().__init__(taxonomy, n_features=n_features)


class SHRLS(_RLS):
    r"""SH-RLS (Section 8): H-RLS with a margin condition for storing instances.

    Node :math:`i` stores :math:`\mathbf x_t` only when
    :math:`|\mathbf w_{i,t}^\top\mathbf x_t| \le \sqrt{5\ln t / N_{i,t}}`;
    :math:`N_{i,t}` is the number of instances stored at node :math:`i` before round
    :math:`t`; nodes with none always store.

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest G.
    margin_time : {"global", "node"}, default="global"
        The :math:`t` of the threshold: the global round (as printed) or the number of examples
        the node has been eligible for (see the module docstring).
    n_features : int, optional
        d; otherwise taken from the first data seen.
    """

    name = "SH-RLS"
    hierarchical = True
    selective = True


class SRLS(_RLS):
    r"""S-RLS (Section 8): flat SH-RLS.

    Every node is trained on every example with the margin condition of SH-RLS and predicts
    independently (no top-down evaluation). Parameters as :class:`SHRLS`.
    """

    name = "S-RLS"
    hierarchical = False
    selective = True


class _Perceptron(_OnlineLearner):
    """Perceptron per node with dense weights (N × d), updating only the non-zeros of x."""

    def __init__(self, taxonomy: Taxonomy, *, n_features: int | None = None) -> None:
        N = taxonomy.n_nodes if isinstance(taxonomy, Taxonomy) else 0
        self._n_upd = np.zeros(N, dtype=np.int64)
        self._Wt = np.zeros((0, N))
        super().__init__(taxonomy, n_features=n_features)

    def _allocate(self, d: int) -> None:
        self.n_features_ = d
        self._Wt = np.zeros((d, self.n_nodes))  # transposed: one contiguous row per feature

    def _run(self, M, V, learn, record, out) -> None:
        _perc_batch(
            M.indptr,
            M.indices,
            M.data,
            V,
            learn,
            record,
            out,
            self._parent,
            self._order,
            self.hierarchical,
            self._Wt,
            self._n_upd,
            self._work,
        )

    def decision_one(self, x: Any) -> np.ndarray:
        r""":math:`\mathbf w_i^\top\mathbf x` at every node, ``(N,)`` float (no update)."""
        M = self._one(x)
        out = np.zeros(self.n_nodes)
        for j, xv in zip(M.indices, M.data, strict=True):  # same order as the compiled loop
            out += self._Wt[j] * xv
        return out

    @property
    def weights(self) -> np.ndarray:
        """The weight vectors, ``(N, d)`` (a read-only view)."""
        w = self._Wt.T.view()
        w.setflags(write=False)
        return w

    @property
    def n_stored(self) -> np.ndarray:
        """Updates (mistakes on eligible nodes) per node, ``(N,)`` int64."""
        return self._n_upd.copy()

    def memory_bytes(self) -> int:
        """Bytes held by the weights."""
        return int(self._Wt.nbytes)


class HPerceptron(_Perceptron):
    r"""H-PERC (Section 8): a Perceptron at each node with the hierarchical protocol.

    Nodes :math:`i` with :math:`i \in \mathrm{ROOT}(G)` or :math:`v_{\mathrm{PAR}(i),t} = 1`
    update :math:`\mathbf w_i \leftarrow \mathbf w_i + v\,\mathbf x_t` (:math:`v = \pm1`) when
    :math:`\{\mathbf w_i^\top\mathbf x_t \ge 0\} \ne v_{i,t}`; prediction is top-down (eq. 15).

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest G.
    n_features : int, optional
        d; otherwise taken from the first data seen.
    """

    name = "H-PERC"
    hierarchical = True


class Perceptron(_Perceptron):
    r"""PERC (Section 8): the flat Perceptron.

    Every node is updated on every example and predicted independently. Parameters as
    :class:`HPerceptron`.
    """

    name = "PERC"
    hierarchical = False


LEARNERS: dict[str, type[_OnlineLearner]] = {
    "H-RLS": HRLS,
    "SH-RLS": SHRLS,
    "S-RLS": SRLS,
    "H-PERC": HPerceptron,
    "PERC": Perceptron,
}
_PARAMS = {
    "H-RLS": ("n_features",),
    "SH-RLS": ("margin_time", "n_features"),
    "S-RLS": ("margin_time", "n_features"),
    "H-PERC": ("n_features",),
    "PERC": ("n_features",),
}


def make_learner(name: str, taxonomy: Taxonomy, **params: Any) -> _OnlineLearner:
    """Build an online learner by its name in the paper.

    Parameters
    ----------
    name : {"H-RLS", "SH-RLS", "S-RLS", "H-PERC", "PERC"}
        The algorithm (Sections 4 and 8).
    taxonomy : Taxonomy
        The forest G.
    **params
        Keyword parameters of the class (``n_features``; ``margin_time`` for SH-RLS, S-RLS).

    Returns
    -------
    HRLS, SHRLS, SRLS, HPerceptron or Perceptron
        A fresh learner.

    Raises
    ------
    ValueError
        On an unknown name or a parameter the learner does not take.
    """
    check_in(name, "name", tuple(LEARNERS))
    unknown = sorted(set(params) - set(_PARAMS[name]))
    if unknown:
        raise ValueError(
            f"{name} does not take parameter(s) {', '.join(map(repr, unknown))}; "
            f"it takes {', '.join(map(repr, _PARAMS[name]))}"
        )
    return LEARNERS[name](taxonomy, **params)
