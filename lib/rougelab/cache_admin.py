"""``rougelab cache info`` / ``rougelab cache clear``: where the caches are, how big, what is stale.

Each kind of cache is a folder under ``paths.cache_dir()``. An *entry* is a file, or a folder of files
sharing one metadata record (``_meta.json``, e.g. one encoder setting's embeddings). An entry is
*stale* when its record (``rougelab.fingerprint``) names other code or resource files than the
current ones, or when it has none (made before records existed); a stale entry is never read, since
the cache keys include the same fingerprints, so clearing it only frees space. ``datasets`` (fetched
files, keyed by their own content hash) have no record and are never counted stale; ``clear`` without a
kind leaves ``datasets`` alone.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from rougelab.fingerprint import FOLDER_META, META_SUFFIX, is_stale, read_meta
from rougelab.paths import cache_dir
from rougelab.validation import check_float

RECORDED = ("scores", "embeddings", "wordnet", "widar", "word_vectors")   # kinds whose entries carry a metadata record
CONTENT_KEYED = ("datasets",)
KINDS = RECORDED + CONTENT_KEYED


@dataclass
class Entry:
    path: Path          # a file, or a folder of files
    files: list[Path]   # its data files (metadata records excluded)
    stale: bool | None  # None: this kind keeps no record

    @property
    def size(self) -> int:
        return sum(f.stat().st_size for f in self.files)


def entries(kind: str) -> list[Entry]:
    """The entries of one kind of cache (see the module docstring)."""
    folder = cache_dir(kind)
    recorded = kind in RECORDED
    out = []
    for path in sorted(folder.iterdir()):
        if _is_meta(path):
            continue
        files = [f for f in path.rglob("*") if f.is_file() and not _is_meta(f)] if path.is_dir() else [path]
        out.append(Entry(path, files, is_stale(read_meta(path)) if recorded else None))
    return out


def _is_meta(path: Path) -> bool:
    return path.name == FOLDER_META or path.name.endswith(META_SUFFIX)


def info() -> list[dict]:
    """One row per kind: folder, entries, files, bytes and stale entries (None where not recorded)."""
    rows = []
    for kind in KINDS:
        found = entries(kind)
        rows.append({"kind": kind, "folder": str(cache_dir(kind)), "entries": len(found),
                     "files": sum(len(e.files) for e in found), "bytes": sum(e.size for e in found),
                     "stale": sum(bool(e.stale) for e in found) if kind in RECORDED else None})
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
            doomed = [f for f in entry.files if cutoff is None or f.stat().st_mtime < cutoff]
            for f in doomed:
                f.unlink(missing_ok=True)
                Path(str(f) + META_SUFFIX).unlink(missing_ok=True)
            removed += len(doomed)
            if entry.path.is_dir() and not any(f.exists() for f in entry.files):
                shutil.rmtree(entry.path, ignore_errors=True)
    return removed


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
