"""One compiled pass over the bytes of many texts: their lines and their ROUGE-1.5.5 surface tokens.

The input is every text's UTF-8 bytes after ``TOKEN_BYTES`` (ASCII lower-casing; a-z, 0-9 and the
newline kept; every other byte, ``-`` included, a space), the texts joined by newlines. A line is a
sentence unit when it has at least one byte (``split_sentences``' "newline" rule: empty lines are
dropped, whitespace-only lines kept); a surface token is a maximal run of ``[a-z0-9]`` bytes, which is
what ``normalize`` plus the first-character filter of ``select_tokens`` leave (see ``TokenEncoder``).
Distinct tokens are numbered in order of first occurrence through an open-addressing hash table that
compares the tokens' bytes, so a hash collision costs a probe, never a wrong number.
"""
from __future__ import annotations

import numpy as np

from rougelab._jit import jit

# Byte -> byte: A-Z lower-cased, a-z 0-9 and the newline kept, every other byte a space.
TOKEN_BYTES = bytes(c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122 or 48 <= c <= 57 or c == 10 else 32
                    for c in range(256))
_SPACE, _NEWLINE = 32, 10
_FNV_OFFSET, _FNV_PRIME, _MASK32 = 2166136261, 16777619, 0xFFFFFFFF


@jit
def _same_bytes(data, a, b, length):
    for k in range(length):
        if data[a + k] != data[b + k]:
            return False
    return True


def scan_tokens(data: np.ndarray, text_ends: np.ndarray):
    """Lines and surface tokens of texts stored end to end in ``data`` (uint8, already ``TOKEN_BYTES``-mapped).

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
    capacity = 1 << max(10, (len(data) // 16).bit_length())  # 2 slots per 16 bytes, or retry with more
    while True:
        found = _scan(data, text_ends, capacity)
        if found[0]:
            return found[1:]
        capacity *= 4


@jit
def _scan(data, text_ends, capacity):
    """``scan_tokens`` with a hash table of ``capacity`` slots (a power of 2); (False, ...) when more than
    half of them would fill. A slot holds ``hash << 32 | (id + 1)`` (0: empty), the hash being the token's
    32-bit FNV-1a shifted right once; its low bits pick the slot, linear probing resolves collisions,
    and a token matches a slot only when hash, length and bytes are equal."""
    n = len(data)
    surface = np.empty(n // 2 + 1, dtype=np.int64)
    line_tokens = np.empty(n + 1, dtype=np.int64)
    text_lines = np.zeros(len(text_ends), dtype=np.int64)
    first = np.empty(capacity // 2 + 1, dtype=np.int64)
    length = np.empty(capacity // 2 + 1, dtype=np.int64)
    table = np.zeros(capacity, dtype=np.int64)
    mask = capacity - 1
    n_tokens = 0
    n_lines = 0
    n_distinct = 0
    begin = 0
    for t in range(len(text_ends)):
        end = text_ends[t]
        line_start = begin
        count = 0
        i = begin
        while i <= end:
            if i == end or data[i] == _NEWLINE:
                if i > line_start:
                    line_tokens[n_lines] = count
                    n_lines += 1
                    text_lines[t] += 1
                count = 0
                line_start = i + 1
                i += 1
            elif data[i] == _SPACE:
                i += 1
            else:
                h = _FNV_OFFSET
                j = i
                while j < end and data[j] != _SPACE and data[j] != _NEWLINE:
                    h = ((h ^ int(data[j])) * _FNV_PRIME) & _MASK32
                    j += 1
                h >>= 1
                slot = h & mask
                while True:
                    v = table[slot]
                    if v == 0:  # a new token
                        if 2 * (n_distinct + 1) > capacity:
                            return False, surface[:0], line_tokens[:0], text_lines, first[:0], length[:0]
                        d = n_distinct
                        first[d] = i
                        length[d] = j - i
                        n_distinct += 1
                        table[slot] = (h << 32) | (d + 1)
                        break
                    if (v >> 32) == h:
                        d = (v & _MASK32) - 1
                        if length[d] == j - i and _same_bytes(data, first[d], i, j - i):
                            break
                    slot = (slot + 1) & mask
                surface[n_tokens] = d
                n_tokens += 1
                count += 1
                i = j
        begin = end + 1
    return (True, surface[:n_tokens].copy(), line_tokens[:n_lines].copy(), text_lines,
            first[:n_distinct].copy(), length[:n_distinct].copy())


@jit
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
