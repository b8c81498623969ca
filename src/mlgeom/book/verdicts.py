"""Each paper's headline claims and their verdicts in plain words, computed from the records.

A chapter's registry names its 3–8 headline claims (``[[headline]]`` tables,
:class:`mlgeom.book.registry.Headline`), each supported by claims of the record. The verdict of a
headline is computed, like every verdict, from those claims:

- **Not testable here** when the registry says why it cannot be tested (``untestable``);
- **Printed error** when a supporting claim is an erratum of the printed text, confirmed;
- **Reproduced** when every supporting claim holds, or **Reproduced, but a simpler method does as
  well** when the natural competitor of some supporting result passes the same criterion;
- **Not reproduced** otherwise.

The headline family of a chapter is also judged with Holm's correction over the one-sided
p-values of its interval claims (:func:`mlgeom.stats.holm`): a "Reproduced" whose support does
not survive the correction says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mlgeom.book.registry import Headline, Registry, load_registry

__all__ = [
    "DEFINITIONS",
    "HOLM_ALPHA",
    "VERDICTS",
    "HeadlineVerdict",
    "claim_p_value",
    "headline_verdicts",
]

#: The five verdicts, in the order the book explains them.
VERDICTS = (
    "Reproduced",
    "Reproduced, but a simpler method does as well",
    "Not reproduced",
    "Not testable here",
    "Printed error",
)

#: Each verdict defined once (the landing page shows these sentences).
DEFINITIONS = {
    "Reproduced": "our measurement passes the criterion registered before the run, and the "
    "natural competitor (the simpler method the paper improves on) does not.",
    "Reproduced, but a simpler method does as well": "the claim holds, but the natural "
    "competitor, run on the same data under the same criterion, passes too.",
    "Not reproduced": "our measurement fails the registered criterion; the chapter says why.",
    "Not testable here": "the data or the scale the claim needs are not available here; the "
    "chapter says what would be needed.",
    "Printed error": "the printed statement is wrong as printed, shown by computation; the "
    "chapter gives the correction and whether the paper's result survives it.",
}

#: One-sided level of each test in the headline family: a 95% two-sided interval inside the
#: criterion is a one-sided test at 2.5%, and Holm's correction keeps the family at that level.
HOLM_ALPHA = 0.025


@dataclass(frozen=True)
class HeadlineVerdict:
    """A headline claim with its computed verdict.

    Attributes
    ----------
    notebook, id, title : str
        The chapter, the headline's id and its title in plain words.
    paper : str
        The paper's number or text (``"—"`` where it gives none).
    ours : str
        The key claim's measurement (with its interval where it has one).
    competitor : str or None
        The natural competitor's measurement under the same criterion, where one was run.
    verdict : str
        One of :data:`VERDICTS`.
    why : str
        One line: what decided the verdict.
    section : str or None
        The chapter section that tests it.
    holm_dependent : bool
        Whether a "Reproduced" rests on a supporting interval claim that Holm's correction over
        the chapter's headline family would not support.
    claims : tuple of dict
        The supporting claims, as recorded.
    """

    notebook: str
    id: str
    title: str
    paper: str
    ours: str
    competitor: str | None
    verdict: str
    why: str
    section: str | None
    holm_dependent: bool
    claims: tuple[dict[str, Any], ...]


def _num(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return str(v)
    if isinstance(v, int) or float(v).is_integer() and abs(v) < 1e15:
        return f"{int(v):,}" if abs(v) >= 1e4 else str(int(v))
    return f"{v:.3g}" if abs(v) >= 1e-3 or v == 0 else f"{v:.2e}"


def _shown(c: Mapping[str, Any], arm: Mapping[str, Any] | None = None) -> str:
    src = c if arm is None else arm
    text = _num(src["measured"])
    iv = src.get("interval")
    if isinstance(iv, dict):
        text += f" [{_num(iv['low'])}, {_num(iv['high'])}]"
    return text


def claim_p_value(c: Mapping[str, Any]) -> float | None:
    """One-sided p-value of an interval claim from its stored interval; ``None`` for others.

    A claim judged on a t interval whose standard error and degrees of freedom are stored is
    tested against its criterion's admissible set (:func:`mlgeom.stats.one_sided_p`).
    """
    from mlgeom.stats import Interval, one_sided_p

    iv, bounds = c.get("interval"), c.get("bounds")
    if c.get("judge") != "interval" or not isinstance(iv, dict) or not isinstance(bounds, dict):
        return None
    if "se" not in iv or "df" not in iv or "equal" in bounds:
        return None
    est = float(c["measured"]) if isinstance(c["measured"], int | float) else None
    if est is None or not iv["low"] <= est <= iv["high"]:
        est = (iv["low"] + iv["high"]) / 2
    interval = Interval(
        est, iv["low"], iv["high"], 2, iv["level"], iv["method"], iv["se"], iv["df"]
    )
    low = -math.inf if bounds["low"] is None else bounds["low"]
    high = math.inf if bounds["high"] is None else bounds["high"]
    return one_sided_p(interval, low, high)


def _holds(c: Mapping[str, Any]) -> bool:
    """Whether a supporting claim supports the headline (a refuted erratum does not)."""
    if c["kind"] == "erratum":
        return bool(c["holds"])
    return bool(c["holds"])


def _why_failed(c: Mapping[str, Any]) -> str:
    note = c.get("note")
    base = f"measured {_shown(c)} against {c['criterion']}"
    return f"{base}: {note}" if note else base


def _verdict(h: Headline, claims: list[dict[str, Any]]) -> tuple[str, str, str | None]:
    key = next(c for c in claims if c["id"] == h.key)
    comp = next((c["competitor"] for c in claims if isinstance(c.get("competitor"), dict)), None)
    comp_text = None
    if comp is not None:
        comp_text = f"{comp['name']}: {_shown({}, comp)}"
    if h.untestable is not None:
        return "Not testable here", h.untestable, comp_text
    for c in claims:
        if (
            c["kind"] == "erratum"
            and not c["holds"]
            and c.get("outcome", "printed error") == ("printed error")
        ):
            fix = c.get("correction")
            return "Printed error", (f"correction: {fix}" if fix else c["statement"]), comp_text
    failed = [c for c in claims if not _holds(c)]
    if failed:
        return "Not reproduced", _why_failed(failed[0]), comp_text
    passing = [
        c
        for c in claims
        if c["kind"] == "result"
        and isinstance(c.get("competitor"), dict)
        and c["competitor"]["holds"]
    ]
    if passing:
        c = passing[0]
        return (
            "Reproduced, but a simpler method does as well",
            f"{c['competitor']['name']} passes the same criterion ({c['criterion']}) with "
            f"{_shown({}, c['competitor'])}",
            comp_text,
        )
    return "Reproduced", f"{_shown(key)} against {key['criterion']}", comp_text


def headline_verdicts(
    notebook: str,
    record: Mapping[str, Any] | None = None,
    registry: Registry | None = None,
) -> list[HeadlineVerdict]:
    """Compute the verdicts of a chapter's headline claims from its record.

    Parameters
    ----------
    notebook : str
        The chapter's notebook stem.
    record : mapping, optional
        The loaded claims record (default: ``data/results/<notebook>.json``, validated).
    registry : Registry, optional
        The chapter's registry (default: ``data/claims/<notebook>.toml``).

    Returns
    -------
    list of HeadlineVerdict
        In registry order.

    Raises
    ------
    ValueError
        When a supporting claim is missing from the record.
    """
    from mlgeom.book.claims import load_record
    from mlgeom.book.paths import results_dir
    from mlgeom.stats import holm

    reg = registry if registry is not None else load_registry(notebook)
    rec = record if record is not None else load_record(results_dir("book") / f"{notebook}.json")
    by_id = {c["id"]: c for c in rec["claims"]}
    rows = []
    for h in reg.headlines:
        missing = [i for i in h.claims if i not in by_id]
        if missing:
            raise ValueError(
                f"headline {h.id} of {notebook}: supporting claim(s) {missing} are not in the "
                "record (re-run the notebook)"
            )
        claims = [by_id[i] for i in h.claims]
        verdict, why, comp = _verdict(h, claims)
        rows.append((h, claims, verdict, why, comp))
    # Holm over the family's interval claims that support a "Reproduced"
    tested = [
        (i, c["id"], p)
        for i, (_, claims, verdict, _, _) in enumerate(rows)
        if verdict.startswith("Reproduced")
        for c in claims
        if (p := claim_p_value(c)) is not None
    ]
    dependent: set[int] = set()
    if tested:
        keep = holm([p for _, _, p in tested], alpha=HOLM_ALPHA)
        dependent = {i for (i, _, _), ok in zip(tested, keep, strict=True) if not ok}
    out = []
    for i, (h, claims, verdict, why, comp) in enumerate(rows):
        key = by_id[h.key]
        out.append(
            HeadlineVerdict(
                notebook=notebook,
                id=h.id,
                title=h.title,
                paper="—" if h.paper is None else _num(h.paper),
                ours=_shown(key),
                competitor=comp,
                verdict=verdict,
                why=why if h.note is None else f"{why}. {h.note}",
                section=h.section,
                holm_dependent=i in dependent,
                claims=tuple(claims),
            )
        )
    return out
