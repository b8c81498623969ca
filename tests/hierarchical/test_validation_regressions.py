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


# ---------------------------------------------------------------- issue 34: damaged data
ROOT = Path(__file__).resolve().parents[2]


def _rehashed_project(tmp_path: Path, damage) -> Path:
    """A project whose shipped files ``damage`` altered and whose manifest was re-hashed.

    What a bad ``python -m mlgeom.hierarchical.shipped build`` leaves: the checksums match
    the damaged files, so only the loaders' own checks can catch them.
    """
    import hashlib
    import json
    import shutil

    root = tmp_path / "proj"
    (root / "data").mkdir(parents=True)
    for name in ("_toc.yml", "pyproject.toml"):
        shutil.copy(ROOT / name, root / name)
    shutil.copytree(ROOT / "data" / "hierarchical", root / "data" / "hierarchical")
    damage(root / "data" / "hierarchical")
    manifest = json.loads((ROOT / "data" / "manifest.json").read_text(encoding="utf-8"))
    files = manifest["datasets"]["hierarchical-derived"]["files"]
    for rel in files:
        files[rel] = hashlib.sha256((root / "data" / rel).read_bytes()).hexdigest()
    (root / "data" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


def _truncate_ohsumed_taxonomy(folder: Path) -> None:
    p = folder / "ohsumed_n05715_taxonomy.csv"
    p.write_text("".join(p.read_text(encoding="utf-8").splitlines(True)[:10]), encoding="utf-8")


def test_a_truncated_shipped_taxonomy_is_a_data_error_not_a_segfault(tmp_path):
    """It crashed the interpreter (SIGSEGV in scipy's product): run it in a subprocess."""
    import os
    import subprocess
    import sys

    root = _rehashed_project(tmp_path, _truncate_ohsumed_taxonomy)
    code = (
        "from mlgeom.book.data import DataError\n"
        "from mlgeom.hierarchical.shipped import load_ohsumed_sample\n"
        "try:\n    load_ohsumed_sample()\n"
        "except DataError as exc:\n    print('DataError:', exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "MLGEOM_ROOT": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, f"exit status {out.returncode}: {out.stderr[-500:]}"
    assert out.stdout.startswith("DataError:"), out.stdout + out.stderr
    assert "ohsumed_n05715_sample_hashed.npz" in out.stdout
    assert "column 30, outside 0 … 8" in out.stdout


def _halve(name: str):
    def damage(folder: Path) -> None:
        p = folder / name
        p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])

    return damage


def _binary(name: str):
    def damage(folder: Path) -> None:
        (folder / name).write_bytes(bytes(range(256)) * 4)

    return damage


def _drop_rows(name: str, keep: int):
    def damage(folder: Path) -> None:
        p = folder / name
        p.write_text("".join(p.read_text(encoding="utf-8").splitlines(True)[:keep]))

    return damage


@pytest.mark.parametrize(
    "damage, loader, match",
    [
        (_halve("ohsumed_n05715_sample_hashed.npz"), "load_ohsumed_sample", "not a readable .npz"),
        (_halve("rcv1_sample_hashed.npz"), "load_rcv1_sample", "not a readable .npz"),
        (_binary("ohsumed_n05715_taxonomy.csv"), "load_ohsumed_sample", "not a UTF-8 CSV"),
        (_binary("rcv1_taxonomy.csv"), "rcv1_taxonomy", "not a UTF-8 CSV"),
        (_drop_rows("rcv1_taxonomy.csv", 42), "rcv1_taxonomy", "41 topics .* RCV1-v2 has 103"),
        (_drop_rows("rcv1_taxonomy.csv", 42), "load_rcv1_sample", "41 topics"),
        (_drop_rows("rcv1_taxonomy.csv", 1), "rcv1_topic_names", "has no rows"),
    ],
)
def test_damaged_shipped_files_are_data_errors(tmp_path, monkeypatch, damage, loader, match):
    """A raw BadZipFile, UnicodeDecodeError or a silently smaller taxonomy before (issue 34)."""
    from mlgeom.book.data import DataError
    from mlgeom.hierarchical import shipped

    monkeypatch.setenv("MLGEOM_ROOT", str(_rehashed_project(tmp_path, damage)))
    shipped._verified.cache_clear()
    try:
        with pytest.raises(DataError, match=match):
            getattr(shipped, loader)()
    finally:
        shipped._verified.cache_clear()


def test_a_corpus_refuses_csr_indices_outside_its_shape():
    """scipy does not check them; a product then reads out of bounds."""
    from mlgeom.hierarchical.corpus import HierarchicalCorpus

    G = Taxonomy([-1, 0])
    X = sp.csr_matrix(np.eye(2))
    V = sp.csr_matrix((np.ones(2, dtype=np.int8), np.array([0, 7]), np.array([0, 1, 2])))
    V._shape = (2, 2)  # what sp.csr_matrix((data, indices, indptr), shape=...) builds unchecked
    with pytest.raises(ValueError, match=r"V is not a valid 2 x 2 CSR matrix: column index 7"):
        HierarchicalCorpus(X, V, G, "x", np.arange(2))


def test_an_ohsumed_file_cut_mid_record_is_refused(tmp_path):
    """It loaded, the last record with an empty title and abstract (issue 34)."""
    text = (FIX / "ohsumed" / "ohsumed.87").read_text()
    assert len(O.read_records(FIX / "ohsumed" / "ohsumed.87")) == 6
    cut = text[: text.index("Causality in an invented drug trial")]  # inside record 6's .T
    p = tmp_path / "ohsumed.87"
    for end in (cut, text[: text.index(".T", text.index(".I 6"))]):
        p.write_text(end)
        with pytest.raises(O.CorpusFormatError, match=r"record .I 6 (has no \.T|.*empty)"):
            O.read_records(p)


def test_a_sample_record_cut_to_60_bytes_is_refused(tmp_path):
    """Only require's checksum caught it; a user's own copy has none (issue 34)."""
    import shutil

    shutil.copytree(FIX / "ohsumed" / "sample", tmp_path / "s")
    f = tmp_path / "s" / "File_0001.txt"
    f.write_bytes(f.read_bytes()[:60])
    with pytest.raises(O.CorpusFormatError, match=r"File_0001.txt:1: record .I 1 has no .T"):
        O.read_sample_folder(tmp_path / "s")


def test_a_truncated_rcv1_hierarchy_is_refused(tmp_path):
    """Cut to 40% it built a 41-node taxonomy when the qrels used surviving topics (issue 34)."""
    hier = FIX / "rcv1" / "rcv1.topics.hier.orig"
    lines = hier.read_text().splitlines(True)
    cut = tmp_path / "rcv1.topics.hier.orig"
    cut.write_text("".join(lines[: int(0.4 * len(lines))]))
    with pytest.raises(O.CorpusFormatError, match=r"40 topics .* RCV1-v2 has 103 topics"):
        R.read_hierarchy(cut)
    rc = FIX / "rcv1"
    with pytest.raises(O.CorpusFormatError, match="RCV1-v2 has 103 topics"):
        R.load_rcv1_files(
            [rc / "lyrl2004_vectors_train.dat"],
            rc / "rcv1-v2.topics.qrels",
            hierarchy_file=cut,
            n_docs=2,
        )
    tiny = FIX / "tiny.taxonomy"  # the rcv1.taxonomy format: 4 topics in 1 tree
    with pytest.raises(O.CorpusFormatError, match=r"4 topics in the trees \['CCAT', 'ECAT'\]"):
        R.read_hierarchy(tiny)


# ---------------------------------------------------------------- issue 34: arguments
def test_taxonomy_refuses_a_fractional_parent():
    """Taxonomy([-1, 0.7]) read parent 0."""
    with pytest.raises(TaxonomyError, match="parents must be integers; got 0.7 for node 1"):
        Taxonomy([-1, 0.7])
    with pytest.raises(TaxonomyError, match="parents must be a sequence of integers"):
        Taxonomy(["a", "b"])
    assert Taxonomy([-1, 0.0]) == Taxonomy([-1, 0])


def test_log_tf_idf_refuses_a_string_where_token_lists_are_expected():
    """log_tf_idf("hello world hello") treated each character as a document."""
    from mlgeom.hierarchical.text_vectors import log_tf_idf

    with pytest.raises(TypeError, match="documents must be a sequence of token lists"):
        log_tf_idf("hello world hello")
    with pytest.raises(TypeError, match=r"documents\[1\] must be a sequence of str tokens"):
        log_tf_idf([["cat"], "cat dog"])
    with pytest.raises(TypeError, match=r"documents\[0\] must be a sequence of str tokens"):
        log_tf_idf([[1, 2]])
    with pytest.raises(TypeError, match="stop_words must be a collection of words"):
        log_tf_idf([["cat"]], stop_words="the")
    r = log_tf_idf([iter(["cat", "cat"]), ("cat", "dog")], min_count=1)  # iterators still read
    assert r.vocabulary == ("cat", "dog") and r.X.shape == (2, 2)
