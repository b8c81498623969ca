r"""The sublevel-set range space of the Euclidean distance in the plane (slides "Recent Results").

The slides define, for a distance :math:`d`, the range space :math:`(X, \mathcal{R}_d)` with
ranges :math:`R_{p,\tau} = \{x \in X : d(p, x) \le \tau\}` and state that a random sample of
size :math:`O(\nu_d/\varepsilon^2)`, :math:`\nu_d` its VC-dimension, approximates
:math:`\mathrm{KDE}_X` to :math:`\pm\varepsilon` (Komaraju et al.). For the Euclidean distance in
:math:`\mathbb{R}^2` the ranges are closed discs, and :math:`\nu_d = 3`.

Whether a subset :math:`Z \subseteq Y` is cut out by a disc is a linear program, by the lift
:math:`x \mapsto (x, \|x\|^2)` (the same idea as the slide "Force h through Origin"):
:math:`\|x - c\|^2 \le r^2 \iff \|x\|^2 - \langle a, x\rangle - b \le 0` with :math:`a = 2c`,
:math:`b = r^2 - \|c\|^2`, linear in :math:`(a, b)`; a disc realises :math:`Z` iff some
:math:`(a, b)` puts :math:`Z` weakly below and :math:`Y \setminus Z` strictly above the lifted
plane.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slide "Recent Results
   (... of mine)": sublevel-set range space.
.. [2] V. N. Vapnik and A. Ya. Chervonenkis, "On the uniform convergence of relative
   frequencies of events to their probabilities", 1971 (VC-dimension, shattering).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from mlgeom._validation import check_indices, check_matrix, check_positive_int, check_real
from mlgeom.random import Seed, spawn

__all__ = ["disc_realizable", "disc_shattered", "disc_shattering_sweep"]


def disc_realizable(Y: Any, inside: Any, *, tol: float = 1e-9) -> bool:
    r"""Whether a closed disc contains exactly the points ``inside`` of ``Y``.

    Solves, by the lift :math:`x \mapsto (x, \|x\|^2)`, the linear program
    :math:`\max s` subject to :math:`\|x\|^2 - \langle a, x\rangle - b \le 0` for
    :math:`x \in Z`, :math:`\|x\|^2 - \langle a, x\rangle - b \ge s` for
    :math:`x \in Y \setminus Z`, and :math:`s \le 1`; the subset is realised iff the optimum
    exceeds ``tol`` (the empty subset always is: a small disc away from ``Y``).

    Parameters
    ----------
    Y : array_like of shape (m, 2)
        Distinct points in the plane.
    inside : array_like of int
        Indices of the points of :math:`Z` (may be empty).
    tol : float, default=1e-9
        Strictness of the separation (> 0).

    Returns
    -------
    bool
        True iff some disc :math:`R_{p,\tau}` has :math:`R_{p,\tau} \cap Y = Z`.

    Examples
    --------
    >>> Y = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    >>> disc_realizable(Y, [0, 2]), disc_realizable(Y, [0, 1])
    (False, True)
    """
    from scipy.optimize import linprog

    P = check_matrix(Y, "Y", n_cols=2)
    idx = check_indices(inside, "inside", n=P.shape[0], ndim=1)
    tol = check_real(tol, "tol", low=0.0, low_inclusive=False)
    mask = np.zeros(P.shape[0], dtype=bool)
    mask[idx] = True
    if not mask.any():
        return True
    q = (P * P).sum(axis=1)
    # variables (a1, a2, b, s); minimise -s
    rows, rhs = [], []
    for x, qx, z in zip(P, q, mask, strict=True):
        if z:  # q - <a, x> - b <= 0  ->  -<a, x> - b <= -q
            rows.append([-x[0], -x[1], -1.0, 0.0])
            rhs.append(-qx)
        else:  # q - <a, x> - b >= s  ->  <a, x> + b + s <= q
            rows.append([x[0], x[1], 1.0, 1.0])
            rhs.append(qx)
    res = linprog(
        c=[0.0, 0.0, 0.0, -1.0],
        A_ub=np.array(rows),
        b_ub=np.array(rhs),
        bounds=[(None, None), (None, None), (None, None), (None, 1.0)],
        method="highs",
    )
    return bool(res.status == 0 and -res.fun > tol)


def disc_shattered(Y: Any) -> bool:
    r"""Whether the discs shatter ``Y``: every subset :math:`Z \subseteq Y` is a range.

    Tries the :math:`2^m` subsets (largest first, stopping at the first one no disc cuts out).

    Parameters
    ----------
    Y : array_like of shape (m, 2)
        Points in the plane (:math:`m \le 12`).

    Returns
    -------
    bool
        True iff all :math:`2^m` subsets are realised by a disc.
    """
    P = check_matrix(Y, "Y", n_cols=2)
    m = P.shape[0]
    if m > 12:
        raise ValueError(f"Y must have at most 12 points (2^m linear programs); got {m}")
    for size in range(m, -1, -1):
        for Z in combinations(range(m), size):
            if not disc_realizable(P, list(Z)):
                return False
    return True


def disc_shattering_sweep(sizes: Any, n_sets: int, *, seed: Seed) -> dict[int, float]:
    r"""Share of random point sets of each size that the discs shatter.

    For each size :math:`m`, ``n_sets`` independent sets of :math:`m` points uniform in the unit
    square. The VC-dimension of discs in the plane is 3 (a classical fact): every 3 points
    not on a line are shattered, and no 4 points are.

    Parameters
    ----------
    sizes : array_like of int
        Set sizes :math:`m` (1 to 12).
    n_sets : int
        Sets per size.
    seed : int or numpy.random.Generator
        Random stream (one child per set).

    Returns
    -------
    dict of int to float
        For each size, the share of sets shattered.
    """
    from mlgeom._validation import check_int_vector

    ms = check_int_vector(sizes, "sizes", minimum=1, maximum=12)
    n_sets = check_positive_int(n_sets, "n_sets")
    out: dict[int, float] = {}
    for m, g in zip(ms, spawn(seed, ms.size), strict=True):
        hits = [disc_shattered(h.random((int(m), 2))) for h in spawn(g, n_sets)]
        out[int(m)] = float(np.mean(hits))
    return out
