"""Claims records: what each notebook measured, judged by its preregistered criteria.

Each chapter's claims (statement, kind, the paper's value, criterion, baseline) are registered
in ``data/claims/<notebook>.toml`` (:mod:`mlgeom.book.registry`); the notebook supplies only
measurements and writes one record, ``data/results/<notebook>.json`` (the contract in
``CONTRIBUTING.md``)::

    record = ClaimsRecord("geometry_primer", profile=PROFILE)
    record.measure(
        "primer.polyfit.best-degree",
        best_p,
        scale="20 points, degrees 1-8",
        baseline=majority_degree,
    )
    record.write()

The verdict ``holds`` is *computed* by applying the registry's criterion to the measurement
(or, where the registry says ``judge = "interval"``, to its 95% interval over seeds); there is
no way to pass a verdict in. A result's baseline is judged by the same criterion, and the
result is *discriminating* when it holds and the baseline does not. :class:`Claim` and the
criterion factories below are the layer underneath, also used by the unit tests.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from numbers import Integral, Real
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mlgeom.book.paths import results_dir
from mlgeom.book.profiles import check_profile
from mlgeom.book.registry import JUDGES, KINDS, Bounds, Registry, _fmt, load_registry
from mlgeom.stats import Interval

__all__ = [
    "COUNT_KEYS",
    "Baseline",
    "Claim",
    "ClaimsRecord",
    "Criterion",
    "at_least",
    "at_most",
    "between",
    "equals",
    "compare_records",
    "load_record",
    "predicate",
    "summarize",
    "summary_sentence",
    "within_abs",
    "within_rel",
    "SIGNIFICANT_DIGITS",
]

#: Measured numbers are stored with this many significant digits, so that a record does not
#: change with the last bits of a BLAS reduction and re-running leaves ``git diff`` empty;
#: more where fewer would not give the same verdict (see :func:`_stored_value`).
SIGNIFICANT_DIGITS = 6


@dataclass(frozen=True)
class Criterion:
    """A named test applied to a measured value.

    Parameters
    ----------
    description : str
        What the test is, in words, e.g. ``"within 15% of the paper's value"``.
    test : callable
        ``test(value) -> bool``.
    bounds : Bounds, optional
        The admissible set, where the test is a comparison (needed to judge an interval).
    """

    description: str
    test: Callable[[Any], bool]
    bounds: Bounds | None = None

    def __call__(self, value: Any) -> bool:
        """Apply the test; anything but a boolean result is an error."""
        result = self.test(value)
        if not isinstance(result, bool | np.bool_):
            raise TypeError(
                f"criterion {self.description!r} returned {result!r} "
                f"({type(result).__name__}); it must return a bool"
            )
        return bool(result)


def _finite(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, Real) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite real number; got {x!r}")
    return float(x)


def within_rel(target: float, rel: float) -> Criterion:
    """Measured value within a relative tolerance ``rel`` of ``target``: ``|m - t| <= rel |t|``."""
    t, r = _finite("target", target), _finite("rel", rel)
    if r <= 0:
        raise ValueError(f"rel must be > 0; got {rel!r}")
    return Criterion(
        f"within {_fmt(100 * r)}% of {_fmt(t)}",
        lambda m: abs(_finite("measured", m) - t) <= r * abs(t),
        Bounds(low=t - r * abs(t), high=t + r * abs(t)),
    )


def within_abs(target: float, tol: float) -> Criterion:
    """Measured value within an absolute tolerance: ``|m - target| <= tol``."""
    t, a = _finite("target", target), _finite("tol", tol)
    if a < 0:
        raise ValueError(f"tol must be >= 0; got {tol!r}")
    return Criterion(
        f"within ±{_fmt(a)} of {_fmt(t)}",
        lambda m: abs(_finite("measured", m) - t) <= a,
        Bounds(low=t - a, high=t + a),
    )


def at_most(bound: float, *, label: str | None = None) -> Criterion:
    """Measured value at most ``bound`` (``label`` names the bound in the description)."""
    b = _finite("bound", bound)
    name = label if label is not None else _fmt(b)
    return Criterion(f"≤ {name}", lambda m: _finite("measured", m) <= b, Bounds(high=b))


def at_least(bound: float, *, label: str | None = None) -> Criterion:
    """Measured value at least ``bound`` (``label`` names the bound in the description)."""
    b = _finite("bound", bound)
    name = label if label is not None else _fmt(b)
    return Criterion(f"≥ {name}", lambda m: _finite("measured", m) >= b, Bounds(low=b))


def between(low: float, high: float) -> Criterion:
    """Measured value in the closed interval ``[low, high]``."""
    lo, hi = _finite("low", low), _finite("high", high)
    if lo > hi:
        raise ValueError(f"low must be <= high; got low={low!r}, high={high!r}")
    return Criterion(
        f"in [{_fmt(lo)}, {_fmt(hi)}]",
        lambda m: lo <= _finite("measured", m) <= hi,
        Bounds(low=lo, high=hi),
    )


def equals(expected: Any) -> Criterion:
    """Measured value equal to ``expected`` (exact comparison: integers, strings, labels)."""
    return Criterion(f"= {expected}", lambda m: bool(m == expected))


def predicate(description: str, test: Callable[[Any], bool]) -> Criterion:
    """Wrap any test as a criterion; ``description`` must say what it checks."""
    if not isinstance(description, str) or not description.strip():
        raise ValueError(f"description must be a non-empty string; got {description!r}")
    if not callable(test):
        raise ValueError(f"test must be callable; got {test!r}")
    return Criterion(description, test)


def _json_value(name: str, x: Any) -> float | int | str | None:
    """Normalise a paper/measured value for the record: round floats, keep ints and strings."""
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, bool | np.bool_):
        return str(bool(x))
    if isinstance(x, Integral):
        return int(x)
    if isinstance(x, Real):
        v = float(x)
        if not math.isfinite(v):
            raise ValueError(
                f"{name} must be finite (or a string for a qualitative claim); got {x!r}"
            )
        return float(f"{v:.{SIGNIFICANT_DIGITS}g}")
    raise ValueError(f"{name} must be a number, a string or None; got {x!r} ({type(x).__name__})")


def _stored_value(name: str, x: Any, criterion: Criterion, holds: bool) -> Any:
    """``x`` as stored: :data:`SIGNIFICANT_DIGITS` digits, more if fewer change the verdict.

    A record must not show ``measured 2.0, "≤ 2", holds false``: the stored number, read back
    and judged by the same criterion, gives the stored verdict.
    """
    out = _json_value(name, x)
    if not isinstance(out, float):
        return out
    v = float(x)
    for digits in range(SIGNIFICANT_DIGITS, 18):
        stored = float(f"{v:.{digits}g}")
        if criterion(stored) == holds:
            return stored
    return v  # 17 significant digits always read back as v itself


def _criterion_from(bounds: Bounds, description: str) -> Criterion:
    return Criterion(description, bounds.contains, bounds)


def _interval_json(iv: Interval, keep: Callable[[float, float], bool] | None) -> dict[str, Any]:
    """Return the interval as stored: as few digits as give back the same verdict (``keep``)."""
    for digits in range(SIGNIFICANT_DIGITS, 18):
        lo, hi = float(f"{iv.low:.{digits}g}"), float(f"{iv.high:.{digits}g}")
        if keep is None or keep(lo, hi):
            break
    else:
        lo, hi = iv.low, iv.high
    out = {"low": lo, "high": hi, "level": iv.level, "method": iv.method}
    if iv.se is not None and iv.df is not None and iv.se > 0:  # for Holm's p-values
        out["se"] = float(f"{iv.se:.{SIGNIFICANT_DIGITS}g}")
        out["df"] = int(iv.df)
    return out


@dataclass(frozen=True)
class Baseline:
    """The same criterion evaluated on the honest strawman, run on the same data.

    Attributes
    ----------
    name : str
        The strawman, from the registry (``"uniform guessing"``, ``"plain Perceptron"``).
    measured : float, int or str
        Its measurement.
    holds : bool
        Whether the strawman passes the claim's criterion (on an interval claim: whether any
        part of its interval does, so that it fails only with confidence).
    interval : Interval, optional
        Its interval over seeds.
    on_value : bool, default=False
        Whether the criterion was applied to another value than ``measured``.
    """

    name: str
    measured: Any
    holds: bool
    interval: Interval | None = None
    on_value: bool = False

    def to_json(
        self, criterion: Criterion | None = None, bounds: Bounds | None = None
    ) -> dict[str, Any]:
        """Return the record's ``baseline`` object.

        With ``criterion`` (a point claim judged on ``measured`` itself) the number, and with
        ``bounds`` (an interval claim) the interval, is stored at a precision that gives back
        the stored verdict.
        """
        name = f"baseline {self.name}: measured"
        measured = (
            _stored_value(name, self.measured, criterion, self.holds)
            if criterion is not None and self.interval is None
            else _json_value(name, self.measured)
        )
        out: dict[str, Any] = {"name": self.name, "measured": measured, "holds": self.holds}
        if self.on_value:
            out["judged"] = "elsewhere"  # the criterion saw another value than ``measured``
        if self.interval is not None:
            keep = None
            if bounds is not None:

                def keep(lo: float, hi: float) -> bool:
                    return bounds.contains_any(lo, hi) == self.holds

            out["interval"] = _interval_json(self.interval, keep)
        return out


@dataclass(frozen=True, repr=False)
class Claim:
    """One judged claim. ``holds`` is computed from ``criterion`` and the measurement.

    Parameters
    ----------
    id : str
        Stable identifier, ``<paper>.<experiment>.<quantity>``.
    statement : str
        The claim in words, citing the paper's equation/figure/slide.
    paper : float, int, str or None
        The paper's number, ``None`` where the paper gives none.
    measured : float, int or str
        What the notebook measured (a string for qualitative claims: an ordering, a slope).
    criterion : Criterion
        The test the measurement must pass.
    value : object, optional
        What the criterion is applied to, when it is not ``measured`` itself (e.g. an array
        whose maximum is displayed as ``measured``).
    section : str, optional
        MyST label of the notebook section that checks the claim (linked from the status page).
    note : str, optional
        One sentence on why a claim does not hold or on how it was read.
    kind : {"result", "erratum", "check"}, default="check"
        What the claim is (see :mod:`mlgeom.book.registry`).
    judge : {"point", "interval", "exact"}, default="point"
        Judge ``measured`` (or ``value``) or the whole ``interval``.
    interval : Interval, optional
        The 95% interval of ``measured`` over seeds; required when ``judge="interval"``.
    seeds : int, optional
        How many seeds the measurement rests on.
    scale : str, optional
        The horizon, sample size or dimension range of the measurement.
    baseline : Baseline or str, optional
        The strawman's run, or a sentence saying why none applies.
    not_comparable : str, optional
        For a check shown beside the paper's number on data that are not the paper's: why it
        is not comparable. Its verdict is stored but not counted.
    competitor : Baseline, optional
        The natural competitor's run (the simpler method the paper improves on), judged by
        the same criterion.
    scope : {"paper", "beyond"}, default="paper"
        Whether the claim is the paper's or the book's own.
    volatile : bool, default=False
        The criterion was applied to a wall time (``value``), which the record does not keep:
        only ``measured`` (words) and the verdict are stored.
    extra : tuple of (str, str)
        Registry text stored with the claim (an erratum's quote and outcome, ``caused_by``).
    """

    id: str
    statement: str
    paper: Any
    measured: Any
    criterion: Criterion
    value: Any = None
    section: str | None = None
    note: str | None = None
    kind: str = "check"
    judge: str = "point"
    interval: Interval | None = None
    seeds: int | None = None
    scale: str | None = None
    baseline: Baseline | str | None = None
    not_comparable: str | None = None
    competitor: Baseline | None = None
    scope: str = "paper"
    volatile: bool = False
    extra: tuple[tuple[str, str], ...] = ()
    holds: bool = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id or any(c.isspace() for c in self.id):
            raise ValueError(f"claim id must be a non-empty string without spaces; got {self.id!r}")
        if not isinstance(self.statement, str) or not self.statement.strip():
            raise ValueError(f"claim {self.id}: statement must be a non-empty string")
        if not isinstance(self.criterion, Criterion):
            raise ValueError(
                f"claim {self.id}: criterion must be a Criterion (use within_rel, at_most, "
                f"predicate, ...); got {self.criterion!r}"
            )
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id}: kind must be one of {KINDS}; got {self.kind!r}")
        if self.judge not in JUDGES:
            raise ValueError(f"claim {self.id}: judge must be one of {JUDGES}; got {self.judge!r}")
        if self.judge == "exact" and self.interval is not None:
            raise ValueError(f"claim {self.id}: an exact quantity has no interval")
        if self.interval is not None and not isinstance(self.interval, Interval):
            raise ValueError(
                f"claim {self.id}: interval must be an mlgeom.stats.Interval "
                f"(mean_interval, paired_interval); got {self.interval!r}"
            )
        if self.seeds is not None and (
            isinstance(self.seeds, bool) or not isinstance(self.seeds, Integral) or self.seeds < 1
        ):
            raise ValueError(f"claim {self.id}: seeds must be an integer >= 1; got {self.seeds!r}")
        if self.scale is not None and (not isinstance(self.scale, str) or not self.scale.strip()):
            raise ValueError(
                f"claim {self.id}: scale must be a non-empty string; got {self.scale!r}"
            )
        object.__setattr__(self, "paper", _json_value(f"claim {self.id}: paper", self.paper))
        if self.measured is None:
            raise ValueError(f"claim {self.id}: measured must not be None")
        name = f"claim {self.id}: measured"
        if self.judge == "interval":
            iv, bounds = self.interval, self.criterion.bounds
            if iv is None:
                raise ValueError(
                    f"claim {self.id} is judged on its interval; pass interval=mean_interval(...)"
                )
            if bounds is None:
                raise ValueError(f"claim {self.id}: an interval needs a criterion with bounds")
            holds = bounds.contains_all(iv.low, iv.high)
            object.__setattr__(self, "holds", holds)
            object.__setattr__(self, "measured", _json_value(name, self.measured))
            if self.seeds is None:
                object.__setattr__(self, "seeds", iv.n)
            return
        tested = self.measured if self.value is None else self.value
        holds = self.criterion(tested)
        object.__setattr__(self, "holds", holds)
        stored = (
            _stored_value(name, self.measured, self.criterion, holds)
            if self.value is None
            else _json_value(name, self.measured)
        )
        object.__setattr__(self, "measured", stored)

    @property
    def discriminating(self) -> bool | None:
        """True when the claim holds and its baseline does not; ``None`` without a baseline run."""
        if not isinstance(self.baseline, Baseline):
            return None
        return self.holds and not self.baseline.holds

    @property
    def beats_competitor(self) -> bool | None:
        """True when the claim holds and its natural competitor fails; ``None`` without one."""
        if self.competitor is None:
            return None
        return self.holds and not self.competitor.holds

    @property
    def verdict(self) -> str:
        """The verdict in words, by kind (an erratum is *confirmed* when the printed text fails)."""
        if self.not_comparable is not None:
            return "shown, not comparable"
        if self.kind == "erratum":
            return "erratum confirmed" if not self.holds else "printed text holds"
        if not self.holds:
            return "does not hold"
        if self.kind == "result" and self.competitor is not None and self.competitor.holds:
            return "holds, and so does the competitor"
        if self.kind == "result" and self.discriminating is False:
            return "holds, not discriminating"
        return "holds"

    def __repr__(self) -> str:
        """One deterministic line a reader can check: verdict, measured vs paper, criterion."""
        paper = "" if self.paper is None else f" (paper: {self.paper})"
        ci = ""
        if self.interval is not None:
            ci = f" [{self.interval.low:.4g}, {self.interval.high:.4g}]"
        base = ""
        if isinstance(self.baseline, Baseline):
            base = f"; {self.baseline.name}: {self.baseline.measured!r:.12}" + (
                " passes too" if self.baseline.holds else " fails"
            )
        return (
            f"{self.id}: measured {self.measured}{ci}{paper}; {self.criterion.description} → "
            f"{self.verdict}{base}"
        )

    def to_json(self) -> dict[str, Any]:
        """Return the record entry (the contract's fields, in a fixed order)."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "statement": self.statement,
            "paper": self.paper,
            "measured": self.measured,
            "criterion": self.criterion.description,
            "judge": self.judge,
            "holds": self.holds,
            "scope": self.scope,
        }
        if self.criterion.bounds is not None:
            out["bounds"] = _bounds_json(self.criterion.bounds)
        if self.volatile:
            out["volatile"] = True  # judged on a wall time the record does not keep
        elif self.value is not None and isinstance(self.value, bool | np.bool_ | int | float | str):
            out["judged"] = _judged_json(self.value)
        if self.not_comparable is not None:
            out["not_comparable"] = self.not_comparable
        if isinstance(self.baseline, Baseline):
            judged_on_measured = self.judge == "point" and not self.baseline.on_value
            out["baseline"] = self.baseline.to_json(
                self.criterion if judged_on_measured else None,
                self.criterion.bounds if self.judge == "interval" else None,
            )
            out["discriminating"] = self.discriminating
        elif self.baseline is not None:
            out["baseline"] = self.baseline
            out["discriminating"] = None
        if self.competitor is not None:
            judged_on_measured = self.judge != "interval" and not self.competitor.on_value
            interval_judged = self.judge == "interval" and self.competitor.interval is not None
            out["competitor"] = self.competitor.to_json(
                self.criterion if judged_on_measured else None,
                self.criterion.bounds if interval_judged else None,
            )
            out["beats_competitor"] = self.beats_competitor
        if self.seeds is not None:
            out["seeds"] = int(self.seeds)
        if self.interval is not None:
            bounds = self.criterion.bounds
            keep = None
            if self.judge == "interval" and bounds is not None:

                def keep(lo: float, hi: float) -> bool:
                    return bounds.contains_all(lo, hi) == self.holds

            out["interval"] = _interval_json(self.interval, keep)
        if self.scale is not None:
            out["scale"] = self.scale
        if self.section is not None:
            out["section"] = self.section
        if self.note is not None:
            out["note"] = self.note
        out.update(dict(self.extra))
        return out


def _bounds_json(b: Bounds) -> dict[str, Any]:
    """Return the admissible set as stored, so that verdicts can be recomputed on load."""
    if b.equal is not None:
        return {"equal": b.equal}
    return {
        "low": None if math.isinf(b.low) else b.low,
        "high": None if math.isinf(b.high) else b.high,
        "low_closed": b.low_closed,
        "high_closed": b.high_closed,
    }


def _bounds_from_json(where: str, raw: Any) -> Bounds:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: 'bounds' must be an object")
    if "equal" in raw:
        return Bounds(equal=raw["equal"])
    try:
        low = -math.inf if raw["low"] is None else float(raw["low"])
        high = math.inf if raw["high"] is None else float(raw["high"])
        return Bounds(low, high, bool(raw["low_closed"]), bool(raw["high_closed"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: 'bounds' must have low, high, low_closed, high_closed") from exc


def _judged_json(v: Any) -> Any:
    if isinstance(v, bool | np.bool_):
        return bool(v)
    if isinstance(v, Integral):
        return int(v)
    if isinstance(v, Real):
        return float(v)
    return v


class ClaimsRecord:
    """The claims a notebook measures, judged by its registry and written to ``<notebook>.json``.

    Parameters
    ----------
    notebook : str
        Notebook stem, e.g. ``"geometry_primer"``.
    profile : {"smoke", "book", "paper"}
        The run's profile; non-``book`` records go to a sub-folder named after the profile.
    directory : path-like, optional
        Override the results folder (default: :func:`mlgeom.book.paths.results_dir`).
    registry : Registry or path-like, optional
        The criteria registry (default: ``data/claims/<notebook>.toml``).
    """

    def __init__(
        self,
        notebook: str,
        profile: str,
        directory: str | os.PathLike | None = None,
        registry: Registry | str | os.PathLike | None = None,
    ):
        if not isinstance(notebook, str) or not notebook or "/" in notebook:
            raise ValueError(
                f"notebook must be a notebook stem like 'geometry_primer'; got {notebook!r}"
            )
        self.notebook = notebook
        self.profile = check_profile(profile)
        self.directory = Path(directory) if directory is not None else results_dir(self.profile)
        self.registry = (
            registry if isinstance(registry, Registry) else load_registry(notebook, registry)
        )
        self._claims: dict[str, Claim] = {}

    def measure(  # noqa: PLR0913
        self,
        id: str,  # noqa: A002
        measured: Any,
        *,
        value: Any = None,
        refs: Mapping[str, Any] | None = None,
        scale: str | None = None,
        interval: Interval | None = None,
        seeds: int | None = None,
        baseline: Any = None,
        baseline_value: Any = None,
        baseline_interval: Interval | None = None,
        competitor: Any = None,
        competitor_value: Any = None,
        competitor_interval: Interval | None = None,
        note: str | None = None,
    ) -> Claim:
        """Judge one preregistered claim on a measurement and record it.

        Parameters
        ----------
        id : str
            The claim's id in the registry.
        measured : float, int or str
            The measurement (the mean over seeds for an interval claim).
        value : object, optional
            What the criterion is applied to when it is not ``measured`` (a boolean shown
            as a sentence, say).
        refs : mapping, optional
            Values of the names the criterion uses (a theorem's bound computed at run time).
        scale : str
            The horizon, sample size or dimension range; required for a result.
        interval, seeds : optional
            The 95% interval (:func:`mlgeom.stats.mean_interval`) and the number of seeds;
            the interval is required when the registry judges on it, refused otherwise.
        baseline, baseline_value, baseline_interval : optional
            The strawman's measurement (and what its criterion sees, and its interval); required
            when the registry names a baseline, refused otherwise. On an interval claim a
            baseline without an interval is an exact number, judged as a point.
        competitor, competitor_value, competitor_interval : optional
            The natural competitor's measurement, as for the baseline; required when the
            registry names a competitor, refused otherwise.
        note : str, optional
            A sentence computed by the notebook (the registry's ``note``/``note_if_fails`` is
            used when this is not given).

        Returns
        -------
        Claim
            With its computed verdict. Measuring an id again replaces the earlier entry
            (re-running a cell must not duplicate a claim).
        """
        entry = self.registry[id]
        where = f"claim {id}"
        allowed = set(entry.criterion.names()) - {"paper"}
        given = dict(refs or {})
        if set(given) != allowed:
            raise TypeError(
                f"{where}: the criterion {entry.criterion.text!r} needs refs {sorted(allowed)}; "
                f"got {sorted(given)}"
            )
        given["paper"] = entry.paper
        _json_value(f"{where}: measured", measured)  # refuses a non-finite number by its name
        if value is not None:
            _json_value(f"{where}: value", value)
        bounds, description = entry.criterion.resolve(given)
        criterion = _criterion_from(bounds, description)
        if value is None and isinstance(measured, str) and bounds.equal is None:
            raise ValueError(
                f"{where}: measured is words ({measured!r}) but the criterion is numeric: "
                "pass the number as measured, or as value= next to the words"
            )
        if entry.judge == "interval" and interval is None:
            raise TypeError(f"{where}: the registry judges it on an interval; pass interval=")
        if entry.judge != "interval" and interval is not None:
            raise TypeError(
                f"{where}: an interval was given but the registry judges the point value; "
                'set judge = "interval" in the registry (a reviewed change) or drop it'
            )
        if entry.judge == "interval" and interval.width == 0 and self.profile != "smoke":
            # (a smoke run checks the pipeline at toy sizes, where two seeds can coincide)
            raise ValueError(
                f"{where}: its interval has zero width ({interval.method}): the quantity does not "
                'vary with the seed, so it is exact; register judge = "exact" and pass the value'
            )
        if entry.volatile and (value is None or not isinstance(measured, str)):
            raise TypeError(
                f"{where}: the registry marks it volatile (a wall time): pass the time as value= "
                f"and words as measured (got measured={measured!r}, value={value!r})"
            )
        if entry.kind == "result" and scale is None:
            raise TypeError(f"{where}: a result needs scale= (its horizon, size or range)")
        base: Baseline | str | None = None
        if entry.baseline is not None:
            if baseline is None:
                raise TypeError(
                    f"{where}: the registry names the baseline {entry.baseline!r}; pass baseline="
                )
            base = self._arm(
                where,
                "baseline",
                entry,
                criterion,
                bounds,
                baseline,
                baseline_value,
                baseline_interval,
            )
        else:
            if baseline is not None or baseline_value is not None or baseline_interval is not None:
                raise TypeError(f"{where}: the registry names no baseline; none can be passed")
            base = entry.no_baseline
        comp: Baseline | None = None
        if entry.competitor is not None:
            if competitor is None:
                raise TypeError(
                    f"{where}: the registry names the competitor {entry.competitor!r}; "
                    "pass competitor="
                )
            comp = self._arm(
                where,
                "competitor",
                entry,
                criterion,
                bounds,
                competitor,
                competitor_value,
                competitor_interval,
            )
        elif competitor is not None or competitor_value is not None or competitor_interval:
            raise TypeError(f"{where}: the registry names no competitor; none can be passed")
        extra = tuple(
            (k, getattr(entry, k))
            for k in ("caused_by", "printed", "location", "outcome", "correction", "survives")
            if getattr(entry, k) is not None
        )
        claim = Claim(
            id,
            entry.statement,
            entry.paper,
            measured,
            criterion,
            value=value,
            section=entry.section,
            note=None,
            kind=entry.kind,
            judge=entry.judge,
            interval=interval,
            seeds=seeds,
            scale=scale,
            baseline=base,
            not_comparable=entry.not_comparable,
            competitor=comp,
            scope=entry.scope,
            volatile=entry.volatile,
            extra=extra,
        )
        if note is None:
            note = entry.note if entry.note is not None else None
            if entry.note_if_fails is not None and not claim.holds:
                note = entry.note_if_fails
        if note is not None:
            claim = replace(claim, note=note)
        self._claims[id] = claim
        return claim

    @staticmethod
    def _arm(  # noqa: PLR0913
        where: str,
        name: str,
        entry: Any,
        criterion: Criterion,
        bounds: Bounds,
        measured: Any,
        value: Any,
        interval: Interval | None,
    ) -> Baseline:
        """Judge the strawman or the competitor by the claim's own criterion."""
        label = getattr(entry, name)
        if interval is not None and entry.judge != "interval":
            raise TypeError(f"{where}: {name}_interval= given for a point claim")
        if interval is not None and interval.width == 0:
            interval = None  # no spread over the seeds: an exact number, judged as a point
        if interval is not None:
            holds = bounds.contains_any(interval.low, interval.high)
        else:
            holds = criterion(measured if value is None else value)
        _json_value(f"{where}: {name}", measured)  # refuses a non-finite number now
        return Baseline(label, measured, holds, interval, value is not None)

    @property
    def claims(self) -> list[Claim]:
        """The recorded claims in registry order."""
        return [self._claims[i] for i in self.registry.entries if i in self._claims]

    def __getitem__(self, claim_id: str) -> Claim:
        return self._claims[claim_id]

    def __len__(self) -> int:
        return len(self._claims)

    def unmeasured(self) -> list[str]:
        """Registry ids not measured yet."""
        return [i for i in self.registry.entries if i not in self._claims]

    def counts(self) -> dict[str, int]:
        """Return the summary counts (see :func:`summarize`)."""
        return summarize(c.to_json() for c in self.claims)

    def summary(self) -> str:
        """Return the chapter's counts in one sentence (each chapter's summary section shows it)."""
        return summary_sentence(self.counts())

    def to_json(self) -> dict[str, Any]:
        """Return the whole record as the contract's JSON object."""
        return {
            "notebook": self.notebook,
            "profile": self.profile,
            "claims": [c.to_json() for c in self.claims],
        }

    @property
    def path(self) -> Path:
        """Where :meth:`write` puts the record."""
        return self.directory / f"{self.notebook}.json"

    def write(self) -> Path:
        """Write the record atomically (temporary file, then rename) and return its path.

        Refuses while a registry entry is unmeasured: a preregistered claim is never dropped.
        """
        missing = self.unmeasured()
        if missing:
            raise ValueError(
                f"record {self.notebook}: registry entries never measured: {', '.join(missing)}"
            )
        self.directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"
        fd, tmp = tempfile.mkstemp(prefix=f".{self.notebook}.", suffix=".json", dir=self.directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return self.path

    def table(self, ids: Iterable[str] | None = None) -> pd.DataFrame:
        """Return the claims as a :class:`pandas.DataFrame` (paper beside measured, verdict).

        Parameters
        ----------
        ids : iterable of str, optional
            Only these claims, in this order (default: all).
        """
        chosen = self.claims if ids is None else [self._claims[i] for i in ids]
        rows = []
        for c in chosen:
            row = {
                "claim": c.id,
                "kind": c.kind,
                "paper": "—" if c.paper is None else c.paper,
                "measured": c.measured,
                "criterion": c.criterion.description,
                "verdict": c.verdict,
            }
            if c.interval is not None:
                row["95% interval"] = f"[{c.interval.low:.4g}, {c.interval.high:.4g}]"
            if isinstance(c.baseline, Baseline):
                row["baseline"] = f"{c.baseline.name}: {c.baseline.measured!s:.10}" + (
                    " (passes)" if c.baseline.holds else " (fails)"
                )
            rows.append(row)
        return pd.DataFrame(rows).set_index("claim").fillna("")

    def glue(self, claim_id: str, fmt: str = "{:.4g}") -> None:
        """Glue a claim's measured value and verdict for prose (myst-nb ``{glue:}``).

        Creates the glue keys ``<id>`` (the formatted measured value) and ``<id>.verdict``
        (:attr:`Claim.verdict`), so that prose quotes computed numbers only.
        """
        from myst_nb import glue

        claim = self._claims[claim_id]
        value = claim.measured
        text = value if isinstance(value, str) else fmt.format(value)
        glue(claim_id, text, display=False)
        glue(f"{claim_id}.verdict", claim.verdict, display=False)


#: The summary's categories, in the order the book shows them.
COUNT_KEYS = (
    "results held",
    "results held, no baseline",
    "results held, not discriminating",
    "results not held",
    "errata confirmed",
    "errata not confirmed",
    "checks passed",
    "checks failed",
    "not comparable",
)


def summarize(claims: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Count a record's claims by kind and verdict.

    A result that holds while its baseline fails counts as *held* (it discriminates); one whose
    baseline holds too as *held, not discriminating*; one with no baseline run (a printed
    constant, a rate no strawman has) as *held, no baseline*.
    """
    out = dict.fromkeys(COUNT_KEYS, 0)
    for c in claims:
        kind, holds = c.get("kind", "check"), bool(c["holds"])
        if c.get("not_comparable") is not None:
            out["not comparable"] += 1
        elif kind == "result":
            if not holds:
                out["results not held"] += 1
            elif c.get("discriminating") is False:
                out["results held, not discriminating"] += 1
            elif c.get("discriminating") is None:
                out["results held, no baseline"] += 1
            else:
                out["results held"] += 1
        elif kind == "erratum":
            out["errata confirmed" if not holds else "errata not confirmed"] += 1
        else:
            out["checks passed" if holds else "checks failed"] += 1
    return out


def summary_sentence(counts: Mapping[str, int]) -> str:
    """Return the counts in words (each chapter's summary section and the status page).

    >>> counts = dict.fromkeys(COUNT_KEYS, 0)
    >>> counts.update({"results held": 2, "results not held": 1, "errata confirmed": 1})
    >>> summary_sentence({**counts, "checks passed": 3})  # doctest: +NORMALIZE_WHITESPACE
    '3 results: 2 hold and discriminate, 0 hold with no baseline, 0 hold without
    discriminating, 1 does not hold; 1 erratum, confirmed; 3 checks, all pass.'
    """

    def n(k: str) -> int:
        return int(counts[k])

    held, alone, weak, failed = (
        n("results held"),
        n("results held, no baseline"),
        n("results held, not discriminating"),
        n("results not held"),
    )
    results = held + alone + weak + failed
    errata_ok, errata_no = n("errata confirmed"), n("errata not confirmed")
    checks_ok, checks_no = n("checks passed"), n("checks failed")

    def many(k: int, one: str, more: str) -> str:
        return f"{k} {one if k == 1 else more}"

    parts = [
        f"{many(results, 'result', 'results')}: "
        f"{held} {'holds' if held == 1 else 'hold'} and discriminate{'s' if held == 1 else ''}, "
        f"{alone} {'holds' if alone == 1 else 'hold'} with no baseline, "
        f"{weak} {'holds' if weak == 1 else 'hold'} without discriminating, "
        f"{failed} {'does' if failed == 1 else 'do'} not hold"
    ]
    errata = errata_ok + errata_no
    if errata:
        how = "confirmed" if errata_no == 0 else f"{errata_ok} confirmed, {errata_no} not"
        parts.append(f"{many(errata, 'erratum', 'errata')}, {how}")
    else:
        parts.append("no errata")
    checks = checks_ok + checks_no
    if checks:
        how = "all pass" if checks_no == 0 else f"{checks_ok} pass, {checks_no} fail"
        if checks == 1:
            how = "passes" if checks_no == 0 else "fails"
        parts.append(f"{many(checks, 'check', 'checks')}, {how}")
    else:
        parts.append("no checks")
    apart = int(counts.get("not comparable", 0))
    if apart:
        parts.append(
            f"{apart} {'number' if apart == 1 else 'numbers'} shown beside the paper's on data "
            "that are not the paper's, not counted"
        )
    return "; ".join(parts) + "."


def load_record(path: str | os.PathLike) -> dict[str, Any]:
    """Read and validate a claims record file; raise ``ValueError`` naming the file and problem.

    Checks that the file is a JSON object whose ``notebook`` is the file's own stem, whose
    ``claims`` is a list of objects carrying the contract's fields with a boolean ``holds``,
    and that no claim id appears twice (a made-up row placed before a real one must not pass).
    """
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{p}: cannot be read ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{p}: a claims record must be a JSON object, not {type(data).__name__}")
    for key in ("notebook", "profile", "claims"):
        if key not in data:
            raise ValueError(f"{p}: missing key {key!r}")
    if data["notebook"] != p.stem:
        raise ValueError(
            f"{p}: the record says notebook {data['notebook']!r}, but the file is {p.stem}.json"
        )
    if not isinstance(data["claims"], list):
        raise ValueError(f"{p}: 'claims' must be a list, not {type(data['claims']).__name__}")
    seen: set[str] = set()
    for i, claim in enumerate(data["claims"]):
        if not isinstance(claim, dict):
            raise ValueError(f"{p}: claim {i} must be an object, not {type(claim).__name__}")
        for key in ("id", "statement", "paper", "measured", "criterion", "holds"):
            if key not in claim:
                raise ValueError(f"{p}: claim {i} ({claim.get('id', '?')}) misses {key!r}")
        if not isinstance(claim["id"], str) or not claim["id"]:
            raise ValueError(f"{p}: claim {i}: 'id' must be a non-empty string")
        if claim["id"] in seen:
            raise ValueError(f"{p}: claim id {claim['id']!r} appears more than once")
        seen.add(claim["id"])
        if not isinstance(claim["holds"], bool):
            raise ValueError(f"{p}: claim {claim['id']}: 'holds' must be true or false")
        _check_contract_fields(p, claim)
    return data


def _check_contract_fields(p: Path, claim: dict[str, Any]) -> None:
    """Validate ``kind``, ``baseline``, ``discriminating``, ``interval``, ``seeds``, ``scale``."""
    where = f"{p}: claim {claim['id']}"
    kind = claim.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}: 'kind' must be one of {KINDS}; got {kind!r}")
    if claim.get("judge", "point") not in JUDGES:
        raise ValueError(f"{where}: 'judge' must be one of {JUDGES}; got {claim.get('judge')!r}")
    base = claim.get("baseline")
    if kind == "result":
        for key in ("baseline", "discriminating", "scale"):
            if key not in claim:
                raise ValueError(f"{where}: a result misses {key!r}")
    elif base is not None or "discriminating" in claim:
        raise ValueError(f"{where}: only a result carries a baseline")
    if isinstance(base, dict):
        if set(base) - {"name", "measured", "holds", "interval", "judged"} or not {
            "name",
            "measured",
            "holds",
        } <= set(base):
            raise ValueError(f"{where}: 'baseline' must have name, measured, holds (and interval)")
        if not isinstance(base["holds"], bool):
            raise ValueError(f"{where}: baseline 'holds' must be true or false")
        if claim["discriminating"] != (claim["holds"] and not base["holds"]):
            raise ValueError(
                f"{where}: 'discriminating' must be holds and not baseline holds; "
                f"got {claim['discriminating']!r}"
            )
    elif base is not None:
        if not isinstance(base, str) or not base.strip():
            raise ValueError(f"{where}: 'baseline' must be an object or a sentence")
        if claim.get("discriminating") is not None:
            raise ValueError(f"{where}: 'discriminating' must be null without a baseline run")
    iv = claim.get("interval")
    if iv is not None:
        if not isinstance(iv, dict) or not {"low", "high", "level", "method"} <= set(iv):
            raise ValueError(f"{where}: 'interval' must have low, high, level, method")
        if not iv["low"] <= iv["high"]:
            raise ValueError(f"{where}: interval low > high")
    if claim.get("judge") == "interval" and iv is None:
        raise ValueError(f"{where}: judged on an interval but has none")
    nc = claim.get("not_comparable")
    if nc is not None and (kind != "check" or not isinstance(nc, str) or not nc.strip()):
        raise ValueError(f"{where}: 'not_comparable' is a sentence, on a check only")
    if "volatile" in claim and (claim["volatile"] is not True or "judged" in claim):
        raise ValueError(f"{where}: 'volatile' is true and then the record keeps no 'judged' value")
    seeds = claim.get("seeds")
    if seeds is not None and (isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1):
        raise ValueError(f"{where}: 'seeds' must be an integer >= 1; got {seeds!r}")
    comp = claim.get("competitor")
    if comp is not None:
        if kind != "result" or not isinstance(comp, dict):
            raise ValueError(f"{where}: 'competitor' is an object, on a result only")
        if claim.get("beats_competitor") != (claim["holds"] and not comp.get("holds")):
            raise ValueError(
                f"{where}: 'beats_competitor' must be holds and not competitor holds; "
                f"got {claim.get('beats_competitor')!r}"
            )
    if claim.get("scope", "paper") not in ("paper", "beyond"):
        raise ValueError(f"{where}: 'scope' must be 'paper' or 'beyond'; got {claim['scope']!r}")
    if "bounds" in claim:
        _recompute_verdicts(where, claim)


def _judged_holds(where: str, bounds: Bounds, value: Any) -> bool | None:
    """Return the verdict of ``bounds`` on a stored value (``None``: cannot be recomputed)."""
    if bounds.equal is not None:
        return bounds.contains(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None  # a qualitative measurement judged on a value the record does not keep
    return bounds.contains(value)


def _recompute_verdicts(where: str, claim: dict[str, Any]) -> None:
    """Refuse a record whose verdicts do not follow from its own numbers and criterion.

    A verdict edited by hand (``holds`` flipped with a consistent ``discriminating``, a
    ``measured`` outside its criterion, an interval that does not lie inside it) is caught
    here, when the record is loaded, by the unit tests, the status page and the book build.
    """
    bounds = _bounds_from_json(where, claim["bounds"])
    iv = claim.get("interval")
    judge = claim.get("judge", "point")

    def check(name: str, stated: Any, computed: bool | None) -> None:
        if computed is not None and stated != computed:
            raise ValueError(
                f"{where}: {name} says {stated!r}, but the criterion {claim['criterion']!r} "
                f"applied to the stored numbers gives {computed!r} (a verdict is computed, "
                "never edited; re-run the notebook)"
            )

    if judge == "interval":
        check("holds", claim["holds"], bounds.contains_all(iv["low"], iv["high"]))
    else:
        check(
            "holds",
            claim["holds"],
            _judged_holds(where, bounds, claim.get("judged", claim["measured"])),
        )
    for arm in ("baseline", "competitor"):
        b = claim.get(arm)
        if not isinstance(b, dict):
            continue
        biv = b.get("interval")
        if judge == "interval" and isinstance(biv, dict):
            computed = bounds.contains_any(biv["low"], biv["high"])
        else:
            computed = _judged_holds(where, bounds, b.get("judged", b["measured"]))
        check(f"{arm} holds", b["holds"], computed)


def compare_records(
    produced: str | os.PathLike,
    committed: str | os.PathLike,
    notebooks: Iterable[str] | None = None,
) -> list[str]:
    """Compare freshly produced claims records with the committed ones.

    Parameters
    ----------
    produced : path-like
        Folder the re-execution wrote its records to (``make nbval`` uses ``_build/check``).
    committed : path-like
        The committed records (``data/results``).
    notebooks : iterable of str, optional
        Compare only these notebooks' records (a run of one notebook, ``make records NB=...``):
        the others' committed records are then not expected to be produced. Default: all, and
        a committed record that was not produced is a difference.

    Returns
    -------
    list of str
        One line per difference (empty when every produced record equals the committed one
        and every committed record was produced again).
    """
    prod, comm = Path(produced), Path(committed)
    produced_files = {p.name: p for p in sorted(prod.glob("*.json"))}
    committed_files = {
        p.name: p
        for p in sorted(comm.glob("*.json"))
        if p.name not in ("run-report.json", "provenance.json")
    }
    problems = []
    if notebooks is not None:
        wanted = {f"{n}.json" for n in notebooks}
        if not wanted:
            raise ValueError("notebooks names no notebook")
        problems += [
            f"{name}: not produced by the re-execution of {name[:-5]}"
            for name in sorted(wanted - set(produced_files))
        ]
        produced_files = {k: v for k, v in produced_files.items() if k in wanted}
        committed_files = {k: v for k, v in committed_files.items() if k in produced_files}
    if not produced_files and not problems:
        return [f"no records were produced in {prod}; did the notebooks run?"]
    for name in sorted(set(committed_files) - set(produced_files)):
        problems.append(f"{name}: committed but not produced by the re-execution")
    for name, path in produced_files.items():
        if name not in committed_files:
            problems.append(f"{name}: produced but not committed (run `make reproduce`)")
            continue
        try:
            new, old = load_record(path), load_record(committed_files[name])
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if new["profile"] != old["profile"]:
            problems.append(f"{name}: profile {new['profile']!r} != committed {old['profile']!r}")
        new_claims = {c["id"]: c for c in new["claims"]}
        old_claims = {c["id"]: c for c in old["claims"]}
        for cid in sorted(set(old_claims) - set(new_claims)):
            problems.append(f"{name}: claim {cid} committed but no longer produced")
        for cid in sorted(set(new_claims) - set(old_claims)):
            problems.append(f"{name}: claim {cid} produced but not committed")
        for cid in sorted(set(new_claims) & set(old_claims)):
            a, b = new_claims[cid], old_claims[cid]
            for key in sorted(set(a) | set(b)):
                if a.get(key) != b.get(key):
                    problems.append(
                        f"{name}: claim {cid}: {key} is {a.get(key)!r}, committed {b.get(key)!r}"
                    )
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python -m mlgeom.book.claims compare PRODUCED COMMITTED [--nb NAME ...]``.

    Exit 1 when the records differ (2 on a usage error).

    With ``--nb`` only those notebooks' records are compared (a partial run is not drift).
    """
    import sys

    args = sys.argv[1:] if argv is None else argv
    only = None
    if len(args) >= 5 and args[3] == "--nb":
        only = [n for item in args[4:] for n in item.replace(",", " ").split()]
        args = args[:3]
    if len(args) != 3 or args[0] != "compare" or only == []:
        usage = (
            "usage: python -m mlgeom.book.claims compare PRODUCED_DIR COMMITTED_DIR [--nb NAME ...]"
        )
        print(usage, file=sys.stderr)
        return 2
    problems = compare_records(args[1], args[2], only)
    if problems:
        print("claims records differ from the committed ones:", file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        print(
            "re-run `make reproduce` and review the diff if the change is intended", file=sys.stderr
        )
        return 1
    scope = f" of {', '.join(only)}" if only else ""
    print(f"claims records: every record{scope} in {args[1]} equals the committed one")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
