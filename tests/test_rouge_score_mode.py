"""rouge-score-exact scoring (issue 15.1): rougelab's rouge-score names against rouge-score 0.1.2 itself."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougelab.metrics.registry import get_metric
from rougelab.metrics.rouge_score_metrics import TYPES
from rougelab.rouge import rouge

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

# Words that stem (NLTK Porter), short ones that must not, digits, upper case, and characters whose
# str.lower() is ASCII (U+0130, the Kelvin sign) or that the tokenizer drops.
WORDS = ["The", "cat", "cats", "running", "runs", "ran", "generously", "generalization", "happiness", "sky",
         "skies", "was", "is", "a", "dying", "lying", "agreed", "feed", "2024", "x1", "abc", "Abc", "ABC",
         "\u0130stanbul", "\u212a", "caf\u00e9", "na\u00efve", "\u732b", "don't", "e.g.", "-", "us", "ties"]
SEPARATORS = [" ", " ", " ", "\n", "\n\n", ", ", ". ", ".\n", " - ", "\t", "  \n "]


@st.composite
def texts(draw):
    words = draw(st.lists(st.sampled_from(WORDS), max_size=25))
    out = []
    for w in words:
        out += [w, draw(st.sampled_from(SEPARATORS))]
    return "".join(out)


def reference_scores(rouge_type, use_stemmer, summaries, references):
    scorer = rouge_scorer.RougeScorer([rouge_type], use_stemmer=use_stemmer)
    rows = []
    for summary, refs in zip(summaries, references):
        score = scorer.score_multi(refs, summary)[rouge_type]
        rows.append((score.recall, score.precision, score.fmeasure))
    return np.array(rows, dtype=float).reshape(-1, 3)


def ours(name, summaries, references):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the non-ASCII warning, tested elsewhere
        return get_metric(name).score(summaries, references).to_numpy()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(texts(), st.lists(texts(), min_size=1, max_size=3)), min_size=1, max_size=4),
       st.sampled_from(["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]), st.booleans())
def test_equals_rouge_score_on_random_text(batch, rouge_type, use_stemmer):
    summaries = [s for s, _ in batch]
    references = [r for _, r in batch]
    name = f"{rouge_type}-stem" if use_stemmer else rouge_type
    expected = reference_scores(rouge_type, use_stemmer, summaries, references)
    np.testing.assert_allclose(ours(name, summaries, references), expected, rtol=0, atol=1e-12)


def test_every_name_is_registered_with_its_options():
    for rouge_type in TYPES:
        for name in (rouge_type, f"{rouge_type}-stem"):
            metric = get_metric(name)
            assert metric.primary == f"{rouge_type}_f"
            for option in ("tokenizer:rouge-score", "multiref:best-f", "perl_round_before_f:False",
                           f"stem:{name.endswith('-stem')}", "stemmer:porter"):
                assert option in metric.signature
    assert "splitter:none" in get_metric("rougeL").signature
    assert "splitter:newline" in get_metric("rougeLsum").signature


def test_best_f_keeps_the_first_reference_on_ties():
    # Both references give F = 2/3 for rouge1 (P and R swapped); rouge-score's argmax keeps the first.
    summaries, references = ["a b"], [["a b c d", "a"]]
    expected = reference_scores("rouge1", False, summaries, references)
    np.testing.assert_allclose(ours("rouge1", summaries, references), expected, rtol=0, atol=1e-12)
    assert expected[0, 0] == 0.5


@pytest.fixture(scope="module")
def summeval(summeval_table):
    return summeval_table["summary"].tolist(), [list(r) for r in summeval_table["references"]]


def check_summeval(summeval, n, rouge_types):
    summaries, references = summeval[0][:n], summeval[1][:n]
    for rouge_type in rouge_types:
        for use_stemmer in (False, True):
            name = f"{rouge_type}-stem" if use_stemmer else rouge_type
            expected = reference_scores(rouge_type, use_stemmer, summaries, references)
            got = ours(name, summaries, references)
            assert np.abs(got - expected).max() <= 1e-12, name


def test_summeval_sample_equals_rouge_score(summeval):
    check_summeval(summeval, 40, ["rouge1", "rouge2", "rougeL", "rougeLsum"])


@pytest.mark.slow
def test_all_of_summeval_equals_rouge_score(summeval):
    """All 1,600 summaries x 11 references, stemmed and unstemmed: zero mismatches (several minutes:
    rouge-score is pure Python)."""
    check_summeval(summeval, len(summeval[0]), ["rouge1", "rouge2", "rougeL", "rougeLsum"])


def test_rouge_api_options_match_the_registry():
    summaries, references = ["The cats ran.\nDogs sat"], [["A cat runs\nthe dogs sit", "cats"]]
    table = rouge(summaries, references, ["rouge-1", "rouge-l"], tokenizer="rouge-score", stem=True,
                  multiref="best-f", perl_round_before_f=False)
    assert table["rouge1_f"].iloc[0] == ours("rouge1-stem", summaries, references)[0, 2]
    assert table["rougel_f"].iloc[0] == ours("rougeLsum-stem", summaries, references)[0, 2]
