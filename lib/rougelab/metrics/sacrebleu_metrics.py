"""BLEU (Papineni et al. 2002) and chrF (Popovic 2015) per summary, through sacreBLEU.

Both are sentence-level scores with every reference of the summary at once, on sacreBLEU's
0-100 scale, exactly as ``sacrebleu.metrics.BLEU(...).sentence_score(summary, references)`` and
``CHRF(...).sentence_score(...)`` return them (sacreBLEU pools the references: BLEU clips n-gram
counts by the maximum over references and takes the closest reference length; chrF keeps the
best-scoring reference). The options and sacreBLEU's version appear in the metric's signature
(a signature naming another sacreBLEU version is refused rather than silently scored). Registry names: ``bleu`` and ``chrf``.
"""
from __future__ import annotations

import pandas as pd
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from rougelab.metrics.base import InputError, Metric

PACKAGES = ("regex", "sacrebleu")  # third-party code that computes the numbers (sacreBLEU's tokenizers use regex)

BLEU_DEFAULTS = {"tokenize": "13a", "lowercase": False, "smooth_method": "exp", "effective_order": True}
CHRF_DEFAULTS = {"char_order": 6, "word_order": 0, "beta": 2, "lowercase": False, "whitespace": False}


def _sentence_scores(scorer, summaries, references, version: str) -> list[float]:
    if version != sacrebleu.__version__:
        raise InputError(f"this metric was configured for sacreBLEU {version}, but {sacrebleu.__version__} "
                         "is installed: install that version or drop the sacrebleu_version option")
    for i, refs in enumerate(references):
        if any(not isinstance(r, str) for r in refs):
            raise InputError(f"references of summary {i} must all be strings")
    return [scorer.sentence_score(summary, list(refs)).score for summary, refs in zip(summaries, references)]


def bleu(summaries, references, *, sacrebleu_version: str = sacrebleu.__version__, **options) -> pd.DataFrame:
    """Sentence BLEU of each summary against all its references: column ``bleu`` (0-100)."""
    scorer = BLEU(**{**BLEU_DEFAULTS, **options})
    return pd.DataFrame({"bleu": _sentence_scores(scorer, summaries, references, sacrebleu_version)}, dtype=float)


def chrf(summaries, references, *, sacrebleu_version: str = sacrebleu.__version__, **options) -> pd.DataFrame:
    """Sentence chrF of each summary against all its references: column ``chrf`` (0-100)."""
    scorer = CHRF(**{**CHRF_DEFAULTS, **options})
    return pd.DataFrame({"chrf": _sentence_scores(scorer, summaries, references, sacrebleu_version)}, dtype=float)


NAMES = ("bleu", "chrf")


def make(name: str) -> Metric | None:
    """The registry's ``bleu`` or ``chrf`` (None for any other name)."""
    if name == "bleu":
        return Metric("bleu", bleu, primary="bleu", packages=PACKAGES,
                      options={**BLEU_DEFAULTS, "sacrebleu_version": sacrebleu.__version__})
    if name == "chrf":
        return Metric("chrf", chrf, primary="chrf", packages=PACKAGES,
                      options={**CHRF_DEFAULTS, "sacrebleu_version": sacrebleu.__version__})
    return None
