"""Optional parts of rougelab and the pip extra that installs each.

Classic ROUGE, ``rouge155`` and the meta-evaluation need only the light core; the contextual and
embedding metrics need ``rougelab[semantic]``, Dask scale-out ``rougelab[scale]``, the notebooks
``rougelab[lab]``, the book ``rougelab[book]``. ``require`` is called where a heavy module is first imported,
so a missing one is reported by the extra that brings it instead of a bare ``ModuleNotFoundError``.
"""
from __future__ import annotations

import importlib


class MissingExtra(ImportError):
    """An optional package is not installed; the message names the extra to install (``extra``)."""

    def __init__(self, message: str, extra: str = ""):
        super().__init__(message)
        self.extra = extra


def require(*modules: str, extra: str, needed_for: str = "") -> None:
    """Import ``modules`` or raise ``MissingExtra`` naming ``pip install 'rougelab[extra]'``."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            purpose = f" for {needed_for}" if needed_for else ""
            raise MissingExtra(f"rougelab needs the optional package {module!r}{purpose}, which the "
                               f"{extra!r} extra installs: pip install 'rougelab[{extra}]'", extra) from exc
