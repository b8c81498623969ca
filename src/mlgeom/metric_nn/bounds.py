r"""Risk bounds of Kontorovich & Weiss (2014) for multiclass nearest neighbours.

All functions are vectorised over their array arguments (numpy broadcasting) and use natural
logarithms except where the paper writes :math:`\log_2`.

* :func:`log_covering_lemma2` -- Lemma 2:
  :math:`\log N(\varepsilon, H_L, \|\cdot\|_\infty) \le (16L/\varepsilon)^D \log(5k/\varepsilon)`.
* :func:`log_covering_lemma3` -- Lemma 3 (connected, centred spaces), in the explicit form its
  proof gives: :math:`|\hat H| \le (\lceil 4k/\varepsilon\rceil + 1)(2k+1)^{|N| - 1}` with
  :math:`|N| \le (16L/\varepsilon)^D`, i.e.
  :math:`O((L/\varepsilon)^D \log k + \log(1/\varepsilon))`.
* :func:`delta_rad` -- Theorem 4:
  :math:`c_D L \left(\frac{\log 5k}{n}\right)^{1/(D+1)} +
  \sqrt{\frac{(\log\log_2 2L)_+}{n}} + \sqrt{\frac{\log(2/\delta)}{2n}}`.
* :func:`delta_fat` -- Theorem 5:
  :math:`\sqrt{\frac{2}{n}\left(2\,(16L)^D \log(20k) + \ln\frac{2L}{\delta}\right)} + \frac1n`.
* :func:`delta_combined` -- Section 3.2.4:
  :math:`\Delta = \min\{\Delta_{\rm Rad}, \Delta_{\rm fat}\}`.
* :func:`theorem1_bound` -- Theorem 1:
  :math:`\mathbb E_S[P(g_{NN}(X) \ne Y)] \le 2P(g^*(X) \ne Y) + 4L/n^{1/(D+1)}`.
* :func:`table1_rates` -- Table 1: the competing margin-based rates and eq. (1) as numbers.

Reading the printed formulas
----------------------------
The paper's text gives the bounds only in typeset form; two points are our reading.

* **The constant** :math:`c_D` of Theorem 4 (eq. 10) "depends only on D" and is derived in
  Appendix B, which is not in our copy. We use :data:`C_D_DEFAULT` ``= 1``: it is the value under
  which Figure 3 (y-axis 0 to 1, curves for :math:`L = 1, \dots, 8` starting near
  :math:`8 \cdot (\log 50/10^6)^{1/6} \approx 1` at :math:`m = 10^6`) is drawn, and every
  function takes ``c_D`` as a parameter. It is a plotting constant, not a proven one: a
  Dudley-integral constant from Lemma 2 is orders of magnitude larger.
* **The positive part** in :math:`(\log\log_2 2L)_+`: for :math:`L \le 1` the iterated logarithm
  is :math:`\le 0` (or undefined); the stratification over :math:`L` that produces this term
  starts at :math:`L = 1`, so the term is 0 there.
* **Theorem 5's factor 2**: the extracted formula reads
  ``2 (16L)^D log(20k)`` inside the square root, i.e. :math:`2(16L)^D\log(20k)`; we implement
  it as printed (``fat_factor=2``) and the chapter shows the effect of dropping it.
* **Small L and the limit L -> 0.** Theorem 5's :math:`\ln(2L/\delta)` is read as
  :math:`\ln(2\max\{L,1\}/\delta)` (the first stratum's confidence term; see
  :func:`delta_fat`), so :math:`\Delta_{\rm fat}` never falls below
  :math:`\sqrt{2\ln(2/\delta)/n}`. Both terms accept ``L = 0``, the limit the SRM of
  :mod:`mlgeom.metric_nn.srm` includes: :math:`\Delta(n, 0, \delta) =
  \sqrt{\log(2/\delta)/(2n)}`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_positive_int, check_real

__all__ = [
    "C_D_DEFAULT",
    "BOUNDS",
    "complexity",
    "crossover",
    "delta_combined",
    "delta_fat",
    "delta_rad",
    "log_covering_lemma2",
    "log_covering_lemma3",
    "TABLE1_RATES",
    "table1_rates",
    "theorem1_bound",
]

#: The constant :math:`c_D` of Theorem 4 used by default (the value Figure 3 is drawn with).
C_D_DEFAULT = 1.0

#: Names of the complexity terms :func:`complexity` accepts.
BOUNDS: tuple[str, ...] = ("min", "rad", "fat")


def _floats(x: Any, name: str) -> np.ndarray:
    """Return ``x`` (a number or an array of numbers) as a float array, or raise naming it."""
    raw = np.asarray(x)
    if raw.dtype.kind not in "biufO":
        raise ValueError(f"{name} must be a number or an array of numbers; got {x!r:.60}")
    try:
        return np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a number or an array of numbers; got {x!r:.60}") from exc


def _pos(x: Any, name: str) -> np.ndarray:
    arr = _floats(x, name)
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        bad = arr[~(np.isfinite(arr) & (arr > 0))].ravel()[0]
        raise ValueError(f"{name} must be finite and > 0; got {bad}")
    return arr


def _nonneg(x: Any, name: str) -> np.ndarray:
    arr = _floats(x, name)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        bad = arr[~(np.isfinite(arr) & (arr >= 0))].ravel()[0]
        raise ValueError(f"{name} must be finite and >= 0 (0: the limit L -> 0); got {bad}")
    return arr


def _together(**arrays: np.ndarray) -> None:
    """Raise ``ValueError`` naming the arguments whose shapes do not broadcast together."""
    try:
        np.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(a)}" for k, a in arrays.items())
        raise ValueError(
            f"{', '.join(arrays)} must be numbers or arrays that broadcast together; got "
            f"shapes {shapes}"
        ) from None


def _delta(delta: float) -> float:
    return check_real(delta, "delta", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def _k(k: Any) -> np.ndarray:
    arr = _floats(k, "k")
    if not np.all(np.isfinite(arr)) or np.any(arr < 2) or np.any(arr != np.round(arr)):
        raise ValueError(f"k (number of classes) must be an integer >= 2; got {k!r}")
    return arr


def log_covering_lemma2(eps: Any, L: Any, k: Any, D: float) -> np.ndarray:
    r"""Lemma 2's bound on the metric entropy of :math:`H_L`.

    :math:`\log N(\varepsilon, H_L, \|\cdot\|_\infty) \le (16L/\varepsilon)^D
    \log(5k/\varepsilon)`.

    Parameters
    ----------
    eps : float or array_like
        Scale :math:`\varepsilon > 0`.
    L : float or array_like
        Lipschitz constant.
    k : int or array_like
        Number of classes (>= 2).
    D : float
        Doubling dimension.
    """
    eps, L, k = _pos(eps, "eps"), _pos(L, "L"), _k(k)
    _together(eps=eps, L=L, k=k)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    return (16.0 * L / eps) ** D * np.log(5.0 * k / eps)


def log_covering_lemma3(eps: Any, L: Any, k: Any, D: float) -> np.ndarray:
    r"""Lemma 3's bound on the metric entropy of :math:`H_L`, in its explicit form.

    :math:`\log(\lceil 4k/\varepsilon\rceil + 1) + (|N| - 1)\log(2k + 1)`.

    With :math:`|N| = (16L/\varepsilon)^D` (the bound on the cover of :math:`\mathcal X` used in
    Lemma 2's proof). For :math:`\varepsilon \le 1` it never exceeds Lemma 2 and the gap is the
    factor :math:`\log(2k+1)/\log(5k/\varepsilon)` on the leading term.
    """
    eps, L, k = _pos(eps, "eps"), _pos(L, "L"), _k(k)
    _together(eps=eps, L=L, k=k)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    N = (16.0 * L / eps) ** D
    return np.log(np.ceil(4.0 * k / eps) + 1.0) + (N - 1.0) * np.log(2.0 * k + 1.0)


def delta_rad(
    n: Any, L: Any, delta: float, k: Any, D: float, c_D: float = C_D_DEFAULT
) -> np.ndarray:
    r"""Theorem 4's complexity term :math:`\Delta_{\rm Rad}(n, L, \delta)`.

    .. math::
        c_D L \left(\frac{\log 5k}{n}\right)^{\frac{1}{D+1}}
        + \sqrt{\frac{(\log \log_2 2L)_+}{n}} + \sqrt{\frac{\log(2/\delta)}{2n}}

    Parameters
    ----------
    n : float or array_like
        Sample size.
    L : float or array_like
        Lipschitz constant (>= 0; ``0`` is the limit :math:`L \to 0`, where only the
        confidence term is left).
    delta : float
        Confidence parameter in (0, 1).
    k : int or array_like
        Number of classes (>= 2).
    D : float
        Doubling dimension (> 0).
    c_D : float, default=C_D_DEFAULT
        The constant of eq. (10) (see the module notes).
    """
    n, L, k = _pos(n, "n"), _nonneg(L, "L"), _k(k)
    _together(n=n, L=L, k=k)
    delta = _delta(delta)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    c_D = check_real(c_D, "c_D", low=0.0, low_inclusive=False)
    loglog = np.log(np.maximum(np.log2(2.0 * np.maximum(L, 1.0)), 1.0))  # (log log2 2L)_+
    return (
        c_D * L * (np.log(5.0 * k) / n) ** (1.0 / (D + 1.0))
        + np.sqrt(loglog / n)
        + np.sqrt(np.log(2.0 / delta) / (2.0 * n))
    )


def delta_fat(
    n: Any, L: Any, delta: float, k: Any, D: float, fat_factor: float = 2.0
) -> np.ndarray:
    r"""Theorem 5's complexity term :math:`\Delta_{\rm fat}(n, L, \delta)`.

    .. math::
        \sqrt{\frac{2}{n}\left(2\,(16L)^D \log(20k) + \ln\frac{2L}{\delta}\right)} + \frac{1}{n}

    ``fat_factor`` is the coefficient of :math:`(16L)^D \log(20k)` (2 as printed; see the
    module notes).

    **Small L.** :math:`\ln(2L/\delta)` is the price of the union bound over the dyadic strata
    of :math:`L`; like the :math:`(\log\log_2 2L)_+` of Theorem 4, the stratification starts
    at :math:`L = 1`, so for :math:`L < 1` we charge the first stratum's
    :math:`\ln(2/\delta)`, i.e. we read the term as :math:`\ln(2\max\{L, 1\}/\delta)`.
    Read literally, the inner term turns negative for :math:`L < \delta/2` and the bound would
    tend to :math:`1/n` as :math:`L \to 0`, which no bound holding with probability
    :math:`1 - \delta` for a classifier with non-zero empirical loss can do. In the limit
    ``L = 0`` (accepted) the bound is :math:`\sqrt{2\ln(2/\delta)/n} + 1/n`.
    """
    n, L, k = _pos(n, "n"), _nonneg(L, "L"), _k(k)
    _together(n=n, L=L, k=k)
    delta = _delta(delta)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    fat_factor = check_real(fat_factor, "fat_factor", low=0.0, low_inclusive=False)
    return _fat_term(n, L, delta, k, D, fat_factor)


def _fat_term(n, L, delta, k, D, fat_factor, shrink: float = 1.0) -> np.ndarray:
    """Theorem 5's term on validated inputs, with ``16L`` and ``20k`` divided by ``shrink``.

    ``shrink = 1`` is :func:`delta_fat`; ``shrink = 1 − 8η`` is Lemma 6 at the covering scale
    ``1/4`` (:func:`mlgeom.metric_nn.perturbation.delta_eta`).
    """
    inner = fat_factor * (16.0 * L / shrink) ** D * np.log(20.0 * k / shrink) + np.log(
        2.0 * np.maximum(L, 1.0) / delta
    )
    return np.sqrt(2.0 / n * inner) + 1.0 / n


def delta_combined(
    n: Any,
    L: Any,
    delta: float,
    k: Any,
    D: float,
    c_D: float = C_D_DEFAULT,
    fat_factor: float = 2.0,
) -> np.ndarray:
    r"""Section 3.2.4: :math:`\Delta = \min\{\Delta_{\rm Rad}, \Delta_{\rm fat}\}` (Figure 3)."""
    return np.minimum(delta_rad(n, L, delta, k, D, c_D), delta_fat(n, L, delta, k, D, fat_factor))


def complexity(
    bound: str,
    n: Any,
    L: Any,
    delta: float,
    k: Any,
    D: float,
    c_D: float = C_D_DEFAULT,
    fat_factor: float = 2.0,
) -> np.ndarray:
    """Dispatch to :func:`delta_combined` (``"min"``), :func:`delta_rad` or :func:`delta_fat`."""
    if bound == "min":
        return delta_combined(n, L, delta, k, D, c_D, fat_factor)
    if bound == "rad":
        return delta_rad(n, L, delta, k, D, c_D)
    if bound == "fat":
        return delta_fat(n, L, delta, k, D, fat_factor)
    raise ValueError(f"bound must be one of 'min', 'rad', 'fat'; got {bound!r}")


def crossover(
    L: float,
    delta: float,
    k: int,
    D: float,
    c_D: float = C_D_DEFAULT,
    fat_factor: float = 2.0,
    n_range: tuple[float, float] = (1e2, 1e30),
) -> float:
    r"""Sample size at which :math:`\Delta_{\rm fat}` drops below :math:`\Delta_{\rm Rad}`.

    :math:`\Delta_{\rm fat} - \Delta_{\rm Rad}` changes sign once on ``n_range`` (the fat
    term decays like :math:`n^{-1/2}`, the Rademacher term like :math:`n^{-1/(D+1)}`); the root
    is found by bisection in :math:`\log n`. Returns ``nan`` if there is no sign change.
    """
    L = check_real(L, "L", low=0.0)
    delta = _delta(delta)
    k = check_positive_int(k, "k", minimum=2)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    c_D = check_real(c_D, "c_D", low=0.0, low_inclusive=False)
    fat_factor = check_real(fat_factor, "fat_factor", low=0.0, low_inclusive=False)
    try:
        n_lo, n_hi = (float(v) for v in n_range)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"n_range must be a pair (low, high); got {n_range!r:.60}") from exc
    if not (0.0 < n_lo < n_hi < np.inf):
        raise ValueError(f"n_range must satisfy 0 < low < high < inf; got {n_range!r}")
    lo, hi = np.log(n_range[0]), np.log(n_range[1])

    def gap(logn: float) -> float:
        n = np.exp(logn)
        return float(delta_fat(n, L, delta, k, D, fat_factor) - delta_rad(n, L, delta, k, D, c_D))

    if not (gap(lo) > 0 > gap(hi)):
        return float("nan")
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if gap(mid) > 0:
            lo = mid
        else:
            hi = mid
    return float(np.exp(hi))


def theorem1_bound(n: Any, bayes_risk: float, L: float, D: float) -> np.ndarray:
    r"""Theorem 1: :math:`2 P(g^*(X) \ne Y) + 4L / n^{1/(D+1)}`.

    Parameters
    ----------
    n : int or array_like
        Sample size.
    bayes_risk : float
        :math:`P(g^*(X) \ne Y)` in [0, 1].
    L : float
        Lipschitz constant of :math:`\eta` in the sup-norm.
    D : float
        Doubling dimension of :math:`\mathcal X` (with :math:`\operatorname{diam} = 1`).
    """
    n = _pos(n, "n")
    bayes_risk = check_real(bayes_risk, "bayes_risk", low=0.0, high=1.0)
    L = check_real(L, "L", low=0.0)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    return 2.0 * bayes_risk + 4.0 * L / n ** (1.0 / (D + 1.0))


#: The margin-based rows of Table 1 that need no combinatorial dimension, as
#: ``name -> (group, rate)`` with ``rate(n, k, gamma, D)`` the printed :math:`\tilde O(\cdot)`.
TABLE1_RATES: dict[str, tuple[str, Any]] = {
    "Crammer & Singer (2002b)": ("(I,b)", lambda n, k, g, D: k**2 / (g**2 * n)),
    "Mohri et al. (2012)": ("(I,b)", lambda n, k, g, D: k**2 / (g * np.sqrt(n))),
    "Cortes et al. (2013)": ("(I,b)", lambda n, k, g, D: k / (g * np.sqrt(n))),
    "Guermeur (2010), Hilbert": ("(I,b)", lambda n, k, g, D: k / (g**2 * np.sqrt(n))),
    "Zhang (2004)": ("(I,b)", lambda n, k, g, D: np.sqrt(k / n) / g),
    "this paper, Theorem 5": ("(I,c)", lambda n, k, g, D: g ** (-D / 2) * np.sqrt(np.log(k) / n)),
    "this paper, Theorem 4": ("(I,c)", lambda n, k, g, D: (np.log(k) / n) ** (1 / (D + 1)) / g),
}


def table1_rates(n: float, k: int, gamma: float, D: float) -> dict[str, float]:
    r"""Table 1's margin-based decay rates as numbers, hidden constants and logs set to 1.

    Rows (the paper's Table 1 and the text of Section 1): Crammer & Singer (2002b)
    :math:`k^2/(\gamma^2 n)` (separable case); Mohri et al. (2012) :math:`k^2/(\gamma\sqrt n)`
    (in the text; "also the k-dependence obtained by Cortes et al."); Cortes et al. (2013)
    :math:`k/(\gamma\sqrt n)` (the table as our copy extracts it); Guermeur (2010) for linear
    classes :math:`k/(\gamma^2\sqrt n)`; Zhang (2004) :math:`\gamma^{-1}\sqrt{k/n}`; and the
    paper's eq. (1), :math:`\min\{\gamma^{-D/2}\sqrt{\log k/n},\
    \gamma^{-1}(\log k/n)^{1/(D+1)}\}` (Theorems 5 and 4). The rows of group (a) need a VC or
    Natarajan dimension of a fixed class and are left out. These are rates, not bounds: the
    constants hidden in :math:`\tilde O` differ from row to row.

    Parameters
    ----------
    n : float
        Sample size, > 0.
    k : int
        Number of classes, >= 2.
    gamma : float
        Margin, > 0 (for this paper's rows, :math:`1/L` with the diameter scaled to 1).
    D : float
        Doubling dimension, > 0.

    Returns
    -------
    dict
        Row name -> rate; the last entry, ``"this paper"``, is the minimum of its two rows.
    """
    n = float(_pos(n, "n"))
    k = check_positive_int(k, "k", minimum=2)
    gamma = check_real(gamma, "gamma", low=0.0, low_inclusive=False)
    D = check_real(D, "D", low=0.0, low_inclusive=False)
    out = {name: float(rate(n, k, gamma, D)) for name, (_, rate) in TABLE1_RATES.items()}
    out["this paper"] = min(out["this paper, Theorem 5"], out["this paper, Theorem 4"])
    return out
