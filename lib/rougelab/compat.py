"""Switch from Google rouge-score or Hugging Face ``evaluate`` by changing one import line.

``RougeScorer``, ``Score``, ``AggregateScore`` and ``BootstrapAggregator`` have rouge-score 0.1.2's
signatures and return types (``from rougelab.compat import RougeScorer`` for
``from rouge_score.rouge_scorer import RougeScorer``); ``compute`` is the ``compute`` of
``evaluate.load("rouge")``. The numbers are those of the originals (to 1e-12; tests/test_compat.py) and come
from rougelab's batch path: the registry's rouge-score names (``rouge1`` .. ``rouge9``, ``rougeL``,
``rougeLsum``, each with ``-stem``; ``rougelab.metrics.rouge_score_metrics``).

The argument order is rouge-score's: ``score(target, prediction)``, the reference FIRST, where
``rougelab.rouge.rouge(summaries, references)`` puts the summary first. Swapping them swaps precision and recall.

Where the originals would be silent, these refuse: an unknown rouge type is an error when the scorer is
made (rouge-score: at the first ``score``), a custom ``tokenizer`` and ``split_summaries=True`` are refused
(see ``RougeScorer``), and ``compute`` refuses predictions and references of different lengths
(``evaluate`` scores the shorter length). The bootstrap draws from NumPy's global generator as
rouge-score's does, so ``numpy.random.seed(s)`` before either gives the same interval.
"""
from __future__ import annotations

import collections

import numpy as np

from rougelab.scoring import InputError

__all__ = ["Score", "AggregateScore", "RougeScorer", "BootstrapAggregator", "compute"]

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")  # evaluate's default rouge_types


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F of one rouge type (rouge-score's ``scoring.Score``)."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """A bootstrap interval of ``Score`` tuples (rouge-score's ``scoring.AggregateScore``)."""


class RougeScorer:
    """rouge-score's ``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)``.

    ``rougeLsum`` reads the lines of a text as its sentences. ``split_summaries=True`` (rouge-score: NLTK's
    pre-trained Punkt model, a download this project does not make) is refused: put one sentence per line.
    """

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        if tokenizer is not None:
            raise InputError("tokenizer: rougelab.compat implements rouge-score's default tokenizer only; "
                             "drop the argument, or use rouge_score itself for a custom tokenizer")
        if split_summaries:
            raise InputError("split_summaries=True needs NLTK's pre-trained Punkt model, which rougelab does "
                             "not use: put one sentence per line (the default) and drop the argument")
        if isinstance(rouge_types, str):
            raise InputError(f"rouge_types is a list of names, e.g. [{rouge_types!r}], not a string")
        self.rouge_types = rouge_types
        self._metrics = {t: _metric(t, use_stemmer) for t in rouge_types}

    def score(self, target, prediction):
        """{rouge type: Score} of ``prediction`` against the reference ``target`` (reference first)."""
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        return self.score_batch([target], [prediction])[0]

    def score_multi(self, targets, prediction):
        """{rouge type: Score} against the reference of best F per type among ``targets``."""
        if isinstance(targets, str) or not targets:
            raise InputError("targets is a non-empty list of reference texts")
        _check_text(prediction, "prediction")
        return self.score_batch([list(targets)], [prediction])[0]

    def score_batch(self, targets, predictions):
        """``score`` (a ``str`` target) or ``score_multi`` (a list) for each pair, in one batch: a list of
        {rouge type: Score}. Not in rouge-score; far faster than a loop over ``score``."""
        if len(targets) != len(predictions):
            raise InputError(f"{len(targets)} targets but {len(predictions)} predictions: pass one each")
        references = [[t] if isinstance(t, str) else list(t) for t in targets]
        columns = {t: metric.score(list(predictions), references).to_numpy()
                   for t, metric in self._metrics.items()}
        return [{t: Score(float(c[i, 1]), float(c[i, 0]), float(c[i, 2])) for t, c in columns.items()}
                for i in range(len(predictions))]


class BootstrapAggregator:
    """rouge-score's ``BootstrapAggregator(confidence_interval=0.95, n_samples=1000)``: ``add_scores``
    then ``aggregate`` gives {type: AggregateScore(low, mid, high)}; ``mid`` is the median of the
    resample means (``rougelab.rouge.aggregation.rouge_score_resample``)."""

    def __init__(self, confidence_interval=0.95, n_samples=1000):
        if not 0 <= confidence_interval <= 1:
            raise InputError(f"confidence_interval must be in [0, 1], got {confidence_interval}")
        if n_samples <= 0:
            raise InputError(f"n_samples must be positive, got {n_samples}")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        """Add one pair's {type: Score} (as ``RougeScorer.score`` returns)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self):
        from rougelab.rouge.aggregation import rouge_score_resample

        result = {}
        for score_type, scores in self._scores.items():
            bounds = rouge_score_resample(np.vstack(tuple(scores)), self._n_samples,
                                          self._confidence_interval, np.random)
            kind = scores[0].__class__
            result[score_type] = AggregateScore(*(kind(*row) for row in bounds))
        return result


def compute(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False,
            tokenizer=None):
    """Hugging Face ``evaluate.load("rouge").compute(...)``: {type: F} with the aggregator (the ``mid``
    F of ``BootstrapAggregator``), else {type: [F per pair]}. ``references`` holds one text per
    prediction, or a list of texts per prediction (the best F counts)."""
    if len(predictions) != len(references):
        raise InputError(f"{len(predictions)} predictions but {len(references)} references: "
                         "pass one reference (or list of references) per prediction")
    rouge_types = list(DEFAULT_TYPES if rouge_types is None else rouge_types)
    scorer = RougeScorer(rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    if not predictions:
        raise InputError("predictions is empty: pass at least one prediction")
    multi_ref = isinstance(references[0], list)
    scores = scorer.score_batch([r if multi_ref else [r] for r in references], predictions)
    if not use_aggregator:
        return {t: [s[t].fmeasure for s in scores] for t in rouge_types}
    aggregator = BootstrapAggregator()
    for score in scores:
        aggregator.add_scores(score)
    return {t: interval.mid.fmeasure for t, interval in aggregator.aggregate().items()}


def _metric(rouge_type: str, use_stemmer: bool):
    from rougelab.metrics.rouge_score_metrics import TYPES, rouge_score_metric

    if rouge_type not in TYPES:
        raise InputError(f"invalid rouge type {rouge_type!r}: use {', '.join(TYPES)}")
    return rouge_score_metric(rouge_type, bool(use_stemmer))


def _check_text(text, name: str) -> None:
    if not isinstance(text, str):
        raise InputError(f"{name} must be a str, got {type(text).__name__}")
