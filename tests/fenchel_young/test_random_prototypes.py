"""The random-prototype instance family of the headline (issue 33): seeds vary the geometry."""

from __future__ import annotations

import numpy as np
import pytest

import mlgeom.fenchel_young as FY
from mlgeom.fenchel_young import experiments as fx
from mlgeom.fenchel_young.logistic_ogd import logistic_ogd_loop


def _reference_stream(d, T, m, p, rho, seed):
    """15-line loop reference: redraw the whole set until every pair meets the cosine bound."""
    rng = np.random.default_rng(seed)
    while True:
        V = rng.standard_normal((m, p))
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        ok = all(abs(V[i] @ V[j]) <= rho for i in range(m) for j in range(i + 1, m))
        if ok:
            break
    classes = rng.integers(d, size=m)
    j = rng.integers(m, size=T)
    lab = classes[j].copy()
    flip = rng.random(T) < 0.0
    lab[flip] = rng.integers(d, size=int(flip.sum()))
    return V, classes, j, lab


def test_random_prototypes_match_a_loop_reference():
    st = FY.random_prototype_stream(3, 50, n_prototypes=5, dim=8, max_cosine=0.6, seed=4)
    V, classes, j, lab = _reference_stream(3, 50, 5, 8, 0.6, 4)
    np.testing.assert_array_equal(st.X[::3], V)
    np.testing.assert_array_equal(st.labels[st.order], lab)
    np.testing.assert_array_equal(st.order // 3, j)
    U = np.zeros((3, 8))
    for c, v in zip(classes, V, strict=True):
        U[c] += v
    np.testing.assert_allclose(st.U, U)


def test_random_prototypes_meet_the_cosine_bound_and_unit_norm():
    for seed in range(5):
        st = FY.random_prototype_stream(4, 10, n_prototypes=20, dim=40, max_cosine=0.5, seed=seed)
        V = st.X[::4]
        G = V @ V.T
        np.testing.assert_allclose(np.diag(G), 1.0)
        assert np.abs(G[~np.eye(20, dtype=bool)]).max() <= 0.5
        assert st.C == pytest.approx(1.0)


def test_seeds_vary_the_geometry_not_only_the_labels():
    a = FY.random_prototype_stream(2, 10, n_prototypes=4, dim=8, max_cosine=0.9, seed=0)
    b = FY.random_prototype_stream(2, 10, n_prototypes=4, dim=8, max_cosine=0.9, seed=1)
    Ga, Gb = a.X[::2] @ a.X[::2].T, b.X[::2] @ b.X[::2].T
    assert not np.allclose(np.sort(Ga.ravel()), np.sort(Gb.ravel()))


def test_random_prototypes_deterministic_and_special_case():
    kw = dict(n_prototypes=3, dim=3, max_cosine=0.99, seed=7)
    a = FY.random_prototype_stream(2, 20, **kw)
    b = FY.random_prototype_stream(2, 20, **kw)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.order, b.order)
    one = FY.random_prototype_stream(2, 5, n_prototypes=1, dim=1, max_cosine=0.1, seed=0)
    assert abs(one.X[0, 0]) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"dim": 2}, "dim"),
        ({"max_cosine": 0.0}, "max_cosine"),
        ({"max_cosine": 1.0}, "max_cosine"),
        ({"noise": 1.5}, "noise"),
        ({"max_tries": 0}, "max_tries"),
        ({"max_cosine": 0.01, "max_tries": 3}, "max_cosine=0.01"),
    ],
)
def test_random_prototypes_reject_bad_values(kw, match):
    base = dict(n_prototypes=3, dim=4, max_cosine=0.9, seed=0)
    with pytest.raises(ValueError, match=match):
        FY.random_prototype_stream(2, 5, **{**base, **kw})


def test_worst_case_table_random_geometry_matches_the_loop_learner():
    arms = (("randomized", "theorem_5_1"), ("gaptron", "gaptron"), ("deterministic", "theorem_5_1"))
    tab = fx.worst_case_table(
        [3],
        60,
        4,
        2,
        arms=arms,
        geometry="random",
        dim=6,
        max_cosine=0.9,
        horizons=(30, 60),
        uniform=True,
        seed=5,
    )
    assert set(zip(tab.decoding, tab.step, strict=True)) == set(arms) | {("uniform", "none")}
    assert sorted(tab["T"].unique()) == [30, 60]
    assert len(tab) == 2 * 2 * 4
    # the c* of every arm on seed 0 follows from a plain loop run on the same stream and uniforms
    g = np.random.default_rng(5).spawn(1)[0]
    gs = g.spawn(3)
    st = FY.random_prototype_stream(3, 60, n_prototypes=4, dim=6, max_cosine=0.9, seed=gs[0])
    decs = ("randomized", "gaptron", "deterministic")
    for (dec, step), h in zip(arms, gs[-1].spawn(len(decs)), strict=True):
        unif = h.spawn(2)[0].random((60, 2))
        rec = logistic_ogd_loop(
            st.X, st.labels, st.order, unif, d=3, eta=fx.step_size(step, 3), decoding=dec
        )
        E = float(rec.expected_loss.sum())
        row = tab[(tab.decoding == dec) & (tab.step == step) & (tab.seed == 0) & (tab["T"] == 60)]
        assert row["sum_E"].iloc[0] == pytest.approx(E, rel=1e-12)
    u = tab[tab.decoding == "uniform"].set_index(["seed", "T"])["c_star"]
    assert (u.xs(60, level="T") > u.xs(30, level="T")).all()  # guessing's regret grows with T


def test_worst_case_table_one_call_shares_streams_across_arms():
    # the deterministic arm in the same call sees the same streams as the others (issue 33)
    kw = dict(geometry="random", dim=6, max_cosine=0.9, seed=2)
    both = fx.worst_case_table(
        [2], 40, 3, 2, arms=(("randomized", "theorem_5_1"), ("deterministic", "theorem_5_1")), **kw
    )
    alone = fx.worst_case_table([2], 40, 3, 2, arms=(("randomized", "theorem_5_1"),), **kw)
    r = both[both.decoding == "randomized"].reset_index(drop=True)
    np.testing.assert_array_equal(r["sum_E"], alone["sum_E"])


def test_worst_case_table_rejects_bad_geometry_and_arms():
    with pytest.raises(ValueError, match="geometry"):
        fx.worst_case_table([2], 4, 2, 1, geometry="sphere")
    with pytest.raises(ValueError, match="arms"):
        fx.worst_case_table([2], 4, 2, 1, arms=(("randomized", "nope"),))
    with pytest.raises(ValueError, match="horizons"):
        fx.worst_case_table([2], 4, 2, 1, horizons=(5,))
    with pytest.raises(ValueError, match="dim"):
        fx.worst_case_table([2], 4, 2, 1, geometry="random", dim=1)


def test_horizon_table_competitors_match_loop_runs_and_leave_ours_unchanged():
    st = FY.planted_stream(FY.Multiclass(3), 200, n_features=4, norm=5.0, noise=0.05, seed=3)
    plain = fx.horizon_table(st, 3, [100, 200], 2, seed=1)
    tab = fx.horizon_table(st, 3, [100, 200], 2, competitors=("deterministic", "gaptron"), seed=1)
    np.testing.assert_array_equal(tab["slack"], plain["slack"])
    for dec in ("deterministic", "gaptron"):
        ref = logistic_ogd_loop(
            st.X,
            st.labels,
            st.order,
            np.full((200, 2), 0.5),
            d=3,
            eta=fx.step_size("theorem_5_1", 3),
            decoding=dec,
        )
        E = np.cumsum(ref.expected_loss)
        got = tab[tab.seed == 0].set_index("T")[f"sum_E_{dec}"]
        np.testing.assert_allclose(got.to_numpy(), E[[99, 199]], rtol=1e-12)
        np.testing.assert_allclose(tab[f"slack_{dec}"], tab["min_bound"] - tab[f"sum_E_{dec}"])
    with pytest.raises(ValueError, match="competitors"):
        fx.horizon_table(st, 3, [100], 1, competitors=("nope",))
    with pytest.raises(ValueError, match="competitors"):
        fx.horizon_table(st, 3, [100], 1, competitors="deterministic")


def test_lower_bound_competitors_on_the_same_instance():
    lb = fx.lower_bound_table([2, 3], [4], 40, 2, seed=15)
    # on a fresh input the scores are 0: randomized and Gaptron-style decoding play uniformly,
    # so both pay every algorithm's expected (M+1)(1 - 1/d); deterministic decoding plays a
    # fixed class, and its regret is a finite number of the same instance
    for col in ("regret", "regret_gaptron"):
        assert (lb[col] >= lb["exact_lb"] - 1e-9).all()
    assert np.isfinite(lb["regret_deterministic"]).all()
    again = fx.lower_bound_table([2, 3], [4], 40, 2, seed=15)
    np.testing.assert_array_equal(lb["regret_deterministic"], again["regret_deterministic"])


def test_lower_bound_block_of_remaining_rounds_pays_the_fresh_round():
    # App. H read as a sum over rounds M+1..T: the fresh round M+1 alone costs 1 - 1/d
    lb = fx.lower_bound_table([2, 5], [3, 6], 30, 2, seed=4)
    assert (lb["block_E"] >= (1 - 1 / lb["d"]) - 1e-12).all()
    # and it equals the whole regret minus the first M rounds' exact part
    np.testing.assert_allclose(
        lb["block_E"], lb["regret"] - lb["exact_lb"] + (1 - 1 / lb["d"]), rtol=1e-9
    )
