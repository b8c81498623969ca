"""Regression tests of issue 16 for :mod:`mlgeom.metric_nn`."""

import numpy as np
import pytest

import mlgeom.metric_nn as MN
from mlgeom.metric_nn.spaces import doubling_dimension
from mlgeom.metric_nn.srm import margin_function

DIST = np.array([[0.1, 0.5], [0.3, 0.2]])


def test_margin_function_validates_L_classes_and_labels():
    with pytest.raises(ValueError, match=r"L must be .*got -1"):
        margin_function(DIST, np.array([0, 1]), 2, -1.0)
    with pytest.raises(ValueError, match="n_classes must be an integer >= 1; got 0"):
        margin_function(DIST, np.array([0, 1]), 0, 1.0)
    with pytest.raises(ValueError, match=r"y_s1 must be indices in \[0, 1\]; got 5"):
        margin_function(DIST, np.array([0, 5]), 2, 1.0)
    with pytest.raises(ValueError, match="y_s1 must have one label per column"):
        margin_function(DIST, np.array([0]), 2, 1.0)
    h = margin_function(DIST, np.array([0, 1]), 2, 1.0)
    assert h.shape == (2, 2) and np.all(np.abs(h) <= 1)


def test_doubling_dimension_refuses_a_non_symmetric_matrix():
    D = np.array([[0.0, 1.0], [2.0, 0.0]])
    msg = r"D must be symmetric: D\[0, 1\] = 1.0 but D\[1, 0\] = 2.0"
    with pytest.raises(ValueError, match=msg):
        doubling_dimension(D)
    with pytest.raises(ValueError, match="D must be square"):
        doubling_dimension(np.zeros((2, 3)))


# -- issue 16, wave 3: the chapter's remaining public callables ---------------------------------
_X = np.array([[0.0, 0.0], [0.1, 0.0], [1.0, 1.0], [0.9, 1.0], [0.5, 0.4], [0.45, 0.6]])
_Y = np.array([0, 0, 1, 1, 0, 1])


def _pairs():
    from scipy.spatial.distance import cdist

    return MN.ConflictPairs.from_distances(cdist(_X, _X), _Y)


def test_bounds_refuse_strings_and_non_numbers_by_name():
    with pytest.raises(ValueError, match="eps must be a number or an array of numbers"):
        MN.log_covering_lemma2(np.array(["x"], dtype=object), 2.0, 10, 2.0)
    with pytest.raises(ValueError, match="L must be a number or an array of numbers"):
        MN.delta_combined([100.0], "1.0", 0.05, 3, 2.0)
    with pytest.raises(ValueError, match="k must be a number or an array of numbers"):
        MN.complexity("min", [100.0], 1.0, 0.05, "x", 2.0)


def test_crossover_validates_its_scalars_and_range():
    with pytest.raises(ValueError, match="L must be a finite real number"):
        MN.crossover("1.0", 0.01, 10, 5.0)
    with pytest.raises(ValueError, match="k must be an integer >= 2; got '2'"):
        MN.crossover(1.0, 0.01, "2", 5.0)
    with pytest.raises(ValueError, match="n_range must satisfy 0 < low < high"):
        MN.crossover(1.0, 0.01, 10, 5.0, n_range=(1e6, 1e2))
    with pytest.raises(ValueError, match="n_range must be a pair"):
        MN.crossover(1.0, 0.01, 10, 5.0, n_range=None)


def test_conflict_pairs_refuse_non_finite_and_string_L():
    pairs = _pairs()
    with pytest.raises(ValueError, match=r"L must be >= 0; got inf"):
        pairs.prefix_length([np.inf, 2.0])
    with pytest.raises(ValueError, match="L must be a number or an array"):
        pairs.m_tilde(np.array(["x"], dtype=object))
    with pytest.raises(ValueError, match="L must be a finite real number"):
        pairs.cover("1.0")
    with pytest.raises(ValueError, match="L must be a finite real number"):
        pairs.edges(np.inf)


def test_vertex_cover_masks_are_checked():
    E = np.array([[0, 1], [1, 2]])
    with pytest.raises(ValueError, match="cover must hold booleans"):
        MN.is_vertex_cover(E, np.array([np.nan, 1.0, 0.0]))
    with pytest.raises(ValueError, match="cover must be a 1-D boolean mask"):
        MN.prune_cover(E, np.ones((1, 3), dtype=bool))
    with pytest.raises(ValueError, match=r"edges \(vertices of cover\) must be indices"):
        MN.is_vertex_cover(E, np.array([True, False]))
    with pytest.raises(ValueError, match=r"edges \(vertices of cover\) must be indices"):
        MN.is_vertex_cover(np.array([[0, -1]]), np.array([True, True, True]))
    assert MN.is_vertex_cover(E, np.array([0, 1, 0]))


def test_spaces_validate_metric_codes_and_tolerances():
    with pytest.raises(ValueError, match="metric must be one of"):
        MN.check_metric_input(_X, "no-such-option")
    with pytest.raises(ValueError, match="codes must be a 2-D integer array"):
        MN.decode_strings(np.array([[np.nan, 1.0]]), "ab")
    with pytest.raises(ValueError, match="codes has code 2, beyond the alphabet"):
        MN.decode_strings(np.array([[0, 2]]), "ab")
    with pytest.raises(ValueError, match="alphabet must be a str"):
        MN.decode_strings(np.array([[0, 1]]), None)
    assert MN.decode_strings(np.zeros((0, 2)), "ab") == []
    D = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="atol must be a finite real number"):
        MN.check_distance_matrix(D, atol=np.nan)
    with pytest.raises(ValueError, match="atol must be in"):
        MN.check_distance_matrix(D, atol=-1.0)
    with pytest.raises(ValueError, match="max_triangle_points must be an integer"):
        MN.check_distance_matrix(D, max_triangle_points=1.5)


def test_srm_refuses_bad_parameters_at_construction_and_names_X():
    with pytest.raises(ValueError, match="delta must be a real number in"):
        MN.SRMNearestNeighbors(delta=np.nan)
    with pytest.raises(ValueError, match="metric must be one of"):
        MN.SRMNearestNeighbors("no-such-option")
    clf = MN.SRMNearestNeighbors(ddim=2.0).fit(_X, _Y)
    bad = _X[:2].copy()
    bad[0, 0] = np.nan
    for m in ("predict", "predict_eq16", "decision_function", "kneighbors_support"):
        with pytest.raises(ValueError, match="X must be finite"):
            getattr(clf, m)(bad)
    tree = MN.SRMNearestNeighbors(ddim=2.0, algorithm="tree").fit(_X, _Y)
    with pytest.raises(ValueError, match="X must be finite"):
        tree.predict(bad)
    with pytest.raises(ValueError, match="L must be a number or an array"):
        clf.q_curve(np.array(["x"], dtype=object))
    with pytest.raises(ValueError, match="n_candidates must be an integer >= 1; got 1.5"):
        MN.binary_search_crossing(lambda c: 0, lambda c: 0, 1.5)


def test_tasks_name_noise_metric_labels_and_points():
    with pytest.raises(ValueError, match="noise must be in"):
        MN.digits_task(10, 2.0, 0)
    with pytest.raises(ValueError, match="metric must be one of"):
        MN.digits_task(10, 0.1, 0, metric="no-such-option")
    with pytest.raises(ValueError, match="noise must be a finite real number"):
        MN.string_task(4, 2, noise=np.nan, seed=0)
    with pytest.raises(ValueError, match=r"y must be indices in \[0, 2\]"):
        MN.flip_labels(np.array([0, 3]), 0.5, 3, 0)
    with pytest.raises(ValueError, match="centers must be finite"):
        MN.SoftmaxProblem(np.array([[np.nan], [0.5]]), 2.0)
    with pytest.raises(ValueError, match="beta must be in"):
        MN.SoftmaxProblem(np.array([[0.1], [0.5]]), 0.0)
    prob = MN.SoftmaxProblem.random(2, 1, 4.0, 0)
    with pytest.raises(ValueError, match="X must be finite"):
        prob.eta(np.array([[np.nan]]))
    with pytest.raises(ValueError, match="X must have 1 column"):
        prob.bayes_predict(np.zeros((2, 2)))


def test_experiment_drivers_validate_up_front():
    from scipy.spatial.distance import cdist

    D, Dq = cdist(_X, _X), cdist(_X[:2], _X)
    with pytest.raises(ValueError, match="L_values must lie in"):
        MN.figure3_table([-1.0], [1e6])
    with pytest.raises(ValueError, match="m_grid must be finite"):
        MN.figure3_table([1.0], [np.nan])
    with pytest.raises(ValueError, match="k must be an integer >= 2; got 1.5"):
        MN.figure3_crossovers([1.0], k=1.5)
    with pytest.raises(ValueError, match="ks must hold integers >= 2"):
        MN.k_dependence_table([1, 10], n=1e9, L=2.0, D=2.0, delta=0.01)
    with pytest.raises(ValueError, match="n_folds must be an integer >= 2; got 1"):
        MN.knn_cv(D, _Y, Dq, 2, n_folds=1)
    with pytest.raises(ValueError, match=r"y_train must be indices in \[0, 1\]"):
        MN.knn_cv(D, _Y + 1, Dq, 2)
    with pytest.raises(ValueError, match="D_test must be finite"):
        MN.random_subset_1nn(np.where(Dq > 1, np.inf, Dq), _Y, 2, seed=0)
    with pytest.raises(ValueError, match="seeds must be an integer >= 1"):
        MN.srm_vs_1nn_splits(lambda r: None, "2", 0)
    with pytest.raises(ValueError, match="n must be an integer >= 3; got 2"):
        MN.exact_q_instances(1, 0, n=2, k=3)
    with pytest.raises(ValueError, match="p_edge must be in"):
        MN.cover_crosscheck([4], 0, p_edge=2.0)
    prob = MN.SoftmaxProblem.random(2, 1, 4.0, 0)
    with pytest.raises(ValueError, match="ns must be finite"):
        MN.theorem1_sweep(prob, [np.nan], 1, 0)
    with pytest.raises(ValueError, match="n must be an integer >= 2; got 1"):
        MN.k_sweep_seeds([2], n=1, beta=4.0, D=1, reps=1, seed=0)
    with pytest.raises(ValueError, match="ns must hold integers >= 2"):
        MN.timing_sweep([1], k=2, D=1, beta=4.0, seed=0)
    with pytest.raises(ValueError, match="X_ref must be finite"):
        MN.index_check(np.where(D > 1, np.nan, D), _X, "euclidean", [0.0])
    with pytest.raises(ValueError, match="etas must lie in"):
        MN.index_check(_X, _X[:2], "euclidean", [-0.5])


# ---------------------------------------------------------------- issue 34: arguments that disagree
def test_matching_cover_refuses_a_float_edge_as_exact_vertex_cover_does():
    """It truncated [[0, 1.5]] to the edge (0, 1)."""
    for f in (MN.matching_cover, MN.exact_vertex_cover):
        with pytest.raises(ValueError, match=r"edges must hold integer .*1.5 at index \(0, 1\)"):
            f([[0, 1.5]], 3)
        with pytest.raises(ValueError, match=r"edges must have shape \(n_edges, 2\)"):
            f([[0, 1, 2]], 3)
    matching, cover = MN.matching_cover([[0.0, 1.0]], 3)  # integral floats are integers
    assert matching.tolist() == [[0, 1]] and cover.tolist() == [True, True, False]
    assert MN.exact_vertex_cover([], 2).tolist() == [False, False]


ASYM = np.array([[0.0, 1.0], [2.0, 0.0]])


def test_greedy_net_and_conflict_edges_refuse_what_check_distance_matrix_refuses():
    msg = r"D is not a metric: not symmetric, d\(0, 1\) = 1.0 but d\(1, 0\) = 2.0"
    with pytest.raises(ValueError, match=msg):
        MN.check_distance_matrix(ASYM)
    with pytest.raises(ValueError, match=msg):
        MN.greedy_net(ASYM, 0.5)
    with pytest.raises(ValueError, match=msg):
        MN.conflict_edges(ASYM, [0, 1], 1.0)
    with pytest.raises(ValueError, match=r"D must be square"):
        MN.greedy_net(np.zeros((2, 3)), 0.5)
    sym = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert MN.greedy_net(sym, 0.5).tolist() == [0, 1]
    assert MN.conflict_edges(sym, [0, 1], 1.0).tolist() == [[0, 1]]


def test_check_distance_matrix_accepts_max_triangle_points_zero():
    """Its domain said >= 0, but a second check refused 0."""
    bad_triangle = np.array([[0.0, 1.0, 5.0], [1.0, 0.0, 1.0], [5.0, 1.0, 0.0]])
    assert MN.check_distance_matrix(bad_triangle, max_triangle_points=0) is not None
    with pytest.raises(ValueError, match="triangle inequality fails"):
        MN.check_distance_matrix(bad_triangle)


def test_knn_cv_with_k_beyond_the_training_set_votes_over_all_of_it():
    """ks larger than the training set failed in numpy's broadcasting when chosen: the final
    vote now clips k to the n training points, as each fold already clipped it to its part."""
    D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0)))
    y = [0, 0, 0, 0, 0, 1]  # a vote over everything predicts 0, which CV then prefers
    k, pred = MN.knn_cv(D, y, D[:2], 2, ks=[9])
    assert k == 9 and pred.tolist() == [0, 0]
    k_all, pred_all = MN.knn_cv(D, y, D[:2], 2, ks=[6])
    assert pred_all.tolist() == pred.tolist()


def test_delta_rad_names_the_arguments_whose_shapes_disagree():
    """n and k of different lengths raised numpy's broadcast error."""
    msg = r"n, L, k must be numbers or arrays that broadcast together; got shapes n \(3,\)"
    with pytest.raises(ValueError, match=msg):
        MN.delta_rad([100, 200, 300], 1.0, 0.05, [2, 3], 2.0)
    with pytest.raises(ValueError, match=r"eps, L, k must .* broadcast together"):
        MN.log_covering_lemma2([0.1, 0.2], [1.0, 2.0, 3.0], 2, 2.0)
    assert MN.delta_rad([100, 200], 1.0, 0.05, [2, 3], 2.0).shape == (2,)
