import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlgeom.book import claims as C


@pytest.fixture
def record(tmp_path):
    return C.ClaimsRecord("demo", "book", directory=tmp_path)


def test_verdict_is_computed_from_the_criterion(record):
    ok = record.check(
        "a.b", "x within 10%", paper=1.0, measured=1.05, criterion=C.within_rel(1.0, 0.1)
    )
    bad = record.check(
        "a.c", "x within 1%", paper=1.0, measured=1.05, criterion=C.within_rel(1.0, 0.01)
    )
    assert ok.holds is True and bad.holds is False


def test_a_verdict_given_by_hand_is_refused(record):
    with pytest.raises(TypeError, match="cannot be given by hand"):
        record.check("a.b", "s", measured=1.0, criterion=C.at_most(2), holds=True)
    with pytest.raises(TypeError):
        C.Claim("a.b", "s", None, 1.0, C.at_most(2), holds=True)  # not an init field


def test_a_criterion_must_return_a_bool(record):
    with pytest.raises(TypeError, match="must return a bool"):
        record.check("a.b", "s", measured=1.0, criterion=C.predicate("len", lambda m: 3))


def test_criterion_must_be_a_criterion(record):
    with pytest.raises(ValueError, match="criterion must be a Criterion"):
        record.check("a.b", "s", measured=1.0, criterion=lambda m: True)


@pytest.mark.parametrize("bad_id", ["", "has space", None])
def test_claim_ids_are_checked(record, bad_id):
    with pytest.raises(ValueError, match="claim id"):
        record.check(bad_id, "s", measured=1.0, criterion=C.at_most(2))


def test_non_finite_measurements_are_rejected(record):
    with pytest.raises(ValueError, match="finite"):
        record.check(
            "a.b", "s", measured=float("nan"), criterion=C.predicate("any", lambda m: True)
        )


def test_value_is_what_the_criterion_sees(record):
    errors = np.array([0.1, 0.3, 0.2])
    c = record.check(
        "a.max",
        "every error <= 0.25",
        measured=float(errors.max()),
        value=errors,
        criterion=C.predicate("all <= 0.25", lambda v: bool(np.all(v <= 0.25))),
    )
    assert c.holds is False and c.measured == 0.3


def test_write_is_the_contract_and_atomic(record, tmp_path):
    record.check(
        "a.b",
        "s",
        paper=2,
        measured=np.float64(1.23456789),
        criterion=C.at_least(1),
        section="sec-a",
        note="why",
    )
    record.check("a.c", "ordering", paper=None, measured="A < B", criterion=C.equals("A < B"))
    path = record.write()
    data = json.loads(path.read_text())
    assert data == {
        "notebook": "demo",
        "profile": "book",
        "claims": [
            {
                "id": "a.b",
                "statement": "s",
                "paper": 2,
                "measured": 1.23457,
                "criterion": "≥ 1",
                "holds": True,
                "section": "sec-a",
                "note": "why",
            },
            {
                "id": "a.c",
                "statement": "ordering",
                "paper": None,
                "measured": "A < B",
                "criterion": "= A < B",
                "holds": True,
            },
        ],
    }
    assert [p.name for p in tmp_path.iterdir()] == ["demo.json"]  # no temporary left behind
    assert C.load_record(path) == data


def test_rechecking_replaces_and_empty_record_is_refused(record):
    with pytest.raises(ValueError, match="no claims"):
        record.write()
    record.check("a.b", "s", measured=1.0, criterion=C.at_most(2))
    record.check("a.b", "s", measured=3.0, criterion=C.at_most(2))
    assert len(record) == 1 and record["a.b"].holds is False


def test_profile_decides_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MLGEOM_RESULTS", str(tmp_path))
    assert C.ClaimsRecord("x", "book").path == tmp_path / "x.json"
    assert C.ClaimsRecord("x", "paper").path == tmp_path / "paper" / "x.json"
    with pytest.raises(ValueError, match="PROFILE must be one of"):
        C.ClaimsRecord("x", "huge")


def test_criteria_hand_cases():
    assert C.within_abs(2.749, 0.0005)(2.7494) and not C.within_abs(2.749, 0.0005)(2.7496)
    assert C.between(-0.6, -0.4)(-0.5) and not C.between(-0.6, -0.4)(-0.3)
    assert C.at_most(1.0, label="1/γ²").description == "≤ 1/γ²"
    assert C.equals("a_2")("a_2") and not C.equals("a_2")("a_3")
    with pytest.raises(ValueError):
        C.within_rel(1.0, 0.0)
    with pytest.raises(ValueError):
        C.between(1.0, 0.0)


@given(st.floats(-1e6, 1e6), st.floats(1e-3, 1.0))
def test_within_rel_is_symmetric_interval(t, rel):
    crit = C.within_rel(t, rel)
    assert crit(t)
    assert not crit(t + 2 * rel * abs(t) + 1e-6)


def test_table_shows_paper_beside_measured(record):
    record.check("a.b", "s", paper=1.0, measured=1.1, criterion=C.within_rel(1.0, 0.2))
    t = record.table()
    assert list(t.columns) == ["paper", "measured", "criterion", "verdict"]
    assert t.loc["a.b", "verdict"] == "holds"


def test_load_record_rejects_malformed(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        C.load_record(p)
    p.write_text(json.dumps({"notebook": "x", "profile": "book", "claims": [{"id": "a"}]}))
    with pytest.raises(ValueError, match="misses"):
        C.load_record(p)
    p.write_text(
        json.dumps(
            {
                "notebook": "x",
                "profile": "book",
                "claims": [
                    {
                        "id": "a",
                        "statement": "s",
                        "paper": None,
                        "measured": 1,
                        "criterion": "c",
                        "holds": "yes",
                    }
                ],
            }
        )
    )
    with pytest.raises(ValueError, match="true or false"):
        C.load_record(p)


def test_compare_records_reports_every_difference(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for folder, measured in ((a, 1.0), (b, 1.5)):
        r = C.ClaimsRecord("nb", "book", directory=folder)
        r.check("x.y", "s", measured=measured, criterion=C.at_most(1.2))
        r.write()
    problems = C.compare_records(a, b)
    assert any("measured is 1.0, committed 1.5" in p for p in problems)
    assert any("holds is True, committed False" in p for p in problems)
    assert C.compare_records(a, a) == []
    assert "no records were produced" in C.compare_records(tmp_path / "none", b)[0]
    assert C.main(["compare", str(a), str(b)]) == 1
    assert C.main(["compare", str(a), str(a)]) == 0


# -- integrity: each defect found by a probe gets its regression test ------------------------
def _claim(cid, measured=1.0, holds=True):
    return {
        "id": cid,
        "statement": "s",
        "paper": None,
        "measured": measured,
        "criterion": "≤ 2",
        "holds": holds,
    }


def _write(path, claims, notebook=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"notebook": notebook or path.stem, "profile": "book", "claims": claims}
    path.write_text(json.dumps(record))
    return path


def test_a_duplicate_id_is_rejected_by_load_and_compare(tmp_path):
    """A made-up row placed before a real one with the same id must not pass `make records`."""
    real = _write(tmp_path / "committed" / "nb.json", [_claim("a.b")])
    forged = _write(
        tmp_path / "produced" / "nb.json", [_claim("a.b", 9.0, False), _claim("a.b")]
    )
    with pytest.raises(ValueError, match="'a.b' appears more than once"):
        C.load_record(forged)
    problems = C.compare_records(tmp_path / "produced", tmp_path / "committed")
    assert len(problems) == 1 and "appears more than once" in problems[0]
    assert "nb.json" in problems[0]
    assert C.load_record(real)["claims"][0]["id"] == "a.b"


def test_the_writer_refuses_two_claims_with_one_id():
    rec = C.ClaimsRecord("nb", "book")
    rec.check("a.b", "first", measured=1.0, criterion=C.at_most(2.0), section="s1")
    rec.check("a.b", "first", measured=1.5, criterion=C.at_most(2.0), section="s1")  # re-run
    assert len(rec) == 1 and rec["a.b"].measured == 1.5
    with pytest.raises(ValueError, match="already used"):
        rec.check("a.b", "another claim", measured=1.0, criterion=C.at_most(2.0))


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


def test_the_stored_value_gives_the_stored_verdict():
    """``measured 2.0, "≤ 2", holds false`` cannot be written: more digits are stored."""
    rec = C.ClaimsRecord("nb", "book")
    c = rec.check("a", "s", measured=2.0000000001, criterion=C.at_most(2.0))
    assert c.holds is False and c.measured == 2.0000000001
    assert C.at_most(2.0)(c.measured) is c.holds
    c = rec.check("b", "s", measured=1.23456789, criterion=C.at_most(2.0))
    assert c.measured == 1.23457  # six digits where they suffice


def test_criteria_show_their_real_tolerance():
    assert C.within_rel(0.743, 0.125).description == "within 12.5% of 0.743"
    assert C.within_rel(0.743, 0.25).description == "within 25% of 0.743"
    assert C.at_most(2.0000001).description == "≤ 2.0000001"
    assert C.at_least(1e-12).description == "≥ 1e-12"
    assert C.within_abs(0.5, 0.001).description == "within ±0.001 of 0.5"
    assert C.between(1e6, 1e15).description == "in [1e+06, 1e+15]"
    assert C.within_abs(20.0, 1e-12).description == "within ±1e-12 of 20"
    assert C.at_most(0.0001).description == "≤ 0.0001"
    assert C.at_most(176.7041931563106).description == "≤ 176.7041931563106"


def test_claim_repr_is_deterministic_and_shows_the_verdict(record):
    c = record.check("a.b", "s", paper=2.0, measured=1.5, criterion=C.at_most(1.0))
    assert repr(c) == "a.b: measured 1.5 (paper: 2.0); ≤ 1 → does not hold"
    assert "0x" not in repr(c)


def test_note_if_fails_is_kept_only_when_the_claim_fails():
    rec = C.ClaimsRecord("nb", "book")
    ok = rec.check("a", "holds", measured=1.0, criterion=C.at_most(2.0), note_if_fails="too big")
    bad = rec.check("b", "fails", measured=3.0, criterion=C.at_most(2.0), note_if_fails="too big")
    assert ok.holds and ok.note is None
    assert not bad.holds and bad.note == "too big" and rec["b"] is bad
    with pytest.raises(TypeError, match="either 'note' or 'note_if_fails'"):
        rec.check("c", "both", measured=1.0, criterion=C.at_most(2.0), note="x", note_if_fails="y")


def test_a_one_notebook_run_is_compared_as_such(tmp_path):
    """`make records NB=a` after `make nbval NB=a` is not drift in the other notebooks."""
    produced, committed = tmp_path / "p", tmp_path / "c"
    for folder, names in ((produced, ["a"]), (committed, ["a", "b"])):
        for name in names:
            r = C.ClaimsRecord(name, "book", directory=folder)
            r.check("x.y", "s", measured=1.0, criterion=C.at_most(2.0))
            r.write()
    assert C.compare_records(produced, committed, ["a"]) == []
    assert C.main(["compare", str(produced), str(committed), "--nb", "a"]) == 0
    everything = C.compare_records(produced, committed)
    assert everything == ["b.json: committed but not produced by the re-execution"]
    missing = C.compare_records(produced, committed, ["b"])
    assert missing == ["b.json: not produced by the re-execution of b"]
    assert C.main(["compare", str(produced), str(committed), "--nb", ","]) == 2
