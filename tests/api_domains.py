"""Declared domains of the public API, for ``tests/test_api_domains.py`` (issue 16).

Every public callable (every callable in the ``__all__`` of ``mlgeom.book``,
``mlgeom.algorithms``, the five chapter subpackages and the primitives ``mlgeom.random``,
``mlgeom.stats``, ``mlgeom.parallel``; for a class its constructor and its public methods) is
either declared in :data:`REGISTRY` (a tiny valid call and a domain for each parameter) or
listed in :data:`PENDING` (not declared yet). A callable in neither fails the test, so a new
public function must be declared.

Keys are ``"<package>.<name>"`` for functions and constructors and
``"<package>.<Class>.<method>"`` for methods.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

NAN, INF = float("nan"), float("inf")


# ------------------------------------------------------------------------- domains
@dataclass(frozen=True)
class Real:
    """A finite real number in ``[low, high]`` (ends open when ``*_open``)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    optional: bool = False  # None is valid

    def probes(self, valid: Any) -> list[Any]:
        out: list[Any] = [NAN, INF, -INF, "1.0"]
        if self.low is not None:
            out.append(self.low if self.low_open else self.low - 1.0)
        if self.high is not None:
            out.append(self.high if self.high_open else self.high + 1.0)
        return out


@dataclass(frozen=True)
class Int:
    """An integer ``>= minimum`` (and ``<= maximum``)."""

    minimum: int = 1
    maximum: int | None = None
    optional: bool = False

    def probes(self, valid: Any) -> list[Any]:
        out: list[Any] = [1.5, NAN, "2", self.minimum - 1]
        if self.maximum is not None:
            out.append(self.maximum + 1)
        return out


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of strings."""

    options: tuple[str, ...]

    def probes(self, valid: Any) -> list[Any]:
        return ["no-such-option"]


@dataclass(frozen=True)
class Array:
    """A finite numeric array; probes are derived from the valid value.

    ``empty`` says whether an empty array (zero rows) is valid; ``ndim_probe`` whether a
    wrong number of dimensions must be refused (``False`` where any shape is accepted).
    """

    empty: bool = False
    ndim_probe: bool = True
    finite: bool = True

    def probes(self, valid: Any) -> list[Any]:
        a = np.asarray(valid, dtype=float)
        out: list[Any] = []
        if self.finite and a.size:
            for bad in (NAN, INF, -INF):
                b = a.copy()
                b.flat[0] = bad
                out.append(b)
        if not self.empty and a.ndim >= 1:
            out.append(np.zeros((0,) + a.shape[1:]))
        if self.ndim_probe:
            out.append(a[None] if a.ndim < 3 else a[0])
        out.append(np.full(a.shape, "x", dtype=object) if a.ndim else "x")
        return out


@dataclass(frozen=True)
class Skip:
    """A parameter without generic probes (a seed, a callable, a flag), with the reason."""

    reason: str

    def probes(self, valid: Any) -> list[Any]:
        return []


@dataclass(frozen=True)
class Instance:
    """An object of one class: probed with a look-alike of another type (a list, a string)."""

    cls_name: str

    def probes(self, valid: Any) -> list[Any]:
        return [[-1, 0, 0], f"not-a-{self.cls_name}"]


SEED = Skip("a seed: anything numpy.random.default_rng accepts (checked by as_generator)")
FLAG = Skip("a bool flag")
NAME = Skip("a free-form label stored in the result")


@dataclass
class Spec:
    """A tiny valid call and the domain of every parameter.

    ``make`` returns the object to call (the function itself, a class, or a bound method of a
    fresh instance); ``valid`` the keyword arguments of a valid call.
    """

    make: Callable[[], Callable[..., Any]]
    valid: Callable[[], dict[str, Any]]
    domains: dict[str, Any] = field(default_factory=dict)
    record: bool = False  # a result record (frozen dataclass): no probes of its fields


def fn(
    obj: Callable[..., Any], valid: dict[str, Any] | Callable[[], dict[str, Any]], **domains: Any
) -> Spec:
    v = valid if callable(valid) else (lambda: dict(valid))
    return Spec(lambda: obj, v, domains)


def method(
    factory: Callable[[], Any],
    name: str,
    valid: dict[str, Any] | Callable[[], dict[str, Any]],
    **domains: Any,
) -> Spec:
    v = valid if callable(valid) else (lambda: dict(valid))
    return Spec(lambda: getattr(factory(), name), v, domains)


def record(cls: type) -> Spec:
    return Spec(lambda: cls, dict, {}, record=True)


# ------------------------------------------------------------------------- registry
def _registry() -> dict[str, Spec]:
    import mlgeom.algorithms as A
    import mlgeom.fenchel_young as FY
    import mlgeom.hierarchical as H
    import mlgeom.metric_nn as MN
    import mlgeom.multiscale as MS
    import mlgeom.primer as P
    from mlgeom import random as Rnd
    from mlgeom import stats as St

    X2 = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    Y2 = np.array([1.0, -1.0, 1.0])
    W2 = np.array([1.0, 0.5])
    Z = np.array([-1.0, 0.0, 2.0])
    reg: dict[str, Spec] = {}

    # primitives
    reg["mlgeom.random.as_generator"] = fn(Rnd.as_generator, {"seed": 0}, seed=SEED)
    reg["mlgeom.random.spawn"] = fn(Rnd.spawn, {"seed": 0, "n": 2}, seed=SEED, n=Int(0))
    reg["mlgeom.stats.loglog_slope"] = fn(
        St.loglog_slope, {"x": [1.0, 2.0, 4.0], "y": [1.0, 2.0, 5.0]}, x=Array(), y=Array()
    )
    reg["mlgeom.stats.SlopeFit"] = record(St.SlopeFit)
    reg["mlgeom.stats.Interval"] = record(St.Interval)
    reg["mlgeom.stats.mean_interval"] = fn(
        St.mean_interval,
        {"values": [1.0, 2.0, 4.0], "level": 0.95},
        values=Array(),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.stats.paired_interval"] = fn(
        St.paired_interval,
        {"a": [1.0, 2.0, 4.0], "b": [0.0, 1.0, 1.0], "level": 0.95},
        a=Array(),
        b=Array(),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.random.section_rng"] = fn(
        Rnd.section_rng, {"seed": 0, "label": "primer-lift"}, seed=Int(0), label=Skip("a label")
    )
    reg["mlgeom.stats.corrected_paired_interval"] = fn(
        St.corrected_paired_interval,
        {"a": [1.0, 2.0, 4.0], "b": [0.0, 1.0, 1.0], "test_fraction": 0.25, "level": 0.95},
        a=Array(),
        b=Array(),
        test_fraction=Real(0.0, low_open=True),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.stats.slope_interval"] = fn(
        St.slope_interval,
        {
            "x": [1.0, 2.0, 4.0, 1.0, 2.0, 4.0],
            "y": [1.0, 2.0, 5.0, 1.5, 2.5, 4.0],
            "groups": [0, 0, 0, 1, 1, 1],
            "level": 0.95,
        },
        x=Array(),
        y=Array(),
        groups=Skip("labels of any type"),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.stats.loglog_fit_interval"] = fn(
        St.loglog_fit_interval,
        {
            "X": [[2.0, 2.0], [4.0, 2.0], [2.0, 3.0], [4.0, 3.0]] * 2,
            "y": [1.0, 2.0, 3.0, 5.0, 1.5, 2.5, 2.5, 6.0],
            "groups": [0, 0, 0, 0, 1, 1, 1, 1],
            "column": 0,
            "level": 0.95,
        },
        X=Array(),
        y=Array(),
        groups=Skip("labels of any type"),
        column=Int(0, maximum=1),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.stats.within_fit_interval"] = fn(
        St.within_fit_interval,
        {
            "X": [1.0, 2.0, 3.0, 1.0, 2.0, 3.0],
            "y": [1.0, 2.0, 3.5, 4.0, 5.5, 6.0],
            "groups": [0, 0, 0, 1, 1, 1],
            "strata": None,
            "level": 0.95,
            "what": "fit",
        },
        X=Array(),
        y=Array(),
        groups=Skip("labels of any type"),
        strata=Skip("labels of any type, each inside one seed"),
        level=Real(0.0, 1.0, low_open=True, high_open=True),
        what=NAME,
    )
    reg["mlgeom.stats.local_slopes"] = fn(
        St.local_slopes, {"x": [1.0, 2.0, 4.0], "y": [1.0, 2.0, 5.0]}, x=Array(), y=Array()
    )
    reg["mlgeom.stats.holm"] = fn(
        St.holm,
        {"pvalues": [0.01, 0.2], "alpha": 0.05},
        pvalues=Array(),
        alpha=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.stats.one_sided_p"] = fn(
        St.one_sided_p,
        {"interval": St.mean_interval([1.0, 2.0, 4.0]), "low": 0.0, "high": INF},
        interval=Skip("an Interval"),
        low=Skip("an end of the admissible set (may be infinite)"),
        high=Skip("an end of the admissible set (may be infinite)"),
    )
    reg["mlgeom.stats.SlopeFit.predict"] = method(
        lambda: St.SlopeFit(1.0, 0.0, 0.1),
        "predict",
        {"x": [1.0, 2.0]},
        x=Array(empty=True, ndim_probe=False),
    )

    # algorithms
    for loss in ("exponential", "hinge", "squared", "zero_one"):
        reg[f"mlgeom.algorithms.{loss}"] = fn(
            getattr(A, loss), {"z": Z}, z=Array(empty=True, ndim_probe=False)
        )
    reg["mlgeom.algorithms.logistic"] = fn(
        A.logistic, {"z": Z, "base2": True}, z=Array(empty=True, ndim_probe=False), base2=FLAG
    )
    reg["mlgeom.algorithms.margin_loss"] = fn(
        A.margin_loss,
        {"name": "hinge", "z": Z},
        name=Choice(("hinge",)),
        z=Array(empty=True, ndim_probe=False),
    )
    for m in ("margin", "margins"):
        reg[f"mlgeom.algorithms.{m}"] = fn(
            getattr(A, m), {"X": X2, "y": Y2, "w": W2}, X=Array(), y=Array(), w=Array()
        )
    reg["mlgeom.algorithms.OGD"] = fn(
        A.OGD,
        {"shape": (2, 3), "eta": 0.1},
        shape=Skip("a tuple of positive ints (regression test)"),
        eta=Real(0.0, low_open=True),
    )
    reg["mlgeom.algorithms.OGD.update"] = method(
        lambda: A.OGD((2, 3), 0.1), "update", {"grad": np.ones((2, 3))}, grad=Array()
    )
    reg["mlgeom.algorithms.AdaptiveOGD"] = fn(
        A.AdaptiveOGD,
        {"shape": (2, 3), "B": 1.0},
        shape=Skip("a tuple of positive ints (regression test)"),
        B=Real(0.0, low_open=True),
    )
    reg["mlgeom.algorithms.AdaptiveOGD.update"] = method(
        lambda: A.AdaptiveOGD((2, 3), 1.0), "update", {"grad": np.ones((2, 3))}, grad=Array()
    )
    reg["mlgeom.algorithms.CoinBettingOGD"] = fn(
        A.CoinBettingOGD,
        {"shape": (2, 3), "G": 1.0, "epsilon": 1.0},
        shape=Skip("a tuple of positive ints (regression test)"),
        G=Real(0.0, low_open=True),
        epsilon=Real(0.0, low_open=True),
    )
    reg["mlgeom.algorithms.CoinBettingOGD.update"] = method(
        lambda: A.CoinBettingOGD((2, 3), 1.0), "update", {"grad": np.ones((2, 3))}, grad=Array()
    )
    reg["mlgeom.algorithms.perceptron"] = fn(
        A.perceptron,
        {"X": X2, "y": Y2, "max_updates": 10},
        X=Array(),
        y=Array(),
        max_updates=Int(0, optional=True),
    )
    reg["mlgeom.algorithms.max_margin_perceptron"] = fn(
        A.max_margin_perceptron,
        {"X": X2, "y": Y2, "n_steps": 3},
        X=Array(),
        y=Array(),
        n_steps=Int(1),
    )
    reg["mlgeom.algorithms.kernel_matrix"] = fn(
        A.kernel_matrix,
        {"A": X2, "B": X2, "kernel": "gaussian", "bandwidth": 1.0, "degree": 2},
        A=Array(),
        B=Array(),
        kernel=Choice(("gaussian",)),
        bandwidth=Real(0, low_open=True),
        degree=Int(1),
    )
    reg["mlgeom.algorithms.weighted_sample"] = fn(
        A.weighted_sample,
        {"weights": [1.0, 2.0, 3.0], "size": 2, "seed": 0},
        weights=Array(),
        size=Int(0),
        seed=SEED,
    )
    reg["mlgeom.algorithms.cumulative_weights"] = fn(
        A.cumulative_weights, {"weights": [1.0, 2.0]}, weights=Array()
    )
    for rec in (
        "MaxMarginPerceptronResult",
        "PerceptronResult",
        "PrioritySample",
        "RandomFourierFeatures",
    ):
        reg[f"mlgeom.algorithms.{rec}"] = record(getattr(A, rec))

    # multiscale (contextual search, losses)
    reg["mlgeom.multiscale.initial_potential"] = fn(
        MS.initial_potential,
        {"d": 2, "alpha": 1.0, "n_terms": 5},
        d=Int(1),
        alpha=Real(0.0, low_open=True),
        n_terms=Int(1),
    )
    reg["mlgeom.multiscale.uniform_ball"] = fn(
        MS.uniform_ball,
        {"n": 3, "d": 2, "seed": 0, "radius": 1.0},
        n=Int(0),
        d=Int(1),
        seed=SEED,
        radius=Real(0.0, low_open=True),
    )
    reg["mlgeom.multiscale.disk_polygon_area"] = fn(
        MS.disk_polygon_area,
        {"A": [[1.0, 0.0]], "b": [0.5], "radius": 1.0},
        A=Array(empty=True),
        b=Array(empty=True),
        radius=Real(0.0, low_open=True),
    )
    reg["mlgeom.multiscale.steiner_area"] = fn(
        MS.steiner_area,
        {"A": [[1.0, 0.0]], "b": [0.5], "z": 0.1, "radius": 1.0},
        A=Array(empty=True),
        b=Array(empty=True),
        z=Real(0.0),
        radius=Real(0.0, low_open=True),
    )
    reg["mlgeom.multiscale.ball_fraction"] = fn(
        MS.ball_fraction,
        {"A": [[1.0, 0.0]], "b": [0.5], "n": 10, "seed": 0, "radius": 1.0},
        A=Array(empty=True),
        b=Array(empty=True),
        n=Int(1),
        seed=SEED,
        radius=Real(0.0, low_open=True),
    )
    cs_kw = {
        "d": 2,
        "alpha": 1.0,
        "n_terms": 5,
        "n_particles": 4,
        "n_steps": 1,
        "ball_tol": 1e-3,
        "seed": 0,
        "sampler": "convolution",
        "sum_steps": 1,
    }
    cs_dom = {
        "d": Int(1),
        "alpha": Real(0.0, low_open=True),
        "n_terms": Int(1),
        "n_particles": Int(2),
        "n_steps": Int(0),
        "ball_tol": Real(0.0, low_open=True),
        "seed": SEED,
        "sampler": Choice(("convolution", "minkowski", "printed")),
        "sum_steps": Int(0, optional=True),
    }
    reg["mlgeom.multiscale.ContextualSearch"] = fn(MS.ContextualSearch, cs_kw, **cs_dom)

    def cs():
        return MS.ContextualSearch(**cs_kw)

    reg["mlgeom.multiscale.ContextualSearch.guess"] = method(
        cs, "guess", {"x": [1.0, 0.0], "width": 0.5}, x=Array(), width=Real(0.0, optional=True)
    )
    reg["mlgeom.multiscale.ContextualSearch.update"] = method(
        cs, "update", {"a": [1.0, 0.0], "b": 0.0}, a=Array(), b=Real()
    )
    reg["mlgeom.multiscale.ContextualSearch.potential_decrease"] = method(
        cs, "potential_decrease", {"a": [1.0, 0.0], "b": 0.0}, a=Array(), b=Real()
    )
    reg["mlgeom.multiscale.ContextualSearch.scale_index"] = method(
        cs, "scale_index", {"width": 0.5}, width=Real(0.0)
    )
    reg["mlgeom.multiscale.nn_loss"] = fn(
        MS.nn_loss,
        {"q": [1.0, 0.0], "X": np.eye(2), "label": 1, "kind": "inner", "p": 2.0},
        q=Array(),
        X=Array(),
        label=Int(0, maximum=1),
        kind=Choice(("inner",)),
        p=Real(1.0),
    )
    reg["mlgeom.multiscale.robust_mistakes"] = fn(
        MS.robust_mistakes,
        {"losses": [0.1, 0.5], "gamma": 0.2},
        losses=Array(empty=True),
        gamma=Real(0.0, low_open=True),
    )
    reg["mlgeom.multiscale.scale_loss_bound"] = fn(
        MS.scale_loss_bound,
        {"i": 2, "width_below": 0.1, "d": 2, "p": 2.0, "Delta": 0.5},
        i=Int(1, optional=True),
        width_below=Real(optional=True),
        d=Int(1),
        p=Real(2.0),
        Delta=Real(0.0, low_open=True),
    )

    # fenchel_young
    reg["mlgeom.fenchel_young.softmax"] = fn(
        FY.softmax,
        {"theta": [1.0, 2.0], "axis": -1},
        theta=Array(finite=False, ndim_probe=False),
        axis=Skip("an axis of theta (out-of-range axes are refused; tested in the regressions)"),
    )
    reg["mlgeom.fenchel_young.eta_gaptron"] = fn(
        FY.eta_gaptron, {"d": 3, "C": 1.0}, d=Int(1), C=Real(0.0, low_open=True)
    )
    reg["mlgeom.fenchel_young.eta_theorem_5_1"] = fn(
        FY.eta_theorem_5_1, {"C": 1.0}, C=Real(0.0, low_open=True)
    )
    lab = np.array([0, 1, 1])
    reg["mlgeom.fenchel_young.logistic_ogd_loop"] = fn(
        FY.logistic_ogd_loop,
        lambda: {
            "X": X2,
            "labels": lab,
            "order": np.array([0, 2]),
            "uniforms": np.full((2, 2), 0.5),
            "d": 2,
            "eta": 0.1,
            "decoding": "randomized",
            "libm": False,
        },
        X=Array(),
        labels=Skip("class indices (regression tests)"),
        order=Skip("indices into X (regression tests)"),
        uniforms=Array(),
        d=Int(2),
        eta=Real(0.0, low_open=True),
        decoding=Choice(("randomized",)),
        libm=FLAG,
    )
    reg["mlgeom.fenchel_young.logistic_ogd_batch"] = fn(
        FY.logistic_ogd_batch,
        lambda: {
            "X": X2,
            "labels": lab,
            "orders": np.array([[0, 2]]),
            "uniforms": np.full((1, 2, 2), 0.5),
            "d": 2,
            "eta": 0.1,
            "decoding": "randomized",
            "n_threads": 1,
        },
        X=Array(),
        labels=Skip("class indices (regression tests)"),
        orders=Skip("indices into X (regression tests)"),
        uniforms=Array(ndim_probe=True),
        d=Int(2),
        eta=Real(0.0, low_open=True),
        decoding=Choice(("randomized",)),
        n_threads=Int(1, optional=True),
    )

    # metric_nn
    D3 = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])
    reg["mlgeom.metric_nn.margin_function"] = fn(
        MN.margin_function,
        lambda: {"dist": D3[:2], "y_s1": np.array([0, 1, 1]), "n_classes": 2, "L": 1.0},
        dist=Array(),
        y_s1=Skip("class indices (regression tests)"),
        n_classes=Int(1),
        L=Real(0.0),
    )
    reg["mlgeom.metric_nn.doubling_dimension"] = fn(
        MN.doubling_dimension,
        {"D": D3, "n_scales": 3, "min_net": 2},
        D=Array(),
        n_scales=Int(1),
        min_net=Int(1),
    )

    # primer
    reg["mlgeom.primer.kernel_perceptron"] = fn(
        P.kernel_perceptron,
        {
            "X": X2,
            "y": Y2,
            "kernel": "gaussian",
            "rule": "cyclic",
            "n_steps": None,
            "max_updates": 5,
            "bandwidth": 1.0,
            "degree": 2,
        },
        X=Array(),
        y=Array(),
        kernel=Choice(("gaussian",)),
        rule=Choice(("cyclic",)),
        n_steps=Skip("only with rule='most_violated'"),
        max_updates=Int(0, optional=True),
        bandwidth=Real(0.0, low_open=True),
        degree=Skip("only with the polynomial kernel"),
    )

    # hierarchical
    reg["mlgeom.hierarchical.tokenize"] = fn(
        H.tokenize, {"text": "a b"}, text=Skip("a str (None refused: regression test)")
    )
    # more primer / metric_nn / fenchel_young / multiscale
    reg["mlgeom.primer.polynomial_fit"] = fn(
        P.polynomial_fit,
        {"x": [0.0, 1.0, 2.0], "y": [1.0, 0.0, 1.0], "degree": 1},
        x=Array(),
        y=Array(),
        degree=Int(0),
    )
    reg["mlgeom.primer.polynomial_sse"] = fn(
        P.polynomial_sse,
        {"coef": [1.0, 0.0], "x": [0.0, 1.0], "y": [0.0, 1.0]},
        coef=Array(),
        x=Array(),
        y=Array(),
    )
    reg["mlgeom.algorithms.select_by_cumulative"] = fn(
        A.select_by_cumulative,
        {"t": [0.2, 0.5, 1.0], "u": 0.3},
        t=Array(),
        u=Real(0.0, 1.0, low_open=True),
    )
    reg["mlgeom.algorithms.priority_estimate_from_tau"] = fn(
        A.priority_estimate_from_tau,
        {"kept_weights": [1.0, 2.0], "tau": 0.5},
        kept_weights=Array(empty=True),
        tau=Real(0.0),
    )
    reg["mlgeom.algorithms.random_fourier_features"] = fn(
        A.random_fourier_features,
        {"d": 2, "rho": 3, "bandwidth": 1.0, "seed": 0},
        d=Int(1),
        rho=Int(1),
        bandwidth=Real(0.0, low_open=True),
        seed=SEED,
    )
    reg["mlgeom.algorithms.planted_margin_data"] = fn(
        A.planted_margin_data,
        {"n": 5, "d": 2, "gamma": 0.1, "seed": 0},
        n=Int(1),
        d=Int(1),
        gamma=Real(0.0, 1.0, low_open=True, high_open=True),
        seed=SEED,
    )
    reg["mlgeom.metric_nn.edit_distance"] = fn(
        MN.edit_distance,
        {"s": "kitten", "t": "sitting"},
        s=Skip("a str (None refused)"),
        t=Skip("a str (None refused)"),
    )
    reg["mlgeom.metric_nn.diameter"] = fn(MN.diameter, {"D": D3}, D=Array())
    reg["mlgeom.metric_nn.greedy_net"] = fn(
        MN.greedy_net, {"D": D3, "r": 0.5}, D=Array(), r=Real(0.0)
    )
    edges = np.array([[0, 1], [1, 2]])
    reg["mlgeom.metric_nn.exact_vertex_cover"] = fn(
        MN.exact_vertex_cover,
        {"edges": edges, "n": 3},
        edges=Skip("vertex pairs (integer indices)"),
        n=Int(1),
    )
    reg["mlgeom.metric_nn.matching_cover"] = fn(
        MN.matching_cover,
        {"edges": edges, "n": 3},
        edges=Skip("vertex pairs (integer indices)"),
        n=Int(1),
    )
    reg["mlgeom.metric_nn.conflict_edges"] = fn(
        MN.conflict_edges,
        lambda: {"D": D3, "y": np.array([0, 1, 0]), "L": 1.0},
        D=Array(),
        y=Skip("class indices"),
        L=Real(0.0),
    )
    reg["mlgeom.metric_nn.theorem1_bound"] = fn(
        MN.theorem1_bound,
        {"n": [10.0, 100.0], "bayes_risk": 0.1, "L": 1.0, "D": 2.0},
        n=Array(empty=True, ndim_probe=False),
        bayes_risk=Real(0.0, 1.0),
        L=Real(0.0),
        D=Real(0.0, low_open=True),
    )
    reg["mlgeom.fenchel_young.logsumexp"] = fn(
        FY.logsumexp,
        {"theta": [1.0, 2.0], "axis": -1},
        theta=Array(finite=False, ndim_probe=False),
        axis=Skip("an axis of theta"),
    )
    reg["mlgeom.fenchel_young.isotonic_decreasing"] = fn(
        FY.isotonic_decreasing, {"v": [1.0, 2.0, 0.5]}, v=Array(ndim_probe=False)
    )
    reg["mlgeom.fenchel_young.smooth_hinge"] = fn(
        FY.smooth_hinge, {"margin": [-1.0, 0.5, 2.0]}, margin=Array(empty=True, ndim_probe=False)
    )
    reg["mlgeom.fenchel_young.appendix_d_ratio"] = fn(
        FY.appendix_d_ratio, {"eps": 0.1}, eps=Real(0.0, low_open=True)
    )
    reg["mlgeom.fenchel_young.appendix_d_ratio_closed_form"] = fn(
        FY.appendix_d_ratio_closed_form, {"eps": 0.1}, eps=Real(0.0, low_open=True)
    )
    reg["mlgeom.fenchel_young.assignment"] = fn(
        FY.assignment, {"cost": np.array([[1.0, 2.0], [2.0, 0.5]])}, cost=Array()
    )
    reg["mlgeom.fenchel_young.sinkhorn_log"] = fn(
        FY.sinkhorn_log,
        {
            "log_kernel": np.array([[0.0, -1.0], [-1.0, 0.0]]),
            "tol": 1e-9,
            "max_iter": 100,
            "sweeps": 10,
        },
        log_kernel=Array(ndim_probe=False),
        tol=Real(0.0, low_open=True),
        max_iter=Int(1),
        sweeps=Int(1),
    )
    for f in ("D_i", "delta_i", "map_dimension", "threshold", "lemma_e2_bound"):
        reg[f"mlgeom.multiscale.{f}"] = fn(
            getattr(MS, f), {"i": 1, "d": 2, "p": 2.0}, i=Int(1), d=Int(1), p=Real(1.0)
        )
    reg["mlgeom.multiscale.similarity"] = fn(
        MS.similarity,
        {"q": [1.0, 0.0], "X": np.eye(2), "kind": "lp", "p": 2.0},
        q=Array(),
        X=Array(),
        kind=Choice(("lp",)),
        p=Real(1.0),
    )
    reg["mlgeom.multiscale.true_label"] = fn(
        MS.true_label,
        {"q": [1.0, 0.0], "X": np.eye(2), "kind": "lp", "p": 2.0},
        q=Array(),
        X=Array(),
        kind=Choice(("lp",)),
        p=Real(1.0),
    )
    # book (claims criteria, profiles) and hierarchical (losses, costs, vectors)
    import mlgeom.book as B

    reg["mlgeom.book.at_least"] = fn(
        B.at_least, {"bound": 1.0, "label": None}, bound=Real(), label=NAME
    )
    reg["mlgeom.book.at_most"] = fn(
        B.at_most, {"bound": 1.0, "label": None}, bound=Real(), label=NAME
    )
    reg["mlgeom.book.between"] = fn(B.between, {"low": 0.0, "high": 1.0}, low=Real(), high=Real())
    reg["mlgeom.book.within_abs"] = fn(
        B.within_abs, {"target": 1.0, "tol": 0.1}, target=Real(), tol=Real(0.0)
    )
    reg["mlgeom.book.within_rel"] = fn(
        B.within_rel, {"target": 1.0, "rel": 0.1}, target=Real(), rel=Real(0.0)
    )
    reg["mlgeom.book.check_profile"] = fn(
        B.check_profile, {"profile": "book"}, profile=Choice(("smoke", "book", "paper"))
    )
    reg["mlgeom.book.pick"] = fn(
        B.pick,
        {"profile": "book", "smoke": 1, "book": 2, "paper": 3},
        profile=Choice(("smoke", "book", "paper")),
        smoke=Skip("any value"),
        book=Skip("any value"),
        paper=Skip("any value"),
    )
    G = H.rcv1_like_forest()
    Yb = np.zeros((2, G.n_nodes), dtype=bool)
    reg["mlgeom.hierarchical.depth_costs"] = fn(
        H.depth_costs,
        {"taxonomy": G, "decay": 0.5},
        taxonomy=Skip("a Taxonomy"),
        decay=Real(0.0, low_open=True),
    )
    reg["mlgeom.hierarchical.zero_one_loss"] = fn(
        H.zero_one_loss,
        {"Yhat": Yb, "V": Yb},
        Yhat=Skip("0/1 multilabels (check_multilabels)"),
        V=Skip("0/1 multilabels (check_multilabels)"),
    )
    reg["mlgeom.hierarchical.symmetric_difference_loss"] = fn(
        H.symmetric_difference_loss,
        {"Yhat": Yb, "V": Yb},
        Yhat=Skip("0/1 multilabels (check_multilabels)"),
        V=Skip("0/1 multilabels (check_multilabels)"),
    )
    reg["mlgeom.hierarchical.log_tf_idf"] = fn(
        H.log_tf_idf,
        {"documents": [["a", "b"], ["a"]], "min_count": 1, "stop_words": ()},
        documents=Skip("token lists"),
        min_count=Int(1),
        stop_words=Skip("an iterable of str"),
    )
    reg["mlgeom.hierarchical.strip_heading"] = fn(
        H.strip_heading, {"heading": "Quality*"}, heading=Skip("a str")
    )
    nn = {"n": [100.0, 1000.0], "L": 1.0, "delta": 0.05, "k": 3, "D": 2.0}
    nn_dom = {
        "n": Array(empty=True, ndim_probe=False),
        "L": Skip("vectorised: a number or an array (broadcast with n)"),
        "delta": Real(0.0, 1.0, low_open=True, high_open=True),
        "k": Skip("vectorised: an int or an int array"),
        "D": Real(0.0, low_open=True),
    }
    reg["mlgeom.metric_nn.delta_rad"] = fn(
        MN.delta_rad, {**nn, "c_D": 1.0}, **nn_dom, c_D=Real(0.0, low_open=True)
    )
    reg["mlgeom.metric_nn.delta_fat"] = fn(
        MN.delta_fat, {**nn, "fat_factor": 2.0}, **nn_dom, fat_factor=Real(1.0)
    )
    reg["mlgeom.fenchel_young.bound_gaptron"] = fn(
        FY.bound_gaptron,
        {"d": 3, "C": 1.0, "U_norm_sq": 1.0},
        d=Int(1),
        C=Real(0.0, low_open=True),
        U_norm_sq=Real(0.0),
    )
    reg["mlgeom.fenchel_young.bound_theorem_5_1"] = fn(
        FY.bound_theorem_5_1,
        {"C": 1.0, "U_norm_sq": 1.0},
        C=Real(0.0, low_open=True),
        U_norm_sq=Real(0.0),
    )
    reg["mlgeom.multiscale.p_prime"] = fn(MS.p_prime, {"p": 2.0}, p=Real(1.0))
    reg["mlgeom.multiscale.z_scale"] = fn(
        MS.z_scale, {"i": 1, "d": 2}, i=Skip("an int or an int array"), d=Int(1)
    )
    # ---------------------------------------------------------------- wave 2: primitives,
    # algorithms, book and primer (issue 16)
    reg.update(_scope_primitives_algorithms(X2, Y2))
    reg.update(_scope_book())
    reg.update(_scope_primer(X2, Y2))
    _ = math  # keep the import for future closed forms
    return reg


def _scope_primitives_algorithms(X2: np.ndarray, Y2: np.ndarray) -> dict[str, Spec]:
    import mlgeom.algorithms as A
    from mlgeom import parallel as Par

    reg: dict[str, Spec] = {}
    for name in ("backend", "close_dask", "n_jobs_default", "progress_enabled"):
        reg[f"mlgeom.parallel.{name}"] = fn(getattr(Par, name), {})
    reg["mlgeom.parallel.pmap"] = fn(
        Par.pmap,
        {"fn": abs, "items": [-1, 2], "n_jobs": 1, "desc": None},
        fn=Skip("a callable"),
        items=Skip("any iterable of items"),
        n_jobs=Int(1, optional=True),
        desc=NAME,
    )

    reg["mlgeom.algorithms.OnlinePerceptron"] = fn(A.OnlinePerceptron, {"d": 2}, d=Int(1))
    for m in ("learn", "predict"):
        extra = {"true_label": 1} if m == "learn" else {}
        doms = {"true_label": Int(1, maximum=2)} if m == "learn" else {}
        reg[f"mlgeom.algorithms.OnlinePerceptron.{m}"] = method(
            lambda: A.OnlinePerceptron(2), m, {"q": [1.0, 0.5], **extra}, q=Array(), **doms
        )
    reg["mlgeom.algorithms.MulticlassPerceptron"] = fn(
        A.MulticlassPerceptron, {"k": 3, "d": 2}, k=Int(2), d=Int(1)
    )
    for m in ("learn", "predict"):
        extra = {"true_label": 2} if m == "learn" else {}
        doms = {"true_label": Int(0, maximum=2)} if m == "learn" else {}
        reg[f"mlgeom.algorithms.MulticlassPerceptron.{m}"] = method(
            lambda: A.MulticlassPerceptron(3, 2), m, {"q": [1.0, 0.5], **extra}, q=Array(), **doms
        )
    reg["mlgeom.algorithms.RandomFourierFeatures.transform"] = method(
        lambda: A.random_fourier_features(2, 3, seed=0), "transform", {"X": X2}, X=Array()
    )
    kern = {
        "kernel": Choice(("gaussian",)),
        "bandwidth": Real(0.0, low_open=True),
        "degree": Int(1),
    }
    reg["mlgeom.algorithms.kde"] = fn(
        A.kde,
        {
            "W": X2,
            "X": X2[:2],
            "kernel": "gaussian",
            "bandwidth": 1.0,
            "degree": 2,
            "weights": [1.0, 2.0, 1.0],
        },
        W=Array(),
        X=Array(),
        weights=Array(),
        **kern,
    )
    reg["mlgeom.algorithms.kde_sup_error"] = fn(
        A.kde_sup_error,
        {"X": X2, "S": X2[:2], "queries": X2, "kernel": "gaussian", "bandwidth": 1.0, "degree": 2},
        X=Array(),
        S=Array(),
        queries=Array(),
        **kern,
    )
    reg["mlgeom.algorithms.priority_sample"] = fn(
        A.priority_sample,
        {"weights": [1.0, 2.0, 3.0], "k": 2, "seed": None, "u": [0.5, 0.25, 0.75]},
        weights=Array(),
        k=Int(1),
        seed=SEED,
        u=Array(),
    )
    reg["mlgeom.algorithms.rff_sup_error"] = fn(
        A.rff_sup_error,
        lambda: {
            "X": X2,
            "features": A.random_fourier_features(2, 3, seed=0),
            "bandwidth": 1.0,
        },
        X=Array(),
        features=Skip("a RandomFourierFeatures (another type is refused, naming it)"),
        bandwidth=Real(0.0, low_open=True, optional=True),
    )
    return reg


_TMP: list[Any] = []


def _book_fixture() -> Any:
    """A one-claim registry, a written record and a one-file data manifest in a temporary folder."""
    import atexit
    import json
    import shutil
    import tempfile
    from pathlib import Path

    if _TMP:
        return _TMP[0]
    tmp = Path(tempfile.mkdtemp(prefix="mlgeom-api-domains-"))
    atexit.register(shutil.rmtree, tmp, True)
    (tmp / "t.toml").write_text(
        'notebook = "t"\n\n[[claim]]\nid = "t.small"\nkind = "check"\n'
        'statement = "A small number"\ncriterion = "<= 1"\n',
        encoding="utf-8",
    )
    for sub in ("produced", "committed"):
        (tmp / sub).mkdir()
    (tmp / "data").mkdir()
    (tmp / "data" / "a.txt").write_text("a\n", encoding="utf-8")
    import hashlib

    digest = hashlib.sha256(b"a\n").hexdigest()
    manifest = {
        "datasets": {
            "a": {
                "description": "a file",
                "source": "here",
                "terms": "none",
                "get": "nothing",
                "files": {"a.txt": digest},
            }
        }
    }
    (tmp / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    _TMP.append(tmp)
    from mlgeom.book import ClaimsRecord

    for sub in ("produced", "committed"):
        rec = ClaimsRecord("t", "book", directory=tmp / sub, registry=tmp / "t.toml")
        rec.measure("t.small", 0.5)
        rec.write()
    return tmp


def _scope_book() -> dict[str, Spec]:
    import matplotlib.figure
    import pandas as pd

    import mlgeom.book as B

    reg: dict[str, Spec] = {}
    for rec in (
        "Baseline",
        "Bounds",
        "Claim",
        "Criterion",
        "Dataset",
        "Registry",
        "RegistryEntry",
        "Headline",
        "HeadlineVerdict",
        "Provenance",
    ):
        reg[f"mlgeom.book.{rec}"] = record(getattr(B, rec))
    reg["mlgeom.book.Provenance.to_json"] = method(lambda: B.Provenance(), "to_json", {})
    reg["mlgeom.book.claim_p_value"] = fn(
        B.claim_p_value, {"c": {"judge": "point"}}, c=Skip("a record's claim")
    )
    reg["mlgeom.book.headline_verdicts"] = fn(
        B.headline_verdicts,
        {"notebook": "geometry_primer"},
        notebook=Skip("a chapter's notebook stem"),
        record=Skip("a loaded record"),
        registry=Skip("a Registry"),
    )
    git = Skip("a git checkout (tests/book/test_provenance.py makes one)")
    reg["mlgeom.book.compute_provenance"] = fn(B.compute_provenance, {}, root=git)
    reg["mlgeom.book.mixed_commits"] = fn(
        B.mixed_commits, {}, root=git, since=Skip("an ISO date compared as text")
    )
    reg["mlgeom.book.load_provenance"] = fn(
        B.load_provenance, {}, path=Skip("a path; a missing file gives {}")
    )
    reg["mlgeom.book.provenance_path"] = fn(B.provenance_path, {})
    # an exception class: inspect.signature has nothing to check
    reg["mlgeom.book.DataError"] = record(B.DataError)
    reg["mlgeom.book.Baseline.to_json"] = method(
        lambda: B.Baseline("plain", 2.0, False),
        "to_json",
        lambda: {"criterion": B.at_most(1.0), "bounds": None},
        criterion=Skip("a Criterion or None"),
        bounds=Skip("a Bounds or None"),
    )
    reg["mlgeom.book.Bounds.contains"] = method(
        lambda: B.Bounds(high=1.0), "contains", {"value": 0.5}, value=Real()
    )
    for m in ("contains_all", "contains_any"):
        reg[f"mlgeom.book.Bounds.{m}"] = method(
            lambda: B.Bounds(high=1.0), m, {"low": 0.0, "high": 0.5}, low=Real(), high=Real()
        )
    reg["mlgeom.book.Claim.to_json"] = method(
        lambda: B.Claim("a.b", "A claim", None, 0.5, B.at_most(1.0)), "to_json", {}
    )

    def claims_record(measured: bool = True) -> Any:
        tmp = _book_fixture()
        rec = B.ClaimsRecord("t", "smoke", directory=tmp / "out", registry=tmp / "t.toml")
        if measured:
            rec.measure("t.small", 0.5)
        return rec

    reg["mlgeom.book.ClaimsRecord"] = fn(
        B.ClaimsRecord,
        lambda: {
            "notebook": "t",
            "profile": "smoke",
            "directory": _book_fixture() / "out",
            "registry": _book_fixture() / "t.toml",
        },
        notebook=Skip("a notebook stem (a path or non-str is refused, naming it)"),
        profile=Choice(("smoke", "book", "paper")),
        directory=Skip("a path"),
        registry=Skip("a Registry or the path of its TOML file"),
    )
    for m in ("counts", "summary", "to_json", "unmeasured", "write"):
        reg[f"mlgeom.book.ClaimsRecord.{m}"] = method(claims_record, m, {})
    reg["mlgeom.book.ClaimsRecord.measure"] = method(
        lambda: claims_record(False),
        "measure",
        {"id": "t.small", "measured": 0.5, "seeds": 3},
        id=Skip("a registry id (an unknown one raises KeyError naming the registry)"),
        measured=Real(),
        value=Skip("what the criterion sees: any value"),
        refs=Skip("a mapping of the criterion's names"),
        scale=NAME,
        interval=Skip("an Interval (only for judge = 'interval')"),
        seeds=Int(1, optional=True),
        baseline=Skip("only where the registry names a baseline"),
        baseline_value=Skip("only where the registry names a baseline"),
        baseline_interval=Skip("only where the registry names a baseline"),
        competitor=Skip("only where the registry names a competitor"),
        competitor_value=Skip("only where the registry names a competitor"),
        competitor_interval=Skip("only where the registry names a competitor"),
        note=NAME,
    )
    reg["mlgeom.book.ClaimsRecord.table"] = method(
        claims_record, "table", {"ids": None}, ids=Skip("claim ids (KeyError on an unknown one)")
    )
    reg["mlgeom.book.ClaimsRecord.glue"] = method(
        claims_record,
        "glue",
        {"claim_id": "t.small", "fmt": "{:.3g}"},
        claim_id=Skip("a measured claim id"),
        fmt=Skip("a str.format pattern"),
    )
    reg["mlgeom.book.compare_records"] = fn(
        B.compare_records,
        lambda: {
            "produced": _book_fixture() / "produced",
            "committed": _book_fixture() / "committed",
            "notebooks": None,
        },
        produced=Skip("a folder"),
        committed=Skip("a folder"),
        notebooks=Skip("notebook stems"),
    )
    reg["mlgeom.book.load_record"] = fn(
        B.load_record,
        lambda: {"path": _book_fixture() / "committed" / "t.json"},
        path=Skip("a path (problems raise ValueError naming the file)"),
    )
    reg["mlgeom.book.load_registry"] = fn(
        B.load_registry,
        lambda: {"notebook": "t", "path": _book_fixture() / "t.toml"},
        notebook=Skip("a notebook stem"),
        path=Skip("a path (problems raise ValueError naming the file)"),
    )
    reg["mlgeom.book.parse_criterion"] = fn(
        B.parse_criterion, {"text": "<= 1"}, text=Skip("a criterion text (ValueError naming it)")
    )
    for name in ("data_dir", "registry_dir", "use_style"):
        reg[f"mlgeom.book.{name}"] = fn(getattr(B, name), {})
    reg["mlgeom.book.registry_path"] = fn(
        B.registry_path, {"notebook": "geometry_primer"}, notebook=NAME
    )
    reg["mlgeom.book.project_root"] = fn(B.project_root, {"start": None}, start=Skip("a path"))
    reg["mlgeom.book.results_dir"] = fn(
        B.results_dir, {"profile": "smoke"}, profile=Choice(("smoke", "book", "paper"))
    )
    reg["mlgeom.book.equals"] = fn(B.equals, {"expected": 3}, expected=Skip("any value"))
    reg["mlgeom.book.predicate"] = fn(
        B.predicate,
        {"description": "positive", "test": lambda m: m > 0},
        description=NAME,
        test=Skip("a callable"),
    )
    reg["mlgeom.book.figure"] = fn(
        B.figure,
        {"ncols": 1, "nrows": 1, "width": 3.0, "height": 2.0},
        ncols=Int(1),
        nrows=Int(1),
        width=Real(0.0, low_open=True, optional=True),
        height=Real(0.0, low_open=True, optional=True),
    )
    _ = matplotlib.figure
    df = pd.DataFrame({"a": [1.0, 2.0]})
    reg["mlgeom.book.markdown_table"] = fn(
        B.markdown_table, {"df": df}, df=Skip("a DataFrame or Series (TypeError otherwise)")
    )
    reg["mlgeom.book.glue_table"] = fn(
        B.glue_table,
        {"df": df, "name": "api-domains"},
        df=Skip("a DataFrame or Series"),
        name=NAME,
    )
    reg["mlgeom.book.load_manifest"] = fn(
        B.load_manifest,
        lambda: {"path": _book_fixture() / "manifest.json"},
        path=Skip("a path (DataError naming the file)"),
    )
    reg["mlgeom.book.require"] = fn(
        B.require,
        lambda: {
            "name": "a",
            "manifest": B.load_manifest(_book_fixture() / "manifest.json"),
            "root": _book_fixture() / "data",
        },
        name=Skip("a manifest key (DataError naming it)"),
        manifest=Skip("a parsed manifest"),
        root=Skip("a folder"),
    )
    reg["mlgeom.book.status"] = fn(
        B.status,
        lambda: {
            "manifest": B.load_manifest(_book_fixture() / "manifest.json"),
            "root": _book_fixture() / "data",
        },
        manifest=Skip("a parsed manifest"),
        root=Skip("a folder"),
    )
    reg["mlgeom.book.sha256"] = fn(
        B.sha256, lambda: {"path": _book_fixture() / "data" / "a.txt"}, path=Skip("a file path")
    )
    reg["mlgeom.book.summarize"] = fn(
        B.summarize,
        {"claims": [{"kind": "check", "holds": True}]},
        claims=Skip("record claims (mappings)"),
    )
    reg["mlgeom.book.summary_sentence"] = fn(
        B.summary_sentence,
        {"counts": dict.fromkeys(B.COUNT_KEYS, 1)},
        counts=Skip("a mapping of COUNT_KEYS to counts"),
    )
    return reg


def _scope_primer(X2: np.ndarray, Y2: np.ndarray) -> dict[str, Spec]:
    import mlgeom.primer as P

    reg: dict[str, Spec] = {}
    for rec in (
        "GilbertResult",
        "GilbertSweep",
        "KernelPerceptron",
        "PerceptronProofSteps",
        "QPResult",
    ):
        reg[f"mlgeom.primer.{rec}"] = record(getattr(P, rec))
    Pq = np.array([[2.0, 0.0], [2.0, 1.0]])
    Qq = np.array([[0.0, 0.0], [0.0, 1.0]])

    def model() -> Any:
        return P.kernel_perceptron(X2, Y2, "gaussian", max_updates=20)

    for m in ("decision_function", "predict"):
        reg[f"mlgeom.primer.KernelPerceptron.{m}"] = method(model, m, {"Xq": X2}, Xq=Array())
    reg["mlgeom.primer.class_polytopes"] = fn(
        P.class_polytopes, {"X": X2, "y": Y2}, X=Array(), y=Array()
    )
    reg["mlgeom.primer.polytope_distance_qp"] = fn(
        P.polytope_distance_qp, {"P": Pq, "Q": Qq}, P=Array(), Q=Array()
    )
    reg["mlgeom.primer.gilbert"] = fn(
        P.gilbert,
        {"P": Pq, "Q": Qq, "n_iter": 5, "tol": 0.0},
        P=Array(),
        Q=Array(),
        n_iter=Int(1),
        tol=Real(0.0),
    )
    eps = Array(ndim_probe=True)
    reg["mlgeom.primer.gilbert_sweep"] = fn(
        P.gilbert_sweep,
        {"P": Pq, "Q": Qq, "eps_grid": [0.5]},
        P=Array(),
        Q=Array(),
        eps_grid=eps,
    )
    for f in ("halfplane_discrepancy", "halfplane_net_gap"):
        reg[f"mlgeom.primer.{f}"] = fn(
            getattr(P, f),
            {"X": X2, "S": X2[:2], "n_directions": 8, "exact": False},
            X=Array(),
            S=Array(),
            n_directions=Int(1),
            exact=FLAG,
        )
    rng = np.random.default_rng(0)
    Xh = rng.normal(size=(10, 2))
    reg["mlgeom.primer.halfplane_sample_sweep"] = fn(
        P.halfplane_sample_sweep,
        {"X": Xh, "sizes": [2, 4], "reps": 1, "n_directions": 8, "seed": 0, "exact": False},
        X=Array(),
        sizes=Array(),
        reps=Int(1),
        n_directions=Int(1),
        seed=SEED,
        exact=FLAG,
    )
    reg["mlgeom.primer.HalvingSweep"] = record(P.HalvingSweep)
    Xg = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.1]])  # general position
    reg["mlgeom.primer.HalfplaneSweep"] = fn(P.HalfplaneSweep, {"X": Xg}, X=Array())
    for m in ("deviation", "net_gap", "weights"):
        reg[f"mlgeom.primer.HalfplaneSweep.{m}"] = method(
            lambda: P.HalfplaneSweep(Xg), m, {"S": np.array([0, 2])}, S=Array()
        )
    reg["mlgeom.primer.hilbert_order"] = fn(
        P.hilbert_order, {"X": Xg, "bits": 4}, X=Array(), bits=Int(1)
    )
    reg["mlgeom.primer.halving_sample"] = fn(
        P.halving_sample, {"X": Xg, "size": 2, "seed": 0}, X=Array(), size=Int(1), seed=SEED
    )
    reg["mlgeom.primer.halving_sweep"] = fn(
        P.halving_sweep,
        {"X": Xg, "sizes": [1, 2], "reps": 1, "compare_size": 2, "seed": 0},
        X=Array(),
        sizes=Array(),
        reps=Int(1),
        compare_size=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.kde_error_sweep"] = fn(
        P.kde_error_sweep,
        {"X": Xh, "queries": X2, "sizes": [2, 4], "reps": 1, "seed": 0},
        X=Array(),
        queries=Array(),
        sizes=Array(),
        reps=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.rff_error_sweep"] = fn(
        P.rff_error_sweep,
        {"X": X2, "rhos": [2, 4], "reps": 1, "seed": 0},
        X=Array(),
        rhos=Array(),
        reps=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.mistake_bound_sweep"] = fn(
        P.mistake_bound_sweep,
        {"gammas": [0.3], "n": 20, "d": 2, "reps": 1, "seed": 0},
        gammas=Array(),
        n=Int(1),
        d=Int(1),
        reps=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.max_margin_perceptron_sweep"] = fn(
        P.max_margin_perceptron_sweep,
        {"X": X2, "y": Y2, "eps_grid": [0.5], "n_jobs": 1},
        X=Array(),
        y=Array(),
        eps_grid=eps,
        n_jobs=Int(1, optional=True),
    )
    reg["mlgeom.primer.max_margin_seed_sweep"] = fn(
        P.max_margin_seed_sweep,
        {"n": 20, "d": 2, "gamma": 0.3, "eps_grid": [0.5], "n_seeds": 1, "seed": 0},
        n=Int(1),
        d=Int(1),
        gamma=Real(0.0, 1.0, low_open=True, high_open=True),
        eps_grid=eps,
        n_seeds=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.feature_dimension_sweep"] = fn(
        P.feature_dimension_sweep,
        {"dims": [1, 2], "degree": 2, "seed": 0, "oversample": 1.5},
        dims=Array(),
        degree=Int(1),
        seed=SEED,
        oversample=Real(1.0, low_open=True),
    )
    reg["mlgeom.primer.novikoff_alignment"] = fn(
        P.novikoff_alignment,
        {"X": [[0.5, 0.8], [0.6, -0.8]], "y": [1.0, 1.0], "w_star": [1.0, 0.0], "gamma": 0.5},
        X=Array(),
        y=Array(),
        w_star=Array(),
        gamma=Real(0.0, 1.0, low_open=True, high_open=True),
    )
    reg["mlgeom.primer.novikoff_alignment_sweep"] = fn(
        P.novikoff_alignment_sweep,
        {"gammas": [0.3], "n": 20, "d": 2, "reps": 1, "seed": 0},
        gammas=Array(),
        n=Int(1),
        d=Int(1),
        reps=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.perceptron_proof_steps"] = fn(
        P.perceptron_proof_steps,
        {
            "X": [[1.0, 0.2], [-0.5, 1.0], [-1.0, -0.1]],
            "y": [1.0, 1.0, -1.0],
            "w_prime": [0.0, 1.0],
        },
        X=Array(),
        y=Array(),
        w_prime=Array(),
    )
    reg["mlgeom.primer.perceptron_proof_sweep"] = fn(
        P.perceptron_proof_sweep,
        {"gammas": [0.3], "n": 20, "d": 2, "reps": 1, "seed": 0},
        gammas=Array(),
        n=Int(1),
        d=Int(1),
        reps=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.per_seed_slopes"] = fn(
        P.per_seed_slopes,
        {"x": [1.0, 2.0, 4.0], "values": np.array([[1.0, 2.0], [0.7, 1.5], [0.5, 1.0]])},
        x=Array(),
        values=Array(),
    )
    reg["mlgeom.primer.priority_bias_draws"] = fn(
        P.priority_bias_draws,
        {"weights": [1.0, 2.0, 3.0], "k": 2, "n_draws": 3, "seed": 0},
        weights=Array(),
        k=Int(1),
        n_draws=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.planar_benchmarks"] = fn(
        P.planar_benchmarks, {"n": 4, "seed": 0}, n=Int(1), seed=SEED
    )
    reg["mlgeom.primer.kernel_perceptron_table"] = fn(
        P.kernel_perceptron_table,
        {
            "datasets": {"tiny": (X2, Y2, X2, Y2)},
            "kernel_specs": {"gauss": {"kernel": "gaussian"}},
            "max_updates": 20,
        },
        datasets=Skip("a mapping of name to (X_train, y_train, X_test, y_test)"),
        kernel_specs=Skip("a mapping of name to kernel_perceptron keyword arguments"),
        max_updates=Int(1),
    )

    def axes() -> Any:
        import matplotlib.figure

        return matplotlib.figure.Figure().add_subplot()

    reg["mlgeom.primer.plot_decision_regions"] = fn(
        P.plot_decision_regions,
        lambda: {"ax": axes(), "model": model(), "resolution": 5, "pad": 0.3},
        ax=Skip("a matplotlib Axes"),
        model=Skip("a fitted KernelPerceptron"),
        resolution=Int(2),
        pad=Real(0.0),
    )
    reg["mlgeom.primer.polynomial_cv"] = fn(
        P.polynomial_cv,
        {
            "x_train": [0.0, 1.0, 2.0],
            "y_train": [1.0, 0.0, 1.0],
            "x_test": [0.5, 1.5],
            "y_test": [0.5, 0.5],
            "degrees": [0, 1],
        },
        x_train=Array(),
        y_train=Array(),
        x_test=Array(),
        y_test=Array(),
        degrees=Array(),
    )
    reg["mlgeom.primer.rkhs_margin"] = fn(
        P.rkhs_margin,
        {"X": X2, "y": Y2, "kernel": "gaussian", "bandwidth": 1.0, "degree": 2},
        X=Array(),
        y=Array(),
        kernel=Choice(("gaussian",)),
        bandwidth=Real(0.0, low_open=True),
        degree=Int(1),
    )
    reg["mlgeom.primer.SketchedKernelPerceptron"] = record(P.SketchedKernelPerceptron)

    def sketch() -> Any:
        phi = P.random_fourier_features(2, 4, seed=0)
        return P.sketched_kernel_perceptron(X2, Y2, phi, n_steps=3)

    for m in ("decision_function", "predict"):
        reg[f"mlgeom.primer.SketchedKernelPerceptron.{m}"] = method(
            sketch, m, {"Xq": X2}, Xq=Array()
        )
    reg["mlgeom.primer.sketched_kernel_perceptron"] = fn(
        P.sketched_kernel_perceptron,
        lambda: {
            "X": X2,
            "y": Y2,
            "features": P.random_fourier_features(2, 4, seed=0),
            "rule": "most_violated",
            "n_steps": 3,
            "max_updates": None,
        },
        X=Array(),
        y=Array(),
        features=Instance("RandomFourierFeatures"),
        rule=Choice(("most_violated",)),
        n_steps=Int(0, optional=True),
        max_updates=Skip("only with rule='cyclic'"),
    )
    reg["mlgeom.primer.sketched_perceptron_sweep"] = fn(
        P.sketched_perceptron_sweep,
        {
            "datasets": {"tiny": (X2, Y2, X2, Y2)},
            "rhos": [4],
            "n_draws": 1,
            "n_steps": {"tiny": 2},
            "seed": 0,
        },
        datasets=Skip("a mapping of name to (X_train, y_train, X_test, y_test)"),
        rhos=Array(),
        n_draws=Int(1),
        n_steps=Skip("a mapping of data-set name to a step count (checked: keys and >= 1)"),
        seed=SEED,
    )
    reg["mlgeom.primer.rkhs_normalized_margin"] = fn(
        P.rkhs_normalized_margin,
        {"alpha": [1.0, 1.0, 0.0], "y": Y2, "K": np.eye(3)},
        alpha=Array(),
        y=Array(),
        K=Array(),
    )
    # lift, coresets and SGD, priority at k + 1 (issue 13)
    for rec in ("AffinePerceptron", "CoresetSweep", "FrankWolfeMean"):
        reg[f"mlgeom.primer.{rec}"] = record(getattr(P, rec))
    Xl = np.array([[2.0, 0.0], [3.0, 0.0], [2.0, 1.0], [3.0, 1.0]])
    Yl = np.array([-1, 1, -1, 1])
    reg["mlgeom.primer.AffinePerceptron.predict"] = method(
        lambda: P.lifted_perceptron(Xl, Yl), "predict", {"X": Xl}, X=Array()
    )
    reg["mlgeom.primer.lift"] = fn(P.lift, {"X": Xl}, X=Array())
    reg["mlgeom.primer.affine_decision"] = fn(
        P.affine_decision, {"X": Xl, "w": [1.0, 0.0, -2.5]}, X=Array(), w=Array()
    )
    reg["mlgeom.primer.lifted_perceptron"] = fn(
        P.lifted_perceptron,
        {"X": Xl, "y": Yl, "max_updates": 50},
        X=Array(),
        y=Array(),
        max_updates=Int(1, optional=True),
    )
    reg["mlgeom.primer.offset_margin_data"] = fn(
        P.offset_margin_data,
        {"n": 5, "gamma": 0.3, "offset": 1.0, "seed": 0},
        n=Int(2),
        gamma=Real(0.0, 1.0, low_open=True, high_open=True),
        offset=Real(0.0, low_open=True),
        seed=SEED,
    )
    reg["mlgeom.primer.lift_runs"] = fn(
        P.lift_runs,
        {
            "n": 10,
            "gamma": 0.3,
            "offset": 1.0,
            "n_sets": 1,
            "max_updates": 50,
            "grid": 3,
            "seed": 0,
        },
        n=Int(2),
        gamma=Real(0.0, 1.0, low_open=True, high_open=True),
        offset=Real(0.0, low_open=True),
        n_sets=Int(1),
        max_updates=Int(1),
        grid=Int(2),
        seed=SEED,
    )
    reg["mlgeom.primer.frank_wolfe_mean"] = fn(
        P.frank_wolfe_mean, {"X": X2, "n_steps": 3}, X=Array(), n_steps=Int(1)
    )
    reg["mlgeom.primer.frank_wolfe_sweep"] = fn(
        P.frank_wolfe_sweep,
        {"n": 3, "d": 4, "steps": [1, 2], "n_seeds": 1, "points": "simplex", "seed": 0},
        n=Int(2),
        d=Int(1),
        steps=Array(),
        n_seeds=Int(1),
        points=Choice(("ball", "simplex", "sphere")),
        seed=SEED,
    )
    reg["mlgeom.primer.logistic_objective"] = fn(
        P.logistic_objective, {"X": X2, "y": Y2, "w": [0.5, -0.5]}, X=Array(), y=Array(), w=Array()
    )
    reg["mlgeom.primer.logistic_minimum"] = fn(
        P.logistic_minimum,
        {"X": X2, "y": Y2, "radius": 1.0, "n_iter": 5},
        X=Array(),
        y=Array(),
        radius=Real(0.0, low_open=True),
        n_iter=Int(1),
    )
    reg["mlgeom.primer.projected_sgd"] = fn(
        P.projected_sgd,
        {
            "X": X2,
            "y": Y2,
            "checkpoints": [1, 3],
            "radius": 1.0,
            "schedule": "sqrt",
            "average": True,
            "seed": 0,
        },
        X=Array(),
        y=Array(),
        checkpoints=Array(),
        radius=Real(0.0, low_open=True),
        schedule=Choice(("sqrt", "constant")),
        average=FLAG,
        seed=SEED,
    )
    reg["mlgeom.primer.sgd_sweep"] = fn(
        P.sgd_sweep,
        {
            "n": 6,
            "d": 2,
            "checkpoints": [1, 3],
            "n_seeds": 1,
            "radius": 1.0,
            "noise": 0.1,
            "seed": 0,
        },
        n=Int(2),
        d=Int(1),
        checkpoints=Array(),
        n_seeds=Int(1),
        radius=Real(0.0, low_open=True),
        noise=Real(0.0, 0.5),
        seed=SEED,
    )
    Yd = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    reg["mlgeom.primer.disc_realizable"] = fn(
        P.disc_realizable,
        {"Y": Yd, "inside": [0, 1], "tol": 1e-9},
        Y=Array(),
        inside=Skip("indices into Y (checked: integers in range, 1-D)"),
        tol=Real(0.0, low_open=True),
    )
    reg["mlgeom.primer.disc_shattered"] = fn(P.disc_shattered, {"Y": Yd}, Y=Array())
    reg["mlgeom.primer.disc_shattering_sweep"] = fn(
        P.disc_shattering_sweep,
        {"sizes": [2, 3], "n_sets": 1, "seed": 0},
        sizes=Array(),
        n_sets=Int(1),
        seed=SEED,
    )
    reg["mlgeom.primer.priority_k_compare"] = fn(
        P.priority_k_compare,
        {"weights": [1.8, 0.6, 0.5, 0.3], "k": 2, "n_draws": 2, "seed": 0},
        weights=Array(),
        k=Int(1),
        n_draws=Int(1),
        seed=SEED,
    )
    return reg


def _aliases(reg: dict[str, Spec]) -> dict[str, Spec]:
    """Specs for re-exports: a public name bound to an already declared object."""
    import importlib

    def resolve(key: str) -> Any:
        parts = key.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            try:
                obj: Any = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
            return obj
        raise KeyError(key)

    by_id = {id(resolve(k)): (k, s) for k, s in reg.items() if k.count(".") == 2}
    out = {}
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for name in mod.__all__:
            obj = getattr(mod, name)
            key = f"{pkg}.{name}"
            if key in reg or id(obj) not in by_id:
                continue
            src, spec = by_id[id(obj)]
            out[key] = spec
            for k, s in reg.items():  # the class's methods too
                if k.startswith(src + "."):
                    out[key + k[len(src) :]] = s
    return out


PACKAGES = (
    "mlgeom.book",
    "mlgeom.algorithms",
    "mlgeom.primer",
    "mlgeom.metric_nn",
    "mlgeom.fenchel_young",
    "mlgeom.multiscale",
    "mlgeom.hierarchical",
    "mlgeom.random",
    "mlgeom.stats",
    "mlgeom.parallel",
)


#: Pairs of parameters whose disagreement must be refused (``tests/test_api_pairs.py`` fails on
#: a silent result when one of them is one entry shorter or longer than the other), per callable.
MUST_AGREE: dict[str, set[tuple[str, str]]] = {
    "mlgeom.multiscale.SparseVector": {("indices", "values")},
    "mlgeom.algorithms.perceptron": {("X", "y")},
    "mlgeom.algorithms.margins": {("X", "y"), ("X", "w")},
    "mlgeom.metric_nn.conflict_edges": {("D", "y")},
    "mlgeom.algorithms.max_margin_perceptron": {("X", "y")},
    "mlgeom.algorithms.kde": {("W", "weights")},
    "mlgeom.primer.projected_sgd": {("X", "y")},
}


REGISTRY: dict[str, Spec] = {}


def registry() -> dict[str, Spec]:
    """The registry, built on first use (importing the chapters is not free)."""
    if not REGISTRY:
        REGISTRY.update(_registry())
        REGISTRY.update(_aliases(REGISTRY))
    return REGISTRY


#: Public callables whose domains are not declared yet (issue 16 follow-up). The test fails on
#: a stale entry (a name that is no longer public or is now declared) and on a public callable
#: in neither list.
PENDING: frozenset[str] = frozenset(
    line.strip()
    for line in (__import__("pathlib").Path(__file__).with_name("api_pending.txt"))
    .read_text()
    .splitlines()
    if line.strip() and not line.startswith("#")
)
