"""Headline verdicts in plain words, computed from the records (issue 28) with Holm (issue 29)."""

from __future__ import annotations

from mlgeom.book import claims as C
from mlgeom.book.verdicts import VERDICTS, headline_verdicts
from mlgeom.stats import Interval
from tests.book.test_claims_machinery import registry

TEN = "t interval over 10 seeds"


def _iv(lo, hi, est=None):
    est = (lo + hi) / 2 if est is None else est
    return Interval(est, lo, hi, 10, 0.95, TEN, (hi - lo) / 4.5, 9)


ENTRIES = [
    {
        "id": "a.r",
        "kind": "result",
        "statement": "s",
        "criterion": "<= 2",
        "judge": "interval",
        "baseline": "uniform guessing",
        "competitor": "midpoint",
    },
    {"id": "a.c", "kind": "check", "statement": "s", "criterion": "<= 2"},
    {
        "id": "a.e",
        "kind": "erratum",
        "statement": "s",
        "criterion": "<= 0",
        "printed": "x <= 0",
        "location": "p. 3",
        "outcome": "printed error",
        "correction": "x <= 1",
        "survives": "yes",
    },
]
HEADS = [
    {"id": "a.headline.r", "title": "R", "claims": ["a.r"], "paper": "2"},
    {"id": "a.headline.c", "title": "C", "claims": ["a.c"]},
    {"id": "a.headline.e", "title": "E", "claims": ["a.e"]},
    {"id": "a.headline.u", "title": "U", "claims": ["a.c"], "untestable": "no data here"},
]


def _verdicts(tmp_path, comp_iv, check_value):
    reg = registry(tmp_path, ENTRIES, HEADS)
    rec = C.ClaimsRecord("demo", "book", directory=tmp_path / "r", registry=reg)
    rec.measure(
        "a.r",
        1.5,
        interval=_iv(1.2, 1.8),
        scale="n",
        baseline=3.0,
        competitor=comp_iv.estimate,
        competitor_interval=comp_iv,
    )
    rec.measure("a.c", check_value)
    rec.measure("a.e", 0.5)
    return {v.id: v for v in headline_verdicts("demo", rec.to_json(), reg)}


def test_each_verdict_follows_from_the_supporting_claims(tmp_path):
    v = _verdicts(tmp_path, _iv(2.5, 3.5), 1.0)
    assert v["a.headline.r"].verdict == "Reproduced"
    assert v["a.headline.c"].verdict == "Reproduced"
    assert v["a.headline.e"].verdict == "Printed error" and "x <= 1" in v["a.headline.e"].why
    assert v["a.headline.u"].verdict == "Not testable here"
    assert v["a.headline.r"].competitor.startswith("midpoint: 3")
    v = _verdicts(tmp_path, _iv(1.5, 2.5), 3.0)
    assert v["a.headline.r"].verdict == "Reproduced, but a simpler method does as well"
    assert v["a.headline.c"].verdict == "Not reproduced" and "≤ 2" in v["a.headline.c"].why
    assert {x.verdict for x in v.values()} <= set(VERDICTS)


def test_holm_flags_a_verdict_that_rests_on_no_correction(tmp_path):
    # an interval just inside the bound: p just under 2.5%, rejected alone but not by Holm
    # in a family with another interval claim (here the same claim counted via two headlines)
    reg = registry(tmp_path, ENTRIES, HEADS[:1] + [{**HEADS[0], "id": "a.headline.r2"}])
    rec = C.ClaimsRecord("demo", "book", directory=tmp_path / "r", registry=reg)
    rec.measure(
        "a.r",
        1.5,
        interval=_iv(1.0, 1.99),
        scale="n",
        baseline=3.0,
        competitor=3.0,
        competitor_interval=_iv(2.5, 3.5),
    )
    v = headline_verdicts("demo", rec.to_json(), reg)
    assert all(x.verdict == "Reproduced" for x in v)
    assert any(x.holm_dependent for x in v)
