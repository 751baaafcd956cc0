"""``rougelab cache info`` / ``rougelab cache clear``: where the caches are, how big, what is stale.

Each kind of cache is a folder under ``paths.cache_dir()``. An *entry* is a file, or a folder of files
sharing one metadata record (``_meta.json``, e.g. one encoder setting's embeddings). An entry is
*stale* when its record (``rougelab.cache_store``) names other code, package versions or resource files
than the current ones, or when it has none (made before records existed); a stale entry is never read,
since the cache keys include the same fingerprints, so clearing it only frees space. ``datasets``
(fetched files, keyed by their own content hash) have no record and are never counted stale; ``clear``
without a kind leaves ``datasets`` alone. ``numba`` holds the compiled kernels, one folder per
``_jit.kernel_key()``: a folder named by another key (older code, another numba) is stale.

Only what the cache wrote is counted or deleted: a file named as the cache store names its files
(``cache_store.owns``), or, in ``datasets``, a file the data manifest lists at that place. Symbolic links
are never followed, so a link inside the cache to a user's folder (or a kind folder that is itself a
link) never has its files listed or deleted; the link itself is left too. Temporary files of writes
still running are left alone; those of killed processes are deleted. Unreadable or half-written
entries and dangling links are skipped, never an error.
"""
from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rougelab.cache_store import FOLDER_META, META_SUFFIX, is_record, is_stale, owns, read_meta
from rougelab.paths import cache_dir
from rougelab.safe_write import is_partial, stale_partial_files
from rougelab.validation import check_float

RECORDED = ("scores", "embeddings", "wordnet", "widar", "word_vectors")   # kinds whose entries carry a metadata record
KERNELS = "numba"   # compiled kernels: one folder per ``_jit.kernel_key()``, stale when named by another key
CONTENT_KEYED = ("datasets",)
KINDS = RECORDED + (KERNELS,) + CONTENT_KEYED


@dataclass
class Entry:
    path: Path          # a file, or a folder of files
    files: list[Path]   # its data files (metadata records excluded): regular files the cache wrote
    stale: bool | None  # None: this kind keeps no record

    @property
    def size(self) -> int:
        return sum(_size(f) for f in self.files)


def entries(kind: str) -> list[Entry]:
    """The entries of one kind of cache (see the module docstring)."""
    folder = cache_dir(kind)
    if folder.is_symlink():  # the kind's folder is a link to somewhere else: not the cache's to list or clear
        return []
    if kind == KERNELS:
        return _kernel_entries(folder)
    dead_partials = set(stale_partial_files(folder))
    recorded = kind in RECORDED

    def written(path: Path) -> bool:
        if not _is_regular(path) or is_record(path):
            return False
        if is_partial(path):
            return path in dead_partials
        return _in_manifest(path.relative_to(folder).as_posix()) if kind == "datasets" else owns(path)

    out = []
    for path in sorted(folder.iterdir()):
        if path.is_symlink() or is_record(path):
            continue
        if path.is_dir():
            files = [f for f in _files_under(path) if written(f)]
            if not files and not (recorded and owns(path)):
                continue
        elif written(path):
            files = [path]
        else:
            continue
        out.append(Entry(path, files, is_stale(read_meta(path)) if recorded else None))
    return out


def _kernel_entries(folder: Path) -> list[Entry]:
    """One entry per folder of compiled kernels (``numba/<kernel_key()>``): numba's index and code files in
    it; stale unless named by the current code's key."""
    from rougelab._jit import NUMBA, kernel_key

    current = kernel_key() if NUMBA else None
    out = []
    for path in sorted(folder.iterdir()):
        if not _is_real_dir(path) or not re.fullmatch(r"[0-9a-f]{24}", path.name):
            continue
        files = [f for f in _files_under(path) if f.suffix in (".nbi", ".nbc") and _is_regular(f)]
        if files:
            out.append(Entry(path, files, path.name != current))
    return out


def _files_under(folder: Path) -> list[Path]:
    """Every name under ``folder`` that is not a folder, without following symbolic links."""
    return [Path(root, name) for root, _dirs, names in os.walk(folder) for name in names]


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:  # deleted meanwhile
        return 0


@lru_cache(maxsize=1)
def _manifest_paths() -> frozenset[str]:
    from rougelab.data.registry import get, names

    return frozenset(f"{get(name).relative_root}/{entry.path}" for name in names() for entry in get(name).files)


def _in_manifest(relative: str) -> bool:
    return relative in _manifest_paths()


def info() -> list[dict]:
    """One row per kind: folder, entries, files, bytes and stale entries (None where not recorded)."""
    rows = []
    for kind in KINDS:
        found = entries(kind)
        rows.append({"kind": kind, "folder": str(cache_dir(kind)), "entries": len(found),
                     "files": sum(len(e.files) for e in found), "bytes": sum(e.size for e in found),
                     "stale": sum(bool(e.stale) for e in found) if kind not in CONTENT_KEYED else None})
    return rows


def clear(kinds: list[str] | None = None, *, stale_only: bool = False, older_than_days: float | None = None) -> int:
    """Delete cache files; returns how many data files went.

    ``kinds`` (default: every kind but ``datasets``); ``stale_only`` keeps entries made by the current
    code and resources; ``older_than_days`` keeps files modified more recently than that.
    """
    unknown = sorted(set(kinds or ()) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown cache kind(s) {', '.join(unknown)}; choose from {', '.join(KINDS)}")
    check_float(older_than_days, "--older-than", low=0, none=True, hint=" (days)")
    cutoff = time.time() - older_than_days * 86400 if older_than_days is not None else None
    removed = 0
    for kind in kinds or [k for k in KINDS if k != "datasets"]:
        for entry in entries(kind):
            if stale_only and not entry.stale:
                continue
            doomed = [f for f in entry.files if cutoff is None or _older(f, cutoff)]
            for f in doomed:
                f.unlink(missing_ok=True)
                Path(str(f) + META_SUFFIX).unlink(missing_ok=True)
            removed += len(doomed)
            if len(doomed) == len(entry.files) and _is_real_dir(entry.path):
                _remove_emptied(entry.path)
    return removed


def _older(path: Path, cutoff: float) -> bool:
    try:
        return path.lstat().st_mtime < cutoff
    except OSError:
        return False


def _is_real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _remove_emptied(folder: Path) -> None:
    """Remove the folders of an emptied entry, deepest first, and its record when nothing else is left in
    it; a folder still holding something the cache did not write stays."""
    for root, _dirs, names in sorted(os.walk(folder), key=lambda walked: -len(walked[0])):
        if Path(root) == folder and names == [FOLDER_META]:
            (folder / FOLDER_META).unlink(missing_ok=True)
        try:
            os.rmdir(root)
        except OSError:  # not empty
            pass


def format_info(rows: list[dict]) -> str:
    """``info()`` as an aligned text table."""
    lines = [f"{'kind':<13}{'entries':>8}{'files':>8}{'size':>10}{'stale':>7}  folder"]
    for r in rows:
        stale = "-" if r["stale"] is None else str(r["stale"])
        lines.append(f"{r['kind']:<13}{r['entries']:>8}{r['files']:>8}{_human(r['bytes']):>10}{stale:>7}"
                     f"  {r['folder']}")
    return "\n".join(lines)


def _human(n: int) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"
