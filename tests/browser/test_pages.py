"""Every page of the built book, opened in headless Chromium as a reader would see it.

Per page: every formula typeset by the book's own MathJax (no error nodes), every image loaded
and every figure captioned, no console errors, no request leaving localhost, and a full-page
screenshot under ``_build/screenshots/``. Across the book: the status page lists every claim of
every chapter's record with its verdict, and every internal link (page and anchor) resolves.
"""

from __future__ import annotations

import base64
import html.parser
import json
import re
import time
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
import yaml
from book_site import ROOT, SHOTS, SITE

SKIP_DIRS = {"_static", "_sources", "_images"}
PAGES = sorted(
    str(p.relative_to(SITE))
    for p in SITE.rglob("*.html")
    if not SKIP_DIRS.intersection(p.relative_to(SITE).parts)
)
NETWORK_SCHEMES = ("http:", "https:", "ws:", "wss:", "ftp:")  # chrome://, data: etc. stay local
#: The reading path is judged at 1280×800: a "screen" is 800 CSS pixels of page height.
SCREEN_PX = 800
MAX_CHAPTER_SCREENS = 30
HEIGHTS: dict[str, int] = {}  # page -> height in CSS px, filled by test_page_renders_offline
READER: dict[str, dict] = {}  # page -> READER_FACTS, filled by test_page_renders_offline

WAIT_FOR_MATHJAX = """
// Wait for the document to finish loading (a large page can still be parsing when the driver
// hands over) and for MathJax's startup promise, which exists only once the deferred
// tex-chtml.js has run; up to 50 s in all (the script timeout is 60 s).
const done = arguments[arguments.length - 1];
const start = Date.now();
(function wait() {
  const mj = window.MathJax;
  const loaded = document.readyState === "complete";
  const loading = !!document.querySelector('script[src*="mathjax"]');
  const math = Array.from(document.querySelectorAll(".math"));
  if (loaded && mj && mj.startup && mj.startup.promise) {
    mj.startup.promise.then(() => done("typeset"), (e) => done("error: " + e));
  } else if (loaded && math.length && math.every((m) => m.querySelector("mjx-container"))) {
    done("typeset");
  } else if ((!loaded || loading) && Date.now() - start < 50000) {
    setTimeout(wait, 100);
  } else {
    done(`no mathjax (MathJax: ${typeof mj}, script: ${loading}, ` +
      `${Date.now() - start} ms, state: ${document.readyState})`);
  }
})();
"""

PAGE_FACTS = """
const q = (s) => Array.from(document.querySelectorAll(s));
const imgs = q("article img, main img");
const nav = performance.getEntriesByType("navigation")[0];
return {
  math: q(".math").length,
  mathTypeset: q(".math").filter((m) => m.querySelector("mjx-container")).length,
  mathRaw: q(".math").filter((m) => !m.querySelector("mjx-container"))
    .slice(0, 3).map((m) => m.textContent.slice(0, 80)),
  mathErrors: q("mjx-merror, [data-mjx-error]").map((e) => e.textContent.slice(0, 80)),
  images: imgs.length,
  broken: imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.src),
  figures: q("figure").length,
  uncaptioned: q("figure").filter((f) => {
    const c = f.querySelector("figcaption");
    return !c || !c.textContent.trim();
  }).map((f) => f.id || (f.querySelector("img") || {}).src || "?"),
  outputImagesOutsideFigures: q(".cell_output img").filter((i) => !i.closest("figure"))
    .map((i) => i.src),
  loadMs: nav ? nav.loadEventEnd - nav.startTime : null,
  height: document.documentElement.scrollHeight,
  overflowing: (() => {
    // a table, figure, code block or output wider than the content column, with no scroll
    // container between it and the column (a reader would see it cut off)
    const col = document.querySelector("article.bd-article") || document.querySelector("main");
    if (!col) return [];
    const right = col.getBoundingClientRect().right + 1;
    const scrolls = (el) => {
      for (let a = el.parentElement; a && a !== col; a = a.parentElement) {
        const x = getComputedStyle(a).overflowX;
        if ((x === "auto" || x === "scroll") && a.getBoundingClientRect().right <= right) {
          return true;
        }
      }
      return false;
    };
    return q("article table, article figure, article .cell_output, article pre, article img")
      .filter((el) => el.getBoundingClientRect().right > right && !scrolls(el))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className || ""} ` +
        `(${Math.round(el.getBoundingClientRect().right)} > ${Math.round(right)} px)`);
  })(),
};
"""


READER_FACTS = """
// What a reader sees: visible text outside code and formulas, and what scrolls sideways.
const art = document.querySelector("article.bd-article") || document.querySelector("main");
const skip = "pre, code, .math, mjx-container, script, style, .cell_input, .headerlink";
const parts = [];
if (art) {
  const walker = document.createTreeWalker(art, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(skip) || !el.getClientRects().length) continue;
    parts.push(n.textContent);
  }
}
const sideways = art ? Array.from(art.querySelectorAll(
  "table, figure, .cell_output, .output, .pst-scrollable-table-container"))
  .filter((el) => el.getClientRects().length && el.scrollWidth > el.clientWidth + 2 &&
    ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
  .map((el) => {
    const cap = el.querySelector("caption") || el.closest("figure")?.querySelector("figcaption");
    const what = cap ? `"${cap.textContent.trim().slice(0, 60)}"` :
      `${el.tagName.toLowerCase()}.${(el.className || "").toString().slice(0, 40)}`;
    return `${what} (${el.scrollWidth} > ${el.clientWidth} px)`;
  }) : [];
return {
  text: parts.join(" "),
  bodyText: document.body.innerText,
  links: Array.from(document.querySelectorAll("a[href]")).map((a) => a.href),
  sideways: sideways,
};
"""


def _requests(browser) -> list[str]:
    urls = []
    for entry in browser.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def _screenshot(browser, page: str) -> Path:
    metrics = browser.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    clip = {
        "x": 0,
        "y": 0,
        "width": size["width"],
        "height": min(size["height"], 16000),  # Chromium's texture limit
        "scale": 1,
    }
    shot = browser.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    path = SHOTS / (page.removesuffix(".html").replace("/", "__") + ".png")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def test_the_book_was_built():
    assert PAGES, f"no pages under {SITE}: run `make strict-book` first"
    assert "index.html" in PAGES and "book/status.html" in PAGES


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_offline(page, site, browser, load_times):
    _requests(browser)  # drain the log of earlier pages
    browser.get_log("browser")
    start = time.perf_counter()
    browser.get(f"{site}/{page}")
    if 'http-equiv="refresh"' in (SITE / page).read_text(encoding="utf-8").lower():
        # a redirect page (index.html -> the intro): check the page it lands on
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 20).until(
            lambda b: (
                not b.current_url.endswith(page)
                and b.execute_script("return document.readyState") == "complete"
            )
        )
    mathjax = browser.execute_async_script(WAIT_FOR_MATHJAX)
    ready_ms = 1000 * (time.perf_counter() - start)
    facts = browser.execute_script(PAGE_FACTS)
    requests = _requests(browser)
    console = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    shot = _screenshot(browser, page)
    load_times[page] = {
        "load_ms": facts["loadMs"],
        "ready_ms": round(ready_ms, 1),
        "height_px": facts["height"],
        "screens": round(facts["height"] / SCREEN_PX, 1),
    }
    HEIGHTS[page] = facts["height"]
    READER[page] = browser.execute_script(READER_FACTS)

    outside = [u for u in requests if u.startswith(NETWORK_SCHEMES) and not u.startswith(site)]
    assert not outside, f"{page} requested outside localhost: {outside[:5]}"
    assert not console, f"{page}: console errors {console[:3]}"
    if facts["math"]:
        assert mathjax == "typeset", f"{page}: MathJax did not run ({mathjax})"
        assert facts["mathTypeset"] == facts["math"], (
            f"{page}: {facts['math'] - facts['mathTypeset']} of {facts['math']} formulas not "
            f"rendered, e.g. {facts['mathRaw']}"
        )
    assert not facts["mathErrors"], f"{page}: MathJax errors {facts['mathErrors']}"
    assert not facts["broken"], f"{page}: images not loaded {facts['broken']}"
    assert not facts["uncaptioned"], f"{page}: figures without caption {facts['uncaptioned']}"
    assert not facts["outputImagesOutsideFigures"], (
        f"{page}: plot outputs without a figure caption {facts['outputImagesOutsideFigures']}"
    )
    assert not facts["overflowing"], (
        f"{page}: wider than the content column, with no scroll container: "
        f"{facts['overflowing'][:5]}"
    )
    assert shot.stat().st_size > 1000


def test_the_overflow_check_can_fail(site, browser):
    """A table wider than the column is reported; the same table in a scroll container is not."""
    browser.get(f"{site}/book/execution.html")
    inject = """
    const art = document.querySelector("article.bd-article");
    const t = document.createElement("table");
    t.innerHTML = "<tr><td style='white-space:nowrap'>" + "x".repeat(400) + "</td></tr>";
    if (arguments[0]) {
      const d = document.createElement("div"); d.style.overflowX = "auto"; d.appendChild(t);
      art.appendChild(d);
    } else { art.appendChild(t); }
    """
    browser.execute_script(inject, False)
    assert any("table" in o for o in browser.execute_script(PAGE_FACTS)["overflowing"])
    browser.get(f"{site}/book/execution.html")
    browser.execute_script(inject, True)
    assert browser.execute_script(PAGE_FACTS)["overflowing"] == []


def _toc_notebooks() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc["parts"] for c in part.get("chapters", [])]
    return [Path(f).name for f in files if f.startswith("notebooks/")]


class _Anchors(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])


def _parse(path: Path) -> _Anchors:
    parser = _Anchors()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_internal_link_resolves():
    pages = {p: _parse(SITE / p) for p in PAGES}
    base = "http://book.invalid/"
    broken, checked = [], 0
    for page, parsed in pages.items():
        for href in parsed.links:
            if re.match(r"^[a-z][a-z0-9+.-]*:", href) and not href.startswith(base):
                continue  # external (GitHub, Binder, Colab, mailto): not fetched offline
            url = urlsplit(urljoin(base + page, href))
            target = unquote(url.path.removeprefix("/")) or "index.html"
            if target.endswith("/"):
                target += "index.html"
            checked += 1
            if not (SITE / target).is_file():
                broken.append(f"{page}: {href} -> missing {target}")
                continue
            if url.fragment and target.endswith(".html"):
                ids = pages[target].ids if target in pages else _parse(SITE / target).ids
                if unquote(url.fragment) not in ids:
                    broken.append(f"{page}: {href} -> no anchor #{url.fragment} in {target}")
    assert checked > 100, f"only {checked} internal links found"
    assert not broken, f"{len(broken)} broken internal links:\n" + "\n".join(broken[:20])


# ------------------------------------------------------------ the reading path (issue 28)


def _reader(page: str, site, browser) -> dict:
    """The page's reader facts (from the page test when it ran, else by loading the page)."""
    if page not in READER:
        browser.get(f"{site}/{page}")
        browser.execute_async_script(WAIT_FOR_MATHJAX)
        READER[page] = browser.execute_script(READER_FACTS)
        HEIGHTS[page] = browser.execute_script("return document.documentElement.scrollHeight")
    return READER[page]


def test_the_landing_page_shows_a_verdict_per_paper_above_the_fold(site, browser):
    browser.get(f"{site}/book/intro.html")
    browser.execute_async_script(WAIT_FOR_MATHJAX)
    rows = browser.execute_script(
        """
        return Array.from(document.querySelectorAll(".hv-tally-table tbody tr")).map((r) => {
          const v = r.querySelector(".verdict-badge, .headlines-pending");
          const link = r.querySelector("a.reference");
          return {
            href: link ? link.getAttribute("href") : "",
            bottom: v ? v.getBoundingClientRect().bottom + window.scrollY : null,
            badges: r.querySelectorAll(".verdict-badge").length,
          };
        });
        """
    )
    chapters = _toc_notebooks()
    assert [Path(r["href"]).stem for r in rows] == chapters, "one row per paper, sidebar order"
    for chapter, row in zip(chapters, rows, strict=True):
        assert row["bottom"] is not None, f"{chapter}: no verdict on the landing page"
        assert row["bottom"] <= SCREEN_PX, f"{chapter}: verdict at {row['bottom']:.0f} px"


@pytest.mark.parametrize("notebook", _toc_notebooks())
def test_every_paper_has_its_headline_verdicts_on_the_landing_page(notebook, site, browser):
    browser.get(f"{site}/book/intro.html")
    n = browser.execute_script(
        "return document.querySelectorAll(arguments[0]).length",
        f"#headlines-{notebook.replace('_', '-')} .verdict-badge",
    )
    assert n >= 3, f"{notebook}: {n} headline verdicts on the landing page"


@pytest.mark.parametrize("notebook", _toc_notebooks())
def test_each_chapters_first_screen_has_its_verdict_box(notebook, site, browser):
    browser.get(f"{site}/notebooks/{notebook}.html")
    top = browser.execute_script(
        """
        const box = document.querySelector("article .chapter-summary");
        return box ? box.getBoundingClientRect().top + window.scrollY : null;
        """
    )
    assert top is not None, f"{notebook}: no verdict box (```{{chapter-summary}}```)"
    assert top < SCREEN_PX, f"{notebook}: the verdict box starts at {top:.0f} px"


@pytest.mark.parametrize("notebook", _toc_notebooks())
def test_a_chapter_page_is_at_most_30_screens(notebook, site, browser):
    page = f"notebooks/{notebook}.html"
    _reader(page, site, browser)
    screens = HEIGHTS[page] / SCREEN_PX
    assert screens <= MAX_CHAPTER_SCREENS, f"{notebook}: {screens:.1f} screens at 1280×800"


#: id-like tokens: three dotted words (not decimals, versions, file names or hosts)
ID_LIKE = re.compile(r"(?<![\w./-])[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*){2,}(?![\w/-]|\.\w)")
NOT_IDS = re.compile(r"\.(json|toml|md|ipynb|py|png|svg|csv|txt|yml|yaml|gz|bz2|zip|dat|html)$")
URLS = re.compile(r"\b(?:[a-z][a-z0-9+.-]*://|www\.)\S+")
#: Pages where ids belong: the full claim lists.
ID_PAGES = ("book/status/", "book/appendix/")


def _ids_in(text: str) -> list[str]:
    text = URLS.sub(" ", text)
    return sorted(
        {
            t
            for t in ID_LIKE.findall(text)
            if not NOT_IDS.search(t) and max(map(len, t.split("."))) > 1  # not i.i.d, e.g.
        }
    )


def test_the_id_check_can_fail():
    assert _ids_in("see hier.bench.facets.hsvm-best and lpmk.Mv_feasible.") == [
        "hier.bench.facets.hsvm-best"
    ]
    assert _ids_in("0.25 vs 1.2.3, data/results/x.json, a.tar.gz, e.g. http://a.b.c/d") == []
    assert _ids_in("fy.theorem43.multilabel-bites fails") == ["fy.theorem43.multilabel-bites"]
    assert _ids_in("draws are i.i.d. and, e.g.") == []


def _reader_pages() -> list[str]:
    return [
        page
        for page in PAGES
        if not page.startswith(ID_PAGES) and page not in ("genindex.html", "search.html")
    ]


@pytest.mark.parametrize("page", _reader_pages())
def test_no_internal_ids_or_placeholders_in_what_a_reader_sees(page, site, browser):
    facts = _reader(page, site, browser)
    assert "OWNER/REPO" not in facts["bodyText"], f"{page}: shows the OWNER/REPO placeholder"
    assert not [u for u in facts["links"] if "OWNER/REPO" in u], f"{page}: links to OWNER/REPO"
    ids = _ids_in(facts["text"])
    assert not ids, f"{page}: internal ids in reader-visible text: {ids[:8]}"


@pytest.mark.parametrize("page", _reader_pages())
def test_no_table_figure_or_output_scrolls_sideways(page, site, browser):
    facts = _reader(page, site, browser)
    assert not facts["sideways"], f"{page}: wider than the column: {facts['sideways'][:5]}"


def test_every_claim_is_on_its_chapters_status_page_with_its_verdict(site, browser):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "claims_status", ROOT / "book" / "_ext" / "claims_status.py"
    )
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    from docutils.nodes import make_id

    from mlgeom.book.registry import load_registry

    for name in _toc_notebooks():
        record = json.loads((ROOT / "data" / "results" / f"{name}.json").read_text())
        registry = load_registry(name, ROOT / "data" / "claims" / f"{name}.toml")
        for c in record["claims"]:  # the registry's outcome where the record predates it
            entry = registry.entries.get(c["id"])
            for key in ("outcome", "caused_by"):
                if c.get(key) is None and entry is not None:
                    c[key] = getattr(entry, key)
        browser.get(f"{site}/book/status/{name}.html")
        rows = browser.execute_script(
            """
            return Array.from(document.querySelectorAll("tr.claim-row")).map((r) => [
              r.id, (r.querySelector(".claim-verdict") || {}).textContent || "",
              r.querySelector("abbr.claim-id").getAttribute("title")]);
            """
        )
        expected = {f"claim-{make_id(c['id'])}": c for c in record["claims"]}
        assert [r[0] for r in rows] != [] and sorted(r[0] for r in rows) == sorted(expected)
        for row_id, verdict, tooltip in rows:
            claim = expected[row_id]
            assert tooltip == claim["id"]
            assert verdict.strip() == ext.claim_verdict(claim)[0], f"{name}: {claim['id']}"


def test_the_status_filter_shows_one_verdict_kind(site, browser):
    from selenium.webdriver.support.ui import Select

    name = _toc_notebooks()[0]
    browser.get(f"{site}/book/status/{name}.html")
    select = Select(browser.find_element("css selector", "select.claims-filter-select"))
    values = [o.get_attribute("value") for o in select.options]
    assert values[0] == "all" and len(values) > 2
    for value in values[1:]:
        select.select_by_value(value)
        shown = browser.execute_script(
            """return Array.from(document.querySelectorAll("tr.claim-row"))
                 .filter((r) => r.getClientRects().length).map((r) => r.className);"""
        )
        assert shown and all(f"claim-group-{value}" in c for c in shown), value
    select.select_by_value("all")
    hidden = browser.execute_script(
        "return document.querySelectorAll('tr.claim-row.claims-hidden').length"
    )
    assert hidden == 0
