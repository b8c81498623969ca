"""Learners for nearest-neighbour partitions (Guruganesh et al. 2021, Sections 3–4).

* :class:`HyperplaneLearner`: the ``k = 2`` reduction of Theorem 8 (Corollary 3.1): contextual
  search on ``w = x_1 − x_2``, guess the sign of the contextual-search guess ``g_t``, update only
  on mistakes. The knowledge set is kept for ``u = w/2 ∈ B_d`` (centres in ``B_d``), so that
  Algorithm 1's ``K_1 = B_d`` applies; widths of ``w`` are twice those of ``u``.
* :class:`MulticlassLearner`: Theorem 11: one :class:`HyperplaneLearner` per pair, the matrices
  ``L`` (loss bounds), ``D`` (potential decreases) and ``M = D − L/2``, a distribution ``v`` with
  ``Mv >= 0`` by linear programming (Lemma 3.2), a label sampled from ``v``, and an update of the
  pair (guess, truth) only. Feature maps give the ``L²`` (Appendix C, Theorem 15) and even-``p``
  (Appendix E.2, Theorem 12) variants.

The potential of a pair is ``Ψ = 2^α Φ / log(4/3)`` with ``Φ`` of Appendix A on ``u``: Lemma A.1
gives ``Φ(K_t) − Φ(K_{t+1}) >= log(4/3) 2^{-αi} >= log(4/3) width_u^α`` on a mistake, and the
loss is at most ``(2 width_u)^α``, so ``Ψ`` satisfies Definition 9 with ``L = (2 width_u)^α``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.optimize import linprog

from mlgeom._validation import check_in, check_matrix, check_positive_int, check_real, check_vector
from mlgeom.multiscale.contextual_search import ContextualSearch, _cone_projection
from mlgeom.multiscale.losses import _check_label
from mlgeom.random import as_generator, spawn

__all__ = ["HyperplaneLearner", "MulticlassLearner", "lemma32_distribution", "cone_extent"]

LOG43 = math.log(4.0 / 3.0)


def cone_extent(A: np.ndarray, q: np.ndarray, radius: float = 1.0) -> tuple[float, float]:
    """Exact ``(min, max)`` of ``⟨q, u⟩`` over ``radius·B_d ∩ {A u <= 0}`` (homogeneous cuts).

    Moreau: ``max_{u ∈ C, ‖u‖<=1} ⟨q, u⟩ = ‖Π_C(q)‖`` for a closed convex cone ``C``, and
    ``Π_C(q) = q − Aᵀλ`` with ``λ = argmin_{λ>=0} ‖Aᵀλ − q‖`` (NNLS on the polar cone). A fast
    path for the learners' knowledge sets (all cuts pass through the origin), checked against
    the LP width in the tests. When NNLS stops at scipy's default iteration cap (ill-conditioned
    cuts), it is rerun with a cap of ``100·max(m, 10)`` iterations for ``m`` cuts.
    """
    q = check_vector(q, "q")
    A = check_matrix(A, "A", n_cols=q.size, min_rows=0)
    radius = check_real(radius, "radius", low=0.0, low_inclusive=False)

    def support(c):
        return radius * float(np.linalg.norm(_cone_projection(A, c)))

    return -support(-q), support(q)


class _MistakeDrivenLearner:
    """Shared protocol of the ``k = 2`` learners: predict, then update on a mistake only.

    Subclasses set ``d`` and ``n_updates`` and define ``predict(q)`` and ``_update(q, label)``
    (the cut made when ``label`` is the truth and the prediction was the other label).
    """

    d: int
    n_updates: int

    def predict(self, q) -> int:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def _update(self, q: np.ndarray, true_label: int) -> None:  # pragma: no cover
        raise NotImplementedError

    def learn(self, q, true_label: int, predicted: int | None = None) -> bool:
        """Update on a mistake only (Theorem 8); return whether an update happened.

        ``predicted`` is the label guessed for ``q`` (computed by :meth:`predict` when not
        given).
        """
        q = check_vector(q, "q", size=self.d)
        true_label = _check_label(true_label, "true_label", 2)
        if predicted is None:
            predicted = self.predict(q)
        predicted = _check_label(predicted, "predicted", 2)
        if predicted == true_label:
            return False
        self._update(q, true_label)
        self.n_updates += 1
        return True


class HyperplaneLearner(_MistakeDrivenLearner):
    """Theorem 8 reduction (``k = 2``, inner-product similarity, loss exponent ``α``).

    Label 1 means ``⟨q, x_1 − x_2⟩ >= 0`` (``x_1`` more similar under ``δ = −⟨·,·⟩``).

    Parameters
    ----------
    d : int
        Dimension.
    alpha : float, default=1.0
        Loss exponent.
    width_method : {"lp", "cone"}, default="cone"
        ``"lp"``: widths by HiGHS LP (Kelley tangent cuts for the ball); ``"cone"``: exact NNLS
        fast path for homogeneous cuts.
    seed : int or numpy.random.Generator, optional
        Sampler randomness.
    **kwargs
        Passed to :class:`~mlgeom.multiscale.contextual_search.ContextualSearch`.
    """

    def __init__(self, d, alpha=1.0, width_method="cone", seed=None, **kwargs):
        self.d = check_positive_int(d, "d")
        self.alpha = check_real(alpha, "alpha", low=0.0, low_inclusive=False)
        self.width_method = check_in(width_method, "width_method", ("lp", "cone"))
        self.cs = ContextualSearch(d, alpha, seed=seed, **kwargs)
        self.n_updates = 0
        self.scale = 2.0**self.alpha / LOG43  # Ψ = 2^α Φ / log(4/3)

    def extent(self, q: np.ndarray) -> tuple[float, float]:
        """``(min, max)`` of ``⟨q, u⟩`` over the knowledge set of ``u = w/2``."""
        q = check_vector(q, "q", size=self.d)
        if self.width_method == "cone":
            return cone_extent(self.cs.K.A, q)
        return self.cs.K.extent(q)

    def assess(self, q) -> dict:
        """Prediction, loss bound ``L = (2·width)^α`` and the guess for query ``q``."""
        q = check_vector(q, "q", size=self.d)
        lo, hi = self.extent(q)
        width = hi - lo
        if lo >= 0:  # the sign is known: no mistake is possible (proof of Theorem 16, case 1)
            label, g = 1, lo
        elif hi <= 0:
            label, g = 2, hi
        else:
            g, _, _ = self.cs.guess(q, width)
            label = 1 if g > 0 else 2
        return {
            "label": label,
            "guess": g,
            "width": 2 * width,
            "L": (2 * width) ** self.alpha,
            "lo": lo,
            "hi": hi,
        }

    def predict(self, q) -> int:
        """Predicted label (1 or 2)."""
        return self.assess(q)["label"]

    def _cut(self, q: np.ndarray, true_label: int) -> np.ndarray:
        return -q if true_label == 1 else q  # keep ⟨q, u⟩ >= 0 (label 1) or <= 0 (label 2)

    def decrease_if(self, q, true_label: int, predicted: int) -> float:
        """Estimated ``Ψ`` decrease if the truth is ``true_label`` (0 unless it is a mistake)."""
        q = check_vector(q, "q", size=self.d)
        true_label = _check_label(true_label, "true_label", 2)
        predicted = _check_label(predicted, "predicted", 2)
        if predicted == true_label:
            return 0.0
        return self.scale * self.cs.potential_decrease(self._cut(q, true_label), 0.0)

    def learn(self, q, true_label: int, predicted: int | None = None) -> bool:
        """Update on a mistake only (Theorem 8); return whether an update happened."""
        return super().learn(q, true_label, predicted)

    def _update(self, q: np.ndarray, true_label: int) -> None:
        self.cs.update(self._cut(q, true_label), 0.0)

    @property
    def potential(self) -> float:
        """Estimated ``Ψ(K_t)`` (initial value exact, decreases estimated by the sampler)."""
        return self.scale * self.cs.phi


def lemma32_distribution(M) -> tuple[np.ndarray, bool, float]:
    """Find a distribution ``v ∈ Δ_n`` with ``Mv >= 0`` (Lemma 3.2) by LP (scipy HiGHS).

    Solves ``max t`` s.t. ``Mv >= t``, ``Σv = 1``, ``v >= 0``; feasible iff ``t* >= 0``.

    Returns
    -------
    v : numpy.ndarray
        The distribution (clipped at 0 and renormalised).
    feasible : bool
        Whether ``min(Mv) >= −1e-9``.
    t : float
        ``min_i (Mv)_i``.
    """
    M = check_matrix(M, "M")
    n = M.shape[0]
    if M.shape != (n, n):
        raise ValueError(f"M must be square; got shape {M.shape}")
    c = np.zeros(n + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-M, np.ones((n, 1))])
    A_eq = np.append(np.ones(n), 0.0)[None, :]
    bound = float(np.abs(M).max()) + 1.0
    res = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(n),
        A_eq=A_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(-bound, bound)],
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"Lemma 3.2 LP failed: {res.message}")
    v = np.maximum(res.x[:n], 0.0)
    v /= v.sum()
    t = float((M @ v).min())
    return v, t >= -1e-9, t


class MulticlassLearner:
    """Theorem 11: ``k``-class learner from ``C(k, 2)`` two-centre learners.

    Parameters
    ----------
    k : int
        Number of centres (>= 2).
    d : int
        Dimension of the queries.
    alpha : float, default=1.0
        Loss exponent of the inner-product sub-learners.
    feature_map : callable, optional
        Query map into the sub-learners' space (``Q`` of Appendix C or ``−H`` of Appendix E.2).
    feature_dim : int, optional
        Output dimension of ``feature_map`` (default ``d``).
    width_method : {"cone", "lp"}, default="cone"
        Width computation of the sub-learners.
    seed : int or numpy.random.Generator, optional
        Randomness (sub-learner samplers and the label draws).
    """

    def __init__(
        self,
        k,
        d,
        alpha=1.0,
        feature_map: Callable | None = None,
        feature_dim=None,
        width_method="cone",
        seed=None,
        **kwargs,
    ):
        self.k = check_positive_int(k, "k", minimum=2)
        self.d = check_positive_int(d, "d")
        self.alpha = check_real(alpha, "alpha", low=0.0, low_inclusive=False)
        self.feature_map = feature_map
        self.dim = check_positive_int(feature_dim if feature_dim is not None else d, "feature_dim")
        rng = as_generator(seed)
        self.rng = rng
        self.pairs = [(i, j) for i in range(self.k) for j in range(i + 1, self.k)]
        subs = spawn(rng, len(self.pairs))
        self.sub = {
            pr: HyperplaneLearner(self.dim, alpha, width_method, seed=s, **kwargs)
            for pr, s in zip(self.pairs, subs, strict=True)
        }
        self.n_infeasible = 0
        self.min_Mv: list[float] = []
        self.symmetric_violations = 0

    def _features(self, q):
        q = check_vector(q, "q", size=self.d)
        return np.asarray(self.feature_map(q), dtype=float) if self.feature_map else q

    def round_matrices(self, f: np.ndarray):
        """``L``, ``D``, ``M = D − L/2`` and each pair's assessment for the mapped query ``f``."""
        f = check_vector(f, "f", size=self.dim)
        k = self.k
        L, D = np.zeros((k, k)), np.zeros((k, k))
        info = {}
        for (i, j), learner in self.sub.items():
            a = learner.assess(f)
            info[(i, j)] = a
            L[i, j] = L[j, i] = a["L"]
            pred = i if a["label"] == 1 else j
            # D_ij: decrease of A_ij's potential when i is the correct label (label 1 of A_ij).
            D[i, j] = learner.decrease_if(f, 1, 1 if pred == i else 2)
            D[j, i] = learner.decrease_if(f, 2, 1 if pred == i else 2)
        return L, D, D - L / 2.0, info

    def step(self, q, true_label: int) -> tuple[int, float]:
        """Play one round: sample ``I_t ~ v`` (``Mv >= 0``), see the truth, update ``(I_t, r)``.

        Returns the predicted label (0-based) and ``min(Mv)``.
        """
        true_label = _check_label(true_label, "true_label", self.k, first=0)
        f = self._features(q)
        L, D, M, info = self.round_matrices(f)
        if np.any(M + M.T < -1e-12):
            self.symmetric_violations += 1
        v, ok, t = lemma32_distribution(M)
        self.n_infeasible += not ok
        self.min_Mv.append(t)
        guess = int(self.rng.choice(self.k, p=v))
        if guess != true_label:
            i, j = min(guess, true_label), max(guess, true_label)
            pred = 1 if info[(i, j)]["label"] == 1 else 2
            self.sub[(i, j)].learn(f, 1 if true_label == i else 2, predicted=pred)
        return guess, t
