"""``vigile serve``: the JSON API (and the pages) for a table's live play."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Annotated, Final

import typer

from vigile.errors import InputError

ENV_TOKEN: Final = "VIGILE_TOKEN"
MIN_TOKEN: Final = 16

HostOpt = Annotated[
    str,
    typer.Option(
        "--host",
        help="Address to listen on; another than 127.0.0.1 opens the game to the network.",
    ),
]
PortOpt = Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database: a URL (sqlite:///FILE, postgresql+psycopg://...) or a SQLite file "
        "(else $VIGILE_DB, else vigile.db in the user's data directory).",
    ),
]
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar=ENV_TOKEN,
        help="The GM's server token, kept in the database for the next starts (else the one "
        "kept there, else a new one is drawn and printed).",
        show_envvar=True,
    ),
]
NewTokenOpt = Annotated[
    bool,
    typer.Option(
        "--new-token",
        help="Draw a new server token, print it and keep it (the GM's old link stops working).",
    ),
]
PublicUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        metavar="URL",
        help="Where players reach the server (http://HOST:PORT, or the address of a proxy in "
        "front of it), for the join links and QR codes (else the LAN address with --host "
        "0.0.0.0, or the address each page was opened at).",
    ),
]
CorsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--cors-origin",
        metavar="ORIGIN",
        help="A web origin allowed to call the API from a browser (repeatable; never '*').",
    ),
]
WorkspaceOpt = Annotated[
    str | None,
    typer.Option(
        "--workspace",
        metavar="DIR",
        help="The folder whose scenarios the editor (/editor) may open and save "
        "(else it only downloads).",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="A Dask scheduler (tcp://HOST:PORT) for the editor's sweeps (else local processes).",
    ),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        min=1,
        max=64,
        help="Server processes sharing the port (a club's many tables); over PostgreSQL each "
        "hears the others' writes at once (LISTEN/NOTIFY), over SQLite within a second.",
    ),
]
DemoOpt = Annotated[
    bool, typer.Option("--demo", help="Start a night raid encounter and print its links.")
]


def check_token(token: str) -> str:
    if len(token) < MIN_TOKEN or len(token) > 256:
        raise InputError(
            f"{MIN_TOKEN} to 256 characters: a short token is soon guessed", where="--token"
        )
    if not token.isascii() or not token.isprintable() or " " in token:
        raise InputError("printable ASCII characters without spaces", where="--token")
    return token


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def register(root: typer.Typer) -> None:
    """Add ``serve`` to the ``vigile`` command."""

    @root.command()
    def serve(
        host: HostOpt = "127.0.0.1",
        port: PortOpt = 8765,
        db: DbOpt = None,
        token: TokenOpt = None,
        new_token: NewTokenOpt = False,
        public_url: PublicUrlOpt = None,
        cors_origin: CorsOpt = None,
        demo: DemoOpt = False,
        workspace: WorkspaceOpt = None,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = 1,
    ) -> None:
        """Serve live play over HTTP: a JSON API with live streams, on 127.0.0.1 by default."""
        from urllib.parse import quote

        from vigile.store import Store, resolve_url
        from vigile.web import create_app
        from vigile.web.app import check_origin, web_origin
        from vigile.web.serve import Settings, bind, is_loopback, serve, serve_workers, url_base

        if token is not None and new_token:
            raise InputError("either --token or --new-token, not both", where="--new-token")
        given = check_token(token) if token is not None else None
        public = web_origin(public_url, where="--public-url") if public_url is not None else None
        origins = [check_origin(origin) for origin in cors_origin or []]
        folder = _workspace(workspace)
        if scheduler is not None:
            from vigile.sim.executors import check_scheduler

            check_scheduler(scheduler)
        with Store(db) as store:
            shown = given
            if shown is None and (new_token or store.server_token_digest() is None):
                shown = secrets.token_urlsafe(32)
            digest = store.server_token_digest() if shown is None else None
            sock = bind(host, port)
            base = url_base(sock, host)
            wildcard = host in ("0.0.0.0", "::", "")
            app = create_app(
                store,
                gm_token=shown,
                gm_digest=digest,
                cors_origins=origins,
                public_base=public or (base if wildcard else None),
            )
            if shown is not None:
                store.keep_server_token(shown)
            from vigile.web.editor import configure

            configure(app, workspace=folder, scheduler=scheduler)
            if not is_loopback(host):
                print(
                    f"vigile serve: warning: listening on {host}: anyone who can reach this "
                    "machine and holds a token can play, over plain HTTP; share tokens with "
                    "your table only",
                    file=sys.stderr,
                    flush=True,
                )
            if shown is not None:
                _say(f"GM: {base}/?token={quote(shown, safe='')}")
            else:
                _say(
                    f"GM: {base}/ (open the GM link printed when this database's token was "
                    "made: it still works; --new-token makes a new one)"
                )
            _say(f"API docs: {base}/docs")
            _say(f"database: {store.url}")
            if folder is not None:
                opened = f"?token={quote(shown, safe='')}" if shown is not None else ""
                _say(f"editor: {base}/editor{opened} (saves in {folder})")
            if demo:
                _demo(store, base)
            from vigile.sim.warmup import warm_in_background

            warm_in_background()  # the kernels compile behind: the editor's simulations wait less
            if workers == 1:
                serve(app, sock)
                return
            if store.url.startswith("sqlite"):
                print(
                    f"vigile serve: note: {workers} workers over SQLite: a stream sees another "
                    "worker's writes within a second (over PostgreSQL, at once)",
                    file=sys.stderr,
                    flush=True,
                )
            settings = Settings(
                db=resolve_url(db),
                gm_digest=store.server_token_digest() or "",
                cors_origins=tuple(origins),
                public_base=public or (base if wildcard else None),
                workspace=str(folder) if folder is not None else None,
                scheduler=scheduler,
            )
        serve_workers(settings, sock, workers)


def _workspace(workspace: str | None) -> Path | None:
    """``--workspace``: an existing folder, or None."""
    if workspace is None:
        return None
    import stat

    from vigile.paths import reason, status

    folder = Path(workspace).expanduser().absolute()
    try:
        found = status(folder)
    except OSError as error:  # too long a name, a loop of links
        raise InputError(f"{workspace}: {reason(error)}", where="--workspace") from None
    if found is None or not stat.S_ISDIR(found.st_mode):
        raise InputError(f"{workspace}: no such folder", where="--workspace")
    return folder


def _demo(store: object, base: str) -> None:
    """Create the night raid and print its links."""
    from urllib.parse import quote

    from vigile.live import Encounter
    from vigile.scene.loader import bundled_path
    from vigile.store import Store

    assert isinstance(store, Store)
    path = bundled_path("night-raid")
    encounter, tokens = Encounter.create(
        store, text=path.read_text("utf-8"), fmt="yaml", source=path.name
    )
    _say(f"demo encounter {encounter.id}: {encounter.row.name}")
    for who, token in tokens.items():
        _say(f"  {who}: {base}/encounters/{encounter.id}?token={quote(token, safe='')}")
    _say(
        "Open the gm link in a browser to play the night raid; each player opens their own "
        "link (on a phone: --host 0.0.0.0), a shared screen the table's. Every action is saved: "
        "Ctrl-C stops the server, and the encounter list (the GM link) resumes it."
    )
