"""rougelab: ROUGE and its successors, implemented, tested and reproduced.

``rougelab.rouge`` is the classic-ROUGE subpackage (its batch function: ``rougelab.rouge.rouge``),
``rougelab.get_metric`` / ``metric_names`` the registry's look-up, ``rougelab.load_dataset`` the data layer.
Importing the package imports none of them until they are named.
"""
from __future__ import annotations

from importlib import import_module

__version__ = "0.1.0"

__all__ = ["__version__", "load_dataset", "rouge", "get_metric", "metric_names"]


def __getattr__(name):
    # Lazy re-exports keep ``import rougelab`` fast (no pandas/torch until needed).
    if name == "load_dataset":
        from rougelab.data import load_dataset
        return load_dataset
    if name == "rouge":  # always the subpackage, however imported: the function is rougelab.rouge.rouge
        return import_module("rougelab.rouge")
    if name in ("get_metric", "metric_names"):
        from rougelab.metrics import registry
        return getattr(registry, name)
    raise AttributeError(f"module 'rougelab' has no attribute {name!r}")
