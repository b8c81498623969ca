"""Tests for mlgeom.metric_nn.srm: the SRM classifier of Section 4, the eq. (16) margin function."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

from mlgeom.metric_nn.spaces import encode_strings, pairwise_distances
from mlgeom.metric_nn.srm import SRMNearestNeighbors, binary_search_crossing, margin_function


def noisy_blobs(seed, n=120, k=3, noise=0.15):
    rng = np.random.default_rng(seed)
    centers = rng.random((k, 2)) * 4
    y = rng.integers(k, size=n)
    X = centers[y] + rng.normal(scale=0.5, size=(n, 2))
    flip = rng.random(n) < noise
    y = y.copy()
    y[flip] = rng.integers(k, size=flip.sum())
    return X, y


def h_reference(dist_row, y_s1, k, L):
    """Eq. (16) term by term, over every point of S_1."""
    out = []
    for y in range(k):
        xi = [2 * (y == yy) - 1 for yy in y_s1]
        lo = min(x + L * d for x, d in zip(xi, dist_row, strict=True))
        hi = max(x - L * d for x, d in zip(xi, dist_row, strict=True))
        out.append(0.5 * (lo + hi))
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=1, max_size=12).map(lambda v: -np.sort(v)),
    st.lists(st.floats(0, 50), min_size=1, max_size=12).map(np.sort),
)
def test_binary_search_is_within_twice_the_minimum(m_desc, delta_asc):
    N = min(len(m_desc), len(delta_asc))
    m = m_desc[:N] - m_desc[:N].min()  # non-increasing, >= 0
    d = delta_asc[:N]
    best, probes = binary_search_crossing(lambda c: m[c], lambda c: d[c], N)
    Q = m + d
    assert Q[best] <= 2 * Q.min() + 1e-12
    assert len(probes) <= 2 * int(np.ceil(np.log2(N + 1))) + 2


def test_binary_search_hand_case():
    m = [10, 6, 3, 1, 0]
    d = [0.5, 1, 2, 4, 8]
    best, _ = binary_search_crossing(lambda c: m[c], lambda c: d[c], 5)
    # first c with m <= d is c = 3 (1 <= 4); compare Q(2) = 5, Q(3) = 5: ties to the smaller
    assert best == 2


@pytest.mark.parametrize("seed", range(4))
def test_margin_function_matches_eq16_reference(seed):
    rng = np.random.default_rng(seed)
    dist = rng.random((5, 7))
    y_s1 = rng.integers(3, size=7)
    got = margin_function(dist, y_s1, 3, 2.5)
    ref = [h_reference(row, y_s1, 3, 2.5) for row in dist]
    np.testing.assert_allclose(got, ref, atol=1e-12)
    assert np.all(np.abs(got) <= 1 + 1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_classifier_is_consistent_with_S1(seed):
    X, y = noisy_blobs(seed)
    clf = SRMNearestNeighbors(ddim=2.0).fit(X, y)
    S1 = clf.support_
    h = clf.decision_function(X[S1])
    np.testing.assert_allclose(h[np.arange(len(S1)), clf.y_support_], 1.0)  # margin >= 1
    np.testing.assert_array_equal(clf.predict(X[S1]), y[S1])
    # no two differently labelled points of S1 closer than 2 / L (eq. 12)
    D = cdist(X[S1], X[S1]) / clf.scale_
    diff = clf.y_support_[:, None] != clf.y_support_[None, :]
    assert np.all(clf.L_ * D[diff] >= 2 - 1e-12)
    assert len(y) - len(S1) <= clf.m_tilde_
    raw = SRMNearestNeighbors(ddim=2.0, prune_cover=False).fit(X, y)
    assert raw.m_tilde_ == len(y) - len(raw.support_) == clf.m_tilde_


def test_pruned_cover_keeps_a_class_of_a_complete_multipartite_graph():
    # 3 + 3 points far apart per class, L tiny: every bichromatic pair conflicts; the matching
    # cover is all 6 points, the pruned cover leaves one class in S_1
    from mlgeom.metric_nn.vertex_cover import matching_cover, prune_cover

    E = [(i, j) for i in range(3) for j in range(3, 6)]
    _, cover = matching_cover(E, 6)
    assert cover.all()
    pruned = prune_cover(E, cover)
    assert pruned.tolist() == [False, False, False, True, True, True]
    with pytest.raises(ValueError, match="must be a vertex cover"):
        prune_cover(E, np.zeros(6, bool))


def test_eq16_prediction_equals_nearest_neighbour_in_S1():
    X, y = noisy_blobs(5)
    clf = SRMNearestNeighbors(ddim=2.0).fit(X, y)
    Xt = np.random.default_rng(9).random((300, 2)) * 4
    np.testing.assert_array_equal(clf.predict_eq16(Xt), clf.predict(Xt))


@pytest.mark.parametrize("seed", range(3))
def test_binary_search_against_exhaustive(seed):
    X, y = noisy_blobs(seed)
    b = SRMNearestNeighbors(ddim=2.0).fit(X, y)
    e = SRMNearestNeighbors(ddim=2.0, search="exhaustive").fit(X, y)
    assert e.Q_ <= b.Q_ + 1e-12
    assert b.Q_ <= 2 * e.Q_ + 1e-12
    assert len(b.probes_) < e.n_candidates_
    np.testing.assert_allclose(b.q_curve().Q.min(), e.Q_)


def test_printed_q_form_keeps_the_whole_sample():
    # As printed (count + probability), one point of m~ outweighs any Delta <= 1 + ...: the
    # search runs to m~ = 0 whenever Delta < 1 there, i.e. plain 1-NN on all of S.
    X, y = noisy_blobs(1, n=60)
    clf = SRMNearestNeighbors(ddim=1.0, q_form="printed", bound="rad").fit(X, y)
    if clf.delta_ < 1:
        assert len(clf.support_) == len(y)


def test_precomputed_callable_and_builtin_agree():
    X, y = noisy_blobs(2)
    Xt = np.random.default_rng(3).random((50, 2)) * 4
    a = SRMNearestNeighbors(ddim=2.0).fit(X, y)
    b = SRMNearestNeighbors("precomputed", ddim=2.0).fit(cdist(X, X), y)
    c = SRMNearestNeighbors(lambda A, B: cdist(A, B), ddim=2.0).fit(X, y)
    assert a.L_ == b.L_ == c.L_
    np.testing.assert_array_equal(a.predict(Xt), b.predict(cdist(Xt, X)))
    np.testing.assert_array_equal(a.predict(Xt), c.predict(Xt))


def test_tree_and_brute_force_agree_and_strings_work():
    X, y = noisy_blobs(4)
    Xt = np.random.default_rng(4).random((80, 2)) * 4
    brute = SRMNearestNeighbors(ddim=2.0).fit(X, y)
    tree = SRMNearestNeighbors(ddim=2.0, algorithm="tree").fit(X, y)
    np.testing.assert_array_equal(brute.predict(Xt), tree.predict(Xt))
    codes = encode_strings(["AAAA", "AAAT", "TTTT", "TTTA", "AATT", "TTAA"], "AT")
    clf = SRMNearestNeighbors("edit", ddim=1.0).fit(codes, ["a", "a", "t", "t", "a", "t"])
    assert set(clf.predict(codes)) <= {"a", "t"}


def test_determinism_and_string_labels():
    X, y = noisy_blobs(6)
    labels = np.array(["x", "y", "z"])[y]
    a = SRMNearestNeighbors(ddim="auto").fit(X, labels)
    b = SRMNearestNeighbors(ddim="auto").fit(X, labels)
    assert a.L_ == b.L_ and a.ddim_ == b.ddim_
    np.testing.assert_array_equal(a.support_, b.support_)
    assert set(a.predict(X)) <= {"x", "y", "z"}


@pytest.mark.parametrize(
    "params, message",
    [
        ({"delta": 0.0}, "delta must be a real number in \\(0, 1\\); got 0.0"),
        ({"delta": 1.2}, "delta must be a real number in \\(0, 1\\); got 1.2"),
        ({"ddim": -1.0}, "ddim must be"),
        ({"bound": "max"}, "bound must be one of"),
        ({"search": "linear"}, "search must be one of"),
        ({"metric": "cosine"}, "metric must be one of"),
        ({"eta": -0.5}, "eta must be a real number >= 0"),
    ],
)
def test_declared_parameter_validation(params, message):
    X, y = noisy_blobs(0, n=20)
    with pytest.raises(ValueError, match=message):
        SRMNearestNeighbors(**params).fit(X, y)


def test_bad_data():
    X, y = noisy_blobs(0, n=20)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="X must be finite; got nan at index \\(3, 1\\)"):
        SRMNearestNeighbors().fit(Xn, y)
    with pytest.raises(ValueError, match="need at least two classes"):
        SRMNearestNeighbors().fit(X, np.zeros(20, int))
    with pytest.raises(ValueError, match="class\\(es\\) \\[7\\] have no training points"):
        SRMNearestNeighbors(classes=[0, 1, 2, 7]).fit(X, y)
    with pytest.raises(ValueError, match="not in classes"):
        SRMNearestNeighbors(classes=[0, 1]).fit(X, np.r_[y[:-1], 2])
    with pytest.raises(ValueError, match="triangle inequality fails"):
        SRMNearestNeighbors(lambda A, B: cdist(A, B) ** 2).fit(X, y)
    D = cdist(X, X)
    D[0, 1] += 1
    with pytest.raises(ValueError, match="not symmetric"):
        SRMNearestNeighbors("precomputed").fit(D, y)
    with pytest.raises(ValueError, match="not fitted"):
        SRMNearestNeighbors().predict(X)
    with pytest.raises(ValueError, match="20 points but y has 19"):
        SRMNearestNeighbors().fit(X, y[:-1])
    with pytest.raises(ValueError, match="diameter 0"):
        SRMNearestNeighbors().fit(np.zeros((4, 2)), [0, 1, 0, 1])


def test_distance_ties_across_classes_are_always_conflicts():
    # two coincident points with different labels are an edge for every L
    X = np.array([[0.0], [0.0], [1.0], [3.0]])
    clf = SRMNearestNeighbors(ddim=1.0, search="exhaustive").fit(X, [0, 1, 0, 1])
    assert clf.m_tilde_ >= 2
    assert pairwise_distances(X).max() == clf.scale_
