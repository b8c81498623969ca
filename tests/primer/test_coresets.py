"""Tests of mlgeom.primer.coresets (slide "Coresets for Optimization")."""

import numpy as np
import pytest

from mlgeom import primer as P


def _fw_loop(X, T):
    # loop reference: Frank–Wolfe with exact line search on ½‖w − μ‖² over conv X
    X = np.asarray(X, float)
    mu = X.mean(axis=0)
    w = X[0].copy()
    errs = [np.linalg.norm(w - mu)]
    for _ in range(T):
        best, s = np.inf, None
        for x in X:
            v = float(np.dot(w - mu, x))
            if v < best:
                best, s = v, x
        d = s - w
        gap = float(np.dot(mu - w, d))
        if gap > 0 and np.dot(d, d) > 0:
            w = w + min(1.0, gap / np.dot(d, d)) * d
        errs.append(np.linalg.norm(w - mu))
    return w, np.array(errs)


def test_frank_wolfe_matches_loop_and_bound():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 5))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    r = P.frank_wolfe_mean(X, 30)
    w, errs = _fw_loop(X, 30)
    np.testing.assert_allclose(r.w, w, atol=1e-12)
    np.testing.assert_allclose(r.errors, errs, atol=1e-12)
    np.testing.assert_allclose(r.weights @ X, r.w, atol=1e-12)
    assert np.isclose(r.weights.sum(), 1.0) and np.all(r.weights >= 0)
    assert np.all(r.support <= np.arange(31) + 1)
    t = np.arange(1, 31)
    assert np.all(r.errors[1:] <= 4.0 / np.sqrt(t + 2.0))  # Jaggi, Thm 1


def test_frank_wolfe_hand_case():
    # two points ±e1: one step from x_1 = e1 towards -e1 with γ = 1/2 hits the mean 0
    r = P.frank_wolfe_mean([[1.0, 0.0], [-1.0, 0.0]], 3)
    np.testing.assert_allclose(r.w, [0.0, 0.0])
    np.testing.assert_allclose(r.errors, [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(r.weights, [0.5, 0.5])


def test_frank_wolfe_bad_inputs():
    with pytest.raises(ValueError, match="n_steps"):
        P.frank_wolfe_mean([[1.0]], 0)
    with pytest.raises(ValueError, match="X"):
        P.frank_wolfe_mean([[np.nan]], 1)


def _data(seed=0, n=60, d=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, d)) / np.sqrt(d)
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) >= 0, 1.0, -1.0)
    return X, y


def test_logistic_objective_hand_case():
    assert np.isclose(P.logistic_objective([[1.0]], [1], [0.0]), np.log(2.0))
    expected = (np.log1p(np.exp(-2.0)) + np.log1p(np.exp(2.0))) / 2
    assert np.isclose(P.logistic_objective([[1.0], [1.0]], [1, -1], [2.0]), expected)


def test_logistic_minimum_is_optimal_on_the_ball():
    X, y = _data()
    w, f = P.logistic_minimum(X, y, 0.5)
    assert np.linalg.norm(w) <= 0.5 + 1e-12
    rng = np.random.default_rng(1)
    for _ in range(200):
        v = rng.normal(size=3)
        v *= 0.5 * rng.random() / np.linalg.norm(v)
        assert P.logistic_objective(X, y, v) >= f - 1e-10


def _sgd_loop(X, y, cps, R, seed, schedule, average):
    rng = np.random.default_rng(seed)
    idx = rng.integers(len(X), size=max(cps))
    G = np.linalg.norm(X, axis=1).max()
    D = 2 * R
    w = np.zeros(X.shape[1])
    ws, out = [], []
    for t in range(1, max(cps) + 1):
        ws.append(w.copy())
        if t in cps:
            v = np.mean(ws, axis=0) if average else w
            out.append(np.mean(np.log1p(np.exp(-y * (X @ v)))))
        x, yi = X[idx[t - 1]], y[idx[t - 1]]
        eta = D / (G * np.sqrt(t)) if schedule == "sqrt" else D / G
        w = w + eta * yi * x / (1 + np.exp(yi * (x @ w)))
        if np.linalg.norm(w) > R:
            w = w * R / np.linalg.norm(w)
    return np.array(out)


@pytest.mark.parametrize(("schedule", "average"), [("sqrt", True), ("constant", False)])
def test_projected_sgd_matches_loop(schedule, average):
    X, y = _data()
    cps = [1, 5, 50]
    got = P.projected_sgd(X, y, cps, radius=2.0, schedule=schedule, average=average, seed=7)
    np.testing.assert_allclose(got, _sgd_loop(X, y, cps, 2.0, 7, schedule, average), rtol=1e-10)


def test_projected_sgd_first_checkpoint_is_w1_zero():
    X, y = _data()
    assert np.isclose(P.projected_sgd(X, y, [1], radius=1.0, seed=0)[0], np.log(2.0))


def test_projected_sgd_bad_inputs():
    X, y = _data()
    with pytest.raises(ValueError, match="increasing"):
        P.projected_sgd(X, y, [5, 5], radius=1.0, seed=0)
    with pytest.raises(ValueError, match="schedule"):
        P.projected_sgd(X, y, [5], radius=1.0, schedule="adam", seed=0)
    with pytest.raises(ValueError, match="radius"):
        P.projected_sgd(X, y, [5], radius=0.0, seed=0)
    with pytest.raises(ValueError, match="average"):
        P.projected_sgd(X, y, [5], radius=1.0, average="yes", seed=0)
