"""Spherical caps: Lemma F.1 of Guruganesh et al. (2021), at its worst case.

Lemma F.1: for the unit sphere ``S_d ⊂ R^d`` (surface area ``A_d = 2π^{d/2}/Γ(d/2)``) and a cap
of angle ``φ ∈ [0, π/2]`` (area ``A_d(φ)``), ``A_d(φ)/A_d <= φ^{d−1}``. The proof bounds
``sin x <= x`` in Li's formula ``A_d(φ) = A_{d−1} ∫_0^φ sin^{d−2}x dx`` and then
``Γ(d/2)/(2√π Γ((d+1)/2)) <= 1``. The printed definition of the cap reads
``S_d ∩ {⟨x, v⟩ <= cos φ}``; the proof integrates over ``{⟨x, v⟩ >= cos φ}`` (the cap around
``v``), which is what is used here.

The cap's share is ``½ I_{sin²φ}((d−1)/2, ½)`` (regularised incomplete beta). Since
``sin x / x`` decreases on ``(0, π/2]``, the ratio ``A_d(φ)/(A_d φ^{d−1})`` is largest as
``φ → 0``, where it tends to the proof's constant ``Γ(d/2)/(2√π Γ((d+1)/2))``;
:func:`lemma_f1_worst_case` maximises the ratio numerically over ``φ`` (a log-spaced grid and a
bounded refinement), without assuming where the maximum is.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import minimize_scalar
from scipy.special import betainc, gammaln

from mlgeom._validation import check_int_vector, check_positive_int

__all__ = ["cap_fraction", "lemma_f1_constant", "lemma_f1_worst_case"]


def cap_fraction(d: int, phi) -> np.ndarray | float:
    """Share ``A_d(φ)/A_d`` of the sphere ``S_d ⊂ R^d`` in a cap of angle ``φ`` (Definition 34).

    Parameters
    ----------
    d : int
        Ambient dimension, ``d >= 2``.
    phi : float or array_like
        Cap angles in ``[0, π/2]``.

    Returns
    -------
    float or numpy.ndarray
        ``½ I_{sin²φ}((d−1)/2, ½)``, the share of ``{x ∈ S_d : ⟨x, v⟩ >= cos φ}``.
    """
    d = check_positive_int(d, "d", minimum=2)
    arr = np.asarray(phi)
    if arr.dtype.kind not in "fiu":
        raise ValueError(f"phi must be a real number or a numeric array; got {phi!r:.60}")
    arr = arr.astype(float)
    if (
        arr.size == 0
        or not np.all(np.isfinite(arr))
        or np.any(arr < 0)
        or np.any(arr > math.pi / 2)
    ):
        raise ValueError(f"phi must lie in [0, π/2]; got {phi!r:.60}")
    out = 0.5 * betainc((d - 1) / 2.0, 0.5, np.sin(arr) ** 2)
    return float(out) if out.ndim == 0 else out


def lemma_f1_constant(d: int) -> float:
    """Return the proof's constant ``Γ(d/2)/(2√π Γ((d+1)/2))`` (the ratio's ``φ → 0`` limit)."""
    d = check_positive_int(d, "d", minimum=2)
    return math.exp(gammaln(d / 2) - gammaln((d + 1) / 2)) / (2 * math.sqrt(math.pi))


def _ratio(d: int, phi: float) -> float:
    return cap_fraction(d, phi) / phi ** (d - 1)


def lemma_f1_worst_case(ds) -> pd.DataFrame:
    """Largest ``A_d(φ)/(A_d φ^{d−1})`` over ``φ ∈ [10^{-4}, π/2]`` for each ``d`` (Lemma F.1).

    Parameters
    ----------
    ds : array_like of int
        Dimensions, each ``>= 2``.

    Returns
    -------
    pandas.DataFrame
        Per ``d``: ``worst`` (the largest ratio found: a 400-point log grid, then a bounded
        refinement around its best point), ``phi`` (where), ``constant`` (the proof's
        ``φ → 0`` limit) and ``at_pi_2`` (the ratio at ``φ = π/2``).
    """
    ds = check_int_vector(ds, "ds", minimum=2)
    rows = []
    for d in ds:
        d = int(d)
        grid = np.geomspace(1e-4, math.pi / 2, 400)
        vals = cap_fraction(d, grid) / grid ** (d - 1)
        j = int(np.argmax(vals))
        lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
        res = minimize_scalar(lambda f, d=d: -_ratio(d, f), bounds=(lo, hi), method="bounded")
        best, where = (-res.fun, res.x) if -res.fun > vals[j] else (vals[j], grid[j])
        rows.append(
            {
                "d": d,
                "worst": float(best),
                "phi": float(where),
                "constant": lemma_f1_constant(d),
                "at_pi_2": _ratio(d, math.pi / 2),
            }
        )
    return pd.DataFrame(rows)
