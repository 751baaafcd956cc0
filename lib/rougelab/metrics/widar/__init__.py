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

from functools import partial

from rougelab.metrics.base import Metric, register
from rougelab.metrics.widar.score import combine, idss_only, weighted_rouge, widar, widar_components

__all__ = ["widar", "weighted_rouge", "idss_only", "widar_components", "combine"]

DEFAULTS = {"lam": 0.5, "theta1": 0.1, "theta2": 0.3, "multiref": "mean", "splitter": "period",
            "stem": True, "similarity": "rouge-score-l"}

for _k in ("1", "2", "l"):
    register(f"widar-{_k}", partial(lambda k: Metric(f"widar-{k}", widar, primary=f"widar{k}_f",
                                                     options={"k": k, **DEFAULTS}, needs_source=True), _k))

for _k in ("1", "2"):
    register(f"widar-{_k}-total", partial(lambda k: Metric(f"widar-{k}-total", widar, primary=f"widar{k}_f",
                                                           options={"k": k, "ngram_denominator": "total",
                                                                    **DEFAULTS}, needs_source=True), _k))

_ABLATIONS = {"widar-rouge-lw": "both", "widar-rouge-lw-no-red": "coverage",
              "widar-rouge-lw-no-cov": "redundancy", "widar-rouge-l-sl": "none"}
_WEIGHTED = {k: v for k, v in DEFAULTS.items() if k not in ("lam", "similarity")}
for _name, _use in _ABLATIONS.items():
    _column = "rougelsl_f" if _use == "none" else "rougelw_f"
    register(_name, partial(lambda name, use, column: Metric(name, weighted_rouge, primary=column,
                                                             options={"k": "l", "weights": use, **_WEIGHTED},
                                                             needs_source=True), _name, _use, _column))
register("widar-idss", lambda: Metric("widar-idss", idss_only, primary="idss",
                                      options={"similarity": "rouge-score-l"}, needs_source=True))
