r"""Online convex optimisation algorithms used as "Alg" in Algorithm 2 (Sakaue et al. 2024).

* :class:`OGD` — online gradient descent with a constant learning rate :math:`\eta` and
  :math:`W_1 = 0`, :math:`W_{t+1} = W_t - \eta\nabla S_t(W_t)` (unconstrained domain; the
  regret bound (1) of Orabona 2023, Theorem 2.13).
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

__all__ = ["OGD", "CoinBettingOGD"]


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
