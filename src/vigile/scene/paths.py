"""Field paths of a scenario, as pydantic reports them and as the user reads them."""

from __future__ import annotations

import re

Loc = tuple[str | int, ...]
"""A field path: keys and list indices, e.g. ``("actors", 3, "position")``."""

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def path_text(loc: Loc) -> str:
    """``actors[3].position``; a key that is not a plain word is quoted: ``plans["Old Kage"]``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _PLAIN.match(part):
            text += f".{part}" if text else part
        else:
            escaped = part.replace("\\", "\\\\").replace('"', '\\"')
            text += f'["{escaped}"]'
    return text or "(top)"
