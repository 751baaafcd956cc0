"""The one store behind every cache: keys, atomic writes, metadata records, stale entries, owned names.

Each cache is a *kind*, a folder ``paths.cache_dir(kind)`` of entries: ``scores`` (metric tables),
``widar`` (WIDAR's components), ``embeddings`` (contextual token vectors), ``word_vectors`` (converted
vector files) and ``wordnet`` (the WordNet graph, PageRank vectors). An *entry* is one file, or a folder
of files sharing one record. What an entry holds is computed by a ``Maker``: its settings
(``signature``), the rougelab modules whose code computes it (with every rougelab module they import;
none named: the whole package), the third-party distributions whose code computes it (by version) and
the resource files it reads (by SHA-256). ``Maker.key`` digests all of them, so an entry is found again
only while all are unchanged. The entry's record (``<file>.meta``, or ``_meta.json`` inside a folder)
keeps them; ``is_stale`` compares it with the current code, packages and files (``rougelab cache info``).

Files are written with ``safe_write.write_atomic``: a finished file or none, through a symbolic link,
never into a FIFO or device, with the umask's mode, so a cache shared by a group can be read. Every name
the store gives carries a key of 16 or more hex digits, so ``owns`` tells the cache's files from anything
else a user put in the folder (``rougelab cache clear`` deletes only those).
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable

from rougelab.fingerprint import code_fingerprint, file_digest, package_versions, texts_digest
from rougelab.paths import CacheError
from rougelab.safe_write import AtomicFile, is_partial, write_atomic

KEY_DIGITS = 24
META_SUFFIX = ".meta"
FOLDER_META = "_meta.json"
_KEYED = re.compile(r"(?:^|[-_.])[0-9a-f]{16,}(?:[-_.]|$)")
_UNSAFE = re.compile(r"[^A-Za-z0-9._*+=-]")


@dataclass(frozen=True)
class Maker:
    """What computes a cache entry: settings, our code, third-party code and resource files."""

    signature: str                   # the settings, as people read them
    modules: tuple[str, ...] = ()    # rougelab modules that compute it (() = the whole package)
    packages: tuple[str, ...] = ()   # third-party distributions whose code computes it
    resources: tuple = ()            # files it reads

    def key(self, *content: str) -> str:
        """Hex digest of everything in the maker and of ``content`` (e.g. the digest of the texts), each part
        told apart by ``texts_digest``: no part can pass for a separator."""
        return texts_digest((self.signature, code_fingerprint(*self.modules), *self._versions(),
                             *(file_digest(p) for p in self.resources), *content))[:KEY_DIGITS]

    def _versions(self) -> list[str]:
        return [f"{name}={version}" for name, version in package_versions(self.packages).items()]

    def record(self) -> dict:
        """The metadata record of an entry this maker computed."""
        return {"signature": self.signature, "code": code_fingerprint(*self.modules), "modules": list(self.modules),
                "packages": package_versions(self.packages),
                "resources": {os.path.abspath(p): file_digest(p) for p in self.resources},  # read as the metric reads it
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def entry_file(where: Path, stem: str, maker: Maker, suffix: str, *content: str) -> Path:
    """Where the file entry ``<stem>-<key><suffix>`` lives in the folder ``where`` (a kind's
    ``paths.cache_dir(kind)``), whether or not it exists."""
    return where / f"{entry_prefix(stem)}{maker.key(*content)}{suffix}"


def entry_folder(where: Path, stem: str, maker: Maker) -> Path:
    """The folder entry ``<stem>-<key>`` in the folder ``where`` (created, with its record)."""
    folder = where / f"{entry_prefix(stem)}{maker.key()}"
    try:
        folder.mkdir(exist_ok=True)
    except OSError as err:
        raise CacheError(f"the cache folder {folder} cannot be created: {err.strerror}") from None
    if read_meta(folder) is None:
        write_meta(folder, maker)
    return folder


def entry_prefix(stem: str) -> str:
    """How the name of every entry of ``stem`` opens (its record's and its partial writes' too)."""
    return f"{_UNSAFE.sub('_', stem)}-"


def save(path: Path, data: bytes | Callable[[BinaryIO], None], maker: Maker | None = None) -> None:
    """Write a cache file atomically (``data``: bytes, or a function writing to a binary handle); with
    ``maker``, the file is an entry and gets its record."""
    write_atomic(path, data)
    if maker is not None:
        write_meta(path, maker)


class PendingEntry:
    """A file entry written in two steps (``safe_write.AtomicFile``): opened now, with its record written, for a
    writer that has the file's start before the rest (``handle``); ``commit`` puts the file, then its record, in
    place (as ``save``), ``discard`` deletes both."""

    def __init__(self, path: Path, maker: Maker):
        record = json.dumps(maker.record()).encode()
        self.file = AtomicFile(path)
        try:
            self._record = AtomicFile(meta_path(path))
        except BaseException:
            self.file.discard()
            raise
        try:
            self._record.handle.write(record)
        except BaseException:
            self.discard()
            raise

    @property
    def handle(self) -> BinaryIO:
        return self.file.handle

    def commit(self) -> None:
        try:
            self.file.commit()
        except BaseException:
            self._record.discard()
            raise
        self._record.commit()

    def discard(self) -> None:
        self.file.discard()
        self._record.discard()


def write_meta(entry: Path, maker: Maker) -> None:
    """Write the record of ``entry`` (a file, or a folder) beside or inside it."""
    write_atomic(meta_path(entry), json.dumps(maker.record()).encode())


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
    """True unless ``record`` names the current code and package versions, and every resource file
    still has its digest."""
    if not isinstance(record, dict):
        return True
    try:
        if record.get("code") != code_fingerprint(*record.get("modules", ())):
            return True
        packages = record.get("packages") or {}
        if package_versions(packages) != packages:
            return True
        return any(file_digest(path) != digest for path, digest in (record.get("resources") or {}).items())
    except (OSError, TypeError, ValueError):  # a file gone, a module renamed, a record edited by hand
        return True


def is_record(path: Path) -> bool:
    """Whether ``path`` is named as a metadata record."""
    return path.name == FOLDER_META or path.name.endswith(META_SUFFIX)


def owns(path: Path) -> bool:
    """Whether the name of ``path`` is one the store gives: a key in it, a record or a partial write."""
    return bool(_KEYED.search(path.name)) or is_record(path) or is_partial(path)
