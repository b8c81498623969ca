"""Lemma F.1 (spherical caps) at its worst case."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlgeom.multiscale import cap_fraction, lemma_f1_constant, lemma_f1_worst_case


def test_cap_fraction_hand_cases():
    """Circle: an arc of angle 2φ, share φ/π; S^2: Archimedes, share (1 − cos φ)/2;
    a hemisphere is half the sphere in every dimension."""
    for phi in (0.0, 0.3, 1.2, math.pi / 2):
        assert cap_fraction(2, phi) == pytest.approx(phi / math.pi, abs=1e-15)
        assert cap_fraction(3, phi) == pytest.approx((1 - math.cos(phi)) / 2, abs=1e-15)
    for d in (2, 5, 17):
        assert cap_fraction(d, math.pi / 2) == pytest.approx(0.5)


def test_cap_fraction_against_a_loop_reference():
    """Li's formula A_{d−1} ∫_0^φ sin^{d−2} / A_d by a midpoint rule (loop reference)."""
    d, phi, n = 6, 0.9, 20000
    h = phi / n
    integral = sum(math.sin((j + 0.5) * h) ** (d - 2) for j in range(n)) * h

    def area(k):
        return 2 * math.pi ** (k / 2) / math.gamma(k / 2)

    assert cap_fraction(d, phi) == pytest.approx(area(d - 1) * integral / area(d), rel=1e-7)
    np.testing.assert_allclose(
        cap_fraction(d, [0.1, 0.9]), [cap_fraction(d, 0.1), cap_fraction(d, 0.9)]
    )


def test_worst_case_is_the_proofs_constant():
    """sin x / x decreases, so the worst ratio is the φ → 0 limit Γ(d/2)/(2√π Γ((d+1)/2)):
    1/π for d = 2 (constant ratio), 1/4 for d = 3."""
    assert lemma_f1_constant(2) == pytest.approx(1 / math.pi)
    assert lemma_f1_constant(3) == pytest.approx(0.25)
    w = lemma_f1_worst_case([2, 3, 8])
    np.testing.assert_allclose(w["worst"], w["constant"], rtol=1e-6)
    assert (w["worst"] >= w["at_pi_2"]).all()
    assert list(w["d"]) == [2, 3, 8]


def test_bad_inputs():
    with pytest.raises(ValueError, match="phi"):
        cap_fraction(3, 2.0)
    with pytest.raises(ValueError, match="phi"):
        cap_fraction(3, [-0.1])
    with pytest.raises(ValueError, match="d"):
        cap_fraction(1, 0.1)
    with pytest.raises(ValueError, match="ds"):
        lemma_f1_worst_case([1, 2])
