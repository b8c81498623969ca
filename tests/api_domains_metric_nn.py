"""Declared domains of :mod:`mlgeom.metric_nn` (issue 16), merged by ``tests/test_api_domains.py``.

Every public callable of the chapter not declared in :mod:`tests.api_domains` gets a tiny valid
call (milliseconds) and a domain per parameter here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.api_domains import (
    FLAG,
    NAME,
    SEED,
    Array,
    Choice,
    Instance,
    Int,
    Real,
    Skip,
    fn,
    method,
    record,
)

_P = "mlgeom.metric_nn."

# a tiny labelled sample in the plane and its distances
_X = np.array([[0.0, 0.0], [0.1, 0.0], [1.0, 1.0], [0.9, 1.0], [0.5, 0.4], [0.45, 0.6]])
_Y = np.array([0, 0, 1, 1, 0, 1])
_XQ = np.array([[0.2, 0.1], [0.8, 0.9]])
_DELTA = Real(0.0, 1.0, low_open=True, high_open=True)
_POS = Real(0.0, low_open=True)
_VEC = Array(ndim_probe=False)  # vectorised bound arguments (a number or an array)


def _dist(A: np.ndarray, B: np.ndarray | None = None) -> np.ndarray:
    from scipy.spatial.distance import cdist

    return cdist(A, A if B is None else B)


def _task() -> Any:
    import mlgeom.metric_nn as MN

    return MN.Task(_X, _Y, _XQ, np.array([0, 1]), _Y, "euclidean", "tiny")


def _model(**kw: Any) -> Any:
    import mlgeom.metric_nn as MN

    return MN.SRMNearestNeighbors(ddim=2.0, **kw).fit(_X, _Y)


def _pairs() -> Any:
    import mlgeom.metric_nn as MN

    return MN.ConflictPairs.from_distances(_dist(_X), _Y)


def _problem() -> Any:
    import mlgeom.metric_nn as MN

    return MN.SoftmaxProblem.random(2, 1, 4.0, 0)


def _axes() -> Any:
    import matplotlib.figure

    return matplotlib.figure.Figure().add_subplot()


def declare(reg: dict) -> None:
    import mlgeom.metric_nn as MN

    # ------------------------------------------------------------------ records
    for rec in ("ConflictPairs", "NNResult", "QCurve", "ShrinkScan", "Task", "TaskResult"):
        reg[_P + rec] = record(getattr(MN, rec))

    # ------------------------------------------------------------------ spaces
    codes = MN.encode_strings(["ab", "b", ""])
    reg[_P + "encode_strings"] = fn(
        MN.encode_strings,
        {"strings": ["ab", "b"], "alphabet": None},
        strings=Skip("a sequence of str (ValueError otherwise: regression test)"),
        alphabet=Skip("a str of symbols, or None"),
    )
    reg[_P + "decode_strings"] = fn(
        MN.decode_strings,
        {"codes": codes, "alphabet": "ab"},
        codes=Array(empty=True),
        alphabet=Skip("a str of symbols (checked to cover the codes: regression test)"),
    )
    reg[_P + "edit_distance_matrix"] = fn(
        MN.edit_distance_matrix,
        {"A": codes, "B": codes[:2]},
        A=Array(empty=True),
        B=Array(empty=True),
    )
    reg[_P + "pairwise_distances"] = fn(
        MN.pairwise_distances,
        {"A": _X, "B": _XQ, "metric": "euclidean"},
        A=Array(),
        B=Array(),
        metric=Choice(MN.METRICS),
    )
    reg[_P + "check_metric_input"] = fn(
        MN.check_metric_input,
        {"X": _X, "metric": "euclidean", "name": "X"},
        X=Array(),
        metric=Choice(MN.METRICS),
        name=NAME,
    )
    reg[_P + "check_distance_matrix"] = fn(
        MN.check_distance_matrix,
        {"D": _dist(_X[:3]), "name": "D", "max_triangle_points": 300, "atol": 1e-9},
        D=Array(),
        name=NAME,
        max_triangle_points=Int(0),
        atol=Real(0.0),
    )

    # ------------------------------------------------------------------ vertex cover
    edges = np.array([[0, 1], [1, 2]])
    cover = np.array([False, True, False])
    reg[_P + "is_vertex_cover"] = fn(
        MN.is_vertex_cover,
        {"edges": edges, "cover": cover},
        edges=Skip("vertex pairs (integer indices: regression test)"),
        cover=Array(),
    )
    reg[_P + "prune_cover"] = fn(
        MN.prune_cover,
        lambda: {"edges": edges, "cover": np.array([True, True, False])},
        edges=Skip("vertex pairs (integer indices: regression test)"),
        cover=Array(),
    )
    reg[_P + "ConflictPairs.from_distances"] = fn(
        MN.ConflictPairs.from_distances,
        lambda: {"D": _dist(_X), "y": _Y},
        D=Array(),
        y=Skip("labels of any type"),
    )
    n_pairs = len(_pairs().d)
    for m in ("prefix_length", "m_tilde"):
        reg[_P + f"ConflictPairs.{m}"] = method(
            _pairs, m, {"L": np.array([0.0, 2.0, 4.0])}, L=Array(empty=True, ndim_probe=False)
        )
    for m in ("cover", "edges"):
        reg[_P + f"ConflictPairs.{m}"] = method(_pairs, m, {"L": 2.0}, L=Real(0.0))
    reg[_P + "ConflictPairs.m_tilde_at"] = method(
        _pairs, "m_tilde_at", {"t": np.array([0, 2])}, t=Array(empty=True, ndim_probe=False)
    )
    for m in ("cover_at", "edges_at"):
        reg[_P + f"ConflictPairs.{m}"] = method(_pairs, m, {"t": 2}, t=Int(0, maximum=n_pairs))
    reg[_P + "ConflictPairs.candidates"] = method(_pairs, "candidates", {})
    reg[_P + "ConflictPairs.candidate_ranks"] = method(
        _pairs, "candidate_ranks", {"limit": True}, limit=FLAG
    )

    # ------------------------------------------------------------------ srm
    reg[_P + "binary_search_crossing"] = fn(
        MN.binary_search_crossing,
        {"m_of": lambda c: 3 - c, "delta_of": lambda c: c, "n_candidates": 4},
        m_of=Skip("a callable"),
        delta_of=Skip("a callable"),
        n_candidates=Int(1),
    )
    reg[_P + "SRMNearestNeighbors"] = fn(
        MN.SRMNearestNeighbors,
        {
            "metric": "euclidean",
            "delta": 0.05,
            "ddim": 2.0,
            "c_D": 1.0,
            "bound": "min",
            "search": "binary",
            "q_form": "rate",
            "algorithm": "brute",
            "eta": 0.0,
            "fat_factor": 2.0,
            "prune_cover": True,
            "classes": None,
        },
        metric=Choice((*MN.METRICS, "precomputed")),
        delta=_DELTA,
        ddim=_POS,
        c_D=_POS,
        bound=Choice(MN.BOUNDS),
        search=Choice(("binary", "exhaustive")),
        q_form=Choice(("rate", "printed")),
        algorithm=Choice(("brute", "tree")),
        eta=Real(0.0),
        fat_factor=_POS,
        prune_cover=FLAG,
        classes=Skip("a label set (checked against y in fit: regression tests)"),
    )
    reg[_P + "SRMNearestNeighbors.fit"] = method(
        lambda: MN.SRMNearestNeighbors(ddim=2.0),
        "fit",
        {"X": _X, "y": _Y},
        X=Array(),
        y=Skip("labels of any type (length checked: regression tests)"),
    )
    for m in ("predict", "predict_eq16", "decision_function", "kneighbors_support"):
        reg[_P + f"SRMNearestNeighbors.{m}"] = method(_model, m, {"X": _XQ}, X=Array())
    reg[_P + "SRMNearestNeighbors.q_curve"] = method(
        _model, "q_curve", {"L": [0.0, 2.0, 4.0]}, L=Array(empty=True, ndim_probe=False)
    )

    # ------------------------------------------------------------------ index
    reg[_P + "MetricBallTree"] = fn(
        MN.MetricBallTree,
        {"X": _X, "metric": "euclidean", "leaf_size": 2},
        X=Array(),
        metric=Choice(MN.METRICS),
        leaf_size=Int(1),
    )
    reg[_P + "MetricBallTree.query"] = method(
        lambda: MN.MetricBallTree(_X, leaf_size=2),
        "query",
        {"Xq": _XQ, "eta": 0.5},
        Xq=Array(),
        eta=Real(0.0),
    )

    # ------------------------------------------------------------------ bounds
    lemma = {"eps": np.array([1.0, 0.5]), "L": 2.0, "k": 10, "D": 2.0}
    for f in ("log_covering_lemma2", "log_covering_lemma3"):
        reg[_P + f] = fn(
            getattr(MN, f), lemma, eps=Array(empty=True, ndim_probe=False), L=_VEC, k=_VEC, D=_POS
        )
    nn = {"n": np.array([100.0, 1000.0]), "L": 1.0, "delta": 0.05, "k": 3, "D": 2.0}
    nn_dom = {
        "n": Array(empty=True, ndim_probe=False),
        "L": _VEC,
        "delta": _DELTA,
        "k": _VEC,
        "D": _POS,
    }
    reg[_P + "delta_combined"] = fn(
        MN.delta_combined,
        {**nn, "c_D": 1.0, "fat_factor": 2.0},
        **nn_dom,
        c_D=_POS,
        fat_factor=_POS,
    )
    reg[_P + "complexity"] = fn(
        MN.complexity,
        {"bound": "min", **nn, "c_D": 1.0, "fat_factor": 2.0},
        bound=Choice(MN.BOUNDS),
        **nn_dom,
        c_D=_POS,
        fat_factor=_POS,
    )
    reg[_P + "crossover"] = fn(
        MN.crossover,
        {
            "L": 1.0,
            "delta": 0.01,
            "k": 10,
            "D": 5.0,
            "c_D": 1.0,
            "fat_factor": 2.0,
            "n_range": (1e2, 1e30),
        },
        L=Real(0.0),
        delta=_DELTA,
        k=Int(2),
        D=_POS,
        c_D=_POS,
        fat_factor=_POS,
        n_range=Skip("a pair 0 < low < high (regression test)"),
    )

    # ------------------------------------------------------------------ tasks
    reg[_P + "flip_labels"] = fn(
        MN.flip_labels,
        {"y": np.array([0, 1, 2, 1]), "rate": 0.5, "n_classes": 3, "seed": 0},
        y=Skip("class indices (regression test)"),
        rate=Real(0.0, 1.0),
        n_classes=Int(2),
        seed=SEED,
    )
    reg[_P + "digits_task"] = fn(
        MN.digits_task,
        {"n_train": 10, "noise": 0.1, "seed": 0, "metric": "euclidean", "n_test": 5},
        n_train=Int(2, maximum=1796),
        noise=Real(0.0, 1.0),
        seed=SEED,
        metric=Choice(MN.METRICS),
        n_test=Int(1, optional=True),
    )
    reg[_P + "string_task"] = fn(
        MN.string_task,
        {
            "n_train": 4,
            "n_test": 2,
            "k": 2,
            "length": 5,
            "mutation": 0.3,
            "noise": 0.2,
            "seed": 0,
        },
        n_train=Int(2),
        n_test=Int(1),
        k=Int(2),
        length=Int(1),
        mutation=Real(0.0, 1.0),
        noise=Real(0.0, 1.0),
        seed=SEED,
    )
    reg[_P + "SoftmaxProblem"] = fn(
        MN.SoftmaxProblem,
        {"centers": np.array([[0.2], [0.7]]), "beta": 4.0},
        centers=Array(),
        beta=_POS,
    )
    rare = lambda: MN.RareClassProblem(_problem(), 4, 0.1)  # noqa: E731
    reg[_P + "RareClassProblem"] = fn(
        MN.RareClassProblem,
        lambda: {"base": _problem(), "k": 4, "eps": 0.1},
        base=Instance("SoftmaxProblem"),
        k=Int(3),
        eps=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    for m in ("eta", "bayes_predict"):
        reg[_P + f"RareClassProblem.{m}"] = method(
            rare, m, {"X": np.array([[0.1], [0.9]])}, X=Array()
        )
    reg[_P + "RareClassProblem.sample"] = method(
        rare, "sample", {"n": 5, "seed": 0}, n=Int(1), seed=SEED
    )
    reg[_P + "RareClassProblem.grid"] = method(rare, "grid", {"per_axis": 4}, per_axis=Int(1))
    reg[_P + "RareClassProblem.bayes_risk"] = method(
        rare, "bayes_risk", {"per_axis": 10}, per_axis=Int(1)
    )
    reg[_P + "RareClassProblem.risk"] = method(
        rare,
        "risk",
        {"predict": lambda G: np.zeros(len(G), dtype=int), "per_axis": 10},
        predict=Skip("a callable"),
        per_axis=Int(1),
    )
    reg[_P + "SoftmaxProblem.random"] = fn(
        MN.SoftmaxProblem.random,
        {"k": 2, "D": 1, "beta": 4.0, "seed": 0},
        k=Int(2),
        D=Int(1),
        beta=_POS,
        seed=SEED,
    )
    for m in ("eta", "bayes_predict"):
        reg[_P + f"SoftmaxProblem.{m}"] = method(
            _problem, m, {"X": np.array([[0.1], [0.9]])}, X=Array()
        )
    reg[_P + "SoftmaxProblem.sample"] = method(
        _problem, "sample", {"n": 5, "seed": 0}, n=Int(1), seed=SEED
    )
    reg[_P + "SoftmaxProblem.grid"] = method(_problem, "grid", {"per_axis": 4}, per_axis=Int(1))
    reg[_P + "SoftmaxProblem.bayes_risk"] = method(
        _problem, "bayes_risk", {"per_axis": 10}, per_axis=Int(1)
    )
    reg[_P + "SoftmaxProblem.risk"] = method(
        _problem,
        "risk",
        {"predict": lambda G: np.zeros(len(G), dtype=int), "per_axis": 10},
        predict=Skip("a callable"),
        per_axis=Int(1),
    )

    # ------------------------------------------------------------------ experiments
    fig3 = {"D": 5.0, "k": 10, "delta": 0.01, "c_D": 1.0}
    fig3_dom = {"D": _POS, "k": Int(2), "delta": _DELTA, "c_D": _POS}
    reg[_P + "figure3_table"] = fn(
        MN.figure3_table,
        {"L_values": [1.0, 2.0], "m_grid": [1e6, 1e9], **fig3, "fat_factor": 2.0},
        L_values=Array(ndim_probe=True),
        m_grid=Array(ndim_probe=True),
        **fig3_dom,
        fat_factor=_POS,
    )
    reg[_P + "figure3_crossovers"] = fn(
        MN.figure3_crossovers,
        {"L_values": [2.0], **fig3},
        L_values=Array(ndim_probe=True),
        **fig3_dom,
    )

    def fig3_args() -> dict[str, Any]:
        return {
            "ax": _axes(),
            "table": MN.figure3_table([1.0], [1e6, 1e9]),
            "crossovers": MN.figure3_crossovers([1.0]),
        }

    reg[_P + "plot_figure3"] = fn(
        MN.plot_figure3,
        fig3_args,
        ax=Skip("a matplotlib Axes"),
        table=Skip("a figure3_table DataFrame"),
        crossovers=Skip("a figure3_crossovers DataFrame"),
    )
    reg[_P + "k_dependence_table"] = fn(
        MN.k_dependence_table,
        {"ks": [2, 10], "n": 1e9, "L": 2.0, "D": 2.0, "delta": 0.01, "c_D": 1.0},
        ks=Array(ndim_probe=True),
        n=_POS,
        L=Real(0.0),
        D=_POS,
        delta=_DELTA,
        c_D=_POS,
    )
    Dtr, Dte = _dist(_X), _dist(_XQ, _X)
    reg[_P + "knn_cv"] = fn(
        MN.knn_cv,
        {
            "D_train": Dtr,
            "y_train": _Y,
            "D_test": Dte,
            "n_classes": 2,
            "ks": [1, 3],
            "n_folds": 2,
            "seed": 0,
        },
        D_train=Array(),
        y_train=Skip("class indices (regression test)"),
        D_test=Array(),
        n_classes=Int(1),
        ks=Array(ndim_probe=True),
        n_folds=Int(2),
        seed=SEED,
    )
    reg[_P + "random_subset_1nn"] = fn(
        MN.random_subset_1nn,
        {"D_test": Dte, "y_train": _Y, "size": 3, "seed": 0},
        D_test=Array(),
        y_train=Skip("labels of any type (length checked against D_test)"),
        size=Int(1, maximum=len(_Y)),
        seed=SEED,
    )
    reg[_P + "compare_on_task"] = fn(
        MN.compare_on_task,
        lambda: {"task": _task(), "delta": 0.05, "ddim": 2.0, "seed": 0},
        task=Skip("a Task"),
        delta=_DELTA,
        ddim=_POS,
        seed=SEED,
    )
    reg[_P + "limit_threshold"] = fn(
        MN.limit_threshold,
        lambda: {"model": _model(search="exhaustive")},
        model=Skip("a fitted SRMNearestNeighbors"),
    )
    reg[_P + "shrink_scan"] = fn(
        MN.shrink_scan,
        lambda: {"task": _task(), "factors": [1.0, 0.1], "delta": 0.05},
        task=Skip("a Task"),
        factors=Array(),
        delta=_DELTA,
    )
    reg[_P + "srm_vs_1nn_splits"] = fn(
        MN.srm_vs_1nn_splits,
        {"make_task": lambda rng: _task(), "seeds": 1, "seed": 0, "delta": 0.05},
        make_task=Skip("a callable rng -> Task"),
        seeds=Int(1),
        seed=SEED,
        delta=_DELTA,
    )
    reg[_P + "exact_q_check"] = fn(
        MN.exact_q_check, lambda: {"model": _model()}, model=Skip("a fitted SRMNearestNeighbors")
    )
    reg[_P + "exact_q_instances"] = fn(
        MN.exact_q_instances,
        {"count": 1, "seed": 0, "n": 5, "k": 2, "ddim": 2.0, "delta": 0.05},
        count=Int(1),
        seed=SEED,
        n=Int(2),
        k=Int(2),
        ddim=_POS,
        delta=_DELTA,
    )
    reg[_P + "plot_q_curve"] = fn(
        MN.plot_q_curve,
        lambda: {"ax": _axes(), "model": _model(), "table": None},
        ax=Skip("a matplotlib Axes"),
        model=Skip("a fitted SRMNearestNeighbors"),
        table=Skip("an exact_q_check table, or None"),
    )
    reg[_P + "cover_crosscheck"] = fn(
        MN.cover_crosscheck,
        {"sizes": [4], "seed": 0, "n_classes": 3, "p_edge": 0.5},
        sizes=Array(ndim_probe=True),
        seed=SEED,
        n_classes=Int(2),
        p_edge=Real(0.0, 1.0),
    )
    reg[_P + "theorem1_sweep"] = fn(
        MN.theorem1_sweep,
        lambda: {
            "problem": _problem(),
            "ns": [5],
            "reps": 1,
            "seed": 0,
            "grid": 10,
            "return_risks": False,
        },
        problem=Skip("a SoftmaxProblem"),
        ns=Array(ndim_probe=True),
        reps=Int(1),
        seed=SEED,
        grid=Int(1),
        return_risks=FLAG,
    )
    reg[_P + "table1_rates"] = fn(
        MN.table1_rates,
        {"n": 100.0, "k": 3, "gamma": 0.5, "D": 2.0},
        n=_POS,
        k=Int(2),
        gamma=_POS,
        D=_POS,
    )
    reg[_P + "theorem1_k_sweep"] = fn(
        MN.theorem1_k_sweep,
        {
            "ks": [3],
            "n": 5,
            "reps": 1,
            "seed": 0,
            "beta": 4.0,
            "eps": 0.1,
            "centers": np.array([[0.2], [0.7]]),
            "grid": 10,
        },
        ks=Array(ndim_probe=True),
        n=Int(1),
        reps=Int(1),
        seed=SEED,
        beta=_POS,
        eps=Real(0.0, 1.0, low_open=True, high_open=True),
        centers=Array(),
        grid=Int(1),
    )
    sweep = {"n": 12, "beta": 4.0, "D": 1, "reps": 1, "seed": 0, "delta": 0.05, "grid": 5}
    sweep_dom = {
        "ks": Array(ndim_probe=True),
        "n": Int(2),
        "beta": _POS,
        "D": Int(1),
        "reps": Int(1),
        "seed": SEED,
        "delta": _DELTA,
        "grid": Int(1),
    }
    reg[_P + "k_sweep_seeds"] = fn(MN.k_sweep_seeds, {"ks": [2], **sweep}, **sweep_dom)
    reg[_P + "k_sweep_srm"] = fn(
        MN.k_sweep_srm,
        {"ks": [2], **sweep, "per_seed": None},
        **sweep_dom,
        per_seed=Skip("a k_sweep_seeds DataFrame, or None"),
    )
    margins = Array(empty=True, ndim_probe=False, finite=False)  # ±inf are margins too
    reg[_P + "cutoff_loss"] = fn(MN.cutoff_loss, {"u": [0.5, -1.0]}, u=margins)
    reg[_P + "margin_loss"] = fn(MN.margin_loss, {"u": [0.5, -1.0]}, u=margins)
    reg[_P + "surrogate_risks"] = fn(
        MN.surrogate_risks,
        {"h": np.array([[0.5, -0.5], [-0.2, 0.2]]), "y": np.array([0, 0])},
        h=Array(),
        y=Array(),
    )
    reg[_P + "lmargin_runs"] = fn(
        MN.lmargin_runs,
        lambda: {"problem": _problem(), "n": 12, "reps": 1, "seed": 0, "delta": 0.05, "grid": 5},
        problem=Skip("a SoftmaxProblem"),
        n=Int(2),
        reps=Int(1),
        seed=SEED,
        delta=_DELTA,
        grid=Int(1),
    )
    reg[_P + "timing_sweep"] = fn(
        MN.timing_sweep,
        {"ns": [10], "k": 2, "D": 1, "beta": 4.0, "seed": 0},
        ns=Array(ndim_probe=True),
        k=Int(2),
        D=Int(1),
        beta=_POS,
        seed=SEED,
    )
    reg[_P + "index_check"] = fn(
        MN.index_check,
        {"X_ref": _X, "X_query": _XQ, "metric": "euclidean", "etas": [0.0, 0.5], "repeats": 1},
        X_ref=Array(),
        X_query=Array(),
        metric=Choice(MN.METRICS),
        etas=Array(ndim_probe=True),
        repeats=Int(1),
    )

    # ------------------------------------------------------------------ Section 5.1: perturbation
    reg[_P + "log_covering_lemma6"] = fn(
        MN.log_covering_lemma6,
        {"eps": np.array([0.5, 1.0]), "eta": 0.1, "L": 2.0, "k": 3, "D": 2.0},
        eps=Array(empty=True, ndim_probe=False),
        eta=Real(0.0),
        L=_VEC,
        k=_VEC,
        D=_POS,
    )
    reg[_P + "delta_eta"] = fn(
        MN.delta_eta,
        {"bound": "min", **nn, "eta": 0.05, "c_D": 1.0, "fat_factor": 2.0},
        bound=Choice(MN.BOUNDS),
        **nn_dom,
        eta=Real(0.0),
        c_D=_POS,
        fat_factor=_POS,
    )
    reg[_P + "eq16_oracle_deviation"] = fn(
        MN.eq16_oracle_deviation,
        lambda: {"dist": _dist(_XQ, _X), "y_s1": _Y, "n_classes": 2, "L": 2.0, "eta": 0.1},
        dist=Array(),
        y_s1=Skip("class indices (checked against n_classes and dist's columns)"),
        n_classes=Int(2),
        L=Real(0.0),
        eta=Real(0.0),
    )
    reg[_P + "oracle_deviation_check"] = fn(
        MN.oracle_deviation_check,
        lambda: {"task": _task(), "model": _model(), "etas": [0.1]},
        task=Skip("a Task"),
        model=Skip("a fitted SRMNearestNeighbors"),
        etas=Array(ndim_probe=True),
    )
    reg[_P + "eta_srm_splits"] = fn(
        MN.eta_srm_splits,
        {"make_task": lambda rng: _task(), "seeds": 1, "seed": 0, "eta": 0.05, "delta": 0.05},
        make_task=Skip("a callable rng -> Task"),
        seeds=Int(1),
        seed=SEED,
        eta=Real(0.0),
        delta=_DELTA,
    )
    reg[_P + "eta_bound_table"] = fn(
        MN.eta_bound_table,
        {"n": 100, "L": 2.0, "delta": 0.05, "k": 3, "D": 2.0, "etas": [0.0, 0.1]},
        n=Int(1),
        L=Real(0.0),
        delta=_DELTA,
        k=Int(2),
        D=_POS,
        etas=Array(ndim_probe=True),
    )
