"""The one check of the numeric, flag and list parameters of the public API and the command line.

Each ``check_*`` returns the value in its plain Python form (an ``int``, a ``float``, a ``bool``, a
``list``) or raises ``InputError`` naming the parameter and the value given, e.g. ``byte_limit=nan:
must be a whole number >= 0``. The command line passes its option names (``--bootstrap``).

Rules: ``bool`` is not a number (``True`` is no count); a whole number may be given as an integral
float (``1e3``); NaN and infinity are refused wherever a finite value is meant; a string is not a list
of names (``load_dataset(['summeval'])`` is right, ``'summeval'`` would be read letter by letter).
"""
from __future__ import annotations

import math
import numbers
from typing import Iterable, Sequence

import numpy as np

from rougelab.scoring import InputError

# The fewest resamples behind a p-value: it is (1 + k) / (1 + n), so n = 99 is the least that can reach
# 0.01, and at p = 0.05 its Monte-Carlo standard error, sqrt(p (1 - p) / n), is then 0.022 (at 1000
# resamples, the usual choice: 0.007). Below that, "significant" or "tied" is decided by the draw.
MIN_TEST_RESAMPLES = 99
# The most resamples: beyond, p-values resolve past 1e-5 and intervals change no printed digit, while the
# draws (held in memory, one row per resample) and the time grow without end.
MAX_RESAMPLES = 100_000


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _refuse(name: str, value, requirement: str) -> InputError:
    return InputError(f"{name}={_shown(value)}: {requirement}")


def check_int(value, name: str, *, minimum: int | None = None, maximum: int | None = None,
              none: bool = False, hint: str = "") -> int | None:
    """``value`` as an ``int`` within [``minimum``, ``maximum``] (``None`` passes when ``none``)."""
    if value is None and none:
        return None
    bounds = (f" >= {minimum}" if minimum is not None else "") + \
             (f"{' and' if minimum is not None else ''} <= {maximum}" if maximum is not None else "")
    requirement = f"must be a whole number{bounds}{hint}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _refuse(name, value, requirement)
    if isinstance(value, numbers.Integral):
        number = int(value)
    elif math.isfinite(value) and float(value).is_integer():
        number = int(value)
    else:
        raise _refuse(name, value, requirement)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise _refuse(name, value, requirement)
    return number


def check_float(value, name: str, *, low: float | None = None, high: float | None = None,
                open_low: bool = False, open_high: bool = False, none: bool = False,
                hint: str = "") -> float | None:
    """``value`` as a finite ``float`` in the interval given by ``low``/``high`` (each end open
    when ``open_low``/``open_high``); ``None`` passes when ``none``."""
    if value is None and none:
        return None
    if low is not None and high is not None:
        bounds = f" in {'(' if open_low else '['}{low}, {high}{')' if open_high else ']'}"
    elif low is not None:
        bounds = f" {'>' if open_low else '>='} {low}"
    elif high is not None:
        bounds = f" {'<' if open_high else '<='} {high}"
    else:
        bounds = ""
    requirement = f"must be a finite number{bounds}{hint}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise _refuse(name, value, requirement)
    number = float(value)
    if low is not None and (number <= low if open_low else number < low):
        raise _refuse(name, value, requirement)
    if high is not None and (number >= high if open_high else number > high):
        raise _refuse(name, value, requirement)
    return number


def check_bool(value, name: str) -> bool:
    """``value`` as a ``bool``: only ``True`` or ``False`` (or numpy's), never a string such as ``"no"``."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise _refuse(name, value, "must be True or False")


def check_seed(value, name: str = "seed") -> int:
    """A seed for ``numpy.random.default_rng``: a whole number >= 0."""
    return check_int(value, name, minimum=0)


def check_probability(value, name: str) -> float:
    """A level such as ``significance`` or ``confidence``: a number strictly between 0 and 1."""
    return check_float(value, name, low=0, high=1, open_low=True, open_high=True)


def check_resamples(value, name: str = "n_resamples", *, minimum: int, why: str) -> int:
    """A number of resamples from ``minimum`` (``why`` says what fewer would break) to ``MAX_RESAMPLES``."""
    return check_int(value, name, minimum=minimum, maximum=MAX_RESAMPLES, hint=f" ({why})")


def check_test_resamples(value, name: str = "n_resamples", significance: float | None = None) -> int:
    """The resamples behind a p-value: at least ``MIN_TEST_RESAMPLES`` and, with a ``significance``
    level, enough that the smallest p-value 1 / (1 + n) lies below it (else nothing is ever significant)."""
    least = MIN_TEST_RESAMPLES
    if significance is not None:
        least = max(least, math.ceil(1 / significance - 1 - 1e-9))
    return check_resamples(value, name, minimum=least,
                           why=f"a permutation or bootstrap p-value is (1 + k) / (1 + n): fewer than {least} "
                               "resamples cannot resolve the significance levels in use")


def check_interval_resamples(value, confidence: float, name: str = "n_resamples", *,
                              optional: bool = False) -> int:
    """The resamples behind a percentile interval: at least 2 / (1 - confidence) (40 at 95%), so that
    each end of the interval has a resample beyond it rather than being the extreme draw; with
    ``optional``, 0 too (no interval)."""
    if optional and check_int(value, name, minimum=0) == 0:
        return 0
    least = math.ceil(2 / (1 - confidence) - 1e-9)
    return check_resamples(value, name, minimum=least,
                           why=f"a {confidence:.0%} percentile interval needs at least {least} resamples, "
                               "else its ends are the most extreme draws" + ("; 0: no interval" if optional else ""))


def check_name(value, name: str) -> str:
    """``value`` as one name (a ``str``), not a list of them."""
    if not isinstance(value, str):
        raise _refuse(name, value, "must be one name (a string)"
                      + ("; pass the names one at a time" if isinstance(value, (list, tuple)) else ""))
    return value


def check_names(value, name: str, *, empty: bool = False) -> list[str]:
    """``value`` as a list of strings: a list, tuple or other iterable of ``str`` (never one string,
    which would be read character by character); an empty list only when ``empty``."""
    if isinstance(value, (str, bytes)):
        raise _refuse(name, value, f"must be a list of names, not one string: write [{value!r}]")
    if isinstance(value, (dict, set, frozenset)) or not isinstance(value, Iterable):
        raise _refuse(name, value, "must be a list of names")
    names = list(value)
    bad = [v for v in names if not isinstance(v, str)]
    if bad:
        raise _refuse(name, value, f"must be a list of names (strings), but holds {_shown(bad[0])}")
    if not names and not empty:
        raise _refuse(name, value, "must name at least one")
    return names


def check_each_once(names: Sequence[str], message: str) -> None:
    """Raise ``InputError(message)`` when a name occurs more than once in ``names``; ``{names}`` in the
    message stands for the repeated ones, quoted, in first-seen order."""
    repeated = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    if repeated:
        raise InputError(message.format(names=", ".join(map(repr, repeated))))
