"""The other libraries' names a State answers to (OpenSpiel, python-chess), and move
text read the same way by ``State.push`` and ``katra play`` (docs/api.md)."""

import pytest

import katra
from helpers import katra_in_process
from katra import IllegalMoveError, State

ALIASES = [("apply_action", "push"), ("clone", "copy"), ("is_game_over", "is_terminal")]


@pytest.mark.parametrize("alias, name", ALIASES)
def test_aliases_are_the_same_method(alias, name):
    # one implementation: the alias is the very function object, docstring included
    assert getattr(State, alias) is getattr(State, name)


def test_aliases_behave_as_the_methods(backend):
    s = katra.game("katro").initial_state(backend=backend)
    s.apply_action("c1")                                   # docs/api.md: push("c1")
    s.apply_action(35)
    assert s.move_stack == [2, 35]
    twin = s.clone()
    assert twin == s and twin.move_stack == [2, 35]
    twin.pop()
    assert s.move_stack == [2, 35]                         # independent
    assert not s.is_game_over()
    with pytest.raises(IllegalMoveError):
        s.apply_action("c2+")
    assert s.move_stack == [2, 35]


@pytest.mark.parametrize("text, result", [
    # docs/api.md "End of the game": North's store and sweep win (21-27)
    ("djenon-aboure 1,1,0,0,0,0/1,0,0,0,0,0 S stores=20,25", "0-1"),
    # the same with the stores swapped: South wins (27-21)
    ("djenon-aboure 1,1,0,0,0,0/1,0,0,0,0,0 S stores=26,19", "1-0"),
    # stores 23 and 22 plus the sweep (2 North, 1 South): 24-24, a draw
    ("djenon-aboure 1,1,0,0,0,0/1,0,0,0,0,0 S stores=23,22", "1/2-1/2"),
    ("katro 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S", "*"),
])
def test_result_is_python_chess_result(text, result, backend):
    s = State.from_text(text, backend=backend)
    assert s.result() == result
    assert s.is_game_over() == (result != "*") == s.is_terminal()
    if result != "*":
        assert s.outcome().result() == result


# ---------------------------------------------------------------- move text

@pytest.mark.parametrize("game_id, texts, action", [
    ("katro", ["c1", "C1", " c1 ", "\tC1\n"], 2),
    ("katra-mpantsaka", ["d2+", "D2+", " d2+"], 22),
    ("djenon-aboure", ["pass", "PASS", "Pass "], 12),
    ("gore", ["offer:c2,d2", "OFFER:D2,C2", " Offer:c2,D2 "], 200),
    ("gore", ["accept", "ACCEPT"], 265),
])
def test_move_text_ignores_case_and_spaces(game_id, texts, action):
    game = katra.game(game_id)
    assert {game.parse_action(text) for text in texts} == {action}


def test_push_accepts_upper_case_moves(backend):
    s = katra.game("katro-4x4").initial_state(backend=backend)
    s.push("B1")
    assert s.move_stack == [1]
    assert "A4" in s.legal_moves and s.is_legal("A4")      # North's moves now


def test_push_and_katra_play_read_the_same_moves():
    """The same three lines, typed at ``katra play`` and given to ``push``."""
    lines = ["B2", "B1+", " B1 "]  # not legal here, not a move, legal (upper case, spaced)
    state = katra.game("katro-4x4").initial_state()
    with pytest.raises(IllegalMoveError, match="is not legal here"):
        state.push(lines[0])
    with pytest.raises(IllegalMoveError, match="is not a square name"):
        state.push(lines[1])
    state.push(lines[2])
    assert state.move_stack == [1]

    result = katra_in_process("play", "katro-4x4", "--depth", "1",
                              stdin="\n".join([*lines, "quit"]) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "B2 is not legal here. Legal moves: a1 b1 c1 d1." in out
    assert "Not a move: 'b1+' is not a square name" in out
    assert "last move: South b1" in out
    assert "You stopped the game after 2 plies" in out   # b1 and the engine's reply
