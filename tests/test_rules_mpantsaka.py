"""Katra Mpantsaka rules (docs/rules.md §1, §3), hand-worked position by position.

Every expected result below was worked out by hand from the rulebook, seed by
seed, not taken from an implementation.  Reminders used throughout (4 x 8):

* flat index ``i = (row - 1) * 8 + column``: South's back row 1 = 0..7, front
  row 2 = 8..15; North's front row 3 = 16..23, back row 4 = 24..31.  Position
  text lists row 4 / row 3 / row 2 / row 1.
* action ``2 * origin + d``: ``d = 0`` CCW (``+``), ``d = 1`` clockwise (``-``).
* South CCW: 0..7, 15..8, 0 ...  (row 1 rightwards, row 2 leftwards)
  South CW:  0, 8..15, 7..1, 0 ...
  North CCW (half turn of South's): 31..24, 16..23, 31 ...
  North CW:  31, 23..16, 24..30, 31 ...
* facing front-row holes: South ``x2`` (8 + c) <-> North ``x3`` (16 + c).
"""
import pytest

from helpers import legal, play
from katra._errors import IllegalMoveError
from katra._games import GAMES
from katra._text import parse_action

G = "katra-mpantsaka"
GS = "katra-mpantsaka-simplified"
Z = "0,0,0,0,0,0,0,0"
O = "1,1,1,1,1,1,1,1"  # noqa: E741  (Z, O, T: rows of zeros, ones, twos)
T = "2,2,2,2,2,2,2,2"
START = f"{G} {T}/{T}/{T}/{T} S"


def act(move, game=G):
    return parse_action(GAMES[game], move)






# ------------------------------------------------------------------ §3.2 origins

def test_south_front_row_start_only(impl):
    # Front row: b2 (9) and e2 (12); the full back row is not allowed.
    text = f"{G} {T}/{T}/0,3,0,0,1,0,0,0/{O} S"
    assert legal(impl, text) == [18, 19, 24, 25]
    # Front row empty: the back row, c1 (2) and h1 (7).
    assert legal(impl, f"{G} {T}/{T}/{Z}/0,0,3,0,0,0,0,1 S") == [4, 5, 14, 15]
    # Start: the eight front-row holes 8..15, both directions each.
    assert legal(impl, START) == list(range(16, 32))
    assert act("a2+") == 16 and act("a2-") == 17 and act("h2-") == 31


def test_north_front_row_start_only(impl):
    # North's front row is row 3: c3 (18), h3 (23).
    text = f"{G} {O}/0,0,2,0,0,0,0,1/{T}/{T} N"
    assert legal(impl, text) == [36, 37, 46, 47]
    # Front row empty: back row 4, b4 (25).
    assert legal(impl, f"{G} 0,3,0,0,0,0,0,0/{Z}/{T}/{T} N") == [50, 51]
    assert legal(impl, START[:-1] + "N") == list(range(32, 48))


def test_simplified_variant_any_own_hole(impl):
    # The same positions in the simplified variant: every non-empty own hole.
    assert legal(impl, f"{GS} {T}/{T}/0,3,0,0,1,0,0,0/{O} S") == \
        [*range(0, 16), 18, 19, 24, 25]
    assert legal(impl, f"{GS} {O}/0,0,2,0,0,0,0,1/{T}/{T} N") == \
        [36, 37, 46, 47, *range(48, 64)]
    assert legal(impl, f"{GS} {T}/{T}/{Z}/0,0,3,0,0,0,0,1 S") == [4, 5, 14, 15]
    assert legal(impl, f"{GS} {T}/{T}/{T}/{T} S") == list(range(0, 32))
    # A back-row start played out: e1+ (8) -> f1, g1 (g1 was empty: end).
    play(impl, f"{GS} {O}/{O}/0,0,3,0,0,0,0,0/0,0,0,0,2,0,0,0 S", "e1+",
         f"{GS} {O}/{O}/0,0,3,0,0,0,0,0/0,0,0,0,0,1,1,0 N")
    # ... which the full game refuses while the front row has seeds.
    pos = impl.Position.from_text(f"{G} {O}/{O}/0,0,3,0,0,0,0,0/0,0,0,0,2,0,0,0 S")
    assert pos.legal_actions() == [20, 21]
    with pytest.raises(IllegalMoveError):
        pos.apply(8)


def test_single_seed_may_move(impl):
    # South's only front seed, f2 (13): CCW to e2 (12), CW to g2 (14).
    before = f"{G} {O}/{O}/0,0,0,0,0,1,0,0/{O} S"
    assert legal(impl, before) == [26, 27]
    play(impl, before, "f2+", f"{G} {O}/{O}/0,0,0,0,1,0,0,0/{O} N")
    play(impl, before, "f2-", f"{G} {O}/{O}/0,0,0,0,0,0,1,0/{O} N")


# ------------------------------------------------------------------ §3.1 loops, both directions

def test_south_both_directions(impl):
    before = f"{G} {O}/{O}/0,0,3,0,0,0,0,0/{Z} S"
    # c2+ (20): b2, a2, then round to a1 (was empty: end).
    play(impl, before, "c2+", f"{G} {O}/{O}/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N")
    # c2- (21): d2, e2, f2.  f2 was empty: the move ends, although North's f3
    # holds a seed (an empty landing never captures).
    play(impl, before, "c2-", f"{G} {O}/{O}/0,0,0,1,1,1,0,0/{Z} N")
    before = f"{G} {O}/{O}/0,0,0,0,0,0,3,0/{Z} S"
    # g2- (29): h2, then round to h1, g1.
    play(impl, before, "g2-", f"{G} {O}/{O}/0,0,0,0,0,0,0,1/0,0,0,0,0,0,1,1 N")
    # g2+ (28): f2, e2, d2.
    play(impl, before, "g2+", f"{G} {O}/{O}/0,0,0,1,1,1,0,0/{Z} N")


def test_north_both_directions(impl):
    before = f"{G} {Z}/0,0,0,3,0,0,0,0/{O}/{O} N"
    # d3+ (38, North CCW runs rightwards in row 3): e3, f3, g3.
    play(impl, before, "d3+", f"{G} {Z}/0,0,0,0,1,1,1,0/{O}/{O} S")
    # d3- (39): c3, b3, a3.
    play(impl, before, "d3-", f"{G} {Z}/1,1,1,0,0,0,0,0/{O}/{O} S")
    before = f"{G} {Z}/0,3,0,0,0,0,3,0/{O}/{O} N"
    # b3- (35): a3, then round to a4 (24), b4 (25).
    play(impl, before, "b3-", f"{G} 1,1,0,0,0,0,0,0/1,0,0,0,0,0,3,0/{O}/{O} S")
    # g3+ (44): h3, then round to h4 (31), g4 (30).
    play(impl, before, "g3+", f"{G} 0,0,0,0,0,0,1,1/0,3,0,0,0,0,0,1/{O}/{O} S")


# ------------------------------------------------------------------ §3.3 relay / capture

def test_relay_when_facing_front_hole_empty(impl):
    # e2+ (24): d2 0->1, c2 1->2 (front row, not empty) but North's c3 is
    # empty (c4 = 5 in the back row does not count): relay 2 from c2 -> b2, a2.
    play(impl, f"{G} 5,5,5,5,5,5,5,5/1,1,0,1,1,1,1,1/0,0,1,0,2,0,0,0/{Z} S", "e2+",
         f"{G} 5,5,5,5,5,5,5,5/1,1,0,1,1,1,1,1/1,1,0,1,0,0,0,0/{Z} N")


def test_no_capture_when_landing_in_back_row(impl):
    # South a2+ (16): a1 0->1, b1 1->2 (back row: no capture although b3 has a
    # seed): relay 2 from b1 -> c1, d1 (end).
    play(impl, f"{G} {O}/{O}/2,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0 S", "a2+",
         f"{G} {O}/{O}/{Z}/1,0,1,1,0,0,0,0 N")
    # North a3- (33): a4 0->1, b4 1->2 (back row, South's b2 full): relay 2
    # from b4 -> c4, d4 (end).
    play(impl, f"{G} 0,1,0,0,0,0,0,0/2,0,0,0,0,0,0,0/{O}/{O} N", "a3-",
         f"{G} 1,0,1,1,0,0,0,0/{Z}/{O}/{O} S")


def test_south_capture(impl):
    # e2+ (24): d2 0->1, c2 1->2 in the front row; North's c3 = 3: lift 3 + 2
    # = 5, sow CCW from b2: b2, a2, a1, b1, c1 (c1 was empty: end).
    pos = play(impl, f"{G} {O}/0,0,3,0,0,0,0,0/0,0,1,0,2,0,0,0/{Z} S", "e2+",
               f"{G} {O}/{Z}/1,1,0,1,0,0,0,0/1,1,1,0,0,0,0,0 N")
    # North's front row is empty now: it must start from the back row.
    assert pos.legal_actions() == list(range(48, 64))


def test_south_capture_clockwise(impl):
    # e2- (25): f2 0->1, g2 1->2; North's g3 = 2: lift 4, sow CW from h2:
    # h2 (15), h1 (7), g1 (6), f1 (5) (f1 was empty: end).
    play(impl, f"{G} {Z}/1,0,0,0,0,0,2,0/0,0,0,0,2,0,1,0/{Z} S", "e2-",
         f"{G} {Z}/1,0,0,0,0,0,0,0/0,0,0,0,0,1,0,1/0,0,0,0,0,1,1,1 N")


def test_north_capture(impl):
    # d3+ (38): e3 0->1, f3 1->2 in North's front row; South's f2 = 2: lift 4,
    # sow North-CCW from g3: g3 (22), h3 (23), h4 (31), g4 (30) (end).
    play(impl, f"{G} {Z}/0,0,0,2,0,1,0,0/0,0,0,0,0,2,0,0/{O} N", "d3+",
         f"{G} 0,0,0,0,0,0,1,1/0,0,0,0,1,0,1,1/{Z}/{O} S")


def test_several_captures_in_one_move(impl):
    # h2+ (30), South CCW runs leftwards along row 2.
    # lap 1: g2 0->1, f2 1->2; North's f3 = 2: capture 4.
    # lap 2: e2, d2, c2 0->1, b2 1->2; North's b3 = 1: capture 3.
    # lap 3: a2 0->1, a1 0->1, b1 1->2 (back row): relay 2.
    # lap 4: c1 0->1, d1 0->1 (d1 was empty): end.
    before = f"{G} {O}/0,1,0,0,0,2,0,0/0,1,0,0,0,1,0,2/0,1,0,0,0,0,0,0 S"
    after = f"{G} {O}/{Z}/1,0,1,1,1,0,1,0/1,0,1,1,0,0,0,0 N"
    pos = impl.Position.from_text(before)
    h2p = act("h2+")
    assert pos.legal_actions() == [18, 19, 26, 27, 30, 31]
    assert pos.lap_count(h2p) == 4
    assert pos.lap_count(h2p, 4) == 4
    assert pos.lap_count(h2p, 3) is None
    assert pos.text() == before
    pos = play(impl, before, "h2+", after)
    assert not pos.is_terminal()
    assert pos.legal_actions() == list(range(48, 64))
    # Without the seed on b1 the move ends after 3 laps, on b1.
    before = f"{G} {O}/0,1,0,0,0,2,0,0/0,1,0,0,0,1,0,2/{Z} S"
    assert impl.Position.from_text(before).lap_count(h2p) == 3
    assert impl.Position.from_text(before).lap_count(h2p, 2) is None
    play(impl, before, "h2+", f"{G} {O}/{Z}/1,0,1,1,1,0,1,0/1,1,0,0,0,0,0,0 N")



def test_lap_of_sixteen_or_more_passes_emptied_origin(impl):
    # c2- with 16 seeds: one into each of South's 16 holes, the last into c2
    # itself (emptied, so the move ends).  North's c3 is not captured.
    play(impl, f"{G} {O}/{O}/0,0,16,0,0,0,0,0/{Z} S", "c2-",
         f"{G} {O}/{O}/{O}/{O} N")
    # North e3+ (40) with 16 seeds, on top of other seeds: each North hole + 1.
    play(impl, f"{G} 0,1,0,2,0,0,0,3/0,0,0,0,16,0,4,0/{O}/{O} N", "e3+",
         f"{G} 1,2,1,3,1,1,1,4/1,1,1,1,1,1,5,1/{O}/{O} S")

# ------------------------------------------------------------------ §3.4 end

def test_capturing_the_last_seeds_wins(impl):
    # As test_south_capture, but c3 holds all of North's seeds.
    pos = play(impl, f"{G} {Z}/0,0,3,0,0,0,0,0/0,0,1,0,2,0,0,0/{Z} S", "e2+",
               f"{G} {Z}/{Z}/1,1,0,1,0,0,0,0/1,1,1,0,0,0,0,0 N")
    assert pos.legal_actions() == []
    assert pos.is_terminal()
    assert pos.outcome() == (0, 6, 0)


def test_player_without_seeds_loses(impl):
    for game in (G, GS):
        pos = impl.Position.from_text(f"{game} {O}/0,2,0,0,0,0,0,0/{Z}/{Z} S")
        assert pos.legal_actions() == []
        assert pos.is_terminal()
        assert pos.outcome() == (1, 0, 10)
        pos = impl.Position.from_text(f"{game} {Z}/{Z}/{Z}/0,0,0,3,0,0,0,0 N")
        assert pos.is_terminal()
        assert pos.outcome() == (0, 3, 0)
        pos = impl.Position.from_text(f"{game} {T}/{T}/{T}/{T} S")
        assert not pos.is_terminal()
        assert pos.outcome() is None


def test_total_seeds_constant_in_play(impl):
    for game in (G, GS):
        pos = impl.Position.from_text(f"{game} {T}/{T}/{T}/{T} S")
        state = 12345
        for _ in range(200):
            actions = pos.legal_actions()
            if not actions:
                break
            assert actions == sorted(actions)
            front = range(8, 16) if pos.to_move == 0 else range(16, 24)
            back = range(0, 8) if pos.to_move == 0 else range(24, 32)
            if game == GS:
                allowed = [i for i in (*front, *back) if pos.board[i]]
            else:
                allowed = [i for i in front if pos.board[i]] or [i for i in back if pos.board[i]]
            assert {a // 2 for a in actions} <= set(allowed)
            state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
            pos.apply(actions[(state >> 33) % len(actions)])
            assert sum(pos.board) == 64


# ------------------------------------------------------------------ rejections

def test_illegal_actions_rejected_position_unchanged(impl):
    cases = [
        (START, [0, 1, 14, 15, 32, 33, 63, -1, 64, 10 ** 20]),   # back row, North's, out of range
        # empty front holes, back
        (f"{G} {O}/{O}/0,0,3,0,0,0,0,0/{O} S", [16, 17, 18, 19, 0, 8, 9]),
        (f"{G} {O}/0,0,2,0,0,0,0,1/{T}/{T} N", [32, 33, 48, 49, 20, 21]),
        (f"{G} {O}/0,2,0,0,0,0,0,0/{Z}/{Z} S", [16, 17, 0, 1]),  # terminal
        (f"{GS} {O}/{O}/0,0,3,0,0,0,0,0/0,0,0,0,2,0,0,0 S", [0, 1, 16, 17, 32, 64]),
    ]
    for text, actions in cases:
        pos = impl.Position.from_text(text)
        for action in actions:
            with pytest.raises(IllegalMoveError):
                pos.apply(action)
            assert pos.text() == text
            if 0 <= action < 64:
                assert pos.is_legal(action) is False
    pos = impl.Position.from_text(START)
    for bad in (True, False, "c2+", None, 20.0, (20,)):
        with pytest.raises(IllegalMoveError):
            pos.apply(bad)
        assert pos.text() == START
    with pytest.raises(IllegalMoveError):
        pos.is_legal("c2+")
    assert pos.is_legal(20) is True
    for action in (0, 1, 32, 64, -1):   # not sowing candidates
        with pytest.raises(IllegalMoveError):
            pos.lap_count(action)
    with pytest.raises(IllegalMoveError):
        act("c2")
    assert pos.text() == START


# ------------------------------------------------------------------ §1.3 lap limit

def _mpantsaka_move_cycles(text, action, max_laps=100_000):
    """A tiny independent sowing loop for §3.3: (first lap, repeating lap) of a
    repeated lap-start state, None if the move ends, "unfinished" if neither
    happens within ``max_laps`` laps."""
    _, rows_text, side = text.split()
    board = [0] * 32
    for k, row_text in enumerate(rows_text.split("/")):
        r = 3 - k
        board[r * 8:(r + 1) * 8] = [int(x) for x in row_text.split(",")]
    me = "SN".index(side)
    ccw = list(range(0, 8)) + list(range(15, 7, -1))
    path = ccw if action % 2 == 0 else [ccw[0], *ccw[:0:-1]]
    if me == 1:
        path = [31 - i for i in path]
    front = range(8, 16) if me == 0 else range(16, 24)
    origin = action // 2
    k = path.index(origin)
    hand, board[origin] = board[origin], 0
    seen = {}
    for lap in range(1, max_laps + 1):
        state = (tuple(board), k, hand)
        if state in seen:
            return seen[state], lap
        seen[state] = lap
        while hand:
            k = (k + 1) % 16
            board[path[k]] += 1
            hand -= 1
        h = path[k]
        if board[h] == 1:
            return None
        facing = h + 8 if me == 0 else h - 8
        if h in front and board[facing]:
            hand, board[facing], board[h] = board[facing] + board[h], 0, 0
            seen = {}
        else:
            hand, board[h] = board[h], 0
    return "unfinished"


def test_never_ending_move_is_not_legal(impl):
    text = f"{G} 0,1,4,4,1,3,3,0/1,3,0,0,0,1,3,3/1,5,0,1,2,2,3,5/1,0,4,1,4,1,2,5 S"
    g2p = act("g2+")
    assert g2p == 28
    # g2+ has not ended after 10,000 laps: it would need a 10,001st (§1.3).
    assert _mpantsaka_move_cycles(text, g2p, max_laps=10_000) == "unfinished"
    assert _mpantsaka_move_cycles(text, act("g2-")) is None
    pos = impl.Position.from_text(text)
    actions = pos.legal_actions()
    assert g2p not in actions
    assert act("g2-") in actions
    assert pos.is_legal(g2p) is False
    assert pos.lap_count(g2p) is None
    assert pos.lap_count(g2p, 1) is None
    with pytest.raises(IllegalMoveError):
        pos.apply(g2p)
    assert pos.text() == text
    # every other candidate (front-row origin) ends, and is listed
    expected = [a for a in range(16, 32)
                if pos.board[a // 2] and _mpantsaka_move_cycles(text, a) is None]
    assert actions == expected


def test_cycle_helper_agrees_with_hand_worked_moves(impl):
    assert _mpantsaka_move_cycles(
        f"{G} {O}/0,1,0,0,0,2,0,0/0,1,0,0,0,1,0,2/0,1,0,0,0,0,0,0 S", 30) is None
    assert _mpantsaka_move_cycles(f"{G} {Z}/0,0,0,2,0,1,0,0/0,0,0,0,0,2,0,0/{O} N", 38) is None
