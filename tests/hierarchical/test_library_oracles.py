"""Library oracles for :mod:`mlgeom.hierarchical.text_vectors` (issue 16).

Differences of definition, and how the oracle bridges them:

* ``log_tf_idf`` keeps words by their total count in the corpus (Section 8), scikit-learn's
  ``min_df`` counts documents; the oracle counts with ``CountVectorizer`` and drops the
  columns by total count itself. Our IDF is ``log(n/df)`` (no smoothing, no ``+1``) and TF is
  ``log(1 + tf)``, neither of which ``TfidfTransformer`` offers, so the weights are computed
  from the counts and normalised with ``sklearn.preprocessing.normalize``.
* ``hash_features`` hashes weighted columns and re-normalises; ``FeatureHasher`` (seed 0,
  ``alternate_sign=True``) hashes the same words with the same MurmurHash3 scheme, so only
  ``salt=0`` is comparable (``FeatureHasher`` has no seed).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_extraction import FeatureHasher
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize

from mlgeom.hierarchical.text_vectors import STOP_WORDS, hash_features, log_tf_idf, tokenize

TEXTS = [
    "Quality of health care in the hospital and the hospital staff.",
    "Patient care quality; outcome measures of care.",
    "Hospital costs and health insurance, costs of care.",
    "The outcome of surgery: quality assessment in surgery.",
    "Insurance, costs and quality.",
    "Unrelated words only here.",
]


def _docs():
    return [[t for t in tokenize(s) if t not in STOP_WORDS] for s in TEXTS]


@pytest.mark.parametrize("min_count", [1, 2, 3])
def test_log_tf_idf_matches_countvectorizer_counts(min_count):
    docs = _docs()
    ours = log_tf_idf(docs, min_count=min_count)
    cv = CountVectorizer(analyzer=lambda d: d)
    C = cv.fit_transform(docs).astype(float).tocsc()
    words = cv.get_feature_names_out()
    keep = np.flatnonzero(np.asarray(C.sum(axis=0)).ravel() >= min_count)
    C, words = C[:, keep].tocsr(), words[keep]
    assert tuple(words) == ours.vocabulary
    df = np.bincount(C.indices, minlength=C.shape[1])
    W = C.copy()
    W.data = np.log1p(W.data) * np.log(len(docs) / df[W.indices])
    W.eliminate_zeros()
    ref = normalize(W, norm="l2")
    np.testing.assert_allclose(ours.X.toarray(), ref.toarray(), rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(ours.nonempty, np.diff(ref.indptr) > 0)


@pytest.mark.parametrize("n_features", [4, 16, 2**10])
def test_hash_features_matches_featurehasher(n_features):
    tf = log_tf_idf(_docs(), min_count=1)
    ours = hash_features(tf.X, tf.vocabulary, n_features)
    rows = [
        {tf.vocabulary[j]: v for j, v in zip(r.indices, r.data, strict=True)}
        for r in (tf.X.getrow(i) for i in range(tf.X.shape[0]))
    ]
    H = FeatureHasher(n_features=n_features, input_type="dict", alternate_sign=True)
    ref = sp.csr_matrix(normalize(H.transform(rows), norm="l2"))
    np.testing.assert_allclose(ours.toarray(), ref.toarray(), rtol=1e-12, atol=1e-12)
