"""Regression tests of issue 16 for :mod:`mlgeom.fenchel_young`."""

import numpy as np
import pytest

from mlgeom.fenchel_young.logistic_ogd import logistic_ogd_batch, logistic_ogd_loop
from mlgeom.fenchel_young.losses import softmax
from mlgeom.fenchel_young.surrogate_regret import eta_gaptron

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
LAB = np.array([0, 1, 2])


def test_loop_refuses_negative_order_indices_like_the_batch():
    U = np.full((2, 2), 0.5)
    with pytest.raises(ValueError, match=r"order must be indices in \[0, 2\]; got -1"):
        logistic_ogd_loop(X, LAB, [0, -1], U, d=3, eta=0.1)
    with pytest.raises(ValueError, match=r"orders must be indices in \[0, 2\]; got -1"):
        logistic_ogd_batch(X, LAB, [[0, -1]], U[None], d=3, eta=0.1)


@pytest.mark.parametrize("bad", [7.0, np.nan, -0.1, 1.0])
def test_uniforms_must_lie_in_the_unit_interval(bad):
    U = np.full((2, 2), 0.5)
    U[1, 0] = bad
    with pytest.raises(ValueError, match="uniforms must"):
        logistic_ogd_loop(X, LAB, [0, 1], U, d=3, eta=0.1)
    with pytest.raises(ValueError, match="uniforms must"):
        logistic_ogd_batch(X, LAB, [[0, 1]], U[None], d=3, eta=0.1)


def test_loop_and_batch_still_agree_on_valid_input():
    rng = np.random.default_rng(0)
    order = rng.integers(0, 3, size=20)
    U = rng.random((20, 2))
    a = logistic_ogd_loop(X, LAB, order, U, d=3, eta=0.1, libm=True)
    b = logistic_ogd_batch(X, LAB, order[None], U[None], d=3, eta=0.1)
    np.testing.assert_array_equal(a.played, b.played)


def test_softmax_refuses_inf_nan_and_empty():
    with pytest.raises(ValueError, match=r"theta must not contain NaN or \+inf; got inf"):
        softmax(np.array([np.inf, 1.0]))
    with pytest.raises(ValueError, match="theta must be non-empty"):
        softmax(np.array([]))
    with pytest.raises(ValueError, match="all -inf"):
        softmax(np.array([-np.inf, -np.inf]))
    np.testing.assert_allclose(softmax(np.array([-np.inf, 0.0])), [0.0, 1.0])


def test_eta_gaptron_refuses_d_zero():
    with pytest.raises(ValueError, match="d must be an integer >= 1; got 0"):
        eta_gaptron(0, 1.0)


# -- issue 16, api-domain probes -------------------------------------------------------------
import mlgeom.fenchel_young as FY  # noqa: E402

NAN = float("nan")


@pytest.mark.parametrize(
    "structure", [FY.Multiclass(3), FY.Multilabel(3), FY.Ordinal(3), FY.Ranking(2, 1.0)]
)
def test_structure_methods_refuse_nan_strings_and_batches(structure):
    d = structure.d
    bad_nan = np.full(d, 0.5)
    bad_nan[0] = NAN
    with pytest.raises(ValueError, match="c must be finite; got nan"):
        structure.linear_oracle(bad_nan)
    with pytest.raises(ValueError, match="c must be 1-D"):
        structure.linear_oracle(np.zeros((2, d)))
    with pytest.raises(ValueError, match="mu must be finite"):
        structure.tilde_distribution(bad_nan)
    with pytest.raises(ValueError, match="theta must be a real array"):
        structure.predict(["x"] * d)
    with pytest.raises(ValueError, match="y_pred must be finite"):
        structure.target_loss(bad_nan, structure.outputs()[0])
    with pytest.raises(ValueError, match="v must be finite"):
        structure.norm(bad_nan)
    mu = structure.outputs().mean(axis=0)
    with pytest.raises(ValueError, match="u must be finite; got nan"):
        structure.sample_tilde(mu, np.full(structure.n_tilde_uniforms, NAN))
    with pytest.raises(ValueError, match=r"u must lie in \[0, 1\)"):
        structure.sample_tilde(mu, np.full(structure.n_tilde_uniforms, 1.5))


def test_sample_tilde_and_tilde_distribution_accept_lists():
    # used to fail with a TypeError from list arithmetic
    np.testing.assert_array_equal(FY.Ordinal(2).sample_tilde([0.7, 0.2], [0.5]), [1.0, 0.0])
    w, _ = FY.Multilabel(2).tilde_distribution([0.2, 0.5])
    np.testing.assert_allclose(w, [0.4, 0.4, 0.1, 0.1])


def test_decode_refuses_nan_uniforms():
    s = FY.Multiclass(3)
    dec = FY.randomized_decoding(s, [0.1, 0.7, -0.2])
    with pytest.raises(ValueError, match="u must be finite; got nan"):
        FY.decode(s, dec, [NAN, 0.5])


def test_expected_target_loss_refuses_a_batch_of_outputs():
    s = FY.Multiclass(3)
    with pytest.raises(ValueError, match=r"y must be one output \(1-D\)"):
        FY.expected_target_loss(s, [0.1, 0.7, -0.2], [[0.0, 1.0, 0.0]])


def test_run_online_refuses_nan_uniforms():
    st = FY.prototype_stream(2, 4, n_prototypes=2, seed=0)
    U = np.full((4, 2), 0.5)
    U[0, 0] = NAN
    with pytest.raises(ValueError, match="uniforms must be finite; got nan"):
        FY.run_online(FY.Multiclass(2), st, eta=0.1, uniforms=U)


def test_comparator_checks_U_tol_and_bracket():
    s, st = FY.Multiclass(2), FY.prototype_stream(2, 4, n_prototypes=2, seed=0)
    with pytest.raises(ValueError, match="U must be a numeric array"):
        FY.stream_loss(s, np.full((2, 2), "x", dtype=object), st)
    with pytest.raises(ValueError, match="loss_scale must be a finite"):
        FY.stream_loss(s, np.zeros((2, 2)), st, loss_scale=NAN)
    with pytest.raises(ValueError, match="U0 must be finite; got nan"):
        FY.fit_ridge(s, st, 1.0, U0=np.full((2, 2), NAN))
    with pytest.raises(ValueError, match="tol must be"):
        FY.fit_ball(s, st, 1.0, tol=-1.0)
    with pytest.raises(ValueError, match="hi must be in"):
        FY.worst_case_constant(s, st, 0.0, lo=1.0, hi=0.5)
    with pytest.raises(ValueError, match="rtol must be"):
        FY.worst_case_constant(s, st, 0.0, rtol=NAN)


def test_bounds_check_their_numbers():
    s = FY.Multilabel(2, 4.0)
    with pytest.raises(ValueError, match="C must be a finite real number"):
        FY.bound_theorem_4_2(s, NAN, 1.0)
    with pytest.raises(ValueError, match="U_norm_sq must be in"):
        FY.bound_theorem_4_3(s, 1.0, -1.0, 0.1)
    with pytest.raises(ValueError, match="T must be an integer >= 1; got 0"):
        FY.bound_theorem_4_6(s, 1.0, 1.0, 0)
    with pytest.raises(ValueError, match="T must be an integer >= 1; got -1"):
        FY.draw_uniforms(s, -1, 0)
    with pytest.raises(ValueError, match="tol must be"):
        FY.birkhoff_von_neumann(np.full((2, 2), 0.5), tol=NAN)


def test_experiment_drivers_check_counts_grids_and_names():
    st = FY.prototype_stream(2, 4, n_prototypes=2, seed=0)
    with pytest.raises(ValueError, match="decoding must be one of"):
        FY.own_step("nope")
    with pytest.raises(ValueError, match="d must be an integer >= 1; got 1.5"):
        FY.step_size("theorem_5_1", 1.5)
    with pytest.raises(ValueError, match="Ts must hold integers >= 1 and <= 4"):
        FY.horizon_table(st, 2, [8], 1)
    with pytest.raises(ValueError, match="ds must hold integers >= 2"):
        FY.lower_bound_table([1], [1], 3, 1)
    with pytest.raises(ValueError, match="n_seeds must be an integer >= 1; got 0"):
        FY.worst_case_table([2], 4, 2, 0)
    with pytest.raises(ValueError, match="decodings must be one of"):
        FY.worst_case_table([2], 4, 2, 1, decodings=("nope",))
    with pytest.raises(ValueError, match="eps must"):
        FY.appendix_d_table([])
    with pytest.raises(ValueError, match="hi must be a finite real number"):
        FY.appendix_d_supremum("1.0")
    with pytest.raises(ValueError, match="margins must be finite"):
        FY.margin_comparison([NAN])
    with pytest.raises(ValueError, match="ts must be finite"):
        FY.lemma31_line(FY.Multiclass(2), [NAN])
    with pytest.raises(ValueError, match="n_draws must be an integer >= 0; got -1"):
        FY.lemma31_draws(FY.Multiclass(2), -1)
    with pytest.raises(ValueError, match="loop_T must be <= T=10; got 20"):
        FY.speed_benchmark(T=10, loop_T=20)
    with pytest.raises(ValueError, match="bound_ours must be"):
        FY.plot_d_scaling(None, NAN)
