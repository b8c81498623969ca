"""Late slopes judged on one fit over all seeds (issue 29): references and special cases."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.multiscale import (
    bits_slope_interval,
    late_slope,
    late_slope_gap_interval,
    late_slope_interval,
)

TS = np.array([1000.0, 2154.0, 4641.0, 10000.0])


def _curves(seed, n=8, slope=0.3, noise=0.05):
    rng = np.random.default_rng(seed)
    level = rng.uniform(1, 40, (n, 1))
    return level * TS**slope * np.exp(noise * rng.standard_normal((n, TS.size)))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_balanced_fit_is_the_mean_of_the_per_seed_slopes(seed):
    """With every seed at every horizon, the within-seed slope is the mean per-seed slope."""
    c = _curves(seed)
    iv = late_slope_interval(TS, c)
    per_seed = [late_slope(TS, row) for row in c]
    assert iv.estimate == pytest.approx(np.mean(per_seed), rel=1e-9, abs=1e-12)
    assert iv.low < iv.estimate < iv.high and "clustered by seed" in iv.method


def test_exact_power_laws_give_their_slope_with_no_width():
    c = np.array([[1.0], [5.0], [9.0]]) * TS**0.25
    iv = late_slope_interval(TS, c)
    assert iv.estimate == pytest.approx(0.25) and iv.width == 0 and iv.method.startswith("exact")


def test_flat_seeds_weigh_for_slope_zero_as_the_per_seed_slopes_do():
    """A seed paying loss at fewer than two horizons has slope 0 (late_slope): the fit is still
    the mean of the per-seed slopes, and the method names the flat seeds."""
    c = _curves(1)
    c[2] = 0.0
    c[5, :3] = 0.0  # pays loss at the last horizon only
    iv = late_slope_interval(TS, c)
    per_seed = [late_slope(TS, row) for row in c]
    assert per_seed[2] == per_seed[5] == 0.0
    assert iv.estimate == pytest.approx(np.mean(per_seed), rel=1e-9)
    assert iv.n == 8 and iv.method.endswith(
        "2 of 8 seeds pay loss at fewer than two horizons (flat, slope 0)"
    )


def test_leading_zeros_drop_those_horizons_only():
    c = _curves(2)
    c[0, 0] = 0.0
    ref = [late_slope(TS, row) for row in c]  # per-seed slopes drop leading zeros too
    assert late_slope_interval(TS, c).estimate == pytest.approx(np.mean(ref), abs=0.05)


def test_no_loss_anywhere_is_flat_and_exact():
    iv = late_slope_interval(TS, np.zeros((5, TS.size)))
    assert (iv.estimate, iv.width, iv.n) == (0.0, 0.0, 5) and iv.method.startswith("exact")


def test_one_seed_growing_among_flat_ones_has_a_positive_width():
    c = np.zeros((10, TS.size))
    c[3] = [1.0, 1.0, 2.0, 2.0]
    iv = late_slope_interval(TS, c)
    assert iv.estimate == pytest.approx(late_slope(TS, c[3]) / 10) and iv.width > 0


def test_gap_against_a_flat_learner_is_minus_the_other_slope():
    c = _curves(8)
    gap = late_slope_gap_interval(TS, np.zeros_like(c), c)
    assert gap.estimate == pytest.approx(-late_slope_interval(TS, c).estimate, rel=1e-9)


def test_gap_of_balanced_curves_is_the_difference_of_the_fits():
    a, b = _curves(3, slope=0.6), _curves(4, slope=0.2)
    gap = late_slope_gap_interval(TS, a, b)
    diff = late_slope_interval(TS, a).estimate - late_slope_interval(TS, b).estimate
    assert gap.estimate == pytest.approx(diff, rel=1e-9)
    assert gap.low < 0.4 < gap.high and "slope difference" in gap.method


def test_gap_is_antisymmetric():
    a, b = _curves(5, slope=0.6), _curves(6, slope=0.2)
    g1, g2 = late_slope_gap_interval(TS, a, b), late_slope_gap_interval(TS, b, a)
    assert g1.estimate == pytest.approx(-g2.estimate) and g1.se == pytest.approx(g2.se)


def test_bits_slope_is_the_largest_per_k_mean_slope_ratio():
    rng = np.random.default_rng(7)
    bound = {2: 12.0, 3: 36.0}
    rows = []
    for seed in range(6):
        for k in bound:
            for bits in (3.3, 6.6, 10.0):
                mistakes = rng.uniform(0, 5) + (0.2 if k == 2 else 0.1) * bound[k] * bits
                rows.append({"seed": seed, "k": k, "bits": bits, "ours": mistakes + rng.normal()})
    t = pd.DataFrame(rows)
    iv, per_k = bits_slope_interval(t, "ours", bound)
    ref = {
        k: np.mean(
            [np.polyfit(g["bits"], g["ours"], 1)[0] / bound[k] for _, g in gk.groupby("seed")]
        )
        for k, gk in t.groupby("k")
    }
    assert per_k == pytest.approx(ref, rel=1e-9)
    assert iv.estimate == pytest.approx(max(ref.values())) and iv.low < iv.estimate < iv.high
    assert "Bonferroni" in iv.method


def test_determinism():
    c = _curves(9)
    assert late_slope_interval(TS, c) == late_slope_interval(TS, c.copy())


@pytest.mark.parametrize(
    "curves, message",
    [
        (np.ones((1, 4)), r"curves must have at least 2 row\(s\); got shape \(1, 4\)"),
        (np.ones((3, 3)), r"curves must have 4 column\(s\); got shape \(3, 3\)"),
        (-np.ones((3, 4)), r"curves must be >= 0 \(cumulative losses\); got -1.0"),
        (np.full((3, 4), np.nan), r"curves must be finite"),
    ],
)
def test_bad_curves_are_named(curves, message):
    with pytest.raises(ValueError, match=message):
        late_slope_interval(TS, curves)


def test_gap_needs_paired_curves():
    with pytest.raises(ValueError, match="paired"):
        late_slope_gap_interval(TS, _curves(1, n=4), _curves(2, n=5))


def test_bits_slope_names_a_missing_column_or_bound():
    t = pd.DataFrame({"seed": [0, 1], "k": [2, 2], "bits": [1.0, 2.0], "ours": [1.0, 2.0]})
    with pytest.raises(ValueError, match="column 'theirs'"):
        bits_slope_interval(t, "theirs", {2: 1.0})
    with pytest.raises(ValueError, match=r"missing \[2\]"):
        bits_slope_interval(t, "ours", {3: 1.0})
