r"""Speed benchmark of the online hierarchical learners (``python -m mlgeom.hierarchical.bench``).

Measures, on RCV1-like data (≈47,000 sparse features, ≈100 non-zeros per unit-norm document,
the real 103-node RCV1 taxonomy, labels from the Section 5 model of Cesa-Bianchi, Gentile &
Zaniboni 2006):

1. one SH-RLS epoch over 20,000 documents with :class:`mlgeom.hierarchical.learners.SHRLS`
   (the target: at most 2 minutes);
2. the same protocol run by a straightforward implementation that re-solves each node's
   linear system (:math:`(I + S_i^\top S_i)` by Cholesky, :math:`O(N_i^3)`) at every
   prediction, on a prefix of the same stream (it is too slow for the whole epoch), the
   predictions and stored sets of both compared, and the speed ratio on that prefix
   (the target: at least 20×);
3. H-RLS against SH-RLS (on a prefix: H-RLS stores every eligible instance, so its roots'
   inverses grow to :math:`N^2/2` numbers), hierarchical against flat (SH-RLS/S-RLS,
   H-PERC/PERC) wall times;
4. the RLS time per block of documents against the number of stored instances (the
   :math:`\sum N_i^2` insertion work grows quadratically).

The corpus is :func:`mlgeom.hierarchical.synthetic.synthetic_rcv1_like` when that exists, otherwise
the simple generator :func:`rcv1_like_stream` below. Timings are printed, never asserted.

Two more timings, selected by the first argument (:func:`experiment_timings`): ``--pairs
[n_docs] [seed]`` gives the hierarchical/flat wall-time ratios of one epoch (online learners and
SVMs) on the synthetic RCV1-like corpus and on the facet benchmark, ``--protocol N [N ...]``
the whole Table 1 protocol on ``N`` synthetic documents (what sets the notebook's ``book``
scale).
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import time
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from mlgeom._validation import check_positive_int
from mlgeom.hierarchical.learners import make_learner
from mlgeom.hierarchical.taxonomy import Taxonomy
from mlgeom.random import Seed, as_generator

__all__ = ["NaiveRLS", "experiment_timings", "load_taxonomy", "main", "rcv1_like_stream"]


# ---------------------------------------------------------------------------------- data
def load_taxonomy() -> Taxonomy:
    """Return RCV1's 103-node topic forest (shipped copy, else ``$MLGEOM_DATA/rcv1``)."""
    try:
        from mlgeom.hierarchical.shipped import rcv1_taxonomy

        return rcv1_taxonomy()
    except Exception:  # noqa: BLE001 - fall back to the raw edge file
        from mlgeom.book.data import data_dir

        path = data_dir() / "rcv1" / "rcv1.taxonomy"
        if path.exists():
            return Taxonomy.from_edge_file(path)
        raise


def rcv1_like_stream(
    taxonomy: Taxonomy,
    n_docs: int,
    *,
    seed: Seed,
    n_features: int = 47_000,
    nnz: int = 100,
) -> tuple[sp.csr_matrix, np.ndarray]:
    r"""Draw a simple RCV1-like stream with Section 5 labels (the bench's fallback corpus).

    Each document has a constant "bias" feature 0, about 10 words from the 40-word block of
    each node of a latent multilabel (drawn top-down: each root with probability 0.4, each
    child of a latent node with probability :math:`1.5/|\mathrm{CHILD}|`), and Zipf-distributed
    background words up to ``nnz`` non-zeros; unit norm. Node :math:`i` has
    :math:`\mathbf u_i = -0.6\,\mathbf e_0 + 0.8\,\mathbf z_i` with :math:`\mathbf z_i` uniform
    on its block, and the labels are drawn from the Section 5 model,
    :math:`P(V_i = 1 \mid V_{\mathrm{PAR}(i)} = 1, \mathbf x) = (1 + \mathbf u_i^\top\mathbf x)/2`.

    Returns
    -------
    X : scipy.sparse.csr_matrix
        ``(n_docs, n_features)`` unit-norm rows.
    V : numpy.ndarray
        ``(n_docs, N)`` int8 multilabels respecting the taxonomy.
    """
    rng = as_generator(seed)
    N = taxonomy.n_nodes
    block = 40
    topic0 = 1
    bg0 = topic0 + N * block
    n_bg = n_features - bg0
    zipf = 1.0 / np.arange(1, n_bg + 1) ** 1.1
    zipf /= zipf.sum()
    n_kids = np.array([len(taxonomy.children(i)) for i in range(N)])
    rows, cols, vals = [], [], []
    for r in range(n_docs):
        latent = np.zeros(N, dtype=bool)
        for i in taxonomy.order:
            p = taxonomy.parent[i]
            prob = 0.4 if p < 0 else (min(1.0, 1.5 / n_kids[p]) if latent[p] else 0.0)
            latent[i] = rng.random() < prob
        words = [np.array([0])]
        for i in np.flatnonzero(latent):
            words.append(topic0 + i * block + rng.choice(block, 10, replace=False))
        have = sum(w.size for w in words)
        if have < nnz:
            words.append(bg0 + rng.choice(n_bg, nnz - have, replace=False, p=zipf))
        c = np.unique(np.concatenate(words))
        v = np.log1p(rng.geometric(0.5, c.size)) * rng.uniform(0.5, 2.0, c.size)
        v[c == 0] = 0.0
        v *= math.sqrt(1 - 0.3**2) / np.linalg.norm(v)
        v[c == 0] = 0.3
        rows.append(np.full(c.size, r))
        cols.append(c)
        vals.append(v)
    X = sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
        shape=(n_docs, n_features),
    )
    # Section 5 labels: margins u_i·x = -0.6 x_0 + 0.8 z_i·x, z_i uniform on node i's block
    blocks = sp.csr_matrix(
        (
            np.full(N * block, 1 / math.sqrt(block)),
            (np.arange(topic0, bg0), np.repeat(np.arange(N), block)),
        ),
        shape=(n_features, N),
    )
    margin = np.asarray(-0.6 * X[:, [0]].toarray() + 0.8 * (X @ blocks).toarray())
    coin = rng.random((n_docs, N)) < (1 + margin) / 2
    V = np.zeros((n_docs, N), dtype=np.int8)
    for i in taxonomy.order:
        p = taxonomy.parent[i]
        V[:, i] = coin[:, i] if p < 0 else coin[:, i] & (V[:, p] == 1)
    return X, V


def _corpus(taxonomy: Taxonomy, n_docs: int, seed: int) -> tuple[sp.csr_matrix, np.ndarray, str]:
    try:
        from mlgeom.hierarchical.synthetic import synthetic_rcv1_like
    except ImportError:
        X, V = rcv1_like_stream(taxonomy, n_docs, seed=seed)
        return X, V, "the bench's own RCV1-like generator (rcv1_like_stream)"
    corpus = synthetic_rcv1_like(n_docs, seed=seed)
    return corpus.X, corpus.V.toarray().astype(np.int8), corpus.name


# ---------------------------------------------------------------------------------- naive RLS
class NaiveRLS:
    r"""Straightforward dual (S)H-RLS: re-solve :math:`(I + S_i^\top S_i)` at every prediction.

    Per evaluated node: :math:`\mathbf k = S_i^\top\mathbf x` by a sparse product, then a
    Cholesky factorization of :math:`I + K_i` (:math:`K_i` kept up to date) and two solves give
    :math:`m = \mathbf k^\top(I+K_i)^{-1}\mathbf y` and
    :math:`q = \|\mathbf x\|^2 - \mathbf k^\top(I+K_i)^{-1}\mathbf k`;
    :math:`\mathbf w^\top\mathbf x = m/(1+q)`. Same protocol and storing rule as
    :class:`mlgeom.hierarchical.learners.SHRLS` (``selective=True``) or ``HRLS``.
    """

    def __init__(self, taxonomy: Taxonomy, *, selective: bool, hierarchical: bool = True):
        self.G = taxonomy
        self.selective = selective
        self.hierarchical = hierarchical
        N = taxonomy.n_nodes
        self.rows: list[list[sp.csr_matrix]] = [[] for _ in range(N)]
        self.S: list[sp.csr_matrix | None] = [None] * N
        self.K = [np.zeros((0, 0)) for _ in range(N)]
        self.y = [np.zeros(0) for _ in range(N)]
        self.t = 0

    def _margin(self, i: int, x: sp.csr_matrix, x2: float) -> tuple[float, np.ndarray]:
        n = self.y[i].size
        if n == 0:
            return 0.0, np.zeros(0)
        S = self.S[i]
        k = np.asarray((S @ x.T).todense()).ravel()
        c = sla.cho_factor(np.eye(n) + self.K[i], lower=True)
        sol = sla.cho_solve(c, np.column_stack([self.y[i], k]))
        m = float(k @ sol[:, 0])
        q = x2 - float(k @ sol[:, 1])
        return m / (1.0 + q), k

    def run_online(self, X: sp.csr_matrix, V: np.ndarray) -> np.ndarray:
        """Predict, then update, row by row; return the ``(n, N)`` bool predictions."""
        G = self.G
        out = np.zeros((X.shape[0], G.n_nodes), dtype=bool)
        for r in range(X.shape[0]):
            x = X[r]
            x2 = float(x.data @ x.data)
            self.t += 1
            v = V[r]
            for i in G.order:
                p = G.parent[i]
                elig = (not self.hierarchical) or p < 0 or v[p] == 1
                reach = (not self.hierarchical) or p < 0 or out[r, p]
                if not (elig or reach):
                    continue
                dec, k = self._margin(int(i), x, x2)
                out[r, i] = reach and dec >= 0
                if not elig:
                    continue
                n = self.y[i].size
                if self.selective and n > 0 and abs(dec) > math.sqrt(5 * math.log(self.t) / n):
                    continue
                self.rows[i].append(x)
                self.S[i] = sp.vstack(self.rows[i], format="csr")
                K = np.zeros((n + 1, n + 1))
                K[:n, :n] = self.K[i]
                K[:n, n] = K[n, :n] = k
                K[n, n] = x2
                self.K[i] = K
                self.y[i] = np.append(self.y[i], 1.0 if v[i] else -1.0)
        return out

    @property
    def n_stored(self) -> np.ndarray:
        """Stored instances per node."""
        return np.array([y.size for y in self.y], dtype=np.int64)


# ---------------------------------------------------------------------------------- timing
def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _timed(fn: Any, *args: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def _epoch_in_blocks(name: str, G: Taxonomy, X, V, block: int) -> tuple[Any, list[tuple]]:
    """Run one epoch in blocks; per block: wall time, stored total, Σ N_i² insertion work."""
    learner = make_learner(name, G, n_features=X.shape[1])
    rows = []
    for a in range(0, X.shape[0], block):
        b = min(a + block, X.shape[0])
        before = learner.work
        _, sec = _timed(learner.partial_fit, X[a:b], V[a:b])
        after = learner.work
        rows.append(
            (
                b,
                sec,
                int(after["stored"]),
                after["insert"] - before["insert"],
                after["margin"] - before["margin"],
            )
        )
    return learner, rows


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the results (see the module docstring)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("--pairs", "--protocol"):
        return experiment_timings(argv)
    ap = argparse.ArgumentParser(prog="python -m mlgeom.hierarchical.bench", description=__doc__)
    ap.add_argument("--docs", type=int, default=20_000, help="documents in the epoch")
    ap.add_argument("--naive-docs", type=int, default=300, help="prefix for the naive run")
    ap.add_argument("--hrls-docs", type=int, default=3_000, help="prefix for H-RLS")
    ap.add_argument("--seed", type=int, default=2006)
    args = ap.parse_args(argv)
    n = check_positive_int(args.docs, "--docs")
    n_naive = min(check_positive_int(args.naive_docs, "--naive-docs"), n)
    n_hrls = min(check_positive_int(args.hrls_docs, "--hrls-docs"), n)

    G = load_taxonomy()
    (X, V, source), sec = _timed(_corpus, G, n, args.seed)
    nnz = np.diff(X.indptr)
    print(f"mlgeom.hierarchical.bench: {source}")
    print(
        f"  {n} documents, d = {X.shape[1]}, nnz/doc mean {nnz.mean():.1f}, "
        f"taxonomy N = {G.n_nodes} ({len(G.roots)} roots), labels/doc {V.sum(1).mean():.2f}; "
        f"generated in {sec:.1f} s"
    )
    # warm the compiled kernels so that no timing includes numba's start-up
    for name in ("SH-RLS", "S-RLS", "H-PERC", "PERC"):
        make_learner(name, G).run_online(X[:5], V[:5])

    # 1. SH-RLS, one epoch, in blocks (also gives the growth table)
    block = max(n // 10, 1)
    shrls, rows = _epoch_in_blocks("SH-RLS", G, X, V, block)
    t_shrls = sum(r[1] for r in rows)
    _, t_pred = _timed(shrls.predict, X)
    print(f"\n1. SH-RLS one epoch over {n} documents: {t_shrls:.2f} s (target <= 120 s)")
    print(f"   predicting the same {n} documents afterwards (no update): {t_pred:.2f} s")
    print(
        f"   stored: total {int(shrls.n_stored.sum())}, max per node "
        f"{int(shrls.n_stored.max())} (roots {shrls.n_stored[G.roots].tolist()}), "
        f"distinct documents {shrls.n_documents}; learner memory "
        f"{shrls.memory_bytes() / 2**20:.0f} MB"
    )
    print("\n4. RLS time per block against the stored instances (SH-RLS)")
    print(f"   {'docs':>7} {'block s':>8} {'stored':>8} {'ΣN_i² ins.':>12} {'ΣN_i² margin':>13}")
    for b, s, st, ins, mar in rows:
        print(f"   {b:>7} {s:>8.3f} {st:>8} {ins:>12.3g} {mar:>13.3g}")

    # 2. naive vs fast on a prefix
    Xp, Vp = X[:n_naive], V[:n_naive]
    fast = make_learner("SH-RLS", G, n_features=X.shape[1])
    pf, t_fast = _timed(fast.run_online, Xp, Vp)
    naive = NaiveRLS(G, selective=True)
    pn, t_naive = _timed(naive.run_online, Xp, Vp)
    same = np.array_equal(pf, pn) and np.array_equal(fast.n_stored, naive.n_stored)
    print(
        f"\n2. SH-RLS on the first {n_naive} documents (the naive one is too slow for all {n}; "
        "the ratio grows with the prefix: O(N³) against O(N²) per stored set)"
    )
    print(
        f"   fast {t_fast:.3f} s, naive (re-solve per prediction) {t_naive:.1f} s, "
        f"ratio {t_naive / t_fast:.0f}x (target >= 20x); same predictions and stored sets: "
        f"{same}"
    )
    if not same:
        print(
            f"   differing predictions: {int((pf != pn).sum())} of {pf.size}; stored "
            f"{int(fast.n_stored.sum())} vs {int(naive.n_stored.sum())}"
        )

    # 3. H-RLS vs SH-RLS (prefix), hierarchical vs flat (full epoch)
    hr, hrows = _epoch_in_blocks("H-RLS", G, X[:n_hrls], V[:n_hrls], max(n_hrls // 8, 1))
    sr, srows = _epoch_in_blocks("SH-RLS", G, X[:n_hrls], V[:n_hrls], n_hrls)
    t_hr = sum(r[1] for r in hrows)
    print(f"\n3. H-RLS vs SH-RLS on the first {n_hrls} documents (H-RLS stores everything)")
    print(
        f"   H-RLS {t_hr:.2f} s, stored {int(hr.n_stored.sum())}, memory "
        f"{hr.memory_bytes() / 2**20:.0f} MB; SH-RLS {srows[0][1]:.2f} s, stored "
        f"{int(sr.n_stored.sum())}"
    )
    print(f"   H-RLS per block: {'docs':>6} {'s':>7} {'stored':>7} {'ΣN_i² ins.':>11}")
    for b, s, st, ins, _ in hrows:
        print(f"                    {b:>6} {s:>7.3f} {st:>7} {ins:>11.3g}")
    flat, t_flat = _timed(make_learner("S-RLS", G, n_features=X.shape[1]).partial_fit, X, V)
    hp, t_hp = _timed(make_learner("H-PERC", G, n_features=X.shape[1]).partial_fit, X, V)
    fp, t_fp = _timed(make_learner("PERC", G, n_features=X.shape[1]).partial_fit, X, V)
    print(f"   hierarchical vs flat, one epoch over {n} documents:")
    print(
        f"   SH-RLS {t_shrls:.2f} s (stored {int(shrls.n_stored.sum())}) vs S-RLS {t_flat:.2f} s "
        f"(stored {int(flat.n_stored.sum())}): flat/hierarchical {t_flat / t_shrls:.1f}x"
    )
    print(
        f"   H-PERC {t_hp:.2f} s vs PERC {t_fp:.2f} s: flat/hierarchical {t_fp / t_hp:.1f}x"
        f"  (the paper: hierarchical about 4x faster)"
    )
    print(f"\npeak resident memory of this process: {_peak_rss_mb():.0f} MB")
    return 0


def _timed_epoch(args: tuple) -> float:
    """Seconds of one epoch of the named learner (after a warm-up that loads compiled code)."""
    name, taxonomy, X, V = args
    make_learner(name, taxonomy).partial_fit(X[:50], V[:50])
    learner = make_learner(name, taxonomy)
    t0 = time.perf_counter()
    learner.partial_fit(X, V)
    return time.perf_counter() - t0


def _pair_timings(corpus: Any) -> None:
    """Print one epoch's wall time of each hierarchical learner and its flat variant."""
    from mlgeom.hierarchical.svm import FlatSVM, HierarchicalSVM

    print(f"one epoch on {corpus.n_docs:,} documents of {corpus.name} "
          f"({corpus.taxonomy.n_nodes} nodes)")  # fmt: skip
    print(f"{'pair':<18}{'hier s':>10}{'flat s':>10}{'flat/hier':>11}")
    for hier_name, flat_name in (("H-PERC", "PERC"), ("SH-RLS", "S-RLS")):
        th = _timed_epoch((hier_name, corpus.taxonomy, corpus.X, corpus.V))
        tf = _timed_epoch((flat_name, corpus.taxonomy, corpus.X, corpus.V))
        print(
            f"{hier_name + '/' + flat_name:<18}{th:>10.2f}{tf:>10.2f}{tf / th:>11.2f}", flush=True
        )
    times = []
    for cls in (HierarchicalSVM, FlatSVM):
        t0 = time.perf_counter()
        cls(corpus.taxonomy).fit(corpus.X, corpus.V)
        times.append(time.perf_counter() - t0)
    print(f"{'H-SVM/SVM':<18}{times[0]:>10.2f}{times[1]:>10.2f}{times[1] / times[0]:>11.2f}")


def experiment_timings(argv: list[str]) -> int:
    """``python -m mlgeom.hierarchical.bench --pairs [n_docs] [seed]``: hierarchical vs flat.

    Trains each hierarchical online learner and its flat variant for one epoch on the first
    ``n_docs`` documents of the synthetic RCV1-like corpus, then of the facet benchmark
    (:func:`mlgeom.hierarchical.benchmark.facet_benchmark`, shared facets), and prints the
    wall-clock seconds and the flat/hierarchical ratio (the paper: hierarchical "roughly four
    times faster").
    Volatile: printed here, never stored in the notebook or the claims record.

    ``python -m mlgeom.hierarchical.bench --protocol N [N ...]`` instead times the whole
    Table 1 protocol (all six algorithms on 5 chronological splits, through
    :func:`mlgeom.parallel.pmap`) on synthetic corpora of ``N`` documents: what sets the
    notebook's ``book`` scale.
    """
    from mlgeom.hierarchical.benchmark import facet_benchmark
    from mlgeom.hierarchical.corpus import chronological_splits
    from mlgeom.hierarchical.experiments import run_protocol
    from mlgeom.hierarchical.synthetic import synthetic_rcv1_like

    args = list(argv)
    if args and args[0] == "--protocol":
        sizes = [int(a) for a in args[1:]] or [10_000, 20_000]
        print(f"{'documents':>10}{'protocol s':>12}")
        for n in sizes:
            corpus = synthetic_rcv1_like(n, seed=0)
            t0 = time.perf_counter()
            run_protocol(corpus, chronological_splits(corpus, 5))
            print(f"{n:>10,}{time.perf_counter() - t0:>12.1f}", flush=True)
        return 0
    args = args[1:] if args and args[0] == "--pairs" else args
    n_docs = int(args[0]) if args else 5000
    seed = int(args[1]) if len(args) > 1 else 0
    _pair_timings(synthetic_rcv1_like(n_docs, seed=seed))
    # the facet benchmark of issue 14 (shared facets; the shipped RCV1 sample's label sets on
    # the 103-node taxonomy), where the hierarchy matters for the H-loss
    print()
    _pair_timings(facet_benchmark(n_docs, seed=seed, shared=True).corpus)
    return 0


if __name__ == "__main__":
    sys.exit(main())
