"""An adaptive adversary for the ``k = 2`` problem (Section 1.2, Theorem 8, Corollary 3.1).

Guruganesh et al. (2021), Section 3.1: two centres ``x_{1,2} = ±w/2`` (``w`` a unit normal,
fixed and hidden), label 1 when ``⟨q, w⟩ >= 0``, and a mistake on ``q`` costs
``|⟨q, x_1 − x_2⟩|^α = |⟨q, w⟩|^α``. Theorem 8 / Corollary 3.1 bound the total loss by
``O(d log d)`` against *any* realisable sequence, adaptive ones included; the Perceptron's and
the halving learner's bounds depend on the margin. The adversary here plays the regime in which
the margin-dependent learners have no guarantee:

1. **margin.** Round ``t`` has margin ``m_t = margins[t mod len(margins)]``, a fixed cycle that
   interleaves small and large scales (default ``10^{-3}, 0.3, 3·10^{-3}, 0.1, 10^{-2},
   3·10^{-2}``).
2. **direction.** A unit ``v_t ⊥ w`` where the learner is least informed:

   * a knowledge-set learner (cuts ``A u <= 0`` on ``u = w/2``): among ``v_{t−1}`` and
     ``n_candidates`` fresh uniform unit vectors ``⊥ w``, the one along which ``K_t`` is widest
     (exact cone widths, :func:`~mlgeom.multiscale.partition_learners.cone_extent`); keeping
     ``v_{t−1}`` makes the search a seeded hill climb toward the widest direction;
   * the Perceptron (weight ``θ``): ``v_t`` = the part of ``θ`` orthogonal to ``w``,
     normalised, the direction its weight gets wrong (``v_{t−1}`` while it is 0).

3. **query.** ``q = s m_t w + σ sqrt(1 − m_t²) v_t`` (unit, margin ``m_t``, label 1 iff
   ``s = +1``); of the four signs ``(s, σ)``, tried in a seeded order
   ``(s_0, +), (−s_0, +), (s_0, −), (−s_0, −)``, the first on which the learner's prediction is
   wrong is played, and the first when none is (a round without loss).

:func:`separating_margins` is the schedule of the separating design (Section 1.2, Theorem 14):
margins shrinking geometrically towards ``10^{-12}``, interleaved with large ones, so that a
learner whose guarantee depends on the margin has none, while Theorem 14 bounds the total loss
``Σ|⟨q, w⟩|^α`` of Algorithm 1 by ``O(α^{-2} d log d)`` whatever the margins.

Every random draw (the candidates and ``s_0``) is made every round whatever the learner does,
so with the same ``seed`` all learners face the same candidates and coins (paired runs). Per
round the adversary costs ``n_candidates + 1`` cone widths and at most four predictions, the
order of a learner's own round.
"""

from __future__ import annotations

import math

import numpy as np

from mlgeom._validation import (
    check_matrix,
    check_positive_int,
    check_real,
    check_vector,
    check_vector_in,
)
from mlgeom.algorithms.multiclass_perceptron import OnlinePerceptron
from mlgeom.multiscale.partition_learners import cone_extent
from mlgeom.random import as_generator

__all__ = [
    "MARGIN_CYCLE",
    "SEPARATING_FLOOR",
    "adversarial_run",
    "least_informed_direction",
    "separating_margins",
]

MARGIN_CYCLE = (1e-3, 0.3, 3e-3, 0.1, 1e-2, 3e-2)
SEPARATING_FLOOR = 1e-12


def separating_margins(T: int) -> np.ndarray:
    """Margins ``m_0 … m_{T−1}`` of the separating design (pre-registered, issue 15).

    Even rounds are large: ``0.3`` when ``t ≡ 0 (mod 4)``, ``0.1`` when ``t ≡ 2 (mod 4)``. Odd
    round ``t`` carries the ``k``-th small margin, ``k = (t − 1)/2``,
    ``m_k = max(10^{-12}, 0.1·10^{-k/15})``: one decade every 15 small rounds, ``10^{-12}`` from
    ``t = 331`` on. The schedule stops at ``10^{-12}`` (:data:`SEPARATING_FLOOR`): below it the
    rounding of ``⟨q, w⟩`` on unit vectors (about ``10^{-16}``) and of the exact cone widths is
    no longer small against the margin.

    Parameters
    ----------
    T : int
        Number of rounds.

    Returns
    -------
    numpy.ndarray, shape (T,)
        The margins, in ``[10^{-12}, 0.3]``.
    """
    T = check_positive_int(T, "T")
    t = np.arange(T)
    large = np.where(t % 4 == 0, 0.3, 0.1)
    small = np.maximum(SEPARATING_FLOOR, 0.1 * 10.0 ** (-((t - 1) // 2) / 15.0))
    return np.where(t % 2 == 0, large, small)


def _orth_unit(rng: np.random.Generator, w: np.ndarray) -> np.ndarray:
    u = rng.standard_normal(w.size)
    u -= (u @ w) * w
    return u / np.linalg.norm(u)


def _cuts(learner) -> np.ndarray | None:
    """Return the cut matrix ``A`` of a knowledge-set learner (``None`` for the Perceptron)."""
    if isinstance(learner, OnlinePerceptron):
        return None
    for path in (("cs", "K", "A"), ("K", "A"), ("A",)):
        obj = learner
        for attr in path:
            obj = getattr(obj, attr, None)
        if obj is not None:
            return obj
    raise TypeError(
        f"learner must be a knowledge-set learner or an OnlinePerceptron; got {learner!r}"
    )


def least_informed_direction(learner, w, candidates) -> np.ndarray:
    """Return the unit direction ``⊥ w`` the adversary queries (step 2 of the module's design).

    Parameters
    ----------
    learner : object
        A knowledge-set learner (``HyperplaneLearner``, ``MidpointLearner``,
        ``CentroidLearner``, ``HalvingLearner``) or an ``OnlinePerceptron``.
    w : array_like, shape (d,)
        The hidden unit normal.
    candidates : array_like, shape (n, d)
        Unit vectors ``⊥ w``; the first is the previous direction (the Perceptron's fallback).

    Returns
    -------
    numpy.ndarray
        For a knowledge-set learner the candidate of largest cone width of ``K`` (first on
        ties); for the Perceptron the normalised part of its weight orthogonal to ``w``.
    """
    w = check_vector(w, "w")
    C = check_matrix(candidates, "candidates", n_cols=w.size)
    A = _cuts(learner)
    if A is None:
        theta = learner.w - (learner.w @ w) * w
        nt = float(np.linalg.norm(theta))
        return theta / nt if nt > 1e-12 else C[0]
    widths = [np.subtract(*cone_extent(A, c)[::-1]) for c in C]
    return C[int(np.argmax(widths))]


def adversarial_run(
    learner,
    w,
    T: int,
    seed=None,
    *,
    alpha: float = 1.0,
    margins=MARGIN_CYCLE,
    n_candidates: int = 2,
) -> dict:
    """Play the adaptive adversary against ``learner`` for ``T`` rounds (Theorem 8's setting).

    Parameters
    ----------
    learner : object
        See :func:`least_informed_direction`; it is updated in place (predict, then learn).
    w : array_like, shape (d,)
        The hidden unit normal (``d >= 2``); normalised here.
    T : int
        Rounds.
    seed : int or numpy.random.Generator, optional
        The adversary's randomness (candidates and sign orders); the same seed gives the same
        draws to every learner.
    alpha : float, default=1.0
        Loss exponent (Section 3.1).
    margins : sequence of float, default=MARGIN_CYCLE
        The margin cycle, values in ``(0, 1)``.
    n_candidates : int, default=2
        Fresh candidate directions per round.

    Returns
    -------
    dict
        ``loss`` (cumulative, length ``T``), ``mistakes`` (count), ``mistake`` (per round,
        boolean) and ``Q`` (the queries).
    """
    w = check_vector(w, "w")
    if w.size < 2 or np.linalg.norm(w) == 0:
        raise ValueError(f"w must be a non-zero vector of dimension >= 2; got {w.tolist()}")
    w = w / np.linalg.norm(w)
    _cuts(learner)  # type check
    if getattr(learner, "d", None) != w.size:
        raise ValueError(
            f"learner.d must equal w's dimension {w.size}; got {getattr(learner, 'd', None)}"
        )
    T = check_positive_int(T, "T")
    alpha = check_real(alpha, "alpha", low=0.0, low_inclusive=False)
    margins = check_vector_in(
        margins, "margins", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
    )
    n_candidates = check_positive_int(n_candidates, "n_candidates")
    rng = as_generator(seed)
    perceptron = isinstance(learner, OnlinePerceptron)
    v = _orth_unit(rng, w)
    loss, Q, mistakes = np.zeros(T), np.zeros((T, w.size)), 0
    erred = np.zeros(T, dtype=bool)
    for t in range(T):
        m = float(margins[t % len(margins)])
        cand = np.vstack([v] + [_orth_unit(rng, w) for _ in range(n_candidates)])
        s0 = 1.0 if rng.random() < 0.5 else -1.0
        v = least_informed_direction(learner, w, cand)
        c = math.sqrt(1.0 - m * m)
        tries = [(s0, 1.0), (-s0, 1.0), (s0, -1.0), (-s0, -1.0)]
        for k, (s, sig) in enumerate(tries):
            q = s * m * w + sig * c * v
            y = 1 if s > 0 else 2
            pred = learner.predict(q)
            if pred != y or k == len(tries) - 1:
                break
        if pred != y:
            loss[t] = m**alpha
            mistakes += 1
            erred[t] = True
        else:  # no sign fools the learner: play the first query (no loss)
            s, sig = tries[0]
            q = s * m * w + sig * c * v
            y = pred = 1 if s > 0 else 2
        Q[t] = q
        if perceptron:
            learner.learn(q, y)
        else:
            learner.learn(q, y, pred)
    return {"loss": np.cumsum(loss), "mistakes": mistakes, "mistake": erred, "Q": Q}
