"""Remark 4.5: Algorithm 2 and Theorem 4.2's bound when Psi is scaled (regularizer_scale)."""

import numpy as np
import pytest

from mlgeom.fenchel_young import comparator as cmp
from mlgeom.fenchel_young import losses as fy
from mlgeom.fenchel_young import regularizer_scale as rs
from mlgeom.fenchel_young import streams as ss
from mlgeom.fenchel_young import surrogate_regret as sr


def _setup(structure, T=60, seed=0):
    st = ss.planted_stream(structure, T, n_features=3, norm=3.0, pool=6, seed=seed)
    U = np.random.default_rng(seed + 10).standard_normal((structure.d, 3))
    return st, U


@pytest.mark.parametrize("cls", [fy.Multilabel, fy.Ordinal], ids=["multilabel", "ordinal"])
def test_rescaled_keeps_the_type_and_sets_lambda(cls):
    s = rs.rescaled(cls(5, 1.0), 3.0)
    assert type(s) is cls and s.d == 5 and s.strength == 3.0 and s.lam == 3.0


def test_rescaled_refuses_structures_without_a_strength():
    with pytest.raises(ValueError, match="Multilabel or Ordinal"):
        rs.rescaled(fy.Multiclass(3), 2.0)
    with pytest.raises(ValueError, match="strength"):
        rs.rescaled(fy.Multilabel(3), -1.0)


def test_rows_match_a_loop_over_run_online_by_hand():
    # d = 4: gamma = 1/2, nu = kappa = 1, a = 1 - 2/s; s = 4, 16 give a >= 1/2, so m = 1/2 and
    # c_4.2(s) = 2 gamma C^2 / (s^2 (1/2)(1/2)) = 4 C^2 / s^2.
    base = fy.Multilabel(4, 4.0)
    st, U = _setup(base)
    tab = rs.scale_table(base, [st], [U], [4.0, 16.0], seed=3)
    for _, row in tab.iterrows():
        s = fy.Multilabel(4, row["strength"])
        C = st.C
        assert row["coef"] == pytest.approx(4 * C**2 / row["strength"] ** 2, rel=1e-12)
        eta = row["strength"] / (2 * C**2)
        assert sr.eta_theorem_4_2(s, C) == pytest.approx(eta, rel=1e-12)
        rec = sr.run_online(s, st, eta=eta, seed=0)
        assert row["sum_E"] == pytest.approx(rec.expected_loss.sum(), rel=1e-9)
        total_S = sum(float(s.loss(U @ st.X[i], st.Y[i])) for i in st.order)
        assert row["sum_S_U"] == pytest.approx(total_S, rel=1e-9)
        assert row["rhs"] == pytest.approx(total_S + row["coef"] * np.sum(U * U), rel=1e-12)
        assert row["uniform"] == pytest.approx(st.T / 2, rel=1e-12)
        assert row["slack"] == pytest.approx(row["rhs"] - row["sum_E"], rel=1e-12)


@pytest.mark.parametrize("cls", [fy.Multilabel, fy.Ordinal], ids=["multilabel", "ordinal"])
def test_expected_and_realised_losses_do_not_move_with_the_strength(cls):
    base = cls(20, 2.0)
    st, U = _setup(base, T=80, seed=4)
    tab = rs.scale_table(base, [st], [U], [2.0, 8.0, 32.0], seed=5)
    np.testing.assert_allclose(tab["sum_E"], tab["sum_E"].iloc[0], rtol=1e-9)
    np.testing.assert_array_equal(tab["sum_L"], tab["sum_L"].iloc[0])
    # the 1/lambda^2 term (Remark 4.5) at the fixed U
    np.testing.assert_allclose(
        tab["bound_term"] * tab["strength"] ** 2, tab["bound_term"].iloc[0] * 4
    )


def test_comparator_loss_is_the_scaled_loss_at_the_scaled_input():
    # S_{s Omega}(s U x; y) = s S_Omega(U x; y): the identity the chapter's prose relies on
    base = fy.Multilabel(20, 1.0)
    st, U = _setup(base, T=40, seed=6)
    for s in (2.0, 8.0):
        lhs = cmp.stream_loss(rs.rescaled(base, s), s * U, st)
        assert lhs == pytest.approx(s * cmp.stream_loss(base, U, st), rel=1e-10)


def test_bad_inputs_name_the_value():
    base = fy.Multilabel(20, 2.0)
    st, U = _setup(base, T=10, seed=7)
    with pytest.raises(ValueError, match="equal length"):
        rs.scale_table(base, [st, st], [U], [2.0])
    with pytest.raises(ValueError, match="equal length"):
        rs.scale_table(base, [], [], [2.0])
    with pytest.raises(ValueError, match="strengths"):
        rs.scale_table(base, [st], [U], [2.0, -1.0])
    with pytest.raises(ValueError, match="strengths"):
        rs.scale_table(base, [st], [U], [[2.0]])
    with pytest.raises(ValueError, match="a = "):
        rs.scale_table(base, [st], [U], [0.5])
    with pytest.raises(ValueError, match="comparators"):
        rs.scale_table(base, [st], [U[:, :2]], [2.0])
    with pytest.raises(ValueError, match="Multilabel or Ordinal"):
        rs.scale_table(fy.Multiclass(3), [st], [U], [2.0])
