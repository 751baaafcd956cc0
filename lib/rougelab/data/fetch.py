"""Fetch registry files from upstream or a mirror into the cache, verifying every SHA-256.

Cache layout: ``paths.cache_dir("datasets")/<owner>/<repo>/<commit>/<path>``, the same
relative layout as a mirror folder and as ``https://raw.githubusercontent.com/``.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import urllib.parse
from pathlib import Path

from rougelab.progress import bar, shown

from rougelab import paths
from rougelab.safe_write import stale_partial_files, write_atomic
from rougelab.data.registry import DataError, Dataset, FileEntry, get, names as all_names

MIRROR_ENV = "ROUGELAB_DATA_MIRROR"
TIMEOUT = 30  # seconds per HTTP request
_FETCH_HINT = "run `rougelab data fetch` (or `rougelab data fetch --mirror DIR`)"


def cache_root() -> Path:
    """The folder that holds fetched files, laid out as ``<owner>/<repo>/<commit>/<path>``."""
    try:
        return paths.cache_dir("datasets")
    except paths.CacheError as exc:
        raise DataError(str(exc)) from None


def sha256_of(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def cached_file(dataset: Dataset, entry: FileEntry) -> Path:
    """Where ``entry`` of ``dataset`` lives in the cache (whether or not it is there)."""
    return cache_root() / dataset.relative_root / entry.path


def _is_valid(path: Path, entry: FileEntry) -> bool:
    try:
        return path.stat().st_size == entry.size and sha256_of(path.read_bytes()) == entry.sha256
    except OSError:
        return False


def _read_mirror(mirror: Path, dataset: Dataset, entry: FileEntry) -> tuple[bytes, str]:
    source = mirror / dataset.relative_root / entry.path
    try:
        return source.read_bytes(), str(source)
    except FileNotFoundError:
        raise DataError(f"{source} is missing from the mirror: point --mirror at a complete "
                        f"copy, or fetch from upstream without --mirror") from None
    except OSError as exc:
        raise DataError(f"cannot read {source} ({exc.strerror}): check the mirror folder") from None


def _download(dataset: Dataset, entry: FileEntry) -> tuple[bytes, str]:
    import urllib.error
    import urllib.request  # here, not above: http, ssl and email take a tenth of `rougelab score`'s start-up

    url = dataset.url_prefix + urllib.parse.quote(entry.path)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return response.read(), url
    except urllib.error.HTTPError as exc:
        raise DataError(f"{url}: HTTP {exc.code} {exc.reason}; the file may have moved: "
                        f"use a mirror (`rougelab data fetch --mirror DIR`)") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DataError(f"cannot reach {url} ({reason}); check the network or use a mirror "
                        f"(`rougelab data fetch --mirror DIR` or ${MIRROR_ENV})") from None


def _write_atomic(target: Path, data: bytes) -> None:
    """``safe_write.write_atomic``, creating the folder; ``DataError`` if the cache is not writable."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    except OSError as exc:
        raise DataError(f"cannot write {target} ({exc.strerror}): set $ROUGELAB_CACHE to a "
                        f"writable folder") from None


# Temporary files of rougelab <= 0.1.0's fetch: ".<name>.<8 random characters>.tmp".
_OLD_TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


def _remove_leftovers(folder: Path) -> None:
    """Delete the temporary files that a killed fetch left in ``folder``."""
    if not folder.is_dir():
        return
    old = [p for p in folder.rglob(".*.tmp") if _OLD_TEMPORARY.match(p.name)]
    for path in [*stale_partial_files(folder), *old]:
        path.unlink(missing_ok=True)


def fetch(names: str | list[str] | None = None, mirror: str | os.PathLike | None = None,
          progress: bool = True) -> dict[str, Path]:
    """Fetch datasets into the cache, verifying every file's SHA-256.

    Parameters
    ----------
    names : a dataset name or list of names; None fetches every registered dataset.
    mirror : a folder laid out as ``<owner>/<repo>/<commit>/<path>`` to copy from; default
        ``$ROUGELAB_DATA_MIRROR`` if set, else download from raw.githubusercontent.com.
    progress : show a progress bar while checking/fetching, then one line per dataset (stderr).

    Returns
    -------
    dict mapping each dataset name to its cached root folder (see ``dataset_path``).

    Files already cached with the right hash are skipped; a file whose source copy has the
    wrong hash is never written. Raises ``DataError`` naming the file on any failure.
    """
    selected = all_names() if names is None else [names] if isinstance(names, str) else list(names)
    datasets = [get(n) for n in selected]  # unknown names fail before any work
    if mirror is None:
        mirror = os.environ.get(MIRROR_ENV) or None
    mirror_path = Path(mirror) if mirror is not None else None
    if mirror_path is not None and not mirror_path.is_dir():
        raise DataError(f"mirror folder {mirror_path} does not exist: name an existing folder "
                        f"laid out as <owner>/<repo>/<commit>/<path>")
    roots = {}
    for dataset in datasets:
        _remove_leftovers(cache_root() / dataset.relative_root)
        copied = 0
        for entry in bar(dataset.files, progress=progress, desc=dataset.name, unit="file", leave=False,
                         disable=None):  # None: tqdm draws it on a terminal only
            target = cached_file(dataset, entry)
            if _is_valid(target, entry):
                continue
            if mirror_path is not None:
                data, source = _read_mirror(mirror_path, dataset, entry)
            else:
                data, source = _download(dataset, entry)
            digest = sha256_of(data)
            if digest != entry.sha256:
                raise DataError(f"{source}: SHA-256 {digest[:12]}... does not match the registry's "
                                f"{entry.sha256[:12]}... for {entry.path}; the copy is corrupt or "
                                f"changed: replace it (or fetch from upstream) and retry")
            _write_atomic(target, data)
            copied += 1
        roots[dataset.name] = cache_root() / dataset.relative_root / dataset.root
        if shown(progress):
            n = len(dataset.files)
            print(f"{dataset.name}: {n} files verified ({copied} fetched, {n - copied} already "
                  f"cached) in {roots[dataset.name]}", file=sys.stderr)
    return roots


def dataset_path(name: str) -> Path:
    """The cached root folder of dataset ``name`` (for ``rouge155-sample``: the folder holding
    ``sample-test/``, ``sample-output/`` and ``data/``).

    Checks that every file is present with its registered size; raises ``DataError``
    (saying to run ``rougelab data fetch``) otherwise. Hashes are checked by ``fetch``
    and by the loaders when they read a file.
    """
    dataset = get(name)
    for entry in dataset.files:
        path = cached_file(dataset, entry)
        try:
            size = path.stat().st_size
        except OSError:
            raise DataError(f"dataset {name!r} is not fetched ({path} is missing): "
                            f"{_FETCH_HINT}") from None
        if size != entry.size:
            raise DataError(f"{path} has {size} bytes, expected {entry.size}: the cache is "
                            f"corrupt; {_FETCH_HINT} to repair it")
    return cache_root() / dataset.relative_root / dataset.root


def read_verified(name: str, path: str) -> bytes:
    """The bytes of repository file ``path`` of dataset ``name``, after checking its SHA-256."""
    dataset = get(name)
    entry = next((e for e in dataset.files if e.path == path), None)
    if entry is None:
        raise DataError(f"{path} is not a file of dataset {name!r}")
    target = cached_file(dataset, entry)
    try:
        data = target.read_bytes()
    except OSError:
        raise DataError(f"dataset {name!r} is not fetched ({target} is missing): "
                        f"{_FETCH_HINT}") from None
    if sha256_of(data) != entry.sha256:
        raise DataError(f"{target} does not match its registered SHA-256: the cache is corrupt; "
                        f"{_FETCH_HINT} to repair it")
    return data
