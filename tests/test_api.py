"""The Pythonic API (katra.game, katra.State...) over both backends."""
from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import numpy as np
import pytest

import katra
from helpers import random_walk
from katra import IllegalMoveError, State, UnknownGameError
from katra._limits import MAX_START_PLY

KATRO_START = ("katro 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/"
               "2,2,2,2,2,2 S")


# ---------------------------------------------------------------- games

def test_games_listed_in_rules_order():
    assert [g.id for g in katra.games()] == list(katra.GAME_IDS)
    assert {g.id: g.num_actions for g in katra.games()} == {
        "katro": 36, "katro-4x6": 24, "katro-4x4": 16, "katra-mpantsaka": 64,
        "katra-mpantsaka-simplified": 64, "gore": 267, "djenon-aboure": 13}


@pytest.mark.parametrize("name, game_id", [
    ("Katro", "katro"), ("katro", "katro"), ("katra mpantsaka", "katra-mpantsaka"),
    ("Katra_Mpantsaka", "katra-mpantsaka"), ("Goré", "gore"), ("gore", "gore"),
    ("GORÉ", "gore"), ("Djenon Aboure", "djenon-aboure"), ("djenon", "djenon-aboure"),
    ("Katro 4x4", "katro-4x4"),
])
def test_game_aliases(name, game_id):
    assert katra.game(name).id == game_id
    assert katra.game(name) is katra.game(game_id)


def test_unknown_game_lists_known_ones():
    with pytest.raises(UnknownGameError) as info:
        katra.game("oware")
    assert isinstance(info.value, ValueError)
    for game_id in katra.GAME_IDS:
        assert game_id in str(info.value)


def test_game_is_immutable_and_describes_the_board():
    g = katra.game("gore")
    assert (g.id, g.name, g.rows, g.cols, g.seeds_per_hole, g.has_stores) == (
        "gore", "Goré", 2, 4, 6, True)
    assert g.holes == 8 and g.observation_size == 28
    assert not katra.game("katro").has_stores
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.rows = 3  # type: ignore[misc]
    assert repr(g) == "katra.game('gore')"
    assert hash(g) == hash(katra.game("Goré"))


# ---------------------------------------------------------------- states

def test_initial_state(backend):
    s = katra.game("katro").initial_state(backend=backend)
    assert s.text() == KATRO_START
    assert s.backend == backend
    assert (s.to_move, s.ply, s.move_stack, s.stores, s.pending_offer) == (0, 0, [], (0, 0), ())
    assert s.board == [2] * 36
    assert s.owners == [0] * 18 + [1] * 18
    assert s.legal_actions() == list(range(6))
    assert not s.is_terminal() and s.outcome() is None and s.returns() == [0.0, 0.0]
    assert s.current_player() == 0
    assert State("katro", backend=backend) == s
    assert katra.game("katro").new_initial_state(backend) == s


def test_legal_moves_is_a_lazy_view(backend):
    s = katra.game("katra-mpantsaka").initial_state(backend=backend)
    moves = s.legal_moves
    assert moves.count() == len(moves) == len(s.legal_actions()) == 16
    assert list(moves)[:4] == ["a2+", "a2-", "b2+", "b2-"]
    assert "a2+" in moves and 16 in moves and "a1+" not in moves and 0 not in moves
    assert "nonsense" not in moves and 3.5 not in moves
    s.push("a2+")
    assert list(moves) == [s.action_text(a) for a in s.legal_actions()]  # follows the state
    assert repr(moves).startswith("<LegalMoves (")
    assert bool(moves)


def test_push_pop_peek(backend):
    s = katra.game("katro-4x4").initial_state(backend=backend)
    start_text, start_hash = s.text(), s.hash
    s.push("a1")
    s.push(15)
    assert s.peek() == 15 and s.move_stack == [0, 15] and s.ply == 2
    assert s.pop() == 15 and s.pop() == 0
    assert (s.text(), s.hash, s.ply) == (start_text, start_hash, 0)
    with pytest.raises(IndexError):
        s.pop()
    with pytest.raises(IndexError):
        s.peek()
    assert s.text() == start_text


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_push_pop_restore_text_and_hash_along_random_games(backend, game_id):
    s = katra.game(game_id).initial_state(backend=backend)
    rng = random.Random(game_id)
    seen = []
    for _ in range(60):
        actions = s.legal_actions()
        if not actions:
            break
        seen.append((s.text(), s.hash, s.legal_actions()))
        s.push(rng.choice(actions))
        # the hash depends on the position only, not on the path that reached it
        assert s.hash == State.from_text(s.text(), backend=backend).hash
    while seen:
        s.pop()
        assert (s.text(), s.hash, s.legal_actions()) == seen.pop()
    assert s.ply == 0


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_both_backends_agree_through_the_api(game_id):
    core = katra.game(game_id).initial_state()
    ref = katra.game(game_id).initial_state(backend="reference")
    rng = random.Random(7)
    for _ in range(150):
        assert core.hash == ref.hash
        assert core == ref
        assert core.legal_actions() == ref.legal_actions()
        assert core.observation() == ref.observation()
        assert (core.outcome(), core.returns(), str(core)) == (ref.outcome(), ref.returns(),
                                                              str(ref))
        actions = core.legal_actions()
        if not actions:
            break
        action = rng.choice(actions)
        core.push(action)
        ref.push(action)


def test_transposition_has_one_hash(backend):
    # Goré: decline an offer and sow, or sow straight away: different paths,
    # but the offer-decline pair changes nothing but the turn order.
    text = "gore 6,6,6,6/6,6,6,6 N stores=6,6 owners=NNNN/SSSS"
    a = State.from_text(text, backend=backend)
    a.push("offer:a2")      # North offers a2; South must answer
    a.push("decline")       # South declines and moves on
    b = State.from_text(text.replace(" N ", " S "), backend=backend)
    assert a == b and a.hash == b.hash
    assert a.move_stack != b.move_stack
    assert len({a.hash, b.hash}) == 1


def test_eq_and_the_zobrist_hash_agree(backend):
    s = katra.game("djenon").initial_state(backend=backend)
    t = random_walk(s.copy(), 5, 1)
    u = State.from_text(t.text(), backend=backend)
    assert t == u and t.hash == u.hash
    assert t != s and t.hash != s.hash
    assert {t.hash: 1}[u.hash] == 1
    assert (s == "not a state") is False


def test_a_state_is_mutable_so_not_hashable(backend):
    # As python-chess's Board: a hash that changes with push() would lose
    # states in sets and dicts; tables are keyed by state.hash instead.
    s = katra.game("gore").initial_state(backend=backend)
    with pytest.raises(TypeError, match="unhashable"):
        hash(s)
    with pytest.raises(TypeError):
        {s}  # noqa: B018
    assert State.__hash__ is None


def test_copy_is_independent(backend):
    s = random_walk(katra.game("gore").initial_state(backend=backend), 6, 3)
    c = s.copy()
    assert c == s and c.move_stack == s.move_stack and c.ply == s.ply
    random_walk(c, 3, 4)
    assert c.ply == s.ply + 3 and s.move_stack != c.move_stack
    assert s == State.from_text(s.text(), backend=backend)
    while c.move_stack:  # the copy can undo the moves it inherited
        c.pop()
    assert c == s.root()
    bare = s.copy(stack=False)
    assert bare == s and bare.move_stack == [] and bare.ply == s.ply
    with pytest.raises(IndexError):
        bare.pop()
    assert copy.copy(s) == s and copy.deepcopy(s) == s


def test_child_leaves_the_parent_alone(backend):
    s = katra.game("katro").initial_state(backend=backend)
    kid = s.child("c1")
    assert s.text() == KATRO_START and s.ply == 0
    assert kid.peek() == 2 and kid.ply == 1 and kid.to_move == 1
    with pytest.raises(IllegalMoveError):
        s.child("a6")
    assert s.text() == KATRO_START


def test_ply_and_root(backend):
    s = State.from_text(KATRO_START, backend=backend, ply=10)
    assert s.ply == 10
    s.push("a1")
    assert s.ply == 11 and s.root().ply == 10 and s.root().text() == KATRO_START
    with pytest.raises(ValueError):
        State.from_text(KATRO_START, ply=-1)


# ---------------------------------------------------------------- end of game

@pytest.mark.parametrize("text, outcome, returns", [
    ("katro-4x4 0,0,0,0/0,0,0,1/0,0,0,0/0,0,0,0 S",
     katra.Outcome(1, (0, 1), "no legal move"), [-1.0, 1.0]),
    ("katra-mpantsaka 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,2 N",
     katra.Outcome(0, (2, 0), "no legal move"), [1.0, -1.0]),
    ("djenon-aboure 1,1,0,0,0,0/1,0,0,0,0,0 S stores=20,25",
     katra.Outcome(1, (21, 27), "board exhausted"), [-1.0, 1.0]),
    ("djenon-aboure 1,0,0,0,0,0/1,0,0,0,0,0 N stores=23,23",
     katra.Outcome(None, (24, 24), "board exhausted"), [0.0, 0.0]),
    ("gore 1,0,0,0/2,0,0,0 S stores=26,19 owners=NNNN/SSSS",
     katra.Outcome(0, (28, 20), "board exhausted"), [1.0, -1.0]),
])
def test_outcome_and_returns(backend, text, outcome, returns):
    s = State.from_text(text, backend=backend)
    assert s.is_terminal() and s.legal_actions() == [] and s.legal_moves.count() == 0
    assert s.outcome() == outcome
    assert s.returns() == returns
    assert s.current_player() == -4
    assert outcome.result() == {0: "1-0", 1: "0-1", None: "1/2-1/2"}[outcome.winner]
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winner = 0  # type: ignore[misc]
    with pytest.raises(IllegalMoveError, match="none, the game is over"):
        s.push(0)


# ---------------------------------------------------------------- bad input

# South is to move after 4 plies: a6 (30) and f6 (35) are North's holes.
BAD_MOVES = [-1, 36, 10**30, 3.0, None, True, [0], "z9", "hello", "", "a6", 30, 35, "a1+", b"a1"]


@pytest.mark.parametrize("move", BAD_MOVES, ids=repr)
def test_bad_moves_raise_and_change_nothing(backend, move):
    s = random_walk(katra.game("katro").initial_state(backend=backend), 4, 5)
    before = (s.text(), s.hash, s.ply, s.move_stack)
    legal = s.legal_actions()
    assert s.to_move == 0
    with pytest.raises(IllegalMoveError) as info:
        s.push(move)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert repr(move) in message
    assert "legal moves:" in message and s.action_text(legal[0]) in message
    assert (s.text(), s.hash, s.ply, s.move_stack) == before
    with pytest.raises(IllegalMoveError):
        s.child(move)
    with pytest.raises(IllegalMoveError):
        s.parse_move(move)
    assert s.is_legal(move) is False
    assert (s.text(), s.hash, s.ply, s.move_stack) == before


def test_malformed_gore_offer(backend):
    s = State.from_text("gore 6,6,6,6/6,6,6,6 S stores=20,20 owners=NNNN/SSSS", backend=backend)
    before = s.text()
    for move in ("offer:a1,b1,c1,d1", "offer:", "offer:a2", 8 + 0b1111, 8, "accept"):
        with pytest.raises(IllegalMoveError):
            s.push(move)
        assert s.text() == before
    s.push("offer:a1,c1")
    assert s.pending_offer == ("a1", "c1") and s.peek() == 8 + 0b101
    assert list(s.legal_moves) == ["accept", "decline"]


def test_numpy_integers_are_accepted(backend):
    s = katra.game("katro").initial_state(backend=backend)
    s.push(np.int64(2))
    assert s.move_stack == [2] and type(s.peek()) is int


# ---------------------------------------------------------------- interchange

@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_pickle_round_trip_is_compact(backend, game_id):
    s = random_walk(katra.game(game_id).initial_state(backend=backend), 40, 11)
    data = pickle.dumps(s)
    back = pickle.loads(data)
    assert back == s and back.text() == s.text() and back.hash == s.hash
    assert back.ply == s.ply and back.backend == backend
    assert back.move_stack == []  # the position, not the history
    fresh = State.from_text(s.text(), backend=backend, ply=s.ply)
    assert len(data) == len(pickle.dumps(fresh)) < 200 + len(s.text())


def test_repr_reconstructs(backend):
    s = random_walk(katra.game("gore").initial_state(backend=backend), 7, 2)
    text = repr(s)
    assert text.startswith("katra.State.from_text('gore ")
    back = eval(text, {"katra": katra})
    assert back == s and back.ply == s.ply and back.backend == backend
    assert repr(katra.game("katro").initial_state()) == f"katra.State.from_text({KATRO_START!r})"


def test_str_draws_the_board():
    s = State.from_text("gore 1,2,3,4/5,6,7,8 S stores=10,3 owners=NNSN/SSNS")
    assert str(s) == "\n".join([
        "North store: 3",
        "2 1n 2n 3s 4n",
        "1 5s 6s 7n 8s",
        "   a  b  c  d",
        "South store: 10",
        "South to move",
    ])
    k = State.from_text("katro-4x4 0,0,0,0/0,0,0,1/0,0,0,0/0,0,0,0 S")
    assert str(k).splitlines() == [
        "4  0  0  0  0",
        "3  0  0  0  1",
        "2  0  0  0  0",
        "1  0  0  0  0",
        "   a  b  c  d",
        "North won 0-1 (no legal move)",
    ]


def test_svg(backend):
    s = katra.game("gore").initial_state(backend=backend)
    picture = s._repr_svg_()
    assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
    assert picture.count("<circle") == 8 + 1  # holes and the to-move mark
    assert "#d62728\" stroke-width" not in picture  # no last move yet
    assert "#9c6b3c" in picture and "#f3e3c3" in picture  # both owners' tints
    s.push("b1")
    picture = s._repr_svg_()
    assert picture.count('stroke="#d62728"') == 1
    assert "<title>b1</title>" in picture
    for count in s.board:
        assert f">{count}</text>" in picture


# ---------------------------------------------------------------- records

@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_record_round_trip(backend, game_id):
    s = random_walk(katra.game(game_id).initial_state(backend=backend), 300, 13)
    record = s.record()
    back = State.from_record(record, backend=backend)
    assert back == s and back.move_stack == s.move_stack and back.ply == s.ply
    assert back.record() == record
    assert record.startswith(f"start: {katra.game(game_id).initial_state().text()}\n")


def test_records_many_and_their_format(backend):
    a = katra.game("katro-4x4").initial_state(backend=backend)
    a.push("a1")
    a.push("d4")
    b = State.from_text("djenon-aboure 1,1,0,0,0,0/1,0,0,0,0,0 S stores=20,25", backend=backend,
                        ply=90)
    text = katra.write_records([a, b])
    assert text == ("start: katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\n"
                    "moves: a1 d4\n"
                    "result: *\n"
                    "\n"
                    "start: djenon-aboure 1,1,0,0,0,0/1,0,0,0,0,0 S stores=20,25\n"
                    "ply: 90\n"
                    "moves:\n"
                    "result: 0-1\n")
    back = katra.read_records("# two games\n" + text, backend=backend)
    assert back == [a, b] and back[0].move_stack == [0, 15] and back[1].ply == 90


@pytest.mark.parametrize("record, problem", [
    ("start: katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nmoves: a1 a1\n", "move 2"),
    ("start: katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nresult: 1-0\n", "result"),
    ("moves: a1\n", "start"),
    ("start: katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nwho: me\n", "expected one of"),
    ("start: katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nply: -3\n", "ply"),
])
def test_bad_records(record, problem):
    with pytest.raises(ValueError, match=problem):
        katra.read_records(record)


@pytest.mark.parametrize("text", ["", "# only a comment\n\n",
                                  katra.write_records([katra.game("gore").initial_state()] * 2)])
def test_from_record_wants_one_record(text):
    with pytest.raises(katra.KatraError, match=r"expected one game record, found [02]"):
        State.from_record(text)


@pytest.mark.parametrize("ply", [10**18, MAX_START_PLY])
def test_a_record_reads_back_whatever_ply_a_state_starts_from(backend, ply):
    s = State.from_text("katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", backend=backend, ply=ply)
    s.push("a1")
    back = State.from_record(s.record(), backend=backend)
    assert back == s and back.ply == ply + 1 and back.record() == s.record()


def test_the_start_ply_is_checked_as_every_int_argument():
    text = "katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S"
    with pytest.raises(katra.ArgumentError, match=r"ply must be in 0\.\.2\*\*62, got -1"):
        State.from_text(text, ply=-1)
    with pytest.raises(katra.ArgumentError, match=r"ply must be in 0\.\.2\*\*62"):
        State.from_text(text, ply=MAX_START_PLY + 1)
    with pytest.raises(katra.ArgumentTypeError, match="ply must be an int, not bool"):
        State.from_text(text, ply=True)
    record = f"start: {text}\nply: {MAX_START_PLY + 1}\n"
    with pytest.raises(katra.KatraError, match=r"ply must be an integer in 0\.\.2\*\*62"):
        katra.read_records(record)


# ---------------------------------------------------------------- jobs

def test_perft_divide_playouts_take_states(backend):
    s = katra.game("katro").initial_state(backend=backend)
    assert s.perft(3) == katra.perft(s, 3) == katra.perft("katro", 3, backend=backend) == 168
    assert s.divide(2) == katra.divide(s, 2) == katra.divide(s.text(), 2)
    s.push("a1")
    assert s.perft(2) == katra.perft(s.text(), 2, backend=backend)
    tallies = katra.playouts(s, 20, seed=3, max_plies=200)
    assert tallies == katra.playouts(s.text(), 20, seed=3, max_plies=200, backend=backend)
    assert tallies == katra.playouts(s, 20, seed=3, max_plies=200, backend="core")
    assert s.move_stack == [0] and s.ply == 1  # jobs leave the state alone
    assert katra.api.load_position(s) == katra.api.load_position(s.text(), backend)


def test_jobs_take_game_names_and_aliases():
    assert katra.perft("Goré", 2) == katra.perft("gore", 2) == 16
    assert katra.api.load_position("Katra Mpantsaka").game_id == "katra-mpantsaka"
    with pytest.raises(UnknownGameError, match="known games"):
        katra.perft("chess", 1)
    with pytest.raises(katra.PositionError):
        katra.perft("katro 2,2/2,2 S", 1)


@pytest.mark.parametrize("job", [katra.perft, katra.divide, katra.playouts, katra.explain,
                                 katra.solve, katra.search, katra.analyse,
                                 katra.Engine().search, katra.Engine().analyse],
                         ids=lambda job: job.__qualname__)
def test_every_job_takes_the_position_first(job):
    """Every job's first parameter is ``position`` (a State, a game id or a position
    text), as docs/api.md writes the calls; given by keyword it is the same call."""
    import inspect
    assert next(iter(inspect.signature(job).parameters)) == "position"
    assert "state" not in inspect.signature(job).parameters
