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
    judge = "point"                 # "interval": judged on the 95% interval over replicates;
                                    # "exact": a deterministic quantity, judged as a point
    competitor = "averaged SGD"     # results: the natural competitor, under the same criterion
    scope = "beyond"                # the book's own test, not a claim of the paper (default paper)
    section = "primer-perceptron"

An erratum quotes what it accuses: ``printed`` (the text), ``location``, ``outcome`` (``"printed
error"``, ``"typo"`` or ``"source text ambiguous"``), ``correction`` and, for a printed error,
``survives`` (whether the paper's result survives it). A check that fails only because of a
recorded erratum names it in ``caused_by``.

Each chapter's 3–8 headline claims are ``[[headline]]`` tables (:class:`Headline`): a title in
plain words, the paper's number, and the supporting claims whose verdicts decide it
(:mod:`mlgeom.book.verdicts`).

An interval claim measured over fewer than 10 seeds or splits (the book's default) says why in
``few_replicates = "why"``: e.g. a paper protocol of 5 disjoint splits, where more splits would
change what is compared. The t interval over few replicates is wider, never narrower.

A check judged on a wall time sets ``volatile = true``: the notebook passes the time as ``value=``
and words as ``measured``, and the record keeps the verdict only (a time differs on every run,
so storing it would make every re-execution a difference).

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
    "JUDGES",
    "KINDS",
    "OUTCOMES",
    "SCOPES",
    "Bounds",
    "Headline",
    "Registry",
    "RegistryEntry",
    "load_registry",
    "parse_criterion",
    "registry_dir",
    "registry_path",
]

#: The three kinds of claim (see ``CONTRIBUTING.md``).
KINDS = ("result", "erratum", "check")

#: How a claim is judged: on the point value, on its interval, or as an exact quantity.
JUDGES = ("point", "interval", "exact")

#: Where a claim comes from: the paper, or the book's own tests beyond it.
SCOPES = ("paper", "beyond")

#: What the independent re-reading of an erratum concluded.
OUTCOMES = ("printed error", "typo", "source text ambiguous")

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
    "volatile",
    "competitor",
    "scope",
    "caused_by",
    "printed",
    "location",
    "outcome",
    "correction",
    "survives",
}
_HEADLINE_KEYS = {"id", "title", "paper", "claims", "key", "section", "untestable", "note"}
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

    def contains(self, value: Any) -> bool:
        """Whether the measured ``value`` satisfies the criterion."""
        if isinstance(self.equal, bool):  # a boolean, or its stored text "True"/"False"
            if isinstance(value, str):
                return value == str(self.equal)
            return isinstance(value, bool | np.bool_) and bool(value) == self.equal
        if self.equal is not None:
            return bool(value == self.equal)
        v = _number("value", value)
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
    volatile: bool = False
    competitor: str | None = None
    scope: str = "paper"
    caused_by: str | None = None
    printed: str | None = None
    location: str | None = None
    outcome: str | None = None
    correction: str | None = None
    survives: str | None = None


@dataclass(frozen=True)
class Headline:
    """One of a chapter's headline claims (a ``[[headline]]`` table).

    Attributes
    ----------
    id : str
        Unique id, ``<prefix>.headline.<name>``.
    title : str
        The claim in plain words.
    paper : str or float, optional
        The paper's number or text, shown beside ours.
    claims : tuple of str
        The supporting claims: the headline is reproduced when all of them hold.
    key : str
        The claim whose number is shown (default: the first supporting claim).
    section : str, optional
        The chapter section that tests it (default: the key claim's).
    untestable : str, optional
        Why the claim cannot be tested here; its verdict is then "Not testable here".
    note : str, optional
        One sentence shown with the verdict.
    """

    id: str
    title: str
    claims: tuple[str, ...]
    key: str
    paper: Any = None
    section: str | None = None
    untestable: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Registry:
    """A chapter's registry: its entries in file order, and its headline claims."""

    notebook: str
    path: Path
    entries: dict[str, RegistryEntry]
    headlines: tuple[Headline, ...] = ()

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
        "competitor",
        "caused_by",
        "printed",
        "location",
        "correction",
        "survives",
    ):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            raise ValueError(f"{where}: {key!r} must be a non-empty string; got {raw[key]!r}")
    judge = raw.get("judge", "point")
    if judge not in JUDGES:
        raise ValueError(f"{where}: judge must be one of {JUDGES}; got {judge!r}")
    scope = raw.get("scope", "paper")
    if scope not in SCOPES:
        raise ValueError(f"{where}: scope must be one of {SCOPES}; got {scope!r}")
    if "competitor" in raw and raw["kind"] != "result":
        raise ValueError(f"{where}: only a result has a competitor (kind is {raw['kind']!r})")
    if "caused_by" in raw and raw["kind"] != "check":
        raise ValueError(f"{where}: caused_by names the erratum a failing check rests on")
    erratum_keys = {"printed", "location", "outcome", "correction", "survives"} & set(raw)
    if erratum_keys and raw["kind"] != "erratum":
        raise ValueError(f"{where}: {sorted(erratum_keys)} describe an erratum only")
    if "outcome" in raw and raw["outcome"] not in OUTCOMES:
        raise ValueError(f"{where}: outcome must be one of {OUTCOMES}; got {raw['outcome']!r}")
    if raw["kind"] == "erratum" and "outcome" in raw:
        need = {"printed", "location"} | (
            {"correction", "survives"} if raw["outcome"] == "printed error" else set()
        )
        if raw["outcome"] == "typo":
            need |= {"correction"}
        missing = sorted(need - set(raw))
        if missing:
            raise ValueError(f"{where}: an erratum with outcome {raw['outcome']!r} needs {missing}")
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
    if "volatile" in raw and (
        raw["volatile"] is not True or raw["kind"] != "check" or judge != "point"
    ):
        raise ValueError(
            f"{where}: volatile = true marks a check judged on a wall time (judge point); "
            f"got volatile = {raw['volatile']!r} on a {raw['kind']} judged by {judge!r}"
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
    extra = {
        k: raw[k]
        for k in (
            "competitor",
            "caused_by",
            "printed",
            "location",
            "outcome",
            "correction",
            "survives",
        )
        if k in raw
    }
    return RegistryEntry(
        **extra,
        scope=scope,
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
        volatile=bool(raw.get("volatile", False)),
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
    unknown = set(data) - {"notebook", "claim", "headline"}
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
    for entry in entries.values():
        if entry.caused_by is not None and (
            entry.caused_by not in entries or entries[entry.caused_by].kind != "erratum"
        ):
            raise ValueError(
                f"{p}: claim {entry.id}: caused_by {entry.caused_by!r} is not an erratum of "
                "this registry"
            )
    headlines = _headlines(p, data.get("headline", []), entries)
    return Registry(notebook, p, entries, headlines)


def _headlines(p: Path, raw: Any, entries: Mapping[str, RegistryEntry]) -> tuple[Headline, ...]:
    """Validate the ``[[headline]]`` tables against the registry's claims."""
    if not isinstance(raw, list):
        raise ValueError(f"{p}: 'headline' must be an array of tables ([[headline]])")
    out: list[Headline] = []
    seen: set[str] = set()
    for i, h in enumerate(raw):
        where = f"{p}: headline {i}"
        if not isinstance(h, dict):
            raise ValueError(f"{where} must be a table")
        hid = h.get("id")
        if not isinstance(hid, str) or not hid or any(c.isspace() for c in hid):
            raise ValueError(
                f"{where}: 'id' must be a non-empty string without spaces; got {hid!r}"
            )
        where = f"{p}: headline {hid}"
        if hid in seen or hid in entries:
            raise ValueError(f"{where}: the id is used twice")
        seen.add(hid)
        unknown = set(h) - _HEADLINE_KEYS
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {sorted(unknown)}")
        title = h.get("title")
        if not isinstance(title, str) or not title.strip():
            raise ValueError(f"{where}: 'title' must be a non-empty string; got {title!r}")
        claims = h.get("claims")
        if (
            not isinstance(claims, list)
            or not claims
            or not all(isinstance(c, str) for c in claims)
        ):
            raise ValueError(f"{where}: 'claims' must be a non-empty list of claim ids")
        missing = [c for c in claims if c not in entries]
        if missing:
            raise ValueError(f"{where}: supporting claim(s) {missing} are not in the registry")
        key = h.get("key", claims[0])
        if key not in claims:
            raise ValueError(f"{where}: key {key!r} must be one of its claims {claims}")
        for k in ("section", "untestable", "note"):
            if k in h and (not isinstance(h[k], str) or not h[k].strip()):
                raise ValueError(f"{where}: {k!r} must be a non-empty string; got {h[k]!r}")
        paper = h.get("paper")
        if paper is not None and (
            isinstance(paper, bool) or not isinstance(paper, int | float | str)
        ):
            raise ValueError(f"{where}: paper must be a number or a string; got {paper!r}")
        out.append(
            Headline(
                id=hid,
                title=title,
                claims=tuple(claims),
                key=key,
                paper=paper,
                section=h.get("section", entries[key].section),
                untestable=h.get("untestable"),
                note=h.get("note"),
            )
        )
    if len(out) > 8:
        raise ValueError(f"{p}: {len(out)} headline claims; a chapter has at most 8")
    return tuple(out)
