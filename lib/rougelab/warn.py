"""Warnings that point at the line of the caller's code, wherever inside rougelab they arise.

``warnings.warn``'s fixed ``stacklevel`` points at the right line only for one call path; a metric
reached through ``get_metric(...).score``, the score cache or a notebook helper has more frames of ours
in between. ``warn`` skips every frame of this package, so the warning names the user's file and line
(a test, a notebook cell, a script), and ``-W error`` / filters by module see the user's module.
"""
from __future__ import annotations

import os
import sys
import warnings
from functools import lru_cache

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` attributed to the first caller outside rougelab."""
    frame, level = sys._getframe(1), 2
    while frame is not None and _ours(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


@lru_cache(maxsize=1024)
def _ours(filename: str) -> bool:
    """Whether the code of ``filename`` is this package's (its absolute path, worked out once per file)."""
    return os.path.abspath(filename).startswith(_PACKAGE)
