"""Algorithm 2 of Guruganesh et al. (2021): multiscale nearest-neighbour learning for ``L^p``.

Two unknown centres ``x_1, x_2 ∈ B_d``; for every scale ``i`` a knowledge set
``S_i ⊂ [−1, 1]^{2p′d(2D_i+1)}`` containing ``(G_i(x_1), G_i(x_2))`` (Claim 29). Each round:
``v_{i,t} = (−H_i(q_t), H_i(q_t))``; ``w_{i,t}`` is the width of ``S_i`` along ``v_{i,t}``;
``i_t`` is the smallest ``i`` with ``w_{i,t} >= 10³ D_i p d² (pδ_i)^p``; guess label 1 iff
``Vol{v·z > 0} >= Vol{v·z < 0}`` in ``S_{i_t}``; then cut ``S_{i_t}`` with
``v·z > −3d(pδ_{i_t})^p`` (label 1) or ``v·z < 3d(pδ_{i_t})^p`` (label 2).

Implementation (exact reductions, said in the notebook):

* every ``v_{i,t}`` has ``2p′d`` non-zeros, so ``S_i`` is the box in every coordinate no cut has
  touched; only *active* coordinates (the union of the cuts' supports) are stored. Widths are
  an LP (HiGHS) over the active coordinates plus ``2Σ|v_j|`` over inactive ones — exact.
* volumes are compared with a hit-and-run population on the active coordinates; a newly active
  coordinate is appended as an independent uniform ``[−1, 1]`` column, which is exact because the
  uniform law on ``S_i`` factorises over untouched coordinates.
* the hit-and-run step runs with one BLAS thread: its products (particles × ~10³ active
  coordinates × cuts) are too small to gain from threads, and with two sweep workers on two
  cores two threads each oversubscribe the machine (measured with other work running: a
  ``T = 250`` run took 29 s with two threads, 5 s with one). A
  matrix product computes each output entry in one thread, so the numbers do not depend on the
  thread count (``tests/multiscale/test_learner.py`` checks it).
* scales ``i = 1 … n_scales`` are kept (Remark E.3); if no scale qualifies, guess label 1 and do
  not update (Remark E.3's "guess arbitrarily").

:class:`MultiscaleMulticlassLearner` is Theorem 13: one Algorithm 2 learner per pair of centres
inside Theorem 11's reduction, with explicit loss bounds (:func:`scale_loss_bound`) and the
certified potential decreases of Claim 30.
"""

from __future__ import annotations

from functools import cache
from numbers import Integral

import numpy as np
from scipy.optimize import linprog
from threadpoolctl import ThreadpoolController

from mlgeom._validation import check_indices, check_positive_int, check_real, check_vector
from mlgeom.multiscale import kernel_maps as km
from mlgeom.multiscale.losses import _check_label
from mlgeom.multiscale.partition_learners import lemma32_distribution
from mlgeom.random import as_generator, spawn

__all__ = [
    "ScaleSet",
    "MultiscaleLearner",
    "MultiscaleMulticlassLearner",
    "threshold",
    "scale_loss_bound",
]


def threshold(i: int, d: int, p: float) -> float:
    """Width threshold ``10³ D_i p d² (pδ_i)^p`` of Algorithm 2."""
    return 1e3 * km.D_i(i, d, p) * p * d * d * (p * km.delta_i(i, d, p)) ** p


def scale_loss_bound(
    i: int | None, width_below: float | None, d: int, p: float, Delta: float
) -> float:
    """Upper bound on a pair's ``L^p`` loss when Algorithm 2 works at scale ``i`` (Theorem 31).

    The loss ``|‖q − x_1‖_p − ‖q − x_2‖_p|`` is at most ``2`` (centres in ``B_d`` and
    ``p >= 2``) and, when scale ``i − 1`` was too narrow (``w_{i−1,t}`` below its threshold),
    at most ``2^p (w_{i−1,t} + 2d(pδ_{i−1})^p) / (Δ/2)^{p−1}``: the origin and, by Claim 29, the
    true pair lie in ``S_{i−1}``, so ``|v_{i−1,t}·(G(x_1), G(x_2))| <= w_{i−1,t}``; Lemma E.2
    adds ``2d(pδ_{i−1})^p``; the factor ``2^p`` undoes the halving in ``‖(q − x)/2‖_p^p``; and
    ``|a − b| <= |a^p − b^p| / max(a, b)^{p−1}`` with ``max(a, b) >= Δ/2``.

    Parameters
    ----------
    i : int or None
        Scale used (``i_t``); ``None`` when no scale qualified (then ``width_below`` is the
        width at the last scale).
    width_below : float or None
        ``w_{i−1,t}`` (ignored for ``i = 1``).
    d, p, Delta : int, float, float
        Dimension, norm and the separation ``Δ`` of the centres.
    """
    d = check_positive_int(d, "d")
    p = check_real(p, "p", low=2.0)
    Delta = check_real(Delta, "Delta", low=0.0, low_inclusive=False)
    if i is not None:
        i = check_positive_int(i, "i")
    if width_below is not None:
        width_below = check_real(width_below, "width_below")
    if i == 1 or width_below is None:
        return 2.0
    return min(
        2.0,
        2.0**p
        * (width_below + 2 * d * (p * km.delta_i(i - 1, d, p)) ** p)
        / (Delta / 2.0) ** (p - 1),
    )


@cache
def _blas_controller() -> ThreadpoolController:
    """Return the process's BLAS libraries, found once (a fresh lookup costs ~0.25 ms)."""
    return ThreadpoolController()


class ScaleSet:
    """``S_i = [−1, 1]^N ∩ {cuts}`` stored on its active coordinates, with a hit-and-run sampler."""

    def __init__(self, n_particles: int, n_steps: int, rng: np.random.Generator):
        n_particles = check_positive_int(n_particles, "n_particles")
        self.col: dict[int, int] = {}
        self.A = np.zeros((0, 0))
        self.b = np.zeros(0)
        self.X = np.zeros((n_particles, 0))
        self.n_steps = check_positive_int(n_steps, "n_steps", minimum=0)
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator; got {type(rng).__name__}")
        self.rng = rng

    @staticmethod
    def _direction(idx, vals) -> tuple[np.ndarray, np.ndarray]:
        """Validate a sparse direction: coordinates ``idx >= 0`` and finite ``vals`` alike."""
        idx = check_indices(idx, "idx", n=np.iinfo(np.int64).max, ndim=1)
        if idx.size == 0:
            raise ValueError(f"idx must hold at least one coordinate; got shape {idx.shape}")
        return idx, check_vector(vals, "vals", size=idx.size)

    def _activate(self, idx: np.ndarray) -> np.ndarray:
        new = [int(j) for j in idx if int(j) not in self.col]
        for j in new:
            self.col[j] = len(self.col)
        if new:
            self.A = np.hstack([self.A, np.zeros((len(self.A), len(new)))])
            self.X = np.hstack([self.X, self.rng.uniform(-1, 1, (len(self.X), len(new)))])
        return np.array([self.col[int(j)] for j in idx], dtype=np.int64)

    def width(self, idx: np.ndarray, vals: np.ndarray) -> float:
        """Exact width of ``S_i`` along the sparse direction ``(idx, vals)``."""
        idx, vals = self._direction(idx, vals)
        known = np.array([int(j) in self.col for j in idx], dtype=bool)
        free = 2.0 * float(np.abs(vals[~known]).sum())
        if not known.any():
            return free
        c = np.zeros(len(self.col))
        c[[self.col[int(j)] for j in idx[known]]] = vals[known]
        ext = []
        for sgn in (-1.0, 1.0):
            res = linprog(
                sgn * c,
                A_ub=self.A if len(self.b) else None,
                b_ub=self.b if len(self.b) else None,
                bounds=[(-1, 1)] * len(c),
                method="highs",
            )
            if res.status != 0:
                raise RuntimeError(f"Algorithm 2 width LP failed: {res.message}")
            ext.append(sgn * res.fun)
        return free + ext[0] - ext[1]  # ext = (max c·z, min c·z)

    def side_counts(self, idx: np.ndarray, vals: np.ndarray) -> tuple[int, int]:
        """Numbers of particles with ``v·z > 0`` and ``v·z < 0`` (inactive parts drawn fresh)."""
        idx, vals = self._direction(idx, vals)
        known = np.array([int(j) in self.col for j in idx], dtype=bool)
        s = np.zeros(len(self.X))
        if known.any():
            s += self.X[:, [self.col[int(j)] for j in idx[known]]] @ vals[known]
        if (~known).any():
            s += self.rng.uniform(-1, 1, (len(self.X), int((~known).sum()))) @ vals[~known]
        return int((s > 0).sum()), int((s < 0).sum())

    def cut(self, idx: np.ndarray, vals: np.ndarray, b: float) -> None:
        """Intersect with ``{z : Σ vals·z[idx] <= b}``; refresh the particles."""
        idx, vals = self._direction(idx, vals)
        b = check_real(b, "b")
        cols = self._activate(idx)
        row = np.zeros(len(self.col))
        row[cols] = vals
        self.A = np.vstack([self.A, row])
        self.b = np.append(self.b, b)
        keep = self.X @ row <= b
        if keep.any() and not keep.all():
            self.X[~keep] = self.X[self.rng.choice(np.flatnonzero(keep), int((~keep).sum()))]
        self._hit_and_run()

    def _hit_and_run(self) -> None:
        with _blas_controller().limit(limits=1, user_api="blas"):
            self._hit_and_run_steps()

    def _hit_and_run_steps(self) -> None:
        X = self.X
        for _ in range(self.n_steps):
            U = self.rng.standard_normal(X.shape)
            U /= np.linalg.norm(U, axis=1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                t1, t2 = (-1 - X) / U, (1 - X) / U
                lo = np.nanmax(np.minimum(t1, t2), axis=1)
                hi = np.nanmin(np.maximum(t1, t2), axis=1)
                au, slack = U @ self.A.T, self.b - X @ self.A.T
                t = slack / au
                hi = np.minimum(hi, np.where(au > 0, t, np.inf).min(axis=1, initial=np.inf))
                lo = np.maximum(lo, np.where(au < 0, t, -np.inf).max(axis=1, initial=-np.inf))
            hi = np.maximum(hi, lo)
            with np.errstate(invalid="ignore", over="ignore"):
                step = lo + (hi - lo) * self.rng.random(len(X))
            X = X + np.where(np.isfinite(step), step, 0.0)[:, None] * U
        self.X = X


def _claim29_radius(i: int, d: int, p: float) -> float:
    """Claim 29's radius ``0.1(pδ_i)^p`` of the ball around ``(G_i(x_1), G_i(x_2))`` in ``S_i``."""
    return 0.1 * (p * km.delta_i(i, d, p)) ** p


class MultiscaleLearner:
    """MULTISCALE NEAREST NEIGHBOR LEARNING FOR ``L^p`` NORMS (Algorithm 2), ``k = 2``.

    Parameters
    ----------
    d : int
        Dimension.
    p : float
        The norm, ``p >= 1`` (the paper's guarantee needs ``p > 2``).
    n_scales : int, default=8
        Scales ``i = 1 … n_scales`` kept (Remark E.3).
    n_particles, n_steps : int
        Hit-and-run population size and steps per cut.
    printed : bool, default=False
        Use the printed ``F_i`` of Definition 26 instead of the corrected one.
    seed : int or numpy.random.Generator, optional
        Sampler randomness.
    """

    def __init__(self, d, p, n_scales=8, n_particles=64, n_steps=2, printed=False, seed=None):
        self.d = check_positive_int(d, "d")
        self.p = check_real(p, "p", low=1.0)
        self.n_scales = check_positive_int(n_scales, "n_scales")
        rng = as_generator(seed)
        self.printed = bool(printed)
        self.S = {
            i: ScaleSet(
                check_positive_int(n_particles, "n_particles", minimum=2),
                check_positive_int(n_steps, "n_steps", minimum=0),
                rng,
            )
            for i in range(1, self.n_scales + 1)
        }
        self.N = {i: km.map_dimension(i, self.d, self.p) for i in self.S}

    def direction(self, q, i: int) -> tuple[np.ndarray, np.ndarray]:
        """``v_{i,t} = (−H_i(q), H_i(q))`` as sparse ``(indices, values)`` in ``R^{2N_i}``."""
        q = check_vector(q, "q", size=self.d)
        if isinstance(i, bool) or not isinstance(i, Integral) or i not in self.S:
            raise ValueError(f"i must be a scale in [1, {self.n_scales}]; got {i!r}")
        h = km.H_i(q, i, self.p, printed=self.printed)
        return np.concatenate([h.indices, self.N[i] + h.indices]), np.concatenate(
            [-h.values, h.values]
        )

    def scale(self, q) -> tuple[int | None, dict]:
        """Return ``i_t``, the smallest scale whose width reaches the threshold (or ``None``).

        The dictionary holds the sparse direction ``(idx, vals)`` of ``v_{i_t,t}`` and
        ``widths``, the widths ``w_{i,t}`` computed on the way (scales ``1 … i_t``).
        """
        q = check_vector(q, "q", size=self.d)
        widths = {}
        for i in self.S:
            idx, vals = self.direction(q, i)
            widths[i] = self.S[i].width(idx, vals)
            if widths[i] >= threshold(i, self.d, self.p):
                return i, {"idx": idx, "vals": vals, "widths": widths}
        return None, {"widths": widths}

    def assess(self, q) -> dict:
        """Scale ``i_t`` and the volume guess of Algorithm 2 for ``q``, without updating.

        Returns a dictionary with ``scale`` (``None`` if no scale qualifies), ``label`` (1 or
        2), ``widths`` and the direction ``idx``/``vals`` of ``v_{i_t,t}``.
        """
        i, v = self.scale(q)
        if i is None:  # Remark E.3: guess arbitrarily, no update
            return {"scale": None, "label": 1, **v}
        pos, neg = self.S[i].side_counts(v["idx"], v["vals"])
        return {"scale": i, "label": 1 if pos >= neg else 2, **v}

    def update(self, a: dict, true_label: int) -> bool:
        """Cut ``S_{i_t}`` with the true label (Algorithm 2's update); ``a`` from :meth:`assess`.

        Returns whether a cut was made (not when no scale qualified).
        """
        true_label = _check_label(true_label, "true_label", 2)
        i = a["scale"]
        if i is None:
            return False
        slack = 3 * self.d * (self.p * km.delta_i(i, self.d, self.p)) ** self.p
        if true_label == 1:  # keep v·z > −slack
            self.S[i].cut(a["idx"], -a["vals"], slack)
        else:  # keep v·z < slack
            self.S[i].cut(a["idx"], a["vals"], slack)
        return True

    def step(self, q, true_label: int) -> tuple[int, int | None]:
        """Guess, then update ``S_{i_t}`` with the true label; return ``(guess, i_t)``."""
        true_label = _check_label(true_label, "true_label", 2)
        a = self.assess(q)
        self.update(a, true_label)
        return a["label"], a["scale"]

    def centre_slack(self, x1, x2, *, ball: bool = False) -> float:
        """Claim 29's slack of the true pair's point ``c = (G_i(x_1), G_i(x_2))``, all scales.

        With ``ball=False``: ``min`` over all cuts of ``b − a·c`` (the point survives every
        cut: ``>= 0``). With ``ball=True``, Claim 29 as stated: ``S_i`` contains the ``L^2``
        ball of radius ``r_i = 0.1(pδ_i)^p`` around ``c``; the smaller of the two parts of
        :meth:`claim29_ball_parts`.
        """
        if not isinstance(ball, bool):
            raise TypeError(f"ball must be a bool; got {ball!r}")
        if ball:
            return min(self.claim29_ball_parts(x1, x2))
        x1 = check_vector(x1, "x1", size=self.d)
        x2 = check_vector(x2, "x2", size=self.d)
        return self._cut_slack(x1, x2, ball=False)

    def claim29_ball_parts(self, x1, x2) -> tuple[float, float]:
        """Claim 29's ball, part by part: ``(cuts, box)`` over all scales.

        For ``S_i = [−1, 1]^{2N_i} ∩ {A z <= b}`` the ball of radius ``r_i = 0.1(pδ_i)^p``
        around ``c = (G_i(x_1), G_i(x_2))`` is inside exactly when every cut has
        ``b − a·c − r_i‖a‖₂ >= 0`` (``cuts``, the proof's induction step) and every coordinate
        ``1 − r_i − |c_j| >= 0`` (``box``, the base case ``S_i^{(1)}``). ``S_i`` only shrinks,
        so the final sets decide every round.
        """
        x1 = check_vector(x1, "x1", size=self.d)
        x2 = check_vector(x2, "x2", size=self.d)
        box = np.inf
        for i in self.S:
            r = _claim29_radius(i, self.d, self.p)
            centre = np.concatenate([km.G_i(x1, i, self.p), km.G_i(x2, i, self.p)])
            box = min(box, float((1.0 - np.abs(centre).max()) - r))  # r may be below 1e-16
        return self._cut_slack(x1, x2, ball=True), box

    def _cut_slack(self, x1: np.ndarray, x2: np.ndarray, *, ball: bool) -> float:
        """``min`` over all cuts of ``b − a·c``, less ``r_i‖a‖₂`` with ``ball`` (checked input)."""
        worst = np.inf
        for i, S in self.S.items():
            if not len(S.b):
                continue
            z = np.zeros(len(S.col))
            keys = np.array(list(S.col.keys()), dtype=np.int64)
            cols = np.array(list(S.col.values()), dtype=np.int64)
            N, d, p = self.N[i], self.d, self.p
            for half, x in ((keys < N, x1), (keys >= N, x2)):
                g = keys[half] % N
                block = km.p_prime(p) * (2 * km.D_i(i, d, p) + 1)
                j, rest = np.divmod(g, block)
                c, k = np.divmod(rest, km.p_prime(p))
                arg = np.asarray(x)[j] / 2 - (c - km.D_i(i, d, p)) * km.delta_i(i, d, p)
                with np.errstate(divide="ignore"):
                    z[cols[half]] = np.sign(arg) ** k * np.abs(arg) ** (p - k)
            slack = S.b - S.A @ z
            if ball:
                slack = slack - _claim29_radius(i, d, p) * np.linalg.norm(S.A, axis=1)
            worst = min(worst, float(slack.min()))
        return worst


class MultiscaleMulticlassLearner:
    """Theorem 13: Algorithm 2 as the two-centre learner inside Theorem 11's reduction.

    One :class:`MultiscaleLearner` ``A_ij`` per pair ``i < j`` (label 1 of ``A_ij`` is centre
    ``i``). Each round, for the query ``q``:

    * ``L_ij = L_ji`` is the loss bound of :func:`scale_loss_bound` at ``A_ij``'s scale;
    * the potential of ``A_ij`` is ``Ψ_ij = Σ_s c_s log_{4/3} Vol(S_s)/Vol_min`` with
      ``c_s = scale_loss_bound(s, threshold(s − 1))`` (the explicit form of ``P_t`` in the
      proof of Theorem 13: a constant weight at coarse scales, a weight decaying like
      ``(2^s)^{−(p−1)}/Δ^{p−1}`` at fine ones). By Claim 30 a mistake at scale ``s`` shrinks
      ``Vol(S_s)`` by ``3/4``, so ``D_ij = c_{i_t}`` if ``A_ij`` would be wrong when ``i`` is
      true, else 0 (a certified lower bound on the decrease; a correct cut also only lowers
      ``Ψ``). Then ``D_ij >= L_ij`` on a mistake (Definition 9) and ``M + Mᵀ >= 0``.
    * ``v`` with ``Mv >= 0`` by LP (Lemma 3.2), label ``I_t ~ v``; on a mistake only
      ``A_{I_t r}`` is updated (cut with the truth), as in Theorem 11.

    If no scale qualifies for a pair (finitely many scales kept, Remark E.3), that pair gets
    ``D = 0`` and ``L`` from the last scale's width; such rounds are counted in
    ``no_scale_rounds`` since ``M + Mᵀ >= 0`` can then fail.

    Parameters
    ----------
    k : int
        Number of centres (>= 2).
    d : int
        Dimension.
    p : float
        The norm (``p > 2`` for Theorem 13; ``p >= 2`` accepted).
    Delta : float
        The ``L^p`` separation ``Δ ∈ (0, 2]`` of the centres (used by the loss bounds).
    n_scales, n_particles, n_steps : int
        As in :class:`MultiscaleLearner`.
    seed : int or numpy.random.Generator, optional
        Randomness (pair samplers and the label draws).
    """

    def __init__(self, k, d, p, Delta, n_scales=6, n_particles=64, n_steps=2, seed=None):
        self.k = check_positive_int(k, "k", minimum=2)
        self.d = check_positive_int(d, "d")
        self.p = check_real(p, "p", low=2.0)
        self.Delta = check_real(Delta, "Delta", low=0.0, high=2.0, low_inclusive=False)
        rng = as_generator(seed)
        self.rng = rng
        self.pairs = [(i, j) for i in range(self.k) for j in range(i + 1, self.k)]
        self.sub = {
            pr: MultiscaleLearner(d, p, n_scales, n_particles, n_steps, seed=s)
            for pr, s in zip(self.pairs, spawn(rng, len(self.pairs)), strict=True)
        }
        self.weights = {
            s: scale_loss_bound(
                s, threshold(s - 1, self.d, self.p) if s > 1 else None, self.d, self.p, self.Delta
            )
            for s in range(1, check_positive_int(n_scales, "n_scales") + 1)
        }
        self.n_infeasible = 0
        self.no_scale_rounds = 0
        self.min_Mv: list[float] = []
        self.min_sym: list[float] = []
        self.scales_used: list[int] = []  # scale of the updated pair (0: no update)
        self.n_updates = 0

    def round_matrices(self, q: np.ndarray):
        """``L``, ``D``, ``M = D − L/2`` and each pair's assessment for query ``q``."""
        q = check_vector(q, "q", size=self.d)
        k = self.k
        L, D = np.zeros((k, k)), np.zeros((k, k))
        info = {}
        for (i, j), learner in self.sub.items():
            a = learner.assess(q)
            info[(i, j)] = a
            s = a["scale"]
            if s is None:
                last = max(a["widths"])
                L[i, j] = L[j, i] = scale_loss_bound(
                    last + 1, a["widths"][last], self.d, self.p, self.Delta
                )
                continue
            L[i, j] = L[j, i] = scale_loss_bound(
                s, a["widths"].get(s - 1), self.d, self.p, self.Delta
            )
            # D_ij: certified decrease of Ψ_ij when i is the truth (label 1 of A_ij)
            D[i, j] = self.weights[s] if a["label"] == 2 else 0.0
            D[j, i] = self.weights[s] if a["label"] == 1 else 0.0
        return L, D, D - L / 2.0, info

    def step(self, q, true_label: int) -> tuple[int, float]:
        """Play one round (0-based labels); return the guess and ``min(Mv)``."""
        true_label = _check_label(true_label, "true_label", self.k, first=0)
        q = check_vector(q, "q", size=self.d)
        L, D, M, info = self.round_matrices(q)
        self.no_scale_rounds += any(a["scale"] is None for a in info.values())
        self.min_sym.append(float((M + M.T).min()))
        v, ok, t = lemma32_distribution(M)
        self.n_infeasible += not ok
        self.min_Mv.append(t)
        guess = int(self.rng.choice(self.k, p=v))
        used = 0
        if guess != true_label:
            i, j = min(guess, true_label), max(guess, true_label)
            if self.sub[(i, j)].update(info[(i, j)], 1 if true_label == i else 2):
                used = info[(i, j)]["scale"]
                self.n_updates += 1
        self.scales_used.append(used)
        return guess, t
