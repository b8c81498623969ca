"""The criteria registry: each chapter's claims, preregistered in ``data/claims/<notebook>.toml``.

A notebook supplies measurements only. What each claim says, its kind, the paper's value, the
criterion that judges it and the strawman it is compared with live in one reviewed file per
chapter, so that a change of criterion is a diff of its own::

    notebook = "geometry_primer"

    [[claim]]
    id = "primer.perceptron.mistakes"
    kind = "result"                 # result | erratum | check
    statement = "The Perceptron makes at most R²/γ² mistakes (Novikoff; slide 12)"
    paper = "R²/γ²"                 # the paper's number or text; omit where it gives none
    criterion = "<= bound"          # see below
    baseline = "plain Perceptron without margin"   # or: no_baseline = "why none applies"
    judge = "point"                 # or "interval": judged on the 95% interval over seeds
    section = "primer-perceptron"

An interval claim measured over fewer than 10 seeds or splits (the book's default) says why in
``few_replicates = "why"``: e.g. a paper protocol of 5 disjoint splits, where more splits would
change what is compared. The t interval over few replicates is wider, never narrower.

A ``check`` may carry ``not_comparable = "why"``: a number shown beside the paper's on data that
are not the paper's. It is computed and stored but counted apart, never as a pass or a failure.

Criteria (the measured value is ``m``)::

    <= x    < x    >= x    > x     m compared with x
    in [a, b]                      a <= m <= b
    within p% of x                 |m - x| <= p/100 · |x|
    within ±a of x                 |m - x| <= a          (also written +-a)
    == v                           m equals v (a number, a quoted string, true or false)

Each operand is a number, ``paper`` (the entry's paper value) or a name the notebook passes in
``refs`` (a bound computed from the theorem, say). With ``judge = "interval"`` a claim holds
when its whole interval satisfies the criterion, and its baseline holds when any part of the
baseline's interval does: a result is *discriminating* only when the method passes with
confidence and the strawman fails with confidence.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mlgeom.book.paths import project_root

__all__ = [
    "KINDS",
    "Bounds",
    "Registry",
    "RegistryEntry",
    "load_registry",
    "parse_criterion",
    "registry_dir",
    "registry_path",
]

#: The three kinds of claim (see ``CONTRIBUTING.md``).
KINDS = ("result", "erratum", "check")

_ENTRY_KEYS = {
    "id",
    "kind",
    "statement",
    "paper",
    "criterion",
    "baseline",
    "no_baseline",
    "judge",
    "section",
    "note",
    "note_if_fails",
    "not_comparable",
    "few_replicates",
}
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_OPERAND = rf"(?:{_NUMBER}|[A-Za-z_][A-Za-z_0-9]*)"


def registry_dir() -> Path:
    """Return the folder of the registries, ``data/claims`` in the project."""
    return project_root() / "data" / "claims"


def registry_path(notebook: str) -> Path:
    """Return the registry file of ``notebook``."""
    return registry_dir() / f"{notebook}.toml"


def _fmt(x: float) -> str:
    """Return the shortest text that reads back as ``x`` (criteria show their real tolerance)."""
    v = float(x)
    for digits in range(1, 18):
        text = f"{v:.{digits}g}"
        if float(text) == v:
            break
    else:
        text = repr(v)
    if "e" in text and -5 <= int(text.split("e")[1]) < 6:  # 2e+01 reads better as 20
        text = repr(v)
        text = text[:-2] if text.endswith(".0") else text
    return text


@dataclass(frozen=True)
class Bounds:
    """The admissible set of a numeric criterion: an interval with open or closed ends.

    ``equal`` is set instead for an equality with a non-numeric value (a label, a boolean).
    """

    low: float = -math.inf
    high: float = math.inf
    low_closed: bool = True
    high_closed: bool = True
    equal: Any = None

    def contains(self, m: Any) -> bool:
        """Whether the value ``m`` satisfies the criterion."""
        if isinstance(self.equal, bool):  # a boolean, or its stored text "True"/"False"
            if isinstance(m, str):
                return m == str(self.equal)
            return isinstance(m, bool | np.bool_) and bool(m) == self.equal
        if self.equal is not None:
            return bool(m == self.equal)
        v = _number("measured", m)
        above = v >= self.low if self.low_closed else v > self.low
        below = v <= self.high if self.high_closed else v < self.high
        return bool(above and below)

    def contains_all(self, low: float, high: float) -> bool:
        """Whether every value in ``[low, high]`` satisfies the criterion."""
        self._numeric()
        low, high = _interval_ends(low, high)
        return self.contains(low) and self.contains(high)

    def contains_any(self, low: float, high: float) -> bool:
        """Whether some value in ``[low, high]`` satisfies the criterion."""
        self._numeric()
        low, high = _interval_ends(low, high)
        reaches_low = high > self.low or (high == self.low and self.low_closed)
        reaches_high = low < self.high or (low == self.high and self.high_closed)
        return bool(reaches_low and reaches_high)

    def _numeric(self) -> None:
        if self.equal is not None:
            raise ValueError(f"'== {self.equal!r}' cannot be judged on an interval")


def _number(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float) and not hasattr(x, "__float__"):
        raise ValueError(f"{name} must be a finite number; got {x!r}")
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number; got {x!r}")
    return v


def _interval_ends(low: Any, high: Any) -> tuple[float, float]:
    lo, hi = _number("low", low), _number("high", high)
    if lo > hi:
        raise ValueError(f"low must be <= high; got low={low!r}, high={high!r}")
    return lo, hi


_PATTERNS = [
    ("cmp", re.compile(rf"^(<=|<|>=|>)\s*({_OPERAND})$")),
    ("in", re.compile(rf"^in\s*\[\s*({_OPERAND})\s*,\s*({_OPERAND})\s*\]$")),
    ("rel", re.compile(rf"^within\s+({_NUMBER})\s*%\s+of\s+({_OPERAND})$")),
    ("abs", re.compile(rf"^within\s+(?:±|\+-)\s*({_NUMBER})\s+of\s+({_OPERAND})$")),
    ("eq", re.compile(r"^==\s*(.+)$")),
]


@dataclass(frozen=True)
class ParsedCriterion:
    """A criterion read from the registry, before its names are resolved."""

    text: str
    form: str
    operands: tuple[str, ...]

    def names(self) -> set[str]:
        """Return the names (not numbers) the criterion refers to."""
        if self.form == "eq":
            return set()
        return {o for o in self.operands if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", o)}

    def resolve(self, refs: Mapping[str, Any]) -> tuple[Bounds, str]:
        """Return the admissible set and the description stored in the record.

        ``refs`` maps each name to its value (``paper`` included).
        """

        def value(op: str) -> tuple[float, str]:
            if re.fullmatch(_NUMBER, op):
                v = float(op)
                return v, _fmt(v)
            if op not in refs or refs[op] is None:
                raise ValueError(
                    f"criterion {self.text!r} refers to {op!r}, which was not given "
                    f"(pass refs={{{op!r}: ...}} to measure)"
                )
            v = _number(f"{op} in criterion {self.text!r}", refs[op])
            return v, _fmt(v) if op == "paper" else f"{_fmt(v)} ({op})"

        if self.form == "cmp":
            op, x = self.operands
            v, shown = value(x)
            symbol = {"<=": "≤", "<": "<", ">=": "≥", ">": ">"}[op]
            bounds = {
                "<=": Bounds(high=v),
                "<": Bounds(high=v, high_closed=False),
                ">=": Bounds(low=v),
                ">": Bounds(low=v, low_closed=False),
            }[op]
            return bounds, f"{symbol} {shown}"
        if self.form == "in":
            (a, sa), (b, sb) = value(self.operands[0]), value(self.operands[1])
            if a > b:
                raise ValueError(f"criterion {self.text!r}: {a} > {b}")
            return Bounds(low=a, high=b), f"in [{sa}, {sb}]"
        if self.form == "rel":
            p = float(self.operands[0])
            t, st = value(self.operands[1])
            r = p / 100 * abs(t)
            return Bounds(low=t - r, high=t + r), f"within {_fmt(p)}% of {st}"
        if self.form == "abs":
            a = float(self.operands[0])
            t, st = value(self.operands[1])
            return Bounds(low=t - a, high=t + a), f"within ±{_fmt(a)} of {st}"
        (literal,) = self.operands
        return _equality(literal, self.text)


def _equality(literal: str, text: str) -> tuple[Bounds, str]:
    if literal in ("true", "false"):
        v: Any = literal == "true"
        return Bounds(equal=v), f"= {v}"
    if len(literal) >= 2 and literal[0] == literal[-1] and literal[0] in "\"'":
        v = literal[1:-1]
        return Bounds(equal=v), f"= {v}"
    if re.fullmatch(_NUMBER, literal):
        v = float(literal)
        return Bounds(low=v, high=v), f"= {_fmt(v)}"
    raise ValueError(
        f"criterion {text!r}: after '==' write a number, a quoted string, true or false"
    )


def parse_criterion(text: str) -> ParsedCriterion:
    """Parse a criterion of the registry's language (see the module docstring).

    Raises
    ------
    ValueError
        Naming the text when it is not one of the forms.
    """
    if not isinstance(text, str):
        raise ValueError(f"a criterion must be a string; got {text!r}")
    t = " ".join(text.split())
    for form, pattern in _PATTERNS:
        m = pattern.match(t)
        if m:
            parsed = ParsedCriterion(text, form, m.groups())
            if form == "eq":
                _equality(m.group(1).strip(), text)
                parsed = ParsedCriterion(text, form, (m.group(1).strip(),))
            elif form == "rel" and float(m.group(1)) <= 0:
                raise ValueError(f"criterion {text!r}: the percentage must be > 0")
            elif form == "abs" and float(m.group(1)) < 0:
                raise ValueError(f"criterion {text!r}: the tolerance must be >= 0")
            elif form == "in" and all(re.fullmatch(_NUMBER, g) for g in m.groups()):
                if float(m.group(1)) > float(m.group(2)):
                    raise ValueError(
                        f"criterion {text!r}: the interval's low end exceeds its high end"
                    )
            return parsed
    raise ValueError(
        f"criterion {text!r} cannot be parsed; use '<= x', '< x', '>= x', '> x', "
        "'in [a, b]', 'within p% of x', 'within ±a of x' or '== v'"
    )


@dataclass(frozen=True)
class RegistryEntry:
    """One preregistered claim (the fields of a ``[[claim]]`` table)."""

    id: str
    kind: str
    statement: str
    criterion: ParsedCriterion
    paper: Any = None
    baseline: str | None = None
    no_baseline: str | None = None
    judge: str = "point"
    section: str | None = None
    note: str | None = None
    note_if_fails: str | None = None
    not_comparable: str | None = None
    few_replicates: str | None = None


@dataclass(frozen=True)
class Registry:
    """A chapter's registry: its entries in file order."""

    notebook: str
    path: Path
    entries: dict[str, RegistryEntry]

    def __getitem__(self, claim_id: str) -> RegistryEntry:
        try:
            return self.entries[claim_id]
        except KeyError:
            raise KeyError(
                f"claim {claim_id!r} is not in the registry {self.path}; add a [[claim]] entry "
                "with its statement, kind and criterion before measuring it"
            ) from None

    def __contains__(self, claim_id: object) -> bool:
        return claim_id in self.entries

    def __len__(self) -> int:
        return len(self.entries)


def _entry(path: Path, i: int, raw: Any) -> RegistryEntry:
    where = f"{path}: claim {i}"
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be a table")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid or any(c.isspace() for c in cid):
        raise ValueError(f"{where}: 'id' must be a non-empty string without spaces; got {cid!r}")
    where = f"{path}: claim {cid}"
    unknown = set(raw) - _ENTRY_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {sorted(unknown)}")
    for key in ("kind", "statement", "criterion"):
        if key not in raw:
            raise ValueError(f"{where}: misses {key!r}")
    if raw["kind"] not in KINDS:
        raise ValueError(f"{where}: kind must be one of {KINDS}; got {raw['kind']!r}")
    for key in (
        "statement",
        "baseline",
        "no_baseline",
        "section",
        "note",
        "note_if_fails",
        "not_comparable",
        "few_replicates",
    ):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            raise ValueError(f"{where}: {key!r} must be a non-empty string; got {raw[key]!r}")
    judge = raw.get("judge", "point")
    if judge not in ("point", "interval"):
        raise ValueError(f"{where}: judge must be 'point' or 'interval'; got {judge!r}")
    if "baseline" in raw and "no_baseline" in raw:
        raise ValueError(f"{where}: give 'baseline' or 'no_baseline', not both")
    if raw["kind"] == "result" and "baseline" not in raw and "no_baseline" not in raw:
        raise ValueError(
            f"{where}: a result needs a 'baseline' (the honest strawman) or 'no_baseline' "
            "(a sentence saying why none applies)"
        )
    if raw["kind"] != "result" and ("baseline" in raw or "no_baseline" in raw):
        raise ValueError(f"{where}: only a result has a baseline (kind is {raw['kind']!r})")
    if "not_comparable" in raw and raw["kind"] != "check":
        raise ValueError(
            f"{where}: only a check can be marked not_comparable (a comparison shown beside the "
            f"paper's number, not counted); kind is {raw['kind']!r}"
        )
    if "few_replicates" in raw and judge != "interval":
        raise ValueError(
            f"{where}: few_replicates explains an interval over few seeds; judge is {judge!r}"
        )
    if "note" in raw and "note_if_fails" in raw:
        raise ValueError(f"{where}: give 'note' or 'note_if_fails', not both")
    paper = raw.get("paper")
    if paper is not None and (isinstance(paper, bool) or not isinstance(paper, int | float | str)):
        raise ValueError(f"{where}: paper must be a number or a string; got {paper!r}")
    try:
        criterion = parse_criterion(raw["criterion"])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if "paper" in criterion.names() and not isinstance(paper, int | float):
        raise ValueError(f"{where}: the criterion uses 'paper', but paper is {paper!r}")
    if judge == "interval" and criterion.form == "eq":
        raise ValueError(f"{where}: an equality cannot be judged on an interval")
    return RegistryEntry(
        id=cid,
        kind=raw["kind"],
        statement=raw["statement"],
        criterion=criterion,
        paper=paper,
        baseline=raw.get("baseline"),
        no_baseline=raw.get("no_baseline"),
        judge=judge,
        section=raw.get("section"),
        note=raw.get("note"),
        note_if_fails=raw.get("note_if_fails"),
        not_comparable=raw.get("not_comparable"),
        few_replicates=raw.get("few_replicates"),
    )


def load_registry(notebook: str, path: str | Path | None = None) -> Registry:
    """Read and validate a chapter's registry; every problem raises ``ValueError`` naming the file.

    Parameters
    ----------
    notebook : str
        Notebook stem; the file's ``notebook`` key must equal it.
    path : path-like, optional
        The file (default :func:`registry_path`).
    """
    p = Path(path) if path is not None else registry_path(notebook)
    if not p.is_file():
        raise ValueError(
            f"no criteria registry for {notebook!r}: {p} is missing (each notebook's claims are "
            "preregistered in data/claims/<notebook>.toml; see CONTRIBUTING.md)"
        )
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{p}: cannot be read ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{p}: not valid TOML ({exc})") from exc
    unknown = set(data) - {"notebook", "claim"}
    if unknown:
        raise ValueError(f"{p}: unknown top-level key(s) {sorted(unknown)}")
    if data.get("notebook") != notebook:
        raise ValueError(f"{p}: says notebook {data.get('notebook')!r}, expected {notebook!r}")
    raw = data.get("claim")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{p}: no [[claim]] entries")
    entries: dict[str, RegistryEntry] = {}
    for i, item in enumerate(raw):
        entry = _entry(p, i, item)
        if entry.id in entries:
            raise ValueError(f"{p}: claim id {entry.id!r} appears more than once")
        entries[entry.id] = entry
    return Registry(notebook, p, entries)
