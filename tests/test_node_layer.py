"""Every job written once over the node layer (cython_core/_node.pxi), checked
against the pure-Python reference on both working forms of the core (the
lanes, and the int form: ``_core._set_lanes(False)``): perft, divide and
seeded playout tallies from the start and from mid-game positions of every
game id, and VectorGame's trajectories, equal on both forms."""
import pytest

import katra
from katra import VectorGame, _core, _reference


def on_both_forms(job, *args):
    """job(*args) on the lanes and on the int form of the core: equal, returned."""
    previous = _core._set_lanes(True)
    try:
        packed = job(*args)
        _core._set_lanes(False)
        plain = job(*args)
    finally:
        _core._set_lanes(previous)
    assert packed == plain, (getattr(job, "__name__", job), args)
    return packed


def positions(game_id):
    """The start and two mid-game positions (10 and 24 plies along a fixed line), as texts."""
    pos = _core.Position.initial(game_id)
    texts = [pos.text()]
    k = 0
    for ply in range(24):
        legal = pos.legal_actions()
        if not legal:
            break
        k = (k * 5 + 3) % len(legal)
        pos.push(legal[k])
        if ply in (9, 23):
            texts.append(pos.text())
    return texts


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_counting_jobs_match_the_reference(game_id):
    for text in positions(game_id):
        core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
        for depth in (1, 2, 3):
            assert on_both_forms(_core.perft, core, depth) == _reference.perft(ref, depth), text
        assert on_both_forms(_core.divide, core, 3) == _reference.divide(ref, 3), text
        assert (on_both_forms(_core.playouts, core, 6, 17, 80, 3)
                == _reference.playouts(ref, 6, 17, 80, 3)), text


def vector_run(game_id, steps=120):
    """Every output of a VectorGame stepped with its own random actions, step by step."""
    vg = VectorGame(game_id, 5, seed=3, max_plies=50, view=None)
    seen = []
    for _ in range(steps):
        vg.step(vg.random_actions())
        seen.append([a.tolist() for a in (vg.observations, vg.action_masks, vg.rewards,
                                          vg.terminated, vg.truncated, vg.to_move, vg.plies)])
        seen.append([vg.position(i).text() for i in range(vg.num_envs)])
    return seen


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_vector_game_is_the_same_on_both_forms(game_id):
    # (tests/test_vector.py checks the lanes' trajectories against State.push)
    on_both_forms(vector_run, game_id)
