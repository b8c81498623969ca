"""The criteria registry: its criterion language, its validation, and how records use it."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlgeom.book import claims as C
from mlgeom.book.registry import Bounds, load_registry, parse_criterion, registry_path
from mlgeom.stats import Interval

from .test_claims import check, make_record, result, toml_registry

TEN = "t interval over 10 seeds"


def judge(text, m, **refs):
    """Whether ``m`` satisfies the criterion ``text`` (``refs`` resolve its names)."""
    bounds, _ = parse_criterion(text).resolve(refs)
    return bounds.contains(m)


def describe(text, **refs):
    return parse_criterion(text).resolve(refs)[1]


def iv(low, high, estimate=None):
    est = (low + high) / 2 if estimate is None else estimate
    return Interval(est, low, high, 10, 0.95, TEN)


# -- the criterion language -------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, inside, outside, description",
    [
        ("<= 2", [2, 1.999, -1e9], [2.0001], "≤ 2"),
        ("< 2", [1.999, -5], [2, 2.0001], "< 2"),
        (">= 2", [2, 1e9], [1.999], "≥ 2"),
        ("> 2", [2.0001], [2, 1.999], "> 2"),
        ("<=2", [2], [3], "≤ 2"),
        ("<= -0.5", [-0.5, -1], [-0.4], "≤ -0.5"),
        (">= 1e-3", [0.001], [0.0009], "≥ 0.001"),
        ("in [1, 3]", [1, 2, 3], [0.999, 3.001], "in [1, 3]"),
        ("in [-0.6,-0.4]", [-0.5, -0.6], [-0.3], "in [-0.6, -0.4]"),
        ("within 10% of 2", [1.8, 2, 2.2], [1.79, 2.21], "within 10% of 2"),
        ("within 10% of -2", [-2.2, -1.8], [-2.21, 2], "within 10% of -2"),
        ("within 12.5% of 0.8", [0.71, 0.8, 0.89], [0.69, 0.91], "within 12.5% of 0.8"),
        ("within ±0.5 of 1", [0.5, 1.5], [0.49, 1.51], "within ±0.5 of 1"),
        ("within +-0.5 of 1", [0.5, 1.5], [0.49, 1.51], "within ±0.5 of 1"),
        ("within ± 0.5 of 1", [0.5, 1.5], [0.49, 1.51], "within ±0.5 of 1"),
        ("within ±0 of 1", [1], [1.0000001], "within ±0 of 1"),
        ("== 2", [2, 2.0], [3, 1.999], "= 2"),
        ('== "a_2"', ["a_2"], ["a_3", "A_2"], "= a_2"),
        ("== 'A < B'", ["A < B"], ["B < A"], "= A < B"),
        ("  <=   2  ", [2], [3], "≤ 2"),
    ],
)
def test_every_form_parses_and_judges_hand_cases(text, inside, outside, description):
    for m in inside:
        assert judge(text, m), (text, m)
    for m in outside:
        assert not judge(text, m), (text, m)
    assert describe(text) == description


@pytest.mark.parametrize("text", ["== true", "== false"])
def test_equality_with_a_boolean_parses(text):
    assert describe(text) == ("= True" if text.endswith("true") else "= False")


def test_equality_with_a_boolean_judges_booleans():
    assert judge("== true", True) and not judge("== true", False)
    assert judge("== false", False) and not judge("== false", True)


def test_a_measured_boolean_is_judged_by_equality(tmp_path):
    rec = make_record(tmp_path, [check("a", "== true")])
    assert rec.measure("a", True).holds is True


def test_paper_and_named_references_resolve():
    assert judge("<= paper", 3.0, paper=3.0) and not judge("<= paper", 3.1, paper=3.0)
    assert describe("<= paper", paper=3.0) == "≤ 3"
    assert describe("within 15% of paper", paper=0.743) == "within 15% of 0.743"
    assert describe("<= bound", bound=2.5) == "≤ 2.5 (bound)"
    assert judge("in [lo, hi]", 1.5, lo=1, hi=2) and not judge("in [lo, hi]", 2.5, lo=1, hi=2)
    assert describe("in [lo, 2]", lo=1) == "in [1 (lo), 2]"
    assert judge("within ±0.1 of paper", 1.05, paper=1.0)
    assert parse_criterion("in [lo, hi]").names() == {"lo", "hi"}
    assert parse_criterion("within 5% of paper").names() == {"paper"}
    assert parse_criterion("<= 2").names() == set()
    assert parse_criterion('== "bound"').names() == set()  # a quoted label is not a name


@pytest.mark.parametrize(
    "refs, message",
    [
        ({}, "refers to 'bound', which was not given"),
        ({"bound": None}, "refers to 'bound', which was not given"),
        ({"bound": math.nan}, "bound in criterion '<= bound' must be a finite number"),
        ({"bound": "2"}, "must be a finite number"),
        ({"bound": True}, "must be a finite number"),
    ],
)
def test_unresolved_or_bad_references_are_errors(refs, message):
    with pytest.raises(ValueError, match=message):
        parse_criterion("<= bound").resolve(refs)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "about 2",
        "<=",
        "<= 2 3",
        "=> 2",
        "= 2",
        "in [1 2]",
        "in (1, 2)",
        "within 5 of 2",
        "within 0% of 2",
        "within -5% of 2",
        "within 5% 2",
        "== ",
        "== maybe",
        "<= 2bound",
    ],
)
def test_unparseable_criteria_name_the_text(text):
    with pytest.raises(ValueError) as info:
        parse_criterion(text)
    assert repr(text) in str(info.value)


def test_a_criterion_must_be_a_string():
    with pytest.raises(ValueError, match="a criterion must be a string; got 2"):
        parse_criterion(2)


def test_an_empty_range_is_refused_when_resolved():
    with pytest.raises(ValueError, match=r"criterion 'in \[3, 1\]'"):
        parse_criterion("in [3, 1]").resolve({})


def test_a_negative_absolute_tolerance_is_refused():
    with pytest.raises(ValueError, match="within ±-0.5 of 1"):
        parse_criterion("within ±-0.5 of 1").resolve({})


# -- Bounds -------------------------------------------------------------------------------------
def test_bounds_hand_cases():
    le2, lt2 = Bounds(high=2.0), Bounds(high=2.0, high_closed=False)
    assert le2.contains_all(1.0, 2.0) and not lt2.contains_all(1.0, 2.0)
    assert le2.contains_any(2.0, 3.0) and not lt2.contains_any(2.0, 3.0)
    assert not le2.contains_any(2.0001, 3.0) and not le2.contains_all(1.0, 2.0001)
    gt1 = Bounds(low=1.0, low_closed=False)
    assert gt1.contains_any(0.0, 1.0001) and not gt1.contains_any(0.0, 1.0)
    assert Bounds(low=1.0).contains_any(0.0, 1.0) and not Bounds(low=1.0).contains_all(
        1.0 - 1e-9, 2
    )
    box = Bounds(low=1.0, high=3.0)
    assert box.contains_all(1.0, 3.0) and not box.contains_all(0.5, 2.0)
    assert box.contains_any(0.0, 5.0) and not box.contains_all(0.0, 5.0)  # straddles both ends
    assert not box.contains_any(3.5, 5.0) and not box.contains_any(-1.0, 0.5)
    assert Bounds().contains_all(-1e300, 1e300)
    with pytest.raises(ValueError, match="cannot be judged on an interval"):
        Bounds(equal="a").contains_all(1.0, 2.0)
    with pytest.raises(ValueError, match="cannot be judged on an interval"):
        Bounds(equal="a").contains_any(1.0, 2.0)
    with pytest.raises(ValueError, match="must be a finite number"):
        le2.contains(math.inf)
    with pytest.raises(ValueError, match="must be a finite number"):
        le2.contains("1.0")


finite = st.floats(-1e6, 1e6, allow_nan=False)


@st.composite
def bounds(draw):
    a, b = sorted((draw(finite), draw(finite)))
    low = draw(st.sampled_from([-math.inf, a]))
    high = draw(st.sampled_from([math.inf, b]))
    low_closed, high_closed = draw(st.booleans()), draw(st.booleans())
    if low == high:  # a point is closed at both ends (an open one would be empty)
        low_closed = high_closed = True
    return Bounds(low, high, low_closed, high_closed)


@given(bounds(), finite, finite, st.floats(0, 1))
def test_bounds_interval_tests_agree_with_contains(b, x, y, t):
    lo, hi = sorted((x, y))
    inside = min(max(lo + t * (hi - lo), lo), hi)
    if b.contains_all(lo, hi):
        assert b.contains(lo) and b.contains(inside) and b.contains(hi)
    if b.contains(inside) or b.contains(lo) or b.contains(hi):
        assert b.contains_any(lo, hi)


@given(bounds(), finite)
def test_bounds_on_a_point_interval_are_contains(b, x):
    assert b.contains_all(x, x) == b.contains(x) == b.contains_any(x, x)


# -- registry validation ------------------------------------------------------------------------
def write(tmp_path, text, name="demo"):
    p = tmp_path / f"{name}.toml"
    p.write_text(text, encoding="utf-8")
    return p


GOOD = """
notebook = "demo"

[[claim]]
id = "a.b"
kind = "check"
statement = "s"
criterion = "<= 2"
"""


def test_a_valid_registry_loads_in_file_order(tmp_path):
    entries = [
        result("a.z", "<= bound", judge="interval", paper=3.0, section="sec-a"),
        {
            "id": "a.const",
            "kind": "result",
            "statement": "constant",
            "paper": 0.743,
            "criterion": "within 15% of paper",
            "no_baseline": "a printed constant",
        },
        {"id": "a.err", "kind": "erratum", "statement": "x", "paper": "A < B", "criterion": "> 0"},
    ]
    reg = load_registry("demo", toml_registry(tmp_path / "demo.toml", "demo", entries))
    assert list(reg.entries) == ["a.z", "a.const", "a.err"] and len(reg) == 3
    z = reg["a.z"]
    assert (z.kind, z.judge, z.baseline, z.no_baseline, z.section) == (
        "result",
        "interval",
        "uniform guessing",
        None,
        "sec-a",
    )
    assert reg["a.const"].judge == "point" and reg["a.const"].no_baseline == "a printed constant"
    assert reg["a.err"].paper == "A < B" and "a.err" in reg and "a.q" not in reg
    assert load_registry("demo", reg.path) == reg  # deterministic


def test_a_missing_registry_says_where_it_belongs(tmp_path):
    with pytest.raises(ValueError) as info:
        load_registry("nowhere", tmp_path / "nowhere.toml")
    message = str(info.value)
    assert "'nowhere'" in message and "data/claims" in message and "CONTRIBUTING.md" in message


def test_the_default_registry_path_is_under_the_project_root(tmp_path, monkeypatch):
    monkeypatch.setenv("MLGEOM_ROOT", str(tmp_path))
    assert registry_path("demo") == tmp_path / "data" / "claims" / "demo.toml"
    with pytest.raises(ValueError, match="data/claims/<notebook>.toml"):
        load_registry("demo")
    p = registry_path("demo")
    p.parent.mkdir(parents=True)
    p.write_text(GOOD)
    assert load_registry("demo").path == p


def entry(**overrides):
    base = {"id": "a.b", "kind": "check", "statement": "s", "criterion": "<= 2"}
    return {k: v for k, v in {**base, **overrides}.items() if v is not None}


@pytest.mark.parametrize(
    "entries, message",
    [
        ([entry(criterio="<= 2")], r"unknown key\(s\) \['criterio'\]"),
        ([entry(kind="theorem")], "kind must be one of"),
        ([entry(kind=None)], "misses 'kind'"),
        ([entry(statement=None)], "misses 'statement'"),
        ([entry(criterion=None)], "misses 'criterion'"),
        ([entry(statement=" ")], "'statement' must be a non-empty string"),
        ([entry(id="has space")], "'id' must be a non-empty string without spaces"),
        ([entry(id="")], "'id' must be a non-empty string without spaces"),
        ([entry(id=3)], "'id' must be a non-empty string without spaces"),
        ([entry(judge="median")], "judge must be one of"),
        ([entry(scope="mine")], "scope must be one of"),
        ([entry(competitor="k-NN")], "only a result has a competitor"),
        ([entry(printed="x")], r"describe an erratum only"),
        ([entry(kind="erratum", outcome="wrong")], "outcome must be one of"),
        ([entry(kind="erratum", outcome="typo", printed="x", location="p. 2")], "needs"),
        ([entry(caused_by="a.zz")], "caused_by 'a.zz' is not an erratum"),
        ([entry(kind="result", scale="n")], r"unknown key\(s\) \['scale'\]"),
        ([entry(kind="result")], "a result needs a 'baseline'"),
        (
            [entry(kind="result", baseline="b", no_baseline="why")],
            "give 'baseline' or 'no_baseline', not both",
        ),
        ([entry(baseline="b")], "only a result has a baseline"),
        ([entry(kind="erratum", no_baseline="why")], "only a result has a baseline"),
        ([entry(), entry(statement="again")], "'a.b' appears more than once"),
        ([entry(criterion="== 2", judge="interval")], "equality cannot be judged on an interval"),
        ([entry(criterion="<= paper")], "uses 'paper', but paper is None"),
        ([entry(criterion="<= paper", paper="R²/γ²")], "uses 'paper', but paper is 'R²/γ²'"),
        ([entry(paper=True)], "paper must be a number or a string"),
        ([entry(paper=[1, 2])], "paper must be a number or a string"),
        ([entry(criterion="about 2")], "criterion 'about 2' cannot be parsed"),
        ([entry(criterion=2)], "a criterion must be a string"),
        ([entry(note="x", note_if_fails="y")], "give 'note' or 'note_if_fails', not both"),
        ([entry(note="")], "'note' must be a non-empty string"),
    ],
)
def test_registry_errors_name_the_file_and_claim(tmp_path, entries, message):
    p = toml_registry(tmp_path / "demo.toml", "demo", entries)
    with pytest.raises(ValueError, match=message) as info:
        load_registry("demo", p)
    assert str(p) in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ('notebook = "demo"\n[[claim]\n', "not valid TOML"),
        (GOOD.replace('"demo"', '"other"'), "says notebook 'other', expected 'demo'"),
        (GOOD.replace('notebook = "demo"', ""), "says notebook None, expected 'demo'"),
        (GOOD + 'title = "x"\n', "unknown key"),
        ('notebook = "demo"\nversion = 2\n' + GOOD.split("\n", 2)[2], r"top-level key\(s\)"),
        ('notebook = "demo"\n', r"no \[\[claim\]\] entries"),
        ('notebook = "demo"\nclaim = 3\n', r"no \[\[claim\]\] entries"),
        ('notebook = "demo"\nclaim = [3]\n', "claim 0 must be a table"),
        (b"\xff\xfe notebook", "cannot be read"),
    ],
)
def test_malformed_registry_files_are_errors(tmp_path, text, message):
    p = tmp_path / "demo.toml"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(ValueError, match=message) as info:
        load_registry("demo", p)
    assert str(p) in str(info.value)


def test_the_example_registry_loads(tmp_path):
    reg = load_registry("demo", write(tmp_path, _EXAMPLE))
    assert list(reg.entries) == ["a.bound", "a.const", "a.err"]


_EXAMPLE = """notebook = "demo"

[[claim]]
id = "a.bound"
kind = "result"
statement = "regret below the bound"
paper = 3.0
criterion = "<= bound"
baseline = "uniform guessing"
judge = "interval"
section = "sec-a"

[[claim]]
id = "a.const"
kind = "result"
statement = "constant"
paper = 0.743
criterion = "within 15% of paper"
no_baseline = "a printed constant"

[[claim]]
id = "a.err"
kind = "erratum"
statement = "printed: x = 2"
paper = 2
criterion = "== 2"
note_if_fails = "the printed value is wrong"
"""


# -- measure() against the registry -----------------------------------------------------------
@pytest.fixture
def rec(tmp_path):
    entries = [
        result("r.point", "<= 2"),
        result("r.iv", "<= bound", judge="interval"),
        {
            "id": "r.const",
            "kind": "result",
            "statement": "constant",
            "paper": 0.743,
            "criterion": "within 15% of paper",
            "no_baseline": "a printed constant",
        },
        check("c.point", "<= 2"),
        check("c.iv", ">= 1", judge="interval"),
        check("c.two", "in [lo, hi]"),
        {"id": "e.err", "kind": "erratum", "statement": "x = 2", "paper": 2, "criterion": "== 2"},
    ]
    return make_record(tmp_path, entries, notebook="demo")


def test_measuring_an_unknown_id_says_to_register_it(rec):
    with pytest.raises(KeyError, match=r"'r.nope' is not in the registry .*demo.toml; add a \[\["):
        rec.measure("r.nope", 1.0)


@pytest.mark.parametrize(
    "cid, refs, message",
    [
        ("r.iv", None, r"needs refs \['bound'\]; got \[\]"),
        ("r.iv", {"other": 1.0}, r"needs refs \['bound'\]; got \['other'\]"),
        ("r.iv", {"bound": 1.0, "other": 1.0}, r"got \['bound', 'other'\]"),
        ("c.point", {"bound": 1.0}, r"needs refs \[\]; got \['bound'\]"),
        ("c.two", {"lo": 1.0}, r"needs refs \['hi', 'lo'\]"),
        ("r.const", {"paper": 1.0}, r"needs refs \[\]; got \['paper'\]"),
    ],
)
def test_refs_must_be_exactly_the_criterion_names(rec, cid, refs, message):
    kw = {"scale": "n", "baseline": 1.0} if cid == "r.iv" else {}
    if cid == "r.iv":
        kw.update(interval=iv(1.0, 1.5), baseline_interval=iv(3.0, 4.0))
    if cid == "r.const":
        kw = {"scale": "n"}
    with pytest.raises(TypeError, match=message):
        rec.measure(cid, 1.2, refs=refs, **kw)


def test_interval_only_where_the_registry_judges_on_it(rec):
    with pytest.raises(TypeError, match="an interval was given but the registry judges the point"):
        rec.measure("c.point", 1.0, interval=iv(0.5, 1.5))
    with pytest.raises(TypeError, match="judges it on an interval; pass interval="):
        rec.measure("c.iv", 1.0)
    # an interval claim's baseline without an interval is an exact number, judged as a point
    c = rec.measure("r.iv", 1.0, refs={"bound": 2}, interval=iv(0.5, 1.5), scale="n", baseline=3)
    assert c.baseline.holds is False and c.discriminating is True
    with pytest.raises(TypeError, match="baseline_interval= given for a point claim"):
        rec.measure("r.point", 1.0, scale="n", baseline=3.0, baseline_interval=iv(2.5, 3.5))


def test_a_result_needs_its_scale_and_its_registered_baseline(rec):
    with pytest.raises(TypeError, match="a result needs scale="):
        rec.measure("r.point", 1.0, baseline=3.0)
    with pytest.raises(TypeError, match="a result needs scale="):
        rec.measure("r.const", 0.8)
    with pytest.raises(TypeError, match="names the baseline 'uniform guessing'; pass baseline="):
        rec.measure("r.point", 1.0, scale="n")
    for kw in ({"baseline": 1.0}, {"baseline_value": 1.0}, {"baseline_interval": iv(1, 2)}):
        with pytest.raises(TypeError, match="names no baseline; none can be passed"):
            rec.measure("r.const", 0.8, scale="n", **kw)
        with pytest.raises(TypeError, match="names no baseline"):
            rec.measure("c.point", 1.0, **kw)
    assert len(rec) == 0  # nothing half-recorded
    assert rec.measure("c.point", 1.0, scale="50 points").scale == "50 points"  # a check may


def test_write_refuses_unmeasured_entries_naming_them(rec):
    rec.measure("c.point", 1.0)
    rec.measure("e.err", 2)
    with pytest.raises(ValueError, match="never measured: r.point, r.iv, r.const, c.iv, c.two$"):
        rec.write()
    assert rec.unmeasured() == ["r.point", "r.iv", "r.const", "c.iv", "c.two"]


def test_the_record_takes_the_registry_fields(rec):
    c = rec.measure("r.const", 0.8, scale="n = 100")
    assert (c.kind, c.statement, c.paper, c.baseline) == (
        "result",
        "constant",
        0.743,
        "a printed constant",
    )
    assert c.discriminating is None and c.verdict == "holds"


# -- verdicts -------------------------------------------------------------------------------------
def test_discriminating_is_holds_and_not_baseline_holds(rec):
    c = rec.measure("r.point", 1.0, scale="n", baseline=3.0)
    assert c.holds and not c.baseline.holds and c.discriminating is True
    assert c.verdict == "holds"
    c = rec.measure("r.point", 1.0, scale="n", baseline=1.5)
    assert c.holds and c.baseline.holds and c.discriminating is False
    assert c.verdict == "holds, not discriminating"
    c = rec.measure("r.point", 3.0, scale="n", baseline=1.5)
    assert not c.holds and c.discriminating is False and c.verdict == "does not hold"
    c = rec.measure("r.point", 3.0, scale="n", baseline=3.0)
    assert not c.holds and c.discriminating is False and c.verdict == "does not hold"
    out = c.to_json()
    assert out["discriminating"] is (out["holds"] and not out["baseline"]["holds"])


def test_the_baseline_value_is_what_its_criterion_sees(rec):
    c = rec.measure("r.point", 1.0, scale="n", baseline="50 of 100 seeds", baseline_value=2.5)
    assert c.baseline.holds is False and c.baseline.on_value
    assert c.to_json()["baseline"]["measured"] == "50 of 100 seeds"


@pytest.mark.parametrize(
    "low, high, holds",
    [
        (1.0, 2.4, True),
        (1.0, 2.5, True),  # closed end
        (1.0, 2.6, False),  # the estimate 1.5 passes, the interval does not wholly
        (2.6, 3.0, False),
    ],
)
def test_an_interval_claim_holds_iff_its_whole_interval_does(rec, low, high, holds):
    c = rec.measure(
        "r.iv",
        1.5,
        refs={"bound": 2.5},
        interval=iv(low, high, estimate=min(max(1.5, low), high)),
        scale="n",
        baseline=4.0,
        baseline_interval=iv(3.5, 4.5),
    )
    assert c.holds is holds and c.judge == "interval" and c.seeds == 10


@pytest.mark.parametrize(
    "low, high, baseline_holds",
    [
        (2.6, 3.0, False),  # fails with confidence: discriminating
        (2.5, 3.0, True),  # touches the closed end
        (2.4, 3.0, True),  # part of it passes: not discriminating
        (1.0, 2.0, True),
    ],
)
def test_the_baseline_of_an_interval_claim_holds_iff_any_part_does(rec, low, high, baseline_holds):
    c = rec.measure(
        "r.iv",
        1.5,
        refs={"bound": 2.5},
        interval=iv(1.0, 2.0),
        scale="n",
        baseline=(low + high) / 2,
        baseline_interval=iv(low, high),
    )
    assert c.holds and c.baseline.holds is baseline_holds
    assert c.discriminating is (not baseline_holds)
    assert c.verdict == ("holds, not discriminating" if baseline_holds else "holds")


def test_verdict_strings(rec):
    assert rec.measure("e.err", 3).verdict == "erratum confirmed"
    assert rec.measure("e.err", 2).verdict == "printed text holds"
    assert rec.measure("c.point", 3.0).verdict == "does not hold"
    assert rec.measure("c.point", 1.0).verdict == "holds"
    assert rec.measure("c.iv", 1.5, interval=iv(0.9, 2.0)).verdict == "does not hold"
    assert rec.measure("c.iv", 1.5, interval=iv(1.0, 2.0)).verdict == "holds"
    assert rec.measure("r.point", 1.0, scale="n", baseline=1.0).verdict == (
        "holds, not discriminating"
    )


# -- counts -------------------------------------------------------------------------------------
HAND = [
    {"kind": "result", "holds": True, "discriminating": True},
    {"kind": "result", "holds": True, "discriminating": False},
    {"kind": "result", "holds": True, "discriminating": None},  # a printed constant
    {"kind": "result", "holds": False, "discriminating": False},
    {"kind": "erratum", "holds": False},
    {"kind": "erratum", "holds": True},
    {"kind": "check", "holds": True},
    {"kind": "check", "holds": True},
    {"kind": "check", "holds": False},
]


def test_summarize_counts_a_hand_made_list():
    counts = C.summarize(HAND)
    assert list(counts) == list(C.COUNT_KEYS)
    assert counts == {
        "results held": 1,
        "results held, no baseline": 1,
        "results held, not discriminating": 1,
        "results not held": 1,
        "errata confirmed": 1,
        "errata not confirmed": 1,
        "checks passed": 2,
        "checks failed": 1,
        "not comparable": 0,
    }
    assert C.summary_sentence(counts) == (
        "4 results: 1 holds and discriminates, 1 holds with no baseline, 1 holds without "
        "discriminating, 1 does not hold; 2 errata, 1 confirmed, 1 not; 3 checks, 2 pass, 1 fail."
    )


def test_summary_sentence_omits_empty_failure_counts():
    counts = C.summarize([HAND[0], HAND[4], HAND[6]])
    assert C.summary_sentence(counts) == (
        "1 result: 1 holds and discriminates, 0 hold with no baseline, 0 hold without "
        "discriminating, 0 do not hold; 1 erratum, confirmed; 1 check, passes."
    )
    assert C.summary_sentence(C.summarize([])) == (
        "0 results: 0 hold and discriminate, 0 hold with no baseline, 0 hold without "
        "discriminating, 0 do not hold; no errata; no checks."
    )
    assert C.summarize([]) == dict.fromkeys(C.COUNT_KEYS, 0)


def test_a_record_counts_what_it_measured(rec):
    rec.measure("r.point", 1.0, scale="n", baseline=3.0)
    rec.measure("r.const", 0.5, scale="n")
    rec.measure("e.err", 3)
    rec.measure("c.point", 1.0)
    counts = rec.counts()
    assert counts == C.summarize(c.to_json() for c in rec.claims)
    assert counts["results held"] == 1 and counts["results not held"] == 1
    assert counts["errata confirmed"] == 1 and counts["checks passed"] == 1
    assert rec.summary() == C.summary_sentence(counts)


def test_a_not_comparable_check_is_shown_but_not_counted(tmp_path):
    path = tmp_path / "nb.toml"
    path.write_text(
        'notebook = "nb"\n\n[[claim]]\nid = "t.cmp"\nkind = "check"\n'
        'statement = "beside the paper"\npaper = 0.7\ncriterion = "within 25% of paper"\n'
        'not_comparable = "our data are not the paper\'s"\n'
    )
    rec = C.ClaimsRecord("nb", "book", directory=tmp_path / "out", registry=path)
    claim = rec.measure("t.cmp", 2.0)
    assert claim.holds is False and claim.verdict == "shown, not comparable"
    assert claim.to_json()["not_comparable"] == "our data are not the paper's"
    counts = rec.counts()
    assert counts["not comparable"] == 1 and counts["checks failed"] == 0
    assert rec.summary().endswith(
        "1 number shown beside the paper's on data that are not the paper's, not counted."
    )
    C.load_record(rec.write())
    bad = path.read_text().replace('kind = "check"', 'kind = "result"\nno_baseline = "x"')
    path.write_text(bad)
    with pytest.raises(ValueError, match="only a check can be marked not_comparable"):
        load_registry("nb", path)


def test_few_replicates_explains_an_interval_over_few_splits(tmp_path):
    path = tmp_path / "nb.toml"
    path.write_text(
        'notebook = "nb"\n\n[[claim]]\nid = "t.split"\nkind = "check"\n'
        'statement = "over the paper\'s 5 splits"\ncriterion = "< 0"\njudge = "interval"\n'
        'few_replicates = "the paper\'s protocol has 5 disjoint splits"\n'
    )
    entry = load_registry("nb", path)["t.split"]
    assert entry.few_replicates == "the paper's protocol has 5 disjoint splits"
    path.write_text(path.read_text().replace('judge = "interval"\n', ""))
    with pytest.raises(ValueError, match="few_replicates explains an interval.*'point'"):
        load_registry("nb", path)
    path.write_text(path.read_text().replace('"the paper\'s protocol has 5 disjoint splits"', '""'))
    with pytest.raises(ValueError, match="'few_replicates' must be a non-empty string"):
        load_registry("nb", path)
