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


# ---------------------------------------------------------------- issue 16, declared domains
def test_even_p_maps_refuse_a_string_p_and_a_string_argument():
    from mlgeom.multiscale.kernel_maps import F_even, Ker, definition20_displayed

    with pytest.raises(ValueError, match="p must be an even integer >= 2; got '2'"):
        Ker(0.5, "2")  # was accepted: float("2").is_integer()
    with pytest.raises(ValueError, match=r"x must be .*got '1.0'"):
        Ker("1.0", 4)  # was float("1.0")
    with pytest.raises(ValueError, match=r"a must be .*got nan"):
        F_even(float("nan"), 4)
    with pytest.raises(ValueError, match=r"a must be .*got inf"):
        definition20_displayed(float("inf"), 4)
    assert np.allclose(Ker(0.5, 4.0), 0.5 ** np.arange(5))  # an integral float p still works


def test_multiscale_maps_refuse_non_finite_arguments():
    from mlgeom.multiscale.kernel_maps import D_map, H_i, Ker_i, lemma_e2_error_exact, sparse_dot

    with pytest.raises(ValueError, match="x must be finite; got nan"):
        D_map([0.5, float("nan")], 3.0)  # was a silent NaN row
    with pytest.raises(ValueError, match=r"x must be .*got nan"):
        Ker_i(float("nan"), 1, 2, 3.0)
    assert D_map(0.5, 3.0).shape == (4,)
    with pytest.raises(ValueError, match="digits must be an integer >= 1; got '2'"):
        lemma_e2_error_exact([0.1, 0.2], [0.0, 0.1], 1, 3.0, digits="2")
    with pytest.raises(ValueError, match="z must have the length of y"):
        lemma_e2_error_exact([0.1, 0.2], [0.0, 0.1, 0.0], 1, 3.0)
    h = H_i([0.1, 0.2], 1, 3.0)
    with pytest.raises(ValueError, match="h must have length"):
        sparse_dot([0.1, 0.2], h, 2, 3.0)  # H_i at scale 1 dotted at scale 2
    with pytest.raises(TypeError, match="h must be a SparseVector"):
        sparse_dot([0.1, 0.2], h.to_dense(), 1, 3.0)


def test_partition_learners_validate_queries_and_labels():
    from mlgeom.multiscale.baselines import MidpointLearner
    from mlgeom.multiscale.partition_learners import (
        HyperplaneLearner,
        MulticlassLearner,
        cone_extent,
    )

    with pytest.raises(ValueError, match="q must be finite; got nan"):
        cone_extent(np.zeros((0, 2)), [float("nan"), 0.0])  # was (nan, nan)
    with pytest.raises(ValueError, match="A must have 2 column"):
        cone_extent(np.ones((1, 3)), [1.0, 0.0])
    assert cone_extent([[1.0, 0.0]], [0.0, 1.0]) == pytest.approx((-1.0, 1.0))  # lists accepted
    h = HyperplaneLearner(2, seed=0, n_particles=8)
    with pytest.raises(ValueError, match="predicted must be 1 or 2; got nan"):
        h.decrease_if([0.6, 0.8], 1, float("nan"))  # was a silent potential decrease
    with pytest.raises(ValueError, match="predicted must be 1 or 2; got 3"):
        h.learn([0.6, 0.8], 1, 3)
    with pytest.raises(ValueError, match="q must have length 2"):
        h.extent([1.0, 0.0, 0.0])
    assert h.decrease_if([0.6, 0.8], 1, 2) > 0  # a list query works
    with pytest.raises(ValueError, match="predicted must be 1 or 2"):
        MidpointLearner(2).learn([1.0, 0.0], 1, predicted=0)
    mc = MulticlassLearner(3, 2, seed=0, n_particles=8)
    with pytest.raises(ValueError, match=r"true_label must be in \[0, 3\); got 1.5"):
        mc.step([0.6, 0.8], 1.5)  # was accepted
    with pytest.raises(ValueError, match=r"true_label must be in \[0, 3\); got '2'"):
        mc.step([0.6, 0.8], "2")  # was a TypeError from the comparison
    with pytest.raises(ValueError, match="f must be finite"):
        mc.round_matrices([float("inf"), 0.0])


def test_algorithm2_learners_validate_their_inputs():
    from mlgeom.multiscale.learner import (
        MultiscaleLearner,
        MultiscaleMulticlassLearner,
        ScaleSet,
    )

    with pytest.raises(ValueError, match="n_particles must be an integer >= 1; got 0"):
        ScaleSet(0, 1, np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        ScaleSet(4, 1, 0)
    S = ScaleSet(4, 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="vals must be finite; got nan"):
        S.width([0, 3], [1.0, float("nan")])  # was a silent nan width
    with pytest.raises(ValueError, match="idx must hold integer indices"):
        S.cut([0.5, 3.0], [1.0, 1.0], 0.5)
    with pytest.raises(ValueError, match="idx must be indices"):
        S.side_counts([-1, 3], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"b must be .*got inf"):
        S.cut([0, 3], [1.0, 1.0], float("inf"))
    assert S.width([0, 3], [1.0, -1.0]) == 4.0  # lists accepted
    L = MultiscaleLearner(2, 3.0, n_scales=2, n_particles=4, n_steps=1, seed=0)
    with pytest.raises(ValueError, match=r"i must be a scale in \[1, 2\]; got 3"):
        L.direction([0.3, 0.2], 3)  # was a KeyError
    with pytest.raises(ValueError, match="x1 must be finite; got nan"):
        L.centre_slack([float("nan"), 0.0], [0.0, 0.0])  # was inf on a fresh learner
    with pytest.raises(ValueError, match="true_label must be 1 or 2; got 1.5"):
        L.step([0.3, 0.2], 1.5)
    M = MultiscaleMulticlassLearner(3, 2, 3.0, 0.3, n_scales=2, n_particles=4, seed=0)
    with pytest.raises(ValueError, match=r"true_label must be in \[0, 3\); got '1'"):
        M.step([0.3, 0.2], "1")


def test_ball_knowledge_set_validates_points_and_steps():
    K = BallKnowledgeSet(2, n_particles=4, seed=0)
    with pytest.raises(ValueError, match="X must be finite; got nan"):
        K.contains([[float("nan"), 0.0]])  # was False, silently
    with pytest.raises(ValueError, match="X must have 2 column"):
        K.contains([[0.0, 0.0, 0.0]])
    assert K.contains([0.1, 0.2]).tolist() == [True]  # one point as a 1-D array
    with pytest.raises(ValueError, match="n_steps must be an integer >= 0; got 1.5"):
        K.hit_and_run(1.5)


def test_streams_and_runs_validate_before_any_work():
    from mlgeom.multiscale import experiments as ex

    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="d must be an integer >= 1; got 0"):
        ex.unit(rng, 0)  # was an empty "unit" vector
    with pytest.raises(ValueError, match=r"scale must be in \[0.0, 1.0\]; got 2.0"):
        ex.boundary_stream(3, 2, seed=0, scale=2.0)  # was NaN queries
    with pytest.raises(ValueError, match=r"beta must be .*got nan"):
        ex.boundary_stream(3, 2, seed=0, beta=float("nan"))
    with pytest.raises(ValueError, match="T must be an integer >= 1; got '3'"):
        ex.margin_stream("3", 2, 0.2, seed=0)
    with pytest.raises(ValueError, match="k must be an integer >= 2; got 1"):
        ex.nn_stream(3, 1, 2, seed=0)
    with pytest.raises(ValueError, match="n_candidates must be an integer >= 1; got 0"):
        ex.appendix_f_stream(4, 3, seed=0, n_candidates=0)
    Q = np.array([[0.6, 0.8], [-0.6, 0.8]])
    with pytest.raises(ValueError, match="w must have length 2"):
        ex.run_binary([1.0, 0.0, 0.0], Q, seed=0)
    X = np.array([[0.5, 0.0], [-0.5, 0.0]])
    with pytest.raises(ValueError, match="kind must be one of"):
        ex.run_multiclass(X, Q, kind="l3", seed=0)  # was run as even_p
    with pytest.raises(ValueError, match=r"p must be .*got nan"):
        ex.run_multiclass(X, Q, kind="inner", p=float("nan"), seed=0)  # p was unused
    with pytest.raises(ValueError, match="p must be an even integer"):
        ex.run_multiclass(X, Q, kind="even_p", p=4.5, seed=0)  # was int(4.5) = 4
    with pytest.raises(ValueError, match=r"Delta must be in \(0.0, 2.0\]; got 3.0"):
        ex.run_multiscale(2, 2, 3.0, 3.0, seed=0)  # was 10000 tries, then RuntimeError
    with pytest.raises(ValueError, match=r"Delta must be .*got '0.3'"):
        ex.run_multiscale_multiclass(2, 3, 2, 3.0, "0.3", seed=0)
    with pytest.raises(ValueError, match="n_polys must be an integer >= 1; got 0"):
        ex.sampler_check(0, 10, seed=0)  # was a KeyError on an empty frame
    with pytest.raises(ValueError, match="ds must hold integers >= 2"):
        ex.time_rounds([1], 2, seed=0)
    with pytest.raises(ValueError, match="width_method must be one of"):
        ex.time_rounds([2], 2, seed=0, width_method="qp")


def test_sweeps_validate_before_starting_workers():
    from mlgeom.multiscale import sweeps as sw

    g = [np.random.default_rng(0)]
    with pytest.raises(ValueError, match="T must be an integer >= 1; got 1.5"):
        sw.binary_sweep("boundary", 1.5, 2, g)
    with pytest.raises(ValueError, match="ds must be finite; got nan"):
        sw.dims_sweep([2, float("nan")], 3, [g, g])
    with pytest.raises(ValueError, match="seeds_by_d must hold one entry per d"):
        sw.dims_sweep([2, 4], 3, [g])
    with pytest.raises(ValueError, match=r"gammas must lie in \(0.0, 1.0\]"):
        sw.margin_sweep([0.0], 3, 2, [g])
    with pytest.raises(ValueError, match="T must be an integer >= 2; got 1"):
        sw.multi_sweep([("inner", 2, 2)], 1, 2, [g])  # T // 2 - 1 was index -1
    with pytest.raises(ValueError, match=r"configs\[0\] kind must be one of"):
        sw.multi_sweep([("l3", 2, 2)], 4, 2, [g])
    with pytest.raises(ValueError, match="Ts must hold integers >= 3"):
        sw.convex_sweep([2], 3, [g])
    with pytest.raises(ValueError, match="T_thm13 must be an integer >= 1; got nan"):
        sw.multiscale_runs(1, float("nan"), g * 3)
    with pytest.raises(ValueError, match=r"low must be in \(0.0, 1.0\]; got 2.0"):
        sw.mixed_margin_stream(3, 2, seed=0, low=2.0)  # the error named high
    with pytest.raises(ValueError, match="curve must be finite; got nan"):
        sw.late_slope([10, 100], [1.0, float("nan")])
    with pytest.raises(ValueError, match="Ts must lie in"):
        sw.late_slope([0, 100], [1.0, 2.0])


# ---------------------------------------------------------------- issue 34: SparseVector
@pytest.mark.parametrize(
    "indices, values, dim, match",
    [
        ([1, 1], [1.0, 2.0], 3, r"indices must be strictly increasing .* got 1 then 1"),
        ([2, 1], [1.0, 2.0], 3, r"indices must be strictly increasing .* got 2 then 1"),
        ([1, 3], [1.0, 2.0], 3, r"indices must be indices in \[0, 2\]; got 3"),
        ([-1], [1.0], 3, r"indices must be indices in \[0, 2\]; got -1"),
        ([1], [1.0, 2.0], 3, r"indices and values must have the same length; got 1 .* 2 values"),
        ([1.5], [1.0], 3, r"indices must hold integer indices"),
        ([1], [np.nan], 3, r"values must be finite"),
        ([1], [1.0], 0, r"dim must be an integer >= 1; got 0"),
    ],
)
def test_sparse_vector_refuses_inconsistent_parts(indices, values, dim, match):
    """SparseVector([1, 1], [1., 2.], 3).to_dense() gave [0, 2, 0]; an index >= dim failed in
    to_dense with numpy's IndexError."""
    from mlgeom.multiscale import SparseVector

    with pytest.raises(ValueError, match=match):
        SparseVector(indices, values, dim)


def test_sparse_vector_valid_and_from_h_i_unchanged():
    from mlgeom.multiscale import H_i, SparseVector

    v = SparseVector([0, 2], [1.0, -2.0], 3)
    assert v.to_dense().tolist() == [1.0, 0.0, -2.0]
    h = H_i(np.array([0.3, -0.2]), 2, 2.0)
    again = SparseVector(h.indices, h.values, h.dim)  # what H_i builds passes the checks
    np.testing.assert_array_equal(again.to_dense(), h.to_dense())
