"""The perft vectors of tests/data/perft on both backends.

On a mismatch the divide of the position is printed, so the failing first move
can be followed down (python-chess's examples/perft).
"""
import pytest

from perft_files import all_vectors

VECTORS = all_vectors()


def test_vectors_were_found():
    assert len({v[0] for v in VECTORS}) == 7 and len(VECTORS) >= 30


@pytest.mark.parametrize("ident,text,depth,nodes", VECTORS,
                         ids=[f"{v[0]}-d{v[2]}" for v in VECTORS])
def test_perft_vector(impl, ident, text, depth, nodes):
    position = impl.Position.from_text(text)
    got = impl.perft(position, depth)
    if got != nodes:
        lines = [f"{a}: {n}" for a, n in impl.divide(position, depth)]
        pytest.fail(f"{ident} depth {depth}: expected {nodes}, got {got}\ndivide:\n"
                    + "\n".join(lines))
    assert position.text() == text  # perft leaves the position as it was
