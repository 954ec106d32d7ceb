#!/usr/bin/env bash
# CI: Debian's Chromium for the browser tests (tests/test_browser.py). Playwright drives it at
# /usr/bin/chromium; it never downloads a browser of its own (no `playwright install`: this
# machine's network is closed to it). Run as root; does nothing when chromium is there.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }
fi
/usr/bin/chromium --version
