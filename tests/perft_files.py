"""Reading perft vectors in python-chess's ``.perft`` format (tests/data/perft)."""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data" / "perft"


def read_perft_file(path: Path) -> list[tuple[str, str, int, int]]:
    """``(id, position text, depth, nodes)`` for each ``perft`` line of the file."""
    vectors = []
    ident = position = None
    for line in path.read_text().splitlines():
        key, _, value = line.strip().partition(" ")
        if key == "id":
            ident = value
        elif key == "position":
            position = value
        elif key == "perft":
            depth, nodes = value.split()
            vectors.append((ident, position, int(depth), int(nodes)))
    return vectors


def all_vectors() -> list[tuple[str, str, int, int]]:
    return [v for path in sorted(DATA.glob("*.perft")) for v in read_perft_file(path)]
