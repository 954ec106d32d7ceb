"""Debian's Chromium driven by Playwright, for the browser tests (tests/test_browser*.py).

Playwright never downloads a browser here: it launches ``/usr/bin/chromium`` (installed by
``scripts/ci_chromium.sh``) with the flags this closed machine needs. Without playwright or
Chromium the browser tests are skipped, except under ``CI``, where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DOCS = Path(__file__).resolve().parent.parent / "docs"
SHOTS = os.environ.get("VIGILE_SCREENSHOTS") == "1"
"""Write the README's screenshots into docs/ (only when asked: CI leaves the tree clean)."""
WAIT_MS = 15_000


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: CI runs the browser tests (scripts/ci_chromium.sh)")
    pytest.skip(reason)


def launched_chromium() -> Iterator[Any]:
    """Chromium, launched for one test module (the ``chromium`` fixture of conftest.py)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed")
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is missing (scripts/ci_chromium.sh installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def settled_html(page: Any, selector: str, quiet_ms: int = 300) -> str:
    """The element's HTML once it has stopped changing for ``quiet_ms`` (a page may still be
    rendering a later event of its stream when the text a test waited for appears)."""
    html = page.inner_html(selector)
    for _ in range(WAIT_MS // quiet_ms):
        page.wait_for_timeout(quiet_ms)
        again = page.inner_html(selector)
        if again == html:
            return html
        html = again
    return html
