"""Datasets: a registry with pinned upstream files and SHA-256, verified fetch, tidy loaders.

``fetch()`` fills the cache (from upstream, or a mirror folder); ``load_dataset(name)``
returns a tidy DataFrame; ``dataset_path(name)`` returns a fetched dataset's folder;
``describe()`` is what ``rougelab data list`` prints.
"""
from __future__ import annotations

import importlib

# ``fetch`` is both a module and its function: bound here (standard library only), so that importing the
# module never replaces the function on the package.
from rougelab.data.fetch import dataset_path, fetch
from rougelab.data.registry import DataError, names

# The names whose modules need pandas, imported on first use (PEP 562), so that a command which only
# reads the registry or fetches (``rougelab score``'s error handling, ``data fetch``) does not load pandas.
_HOME = {"describe": "listing", "load_dataset": "loaders"}

__all__ = ["DataError", "dataset_path", "describe", "fetch", "load_dataset", "names"]


def __getattr__(name):
    if name in _HOME:
        return getattr(importlib.import_module(f"rougelab.data.{_HOME[name]}"), name)
    raise AttributeError(f"module 'rougelab.data' has no attribute {name!r}")
