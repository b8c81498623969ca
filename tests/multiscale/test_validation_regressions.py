"""Regression tests of issue 16 for :mod:`mlgeom.multiscale` (one clear error per case)."""

import math

import numpy as np
import pytest

from mlgeom.multiscale.contextual_search import (
    BallKnowledgeSet,
    ContextualSearch,
    disk_polygon_area,
    initial_potential,
    steiner_area,
    uniform_ball,
)
from mlgeom.multiscale.learner import scale_loss_bound
from mlgeom.multiscale.losses import nn_loss


def _segment(d: float, r: float = 1.0) -> tuple[float, float]:
    """Area and perimeter of ``rB_2 ∩ {x >= d}`` (``|d| < r``), in closed form."""
    h = math.sqrt(r * r - d * d)
    theta = 2 * math.acos(d / r)  # angle of the arc
    return 0.5 * r * r * (theta - math.sin(theta)), r * theta + 2 * h


@pytest.mark.parametrize("d", [0.5, -0.5, 0.9, 0.0])
@pytest.mark.parametrize("r", [1.0, 2.5])
def test_disk_polygon_area_of_a_segment_is_the_closed_form(d, r):
    area, perim = disk_polygon_area(np.array([[-1.0, 0.0]]), np.array([-d * r]), radius=r)
    a0, p0 = _segment(d * r, r)
    assert area == pytest.approx(a0, rel=1e-12)
    assert perim == pytest.approx(p0, rel=1e-12)  # was 4.941 for d = 0.5, r = 1 (exact 3.826)
    z = 0.01
    assert steiner_area(np.array([[-1.0, 0.0]]), np.array([-d * r]), z, r) == pytest.approx(
        a0 + z * p0 + math.pi * z * z, rel=1e-12
    )


def test_disk_polygon_area_of_a_strip_and_a_far_corner():
    # the strip 0.2 <= x <= 0.6: difference of two segments; a lens not containing the origin
    A, b = np.array([[-1.0, 0.0], [1.0, 0.0]]), np.array([-0.2, 0.6])
    (a1, p1), (a2, p2) = _segment(0.2), _segment(0.6)
    area, perim = disk_polygon_area(A, b)
    assert area == pytest.approx(a1 - a2, rel=1e-12)
    arcs = (p1 - 2 * math.sqrt(1 - 0.04)) - (p2 - 2 * math.sqrt(1 - 0.36))
    assert perim == pytest.approx(arcs + 2 * math.sqrt(1 - 0.04) + 2 * math.sqrt(1 - 0.36))
    # the whole disk and the empty set
    assert disk_polygon_area(np.zeros((0, 2)), np.zeros(0)) == pytest.approx((math.pi, 2 * math.pi))
    assert disk_polygon_area(np.array([[1.0, 0.0]]), np.array([-2.0])) == (0.0, 0.0)


def test_disk_polygon_area_against_a_fine_polygon():
    # a 20000-gon inscribed in the disk, clipped by the same half-planes (shoelace formula)
    rng = np.random.default_rng(3)
    t = np.linspace(0, 2 * np.pi, 20000, endpoint=False)
    circle = np.c_[np.cos(t), np.sin(t)]
    from mlgeom.multiscale.contextual_search import _clip_polygon

    for _ in range(20):
        A = rng.standard_normal((3, 2))
        b = rng.uniform(-0.3, 0.8, 3)
        poly = circle
        for a, bb in zip(A, b, strict=True):
            poly = _clip_polygon(poly, a, bb)
        area, perim = disk_polygon_area(A, b)
        if len(poly) < 3:
            assert area == pytest.approx(0.0, abs=1e-6)
            continue
        x, y = poly[:, 0], poly[:, 1]
        a_ref = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
        p_ref = np.linalg.norm(np.roll(poly, -1, axis=0) - poly, axis=1).sum()
        assert area == pytest.approx(a_ref, abs=1e-6)
        assert perim == pytest.approx(p_ref, abs=1e-6)


def test_disk_polygon_area_rejects_a_negative_radius():
    with pytest.raises(ValueError, match=r"radius .*got -1"):
        disk_polygon_area(np.zeros((0, 2)), np.zeros(0), radius=-1)


def test_initial_potential_and_uniform_ball_refuse_impossible_sizes():
    with pytest.raises(ValueError, match="n_terms .*got 0"):
        initial_potential(2, n_terms=0)
    with pytest.raises(ValueError, match="d must be an integer >= 1; got 0"):
        uniform_ball(3, 0)
    with pytest.raises(ValueError, match="radius .*got -1"):
        uniform_ball(3, 2, radius=-1)


def test_guess_and_update_validate_width_and_b():
    cs = ContextualSearch(2, n_particles=8, seed=0)
    with pytest.raises(ValueError, match=r"width .*got -1"):
        cs.guess([1.0, 0.0], width=-1)
    with pytest.raises(ValueError, match=r"width .*got nan"):
        cs.guess([1.0, 0.0], width=float("nan"))
    with pytest.raises(ValueError, match=r"b must be .*got nan"):
        cs.update([1.0, 0.0], b=float("nan"))
    assert cs.guess([1.0, 0.0], width=0.0)[2] == 10**6  # a point: every scale qualifies


def test_a_cut_that_empties_K_is_a_clear_error_and_leaves_K_unchanged():
    K = BallKnowledgeSet(2, n_particles=8, seed=0)
    with pytest.raises(ValueError, match="empties the knowledge set"):
        K.cut([1.0, 0.0], -2.0)
    assert K.A.shape == (0, 2)
    K.cut([1.0, 0.0], 0.0)  # still usable
    assert K.width(np.array([1.0, 0.0])) > 0


def test_scale_loss_bound_refuses_Delta_zero():
    with pytest.raises(ValueError, match=r"Delta .*got 0"):
        scale_loss_bound(2, 0.1, 2, 2.0, 0.0)
    assert scale_loss_bound(1, None, 2, 2.0, 0.5) == 2.0


def test_nn_loss_refuses_a_non_integer_label():
    X = np.eye(2)
    with pytest.raises(ValueError, match=r"label must be an integer .*got 1.5"):
        nn_loss(np.ones(2), X, 1.5)
    with pytest.raises(ValueError, match=r"label .*got 2"):
        nn_loss(np.ones(2), X, 2)
