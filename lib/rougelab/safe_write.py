"""The one way rougelab writes a file (``--out`` of the command line, every cache file).

``write_atomic`` writes to a temporary file in the target's folder and renames it over the target, so a
reader sees the old file or the new one, never a part. A symbolic link is written through: the file
at its end gets the new content and the link stays. A FIFO, a device or a socket is refused
(``SpecialFileError``): renaming over it would silently replace it, and writing into it could block
forever; the command line writes to standard output with ``--out -`` instead. A new file gets the mode
the umask allows (as ``open`` gives it), an existing one keeps its mode.

The temporary file is named ``<target name>.rougelab-partial-<pid>-<random>``, so one left by a killed
process is easy to recognise: ``stale_partial_files`` finds those whose process no longer runs.
"""
from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import BinaryIO, Callable

PARTIAL_MARK = ".rougelab-partial-"  # in the name of write_atomic's temporary files
_SPECIAL = ((stat.S_ISFIFO, "named pipe (FIFO)"), (stat.S_ISCHR, "character device"),
            (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"))


class SpecialFileError(ValueError):
    """The target is a FIFO, device, socket or folder: nothing is written there."""


def final_target(target: str | os.PathLike) -> Path:
    """The file a write to ``target`` goes to: ``target``, or the end of the symbolic link(s) it is;
    ``SpecialFileError`` when that is not a regular file (or a name not yet taken)."""
    return _final_target(target)[0]


def _final_target(target: str | os.PathLike) -> tuple[Path, int | None]:
    """``final_target`` and that file's permission bits (None for a name not yet taken), from one ``lstat``
    (and a ``stat`` of a link's end)."""
    path = Path(target)
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            path = Path(os.path.realpath(path))  # a dangling link: its target is created, as the shell's `>` does
            mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path, None
    if stat.S_ISDIR(mode):
        raise SpecialFileError(f"{target} is a folder, not a file: name the file to write")
    for test, kind in _SPECIAL:
        if test(mode):
            raise SpecialFileError(f"{target} is a {kind}, not a regular file: nothing is written there")
    return path, stat.S_IMODE(mode)


def write_atomic(target: str | os.PathLike, data: bytes | Callable[[BinaryIO], None]) -> Path:
    """Write ``data`` (bytes, or a function that writes to a binary file handle) to ``target`` atomically,
    as the module docstring says; returns the file written (the end of a link)."""
    pending = AtomicFile(target)
    try:
        if callable(data):
            data(pending.handle)
        else:
            pending.handle.write(data)
    except BaseException:
        pending.discard()
        raise
    return pending.commit()


class AtomicFile:
    """``write_atomic`` in two steps, for a writer that has the start of a file before the rest: the temporary
    file is opened now (``handle``, written by any thread), then ``commit`` renames it over the target, or
    ``discard`` deletes it."""

    def __init__(self, target: str | os.PathLike):
        self.path, keep_mode = _final_target(target)
        self._tmp = self.path.with_name(f"{self.path.name}{PARTIAL_MARK}{os.getpid()}-{secrets.token_hex(4)}")
        fd = os.open(self._tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as for open()
        try:
            if keep_mode is not None:
                os.fchmod(fd, keep_mode)
            self.handle = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            self._tmp.unlink(missing_ok=True)
            raise

    def commit(self) -> Path:
        """The file in place; returns it (the end of a link)."""
        try:
            self.handle.close()
            os.replace(self._tmp, self.path)
        except BaseException:
            self._tmp.unlink(missing_ok=True)
            raise
        return self.path

    def discard(self) -> None:
        self.handle.close()
        self._tmp.unlink(missing_ok=True)


def is_partial(path: Path) -> bool:
    """Whether ``path`` is named as a temporary file of ``write_atomic``."""
    return PARTIAL_MARK in path.name


def stale_partial_files(folder: str | os.PathLike) -> list[Path]:
    """The temporary files ``write_atomic`` left under ``folder`` in processes of this machine that no
    longer run (killed, or the machine went down). Symbolic links are not followed."""
    stale = []
    for root, dirs, files in os.walk(folder):
        for name in files:
            path = Path(root, name)
            pid = name.rpartition(PARTIAL_MARK)[2].split("-")[0] if is_partial(path) else ""
            if pid.isdigit() and not path.is_symlink() and not _running(int(pid)):
                stale.append(path)
    return stale


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True
