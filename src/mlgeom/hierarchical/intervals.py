r"""Intervals for the chapter's two redesigned claims families (issue 29).

* :func:`corrected_split_interval`: the Nadeau–Bengio corrected resampled t interval for a
  paired difference measured on repeated random train/test splits of one corpus, whose
  replicates share documents (Nadeau and Bengio, 2003, "Inference for the generalization
  error", Machine Learning 52): the variance of the mean over :math:`J` splits is
  :math:`(1/J + n_{\mathrm{test}}/n_{\mathrm{train}})\,s^2` instead of :math:`s^2/J`.
* :func:`clustered_slope_interval`: a power-law exponent fitted by least squares in log–log
  over every replicate's design points, with standard errors clustered by replicate (CR1) and
  a t quantile with :math:`G - 1` degrees of freedom, so that the interval includes the fit's
  uncertainty and does not treat a replicate's design points as independent.

``mlgeom.stats`` gains the same two (``corrected_paired_interval``, ``slope_interval``) in the
book's claims machinery; these are the chapter's versions until then, tested against
hand-computed cases in ``tests/hierarchical/test_rates.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_positive_int
from mlgeom.stats import Interval


def _paired(a: Any, b: Any) -> np.ndarray:
    xa = np.asarray(a, dtype=float)
    xb = np.asarray(b, dtype=float)
    if xa.ndim != 1 or xa.shape != xb.shape or xa.size < 2:
        raise ValueError(
            f"a and b must be 1-d of the same length >= 2 (one value per split); got shapes "
            f"{xa.shape} and {xb.shape}"
        )
    if not (np.all(np.isfinite(xa)) and np.all(np.isfinite(xb))):
        raise ValueError("a and b must be finite")
    return xa - xb


def corrected_split_interval(
    a: Any, b: Any | None, *, n_train: int, n_test: int, level: float = 0.95
) -> Interval:
    r"""Corrected resampled t interval of the mean of ``a - b`` over repeated random splits.

    Parameters
    ----------
    a, b : array_like
        Per-split values of the two arms (``b=None``: the interval of the mean of ``a``).
    n_train, n_test : int
        Training and test documents per split.
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    Interval
        ``mean ± t_{(1+level)/2, J-1} · s · sqrt(1/J + n_test/n_train)``; method
        ``"corrected resampled t interval over J splits sharing documents (Nadeau–Bengio)"``.
    """
    from scipy import stats as sps

    diff = _paired(a, np.zeros_like(np.asarray(a, dtype=float)) if b is None else b)
    n_train = check_positive_int(n_train, "n_train")
    n_test = check_positive_int(n_test, "n_test")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    J = diff.size
    mean = float(diff.mean())
    sd = float(diff.std(ddof=1))
    method = (
        f"corrected resampled t interval over {J} random splits sharing documents (Nadeau–Bengio)"
    )
    if sd == 0.0:  # no spread: the interval is the value itself (a claims record refuses it)
        return Interval(mean, mean, mean, J, level, method)
    half = float(sps.t.ppf((1 + level) / 2, J - 1) * sd * np.sqrt(1.0 / J + n_test / n_train))
    return Interval(mean, mean - half, mean + half, J, level, method)


def clustered_slope_interval(
    x: Any, y: Any, groups: Any, level: float = 0.95
) -> tuple[float, Interval]:
    r"""Log–log least-squares slope over all groups' points, with errors clustered by group.

    Parameters
    ----------
    x, y : array_like
        Positive design points and responses, one entry per (group, point).
    groups : array_like
        The replicate of each point (at least 2 distinct).
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    slope : float
        The pooled OLS slope of :math:`\log y` on :math:`\log x`.
    Interval
        ``slope ± t_{(1+level)/2, G-1} · se_CR1``; method ``"log-log fit over G seeds'
        design points, errors clustered by seed (CR1)"``.
    """
    from scipy import stats as sps

    xa = np.asarray(x, dtype=float).ravel()
    ya = np.asarray(y, dtype=float).ravel()
    ga = np.asarray(groups).ravel()
    if not (xa.size == ya.size == ga.size) or xa.size < 3:
        raise ValueError(
            f"x, y and groups must have the same length >= 3; got {xa.size}, {ya.size}, {ga.size}"
        )
    if np.any(~np.isfinite(xa)) or np.any(xa <= 0) or np.any(~np.isfinite(ya)) or np.any(ya <= 0):
        raise ValueError("x and y must be finite and positive (a log-log fit)")
    labels, g_idx = np.unique(ga, return_inverse=True)
    G = labels.size
    if G < 2:
        raise ValueError(f"groups must hold at least 2 distinct replicates; got {G}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    lx, ly = np.log(xa), np.log(ya)
    A = np.column_stack([np.ones_like(lx), lx])
    coef, *_ = np.linalg.lstsq(A, ly, rcond=None)
    resid = ly - A @ coef
    bread = np.linalg.inv(A.T @ A)
    meat = np.zeros((2, 2))
    for g in range(G):
        s = A[g_idx == g].T @ resid[g_idx == g]
        meat += np.outer(s, s)
    n, k = lx.size, 2
    cr1 = G / (G - 1) * (n - 1) / (n - k)
    V = cr1 * bread @ meat @ bread
    se = float(np.sqrt(max(V[1, 1], 0.0)))
    slope = float(coef[1])
    half = float(sps.t.ppf((1 + level) / 2, G - 1) * se)
    method = f"log-log fit over {G} seeds' design points, errors clustered by seed (CR1)"
    return slope, Interval(slope, slope - half, slope + half, G, level, method)


def local_slopes_of(x: Any, y: Any) -> np.ndarray:
    """Slopes between consecutive design points of the per-x geometric mean of ``y`` (log–log)."""
    xa = np.asarray(x, dtype=float).ravel()
    ya = np.asarray(y, dtype=float).ravel()
    if xa.size != ya.size or np.any(xa <= 0) or np.any(ya <= 0):
        raise ValueError("x and y must have the same length and be positive")
    ux = np.unique(xa)
    gm = np.array([np.exp(np.log(ya[xa == u]).mean()) for u in ux])
    return np.diff(np.log(gm)) / np.diff(np.log(ux))


#: Table 1's orderings on the real RCV1 splits: (claim suffix, method, competitor).
#: ``hsvm-best`` compares H-SVM with the best of the other five; the competitor takes the
#: method's place under the same criterion.
TABLE1_ORDERINGS: tuple[tuple[str, str, str], ...] = (
    ("hsvm-best", "H-SVM", "SVM"),
    ("shrls-below-s-rls", "SH-RLS", "S-RLS (truncated)"),
    ("shrls-below-h-perc", "SH-RLS", "S-RLS (truncated)"),
    ("shrls-below-perc", "SH-RLS", "S-RLS (truncated)"),
    ("shrls-below-svm", "SH-RLS", "S-RLS (truncated)"),
    ("shrls-close-to-hsvm", "SH-RLS", "S-RLS (truncated)"),
)

_OTHER = {
    "shrls-below-s-rls": "S-RLS",
    "shrls-below-h-perc": "H-PERC",
    "shrls-below-perc": "PERC",
    "shrls-below-svm": "SVM",
}


def table1_orderings(
    per: Any, *, n_train: int, n_test: int, empty: str = "empty prediction"
) -> dict:
    r"""Table 1's orderings (Section 8) on repeated random splits, with corrected intervals.

    For each ordering of :data:`TABLE1_ORDERINGS` three arms are measured on the same splits:
    the method (H-SVM or SH-RLS), the strawman (``empty``, the empty prediction, in the
    method's place) and the natural competitor in the method's place (the flat SVM for
    "H-SVM has the lowest H-loss of the six"; the flat S-RLS with its prediction G-truncated,
    i.e. flat training evaluated top-down as eq. 15 and Lemma 1 suggest, for SH-RLS's
    orderings). Differences are paired by split, ratios are per split; every interval is
    :func:`corrected_split_interval` (the splits share documents).

    "Best of the other five" is, for each arm, the learner of Table 1 other than the arm's
    own learner and H-SVM's place-holder with the lowest mean uniform H-loss (H-SVM counts
    among the others when the flat SVM takes its place).

    Parameters
    ----------
    per : pandas.DataFrame
        One row per split; columns: the six learners of Table 1, ``"S-RLS (truncated)"`` and
        ``empty`` (uniform H-loss).
    n_train, n_test : int
        Training and test documents per split (for the correction).
    empty : str, default="empty prediction"
        The strawman's column.

    Returns
    -------
    dict
        Suffix → ``{"method": Interval, "baseline": Interval, "competitor": Interval}``.
    """
    import pandas as pd

    six = ("PERC", "H-PERC", "S-RLS", "SH-RLS", "SVM", "H-SVM")
    if not isinstance(per, pd.DataFrame):
        raise TypeError(f"per must be a pandas DataFrame; got {type(per).__name__}")
    need = [*six, "S-RLS (truncated)", empty]
    missing = [c for c in need if c not in per.columns]
    if missing:
        raise ValueError(f"per lacks the column(s) {missing}; got {list(per.columns)}")
    means = per[list(six)].mean()

    def iv(a: Any, b: Any | None = None) -> Interval:
        return corrected_split_interval(a, b, n_train=n_train, n_test=n_test)

    out: dict[str, dict[str, Interval]] = {}
    for suffix, method, comp in TABLE1_ORDERINGS:
        arms = {"method": per[method], "baseline": per[empty], "competitor": per[comp]}
        res = {}
        for arm, col in arms.items():
            if suffix == "hsvm-best":
                own = "SVM" if arm == "competitor" else "H-SVM"
                best = str(means.drop(own).idxmin())
                res[arm] = iv(col, per[best])
            elif suffix == "shrls-close-to-hsvm":
                res[arm] = iv(col / per["H-SVM"])
            else:
                res[arm] = iv(col, per[_OTHER[suffix]])
        out[suffix] = res
    return out
