"""Tests for mlgeom.metric_nn.bounds: Theorems 1, 4, 5, Lemmas 2-3 and Figure 3's values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.metric_nn import bounds as mb


def test_figure3_hand_values():
    # D = 5, k = 10, delta = 0.01, c_D = 1 (Figure 3). At L = 1 the log log2(2L) term is 0.
    m = 1e6
    rad = (math.log(50) / m) ** (1 / 6) + math.sqrt(math.log(200) / (2 * m))
    assert mb.delta_rad(m, 1, 0.01, 10, 5) == pytest.approx(rad, rel=1e-12)
    # L = 4: log log2(8) = log 3
    rad4 = (
        4 * (math.log(50) / m) ** (1 / 6)
        + math.sqrt(math.log(3) / m)
        + math.sqrt(math.log(200) / (2 * m))
    )
    assert mb.delta_rad(m, 4, 0.01, 10, 5) == pytest.approx(rad4, rel=1e-12)
    m = 1e15
    fat = math.sqrt(2 / m * (2 * 32**5 * math.log(200) + math.log(2 * 2 / 0.01))) + 1 / m
    assert mb.delta_fat(m, 2, 0.01, 10, 5) == pytest.approx(fat, rel=1e-12)
    assert mb.delta_combined(m, 2, 0.01, 10, 5) == pytest.approx(
        min(fat, float(mb.delta_rad(m, 2, 0.01, 10, 5))), rel=1e-12
    )


def test_fat_factor_one_and_c_D_scale():
    base = mb.delta_fat(1e12, 1, 0.01, 10, 5, fat_factor=1.0)
    ref = math.sqrt(2e-12 * (16**5 * math.log(200) + math.log(200))) + 1e-12
    assert base == pytest.approx(ref, rel=1e-12)
    # c_D multiplies the first term only
    d1 = mb.delta_rad(1e6, 2, 0.05, 3, 2, c_D=1.0)
    d2 = mb.delta_rad(1e6, 2, 0.05, 3, 2, c_D=2.0)
    assert d2 - d1 == pytest.approx(2 * (math.log(15) / 1e6) ** (1 / 3), rel=1e-12)


@settings(max_examples=50, deadline=None)
@given(
    st.floats(10, 1e12),
    st.floats(1.0, 50.0),
    st.floats(0.001, 0.5),
    st.integers(2, 1000),
    st.floats(0.5, 10.0),
)
def test_bounds_increase_in_L_and_k_and_decrease_in_n(n, L, delta, k, D):
    for f in (mb.delta_rad, mb.delta_fat, mb.delta_combined):
        assert f(n, L * 1.5, delta, k, D) >= f(n, L, delta, k, D)
        assert f(n, L, delta, k + 1, D) >= f(n, L, delta, k, D)
        assert f(n * 2, L, delta, k, D) <= f(n, L, delta, k, D)


def test_crossover_in_figure3_range_and_increasing_in_L():
    xs = [mb.crossover(L, 0.01, 10, 5) for L in (1, 2, 4, 8)]
    assert all(1e6 < x < 1e15 for x in xs)
    assert np.all(np.diff(xs) > 0)
    x = xs[0]
    assert mb.delta_fat(x * 1.01, 1, 0.01, 10, 5) < mb.delta_rad(x * 1.01, 1, 0.01, 10, 5)
    assert mb.delta_fat(x / 1.01, 1, 0.01, 10, 5) > mb.delta_rad(x / 1.01, 1, 0.01, 10, 5)


@settings(max_examples=50, deadline=None)
@given(st.floats(0.01, 1.0), st.floats(0.5, 20.0), st.integers(2, 10_000), st.floats(0.5, 4.0))
def test_lemma3_is_tighter_than_lemma2(eps, L, k, D):
    l2 = mb.log_covering_lemma2(eps, L, k, D)
    l3 = mb.log_covering_lemma3(eps, L, k, D)
    assert l3 <= l2 * (1 + 1e-12)


def test_lemma2_hand_value():
    # (16 * 1 / 0.5)^1 * log(5 * 2 / 0.5) = 32 log 20
    assert mb.log_covering_lemma2(0.5, 1, 2, 1) == pytest.approx(32 * math.log(20))
    # Lemma 3: log(ceil(16) + 1) + 31 log 5
    assert mb.log_covering_lemma3(0.5, 1, 2, 1) == pytest.approx(math.log(17) + 31 * math.log(5))


def test_theorem1_hand_value():
    assert mb.theorem1_bound(10_000, 0.1, 2.0, 1) == pytest.approx(0.2 + 8 / 100)
    assert mb.theorem1_bound(8, 0.0, 1.0, 2) == pytest.approx(4 / 2)


@pytest.mark.parametrize("delta", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_delta_outside_the_unit_interval_is_rejected(delta):
    with pytest.raises(ValueError, match="delta must be"):
        mb.delta_rad(100, 1, delta, 2, 1)
    with pytest.raises(ValueError, match="delta must be"):
        mb.delta_fat(100, 1, delta, 2, 1)


def test_other_bad_inputs():
    with pytest.raises(ValueError, match="k \\(number of classes\\) must be an integer >= 2"):
        mb.delta_rad(100, 1, 0.1, 1, 1)
    with pytest.raises(ValueError, match="n must be finite and > 0"):
        mb.delta_rad(0, 1, 0.1, 2, 1)
    with pytest.raises(ValueError, match="L must be finite and >= 0"):
        mb.delta_fat(10, np.nan, 0.1, 2, 1)
    with pytest.raises(ValueError, match="L must be finite and >= 0.*got -1"):
        mb.delta_rad(10, -1.0, 0.1, 2, 1)
    with pytest.raises(ValueError, match="bound must be one of"):
        mb.complexity("max", 10, 1, 0.1, 2, 1)
    with pytest.raises(ValueError, match="bayes_risk"):
        mb.theorem1_bound(10, 1.5, 1, 1)


def test_table1_rates_by_hand():
    from mlgeom.metric_nn.bounds import table1_rates

    # n = 100, k = 4, gamma = 1/2, D = 2
    r = table1_rates(100, 4, 0.5, 2.0)
    assert r["Crammer & Singer (2002b)"] == pytest.approx(16 / (0.25 * 100))
    assert r["Mohri et al. (2012)"] == pytest.approx(16 / (0.5 * 10))
    assert r["Cortes et al. (2013)"] == pytest.approx(4 / (0.5 * 10))
    assert r["Guermeur (2010), Hilbert"] == pytest.approx(4 / (0.25 * 10))
    assert r["Zhang (2004)"] == pytest.approx(2 * 0.2)
    assert r["this paper, Theorem 5"] == pytest.approx(2.0 * np.sqrt(np.log(4) / 100))
    assert r["this paper, Theorem 4"] == pytest.approx(2.0 * (np.log(4) / 100) ** (1 / 3))
    assert r["this paper"] == min(r["this paper, Theorem 5"], r["this paper, Theorem 4"])


def test_table1_rates_k_exponents_and_bad_inputs():
    from mlgeom.metric_nn.bounds import table1_rates

    a, b = table1_rates(1e6, 10, 0.5, 2.0), table1_rates(1e6, 1000, 0.5, 2.0)
    # growth over a 100-fold k: k^2, k, sqrt k, and this paper's (log k)^{1/2} or ^{1/(D+1)}
    assert b["Crammer & Singer (2002b)"] / a["Crammer & Singer (2002b)"] == pytest.approx(1e4)
    assert b["Cortes et al. (2013)"] / a["Cortes et al. (2013)"] == pytest.approx(100)
    assert b["Zhang (2004)"] / a["Zhang (2004)"] == pytest.approx(10)
    assert b["this paper, Theorem 5"] / a["this paper, Theorem 5"] == pytest.approx(np.sqrt(3))
    for kw, name in [({"k": 1}, "k"), ({"gamma": 0.0}, "gamma"), ({"D": -1.0}, "D")]:
        with pytest.raises(ValueError, match=name):
            table1_rates(**{"n": 10.0, "k": 3, "gamma": 0.5, "D": 1.0, **kw})
