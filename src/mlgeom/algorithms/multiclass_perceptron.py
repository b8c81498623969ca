"""Baselines on the same query streams: the Perceptron (``k = 2``) and the multiclass Perceptron.

The multiclass Perceptron is the simplest ultraconservative algorithm of Crammer and Singer
(2003, Figure 1 with the "max" update): predict ``argmax_r ⟨w_r, q⟩``; on a mistake add ``q`` to
the prototype of the true label and subtract it from the predicted one. It is not scikit-learn's
one-vs-all ``Perceptron``.
"""

from __future__ import annotations

import numpy as np

from mlgeom._validation import check_positive_int, check_vector

__all__ = ["OnlinePerceptron", "MulticlassPerceptron"]


def _check_label(label, low: int, high: int) -> int:
    """Return ``label`` as an int in ``[low, high]``, or raise naming ``true_label``."""
    if isinstance(label, np.integer):
        label = int(label)
    label = check_positive_int(label, "true_label", minimum=low)
    if label > high:
        raise ValueError(f"true_label must be an integer in [{low}, {high}]; got {label}")
    return label


class OnlinePerceptron:
    """Rosenblatt's Perceptron through the origin; labels 1 (``⟨w, q⟩ >= 0``) and 2."""

    def __init__(self, d):
        self.d = check_positive_int(d, "d")
        self.w = np.zeros(self.d)

    def predict(self, q) -> int:
        """Label 1 if ``⟨w, q⟩ > 0`` else 2 (ties, including ``w = 0``, go to 2)."""
        q = check_vector(q, "q", size=self.d)
        return 1 if self.w @ q > 0 else 2

    def learn(self, q, true_label: int) -> bool:
        """Perceptron update ``w += y q`` on a mistake (``y = +1`` for label 1, ``−1`` for 2)."""
        q = check_vector(q, "q", size=self.d)
        true_label = _check_label(true_label, 1, 2)
        if self.predict(q) == true_label:
            return False
        self.w += q if true_label == 1 else -q
        return True


class MulticlassPerceptron:
    """Crammer–Singer multiclass Perceptron (prototypes ``w_1…w_k``; labels ``0…k−1``)."""

    def __init__(self, k, d):
        self.k = check_positive_int(k, "k", minimum=2)
        self.d = check_positive_int(d, "d")
        self.W = np.zeros((self.k, self.d))

    def predict(self, q) -> int:
        """``argmax_r ⟨w_r, q⟩`` (ties to the lowest index)."""
        q = check_vector(q, "q", size=self.d)
        return int(np.argmax(self.W @ q))

    def learn(self, q, true_label: int) -> bool:
        """On a mistake: ``w_y += q``, ``w_ŷ −= q``."""
        q = check_vector(q, "q", size=self.d)
        true_label = _check_label(true_label, 0, self.k - 1)
        guess = self.predict(q)
        if guess == true_label:
            return False
        self.W[true_label] += q
        self.W[guess] -= q
        return True
