"""Theorem 1 across k: the rare-class family and its sweep (issue 13)."""

from __future__ import annotations

import numpy as np
import pytest

from mlgeom.metric_nn import bounds as mb
from mlgeom.metric_nn.experiments import theorem1_k_sweep
from mlgeom.metric_nn.tasks import RareClassProblem, SoftmaxProblem

BASE = SoftmaxProblem(np.array([[0.25], [0.75]]), 10.0)


def test_rare_class_eta_by_hand():
    prob = RareClassProblem(BASE, 4, 0.1)
    x = np.array([[0.25]])
    # d = (0, 0.5): base eta_0 = 1 / (1 + e^{-5}); rare classes get 0.1 / 2 each
    p0 = 1.0 / (1.0 + np.exp(-5.0))
    np.testing.assert_allclose(prob.eta(x), [[0.9 * p0, 0.9 * (1 - p0), 0.05, 0.05]])
    assert prob.lipschitz == pytest.approx(0.9 * 5.0)
    assert prob.D == 1 and prob.k == 4


@pytest.mark.parametrize("k", [3, 4, 16, 64])
def test_rare_class_bayes_risk_is_free_of_k(k):
    prob = RareClassProblem(BASE, k, 0.1)
    G = prob.grid(500)
    assert np.allclose(prob.eta(G).sum(axis=1), 1.0)
    expected = 1.0 - 0.9 * (1.0 - BASE.bayes_risk(500))
    assert prob.bayes_risk(500) == pytest.approx(expected, abs=1e-12)


def test_rare_class_lipschitz_on_a_fine_grid():
    prob = RareClassProblem(BASE, 8, 0.1)
    x = np.linspace(0, 1, 4001)[:, None]
    e = prob.eta(x)
    slopes = np.abs(np.diff(e, axis=0)).max(axis=1) / np.diff(x[:, 0])
    assert slopes.max() <= prob.lipschitz + 1e-9


def test_rare_class_sample_frequencies():
    prob = RareClassProblem(BASE, 6, 0.2)
    _, y = prob.sample(40_000, 1)
    assert y.min() >= 0 and y.max() == 5
    assert np.mean(y >= 2) == pytest.approx(0.2, abs=0.01)


@pytest.mark.parametrize(
    ("k", "eps", "match"),
    [(2, 0.1, "k must be"), (4, 0.0, "eps"), (4, 1.0, "eps"), (3, 0.6, "too large")],
)
def test_rare_class_bad_inputs(k, eps, match):
    with pytest.raises(ValueError, match=match):
        RareClassProblem(BASE, k, eps)
    with pytest.raises(ValueError, match="base"):
        RareClassProblem("not a problem", 4, 0.1)


def test_theorem1_k_sweep_against_a_loop():
    df = theorem1_k_sweep([3, 8], n=30, reps=2, seed=5, grid=100)
    assert list(df["k"]) == [3, 3, 8, 8] and list(df["seed"]) == [0, 1, 0, 1]
    # the bound and the Bayes risk are the same for every k; uniform guessing is 1 - 1/k
    assert df["Theorem 1 bound"].nunique() == 1 and df["Bayes risk"].nunique() == 1
    np.testing.assert_allclose(df["uniform risk"], 1 - 1 / df["k"])
    prob = RareClassProblem(BASE, 3, 0.1)
    bound = mb.theorem1_bound(30, prob.bayes_risk(100), 4.5, 1)
    assert df["Theorem 1 bound"].iloc[0] == pytest.approx(float(bound))
    # loop reference: 1-NN by brute force in |.|, the same streams
    from mlgeom.random import spawn

    streams = zip([3, 8], spawn(5, 2), (df.iloc[:2], df.iloc[2:]), strict=True)
    for k, rng, rows in streams:
        p = RareClassProblem(BASE, k, 0.1)
        G = p.grid(100)
        eta = p.eta(G)
        for r, risk in zip(spawn(rng, 2), rows["1-NN risk"], strict=True):
            X, y = p.sample(30, r)
            total = 0.0
            for gi, g in enumerate(G[:, 0]):
                j = min(range(30), key=lambda i: (abs(X[i, 0] - g), i))
                total += 1.0 - eta[gi, y[j]]
            assert risk == pytest.approx(total / len(G), abs=1e-12)
        # the majority class: one minus the largest class probability, by the same grid
        mass = [sum(eta[gi, c] for gi in range(len(G))) / len(G) for c in range(k)]
        assert rows["majority risk"].iloc[0] == pytest.approx(1 - max(mass), abs=1e-12)
    # two symmetric main classes share 1 - ε: the majority class errs with probability 1 - 0.45
    assert df["majority risk"].iloc[0] == pytest.approx(0.55, abs=1e-3)
    again = theorem1_k_sweep([3, 8], n=30, reps=2, seed=5, grid=100)
    assert again.equals(df)


def test_theorem1_k_sweep_bad_inputs():
    with pytest.raises(ValueError, match="ks"):
        theorem1_k_sweep([1], n=10, reps=1, seed=0)
    with pytest.raises(ValueError, match="reps"):
        theorem1_k_sweep([4], n=10, reps=0, seed=0)
    with pytest.raises(ValueError, match="too large"):
        theorem1_k_sweep([3], n=10, reps=1, seed=0, eps=0.6)
