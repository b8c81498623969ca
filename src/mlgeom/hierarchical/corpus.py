r"""Hierarchical text corpora: a container, label statistics and the protocols' splits.

A :class:`HierarchicalCorpus` is what every loader of the hierarchical-classification chapter
returns (Cesa-Bianchi, Gentile & Zaniboni 2006, Section 8): sparse unit-norm document vectors
``X``, ancestor-closed multilabels ``V`` that respect a taxonomy ``G`` (Section 2), document ids
in chronological order where known, and a one-line provenance for table captions.

The experimental protocols of Section 8 are :func:`chronological_splits` (RCV1: "5 equally sized
groups of chronologically consecutive documents … each adjacent pair of groups as training and
test set … the fifth and first group are considered adjacent") and :func:`random_splits`
(OHSUMED: "5 experiments by randomly splitting the corpus in a training set of 40,000 documents
and a test set of 15,503 documents").

The synthetic RCV1-like corpus is in :mod:`mlgeom.hierarchical.synthetic`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from mlgeom._validation import check_positive_int
from mlgeom.book.data import DataError
from mlgeom.hierarchical.taxonomy import Taxonomy, check_taxonomy
from mlgeom.random import Seed, spawn

__all__ = [
    "CorpusFormatError",
    "HierarchicalCorpus",
    "chronological_splits",
    "label_statistics",
    "paths_per_document",
    "random_splits",
]

_NORM_TOL = 1e-6


class CorpusFormatError(DataError):
    """A corpus file that does not follow its format (the message names the file and line)."""


@dataclass(frozen=True)
class HierarchicalCorpus:
    """Documents, their multilabels and the taxonomy they respect.

    Parameters
    ----------
    X : scipy.sparse.csr_matrix
        ``(n, d)`` float64 document vectors with unit-norm rows (Section 8: "instances have been
        normalized to unit length").
    V : scipy.sparse.csr_matrix
        ``(n, N)`` int8 0/1 multilabels, each respecting ``taxonomy`` (Section 2).
    taxonomy : Taxonomy
        The forest G over the ``N`` classes.
    name : str
        What the corpus is, e.g. ``"synthetic RCV1-like (Section 5 model)"``.
    doc_ids : numpy.ndarray
        ``(n,)`` int64 document ids; increasing means chronological where that is known.
    provenance : str
        One line for table captions (source, transformation, size).

    Raises
    ------
    ValueError
        On a sparse matrix whose index arrays are inconsistent (a column index outside its
        shape, a decreasing or mis-sized ``indptr``: checked before any product, which would
        read out of bounds), inconsistent shapes, rows that are not unit norm, entries of ``V``
        other than 0/1, or a multilabel that does not respect the taxonomy (naming the first
        offending row).
    """

    X: sp.csr_matrix
    V: sp.csr_matrix
    taxonomy: Taxonomy
    name: str
    doc_ids: np.ndarray
    provenance: str = field(default="")

    def __post_init__(self) -> None:
        check_taxonomy(self.taxonomy)
        X = _checked_csr(self.X, "X", np.float64)
        V = _checked_csr(self.V, "V", np.int8)
        ids = np.asarray(self.doc_ids, dtype=np.int64).reshape(-1)
        n = X.shape[0]
        if V.shape != (n, self.taxonomy.n_nodes):
            raise ValueError(
                f"V must have shape ({n}, {self.taxonomy.n_nodes}) (documents x taxonomy nodes); "
                f"got {V.shape}"
            )
        if ids.shape != (n,):
            raise ValueError(f"doc_ids must have {n} entries; got {ids.shape[0]}")
        if X.nnz and not np.all(np.isfinite(X.data)):
            raise ValueError("X has non-finite entries")
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        bad = np.flatnonzero(np.abs(norms - 1.0) > _NORM_TOL)
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"row {i} of X has norm {norms[i]:.6g}; rows must have unit norm")
        if V.nnz and not np.all(V.data == 1):
            V.eliminate_zeros()
            if not np.all(V.data == 1):
                i = int(np.flatnonzero(V.data != 1)[0])
                raise ValueError(f"V has the entry {V.data[i]}; multilabels are 0/1")
        ok = _respects(V, self.taxonomy)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            labels = [self.taxonomy.names[j] for j in V[i].indices]
            raise ValueError(f"multilabel of row {i} ({labels}) does not respect the taxonomy")
        ids.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "V", V)
        object.__setattr__(self, "doc_ids", ids)

    @property
    def n_docs(self) -> int:
        """Number of documents."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Dimension ``d`` of the document vectors."""
        return int(self.X.shape[1])

    def subset(self, index: Any, *, name: str | None = None) -> HierarchicalCorpus:
        """Return the documents ``index`` (an integer array or a boolean mask), same taxonomy."""
        idx = np.asarray(index)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        return HierarchicalCorpus(
            self.X[idx],
            self.V[idx],
            self.taxonomy,
            self.name if name is None else name,
            self.doc_ids[idx],
            self.provenance,
        )

    def __repr__(self) -> str:
        return (
            f"HierarchicalCorpus({self.name!r}, n_docs={self.n_docs}, "
            f"n_features={self.n_features}, n_classes={self.taxonomy.n_nodes})"
        )


def _checked_csr(M: Any, name: str, dtype: type) -> sp.csr_matrix:
    """``M`` as a CSR matrix of ``dtype`` whose index arrays are in bounds and consistent.

    scipy builds a CSR matrix from ``(data, indices, indptr)`` without checking that the
    column indices fit its shape; a product with such a matrix reads (and writes) out of
    bounds, which can crash the interpreter. This is the full check, once, at the boundary.
    """
    if sp.issparse(M):
        csr = M.tocsr()
        indptr, indices = np.asarray(csr.indptr), np.asarray(csr.indices)
        n, d = csr.shape
        problem = None
        if indptr.ndim != 1 or indptr.size != n + 1:
            problem = f"indptr has {indptr.size} entries for {n} rows (needs {n + 1})"
        elif indptr[0] != 0 or np.any(np.diff(indptr) < 0):
            problem = "indptr does not start at 0 and increase"
        elif indptr[-1] > min(indices.size, csr.data.size):
            problem = f"indptr ends at {int(indptr[-1])} but only {indices.size} indices are stored"
        elif indices[: indptr[-1]].size and (
            indices[: indptr[-1]].min() < 0 or indices[: indptr[-1]].max() >= d
        ):
            bad = indices[: indptr[-1]]
            col = int(bad.min() if bad.min() < 0 else bad.max())
            problem = f"column index {col} is outside 0 … {d - 1}"
        if problem is not None:
            raise ValueError(f"{name} is not a valid {n} x {d} CSR matrix: {problem}")
    try:
        return sp.csr_matrix(M, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a 2-D numeric (sparse) matrix; got {exc}") from None


def _respects(V: sp.csr_matrix, taxonomy: Taxonomy) -> np.ndarray:
    """Row-wise 'respects G' on a sparse 0/1 matrix without densifying all of it."""
    child = np.flatnonzero(taxonomy.parent >= 0)
    if child.size == 0:
        return np.ones(V.shape[0], dtype=bool)
    P = sp.csr_matrix(
        (np.ones(child.size), (child, taxonomy.parent[child])),
        shape=(taxonomy.n_nodes, taxonomy.n_nodes),
    )
    # C[r, p] = 1 when row r has a positive child of p; a violation is C[r, p] = 1 with V[r, p] = 0
    Vf = sp.csr_matrix(V, dtype=np.float64)
    C = sp.csr_matrix(Vf @ P)
    C.data = (C.data > 0).astype(np.float64)
    violated = sp.csr_matrix(C - C.multiply(Vf))
    violated.eliminate_zeros()
    return np.diff(violated.indptr) == 0


# ---------------------------------------------------------------------- label statistics
def paths_per_document(V: Any, taxonomy: Taxonomy) -> np.ndarray:
    """Count the paths of each multilabel: positive nodes none of whose children is positive.

    A multilabel respecting G is a union of root-starting paths (Section 2); its number of
    (maximal) paths is the number of its positive nodes with no positive child.
    """
    check_taxonomy(taxonomy)
    Vb = taxonomy.as_multilabels(V, "V")
    has_pos_child = np.zeros_like(Vb)
    child = np.flatnonzero(taxonomy.parent >= 0)
    for i in child:
        has_pos_child[:, taxonomy.parent[i]] |= Vb[:, i]
    return (Vb & ~has_pos_child).sum(axis=1).astype(np.int64)


def label_statistics(V: Any, taxonomy: Taxonomy, X: Any = None) -> dict[str, Any]:
    """Summary statistics of a batch of multilabels (and optionally of the documents).

    Parameters
    ----------
    V : array_like or sparse matrix
        ``(n, N)`` 0/1 multilabels respecting ``taxonomy``.
    taxonomy : Taxonomy
        The forest.
    X : sparse matrix, optional
        The documents, for non-zeros per document.

    Returns
    -------
    dict
        ``n_docs``; per node (by index) ``count``, ``frequency`` P(node) and
        ``conditional_frequency`` P(node | parent) (P(node) for roots; ``None`` when the parent
        never occurs); ``labels_per_doc`` and ``paths_per_doc`` (mean and histogram);
        ``docs_without_label``; ``depth_distribution`` of the taxonomy's nodes; with ``X``,
        ``nnz_per_doc`` (mean, median, 5% and 95% quantiles).
    """
    check_taxonomy(taxonomy)
    Vb = taxonomy.as_multilabels(V, "V")
    n = Vb.shape[0]
    count = Vb.sum(axis=0).astype(np.int64)
    par = taxonomy.parent
    denom = np.where(par >= 0, count[np.maximum(par, 0)], n)
    cond = [None if d == 0 else float(c) / float(d) for c, d in zip(count, denom, strict=True)]
    paths = paths_per_document(Vb, taxonomy)
    labels = Vb.sum(axis=1)
    out: dict[str, Any] = {
        "n_docs": int(n),
        "nodes": list(taxonomy.names),
        "parent": [int(p) for p in par],
        "count": [int(c) for c in count],
        "frequency": [float(c) / n if n else None for c in count],
        "conditional_frequency": cond,
        "labels_per_doc": {
            "mean": float(labels.mean()) if n else None,
            "histogram": np.bincount(labels).tolist(),
        },
        "paths_per_doc": {
            "mean": float(paths.mean()) if n else None,
            "histogram": np.bincount(paths).tolist(),
        },
        "docs_without_label": int((labels == 0).sum()),
        "depth_distribution": (np.bincount(taxonomy.depth) / taxonomy.n_nodes).tolist(),
    }
    if X is not None:
        nnz = np.diff(sp.csr_matrix(X).indptr)
        out["nnz_per_doc"] = {
            "mean": float(nnz.mean()),
            "median": float(np.median(nnz)),
            "q05": float(np.quantile(nnz, 0.05)),
            "q95": float(np.quantile(nnz, 0.95)),
        }
    return out


# ---------------------------------------------------------------------- splits (Section 8)
def chronological_splits(
    corpus: HierarchicalCorpus, n_groups: int = 5
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split as in Section 8 for RCV1: train on group ``j``, test on group ``j + 1``.

    Documents are ordered by ``doc_ids`` (chronological), cut into ``n_groups`` consecutive
    groups of equal size (sizes differ by at most one when ``n`` is not a multiple), and
    paired ``(1, 2), (2, 3), …, (n_groups, 1)`` ("the fifth and first group are considered
    adjacent").

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        ``n_groups`` pairs of int64 row indices into the corpus, ``(train, test)``.
    """
    n_groups = check_positive_int(n_groups, "n_groups", minimum=2)
    if corpus.n_docs < n_groups:
        raise ValueError(f"cannot cut {corpus.n_docs} documents into {n_groups} groups")
    order = np.argsort(corpus.doc_ids, kind="stable").astype(np.int64)
    groups = np.array_split(order, n_groups)
    return [(groups[j], groups[(j + 1) % n_groups]) for j in range(n_groups)]


def random_splits(
    corpus: HierarchicalCorpus,
    n_splits: int,
    n_train: int,
    seed: Seed,
    *,
    n_test: int | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split as in Section 8 for OHSUMED: independent random train/test splits.

    Parameters
    ----------
    corpus : HierarchicalCorpus
        The documents.
    n_splits : int
        Number of splits (the paper: 5).
    n_train : int
        Training documents per split (the paper: 40,000 of 55,503).
    seed : int or numpy.random.Generator
        Randomness; split ``k`` uses the ``k``-th generator of :func:`mlgeom.random.spawn`.
    n_test : int, optional
        Test documents per split (default: all the others, 15,503 in the paper).

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        ``(train, test)`` int64 row indices, disjoint; each in the random order of the split
        (the order the online learners see them).
    """
    n_splits = check_positive_int(n_splits, "n_splits")
    n_train = check_positive_int(n_train, "n_train")
    rest = corpus.n_docs - n_train
    if rest < 1:
        raise ValueError(f"n_train={n_train} leaves no test document out of {corpus.n_docs}")
    if n_test is None:
        n_test = rest
    n_test = check_positive_int(n_test, "n_test")
    if n_test > rest:
        raise ValueError(f"n_train + n_test = {n_train + n_test} exceeds {corpus.n_docs} documents")
    out = []
    for rng in spawn(seed, n_splits):
        perm = rng.permutation(corpus.n_docs).astype(np.int64)
        out.append((perm[:n_train], perm[n_train : n_train + n_test]))
    return out
