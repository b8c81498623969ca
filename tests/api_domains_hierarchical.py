"""Declared domains of :mod:`mlgeom.hierarchical` (issue 16).

Merged by ``tests/test_api_domains.py``.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from tests.api_domains import (
    FLAG,
    NAME,
    NAN,
    SEED,
    Array,
    Choice,
    Instance,
    Int,
    Real,
    Skip,
    Spec,
    fn,
    method,
    record,
)


def _method(factory: Any, attr: str, valid: dict, **domains: Any) -> Spec:
    """Like ``method`` but allows a parameter called ``name``."""
    return Spec(lambda: getattr(factory(), attr), lambda: dict(valid), domains)


TAX = Instance("Taxonomy")
MODEL = Skip("a HierarchicalLabelModel")
CORPUS = Skip("a HierarchicalCorpus")
RESULT = Skip("a ProtocolResult")
PATH = Skip("a path (a missing or malformed file raises naming it)")
#: 0/1 multilabels: NaN, ±inf and strings are refused by check_multilabels (naming the value);
#: an empty batch (zero rows) is a valid batch.
MULTI = Array(empty=True)


def _tax() -> Any:
    from mlgeom.hierarchical import Taxonomy

    # two trees: 0 -> {1, 2}, 3
    return Taxonomy([-1, 0, 0, -1], ["a", "b", "c", "d"])


#: three multilabels respecting _tax()
V3 = np.array([[1, 1, 0, 0], [1, 0, 1, 1], [0, 0, 0, 1]], dtype=float)
Y3 = np.array([[1, 0, 0, 0], [1, 0, 1, 0], [1, 1, 0, 1]], dtype=float)
#: three unit-norm instances in R^2
X3 = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, 1.0]])


def _model() -> Any:
    from mlgeom.hierarchical import HierarchicalLabelModel

    U = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.8, -0.6]])
    return HierarchicalLabelModel(_tax(), U)


def _corpus() -> Any:
    from mlgeom.hierarchical import HierarchicalCorpus

    return HierarchicalCorpus(
        sp.csr_matrix(X3), sp.csr_matrix(V3), _tax(), "tiny", np.array([3, 1, 2]), "test"
    )


def declare(reg: dict) -> None:
    import mlgeom.hierarchical as H

    pre = "mlgeom.hierarchical."

    # ------------------------------------------------------------------ learners
    for cls in ("HRLS", "HPerceptron", "Perceptron"):
        reg[pre + cls] = fn(
            getattr(H, cls),
            lambda: {"taxonomy": _tax(), "n_features": 2},
            taxonomy=TAX,
            n_features=Int(1, optional=True),
        )
    for cls in ("SHRLS", "SRLS"):
        reg[pre + cls] = fn(
            getattr(H, cls),
            lambda: {"taxonomy": _tax(), "margin_time": "global", "n_features": 2},
            taxonomy=TAX,
            margin_time=Choice(("global", "local")),
            n_features=Int(1, optional=True),
        )
    reg[pre + "make_learner"] = fn(
        H.make_learner,
        lambda: {"name": "H-PERC", "taxonomy": _tax()},
        name=Choice(tuple(H.LEARNERS)),
        taxonomy=TAX,
    )
    for cls in ("HierarchicalSVM", "FlatSVM"):
        reg[pre + cls] = fn(
            getattr(H, cls),
            lambda: {"taxonomy": _tax(), "C": 1.0},
            taxonomy=TAX,
            C=Real(0.0, low_open=True),
            loss=Choice(("hinge", "squared_hinge")),
            solver=Choice(("liblinear",)),
            intercept_scaling=Real(0.0, low_open=True),
            tol=Real(0.0, low_open=True),
            max_iter=Int(1),
            random_state=SEED,
        )

    # ------------------------------------------------------------------ losses
    pair = {"Yhat": MULTI, "V": MULTI, "taxonomy": TAX}
    for f in ("ancestors_agree", "h_loss_nodes", "h_loss_mistakes", "per_depth_mistakes"):
        reg[pre + f] = fn(getattr(H, f), lambda: {"Yhat": Y3, "V": V3, "taxonomy": _tax()}, **pair)
    reg[pre + "h_loss"] = fn(
        H.h_loss,
        lambda: {"Yhat": Y3, "V": V3, "taxonomy": _tax(), "costs": [1.0, 0.5, 0.5, 1.0]},
        costs=Array(ndim_probe=True),
        **pair,
    )
    reg[pre + "HMistakes"] = record(H.HMistakes)
    reg[pre + "sibling_costs"] = fn(
        H.sibling_costs,
        lambda: {"taxonomy": _tax(), "recursive": True},
        taxonomy=TAX,
        recursive=FLAG,
    )

    # ------------------------------------------------------------------ taxonomy
    reg[pre + "Taxonomy"] = fn(
        H.Taxonomy,
        {"parents": [-1, 0, 0], "names": ["a", "b", "c"]},
        parents=Skip("parent indices (TaxonomyError on a bad index or a cycle: regression tests)"),
        names=Skip("distinct str labels"),
    )
    reg[pre + "TaxonomyError"] = record(H.TaxonomyError)
    for m in ("ancestors", "children", "subtree"):
        reg[pre + f"Taxonomy.{m}"] = method(_tax, m, {"i": 1}, i=Int(0, maximum=3))
    reg[pre + "Taxonomy.index"] = _method(
        _tax, "index", {"name": "b"}, name=Skip("a label name (KeyError naming an unknown one)")
    )
    reg[pre + "Taxonomy.as_multilabels"] = _method(
        _tax, "as_multilabels", {"Y": V3, "name": "Y"}, Y=MULTI, name=NAME
    )
    for m in ("truncate", "respects", "close_upward"):
        reg[pre + f"Taxonomy.{m}"] = method(_tax, m, {"Y": Y3}, Y=MULTI)
    reg[pre + "Taxonomy.encode"] = method(
        _tax,
        "encode",
        {"label_sets": [["a", "b"], ["d"]], "close": True},
        label_sets=Skip("lists of label names (KeyError naming an unknown one)"),
        close=FLAG,
    )
    reg[pre + "Taxonomy.restrict"] = method(
        _tax, "restrict", {"keep": [0, 1]}, keep=Array(ndim_probe=False)
    )
    reg[pre + "Taxonomy.from_edges"] = fn(
        H.Taxonomy.from_edges,
        {"edges": [("a", "b"), ("a", "c")], "virtual_root": None, "nodes": None, "roots": None},
        edges=Skip("(parent, child) name pairs (TaxonomyError naming a bad edge)"),
        virtual_root=NAME,
        nodes=Skip("label names"),
        roots=Skip("label names"),
    )
    reg[pre + "Taxonomy.from_parent_map"] = fn(
        H.Taxonomy.from_parent_map,
        {"mapping": {"a": None, "b": "a"}},
        mapping=Skip("a mapping of name to parent name or None"),
    )

    # ------------------------------------------------------------------ label model
    reg[pre + "HierarchicalLabelModel"] = fn(
        H.HierarchicalLabelModel,
        lambda: {"taxonomy": _tax(), "U": _model().U.copy()},
        taxonomy=TAX,
        U=Array(),
    )
    for m in ("marginals", "margins", "probabilities", "reference_predict"):
        reg[pre + f"HierarchicalLabelModel.{m}"] = method(_model, m, {"X": X3}, X=Array(empty=True))
    reg[pre + "HierarchicalLabelModel.sample"] = method(
        _model, "sample", {"X": X3, "seed": 0}, X=Array(empty=True), seed=SEED
    )
    reg[pre + "HierarchicalLabelModel.expected_h_loss"] = method(
        _model,
        "expected_h_loss",
        {"X": X3, "Yhat": Y3, "costs": [1.0, 2.0, 1.0, 1.0], "per_node": False},
        X=Array(),
        Yhat=MULTI,
        costs=Array(ndim_probe=True),
        per_node=FLAG,
    )
    reg[pre + "subtree_costs"] = fn(
        H.subtree_costs,
        lambda: {"taxonomy": _tax(), "costs": [1.0, 0.5, 0.5, 1.0]},
        taxonomy=TAX,
        costs=Array(ndim_probe=True),
    )
    reg[pre + "expected_parent_positives"] = fn(
        H.expected_parent_positives,
        lambda: {"model": _model(), "X": X3},
        model=MODEL,
        X=Array(empty=True),
    )
    reg[pre + "log_det_term"] = fn(H.log_det_term, {"S": X3}, S=Array(empty=True))
    reg[pre + "eq7_log_term"] = fn(
        H.eq7_log_term,
        {"expected_Q": [1.0, 2.0], "d": 2},
        expected_Q=Array(empty=True, ndim_probe=False),
        d=Int(1),
    )
    reg[pre + "theorem2_bound"] = fn(
        H.theorem2_bound,
        lambda: {"model": _model(), "X": X3, "V": V3, "costs": None, "kind": "theorem2"},
        model=MODEL,
        X=Array(),
        V=Array(),
        costs=Skip("node costs or None (checked as in h_loss)"),
        kind=Choice(("theorem2", "eq7")),
    )
    reg[pre + "Theorem2Bound"] = record(H.Theorem2Bound)

    # ------------------------------------------------------------------ corpus
    reg[pre + "HierarchicalCorpus"] = fn(
        H.HierarchicalCorpus,
        lambda: {
            "X": sp.csr_matrix(X3),
            "V": sp.csr_matrix(V3),
            "taxonomy": _tax(),
            "name": "tiny",
            "doc_ids": np.array([3, 1, 2]),
            "provenance": "",
        },
        X=Skip("a sparse matrix with unit-norm rows (regression tests)"),
        V=Skip("sparse 0/1 multilabels respecting the taxonomy (regression tests)"),
        taxonomy=TAX,
        name=NAME,
        doc_ids=Skip("integer document ids"),
        provenance=NAME,
    )
    reg[pre + "HierarchicalCorpus.subset"] = _method(
        _corpus,
        "subset",
        {"index": np.array([0, 2]), "name": None},
        index=Skip("integer indices or a boolean mask"),
        name=NAME,
    )
    reg[pre + "CorpusFormatError"] = record(H.CorpusFormatError)
    reg[pre + "paths_per_document"] = fn(
        H.paths_per_document, lambda: {"V": V3, "taxonomy": _tax()}, V=MULTI, taxonomy=TAX
    )
    reg[pre + "label_statistics"] = fn(
        H.label_statistics,
        lambda: {"V": V3, "taxonomy": _tax(), "X": None},
        V=MULTI,
        taxonomy=TAX,
        X=Skip("instances or None"),
    )
    reg[pre + "chronological_splits"] = fn(
        H.chronological_splits,
        lambda: {"corpus": _corpus(), "n_groups": 3},
        corpus=CORPUS,
        n_groups=Int(2),
    )
    reg[pre + "random_splits"] = fn(
        H.random_splits,
        lambda: {"corpus": _corpus(), "n_splits": 2, "n_train": 2, "seed": 0, "n_test": 1},
        corpus=CORPUS,
        n_splits=Int(1),
        n_train=Int(1),
        seed=SEED,
        n_test=Int(1, optional=True),
    )

    # ------------------------------------------------------------------ text vectors
    reg[pre + "normalize_rows"] = fn(
        H.normalize_rows, {"X": sp.csr_matrix(X3 * 2.0)}, X=Skip("a sparse matrix")
    )
    reg[pre + "TfIdf"] = record(H.TfIdf)
    reg[pre + "hash_features"] = fn(
        H.hash_features,
        {"X": sp.csr_matrix(X3), "vocabulary": ("a", "b"), "n_features": 4, "salt": 0},
        X=Skip("a sparse matrix"),
        vocabulary=Skip("one str per column"),
        n_features=Int(1),
        salt=Int(0, maximum=2**32 - 1),
    )

    _declare_models(reg, H, pre)
    _declare_protocol(reg, H, pre)
    _declare_benchmark(reg, H, pre)
    _declare_loaders(reg, H, pre)
    _declare_data_folders(reg, H, pre)


def _declare_models(reg: dict, H: Any, pre: str) -> None:
    """Synthetic data and the Section 5 experiments."""
    for f in ("figure2_example", "rcv1_like_forest"):
        reg[pre + f] = fn(getattr(H, f), {})
    for f in ("paper_table1", "paper_table2"):
        reg[pre + f] = fn(getattr(H, f), {"dataset": "RCV1"}, dataset=Choice(("RCV1", "OHSUMED")))
    reg[pre + "hloss_definition_checks"] = fn(
        H.hloss_definition_checks, {"n_cases": 3, "seed": 0}, n_cases=Int(1), seed=SEED
    )
    reg[pre + "orthonormal_model"] = fn(
        H.orthonormal_model, lambda: {"taxonomy": _tax(), "d": 5, "seed": 0},
        taxonomy=TAX, d=Int(4), seed=SEED,
    )  # fmt: skip
    reg[pre + "random_model"] = fn(
        H.random_model, lambda: {"taxonomy": _tax(), "d": 2, "seed": 0},
        taxonomy=TAX, d=Int(1), seed=SEED,
    )  # fmt: skip
    reg[pre + "margin_floor_instances"] = fn(
        H.margin_floor_instances,
        lambda: {"model": H.orthonormal_model(_tax(), 5, seed=0), "T": 3, "gamma": 0.1, "seed": 0},
        model=Skip("a HierarchicalLabelModel with orthonormal u_i (ValueError otherwise)"),
        T=Int(1),
        gamma=Real(0.0, 0.5, low_open=True),
        seed=SEED,
    )
    reg[pre + "sphere_instances"] = fn(
        H.sphere_instances,
        lambda: {"model": _model(), "T": 3, "gamma": 0.01, "seed": 0, "max_draws": 10**5},
        model=MODEL,
        T=Int(1),
        gamma=Real(0.0, 1.0, high_open=True),
        seed=SEED,
        max_draws=Int(1),
    )
    reg[pre + "hrls_primal"] = fn(
        H.hrls_primal, lambda: {"taxonomy": _tax(), "X": X3, "V": V3},
        taxonomy=TAX, X=Array(), V=Array(),
    )  # fmt: skip
    reg[pre + "theorem2_experiment"] = fn(
        H.theorem2_experiment,
        lambda: {"model": _model(), "X": X3, "reps": 1, "seed": 0, "checkpoints": [1, 3]},
        model=MODEL,
        X=Array(),
        reps=Int(1),
        seed=SEED,
        checkpoints=Skip("horizons in 1 … T (ValueError naming them)"),
        costs=Array(ndim_probe=True),
    )
    reg[pre + "reference_bayes_gap"] = fn(
        H.reference_bayes_gap,
        lambda: {"model": _model(), "X": X3, "costs": [1.0, 2.0, 1.0, 0.5]},
        model=MODEL,
        X=Array(),
        costs=Array(ndim_probe=True),
    )
    reg[pre + "uniform_guess_regret"] = fn(
        H.uniform_guess_regret,
        lambda: {"model": _model(), "X": X3, "reps": 1, "seed": 0, "checkpoints": [1, 3]},
        model=MODEL,
        X=Array(),
        reps=Int(1),
        seed=SEED,
        checkpoints=Skip("horizons in 1 … T (ValueError naming them)"),
        costs=Array(ndim_probe=True),
    )
    reg[pre + "lemma_rounds"] = fn(
        H.lemma_rounds,
        lambda: {"model": _model(), "X": X3, "reps": 1, "seed": 0, "checkpoints": [1, 3]},
        model=MODEL,
        X=Array(),
        reps=Int(1),
        seed=SEED,
        checkpoints=Skip("horizons in 1 … T (ValueError naming them)"),
        costs=Skip("node costs or None (checked as in h_loss)"),
    )
    reg[pre + "lemma_probe"] = fn(
        H.lemma_probe,
        {"lemma": "9", "starts": 1, "seed": 0, "d": 2, "n": 3, "m_over_alpha": 2.0},
        lemma=Choice(("7", "8", "9")),
        starts=Int(1),
        seed=SEED,
        d=Int(1),
        n=Int(1),
        m_over_alpha=Real(0.0, low_open=True),
    )
    reg[pre + "LemmaRounds"] = record(H.LemmaRounds)
    reg[pre + "synthetic_rcv1_like"] = fn(
        H.synthetic_rcv1_like,
        lambda: {
            "n_docs": 4,
            "seed": 0,
            "n_features": 30,
            "nnz": 5.0,
            "latent_weight": 0.9,
            "bias": 3.0,
            "depth_weights": (1.0, 0.3),
            "topic_share": 0.5,
            "topic_size": 5,
            "zipf_exponent": 1.1,
            "taxonomy": _tax(),
            "label_sets": V3,
            "targets": [0.6, 0.5, 0.5, 0.4],
            "return_design": False,
        },
        n_docs=Int(1),
        seed=SEED,
        n_features=Int(6),
        nnz=Real(1.0),
        latent_weight=Real(0.0, 1.0, low_open=True, high_open=True),
        bias=Real(0.0),
        depth_weights=Array(),
        topic_share=Real(0.0, 1.0),
        topic_size=Int(1),
        zipf_exponent=Real(0.0, low_open=True),
        taxonomy=Skip("a Taxonomy or None (RCV1's)"),
        label_sets=Skip("multilabels respecting the taxonomy, or None"),
        targets=Array(ndim_probe=False),
        return_design=FLAG,
    )
    for rec in ("SyntheticDesign", "RegretResult", "ProtocolResult"):
        reg[pre + rec] = record(getattr(H, rec))
    _declare_rates(reg, H, pre)


def _rate_runs() -> Any:
    from mlgeom.hierarchical import rate_runs

    return rate_runs(_tax(), 2, 12, reps=2, seed=0, checkpoints=[1, 6, 12])


def _per_splits() -> Any:
    import pandas as pd

    cols = ["PERC", "H-PERC", "S-RLS", "SH-RLS", "SVM", "H-SVM", "S-RLS (truncated)"]
    rng = np.random.default_rng(0)
    per = pd.DataFrame({c: 1.0 + rng.uniform(0, 0.5, 3) for c in cols})
    per["empty prediction"] = 1.2 + rng.uniform(0, 0.1, 3)
    return per


def _declare_rates(reg: dict, H: Any, pre: str) -> None:
    """Theorem 2 against a √T learner and the intervals of issue 31."""
    for f in ("hogd_predictions", "hrls_predictions"):
        extra = {"eta0": 1.0} if f == "hogd_predictions" else {}
        doms = {"eta0": Real(0.0, low_open=True)} if extra else {}
        reg[pre + f] = fn(
            getattr(H, f),
            lambda extra=extra: {"taxonomy": _tax(), "X": X3, "V": V3, **extra},
            taxonomy=TAX,
            X=Array(),
            V=Array(),
            **doms,
        )
    reg[pre + "rate_runs"] = fn(
        H.rate_runs,
        lambda: {
            "taxonomy": _tax(),
            "d": 2,
            "T": 12,
            "reps": 1,
            "seed": 0,
            "design": "sphere",
            "gamma": 0.01,
            "eta0": 1.0,
            "checkpoints": [1, 12],
        },
        taxonomy=TAX,
        d=Int(1),
        T=Int(1),
        reps=Int(1),
        seed=SEED,
        design=Choice(("sphere", "orthonormal")),
        gamma=Real(0.0, 1.0, low_open=True, high_open=True),
        eta0=Real(0.0, low_open=True),
        checkpoints=Skip("horizons in 1 … T (ValueError naming them)"),
    )
    reg[pre + "RateRuns"] = record(H.RateRuns)
    reg[pre + "RateRuns.curves"] = method(
        _rate_runs,
        "curves",
        {"learner": "H-RLS"},
        learner=Choice(("H-RLS", "H-OGD", "uniform guessing")),
    )
    reg[pre + "last_decade"] = fn(
        H.last_decade,
        {"T": [10, 100], "T_max": None},
        T=Array(),
        T_max=Skip("an optional horizon (the largest T by default)"),
    )
    reg[pre + "forecast_log_vs_sqrt"] = fn(
        H.forecast_log_vs_sqrt,
        {"T": [10.0, 20.0, 50.0, 100.0, 1000.0], "R": [[1.0, 2.0, 3.0, 4.0, 6.0]]},
        T=Array(),
        R=Array(),
    )
    reg[pre + "corrected_split_interval"] = fn(
        H.corrected_split_interval,
        {"a": [1.0, 2.0, 3.0], "b": [0.0, 0.5, 0.0], "n_train": 2, "n_test": 1, "level": 0.95},
        a=Array(),
        b=Array(),
        n_train=Int(1),
        n_test=Int(1),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg[pre + "table1_orderings"] = fn(
        H.table1_orderings,
        lambda: {"per": _per_splits(), "n_train": 4, "n_test": 2, "empty": "empty prediction"},
        per=Skip("a DataFrame of per-split losses (TypeError / ValueError naming it)"),
        n_train=Int(1),
        n_test=Int(1),
        empty=Skip("the strawman's column name (ValueError otherwise)"),
    )


_CACHE: dict[str, Any] = {}


def _result() -> Any:
    """A tiny protocol run (PERC and H-PERC plus the empty prediction), computed once."""
    import mlgeom.hierarchical as H

    if "result" not in _CACHE:
        c = _corpus6()
        splits = _splits()
        res = H.run_protocol(c, splits, algorithms=("PERC", "H-PERC"), n_jobs=1)
        _CACHE["result"] = H.with_empty_prediction(res, c, splits)
    return _CACHE["result"]


def _corpus6() -> Any:
    from mlgeom.hierarchical import HierarchicalCorpus

    X = np.vstack([X3, X3[::-1]])
    V = np.vstack([V3, V3[::-1]])
    return HierarchicalCorpus(
        sp.csr_matrix(X), sp.csr_matrix(V), _tax(), "tiny6", np.arange(6), "test"
    )


def _splits() -> list:
    return [(np.array([0, 1, 2, 3]), np.array([4, 5])), (np.array([2, 3, 4, 5]), np.array([0, 1]))]


def _t2() -> Any:
    import mlgeom.hierarchical as H

    return H.table2(_result(), "RCV1", algorithms=("H-PERC", H.EMPTY))


def _declare_protocol(reg: dict, H: Any, pre: str) -> None:
    """Section 8's protocol and its tables."""
    algs = Skip("algorithm names (ValueError naming an unknown one)")
    reg[pre + "run_protocol"] = fn(
        H.run_protocol,
        lambda: {
            "corpus": _corpus6(),
            "splits": _splits()[:1],
            "algorithms": ("H-PERC",),
            "params": None,
            "cost_sets": None,
            "n_jobs": 1,
            "truncate_flat": False,
        },
        corpus=CORPUS,
        splits=Skip("(train, test) index pairs"),
        algorithms=algs,
        params=Skip("constructor parameters per algorithm"),
        cost_sets=Skip("a mapping of label to node costs"),
        n_jobs=Int(1, optional=True),
        truncate_flat=FLAG,
    )
    reg[pre + "with_empty_prediction"] = fn(
        H.with_empty_prediction,
        lambda: {"result": _result(), "corpus": _corpus6(), "splits": _splits(), "cost_sets": None},
        result=RESULT,
        corpus=CORPUS,
        splits=Skip("(train, test) index pairs"),
        cost_sets=Skip("a mapping of label to node costs"),
    )
    reg[pre + "split_losses"] = fn(
        H.split_losses,
        lambda: {"result": _result(), "loss": "uniform H-loss"},
        result=RESULT,
        loss=Choice(("uniform H-loss", "zero-one", "Δ-loss")),
    )
    reg[pre + "table1"] = fn(
        H.table1,
        lambda: {"result": _result(), "dataset": "RCV1"},
        result=RESULT,
        dataset=Choice(("RCV1", "OHSUMED")),
    )
    reg[pre + "table2"] = fn(
        H.table2,
        lambda: {
            "result": _result(),
            "dataset": "OHSUMED",
            "per_docs": 1000,
            "algorithms": ("H-PERC",),
        },
        result=RESULT,
        dataset=Choice(("RCV1", "OHSUMED")),
        per_docs=Int(1, optional=True),
        algorithms=algs,
    )
    reg[pre + "profile_distance"] = fn(
        H.profile_distance,
        lambda: {"t2": _t2(), "a": "H-PERC", "b": H.EMPTY, "column": "mean"},
        t2=Skip("a table2 DataFrame"),
        a=Choice(("H-PERC",)),
        b=Choice(("H-PERC",)),
        column=Choice(("mean", "std", "paper")),
    )

    def axes() -> Any:
        import matplotlib.figure

        return matplotlib.figure.Figure().subplots(1, 2)

    reg[pre + "plot_figure4"] = fn(
        H.plot_figure4,
        lambda: {"axes": axes(), "t2": _t2(), "paper": True},
        axes=Skip("matplotlib Axes"),
        t2=Skip("a table2 DataFrame"),
        paper=FLAG,
    )
    reg[pre + "cost_ranking"] = fn(
        H.cost_ranking,
        lambda: {"result": _result(), "columns": ["uniform H-loss"]},
        result=RESULT,
        columns=Skip("loss columns of result.runs"),
    )
    reg[pre + "work_counts"] = _spec_name(
        H.work_counts,
        lambda: {"name": "SH-RLS", "taxonomy": _tax(), "X": X3, "V": V3},
        name=Choice(tuple(H.LEARNERS)),
        taxonomy=TAX,
        X=Array(),
        V=Array(),
    )
    reg[pre + "cost_table"] = fn(
        H.cost_table,
        lambda: {
            "taxonomy": _tax(),
            "X": sp.csr_matrix(X3),
            "V": V3,
            "sizes": [1, 3],
            "algorithms": ("PERC", "SH-RLS"),
            "n_jobs": 1,
        },
        taxonomy=TAX,
        X=Skip("instances (validated by the learners)"),
        V=Skip("multilabels (validated by the learners)"),
        sizes=Array(),
        algorithms=algs,
        n_jobs=Int(1, optional=True),
    )


def _spec_name(obj: Any, valid: Any, **domains: Any) -> Spec:
    """Like ``fn`` but allows a parameter called ``obj``-clashing names (``name``)."""
    return Spec(lambda: obj, valid, domains)


def _declare_loaders(reg: dict, H: Any, pre: str) -> None:
    """Corpus readers on the test fixtures, and the shipped samples."""
    from pathlib import Path

    fix = Path(__file__).parent / "hierarchical" / "fixtures"
    rc, oh = fix / "rcv1", fix / "ohsumed"
    for f in (
        "rcv1_taxonomy",
        "rcv1_topic_names",
        "rcv1_label_stats",
        "load_rcv1_sample",
        "load_ohsumed_sample",
    ):
        reg[pre + f] = fn(getattr(H, f), {})
    reg[pre + "corpus_for_profile"] = fn(
        H.corpus_for_profile,
        lambda: {"profile": "book", "load": H.load_rcv1, "sample": lambda: 0, "name": "RCV1"},
        profile=Choice(("smoke", "book", "paper")),
        load=Skip("a callable (ValueError naming it otherwise); called only at paper"),
        sample=Skip("a callable (ValueError naming it otherwise)"),
        name=NAME,
    )
    reg[pre + "read_vectors"] = fn(
        H.read_vectors,
        {"path": rc / "lyrl2004_vectors_train.dat", "n_features": 47236, "max_docs": 2},
        path=PATH,
        n_features=Int(1),
        max_docs=Int(1, optional=True),
    )
    reg[pre + "read_hierarchy"] = fn(
        H.read_hierarchy, {"path": rc / "rcv1.topics.hier.orig"}, path=PATH
    )
    reg[pre + "read_qrels"] = fn(
        H.read_qrels,
        lambda: {
            "path": rc / "rcv1-v2.topics.qrels",
            "topics": H.read_hierarchy(rc / "rcv1.topics.hier.orig")[0],
            "docs": None,
        },
        path=PATH,
        topics=Skip("topic names or a Taxonomy"),
        docs=Skip("document ids or None"),
    )
    reg[pre + "load_rcv1_files"] = fn(
        H.load_rcv1_files,
        {
            "vector_files": [
                rc / "lyrl2004_vectors_train.dat",
                rc / "lyrl2004_vectors_test_pt0.dat",
            ],
            "qrels_file": rc / "rcv1-v2.topics.qrels",
            "hierarchy_file": None,
            "n_docs": 7,
            "n_features": 47236,
        },
        vector_files=Skip("paths"),
        qrels_file=PATH,
        hierarchy_file=Skip("a path or None"),
        n_docs=Int(1),
        n_features=Int(1),
    )
    reg[pre + "corpus_from_vectors"] = _spec_name(
        H.corpus_from_vectors,
        lambda: {
            "doc_ids": np.array([1, 2]),
            "X": sp.csr_matrix(X3[:2]),
            "topics_by_doc": {1: ["b"], 2: ["d"]},
            "taxonomy": _tax(),
            "n_docs": 2,
            "name": "tiny",
            "provenance": "",
        },
        doc_ids=Skip("integer document ids"),
        X=Skip("a sparse matrix with unit-norm rows"),
        topics_by_doc=Skip("a mapping of document id to topic names"),
        taxonomy=TAX,
        n_docs=Int(1, optional=True),
        name=NAME,
        provenance=NAME,
    )
    reg[pre + "read_records"] = fn(H.read_records, {"path": oh / "ohsumed.87"}, path=PATH)
    reg[pre + "read_sample_folder"] = fn(
        H.read_sample_folder, {"folder": oh / "sample"}, folder=PATH
    )
    reg[pre + "read_mtrees"] = fn(H.read_mtrees, {"path": oh / "mtrees_fixture.bin"}, path=PATH)
    reg[pre + "parse_records"] = fn(
        H.parse_records,
        lambda: {"lines": (oh / "ohsumed.87").read_text().splitlines(True), "source": "x"},
        lines=Skip("text lines"),
        source=NAME,
    )
    reg[pre + "mesh_subtree"] = fn(
        H.mesh_subtree,
        lambda: {"mtrees": H.read_mtrees(oh / "mtrees_fixture.bin"), "root": "N05.715"},
        mtrees=Skip("a mapping of heading to tree numbers"),
        root=Skip("a MeSH tree number (ValueError naming one with no descriptor)"),
    )
    reg[pre + "ohsumed_corpus"] = _spec_name(
        H.ohsumed_corpus,
        lambda: {
            "records": H.read_records(oh / "ohsumed.87"),
            "mtrees": H.read_mtrees(oh / "mtrees_fixture.bin"),
            "root": "N05.715",
            "min_count": 3,
            "drop_unused": True,
            "name": "tiny",
            "provenance": "",
        },
        records=Skip("OhsumedRecord objects"),
        mtrees=Skip("a mapping of heading to tree numbers"),
        root=Skip("a MeSH tree number"),
        min_count=Int(1),
        drop_unused=FLAG,
        name=NAME,
        provenance=NAME,
    )
    reg[pre + "Taxonomy.from_edge_file"] = fn(
        H.Taxonomy.from_edge_file,
        {"path": rc.parent / "tiny.taxonomy", "virtual_root": "Root"},
        path=PATH,
        virtual_root=NAME,
    )
    for rec in ("MeshSubtree", "OhsumedRecord"):
        reg[pre + rec] = record(getattr(H, rec))


# ---------------------------------------------------------------------- data folders
@dataclass(frozen=True)
class IntIn:
    """One of a few integers: probes a fraction, NaN, a str, one below, one above, one between."""

    options: tuple[int, ...]

    def probes(self, valid: Any) -> list[Any]:
        lo, hi = min(self.options), max(self.options)
        between = [v for v in range(lo, hi) if v not in self.options][:1]
        return [lo + 0.5, NAN, str(lo), lo - 1, hi + 1, *between]


@dataclass(frozen=True)
class IntSubset:
    """Distinct integers from ``options``: Array's probes plus one outside, a fraction, a repeat."""

    options: tuple[int, ...]

    def probes(self, valid: Any) -> list[Any]:
        lo, hi = min(self.options), max(self.options)
        extra = [[lo - 1], [hi + 1], [lo + 0.5], [lo, lo]]
        return [*Array().probes(valid), *(np.array(e) for e in extra)]


_TMP: list[Path] = []
_FOLDERS: dict[str, Any] = {}


def _folder(name: str, make: Any) -> Any:
    """``make(folder)`` in a fresh sub-folder of one temporary folder, once per process."""
    if name not in _FOLDERS:
        if not _TMP:
            _TMP.append(Path(tempfile.mkdtemp(prefix="mlgeom-api-domains-")))
            atexit.register(shutil.rmtree, _TMP[0], True)
        folder = _TMP[0] / name
        folder.mkdir()
        _FOLDERS[name] = make(folder)
    return _FOLDERS[name]


def _t1_record() -> Any:
    """A fresh record of the chapter's claims (its registry read once), saved nowhere."""
    from mlgeom.book.claims import ClaimsRecord
    from mlgeom.book.registry import load_registry

    if "registry" not in _FOLDERS:
        _FOLDERS["registry"] = load_registry("hierarchical_classification")
    out = _folder("claims", lambda folder: folder)
    return ClaimsRecord("hierarchical_classification", "book", out, _FOLDERS["registry"])


def _declare_data_folders(reg: dict, H: Any, pre: str) -> None:
    """Loaders of a manifest's data folder, on fixture folders written to a temporary folder
    (``tests/hierarchical/fixture_data.py``), and the Table 1 claims."""
    from tests.hierarchical import fixture_data as F

    manifest = Skip("a parsed manifest (a dataset it lacks or a bad entry raises DataError)")
    root = Skip("a data folder (missing or corrupt files raise DataError naming them)")

    def rcv1() -> dict:
        base, m = _folder("lyrl", F.lyrl_root)
        return {"n_docs": 6, "root": base, "manifest": m, "data_home": None}

    reg[pre + "load_rcv1"] = fn(
        H.load_rcv1,
        rcv1,
        n_docs=Int(1),
        root=root,
        manifest=manifest,
        data_home=Skip("scikit-learn's data folder, read only without the manifest's files"),
    )
    reg[pre + "corpus_from_sklearn"] = fn(
        H.corpus_from_sklearn,
        lambda: {
            "bunch": _folder("bunch", lambda folder: F.fetch_rcv1_bunch()),
            "taxonomy": H.rcv1_taxonomy(),
            "n_docs": 6,
        },
        bunch=Skip("a fetch_rcv1 result (data, target, sample_id, target_names)"),
        taxonomy=TAX,
        n_docs=Int(1),
    )

    def ohsumed() -> dict:
        base, m = _folder("ohsumed", F.ohsumed_root)
        return {
            "years": (87, 88),
            "mesh_year": 1997,
            "mesh_file": None,
            "root": base,
            "manifest": m,
        }

    reg[pre + "load_ohsumed"] = fn(
        H.load_ohsumed,
        ohsumed,
        years=IntSubset((87, 88, 89, 90, 91)),
        mesh_year=IntIn((1997, 2005)),  # the MeSH years the project's manifest lists
        mesh_file=Skip(
            "a MeSH tree file or None (missing: DataError; neither the pinned copy nor of a "
            "MeSH file's shape: CorpusFormatError naming it)"
        ),
        root=root,
        manifest=manifest,
    )

    def build() -> dict:
        raw, m = _folder("raw", F.raw_root)
        return {"out": raw.parent / "built", "raw": raw, "manifest": m}

    reg[pre + "build"] = fn(
        H.build,
        build,
        out=Skip("the output folder (created if missing)"),
        raw=root,
        manifest=manifest,
    )
    reg[pre + "corpus_statistics"] = fn(
        H.corpus_statistics, lambda: {"corpus": _corpus()}, corpus=Instance("HierarchicalCorpus")
    )
    reg[pre + "record_corpus_claims"] = fn(
        H.record_corpus_claims,
        lambda: {"record": _t1_record(), "key": "rcv1", "corpus": _corpus()},
        record=Skip("a ClaimsRecord (the registry's hier.data.<key>.* ids are measured)"),
        key=Choice(("rcv1", "ohsumed")),
        corpus=Instance("HierarchicalCorpus"),
    )
    reg[pre + "record_table1_orderings"] = fn(
        H.record_table1_orderings,
        lambda: {
            "record": _t1_record(),
            "prefix": "hier.bench.facets",
            "per": _per_splits(),  # losses that vary over the splits (no zero-width interval)
            "scale": "4 splits",
            "others": ("H-PERC", "PERC", "SVM"),
        },
        record=Skip("a ClaimsRecord whose registry holds the ids <prefix>.*"),
        prefix=Skip("the claim ids' prefix (an id not in the registry raises)"),
        per=Instance("DataFrame"),
        scale=NAME,
        others=Skip("learners from S-RLS, H-PERC, PERC, SVM whose ids the registry holds"),
        interval=Skip("a callable (a, b) -> Interval, or None (TypeError otherwise)"),
    )


def _bench_runs() -> tuple[Any, Any]:
    """A tiny facet benchmark and its control, all six learners, 10 splits (computed once)."""
    import mlgeom.hierarchical as H

    if "bench" not in _CACHE:
        kw = dict(taxonomy=_tax(), label_sets=V3, vocab_size=4, background_size=20, noise=0.1)
        runs = []
        for shared in (True, False):
            b = H.facet_benchmark(120, seed=0, shared=shared, **kw)
            runs.append(H.benchmark_protocol(b, [6, 12], 10, n_test=12, n_jobs=1))
        _CACHE["bench"] = tuple(runs)
    return _CACHE["bench"]


def _tiny_bench() -> Any:
    import mlgeom.hierarchical as H

    return H.facet_benchmark(40, seed=0, taxonomy=_tax(), label_sets=V3, vocab_size=4,
                             background_size=20)  # fmt: skip


def _declare_benchmark(reg: dict, H: Any, pre: str) -> None:
    """The facet benchmark of issue 14 and its Bayes reference (:mod:`.benchmark`)."""
    runs = Skip("a benchmark_protocol DataFrame (ValueError naming the parameter otherwise)")
    reg[pre + "facet_sources"] = fn(
        H.facet_sources, lambda: {"taxonomy": _tax(), "shared": True}, taxonomy=TAX, shared=FLAG
    )
    reg[pre + "noise_marginals"] = fn(
        H.noise_marginals,
        lambda: {"taxonomy": _tax(), "T": V3, "noise": 0.1, "scope": "leaves"},
        taxonomy=TAX,
        T=MULTI,
        noise=Real(0.0, 1.0),
        scope=Choice(H.NOISE_SCOPES),
    )
    reg[pre + "expected_label_flips"] = fn(
        H.expected_label_flips,
        lambda: {"taxonomy": _tax(), "T": V3, "noise": 0.1, "scope": "leaves"},
        taxonomy=TAX,
        T=Array(),  # at least one row: the mean over no label sets is undefined
        noise=Real(0.0, 1.0),
        scope=Choice(H.NOISE_SCOPES),
    )
    reg[pre + "matched_leaf_noise"] = fn(
        H.matched_leaf_noise,
        lambda: {"taxonomy": _tax(), "T": V3, "noise": 0.1},
        taxonomy=TAX,
        T=Array(),  # at least one row: the mean over no label sets is undefined
        noise=Real(0.0, 1.0),
    )
    reg[pre + "noise_rates"] = fn(
        H.noise_rates,
        lambda: {"taxonomy": _tax(), "noise": 0.1, "scope": "leaves"},
        taxonomy=TAX,
        noise=Real(0.0, 1.0),
        scope=Choice(H.NOISE_SCOPES),
    )
    reg[pre + "sample_noisy_labels"] = fn(
        H.sample_noisy_labels,
        lambda: {"taxonomy": _tax(), "T": V3, "noise": 0.1, "rng": 0, "scope": "leaves"},
        taxonomy=TAX,
        T=MULTI,
        noise=Real(0.0, 1.0),
        rng=SEED,
        scope=Choice(H.NOISE_SCOPES),
    )
    reg[pre + "bayes_h_predict"] = fn(
        H.bayes_h_predict,
        lambda: {"taxonomy": _tax(), "q": V3 * 0.5, "costs": np.ones(4)},
        taxonomy=TAX,
        q=Array(empty=True),
        costs=Array(),
    )
    reg[pre + "facet_benchmark"] = fn(
        H.facet_benchmark,
        lambda: {
            "n_docs": 5,
            "seed": 0,
            "shared": True,
            "noise": 0.05,
            "noise_scope": "all",
            "vocab_size": 4,
            "words_per_source": 3,
            "background_words": 5,
            "background_size": 20,
            "zipf_exponent": 1.1,
            "taxonomy": _tax(),
            "label_sets": V3,
        },
        n_docs=Int(1),
        seed=SEED,
        shared=FLAG,
        noise=Real(0.0, 1.0, high_open=True),
        noise_scope=Choice(H.NOISE_SCOPES),
        vocab_size=Int(1),
        words_per_source=Int(1),
        background_words=Int(0),
        background_size=Int(1),
        zipf_exponent=Real(0.0, low_open=True),
        taxonomy=Skip("a Taxonomy or None (RCV1's), given together with label_sets"),
        label_sets=Skip("multilabels respecting the taxonomy, or None"),
    )
    reg[pre + "benchmark_protocol"] = fn(
        H.benchmark_protocol,
        lambda: {
            "bench": _tiny_bench(),
            "sizes": [4],
            "n_groups": 4,
            "n_test": 5,
            "algorithms": ("H-PERC",),
            "n_jobs": 1,
            "truncate_flat": True,
        },
        bench=Skip("a FacetBenchmark (ValueError naming the parameter otherwise)"),
        sizes=Skip("training sizes, each at most the group size (ValueError naming them)"),
        n_groups=Int(2),
        n_test=Int(1, optional=True),
        algorithms=Skip("algorithm names (ValueError naming an unknown one)"),
        n_jobs=Int(1, optional=True),
        truncate_flat=FLAG,
    )
    five = (
        "facets",
        "control",
        "clean_control",
        "leaf_noise_control",
        "matched_leaf_noise_control",
    )
    reg[pre + "benchmark_differences"] = fn(
        H.benchmark_differences,
        lambda: dict(zip(five, (*_bench_runs(), *_bench_runs(), _bench_runs()[1]), strict=True)),
        facets=runs,
        control=runs,
        clean_control=runs,
        leaf_noise_control=runs,
        matched_leaf_noise_control=runs,
        clean_facets=runs,
    )
    reg[pre + "benchmark_table"] = fn(
        H.benchmark_table,
        lambda: dict(zip(five, (*_bench_runs(), *_bench_runs(), _bench_runs()[1]), strict=True)),
        facets=runs,
        control=runs,
        clean_control=runs,
        leaf_noise_control=runs,
        matched_leaf_noise_control=runs,
        clean_facets=runs,
    )
    reg[pre + "tie_margin"] = fn(
        H.tie_margin,
        lambda: {"runs": _bench_runs()[1], "share": 0.1},
        runs=runs,
        share=Real(0.0, low_open=True),
    )
    reg[pre + "record_benchmark_claims"] = fn(
        H.record_benchmark_claims,
        lambda: {
            "record": _t1_record(),
            "facets": _bench_runs()[0],
            "control": _bench_runs()[1],
            "scale": "tiny",
            "clean_control": _bench_runs()[1],
            "leaf_noise_control": _bench_runs()[1],
            "matched_leaf_noise_control": _bench_runs()[1],
            "clean_facets": _bench_runs()[0],
        },
        record=Skip("a ClaimsRecord whose registry holds the ids hier.bench.*"),
        facets=runs,
        control=runs,
        scale=NAME,
        clean_control=runs,
        leaf_noise_control=runs,
        matched_leaf_noise_control=runs,
        clean_facets=runs,
    )

    def axes() -> Any:
        import matplotlib.figure

        return matplotlib.figure.Figure().subplots(1, 2)

    reg[pre + "plot_learning_curves"] = fn(
        H.plot_learning_curves,
        lambda: {"axes": axes(), "facets": _bench_runs()[0], "control": _bench_runs()[1]},
        axes=Skip("two matplotlib Axes (ValueError naming the parameter otherwise)"),
        facets=runs,
        control=runs,
        clean_control=Skip("a benchmark_protocol DataFrame or None (with one more axis)"),
        leaf_noise_control=Skip("a benchmark_protocol DataFrame or None (with one more axis)"),
        matched_leaf_noise_control=Skip(
            "a benchmark_protocol DataFrame or None (with one more axis)"
        ),
        clean_facets=Skip("a benchmark_protocol DataFrame or None (with one more axis)"),
    )
    reg[pre + "FacetBenchmark"] = record(H.FacetBenchmark)
