"""Tests of :mod:`mlgeom.multiscale.strip_volume` (Lemma E.4)."""

import numpy as np
import pytest

from mlgeom.multiscale import (
    cone_strip_fraction,
    lemma_e4_probe,
    lemma_e4_slack,
    strip_fraction,
    worst_strip_fraction,
)

SQUARE = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
TRIANGLE = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]


def _loop_fraction_2d(V, a, eps, n=4000):
    """Loop reference: midpoint rule on the section lengths of a 2D polygon along x_1."""
    V = np.asarray(V, float)
    xs = np.linspace(V[:, 0].min(), V[:, 0].max(), n + 1)
    mids, dx = (xs[:-1] + xs[1:]) / 2, xs[1] - xs[0]
    tot = part = 0.0
    for x in mids:
        ys = []
        for i in range(len(V)):
            p, q = V[i], V[(i + 1) % len(V)]
            if (p[0] - x) * (q[0] - x) <= 0 and p[0] != q[0]:
                ys.append(p[1] + (x - p[0]) / (q[0] - p[0]) * (q[1] - p[1]))
        length = max(ys) - min(ys) if ys else 0.0
        tot += length * dx
        part += length * dx if a <= x <= a + eps else 0.0
    return part / tot


def test_hand_cases():
    assert strip_fraction(SQUARE, 0.25, 0.25) == pytest.approx(0.25)
    assert strip_fraction(TRIANGLE, 0.5, 0.5) == pytest.approx(0.25)  # ∫_.5^1 (1−x) dx / (1/2)
    assert strip_fraction(SQUARE, 2.0, 1.0) == 0.0


def test_matches_loop_reference():
    V = [[0.0, 0.0], [2.0, -0.5], [3.0, 1.0], [0.5, 1.5]]  # counter-clockwise quadrilateral
    for a in (-0.5, 0.3, 1.7, 2.5):
        assert strip_fraction(V, a, 0.4) == pytest.approx(_loop_fraction_2d(V, a, 0.4), abs=2e-3)


def test_cone_matches_formula_and_is_the_worst():
    for d in (2, 3):
        r = lemma_e4_probe(d, seed=0, n_restarts=1, n_steps=5)
        assert r["cone"] == pytest.approx(cone_strip_fraction(d, 1 / (8 * d)), rel=1e-5)
        assert r["random"] <= r["cone"] + 1e-6  # Brunn: nothing beats the cone
    assert cone_strip_fraction(2, 0.5) == pytest.approx(0.75)


def test_worst_position_of_square_is_anywhere_inside():
    f, a = worst_strip_fraction(SQUARE, 0.1)
    assert f == pytest.approx(0.1) and -1e-9 <= a <= 0.9 + 1e-9


def test_slack_matches_closed_form():
    for d in (2, 3):
        assert lemma_e4_slack(d) == pytest.approx(1 / (d * (1 - 0.75 ** (1 / d))), abs=1e-4)


def test_probe_is_deterministic():
    a = lemma_e4_probe(2, seed=4, n_restarts=1, n_steps=5, family="random")
    b = lemma_e4_probe(2, seed=4, n_restarts=1, n_steps=5, family="random")
    assert a["random"] == b["random"] and np.isnan(lemma_e4_probe(2, family="cone")["random"])


def test_bad_inputs():
    with pytest.raises(ValueError, match="2 or 3 columns"):
        strip_fraction(np.eye(4), 0.0, 1.0)
    with pytest.raises(ValueError, match="eps"):
        strip_fraction(SQUARE, 0.0, 0.0)
    with pytest.raises(ValueError, match="d must be 2 or 3"):
        lemma_e4_probe(4)
    with pytest.raises(ValueError, match="family"):
        lemma_e4_probe(2, family="ball")
