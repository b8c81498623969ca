r"""Weighted sampling of the primer: priority sampling and the partition of unity.

Two ways of summarising a weighted set :math:`A = \{a_1, \dots, a_n\}` with weights
:math:`w_i = w(a_i) > 0` and total :math:`W = \sum_i w_i`, from the primer's "Example:
Priority Sampling" and the "partition of unity" paragraph right after it.

*Priority sampling* [2]_ keeps :math:`k` items and reweights them so that the total is
estimated without bias. Each item gets a priority

.. math::

    \rho_i = w_i / u_i, \qquad u_i \sim \mathrm{unif}(0, 1],

the :math:`k` items of largest priority are kept, :math:`\tau` is the :math:`(k+1)`-th largest
priority, and the kept items get new weights :math:`w'_i = \max(w_i, \tau)` (the others
:math:`w'_i = 0`). Then :math:`\mathbf{E}[w'_i] = w_i` for every :math:`i`, so
:math:`W' = \sum_i w'_i` is an unbiased estimate of :math:`W`.

*Weighted sampling by a partition of unity* draws one item with probability :math:`w_i / W`:
stack the normalised weights end to end in :math:`[0, 1]`, with boundaries
:math:`t_i = \sum_{j \le i} w_j / W`, draw :math:`u \sim \mathrm{unif}(0, 1]` and return the
item :math:`i` with :math:`t_{i-1} < u \le t_i`.

Indices are 0-based in code and 1-based in the primer: the primer's :math:`a_i` is index
``i - 1`` here.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Priority
   Sampling" and the partition-of-unity paragraph that follows it.
.. [2] N. Duffield, C. Lund and M. Thorup, "Priority sampling for estimation of arbitrary
   subset sums", Journal of the ACM 54(6), article 32, 2007.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import read_only
from mlgeom._validation import check_positive_int, check_real, check_vector
from mlgeom.random import Seed, as_generator

__all__ = [
    "PrioritySample",
    "priority_sample",
    "priority_estimate_from_tau",
    "cumulative_weights",
    "select_by_cumulative",
    "weighted_sample",
]


def _check_weights(weights: Any, name: str = "weights", *, min_size: int = 1) -> np.ndarray:
    """Return ``weights`` as a finite, strictly positive 1-D float array, or raise."""
    w = check_vector(weights, name, min_size=min_size)
    if np.any(w <= 0):
        i = int(np.flatnonzero(w <= 0)[0])
        raise ValueError(f"{name} must be > 0; got {w[i]} at index {i}")
    return w


def _check_uniforms(u: Any, name: str, size: int) -> np.ndarray:
    """Return ``u`` as a length-``size`` array of values in ``(0, 1]``, or raise."""
    arr = check_vector(u, name, size=size)
    bad = (arr <= 0) | (arr > 1)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must lie in (0, 1]; got {arr[i]} at index {i}")
    return arr


@dataclass(frozen=True, eq=False)
class PrioritySample:
    r"""Result of :func:`priority_sample`.

    Attributes
    ----------
    indices : numpy.ndarray of int
        0-based indices of the kept items, ordered by decreasing priority; length
        ``min(k, n)``.
    priorities : numpy.ndarray of float
        The priorities :math:`\rho_i = w_i / u_i` of all ``n`` items, in input order.
    tau : float
        The threshold :math:`\tau`: the :math:`(k+1)`-th largest priority, or ``0.0`` when
        ``k >= n`` (every item kept).
    adjusted_weights : numpy.ndarray of float
        The new weights :math:`w'_i` of all ``n`` items, in input order:
        :math:`\max(w_i, \tau)` for kept items and ``0`` for the others.
    estimate : float
        The estimate :math:`W' = \sum_i w'_i` of the total weight :math:`W`.
    """

    indices: np.ndarray
    priorities: np.ndarray
    tau: float
    adjusted_weights: np.ndarray
    estimate: float


def priority_sample(
    weights: Any,
    k: int,
    *,
    seed: Seed = None,
    u: Any = None,
) -> PrioritySample:
    r"""Draw a priority sample of ``k`` items and its unbiased estimate of the total weight.

    Each item gets the priority :math:`\rho_i = w_i / u_i` with
    :math:`u_i \sim \mathrm{unif}(0, 1]`; the ``k`` items with the largest priorities are
    kept; :math:`\tau` is the :math:`(k+1)`-th largest priority; the kept items get weights
    :math:`w'_i = \max(w_i, \tau)` and the others :math:`0`. The estimate
    :math:`W' = \sum_i w'_i` satisfies :math:`\mathbf{E}[W'] = W` [2]_.

    The threshold is the :math:`(k+1)`-th largest priority, *not* the :math:`k`-th: the primer
    says, for :math:`k = 4`, "the 5th-largest priority value :math:`\rho_4 = \tau`", i.e. it
    numbers the sorted priorities from 0 (:math:`\rho_0 \ge \rho_1 \ge \dots`), so its
    :math:`\rho_k` is the :math:`(k+1)`-th largest. This is the threshold of Duffield, Lund and
    Thorup, and the one that makes the estimate unbiased.

    Parameters
    ----------
    weights : array_like of shape (n,)
        The weights :math:`w_i`; finite and ``> 0``.
    k : int
        Number of items to keep; ``>= 1``. If ``k >= n`` every item is kept with its own
        weight, ``tau = 0`` and the estimate is :math:`W` itself.
    seed : int, numpy.random.Generator or None, default=None
        Source of the uniforms :math:`u_i`, drawn as ``1 - rng.random(n)`` so that they lie in
        :math:`(0, 1]` (0 excluded, 1 included). Must be ``None`` when ``u`` is given.
    u : array_like of shape (n,), optional
        Explicit uniforms :math:`u_i \in (0, 1]`, e.g. to replay a worked example.

    Returns
    -------
    PrioritySample
        Kept indices (by decreasing priority), all priorities, ``tau``, the adjusted weights
        and the estimate :math:`W'`.

    Raises
    ------
    ValueError
        If a weight is not finite or not ``> 0``, ``k < 1``, ``u`` has the wrong length or a
        value outside :math:`(0, 1]`, or both ``seed`` and ``u`` are given.

    Notes
    -----
    Ties between priorities (probability zero with random uniforms) are broken in favour of
    the lower index.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Priority
       Sampling".
    .. [2] N. Duffield, C. Lund and M. Thorup, "Priority sampling for estimation of arbitrary
       subset sums", Journal of the ACM 54(6), article 32, 2007.

    Examples
    --------
    >>> s = priority_sample([4.0, 3.0, 2.0, 1.0], 2, u=[0.5, 1.0, 0.5, 0.5])
    >>> s.indices.tolist(), s.tau, s.adjusted_weights.tolist(), s.estimate
    ([0, 2], 3.0, [4.0, 0.0, 3.0, 0.0], 7.0)
    """
    w = _check_weights(weights)
    n = w.shape[0]
    k = check_positive_int(k, "k")
    if u is None:
        # u_i ~ unif(0, 1]: rng.random() is in [0, 1), so 1 - rng.random() is in (0, 1].
        u_arr = 1.0 - as_generator(seed).random(n)
    else:
        if seed is not None:
            raise ValueError(f"pass either seed or u, not both; got seed={seed!r} and u")
        u_arr = _check_uniforms(u, "u", n)

    # Primer: priority rho_i = w(a_i) / u_i.
    rho = w / u_arr
    if not np.all(np.isfinite(rho)):
        i = int(np.flatnonzero(~np.isfinite(rho))[0])
        raise ValueError(f"priority w/u overflowed at index {i} (w={w[i]}, u={u_arr[i]})")
    order = np.argsort(-rho, kind="stable")  # decreasing priority, ties to the lower index

    if k >= n:
        kept = order
        tau = 0.0
        adjusted = w.copy()
    else:
        kept = order[:k]
        # Primer: "the 5th-largest priority value rho_4 = tau" for k = 4 -> the (k+1)-th largest.
        tau = float(rho[order[k]])
        adjusted = np.zeros(n)
        # Primer: w'(a_i) = max(w(a_i), tau) for kept items, 0 for the others.
        adjusted[kept] = np.maximum(w[kept], tau)
    # Primer: W' = sum_i w'(a_i).
    estimate = float(np.sum(adjusted))
    return PrioritySample(
        indices=read_only(np.array(kept, dtype=np.intp)),
        priorities=read_only(rho),
        tau=tau,
        adjusted_weights=read_only(adjusted),
        estimate=estimate,
    )


def priority_estimate_from_tau(kept_weights: Any, tau: float) -> float:
    r"""Return the priority-sampling estimate :math:`W' = \sum_{\text{kept}} \max(w_i, \tau)`.

    Recomputes the primer's estimate from printed numbers: with kept weights
    :math:`w(a_1) = 1.80` and three weights below :math:`\tau = 1.10`, the estimate is
    :math:`W' = 1.80 + 3 \cdot 1.10 = 5.10`.

    Parameters
    ----------
    kept_weights : array_like of shape (k,)
        Original weights of the kept items; finite and ``> 0``. May be empty (estimate 0).
    tau : float
        The threshold :math:`\tau \ge 0`.

    Returns
    -------
    float
        :math:`\sum_i \max(w_i, \tau)`.

    Raises
    ------
    ValueError
        If a weight is not finite or not ``> 0``, or ``tau`` is negative or not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Priority
       Sampling".
    .. [2] N. Duffield, C. Lund and M. Thorup, "Priority sampling for estimation of arbitrary
       subset sums", Journal of the ACM 54(6), article 32, 2007.

    Examples
    --------
    >>> round(priority_estimate_from_tau([1.80, 1.0, 0.9, 0.7], 1.10), 12)
    5.1
    """
    w = _check_weights(kept_weights, "kept_weights", min_size=0)
    tau = check_real(tau, "tau", low=0.0)
    # Primer: W' = sum_i w'(a_i) with w'(a_i) = max(w(a_i), tau) for the kept items.
    return float(np.sum(np.maximum(w, tau)))


def cumulative_weights(weights: Any) -> np.ndarray:
    r"""Return the partition-of-unity boundaries :math:`t_i = \sum_{j \le i} w_j / W`.

    :math:`t_i` is "the accumulation of probability that one of the first :math:`i` values is
    chosen" (primer). The last entry is set to exactly ``1.0`` so that every
    :math:`u \in (0, 1]` falls in some cell.

    Parameters
    ----------
    weights : array_like of shape (n,)
        The weights; finite and ``> 0``.

    Returns
    -------
    numpy.ndarray of shape (n,)
        Strictly increasing boundaries in :math:`(0, 1]` with ``t[-1] == 1.0``; the 0-based
        entry ``t[i]`` is the primer's :math:`t_{i+1}`.

    Raises
    ------
    ValueError
        If a weight is not finite or not ``> 0``.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", partition-of-unity
       paragraph after "Example: Priority Sampling".

    Examples
    --------
    >>> cumulative_weights([1.0, 1.0, 2.0]).tolist()
    [0.25, 0.5, 1.0]
    """
    w = _check_weights(weights)
    c = np.cumsum(w)
    # Primer: t_i = sum_{j <= i} w(a_j) / W, with W the last partial sum (so t_n = 1).
    t = c / c[-1]
    t[-1] = 1.0
    return t


def _check_boundaries(t: Any) -> np.ndarray:
    """Validate partition-of-unity boundaries: non-decreasing, in [0, 1], last entry 1."""
    arr = check_vector(t, "t")
    if np.any(arr < 0) or np.any(arr > 1):
        i = int(np.flatnonzero((arr < 0) | (arr > 1))[0])
        raise ValueError(f"t must lie in [0, 1]; got {arr[i]} at index {i}")
    if np.any(np.diff(arr) < 0):
        i = int(np.flatnonzero(np.diff(arr) < 0)[0])
        raise ValueError(
            f"t must be non-decreasing; got t[{i}] = {arr[i]} > t[{i + 1}] = {arr[i + 1]}"
        )
    if not np.isclose(arr[-1], 1.0, rtol=0.0, atol=1e-9):
        raise ValueError(f"t must end at 1 (a partition of unity); got t[-1] = {arr[-1]}")
    return arr


def select_by_cumulative(t: Any, u: float) -> int:
    r"""Return the 0-based index :math:`i` with :math:`t_{i-1} < u \le t_i` (:math:`t_{-1} = 0`).

    This is the primer's partition-of-unity selection: a uniform :math:`u \in (0, 1]` lands in
    the cell of item :math:`i`. A value on a boundary, :math:`u = t_i`, goes to item :math:`i`
    (the cell is closed on the right); :math:`u = 1` goes to the last item with non-zero
    width.

    **The primer's worked example is off by one.** It reports :math:`t_2 = 0.58`,
    :math:`t_3 = 0.74` and :math:`u = 0.68`, and says the item selected is :math:`a_2`
    "for :math:`t_2 < u \le t_3`". Under its own definition (:math:`t_i` is the probability
    that one of the *first* :math:`i` values is chosen) the cell :math:`(t_2, t_3]` belongs to
    the *third* item :math:`a_3`, which is what this function returns (0-based index 2, since
    ``t[1] = 0.58 < 0.68 <= t[2] = 0.74``). The notebook records this discrepancy.

    Parameters
    ----------
    t : array_like of shape (n,)
        Boundaries as returned by :func:`cumulative_weights`: non-decreasing, in
        :math:`[0, 1]`, last entry 1 (within ``1e-9``; rounded printed values are accepted).
    u : float
        A value in :math:`(0, 1]`.

    Returns
    -------
    int
        The selected 0-based index.

    Raises
    ------
    ValueError
        If ``t`` is not a partition of unity or ``u`` is outside :math:`(0, 1]`.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", partition-of-unity
       paragraph after "Example: Priority Sampling".

    Examples
    --------
    >>> select_by_cumulative([0.30, 0.58, 0.74, 0.90, 1.00], 0.68)  # the primer's a_3
    2
    """
    arr = _check_boundaries(t)
    u = check_real(u, "u", low=0.0, high=1.0, low_inclusive=False)
    # Primer: select i with t_{i-1} < u <= t_i; searchsorted(side="left") is the first i
    # with u <= t_i. The clip covers a last boundary that is 1 only up to rounding.
    return int(min(np.searchsorted(arr, u, side="left"), arr.shape[0] - 1))


def weighted_sample(weights: Any, size: int, *, seed: Seed = None) -> np.ndarray:
    r"""Draw ``size`` indices independently with probabilities :math:`w_i / W` (with replacement).

    Vectorised partition of unity: boundaries :math:`t_i` from :func:`cumulative_weights`, one
    uniform :math:`u \in (0, 1]` per draw (``1 - rng.random()``), and the index :math:`i` with
    :math:`t_{i-1} < u \le t_i`, exactly as in :func:`select_by_cumulative`.

    Parameters
    ----------
    weights : array_like of shape (n,)
        The weights; finite and ``> 0``.
    size : int
        Number of draws; ``>= 0``.
    seed : int, numpy.random.Generator or None, default=None
        Source of the uniforms.

    Returns
    -------
    numpy.ndarray of int, shape (size,)
        The drawn 0-based indices.

    Raises
    ------
    ValueError
        If a weight is not finite or not ``> 0``, or ``size`` is negative or not an integer.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", partition-of-unity
       paragraph after "Example: Priority Sampling".
    """
    t = cumulative_weights(weights)
    size = check_positive_int(size, "size", minimum=0)
    # u ~ unif(0, 1], as in the primer.
    u = 1.0 - as_generator(seed).random(size)
    # Primer: t_{i-1} < u <= t_i (t[-1] == 1.0 exactly, so the index is always < n).
    return np.searchsorted(t, u, side="left").astype(np.intp)
