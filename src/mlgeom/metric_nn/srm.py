r"""Margin-regularised multiclass nearest neighbours by structural risk minimisation (Section 4).

Kontorovich & Weiss [1]_ bound the risk of every :math:`h \in H_L` by its empirical loss plus a
complexity term (eq. 11), :math:`P(g(X) \ne Y) \le \hat{\mathbb E}[\mathcal L] + \Delta(n, L,
\delta)`, and choose :math:`L` to minimise the right-hand side:

1. for each :math:`L`, the fewest inconsistent points :math:`\hat m(L)` is a minimum vertex cover
   of the conflict graph :math:`G_L`; a maximal matching gives :math:`\tilde m(L) \le 2\hat m(L)`
   (:mod:`mlgeom.metric_nn.vertex_cover`);
2. :math:`Q(L) = \tilde m(L) + \Delta(n, L, \delta)` (eq. 13) is minimised approximately by a
   binary search over the :math:`O(n^2)` candidate values :math:`2/d(X_i, X_j)` and the limit
   :math:`L \to 0` (where every bichromatic pair conflicts and the rule is one class), which
   guarantees
   :math:`Q(\tilde L) \le 4[\hat m(L^*) + \Delta(n, L^*, \delta)]` (eq. 14);
3. the cover at :math:`\tilde L` is :math:`S_0`; the rest, :math:`S_1`, is consistent with
   margin :math:`\ge 1`, and a test point gets the label of its nearest neighbour in
   :math:`S_1`, or equivalently :math:`\arg\max_y h(x, y)` with :math:`h` of eq. (16).

Reading the paper
-----------------
* **Units of Q.** Eq. (13) adds the *count* :math:`\tilde m(L)` to the *probability*
  :math:`\Delta`; the bound it comes from (eq. 11) adds the empirical *loss*
  :math:`\hat m(L)/n`. We implement the evident intent :math:`Q(L) = \tilde m(L)/n + \Delta`
  (``q_form="rate"``, default) and keep the printed form as ``q_form="printed"``.
* **Scale.** The paper assumes :math:`\operatorname{diam}(\mathcal X) = 1`; we divide all
  distances by the diameter of the training sample (``scale_``), so candidate values satisfy
  :math:`L \ge 2`.
* **The binary search** (Theorem 7 of Gottlieb et al. 2010, cited in Section 4) is the search
  for the crossing of the non-increasing :math:`\tilde m/n` and the increasing :math:`\Delta`:
  with :math:`c` the first candidate where :math:`\tilde m(L_c)/n \le \Delta(L_c)`, the better of
  :math:`L_{c-1}, L_c` has :math:`Q \le 2 \min_L Q`; with :math:`\tilde m \le 2 \hat m` this is
  eq. (14)'s factor 4.

References
----------
.. [1] A. Kontorovich and R. Weiss, "Maximum Margin Multiclass Nearest Neighbors", ICML 2014.
.. [2] L. Gottlieb, A. Kontorovich and R. Krauthgamer, "Efficient classification for metric
   data", COLT 2010.
.. [3] U. von Luxburg and O. Bousquet, "Distance-based classification with Lipschitz
   functions", JMLR 5, 669-695, 2004.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from mlgeom._validation import check_indices, check_matrix, check_positive_int, check_real
from mlgeom.metric_nn import bounds as margin_bounds
from mlgeom.metric_nn.index import MetricBallTree
from mlgeom.metric_nn.perturbation import delta_eta
from mlgeom.metric_nn.spaces import (
    METRICS,
    check_distance_matrix,
    check_metric_input,
    doubling_dimension,
    pairwise_distances,
)
from mlgeom.metric_nn.vertex_cover import ConflictPairs, _check_L_values, prune_cover

__all__ = ["QCurve", "SRMNearestNeighbors", "binary_search_crossing", "margin_function"]


@dataclass(frozen=True)
class QCurve:
    """The SRM objective at a set of Lipschitz constants (ascending)."""

    L: np.ndarray
    m_tilde: np.ndarray
    delta: np.ndarray
    Q: np.ndarray
    edges: np.ndarray  #: number of edges of G_L at each L


def binary_search_crossing(
    m_of: Callable[[int], float], delta_of: Callable[[int], float], n_candidates: int
) -> tuple[int, list[int]]:
    r"""Approximate :math:`\arg\min_c\, m(c) + \Delta(c)` (``m`` non-increasing, ``Δ`` increasing).

    Binary search for the first index :math:`c` with :math:`m(c) \le \Delta(c)`; return the
    better of :math:`c - 1` and :math:`c` (Section 4; Gottlieb et al. 2010, Theorem 7). For every
    index :math:`j`: if :math:`j \ge c`, :math:`Q(c) \le 2\Delta(c) \le 2\Delta(j) \le 2Q(j)`; if
    :math:`j < c`, :math:`Q(c-1) < 2m(c-1) \le 2m(j) \le 2Q(j)`. So the result is within a factor
    2 of the minimum, using :math:`O(\log N)` evaluations.

    Parameters
    ----------
    m_of, delta_of : callable
        ``m_of(c)``, ``delta_of(c)`` at candidate index ``c``.
    n_candidates : int
        Number of candidates ``N`` (>= 1).

    Returns
    -------
    best : int
        The chosen index.
    probes : list of int
        The indices evaluated, in order.
    """
    n_candidates = check_positive_int(n_candidates, "n_candidates")
    probes: list[int] = []
    cache: dict[int, tuple[float, float]] = {}

    def ev(c: int) -> tuple[float, float]:
        if c not in cache:
            probes.append(c)
            cache[c] = (float(m_of(c)), float(delta_of(c)))
        return cache[c]

    lo, hi = 0, n_candidates  # first c in [lo, hi) with m <= delta; hi means "none"
    while lo < hi:
        mid = (lo + hi) // 2
        m, d = ev(mid)
        if m <= d:
            hi = mid
        else:
            lo = mid + 1
    if lo == n_candidates:  # m > delta everywhere: the last candidate (Q < 2 m <= 2 Q(j))
        ev(n_candidates - 1)
        return n_candidates - 1, probes
    if lo == 0:
        return 0, probes
    q = {c: sum(ev(c)) for c in (lo - 1, lo)}
    return min(q, key=lambda c: (q[c], c)), probes


def margin_function(dist: np.ndarray, y_s1: np.ndarray, n_classes: int, L: float) -> np.ndarray:
    r"""Evaluate the margin function of eq. (16) from the distances to :math:`S_1`.

    :math:`h(x, y) = \tfrac12\big(\min_{S_1}\{\xi(y, y') + L d(x, x')\}
    + \max_{S_1}\{\xi(y, y') - L d(x, x')\}\big)`,

    with :math:`\xi(y, y') = 2\cdot 1\{y = y'\} - 1`. Only the nearest point of each class
    matters, so with :math:`d_y = d(x, S_1^y)` and :math:`d_{\neg y} = \min_{y' \ne y} d_{y'}`,
    :math:`h(x, y) = \tfrac12(\min\{1 + L d_y, -1 + L d_{\neg y}\} + \max\{1 - L d_y,
    -1 - L d_{\neg y}\})`.

    Parameters
    ----------
    dist : numpy.ndarray, shape (m, |S_1|)
        Distances (already divided by the training diameter) from test points to :math:`S_1`.
    y_s1 : numpy.ndarray of int, shape (|S_1|,)
        Class indices of :math:`S_1` in ``0..n_classes-1``.
    n_classes : int
        Number of classes :math:`k`.
    L : float
        Lipschitz constant.

    Returns
    -------
    numpy.ndarray, shape (m, n_classes)
        :math:`h(x, y)` in :math:`[-1, 1]`.
    """
    dist = check_matrix(dist, "dist")
    if np.any(dist < 0):
        at = tuple(int(i) for i in np.argwhere(dist < 0)[0])
        raise ValueError(f"dist must be >= 0; got {dist[at]} at index {at}")
    n_classes = check_positive_int(n_classes, "n_classes")
    y_s1 = check_indices(y_s1, "y_s1", n=n_classes, ndim=1)
    if y_s1.shape[0] != dist.shape[1]:
        raise ValueError(
            f"y_s1 must have one label per column of dist ({dist.shape[1]}); got {y_s1.shape[0]}"
        )
    L = check_real(L, "L", low=0.0)
    m = dist.shape[0]
    d_cls = np.full((m, n_classes), np.inf)
    for c in range(n_classes):
        cols = y_s1 == c
        if np.any(cols):
            d_cls[:, c] = dist[:, cols].min(axis=1)
    # nearest distance to any other class: the smallest, or the second smallest for the argmin
    order = np.argsort(d_cls, axis=1, kind="stable")
    first = np.take_along_axis(d_cls, order[:, :1], axis=1)
    second = np.take_along_axis(d_cls, order[:, 1:2], axis=1) if n_classes > 1 else np.inf
    d_not = np.where(np.arange(n_classes)[None, :] == order[:, :1], second, first)
    # A class absent from S_1 is infinitely far at every L, also in the limit L -> 0
    # (0 * inf would give NaN).
    with np.errstate(invalid="ignore"):
        Ld_cls = np.where(np.isinf(d_cls), np.inf, L * d_cls)
        Ld_not = np.where(np.isinf(d_not), np.inf, L * d_not)
    lo = np.minimum(1.0 + Ld_cls, -1.0 + Ld_not)
    hi = np.maximum(1.0 - Ld_cls, -1.0 - Ld_not)
    return 0.5 * (lo + hi)


# Declared parameters: name -> (description used in messages, validator returning bool).
def _in_open01(v: Any) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool) and 0 < v < 1


def _positive(v: Any) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool) and np.isfinite(v) and v > 0


_PARAMETER_CONSTRAINTS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "metric": (
        "one of 'euclidean', 'l1', 'chebyshev', 'edit', 'precomputed' or a callable",
        lambda v: callable(v) or v in (*METRICS, "precomputed"),
    ),
    "delta": ("a real number in (0, 1)", _in_open01),
    "ddim": ("a real number > 0 or 'auto'", lambda v: v == "auto" or _positive(v)),
    "c_D": ("a real number > 0", _positive),
    "bound": ("one of 'min', 'rad', 'fat'", lambda v: v in margin_bounds.BOUNDS),
    "search": ("one of 'binary', 'exhaustive'", lambda v: v in ("binary", "exhaustive")),
    "q_form": ("one of 'rate', 'printed'", lambda v: v in ("rate", "printed")),
    "algorithm": ("one of 'brute', 'tree'", lambda v: v in ("brute", "tree")),
    "eta": (
        "a real number >= 0",
        lambda v: isinstance(v, Real) and not isinstance(v, bool) and np.isfinite(v) and v >= 0,
    ),
    "fat_factor": ("a real number > 0", _positive),
    "prune_cover": ("a bool", lambda v: isinstance(v, bool | np.bool_)),
    "classes": ("None or a sequence of labels", lambda v: v is None or np.ndim(v) == 1),
}


class SRMNearestNeighbors(ClassifierMixin, BaseEstimator):
    r"""Maximum-margin multiclass nearest neighbours (Kontorovich & Weiss 2014, Section 4).

    Parameters
    ----------
    metric : str or callable, default="euclidean"
        The metric :math:`d`: ``"euclidean"``, ``"l1"``, ``"chebyshev"``, ``"edit"``,
        ``"precomputed"`` or a callable. ``"precomputed"``: ``fit`` takes the ``(n, n)``
        training distance matrix (checked to be a metric) and ``predict`` the ``(m, n)``
        test-to-train distances.
        A callable ``metric(A, B)`` returns a distance matrix; it is checked on the training
        sample (symmetry, zero diagonal, triangle inequality on up to 300 points).
    delta : float, default=0.05
        Confidence :math:`\delta` of the bound, in (0, 1).
    ddim : float or "auto", default="auto"
        Doubling dimension :math:`D` in :math:`\Delta`; ``"auto"`` estimates it from the
        training sample (:func:`mlgeom.metric_nn.spaces.doubling_dimension`).
    c_D : float, default=1.0
        The constant of Theorem 4 (:data:`mlgeom.metric_nn.bounds.C_D_DEFAULT`).
    bound : {"min", "rad", "fat"}, default="min"
        :math:`\Delta = \min\{\Delta_{\rm Rad}, \Delta_{\rm fat}\}` (Section 3.2.4) or one of them.
    search : {"binary", "exhaustive"}, default="binary"
        The paper's binary search (eq. 14) or the exact minimum of :math:`Q` over all candidates.
    q_form : {"rate", "printed"}, default="rate"
        :math:`\tilde m(L)/n + \Delta` (evident intent) or :math:`\tilde m(L) + \Delta` (eq. 13
        as printed).
    algorithm : {"brute", "tree"}, default="brute"
        Nearest neighbour in :math:`S_1` by brute force or by the :math:`(1+\eta)` index of
        Section 5.1 (:class:`mlgeom.metric_nn.index.MetricBallTree`).
    eta : float, default=0.0
        Approximation :math:`\eta` of the index (eq. 15). With ``algorithm="tree"`` and
        :math:`\eta > 0` the SRM minimises :math:`\tilde m(L)/n + \Delta_\eta(n, L, \delta)`, the
        :math:`\eta`-perturbed bound of Section 5.1
        (:func:`mlgeom.metric_nn.perturbation.delta_eta`), since it is :math:`\tilde h`, not
        :math:`h`, that classifies.
    fat_factor : float, default=2.0
        Coefficient in Theorem 5 (see :mod:`mlgeom.metric_nn.bounds`).
    prune_cover : bool, default=True
        Return redundant vertices of the matching cover at :math:`\tilde L` to :math:`S_1`
        (:func:`mlgeom.metric_nn.vertex_cover.prune_cover`):
        :math:`|S_0| \le \tilde m(\tilde L)` still,
        and :math:`S_1` is never empty (a matching cover can be the whole sample). ``Q`` and
        the search use the matching cover :math:`\tilde m`, as in the paper.
    classes : sequence, optional
        The label set :math:`\mathcal Y` (default: the labels seen in ``fit``); every class
        must have training points, and :math:`k = |\mathcal Y|` enters :math:`\Delta`.

    Attributes
    ----------
    classes_ : numpy.ndarray
        The labels.
    L_ : float
        The chosen Lipschitz constant :math:`\tilde L` (distances divided by ``scale_``);
        ``0.0`` when the limit :math:`L \to 0` is chosen.
    scale_ : float
        Diameter of the training sample.
    ddim_ : float
        The doubling dimension used.
    m_tilde_, delta_, Q_ : float
        :math:`\tilde m(\tilde L)`, :math:`\Delta(n, \tilde L, \delta)`, :math:`Q(\tilde L)`.
    support_ : numpy.ndarray of int
        Indices of :math:`S_1` in the training sample (:math:`|S_0| = n - |S_1| \le \tilde m`).
    n_candidates_ : int
        Number of candidate values of :math:`L`, including the limit :math:`L \to 0`.
    rank_ : int
        Number of edges of :math:`G_{\tilde L}` (the chosen candidate's pair rank).
    probes_ : list of float
        The values of :math:`L` the binary search evaluated.
    pairs_ : mlgeom.metric_nn.vertex_cover.ConflictPairs
        Sorted bichromatic pairs and the greedy matching (for :meth:`q_curve`).
    """

    def __init__(
        self,
        metric: str | Callable = "euclidean",
        *,
        delta: float = 0.05,
        ddim: float | str = "auto",
        c_D: float = margin_bounds.C_D_DEFAULT,
        bound: str = "min",
        search: str = "binary",
        q_form: str = "rate",
        algorithm: str = "brute",
        eta: float = 0.0,
        fat_factor: float = 2.0,
        prune_cover: bool = True,
        classes: Any = None,
    ):
        self.metric = metric
        self.delta = delta
        self.ddim = ddim
        self.c_D = c_D
        self.bound = bound
        self.search = search
        self.q_form = q_form
        self.algorithm = algorithm
        self.eta = eta
        self.fat_factor = fat_factor
        self.prune_cover = prune_cover
        self.classes = classes
        # refuse a bad parameter at once (fit checks again, after set_params)
        self._check_params()

    # -- parameter validation, in one declared place -------------------------------------------
    def _check_params(self) -> None:
        for name, (what, ok) in _PARAMETER_CONSTRAINTS.items():
            value = getattr(self, name)
            if not ok(value):
                raise ValueError(f"{name} must be {what}; got {value!r}")
        if self.metric == "precomputed" and self.algorithm == "tree":
            raise ValueError("algorithm='tree' needs points, not metric='precomputed'")

    def _complexity(self, L: Any) -> np.ndarray:
        if self.algorithm == "tree" and self.eta > 0:  # Section 5.1: the bound of h~, not h
            return delta_eta(
                self.bound,
                self.n_train_,
                L,
                self.delta,
                self.n_classes_,
                self.ddim_,
                self.eta,
                self.c_D,
                self.fat_factor,
            )
        return margin_bounds.complexity(
            self.bound,
            self.n_train_,
            L,
            self.delta,
            self.n_classes_,
            self.ddim_,
            self.c_D,
            self.fat_factor,
        )

    def _loss(self, m_tilde: Any) -> np.ndarray:
        m = np.asarray(m_tilde, dtype=float)
        return m / self.n_train_ if self.q_form == "rate" else m

    # -- fitting ----------------------------------------------------------------------------------
    def fit(self, X: Any, y: Any) -> SRMNearestNeighbors:
        """Run the SRM of Section 4 and keep the consistent subset :math:`S_1`.

        Parameters
        ----------
        X : array_like
            Training points (rows; encoded strings for ``metric="edit"``), or the ``(n, n)``
            distance matrix for ``metric="precomputed"``.
        y : array_like, shape (n,)
            Labels.

        Returns
        -------
        self
        """
        self._check_params()
        y = np.asarray(y)
        if y.ndim != 1:
            raise ValueError(f"y must be 1-D; got shape {y.shape}")
        if self.metric == "precomputed":
            D = check_distance_matrix(X, "X (precomputed distances)")
            Xv = None
        else:
            Xv = check_metric_input(X, self.metric, "X")
            D = pairwise_distances(Xv, metric=self.metric)
            if callable(self.metric):
                check_distance_matrix(D, "metric(X, X)")
        n = D.shape[0]
        if len(y) != n:
            raise ValueError(f"X has {n} points but y has {len(y)} labels")
        seen = np.unique(y)
        if self.classes is None:
            classes = seen
        else:
            classes = np.asarray(self.classes)
            if len(np.unique(classes)) != len(classes):
                raise ValueError(f"classes must be distinct; got {self.classes!r}")
            unknown = np.setdiff1d(seen, classes)
            if len(unknown):
                raise ValueError(f"y has labels {unknown.tolist()} that are not in classes")
            empty = np.setdiff1d(classes, seen)
            if len(empty):
                raise ValueError(
                    f"class(es) {empty.tolist()} have no training points; every class needs one"
                )
            classes = np.sort(classes)
        if len(classes) < 2:
            raise ValueError(f"need at least two classes; got {classes.tolist()}")
        self.classes_ = classes
        self.n_classes_ = len(classes)
        yi = np.searchsorted(classes, y)
        self.n_train_ = n
        self.scale_ = float(D.max())
        if self.scale_ == 0:
            raise ValueError("all training points coincide (diameter 0)")
        Dn = D / self.scale_  # diam(S) = 1, as the paper assumes for X
        self.ddim_ = doubling_dimension(Dn) if self.ddim == "auto" else float(self.ddim)
        pairs = ConflictPairs.from_distances(Dn, yi)
        self.pairs_ = pairs
        cands, ranks = pairs.candidate_ranks(limit=True)  # L = 0: the limit L -> 0
        self.n_candidates_ = len(cands)
        if self.search == "binary":
            best, probes = binary_search_crossing(
                lambda c: self._loss(pairs.m_tilde_at(ranks[c])),
                lambda c: self._complexity(cands[c]),
                len(cands),
            )
            self.probes_ = [float(cands[c]) for c in probes]
        else:
            Q = self._loss(pairs.m_tilde_at(ranks)) + self._complexity(cands)
            best = int(np.argmin(Q))
            self.probes_ = [float(c) for c in cands]
        self.L_ = float(cands[best])
        self.rank_ = int(ranks[best])
        self.m_tilde_ = int(pairs.m_tilde_at(self.rank_))
        self.delta_ = float(self._complexity(self.L_))
        self.Q_ = float(self._loss(self.m_tilde_) + self.delta_)
        cover = pairs.cover_at(self.rank_)
        if self.prune_cover:
            cover = prune_cover(pairs.edges_at(self.rank_), cover)
        self.support_ = np.flatnonzero(~cover)
        self.y_support_ = yi[self.support_]
        self.X_support_ = None if Xv is None else Xv[self.support_]
        self.index_ = (
            MetricBallTree(self.X_support_, metric=self.metric)
            if self.algorithm == "tree"
            else None
        )
        return self

    def q_curve(self, L: Any = None) -> QCurve:
        r"""Evaluate :math:`Q` at the given values of :math:`L` (default: every candidate).

        The default curve starts with the limit :math:`L \to 0` (``L = 0``) and counts the
        edges at each candidate by pair rank (:meth:`ConflictPairs.candidate_ranks`).
        """
        self._check_fitted()
        if L is None:
            L, t = self.pairs_.candidate_ranks(limit=True)
        else:
            L = np.sort(_check_L_values(L))
            t = self.pairs_.prefix_length(L)
        m = self.pairs_.m_tilde_at(t)
        d = self._complexity(L)
        return QCurve(L, m, d, self._loss(m) + d, np.asarray(t))

    # -- prediction -------------------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "L_"):
            raise ValueError("this SRMNearestNeighbors is not fitted; call fit(X, y) first")

    def _support_distances(self, X: Any) -> np.ndarray:
        if self.metric == "precomputed":
            Dx = check_matrix(X, "X (precomputed test-to-train distances)", n_cols=self.n_train_)
            if np.any(Dx < 0):
                raise ValueError("X (precomputed distances) must be non-negative")
            return Dx[:, self.support_]
        X = check_metric_input(X, self.metric, "X")
        return pairwise_distances(X, self.X_support_, metric=self.metric)

    def kneighbors_support(self, X: Any) -> tuple[np.ndarray, np.ndarray]:
        """Nearest neighbour in :math:`S_1` of each row of ``X``: (distance, position in S_1)."""
        self._check_fitted()
        if self.index_ is not None:
            res = self.index_.query(check_metric_input(X, self.metric, "X"), eta=self.eta)
            return res.distances, res.indices
        Dx = self._support_distances(X)
        j = np.argmin(Dx, axis=1)
        return Dx[np.arange(len(j)), j], j

    def predict(self, X: Any) -> np.ndarray:
        """Label of the (1+η-approximate) nearest neighbour in :math:`S_1` (Sections 4, 5.1)."""
        _, j = self.kneighbors_support(X)
        return self.classes_[self.y_support_[j]]

    def decision_function(self, X: Any) -> np.ndarray:
        r"""Margin function :math:`h(x, y)` of eq. (16), shape ``(m, k)``, in :math:`[-1, 1]`."""
        self._check_fitted()
        Dx = self._support_distances(X) / self.scale_
        return margin_function(Dx, self.y_support_, self.n_classes_, self.L_)

    def predict_eq16(self, X: Any) -> np.ndarray:
        r""":math:`\arg\max_y h(x, y)` with :math:`h` of eq. (16) (ties: smallest class index)."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]
