r"""A synthetic corpus at the paper's RCV1 scale, labelled by the Section 5 model.

:func:`synthetic_rcv1_like` builds a corpus whose labels are drawn from the Section 5 model of
Cesa-Bianchi, Gentile & Zaniboni (2006) on RCV1's real taxonomy, with label statistics taken
from the real RCV1 sample shipped in ``data/hierarchical/`` (see its docstring for the design and
its limits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import check_not_complex, check_positive_int, check_real
from mlgeom.hierarchical.corpus import HierarchicalCorpus, _respects, label_statistics
from mlgeom.hierarchical.taxonomy import Taxonomy, check_taxonomy
from mlgeom.hierarchical.text_vectors import normalize_rows
from mlgeom.random import Seed, spawn

__all__ = ["SyntheticDesign", "synthetic_rcv1_like"]


def _word_block(
    rng: np.random.Generator,
    topics: sp.csr_matrix,
    n_words: int,
    mean_words: float,
    topic_share: float,
    topic_size: int,
    zipf_exponent: float,
) -> sp.csr_matrix:
    r"""Sparse unit-norm word vectors: Zipf background words mixed with topic words of T.

    Document t draws ``k_t`` words (log-normal ``k_t``, spread as in the real sample); each
    draw is, with probability ``topic_share``, a uniform word of the vocabulary of a uniform
    node of T_t (``topic_size`` words per node), otherwise a background word of rank
    :math:`r \propto` Zipf(``zipf_exponent``) (continuous inverse-CDF approximation). Repeated
    draws are term frequencies; weights are log(1 + TF) times a log-IDF-like factor of the
    background rank, then unit norm.
    """
    n, N = topics.shape
    s = zipf_exponent
    ranks = np.arange(1, n_words + 1, dtype=np.float64)
    p_bg = ranks**-s
    p_bg /= p_bg.sum()
    # draws per document so that the expected number of *distinct* words is about mean_words
    k_mean = mean_words
    for _ in range(20):  # fixed-point on E[distinct background words] (deterministic)
        kb = (1.0 - topic_share) * k_mean
        distinct = float(np.sum(-np.expm1(kb * np.log1p(-p_bg)))) + topic_share * k_mean
        k_mean *= mean_words / distinct
    sigma = 0.7
    k = np.maximum(1, np.rint(rng.lognormal(np.log(k_mean) - sigma**2 / 2, sigma, size=n)))
    k = k.astype(np.int64)
    doc = np.repeat(np.arange(n, dtype=np.int64), k)
    total = doc.size
    n_t = np.diff(topics.indptr)[doc]
    is_topic = (rng.random(total, dtype=np.float32) < topic_share) & (n_t > 0)
    words = np.empty(total, dtype=np.int64)
    # background draws: continuous inverse CDF of the Zipf law (float64, so that a rank is
    # never decided by the last bits of a float32 power)
    bg = np.flatnonzero(~is_topic)
    r = (1.0 - rng.random(bg.size) * (1.0 - float(n_words) ** (1.0 - s))) ** (1.0 / (1.0 - s))
    words[bg] = np.clip(r.astype(np.int64) - 1, 0, n_words - 1)
    # topic draws: a uniform node of T_t, then a uniform word of its vocabulary
    head = min(200, n_words // 2)  # topic words avoid the most frequent background words
    vocab = rng.integers(head, n_words, size=N * topic_size)
    tp = np.flatnonzero(is_topic)
    dt = doc[tp]
    pick = (rng.random(tp.size, dtype=np.float32) * n_t[tp]).astype(np.int64)
    node = topics.indices[topics.indptr[dt] + np.minimum(pick, n_t[tp] - 1)]
    words[tp] = vocab[node * topic_size + rng.integers(0, topic_size, size=tp.size)]
    indptr = np.concatenate([[0], np.cumsum(k)])
    W = sp.csr_matrix((np.ones(total), words, indptr), shape=(n, n_words))
    W.sum_duplicates()  # repeated draws -> term frequency
    idf = np.log1p(1.0 / (p_bg * mean_words))  # rare words weigh more
    W.data = np.log1p(W.data) * idf[W.indices]  # log(1 + TF) log(IDF)
    return normalize_rows(W)


def _latent_block(
    topics: sp.csr_matrix, taxonomy: Taxonomy, bias: float, depth_weights: np.ndarray
) -> sp.csr_matrix:
    """Build unit latent vectors: ``bias`` on e_0, depth-weighted indicators of T on e_1 … e_N."""
    n, N = topics.shape
    k = np.diff(topics.indptr)
    rows = np.repeat(np.arange(n), k)
    dep = taxonomy.depth[topics.indices]
    n_dep = taxonomy.max_depth + 1
    cnt = np.bincount(rows * n_dep + dep, minlength=n * n_dep).reshape(n, n_dep)
    vals = depth_weights[dep] / np.sqrt(cnt[rows, dep])
    data = np.concatenate([np.full(n, bias), vals])
    r = np.concatenate([np.arange(n), rows])
    c = np.concatenate([np.zeros(n, dtype=np.int64), 1 + topics.indices.astype(np.int64)])
    Z = sp.csr_matrix((data, (r, c)), shape=(n, N + 1))
    Z.sort_indices()
    return normalize_rows(Z)


@dataclass(frozen=True)
class _Calibration:
    U: np.ndarray  # (N, N + 1) unit rows on the latent block
    expected_conditional: np.ndarray  # (N,) E[#i] / E[#PAR(i)] under the model
    clamped: np.ndarray  # (N,) bool: target outside the reachable range


def _calibrate(
    Z: sp.csr_matrix, topics: sp.csr_matrix, taxonomy: Taxonomy, targets: np.ndarray
) -> _Calibration:
    r"""Find unit vectors u_i (latent block) whose expected conditional frequencies are the targets.

    Level by level (roots first); for node i with parent marginals
    q_t = P(V_PAR(i) = 1 | x_t) (1 for roots), u_i lies in the plane of m (the q-weighted mean
    direction of the documents *not* intended for i) and g (that of the documents intended
    for i, made orthogonal to m): u_i = -cos(phi) m + sin(phi) g. The q-mean of
    (1 + u_i^T x_t)/2 is (1 - R cos(phi + psi))/2 with (R, psi) the polar form of the q-means
    of (m^T x_t, g^T x_t); phi makes it equal to the target (of the two roots, the one whose
    margins separate intended from other documents best), or is clamped to the nearest
    reachable value when the target lies outside [(1 - R)/2, (1 + R)/2].
    """
    n, L = Z.shape
    N = taxonomy.n_nodes
    U = np.zeros((N, L))
    expected = np.zeros(N)
    clamped = np.zeros(N, dtype=bool)
    marg = np.zeros((n, N))
    T = topics.toarray().astype(bool)
    Zt = sp.csr_matrix(Z.T)
    for level in range(taxonomy.max_depth + 1):
        B = np.flatnonzero(taxonomy.depth == level)
        par = taxonomy.parent[B]
        Q = np.ones((n, B.size)) if level == 0 else marg[:, par]
        P = T[:, B]
        WP, WN = np.where(P, Q, 0.0), np.where(P, 0.0, Q)
        mu_neg = np.asarray(Zt @ WN)  # (L, |B|)
        mu_pos = np.asarray(Zt @ WP)
        M = np.zeros((L, B.size))
        Gd = np.zeros((L, B.size))
        for k, i in enumerate(B):
            nm = np.linalg.norm(mu_neg[:, k])
            m = mu_neg[:, k] / nm if nm > 0 else np.eye(L)[0]
            g = mu_pos[:, k] - (mu_pos[:, k] @ m) * m
            if np.linalg.norm(g) < 1e-12:
                g = np.eye(L)[1 + i] - m[1 + i] * m
            M[:, k], Gd[:, k] = m, g / np.linalg.norm(g)
        beta, gamma = np.asarray(Z @ M), np.asarray(Z @ Gd)  # (n, |B|)
        sq, sp_, sn_ = Q.sum(axis=0), WP.sum(axis=0), WN.sum(axis=0)
        bbar, gbar = (Q * beta).sum(axis=0) / sq, (Q * gamma).sum(axis=0) / sq
        with np.errstate(invalid="ignore", divide="ignore"):
            db = np.nan_to_num((WP * beta).sum(axis=0) / sp_) - np.nan_to_num(
                (WN * beta).sum(axis=0) / sn_
            )
            dg = np.nan_to_num((WP * gamma).sum(axis=0) / sp_) - np.nan_to_num(
                (WN * gamma).sum(axis=0) / sn_
            )
        for k, i in enumerate(B):
            R, psi = float(np.hypot(bbar[k], gbar[k])), float(np.arctan2(gbar[k], bbar[k]))
            r = 2.0 * float(targets[i]) - 1.0  # target mean margin: p = (1 + r)/2, eq. (3)
            if abs(r) <= R:
                acos = float(np.arccos(np.clip(-r / R, -1.0, 1.0)))
                phi = max(
                    (acos - psi, -acos - psi),
                    key=lambda f, k=k: -np.cos(f) * db[k] + np.sin(f) * dg[k],
                )
            else:
                clamped[i] = True
                phi = -psi if r < 0 else np.pi - psi
            u = -np.cos(phi) * M[:, k] + np.sin(phi) * Gd[:, k]
            U[i] = u / np.linalg.norm(u)
        prob = (1.0 + np.asarray(Z @ U[B].T)) / 2.0  # eq. (3)
        marg[:, B] = Q * prob
        expected[B] = marg[:, B].sum(axis=0) / sq
    return _Calibration(U, expected, clamped)


def _synthetic_parts(
    n_docs: int,
    seed: Seed,
    n_features: int,
    nnz: float,
    latent_weight: float,
    bias: float,
    depth_weights: Any,
    topic_share: float,
    topic_size: int,
    zipf_exponent: float,
    taxonomy: Taxonomy,
    label_sets: sp.csr_matrix,
    targets: np.ndarray,
) -> tuple[sp.csr_matrix, sp.csr_matrix, _Calibration, np.random.Generator]:
    rng_types, rng_words, rng_labels = spawn(seed, 3)
    N = taxonomy.n_nodes
    pick = rng_types.integers(0, label_sets.shape[0], size=n_docs)
    topics = sp.csr_matrix(label_sets[pick], dtype=np.int8)
    dw = _as_floats(depth_weights, "depth_weights")
    Z = _latent_block(topics, taxonomy, bias, dw)
    Z.data *= np.sqrt(latent_weight)
    latent_nnz = float(np.mean(np.diff(Z.indptr)))
    W = _word_block(
        rng_words,
        topics,
        n_features - (N + 1),
        max(1.0, nnz - latent_nnz),
        topic_share,
        topic_size,
        zipf_exponent,
    )
    W.data *= np.sqrt(1.0 - latent_weight)
    X = sp.csr_matrix(sp.hstack([Z, W], format="csr"))
    cal = _calibrate(Z, topics, taxonomy, targets)
    return X, Z, cal, rng_labels


@dataclass(frozen=True)
class SyntheticDesign:
    """How a synthetic corpus was built and how its label statistics compare with the targets.

    Attributes
    ----------
    U : numpy.ndarray
        ``(N, d)`` unit vectors u_i of the Section 5 model (zero outside the latent block).
    target_conditional : numpy.ndarray
        ``(N,)`` target P(node | parent) (the real RCV1 sample's).
    expected_conditional : numpy.ndarray
        ``(N,)`` E[#node] / E[#parent] under the model on these documents (exact).
    clamped : numpy.ndarray
        ``(N,)`` bool: target out of reach with this document geometry (set to the nearest
        reachable value).
    achieved : dict
        :func:`label_statistics` of the drawn labels and the documents.
    parameters : dict
        The generator's parameters.
    """

    U: np.ndarray
    target_conditional: np.ndarray
    expected_conditional: np.ndarray
    clamped: np.ndarray
    achieved: dict
    parameters: dict


def _as_floats(x: Any, name: str) -> np.ndarray:
    check_not_complex(x, name)
    try:
        return np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric; got {x!r:.60}") from exc


def synthetic_rcv1_like(
    n_docs: int = 100_000,
    *,
    seed: Seed,
    n_features: int = 47_236,
    nnz: float = 100.0,
    latent_weight: float = 0.98,
    bias: float = 3.0,
    depth_weights: tuple[float, ...] = (1.0, 0.3, 0.2, 0.2),
    topic_share: float = 0.5,
    topic_size: int = 300,
    zipf_exponent: float = 1.1,
    taxonomy: Taxonomy | None = None,
    label_sets: Any = None,
    targets: Any = None,
    return_design: bool = False,
) -> HierarchicalCorpus | tuple[HierarchicalCorpus, SyntheticDesign]:
    r"""Build a synthetic corpus at RCV1's scale with labels drawn from the Section 5 model.

    Documents (sparse, unit norm, ``n_features`` columns, about ``nnz`` non-zeros each):

    1. each document t gets an *intended* label set :math:`T_t`, drawn uniformly from the real
       RCV1 sample's 2,316 ancestor-closed label sets (so the intended structure is RCV1's:
       3.2 labels and 1.45 paths per document);
    2. a latent block of :math:`N + 1` columns: ``bias`` on column 0 (shared by every
       document) and, for each node of :math:`T_t` at depth k, ``depth_weights[k]`` divided by
       the square root of the number of such nodes, on that node's column; normalised;
    3. word columns: log(1+TF)·log(IDF)-like weights of about ``nnz - (1 + |T_t|)`` words,
       a share ``topic_share`` drawn from the vocabularies of the nodes of :math:`T_t` and the
       rest from a Zipf background; normalised;
    4. :math:`\mathbf x_t = \sqrt{\lambda}\,\mathbf z_t + \sqrt{1-\lambda}\,\mathbf w_t` with
       :math:`\lambda` = ``latent_weight``.

    Labels: :math:`\mathbf V_t \sim f_G(\cdot \mid \mathbf x_t)`, the Section 5 model with
    :math:`P(V_i = 1 \mid V_{\mathrm{PAR}(i)} = 1, \mathbf x) = (1 + \mathbf u_i^\top\mathbf x)/2`
    (eq. 3), sampled by :class:`mlgeom.hierarchical.label_model.HierarchicalLabelModel`. The unit
    vectors
    :math:`\mathbf u_i` (on the latent block) are *calibrated* on the drawn documents so that
    the expected conditional frequency :math:`E[\#i]/E[\#\mathrm{PAR}(i)]` equals the real
    sample's :math:`P(i \mid \mathrm{PAR}(i))` exactly (see ``_calibrate``); targets outside
    the reachable range are clamped to its nearest end and reported.

    The limit of the model (why the labels are noisy): with (3), a node whose conditional
    frequency is p needs :math:`\mathbf u_i^\top \mathbf x \approx 2p - 1` on average over
    the documents whose parent is positive; for RCV1's many rare topics (p < 0.01) that
    forces almost all of them within a narrow cone around :math:`-\mathbf u_i`, for every
    rare sibling at once, so that documents under a parent can differ only a little and the
    conditional probabilities of all its children vary only a little across documents.
    ``latent_weight`` and ``bias`` set that trade-off: larger values match more rare
    frequencies, with less signal in :math:`\mathbf x` about the labels, and paths per
    document approach the value for independent labels (about 1.84 with RCV1's frequencies,
    against 1.45 in the sample and 1.5 in the paper).

    Parameters
    ----------
    n_docs : int, default=100_000
        Number of documents (the paper: the first 100,000 RCV1 documents).
    seed : int or numpy.random.Generator
        Randomness (intended sets, words, labels: independent streams of
        :func:`mlgeom.random.spawn`).
    n_features : int, default=47_236
        Dimension d (RCV1-v2's LYRL2004 vectors have 47,236 features).
    nnz : float, default=100.0
        Target mean number of non-zeros per document.
    latent_weight : float, default=0.98
        Share λ of the squared norm in the latent block.
    bias : float, default=3.0
        Weight of the shared latent column before normalisation.
    depth_weights : tuple of float, default=(1.0, 0.3, 0.2, 0.2)
        Weights of the intended nodes' latent columns by depth (roots first).
    topic_share, topic_size, zipf_exponent : float, int, float
        Word model (see above).
    taxonomy, label_sets, targets : optional
        Default: RCV1's taxonomy, the real sample's label sets and its conditional frequencies
        (:mod:`mlgeom.hierarchical.shipped`).
    return_design : bool, default=False
        Also return a :class:`SyntheticDesign` (the u_i and the achieved statistics).

    Returns
    -------
    HierarchicalCorpus or (HierarchicalCorpus, SyntheticDesign)
        ``doc_ids`` are ``0 … n_docs - 1`` (documents are i.i.d.; their order is their "time").
    """
    if taxonomy is not None:
        check_taxonomy(taxonomy)
    from mlgeom.hierarchical.label_model import HierarchicalLabelModel

    n_docs = check_positive_int(n_docs, "n_docs")
    n_features = int(check_positive_int(n_features, "n_features"))
    lam = check_real(latent_weight, "latent_weight", low=0.0, high=1.0, high_inclusive=False)
    if lam == 0.0:
        raise ValueError(
            "latent_weight must be > 0: the labels depend on the latent block; "
            f"got {latent_weight!r}"
        )
    check_real(bias, "bias", low=0.0)
    check_real(nnz, "nnz", low=1.0)
    check_real(topic_share, "topic_share", low=0.0, high=1.0)
    topic_size = check_positive_int(topic_size, "topic_size")
    check_real(zipf_exponent, "zipf_exponent", low=0.0, low_inclusive=False)
    if zipf_exponent == 1.0:
        raise ValueError("zipf_exponent must differ from 1 (continuous inverse-CDF sampler)")
    if taxonomy is None or label_sets is None or targets is None:
        from mlgeom.hierarchical import shipped

        taxonomy = shipped.rcv1_taxonomy() if taxonomy is None else taxonomy
        if label_sets is None:
            label_sets = shipped.load_rcv1_sample().V
        if targets is None:
            stats = shipped.rcv1_label_stats()
            targets = [0.0 if c is None else c for c in stats["conditional_frequency"]]
    G = taxonomy
    sets = sp.csr_matrix(label_sets, dtype=np.int8)
    if sets.shape[1] != G.n_nodes or sets.shape[0] == 0:
        raise ValueError(f"label_sets must be (n_sets >= 1, {G.n_nodes}); got shape {sets.shape}")
    if not _respects(sets, G).all():
        raise ValueError("label_sets must respect the taxonomy (closed upward)")
    tg = _as_floats(targets, "targets").reshape(-1)
    if tg.shape != (G.n_nodes,) or np.any((tg < 0) | (tg > 1)) or not np.all(np.isfinite(tg)):
        raise ValueError(f"targets must be {G.n_nodes} frequencies in [0, 1]; got {targets!r}")
    dw = _as_floats(depth_weights, "depth_weights")
    if dw.shape != (G.max_depth + 1,) or np.any(dw < 0) or not np.all(np.isfinite(dw)):
        raise ValueError(
            f"depth_weights must be {G.max_depth + 1} non-negative weights (one per depth); "
            f"got {depth_weights!r}"
        )
    N = G.n_nodes
    if n_features < N + 2:
        raise ValueError(
            f"n_features must be at least {N + 2} (latent block + a word); got {n_features}"
        )
    X, Z, cal, rng_labels = _synthetic_parts(
        n_docs, seed, n_features, float(nnz), lam, float(bias), dw,
        float(topic_share), topic_size, float(zipf_exponent), G, sets, tg,
    )  # fmt: skip
    # Section 5 labels; u_i is zero on the word columns, so the margins u_i^T x only involve
    # the latent block: the model on (Z, U_latent) gives the same margins as on (X, U)
    V = HierarchicalLabelModel(G, cal.U).sample(Z, rng_labels)
    corpus = HierarchicalCorpus(
        X,
        sp.csr_matrix(V, dtype=np.int8),
        G,
        "synthetic RCV1-like (Section 5 model)",
        np.arange(n_docs, dtype=np.int64),
        (
            f"synthetic: {n_docs:,} documents, d = {n_features:,}, RCV1-v2 taxonomy, labels "
            "from the Section 5 model calibrated to the real RCV1 sample's P(node | parent)"
        ),
    )
    if not return_design:
        return corpus
    U = np.zeros((N, n_features))
    U[:, : N + 1] = cal.U
    params = {
        "n_docs": n_docs,
        "n_features": n_features,
        "nnz": float(nnz),
        "latent_weight": lam,
        "bias": float(bias),
        "depth_weights": dw.tolist(),
        "topic_share": float(topic_share),
        "topic_size": topic_size,
        "zipf_exponent": float(zipf_exponent),
    }
    design = SyntheticDesign(
        U, tg.copy(), cal.expected_conditional, cal.clamped,
        label_statistics(V, G, X), params,
    )  # fmt: skip
    freeze_arrays(design)
    return corpus, design
