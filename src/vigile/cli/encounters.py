"""``vigile encounters``: the saved live encounters (``list``, ``archive``).

An encounter is saved by ``vigile play`` (and the web server) as it is played; ``list`` shows
them, newest first, with the id to resume one (``vigile play --resume ID``: any unique prefix).
Archiving keeps an encounter and its log, readable, but takes no more actions.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from vigile.cli.options import JsonOpt, LangOpt, json_text
from vigile.cli.play import SHORT_ID, DbOpt, find_encounter
from vigile.io.i18n import Lang, tr
from vigile.io.safe import printable

encounters_app = typer.Typer(
    help="The saved live encounters (vigile play).", no_args_is_help=True, add_completion=False
)


@encounters_app.command("list")
def list_encounters(
    db: DbOpt = None,
    archived: Annotated[
        bool, typer.Option("--archived", help="Show the archived encounters too.")
    ] = False,
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """The saved encounters, newest first: id, when, records, dice, ruleset, name."""
    from vigile.store import Store

    with Store(db) as store:
        rows = store.encounters()
        if archived:
            rows += store.encounters(archived=True)
    rows.sort(key=lambda row: (row.created, row.id), reverse=True)
    if json_out:
        data = [
            {
                "id": row.id,
                "name": row.name,
                "ruleset": row.ruleset,
                "source": row.source,
                "created": row.created.isoformat(),
                "records": row.last_seq,
                "dice": row.dice,
                "seed": row.seed,
                "archived": row.archived,
            }
            for row in rows
        ]
        sys.stdout.write(json_text(data) + "\n")
        return
    if not rows:
        sys.stdout.write(tr("console.list.none", lang) + "\n")
        return
    lines = [tr("console.list.header", lang)]
    for row in rows:
        mark = f" {tr('console.list.archived', lang)}" if row.archived else ""
        lines.append(
            f"{row.id[:SHORT_ID]}  {row.created:%Y-%m-%d %H:%M}  {row.last_seq:>7}  "
            f"{row.dice:<6}  {row.ruleset:<10}  {printable(row.name)}{mark}"
        )
    sys.stdout.write("\n".join(lines) + "\n")


@encounters_app.command("archive")
def archive(
    encounter_id: Annotated[str, typer.Argument(metavar="ID", help="An id or a unique prefix.")],
    db: DbOpt = None,
    lang: LangOpt = Lang.EN,
) -> None:
    """Archive an encounter: it stays, readable, and takes no more actions."""
    from vigile.store import Store

    with Store(db) as store:
        row = find_encounter(store, encounter_id, lang)
        store.archive(row.id)
    sys.stdout.write(tr("console.list.archived_one", lang, {"id": row.id[:SHORT_ID]}) + "\n")


def register(app: typer.Typer) -> None:
    """Add ``encounters`` to the main command."""
    app.add_typer(encounters_app, name="encounters")
