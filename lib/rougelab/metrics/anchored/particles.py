"""Particles (Anchored ROUGE, section 2): unigrams, bigrams and skip-bigrams with their embeddings.

A particle's identity is its ROUGE form (stemmed as ROUGE-1.5.5 ``-m`` stems, optionally without
the SMART stopwords, which are removed before grams are formed, as ROUGE does); its embedding is
the mean of the contextual embeddings of its tokens (the paper: "averaging the contextualized
embeddings of all tokens occurring in the particle").

The paper leaves open whether a particle is a *type* (all occurrences of one stemmed gram) or an
*occurrence*. ``unit="type"`` (the default) gives one particle per type, weighted by its count
(the paper's w_s), embedded as the mean over its occurrences; ``unit="occurrence"`` keeps every
occurrence as its own particle of weight 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from rougelab.rouge.grams import ngrams, skip_bigrams
from rougelab.semantic.encoder import TokenEmbeddings
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.token_ids import TokenIndex

FORMS = ("1", "2", "s")  # unigram, bigram, skip-bigram
UNITS = ("type", "occurrence")


@dataclass(frozen=True)
class Particles:
    """Particles of one text: ``keys[i]`` (hashable), weight ``weights[i]`` (w_s), unit vector ``vectors[i]``.

    Keys are tuples of ROUGE forms for types, ``(forms, occurrence number)`` for occurrences; rows
    are in order of first occurrence in the text (which breaks ties between anchors).
    """

    keys: tuple
    weights: np.ndarray
    vectors: np.ndarray

    def __len__(self) -> int:
        return len(self.keys)


@lru_cache(maxsize=200_000)
def _rouge_form(token: str, stem: bool, stopwords: bool) -> str | None:
    """The form ROUGE counts for one (unstemmed) ROUGE token; None for a removed stopword."""
    return Preprocessing(stemmer="rouge155" if stem else None, stopwords=stopwords).forms([token])[0]


def gram_positions(n_tokens: int, form: str, skip_distance: int = 4) -> np.ndarray:
    """Token positions of every gram of ``form`` in a text of ``n_tokens`` tokens, in ROUGE's order.

    A ``(grams, 1 or 2)`` array. ``"s"`` pairs token i with each later token j with at most
    ``skip_distance`` tokens in between (ROUGE-1.5.5 ``-2 d``: j <= i + d + 1; negative = unlimited).
    """
    positions = np.arange(n_tokens)
    if form in ("1", "2"):
        return ngrams(positions, int(form))
    if form == "s":
        return skip_bigrams(positions, skip_distance)
    raise ValueError(f"unknown particle form {form!r}; choose one of {FORMS}")


def particles(texts: TokenEmbeddings | Sequence[TokenEmbeddings], form: str = "1", *, unit: str = "type",
              stem: bool = True, stopwords: bool = False, skip_distance: int = 4) -> Particles:
    """The particles of one encoded text, or of several (a multi-document source) pooled.

    Grams never cross from one text to the next; with ``unit="type"`` a gram found in several texts
    is one particle whose weight is its total count and whose vector is the mean over all its
    occurrences.

    Parameters
    ----------
    texts : ROUGE tokens and their contextual vectors (``ContextualEncoder.encode``), or a list of them.
    form : ``"1"`` unigrams, ``"2"`` bigrams, ``"s"`` skip-bigrams.
    unit : ``"type"`` (one particle per stemmed gram, weight = count) or ``"occurrence"``.
    stem, stopwords : ROUGE-1.5.5 ``-m`` stemming and ``-s`` SMART stopword removal.
    skip_distance : most tokens between the two words of a skip-bigram.

    Returns
    -------
    Particles with unit-length vectors (a zero vector stays zero).
    """
    if unit not in UNITS:
        raise ValueError(f"unknown particle unit {unit!r}; choose one of {UNITS}")
    if isinstance(texts, TokenEmbeddings):
        texts = [texts]
    forms, vectors = [], []
    for emb in texts:
        kept = [(i, f) for i, f in ((i, _rouge_form(t, stem, stopwords)) for i, t in enumerate(emb.tokens))
                if f is not None]
        grams = gram_positions(len(kept), form, skip_distance)
        if len(grams):
            kept_forms = [f for _, f in kept]
            forms.extend(tuple(kept_forms[p] for p in gram) for gram in grams.tolist())
            token_index = np.array([i for i, _ in kept])[grams]
            vectors.append(emb.vectors[token_index].astype(np.float64).mean(axis=1))
    if not forms:
        return Particles((), np.zeros(0), np.zeros((0, 0)))
    occurrence_vectors = np.vstack(vectors)
    if unit == "occurrence":
        keys = tuple((f, number) for number, f in enumerate(forms))
        weights = np.ones(len(forms))
        pooled = occurrence_vectors
    else:
        types = TokenIndex()  # one id per gram type, in order of first occurrence
        rows = types.ids(forms)
        weights = np.bincount(rows, minlength=len(types)).astype(float)
        pooled = np.zeros((len(types), occurrence_vectors.shape[1]))
        np.add.at(pooled, rows, occurrence_vectors)
        pooled /= weights[:, None]
        keys = tuple(types.tokens)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return Particles(keys, weights, np.divide(pooled, norms, out=np.zeros_like(pooled), where=norms > 0))
