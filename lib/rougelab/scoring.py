"""The bottom of the scoring stack, shared by every metric: the input error, the batch check, the
gram counts type and R/P/F.

``InputError`` is what every metric raises for bad input (a ``ValueError``: the command line turns it
into a one-line error). ``check_batch`` is the one check of a batch's shape and texts, run by
``Metric.score``, the score cache and ``rougelab.rouge.rouge`` alike; ``checked_batch`` makes the
checks of one call after the first free, so a batch is checked once however many layers it passes, and
its texts listed once (``check_listed_batch``).
``GramCounts`` is a text's gram -> count table with its clipped match (Lin 2004, eq. 1; ``Grams``: the
same as arrays);
``prf`` / ``with_f`` turn hits into R, P and F (eq. 4) and ``round_decimals`` is the one rounding, for
Python and the compiled kernels alike. Nothing here imports from the rest of the package, so every layer
(``text``, ``rouge``, ``metrics``) can build on it.
"""
from __future__ import annotations

import math
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import chain, filterfalse
from typing import Iterator, Mapping, NamedTuple, Sequence

import numpy as np


class InputError(ValueError):
    """Bad input to a metric: says what was wrong, with which input, and what to do."""


# The batch ``checked_batch`` has checked, for the calls inside its block: (summaries, references, sources, the
# ``ListedBatch`` of its texts or None).
_CHECKED: ContextVar[tuple] = ContextVar("rougelab_checked_batch", default=())


def check_batch(summaries: Sequence[str], references: Sequence[Sequence[str]],
                sources: Sequence[str] | None = None, *, needs_source: bool = False) -> None:
    """Raise ``InputError`` unless the batch is well formed.

    Lists (or tuples) of the same length; every summary, reference and source a ``str`` of valid
    Unicode (a lone surrogate cannot be encoded as UTF-8); at least one reference per summary.
    Inside ``checked_batch`` of these same objects it returns at once: they were checked.
    """
    done = _CHECKED.get()
    if done and done[0] is summaries and done[1] is references and (sources is None or done[2] is sources):
        return
    _check_shape(summaries, references, sources, needs_source)
    if _well_formed(summaries, references, () if sources is None else sources):
        return
    _raise_first_fault(summaries, references, sources)


def _check_shape(summaries, references, sources, needs_source: bool) -> None:
    """``check_batch``'s checks of the lists and their lengths."""
    _check_list(summaries, "summaries")
    _check_list(references, "references", what="a list of reference lists")
    if needs_source and sources is None:
        raise InputError("this metric reads the source document: pass sources=[...]")
    if sources is not None:
        _check_list(sources, "sources")
    if len(summaries) != len(references):
        if sources is not None:
            raise InputError(f"{len(summaries)} summaries, {len(references)} reference lists and "
                             f"{len(sources)} sources: pass one of each per summary")
        raise InputError(f"{len(summaries)} summaries but {len(references)} reference lists: "
                         "pass one list of references per summary")
    if sources is not None and len(sources) != len(summaries):
        raise InputError(f"{len(summaries)} summaries but {len(sources)} sources: pass one source per summary")


class ListedBatch(NamedTuple):
    """A batch's texts as ``check_listed_batch`` lists them: every text (the summaries, then each summary's
    references) and those of them that are not ASCII (the only ones a tokenizer can drop letters of), in order."""

    texts: list[str]
    non_ascii: list[str]


def batch_texts(summaries: Sequence[str], references: Sequence[Sequence[str]]) -> list:
    """Every text of a batch in ``ListedBatch``'s order: the summaries, then each summary's references."""
    return [*summaries, *chain.from_iterable(references)]


def check_listed_batch(summaries: Sequence[str], references: Sequence[Sequence[str]],
                       sources: Sequence[str] | None = None, *, needs_source: bool = False) -> ListedBatch | None:
    """``check_batch(summaries, references, sources, needs_source=...)``, and for the usual batch (lists or tuples
    of ``str``) the texts of its summaries and references listed by the same pass (``ListedBatch``), so that a
    caller reads them no more; None for any other batch that passes. Inside ``checked_batch`` of these same
    objects: the listing it made, without checking again."""
    done = _CHECKED.get()
    if done and done[0] is summaries and done[1] is references and (sources is None or done[2] is sources):
        return done[3]
    _check_shape(summaries, references, sources, needs_source)
    if type(summaries) in _SEQUENCES and type(references) in _SEQUENCES and \
            (sources is None or type(sources) in _SEQUENCES):
        every, non_ascii = batch_texts(summaries, references), []
        if _well_formed(summaries, references, (), every, non_ascii) and \
                (sources is None or _well_formed((), (), sources)):
            return ListedBatch(every, non_ascii)
    elif _well_formed(summaries, references, () if sources is None else sources):
        return None
    _raise_first_fault(summaries, references, sources)  # none for rows of other sequence types
    return None


def _raise_first_fault(summaries, references, sources) -> None:
    """The ``InputError`` of the batch's first fault, row by row, saying where; none when there is none
    (reference rows of another sequence type, say)."""
    for i, refs in enumerate(references):
        if isinstance(refs, str):
            raise InputError(f"references[{i}] is a string: pass a list of reference texts per summary")
        _check_list(refs, f"references[{i}]")
        if len(refs) == 0:
            raise InputError(f"summary {i} has no references: pass a non-empty list of reference texts")
        for k, ref in enumerate(refs):
            if not (isinstance(ref, str) and ref.isascii()):  # an ASCII str is valid: skip the costly checks
                _check_text(ref, f"references[{i}][{k}]")
    for i, text in enumerate(summaries):
        if not (isinstance(text, str) and text.isascii()):
            _check_text(text, f"summaries[{i}]")
    for i, text in enumerate(sources if sources is not None else ()):
        _check_text(text, f"sources[{i}]", hint=" (does this dataset have source documents?)")


@contextmanager
def checked_batch(summaries: Sequence[str], references: Sequence[Sequence[str]],
                  sources: Sequence[str] | None = None, *,
                  needs_source: bool = False) -> Iterator[ListedBatch | None]:
    """``check_listed_batch`` once, yielding its listing, then, inside the block, every ``check_batch`` of these
    same objects passes without checking again and every ``check_listed_batch`` gives that listing: an entry
    point that hands the batch on (the score cache to ``Metric.score`` to a scorer such as
    ``rougelab.rouge.rouge``, each of which checks what it is given when called on its own) checks and lists
    it once per call."""
    listed = check_listed_batch(summaries, references, sources, needs_source=needs_source)
    token = _CHECKED.set((summaries, references, sources, listed))
    try:
        yield listed
    finally:
        _CHECKED.reset(token)


@contextmanager
def joined_batch(systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]],
                 sources: Sequence[str] | None = None, *, needs_source: bool = False) -> Iterator[tuple]:
    """Several systems' summaries of the same inputs scored as one batch: ``check_batch`` of each system's
    summaries against ``references`` (and ``sources``), an error naming the system, then the joined batch
    ``(summaries, references, sources)``, every system's rows in order; inside the block, ``check_batch``
    of the joined lists passes without reading the texts again (``checked_batch``)."""
    for name, summaries in systems.items():
        try:
            check_batch(summaries, references, sources, needs_source=needs_source)
        except InputError as err:
            raise InputError(f"systems[{name!r}]: {err}") from None
    joined = ([summary for summaries in systems.values() for summary in summaries],
              [refs for _ in systems for refs in references],
              None if sources is None else [source for _ in systems for source in sources])
    token = _CHECKED.set((*joined, None))
    try:
        yield joined
    finally:
        _CHECKED.reset(token)


def _well_formed(summaries, references, sources, every: list | None = None, non_ascii: list | None = None) -> bool:
    """True when each reference list is a non-empty list or tuple and every text a ``str`` (or a
    subclass) that encodes as UTF-8; checked with builtins that loop in C, so that a large batch costs no Python loop
    per text. ``every``: the batch's texts listed already (summaries, references, sources); ``non_ascii``: a list
    that the texts that are not ASCII are put in (in order; when True is returned)."""
    if not (set(map(type, references)) <= _SEQUENCES and all(references)):
        return False
    if every is None:
        every = list(chain(summaries, chain.from_iterable(references), sources))
    try:
        found = _valid_non_ascii(every)
    except TypeError:  # a text that is not a str
        return False
    if found is None:
        return False
    if non_ascii is not None:
        non_ascii += found
    return True


# Texts encoded as one string at most (``_valid_non_ascii``): one call for many short texts (154 news texts of
# 1,000 pairs: 23 us, against 41 one by one), the memory of that many texts at a time.
JOINED_TEXTS = 256


def _valid_non_ascii(texts: list) -> list[str] | None:
    """The ``texts`` that are not ASCII, in order, or None when one of them does not encode as UTF-8 (a lone
    surrogate: the UTF-8 of texts joined fails exactly when one of theirs would); an ASCII ``str`` is valid.
    ``TypeError`` when one is not a ``str`` (``str.isascii`` of it: the check of each text's type, in the same
    pass; 28-105 us a pass over 2,000 texts)."""
    non_ascii = list(filterfalse(str.isascii, texts))
    try:
        for lo in range(0, len(non_ascii), JOINED_TEXTS):
            "".join(non_ascii[lo:lo + JOINED_TEXTS]).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return non_ascii


_SEQUENCES = {list, tuple}


def _check_list(value, name: str, what: str = "a list of strings") -> None:
    if type(value) is list or type(value) is tuple:  # the usual case, checked first
        return
    if isinstance(value, str):
        raise InputError(f"{name} must be {what}, not one string")
    if isinstance(value, (str, bytes, dict, set)) or not (hasattr(value, "__len__")
                                                          and hasattr(value, "__getitem__")):
        raise InputError(f"{name} must be {what}, not {type(value).__name__}"
                         + (" (materialise a generator with list(...))" if hasattr(value, "__next__") else ""))


def _check_text(text, name: str, hint: str = "") -> None:
    if not isinstance(text, str):
        raise InputError(f"{name} is {type(text).__name__}, not str{hint}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(f"{name} is not valid Unicode text: character {err.start} is a lone surrogate "
                         f"U+{ord(text[err.start]):04X}") from None


# --- recall, precision and F, with one rounding policy ---------------------------------------------
# ``round_digits=None``: nothing is rounded. ``round_digits=d`` (ROUGE-1.5.5: 5): R and P are rounded to
# d decimals as C/Perl ``printf("%.<d>f")`` prints them, F is computed from the rounded R and P and
# rounded too. These functions are plain arithmetic, so the compiled kernels call the same ones
# (``rougelab._jit`` registers them with numba).

def round_decimals(x: float, digits: int = 5) -> float:
    """``x`` rounded to ``digits`` decimals as ``printf("%.<digits>f")`` does (the exact binary value,
    ties to even), read back; needs |x| 10^digits < 2^52 (every R, P and F).

    The product x 10^digits is split into its rounded value and exact error (Dekker's two-product), so
    halfway cases (e.g. 1/64 = 0.015625 -> 0.01562 at 5 decimals) are decided on the exact value.
    """
    if x == 0.0 or x - x != 0.0:  # zero, nan, inf
        return x
    sign = 1.0
    if x < 0.0:  # printf rounds the magnitude
        sign, x = -1.0, -x
    scale = 10.0 ** digits
    split = 134217729.0  # 2**27 + 1 (Veltkamp)
    p = x * scale
    if p >= 4503599627370496.0:  # 2**52
        raise ValueError("round_decimals needs |x| * 10**digits < 2**52")
    c = split * x
    xh = c - (c - x)
    xl = x - xh
    c = split * scale
    sh = c - (c - scale)
    sl = scale - sh
    err = ((xh * sh - p) + xh * sl + xl * sh) + xl * sl
    n = float(math.floor(p + 0.5))
    t = p - n  # exact: p and n are within 1/2 of each other
    if t > 0.5 or (t == 0.5 and err > 0.0):
        n += 1.0
    elif t < -0.5 or (t == -0.5 and err < 0.0):
        n -= 1.0
    elif (t == 0.5 or t == -0.5) and err == 0.0:  # exact tie: to the even neighbour
        low = n if t == 0.5 else n - 1.0
        n = low if low % 2.0 == 0.0 else low + 1.0
    return sign * (n / scale)


def with_f(recall: float, precision: float, alpha: float = 0.5,
           round_digits: int | None = None) -> tuple[float, float, float]:
    """(R, P, F) with F = P R / ((1 - alpha) P + alpha R) (Lin 2004, eq. 4; ROUGE-1.5.5 ``-p``), 0 when
    the denominator is 0; alpha = 0.5 is the harmonic mean 2 P R / (P + R), to the last bit."""
    if round_digits is not None:
        recall, precision = round_decimals(recall, round_digits), round_decimals(precision, round_digits)
    denominator = (1 - alpha) * precision + alpha * recall
    f = precision * recall / denominator if denominator > 0 else 0.0
    return recall, precision, round_decimals(f, round_digits) if round_digits is not None else f


def prf(hit: float, reference_total: float, summary_total: float, alpha: float = 0.5,
        round_digits: int | None = None, weight: float = 1.0) -> tuple[float, float, float]:
    """(R, P, F) from a (weighted) hit count: R = hit / reference_total, P = hit / summary_total (0 for
    an empty side), F as in ``with_f``; ``weight`` w != 1 (ROUGE-W) takes f^-1(x) = x^(1/w) of R and P
    first (Lin 2004, eqs. 13-14)."""
    recall = hit / reference_total if reference_total != 0 else 0.0
    precision = hit / summary_total if summary_total != 0 else 0.0
    if weight != 1.0:
        recall, precision = recall ** (1 / weight), precision ** (1 / weight)
    return with_f(recall, precision, alpha, round_digits)


# --- gram counts: one gram -> count table, and the clipped match of two ----------------------------

class GramCounts(Counter):
    """gram -> count (a ``Counter``; grams are any hashable: token tuples, id rows as tuples, BE units),
    in order of first occurrence, as ROUGE-1.5.5's createNGram / createSkipBigram hashes hold them.
    Values may be weights (Anchored ROUGE's T-bags)."""

    def clipped_overlap(self, other: Mapping) -> float:
        """``Count_match`` (Lin 2004, eq. 1): over the grams of ``self`` (in its order) that ``other``
        holds, the sum of min(count here, count there) -- ROUGE's clipped hit count."""
        return sum(min(count, other[gram]) for gram, count in self.items() if gram in other)


class Grams(NamedTuple):
    """A ``GramCounts`` of id rows as arrays, for similarity matrices (the soft core): the distinct
    grams (``keys``, rows of token ids, in order of first occurrence) and their ``counts``; ``total``
    is ROUGE's gram count of the text."""

    keys: np.ndarray
    counts: np.ndarray

    @property
    def total(self) -> int:
        return int(self.counts.sum())


def count_grams(rows: np.ndarray) -> Grams:
    """Fold gram occurrences (an ``(g, width)`` id array, e.g. ``rougelab.rouge.grams.ngrams``) into
    distinct grams with counts (``GramCounts`` of the rows, as arrays)."""
    rows = np.asarray(rows, dtype=np.int64)
    if len(rows) == 0:
        return Grams(rows.reshape(0, rows.shape[1] if rows.ndim == 2 else 1), np.zeros(0, dtype=np.int64))
    counts = GramCounts(map(tuple, rows.tolist()))
    return Grams(np.array(list(counts), dtype=np.int64).reshape(len(counts), rows.shape[1]),
                 np.fromiter(counts.values(), dtype=np.int64, count=len(counts)))
