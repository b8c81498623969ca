"""Tests of mlgeom.algorithms.random_features (Rahimi & Recht 2007 random Fourier features)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.kernel_approximation import RBFSampler

from mlgeom.algorithms import random_features
from mlgeom.algorithms.random_features import (
    RandomFourierFeatures,
    random_fourier_features,
    rff_sup_error,
)
from mlgeom.random import spawn


def gaussian_gram(X, bandwidth=1.0):
    """K(x, p) = exp(-||x - p||^2 / h^2), the slides' Gaussian kernel at h = 1."""
    return np.exp(-cdist(X, X, "sqeuclidean") / bandwidth**2)


@pytest.fixture
def points():
    return np.random.default_rng(0).normal(scale=0.6, size=(5, 3))


@pytest.mark.parametrize("bandwidth", [1.0, 0.5])
def test_features_are_unbiased(bandwidth):
    # E <phi(x), phi(p)> = K(x, p). One draw is the mean of rho terms 2 cos() cos() with
    # |2 cos() cos()| <= 2, so its variance is <= 4 / rho and the mean of M independent
    # draws has standard error <= 2 / sqrt(rho M); allow 5 of them.
    rho, M = 32, 4000
    X = np.random.default_rng(0).normal(scale=0.4 * bandwidth, size=(5, 3))
    total = np.zeros((5, 5))
    for rng in spawn(20240601, M):
        Z = random_fourier_features(3, rho, bandwidth=bandwidth, seed=rng).transform(X)
        total += Z @ Z.T
    tolerance = 5 * 2 / np.sqrt(rho * M)  # about 0.028
    K = gaussian_gram(X, bandwidth)
    assert 0.05 < K.min() < 0.2  # the pairs span kernel values from about 0.1 to 1
    np.testing.assert_allclose(total / M, K, rtol=0, atol=tolerance)


def test_sup_error_decreases_with_rho():
    # Rahimi & Recht: additive eps with rho = O~(1 / eps^2); 256x more features should cut
    # the error by about 16 (checked with a generous factor 4, averaged over 5 seeds)
    X = np.random.default_rng(1).normal(scale=0.7, size=(50, 3))
    errors = {
        rho: np.mean([rff_sup_error(X, random_fourier_features(3, rho, seed=s)) for s in range(5)])
        for rho in (16, 4096)
    }
    assert errors[4096] < errors[16] / 4
    assert errors[4096] < 0.1


def test_sup_error_matches_brute_force_and_blocks(points, monkeypatch):
    features = random_fourier_features(3, 50, bandwidth=0.8, seed=3)
    Z = features.transform(points)
    expected = np.max(np.abs(Z @ Z.T - gaussian_gram(points, 0.8)))
    assert rff_sup_error(points, features) == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert rff_sup_error(points, features, bandwidth=0.8) == rff_sup_error(points, features)
    monkeypatch.setattr(random_features, "_BLOCK_ENTRIES", 7)  # one row per block
    assert rff_sup_error(points, features) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_transform_matches_scikit_learn_rbf_sampler(points):
    # scikit-learn's RBFSampler implements the same map for exp(-gamma ||x - p||^2)
    h = 0.7
    sampler = RBFSampler(gamma=1 / h**2, n_components=64, random_state=0).fit(points)
    features = RandomFourierFeatures(
        omega=sampler.random_weights_, b=sampler.random_offset_, bandwidth=h
    )
    np.testing.assert_allclose(features.transform(points), sampler.transform(points), rtol=1e-12)


def test_spectral_density_and_phases():
    # omega ~ N(0, (2 / h^2) I), b ~ U[0, 2 pi): standard errors of 100,000 draws ~ 0.3%
    h = 0.5
    features = random_fourier_features(2, 50_000, bandwidth=h, seed=4)
    assert features.omega.shape == (2, 50_000) and features.b.shape == (50_000,)
    assert features.d == 2 and features.rho == 50_000
    assert np.std(features.omega) == pytest.approx(np.sqrt(2) / h, rel=0.02)
    assert np.all((features.b >= 0) & (features.b < 2 * np.pi))
    assert np.mean(features.b) == pytest.approx(np.pi, rel=0.02)


def test_deterministic_with_the_same_seed(points):
    a = random_fourier_features(3, 20, seed=7)
    b = random_fourier_features(3, 20, seed=7)
    np.testing.assert_array_equal(a.omega, b.omega)
    np.testing.assert_array_equal(a.b, b.b)
    np.testing.assert_array_equal(a.transform(points), b.transform(points))
    c = random_fourier_features(3, 20, seed=8)
    assert not np.array_equal(a.omega, c.omega)
    # a Generator is used as is: its stream advances between calls
    rng = np.random.default_rng(7)
    first = random_fourier_features(3, 20, seed=rng)
    second = random_fourier_features(3, 20, seed=rng)
    np.testing.assert_array_equal(first.omega, a.omega)
    assert not np.array_equal(second.omega, a.omega)


def test_frozen_and_read_only(points):
    features = random_fourier_features(3, 4, seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        features.bandwidth = 2.0
    with pytest.raises(ValueError, match="read-only"):
        features.omega[0, 0] = 1.0
    P = points.copy()
    features.transform(points)
    np.testing.assert_array_equal(points, P)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: random_fourier_features(3, 0, seed=0), "rho must be an integer >= 1; got 0"),
        (lambda: random_fourier_features(3, 2.5, seed=0), "rho must be an integer"),
        (lambda: random_fourier_features(0, 5, seed=0), "d must be an integer >= 1; got 0"),
        (lambda: random_fourier_features(3, 5, bandwidth=0.0, seed=0), "bandwidth"),
        (lambda: random_fourier_features(3, 5, bandwidth=-2.0, seed=0), "-2.0"),
        (lambda: random_fourier_features(3, 5, seed=-1), "seed"),
        (
            lambda: random_fourier_features(3, 5, seed=0).transform(np.ones((4, 2))),
            r"X must have 3 column\(s\); got shape \(4, 2\)",
        ),
        (
            lambda: random_fourier_features(3, 5, seed=0).transform([[np.nan, 0.0, 0.0]]),
            "X must be finite",
        ),
        (
            lambda: rff_sup_error(
                np.ones((4, 3)), random_fourier_features(3, 5, seed=0), bandwidth=2.0
            ),
            "bandwidth must equal features.bandwidth=1.0",
        ),
        (lambda: rff_sup_error(np.ones((4, 3)), "features"), "RandomFourierFeatures"),
        (lambda: RandomFourierFeatures(np.ones((2, 3)), np.ones(2), 1.0), "b must have length 3"),
    ],
)
def test_bad_inputs_raise_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
