import gzip
import shutil

import numpy as np
import pytest
import scipy.sparse as sp

from mlgeom.book.data import DataError
from mlgeom.hierarchical import rcv1 as R
from mlgeom.hierarchical.corpus import CorpusFormatError
from mlgeom.hierarchical.shipped import rcv1_taxonomy, rcv1_topic_names
from tests.hierarchical.fixture_data import (
    HIER,
    PT0,
    PT_LAST_LINE,
    QRELS,
    TRAIN,
    lyrl_plain_root,
    lyrl_root,
    sklearn_rcv1_cache,
)


def test_read_vectors_fixture():
    ids, X = R.read_vectors(TRAIN)
    assert ids.tolist() == [2286, 2287, 2294, 2295, 2296]
    assert X.shape == (5, R.LYRL_N_FEATURES)
    assert X[0, 11] == 0.6 and X[0, 304] == 0.8  # feature ids are 1-based
    assert X[3, R.LYRL_N_FEATURES - 1] == 1.0
    ids2, X2 = R.read_vectors(TRAIN, max_docs=2)
    assert ids2.tolist() == [2286, 2287] and X2.shape[0] == 2


def test_read_vectors_gzip_equals_plain(tmp_path):
    gz = tmp_path / "v.dat.gz"
    gz.write_bytes(gzip.compress(TRAIN.read_bytes()))
    a, b = R.read_vectors(TRAIN), R.read_vectors(gz)
    assert a[0].tolist() == b[0].tolist() and (a[1] != b[1]).nnz == 0


@pytest.mark.parametrize(
    "line, match",
    [
        ("2297  12-0.6", r"v.dat:6: malformed feature '12-0.6'"),
        ("doc  1:0.5", r"v.dat:6: expected '<docid>  <featureid>:<value> ...'"),
        ("2297", r"v.dat:6: document 2297 has no feature"),
        ("2297  0:0.5", r"v.dat:6: feature id 0 outside 1"),
        ("2297  47237:0.5", r"v.dat:6: feature id 47237 outside"),
        ("2297  3:0.5 3:0.1", r"v.dat:6: a feature id appears twice"),
        ("2294  3:1.0", r"v.dat:6: duplicate document id 2294 \(first at line 3\)"),
        ("2290  3:1.0", r"v.dat:6: document id 2290 after 2296: ids must increase"),
        ("2297  3:nan", r"v.dat:6: non-finite"),
    ],
)
def test_malformed_vector_lines(tmp_path, line, match):
    p = tmp_path / "v.dat"
    p.write_text(TRAIN.read_text() + line + "\n")
    with pytest.raises(CorpusFormatError, match=match):
        R.read_vectors(p)


def test_corrupt_gzip_is_a_clear_error(tmp_path):
    gz = tmp_path / "v.dat.gz"
    gz.write_bytes(gzip.compress(TRAIN.read_bytes() * 50)[:-40])
    with pytest.raises(CorpusFormatError, match="unreadable"):
        R.read_vectors(gz)


def test_read_qrels_and_errors(tmp_path):
    G = rcv1_taxonomy()
    topics = R.read_qrels(QRELS, G)
    assert topics[2286] == ["CCAT", "C15", "C151"]
    assert topics[2295] == ["C181"]
    assert 26160 in topics
    assert set(R.read_qrels(QRELS, G, docs=[2286, 2287])) == {2286, 2287}
    for extra, match in [
        ("CXYZ 2286 1", r"q:26: unknown topic code 'CXYZ'"),
        ("CCAT 2286", r"q:26: expected 'TOPIC DOCID 1'"),
        ("CCAT x 1", r"q:26: expected 'TOPIC DOCID 1'"),
        ("CCAT 2286 1", r"q:26: topic CCAT given twice to document 2286"),
    ]:
        p = tmp_path / "q"
        p.write_text(QRELS.read_text() + extra + "\n")
        with pytest.raises(CorpusFormatError, match=match):
            R.read_qrels(p, G)


def _edges(G):
    return {(G.names[i], G.names[G.parent[i]] if G.parent[i] >= 0 else None) for i in range(len(G))}


def test_read_hierarchy_both_formats(tmp_path):
    G, names = R.read_hierarchy(HIER)
    assert G == rcv1_taxonomy()  # same codes, same order, same parents
    assert names == rcv1_topic_names()
    # the rcv1.taxonomy format (parent<TAB>children)
    lines = ["Root\tCCAT\tECAT\tGCAT\tMCAT"]
    for i in range(G.n_nodes):
        kids = G.children(i)
        if kids:
            lines.append("\t".join([G.names[i]] + [G.names[k] for k in kids]))
    p = tmp_path / "rcv1.taxonomy"
    p.write_text("\n".join(lines) + "\n")
    G2, names2 = R.read_hierarchy(p)
    assert _edges(G2) == _edges(G) and names2 == {}
    bad = tmp_path / "h"
    bad.write_text(HIER.read_text() + "parent: CCAT  kid: C99\n")
    with pytest.raises(CorpusFormatError, match=r"h:105: expected 'parent: P  child: C"):
        R.read_hierarchy(bad)
    bad.write_text(HIER.read_text() + "parent: ECAT  child: C11  child-description: twice\n")
    with pytest.raises(CorpusFormatError, match="C11.*two parents"):
        R.read_hierarchy(bad)


def test_load_rcv1_files_first_documents_by_id():
    c = R.load_rcv1_files([TRAIN, PT0], QRELS, n_docs=7)
    assert c.doc_ids.tolist() == [2286, 2287, 2294, 2295, 2296, 26151, 26152]
    G = c.taxonomy
    # 2295 has only C181 in the qrels: closed upward to C18 and CCAT
    assert sorted(G.names[j] for j in c.V[3].indices) == ["C18", "C181", "CCAT"]
    assert G.respects(c.V).all()
    norms = np.sqrt(np.asarray(c.X.multiply(c.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0)
    np.testing.assert_allclose(c.X[1, [0, 46]].toarray(), [[0.28, 0.96]])
    c_all = R.load_rcv1_files([TRAIN, PT0], QRELS, hierarchy_file=HIER, n_docs=9)
    assert c_all.n_docs == 9 and c_all.doc_ids[-1] == 26158
    with pytest.raises(CorpusFormatError, match="hold 9 documents; 10 were asked for"):
        R.load_rcv1_files([TRAIN, PT0], QRELS, n_docs=10)


def test_load_rcv1_files_checks_the_order_of_the_files(tmp_path):
    with pytest.raises(CorpusFormatError, match="not after the last id 26158"):
        R.load_rcv1_files([PT0, TRAIN], QRELS, n_docs=9)
    # an unread later file must not hold earlier documents
    early = tmp_path / "pt1.dat"
    early.write_text("2290  1:1.0\n")
    with pytest.raises(CorpusFormatError, match="starts with document id 2290, not after 2296"):
        R.load_rcv1_files([TRAIN, early], QRELS, n_docs=5)
    # a document without topics: the files do not match
    q = tmp_path / "q"
    q.write_text("".join(s for s in QRELS.read_text().splitlines(True) if " 2287 " not in s))
    with pytest.raises(
        CorpusFormatError, match="have no topic in the qrels file \\(first: 2287\\)"
    ):
        R.load_rcv1_files([TRAIN], q, n_docs=5)


def test_load_rcv1_from_the_manifest_files(tmp_path):
    root, manifest = lyrl_root(tmp_path)
    c = R.load_rcv1(8, root=root, manifest=manifest)
    ref = R.load_rcv1_files([TRAIN, PT0], QRELS, n_docs=8)
    assert c.doc_ids.tolist() == ref.doc_ids.tolist()
    assert (c.X != ref.X).nnz == 0 and (c.V != ref.V).nnz == 0
    shutil.copy(HIER, root / "rcv1" / "rcv1.topics.hier.orig")  # read when present
    assert R.load_rcv1(8, root=root, manifest=manifest).taxonomy == ref.taxonomy
    # a corrupt file fails its checksum (no silent fallback)
    f = root / "rcv1" / "rcv1v2.topics.qrels.gz"
    f.write_bytes(f.read_bytes()[:-3] + b"xyz")
    with pytest.raises(DataError, match="checksum mismatch for rcv1/rcv1v2.topics.qrels.gz"):
        R.load_rcv1(8, root=root, manifest=manifest)
    # one of the files missing: named, with the names it is accepted under
    f.unlink()
    with pytest.raises(DataError) as exc:
        R.load_rcv1(8, root=root, manifest=manifest)
    msg = str(exc.value)
    assert "missing qrels: rcv1/rcv1v2.topics.qrels.gz or rcv1/rcv1v2.topics.qrels or " in msg
    assert "rcv1/rcv1-v2.topics.qrels.gz or rcv1/rcv1-v2.topics.qrels" in msg
    assert "found rcv1/lyrl2004_vectors_train.dat.gz" in msg and "\n" not in msg


def test_load_rcv1_says_how_each_file_was_checked(tmp_path):
    root, manifest = lyrl_root(tmp_path)
    c = R.load_rcv1(8, root=root, manifest=manifest)
    for name in ("lyrl2004_vectors_train.dat.gz", "lyrl2004_vectors_test_pt0.dat.gz",
                 "rcv1v2.topics.qrels.gz"):  # fmt: skip
        assert f"{name} verified" in c.provenance
    # the topics under the JMLR appendix's name, with the published checksum: verified too
    rc = root / "rcv1"
    (rc / "rcv1v2.topics.qrels.gz").rename(rc / "rcv1-v2.topics.qrels.gz")
    c2 = R.load_rcv1(8, root=root, manifest=manifest)
    assert "rcv1-v2.topics.qrels.gz verified" in c2.provenance
    assert (c2.V != c.V).nnz == 0
    # another gzip under that name (no published checksum for it): format-checked
    (rc / "rcv1-v2.topics.qrels.gz").write_bytes(gzip.compress(QRELS.read_bytes(), mtime=1))
    c3 = R.load_rcv1(8, root=root, manifest=manifest)
    assert "rcv1-v2.topics.qrels.gz format-checked" in c3.provenance
    # an uncompressed copy beside the pinned gzip: the gzip is preferred
    shutil.copy(TRAIN, rc / "lyrl2004_vectors_train.dat")
    c4 = R.load_rcv1(8, root=root, manifest=manifest)
    assert "lyrl2004_vectors_train.dat.gz verified" in c4.provenance
    found = R._find_lyrl_files(root, manifest=manifest)
    assert found["train"] == (rc / "lyrl2004_vectors_train.dat.gz", "verified")
    assert set(found) == {"train", "test_pt0", "qrels"}


def test_load_rcv1_reads_the_uncompressed_lyrl_files_and_every_test_part(tmp_path):
    root, manifest = lyrl_plain_root(tmp_path)  # .dat files, rcv1-v2.topics.qrels, pt0..pt3
    rc = root / "rcv1"
    c = R.load_rcv1(10, root=root, manifest=manifest)
    last = tmp_path / "last.dat"
    last.write_text(PT_LAST_LINE)
    ref = R.load_rcv1_files([TRAIN, PT0, last], QRELS, n_docs=10)
    assert c.doc_ids.tolist() == ref.doc_ids.tolist() and c.doc_ids[-1] == 26160
    assert (c.X != ref.X).nnz == 0 and (c.V != ref.V).nnz == 0
    assert c.provenance.count("format-checked") == 6 and "verified" not in c.provenance
    # fewer documents: the later parts are not read, only checked to start after them
    assert R.load_rcv1(6, root=root, manifest=manifest).doc_ids[-1] == 26151
    with pytest.raises(CorpusFormatError, match="the vector files hold 10 documents; 11"):
        R.load_rcv1(11, root=root, manifest=manifest)
    # a part out of order is named
    (rc / "lyrl2004_vectors_test_pt3.dat").write_text("26153  9:1.0\n")
    with pytest.raises(CorpusFormatError, match="test_pt3.dat: first document id 26153"):
        R.load_rcv1(10, root=root, manifest=manifest)
    # a missing part before a present one would skip its documents: refused, named
    (rc / "lyrl2004_vectors_test_pt1.dat").unlink()
    with pytest.raises(DataError, match="missing test_pt1: rcv1/lyrl2004_vectors_test_pt1.dat.gz"):
        R.load_rcv1(6, root=root, manifest=manifest)
    # the training vectors missing: named
    (rc / "lyrl2004_vectors_train.dat").unlink()
    with pytest.raises(DataError, match="missing train: rcv1/lyrl2004_vectors_train.dat.gz or"):
        R.load_rcv1(6, root=root, manifest=manifest)
    # a malformed line of an uncompressed file: its file and line
    (rc / "lyrl2004_vectors_test_pt1.dat").write_text(PT0.read_text().splitlines(True)[2])
    (rc / "lyrl2004_vectors_train.dat").write_text("2286  1:0.5\n2287 x\n")
    with pytest.raises(CorpusFormatError, match=r"train.dat:2: malformed feature 'x'"):
        R.load_rcv1(6, root=root, manifest=manifest)


def test_load_rcv1_missing_everything_gives_one_clear_message(tmp_path, monkeypatch):
    monkeypatch.setenv("MLGEOM_DATA", str(tmp_path))
    (tmp_path / "rcv1").mkdir()
    shutil.copy(HIER, tmp_path / "rcv1" / "rcv1.topics.hier.orig")  # the hierarchy alone
    with pytest.raises(DataError) as exc:
        R.load_rcv1(data_home=tmp_path / "no_sklearn_cache")  # the real fetch_rcv1, no cache
    msg = str(exc.value)
    for part in (
        "lyrl2004_vectors_train.dat.gz",
        "lyrl2004_vectors_test_pt0.dat.gz",
        "qrels",
        "uncompressed forms",
        "rcv1/rcv1-v2.topics.qrels[.gz]",
        "NIST",
        "Reuters",
        "JMLR",
        "fetch_rcv1",
        f"MLGEOM_DATA={tmp_path}",
    ):
        assert part in msg
    assert "\n" not in msg


def test_sklearn_fetch_rcv1_never_downloads(tmp_path):
    with pytest.raises(OSError):
        R._fetch_rcv1(tmp_path)


def test_load_rcv1_from_a_real_sklearn_cache(tmp_path):
    # a fetch_rcv1 cache in scikit-learn's own layout, read by the real fetch_rcv1
    home = sklearn_rcv1_cache(tmp_path)
    empty = tmp_path / "data"
    empty.mkdir()
    c = R.load_rcv1(6, root=empty, data_home=home)
    ref = R.load_rcv1_files([TRAIN, PT0], QRELS, n_docs=6)
    assert c.doc_ids.tolist() == ref.doc_ids.tolist()
    assert abs(c.X - ref.X).max() < 1e-15 and (c.V != ref.V).nnz == 0
    assert "fetch_rcv1" in c.name and c.taxonomy == ref.taxonomy
    assert R.load_rcv1(9, root=empty, data_home=home).doc_ids[-1] == 26158
    with pytest.raises(ValueError, match="n_docs=10 but only 9 document"):
        R.load_rcv1(10, root=empty, data_home=home)
    # the hierarchy file, when present, is the one used
    (empty / "rcv1").mkdir()
    shutil.copy(HIER, empty / "rcv1" / "rcv1.topics.hier.orig")
    assert R.load_rcv1(6, root=empty, data_home=home).taxonomy == ref.taxonomy
    # topic names that are not RCV1-v2's
    import joblib

    names_file = home / "RCV1" / "topics_names_py3.pkl"
    names = joblib.load(names_file)
    names[1] = "XXXX"
    joblib.dump(names, names_file, compress=9)
    with pytest.raises(CorpusFormatError, match="not in the hierarchy: \\['XXXX'\\]"):
        R.load_rcv1(6, root=empty, data_home=home)
    # a partial cache (the topics not converted yet) counts as absent: the one message
    names_file.unlink()
    with pytest.raises(DataError, match="scikit-learn's fetch_rcv1 cache is absent"):
        R.load_rcv1(6, root=empty, data_home=home)


def test_duplicate_ids_across_sources_are_rejected():
    G = rcv1_taxonomy()
    X = sp.csr_matrix(np.eye(3))
    with pytest.raises(CorpusFormatError, match="duplicate document id 5"):
        R.corpus_from_vectors(np.array([5, 6, 5]), X, {5: ["CCAT"], 6: ["CCAT"]}, G)
    X[1, 1] = 0.0
    X.eliminate_zeros()
    with pytest.raises(CorpusFormatError, match="document 6 has an empty vector"):
        R.corpus_from_vectors(np.array([5, 6, 7]), X, {5: ["CCAT"], 6: ["CCAT"]}, G)
