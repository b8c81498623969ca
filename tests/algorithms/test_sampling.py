"""Tests for mlgeom.algorithms.sampling: priority sampling and the partition of unity."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.algorithms.sampling import (
    PrioritySample,
    cumulative_weights,
    priority_estimate_from_tau,
    priority_sample,
    select_by_cumulative,
    weighted_sample,
)
from mlgeom.random import spawn


def reference_priority_sample(w, k, u):
    """Loop-based priority sampling (Duffield, Lund & Thorup 2007), for comparison."""
    n = len(w)
    rho = [w[i] / u[i] for i in range(n)]
    order = sorted(range(n), key=lambda i: (-rho[i], i))
    if k >= n:
        return order, 0.0, list(w), sum(w)
    kept = order[:k]
    tau = rho[order[k]]  # the (k+1)-th largest priority
    new_w = [0.0] * n
    total = 0.0
    for i in kept:
        new_w[i] = w[i] if w[i] > tau else tau
        total += new_w[i]
    return kept, tau, new_w, total


# ---------------------------------------------------------------------------------------------
# priority sampling


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("k", [1, 3, 7, 15])
def test_priority_sample_matches_loop_reference(seed, k):
    rng = np.random.default_rng(seed)
    n = 12
    w = rng.exponential(size=n) + 0.01
    u = 1.0 - rng.random(n)
    got = priority_sample(w, k, u=u)
    kept, tau, new_w, total = reference_priority_sample(list(w), k, list(u))
    assert got.indices.tolist() == kept
    assert got.tau == tau
    np.testing.assert_allclose(got.adjusted_weights, new_w, rtol=0, atol=0)
    np.testing.assert_allclose(got.priorities, w / u)
    assert got.estimate == pytest.approx(total, rel=1e-12)


def test_priority_sample_hand_case():
    # w = (4, 3, 2, 1), u = (1/2, 1, 1/2, 1/2): rho = (8, 3, 4, 2), exact in binary.
    w = [4.0, 3.0, 2.0, 1.0]
    u = [0.5, 1.0, 0.5, 0.5]
    s = priority_sample(w, 2, u=u)
    assert isinstance(s, PrioritySample)
    assert s.priorities.tolist() == [8.0, 3.0, 4.0, 2.0]
    assert s.indices.tolist() == [0, 2]
    assert s.tau == 3.0  # the 3rd-largest priority for k = 2
    assert s.adjusted_weights.tolist() == [4.0, 0.0, 3.0, 0.0]  # max(4, 3), max(2, 3)
    assert s.estimate == 7.0
    # k = 3: tau drops to 2, the estimate need not grow with k (the primer's remark).
    s3 = priority_sample(w, 3, u=u)
    assert s3.indices.tolist() == [0, 2, 1]
    assert s3.tau == 2.0
    assert s3.adjusted_weights.tolist() == [4.0, 3.0, 2.0, 0.0]
    assert s3.estimate == 9.0


def test_priority_estimate_from_tau_page_numbers():
    # Primer: a_1 keeps 1.80, a_2, a_4, a_5 (weights below tau) get tau = 1.10: W' = 5.10.
    # Their own weights are not printed; any values below tau give the same estimate.
    assert priority_estimate_from_tau([1.80, 1.0, 0.5, 0.3], 1.10) == pytest.approx(5.10)
    assert priority_estimate_from_tau([1.80, 0.2, 0.1, 0.05], 1.10) == pytest.approx(5.10)
    assert priority_estimate_from_tau([], 1.0) == 0.0


def test_priority_estimate_from_tau_agrees_with_sample():
    rng = np.random.default_rng(3)
    w = rng.exponential(size=30) + 0.1
    s = priority_sample(w, 8, seed=4)
    assert priority_estimate_from_tau(w[s.indices], s.tau) == pytest.approx(s.estimate)


def test_priority_sample_is_unbiased():
    # E[W'] = W (Duffield, Lund & Thorup 2007, Theorem 1): mean within 4 standard errors.
    w = np.array([1.80, 1.20, 0.90, 0.60, 0.40, 0.25, 0.15, 0.10, 0.08, 0.61])
    W = w.sum()
    samples = [priority_sample(w, 4, seed=g) for g in spawn(2024, 4000)]
    estimates = np.array([s.estimate for s in samples])
    se = estimates.std(ddof=1) / np.sqrt(estimates.size)
    assert abs(estimates.mean() - W) < 4 * se
    # The check has power: thresholding at the k-th (not (k+1)-th) largest priority is biased.
    wrong = np.array([np.maximum(w[s.indices], s.priorities[s.indices[-1]]).sum() for s in samples])
    wrong_se = wrong.std(ddof=1) / np.sqrt(wrong.size)
    assert abs(wrong.mean() - W) > 4 * wrong_se


def test_priority_sample_keeps_everything_when_k_at_least_n():
    w = np.array([0.3, 2.5, 1.1])
    for k in (3, 4, 100):
        s = priority_sample(w, k, seed=1)
        assert s.tau == 0.0
        assert s.estimate == np.sum(w)
        assert sorted(s.indices.tolist()) == [0, 1, 2]
        np.testing.assert_array_equal(s.adjusted_weights, w)


def test_priority_sample_seeding_and_inputs():
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    w_copy = w.copy()
    a = priority_sample(w, 2, seed=7)
    b = priority_sample(w, 2, seed=7)
    np.testing.assert_array_equal(a.priorities, b.priorities)
    np.testing.assert_array_equal(w, w_copy)
    with pytest.raises(ValueError):
        a.adjusted_weights[0] = 1.0  # results are frozen, arrays included
    # u is drawn as 1 - rng.random(): priorities are w / (1 - rng.random(n)).
    u = 1.0 - np.random.default_rng(7).random(5)
    np.testing.assert_array_equal(a.priorities, w / u)


@settings(max_examples=60, deadline=None)
@given(
    w=st.lists(st.floats(1e-3, 1e3), min_size=1, max_size=15),
    k=st.integers(1, 20),
    seed=st.integers(0, 2**32 - 1),
)
def test_priority_sample_properties(w, k, seed):
    w = np.array(w)
    s = priority_sample(w, k, seed=seed)
    n = w.size
    assert s.estimate >= 0
    assert s.indices.size == min(k, n)
    assert len(set(s.indices.tolist())) == s.indices.size
    kept = np.zeros(n, dtype=bool)
    kept[s.indices] = True
    assert np.all(s.adjusted_weights[kept] >= w[kept])
    assert np.all(s.adjusted_weights[~kept] == 0)
    assert np.all(np.diff(s.priorities[s.indices]) <= 0)  # decreasing priority
    if k < n:
        assert np.all(s.priorities[s.indices] >= s.tau)
        assert np.all(s.priorities[~kept] <= s.tau)


@pytest.mark.parametrize(
    ("weights", "k", "kwargs"),
    [
        ([1.0, 2.0], 0, {}),
        ([1.0, 2.0], -1, {}),
        ([1.0, 2.0], 1.5, {}),
        ([1.0, 0.0], 1, {}),
        ([1.0, -2.0], 1, {}),
        ([1.0, np.nan], 1, {}),
        ([1.0, np.inf], 1, {}),
        ([], 1, {}),
        ([[1.0, 2.0]], 1, {}),
        ([1.0, 2.0], 1, {"u": [0.5, 0.0]}),
        ([1.0, 2.0], 1, {"u": [0.5, 1.5]}),
        ([1.0, 2.0], 1, {"u": [0.5, -0.1]}),
        ([1.0, 2.0], 1, {"u": [0.5]}),
        ([1.0, 2.0], 1, {"u": [0.5, 0.5, 0.5]}),
        ([1.0, 2.0], 1, {"u": [0.5, np.nan]}),
        ([1.0, 2.0], 1, {"u": [0.5, 0.5], "seed": 1}),
    ],
)
def test_priority_sample_bad_inputs(weights, k, kwargs):
    with pytest.raises(ValueError):
        priority_sample(weights, k, **kwargs)


def test_priority_sample_error_names_bad_value():
    with pytest.raises(ValueError, match=r"-2\.0 at index 1"):
        priority_sample([1.0, -2.0], 1)
    with pytest.raises(ValueError, match=r"1\.5 at index 1"):
        priority_sample([1.0, 2.0], 1, u=[0.5, 1.5])
    with pytest.raises(ValueError, match="got 0"):
        priority_sample([1.0, 2.0], 0)


def test_priority_estimate_from_tau_bad_inputs():
    with pytest.raises(ValueError):
        priority_estimate_from_tau([1.0, 0.0], 1.0)
    with pytest.raises(ValueError):
        priority_estimate_from_tau([1.0], -1.0)
    with pytest.raises(ValueError):
        priority_estimate_from_tau([1.0], float("nan"))


# ---------------------------------------------------------------------------------------------
# partition of unity


def test_cumulative_weights():
    t = cumulative_weights([1.0, 1.0, 2.0])
    assert t.tolist() == [0.25, 0.5, 1.0]
    rng = np.random.default_rng(0)
    for _ in range(20):
        w = rng.exponential(size=int(rng.integers(1, 50)))
        t = cumulative_weights(w)
        assert t[-1] == 1.0
        assert np.all(np.diff(t) > 0)
        np.testing.assert_allclose(np.diff(t, prepend=0.0), w / w.sum(), atol=1e-12)


def test_select_by_cumulative_page_example():
    # Primer: t_2 = 0.58, t_3 = 0.74, u = 0.68 ("t_2 < u <= t_3"). With t_i the probability
    # that one of the first i items is chosen, that cell belongs to a_3 (0-based index 2); the
    # page says a_2. The other boundaries are made up (the page does not print them).
    t = [0.30, 0.58, 0.74, 0.90, 1.00]
    assert select_by_cumulative(t, 0.68) == 2


def test_select_by_cumulative_edges():
    t = [0.25, 0.5, 1.0]
    assert select_by_cumulative(t, 0.25) == 0  # u = t_i goes to item i
    assert select_by_cumulative(t, 0.5) == 1
    assert select_by_cumulative(t, np.nextafter(0.25, 1.0)) == 1
    assert select_by_cumulative(t, 1.0) == 2  # u = 1 -> last item
    assert select_by_cumulative(t, 5e-324) == 0
    assert select_by_cumulative([1.0], 0.3) == 0
    # Printed boundaries that end at 1 only up to rounding are accepted; u = 1 -> last item.
    assert select_by_cumulative([0.5, 1.0 - 1e-12], 1.0) == 1


def test_select_by_cumulative_agrees_with_loop():
    rng = np.random.default_rng(1)
    t = cumulative_weights(rng.exponential(size=10))
    for u in np.concatenate((1.0 - rng.random(200), t)):
        i = 0
        while not u <= t[i]:
            i += 1
        assert select_by_cumulative(t, float(u)) == i


@pytest.mark.parametrize(
    ("t", "u"),
    [
        ([0.5, 1.0], 0.0),
        ([0.5, 1.0], -0.1),
        ([0.5, 1.0], 1.1),
        ([0.5, 1.0], float("nan")),
        ([0.6, 0.5, 1.0], 0.5),  # decreasing
        ([0.5, 0.9], 0.5),  # does not end at 1
        ([-0.1, 1.0], 0.5),
        ([0.5, 1.2], 0.5),
        ([], 0.5),
        ([0.5, np.nan, 1.0], 0.5),
    ],
)
def test_select_by_cumulative_bad_inputs(t, u):
    with pytest.raises(ValueError):
        select_by_cumulative(t, u)


def test_weighted_sample_frequencies():
    w = np.array([5.0, 1.0, 3.0, 0.5, 0.5])
    p = w / w.sum()
    n_draws = 200_000
    idx = weighted_sample(w, n_draws, seed=11)
    assert idx.shape == (n_draws,)
    counts = np.bincount(idx, minlength=w.size)
    se = np.sqrt(n_draws * p * (1 - p))
    assert np.all(np.abs(counts - n_draws * p) < 4 * se)


def test_weighted_sample_matches_select_by_cumulative():
    w = np.array([0.2, 0.3, 0.1, 0.4])
    t = cumulative_weights(w)
    idx = weighted_sample(w, 500, seed=5)
    u = 1.0 - np.random.default_rng(5).random(500)
    assert idx.tolist() == [select_by_cumulative(t, float(v)) for v in u]
    assert weighted_sample(w, 0, seed=5).shape == (0,)


def test_weighted_sample_bad_inputs():
    for bad in ([1.0, 0.0], [1.0, np.nan], [], [-1.0]):
        with pytest.raises(ValueError):
            weighted_sample(bad, 3, seed=0)
    for size in (-1, 2.5, None):
        with pytest.raises(ValueError):
            weighted_sample([1.0], size, seed=0)
