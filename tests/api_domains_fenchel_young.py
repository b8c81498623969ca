"""Declared domains of :mod:`mlgeom.fenchel_young` for ``tests/test_api_domains.py`` (issue 16).

Structures, streams, decodings and tables are objects: their parameters are ``Skip``; the
numbers and arrays beside them are probed. Methods inherited from :class:`Structure` are
declared on concrete structures (the abstract ones are checked on :class:`Multiclass`).
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
    Int,
    Real,
    Skip,
    Spec,
    fn,
    method,
    record,
)

P = "mlgeom.fenchel_young."
STRUCTURE = Skip("a Structure object")
STREAM = Skip("a Stream object")
DECODINGS = ("randomized", "deterministic", "gaptron")
POS = Real(0.0, low_open=True)


def _mc() -> Any:
    import mlgeom.fenchel_young as FY

    return FY.Multiclass(3)


def _ml() -> Any:
    import mlgeom.fenchel_young as FY

    return FY.Multilabel(2, 4.0)


def _ml_stream() -> Any:
    import mlgeom.fenchel_young as FY

    return FY.planted_stream(_ml(), 4, n_features=2, norm=1.0, pool=4, seed=0)


def _mc_stream() -> Any:
    import mlgeom.fenchel_young as FY

    return FY.prototype_stream(2, 4, n_prototypes=2, seed=0)


def _structures(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    reg[P + "Structure"] = fn(FY.Structure, {})
    reg[P + "Multiclass"] = fn(FY.Multiclass, {"d": 3}, d=Int(2))
    for name in ("Multilabel", "Ordinal"):
        extra = {"min_d": Skip("internal floor of d")} if name == "Ordinal" else {}
        reg[P + name] = fn(
            getattr(FY, name), {"d": 2, "strength": 1.0}, d=Int(2), strength=POS, **extra
        )
    reg[P + "Ranking"] = fn(
        FY.Ranking,
        {"n": 2, "mu": 1.0, "tol": 1e-9, "max_iter": 50},
        n=Int(2),
        mu=POS,
        tol=POS,
        max_iter=Int(1),
    )
    makers = {
        "Multiclass": (_mc, [0.2, 0.5, 0.3], [0.0, 1.0, 0.0], [0.1, -1.0, 0.3]),
        "Multilabel": (_ml, [0.2, 0.5], [0.0, 1.0], [0.1, -1.0]),
        "Ordinal": (lambda: FY.Ordinal(2), [0.7, 0.2], [1.0, 0.0], [0.1, -1.0]),
        "Ranking": (
            lambda: FY.Ranking(2, 1.0),
            [0.7, 0.3, 0.3, 0.7],
            [1.0, 0.0, 0.0, 1.0],
            [0.1, -1.0, 0.3, 0.2],
        ),
        "Structure": (_mc, [0.2, 0.5, 0.3], [0.0, 1.0, 0.0], [0.1, -1.0, 0.3]),
        "Permutahedron": (lambda: FY.Permutahedron(2), [1.5, 1.5], [2.0, 1.0], [0.1, -1.0]),
    }
    vec = Array(ndim_probe=False)
    for cls, (make, mu, y, theta) in makers.items():
        members = set(vars(getattr(FY, cls)))
        if cls == "Structure":
            members = {m for m in members if not m.startswith("_")}

        def add(m: str, valid: dict, doms: dict, _make=make, _cls=cls, _mem=members) -> None:
            if m in _mem:  # Spec directly: check_theta has a parameter called ``name``
                reg[f"{P}{_cls}.{m}"] = Spec(lambda: getattr(_make(), m), lambda: dict(valid), doms)

        n_u = make().n_tilde_uniforms
        add("describe_outputs", {}, {})
        add("outputs", {}, {})
        add("predict", {"theta": theta}, {"theta": vec})
        add("linear_oracle", {"c": theta}, {"c": Array()})
        add("sample_tilde", {"mu": mu, "u": [0.5] * n_u}, {"mu": Array(), "u": Array()})
        add("tilde_distribution", {"mu": mu}, {"mu": Array()})
        add("target_loss", {"y_pred": mu, "y": y}, {"y_pred": vec, "y": vec})
        add("check_theta", {"theta": theta, "name": "theta"}, {"theta": vec, "name": NAME})
        add("check_output", {"y": y, "name": "y"}, {"y": vec, "name": NAME})
        add("grad", {"theta": theta, "y": y}, {"theta": vec, "y": vec})
        add("norm", {"v": theta}, {"v": vec})
        add("nearest_extreme_point", {"y_prime": mu}, {"y_prime": Array()})
        if cls in ("Multiclass", "Structure"):
            add("loss", {"theta": theta, "y": y}, {"theta": vec, "y": vec})
    reg[P + "Structure.describe_outputs"] = method(FY.Structure, "describe_outputs", {})
    # the base Fenchel-Young loss (Ranking uses it; Multiclass overrides it)
    reg[P + "Structure.loss"] = method(
        lambda: FY.Ranking(2, 1.0),
        "loss",
        {"theta": [0.1, -1.0, 0.3, 0.2], "y": [1.0, 0.0, 0.0, 1.0]},
        theta=vec,
        y=vec,
    )
    reg[P + "Multiclass.encode"] = method(
        _mc, "encode", lambda: {"labels": np.array([0, 2])}, labels=Array()
    )
    reg[P + "Ordinal.encode"] = method(
        lambda: FY.Ordinal(2), "encode", lambda: {"levels": np.array([0, 2])}, levels=Array()
    )
    reg[P + "Ranking.encode"] = method(
        lambda: FY.Ranking(2, 1.0), "encode", lambda: {"perms": np.array([1, 0])}, perms=Array()
    )


def _birkhoff_streams(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    for rec in ("BvNDecomposition", "SinkhornResult", "Fit", "Decoding", "OnlineRecord"):
        reg[P + rec] = record(getattr(FY, rec))
    reg[P + "BatchRecord"] = record(FY.BatchRecord)
    reg[P + "Stream"] = record(FY.Stream)
    reg[P + "BvNDecomposition.matrix"] = method(
        lambda: FY.birkhoff_von_neumann(np.eye(2)), "matrix", {}
    )
    reg[P + "birkhoff_von_neumann"] = fn(
        FY.birkhoff_von_neumann,
        {"P": np.full((2, 2), 0.5), "tol": 1e-9, "max_terms": None},
        P=Array(),
        tol=POS,
        max_terms=Int(1, optional=True),
    )
    reg[P + "Stream.counts"] = method(_mc_stream, "counts", {})
    reg[P + "Stream.head"] = method(_mc_stream, "head", {"T": 2}, T=Int(1, maximum=4))
    for name in ("digits_stream", "digits_segments_stream"):
        reg[P + name] = fn(getattr(FY, name), {"T": 3, "seed": 0}, T=Int(1), seed=SEED)
    reg[P + "lower_bound_instance"] = fn(
        FY.lower_bound_instance,
        {"d": 2, "M": 1, "T": 3, "seed": 0},
        d=Int(2),
        M=Int(1),
        T=Int(2),
        seed=SEED,
    )
    reg[P + "planted_stream"] = fn(
        FY.planted_stream,
        lambda: {
            "structure": _mc(),
            "T": 3,
            "n_features": 2,
            "norm": 1.0,
            "noise": 0.1,
            "pool": 4,
            "seed": 0,
        },
        structure=STRUCTURE,
        T=Int(1),
        n_features=Int(1),
        norm=POS,
        noise=Real(0.0, 1.0),
        pool=Int(1),
        seed=SEED,
    )
    reg[P + "prototype_stream"] = fn(
        FY.prototype_stream,
        {"d": 2, "T": 3, "n_prototypes": 2, "noise": 0.1, "seed": 0},
        d=Int(2),
        T=Int(1),
        n_prototypes=Int(1),
        noise=Real(0.0, 1.0),
        seed=SEED,
    )
    reg[P + "random_prototype_stream"] = fn(
        FY.random_prototype_stream,
        {
            "d": 2,
            "T": 3,
            "n_prototypes": 2,
            "dim": 3,
            "max_cosine": 0.9,
            "noise": 0.1,
            "max_tries": 100,
            "seed": 0,
        },
        d=Int(2),
        T=Int(1),
        n_prototypes=Int(1),
        dim=Skip("at least n_prototypes (regression test)"),
        max_cosine=Real(0.0, 1.0, low_open=True, high_open=True),
        noise=Real(0.0, 1.0),
        max_tries=Int(1),
        seed=SEED,
    )


def _comparator_decoding(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    def base() -> dict:
        return {"structure": FY.Multiclass(2), "stream": _mc_stream()}

    reg[P + "stream_loss"] = fn(
        FY.stream_loss,
        lambda: {**base(), "U": np.zeros((2, 2)), "loss_scale": 1.0},
        structure=STRUCTURE,
        U=Array(),
        stream=STREAM,
        loss_scale=POS,
    )
    reg[P + "fit_ridge"] = fn(
        FY.fit_ridge,
        lambda: {**base(), "coef": 1.0, "loss_scale": 1.0, "U0": np.zeros((2, 2)), "max_iter": 20},
        structure=STRUCTURE,
        stream=STREAM,
        coef=POS,
        loss_scale=POS,
        U0=Array(),
        max_iter=Int(1),
    )
    reg[P + "fit_ball"] = fn(
        FY.fit_ball,
        lambda: {**base(), "radius": 1.0, "loss_scale": 1.0, "max_iter": 20, "tol": 1e-6},
        structure=STRUCTURE,
        stream=STREAM,
        radius=POS,
        loss_scale=POS,
        max_iter=Int(1),
        tol=Real(0.0),
    )
    reg[P + "worst_case_constant"] = fn(
        FY.worst_case_constant,
        lambda: {
            **base(),
            "cumulative_expected": 0.0,
            "loss_scale": 1.0,
            "lo": 1e-4,
            "hi": 1e4,
            "rtol": 1e-3,
        },
        structure=STRUCTURE,
        stream=STREAM,
        cumulative_expected=Real(),
        loss_scale=POS,
        lo=POS,
        hi=POS,
        rtol=POS,
    )
    th, y = [0.1, 0.7, -0.2], [0.0, 1.0, 0.0]
    reg[P + "randomized_decoding"] = fn(
        FY.randomized_decoding,
        lambda: {"structure": _mc(), "theta": th},
        structure=STRUCTURE,
        theta=Array(),
    )
    for name in ("expected_target_loss", "expected_target_loss_enumerated", "lemma31_ratio"):
        reg[P + name] = fn(
            getattr(FY, name),
            lambda: {"structure": _mc(), "theta": th, "y": y},
            structure=STRUCTURE,
            theta=Array(),
            y=Array(),
        )
    reg[P + "decode"] = fn(
        FY.decode,
        lambda: {
            "structure": _mc(),
            "dec": FY.randomized_decoding(_mc(), th),
            "u": [0.5, 0.5],
        },
        structure=STRUCTURE,
        dec=Skip("a Decoding of the same structure"),
        u=Array(),
    )
    reg[P + "multiclass_decoding_law"] = fn(
        FY.multiclass_decoding_law,
        {"theta": th, "decoding": "randomized"},
        theta=Array(ndim_probe=False),
        decoding=Choice(DECODINGS),
    )


def _surrogate_regret(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    reg[P + "draw_uniforms"] = fn(
        FY.draw_uniforms,
        lambda: {"structure": _mc(), "T": 3, "seed": 0},
        structure=STRUCTURE,
        T=Int(1),
        seed=SEED,
    )
    for name in ("eta_theorem_4_2", "eta_theorem_4_3"):
        reg[P + name] = fn(
            getattr(FY, name), lambda: {"structure": _ml(), "C": 1.0}, structure=STRUCTURE, C=POS
        )
    bnd = {"structure": STRUCTURE, "C": POS, "U_norm_sq": Real(0.0)}
    reg[P + "bound_theorem_4_2"] = fn(
        FY.bound_theorem_4_2, lambda: {"structure": _ml(), "C": 1.0, "U_norm_sq": 1.0}, **bnd
    )
    reg[P + "bound_theorem_4_3"] = fn(
        FY.bound_theorem_4_3,
        lambda: {"structure": _ml(), "C": 1.0, "U_norm_sq": 1.0, "delta": 0.1},
        **bnd,
        delta=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg[P + "bound_theorem_4_6"] = fn(
        FY.bound_theorem_4_6,
        lambda: {"structure": _ml(), "C": 1.0, "U_norm_sq": 1.0, "T": 10},
        **bnd,
        T=Int(1),
    )
    reg[P + "bound_theorem_e_1"] = fn(
        FY.bound_theorem_e_1,
        lambda: {"structure": FY.Multilabel(20, strength=2.0), "C": 1.0, "B": 2.0},
        structure=STRUCTURE,
        C=POS,
        B=Real(0.0),
    )
    reg[P + "run_online"] = fn(
        FY.run_online,
        lambda: {
            "structure": FY.Multiclass(2),
            "stream": _mc_stream(),
            "eta": 0.1,
            "decoding": "randomized",
            "loss_scale": 1.0,
            "learner": "ogd",
            "seed": 0,
            "uniforms": np.full((4, 2), 0.5),
        },
        structure=STRUCTURE,
        stream=STREAM,
        eta=Real(0.0, low_open=True, optional=True),
        decoding=Choice(DECODINGS),
        loss_scale=POS,
        learner=Choice(("ogd", "adaptive", "parameter_free")),
        seed=SEED,
        uniforms=Array(),
        B=Real(0.0, low_open=True, optional=True),
    )
    reg[P + "run_seeds"] = fn(
        FY.run_seeds,
        {"fn": _seed_value, "seeds": 2, "seed": 0, "n_jobs": 1, "desc": None},
        fn=Skip("a callable"),
        seeds=Skip("a count or a sequence of seeds (spawn checks the count)"),
        seed=SEED,
        n_jobs=Int(1, optional=True),
        desc=NAME,
    )


def _seed_value(seed: Any) -> float:
    return float(seed.random())


def _experiments(reg: dict) -> None:
    import pandas as pd

    import mlgeom.fenchel_young as FY

    reg[P + "appendix_d_supremum"] = fn(FY.appendix_d_supremum, {"hi": 1.0}, hi=POS)
    reg[P + "appendix_d_table"] = fn(FY.appendix_d_table, {"eps": [0.1, 1.0]}, eps=Array())
    reg[P + "margin_comparison"] = fn(
        FY.margin_comparison, {"margins": [-1.0, 0.5]}, margins=Array(empty=True)
    )
    reg[P + "lemma31_draws"] = fn(
        FY.lemma31_draws,
        lambda: {"structure": _mc(), "n_draws": 3, "seed": 0},
        structure=STRUCTURE,
        n_draws=Int(0),
        seed=SEED,
    )
    reg[P + "lemma31_line"] = fn(
        FY.lemma31_line,
        lambda: {"structure": _mc(), "ts": [-1.0, 1.0]},
        structure=STRUCTURE,
        ts=Array(empty=True),
    )
    reg[P + "step_size"] = fn(
        FY.step_size,
        {"step": "theorem_5_1", "d": 3, "C": 1.0},
        step=Choice(("theorem_5_1", "gaptron")),
        d=Int(1),
        C=POS,
    )
    reg[P + "own_step"] = fn(FY.own_step, {"decoding": "gaptron"}, decoding=Choice(DECODINGS))
    reg[P + "multiclass_runs"] = fn(
        FY.multiclass_runs,
        lambda: {
            "streams": [_mc_stream()],
            "d": 2,
            "decoding": "randomized",
            "seed": 0,
            "C": 1.0,
            "step": None,
        },
        streams=Skip("a list of Stream objects"),
        d=Int(2),
        decoding=Choice(DECODINGS),
        seed=SEED,
        C=POS,
        step=Choice(("theorem_5_1", "gaptron")),
    )
    reg[P + "worst_case_table"] = fn(
        FY.worst_case_table,
        {
            "ds": [2],
            "T": 4,
            "n_prototypes": 2,
            "n_seeds": 1,
            "decodings": ("randomized",),
            "steps": None,
            "uniform": False,
            "noise": 0.0,
            "geometry": "orthonormal",
            "dim": None,
            "max_cosine": 0.5,
            "horizons": None,
            "arms": None,
            "seed": 0,
        },
        ds=Array(),
        T=Int(1),
        n_prototypes=Int(1),
        n_seeds=Int(1),
        decodings=Skip("names of DECODINGS (regression test)"),
        steps=Skip("names of STEPS or None (regression test)"),
        uniform=FLAG,
        noise=Real(0.0, 1.0),
        geometry=Choice(("orthonormal", "random")),
        dim=Skip("None or at least n_prototypes (regression test)"),
        max_cosine=Real(0.0, 1.0, low_open=True, high_open=True),
        horizons=Skip("None or ints <= T (regression test)"),
        arms=Skip("None or (decoding, step) pairs (regression test)"),
        seed=SEED,
    )
    reg[P + "second_half_fractions"] = fn(
        FY.second_half_fractions,
        {"d": 2, "T": 4, "n_prototypes": 2, "n_seeds": 1, "learner": "ogd", "seed": 0},
        d=Int(2),
        T=Int(1),
        n_prototypes=Int(1),
        n_seeds=Int(1),
        learner=Choice(("parameter_free", "ogd")),
        seed=SEED,
    )
    reg[P + "uniform_mean_output"] = fn(
        FY.uniform_mean_output, lambda: {"structure": _mc()}, structure=STRUCTURE
    )
    reg[P + "uniform_expected_losses"] = fn(
        FY.uniform_expected_losses,
        lambda: {"structure": FY.Multiclass(2), "stream": _mc_stream()},
        structure=STRUCTURE,
        stream=STREAM,
    )
    reg[P + "uniform_realised_losses"] = fn(
        FY.uniform_realised_losses,
        lambda: {"structure": FY.Multiclass(2), "stream": _mc_stream(), "n_seeds": 2, "seed": 0},
        structure=STRUCTURE,
        stream=STREAM,
        n_seeds=Int(0),
        seed=SEED,
    )
    reg[P + "horizon_table"] = fn(
        FY.horizon_table,
        lambda: {
            "stream": _mc_stream(),
            "d": 2,
            "Ts": [4],
            "n_seeds": 1,
            "competitors": (),
            "seed": 0,
        },
        stream=STREAM,
        d=Int(2),
        Ts=Array(),
        n_seeds=Int(1),
        competitors=Skip("a tuple of DECODINGS names (regression test)"),
        seed=SEED,
    )
    reg[P + "lower_bound_table"] = fn(
        FY.lower_bound_table,
        {"ds": [2], "Ms": [1], "T": 3, "n_seeds": 1, "seed": 0},
        ds=Array(),
        Ms=Array(),
        T=Int(2),
        n_seeds=Int(1),
        seed=SEED,
    )
    reg[P + "structured_check"] = fn(
        FY.structured_check,
        lambda: {
            "structure": _ml(),
            "stream": _ml_stream(),
            "n_seeds": 1,
            "seed": 0,
            "n_jobs": 1,
            "decoding": "randomized",
        },
        structure=STRUCTURE,
        stream=STREAM,
        n_seeds=Int(1),
        seed=SEED,
        n_jobs=Int(1, optional=True),
        decoding=Choice(("randomized", "deterministic")),
        fit=Skip("a Fit object (fit_ridge's result); None computes it"),
    )
    reg[P + "theorem_e1_table"] = fn(
        FY.theorem_e1_table,
        lambda: {
            "structure": FY.Multilabel(20, strength=2.0),
            "streams": [FY.planted_stream(FY.Multilabel(20, strength=2.0), 4, n_features=2,
                                          norm=1.0, pool=4, seed=0)],
            "seed": 0,
            "n_jobs": 1,
        },
        structure=STRUCTURE,
        streams=Skip("a list of Stream objects, each checked against the structure"),
        seed=SEED,
        n_jobs=Int(1, optional=True),
    )  # fmt: skip
    reg[P + "high_probability_table"] = fn(
        FY.high_probability_table,
        lambda: {
            "structure": _ml(),
            "stream": _ml_stream(),
            "n_seeds": 1,
            "delta": 0.1,
            "seed": 0,
            "n_jobs": 1,
        },
        structure=STRUCTURE,
        stream=STREAM,
        n_seeds=Int(1),
        delta=Real(0.0, 1.0, low_open=True, high_open=True),
        seed=SEED,
        n_jobs=Int(1, optional=True),
    )
    reg[P + "online_to_batch"] = fn(
        FY.online_to_batch,
        lambda: {"structure": _ml(), "train": _ml_stream(), "test": _ml_stream(), "seed": 0},
        structure=STRUCTURE,
        train=STREAM,
        test=STREAM,
        seed=SEED,
    )
    reg[P + "speed_benchmark"] = fn(
        FY.speed_benchmark,
        {"d": 2, "p": 2, "T": 20, "n_seeds": 1, "loop_T": 10, "seed": 0, "repeats": 1},
        d=Int(2),
        p=Int(1),
        T=Int(1),
        n_seeds=Int(1),
        loop_T=Int(1, maximum=20),
        seed=SEED,
        repeats=Int(1),
    )
    table = pd.DataFrame(
        {
            "d": [2, 3, 2, 3],
            "seed": [0, 0, 1, 1],
            "c_star": [1.0, 2.0, 1.5, 2.5],
            "decoding": ["randomized"] * 4,
        }
    )
    reg[P + "slope_per_seed"] = fn(
        FY.slope_per_seed,
        {"table": table, "x": "d", "y": "c_star"},
        table=Skip("a DataFrame"),
        x=Skip("a column name"),
        y=Skip("a column name"),
    )
    reg[P + "slope_table"] = fn(
        FY.slope_table,
        {"table": table, "x": "d", "y": "c_star", "by": "decoding"},
        table=Skip("a DataFrame"),
        x=Skip("a column name"),
        y=Skip("a column name"),
        by=Skip("a column name"),
    )
    reg[P + "plot_d_scaling"] = fn(
        FY.plot_d_scaling,
        {"table": table, "bound_ours": 1.8},
        table=Skip("a DataFrame"),
        bound_ours=POS,
    )
    reg[P + "plot_appendix_d"] = fn(
        FY.plot_appendix_d,
        lambda: {"table": FY.appendix_d_table([0.1, 1.0])},
        table=Skip("a DataFrame (appendix_d_table)"),
    )
    reg[P + "plot_lemma31"] = fn(
        FY.plot_lemma31,
        lambda: {"ratios": {"mc": np.array([0.1, 0.5])}, "bounds": {"mc": 1.0}},
        ratios=Skip("a mapping of name to ratios"),
        bounds=Skip("a mapping of name to bounds"),
    )
    lb = pd.DataFrame({"d": [2, 2], "B2": [1.0, 2.0], "regret": [0.5, 0.7], "exact_lb": [0.1, 0.2]})
    reg[P + "plot_lower_bound"] = fn(
        FY.plot_lower_bound, {"table": lb}, table=Skip("a DataFrame (lower_bound_table)")
    )
    reg[P + "plot_cumulative"] = fn(
        FY.plot_cumulative,
        lambda: {"curves": {"ours": np.ones((2, 3))}, "ylabel": "loss"},
        curves=Skip("a mapping of name to per-seed arrays"),
        ylabel=NAME,
    )


def _correlated_adversary(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    reg[P + "correlated_prototype_stream"] = fn(
        FY.correlated_prototype_stream,
        {
            "d": 2,
            "T": 3,
            "n_prototypes": 2,
            "cosine": 0.5,
            "feature_noise": 0.1,
            "label_noise": 0.1,
            "pool": 3,
            "seed": 0,
        },
        d=Int(2),
        T=Int(1),
        n_prototypes=Int(1),
        cosine=Real(0.0, 1.0, high_open=True),
        feature_noise=Real(0.0),
        label_noise=Real(0.0, 1.0),
        pool=Int(1),
        seed=SEED,
    )
    reg[P + "adversarial_ogd_batch"] = fn(
        FY.adversarial_ogd_batch,
        lambda: {
            "X": np.array([[1.0, 0.0], [0.6, 0.8]]),
            "labels": np.array([0, 1]),
            "uniforms": np.full((1, 2, 2), 0.5),
            "d": 2,
            "eta": 0.1,
            "decoding": "randomized",
        },
        X=Array(),
        labels=Array(),
        uniforms=Array(ndim_probe=True),
        d=Int(2),
        eta=Real(0.0, low_open=True),
        decoding=Choice(("randomized", "deterministic", "gaptron")),
    )
    reg[P + "lemma31_supremum"] = fn(
        FY.lemma31_supremum,
        lambda: {
            "structure": _mc(),
            "n_starts": 1,
            "starts": None,
            "screen": 2,
            "max_evals": 20,
            "box": 5.0,
            "seed": 0,
        },
        structure=STRUCTURE,
        n_starts=Int(0),
        starts=Skip("(theta, y) pairs or None (regression test)"),
        screen=Int(1),
        max_evals=Int(1),
        box=POS,
        seed=SEED,
    )
    reg[P + "correlated_table"] = fn(
        FY.correlated_table,
        {
            "ds": [2],
            "T": 4,
            "n_seeds": 1,
            "arms": (("randomized", "theorem_5_1"),),
            "n_prototypes": 2,
            "cosine": 0.5,
            "feature_noise": 0.1,
            "label_noise": 0.0,
            "pool": 2,
            "adversary": False,
            "uniform": False,
            "horizons": None,
            "seed": 0,
        },
        ds=Array(),
        T=Int(1),
        n_seeds=Int(1),
        arms=Skip("(decoding, step) pairs (regression test)"),
        n_prototypes=Int(1),
        cosine=Real(0.0, 1.0, high_open=True),
        feature_noise=Real(0.0),
        label_noise=Real(0.0, 1.0),
        pool=Int(1),
        adversary=FLAG,
        uniform=FLAG,
        horizons=Skip("prefix lengths or None (regression test)"),
        seed=SEED,
    )


def _regularizer_scale(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    reg[P + "rescaled"] = fn(
        FY.rescaled,
        lambda: {"structure": _ml(), "strength": 2.0},
        structure=STRUCTURE,
        strength=POS,
    )
    reg[P + "scale_table"] = fn(
        FY.scale_table,
        lambda: {
            "structure": _ml(),
            "streams": [_ml_stream()],
            "comparators": [np.zeros((2, 2))],
            "strengths": [4.0],
            "seed": 0,
            "n_jobs": 1,
        },
        structure=STRUCTURE,
        streams=Skip("a list of Stream objects"),
        comparators=Skip("a list of arrays, one per stream, shapes checked against the streams"),
        strengths=Array(),
        seed=SEED,
        n_jobs=Int(1, optional=True),
    )


def _permutahedron(reg: dict) -> None:
    import mlgeom.fenchel_young as FY

    reg[P + "Permutahedron"] = fn(
        FY.Permutahedron, {"d": 2, "strength": 1.0}, d=Int(2), strength=POS
    )
    reg[P + "Permutahedron.random_outputs"] = method(
        lambda: FY.Permutahedron(3),
        "random_outputs",
        lambda: {"rng": np.random.default_rng(0), "n": 2},
        rng=Skip("a numpy Generator"),
        n=Int(0),
    )
    reg[P + "project_permutahedron"] = fn(
        FY.project_permutahedron, {"z": [0.3, -1.0]}, z=Array(ndim_probe=False)
    )
    reg[P + "permutahedron_decomposition"] = fn(
        FY.permutahedron_decomposition, {"y": [1.5, 1.5], "tol": 1e-10}, y=Array(), tol=POS
    )
    reg[P + "lipschitz_search"] = fn(
        FY.lipschitz_search,
        {"d": 2, "gamma": 1.0, "n_starts": 0, "max_evals": 5, "seed": 0},
        d=Int(2),
        gamma=POS,
        n_starts=Int(0),
        max_evals=Int(1),
        seed=SEED,
    )
    reg[P + "proposition_c1_gap"] = fn(
        FY.proposition_c1_gap,
        {"d": 2, "n_points": 2, "seed": 0},
        d=Int(2, maximum=8),
        n_points=Int(1),
        seed=SEED,
    )
    reg[P + "decomposition_error"] = fn(
        FY.decomposition_error,
        lambda: {"structure": FY.Permutahedron(3), "n_scores": 2, "seed": 0},
        structure=STRUCTURE,
        n_scores=Int(1),
        seed=SEED,
    )


def declare(reg: dict) -> None:
    """Fill ``reg`` with the chapter's declarations."""
    _permutahedron(reg)
    _regularizer_scale(reg)
    _structures(reg)
    _birkhoff_streams(reg)
    _comparator_decoding(reg)
    _surrogate_regret(reg)
    _experiments(reg)
    _correlated_adversary(reg)
