"""Paths and Chromium settings shared by the browser suite's fixtures and tests."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--window-size=1280,1000",
)
ENABLE = (
    "browser suite skipped: install Debian's chromium and chromium-driver "
    "(sudo apt-get install chromium chromium-driver) and the dev extra (selenium) to enable it"
)
