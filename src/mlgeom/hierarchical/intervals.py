r"""Intervals for the chapter's two redesigned claims families (issue 29).

* :func:`corrected_split_interval`: the Nadeau–Bengio corrected resampled t interval for a
  paired difference measured on repeated random train/test splits of one corpus, whose
  replicates share documents (Nadeau and Bengio, 2003, "Inference for the generalization
  error", Machine Learning 52): the variance of the mean over :math:`J` splits is
  :math:`(1/J + n_{\mathrm{test}}/n_{\mathrm{train}})\,s^2` instead of :math:`s^2/J`.
* :func:`table1_orderings`: Table 1's orderings with the strawman and the natural competitor
  in the method's place, each on that interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_positive_int
from mlgeom.stats import Interval, corrected_paired_interval

__all__ = ["TABLE1_ORDERINGS", "corrected_split_interval", "table1_orderings"]


def corrected_split_interval(
    a: Any, b: Any | None, *, n_train: int, n_test: int, level: float = 0.95
) -> Interval:
    r"""Corrected resampled t interval of the mean of ``a - b`` over splits sharing documents.

    :func:`mlgeom.stats.corrected_paired_interval` with ``test_fraction = n_test / n_train``
    (Nadeau and Bengio, 2003): the variance of the mean over :math:`J` splits is
    :math:`(1/J + n_{\mathrm{test}}/n_{\mathrm{train}})\,s^2` instead of :math:`s^2/J`.

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
    """
    raw = np.asarray(a)
    if np.iscomplexobj(raw) or (b is not None and np.iscomplexobj(np.asarray(b))):
        raise ValueError("a and b must be real; got complex values")
    try:
        xa = raw.astype(float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a must be numeric (one value per split); got {a!r:.60}") from exc
    n_train = check_positive_int(n_train, "n_train")
    n_test = check_positive_int(n_test, "n_test")
    xb = np.zeros_like(xa) if b is None else b
    return corrected_paired_interval(xa, xb, test_fraction=n_test / n_train, level=level)


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
