"""Input Document Similarity Score: IDSS = ROUGE-L^f(S, D) (Jain et al. 2022, Eq. 8).

The default similarity is what the authors' code computes: rouge-score's ``rougeL`` F-measure
(one LCS over the whole texts, Porter stemming), summary against source. Table 2 compares other
ROUGE variants; ``similarity`` takes any of them:

* ``"rouge-score-l"`` (default), ``"rouge-score-l-r"``, ``"rouge-score-l-p"``: that LCS score's F, R or P;
* a callable ``f(summaries, sources) -> sequence of floats``; ``metric_similarity(metric, column)`` makes
  one from any ``Metric``, scored with the source as the only reference, e.g.
  ``metric_similarity(get_metric("rouge-1"), "rouge1_r")`` (ROUGE-1.5.5 as the registry defines it).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.widar.cache import ItemCache, text_key
from rougelab.metrics.widar.rougescore_l import rouge_l
from rougelab.metrics.widar.tokenize import ROUGE_SCORE

_BUILTIN = {"rouge-score-l": 2, "rouge-score-l-r": 1, "rouge-score-l-p": 0}


def idss(summaries: Sequence[str], sources: Sequence[str], similarity: str | Callable = "rouge-score-l", *,
         cache: bool = True) -> np.ndarray:
    """IDSS of every summary against its source (Eq. 8); an empty summary or source gives 0.

    Returns
    -------
    (len(summaries),) float array.
    """
    if len(summaries) != len(sources):
        raise InputError(f"{len(summaries)} summaries but {len(sources)} sources")
    if callable(similarity):
        values = np.asarray(similarity(list(summaries), list(sources)), dtype=float)
        if values.shape != (len(summaries),):
            raise InputError(f"the IDSS similarity returned shape {values.shape}, expected ({len(summaries)},)")
        return values
    if similarity in _BUILTIN:
        return _rouge_score_l(summaries, sources, _BUILTIN[similarity], cache)
    raise InputError(f"unknown IDSS similarity {similarity!r}: use one of {', '.join(_BUILTIN)} "
                     "or a callable (metric_similarity(metric, column) makes one from a metric)")


def metric_similarity(metric: Metric, column: str) -> Callable[[list, list], np.ndarray]:
    """An IDSS similarity from ``metric``: its ``column``, the summary scored against the source alone."""
    def similarity(summaries, sources):
        table = metric.score(summaries, [[s] for s in sources], sources if metric.needs_source else None)
        if column not in table.columns:
            raise InputError(f"metric {metric.name!r} has no column {column!r}; it has {', '.join(table.columns)}")
        return table[column].to_numpy(dtype=float)
    return similarity


def _rouge_score_l(summaries, sources, field: int, cache: bool) -> np.ndarray:
    store = ItemCache("idss", {"similarity": "rouge-score-l", "preprocessing": ROUGE_SCORE.signature}, enabled=cache)
    out = np.empty((len(summaries), 3))
    for i, (summary, source) in enumerate(zip(summaries, sources)):
        key = text_key(summary, source)
        value = store.get(key)
        if value is None:
            value = list(rouge_l(*ROUGE_SCORE.tokens([source, summary])))
            store.put(key, value)
        out[i] = value
    store.save()
    return out[:, field]
