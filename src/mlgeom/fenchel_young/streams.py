r"""Seeded input–output streams for online structured prediction (Sakaue et al. 2024, Section 2.1).

A :class:`Stream` is a pool of inputs ``X`` with their encoded outputs ``Y`` and an ``order``
of pool indices: round ``t`` reveals :math:`(x_t, y_t) = (X[\text{order}_t], Y[\text{order}_t])`.
Long streams therefore cost memory only for their index sequence, and sums over rounds of a
per-example quantity (the comparator's :math:`\sum_t S_t(U)`) reduce to count-weighted sums
over the pool.

Generators
----------
* :func:`planted_stream` — inputs on the unit sphere (:math:`C = 1`), a planted
  :math:`U` with :math:`\|U\|_F = B`, outputs :math:`\arg\max_{y\in\mathcal Y}\langle Ux, y\rangle`
  (separable) with a fraction ``noise`` of pool points relabelled uniformly at random (noisy);
  any :class:`~mlgeom.fenchel_young.losses.Structure`.
* :func:`prototype_stream` — multiclass: ``m`` orthonormal prototypes, each with a random
  class, revisited in random order; optional label noise per round.
* :func:`random_prototype_stream` — multiclass over ``m`` prototypes drawn at random on the
  unit sphere, at a controlled largest pairwise :math:`|\cos|` (a minimum separation), so
  that each seed draws a new geometry, not only a relabelling of fixed prototypes.
* :func:`correlated_prototype_stream` — multiclass over a pool of noisy copies of ``m``
  prototypes with pairwise cosine :math:`\rho` (not orthogonal, so the problem does not split
  into one example per class), with label noise per round (non-separable).
* :func:`lower_bound_instance` — Theorem 5.2's instance (Appendix H).
* :func:`digits_stream`, :func:`digits_segments_stream` — scikit-learn's shipped digits as a
  multiclass stream, and as a multilabel stream (which of the seven display segments are lit).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mlgeom._validation import check_positive_int, check_real
from mlgeom.fenchel_young.losses import Multiclass, Multilabel, Ordinal, Ranking, Structure
from mlgeom.fenchel_young.permutahedron import Permutahedron
from mlgeom.random import Seed, as_generator

__all__ = [
    "Stream",
    "planted_stream",
    "prototype_stream",
    "random_prototype_stream",
    "correlated_prototype_stream",
    "lower_bound_instance",
    "digits_stream",
    "digits_segments_stream",
    "SEVEN_SEGMENTS",
]


@dataclass(frozen=True)
class Stream:
    r"""A stream of ``T`` rounds over a pool of examples.

    Attributes
    ----------
    X : numpy.ndarray
        Pool inputs, ``(n, p)``.
    Y : numpy.ndarray
        Pool outputs, encoded in :math:`\mathcal Y \subset \mathbb R^d`, ``(n, d)``.
    order : numpy.ndarray
        Pool index revealed at each round, ``(T,)`` int64.
    labels : numpy.ndarray or None
        Compact labels of the pool (class index for multiclass), when defined.
    U : numpy.ndarray or None
        The planted linear estimator ``(d, p)``, when there is one.
    """

    X: np.ndarray
    Y: np.ndarray
    order: np.ndarray
    labels: np.ndarray | None = None
    U: np.ndarray | None = None

    @property
    def T(self) -> int:
        """Number of rounds."""
        return int(self.order.shape[0])

    @property
    def C(self) -> float:
        r""":math:`\max_t \|x_t\|_2` over the rounds."""
        return float(np.linalg.norm(self.X[np.unique(self.order)], axis=1).max())

    def counts(self) -> np.ndarray:
        """How often each pool example is revealed."""
        return np.bincount(self.order, minlength=self.X.shape[0]).astype(np.float64)

    def head(self, T: int) -> Stream:
        """Return the first ``T`` rounds."""
        T = check_positive_int(T, "T")
        if T > self.T:
            raise ValueError(f"T must be <= {self.T}; got {T}")
        return replace(self, order=self.order[:T])


def _sphere(rng: np.random.Generator, n: int, p: int) -> np.ndarray:
    Z = rng.standard_normal((n, p))
    return Z / np.linalg.norm(Z, axis=1, keepdims=True)


def _random_outputs(structure: Structure, rng: np.random.Generator, n: int) -> np.ndarray:
    r"""``n`` outputs drawn uniformly from :math:`\mathcal Y`."""
    if isinstance(structure, Multiclass):
        return structure.encode(rng.integers(structure.d, size=n))
    if isinstance(structure, Multilabel):
        return rng.integers(2, size=(n, structure.d)).astype(np.float64)
    if isinstance(structure, Ordinal):
        return structure.encode(rng.integers(structure.d + 1, size=n))
    if isinstance(structure, Ranking):
        return structure.encode(np.array([rng.permutation(structure.n) for _ in range(n)]))
    if isinstance(structure, Permutahedron):
        return structure.random_outputs(rng, n)
    raise ValueError(f"unknown structure {structure!r}")


def planted_stream(
    structure: Structure,
    T: int,
    *,
    n_features: int,
    norm: float,
    noise: float = 0.0,
    pool: int = 2000,
    seed: Seed = None,
) -> Stream:
    r"""Stream with a planted linear estimator: separable (``noise = 0``) or noisy.

    Draws a pool of ``pool`` inputs uniformly on the unit sphere of
    :math:`\mathbb R^{\text{n\_features}}`, a Gaussian :math:`U` rescaled to
    :math:`\|U\|_F = \text{norm}`, and labels each input with
    :math:`\arg\max_{y\in\mathcal Y}\langle Ux, y\rangle` (the structure's linear oracle on
    :math:`-Ux`); a fraction ``noise`` of the pool is then relabelled uniformly at random.
    Rounds draw pool indices uniformly with replacement.

    Parameters
    ----------
    structure : Structure
        Output space.
    T : int
        Number of rounds.
    n_features : int
        Input dimension :math:`p`.
    norm : float
        :math:`\|U\|_F > 0`.
    noise : float, default=0.0
        Fraction of relabelled pool points, in [0, 1].
    pool : int, default=2000
        Pool size.
    seed : int or numpy.random.Generator
        Randomness.
    """
    T = check_positive_int(T, "T")
    p = check_positive_int(n_features, "n_features")
    B = check_real(norm, "norm", low=0.0, low_inclusive=False)
    rho = check_real(noise, "noise", low=0.0, high=1.0)
    n = check_positive_int(pool, "pool")
    rng = as_generator(seed)
    X = _sphere(rng, n, p)
    U = rng.standard_normal((structure.d, p))
    U *= B / np.linalg.norm(U)
    scores = X @ U.T
    Y = np.array([structure.linear_oracle(-s) for s in scores])
    flip = rng.random(n) < rho
    if np.any(flip):
        Y[flip] = _random_outputs(structure, rng, int(flip.sum()))
    order = rng.integers(n, size=T)
    labels = np.argmax(Y, axis=1) if isinstance(structure, Multiclass) else None
    return Stream(X, Y, order, labels, U)


def prototype_stream(
    d: int, T: int, *, n_prototypes: int, noise: float = 0.0, seed: Seed = None
) -> Stream:
    r"""Multiclass stream over ``m`` orthonormal prototypes with random classes.

    Prototype :math:`j` is :math:`e_j \in \mathbb R^m` (so :math:`C = 1`) with a class
    :math:`c_j` uniform in :math:`[d]`; each round reveals a uniformly random prototype with
    its class, replaced by a uniformly random class with probability ``noise``. The pool holds
    every (prototype, class) pair, so rounds with flipped labels need no extra memory. The
    planted :math:`U = \sum_j e_{c_j} e_j^\top` has :math:`\|U\|_F = \sqrt m`; any multiple
    :math:`\beta U` has per-round logistic loss :math:`\log_2(1 + (d-1)e^{-\beta})` on clean rounds.
    """
    d = check_positive_int(d, "d", minimum=2)
    T = check_positive_int(T, "T")
    m = check_positive_int(n_prototypes, "n_prototypes")
    rho = check_real(noise, "noise", low=0.0, high=1.0)
    rng = as_generator(seed)
    classes = rng.integers(d, size=m)
    j = rng.integers(m, size=T)
    lab = classes[j].copy()
    flip = rng.random(T) < rho
    lab[flip] = rng.integers(d, size=int(flip.sum()))
    X = np.repeat(np.eye(m), d, axis=0)  # row j*d + k: prototype j
    labels = np.tile(np.arange(d), m)
    Y = np.eye(d)[labels]
    U = np.zeros((d, m))
    U[classes, np.arange(m)] = 1.0
    return Stream(X, Y, j * d + lab, labels, U)


def random_prototype_stream(
    d: int,
    T: int,
    *,
    n_prototypes: int,
    dim: int,
    max_cosine: float,
    noise: float = 0.0,
    max_tries: int = 10_000,
    seed: Seed = None,
) -> Stream:
    r"""Multiclass stream over ``m`` random prototypes at a controlled minimum separation.

    The instance family of the headline's :math:`d`-scaling whose seeds vary the geometry
    (Theorem 5.1 and Gaptron's bound hold for every stream with :math:`\|x_t\|_2 \le C = 1`).
    The prototypes :math:`v_1, \dots, v_m` are drawn uniformly on the unit sphere of
    :math:`\mathbb R^p` (``p = dim``) and redrawn, all together, until the largest pairwise
    :math:`|\langle v_i, v_j\rangle|` is at most :math:`\rho` = ``max_cosine``: every two
    prototypes are then at Euclidean distance at least :math:`\sqrt{2(1-\rho)}` (the
    controlled minimum margin), and for :math:`m \le p` they are linearly independent with
    probability one, so every labelling is realisable by a linear :math:`U`. Prototype
    :math:`j` has a class :math:`c_j` uniform in :math:`[d]`; each round reveals a uniformly
    random prototype with its class, replaced by a uniformly random class with probability
    ``noise``, as in :func:`prototype_stream` (which is the case of orthonormal prototypes).

    Parameters
    ----------
    d : int
        Number of classes, at least 2.
    T : int
        Number of rounds.
    n_prototypes : int
        Number of prototypes :math:`m \ge 1`.
    dim : int
        Dimension :math:`p \ge m` of the inputs.
    max_cosine : float
        Largest allowed :math:`|\cos|` between two prototypes, in (0, 1).
    noise : float, default=0.0
        Probability in [0, 1] that a round shows a uniformly random class.
    max_tries : int, default=10000
        Largest number of joint redraws before giving up.
    seed : int or numpy.random.Generator
        Randomness (the prototypes, then the classes, then the rounds).

    Returns
    -------
    Stream
        The pool holds every (prototype, class) pair (row ``j * d + k``: prototype ``j`` with
        class ``k``); ``U`` is the planted :math:`\sum_j e_{c_j} v_j^\top`.

    Raises
    ------
    ValueError
        If a parameter is out of its domain, or no draw meets ``max_cosine`` within
        ``max_tries`` redraws.

    Examples
    --------
    >>> st = random_prototype_stream(3, 5, n_prototypes=2, dim=4, max_cosine=0.5, seed=0)
    >>> st.X.shape, st.T
    ((6, 4), 5)
    >>> bool(abs(st.X[0] @ st.X[3]) <= 0.5)
    True
    """
    d = check_positive_int(d, "d", minimum=2)
    T = check_positive_int(T, "T")
    m = check_positive_int(n_prototypes, "n_prototypes")
    p = check_positive_int(dim, "dim", minimum=m)
    rho = check_real(
        max_cosine, "max_cosine", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
    )
    eps = check_real(noise, "noise", low=0.0, high=1.0)
    tries = check_positive_int(max_tries, "max_tries")
    rng = as_generator(seed)
    off = ~np.eye(m, dtype=bool)
    for _ in range(tries):
        V = _sphere(rng, m, p)
        if m == 1 or np.abs((V @ V.T)[off]).max() <= rho:
            break
    else:
        raise ValueError(
            f"no {m} prototypes in R^{p} with largest |cosine| <= max_cosine={rho} in "
            f"{tries} draws: raise max_cosine or dim"
        )
    classes = rng.integers(d, size=m)
    j = rng.integers(m, size=T)
    lab = classes[j].copy()
    flip = rng.random(T) < eps
    lab[flip] = rng.integers(d, size=int(flip.sum()))
    X = np.repeat(V, d, axis=0)  # row j*d + k: prototype j
    labels = np.tile(np.arange(d), m)
    U = np.zeros((d, p))
    np.add.at(U, classes, V)
    return Stream(X, np.eye(d)[labels], j * d + lab, labels, U)


def correlated_prototype_stream(
    d: int,
    T: int,
    *,
    n_prototypes: int,
    cosine: float,
    feature_noise: float,
    label_noise: float,
    pool: int,
    seed: Seed = None,
) -> Stream:
    r"""Multiclass stream over noisy copies of correlated prototypes, with label noise.

    The ``m = n_prototypes`` prototypes live in :math:`\mathbb R^{m+1}`,
    :math:`v_j = \sqrt\rho\,e_0 + \sqrt{1-\rho}\,e_j` (unit norm, pairwise cosine exactly
    :math:`\rho` = ``cosine``), and prototype :math:`j` has a class :math:`c_j` uniform in
    :math:`[d]`. The pool holds ``pool`` inputs, each a uniformly chosen prototype plus
    Gaussian noise of standard deviation ``feature_noise`` per unit of norm
    (:math:`v_j + \sigma g/\sqrt{m+1}`, :math:`g \sim N(0, I)`), renormalised to
    :math:`\|x\|_2 = 1` (so :math:`C = 1`), with the prototype's class as its clean class.
    Each pool input also has a confusable class, uniform among the other :math:`d - 1`; each
    round reveals a uniformly random pool input with its clean class, replaced by its
    confusable class with probability ``label_noise`` (class-conditional label noise: the
    same input then carries two classes, no :math:`U` fits every round and the stream is not
    separable, while the pool holds at most two classes per input, which keeps the
    comparator's fits small).

    Unlike :func:`prototype_stream`, the inputs are not orthogonal: a gradient step on one
    class's inputs moves the scores of every other input, so the problem does not decompose
    into one repeated example per class. The draws do not depend on ``label_noise`` (the same
    seed gives the same inputs and rounds, and the flipped rounds are nested as it grows).

    Parameters
    ----------
    d : int
        Number of classes, at least 2.
    T : int
        Number of rounds.
    n_prototypes : int
        Number of prototypes :math:`m \ge 1`; inputs have :math:`m + 1` features.
    cosine : float
        Pairwise cosine :math:`\rho \in [0, 1)` of the prototypes.
    feature_noise : float
        Standard deviation :math:`\sigma \ge 0` of the feature noise, relative to the unit
        norm of a prototype.
    label_noise : float
        Probability in [0, 1] that a round shows the input's confusable class.
    pool : int
        Number of distinct inputs.
    seed : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    Stream
        The pool holds every (input, class) pair (row ``i * d + k``: input ``i`` with class
        ``k``), so ``order`` encodes the round's class; ``U`` is the planted
        :math:`\sum_j e_{c_j} v_j^\top`.

    Examples
    --------
    >>> st = correlated_prototype_stream(3, 5, n_prototypes=2, cosine=0.5, feature_noise=0.0,
    ...                                  label_noise=0.0, pool=4, seed=0)
    >>> st.X.shape, st.Y.shape, st.T
    ((12, 3), (12, 3), 5)
    """
    d = check_positive_int(d, "d", minimum=2)
    T = check_positive_int(T, "T")
    m = check_positive_int(n_prototypes, "n_prototypes")
    rho = check_real(cosine, "cosine", low=0.0, high=1.0, high_inclusive=False)
    sigma = check_real(feature_noise, "feature_noise", low=0.0)
    eps = check_real(label_noise, "label_noise", low=0.0, high=1.0)
    n = check_positive_int(pool, "pool")
    rng = as_generator(seed)
    V = np.zeros((m, m + 1))
    V[:, 0] = np.sqrt(rho)
    V[np.arange(m), np.arange(1, m + 1)] = np.sqrt(1.0 - rho)
    classes = rng.integers(d, size=m)
    proto = rng.integers(m, size=n)
    Z = V[proto] + sigma * rng.standard_normal((n, m + 1)) / np.sqrt(m + 1)
    Xp = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    clean = classes[proto]
    confusable = (clean + rng.integers(1, d, size=n)) % d
    i = rng.integers(n, size=T)
    flip = rng.random(T) < eps
    lab = np.where(flip, confusable[i], clean[i])
    X = np.repeat(Xp, d, axis=0)
    labels = np.tile(np.arange(d), n)
    U = np.zeros((d, m + 1))
    np.add.at(U, classes, V)
    return Stream(X, np.eye(d)[labels], i * d + lab, labels, U)


def lower_bound_instance(d: int, M: int, T: int, *, seed: Seed = None) -> tuple[Stream, float]:
    r"""Theorem 5.2's hard instance (Appendix H) and its :math:`B = \|U'\|_F`.

    Classes :math:`i_1, \dots, i_{M+1}` uniform in :math:`[d]`; :math:`x_t = e_t \in
    \mathbb R^{M+1}` for :math:`t \le M+1`, then :math:`x_t = e_{M+1}` with
    :math:`i_t = i_{M+1}`. The comparator :math:`U'` has column :math:`t \le M` equal to
    :math:`\ln(2d)\,e_{i_t}` and column :math:`M+1` equal to :math:`\ln(dT)\,e_{i_{M+1}}`
    (the paper prints :math:`e_{M+1}` there, which is not a vector of :math:`\mathbb R^d`;
    :math:`e_{i_{M+1}}` is the evident intent), so :math:`B^2 = M\ln^2(2d) + \ln^2(dT)`.
    Returned as ``Stream.U``.
    """
    d = check_positive_int(d, "d", minimum=2)
    M = check_positive_int(M, "M")
    T = check_positive_int(T, "T", minimum=M + 1)
    rng = as_generator(seed)
    cls = rng.integers(d, size=M + 1)
    X = np.eye(M + 1)
    order = np.minimum(np.arange(T), M)
    U = np.zeros((d, M + 1))
    U[cls[:M], np.arange(M)] = np.log(2 * d)
    U[cls[M], M] = np.log(d * T)
    B = float(np.sqrt(M * np.log(2 * d) ** 2 + np.log(d * T) ** 2))
    return Stream(X, np.eye(d)[cls], order, cls, U), B


def _digits(seed: Seed, T: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits

    data = load_digits()
    X = data.data.astype(np.float64)
    X = X / np.linalg.norm(X, axis=1, keepdims=True)  # unit norm: C = 1
    rng = as_generator(seed)
    n = X.shape[0]
    epochs = -(-T // n)
    order = np.concatenate([rng.permutation(n) for _ in range(epochs)])[:T]
    return X, data.target.astype(np.int64), order


def digits_stream(T: int, *, seed: Seed = None) -> Stream:
    """Stream scikit-learn's 1,797 8×8 digits (shipped) as 10 classes, unit-normalised.

    Rounds go through the data set in fresh random orders (epochs).
    """
    T = check_positive_int(T, "T")
    X, y, order = _digits(seed, T)
    return Stream(X, np.eye(10)[y], order, y, None)


#: Seven-segment display: segments (a, b, c, d, e, f, g) lit for each digit 0–9.
SEVEN_SEGMENTS = np.array(
    [
        [1, 1, 1, 1, 1, 1, 0],
        [0, 1, 1, 0, 0, 0, 0],
        [1, 1, 0, 1, 1, 0, 1],
        [1, 1, 1, 1, 0, 0, 1],
        [0, 1, 1, 0, 0, 1, 1],
        [1, 0, 1, 1, 0, 1, 1],
        [1, 0, 1, 1, 1, 1, 1],
        [1, 1, 1, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 0, 1, 1],
    ],
    dtype=np.float64,
)


def digits_segments_stream(T: int, *, seed: Seed = None) -> Stream:
    """Stream the digits as a 7-label multilabel task: which display segments are lit."""
    T = check_positive_int(T, "T")
    X, y, order = _digits(seed, T)
    return Stream(X, SEVEN_SEGMENTS[y], order, y, None)


def check_stream(structure: Structure, stream: Any) -> Stream:
    """Validate that ``stream`` is a :class:`Stream` whose outputs belong to ``structure``."""
    if not isinstance(stream, Stream):
        raise ValueError(f"stream must be a Stream; got {type(stream).__name__}")
    structure.check_output(stream.Y, "stream.Y")
    if stream.X.shape[0] != stream.Y.shape[0]:
        raise ValueError(
            f"stream.X and stream.Y must have the same number of rows; got "
            f"{stream.X.shape[0]} and {stream.Y.shape[0]}"
        )
    if not np.all(np.isfinite(stream.X)):
        raise ValueError("stream.X must be finite")
    return stream
