"""One progress convention for every bar rougelab draws.

A ``progress`` argument is a bool everywhere: ``True`` draws the bar (on standard error, and only where
the work is long enough to need one: a bootstrap, more than 50 texts to encode, a terminal for the data
fetch), ``False`` draws none. ``quiet()`` (the command line's ``--quiet``) switches every rougelab bar off
while it lasts, whatever the arguments say, and sets tqdm's own ``TQDM_DISABLE`` for child processes
(notebook kernels; tqdm reads it when imported, so ``quiet`` imports tqdm first and this process keeps its
defaults). A process started with ``TQDM_DISABLE`` set (a kernel the workbook runner starts) draws no
rougelab bar either: tqdm's notebook bars, which ``tqdm.auto`` picks in a kernel, would not read it.
Other libraries' bars are left to their own switches: nothing here patches them.
"""
from __future__ import annotations

import contextlib
import contextvars
import os

_QUIET = contextvars.ContextVar("rougelab_quiet", default=False)


def bar(iterable=None, *, progress: bool = True, **kwargs):
    """A tqdm bar (``tqdm.auto``), drawn when ``progress`` and not inside ``quiet()``; ``kwargs`` go to tqdm.
    A bar not drawn is plain tqdm's, disabled: ``tqdm.auto`` loads asyncio, a tenth of a second."""
    if not shown(progress):
        from tqdm import tqdm

        kwargs["disable"] = True
    else:
        from tqdm.auto import tqdm
    return tqdm(iterable, **kwargs)


def shown(progress: bool = True) -> bool:
    """Whether a bar asked for with ``progress`` is drawn (False inside ``quiet()`` or under ``TQDM_DISABLE``)."""
    switched_off = os.environ.get("TQDM_DISABLE", "").lower() not in ("", "0", "false")
    return bool(progress) and not _QUIET.get() and not switched_off


@contextlib.contextmanager
def quiet(enabled: bool = True):
    """No rougelab progress bar while the block runs (nothing changes when ``enabled`` is False)."""
    if not enabled:
        yield
        return
    import tqdm.std  # noqa: F401 - tqdm reads TQDM_* once, at import: not under the value set below

    token = _QUIET.set(True)
    previous = os.environ.get("TQDM_DISABLE")
    os.environ["TQDM_DISABLE"] = "1"
    try:
        yield
    finally:
        _QUIET.reset(token)
        if previous is None:
            os.environ.pop("TQDM_DISABLE", None)
        else:
            os.environ["TQDM_DISABLE"] = previous
