"""The shared scoring layer: R/P/F and its rounding policy, checked against rouge-score and exact decimals."""
import random
import re
from collections import deque
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
import pytest
from rouge_score.scoring import fmeasure

from rougelab import scoring
from rougelab.scoring import InputError, check_batch, prf, round_decimals, with_f


def test_f_is_rouge_scores_harmonic_mean_to_the_last_bit():
    rng = random.Random(0)
    for _ in range(20000):
        hit, ref, summ = rng.randint(0, 60), rng.randint(1, 60), rng.randint(1, 60)
        r, p, f = prf(hit, ref, summ)
        assert (r, p) == (hit / ref, hit / summ) and f == fmeasure(p, r)


def test_rounding_is_printfs_correctly_rounded_decimal():
    rng = random.Random(1)
    for _ in range(20000):
        x = rng.randint(0, 10**6) / rng.randint(1, 10**6)
        exact = Decimal(x).quantize(Decimal("0.00001"), rounding=ROUND_HALF_EVEN)  # the binary value, exactly
        assert round_decimals(x, 5) == float(exact)


def test_rouge155_policy_rounds_r_and_p_before_f():
    """R = 1/3, P = 2/3: ROUGE-1.5.5 prints 0.33333, 0.66667 and F from those, 0.44444."""
    assert with_f(1 / 3, 2 / 3, round_digits=5) == (0.33333, 0.66667, 0.44444)
    assert with_f(1 / 3, 2 / 3) == (1 / 3, 2 / 3, pytest.approx(4 / 9, abs=1e-15))
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    assert with_f(0.5, 1.0, alpha=1.0)[2] == 1.0 and with_f(0.5, 1.0, alpha=0.0)[2] == 0.5  # F is P, then R


def test_check_batch_is_the_one_input_check():
    with pytest.raises(InputError, match="2 summaries, 1 reference lists and 1 sources"):
        check_batch(["a", "b"], [["x"]], ["s"])
    with pytest.raises(InputError, match="no references: pass a non-empty list"):
        check_batch(["a"], [[]])


GOOD_AND_BAD_TEXTS = ["plain", "naïve café", "中文", "", "\ud800 lone surrogate", None, b"bytes", 3,
                      np.str_("numpy str")]


@pytest.mark.parametrize("bad_at", ["summary", "reference", "source"])
@pytest.mark.parametrize("text", GOOD_AND_BAD_TEXTS)
def test_the_fast_check_accepts_exactly_what_the_per_text_check_accepts(text, bad_at):
    summaries, references, sources = ["a b", "c"], [["x"], ("y", "z")], ["s", "t"]
    if bad_at == "summary":
        summaries[1] = text
    elif bad_at == "reference":
        references[1] = ("y", text)
    else:
        sources[0] = text
    per_text_ok = isinstance(text, str) and not (text and "\ud800" in text)
    assert scoring._well_formed(summaries, references, sources) == per_text_ok  # a str subclass too
    if per_text_ok:
        check_batch(summaries, references, sources)
    else:
        with pytest.raises(InputError, match=r"\[1\]\[1\]|summaries\[1\]|sources\[0\]"):
            check_batch(summaries, references, sources)


@pytest.mark.parametrize("where", ["summary", "reference"])
@pytest.mark.parametrize("text", GOOD_AND_BAD_TEXTS)
def test_the_listing_check_is_check_batch_and_lists_the_texts_of_str_batches(text, where):
    """``check_listed_batch`` raises what ``check_batch`` raises, and lists a batch's texts, and those not ASCII,
    when every text is a ``str`` (a subclass too) in lists or tuples; other shapes pass unlisted."""
    summaries, references = ["a b", "c"], [["x"], ("y", "z")]
    if where == "summary":
        summaries[1] = text
    else:
        references[1] = ("y", text)
    try:
        check_batch(summaries, references)
    except InputError as err:
        with pytest.raises(InputError, match=re.escape(str(err))):
            scoring.check_listed_batch(summaries, references)
        return
    listed = scoring.check_listed_batch(summaries, references)
    if isinstance(text, str):
        texts = [*summaries, "x", "y", "z"] if where == "summary" else ["a b", "c", "x", "y", text]
        assert listed == (texts, [] if text.isascii() else [text])
        assert scoring.check_listed_batch(tuple(summaries), tuple(references)) == listed
    for shape in [(deque(summaries), references), (summaries, [["x"], np.array(["y", "z"])])]:
        assert scoring.check_listed_batch(*shape) is None  # accepted, not listed
    with scoring.checked_batch(summaries, references) as made:
        assert made == listed and scoring.check_listed_batch(summaries, references) is made  # not read again
    with pytest.raises(InputError, match="2 summaries but 1 reference lists"):
        scoring.check_listed_batch(summaries, references[:1])
    with pytest.raises(InputError, match="no references"):
        scoring.check_listed_batch(summaries, [["x"], []])


def test_reference_lists_of_other_sequence_types_take_the_per_text_check():
    check_batch(["a"], [np.array(["x", "y"])])     # not a list or tuple: checked text by text, accepted
    with pytest.raises(InputError, match="references\\[0\\] must be a list"):
        check_batch(["a"], [{"x"}])


def test_checked_batch_checks_once_per_call(monkeypatch):
    """Layers that hand a batch on (score cache -> Metric.score -> rouge) each call check_batch; inside
    checked_batch only the first call checks, and other objects are still checked."""
    from rougelab.rouge import rouge

    calls = []
    original = scoring._well_formed
    monkeypatch.setattr(scoring, "_well_formed", lambda *args: calls.append(1) or original(*args))
    summaries, references = ["the cat sat"], [["a cat sat"]]
    rouge(summaries, references, ["rouge-1"])
    assert len(calls) == 1
    with scoring.checked_batch(summaries, references):
        check_batch(summaries, references)
        table = rouge(summaries, references, ["rouge-1"])
        with pytest.raises(InputError, match="2 summaries but 1 reference lists"):
            check_batch(["a", "b"], references)
    assert len(calls) == 2 and table["rouge1_r"][0] == 0.66667  # the block's check alone (the other batch
    # fails on its lengths, before the texts are read)
    with pytest.raises(InputError, match="summaries\\[0\\] is int"):
        with scoring.checked_batch([1], [["a"]]):
            pass
    check_batch(summaries, references)  # after the block: checked again
    assert len(calls) == 4


def test_the_score_cache_and_a_metric_check_the_batch_once(monkeypatch, tmp_path):
    """score cache -> Metric.score -> rouge: one check of the texts per call."""
    from rougelab import score_cache
    from rougelab.metrics.registry import get_metric

    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))
    calls = []
    original = scoring._well_formed
    monkeypatch.setattr(scoring, "_well_formed", lambda *args: calls.append(1) or original(*args))
    summaries, references = ["the cat sat"], [["a cat sat"]]
    get_metric("rouge-1").score(summaries, references)
    assert len(calls) == 1
    score_cache.cached_scores([get_metric("rouge-1"), get_metric("rouge-2")], summaries, references)
    assert len(calls) == 2


def test_a_scorer_handed_a_checked_batch_gets_its_listing(monkeypatch, tmp_path):
    """score cache -> Metric.score -> rouge: rouge's ``check_listed_batch`` gives the listing of the first check
    (it gave None, and rouge listed the texts again and looked for other scripts' letters in every text, not in
    the non-ASCII ones alone); a batch with sources is listed without them."""
    from rougelab import score_cache
    from rougelab.metrics.registry import get_metric
    from rougelab.rouge import api

    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))
    seen = []
    original = api.check_listed_batch
    monkeypatch.setattr(api, "check_listed_batch", lambda *args: seen.append(original(*args)) or seen[-1])
    summaries, references = ["the cat \u2014 sat", "a dog"], [["a cat sat"], ("the dog", "a dog")]
    expected = (["the cat \u2014 sat", "a dog", "a cat sat", "the dog", "a dog"], ["the cat \u2014 sat"])
    get_metric("rouge-1").score(summaries, references)
    score_cache.cached_scores([get_metric("rouge-1"), get_metric("rouge-2")], summaries, references)
    with scoring.checked_batch(summaries, references, ["doc \u00e9", "doc"]) as listed:
        assert listed == expected
    assert seen == [expected, expected]


def test_compare_systems_checks_each_systems_texts_once(monkeypatch):
    """compare_systems checks each system's batch (naming the system on an error) and scores them joined
    without checking the joined batch again: one check of the texts per system."""
    from rougelab.compare import compare_systems
    from rougelab.rouge import rouge

    calls = []
    original = scoring._well_formed
    monkeypatch.setattr(scoring, "_well_formed", lambda *args: calls.append(1) or original(*args))
    systems, references = {"a": ["the cat sat", "a dog"], "b": ["a cat sat", "the dog"]}, [["a cat sat"], ["a dog"]]
    table = compare_systems(systems, references, "rouge-1", n_resamples=100, n_trials=100).table
    assert len(calls) == 2
    assert table["score"].tolist() == [rouge(texts, references, ["rouge-1"])["rouge1_f"].mean()
                                       for texts in systems.values()]
    with pytest.raises(InputError, match=r"systems\['b'\]: summaries\[1\] is int"):
        compare_systems({"a": ["x", "y"], "b": ["x", 1]}, references, "rouge-1")


def test_a_lone_surrogate_among_many_texts_fails_the_check_where_it_is():
    """The texts that are not ASCII are encoded joined, ``JOINED_TEXTS`` at a time: a lone surrogate in a later
    group fails the batch and is named."""
    summaries = ["caf\u00e9"] * (2 * scoring.JOINED_TEXTS + 3)
    references = [["na\u00efve"]] * len(summaries)
    assert scoring.check_listed_batch(summaries, references).non_ascii == [*summaries, *["na\u00efve"] * len(summaries)]
    references[-2] = ["x \ud800"]
    with pytest.raises(InputError, match=r"references\[%d\]\[0\] is not valid Unicode" % (len(summaries) - 2)):
        scoring.check_listed_batch(summaries, references)
