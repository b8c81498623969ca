"""Tests of the surrogate losses of Section 2, eq. (5), and of the Theorem 4 / L_margin driver."""

from __future__ import annotations

import numpy as np
import pytest

import mlgeom.metric_nn as MN


def _ramp_reference(u: float) -> float:
    """T_[0,1](1 - u) written out case by case (eq. 5)."""
    z = 1.0 - u
    if z < 0.0:
        return 0.0
    if z > 1.0:
        return 1.0
    return z


def test_losses_match_loop_reference_and_sandwich():
    u = np.concatenate([np.linspace(-2.0, 2.0, 81), [-np.inf, np.inf, 0.0, 1.0]])
    ramp = MN.margin_loss(u)
    cut = MN.cutoff_loss(u)
    for ui, r, c in zip(u, ramp, cut, strict=True):
        assert r == _ramp_reference(ui)
        assert c == (1.0 if ui < 1.0 else 0.0)
        # 1{u < 0} <= L_margin(u) <= L_cutoff(u)  (Section 2)
        assert float(ui < 0) <= r <= c


def test_hand_values():
    # eq. (5): the ramp is 1 up to u = 0, linear to 0 at u = 1; the cutoff jumps at u = 1
    assert MN.margin_loss([-0.5, 0.0, 0.25, 0.75, 1.0]).tolist() == [1.0, 1.0, 0.75, 0.25, 0.0]
    assert MN.cutoff_loss([0.999, 1.0]).tolist() == [1.0, 0.0]
    assert MN.margin_loss(0.5).shape == ()


def test_surrogate_risks_hand_case():
    h = np.array([[0.5, -0.5], [1.0, -1.0], [0.2, -0.2], [-1.0, 1.0]])
    y = np.array([0, 0, 1, 1])
    # u = 0.5, 1.0, -0.2, 1.0: error 1/4, ramp (0.5 + 0 + 1 + 0)/4, cutoff 2/4
    assert MN.surrogate_risks(h, y) == {"error": 0.25, "margin": 0.375, "cutoff": 0.5}


@pytest.mark.parametrize(
    ("h", "y", "match"),
    [
        (np.zeros((0, 2)), np.zeros(0, dtype=int), "non-empty"),
        (np.array([[np.nan, 0.0]]), np.array([0]), "NaN"),
        (np.array([[np.inf, 0.0]]), np.array([0]), "finite"),
        (np.zeros((2, 2)), np.array([0]), "2 integer"),
        (np.zeros((1, 2)), np.array([0.0]), "integer"),
        (np.zeros((1, 2)), np.array([2]), "0..1"),
    ],
)
def test_surrogate_risks_bad_inputs(h, y, match):
    with pytest.raises(ValueError, match=match):
        MN.surrogate_risks(h, y)


def test_losses_refuse_nan_and_text():
    with pytest.raises(ValueError, match="NaN"):
        MN.margin_loss([0.0, np.nan])
    with pytest.raises(ValueError, match="real margins"):
        MN.cutoff_loss(["x"])


def test_lmargin_runs_sandwich_and_bound_terms():
    prob = MN.SoftmaxProblem.random(3, 1, 10.0, 0)
    runs = MN.lmargin_runs(prob, 60, 3, 1, grid=50)
    assert len(runs) == 3
    assert (runs["train error"] <= runs["Ê[L_margin]"] + 1e-12).all()
    assert (runs["Ê[L_margin]"] <= runs["Ê[L_cutoff]"] + 1e-12).all()
    assert (runs["Ê[L_cutoff]"] <= runs["m̃/n"] + 1e-12).all()
    expect = MN.delta_rad(60, runs["L̃"].to_numpy(), 0.05, 3, 1.0)
    np.testing.assert_allclose(runs["Δ_Rad"], expect)
    np.testing.assert_allclose(runs["bound (margin)"], runs["Ê[L_margin]"] + runs["Δ_Rad"])
    # the same seed gives the same runs
    again = MN.lmargin_runs(prob, 60, 3, 1, grid=50)
    assert runs.equals(again)


def test_lmargin_runs_bad_inputs():
    prob = MN.SoftmaxProblem.random(2, 1, 4.0, 0)
    with pytest.raises(ValueError, match="SoftmaxProblem"):
        MN.lmargin_runs("not a problem", 10, 1, 0)
    with pytest.raises(ValueError, match="n"):
        MN.lmargin_runs(prob, 1, 1, 0)
    with pytest.raises(ValueError, match="delta"):
        MN.lmargin_runs(prob, 10, 1, 0, delta=1.5)


def test_margin_function_limit_with_absent_class_is_finite():
    # L -> 0 with class 2 absent from S_1: h(., 2) = -1 (infinitely far), no NaN
    h = MN.margin_function(np.array([[0.3, 0.6]]), np.array([0, 1]), 3, 0.0)
    np.testing.assert_allclose(h, [[0.0, 0.0, -1.0]])
    # only one class in S_1: its margin is 1 at every L, the others -1
    h1 = MN.margin_function(np.array([[0.3]]), np.array([1]), 2, 0.0)
    np.testing.assert_allclose(h1, [[-1.0, 1.0]])
