"""Writing a user's file: the one place where vigile writes one (plots, tables, plans).

Two steps, both here:

* :func:`check_target`, before any work: the path is refused (an :class:`InputError` naming the
  option, exit code 2) when its extension is not one the option writes, when it is a folder,
  a symbolic link or anything but a regular file, when its folder is missing or cannot be
  written, or when the file exists and ``force`` was not given (``--force``). A symbolic link
  is never written through, even with ``--force``: the file written is always the one named,
  in the folder named.
* :func:`write_bytes` / :func:`write_text` / :func:`write_with`: the content goes to a new
  temporary file in the same folder (created exclusively, never through a link), is flushed
  and ``fsync``-ed, takes the old file's permissions, then replaces the target in one
  ``os.replace`` (atomic on POSIX and Windows), and the folder is synced. On any failure (a full
  disk, a kill, an exception while drawing) the old file is intact; the temporary file is
  removed, except after a kill, where a hidden ``.NAME.*.tmp`` may stay beside it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from vigile.errors import InputError

__all__ = ["check_target", "same_file", "write_bytes", "write_text", "write_with"]


def check_target(
    path: Path,
    option: str,
    *,
    suffixes: Iterable[str],
    kind: str,
    force: bool = False,
    may_replace: bool = False,
) -> Path:
    """``path`` if the option may write there; otherwise a one-line :class:`InputError`.

    ``suffixes``: the extensions the option writes (``kind`` names them in the message, e.g.
    "a CSV table"). ``may_replace``: an existing file may be replaced without ``force`` (a plan
    written back onto its own scenario).
    """
    allowed = tuple(s.lower() for s in suffixes)
    if path.suffix.lower() not in allowed:
        raise InputError(
            f"{path.name}: {kind} is written as {' or '.join(allowed)}, not "
            f"{path.suffix or 'a file without extension'}",
            where=option,
        )
    if path.is_symlink():
        raise InputError(
            f"{path} is a symbolic link: vigile writes only the file named; give the real path",
            where=option,
        )
    folder = path.parent
    if not folder.exists():
        raise InputError(f"{folder}: no such folder", where=option)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder", where=option)
    if path.exists():
        if path.is_dir():
            raise InputError(f"{path} is a folder, not a file", where=option)
        if not path.is_file():
            raise InputError(f"{path} is not a regular file", where=option)
        if not (force or may_replace):
            raise InputError(f"{path} exists: add --force to replace it", where=option)
        if not os.access(path, os.W_OK):
            raise InputError(f"{path} is read-only", where=option)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"cannot write in {folder} (permission denied)", where=option)
    return path


def same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` name the same existing file."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def write_text(path: Path, text: str, *, option: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"), option=option)


def write_bytes(path: Path, data: bytes, *, option: str) -> None:
    """Write ``data`` to ``path`` atomically."""
    write_with(path, lambda stream: stream.write(data), option=option)


def write_with(path: Path, write: Callable[[IO[bytes]], object], *, option: str) -> None:
    """Call ``write`` on a binary stream, then put what it wrote at ``path`` atomically.

    An :class:`OSError` (a full disk, a folder gone) becomes a one-line :class:`InputError`
    naming ``option``; any other exception is raised again. Either way ``path`` is unchanged.
    """
    folder = path.parent
    temporary = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(temporary, flags, 0o666)  # the umask applies, as to any new file
    except OSError as error:
        raise InputError(f"cannot write {path} ({error.strerror or error})", where=option) from None
    try:
        with os.fdopen(descriptor, "wb") as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(FileNotFoundError):
            old = path.lstat()
            if stat.S_ISREG(old.st_mode):
                os.chmod(temporary, stat.S_IMODE(old.st_mode))
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise InputError(
                f"cannot write {path} ({error.strerror or error}); nothing was changed",
                where=option,
            ) from None
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (POSIX); a no-op where folders cannot be opened."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
