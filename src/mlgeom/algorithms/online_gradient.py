r"""Online convex optimisation algorithms used as "Alg" in Algorithm 2 (Sakaue et al. 2024).

* :class:`OGD` — online gradient descent with a constant learning rate :math:`\eta` and
  :math:`W_1 = 0`, :math:`W_{t+1} = W_t - \eta\nabla S_t(W_t)` (unconstrained domain; the
  regret bound (1) of Orabona 2023, Theorem 2.13).
* :class:`AdaptiveOGD` — projected OGD on the Frobenius ball of diameter :math:`B` with the
  adaptive learning rate :math:`\eta_t = B/\sqrt{2\sum_{i\le t}\|g_i\|_F^2}` of Appendix E.1
  (McMahan & Streeter 2010; Orabona 2023, Theorem 4.14), used by Theorem E.1.
* :class:`CoinBettingOGD` — the parameter-free reduction of Cutkosky and Orabona (2018,
  Section 3) used in Appendix E.2: a Krichevsky–Trofimov coin-betting learner picks the
  magnitude :math:`v_t` and OGD with adaptive steps on the unit ball picks the direction
  :math:`z_t`; :math:`W_t = v_t z_t`. Gradients are divided by a known bound ``G`` so that the
  coin outcomes lie in :math:`[-1, 1]`.

Both expose ``weights`` (the current :math:`W_t`, a view that must not be modified) and
``update(grad)``.
"""

from __future__ import annotations

import numpy as np

from mlgeom._validation import check_array, check_real

__all__ = ["OGD", "AdaptiveOGD", "CoinBettingOGD"]


def _check_shape(shape) -> tuple[int, ...]:
    if not isinstance(shape, tuple | list) or len(shape) == 0:
        raise ValueError(f"shape must be a non-empty tuple of positive ints; got {shape!r}")
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, int | np.integer) or s < 1:
            raise ValueError(f"shape must be a tuple of positive ints; got {shape!r}")
    return tuple(int(s) for s in shape)


class OGD:
    r"""Online gradient descent, :math:`W_{t+1} = W_t - \eta g_t`, :math:`W_1 = 0`.

    Parameters
    ----------
    shape : tuple of int
        Shape of :math:`W` (``(d, p)``).
    eta : float
        Learning rate :math:`\eta > 0`.
    """

    def __init__(self, shape: tuple[int, int], eta: float):
        self.eta = check_real(eta, "eta", low=0.0, low_inclusive=False)
        self.weights = np.zeros(_check_shape(shape))

    def update(self, grad: np.ndarray) -> None:
        """One gradient step, in place (``grad`` must be finite, of the shape of ``W``)."""
        grad = check_array(grad, "grad", shape=self.weights.shape)
        self.weights -= self.eta * grad


class AdaptiveOGD:
    r"""Projected OGD with the adaptive learning rate of Appendix E.1, :math:`W_1 = 0`.

    .. math::

        W_{t+1} = \Pi_{\mathcal W}\Big(W_t - \frac{B}{\sqrt{2\sum_{i \le t}\|g_i\|_F^2}}\,
        g_t\Big), \qquad \mathcal W = \{W : \|W\|_F \le B/2\},

    the ball of :math:`\ell_2` (Frobenius) diameter :math:`B` centred at 0. Appendix E.1 prints
    the rate with :math:`\sum_{i=1}^{T}`, which an online learner cannot compute at round
    :math:`t`; we read it as the running sum up to :math:`t` of the cited adaptive rate
    (McMahan & Streeter 2010; Duchi et al. 2011; Orabona 2023, Theorem 4.14), whose regret is at
    most :math:`\sqrt2\,B\sqrt{\sum_t\|g_t\|_F^2}` against any :math:`U \in \mathcal W`. A
    zero gradient before any nonzero one leaves :math:`W` at 0.

    Parameters
    ----------
    shape : tuple of int
        Shape of :math:`W` (``(d, p)``).
    B : float
        Diameter of the domain, :math:`B > 0`.
    """

    def __init__(self, shape: tuple[int, int], B: float):
        self.B = check_real(B, "B", low=0.0, low_inclusive=False)
        self.weights = np.zeros(_check_shape(shape))
        self.sq_sum = 0.0

    def update(self, grad: np.ndarray) -> None:
        """One projected step with the adaptive rate, in place."""
        grad = check_array(grad, "grad", shape=self.weights.shape)
        self.sq_sum += float(np.sum(grad * grad))
        if self.sq_sum == 0.0:
            return
        self.weights -= self.B / np.sqrt(2.0 * self.sq_sum) * grad
        norm = float(np.linalg.norm(self.weights))
        radius = 0.5 * self.B
        if norm > radius:
            self.weights *= radius / norm


class CoinBettingOGD:
    r"""Parameter-free OCO (Cutkosky & Orabona 2018, Section 3; Appendix E.2 of the paper).

    Magnitude: KT bettor with initial wealth :math:`\epsilon`,
    :math:`v_t = \beta_t\,\mathrm{Wealth}_t`, :math:`\beta_t = \frac1t\sum_{s<t} c_s`,
    :math:`\mathrm{Wealth}_{t+1} = \mathrm{Wealth}_t + c_t v_t` with coin
    :math:`c_t = -\langle g_t, z_t\rangle / G \in [-1, 1]`.
    Direction: projected OGD on the unit Frobenius ball with step
    :math:`1/\sqrt{2\sum_{s\le t}\|g_s\|^2/G^2}`.

    Parameters
    ----------
    shape : tuple of int
        Shape of :math:`W`.
    G : float
        Bound on :math:`\|\nabla S_t(W_t)\|_F`.
    epsilon : float, default=1.0
        Initial wealth (the paper takes ``1``).
    """

    def __init__(self, shape: tuple[int, int], G: float, epsilon: float = 1.0):
        self.G = check_real(G, "G", low=0.0, low_inclusive=False)
        self.wealth = check_real(epsilon, "epsilon", low=0.0, low_inclusive=False)
        self.z = np.zeros(_check_shape(shape))
        self.coin_sum = 0.0
        self.sq_sum = 0.0
        self.t = 1
        self.v = 0.0  # beta_1 = 0
        self.weights = np.zeros_like(self.z)

    def update(self, grad: np.ndarray) -> None:
        """Feed :math:`g_t`; prepares :math:`W_{t+1} = v_{t+1} z_{t+1}`."""
        g = check_array(grad, "grad", shape=self.weights.shape) / self.G
        c = -float(np.sum(g * self.z))
        c = min(1.0, max(-1.0, c))
        self.wealth += c * self.v
        self.coin_sum += c
        self.sq_sum += float(np.sum(g * g))
        if self.sq_sum > 0:
            self.z -= g / np.sqrt(2.0 * self.sq_sum)
            nz = np.linalg.norm(self.z)
            if nz > 1.0:
                self.z /= nz
        self.t += 1
        self.v = self.coin_sum / self.t * self.wealth
        np.multiply(self.z, self.v, out=self.weights)
