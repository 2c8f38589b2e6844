"""The forms of an int that katra must take as that int, and values it must
refuse as ints (tests/test_int_rule.py; any test of an int argument).  NumPy
only: no adapter's extra, so a test of the core alone may import it."""
from __future__ import annotations

import enum

import numpy as np


class Three(enum.IntEnum):
    THREE = 3


def same_number(n: int) -> list[object]:
    """``n`` in every form katra must take as the int ``n``."""
    forms: list[object] = [np.int64(n), np.int32(n), np.uint16(n), np.array(n)]
    if n == 3:
        forms.append(Three.THREE)
    return forms


NOT_INTS = [True, np.True_, 3.0, "3", np.array([3, 3]), object()]
