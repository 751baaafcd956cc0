"""Trivial baselines that exercise the metric machinery: summary length in tokens."""
from __future__ import annotations

import pandas as pd

from rougelab.metrics.base import Metric


def summary_length(summaries, references) -> pd.DataFrame:
    """Number of whitespace-separated tokens in each summary (ignores the references)."""
    return pd.DataFrame({"length": [float(len(s.split())) for s in summaries]})


NAMES = ("length",)


def make(name: str) -> Metric | None:
    """The ``length`` baseline (None for any other name)."""
    return Metric("length", summary_length, primary="length") if name == "length" else None
