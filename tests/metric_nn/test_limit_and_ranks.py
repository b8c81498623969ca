"""Regression tests of issue 13: the limit L -> 0 in the SRM and candidates indexed by pair rank."""

import itertools

import numpy as np
import pytest

from mlgeom.metric_nn import bounds as mb
from mlgeom.metric_nn.experiments import exact_q_check
from mlgeom.metric_nn.srm import SRMNearestNeighbors
from mlgeom.metric_nn.vertex_cover import ConflictPairs


def _instance(seed, n=11, k=3):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2))
    y = rng.integers(k, size=n)
    y[:k] = np.arange(k)  # every class present
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    return D, y


def _brute_min_cover(D, y, L):
    """Minimum vertex cover of G_L by enumerating all 2^n subsets (no solver)."""
    n = len(y)
    E = [
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if y[i] != y[j] and (L == 0 or D[i, j] < 2.0 / L)
    ]
    for size in range(n + 1):
        for S in itertools.combinations(range(n), size):
            s = set(S)
            if all(i in s or j in s for i, j in E):
                return size
    raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", range(4))
def test_exact_q_over_all_L_matches_brute_force_with_the_limit(seed):
    D, y = _instance(seed)
    n = len(y)
    model = SRMNearestNeighbors("precomputed", ddim=2.0).fit(D, y)
    summary, table = exact_q_check(model)
    Dn = D / D.max()
    bichromatic = sorted({Dn[i, j] for i in range(n) for j in range(i + 1, n) if y[i] != y[j]})
    # every step of m̂ (just above each candidate: L = 2/d exactly) and the limit L -> 0
    Ls = [0.0] + [2.0 / d for d in bichromatic if d > 0]
    q = [_brute_min_cover(Dn, y, L) / n + float(model._complexity(L)) for L in Ls]
    assert summary["min Q̂ (exact cover)"] == pytest.approx(min(q), abs=1e-12)
    # in the limit every bichromatic pair conflicts: m̂ = n - n_max
    assert table["m̂/n"].iloc[0] * n == pytest.approx(n - np.bincount(y).max())
    assert summary["Q(L̃) / min Q̂"] <= 4.0


def test_limit_l_to_0_is_a_candidate_and_wins_on_tiny_samples():
    D, y = _instance(1, n=12)
    model = SRMNearestNeighbors("precomputed", ddim=2.0, search="exhaustive").fit(D, y)
    curve = model.q_curve()
    assert curve.L[0] == 0.0 and curve.edges[0] == len(model.pairs_.d)
    assert model.n_candidates_ == len(model.pairs_.candidates()) + 1
    # at n = 12 the bound dwarfs the loss: the minimiser of Q is the limit, a one-class rule
    assert model.L_ == 0.0
    assert len(np.unique(model.predict(D))) == 1


def test_candidates_are_ranked_on_the_distances_not_on_two_over_L():
    # distances d with 2/(2/d) > d: recomputing the threshold keeps the defining pair
    rng = np.random.default_rng(0)
    d = rng.random(20_000) * 0.9 + 0.05
    bad = d[2.0 / (2.0 / d) > d]
    assert len(bad) > 0
    d0 = float(bad[0])
    D = np.array([[0.0, d0, 1.0], [d0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    y = np.array([0, 1, 0])
    pairs = ConflictPairs.from_distances(D, y)
    L, t = pairs.candidate_ranks(limit=False)
    assert L[0] == 2.0 and L[1] == 2.0 / d0
    # at L = 2/d0 the pair (0, 1) at distance d0 is not an edge (d < 2/L is strict)
    assert t[1] == 0 and pairs.m_tilde_at(t[1]) == 0
    assert pairs.prefix_length(L[1]) == 1  # the rounding defect of 2/L the ranks avoid


def test_bounds_in_the_limit():
    n, delta, k, D = 500, 0.05, 3, 2.0
    rad0 = mb.delta_rad(n, 0.0, delta, k, D)
    fat0 = mb.delta_fat(n, 0.0, delta, k, D)
    assert rad0 == pytest.approx(np.sqrt(np.log(2 / delta) / (2 * n)))
    assert fat0 == pytest.approx(np.sqrt(2 * np.log(2 / delta) / n) + 1 / n)
    # continuous at 0, and never the 1/n of the literal formula
    assert mb.delta_fat(n, 1e-12, delta, k, D) == pytest.approx(fat0)
    assert mb.delta_rad(n, 1e-12, delta, k, D) == pytest.approx(rad0)
    assert mb.complexity("min", n, 0.0, delta, k, D) == pytest.approx(min(rad0, fat0))
    assert np.all(np.diff(mb.delta_fat(n, np.linspace(0, 1, 50), delta, k, D)) >= 0)


def _digits_pairs():
    from mlgeom.metric_nn.spaces import pairwise_distances
    from mlgeom.metric_nn.tasks import digits_task

    t = digits_task(120, 0.2, 0)
    D = pairwise_distances(t.X_train, metric="euclidean")
    return ConflictPairs.from_distances(D / D.max(), t.y_train)


def test_digits_candidates_hit_the_ulp_case_and_ranks_count_strictly_below():
    pairs = _digits_pairs()
    L, t = pairs.candidate_ranks(limit=False)
    d_c = np.unique(pairs.d[pairs.d > 0])[::-1]  # the defining distance of each candidate
    # the rank is the number of pairs strictly closer than the defining distance (eq. 12)
    np.testing.assert_array_equal(t, [int(np.sum(pairs.d < d)) for d in d_c])
    ulp = pairs.prefix_length(L) != t
    assert ulp.sum() > 0  # 2/(2/d) > d happens on the digits task (159 of 2,537 candidates)
    # where it happens, recomputing 2/L keeps exactly the defining pair(s) in G_L
    extra = pairs.prefix_length(L[ulp]) - t[ulp]
    np.testing.assert_array_equal(extra, [np.sum(pairs.d == d) for d in d_c[ulp]])


def test_ranks_change_nothing_where_two_over_L_is_exact():
    pairs = _digits_pairs()
    L, t = pairs.candidate_ranks(limit=False)
    ok = pairs.prefix_length(L) == t
    assert ok.sum() > 0.9 * len(L)
    np.testing.assert_array_equal(pairs.m_tilde_at(t[ok]), pairs.m_tilde(L[ok]))
    # at every candidate, the rank gives the graph just above L_c (the next float up)
    above = np.nextafter(L, np.inf) * (1 + 4 * np.finfo(float).eps)
    np.testing.assert_array_equal(pairs.m_tilde_at(t), pairs.m_tilde(above))


def test_probes_are_candidates_of_the_rank_indexed_curve():
    D, y = _instance(3, n=30)
    model = SRMNearestNeighbors("precomputed", ddim=2.0).fit(D, y)
    full = model.q_curve()
    probes = np.sort(model.probes_)
    pos = np.searchsorted(full.L, probes)
    np.testing.assert_array_equal(full.L[pos], probes)  # plot_q_curve reads Q there
    assert model.Q_ == pytest.approx(full.Q[np.searchsorted(full.L, model.L_)])
