"""Fixtures of the browser suite: the built book served on localhost and one headless Chromium.

The suite needs Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``) and the ``selenium`` package; without them every test is skipped with
one line saying how to enable it. It reads the book from ``_build/html`` (``make strict-book``
builds it; ``make browser`` does both).
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import tempfile
import threading
import time

import pytest
from book_site import CHROMEDRIVER, CHROMIUM, ENABLE, FLAGS, SHOTS, SITE


def _missing() -> str | None:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        return ENABLE
    try:
        import selenium  # noqa: F401
    except ImportError:
        return ENABLE
    return None


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    if reason:
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output clean
        pass


@pytest.fixture(scope="session")
def site():
    """Serve ``_build/html`` on 127.0.0.1 (a free port) for the whole session."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"no built book at {SITE}: run `make strict-book` (or `make browser`) first")
    handler = functools.partial(_Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium with a fresh profile, its network requests logged."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mlgeom-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def load_times():
    """Collect each page's load time and write them next to the screenshots at the end."""
    times: dict[str, dict[str, float]] = {}
    yield times
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "page-load.json").write_text(json.dumps(times, indent=2, sort_keys=True) + "\n")


def pytest_terminal_summary(terminalreporter):
    path = SHOTS / "page-load.json"
    if path.exists() and path.stat().st_mtime > time.time() - 3600:
        times = json.loads(path.read_text())
        if times:
            worst = max(times.items(), key=lambda kv: kv[1]["ready_ms"])
            total = sum(v["ready_ms"] for v in times.values())
            terminalreporter.write_line(
                f"browser: {len(times)} pages, rendered in {total / 1000:.1f} s "
                f"(slowest {worst[0]}: {worst[1]['ready_ms']:.0f} ms); screenshots in {SHOTS}"
            )
