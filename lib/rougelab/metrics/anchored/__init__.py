"""Anchored ROUGE (Wang, Liu, Chang & Sui 2020, "An Anchor-Based Automatic Evaluation Metric for Document
Summarization", COLING): ROUGE whose particles are fixed on the source document.

Each summary particle (unigram, bigram or skip-bigram, stemmed as in ROUGE) is anchored to its top-k
most similar source particles of the same form (cosine of contextual embeddings, k = 5); T (Eq. 2)
spreads its count over those anchors, and Eq. 1 compares peer and references through them:

    r = sum_ref sum_{d in C_ref} min(T(d, peer), T(d, ref)) / sum_ref sum_{d in C_ref} T(d, ref)

Eq. 1 is the recall ``ancrougeN_r`` (the registry's primary column); ``_p`` divides the same
numerator by the peer's T mass (once per reference) and ``_f`` is their harmonic mean.

Registry: ``anc-rouge-1``, ``anc-rouge-2`` (and ``anc-rouge-s4``, skip-bigrams with at most 4 words
between), with the default encoder (all-MiniLM-L6-v2, last 4 layers summed; the paper used BERT
base, which is not available offline here: pass ``model=`` a local bert-base-uncased folder).
The protocol for any other gram-level metric is ``protocol.score_anchored``.
"""
from __future__ import annotations

import os
from typing import Sequence

from rougelab.metrics.anchored.analysis import anchor_table, reference_subsets, subset_recall
from rougelab.metrics.anchored.anchors import AnchorSets, anchor_sets, anchored_overlap, top_k, transfer
from rougelab.metrics.anchored.particles import Particles, gram_positions, particles
from rougelab.metrics.anchored.protocol import score_anchored
from rougelab.metrics.base import InputError, Metric
from rougelab.rouge.api import PACKAGES as ROUGE_PACKAGES
from rougelab.semantic import encoder

PACKAGES = tuple(sorted({*ROUGE_PACKAGES, *encoder.PACKAGES}))

__all__ = ["anchored_rouge", "anchor_sets", "top_k", "transfer", "anchored_overlap", "particles",
           "gram_positions", "score_anchored", "anchor_table", "reference_subsets", "subset_recall",
           "Particles", "AnchorSets"]

_PREFIX = {"1": "ancrouge1", "2": "ancrouge2", "s": "ancrouges{d}"}


def anchored_rouge(summaries, references, sources, *, form: str = "1", k: int = 5, stem: bool = True,
                   stopwords: bool = False, skip_distance: int = 4, summary_unit: str = "type",
                   source_unit: str = "type", model: str | None = None, layers: int | Sequence[int] = 4,
                   fingerprint: str | None = None, encoder=None):
    """Anchored ROUGE-N (N = ``form``) recall (Eq. 1), precision and F for each summary.

    Parameters
    ----------
    form : ``"1"``, ``"2"`` or ``"s"`` (skip-bigrams, at most ``skip_distance`` words between).
    k : anchor set size (the paper: 5, tuned on DUC 2007); a list scores every size in one pass
        (columns ``<prefix>_k<k>_r`` ...).
    stem, stopwords : ROUGE-1.5.5 ``-m`` and ``-s``.
    summary_unit, source_unit : ``"type"`` (default) or ``"occurrence"``; see ``particles``.
    model, layers : encoder folder (None: all-MiniLM-L6-v2) and the layers summed: how many of the last,
        or which (hidden-state indices, e.g. ``(9, 10, 11, 12)``: BERT base's last four).
    fingerprint : if given, the model files' SHA-256 must start with it (pins the signature).
    encoder : a local Hugging Face model folder (the same as ``model``, e.g. ``"/path/to/bert-base-uncased"``
        for the paper's encoder), or an encoder object to use instead of ``model``/``layers``.

    Returns
    -------
    DataFrame with columns ``<prefix>_r``, ``<prefix>_p``, ``<prefix>_f``; an empty summary scores 0.
    """
    if isinstance(encoder, (str, os.PathLike)):
        if model is not None:
            raise InputError("give the encoder folder once: as encoder= or as model=, not both")
        model, encoder = str(encoder), None
    if encoder is None:
        from rougelab.semantic.encoder import get_encoder

        encoder = get_encoder(model, layers if isinstance(layers, int) else tuple(layers))
        if fingerprint is not None and not encoder.fingerprint.startswith(fingerprint):
            raise InputError(f"the model files of {encoder.model_path} hash to {encoder.fingerprint[:12]}, "
                             f"not {fingerprint}: these scores would not match the signature")
    prefix = _PREFIX[form].format(d=skip_distance) if form in _PREFIX else f"ancrouge{form}"
    return score_anchored(anchored_overlap, summaries, references, sources, encoder=encoder, prefix=prefix,
                          form=form, k=k, stem=stem, stopwords=stopwords, skip_distance=skip_distance,
                          summary_unit=summary_unit, source_unit=source_unit)


def _factory(name: str, form: str):
    def make() -> Metric:
        from rougelab.semantic.encoder import get_encoder

        encoder = get_encoder(None, 4)
        options = dict(form=form, k=5, stem=True, stopwords=False, summary_unit="type", source_unit="type",
                       layers=4, fingerprint=encoder.fingerprint[:12])
        if form == "s":
            options["skip_distance"] = 4
        prefix = _PREFIX[form].format(d=4)
        return Metric(name, anchored_rouge, primary=f"{prefix}_r", options=options, needs_source=True,
                      resources=("rouge155",), pins={"stemmer": "rouge155"}, packages=PACKAGES)
    return make


_FORMS = {"anc-rouge-1": "1", "anc-rouge-2": "2", "anc-rouge-s4": "s"}
NAMES = tuple(_FORMS)


def make(name: str) -> Metric | None:
    """The registry's ``Metric`` called ``name``, or None if it is not an Anchored ROUGE name."""
    return _factory(name, _FORMS[name])() if name in _FORMS else None
