"""ROUGE-1.5.5's ``-m`` stemmer: WordNet-2.0 exception lists first, then its modified Porter.

``exceptions`` names the lists merged into the exception DB, in merge order (a later list wins; see
``rougelab.resources.EXCEPTION_LISTS`` for why the order is a choice); ``()`` is what the script computes
with an empty DB: its Porter stemmer alone.
"""
from __future__ import annotations

from rougelab.resources import EXCEPTION_LISTS, exception_lists
from rougelab.text.porter import porter_stem

MIN_STEM_LENGTH = 4  # ROUGE-1.5.5 stems only tokens longer than 3 characters

# Stems kept per exception-list order (``morph_stem``), each cache emptied when it reaches ``MOST_STEMS``: keyed
# by the token alone, a miss allocates no key tuple for the garbage collector to count (an ``lru_cache`` of
# ``(token, exceptions)`` did: the 10,839 new words of a first stemmed call on 1,000 news pairs were enough to
# set off a full collection, 58 ms in a process that had imported numba and pandas).
MOST_STEMS = 200_000
_stems: dict[tuple[str, ...], dict[str, str]] = {}


def morph_stem(token: str, exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> str:
    """The stem ROUGE-1.5.5's ``MorphStem`` gives a lower-case token (no length check)."""
    stems = _stems.get(exceptions)
    if stems is None:
        stems = _stems.setdefault(exceptions, {})
    stem = stems.get(token)
    if stem is None:
        if len(stems) >= MOST_STEMS:
            stems.clear()
        table = exception_lists(exceptions)
        stem = stems[token] = table[token] if token in table else porter_stem(token)
    return stem


def stem_token(token: str, exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> str:
    """Stem ``token`` as ``-m`` does: tokens of 3 characters or fewer are left as they are."""
    return morph_stem(token, exceptions) if len(token) >= MIN_STEM_LENGTH else token


def check_exceptions(exceptions) -> tuple[str, ...]:
    """``exceptions`` as a tuple of list names, or ``ValueError`` naming what is wrong."""
    if isinstance(exceptions, str):
        raise ValueError(f"stem_exceptions is a sequence of list names such as {EXCEPTION_LISTS}, not a "
                         f"string ({exceptions!r}); () means no exception lists")
    names = tuple(exceptions)
    unknown = [n for n in names if n not in EXCEPTION_LISTS]
    if unknown or len(set(names)) != len(names):
        raise ValueError(f"stem_exceptions must name each of {', '.join(EXCEPTION_LISTS)} at most once, "
                         f"got {names!r}")
    return names
