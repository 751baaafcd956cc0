"""Classic ROUGE of a few pairs, or of a piece of a batch, in one compiled call, from the texts' bytes to R, P and F.

On a batch of a few pairs the Python between the batch path's kernels (``EncodedBatch``, ``pair_stats``,
``pooled_rpf``) costs more than the kernels. ``small_batch_rpf`` calls the same kernels, in the same order on
the same arrays, inside one compiled function: ROUGE-N and the union LCS's ROUGE-L/W without stemming or
stopwords (``rouge155`` tokens, one sentence a line), ``-f A`` or ``-f B``, rounded as ROUGE-1.5.5 prints.
A small batch (``small_batch_scores``) of pairs all of one sentence each is left to the batch path, whose
one-sentence shortcut compiles no union-LCS code (``batch.one_sentence_pairs``). A piece of a larger batch on a
thread of its own (``piece_scores``: ``api._score_piece``) goes this way too, ROUGE-N alone and the shortcut
included, once the function is compiled or kept on disk (``pieces_run_compiled``): its Python steps between the
kernels held the interpreter lock, which the other thread's next piece waited for. The numbers are the batch
path's to the last bit (tests/test_small_batch.py, tests/test_rouge_pieces.py). A fresh environment runs the
function's Python source (``run_kernel``).
"""
from __future__ import annotations

import threading
from itertools import accumulate

import numpy as np

from rougelab._jit import jit, run_kernel, runs_compiled
from rougelab.rouge.batch import (_bounds_seconds, _lcs_seconds, _ngram_seconds, batch_pair_stats, lcs_pair_stats,
                                  pooled_rpf, rpf_seconds, sentence_lcs_pair_stats, text_bounds)
from rougelab.text.byte_tokens import SCAN_STEP, _scan, eight_bytes, keep_table, new_table, scan_surface, taken_table
from rougelab.text.tokenize import TokenEncoder

# A batch goes this way up to this many (summary, reference) pairs and bytes of text (64 pairs of news: 1.1 ms,
# against 1.2 ms on the batch path); beyond, the Python around the batch path's kernels is a small part of the
# call, and from about 250 pairs the batch path cuts the pairs into parts for the threads.
SMALL_PAIRS = 64
SMALL_BYTES = 1 << 16

# What the small path hands ``small_batch_rpf`` for the scan's arrays: none, made inside the call (taking the
# thread's kept hash table in Python cost a call of one or ten pairs 5-12 us, a tenth of it).
_MADE_INSIDE = np.zeros(0, dtype=np.int64)
_SURFACE = TokenEncoder()  # rouge155 tokens, unstemmed: what the scan reads (only its ``surface_bytes``)
_SEPARATORS, _FOLD = _SURFACE.reading  # how the scan reads them


@jit
def small_batch_rpf(data, words, text_ends, surface, table, peers, models, bounds, sizes, lcs_weights, lcs_is_w, order,
                    is_w, weights, alpha, best_model, one_sentence_too):
    """(summaries x measures x 3) R/P/F of the pairs of the texts in ``data`` (``scan_tokens``' input; ``words``:
    ``eight_bytes(data)``; ``surface``, ``table``: the scan's token array and empty hash table, as ``_scanned``
    hands them to ``_scan``, or empty arrays: made here, with no Python around the call): the scan,
    ``text_bounds``, ``batch_pair_stats`` of the n-gram ``sizes``, the ROUGE-L/W stats of ``lcs_weights``
    (``lcs_stats``: ``sentence_lcs_pair_stats`` when every pair is one sentence on each side and every weight 1,
    else ``lcs_pair_stats``), the columns put in the asked ``order`` and ``pooled_rpf`` (``best_model``: ``-f B``)
    rounded to 5 digits; and the table, emptied for a next scan. Pairs all of one sentence unless
    ``one_sentence_too``: an empty array, nothing scored (the small path leaves them to the batch path, whose
    shortcut compiles no union-LCS code)."""
    if not len(table):
        surface = np.empty(len(data) // 2 + 1, dtype=np.int64)
        table = new_table(len(data))
    ids, lengths, sentences, first, _, table = _scan(data, words, text_ends, surface, table, _SEPARATORS, _FOLD)
    one_sentence = len(lcs_weights) > 0 and (lcs_weights == 1.0).all()  # as ``one_sentence_pairs``
    for q in range(len(peers)):
        if sentences[peers[q]] != 1 or sentences[models[q]] != 1:
            one_sentence = False
            break
    if one_sentence and not one_sentence_too:
        return np.zeros((0, 0, 3)), table
    start, end, unit_start, unit_offsets = text_bounds(lengths, sentences)
    vocabulary = len(first)  # EncodedBatch's ids.max() + 1: the scan numbers its distinct tokens from 0, no pass
    grams = batch_pair_stats(peers, models, sizes, vocabulary, ids, start, end)
    if one_sentence:
        one = sentence_lcs_pair_stats(peers, models, vocabulary, ids, start, end, unit_offsets, unit_start)
        lcs = np.empty((len(peers), len(lcs_weights), 4))
        for k in range(len(lcs_weights)):
            lcs[:, k, :] = one
    elif len(lcs_weights):
        lcs = lcs_pair_stats(peers, models, lcs_weights, lcs_is_w, vocabulary, ids, start, end, unit_offsets,
                             unit_start)
    else:
        lcs = np.empty((len(peers), 0, 4))
    stats = np.empty((len(peers), len(order), 4))
    for k in range(len(order)):
        column = order[k]
        if column < len(sizes):
            stats[:, k, :] = grams[:, column, :]
        else:
            stats[:, k, :] = lcs[:, column - len(sizes), :]
    return pooled_rpf(stats, bounds, is_w, weights, alpha, best_model, np.int64(5)), table  # typed as _score_batch's 5


def _python_seconds(data, words, text_ends, surface, table, peers, models, bounds, sizes, lcs_weights, lcs_is_w, order,
                    *rest):
    """A bound on ``small_batch_rpf``'s Python run: the estimates of the kernels it calls, for texts of
    (bytes + 1) / 2 tokens (a token and the space after it take 2 bytes at least) and a sentence a line."""
    text_bytes = np.diff(text_ends, prepend=-1)  # each text's bytes and the newline after it
    end = np.cumsum(text_bytes // 2)
    start = end - text_bytes // 2
    lines_so_far = np.searchsorted(np.flatnonzero(data == 10), text_ends) + 1  # lines of the texts up to each
    unit_start = np.concatenate([[0], lines_so_far + np.arange(1, len(text_ends) + 1)])  # and one slot a text
    stats = np.empty((len(peers), len(order), 0))
    return (SCAN_STEP * len(data) + _bounds_seconds(text_bytes, np.empty(int(lines_so_far[-1])))
            + _ngram_seconds(peers, models, sizes, 0, None, start, end)
            + _lcs_seconds(peers, models, lcs_weights, lcs_is_w, 0, None, start, end, None, unit_start)
            + rpf_seconds(stats, bounds))


def small_batch_compiled() -> bool:
    """Whether ``small_batch_rpf`` has run compiled in this process (not as its Python twin, which has no
    ``signatures``)."""
    return bool(getattr(small_batch_rpf, "signatures", None))


def small_batch_scores(texts: list[str], peers: np.ndarray, models: np.ndarray, bounds: np.ndarray, layout,
                       alpha: float, best_model: bool, all_ascii: bool | None = None) -> np.ndarray | None:
    """(summaries x measures x 3) R/P/F of the (peer, model) pairs of ``texts`` (indices), summary i owning
    pairs ``bounds[i]:bounds[i + 1]``, for ``layout`` (``api._KernelMeasures``) with ROUGE-L/W in it; None when
    the batch is not small (``SMALL_PAIRS``, ``SMALL_BYTES``) or its pairs are all of one sentence: the
    batch path's. ``all_ascii``: whether every text is ASCII, when the caller knows (``_joined_bytes``)."""
    if not 0 < len(peers) <= SMALL_PAIRS:
        return None
    if all_ascii is None:
        all_ascii = all(map(str.isascii, texts))  # a flag of each str
    data, ends = _joined_bytes(texts, all_ascii)
    if len(data) > SMALL_BYTES:
        return None
    kept = _kept_bytes  # this thread's
    kept.memory[:len(data)] = data
    out = run_kernel(small_batch_rpf, _python_seconds, kept.read[:len(data)], kept.words[:max(len(data) - 7, 0)],
                     ends, _MADE_INSIDE, _MADE_INSIDE, peers, models, bounds, layout.ngram_sizes, layout.lcs_weights,
                     layout.lcs_is_w, layout.columns, layout.is_w, layout.weights, alpha, best_model, False)[0]
    return out if len(out) else None


def _joined_bytes(texts: list[str], all_ascii: bool) -> tuple[bytes, np.ndarray]:
    """``_SURFACE.surface_bytes(texts)`` of a small batch, ASCII texts (``all_ascii``) joined and encoded at once,
    each one's bytes its characters, and where each text ends found in one pass (a one-pair call: 1.4 us, against
    2.05 through ``surface_bytes``). Other texts go through ``surface_bytes``, one by one (a text of other letters
    takes longer to encode in a joined string than alone)."""
    if not all_ascii:
        return _SURFACE.surface_bytes(texts)
    # text i ends after the characters of texts 0..i and a newline after each but the last: -1 + sum(length + 1)
    ends = np.fromiter(accumulate(map(_ONE_MORE, map(len, texts)), initial=-1), dtype=np.int64, count=len(texts) + 1)
    return "\n".join(texts).encode(), ends[1:]


_ONE_MORE = (1).__add__


class _KeptBytes(threading.local):
    """A thread's room for a small batch's bytes (``SMALL_BYTES``), its read-only view and that view's
    ``eight_bytes``, made once: a small call copies its bytes in and hands the kernel slices of these views, the
    types ``_surface_bytes`` hands it (making the two views per call cost a one-pair call 1.4 us, the copy and the
    slices 0.4)."""

    def __init__(self):
        room = np.zeros(SMALL_BYTES, dtype=np.uint8)
        self.memory = memoryview(room)
        self.read = room.view()
        self.read.flags.writeable = False
        self.words = eight_bytes(self.read)


_kept_bytes = _KeptBytes()


def piece_scores(texts: list[str], peers: np.ndarray, models: np.ndarray, bounds: np.ndarray, layout, alpha: float,
                 best_model: bool) -> np.ndarray:
    """``small_batch_scores`` of a piece of a batch (``api._score_piece``) of any size, its pairs of one sentence
    included, and ``layout`` with or without ROUGE-L/W: the batch path's numbers in one compiled call, whose
    only Python is the texts' bytes."""
    data, ends = _surface_bytes(texts)
    out, table = run_kernel(small_batch_rpf, _python_seconds, data, eight_bytes(data), ends, scan_surface(len(data)),
                            taken_table(len(data)), peers, models, bounds, layout.ngram_sizes, layout.lcs_weights,
                            layout.lcs_is_w, layout.columns, layout.is_w, layout.weights, alpha, best_model, True)
    keep_table(table)
    return out


def pieces_run_compiled() -> bool:
    """Whether ``small_batch_rpf`` is ready for a piece (``runs_compiled``): compiling it for pieces alone does not
    pay (a fresh environment's first 1,000-pair call took 19-26 s compiling it, against 1.1-1.4 s through the batch
    path's kernels, run as Python until each pays), so pieces wait for the small path to compile it, or for a
    process before to have kept it."""
    return runs_compiled(small_batch_rpf)


def _surface_bytes(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The bytes the scan reads (``surface_bytes``), read-only as ``encode_many`` hands them to the scan (one
    type for the kernel), and where each text ends in them."""
    data, ends = _SURFACE.surface_bytes(texts)
    read = np.frombuffer(data, dtype=np.uint8)
    read.flags.writeable = False
    return read, ends
