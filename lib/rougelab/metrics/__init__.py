"""Metrics behind one interface (see ``base``); ``load_all`` registers the built-in ones."""
from __future__ import annotations

import importlib

# Modules that call ``register`` at import time. Each metric module adds itself here.
_BUILTIN_MODULES = [
    "rougelab.metrics.baselines",
    "rougelab.metrics.sacrebleu_metrics",
    "rougelab.metrics.widar",
    "rougelab.metrics.rouge_we",
    "rougelab.metrics.anchored",
    "rougelab.metrics.bertscore",
    "rougelab.metrics.rouge_metrics",
    "rougelab.metrics.rouge_score_metrics",
    "rougelab.metrics.rouge_g",
]
_loaded = False


def load_all() -> None:
    """Import every built-in metric module once, so their ``register`` calls run."""
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _BUILTIN_MODULES:
            importlib.import_module(module)
