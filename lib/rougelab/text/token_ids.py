"""The one token -> integer id map of the package.

Every scorer turns tokens into integer ids before counting: classic ROUGE (the compiled batch path
``rougelab.rouge.batch`` and the single-peer ``rougelab.rouge.core``), the LCS helpers (``rougelab.rouge.lcs``),
the byte-scanning tokenizers (``TokenEncoder``) and the soft core behind ROUGE-WE / ROUGE-G (``rougelab.metrics.soft_rouge``).
Ids are assigned in order of first sight, so they are deterministic; ``tokens[i]`` is the token of
id ``i``, so a vocabulary is looked up (in word vectors, WordNet, ...) once per batch.
"""
from __future__ import annotations

from typing import Hashable, Iterable

import numpy as np


class TokenIndex:
    """Integer ids for tokens (any hashable), assigned in order of first sight (deterministic).

    ``tokens[i]`` is the token of id ``i``; look the vocabulary up once through ``tokens``.
    """

    def __init__(self) -> None:
        self._ids: dict = {}
        self._tokens: list = []

    @property
    def tokens(self) -> list:
        """The token of each id, ``tokens[i]`` for id ``i``."""
        if len(self._tokens) != len(self._ids):  # ids only grow, in order: rebuild when new ones came
            self._tokens = list(self._ids)
        return self._tokens

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, token: Hashable) -> bool:
        return token in self._ids

    def id(self, token: Hashable) -> int:
        """The id of ``token`` (a new token gets the next id)."""
        return self._ids.setdefault(token, len(self._ids))

    def id_list(self, tokens: Iterable[Hashable]) -> list[int]:
        """The ids of ``tokens`` (new tokens get new ids), as a list."""
        ids = self._ids
        return [ids.setdefault(token, len(ids)) for token in tokens]

    def ids(self, tokens: Iterable[Hashable]) -> np.ndarray:
        """The ids of ``tokens`` (new tokens get new ids), as an int64 array."""
        return np.asarray(self.id_list(tokens), dtype=np.int64)


def first_sight_ids(items: list) -> tuple[list, np.ndarray]:
    """``TokenIndex().ids(items)`` and the index's ``tokens`` in one go, for a list numbered once: the
    distinct items in order of first sight and each item's id (int64), found by loops in C. No item twice
    (distinct texts) is the quick case: item i has id i."""
    ids = dict.fromkeys(items)
    if len(ids) == len(items):
        return items, np.arange(len(items), dtype=np.int64)
    for number, item in enumerate(ids):
        ids[item] = number
    return list(ids), np.fromiter(map(ids.__getitem__, items), dtype=np.int64, count=len(items))
