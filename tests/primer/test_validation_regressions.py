"""Regression tests of issue 16 for :mod:`mlgeom.primer`."""

import numpy as np
import pytest

from mlgeom.primer.kernel_perceptrons import kernel_perceptron


def test_contradictory_points_are_refused_instead_of_converging_with_50_percent_error():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    y = np.array([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match=r"same point \[0.0, 0.0\] at rows 0 and 2"):
        kernel_perceptron(X, y)
    # the same point twice with the same label is fine
    m = kernel_perceptron(X, np.array([1.0, -1.0, 1.0]))
    assert m.converged and m.history[-1] == 0.0


# --- wave 2 of issue 16: the chapter's experiment drivers validate at their boundary -------
from mlgeom.primer import experiments as primer  # noqa: E402
from mlgeom.primer.regression import polynomial_cv, polynomial_fit  # noqa: E402


@pytest.mark.parametrize(
    "call, message",
    [
        # used to fail inside a worker (int(nan) in the step count) or return a silent table
        (lambda: primer.gilbert_sweep(np.eye(2), -np.eye(2), [np.nan]), r"eps_grid must be finite"),
        (lambda: primer.gilbert_sweep(np.eye(2), -np.eye(2), []), r"eps_grid must have at least"),
        (
            lambda: primer.max_margin_seed_sweep(20, 2, 0.3, [], 1, seed=0),
            r"eps_grid must have at least",
        ),
        (
            lambda: primer.mistake_bound_sweep([1.5], 20, 2, 1, seed=0),
            r"gammas must lie in \(0.0, 1.0\); got 1.5",
        ),
        (lambda: primer.mistake_bound_sweep([0.3], 20, 2, 1.5, seed=0), r"reps must be an integer"),
        # sample sizes beyond the data used to fail in Generator.choice inside a worker
        (
            lambda: primer.kde_error_sweep(np.zeros((5, 2)), np.zeros((2, 2)), [6], 1, seed=0),
            r"sizes must hold integers >= 1 and <= 5; got 6.0",
        ),
        (
            lambda: primer.halfplane_sample_sweep(np.zeros((5, 2)), [2.5], 1, 8, seed=0),
            r"sizes must hold integers; got 2.5",
        ),
        (lambda: primer.rff_error_sweep(np.zeros((3, 2)), [0], 1, seed=0), r"rhos must hold"),
        (lambda: primer.feature_dimension_sweep([2], 2, seed=0, oversample="2"), r"oversample"),
        (lambda: primer.feature_dimension_sweep([2.5], 2, seed=0), r"dims must hold integers"),
        (lambda: primer.priority_bias_draws([1.0, 2.0], 1, 1.5, seed=0), r"n_draws"),
        (lambda: primer.planar_benchmarks(0, seed=0), r"n must be an integer >= 1; got 0"),
        (lambda: primer.per_seed_slopes([1.0, 2.0], np.ones((1, 2, 2))), r"values must be 2-D"),
        (
            lambda: primer.rkhs_normalized_margin([1.0, 1.0], [1.0, 2.0], np.eye(2)),
            r"y must contain only -1 and \+1; got 2.0",
        ),
    ],
)
def test_experiment_drivers_refuse_bad_inputs_up_front(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_polynomial_fit_beyond_the_points_is_allowed_quietly():
    # decision (issue 16): degree + 1 > n is the page's own example (degree 8 on 6 points);
    # it is neither refused nor warned about (a warning would land in the notebook's stored
    # output): the minimum-norm interpolant is returned, as documented.
    x, y = [1.0, 2.0, 3.0], [1.0, 4.0, 2.0]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        coef = polynomial_fit(x, y, 5)
        scores = polynomial_cv(x, y, [1.5], [2.0], [1, 5])
    assert coef.shape == (6,)
    np.testing.assert_allclose(np.polyval(coef, x), y, atol=1e-10)
    np.testing.assert_allclose(coef, np.linalg.pinv(np.vander(x, 6)) @ y, atol=1e-10)
    assert set(scores) == {1, 5}
