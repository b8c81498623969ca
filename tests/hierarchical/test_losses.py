"""Tests of mlgeom.hierarchical.losses: Figures 1–2, loop references, orderings, Lemma 1."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.hierarchical.losses import (
    ancestors_agree,
    depth_costs,
    h_loss,
    h_loss_mistakes,
    per_depth_mistakes,
    sibling_costs,
    symmetric_difference_loss,
    zero_one_loss,
)
from mlgeom.hierarchical.taxonomy import Taxonomy

# Figure 1: two trees, nodes 1…11 in the paper (0…10 here): 1 -> {2, 3}, 3 -> {4, 5},
# 6 -> {7, 8}, 8 -> {9, 10, 11}.
FIG1 = Taxonomy([-1, 0, 0, 2, 2, -1, 5, 5, 7, 7, 7])
FIG1_V = [1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0]  # respects G (caption)
FIG1_BAD = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # does not (caption)

# Figure 2: a one-tree forest with N = 12 nodes. The figure itself is an image; this tree and
# these multilabels are ours, built to match its caption: (a) does not respect G, (b) is its
# G-truncation, (c) respects G, and between (b) and (c) the H-loss is 3, the zero-one loss 1
# and the symmetric difference 4.
#   0 -> {1, 2, 3}; 1 -> {4, 5}; 2 -> {6, 7}; 3 -> {8, 9}; 4 -> {10}; 6 -> {11}
FIG2 = Taxonomy([-1, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 6])


def _ml(nodes, n=12):
    v = np.zeros(n, dtype=int)
    v[list(nodes)] = 1
    return v


FIG2_A = _ml({0, 1, 4, 3, 8, 11, 7})  # 11 and 7 hang below 6 and 2, which are off
FIG2_B = _ml({0, 1, 4, 3, 8})
FIG2_C = _ml({0, 1, 4, 10, 2})


# ------------------------------------------------------------------------- loop references
def h_loss_loop(yhat, v, G, costs=None):
    """Section 3's definition, node by node over explicit ancestor sets."""
    c = np.ones(G.n_nodes) if costs is None else costs
    total = 0.0
    for i in range(G.n_nodes):
        if yhat[i] != v[i] and all(yhat[j] == v[j] for j in G.ancestors(i)):
            total += c[i]
    return total


def h_loss_paths(yhat, v, G):
    """The second definition of Section 3: walk every root-to-leaf path, stop at the first
    disagreement, count each node once."""
    charged = set()
    leaves = [i for i in range(G.n_nodes) if not G.children(i)]
    for leaf in leaves:
        path = list(reversed(G.ancestors(leaf))) + [leaf]
        for i in path:
            if yhat[i] != v[i]:
                charged.add(i)
                break
    return float(len(charged))


def table2_loop(yhat, v, G):
    fp = np.zeros(G.n_nodes, int)
    fn = np.zeros(G.n_nodes, int)
    for i in range(G.n_nodes):
        if all(yhat[j] == v[j] == 1 for j in G.ancestors(i)):
            fp[i] += yhat[i] == 1 and v[i] == 0
            fn[i] += yhat[i] == 0 and v[i] == 1
    return fp, fn


# ------------------------------------------------------------------------- hand-computed cases
def test_figure1_caption():
    assert FIG1.respects([FIG1_V, FIG1_BAD]).tolist() == [True, False]
    # truncating the bad multilabel drops node 4 (index 3): its parent 3 (index 2) is off
    np.testing.assert_array_equal(
        FIG1.truncate(FIG1_BAD)[0].astype(int), [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    )
    # predicting the bad multilabel for v: nodes 3 and 6 (indices 2, 5) are the first
    # disagreements on their paths; node 4 (index 3) and 8, 10 (7, 9) sit below them.
    assert h_loss(FIG1_BAD, FIG1_V, FIG1)[0] == 2.0
    assert symmetric_difference_loss(FIG1_BAD, FIG1_V)[0] == 5.0
    assert zero_one_loss(FIG1_BAD, FIG1_V)[0] == 1.0


def test_figure2_caption_values():
    assert not FIG2.respects(FIG2_A)[0]
    np.testing.assert_array_equal(FIG2.truncate(FIG2_A)[0], FIG2_B.astype(bool))
    assert FIG2.respects([FIG2_B, FIG2_C]).all()
    # caption: H-loss 3, zero-one 1, symmetric difference 4
    assert h_loss(FIG2_B, FIG2_C, FIG2)[0] == 3.0
    assert zero_one_loss(FIG2_B, FIG2_C)[0] == 1.0
    assert symmetric_difference_loss(FIG2_B, FIG2_C)[0] == 4.0
    # the checked nodes of panel (d): 10 (missed below 4), 2 (missed) and 3 (spurious); 8 is
    # below the mistake at 3 and is not charged
    fp, fn = h_loss_mistakes(FIG2_B, FIG2_C, FIG2)
    assert np.flatnonzero(fp).tolist() == [3] and np.flatnonzero(fn).tolist() == [2, 10]


def test_identical_multilabels_cost_nothing():
    for f in (zero_one_loss, symmetric_difference_loss):
        assert f(FIG2_C, FIG2_C)[0] == 0.0
    assert h_loss(FIG2_C, FIG2_C, FIG2)[0] == 0.0


def test_costs_remark5():
    c = np.arange(1.0, 13.0)
    # charged nodes are 2, 3, 10 -> c = 3 + 4 + 11
    assert h_loss(FIG2_B, FIG2_C, FIG2, costs=c)[0] == 18.0
    assert h_loss(FIG2_B, FIG2_C, FIG2, costs=np.ones(12))[0] == 3.0


def test_sibling_and_depth_costs():
    np.testing.assert_allclose(
        sibling_costs(FIG1), [1 / 2, 1 / 2, 1 / 2, 1 / 2, 1 / 2, 1 / 2, 1 / 2, 1 / 2] + [1 / 3] * 3
    )
    rec = sibling_costs(FIG1, recursive=True)
    assert rec[0] == 0.5 and rec[2] == 0.25 and rec[3] == 0.125 and rec[8] == pytest.approx(1 / 12)
    # recursive costs of every tree sum to at most 1/|roots| per level
    np.testing.assert_allclose(sibling_costs(FIG2, recursive=True)[[1, 2, 3]], [1 / 3] * 3)
    np.testing.assert_allclose(depth_costs(FIG1, 0.5), 0.5**FIG1.depth)
    np.testing.assert_allclose(depth_costs(FIG1, 1.0), 1.0)
    with pytest.raises(ValueError, match="decay"):
        depth_costs(FIG1, 0.0)
    with pytest.raises(ValueError, match="decay"):
        depth_costs(FIG1, 1.5)


# ------------------------------------------------------------------------- batches, formats
def test_batches_dense_sparse_and_1d_agree():
    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (30, 12))
    V = FIG2.close_upward(rng.integers(0, 2, (30, 12)) * (rng.random((30, 12)) < 0.2))
    for f in (zero_one_loss, symmetric_difference_loss):
        np.testing.assert_array_equal(f(Y, V), f(sp.csr_matrix(Y), sp.csr_matrix(V.astype(int))))
    dense = h_loss(Y, V, FIG2)
    np.testing.assert_array_equal(dense, h_loss(sp.csr_matrix(Y), V, FIG2))
    np.testing.assert_array_equal(
        dense, [h_loss_loop(y, v, FIG2) for y, v in zip(Y, V, strict=True)]
    )
    assert h_loss(Y[0], V[0], FIG2).shape == (1,)


def test_ancestors_agree_loop():
    rng = np.random.default_rng(1)
    Y, V = rng.integers(0, 2, (20, 11)), rng.integers(0, 2, (20, 11))
    A = ancestors_agree(Y, V, FIG1)
    for k in range(20):
        for i in range(11):
            assert A[k, i] == all(Y[k, j] == V[k, j] for j in FIG1.ancestors(i))


def test_bad_inputs():
    with pytest.raises(ValueError, match="same shape"):
        zero_one_loss(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"Yhat\[0, 1\] = 2"):
        h_loss([[0, 2] + [0] * 10], FIG2_C, FIG2)
    with pytest.raises(ValueError, match="12 columns"):
        h_loss(np.zeros((1, 5)), np.zeros((1, 5)), FIG2)
    with pytest.raises(ValueError, match="costs must be finite and > 0"):
        h_loss(FIG2_B, FIG2_C, FIG2, costs=np.r_[np.ones(11), 0.0])
    with pytest.raises(ValueError, match="shape"):
        h_loss(FIG2_B, FIG2_C, FIG2, costs=np.ones(3))
    with pytest.raises(ValueError, match="0/1"):
        symmetric_difference_loss([["a"]], [["b"]])


def test_inputs_unchanged():
    Y = FIG2_A.copy()
    V = FIG2_C.copy()
    h_loss(Y, V, FIG2)
    h_loss_mistakes(Y, V, FIG2)
    np.testing.assert_array_equal(Y, FIG2_A)
    np.testing.assert_array_equal(V, FIG2_C)


# ------------------------------------------------------------------------- properties
@st.composite
def forest_and_labels(draw):
    n = draw(st.integers(1, 12))
    parents = [draw(st.integers(-1, i - 1)) for i in range(n)]
    perm = draw(st.permutations(range(n)))  # relabel so index order is not top-down
    inv = {old: new for new, old in enumerate(perm)}
    relabelled = [-1] * n
    for old, p in enumerate(parents):
        relabelled[inv[old]] = -1 if p < 0 else inv[p]
    G = Taxonomy(relabelled)
    rows = draw(st.integers(1, 5))
    bits = st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=rows, max_size=rows)
    Y = np.array(draw(bits), dtype=bool)
    V = G.close_upward(np.array(draw(bits), dtype=bool))
    return G, Y, V


@settings(max_examples=150, deadline=None)
@given(forest_and_labels())
def test_ordering_zero_one_le_h_le_delta(case):
    G, Y, V = case
    z, h, d = zero_one_loss(Y, V), h_loss(Y, V, G), symmetric_difference_loss(Y, V)
    assert np.all(z <= h) and np.all(h <= d)
    np.testing.assert_array_equal(h, [h_loss_loop(y, v, G) for y, v in zip(Y, V, strict=True)])
    np.testing.assert_array_equal(h, [h_loss_paths(y, v, G) for y, v in zip(Y, V, strict=True)])


@settings(max_examples=150, deadline=None)
@given(forest_and_labels())
def test_lemma1_truncation_never_increases_h_loss(case):
    G, Y, V = case  # V respects G (closed upward)
    assert np.all(h_loss(G.truncate(Y), V, G) <= h_loss(Y, V, G))
    c = np.linspace(0.5, 3.0, G.n_nodes)
    assert np.all(h_loss(G.truncate(Y), V, G, c) <= h_loss(Y, V, G, c) + 1e-12)


@settings(max_examples=150, deadline=None)
@given(forest_and_labels())
def test_table2_counts_loop_and_equal_h_loss_when_respecting(case):
    G, Y, V = case
    fp, fn = h_loss_mistakes(Y, V, G)
    ref = [table2_loop(y, v, G) for y, v in zip(Y, V, strict=True)]
    np.testing.assert_array_equal(fp, sum(r[0] for r in ref))
    np.testing.assert_array_equal(fn, sum(r[1] for r in ref))
    Yt = G.truncate(Y)
    fp, fn = h_loss_mistakes(Yt, V, G)
    assert fp.sum() + fn.sum() == h_loss(Yt, V, G).sum()
    by_depth = per_depth_mistakes(Yt, V, G)
    assert by_depth["FP"].shape == (G.max_depth + 1,)
    assert by_depth["FP"].sum() == fp.sum() and by_depth["FN"].sum() == fn.sum()
    for dep in range(G.max_depth + 1):
        assert by_depth["FN"][dep] == fn[G.depth == dep].sum()
