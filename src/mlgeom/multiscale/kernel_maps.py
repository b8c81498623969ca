"""Kernel maps that turn L^p nearest-neighbour comparisons into inner products.

Guruganesh, Liu, Schneider and Wang (2021), *Margin-independent online multiclass learning via
convex geometry*:

* Appendix C: ``T(x) = (x, ‖x‖²)/√2`` and ``Q(q) = (2q, −1)/√5`` (Lemmas C.1, C.2);
* Appendix E.2 (even integer ``p``): ``Ker``, ``G``, ``F``, ``H`` (Definitions 18–21, Lemma E.1);
* Appendix E.3 (any ``p > 2``): ``D``, ``Ker_i``, ``F_i``, ``G_i``, ``H_i`` at scale ``i``
  (Definitions 22–27, Lemma E.2), with ``δ_i = 1/(100 d² p′ 2^i)``, ``D_i = 1/(2δ_i)`` and
  ``p′ = ⌊p⌋ + 1``.

Two printed definitions do not satisfy the lemma they serve; both are kept as printed
(``printed=True``) next to the corrected version (``printed=False``, the default used by the
learners):

* Definition 20 prints every middle coefficient of ``F`` with a minus sign; the binomial
  theorem needs alternating signs ``(−1)^{p−k} C(p, k)``. The two agree only for ``p = 2``.
* Definition 26 prints the Taylor increments as ``(x − cδ_i)^k``; the expansion in the proof of
  Lemma E.2 (Claim 28 with ``x − x′ = cδ_i − z/2``) needs ``(cδ_i − x)^k``.

``H_i`` has one non-zero group of ``p′`` entries per coordinate: :func:`H_i` returns it as a
:class:`SparseVector` (indices, values) and never builds the dense ``p′d(2D_i+1)`` vector.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from numbers import Real

import numpy as np

from mlgeom._validation import (
    check_array,
    check_indices,
    check_not_complex,
    check_positive_int,
    check_real,
    check_vector,
)

__all__ = [
    "SparseVector",
    "T_map",
    "definition20_displayed",
    "Q_map",
    "Ker",
    "G_even",
    "F_even",
    "H_even",
    "lemma_e1_rhs",
    "lemma_e1_error_exact",
    "p_prime",
    "delta_i",
    "D_i",
    "map_dimension",
    "D_map",
    "Ker_i",
    "G_i",
    "F_i",
    "H_i",
    "sparse_dot",
    "lemma_e2_bound",
    "lemma_e2_error_exact",
]


@dataclass(frozen=True)
class SparseVector:
    """A sparse vector of length ``dim``: ``values`` at positions ``indices`` (sorted, unique).

    Parameters
    ----------
    indices : array_like of int, shape (nnz,)
        Positions, strictly increasing, in ``[0, dim)``.
    values : array_like of float, shape (nnz,)
        Finite values, one per position.
    dim : int
        Length of the vector, ``>= 1``.

    Raises
    ------
    ValueError
        If ``indices`` and ``values`` differ in length, an index is negative, ``>= dim``,
        repeated or out of order, or a value is not finite.
    """

    indices: np.ndarray
    values: np.ndarray
    dim: int

    def __post_init__(self) -> None:
        dim = check_positive_int(self.dim, "dim")
        idx = check_indices(self.indices, "indices", n=dim, ndim=1)
        vals = check_vector(self.values, "values", min_size=0)
        if vals.size != idx.size:
            raise ValueError(
                f"indices and values must have the same length; got {idx.size} indices and "
                f"{vals.size} values"
            )
        if idx.size > 1 and np.any(np.diff(idx) <= 0):
            k = int(np.flatnonzero(np.diff(idx) <= 0)[0])
            raise ValueError(
                f"indices must be strictly increasing (sorted, unique); got {idx[k]} then "
                f"{idx[k + 1]} at positions {k}, {k + 1}"
            )
        object.__setattr__(self, "indices", idx)
        object.__setattr__(self, "values", vals)
        object.__setattr__(self, "dim", dim)

    @classmethod
    def _trusted(cls, indices: np.ndarray, values: np.ndarray, dim: int) -> SparseVector:
        """Build from arrays known to be valid (:func:`H_i`'s), without the checks."""
        out = object.__new__(cls)
        object.__setattr__(out, "indices", indices)
        object.__setattr__(out, "values", values)
        object.__setattr__(out, "dim", dim)
        return out

    def to_dense(self) -> np.ndarray:
        """Dense copy (for tests at small sizes only)."""
        out = np.zeros(self.dim)
        out[self.indices] = self.values
        return out


def _points(x, name: str, *, in_ball: bool = True, radius: float = 1.0) -> np.ndarray:
    x = check_vector(x, name)
    if in_ball and float(np.linalg.norm(x)) > radius * (1 + 1e-12):
        raise ValueError(
            f"{name} must lie in the L2 ball of radius {radius}; got norm {np.linalg.norm(x):.6g}"
        )
    return x


def _even_p(p) -> int:
    ok = isinstance(p, Real) and not isinstance(p, bool) and math.isfinite(p)
    if not ok or not float(p).is_integer() or int(p) < 2 or int(p) % 2:
        raise ValueError(f"p must be an even integer >= 2; got {p!r}")
    return int(p)


def _p_multiscale(p) -> float:
    return check_real(p, "p", low=1.0)


# ---------------------------------------------------------------- Appendix C (p = 2) -----------
def T_map(x) -> np.ndarray:
    """``T(x) = (x, ‖x‖²)/√2`` (Appendix C) for a centre ``x`` in the unit ball ``B_d``."""
    x = _points(x, "x")
    return np.append(x, x @ x) / math.sqrt(2.0)


def Q_map(q) -> np.ndarray:
    """``Q(q) = (2q, −1)/√5`` (Appendix C) for a query ``q`` in ``B_d``.

    ``⟨T(x), Q(q)⟩ = (2⟨q, x⟩ − ‖x‖²)/√10``, so the largest inner product is the nearest centre
    (Lemma C.1).
    """
    q = _points(q, "q")
    return np.append(2.0 * q, -1.0) / math.sqrt(5.0)


# ---------------------------------------------------------------- Appendix E.2 (even p) --------
def Ker(x: float, p: int) -> np.ndarray:
    """``Ker(x) = (1, x, x², …, x^p)`` (Definition 18)."""
    x = check_real(x, "x")
    p = _even_p(p)
    return x ** np.arange(p + 1)


def G_even(y, p: int) -> np.ndarray:
    """``G(y) = (pd)^{-1/2} (Ker(y_1/p), …, Ker(y_d/p))`` (Definition 19), in R^{(p+1)d}."""
    p = _even_p(p)
    y = check_vector(y, "y")
    powers = (y[:, None] / p) ** np.arange(p + 1)[None, :]
    return powers.ravel() / math.sqrt(p * y.size)


def F_even(a: float, p: int, *, printed: bool = False) -> np.ndarray:
    """``F(a)`` of Definition 20, entry ``k`` pairing with ``x^k`` in :func:`Ker`.

    Parameters
    ----------
    a : float
        Argument.
    p : int
        Even integer ``p >= 2``.
    printed : bool, default=False
        ``True``: the display ``(a^p, −C(p,1)a^{p−1}, …, −C(p,p−1)a, C(p,p))`` with its ellipsis
        filled by minus signs (a *reading* of the ellipsis, not the printed text: every displayed
        term agrees with the binomial expansion for even ``p``, see :func:`definition20_displayed`).
        ``False``: the binomial coefficients ``C(p,k)(−a)^{p−k}`` that Lemma E.1 needs.
    """
    a = check_real(a, "a")
    p = _even_p(p)
    k = np.arange(p + 1)
    coef = np.array([math.comb(p, int(j)) for j in k], dtype=float)
    mag = coef * a ** (p - k)
    if printed:
        sign = np.where((k == 0) | (k == p), 1.0, -1.0)
    else:
        sign = (-1.0) ** (p - k)
    return sign * mag


def definition20_displayed(a: float, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the terms of Definition 20 that the paper displays, and their positions in ``F(a)``.

    The display is ``F(a) = (a^p, −C(p,1)a^{p−1}, …, −C(p,p−1)a, C(p,p))``: entries ``0, 1,
    p−1, p`` are printed, the rest is an ellipsis.

    Returns
    -------
    (index, value) : tuple of ndarray
        Positions ``[0, 1, p−1, p]`` and the printed values there.

    Examples
    --------
    >>> idx, val = definition20_displayed(0.5, 4)
    >>> idx.tolist(), val.tolist()
    ([0, 1, 3, 4], [0.0625, -0.5, -2.0, 1.0])
    >>> bool(np.allclose(F_even(0.5, 4)[idx], val))  # the binomial expansion agrees
    True
    """
    a = check_real(a, "a")
    p = _even_p(p)
    idx = np.array([0, 1, p - 1, p])
    val = np.array([a**p, -math.comb(p, 1) * a ** (p - 1), -math.comb(p, p - 1) * a, 1.0])
    return idx, val


def H_even(z, p: int, *, printed: bool = False) -> np.ndarray:
    """``H(z) = (pd)^{-1/2} (F(z_1/p), …, F(z_d/p))`` (Definition 21)."""
    p = _even_p(p)
    z = check_vector(z, "z")
    rows = [F_even(zj / p, p, printed=printed) for zj in z]
    return np.concatenate(rows) / math.sqrt(p * z.size)


def lemma_e1_rhs(y, z, p: int) -> float:
    """Right-hand side of Lemma E.1: ``(1/(pd)) ‖(y − z)/p‖_p^p``."""
    p = _even_p(p)
    y, z = check_vector(y, "y"), check_vector(z, "z", size=np.size(y))
    return float(np.sum(((y - z) / p) ** p) / (p * y.size))


def lemma_e1_error_exact(y, z, p: int, *, printed: bool = False) -> Fraction:
    """Relative error of Lemma E.1, ``|⟨G(y), H(z)⟩ − rhs| / rhs``, in exact rational arithmetic.

    The float identity loses digits where ``y`` and ``z`` are close (``rhs`` is then a small
    difference of large terms: relative errors near 1e-10 at ``p = 8``). Here every float input
    is converted exactly to a :class:`fractions.Fraction` and Definitions 19–21 are evaluated
    term by term with the signs of :func:`F_even`, so the alternating-sign ``F`` gives exactly
    zero and any other reading its exact error. The ``(pd)^{-1/2}`` factors of ``G`` and ``H``
    multiply to ``1/(pd)``, which is rational.

    Parameters
    ----------
    y, z : array_like, shape (d,)
        The two points (finite floats).
    p : int
        Even integer ``p >= 2``.
    printed : bool, default=False
        ``True``: the ellipsis of Definition 20 read as all minus signs (as :func:`F_even`).

    Returns
    -------
    fractions.Fraction
        The exact relative error (the absolute error when ``y == z``, where ``rhs = 0``).

    Examples
    --------
    >>> lemma_e1_error_exact([0.5, -0.25], [0.125, 0.5], 6)
    Fraction(0, 1)
    >>> lemma_e1_error_exact([0.5, -0.25], [0.125, 0.5], 6, printed=True) > 0
    True
    """
    p = _even_p(p)
    y, z = check_vector(y, "y"), check_vector(z, "z", size=np.size(y))
    d = y.size
    inner = Fraction(0)
    rhs = Fraction(0)
    for yj, zj in zip(y, z, strict=True):
        a, b = Fraction(float(yj)) / p, Fraction(float(zj)) / p
        for k in range(p + 1):
            sign = (1 if k in (0, p) else -1) if printed else (-1) ** (p - k)
            inner += a**k * sign * math.comb(p, k) * b ** (p - k)  # Ker(a)_k · F(b)_k
        rhs += (a - b) ** p
    err = abs(inner - rhs) / (p * d)
    return err / (rhs / (p * d)) if rhs else err


# ---------------------------------------------------------------- Appendix E.3 (any p) ---------
def p_prime(p: float) -> int:
    """``p′ = ⌊p⌋ + 1`` (Appendix E.3.1)."""
    return int(math.floor(_p_multiscale(p))) + 1


def delta_i(i: int, d: int, p: float) -> float:
    """``δ_i = 1/(100 d² p′ 2^i)`` (Appendix E.3.1)."""
    i = check_positive_int(i, "i")
    d = check_positive_int(d, "d")
    return 1.0 / (100.0 * d * d * p_prime(p) * 2.0**i)


def D_i(i: int, d: int, p: float) -> int:
    """``D_i = 1/(2δ_i) = 50 d² p′ 2^i`` (an integer; Appendix E.3.1)."""
    i = check_positive_int(i, "i")
    d = check_positive_int(d, "d")
    return 50 * d * d * p_prime(p) * 2**i


def map_dimension(i: int, d: int, p: float) -> int:
    """Dimension ``p′ d (2D_i + 1)`` of ``G_i`` and ``H_i``."""
    return p_prime(p) * d * (2 * D_i(i, d, p) + 1)


def D_map(x, p: float) -> np.ndarray:
    """``D(x)`` of Definition 23, vectorised over ``x``: entry ``k`` is ``sign(x)^k |x|^{p−k}``.

    ``k = 0, …, ⌊p⌋``; output shape ``x.shape + (p′,)``. ``sign(0) = 0`` (Definition 22), and
    ``0^0 = 1``.
    """
    p = _p_multiscale(p)
    check_not_complex(x, "x")
    try:
        x = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"x must be a real number or a numeric array; got {x!r:.60}") from exc
    x = check_array(x, "x", shape=x.shape)
    k = np.arange(p_prime(p))
    s = np.sign(x)[..., None] ** k
    with np.errstate(divide="ignore"):
        mag = np.abs(x)[..., None] ** (p - k)
    return s * mag


def Ker_i(x: float, i: int, d: int, p: float) -> np.ndarray:
    """``Ker_i(x) = (D(x + 0.5), D(x + 0.5 − δ_i), …, D(x − 0.5))`` (Definition 24).

    Group ``c ∈ {−D_i, …, D_i}`` (in that order) is ``D(x − cδ_i)``.
    """
    x = check_real(x, "x")
    Di, dl = D_i(i, d, p), delta_i(i, d, p)
    c = np.arange(-Di, Di + 1)
    return D_map(x - c * dl, p).ravel()


def G_i(y, i: int, p: float) -> np.ndarray:
    """``G_i(y) = (Ker_i(y_1/2), …, Ker_i(y_d/2))`` (Definition 25), dense.

    Only the hidden centres are mapped densely (in tests and to score a learner); learners use
    the sparse :func:`sparse_dot`.
    """
    y = _points(y, "y")
    return np.concatenate([Ker_i(yj / 2.0, i, y.size, p) for yj in y])


def _group_index(x: np.ndarray, dl: float, Di: int) -> np.ndarray:
    # c is the unique integer with c δ_i <= x < (c + 1) δ_i (Definition 26); x = 1/2 gives c = D_i.
    return np.minimum(np.floor(x / dl).astype(np.int64), Di)


def F_i(x: float, i: int, d: int, p: float, *, printed: bool = False) -> tuple[int, np.ndarray]:
    """Return the one non-zero group of ``F_i(x)`` (Definition 26): its label ``c``, its values.

    Entry ``k`` is ``p(p−1)…(p−k+1)/k! · r^k`` with ``r = x − cδ_i`` as printed
    (``printed=True``) or ``r = cδ_i − x`` (the sign the proof of Lemma E.2 needs).
    """
    x = check_real(x, "x", low=-0.5, high=0.5)
    p = _p_multiscale(p)
    dl, Di = delta_i(i, d, p), D_i(i, d, p)
    c = int(_group_index(np.array([x]), dl, Di)[0])
    r = x - c * dl if printed else c * dl - x
    return c, _taylor_coefficients(p) * r ** np.arange(p_prime(p))


def _taylor_coefficients(p: float) -> np.ndarray:
    k = np.arange(p_prime(p))
    out = np.ones(k.size)
    for j in range(1, k.size):
        out[j] = out[j - 1] * (p - j + 1) / j
    return out


def H_i(z, i: int, p: float, *, printed: bool = False) -> SparseVector:
    """``H_i(z) = (F_i(z_1/2), …, F_i(z_d/2))`` (Definition 27) as a :class:`SparseVector`.

    Coordinate ``j``'s group ``c_j`` occupies positions
    ``j·p′(2D_i+1) + (c_j + D_i)·p′ + [0, p′)``; every other entry is zero.
    """
    z = _points(z, "z")
    d = z.size
    pp, Di, dl = p_prime(p), D_i(i, d, p), delta_i(i, d, p)
    x = z / 2.0
    c = _group_index(x, dl, Di)
    r = (x - c * dl) if printed else (c * dl - x)
    vals = _taylor_coefficients(p)[None, :] * r[:, None] ** np.arange(pp)[None, :]
    block = pp * (2 * Di + 1)
    start = np.arange(d) * block + (c + Di) * pp
    idx = (start[:, None] + np.arange(pp)[None, :]).ravel()
    return SparseVector._trusted(idx, vals.ravel(), block * d)


def sparse_dot(y, h: SparseVector, i: int, p: float) -> float:
    """``⟨G_i(y), h⟩`` touching only the non-zeros of ``h`` (``G_i(y)`` is never built)."""
    y = _points(y, "y")
    d = y.size
    pp, Di, dl = p_prime(p), D_i(i, d, p), delta_i(i, d, p)
    block = pp * (2 * Di + 1)
    if not isinstance(h, SparseVector):
        raise TypeError(f"h must be a SparseVector (from H_i); got {type(h).__name__}")
    if h.dim != block * d:
        raise ValueError(
            f"h must have length {block * d} (H_i at scale i={i} for d={d}, p={p}); "
            f"got length {h.dim}"
        )
    j, rest = np.divmod(h.indices, block)
    c, k = np.divmod(rest, pp)
    c = c - Di
    arg = y[j] / 2.0 - c * dl
    s = np.sign(arg) ** k
    with np.errstate(divide="ignore"):
        g = s * np.abs(arg) ** (p - k)
    return float(g @ h.values)


def lemma_e2_bound(i: int, d: int, p: float) -> float:
    """Return the bound ``d (p δ_i)^p`` of Lemma E.2."""
    return d * (p * delta_i(i, d, p)) ** p


def lemma_e2_error_exact(y, z, i: int, p: float, *, printed: bool = False, digits: int = 60):
    """``|⟨G_i(y), H_i(z)⟩ − ‖(y − z)/2‖_p^p|`` in ``digits``-digit decimal arithmetic.

    The bound ``d(pδ_i)^p`` falls far below double precision (1e-15) already at small ``i``; the
    error is recomputed with :mod:`decimal` from the (exactly representable) float inputs.

    Returns
    -------
    decimal.Decimal
        The error.
    """
    y, z = _points(y, "y"), _points(z, "z")
    if z.size != y.size:
        raise ValueError(f"z must have the length of y, {y.size}; got length {z.size}")
    digits = check_positive_int(digits, "digits")
    d = y.size
    pp, Di = p_prime(p), D_i(i, d, p)
    with localcontext() as ctx:
        ctx.prec = digits
        P = Decimal(repr(float(p)))
        dl = Decimal(1) / (Decimal(100) * d * d * pp * Decimal(2) ** i)
        coef = [Decimal(1)]
        for j in range(1, pp):
            coef.append(coef[-1] * (P - j + 1) / j)
        total = Decimal(0)
        target = Decimal(0)
        for yj, zj in zip(y, z, strict=True):
            yd, zd = Decimal(repr(float(yj))) / 2, Decimal(repr(float(zj))) / 2
            c = min(int((zd / dl).to_integral_value(rounding="ROUND_FLOOR")), Di)
            r = (zd - c * dl) if printed else (c * dl - zd)
            arg = yd - c * dl
            sgn = (arg > 0) - (arg < 0)
            for k in range(pp):
                mag = abs(arg) ** (P - k) if arg != 0 else Decimal(int(P == k))
                total += coef[k] * (r**k if k else Decimal(1)) * (sgn**k) * mag
            diff = abs(yd - zd)
            target += diff**P if diff != 0 else Decimal(0)
        return abs(total - target)
