"""Quick checks of the compiled core alone (the shared tests compare it with the reference)."""
import pathlib
import pickle

import pytest

from katra import _core as core
from katra._errors import IllegalMoveError, PositionError, UnknownGameError
from katra._games import GAME_IDS, GAMES
from katra._text import parse_action

PERFT_DIR = pathlib.Path(__file__).parent / "data" / "perft"


def perft_cases():
    for path in sorted(PERFT_DIR.glob("*.perft")):
        text = None
        for line in path.read_text().splitlines():
            line = line.strip()
            if line.startswith("position "):
                text = line[len("position "):]
            elif line.startswith("perft "):
                _, depth, count = line.split()
                yield pytest.param(text, int(depth), int(count), id=f"{path.stem}-{depth}")


@pytest.mark.parametrize("text,depth,count", list(perft_cases()))
def test_perft_vectors(text, depth, count):
    pos = core.Position.from_text(text)
    assert core.perft(pos, depth) == count
    if depth >= 1:
        assert sum(n for _, n in core.divide(pos, depth)) == count


def test_mpantsaka_depth_6_is_fast():
    assert core.perft(core.Position.initial("katra-mpantsaka"), 6) == 2564870


def test_never_ending_move():
    text = "katra-mpantsaka 0,1,4,4,1,3,3,0/1,3,0,0,0,1,3,3/1,5,0,1,2,2,3,5/1,0,4,1,4,1,2,5 S"
    pos = core.Position.from_text(text)
    action = parse_action(GAMES["katra-mpantsaka"], "g2+")
    assert not pos.is_legal(action)
    assert action not in pos.legal_actions()
    assert pos.lap_count(action) is None
    assert pos.lap_count(action, 10**9) is None
    with pytest.raises(IllegalMoveError):
        pos.apply(action)
    assert pos.text() == text
    finite = parse_action(GAMES["katra-mpantsaka"], "f2+")
    assert pos.lap_count(finite) == 9
    assert pos.lap_count(finite, 9) == 9
    assert pos.lap_count(finite, 8) is None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_text_roundtrip_pickle_hash(game_id):
    pos = core.Position.initial(game_id)
    for _ in range(6):
        actions = pos.legal_actions()
        if not actions:
            break
        pos.apply(actions[len(actions) // 2])
    clone = core.Position.from_text(pos.text())
    assert clone == pos and hash(clone) == hash(pos) and clone.zobrist() == pos.zobrist()
    assert pickle.loads(pickle.dumps(pos)) == pos
    other = pos.copy()
    if other.legal_actions():
        other.apply(other.legal_actions()[0])
        assert other != pos


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_push_pop(game_id):
    pos = core.Position.initial(game_id)
    start = pos.copy()
    played = []
    for _ in range(10):
        actions = pos.legal_actions()
        if not actions:
            break
        pos.push(actions[-1])
        played.append(actions[-1])
    while played:
        assert pos.pop() == played.pop()
    assert pos == start
    with pytest.raises(IndexError):
        pos.pop()


def test_errors():
    with pytest.raises(UnknownGameError):
        core.Position.initial("chess")
    with pytest.raises(PositionError):
        core.Position.from_text("katro 1,2 S")
    pos = core.Position.initial("katro")
    for bad in ("a1", 1.0, None, True):
        with pytest.raises(IllegalMoveError):
            pos.apply(bad)
        with pytest.raises(IllegalMoveError):
            pos.is_legal(bad)
    assert pos.is_legal(-1) is False and pos.is_legal(10**30) is False
    with pytest.raises(IllegalMoveError):
        pos.apply(35)
    with pytest.raises(IllegalMoveError):
        pos.lap_count(35)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            pos.lap_count(0, bad)
    for bad in (-1, 1.0, True, "2", None):
        with pytest.raises(ValueError):
            core.perft(pos, bad)
    with pytest.raises(ValueError):
        core.divide(pos, 0)
    with pytest.raises(ValueError):
        core.perft("katro", 1)
    with pytest.raises(ValueError):
        core.playouts(pos, -1, 0, 10)
    with pytest.raises(ValueError):
        core.playouts(pos, 1, 2**64, 10)
    with pytest.raises(ValueError):
        core.playouts(pos, 1, -1, 10)
    with pytest.raises(ValueError):
        core.playouts(pos, 1, 0, -1)
    assert pos == core.Position.initial("katro")


def test_playouts_shape_and_determinism():
    pos = core.Position.initial("gore")
    a = core.playouts(pos, 20, 2**64 - 1, 100)
    assert a == core.playouts(pos, 20, 2**64 - 1, 100)
    assert set(a) == {"games", "south_wins", "north_wins", "draws", "unfinished", "plies"}
    assert a["games"] == 20 == a["south_wins"] + a["north_wins"] + a["draws"] + a["unfinished"]
    zero = core.playouts(pos, 5, 0, 0)
    assert zero["unfinished"] == 5 and zero["plies"] == 0


def test_gore_offer_answer_keeps_turn():
    pos = core.Position.from_text("gore 6,6,6,6/6,6,6,6 S stores=12,12 owners=NNNN/SSSS")
    offer = parse_action(GAMES["gore"], "offer:a1,b1")
    assert offer in pos.legal_actions()
    pos.apply(offer)
    assert pos.to_move == 1 and pos.pending_offer == 0b11
    assert pos.legal_actions() == [265, 266]
    pos.apply(265)
    assert pos.to_move == 1 and pos.pending_offer == 0
    assert pos.owners[:2] == [1, 1] and pos.board[:2] == [12, 12] and pos.stores == (12, 0)
