import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.hierarchical.corpus import (
    HierarchicalCorpus,
    _respects,
    chronological_splits,
    label_statistics,
    paths_per_document,
    random_splits,
)
from mlgeom.hierarchical.label_model import HierarchicalLabelModel
from mlgeom.hierarchical.shipped import load_rcv1_sample, rcv1_label_stats, rcv1_taxonomy
from mlgeom.hierarchical.synthetic import synthetic_rcv1_like
from mlgeom.hierarchical.taxonomy import Taxonomy
from mlgeom.random import spawn

# the paper's Figure 1 forest (nodes 1..11 there, 0..10 here)
FIG1 = Taxonomy([-1, 0, 0, 2, 2, -1, 5, 5, 7, 7, 7])


def _corpus(n=10, ids=None):
    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.normal(size=(n, 4)))
    X = sp.csr_matrix(X.multiply(1.0 / np.sqrt(X.multiply(X).sum(axis=1))))
    V = FIG1.encode([["1"]] * n, close=True)
    return HierarchicalCorpus(X, V, FIG1, "toy", np.arange(n) if ids is None else ids)


def test_corpus_validation():
    c = _corpus()
    assert c.n_docs == 10 and c.n_features == 4 and c.V.dtype == np.int8
    assert not c.doc_ids.flags.writeable
    X, V = c.X, c.V
    with pytest.raises(ValueError, match="row 0 of X has norm 2"):
        HierarchicalCorpus(2 * X, V, FIG1, "x", c.doc_ids)
    with pytest.raises(ValueError, match="V must have shape \\(10, 11\\)"):
        HierarchicalCorpus(X, V[:, :5], FIG1, "x", c.doc_ids)
    with pytest.raises(ValueError, match="doc_ids must have 10 entries"):
        HierarchicalCorpus(X, V, FIG1, "x", c.doc_ids[:3])
    bad = V.tolil()
    bad[3, 0] = 0  # node 1 positive without its parent 0
    with pytest.raises(ValueError, match="multilabel of row 3 \\(\\['1'\\]\\) does not respect"):
        HierarchicalCorpus(X, bad.tocsr(), FIG1, "x", c.doc_ids)
    two = V.copy()
    two.data[0] = 2
    with pytest.raises(ValueError, match="entry 2; multilabels are 0/1"):
        HierarchicalCorpus(X, two, FIG1, "x", c.doc_ids)
    sub = c.subset(np.array([True, False] * 5))
    assert sub.n_docs == 5 and sub.doc_ids.tolist() == [0, 2, 4, 6, 8]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=11, max_size=11), min_size=1, max_size=12))
def test_sparse_respects_equals_taxonomy_respects(rows):
    Y = np.array(rows)
    assert _respects(sp.csr_matrix(Y.astype(np.int8)), FIG1).tolist() == FIG1.respects(Y).tolist()


def reference_paths(Y, G):
    out = []
    for row in Y:
        out.append(
            sum(1 for i in range(len(G)) if row[i] and not any(row[c] for c in G.children(i)))
        )
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=11, max_size=11), min_size=1, max_size=12))
def test_paths_and_statistics_match_loops(rows):
    Y = FIG1.close_upward(np.array(rows))
    assert paths_per_document(Y, FIG1).tolist() == reference_paths(Y, FIG1)
    s = label_statistics(Y, FIG1)
    for i in range(11):
        p = FIG1.parent[i]
        den = len(Y) if p < 0 else Y[:, p].sum()
        if den == 0:
            assert s["conditional_frequency"][i] is None
        else:
            assert s["conditional_frequency"][i] == pytest.approx(Y[:, i].sum() / den)
    assert s["paths_per_doc"]["mean"] == pytest.approx(np.mean(reference_paths(Y, FIG1)))


def test_figure1_paths_hand_case():
    # Figure 1: v = (1,1,1,0,0,1,0,1,0,1,0) is the union of 1->2, 1->3, 6->8->10: 3 paths
    v = [1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0]
    assert paths_per_document(v, FIG1).tolist() == [3]
    s = label_statistics([v], FIG1, X=sp.csr_matrix(np.ones((1, 3))))
    assert s["labels_per_doc"]["mean"] == 6 and s["nnz_per_doc"]["mean"] == 3


def test_chronological_splits():
    ids = np.array([50, 10, 40, 20, 30, 60, 0, 90, 80, 70])
    c = _corpus(ids=ids)
    splits = chronological_splits(c, 5)
    groups = [ids[tr] for tr, _ in splits]
    assert [g.tolist() for g in groups] == [[0, 10], [20, 30], [40, 50], [60, 70], [80, 90]]
    for j, (_, te) in enumerate(splits):  # train on j, test on j+1, the 5th with the 1st
        assert ids[te].tolist() == groups[(j + 1) % 5].tolist()
    sizes = [len(tr) for tr, _ in chronological_splits(_corpus(n=11), 5)]
    assert sorted(sizes) == [2, 2, 2, 2, 3]
    with pytest.raises(ValueError, match="n_groups"):
        chronological_splits(c, 1)
    with pytest.raises(ValueError, match="cannot cut 10 documents into 11"):
        chronological_splits(c, 11)


def test_random_splits():
    c = _corpus(n=10)
    a = random_splits(c, 3, 6, seed=1)
    b = random_splits(c, 3, 6, seed=1)
    for (tr, te), (tr2, te2) in zip(a, b, strict=True):
        assert tr.tolist() == tr2.tolist() and te.tolist() == te2.tolist()
        assert len(tr) == 6 and len(te) == 4 and not set(tr) & set(te)
    assert a[0][0].tolist() != a[1][0].tolist()
    assert len(random_splits(c, 2, 6, seed=1, n_test=2)[0][1]) == 2
    with pytest.raises(ValueError, match="leaves no test document"):
        random_splits(c, 1, 10, seed=0)
    with pytest.raises(ValueError, match="exceeds 10 documents"):
        random_splits(c, 1, 6, seed=0, n_test=5)


# ------------------------------------------------------------------ synthetic corpus
N_SMALL = 4000


@pytest.fixture(scope="module")
def small():
    return synthetic_rcv1_like(N_SMALL, seed=3, n_features=5000, nnz=60, return_design=True)


def test_synthetic_corpus_is_valid_and_deterministic(small):
    c, design = small
    assert c.n_docs == N_SMALL and c.n_features == 5000
    assert c.taxonomy == rcv1_taxonomy()
    norms = np.sqrt(np.asarray(c.X.multiply(c.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0, atol=1e-12)
    assert c.taxonomy.respects(c.V).all()
    assert c.doc_ids.tolist() == list(range(N_SMALL))
    again = synthetic_rcv1_like(N_SMALL, seed=3, n_features=5000, nnz=60)
    assert (again.X != c.X).nnz == 0 and (again.V != c.V).nnz == 0
    other = synthetic_rcv1_like(N_SMALL, seed=4, n_features=5000, nnz=60)
    assert (other.V != c.V).nnz > 0
    # non-zeros per document: the target mean within 10%
    assert abs(np.diff(c.X.indptr).mean() - 60) < 6


def test_synthetic_labels_come_from_the_section5_model(small):
    c, design = small
    model = HierarchicalLabelModel(c.taxonomy, design.U)
    # same stream as the generator's label draw (the third child of the seed)
    V = model.sample(c.X, spawn(3, 3)[2])
    assert (sp.csr_matrix(V.astype(np.int8)) != c.V).nnz == 0
    np.testing.assert_allclose(np.linalg.norm(design.U, axis=1), 1.0)
    # expected conditional frequencies by a loop over nodes, from the model's marginals
    M = model.marginals(c.X)
    G = c.taxonomy
    for i in range(len(G)):
        p = G.parent[i]
        den = len(M) if p < 0 else M[:, p].sum()
        assert design.expected_conditional[i] == pytest.approx(M[:, i].sum() / den, rel=1e-9)
    # calibrated exactly (in expectation) wherever the target is reachable
    ok = ~design.clamped
    np.testing.assert_allclose(
        design.expected_conditional[ok], design.target_conditional[ok], atol=1e-9
    )
    # a clamped target is outside what the documents allow: the achieved value errs on its side
    t, e = design.target_conditional, design.expected_conditional
    assert np.all((t[design.clamped] < e[design.clamped]) | (t[design.clamped] > e[design.clamped]))


def test_synthetic_achieved_frequencies_within_sampling_error(small):
    c, design = small
    V = c.V.toarray().astype(bool)
    G = c.taxonomy
    checked = 0
    for i in np.flatnonzero(~design.clamped):
        p = G.parent[i]
        den = len(V) if p < 0 else V[:, p].sum()
        if den < 100:
            continue
        # expected count given the parent draws is not exactly den * target (the parent's
        # positives are correlated with x); 5 binomial standard errors plus 2% slack
        q = design.target_conditional[i]
        assert abs(V[:, i].sum() / den - q) <= 5 * np.sqrt(q * (1 - q) / den) + 0.02, G.names[i]
        checked += 1
    assert checked >= 30


def test_synthetic_targets_default_to_the_real_sample():
    s = rcv1_label_stats()
    c, d = synthetic_rcv1_like(500, seed=0, n_features=1000, return_design=True)
    assert d.target_conditional.tolist() == [x or 0.0 for x in s["conditional_frequency"]]
    # user-given taxonomy, sets and targets (Figure 1 forest)
    sets = FIG1.encode([["1"], ["3"], ["9"], ["6", "4"]], close=True)
    c2, d2 = synthetic_rcv1_like(
        300, seed=1, n_features=200, taxonomy=FIG1, label_sets=sets,
        targets=[0.5] * 11, depth_weights=(1, 1, 1), return_design=True,
    )  # fmt: skip
    assert c2.taxonomy is FIG1 and FIG1.respects(c2.V).all()
    np.testing.assert_allclose(d2.expected_conditional[~d2.clamped], 0.5, atol=1e-9)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_docs": 0}, "n_docs"),
        ({"latent_weight": 1.0}, "latent_weight"),
        ({"latent_weight": 0.0}, "latent_weight must be > 0"),
        ({"bias": -1.0}, "bias"),
        ({"depth_weights": (1.0, 1.0)}, "depth_weights must be 4"),
        ({"targets": [2.0] * 103}, "targets must be 103 frequencies"),
        ({"zipf_exponent": 1.0}, "zipf_exponent must differ from 1"),
        ({"n_features": 50}, "n_features must be at least 105"),
        ({"label_sets": np.zeros((2, 5))}, "label_sets must be"),
    ],
)
def test_synthetic_bad_arguments(kwargs, match):
    args = {"n_docs": 10, "seed": 0, "n_features": 1000} | kwargs
    with pytest.raises(ValueError, match=match):
        synthetic_rcv1_like(**args)


def test_synthetic_rejects_label_sets_that_do_not_respect_g():
    V = load_rcv1_sample().V.tolil()
    V[0, :] = 0
    V[0, rcv1_taxonomy().index("C151")] = 1
    with pytest.raises(ValueError, match="closed upward"):
        synthetic_rcv1_like(10, seed=0, n_features=1000, label_sets=V.tocsr())


@pytest.mark.slow
def test_synthetic_at_the_papers_scale():
    """100,000 documents: statistics against the real sample's (stated tolerances)."""
    c, d = synthetic_rcv1_like(seed=0, return_design=True)
    s = d.achieved
    assert c.n_docs == 100_000 and c.n_features == 47_236
    assert abs(s["nnz_per_doc"]["mean"] - 100) < 5
    # nodes whose target is reachable: achieved within sampling error of the target
    V = c.V.toarray().astype(bool)
    G = c.taxonomy
    for i in np.flatnonzero(~d.clamped):
        p = G.parent[i]
        den = len(V) if p < 0 else V[:, p].sum()
        q = d.target_conditional[i]
        assert abs(V[:, i].sum() / den - q) <= 5 * np.sqrt(q * (1 - q) / den) + 0.01
    # what the model cannot do (documented): paths near the independent-labels value, not 1.45
    assert 1.4 < s["paths_per_doc"]["mean"] < 2.2
    assert d.clamped.sum() <= 30
