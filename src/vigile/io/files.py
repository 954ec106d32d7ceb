"""Writing a user's file: the one place where vigile writes one (plots, tables, plans).

Two steps, both here:

* :func:`check_target`, before any work: the path is refused (an :class:`InputError` naming the
  option, exit code 2) when its extension is not one the option writes, when its name holds a
  control, invisible or bidirectional character (:func:`check_name`), when it is a folder, a
  symbolic link or anything but a regular file, when its folder is missing or cannot be
  written, when the name itself cannot be used (too long, a loop of links: the system's reason),
  or when the file exists and ``force`` was not given (``--force``). A symbolic link is never
  written through, even with ``--force``: the file written is always the one named, in the folder
  named.
* :func:`write_bytes` / :func:`write_text` / :func:`write_with`: the content goes to a new
  temporary file in the same folder (created exclusively, never through a link), is flushed
  and ``fsync``-ed, takes the old file's permissions, then replaces the target in one
  ``os.replace`` (atomic on POSIX and Windows), and the folder is synced. On any failure (a full
  disk, a kill, an exception while drawing) the old file is intact; the temporary file is
  removed, except after a kill, where a hidden ``.NAME.*.tmp`` may stay beside it.

Reading a path the user named goes through :func:`status` (its kind, or None where nothing is
there; the name's own trouble as an :class:`OSError` the caller words). A folder that others
may change while vigile works in it (the editor's workspace) is read and written
relative to a descriptor of each folder, opened one name at a time without following a link
(:func:`open_folder`, :func:`read_at`, :func:`write_at`, :func:`files_below`): a folder swapped
for a symbolic link mid-way is refused, never followed out.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from vigile.errors import InputError
from vigile.io.safe import printable
from vigile.paths import reason, status

__all__ = [
    "Folder",
    "check_name",
    "check_target",
    "files_below",
    "open_folder",
    "read_at",
    "reason",
    "same_file",
    "same_folder",
    "status",
    "write_at",
    "write_bytes",
    "write_text",
    "write_with",
]

MAX_NAME_BYTES = 255
"""Bytes of one name in a folder on every common file system (ext4, APFS, NTFS in UTF-16 units)."""
_NOT_IN_NAMES = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
"""Unicode categories a file name vigile writes may not hold: controls (ESC, DEL, C1), format
characters (the bidirectional overrides and isolates U+202A..U+202E, U+2066..U+2069, the marks
U+200E/U+200F, zero-width characters), lone surrogates, and line or paragraph separators."""
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_BINARY = getattr(os, "O_BINARY", 0)
AT_FOLDER = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and bool(_NOFOLLOW)
"""Files can be opened and replaced relative to a folder's descriptor (POSIX); elsewhere
(Windows) the workspace falls back on paths, checked before and after."""


def _lstatus(path: Path) -> os.stat_result | None:
    """As :func:`status`, without following a link at the end of ``path``."""
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except ValueError:
        raise OSError(errno.EINVAL, "the name holds a NUL character", str(path)) from None


def check_name(name: str, where: str) -> str:
    """``name``, a file name vigile is about to write, if it holds no control, invisible or
    bidirectional character (they make a name read other than it is: ``U+202E`` turns
    ``evil\\u202egpj.yaml`` into ``evillmay.jpg`` on screen); otherwise an :class:`InputError`
    naming the first such character."""
    for char in name:
        if unicodedata.category(char) in _NOT_IN_NAMES:
            code = f"U+{ord(char):04X}"
            label = unicodedata.name(char, "")
            shown = f"{code} {label}" if label else code
            raise InputError(
                f"'{printable(name)}' holds {shown}: a file name may hold no control, invisible "
                "or bidirectional character",
                where=where,
            )
    return name


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
    check_name(path.name, option)
    folder = path.parent
    try:
        found = _lstatus(path)
        inside = status(folder)
    except OSError as error:
        raise InputError(f"{path}: {reason(error)}", where=option) from None
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise InputError(
            f"{path} is a symbolic link: vigile writes only the file named; give the real path",
            where=option,
        )
    if inside is None:
        raise InputError(f"{folder}: no such folder", where=option)
    if not stat.S_ISDIR(inside.st_mode):
        raise InputError(f"{folder}: not a folder", where=option)
    if found is not None:
        if stat.S_ISDIR(found.st_mode):
            raise InputError(f"{path} is a folder, not a file", where=option)
        if not stat.S_ISREG(found.st_mode):
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
    except (OSError, ValueError):
        return False


def write_text(path: Path, text: str, *, option: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"), option=option)


def write_bytes(path: Path, data: bytes, *, option: str) -> None:
    """Write ``data`` to ``path`` atomically."""
    write_with(path, lambda stream: stream.write(data), option=option)


def _temporary_name(name: str) -> str:
    """A hidden, unused name beside ``name`` (``.NAME.1a2b3c4d5e6f.tmp``), within the length a
    folder allows: a long name is cut (at a character) to leave room for the rest."""
    tail = f".{secrets.token_hex(6)}.tmp"
    room = MAX_NAME_BYTES - 1 - len(tail)
    kept = name.encode("utf-8")[:room].decode("utf-8", errors="ignore")
    return f".{kept}{tail}"


def write_with(path: Path, write: Callable[[IO[bytes]], object], *, option: str) -> None:
    """Call ``write`` on a binary stream, then put what it wrote at ``path`` atomically.

    An :class:`OSError` (a full disk, a folder gone) becomes a one-line :class:`InputError`
    naming ``option``; any other exception is raised again. Either way ``path`` is unchanged.
    """
    folder = path.parent
    temporary = folder / _temporary_name(path.name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY
    try:
        descriptor = os.open(temporary, flags, 0o666)  # the umask applies, as to any new file
    except OSError as error:
        raise InputError(f"cannot write {path} ({reason(error)})", where=option) from None
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
                f"cannot write {path} ({reason(error)}); nothing was changed",
                where=option,
            ) from None
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (POSIX); a no-op where folders cannot be opened."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | _DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)


# ------------------------------------------------------------------ a folder others may change


@dataclass(frozen=True)
class Folder:
    """A folder held open: its descriptor (None where the system has no descriptor-relative
    calls, Windows: then the path, checked before and after) and the path it was reached by."""

    descriptor: int | None
    path: Path

    def at(self, name: str) -> tuple[str | Path, dict[str, int]]:
        """What to hand ``os`` for the file ``name`` in this folder."""
        if self.descriptor is None:
            return self.path / name, {}
        return name, {"dir_fd": self.descriptor}


def _open_below(root: Path, parts: Sequence[str]) -> int:
    """A descriptor of ``root/parts…``: ``root`` opened as given (a folder), then each part
    relative to the one before, as a folder, never through a link. OSError otherwise (ELOOP or
    ENOTDIR for a link, ENOENT for a missing folder)."""
    descriptor = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for part in parts:
            inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _check_below(root: Path, parts: Sequence[str]) -> None:
    """Without descriptors: each part below ``root`` is a real folder, not a link; an
    :class:`OSError` otherwise (ENOENT: missing; ENOTDIR: a link or a file)."""
    for i in range(1, len(parts) + 1):
        found = os.lstat(root.joinpath(*parts[:i]))
        if not stat.S_ISDIR(found.st_mode):
            raise OSError(errno.ENOTDIR, "not a folder", str(root.joinpath(*parts[:i])))


@contextlib.contextmanager
def open_folder(root: Path, parts: Sequence[str], *, where: str, shown: str) -> Iterator[Folder]:
    """The folder ``root/parts…``, each name opened relative to the folder before it, never
    through a symbolic link; closed on leaving. A part that is a link, not a folder, or missing
    is an :class:`InputError` naming ``shown`` (the name the user gave)."""
    descriptor: int | None = None
    try:
        if AT_FOLDER:
            descriptor = _open_below(root, parts)
        else:
            _check_below(root, parts)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            message = "a folder on the way is a symbolic link or not a folder"
        elif error.errno == errno.ENOENT:
            message = "no such folder"
        else:
            message = reason(error)
        raise InputError(f"{shown!r}: {message}", where=where) from None
    try:
        yield Folder(descriptor, root.joinpath(*parts))
    finally:
        if descriptor is not None:
            os.close(descriptor)


def same_folder(folder: Folder, root: Path, parts: Sequence[str]) -> bool:
    """``folder`` is still the one reached from ``root`` through ``parts`` without following a
    link: nothing was moved or swapped under it (asked before and after a write)."""
    try:
        if folder.descriptor is None:
            _check_below(root, parts)
            return True
        again = _open_below(root, parts)
        try:
            now = os.fstat(again)
        finally:
            os.close(again)
        held = os.fstat(folder.descriptor)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def read_at(folder: Folder, name: str, *, limit: int, where: str, shown: str) -> bytes | None:
    """The bytes of the file ``name`` in ``folder`` (at most ``limit + 1``, so that the caller
    sees a file too large); None when there is none. A link, a folder or anything but a regular
    file is an :class:`InputError`: it is never opened through."""
    target, at = folder.at(name)
    flags = os.O_RDONLY | _NOFOLLOW | _BINARY | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(target, flags, **at)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK):
            message = "is a symbolic link: only real files are read"
        elif error.errno == errno.EISDIR:
            message = "is a folder, not a file"
        else:
            message = f"cannot be read ({reason(error)})"
        raise InputError(f"{shown!r} {message}", where=where) from None
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise InputError(f"{shown!r} is not a regular file", where=where)
        return stream.read(limit + 1)


def write_at(
    folder: Folder,
    name: str,
    data: bytes,
    *,
    where: str,
    shown: str,
    unmoved: Callable[[], bool] = lambda: True,
) -> None:
    """Write ``data`` as the file ``name`` of ``folder``, atomically: a new temporary file
    created there exclusively without following a link, flushed and synced, given the old
    file's permissions, then renamed over ``name`` inside that same folder (both names relative
    to its descriptor), and the folder synced. ``unmoved`` is asked just before the rename:
    when it says the folder was moved or swapped, nothing is written. An :class:`InputError`
    for any failure, the old file intact."""
    temporary = _temporary_name(name)
    target, at = folder.at(name)
    spare, _ = folder.at(temporary)
    try:
        old = os.stat(target, follow_symlinks=False, **at)
    except FileNotFoundError:
        old = None
    except OSError as error:
        raise InputError(f"cannot write {shown!r} ({reason(error)})", where=where) from None
    if old is not None and not stat.S_ISREG(old.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(old.st_mode) else "not a regular file"
        raise InputError(f"{shown!r} is {kind}: only real files are written", where=where)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY
    try:
        descriptor = os.open(spare, flags, 0o666, **at)  # the umask applies, as to any new file
    except OSError as error:
        raise InputError(f"cannot write {shown!r} ({reason(error)})", where=where) from None
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            if old is not None and hasattr(os, "fchmod"):
                os.fchmod(stream.fileno(), stat.S_IMODE(old.st_mode))
            os.fsync(stream.fileno())
        if not unmoved():
            raise InputError(
                f"{shown!r}: its folder was moved or replaced during the save; nothing was written",
                where=where,
            )
        if folder.descriptor is None:
            os.replace(spare, target)
        else:
            os.replace(spare, target, src_dir_fd=folder.descriptor, dst_dir_fd=folder.descriptor)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(spare, **at)
        if isinstance(error, OSError):
            raise InputError(
                f"cannot write {shown!r} ({reason(error)}); nothing was changed", where=where
            ) from None
        raise
    if folder.descriptor is None:
        _sync_folder(folder.path)
    else:
        with contextlib.suppress(OSError):
            os.fsync(folder.descriptor)


def files_below(root: Path, *, depth: int, suffixes: Iterable[str], limit: int) -> list[str]:
    """The regular files of ``root`` and of its folders down to ``depth`` levels below whose
    names end in one of ``suffixes``, as ``/``-separated relative names, sorted, at most
    ``limit``: no symbolic link is followed, to a file or to a folder."""
    allowed = tuple(s.lower() for s in suffixes)
    found: list[str] = []

    def walk(parts: tuple[str, ...]) -> None:
        try:
            with open_folder(root, parts, where="workspace", shown="/".join(parts)) as folder:
                where: int | Path = folder.path if folder.descriptor is None else folder.descriptor
                with os.scandir(where) as entries:
                    listed = sorted(
                        (e.name, e.is_dir(follow_symlinks=False), e.is_file(follow_symlinks=False))
                        for e in entries
                    )
        except (InputError, OSError):
            return
        for name, is_dir, is_file in listed:
            if is_file and name.lower().endswith(allowed):
                found.append("/".join((*parts, name)))
            elif is_dir and len(parts) < depth:
                walk((*parts, name))

    walk(())
    return sorted(found)[:limit]
