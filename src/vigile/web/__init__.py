"""The web layer: ``vigile serve``'s FastAPI app, its JSON API (``/api/v1``), SSE streams.

Thin, like the CLI: it parses, calls :mod:`vigile.live` and the store, and sends what each
viewer may see (the server decides what leaves it). :func:`create_app` builds the one app
object; :func:`vigile.web.serve.serve` runs it on uvicorn.
"""

from vigile.web.app import create_app

__all__ = ["create_app"]
