"""Classic ROUGE (Lin 2004) exactly as ROUGE-1.5.5 computes it.

``rouge(summaries, references, ...)`` scores a batch (see ``rougelab.rouge.api``);
``aggregate(table, method=...)`` averages its rows under ROUGE-1.5.5's or rouge-score's convention
(``rougelab.rouge.aggregation``);
``core.score_peer`` scores one peer against its models the way the Perl script does, ``batch`` a whole
batch with compiled kernels that give the same digits; ``lcs`` and ``grams`` hold the kernels.
``rougelab.rouge`` is always this package; the function is ``rougelab.rouge.rouge``
(``from rougelab.rouge import rouge``).
"""
from __future__ import annotations

__all__ = ["rouge", "aggregate"]


def __getattr__(name):
    if name == "rouge":
        from rougelab.rouge.api import rouge
        return rouge
    if name == "aggregate":
        from rougelab.rouge.aggregation import aggregate
        return aggregate
    raise AttributeError(f"module 'rougelab.rouge' has no attribute {name!r}")
