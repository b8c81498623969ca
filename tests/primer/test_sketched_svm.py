"""Tests of mlgeom.primer.sketched_svm (the slides' "Sketched Kernel SVM Algorithm")."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_moons

from mlgeom.algorithms.perceptrons import max_margin_perceptron, perceptron
from mlgeom.algorithms.random_features import random_fourier_features
from mlgeom.primer import kernel_perceptron
from mlgeom.primer.experiments import sketched_perceptron_sweep
from mlgeom.primer.sketched_svm import SketchedKernelPerceptron, sketched_kernel_perceptron


def moons(n=40, seed=0):
    X, y = make_moons(n_samples=n, noise=0.1, random_state=seed)
    return X, np.where(y == 1, 1.0, -1.0)


def reference_sketch(Phi, y, n_steps):
    """The slide's loop, written out: choose w = sigma(x) phi(x); add the argmin point."""
    w = y[0] * Phi[0]
    for _ in range(n_steps):
        j = int(np.argmin([y[i] * (Phi[i] @ w) for i in range(len(y))]))
        w = w + y[j] * Phi[j]
    return w


def test_most_violated_rule_is_the_slides_loop_on_the_features():
    X, y = moons()
    phi = random_fourier_features(2, 64, seed=1)
    model = sketched_kernel_perceptron(X, y, phi, n_steps=30)
    assert isinstance(model, SketchedKernelPerceptron)
    np.testing.assert_allclose(model.w, reference_sketch(phi.transform(X), y, 30), atol=1e-10)
    assert model.n_updates == 30 and model.alpha.sum() == 31
    np.testing.assert_allclose(model.w, max_margin_perceptron(phi.transform(X), y, 30).w_raw)


def test_cyclic_rule_is_the_primal_perceptron_on_the_features():
    X, y = moons(30, seed=3)
    phi = random_fourier_features(2, 256, seed=2)
    model = sketched_kernel_perceptron(X, y, phi, rule="cyclic", max_updates=500)
    primal = perceptron(phi.transform(X), y, max_updates=500)
    np.testing.assert_allclose(model.w, primal.w_raw, atol=1e-10)
    assert model.n_updates == primal.n_updates
    assert model.converged == primal.converged


def test_decision_function_and_predict():
    X, y = moons()
    phi = random_fourier_features(2, 32, seed=4)
    model = sketched_kernel_perceptron(X, y, phi, n_steps=10)
    Q = np.array([[0.0, 0.0], [1.0, 0.5]])
    f = model.decision_function(Q)
    np.testing.assert_allclose(f, phi.transform(Q) @ model.w)
    np.testing.assert_array_equal(model.predict(Q), np.where(f >= 0, 1.0, -1.0))
    assert model.history.shape == (11,)
    assert model.history[-1] == pytest.approx(np.mean(model.predict(X) != y))


def test_zero_steps_keep_the_first_point():
    X, y = moons()
    phi = random_fourier_features(2, 8, seed=5)
    model = sketched_kernel_perceptron(X, y, phi, n_steps=0)
    np.testing.assert_allclose(model.w, y[0] * phi.transform(X[:1])[0])
    assert model.n_updates == 0


def test_many_features_follow_the_exact_kernel_perceptron():
    # With <phi(x), phi(p)> close to K (Rahimi and Recht), a few steps pick the same points
    X, y = moons(20, seed=6)
    exact = kernel_perceptron(X, y, "gaussian", rule="most_violated", n_steps=5)
    phi = random_fourier_features(2, 200_000, seed=7)
    sketch = sketched_kernel_perceptron(X, y, phi, n_steps=5)
    np.testing.assert_array_equal(sketch.alpha, exact.alpha)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"features": "phi"}, "RandomFourierFeatures; got str"),
        ({"X": np.zeros((3, 3))}, "X"),
        ({"rule": "best"}, "rule"),
        ({"n_steps": None}, "needs n_steps"),
        ({"max_updates": 5}, "max_updates is used only"),
        ({"rule": "cyclic"}, "n_steps is used only"),
        ({"n_steps": -1}, "n_steps"),
        ({"y": [1.0, 0.0, 1.0]}, "y"),
    ],
)
def test_bad_inputs_are_refused(kwargs, match):
    args = {
        "X": np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]),
        "y": np.array([1.0, -1.0, 1.0]),
        "features": random_fourier_features(2, 4, seed=0),
        "n_steps": 3,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        sketched_kernel_perceptron(**args)


def test_sweep_reference_runs_and_gap():
    Xa, ya = moons(30, seed=8)
    Xb, yb = moons(30, seed=9)
    data = {"a": (Xa, ya, Xb, yb), "b": (Xb, yb, Xa, ya)}
    steps = {"a": 7, "b": 4}
    runs, ref = sketched_perceptron_sweep(data, [8, 32], 3, steps, seed=11)
    assert len(runs) == 2 * 3 * 2
    assert list(ref.index) == ["a", "b"] and list(ref["steps"]) == [7, 4]
    exact = kernel_perceptron(Xa, ya, "gaussian", rule="most_violated", n_steps=7)
    assert ref.loc["a", "exact_test_error"] == pytest.approx(np.mean(exact.predict(Xb) != yb))
    w = max_margin_perceptron(Xa, ya, 7).w
    linear = np.mean(np.where(Xb @ w >= 0, 1.0, -1.0) != yb)
    assert ref.loc["a", "linear_test_error"] == pytest.approx(linear)
    row = runs.iloc[0]
    gap = max(
        abs(row["train_error"] - ref.loc[row["data"], "exact_train_error"]),
        abs(row["test_error"] - ref.loc[row["data"], "exact_test_error"]),
    )
    assert row["gap"] == pytest.approx(gap)
    again, _ = sketched_perceptron_sweep(data, [8, 32], 3, steps, seed=11)
    np.testing.assert_array_equal(runs["gap"], again["gap"])


def test_sweep_refuses_missing_steps_and_mixed_dimensions():
    X, y = moons(10)
    with pytest.raises(ValueError, match="n_steps must map every data set"):
        sketched_perceptron_sweep({"a": (X, y, X, y)}, [4], 1, {"b": 3}, seed=0)
    X3 = np.c_[X, X[:, :1]]
    with pytest.raises(ValueError, match="share one dimension"):
        sketched_perceptron_sweep(
            {"a": (X, y, X, y), "b": (X3, y, X3, y)}, [4], 1, {"a": 1, "b": 1}, seed=0
        )
    with pytest.raises(ValueError, match="n_steps"):
        sketched_perceptron_sweep({"a": (X, y, X, y)}, [4], 1, {"a": 0}, seed=0)
