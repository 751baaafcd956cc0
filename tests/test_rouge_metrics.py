"""Registry entries for classic ROUGE: names, defaults (ROUGE-1.5.5 -m, -f A, F), signatures."""
from __future__ import annotations

import pytest

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric, metric_names
from rougelab.rouge import rouge

SUMMARIES = ["The cats were sitting on the mat.", "Dogs bark."]
REFERENCES = [["A cat sat on the mat.", "The cat is on a mat."], ["The dog barked."]]


def test_bare_name_means_stemmed_pooled_f():
    metric = get_metric("rouge-2")
    assert metric.primary == "rouge2_f"
    for part in ("stem:True", "stopwords:False", "multiref:A", "alpha:0.5", "tokenizer:rouge155",
                 "perl_round_before_f:True", "splitter:newline"):
        assert part in metric.signature
    table = metric.score(SUMMARIES, REFERENCES)
    assert list(table.columns) == ["rouge2_r", "rouge2_p", "rouge2_f"]
    assert table.equals(rouge(SUMMARIES, REFERENCES, ["rouge-2"], stem=True, multiref="A", splitter="newline"))


@pytest.mark.parametrize("name, primary, options", [
    ("rouge-2-recall", "rouge2_r", dict(stem=True, stopwords=False, multiref="A")),
    ("rouge-2-nostem", "rouge2_f", dict(stem=False, stopwords=False, multiref="A")),
    ("rouge-2-best", "rouge2_f", dict(stem=True, stopwords=False, multiref="B")),
    ("rouge-su4-stop-jackknife-precision", "rougesu4_p", dict(stem=True, stopwords=True, multiref="jackknife")),
    ("rouge-w-1.2", "rougew1.2_f", dict(stem=True, stopwords=False, multiref="A")),
    ("rouge-2-jackknife-pooled", "rouge2_f", dict(stem=True, stopwords=False, multiref="jackknife-A")),
    ("rouge-1-refmean-recall", "rouge1_r", dict(stem=True, stopwords=False, multiref="mean")),
    ("rouge-1-noexc", "rouge1_f", dict(stem=True, stem_exceptions=(), stopwords=False, multiref="A")),
    ("rouge-s*-nostem", "rouges*_f", dict(stem=False, stopwords=False, multiref="A")),
    ("rouge-l-nltk-stop", "rougel_f", dict(stem=True, stopwords=True, multiref="A", splitter="nltk")),
])
def test_spelled_out_settings(name, primary, options):
    metric = get_metric(name)
    assert metric.primary == primary and name in metric.signature
    measure = name.split("-")[1] if not name.startswith("rouge-w") else "w-1.2"
    assert metric.options["splitter"] == options.setdefault("splitter", "newline")
    expected = rouge(SUMMARIES, REFERENCES, [f"rouge-{measure}"], **options)
    assert metric.score(SUMMARIES, REFERENCES).equals(expected)


def test_all_17_lin_measures_under_case_stem_stop():
    names = set(metric_names())
    for measure in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "l", "w-1.2", "s4", "s9", "s*", "su4", "su9", "su*"]:
        assert {f"rouge-{measure}", f"rouge-{measure}-nostem", f"rouge-{measure}-stop"} <= names


def test_unknown_name_is_a_clear_error():
    with pytest.raises(InputError, match="unknown metric 'rouge-10'"):
        get_metric("rouge-10")


def test_rouge_s0_is_bigram_overlap():
    """Lin 2004, section 5: with d_skip = 0, ROUGE-S equals bigram overlap."""
    a = rouge(SUMMARIES, REFERENCES, ["rouge-s0"])
    b = rouge(SUMMARIES, REFERENCES, ["rouge-2"])
    assert a.values.tolist() == b.values.tolist()


def test_registry_reads_one_sentence_per_line_unless_nltk_is_named():
    """One-line texts: rouge-l-nltk sees two sentences (Punkt), rouge-l one (union LCS 4/4 vs LCS 2/4)."""
    summaries, refs = ["Cats sleep. Dogs bark."], [["dogs bark cats sleep"]]
    assert get_metric("rouge-l-nltk-nostem").score(summaries, refs)["rougel_r"].iloc[0] == 1.0
    assert get_metric("rouge-l-nostem").score(summaries, refs)["rougel_r"].iloc[0] == 0.5
    assert "splitter:nltk" in get_metric("rouge-w-1.2-nltk").signature
