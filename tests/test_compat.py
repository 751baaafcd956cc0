"""rougelab.compat against rouge-score 0.1.2 itself and Hugging Face evaluate's rouge ``compute``.

``evaluate`` is not installed: ``hf_compute`` below is its ``_compute`` protocol (evaluate's metrics/rouge:
``score_multi`` when references[0] is a list, else ``score``; ``BootstrapAggregator().aggregate()[t].mid
.fmeasure``, or the per-pair F list without the aggregator) run on rouge-score itself.
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougelab import compat
from rougelab.scoring import InputError

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
scoring = pytest.importorskip("rouge_score.scoring")

WORDS = ["The", "cat", "cats", "running", "runs", "ran", "generously", "happiness", "sky", "skies", "was",
         "is", "a", "dying", "agreed", "2024", "x1", "abc", "ABC", "don't", "e.g.", "-", "us", "ties"]
SEPARATORS = [" ", " ", " ", "\n", "\n\n", ", ", ". ", ".\n", "\t"]
TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]


@st.composite
def texts(draw):
    out = []
    for w in draw(st.lists(st.sampled_from(WORDS), max_size=20)):
        out += [w, draw(st.sampled_from(SEPARATORS))]
    return "".join(out)


def as_tuples(scores):
    return {k: tuple(v) for k, v in scores.items()}


def assert_close(ours, theirs):
    assert list(ours) == list(theirs)
    for k in theirs:
        np.testing.assert_allclose(np.asarray(ours[k], dtype=float), np.asarray(theirs[k], dtype=float),
                                   rtol=0, atol=1e-12)


def hf_compute(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False):
    rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer)
    multi_ref = isinstance(references[0], list)
    scores = [scorer.score_multi(r, p) if multi_ref else scorer.score(r, p) for r, p in zip(references, predictions)]
    if not use_aggregator:
        return {k: [s[k].fmeasure for s in scores] for k in scores[0]}
    aggregator = scoring.BootstrapAggregator()
    for s in scores:
        aggregator.add_scores(s)
    return {k: v.mid.fmeasure for k, v in aggregator.aggregate().items()}


@pytest.fixture(autouse=True)
def _no_ascii_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the non-ASCII warning, tested elsewhere
        yield


@settings(max_examples=40, deadline=None)
@given(texts(), texts(), st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True), st.booleans())
def test_score_equals_rouge_score(target, prediction, types, use_stemmer):
    ours = compat.RougeScorer(types, use_stemmer=use_stemmer).score(target, prediction)
    theirs = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer).score(target, prediction)
    assert_close(as_tuples(ours), as_tuples(theirs))
    assert all(type(s).__name__ == "Score" and s._fields == ("precision", "recall", "fmeasure")
               for s in ours.values())


@settings(max_examples=30, deadline=None)
@given(st.lists(texts(), min_size=1, max_size=3), texts(), st.sampled_from(TYPES), st.booleans())
def test_score_multi_equals_rouge_score(targets, prediction, rouge_type, use_stemmer):
    ours = compat.RougeScorer([rouge_type], use_stemmer=use_stemmer).score_multi(targets, prediction)
    theirs = rouge_scorer.RougeScorer([rouge_type], use_stemmer=use_stemmer).score_multi(targets, prediction)
    assert_close(as_tuples(ours), as_tuples(theirs))


def test_target_comes_first_so_a_copied_call_keeps_precision_and_recall():
    target, prediction = "the cat sat on the mat", "the cat"
    score = compat.RougeScorer(["rouge1"]).score(target, prediction)["rouge1"]
    assert score.precision == 1.0 and score.recall == pytest.approx(2 / 6)  # both words of the prediction match
    assert tuple(score) == tuple(rouge_scorer.RougeScorer(["rouge1"]).score(target, prediction)["rouge1"])


def test_signatures_are_rouge_scores():
    pairs = [(compat.RougeScorer.__init__, rouge_scorer.RougeScorer.__init__),
             (compat.RougeScorer.score, rouge_scorer.RougeScorer.score),
             (compat.RougeScorer.score_multi, rouge_scorer.RougeScorer.score_multi),
             (compat.BootstrapAggregator.__init__, scoring.BootstrapAggregator.__init__),
             (compat.BootstrapAggregator.add_scores, scoring.BootstrapAggregator.add_scores),
             (compat.BootstrapAggregator.aggregate, scoring.BootstrapAggregator.aggregate)]
    for ours, theirs in pairs:
        assert str(inspect.signature(ours)) == str(inspect.signature(theirs)), ours.__qualname__


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(texts(), texts()), min_size=1, max_size=6), st.integers(0, 2**31 - 1))
def test_bootstrap_aggregator_equals_rouge_scores_under_the_same_numpy_seed(pairs, seed):
    types = ["rouge1", "rougeL"]
    results = []
    for scorer, aggregator in [(compat.RougeScorer(types), compat.BootstrapAggregator(n_samples=50)),
                               (rouge_scorer.RougeScorer(types), scoring.BootstrapAggregator(n_samples=50))]:
        for target, prediction in pairs:
            aggregator.add_scores(scorer.score(target, prediction))
        np.random.seed(seed)
        results.append(aggregator.aggregate())
    ours, theirs = results
    assert list(ours) == list(theirs)
    for k in theirs:
        assert type(ours[k]).__name__ == "AggregateScore"
        np.testing.assert_allclose(np.array(ours[k], dtype=float), np.array(theirs[k], dtype=float),
                                   rtol=0, atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(texts(), st.lists(texts(), min_size=1, max_size=2)), min_size=1, max_size=5),
       st.booleans(), st.booleans(), st.booleans(), st.integers(0, 2**31 - 1))
def test_compute_equals_evaluate(batch, multi_ref, use_aggregator, use_stemmer, seed):
    predictions = [p for p, _ in batch]
    references = [r if multi_ref else r[0] for _, r in batch]
    np.random.seed(seed)
    ours = compat.compute(predictions=predictions, references=references, use_aggregator=use_aggregator,
                          use_stemmer=use_stemmer)
    np.random.seed(seed)
    theirs = hf_compute(predictions, references, use_aggregator=use_aggregator, use_stemmer=use_stemmer)
    assert_close(ours, theirs)


def test_compute_rouge_types_option():
    out = compat.compute(predictions=["a b c"], references=["a b d"], rouge_types=["rouge2"], use_aggregator=False)
    assert out == {"rouge2": [pytest.approx(0.5)]}


@pytest.mark.parametrize("call, parameter", [
    (lambda: compat.RougeScorer(["rouge0"]), "rouge0"),
    (lambda: compat.RougeScorer("rouge1"), "rouge_types"),
    (lambda: compat.RougeScorer(["rouge1"], tokenizer=object()), "tokenizer"),
    (lambda: compat.RougeScorer(["rougeLsum"], split_summaries=True), "split_summaries"),
    (lambda: compat.RougeScorer(["rouge1"]).score(["a"], "a"), "target"),
    (lambda: compat.RougeScorer(["rouge1"]).score_multi([], "a"), "targets"),
    (lambda: compat.compute(predictions=["a", "b"], references=["a"]), "predictions"),
    (lambda: compat.BootstrapAggregator(n_samples=0), "n_samples"),
])
def test_refusals_name_the_parameter(call, parameter):
    with pytest.raises(InputError, match=parameter):
        call()
