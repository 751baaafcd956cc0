"""Where rougelab keeps its caches: ``$ROUGELAB_CACHE``, else ``data/cache`` of the checkout."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]
PARTIAL_MARK = ".rougelab-partial-"  # in the name of write_atomic's temporary files


def checkout_root() -> Path:
    """The rougelab checkout a command runs in: the current folder or its nearest parent that holds the
    project's ``pyproject.toml`` and ``notebooks/``, else the checkout this package is imported from (an
    editable install). ``InputError`` when there is none, e.g. ``pip install`` run from elsewhere."""
    from rougelab.scoring import InputError

    here = Path.cwd().resolve()
    for folder in (here, *here.parents, _CHECKOUT):
        if _is_checkout(folder):
            return folder
    raise InputError(f"no rougelab checkout in {here} or its parents: run this from a clone of the "
                     "repository, which holds the notebooks")


def _is_checkout(folder: Path) -> bool:
    project = folder / "pyproject.toml"
    try:
        return (folder / "notebooks").is_dir() and 'name = "rougelab"' in project.read_text(encoding="utf-8")
    except OSError:
        return False


def cache_dir(*parts: str) -> Path:
    """The cache folder (created), or a subfolder of it; ``CacheError`` if it cannot be made."""
    root = os.environ.get("ROUGELAB_CACHE")
    if root:
        base = Path(root)
    elif (_CHECKOUT / "pyproject.toml").exists():
        base = _CHECKOUT / "data" / "cache"
    else:
        base = Path.home() / ".cache" / "rougelab"
    path = base.joinpath(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next(p for p in [path, *path.parents] if p.exists() and not p.is_dir())
        raise CacheError(f"the cache folder {path} cannot be created: {blocking} is a file, not a folder "
                         "(set ROUGELAB_CACHE to a folder)") from None
    except PermissionError as err:
        raise CacheError(f"the cache folder {path} cannot be created: {err.strerror} "
                         "(set ROUGELAB_CACHE to a writable folder)") from None
    return path


class CacheError(ValueError):
    """The cache location is unusable (a file where a folder should be, no permission)."""


def write_atomic(target: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file in the same folder and ``os.replace``:
    readers see the old file or the new one, never a part. The temporary file is named
    ``<target name>.rougelab-partial-<pid>-<random>``, so one left by a killed process is easy to
    recognise (``stale_partial_files`` finds them)."""
    target = Path(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f"{target.name}{PARTIAL_MARK}{os.getpid()}-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def stale_partial_files(folder: str | os.PathLike) -> list[Path]:
    """The temporary files ``write_atomic`` left under ``folder`` in processes of this machine that no
    longer run (killed, or the machine went down)."""
    stale = []
    for path in Path(folder).rglob(f"*{PARTIAL_MARK}*"):
        pid = path.name.rpartition(PARTIAL_MARK)[2].split("-")[0]
        if pid.isdigit() and not _running(int(pid)):
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
