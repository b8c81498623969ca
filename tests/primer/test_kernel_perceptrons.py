"""Tests of mlgeom.primer.kernel_perceptrons against loop-based references."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.datasets import make_circles, make_moons

from mlgeom.primer.kernel_perceptrons import KernelPerceptron, kernel_perceptron


def reference_gram(X, kernel, bandwidth=1.0, degree=2):
    """The slides' kernels, written independently of mlgeom.algorithms.kernels."""
    if kernel == "gaussian":
        return np.exp(-cdist(X, X, "sqeuclidean") / bandwidth**2)
    if kernel == "laplace":
        return np.exp(-cdist(X, X) / bandwidth)
    return (1.0 + X @ X.T) ** degree


def reference_kernel_perceptron(K, y, rule, n_steps=None, max_updates=10_000):
    """Loop-based kernel perceptron recomputing f = K (alpha * y) from scratch each check.

    cyclic: Implementation Hints' Perceptron in the RKHS, stopping after n consecutive
    checks without an update; most_violated: the slides' "x' = argmin sigma(x) KDE_W(x)".
    """
    n = len(y)
    alpha = np.zeros(n, dtype=int)
    alpha[0] = 1  # choose w = sigma(x_1) K(x_1, .)
    history = [np.mean(np.where(K @ (alpha * y) >= 0, 1, -1) != y)]
    if rule == "cyclic":
        i, clean, t = 0, 0, 0
        while clean < n and t < max_updates:
            if y[i] * (K @ (alpha * y))[i] < 0:
                alpha[i] += 1
                t += 1
                clean = 0
                history.append(np.mean(np.where(K @ (alpha * y) >= 0, 1, -1) != y))
            else:
                clean += 1
            i = (i + 1) % n
    else:
        for _ in range(n_steps):
            alpha[np.argmin(y * (K @ (alpha * y)))] += 1
            history.append(np.mean(np.where(K @ (alpha * y) >= 0, 1, -1) != y))
    return alpha, np.array(history)


def primal_perceptron(Xa, y, rule, n_steps=None):
    """The primal Perceptron of the Implementation Hints / the slide 'Perceptron Algorithm'.

    Returns the per-point update counts (initial choice w = y_1 x_1 included) and w.
    """
    n = len(y)
    counts = np.zeros(n, dtype=int)
    w = y[0] * Xa[0]
    counts[0] = 1
    if rule == "cyclic":
        i, clean = 0, 0
        while clean < n:
            if y[i] * (Xa[i] @ w) < 0:
                w = w + y[i] * Xa[i]
                counts[i] += 1
                clean = 0
            else:
                clean += 1
            i = (i + 1) % n
    else:
        for _ in range(n_steps):
            j = np.argmin(y * (Xa @ w))  # x' = argmin <sigma(x) x, w>
            w = w + y[j] * Xa[j]
            counts[j] += 1
    return counts, w


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(rng.random(30) < 0.5, -1.0, 1.0)
    return X, y


@pytest.mark.parametrize(
    ("kernel", "params"),
    [
        ("gaussian", {}),
        ("gaussian", {"bandwidth": 0.4}),
        ("laplace", {}),
        ("polynomial", {"degree": 2}),
        ("polynomial", {"degree": 3}),
    ],
)
@pytest.mark.parametrize("rule", ["cyclic", "most_violated"])
def test_matches_loop_reference(data, kernel, params, rule):
    X, y = data
    K = reference_gram(X, kernel, **params)
    extra = {"n_steps": 60} if rule == "most_violated" else {"max_updates": 300}
    model = kernel_perceptron(X, y, kernel, rule=rule, **params, **extra)
    alpha, history = reference_kernel_perceptron(K, y, rule, **extra)
    np.testing.assert_array_equal(model.alpha, alpha)
    np.testing.assert_array_equal(model.history, history)
    assert model.n_updates == alpha.sum() - 1 == len(history) - 1
    no_violator = bool(np.all(y * (K @ (alpha * y)) >= 0))
    if rule == "cyclic":
        assert model.converged == (model.n_updates < extra["max_updates"])
        assert no_violator or not model.converged
    else:
        assert model.converged == no_violator
    # decision_function is the KDE_W form sum_j alpha_j y_j K(x_j, .)
    np.testing.assert_allclose(
        model.decision_function(X), K @ (alpha * y), rtol=1e-9, atol=1e-9 * np.abs(K).max()
    )


@pytest.mark.parametrize("rule", ["cyclic", "most_violated"])
def test_linear_kernel_with_bias_is_the_primal_perceptron(rule):
    # (1 + <x, p>)^1 = <(x, 1), (p, 1)>: the kernel perceptron makes the same updates as
    # the primal perceptron on points augmented by a constant coordinate 1. Integer
    # coordinates keep every sum exact, so the updates must agree exactly.
    rng = np.random.default_rng(1)
    X = rng.integers(-5, 6, size=(40, 2)).astype(float)
    y = np.where(2 * X[:, 0] - X[:, 1] + 0.5 > 0, 1.0, -1.0)  # a halfspace off the origin
    Xa = np.hstack([X, np.ones((40, 1))])
    extra = {"n_steps": 50} if rule == "most_violated" else {}
    model = kernel_perceptron(X, y, "polynomial", degree=1, rule=rule, **extra)
    counts, w = primal_perceptron(Xa, y, rule, **extra)
    np.testing.assert_array_equal(model.alpha, counts)
    Q = rng.integers(-7, 8, size=(25, 2)).astype(float)
    np.testing.assert_array_equal(model.decision_function(Q), np.hstack([Q, np.ones((25, 1))]) @ w)
    if rule == "cyclic":
        # converged: no point with y_i f(x_i) < 0 (strict, as printed); integer data put
        # some points exactly on the boundary f = 0, which the strict test never updates
        assert model.converged
        assert np.all(y * model.decision_function(X) >= 0)


@pytest.mark.parametrize(
    "dataset",
    [
        make_circles(n_samples=100, noise=0.05, factor=0.5, random_state=0),
        make_moons(n_samples=100, noise=0.1, random_state=0),
    ],
    ids=["circles", "moons"],
)
def test_gaussian_kernel_separates_circles_and_moons(dataset):
    # The Gaussian Gram matrix of distinct points is positive definite, so every labelling
    # is linearly separable in the RKHS and the cyclic perceptron converges.
    X, labels = dataset
    y = 2.0 * labels - 1.0
    model = kernel_perceptron(X, y, "gaussian")
    assert model.converged
    assert model.history[-1] == 0.0
    np.testing.assert_array_equal(model.predict(X), y)


def test_default_cap_stops_non_separable_data():
    # A noisy XOR is not linearly separable even with a bias: without a cap the loop would
    # never end (non-integer coordinates keep every f(x_i) away from exactly 0)
    X = np.array([[1.0, 1.2], [-1.1, -0.9], [0.9, -1.05], [-1.2, 0.95]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    model = kernel_perceptron(X, y, "polynomial", degree=1)
    assert not model.converged
    assert model.n_updates == 1000  # max(1000, 100 * n)
    assert len(model.history) == 1001
    capped = kernel_perceptron(X, y, "polynomial", degree=1, max_updates=7)
    assert capped.n_updates == 7 and capped.alpha.sum() == 8
    # the circles are not linearly separable either: the default cap is 100 n updates
    Xc, labels = make_circles(n_samples=100, noise=0.05, factor=0.5, random_state=0)
    linear = kernel_perceptron(Xc, 2.0 * labels - 1.0, "polynomial", degree=1)
    assert not linear.converged and linear.n_updates == 100 * 100


def test_most_violated_always_runs_n_steps(data):
    X, y = data
    for n_steps in (0, 1, 25):
        model = kernel_perceptron(X, y, rule="most_violated", n_steps=n_steps)
        assert model.n_updates == n_steps
        assert model.alpha.sum() == n_steps + 1
        assert model.history.shape == (n_steps + 1,)
    assert kernel_perceptron(X, y, rule="most_violated", n_steps=0).alpha[0] == 1


def test_predict_maps_zero_to_plus_one():
    # f(q) = K(x_1, q) - K(x_2, q) vanishes on the bisector of x_1 and x_2
    X = np.array([[-1.0, 0.0], [1.0, 0.0]])
    y = np.array([1.0, -1.0])
    model = kernel_perceptron(X, y, rule="most_violated", n_steps=1)
    np.testing.assert_array_equal(model.alpha, [1, 1])
    assert model.decision_function([[0.0, 3.0]])[0] == 0.0
    np.testing.assert_array_equal(model.predict([[0.0, 3.0], [-2.0, 0.0], [2.0, 0.0]]), [1, 1, -1])


def test_deterministic_frozen_and_inputs_unchanged(data):
    X, y = data
    X0, y0 = X.copy(), y.copy()
    a = kernel_perceptron(X, y, "laplace", bandwidth=0.5)
    b = kernel_perceptron(X, y, "laplace", bandwidth=0.5)
    np.testing.assert_array_equal(a.alpha, b.alpha)
    np.testing.assert_array_equal(a.history, b.history)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert isinstance(a, KernelPerceptron)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.converged = False
    with pytest.raises(ValueError, match="read-only"):
        a.alpha[0] = 5
    X[0, 0] = 100.0  # the model keeps its own copy
    assert a.X[0, 0] == X0[0, 0]


def test_mid_size_run_is_fast():
    # O(n) per update: 2,000 points train in well under a second
    X, labels = make_moons(n_samples=2000, noise=0.1, random_state=0)
    model = kernel_perceptron(X, 2.0 * labels - 1.0, bandwidth=0.3)
    assert model.converged and model.history[-1] == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kernel": "sigmoid"}, "kernel must be one of 'gaussian', 'laplace', 'polynomial'"),
        ({"rule": "random"}, "rule must be one of 'cyclic', 'most_violated'; got 'random'"),
        ({"rule": "most_violated"}, "needs n_steps"),
        ({"rule": "most_violated", "n_steps": -1}, "n_steps must be an integer >= 0; got -1"),
        ({"rule": "most_violated", "n_steps": 5, "max_updates": 3}, "max_updates is used only"),
        ({"n_steps": 5}, "n_steps is used only"),
        ({"max_updates": 2.5}, "max_updates must be an integer"),
        ({"bandwidth": 0.0}, "bandwidth"),
        ({"kernel": "polynomial", "bandwidth": 2.0}, "bandwidth is not used"),
    ],
)
def test_bad_parameters_raise_value_error(data, kwargs, message):
    X, y = data
    with pytest.raises(ValueError, match=message):
        kernel_perceptron(X, y, **kwargs)


def test_bad_data_raise_value_error(data):
    X, y = data
    with pytest.raises(ValueError, match=r"y must contain only -1 and \+1; got 0.0 at index"):
        kernel_perceptron(X, (y + 1) / 2)
    with pytest.raises(ValueError, match="y must have length 30; got length 29"):
        kernel_perceptron(X, y[:-1])
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"X must be finite; got nan at index \(3, 1\)"):
        kernel_perceptron(Xn, y)
    model = kernel_perceptron(X, y)
    with pytest.raises(ValueError, match=r"Xq must have 2 column\(s\); got shape \(4, 3\)"):
        model.predict(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="Xq must be finite"):
        model.decision_function([[np.inf, 0.0]])


def test_rkhs_margin_of_the_linear_kernel_with_bias_is_the_augmented_max_margin():
    # (1 + <x, p>)^1 is the linear kernel on [x, 1]; its RKHS margin is the min-norm point of
    # conv{y_i [x_i, 1]}, computed directly by the polytope-distance QP.
    from mlgeom.primer.kernel_perceptrons import rkhs_margin
    from mlgeom.primer.polytope_distance import polytope_distance_qp

    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 2))
    y = np.where(X @ np.array([1.0, -0.5]) + 0.3 > 0, 1.0, -1.0)
    Z = y[:, None] * np.c_[X, np.ones(len(X))]
    expected = polytope_distance_qp(Z, np.zeros((1, 3))).distance
    assert rkhs_margin(X, y, "polynomial", degree=1) == pytest.approx(expected, rel=1e-4, abs=1e-7)


def test_rkhs_margin_bounds_the_kernel_perceptron_updates():
    from mlgeom.primer.kernel_perceptrons import rkhs_margin

    rng = np.random.default_rng(6)
    X = rng.uniform(-1, 1, size=(40, 2))
    y = np.where(np.hypot(*X.T) > 0.6, 1.0, -1.0)
    g0 = rkhs_margin(X, y, "laplace")
    model = kernel_perceptron(X, y, "laplace")
    assert model.converged
    assert (model.n_updates + 1) * g0**2 <= 1.0 + 1e-6  # Novikoff in the RKHS, R = 1


def test_rkhs_margin_bad_labels():
    from mlgeom.primer.kernel_perceptrons import rkhs_margin

    with pytest.raises(ValueError, match="-1 and \\+1"):
        rkhs_margin(np.zeros((3, 2)), [0, 1, 1])
