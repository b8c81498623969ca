"""Tests of the chapter's strawmen (midpoint learner, uniform guessing) and seeded sweeps."""

import math

import numpy as np
import pytest

from mlgeom.multiscale import experiments as ex
from mlgeom.multiscale import kernel_maps as km
from mlgeom.multiscale import sweeps
from mlgeom.multiscale.baselines import MidpointLearner, run_midpoint, uniform_guessing_loss
from mlgeom.random import spawn


@pytest.fixture(autouse=True)
def _sequential(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    monkeypatch.setenv("MLGEOM_PROGRESS", "0")


def test_midpoint_learner_keeps_the_truth_in_its_knowledge_set():
    w, Q = ex.boundary_stream(200, 3, seed=1)
    m = MidpointLearner(3)
    for q in Q:
        y = 1 if q @ w >= 0 else 2
        m.learn(q, y)
    # u = w/2 satisfies every cut A u <= 0
    assert np.all(m.A @ (w / 2) <= 1e-12)
    assert m.n_updates == len(m.A) > 0


def test_midpoint_learner_validates():
    m = MidpointLearner(2)
    with pytest.raises(ValueError, match="true_label must be 1 or 2; got 3"):
        m.learn([1.0, 0.0], 3)
    with pytest.raises(ValueError):
        MidpointLearner(0)


def test_run_midpoint_pays_only_on_mistakes():
    w, Q = sweeps.mixed_margin_stream(300, 4, seed=2)
    cum = run_midpoint(w, Q)
    inc = np.diff(cum, prepend=0.0)
    assert np.all(inc >= 0)
    paid = inc > 0
    assert np.allclose(inc[paid], np.abs(Q[paid] @ w))
    assert paid.sum() < len(Q) / 2  # it learns: far fewer mistakes than a coin


def test_uniform_guessing_is_half_the_margin():
    w, Q = ex.boundary_stream(50, 3, seed=3)
    assert np.allclose(uniform_guessing_loss(w, Q), np.cumsum(0.5 * np.abs(Q @ w)))
    assert np.allclose(
        uniform_guessing_loss(w, Q, alpha=0.5), np.cumsum(0.5 * np.abs(Q @ w) ** 0.5)
    )


def test_mixed_margin_stream():
    w, Q = sweeps.mixed_margin_stream(500, 3, seed=4, low=1e-3, high=0.4)
    m = np.abs(Q @ w)
    assert np.allclose(np.linalg.norm(Q, axis=1), 1.0)
    assert m.min() >= 1e-3 * (1 - 1e-9) and m.max() <= 0.4 * (1 + 1e-9)
    # interleaved: both small and large margins in the second half
    assert (m[250:] < 0.01).any() and (m[250:] > 0.1).any()
    w2, Q2 = sweeps.mixed_margin_stream(500, 3, seed=4, low=1e-3, high=0.4)
    assert np.array_equal(Q, Q2) and np.array_equal(w, w2)
    with pytest.raises(ValueError):
        sweeps.mixed_margin_stream(10, 3, low=0.5, high=0.1)


def test_late_slope():
    assert sweeps.late_slope([1, 10, 100], [2.0, 2.0, 2.0]) == 0.0
    assert sweeps.late_slope([1, 10, 100], [1.0, 10.0, 100.0]) == pytest.approx(1.0)
    assert sweeps.late_slope([1, 10, 100], [0.0, 1.0, 10.0]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="same length"):
        sweeps.late_slope([1, 2], [1.0])


def test_definition20_display_agrees_with_the_binomial_expansion():
    for p in (2, 4, 6, 8):
        for a in (-0.3, 0.01, 0.2):
            idx, val = km.definition20_displayed(a, p)
            assert np.allclose(km.F_even(a, p)[idx], val, rtol=1e-13, atol=1e-15)
    # the all-minus reading of the ellipsis is a different vector from p = 4 on
    assert not np.allclose(km.F_even(0.2, 4, printed=True), km.F_even(0.2, 4))


def test_binary_sweep_is_seeded_and_runs_four_learners():
    a = sweeps.binary_sweep("mixed", 60, 3, spawn(7, 2))
    b = sweeps.binary_sweep("mixed", 60, 3, spawn(7, 2))
    assert len(a) == 2 and set(a[0]) == {"ours", "perceptron", "midpoint", "uniform"}
    for ra, rb in zip(a, b, strict=True):
        for key in ra:
            assert np.array_equal(ra[key], rb[key]) and ra[key].shape == (60,)
    with pytest.raises(ValueError, match="stream must be"):
        sweeps.binary_sweep("other", 10, 3, spawn(0, 1))


def test_binary_sweep_with_the_printed_law_leaves_the_other_learners_unchanged():
    """The printed learner's generator is spawned after the other runs (issue 32)."""
    plain = sweeps.binary_sweep("mixed", 60, 3, spawn(7, 2))
    both = sweeps.binary_sweep("mixed", 60, 3, spawn(7, 2), printed=True)
    again = sweeps.binary_sweep("mixed", 60, 3, spawn(7, 2), printed=True)
    for p, b, c in zip(plain, both, again, strict=True):
        assert set(b) == set(p) | {sweeps.PRINTED}
        for key in p:
            assert np.array_equal(p[key], b[key])
        assert np.array_equal(b[sweeps.PRINTED], c[sweeps.PRINTED])
        assert b[sweeps.PRINTED].shape == (60,) and np.all(np.diff(b[sweeps.PRINTED]) >= 0)
    with pytest.raises(ValueError, match="printed must be True or False; got 'yes'"):
        sweeps.binary_sweep("mixed", 10, 3, spawn(0, 1), printed="yes")


def test_small_sweeps_return_one_row_per_run():
    dims = sweeps.dims_sweep([2, 3], 40, [spawn(s, 2) for s in spawn(1, 2)])
    assert len(dims) == 4 and set(dims.columns) >= {"d", "seed", "ours", "uniform"}
    mg = sweeps.margin_sweep([0.1], 40, 3, [spawn(2, 2)])
    assert len(mg) == 2 and (mg["ours"] <= 40).all() and (mg["perceptron"] <= 40).all()
    cv = sweeps.convex_sweep([12], 6, [spawn(3, 2)])
    assert len(cv) == 2 and (cv["total_loss"] >= 0).all()
    mu = sweeps.multi_sweep(
        [("inner", 2, 2), ("l2", 2, 2)], 20, 2, [spawn(s, 2) for s in spawn(4, 2)]
    )
    assert len(mu) == 4 and set(mu["similarity"]) == {"inner", "l2"}


def test_multiscale_uniform_guessing_is_half_the_other_label_loss():
    r = ex.run_multiscale(4, 2, 3.0, 0.3, seed=5)
    assert r["uniform"].shape == (4,) and np.all(np.diff(r["uniform"]) >= 0)
    assert math.isfinite(r["uniform"][-1]) and r["uniform"][-1] > 0
