"""How the system answers a path: its status, or why it refused the name.

The lowest layer (beside :mod:`vigile.errors`), so that every layer that reads a file the
user named (house rules, scenarios, imports, the CLI's outputs) words a refused name the same
way: ``File name too long`` is one line naming the path, never a traceback.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path


def reason(error: OSError) -> str:
    """Why the system refused a path, in its own words (``File name too long``)."""
    return error.strerror or str(error)


def status(path: Path) -> os.stat_result | None:
    """``path``'s status, links followed; None when nothing is there (no such file, or a file
    where a folder should be). An :class:`OSError` when the name itself cannot be looked up: a
    name longer than the file system allows, a loop of symbolic links, a folder that may not be
    searched, a NUL character."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except ValueError:  # "embedded null byte": never from a shell, only from a caller
        raise OSError(errno.EINVAL, "the name holds a NUL character", str(path)) from None
