"""The perft vectors of tests/data/perft on both backends.

On a mismatch the divide of the position is printed, so the failing first move
can be followed down (python-chess's examples/perft).
"""
import pytest

from helpers import BACKENDS
from katra.api._backends import backend_module
from perft_files import all_vectors

VECTORS = all_vectors()

#: The pure-Python reference counts larger trees only under ``-m slow`` (seconds
#: each); the core counts every vector in the default run.
REFERENCE_NODES = 100_000


def test_vectors_were_found():
    assert len({v[0] for v in VECTORS}) == 7 and len(VECTORS) >= 30


@pytest.mark.parametrize("backend,ident,text,depth,nodes", [
    pytest.param(backend, *vector, id=f"{backend}-{vector[0]}-d{vector[2]}",
                 marks=[pytest.mark.slow] if backend == "reference"
                 and vector[3] > REFERENCE_NODES else [])
    for backend in BACKENDS for vector in VECTORS])
def test_perft_vector(backend, ident, text, depth, nodes):
    impl = backend_module(backend)
    position = impl.Position.from_text(text)
    got = impl.perft(position, depth)
    if got != nodes:
        lines = [f"{a}: {n}" for a, n in impl.divide(position, depth)]
        pytest.fail(f"{ident} depth {depth}: expected {nodes}, got {got}\ndivide:\n"
                    + "\n".join(lines))
    assert position.text() == text  # perft leaves the position as it was
