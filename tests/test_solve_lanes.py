"""The solver on the packed lanes (cython_core/_solve.pxi's SolveNode): the
same thresholds, best actions and lines as on the int form
(``_core._set_lanes(False)``), and both equal to the brute-force AND/OR search
of test_solve.py over the reference (docs/rules.md §6.3 word for word), on
seeded endgames and mid-game positions of every game id, Goré positions with
an offer waiting for its answer, Djenon-aboure positions whose only action is
the pass, and positions of 255 seeds (the most the lanes hold)."""
import random

import pytest

import katra
from helpers import (
    BRUTE_PLIES,
    DRAW,
    WIN,
    brute_best,
    brute_solve,
    check_against_brute,
    endgame_positions,
    forces,
    gore_endgame,
    on_every_form,
    position_text,
    quick_and_slow,
    value,
)
from katra import _core, _reference
from katra._games import DJENON_PASS, GAME_IDS, GAMES, GORE, GORE_OFFER_BASE, GORE_PASS, MPANTSAKA


def thresholds_and_best(text, bound):
    """A fresh solver's thresholds within bound, and the best action they give."""
    solver = _core.Solver(12)
    pos = _core.Position.from_text(text)
    thresholds, searched, timed_out = solver.thresholds(pos, bound)
    assert not timed_out
    return thresholds, searched, solver.best_action(pos, thresholds)


def check_thresholds(text, bound):
    """Lanes == int form, and each threshold the least bound of the brute force."""
    thresholds, searched, best = on_every_form(thresholds_and_best, text, bound)
    for index, threshold in enumerate(thresholds):
        player, target = divmod(index, 2)
        target = WIN if target else DRAW
        if threshold is None:
            assert not forces(text, player, target, bound), (text, index)
        elif threshold == -1:
            assert not forces(text, player, target, searched), (text, index)
        else:
            assert forces(text, player, target, threshold), (text, index)
            assert not forces(text, player, target, threshold - 1), (text, index)
    outcome, plies = brute_solve(text, bound)
    if outcome is None:
        assert best == -1, text
    else:
        assert best == brute_best(text, outcome, plies), text
    return outcome


def mid_game_positions(game_id, count, seed, plies=(4, 30)):
    """Unfinished positions after a seeded random number of random plies."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = _reference.Position.initial(game_id)
        for _ in range(rng.randint(*plies)):
            legal = pos.legal_actions()
            if not legal:
                break
            pos.apply(rng.choice(legal))
        if pos.legal_actions():
            found.append(pos.text())
    return found


def gore_offers_pending(count, seed, bound):
    """Goré positions with an offer waiting for its answer (accept keeps the
    turn), half of them with a value proven within bound (picked by the core's
    solver, which check_thresholds then holds to the brute force)."""
    rng = random.Random(seed)
    proven, unproven = [], []
    while len(proven) + len(unproven) < count:
        pos = _reference.Position.from_text(gore_endgame(rng))
        offers = [a for a in pos.legal_actions() if GORE_OFFER_BASE <= a < GORE_PASS]
        if offers:
            pos.apply(rng.choice(offers))
            text = pos.text()
            wanted = proven if katra.solve(text, bound).outcome is not None else unproven
            if len(wanted) < count // 2:
                wanted.append(text)
    return proven + unproven


def djenon_passes(count, seed):
    """Djenon-aboure positions whose only legal action is the pass (§5.2)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = _reference.Position.initial("djenon-aboure")
        while pos.legal_actions() and len(found) < count:
            legal = pos.legal_actions()
            if legal == [DJENON_PASS]:
                found.append(pos.text())
            pos.apply(rng.choice(legal))
    return found


def checked_against_brute(text, bound):
    r = check_against_brute(text, bound)
    return r.outcome, r.plies, r.best_action, r.pv


def solve_fields(text, bound):
    r = katra.solve(text, bound)
    return r.outcome, r.plies, r.best_action, r.pv, r.max_plies


def test_set_lanes_restores():
    assert _core._set_lanes(False) is True
    try:
        assert _core._set_lanes(False) is False
    finally:
        assert _core._set_lanes(True) is False
    assert _core._set_lanes(True) is True


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("count", quick_and_slow(3, 30))
def test_endgames_on_every_form_match_brute_force(game_id, count):
    bound = BRUTE_PLIES[game_id] - 1
    count *= 2 if game_id == "gore" else 1     # Goré endgames are seldom proven
    for text in endgame_positions(game_id, count, seed=700 + GAME_IDS.index(game_id)):
        check_thresholds(text, bound)
        on_every_form(checked_against_brute, text, bound)
    value.cache_clear()


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("count", quick_and_slow(3, 20))
def test_mid_game_positions_on_every_form(game_id, count):
    """Brute force within 2 plies (1 in Mpantsaka: mid-game branching is
    wide), and the two forms alike at a deeper bound."""
    deep = {"katro": 6, "katro-4x6": 7, "katro-4x4": 9, "katra-mpantsaka": 5,
            "katra-mpantsaka-simplified": 3, "gore": 9, "djenon-aboure": 10}[game_id]
    for text in mid_game_positions(game_id, count, seed=800 + GAME_IDS.index(game_id)):
        check_thresholds(text, 1 if GAMES[game_id].family == MPANTSAKA else 2)
        on_every_form(thresholds_and_best, text, deep)
        on_every_form(solve_fields, text, deep)
    value.cache_clear()


def test_gore_offers_pending_on_every_form():
    outcomes = set()
    bound = BRUTE_PLIES["gore"] - 1
    for text in gore_offers_pending(6, seed=900, bound=bound):
        assert _reference.Position.from_text(text).pending_offer
        outcomes.add(check_thresholds(text, bound))
        on_every_form(solve_fields, text, 8)
    value.cache_clear()
    assert outcomes - {None}, "no offer position proven: the test would check little"


def test_djenon_passes_on_every_form():
    outcomes = set()
    for text in djenon_passes(8, seed=901):
        outcomes.add(check_thresholds(text, BRUTE_PLIES["djenon-aboure"] - 1))
        on_every_form(solve_fields, text, 12)
    value.cache_clear()
    assert outcomes - {None}, "no pass position proven: the test would check little"


def full_position(game_id, rng, total=255):
    """A position of `total` seeds (the lanes' limit: 255 fits, 256 does not)."""
    spec = GAMES[game_id]
    board = [0] * spec.holes
    stores = [0, 0]
    for _ in range(total):
        if spec.has_stores and rng.random() < 0.3:
            stores[rng.randrange(2)] += 1
        else:
            board[rng.randrange(spec.holes)] += 1
    owners = ([rng.randrange(2) for _ in range(8)] if spec.family == GORE
              else spec.initial_owners())
    return position_text(game_id, board, rng.randrange(2), stores, owners)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("total", [255, 256])
def test_positions_at_the_lanes_limit(game_id, total):
    """255 seeds run on the lanes, 256 on the 16-bit halves (Katro 4x4 and 4x6)
    or the int form: both as without lanes."""
    rng = random.Random(total * 10 + GAME_IDS.index(game_id))
    checked = 0
    for _ in range(100):        # drawn until two positions have a move (finished ones skipped)
        text = full_position(game_id, rng, total)
        if not _core.Position.from_text(text).legal_actions():
            continue
        on_every_form(thresholds_and_best, text, 3)
        on_every_form(solve_fields, text, 3)
        checked += 1
        if checked == 2:
            break
    assert checked == 2, f"fewer than two unfinished {game_id} positions of {total} seeds drawn"


@pytest.mark.parametrize("lanes", [True, False])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_entry_point_keys_the_root_alike(game_id, lanes):
    """thresholds() stores the root's thresholds under its key; forces() then
    finds them at once (one node: the root), on either form."""
    bound = {"katro": 4, "katro-4x6": 4, "katra-mpantsaka": 3,
             "katra-mpantsaka-simplified": 3}.get(game_id, 6)
    previous = _core._set_lanes(lanes)
    try:
        for text in mid_game_positions(game_id, 2, seed=950 + GAME_IDS.index(game_id)):
            solver = _core.Solver(14)
            pos = _core.Position.from_text(text)
            thresholds = solver.thresholds(pos, bound)[0]
            for index, threshold in enumerate(thresholds):
                player, target = divmod(index, 2)
                nodes = solver.nodes
                if threshold is not None and threshold >= 0:
                    assert solver.forces(pos, player, target, threshold)
                    assert solver.nodes == nodes + 1, (text, index)
    finally:
        _core._set_lanes(previous)
