import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from mlgeom.book.data import DataError, load_manifest, sha256, status
from mlgeom.hierarchical import shipped as H
from mlgeom.hierarchical.corpus import label_statistics
from tests.hierarchical.fixture_data import raw_root

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "data" / "hierarchical"
# conftest removes $MLGEOM_DATA for every test; the raw copies are looked up at collection time
RAW_CANDIDATES = [p for p in (os.environ.get("MLGEOM_DATA"), str(ROOT / "data")) if p]


def _raw_root():
    for p in RAW_CANDIDATES:
        st = status(root=p)
        if all(st[k] == "present" for k in ("rcv1-hierarchy", "rcv1-sample", "ohsumed-sample",
                                             "mesh-trees")):  # fmt: skip
            return Path(p)
    return None


@pytest.fixture(autouse=True)
def _fresh_verification():
    H._verified.cache_clear()
    yield
    H._verified.cache_clear()


def test_rcv1_taxonomy():
    G = H.rcv1_taxonomy()
    assert len(G) == 103 and sorted(G.names[r] for r in G.roots) == ["CCAT", "ECAT", "GCAT", "MCAT"]
    # the paper: shallow forest, node shares by path length {0.04, 0.53, 0.42, 0.01}
    assert np.bincount(G.depth).tolist() == [4, 55, 43, 1]
    assert G.ancestors(G.index("C1511")) == tuple(G.index(s) for s in ("C151", "C15", "CCAT"))
    names = H.rcv1_topic_names()
    assert names["C32"] == "ADVERTISING/PROMOTION" and names["C313"] == "MARKET SHARE"
    assert names["M14"] == "COMMODITY MARKETS" and names["GSPO"] == "SPORTS"
    assert set(names) == set(G.names)


def test_rcv1_label_meaning_quirks(tmp_path):
    p = tmp_path / "m"
    p.write_text("MCAT: MARKETS\n\tG15: EUROPEAN COMMUNITY\n\t\tC313: A B C32: D/E\nG15: DUP\n")
    assert H._rcv1_names(p) == {"MCAT": "MARKETS", "G15": "EUROPEAN COMMUNITY", "C313": "A B",
                                "C32": "D/E"}  # fmt: skip


def test_load_rcv1_sample():
    c = H.load_rcv1_sample()
    assert c.n_docs == 2316 and c.n_features == H.N_HASHED
    assert c.taxonomy == H.rcv1_taxonomy()
    norms = np.sqrt(np.asarray(c.X.multiply(c.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0, atol=1e-12)
    assert c.taxonomy.respects(c.V).all()
    # PROVENANCE: 2,316 documents, mean 3.20 labels, 98 of the 103 topics occur
    V = c.V.toarray()
    assert V.sum(axis=1).mean() == pytest.approx(3.2003, abs=1e-4)
    assert (V.sum(axis=0) > 0).sum() == 98
    assert "not" not in c.name and "hashed" in c.provenance and "no ids" in c.provenance


def test_rcv1_label_stats_agree_with_the_shipped_sample():
    c = H.load_rcv1_sample()
    s = H.rcv1_label_stats()
    ref = label_statistics(c.V, c.taxonomy, c.X)
    for key in ("count", "conditional_frequency", "labels_per_doc", "paths_per_doc", "nodes"):
        assert s[key] == ref[key]
    assert s["nnz_per_doc"]["mean"] == pytest.approx(ref["nnz_per_doc"]["mean"])
    assert s["paths_per_doc"]["mean"] == pytest.approx(1.4465, abs=1e-4)


def test_load_ohsumed_sample():
    c = H.load_ohsumed_sample()
    assert c.n_docs == 102 and len(c.taxonomy) == 31
    assert c.taxonomy.respects(c.V).all() and c.V.sum(axis=1).min() >= 1
    assert np.all(np.diff(c.doc_ids) > 0) and c.doc_ids.max() <= 40131
    norms = np.sqrt(np.asarray(c.X.multiply(c.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0, atol=1e-12)
    assert "Random Allocation" in c.taxonomy.names


def test_shipped_files_are_small_listed_and_verified():
    manifest = load_manifest()
    files = manifest[H.DATASET].files
    assert set(files) == {f"hierarchical/{f}" for f in H.FILES.values()}
    readme = (SHIPPED / "README.md").read_text()
    for rel, digest in files.items():
        assert sha256(ROOT / "data" / rel) == digest
        assert f"| `{Path(rel).name}` | `{digest}` |" in readme
    total = sum(p.stat().st_size for p in SHIPPED.iterdir())
    assert total < 5_000_000
    for f in SHIPPED.glob("*.npz"):
        with np.load(f, allow_pickle=False) as z:  # no object arrays
            assert all(z[k].dtype != object for k in z.files)


def test_a_corrupt_shipped_file_fails_its_checksum(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    (root / "data").mkdir(parents=True)
    for name in ("_toc.yml", "pyproject.toml"):
        shutil.copy(ROOT / name, root / name)
    shutil.copy(ROOT / "data" / "manifest.json", root / "data" / "manifest.json")
    shutil.copytree(SHIPPED, root / "data" / "hierarchical")
    monkeypatch.setenv("MLGEOM_ROOT", str(root))
    assert len(H.rcv1_taxonomy()) == 103
    H._verified.cache_clear()
    f = root / "data" / "hierarchical" / H.FILES["rcv1"]
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF  # flip one byte in the middle
    f.write_bytes(bytes(data))
    with pytest.raises(DataError, match="checksum mismatch for hierarchical/rcv1_sample_hashed"):
        H.load_rcv1_sample()
    H._verified.cache_clear()
    f.unlink()
    with pytest.raises(DataError, match="missing hierarchical/rcv1_sample_hashed.npz"):
        H.rcv1_taxonomy()


def test_null_checksum_means_presence_only(tmp_path):
    # the paper-profile corpora have no published checksum (manifest null): presence only
    m = json.loads((ROOT / "data" / "manifest.json").read_text())
    assert all(v is None for v in m["datasets"]["ohsumed-full"]["files"].values())
    manifest = load_manifest()
    (tmp_path / "ohsumed").mkdir()
    from mlgeom.book.data import require

    with pytest.raises(DataError, match="missing ohsumed/ohsumed.87"):
        require("ohsumed-full", manifest=manifest, root=tmp_path)
    for y in (87, 88, 89, 90, 91):
        (tmp_path / "ohsumed" / f"ohsumed.{y}").write_text("anything\n")
    assert require("ohsumed-full", manifest=manifest, root=tmp_path) == tmp_path.resolve()


def test_cli_usage():
    assert H.main([]) == 2
    assert H.main(["build", "--to", "x"]) == 2


def test_build_without_raw_data_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MLGEOM_DATA", str(tmp_path / "nothing"))
    assert H.main(["build", "--out", str(tmp_path / "out")]) == 1
    assert "dataset 'rcv1-hierarchy'" in capsys.readouterr().err


def test_rebuild_is_byte_identical(tmp_path):
    raw = _raw_root()
    if raw is None:
        pytest.skip("raw copies (rcv1, ohsumed, mesh) not under $MLGEOM_DATA or data/")
    out = tmp_path / "rebuilt"
    result = H.build(out, raw)
    assert result["ohsumed"]["documents"] == 102
    for f in [*H.FILES.values(), "README.md"]:
        assert (out / f).read_bytes() == (SHIPPED / f).read_bytes(), f


def test_build_on_fixture_raw_copies(tmp_path):
    # the whole pipeline on tiny raw copies listed by a test manifest (runs without the corpora)
    raw, manifest = raw_root(tmp_path)
    result = H.build(tmp_path / "a", raw, manifest=manifest)
    assert result["ohsumed"]["documents"] == 3 and "vocabulary" not in result["ohsumed"]
    assert set(result["sha256"]) == set(H.FILES.values())
    stats = json.loads((tmp_path / "a" / H.FILES["stats"]).read_text())
    assert stats["n_docs"] == 3 and stats["nodes"] == ["CCAT", "ECAT", "C11", "C12"]
    readme = (tmp_path / "a" / "README.md").read_text()
    assert all(f"`{d}`" in readme for d in result["sha256"].values())
    with np.load(tmp_path / "a" / H.FILES["rcv1"], allow_pickle=False) as z:
        assert all(z[k].dtype != object for k in z.files)
    again = H.build(tmp_path / "b", raw, manifest=manifest)  # byte-identical rebuilds
    assert again["sha256"] == result["sha256"]
    # a raw file changed after the manifest was written fails its checksum
    (raw / "rcv1" / "rcv1.label_meaning").write_text("CCAT: X\n")
    with pytest.raises(DataError, match="checksum mismatch for rcv1/rcv1.label_meaning"):
        H.build(tmp_path / "c", raw, manifest=manifest)


def _missing() -> None:
    raise DataError("the paper's RCV1 task needs rcv1/a.dat under $MLGEOM_DATA;\nget it with: x")


def _fail_loudly() -> None:
    raise AssertionError("load must not be called below the paper profile")


@pytest.mark.parametrize("profile", ["smoke", "book"])
def test_corpus_for_profile_below_paper_never_loads(profile):
    assert H.corpus_for_profile(profile, _fail_loudly, lambda: "sample", "RCV1") == ("sample", None)


def test_corpus_for_profile_paper_loads_or_falls_back_with_one_line():
    assert H.corpus_for_profile("paper", lambda: "full", lambda: "sample", "RCV1") == ("full", None)
    corpus, note = H.corpus_for_profile("paper", _missing, lambda: "sample", "RCV1-v2")
    assert corpus == "sample"
    assert note == (
        "RCV1-v2 skipped, the shipped sample runs instead: the paper's RCV1 task needs "
        "rcv1/a.dat under $MLGEOM_DATA; get it with: x"
    )
    assert "\n" not in note


def test_corpus_for_profile_on_a_machine_without_the_corpora(tmp_path, monkeypatch):
    """The real loaders on an empty $MLGEOM_DATA: the sample, and the loader's message."""
    from mlgeom.hierarchical.ohsumed import load_ohsumed

    monkeypatch.setenv("MLGEOM_DATA", str(tmp_path))
    corpus, note = H.corpus_for_profile(
        "paper", lambda: load_ohsumed()[0], lambda: "sample", "OHSUMED"
    )
    assert corpus == "sample" and note.startswith("OHSUMED skipped")
    assert "ohsumed.87" in note and "\n" not in note


def test_corpus_for_profile_bad_inputs_and_other_errors():
    with pytest.raises(ValueError, match="PROFILE"):
        H.corpus_for_profile("full", _missing, lambda: 0, "x")
    with pytest.raises(ValueError, match="callables"):
        H.corpus_for_profile("paper", "load", lambda: 0, "x")
    with pytest.raises(ValueError, match="name"):
        H.corpus_for_profile("paper", _missing, lambda: 0, "")

    def broken() -> None:
        raise OSError("disk")

    with pytest.raises(OSError, match="disk"):
        H.corpus_for_profile("paper", broken, lambda: 0, "x")
