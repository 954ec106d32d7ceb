"""The server's token outlives a restart, and the join links name the address a phone can
reach (issue 36: "the bookmarked GM link answers 401 after a restart"; "--host 0.0.0.0 prints
links and QR codes with the machine's LAN address, not 127.0.0.1"). A real ``vigile serve``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from vigile.store import Store
from vigile.web.serve import lan_address
from web_server import Server


def _status(base: str, token: str) -> int:
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.get(f"{base}/api/v1/encounters", headers=headers, timeout=10).status_code


def test_the_store_keeps_only_the_digest_of_the_servers_token(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 's.db'}") as store:
        assert store.server_token_digest() is None
        digest = store.keep_server_token("first-token-0123456789")
        # SHA-256 of the token, worked out apart from the store's own helper
        import hashlib

        assert digest == hashlib.sha256(b"first-token-0123456789").hexdigest()
        assert store.server_token_digest() == digest
        store.keep_server_token("second-token-0123456789")
        assert store.server_token_digest() == hashlib.sha256(b"second-token-0123456789").hexdigest()


def test_the_gm_link_still_opens_after_a_restart_until_a_new_token_is_asked_for(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'kept.db'}"
    first = Server(db, token=None).start()
    try:
        drawn = first.token
        assert drawn is not None and len(drawn) >= 32
        assert _status(first.base, drawn) == 200
    finally:
        first.stop()
    again = Server(db, token=None).start()
    try:
        assert again.token is None  # not printed again: only its digest is kept
        assert any("still works" in line for line in again.output)
        assert _status(again.base, drawn) == 200
        assert _status(again.base, "not-the-token-0123456789") == 401
    finally:
        again.stop()
    rotated = Server(db, token=None, args=("--new-token",)).start()
    try:
        assert rotated.token is not None and rotated.token != drawn
        assert _status(rotated.base, drawn) == 401
        assert _status(rotated.base, rotated.token) == 200
    finally:
        rotated.stop()


def test_a_token_and_a_new_token_together_are_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vigile", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
         "--token", "given-token-0123456789", "--new-token"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--new-token" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(lan_address() is None, reason="this machine has no LAN address")
def test_a_lan_server_prints_its_lan_address_and_builds_join_links_with_it(
    tmp_path: Path,
) -> None:
    running = Server(f"sqlite:///{tmp_path / 'lan.db'}", args=("--host", "0.0.0.0")).start()
    try:
        assert running.base.startswith(f"http://{lan_address()}:")
        made = httpx.post(
            f"{running.base.replace(str(lan_address()), '127.0.0.1')}/api/v1/encounters",
            json={"scenario": "night-raid"},
            headers={"Authorization": f"Bearer {running.token}"},
            timeout=30,
        )
        assert made.status_code == 201
        # opened at 127.0.0.1, the links still name the LAN address a phone can reach
        urls = made.json()["urls"]
        assert urls["players"]["Kage"].startswith(f"{running.base}/encounters/")
    finally:
        running.stop()


def test_a_public_url_names_the_links_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    public = "https://vigile.example.org"
    running = Server(f"sqlite:///{tmp_path / 'pub.db'}", args=("--public-url", public)).start()
    try:
        made = httpx.post(
            f"{running.base}/api/v1/encounters",
            json={"scenario": "night-raid"},
            headers={"Authorization": f"Bearer {running.token}"},
            timeout=30,
        )
        assert made.json()["urls"]["table"].startswith(f"{public}/encounters/")
    finally:
        running.stop()
    done = subprocess.run(
        [sys.executable, "-m", "vigile", "serve", "--public-url", "ftp://x/path"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "--public-url" in done.stderr
