"""Datasets: a registry with pinned upstream files and SHA-256, verified fetch, tidy loaders.

``fetch()`` fills the cache (from upstream, or a mirror folder); ``load_dataset(name)``
returns a tidy DataFrame; ``dataset_path(name)`` returns a fetched dataset's folder;
``describe()`` is what ``rougelab data list`` prints.
"""
from __future__ import annotations

from rougelab.data.fetch import dataset_path, fetch
from rougelab.data.listing import describe
from rougelab.data.loaders import load_dataset
from rougelab.data.registry import DataError, names

__all__ = ["DataError", "dataset_path", "describe", "fetch", "load_dataset", "names"]
