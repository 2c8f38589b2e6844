"""Regression tests: bad input to the Python API raises only documented exceptions.

Each reproducer of an undocumented exception (OverflowError, AttributeError,
a raising ``is_legal``, a non-int on the move stack) is kept here, on both
backends where a backend is involved.
"""
from __future__ import annotations

import enum

import numpy as np
import pytest

import katra
from katra import IllegalMoveError, PositionError, State, UnknownGameError
from katra._limits import MAX_SEARCH_TIME


class Square(enum.IntEnum):
    C1 = 2


# ---------------------------------------------------------------- search time

@pytest.mark.parametrize("time", [10**400, -(10**400), float("inf"), float("nan"), 0, -1.0,
                                  MAX_SEARCH_TIME * 2, True, "1", b"1", [1], 1j])
def test_search_time_outside_its_range_is_a_value_error(time):
    s = katra.game("katro-4x4").initial_state()
    with pytest.raises(ValueError, match="time"):
        katra.search(s, depth=2, time=time)
    assert s.ply == 0


def test_search_time_inside_its_range_is_accepted():
    # the depth ends the search long before any of these clocks would
    for time in (MAX_SEARCH_TIME, float(MAX_SEARCH_TIME), 1000, np.float64(500.0), np.int64(500)):
        assert katra.search("katro-4x4", depth=2, time=time).depth == 2


# ---------------------------------------------------------------- records

@pytest.mark.parametrize("states", [[None], [1, 2], ["katro"], None, 5, "katro"])
def test_write_records_names_what_is_not_a_state(states):
    with pytest.raises(TypeError, match="write_records"):
        katra.write_records(states)


def test_read_records_rejects_a_huge_ply_with_a_value_error():
    with pytest.raises(ValueError, match="ply"):
        katra.read_records("start: katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nply: "
                           + "9" * 5000 + "\n")


# ---------------------------------------------------------------- is_legal / in

NOT_MOVES = [
    np.array([1, 2]), np.array([2]), np.array([]), np.array(2.0), np.bool_(True), np.float64(2.0),
    "1" * 5000, "a" + "1" * 5000, "c1" * 3000, "", " ", "\x00", "c 1", b"c1", bytearray(b"c1"),
    2.0, float("nan"), 2 + 0j, None, True, False, 10**400, -(10**400), -1, 36, [2], (2,),
    {2}, {"c1": 2}, object(), State, katra.game("katro"),
]


@pytest.mark.parametrize("move", NOT_MOVES, ids=lambda m: type(m).__name__)
def test_is_legal_and_in_are_false_for_anything_not_a_legal_move(backend, move):
    s = katra.game("katro").initial_state(backend=backend)
    before = (s.text(), s.move_stack, s.hash)
    assert s.is_legal(move) is False
    assert (move in s.legal_moves) is False
    with pytest.raises(IllegalMoveError):
        s.push(move)
    assert (s.text(), s.move_stack, s.hash) == before


# (a 0-d integer array has __index__, as NumPy integers do: it is an action number)
@pytest.mark.parametrize("move", ["c1", " c1 ", 2, np.int64(2), np.uint8(2), np.array(2),
                                  Square.C1])
def test_is_legal_and_in_accept_every_spelling_of_a_legal_move(backend, move):
    s = katra.game("katro").initial_state(backend=backend)
    assert s.is_legal(move) is True and move in s.legal_moves


def test_a_very_long_square_name_is_a_clear_illegal_move_error():
    s = katra.game("katro").initial_state()
    with pytest.raises(IllegalMoveError, match="not a square name"):
        s.push("a" + "1" * 5000)


# ---------------------------------------------------------------- the move stack

@pytest.mark.parametrize("move", [Square.C1, np.int64(2), np.int32(2), np.uint64(2), "c1", 2])
def test_push_stores_plain_ints(backend, move):
    s = katra.game("katro").initial_state(backend=backend)
    s.push(move)
    stack = s.move_stack
    assert stack == [2] and type(stack[0]) is int
    assert type(s.peek()) is int
    popped = s.pop()
    assert popped == 2 and type(popped) is int
    assert s.move_stack == [] and s.ply == 0


def test_pop_returns_what_the_backend_position_returns(backend):
    s = katra.game("gore").initial_state(backend=backend)
    s.push(1)
    s.push(s.legal_actions()[-1])
    assert s._pos.move_stack == s.move_stack  # one stack: the backend's
    last = s.move_stack[-1]
    assert s.pop() == last and s._pos.stack_depth == 1


def test_copy_without_the_stack_really_drops_it(backend):
    s = katra.game("katro").initial_state(backend=backend)
    for move in ("c1", "f6", "b1"):
        s.push(move)
    bare = s.copy(stack=False)
    assert bare._pos.stack_depth == 0 and bare.move_stack == [] and bare.ply == 3
    with pytest.raises(IndexError):
        bare.pop()
    with pytest.raises(IndexError):
        bare.peek()
    assert bare.root() == bare and s.root().ply == 0


# ---------------------------------------------------------------- State(...)

def test_state_of_a_position_text_points_to_from_text():
    text = katra.game("katro-4x4").initial_state().text()
    with pytest.raises(UnknownGameError, match=r"State\.from_text"):
        State(text)
    assert State.from_text(text) == State("katro-4x4")


@pytest.mark.parametrize("game", [None, 3, "nope", b"katro"])
def test_state_of_anything_else_is_an_unknown_game(game):
    with pytest.raises(UnknownGameError):
        State(game)


def test_position_text_with_a_huge_count_is_a_position_error(backend):
    with pytest.raises(PositionError, match="too large"):
        State.from_text("katro-4x4 " + "9" * 5000 + ",2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S",
                        backend=backend)
