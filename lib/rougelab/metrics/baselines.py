"""Trivial baselines that exercise the metric machinery: summary length in tokens."""
from __future__ import annotations

import pandas as pd

from rougelab.metrics.base import Metric, register


def summary_length(summaries, references) -> pd.DataFrame:
    """Number of whitespace-separated tokens in each summary (ignores the references)."""
    return pd.DataFrame({"length": [float(len(s.split())) for s in summaries]})


register("length", lambda: Metric("length", summary_length, primary="length"))
