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
import rougelab.rouge.core as core
import rougelab.rouge.grams as grams
import rougelab.rouge.lcs as lcs
from perl_oracle import perl_available, run_perl
from rougelab.rouge import rouge
from rougelab.rouge._jit import NUMBA
from rougelab.rouge.options import RougeOptions
from rougelab.text.tokenize import TokenEncoder, perl_bytes, tokenize
from test_rouge_perl_diff import text as perl_text

needs_perl = pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))


@pytest.fixture(params=["numba", "python"])
def kernels(request, monkeypatch):
    """Run the test with the compiled kernels, or with every kernel's pure-Python source."""
    if request.param == "python":
        for module in (api, core, grams, lcs):
            for name, value in list(vars(module).items()):
                if hasattr(value, "py_func") and value.py_func is not value:
                    monkeypatch.setattr(module, name, value.py_func)
    return request.param


def test_kernels_fixture_swaps_in_python(kernels):
    assert inspect.isfunction(api.batch_pair_stats) == (kernels == "python" or not NUMBA)
    assert inspect.isfunction(lcs._mark_lcs) == (kernels == "python" or not NUMBA)


# ------------------------------------------------------------------------------------------- rounding


def _round5_variants():
    return [core.round5_exact, core.round5_exact.py_func]


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


sentences = st.lists(st.text(alphabet=st.sampled_from(list("abcXYZ019 -\t\n.,'$é東—")), max_size=30), max_size=6)


@settings(max_examples=100, deadline=None)
@given(sentences, st.booleans(), st.booleans())
def test_encode_many_equals_tokenize(batch, stem, stopwords):
    vocab: dict[str, int] = {}
    ids, lengths = TokenEncoder(vocab, stem=stem, stopwords=stopwords).encode_many(batch)
    words = {i: w for w, i in vocab.items()}
    assert lengths.tolist() == [len(tokenize(s, stem=stem, stopwords=stopwords)) for s in batch]
    assert [words[i] for i in ids.tolist()] == [t for s in batch for t in tokenize(s, stem=stem, stopwords=stopwords)]


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


# ------------------------------------------------------------------------------------------- batch vs pair by pair


def test_batch_equals_pair_by_pair_with_jackknife_and_nltk(kernels):
    """The batch path and the pair-by-pair path (``score_peer``'s, Perl-tested) agree to the last bit."""
    import rougelab
    data = rougelab.load_dataset("summeval").iloc[:160:8]
    summaries, references = data["summary"].tolist(), [list(r) for r in data["references"]]
    measures = [api.parse_measure(m) for m in ["rouge-1", "rouge-3", "rouge-l", "rouge-w-1.2", "rouge-su4", "rouge-s*"]]
    for stem, stopwords, multiref in [(True, False, "jackknife"), (False, True, "B")]:
        options = RougeOptions(stem=stem, stopwords=stopwords, multiref="A" if multiref == "jackknife" else multiref)
        fast = api._score_batch(summaries, references, measures, options, multiref, "nltk")
        slow = api._score_one_by_one(summaries, references, measures, options, multiref, "nltk")
        assert np.array_equal(fast, slow)


def test_ngram_numbers_are_exact_beyond_packing():
    """Equal numbers exactly for equal n-grams, also with ids far beyond 63 // n bits."""
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 3, 400) * (1 << 40) + rng.integers(0, 2, 400)
    for n in (1, 2, 4):
        numbers = grams.ngram_numbers(ids, n).tolist()
        windows = [tuple(ids[i:i + n].tolist()) for i in range(len(ids) - n + 1)]
        first = {}
        assert all(first.setdefault(w, x) == x for w, x in zip(windows, numbers))
        assert len(set(numbers)) == len(set(windows))


def test_empty_texts_and_duplicates(kernels):
    out = rouge(["", "a b", "a b"], [["a b"], [""], ["a b", "a b c"]], ["rouge-2", "rouge-l", "rouge-su4"])
    assert out.iloc[0].tolist() == [0.0] * 9 and out.iloc[1].tolist() == [0.0] * 9
    assert out.loc[2, "rouge2_r"] == round(2 / 3, 5) and out.loc[2, "rouge2_p"] == 1.0
