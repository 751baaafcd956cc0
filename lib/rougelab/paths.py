"""Where rougelab keeps its caches: ``$ROUGELAB_CACHE``, else ``data/cache`` of the checkout."""
from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def cache_dir(*parts: str) -> Path:
    """The cache folder (created), or a subfolder of it."""
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
