"""Data folders and results built from ``tests/hierarchical/fixtures``, for tests and domains.

The corpus loaders (``load_rcv1``, ``load_ohsumed`` and ``build`` of
:mod:`mlgeom.hierarchical`) read a data folder whose files a manifest lists; these helpers write
the fixture files under the manifest's names into a given folder, with a copy of the project's
manifest whose entries list them (and their SHA-256). Used by the loaders' tests and by the
valid calls of ``tests/api_domains_hierarchical.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from mlgeom.book.data import Dataset, load_manifest

FIX = Path(__file__).parent / "fixtures"
RCV1 = FIX / "rcv1"
OHSUMED = FIX / "ohsumed"
TRAIN = RCV1 / "lyrl2004_vectors_train.dat"
PT0 = RCV1 / "lyrl2004_vectors_test_pt0.dat"
QRELS = RCV1 / "rcv1-v2.topics.qrels"
HIER = RCV1 / "rcv1.topics.hier.orig"
MANIFEST = Path(__file__).resolve().parents[2] / "data" / "manifest.json"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_with(folder: Path, files: dict[str, dict[str, str | None]]) -> dict[str, Dataset]:
    """The project's manifest with some datasets' files replaced, as ``folder/manifest.json``."""
    m = json.loads(MANIFEST.read_text(encoding="utf-8"))
    for name, listed in files.items():
        m["datasets"][name]["files"] = listed
    p = Path(folder) / "manifest.json"
    p.write_text(json.dumps(m), encoding="utf-8")
    return load_manifest(p)


def lyrl_root(folder: Path) -> tuple[Path, dict[str, Dataset]]:
    """``folder/data``: the LYRL2004 fixtures gzipped under the manifest's names; a manifest."""
    from mlgeom.hierarchical.rcv1 import DATASET

    root = Path(folder) / "data"
    (root / "rcv1").mkdir(parents=True)
    names = {
        "rcv1/lyrl2004_vectors_train.dat.gz": TRAIN,
        "rcv1/lyrl2004_vectors_test_pt0.dat.gz": PT0,
        "rcv1/rcv1v2.topics.qrels.gz": QRELS,
    }
    assert set(load_manifest(MANIFEST)[DATASET].files) == set(names)
    files: dict[str, str | None] = {}
    for rel, src in names.items():
        (root / rel).write_bytes(gzip.compress(src.read_bytes(), mtime=0))
        files[rel] = _digest(root / rel)
    return root, manifest_with(folder, {DATASET: files})


#: A document after the fixture's test part 0 (its topics are in the qrels fixture).
PT_LAST_LINE = "26160  9:1.0\n"


def lyrl_plain_root(folder: Path) -> tuple[Path, dict[str, Dataset]]:
    """``folder/data``: the LYRL2004 fixtures uncompressed under the JMLR appendix's names,
    the test documents spread over ``_test_pt0`` … ``_pt3`` (one more document in pt3), and
    the project's manifest (whose checksums are those of the gzip files: none applies)."""
    root = Path(folder) / "data"
    (root / "rcv1").mkdir(parents=True)
    shutil.copy(TRAIN, root / "rcv1" / TRAIN.name)
    shutil.copy(QRELS, root / "rcv1" / "rcv1-v2.topics.qrels")
    lines = PT0.read_text().splitlines(True)
    parts = [lines[:2], lines[2:3], lines[3:4], [PT_LAST_LINE]]
    for k, part in enumerate(parts):
        (root / "rcv1" / f"lyrl2004_vectors_test_pt{k}.dat").write_text("".join(part))
    return root, load_manifest(MANIFEST)


def sklearn_rcv1_cache(folder: Path) -> Path:
    """``folder/scikit_learn_data``: a ``fetch_rcv1`` cache of the LYRL2004 fixtures.

    The layout scikit-learn's ``fetch_rcv1`` writes after downloading (``RCV1/samples_py3.pkl``
    etc., joblib-compressed): the vectors of the train file then the test file as one CSR
    matrix, the ``uint32`` ids in that order, the ``uint8`` topic matrix with its columns in
    the order of the sorted topic names (all 103), and those names. Read back by the real
    ``fetch_rcv1(data_home=..., download_if_missing=False)``.
    """
    import joblib

    from mlgeom.hierarchical import rcv1 as R
    from mlgeom.hierarchical.shipped import rcv1_taxonomy

    ids1, X1 = R.read_vectors(TRAIN)
    ids2, X2 = R.read_vectors(PT0)
    X = sp.vstack([X1, X2], format="csr")
    ids = np.concatenate([ids1, ids2]).astype(np.uint32)
    topics = R.read_qrels(QRELS, rcv1_taxonomy())
    names = np.array(sorted(rcv1_taxonomy().names), dtype=object)
    col = {s: j for j, s in enumerate(names)}
    y = np.zeros((ids.size, names.size), dtype=np.uint8)
    for r, d in enumerate(ids):
        for t in topics[int(d)]:
            y[r, col[t]] = 1
    home = Path(folder) / "scikit_learn_data"
    (home / "RCV1").mkdir(parents=True)
    joblib.dump(X, home / "RCV1" / "samples_py3.pkl", compress=9)
    joblib.dump(ids, home / "RCV1" / "sample_id_py3.pkl", compress=9)
    joblib.dump(sp.csr_array(y), home / "RCV1" / "sample_topics_py3.pkl", compress=9)
    joblib.dump(names, home / "RCV1" / "topics_names_py3.pkl", compress=9)
    return home


#: The top-level positions (their 1997 names) above the fixture's tree numbers.
MESH_1997_CATEGORIES = {
    "C14": "Cardiovascular Diseases",
    "E05": "Miscellaneous Techniques (Non MeSH)",
    "N04": "Health Services Administration (Non MeSH)",
    "N05": "Quality, Access, Evaluation (Non MeSH)",
}


def mesh_like_trees(path: Path, *, fillers: int = 110, crlf: bool = False) -> Path:
    """Write a MeSH tree file of a whole file's shape: the top-level positions above the
    fixture's tree numbers, the fixture's lines, then ``fillers``
    invented descriptors below N05.715 (``Filler Descriptor k;N05.715.900.kkk``, under
    ``Filler Group;N05.715.900``), so that the N05.715 subtree has a MeSH-like size."""
    lines = [f"{name};{num}" for num, name in MESH_1997_CATEGORIES.items()]
    lines += (OHSUMED / "mtrees_fixture.bin").read_text().splitlines()
    lines.append("Filler Group;N05.715.900")
    lines += [f"Filler Descriptor {k};N05.715.900.{k:03d}" for k in range(1, fillers + 1)]
    path = Path(path)
    path.write_bytes(("\r\n" if crlf else "\n").join(lines + [""]).encode("latin-1"))
    return path


def ohsumed_root(folder: Path) -> tuple[Path, dict[str, Dataset]]:
    """``folder/data``: the five OHSUMED years (the fixture's records, renumbered per year) and
    the fixture MeSH trees as ``mtrees1997.bin``, and a manifest listing that one MeSH file."""
    root = Path(folder) / "data"
    (root / "ohsumed").mkdir(parents=True)
    (root / "mesh").mkdir()
    shutil.copy(OHSUMED / "ohsumed.87", root / "ohsumed" / "ohsumed.87")
    recs = (OHSUMED / "ohsumed.87").read_text().replace(".I 6", ".I 7")
    for y in (88, 89, 90, 91):
        (root / "ohsumed" / f"ohsumed.{y}").write_text(recs.replace(".I ", f".I {y}0"))
    shutil.copy(OHSUMED / "mtrees_fixture.bin", root / "mesh" / "mtrees1997.bin")
    digest = _digest(OHSUMED / "mtrees_fixture.bin")
    return root, manifest_with(folder, {"mesh-trees": {"mesh/mtrees1997.bin": digest}})


#: A three-document stand-in for the RCV1 sample (every document keeps a word seen 3 times).
RCV1_SAMPLE_DOCS = (
    {"doc_token": ["merger", "merger", "merger", "profit"], "doc_label": ["C11"]},
    {"doc_token": ["court", "court", "ruling", "profit"], "doc_label": ["CCAT", "C12"]},
    {"doc_token": ["court", "ruling", "ruling", "profit", "inflation"], "doc_label": ["ECAT"]},
)


def raw_root(folder: Path) -> tuple[Path, dict[str, Dataset]]:
    """``folder/raw``: tiny raw copies for :func:`mlgeom.hierarchical.shipped.build` (the
    ``tiny.taxonomy`` topics, three RCV1-like documents, the OHSUMED sample fixture and the
    fixture MeSH trees), and a manifest listing them with their checksums."""
    root = Path(folder) / "raw"
    (root / "rcv1").mkdir(parents=True)
    (root / "mesh").mkdir()
    shutil.copy(FIX / "tiny.taxonomy", root / "rcv1" / "rcv1.taxonomy")
    (root / "rcv1" / "rcv1.label_meaning").write_text(
        "CCAT: CORPORATE/INDUSTRIAL\n\tC11: STRATEGY/PLANS\n\tC12: LEGAL/JUDICIAL\n"
        "ECAT: ECONOMICS\n",
        encoding="utf-8",
    )
    lines = "".join(json.dumps(d) + "\n" for d in RCV1_SAMPLE_DOCS).encode()
    (root / "rcv1" / "rcv1_sample_2316.jsonl.gz").write_bytes(gzip.compress(lines, mtime=0))
    shutil.copytree(OHSUMED / "sample", root / "ohsumed" / "ohsumed87_sample")
    shutil.copy(OHSUMED / "mtrees_fixture.bin", root / "mesh" / "mtrees1997.bin")

    def listed(*rels: str) -> dict[str, str | None]:
        return {rel: _digest(root / rel) for rel in rels}

    sample = sorted(
        p.relative_to(root).as_posix() for p in (root / "ohsumed").rglob("*.txt") if p.is_file()
    )
    return root, manifest_with(
        folder,
        {
            "rcv1-hierarchy": listed("rcv1/rcv1.taxonomy", "rcv1/rcv1.label_meaning"),
            "rcv1-sample": listed("rcv1/rcv1_sample_2316.jsonl.gz"),
            "ohsumed-sample": listed(*sample),
            "mesh-trees": listed("mesh/mtrees1997.bin"),
        },
    )


def fetch_rcv1_bunch(seed: int = 0) -> SimpleNamespace:
    """A ``fetch_rcv1``-like result over the LYRL2004 fixtures: shuffled rows, sorted names."""
    from mlgeom.hierarchical import rcv1 as R
    from mlgeom.hierarchical.shipped import rcv1_taxonomy

    ids1, X1 = R.read_vectors(TRAIN)
    ids2, X2 = R.read_vectors(PT0)
    ids = np.concatenate([ids1, ids2])
    X = sp.vstack([X1, X2], format="csr")
    G = rcv1_taxonomy()
    topics = R.read_qrels(QRELS, G)
    names = np.array(sorted(G.names), dtype=object)
    col = {s: j for j, s in enumerate(names)}
    Y = sp.lil_matrix((ids.size, names.size), dtype=np.uint8)
    for r, d in enumerate(ids):
        for t in topics[int(d)]:
            Y[r, col[t]] = 1
    perm = np.random.default_rng(seed).permutation(ids.size)
    return SimpleNamespace(
        data=X[perm],
        target=sp.csr_matrix(Y)[perm],
        sample_id=ids[perm].astype(np.uint32),
        target_names=names,
    )


def paper_like_result(scale_h: float = 1.0, empty: float = 2.0, n_splits: int = 4) -> Any:
    """A ProtocolResult whose split means are the paper's RCV1 Table 1 (small split noise)."""
    from mlgeom.hierarchical import experiments as ex

    t = ex.PAPER_TABLE1["RCV1"]
    rows = []
    for k in range(n_splits):
        jitter = 0.01 * (k - (n_splits - 1) / 2)
        for alg in ex.ALGORITHMS:
            row = {"algorithm": alg, "split": k, "n_test": 100, "stored": 0, "work": 0.0}
            for loss in ex.LOSSES:
                f = scale_h if loss == "uniform H-loss" else 1.0
                row[loss] = float(t.loc[alg, (loss, "mean")]) * f + jitter
            rows.append(row)
        rows.append({"algorithm": ex.EMPTY, "split": k, "n_test": 100, "stored": -1,
                     "work": np.nan, "zero-one": 1.0, "uniform H-loss": empty + jitter,
                     "Δ-loss": 3.0})  # fmt: skip
    return ex.ProtocolResult(pd.DataFrame(rows), pd.DataFrame(), "paper-like")


class MeasureRecorder:
    """Stands in for a ClaimsRecord: collects what is measured (id, value, keyword arguments)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, dict]] = []

    def measure(self, cid: str, value: Any, **kw: Any) -> None:
        self.calls.append((cid, value, kw))
