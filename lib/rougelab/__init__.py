"""rougelab: ROUGE and its successors, implemented, tested and reproduced."""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "load_dataset", "rouge", "get_metric", "metric_names"]


def __getattr__(name):
    # Lazy re-exports keep ``import rougelab`` fast (no pandas/torch until needed).
    if name == "load_dataset":
        from rougelab.data import load_dataset
        return load_dataset
    if name == "rouge":
        from rougelab.rouge import rouge
        return rouge
    if name in ("get_metric", "metric_names"):
        from rougelab.metrics import base
        return getattr(base, name)
    raise AttributeError(f"module 'rougelab' has no attribute {name!r}")
