"""A large batch is scored in pieces of pairs (``rougelab.rouge.api._score_batch``): the same table, to the last
bit, as the whole batch in one piece, whatever the multi-reference rule, the measures and the tokenizer."""
from __future__ import annotations

import random

import numpy as np
import pytest

import rougelab.rouge.api as api
import rougelab.rouge.small_batch as small_batch
from rougelab import _jit
from rougelab.rouge import rouge
from rougelab.rouge.small_batch import piece_scores

WORDS = ["the", "cat", "sat", "on", "mat", "dogs", "running", "ran", "runs", "a", "of", "and", "is", "was",
         "Été", "naïve", "東京", "ÅSA", "don't", "U.S.", "3.5", "e-mail", "—", ",", "."]
MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4", "rouge-su*"]


def _text(rng: random.Random) -> str:
    """One to three lines of 0 to 12 words (an empty text now and then)."""
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))
                     for _ in range(rng.randint(1, 3)))


def _batch(seed: int, n: int = 60) -> tuple[list[str], list[list[str]]]:
    """``n`` summaries with 1 to 4 references each, some references shared between summaries (as in
    SummEval) and some summaries repeated."""
    rng = random.Random(seed)
    shared = [_text(rng) for _ in range(5)]
    summaries, references = [], []
    for i in range(n):
        summaries.append(summaries[rng.randrange(i)] if i and rng.random() < 0.1 else _text(rng))
        references.append([rng.choice(shared) if rng.random() < 0.3 else _text(rng)
                           for _ in range(rng.randint(1, 4))])
    return summaries, references


_SCORE_PIECE = api._score_piece


def _in_pieces(monkeypatch, piece_pairs: int, *args, threaded_from: int = 10 ** 9,
               **kwargs) -> tuple[np.ndarray, list[int]]:
    """``rouge``'s table with pieces of ``piece_pairs`` pairs (and one per thread from ``threaded_from`` pairs),
    and the summaries of each piece it scored."""
    calls = []

    def counted(*a):
        calls.append(len(a[0]))
        return _SCORE_PIECE(*a)

    monkeypatch.setattr(api, "PIECE_PAIRS", piece_pairs)
    monkeypatch.setattr(api, "THREADED_PIECES_FROM", threaded_from)
    monkeypatch.setattr(api, "_score_piece", counted)
    table = rouge.table_scorer(*args, **kwargs)
    return np.asarray(table.values), calls


@pytest.mark.filterwarnings("ignore:tokenizer=")  # rouge155 and rouge-score drop the non-ASCII words
@pytest.mark.parametrize("multiref", api.MULTIREF_RULES)
@pytest.mark.parametrize("tokenizer, stem", [("rouge155", True), ("rouge155", False), ("rouge-score", True),
                                             ("unicode", False), ("character", False)])
def test_pieces_give_the_whole_batch_table(monkeypatch, multiref, tokenizer, stem):
    summaries, references = _batch(seed=len(multiref) * 7 + len(tokenizer) + stem)
    options = dict(measures=MEASURES, multiref=multiref, tokenizer=tokenizer, stem=stem)
    whole, whole_calls = _in_pieces(monkeypatch, 10 ** 9, summaries, references, **options)
    pieces, piece_calls = _in_pieces(monkeypatch, 7, summaries, references, **options)
    per_thread, thread_calls = _in_pieces(monkeypatch, 10 ** 9, summaries, references, threaded_from=1, **options)
    assert whole_calls == [len(summaries)]
    assert len(piece_calls) > 10 and sum(piece_calls) == len(summaries)
    assert len(thread_calls) == _jit.get_num_threads() and sum(thread_calls) == len(summaries)
    assert whole.tobytes() == pieces.tobytes() == per_thread.tobytes()


@pytest.mark.filterwarnings("ignore:tokenizer=")
@pytest.mark.parametrize("splitter", ["none", "nltk"])
def test_pieces_with_other_splitters(monkeypatch, splitter):
    summaries, references = _batch(seed=3, n=40)
    options = dict(measures=["rouge-1", "rouge-2", "rouge-l", "rouge-su4"], splitter=splitter, stem=True)
    whole, _ = _in_pieces(monkeypatch, 10 ** 9, summaries, references, **options)
    pieces, calls = _in_pieces(monkeypatch, 5, summaries, references, **options)
    assert len(calls) > 5 and whole.tobytes() == pieces.tobytes()


def _mixed_batch() -> tuple[list[str], list[list[str]]]:
    """Pairs of one sentence each first (two pieces of 7 pairs of them alone), then ``_batch``'s texts of one to
    three lines (ASCII and not), empty texts and texts of no ASCII word among them."""
    rng = random.Random(11)
    line = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) for _ in range(30)]
    summaries, references = [line[i] for i in range(14)], [[line[i + 14]] for i in range(14)]
    more_summaries, more_references = _batch(seed=11, n=50)
    more_summaries[3], more_references[5] = "", ["", "東京 Été", line[0]]
    return summaries + more_summaries + [""], references + more_references + [["東京\n—"]]


@pytest.fixture(params=["numba", "python"])
def fused_kernel(request, monkeypatch):
    """The compiled ``small_batch_rpf``, or its Python twin (what a fresh environment's small piece runs)."""
    if request.param == "python":
        monkeypatch.setattr(small_batch, "small_batch_rpf", _jit.python_twin(small_batch.small_batch_rpf))
    return request.param


@pytest.mark.filterwarnings("ignore:tokenizer=")
@pytest.mark.parametrize("multiref", ["A", "B"])
@pytest.mark.parametrize("measures", [["rouge-1", "rouge-2", "rouge-l"], ["rouge-w-1.2", "rouge-3", "rouge-l"],
                                      ["rouge-l"], ["rouge-2", "rouge-1"]])
def test_pieces_of_the_common_setting_take_one_compiled_call(monkeypatch, fused_kernel, multiref, measures):
    """Pieces on a thread of their own, unstemmed ``rouge155`` tokens a sentence a line, go through
    ``small_batch_rpf`` (``piece_scores``), pieces of pairs all of one sentence and ROUGE-N alone included: the
    batch path's table to the last bit."""
    summaries, references = _mixed_batch()
    options = dict(measures=measures, multiref=multiref, stem=False)
    with monkeypatch.context() as threads:
        threads.setattr(api, "get_num_threads", lambda: 2)  # one piece on two threads: the batch path
        threads.setattr(api, "piece_scores", None)
        whole, whole_calls = _in_pieces(monkeypatch, 10 ** 9, summaries, references, **options)
    fused = []
    monkeypatch.setattr(api, "piece_scores", lambda texts, *rest: fused.append(len(texts)) or piece_scores(texts,
                                                                                                           *rest))
    monkeypatch.setattr(api, "EncodedBatch", None)  # the batch path is not taken
    pieces, piece_calls = _in_pieces(monkeypatch, 7, summaries, references, **options)
    assert whole_calls == [len(summaries)] and len(piece_calls) == len(fused) > 10
    assert whole.tobytes() == pieces.tobytes() and whole.max() > 0


@pytest.mark.filterwarnings("ignore:tokenizer=")
def test_pieces_of_any_sequence_check_batch_accepts(monkeypatch):
    """Pieces are cut by position whatever sequence holds the batch: a deque (which does not slice: cutting it
    raised TypeError, where the whole batch in one piece scored) and pandas Series with labels of their own
    give the table of the same texts in lists."""
    from collections import deque

    import pandas as pd

    summaries, references = _batch(seed=5, n=40)
    options = dict(measures=["rouge-1", "rouge-l"])
    whole, _ = _in_pieces(monkeypatch, 10 ** 9, summaries, references, **options)
    labels = [f"doc{i}" for i in range(len(summaries))][::-1]
    for holder in (deque, lambda rows: pd.Series(rows, index=labels, dtype=object)):
        pieces, calls = _in_pieces(monkeypatch, 7, holder(summaries), holder(references), **options)
        assert len(calls) > 5 and whole.tobytes() == pieces.tobytes()


def test_piece_ends_keep_references_together_and_bound_the_pairs():
    rng = random.Random(0)
    counts = np.array([rng.randint(1, 5) for _ in range(500)] + [40] + [1] * 30)
    for most in (1, 4, 7, 39, 40, 100, 10 ** 6):
        ends = api._piece_ends(counts, most)
        starts = [0, *ends[:-1]]
        assert ends[-1] == len(counts) and all(lo < hi for lo, hi in zip(starts, ends))
        for lo, hi in zip(starts, ends):
            pairs = counts[lo:hi].sum()
            assert pairs <= most or hi == lo + 1  # only a summary with more references than a piece holds
            if hi < len(counts):  # full: the next summary would not have fitted
                assert pairs + counts[hi] > most
    assert api._piece_ends(counts, 10 ** 6) == [len(counts)]


def test_pieces_bound_the_pairs_and_give_each_thread_one_from_a_size(monkeypatch):
    monkeypatch.setattr(api, "PIECE_PAIRS", 100)
    monkeypatch.setattr(api, "THREADED_PIECES_FROM", 10)
    references = [["r"] * 3] * 101  # 303 pairs: at most 76 (303 / 4) a piece, whole summaries
    assert api._pieces(references) == [(0, 25), (25, 50), (50, 75), (75, 100), (100, 101)]
    assert api._pieces([["r"]] * 9) == [(0, 9)]  # below THREADED_PIECES_FROM: one piece
    pieces = api._pieces([["r"]] * 20)  # one piece per thread
    assert len(pieces) == min(_jit.get_num_threads(), 20) and pieces[0][0] == 0 and pieces[-1][1] == 20
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))


def test_pieces_two_per_thread_from_a_larger_size(monkeypatch):
    monkeypatch.setattr(api, "THREADED_PIECES_FROM", 10)
    monkeypatch.setattr(api, "TWO_PIECES_PER_THREAD_FROM", 40)
    threads = min(_jit.get_num_threads(), 39)
    assert len(api._pieces([["r"]] * 39)) == threads  # below: one piece per thread
    references = [["r"]] * 37 + [["r", "s"]] * 3  # 43 pairs
    pieces = api._pieces(references)
    assert len(pieces) == (2 * threads if threads > 1 else 1) and pieces[0][0] == 0 and pieces[-1][1] == 40
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
    pairs = [sum(map(len, references[lo:hi])) for lo, hi in pieces]
    assert max(pairs) - min(pairs) <= 2  # about equal in pairs


@pytest.mark.filterwarnings("ignore:tokenizer=")
def test_stemmed_batches_take_the_pieces_of_unstemmed_ones(monkeypatch):
    """Stemming or stopwords change nothing in the cut: a piece looks its words' stems up in the process's lexicon
    (``rougelab.text.lexicon``), no longer each of them in Python, so stemmed batches are not kept in fewer,
    larger pieces (they were, up to 10,000 pairs)."""
    summaries, references = _batch(seed=11, n=60)
    cuts = [_in_pieces(monkeypatch, 7, summaries, references, measures=["rouge-1"], **options)[1]
            for options in (dict(stem=False), dict(stem=True), dict(stem=False, stopwords=True))]
    assert len(cuts[0]) > 5 and cuts[0] == cuts[1] == cuts[2]


def test_pieces_two_per_thread_above_the_piece_bound(monkeypatch):
    """Past ``PIECE_PAIRS`` a batch keeps at least two pieces per thread, and as many more as the bound asks."""
    monkeypatch.setattr(api, "PIECE_PAIRS", 50)
    monkeypatch.setattr(api, "THREADED_PIECES_FROM", 10)
    monkeypatch.setattr(api, "TWO_PIECES_PER_THREAD_FROM", 40)
    threads = min(_jit.get_num_threads(), 60)
    least = 2 * threads if threads > 1 else 1
    for size, bound in [(60, 2), (500, 10)]:  # 60 pairs: two pieces of 50 would do, 500: ten
        pieces = api._pieces([["r"]] * size)
        assert len(pieces) == max(least, bound) and pieces[0][0] == 0 and pieces[-1][1] == size
        assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
        assert max(hi - lo for lo, hi in pieces) <= 50
