"""The claims machinery of issues 29 and 34: exact quantities, natural competitors, zero-width
intervals refused, erratum outcomes, and records whose verdicts are recomputed on load."""

from __future__ import annotations

import json

import pytest

from mlgeom.book import claims as C
from mlgeom.book.registry import load_registry
from mlgeom.stats import Interval, mean_interval
from tests.book.test_registry import toml_registry

TEN = "t interval over 10 seeds"


def registry(tmp_path, entries, headlines=()):
    p = toml_registry(tmp_path / "demo.toml", "demo", entries)
    if headlines:
        with p.open("a", encoding="utf-8") as fh:
            for h in headlines:
                fh.write("\n[[headline]]\n")
                for k, v in h.items():
                    fh.write(f"{k} = {json.dumps(v, ensure_ascii=False)}\n")
    return load_registry("demo", p)


def record(tmp_path, entries):
    return C.ClaimsRecord(
        "demo", "book", directory=tmp_path / "results", registry=registry(tmp_path, entries)
    )


RESULT_IV = {
    "id": "a.iv",
    "kind": "result",
    "statement": "s",
    "criterion": "<= 2",
    "judge": "interval",
    "baseline": "uniform guessing",
    "competitor": "midpoint learner",
}


def test_a_zero_width_interval_is_refused_and_exact_is_judged_as_a_point(tmp_path):
    rec = record(
        tmp_path,
        [
            RESULT_IV,
            {
                "id": "a.ex",
                "kind": "check",
                "statement": "s",
                "criterion": "<= 2",
                "judge": "exact",
            },
        ],
    )
    flat = mean_interval([1.5] * 10)
    assert flat.width == 0 and "identical" in flat.method
    with pytest.raises(ValueError, match='zero width.*register judge = "exact"'):
        rec.measure("a.iv", 1.5, interval=flat, scale="n", baseline=3.0, competitor=1.0)
    with pytest.raises(TypeError, match="judges the point value"):
        rec.measure("a.ex", 1.5, interval=mean_interval([1.0, 2.0]))
    c = rec.measure("a.ex", 1.5, seeds=10)
    assert c.holds and c.to_json()["judge"] == "exact"


def test_a_volatile_check_keeps_its_verdict_but_not_the_wall_time(tmp_path):
    entry = {"id": "a.t", "kind": "check", "statement": "s", "criterion": "<= 30", "volatile": True}
    rec = record(tmp_path, [entry])
    with pytest.raises(TypeError, match="volatile.*value="):
        rec.measure("a.t", 2.5)
    c = rec.measure("a.t", "≤ 30 s", value=2.96)
    out = c.to_json()
    assert c.holds and out["volatile"] is True and "judged" not in out
    assert C.Claim(**{**vars_of(c), "value": 0.69}).to_json() == out  # another run, same record
    rec.write()
    assert C.load_record(rec.path)["claims"][0]["volatile"] is True
    forged = json.loads(rec.path.read_text(encoding="utf-8"))
    forged["claims"][0]["judged"] = 2.96
    rec.path.write_text(json.dumps(forged), encoding="utf-8")
    with pytest.raises(ValueError, match="volatile"):
        C.load_record(rec.path)
    for bad in (
        {"volatile": "yes"},
        {"volatile": True, "judge": "exact"},
        {"volatile": True, "kind": "result", "no_baseline": "none"},
    ):
        with pytest.raises(ValueError, match="volatile = true marks a check"):
            registry(tmp_path, [{**entry, **bad}])


def vars_of(claim):
    from dataclasses import fields

    return {f.name: getattr(claim, f.name) for f in fields(claim) if f.init}


def test_a_smoke_run_may_meet_identical_replicates(tmp_path):
    """At the smoke profile two seeds can coincide by chance: the run goes on (its record is
    never committed); at the book and paper profiles the zero-width interval is refused."""
    reg = registry(tmp_path, [RESULT_IV])
    flat = mean_interval([1.5, 1.5])
    smoke = C.ClaimsRecord("demo", "smoke", directory=tmp_path / "r", registry=reg)
    c = smoke.measure("a.iv", 1.5, interval=flat, scale="n", baseline=3.0, competitor=1.0)
    assert c.holds and c.interval.width == 0
    book = C.ClaimsRecord("demo", "book", directory=tmp_path / "r", registry=reg)
    with pytest.raises(ValueError, match="zero width"):
        book.measure("a.iv", 1.5, interval=flat, scale="n", baseline=3.0, competitor=1.0)


def test_the_competitor_is_judged_by_the_same_criterion(tmp_path):
    rec = record(tmp_path, [RESULT_IV])
    iv = Interval(1.5, 1.2, 1.8, 10, 0.95, TEN)
    with pytest.raises(TypeError, match="names the competitor 'midpoint learner'"):
        rec.measure("a.iv", 1.5, interval=iv, scale="n", baseline=3.0)
    c = rec.measure(
        "a.iv",
        1.5,
        interval=iv,
        scale="n",
        baseline=3.0,
        competitor=1.6,
        competitor_interval=Interval(1.6, 1.4, 1.9, 10, 0.95, TEN),
    )
    assert c.holds and c.discriminating and c.competitor.holds and c.beats_competitor is False
    assert c.verdict == "holds, and so does the competitor"
    out = c.to_json()
    assert out["competitor"]["holds"] is True and out["beats_competitor"] is False
    # an arm without spread is an exact number: judged as a point, stored without an interval
    c = rec.measure(
        "a.iv",
        1.5,
        interval=iv,
        scale="n",
        baseline=3.0,
        competitor=2.5,
        competitor_interval=mean_interval([2.5] * 5),
    )
    assert c.competitor.holds is False and "interval" not in c.to_json()["competitor"]


def test_an_erratum_carries_its_quote_and_outcome(tmp_path):
    err = {
        "id": "a.err",
        "kind": "erratum",
        "statement": "s",
        "criterion": "<= 0",
        "printed": "log2(1 + x) <= x",
        "location": "App. H",
        "outcome": "printed error",
        "correction": "divide by ln 2",
        "survives": "Theorem 5.2 survives",
    }
    chk = {
        "id": "a.chk",
        "kind": "check",
        "statement": "s",
        "criterion": "<= 0",
        "caused_by": "a.err",
    }
    rec = record(tmp_path, [err, chk])
    out = rec.measure("a.err", 0.08).to_json()
    assert out["outcome"] == "printed error" and out["printed"] == "log2(1 + x) <= x"
    assert rec.measure("a.chk", 1.0).to_json()["caused_by"] == "a.err"


def _written(tmp_path):
    rec = record(
        tmp_path,
        [RESULT_IV, {"id": "a.p", "kind": "check", "statement": "s", "criterion": "<= 0.5"}],
    )
    rec.measure(
        "a.iv",
        1.5,
        interval=Interval(1.5, 1.2, 1.8, 10, 0.95, TEN),
        scale="n",
        baseline=3.0,
        baseline_interval=Interval(3.0, 2.5, 3.5, 10, 0.95, TEN),
        competitor=1.9,
        competitor_interval=Interval(1.9, 1.7, 2.2, 10, 0.95, TEN),
    )
    rec.measure("a.p", 0.4)
    return rec.write()


@pytest.mark.parametrize(
    "forge",
    [
        lambda c: c[1].update(measured=0.9),  # a measurement outside its criterion, holds true
        lambda c: c[1].update(holds=False),  # a flipped verdict
        lambda c: c[0]["interval"].update(high=2.5),  # an interval reaching outside
        lambda c: c[0].update(holds=False, discriminating=False),  # consistent flip
        lambda c: c[0]["baseline"].update(holds=True) or c[0].update(discriminating=False),
        lambda c: c[0]["competitor"].update(holds=False) or c[0].update(beats_competitor=True),
    ],
)
def test_a_forged_verdict_is_refused_on_load(tmp_path, forge):
    path = _written(tmp_path)
    assert C.load_record(path)["claims"][0]["holds"] is True  # the genuine record loads
    data = json.loads(path.read_text(encoding="utf-8"))
    forge(data["claims"])
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="demo.json: claim a\\.(iv|p)"):
        C.load_record(path)


def test_headlines_are_validated(tmp_path):
    base = [dict(RESULT_IV)]
    ok = {"id": "d.headline.x", "title": "It works", "claims": ["a.iv"], "paper": "0.5"}
    reg = registry(tmp_path, base, [ok])
    (h,) = reg.headlines
    assert h.key == "a.iv" and h.claims == ("a.iv",)
    for bad, msg in [
        ({**ok, "claims": ["a.zz"]}, "not in the registry"),
        ({**ok, "key": "a.zz"}, "must be one of its claims"),
        ({**ok, "colour": "red"}, "unknown key"),
        ({**ok, "title": ""}, "'title' must be a non-empty string"),
    ]:
        with pytest.raises(ValueError, match=msg):
            registry(tmp_path, base, [bad])
