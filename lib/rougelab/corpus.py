"""One call from texts to the numbers a paper reports: corpus scores, bootstrap intervals and the signature.

``corpus_score(summaries, references, metrics=["rouge-1", "rouge-2"])`` scores every summary with each
registered metric (``rougelab metrics``) and returns a ``CorpusScore``: for every column of every metric
the corpus score (the mean over summaries), the ends of its bootstrap percentile interval, the
per-summary rows and the signature that pins every setting. ``rougelab score`` prints the same.

The bootstrap: ``n_resamples`` times, n summaries drawn with replacement
(``numpy.random.default_rng(seed).integers(0, n, (n_resamples, n))``, the draws of ``rougelab.compare``'s
paired bootstrap with the same seed), every column from the same draws; ``low`` and ``high`` are the
(1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the resampled means
(``rougelab.metaeval.bootstrap.percentile_interval``).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Sequence

import numpy as np

from rougelab.metaeval.resampling import DEFAULT_SEED, chunks, draw_indices, percentile_interval
from rougelab.score_table import ScoreTable
from rougelab.scoring import InputError
from rougelab.validation import check_each_once, check_interval_resamples, check_probability, check_seed

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CorpusScore", "corpus_score"]

TABLE_COLUMNS = ("metric", "column", "score", "low", "high")


@dataclass(frozen=True)
class CorpusScore:
    """The result of ``corpus_score``.

    ``table``: one row per metric column, with ``metric``, ``column``, ``score`` (the mean over
    summaries), ``low`` and ``high`` (the bootstrap interval; NaN with ``n_resamples=0``).
    ``rows``: the per-summary scores, one column per metric column (every one named ``metric:column``
    when two metrics share a column name). ``signature``: each metric's signature, then the bootstrap's settings.
    ``str(result)`` is the text ``rougelab score`` prints; ``to_dict()`` its JSON. ``table`` and ``rows`` are
    DataFrames built when first read: the text and the JSON need no pandas.
    """

    labels: tuple[tuple[str, str], ...]  # (metric, column) of each row of ``table``
    scores: np.ndarray                   # (score, low, high) of each row of ``table``
    tables: tuple                        # each metric's per-summary table (ScoreTable or DataFrame)
    metric_names: tuple[str, ...]
    signature: str

    @cached_property
    def table(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame({"metric": [m for m, _ in self.labels], "column": [c for _, c in self.labels],
                             **dict(zip(TABLE_COLUMNS[2:], self.scores.T))})

    @cached_property
    def rows(self) -> pd.DataFrame:
        return _joined(self.metric_names, [t.frame() if isinstance(t, ScoreTable) else t for t in self.tables])

    def to_dict(self) -> dict:
        scores = [dict(zip(TABLE_COLUMNS, [*label, *(None if math.isnan(x) else x for x in numbers.tolist())]))
                  for label, numbers in zip(self.labels, self.scores)]
        return {"scores": scores, "signature": self.signature}

    def format(self, fmt: str = "text") -> str:
        """The corpus scores as ``text`` (a table, then the signature), ``json`` or ``csv``."""
        if fmt == "json":
            return json.dumps(self.to_dict(), indent=1)
        if fmt == "csv":
            return self.table.to_csv(index=False, float_format="%.6f").rstrip("\n")
        if fmt != "text":
            raise InputError(f"format must be text, json or csv, got {fmt!r}")
        cells = [[*label, *("" if math.isnan(x) else f"{x:.4f}" for x in numbers.tolist())]
                 for label, numbers in zip(self.labels, self.scores)]
        # as pandas lays it out: a space before the name of a column of numbers
        header = [*TABLE_COLUMNS[:2], *(f" {name}" for name in TABLE_COLUMNS[2:])]
        return f"{_aligned([header, *cells])}\nsignature: {self.signature}"

    def __str__(self) -> str:
        return self.format("text")


def _aligned(lines: list[list[str]]) -> str:
    """Rows of cells as ``DataFrame.to_string(index=False)`` lays them out: each column right-aligned to
    its widest cell (the header's included), one space between columns (tests/test_score_corpus.py checks
    the text against pandas')."""
    widths = [max(map(len, column)) for column in zip(*lines)]
    return "\n".join(" ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in lines)


def corpus_score(summaries: Sequence[str], references: Sequence[Sequence[str]], metrics=("rouge-1",),
                 sources: Sequence[str] | None = None, *, n_resamples: int = 1000, confidence: float = 0.95,
                 seed: int = DEFAULT_SEED) -> CorpusScore:
    """Corpus scores with bootstrap intervals and the signature (module docstring).

    Parameters
    ----------
    summaries : list of str
    references : list of lists of str
        The references of each summary.
    metrics : list of str or Metric
        Registered names (``rougelab metrics``) or metric objects; a string is one name.
    sources : list of str, optional
        The source documents, for metrics that read them.
    n_resamples : int
        Bootstrap resamples (0: no interval).
    confidence : float
        The interval's coverage, a fraction.
    seed : int
        The bootstrap's seed.
    """
    from rougelab.metrics.registry import get_metric
    from rougelab.metrics.together import score_together

    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = [get_metric(m) if isinstance(m, str) else m for m in metrics]
    if not metrics:
        raise InputError("metrics: name at least one metric, e.g. metrics=['rouge-1']")
    check_each_once([m.name for m in metrics], "metrics: {names} given more than once: give each metric once")
    _resampling(n_resamples, confidence, seed)  # bad settings refused before the scoring, not after
    tables = score_together(metrics, summaries, references, sources, frames=False)  # ROUGE-1, -2, -L: one call
    return corpus_of_tables(metrics, tables, n_resamples=n_resamples, confidence=confidence, seed=seed)


def corpus_of_tables(metrics, tables, *, n_resamples: int = 1000, confidence: float = 0.95,
                     seed: int = DEFAULT_SEED) -> CorpusScore:
    """The ``CorpusScore`` of per-summary ``tables`` already computed (DataFrames, such as ``rougelab score
    --dask`` gathers from its workers, or ``ScoreTable``s), one per metric of ``metrics`` (``Metric`` objects)."""
    n_resamples, confidence, seed = _resampling(n_resamples, confidence, seed)
    values = np.concatenate([np.asarray(table.values, dtype=float) for table in tables], axis=1)
    if n_resamples:
        _, items = draw_indices(np.random.default_rng(seed), 1, len(values), int(n_resamples), resample="inputs")
        means = np.concatenate([values[items[part]].mean(axis=1) for part in chunks(len(items), values.size)])
        bounds = [percentile_interval(means[:, k], confidence) for k in range(values.shape[1])]
    else:
        bounds = [(np.nan, np.nan)] * values.shape[1]
    labels = tuple((metric.name, column) for metric, table in zip(metrics, tables) for column in table.columns)
    scores = np.column_stack([values.mean(axis=0), np.array(bounds, dtype=float)])
    settings = f"bootstrap:{int(n_resamples)}|confidence:{confidence}|seed:{seed}" if n_resamples else "bootstrap:0"
    signature = " + ".join(metric.signature for metric in metrics) + f" + {settings}"
    return CorpusScore(labels, scores, tuple(tables), tuple(metric.name for metric in metrics), signature)


def _resampling(n_resamples, confidence, seed) -> tuple:
    """The bootstrap's settings, checked (an ``InputError`` naming the parameter)."""
    confidence = check_probability(confidence, "confidence")
    return check_interval_resamples(n_resamples, confidence, "n_resamples", optional=True), confidence, check_seed(seed)


def _joined(names, tables) -> pd.DataFrame:
    """The per-summary tables side by side. Columns keep their names when no two metrics share one;
    otherwise every column gets its metric's name in front (``rouge-1:rouge1_r``, ``rouge1:rouge1_r``),
    so a column never stands for two metrics."""
    import pandas as pd

    columns = [c for table in tables for c in table.columns]
    if len(set(columns)) < len(columns):
        tables = [table.add_prefix(f"{name}:") for name, table in zip(names, tables)]
    return pd.concat(tables, axis=1)
