"""Tests for mlgeom.metric_nn.spaces: distances, metric checks, nets and doubling dimension."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

import mlgeom.metric_nn.spaces as spaces
from mlgeom.metric_nn.index import MetricBallTree
from mlgeom.metric_nn.spaces import (
    PAD,
    _edit_block_reference,
    _edit_distance_matrix_reference,
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


# -- RapidFuzz against the hand-written Wagner-Fischer programme it replaced (issue 16) --------
# Codes whose Python hashes collide (CPython hashes ints modulo 2**61 - 1): a list of ints handed
# to RapidFuzz would be compared by hash, so 0 and 2**61 - 1 would count as the same symbol.
BIG_CODES = [0, 1, 255, 256, 2**31, 2**61 - 1, 2**61, 2**63 - 1]


def _padded(rows, width=None):
    width = max([len(r) for r in rows] + [0]) if width is None else width
    out = np.full((len(rows), width), PAD, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def _random_codes(rng, n, max_len, high):
    lengths = rng.integers(0, max_len + 1, size=n)
    lengths[: min(n, 2)] = 0  # empty strings, always
    return _padded([rng.integers(0, high, size=k) for k in lengths], width=max_len)


def _assert_same_as_reference(A, B=None):
    ours, ref = edit_distance_matrix(A, B), _edit_distance_matrix_reference(A, B)
    assert ours.dtype == ref.dtype == np.float64
    assert ours.shape == ref.shape
    assert ours.tobytes() == ref.tobytes()  # bit-identical


@pytest.mark.parametrize("high", [2, 4, 256, 70_000, 2**63 - 1])
@pytest.mark.parametrize("seed", range(3))
def test_rapidfuzz_matches_the_wagner_fischer_reference(seed, high):
    rng = np.random.default_rng(seed)
    A = _random_codes(rng, 25, 12, high)
    B = _random_codes(rng, 17, 7, high)  # a different padded width
    _assert_same_as_reference(A)  # symmetric path (B omitted)
    _assert_same_as_reference(A, B)
    _assert_same_as_reference(B, A)
    _assert_same_as_reference(A[:1], A)  # one query, as the ball tree asks


def test_rapidfuzz_path_on_encoded_strings_beyond_255_symbols():
    rng = np.random.default_rng(3)
    alphabet = "".join(chr(0x100 + i) for i in range(600))
    strings = ["".join(rng.choice(list(alphabet), size=rng.integers(0, 15))) for _ in range(40)]
    strings += ["", alphabet[-3:], alphabet[:3]]
    codes = encode_strings(strings, alphabet)
    assert codes.max() > 255
    _assert_same_as_reference(codes)
    _assert_same_as_reference(codes[:5], codes)
    ref = [[levenshtein_reference(a, b) for b in strings] for a in strings[:8]]
    np.testing.assert_array_equal(edit_distance_matrix(codes[:8], codes), ref)


def test_codes_with_colliding_python_hashes_stay_distinct():
    assert hash(0) == hash(2**61 - 1)  # why the codes reach RapidFuzz as array('q'), not lists
    A = _padded([[0], [2**61 - 1], [2**63 - 1, 0], [2**61, 1]])
    D = edit_distance_matrix(A)
    np.testing.assert_array_equal(D, [[0, 1, 1, 2], [1, 0, 2, 2], [1, 2, 0, 2], [2, 2, 2, 0]])
    _assert_same_as_reference(A)


def test_edit_distance_matrix_empty_inputs():
    none, three = np.empty((0, 4), dtype=np.int64), np.full((3, 2), PAD, dtype=np.int64)
    assert edit_distance_matrix(none).shape == (0, 0)
    assert edit_distance_matrix(none, three).shape == (0, 3)
    assert edit_distance_matrix(three, none).shape == (3, 0)
    np.testing.assert_array_equal(edit_distance_matrix(np.empty((3, 0), dtype=int)), 0.0)
    for A, B in [(none, three), (three, none), (three, None), (np.empty((3, 0), int), three)]:
        _assert_same_as_reference(A, B)


def test_edit_block_reference_on_hand_cases():
    codes = encode_strings(["kitten", "sitting", "", "flaw", "lawn"])
    la = (codes != PAD).sum(axis=1)
    i, j = np.array([0, 2, 0, 3]), np.array([1, 1, 2, 4])
    out = _edit_block_reference(codes[i], la[i], codes[j], la[j])
    np.testing.assert_array_equal(out, [3, 7, 6, 2])


def test_edit_distance_matrix_runs_rapidfuzz_on_one_thread(monkeypatch):
    seen = []
    real = spaces.rf_cdist

    def spy(*args, **kwargs):
        seen.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(spaces, "rf_cdist", spy)
    edit_distance_matrix(encode_strings(["ab", "ba", ""]))
    assert seen and seen[0]["workers"] == 1


code_rows = st.lists(
    st.lists(st.sampled_from(BIG_CODES) | st.integers(0, 2**63 - 1), max_size=8), max_size=6
)


@settings(max_examples=60, deadline=None)
@given(code_rows, code_rows)
def test_rapidfuzz_matches_reference_property(rows_a, rows_b):
    A, B = _padded(rows_a), _padded(rows_b)
    _assert_same_as_reference(A)
    _assert_same_as_reference(A, B)


def test_ball_tree_on_edit_distance_finds_the_reference_nearest_distances():
    rng = np.random.default_rng(4)
    strings = ["".join(rng.choice(list("ACGT"), size=rng.integers(0, 12))) for _ in range(120)]
    codes = encode_strings(strings, "ACGT")
    X, Q = codes[:90], codes[90:]
    res = MetricBallTree(X, "edit", leaf_size=4).query(Q, eta=0.0)
    np.testing.assert_array_equal(res.distances, _edit_distance_matrix_reference(Q, X).min(axis=1))


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
