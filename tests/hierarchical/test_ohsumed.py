import shutil
from pathlib import Path

import numpy as np
import pytest

from mlgeom.book.data import DataError, sha256
from mlgeom.hierarchical import ohsumed as O
from mlgeom.hierarchical.corpus import CorpusFormatError
from tests.hierarchical.fixture_data import manifest_with, mesh_like_trees, ohsumed_root

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
        (".I 1\n.U\n1\n.T\nt\n.P\np\n.I 1\n.U\n2\n.T\nt\n.P\np\n", r"duplicate record id .I 1"),
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
    (root / "ohsumed" / "ohsumed.90").write_text(
        ".I 1\n.U\n5\n.T\nA title.\n.P\nJOURNAL ARTICLE.\n"
    )
    with pytest.raises(CorpusFormatError, match=r"duplicate record id .I 1"):
        O.load_ohsumed(root=root, manifest=manifest)
    # a MeSH file that is not the pinned copy and not of a MeSH file's shape: one line
    (root / "mesh" / "mtrees1997.bin").write_text("Changed;A01\n")
    with pytest.raises(CorpusFormatError) as exc:
        O.load_ohsumed(root=root, manifest=manifest)
    msg = str(exc.value)
    assert "expected the line 'Quality of Health Care;N05.715'" in msg and "\n" not in msg
    assert "not the pinned copy of mesh/mtrees1997.bin (SHA-256 differs)" in msg


def test_check_mtrees_shape(tmp_path):
    mt = O.read_mtrees(mesh_like_trees(tmp_path / "m.bin"))
    assert O._check_mtrees_shape(mt) == {
        "tree_positions": 4 + 16 + 1 + 110,
        "descriptors": 4 + 13 + 1 + 110,  # Quality of Health Care, Diet Surveys, Risk Factors: 2
        "subtree_positions": 12 + 1 + 110,
        "subtree_depth": 4,  # Food Records, N05.715.360.300.100.100
    }
    # the same file with CRLF line ends and a UTF-8 byte-order mark reads the same
    crlf = mesh_like_trees(tmp_path / "c.bin", crlf=True)
    crlf.write_bytes(b"\xef\xbb\xbf" + crlf.read_bytes())
    assert O.read_mtrees(crlf) == mt
    cases = [
        ({**mt, "Odd": ("N05.715.9",)}, r"src: 'N05.715.9' is not a MeSH tree number"),
        (O.read_mtrees(FIX / "mtrees_fixture.bin"),
         r"src: tree number C14.280 \('Heart Diseases'\) has no parent position C14"),
        ({k: v for k, v in mt.items() if k != "Quality of Health Care"} | {"QHC": ("N05.715",)},
         r"gives N05.715 to 'QHC'"),
        (O.read_mtrees(mesh_like_trees(tmp_path / "few.bin", fillers=86)),
         r"src: 99 tree positions below N05.715 \(Quality of Health Care\); a MeSH tree file "
         r"has 100 to 400 there"),
        (O.read_mtrees(mesh_like_trees(tmp_path / "many.bin", fillers=388)), r"401 tree positions"),
    ]  # fmt: skip
    for trees, match in cases:
        with pytest.raises(CorpusFormatError, match=match):
            O._check_mtrees_shape(trees, source="src")
    with pytest.raises(CorpusFormatError, match="it has no N05.715"):
        O._check_mtrees_shape({"Cardiovascular Diseases": ("C14",)}, source="src")
    # bounds: 100 and 400 positions pass
    for fillers in (87, 387):
        trees = O.read_mtrees(mesh_like_trees(tmp_path / f"{fillers}.bin", fillers=fillers))
        assert O._check_mtrees_shape(trees)["subtree_positions"] in (100, 400)
    empty = tmp_path / "empty.bin"
    empty.write_text("\n")
    with pytest.raises(CorpusFormatError, match="empty.bin: no 'Descriptor Name;TreeNumber' line"):
        O.read_mtrees(empty)


def test_load_ohsumed_verified_or_shape_checked_mesh(tmp_path):
    root, manifest = ohsumed_root(tmp_path)
    pinned, rep = O.load_ohsumed(root=root, manifest=manifest)
    assert rep["mesh_check"] == "verified" and rep["mesh_shape"] is None
    assert rep["mesh_file"] == str(root / "mesh" / "mtrees1997.bin")
    assert "(verified)" in pinned.provenance
    # a user's own copy (CRLF line ends, more descriptors): not the pinned checksum, but of a
    # MeSH file's shape; the extra descriptors label no document, so the corpus is the same
    mesh_like_trees(root / "mesh" / "mtrees1997.bin", crlf=True)
    own, rep2 = O.load_ohsumed(root=root, manifest=manifest)
    assert rep2["mesh_check"] == "shape-checked" and rep2["mesh_shape"]["subtree_positions"] == 123
    assert "(shape-checked)" in own.provenance
    assert own.doc_ids.tolist() == pinned.doc_ids.tolist()
    assert own.taxonomy == pinned.taxonomy and (own.V != pinned.V).nnz == 0
    # or named explicitly, anywhere, with no mesh/ folder at all
    elsewhere = mesh_like_trees(tmp_path / "my_mtrees97.txt")
    (root / "mesh" / "mtrees1997.bin").unlink()
    (root / "mesh").rmdir()
    _, rep3 = O.load_ohsumed(mesh_file=elsewhere, root=root, manifest=manifest)
    assert rep3["mesh_check"] == "shape-checked" and rep3["mesh_file"] == str(elsewhere)
    # the pinned copy given explicitly is verified
    _, rep4 = O.load_ohsumed(mesh_file=FIX / "mtrees_fixture.bin", root=root, manifest=manifest)
    assert rep4["mesh_check"] == "verified"
    with pytest.raises(TypeError, match="mesh_file must be a path or None; got int"):
        O.load_ohsumed(mesh_file=1997, root=root, manifest=manifest)
    # a line that is not 'Name;TreeNumber' is named with its file and line
    bad = tmp_path / "bad.bin"
    bad.write_text("Good;A01\nQuality of Health Care N05.715\n")
    with pytest.raises(
        CorpusFormatError, match=r"bad.bin:2: expected 'Descriptor Name;TreeNumber'"
    ):
        O.load_ohsumed(mesh_file=bad, root=root, manifest=manifest)


def test_load_ohsumed_needs_only_the_mesh_year_and_the_years_used(tmp_path):
    root, _ = ohsumed_root(tmp_path)
    digest = sha256(FIX / "mtrees_fixture.bin")
    # the manifest pins 1997 and 2005 (as the project's does); mtrees2005.bin is absent
    manifest = manifest_with(
        tmp_path,
        {"mesh-trees": {"mesh/mtrees1997.bin": digest, "mesh/mtrees2005.bin": "0" * 64}},
    )
    _, rep = O.load_ohsumed(root=root, manifest=manifest)
    assert rep["mesh_check"] == "verified" and rep["records"] == 30
    # only the years asked for are needed
    (root / "ohsumed" / "ohsumed.91").unlink()
    _, rep = O.load_ohsumed(years=(87, 88), root=root, manifest=manifest)
    assert rep["records"] == 12
    with pytest.raises(DataError, match="missing ohsumed/ohsumed.91"):
        O.load_ohsumed(root=root, manifest=manifest)
    # the OHSUMED files present, the MeSH file of the year missing: one message
    (root / "mesh" / "mtrees1997.bin").unlink()
    with pytest.raises(DataError) as exc:
        O.load_ohsumed(years=(87,), root=root, manifest=manifest)
    msg = str(exc.value)
    for part in ("MeSH 1997 tree file mesh/mtrees1997.bin", "missing", "MLGEOM_DATA",
                 "National Library of Medicine", "NLM MeSH terms", "Get it with"):  # fmt: skip
        assert part in msg
    assert "\n" not in msg and "mtrees2005" not in msg
    with pytest.raises(DataError, match=r"MeSH 1997 tree file .*nowhere.bin"):
        O.load_ohsumed(years=(87,), mesh_file=tmp_path / "nowhere.bin", root=root,
                       manifest=manifest)  # fmt: skip
