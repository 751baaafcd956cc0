"""IDSS (Eq. 8), WIDAR (Eq. 9), the registry entries, degenerate inputs and the component cache."""
import json
import warnings

import numpy as np
import pytest
from rouge_score.rouge_scorer import RougeScorer

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.metrics.widar import cache as widar_cache
from rougelab.metrics.widar import combine, idss_only, weighted_rouge, widar, widar_components
from rougelab.metrics.widar.idss import idss, metric_similarity

SOURCE = "the cat sat on the mat. dogs bark"
REFERENCE = "the cat sat. dogs bark loudly"
SUMMARY = "the cat sat on a mat"
# By hand.
# Source pieces: d1 = the cat sat on the mat (6 tokens), d2 = dog bark (2). Reference pieces:
# r1 = the cat sat, r2 = dog bark loud(ly). Coverage: r1~d1 3/6, r2~d2 2/2 -> w_cov = [1/2, 1/2];
# redundancy: LCS(r1, r2) = 0 -> w_red = [1, 1]; Eq. 1: w = (1/2 + 1) / 2 x 2 = [1.5, 1.5].
# IDSS: LCS(summary, whole source) = "the cat sat on mat" = 5; P = 5/6, R = 5/8, F = 5/7.
# ROUGE-1_W: r1 gets 3 unigrams, r2 none; 3 x 1.5 = 4.5 over 6 distinct reference and 6 summary
# unigrams -> R = P = F = 0.75. ROUGE-2_W: r1 gets (the cat)(cat sat) = 2 -> 3 over 4 reference and
# 5 summary bigrams -> R = .75, P = .6, F = 2/3. ROUGE-L_W: union LCS of r1 = 3 -> R = P = F = .75.
IDSS = 5 / 7


def test_idss_is_rouge_score_rougeL_f_against_the_source():
    assert idss([SUMMARY], [SOURCE], cache=False) == pytest.approx([IDSS])
    expected = RougeScorer(["rougeL"], use_stemmer=True).score(SOURCE, SUMMARY)["rougeL"]
    assert idss([SUMMARY], [SOURCE], "rouge-score-l-r", cache=False) == pytest.approx([expected.recall])
    assert idss([SUMMARY], [SOURCE], "rouge-score-l-p", cache=False) == pytest.approx([expected.precision])


def test_idss_takes_a_registered_metric_or_a_callable():
    from sacrebleu import sentence_bleu

    bleu = get_metric("bleu")
    assert idss([SUMMARY], [SOURCE], metric_similarity(bleu, "bleu")) == pytest.approx(
        [sentence_bleu(SUMMARY, [SOURCE]).score])
    assert idss([SUMMARY], [SOURCE], lambda s, d: [len(s[0])]).tolist() == [len(SUMMARY)]
    with pytest.raises(InputError, match="no column"):
        idss([SUMMARY], [SOURCE], metric_similarity(bleu, "nope"))
    for by_name in ("cosine", "bleu:bleu"):      # metrics are passed, never looked up by name here
        with pytest.raises(InputError, match="unknown IDSS similarity"):
            idss([SUMMARY], [SOURCE], by_name)


@pytest.mark.parametrize("k, expected", [
    ("1", (0.75, 0.75, 0.75)),
    ("2", (0.75, 0.6, 2 / 3)),
    ("l", (0.75, 0.75, 0.75)),
])
def test_eq9_by_hand(k, expected):
    # WIDAR_K^x = (1 - lambda) IDSS + lambda ROUGE-K_W^x with lambda = 0.5.
    got = widar([SUMMARY], [[REFERENCE]], [SOURCE], k=k, cache=False).iloc[0].to_numpy()
    assert got == pytest.approx([0.5 * IDSS + 0.5 * x for x in expected])
    lw = weighted_rouge([SUMMARY], [[REFERENCE]], [SOURCE], k=k, cache=False).iloc[0].to_numpy()
    assert lw == pytest.approx(expected)


def test_lambda_fixed_and_data_driven():
    comp = widar_components([SUMMARY], [[REFERENCE]], [SOURCE], cache=False)
    assert combine(comp, "1", lam=0.2).f[0] == pytest.approx(0.8 * IDSS + 0.2 * 0.75)
    assert combine(comp, "1", lam=0.0).f[0] == pytest.approx(IDSS)
    assert combine(comp, "1", lam=1.0).f[0] == pytest.approx(0.75)
    # max(w_cov) = mean(w_cov) = 1/2 here.
    assert combine(comp, "1", lam="max").f[0] == pytest.approx(0.5 * IDSS + 0.5 * 0.75)
    assert combine(comp, "1", lam="mean").f[0] == pytest.approx(0.5 * IDSS + 0.5 * 0.75)
    with pytest.raises(InputError, match="lam"):
        combine(comp, "1", lam=1.5)
    with pytest.raises(InputError, match="lam"):
        combine(comp, "1", lam="median")


def test_data_driven_lambda_differs_from_fixed_when_coverage_is_uneven():
    # Source "the cat sat on the mat" only: r1 covered (3/6), r2 "dog bark loud" not -> w_cov = [1, 0];
    # max -> lambda 1, mean -> lambda 1/2.
    comp = widar_components([SUMMARY], [[REFERENCE]], ["the cat sat on the mat"], cache=False)
    lw = combine(comp, "1", lam=1.0).f[0]
    assert combine(comp, "1", lam="max").f[0] == pytest.approx(lw)
    assert combine(comp, "1", lam="mean").f[0] == pytest.approx(0.5 * comp.idss[0] + 0.5 * lw)


def test_several_references_are_averaged():
    # Second reference "a mat": one sentence, LCS with d1 = 1 -> recall 1/6 >= .1 -> w_cov 1/2, w_red 1,
    # w = 3/4. ROUGE-1_W: 2 hits x 3/4 = 1.5 -> R = 1.5/2, P = 1.5/6, F = 2 x .75 x .25 / 1 = .375.
    one = 0.5 * IDSS + 0.5 * 0.75
    two = 0.5 * IDSS + 0.5 * 0.375
    refs = [[REFERENCE, "a mat"]]
    assert widar([SUMMARY], refs, [SOURCE], k="1", cache=False).widar1_f[0] == pytest.approx((one + two) / 2)
    assert widar([SUMMARY], refs, [SOURCE], k="1", multiref="max", cache=False).widar1_f[0] == pytest.approx(one)


def test_reference_without_overlap_with_the_source():
    # Source "p q" shares nothing: w_cov = 0, w_red = 1 -> w = 1/2 for the one-sentence reference "x y".
    # ROUGE-1_W = 2 x 1/2 / 2 = 1/2 (R = P = F); IDSS = 0 -> WIDAR = 1/4.
    got = widar(["x y"], [["x y"]], ["p q"], k="1", cache=False).iloc[0]
    assert got.tolist() == pytest.approx([0.25, 0.25, 0.25])


def test_empty_source_scores_like_a_source_with_no_overlap():
    assert widar(["x y"], [["x y"]], [""], k="1", cache=False).iloc[0].tolist() == pytest.approx([0.25] * 3)


@pytest.mark.parametrize("k", ["1", "2", "l"])
def test_empty_summary_scores_zero(k):
    got = widar(["", "   "], [[REFERENCE], [REFERENCE]], [SOURCE, SOURCE], k=k, cache=False)
    assert got.to_numpy().tolist() == [[0.0] * 3] * 2


@pytest.mark.parametrize("summaries, references, sources, message", [
    ([SUMMARY], [[""]], [SOURCE], "reference 0 of summary 0 is empty"),
    ([SUMMARY], [[]], [SOURCE], "non-empty list"),
    ([SUMMARY], [[REFERENCE]], None, "pass sources"),
    ([SUMMARY, SUMMARY], [[REFERENCE]], [SOURCE], "2 summaries, 1 reference lists"),
    ([SUMMARY], [[REFERENCE]], [None], r"sources\[0\] is NoneType"),
    (SUMMARY, [[REFERENCE]], [SOURCE], "not one string"),
])
def test_bad_input_gets_a_clear_error(summaries, references, sources, message):
    with pytest.raises(InputError, match=message):
        widar(summaries, references, sources, cache=False)


def test_registry_entries_and_signatures():
    metric = get_metric("widar-l")
    assert metric.needs_source and metric.primary == "widarl_f"
    for option in ("lam:0.5", "theta1:0.1", "theta2:0.3", "multiref:mean", "splitter:period"):
        assert option in metric.signature
    table = metric.score([SUMMARY], [[REFERENCE]], [SOURCE])
    assert table.columns.tolist() == ["widarl_r", "widarl_p", "widarl_f"]
    assert table.widarl_f[0] == pytest.approx(0.5 * IDSS + 0.5 * 0.75)
    assert get_metric("widar-rouge-lw").score([SUMMARY], [[REFERENCE]], [SOURCE]).rougelw_f[0] == pytest.approx(0.75)
    assert get_metric("widar-idss").score([SUMMARY], [[REFERENCE]], [SOURCE]).idss[0] == pytest.approx(IDSS)
    # ROUGE-L_SL: weights 1; union LCS 3 over 6 reference and 6 summary tokens.
    assert get_metric("widar-rouge-l-sl").score([SUMMARY], [[REFERENCE]], [SOURCE]).rougelsl_f[0] == pytest.approx(0.5)
    # "-W_red" uses w_cov x |R| = [1, 1]: same as ROUGE-L_SL here; "-W_cov" uses w_red x |R| = [2, 2].
    assert get_metric("widar-rouge-lw-no-red").score([SUMMARY], [[REFERENCE]], [SOURCE]).rougelw_f[0] == pytest.approx(0.5)
    assert get_metric("widar-rouge-lw-no-cov").score([SUMMARY], [[REFERENCE]], [SOURCE]).rougelw_f[0] == pytest.approx(1.0)
    # Total-count denominators: 6 reference and 6 summary unigrams, as with distinct ones here.
    assert get_metric("widar-1-total").score([SUMMARY], [[REFERENCE]], [SOURCE]).widar1_f[0] == pytest.approx(
        0.5 * IDSS + 0.5 * 0.75)


def test_other_sentence_splitters():
    # One line per sentence with the newline splitter gives the same sentences as ". " here.
    by_period = widar([SUMMARY], [[REFERENCE]], [SOURCE], cache=False)
    by_line = widar([SUMMARY], [[REFERENCE.replace(". ", "\n")]], [SOURCE.replace(". ", "\n")],
                    splitter="newline", cache=False)
    assert by_line.to_numpy() == pytest.approx(by_period.to_numpy())


def test_scores_do_not_depend_on_batch_order():
    summaries = [SUMMARY, "dogs bark", "a cat"]
    refs = [[REFERENCE], [REFERENCE, "a mat"], ["cats sit"]]
    sources = [SOURCE, SOURCE, "cats sit on mats"]
    forward = widar(summaries, refs, sources, cache=False)
    backward = widar(summaries[::-1], refs[::-1], sources[::-1], cache=False)
    assert forward.to_numpy() == pytest.approx(backward.to_numpy()[::-1])


def test_disk_cache_is_reused_and_a_corrupt_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))
    monkeypatch.setattr(widar_cache, "_LOADED", {})
    first = widar([SUMMARY], [[REFERENCE]], [SOURCE], k="2")
    files = sorted((tmp_path / "widar").glob("*.json"))
    assert [f.name.split("-")[0] for f in files] == ["hits2", "idss", "refstats"]
    # A fresh process reads the values back: poison one stored hit count and see it used.
    hits_file = files[0]
    stored = json.loads(hits_file.read_text())
    (key,) = stored
    stored[key][0] = [0.0, 0.0]
    hits_file.write_text(json.dumps(stored))
    monkeypatch.setattr(widar_cache, "_LOADED", {})
    assert widar([SUMMARY], [[REFERENCE]], [SOURCE], k="2").widar2_f[0] == pytest.approx(0.5 * IDSS)
    # A corrupt file is reported, recomputed and rewritten.
    hits_file.write_text("{not json")
    monkeypatch.setattr(widar_cache, "_LOADED", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = widar([SUMMARY], [[REFERENCE]], [SOURCE], k="2")
    assert any("corrupt" in str(w.message) for w in caught)
    assert again.to_numpy() == pytest.approx(first.to_numpy())
    assert json.loads(hits_file.read_text())[key][0] == [2.0, 0.0]


def test_idss_only_ignores_references():
    assert idss_only([SUMMARY], [["anything at all"]], [SOURCE], cache=False).idss[0] == pytest.approx(IDSS)
    assert np.isclose(idss_only([""], [["x"]], [SOURCE], cache=False).idss[0], 0.0)


def test_a_text_cannot_pass_for_a_separator_in_the_component_keys():
    """``text_key`` tells apart texts holding its earlier separator (\\x1e): with it, the second pair below
    got the first pair's IDSS (both keyed ``\\x1ethe cat\\x1esat\\x1eon the mat``) within one call."""
    assert widar_cache.text_key("a\x1eb", "c") != widar_cache.text_key("a", "b\x1ec")
    assert widar_cache.text_key("a", "") != widar_cache.text_key("a\xff")  # an empty text is a text
    summaries, sources = ["the cat\x1esat", "the cat"], ["on the mat", "sat\x1eon the mat"]
    # By hand: one LCS token ("the") in each pair; P = 1/3 (3 summary tokens), then 1/2 (2 tokens).
    alone = [idss([s], [d], "rouge-score-l-p", cache=False)[0] for s, d in zip(summaries, sources)]
    assert alone == pytest.approx([1 / 3, 1 / 2])
    assert idss(summaries, sources, "rouge-score-l-p", cache=False) == pytest.approx(alone)


def test_the_component_files_keep_their_tags(monkeypatch):
    """The options naming each component file, as JSON written out by hand: the tags of today's callers."""
    from rougelab import __version__

    tags = []
    maker = widar_cache.Maker
    monkeypatch.setattr(widar_cache, "Maker", lambda tag, **kwargs: tags.append(tag) or maker(tag, **kwargs))
    widar_components([SUMMARY], [[REFERENCE]], [SOURCE], cache=False)
    weighted = "rouge-score;stem=snowball:english;stopwords=none;split=period"
    assert tags == [
        *(f'{{"kind": "hits{k}", "lcs_denominator": "tokens", "ngram_denominator": "distinct", '
          f'"preprocessing": "{weighted}", "version": "{__version__}"}}' for k in "12l"),
        f'{{"kind": "refstats", "preprocessing": "rouge-score;stem=porter;stopwords=none;split=period", '
        f'"version": "{__version__}"}}',
        f'{{"kind": "idss", "preprocessing": "rouge-score;stem=porter;stopwords=none;split=newline", '
        f'"similarity": "rouge-score-l", "version": "{__version__}"}}']


class Denominator:
    """An option JSON cannot hold: its ``str`` (its address) changes from one object to the next."""


@pytest.mark.parametrize("value", [Denominator(), ("a", "b"), {1: "a"}, ["distinct", Denominator()]],
                         ids=["object", "tuple", "int-key", "nested"])
def test_an_option_the_tag_cannot_name_exactly_is_refused_by_name(value):
    """JSON reads a tuple back as a list, an int key as a string, an object not at all (it was written as its
    ``str``): each would name a component file that other values share, or one that changes every run."""
    with pytest.raises(InputError, match="ngram_denominator"):
        widar_cache.ItemCache("hits1", {"ngram_denominator": value}, enabled=False)
    with pytest.raises(InputError, match="ngram_denominator"):
        widar_components([SUMMARY], [[REFERENCE]], [SOURCE], orders=("1",), ngram_denominator=value, cache=False)


def test_an_option_cannot_take_the_place_of_the_tags_kind_or_version():
    with pytest.raises(ValueError, match="version"):
        widar_cache.ItemCache("hits1", {"version": "0"}, enabled=False)
