"""What the app's routes share: the store, the server's token, the stream hub, and the
encounters each with its replayed game cached (a bounded number of them)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Final

from fastapi import Request

from vigile.live import Encounter
from vigile.store import Store

from .sse import Hub, PageNews

CACHED: Final = 64
"""Encounters whose replayed game a server keeps in memory; the least recently used goes."""


@dataclass
class Context:
    store: Store
    gm_digest: str
    """The SHA-256 digest of the server's token (hex): the token itself is not kept."""
    public_base: str | None = None
    """Where players reach the server (``http://192.168.1.20:8765``), for the join links and
    their QR codes; None: the address each request came to."""
    hub: Hub = field(default_factory=Hub)
    page_news: PageNews | None = None
    """A character page's news in its stream (the pages' :func:`vigile.web.pages.page_news`,
    set where the app has pages); None: a stream asked for news sends events."""
    cached: int = CACHED
    _encounters: OrderedDict[str, Encounter] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def encounter(self, encounter_id: str) -> Encounter:
        """The encounter (:class:`~vigile.store.UnknownEncounter` if there is none), the same
        object for every request, so that two requests share one replayed game and one lock."""
        with self._lock:
            found = self._encounters.get(encounter_id)
            if found is not None:
                self._encounters.move_to_end(encounter_id)
                return found
        opened = Encounter(self.store, encounter_id)
        with self._lock:
            found = self._encounters.setdefault(encounter_id, opened)
            self._encounters.move_to_end(encounter_id)
            while len(self._encounters) > self.cached:
                self._encounters.popitem(last=False)
            return found

    def forget(self, encounter_id: str) -> None:
        with self._lock:
            self._encounters.pop(encounter_id, None)


def context(request: Request) -> Context:
    """The app's context (a FastAPI dependency)."""
    ctx: Context = request.app.state.vigile
    return ctx
