"""ROUGE-WE (Ng & Abrecht 2015): the three variants, OOV handling, reduction to ROUGE, the registry."""
import numpy as np
import pytest
from gensim.models import KeyedVectors
from rouge_score import rouge_scorer

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric, metric_names
from rougelab.metrics.rouge_we import oov_rates, rouge_we
from rougelab.semantic.word_vectors import load_word_vectors


def _kv(table: dict[str, list[float]]) -> KeyedVectors:
    kv = KeyedVectors(vector_size=len(next(iter(table.values()))))
    kv.add_vectors(list(table), np.array(list(table.values()), dtype=np.float32))
    return kv


def _cos(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a @ b / np.linalg.norm(a) / np.linalg.norm(b)


def test_raining_heavily_vs_pouring_with_glove():
    """The paper's example (section 1): ROUGE-1 credits only "it is"; ROUGE-WE-1 also "pouring"."""
    glove = load_word_vectors()
    v = dict(zip(["it", "is", "raining", "heavily", "pouring"],
                 glove.lookup(["it", "is", "raining", "heavily", "pouring"])[0].astype(float)))
    cross = {(a, b): v[a] @ v[b] for a in ("it", "is", "raining", "heavily") for b in ("it", "is", "pouring")}
    # Greedy alignment takes the largest dot products first; here those are it-it and is-is, then
    # the better of raining-pouring / heavily-pouring (checked, so the expected sum below is right).
    ranked = sorted(cross, key=cross.get, reverse=True)
    assert set(ranked[:2]) == {("it", "it"), ("is", "is")}
    best_rain = max(cross["raining", "pouring"], cross["heavily", "pouring"])
    assert best_rain > 0                   # so greedy pairs "pouring" once "it" and "is" are taken
    hit = cross["it", "it"] + cross["is", "is"] + best_rain
    row = rouge_we(["It is pouring."], [["It is raining heavily."]], measures=["rouge-we-1"], variant="eq2").iloc[0]
    assert row["rougewe1_r"] == pytest.approx(hit / 4)
    assert row["rougewe1_p"] == pytest.approx(hit / 3)
    # with cosine, "pouring" earns its cosine to "raining" (0.52 with these vectors) on top of the two exact words
    cos = rouge_we(["It is pouring."], [["It is raining heavily."]], measures=["rouge-we-1"], variant="eq2",
                   similarity="cosine").iloc[0]
    assert cos["rougewe1_r"] == pytest.approx((2 + max(_cos(v["raining"], v["pouring"]),
                                                       _cos(v["heavily"], v["pouring"]))) / 4, abs=1e-6)


def test_one_hot_vectors_reduce_rouge_we_1_to_rouge_1():
    """With one-hot vectors and cosine, f_WE is f_R for words: ROUGE-WE-1 = ROUGE-1 (rouge-score)."""
    rng = np.random.default_rng(3)
    words = ["police", "killed", "the", "gunman", "kill", "of", "a"]
    kv = _kv({w: list(np.eye(len(words))[i]) for i, w in enumerate(words)})
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)
    for _ in range(20):
        cand = " ".join(rng.choice(words, rng.integers(1, 15)))
        ref = " ".join(rng.choice(words, rng.integers(1, 15)))
        ours = rouge_we([cand], [[ref]], measures=["rouge-we-1"], variant="eq2", similarity="cosine",
                        vectors=kv).iloc[0]
        want = scorer.score(ref, cand)["rouge1"]
        assert (ours["rougewe1_r"], ours["rougewe1_p"], ours["rougewe1_f"]) == pytest.approx(
            (want.recall, want.precision, want.fmeasure), abs=1e-12)


VECS = {"rain": [0.5, -1.0, 2.0], "pour": [0.25, 0.0, -3.5], "heavily": [1.0, 1.0, 1.0],
        "it": [0.0, 1.0, 0.0], "poured": [1.0, 0.1, 0.0], "rained": [0.9, 0.3, 0.1]}


def test_perl_variant_by_hand():
    # reference "rain heavily": the script's counter visits "rain" (k=1, count 1 >= 1) and skips
    # "heavily" (k=2, count 1 < 2); hit = 0.5 x exact (rain) + 0.5 x (cos(rain, rain) + cos(rain, pour))
    hit = 0.5 * 1 + 0.5 * (1.0 + _cos(VECS["rain"], VECS["pour"]))
    row = rouge_we(["rain pour"], [["rain heavily"]], measures=["rouge-we-1"], variant="perl",
                   vectors=_kv(VECS)).iloc[0]
    assert row["rougewe1_r"] == round(hit / 2, 5) and row["rougewe1_p"] == round(hit / 2, 5)


def test_s3_variant_by_hand():
    assert _cos(VECS["rained"], VECS["poured"]) >= 0.8          # so "poured" matches "rained"
    bigram = _cos(np.add(VECS["it"], VECS["rained"]), np.add(VECS["it"], VECS["poured"]))
    assert bigram >= 0.8                                        # summed vectors match too
    row = rouge_we(["it poured"], [["it rained", "rain heavily"]], measures=["rouge-we-1", "rouge-we-2"],
                   variant="s3", vectors=_kv(VECS)).iloc[0]
    # unigrams: 2 hits against the first reference; "it"/"poured" vs "rain"/"heavily" stay below 0.8
    assert _cos(VECS["poured"], VECS["heavily"]) < 0.8 and _cos(VECS["poured"], VECS["rain"]) < 0.8
    assert (row["rougewe1_r"], row["rougewe1_p"]) == (2 / 4, 2 / 4)
    assert (row["rougewe2_r"], row["rougewe2_p"]) == (1 / 2, 1 / 2)


def test_oov_words_score_zero_in_the_eq2_variant_only():
    kv = _kv(VECS)
    texts = (["zorblax"], [["zorblax"]])
    assert rouge_we(*texts, measures=["rouge-we-1"], variant="eq2", vectors=kv)["rougewe1_f"].item() == 0.0
    assert rouge_we(*texts, measures=["rouge-we-1"], variant="perl", vectors=kv)["rougewe1_f"].item() == 0.5
    assert rouge_we(*texts, measures=["rouge-we-1"], variant="s3", vectors=kv)["rougewe1_f"].item() == 1.0


def test_composition_changes_bigram_vectors():
    kv = _kv(VECS)
    args = (["it poured"], [["it rained"]])
    got = {c: rouge_we(*args, measures=["rouge-we-2"], variant="eq2", composition=c, similarity="cosine",
                       vectors=kv)["rougewe2_r"].item() for c in ("product", "sum", "mean")}
    prod = np.multiply(VECS["it"], VECS["rained"]), np.multiply(VECS["it"], VECS["poured"])
    assert got["product"] == pytest.approx(max(_cos(*prod), 0.0))
    assert got["sum"] == pytest.approx(_cos(np.add(VECS["it"], VECS["rained"]), np.add(VECS["it"], VECS["poured"])))
    assert got["mean"] == pytest.approx(got["sum"])             # cosine ignores the 1/2


def test_registry_metrics_score_and_sign():
    assert {"rouge-we-1", "rouge-we-2", "rouge-we-su4"} <= set(metric_names())
    metric = get_metric("rouge-we-su4")
    table = metric.score(["the cat sat on the mat", ""], [["a cat sat on a mat"], ["x"]])
    assert list(table.columns) == ["rougewesu4_r", "rougewesu4_p", "rougewesu4_f"]
    assert metric.primary == "rougewesu4_f"
    assert table.iloc[1].tolist() == [0.0, 0.0, 0.0]               # an empty summary scores 0
    assert table.iloc[0]["rougewesu4_f"] > 0
    sig = metric.signature
    for part in ("variant:perl", "reading:as in the paper's tables (authors' released code)",
                 "composition:product", "similarity:cosine", "vectors:glove-6b-50d:50d:"):
        assert part in sig


def test_bad_options_and_batches_get_clear_errors():
    with pytest.raises(InputError, match="unknown ROUGE-WE variant 'bert'"):
        rouge_we(["a"], [["a"]], variant="bert")
    with pytest.raises(InputError, match="once called 'paper' is 'eq2'"):
        rouge_we(["a"], [["a"]], variant="paper")
    with pytest.raises(InputError, match="unknown ROUGE-WE measure"):
        rouge_we(["a"], [["a"]], measures=["rouge-we-l"])
    with pytest.raises(InputError, match="2 summaries but 1 reference lists"):
        get_metric("rouge-we-1").score(["a", "b"], [["a"]])


def test_non_ascii_text_is_handled_like_rouge():
    # ROUGE-1.5.5 turns non-ASCII bytes into spaces: "café" is the token "caf"
    row = rouge_we(["café au lait"], [["cafe au lait"]], measures=["rouge-we-1"], variant="eq2",
                   similarity="cosine").iloc[0]
    assert 0 < row["rougewe1_r"] < 1


def test_oov_rates_by_hand():
    kv = _kv(VECS)
    # tokens: it rained zorblax | rain qqq ; unigrams 2 OOV of 5; bigrams (it rained) ok,
    # (rained zorblax) OOV, (rain qqq) OOV -> 2 of 3
    rates = oov_rates(["it rained zorblax", "rain qqq", ""], vectors=kv, ns=(1, 2, 4))
    assert rates[1] == pytest.approx(2 / 5) and rates[2] == pytest.approx(2 / 3)
    assert np.isnan(rates[4])


def test_bare_names_are_the_authors_released_scoring_and_variants_are_named():
    """Bare names score as the authors' released script (the paper's tables); ``-eq2`` is Eq. 2 read
    literally (raw dot products, unbounded with GloVe's non-unit vectors); ``-s3`` is SummEval's."""
    summaries = ["police killed the gunman yesterday", "a cat sat on the mat", ""]
    references = [["the gunman was shot by police"], ["the dog lay on the rug"], ["anything at all"]]
    for measure, column in (("rouge-we-1", "rougewe1"), ("rouge-we-2", "rougewe2"), ("rouge-we-su4", "rougewesu4")):
        bare = get_metric(measure)
        assert "variant:perl" in bare.signature and "reading:as in the paper's tables" in bare.signature
        direct = rouge_we(summaries, references, measures=[measure], variant="perl")
        assert bare.score(summaries, references).equals(direct)
        assert direct[f"{column}_f"].iloc[0] > 0
    for suffix, reading in (("eq2", "reading:Eq. 2 literal"), ("s3", "reading:SummEval's (S3)")):
        metric = get_metric(f"rouge-we-2-{suffix}")
        assert metric.name == f"rouge-we-2-{suffix}" and f"variant:{suffix}" in metric.signature
        assert reading in metric.signature
    for variant in ("perl", "s3"):
        scores = rouge_we(summaries, references, measures=["rouge-we-2"], variant=variant).to_numpy()
        assert ((scores >= 0) & (scores <= 1)).all() and scores[2].tolist() == [0, 0, 0]
    eq2 = get_metric("rouge-we-1-eq2").score(summaries, references)
    assert eq2["rougewe1_r"].iloc[0] > 1  # documented: unbounded with GloVe's non-unit vectors
    assert "rouge-we-1-perl" not in metric_names()


def test_documented_score_range_of_the_released_scoring_holds_on_random_texts():
    """choices.py / the module docstring: the bare (``perl``) scores are not bounded by [0, 1]; R lies in
    [-D/2, (1 + D)/2] for D distinct candidate grams; an identical pair scores below 1; ``s3`` stays in [0, 1]."""
    import random

    from rougelab.metrics.rouge_we import MEASURES, PREPROCESSING
    from rougelab.scoring import count_grams
    from rougelab.text.token_ids import TokenIndex

    words = ("the a of on and police officers gunman shot killed cat dog mat rug sat rain pour heavily snow "
             "storm city town ten yesterday however banana quantum zorblax").split()
    rng = random.Random(7)
    summaries = [" ".join(rng.choices(words, k=rng.randint(1, 12))) for _ in range(400)]
    references = [[" ".join(rng.choices(words, k=rng.randint(1, 12)))] for _ in range(400)]
    perl = rouge_we(summaries, references)
    for measure, column in (("rouge-we-1", "rougewe1"), ("rouge-we-2", "rougewe2"), ("rouge-we-su4", "rougewesu4")):
        distinct = np.array([len(count_grams(MEASURES[measure].grams(TokenIndex().ids(tokens))).counts)
                             for tokens in PREPROCESSING.tokens(summaries)])
        r = perl[f"{column}_r"].to_numpy()
        assert ((r >= -distinct / 2 - 1e-9) & (r <= (1 + distinct) / 2 + 1e-9)).all(), measure
        assert r.max() > 1, measure                           # not bounded by 1 ...
    assert perl["rougewe1_r"].min() < 0                       # ... nor by 0 (negative cosines)
    s3 = rouge_we(summaries, references, variant="s3").to_numpy()
    assert ((s3 >= 0) & (s3 <= 1)).all()
    same = rouge_we(["the cat sat on the mat"], [["the cat sat on the mat"]], measures=["rouge-we-1"])
    assert 0 < same["rougewe1_r"].item() < 1
