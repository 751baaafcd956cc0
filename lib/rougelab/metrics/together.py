"""Several metrics over one batch in as few scorer calls as their declarations allow.

Metrics that declare ``joins`` (classic ROUGE, ROUGE-G and ROUGE-WE: ``measures``) and are equal in
everything else -- scorer, options, pins, resources -- are scored in one call with the union of their
lists, which shares the work between them (the tokens, ROUGE-G's Sim_sem blocks); each metric then
gets its declared ``columns`` of that table, the numbers it gives alone (tests/test_score_cache.py).
Any other metric is scored by a call of its own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rougelab.metrics.base import Metric
from rougelab.progress import bar
from rougelab.score_table import ScoreTable
from rougelab.scoring import checked_batch

if TYPE_CHECKING:
    import pandas as pd


def score_together(metrics: Sequence[Metric], summaries, references, sources=None, *,
                   progress: bool = False, frames: bool = True) -> list[pd.DataFrame | ScoreTable]:
    """``[metric.score(summaries, references, sources) for metric in metrics]``, from one call per group
    of metrics that can join; ``progress`` shows a bar over the calls. ``frames=False``: each table as
    ``Metric.score_table`` gives it (a ``ScoreTable`` where the scorer has one: no pandas)."""
    with checked_batch(summaries, references, sources, needs_source=any(m.needs_source for m in metrics)):
        groups: dict[tuple, list[int]] = {}
        for i, metric in enumerate(metrics):
            groups.setdefault(joint_key(metric), []).append(i)
        tables: list = [None] * len(metrics)
        for members in bar(groups.values(), progress=progress and len(groups) > 1, desc="metrics"):
            group = [metrics[i] for i in members]
            for i, table in zip(members, _score_group(group, summaries, references, sources, frames)):
                tables[i] = table
        return tables


def joint_key(metric: Metric) -> tuple:
    """Metrics with equal keys are scored in one call (a metric that does not join: only alone)."""
    if metric.joins is None:
        return (id(metric),)
    others = sorted((k, repr(v)) for k, v in metric.options.items() if k != metric.joins)
    return (metric.scorer, metric.joins, metric.needs_source, metric.resources, metric.packages,
            repr(sorted(metric.pins.items())), repr(others))


def _score_group(metrics: list[Metric], summaries, references, sources, frames: bool) -> list:
    sources = sources if metrics[0].needs_source else None
    if len(metrics) == 1:
        return [_score(metrics[0], frames, summaries, references, sources)]
    option = metrics[0].joins
    union = list(dict.fromkeys(v for metric in metrics for v in metric.options[option]))
    joint = _score(metrics[0].with_options(**{option: union}), frames, summaries, references, sources)
    missing = sorted({c for metric in metrics for c in metric.columns} - set(joint.columns))
    if missing:
        raise ValueError(f"metrics {', '.join(m.name for m in metrics)} declare the columns {missing}, "
                         f"which their joint call on {option!r} did not return")
    return [_columns(joint, metric.columns) for metric in metrics]


def _columns(table, columns: tuple[str, ...]):
    """``table[list(columns)]``; a DataFrame's taken by position, found in the list of its names: in less than
    half the time of pandas' own lookup (``get_indexer``), itself faster than taking them by name."""
    if isinstance(table, ScoreTable):
        return table[list(columns)]
    names = table.columns.tolist()
    return table.iloc[:, [names.index(column) for column in columns]]


def _score(metric: Metric, frames: bool, *batch):
    return metric.score(*batch) if frames else metric.score_table(*batch)
