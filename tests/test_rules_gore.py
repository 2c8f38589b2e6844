"""Goré rules (docs/rules.md §4), worked out by hand from the rulebook.

Board (§1.1): flat index a1=0 b1=1 c1=2 d1=3 a2=4 b2=5 c2=6 d2=7; a position
text lists row 2 (a2..d2) first, then row 1 (a1..d1).  Sowing order (§4.1):
a1 b1 c1 d1 d2 c2 b2 a2, then a1 again.  Actions (§1.5): sow 0..7, offer
8 + mask, 264 pass, 265 accept, 266 decline.

Every expected position below was computed seed by seed from the rulebook,
not by running any implementation; the working is in the comments.
"""
import pytest

from helpers import after, assert_illegal
from katra._errors import IllegalMoveError

PASS, ACCEPT, DECLINE = 264, 265, 266
OWNERS0 = "owners=NNNN/SSSS"
INITIAL = "gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS"


def offer(*squares):
    """The offer action for square indices."""
    return 8 + sum(1 << i for i in squares)






# ---------------------------------------------------------------- sowing

def test_initial_position_sows_own_row_only_and_no_offer_without_stores(impl):
    pos = impl.Position.initial("gore")
    assert pos.text() == INITIAL
    assert pos.to_move == 0
    assert tuple(pos.stores) == (0, 0)
    assert pos.owners == [0, 0, 0, 0, 1, 1, 1, 1]
    assert pos.pending_offer == 0
    # North's store is 0 < 6: no offer is legal; South owns a1..d1.
    assert pos.legal_actions() == [0, 1, 2, 3]
    assert not pos.is_terminal()
    assert pos.outcome() is None


def test_first_move_b1_single_lap_no_capture(impl):
    # b1 (6 seeds) -> c1 d1 d2 c2 b2 a2, one each; lands in a2 (North's) = 7.
    pos = after(impl, INITIAL, 1)
    assert pos.text() == "gore 7,7,7,7/6,0,7,7 N stores=0,0 owners=NNNN/SSSS"
    assert pos.to_move == 1
    # North owns a2..d2 (indices 4..7), South's store is 0: no offers.
    assert pos.legal_actions() == [4, 5, 6, 7]


def test_north_sows_and_lands_in_own_hole(impl):
    # North a2 (7) -> a1 b1 c1 d1 d2 c2 b2; lands in b2 (North's own): no capture.
    pos = after(impl, "gore 7,7,7,7/6,0,7,7 N stores=0,0 owners=NNNN/SSSS", 4)
    assert pos.text() == "gore 0,8,8,8/7,1,8,8 S stores=0,0 owners=NNNN/SSSS"
    assert pos.legal_actions() == [0, 1, 2, 3]


def test_sowing_from_owned_holes_after_trades_not_by_row(impl):
    # owners row 2 "NNSN": a2 N, b2 N, c2 S, d2 N; row 1 "SNSS": a1 S, b1 N, c1 S, d1 S.
    text = "gore 3,3,2,3/0,4,3,5 S stores=0,0 owners=NNSN/SNSS"
    pos = impl.Position.from_text(text)
    assert pos.owners == [0, 1, 0, 0, 1, 1, 0, 1]
    # South owns a1 (empty), c1, d1, c2; stores 0 -> no offers.
    assert pos.legal_actions() == [2, 3, 6]
    north = impl.Position.from_text(text.replace(" S ", " N "))
    # North owns b1, a2, b2, d2.
    assert north.legal_actions() == [1, 4, 5, 7]
    for bad in (0, 1, 4, 5, 7):
        assert not pos.is_legal(bad)
        assert_illegal(pos, bad)


def test_sowing_a_south_owned_hole_in_row_2(impl):
    # South c2 (2) -> b2 (3->4), a2 (3->4, last, North's): capture a2 (4).
    # Forward from a2: a1 = 0 stops.  Backward: b2 = 4 captured, c2 = 0 stops.
    pos = after(impl, "gore 3,3,2,3/0,4,3,5 S stores=0,0 owners=NNSN/SNSS", 6)
    assert pos.text() == "gore 0,0,0,3/0,4,3,5 N stores=8,0 owners=NNSN/SNSS"


def test_lap_of_nine_drops_into_emptied_hole_and_own_landing_never_captures(impl):
    # a1 (9) -> b1 c1 d1 d2 c2 b2 a2 a1 b1: a1 gets the 8th seed, b1 gets 2.
    # Lands in b1 (South's own, 1+2 = 3): no capture, though every other
    # hole now holds 2.
    pos = after(impl, "gore 1,1,1,1/9,1,1,1 S stores=0,0 owners=NNNN/SSSS", 0)
    assert pos.text() == "gore 2,2,2,2/1,3,2,2 N stores=0,0 owners=NNNN/SSSS"
    assert not pos.is_terminal()


def test_lap_of_twelve_with_capture_chains_both_ways(impl):
    # a1 (12) -> b1 c1 d1 d2 c2 b2 a2 a1 b1 c1 d1 d2:
    # b1 5->7, c1 2->4, d1 0->2, d2 0->2 (last), c2 1->2, b2 3->4, a2 0->1, a1 0->1.
    # d2 is North's and holds 2: captured.  Forward c2 2, b2 4, a2 1 stops.
    # Backward d1 2, c1 4, b1 7 stops.  Store 2+2+4+2+4 = 14.
    pos = after(impl, "gore 0,3,1,0/12,5,2,0 S stores=0,0 owners=NNNN/SSSS", 0)
    assert pos.text() == "gore 1,0,0,0/1,7,0,0 N stores=14,0 owners=NNNN/SSSS"
    assert tuple(pos.stores) == (14, 0)
    assert pos.board == [1, 7, 0, 0, 1, 0, 0, 0]


# ---------------------------------------------------------------- captures

def test_capture_of_exactly_two_in_landing_hole(impl):
    # d1 (1) -> d2 (1->2, North's): capture 2.  Forward c2 = 3 stops;
    # backward d1 = 0 (just emptied) stops.
    pos = after(impl, "gore 5,5,3,1/5,5,5,1 S stores=0,0 owners=NNNN/SSSS", 3)
    assert pos.text() == "gore 5,5,3,0/5,5,5,0 N stores=2,0 owners=NNNN/SSSS"


def test_capture_of_four_with_backward_chain_through_own_hole(impl):
    # c1 (2) -> d1 (1->2), d2 (3->4, last, North's): capture 4.
    # Forward: c2 2, b2 4 captured, a2 1 stops.
    # Backward: d1 2 captured (South's own hole: whoever owns it), c1 0 stops.
    pos = after(impl, "gore 1,4,2,3/5,5,2,1 S stores=0,0 owners=NNNN/SSSS", 2)
    assert pos.text() == "gore 1,0,0,0/5,5,0,0 N stores=12,0 owners=NNNN/SSSS"


def test_forward_chain_runs_through_movers_own_holes(impl):
    # d1 (4) -> d2 0->1, c2 0->1, b2 5->6, a2 1->2 (last, North's): capture 2.
    # Forward: a1 2, b1 4 (South's own) captured, c1 3 stops.
    # Backward: b2 6 stops.  Store 2+2+4 = 8.
    pos = after(impl, "gore 1,5,0,0/2,4,3,4 S stores=0,0 owners=NNNN/SSSS", 3)
    assert pos.text() == "gore 0,6,1,1/0,0,3,0 N stores=8,0 owners=NNNN/SSSS"


def test_north_capture_on_south_side(impl):
    # North b2 (2) -> a2 0->1, a1 1->2 (last, South's): capture 2.
    # Forward: b1 4 captured, c1 3 stops.  Backward: a2 1 stops.
    pos = after(impl, "gore 0,2,5,5/1,4,3,5 N stores=0,0 owners=NNNN/SSSS", 5)
    assert pos.text() == "gore 1,0,5,5/0,0,3,5 S stores=0,6 owners=NNNN/SSSS"


def test_landing_in_own_hole_of_row_2_captures_nothing(impl):
    # South owns d2 (owners row 2 "NNNS").  d1 (1) -> d2 (1->2): the landing
    # hole is the mover's own, so nothing is captured although it holds 2 and
    # c2 holds 2.
    text = "gore 3,3,2,1/3,3,3,1 S stores=0,0 owners=NNNS/SSSS"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [0, 1, 2, 3, 7]
    pos.apply(3)
    assert pos.text() == "gore 3,3,2,2/3,3,3,0 N stores=0,0 owners=NNNS/SSSS"


def test_landing_in_opponent_hole_of_row_1_captures(impl):
    # North owns b1 (owners row 1 "SNSS").  South a1 (1) -> b1 (3->4): capture.
    # Forward c1 2 (South's own) captured, d1 5 stops.  Backward a1 0 stops.
    pos = after(impl, "gore 3,3,3,3/1,3,2,5 S stores=0,0 owners=NNNN/SNSS", 0)
    assert pos.text() == "gore 3,3,3,3/0,0,0,5 N stores=6,0 owners=NNNN/SNSS"


@pytest.mark.parametrize("d2_before", [0, 2, 4, 5])
def test_no_capture_when_landing_hole_not_2_or_4(impl, d2_before):
    # d1 (1) -> d2 (North's), which then holds 1, 3, 5 or 6: no capture at all,
    # although c2 holds 2 and b2 holds 4.
    text = f"gore 3,4,2,{d2_before}/3,3,3,1 S stores=0,0 owners=NNNN/SSSS"
    pos = after(impl, text, 3)
    assert pos.text() == (f"gore 3,4,2,{d2_before + 1}/3,3,3,0 N stores=0,0 "
                          "owners=NNNN/SSSS")


def test_chains_never_pass_the_landing_hole_again(impl):
    # d1 (17) goes round twice and one more: d2 +3, every other hole +2.
    # After: d1 2, d2 1+3 = 4 (last, North's), c2 4, b2 2, a2 4, a1 2, b1 4, c1 2.
    # Capture d2; the forward run takes c2 b2 a2 a1 b1 c1 d1 and stops at d2;
    # the backward run finds d1 already taken.  Exactly 24 seeds captured
    # (nothing counted twice), the board is empty, and North, about to take a
    # normal turn with every hole < 3, finds the game over.
    pos = after(impl, "gore 2,0,2,1/0,2,0,17 S stores=0,0 owners=NNNN/SSSS", 3)
    assert pos.board == [0] * 8
    assert tuple(pos.stores) == (24, 0)
    assert pos.text() == "gore 0,0,0,0/0,0,0,0 N stores=24,0 owners=NNNN/SSSS"
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (0, 24, 0)


# ---------------------------------------------------------------- offers

def test_offer_sizes_follow_the_opponent_store(impl):
    base = "gore 6,6,6,6/6,6,6,6 S stores=0,{} owners=NNNN/SSSS"
    sows = [0, 1, 2, 3]
    # South owns a1..d1 (bits 0..3); an offer must keep one hole, so at most 3.
    one = sorted(8 + m for m in (1, 2, 4, 8))
    up_to_two = sorted(8 + m for m in range(1, 16) if bin(m).count("1") <= 2)
    up_to_three = [8 + m for m in range(1, 15)]  # every mask but 0b1111
    assert impl.Position.from_text(base.format(5)).legal_actions() == sows
    assert impl.Position.from_text(base.format(6)).legal_actions() == sows + one
    assert impl.Position.from_text(base.format(11)).legal_actions() == sows + one
    assert impl.Position.from_text(base.format(12)).legal_actions() == sows + up_to_two
    assert impl.Position.from_text(base.format(17)).legal_actions() == sows + up_to_two
    assert impl.Position.from_text(base.format(18)).legal_actions() == sows + up_to_three
    assert impl.Position.from_text(base.format(40)).legal_actions() == sows + up_to_three
    assert up_to_two == [9, 10, 11, 12, 13, 14, 16, 17, 18, 20]


def test_offers_of_empty_holes_after_a_capture(impl):
    # North owns a2 (1 seed) and the empty b2 c2 d2; South's store 12 allows
    # offers of 1 or 2 holes, empty ones included.
    pos = impl.Position.from_text("gore 1,0,0,0/5,5,0,0 N stores=12,0 owners=NNNN/SSSS")
    expected = [4,
                offer(4), offer(5), offer(4, 5), offer(6), offer(4, 6), offer(5, 6),
                offer(7), offer(4, 7), offer(5, 7), offer(6, 7)]
    assert expected == [4, 24, 40, 56, 72, 88, 104, 136, 152, 168, 200]
    assert pos.legal_actions() == expected


def test_offer_must_keep_a_hole(impl):
    # South owns only a1 (empty) and d1 (3); North's store 18 would pay for 3
    # holes, but offering both would leave South no hole.
    pos = impl.Position.from_text("gore 6,6,6,6/0,6,6,3 S stores=0,18 owners=NNNN/SNNS")
    assert pos.legal_actions() == [3, offer(0), offer(3)]
    assert_illegal(pos, offer(0, 3))
    assert_illegal(pos, offer(1))  # b1 is North's
    assert_illegal(pos, offer(0, 1))


def test_offer_flips_turn_then_accept_moves_holes_and_seeds(impl):
    pos = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 S stores=0,12 owners=NNNN/SSSS")
    pos.apply(offer(0, 2))  # offer:a1,c1 = 8 + 5
    assert pos.text() == "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,c1"
    assert pos.to_move == 1
    assert pos.pending_offer == 0b101
    assert pos.legal_actions() == [ACCEPT, DECLINE]
    assert not pos.is_terminal()
    assert pos.outcome() is None
    # accept: a1 and c1 become North's, 6 seeds from North's store into each;
    # North (the acceptor) then takes its normal turn.
    pos.apply(ACCEPT)
    assert pos.text() == "gore 6,6,6,6/12,6,12,6 N stores=0,0 owners=NNNN/NSNS"
    assert pos.to_move == 1
    assert pos.pending_offer == 0
    assert pos.owners == [1, 0, 1, 0, 1, 1, 1, 1]
    # North owns a1 c1 a2 b2 c2 d2; South's store is 0: no offers.
    assert pos.legal_actions() == [0, 2, 4, 5, 6, 7]
    # North sows its new hole a1 (12): b1 c1 d1 d2 get 2, c2 b2 a2 a1 get 1;
    # lands in d2, North's own: no capture.
    pos.apply(0)
    assert pos.text() == "gore 7,7,7,8/1,8,14,8 S stores=0,0 owners=NNNN/NSNS"
    assert pos.legal_actions() == [1, 3]


def test_decline_changes_nothing_but_the_offer(impl):
    text = "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,c1"
    pos = impl.Position.from_text(text)
    assert pos.text() == text
    assert pos.pending_offer == 5
    pos.apply(DECLINE)
    # The decliner (North) takes its normal turn; South's store 0: no offers.
    assert pos.text() == "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS"
    assert pos.to_move == 1
    assert pos.pending_offer == 0
    assert pos.legal_actions() == [4, 5, 6, 7]


def test_north_offer_answered_by_south(impl):
    pos = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 N stores=18,0 owners=NNNN/SSSS")
    assert pos.legal_actions() == [4, 5, 6, 7] + [8 + (m << 4) for m in range(1, 15)]
    pos.apply(offer(4, 5, 7))  # offer:a2,b2,d2
    assert pos.text() == "gore 6,6,6,6/6,6,6,6 S stores=18,0 owners=NNNN/SSSS offer=a2,b2,d2"
    assert pos.legal_actions() == [ACCEPT, DECLINE]
    pos.apply(ACCEPT)
    assert pos.text() == "gore 12,12,6,12/6,6,6,6 S stores=0,0 owners=SSNS/SSSS"
    assert pos.legal_actions() == [0, 1, 2, 3, 4, 5, 7]


def test_answerer_without_seeds_accepts_or_declines_then_passes(impl):
    text = "gore 0,0,0,0/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [ACCEPT, DECLINE]
    declined = pos.copy()
    declined.apply(DECLINE)
    assert declined.text() == "gore 0,0,0,0/6,6,6,6 N stores=0,12 owners=NNNN/SSSS"
    assert declined.legal_actions() == [PASS]
    pos.apply(ACCEPT)
    assert pos.text() == "gore 0,0,0,0/12,6,6,6 N stores=0,6 owners=NNNN/NSSS"
    assert pos.legal_actions() == [0]


# ---------------------------------------------------------------- pass and end

def test_forced_pass_when_owning_no_seeds(impl):
    # South owns four empty holes; North's store would pay for offers, but a
    # player with no seeds may only pass.
    pos = impl.Position.from_text("gore 3,3,3,3/0,0,0,0 S stores=0,18 owners=NNNN/SSSS")
    assert pos.legal_actions() == [PASS]
    assert not pos.is_terminal()
    pos.apply(PASS)
    assert pos.text() == "gore 3,3,3,3/0,0,0,0 N stores=0,18 owners=NNNN/SSSS"
    assert pos.legal_actions() == [4, 5, 6, 7]


def test_end_when_every_hole_below_three_draw(impl):
    # South owns 1+2+2+0 = 5, North 2+1+0+2 = 5: 19+5 = 24 each: draw.
    pos = impl.Position.from_text("gore 2,1,0,2/1,2,2,0 S stores=19,19 owners=NNNN/SSSS")
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (-1, 24, 24)


def test_end_sweep_uses_owners_not_rows(impl):
    # owners row 2 "NSNN": a2 N, b2 S, c2 N, d2 N; row 1 "SSNS": a1 S, b1 S, c1 N, d1 S.
    # South: b2 1 + a1 1 + b1 2 + d1 0 = 4 -> 24; North: a2 2 + c2 0 + d2 2 + c1 2 = 6 -> 26.
    pos = impl.Position.from_text("gore 2,1,0,2/1,2,2,0 N stores=20,20 owners=NSNN/SSNS")
    assert pos.is_terminal()
    assert pos.outcome() == (1, 24, 26)


def test_end_beats_forced_pass(impl):
    # South owns no seeds, but every hole holds < 3: the game is over, no pass.
    pos = impl.Position.from_text("gore 2,2,1,0/0,0,0,0 S stores=25,18 owners=NNNN/SSSS")
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (0, 25, 23)
    assert_illegal(pos, PASS)


def test_game_ends_after_a_capture_leaves_small_holes(impl):
    # Not over yet (c1 holds 3); North's store 18 allows offers of 1..3 holes.
    text = "gore 1,1,1,1/1,1,3,1 S stores=20,18 owners=NNNN/SSSS"
    pos = impl.Position.from_text(text)
    assert pos.legal_actions() == [0, 1, 2, 3] + [8 + m for m in range(1, 15)]
    # c1 (3) -> d1 1->2, d2 1->2, c2 1->2 (last, North's): capture.
    # Forward b2 1 stops; backward d2 2, d1 2 captured, c1 0 stops: +6.
    # Left: a2 1, b2 1 (North), a1 1, b1 1 (South); all < 3: game over.
    pos.apply(2)
    assert pos.stores[0] + pos.stores[1] + sum(pos.board) == 48
    assert pos.is_terminal()
    assert pos.legal_actions() == []
    assert pos.outcome() == (0, 28, 20)


def test_pending_offer_is_never_terminal(impl):
    # Only c1 holds 3 or more; with the offer pending the game goes on.
    pos = impl.Position.from_text("gore 2,2,2,2/0,2,3,1 N stores=10,6 owners=NNNN/SSSS offer=a1")
    assert not pos.is_terminal()
    assert pos.outcome() is None
    assert pos.legal_actions() == [ACCEPT, DECLINE]
    # accept: a1 gets 6 -> North's turn, a1 (6), a2..d2 sowable.
    pos.apply(ACCEPT)
    assert pos.text() == "gore 2,2,2,2/6,2,3,1 N stores=10,0 owners=NNNN/NSSS"
    assert pos.legal_actions() == [0, 4, 5, 6, 7] + [offer(i) for i in (0, 4, 5, 6, 7)]


# ---------------------------------------------------------------- illegal actions

def test_illegal_actions_leave_position_unchanged(impl):
    pos = impl.Position.initial("gore")
    for action in (4, 7, PASS, ACCEPT, DECLINE, offer(0), offer(0, 1), 267, -1, 1000):
        assert_illegal(pos, action)
        if isinstance(action, int) and 0 <= action:
            assert not pos.is_legal(action)
    for action in (True, False, "a1", 1.0, None):
        assert_illegal(pos, action)
        with pytest.raises(IllegalMoveError):
            pos.is_legal(action)
    # offer of four holes (mask 15) is outside the offer actions
    rich = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 S stores=0,30 owners=NNNN/SSSS")
    assert_illegal(rich, offer(0, 1, 2, 3))
    assert_illegal(rich, offer(4))  # North's hole
    # sowing an empty own hole
    empty = impl.Position.from_text("gore 6,6,6,6/0,6,6,6 S stores=0,0 owners=NNNN/SSSS")
    assert empty.legal_actions() == [1, 2, 3]
    assert_illegal(empty, 0)


def test_only_answers_while_offer_pending(impl):
    pos = impl.Position.from_text(
        "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,c1")
    for action in (4, 5, 6, 7, 0, PASS, offer(4), offer(5, 6)):
        assert not pos.is_legal(action)
        assert_illegal(pos, action)
    assert pos.is_legal(ACCEPT) and pos.is_legal(DECLINE)


def test_no_offer_with_a_single_hole(impl):
    # South owns only d1: an offer would leave it no hole, whatever North's store.
    pos = impl.Position.from_text("gore 6,6,6,6/6,6,6,3 S stores=0,40 owners=NNNN/NNNS")
    assert pos.legal_actions() == [3]
    assert_illegal(pos, offer(3))


def test_perft_counts_offers_answers_and_passes(impl):
    # docs/rules.md §1.4.  From the start every South sow lands with 7 seeds in a
    # North hole (no capture), South's store stays 0, so North has 4 sows.
    start = impl.Position.initial("gore")
    assert impl.perft(start, 1) == 4
    assert impl.perft(start, 2) == 16
    # Pending offer: accept (then North has 6 sows, no offers: South's store
    # is 0) or decline (then North has 4 sows): 2 plies, then 6 + 4.
    pending = impl.Position.from_text(
        "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,c1")
    assert impl.perft(pending, 1) == 2
    assert impl.perft(pending, 2) == 10
    assert impl.divide(pending, 2) == [(ACCEPT, 6), (DECLINE, 4)]
    # A forced pass is one ply.
    forced = impl.Position.from_text("gore 3,3,3,3/0,0,0,0 S stores=0,18 owners=NNNN/SSSS")
    assert impl.perft(forced, 1) == 1
    assert impl.perft(forced, 2) == 4
    over = impl.Position.from_text("gore 2,1,0,2/1,2,2,0 S stores=19,19 owners=NNNN/SSSS")
    assert impl.perft(over, 0) == 1
    assert impl.perft(over, 2) == 0
