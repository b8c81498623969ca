"""Worst cases of Lemma E.2 and Claim 28 (mlgeom.multiscale.worst_case)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlgeom import multiscale as L


def _remainder_loop(x: float, xp: float, p: float) -> float:
    """Claim 28's remainder term by term (the display, loop by loop)."""
    sgn = (xp > 0) - (xp < 0)
    total, coef = 0.0, 1.0
    for k in range(math.floor(p) + 1):
        if k:
            coef *= (p - k + 1) / k
        mag = abs(xp) ** (p - k) if xp != 0 else float(p == k)
        total += coef * (x - xp) ** k * sgn**k * mag
    return abs(x) ** p - total


def test_remainder_matches_loop_reference():
    rng = np.random.default_rng(0)
    x, xp = rng.uniform(-1, 1, 50), rng.uniform(-1, 1, 50)
    for p in (1.5, 2.5, 3.0, 3.7):
        ref = [_remainder_loop(float(a), float(b), p) for a, b in zip(x, xp, strict=True)]
        np.testing.assert_allclose(L.claim28_remainder(x, xp, p), ref, atol=1e-12)


def test_remainder_hand_cases():
    # |x|^3 expanded at x' = 0.5, evaluated at x = -0.5: 0.125 - (0.125 - 0.75 + 1.5 - 1)
    assert float(L.claim28_remainder(-0.5, 0.5, 3.0)) == pytest.approx(0.25)
    # an even integer p: |x|^p is a polynomial, so the expansion is exact
    assert np.abs(L.claim28_remainder([-0.7, 0.2], [0.4, -0.9], 4.0)).max() < 1e-14


def test_lemma_e2_error_is_the_sum_of_claim28_remainders():
    # proof of Lemma E.2: x = (y_j - z_j)/2, x' = y_j/2 - c_j δ_i, summed over coordinates
    rng = np.random.default_rng(1)
    i, p, d = 1, 2.5, 2
    dl = L.delta_i(i, d, p)
    z = rng.uniform(-0.4, 0.4, d)
    y = z + rng.uniform(-3 * dl, 3 * dl, d)
    c = np.floor(z / 2 / dl)
    err = abs(L.claim28_remainder((y - z) / 2, y / 2 - c * dl, p).sum())
    assert float(L.lemma_e2_error_exact(y, z, i, p)) == pytest.approx(err, rel=1e-6)


def test_lemma_e2_worst_case_exact_agrees_and_holds_above_2():
    r = L.lemma_e2_worst_case(2.5, scales=[1, 2], seed=0, n_starts=6, n_grid=21)
    assert 0 < r["ratio"] <= 1
    for v in r["exact"].values():
        assert v == pytest.approx(r["ratio"], rel=1e-6)
    assert np.linalg.norm(r["y"]) <= 1 and np.linalg.norm(r["z"]) <= 1


def test_holder_step_sharp_constants():
    # odd floor(p): the sup is 2^(1-a) at y = -x'; even floor(p): 1 (subadditivity of t^a)
    assert float(L.holder_step_ratio(-0.3, 0.3, 3.5)) == pytest.approx(2**0.5)
    odd = L.holder_step_worst_case(3.5, seed=0, n_starts=4, n_grid=21)
    assert odd["exact"] == pytest.approx(2**0.5, rel=1e-9)
    even = L.holder_step_worst_case(2.5, seed=0, n_starts=4, n_grid=21)
    assert even["exact"] <= 1.0
    assert L.holder_step_worst_case(3.0, seed=0, n_starts=2, n_grid=5)["exact"] == 2.0
    assert np.isnan(L.holder_step_ratio(0.2, 0.2, 2.5))


def test_claim28_worst_case_below_bound_for_p_above_2():
    r = L.claim28_worst_case(3.0, seed=0, n_starts=6, n_grid=21)
    assert r["exact"] == pytest.approx(2 / 27, rel=1e-3)  # x' -> 0-, remainder 2|x|^3


def test_seeded_search_is_deterministic():
    a = L.lemma_e2_worst_case(3.5, scales=[1], seed=3, n_starts=4, n_grid=11)
    b = L.lemma_e2_worst_case(3.5, scales=[1], seed=3, n_starts=4, n_grid=11)
    assert a["ratio"] == b["ratio"] and a["u"] == b["u"]


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: L.claim28_remainder("a", 0.1, 3.0), "x must be"),
        (lambda: L.claim28_remainder(0.1, np.nan, 3.0), "xp must be finite"),
        (lambda: L.holder_step_ratio(0.1, 0.2, 1.0), "p"),
        (lambda: L.lemma_e2_worst_case(2.5, scales=[]), "scales"),
        (lambda: L.lemma_e2_worst_case(2.5, scales=[0]), "scales"),
        (lambda: L.claim28_worst_case(2.5, n_grid=1), "n_grid"),
    ],
)
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_claim28_constant_bounds_the_search_and_is_sharp_at_integers():
    for p in (2.5, 3.0, 3.5, 5.0):
        found = L.claim28_worst_case(p, seed=0, n_starts=6, n_grid=21)["exact"]
        assert found <= L.claim28_constant(p) * (1 + 1e-9)
    assert L.claim28_constant(2.5) == pytest.approx(1 / 2.5**2.5)  # 2.5·1.5/(1.5·2.5)/p^p
    assert L.claim28_constant(5.0) == pytest.approx(2 / 5**5)


def test_claim28_search_is_not_fooled_by_cancellation():
    # x' within 1e-13 of x: the float remainder of |x|^5 (a polynomial there, remainder 0) is
    # rounding noise divided by (p|x - x'|)^p ~ 1e-61, and the paper profile's search (80 starts,
    # 201-point grid) once returned such a point with a ratio of 1e44 ("exact" 2.77 at 60 digits)
    x, xp = 0.7847338350590164, 0.7847338350588533
    assert L.worst_case._exact_remainder_ratio(x, xp, 5.0) == pytest.approx(0.0, abs=1e-30)
    assert L.worst_case._exact_remainder_ratio(1.0, 0.9999999999999999, 3.5) < 1e-9
    for p in (3.5, 5.0):
        found = L.claim28_worst_case(p, seed=0, n_starts=80, n_grid=201)
        assert found["exact"] <= L.claim28_constant(p) * (1 + 1e-9)
        assert found["ratio"] == pytest.approx(found["exact"], rel=1e-6)
