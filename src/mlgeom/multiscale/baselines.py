"""Strawman learners for the ``k = 2`` experiments of the ``lp_multiscale_kernels`` chapter.

The headline of Guruganesh et al. (2021), Theorem 1 / Corollary 3.1, is a total loss bounded
independently of ``T`` and of any margin. Two naive learners are run on the same streams so the
records can say whether a measurement tells the paper's learner apart from them:

* :class:`MidpointLearner`: the same knowledge set of ``u = w/2`` as Theorem 8's learner (the
  cone of mistake cuts intersected with ``B_d``, exact extents by :func:`cone_extent`), but the
  guess is the midpoint of the extent of ``⟨q, u⟩`` instead of the volume-based guess of
  Algorithm 1 (Appendix A): no volumes, no sampler.
* :class:`CentroidLearner`: the same cuts, kept by the same hit-and-run particle population as
  Theorem 8's learner (:class:`~mlgeom.multiscale.contextual_search.BallKnowledgeSet`), but the
  guess is the sign of ``⟨q, c⟩`` for ``c`` the particles' mean (the centroid of ``K``).
* :class:`HalvingLearner`: the same particles, the guess is the sign of the median of
  ``⟨q, u⟩`` over them: the volume-halving (majority-vote) label of ``K`` itself, without
  Algorithm 1's ``z_i B_d`` smoothing and scale choice.
* :func:`uniform_guessing_loss`: the expected per-round loss of a fair coin, ``|⟨q, w⟩|^α / 2``.

All three knowledge-set strawmen predict the known sign when the exact extent of ``⟨q, u⟩``
(:func:`cone_extent`) excludes 0, as Theorem 8's learner does.
"""

from __future__ import annotations

import numpy as np

from mlgeom._validation import check_matrix, check_positive_int, check_real, check_vector
from mlgeom.multiscale.contextual_search import BallKnowledgeSet
from mlgeom.multiscale.partition_learners import _MistakeDrivenLearner, cone_extent

__all__ = [
    "CentroidLearner",
    "HalvingLearner",
    "MidpointLearner",
    "run_midpoint",
    "uniform_guessing_loss",
]


class MidpointLearner(_MistakeDrivenLearner):
    """Guess the sign of the midpoint of ``⟨q, u⟩`` over the knowledge set (a strawman).

    Parameters
    ----------
    d : int
        Dimension (>= 1).

    Examples
    --------
    >>> m = MidpointLearner(2)
    >>> m.predict([1.0, 0.0])  # K = B_2: the extent is [-1, 1], midpoint 0 -> label 2
    2
    >>> m.learn([1.0, 0.0], 1)
    True
    >>> m.predict([1.0, 0.0])  # the cut keeps <q, u> >= 0: the sign is known
    1
    """

    def __init__(self, d: int):
        self.d = check_positive_int(d, "d")
        self.A = np.zeros((0, self.d))
        self.n_updates = 0

    def predict(self, q) -> int:
        """Label 1 when the midpoint of the extent of ``⟨q, u⟩`` is positive, else 2."""
        q = check_vector(q, "q", size=self.d)
        lo, hi = cone_extent(self.A, q)
        return 1 if lo + hi > 0 else 2

    def learn(self, q, true_label: int, predicted: int | None = None) -> bool:
        """Cut ``K`` on a mistake (the same cut as Theorem 8's learner); return whether it cut."""
        return super().learn(q, true_label, predicted)

    def _update(self, q: np.ndarray, true_label: int) -> None:
        self.A = np.vstack([self.A, -q if true_label == 1 else q])


class _ParticleLearner(_MistakeDrivenLearner):
    """A knowledge-set learner whose guess is a statistic of ``⟨q, u⟩`` over the particles."""

    def __init__(self, d: int, seed=None, n_particles: int = 128, n_steps: int = 2):
        self.d = check_positive_int(d, "d")
        self.K = BallKnowledgeSet(self.d, 1.0, n_particles, n_steps, seed=seed)
        self.n_updates = 0

    def _statistic(self, values: np.ndarray) -> float:  # pragma: no cover - subclasses
        raise NotImplementedError

    def predict(self, q) -> int:
        """Return the known sign if the extent of ``⟨q, u⟩`` excludes 0, else the statistic's."""
        q = check_vector(q, "q", size=self.d)
        lo, hi = cone_extent(self.K.A, q)
        if lo >= 0:
            return 1
        if hi <= 0:
            return 2
        return 1 if self._statistic(self.K.particles @ q) > 0 else 2

    def learn(self, q, true_label: int, predicted: int | None = None) -> bool:
        """Cut ``K`` on a mistake (the same cut as Theorem 8's learner); return whether it cut."""
        return super().learn(q, true_label, predicted)

    def _update(self, q: np.ndarray, true_label: int) -> None:
        self.K.cut(-q if true_label == 1 else q, 0.0)


class CentroidLearner(_ParticleLearner):
    """Guess the sign of ``⟨q, c⟩``, ``c`` the mean of the particles of ``K`` (a strawman).

    Parameters
    ----------
    d : int
        Dimension (>= 1).
    seed : int or numpy.random.Generator, optional
        Randomness of the hit-and-run particles.
    n_particles, n_steps : int
        The sampler's population and hit-and-run steps per cut (as in Theorem 8's learner).

    Examples
    --------
    >>> c = CentroidLearner(2, seed=0)
    >>> c.learn([1.0, 0.0], 1, predicted=2)  # keep <(1, 0), u> >= 0: a half-disk
    True
    >>> c.predict([1.0, 0.0]), c.predict([-1.0, 0.0])  # the sign is known
    (1, 2)
    >>> c.predict([0.1, 1.0]) == (1 if c.K.particles.mean(axis=0) @ [0.1, 1.0] > 0 else 2)
    True
    """

    def _statistic(self, values: np.ndarray) -> float:
        return float(np.mean(values))


class HalvingLearner(_ParticleLearner):
    """Guess the label of the larger (sampled) volume of ``K``: the median of ``⟨q, u⟩``.

    The halving (majority-vote) rule over the version space ``K``; Theorem 8's learner halves
    ``K + z_i B_d`` instead (Algorithm 1). Parameters as :class:`CentroidLearner`.
    """

    def _statistic(self, values: np.ndarray) -> float:
        return float(np.median(values))


def run_midpoint(w, Q, *, alpha: float = 1.0) -> np.ndarray:
    """Cumulative loss of :class:`MidpointLearner` on a ``k = 2`` stream (loss ``|⟨q, w⟩|^α``).

    Parameters
    ----------
    w : array_like, shape (d,)
        Unit normal (centres ``±w/2``); label 1 when ``⟨q, w⟩ >= 0``.
    Q : array_like, shape (T, d)
        Queries.
    alpha : float, default=1.0
        Loss exponent (Section 3.1).
    """
    Q = check_matrix(Q, "Q")
    w = check_vector(w, "w", size=Q.shape[1])
    alpha = check_real(alpha, "alpha", low=0.0, low_inclusive=False)
    m = MidpointLearner(Q.shape[1])
    loss = np.zeros(len(Q))
    for t, q in enumerate(Q):
        y = 1 if q @ w >= 0 else 2
        g = m.predict(q)
        if g != y:
            loss[t] = abs(q @ w) ** alpha
        m.learn(q, y, g)
    return np.cumsum(loss)


def uniform_guessing_loss(w, Q, *, alpha: float = 1.0) -> np.ndarray:
    """Return the expected cumulative loss of a fair coin, ``Σ_t |⟨q_t, w⟩|^α / 2`` (``k = 2``).

    Examples
    --------
    >>> uniform_guessing_loss([1.0, 0.0], [[0.5, 0.0], [-0.2, 0.1]]).round(3).tolist()
    [0.25, 0.35]
    """
    Q = check_matrix(Q, "Q")
    w = check_vector(w, "w", size=Q.shape[1])
    alpha = check_real(alpha, "alpha", low=0.0, low_inclusive=False)
    return np.cumsum(0.5 * np.abs(Q @ w) ** alpha)
