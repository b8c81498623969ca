"""Claims records: what each notebook checks, what it measured, and whether the claim held.

Every notebook states the paper's claims it checks, measures them, and writes one record,
``data/results/<notebook>.json`` (the contract in ``shared/spec/README.md``)::

    record = ClaimsRecord("geometry_primer", profile=PROFILE)
    record.check(
        "primer.polyfit.best-degree",
        "p = 2 has the lowest test SSE",
        paper=2,
        measured=best_p,
        criterion=equals(2),
        section="primer-cross-validation",
    )
    record.write()

The verdict ``holds`` is *computed* by applying the criterion to the measured value; there
is no way to pass a verdict in, and :meth:`ClaimsRecord.check` refuses a ``holds`` argument.
A criterion is a :class:`Criterion`: a human-readable description (stored in the record and
shown on the status page) and a predicate. The factories below cover the usual comparisons;
:func:`predicate` wraps any other test.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from numbers import Integral, Real
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mlgeom.book.paths import results_dir
from mlgeom.book.profiles import check_profile

__all__ = [
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
    """

    description: str
    test: Callable[[Any], bool]

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


def within_rel(target: float, rel: float) -> Criterion:
    """Measured value within a relative tolerance ``rel`` of ``target``: ``|m - t| <= rel |t|``."""
    t, r = _finite("target", target), _finite("rel", rel)
    if r <= 0:
        raise ValueError(f"rel must be > 0; got {rel!r}")
    return Criterion(
        f"within {_fmt(100 * r)}% of {_fmt(t)}",
        lambda m: abs(_finite("measured", m) - t) <= r * abs(t),
    )


def within_abs(target: float, tol: float) -> Criterion:
    """Measured value within an absolute tolerance: ``|m - target| <= tol``."""
    t, a = _finite("target", target), _finite("tol", tol)
    if a < 0:
        raise ValueError(f"tol must be >= 0; got {tol!r}")
    return Criterion(
        f"within ±{_fmt(a)} of {_fmt(t)}", lambda m: abs(_finite("measured", m) - t) <= a
    )


def at_most(bound: float, *, label: str | None = None) -> Criterion:
    """Measured value at most ``bound`` (``label`` names the bound in the description)."""
    b = _finite("bound", bound)
    name = label if label is not None else _fmt(b)
    return Criterion(f"≤ {name}", lambda m: _finite("measured", m) <= b)


def at_least(bound: float, *, label: str | None = None) -> Criterion:
    """Measured value at least ``bound`` (``label`` names the bound in the description)."""
    b = _finite("bound", bound)
    name = label if label is not None else _fmt(b)
    return Criterion(f"≥ {name}", lambda m: _finite("measured", m) >= b)


def between(low: float, high: float) -> Criterion:
    """Measured value in the closed interval ``[low, high]``."""
    lo, hi = _finite("low", low), _finite("high", high)
    if lo > hi:
        raise ValueError(f"low must be <= high; got low={low!r}, high={high!r}")
    return Criterion(f"in [{_fmt(lo)}, {_fmt(hi)}]", lambda m: lo <= _finite("measured", m) <= hi)


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


@dataclass(frozen=True, repr=False)
class Claim:
    """One checked claim. ``holds`` is computed from ``criterion`` and ``value``; never passed in.

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
    """

    id: str
    statement: str
    paper: Any
    measured: Any
    criterion: Criterion
    value: Any = None
    section: str | None = None
    note: str | None = None
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
        object.__setattr__(self, "paper", _json_value(f"claim {self.id}: paper", self.paper))
        tested = self.measured if self.value is None else self.value
        holds = self.criterion(tested)
        object.__setattr__(self, "holds", holds)
        name = f"claim {self.id}: measured"
        stored = (
            _stored_value(name, self.measured, self.criterion, holds)
            if self.value is None
            else _json_value(name, self.measured)
        )
        object.__setattr__(self, "measured", stored)
        if self.measured is None:
            raise ValueError(f"claim {self.id}: measured must not be None")

    def __repr__(self) -> str:
        """One deterministic line a reader can check: verdict, measured vs paper, criterion."""
        paper = "" if self.paper is None else f" (paper: {self.paper})"
        verdict = "holds" if self.holds else "does not hold"
        return (
            f"{self.id}: measured {self.measured}{paper}; {self.criterion.description} → {verdict}"
        )

    def to_json(self) -> dict[str, Any]:
        """Return the record entry (the contract's fields plus ``section`` and ``note``)."""
        out: dict[str, Any] = {
            "id": self.id,
            "statement": self.statement,
            "paper": self.paper,
            "measured": self.measured,
            "criterion": self.criterion.description,
            "holds": self.holds,
        }
        if self.section is not None:
            out["section"] = self.section
        if self.note is not None:
            out["note"] = self.note
        return out


class ClaimsRecord:
    """The claims a notebook checks, written to ``<results_dir>/<notebook>.json``.

    Parameters
    ----------
    notebook : str
        Notebook stem, e.g. ``"geometry_primer"``.
    profile : {"smoke", "book", "paper"}
        The run's profile; non-``book`` records go to a sub-folder named after the profile.
    directory : path-like, optional
        Override the results folder (default: :func:`mlgeom.book.paths.results_dir`).
    """

    def __init__(self, notebook: str, profile: str, directory: str | os.PathLike | None = None):
        if not isinstance(notebook, str) or not notebook or "/" in notebook:
            raise ValueError(
                f"notebook must be a notebook stem like 'geometry_primer'; got {notebook!r}"
            )
        self.notebook = notebook
        self.profile = check_profile(profile)
        self.directory = Path(directory) if directory is not None else results_dir(self.profile)
        self._claims: dict[str, Claim] = {}

    def check(self, id: str, statement: str, **kwargs: Any) -> Claim:  # noqa: A002
        """Record one claim and return it with its computed verdict.

        Keyword arguments are those of :class:`Claim` (``paper``, ``measured``,
        ``criterion``, ``value``, ``section``, ``note``), plus ``note_if_fails``: a note kept
        only when the claim does not hold (the reason it fails), so that the caller does not
        test the criterion a second time to decide. Passing ``holds`` is refused: a verdict is
        computed, never given by hand. Checking an id twice replaces the earlier entry
        (re-running a cell must not duplicate claims); the same id with another statement or
        section is an error (two claims must not share an id).
        """
        if "holds" in kwargs:
            raise TypeError(
                f"claim {id}: 'holds' cannot be given by hand; pass a criterion and the verdict "
                "is computed from the measurement"
            )
        known = {"paper", "measured", "criterion", "value", "section", "note", "note_if_fails"}
        unknown = set(kwargs) - known
        if unknown:
            raise TypeError(f"claim {id}: unknown argument(s) {sorted(unknown)}")
        if "measured" not in kwargs or "criterion" not in kwargs:
            raise TypeError(f"claim {id}: 'measured' and 'criterion' are required")
        if_fails = kwargs.pop("note_if_fails", None)
        if if_fails is not None and kwargs.get("note") is not None:
            raise TypeError(f"claim {id}: give either 'note' or 'note_if_fails', not both")
        claim = Claim(id, statement, kwargs.pop("paper", None), **kwargs)
        if if_fails is not None and not claim.holds:
            claim = replace(claim, note=if_fails)
        earlier = self._claims.get(claim.id)
        if earlier is not None and (earlier.statement, earlier.section) != (
            claim.statement,
            claim.section,
        ):
            raise ValueError(
                f"claim id {claim.id!r} is already used for {earlier.statement!r} "
                f"(section {earlier.section}); ids must be unique"
            )
        self._claims[claim.id] = claim
        return claim

    @property
    def claims(self) -> list[Claim]:
        """The recorded claims in the order they were first checked."""
        return list(self._claims.values())

    def __getitem__(self, claim_id: str) -> Claim:
        return self._claims[claim_id]

    def __len__(self) -> int:
        return len(self._claims)

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
        """Write the record atomically (temporary file, then rename) and return its path."""
        if not self._claims:
            raise ValueError(
                f"record {self.notebook}: no claims checked; refusing to write an empty record"
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
        rows = [
            {
                "claim": c.id,
                "paper": "—" if c.paper is None else c.paper,
                "measured": c.measured,
                "criterion": c.criterion.description,
                "verdict": "holds" if c.holds else "fails",
            }
            for c in chosen
        ]
        return pd.DataFrame(rows).set_index("claim")

    def glue(self, claim_id: str, fmt: str = "{:.4g}") -> None:
        """Glue a claim's measured value and verdict for prose (myst-nb ``{glue:}``).

        Creates the glue keys ``<id>`` (the formatted measured value) and ``<id>.verdict``
        (``"holds"`` or ``"does not hold"``), so that prose quotes computed numbers only.
        """
        from myst_nb import glue

        claim = self._claims[claim_id]
        value = claim.measured
        text = value if isinstance(value, str) else fmt.format(value)
        glue(claim_id, text, display=False)
        glue(f"{claim_id}.verdict", "holds" if claim.holds else "does not hold", display=False)


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
    return data


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
        p.name: p for p in sorted(comm.glob("*.json")) if p.name != "run-report.json"
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
