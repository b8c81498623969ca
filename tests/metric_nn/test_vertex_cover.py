"""Tests for mlgeom.metric_nn.vertex_cover: the conflict graph G_L, its matching cover (Sec. 4)."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms import bipartite

from mlgeom.metric_nn.spaces import pairwise_distances
from mlgeom.metric_nn.vertex_cover import (
    ConflictPairs,
    conflict_edges,
    exact_vertex_cover,
    is_vertex_cover,
    matching_cover,
    prune_cover,
)


def conflict_reference(D, y, L):
    """Eq. (12) violations, pair by pair."""
    n = len(y)
    return {(i, j) for i in range(n) for j in range(i + 1, n) if y[i] != y[j] and D[i][j] < 2 / L}


def brute_min_cover(E, n):
    for size in range(n + 1):
        for C in itertools.combinations(range(n), size):
            c = set(C)
            if all(a in c or b in c for a, b in E):
                return size
    raise AssertionError


def random_instance(seed, n=9, k=3):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2))
    return pairwise_distances(X), rng.integers(k, size=n)


@pytest.mark.parametrize("seed", range(10))
def test_conflict_edges_match_reference(seed):
    D, y = random_instance(seed)
    for L in (1.0, 3.0, 10.0):
        E = conflict_edges(D, y, L)
        assert set(map(tuple, E.tolist())) == conflict_reference(D, y, L)
        d = D[E[:, 0], E[:, 1]]
        assert np.all(np.diff(d) >= 0)  # sorted by distance


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.floats(1.0, 20.0))
def test_matching_cover_is_a_cover_within_twice_the_minimum(seed, k, L):
    D, y = random_instance(seed, n=8, k=k)
    E = conflict_edges(D, y, L)
    matching, cover = matching_cover(E, len(y))
    assert is_vertex_cover(E, cover)
    assert cover.sum() == 2 * len(matching)
    m_hat = brute_min_cover(E.tolist(), len(y))
    assert m_hat <= cover.sum() <= 2 * m_hat
    assert exact_vertex_cover(E, len(y)).sum() == m_hat


@pytest.mark.parametrize("seed", range(5))
def test_matching_is_maximal_by_networkx_and_koenig_bounds_it(seed):
    D, y = random_instance(seed, n=30, k=2)
    E = conflict_edges(D, y, 4.0)
    matching, cover = matching_cover(E, len(y))
    G = nx.Graph()
    G.add_nodes_from(range(len(y)))
    G.add_edges_from(map(tuple, E.tolist()))
    assert nx.is_maximal_matching(G, set(map(tuple, matching.tolist())))
    # bipartite (k = 2): minimum cover = maximum matching (König)
    m_hat = len(bipartite.hopcroft_karp_matching(G, {v for v in range(len(y)) if y[v] == 0})) // 2
    assert exact_vertex_cover(E, len(y)).sum() == m_hat
    assert m_hat <= cover.sum() <= 2 * m_hat


def test_hand_case():
    # points 0, 1/8, 1/2 on a line with labels a, b, a; L = 4 -> threshold 2/L = 0.5: both
    # bichromatic pairs are edges, (0, 1) first (closer); greedy matches it and stops.
    D = pairwise_distances(np.array([[0.0], [0.125], [0.5]]))
    E = conflict_edges(D, [0, 1, 0], 4.0)
    assert E.tolist() == [[0, 1], [1, 2]]
    matching, cover = matching_cover(E, 3)
    assert matching.tolist() == [[0, 1]] and cover.tolist() == [True, True, False]
    # L = 8 -> threshold 0.25: only (0, 1); L = 16 -> threshold 0.125: none (strict <)
    assert conflict_edges(D, [0, 1, 0], 8.0).tolist() == [[0, 1]]
    assert conflict_edges(D, [0, 1, 0], 16.0).tolist() == []


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_m_tilde_is_monotone_and_matches_the_per_L_routine(seed):
    D, y = random_instance(seed, n=12, k=3)
    pairs = ConflictPairs.from_distances(D, y)
    L = np.concatenate([pairs.candidates(), [0.5, 1e3]])
    L.sort()
    m = pairs.m_tilde(L)
    assert np.all(np.diff(m) <= 0)
    for Lv, mv in zip(L, m, strict=True):
        _, cover = matching_cover(conflict_edges(D, y, Lv), len(y))
        assert cover.sum() == mv
        np.testing.assert_array_equal(pairs.cover(Lv), cover)


def test_candidates_are_two_over_bichromatic_distances():
    D, y = random_instance(3, n=6)
    pairs = ConflictPairs.from_distances(D, y)
    ref = sorted({2 / D[i, j] for i in range(6) for j in range(i + 1, 6) if y[i] != y[j]})
    np.testing.assert_allclose(pairs.candidates(), ref)


def test_bad_inputs():
    D, y = random_instance(0, n=4)
    with pytest.raises(ValueError, match="L must be"):
        conflict_edges(D, y, 0.0)
    with pytest.raises(ValueError, match="one label per row"):
        conflict_edges(D, y[:3], 1.0)
    with pytest.raises(
        ValueError, match=r"edges must index vertices 0 … n - 1 = 2 \(n = 3\); got 5"
    ):
        matching_cover([[0, 5]], 3)
    with pytest.raises(ValueError, match="L must be >= 0; got -1"):
        ConflictPairs.from_distances(D, y).m_tilde(-1.0)
    with pytest.raises(ValueError, match=r"t must be integers in \[0, "):
        ConflictPairs.from_distances(D, y).m_tilde_at(10**6)


def _reference_matching(i, j, n):
    """The per-pair Python loop that the compiled greedy matching replaced."""
    match_time = np.full(n, len(i), dtype=np.int64)
    step = np.zeros(len(i) + 1, dtype=np.int64)
    matched = [False] * n
    free = n
    for t, (a, b) in enumerate(zip(i.tolist(), j.tolist(), strict=True)):
        if not matched[a] and not matched[b]:
            matched[a] = matched[b] = True
            match_time[a] = match_time[b] = t
            step[t + 1] = 1
            free -= 2
            if free < 2:
                break
    return match_time, np.cumsum(step)


def _reference_prune(E, c):
    """The per-vertex Python loop that the compiled pruning replaced."""
    c = c.copy()
    adj = [[] for _ in range(len(c))]
    for a, b in E.tolist():
        adj[a].append(b)
        adj[b].append(a)
    for v in np.flatnonzero(c).tolist():
        if all(c[u] for u in adj[v]):
            c[v] = False
    return c


@pytest.mark.parametrize("seed", range(6))
def test_compiled_matching_and_pruning_equal_the_python_loops(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    X = rng.normal(size=(n, 2))
    X[rng.integers(0, n, size=n // 4)] = X[0]  # ties in distance, and pairs at distance 0
    y = rng.integers(0, int(rng.integers(2, 5)), size=n)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    pairs = ConflictPairs.from_distances(D, y)
    match_time, prefix = _reference_matching(pairs.i, pairs.j, n)
    assert np.array_equal(pairs.match_time, match_time)
    assert np.array_equal(pairs.matched_prefix, prefix)
    for t in {0, len(pairs.d) // 3, len(pairs.d)}:
        E = pairs.edges_at(t)
        cover = pairs.cover_at(t)
        assert np.array_equal(prune_cover(E, cover), _reference_prune(E, cover))
    # an arbitrary (non-matching) cover: every vertex
    E = pairs.edges_at(len(pairs.d))
    full = np.ones(n, dtype=bool)
    assert np.array_equal(prune_cover(E, full), _reference_prune(E, full))


def test_pairs_are_ordered_by_distance_then_index():
    rng = np.random.default_rng(11)
    X = rng.integers(0, 3, size=(30, 2)).astype(float)  # many equal distances
    y = rng.integers(0, 3, size=30)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    pairs = ConflictPairs.from_distances(D, y)
    order = np.lexsort((pairs.j, pairs.i, pairs.d))
    assert np.array_equal(order, np.arange(len(pairs.d)))


@pytest.mark.parametrize("seed", range(4))
def test_matching_cover_equals_the_python_loop(seed):
    rng = np.random.default_rng(20 + seed)
    n = int(rng.integers(1, 15))
    E = rng.integers(0, n, size=(int(rng.integers(0, 40)), 2))  # self-loops and repeats included
    matched = [False] * n
    chosen = []
    for t, (a, b) in enumerate(E.tolist()):
        if a != b and not matched[a] and not matched[b]:
            matched[a] = matched[b] = True
            chosen.append(t)
    M, cover = matching_cover(E, n)
    assert np.array_equal(M, E[chosen].reshape(-1, 2)) and np.array_equal(cover, matched)
