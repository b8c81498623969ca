import math
from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils import murmurhash3_32

from mlgeom.hierarchical.text_vectors import (
    STOP_WORDS,
    hash_features,
    log_tf_idf,
    normalize_rows,
    tokenize,
)

WORDS = ["alpha", "beta", "gamma", "delta", "eps", "the", "and", "zeta"]


def reference_tf_idf(docs, min_count=3, stop=STOP_WORDS):
    """Loop version of log(1+TF) log(n/DF), unit norm (Section 8)."""
    docs = [[t for t in d if t not in stop] for d in docs]
    counts = Counter(t for d in docs for t in d)
    vocab = sorted(w for w, c in counts.items() if c >= min_count)
    n = len(docs)
    df = {w: sum(1 for d in docs if w in d) for w in vocab}
    rows = []
    for d in docs:
        tf = Counter(t for t in d if t in df)
        row = [math.log(1 + tf[w]) * math.log(n / df[w]) if tf[w] else 0.0 for w in vocab]
        norm = math.sqrt(sum(v * v for v in row))
        rows.append([v / norm for v in row] if norm > 0 else row)
    return vocab, np.array(rows).reshape(n, len(vocab))


def test_tokenize():
    assert tokenize("Blood-flow, 2nd TRIAL: don't!") == ["blood", "flow", "nd", "trial", "don", "t"]
    assert tokenize("") == []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(WORDS), min_size=0, max_size=12), min_size=1, max_size=8),
    st.integers(1, 4),
)
def test_log_tf_idf_matches_loop_reference(docs, min_count):
    r = log_tf_idf(docs, min_count=min_count)
    vocab, ref = reference_tf_idf(docs, min_count)
    assert list(r.vocabulary) == vocab
    np.testing.assert_allclose(r.X.toarray(), ref, rtol=0, atol=1e-12)
    norms = np.sqrt(np.asarray(r.X.multiply(r.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms[r.nonempty], 1.0, atol=1e-12)
    assert np.all(norms[~r.nonempty] == 0)
    assert "the" not in r.vocabulary and "and" not in r.vocabulary  # stop words


def test_log_tf_idf_hand_case():
    # 'cat' 3 times in 2 of 3 docs, 'dog' 2 times: with min_count=3 only 'cat' survives
    r = log_tf_idf([["cat", "cat", "dog"], ["dog"], ["cat", "emu"]], min_count=3)
    assert r.vocabulary == ("cat",)
    np.testing.assert_allclose(r.X.toarray().ravel(), [1.0, 0.0, 1.0])
    assert r.nonempty.tolist() == [True, False, True]
    # a word in every document has log(IDF) = 0: the document is empty
    r = log_tf_idf([["cat"], ["cat"], ["cat"]], min_count=1)
    assert not r.nonempty.any()
    with pytest.raises(ValueError, match="min_count"):
        log_tf_idf([["a"]], min_count=0)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(WORDS + [f"w{i}" for i in range(30)]), max_size=15),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([1, 2, 7, 64]),
)
def test_hash_features_matches_loop_reference(docs, n_features):
    r = log_tf_idf(docs, min_count=1)
    H = hash_features(r.X, r.vocabulary, n_features, salt=5).toarray()
    Xd = r.X.toarray()
    ref = np.zeros((len(docs), n_features))
    for j, w in enumerate(r.vocabulary):
        h = murmurhash3_32(w, seed=5)
        ref[:, abs(h) % n_features] += (1.0 if h >= 0 else -1.0) * Xd[:, j]
    norms = np.linalg.norm(ref, axis=1)
    ref[norms > 1e-12] /= norms[norms > 1e-12, None]
    ref[norms <= 1e-12] = 0.0
    np.testing.assert_allclose(H, ref, atol=1e-9)


def test_hash_features_is_deterministic_and_validates():
    r = log_tf_idf([["alpha", "beta", "gamma"], ["beta", "delta"]], min_count=1)
    a = hash_features(r.X, r.vocabulary, 16)
    b = hash_features(r.X, r.vocabulary, 16)
    assert (a != b).nnz == 0
    assert a.has_sorted_indices
    c = hash_features(r.X, r.vocabulary, 16, salt=1)
    assert (a != c).nnz > 0  # the salt changes the columns
    with pytest.raises(ValueError, match="vocabulary has 1 words"):
        hash_features(r.X, ["alpha"], 16)
    with pytest.raises(ValueError, match="n_features"):
        hash_features(r.X, r.vocabulary, 0)


def test_normalize_rows_keeps_zero_rows():
    X = sp.csr_matrix(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_allclose(normalize_rows(X).toarray(), [[0.6, 0.8], [0.0, 0.0]])
    assert X[0, 0] == 3.0  # input untouched


def test_hashed_words_that_cancel_leave_a_zero_row():
    # found by hypothesis: three words in one column whose signed weights cancel up to rounding
    docs = [[], [], [], ["beta"], ["beta", "gamma"], ["alpha", "beta", "gamma"]]
    r = log_tf_idf(docs, min_count=1)
    H = hash_features(r.X, r.vocabulary, 1).toarray()
    Xd = r.X.toarray()
    signed = sum(
        (1.0 if murmurhash3_32(w, seed=0) >= 0 else -1.0) * Xd[:, j]
        for j, w in enumerate(r.vocabulary)
    )
    assert abs(signed[5]) < 1e-12 * np.linalg.norm(Xd[5])  # the last row cancels
    assert H[5, 0] == 0.0
