"""The primer chapter's experiment drivers: same numbers as the direct calls, deterministic."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from mlgeom.algorithms import kernels
from mlgeom.algorithms import perceptrons as perceptron
from mlgeom.primer import discrepancy, polytope_distance
from mlgeom.primer import experiments as primer
from mlgeom.random import spawn


def test_mistake_bound_sweep_matches_direct_calls():
    table = primer.mistake_bound_sweep([0.2, 0.1], 100, 3, 2, seed=7)
    assert list(table["gamma"]) == [0.2, 0.2, 0.1, 0.1]
    gamma_rng = spawn(7, 2)[1]
    X, y, _ = perceptron.planted_margin_data(100, 3, 0.1, seed=spawn(gamma_rng, 2)[0])
    assert table["updates"].iloc[2] == perceptron.perceptron(X, y).n_updates + 1
    assert (table["updates"] <= table["bound"]).all() and table["separates"].all()


def test_sweeps_are_deterministic():
    a = primer.mistake_bound_sweep([0.2], 50, 3, 3, seed=1)
    b = primer.mistake_bound_sweep([0.2], 50, 3, 3, seed=1)
    assert a.equals(b)
    X = np.random.default_rng(0).normal(size=(30, 2))
    np.testing.assert_array_equal(
        primer.rff_error_sweep(X, [8, 32], 2, seed=3), primer.rff_error_sweep(X, [8, 32], 2, seed=3)
    )


def test_gilbert_sweep_checks_the_guarantee_against_the_qp():
    X, y, _ = perceptron.planted_margin_data(80, 3, 0.2, seed=2)
    P, Q = polytope_distance.class_polytopes(X, y)
    sweep = primer.gilbert_sweep(P, Q, [0.5, 0.2])
    assert sweep.gamma == pytest.approx(polytope_distance.polytope_distance_qp(P, Q).distance)
    assert list(sweep.table["steps"]) == [
        int(np.ceil(1 / (e * sweep.gamma**2))) for e in (0.5, 0.2)
    ]
    assert sweep.longest.n_iter <= sweep.table["steps"].max()
    assert (sweep.table["certificate"] <= sweep.gamma + 1e-7).all()


def test_max_margin_sweep_reports_margins_below_the_optimum():
    X, y, _ = perceptron.planted_margin_data(60, 3, 0.2, seed=4)
    table = primer.max_margin_perceptron_sweep(X, y, [0.5, 0.1])
    assert (table["margin"] <= table["gamma0"] + 1e-7).all()
    assert (table["target"] == (1 - table.index.to_numpy()) * table["gamma0"]).all()


def test_kernel_table_and_decision_plot():
    data = primer.planar_benchmarks(40, seed=5)
    assert set(data) == {"rings", "moons"}
    Xtr, ytr, Xte, yte = data["rings"]
    assert Xtr.shape == Xte.shape == (40, 2) and set(np.unique(ytr)) <= {-1.0, 1.0}
    table, fits = primer.kernel_perceptron_table(
        {"rings": data["rings"]}, {"laplace": {"kernel": "laplace"}}, max_updates=5000
    )
    row = table.loc[("rings", "laplace")]
    assert row["converged"] and row["train_error"] == 0.0
    assert row["updates"] <= row["bound"] + 1e-6  # Novikoff in the RKHS
    fig, ax = plt.subplots()
    primer.plot_decision_regions(ax, fits["rings", "laplace"], resolution=20)
    assert ax.get_xlabel() == "$x_1$"
    plt.close(fig)


def test_kde_sweep_is_zero_for_the_whole_set_and_matches_a_direct_sample():
    X = np.random.default_rng(1).normal(size=(200, 2))
    q = np.random.default_rng(2).normal(size=(15, 2))
    err = primer.kde_error_sweep(X, q, [50, 200], 2, seed=9)
    assert err.shape == (2, 2) and np.allclose(err[1], 0.0, atol=1e-12)
    g = spawn(spawn(9, 2)[0], 2)[0]
    S = X[g.choice(200, 50, replace=False)]
    assert err[0, 0] == pytest.approx(np.abs(kernels.kde(S, q) - kernels.kde(X, q)).max())


def test_halfplane_sweep_shapes_and_ranges():
    X = np.random.default_rng(3).normal(size=(300, 2))
    dev, net = primer.halfplane_sample_sweep(X, [10, 300], 2, 64, seed=0)
    assert dev.shape == net.shape == (2, 2)
    assert np.all((0 <= dev) & (dev <= 1)) and np.all(net[1] == 0.0)  # S = X misses nothing


def test_exact_halfplane_sweep_bounds_the_grid_and_reuses_its_samples():
    X = np.random.default_rng(4).normal(size=(120, 2))
    sizes = [5, 10, 20, 40, 80]
    grid = primer.halfplane_sample_sweep(X, sizes, 3, 16, seed=2)
    exact = primer.halfplane_sample_sweep(X, sizes, 3, seed=2, exact=True)
    fine = primer.halfplane_sample_sweep(X, sizes, 3, 4096, seed=2)
    for g, e, f in zip(grid, exact, fine, strict=True):
        assert np.all(e >= g - 1e-12) and np.all(e >= f - 1e-12)  # a grid is a lower bound
    assert np.any(exact[0] > grid[0])  # 16 directions miss some worst halfplanes
    # the same samples: one (size, rep) cell recomputed by hand
    g = spawn(spawn(2, len(sizes))[1], 3)[2]
    idx = g.choice(120, 10, replace=False)
    sweep = discrepancy.HalfplaneSweep(X)
    assert exact[0][1, 2] == sweep.deviation(idx) and exact[1][1, 2] == sweep.net_gap(idx)
    again = primer.halfplane_sample_sweep(X, sizes, 3, seed=2, exact=True)
    assert np.array_equal(again[0], exact[0]) and np.array_equal(again[1], exact[1])
    with pytest.raises(ValueError, match="exact must be a bool"):
        primer.halfplane_sample_sweep(X, sizes, 3, 16, seed=2, exact="yes")
    # the grid size belongs to exact=False only: required there, refused with exact=True
    with pytest.raises(ValueError, match="must be None with exact=True; got 16"):
        primer.halfplane_sample_sweep(X, sizes, 3, 16, seed=2, exact=True)
    with pytest.raises(ValueError, match="n_directions is required with exact=False"):
        primer.halfplane_sample_sweep(X, sizes, 3, seed=2)


def test_bad_inputs_reach_the_validating_functions():
    with pytest.raises(ValueError, match="gamma"):
        primer.mistake_bound_sweep([1.5], 10, 2, 1, seed=0)


def test_novikoff_alignment_on_a_hand_computed_run():
    # w = x1 = (0.5, 0.8); x2 = (0.6, -0.8) is violated (0.3 - 0.64 < 0), so w = (1.1, 0) after
    # t = 1 update, then a clean cycle: <w, w*> = 1.1 against γ(t + 1) = 0.5 · 2 = 1.
    X, y = [[0.5, 0.8], [0.6, -0.8]], [1, 1]
    assert primer.novikoff_alignment(X, y, [1.0, 0.0], 0.5) == pytest.approx(1.1)
    with pytest.raises(ValueError, match="gamma"):
        primer.novikoff_alignment(X, y, [1.0, 0.0], 1.5)
    with pytest.raises(ValueError, match="w_star"):
        primer.novikoff_alignment(X, y, [1.0, 0.0, 0.0], 0.5)


def test_novikoff_alignment_sweep_matches_direct_calls():
    table = primer.novikoff_alignment_sweep([0.2, 0.1], 100, 3, 2, seed=7)
    assert list(table["gamma"]) == [0.2, 0.2, 0.1, 0.1]
    X, y, w_star = perceptron.planted_margin_data(100, 3, 0.1, seed=spawn(spawn(7, 2)[1], 2)[0])
    assert table["ratio"].iloc[2] == pytest.approx(primer.novikoff_alignment(X, y, w_star, 0.1))
    assert (table["ratio"] >= 1).all()


def test_lift_runs_columns_and_determinism():
    a = primer.lift_runs(30, 0.3, 1.0, 2, max_updates=500, grid=5, seed=4)
    b = primer.lift_runs(30, 0.3, 1.0, 2, max_updates=500, grid=5, seed=4)
    assert a.equals(b)
    assert list(a.columns) == [
        "lifted_error",
        "plain_error",
        "agreement",
        "lifted_converged",
        "lifted_updates",
    ]
    assert (a.agreement == 1.0).all()


def test_frank_wolfe_sweep_shapes():
    s = primer.frank_wolfe_sweep(50, 3, [2, 4], 2, seed=0)
    assert s.fw.shape == s.random.shape == s.support.shape == (2, 2)
    assert np.all(s.support <= np.array([[3], [5]]))
    assert np.all(s.bound_ratio <= 1.0)
    # on a regular simplex Frank–Wolfe averages t + 1 vertices: error √(1/(t+1) − 1/n) exactly
    s = primer.frank_wolfe_sweep(40, 60, [3, 7], 2, points="simplex", seed=0)
    np.testing.assert_allclose(
        s.fw, np.sqrt(1 / np.array([[4.0], [8.0]]) - 1 / 40) * np.ones((1, 2))
    )
    with pytest.raises(ValueError, match="n <= d"):
        primer.frank_wolfe_sweep(5, 3, [1], 1, points="simplex", seed=0)


def test_frank_wolfe_sweep_sphere_varies_the_geometry():
    # unit vectors: every point on the sphere, and two seeds give different errors (the
    # Householder simplex gives the same errors for every seed)
    s = primer.frank_wolfe_sweep(30, 30, [1, 3, 7], 3, points="sphere", seed=1)
    assert s.fw.shape == (3, 3) and np.all(s.support <= np.array([[2], [4], [8]]))
    assert np.ptp(s.fw[-1]) > 1e-6
    assert np.all(s.bound_ratio <= 1.0)
    again = primer.frank_wolfe_sweep(30, 30, [1, 3, 7], 3, points="sphere", seed=1)
    np.testing.assert_array_equal(s.fw, again.fw)
    with pytest.raises(ValueError, match="n <= d"):
        primer.frank_wolfe_sweep(5, 3, [1], 1, points="sphere", seed=0)


def test_sgd_sweep_gaps_positive():
    a, b, c = primer.sgd_sweep(40, 2, [2, 8], 2, radius=2.0, noise=0.1, seed=0)
    assert a.shape == b.shape == c.shape == (2, 2)
    assert np.all(a > 0) and np.all(b > 0) and np.all(c > 0)


def test_sgd_sweep_competitor_is_the_last_iterate_on_the_same_draws():
    # loop reference: rebuild seed 0's data and draws, run the decaying step without averaging
    from mlgeom.primer import coresets
    from mlgeom.primer.experiments import _uniform_ball
    from mlgeom.random import spawn

    cps = [3, 9]
    _, _, last = primer.sgd_sweep(30, 2, cps, 1, radius=2.0, noise=0.1, seed=5)
    (g,) = spawn(5, 1)
    X = _uniform_ball(g, 30, 2)
    w0 = g.standard_normal(2)
    w0 *= 3.0 / np.linalg.norm(w0)
    y = np.where(X @ w0 >= 0.0, 1.0, -1.0)
    y[g.random(30) < 0.1] *= -1.0
    _, f_star = coresets.logistic_minimum(X, y, 2.0)
    (g_sgd,) = spawn(g, 1)
    ref = coresets.projected_sgd(X, y, cps, radius=2.0, average=False, seed=g_sgd)
    np.testing.assert_allclose(last[:, 0], np.maximum(ref - f_star, 1e-15))


def test_priority_k_compare_hand_case():
    # loop reference on the same child streams: W' = sum of max(w, tau) over the kept items
    w = np.array([1.8, 0.6, 0.5, 0.3, 0.1])
    a, b = primer.priority_k_compare(w, 2, 3, seed=5)
    for i, g in enumerate(spawn(5, 3)):
        rho = w / (1.0 - g.random(5))
        order = np.argsort(-rho)
        assert np.isclose(a[i], np.maximum(w[order[:2]], rho[order[2]]).sum())
        assert np.isclose(b[i], np.maximum(w[order[:3]], rho[order[3]]).sum())
    with pytest.raises(ValueError, match="k"):
        primer.priority_k_compare(w, 4, 3, seed=0)
