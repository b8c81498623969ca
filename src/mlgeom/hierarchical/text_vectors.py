r"""Bag-of-words vectors for the hierarchical-classification corpora (Section 8).

Cesa-Bianchi, Gentile & Zaniboni (2006), Section 8, on OHSUMED (RCV1 "similarly"): *"After
tokenization, we removed all stopwords and also those words that did not occur at least 3 times
in the corpus. Then, we vectorized the documents … with a*
:math:`\log(1+\mathrm{TF})\log(\mathrm{IDF})` *encoding … In both datasets instances have
been normalized to unit length."*

Here, for a document :math:`d` and a word :math:`w` of the kept vocabulary,

.. math::

    x_{d,w} = \log(1 + \mathrm{tf}_{d,w}) \, \log\frac{n}{\mathrm{df}_w},
    \qquad \mathbf x_d \leftarrow \mathbf x_d / \lVert \mathbf x_d \rVert,

with :math:`n` the number of documents and :math:`\mathrm{df}_w` the number containing
:math:`w`. Choices the paper leaves open, made here and documented:

* tokens are maximal runs of ASCII letters, lower-cased (the default lexer of McCallum's BOW
  library, which the paper used, also keeps alphabetic runs);
* the stop list is scikit-learn's English list (the paper does not name its list);
* "occur at least 3 times" counts every occurrence in the corpus (collection frequency);
* a word present in every document gets IDF weight :math:`\log 1 = 0`; a document left with
  no non-zero weight cannot be normalised: :func:`log_tf_idf` reports it and callers drop it.

For the derived data this project ships (:mod:`mlgeom.hierarchical.shipped`) the word features
are *signed-hashed* (:func:`hash_features`): each word is sent to one of ``n_features``
columns with a sign taken from a MurmurHash3 of the word, colliding words add up, and no
vocabulary is kept; together with the loss of word order, of rare words and of stop words,
the vectors do not allow the documents' text to be rebuilt.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
from sklearn.utils import murmurhash3_32

from mlgeom._validation import check_positive_int

__all__ = [
    "STOP_WORDS",
    "TfIdf",
    "hash_features",
    "log_tf_idf",
    "normalize_rows",
    "tokenize",
]

#: scikit-learn's English stop-word list (318 words), frozen.
STOP_WORDS: frozenset[str] = frozenset(ENGLISH_STOP_WORDS)

_TOKEN = re.compile(r"[a-z]+")


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lower-cased runs of ASCII letters.

    Examples
    --------
    >>> tokenize("Blood-flow and surface-induced thrombosis (1987).")
    ['blood', 'flow', 'and', 'surface', 'induced', 'thrombosis']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__} {text!r:.60}")
    return _TOKEN.findall(text.lower())


def normalize_rows(X: sp.csr_matrix) -> sp.csr_matrix:
    """Return a copy of ``X`` (CSR, float64) with every non-zero row scaled to unit length."""
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    X.data *= np.repeat(scale, np.diff(X.indptr))
    return X


@dataclass(frozen=True)
class TfIdf:
    """Result of :func:`log_tf_idf`.

    Attributes
    ----------
    X : scipy.sparse.csr_matrix
        ``(n_docs, n_words)`` float64; unit-norm rows except the empty ones.
    vocabulary : tuple of str
        The kept words, sorted; column ``j`` of ``X`` is ``vocabulary[j]``.
    nonempty : numpy.ndarray
        ``(n_docs,)`` bool: whether the row has a non-zero weight (callers drop the others).
    """

    X: sp.csr_matrix
    vocabulary: tuple[str, ...]
    nonempty: np.ndarray


def _token_lists(documents: Any) -> list[Sequence[str]]:
    """``documents`` as a list of token sequences, or a ``TypeError`` naming the bad one."""
    try:
        docs = list(documents)
    except TypeError:
        raise TypeError(
            f"documents must be a sequence of token lists; got {documents!r:.60}"
        ) from None
    for k, doc in enumerate(docs):
        ok = not isinstance(doc, str | bytes)
        if ok and not isinstance(doc, list | tuple):
            try:
                docs[k] = doc = list(doc)  # an iterator is read once, here
            except TypeError:
                ok = False
        if not ok or not all(isinstance(t, str) for t in doc):
            raise TypeError(
                f"documents[{k}] must be a sequence of str tokens (tokenize the text first); "
                f"got {doc!r:.60}"
            )
    return docs


def log_tf_idf(
    documents: Sequence[Sequence[str]],
    *,
    min_count: int = 3,
    stop_words: Iterable[str] = STOP_WORDS,
) -> TfIdf:
    r"""Unit-norm :math:`\log(1+\mathrm{TF})\log(\mathrm{IDF})` vectors (Section 8).

    Parameters
    ----------
    documents : sequence of sequences of str
        Tokenised documents (e.g. :func:`tokenize` of each text).
    min_count : int, default=3
        Keep a word only if it occurs at least this many times in the whole corpus
        (Section 8: "words that did not occur at least 3 times in the corpus" are removed).
    stop_words : iterable of str, default=STOP_WORDS
        Words removed before counting.

    Returns
    -------
    TfIdf
        The matrix, the sorted vocabulary, and which rows are non-empty.

    Examples
    --------
    >>> r = log_tf_idf([["cat", "cat", "dog"], ["dog", "emu"], ["cat", "emu", "emu"]], min_count=2)
    >>> r.vocabulary
    ('cat', 'dog', 'emu')
    >>> bool(abs(r.X[0].multiply(r.X[0]).sum() - 1) < 1e-12)
    True
    """
    min_count = check_positive_int(min_count, "min_count")
    if isinstance(documents, str | bytes):
        raise TypeError(
            f"documents must be a sequence of token lists (e.g. [tokenize(text)]), not one "
            f"string; got {documents!r:.60}"
        )
    if isinstance(stop_words, str | bytes):
        raise TypeError(
            f"stop_words must be a collection of words, not one string; got {stop_words!r:.60}"
        )
    stop = frozenset(stop_words)
    documents = _token_lists(documents)
    docs = [[t for t in doc if t not in stop] for doc in documents]
    counts = Counter(t for doc in docs for t in doc)
    vocabulary = tuple(sorted(w for w, c in counts.items() if c >= min_count))
    index = {w: j for j, w in enumerate(vocabulary)}
    indptr, indices, tf = [0], [], []
    for doc in docs:
        row = Counter(index[t] for t in doc if t in index)
        cols = sorted(row)
        indices.extend(cols)
        tf.extend(row[c] for c in cols)
        indptr.append(len(indices))
    n = len(docs)
    cols = np.asarray(indices, dtype=np.int64)
    df = np.bincount(cols, minlength=len(vocabulary)).astype(np.float64)
    idf = np.log(np.divide(n, df, out=np.ones_like(df), where=df > 0))  # log(IDF) = log(n / df)
    data = np.log1p(np.asarray(tf, dtype=np.float64)) * idf[cols]  # log(1 + TF) log(IDF)
    X = sp.csr_matrix((data, cols, np.asarray(indptr, dtype=np.int64)), shape=(n, len(vocabulary)))
    X.eliminate_zeros()
    X = normalize_rows(X)  # "instances have been normalized to unit length"
    nonempty = np.diff(X.indptr) > 0
    nonempty.setflags(write=False)
    return TfIdf(X, vocabulary, nonempty)


#: The largest hash seed (MurmurHash3 takes an unsigned 32-bit seed).
_MAX_SALT = 2**32 - 1


def hash_features(
    X: sp.csr_matrix, vocabulary: Sequence[str], n_features: int, *, salt: int = 0
) -> sp.csr_matrix:
    """Signed feature hashing of word columns, then unit norm again.

    Word ``w`` goes to column ``|h(w)| mod n_features`` with sign ``+1`` if ``h(w) >= 0`` else
    ``-1``, ``h`` = signed 32-bit MurmurHash3 of the UTF-8 word with seed ``salt`` (the scheme
    of scikit-learn's ``FeatureHasher``). Colliding words add up; rows are re-normalised (a row
    whose words all cancel stays zero).

    Parameters
    ----------
    X : scipy.sparse matrix
        ``(n_docs, len(vocabulary))`` word weights.
    vocabulary : sequence of str
        Word of each column of ``X``.
    n_features : int
        Number of hashed columns.
    salt : int, default=0
        Hash seed.

    Returns
    -------
    scipy.sparse.csr_matrix
        ``(n_docs, n_features)`` float64 with sorted indices.
    """
    n_features = check_positive_int(n_features, "n_features")
    salt = check_positive_int(salt, "salt", minimum=0)
    if salt > _MAX_SALT:
        raise ValueError(f"salt must be <= {_MAX_SALT} (an unsigned 32-bit seed); got {salt}")
    if X.shape[1] != len(vocabulary):
        raise ValueError(
            f"X has {X.shape[1]} columns but the vocabulary has {len(vocabulary)} words"
        )
    h = np.array([murmurhash3_32(w, seed=int(salt)) for w in vocabulary], dtype=np.int64)
    cols = np.abs(h) % n_features
    signs = np.where(h >= 0, 1.0, -1.0)
    H = sp.csr_matrix(
        (signs, (np.arange(len(vocabulary)), cols)), shape=(len(vocabulary), n_features)
    )
    X64 = sp.csr_matrix(X, dtype=np.float64)
    out = sp.csr_matrix(X64 @ H)
    # Words that cancel exactly in exact arithmetic leave rounding residue (~1e-17), which
    # re-normalising would blow up to a unit vector: a row whose hashed norm is below 1e-12 of
    # its input norm has cancelled, and stays zero.
    norm_in = np.sqrt(np.asarray(X64.multiply(X64).sum(axis=1)).ravel())
    norm_out = np.sqrt(np.asarray(out.multiply(out).sum(axis=1)).ravel())
    cancelled = norm_out <= 1e-12 * norm_in
    if cancelled.any():
        out = sp.csr_matrix(sp.diags((~cancelled).astype(np.float64)) @ out)
    out.eliminate_zeros()
    out.sort_indices()
    return normalize_rows(out)
