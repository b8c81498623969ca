r"""Remark 4.5: what scaling the regularizer :math:`\Psi` does to Algorithm 2 and its bound.

Remark 4.5 of the paper: in Theorem 4.2, :math:`1-a` and :math:`b` are proportional to
:math:`1/\lambda`, "and hence the surrogate regret bound in Theorem 4.2 vanishes at the rate of
:math:`1/\lambda^2`", where :math:`\lambda` is raised by scaling up :math:`\Omega` (Section 4.1),
"although increasing :math:`\lambda` generally leads to larger :math:`S_t(U)`".

For the SparseMAP losses with :math:`\Psi = \frac s2\|\cdot\|_2^2` (:math:`\lambda = s`),
:math:`\hat y_{s\Omega}(\theta) = \hat y_\Omega(\theta/s)`, and once :math:`a \ge \frac12`
Theorem 4.2's rate is :math:`\eta = \lambda/(2C^2\kappa^2)`, so OGD's iterates are :math:`W_t =
s V_t` with :math:`V_t` independent of :math:`s`: the decoded outputs, hence the expected and
realised target losses, do not move with :math:`s`. :func:`scale_table` runs the learner at
several strengths against a comparator :math:`U` held fixed and returns both sides of Theorem
4.2 at each strength, so that the :math:`1/\lambda^2` term and the comparator's growing
:math:`\sum_t S_t(U)` are seen side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mlgeom._validation import check_array, check_not_complex
from mlgeom.fenchel_young import comparator as cmp
from mlgeom.fenchel_young import surrogate_regret as sr
from mlgeom.fenchel_young.experiments import uniform_expected_losses
from mlgeom.fenchel_young.losses import Multilabel, Ordinal, Structure
from mlgeom.fenchel_young.streams import Stream, check_stream
from mlgeom.parallel import pmap
from mlgeom.random import Seed, spawn

__all__ = ["rescaled", "scale_table"]


def rescaled(structure: Structure, strength: float) -> Structure:
    r"""Return the same output space with :math:`\Psi` scaled to ``strength`` (Section 4.1).

    Parameters
    ----------
    structure : Multilabel or Ordinal
        A SparseMAP structure (:math:`\Psi = \frac s2\|\cdot\|_2^2`, :math:`\lambda = s`).
    strength : float
        The new :math:`s > 0`.

    Returns
    -------
    Structure
        ``type(structure)(structure.d, strength)``.
    """
    if not isinstance(structure, (Multilabel, Ordinal)):
        raise ValueError(
            f"structure must be Multilabel or Ordinal (a SparseMAP loss with a strength); "
            f"got {structure!r}"
        )
    return type(structure)(structure.d, strength)


def _scale_row(task: tuple) -> dict:
    k, structure, stream, U, strength, uniforms = task
    s = rescaled(structure, strength)
    C = stream.C
    rec = sr.run_online(s, stream, eta=sr.eta_theorem_4_2(s, C), uniforms=uniforms)
    coef = sr.bound_theorem_4_2(s, C, 1.0)
    norm_sq = float(np.sum(U * U))
    sum_S = cmp.stream_loss(s, U, stream)
    sum_E = float(rec.expected_loss.sum())
    uniform = float(uniform_expected_losses(s, stream).sum())
    return {
        "stream": k,
        "strength": float(strength),
        "a": s.a,
        "coef": coef,
        "bound_term": coef * norm_sq,
        "sum_S_U": sum_S,
        "rhs": sum_S + coef * norm_sq,
        "sum_E": sum_E,
        "sum_L": float(rec.target_loss.sum()),
        "slack": sum_S + coef * norm_sq - sum_E,
        "uniform": uniform,
        "uniform_slack": sum_S + coef * norm_sq - uniform,
    }


def scale_table(
    structure: Structure,
    streams: Sequence[Stream],
    comparators: Sequence[np.ndarray],
    strengths: Sequence[float],
    *,
    seed: Seed = None,
    n_jobs: int | None = 1,
) -> pd.DataFrame:
    r"""Theorem 4.2 at several strengths of :math:`\Psi` with the comparator held fixed.

    On each stream, Algorithm 2 with Theorem 4.2's rate runs at every strength :math:`s`
    (the same decoding uniforms for every :math:`s`), and both sides of Theorem 4.2 are
    evaluated at the stream's fixed comparator :math:`U`:
    :math:`\sum_t E_t \le \sum_t S_{s\Omega}(Ux_t; y_t) + c_{4.2}(s)\|U\|_F^2` with
    :math:`c_{4.2}(s) = 2\gamma C^2\kappa^2/(\lambda^2\nu(1-m)m)` (Remark 4.5's
    :math:`1/\lambda^2` term).

    Parameters
    ----------
    structure : Multilabel or Ordinal
        The output space (its own strength is ignored).
    streams : sequence of Stream
        The streams.
    comparators : sequence of numpy.ndarray
        One fixed :math:`U` of shape ``(d, p)`` per stream.
    strengths : sequence of float
        Strengths :math:`s`, each with :math:`a = 1 - 4\gamma/(s\nu) > 0`.
    seed : int or numpy.random.Generator
        Decoding randomness (one child per stream, shared by its strengths).
    n_jobs : int or None, default=1
        Workers (``None``: ``$MLGEOM_N_JOBS``); the values do not depend on it.

    Returns
    -------
    pandas.DataFrame
        One row per stream and strength: ``a``, ``coef`` (:math:`c_{4.2}`), ``bound_term``
        (:math:`c_{4.2}\|U\|_F^2`), ``sum_S_U``, ``rhs``, ``sum_E``, ``sum_L``, ``slack``
        (``rhs - sum_E``), ``uniform`` (the uniform guesser's expected target loss) and
        ``uniform_slack`` (``rhs - uniform``).
    """
    rescaled(structure, 1.0)
    streams, comparators = list(streams), list(comparators)
    if not streams or len(streams) != len(comparators):
        raise ValueError(
            f"streams and comparators must be non-empty and of equal length; "
            f"got {len(streams)} and {len(comparators)}"
        )
    check_not_complex(strengths, "strengths")
    try:
        grid = np.asarray(strengths, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"strengths must be finite numbers > 0; got {strengths!r}") from exc
    if grid.ndim != 1 or grid.size == 0 or np.any(~np.isfinite(grid)) or np.any(grid <= 0):
        raise ValueError(f"strengths must be a non-empty list of finite values > 0; got {grid}")
    for s in grid:
        a = rescaled(structure, float(s)).a
        if a <= 0:
            raise ValueError(f"Theorem 4.2 needs a > 0; strength {s} gives a = {a:.4g}")
    tasks = []
    for k, (st, U, g) in enumerate(
        zip(streams, comparators, spawn(seed, len(streams)), strict=True)
    ):
        check_stream(structure, st)
        Ua = check_array(U, f"comparators[{k}]", shape=(structure.d, st.X.shape[1]))
        uniforms = sr.draw_uniforms(structure, st.T, g)
        tasks += [(k, structure, st, Ua, float(s), uniforms) for s in grid]
    rows = pmap(_scale_row, tasks, n_jobs=n_jobs, desc="Remark 4.5: strengths")
    return pd.DataFrame(rows)
