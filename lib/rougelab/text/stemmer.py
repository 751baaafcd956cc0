"""ROUGE-1.5.5's ``-m`` stemmer: WordNet-2.0 exception lists first, then its modified Porter."""
from __future__ import annotations

from functools import lru_cache

from rougelab.resources import exception_lists
from rougelab.text.porter import porter_stem

MIN_STEM_LENGTH = 4  # ROUGE-1.5.5 stems only tokens longer than 3 characters


@lru_cache(maxsize=200_000)
def morph_stem(token: str) -> str:
    """The stem ROUGE-1.5.5's ``MorphStem`` gives a lower-case token (no length check)."""
    exceptions = exception_lists()
    if token in exceptions:
        return exceptions[token]
    return porter_stem(token)


def stem_token(token: str) -> str:
    """Stem ``token`` as ``-m`` does: tokens of 3 characters or fewer are left as they are."""
    return morph_stem(token) if len(token) >= MIN_STEM_LENGTH else token
