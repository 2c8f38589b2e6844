"""Room in Python's recursion limit for walks as deep as a game line (proofs)."""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

__all__ = ["recursion_room"]


@contextlib.contextmanager
def recursion_room(depth: int) -> Iterator[None]:
    """Enough Python recursion for a walk ``depth`` plies deep (a few frames a ply)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 4 * depth + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
