"""Score a dataset with registered metrics and correlate each with every human criterion."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.registry import get_metric
from rougelab.score_cache import cached_scores
from rougelab.validation import check_each_once, check_names

if TYPE_CHECKING:  # no pandas at import: `rougelab score` checks its --metric names here
    import pandas as pd

TEXT_COLUMNS = ("dataset", "doc_id", "system_id", "source", "references", "summary")


def human_columns(table: pd.DataFrame) -> list[str]:
    """The human-judgment columns of a dataset table: every column after the text columns."""
    return [c for c in table.columns if c not in TEXT_COLUMNS]


def metrics_named(names: list[str]) -> list[Metric]:
    """The registry's metric for each name; ``InputError`` for none, an unknown one or one named twice."""
    names = check_names(names, "metric names", empty=True)
    if not names:
        raise InputError("no metric named: give one or more names (see `rougelab metrics`)")
    check_each_once(names, "{names} named more than once: name each metric once")
    return [get_metric(name) for name in names]


def check_criteria(table: pd.DataFrame, criteria: list[str] | None) -> list[str]:
    """``criteria`` (default: every human column of ``table``); ``InputError`` for an unknown one."""
    known = human_columns(table)
    if criteria is None:
        return known
    criteria = check_names(criteria, "criteria", empty=True)
    unknown = [c for c in criteria if c not in known]
    if unknown or not criteria:
        raise InputError(f"unknown criterion {', '.join(map(repr, unknown)) or '(none given)'}: "
                         f"this dataset has {', '.join(known)}")
    return criteria


def add_metric_scores(table: pd.DataFrame, metric_names: list[str], *, column: str = "primary",
                      progress: bool = True) -> pd.DataFrame:
    """A copy of ``table`` with one column per metric, named after it (its primary score).

    ``column="all"`` adds every column the metric returns, prefixed with ``<metric>:``.
    Scores come through the content-addressed score cache (``cached_scores``: metrics that differ only
    in their measures are scored together).
    """
    out = table.copy()
    metrics = [get_metric(name) for name in metric_names]
    summaries, references = list(table["summary"]), [list(r) for r in table["references"]]
    sources = list(table["source"]) if any(m.needs_source for m in metrics) else None
    tables = cached_scores(metrics, summaries, references, sources, progress=progress)
    for name, metric, scores in zip(metric_names, metrics, tables):
        if column == "all":
            for col in scores.columns:
                out[f"{name}:{col}"] = scores[col].to_numpy()
        else:
            out[name] = scores[metric.primary].to_numpy()
    return out


def evaluate(dataset: str, metric_names: list[str], *, level: str = "summary", coef: str = "kendall",
             criteria: list[str] | None = None, n_resamples: int = 0, seed: int = 0,
             progress: bool = True) -> pd.DataFrame:
    """Correlation of each metric with each human criterion of ``dataset``.

    Metric names, level, coefficient, ``n_resamples`` (0: no interval, or at least 40), ``seed`` and criteria are all checked
    before any scoring (``InputError`` / ``ValueError`` otherwise).
    Returns one row per (metric, criterion) with columns metric, criterion, level, coef, value, ci_low,
    ci_high (the interval is NaN unless ``n_resamples`` > 0: bootstrap over systems and inputs, Deutsch et al. 2021; over inputs only, i.e. over pairs, for a dataset judged by
    pairwise accuracy, whose two "systems" are labels such as correct/incorrect).
    ``coef`` may be a pairwise accuracy (``accuracy``, ``accuracy-half``, ``accuracy-eq``).
    A level or coefficient the dataset's design cannot support (``supported``) is a ValueError.
    """
    from rougelab.data import load_dataset
    from rougelab.metaeval import correlation_table
    from rougelab.metaeval.bootstrap import check_bootstrap_args

    # Everything is checked before the (possibly long) scoring starts.
    metrics_named(metric_names)
    resample = supported(dataset, level, coef)
    n_resamples = check_bootstrap_args(n_resamples, resample, 0.95, seed, optional=True)
    table = load_dataset(dataset)
    criteria = check_criteria(table, criteria)
    scored = add_metric_scores(table, metric_names, progress=progress)
    return correlation_table(scored, metric_names, criteria, levels=[level], coefs=[coef],
                             n_resamples=n_resamples, seed=seed, resample=resample,
                             progress=progress)


def supported(dataset: str, level: str, coef: str) -> str:
    """Raise ``ValueError`` unless ``dataset``'s registry entry supports ``level`` and ``coef``;
    return how its bootstrap resamples (``"both"``, or ``"inputs"`` for a set of pairs)."""
    from rougelab.data import nist
    from rougelab.data.registry import Dataset, get

    # A NIST release (peers x inputs) supports what a registered dataset does by default.
    entry = Dataset if isinstance(dataset, str) and dataset in nist.RELEASES else get(dataset)
    for option, value, allowed in (("level", level, entry.levels), ("coef", coef, entry.coefs)):
        if value not in allowed:
            raise ValueError(f"dataset {dataset!r} supports --{option} {', '.join(allowed)} only, "
                             f"not {value!r} (its design: `rougelab data list`)")
    return "inputs" if all(c.startswith("accuracy") for c in entry.coefs) else "both"
