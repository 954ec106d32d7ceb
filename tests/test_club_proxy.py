"""The club deployment of the README (issue 38): ``vigile serve --workers 2`` over PostgreSQL,
on loopback, behind Debian's nginx with TLS, run with the example configuration
``deploy/nginx/vigile.conf`` itself (its ports, certificate and upstream put in place), and a
certificate this test makes (openssl).

Through the proxy, over HTTPS: the join links are built from the public address; a player's
and the GM's live streams carry every action the GM posts, frame by frame as the writing
worker answered them (the two workers share the port: a stream and a write may land on
different ones); plain HTTP is sent to HTTPS.

Skipped without nginx (``bash scripts/ci_proxy.sh`` installs it) or without
``VIGILE_TEST_PG_URL``; failed under CI in either case."""

# ruff: noqa: F811 - the fixture pg_url, imported

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from test_serve_processes import GRAPPLE, Reader, pg_url  # noqa: F401
from web_server import Server

CONFIG = Path(__file__).parents[1] / "deploy" / "nginx" / "vigile.conf"
NAME = "vigile.example.org"


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None or shutil.which("openssl") is None:
        if os.environ.get("CI"):
            pytest.fail("nginx or openssl is missing: CI installs them (scripts/ci_proxy.sh)")
        pytest.skip("nginx or openssl is missing (bash scripts/ci_proxy.sh installs them)")
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, one day long."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def site(upstream: int, https: int, http: int, cert: Path, key: Path) -> str:
    """The example configuration with this test's ports and certificate, on loopback."""
    text = CONFIG.read_text(encoding="utf-8")
    swaps = [
        (r"server 127\.0\.0\.1:8765;", f"server 127.0.0.1:{upstream};"),
        (r"(?m)^\s*listen \[::\]:.*\n", ""),
        (r"listen 443 ssl", f"listen 127.0.0.1:{https} ssl"),
        (r"listen 80;", f"listen 127.0.0.1:{http};"),
        (r"/etc/ssl/certs/vigile\.example\.org\.pem", str(cert)),
        (r"/etc/ssl/private/vigile\.example\.org\.key", str(key)),
    ]
    for pattern, value in swaps:
        text, count = re.subn(pattern, value, text)
        assert count, f"{pattern!r} is no longer in {CONFIG.name}"
    return text


@pytest.fixture
def proxy(tmp_path: Path, pg_url: str) -> Iterator[tuple[str, str, Server]]:
    """nginx in front of ``vigile serve --workers 2``: (https base, http base, the server)."""
    binary = nginx_binary()
    https, http = free_port(), free_port()
    public = f"https://127.0.0.1:{https}"
    server = Server(pg_url, args=("--workers", "2", "--public-url", public)).start()
    try:
        upstream = int(server.base.rsplit(":", 1)[1])
        cert, key = certificate(tmp_path)
        (tmp_path / "site.conf").write_text(site(upstream, https, http, cert, key), "utf-8")
        for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (tmp_path / folder).mkdir()
        (tmp_path / "nginx.conf").write_text(
            "daemon off;\nmaster_process off;\n"
            f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n  access_log off;\n"
            + "".join(f"  {kind}_temp_path {tmp_path}/{kind.split('_')[0]};\n"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
            + f"  include {tmp_path}/site.conf;\n}}\n",
            "utf-8",
        )  # fmt: skip
        command = [binary, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                   "-e", str(tmp_path / "error.log")]  # fmt: skip
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", https), timeout=1):
                        break
                except OSError:
                    assert process.poll() is None, (tmp_path / "error.log").read_text()
                    assert time.monotonic() < deadline, "nginx did not listen"
                    time.sleep(0.05)
            os.environ["SSL_CERT_FILE"] = str(cert)  # httpx trusts this test's certificate
            yield public, f"http://127.0.0.1:{http}", server
        finally:
            os.environ.pop("SSL_CERT_FILE", None)
            process.send_signal(signal.SIGQUIT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
    finally:
        server.stop()


def test_the_club_deployment_behind_nginx_with_tls(proxy: tuple[str, str, Server]) -> None:
    public, plain, server = proxy
    assert server.token is not None
    auth = {"Authorization": f"Bearer {server.token}"}
    with httpx.Client(base_url=public, headers=auth, timeout=30) as gm:
        assert gm.get("/api/v1/health").status_code == 200
        made = gm.post("/api/v1/encounters", json={"scenario": "night-raid"})
        assert made.status_code == 201, made.text
        body = made.json()
        encounter, tokens, links = body["encounter"]["id"], body["tokens"], body["urls"]
        # The join links: the public address, whatever address vigile itself listens on.
        assert links["players"]["Kage"].startswith(f"{public}/encounters/{encounter}?token=")
        assert links["gm"].startswith(f"{public}/encounters/{encounter}?token=")
        gm_stream = Reader(public, encounter, tokens["gm"])
        kage = Reader(public, encounter, tokens["players"]["Kage"])
        start = int(gm_stream.first("view").id)
        kage.first("view")
        actions = [GRAPPLE, {"do": "wait", "actor": "Kage"}, {"do": "end-turn"},
                   {"do": "wait", "actor": "Kage"}]  # fmt: skip
        played = []
        for action in actions:
            answer = gm.post(f"/api/v1/encounters/{encounter}/actions",
                             json={"action": action, "view": False})  # fmt: skip
            assert answer.status_code == 200, answer.text
            played.append(answer.json())
        assert [p["seq"] for p in played] == list(range(start + 1, start + 5))
        for index, answer in enumerate(played):
            frame = gm_stream.first("events", after=1 + index)
            assert int(frame.id) == answer["seq"]
            assert frame.json() == {"seq": answer["seq"], "events": answer["events"]}
        # Kage is told of his own actions: his frames reach what his view says, nothing missed.
        as_kage = {"Authorization": f"Bearer {tokens['players']['Kage']}"}
        seen = gm.get(f"/api/v1/encounters/{encounter}/view", headers=as_kage).json()
        deadline = time.monotonic() + 10
        while int(kage.frames[-1].id) < seen["seq"]:
            assert kage.error is None, kage.error
            assert time.monotonic() < deadline, [(f.event, f.id) for f in kage.frames]
            time.sleep(0.05)
        told = [e for f in kage.frames if f.event == "events" for e in f.json()["events"]]
        assert told == seen["events"][int(kage.frames[0].id) :]
    # Plain HTTP: sent to HTTPS.
    moved = httpx.get(f"{plain}/encounters", headers={"Host": NAME}, follow_redirects=False)
    assert moved.status_code == 301
    assert moved.headers["location"] == f"https://{NAME}/encounters"
