"""WIDAR: Weighted Input Document Augmented ROUGE (Jain et al. 2022).

Registry names (F-measure primary, options of the authors' code; see ``score``):

* ``widar-1``, ``widar-2``, ``widar-l``: WIDAR_K (Eq. 9), lambda 0.5, theta1 0.1, theta2 0.3.
* ``widar-1-total``, ``widar-2-total``: the same with ROUGE-N_SL denominators counting every n-gram
  occurrence (classic ROUGE; footnote 6's "ROUGE-1 and ROUGE-1_SL denote the same metrics")
  instead of the released code's distinct n-grams.
* Table 5's ablations: ``widar-rouge-lw`` (ROUGE-L_W alone), ``widar-rouge-lw-no-red`` (coverage
  weights only), ``widar-rouge-lw-no-cov`` (redundancy weights only), ``widar-rouge-l-sl``
  (sentence-level ROUGE-L, no weights) and ``widar-idss`` (IDSS alone).
"""
from __future__ import annotations

from rougelab.metrics.base import Metric
from rougelab.metrics.widar.cache import PACKAGES
from rougelab.metrics.widar.score import combine, idss_only, weighted_rouge, widar, widar_components

__all__ = ["widar", "weighted_rouge", "idss_only", "widar_components", "combine"]

DEFAULTS = {"lam": 0.5, "theta1": 0.1, "theta2": 0.3, "multiref": "mean", "splitter": "period",
            "stemmer": "snowball", "similarity": "rouge-score-l"}
_WEIGHTED = {k: v for k, v in DEFAULTS.items() if k not in ("lam", "similarity")}
# ``stemmer`` is weighted ROUGE's (an option); the ROUGE-L of Algorithm 1 and IDSS always stem as rouge-score does.
_STEMMERS = {"rouge_score_stemmer": "porter-nltk (rouge-score ROUGE-L, IDSS)"}
_ABLATIONS = {"widar-rouge-lw": "both", "widar-rouge-lw-no-red": "coverage",
              "widar-rouge-lw-no-cov": "redundancy", "widar-rouge-l-sl": "none"}


def _widar(k: str, total: bool = False) -> Metric:
    options = {"k": k, **({"ngram_denominator": "total"} if total else {}), **DEFAULTS}
    return Metric(f"widar-{k}" + ("-total" if total else ""), widar, primary=f"widar{k}_f", options=options,
                  needs_source=True, pins=_STEMMERS, packages=PACKAGES)


def _ablation(name: str) -> Metric:
    use = _ABLATIONS[name]
    return Metric(name, weighted_rouge, primary="rougelsl_f" if use == "none" else "rougelw_f",
                  options={"k": "l", "weights": use, **_WEIGHTED}, needs_source=True, pins=_STEMMERS,
                  packages=PACKAGES)


_FACTORIES = {
    **{f"widar-{k}": (lambda k=k: _widar(k)) for k in ("1", "2", "l")},
    **{f"widar-{k}-total": (lambda k=k: _widar(k, total=True)) for k in ("1", "2")},
    **{name: (lambda name=name: _ablation(name)) for name in _ABLATIONS},
    "widar-idss": lambda: Metric("widar-idss", idss_only, primary="idss", options={"similarity": "rouge-score-l"},
                                 needs_source=True, packages=PACKAGES),
}
NAMES = tuple(_FACTORIES)


def make(name: str) -> Metric | None:
    """The registry's ``Metric`` called ``name``, or None if it is not a WIDAR name."""
    return _FACTORIES[name]() if name in _FACTORIES else None
