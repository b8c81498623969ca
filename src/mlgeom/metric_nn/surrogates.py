r"""The surrogate losses of Section 2 (eq. 5) and their empirical averages.

Kontorovich and Weiss bound the error :math:`P(g_f(X) \ne Y) = \mathbb E[1\{\gamma_f(X, Y) < 0\}]`
through two surrogates of the margin :math:`u` (eq. 5):

.. math::

    \mathcal L_{\rm cutoff}(u) = 1\{u < 1\}, \qquad
    \mathcal L_{\rm margin}(u) = T_{[0,1]}(1 - u), \qquad
    T_{[a,b]}(z) = \max\{a, \min\{b, z\}\},

so that :math:`1\{u < 0\} \le \mathcal L_{\rm margin}(u) \le \mathcal L_{\rm cutoff}(u)` for
every :math:`u`. Theorem 4 holds with either surrogate ("L is any of the loss functions defined
in Section 2"); Theorem 5 and the SRM of Section 4 use :math:`\mathcal L_{\rm cutoff}` (the count
:math:`\tilde m(L)`). :math:`\mathcal L_{\rm margin}` is the ramp loss: it charges a point whose
margin is in :math:`[0, 1)` only :math:`1 - u`, so Theorem 4 with it is never looser.

References
----------
.. [1] A. Kontorovich and R. Weiss, "Maximum Margin Multiclass Nearest Neighbors", ICML 2014,
   Section 2, eq. (5), and Theorem 4.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_not_complex

__all__ = ["cutoff_loss", "margin_loss", "surrogate_risks"]


def _margins(u: Any, name: str = "u") -> np.ndarray:
    check_not_complex(u, name)
    try:
        u = np.asarray(u, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be an array of real margins; got {u!r:.60}") from err
    if np.any(np.isnan(u)):
        at = tuple(int(i) for i in np.argwhere(np.isnan(u))[0]) if u.ndim else ()
        raise ValueError(f"{name} must not contain NaN; got NaN at index {at}")
    return u


def cutoff_loss(u: Any) -> np.ndarray:
    r"""Evaluate the cutoff surrogate :math:`\mathcal L_{\rm cutoff}(u) = 1\{u < 1\}` (eq. 5).

    Parameters
    ----------
    u : float or array_like
        Margins (e.g. :math:`h_f(x, y) \in [-1, 1]`); :math:`\pm\infty` allowed, NaN refused.

    Returns
    -------
    numpy.ndarray
        0.0 or 1.0 elementwise, same shape as ``u``.

    Examples
    --------
    >>> cutoff_loss([-1.0, 0.5, 1.0]).tolist()
    [1.0, 1.0, 0.0]
    """
    return (_margins(u) < 1.0).astype(float)


def margin_loss(u: Any) -> np.ndarray:
    r"""Evaluate the ramp surrogate :math:`\mathcal L_{\rm margin}(u) = T_{[0,1]}(1 - u)` (eq. 5).

    :math:`T_{[a,b]}(z) = \max\{a, \min\{b, z\}\}` is the truncation of eq. (5): the loss is 1
    for :math:`u \le 0`, :math:`1 - u` on :math:`[0, 1]` and 0 for :math:`u \ge 1`.

    Parameters
    ----------
    u : float or array_like
        Margins; :math:`\pm\infty` allowed, NaN refused.

    Returns
    -------
    numpy.ndarray
        Values in :math:`[0, 1]`, same shape as ``u``.

    Examples
    --------
    >>> margin_loss([-1.0, 0.0, 0.25, 1.0, 2.0]).tolist()
    [1.0, 1.0, 0.75, 0.0, 0.0]
    """
    return np.clip(1.0 - _margins(u), 0.0, 1.0)


def surrogate_risks(h: Any, y: Any) -> dict[str, float]:
    r"""Empirical 0-1, margin and cutoff losses of a margin function on a labelled sample.

    With :math:`u_i = h(X_i, Y_i)` (eq. 8's :math:`h_f`, e.g. eq. 16 from
    :meth:`mlgeom.metric_nn.SRMNearestNeighbors.decision_function`), returns
    :math:`\hat{\mathbb E}[1\{u < 0\}]` (the training error of :math:`g_f`: it misclassifies
    :math:`(x, y)` "precisely when :math:`\gamma_f(x, y) < 0`", Section 2),
    :math:`\hat{\mathbb E}[\mathcal L_{\rm margin}(u)]` and
    :math:`\hat{\mathbb E}[\mathcal L_{\rm cutoff}(u)]`, the empirical losses of Theorem 4.

    Parameters
    ----------
    h : array_like of shape (n, k)
        Margin function at the sample points (finite), one column per class index.
    y : array_like of int, shape (n,)
        Class indices in ``0..k-1``.

    Returns
    -------
    dict
        ``{"error": …, "margin": …, "cutoff": …}``, each in :math:`[0, 1]`.

    Examples
    --------
    >>> surrogate_risks([[0.5, -0.5], [1.0, -1.0], [0.2, -0.2]], [0, 0, 1])
    {'error': 0.3333333333333333, 'margin': 0.5, 'cutoff': 0.6666666666666666}
    """
    h = _margins(h, "h")
    if h.ndim != 2 or h.shape[0] == 0 or h.shape[1] == 0:
        raise ValueError(f"h must be a non-empty (n, k) array; got shape {h.shape}")
    if not np.all(np.isfinite(h)):
        raise ValueError(f"h must be finite; got {h[~np.isfinite(h)][0]}")
    y_arr = np.asarray(y)
    if y_arr.shape != (h.shape[0],) or not np.issubdtype(y_arr.dtype, np.integer):
        raise ValueError(
            f"y must be {h.shape[0]} integer class indices; got shape {y_arr.shape}, "
            f"dtype {y_arr.dtype}"
        )
    if np.any((y_arr < 0) | (y_arr >= h.shape[1])):
        bad = int(y_arr[(y_arr < 0) | (y_arr >= h.shape[1])][0])
        raise ValueError(f"y must be in 0..{h.shape[1] - 1}; got {bad}")
    u = h[np.arange(h.shape[0]), y_arr]
    return {
        "error": float(np.mean(u < 0.0)),
        "margin": float(np.mean(margin_loss(u))),
        "cutoff": float(np.mean(cutoff_loss(u))),
    }
