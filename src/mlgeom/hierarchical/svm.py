r"""Batch baselines of Section 8: hierarchical (H-SVM) and flat linear SVMs, one per node.

Cesa-Bianchi, Gentile & Zaniboni (2006, Section 8) train "a hierarchical version of SVM
(denoted by H-SVM) in which each node is an SVM classifier trained using a batch version of our
hierarchical learning protocol": node :math:`i` sees only the examples with
:math:`v_{\mathrm{PAR}(i)} = 1` (roots: all), and the resulting linear-threshold functions are
evaluated top-down by eq. (15). The flat SVM trains every node on every example and evaluates
the nodes independently. Linear kernel, :math:`C = 1` (chosen by the authors in hindsight over
:math:`[0.1, 10]`), libSVM.

Solver
------
Default: scikit-learn's :class:`~sklearn.svm.LinearSVC` (liblinear) with ``loss="hinge"``:
libSVM's C-SVC, which the paper used, minimises
:math:`\tfrac12\|\mathbf w\|^2 + C\sum_t \max(0, 1 - y_t(\mathbf w^\top\mathbf x_t + b))`,
the *hinge* (L1-SVM) objective; ``"squared_hinge"`` (liblinear's default) is a different
problem (L2-SVM), so it is available but not the default. liblinear's dual coordinate descent
solves the same objective as libSVM except that it regularizes the bias (it appends a constant
feature ``intercept_scaling`` to every instance); ``solver="libsvm"`` runs
:class:`~sklearn.svm.SVC` with ``kernel="linear"`` (the paper's libSVM, unregularized bias,
slower) and the tests compare the two on a small set. Speed: liblinear's dual coordinate
descent for the hinge loss can need thousands of passes when the documents are strongly
correlated (on the synthetic RCV1-like corpus, whose documents share a heavy common column,
1,000–3,000 passes per root node against about 55 for the squared hinge); that is the price of
the paper's objective, and ``loss="squared_hinge"`` is the documented, faster alternative.

Nodes whose training labels are all one class (or that have no training example, e.g. a node
whose parent is never positive in the training set) get a *constant* predictor: decision
:math:`+1` if every training label is 1, :math:`-1` otherwise (no example counts as "always
0"); :attr:`constant_` marks them. Deterministic: liblinear's random coordinate order is seeded
by ``random_state``.

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.

R.-E. Fan, K.-W. Chang, C.-J. Hsieh, X.-R. Wang, C.-J. Lin. LIBLINEAR: a library for large
linear classification. JMLR 9 (2008) 1871–1874.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, LinearSVC

from mlgeom._validation import check_in, check_positive_int, check_real
from mlgeom.hierarchical.learners import _canonical_csr, _check_multilabels
from mlgeom.hierarchical.taxonomy import Taxonomy

__all__ = ["FlatSVM", "HierarchicalSVM"]

_LOSSES = ("hinge", "squared_hinge")
_SOLVERS = ("liblinear", "libsvm")


class _NodeSVMs:
    """One linear SVM per node; shared by :class:`HierarchicalSVM` and :class:`FlatSVM`."""

    hierarchical: bool = True

    def __init__(
        self,
        taxonomy: Taxonomy,
        C: float = 1.0,  # noqa: N803 - the paper's and scikit-learn's name
        *,
        loss: str = "hinge",
        solver: str = "liblinear",
        intercept_scaling: float = 1.0,
        tol: float = 1e-4,
        max_iter: int = 10_000,
        random_state: int = 0,
    ) -> None:
        if not isinstance(taxonomy, Taxonomy):
            raise TypeError(f"taxonomy must be a mlgeom.hierarchical.Taxonomy; got {taxonomy!r}")
        self.taxonomy = taxonomy
        self.C = check_real(C, "C", low=0.0, low_inclusive=False)
        self.loss = check_in(loss, "loss", _LOSSES)
        self.solver = check_in(solver, "solver", _SOLVERS)
        if self.solver == "libsvm" and self.loss != "hinge":
            raise ValueError("solver='libsvm' (C-SVC) minimises the hinge loss; use loss='hinge'")
        self.intercept_scaling = check_real(
            intercept_scaling, "intercept_scaling", low=0.0, low_inclusive=False
        )
        self.tol = check_real(tol, "tol", low=0.0, low_inclusive=False)
        self.max_iter = check_positive_int(max_iter, "max_iter")
        self.random_state = check_positive_int(random_state, "random_state", minimum=0)

    def _estimator(self) -> Any:
        if self.solver == "libsvm":
            return SVC(kernel="linear", C=self.C, tol=self.tol, max_iter=-1)
        return LinearSVC(
            C=self.C,
            loss=self.loss,
            dual=True,
            tol=self.tol,
            max_iter=self.max_iter,
            intercept_scaling=self.intercept_scaling,
            random_state=self.random_state,
        )

    def training_rows(self, V: Any, i: int) -> np.ndarray:
        """Rows node ``i`` is trained on: all (flat, roots) or those with ``V[:, PAR(i)] = 1``."""
        Vb = self.taxonomy.as_multilabels(V, "V")
        i = self.taxonomy._check_node(i)
        p = int(self.taxonomy.parent[i])
        if not self.hierarchical or p < 0:
            return np.arange(Vb.shape[0])
        return np.flatnonzero(Vb[:, p])

    def fit(self, X: Any, V: Any) -> _NodeSVMs:
        """Train one SVM per node on its training rows (see :meth:`training_rows`).

        Parameters
        ----------
        X : scipy sparse matrix or array_like
            ``(n, d)`` instances (the paper's are unit norm).
        V : array_like or sparse matrix
            ``(n, N)`` 0/1 multilabels respecting the taxonomy.

        Returns
        -------
        self
        """
        M = _canonical_csr(X, None, "X")
        Vb = _check_multilabels(self.taxonomy, V, M.shape[0])
        N, d = self.taxonomy.n_nodes, M.shape[1]
        coef = np.zeros((N, d))
        intercept = np.zeros(N)
        constant = np.zeros(N, dtype=bool)
        converged = np.ones(N, dtype=bool)
        n_train = np.zeros(N, dtype=np.int64)
        for i in range(N):
            rows = self.training_rows(Vb, i)
            n_train[i] = rows.size
            y = Vb[rows, i].astype(np.int64)
            if rows.size == 0 or y.min() == y.max():
                constant[i] = True
                intercept[i] = 1.0 if rows.size and y[0] == 1 else -1.0
                continue
            est = self._estimator()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                est.fit(M[rows], y)
            w = est.coef_
            coef[i] = w.toarray().ravel() if sp.issparse(w) else np.asarray(w).ravel()
            intercept[i] = float(np.ravel(est.intercept_)[0])
            n_iter = np.max(np.atleast_1d(est.n_iter_))
            converged[i] = self.solver == "libsvm" or n_iter < self.max_iter
        self.coef_, self.intercept_ = coef, intercept
        self.constant_, self.converged_, self.n_train_ = constant, converged, n_train
        self.n_features_ = d
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            raise RuntimeError(f"this {type(self).__name__} is not fitted; call fit(X, V) first")

    def decision_function(self, X: Any) -> np.ndarray:
        r""":math:`\mathbf w_i^\top\mathbf x + b_i` for every row and node, ``(n, N)`` float."""
        self._check_fitted()
        M = _canonical_csr(X, self.n_features_, "X")
        return np.asarray(M @ self.coef_.T) + self.intercept_

    def predict(self, X: Any) -> np.ndarray:
        """Predict ``(n, N)`` bool multilabels: top-down by eq. (15) (H-SVM) or flat (SVM)."""
        pos = self.decision_function(X) >= 0.0  # {w·x + b >= 0}, as eq. (15)
        if not self.hierarchical:
            return pos
        out = np.zeros_like(pos)
        for i in self.taxonomy.order:
            p = self.taxonomy.parent[i]
            out[:, i] = pos[:, i] if p < 0 else pos[:, i] & out[:, p]
        return out

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(N={self.taxonomy.n_nodes}, C={self.C}, loss={self.loss!r}, "
            f"solver={self.solver!r})"
        )


class HierarchicalSVM(_NodeSVMs):
    r"""H-SVM (Section 8): the hierarchical linear SVM.

    Node :math:`i` is trained only on the examples with :math:`v_{\mathrm{PAR}(i)} = 1` (roots:
    all); prediction is top-down (eq. 15).

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest G.
    C : float, default=1.0
        Regularization constant (the paper's choice).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        liblinear's loss (hinge = libSVM's C-SVC objective; see the module docstring).
    solver : {"liblinear", "libsvm"}, default="liblinear"
        :class:`~sklearn.svm.LinearSVC` or :class:`~sklearn.svm.SVC` with a linear kernel.
    intercept_scaling : float, default=1.0
        liblinear's constant feature for the (regularized) bias.
    tol : float, default=1e-4
        Solver tolerance.
    max_iter : int, default=10000
        liblinear's iteration limit; :attr:`converged_` records whether it was reached.
    random_state : int, default=0
        Seed of liblinear's coordinate order.

    Attributes
    ----------
    coef_ : numpy.ndarray
        ``(N, d)`` weights (zero rows for constant nodes).
    intercept_ : numpy.ndarray
        ``(N,)`` biases (:math:`\pm1` for constant nodes).
    constant_ : numpy.ndarray
        ``(N,)`` bool, nodes whose training labels were all one class (or absent).
    n_train_ : numpy.ndarray
        ``(N,)`` training examples per node.
    converged_ : numpy.ndarray
        ``(N,)`` bool, liblinear stopped before ``max_iter``.

    Examples
    --------
    >>> from mlgeom.hierarchical.taxonomy import Taxonomy
    >>> G = Taxonomy([-1, 0])
    >>> X = [[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [-1.0, 0.0]]
    >>> V = [[1, 1], [1, 0], [0, 0], [0, 0]]
    >>> svm = HierarchicalSVM(G).fit(X, V)
    >>> svm.n_train_.tolist(), svm.predict([[1.0, 0.0], [0.0, 1.0]]).tolist()
    ([4, 2], [[True, True], [False, False]])
    """

    hierarchical = True


class FlatSVM(_NodeSVMs):
    """Flat SVM (Section 8): every node trained on every example and predicted independently.

    Parameters and attributes as :class:`HierarchicalSVM`.
    """

    hierarchical = False
