"""What the surface tokens of a stemming (or stopword-removing) tokenizer become, learned once per process.

``TokenEncoder.encode_many`` scans texts into distinct surface tokens (``rougelab.text.byte_tokens``); with
stemming or stopwords each of them must then be turned into its counted token (``transform``) and numbered. A
``Lexicon`` keeps, for one tokenizer's transform, a compiled map from a surface token's bytes to the number of the
token it becomes (-1: dropped), so that a batch, or each piece of one, looks its tokens up in one compiled pass,
and only tokens the process has not met before go through Python. The map is the scan's: an open-addressing table
keyed by ``_token_key`` (a token of up to 7 bytes is its key, a longer one is compared byte by byte with the copy
kept in ``store``), so a surface token never gets another token's number.

One lexicon per transform is shared by the process's threads (the pieces of a large batch run on two at once),
each look-up under its lock: a word is transformed in Python once per process, not once per thread, and the locked
look-up of a piece is compiled and short. Without it, each piece of 2,500 pairs looked up every distinct word of
its own in Python (20,000 stemmed pairs, rouge-1, two threads: 96-110 ms in 2 pieces, 171-177 in 8).
"""
from __future__ import annotations

import threading
from typing import Callable, Hashable

import numpy as np

from rougelab._jit import compiled_or_python, jit, jitable_borrowing
from rougelab.text.byte_tokens import _grown, _token_key, eight_bytes, home_slot, new_table

# Surface tokens a lexicon keeps at most before it starts afresh (its table then holds at most 262,144 slots,
# 4 MB): a process reading ever new words does not grow without bound.
LEXICON_ENTRIES = 1 << 17
# Seconds the look-up's and the learning's pure-Python sources take per distinct token (``compiled_or_python``),
# a little above the 2-3 us measured.
LOOK_UP_STEP = 4e-6
_MISSING = -2  # ``_known_numbers``: a token the lexicon does not hold yet


class Lexicon:
    """Surface token bytes -> number of the token they become (-1: dropped), for one transform; ``tokens[n]`` is
    the token of number n. Thread-safe: ``numbers`` runs under the lexicon's lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._start_afresh()

    def _start_afresh(self) -> None:
        self.tokens: list[str] = []  # a new list: vocabularies built from the old one stay right
        self._number_of: dict[str, int] = {}
        self._table = new_table(1 << 14)  # ``byte_tokens._slot``'s layout: key, entry + 1
        self._store = np.zeros(1 << 16, dtype=np.uint8)  # each entry's bytes, as the scan reads them
        self._entries = np.empty((1 << 12, 3), dtype=np.int64)  # each entry's offset in ``_store``, length, number
        self._counts = np.zeros(2, dtype=np.int64)  # entries, bytes of ``_store`` taken
        self._scratch = np.full(1 << 12, -1, dtype=np.int64)  # ``_known_numbers``' per-number slots, all -1

    def numbers(self, data: np.ndarray, first: np.ndarray, length: np.ndarray, fold: np.uint64,
                forms: Callable[[np.ndarray], list[str | None]]) -> tuple[np.ndarray, list[str], np.ndarray]:
        """The id of each distinct surface token ``data[first[u]:first[u] + length[u]]`` (read with ``fold``, as
        the scan read it): the tokens they become numbered 0, 1, ... in order of first sight (-1: dropped); then
        ``tokens`` and each id's number in it. ``forms(u)`` gives what the tokens of indices ``u`` not met
        before become (None: dropped)."""
        words = eight_bytes(data)
        with self.lock:
            try:
                ids, order, missing = self._known(data, words, first, length, fold)
                if missing and self._counts[0] + missing > LEXICON_ENTRIES:
                    self._start_afresh()
                    ids, order, missing = self._known(data, words, first, length, fold)
                if missing:
                    new = np.flatnonzero(ids == _MISSING)
                    values = np.fromiter((-1 if form is None else self._number(form) for form in forms(new)),
                                         dtype=np.int64, count=len(new))
                    self._learn(data, words, first[new], length[new], fold, values)
                    ids, order, _ = self._known(data, words, first, length, fold)
            except BaseException:  # a Python run stopped half-way may leave its arrays half written
                self._start_afresh()
                raise
            return ids, self.tokens, order

    def _known(self, data, words, first, length, fold):
        if len(self._scratch) < len(self.tokens):
            self._scratch = np.full(2 * len(self.tokens), -1, dtype=np.int64)
        look_up = compiled_or_python(_known_numbers, len(first) * LOOK_UP_STEP)
        return look_up(data, words, first, length, fold, self._table, self._store, self._entries, self._scratch)

    def _number(self, token: str) -> int:
        number = self._number_of.get(token)
        if number is None:
            number = self._number_of[token] = len(self.tokens)
            self.tokens.append(token)
        return number

    def _learn(self, data, words, first, length, fold, values) -> None:
        learn = compiled_or_python(_learned, len(first) * LOOK_UP_STEP)
        self._table, self._store, self._entries = learn(data, words, first, length, fold, values, self._table,
                                                        self._store, self._entries, self._counts)


_lexicons: dict = {}


def lexicon_for(key: Hashable) -> Lexicon:
    """The process's lexicon for the transform ``key`` names (``TokenEncoder.lexicon_key``)."""
    found = _lexicons.get(key)
    return found if found is not None else _lexicons.setdefault(key, Lexicon())


@jit
def _known_numbers(data, words, first, length, fold, table, store, entries, scratch):
    """For each distinct token u (``data[first[u]:first[u] + length[u]]``, read with ``fold``): its id among the
    numbers of ``entries`` met here, in order of first sight (-1: dropped, ``_MISSING``: not in ``table``),
    the number of each id, and how many tokens are missing. ``scratch`` (-1 for every number) is left as found."""
    ids = np.empty(len(first), dtype=np.int64)
    order = np.empty(len(first), dtype=np.int64)
    mask = len(table) // 2 - 1
    fold_byte = fold & np.uint64(0xFF)
    found = 0
    missing = 0
    for u in range(len(first)):
        start = first[u]
        size = length[u]
        key = _token_key(data, words, start, size, fold)
        slot = home_slot(key, mask)
        number = _MISSING
        while table[2 * slot + 1] != 0:
            entry = table[2 * slot + 1] - 1
            if table[2 * slot] == key and (size < 8 or _stored(data, start, size, fold_byte, store, entries, entry)):
                number = entries[entry, 2]
                break
            slot = (slot + 1) & mask
        if number == _MISSING:
            missing += 1
            ids[u] = _MISSING
        elif number < 0:
            ids[u] = -1
        else:
            if scratch[number] < 0:
                scratch[number] = found
                order[found] = number
                found += 1
            ids[u] = scratch[number]
    for k in range(found):
        scratch[order[k]] = -1
    return ids, order[:found], missing


@jitable_borrowing
def _stored(data, start, size, fold_byte, store, entries, entry):
    """Whether the token of ``size`` bytes at ``start`` (read with ``fold_byte``) is the one ``entry`` keeps."""
    if entries[entry, 1] != size:
        return False
    at = entries[entry, 0]
    for k in range(size):
        if (data[start + k] | fold_byte) != store[at + k]:
            return False
    return True


@jit
def _learned(data, words, first, length, fold, values, table, store, entries, counts):
    """``table``, ``store`` and ``entries`` (grown when full) with the tokens ``first`` / ``length`` of ``data``
    (none of them held yet, each once) added, token k becoming number ``values[k]``; ``counts`` (entries, bytes
    stored) updated."""
    fold_byte = fold & np.uint64(0xFF)
    for k in range(len(first)):
        start = first[k]
        size = length[k]
        n = counts[0]
        if 4 * (n + 1) > len(table):  # over half of the slots would be taken
            table = _grown(table)
        if n == len(entries):
            grown = np.empty((2 * len(entries), 3), dtype=np.int64)
            grown[:n] = entries
            entries = grown
        at = counts[1]
        if at + size > len(store):
            bigger = np.zeros(2 * (at + size), dtype=np.uint8)
            bigger[:at] = store[:at]
            store = bigger
        for b in range(size):
            store[at + b] = data[start + b] | fold_byte
        entries[n, 0] = at
        entries[n, 1] = size
        entries[n, 2] = values[k]
        key = _token_key(data, words, start, size, fold)
        mask = len(table) // 2 - 1
        slot = home_slot(key, mask)
        while table[2 * slot + 1] != 0:
            slot = (slot + 1) & mask
        table[2 * slot] = key
        table[2 * slot + 1] = n + 1
        counts[0] = n + 1
        counts[1] = at + size
    return table, store, entries
