"""What a cached number was computed by: a digest of our code and of every resource file read.

``code_fingerprint()`` is the SHA-256 (first 12 hex digits) of every file of the installed
``rougelab`` package -- its ``.py`` sources and package data, by relative path -- computed once per
process (about 1 MB of text, a few milliseconds). Any edit to the package changes it; metric signatures,
and so the score cache, carry it. ``code_fingerprint(module, ...)`` digests only the code that computes
one kind of cached thing: the named modules, every ``rougelab`` module they import (``module_closure``)
and all package data. The caches of intermediate results (PageRank vectors, the WordNet graph, word
vectors, contextual embeddings, WIDAR components) are keyed by the fingerprint of the module that
computes them, so they miss after any change to that code, yet stay warm when only, say, the scoring
code changes (PageRank for SummEval's vocabulary takes minutes to recompute).

``file_digest(path)`` is a resource file's SHA-256, memoised per (path, size, mtime) so a large
file (vectors, model weights) is read once per process. ``resource_pin(paths)`` folds several into one
short digest, as signatures show it.

Each cache entry (a file or a folder of files) carries a small metadata record, ``<entry>.meta`` (JSON)
for a file and ``_meta.json`` inside a folder: ``{"signature", "code", "resources", "created"}``.
``rougelab cache info`` (``cache_admin``) uses it to tell which entries were made by other code or
other resource files ("stale").
"""
from __future__ import annotations

import ast
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


@lru_cache(maxsize=None)
def code_fingerprint(*modules: str) -> str:
    """SHA-256 (12 hex digits) of the package's files, by relative path: all of them, or, given dotted
    module names (``"rougelab.semantic.pagerank"``), their ``module_closure`` and every package-data file."""
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and _is_source(p)]
    if modules:
        closure = set(module_closure(*modules))
        files = [p for p in files if p.suffix != ".py" or p in closure]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _is_source(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo")


def module_closure(*modules: str) -> list[Path]:
    """Source files of ``modules`` and of every ``rougelab`` module they import, directly or through others.

    Imports are read from the source (``ast``), wherever they stand in a module, so imports inside
    functions count; the ``__init__`` of every package on a module's path counts too, since importing the
    module runs it. Not followed: imports inside a module-level ``__getattr__`` (PEP 562 lazy attributes,
    as ``rougelab/__init__.py`` has), which load a module only for code that names it, and so imports it
    itself. A name that is not a module of the package raises ``ValueError``.
    """
    seen: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            raise ValueError(f"{name!r} is not a module of the rougelab package")
        seen[name] = path
        parts = name.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]  # the packages on the way
        todo += _imports(path, name)
    return sorted(seen.values())


def _module_file(name: str) -> Path | None:
    """The source file of the dotted module ``name`` of this package (None if there is none)."""
    parts = name.split(".")
    if parts[0] != PACKAGE.name:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _imports(path: Path, name: str) -> list[str]:
    """The package's modules that the module ``name`` (at ``path``) imports, outside a module ``__getattr__``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lazy = {id(node) for top in tree.body if isinstance(top, ast.FunctionDef) and top.name == "__getattr__"
            for node in ast.walk(top)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in lazy:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]  # names that are submodules
    return [m for m in found if _module_file(m) is not None]


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


def write_meta(entry: Path, signature: str, resources: Iterable = (), modules: Iterable[str] = ()) -> None:
    """Record who made a cache ``entry`` (a file, or a folder), atomically, beside or inside it: the
    ``code_fingerprint`` of ``modules`` (none: the whole package) and the digest of each resource file."""
    modules = list(modules)
    record = {"signature": signature, "code": code_fingerprint(*modules), "modules": modules,
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
    if record is None or record.get("code") != code_fingerprint(*record.get("modules", ())):
        return True
    for path, digest in (record.get("resources") or {}).items():
        try:
            if file_digest(path) != digest:
                return True
        except OSError:
            return True
    return False
