"""A restricted unpickler: builtin containers and scalars only, never arbitrary code.

``pickle.load`` runs whatever callable a file names (``os.system``, any class); the
released evaluation pickles hold only dicts, lists, str and float, so any global other
than a builtin container type is refused (so are ``bytes`` in protocols 0-2, which are
stored as a call to ``_codecs.encode``). The original REALSumm pickles store floats as NumPy
scalars; ``numpy_scalars=True`` decodes those two globals (``numpy.core.multiarray.scalar``
and ``numpy.dtype``) with our own byte decoder into Python floats/ints, without importing
or calling NumPy.
"""
from __future__ import annotations

import io
import pickle
import struct

from rougelab.data.registry import DataError

_NUMPY_KINDS = {"f2": "e", "f4": "f", "f8": "d", "i1": "b", "i2": "h", "i4": "i", "i8": "q",
                "u1": "B", "u2": "H", "u4": "I", "u8": "Q", "b1": "?"}


class _DType:
    """Stands in for ``numpy.dtype(code, align, copy)``: keeps the code and byte order only."""

    def __init__(self, code: str, align: bool = False, copy: bool = True):
        if code not in _NUMPY_KINDS:
            raise pickle.UnpicklingError(f"NumPy dtype {code!r} is not a plain number")
        self.code = code
        self.order = "<"

    def __setstate__(self, state: tuple) -> None:
        # numpy's dtype state: (version, byteorder, ...); '|' and '=' mean native/not applicable.
        self.order = ">" if state[1] == ">" else "<"


def _scalar(dtype: _DType, data: bytes) -> float | int | bool:
    """Decode ``numpy.core.multiarray.scalar(dtype, bytes)`` into the matching Python number."""
    if not isinstance(dtype, _DType) or not isinstance(data, bytes):
        raise pickle.UnpicklingError("malformed NumPy scalar")
    (value,) = struct.unpack(dtype.order + _NUMPY_KINDS[dtype.code], data)
    return value


_NUMPY_GLOBALS = {("numpy.core.multiarray", "scalar"): _scalar,
                  ("numpy._core.multiarray", "scalar"): _scalar,
                  ("numpy", "dtype"): _DType}


def _bytearray(*args) -> bytearray:
    """``bytearray`` as protocols 0-4 rebuild one (from ``(str, "latin-1")`` or ``(bytes,)``); never
    ``bytearray(n)``, which a corrupt pickle could use to allocate any amount of memory."""
    if not all(isinstance(a, (str, bytes)) for a in args):
        raise pickle.UnpicklingError("malformed bytearray")
    return bytearray(*args)


# Builtin types that older pickle protocols name as globals; constructing them runs no user code.
_BUILTIN_TYPES = {(module, name): t for module in ("builtins", "__builtin__")
                  for name, t in (("set", set), ("frozenset", frozenset), ("bytearray", _bytearray),
                                  ("complex", complex))}


class RestrictedUnpickler(pickle.Unpickler):
    """Unpickler that admits builtin types only: every global except set, frozenset, bytearray
    and complex is refused (optionally NumPy's scalar pair too, decoded without NumPy)."""

    def __init__(self, file, *, numpy_scalars: bool = False):
        super().__init__(file)
        self._numpy_scalars = numpy_scalars

    def find_class(self, module: str, name: str):
        if (module, name) in _BUILTIN_TYPES:
            return _BUILTIN_TYPES[(module, name)]
        if self._numpy_scalars and (module, name) in _NUMPY_GLOBALS:
            return _NUMPY_GLOBALS[(module, name)]
        raise pickle.UnpicklingError(
            f"refusing to load global {module}.{name}: only builtin types are allowed")


def safe_loads(data: bytes, *, source: str = "pickle", numpy_scalars: bool = False):
    """Unpickle ``data`` admitting builtin types only; anything else raises ``DataError``.

    Parameters
    ----------
    data : the pickle's bytes.
    source : a name for the error message (e.g. the file path).
    numpy_scalars : also decode NumPy number scalars into Python numbers (no NumPy code runs).
    """
    try:
        return RestrictedUnpickler(io.BytesIO(data), numpy_scalars=numpy_scalars).load()
    except Exception as exc:  # no user code runs here: any failure (Attribute-, Index-, Overflow-,
        # Memory-, RecursionError, ...) means the bytes are not a pickle of builtin values
        raise DataError(f"{source}: unsafe or corrupt pickle ({type(exc).__name__}: {exc})") from exc
