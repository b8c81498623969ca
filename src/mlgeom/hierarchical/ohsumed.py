r"""OHSUMED records, MeSH trees, and the "Quality of Health Care" (N05.715) task of Section 8.

Cesa-Bianchi, Gentile & Zaniboni (2006), Section 8: *"The second dataset includes the documents
classified in the nodes of the subtree rooted in 'Quality of Health Care' (MeSH code N05.715) of
the OHSUMED corpus … we removed from this OHSUMED fragment the few nodes that did not have a
unique path to the root. This produced a hierarchy with 94 classes and a dataset with 55,503
documents … the subtree depth is 4 … After tokenization, we removed all stopwords and also those
words that did not occur at least 3 times in the corpus … log(1 + TF) log(IDF) encoding."*

Formats read here:

* OHSUMED (Hersh et al. 1994; files ``ohsumed.87`` … ``ohsumed.91`` of the TREC-9 filtering
  track): records of fields, each a marker line followed by its content line(s): ``.I <seq>``,
  ``.U`` MEDLINE id, ``.S`` source, ``.M`` MeSH headings (``;``-separated, ``/*`` marks a major
  topic and ``/XX`` a subheading), ``.T`` title, ``.P`` publication type, ``.W`` abstract,
  ``.A`` authors. The shared sample (``ohsumed87_sample/``) holds one record per file with the
  leading ``.I`` removed (the file starts with `` <seq>``): :func:`read_sample_folder`.
* NLM MeSH tree files (``mtrees<YEAR>.bin``): one line ``Descriptor Name;TreeNumber`` per
  tree position. Only the year used is needed (1997 by default: the MeSH closest to OHSUMED's
  indexing). The manifest's pinned copy is recognised by its SHA-256 ("verified"); any other
  file, such as a user's own copy from NLM, is used when its *shape* checks out
  (:func:`_check_mtrees_shape`: every line ``Name;TreeNumber`` with a tree number
  ``[A-Z]dd(.ddd)*``, every position's parent present, ``Quality of Health Care;N05.715``
  present with 100 to 400 positions below it; "shape-checked").

Choices the paper leaves open, made here: the classes are MeSH descriptors placed strictly
below N05.715 ("Quality of Health Care" itself would be positive for every document, so it is
the virtual root and its children are the roots of the forest, which matches the paper's share
of 0.26 of the nodes at the top level); a descriptor "has a unique path" when it has exactly one
tree position inside the subtree and its parent has a unique path (a descriptor below a removed
one is removed with it); the document text is title + abstract; by default only descriptors
that label at least one kept document are classes (the paper's 94 of about 150 subtree
descriptors suggests this; not verifiable without the full corpus).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from mlgeom._validation import check_int_vector, check_positive_int
from mlgeom.book.data import DataError, Dataset, data_dir, load_manifest, require, sha256
from mlgeom.hierarchical.corpus import CorpusFormatError, HierarchicalCorpus
from mlgeom.hierarchical.taxonomy import Taxonomy
from mlgeom.hierarchical.text_vectors import log_tf_idf, tokenize

__all__ = [
    "OHSUMED_FILES",
    "OhsumedRecord",
    "load_ohsumed",
    "mesh_subtree",
    "ohsumed_corpus",
    "parse_records",
    "read_mtrees",
    "read_records",
    "read_sample_folder",
    "strip_heading",
    "MeshSubtree",
]

#: The years of the full collection (``ohsumed.87`` … ``ohsumed.91``).
OHSUMED_YEARS = (87, 88, 89, 90, 91)
#: The full collection: TREC-9 filtering track files (348,566 records in all).
OHSUMED_FILES = tuple(f"ohsumed/ohsumed.{y}" for y in OHSUMED_YEARS)
QUALITY_OF_HEALTH_CARE = "N05.715"
QUALITY_OF_HEALTH_CARE_NAME = "Quality of Health Care"
#: Plausible number of tree positions strictly below N05.715 in a MeSH tree file (the copies
#: counted in data/provenance: 163 in 1997, 168 in 2005, 227 in 2017).
_MESH_SUBTREE_POSITIONS = (100, 400)
_TREE_NUMBER = re.compile(r"[A-Z]\d\d(\.\d{3})*")
_FIELDS = (".I", ".U", ".S", ".M", ".T", ".P", ".W", ".A")
#: Fields every record has (all 348,566 have a title; .W and .A are optional): a record
#: without them is a file cut mid-record.
_REQUIRED = (".T", ".P")
_SOURCES = (
    "OHSUMED (Hersh et al. 1994): the TREC-9 filtering track files ohsumed.87-91, "
    "distributed by OHSU/NIST (originally medir.ohsu.edu/pub/ohsumed) under NLM's condition "
    "that the data are used for experiments only and users are told they are incomplete and "
    "out of date; MeSH tree files mtrees<YEAR>.bin from the U.S. National Library of Medicine "
    "(NLM MeSH terms of use)"
)


@dataclass(frozen=True)
class OhsumedRecord:
    """One OHSUMED record (missing optional fields are empty).

    Attributes
    ----------
    seq_id : int
        ``.I``, the sequential identifier.
    medline_ui : int
        ``.U``, the MEDLINE unique identifier.
    source, title, publication_type, abstract, authors : str
        ``.S``, ``.T``, ``.P``, ``.W``, ``.A``.
    mesh : tuple of str
        ``.M`` headings as printed (with ``/*`` and ``/XX`` marks); see :func:`strip_heading`.
    """

    seq_id: int
    medline_ui: int
    source: str
    mesh: tuple[str, ...]
    title: str
    publication_type: str
    abstract: str
    authors: str

    @property
    def headings(self) -> tuple[str, ...]:
        """MeSH descriptor names with the ``/*`` and ``/XX`` marks stripped, in order, unique."""
        out: list[str] = []
        for h in self.mesh:
            s = strip_heading(h)
            if s and s not in out:
                out.append(s)
        return tuple(out)

    @property
    def text(self) -> str:
        """Title and abstract: the text that is vectorised."""
        return f"{self.title}\n{self.abstract}".strip()


def strip_heading(heading: str) -> str:
    """Strip the major-topic star and subheadings from a printed MeSH heading.

    Examples
    --------
    >>> strip_heading("Implants, Artificial/*AE")
    'Implants, Artificial'
    >>> strip_heading("Esophageal Diseases/CO/*DI/SU"), strip_heading("*Regional Blood Flow/*")
    ('Esophageal Diseases', 'Regional Blood Flow')
    """
    return heading.split("/", 1)[0].replace("*", "").strip()


def parse_records(lines: Iterable[str], *, source: str = "<string>") -> Iterator[OhsumedRecord]:
    """Parse OHSUMED records from lines of text.

    Parameters
    ----------
    lines : iterable of str
        The file's lines; each record starts with ``.I <seq>``.
    source : str
        File name used in error messages.

    Yields
    ------
    OhsumedRecord

    Raises
    ------
    CorpusFormatError
        On text outside a field, an unknown marker, a field given twice in a record, a missing
        ``.U``, a non-integer id, a field marker with no text, or a record without its title
        (``.T``) or publication type (``.P``): what a file cut mid-record leaves (naming
        ``source`` and the line number).
    """
    rec: dict[str, list[str]] | None = None
    start = 0
    current: str | None = None

    def finish(r: dict[str, list[str]], line: int) -> OhsumedRecord:
        if ".U" not in r or not r[".U"]:
            raise CorpusFormatError(f"{source}:{line}: record .I {r['.I'][0]} has no .U field")
        try:
            seq = int(r[".I"][0])
            ui = int(r[".U"][0].strip())
        except ValueError:
            raise CorpusFormatError(
                f"{source}:{line}: record ids must be integers; got .I {r['.I'][0]!r}, "
                f".U {' '.join(r['.U'])!r}"
            ) from None
        empty = [k for k in _FIELDS if k in r and not r[k]]
        if empty:
            raise CorpusFormatError(
                f"{source}:{line}: field {empty[0]} of record .I {r['.I'][0]} is empty "
                "(a file cut mid-record?)"
            )
        absent = [k for k in _REQUIRED if k not in r]
        if absent:
            raise CorpusFormatError(
                f"{source}:{line}: record .I {r['.I'][0]} has no {' or '.join(absent)} field: "
                "every OHSUMED record has a title (.T) and ends with its publication type (.P), "
                "abstract (.W) or authors (.A) (a file cut mid-record?)"
            )

        def get(k: str) -> str:
            return " ".join(s.strip() for s in r.get(k, [])).strip()

        mesh_text = get(".M").rstrip(".")
        mesh = tuple(h.strip() for h in mesh_text.split(";") if h.strip())
        return OhsumedRecord(seq, ui, get(".S"), mesh, get(".T"), get(".P"), get(".W"), get(".A"))

    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if stripped.startswith(".I") and (len(stripped) == 2 or stripped[2] in " \t"):
            if rec is not None:
                yield finish(rec, start)
            value = stripped[2:].strip()
            if not value:
                raise CorpusFormatError(f"{source}:{lineno}: '.I' without a sequence number")
            rec, start, current = {".I": [value]}, lineno, None
            continue
        if re.fullmatch(r"\.[A-Z]", stripped):
            if rec is None:
                raise CorpusFormatError(
                    f"{source}:{lineno}: field {stripped} before the first '.I' record marker"
                )
            if stripped not in _FIELDS:
                raise CorpusFormatError(
                    f"{source}:{lineno}: unknown field marker {stripped!r} "
                    f"(expected one of {' '.join(_FIELDS)})"
                )
            if stripped in rec:
                raise CorpusFormatError(
                    f"{source}:{lineno}: field {stripped} appears twice in record .I {rec['.I'][0]}"
                )
            rec[stripped] = []
            current = stripped
            continue
        if not stripped:
            continue
        if rec is None or current is None:
            raise CorpusFormatError(
                f"{source}:{lineno}: text outside a field: {line[:60]!r} "
                "(expected a marker line such as '.I 1' or '.T')"
            )
        rec[current].append(stripped)
    if rec is not None:
        yield finish(rec, start)


def _read_text(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="latin-1").splitlines()
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc


def read_records(path: str | os.PathLike) -> list[OhsumedRecord]:
    """Read a whole ``ohsumed.YY`` file (see :func:`parse_records`).

    Raises
    ------
    CorpusFormatError
        On a malformed line, or an ``.I`` id that occurs twice in the file.
    """
    p = Path(path)
    out = list(parse_records(_read_text(p), source=str(p)))
    _check_unique(out, str(p))
    return out


def _check_unique(records: Sequence[OhsumedRecord], where: str) -> None:
    seen: dict[int, int] = {}
    for k, r in enumerate(records):
        if r.seq_id in seen:
            raise CorpusFormatError(
                f"{where}: duplicate record id .I {r.seq_id} (records {seen[r.seq_id] + 1} "
                f"and {k + 1})"
            )
        seen[r.seq_id] = k


def read_sample_folder(folder: str | os.PathLike) -> list[OhsumedRecord]:
    """Read the shared sample: one record per file, leading ``.I`` stripped, sorted by ``.I``.

    Empty files are skipped (the sample has two) and a file holding a record identical to
    another one (same ``.I``, same content) is read once. Two *different* records with the same
    ``.I`` raise :class:`CorpusFormatError`.
    """
    root = Path(folder)
    files = sorted(p for p in root.rglob("*.txt") if p.is_file())
    if not files:
        raise DataError(f"no record files (*.txt) in {root}")
    by_id: dict[int, tuple[OhsumedRecord, Path]] = {}
    for f in files:
        lines = _read_text(f)
        first = next((k for k, s in enumerate(lines) if s.strip()), None)
        if first is None:
            continue  # an empty file (the shared sample has two, both named File_01.txt)
        if not re.fullmatch(r"\s*\d+\s*", lines[first]):
            raise CorpusFormatError(
                f"{f}:{first + 1}: expected the record's sequence number (the sample's "
                f"files start with ' <seq>', the '.I' marker stripped)"
            )
        lines[first] = ".I " + lines[first].strip()
        recs = list(parse_records(lines, source=str(f)))
        if len(recs) != 1:
            raise CorpusFormatError(f"{f}: expected one record per file; found {len(recs)}")
        r = recs[0]
        if r.seq_id in by_id and by_id[r.seq_id][0] != r:
            raise CorpusFormatError(
                f"{f}: duplicate record id .I {r.seq_id} with different content "
                f"(also in {by_id[r.seq_id][1]})"
            )
        by_id.setdefault(r.seq_id, (r, f))
    return [by_id[k][0] for k in sorted(by_id)]


# ---------------------------------------------------------------------- MeSH trees
def read_mtrees(path: str | os.PathLike) -> dict[str, tuple[str, ...]]:
    """Read an NLM ``mtrees`` file: ``{descriptor name: tree numbers}``.

    Raises
    ------
    CorpusFormatError
        On a line that is not ``Name;TreeNumber`` or a tree number given to two descriptors.
    """
    p = Path(path)
    out: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    lines = _read_text(p)
    if lines and lines[0].startswith("\xef\xbb\xbf"):  # a UTF-8 byte-order mark, read as latin-1
        lines[0] = lines[0][3:]
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        name, sep, number = line.rpartition(";")
        name, number = name.strip(), number.strip()
        if not sep or not name or not _TREE_NUMBER.fullmatch(number):
            raise CorpusFormatError(
                f"{p}:{lineno}: expected 'Descriptor Name;TreeNumber' (e.g. "
                f"'Quality of Health Care;N05.715'); got {line[:60]!r}"
            )
        if number in owner and owner[number] != name:
            raise CorpusFormatError(
                f"{p}:{lineno}: tree number {number} given to {owner[number]!r} and {name!r}"
            )
        owner[number] = name
        out.setdefault(name, []).append(number)
    if not out:
        raise CorpusFormatError(f"{p}: no 'Descriptor Name;TreeNumber' line (an empty file)")
    return {k: tuple(v) for k, v in out.items()}


def _check_mtrees_shape(
    mtrees: dict[str, Sequence[str]], *, source: str = "MeSH trees"
) -> dict[str, int]:
    """Check that parsed tree numbers look like a whole NLM MeSH tree file; summarise them.

    A MeSH file that is not the manifest's pinned copy (a user's own ``mtrees1997.bin``, say)
    is used for the OHSUMED task of Section 8 when its shape is that of a MeSH tree file:

    * every line is ``Descriptor Name;TreeNumber`` with a tree number ``[A-Z]dd(.ddd)*`` and no
      tree number given to two descriptors (checked line by line by :func:`read_mtrees`);
    * the tree is closed: the parent position of every tree number (the number without its last
      ``.ddd``) is in the file too;
    * ``Quality of Health Care`` holds ``N05.715``, the subtree of the paper's task;
    * :data:`_MESH_SUBTREE_POSITIONS` (100 to 400) tree positions lie strictly below N05.715
      (163 in the 1997 copy the project pins, 168 in 2005, 227 in 2017).

    Parameters
    ----------
    mtrees : dict
        Output of :func:`read_mtrees`.
    source : str
        Name of the file, used in error messages.

    Returns
    -------
    dict
        ``tree_positions``, ``descriptors``, ``subtree_positions`` (strictly below N05.715)
        and ``subtree_depth`` (levels below N05.715).

    Raises
    ------
    CorpusFormatError
        One line naming ``source`` and the first check that fails.
    """
    owner = {num: name for name, nums in mtrees.items() for num in nums}
    bad = next((num for num in owner if not _TREE_NUMBER.fullmatch(str(num))), None)
    if bad is not None:
        raise CorpusFormatError(
            f"{source}: {bad!r} is not a MeSH tree number (letter, two digits, then .ddd groups)"
        )
    orphan = next((num for num in sorted(owner) if "." in num and num[:-4] not in owner), None)
    if orphan is not None:
        raise CorpusFormatError(
            f"{source}: tree number {orphan} ({owner[orphan]!r}) has no parent position "
            f"{orphan[:-4]} in the file; not a whole MeSH tree file"
        )
    root, name = QUALITY_OF_HEALTH_CARE, QUALITY_OF_HEALTH_CARE_NAME
    if owner.get(root) != name:
        held = f"it gives {root} to {owner[root]!r}" if root in owner else f"it has no {root}"
        raise CorpusFormatError(
            f"{source}: expected the line '{name};{root}' (the subtree of the OHSUMED task); {held}"
        )
    below = [num for num in owner if num.startswith(root + ".")]
    lo, hi = _MESH_SUBTREE_POSITIONS
    if not lo <= len(below) <= hi:
        raise CorpusFormatError(
            f"{source}: {len(below)} tree positions below {root} ({name}); a MeSH tree file "
            f"has {lo} to {hi} there (163 in MeSH 1997)"
        )
    return {
        "tree_positions": len(owner),
        "descriptors": len(mtrees),
        "subtree_positions": len(below),
        "subtree_depth": max(num.count(".") for num in below) - root.count("."),
    }


@dataclass(frozen=True)
class MeshSubtree:
    """The forest below one MeSH tree position, descriptors with a unique path only.

    Attributes
    ----------
    taxonomy : Taxonomy
        Nodes are descriptor names; roots are the children of the subtree's root.
    tree_numbers : tuple of str
        Tree number of each node.
    removed : tuple of str
        Descriptors below the root that were removed (no unique path), sorted.
    """

    taxonomy: Taxonomy
    tree_numbers: tuple[str, ...]
    removed: tuple[str, ...]


def mesh_subtree(
    mtrees: dict[str, Sequence[str]], root: str = QUALITY_OF_HEALTH_CARE
) -> MeshSubtree:
    """Return the forest of descriptors strictly below tree position ``root`` (Section 8).

    A descriptor is kept when it has exactly one tree position below ``root`` and its parent
    position's descriptor is kept (or is ``root`` itself): the paper removed "the few nodes
    that did not have a unique path to the root".

    Raises
    ------
    ValueError
        If no descriptor lies below ``root``.
    """
    prefix = root + "."
    positions: dict[str, list[str]] = {}
    for name, numbers in mtrees.items():
        for num in numbers:
            if num.startswith(prefix):
                positions.setdefault(name, []).append(num)
    if not positions:
        raise ValueError(f"no MeSH descriptor below tree number {root!r}")
    by_number = {num: name for name, nums in positions.items() for num in nums}
    kept: dict[str, str] = {}  # name -> its unique tree number
    for num in sorted(by_number, key=lambda s: (s.count("."), s)):  # parents first
        name = by_number[num]
        if len(positions[name]) != 1:
            continue
        parent_num = num.rsplit(".", 1)[0]
        if parent_num == root or by_number.get(parent_num) in kept:
            kept[name] = num
    names = sorted(kept, key=lambda s: kept[s].split("."))
    index = {s: i for i, s in enumerate(names)}
    parents = []
    for s in names:
        pnum = kept[s].rsplit(".", 1)[0]
        parents.append(-1 if pnum == root else index[by_number[pnum]])
    removed = tuple(sorted(set(positions) - set(kept)))
    return MeshSubtree(Taxonomy(parents, names), tuple(kept[s] for s in names), removed)


def ohsumed_corpus(
    records: Sequence[OhsumedRecord],
    mtrees: dict[str, Sequence[str]],
    *,
    root: str = QUALITY_OF_HEALTH_CARE,
    min_count: int = 3,
    drop_unused: bool = True,
    name: str = "OHSUMED N05.715",
    provenance: str = "",
) -> tuple[HierarchicalCorpus, dict[str, object]]:
    r"""Build the Section 8 OHSUMED task from records and MeSH trees.

    Keeps the records with at least one heading in the (unique-path) subtree, closes their
    labels upward, vectorises title + abstract by
    :func:`mlgeom.hierarchical.text_vectors.log_tf_idf`
    (stop words and words seen fewer than ``min_count`` times removed, unit norm) and drops
    documents whose vector is empty.

    Parameters
    ----------
    records : sequence of OhsumedRecord
        The documents.
    mtrees : dict
        Output of :func:`read_mtrees`.
    root : str, default="N05.715"
        The subtree ("Quality of Health Care").
    min_count : int, default=3
        Minimum number of occurrences of a word in the kept documents.
    drop_unused : bool, default=True
        Keep as classes only descriptors positive in at least one kept document.
    name, provenance : str
        Stored in the corpus.

    Returns
    -------
    corpus : HierarchicalCorpus
        ``doc_ids`` are the records' ``.I`` numbers (increasing).
    report : dict
        Counts: records read, with a subtree heading, dropped as empty, subtree descriptors,
        removed descriptors, classes; the classes' tree numbers; the vocabulary (the columns
        of ``corpus.X``).
    """
    min_count = check_positive_int(min_count, "min_count")
    sub = mesh_subtree(mtrees, root)
    G = sub.taxonomy
    known = set(G.names)
    recs = sorted(records, key=lambda r: r.seq_id)
    _check_unique(recs, "records")
    label_sets = [[h for h in r.headings if h in known] for r in recs]
    has = [bool(s) for s in label_sets]
    recs = [r for r, k in zip(recs, has, strict=True) if k]
    label_sets = [s for s, k in zip(label_sets, has, strict=True) if k]
    if not recs:
        raise ValueError(f"no record has a MeSH heading below {root}")
    V = G.encode(label_sets, close=True)  # labels closed upward (ancestors added)
    tf = log_tf_idf([tokenize(r.text) for r in recs], min_count=min_count)
    keep = np.flatnonzero(tf.nonempty)
    if keep.size == 0:
        raise ValueError(
            f"min_count={min_count} leaves every one of the {len(recs)} documents with an empty "
            f"vector (vocabulary of {len(tf.vocabulary)} words); lower min_count"
        )
    X, V = tf.X[keep], V[keep]
    tree_numbers = sub.tree_numbers
    if drop_unused:
        used = np.flatnonzero(np.asarray(V.sum(axis=0)).ravel() > 0)
        G, kept_nodes = G.restrict(used)
        V = V[:, kept_nodes]
        tree_numbers = tuple(tree_numbers[i] for i in kept_nodes)
    ids = np.array([recs[k].seq_id for k in keep], dtype=np.int64)
    corpus = HierarchicalCorpus(X, V, G, name, ids, provenance)
    report: dict[str, object] = {
        "records": len(records),
        "records_with_subtree_heading": len(recs),
        "dropped_empty_vectors": int(len(recs) - keep.size),
        "documents": corpus.n_docs,
        "subtree_descriptors_unique_path": sub.taxonomy.n_nodes,
        "removed_descriptors": list(sub.removed),
        "classes": G.n_nodes,
        "tree_numbers": list(tree_numbers),
        "vocabulary_size": len(tf.vocabulary),
        "vocabulary": tf.vocabulary,  # the columns of corpus.X
    }
    return corpus, report


def _check_years(years: Any) -> tuple[int, ...]:
    """Return the OHSUMED years asked for: distinct integers among :data:`OHSUMED_YEARS`."""
    lo, hi = OHSUMED_YEARS[0], OHSUMED_YEARS[-1]
    if isinstance(years, str):
        raise ValueError(f"years must be a sequence of years among {lo}-{hi}; got {years!r}")
    arr = check_int_vector(years, "years", minimum=lo, maximum=hi)
    if np.unique(arr).size != arr.size:
        raise ValueError(f"years must be distinct; got {arr.tolist()}")
    return tuple(int(y) for y in arr)


def _check_mesh_year(mesh_year: Any, datasets: dict[str, Dataset]) -> int:
    """Return ``mesh_year`` if the manifest's ``mesh-trees`` lists its ``mtrees<YEAR>.bin``."""
    ds = datasets.get("mesh-trees")
    listed = ds.files if ds is not None else {}
    found = (re.fullmatch(r"mesh/mtrees(\d{4})\.bin", rel) for rel in listed)
    years = sorted(int(m.group(1)) for m in found if m)
    if (
        isinstance(mesh_year, bool)
        or not isinstance(mesh_year, Integral)
        or int(mesh_year) not in years
    ):
        shown = ", ".join(map(str, years)) or "none"
        raise ValueError(
            f"mesh_year must be one of the MeSH years the manifest lists ({shown}); "
            f"got {mesh_year!r}"
        )
    return int(mesh_year)


def _shown_path(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


def _mesh_trees(
    mesh_year: int, mesh_file: Path | None, base: Path, datasets: dict[str, Dataset]
) -> tuple[dict[str, tuple[str, ...]], dict[str, object]]:
    """Read the MeSH file of ``mesh_year``: verified if the pinned copy, else shape-checked."""
    rel = f"mesh/mtrees{mesh_year}.bin"
    path = mesh_file if mesh_file is not None else base / rel
    ds = datasets["mesh-trees"]
    if not path.is_file():
        raise DataError(
            f"the paper's OHSUMED task needs the MeSH {mesh_year} tree file "
            f"{_shown_path(path, base)} under $MLGEOM_DATA "
            f"[MLGEOM_DATA={os.environ.get('MLGEOM_DATA', '<unset: project data/>')}]; it is "
            f"missing. It comes from {ds.source} (terms: {ds.terms}). Get it with: {ds.get}"
        )
    mtrees = read_mtrees(path)
    pinned = ds.files.get(rel)
    if pinned is not None and sha256(path) == pinned:
        return mtrees, {"mesh_file": str(path), "mesh_check": "verified", "mesh_shape": None}
    try:
        shape = _check_mtrees_shape(mtrees, source=str(path))
    except CorpusFormatError as exc:
        raise CorpusFormatError(
            f"{exc}. It is not the pinned copy of {rel} (SHA-256 differs), so its shape was "
            "checked: NLM's mtrees format, 'Quality of Health Care;N05.715' and 100-400 "
            "positions below it"
        ) from None
    return mtrees, {"mesh_file": str(path), "mesh_check": "shape-checked", "mesh_shape": shape}


def load_ohsumed(
    *,
    years: Sequence[int] = (87, 88, 89, 90, 91),
    mesh_year: int = 1997,
    mesh_file: str | os.PathLike | None = None,
    root: str | os.PathLike | None = None,
    manifest: dict[str, Dataset] | None = None,
) -> tuple[HierarchicalCorpus, dict[str, object]]:
    """Load the paper-profile OHSUMED task from the full collection under ``$MLGEOM_DATA``.

    Reads ``ohsumed/ohsumed.<YY>`` for each of ``years`` (manifest dataset ``ohsumed-full``)
    and one MeSH tree file, ``mesh_file`` or else ``mesh/mtrees<mesh_year>.bin``; nothing else
    (in particular not the other MeSH year). The OHSUMED files have no published checksum, so
    they are checked by their format (every line must parse, ids unique). The MeSH file is
    *verified* when its SHA-256 is the one the manifest's ``mesh-trees`` pins for
    ``mtrees<mesh_year>.bin``; any other file (a user's own copy of NLM's file) is used when
    :func:`_check_mtrees_shape` accepts it (*shape-checked*). The report says which.

    Parameters
    ----------
    years : sequence of int, default=(87, 88, 89, 90, 91)
        Distinct years among 87 … 91 (the records read).
    mesh_year : int, default=1997
        A year whose ``mesh/mtrees<YEAR>.bin`` the manifest lists (its pinned checksum).
    mesh_file : path-like, optional
        The MeSH tree file of ``mesh_year`` to use (default:
        ``<root>/mesh/mtrees<mesh_year>.bin``).
    root : path-like, optional
        The data folder (default: ``$MLGEOM_DATA``, else the project's ``data/``).
    manifest : dict, optional
        Parsed manifest (default: the project's).

    Returns
    -------
    corpus : HierarchicalCorpus
    report : dict
        That of :func:`ohsumed_corpus`, plus ``mesh_file``, ``mesh_check`` (``"verified"`` or
        ``"shape-checked"``) and ``mesh_shape`` (the summary of :func:`_check_mtrees_shape`
        when shape-checked, else ``None``).

    Raises
    ------
    ValueError
        If ``years`` or ``mesh_year`` is not one of those.
    TypeError
        If ``mesh_file`` is neither a path nor None.
    DataError
        One message naming the missing files, their official sources and terms, and
        ``$MLGEOM_DATA``; or (:class:`CorpusFormatError`) a file that does not parse, or a MeSH
        file that is neither the pinned copy nor of a MeSH tree file's shape.
    """
    datasets = manifest if manifest is not None else load_manifest()
    years = _check_years(years)
    mesh_year = _check_mesh_year(mesh_year, datasets)
    wanted = [f"ohsumed/ohsumed.{y}" for y in years]
    base = Path(root).resolve() if root is not None else data_dir()
    if mesh_file is not None and not isinstance(mesh_file, (str, os.PathLike)):
        raise TypeError(f"mesh_file must be a path or None; got {type(mesh_file).__name__}")
    mesh_path = Path(mesh_file).expanduser() if mesh_file is not None else None
    full = datasets.get("ohsumed-full")
    if full is not None:  # only the years asked for are needed
        listed = {rel: full.files.get(rel) for rel in wanted}
        datasets = {**datasets, "ohsumed-full": replace(full, files=listed)}
    needed_mesh = str(mesh_path) if mesh_path is not None else f"mesh/mtrees{mesh_year}.bin"
    try:
        base = require("ohsumed-full", manifest=datasets, root=base)
    except DataError as exc:
        raise DataError(
            f"the paper's OHSUMED task needs {', '.join(wanted)} and {needed_mesh} "
            f"under $MLGEOM_DATA; they come from {_SOURCES}. Details: {exc}"
        ) from None
    mtrees, mesh_report = _mesh_trees(mesh_year, mesh_path, base, datasets)
    records: list[OhsumedRecord] = []
    for rel in wanted:
        records.extend(read_records(base / rel))
    _check_unique(records, "ohsumed.87-91")
    corpus, report = ohsumed_corpus(
        records,
        mtrees,
        name="OHSUMED N05.715 (full collection)",
        provenance=(
            f"OHSUMED {', '.join(str(y) for y in years)} (Hersh et al. 1994), MeSH {mesh_year} "
            f"({mesh_report['mesh_check']}) N05.715 subtree, log(1+TF)log(IDF), unit norm"
        ),
    )
    report.update(mesh_report)
    return corpus, report
