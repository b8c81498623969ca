"""Claims records: verdicts computed from the registry's criteria, the record is the contract."""

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlgeom.book import claims as C
from mlgeom.stats import Interval

TEN = "t interval over 10 seeds"


def toml_registry(path, notebook, entries):
    """Write a registry file: ``notebook`` and one ``[[claim]]`` table per dict in ``entries``."""
    lines = [f"notebook = {json.dumps(notebook)}", ""]
    for entry in entries:
        lines.append("[[claim]]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in entry.items()]
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def check(cid, criterion, **kw):
    return {
        "id": cid,
        "kind": "check",
        "statement": kw.pop("statement", "s"),
        "criterion": criterion,
        **kw,
    }


def result(cid, criterion, baseline="uniform guessing", **kw):
    entry = {
        "id": cid,
        "kind": "result",
        "statement": kw.pop("statement", "s"),
        "criterion": criterion,
    }
    entry["baseline"] = baseline
    return {**entry, **kw}


def make_record(tmp_path, entries, notebook="nb", directory=None):
    """A record of ``notebook`` judged by a registry of ``entries`` written into ``tmp_path``."""
    reg = toml_registry(tmp_path / "claims" / f"{notebook}.toml", notebook, entries)
    folder = directory if directory is not None else tmp_path / "results"
    return C.ClaimsRecord(notebook, "book", directory=folder, registry=reg)


#: One entry of every shape the contract knows (the write test measures them all).
DEMO = [
    result(
        "a.b",
        ">= 1",
        paper=2,
        section="sec-a",
        note="why",
    ),
    check("a.c", '== "A < B"', statement="ordering"),
    result(
        "a.iv",
        "<= bound",
        statement="regret below the bound",
        paper=3.0,
        judge="interval",
        section="sec-iv",
    ),
    {
        "id": "a.const",
        "kind": "result",
        "statement": "constant",
        "paper": 0.743,
        "criterion": "within 15% of paper",
        "no_baseline": "a printed constant",
    },
    {
        "id": "a.err",
        "kind": "erratum",
        "statement": "printed: x = 2",
        "paper": 2,
        "criterion": "== 2",
        "note_if_fails": "the printed value is wrong",
    },
]


@pytest.fixture
def registry(tmp_path):
    """The path of a small registry for the notebook ``demo``."""
    return toml_registry(tmp_path / "claims" / "demo.toml", "demo", DEMO)


@pytest.fixture
def record(tmp_path, registry):
    return C.ClaimsRecord("demo", "book", directory=tmp_path / "results", registry=registry)


def measure_all(record):
    record.measure("a.b", np.float64(1.23456789), scale="20 points", baseline=0.5)
    record.measure("a.c", "A < B")
    record.measure(
        "a.iv",
        1.5,
        refs={"bound": 2.5},
        interval=Interval(1.5, 1.2, 1.8, 10, 0.95, TEN),
        scale="T = 1000",
        baseline=3.5,
        baseline_interval=Interval(3.5, 3.1, 3.9, 10, 0.95, TEN),
    )
    record.measure("a.const", 0.8, scale="n = 100")
    record.measure("a.err", 3)


def test_verdict_is_computed_from_the_criterion(tmp_path):
    rec = make_record(
        tmp_path,
        [
            check("a.rel10", "within 10% of paper", paper=1.0),
            check("a.rel1", "within 1% of paper", paper=1.0),
        ],
    )
    ok = rec.measure("a.rel10", 1.05)
    bad = rec.measure("a.rel1", 1.05)
    assert ok.holds is True and bad.holds is False


def test_a_verdict_given_by_hand_is_refused(tmp_path):
    rec = make_record(tmp_path, [check("a.b", "<= 2")])
    with pytest.raises(TypeError, match="holds"):
        rec.measure("a.b", 1.0, holds=True)  # measure has no such argument
    with pytest.raises(TypeError, match="criterion"):
        rec.measure("a.b", 1.0, criterion=C.at_most(5))  # nor can the criterion be swapped
    with pytest.raises(TypeError):
        C.Claim("a.b", "s", None, 1.0, C.at_most(2), holds=True)  # not an init field
    claim = C.Claim("a.b", "s", None, 3.0, C.at_most(2))
    assert claim.holds is False


def test_a_criterion_must_return_a_bool():
    with pytest.raises(TypeError, match="must return a bool"):
        C.Claim("a.b", "s", None, 1.0, C.predicate("len", lambda m: 3))


def test_criterion_must_be_a_criterion():
    with pytest.raises(ValueError, match="criterion must be a Criterion"):
        C.Claim("a.b", "s", None, 1.0, lambda m: True)


@pytest.mark.parametrize("bad_id", ["", "has space", None])
def test_claim_ids_are_checked(bad_id):
    with pytest.raises(ValueError, match="claim id"):
        C.Claim(bad_id, "s", None, 1.0, C.at_most(2))


def test_only_registered_ids_can_be_measured(record):
    with pytest.raises(KeyError, match=r"add a \[\[claim\]\] entry"):
        record.measure("has space", 1.0)


def test_non_finite_measurements_are_rejected(tmp_path):
    rec = make_record(tmp_path, [check("a.b", "<= 2"), result("a.r", "<= 2")])
    with pytest.raises(ValueError, match="finite"):
        rec.measure("a.b", float("nan"))
    with pytest.raises(ValueError, match="finite"):
        rec.measure("a.r", 1.0, scale="n", baseline=float("inf"))
    with pytest.raises(ValueError, match="finite"):
        C.Claim("a.b", "s", None, float("nan"), C.predicate("any", lambda m: True))
    assert len(rec) == 0


def test_a_non_finite_baseline_of_an_interval_claim_is_rejected_by_measure(tmp_path):
    rec = make_record(tmp_path, [result("a.iv", "<= 2", judge="interval")])
    with pytest.raises(ValueError, match="finite"):
        rec.measure(
            "a.iv",
            1.5,
            interval=Interval(1.5, 1.2, 1.8, 10, 0.95, TEN),
            scale="n",
            baseline=float("nan"),
            baseline_interval=Interval(3.5, 3.1, 3.9, 10, 0.95, TEN),
        )


def test_value_is_what_the_criterion_sees(tmp_path):
    rec = make_record(tmp_path, [check("a.max", "<= 0.25", statement="every error <= 0.25")])
    errors = np.array([0.1, 0.3, 0.2])
    c = rec.measure("a.max", float(errors.mean()), value=float(errors.max()))
    assert c.holds is False and c.measured == 0.2  # the mean is shown, the maximum is judged


def test_write_is_the_contract_and_atomic(record, tmp_path):
    measure_all(record)
    path = record.write()
    assert path == tmp_path / "results" / "demo.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    for c in data["claims"]:  # the scope and the admissible set (to recompute verdicts on load)
        assert c.pop("scope") == "paper" and isinstance(c.pop("bounds"), dict)
    interval = {"low": 1.2, "high": 1.8, "level": 0.95, "method": TEN}
    assert data == {
        "notebook": "demo",
        "profile": "book",
        "claims": [
            {
                "id": "a.b",
                "kind": "result",
                "statement": "s",
                "paper": 2,
                "measured": 1.23457,
                "criterion": "≥ 1",
                "judge": "point",
                "holds": True,
                "baseline": {"name": "uniform guessing", "measured": 0.5, "holds": False},
                "discriminating": True,
                "scale": "20 points",
                "section": "sec-a",
                "note": "why",
            },
            {
                "id": "a.c",
                "kind": "check",
                "statement": "ordering",
                "paper": None,
                "measured": "A < B",
                "criterion": "= A < B",
                "judge": "point",
                "holds": True,
            },
            {
                "id": "a.iv",
                "kind": "result",
                "statement": "regret below the bound",
                "paper": 3.0,
                "measured": 1.5,
                "criterion": "≤ 2.5 (bound)",
                "judge": "interval",
                "holds": True,
                "baseline": {
                    "name": "uniform guessing",
                    "measured": 3.5,
                    "holds": False,
                    "interval": {"low": 3.1, "high": 3.9, "level": 0.95, "method": TEN},
                },
                "discriminating": True,
                "seeds": 10,
                "interval": interval,
                "scale": "T = 1000",
                "section": "sec-iv",
            },
            {
                "id": "a.const",
                "kind": "result",
                "statement": "constant",
                "paper": 0.743,
                "measured": 0.8,
                "criterion": "within 15% of 0.743",
                "judge": "point",
                "holds": True,
                "baseline": "a printed constant",
                "discriminating": None,
                "scale": "n = 100",
            },
            {
                "id": "a.err",
                "kind": "erratum",
                "statement": "printed: x = 2",
                "paper": 2,
                "measured": 3,
                "criterion": "= 2",
                "judge": "point",
                "holds": False,
                "note": "the printed value is wrong",
            },
        ],
    }
    # the field order is part of the contract (a diff of a record must stay readable)
    new = ("scope", "bounds")
    assert [[k for k in c if k not in new] for c in json.loads(text)["claims"]] == [
        list(c) for c in data["claims"]
    ]
    assert [p.name for p in (tmp_path / "results").iterdir()] == ["demo.json"]  # no temporary
    assert C.load_record(path) == json.loads(text)
    counts = record.counts()
    assert counts["results held"] + counts["results held, no baseline"] == 3
    assert counts["errata confirmed"] == 1


def test_remeasuring_replaces_and_an_unmeasured_entry_is_refused(record):
    with pytest.raises(ValueError, match="never measured: a.b, a.c, a.iv, a.const, a.err"):
        record.write()
    record.measure("a.c", "A < B")
    record.measure("a.c", "B < A")
    assert len(record) == 1 and record["a.c"].holds is False
    assert record.unmeasured() == ["a.b", "a.iv", "a.const", "a.err"]
    with pytest.raises(ValueError, match="never measured: a.b, a.iv, a.const, a.err"):
        record.write()
    assert not (record.directory / "demo.json").exists()


def test_claims_are_kept_in_registry_order(record):
    measure_all(record)
    record.measure("a.c", "A < B")  # re-measured last, still listed second
    assert [c.id for c in record.claims] == ["a.b", "a.c", "a.iv", "a.const", "a.err"]


def test_profile_decides_the_folder(tmp_path, monkeypatch, registry):
    monkeypatch.setenv("MLGEOM_RESULTS", str(tmp_path))
    assert C.ClaimsRecord("demo", "book", registry=registry).path == tmp_path / "demo.json"
    paper = C.ClaimsRecord("demo", "paper", registry=registry).path
    assert paper == tmp_path / "paper" / "demo.json"
    with pytest.raises(ValueError, match="PROFILE must be one of"):
        C.ClaimsRecord("demo", "huge", registry=registry)


def test_the_default_registry_is_data_claims_of_the_project(tmp_path, monkeypatch):
    monkeypatch.setenv("MLGEOM_ROOT", str(tmp_path))
    toml_registry(tmp_path / "data" / "claims" / "demo.toml", "demo", DEMO)
    rec = C.ClaimsRecord("demo", "book", directory=tmp_path / "out")
    assert rec.registry.path == tmp_path / "data" / "claims" / "demo.toml"
    with pytest.raises(ValueError, match="no criteria registry for 'other'"):
        C.ClaimsRecord("other", "book", directory=tmp_path / "out")


def test_criteria_hand_cases():
    assert C.within_abs(2.749, 0.0005)(2.7494) and not C.within_abs(2.749, 0.0005)(2.7496)
    assert C.between(-0.6, -0.4)(-0.5) and not C.between(-0.6, -0.4)(-0.3)
    assert C.at_most(1.0, label="1/γ²").description == "≤ 1/γ²"
    assert C.equals("a_2")("a_2") and not C.equals("a_2")("a_3")
    assert C.at_least(1.0)(1.0) and not C.at_least(1.0)(0.999)
    with pytest.raises(ValueError):
        C.within_rel(1.0, 0.0)
    with pytest.raises(ValueError):
        C.within_abs(1.0, -0.1)
    with pytest.raises(ValueError):
        C.between(1.0, 0.0)
    with pytest.raises(ValueError, match="finite"):
        C.at_most(float("nan"))


@given(st.floats(-1e6, 1e6), st.floats(1e-3, 1.0))
def test_within_rel_is_symmetric_interval(t, rel):
    crit = C.within_rel(t, rel)
    assert crit(t)
    assert not crit(t + 2 * rel * abs(t) + 1e-6)
    assert crit.bounds.contains(t) and crit.bounds.low <= t <= crit.bounds.high


def test_table_shows_paper_beside_measured(tmp_path, record):
    rec = make_record(tmp_path, [check("a.b", "within 20% of paper", paper=1.0)])
    rec.measure("a.b", 1.1)
    t = rec.table()
    assert list(t.columns) == ["kind", "paper", "measured", "criterion", "verdict"]
    assert t.loc["a.b", "verdict"] == "holds" and t.loc["a.b", "paper"] == 1.0
    measure_all(record)
    t = record.table()
    assert list(t.index) == ["a.b", "a.c", "a.iv", "a.const", "a.err"]
    assert {"95% interval", "baseline"} <= set(t.columns)
    assert t.loc["a.iv", "95% interval"] == "[1.2, 1.8]"
    assert t.loc["a.b", "baseline"] == "uniform guessing: 0.5 (fails)"
    assert t.loc["a.c", "paper"] == "—" and t.loc["a.err", "verdict"] == "erratum confirmed"
    assert list(record.table(["a.err", "a.b"]).index) == ["a.err", "a.b"]


# -- hand-written records ----------------------------------------------------------------------
def _claim(cid, measured=1.0, holds=True, **extra):
    return {
        "id": cid,
        "kind": "check",
        "statement": "s",
        "paper": None,
        "measured": measured,
        "criterion": "≤ 2",
        "judge": "point",
        "holds": holds,
        **extra,
    }


def _result(cid, **extra):
    out = _claim(cid, kind="result")
    out.update(
        baseline={"name": "b", "measured": 3.0, "holds": False},
        discriminating=True,
        scale="n = 10",
    )
    out.update(extra)
    return out


def _write(path, claims, notebook=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"notebook": notebook or path.stem, "profile": "book", "claims": claims}
    path.write_text(json.dumps(record))
    return path


def test_load_record_accepts_a_hand_written_record(tmp_path):
    iv = {"low": 1.0, "high": 1.5, "level": 0.95, "method": TEN}
    claims = [
        _claim("a"),
        _result("b"),
        _result("c", baseline="a printed constant", discriminating=None),
        _result("d", judge="interval", interval=iv, seeds=10),
        _claim("e", kind="erratum", holds=False),
    ]
    assert C.load_record(_write(tmp_path / "x.json", claims))["claims"] == claims


def test_load_record_rejects_malformed(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        C.load_record(p)
    p.write_text(json.dumps({"notebook": "x", "profile": "book", "claims": [{"id": "a"}]}))
    with pytest.raises(ValueError, match="misses"):
        C.load_record(p)
    _write(p, [_claim("a", holds="yes")])
    with pytest.raises(ValueError, match="true or false"):
        C.load_record(p)


@pytest.mark.parametrize(
    "claim, message",
    [
        ({k: v for k, v in _claim("a").items() if k != "kind"}, "'kind' must be one of"),
        (_claim("a", kind="theorem"), "'kind' must be one of"),
        (_claim("a", judge="median"), "'judge' must be 'point' or 'interval'"),
        ({k: v for k, v in _result("a").items() if k != "baseline"}, "misses 'baseline'"),
        ({k: v for k, v in _result("a").items() if k != "scale"}, "misses 'scale'"),
        (
            {k: v for k, v in _result("a").items() if k != "discriminating"},
            "misses 'discriminating'",
        ),
        (_claim("a", baseline="none"), "only a result carries a baseline"),
        (_claim("a", discriminating=False), "only a result carries a baseline"),
        (_result("a", discriminating=False), "'discriminating' must be holds and not baseline"),
        (
            _result("a", baseline={"name": "b", "measured": 1.0}),
            "must have name, measured, holds",
        ),
        (
            _result("a", baseline={"name": "b", "measured": 1.0, "holds": 1, "x": 2}),
            "must have name, measured, holds",
        ),
        (
            _result("a", baseline={"name": "b", "measured": 1.0, "holds": "no"}),
            "baseline 'holds' must be true or false",
        ),
        (_result("a", baseline=" "), "must be an object or a sentence"),
        (_result("a", baseline="none", discriminating=True), "must be null without a baseline"),
        (_claim("a", interval={"low": 1.0, "high": 2.0}), "must have low, high, level, method"),
        (
            _claim("a", interval={"low": 2.0, "high": 1.0, "level": 0.95, "method": "t"}),
            "interval low > high",
        ),
        (_claim("a", judge="interval"), "judged on an interval but has none"),
        (_claim("a", seeds=0), "'seeds' must be an integer >= 1; got 0"),
        (_claim("a", seeds=True), "'seeds' must be an integer >= 1; got True"),
    ],
)
def test_load_record_checks_the_contract_fields(tmp_path, claim, message):
    p = _write(tmp_path / "x.json", [claim])
    with pytest.raises(ValueError, match=message) as info:
        C.load_record(p)
    assert "x.json" in str(info.value) and "\n" not in str(info.value)


def test_compare_records_reports_every_difference(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for folder, measured in ((a, 1.0), (b, 1.5)):
        r = make_record(tmp_path, [check("x.y", "<= 1.2")], directory=folder)
        r.measure("x.y", measured)
        r.write()
    problems = C.compare_records(a, b)
    assert any("measured is 1.0, committed 1.5" in p for p in problems)
    assert any("holds is True, committed False" in p for p in problems)
    assert C.compare_records(a, a) == []
    assert "no records were produced" in C.compare_records(tmp_path / "none", b)[0]
    assert C.main(["compare", str(a), str(b)]) == 1
    assert C.main(["compare", str(a), str(a)]) == 0


def test_compare_records_names_added_and_removed_claims(tmp_path):
    a, b = _write(tmp_path / "a" / "nb.json", [_claim("x")]), _write(tmp_path / "b" / "nb.json", [])
    problems = C.compare_records(a.parent, b.parent)
    assert problems == ["nb.json: claim x produced but not committed"]
    problems = C.compare_records(b.parent, a.parent)
    assert problems == ["nb.json: claim x committed but no longer produced"]


# -- integrity: each defect found by a probe gets its regression test ------------------------
def test_a_duplicate_id_is_rejected_by_load_and_compare(tmp_path):
    """A made-up row placed before a real one with the same id must not pass `make records`."""
    real = _write(tmp_path / "committed" / "nb.json", [_claim("a.b")])
    forged = _write(tmp_path / "produced" / "nb.json", [_claim("a.b", 9.0, False), _claim("a.b")])
    with pytest.raises(ValueError, match="'a.b' appears more than once"):
        C.load_record(forged)
    problems = C.compare_records(tmp_path / "produced", tmp_path / "committed")
    assert len(problems) == 1 and "appears more than once" in problems[0]
    assert "nb.json" in problems[0]
    assert C.load_record(real)["claims"][0]["id"] == "a.b"


def test_the_writer_cannot_write_two_claims_with_one_id(tmp_path):
    rec = make_record(tmp_path, [check("a.b", "<= 2", statement="first", section="s1")])
    rec.measure("a.b", 1.0)
    rec.measure("a.b", 1.5)  # a re-run cell
    assert len(rec) == 1 and rec["a.b"].measured == 1.5
    data = C.load_record(rec.write())
    assert [c["id"] for c in data["claims"]] == ["a.b"] and data["claims"][0]["measured"] == 1.5


def test_the_record_must_name_its_own_file(tmp_path):
    p = _write(tmp_path / "geometry_primer.json", [_claim("a")], notebook="hierarchical")
    with pytest.raises(ValueError, match="says notebook 'hierarchical'.*geometry_primer.json"):
        C.load_record(p)


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"notebook": "nb", "profile": "book", "claims": "a string"}', "must be a list, not str"),
        ('{"notebook": "nb", "profile": "book", "claims": null}', "must be a list, not NoneType"),
        ('{"notebook": "nb", "profile": "book", "claims": [3]}', "claim 0 must be an object"),
        ("[1, 2]", "must be a JSON object, not list"),
        ('{"notebook": "nb", "prof', "not valid JSON"),
    ],
)
def test_a_malformed_record_gives_one_line_naming_the_file(tmp_path, content, message):
    (tmp_path / "c").mkdir()
    (tmp_path / "p").mkdir()
    (tmp_path / "c" / "nb.json").write_text(content)
    (tmp_path / "p" / "nb.json").write_text(content)
    problems = C.compare_records(tmp_path / "p", tmp_path / "c")
    assert len(problems) == 1 and "nb.json" in problems[0] and message in problems[0]
    assert "\n" not in problems[0]


def test_the_stored_value_gives_the_stored_verdict(tmp_path):
    """``measured 2.0, "≤ 2", holds false`` cannot be written: more digits are stored."""
    rec = make_record(tmp_path, [check("a", "<= 2"), check("b", "<= 2")])
    c = rec.measure("a", 2.0000000001)
    assert c.holds is False and c.measured == 2.0000000001
    assert C.at_most(2.0)(c.measured) is c.holds
    c = rec.measure("b", 1.23456789)
    assert c.measured == 1.23457  # six digits where they suffice
    data = C.load_record(rec.write())
    assert [c["measured"] for c in data["claims"]] == [2.0000000001, 1.23457]


def test_the_stored_baseline_of_a_point_claim_gives_the_stored_verdict(tmp_path):
    rec = make_record(tmp_path, [result("a", "<= 2"), result("b", "< 2")])
    c = rec.measure("a", 1.0, scale="n", baseline=2.0000000001)
    stored = c.to_json()["baseline"]
    assert stored == {"name": "uniform guessing", "measured": 2.0000000001, "holds": False}
    assert c.criterion(stored["measured"]) is False and c.discriminating is True
    c = rec.measure("b", 1.0, scale="n", baseline=1.99999999999)
    stored = c.to_json()["baseline"]
    assert stored["holds"] is True and c.criterion(stored["measured"]) is True
    assert c.to_json()["discriminating"] is False


@pytest.mark.parametrize(
    "criterion, low, high, holds",
    [
        ("<= 2", 1.5, 2.0000000001, False),  # six digits would store high 2.0: holds
        ("< 2", 1.5, 1.99999999999, True),  # six digits would store high 2.0: fails
        (">= 1", 0.99999999999, 1.5, False),
        ("> 1", 1.00000000001, 1.5, True),
    ],
)
def test_the_stored_interval_ends_give_the_stored_verdict(tmp_path, criterion, low, high, holds):
    rec = make_record(tmp_path, [check("a", criterion, judge="interval")])
    c = rec.measure("a", 1.5, interval=Interval(1.5, low, high, 10, 0.95, TEN))
    assert c.holds is holds
    stored = c.to_json()["interval"]
    assert c.criterion.bounds.contains_all(stored["low"], stored["high"]) is holds
    c2 = rec.measure("a", 1.3, interval=Interval(1.3, 1.23456789, 1.3456789, 10, 0.95, TEN))
    assert c2.to_json()["interval"]["low"] == 1.23457  # six digits where they suffice


def test_the_stored_baseline_interval_gives_the_stored_verdict(tmp_path):
    rec = make_record(tmp_path, [result("a", "<= 2", judge="interval")])
    c = rec.measure(
        "a",
        1.5,
        interval=Interval(1.5, 1.2, 1.8, 10, 0.95, TEN),
        scale="n",
        baseline=2.5,
        baseline_interval=Interval(2.5, 2.0000001, 3.0, 10, 0.95, TEN),
    )
    assert c.baseline.holds is False
    stored = c.to_json()["baseline"]["interval"]
    assert c.criterion.bounds.contains_any(stored["low"], stored["high"]) is False


def test_criteria_show_their_real_tolerance(tmp_path):
    assert C.within_rel(0.743, 0.125).description == "within 12.5% of 0.743"
    assert C.within_rel(0.743, 0.25).description == "within 25% of 0.743"
    assert C.at_most(2.0000001).description == "≤ 2.0000001"
    assert C.at_least(1e-12).description == "≥ 1e-12"
    assert C.within_abs(0.5, 0.001).description == "within ±0.001 of 0.5"
    assert C.between(1e6, 1e15).description == "in [1e+06, 1e+15]"
    assert C.within_abs(20.0, 1e-12).description == "within ±1e-12 of 20"
    assert C.at_most(0.0001).description == "≤ 0.0001"
    assert C.at_most(176.7041931563106).description == "≤ 176.7041931563106"
    rec = make_record(
        tmp_path,
        [
            check("a", "within 12.5% of paper", paper=0.743),
            check("b", "<= bound"),
            check("c", "within +-0.001 of 0.5"),
            check("d", "in [1e6, 1e15]"),
            check("e", "<= 2.0000001"),
        ],
    )
    assert rec.measure("a", 0.7).criterion.description == "within 12.5% of 0.743"
    b = rec.measure("b", 1.0, refs={"bound": 176.7041931563106})
    assert b.criterion.description == "≤ 176.7041931563106 (bound)"
    assert rec.measure("c", 0.5).criterion.description == "within ±0.001 of 0.5"
    assert rec.measure("d", 1e7).criterion.description == "in [1e+06, 1e+15]"
    assert rec.measure("e", 1.0).criterion.description == "≤ 2.0000001"


def test_claim_repr_is_deterministic_and_shows_the_verdict(tmp_path, record):
    rec = make_record(tmp_path, [check("a.b", "<= 1", paper=2.0)])
    c = rec.measure("a.b", 1.5)
    assert repr(c) == "a.b: measured 1.5 (paper: 2.0); ≤ 1 → does not hold"
    assert "0x" not in repr(c)
    measure_all(record)
    assert repr(record["a.b"]) == (
        "a.b: measured 1.23457 (paper: 2); ≥ 1 → holds; uniform guessing: 0.5 fails"
    )
    assert repr(record["a.iv"]) == (
        "a.iv: measured 1.5 [1.2, 1.8] (paper: 3.0); ≤ 2.5 (bound) → holds; "
        "uniform guessing: 3.5 fails"
    )


def test_note_if_fails_is_kept_only_when_the_claim_fails(tmp_path):
    entries = [
        check("a", "<= 2", statement="holds", note_if_fails="too big"),
        check("b", "<= 2", statement="fails", note_if_fails="too big"),
        check("c", "<= 2", statement="noted", note="read off figure 3"),
    ]
    rec = make_record(tmp_path, entries)
    ok, bad = rec.measure("a", 1.0), rec.measure("b", 3.0)
    assert ok.holds and ok.note is None and "note" not in ok.to_json()
    assert not bad.holds and bad.note == "too big" and rec["b"] is bad
    assert rec.measure("c", 3.0).note == "read off figure 3"
    assert rec.measure("c", 1.0).note == "read off figure 3"
    computed = rec.measure("b", 3.0, note="3 > 2 at n = 10")  # the notebook's sentence wins
    assert computed.note == "3 > 2 at n = 10"
    both = [check("c", "<= 2", note="x", note_if_fails="y")]
    with pytest.raises(ValueError, match="either|not both"):
        make_record(tmp_path, both, notebook="other")


def test_a_one_notebook_run_is_compared_as_such(tmp_path):
    """`make records NB=a` after `make nbval NB=a` is not drift in the other notebooks."""
    produced, committed = tmp_path / "p", tmp_path / "c"
    for folder, names in ((produced, ["a"]), (committed, ["a", "b"])):
        for name in names:
            r = make_record(tmp_path, [check("x.y", "<= 2.0")], notebook=name, directory=folder)
            r.measure("x.y", 1.0)
            r.write()
    assert C.compare_records(produced, committed, ["a"]) == []
    assert C.main(["compare", str(produced), str(committed), "--nb", "a"]) == 0
    everything = C.compare_records(produced, committed)
    assert everything == ["b.json: committed but not produced by the re-execution"]
    missing = C.compare_records(produced, committed, ["b"])
    assert missing == ["b.json: not produced by the re-execution of b"]
    assert C.main(["compare", str(produced), str(committed), "--nb", ","]) == 2


def test_seeds_default_to_the_interval_and_are_validated(tmp_path):
    rec = make_record(tmp_path, [check("a", "<= 2", judge="interval")])
    iv = Interval(1.5, 1.2, 1.8, 12, 0.95, "t interval over 12 seeds")
    assert rec.measure("a", 1.5, interval=iv).seeds == 12
    assert rec.measure("a", 1.5, interval=iv, seeds=24).to_json()["seeds"] == 24
    for bad in (0, True, 1.5):
        with pytest.raises(ValueError, match="seeds must be an integer >= 1"):
            rec.measure("a", 1.5, interval=iv, seeds=bad)
    with pytest.raises(ValueError, match="interval must be an mlgeom.stats.Interval"):
        C.Claim("a", "s", None, 1.0, C.at_most(2), judge="interval", interval=(1.0, 2.0))
    with pytest.raises(ValueError, match="scale must be a non-empty string"):
        C.Claim("a", "s", None, 1.0, C.at_most(2), scale=" ")
    assert math.isclose(rec["a"].interval.high, 1.8)
