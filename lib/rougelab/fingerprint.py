"""What a cached number was computed by: a digest of our code and of every resource file read.

``code_fingerprint()`` is the SHA-256 (first 12 hex digits) of every file of the installed
``rougelab`` package -- its ``.py`` sources and package data, by relative path -- computed once per
process (about 1 MB of text, a few milliseconds). Any edit to the package changes it, so every cache
key that includes it (scores, contextual embeddings, PageRank vectors, WIDAR components) misses after
a code change instead of serving numbers the current code would not compute.

``file_digest(path)`` is a resource file's SHA-256, memoised per (path, size, mtime) so a large
file (vectors, model weights) is read once per process. ``resource_pin(paths)`` folds several into one
short digest, as signatures show it.

Each cache entry (a file or a folder of files) carries a small metadata record, ``<entry>.meta`` (JSON)
for a file and ``_meta.json`` inside a folder: ``{"signature", "code", "resources", "created"}``.
``rougelab cache info`` (``cache_admin``) uses it to tell which entries were made by other code or
other resource files ("stale").
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Iterable

PACKAGE = Path(__file__).resolve().parent
META_SUFFIX = ".meta"
FOLDER_META = "_meta.json"


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 (12 hex digits) of every file of the ``rougelab`` package, by relative path."""
    digest = hashlib.sha256()
    for path in sorted(p for p in PACKAGE.rglob("*") if p.is_file() and _is_source(p)):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _is_source(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo")


def file_digest(path) -> str:
    """SHA-256 (hex) of one file, read once per process for a given size and modification time."""
    path = Path(path).resolve()
    stat = path.stat()
    return _digest(str(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=None)
def _digest(path: str, _size: int, _mtime: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def resource_pin(paths: Iterable) -> str:
    """One 12-hex digest over the resource files (name and content of each, in order)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).name.encode() + b"\0" + file_digest(path).encode())
    return digest.hexdigest()[:12]


def write_meta(entry: Path, signature: str, resources: Iterable = ()) -> None:
    """Record who made a cache ``entry`` (a file, or a folder), atomically, beside or inside it."""
    record = {"signature": signature, "code": code_fingerprint(),
              "resources": {str(Path(p).resolve()): file_digest(p) for p in resources},
              "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    target = meta_path(entry)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(record, out)
    os.replace(tmp, target)


def meta_path(entry: Path) -> Path:
    """Where the metadata record of ``entry`` lives."""
    entry = Path(entry)
    return entry / FOLDER_META if entry.is_dir() else entry.with_name(entry.name + META_SUFFIX)


def read_meta(entry: Path) -> dict | None:
    """The metadata record of ``entry``, or None when it has none (or an unreadable one)."""
    try:
        with open(meta_path(entry), encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def is_stale(record: dict | None) -> bool:
    """True unless ``record`` names the current code and every resource file still has its digest."""
    if record is None or record.get("code") != code_fingerprint():
        return True
    for path, digest in (record.get("resources") or {}).items():
        try:
            if file_digest(path) != digest:
                return True
        except OSError:
            return True
    return False
