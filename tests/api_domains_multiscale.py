"""Declared domains of :mod:`mlgeom.multiscale` (issue 16), merged by test_api_domains."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from tests.api_domains import FLAG, SEED, Array, Choice, Int, Real, Skip, fn, method

RNG = Skip("a numpy.random.Generator (drawn from in place)")
SEEDS = Skip("a list of numpy.random.Generator, one per run (spawned by the caller)")


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _in_process(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` with :func:`mlgeom.parallel.pmap` run in place (no worker pool for a tiny call).

    ``functools.wraps`` keeps ``f``'s signature for the domain check; the probes still fail
    inside ``f``, before any sweep starts.
    """

    @functools.wraps(f)
    def run(*args: Any, **kwargs: Any) -> Any:
        old = os.environ.get("MLGEOM_BACKEND")
        os.environ["MLGEOM_BACKEND"] = "sequential"
        try:
            return f(*args, **kwargs)
        finally:
            if old is None:
                del os.environ["MLGEOM_BACKEND"]
            else:
                os.environ["MLGEOM_BACKEND"] = old

    return run


def declare(reg: dict) -> None:
    import mlgeom.multiscale as MS

    pre = "mlgeom.multiscale."
    q2 = [0.3, 0.2]
    label12 = Int(1, maximum=2)

    # ------------------------------------------------------------ contextual search
    bk_kw = {"d": 2, "radius": 1.0, "n_particles": 4, "n_steps": 1, "ball_tol": 1e-3, "seed": 0}
    reg[pre + "BallKnowledgeSet"] = fn(
        MS.BallKnowledgeSet,
        bk_kw,
        d=Int(1),
        radius=Real(0.0, low_open=True),
        n_particles=Int(2),
        n_steps=Int(0),
        ball_tol=Real(0.0, low_open=True),
        seed=SEED,
    )

    def bk() -> Any:
        return MS.BallKnowledgeSet(**bk_kw)

    reg[pre + "BallKnowledgeSet.contains"] = method(
        bk, "contains", {"X": [[0.1, 0.2], [2.0, 0.0]]}, X=Array(empty=True)
    )
    reg[pre + "BallKnowledgeSet.cut"] = method(
        bk, "cut", {"a": [1.0, 0.0], "b": 0.0}, a=Array(), b=Real()
    )
    for m in ("extent", "width"):
        reg[pre + f"BallKnowledgeSet.{m}"] = method(bk, m, {"q": [1.0, 0.0]}, q=Array())
    reg[pre + "BallKnowledgeSet.hit_and_run"] = method(
        bk, "hit_and_run", {"n_steps": 1}, n_steps=Int(0, optional=True)
    )
    reg[pre + "BallKnowledgeSet.minkowski_hit_and_run"] = method(
        bk,
        "minkowski_hit_and_run",
        {
            "Y": [[0.1, 0.2], [0.0, -0.3]],
            "z": 0.1,
            "n_steps": 1,
            "rng": 0,
            "cuts": None,
            "engine": "numpy",
        },
        Y=Array(empty=True),
        z=Real(0.0),
        n_steps=Int(0),
        rng=SEED,
        cuts=Skip("optional: the non-redundant cuts that replace A (irredundant_cuts)"),
        engine=Choice(("numpy", "compiled")),
    )
    reg[pre + "project_ball_cone"] = fn(
        MS.project_ball_cone,
        {"A": [[1.0, 0.0]], "Y": [[0.6, 0.8], [2.0, 0.0]], "radius": 1.0},
        A=Array(empty=True),
        Y=Array(empty=True),
        radius=Real(0.0, low_open=True),
    )

    # ------------------------------------------------------------ kernel maps
    reg[pre + "SparseVector"] = fn(  # checked since issue 34 (it took any index, any length)
        MS.SparseVector,
        {"indices": [0, 2], "values": [1.0, -2.0], "dim": 4},
        indices=Array(empty=True),
        values=Array(empty=True),
        dim=Int(1),
    )
    reg[pre + "SparseVector.to_dense"] = method(lambda: MS.H_i([0.3, 0.2], 1, 3.0), "to_dense", {})
    reg[pre + "T_map"] = fn(MS.T_map, {"x": q2}, x=Array())
    reg[pre + "Q_map"] = fn(MS.Q_map, {"q": q2}, q=Array())
    reg[pre + "Ker"] = fn(MS.Ker, {"x": 0.5, "p": 4}, x=Real(), p=Int(2))
    reg[pre + "G_even"] = fn(MS.G_even, {"y": [0.5, -0.2], "p": 4}, y=Array(), p=Int(2))
    reg[pre + "F_even"] = fn(
        MS.F_even, {"a": 0.5, "p": 4, "printed": False}, a=Real(), p=Int(2), printed=FLAG
    )
    reg[pre + "definition20_displayed"] = fn(
        MS.definition20_displayed, {"a": 0.5, "p": 4}, a=Real(), p=Int(2)
    )
    reg[pre + "H_even"] = fn(
        MS.H_even, {"z": [0.5, -0.2], "p": 4, "printed": False}, z=Array(), p=Int(2), printed=FLAG
    )
    reg[pre + "lemma_e1_rhs"] = fn(
        MS.lemma_e1_rhs, {"y": [0.5, -0.2], "z": [0.1, 0.3], "p": 4}, y=Array(), z=Array(), p=Int(2)
    )
    reg[pre + "D_map"] = fn(
        MS.D_map,
        {"x": [0.5, -0.2, 0.0], "p": 3.0},
        x=Array(empty=True, ndim_probe=False),
        p=Real(1.0),
    )
    reg[pre + "Ker_i"] = fn(
        MS.Ker_i, {"x": 0.1, "i": 1, "d": 2, "p": 3.0}, x=Real(), i=Int(1), d=Int(1), p=Real(1.0)
    )
    reg[pre + "F_i"] = fn(
        MS.F_i,
        {"x": 0.1, "i": 1, "d": 2, "p": 3.0, "printed": False},
        x=Real(-0.5, 0.5),
        i=Int(1),
        d=Int(1),
        p=Real(1.0),
        printed=FLAG,
    )
    reg[pre + "G_i"] = fn(
        MS.G_i, {"y": [0.3, -0.2], "i": 1, "p": 3.0}, y=Array(), i=Int(1), p=Real(1.0)
    )
    reg[pre + "H_i"] = fn(
        MS.H_i,
        {"z": [0.3, -0.2], "i": 1, "p": 3.0, "printed": False},
        z=Array(),
        i=Int(1),
        p=Real(1.0),
        printed=FLAG,
    )
    reg[pre + "sparse_dot"] = fn(
        MS.sparse_dot,
        lambda: {"y": [0.3, -0.2], "h": MS.H_i([0.1, 0.2], 1, 3.0), "i": 1, "p": 3.0},
        y=Array(),
        h=Skip("a SparseVector from H_i (its length is checked against i, d and p)"),
        i=Int(1),
        p=Real(1.0),
    )
    reg[pre + "claim28_constant"] = fn(MS.claim28_constant, {"p": 2.5}, p=Real(1.0, low_open=True))
    reg[pre + "claim28_remainder"] = fn(
        MS.claim28_remainder,
        {"x": [0.3, -0.2], "xp": [0.1, 0.2], "p": 3.0},
        x=Array(ndim_probe=False, empty=True),
        xp=Array(ndim_probe=False, empty=True),
        p=Real(1.0, low_open=True),
    )
    reg[pre + "holder_step_ratio"] = fn(
        MS.holder_step_ratio,
        {"y": [0.3, -0.2], "xp": [0.1, 0.2], "p": 3.5},
        y=Array(ndim_probe=False, empty=True),
        xp=Array(ndim_probe=False, empty=True),
        p=Real(1.0, low_open=True),
    )
    reg[pre + "lemma_e2_worst_case"] = fn(
        MS.lemma_e2_worst_case,
        {"p": 2.5, "scales": [1], "d": 2, "seed": 0, "n_starts": 1, "n_grid": 2},
        p=Real(1.0, low_open=True),
        scales=Array(),
        d=Int(1),
        seed=SEED,
        n_starts=Int(1),
        n_grid=Int(2),
    )
    for name in ("holder_step_worst_case", "claim28_worst_case"):
        reg[pre + name] = fn(
            getattr(MS, name),
            {"p": 2.5, "seed": 0, "n_starts": 1, "n_grid": 2},
            p=Real(1.0, low_open=True),
            seed=SEED,
            n_starts=Int(1),
            n_grid=Int(2),
        )
    reg[pre + "lemma_e1_error_exact"] = fn(
        MS.lemma_e1_error_exact,
        {"y": [0.5, -0.2], "z": [0.1, 0.3], "p": 4, "printed": False},
        y=Array(),
        z=Array(),
        p=Int(2),
        printed=FLAG,
    )
    reg[pre + "lemma_e2_error_exact"] = fn(
        MS.lemma_e2_error_exact,
        {"y": [0.3, -0.2], "z": [0.1, 0.2], "i": 1, "p": 3.0, "printed": False, "digits": 30},
        y=Array(),
        z=Array(),
        i=Int(1),
        p=Real(1.0),
        printed=FLAG,
        digits=Int(1),
    )

    # ------------------------------------------------------------ partition learners
    reg[pre + "cone_extent"] = fn(
        MS.cone_extent,
        {"A": [[1.0, 0.0]], "q": [0.6, 0.8], "radius": 1.0},
        A=Array(empty=True),
        q=Array(),
        radius=Real(0.0, low_open=True),
    )
    reg[pre + "lemma32_distribution"] = fn(
        MS.lemma32_distribution, {"M": [[0.0, 1.0], [-1.0, 0.0]]}, M=Array()
    )
    hl_kw = {"d": 2, "alpha": 1.0, "width_method": "cone", "seed": 0, "n_particles": 8}
    reg[pre + "HyperplaneLearner"] = fn(
        MS.HyperplaneLearner,
        hl_kw,
        d=Int(1),
        alpha=Real(0.0, low_open=True),
        width_method=Choice(("lp", "cone")),
        seed=SEED,
    )

    def hl() -> Any:
        return MS.HyperplaneLearner(**hl_kw)

    qh = [0.6, 0.8]
    for m in ("assess", "predict", "extent"):
        reg[pre + f"HyperplaneLearner.{m}"] = method(hl, m, {"q": qh}, q=Array())
    reg[pre + "HyperplaneLearner.decrease_if"] = method(
        hl,
        "decrease_if",
        {"q": qh, "true_label": 1, "predicted": 2},
        q=Array(),
        true_label=label12,
        predicted=label12,
    )
    reg[pre + "HyperplaneLearner.learn"] = method(
        hl,
        "learn",
        {"q": qh, "true_label": 1, "predicted": None},
        q=Array(),
        true_label=label12,
        predicted=Int(1, maximum=2, optional=True),
    )
    mc_kw = {
        "k": 3,
        "d": 2,
        "alpha": 1.0,
        "feature_map": None,
        "feature_dim": None,
        "width_method": "cone",
        "seed": 0,
        "n_particles": 8,
    }
    reg[pre + "MulticlassLearner"] = fn(
        MS.MulticlassLearner,
        mc_kw,
        k=Int(2),
        d=Int(1),
        alpha=Real(0.0, low_open=True),
        feature_map=Skip("a callable (the query map)"),
        feature_dim=Int(1, optional=True),
        width_method=Choice(("lp", "cone")),
        seed=SEED,
    )

    def mc() -> Any:
        return MS.MulticlassLearner(**mc_kw)

    reg[pre + "MulticlassLearner.round_matrices"] = method(
        mc, "round_matrices", {"f": qh}, f=Array()
    )
    reg[pre + "MulticlassLearner.step"] = method(
        mc, "step", {"q": qh, "true_label": 0}, q=Array(), true_label=Int(0, maximum=2)
    )

    # ------------------------------------------------------------ Algorithm 2, Theorem 13
    reg[pre + "ScaleSet"] = fn(
        MS.ScaleSet,
        lambda: {"n_particles": 4, "n_steps": 1, "rng": _rng()},
        n_particles=Int(1),
        n_steps=Int(0),
        rng=RNG,
    )

    def ss() -> Any:
        s = MS.ScaleSet(4, 1, _rng())
        s.cut(np.array([0, 3]), np.array([1.0, 1.0]), 0.5)
        return s

    sparse = {"idx": [0, 5], "vals": [1.0, -1.0]}
    for m in ("width", "side_counts"):
        reg[pre + f"ScaleSet.{m}"] = method(ss, m, sparse, idx=Array(), vals=Array())
    reg[pre + "ScaleSet.cut"] = method(
        ss, "cut", {**sparse, "b": 0.5}, idx=Array(), vals=Array(), b=Real()
    )
    ml_kw = {
        "d": 2,
        "p": 3.0,
        "n_scales": 2,
        "n_particles": 4,
        "n_steps": 1,
        "printed": False,
        "seed": 0,
    }
    reg[pre + "MultiscaleLearner"] = fn(
        MS.MultiscaleLearner,
        ml_kw,
        d=Int(1),
        p=Real(1.0),
        n_scales=Int(1),
        n_particles=Int(2),
        n_steps=Int(0),
        printed=FLAG,
        seed=SEED,
    )

    def ml() -> Any:
        return MS.MultiscaleLearner(**ml_kw)

    for m in ("assess", "scale"):
        reg[pre + f"MultiscaleLearner.{m}"] = method(ml, m, {"q": q2}, q=Array())
    reg[pre + "MultiscaleLearner.direction"] = method(
        ml, "direction", {"q": q2, "i": 1}, q=Array(), i=Int(1, maximum=2)
    )
    reg[pre + "MultiscaleLearner.step"] = method(
        ml, "step", {"q": q2, "true_label": 1}, q=Array(), true_label=label12
    )
    reg[pre + "MultiscaleLearner.update"] = method(
        ml,
        "update",
        lambda: {"a": ml().assess(q2), "true_label": 2},
        a=Skip("an assessment dict returned by assess"),
        true_label=label12,
    )
    reg[pre + "MultiscaleLearner.claim29_ball_parts"] = method(
        ml, "claim29_ball_parts", {"x1": [0.3, 0.0], "x2": [-0.3, 0.0]}, x1=Array(), x2=Array()
    )
    reg[pre + "MultiscaleLearner.centre_slack"] = method(
        ml,
        "centre_slack",
        {"x1": [0.3, 0.0], "x2": [-0.3, 0.0]},
        x1=Array(),
        x2=Array(),
        ball=FLAG,
    )
    mm_kw = {
        "k": 3,
        "d": 2,
        "p": 3.0,
        "Delta": 0.3,
        "n_scales": 2,
        "n_particles": 4,
        "n_steps": 1,
        "seed": 0,
    }
    reg[pre + "MultiscaleMulticlassLearner"] = fn(
        MS.MultiscaleMulticlassLearner,
        mm_kw,
        k=Int(2),
        d=Int(1),
        p=Real(2.0),
        Delta=Real(0.0, 2.0, low_open=True),
        n_scales=Int(1),
        n_particles=Int(2),
        n_steps=Int(0),
        seed=SEED,
    )

    def mm() -> Any:
        return MS.MultiscaleMulticlassLearner(**mm_kw)

    reg[pre + "MultiscaleMulticlassLearner.round_matrices"] = method(
        mm, "round_matrices", {"q": q2}, q=Array()
    )
    reg[pre + "MultiscaleMulticlassLearner.step"] = method(
        mm, "step", {"q": q2, "true_label": 0}, q=Array(), true_label=Int(0, maximum=2)
    )

    # ------------------------------------------------------------ streams and experiments
    reg[pre + "unit"] = fn(MS.unit, lambda: {"rng": _rng(), "d": 2}, rng=RNG, d=Int(1))
    reg[pre + "boundary_stream"] = fn(
        MS.boundary_stream,
        {"T": 3, "d": 2, "seed": 0, "beta": 0.5, "scale": 0.1},
        T=Int(1),
        d=Int(2),
        seed=SEED,
        beta=Real(0.0),
        scale=Real(0.0, 1.0),
    )
    reg[pre + "margin_stream"] = fn(
        MS.margin_stream,
        {"T": 3, "d": 2, "gamma": 0.2, "seed": 0},
        T=Int(1),
        d=Int(2),
        gamma=Real(0.0, 1.0, low_open=True),
        seed=SEED,
    )
    reg[pre + "mixed_margin_stream"] = fn(
        MS.mixed_margin_stream,
        {"T": 3, "d": 2, "seed": 0, "low": 5e-4, "high": 0.5},
        T=Int(1),
        d=Int(2),
        seed=SEED,
        low=Real(0.0, 1.0, low_open=True),
        high=Real(0.0, 1.0, low_open=True),
    )
    reg[pre + "nn_stream"] = fn(
        MS.nn_stream,
        {"T": 3, "k": 3, "d": 2, "seed": 0, "beta": 0.5},
        T=Int(1),
        k=Int(2),
        d=Int(2),
        seed=SEED,
        beta=Real(),
    )
    reg[pre + "margin_nn_stream"] = fn(
        MS.margin_nn_stream,
        {"T": 2, "k": 2, "d": 2, "gamma": 0.1, "seed": 0},
        T=Int(1),
        k=Int(2),
        d=Int(2),
        gamma=Real(0.0, 0.25, low_open=True),
        seed=SEED,
    )
    reg[pre + "appendix_f_stream"] = fn(
        MS.appendix_f_stream,
        {"T": 4, "d": 3, "seed": 0, "n_candidates": 5},
        T=Int(3),
        d=Int(3),
        seed=SEED,
        n_candidates=Int(1),
    )
    reg[pre + "separation_margin"] = fn(
        MS.separation_margin,
        {"S": [[1.0, 0.0], [0.0, 1.0]], "n_refine": 1, "h0": [1.0, 0.0], "scale": 0.5},
        S=Array(),
        n_refine=Int(0),
        h0=Array(),
        scale=Real(0.0, low_open=True, optional=True),
    )
    sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    reg[pre + "strip_fraction"] = fn(
        MS.strip_fraction,
        {"V": sq, "a": 0.2, "eps": 0.3},
        V=Array(),
        a=Real(),
        eps=Real(0.0, low_open=True),
    )
    reg[pre + "worst_strip_fraction"] = fn(
        MS.worst_strip_fraction,
        {"V": sq, "eps": 0.3, "n_grid": 3},
        V=Array(),
        eps=Real(0.0, low_open=True),
        n_grid=Int(2),
    )
    reg[pre + "cone_strip_fraction"] = fn(
        MS.cone_strip_fraction, {"d": 2, "ratio": 0.1}, d=Int(1), ratio=Real(0.0, 1.0)
    )
    reg[pre + "lemma_e4_slack"] = fn(MS.lemma_e4_slack, {"d": 2}, d=Int(2, maximum=3))
    reg[pre + "lemma_e4_probe"] = fn(
        MS.lemma_e4_probe,
        {"d": 2, "seed": 0, "n_restarts": 1, "n_steps": 1, "n_vertices": 3, "family": "all"},
        d=Int(2, maximum=3),
        seed=SEED,
        n_restarts=Int(1),
        n_steps=Int(0),
        n_vertices=Int(3),
        family=Choice(("all", "cone", "random")),
    )
    reg[pre + "appendix_f_invariants"] = fn(
        MS.appendix_f_invariants,
        {"P": [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]], "labels": [0, 1, 0]},
        P=Array(),
        labels=Array(),
    )
    reg[pre + "cone_pointedness"] = fn(
        MS.cone_pointedness,
        {"P": [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]], "labels": [0, 1, 0]},
        P=Array(),
        labels=Array(),
    )
    wQ = {"w": [1.0, 0.0], "Q": [[0.6, 0.8], [-0.6, 0.8], [0.1, -0.9]]}
    reg[pre + "run_binary"] = fn(
        MS.run_binary,
        {
            **wQ,
            "seed": 0,
            "alpha": 1.0,
            "width_method": "cone",
            "perceptron": True,
            "sampler": "convolution",
        },
        w=Array(),
        Q=Array(),
        seed=SEED,
        alpha=Real(0.0, low_open=True),
        width_method=Choice(("lp", "cone")),
        perceptron=FLAG,
        sampler=Choice(("convolution", "minkowski", "printed")),
    )
    for f in ("run_midpoint", "uniform_guessing_loss"):
        reg[pre + f] = fn(
            getattr(MS, f),
            {**wQ, "alpha": 1.0},
            w=Array(),
            Q=Array(),
            alpha=Real(0.0, low_open=True),
        )
    reg[pre + "MidpointLearner"] = fn(MS.MidpointLearner, {"d": 2}, d=Int(1))
    reg[pre + "MidpointLearner.predict"] = method(
        lambda: MS.MidpointLearner(2), "predict", {"q": qh}, q=Array()
    )
    reg[pre + "MidpointLearner.learn"] = method(
        lambda: MS.MidpointLearner(2),
        "learn",
        {"q": qh, "true_label": 1, "predicted": None},
        q=Array(),
        true_label=label12,
        predicted=Int(1, maximum=2, optional=True),
    )
    for cls in ("CentroidLearner", "HalvingLearner"):
        C = getattr(MS, cls)
        reg[pre + cls] = fn(
            C,
            {"d": 2, "seed": 0, "n_particles": 4, "n_steps": 1},
            d=Int(1),
            seed=SEED,
            n_particles=Int(2),
            n_steps=Int(0),
        )
    learner_skip = Skip("a k = 2 learner object (type checked: TypeError naming learner)")
    reg[pre + "adversarial_run"] = fn(
        MS.adversarial_run,
        lambda: {
            "learner": MS.MidpointLearner(2),
            "w": [1.0, 0.0],
            "T": 3,
            "seed": 0,
            "alpha": 1.0,
            "margins": [0.1, 0.01],
            "n_candidates": 1,
        },
        learner=learner_skip,
        w=Array(),
        T=Int(1),
        seed=SEED,
        alpha=Real(0.0, low_open=True),
        margins=Array(),
        n_candidates=Int(1),
    )
    # ------------------------------------------------------------ Remark 3.4: majority vote
    mv_kw = {"k": 3, "d": 4, "feedback": "label", "alpha": 1.0, "seed": 0}
    reg[pre + "MajorityVoteLearner"] = fn(
        MS.MajorityVoteLearner,
        mv_kw,
        k=Int(2),
        d=Int(1),
        feedback=Choice(("label", "ranking")),
        alpha=Real(0.0, low_open=True),
        seed=SEED,
    )

    def mv() -> Any:
        return MS.MajorityVoteLearner(**mv_kw)

    q4 = [0.6, 0.0, 0.8, 0.0]
    for m in ("votes", "predict"):
        reg[pre + f"MajorityVoteLearner.{m}"] = method(mv, m, {"q": q4}, q=Array())
    ranking_skip = Skip("a permutation of the labels starting with true_label (checked)")
    for m in ("learn", "step"):
        reg[pre + f"MajorityVoteLearner.{m}"] = method(
            mv,
            m,
            {"q": q4, "true_label": 0, "ranking": None},
            q=Array(),
            true_label=Int(0, maximum=2),
            ranking=ranking_skip,
        )
    w4, e4, v4 = [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]
    reg[pre + "remark34_centres"] = fn(
        MS.remark34_centres, {"w": w4, "e": e4}, w=Array(), e=Array()
    )
    reg[pre + "remark34_query"] = fn(
        MS.remark34_query,
        {"w": w4, "e": e4, "v": v4, "m": 0.1, "sigma": 1.0},
        w=Array(),
        e=Array(),
        v=Array(),
        m=Real(-1.0, 1.0, low_open=True, high_open=True),
        sigma=Skip("+1 or -1 (checked: ValueError naming sigma)"),
    )
    reg[pre + "remark34_run"] = fn(
        MS.remark34_run,
        lambda: {
            "learner": MS.MajorityVoteLearner(3, 4, seed=0),
            "w": w4,
            "e": e4,
            "T": 2,
            "seed": 0,
            "n_candidates": 1,
        },
        learner=Skip("a 3-class learner (type checked: TypeError naming learner)"),
        w=Array(),
        e=Array(),
        T=Int(1),
        seed=SEED,
        n_candidates=Int(1),
    )
    reg[pre + "least_informed_direction"] = fn(
        MS.least_informed_direction,
        lambda: {"learner": MS.MidpointLearner(2), "w": [1.0, 0.0], "candidates": [[0.0, 1.0]]},
        learner=learner_skip,
        w=Array(),
        candidates=Array(),
    )
    reg[pre + "run_multiclass"] = fn(
        MS.run_multiclass,
        {
            "X": [[0.5, 0.0], [-0.5, 0.0]],
            "Q": [[0.3, 0.1], [-0.2, 0.4]],
            "kind": "inner",
            "p": 2.0,
            "seed": 0,
            "perceptron": True,
        },
        X=Array(),
        Q=Array(),
        kind=Choice(("inner", "l2", "even_p")),
        p=Real(1.0),
        seed=SEED,
        perceptron=FLAG,
    )
    reg[pre + "run_appendix_f"] = fn(
        MS.run_appendix_f, {"T": 4, "d": 3, "seed": 0}, T=Int(3), d=Int(3), seed=SEED
    )
    reg[pre + "run_multiscale"] = fn(
        MS.run_multiscale,
        {"T": 2, "d": 2, "p": 3.0, "Delta": 0.3, "seed": 0, "printed": False, "n_scales": 2},
        T=Int(1),
        d=Int(2),
        p=Real(1.0),
        Delta=Real(0.0, 2.0, low_open=True),
        seed=SEED,
        printed=FLAG,
        n_scales=Int(1),
    )
    reg[pre + "run_multiscale_multiclass"] = fn(
        MS.run_multiscale_multiclass,
        {"T": 2, "k": 3, "d": 2, "p": 3.0, "Delta": 0.3, "seed": 0, "n_scales": 2},
        T=Int(1),
        k=Int(2),
        d=Int(2),
        p=Real(2.0),
        Delta=Real(0.0, 2.0, low_open=True),
        seed=SEED,
        n_scales=Int(1),
    )
    reg[pre + "minkowski_halfplane_area"] = fn(
        MS.minkowski_halfplane_area,
        {
            "A": [[1.0, 0.0]],
            "b": [0.5],
            "q": [0.0, 1.0],
            "g": 0.0,
            "z": 0.1,
            "radius": 1.0,
            "n_vertices": 16,
        },
        A=Array(empty=True),
        b=Array(empty=True),
        q=Array(),
        g=Real(),
        z=Real(0.0),
        radius=Real(0.0, low_open=True),
        n_vertices=Int(3),
    )
    reg[pre + "sampler_runs"] = fn(
        _in_process(MS.sampler_runs),
        lambda: {
            "T": 3,
            "seeds": [_rng()],
            "n_particles": 4,
            "n_steps": 1,
            "sampler": "minkowski",
            "sum_steps": 1,
        },
        T=Int(1),
        seeds=SEEDS,
        n_particles=Int(2),
        n_steps=Int(0),
        sampler=Choice(("convolution", "minkowski")),
        sum_steps=Int(0),
    )
    reg[pre + "printed_split_runs"] = fn(
        _in_process(MS.printed_split_runs),
        lambda: {"d": 2, "T": 3, "seeds": [_rng()], "n_proposals": 10},
        d=Int(2),
        T=Int(1),
        seeds=SEEDS,
        n_proposals=Int(1),
    )
    reg[pre + "printed_steps"] = fn(MS.printed_steps, {"d": 3}, d=Int(1))
    reg[pre + "irredundant_cuts"] = fn(
        MS.irredundant_cuts, {"A": [[1.0, 0.0, 0.0], [1.0, 0.1, 0.0]]}, A=Array(empty=True)
    )
    reg[pre + "state_rng"] = fn(
        MS.state_rng,
        {"key": 1, "n_cuts": 0, "scale": 2},
        key=Skip("any integer, hashed into the seed"),
        n_cuts=Skip("a count of cuts (the learner passes len(A))"),
        scale=Skip("a scale index (the learner passes Algorithm 1's i)"),
    )
    reg[pre + "sum_boundary_2d"] = fn(
        MS.sum_boundary_2d,
        {"A": [[0.0, -1.0]], "b": [0.0], "z": 0.1, "radius": 1.0},
        A=Array(empty=True),
        b=Array(empty=True),
        z=Real(0.0),
        radius=Real(0.0, low_open=True),
    )
    boundary = MS.sum_boundary_2d([[0.0, -1.0]], [0.0], 0.1)
    reg[pre + "halfplane_area_2d"] = fn(
        MS.halfplane_area_2d,
        {"boundary": boundary, "q": [0.3, 1.0], "g": 0.1},
        boundary=Skip("the output of sum_boundary_2d"),
        q=Array(),
        g=Real(),
    )
    reg[pre + "median_2d"] = fn(
        MS.median_2d,
        {"boundary": boundary, "q": [0.3, 1.0], "rtol": 1e-13},
        boundary=Skip("the output of sum_boundary_2d"),
        q=Array(),
        rtol=Real(0.0, low_open=True),
    )
    reg[pre + "split_fraction_mc"] = fn(
        MS.split_fraction_mc,
        {
            "A": [[0.0, 0.0, -1.0]],
            "q": [1.0, 0.0, 0.0],
            "g": 0.0,
            "z": 0.1,
            "n": 50,
            "seed": 0,
            "axis": None,
        },
        A=Array(empty=True),
        q=Array(),
        g=Real(),
        z=Real(0.0),
        n=Int(1),
        seed=SEED,
        axis=Skip("a direction hint (any non-zero vector; affects only the acceptance rate)"),
    )
    reg[pre + "claim29_box_slack"] = fn(
        MS.claim29_box_slack,
        {"ps": [2.5, 3.0], "scales": [1], "d": 2, "n_centres": 2, "seed": 0},
        ps=Array(),
        scales=Array(),
        d=Int(1),
        n_centres=Int(1),
        seed=SEED,
    )
    reg[pre + "sampler_check"] = fn(
        MS.sampler_check, {"n_polys": 2, "n": 10, "seed": 0}, n_polys=Int(1), n=Int(1), seed=SEED
    )
    reg[pre + "time_rounds"] = fn(
        MS.time_rounds,
        {"ds": [2], "n_rounds": 2, "seed": 0, "width_method": "cone"},
        ds=Array(),
        n_rounds=Int(1),
        seed=SEED,
        width_method=Choice(("lp", "cone")),
    )

    # ------------------------------------------------------------ sweeps
    reg[pre + "late_slope"] = fn(
        MS.late_slope,
        {"Ts": [10.0, 100.0, 1000.0], "curve": [1.0, 10.0, 100.0]},
        Ts=Array(),
        curve=Array(),
    )
    late = {"Ts": [10.0, 100.0, 1000.0], "curves": [[1.0, 10.0, 90.0], [2.0, 21.0, 200.0]]}
    reg[pre + "late_slope_interval"] = fn(
        MS.late_slope_interval,
        late | {"level": 0.95},
        Ts=Array(),
        curves=Array(),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg[pre + "late_slope_gap_interval"] = fn(
        MS.late_slope_gap_interval,
        {
            "Ts": late["Ts"],
            "curves_a": late["curves"],
            "curves_b": [[1.0, 2.0, 4.5], [3.0, 6.0, 11.0]],
            "level": 0.95,
        },
        Ts=Array(),
        curves_a=Array(),
        curves_b=Array(),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg[pre + "bits_slope_interval"] = fn(
        MS.bits_slope_interval,
        lambda: {
            "table": pd.DataFrame(
                {
                    "seed": [0, 0, 0, 1, 1, 1],
                    "k": [2] * 6,
                    "bits": [1.0, 2.0, 3.0] * 2,
                    "ours": [1.0, 2.0, 3.5, 1.5, 2.0, 3.0],
                }
            ),
            "who": "ours",
            "bound": {2: 2.0},
            "level": 0.95,
        },
        table=Skip("a DataFrame with the named columns (checked by name)"),
        who=Skip("a column name (checked against the table)"),
        bound=Skip("a mapping k -> bound (checked for every k)"),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg[pre + "binary_sweep"] = fn(
        MS.binary_sweep,
        lambda: {"stream": "boundary", "T": 3, "d": 2, "seeds": [_rng()], "printed": False},
        stream=Choice(("boundary", "mixed")),
        T=Int(1),
        d=Int(2),
        seeds=SEEDS,
        printed=FLAG,
    )
    reg[pre + "adversary_sweep"] = fn(
        _in_process(MS.adversary_sweep),
        lambda: {"T": 2, "d": 2, "seeds": [_rng()], "learners": ("midpoint",)},
        T=Int(1),
        d=Int(2),
        seeds=SEEDS,
        learners=Skip("a sequence of learner names, each checked against ADVERSARY_LEARNERS"),
    )
    reg[pre + "remark34_sweep"] = fn(
        _in_process(MS.remark34_sweep),
        lambda: {"T": 2, "d": 4, "seeds": [_rng()], "learners": ("majority_label",)},
        T=Int(1),
        d=Int(4),
        seeds=SEEDS,
        learners=Skip("a sequence of learner names, each checked against REMARK34_LEARNERS"),
    )
    reg[pre + "separating_sweep"] = fn(
        _in_process(MS.separating_sweep),
        lambda: {"T": 2, "d": 2, "seeds": [_rng()], "alphas": [0.5], "learners": ("midpoint",)},
        T=Int(1),
        d=Int(2),
        seeds=SEEDS,
        alphas=Array(),
        learners=Skip("a sequence of learner names, each checked against ADVERSARY_LEARNERS"),
    )
    # ------------------------------------------------------------ Theorem 12 (even p)
    reg[pre + "even_p_loss_scale"] = fn(MS.even_p_loss_scale, {"p": 2, "d": 2}, p=Int(2), d=Int(1))
    reg[pre + "even_p_bound"] = fn(
        MS.even_p_bound,
        {"p": 2, "d": 2, "k": 2, "multiclass": False},
        p=Int(2),
        d=Int(1),
        k=Int(2),
        multiclass=FLAG,
    )
    reg[pre + "even_p_adversarial_run"] = fn(
        MS.even_p_adversarial_run,
        {"T": 2, "d": 2, "p": 2, "keys": [1, 2, 3], "learner": "midpoint"},
        T=Int(1),
        d=Int(2),
        p=Int(2),
        keys=Skip("three non-negative integer keys (checked by check_int_vector)"),
        learner=Choice(MS.EVEN_P_LEARNERS),
    )
    reg[pre + "even_p_rate_sweep"] = fn(
        _in_process(MS.even_p_rate_sweep),
        lambda: {"ps": [2], "ds": [2], "T": 2, "seeds": [_rng()], "learners": ("midpoint",)},
        ps=Skip("a list of even integers >= 2 (checked by check_int_vector and _even_p)"),
        ds=Skip("a list of dimensions >= 2 (checked by check_int_vector)"),
        T=Int(1),
        seeds=SEEDS,
        learners=Skip("a sequence of learner names, each checked against EVEN_P_LEARNERS"),
    )
    reg[pre + "even_p_rate_summary"] = fn(
        MS.even_p_rate_summary,
        lambda: {
            "df": _in_process(MS.even_p_rate_sweep)(
                [2, 4], [2, 3], 3, [_rng(), np.random.default_rng(1)]
            )
        },
        df=Skip("a DataFrame from even_p_rate_sweep (type, columns and learners checked)"),
    )
    reg[pre + "power_law_exponents"] = fn(
        MS.power_law_exponents,
        {"p": [2.0, 4.0, 2.0, 4.0], "d": [2.0, 2.0, 3.0, 3.0], "y": [1.0, 2.0, 3.0, 5.0]},
        p=Array(),
        d=Array(),
        y=Array(),
    )
    reg[pre + "separating_margins"] = fn(MS.separating_margins, {"T": 3}, T=Int(1))
    reg[pre + "cap_fraction"] = fn(
        MS.cap_fraction, {"d": 3, "phi": 0.5}, d=Int(2), phi=Real(0.0, math.pi / 2)
    )
    reg[pre + "lemma_f1_constant"] = fn(MS.lemma_f1_constant, {"d": 3}, d=Int(2))
    reg[pre + "lemma_f1_worst_case"] = fn(MS.lemma_f1_worst_case, {"ds": [2, 3]}, ds=Array())
    reg[pre + "dims_sweep"] = fn(
        MS.dims_sweep,
        lambda: {"ds": [2], "T": 3, "seeds_by_d": [[_rng()]]},
        ds=Array(),
        T=Int(1),
        seeds_by_d=Skip("a list (one per d) of lists of numpy.random.Generator"),
    )
    reg[pre + "margin_sweep"] = fn(
        MS.margin_sweep,
        lambda: {"gammas": [0.2], "T": 3, "d": 2, "seeds_by_gamma": [[_rng()]]},
        gammas=Array(),
        T=Int(1),
        d=Int(2),
        seeds_by_gamma=Skip("a list (one per gamma) of lists of numpy.random.Generator"),
    )
    reg[pre + "multi_sweep"] = fn(
        MS.multi_sweep,
        lambda: {"configs": [("inner", 2, 2)], "T": 4, "d": 2, "seeds": [[_rng()]]},
        configs=Skip("a list of (kind, p, k) tuples (each checked by run_multiclass)"),
        T=Int(2),
        d=Int(2),
        seeds=Skip("a list (one per run) of lists of numpy.random.Generator, one per config"),
    )
    reg[pre + "thm17_sweep"] = fn(
        _in_process(MS.thm17_sweep),
        lambda: {"ks": [2], "gammas": [0.1], "T": 2, "d": 2, "seeds": [[_rng()]]},
        ks=Array(),
        gammas=Array(),
        T=Int(1),
        d=Int(2),
        seeds=Skip("a list (one per run) of lists of numpy.random.Generator, one per (k, γ)"),
    )
    reg[pre + "convex_sweep"] = fn(
        MS.convex_sweep,
        lambda: {"Ts": [4], "d": 3, "seeds_by_T": [[_rng()]]},
        Ts=Array(),
        d=Int(3),
        seeds_by_T=Skip("a list (one per T) of lists of numpy.random.Generator"),
    )
    reg[pre + "multiscale_runs"] = fn(
        _in_process(MS.multiscale_runs),
        lambda: {"T_alg2": 1, "T_thm13": 1, "seeds": [_rng(), _rng(), _rng()]},
        T_alg2=Int(1),
        T_thm13=Int(1),
        seeds=Skip("three numpy.random.Generator (corrected, printed, Theorem 13)"),
    )
