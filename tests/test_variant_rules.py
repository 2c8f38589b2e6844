"""Other board sizes and seed counts (docs/rules.md §7), worked out by hand.

Every expected position below was computed seed by seed from §7 and the
family's section, not by running any implementation; the working is in the
comments.  Each runs on both backends (the ``impl`` fixture).  Then the ranges
of §7.1 (a size or a seeds count out of range is refused, naming the
parameter) and the ids (one id a game, read back from position texts).

Squares and indices (§1.1): index = (row - 1) * C + column, a = 0; a position
text lists the top row first.
"""
import random

import pytest

import katra
from katra._errors import ArgumentError, IllegalMoveError, PositionError, UnknownGameError
from katra._games import (
    DJENON,
    GAMES,
    GORE,
    KATRO,
    MAX_TOTAL_SEEDS,
    MPANTSAKA,
    VARIANT_COLS,
    VARIANT_ROWS,
    find_game,
    game_by_id,
    game_with,
    variant,
)
from katra._text import action_text, parse_action
from katra.api._backends import backend_module

GORE_PASS, GORE_ACCEPT, GORE_DECLINE = 264, 265, 266


def offer(*squares):
    """The Goré offer action for square indices (§7.2: 8 + mask on every board)."""
    return 8 + sum(1 << i for i in squares)


def played(impl, text, action, expected, legal_after):
    """Play ``action`` from ``text``: the position must become ``expected`` with the
    legal actions ``legal_after``."""
    pos = impl.Position.from_text(text)
    assert action in pos.legal_actions(), (text, pos.legal_actions())
    pos.apply(action)
    assert pos.text() == expected, text
    assert pos.legal_actions() == legal_after, expected
    return pos


# ---------------------------------------------------------------- Katro (§7.3)

def test_katro_six_rows_path_jumps_from_the_inner_row_back_to_a1(impl):
    # katro-6x3: South's path a1 b1 c1 c2 b2 a2 a3 b3 c3, then a1 (§7.3).  Rows 1
    # and 2 are empty, so South starts in row 3: a3 (6) or c3 (8).  c3's 2 seeds go
    # to a1 and b1; b1 was empty: the move ends.  North's outermost non-empty row is
    # row 6: b6 = index 16.
    text = "katro-6x3-s2 0,2,0/0,0,0/1,0,0/1,0,2/0,0,0/0,0,0 S"
    assert impl.Position.from_text(text).legal_actions() == [6, 8]
    played(impl, text, 8, "katro-6x3-s2 0,2,0/0,0,0/1,0,0/1,0,0/0,0,0/1,1,0 N", [16])


def test_katro_north_captures_on_a_five_column_board(impl):
    # katro-4x5: North's path is South's turned half round: e4 d4 c4 b4 a4 a3 b3 c3
    # d3 e3, then e4.  North's row 4 holds c4 (17) and e4 (19).  e4 (2): d4, c4; c4
    # held 1, North's row 3 is empty so row 4 is its innermost non-empty row, and
    # South's innermost non-empty row is row 2, where c2 holds 3: capture 2 + 3 = 5
    # into b4 a4 a3 b3 c3; c3 was empty: the move ends.  South then starts in row 1:
    # a1 (0).
    text = "katro-4x5-s2 0,0,1,0,2/0,0,0,0,0/1,0,3,0,0/2,0,0,0,0 N"
    assert impl.Position.from_text(text).legal_actions() == [17, 19]
    played(impl, text, 19, "katro-4x5-s2 1,1,0,1,0/1,1,1,0,0/1,0,0,0,0/2,0,0,0,0 S", [0])


def test_katro_one_seed_a_hole(impl):
    # katro-4x3-s1 from the start: a1 (1) -> b1, which held 1: outer row, South's
    # inner row has seeds, relay 2: c1, c2.  c2 held 1, faces c3 (1): capture
    # 2 + 1 = 3 into b2 a2 a1; a1 was emptied: the move ends.
    start = impl.Position.initial("katro-4x3-s1")
    assert start.text() == "katro-4x3-s1 1,1,1/1,1,1/1,1,1/1,1,1 S"
    assert start.legal_actions() == [0, 1, 2]
    played(impl, start.text(), 0, "katro-4x3-s1 1,1,1/1,1,0/2,2,0/1,0,2 N", [9, 10, 11])


# ---------------------------------------------------------------- Katra Mpantsaka (§7.4)

def test_mpantsaka_north_clockwise_capture_on_four_columns(impl):
    # katra-mpantsaka-4x4: North's CCW loop d4 c4 b4 a4 a3 b3 c3 d3; clockwise the
    # reverse: ... b3 a3 a4 b4 c4 d4 d3 ...  North's front row (row 3) holds a3 (8)
    # and b3 (9): actions 16..19.  b3- (19): its seed goes to a3, which held 1; a3
    # faces a2 (1): capture 2 + 1 = 3 into a4 (now 2), b4, c4; c4 was empty: the
    # move ends.  South's front row is then empty, so it starts from the back row:
    # d1 (3), actions 6 and 7.
    text = "katra-mpantsaka-4x4-s2 1,0,0,0/1,1,0,0/1,0,0,0/0,0,0,2 N"
    assert impl.Position.from_text(text).legal_actions() == [16, 17, 18, 19]
    played(impl, text, 19, "katra-mpantsaka-4x4-s2 2,1,1,0/0,0,0,0/0,0,0,0/0,0,0,2 S", [6, 7])


def test_mpantsaka_simplified_variant_starts_anywhere(impl):
    # katra-mpantsaka-simplified-4x2-s1: South owns a1 b1 (0, 1) and a2 b2 (2, 3);
    # any of them may start, each both ways: actions 0..7.  The plain variant
    # starts from the front row only: 4..7.
    simplified = impl.Position.initial("katra-mpantsaka-simplified-4x2-s1")
    assert simplified.legal_actions() == list(range(8))
    assert impl.Position.initial("katra-mpantsaka-4x2-s1").legal_actions() == [4, 5, 6, 7]


# ---------------------------------------------------------------- Goré (§7.5)

def test_gore_price_stays_six_with_three_seeds_a_hole(impl):
    # gore-2x4-s3: the loop a1 b1 c1 d1 d2 c2 b2 a2.  South sows b1 (3): c1, d1,
    # d2 -> 4, 4, 4.  d2 is North's and holds 4: captured; forward c2 holds 3
    # (stop); backward d1 (4) and c1 (4) are captured, b1 holds 0.  South gains 12.
    # North owns a2..d2 (4..7), sows a2 b2 c2; South's store of 12 pays for 2
    # holes at 6 each (not 3 a hole): every offer of 1 or 2 of its 4 holes.
    start = impl.Position.initial("gore-2x4-s3")
    assert start.legal_actions() == [0, 1, 2, 3]  # stores empty: no offer
    pairs = [offer(a, b) for a in range(4, 8) for b in range(a + 1, 8)]
    expected = sorted([4, 5, 6] + [offer(h) for h in range(4, 8)] + pairs)
    played(impl, start.text(), 1,
           "gore-2x4-s3 3,3,3,0/3,0,0,0 N stores=12,0 owners=NNNN/SSSS", expected)


def test_gore_two_by_two_trade_and_a_lap_round_three_times(impl):
    # gore-2x2-s6: the loop a1 b1 b2 a2 (0 1 3 2).  South offers a1; North accepts:
    # a1 becomes North's with 6 + 6 = 12 seeds and North's store pays 6.  North
    # now owns a1 a2 b2, and South's store (6) pays for one: North may sow a1 (0),
    # a2 (2), b2 (3) or offer one of them.  It sows a1: 12 seeds round the 4 holes
    # three times, the last into a1 itself (its own): each hole gains 3.  South
    # then owns b1 only, and North's empty store pays for nothing.
    text = "gore-2x2-s6 6,6/6,6 S stores=6,6 owners=NN/SS"
    pos = played(impl, text, offer(0), "gore-2x2-s6 6,6/6,6 N stores=6,6 owners=NN/SS offer=a1",
                 [GORE_ACCEPT, GORE_DECLINE])
    pos.apply(GORE_ACCEPT)
    assert pos.text() == "gore-2x2-s6 6,6/12,6 N stores=6,0 owners=NN/NS"
    assert pos.legal_actions() == [0, 2, 3, offer(0), offer(2), offer(3)]
    pos.apply(0)
    assert pos.text() == "gore-2x2-s6 9,9/3,9 S stores=6,0 owners=NN/NS"
    assert pos.legal_actions() == [1]


def test_gore_offer_must_keep_a_hole_on_two_by_two(impl):
    # On 2 x 2 with 2 holes each, the only offers are of 1 hole even when the
    # store would pay for 3 (§7.5).
    pos = impl.Position.from_text("gore-2x2-s6 6,6/6,6 S stores=0,30 owners=NN/SS")
    assert pos.legal_actions() == [0, 1, offer(0), offer(1)]


def test_gore_actions_off_the_board_are_never_legal(impl):
    # gore-2x3: holes 0..5.  Sowing 6 or 7, or an offer naming index 6 or 7, names a
    # hole the board lacks (§7.2).
    pos = impl.Position.initial("gore-2x3-s6")
    for action in (6, 7, offer(6), offer(0, 7)):
        assert not pos.is_legal(action)
        with pytest.raises(IllegalMoveError):
            pos.apply(action)
    assert pos.text() == "gore-2x3-s6 6,6,6/6,6,6 S stores=0,0 owners=NNN/SSS"


@pytest.mark.parametrize("seeds", [1, 2])
def test_gore_start_is_over_under_three_seeds(impl, seeds):
    # §7.5: the end stays "every hole holds fewer than 3": a draw, C * seeds each.
    pos = impl.Position.initial(f"gore-2x4-s{seeds}")
    assert pos.legal_actions() == []
    assert pos.outcome() == (-1, 4 * seeds, 4 * seeds)


# ---------------------------------------------------------------- Djenon-aboure (§7.6)

def test_djenon_three_columns_capture_then_the_end(impl):
    # djenon-aboure-2x3: the loop a1 b1 c1 c2 b2 a2.  South's only origin is b1 (3):
    # b1 (back), c1 (now 2), c2 (held 1, now 2): captured; backwards c1 (2) is
    # captured, b1 holds 1: stop.  South gains 4.  No hole then holds 2: over,
    # South 4 + 1 = 5, North 0.
    text = "djenon-aboure-2x3-s4 0,0,1/0,3,1 S stores=0,0"
    assert impl.Position.from_text(text).legal_actions() == [1]
    pos = played(impl, text, 1, "djenon-aboure-2x3-s4 0,0,0/0,1,0 N stores=4,0", [])
    assert pos.outcome() == (0, 5, 0)


def test_djenon_pass_is_the_action_after_the_last_hole(impl):
    # djenon-aboure-2x18: holes 0..35, the pass is 36 (§7.2).  South's row holds
    # no 2, r2 (35) holds 2: South passes; North sows r2: r2 (back), q2 (empty):
    # the move ends, and no hole holds 2: over, South 10, North 24 + 2.
    zeros = ",".join(["0"] * 17)
    text = f"djenon-aboure-2x18-s2 {zeros},2/{zeros},0 S stores=10,24"
    pos = played(impl, text, 36, f"djenon-aboure-2x18-s2 {zeros},2/{zeros},0 N stores=10,24",
                 [35])
    pos.apply(35)
    assert pos.text() == f"djenon-aboure-2x18-s2 {zeros[:-2]},1,1/{zeros},0 S stores=10,24"
    assert pos.legal_actions() == []
    assert pos.outcome() == (1, 10, 26)


def test_djenon_one_seed_a_hole_is_over_at_the_start(impl):
    pos = impl.Position.initial("djenon-aboure-2x5-s1")
    assert pos.legal_actions() == []
    assert pos.outcome() == (-1, 5, 5)


# ---------------------------------------------------------------- move text (§7.2)

def test_move_text_on_variant_boards():
    djenon = game_by_id("djenon-aboure-2x18-s2")
    assert djenon.num_actions == 37 and djenon.pass_action == 36
    assert action_text(djenon, 36) == "pass" and parse_action(djenon, "pass") == 36
    assert action_text(djenon, 35) == "r2" and parse_action(djenon, "R2") == 35
    gore = game_by_id("gore-2x3-s6")
    assert gore.num_actions == 267 and gore.pass_action == GORE_PASS
    assert action_text(gore, offer(2, 5)) == "offer:c1,c2"
    assert parse_action(gore, "offer:c2,c1") == offer(2, 5)
    with pytest.raises(IllegalMoveError, match="does not have"):
        action_text(gore, 7)
    mpantsaka = game_by_id("katra-mpantsaka-4x9-s2")
    assert mpantsaka.num_actions == 72 and action_text(mpantsaka, 71) == "i4-"
    katro = game_by_id("katro-6x2-s3")
    assert katro.num_actions == 12 and action_text(katro, 11) == "b6"
    with pytest.raises(IllegalMoveError):
        parse_action(katro, "c1")


# ---------------------------------------------------------------- ranges and ids (§7.1)

FAMILIES = [(KATRO, False), (MPANTSAKA, False), (MPANTSAKA, True), (GORE, False), (DJENON, False)]


@pytest.mark.parametrize(("family", "rows", "cols", "seeds", "parameter"), [
    (KATRO, 5, 4, 2, "rows"), (KATRO, 8, 4, 2, "rows"), (KATRO, 4, 1, 2, "cols"),
    (KATRO, 4, 10, 2, "cols"), (KATRO, 6, 7, 2, "cols"), (KATRO, 4, 9, 0, "seeds"),
    (KATRO, 4, 9, 28, "seeds"), (KATRO, 6, 6, 28, "seeds"),
    (MPANTSAKA, 6, 4, 2, "rows"), (MPANTSAKA, 4, 10, 2, "cols"), (MPANTSAKA, 4, 2, 126, "seeds"),
    (GORE, 4, 2, 6, "rows"), (GORE, 2, 5, 6, "cols"), (GORE, 2, 1, 6, "cols"),
    (GORE, 2, 2, 251, "seeds"), (DJENON, 2, 19, 4, "cols"), (DJENON, 2, 1, 4, "cols"),
    (DJENON, 2, 18, 28, "seeds"), (DJENON, 2, 2, 0, "seeds"),
])
def test_out_of_range_is_refused_naming_the_parameter(family, rows, cols, seeds, parameter):
    value = {"rows": rows, "cols": cols, "seeds": seeds}[parameter]
    with pytest.raises(ArgumentError, match=rf"^{parameter}={value} is out of range"):
        variant(family, rows, cols, seeds)
    name = {KATRO: "katro", MPANTSAKA: "katra-mpantsaka", GORE: "gore",
            DJENON: "djenon-aboure"}[family]
    with pytest.raises(ArgumentError, match=rf"^{parameter}={value} is out of range"):
        katra.game(name, rows=rows, cols=cols, seeds=seeds)
    with pytest.raises(ArgumentError, match=rf"^{parameter}={value} is out of range"):
        find_game(f"{name}-{rows}x{cols}-s{seeds}")
    with pytest.raises(PositionError):
        katra.State.from_text(f"{name}-{rows}x{cols}-s{seeds} 1/1 S")


def test_the_ranges_are_the_rulebooks():
    """§7.1's table, as the code holds it: the edges are accepted."""
    assert VARIANT_ROWS == {KATRO: (4, 6), MPANTSAKA: (4,), GORE: (2,), DJENON: (2,)}
    assert VARIANT_COLS == {(KATRO, 4): (2, 9), (KATRO, 6): (2, 6), (MPANTSAKA, 4): (2, 9),
                            (GORE, 2): (2, 4), (DJENON, 2): (2, 18)}
    for family, simplified in FAMILIES:
        for rows in VARIANT_ROWS[family]:
            for cols in VARIANT_COLS[(family, rows)]:
                most = MAX_TOTAL_SEEDS // (rows * cols)
                for seeds in (1, most):
                    spec = variant(family, rows, cols, seeds, simplified)
                    assert (spec.rows, spec.cols, spec.seeds_per_hole) == (rows, cols, seeds)
                    assert rows * cols <= 36 and rows * cols * seeds <= MAX_TOTAL_SEEDS


def test_simplified_is_katra_mpantsakas_only():
    with pytest.raises(ArgumentError, match="simplified"):
        variant(GORE, 2, 3, 6, simplified=True)
    with pytest.raises(ArgumentError, match="simplified"):
        katra.game("katro", simplified=True)


def test_named_parameters_give_the_named_id():
    for spec in GAMES.values():
        same = variant(spec.family, spec.rows, spec.cols, spec.seeds_per_hole, spec.simplified)
        assert same is spec and same.named
        assert find_game(f"{spec.variant_family}-{spec.rows}x{spec.cols}-s{spec.seeds_per_hole}"
                         ) is spec
        with pytest.raises(UnknownGameError):  # position texts use the named id only
            game_by_id(f"{spec.variant_family}-{spec.rows}x{spec.cols}-s{spec.seeds_per_hole}")
    assert katra.game("katro", rows=4, cols=4).id == "katro-4x4"
    assert katra.game("gore", seeds=6).id == "gore"


def impl_start(spec, backend):
    """The start position of ``spec`` on one backend (``Position.initial``)."""
    return backend_module(backend).Position.initial(spec.id)


def test_ids_read_and_write_back():
    assert katra.game("katro", rows=4, cols=5, seeds=3).id == "katro-4x5-s3"
    assert katra.game("KATRO-4X5-S3").id == "katro-4x5-s3"
    assert katra.game("gore-2x3").id == "gore-2x3-s6"          # the named game's 6 seeds
    assert katra.game("katra-mpantsaka-simplified-4x3-s1").id == "katra-mpantsaka-simplified-4x3-s1"
    assert game_with("djenon", cols=8).id == "djenon-aboure-2x8-s4"
    assert not game_by_id("gore-2x3-s6").named
    rng = random.Random(7)
    for family, simplified in FAMILIES:
        for _ in range(6):
            rows = rng.choice(VARIANT_ROWS[family])
            cols = rng.randint(*VARIANT_COLS[(family, rows)])
            seeds = rng.randint(1, MAX_TOTAL_SEEDS // (rows * cols))
            spec = variant(family, rows, cols, seeds, simplified)
            if not spec.named:
                assert spec.id == f"{spec.variant_family}-{rows}x{cols}-s{seeds}"
            assert game_by_id(spec.id) is spec and find_game(spec.id) is spec
            for backend in ("core", "reference"):
                start = impl_start(spec, backend)
                text = start.text()
                assert text.split(" ")[0] == spec.id
                assert text.split(" ")[1] == "/".join([",".join([str(seeds)] * cols)] * rows)
                again = katra.State.from_text(text, backend=backend)
                assert again.text() == text and again.game.id == spec.id
