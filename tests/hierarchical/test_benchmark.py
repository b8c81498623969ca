"""Tests of mlgeom.hierarchical.benchmark: facets, noise, the exact Bayes H-loss, the protocol."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from mlgeom.hierarchical import benchmark as B
from mlgeom.hierarchical.label_model import HierarchicalLabelModel
from mlgeom.hierarchical.losses import h_loss
from mlgeom.hierarchical.taxonomy import Taxonomy

# two trees: 0 -> {1, 2}, 3 -> {4, 5}; with shared facets 1 and 4, 2 and 5 share a vocabulary
G = Taxonomy([-1, 0, 0, -1, 3, 3])
SETS = np.array(
    [
        [1, 1, 0, 0, 0, 0],
        [0, 0, 0, 1, 1, 0],
        [1, 1, 0, 1, 0, 1],  # same sources as the next row: {0, 3, facet a, facet b}
        [1, 0, 1, 1, 1, 0],
        [1, 0, 0, 1, 0, 0],
        [1, 1, 0, 0, 0, 0],
    ]
)


def _respecting(taxonomy: Taxonomy) -> list[np.ndarray]:
    out = []
    for bits in itertools.product((0, 1), repeat=taxonomy.n_nodes):
        v = np.array(bits)
        if taxonomy.respects(v[None])[0]:
            out.append(v)
    return out


def _p_noisy(
    taxonomy: Taxonomy, t: np.ndarray, v: np.ndarray, eta: float, leaves_only: bool = False
) -> float:
    """P(V = v | T = t) by the loop of the noise process (reference); ``leaves_only``: the
    internal nodes are noise-free."""
    p = 1.0
    for i in range(taxonomy.n_nodes):
        par = taxonomy.parent[i]
        if par >= 0 and v[par] == 0:
            if v[i]:
                return 0.0
            continue
        k = len(taxonomy.roots) if par < 0 else len(taxonomy.children(int(par)))
        e = 0.0 if leaves_only and taxonomy.children(i) else eta
        r = 1 - e if t[i] else e / k
        p *= r if v[i] else 1 - r
    return p


def test_facet_sources_share_across_parents_never_between_siblings():
    src = B.facet_sources(G, shared=True)
    assert src[1] == src[4] and src[2] == src[5]
    assert len({src[1], src[2]}) == 2 and len({src[0], src[3], src[1]}) == 3
    assert B.facet_sources(G, shared=False).tolist() == list(range(6))
    with pytest.raises(ValueError, match="shared must be a bool"):
        B.facet_sources(G, shared="yes")


def test_noise_marginals_match_enumeration():
    eta = 0.3
    vs = _respecting(G)
    for t in SETS:
        q = B.noise_marginals(G, t[None], eta)[0]
        ref = sum(_p_noisy(G, t, v, eta) * v for v in vs)
        np.testing.assert_allclose(q, ref, atol=1e-12)
        assert sum(_p_noisy(G, t, v, eta) for v in vs) == pytest.approx(1.0)


def test_noise_rates_hand_case_and_bad_scope():
    # leaves of G: 1, 2, 4, 5
    assert B.noise_rates(G, 0.3, "leaves").tolist() == [0.0, 0.3, 0.3, 0.0, 0.3, 0.3]
    assert B.noise_rates(G, 0.3).tolist() == [0.3] * 6
    with pytest.raises(ValueError, match="scope must be one of"):
        B.noise_rates(G, 0.3, "roots")
    with pytest.raises(ValueError, match="noise"):
        B.noise_rates(G, 1.5, "leaves")


def test_leaf_noise_marginals_match_enumeration():
    eta = 0.3
    vs = _respecting(G)
    internal = [0, 3]
    for t in SETS:
        q = B.noise_marginals(G, t[None], eta, scope="leaves")[0]
        ref = sum(_p_noisy(G, t, v, eta, leaves_only=True) * v for v in vs)
        np.testing.assert_allclose(q, ref, atol=1e-12)
        assert sum(_p_noisy(G, t, v, eta, leaves_only=True) for v in vs) == pytest.approx(1.0)
        np.testing.assert_array_equal(q[internal], t[internal])  # no noise on internal nodes


def _flips_by_enumeration(taxonomy, T, eta, leaves_only=False):
    """Mean over the rows of T of E #{i: V_i != T_i}, summing P(V = v | T) over every v."""
    vs = _respecting(taxonomy)
    return float(np.mean([sum(_p_noisy(taxonomy, t, v, eta, leaves_only) * np.sum(v != t)
                              for v in vs) for t in T]))  # fmt: skip


@pytest.mark.parametrize("scope", ["all", "leaves"])
def test_expected_label_flips_match_enumeration(scope):
    for eta in (0.0, 0.2, 0.7):
        ref = _flips_by_enumeration(G, SETS, eta, leaves_only=scope == "leaves")
        assert B.expected_label_flips(G, SETS, eta, scope=scope) == pytest.approx(ref, abs=1e-12)


def test_expected_label_flips_hand_case():
    # T = {0, 1} in G (0 -> {1, 2}, 3 -> {4, 5}), leaves only at rate e: leaf 1 drops with
    # probability e, leaf 2 (sibling of 1, k = 2) is added with e / 2, leaves 4 and 5 sit under
    # the negative root 3: 1.5 e in expectation
    t = np.array([[1, 1, 0, 0, 0, 0]])
    assert B.expected_label_flips(G, t, 0.2, scope="leaves") == pytest.approx(0.3)
    # top-down: root 0 dropped (e) loses both labels; else leaf 1 drops (e) or 2 added (e / 2);
    # root 3 added (e / 2, two roots), then each of 4, 5 with e / 2 under it
    e = 0.2
    ref = e * 2 + (1 - e) * (e + e / 2) + (e / 2) * (1 + 2 * (e / 2))
    assert B.expected_label_flips(G, t, e) == pytest.approx(ref)


def test_matched_leaf_noise_matches_the_top_down_expectation():
    for eta in (0.0, 0.05, 0.1):
        e_leaf = B.matched_leaf_noise(G, SETS, eta)
        target = _flips_by_enumeration(G, SETS, eta)
        assert _flips_by_enumeration(G, SETS, e_leaf, leaves_only=True) == pytest.approx(target)
        assert e_leaf >= eta  # clean internal nodes: the leaves need at least the same rate
    # a bisection on the (monotone) leaf-only expectation finds the same rate
    lo, hi, target = 0.0, 1.0, B.expected_label_flips(G, SETS, 0.05)
    for _ in range(60):
        mid = (lo + hi) / 2
        if B.expected_label_flips(G, SETS, mid, scope="leaves") < target:
            lo = mid
        else:
            hi = mid
    assert B.matched_leaf_noise(G, SETS, 0.05) == pytest.approx(lo, abs=1e-12)


def test_matched_leaf_noise_bad_inputs():
    with pytest.raises(ValueError, match="needs a leaf rate of"):
        B.matched_leaf_noise(G, SETS, 0.9)
    with pytest.raises(ValueError, match="noise"):
        B.matched_leaf_noise(G, SETS, -0.1)
    with pytest.raises(ValueError, match="at least one row"):
        B.expected_label_flips(G, SETS[:0], 0.1)
    with pytest.raises(ValueError, match="scope must be one of"):
        B.expected_label_flips(G, SETS, 0.1, scope="roots")
    # every leaf under a negative parent: no leaf can change, the roots can
    with pytest.raises(ValueError, match="no leaf label can change"):
        B.matched_leaf_noise(G, np.zeros((2, 6)), 0.1)
    assert B.matched_leaf_noise(G, np.zeros((2, 6)), 0.0) == 0.0
    # a single node (a root leaf, k = 1): leaf noise changes nothing only at rate 0
    one = Taxonomy([-1])
    assert B.matched_leaf_noise(one, np.array([[1], [0]]), 0.2) == pytest.approx(0.2)


def test_leaf_noise_samples_keep_internal_labels_and_share_the_leaf_coins():
    T = np.tile(SETS[2:4], (20_000, 1))  # rows alternate between SETS[2] and SETS[3]
    V = B.sample_noisy_labels(G, T, 0.3, 1, scope="leaves")
    assert G.respects(V).all()
    np.testing.assert_array_equal(V[:, [0, 3]], T[:, [0, 3]])
    for r in (0, 1):
        np.testing.assert_allclose(
            V[r::2].mean(axis=0),
            B.noise_marginals(G, SETS[2 + r : 3 + r], 0.3, scope="leaves")[0],
            atol=0.015,
        )
    # same rng: wherever the top-down noise kept the parent, a leaf's label is the same
    A = B.sample_noisy_labels(G, T, 0.3, 1)
    for leaf in (1, 2, 4, 5):
        kept = A[:, G.parent[leaf]] == 1
        np.testing.assert_array_equal(A[kept, leaf], V[kept, leaf])
    with pytest.raises(ValueError, match="scope"):
        B.sample_noisy_labels(G, T, 0.3, 1, scope="inner")


def test_sample_noisy_labels_respects_and_matches_marginals():
    T = np.repeat(SETS[2:3], 40_000, axis=0)
    V = B.sample_noisy_labels(G, T, 0.3, 1)
    assert G.respects(V).all()
    np.testing.assert_allclose(V.mean(axis=0), B.noise_marginals(G, SETS[2:3], 0.3)[0], atol=0.01)
    np.testing.assert_array_equal(B.sample_noisy_labels(G, SETS, 0.0, 2), SETS)


def test_bayes_h_predict_is_the_minimum_over_all_predictions():
    """Exact Bayes H-loss by enumeration of every prediction and every multilabel."""
    rng = np.random.default_rng(0)
    vs = _respecting(G)
    preds = [np.array(b) for b in itertools.product((0, 1), repeat=6)]
    for costs in (None, rng.uniform(0.2, 2.0, 6)):
        for _ in range(20):
            w = rng.dirichlet(np.full(len(vs), 0.3))  # a distribution over multilabels
            q = sum(wi * v for wi, v in zip(w, vs, strict=True))[None]
            yhat, loss = B.bayes_h_predict(G, q, costs)
            Vs = np.array(vs)
            exp = [float(w @ h_loss(np.repeat(y[None], len(vs), 0), Vs, G, costs)) for y in preds]
            assert loss[0] == pytest.approx(min(exp), abs=1e-12)
            assert float(w @ h_loss(np.repeat(yhat, len(vs), 0), Vs, G, costs)) == pytest.approx(
                min(exp), abs=1e-12
            )
            assert G.respects(yhat).all()


def test_bayes_h_predict_special_cases_and_bad_inputs():
    q = np.array([[0.9, 0.8, 0.05, 0.1, 0.0, 0.0]])
    yhat, loss = B.bayes_h_predict(G, q)
    assert yhat[0].tolist() == [True, True, False, False, False, False]
    assert loss[0] == pytest.approx(0.1 + 0.1 + 0.05 + 0.1)  # (q0-q1) + (1-q0) + q2 + q3
    with pytest.raises(ValueError, match="column"):
        B.bayes_h_predict(G, q[:, :3])
    with pytest.raises(ValueError, match=r"q_i <= q_PAR"):
        B.bayes_h_predict(G, np.array([[0.1, 0.5, 0, 0, 0, 0]]))
    with pytest.raises(ValueError, match="probabilities"):
        B.bayes_h_predict(G, np.array([[1.5, 0, 0, 0, 0, 0]]))
    with pytest.raises(ValueError, match="costs"):
        B.bayes_h_predict(G, q, costs=[1, 1, 1, 1, 1, -1])


@pytest.mark.parametrize("scope", ["all", "leaves"])
def test_facet_benchmark_bayes_is_the_posterior_by_enumeration(scope):
    eta = 0.2
    leaves = scope == "leaves"
    fb = B.facet_benchmark(
        300, seed=3, taxonomy=G, label_sets=SETS, noise=eta, vocab_size=5, noise_scope=scope
    )
    src = fb.source
    sig = [frozenset(src[np.flatnonzero(t)]) for t in SETS]
    vs = _respecting(G)
    T = fb.intended.toarray()
    for r in range(0, 300, 7):
        s = frozenset(src[np.flatnonzero(T[r])])
        same = [k for k in range(len(SETS)) if sig[k] == s]  # SETS rows are equally likely
        post = sum(B.noise_marginals(G, SETS[k][None], eta, scope=scope)[0] for k in same)
        post /= len(same)
        np.testing.assert_allclose(fb.q[r], post, atol=1e-12)
        # the sources are read off the words
        n_src = int(src.max()) + 1
        cols = fb.corpus.X[r].indices
        seen = {int(c // 5) for c in cols if c < n_src * 5}
        assert seen == set(s)
        # expected loss of the Bayes prediction, by enumeration of V given the posterior
        pv = [sum(_p_noisy(G, SETS[k], v, eta, leaves) for k in same) / len(same) for v in vs]
        yb = np.repeat(fb.bayes[r][None], len(vs), 0)
        assert float(np.dot(pv, h_loss(yb, np.array(vs), G))) == pytest.approx(fb.bayes_loss[r])
        assert fb.empty_loss[r] == pytest.approx(post[G.roots].sum())
    # rows 2 and 3 of SETS share their sources: the words cannot tell them apart
    assert sig[2] == sig[3]


def test_facet_benchmark_deterministic_and_paired_labels():
    kw = dict(taxonomy=G, label_sets=SETS, vocab_size=5, background_size=50)
    a = B.facet_benchmark(200, seed=7, **kw)
    b = B.facet_benchmark(200, seed=7, **kw)
    c = B.facet_benchmark(200, seed=8, **kw)
    ctrl = B.facet_benchmark(200, seed=7, shared=False, **kw)
    assert (a.corpus.X != b.corpus.X).nnz == 0 and (a.corpus.V != b.corpus.V).nnz == 0
    assert (a.corpus.X != c.corpus.X).nnz > 0
    # the control has the same label sets and noisy labels document by document
    assert (a.corpus.V != ctrl.corpus.V).nnz == 0 and (a.intended != ctrl.intended).nnz == 0
    norms = np.sqrt(np.asarray(a.corpus.X.multiply(a.corpus.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0)
    assert G.respects(a.corpus.V.toarray()).all()
    # the leaf-noise control: the control's documents and words, other labels
    leaf = B.facet_benchmark(200, seed=7, shared=False, noise_scope="leaves", **kw)
    assert (leaf.corpus.X != ctrl.corpus.X).nnz == 0 and (leaf.intended != ctrl.intended).nnz == 0
    Vl, T = leaf.corpus.V.toarray(), leaf.intended.toarray()
    np.testing.assert_array_equal(Vl[:, [0, 3]], T[:, [0, 3]])
    assert leaf.parameters["noise_scope"] == "leaves"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_docs": 0}, "n_docs"),
        ({"noise": 1.0}, "noise"),
        ({"noise": -0.1}, "noise"),
        ({"shared": 1}, "shared"),
        ({"vocab_size": 0}, "vocab_size"),
        ({"zipf_exponent": 0.0}, "zipf_exponent"),
        ({"label_sets": None}, "both"),
        ({"label_sets": np.array([[0, 1, 0, 0, 0, 0]])}, "respect"),
        ({"noise_scope": "internal"}, "noise_scope"),
    ],
)
def test_facet_benchmark_bad_inputs(kwargs, match):
    args = {"n_docs": 10, "seed": 0, "taxonomy": G, "label_sets": SETS, **kwargs}
    n = args.pop("n_docs")
    with pytest.raises(ValueError, match=match):
        B.facet_benchmark(n, **args)


def test_benchmark_protocol_and_claim_tables():
    kw = dict(taxonomy=G, label_sets=SETS, vocab_size=5, background_size=50, noise=0.1)
    fac = B.facet_benchmark(120, seed=1, **kw)
    ctl = B.facet_benchmark(120, seed=1, shared=False, **kw)
    algs = ("H-PERC", "PERC")
    runs = {k: B.benchmark_protocol(b, [10, 30], 4, n_test=20, algorithms=algs, n_jobs=1)
            for k, b in (("f", fac), ("c", ctl))}  # fmt: skip
    df = runs["f"]
    # the G-truncated flat learner is scored by default (truncate_flat=True)
    assert set(df["algorithm"]) == {"H-PERC", "PERC", "PERC (truncated)", "empty prediction",
                                    B.BAYES}  # fmt: skip
    assert len(df) == 2 * 4 * 5 and set(df["n_test"]) == {20}
    bay = df[(df.algorithm == B.BAYES) & (df["size"] == 30)]
    # the exact expectation is the mean of bayes_loss over the test documents of each split
    np.testing.assert_allclose(bay["expected H-loss"].iloc[1], fac.bayes_loss[60:80].mean())
    assert B.tie_margin(runs["c"]) > 0
    with pytest.raises(ValueError, match="sizes"):
        B.benchmark_protocol(fac, [31], 4)
    with pytest.raises(ValueError, match="n_test"):
        B.benchmark_protocol(fac, [10], 4, n_test=31)
    with pytest.raises(ValueError, match="n_groups"):
        B.benchmark_protocol(fac, [10], 1)
    with pytest.raises(ValueError, match="FacetBenchmark"):
        B.benchmark_protocol("x", [10], 4)
    with pytest.raises(ValueError, match="DataFrame"):
        B.tie_margin(pd.DataFrame({"a": [1]}))


def test_plot_learning_curves_panels_and_truncated_curves():
    import matplotlib.figure

    kw = dict(taxonomy=G, label_sets=SETS, vocab_size=5, background_size=50, noise=0.1)
    runs = [
        B.benchmark_protocol(
            B.facet_benchmark(120, seed=1, shared=sh, **kw), [10, 30], 4, n_test=20,
            algorithms=("H-PERC", "PERC"), n_jobs=1,
        )
        for sh in (True, False)
    ]  # fmt: skip
    axes = matplotlib.figure.Figure().subplots(1, 3)
    B.plot_learning_curves(axes, runs[0], runs[1], runs[1])
    for ax in axes:
        labels = [c.get_label() for c in ax.containers]
        # hierarchical, flat and truncated flat curves (the other pairs are absent: skipped)
        assert labels == ["H-PERC", "PERC", "PERC (truncated)"]
        assert len(ax.lines) >= 2  # the empty and Bayes references among them
    assert axes[2].get_title() == B.CLEAN_CONTROL
    # the panels share a y range that shows every reference line, a Bayes H-loss of 0 included
    lo, hi = axes[0].get_ylim()
    for ax in axes:
        assert ax.get_ylim() == (lo, hi)
        for line in ax.lines:
            y = line.get_ydata()
            assert lo <= min(y) and max(y) <= hi
    clean = B.benchmark_protocol(
        B.facet_benchmark(120, seed=1, shared=False, **{**kw, "noise": 0.0}), [10, 30], 4,
        n_test=20, algorithms=("H-PERC", "PERC"), n_jobs=1,
    )  # fmt: skip
    grid = matplotlib.figure.Figure().subplots(2, 2)
    B.plot_learning_curves(grid, runs[0], runs[1], clean, runs[1])
    assert [ax.get_title() for ax in grid.ravel()] == [
        "shared facets", "control", B.CLEAN_CONTROL, B.LEAF_NOISE_CONTROL
    ]  # fmt: skip
    bayes = [ln for ln in grid[1, 0].lines if ln.get_label() == f"{B.BAYES} (exact)"]
    assert bayes[0].get_ydata()[0] == 0.0 and grid[1, 0].get_ylim()[0] < 0.0
    # six panels on a 3 × 2 grid: the rows are the matched pairs, the y label on the first column
    six = matplotlib.figure.Figure().subplots(3, 2)
    B.plot_learning_curves(six, runs[0], runs[1], clean, runs[1], runs[1], clean_facets=clean)
    assert [ax.get_title() for ax in six.ravel()] == [
        "shared facets", "control", B.CLEAN_FACETS, B.CLEAN_CONTROL, B.LEAF_NOISE_CONTROL,
        B.MATCHED_LEAF_NOISE_CONTROL,
    ]  # fmt: skip
    assert [bool(ax.get_ylabel()) for ax in six.ravel()] == [True, False] * 3
    two = matplotlib.figure.Figure().subplots(1, 2)
    B.plot_learning_curves(two, runs[0], runs[1])
    with pytest.raises(ValueError, match="3 axes"):
        B.plot_learning_curves(two, runs[0], runs[1], runs[1])
    with pytest.raises(ValueError, match="2 axes"):
        B.plot_learning_curves(axes, runs[0], runs[1])


def test_benchmark_protocol_keeps_the_work_counts():
    kw = dict(taxonomy=G, label_sets=SETS, vocab_size=5, background_size=50, noise=0.1)
    fac = B.facet_benchmark(80, seed=2, **kw)
    df = B.benchmark_protocol(fac, [10], 4, n_test=10, algorithms=("H-PERC", "PERC"), n_jobs=1)
    learned = df[df["algorithm"].isin(["H-PERC", "PERC"])]
    assert (learned["work"] > 0).all() and (learned["stored"] >= 0).all()
    # the flat Perceptron evaluates every node on every example: at least as much work
    w = learned.groupby("algorithm")["work"].mean()
    assert w["PERC"] >= w["H-PERC"]
    assert df.loc[df["algorithm"] == B.BAYES, "work"].isna().all()


# ------------------------------------------------------------------------------- Remark 5
def _two_node_model():
    # root margin 0.2, child margin 0.1 on x = e_1
    U = np.array([[0.2, np.sqrt(0.96)], [0.1, np.sqrt(0.99)]])
    return HierarchicalLabelModel(Taxonomy([-1, 0]), U)


def test_reference_bayes_gap_hand_case():
    # P(V_root = 1) = 0.6 and P(V_child = 1 | root) = 0.55. (4) predicts (1, 1):
    # 0.4 (root wrong) + 0.6 · 0.45 (child wrong below a correct root) = 0.67; predicting
    # nothing costs P(V_root = 1) = 0.6, the minimum: (4) is not Bayes optimal (Remark 5).
    m = _two_node_model()
    ref, bayes, pred = B.reference_bayes_gap(m, np.array([[1.0, 0.0]]))
    assert ref == pytest.approx([0.67])
    assert bayes == pytest.approx([0.6])
    assert pred.tolist() == [[False, False]]
    # a cheap child (c = 0.1): 0.4 + 0.1 · 0.27 = 0.427 against 0.6, so (4) is optimal here
    ref, bayes, pred = B.reference_bayes_gap(m, np.array([[1.0, 0.0]]), [1.0, 0.1])
    assert ref == pytest.approx([0.427]) and bayes == pytest.approx([0.427])
    assert pred.tolist() == [[True, True]]


def test_reference_bayes_gap_is_the_minimum_over_all_labelings():
    rng = np.random.default_rng(11)
    G = Taxonomy([-1, 0, 0, 1, -1])
    U = rng.standard_normal((5, 3))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    model = HierarchicalLabelModel(G, U)
    X = rng.standard_normal((25, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    allY = np.array(list(itertools.product([0, 1], repeat=5)), dtype=bool)
    for costs in (None, rng.uniform(0.1, 3.0, 5)):
        ref, bayes, pred = B.reference_bayes_gap(model, X, costs)
        brute = np.stack(
            [model.expected_h_loss(X, np.repeat(y[None], len(X), 0), costs) for y in allY]
        ).min(axis=0)
        np.testing.assert_allclose(bayes, brute, atol=1e-12)
        assert np.all(bayes <= ref + 1e-12)
        assert G.respects(pred).all()
        np.testing.assert_allclose(model.expected_h_loss(X, model.reference_predict(X), costs), ref)


def test_reference_bayes_gap_bad_inputs():
    m = _two_node_model()
    x = np.array([[1.0, 0.0]])
    with pytest.raises(ValueError, match="> 0"):
        B.reference_bayes_gap(m, x, [1.0, 0.0])
    with pytest.raises(ValueError, match="> 0"):
        B.reference_bayes_gap(m, x, [1.0, -2.0])
    with pytest.raises(ValueError, match="shape"):
        B.reference_bayes_gap(m, x, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="at least one"):
        B.reference_bayes_gap(m, np.zeros((0, 2)))
    with pytest.raises(TypeError, match="HierarchicalLabelModel"):
        B.reference_bayes_gap("model", x)
