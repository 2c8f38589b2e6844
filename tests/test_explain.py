"""katra.explain: moves lap by lap, hand-worked from docs/rules.md.

Each position below is a worked example of the rulebook (or a small one worked
by hand from its paths); the laps asserted are the ones the rulebook's prose
walks through.  The random-game checks are in test_explain_random.py.
"""
import pickle

import pytest

import katra
from katra import IllegalMoveError, Lap, MoveTrace

KATRO_6X6 = "katro 1,0,0,0,0,2/3,0,0,0,0,0/0,0,0,0,1,0/1,0,1,0,1,0/0,0,3,0,0,0/0,0,0,0,0,0 S"
MPANTSAKA = ("katra-mpantsaka 0,0,0,0,0,0,0,2/0,0,1,0,0,0,0,0/0,0,1,1,0,0,0,0/"
             "3,0,0,0,0,0,0,0 S")
GORE_43 = "gore 5,2,3,1/0,3,3,1 S stores=14,16 owners=NNNN/SSSS"
DJENON_52 = "djenon-aboure 2,1,0,3,1,1/1,0,2,4,1,3 S stores=13,16"


def summary(trace):
    """(start, seeds, sown, landing_before, decision, captured, captured_seeds) per lap."""
    return [(lap.start, lap.seeds, " ".join(lap.sown), lap.landing_before, lap.decision,
             lap.captured, lap.captured_seeds) for lap in trace.laps]


def test_katro_relay_chain_then_capture_rules_2_3():
    """§2.3 worked example (katro): relay a3, relay c3, capture e4, end at b1."""
    trace = katra.explain(KATRO_6X6, "c2")
    assert summary(trace) == [
        ("c2", 3, "b2 a2 a3", 1, "relay", (), 0),       # a4 empty: a5 is out of reach
        ("a3", 2, "b3 c3", 1, "relay", (), 0),          # c4 empty
        ("c3", 2, "d3 e3", 1, "capture", ("e4",), 1),   # e4 holds 1
        ("e3", 3, "f3 a1 b1", 0, "end", (), 0),          # 1 + 2 seeds, from f3 on
    ]
    assert [lap.number for lap in trace.laps] == [1, 2, 3, 4]
    assert [lap.landing for lap in trace.laps] == ["a3", "c3", "e3", "b1"]
    assert trace.after.text() == ("katro 1,0,0,0,0,2/3,0,0,0,0,0/0,0,0,0,0,0/0,1,0,1,0,1/"
                                  "1,1,0,0,0,0/1,1,0,0,0,0 N")
    assert trace.total_laps == 4 and trace.complete


def test_katro_captures_twice_4x6():
    """§2.3 worked example (katro-4x6): e1 captures f3 and a3, then ends in e1."""
    trace = katra.explain("katro-4x6", "e1")
    assert summary(trace) == [
        ("e1", 2, "f1 f2", 2, "capture", ("f3",), 2),
        ("f2", 5, "e2 d2 c2 b2 a2", 2, "capture", ("a3",), 2),
        ("a2", 5, "a1 b1 c1 d1 e1", 0, "end", (), 0),
    ]


def test_katro_4x4_relay_in_the_outer_row_then_capture():
    """§2.3 worked example (katro-4x4): c1 is in the outer row while row 2 has seeds."""
    trace = katra.explain("katro-4x4", "a1")
    assert summary(trace) == [
        ("a1", 2, "b1 c1", 2, "relay", (), 0),
        ("c1", 3, "d1 d2 c2", 2, "capture", ("c3",), 2),
        ("c2", 5, "b2 a2 a1 b1 c1", 0, "end", (), 0),
    ]
    # The board of each lap: its seeds sown, the decision not acted on yet.
    assert trace.laps[0].board[:8] == (0, 3, 3, 2, 2, 2, 2, 2)
    assert trace.laps[1].board[:8] == (0, 3, 0, 3, 2, 2, 3, 3)


def test_katro_lap_that_comes_round_sows_the_origin_too():
    """§1.2: a lap of 9 seeds on South's 8-hole path (a1 b1 c1 d1 d2 c2 b2 a2) comes
    round: a1 gets a seed and b1 gets its second, so b1 'held 1' before the last seed.
    South's inner row now holds seeds, so b1 (outer) cannot capture: relay."""
    trace = katra.explain("katro-4x4 0,0,0,0/1,0,0,0/0,0,0,0/9,0,0,0 S", "a1", max_laps=1)
    (lap,) = trace.laps
    assert lap.sown == ("b1", "c1", "d1", "d2", "c2", "b2", "a2", "a1", "b1")
    assert (lap.landing, lap.landing_before, lap.decision) == ("b1", 1, "relay")
    assert lap.board[:8] == (1, 2, 1, 1, 1, 1, 1, 1)


def test_mpantsaka_both_directions_rules_3_3():
    """§3.3 worked example: d2+ captures c3 and relays a1; d2- ends at once in e2."""
    ccw = katra.explain(MPANTSAKA, "d2+")
    assert summary(ccw) == [
        ("d2", 1, "c2", 1, "capture", ("c3",), 1),
        ("c2", 3, "b2 a2 a1", 3, "relay", (), 0),
        ("a1", 4, "b1 c1 d1 e1", 0, "end", (), 0),
    ]
    cw = katra.explain(MPANTSAKA, "d2-")
    assert summary(cw) == [("d2", 1, "e2", 0, "end", (), 0)]
    assert cw.after.text() == ("katra-mpantsaka 0,0,0,0,0,0,0,2/0,0,1,0,0,0,0,0/"
                               "0,0,1,0,1,0,0,0/3,0,0,0,0,0,0,0 N")
    assert "counter-clockwise" in ccw.headline() and "(clockwise)" in cw.headline()


def test_mpantsaka_simplified_back_row_move_clockwise_rules_3_4():
    trace = katra.explain(MPANTSAKA.replace("katra-mpantsaka", "katra-mpantsaka-simplified"),
                          "a1-")
    assert summary(trace) == [
        ("a1", 3, "a2 b2 c2", 1, "capture", ("c3",), 1),
        ("c2", 3, "d2 e2 f2", 0, "end", (), 0),
    ]


def test_gore_chain_of_captures_rules_4_3():
    """§4.3: the landing c2 (4), forward b2 (2), backward d2 (2) and South's own d1 (2)."""
    trace = katra.explain(GORE_43, "c1")
    assert summary(trace) == [("c1", 3, "d1 d2 c2", 3, "capture", ("c2", "b2", "d2", "d1"), 10)]
    assert trace.after.stores == (24, 16)


def test_gore_landing_in_an_own_hole_captures_nothing_rules_4_4():
    state = katra.State.from_text("gore 5,0,6,6/0,3,0,0 S stores=12,16 owners=NNSS/SSSS")
    trace = state.explain("d2")
    assert summary(trace) == [("d2", 6, "c2 b2 a2 a1 b1 c1", 0, "end", (), 0)]


def test_djenon_relay_then_backward_chain_rules_5_2():
    """§5.2: the first seed goes back into the emptied hole; e2 (1 -> 2) is captured,
    then backwards f2, f1, e1; d1 (1) stops the chain."""
    trace = katra.explain(DJENON_52, "c1")
    assert summary(trace) == [
        ("c1", 2, "c1 d1", 4, "relay", (), 0),
        ("d1", 5, "d1 e1 f1 f2 e2", 1, "capture", ("e2", "f2", "f1", "e1"), 10),
    ]
    assert trace.after.stores == (23, 16)


def test_moves_that_sow_nothing_have_no_laps():
    trace = katra.explain("djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24", "pass")
    assert (trace.laps, trace.total_laps, trace.move) == ((), 0, "pass")
    assert "no sowing" in trace.text()
    offer = katra.explain("gore 5,0,0,0/0,3,0,0 N stores=24,16 owners=NNNN/SSSS",
                          "offer:c2,d2")
    assert offer.total_laps == 0 and offer.after.pending_offer == ("c2", "d2")


def test_the_trace_names_and_types():
    trace = katra.State("katro-4x4").explain(2)
    assert isinstance(trace, MoveTrace) and all(isinstance(lap, Lap) for lap in trace.laps)
    assert isinstance(trace.laps, tuple)
    assert (trace.move, trace.action, trace.mover) == ("c1", 2, 0)
    assert trace.before == katra.State("katro-4x4")
    assert trace.after == katra.State("katro-4x4").child("c1")
    assert trace.after.move_stack == [2] and trace.before.move_stack == []
    for lap in trace.laps:
        assert lap.landing == lap.sown[-1] and len(lap.sown) == lap.seeds
    # Hand-worked: d2 (inner row) faces d3 (2): capture, 3 + 2 seeds on from c2; b1 is
    # in the outer row while the inner row has seeds: relay; d2 was emptied: end.
    assert trace.text().splitlines() == [
        "South plays c1: 3 laps",
        "lap 1: 2 seeds from c1, lands on d2, which held 2: capture d3 (2 seeds); sows d1 d2",
        "lap 2: 5 seeds from d2, lands on b1, which held 2: relay; sows c2 b2 a2 a1 b1",
        "lap 3: 3 seeds from b1, lands on d2, which was empty: end; sows c1 d1 d2",
        "after: katro-4x4 2,2,2,2/2,2,2,0/3,3,3,1/3,0,1,4 N",
    ]
    assert repr(trace) == "<MoveTrace katro-4x4 c1: 3 of 3 laps>"
    assert pickle.loads(pickle.dumps(trace.laps[0])) == trace.laps[0]


def test_lap_text_in_words():
    trace = katra.explain("katro-4x4", "a1")
    assert [lap.text() for lap in trace.laps] == [
        "lap 1: 2 seeds from a1, lands on c1, which held 2: relay",
        "lap 2: 3 seeds from c1, lands on c2, which held 2: capture c3 (2 seeds)",
        "lap 3: 5 seeds from c2, lands on c1, which was empty: end",
    ]
    assert trace.laps[0].text(sown=True).endswith("; sows b1 c1")


def test_state_explain_leaves_the_state_alone_on_both_backends(backend):
    state = katra.State("katro-4x4", backend=backend)
    state.push("a1")
    text, stack = state.text(), state.move_stack
    trace = state.explain("d4")
    assert (state.text(), state.move_stack) == (text, stack)
    assert trace.after.text() == state.child("d4").text()
    assert trace.before.backend == backend and trace.before.ply == 1


def test_max_laps_keeps_the_first_laps_and_counts_them_all():
    full = katra.explain(KATRO_6X6, "c2")
    part = katra.explain(KATRO_6X6, "c2", max_laps=2)
    assert part.laps == full.laps[:2] and part.total_laps == 4 and not part.complete
    assert part.after == full.after
    assert "2 more laps not traced" in part.text()
    assert katra.explain(KATRO_6X6, "c2", max_laps=0).laps == ()


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_max_laps_bad_values(bad):
    with pytest.raises(ValueError, match="max_laps"):
        katra.explain("katro-4x4", "a1", max_laps=bad)


def test_illegal_moves_raise_as_push_does():
    state = katra.State("katro-4x4")
    with pytest.raises(IllegalMoveError) as explained:
        state.explain("a2")
    with pytest.raises(IllegalMoveError) as pushed:
        state.copy().push("a2")
    assert str(explained.value) == str(pushed.value)
    with pytest.raises(IllegalMoveError, match="not a square name"):
        katra.explain("katro-4x4", "zz9")
    with pytest.raises(IllegalMoveError):
        katra.explain("katro-4x4", 99)
    # The lap limit makes a move illegal (docs/rules.md §1.3: c4 never ends).
    with pytest.raises(IllegalMoveError, match="c4"):
        katra.explain("katro-4x4 2,7,5,10/3,0,3,1/0,0,0,1/0,0,0,0 N", "c4")
    assert state.text() == katra.State("katro-4x4").text()


def test_malformed_positions():
    with pytest.raises(katra.PositionError):
        katra.explain("katro-4x4 2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", "a1")
    with pytest.raises(katra.UnknownGameError):
        katra.explain("chess", "e4")
    with pytest.raises(ValueError):
        katra.explain(42, "a1")


def test_the_examples_of_docs_explain_md_run():
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "explain.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= 12
    assert result.failed == 0, f"{result.failed} doctest(s) failed in docs/explain.md"


def test_the_reference_watches_laps_through_a_public_hook():
    """katra.explain's laps come from the reference's documented hook, apply_watched."""
    from katra._reference import CAPTURE, END, RELAY, LapSeen, Position

    seen: list[LapSeen] = []
    reference = Position.from_text(KATRO_6X6)
    reference.apply_watched(katra.game("katro").parse_action("c2"), seen.append)
    trace = katra.explain(KATRO_6X6, "c2")
    assert reference.text() == trace.after.text()
    assert [lap.decision for lap in seen] == [RELAY, RELAY, CAPTURE, END]
    assert [lap.decision for lap in trace.laps] == [lap.decision for lap in seen]
    assert [lap.board for lap in trace.laps] == [lap.board for lap in seen]
    plain = Position.from_text(KATRO_6X6)
    plain.apply_watched(katra.game("katro").parse_action("c2"), None)   # None: plain apply
    assert plain == reference
