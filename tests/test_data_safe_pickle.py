"""The restricted unpickler: builtin types load, anything that names other code is refused."""
import os
import pickle

import numpy as np
import pytest

from rougelab.data import DataError
from rougelab.data.safe_pickle import safe_loads


class _Calls:
    """Unpickling this runs ``os.system`` under the standard unpickler."""

    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


class _Plain:
    pass


BUILTIN_VALUE = {"s": "text", "f": 2.5, "i": -3, "n": None, "b": True, "l": [1, [2.0]],
                 "t": (1, "x"), "set": {1, 2}, "fs": frozenset({3}), "c": 1 + 2j}


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_builtin_types_round_trip(protocol):
    assert safe_loads(pickle.dumps(BUILTIN_VALUE, protocol=protocol)) == BUILTIN_VALUE


def test_bytes_round_trip_from_protocol_3():
    value = {"bytes": b"\x00\xff", "bytearray": bytearray(b"ab")}
    assert safe_loads(pickle.dumps(value, protocol=3)) == value


@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
def test_refuses_os_system_and_runs_nothing(tmp_path, protocol):
    marker = tmp_path / "pwned"
    payload = pickle.dumps({"x": _Calls(f"touch {marker}")}, protocol=protocol)
    with pytest.raises(DataError, match=r"refusing to load global (posix|os)\.system"):
        safe_loads(payload, source="evil.pkl")
    assert not marker.exists()


@pytest.mark.parametrize("value", [_Plain(), _Plain, np.arange(3), np.float64(1.0)])
def test_refuses_classes_instances_and_numpy(value):
    with pytest.raises(DataError, match="refusing to load global"):
        safe_loads(pickle.dumps(value))


def test_refuses_builtin_functions():
    # A hand-written protocol-0 pickle calling builtins.eval("1+1").
    with pytest.raises(DataError, match="builtins.eval"):
        safe_loads(b"cbuiltins\neval\n(S'1+1'\ntR.")


def test_corrupt_bytes_give_data_error():
    with pytest.raises(DataError, match="bad.pkl: unsafe or corrupt pickle"):
        safe_loads(pickle.dumps(BUILTIN_VALUE)[:-5], source="bad.pkl")


def test_numpy_scalars_decode_to_python_numbers_without_numpy():
    value = {"f8": np.float64(0.1), "f4": np.float32(1.5), "i8": np.int64(-7), "u1": np.uint8(200),
             "f2": np.float16(0.25), "bool": np.bool_(True)}
    decoded = safe_loads(pickle.dumps(value), numpy_scalars=True)
    assert decoded == {k: v.item() for k, v in value.items()}
    assert all(type(decoded[k]) is type(value[k].item()) for k in value)
    with pytest.raises(DataError):  # arrays stay refused even with numpy_scalars
        safe_loads(pickle.dumps(np.arange(3)), numpy_scalars=True)
    with pytest.raises(DataError):  # and scalars are refused without the option
        safe_loads(pickle.dumps(value))


def test_numpy_scalar_with_object_dtype_is_refused():
    with pytest.raises(DataError, match="not a plain number"):
        safe_loads(pickle.dumps(np.array([None], dtype=object)[0:1].dtype), numpy_scalars=True)


# Issue 14: every failure on malformed bytes is the data layer's own error (fuzzed with hypothesis).

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_REAL = [pickle.dumps({**BUILTIN_VALUE, "ba": bytearray(b"xy"), "np": np.float64(2.5)}, protocol=p)
         for p in range(pickle.HIGHEST_PROTOCOL + 1)]


def _loads_or_data_error(data):
    try:
        safe_loads(data, numpy_scalars=True)
    except DataError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_random_bytes_give_data_error_or_a_value(data):
    _loads_or_data_error(data)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_REAL), st.data())
def test_truncated_and_mutated_real_pickles_give_data_error_or_a_value(real, draw):
    cut = draw.draw(st.integers(0, len(real)))
    changes = draw.draw(st.lists(st.tuples(st.integers(0, len(real) - 1), st.integers(0, 255)), max_size=4))
    data = bytearray(real)
    for index, value in changes:
        data[index] = value
    _loads_or_data_error(bytes(data[:cut] if draw.draw(st.booleans()) else data))


@pytest.mark.parametrize("data, cause", [
    (b"c__builtin__\nset\n)R.", None),                                        # fine: an empty set
    (b"c__builtin__\nset\n]\x85}\x85R.", "TypeError"),                        # set([], {}) -> wrong arity
    (b"c__builtin__\nbytearray\n\x8a\x05\x00\x00\x00\x00\x10\x85R.", "UnpicklingError"),  # bytearray(2**36)
    (b"}(K\x01K\x02\x90.", "AttributeError"),                                 # ADDITEMS on a dict
    (b"(h\x07.", "UnpicklingError"),                                          # memo key that was never stored
    (b"\x80\x05\x96\xff\xff\xff\xff\xff\xff\xff\xff.", "OverflowError"),     # BYTEARRAY8 of 2**64 - 1 bytes
    (b"\x80\x05\x96\x00\x00\x00\x00\x00\x00\x00\x40.", "MemoryError"),       # BYTEARRAY8 of 2**62 bytes
])
def test_named_failures_surface_as_data_error(data, cause):
    if cause is None:
        assert safe_loads(data) == set()
        return
    with pytest.raises(DataError, match="unsafe or corrupt pickle") as err:
        safe_loads(data)
    assert type(err.value.__cause__).__name__ == cause
