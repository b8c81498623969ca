r"""RCV1-v2 in its published formats: the first 100,000 documents of Section 8.

Cesa-Bianchi, Gentile & Zaniboni (2006), Section 8: *"The first dataset consists of the first
(in chronological order) 100,000 newswire stories from the Reuters Corpus Volume 1 … The
associated taxonomy of labels, which are the document topics, contains 101 nodes organized in a
forest of 4 trees."* (RCV1-v2 as distributed has 103 topics; the paper does not say which two it
left out, so all 103 are kept here.)

Formats (Lewis, Yang, Rose & Li 2004, JMLR 5, online appendices), plain or gzip-compressed:

* ``lyrl2004_vectors_train.dat``, ``lyrl2004_vectors_test_pt0.dat`` … ``_pt3.dat``: one
  document per line, ``<docid>  <featureid>:<value> …`` (feature ids 1 … 47,236; cosine-normalised
  log TF·IDF weights). Document ids increase with time, across the files in that order.
* ``rcv1-v2.topics.qrels``: one line ``<TOPIC> <docid> 1`` per (topic, document) pair.
* ``rcv1.topics.hier.orig``: lines ``parent: <P>   child: <C>   child-description: <text>``;
  the four trees hang from ``Root``. The ``rcv1.taxonomy`` format
  (``parent<TAB>child …``, first line ``Root CCAT ECAT GCAT MCAT``) is read too.
* scikit-learn's ``fetch_rcv1`` cache (the same vectors and topics), read with
  ``download_if_missing=False`` when present.

Under ``$MLGEOM_DATA/rcv1/`` each file is accepted gzipped or not, and the topics under the
JMLR appendix's name ``rcv1-v2.topics.qrels`` or scikit-learn's/figshare's ``rcv1v2.topics.qrels``
(:data:`_LYRL_FILES`). A gzip file whose SHA-256 is the one scikit-learn publishes for it is
*verified*; the other forms have no published checksum and are *format-checked* (every line is
parsed; ids must increase within and across the files); the corpus's provenance names each file
read and how it was checked.

Documents are ordered by id and the first ``n_docs`` kept; topic sets are closed upward (every
ancestor of a topic is added; RCV1-v2's own assignments are already closed).
"""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import scipy.sparse as sp

from mlgeom._validation import check_positive_int
from mlgeom.book.data import DataError, Dataset, data_dir, load_manifest, sha256
from mlgeom.hierarchical.corpus import CorpusFormatError, HierarchicalCorpus
from mlgeom.hierarchical.taxonomy import Taxonomy, TaxonomyError, check_taxonomy
from mlgeom.hierarchical.text_vectors import normalize_rows

__all__ = [
    "LYRL_N_FEATURES",
    "SOURCES",
    "corpus_from_sklearn",
    "corpus_from_vectors",
    "load_rcv1",
    "load_rcv1_files",
    "read_hierarchy",
    "read_qrels",
    "read_vectors",
]

#: Number of features of the LYRL2004 vectors (and of scikit-learn's ``fetch_rcv1``).
LYRL_N_FEATURES = 47_236
DATASET = "rcv1-v2-lyrl2004"
SOURCES = (
    "RCV1-v2 (Lewis, Yang, Rose & Li 2004): the LYRL2004 files lyrl2004_vectors_train.dat.gz, "
    "lyrl2004_vectors_test_pt0.dat.gz and rcv1-v2.topics.qrels.gz from the JMLR 5 online "
    "appendix (jmlr.org/papers/volume5/lewis04a; also the figshare copies scikit-learn's "
    "fetch_rcv1 downloads). Terms: the Reuters text behind them is distributed by NIST under "
    "the Reuters Corpus agreement (research use); the appendix files are published with the "
    "JMLR article"
)


def _open(path: Path) -> TextIO:
    try:
        if path.suffix == ".gz":
            return gzip.open(path, "rt", encoding="latin-1")
        return path.open(encoding="latin-1")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with _open(path) as fh:
        try:
            yield from enumerate(fh, 1)
        except (OSError, EOFError) as exc:  # truncated or corrupt gzip
            raise CorpusFormatError(f"{path}: unreadable ({exc})") from exc


# ---------------------------------------------------------------------- vectors
def _parse_vector_line(
    line: str, where: str, n_features: int
) -> tuple[int, np.ndarray, np.ndarray]:
    fields = line.split()
    try:
        doc = int(fields[0])
    except ValueError:
        raise CorpusFormatError(
            f"{where}: expected '<docid>  <featureid>:<value> ...'; got {line[:60]!r}"
        ) from None
    pairs = fields[1:]
    if not pairs:
        raise CorpusFormatError(f"{where}: document {doc} has no feature")
    try:
        split = [p.split(":") for p in pairs]
        if any(len(s) != 2 for s in split):
            raise ValueError
        cols = np.array([int(s[0]) for s in split], dtype=np.int64)
        vals = np.array([float(s[1]) for s in split], dtype=np.float64)
    except ValueError:
        bad = next((p for p in pairs if not re.fullmatch(r"\d+:[-+0-9.eE]+", p)), pairs[0])
        raise CorpusFormatError(
            f"{where}: malformed feature {bad!r} (expected <featureid>:<value>)"
        ) from None
    if np.any((cols < 1) | (cols > n_features)):
        f = int(cols[(cols < 1) | (cols > n_features)][0])
        raise CorpusFormatError(f"{where}: feature id {f} outside 1 … {n_features}")
    if not np.all(np.isfinite(vals)):
        raise CorpusFormatError(f"{where}: non-finite feature value")
    if np.unique(cols).size != cols.size:
        raise CorpusFormatError(f"{where}: a feature id appears twice in document {doc}")
    return doc, cols - 1, vals


def read_vectors(
    path: str | os.PathLike,
    *,
    n_features: int = LYRL_N_FEATURES,
    max_docs: int | None = None,
) -> tuple[np.ndarray, sp.csr_matrix]:
    """Read a LYRL2004 vector file (``.dat`` or ``.dat.gz``).

    Parameters
    ----------
    path : path-like
        The file.
    n_features : int, default=47_236
        Feature ids must lie in ``1 … n_features`` (column ``id - 1``).
    max_docs : int, optional
        Stop after this many documents.

    Returns
    -------
    doc_ids : numpy.ndarray
        int64, strictly increasing.
    X : scipy.sparse.csr_matrix
        ``(n, n_features)`` float64 as stored (not re-normalised).

    Raises
    ------
    CorpusFormatError
        On a malformed line, a feature id out of range or repeated, or a document id that
        repeats or decreases (naming the file and line).
    """
    p = Path(path)
    n_features = check_positive_int(n_features, "n_features")
    if max_docs is not None:
        max_docs = check_positive_int(max_docs, "max_docs")
    ids: list[int] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    seen_at: dict[int, int] = {}
    for lineno, line in _lines(p):
        if not line.strip():
            continue
        where = f"{p}:{lineno}"
        doc, c, v = _parse_vector_line(line, where, n_features)
        if doc in seen_at:
            raise CorpusFormatError(
                f"{where}: duplicate document id {doc} (first at line {seen_at[doc]})"
            )
        if ids and doc < ids[-1]:
            raise CorpusFormatError(
                f"{where}: document id {doc} after {ids[-1]}: ids must increase (chronological)"
            )
        seen_at[doc] = lineno
        order = np.argsort(c, kind="stable")
        ids.append(doc)
        cols.append(c[order])
        vals.append(v[order])
        if max_docs is not None and len(ids) >= max_docs:
            break
    indptr = np.concatenate([[0], np.cumsum([c.size for c in cols])]).astype(np.int64)
    X = sp.csr_matrix(
        (
            np.concatenate(vals) if vals else np.zeros(0),
            np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64),
            indptr,
        ),
        shape=(len(ids), n_features),
    )
    return np.asarray(ids, dtype=np.int64), X


def _first_doc_id(path: Path) -> int | None:
    for lineno, line in _lines(path):
        if line.strip():
            try:
                return int(line.split()[0])
            except ValueError:
                raise CorpusFormatError(
                    f"{path}:{lineno}: expected '<docid>  <featureid>:<value> ...'"
                ) from None
    return None


# ---------------------------------------------------------------------- topics
def read_qrels(
    path: str | os.PathLike, topics: Sequence[str] | Taxonomy, *, docs: Any = None
) -> dict[int, list[str]]:
    """Read ``rcv1-v2.topics.qrels``: ``{docid: [topic, …]}``.

    Parameters
    ----------
    path : path-like
        The file (plain or ``.gz``).
    topics : sequence of str or Taxonomy
        The known topic codes.
    docs : collection of int, optional
        Keep only these document ids (every line is still checked).

    Raises
    ------
    CorpusFormatError
        On a line that is not ``TOPIC DOCID 1``, an unknown topic code, or a repeated
        (topic, document) pair (naming the file and line).
    """
    p = Path(path)
    known = set(topics.names if isinstance(topics, Taxonomy) else topics)
    keep = None if docs is None else set(int(d) for d in docs)
    out: dict[int, list[str]] = {}
    seen: set[tuple[str, int]] = set()
    for lineno, line in _lines(p):
        if not line.strip():
            continue
        fields = line.split()
        where = f"{p}:{lineno}"
        if len(fields) != 3 or fields[2] != "1" or not fields[1].isdigit():
            raise CorpusFormatError(f"{where}: expected 'TOPIC DOCID 1'; got {line.strip()!r}")
        topic, doc = fields[0], int(fields[1])
        if topic not in known:
            raise CorpusFormatError(
                f"{where}: unknown topic code {topic!r} (not one of the {len(known)} topics "
                "of the hierarchy)"
            )
        if (topic, doc) in seen:
            raise CorpusFormatError(f"{where}: topic {topic} given twice to document {doc}")
        seen.add((topic, doc))
        if keep is None or doc in keep:
            out.setdefault(doc, []).append(topic)
    return out


_HIER = re.compile(r"^parent:\s*(\S+)\s+child:\s*(\S+)\s+child-description:\s*(.*?)\s*$")


def read_hierarchy(path: str | os.PathLike) -> tuple[Taxonomy, dict[str, str]]:
    """Read ``rcv1.topics.hier.orig`` (or the ``rcv1.taxonomy`` edge format).

    Returns
    -------
    taxonomy : Taxonomy
        The forest; the children of ``Root`` are its roots.
    names : dict of str to str
        ``{code: description}`` (empty for the ``rcv1.taxonomy`` format).

    Raises
    ------
    CorpusFormatError
        On a line that is neither format, an invalid forest (naming the file and line), or a
        forest that is not RCV1-v2's: 103 topics in the 4 trees CCAT, ECAT, GCAT and MCAT (a
        truncated copy).
    """
    p = Path(path)
    with _open(p) as fh:
        text = fh.read().splitlines()
    first = next((s for s in text if s.strip()), "")
    if not first.lstrip().startswith("parent:"):
        try:
            G = Taxonomy.from_edge_file(p, virtual_root="Root")
        except TaxonomyError as exc:
            raise CorpusFormatError(str(exc)) from None
        return _check_rcv1_forest(G, p), {}
    edges, names = [], {}
    for lineno, line in enumerate(text, 1):
        if not line.strip():
            continue
        m = _HIER.match(line.strip())
        if not m:
            raise CorpusFormatError(
                f"{p}:{lineno}: expected 'parent: P  child: C  child-description: ...'; "
                f"got {line.strip()[:60]!r}"
            )
        parent, child, desc = m.groups()
        if child == "Root":  # the line introducing the virtual root itself
            continue
        edges.append((parent, child))
        names[child] = desc
    try:
        G = Taxonomy.from_edges(edges, virtual_root="Root")
    except TaxonomyError as exc:
        raise CorpusFormatError(f"{p}: {exc}") from None
    return _check_rcv1_forest(G, p), names


def _check_rcv1_forest(G: Taxonomy, path: Path) -> Taxonomy:
    from mlgeom.hierarchical.shipped import RCV1_N_TOPICS, RCV1_ROOTS

    roots = sorted(G.names[r] for r in G.roots)
    if G.n_nodes != RCV1_N_TOPICS or tuple(roots) != RCV1_ROOTS:
        raise CorpusFormatError(
            f"{path}: {G.n_nodes} topics in the trees {roots}; RCV1-v2 has {RCV1_N_TOPICS} "
            f"topics in the 4 trees {list(RCV1_ROOTS)} (a truncated or different file?)"
        )
    return G


# ---------------------------------------------------------------------- corpus
def corpus_from_vectors(
    doc_ids: np.ndarray,
    X: sp.csr_matrix,
    topics_by_doc: dict[int, Sequence[str]],
    taxonomy: Taxonomy,
    *,
    n_docs: int | None = None,
    name: str = "RCV1-v2, first documents by id",
    provenance: str = "",
) -> HierarchicalCorpus:
    """Order by id, keep the first ``n_docs``, close the topics upward, unit-normalise.

    ``n_docs=None`` keeps every document given; an ``n_docs`` larger than the number of
    documents given is an error (not a silently smaller corpus).

    Raises
    ------
    CorpusFormatError
        If a kept document has no topic or an empty vector, or ids repeat.
    ValueError
        If ``doc_ids`` and ``X`` disagree on the number of documents, or fewer than
        ``n_docs`` documents are given.
    """
    check_taxonomy(taxonomy)
    ids = np.asarray(doc_ids, dtype=np.int64)
    n_docs = ids.size if n_docs is None else check_positive_int(n_docs, "n_docs")
    if np.unique(ids).size != ids.size:
        vals, counts = np.unique(ids, return_counts=True)
        raise CorpusFormatError(f"duplicate document id {int(vals[counts > 1][0])}")
    if ids.ndim != 1 or sp.csr_matrix(X).shape[0] != ids.size:
        raise ValueError(
            f"doc_ids (shape {ids.shape}) and X (shape {sp.csr_matrix(X).shape}) must have one "
            "entry per document"
        )
    if ids.size < n_docs:
        raise ValueError(f"n_docs={n_docs} but only {ids.size} document(s) are given")
    order = np.argsort(ids, kind="stable")[:n_docs]
    ids = ids[order]
    X = sp.csr_matrix(X)[order]
    empty = np.flatnonzero(np.diff(X.indptr) == 0)
    if empty.size:
        raise CorpusFormatError(f"document {int(ids[empty[0]])} has an empty vector")
    missing = [int(d) for d in ids if d not in topics_by_doc]
    if missing:
        raise CorpusFormatError(
            f"{len(missing)} of the first {ids.size} documents have no topic in the qrels "
            f"file (first: {missing[0]}); the vector and topic files do not match"
        )
    try:
        V = taxonomy.encode([topics_by_doc[int(d)] for d in ids], close=True)
    except KeyError as exc:
        raise CorpusFormatError(str(exc)) from None
    return HierarchicalCorpus(normalize_rows(X), V, taxonomy, name, ids, provenance)


def load_rcv1_files(
    vector_files: Sequence[str | os.PathLike],
    qrels_file: str | os.PathLike,
    *,
    hierarchy_file: str | os.PathLike | None = None,
    n_docs: int = 100_000,
    n_features: int = LYRL_N_FEATURES,
) -> HierarchicalCorpus:
    """Load the first ``n_docs`` RCV1-v2 documents by id from LYRL2004 files (no checksum).

    ``vector_files`` are read in order (train, test_pt0, …) until ``n_docs`` documents are
    read; the first id of every later file is checked to exceed the last id taken, so the
    documents kept are the first ``n_docs`` by id. The hierarchy defaults to the shipped RCV1
    taxonomy (:func:`mlgeom.hierarchical.shipped.rcv1_taxonomy`).

    Raises
    ------
    CorpusFormatError
        On any format problem (file and line named), or files whose ids are not in order.
    """
    n_docs = check_positive_int(n_docs, "n_docs")
    if hierarchy_file is not None:
        G, _ = read_hierarchy(hierarchy_file)
    else:
        from mlgeom.hierarchical.shipped import rcv1_taxonomy

        G = rcv1_taxonomy()
    paths = [Path(f) for f in vector_files]
    if not paths:
        raise ValueError("vector_files is empty")
    all_ids: list[np.ndarray] = []
    blocks: list[sp.csr_matrix] = []
    taken = 0
    next_unread = len(paths)
    for k, p in enumerate(paths):
        if taken >= n_docs:
            next_unread = k
            break
        ids, X = read_vectors(p, n_features=n_features, max_docs=n_docs - taken)
        if all_ids and ids.size and ids[0] <= all_ids[-1][-1]:
            raise CorpusFormatError(
                f"{p}: first document id {int(ids[0])} is not after the last id "
                f"{int(all_ids[-1][-1])} of {paths[k - 1]}; give the files in chronological order"
            )
        all_ids.append(ids)
        blocks.append(X)
        taken += ids.size
    last = int(all_ids[-1][-1]) if taken else -1
    for p in paths[next_unread:]:  # unread files must start after the documents taken
        first = _first_doc_id(p)
        if first is not None and first <= last:
            raise CorpusFormatError(
                f"{p}: starts with document id {first}, not after {last}: the first {n_docs} "
                "documents by id are not the first ones read"
            )
    if taken < n_docs:
        raise CorpusFormatError(f"the vector files hold {taken} documents; {n_docs} were asked for")
    ids = np.concatenate(all_ids)
    X = sp.vstack(blocks, format="csr")
    topics = read_qrels(qrels_file, G, docs=ids)
    return corpus_from_vectors(
        ids,
        X,
        topics,
        G,
        n_docs=n_docs,
        name=f"RCV1-v2, first {n_docs:,} documents by id (LYRL2004 vectors)",
        provenance=(
            f"RCV1-v2 (Lewis et al. 2004), first {n_docs:,} documents in id (chronological) "
            "order, LYRL2004 log TF-IDF vectors (47,236 features), unit norm"
        ),
    )


def _fetch_rcv1(data_home: str | os.PathLike | None) -> Any:
    """Call scikit-learn's ``fetch_rcv1`` on its local cache only (never downloads)."""
    from sklearn.datasets import fetch_rcv1

    return fetch_rcv1(data_home=data_home, download_if_missing=False)


def corpus_from_sklearn(
    bunch: Any, taxonomy: Taxonomy, *, n_docs: int = 100_000
) -> HierarchicalCorpus:
    """Build the corpus from a ``fetch_rcv1`` result.

    ``bunch`` needs ``data``, ``target``, ``sample_id`` and ``target_names``.
    """
    n_docs = check_positive_int(n_docs, "n_docs")
    check_taxonomy(taxonomy)
    lacking = [a for a in ("data", "target", "sample_id", "target_names") if not hasattr(bunch, a)]
    if lacking:
        raise TypeError(
            "bunch must be a fetch_rcv1 result (data, target, sample_id, target_names); "
            f"{type(bunch).__name__} has no {', '.join(lacking)}"
        )
    names = [str(s) for s in bunch.target_names]
    unknown = [s for s in names if s not in set(taxonomy.names)]
    if unknown:
        raise CorpusFormatError(f"fetch_rcv1 target names not in the hierarchy: {unknown}")
    ids = np.asarray(bunch.sample_id, dtype=np.int64)
    Y = sp.csr_matrix(bunch.target)
    topics = {
        int(d): [names[j] for j in Y.indices[Y.indptr[r] : Y.indptr[r + 1]]]
        for r, d in enumerate(ids)
    }
    return corpus_from_vectors(
        ids,
        sp.csr_matrix(bunch.data),
        topics,
        taxonomy,
        n_docs=n_docs,
        name=f"RCV1-v2, first {n_docs:,} documents by id (scikit-learn fetch_rcv1)",
        provenance=(
            f"RCV1-v2 (Lewis et al. 2004) via scikit-learn fetch_rcv1, first {n_docs:,} "
            "documents in id (chronological) order, LYRL2004 vectors, unit norm"
        ),
    )


def _candidates(stem: str) -> tuple[str, ...]:
    return (f"{stem}.gz", stem)


#: The LYRL2004 files under ``$MLGEOM_DATA/rcv1/`` by role, each under the names it is
#: accepted by, in order of preference: gzip-compressed first (as the JMLR appendix and
#: figshare distribute them), then uncompressed; for the topics, scikit-learn's/figshare's name
#: ``rcv1v2.topics.qrels`` and the JMLR appendix's ``rcv1-v2.topics.qrels``.
_LYRL_FILES: dict[str, tuple[str, ...]] = {
    "train": _candidates("lyrl2004_vectors_train.dat"),
    **{f"test_pt{k}": _candidates(f"lyrl2004_vectors_test_pt{k}.dat") for k in range(4)},
    "qrels": _candidates("rcv1v2.topics.qrels") + _candidates("rcv1-v2.topics.qrels"),
    "hierarchy": _candidates("rcv1.topics.hier.orig"),
}
#: Manifest datasets whose files carry the published SHA-256 of the gzip files.
_CHECKSUM_DATASETS = (DATASET, "rcv1-v2-lyrl2004-test-pt1-3")


def _pinned_digests(datasets: dict[str, Dataset]) -> dict[str, str]:
    """``{file name: SHA-256}`` of the LYRL2004 gzip files the manifest pins."""
    out: dict[str, str] = {}
    for name in _CHECKSUM_DATASETS:
        if name in datasets:
            for rel, digest in datasets[name].files.items():
                if digest is not None:
                    out[Path(rel).name] = digest
    return out


def _find_lyrl_files(
    root: str | os.PathLike | None = None, *, manifest: dict[str, Dataset] | None = None
) -> dict[str, tuple[Path, str]]:
    """Find the LYRL2004 files of RCV1-v2 under ``root/rcv1/`` and say how each is checked.

    Each role of :data:`_LYRL_FILES` (``train``, ``test_pt0`` … ``test_pt3``, ``qrels``,
    ``hierarchy``) is taken from the first of its accepted names present, plain or gzipped. A
    file whose SHA-256 is one the manifest pins for that role is ``"verified"``; a file under a
    pinned name with another digest is refused (corrupt or another version); any other file
    (uncompressed, or a name with no published checksum) is ``"format-checked"``: every line
    is parsed when it is read.

    Parameters
    ----------
    root : path-like, optional
        The data folder (default: ``$MLGEOM_DATA``, else the project's ``data/``).
    manifest : dict, optional
        Parsed manifest (default: the project's).

    Returns
    -------
    dict
        ``{role: (path, "verified" | "format-checked")}`` for the roles found.

    Raises
    ------
    DataError
        If a file under a pinned name fails its checksum (naming it, its source and how to get
        it).
    """
    datasets = manifest if manifest is not None else load_manifest()
    base = Path(root).resolve() if root is not None else data_dir()
    pinned = _pinned_digests(datasets)
    by_digest = {d: name for name, d in pinned.items()}
    out: dict[str, tuple[Path, str]] = {}
    for role, names in _LYRL_FILES.items():
        path = next((base / "rcv1" / n for n in names if (base / "rcv1" / n).is_file()), None)
        if path is None:
            continue
        check = "format-checked"
        if path.suffix == ".gz":  # the only form with published checksums
            digest = sha256(path)
            if path.name in pinned and digest != pinned[path.name]:
                raise DataError(
                    f"checksum mismatch for rcv1/{path.name} in {base} (corrupt or a different "
                    f"version; expected the SHA-256 {pinned[path.name]} scikit-learn publishes). "
                    f"It comes from {SOURCES}. Get it with: {datasets[DATASET].get}"
                )
            if by_digest.get(digest) in names:
                check = "verified"
        out[role] = (path, check)
    return out


def _lyrl_corpus(
    found: dict[str, tuple[Path, str]], n_docs: int, base: Path, datasets: dict[str, Dataset]
) -> HierarchicalCorpus:
    """Build the corpus from the LYRL2004 files found; one message if a needed one is missing."""
    parts = [f"test_pt{k}" for k in range(4)]
    gap = next((k for k, p in enumerate(parts) if p not in found), len(parts))
    taken = parts[:gap]
    missing = [r for r in ("train", "test_pt0", "qrels") if r not in found]
    if not missing and any(p in found for p in parts[gap:]):
        missing = [parts[gap]]  # a later part without this one would skip its documents
    if missing:
        names = "; ".join(f"{r}: rcv1/{' or rcv1/'.join(_LYRL_FILES[r])}" for r in missing)
        have = ", ".join(f"rcv1/{p.name}" for p, _ in found.values())
        raise DataError(
            f"the paper's RCV1 data (first {n_docs:,} RCV1-v2 documents) is incomplete in "
            f"{base} [MLGEOM_DATA={os.environ.get('MLGEOM_DATA', '<unset: project data/>')}]: "
            f"found {have}, missing {names}. It comes from {SOURCES}. "
            f"Get it with: {datasets[DATASET].get}"
        )
    vectors = [found["train"][0]] + [found[p][0] for p in taken]
    hier = found.get("hierarchy")
    corpus = load_rcv1_files(
        vectors,
        found["qrels"][0],
        hierarchy_file=hier[0] if hier is not None else None,
        n_docs=n_docs,
    )
    checks = ", ".join(f"{p.name} {c}" for p, c in found.values())
    return replace(corpus, provenance=f"{corpus.provenance}; files: {checks}")


def load_rcv1(
    n_docs: int = 100_000,
    *,
    root: str | os.PathLike | None = None,
    manifest: dict[str, Dataset] | None = None,
    data_home: str | os.PathLike | None = None,
) -> HierarchicalCorpus:
    """Load the paper's RCV1 data: the first ``n_docs`` RCV1-v2 documents by id (Section 8).

    Looks, in order, for (1) the LYRL2004 files under ``$MLGEOM_DATA/rcv1/``
    (:func:`_find_lyrl_files`: ``lyrl2004_vectors_train.dat``, ``…_test_pt0.dat`` and, when
    more documents are asked for than these hold, ``…_pt1.dat`` … ``_pt3.dat``; the topics
    ``rcv1v2.topics.qrels`` or ``rcv1-v2.topics.qrels``; each gzipped or not; the gzip files
    verified against the checksums scikit-learn publishes, the others format-checked line by
    line), with ``rcv1.topics.hier.orig`` if present (else the shipped taxonomy); (2)
    scikit-learn's ``fetch_rcv1`` cache (``data_home``, default scikit-learn's), without
    downloading. The corpus's provenance says which files were read and how each was checked.

    Raises
    ------
    DataError
        If neither is available (one message naming the files, their sources and terms, and
        ``$MLGEOM_DATA``), the LYRL2004 files are incomplete, or a gzip file under a pinned
        name fails its checksum.
    """
    n_docs = check_positive_int(n_docs, "n_docs")
    datasets = manifest if manifest is not None else load_manifest()
    base = Path(root).resolve() if root is not None else data_dir()
    ds = datasets[DATASET]
    found = _find_lyrl_files(base, manifest=datasets)
    if any(role != "hierarchy" for role in found):
        return _lyrl_corpus(found, n_docs, base, datasets)
    try:
        bunch = _fetch_rcv1(data_home)
    except OSError as exc:
        raise DataError(
            f"the paper's RCV1 data (first {n_docs:,} RCV1-v2 documents) is not available: "
            f"none of {', '.join(ds.files)} (nor their uncompressed forms, nor "
            f"rcv1/rcv1-v2.topics.qrels[.gz]) is in {base} "
            f"[MLGEOM_DATA={os.environ.get('MLGEOM_DATA', '<unset: project data/>')}], and "
            f"scikit-learn's fetch_rcv1 cache is absent ({exc}). It comes from {SOURCES}. "
            f"Get it with: {ds.get}"
        ) from None
    hier = found.get("hierarchy")
    if hier is not None:
        G, _ = read_hierarchy(hier[0])
    else:
        from mlgeom.hierarchical.shipped import rcv1_taxonomy

        G = rcv1_taxonomy()
    return corpus_from_sklearn(bunch, G, n_docs=n_docs)
