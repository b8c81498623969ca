"""Correlated prototype streams and the adaptive adversary (issue: headline on streams that do
not decompose)."""

from __future__ import annotations

import numpy as np
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


def _adversary_reference(X, order, d, eta, decoding):
    """Brute force: try every class with the package's exact E_t, keep the first maximiser."""
    W = np.zeros((d, X.shape[1]))
    labels, E = [], []
    s = FY.Multiclass(d)
    for i in order:
        x = X[i]
        theta = W @ x
        law = FY.multiclass_decoding_law(theta, decoding)
        Ey = np.array([1.0 - law[y] for y in range(d)])
        if decoding == "randomized":  # the package's Algorithm 1 expectation, class by class
            Ey2 = np.array([FY.expected_target_loss(s, theta, np.eye(d)[y]) for y in range(d)])
            np.testing.assert_allclose(Ey, Ey2, atol=1e-12)
        y = int(np.argmax(Ey))
        labels.append(y)
        E.append(Ey[y])
        sig = np.exp(theta - theta.max())
        sig /= sig.sum()
        W -= (eta / np.log(2)) * np.outer(sig - np.eye(d)[y], x)
    return np.array(labels), np.array(E), W


@pytest.mark.parametrize("decoding", ["randomized", "gaptron", "deterministic"])
def test_adversary_matches_brute_force(decoding):
    d = 4
    st = FY.correlated_prototype_stream(d, 60, seed=11, **KW)
    X, order = st.X[::d], st.order // d
    rng = np.random.default_rng(0)
    unif = rng.random((1, 60, 2))
    eta = FY.eta_theorem_5_1(1.0)
    rec, lab = FY.adversarial_ogd_batch(X, order[None], unif, d=d, eta=eta, decoding=decoding)
    ref_lab, ref_E, ref_W = _adversary_reference(X, order, d, eta, decoding)
    np.testing.assert_array_equal(lab[0], ref_lab)
    np.testing.assert_allclose(rec.expected_loss[0], ref_E, atol=1e-12)
    np.testing.assert_allclose(rec.W[0], ref_W, atol=1e-10)


def test_adversary_is_the_batch_learner_on_its_own_classes():
    """Replaying the adversary's classes through the oblivious batch learner gives the same run."""
    d = 5
    st = FY.correlated_prototype_stream(d, 200, seed=2, **KW)
    X, order = st.X[::d], st.order // d
    unif = np.random.default_rng(1).random((1, 200, 2))
    eta = FY.eta_gaptron(d, 1.0)
    for dec in ("randomized", "gaptron"):
        rec, lab = FY.adversarial_ogd_batch(X, order[None], unif, d=d, eta=eta, decoding=dec)
        replay = FY.logistic_ogd_batch(
            st.X, st.labels, (order * d + lab[0])[None], unif, d=d, eta=eta, decoding=dec
        )
        for f in ("played", "expected_loss", "target_loss", "surrogate_loss", "W"):
            np.testing.assert_array_equal(getattr(rec, f), getattr(replay, f))


def test_adversary_rejects_bad_values():
    X = np.eye(3)
    o = np.zeros((1, 4), dtype=np.int64)
    u = np.full((1, 4, 2), 0.5)
    with pytest.raises(ValueError, match="d"):
        FY.adversarial_ogd_batch(X, o, u, d=1, eta=0.1)
    with pytest.raises(ValueError, match="eta"):
        FY.adversarial_ogd_batch(X, o, u, d=3, eta=0.0)
    with pytest.raises(ValueError, match="decoding"):
        FY.adversarial_ogd_batch(X, o, u, d=3, eta=0.1, decoding="nope")
    with pytest.raises(ValueError, match="orders"):
        FY.adversarial_ogd_batch(X, o + 7, u, d=3, eta=0.1)
    with pytest.raises(ValueError, match="uniforms"):
        FY.adversarial_ogd_batch(X, o, u[:, :2], d=3, eta=0.1)


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
