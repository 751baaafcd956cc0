"""Per-item disk cache for WIDAR's components (matches, LCS matrices, IDSS).

One JSON file per (kind, options) under ``paths.cache_dir("widar")``, mapping the SHA-256 of the
texts an item reads to its JSON-serialisable value. Keys are content hashes, never positions.
The file is an entry of the cache store (``rougelab.cache_store``): written atomically, with a record,
keyed by the fingerprint of the WIDAR package's code and of everything it imports and by the versions
of the third-party packages that compute the components; a corrupt file is reported and rebuilt.
"""
from __future__ import annotations

import json

from rougelab import __version__
from rougelab.cache_store import Maker, entry_file, save
from rougelab.fingerprint import texts_digest
from rougelab.paths import cache_dir
from rougelab.scoring import InputError
from rougelab.warn import warn

_LOADED: dict[str, dict] = {}
_COMPUTED_BY = "rougelab.metrics.widar"  # the package whose code (and its imports) computes the components
PACKAGES = ("nltk", "numba", "numpy", "regex")  # third-party code that computes them (stemmers, kernels)


def text_key(*texts: str) -> str:
    """SHA-256 of the texts, told apart (``fingerprint.texts_digest``)."""
    return texts_digest(texts)


class ItemCache:
    """Values of one kind of component computed with one set of options.

    ``enabled=False`` keeps everything in memory for this object only (nothing read or written).
    """

    def __init__(self, kind: str, options: dict, *, enabled: bool = True):
        self._maker = Maker(_tag(kind, options), modules=(_COMPUTED_BY,), packages=PACKAGES)
        self.path = entry_file(cache_dir("widar"), kind, self._maker, ".json")
        self.enabled = enabled
        self._dirty = False
        if not enabled:
            self.items: dict = {}
        elif str(self.path) in _LOADED:
            self.items = _LOADED[str(self.path)]
        else:
            self.items = self._read()
            _LOADED[str(self.path)] = self.items

    def _read(self) -> dict:
        if not self.path.exists():
            return {}
        try:
            with open(self.path, encoding="utf-8") as f:
                items = json.load(f)
            if not isinstance(items, dict):
                raise ValueError("not a JSON object")
            return items
        except (OSError, ValueError) as err:
            warn(f"WIDAR cache file {self.path} is corrupt ({err}); recomputing and overwriting it")
            return {}

    def get(self, key: str):
        return self.items.get(key)

    def put(self, key: str, value) -> None:
        self.items[key] = value
        self._dirty = True

    def save(self) -> None:
        """Write the file atomically if anything was added."""
        if not (self.enabled and self._dirty):
            return
        save(self.path, json.dumps(self.items).encode("utf-8"), self._maker)
        self._dirty = False


def _tag(kind: str, options: dict) -> str:
    """The kind, the package version and the options as JSON, which names the file: an option JSON cannot
    give back equal (an object, whose ``str`` may be shared or change every run; a tuple, read back as a
    list; a key that is not a string) is an ``InputError`` naming it, never written as something else."""
    clash = sorted({"kind", "version"} & set(options))
    if clash:
        raise ValueError(f"a WIDAR cache option may not be named {', '.join(clash)}: the tag names that itself")
    for name, value in options.items():
        try:
            exact = json.loads(json.dumps(value)) == value
        except (TypeError, ValueError):
            exact = False
        if not exact:
            raise InputError(f"WIDAR's component cache cannot name the option {name}={value!r} exactly in JSON: "
                             "give a string, number, boolean or None (or a list, or a dict with string keys, "
                             "of those)")
    return json.dumps({"kind": kind, "version": __version__, **options}, sort_keys=True)
