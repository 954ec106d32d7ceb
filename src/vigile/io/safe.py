"""Text from the user, made safe to print on the GM's terminal.

A scenario's own text fields are refused at validation when they hold control characters or
bidirectional overrides (:mod:`vigile.scene.actors`); what else reaches the terminal from the
user (a file name, a house-rule key in an error) goes through :func:`printable`, which writes such
characters as escapes (``\\x1b``, ``\\u202e``) so that they cannot drive the terminal.
"""

from __future__ import annotations

import unicodedata

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    """``text`` with every control character (but new lines and tabs) and every bidirectional
    control written as an escape."""
    out = []
    for char in text:
        if char in "\n\t":
            out.append(char)
        elif char in _BIDI or unicodedata.category(char) in ("Cc", "Cf", "Cs"):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)
