"""Theorem 2 against a √T learner, and the intervals of issue 31 (rates.py, intervals.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from mlgeom import hierarchical as H
from mlgeom.hierarchical import intervals as HI
from mlgeom.hierarchical import rates as HR


def _stream(d: int = 4, T: int = 300, seed: int = 0):
    G = H.Taxonomy([-1, -1, 0, 0, 2])
    model = H.random_model(G, d, seed=seed)
    X = H.sphere_instances(model, T, 0.02, seed=seed + 1)
    V = model.sample(X, seed + 2)
    return G, X, V


def _hogd_loop(G, X, V, eta0=1.0):
    """Loop-based reference of hierarchical OGD (one node, one round at a time)."""
    T, d = X.shape
    N = G.n_nodes
    W = [np.zeros(d) for _ in range(N)]
    n = [0] * N
    out = np.zeros((T, N), dtype=bool)
    for t in range(T):
        m = [float(W[i] @ X[t]) for i in range(N)]
        for i in G.order:  # parents before children
            p = G.parent[i]
            out[t, i] = m[i] >= 0 and (p < 0 or out[t, p])
        for i in range(N):
            p = G.parent[i]
            if p < 0 or V[t, p]:
                n[i] += 1
                y = 2.0 * V[t, i] - 1.0
                w = W[i] - eta0 / np.sqrt(n[i]) * (m[i] - y) * X[t]
                W[i] = w / max(1.0, np.linalg.norm(w))
    return out


def test_hogd_matches_loop_reference():
    G, X, V = _stream()
    np.testing.assert_array_equal(HR.hogd_predictions(G, X, V), _hogd_loop(G, X, V))
    np.testing.assert_array_equal(
        HR.hogd_predictions(G, X, V, eta0=0.3), _hogd_loop(G, X, V, eta0=0.3)
    )


def test_hrls_predictions_equal_primal():
    G, X, V = _stream(d=3)
    np.testing.assert_array_equal(HR.hrls_predictions(G, X, V), H.hrls_primal(G, X, V).predictions)


def test_predictions_respect_the_forest():
    G, X, V = _stream()
    for P in (HR.hogd_predictions(G, X, V), HR.hrls_predictions(G, X, V)):
        assert G.respects(P).all()


def test_first_round_predicts_every_root_positive():
    # w = 0 at the start: margin 0 counts as 1 (as H-RLS), so round 1 predicts every node
    G, X, V = _stream(T=1)
    assert HR.hogd_predictions(G, X, V)[0].all()


def test_bad_input():
    G, X, V = _stream(T=5)
    with pytest.raises(ValueError, match="eta0"):
        HR.hogd_predictions(G, X, V, eta0=0.0)
    with pytest.raises(ValueError, match="rows"):
        HR.hogd_predictions(G, X[:3], V)
    with pytest.raises(ValueError, match="design"):
        HR.rate_runs(G, 4, 20, reps=1, seed=0, design="cube")
    with pytest.raises(ValueError, match="d >= N"):
        HR.rate_runs(G, 3, 20, reps=1, seed=0, design="orthonormal")
    with pytest.raises(ValueError, match="checkpoints"):
        HR.rate_runs(G, 4, 20, reps=1, seed=0, checkpoints=[0, 5])


def test_rate_runs_deterministic_and_shaped():
    G = H.rcv1_like_forest()
    a = HR.rate_runs(G, 5, 200, reps=2, seed=3, checkpoints=[10, 100, 200])
    b = HR.rate_runs(G, 5, 200, reps=2, seed=3, checkpoints=[10, 100, 200])
    pd.testing.assert_frame_equal(a.regret, b.regret)
    assert a.curves("H-RLS").shape == (2, 3)
    np.testing.assert_array_equal(a.checkpoints, [10, 100, 200])
    # the replicates draw their own instances: two replicates' curves differ
    assert not np.allclose(a.curves("H-OGD")[0], a.curves("H-OGD")[1])
    # guessing regret grows (linear in T)
    g = a.curves("uniform guessing")
    assert np.all(g[:, -1] > g[:, 0])


def test_forecast_picks_the_true_model():
    T = np.round(np.logspace(1, 5, 25))
    R_log = np.vstack([3 * np.log(T) + 1, 2 * np.log(T)])
    R_sqrt = np.vstack([0.5 * np.sqrt(T) + 2, np.sqrt(T)])
    assert np.all(HR.forecast_log_vs_sqrt(T, R_log) > 0)
    assert np.all(HR.forecast_log_vs_sqrt(T, R_sqrt) < 0)
    with pytest.raises(ValueError, match="R must have 25 column"):
        HR.forecast_log_vs_sqrt(T, R_log[:, :-1])


def test_last_decade():
    np.testing.assert_array_equal(HR.last_decade([10, 100, 1000, 5000, 10000]), [0, 0, 1, 1, 1])
    with pytest.raises(ValueError, match="positive"):
        HR.last_decade([0, 10])


def test_corrected_interval_hand_computed():
    iv = HI.corrected_split_interval([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], n_train=2, n_test=1)
    half = sps.t.ppf(0.975, 2) * 1.0 * np.sqrt(1 / 3 + 1 / 2)  # sd 1, J = 3, n_test/n_train = 1/2
    assert iv.estimate == pytest.approx(2.0)
    assert iv.high - iv.estimate == pytest.approx(half)
    assert "corrected" in iv.method
    # the same as mlgeom.stats with test_fraction = n_test / n_train
    from mlgeom.stats import corrected_paired_interval

    ref = corrected_paired_interval([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], test_fraction=0.5)
    assert (iv.low, iv.high) == (ref.low, ref.high)
    # wider than the plain paired t interval
    plain = sps.t.ppf(0.975, 2) / np.sqrt(3)
    assert half > plain
    flat = HI.corrected_split_interval([1.0, 1.0], None, n_train=2, n_test=1)
    assert flat.low == flat.high == flat.estimate == 1.0  # no spread: the value itself
    with pytest.raises(ValueError, match="b must be"):
        HI.corrected_split_interval([1.0, 2.0], [1.0], n_train=2, n_test=1)


def test_table1_orderings_arms():
    rng = np.random.default_rng(1)
    n = 6
    base = {"PERC": 1.9, "H-PERC": 1.4, "S-RLS": 1.07, "SH-RLS": 0.92, "SVM": 1.03, "H-SVM": 0.90}
    per = pd.DataFrame({k: v + rng.normal(0, 0.01, n) for k, v in base.items()})
    per["S-RLS (truncated)"] = 0.95 + rng.normal(0, 0.01, n)
    per["empty prediction"] = 1.17 + rng.normal(0, 0.01, n)
    out = HI.table1_orderings(per, n_train=1500, n_test=816)
    assert list(out) == [k for k, *_ in HI.TABLE1_ORDERINGS]
    # H-SVM against the best other (SH-RLS); the flat SVM against the best of its others (H-SVM)
    assert out["hsvm-best"]["method"].estimate == pytest.approx(
        (per["H-SVM"] - per["SH-RLS"]).mean()
    )
    assert out["hsvm-best"]["competitor"].estimate == pytest.approx(
        (per["SVM"] - per["H-SVM"]).mean()
    )
    ratio = (per["SH-RLS"] / per["H-SVM"]).mean()
    assert out["shrls-close-to-hsvm"]["method"].estimate == pytest.approx(ratio)
    with pytest.raises(ValueError, match="lacks"):
        HI.table1_orderings(per.drop(columns="S-RLS (truncated)"), n_train=1500, n_test=816)
