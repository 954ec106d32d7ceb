"""Ctrl-C on ``vigile serve`` while pages hold their event streams: each stream is ended
properly (its response finished, so a page's EventSource simply reconnects) and the server
stops by itself, with no traceback on the GM's terminal. Before, the open streams held the
server to the end of its grace (``GRACE_S``), then were cut and logged as cancelled tasks.
A real server in a process of its own (one, then two workers), stopped by SIGINT."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_serve_processes import WAIT_S, Reader
from web_server import Server, new_encounter


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_ends_the_open_streams_and_stops_cleanly(tmp_path: Path, workers: int) -> None:
    args = ("--workers", str(workers)) if workers > 1 else ()
    running = Server(f"sqlite:///{tmp_path / 'stop.db'}", args=args).start()
    try:
        with running.client() as gm:
            made = new_encounter(gm)
        encounter, tokens = made["encounter"]["id"], made["tokens"]
        streams = [
            Reader(running.base, encounter, tokens["gm"]),
            Reader(running.base, encounter, tokens["players"]["Kage"]),
            Reader(running.base, encounter, tokens["table"]),
        ]
        for reader in streams:
            reader.first("view")
    finally:
        running.stop()
    # stopped by itself (130: ended by SIGINT, as a shell says of Ctrl-C), not killed
    assert running.process is not None and running.process.returncode in (0, 130), running.output
    for reader in streams:
        assert reader.ended.wait(WAIT_S)
        assert reader.error is None, reader.error  # finished, not cut mid-chunk
    said = "".join(running.output)
    assert "Traceback" not in said and "graceful shutdown exceeded" not in said, said
