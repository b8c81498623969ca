"""Tests of the G-truncated flat learners (issue 14): run_protocol(truncate_flat=True), Lemma 1."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.hierarchical import benchmark as B
from mlgeom.hierarchical import experiments as ex
from mlgeom.hierarchical.corpus import HierarchicalCorpus
from mlgeom.hierarchical.losses import h_loss
from mlgeom.hierarchical.taxonomy import Taxonomy
from tests.hierarchical.fixture_data import MeasureRecorder

# 0 -> {1, 2}, 1 -> {3}; 4 -> {5}
G = Taxonomy([-1, 0, 0, 1, -1, 4])


def _truncate_loop(G: Taxonomy, y: np.ndarray) -> np.ndarray:
    """Reference: keep y_i only if y_i and every ancestor of i are 1 (Section 3)."""
    out = np.zeros_like(y, dtype=bool)
    for i in range(G.n_nodes):
        ok, j = bool(y[i]), G.parent[i]
        while ok and j >= 0:
            ok, j = bool(y[j]), G.parent[j]
        out[i] = ok
    return out


def _h_loss_loop(G: Taxonomy, y: np.ndarray, v: np.ndarray) -> int:
    """Reference uniform H-loss: mistakes at i whose ancestors are all predicted correctly."""
    total = 0
    for i in range(G.n_nodes):
        if y[i] != v[i] and all(y[j] == v[j] for j in G.ancestors(i)):
            total += 1
    return total


def test_truncated_row_by_hand():
    # flat prediction: node 3 without its parent 1, node 5 with its parent 4; truth {0, 1}
    Y = np.array([[1, 0, 0, 1, 1, 1], [0, 1, 0, 1, 0, 0]], dtype=bool)
    V = np.array([[1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]], dtype=np.int8)
    row = ex._truncated_row("PERC", 0, G, Y, V, {}, 3, 1.0)
    T = np.array([_truncate_loop(G, y) for y in Y])
    assert T.astype(int).tolist() == [[1, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0]]
    # doc 0: flat H-loss 2 (miss 1; false root 4), truncated 2; doc 1: flat 1 (root 0), trunc 1
    assert [_h_loss_loop(G, y, v) for y, v in zip(Y, V, strict=True)] == [2, 1]
    assert [_h_loss_loop(G, t, v) for t, v in zip(T, V, strict=True)] == [2, 1]
    assert row["algorithm"] == "PERC (truncated)"
    assert row["uniform H-loss"] == pytest.approx(1.5)
    assert row[ex.LEMMA1_COLUMN] == 0
    assert row["respects G"] == 1.0


@st.composite
def forest_predictions_truth(draw):
    n = draw(st.integers(1, 10))
    parents = [draw(st.integers(-1, i - 1)) for i in range(n)]
    Gr = Taxonomy(parents)
    rows = draw(st.integers(1, 5))
    bits = st.lists(st.booleans(), min_size=n, max_size=n)
    Y = np.array(draw(st.lists(bits, min_size=rows, max_size=rows)), dtype=bool)
    V = Gr.truncate(np.array(draw(st.lists(bits, min_size=rows, max_size=rows)), dtype=bool))
    return Gr, Y, V.astype(np.int8)


@settings(max_examples=200, deadline=None)
@given(forest_predictions_truth())
def test_lemma1_truncation_never_increases_h_loss(case):
    """Lemma 1: for v respecting G, the G-truncation of any y has H-loss at most y's."""
    Gr, Y, V = case
    row = ex._truncated_row("SVM", 0, Gr, Y, V, {}, -1, float("nan"))
    assert row[ex.LEMMA1_COLUMN] == 0
    T = np.array([_truncate_loop(Gr, y) for y in Y])
    np.testing.assert_array_equal(T, Gr.truncate(Y))
    ref = [_h_loss_loop(Gr, t, v) for t, v in zip(T, V, strict=True)]
    np.testing.assert_array_equal(h_loss(T, V, Gr), ref)
    assert all(r <= _h_loss_loop(Gr, y, v) for r, y, v in zip(ref, Y, V, strict=True))
    assert row["uniform H-loss"] == pytest.approx(np.mean(ref))


def test_truncated_row_counts_violations_when_v_does_not_respect_g():
    # Lemma 1 needs v to respect G: v = {1, 3} (root 0 absent) does not. Predicting y = v
    # costs 0; its truncation is empty and misses node 1 under a correct root: 1 > 0.
    Y = np.array([[0, 1, 0, 1, 0, 0]], dtype=bool)
    V = np.array([[0, 1, 0, 1, 0, 0]], dtype=np.int8)
    row = ex._truncated_row("PERC", 0, G, Y, V, {}, -1, float("nan"))
    assert row[ex.LEMMA1_COLUMN] == 1


def _tiny_corpus(n: int = 60, seed: int = 0) -> HierarchicalCorpus:
    rng = np.random.default_rng(seed)
    V = G.truncate(rng.random((n, G.n_nodes)) < 0.6).astype(np.int8)
    X = np.hstack([V * 2.0 - 1.0, rng.standard_normal((n, 4))])
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return HierarchicalCorpus(sp.csr_matrix(X), sp.csr_matrix(V), G, "tiny", np.arange(n), "t")


def test_run_protocol_truncate_flat_rows_match_truncated_learner():
    from mlgeom.hierarchical.learners import make_learner

    c = _tiny_corpus()
    idx = np.arange(c.n_docs)
    splits = [(idx[:30], idx[30:]), (idx[30:], idx[:30])]
    res = ex.run_protocol(c, splits, algorithms=("PERC", "H-PERC"), n_jobs=1, truncate_flat=True)
    assert set(res.runs["algorithm"]) == {"PERC", "H-PERC", "PERC (truncated)"}
    plain = ex.run_protocol(c, splits, algorithms=("PERC", "H-PERC"), n_jobs=1)
    assert ex.LEMMA1_COLUMN not in plain.runs
    pd.testing.assert_frame_equal(
        plain.runs,
        res.runs[res.runs.algorithm != "PERC (truncated)"]
        .drop(columns=ex.LEMMA1_COLUMN)
        .reset_index(drop=True),
    )
    L = make_learner("PERC", G).partial_fit(c.X[:30], c.V[:30])
    T = np.array([_truncate_loop(G, y) for y in L.predict(c.X[30:])])
    V = c.V[30:].toarray()
    row = res.runs.query("algorithm == 'PERC (truncated)' and split == 0").iloc[0]
    ref = [_h_loss_loop(G, t, v) for t, v in zip(T, V, strict=True)]
    assert row["uniform H-loss"] == pytest.approx(np.mean(ref))
    assert row[ex.LEMMA1_COLUMN] == 0
    assert res.runs.loc[res.runs.algorithm != "PERC (truncated)", ex.LEMMA1_COLUMN].isna().all()


def test_truncate_flat_bad_inputs_and_benchmark_tables():
    c = _tiny_corpus()
    idx = np.arange(c.n_docs)
    with pytest.raises(ValueError, match="truncate_flat must be a bool; got 'yes'"):
        ex.run_protocol(c, [(idx[:30], idx[30:])], truncate_flat="yes")
    # two trees: 0 -> {1, 2}, 3 -> {4, 5}
    Gb = Taxonomy([-1, 0, 0, -1, 3, 3])
    sets = np.array([[1, 1, 0, 0, 0, 0], [0, 0, 0, 1, 1, 0], [1, 0, 1, 1, 0, 1]])
    kw = dict(taxonomy=Gb, label_sets=sets, vocab_size=5, background_size=50, noise=0.1)
    fac = B.facet_benchmark(80, seed=1, **kw)
    ctl = B.facet_benchmark(80, seed=1, shared=False, **kw)
    algs = ("H-PERC", "PERC", "SH-RLS", "S-RLS", "H-SVM", "SVM")
    runs = [B.benchmark_protocol(b, [10, 20], 4, n_test=10, algorithms=algs, n_jobs=1)
            for b in (fac, ctl)]  # fmt: skip
    tr = runs[0][runs[0].algorithm.str.endswith("(truncated)")]
    assert len(tr) == 3 * 2 * 4 and (tr[ex.LEMMA1_COLUMN] == 0).all()
    d = B.benchmark_differences(*runs)
    # the training-set and truncation factors add up to the hierarchical-minus-flat difference
    for h, f in B.PAIRS:
        t = ex.TRUNCATED[f]
        for col in ("shared facets", "control"):
            total = d.loc[f"{h} − {f}", (col, "mean")]
            parts = d.loc[f"{h} − {t}", (col, "mean")] + d.loc[f"{t} − {f}", (col, "mean")]
            assert parts == pytest.approx(total)
    assert np.isnan(d.loc["H-SVM − SVM (truncated)", ("paper", "RCV1")])
    tab = B.benchmark_table(*runs)
    assert "S-RLS (truncated)" in tab.index
    assert tab.index.get_loc("SVM (truncated)") < tab.index.get_loc("empty prediction")
    without = B.benchmark_protocol(fac, [10], 4, n_test=10, algorithms=algs, n_jobs=1,
                                   truncate_flat=False)  # fmt: skip
    assert without[ex.LEMMA1_COLUMN].isna().all()
    with pytest.raises(ValueError, match="truncated flat learners"):
        B.record_benchmark_claims(object(), without, without, "s")


def _corrected(runs, h, f):
    """The corrected resampled t interval of the benchmark's splits (they share documents)."""
    from mlgeom.stats import corrected_paired_interval

    top = runs[runs["size"] == runs["size"].max()]
    frac = float(top["n_test"].max()) / float(top["size"].max())
    return corrected_paired_interval(h, f, test_fraction=frac)


def test_record_benchmark_claims_measures_the_registry_ids_in_order():
    from mlgeom.book.registry import load_registry

    sets = np.array(
        [[1, 1, 0, 1, 0, 0], [1, 0, 1, 0, 1, 1], [0, 0, 0, 0, 1, 0], [1, 1, 0, 0, 1, 1]]
    )
    kw = dict(taxonomy=G, label_sets=sets, vocab_size=5, background_size=50, noise=0.1)
    algs = ("H-PERC", "PERC", "SH-RLS", "S-RLS", "H-SVM", "SVM")
    benches = [
        B.facet_benchmark(80, seed=2, **kw),
        B.facet_benchmark(80, seed=2, shared=False, **kw),
        B.facet_benchmark(80, seed=2, shared=False, **{**kw, "noise": 0.0}),
        B.facet_benchmark(80, seed=2, shared=False, noise_scope="leaves", **kw),
        B.facet_benchmark(80, seed=2, shared=False, noise_scope="leaves", **{**kw, "noise": 0.3}),
        B.facet_benchmark(80, seed=2, **{**kw, "noise": 0.0}),
    ]
    runs = [B.benchmark_protocol(b, [10], 4, n_test=10, algorithms=algs, n_jobs=1)
            for b in benches]  # fmt: skip
    rec = MeasureRecorder()
    info = B.record_benchmark_claims(rec, *runs[:2], "s", clean_control=runs[2],
                                     leaf_noise_control=runs[3],
                                     matched_leaf_noise_control=runs[4],
                                     clean_facets=runs[5])  # fmt: skip
    reg = load_registry("hierarchical_classification")
    want = [cid for cid in reg.entries if cid.startswith("hier.bench.")]
    assert [c[0] for c in rec.calls] == want
    # a leaf-noise claim by hand: mean paired difference over the 4 splits, the control's tie
    top = runs[3]
    h = top[top.algorithm == "H-SVM"].sort_values("split")["uniform H-loss"].to_numpy()
    f = top[top.algorithm == "SVM (truncated)"].sort_values("split")["uniform H-loss"].to_numpy()
    leaf_id = "hier.bench.leaf-noise-control.hsvm-ties-svm-truncated"
    _, value, extra = next(c for c in rec.calls if c[0] == leaf_id)
    assert value == pytest.approx(float(np.mean(h - f)))
    assert extra["interval"].low == pytest.approx(_corrected(top, h, f).low)
    assert extra["refs"] is None  # the tie is the registry's ±0.03 (issue 31)
    # the matched control's plain pair, by hand on its own runs
    top = runs[4]
    h = top[top.algorithm == "SH-RLS"].sort_values("split")["uniform H-loss"].to_numpy()
    f = top[top.algorithm == "S-RLS"].sort_values("split")["uniform H-loss"].to_numpy()
    _, value, extra = next(
        c for c in rec.calls if c[0] == "hier.bench.matched-leaf-noise-control.shrls-ties-s-rls"
    )
    assert value == pytest.approx(float(np.mean(h - f)))
    assert extra["refs"] is None and info["tie"] == 0.03  # the registry's ±0.03 (issue 31)
    # the tables get a matched column block
    tab = B.benchmark_table(*runs[:5], clean_facets=runs[5])
    d = B.benchmark_differences(*runs[:5], clean_facets=runs[5])
    assert B.MATCHED_LEAF_NOISE_CONTROL in tab.columns.get_level_values(0)
    assert d.loc["SH-RLS − S-RLS", (B.MATCHED_LEAF_NOISE_CONTROL, "mean")] == pytest.approx(
        float(np.mean(h - f))
    )


def _pair(runs: pd.DataFrame, h: str, f: str) -> tuple[np.ndarray, np.ndarray]:
    """The per-split uniform H-losses of learners h and f at the largest size."""
    top = runs[runs["size"] == runs["size"].max()]
    return tuple(
        top[top.algorithm == a].sort_values("split")["uniform H-loss"].to_numpy() for a in (h, f)
    )


def test_record_benchmark_claims_clean_facets_and_the_plain_clean_control_pairs(monkeypatch):

    # Table 1's orderings are tested in test_experiments; here only where they are measured
    # (on this tiny noise-free corpus H-SVM can be perfect, which leaves SH-RLS / H-SVM undefined)
    orderings = []
    monkeypatch.setattr(
        ex, "record_table1_orderings",
        lambda record, prefix, per, scale, *, others, interval=None: orderings.append(
            (prefix, tuple(others))
        ),
    )  # fmt: skip

    sets = np.array(
        [[1, 1, 0, 1, 0, 0], [1, 0, 1, 0, 1, 1], [0, 0, 0, 0, 1, 0], [1, 1, 0, 0, 1, 1]]
    )
    kw = dict(taxonomy=G, label_sets=sets, vocab_size=5, background_size=50)
    algs = ("H-PERC", "PERC", "SH-RLS", "S-RLS", "H-SVM", "SVM")
    fac, ctl, clean, clean_fac = (
        B.facet_benchmark(80, seed=3, shared=sh, noise=eta, **kw)
        for sh, eta in ((True, 0.1), (False, 0.1), (False, 0.0), (True, 0.0))
    )
    # the noise-free shared facets: the shared facets' words, the noise-free control's labels
    assert (clean_fac.corpus.X != fac.corpus.X).nnz == 0
    assert (clean_fac.corpus.V != clean.corpus.V).nnz == 0
    runs = [B.benchmark_protocol(b, [10, 20], 4, n_test=10, algorithms=algs, n_jobs=1)
            for b in (fac, ctl, clean, clean_fac)]  # fmt: skip
    rec = MeasureRecorder()
    info = B.record_benchmark_claims(rec, *runs[:2], "s", clean_control=runs[2],
                                     clean_facets=runs[3])  # fmt: skip
    ids = [c[0] for c in rec.calls]
    assert [cid for cid in ids if cid.startswith("hier.bench.clean-facets.")] == [
        "hier.bench.clean-facets.shrls-below-s-rls", "hier.bench.clean-facets.hperc-below-perc",
        "hier.bench.clean-facets.hsvm-below-svm",
        "hier.bench.clean-facets.shrls-below-s-rls-truncated",
        "hier.bench.clean-facets.hperc-below-perc-truncated",
        "hier.bench.clean-facets.hsvm-below-svm-truncated",
    ]  # fmt: skip
    assert ids[-3:] == [
        "hier.bench.clean-control.shrls-ties-s-rls", "hier.bench.clean-control.hperc-ties-perc",
        "hier.bench.clean-control.hsvm-ties-svm",
    ]  # fmt: skip
    assert orderings == [("hier.bench.facets", ("H-PERC", "PERC", "SVM")),
                         ("hier.bench.clean-facets", ("H-PERC", "PERC", "SVM"))]  # fmt: skip
    calls = {c[0]: c for c in rec.calls}
    # by hand: H-PERC minus truncated PERC on the noise-free facets, no tie, empty baseline
    h, f = _pair(runs[3], "H-PERC", "PERC (truncated)")
    _, value, extra = calls["hier.bench.clean-facets.hperc-below-perc-truncated"]
    assert value == pytest.approx(float(np.mean(h - f)))
    assert extra["interval"].high == pytest.approx(_corrected(runs[3], h, f).high)
    assert extra["refs"] is None
    e, f = _pair(runs[3], "empty prediction", "PERC (truncated)")
    assert extra["baseline"] == pytest.approx(float(np.mean(e - f)))
    # the plain noise-free control pair, within the noisy control's tie
    h, f = _pair(runs[2], "SH-RLS", "S-RLS")
    _, value, extra = calls["hier.bench.clean-control.shrls-ties-s-rls"]
    assert value == pytest.approx(float(np.mean(h - f)))
    assert extra["refs"] is None and info["tie"] == 0.03  # the registry's ±0.03 (issue 31)
    # the tables: the noise-free facets' columns after the control's
    tab = B.benchmark_table(*runs[:3], clean_facets=runs[3])
    top = list(dict.fromkeys(tab.columns.get_level_values(0)))
    assert top == ["shared facets", "control", B.CLEAN_FACETS, B.CLEAN_CONTROL, "paper RCV1"]
    d = B.benchmark_differences(*runs[:3], clean_facets=runs[3])
    h, f = _pair(runs[3], "H-SVM", "SVM")
    assert d.loc["H-SVM − SVM", (B.CLEAN_FACETS, "mean")] == pytest.approx(float(np.mean(h - f)))
    with pytest.raises(ValueError, match="clean_facets must be the DataFrame"):
        B.benchmark_table(*runs[:2], clean_facets=rec)
