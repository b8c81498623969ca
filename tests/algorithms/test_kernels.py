"""Tests of mlgeom.algorithms.kernels against loop-based references and scikit-learn."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from mlgeom.algorithms import kernels
from mlgeom.algorithms.kernels import KERNELS, kde, kde_sup_error, kernel_matrix


def reference_kernel(a, b, kernel, bandwidth=1.0, degree=2):
    """One kernel value, straight from the slide "Kernel Perceptron Algorithm"."""
    diff = math.sqrt(sum((ai - bi) ** 2 for ai, bi in zip(a, b, strict=True)))
    if kernel == "gaussian":
        return math.exp(-(diff**2) / bandwidth**2)
    if kernel == "laplace":
        return math.exp(-diff / bandwidth)
    return (1.0 + sum(ai * bi for ai, bi in zip(a, b, strict=True))) ** degree


def reference_matrix(A, B, kernel, **params):
    return np.array([[reference_kernel(a, b, kernel, **params) for b in B] for a in A])


def reference_kde(W, X, kernel, weights=None, **params):
    K = reference_matrix(W, X, kernel, **params)  # (|W|, |X|)
    if weights is None:
        return K.mean(axis=0)  # KDE_W(x) = (1/|W|) sum_w K(w, x)
    return np.asarray(weights) @ K


@pytest.fixture
def points():
    rng = np.random.default_rng(0)
    return rng.normal(size=(7, 3)), rng.normal(size=(5, 3))


@pytest.mark.parametrize(
    ("kernel", "params"),
    [
        ("gaussian", {}),
        ("gaussian", {"bandwidth": 0.7}),
        ("laplace", {}),
        ("laplace", {"bandwidth": 2.5}),
        ("polynomial", {}),
        ("polynomial", {"degree": 1}),
        ("polynomial", {"degree": 3}),
    ],
)
def test_kernel_matrix_matches_loop_reference(points, kernel, params):
    A, B = points
    K = kernel_matrix(A, B, kernel, **params)
    assert K.shape == (7, 5)
    np.testing.assert_allclose(K, reference_matrix(A, B, kernel, **params), rtol=1e-12, atol=1e-14)


def test_kernel_matrix_matches_scikit_learn(points):
    A, B = points
    h = 0.8
    np.testing.assert_allclose(
        kernel_matrix(A, B, "gaussian", bandwidth=h), rbf_kernel(A, B, gamma=1 / h**2), rtol=1e-12
    )
    np.testing.assert_allclose(
        kernel_matrix(A, B, "polynomial", degree=3),
        polynomial_kernel(A, B, degree=3, gamma=1.0, coef0=1.0),
        rtol=1e-12,
    )


def test_bandwidth_one_is_the_slides_kernels():
    # hand-computable: ||x - p|| = 5 for x = (0, 0), p = (3, 4); <x', p> = 3 + 8 = 11
    x, p, x2 = [[0.0, 0.0]], [[3.0, 4.0]], [[1.0, 2.0]]
    assert kernel_matrix(x, p, "gaussian")[0, 0] == pytest.approx(math.exp(-25.0), rel=1e-14)
    assert kernel_matrix(x, p, "laplace")[0, 0] == pytest.approx(math.exp(-5.0), rel=1e-14)
    assert kernel_matrix(x2, p, "polynomial", degree=2)[0, 0] == 144.0


def test_distances_are_stable_far_from_the_origin():
    # Far from the origin the expanded ||a||^2 + ||b||^2 - 2<a, b> loses every digit unless
    # the points are centred first; the diagonal must be exactly 1 (distance 0).
    rng = np.random.default_rng(1)
    X = 1e6 + rng.normal(scale=1e-3, size=(20, 2))
    for kernel in ("gaussian", "laplace"):
        K = kernel_matrix(X, X, kernel, bandwidth=1e-3)
        np.testing.assert_array_equal(np.diag(K), 1.0)
        diff = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)) / 1e-3
        expected = np.exp(-(diff**2)) if kernel == "gaussian" else np.exp(-diff)
        np.testing.assert_allclose(K, expected, atol=1e-6)
        assert np.all(K <= 1.0) and np.all(K >= 0.0)


def test_inputs_left_unchanged(points):
    A, B = points
    A0, B0 = A.copy(), B.copy()
    for kernel in KERNELS:
        kernel_matrix(A, B, kernel)
        kde(A, B, kernel, weights=np.arange(7.0))
    np.testing.assert_array_equal(A, A0)
    np.testing.assert_array_equal(B, B0)


@settings(max_examples=40, deadline=None)
@given(
    A=arrays(np.float64, (4, 2), elements=st.floats(-5, 5)),
    B=arrays(np.float64, (3, 2), elements=st.floats(-5, 5)),
    kernel=st.sampled_from(KERNELS),
)
def test_kernel_matrix_is_symmetric_in_its_arguments(A, B, kernel):
    K = kernel_matrix(A, B, kernel)
    np.testing.assert_allclose(K, kernel_matrix(B, A, kernel).T, rtol=1e-9, atol=1e-12)
    if kernel != "polynomial":
        assert np.all((K >= 0.0) & (K <= 1.0))


@pytest.mark.parametrize("kernel", KERNELS)
def test_kde_matches_loop_reference(points, kernel):
    W, X = points
    np.testing.assert_allclose(kde(W, X, kernel), reference_kde(W, X, kernel), rtol=1e-12)
    weights = np.array([1.0, -2.0, 0.5, 0.0, 3.0, -1.0, 2.0])
    np.testing.assert_allclose(
        kde(W, X, kernel, weights=weights), reference_kde(W, X, kernel, weights), rtol=1e-11
    )


def test_kde_blocks_give_the_unblocked_result(points, monkeypatch):
    W, X = points
    full = kde(W, X, "laplace", bandwidth=0.5)
    # blocks of 3 entries: several blocks along both |W| and |X|
    monkeypatch.setattr(kernels, "_BLOCK_ENTRIES", 3)
    np.testing.assert_allclose(kde(W, X, "laplace", bandwidth=0.5), full, rtol=1e-13)
    monkeypatch.setattr(kernels, "_BLOCK_ENTRIES", 1)
    np.testing.assert_allclose(kde(W, X, "laplace", bandwidth=0.5), full, rtol=1e-13)


def test_kde_memory_is_bounded_for_large_w():
    # |W| = 20,000: a block holds about 100 query rows against all of W, so the peak does
    # not depend on |X| (2,500 here to keep the test fast; the full |W| x |X| matrix would
    # take 400 MB, and 1.6 GB at |X| = 10,000)
    rng = np.random.default_rng(2)
    W = rng.normal(size=(20_000, 2))
    X = rng.normal(size=(2_500, 2))
    tracemalloc.start()
    try:
        values = kde(W, X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20, f"peak {peak / 2**20:.1f} MB"
    np.testing.assert_allclose(values[:3], reference_kde(W, X[:3], "gaussian"), rtol=1e-10)


def test_kde_sup_error_hand_computed():
    # X = {0}, S = {1} on the line, queries {0, 1/2}: |1 - e^{-1}| at q = 0, 0 at q = 1/2
    X, S, Q = [[0.0]], [[1.0]], [[0.0], [0.5]]
    assert kde_sup_error(X, S, Q) == pytest.approx(1 - math.exp(-1.0), rel=1e-14)
    assert kde_sup_error(X, S, Q, "laplace") == pytest.approx(1 - math.exp(-1.0), rel=1e-14)
    assert kde_sup_error(X, X, Q) == 0.0


def test_kde_sup_error_shrinks_with_the_sample_size():
    # Recent Results: a random sample of size O(nu / eps^2) is an eps-sample; a 64x larger
    # sample should cut the error by about 8 (seeded, with a generous factor 2)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(4000, 2))
    Q = rng.normal(size=(200, 2))
    small = [kde_sup_error(X, X[rng.choice(4000, 20, replace=False)], Q) for _ in range(5)]
    large = [kde_sup_error(X, X[rng.choice(4000, 1280, replace=False)], Q) for _ in range(5)]
    assert np.mean(large) < np.mean(small) / 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda A: kernel_matrix(A, A, "cosine"), "'gaussian', 'laplace', 'polynomial'"),
        (lambda A: kernel_matrix(A, A, bandwidth=0.0), "bandwidth"),
        (lambda A: kernel_matrix(A, A, bandwidth=-1.0), "-1.0"),
        (lambda A: kernel_matrix(A, A, bandwidth=float("nan")), "bandwidth"),
        (lambda A: kernel_matrix(A, A, "polynomial", bandwidth=2.0), "bandwidth is not used"),
        (lambda A: kernel_matrix(A, A, "gaussian", degree=3), "degree is used only"),
        (lambda A: kernel_matrix(A, A, "polynomial", degree=0), "degree"),
        (lambda A: kernel_matrix(A, A, "polynomial", degree=1.5), "1.5"),
        (lambda A: kernel_matrix(A, A[:, :2]), "column"),
        (lambda A: kernel_matrix(A[0], A), "2-D"),
        (lambda A: kde(A, A, weights=np.ones(2)), "length 4"),
        (lambda A: kde(A, A, weights=[1.0, np.nan, 1.0, 1.0]), "nan"),
        (lambda A: kde(A, A[:, :1]), "column"),
        (lambda A: kde_sup_error(A, A, A[:, :2]), "queries"),
        (lambda A: kernel_matrix([[1e200, 1.0]], [[1e200, 1.0]], "polynomial"), "overflow"),
    ],
)
def test_bad_inputs_raise_value_error(call, message):
    A = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        call(A)


def test_nan_point_is_reported():
    A = np.ones((3, 2))
    A[1, 0] = np.nan
    with pytest.raises(ValueError, match=r"A must be finite; got nan at index \(1, 0\)"):
        kernel_matrix(A, np.ones((2, 2)))
