"""One compiled pass over the bytes of many texts: their lines and their ROUGE-1.5.5 surface tokens.

The input is every text's UTF-8 bytes read as ``TOKEN_BYTES`` maps them (ASCII lower-casing; a-z, 0-9 and
the newline kept; every other byte, ``-`` included, a space: ``RAW``, or already mapped: ``PLAIN``), the texts
joined by newlines. A line is a
sentence unit when it has at least one byte (``split_sentences``' "newline" rule: empty lines are
dropped, whitespace-only lines kept); a surface token is a maximal run of bytes other than the space and
the newline: after ``TOKEN_BYTES`` a run of ``[a-z0-9]``, which is what ``normalize`` plus the
first-character filter of ``select_tokens`` leave (see ``TokenEncoder``); the other tokenizers write
tokens holding any other byte, control bytes and non-ASCII ones included. Distinct tokens are numbered
in order of first occurrence through an open-addressing hash table keyed by one integer read from the
token's bytes at once (``_token_key``): a token of up to 7 bytes is its key, a longer one is compared by
its length and bytes, so a collision costs a probe, never a wrong number. A large batch
is cut into parts (whole texts) scanned at once on the threads (``map_threads``), each numbering its own
tokens; a scan of those distinct tokens, written out part after part, then gives every distinct token its
number in the whole batch, the same numbers a single scan gives.
"""
from __future__ import annotations

import threading

import numpy as np

from rougelab._jit import compiled_or_python, jit, jitable, jitable_borrowing, jitable_inline, map_threads, parts_of

# Byte -> byte: A-Z lower-cased, a-z 0-9 and the newline kept, every other byte a space.
TOKEN_BYTES = bytes(c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122 or 48 <= c <= 57 or c == 10 else 32
                    for c in range(256))
_SPACE, _NEWLINE = 32, 10
# How ``scan_tokens`` reads bytes: which bytes separate tokens (the newline among them), and the bits set in each
# byte of a token before it is compared. ``PLAIN``: bytes written for the scan (by ``TOKEN_BYTES``, or by another
# tokenizer), space and newline separate; ``RAW``: UTF-8 as it is, read as ``TOKEN_BYTES`` maps it (every byte but
# ASCII letters, digits and the newline separates, and 0x20 set in a letter, digit or upper-case letter alike
# lower-cases it), so that no one maps the bytes first (``bytes.translate`` held the interpreter lock 50 us for
# each 250 pairs).
# A separator is a 1 (uint8, not bool: the scan's first pass takes 25% less time reading it).
PLAIN = (np.array([c in (_SPACE, _NEWLINE) for c in range(256)], dtype=np.uint8), np.uint64(0))
RAW = (np.array([TOKEN_BYTES[c] in (_SPACE, _NEWLINE) for c in range(256)], dtype=np.uint8),
       np.uint64(0x2020202020202020))
_MASK32, _MIX = 0xFFFFFFFF, 0x5BD1E995  # _MIX is odd and below 2**31: a 32-bit value times it stays exact
# Batches of at least this many bytes are scanned in parts, one per thread. Parts cost more CPU than one
# scan (numbering their tokens together, handing them to the threads): 560 kB of news (1,000 pairs)
# took 3.0 ms in one part and 6.5 ms in two on one thread, 11 MB 55 ms and 73 ms.
SPLIT_BYTES = 1 << 21
SCAN_STEP = 0.9e-6  # seconds ``_scan``'s pure-Python source takes per byte (at most 0.97 us measured by
# benchmarks/python_steps.py's batches of 1 to 10 pairs on a heavily loaded machine: ``compiled_or_python``)
# A thread keeps the hash table of its last scan (``_scanned``), emptied, for its next scan of enough bytes, up to
# this many slots (1 MB): a table made afresh on each call was zeroed on fresh pages of memory, which the threads'
# allocator gives back to the system after each call (150 to 480 page faults a 1,000-pair call).
KEPT_SLOTS = 1 << 16
_kept = threading.local()  # ``.table``: this thread's last hash table, all zeros


@jitable_borrowing
def _same_bytes(words, a, b, length, fold):
    """Whether the tokens of ``length`` >= 8 bytes at ``a`` and ``b`` hold the same bytes, each with the bits of
    ``fold`` set (``words``: ``eight_bytes`` of their data), compared 8 bytes at a time."""
    k = 0
    while k < length - 8:  # (a ``range`` with a step divides to count its steps)
        if (words[a + k] | fold) != (words[b + k] | fold):
            return False
        k += 8
    return (words[a + length - 8] | fold) == (words[b + length - 8] | fold)


@jitable
def home_slot(key, mask):
    """The slot where linear probing for ``key`` (>= 0) starts in a table of ``mask + 1`` slots (a power
    of 2): the key's bits mixed down to 32 and multiplied, then the middle bits of the product."""
    return ((((key ^ (key >> 29)) & _MASK32) * _MIX) >> 15) & mask


@jitable_inline
def _slot(table, key, words, start, size, first, length, fold):
    """The slot of ``table`` holding the token ``data[start:start + size]`` (its ``_token_key``), or the empty
    slot where it belongs. Slot k is ``table[2k]`` (the key) and ``table[2k + 1]`` (the token's number + 1;
    0: empty); ``first`` / ``length`` locate the numbered tokens in ``data``, whose ``eight_bytes`` are ``words``,
    read with ``fold`` (``PLAIN``, ``RAW``). Linear probing from the slot the key's mixed bits pick; the key of a
    token of up to 7 bytes is the token (its bytes and length), a longer one matches only when its length and
    bytes are equal."""
    mask = len(table) // 2 - 1
    slot = home_slot(key, mask)
    while True:
        v = table[2 * slot + 1]
        if v == 0:
            return slot
        if table[2 * slot] == key:
            if size < 8:
                return slot
            d = v - 1
            if length[d] == size and _same_bytes(words, first[d], start, size, fold):
                return slot
        slot = (slot + 1) & mask


def scan_tokens(data: np.ndarray, text_ends: np.ndarray, reading: tuple = PLAIN):
    """Lines and surface tokens of texts stored end to end in ``data`` (uint8), read as ``reading`` says:
    ``PLAIN`` (already ``TOKEN_BYTES``-mapped, or written by another tokenizer) or ``RAW``.

    Parameters
    ----------
    data : uint8 array
        The texts, each followed by a newline except the last one.
    text_ends : int64 array
        Text t is ``data[text_ends[t - 1] + 1:text_ends[t]]`` (from 0 for t = 0).

    Returns
    -------
    (surface, line_tokens, text_lines, first, length)
        ``surface``: every token's distinct-token number, in text order; ``line_tokens``: tokens per
        sentence unit; ``text_lines``: units per text; ``first`` / ``length``: the byte offset of each
        distinct token's first occurrence and its length.
    """
    scan = compiled_or_python(_scan, len(data) * SCAN_STEP)
    if len(data) < SPLIT_BYTES:  # one part, as ``parts_of`` would find (a small batch: no need to measure texts)
        return _scanned(scan, data, text_ends, reading)
    parts = parts_of(np.diff(text_ends, prepend=-1), SPLIT_BYTES)
    if len(parts) <= 1:
        return _scanned(scan, data, text_ends, reading)
    starts = [0 if lo == 0 else int(text_ends[lo - 1]) + 1 for lo, _ in parts]
    found = map_threads(lambda k: _scanned(scan, data[starts[k]:int(text_ends[parts[k][1] - 1])],
                                           text_ends[parts[k][0]:parts[k][1]] - starts[k], reading),
                        list(range(len(parts))))
    surfaces, line_tokens, text_lines, firsts, lengths = zip(*found)
    offsets = np.cumsum([0] + [len(f) for f in firsts]).tolist()
    number, first, length = _numbered(scan, data, np.concatenate([f + s for f, s in zip(firsts, starts)]),
                                      np.concatenate(lengths), reading)
    surface = np.empty(sum(map(len, surfaces)), dtype=np.int64)
    at = np.cumsum([0] + [len(x) for x in surfaces]).tolist()

    def renumber(k):  # part k's numbers in the whole batch, on its thread: take lets the GIL go, and "clip" (every
        # number is in range) writes straight to ``out``, where "raise" fills a buffer first (3x slower)
        np.take(number[offsets[k]:offsets[k + 1]], surfaces[k], out=surface[at[k]:at[k + 1]], mode="clip")

    map_threads(renumber, list(range(len(parts))))
    return surface, np.concatenate(line_tokens), np.concatenate(text_lines), first, length


def _scanned(scan, data: np.ndarray, text_ends: np.ndarray, reading: tuple = PLAIN):
    """``scan`` (``_scan``, compiled or Python) of ``data``, writing its tokens to an array numpy makes (numpy
    asks the operating system for huge pages for a large one: a page fault per 2 MB written, not per 4 kB; a
    large array is mapped afresh on every call: 7.6 MB written took 2-6 ms in an array numba made, 1 ms in
    numpy's), in this thread's kept hash table when it fits (``taken_table``; emptying it costs no more than the
    scan)."""
    *found, table = scan(data, eight_bytes(data), text_ends, scan_surface(len(data)), taken_table(len(data)),
                         *reading)
    keep_table(table)
    return tuple(found)


def scan_surface(n: int) -> np.ndarray:
    """The array ``_scan`` writes the tokens of ``n`` bytes to, made by numpy (see ``_scanned``)."""
    return np.empty(n // 2 + 1, dtype=np.int64)


def taken_table(n: int) -> np.ndarray:
    """An empty hash table for a scan of ``n`` bytes: this thread's kept one (``KEPT_SLOTS``), taken from it, when
    it has no more slots than a slot for every 4 bytes, else a new one of ``first_slots``."""
    kept = getattr(_kept, "table", None)
    if kept is not None and len(kept) // 2 <= max(first_slots(n), n // 4):
        del _kept.table  # taken: a scan stopped half-way (an interrupted Python run) keeps none
        return kept
    return new_table(n)


def keep_table(table: np.ndarray) -> None:
    """Keep ``table``, emptied by the scan that used it, for this thread's next scan (``taken_table``) when it is
    no smaller than the one kept and has at most ``KEPT_SLOTS``."""
    if len(getattr(_kept, "table", ())) <= len(table) <= 2 * KEPT_SLOTS:
        _kept.table = table


def _numbered(scan, data: np.ndarray, first: np.ndarray, length: np.ndarray, reading: tuple):
    """Numbers in the whole batch for the distinct tokens of parts scanned apart, given part after part,
    each part's in its order of first occurrence (``first``: offsets in ``data``, ``length``): ``scan`` (the
    parts' ``_scan``, compiled or Python) of those tokens written one after another, each followed by a
    space, which numbers them as one scan of the batch would, with the kernel a batch of any size already
    uses (none more to load on a first call).
    Returns (the number of each of them, first and length of the batch's distinct tokens)."""
    if not len(length):  # no token in any part
        return length, first, length
    ends = np.cumsum(length + 1)  # token u and its space end at ends[u] in the written bytes
    starts = ends - length - 1
    source = np.repeat(first - starts, length + 1)
    source += np.arange(int(ends[-1]))  # in place: fewer fresh pages to fault in
    written = np.take(data, source, mode="clip")  # the last token's space may lie past the end: any byte does
    written[ends - 1] = _SPACE
    written.flags.writeable = False  # read-only, as the batch's bytes (``np.frombuffer``): the same kernel type
    number, _, _, first_written, distinct_length = _scanned(scan, written, ends[-1:], reading)
    token = np.searchsorted(starts, first_written)  # the written token where each distinct token comes first
    return number, first[token], distinct_length


@jitable
def _grown(table):
    """``table`` (``_slot``'s layout) rehashed into four times as many slots."""
    grown = np.zeros(4 * len(table), dtype=np.int64)
    mask = len(grown) // 2 - 1
    for k in range(len(table) // 2):
        if table[2 * k + 1] != 0:
            slot = home_slot(table[2 * k], mask)
            while grown[2 * slot + 1] != 0:
                slot = (slot + 1) & mask
            grown[2 * slot] = table[2 * k]
            grown[2 * slot + 1] = table[2 * k + 1]
    return grown


@jitable
def first_slots(n):
    """The slots of a new hash table for a scan of ``n`` bytes: 4,096, or about a slot for every 4 bytes of fewer
    bytes (at least 64): a pair's few hundred bytes zero 4 kB, not 64 kB (fresh pages to fault in after a larger
    call gave its memory back)."""
    slots = 64
    while slots < 4096 and 4 * slots < n:
        slots *= 2
    return slots


@jitable
def new_table(n):
    """An empty hash table (``_slot``'s layout) of ``first_slots(n)`` slots, for a scan of ``n`` bytes."""
    return np.zeros(2 * first_slots(n), dtype=np.int64)


def eight_bytes(data: np.ndarray) -> np.ndarray:
    """A view of ``data`` (uint8) whose item i is the little-endian uint64 of ``data[i:i + 8]`` (``_token_key``
    reads a token's bytes at once)."""
    return np.ndarray((max(len(data) - 7, 0),), dtype=_EIGHT_BYTES, buffer=data, strides=(1,))


_EIGHT_BYTES = np.dtype("<u8")  # made once: numpy parses a dtype's string on every call that names it


_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)], dtype=np.uint64)  # the low k bytes' bits
_SIZE_SHIFT = np.uint64(56)


@jitable_inline
def _token_key(data, words, start, size, fold):
    """The hash key of the token ``data[start:start + size]`` (``words``: ``eight_bytes(data)``), each byte with the
    bits of ``fold`` set: up to 7 bytes, its bytes (little-endian) and its length above them, which name the token;
    from 8 bytes on, its last 7."""
    if size >= 8:
        return np.int64((words[start + size - 8] | fold) >> np.uint64(8))
    if start < len(words):
        return np.int64(((words[start] | fold) & _LOW_BYTES[size]) | (np.uint64(size) << _SIZE_SHIFT))
    key = np.uint64(size) << _SIZE_SHIFT  # one of the last bytes of data: read byte by byte
    for k in range(size):
        key |= (np.uint64(data[start + k]) | (fold & np.uint64(0xFF))) << np.uint64(8 * k)
    return np.int64(key)


@jit
def _scan(data, words, text_ends, surface, table, separators, fold):
    """``scan_tokens`` of the texts ``text_ends`` (relative to ``data``; ``words``: ``eight_bytes(data)``; read as
    ``separators`` and ``fold`` say: ``PLAIN`` or ``RAW``) in one call, the tokens' numbers written to ``surface``
    (room for ``len(data) // 2 + 1``: a token takes a byte and a separator). The hash table (see ``_slot``) is
    ``table``, all zeros (a power of 2 of slots: ``first_slots``, or a kept one), which grows four-fold
    (``_grown``) before half of its slots fill: sized by the distinct tokens, not by the bytes, it stays in the
    processor's caches. (``_scan_texts`` does the work with one table, from the
    text where it stopped: a table replaced inside its loop made it 1.7x slower.) Returns ``scan_tokens``' arrays
    and the table, emptied again (all zeros) for a next scan."""
    n = len(data)
    text_lines = np.zeros(len(text_ends), dtype=np.int64)  # apart: callers keep it, and nothing else
    longest = 0
    for t in range(len(text_ends)):
        longest = max(longest, text_ends[t] - (0 if t == 0 else text_ends[t - 1] + 1))
    # The other arrays are parts of one (each made apart took 20-50 ns: 0.12 us of a one-pair scan's 1.5 us)
    half = n // 2 + 1
    room = np.empty(n + 1 + 2 * half + 2 * (longest + 2) + 3, dtype=np.int64)
    line_tokens = room[:n + 1]
    first = room[n + 1:n + 1 + half]
    length = room[n + 1 + half:n + 1 + 2 * half]
    marks = room[n + 1 + 2 * half:n + 3 + 2 * half + longest]  # a text's token bounds and line ends (_scan_texts)
    breaks = room[n + 3 + 2 * half + longest:n + 5 + 2 * half + 2 * longest]
    found = room[n + 5 + 2 * half + 2 * longest:]  # tokens, sentence units, distinct tokens so far
    found[:] = 0
    t = np.int64(0)  # an int64 from the start, the type _scan_texts returns: t has one type throughout
    while True:
        t = _scan_texts(data, words, text_ends, t, table, found, surface, line_tokens, text_lines, first, length,
                        marks, breaks, separators, fold)
        if t == len(text_ends):
            break
        table = _grown(table)
    table[:] = 0
    # Views, not copies: the arrays are sized by the bytes, and their pages past the end are never touched
    return surface[:found[0]], line_tokens[:found[1]], text_lines, first[:found[2]], length[:found[2]], table


@jitable_borrowing
def _scan_texts(data, words, text_ends, t0, table, found, surface, line_tokens, text_lines, first, length, marks,
                breaks, separators, fold):
    """``_scan``'s pass from text ``t0`` on, adding to its arrays and to ``found``; returns the text where
    over half of ``table``'s slots would fill (its tokens and units not kept, the distinct tokens it met
    kept with their numbers), or the number of texts. A text is read twice: its bytes, without a branch, into
    where its tokens start and stop (``marks``, alternately) and where its lines end (``breaks``); then its
    tokens, line by line, each looked up by its key (``_token_key``)."""
    n_tokens = found[0]
    n_lines = found[1]
    n_distinct = found[2]
    for t in range(t0, len(text_ends)):
        begin = 0 if t == 0 else text_ends[t - 1] + 1
        end = text_ends[t]
        m = 0
        q = 0
        outside = 1  # between tokens
        for i in range(begin, end):
            c = int(data[i])  # Python ints in the Python twin: quicker to compare, and no uint8 sums
            separator = int(separators[c])
            marks[m] = i
            m += separator ^ outside  # a token starts or stops at i
            if c == _NEWLINE:
                breaks[q] = i
                q += 1
            outside = separator
        marks[m] = end  # a token that runs to the text's end stops there
        m += outside ^ 1
        breaks[q] = end
        k = 0
        line_start = begin
        for b in range(q + 1):
            count = 0
            while k < m and marks[k] < breaks[b]:
                start = marks[k]
                size = marks[k + 1] - start
                k += 2
                key = _token_key(data, words, start, size, fold)
                slot = _slot(table, key, words, start, size, first, length, fold)
                if table[2 * slot + 1] == 0:  # a new token
                    if 4 * (n_distinct + 1) > len(table):  # over half of the slots would be taken
                        text_lines[t] = 0
                        found[2] = n_distinct  # this text's new tokens keep their numbers: met again first
                        return t
                    first[n_distinct] = start
                    length[n_distinct] = size
                    n_distinct += 1
                    table[2 * slot] = key
                    table[2 * slot + 1] = n_distinct
                surface[n_tokens] = table[2 * slot + 1] - 1
                n_tokens += 1
                count += 1
            if breaks[b] > line_start:
                line_tokens[n_lines] = count
                n_lines += 1
                text_lines[t] += 1
            line_start = breaks[b] + 1
        found[0] = n_tokens
        found[1] = n_lines
        found[2] = n_distinct
    return len(text_ends)


@jitable
def _ascii_class(c):
    """0: other, 1: letter (after lower-casing), 2: digit, 3: ``_``."""
    if 97 <= c <= 122 or 65 <= c <= 90:
        return 1
    if 48 <= c <= 57:
        return 2
    return 3 if c == 95 else 0


@jit
def unicode_ascii_words(data, raw):
    """Rewrite, in place, the bytes of ASCII texts (``raw[i]``) so that ``scan_tokens`` finds their
    ``unicode-v1`` words (UAX #29 restricted to ASCII): A-Z lower-cased, letters, digits, ``_`` and the
    newline kept; ``:`` kept between two letters, ``,`` and ``;`` between two digits, ``.`` and ``'``
    between two letters or two digits (WB6-7, WB11-12); every other byte a space. A word of ``_`` alone
    survives here and is dropped afterwards (it holds no letter or number). Other bytes are left alone."""
    n = len(data)
    out = data.copy()
    for i in range(n):
        if not raw[i]:
            continue
        c = data[i]
        kind = _ascii_class(c)
        if kind == 1 and c <= 90:
            out[i] = c + 32
        elif kind == 0 and c != 10:
            keep = False
            if 0 < i < n - 1 and raw[i - 1] and raw[i + 1]:
                left = _ascii_class(data[i - 1])
                right = _ascii_class(data[i + 1])
                if left == right and (left == 1 and (c == 58 or c == 46 or c == 39)
                                      or left == 2 and (c == 44 or c == 59 or c == 46 or c == 39)):
                    keep = True
            if not keep:
                out[i] = 32
    return out
