r"""Derived data of the hierarchical-classification chapter, shipped in ``data/hierarchical/``.

The paper's corpora (Cesa-Bianchi, Gentile & Zaniboni 2006, Section 8) cannot be shipped, and
CI has no ``$MLGEOM_DATA``. This module ships what can be derived from the real copies under
``$MLGEOM_DATA`` (their provenance is in ``data/provenance/``) without allowing the text to be
rebuilt, and reads it back with checksums:

* the RCV1-v2 topic taxonomy (103 codes in 4 trees) and the topics' names
  (:func:`rcv1_taxonomy`, :func:`rcv1_topic_names`);
* the real 2,316-document RCV1 sample as signed feature-hashed, unit-norm
  :math:`\log(1+\mathrm{TF})\log(\mathrm{IDF})` vectors with its ancestor-closed labels
  (:func:`load_rcv1_sample`), and its label statistics (:func:`rcv1_label_stats`);
* the N05.715 ("Quality of Health Care") part of the 444-record OHSUMED sample, the same way
  (:func:`load_ohsumed_sample`);
* at the ``paper`` profile, the full corpus where ``$MLGEOM_DATA`` has it and otherwise the
  sample with a one-line note of what is missing (:func:`corpus_for_profile`), so that the
  paper profile runs through on a machine without the corpora.

Every shipped file is listed with its SHA-256 in ``data/manifest.json`` (dataset
``hierarchical-derived``) and in ``data/hierarchical/README.md``; the loaders verify them with
:func:`mlgeom.book.data.require` before reading.

Command line::

    MLGEOM_DATA=<raw corpora folder> python -m mlgeom.hierarchical.shipped build [--out DIR]

rebuilds every file from the raw copies (byte for byte the shipped ones) and prints their
SHA-256.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import scipy.sparse as sp

from mlgeom.book.data import DataError, Dataset, load_manifest, require, sha256
from mlgeom.book.paths import project_root
from mlgeom.book.profiles import check_profile
from mlgeom.hierarchical.corpus import HierarchicalCorpus, label_statistics
from mlgeom.hierarchical.ohsumed import ohsumed_corpus, read_mtrees, read_sample_folder
from mlgeom.hierarchical.taxonomy import Taxonomy
from mlgeom.hierarchical.text_vectors import hash_features, log_tf_idf, normalize_rows, tokenize

__all__ = [
    "DATASET",
    "FILES",
    "build",
    "corpus_for_profile",
    "load_ohsumed_sample",
    "load_rcv1_sample",
    "rcv1_label_stats",
    "rcv1_taxonomy",
    "rcv1_topic_names",
]

#: Manifest entry listing the shipped files (paths relative to the project's ``data/``).
DATASET = "hierarchical-derived"
FOLDER = "hierarchical"
FILES = {
    "taxonomy": "rcv1_taxonomy.csv",
    "rcv1": "rcv1_sample_hashed.npz",
    "stats": "rcv1_label_stats.json",
    "ohsumed_taxonomy": "ohsumed_n05715_taxonomy.csv",
    "ohsumed": "ohsumed_n05715_sample_hashed.npz",
}
#: Hashed dimension and MurmurHash3 seed of the shipped vectors.
N_HASHED = 2**14
HASH_SALT = 2006
MIN_COUNT = 3
MESH_YEAR = 1997
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)

RCV1_PROVENANCE = (
    "real RCV1-v2 sample, 2,316 documents (Tencent/NeuralNLP-NeuralClassifier rcv1_dev.json), "
    f"log(1+TF)log(IDF) signed-hashed to {N_HASHED} features, unit norm; no ids or dates"
)
OHSUMED_PROVENANCE = (
    "real OHSUMED sample (444 records of ohsumed.87), MeSH 1997 N05.715 headings, "
    f"log(1+TF)log(IDF) signed-hashed to {N_HASHED} features, unit norm"
)


# ---------------------------------------------------------------------- reading (verified)
def _shipped_root() -> Path:
    return project_root() / "data"


@lru_cache(maxsize=1)
def _verified() -> Path:
    """Verify every shipped file against the manifest once per process; return the folder."""
    return require(DATASET, root=_shipped_root()) / FOLDER


_REBUILD = "rebuild it with `python -m mlgeom.hierarchical.shipped build` or restore it from git"


def _read_csv(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """Rows of a shipped CSV file with the header ``columns``; a damaged file is a DataError."""
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            rows = list(reader)
            header = tuple(reader.fieldnames or ())
    except (UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"{path} is not a UTF-8 CSV file ({exc}); {_REBUILD}") from None
    if header != columns:
        raise DataError(f"{path} has the header {list(header)}, not {list(columns)}; {_REBUILD}")
    for line, row in enumerate(rows, 2):
        if None in row or any(row[c] is None for c in columns) or not row[columns[0]]:
            raise DataError(
                f"{path}, line {line}: expected {len(columns)} fields ({', '.join(columns)}) "
                f"with a non-empty {columns[0]}; {_REBUILD}"
            )
    if not rows:
        raise DataError(f"{path} has no rows; {_REBUILD}")
    return rows


def _taxonomy_from_rows(rows: list[dict[str, str]], key: str, path: Path) -> Taxonomy:
    try:
        return Taxonomy.from_parent_map({r[key]: (r["parent"] or None) for r in rows})
    except ValueError as exc:  # TaxonomyError: a parent missing from the file, a cycle
        raise DataError(f"{path} is not a valid taxonomy: {exc}; {_REBUILD}") from None


def rcv1_taxonomy() -> Taxonomy:
    """Return the RCV1-v2 topic forest: 103 codes, 4 roots (CCAT, ECAT, GCAT, MCAT), depth ≤ 3.

    Node names are the topic codes, in the order of ``rcv1.taxonomy`` (breadth first).

    Raises
    ------
    mlgeom.book.data.DataError
        If a shipped file is missing, fails its checksum, is not a UTF-8 CSV file of the
        expected columns, or does not hold 103 topics in the 4 trees CCAT, ECAT, GCAT, MCAT.
    """
    path = _verified() / FILES["taxonomy"]
    G = _taxonomy_from_rows(_read_csv(path, _RCV1_COLUMNS), "code", path)
    roots = sorted(G.names[r] for r in G.roots)
    if G.n_nodes != RCV1_N_TOPICS or tuple(roots) != RCV1_ROOTS:
        raise DataError(
            f"{path} has {G.n_nodes} topics in the trees {roots}; RCV1-v2 has "
            f"{RCV1_N_TOPICS} topics in the 4 trees {list(RCV1_ROOTS)}; {_REBUILD}"
        )
    return G


#: RCV1-v2's topic forest (Lewis et al. 2004): 103 topics in 4 trees.
RCV1_N_TOPICS = 103
RCV1_ROOTS = ("CCAT", "ECAT", "GCAT", "MCAT")
_RCV1_COLUMNS = ("code", "parent", "depth", "name")
_OHSUMED_COLUMNS = ("descriptor", "tree_number", "parent", "depth")
#: The arrays of a shipped corpus file (see :func:`_corpus_arrays`).
_NPZ_KEYS = ("X_data", "X_indices", "X_indptr", "n_features", "V_indices", "V_indptr", "doc_ids")


def rcv1_topic_names() -> dict[str, str]:
    """``{code: description}`` for the 103 RCV1-v2 topics (e.g. ``'C15': 'PERFORMANCE'``)."""
    rows = _read_csv(_verified() / FILES["taxonomy"], _RCV1_COLUMNS)
    return {r["code"]: r["name"] for r in rows}


def _load_npz(path: Path) -> dict[str, np.ndarray]:
    """Read the arrays of a shipped corpus file; a damaged or incomplete file is a DataError."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise DataError(f"{path} is not a readable .npz file ({exc}); {_REBUILD}") from None
    missing = [k for k in _NPZ_KEYS if k not in arrays]
    if missing:
        raise DataError(f"{path} misses the arrays {missing}; {_REBUILD}")
    return arrays


def _check_csr_arrays(
    path: Path, what: str, indices: np.ndarray, indptr: np.ndarray, n_cols: int, n: int
) -> None:
    """Check the index arrays of one CSR matrix of a shipped file: consistent, in bounds."""
    if indices.ndim != 1 or indptr.ndim != 1 or indptr.size != n + 1:
        raise DataError(f"{path}: the {what} index arrays have the wrong shapes; {_REBUILD}")
    if not (np.issubdtype(indices.dtype, np.integer) and np.issubdtype(indptr.dtype, np.integer)):
        raise DataError(f"{path}: the {what} index arrays are not integers; {_REBUILD}")
    if indptr[0] != 0 or np.any(np.diff(indptr) < 0) or indptr[-1] != indices.size:
        raise DataError(
            f"{path}: the {what} row pointers do not run from 0 to {indices.size}; {_REBUILD}"
        )
    if indices.size and (indices.min() < 0 or indices.max() >= n_cols):
        col = int(indices.max() if indices.max() >= n_cols else indices.min())
        raise DataError(
            f"{path}: the {what} refer to column {col}, outside 0 … {n_cols - 1} "
            f"({n_cols} columns; this file or its taxonomy truncated, or from another build?); "
            f"{_REBUILD}"
        )


def _corpus_from_npz(
    arrays: dict[str, np.ndarray],
    taxonomy: Taxonomy,
    name: str,
    provenance: str,
    path: Path = Path("<arrays>"),
) -> HierarchicalCorpus:
    """Build a corpus from the arrays of a shipped file, checked before scipy sees them."""
    n = arrays["X_indptr"].size - 1
    n_features = arrays["n_features"]
    if n_features.shape != () or not np.issubdtype(n_features.dtype, np.integer):
        raise DataError(f"{path}: n_features is not one integer; {_REBUILD}")
    if arrays["X_data"].shape != arrays["X_indices"].shape or not np.all(
        np.isfinite(arrays["X_data"])
    ):
        raise DataError(f"{path}: the vectors' values are missing or not finite; {_REBUILD}")
    _check_csr_arrays(path, "vectors", arrays["X_indices"], arrays["X_indptr"], int(n_features), n)
    _check_csr_arrays(path, "labels", arrays["V_indices"], arrays["V_indptr"], taxonomy.n_nodes, n)
    if arrays["doc_ids"].shape != (n,):
        raise DataError(
            f"{path}: {arrays['doc_ids'].size} document ids for {n} documents; {_REBUILD}"
        )
    X = sp.csr_matrix(
        (
            arrays["X_data"].astype(np.float64),
            arrays["X_indices"].astype(np.int64),
            arrays["X_indptr"].astype(np.int64),
        ),
        shape=(n, int(arrays["n_features"])),
    )
    V = sp.csr_matrix(
        (
            np.ones(arrays["V_indices"].size, dtype=np.int8),
            arrays["V_indices"].astype(np.int64),
            arrays["V_indptr"].astype(np.int64),
        ),
        shape=(n, taxonomy.n_nodes),
    )
    # stored in float32: re-normalise in float64 (deterministic)
    try:
        return HierarchicalCorpus(
            normalize_rows(X), V, taxonomy, name, arrays["doc_ids"], provenance
        )
    except ValueError as exc:  # e.g. labels that do not respect the taxonomy
        raise DataError(f"{path}: {exc}; {_REBUILD}") from None


_C = TypeVar("_C")


def corpus_for_profile(
    profile: str, load: Callable[[], _C], sample: Callable[[], _C], name: str
) -> tuple[_C, str | None]:
    """Return the paper's corpus at the ``paper`` profile if present, else the shipped sample.

    At the ``smoke`` and ``book`` profiles ``load`` is never called. At ``paper`` it is; when
    it raises :class:`mlgeom.book.data.DataError` (files missing under ``$MLGEOM_DATA`` or
    unusable), the sample is returned with a one-line note: the loader's message (what is
    missing and how to get it) and that this corpus's cells run on the sample instead, so
    its claims are measured at the sample's scale, as their ``scale`` then says. Any other
    error propagates.

    Parameters
    ----------
    profile : {"smoke", "book", "paper"}
        The notebook's profile.
    load : callable
        Loads the full corpus (e.g. :func:`mlgeom.hierarchical.load_rcv1`).
    sample : callable
        Loads the shipped sample (e.g. :func:`load_rcv1_sample`).
    name : str
        The corpus's name in the note.

    Returns
    -------
    corpus : object
        What ``load`` or ``sample`` returned.
    note : str or None
        The one-line note when the full corpus was wanted and missing, else None.
    """
    profile = check_profile(profile)
    if not callable(load) or not callable(sample):
        raise ValueError(f"load and sample must be callables; got {load!r} and {sample!r}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string; got {name!r}")
    if profile != "paper":
        return sample(), None
    try:
        return load(), None
    except DataError as exc:
        msg = " ".join(str(exc).split())
        return sample(), f"{name} skipped, the shipped sample runs instead: {msg}"


def load_rcv1_sample() -> HierarchicalCorpus:
    """Load the real 2,316-document RCV1 sample: hashed vectors, ancestor-closed topics.

    ``doc_ids`` are the documents' positions in the source file: the sample has no Reuters ids
    or dates, so its order is *not* chronological.

    Raises
    ------
    mlgeom.book.data.DataError
        If a shipped file is missing, fails its checksum, or does not hold what it promises
        (a readable archive of a sparse corpus whose indices fit the taxonomy, a 103-topic
        taxonomy in 4 trees): a bad rebuild leaves a file whose checksum the manifest was
        updated to.
    """
    path = _verified() / FILES["rcv1"]
    arrays = _load_npz(path)
    return _corpus_from_npz(
        arrays, rcv1_taxonomy(), "real RCV1 sample (2,316 documents)", RCV1_PROVENANCE, path
    )


def _ohsumed_taxonomy() -> Taxonomy:
    path = _verified() / FILES["ohsumed_taxonomy"]
    return _taxonomy_from_rows(_read_csv(path, _OHSUMED_COLUMNS), "descriptor", path)


def load_ohsumed_sample() -> HierarchicalCorpus:
    """Load the OHSUMED sample's N05.715 documents (hashed vectors, closed labels).

    The classes are the MeSH 1997 descriptors below "Quality of Health Care" (N05.715) with a
    unique path that label at least one of the sample's documents (see
    :mod:`mlgeom.hierarchical.ohsumed`);
    ``doc_ids`` are the records' ``.I`` numbers.

    Raises
    ------
    mlgeom.book.data.DataError
        If a shipped file is missing, fails its checksum, or does not hold what it promises
        (a UTF-8 CSV taxonomy, a readable archive of a sparse corpus whose label indices fit
        that taxonomy): a bad rebuild leaves a file whose checksum the manifest was updated to.
    """
    path = _verified() / FILES["ohsumed"]
    arrays = _load_npz(path)
    n = arrays["X_indptr"].size - 1
    return _corpus_from_npz(
        arrays,
        _ohsumed_taxonomy(),
        f"real OHSUMED sample, N05.715 part ({n} documents)",
        OHSUMED_PROVENANCE,
        path,
    )


def rcv1_label_stats() -> dict[str, Any]:
    """Return the label statistics of the real RCV1 sample.

    As computed by :func:`mlgeom.hierarchical.corpus.label_statistics` at build time.

    Per node (in :func:`rcv1_taxonomy` order): ``count``, ``frequency`` and
    ``conditional_frequency`` P(node | parent); ``labels_per_doc``, ``paths_per_doc``,
    ``nnz_per_doc`` (of the hashed vectors) and ``words_per_doc`` (distinct kept words before
    hashing).
    """
    return json.loads((_verified() / FILES["stats"]).read_text(encoding="utf-8"))


# ---------------------------------------------------------------------- building
def _rcv1_names(path: Path) -> dict[str, str]:
    """Names from ``rcv1.label_meaning``: first occurrence of each code wins.

    The file repeats the GCAT block under MCAT and has one line holding two entries
    (``C313: MARKET SHARE C32: ADVERTISING/PROMOTION``); see its PROVENANCE.txt.
    """
    out: dict[str, str] = {}
    pattern = re.compile(r"([A-Z][A-Z0-9]*): (.*?)(?=\s+[A-Z][A-Z0-9]*: |$)")
    for line in path.read_text(encoding="utf-8").splitlines():
        for code, name in pattern.findall(line.strip()):
            out.setdefault(code, name.strip())
    return out


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``numpy.savez_compressed`` with fixed zip timestamps, so that rebuilds are byte-identical."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for key in sorted(arrays):
            info = zipfile.ZipInfo(f"{key}.npy", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arrays[key], order="C"), allow_pickle=False)
            zf.writestr(info, buf.getvalue(), compresslevel=9)


def _corpus_arrays(X: sp.csr_matrix, V: sp.csr_matrix, doc_ids: np.ndarray) -> dict[str, Any]:
    X = sp.csr_matrix(X)
    X.sort_indices()
    V = sp.csr_matrix(V)
    V.sort_indices()
    return {
        "X_data": X.data.astype(np.float32),
        "X_indices": X.indices.astype(np.int32),
        "X_indptr": X.indptr.astype(np.int64),
        "n_features": np.array(X.shape[1], dtype=np.int64),
        "V_indices": V.indices.astype(np.int16),
        "V_indptr": V.indptr.astype(np.int64),
        "doc_ids": np.asarray(doc_ids, dtype=np.int64),
    }


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def build(
    out: str | os.PathLike | None = None,
    raw: str | os.PathLike | None = None,
    *,
    manifest: dict[str, Dataset] | None = None,
) -> dict:
    """Rebuild the shipped files from the raw copies.

    Parameters
    ----------
    out : path-like, optional
        Output folder (default: the project's ``data/hierarchical``).
    raw : path-like, optional
        Folder holding ``rcv1/``, ``ohsumed/`` and ``mesh/`` (default: ``$MLGEOM_DATA``).
    manifest : dict, optional
        Parsed manifest listing the raw files and their checksums (default:
        :func:`mlgeom.book.data.load_manifest`); tests pass one listing fixture files.

    Returns
    -------
    dict
        ``{"sha256": {file: digest}, "ohsumed": report}``.

    Raises
    ------
    mlgeom.book.data.DataError
        If a raw dataset is missing or fails its checksum.
    """
    manifest = manifest if manifest is not None else load_manifest()
    base = require("rcv1-hierarchy", manifest=manifest, root=raw)
    require("rcv1-sample", manifest=manifest, root=raw)
    require("ohsumed-sample", manifest=manifest, root=raw)
    mesh = manifest["mesh-trees"] if "mesh-trees" in manifest else None
    if mesh is not None:  # only the year used (the other years' files are not needed)
        rel = f"mesh/mtrees{MESH_YEAR}.bin"
        manifest = {**manifest, "mesh-trees": replace(mesh, files={rel: mesh.files.get(rel)})}
    require("mesh-trees", manifest=manifest, root=raw)
    dest = Path(out) if out is not None else _shipped_root() / FOLDER
    dest.mkdir(parents=True, exist_ok=True)

    # --- RCV1 taxonomy and names
    G = Taxonomy.from_edge_file(base / "rcv1" / "rcv1.taxonomy")
    names = _rcv1_names(base / "rcv1" / "rcv1.label_meaning")
    missing = [c for c in G.names if c not in names]
    if missing:
        raise DataError(f"rcv1.label_meaning has no name for {missing}")
    _write_csv(
        dest / FILES["taxonomy"],
        ["code", "parent", "depth", "name"],
        [
            [c, "" if G.parent[i] < 0 else G.names[G.parent[i]], int(G.depth[i]), names[c]]
            for i, c in enumerate(G.names)
        ],
    )

    # --- RCV1 sample: tokens -> log(1+TF)log(IDF) -> signed hashing; closed labels
    with gzip.open(base / "rcv1" / "rcv1_sample_2316.jsonl.gz", "rt", encoding="utf-8") as fh:
        docs = [json.loads(line) for line in fh if line.strip()]
    tf = log_tf_idf([tokenize(" ".join(d["doc_token"])) for d in docs], min_count=MIN_COUNT)
    if not tf.nonempty.all():
        raise DataError(f"{int((~tf.nonempty).sum())} RCV1 sample documents have empty vectors")
    X = hash_features(tf.X, tf.vocabulary, N_HASHED, salt=HASH_SALT)
    V = G.encode([d["doc_label"] for d in docs], close=True)
    ids = np.arange(len(docs), dtype=np.int64)
    _write_npz(dest / FILES["rcv1"], _corpus_arrays(X, V, ids))
    stats = label_statistics(V, G, X)
    words = np.diff(tf.X.indptr)
    stats["words_per_doc"] = {
        "mean": float(words.mean()),
        "median": float(np.median(words)),
        "q05": float(np.quantile(words, 0.05)),
        "q95": float(np.quantile(words, 0.95)),
    }
    stats["vocabulary_size"] = len(tf.vocabulary)
    stats["source"] = RCV1_PROVENANCE
    (dest / FILES["stats"]).write_text(json.dumps(stats, indent=1) + "\n", encoding="utf-8")

    # --- OHSUMED sample, N05.715
    records = read_sample_folder(base / "ohsumed" / "ohsumed87_sample")
    mtrees = read_mtrees(base / "mesh" / f"mtrees{MESH_YEAR}.bin")
    corpus, report = ohsumed_corpus(records, mtrees, min_count=MIN_COUNT)
    H = corpus.taxonomy
    Xo = hash_features(corpus.X, report["vocabulary"], N_HASHED, salt=HASH_SALT)
    _write_npz(dest / FILES["ohsumed"], _corpus_arrays(Xo, corpus.V, corpus.doc_ids))
    tree_numbers = report["tree_numbers"]
    _write_csv(
        dest / FILES["ohsumed_taxonomy"],
        ["descriptor", "tree_number", "parent", "depth"],
        [
            [s, tree_numbers[i], "" if H.parent[i] < 0 else H.names[H.parent[i]], int(H.depth[i])]
            for i, s in enumerate(H.names)
        ],
    )
    digests = {f: sha256(dest / f) for f in FILES.values()}
    (dest / "README.md").write_text(_readme(digests, stats, report, G), encoding="utf-8")
    report = {k: v for k, v in report.items() if k != "vocabulary"}
    return {"sha256": digests, "ohsumed": report}


def _readme(digests: dict[str, str], stats: dict, report: dict, G: Taxonomy) -> str:
    sizes = "\n".join(f"| `{f}` | `{d}` |" for f, d in digests.items())
    return f"""# Derived data: hierarchical classification chapter

Generated by `python -m mlgeom.hierarchical.shipped build` from the raw copies described in
`data/provenance/` (do not edit by hand; the loaders in `mlgeom.hierarchical.shipped`
verify every file below against `data/manifest.json`, dataset `{DATASET}`).

| file | SHA-256 |
| --- | --- |
{sizes}

## What the files are

- `{FILES["taxonomy"]}`: the RCV1-v2 topic forest (Lewis et al. 2004): {G.n_nodes} topic
  codes, their parent (empty for the 4 roots), depth (roots 0) and name. Structure from
  `rcv1.taxonomy`, names from `rcv1.label_meaning` (first occurrence of each code; the file
  repeats the GCAT block under MCAT and joins C313 and C32 on one line), both from
  Tencent/NeuralNLP-NeuralClassifier (MIT licence; the codes and names are RCV1-v2's).
- `{FILES["rcv1"]}`: the real 2,316-document RCV1 sample (Tencent/NeuralNLP-NeuralClassifier
  `data/rcv1_dev.json`, commit 52a7ede; no Reuters ids or dates) as arrays of a CSR matrix:
  `X_data` (float32), `X_indices`, `X_indptr`, `n_features`, the ancestor-closed topic labels
  `V_indices` (column = row of the taxonomy CSV), `V_indptr`, and `doc_ids` (position in the
  source file; **not** chronological).
- `{FILES["stats"]}`: label statistics of that sample: per node (taxonomy order) the count,
  P(node) and P(node | parent); labels and paths per document (means
  {stats["labels_per_doc"]["mean"]:.3f} and {stats["paths_per_doc"]["mean"]:.3f}); non-zeros per
  hashed vector and distinct words per document before hashing.
- `{FILES["ohsumed_taxonomy"]}` and `{FILES["ohsumed"]}`: the OHSUMED sample (444 distinct real
  records of ohsumed.87, Hersh et al. 1994, from prabh-me/Fuzzy-Information-Retrieval-Search)
  restricted to the {report["documents"]} records with a MeSH heading below "Quality of Health
  Care" (N05.715) in the NLM MeSH {MESH_YEAR} trees; {report["classes"]} classes (descriptors
  with a unique path in the subtree that label at least one of these records; the subtree has
  {report["subtree_descriptors_unique_path"]} such descriptors and
  {len(report["removed_descriptors"])} without a unique path). Same array layout; `doc_ids`
  are the records' `.I` numbers.

## Transformation (why the text cannot be rebuilt)

Text (RCV1: the sample's tokens; OHSUMED: title + abstract) is lower-cased and split into runs
of letters; scikit-learn's English stop words and words occurring fewer than {MIN_COUNT} times in
the corpus are removed; each document becomes log(1 + TF) log(n / DF) weights (Section 8 of
Cesa-Bianchi et al. 2006), normalised to unit length; then each word's weight is added, with a
sign, to one of {N_HASHED} columns chosen by a MurmurHash3 of the word (seed {HASH_SALT}) and the
vector is normalised again. No vocabulary is stored, word order is gone, rare words are gone,
and every column mixes the words that hash to it: the documents' text cannot be rebuilt from
these files (a guess at which frequent words a document contains is the most they allow).

## Terms

RCV1 is distributed by NIST under the Reuters agreement (research use); OHSUMED by OHSU/NLM for
experimental use only, with users told the data are incomplete and out of date; MeSH by NLM
(MeSH terms of use). These files carry no Reuters or OHSUMED text; cite Lewis et al. (2004),
Hersh et al. (1994) and NLM MeSH when using them.
"""


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    args = sys.argv[1:] if argv is None else argv
    if (
        not args
        or args[0] != "build"
        or len(args) not in (1, 3)
        or (len(args) == 3 and args[1] != "--out")
    ):
        print("usage: python -m mlgeom.hierarchical.shipped build [--out DIR]", file=sys.stderr)
        return 2
    try:
        result = build(args[2] if len(args) == 3 else None)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for f, d in result["sha256"].items():
        print(f"{d}  {FOLDER}/{f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
