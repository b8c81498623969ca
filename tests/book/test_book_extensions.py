"""The book's own Sphinx extensions: verdict pages, run times, page assets (issue 28)."""

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


@pytest.mark.parametrize(
    "claim, words, group",
    [
        ({"kind": "result", "holds": True, "discriminating": True}, "Holds", "holds"),
        (
            {"kind": "result", "holds": True, "baseline": {"name": "u", "holds": True}},
            "Holds; the strawman passes too",
            "simpler",
        ),
        (
            {"kind": "result", "holds": True, "competitor": {"name": "m", "holds": True}},
            "Holds; the simpler method passes too",
            "simpler",
        ),
        ({"kind": "result", "holds": False}, "Does not hold", "fails"),
        (
            {"kind": "erratum", "holds": False},
            "Printed error (re-reading pending)",
            "erratum",
        ),
        (
            {"kind": "erratum", "holds": False, "outcome": "printed error"},
            "Printed error",
            "erratum",
        ),
        ({"kind": "erratum", "holds": False, "outcome": "typo"}, "Typo", "erratum"),
        (
            {"kind": "erratum", "holds": False, "outcome": "source text ambiguous"},
            "Source text ambiguous",
            "erratum",
        ),
        ({"kind": "erratum", "holds": True}, "The printed text holds", "fails"),
        ({"kind": "check", "holds": True}, "Passes", "holds"),
        ({"kind": "check", "holds": False}, "Fails", "fails"),
        (
            {"kind": "check", "holds": False, "caused_by": "x.e"},
            "Fails because of a printed error",
            "caused",
        ),
        (
            {"kind": "check", "holds": True, "not_comparable": "shown"},
            "Shown beside the paper, not judged",
            "shown",
        ),
    ],
)
def test_claim_verdicts_are_plain_words_without_house_terms(claim, words, group):
    ext = _load("claims_status")
    assert ext.claim_verdict(claim) == (words, group)
    assert group in dict(ext.CLAIM_GROUPS)
    assert "discriminat" not in words.lower() and "comparable" not in words.lower()


def test_the_chapters_come_in_the_sidebars_order():
    ext = _load("claims_status")
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    expected = [Path(f).name for f in files if f.startswith("notebooks/")]
    assert ext.toc_notebooks(ROOT) == expected and len(expected) == 5


@pytest.mark.parametrize(
    "url, shown",
    [("", False), ("https://github.com/OWNER/REPO", False), ("https://github.com/a/b", True)],
)
def test_repository_and_launch_buttons_only_with_a_repository_url(url, shown):
    from types import SimpleNamespace

    ext = _load("page_assets")
    options = {
        "repository_url": url,
        "launch_buttons": {"binderhub_url": "https://mybinder.org", "colab_url": "c"},
    }
    ext.repository_buttons(None, SimpleNamespace(html_theme_options=options))
    assert options["use_repository_button"] is shown
    assert options["use_issues_button"] is shown
    assert bool(options["launch_buttons"].get("binderhub_url")) is shown
    assert ("OWNER/REPO" in options["repository_url"]) is False


def test_the_config_sets_no_placeholder_repository():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert "OWNER/REPO" not in (ROOT / "_config.yml").read_text()
    html = config.get("html", {})
    # the buttons follow the URL (book/_ext/page_assets.py); jupyter-book refuses them without
    assert not html.get("use_repository_button") and not html.get("use_issues_button")


# --------------------------------------------------------------- a small book, built in tmp


ENTRIES = [
    {
        "id": "demo.r.good",
        "kind": "result",
        "statement": "The bound $\\sum_t E_t \\le 2$ holds",
        "criterion": "<= 2",
        "judge": "interval",
        "baseline": "uniform guessing",
        "competitor": "midpoint learner",
        "section": "demo-first",
    },
    {
        "id": "demo.c.caused",
        "kind": "check",
        "statement": "The printed constant gives the bound",
        "criterion": "<= 1",
        "caused_by": "demo.e.printed",
        "section": "demo-first",
    },
    {
        "id": "demo.e.printed",
        "kind": "erratum",
        "statement": "The printed constant 1/2 is too small",
        "criterion": "<= 0.5",
        "printed": "c = 1/2 suffices",
        "location": "Appendix B, proof of Lemma 3",
        "outcome": "printed error",
        "correction": "c = 1",
        "survives": "Yes, with a constant twice as large.",
        "section": "demo-second",
    },
    {
        "id": "demo.e.typo",
        "kind": "erratum",
        "statement": "An index letter",
        "criterion": "<= 0",
        "printed": "w' for w",
        "location": "Section 2",
        "outcome": "typo",
        "correction": "w",
        "section": "demo-second",
    },
    {
        "id": "demo.b.ours",
        "kind": "result",
        "statement": "Our own ablation holds",
        "criterion": ">= 0",
        "scope": "beyond",
        "no_baseline": "an ablation",
        "section": "demo-second",
    },
]
HEADLINES = [
    {"id": "demo.headline.bound", "title": "The bound holds", "claims": ["demo.r.good"]},
    {"id": "demo.headline.const", "title": "The constant", "claims": ["demo.e.printed"]},
]
CHAPTER = """\
# The demo chapter

```{chapter-summary} demo
```

(demo-first)=
## First section with $x^2$

Text.

(demo-second)=
## Second section

```{rerun-box} demo
Chapter's own *note*.
```
"""


def _small_book(tmp_path, headlines):
    """Build a book of one chapter with a temporary registry and record; return its HTML."""
    import subprocess
    import sys

    from mlgeom.book import claims as C
    from mlgeom.stats import Interval
    from tests.book.test_claims_machinery import registry

    src = tmp_path / "src"
    (src / "data" / "claims").mkdir(parents=True)
    (src / "data" / "results").mkdir(parents=True)
    reg = registry(tmp_path / "reg", ENTRIES, headlines)
    (src / "data" / "claims" / "demo.toml").write_text(reg.path.read_text())
    rec = C.ClaimsRecord("demo", "book", directory=tmp_path / "r", registry=reg)
    iv = Interval(1.5, 1.2, 1.8, 10, 0.95, "t interval over 10 seeds", 0.07, 9)
    comp = Interval(1.9, 1.5, 2.3, 10, 0.95, "t interval over 10 seeds", 0.09, 9)
    rec.measure(
        "demo.r.good",
        1.5,
        interval=iv,
        scale="n = 10",
        baseline=3.0,
        competitor=1.9,
        competitor_interval=comp,
    )
    rec.measure("demo.c.caused", 2.0)
    rec.measure("demo.e.printed", 1.0)
    rec.measure("demo.e.typo", 1.0)
    rec.measure("demo.b.ours", 1.0, scale="n = 1")
    (src / "data" / "results" / "demo.json").write_text(json.dumps(rec.to_json()))
    (src / "data" / "results" / "paper").mkdir()
    paper_run = {**rec.to_json(), "profile": "paper"}
    paper_run["claims"] = paper_run["claims"][:1]  # a snapshot may lag the registry
    (src / "data" / "results" / "paper" / "demo.json").write_text(json.dumps(paper_run))
    (src / "data" / "results" / "run-report.json").write_text(
        json.dumps({"book": {"demo": _run()}, "paper": {"demo": _run(wall_time_s=4000.0)}})
    )
    (src / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nparts:\n  - chapters:\n      - file: notebooks/demo\n"
    )
    (src / "notebooks").mkdir()
    (src / "notebooks" / "demo.md").write_text(CHAPTER)
    (src / "book" / "status").mkdir(parents=True)
    (src / "book" / "status" / "demo.md").write_text("# All\n\n```{claims-table} demo\n```\n")
    (src / "index.md").write_text(
        "# Home\n\n```{headline-verdicts}\ndemo: the demo paper\n```\n\n"
        "```{verdict-definitions}\n```\n\n```{status-overview}\n```\n\n```{errata-list}\n```\n\n"
        "```{beyond-findings}\n```\n\n```{run-times}\n```\n\n"
        "```{toctree}\nnotebooks/demo\nbook/status/demo\n```\n"
    )
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'claims_status']\n"
        "myst_enable_extensions = ['dollarmath', 'colon_fence']\n"
        "html_theme = 'basic'\n"
    )
    out = tmp_path / "html"
    # a process of its own: Sphinx registers its node classes once per process
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {
        name: (out / f"{name}.html").read_text(encoding="utf-8")
        for name in ("index", "notebooks/demo", "book/status/demo")
    }


def _visible(html):
    import re

    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'title="[^"]*"', " ", html)
    return re.sub(r"<[^>]+>", " ", html)


def test_a_chapter_without_headline_claims_renders_as_not_yet_registered(tmp_path):
    pages = _small_book(tmp_path, [])
    assert "headline claims not yet registered" in pages["index"]
    assert "Headline claims not yet registered for this chapter" in pages["notebooks/demo"]
    assert 'class="chapter-summary docutils container"' in pages["notebooks/demo"]


def test_the_verdict_pages_from_a_temporary_registry(tmp_path):
    import re

    pages = _small_book(tmp_path, HEADLINES)
    index, chapter, status = pages["index"], pages["notebooks/demo"], pages["book/status/demo"]
    # landing: a verdict per paper, each headline with its verdict, numbers and why
    assert "verdict-badge verdict-printed-error" in index
    assert "Reproduced, but a simpler method does as well" in index  # the competitor passes
    assert "the demo paper" in index and "The bound holds" in index
    # every verdict word defined once on the page that defines them
    assert index.count('id="verdict-reproduced"') == 1
    # the chapter's box: verdict, paper, ours, the competitor's number
    assert "chapter-summary-table" in chapter and "midpoint learner: 1.9" in chapter
    # the rerun box: commands, run times and the chapter's own markdown
    assert "make reproduce NB=demo PROFILE=paper" in re.sub(r"<[^>]+>", "", chapter)
    assert "PROFILE=paper: 4000 s" in chapter and "<em>note</em>" in chapter
    # the claims table: grouped by section (maths typeset), ids out of sight, errata quoted
    assert status.count('class="claims-section"') == 2
    assert '<span class="math notranslate nohighlight">' in status  # $x^2$ and $\sum_t$
    assert 'id="claim-demo-r-good"' in status and 'title="demo.r.good"' in status
    assert "demo.r.good" not in _visible(status)
    assert "c = 1/2 suffices" in status and "Appendix B, proof of Lemma 3" in status
    assert "Fails because of a printed error" in status and 'href="#claim-demo-e-printed"' in status
    assert 'class="claims-filter-select"' in status
    assert "Paper’s scale" in status or "Paper's scale" in status  # the committed paper run
    # the status overview counts the check as caused by the erratum, not as a failure
    assert "1 of 1; 0 failing" not in index and "0 of 1; 0 failing" in index
    # beyond the papers: the printed error with its correction, the typo apart, our ablation
    assert "Yes, with a constant twice as large." in index
    assert 'id="beyond-typo"' in index and "Our own ablation holds" in index
    for page in pages.values():
        visible = _visible(page).lower()
        assert "discriminat" not in visible and "not comparable" not in visible
