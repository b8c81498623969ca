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

WAIT_FOR_MATHJAX = """
const done = arguments[arguments.length - 1];
const mj = window.MathJax;
if (mj && mj.startup && mj.startup.promise) {
  mj.startup.promise.then(() => done("typeset"), (e) => done("error: " + e));
} else {
  done("no mathjax");
}
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
    load_times[page] = {"load_ms": facts["loadMs"], "ready_ms": round(ready_ms, 1)}

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


VERDICTS = {
    "not comparable": "— not comparable",
    "results held": "✓ holds",
    "results held, no baseline": "✓ holds (no baseline)",
    "checks passed": "✓ holds",
    "results held, not discriminating": "≈ holds, not discriminating",
    "errata confirmed": "✓ erratum confirmed",
    "errata not confirmed": "✗ printed text holds",
    "results not held": "✗ does not hold",
    "checks failed": "✗ does not hold",
}


def _expected_verdict(claim: dict) -> str:
    from mlgeom.book.claims import summarize

    (category,) = [k for k, n in summarize([claim]).items() if n]
    return VERDICTS[category]


def test_status_page_lists_every_claim_with_a_verdict(site, browser):
    expected = {}
    for name in _toc_notebooks():
        record = json.loads((ROOT / "data" / "results" / f"{name}.json").read_text())
        for claim in record["claims"]:
            expected[claim["id"]] = _expected_verdict(claim)
    assert expected, "no claims records for the chapters in _toc.yml"
    browser.get(f"{site}/book/status.html")
    rows = browser.execute_script(
        """
        return Array.from(document.querySelectorAll("table.claims-status tbody tr")).map((r) => {
          const id = r.querySelector(".std-ref");
          const v = r.querySelector(".claim-verdict");
          return [id ? id.textContent.trim() : null, v ? v.textContent.trim() : ""];
        });
        """
    )
    ids = [r[0] for r in rows]
    assert len(rows) == len(expected), f"{len(rows)} rows for {len(expected)} claims"
    assert sorted(ids) == sorted(expected), set(ids) ^ set(expected)
    for claim_id, text in rows:
        assert text == expected[claim_id], (
            f"{claim_id}: shows {text!r}, record says {expected[claim_id]!r}"
        )


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
