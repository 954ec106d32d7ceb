"""Importers of the maps designers already draw: Universal VTT files (Dungeondraft, DungeonFog,
Arkenforge) and Foundry VTT scene exports.

::

    imported = read_map("crypt.dd2vtt")                 # an ImportedMap, in grid squares
    part = draft(imported, ruleset="dnd35", file="crypt.dd2vtt")   # in feet: 5 ft a square
    text = skeleton_text(part, background="crypt.png")  # a scenario but for its actors
    text = merged_text(existing_yaml, part, "crypt.png")   # or into a scenario, comments kept

:func:`read_map` tells the format by the file's name (``.dd2vtt``, ``.df2vtt``, ``.uvtt``), or
for a ``.json`` by its fields; what each format's fields become is in
:mod:`~vigile.scene.importers.uvtt` and :mod:`~vigile.scene.importers.foundry`, the limits in
:mod:`~vigile.scene.importers.imported`. Nothing here writes a file: ``vigile scenario import``
does, atomically (:mod:`vigile.io.files`).
"""

from __future__ import annotations

from pathlib import Path

from vigile.scene.importers.foundry import looks_like_foundry, read_foundry
from vigile.scene.importers.imported import (
    MAX_GRID_COORD,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_SIDE,
    MAX_JSON_VALUES,
    MAX_MAP_BYTES,
    MAX_WALL_POINTS,
    ImportedMap,
    Lamp,
    MapFileError,
    MapImage,
    Segment,
    parse_json,
    plain_name,
    read_bytes,
)
from vigile.scene.importers.scenario import Draft, default_scale, draft, merged_text, skeleton_text
from vigile.scene.importers.uvtt import SUFFIXES as UVTT_SUFFIXES
from vigile.scene.importers.uvtt import looks_like_uvtt, read_uvtt

__all__ = [
    "MAX_GRID_COORD",
    "MAX_IMAGE_BYTES",
    "MAX_IMAGE_SIDE",
    "MAX_JSON_VALUES",
    "MAX_MAP_BYTES",
    "MAX_WALL_POINTS",
    "UVTT_SUFFIXES",
    "Draft",
    "ImportedMap",
    "Lamp",
    "MapFileError",
    "MapImage",
    "Segment",
    "default_scale",
    "draft",
    "load_map",
    "merged_text",
    "plain_name",
    "read_map",
    "skeleton_text",
]


def read_map(path: str | Path, *, simplify: float = 0.0) -> ImportedMap:
    """The map in a Universal VTT file or a Foundry scene export; a :class:`MapFileError`
    naming the file and the JSON path when it cannot be read. ``simplify``: drop the wall
    points within that many squares of the line through their neighbours (0: only points on
    a straight run)."""
    file = Path(path)
    return load_map(read_bytes(file, str(path)), file=str(path), simplify=simplify)


def load_map(data: bytes, *, file: str, simplify: float = 0.0) -> ImportedMap:
    """Like :func:`read_map`, for a file's bytes already in memory (``file`` names it)."""
    document = parse_json(data, file)
    stem = Path(file).stem
    name = plain_name(stem, "imported map")
    suffix = Path(file).suffix.lower()
    if suffix in UVTT_SUFFIXES or (suffix != ".json" and looks_like_uvtt(document)):
        return read_uvtt(document, file=file, name=name, simplify=simplify)
    if looks_like_uvtt(document):
        return read_uvtt(document, file=file, name=name, simplify=simplify)
    if looks_like_foundry(document):
        return read_foundry(document, file=file, name=name)
    raise MapFileError(
        "neither a Universal VTT map (no `resolution`) nor a Foundry scene (no `walls`): "
        "vigile imports .dd2vtt, .df2vtt, .uvtt and Foundry scene exports (.json)",
        file=file,
    )
