"""Majority vote instead of the LP of Lemma 3.2: Remark 3.4 of Guruganesh et al. (2021).

Remark 3.4 (Section 3.2): "Why do simple algorithms (such as a majority voting scheme) fail to
work in our setting? [...] it is possible to get a simple majority vote (breaking ties
arbitrarily) to work if we are given additional feedback [...] the ranking of all k distances
[...] But if we only receive the true label of q_t, we no longer have the information to update
every sub-instance". This module runs that ablation with the ``C(k, 2)`` two-centre learners of
Theorem 11 (:class:`~mlgeom.multiscale.partition_learners.HyperplaneLearner`, inner-product
similarity):

* :class:`MajorityVoteLearner`: predict the label with the most pairwise wins (ties broken
  uniformly at random with the learner's seeded generator). With ``feedback="label"`` only the
  pairs ``(r, m)`` that contain the true label ``r`` are updated (``r`` beats every other label);
  with ``feedback="ranking"`` every pair is updated with the true order of its two centres.
  As everywhere in Theorem 8, a pair is updated only when it erred (mistake-driven).
* :func:`remark34_centres` and :func:`remark34_query`: ``k = 3`` centres, ``x_0`` and ``x_1``
  nearly tied on the queries and ``x_2`` far.
* :func:`remark34_run`: an adaptive adversary that picks the true label among the two near
  ones (the sign that fools ``A_01``, as in Section 3.1's adversary) and watches the learner's
  sub-learners, and :func:`remark34_sweep`, the paired sweep of Theorem 11's learner and the
  two majority votes through :func:`mlgeom.parallel.pmap`.

Why the label-only vote should fail: in a round whose truth is ``r ∈ {0, 1}`` the pair
``A_{m2}`` of the other near label ``m = 1 − r`` is not updated, so where it still ranks 2
above ``m`` it keeps doing so (its answer comes from its particles, a deterministic function of
the query: an "arbitrary" answer). When ``A_rm`` errs (which a mistake-driven learner does
again and again at shrinking margins, at a total loss that stays bounded) on such a query, the
votes form the cycle ``r > 2``, ``m > r``, ``2 > m``, a three-way tie, and the tie-break picks
the far centre with probability 1/3 at a large loss, which no update ever charges to the pair
``A_{m2}``.

Design note (issue 15): a first version kept the truth always ``r``. Then every cut of
``A_rm`` says ``r`` and every query has ``⟨q, x_r − x_2⟩ >= 0.6``, so the direction of
``x_r − x_2`` stays in ``A_rm``'s knowledge cone and ``A_rm`` stops erring on the queries where
the far centre is far after a few mistakes; the adversary now chooses the sign, so both near
labels are true in turn and ``A_rm``'s cone is cut from both sides.
"""

from __future__ import annotations

import math
import time

import numpy as np

from mlgeom._validation import (
    check_in,
    check_positive_int,
    check_real,
    check_vector,
)
from mlgeom.multiscale.adversary import separating_margins
from mlgeom.multiscale.losses import _check_label, nn_loss
from mlgeom.multiscale.partition_learners import HyperplaneLearner, MulticlassLearner
from mlgeom.multiscale.sweeps import _paired_tasks
from mlgeom.parallel import pmap
from mlgeom.random import as_generator, spawn

__all__ = [
    "REMARK34_LEARNERS",
    "MajorityVoteLearner",
    "remark34_centres",
    "remark34_query",
    "remark34_run",
    "remark34_sweep",
]

REMARK34_LEARNERS = ("theorem11", "majority_label", "majority_ranking")

# Geometry of remark34_centres / remark34_query (fixed before any run).
_A, _H = 0.5, 0.5  # x_{0,1} = ±a w + h e, x_2 = −h e
_LAM, _RHO = 0.6, 0.8  # q = λ e + ρ (m w + σ sqrt(1 − m²) v), unit


class MajorityVoteLearner:
    """Majority vote over the ``C(k, 2)`` two-centre learners of Theorem 11 (Remark 3.4).

    Each pair ``i < j`` has a :class:`~mlgeom.multiscale.partition_learners.HyperplaneLearner`
    ``A_ij`` (label 1 of ``A_ij`` is centre ``i``), built exactly as in
    :class:`~mlgeom.multiscale.partition_learners.MulticlassLearner` (same seed, same
    sub-learners). The prediction is the label with the most pairwise wins, ties broken
    uniformly at random with the learner's generator (Remark 3.4's "breaking ties
    arbitrarily").

    Parameters
    ----------
    k : int
        Number of centres (>= 2).
    d : int
        Dimension of the queries.
    feedback : {"label", "ranking"}, default="label"
        ``"label"``: after the round only the true label ``r`` is known, so only the ``k − 1``
        pairs ``(r, m)`` are updated (``r`` beats ``m``). ``"ranking"``: the ranking of all
        ``k`` similarities is revealed and every pair is updated with its true order.
    alpha : float, default=1.0
        Loss exponent of the sub-learners.
    seed : int or numpy.random.Generator, optional
        Randomness (sub-learner samplers, then the tie-breaks).
    """

    def __init__(self, k, d, feedback="label", alpha=1.0, seed=None):
        self.k = check_positive_int(k, "k", minimum=2)
        self.d = check_positive_int(d, "d")
        self.feedback = check_in(feedback, "feedback", ("label", "ranking"))
        self.alpha = check_real(alpha, "alpha", low=0.0, low_inclusive=False)
        rng = as_generator(seed)
        self.rng = rng
        self.pairs = [(i, j) for i in range(self.k) for j in range(i + 1, self.k)]
        self.sub = {
            pr: HyperplaneLearner(self.d, self.alpha, "cone", seed=s)
            for pr, s in zip(self.pairs, spawn(rng, len(self.pairs)), strict=True)
        }
        self.n_ties = 0
        self.n_updates = 0

    def votes(self, q) -> tuple[np.ndarray, dict]:
        """Pairwise wins of every label for query ``q`` and each pair's predicted winner.

        Returns
        -------
        wins : numpy.ndarray, shape (k,)
            Number of pairs each label wins.
        winner : dict
            ``(i, j) -> i or j``, the label ``A_ij`` predicts.
        """
        q = check_vector(q, "q", size=self.d)
        wins = np.zeros(self.k, dtype=int)
        winner = {}
        for (i, j), learner in self.sub.items():
            winner[(i, j)] = i if learner.predict(q) == 1 else j
            wins[winner[(i, j)]] += 1
        return wins, winner

    def predict(self, q) -> int:
        """Return the label (0-based) with the most wins; ties uniformly at random (seeded)."""
        wins, _ = self.votes(q)
        top = np.flatnonzero(wins == wins.max())
        if len(top) > 1:
            self.n_ties += 1
            return int(self.rng.choice(top))
        return int(top[0])

    def learn(self, q, true_label: int, ranking=None) -> int:
        """Update the pairs the feedback allows (each only if it erred); return the count.

        Parameters
        ----------
        q : array_like, shape (d,)
            The query.
        true_label : int
            The true label ``r`` (0-based).
        ranking : sequence of int, optional
            With ``feedback="ranking"`` (required then): all ``k`` labels from the most to the
            least similar centre; ``ranking[0]`` must be ``true_label``.
        """
        q = check_vector(q, "q", size=self.d)
        r = _check_label(true_label, "true_label", self.k, first=0)
        if self.feedback == "ranking":
            if ranking is None:
                raise ValueError("ranking is required with feedback='ranking'; got None")
            order = [_check_label(x, "ranking entries", self.k, first=0) for x in ranking]
            if sorted(order) != list(range(self.k)):
                raise ValueError(
                    f"ranking must be a permutation of 0..{self.k - 1}; got {list(ranking)}"
                )
            if order[0] != r:
                raise ValueError(f"ranking must start with true_label {r}; got {list(ranking)}")
            pos = {lab: n for n, lab in enumerate(order)}
            todo = self.pairs
        else:
            pos = {lab: (0 if lab == r else 1) for lab in range(self.k)}
            todo = [pr for pr in self.pairs if r in pr]
        n = 0
        for i, j in todo:
            n += self.sub[(i, j)].learn(q, 1 if pos[i] < pos[j] else 2)
        self.n_updates += n
        return n

    def step(self, q, true_label: int, ranking=None) -> int:
        """Play one round: predict, then :meth:`learn`; return the prediction (0-based)."""
        r = _check_label(true_label, "true_label", self.k, first=0)
        guess = self.predict(q)
        self.learn(q, r, ranking)
        return guess


def remark34_centres(w, e) -> np.ndarray:
    """Centres of the Remark 3.4 design: ``x_0 = a w + h e``, ``x_1 = −a w + h e``, ``x_2 = −h e``.

    With ``a = h = 1/2`` every centre is in ``B_d``. On every query of :func:`remark34_query`
    the two near centres are almost tied, ``⟨q, x_0 − x_1⟩ = 2aρm`` (the signed margin ``m``
    decides which is nearest), and the far centre loses to both by at least ``2hλ − aρ|m|``:
    choosing it costs ``2hλ + aρ|m| = 0.6 + 0.4|m|``.

    Parameters
    ----------
    w, e : array_like, shape (d,)
        Orthonormal vectors (``d >= 3``).

    Returns
    -------
    numpy.ndarray, shape (3, d)
    """
    w, e = _frame(w, e)
    return np.vstack([_A * w + _H * e, -_A * w + _H * e, -_H * e])


def remark34_query(w, e, v, m: float, sigma: float) -> np.ndarray:
    """Return the unit query ``q = λ e + ρ (m w + σ sqrt(1 − m²) v)``, ``λ = 0.6``, ``ρ = 0.8``.

    Parameters
    ----------
    w, e : array_like, shape (d,)
        Orthonormal vectors (``d >= 3``).
    v : array_like, shape (d,)
        A unit vector orthogonal to ``w`` and ``e``.
    m : float
        The signed margin, ``0 < |m| < 1``: the true label is 0 when ``m > 0`` and 1 when
        ``m < 0`` (:func:`remark34_centres`).
    sigma : float
        ``+1`` or ``−1``.
    """
    w, e = _frame(w, e)
    v = check_vector(v, "v", size=w.size)
    if abs(np.linalg.norm(v) - 1) > 1e-9 or abs(v @ w) > 1e-9 or abs(v @ e) > 1e-9:
        raise ValueError(f"v must be a unit vector orthogonal to w and e; got {v.tolist()}")
    m = check_real(m, "m", low=-1.0, high=1.0, low_inclusive=False, high_inclusive=False)
    if m == 0:
        raise ValueError(f"m must be non-zero (its sign is the true label); got {m!r}")
    if sigma not in (1, -1):
        raise ValueError(f"sigma must be +1 or -1; got {sigma!r}")
    return _LAM * e + _RHO * (m * w + sigma * math.sqrt(1.0 - m * m) * v)


def _frame(w, e) -> tuple[np.ndarray, np.ndarray]:
    w = check_vector(w, "w")
    e = check_vector(e, "e", size=w.size)
    if w.size < 3:
        raise ValueError(f"w and e must have dimension >= 3; got {w.size}")
    if abs(np.linalg.norm(w) - 1) > 1e-9 or abs(np.linalg.norm(e) - 1) > 1e-9 or abs(w @ e) > 1e-9:
        raise ValueError(f"w and e must be orthonormal; got w={w.tolist()}, e={e.tolist()}")
    return w, e


def _orth_unit(rng: np.random.Generator, B: np.ndarray) -> np.ndarray:
    u = rng.standard_normal(B.shape[1])
    u -= B.T @ (B @ u)
    return u / np.linalg.norm(u)


def remark34_run(learner, w, e, T: int, seed=None, *, n_candidates: int = 2) -> dict:
    """Play the Remark 3.4 adversary against a 3-class learner for ``T`` rounds.

    Labels 0 and 1 are nearly tied and label 2 is far (:func:`remark34_centres`). Round ``t``
    has the margin ``m_t`` of :func:`~mlgeom.multiscale.adversary.separating_margins` (small
    margins shrinking to ``10^{-12}`` in odd rounds, ``0.3``/``0.1`` in even ones). As in
    Section 3.1's adversary (:func:`~mlgeom.multiscale.adversary.adversarial_run`) the sign
    ``s`` of the margin, hence the true label ``r`` (0 if ``s > 0``, else 1), is the
    adversary's choice. It looks at the learner's own sub-learners:

    1. candidate directions ``v ⊥ w, e``: the previous one and ``n_candidates`` fresh uniform
       ones, ordered by the width of ``A_01``'s knowledge set along them (widest first, as
       :func:`~mlgeom.multiscale.adversary.least_informed_direction`);
    2. options ``(v, s, σ)`` in that order, the signs in Section 3.1's seeded order
       ``(s_0, +), (−s_0, +), (s_0, −), (−s_0, −)``; it plays the first option on which
       ``A_01`` errs and the pair of the other near label with label 2, ``A_{1−r, 2}``,
       predicts 2 (a cycle ``r > 2 > 1 − r > r`` if ``A_{r2}`` is right); else the first on
       which ``A_01`` errs and ``A_{r2}`` is right (so that no far pair learns); else the
       first on which ``A_01`` errs; else the first option.

    With true-label feedback the pair ``A_{1−r, 2}`` is not updated in a round whose truth is
    ``r`` (Remark 3.4's missing information). The learner then predicts and learns (Theorem
    11's learner samples from its LP distribution and updates the pair (guess, truth); the
    ranking vote is given the true ranking ``r, 1 − r, 2``). The loss is the inner-product NN
    loss ``⟨q, x_r⟩ − ⟨q, x_guess⟩`` (:func:`~mlgeom.multiscale.losses.nn_loss`). Every random
    draw of the adversary is made every round whatever the learner does, so the same ``seed``
    gives every learner the same draws.

    Parameters
    ----------
    learner : MulticlassLearner or MajorityVoteLearner
        With ``k = 3`` and ``d = w.size``; updated in place.
    w, e : array_like, shape (d,)
        Orthonormal vectors (``d >= 4`` so that the directions ``v`` vary).
    T : int
        Rounds.
    seed : int or numpy.random.Generator, optional
        The adversary's randomness.
    n_candidates : int, default=2
        Fresh candidate directions per round.

    Returns
    -------
    dict
        ``loss`` (cumulative, length ``T``), ``truth`` and ``guess`` (per round), ``fooled``
        (rounds in which ``A_01`` erred on the played query, boolean) and ``cycle`` (rounds in
        which, in addition, ``A_{1−r, 2}`` predicted 2).
    """
    w, e = _frame(w, e)
    d = w.size
    if d < 4:
        raise ValueError(f"w and e must have dimension >= 4 (v must vary); got {d}")
    if not isinstance(learner, MulticlassLearner | MajorityVoteLearner):
        raise TypeError(
            f"learner must be a MulticlassLearner or MajorityVoteLearner; got {learner!r}"
        )
    if learner.k != 3 or learner.d != d:
        raise ValueError(
            f"learner must have k = 3 and d = {d}; got k = {learner.k}, d = {learner.d}"
        )
    T = check_positive_int(T, "T")
    n_candidates = check_positive_int(n_candidates, "n_candidates")
    rng = as_generator(seed)
    X = remark34_centres(w, e)
    B = np.vstack([w, e])
    margins = separating_margins(T)
    a01 = learner.sub[(0, 1)]
    v = _orth_unit(rng, B)
    loss = np.zeros(T)
    truth = np.zeros(T, dtype=int)
    guesses = np.zeros(T, dtype=int)
    fooled = np.zeros(T, dtype=bool)
    cycle = np.zeros(T, dtype=bool)
    for t in range(T):
        m = float(margins[t])
        cand = [v] + [_orth_unit(rng, B) for _ in range(n_candidates)]
        s0 = 1.0 if rng.random() < 0.5 else -1.0
        widths = [np.subtract(*a01.extent(c)[::-1]) for c in cand]
        order = sorted(range(len(cand)), key=lambda c: -widths[c])
        signs = [(s0, 1.0), (-s0, 1.0), (s0, -1.0), (-s0, -1.0)]
        options = [(cand[c], s, sg) for c in order for s, sg in signs]
        chosen, quiet, fallback = None, None, None
        for vv, s, sg in options:
            q = remark34_query(w, e, vv, s * m, sg)
            r = 0 if s > 0 else 1
            if a01.predict(q) != r + 1:  # A_01 errs (its label 1 is centre 0)
                if learner.sub[(1 - r, 2)].predict(q) == 2:
                    chosen = (vv, s, sg, True)
                    break
                if quiet is None and learner.sub[(r, 2)].predict(q) == 1:
                    quiet = (vv, s, sg, False)
                if fallback is None:
                    fallback = (vv, s, sg, False)
        if chosen is None:
            chosen = next((c for c in (quiet, fallback) if c is not None), (*options[0], False))
        v, s, sg, cycle[t] = chosen
        r = 0 if s > 0 else 1
        q = remark34_query(w, e, v, s * m, sg)
        fooled[t] = a01.predict(q) != r + 1
        if isinstance(learner, MulticlassLearner):
            g, _ = learner.step(q, r)
        else:
            ranking = (r, 1 - r, 2) if learner.feedback == "ranking" else None
            g = learner.step(q, r, ranking=ranking)
        truth[t], guesses[t] = r, g
        loss[t] = nn_loss(q, X, g)
    return {
        "loss": np.cumsum(loss),
        "truth": truth,
        "guess": guesses,
        "fooled": fooled,
        "cycle": cycle,
    }


def _remark34_learner(name: str, d: int, rng: np.random.Generator):
    if name == "theorem11":
        return MulticlassLearner(3, d, seed=rng)
    return MajorityVoteLearner(3, d, name.split("_")[1], seed=rng)


def _remark34_task(args) -> dict:
    name, T, d, keys = args
    g = np.random.default_rng(keys[0])
    w = _orth_unit(g, np.zeros((0, d)))
    e = _orth_unit(g, w[None, :])
    learner = _remark34_learner(name, d, np.random.default_rng(keys[2]))
    tic = time.perf_counter()
    r = remark34_run(learner, w, e, T, np.random.default_rng(keys[1]))
    return {
        "loss": r["loss"],
        "mistakes": int(np.count_nonzero(r["guess"] != r["truth"])),
        "far": int(np.count_nonzero(r["guess"] == 2)),
        "fooled": int(r["fooled"].sum()),
        "cycles": int(r["cycle"].sum()),
        "seconds": time.perf_counter() - tic,
    }


def remark34_sweep(T: int, d: int, seeds, learners=REMARK34_LEARNERS) -> list[dict]:
    """Theorem 11's learner and the two majority votes against the Remark 3.4 adversary.

    Paired by seed: three integer keys are drawn from each seed (the hidden frame ``w, e``, the
    adversary, the learner), so every learner meets the same centres and adversary draws, and
    its sub-learners start from the same particles (Theorem 11's learner and
    :class:`MajorityVoteLearner` spawn them alike).

    Parameters
    ----------
    T, d : int
        Horizon and dimension (``d >= 4``).
    seeds : list of numpy.random.Generator
        One per run.
    learners : sequence of str, default=REMARK34_LEARNERS
        Among ``"theorem11"`` (:class:`~mlgeom.multiscale.partition_learners.MulticlassLearner`,
        Lemma 3.2's LP), ``"majority_label"`` and ``"majority_ranking"``.

    Returns
    -------
    list of dict
        Per seed: per learner the cumulative loss (length ``T``); ``"uniform"``, the expected
        cumulative loss of a uniform guess (the mean NN loss over the three labels,
        ``Σ_t (0.2 + 0.4 m_t)``); and dicts ``"mistakes"``, ``"far"`` (guesses of the far
        label 2), ``"fooled"`` (rounds where ``A_01`` erred), ``"cycles"`` and ``"seconds"``
        per learner.
    """
    T, d, learners, keys, tasks = _paired_tasks(T, d, seeds, learners, REMARK34_LEARNERS, 4)
    out = pmap(_remark34_task, tasks, desc="Remark 3.4: majority vote")
    m = separating_margins(T)
    uniform = np.cumsum((2 * _A * _RHO * m + 2 * _H * _LAM + _A * _RHO * m) / 3.0)  # any truth
    runs = []
    for j in range(len(keys)):
        res = dict(zip(learners, out[j * len(learners) : (j + 1) * len(learners)], strict=True))
        run = {n: r["loss"] for n, r in res.items()}
        run["uniform"] = uniform.copy()
        for field in ("mistakes", "far", "fooled", "cycles", "seconds"):
            run[field] = {n: r[field] for n, r in res.items()}
        runs.append(run)
    return runs
