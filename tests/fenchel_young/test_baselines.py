"""The strawmen and the one-factor-at-a-time design of the chapter's claims (uniform guessing,
the 2×2 of decoding × step size, per-seed slopes, the parameter-free fractions)."""

import numpy as np
import pytest

from mlgeom.fenchel_young import experiments as fx
from mlgeom.fenchel_young import logistic_ogd as lo
from mlgeom.fenchel_young import losses as fy
from mlgeom.fenchel_young import streams as ss
from mlgeom.fenchel_young import surrogate_regret as sr


@pytest.mark.parametrize(
    "structure",
    [fy.Multiclass(4), fy.Multilabel(5), fy.Ranking(3, mu=1.0), fy.Ordinal(4)],
    ids=["multiclass", "multilabel", "ranking", "ordinal"],
)
def test_uniform_mean_is_the_mean_of_the_enumerated_outputs(structure):
    np.testing.assert_allclose(fx.uniform_mean_output(structure), structure.outputs().mean(0))


def test_uniform_expected_losses_have_the_closed_forms():
    st = ss.prototype_stream(5, 50, n_prototypes=3, seed=1)
    np.testing.assert_allclose(fx.uniform_expected_losses(fy.Multiclass(5), st), 0.8)
    ml = fy.Multilabel(6)
    pl = ss.planted_stream(ml, 40, n_features=4, norm=3.0, seed=2)
    np.testing.assert_allclose(fx.uniform_expected_losses(ml, pl), 0.5)


@pytest.mark.parametrize(
    "structure", [fy.Multilabel(6), fy.Ordinal(5)], ids=["multilabel", "ordinal"]
)
def test_uniform_realised_losses_average_to_the_expected_loss(structure):
    st = ss.planted_stream(structure, 300, n_features=4, norm=3.0, seed=3)
    real = fx.uniform_realised_losses(structure, st, 40, seed=4)
    expected = fx.uniform_expected_losses(structure, st).sum()
    assert real.shape == (40,)
    assert abs(real.mean() - expected) < 0.05 * expected


def test_step_sizes_and_their_names():
    assert fx.step_size("theorem_5_1", 7) == sr.eta_theorem_5_1(1.0)
    assert fx.step_size("gaptron", 7, 2.0) == sr.eta_gaptron(7, 2.0)
    assert fx.own_step("gaptron") == "gaptron"
    assert fx.own_step("randomized") == fx.own_step("deterministic") == "theorem_5_1"
    with pytest.raises(ValueError, match="'fast'"):
        fx.step_size("fast", 3)


def test_multiclass_runs_changes_only_the_step_when_asked():
    d = 4
    streams = [ss.prototype_stream(d, 300, n_prototypes=5, seed=s) for s in (1, 2)]
    rec = fx.multiclass_runs(streams, d, "gaptron", seed=9, step="theorem_5_1")
    orders = np.stack([s.order for s in streams])
    unif = np.stack([g.random((300, 2)) for g in fx.spawn(9, 2)])
    ref = lo.logistic_ogd_batch(
        streams[0].X,
        streams[0].labels,
        orders,
        unif,
        d=d,
        eta=sr.eta_theorem_5_1(1.0),
        decoding="gaptron",
    )
    np.testing.assert_array_equal(rec.expected_loss, ref.expected_loss)
    own = fx.multiclass_runs(streams, d, "gaptron", seed=9)
    assert not np.array_equal(own.expected_loss, rec.expected_loss)


def test_worst_case_table_two_by_two_and_uniform_guesser():
    tab = fx.worst_case_table(
        [2, 4],
        400,
        4,
        2,
        decodings=("randomized", "gaptron"),
        steps=fx.STEPS,
        uniform=True,
        seed=3,
    )
    arms = set(zip(tab["decoding"], tab["step"], strict=True))
    assert arms == {
        ("randomized", "theorem_5_1"),
        ("randomized", "gaptron"),
        ("gaptron", "theorem_5_1"),
        ("gaptron", "gaptron"),
        ("uniform", "none"),
    }
    assert len(tab) == 2 * 2 * 5
    unif = tab[tab.decoding == "uniform"]["c_star"].min()
    ours = tab[(tab.decoding == "randomized") & (tab.step == "theorem_5_1")]["c_star"].max()
    assert unif > ours
    assert unif > sr.bound_theorem_5_1(1.0, 1.0)


def test_slope_per_seed_recovers_a_power_law():
    d = np.array([2, 4, 8, 16] * 2)
    seed = np.repeat([0, 1], 4)
    import pandas as pd

    tab = pd.DataFrame({"d": d, "seed": seed, "c": np.where(seed == 0, 3 * d, 0.5 * d**0.5)})
    np.testing.assert_allclose(fx.slope_per_seed(tab, "d", "c"), [1.0, 0.5])


def test_second_half_fractions():
    fr = fx.second_half_fractions(3, 200, 3, 2, learner="ogd", seed=1)
    assert fr.shape == (2,) and np.all((fr >= 0) & (fr <= 1))
    with pytest.raises(ValueError, match="'sgd'"):
        fx.second_half_fractions(3, 200, 3, 2, learner="sgd")


@pytest.mark.parametrize("structure", [fy.Multilabel(20), fy.Ordinal(20)], ids=["ml", "ord"])
def test_lemma31_line_attains_the_constant_on_the_0_1_polytopes(structure):
    r = fx.lemma31_line(structure, np.geomspace(1e-2, 3.0, 40))
    np.testing.assert_allclose(r.max(), structure.lemma31_constant, rtol=1e-10)
    assert np.all(r <= structure.lemma31_constant * (1 + 1e-12))


def test_lemma31_line_multiclass_stays_below_and_other_structures_refuse():
    s = fy.Multiclass(2)
    r = fx.lemma31_line(s, -np.geomspace(1e-3, 1.0, 30))
    assert r.max() < s.lemma31_constant
    # Appendix D's family: its supremum exceeds the eps -> 0 limit 2/ln 2 (normalised units)
    assert r.max() * s.lam * s.nu / s.gamma > 2 / np.log(2)
    with pytest.raises(ValueError, match="Ranking"):
        fx.lemma31_line(fy.Ranking(3, mu=1.0), [1.0])


def test_appendix_d_supremum_exceeds_the_printed_limit():
    eps, ratio = fx.appendix_d_supremum()
    assert 0 < eps < 1
    assert ratio > 2 / np.log(2)
    np.testing.assert_allclose(ratio, fx.appendix_d_ratio_closed_form(eps), rtol=1e-12)
    with pytest.raises(ValueError, match="-1"):
        fx.appendix_d_supremum(-1.0)
