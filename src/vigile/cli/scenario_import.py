"""``vigile scenario import FILE``: a map drawn in Dungeondraft, DungeonFog, Arkenforge or
Foundry VTT becomes a scenario, but for its actors.

Thin: :mod:`vigile.scene.importers` reads the map and writes the YAML; this checks the options
and the files to write before any work (:func:`vigile.io.files.check_target`: no file replaced
without ``--force``), then writes the picture and the scenario atomically. With neither
``--out`` nor ``--into`` the scenario goes to stdout and no picture is written. A bad map file
is one line on stderr naming the file and the JSON path, exit code 2, and nothing written.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from vigile.cli.options import JsonOpt, LangOpt
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.io.safe import printable

if TYPE_CHECKING:
    from vigile.scene.importers import Draft, ImportedMap

YAML_SUFFIXES = (".yaml", ".yml")
_SUMMARY = {
    Lang.EN: "{out}: {walls} walls, {doors} doors, {windows}{lights} lights from {source}; one "
    "square is {square} {unit}.",
    Lang.FR: "{out} : {walls} murs, {doors} portes, {windows}{lights} lumières depuis {source} ; "
    "une case fait {square} {unit}.",
}
_WINDOWS = {Lang.EN: "{count} windows, ", Lang.FR: "{count} fenêtres, "}
_PICTURE = {Lang.EN: "the map's picture: {path}", Lang.FR: "l'image de la carte : {path}"}
_NEXT = {
    Lang.EN: "next: add the actors and the plans, then `vigile scenario validate {out}`",
    Lang.FR: "ensuite : ajoutez les acteurs et les plans, puis `vigile scenario validate {out}`",
}
_NOTE = {Lang.EN: "note: {text}", Lang.FR: "remarque : {text}"}


def import_command(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A Universal VTT map (.dd2vtt, .df2vtt, .uvtt) or a Foundry scene export (.json).",
        ),
    ],
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            metavar="GAME",
            help="The game, required unless --into names a scenario: skirmish (cm), starfinder "
            "or dnd35 (ft).",
        ),
    ] = None,
    scale: Annotated[
        float | None,
        typer.Option(
            "--scale",
            metavar="LENGTH",
            help="One grid square in the scenario's unit: 2.5 cm in skirmish (a 25 mm base), "
            "5 ft in the d20 games or the Foundry grid's distance.",
        ),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The scenario's name.")] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help="Write the scenario there (YAML)."),
    ] = None,
    into: Annotated[
        Path | None,
        typer.Option(
            "--into",
            metavar="SCENARIO",
            help="Put the map, walls and lights into this scenario, keeping the rest of it "
            "(comments too); written back unless --out names another file.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing scenario or picture.")
    ] = False,
    simplify: Annotated[
        float,
        typer.Option(
            "--simplify",
            metavar="SQUARES",
            help="Merge wall points within this many squares of a straight line (cave walls).",
        ),
    ] = 0.0,
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """Import a map: walls, doors, windows, lights and picture, as a scenario to add actors
    to. Give the game with --ruleset GAME (skirmish, starfinder, dnd35), or --into SCENARIO."""
    from vigile.io.files import check_target, same_file, write_bytes, write_text
    from vigile.scene.importers import draft, merged_text, plain_name, read_map, skeleton_text

    if not math.isfinite(simplify) or simplify < 0:
        raise InputError(f"{simplify}: a distance in squares, 0 or more", where="--simplify")
    if name is not None and plain_name(name, "") != name:
        raise InputError(
            f"{name!r}: a name of 1 to 60 characters, without control characters or spaces at "
            "its ends",
            where="--name",
        )
    base_text, game = _base(into, ruleset)
    dest = out if out is not None else into
    option = "--out" if out is not None else "--into"
    if dest is not None:
        check_target(
            dest,
            option,
            suffixes=YAML_SUFFIXES,
            kind="a scenario",
            force=force,
            may_replace=into is not None and same_file(dest, into),
        )
    imported = read_map(file, simplify=simplify)
    part = draft(imported, ruleset=game, file=Path(file).name, scale=scale, name=name)
    background, picture, notes = _background(imported, dest, base_text, option, force)
    if base_text is None:
        text = skeleton_text(part, background)
    else:
        text = merged_text(base_text, part, background)
        _check_merged(base_text, text, into)
        notes += _kept(part)
    if dest is None:
        sys.stdout.write(text)
        for note in (*part.notes, *notes):
            sys.stderr.write(printable(_NOTE[lang].format(text=note)) + "\n")
        return
    if picture is not None and imported.image is not None:
        write_bytes(picture, imported.image.data, option=option)
    write_text(dest, text, option=option)
    _report(part, dest, picture, [*part.notes, *notes], json_out, lang)


def _base(into: Path | None, ruleset: str | None) -> tuple[str | None, str]:
    """The scenario to merge into (its text) and the game: ``--into``'s, or ``--ruleset``."""
    from vigile import registry

    if into is None:
        if ruleset is None:
            raise InputError(
                f"which game? one of: {', '.join(registry.names())}", where="--ruleset"
            )
        if ruleset not in registry.names():
            raise InputError(
                f"{ruleset!r} is not a game vigile knows (one of: {', '.join(registry.names())})",
                where="--ruleset",
            )
        return None, ruleset
    from vigile.scene.reading import Refused, parse, read_text

    if into.suffix.lower() not in YAML_SUFFIXES:
        raise InputError(
            f"{into.name}: only a YAML scenario keeps its comments through an import; "
            "write a new one with --out",
            where="--into",
        )
    try:
        text = read_text(into)
        data = parse(text, "yaml")[0]
    except Refused as refused:
        raise InputError(f"{into}: {refused.message}", where="--into") from None
    game = data.get("ruleset") if isinstance(data, dict) else None
    if not isinstance(game, str) or game not in registry.names():
        raise InputError(f"{into}: no ruleset vigile knows", where="--into")
    if ruleset is not None and ruleset != game:
        raise InputError(f"{into} is a {game} scenario, not {ruleset}", where="--ruleset")
    return text, game


def _background(
    imported: ImportedMap, dest: Path | None, base_text: str | None, option: str, force: bool
) -> tuple[str | None, Path | None, list[str]]:
    """The map's ``background`` value, the picture file to write (if any), and notes."""
    from pydantic import ValidationError

    from vigile.io.files import check_target
    from vigile.scene.model import MARKUP_CHARACTERS, MapSize

    notes: list[str] = []
    if imported.image is not None:
        if dest is None:
            notes.append("the map's picture is written only with --out or --into")
            return None, None, notes
        # a name the scenario's ``background`` may hold: L'auberge.yaml draws L_auberge.png
        stem = "".join("_" if c in MARKUP_CHARACTERS or c in "\\:" else c for c in dest.stem)
        picture = dest.with_name(stem + imported.image.suffix)
        check_target(
            picture,
            option,
            suffixes=(imported.image.suffix,),
            kind="the map's picture",
            force=force,
            may_replace=base_text is not None and _names_background(base_text, picture.name),
        )
        return picture.name, picture, notes
    if imported.image_name is not None:
        try:
            MapSize(width=1, height=1, background=imported.image_name)
        except ValidationError:
            notes.append(f"the map's picture {imported.image_name!r} cannot be named here")
            return None, None, notes
        where = " from Foundry's data folder" if imported.source.startswith("Foundry") else ""
        notes.append(
            f"the map's picture is not in the file: copy {imported.image_name}{where} beside "
            "the scenario"
        )
        return imported.image_name, None, notes
    return None, None, notes


def _kept(part: Draft) -> list[str]:
    """What the map says that --into leaves to the scenario (its time, its house rules)."""
    said = [f"`time: {part.time}`"] if part.time != "night" else []
    said += [f"house_rules {'.'.join(_dotted(part.house_rules))}: true"] if part.house_rules else []
    if not said:
        return []
    return [f"the map says {' and '.join(said)}; --into keeps the scenario's own"]


def _dotted(tree: dict[str, object]) -> list[str]:
    key, value = next(iter(tree.items()))
    return [key, *_dotted(value)] if isinstance(value, dict) else [key]


def _names_background(text: str, name: str) -> bool:
    """The scenario's map already names ``name`` as its background (a re-import)."""
    from vigile.scene.reading import Refused, parse

    try:
        data = parse(text, "yaml")[0]
    except Refused:  # pragma: no cover - read a moment ago
        return False
    board = data.get("map") if isinstance(data, dict) else None
    return isinstance(board, dict) and board.get("background") == name


def _check_merged(before: str, after: str, into: Path | None) -> None:
    """Refuse a merge that makes a valid scenario invalid (actors now outside the map, a
    plan through a new wall), listing why; nothing is written."""
    from vigile.scene.loader import check_text

    shown = str(into)
    if check_text(before, file=shown)[1]:
        return  # it did not validate before (a skeleton without actors): nothing to keep
    problems = check_text(after, file=shown)[1]
    if problems:
        listed = "; ".join(str(problem) for problem in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise InputError(
            f"with the imported map the scenario would not validate: {listed}{more}; nothing "
            "was written (write it elsewhere with --out, or move the actors first)",
            where="--into",
        )


def _report(
    part: Draft, dest: Path, picture: Path | None, notes: list[str], as_json: bool, lang: Lang
) -> None:
    walls = len(part.walls) - part.doors - part.windows
    if as_json:
        sys.stdout.write(
            json.dumps(
                {
                    "scenario": str(dest),
                    "picture": None if picture is None else str(picture),
                    "source": part.source,
                    "ruleset": part.ruleset,
                    "units": part.units.value,
                    "square": part.scale,
                    "walls": walls,
                    "doors": part.doors,
                    "windows": part.windows,
                    "lights": len(part.lights),
                    "time": part.time,
                    "notes": notes,
                },
                ensure_ascii=False,
            )
            + "\n"
        )
        return
    lines = [
        _SUMMARY[lang].format(
            out=dest,
            walls=walls,
            doors=part.doors,
            windows=_WINDOWS[lang].format(count=part.windows) if part.windows else "",
            lights=len(part.lights),
            source=part.source,
            square=f"{part.scale:g}",
            unit=part.units.value,
        )
    ]
    if picture is not None:
        lines.append(_PICTURE[lang].format(path=picture))
    lines += [_NOTE[lang].format(text=note) for note in notes]
    lines.append(_NEXT[lang].format(out=dest))
    sys.stdout.write("".join(printable(line) + "\n" for line in lines))
