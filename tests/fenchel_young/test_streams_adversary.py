"""Correlated prototype streams and the adaptive adversary (issue: headline on streams that do
not decompose)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlgeom import fenchel_young as FY

KW = {"n_prototypes": 5, "cosine": 0.3, "feature_noise": 0.2, "label_noise": 0.25, "pool": 12}


def test_correlated_stream_shapes_and_determinism():
    a = FY.correlated_prototype_stream(4, 50, seed=3, **KW)
    b = FY.correlated_prototype_stream(4, 50, seed=3, **KW)
    assert a.X.shape == (12 * 4, 6) and a.Y.shape == (48, 4) and a.T == 50
    assert a.U.shape == (4, 6)
    for f in ("X", "Y", "order", "labels", "U"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    np.testing.assert_allclose(np.linalg.norm(a.X, axis=1), 1.0)
    # row i*d + k holds input i with class k
    np.testing.assert_array_equal(a.labels, np.tile(np.arange(4), 12))
    np.testing.assert_array_equal(a.X[::4], a.X[1::4])
    c = FY.correlated_prototype_stream(4, 50, seed=4, **KW)
    assert not np.array_equal(a.order, c.order)


def test_correlated_stream_stated_cosine():
    kw = dict(KW, feature_noise=0.0, pool=40)
    st = FY.correlated_prototype_stream(3, 10, seed=0, **kw)
    Xp = st.X[::3]
    G = Xp @ Xp.T
    same = np.isclose(G, 1.0)  # same prototype
    assert np.any(~same)
    np.testing.assert_allclose(G[~same], 0.3, atol=1e-12)
    # five distinct prototypes at most, each of unit norm
    assert len({tuple(np.round(x, 12)) for x in Xp}) <= 5


def test_correlated_stream_noise_rate_and_nesting():
    kw0 = dict(KW, label_noise=0.0)
    T = 40_000
    clean = FY.correlated_prototype_stream(5, T, seed=7, **kw0)
    noisy = FY.correlated_prototype_stream(5, T, seed=7, **dict(KW, label_noise=0.2))
    np.testing.assert_array_equal(clean.X, noisy.X)
    np.testing.assert_array_equal(clean.order // 5, noisy.order // 5)  # same inputs
    flipped = clean.order != noisy.order
    rate = flipped.mean()
    assert abs(rate - 0.2) < 4 * np.sqrt(0.2 * 0.8 / T)
    # clean classes: one per input; with noise, at most two per input (not separable)
    inputs, labels = noisy.order // 5, noisy.order % 5
    per_input = [np.unique(labels[inputs == i]).size for i in np.unique(inputs)]
    assert max(per_input) == 2
    c_in = [np.unique(clean.order[clean.order // 5 == i] % 5).size for i in np.unique(inputs)]
    assert max(c_in) == 1


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("d", 1),
        ("T", 0),
        ("n_prototypes", 0),
        ("cosine", 1.0),
        ("cosine", -0.1),
        ("feature_noise", -1.0),
        ("label_noise", 1.5),
        ("pool", 0),
    ],
)
def test_correlated_stream_rejects_bad_values(name, value):
    args = dict(KW, d=3, T=5)
    args[name] = value
    with pytest.raises(ValueError, match=name):
        FY.correlated_prototype_stream(**args)


def _pool(d, seed=11):
    """The clean labelled pool of a correlated stream: its distinct (input, class) rows."""
    st = FY.correlated_prototype_stream(d, 400, seed=seed, **dict(KW, label_noise=0.0))
    cand = np.unique(st.order)
    return st, cand, st.X[cand], st.labels[cand]


def _adversary_reference(X, labels, T, d, eta, decoding):
    """Brute force: every candidate's E_t from the package's decoding law, first maximiser."""
    W = np.zeros((d, X.shape[1]))
    s = FY.Multiclass(d)
    order, E = [], []
    for _ in range(T):
        Ei = []
        for x, y in zip(X, labels, strict=True):
            law = FY.multiclass_decoding_law(W @ x, decoding)
            Ei.append(1.0 - law[y])
            if decoding == "randomized":  # Algorithm 1's exact expectation, pair by pair
                e2 = FY.expected_target_loss(s, W @ x, np.eye(d)[y])
                np.testing.assert_allclose(Ei[-1], e2, atol=1e-12)
        i = int(np.argmax(Ei))
        order.append(i)
        E.append(Ei[i])
        theta = W @ X[i]
        sig = np.exp(theta - theta.max())
        sig /= sig.sum()
        W -= (eta / np.log(2)) * np.outer(sig - np.eye(d)[labels[i]], X[i])
    return np.array(order), np.array(E), W


@pytest.mark.parametrize("decoding", ["randomized", "gaptron", "deterministic"])
def test_adversary_matches_brute_force(decoding):
    d, T = 4, 60
    _, _, X, lab = _pool(d)
    unif = np.random.default_rng(0).random((2, T, 2))
    eta = FY.eta_theorem_5_1(1.0)
    rec, order = FY.adversarial_ogd_batch(X, lab, unif, d=d, eta=eta, decoding=decoding)
    ref_order, ref_E, ref_W = _adversary_reference(X, lab, T, d, eta, decoding)
    for k in range(2):  # W_t does not depend on the draws: same order for every seed
        np.testing.assert_array_equal(order[k], ref_order)
        np.testing.assert_allclose(rec.expected_loss[k], ref_E, atol=1e-12)
        np.testing.assert_allclose(rec.W[k], ref_W, atol=1e-10)


def test_adversary_hand_case():
    """Two orthogonal candidates: the tie at W = 0 goes to the first, then they alternate."""
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    rec, order = FY.adversarial_ogd_batch(X, [0, 1], np.full((1, 4, 2), 0.5), d=2, eta=0.3)
    assert order.tolist() == [[0, 1, 0, 1]]
    # round 1: W = 0, p = min(1, 2(1 - 1/2)) = 1, E = 1 - 1/2
    assert rec.expected_loss[0, 0] == 0.5
    # round 3 replays candidate 0 after one step of size eta/ln 2 on it: scores (+a, -a)
    a = 0.3 / np.log(2) * 0.5
    sig = 1.0 / (1.0 + np.exp(-2 * a))
    np.testing.assert_allclose(rec.expected_loss[0, 2], 2 * (1 - sig) * (1 - sig), rtol=1e-12)


def test_adversary_is_the_batch_learner_on_its_own_order():
    """Replaying the adversary's order through the oblivious batch learner gives the same run."""
    d, T = 5, 200
    _, _, X, lab = _pool(d, seed=2)
    unif = np.random.default_rng(1).random((1, T, 2))
    eta = FY.eta_gaptron(d, 1.0)
    for dec in ("randomized", "gaptron"):
        rec, order = FY.adversarial_ogd_batch(X, lab, unif, d=d, eta=eta, decoding=dec)
        replay = FY.logistic_ogd_batch(X, lab, order, unif, d=d, eta=eta, decoding=dec)
        for f in ("played", "expected_loss", "target_loss", "surrogate_loss", "W"):
            np.testing.assert_array_equal(getattr(rec, f), getattr(replay, f))


def test_adversary_picks_the_largest_expected_loss():
    """Each revealed E_t is the maximum over the pool of the decoding's exact E_t."""
    d, T = 6, 80
    _, _, X, lab = _pool(d, seed=5)
    unif = np.random.default_rng(2).random((1, T, 2))
    eta = FY.eta_theorem_5_1(1.0)
    rec, order = FY.adversarial_ogd_batch(X, lab, unif, d=d, eta=eta)
    for t in (1, 17, 79):
        W = FY.logistic_ogd_batch(X, lab, order[:, :t], unif[:, :t], d=d, eta=eta).W[0]
        law = FY.multiclass_decoding_law(X @ W.T)
        Ei = 1.0 - law[np.arange(len(lab)), lab]
        np.testing.assert_allclose(rec.expected_loss[0, t], Ei.max(), atol=1e-12)


def test_adversary_rejects_bad_values():
    X = np.eye(3)
    lab = np.zeros(3, dtype=np.int64)
    u = np.full((1, 4, 2), 0.5)
    with pytest.raises(ValueError, match="d"):
        FY.adversarial_ogd_batch(X, lab, u, d=1, eta=0.1)
    with pytest.raises(ValueError, match="eta"):
        FY.adversarial_ogd_batch(X, lab, u, d=3, eta=0.0)
    with pytest.raises(ValueError, match="decoding"):
        FY.adversarial_ogd_batch(X, lab, u, d=3, eta=0.1, decoding="nope")
    with pytest.raises(ValueError, match="labels"):
        FY.adversarial_ogd_batch(X, lab + 3, u, d=3, eta=0.1)
    with pytest.raises(ValueError, match="labels"):
        FY.adversarial_ogd_batch(X, lab[:2], u, d=3, eta=0.1)
    with pytest.raises(ValueError, match="uniforms"):
        FY.adversarial_ogd_batch(X, lab, u[..., :1], d=3, eta=0.1)
    with pytest.raises(ValueError, match="uniforms"):
        FY.adversarial_ogd_batch(X, lab, u + 1.0, d=3, eta=0.1)
    with pytest.raises(ValueError, match="uniforms"):
        FY.adversarial_ogd_batch(X, lab, "abc", d=3, eta=0.1)


def test_correlated_table_columns_and_horizons():
    arms = (("randomized", "theorem_5_1"), ("gaptron", "gaptron"))
    kw = dict(KW, label_noise=0.0)
    tab = FY.correlated_table(
        [3], 40, 2, arms=arms, uniform=True, horizons=(20, 40), adversary=True, seed=0, **kw
    )
    assert list(tab.columns) == ["d", "seed", "decoding", "step", "T", "sum_E", "c_star"]
    assert len(tab) == 2 * (2 * 2 + 2)
    assert set(tab["T"]) == {20, 40}
    u = tab[tab.decoding == "uniform"]
    np.testing.assert_allclose(u["sum_E"], u["T"] * (1 - 1 / 3))
    again = FY.correlated_table(
        [3], 40, 2, arms=arms, uniform=True, horizons=(20, 40), adversary=True, seed=0, **kw
    )
    np.testing.assert_array_equal(tab["c_star"], again["c_star"])
    with pytest.raises(ValueError, match="horizons"):
        FY.correlated_table([3], 40, 1, arms=arms, horizons=(80,), **kw)
    with pytest.raises(ValueError, match="arm"):
        FY.correlated_table([3], 40, 1, arms=(("randomized",),), **kw)
    with pytest.raises(ValueError, match="label_noise"):
        FY.correlated_table([3], 40, 1, arms=arms, adversary=True, **dict(KW, label_noise=0.1))


def test_correlated_table_adversary_reveals_only_clean_pairs():
    """With the adversary, every round's pair is one of the clean stream's (input, class) rows."""
    from dataclasses import replace

    kw = dict(KW, label_noise=0.0)
    st = FY.correlated_prototype_stream(3, 300, seed=0, **kw)
    clean = set(np.unique(st.order).tolist())
    _, cand, X, lab = _pool(3, seed=0)
    assert set(cand.tolist()) == clean
    unif = np.random.default_rng(0).random((1, 300, 2))
    _, order = FY.adversarial_ogd_batch(X, lab, unif, d=3, eta=FY.eta_theorem_5_1(1.0))
    faced = replace(st, order=cand[order[0]])
    assert set(faced.order.tolist()) <= clean
    # a comparator fitting the clean pool keeps a small loss on the adversary's rounds
    fit = FY.fit_ridge(FY.Multiclass(3), faced, 1e-3, loss_scale=1 / np.log(2))
    assert fit.total_loss / faced.T < 0.2


def test_correlated_table_arms_in_separate_calls_face_the_same_pools():
    """The notebook runs the Gaptron-style arms against the adversary in a second call: each arm's
    rows (same seed) equal those of one joint call, since pools and uniforms depend on (d, seed)."""
    arms = (("randomized", "theorem_5_1"), ("gaptron", "theorem_5_1"), ("gaptron", "gaptron"))
    kw = dict(KW, label_noise=0.0, adversary=True, seed=3)
    joint = FY.correlated_table([3, 4], 60, 2, arms=arms, horizons=(60,), **kw)
    first = FY.correlated_table([3, 4], 60, 2, arms=arms[:1], uniform=True, horizons=(30, 60), **kw)
    rest = FY.correlated_table([3, 4], 60, 2, arms=arms[1:], horizons=(60,), **kw)
    split = pd.concat([first[(first["T"] == 60) & (first.decoding != "uniform")], rest])
    key = ["d", "seed", "decoding", "step"]
    a = joint.sort_values(key).reset_index(drop=True)
    b = split.sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
