"""perft/divide through the public API and their argument checks (docs/rules.md §1.4)."""
import pytest

import katra
from katra._reference import Position


def test_perft_depth_zero_and_terminal(backend):
    assert katra.perft("katro", 0, backend=backend) == 1
    # South has no seeds at all: no legal move, so perft is 0 at any depth >= 1.
    lost = "katro-4x4 2,2,2,2/2,2,2,2/0,0,0,0/0,0,0,0 S"
    assert katra.perft(lost, 0, backend=backend) == 1
    assert katra.perft(lost, 3, backend=backend) == 0


def test_divide_sums_to_perft_and_names_moves(backend):
    counts = katra.divide("katra-mpantsaka", 3, backend=backend)
    assert sum(counts.values()) == 2228
    assert list(counts)[:2] == ["a2+", "a2-"]
    assert len(counts) == 16


@pytest.mark.parametrize("depth", [-1, 1.5, "2", True, None])
def test_bad_depth_is_a_value_error(backend, depth):
    with pytest.raises(ValueError, match="depth"):
        katra.perft("gore", depth, backend=backend)


def test_unknown_backend_and_position():
    with pytest.raises(ValueError, match="backend"):
        katra.perft("katro", 1, backend="fast")
    with pytest.raises(katra.PositionError, match="unknown game"):
        katra.perft("chess 1/2 S", 1)
    with pytest.raises(ValueError):
        katra.perft(12, 1)


def test_reference_perft_leaves_position_unchanged():
    position = Position.initial("djenon-aboure")
    before = position.text()
    katra._reference.perft(position, 3)
    assert position.text() == before
