"""Tests of mlgeom.hierarchical.taxonomy: forests, edge files, truncation, respects G, closure."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.hierarchical.taxonomy import Taxonomy, TaxonomyError

# Figure 1 of the paper (nodes 1…11 there, 0…10 here)
FIG1 = Taxonomy([-1, 0, 0, 2, 2, -1, 5, 5, 7, 7, 7])


# ----------------------------------------------------------------------------- structure
def test_structure_of_figure1():
    G = FIG1
    assert G.n_nodes == len(G) == 11
    assert G.roots.tolist() == [0, 5]
    assert G.depth.tolist() == [0, 1, 1, 2, 2, 0, 1, 1, 2, 2, 2]
    assert G.max_depth == 2
    assert G.children(7) == (8, 9, 10) and G.children(3) == ()
    assert G.ancestors(9) == (7, 5) and G.ancestors(0) == ()
    assert G.subtree(5) == (5, 6, 7, 8, 9, 10) and G.subtree(4) == (4,)
    assert G.order.tolist() == [0, 5, 1, 2, 6, 7, 3, 4, 8, 9, 10]
    A = G.ancestor_matrix.toarray()
    for i in range(11):
        assert set(np.flatnonzero(A[i])) == set(G.ancestors(i))
    assert "roots=2" in repr(G)


def test_order_is_top_down_for_any_numbering():
    G = Taxonomy([3, 3, 0, -1, 1])  # 3 -> {0, 1}; 0 -> 2; 1 -> 4
    pos = {int(i): k for k, i in enumerate(G.order)}
    for i in range(G.n_nodes):
        for j in G.ancestors(i):
            assert pos[j] < pos[i]


def test_names_index_equality():
    G = Taxonomy([-1, 0], names=["CCAT", "C15"])
    assert G.index("C15") == 1 and G.names == ("CCAT", "C15")
    with pytest.raises(KeyError, match="unknown label 'GCAT'"):
        G.index("GCAT")
    assert G == Taxonomy([-1, 0], names=["CCAT", "C15"])
    assert G != Taxonomy([-1, -1], names=["CCAT", "C15"])


def test_node_index_errors():
    with pytest.raises(IndexError, match="node i = 11 is outside"):
        FIG1.children(11)
    with pytest.raises(TypeError, match="integer"):
        FIG1.ancestors(1.0)
    with pytest.raises(TypeError, match="integer"):
        FIG1.subtree(True)


# ----------------------------------------------------------------------------- invalid forests
def test_cycles_rejected():
    with pytest.raises(TaxonomyError, match="cycle"):
        Taxonomy([1, 2, 0])
    with pytest.raises(TaxonomyError, match="cycle"):
        Taxonomy([0])  # its own parent
    with pytest.raises(TaxonomyError, match="cycle"):
        Taxonomy.from_edges([("A", "B"), ("B", "C"), ("C", "A")])


def test_multiple_parents_rejected():
    with pytest.raises(TaxonomyError, match="'C' has two parents, 'A' and 'B'"):
        Taxonomy.from_edges([("A", "C"), ("B", "C")])
    # the same edge twice is not a second parent
    G = Taxonomy.from_edges([("A", "C"), ("A", "C")])
    assert G.n_nodes == 2


def test_bad_parent_lists_and_names():
    with pytest.raises(TaxonomyError, match="parent of node 1 is 5"):
        Taxonomy([-1, 5])
    with pytest.raises(TaxonomyError, match="empty"):
        Taxonomy([])
    with pytest.raises(TaxonomyError, match="sequence of integers"):
        Taxonomy(["a"])
    with pytest.raises(TaxonomyError, match="appears twice"):
        Taxonomy([-1, 0], names=["A", "A"])
    with pytest.raises(TaxonomyError, match="2 names for 3 nodes"):
        Taxonomy([-1, 0, 0], names=["A", "B"])


def test_unknown_labels():
    with pytest.raises(TaxonomyError, match="parent 'Z' of 'B' is not a node"):
        Taxonomy.from_parent_map({"A": None, "B": "Z"})
    G = Taxonomy.from_parent_map({"A": None, "B": "A"})
    with pytest.raises(KeyError, match="example 1: unknown label 'Q'"):
        G.encode([["A"], ["Q"]])


def test_from_edges_virtual_root_and_isolated_nodes():
    G = Taxonomy.from_edges(
        [("Root", "CCAT"), ("Root", "GCAT"), ("CCAT", "C15"), ("C15", "C151")],
        virtual_root="Root",
        nodes=["MCAT"],
    )
    assert G.names == ("CCAT", "GCAT", "C15", "C151", "MCAT")
    assert G.roots.tolist() == [0, 1, 4]
    assert G.ancestors(G.index("C151")) == (2, 0)
    with pytest.raises(TaxonomyError, match="virtual root 'Root' appears as a child"):
        Taxonomy.from_edges([("A", "Root")], virtual_root="Root")
    with pytest.raises(TaxonomyError, match="empty name"):
        Taxonomy.from_edges([("A", " ")])
    with pytest.raises(TaxonomyError, match="not a \\(parent, child\\) pair"):
        Taxonomy.from_edges([("A", "B", "C")])


# ----------------------------------------------------------------------------- edge files
def test_edge_file_rcv1_format(tmp_path):
    f = tmp_path / "rcv1.taxonomy"
    f.write_text("# comment\nRoot CCAT ECAT\n\nCCAT\tC15 C17\nC15 C151\n", encoding="utf-8")
    G = Taxonomy.from_edge_file(f)
    assert G.names == ("CCAT", "ECAT", "C15", "C17", "C151")
    assert G.parent.tolist() == [-1, -1, 0, 0, 2]


def test_edge_file_format_errors(tmp_path):
    f = tmp_path / "bad.taxonomy"
    f.write_text("Root CCAT\nCCAT\n", encoding="utf-8")
    with pytest.raises(TaxonomyError, match=r"bad.taxonomy:2: expected 'parent child"):
        Taxonomy.from_edge_file(f)
    f.write_text("Root A B\nA C\nB C\n", encoding="utf-8")
    with pytest.raises(TaxonomyError, match=r"bad.taxonomy: node 'C' has two parents"):
        Taxonomy.from_edge_file(f)
    f.write_text("A B\nB A\n", encoding="utf-8")
    with pytest.raises(TaxonomyError, match="cycle"):
        Taxonomy.from_edge_file(f)
    with pytest.raises(FileNotFoundError):
        Taxonomy.from_edge_file(tmp_path / "missing")


# ----------------------------------------------------------------------------- multilabels
def test_truncate_respects_close_upward_by_hand():
    bad = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # Figure 1's caption: 1 -> 2 -> 4 is no path
    good = [1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0]
    assert FIG1.respects([good, bad]).tolist() == [True, False]
    assert FIG1.truncate(bad)[0].astype(int).tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert FIG1.close_upward(bad)[0].astype(int).tolist() == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    leaf = np.zeros(11, int)
    leaf[9] = 1
    assert np.flatnonzero(FIG1.close_upward(leaf)[0]).tolist() == [5, 7, 9]
    assert not FIG1.truncate(leaf)[0].any()
    assert FIG1.respects(np.zeros((1, 11)))[0]  # the empty multilabel respects G


def test_encode_and_sparse_inputs():
    G = Taxonomy.from_edges([("Root", "A"), ("A", "B"), ("Root", "C")], virtual_root="Root")
    M = G.encode([["B"], [], ["C", "A"]], close=True)
    assert sp.issparse(M) and M.dtype == np.int8
    assert M.toarray().tolist() == [[1, 1, 0], [0, 0, 0], [1, 0, 1]]
    assert G.respects(M).all()
    assert G.encode([["B"]]).toarray().tolist() == [[0, 1, 0]]
    np.testing.assert_array_equal(G.truncate(M), G.truncate(M.toarray()))


def test_as_multilabels_errors():
    with pytest.raises(ValueError, match="11 columns"):
        FIG1.truncate(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"Y\[0, 2\] = \S*2\S*; multilabels are 0/1"):
        FIG1.respects([[0, 0, 2] + [0] * 8])


def test_restrict():
    sub, kept = FIG1.restrict([5, 7, 9, 0])
    assert kept.tolist() == [0, 5, 7, 9]
    assert sub.names == ("0", "5", "7", "9")
    assert sub.parent.tolist() == [-1, -1, 1, 2]
    with pytest.raises(TaxonomyError, match="without its parent"):
        FIG1.restrict([9])


# ----------------------------------------------------------------------------- properties
@st.composite
def forest_and_labels(draw):
    n = draw(st.integers(1, 14))
    parents = [draw(st.integers(-1, i - 1)) for i in range(n)]
    perm = draw(st.permutations(range(n)))
    inv = {old: new for new, old in enumerate(perm)}
    relabelled = [-1] * n
    for old, p in enumerate(parents):
        relabelled[inv[old]] = -1 if p < 0 else inv[p]
    rows = draw(st.integers(1, 6))
    Y = draw(
        st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=rows, max_size=rows)
    )
    return Taxonomy(relabelled), np.array(Y, dtype=bool)


def _respects_loop(G, y):
    return all(not y[i] or G.parent[i] < 0 or y[G.parent[i]] for i in range(G.n_nodes))


@settings(max_examples=200, deadline=None)
@given(forest_and_labels())
def test_truncation_properties(case):
    G, Y = case
    T = G.truncate(Y)
    assert G.respects(T).all()  # the G-truncation always respects G
    np.testing.assert_array_equal(G.truncate(T), T)  # idempotent
    assert np.all(T <= Y)  # only removes labels
    # definition: keep y_i iff y_i and every ancestor is 1
    for k in range(Y.shape[0]):
        for i in range(G.n_nodes):
            assert T[k, i] == (Y[k, i] and all(Y[k, j] for j in G.ancestors(i)))
    assert G.respects(Y).tolist() == [_respects_loop(G, y) for y in Y]
    resp = G.respects(Y)
    np.testing.assert_array_equal(T[resp], Y[resp])  # unchanged when Y respects G


@settings(max_examples=200, deadline=None)
@given(forest_and_labels())
def test_close_upward_properties(case):
    G, Y = case
    C = G.close_upward(Y)
    assert G.respects(C).all() and np.all(C >= Y)
    np.testing.assert_array_equal(G.close_upward(C), C)
    np.testing.assert_array_equal(G.truncate(C), C)
    for k in range(Y.shape[0]):
        expected = set(np.flatnonzero(Y[k]))
        for i in np.flatnonzero(Y[k]):
            expected.update(G.ancestors(int(i)))
        assert set(np.flatnonzero(C[k])) == expected
    # depth is 1 + the parent's depth, and every node appears once in order
    assert sorted(G.order.tolist()) == list(range(G.n_nodes))
    for i in range(G.n_nodes):
        p = G.parent[i]
        assert G.depth[i] == (0 if p < 0 else G.depth[p] + 1)
        assert G.depth[i] == len(G.ancestors(i))
