r"""Taxonomies (forests of labels) and multilabels that respect them.

Section 2 of Cesa-Bianchi, Gentile & Zaniboni (2006): a taxonomy :math:`G` is a forest over the
:math:`N` classes; a multilabel :math:`\mathbf v \in \{0,1\}^N` *respects* :math:`G` when it is
a union of paths starting at roots, i.e. :math:`v_i = 1 \Rightarrow v_{\mathrm{PAR}(i)} = 1`.
The *G-truncation* of :math:`\hat{\mathbf y}` keeps :math:`\hat y_i = 1` only when every
ancestor is also 1 (the definition before Lemma 1).

Nodes are numbered ``0 … N-1`` in the order they were given; :attr:`Taxonomy.order` lists them
parents first (breadth first), which is the order a top-down evaluation (eq. 15) visits them.
Roots have depth 0, as in the paper's Table 2.

Batches of multilabels are ``(n, N)`` 0/1 matrices, dense (numpy) or sparse (scipy); the
functions here return dense boolean arrays (``N`` is small: 103 for RCV1, 94 for OHSUMED).

References
----------
N. Cesa-Bianchi, C. Gentile, L. Zaniboni. Incremental algorithms for hierarchical
classification. JMLR 7 (2006) 31–54.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from mlgeom._validation import check_multilabels

__all__ = ["Taxonomy", "TaxonomyError"]


class TaxonomyError(ValueError):
    """A parent list, edge list or multilabel that does not describe a valid forest."""


class _NodeIndexError(IndexError, ValueError):
    """A node index outside ``0 … N-1``: an ``IndexError`` that is also a ``ValueError``."""


class Taxonomy:
    """A forest over ``N`` labels (Section 2).

    Parameters
    ----------
    parents : sequence of int
        ``parents[i]`` is the index of PAR(i), or ``-1`` when ``i`` is a root.
    names : sequence of str, optional
        Label names (default ``"0"``, ``"1"``, …); must be distinct.

    Raises
    ------
    TaxonomyError
        If a parent index is out of range, a node is its own ancestor (a cycle), or names repeat.

    Examples
    --------
    A two-tree forest consistent with the caption of the paper's Figure 1 (nodes 1…11 there,
    0…10 here; 1 → 2 → 4 is not a path):

    >>> G = Taxonomy([-1, 0, 0, 2, 2, -1, 5, 5, 7, 7, 7])
    >>> G.roots.tolist(), G.ancestors(9), G.max_depth
    ([0, 5], (7, 5), 2)
    >>> G.respects([[1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0], [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]]).tolist()
    [True, False]
    """

    def __init__(self, parents: Sequence[int], names: Sequence[str] | None = None) -> None:
        raw = np.asarray(parents)
        if raw.dtype.kind == "f" and raw.size:  # 0.7 is not the parent 0
            frac = ~np.isfinite(raw) | (raw != np.round(raw))
            if np.any(frac):
                i = int(np.flatnonzero(frac.reshape(-1))[0])
                raise TaxonomyError(
                    f"parents must be integers; got {raw.reshape(-1)[i]} for node {i}"
                )
        elif raw.dtype.kind not in "iuf":
            raise TaxonomyError(f"parents must be a sequence of integers; got {parents!r:.60}")
        try:
            par = np.asarray(raw, dtype=np.int64).reshape(-1)
        except (TypeError, ValueError) as exc:
            raise TaxonomyError(f"parents must be a sequence of integers; got {parents!r}") from exc
        n = par.size
        if n == 0:
            raise TaxonomyError("a taxonomy needs at least one node; got an empty parent list")
        bad = np.flatnonzero((par < -1) | (par >= n))
        if bad.size:
            i = int(bad[0])
            raise TaxonomyError(f"parent of node {i} is {int(par[i])}, outside -1 (root) … {n - 1}")
        if names is None:
            names = [str(i) for i in range(n)]
        names = [str(s) for s in names]
        if len(names) != n:
            raise TaxonomyError(f"got {len(names)} names for {n} nodes")
        if len(set(names)) != n:
            seen: set[str] = set()
            dup = next(s for s in names if s in seen or seen.add(s))  # type: ignore[func-returns-value]
            raise TaxonomyError(f"label {dup!r} appears twice")
        # depth and cycle check in one pass (memoised walk up)
        depth = np.full(n, -1, dtype=np.int64)
        for start in range(n):
            path = []
            i = start
            while i != -1 and depth[i] < 0:
                if i in path:
                    cyc = path[path.index(i) :] + [i]
                    raise TaxonomyError(
                        "cycle in the taxonomy: " + " -> ".join(names[j] for j in cyc)
                    )
                path.append(i)
                i = int(par[i])
            d = -1 if i == -1 else int(depth[i])
            for j in reversed(path):
                d += 1
                depth[j] = d
        par.setflags(write=False)
        depth.setflags(write=False)
        self._parent = par
        self._depth = depth
        self._names = tuple(names)
        self._index = {s: i for i, s in enumerate(self._names)}
        kids: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            if par[i] >= 0:
                kids[int(par[i])].append(i)
        self._children = tuple(tuple(k) for k in kids)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_parent_map(cls, mapping: Mapping[str, str | None]) -> Taxonomy:
        """Build from ``{child name: parent name or None}``; every parent must be a key.

        Raises
        ------
        TaxonomyError
            If a parent is not itself listed as a node (an unknown label).
        """
        names = list(mapping)
        index = {s: i for i, s in enumerate(names)}
        parents = []
        for child, p in mapping.items():
            if p is None:
                parents.append(-1)
            elif p in index:
                parents.append(index[p])
            else:
                raise TaxonomyError(f"parent {p!r} of {child!r} is not a node of the taxonomy")
        return cls(parents, names)

    @classmethod
    def from_edges(
        cls,
        edges: Iterable[tuple[str, str]],
        *,
        virtual_root: str | None = None,
        nodes: Iterable[str] | None = None,
        roots: Iterable[str] | None = None,
    ) -> Taxonomy:
        """Build from ``(parent, child)`` name pairs.

        Parameters
        ----------
        edges : iterable of (str, str)
            Parent–child pairs; nodes are numbered in order of first appearance.
        virtual_root : str, optional
            A name that is not a class (e.g. ``"Root"`` in RCV1's file): its children become roots.
        nodes : iterable of str, optional
            Extra isolated nodes (roots with no edge).
        roots : iterable of str, optional
            The expected roots. With a ``virtual_root`` they default to its children (plus
            ``nodes``); a parent that is never a child (a typo in a parent's name) is then an
            unexpected root and an error.

        Raises
        ------
        TaxonomyError
            If a node has two different parents (also when an edge re-parents a child of the
            virtual root), the edges contain a cycle, or a root is not an expected one.
        """
        parent: dict[str, str | None] = {}
        order: list[str] = []
        assigned: set[str] = set()  # nodes that appeared as a child

        def add(name: str) -> None:
            if name not in parent:
                parent[name] = None
                order.append(name)

        for k, pair in enumerate(edges):
            try:
                p, c = (str(s).strip() for s in pair)
            except (TypeError, ValueError) as exc:
                raise TaxonomyError(f"edge {k} is not a (parent, child) pair: {pair!r}") from exc
            if not p or not c:
                raise TaxonomyError(f"edge {k} has an empty name: {pair!r}")
            if c == virtual_root:
                raise TaxonomyError(
                    f"the virtual root {virtual_root!r} appears as a child of {p!r}"
                )
            if p != virtual_root:
                add(p)
            add(c)
            new = None if p == virtual_root else p
            if c in assigned and parent[c] != new:
                old = virtual_root if parent[c] is None else parent[c]
                raise TaxonomyError(f"node {c!r} has two parents, {old!r} and {p!r}: not a forest")
            parent[c] = new
            assigned.add(c)
        extra = [str(name) for name in nodes or ()]
        for name in extra:
            add(name)
        if roots is not None:
            expected = {str(r) for r in roots}
        elif virtual_root is not None:
            expected = {c for c in order if c in assigned and parent[c] is None} | set(extra)
        else:
            expected = None
        if expected is not None:
            unexpected = [s for s in order if parent[s] is None and s not in expected]
            if unexpected:
                where = f"a child of {virtual_root!r}" if roots is None else "in roots"
                raise TaxonomyError(
                    f"node {unexpected[0]!r} is a root but not {where}; "
                    "a misspelt parent name? (unexpected roots: "
                    f"{', '.join(map(repr, unexpected[:5]))})"
                )
        return cls.from_parent_map({s: parent[s] for s in order})

    @classmethod
    def from_edge_file(
        cls, path: str | os.PathLike, *, virtual_root: str | None = "Root"
    ) -> Taxonomy:
        """Read a tab/space-separated file of lines ``parent child1 [child2 …]``.

        This is the format of RCV1's ``rcv1.taxonomy`` (a first line ``Root CCAT ECAT GCAT MCAT``);
        blank lines and lines starting with ``#`` are skipped.

        Raises
        ------
        TaxonomyError
            On a line with fewer than two fields (with its line number), or an invalid forest.
        """
        path = Path(path)
        edges = []
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise TaxonomyError(
                f"{path}: not UTF-8 text (byte {exc.object[exc.start : exc.start + 1]!r} at "
                f"offset {exc.start}); re-encode the file as UTF-8"
            ) from None
        for lineno, line in enumerate(lines, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = text.split()
            if len(fields) < 2:
                raise TaxonomyError(
                    f"{path}:{lineno}: expected 'parent child …', got {line.rstrip()!r}"
                )
            edges.extend((fields[0], c) for c in fields[1:])
        try:
            return cls.from_edges(edges, virtual_root=virtual_root)
        except TaxonomyError as exc:
            raise TaxonomyError(f"{path}: {exc}") from None

    # ------------------------------------------------------------------ structure
    @property
    def n_nodes(self) -> int:
        """N, the number of classes."""
        return int(self._parent.size)

    def __len__(self) -> int:
        return self.n_nodes

    def __repr__(self) -> str:
        return (
            f"Taxonomy(n_nodes={self.n_nodes}, roots={len(self.roots)}, "
            f"max_depth={int(self._depth.max())})"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Taxonomy)
            and self._names == other._names
            and np.array_equal(self._parent, other._parent)
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def parent(self) -> np.ndarray:
        """PAR(i) for every node (``-1`` for a root); read-only int64 array."""
        return self._parent

    @property
    def names(self) -> tuple[str, ...]:
        """Label names, by node index."""
        return self._names

    @property
    def depth(self) -> np.ndarray:
        """Depth of every node (roots 0, as in Table 2); read-only int64 array."""
        return self._depth

    @property
    def max_depth(self) -> int:
        """The largest depth."""
        return int(self._depth.max())

    @cached_property
    def roots(self) -> np.ndarray:
        """ROOT(G), in index order."""
        out = np.flatnonzero(self._parent < 0)
        out.setflags(write=False)
        return out

    @cached_property
    def order(self) -> np.ndarray:
        """All nodes, parents before children (by depth, then index): the top-down order."""
        out = np.lexsort((np.arange(self.n_nodes), self._depth))
        out.setflags(write=False)
        return out

    def index(self, name: str) -> int:
        """Index of label ``name``; ``KeyError`` naming the unknown label otherwise."""
        try:
            return self._index[name]
        except KeyError:
            raise KeyError(
                f"unknown label {name!r}; not in this taxonomy of {self.n_nodes} nodes"
            ) from None

    def children(self, i: int) -> tuple[int, ...]:
        """CHILD(i)."""
        return self._children[self._check_node(i)]

    def ancestors(self, i: int) -> tuple[int, ...]:
        """ANC(i), nearest first (PAR(i), PAR(PAR(i)), …, its root); empty for a root."""
        i = self._check_node(i)
        out = []
        j = int(self._parent[i])
        while j >= 0:
            out.append(j)
            j = int(self._parent[j])
        return tuple(out)

    def subtree(self, i: int) -> tuple[int, ...]:
        """SUB(i): ``i`` and all its descendants, top-down."""
        i = self._check_node(i)
        out, frontier = [i], [i]
        while frontier:
            frontier = [c for j in frontier for c in self._children[j]]
            out.extend(frontier)
        return tuple(out)

    @cached_property
    def ancestor_matrix(self) -> sp.csr_matrix:
        """Sparse ``(N, N)`` 0/1 matrix ``A`` with ``A[i, j] = 1`` iff ``j`` ∈ ANC(i)."""
        rows, cols = [], []
        for i in range(self.n_nodes):
            for j in self.ancestors(i):
                rows.append(i)
                cols.append(j)
        data = np.ones(len(rows), dtype=np.int8)
        return sp.csr_matrix((data, (rows, cols)), shape=(self.n_nodes, self.n_nodes))

    def _check_node(self, i: Any) -> int:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"i (a node) must be an integer index; got {i!r}")
        if not 0 <= int(i) < self.n_nodes:
            raise _NodeIndexError(f"node i = {int(i)} is outside 0 … {self.n_nodes - 1}")
        return int(i)

    # ------------------------------------------------------------------ multilabels
    def as_multilabels(self, Y: Any, name: str = "Y") -> np.ndarray:
        """Validate a batch of multilabels and return it as a dense ``(n, N)`` bool array.

        A single multilabel (1-D) becomes one row. Entries must be 0 or 1.

        Raises
        ------
        ValueError
            On a wrong number of columns or an entry other than 0/1 (with the first bad value).
        """
        return check_multilabels(Y, name, n_cols=self.n_nodes)

    def truncate(self, Y: Any) -> np.ndarray:
        """G-truncation (Section 3): keep ``y_i = 1`` only if every ancestor of ``i`` is 1.

        Returns a dense ``(n, N)`` bool array (a 1-D input gives one row).
        """
        Yb = self.as_multilabels(Y).copy()
        for i in self.order:
            p = self._parent[i]
            if p >= 0:
                Yb[:, i] &= Yb[:, p]
        return Yb

    def respects(self, Y: Any) -> np.ndarray:
        """Whether each multilabel respects G (a union of root-starting paths): bool per row."""
        Yb = self.as_multilabels(Y)
        child = np.flatnonzero(self._parent >= 0)
        violated = Yb[:, child] & ~Yb[:, self._parent[child]]
        return ~violated.any(axis=1)

    def close_upward(self, Y: Any) -> np.ndarray:
        """Add every ancestor of every positive node (the smallest respecting superset)."""
        Yb = self.as_multilabels(Y).copy()
        for i in self.order[::-1]:
            p = self._parent[i]
            if p >= 0:
                Yb[:, p] |= Yb[:, i]
        return Yb

    def encode(self, label_sets: Iterable[Iterable[str]], *, close: bool = False) -> sp.csr_matrix:
        """Turn lists of label names into a sparse ``(n, N)`` 0/1 matrix.

        Parameters
        ----------
        label_sets : iterable of iterables of str
            One collection of names per example.
        close : bool, default=False
            Also add every ancestor (:meth:`close_upward`).

        Raises
        ------
        KeyError
            On a name not in the taxonomy (naming the label and the example).
        """
        indptr, indices = [0], []
        for k, labels in enumerate(label_sets):
            row = set()
            for s in labels:
                if s not in self._index:
                    raise KeyError(f"example {k}: unknown label {s!r} (not in the taxonomy)")
                i = self._index[s]
                row.add(i)
                if close:
                    row.update(self.ancestors(i))
            indices.extend(sorted(row))
            indptr.append(len(indices))
        data = np.ones(len(indices), dtype=np.int8)
        return sp.csr_matrix(
            (data, np.asarray(indices, dtype=np.int64), np.asarray(indptr, dtype=np.int64)),
            shape=(len(indptr) - 1, self.n_nodes),
        )

    def restrict(self, keep: Sequence[int]) -> tuple[Taxonomy, np.ndarray]:
        """Return the sub-forest on ``keep`` (which must be closed upward) and the kept indices.

        Raises
        ------
        TaxonomyError
            If a kept node's parent is not kept.
        """
        raw = np.asarray(keep)
        if raw.size == 0:
            raise ValueError("keep must name at least one node; got none")
        if raw.dtype.kind not in "iu":
            raise ValueError(f"keep must hold integer node indices; got dtype {raw.dtype}")
        out = (raw < 0) | (raw >= self.n_nodes)
        if np.any(out):
            bad = int(raw[tuple(np.argwhere(out)[0])])
            raise ValueError(f"keep must hold node indices in 0 … {self.n_nodes - 1}; got {bad}")
        keep_arr = np.unique(raw.astype(np.int64))
        new_index = {int(o): k for k, o in enumerate(keep_arr)}
        parents = []
        for o in keep_arr:
            p = int(self._parent[o])
            if p >= 0 and p not in new_index:
                raise TaxonomyError(
                    f"cannot keep {self._names[o]!r} without its parent {self._names[p]!r}"
                )
            parents.append(-1 if p < 0 else new_index[p])
        return Taxonomy(parents, [self._names[o] for o in keep_arr]), keep_arr


def check_taxonomy(taxonomy: Any, name: str = "taxonomy") -> Taxonomy:
    """Return ``taxonomy`` if it is a :class:`Taxonomy`; raise ``TypeError`` naming it otherwise.

    The public functions that take a taxonomy call this first, so that a parent list or a file
    name passed by mistake is refused with one message instead of an ``AttributeError`` from
    inside (build one with :class:`Taxonomy` or :meth:`Taxonomy.from_edge_file`).
    """
    if not isinstance(taxonomy, Taxonomy):
        raise TypeError(
            f"{name} must be a Taxonomy; got {type(taxonomy).__name__} {taxonomy!r:.60} "
            "(build one with Taxonomy(parent) or Taxonomy.from_edge_file)"
        )
    return taxonomy
