"""The book's own Sphinx extensions: the run-times page and the page-asset fixes."""

import importlib.util
import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "book" / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(**overrides):
    run = {
        "wall_time_s": 12.5,
        "peak_rss_mb": 300.0,
        "date": "2026-11-21T10:00:00Z",
        "commit": "abc",
        "machine": "x86_64, 2 cores",
    }
    run.update(overrides)
    return run


def test_run_report_is_read(tmp_path):
    ext = _load("claims_status")
    path = tmp_path / "run-report.json"
    path.write_text(json.dumps({"book": {"nb": _run()}}))
    assert ext.load_run_report(path)["book"]["nb"]["wall_time_s"] == 12.5


@pytest.mark.parametrize(
    "report, match",
    [
        ([], "not a run report"),
        ({"book": []}, "profile 'book'"),
        ({"book": {"nb": {"wall_time_s": 1.0}}}, r"book/nb: misses \['peak_rss_mb'"),
    ],
)
def test_run_report_rejects_malformed_files(tmp_path, report, match):
    ext = _load("claims_status")
    path = tmp_path / "run-report.json"
    path.write_text(json.dumps(report))
    with pytest.raises(ValueError, match=match):
        ext.load_run_report(path)


def test_committed_run_report_covers_every_chapter_at_the_book_profile():
    ext = _load("claims_status")
    report = ext.load_run_report(ROOT / "data" / "results" / "run-report.json")
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    chapters = [
        Path(c["file"]).name
        for part in toc["parts"]
        for c in part.get("chapters", [])
        if c["file"].startswith("notebooks/")
    ]
    assert chapters
    missing = [c for c in chapters if c not in report["book"]]
    assert not missing, f"no book-profile run recorded for {missing}: run make reproduce NB=..."
    for name in chapters:
        assert report["book"][name]["wall_time_s"] < 8 * 60, f"{name} exceeds the 8-minute budget"
        assert not report["book"][name]["commit"].endswith("-dirty"), f"{name}: make run-times"


def test_the_status_page_reads_records_with_the_packages_validation(tmp_path):
    """A duplicate id or a record naming another notebook is refused by the status page too."""
    ext = _load("claims_status")
    claim = {"id": "a", "kind": "check", "statement": "s", "paper": None, "measured": 1}
    claim["criterion"] = "c"
    rows = [{**claim, "holds": True}, {**claim, "holds": False}]
    path = tmp_path / "nb.json"
    path.write_text(json.dumps({"notebook": "nb", "profile": "book", "claims": rows}))
    with pytest.raises(ValueError, match="more than once"):
        ext._load(path)
    path.write_text(json.dumps({"notebook": "other", "profile": "book", "claims": rows[:1]}))
    with pytest.raises(ValueError, match="says notebook 'other'"):
        ext._load(path)


class _Script:
    def __init__(self, filename, **attributes):
        self.filename = filename
        self.attributes = attributes


def test_duplicate_inline_scripts_are_dropped_in_place():
    ext = _load("page_assets")
    a = _Script(None, body="const X = 1")
    b = _Script("", body="const X = 1")  # the duplicate jupyter-book adds (filename "")
    c = _Script("_static/x.js")
    d = _Script(None, body="const Y = 2")
    scripts = [a, c, b, d]
    context = {"script_files": scripts}
    ext.dedupe_scripts(None, "page", "page.html", context, None)
    assert context["script_files"] is scripts  # later handlers append to this same list
    assert scripts == [a, c, d]


def test_the_overview_figure_draws_one_bar_segment_per_nonzero_count():
    import xml.etree.ElementTree as ET

    ext = _load("claims_status")
    counts = {"results held": 3, "results held, not discriminating": 1, "checks passed": 5}
    svg = ext._overview_svg([("nb_a", counts), ("nb_b", {"errata confirmed": 2})])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    bars = [r for r in root.iter(f"{ns}rect") if r.find(f"{ns}title") is not None]
    titles = sorted(r.find(f"{ns}title").text for r in bars)
    assert titles == [
        "nb_a: 1 held, not discriminating",
        "nb_a: 3 held",
        "nb_a: 5 checks passed",
        "nb_b: 2 errata",
    ]
    widths = {r.find(f"{ns}title").text: float(r.get("width")) for r in bars}
    one = widths["nb_a: 1 held, not discriminating"]
    assert widths["nb_a: 3 held"] == pytest.approx(3 * one, abs=0.2)  # drawn to 0.1 px


@pytest.mark.parametrize(
    "claim, text",
    [
        ({"kind": "result", "holds": True, "discriminating": True}, "✓ holds"),
        ({"kind": "result", "holds": True, "discriminating": False}, "≈ holds, not discriminating"),
        ({"kind": "result", "holds": True, "discriminating": None}, "✓ holds (no baseline)"),
        ({"kind": "result", "holds": False, "discriminating": False}, "✗ does not hold"),
        ({"kind": "erratum", "holds": False}, "✓ erratum confirmed"),
        ({"kind": "erratum", "holds": True}, "✗ printed text holds"),
        ({"kind": "check", "holds": True}, "✓ holds"),
        ({"kind": "check", "holds": False}, "✗ does not hold"),
    ],
)
def test_the_status_page_names_each_verdict_by_kind(claim, text):
    ext = _load("claims_status")
    node = ext._verdict(claim)
    assert node.astext() == text and "claim-verdict" in node["classes"]


def test_status_tables_refuse_mismatched_columns():
    """A table whose widths or rows disagree with its headers is refused with a clear message.

    (A summary table with 10 headers and 8 widths crashed docutils' HTML writer with an
    IndexError deep inside the build.)
    """
    from docutils import nodes

    ext = _load("claims_status")
    ok = ext._table(["a", "b"], [1, 1], [[nodes.Text("x"), nodes.Text("y")]], ["t"])
    assert isinstance(ok, nodes.table)
    with pytest.raises(ValueError, match="2 headers, 1 widths"):
        ext._table(["a", "b"], [1], [], ["t"])
    with pytest.raises(ValueError, match=r"rows of \[1\] cells"):
        ext._table(["a", "b"], [1, 1], [[nodes.Text("x")]], ["t"])


def test_status_summary_has_one_width_per_column():
    import ast

    ext = _load("claims_status")
    src = (ROOT / "book" / "_ext" / "claims_status.py").read_text()
    call = next(
        n
        for n in ast.walk(ast.parse(src))
        if isinstance(n, ast.Call)
        and getattr(n.func, "id", "") == "_table"
        and any(
            isinstance(a, ast.List)
            and len(a.elts)
            and isinstance(a.elts[0], ast.Constant)
            and a.elts[0].value == "Notebook"
            for a in n.args
        )
    )
    widths = call.args[1]
    assert len(widths.elts) == len(ext.COUNT_COLUMNS) + 2
