"""Where rougelab keeps its caches: ``$ROUGELAB_CACHE``, else ``data/cache`` of the checkout."""
from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]
CACHE_ENV = "ROUGELAB_CACHE"


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
        blocking = next((p for p in [path, *path.parents] if p.exists() and not p.is_dir()), path)
        raise CacheError(f"the cache folder {path} cannot be created ({where}): {blocking} is a file, not a "
                         f"folder (set {CACHE_ENV} to a folder)") from None
    except (OSError, ValueError) as err:  # no permission, read-only, a dangling link, a NUL in the name, ...
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CacheError(f"the cache folder {path} cannot be created ({where}): {reason} "
                         f"(set {CACHE_ENV} to a writable folder)") from None
    return path


class CacheError(ValueError):
    """The cache location is unusable (a file where a folder should be, no permission)."""
