"""Tests of :mod:`mlgeom.multiscale.separation` (Appendix F's invariants, Theorem 33)."""

import numpy as np
import pytest

from mlgeom.multiscale import appendix_f_invariants, cone_pointedness, separation_margin


def _grid_margin(S, n=20001):
    """Loop reference in 2D: the best min_i ⟨h, s_i⟩ over unit h on a fine grid of angles."""
    best = -np.inf
    for th in np.linspace(0.0, 2 * np.pi, n):
        h = np.array([np.cos(th), np.sin(th)])
        best = max(best, min(float(s @ h) for s in S))
    return best


def test_hand_case_two_axes():
    margin, h = separation_margin([[1.0, 0.0], [0.0, 1.0]])
    assert margin == pytest.approx(1 / np.sqrt(2), abs=1e-12)
    np.testing.assert_allclose(h, [1 / np.sqrt(2), 1 / np.sqrt(2)], atol=1e-12)


def test_matches_loop_reference_in_2d():
    rng = np.random.default_rng(0)
    for _ in range(5):
        ang = rng.uniform(-1.2, 1.2, size=4)  # inside a half-plane: separable
        S = np.c_[np.cos(ang), np.sin(ang)]
        ours, ref = separation_margin(S)[0], _grid_margin(S)
        assert ref - 1e-12 <= ours <= ref + 1e-3  # optimal, the grid is 3e-4 rad coarse


def test_opposite_points_are_not_separable():
    margin, h = separation_margin([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    assert margin <= 0.0  # not certified (0.0 and None when the residual is exactly 0)


def test_invariants_hand_case():
    P = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]
    inv = appendix_f_invariants(P, [0, 1, 0])
    np.testing.assert_array_equal(inv["t"], [3])
    assert inv["sep"][0] == pytest.approx(1 / np.sqrt(2), abs=1e-12)
    assert inv["pointed"][0] == pytest.approx(1 / np.sqrt(2), abs=1e-12)  # A = cone(e1, e2)


def test_invariants_detect_loss():
    # x3 = −e1 with label 1 joins A = cone(e1): A ∩ −A ≠ {0} and A ∩ B ≠ {0}
    inv = appendix_f_invariants([[1.0, 0.0], [-1.0, 0.0], [-1.0, 0.0]], [0, 1, 0])
    assert inv["sep"][0] <= 0.0 and inv["pointed"][0] <= 0.0


def test_stream_is_deterministic_and_certified_early():
    from mlgeom.multiscale import appendix_f_stream

    a = appendix_f_stream(30, 6, seed=3)
    b = appendix_f_stream(30, 6, seed=3)
    np.testing.assert_array_equal(a[0], b[0])
    inv = appendix_f_invariants(a[0], a[1])
    assert inv["sep"].min() > 1e-13 and a[5] == 0  # short runs keep invariant (i)


def test_bad_inputs():
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        appendix_f_invariants([[1.0, 0.0], [-1.0, 0.0]], [0, 2])
    with pytest.raises(ValueError, match="labels"):
        appendix_f_invariants([[1.0, 0.0], [-1.0, 0.0]], [0])
    with pytest.raises(ValueError, match="S"):
        separation_margin([[np.nan, 0.0]])


def _cone_margin_loop(G, n=20001):
    """Loop reference in 2D: the cone's best min ⟨h, g/‖g‖⟩ over unit h on a grid of angles."""
    U = [np.asarray(g, float) / np.linalg.norm(g) for g in G]
    return _grid_margin(U, n)


def test_cone_pointedness_hand_case():
    # A = cone(e1, e2) (margin 1/√2), B = cone(−e1) (margin 1), then B gains −e2 (margin 1/√2)
    P = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -2.0]]
    cp = cone_pointedness(P, [0, 1, 0, 1])
    np.testing.assert_array_equal(cp["t"], [3, 4])
    np.testing.assert_allclose(cp["A"], [1 / np.sqrt(2)] * 2, atol=1e-12)
    np.testing.assert_allclose(cp["B"], [1.0, 1 / np.sqrt(2)], atol=1e-12)
    np.testing.assert_allclose(cp["pointed"], [1 / np.sqrt(2)] * 2, atol=1e-12)


def test_cone_pointedness_matches_loop_reference_and_is_independent_of_i():
    rng = np.random.default_rng(1)
    ang = rng.uniform(-1.0, 1.0, size=6)
    P = np.r_[[[1.0, 0.0], [-1.0, 0.0]], 2.0 * np.c_[np.cos(ang), np.sin(ang)]]
    P[4] = P[2]  # a label-2 copy of a label-1 point: A ∩ B ≠ {0}
    lab = np.array([0, 1, 0, 0, 1, 0, 1, 0])
    cp = cone_pointedness(P, lab)
    assert appendix_f_invariants(P, lab)["sep"][-1] <= 0.0  # (i) fails, (ii) still measured
    for j, t in enumerate(cp["t"]):
        for c, key in ((0, "A"), (1, "B")):
            ref = _cone_margin_loop(P[:t][lab[:t] == c])
            if ref > 1e-3:  # pointed: the max margin is found
                assert ref - 1e-12 <= cp[key][j] <= ref + 1e-3
            else:  # not pointed (0 ∈ conv of the generators): nothing certified
                assert cp[key][j] <= 1e-12
    assert cp["B"][-1] <= 0.0 < cp["A"][-1]  # B = cone(−e1, x5, x7) is the whole plane here


def test_cone_pointedness_detects_a_line_and_is_deterministic():
    cp = cone_pointedness([[1.0, 0.0], [-1.0, 0.0], [-1.0, 0.0]], [0, 1, 0])
    assert cp["A"][0] <= 0.0 and cp["B"][0] == pytest.approx(1.0)
    from mlgeom.multiscale import appendix_f_stream

    P, lab = appendix_f_stream(40, 6, seed=5)[:2]
    a, b = cone_pointedness(P, lab), cone_pointedness(P, lab)
    np.testing.assert_array_equal(a["pointed"], b["pointed"])
    inv = appendix_f_invariants(P, lab)
    assert np.all(a["pointed"] >= inv["sep"] * (1 - 1e-6))  # (i)'s separator is a candidate


def test_cone_pointedness_bad_inputs():
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        cone_pointedness([[1.0, 0.0], [-1.0, 0.0]], [0, 2])
    with pytest.raises(ValueError, match="P"):
        cone_pointedness([[1.0, 0.0]], [0])
    with pytest.raises(ValueError, match="non-zero .*row 1 is 0"):
        cone_pointedness([[1.0, 0.0], [0.0, 0.0], [-1.0, 0.0]], [0, 1, 0])
