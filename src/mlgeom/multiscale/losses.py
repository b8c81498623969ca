"""Losses of nearest-neighbour partitions and robust mistakes (Guruganesh et al. 2021).

``ℓ(q, R_i) = δ(q, x_i) − min_j δ(q, x_j)`` (Section 2.1) for the inner-product similarity
``δ(x, y) = −⟨x, y⟩``, the ``L²`` and the ``L^p`` similarity ``δ(x, y) = ‖x − y‖_p``; the robust
mistake indicator ``ℓ′ = 1(ℓ >= γ)`` and Lemma D.1's inequality ``ℓ >= γ ℓ′``.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from mlgeom._validation import check_in, check_matrix, check_real, check_vector

__all__ = ["similarity", "nn_loss", "true_label", "robust_mistakes"]


def _check_label(value, name: str, k: int, *, first: int = 1) -> int:
    """Return ``value`` as an ``int`` label in ``[first, first + k)``, or raise ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= value - first < k:
        what = "1 or 2" if (first, k) == (1, 2) else f"in [{first}, {first + k})"
        raise ValueError(f"{name} must be {what}; got {value!r}")
    return int(value)


def similarity(q, X, kind: str = "inner", p: float = 2.0) -> np.ndarray:
    """``δ(q, x_i)`` for every centre (rows of ``X``); lower means more similar."""
    kind = check_in(kind, "kind", ("inner", "lp"))
    X = check_matrix(X, "X")
    q = check_vector(q, "q", size=X.shape[1])
    p = check_real(p, "p", low=1.0)  # checked also when unused, so that a bad p never passes
    if kind == "inner":
        return -(X @ q)
    return np.sum(np.abs(q[None, :] - X) ** p, axis=1) ** (1.0 / p)


def true_label(q, X, kind: str = "inner", p: float = 2.0) -> int:
    """Index of the most similar centre (ties to the lowest index)."""
    return int(np.argmin(similarity(q, X, kind, p)))


def nn_loss(q, X, label: int, kind: str = "inner", p: float = 2.0) -> float:
    """``ℓ(q, R_label) = δ(q, x_label) − min_j δ(q, x_j)`` (Section 2.1)."""
    s = similarity(q, X, kind, p)
    if isinstance(label, bool) or not isinstance(label, Integral) or not 0 <= label < len(s):
        raise ValueError(f"label must be an integer in [0, {len(s)}); got {label!r}")
    return float(s[label] - s.min())


def robust_mistakes(losses, gamma: float) -> int:
    """Robust mistake count ``Σ_t 1(ℓ_t >= γ)`` (Section 1.2, Lemma D.1: at most ``Σℓ_t/γ``)."""
    gamma = check_real(gamma, "gamma", low=0.0, low_inclusive=False)
    losses = check_vector(losses, "losses", min_size=0)
    return int(np.sum(losses >= gamma))
