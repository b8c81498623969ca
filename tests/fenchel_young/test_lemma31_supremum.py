"""Lemma 3.1's constant probed by optimisation (lemma31_supremum), not by random draws."""

from __future__ import annotations

import numpy as np
import pytest

from mlgeom import fenchel_young as FY


def test_lemma31_supremum_attains_the_multilabel_constant():
    """theta = t 1, y = 0 makes every inequality of the lemma's proof an equality."""
    s = FY.Multilabel(20)
    r, theta, y = FY.lemma31_supremum(
        s, 0, starts=[(np.full(20, 0.1), np.zeros(20))], max_evals=50, seed=0
    )
    np.testing.assert_allclose(r, s.lemma31_constant, rtol=1e-12)
    assert y.shape == (20,) and theta.shape == (20,)


def test_lemma31_supremum_binary_matches_appendix_d():
    """Binary multiclass: the ratio depends on theta_2 - theta_1 only, so the supremum over
    theta is Appendix D's one-parameter supremum, normalised by lambda nu / gamma = 4."""
    s = FY.Multiclass(2)
    eps, sup_d = FY.appendix_d_supremum()
    th = np.array([1.0, 1.0 + np.log(2.0 ** (1.0 + eps) - 1.0)])
    r, theta, _ = FY.lemma31_supremum(
        s, 2, starts=[(th + 0.05, np.array([1.0, 0.0]))], max_evals=400, seed=1
    )
    np.testing.assert_allclose(r, sup_d / 4.0, rtol=1e-7)
    np.testing.assert_allclose(FY.lemma31_ratio(s, theta, [1.0, 0.0]), r, rtol=1e-12)


def test_lemma31_supremum_not_below_its_starts_and_deterministic():
    s = FY.Ordinal(6)
    starts = [(np.full(6, -0.3), np.zeros(6))]
    a = FY.lemma31_supremum(s, 2, starts=starts, screen=3, max_evals=100, seed=4)
    b = FY.lemma31_supremum(s, 2, starts=starts, screen=3, max_evals=100, seed=4)
    assert a[0] == b[0]
    assert a[0] >= FY.lemma31_ratio(s, *starts[0]) - 1e-15
    assert a[0] <= s.lemma31_constant * (1 + 1e-12)


def test_lemma31_supremum_rejects_bad_values():
    s = FY.Multiclass(3)
    with pytest.raises(ValueError, match="n_starts"):
        FY.lemma31_supremum(s, 0, seed=0)
    with pytest.raises(ValueError, match="box"):
        FY.lemma31_supremum(s, 1, box=0.0, seed=0)
    with pytest.raises(ValueError, match="starts"):
        FY.lemma31_supremum(s, 0, starts=[(np.zeros(2), np.eye(3)[0])], seed=0)
