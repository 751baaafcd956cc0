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
    warnings.warn(message, category, stacklevel=_frames_of_ours(sys._getframe(1)) + 2)


def walk_to_caller() -> None:
    """``warn``'s walk to the first caller outside rougelab, without a warning: run where a process loads anyway
    (``rougelab.text.tokenizers.warm_dropped_letters``), it works out which files of the stack are ours
    (``_ours``, remembered) and leaves the walk's code fresh for the process's first warning."""
    _frames_of_ours(sys._getframe(1))


def _frames_of_ours(frame) -> int:
    """How many frames, from ``frame`` outwards, run this package's code before the first one that does not."""
    count = 0
    while frame is not None and _ours(frame.f_code.co_filename):
        frame, count = frame.f_back, count + 1
    return count


@lru_cache(maxsize=1024)
def _ours(filename: str) -> bool:
    """Whether the code of ``filename`` is this package's: a path in the package's folder with no ``..`` in it (as
    the import system names our modules), else worked out from its absolute path; once per file (a process's first
    warning took 3-4 us a frame for the absolute path; a warning's walk of six frames took 2-3 us with only that
    remembered)."""
    return (filename.startswith(_PACKAGE) and ".." not in filename) or os.path.abspath(filename).startswith(_PACKAGE)
