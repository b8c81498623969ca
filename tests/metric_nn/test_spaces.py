"""Tests for mlgeom.metric_nn.spaces: distances, metric checks, nets and doubling dimension."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

from mlgeom.metric_nn.spaces import (
    PAD,
    check_distance_matrix,
    decode_strings,
    doubling_dimension,
    edit_distance,
    edit_distance_matrix,
    encode_strings,
    greedy_net,
    pairwise_distances,
)


def levenshtein_reference(s, t):
    """Textbook Wagner-Fischer table, one cell at a time."""
    D = [[0] * (len(t) + 1) for _ in range(len(s) + 1)]
    for i in range(len(s) + 1):
        D[i][0] = i
    for j in range(len(t) + 1):
        D[0][j] = j
    for i in range(1, len(s) + 1):
        for j in range(1, len(t) + 1):
            sub = D[i - 1][j - 1] + (s[i - 1] != t[j - 1])
            D[i][j] = min(D[i - 1][j] + 1, D[i][j - 1] + 1, sub)
    return D[len(s)][len(t)]


@pytest.mark.parametrize(
    "s, t, d",
    [("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("", "", 0), ("flaw", "lawn", 2)],
)
def test_edit_distance_textbook_cases(s, t, d):
    assert edit_distance(s, t) == d


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ACG", max_size=7), min_size=1, max_size=6))
def test_edit_distance_matrix_matches_reference(strings):
    codes = encode_strings(strings, "ACG")
    D = edit_distance_matrix(codes)
    ref = [[levenshtein_reference(a, b) for b in strings] for a in strings]
    np.testing.assert_array_equal(D, ref)
    D2 = edit_distance_matrix(codes[:2], codes)  # the non-symmetric path agrees
    np.testing.assert_array_equal(D2, np.asarray(ref)[:2])


def test_encode_decode_roundtrip_and_padding():
    codes = encode_strings(["GA", "", "AGT"], "AGT")
    assert codes.tolist() == [[1, 0, PAD], [PAD, PAD, PAD], [0, 1, 2]]
    assert decode_strings(codes, "AGT") == ["GA", "", "AGT"]
    with pytest.raises(ValueError, match="not in the alphabet"):
        encode_strings(["AX"], "A")
    with pytest.raises(ValueError, match="symbols after the padding"):
        edit_distance_matrix(np.array([[0, PAD, 1]]))


@pytest.mark.parametrize(
    "metric, name", [("euclidean", "euclidean"), ("l1", "cityblock"), ("chebyshev", "chebyshev")]
)
def test_vector_metrics_match_scipy(metric, name):
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    np.testing.assert_allclose(pairwise_distances(A, B, metric), cdist(A, B, name), atol=1e-12)


def test_callable_metric_and_its_checks():
    D = pairwise_distances(np.eye(3), metric=lambda A, B: cdist(A, B))
    np.testing.assert_allclose(D, cdist(np.eye(3), np.eye(3)))
    with pytest.raises(ValueError, match="negative or non-finite"):
        pairwise_distances(np.eye(2), metric=lambda A, B: -np.ones((len(A), len(B))))
    with pytest.raises(ValueError, match="expected"):
        pairwise_distances(np.eye(2), metric=lambda A, B: np.zeros((1, 1)))


def test_bad_inputs_have_clear_errors():
    with pytest.raises(ValueError, match="finite"):
        pairwise_distances(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError, match="metric must be one of"):
        pairwise_distances(np.eye(2), metric="cosine")


@pytest.mark.parametrize(
    "D, message",
    [
        ([[0, 1], [2, 0]], "not symmetric"),
        ([[0, -1], [-1, 0]], "negative distance"),
        ([[1, 1], [1, 0]], "d\\(x, x\\) = 1.0 != 0"),
        ([[0, 1, 5], [1, 0, 1], [5, 1, 0]], "triangle inequality fails"),
        ([[0, np.nan], [np.nan, 0]], "finite"),
        ([[0, 1, 2]], "square"),
    ],
)
def test_check_distance_matrix_rejects_non_metrics(D, message):
    with pytest.raises(ValueError, match=message):
        check_distance_matrix(np.asarray(D, dtype=float))


def test_check_distance_matrix_accepts_metrics():
    rng = np.random.default_rng(1)
    X = rng.random((40, 3))
    for metric in ("euclidean", "l1", "chebyshev"):
        check_distance_matrix(pairwise_distances(X, metric=metric))
    codes = encode_strings(["ACGT", "AGT", "", "TTTT", "ACG"])
    check_distance_matrix(edit_distance_matrix(codes))


def test_greedy_net_is_a_packing_and_a_cover():
    rng = np.random.default_rng(2)
    D = pairwise_distances(rng.random((200, 2)))
    net = greedy_net(D, 0.2)
    assert np.all(D[np.ix_(net, net)][~np.eye(len(net), dtype=bool)] > 0.2)
    assert np.all(D[:, net].min(axis=1) <= 0.2)


def test_doubling_dimension_of_a_segment_and_a_square():
    t = np.linspace(0, 1, 513)[:, None]
    assert doubling_dimension(pairwise_distances(t)) == pytest.approx(1.0)
    g = np.stack(np.meshgrid(np.linspace(0, 1, 33), np.linspace(0, 1, 33)), -1).reshape(-1, 2)
    est = doubling_dimension(pairwise_distances(g, metric="chebyshev"))
    # greedy nets on a lattice undercount at fine scales: a rough estimate, above the segment's
    assert 1.2 <= est <= 2.5
