"""The small-batch path of ``rouge()`` (``rougelab.rouge.small_batch``) against the batch path, to the last bit."""
from __future__ import annotations

import numpy as np
import pytest

import rougelab.rouge.api as api
import rougelab.rouge.small_batch as small_batch
from rougelab import _jit
from rougelab.rouge import rouge
from rougelab.text.tokenizers import DroppedLettersWarning

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "Cat", "MAT", "it's", "co-op", "caf\u00e9", "\u732b",
         "2024", "x9", "-", "...", ",", "the", "the", "a"]
MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-w-1.5"]


def _text(rng) -> str:
    """1 to 4 lines of 0 to 25 words, now and then an empty or a blank line."""
    lines = [" ".join(rng.choice(WORDS, rng.integers(0, 26))) for _ in range(rng.integers(1, 5))]
    if rng.random() < 0.2:
        lines.insert(int(rng.integers(0, len(lines) + 1)), "" if rng.random() < 0.5 else "  ")
    return "\n".join(lines)


def _batch(rng):
    pool = [_text(rng) for _ in range(12)]
    n = int(rng.integers(1, 12))
    summaries = [str(rng.choice(pool)) for _ in range(n)]
    references = [[str(rng.choice(pool)) for _ in range(rng.integers(1, 5))] for _ in range(n)]
    measures = [str(m) for m in rng.permutation(MEASURES)[:rng.integers(1, len(MEASURES) + 1)]]
    if not any(m in ("rouge-l", "rouge-w-1.2", "rouge-w-1.5") for m in measures):
        measures.insert(int(rng.integers(0, len(measures) + 1)), "rouge-l")
    return summaries, references, measures


def _plan(measures, **options):
    keywords = dict(preprocessing=None, tokenizer=None, stem=False, stemmer=None, stem_exceptions=None,
                    stopwords=None, splitter=None, multiref="A", alpha=0.5, word_limit=None, byte_limit=None,
                    perl_last_unigram_bug=True, perl_byte_limit_skips_lcs=True, perl_round_before_f=True,
                    perl_wlcs=True)
    return api._plan(measures=measures, **{**keywords, **options})


@pytest.fixture(params=["numba", "python"])
def kernel(request, monkeypatch):
    """The compiled ``small_batch_rpf``, or its Python twin (what a fresh environment's small call runs)."""
    if request.param == "python":
        monkeypatch.setattr(small_batch, "small_batch_rpf", _jit.python_twin(small_batch.small_batch_rpf))
    return request.param


@pytest.mark.filterwarnings("ignore:tokenizer='rouge155' keeps only ASCII")  # the non-ASCII words, on purpose
@pytest.mark.parametrize("seed", range(40))
def test_small_batches_score_as_the_batch_path_to_the_last_bit(kernel, seed):
    """Random texts (repeated texts, empty and blank lines, non-ASCII letters, hyphens) and options the path
    takes: ROUGE-N, ROUGE-L and ROUGE-W in any order, -f A and -f B, any alpha."""
    rng = np.random.default_rng(seed)
    summaries, references, measures = _batch(rng)
    plan = _plan(measures, multiref=str(rng.choice(["A", "B"])), alpha=float(rng.choice([0.5, 0.2, 1.0, 0.0])))
    assert plan.small
    small = api._score_small(summaries, references, plan)
    whole = api._score_batch(summaries, references, plan.measures, plan.options, plan.multiref, plan.splitter)
    if small is None:  # only when every pair is of one sentence each and every weight is 1 (the batch's shortcut)
        texts = [*summaries, *(r for refs in references for r in refs)]
        assert all(len([line for line in t.split("\n") if line]) == 1 for t in texts)
        assert "rouge-w-1.2" not in measures and "rouge-w-1.5" not in measures
        return
    assert small.tolist() == whole.tolist()
    assert rouge(summaries, references, measures, stem=False, multiref=plan.multiref,
                 alpha=plan.options.alpha).values.tolist() == whole.reshape(len(summaries), -1).tolist()


def test_most_random_batches_take_the_small_path():
    taken = 0
    for seed in range(40):
        summaries, references, measures = _batch(np.random.default_rng(seed))
        taken += api._score_small(summaries, references, _plan(measures)) is not None
    assert taken >= 30


def test_the_benchmark_task_takes_the_small_path_and_equals_the_batch_path():
    summaries = ["The cat sat on the mat.\nIt was happy there.", "Dogs bark at night, loudly.\nVery loudly."]
    references = [["A cat was sitting on the mat.\nThe cat was happy."], ["At night the dogs barked.\nLoud."]]
    plan = _plan(["rouge-1", "rouge-2", "rouge-l"])
    small = api._score_small(summaries, references, plan)
    whole = api._score_batch(summaries, references, plan.measures, plan.options, plan.multiref, plan.splitter)
    assert small is not None and small.tolist() == whole.tolist() and small.max() > 0


def test_a_short_batch_after_a_longer_one_and_on_several_threads_at_once_scores_as_alone():
    """A thread's small calls read their bytes from one room (``small_batch._KeptBytes``): a short batch reads none
    of the longer one's left behind, and threads scoring at once read none of each other's."""
    from concurrent.futures import ThreadPoolExecutor

    plan = _plan(["rouge-1", "rouge-2", "rouge-l"])
    rng = np.random.default_rng(7)
    batches = [([_text(rng) + "\nzz" * 40], [[_text(rng)]])]  # a longer text first, then shorter ones
    batches += [([_text(rng) for _ in range(3)], [[_text(rng)] for _ in range(3)]) for _ in range(11)]
    batches = [b for b in batches if api._score_small(*b, plan) is not None]
    alone = [api._score_batch(*b, plan.measures, plan.options, plan.multiref, plan.splitter).tolist()
             for b in batches]
    assert len(batches) >= 8 and [api._score_small(*b, plan).tolist() for b in batches] == alone
    with ThreadPoolExecutor(4) as pool:
        for _ in range(20):
            assert list(pool.map(lambda b: api._score_small(*b, plan).tolist(), batches)) == alone


def test_one_sentence_pairs_and_large_batches_go_the_batch_path():
    plan = _plan(["rouge-1", "rouge-l"])
    assert api._score_small(["a b c"], [["a b d", "b c"]], plan) is None  # the one-sentence shortcut
    assert api._score_small(["a b c"], [["a b d\nc"]], plan) is not None
    assert api._score_small(["a b c"], [["a b d"]], _plan(["rouge-w-1.2"])) is not None  # a weight above 1
    many = small_batch.SMALL_PAIRS + 1
    assert api._score_small(["a b\nc"] * many, [["a c"]] * many, plan) is None
    assert api._score_small(["a b\n" * small_batch.SMALL_BYTES], [["a c"]], plan) is None
    assert api._score_small([], [], plan) is None


def test_a_large_batch_is_numbered_once(monkeypatch):
    """A batch of more summaries than ``SMALL_PAIRS`` goes straight to the batch path: its texts were numbered
    for the small path first (a ``TokenIndex`` of every text, a quarter of the call on 200,000 pairs), then again."""
    numbered = []

    def counted(summaries, references):
        numbered.append(len(summaries))
        return text_pairs(summaries, references)

    text_pairs = api._text_pairs
    monkeypatch.setattr(api, "_text_pairs", counted)
    many = small_batch.SMALL_PAIRS + 1
    rouge(["a b\nc"] * many, [["a c"]] * many, measures=["rouge-1", "rouge-l"], stem=False)
    assert numbered == [many]


def test_the_call_that_loads_the_batch_kernels_scores_its_batch_again(monkeypatch):
    """A process's first small call that runs compiled loads the batch kernels (``_load_batch_kernels``: its batch
    through ``_score_batch`` once) and then scores the batch ``RUNS_AFTER_LOADING`` more times
    (``_again_after_loading``), with the same numbers and without warning again, warming the dropped-letter
    warning's path (``warm_dropped_letters``) after each. Each call warns once, at this file's line; the calls
    after it score once."""
    small, batch, warmed = [], [], []

    def counted(log, function):
        return lambda summaries, *rest: log.append(len(summaries)) or function(summaries, *rest)

    monkeypatch.setattr(api, "_score_small", counted(small, api._score_small))
    monkeypatch.setattr(api, "_score_batch", counted(batch, api._score_batch))
    monkeypatch.setattr(api, "_batch_kernels_loaded", False)
    monkeypatch.setattr(api, "small_batch_compiled", lambda: True)  # as once the kernel has run compiled
    monkeypatch.setattr(api, "warm_dropped_letters", lambda warm=api.warm_dropped_letters: warmed.append(1) or warm())
    summaries, references = ["a b c.\nd caf\u00e9.", "e c"], [["a b d.\ne c."], ["c e.\nd"]]  # not all one sentence
    runs = 1 + api.RUNS_AFTER_LOADING
    with pytest.warns(DroppedLettersWarning) as warned:  # the letter é, dropped: warned of once
        first = rouge(summaries, references, ["rouge-1", "rouge-l"], stem=False)
    assert (small, batch, warmed) == ([2] * runs, [2], [1] * (runs - 1)) and api._batch_kernels_loaded and runs > 2
    assert len(warned) == 1 and warned[0].filename == __file__
    with pytest.warns(DroppedLettersWarning) as warned:
        again = rouge(summaries, references, ["rouge-1", "rouge-l"], stem=False)
    assert (small, batch, warmed) == ([2] * (runs + 1), [2], [1] * (runs - 1))
    assert len(warned) == 1 and warned[0].filename == __file__
    assert first.equals(again) and first.to_numpy().tobytes() == again.to_numpy().tobytes()


@pytest.mark.parametrize("measures, options", [
    (["rouge-1", "rouge-l"], {"stem": True}),
    (["rouge-1", "rouge-l"], {"stopwords": True}),
    (["rouge-1", "rouge-su4", "rouge-l"], {}),
    (["rouge-1", "rouge-2"], {}),  # no ROUGE-L/W: the n-gram kernel alone
    (["rouge-1", "rouge-l"], {"multiref": "best-f"}),
    (["rouge-1", "rouge-l"], {"multiref": "mean"}),
    (["rouge-1", "rouge-l"], {"perl_round_before_f": False}),
    (["rouge-1", "rouge-l"], {"tokenizer": "unicode"}),
    (["rouge-1", "rouge-l"], {"tokenizer": "rouge-score"}),
    (["rouge-1", "rouge-l"], {"splitter": "nltk"}),
    (["rouge-1", "rouge-l"], {"word_limit": 10}),
    (["rouge-w-1.2"], {"perl_wlcs": False}),
])
def test_other_options_go_the_old_way(measures, options):
    assert not _plan(measures, **options).small


@pytest.mark.parametrize("seed", range(20))
def test_a_small_batch_s_joined_bytes_are_those_of_the_scan(seed):
    """``_joined_bytes`` (ASCII texts encoded at once, others one by one) is ``surface_bytes``, empty texts and a lone
    surrogate included."""
    rng = np.random.default_rng(seed)
    texts = [_text(rng) for _ in range(int(rng.integers(1, 9)))] + ["", "a", "\ud800b" if seed % 2 else "c"]
    for batch in (texts, [t for t in texts if t.isascii()]):
        data, ends = small_batch._joined_bytes(batch, all(map(str.isascii, batch)))
        expected, expected_ends = small_batch._SURFACE.surface_bytes(batch)
        assert data == bytes(expected) and ends.tolist() == expected_ends.tolist() and ends.dtype == np.int64
