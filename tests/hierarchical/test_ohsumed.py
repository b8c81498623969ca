import shutil
from pathlib import Path

import numpy as np
import pytest

from mlgeom.book.data import DataError
from mlgeom.hierarchical import ohsumed as O
from mlgeom.hierarchical.corpus import CorpusFormatError
from tests.hierarchical.fixture_data import ohsumed_root

FIX = Path(__file__).parent / "fixtures" / "ohsumed"


def test_strip_heading():
    assert O.strip_heading("Implants, Artificial/*AE") == "Implants, Artificial"
    assert O.strip_heading("Esophageal Diseases/CO/*DI/SU") == "Esophageal Diseases"
    assert O.strip_heading("Regional Blood Flow/*") == "Regional Blood Flow"
    assert O.strip_heading("*Heart") == "Heart"
    assert O.strip_heading("Human") == "Human"


def test_read_records_fixture():
    recs = O.read_records(FIX / "ohsumed.87")
    assert [r.seq_id for r in recs] == [1, 2, 3, 4, 5, 6]
    r = recs[0]
    assert r.medline_ui == 87000001
    assert r.mesh == ("Human", "Risk Factors/*", "Heart Diseases/*ET", "Age Factors")
    assert r.headings == ("Human", "Risk Factors", "Heart Diseases", "Age Factors")
    assert r.title.startswith("Invented risk factors")
    assert r.authors == "Doe J; Roe R."
    assert recs[2].abstract == "" and recs[3].authors == ""
    assert recs[5].headings == ("Causality", "Clinical Trials", "Surveys")


def _write(tmp_path, text, name="ohsumed.88"):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    "text, match",
    [
        ("stray text\n.I 1\n.U\n1\n", r"ohsumed.88:1: text outside a field"),
        (".U\n1\n", r"ohsumed.88:1: field .U before the first '.I'"),
        (".I 1\n.U\n1\n.X\nfoo\n", r"ohsumed.88:4: unknown field marker '.X'"),
        (".I 1\n.U\n1\n.T\na\n.T\nb\n", r"ohsumed.88:6: field .T appears twice"),
        (".I 1\n.T\nno id\n", r"ohsumed.88:1: record .I 1 has no .U"),
        (".I x\n.U\n1\n", r"ohsumed.88:1: record ids must be integers"),
        (".I 1\n.U\n1\n.I 1\n.U\n2\n", r"duplicate record id .I 1"),
        (".I\n.U\n1\n", r"ohsumed.88:1: '.I' without a sequence number"),
    ],
)
def test_malformed_records(tmp_path, text, match):
    with pytest.raises(CorpusFormatError, match=match):
        O.read_records(_write(tmp_path, text))


def test_read_sample_folder(tmp_path):
    recs = O.read_sample_folder(FIX / "sample")
    # two empty files skipped, the exact duplicate in split1/ read once
    assert [r.seq_id for r in recs] == [1, 2, 3, 4, 5, 6]
    assert recs == O.read_records(FIX / "ohsumed.87")
    shutil.copytree(FIX / "sample", tmp_path / "s")
    bad = tmp_path / "s" / "split1" / "File_0002.txt"
    bad.write_bytes(bad.read_bytes().replace(b"87000002", b"87000099"))
    with pytest.raises(CorpusFormatError, match="duplicate record id .I 2 with different content"):
        O.read_sample_folder(tmp_path / "s")
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "File_1.txt").write_text(".U\n1\n")
    with pytest.raises(CorpusFormatError, match=r"File_1.txt:1: expected the record's sequence"):
        O.read_sample_folder(tmp_path / "t")
    with pytest.raises(DataError, match="no record files"):
        O.read_sample_folder(tmp_path / "empty_dir_that_does_not_exist")


def test_read_mtrees_and_errors(tmp_path):
    mt = O.read_mtrees(FIX / "mtrees_fixture.bin")
    assert mt["Diet Surveys"] == ("N05.715.350.075.200", "N05.715.360.300.100")
    assert mt["Quality of Health Care"] == ("N04.761", "N05.715")
    p = tmp_path / "m.bin"
    p.write_text("Good;A01\nno separator here\n")
    with pytest.raises(CorpusFormatError, match=r"m.bin:2: expected 'Descriptor Name;TreeNumber'"):
        O.read_mtrees(p)
    p.write_text("One;A01\nTwo;A01\n")
    with pytest.raises(CorpusFormatError, match="tree number A01 given to 'One' and 'Two'"):
        O.read_mtrees(p)


def test_mesh_subtree_removes_nodes_without_a_unique_path():
    sub = O.mesh_subtree(O.read_mtrees(FIX / "mtrees_fixture.bin"))
    G = sub.taxonomy
    # Diet Surveys has two positions in the subtree; Food Records hangs below one of them
    assert sub.removed == ("Diet Surveys", "Food Records")
    assert set(G.names) == {
        "Epidemiologic Factors",
        "Age Factors",
        "Causality",
        "Risk Factors",
        "Study Characteristics",
        "Clinical Trials",
        "Random Allocation",
        "Surveys",
        "Peer Review",
    }
    roots = sorted(G.names[r] for r in G.roots)
    assert roots == ["Epidemiologic Factors", "Peer Review", "Study Characteristics"]
    assert G.names[G.parent[G.index("Risk Factors")]] == "Causality"
    assert dict(zip(G.names, sub.tree_numbers, strict=True))["Random Allocation"] == (
        "N05.715.360.100.500"
    )
    with pytest.raises(ValueError, match="no MeSH descriptor below"):
        O.mesh_subtree({"A": ("A01",)}, "N05.715")


def test_ohsumed_corpus_on_fixture():
    recs = O.read_records(FIX / "ohsumed.87")
    mt = O.read_mtrees(FIX / "mtrees_fixture.bin")
    corpus, rep = O.ohsumed_corpus(recs, mt, min_count=3)
    # records 1, 2, 3, 6 have subtree headings (4 only the removed Food Records, 5 none);
    # record 3's words all occur fewer than 3 times, so its vector is empty and it is dropped
    assert rep["records_with_subtree_heading"] == 4
    assert rep["dropped_empty_vectors"] == 1
    assert corpus.doc_ids.tolist() == [1, 2, 6]
    G = corpus.taxonomy
    labels = [sorted(G.names[j] for j in corpus.V[k].indices) for k in range(3)]
    assert labels[0] == ["Age Factors", "Causality", "Epidemiologic Factors", "Risk Factors"]
    assert labels[1] == ["Clinical Trials", "Random Allocation", "Study Characteristics"]
    assert labels[2] == [
        "Causality",
        "Clinical Trials",
        "Epidemiologic Factors",
        "Study Characteristics",
        "Surveys",
    ]
    assert "Peer Review" not in G.names  # unused classes dropped
    assert rep["classes"] == G.n_nodes == 8
    assert set(rep["vocabulary"]) >= {"risk", "trial", "drug"}
    norms = np.sqrt(np.asarray(corpus.X.multiply(corpus.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0)
    assert G.respects(corpus.V).all()
    full, rep2 = O.ohsumed_corpus(recs, mt, min_count=3, drop_unused=False)
    assert full.taxonomy.n_nodes == 9


def test_load_ohsumed_missing_gives_one_clear_message(tmp_path):
    with pytest.raises(DataError) as exc:
        O.load_ohsumed(root=tmp_path)
    msg = str(exc.value)
    for part in ("ohsumed/ohsumed.87", "ohsumed.91", "TREC-9", "OHSU", "NLM", "MLGEOM_DATA",
                 "mtrees1997.bin", "experimental"):  # fmt: skip
        assert part in msg


def test_load_ohsumed_full_format_without_checksum(tmp_path):
    # the full collection has no published checksum: presence + the format check
    # (fixture records renumbered per year; the fixture MeSH trees as mtrees1997.bin)
    root, manifest = ohsumed_root(tmp_path)
    corpus, rep = O.load_ohsumed(root=root, manifest=manifest)
    # 4 records per file have a subtree heading; none is empty in the larger corpus
    assert rep["records"] == 30 and corpus.n_docs == 20
    assert corpus.taxonomy.respects(corpus.V).all()
    # a malformed line in one year fails with its file and line
    (root / "ohsumed" / "ohsumed.90").write_text(".I 1\nbad line\n")
    with pytest.raises(CorpusFormatError, match=r"ohsumed.90:2: text outside a field"):
        O.load_ohsumed(root=root, manifest=manifest)
    # the same id in two years is a duplicate
    (root / "ohsumed" / "ohsumed.90").write_text(".I 1\n.U\n5\n")
    with pytest.raises(CorpusFormatError, match=r"duplicate record id .I 1"):
        O.load_ohsumed(root=root, manifest=manifest)
    # a corrupt MeSH file fails its checksum
    (root / "mesh" / "mtrees1997.bin").write_text("Changed;A01\n")
    with pytest.raises(DataError, match="checksum mismatch for mesh/mtrees1997.bin"):
        O.load_ohsumed(root=root, manifest=manifest)
