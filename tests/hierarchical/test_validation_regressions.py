"""Regression tests of issue 16 for :mod:`mlgeom.hierarchical`."""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

from mlgeom.hierarchical import ohsumed as O
from mlgeom.hierarchical import rcv1 as R
from mlgeom.hierarchical.shipped import rcv1_taxonomy
from mlgeom.hierarchical.taxonomy import Taxonomy, TaxonomyError
from mlgeom.hierarchical.text_vectors import tokenize
from tests.hierarchical.fixture_data import fetch_rcv1_bunch, ohsumed_root

FIX = Path(__file__).parent / "fixtures"


def test_read_vectors_refuses_max_docs_zero(tmp_path):
    p = tmp_path / "v.dat"
    p.write_text("2286  1:0.5 3:0.2\n2287  2:0.1\n")
    with pytest.raises(ValueError, match="max_docs must be an integer >= 1; got 0"):
        R.read_vectors(p, n_features=5, max_docs=0)
    ids, _ = R.read_vectors(p, n_features=5, max_docs=1)
    assert ids.tolist() == [2286]


def test_corpus_from_vectors_refuses_more_documents_than_given():
    G = rcv1_taxonomy()
    X = sp.csr_matrix(np.eye(1, 3))
    with pytest.raises(ValueError, match="n_docs=10 but only 1 document"):
        R.corpus_from_vectors(np.array([5]), X, {5: ["CCAT"]}, G, n_docs=10)
    with pytest.raises(ValueError, match="one entry per document"):
        R.corpus_from_vectors(np.array([5, 6]), X, {5: ["CCAT"]}, G)
    assert R.corpus_from_vectors(np.array([5]), X, {5: ["CCAT"]}, G).n_docs == 1


def test_an_edge_may_not_reparent_a_child_of_the_virtual_root(tmp_path):
    p = tmp_path / "tax.txt"
    p.write_text("Root A C\nC A\n")
    with pytest.raises(TaxonomyError, match="node 'A' has two parents, 'Root' and 'C'"):
        Taxonomy.from_edge_file(p)


def test_a_misspelt_parent_is_an_unexpected_root(tmp_path):
    p = tmp_path / "tax.txt"
    p.write_text("Root A B\nA A1\nBB B1\n")
    with pytest.raises(TaxonomyError, match="node 'BB' is a root but not a child of 'Root'"):
        Taxonomy.from_edge_file(p)
    # without a virtual root, the expected roots may be stated
    with pytest.raises(TaxonomyError, match="'BB' is a root but not in roots"):
        Taxonomy.from_edges([("A", "A1"), ("BB", "B1")], roots=["A", "B"])
    G = Taxonomy.from_edges([("A", "A1"), ("B", "B1")], roots=["A", "B"])
    assert G.n_nodes == 4


def test_a_latin1_taxonomy_file_names_the_file(tmp_path):
    p = tmp_path / "tax.txt"
    p.write_bytes("Root A Caf\xe9\n".encode("latin-1"))
    with pytest.raises(TaxonomyError, match=r"tax.txt: not UTF-8 text .*offset 10"):
        Taxonomy.from_edge_file(p)


def test_tokenize_refuses_none():
    with pytest.raises(TypeError, match="text must be a str; got NoneType"):
        tokenize(None)


def test_ohsumed_corpus_blames_min_count_not_the_taxonomy():
    recs = O.read_records(FIX / "ohsumed" / "ohsumed.87")
    mt = O.read_mtrees(FIX / "ohsumed" / "mtrees_fixture.bin")
    with pytest.raises(ValueError, match="min_count=100000 leaves every one of the"):
        O.ohsumed_corpus(recs, mt, min_count=100_000)
    with pytest.raises(ValueError, match="min_count must be an integer >= 1; got 0"):
        O.ohsumed_corpus(recs, mt, min_count=0)


def test_load_ohsumed_checks_years_and_mesh_year_before_reading(tmp_path):
    root, manifest = ohsumed_root(tmp_path)
    # were: DataError "cannot read .../ohsumed.86" (or ohsumed.8 for "87"), a duplicate record
    # id, and "no record has a MeSH heading" for no years
    for years, match in [
        ((86, 87), r"years must hold integers >= 87 and <= 91; got 86.0"),
        ((92,), r"years must hold integers >= 87 and <= 91; got 92.0"),
        ([87.5], r"years must hold integers; got 87.5"),
        ((87, 88, 87), r"years must be distinct; got \[87, 88, 87\]"),
        ("87", r"years must be a sequence of years among 87-91; got '87'"),
        ((), r"years must have at least 1 element"),
    ]:
        with pytest.raises(ValueError, match=match):
            O.load_ohsumed(years=years, root=root, manifest=manifest)
    # were: DataError "cannot read .../mtrees2000.bin" (2005: not in this manifest), and "1997"
    # read mtrees1997.bin silently
    listed = r"mesh_year must be one of the MeSH years the manifest lists \(1997\); got"
    for mesh_year in (2005, 2000, "1997", 1997.0, True):
        with pytest.raises(ValueError, match=listed):
            O.load_ohsumed(mesh_year=mesh_year, root=root, manifest=manifest)
    # the project's manifest lists two MeSH years; the checks come before the data lookup
    with pytest.raises(ValueError, match=r"lists \(1997, 2005\); got 2000"):
        O.load_ohsumed(mesh_year=2000, root=tmp_path / "nothing")
    corpus, rep = O.load_ohsumed(years=[np.int64(88), 87.0], root=root, manifest=manifest)
    assert rep["records"] == 12 and "OHSUMED 88, 87 " in corpus.provenance


def test_corpus_from_sklearn_checks_its_arguments_first():
    bunch, G = fetch_rcv1_bunch(), rcv1_taxonomy()
    with pytest.raises(ValueError, match="n_docs must be an integer >= 1; got '2'"):
        R.corpus_from_sklearn(bunch, G, n_docs="2")  # was: "Cannot specify ',' with 's'."
    with pytest.raises(ValueError, match="n_docs must be an integer >= 1; got None"):
        R.corpus_from_sklearn(bunch, G, n_docs=None)
    with pytest.raises(TypeError, match="taxonomy must be a Taxonomy; got list"):
        R.corpus_from_sklearn(bunch, list(G.names), n_docs=2)
    with pytest.raises(TypeError, match="SimpleNamespace has no target_names"):
        R.corpus_from_sklearn(SimpleNamespace(data=0, target=0, sample_id=0), G, n_docs=2)
    assert R.corpus_from_sklearn(bunch, G, n_docs=2).doc_ids.tolist() == [2286, 2287]
