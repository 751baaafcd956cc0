"""Write ``manifest.json`` (file list, SHA-256, size per dataset) from a mirror folder.

Usage: ``python -m rougelab.data.make_manifest MIRROR``. Run once when an entry in
``registry.DATASETS`` is added or re-pinned; the hashes then guard every later fetch.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from rougelab.data.registry import DATASETS, MANIFEST


def file_entries(mirror: Path, repo: str, commit: str, include: tuple[str, ...]) -> list[dict]:
    """Every file under ``include`` in ``mirror/<repo>/<commit>``, sorted, with hash and size."""
    base = mirror / repo / commit
    found = []
    for item in include:
        target = base / item
        if target.is_file():
            found.append(target)
        elif target.is_dir():
            found.extend(p for p in target.rglob("*") if p.is_file())
        else:
            raise SystemExit(f"{target} is missing from the mirror")
    return [{"path": p.relative_to(base).as_posix(),
             "sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
             "size": p.stat().st_size}
            for p in sorted(set(found))]


def manifest_text(datasets: dict[str, list[dict]]) -> str:
    """JSON with one line per file, so a re-pinned file shows as a one-line diff."""
    blocks = []
    for name, entries in datasets.items():
        lines = ",\n".join("  " + json.dumps(e, sort_keys=True) for e in entries)
        blocks.append(f" {json.dumps(name)}: [\n{lines}\n ]")
    return '{"datasets": {\n' + ",\n".join(blocks) + "\n}}\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    mirror = Path(args[0])
    datasets = {d.name: file_entries(mirror, d.repo, d.commit, d.include)
                for d in DATASETS.values()}
    MANIFEST.write_text(manifest_text(datasets))
    print(f"wrote {MANIFEST}: " + ", ".join(f"{k} {len(v)} files" for k, v in datasets.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
