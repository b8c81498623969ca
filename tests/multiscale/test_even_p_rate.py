"""Tests of :mod:`mlgeom.multiscale.even_p_rate` (Theorem 12's explicit bound and sweep)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mlgeom.multiscale as MS
from mlgeom.multiscale import even_p_rate as E


def _phi_by_hand(D: int, alpha: float, n_terms: int = 600) -> float:
    # Φ_α(B_D) = Σ_i 2^{-αi} D log(1 + 8D·2^i) (Appendix A, z_i = 2^{-i}/(8D)), term by term
    return sum(
        2.0 ** (-alpha * i) * D * math.log(1.0 + 8.0 * D * 2.0**i) for i in range(1, n_terms + 1)
    )


def test_bound_against_hand_computation_p4_d3():
    p, d = 4, 3
    c = 4.0 ** (5 / 4) * 3.0 ** (1 / 4)  # eq. (3): p^{(p+1)/p} d^{1/p}
    psi0 = 2.0**0.25 * _phi_by_hand(15, 0.25) / math.log(4 / 3)  # D = (p+1)d = 15, α = 1/p
    assert E.even_p_loss_scale(p, d) == pytest.approx(c, rel=1e-12)
    assert E.even_p_bound(p, d) == pytest.approx(c * psi0, rel=1e-9)
    # Theorem 11's learner: twice the C(k, 2) starting potentials
    assert E.even_p_bound(p, d, 3, multiclass=True) == pytest.approx(6 * c * psi0, rel=1e-9)
    assert E.even_p_bound(p, d, 2, multiclass=True) == pytest.approx(2 * c * psi0, rel=1e-9)


def test_bound_special_case_p2():
    # p = 2: c = 2^{3/2} d^{1/2}, α = 1/2, mapped dimension 3d
    for d in (1, 2, 5):
        psi0 = 2.0**0.5 * MS.initial_potential(3 * d, 0.5, 600) / math.log(4 / 3)
        assert E.even_p_bound(2, d) == pytest.approx(2**1.5 * math.sqrt(d) * psi0, rel=1e-12)


def test_eq3_scale_matches_lemma_e1():
    # ‖y − z‖_p = c ⟨G(y), H(z)⟩^{1/p} with the corrected F of Definition 20
    rng = np.random.default_rng(3)
    for p, d in ((2, 2), (4, 3), (6, 2)):
        y, z = (0.5 * v / np.linalg.norm(v) for v in rng.standard_normal((2, d)))
        inner = MS.G_even(y, p) @ MS.H_even(z, p)
        lhs = np.sum((y - z) ** p) ** (1 / p)
        assert lhs == pytest.approx(E.even_p_loss_scale(p, d) * inner ** (1 / p), rel=1e-9)


def test_bound_is_increasing_in_p_and_d():
    b = np.array([[E.even_p_bound(p, d) for d in (2, 3, 4)] for p in (2, 4, 6)])
    assert np.all(np.diff(b, axis=0) > 0) and np.all(np.diff(b, axis=1) > 0)


@pytest.mark.parametrize("p", [3, 1, 0, 2.5, -2, "4", True])
def test_bad_p(p):
    with pytest.raises(ValueError, match="p must be an even integer"):
        E.even_p_bound(p, 2)
    with pytest.raises(ValueError, match="p must be an even integer"):
        E.even_p_loss_scale(p, 2)


@pytest.mark.parametrize("d", [0, -1, 1.5])
def test_bad_d(d):
    with pytest.raises(ValueError, match="d"):
        E.even_p_bound(2, d)


def test_bad_k_and_flag():
    with pytest.raises(ValueError, match="k must be 2"):
        E.even_p_bound(2, 2, 3)
    with pytest.raises(ValueError, match="k"):
        E.even_p_bound(2, 2, 1, multiclass=True)
    with pytest.raises(TypeError, match="multiclass"):
        E.even_p_bound(2, 2, multiclass=1)


def test_bisector_point_is_equidistant():
    rng = np.random.default_rng(0)
    X = 0.4 * rng.standard_normal((2, 3))
    n = (X[0] - X[1]) / np.linalg.norm(X[0] - X[1])
    for p in (2, 4, 6):
        b = E._bisector_point(np.array([0.3, -0.2, 0.1]), n, X, p)
        dist = E._lp(b, X, p)
        assert dist[0] == pytest.approx(dist[1], rel=1e-9)


def test_run_loss_is_lp_gap_on_mistakes_and_deterministic():
    a = E.even_p_adversarial_run(12, 2, 4, [5, 6, 7], "ours")
    b = E.even_p_adversarial_run(12, 2, 4, [5, 6, 7], "ours")
    np.testing.assert_array_equal(a["loss"], b["loss"])
    assert a["mistakes"] == b["mistakes"] >= 1  # the sign adversary fools round 1
    assert np.all(np.diff(a["loss"]) >= 0)
    # a mistake costs at most ‖x_1 − x_2‖_p <= 1 (centres in ½B_d)
    assert a["loss"][-1] <= a["mistakes"] + 1e-12
    assert a["loss"][-1] <= E.even_p_bound(4, 2)


def test_run_bad_inputs():
    with pytest.raises(ValueError, match="p must be an even integer"):
        E.even_p_adversarial_run(3, 2, 5, [1, 2, 3])
    with pytest.raises(ValueError, match="d"):
        E.even_p_adversarial_run(3, 1, 2, [1, 2, 3])
    with pytest.raises(ValueError, match="keys must hold 3"):
        E.even_p_adversarial_run(3, 2, 2, [1, 2])
    with pytest.raises(ValueError, match="learner"):
        E.even_p_adversarial_run(3, 2, 2, [1, 2, 3], "perceptron")


def test_sweep_paired_and_deterministic(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    df1 = E.even_p_rate_sweep([2, 4], [2, 3], 6, [np.random.default_rng(1)] * 1)
    df2 = E.even_p_rate_sweep([2, 4], [2, 3], 6, [np.random.default_rng(1)])
    assert len(df1) == 2 * 2 * 2
    np.testing.assert_allclose(df1["total"], df2["total"])
    assert set(df1["learner"]) == {"ours", "midpoint"}
    assert np.allclose(df1["ratio"], df1["total"] / df1["bound"])
    # paired: both learners see the same first candidate each round
    for _, g in df1.groupby(["p", "d"]):
        assert g["uniform"].nunique() == 1
    with pytest.raises(ValueError, match="p must be an even integer"):
        E.even_p_rate_sweep([3], [2], 2, [np.random.default_rng(0)])
    with pytest.raises(ValueError, match="seeds"):
        E.even_p_rate_sweep([2], [2], 2, [])


def test_power_law_exponents_exact_and_bad():
    p = np.array([2, 4, 6, 2, 4, 6], dtype=float)
    d = np.array([2, 2, 2, 3, 3, 3], dtype=float)
    bp, bd = E.power_law_exponents(p, d, 7.0 * p**3.5 * d**-0.5)
    assert (bp, bd) == (pytest.approx(3.5), pytest.approx(-0.5))
    with pytest.raises(ValueError, match="degenerate"):
        E.power_law_exponents([2, 4, 6], [2, 4, 6], [1, 2, 3])
    with pytest.raises(ValueError, match="same length"):
        E.power_law_exponents([2, 4, 6], [2, 2, 3, 3], [1, 2, 3])
    with pytest.raises(ValueError, match="y"):
        E.power_law_exponents([2, 4, 6], [2, 2, 3], [1, 0, 3])


def test_fast_H_equals_definition21():
    rng = np.random.default_rng(2)
    for p, d in ((2, 3), (4, 2), (6, 4)):
        q = rng.standard_normal(d)
        q /= 2 * np.linalg.norm(q)
        coef = np.array([math.comb(p, j) for j in range(p + 1)], dtype=float)
        np.testing.assert_allclose(E._H_fast(q, p, coef), MS.H_even(q, p), rtol=1e-13, atol=1e-15)


def test_summary_tables_and_bad_input(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    seeds = [np.random.default_rng(s) for s in (1, 2, 3)]
    df = E.even_p_rate_sweep([2, 4], [2, 3], 8, seeds)
    out = E.even_p_rate_summary(df)
    assert len(out["grid"]) == 4 and len(out["exponents"]) == 4
    assert out["fits"]["ours"].shape == (3, 2)
    ours = df[df["learner"] == "ours"]
    np.testing.assert_allclose(out["ratio"], ours.groupby("seed")["ratio"].max())
    # a seed's fit by hand: least squares on (1, log p, log d)
    s0 = ours[ours["seed"] == 0]
    X = np.column_stack([np.ones(4), np.log(s0["p"]), np.log(s0["d"])])
    coef = np.linalg.lstsq(X, np.log(s0["total"]), rcond=None)[0]
    np.testing.assert_allclose(out["fits"]["ours"][0], coef[1:])
    # the table's exponents: one fit over all seeds (every seed has the whole grid, so it is
    # the mean of the per-seed fits) with the interval clustered by seed
    for who in ("ours", "midpoint", "uniform guessing"):
        for i, v in enumerate("pd"):
            c = out["clustered"][who][v]
            assert c.estimate == pytest.approx(out["fits"][who][:, i].mean(), rel=1e-10, abs=1e-12)
            assert c.n == 3 and ("clustered by seed" in c.method or "identical" in c.method)
    row = out["exponents"].set_index("learner").loc["ours"]
    assert row["b_p (fit)"] == round(out["clustered"]["ours"]["p"].estimate, 3)
    with pytest.raises(TypeError, match="DataFrame"):
        E.even_p_rate_summary([1, 2])
    with pytest.raises(ValueError, match="columns"):
        E.even_p_rate_summary(df.drop(columns="ratio"))
    with pytest.raises(ValueError, match="both learners"):
        E.even_p_rate_summary(ours)
