"""Checking values read from outside (JSON, TOML, journal, config): one place says what a count is.

Python's ``bool`` is an ``int`` (``True == 1``), so a reader that wants a
seat number, a stack or a time must refuse ``true`` by hand. These helpers do
it once for every reader of the package, and their errors name the field.

>>> whole(3, "observation.seat", low=1, high=10)
3
>>> whole(True, "observation.seat")
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: observation.seat: must be a whole number, got True
>>> whole(11, "observation.seat", low=1, high=10)
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: observation.seat: must be from 1 to 10, got 11
>>> whole(2.0, "starting_stacks[0]", floats=True, unit=" of chips")
2
>>> is_whole(0), is_whole(-1), is_whole(False), is_number(0.5), is_number(True)
(True, False, False, True, False)
"""

from __future__ import annotations

import math
from typing import TypeGuard

from .errors import InputError


def is_whole(value: object, low: int | None = 0) -> TypeGuard[int]:
    """Is ``value`` an ``int`` (never a ``bool``) of at least ``low`` (None: any)?"""
    return isinstance(value, int) and not isinstance(value, bool) and (low is None or value >= low)


def is_number(value: object) -> TypeGuard[int | float]:
    """Is ``value`` a finite ``int`` or ``float`` (never a ``bool``)?"""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not isinstance(value, float) or math.isfinite(value)


def whole(
    value: object, where: str, *, low: int | None = None, high: int | None = None,
    floats: bool = False, unit: str = "",
) -> int:
    """``value`` as a whole number within ``low..high``, else an :class:`InputError` naming ``where``.

    ``floats`` also takes a float with no fraction (``3.0``, as TOML writers give); ``unit``
    is said in the message (``" of chips"``).
    """
    if floats and isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if not is_whole(value, None):
        raise InputError(where, f"must be a whole number{unit}, got {value!r}")
    _bounds(value, where, low, high)
    return value


def number(value: object, where: str, *, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite number within ``low..high`` (an int is fine), else an :class:`InputError`."""
    if not is_number(value):
        raise InputError(where, f"must be a number, got {value!r}")
    _bounds(value, where, low, high)
    return float(value)


def flag(value: object, where: str) -> bool:
    """``value`` if it is ``true`` or ``false``, else an :class:`InputError` naming ``where``."""
    if not isinstance(value, bool):
        raise InputError(where, f"must be true or false, got {value!r}")
    return value


def _bounds(value: float, where: str, low: float | None, high: float | None) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise InputError(where, f"must be from {low} to {high}, got {value}")
        if low is not None:
            raise InputError(where, f"must be at least {low}, got {value}")
        raise InputError(where, f"must be at most {high}, got {value}")
