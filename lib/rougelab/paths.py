"""Where rougelab keeps its caches: ``$ROUGELAB_CACHE``, else ``data/cache`` of the checkout."""
from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]
CACHE_ENV = "ROUGELAB_CACHE"


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
    root = os.environ.get(CACHE_ENV)
    if root:
        base = Path(root)
    elif (_CHECKOUT / "pyproject.toml").exists():
        base = _CHECKOUT / "data" / "cache"
    else:
        base = Path.home() / ".cache" / "rougelab"
    path = base.joinpath(*parts)
    where = f"${CACHE_ENV}={root}" if root else f"the default cache {base}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        on_the_way = [path, *path.parents]
        dangling = next((p for p in on_the_way if p.is_symlink() and not p.exists()), None)
        blocking = next((p for p in on_the_way if p.exists() and not p.is_dir()), path)
        reason = f"{dangling} is a symbolic link to nothing" if dangling else f"{blocking} is a file, not a folder"
        raise CacheError(f"the cache folder {path} cannot be created ({where}): {reason} "
                         f"(set {CACHE_ENV} to a folder)") from None
    except (OSError, ValueError) as err:  # no permission, read-only, a dangling link, a NUL in the name, ...
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CacheError(f"the cache folder {path} cannot be created ({where}): {reason} "
                         f"(set {CACHE_ENV} to a writable folder)") from None
    return path


class CacheError(ValueError):
    """The cache location is unusable (a file where a folder should be, no permission)."""
