"""The slides' perceptron-proof steps on one run: hand-computed case, loop reference, bad inputs."""

import numpy as np
import pytest

from mlgeom.algorithms import perceptrons as perceptron
from mlgeom.primer import experiments as primer
from mlgeom.primer.perceptron_proof import perceptron_proof_steps
from mlgeom.random import spawn


def _reference_shares(X, y):
    """Loop reference: w after k updates from the perceptron capped at k, share before k + 1."""
    Z = np.asarray(y, float)[:, None] * np.asarray(X, float)
    t = perceptron.perceptron(X, y).n_updates
    shares = []
    for k in range(t):
        w = Z[0] if k == 0 else perceptron.perceptron(X, y, max_updates=k).w_raw
        shares.append(np.mean([float(z @ w) < 0.0 for z in Z]))
    return shares


def test_hand_computed_run():
    # Z = y x = (1, 0.2), (-0.5, 1), (1, 0.1); w = (1, 0.2) misclassifies only point 2
    # (-0.3 < 0), one update gives w = (0.5, 1.2), which classifies all three.
    s = perceptron_proof_steps([[1.0, 0.2], [-0.5, 1.0], [-1.0, -0.1]], [1, 1, -1], [0.0, 2.0])
    assert s.n_updates == 1
    assert s.misclassified_share.tolist() == [pytest.approx(1 / 3)]
    assert s.norm_ratio == pytest.approx((0.5**2 + 1.2**2) / 2)
    assert s.cauchy_schwarz_gap == pytest.approx(1 - 1.2 / 1.3)  # ‖w‖ = 1.3


def test_matches_the_perceptron_and_a_loop_reference():
    X, y, w_star = perceptron.planted_margin_data(60, 3, 0.15, seed=4)
    s = perceptron_proof_steps(X, y, w_star)
    res = perceptron.perceptron(X, y)
    assert s.n_updates == res.n_updates > 0
    w = res.w_raw
    assert s.norm_ratio == pytest.approx(float(w @ w) / (res.n_updates + 1))
    assert s.cauchy_schwarz_gap == pytest.approx(1 - float(w @ w_star) / np.linalg.norm(w))
    np.testing.assert_allclose(s.misclassified_share, _reference_shares(X, y))
    # Novikoff: ‖w‖² <= t + 1 in the unit ball; a sum of added points is never all-wrong
    assert s.norm_ratio <= 1.0 and 0.0 < s.cauchy_schwarz_gap < 1.0
    assert (s.misclassified_share < 1.0).all()


def test_special_cases():
    # no update: share empty, w = y_1 x_1; w parallel to w' closes the Cauchy–Schwarz gap
    s = perceptron_proof_steps([[0.6, 0.0], [-0.5, 0.0]], [1, -1], [3.0, 0.0])
    assert s.n_updates == 0 and s.misclassified_share.size == 0
    assert s.norm_ratio == pytest.approx(0.36)
    assert s.cauchy_schwarz_gap == pytest.approx(0.0, abs=1e-15)


def test_sweep_matches_direct_calls():
    table = primer.perceptron_proof_sweep([0.2, 0.1], 80, 3, 2, seed=5)
    assert list(table["gamma"]) == [0.2, 0.2, 0.1, 0.1]
    X, y, w_star = perceptron.planted_margin_data(80, 3, 0.1, seed=spawn(spawn(5, 2)[1], 2)[1])
    s = perceptron_proof_steps(X, y, w_star)
    assert table["norm_ratio"].iloc[3] == s.norm_ratio
    assert table["max_misclassified_share"].iloc[3] == s.misclassified_share.max()
    assert table.equals(primer.perceptron_proof_sweep([0.2, 0.1], 80, 3, 2, seed=5))


@pytest.mark.parametrize(
    ("X", "y", "w_prime", "match"),
    [
        ([[1.0, 0.0]], [1], [0.0, 0.0], "w_prime must be non-zero"),
        ([[1.0, 0.0]], [1], [1.0], "w_prime"),
        ([[1.0, 0.0]], [2], [1.0, 0.0], "y"),
        ([[np.nan, 0.0]], [1], [1.0, 0.0], "X"),
        ([[1.0, 0.0], [1.0, 0.0]], [1, -1], [1.0, 0.0], "not separable"),
    ],
)
def test_bad_inputs(X, y, w_prime, match):
    with pytest.raises(ValueError, match=match):
        perceptron_proof_steps(X, y, w_prime)
