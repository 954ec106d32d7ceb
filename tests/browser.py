"""Debian's Chromium driven by Playwright, for the browser tests (tests/test_browser*.py).

Playwright never downloads a browser here: it launches ``/usr/bin/chromium`` (installed by
``scripts/ci_chromium.sh``) with the flags this closed machine needs. Without playwright or
Chromium the browser tests are skipped, except under ``CI``, where they fail.

Every page the browser tests open runs under the server's Content-Security-Policy
(:mod:`vigile.web.headers`), and every violation a page reports (its
``securitypolicyviolation`` events, and Chromium's console errors about the policy) is kept by
:class:`Watched`: conftest.py fails a test whose pages reported one (issue 34). So a test's
``wait_for_function`` takes a function (``"() => ..."``): Playwright evaluates a bare expression
with ``eval``, which the policy refuses.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
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


REPORT = """
(() => {
  const report = (event) => window.vigileViolation && window.vigileViolation({
    page: String(location.href).replace(/token=[^&]*/g, "token=…"),
    directive: event.effectiveDirective || event.violatedDirective,
    blocked: event.blockedURI, sample: event.sample,
    where: event.sourceFile + ":" + event.lineNumber,
  });
  document.addEventListener("securitypolicyviolation", report, true);
})();
"""
"""Run in every page and frame before its own scripts: each violation, to Python."""


def policy_report(report: dict[str, Any]) -> str:
    return (
        f"{report.get('page')}: {report.get('directive')} blocked {report.get('blocked')!r} "
        f"(sample {report.get('sample')!r}, at {report.get('where')})"
    )


def watch(context: Any, found: list[str]) -> Any:
    """Keep in ``found`` every Content-Security-Policy violation the context's pages report:
    the ``securitypolicyviolation`` events, and Chromium's console errors about the policy (an
    ``eval`` refused, an inline handler refused)."""
    context.expose_binding("vigileViolation", lambda _source, report: found.append(
        policy_report(report)))  # fmt: skip
    context.add_init_script(REPORT)

    def console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            found.append(f"console: {message.text}")

    context.on("console", console)
    return context


@dataclass
class Watched:
    """A launched Chromium whose every new context is watched (:func:`watch`)."""

    browser: Any
    violations: list[str] = field(default_factory=list)

    def new_context(self, **options: Any) -> Any:
        return watch(self.browser.new_context(**options), self.violations)

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def taken(self) -> list[str]:
        """The violations reported since the last call."""
        found = list(self.violations)
        self.violations.clear()
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


def launched_chromium() -> Iterator[Any]:
    """Chromium, launched for one test module (the ``chromium`` fixture of conftest.py),
    every context it opens watched for policy violations (:class:`Watched`)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed")
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is missing (scripts/ci_chromium.sh installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield Watched(launched)
        finally:
            launched.close()


def settled_html(page: Any, selector: str, quiet_ms: int = 300) -> str:
    """The element's HTML once it has stopped changing for ``quiet_ms`` (a page may still be
    rendering a later event of its stream when the text a test waited for appears)."""
    html: str = page.inner_html(selector)
    for _ in range(WAIT_MS // quiet_ms):
        page.wait_for_timeout(quiet_ms)
        again: str = page.inner_html(selector)
        if again == html:
            return html
        html = again
    return html
