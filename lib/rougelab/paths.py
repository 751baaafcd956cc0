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
    path.mkdir(parents=True, exist_ok=True)
    return path
