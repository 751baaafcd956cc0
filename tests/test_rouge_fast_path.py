"""The batch fast path of ``rougelab.rouge.rouge`` (issue 9) against ROUGE-1.5.5.pl and Python's own formatting.

Every test that runs kernels runs twice: with the numba-compiled kernels and with their pure-Python
sources (``kernels`` fixture: every compiled function of the ROUGE modules replaced by its ``py_func``).
"""
from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rougelab.rouge.api as api
import rougelab.rouge.batch as batch_module
import rougelab.rouge.core as core
import rougelab.rouge.grams as grams
import rougelab.rouge.lcs as lcs
import rougelab.rouge.small_batch as small_batch
import rougelab.text.byte_tokens as byte_tokens
from rougelab import _jit
from perl_oracle import perl_available, run_perl
from rougelab.rouge import rouge
from rougelab._jit import NUMBA
from rougelab.rouge.options import RougeOptions
from rougelab.text import split_sentences
from rougelab.text.tokenize import TokenEncoder, perl_bytes, tokenize
from test_rouge_perl_diff import WORDS as PERL_WORDS, text as perl_text

needs_perl = pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))


@pytest.fixture(params=["numba", "python"])
def kernels(request, monkeypatch):
    """Run the test with the compiled kernels, or with every kernel's pure-Python source, in every module that
    holds one by name (``core`` imports ``gram_tables``: left compiled there, a first compilation inside a
    Python-mode test found ``grams.gram_codes`` swapped for a Python function and failed to type)."""
    if request.param == "python":
        for module in (api, batch_module, core, grams, lcs, byte_tokens, small_batch):
            for name, value in list(vars(module).items()):
                if hasattr(value, "py_func") and value.py_func is not value:
                    monkeypatch.setattr(module, name, value.py_func)
    return request.param


def test_kernels_fixture_swaps_in_python(kernels):
    assert inspect.isfunction(batch_module.batch_pair_stats) == (kernels == "python" or not NUMBA)
    assert inspect.isfunction(lcs._mark_lcs) == (kernels == "python" or not NUMBA)
    assert inspect.isfunction(byte_tokens._scan) == (kernels == "python" or not NUMBA)


# ------------------------------------------------------------------------------------------- rounding


def _round5_variants():
    return [batch_module.round5_exact, batch_module.round5_exact.py_func]


@pytest.mark.parametrize("round5", _round5_variants(), ids=["numba", "python"])
def test_round5_exact_equals_printf_on_every_ratio_up_to_200(round5):
    """hit / total for every total <= 200 (all the halfway cases, e.g. 1/64 = 0.015625 -> 0.01562)."""
    values = np.array([h / t for t in range(1, 201) for h in range(0, t + 1)])
    got = [round5(v) for v in values]
    assert got == [float(f"{v:7.5f}") for v in values]
    assert round5(1 / 64) == 0.01562 and round5(3 / 64) == 0.04688


@pytest.mark.parametrize("round5", _round5_variants(), ids=["numba", "python"])
@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, max_value=4, allow_nan=False) | st.integers(0, 400000).map(lambda k: k / 200000))
def test_round5_exact_equals_printf_on_any_float(round5, x):
    assert round5(x) == float(f"{x:7.5f}")


# ------------------------------------------------------------------------------------------- tokens


texts = st.lists(st.text(alphabet=st.sampled_from(list("abcXYZ019 -\t\n.,'$é東—")), max_size=30), max_size=6)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts, st.booleans(), st.booleans())
def test_encode_many_equals_tokenize(kernels, batch, stem, stopwords):
    encoder = TokenEncoder(stem=stem, stopwords=stopwords)
    ids, lengths, units = encoder.encode_many(batch)
    sentences = [split_sentences(text) for text in batch]
    assert units.tolist() == [len(s) for s in sentences]
    want = [tokenize(s, stem=stem, stopwords=stopwords) for text in sentences for s in text]
    assert lengths.tolist() == [len(t) for t in want]
    assert [encoder.vocabulary[i] for i in ids.tolist()] == [t for s in want for t in s]
    assert list(dict.fromkeys(ids.tolist())) == list(range(len(encoder.vocabulary)))  # first-occurrence order


# ------------------------------------------------------------------------------------------- kernels


def test_hash_hits_equal_clipped_hits_of_sorted_tables(kernels):
    """The batch kernel's hits (``ngram_hits``: a hash table over id windows; ``sorted_hits``: skip-bigram
    codes sorted and merged) equal ``clipped_hits`` of the two texts' sorted tables (``count_codes`` of
    ``gram_codes``), for n-grams (n = 1..4) and skip-bigrams (d = 0, 4, unlimited; with ROUGE-SU's unigrams,
    with and without the last-unigram bug), on texts of 0 to 40 tokens over 1 to 30 ids, the n-gram table
    reused dirty and grown."""
    rng = np.random.default_rng(5)
    table = np.full(16, 7, dtype=np.int64)
    for _ in range(300):
        symbols = int(rng.integers(1, 30))
        model, peer = (rng.integers(0, symbols, int(rng.integers(0, 40))).astype(np.int64) for _ in range(2))
        ids = np.concatenate([peer, model])
        m0, m1, p0, p1 = len(peer), len(ids), 0, len(peer)
        for n in (1, 2, 3, 4):
            bits = grams.pack_bits(n)
            tables = [grams.count_codes(grams.gram_codes(x, 0, n, False, False, bits)) for x in (model, peer)]
            want = grams.clipped_hits(*tables[0], *tables[1])
            table = grams.room_for(table, m1 - m0)
            assert grams.ngram_hits(ids, m0, m1, p0, p1, n, table) == want
        for size, unigrams, bug in [(0, False, True), (4, True, True), (4, True, False), (-1, True, True)]:
            codes = [grams.gram_codes(x, 1, size, unigrams, bug, 32) for x in (model, peer)]
            want = grams.clipped_hits(*grams.count_codes(codes[0]), *grams.count_codes(codes[1]))
            assert grams.sorted_hits(codes[0], codes[1]) == want
            assert grams.singles_count(len(model), bug) == len(grams.gram_codes(model, 1, size, True, bug, 32)) - \
                len(grams.gram_codes(model, 1, size, False, bug, 32))


def test_batch_equals_pair_by_pair_without_the_last_unigram_bug(kernels):
    """ROUGE-S/SU with ``perl_last_unigram_bug=False``, SU alone and beside S, against ``PreparedText``."""
    import rougelab
    data = rougelab.load_dataset("summeval").iloc[:200:10]
    summaries, references = data["summary"].tolist(), [list(r) for r in data["references"]]
    for names in (["rouge-su4"], ["rouge-s4", "rouge-su4", "rouge-su*", "rouge-2"]):
        measures = [api.parse_measure(m) for m in names]
        for bug in (False, True):
            options = RougeOptions(stem=True, perl_last_unigram_bug=bug)
            fast = api._score_batch(summaries, references, measures, options, "A", "newline")
            slow = api._score_one_by_one(summaries, references, measures, options, "A", "newline")
            assert np.array_equal(fast, slow)


def test_bit_parallel_lcs_marks_what_the_dp_marks(kernels):
    """``_mark_lcs_bits`` against ROUGE-1.5.5's DP and back-trace (``_mark_lcs``, weight 1) on random
    sentences over 1-7 symbols (many ties), peer sentences up to 150 tokens (several 32-bit words)."""
    rng = np.random.default_rng(4)
    for _ in range(300):
        symbols = int(rng.integers(1, 8))
        model = rng.integers(0, symbols + 2, int(rng.integers(0, 90)))  # some model tokens the peer lacks
        sizes = rng.integers(0, 150, rng.integers(1, 4))
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        peer = rng.integers(0, symbols, int(offsets[-1]))
        slot = np.full(symbols, -1, dtype=np.int64)
        which, masks = lcs.match_masks(model, peer, offsets, slot)
        assert (slot == -1).all()
        for t in range(len(sizes)):
            want, got = np.zeros(len(model), np.int8), np.zeros(len(model), np.int8)
            length = lcs._mark_lcs(model, 0, len(model), peer, offsets[t], offsets[t + 1], 1.0, want)
            assert lcs._mark_lcs_bits(which, 0, len(model), offsets[t], offsets[t + 1], masks, t, got) == length
            assert got.tolist() == want.tolist()


def test_one_sentence_each_needs_no_back_trace(kernels):
    """``sentence_lcs_length`` (the batch's shortcut for one sentence on each side) against the union-LCS
    hits of ``summary_lcs_hits`` with the sentences' own unigram counts, on random sentences with many ties
    and repeats (up to 150 tokens: several 32-bit words)."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        symbols = int(rng.integers(1, 8))
        model = rng.integers(0, symbols + 2, int(rng.integers(0, 150)))
        peer = rng.integers(0, symbols, int(rng.integers(0, 150)))
        offsets = [np.array([0, len(x)], dtype=np.int64) for x in (model, peer)]
        (model_vocab, model_counts), (peer_vocab, peer_counts) = grams.count_codes(model), grams.count_codes(peer)
        hit, base = lcs.summary_lcs_hits(model, offsets[0], peer, offsets[1], 1.0,
                                         model_vocab, model_counts, peer_vocab, peer_counts)
        slot = np.full(symbols + 2, -1, dtype=np.int64)
        assert lcs.sentence_lcs_length(model, peer, offsets[1], slot) == hit and (slot == -1).all()
        assert base == len(model)


# ------------------------------------------------------------------------------------------- batch vs Perl


MEASURE_SETS = {  # measures and Perl options; ROUGE-W (added unless a model has no token) last
    "-n 4 -w 1.2 -2 4 -U": (["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-s4", "rouge-su4"],
                            ["-n", "4", "-2", "4", "-U"], "1.2"),
    "-n 2 -w 2 -2 -1 -U": (["rouge-1", "rouge-2", "rouge-l", "rouge-s*", "rouge-su*"], ["-n", "2", "-2", "-1", "-U"],
                           "2"),
    "-n 1 -2 0 -U": (["rouge-1", "rouge-l", "rouge-s0", "rouge-su0"], ["-n", "1", "-2", "0", "-U"], None),
}


def _perl_table(summaries, references, args):
    peers = [[perl_bytes(s) for s in t.split("\n") if s] for t in summaries]
    models = [[[perl_bytes(s) for s in r.split("\n") if s] for r in refs] for refs in references]
    return run_perl(peers, models, args)


def _check(summaries, references, measures, args, stem, stopwords, multiref, alpha):
    ours = rouge(summaries, references, measures, stem=stem, stopwords=stopwords, multiref=multiref, alpha=alpha)
    flags = ["-p", str(alpha), "-f", multiref] + (["-m"] if stem else []) + (["-s"] if stopwords else [])
    for i, row in enumerate(_perl_table(summaries, references, args + flags)):
        assert row, i
        for key, want in row.items():
            prefix = key.lower().replace("-", "")
            assert tuple(ours.loc[i, [f"{prefix}_{x}" for x in "rpf"]]) == want, (i, key, args + flags)


@needs_perl
@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_batch_equals_perl_on_random_texts(kernels, data):
    """Random texts (the Perl differential test's vocabulary: stopwords, WordNet exceptions, hyphens,
    non-ASCII), 6 summaries with 1-4 references each, repeated texts included, in one batch."""
    measures, args, weight = MEASURE_SETS[data.draw(st.sampled_from(sorted(MEASURE_SETS)))]
    pool = [("\n".join(data.draw(perl_text)) or "x") for _ in range(8)]
    summaries = [data.draw(st.sampled_from(pool)) for _ in range(6)]
    references = [data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4)) for _ in range(6)]
    stem, stopwords = data.draw(st.booleans()), data.draw(st.booleans())
    # ROUGE-1.5.5 dies (division by zero) on ROUGE-W when a model has no token: no ROUGE-W then
    if weight and all(tokenize(r, stopwords=stopwords) for refs in references for r in refs):
        measures, args = [*measures, f"rouge-w-{weight}"], [*args, "-w", weight]
    _check(summaries, references, measures, args, stem, stopwords, data.draw(st.sampled_from(["A", "B"])),
           data.draw(st.sampled_from([0.5, 0.2, 1.0])))


@needs_perl
def test_batch_equals_perl_on_summeval_slice(kernels):
    """20 SummEval summaries x 11 references under the benchmark's setting (stemmed), -f A and -f B."""
    import rougelab
    data = rougelab.load_dataset("summeval").iloc[::80]
    summaries, references = data["summary"].tolist(), [list(r) for r in data["references"]]
    measures, args, weight = MEASURE_SETS["-n 4 -w 1.2 -2 4 -U"]
    measures, args = [*measures, "rouge-w-1.2"], [*args, "-w", weight]
    for multiref in ("A", "B"):
        _check(summaries, references, measures, args, True, False, multiref, 0.5)


@needs_perl
def test_long_texts_skip_bigrams_equal_perl(kernels):
    """ROUGE-S* and ROUGE-SU* of a 1,100-word summary against a 1,100-word reference (over 500,000
    skip-bigrams each, beyond ``batch.SORT_FROM``: counted by sorting) and a short one (counted in the hash
    table); the sorted count exactly (Perl's 5 digits cannot see one hit in 500,000)."""
    rng = np.random.default_rng(11)
    codes = [grams.gram_codes(np.minimum(rng.zipf(1.3, 1100), 3000), 1, -1, True, True, 32) for _ in range(2)]
    want = grams.clipped_hits(*grams.count_codes(codes[0]), *grams.count_codes(codes[1]))
    assert grams.sorted_hits(codes[0], codes[1]) == want > 0
    words = [*PERL_WORDS, *(f"w{k}" for k in range(3000))]
    long_texts = [" ".join(words[min(int(z), len(words)) - 1] for z in rng.zipf(1.3, 1100)) for _ in range(2)]
    assert all(len(tokenize(t)) * (len(tokenize(t)) - 1) // 2 >= batch_module.SORT_FROM for t in long_texts)
    measures, args, _ = MEASURE_SETS["-n 2 -w 2 -2 -1 -U"]
    _check(long_texts[:1], [[long_texts[1], "the cat sat on the mat"]], measures, args, False, False, "A", 0.5)


# ------------------------------------------------------------------------------------------- batch vs pair by pair


def test_batch_equals_pair_by_pair_with_jackknife_and_nltk(kernels):
    """The batch path and the pair-by-pair path (``score_peer``'s, Perl-tested) agree to the last bit."""
    import rougelab
    data = rougelab.load_dataset("summeval").iloc[:160:8]
    summaries, references = data["summary"].tolist(), [list(r) for r in data["references"]]
    measures = [api.parse_measure(m) for m in ["rouge-1", "rouge-3", "rouge-l", "rouge-w-1.2", "rouge-su4", "rouge-s*"]]
    for stem, stopwords, multiref in [(True, False, "jackknife-B"), (False, True, "B"), (True, False, "jackknife-A"),
                                     (False, False, "mean")]:
        options = RougeOptions(stem=stem, stopwords=stopwords, multiref=multiref if multiref in ("A", "B") else "A")
        fast = api._score_batch(summaries, references, measures, options, multiref, "nltk")
        slow = api._score_one_by_one(summaries, references, measures, options, multiref, "nltk")
        assert np.array_equal(fast, slow)


def test_batch_equals_pair_by_pair_beyond_packing(kernels):
    """A vocabulary of 40,000 words (more than 2**15, so ROUGE-4's grams are numbered, not packed)."""
    rng = np.random.default_rng(6)
    words = [f"w{k}" for k in range(40_000)]
    texts = [" ".join(words[j] for j in rng.integers(0, 40_000, 600)) for _ in range(60)]
    texts += [" ".join(words[j] for j in range(k * 2000, k * 2000 + 800)) for k in range(20)]
    summaries, references = texts[::2], [[r, texts[(i * 7) % len(texts)]] for i, r in enumerate(texts[1::2])]
    measures = [api.parse_measure(m) for m in ["rouge-2", "rouge-4", "rouge-l", "rouge-su4"]]
    options = RougeOptions(stem=False)
    fast = api._score_batch(summaries, references, measures, options, "A", "newline")
    slow = api._score_one_by_one(summaries, references, measures, options, "A", "newline")
    assert np.array_equal(fast, slow) and fast[:, 1, 0].max() > 0


def test_empty_texts_and_duplicates(kernels):
    out = rouge(["", "a b", "a b"], [["a b"], [""], ["a b", "a b c"]], ["rouge-2", "rouge-l", "rouge-su4"])
    assert out.iloc[0].tolist() == [0.0] * 9 and out.iloc[1].tolist() == [0.0] * 9
    assert out.loc[2, "rouge2_r"] == round(2 / 3, 5) and out.loc[2, "rouge2_p"] == 1.0


def test_a_batch_in_parts_gives_the_digits_of_one_part(monkeypatch):
    """Above ``PARALLEL_FROM`` tokens the scan, the tables and the pairs are cut into parts, one per thread;
    the table is the same as from one part."""
    summaries = [f"the cat number {i} sat on the mat\nand then it slept" for i in range(150)]
    references = [["a cat sat on a mat", f"the dog number {i} slept"] for i in range(150)]
    measures = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-w-1.2"]
    monkeypatch.setattr(api, "THREADED_PIECES_FROM", 10**9)  # one piece: the parts are cut inside it
    monkeypatch.setattr(_jit, "PARALLEL_FROM", 10**9)
    monkeypatch.setattr(byte_tokens, "SPLIT_BYTES", 10**9)
    whole = rouge(summaries, references, measures)
    monkeypatch.setattr(_jit, "PARALLEL_FROM", 0)
    monkeypatch.setattr(byte_tokens, "SPLIT_BYTES", 0)
    monkeypatch.setattr(_jit, "get_num_threads", lambda: 3)
    assert _jit.parts_of(np.ones(10)) == [(0, 3), (3, 6), (6, 10)]
    assert rouge(summaries, references, measures).equals(whole)
