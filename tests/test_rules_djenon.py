"""Djenon-aboure rules (docs/rules.md §5), worked out by hand from the rulebook.

Board (§1.1): flat index a1..f1 = 0..5, a2..f2 = 6..11; a position text lists
row 2 (a2..f2) first, then row 1 (a1..f1).  Sowing order (§5.1):
a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2, then a1.  A lap drops its first seed
back into the hole it was lifted from (§5.2).  Actions: origin 0..11, 12 pass.

Every expected position below was computed seed by seed from the rulebook,
not by running any implementation; the working is in the comments.
"""
import pytest

from helpers import after, assert_illegal
from katra._errors import IllegalMoveError

PASS = 12
INITIAL = "djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S stores=0,0"






def test_initial_position(impl):
    pos = impl.Position.initial("djenon-aboure")
    assert pos.text() == INITIAL
    assert pos.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert tuple(pos.stores) == (0, 0)
    assert pos.owners == [0] * 6 + [1] * 6
    north = impl.Position.from_text(INITIAL.replace(" S ", " N "))
    assert north.legal_actions() == [6, 7, 8, 9, 10, 11]


def test_first_move_a1_relays_four_laps_and_captures(impl):
    # Lap 1: a1 (4): a1 1, b1 5, c1 5, d1 4->5 (b=4): relay.
    # Lap 2: d1 (5): d1 1, e1 5, f1 5, f2 5, e2 4->5: relay.
    # Lap 3: e2 (5): e2 1, d2 5, c2 5, b2 5, a2 4->5: relay.
    # Lap 4: a2 (5): a2 1, a1 1->2, b1 5->6, c1 5->6, d1 1->2 (b=1): capture d1 (2);
    #        backward c1 holds 6: stop.  Move over.
    pos = impl.Position.initial("djenon-aboure")
    assert pos.lap_count(0) == 4
    assert pos.lap_count(0, 4) == 4
    assert pos.lap_count(0, 3) is None
    assert pos.text() == INITIAL  # lap_count does not move
    pos.apply(0)
    assert pos.text() == "djenon-aboure 1,5,5,5,1,5/2,6,6,0,5,5 N stores=2,0"
    assert pos.to_move == 1
    # North: a2 1 and e2 1 cannot start.
    assert pos.legal_actions() == [7, 8, 9, 11]


def test_second_move_b2_relays_four_laps(impl):
    # Lap 1: b2 (5): b2 1, a2 2, a1 3, b1 7, c1 6->7 (b=6): relay.
    # Lap 2: c1 (7): c1 1, d1 1, e1 6, f1 6, f2 6, e2 2, d2 5->6: relay.
    # Lap 3: d2 (6): d2 1, c2 6, b2 2, a2 3, a1 4, b1 7->8: relay.
    # Lap 4: b1 (8): b1 1, c1 2, d1 2, e1 7, f1 7, f2 7, e2 3, d2 1->2 (b=1):
    #        capture d2 (2); backward e2 holds 3: stop.
    text = "djenon-aboure 1,5,5,5,1,5/2,6,6,0,5,5 N stores=2,0"
    pos = impl.Position.from_text(text)
    assert pos.lap_count(7) == 4
    assert pos.lap_count(7, 3) is None
    pos.apply(7)
    assert pos.text() == "djenon-aboure 3,2,6,0,3,7/4,1,2,2,7,7 S stores=2,2"
    # b1 holds 1: not an origin.
    assert pos.legal_actions() == [0, 2, 3, 4, 5]


def test_first_move_b1(impl):
    # Lap 1: b1 (4): b1 1, c1 5, d1 5, e1 4->5: relay.
    # Lap 2: e1 (5): e1 1, f1 5, f2 5, e2 5, d2 4->5: relay.
    # Lap 3: d2 (5): d2 1, c2 5, b2 5, a2 5, a1 4->5: relay.
    # Lap 4: a1 (5): a1 1, b1 2, c1 6, d1 6, e1 1->2: capture 2; d1 6 stops.
    pos = impl.Position.initial("djenon-aboure")
    assert pos.lap_count(1) == 4
    pos.apply(1)
    assert pos.text() == "djenon-aboure 5,5,5,1,5,5/1,2,6,6,0,5 N stores=2,0"


def test_origin_needs_two_seeds_in_own_hole(impl):
    text = "djenon-aboure 2,2,2,2,2,2/1,0,3,1,2,0 S stores=15,14"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [2, 4]
    for bad in (0, 1, 3, 5, 6, 7, 11, PASS):
        assert not pos.is_legal(bad)
        assert_illegal(pos, bad)
    with pytest.raises(IllegalMoveError):
        pos.lap_count(0)  # one seed: not a sowing candidate
    with pytest.raises(IllegalMoveError):
        pos.lap_count(6)  # North's hole
    with pytest.raises(IllegalMoveError):
        pos.lap_count(PASS)


def test_landing_in_empty_hole_ends_move_first_seed_back_in_origin(impl):
    # b1 (2): b1 gets 1 back, c1 0->1 (b=0): the move ends.
    text = "djenon-aboure 3,3,3,3,3,3/1,2,0,3,1,1 S stores=10,12"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [1, 3]
    assert pos.lap_count(1) == 1
    pos.apply(1)
    assert pos.text() == "djenon-aboure 3,3,3,3,3,3/1,1,1,3,1,1 N stores=10,12"


def test_capture_of_four_then_backwards_only(impl):
    # a1 (3): a1 1, b1 1->2, c1 3->4 (b=3): capture c1 (4).  Backward: b1 2
    # captured, a1 1 stops.  d1 (2, forward) stays.  +6.
    text = "djenon-aboure 2,2,2,2,2,2/3,1,3,2,0,0 S stores=13,14"
    pos = impl.Position.from_text(text)
    assert pos.lap_count(0) == 1
    pos.apply(0)
    assert pos.text() == "djenon-aboure 2,2,2,2,2,2/1,0,0,2,0,0 N stores=19,14"


def test_capture_chain_backwards_across_both_rows(impl):
    # e1 (10): e1 1, f1 0->1, f2 0->1, e2 5->6, d2 2->3, c2 0->1, b2 3->4,
    # a2 1->2, a1 3->4, b1 1->2 (last, b=1): capture b1 (2).
    # Backward: a1 4, a2 2, b2 4 captured, c2 1 stops.  +12.
    text = "djenon-aboure 1,3,0,2,5,0/3,1,0,0,10,0 S stores=10,13"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [0, 4]
    assert pos.lap_count(4) == 1
    pos.apply(4)
    assert pos.text() == "djenon-aboure 0,0,1,3,6,1/0,0,0,0,1,1 N stores=22,13"
    assert pos.legal_actions() == [9, 10]


def test_north_captures_on_south_side_and_back(impl):
    # North c2 (4): c2 1, b2 1->2, a2 3->4, a1 1->2 (last, b=1): capture a1.
    # Backward: a2 4, b2 2 captured, c2 1 stops.  +8 for North.
    text = "djenon-aboure 3,1,4,2,0,0/1,2,3,0,0,0 N stores=16,16"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [6, 8, 9]
    pos.apply(8)
    assert pos.text() == "djenon-aboure 0,0,1,2,0,0/0,2,3,0,0,0 S stores=16,24"
    assert pos.legal_actions() == [1, 2]


def test_relay_when_landing_hole_held_two(impl):
    # Lap 1: a1 (2): a1 1, b1 2->3 (b=2): relay.
    # Lap 2: b1 (3): b1 1, c1 0->1, d1 0->1 (b=0): the move ends.
    text = "djenon-aboure 3,0,0,0,0,0/2,2,0,0,0,0 S stores=20,21"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [0, 1]
    assert pos.lap_count(0) == 2
    assert pos.lap_count(0, 2) == 2
    assert pos.lap_count(0, 1) is None
    pos.apply(0)
    assert pos.text() == "djenon-aboure 3,0,0,0,0,0/1,1,1,1,0,0 N stores=20,21"
    assert pos.legal_actions() == [6]


def test_relay_when_landing_hole_held_five(impl):
    # Lap 1: a1 (2): a1 1, b1 5->6 (b=5): relay.
    # Lap 2: b1 (6): b1 1, c1 1, d1 1, e1 1, f1 1, f2 0->1 (b=0): ends.
    text = "djenon-aboure 3,0,0,0,0,0/2,5,0,0,0,0 S stores=20,18"
    pos = after(impl, text, 0)
    assert pos.text() == "djenon-aboure 3,0,0,0,0,1/1,1,1,1,1,1 N stores=20,18"
    assert pos.legal_actions() == [6]


def test_thirteen_seeds_come_back_to_the_origin_and_capture_it(impl):
    # a1 (13): a1 1, then b1..f1, f2..a2 one each (11 seeds), then the 13th
    # into a1 again: a1 1->2 (b=1): capture a1 (2).  Backward a2 holds 1: stop.
    # Now no hole holds 2 or more: the game is over.
    # South 17+2 = 19 + b1..f1 5 = 24; North 18 + a2..f2 6 = 24: draw.
    text = "djenon-aboure 0,0,0,0,0,0/13,0,0,0,0,0 S stores=17,18"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [0]
    assert pos.lap_count(0) == 1
    pos.apply(0)
    assert pos.board[0] == 0
    assert sum(pos.board) + sum(pos.stores) == 48
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (-1, 24, 24)


def test_forced_pass_is_the_only_action(impl):
    # South's holes hold 0 or 1; North's b2 (3) and d2 (2) still hold 2+.
    text = "djenon-aboure 0,3,0,2,0,0/1,0,1,1,0,1 S stores=20,19"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [PASS]
    assert not pos.is_terminal()
    assert pos.outcome() is None
    for bad in (0, 2, 3, 5, 7):
        assert_illegal(pos, bad)
    pos.apply(PASS)
    assert pos.text() == "djenon-aboure 0,3,0,2,0,0/1,0,1,1,0,1 N stores=20,19"
    assert pos.legal_actions() == [7, 9]


def test_end_draw_24_24(impl):
    pos = impl.Position.from_text("djenon-aboure 1,1,1,0,0,0/0,0,0,1,1,1 S stores=21,21")
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (-1, 24, 24)
    assert_illegal(pos, PASS)


def test_end_south_wins_own_row_swept(impl):
    # South 22 + (a1 1, b1 1, d1 1, f1 1) = 26; North 21 + c2 1 = 22.
    pos = impl.Position.from_text("djenon-aboure 0,0,1,0,0,0/1,1,0,1,0,1 N stores=22,21")
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (0, 26, 22)


def test_move_that_ends_the_game_north_wins(impl):
    # b1 (2): b1 1, c1 0->1 (b=0).  No hole holds 2 any more: game over.
    # South 20 + b1 1 + c1 1 + e1 1 = 23; North 23 + b2 1 + f2 1 = 25.
    pos = after(impl, "djenon-aboure 0,1,0,0,0,1/0,2,0,0,1,0 S stores=20,23", 1)
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (1, 23, 25)


def test_illegal_actions_leave_position_unchanged(impl):
    pos = impl.Position.initial("djenon-aboure")
    for action in (6, 11, PASS, 13, -1, 100):
        assert_illegal(pos, action)
    for action in (6, 11, PASS, 13, -1):
        assert not pos.is_legal(action)
    for action in (True, False, "a1", 0.0, None):
        assert_illegal(pos, action)
        with pytest.raises(IllegalMoveError):
            pos.is_legal(action)
    with pytest.raises(ValueError):
        pos.lap_count(0, 0)
    assert pos.text() == INITIAL


def test_backward_capture_crosses_from_row_2_into_row_1(impl):
    # d1 (4): d1 1, e1 1->2, f1 3->4, f2 1->2 (last, b=1): capture f2 (2).
    # Backward: f1 4, e1 2 captured, d1 1 stops.  e2 (2), the hole after f2,
    # is not taken: captures only run backwards.  +8.
    text = "djenon-aboure 0,0,0,0,2,1/0,0,0,4,1,3 S stores=18,19"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [3, 5]
    pos.apply(3)
    assert pos.text() == "djenon-aboure 0,0,0,0,2,0/0,0,0,1,0,0 N stores=26,19"
    assert pos.legal_actions() == [10]
    # North e2 (2): e2 1, d2 0->1 (b=0).  No hole holds 2: game over.
    # South 26 + d1 1 = 27; North 19 + d2 1 + e2 1 = 21.
    pos.apply(10)
    assert pos.is_terminal()
    assert pos.outcome() == (0, 27, 21)


def test_perft_counts_passes(impl):
    # docs/rules.md §1.4: a pass is a ply like any other.
    forced = impl.Position.from_text("djenon-aboure 0,3,0,2,0,0/1,0,1,1,0,1 S stores=20,19")
    assert impl.perft(forced, 0) == 1
    assert impl.perft(forced, 1) == 1
    assert impl.perft(forced, 2) == 2
    assert impl.divide(forced, 2) == [(PASS, 2)]
    over = impl.Position.from_text("djenon-aboure 1,1,1,0,0,0/0,0,0,1,1,1 S stores=21,21")
    assert impl.perft(over, 0) == 1
    assert impl.perft(over, 1) == 0
    assert impl.perft(over, 3) == 0
    assert impl.perft(impl.Position.initial("djenon-aboure"), 1) == 6


def test_backward_capture_all_the_way_round(impl):
    # a1 (13): a1 1, b1..f1 and f2..a2 one each, then a1 1->2 (b=1): capture a1.
    # Every other hole held 1 or 3 and now holds 2 or 4: the backward run takes
    # a2, b2, ..., f2, f1, ..., b1 and stops at a1 (already emptied).  The whole
    # board (34 seeds) goes to South, and the game is over.
    text = "djenon-aboure 3,1,3,1,3,1/13,1,3,1,3,1 S stores=7,7"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [0, 2, 4]
    assert pos.lap_count(0) == 1
    pos.apply(0)
    assert pos.text() == "djenon-aboure 0,0,0,0,0,0/0,0,0,0,0,0 N stores=41,7"
    assert pos.is_terminal()
    assert pos.outcome() == (0, 41, 7)
