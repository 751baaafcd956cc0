"""Classic ROUGE (Lin 2004) exactly as ROUGE-1.5.5 computes it.

``rouge(summaries, references, ...)`` scores a batch (see ``rougelab.rouge.api``);
``aggregate(table, method=...)`` averages its rows under ROUGE-1.5.5's or rouge-score's convention
(``rougelab.rouge.aggregation``);
``core.score_peer`` scores one peer against its models the way the Perl script does;
``lcs`` and ``grams`` hold the kernels. The package itself is callable, so ``rougelab.rouge(...)``
is ``rougelab.rouge.api.rouge(...)`` however it was imported.
"""
from __future__ import annotations

import sys
import types

__all__ = ["rouge", "aggregate"]


def __getattr__(name):
    if name == "rouge":
        from rougelab.rouge.api import rouge
        return rouge
    if name == "aggregate":
        from rougelab.rouge.aggregation import aggregate
        return aggregate
    raise AttributeError(f"module 'rougelab.rouge' has no attribute {name!r}")


class _CallablePackage(types.ModuleType):
    def __call__(self, *args, **kwargs):
        from rougelab.rouge.api import rouge
        return rouge(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
