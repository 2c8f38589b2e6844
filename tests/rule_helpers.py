"""Small helpers shared by the hand-worked rule tests (tests/test_rules_*.py)."""
import pytest

from katra._errors import IllegalMoveError
from katra._games import GAMES
from katra._text import parse_action


def legal(impl, text):
    return impl.Position.from_text(text).legal_actions()


def after(impl, text, action):
    """The position after the legal ``action`` from ``text``."""
    pos = impl.Position.from_text(text)
    assert action in pos.legal_actions()
    pos.apply(action)
    return pos


def play(impl, before, move, expected_after):
    """Play ``move`` (move text) from ``before``; the result must be ``expected_after``."""
    game = before.split()[0]
    pos = impl.Position.from_text(before)
    action = parse_action(GAMES[game], move)
    assert action in pos.legal_actions(), (before, move, pos.legal_actions())
    pos.apply(action)
    assert pos.text() == expected_after, (before, move)
    return pos


def assert_illegal(pos, action):
    """``apply`` raises IllegalMoveError and leaves the position as it was."""
    before = pos.text()
    with pytest.raises(IllegalMoveError):
        pos.apply(action)
    assert pos.text() == before
