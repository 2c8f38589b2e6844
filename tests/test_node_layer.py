"""Every job written once over the node layer (cython_core/_node.pxi), checked
against the pure-Python reference on both working forms of the core (the
lanes, and the int form: ``_core._set_lanes(False)``): perft, divide and
seeded playout tallies from the start and from mid-game positions of every
game id, and VectorGame's trajectories, equal on every form."""
import random

import pytest

import katra
from helpers import on_every_form, position_text, quick_and_slow, random_text
from katra import VectorGame, _core, _reference
from katra._games import GAMES


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
            assert on_every_form(_core.perft, core, depth) == _reference.perft(ref, depth), text
        assert on_every_form(_core.divide, core, 3) == _reference.divide(ref, 3), text
        assert (on_every_form(_core.playouts, core, 6, 17, 80, 3)
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
def test_vector_game_is_the_same_on_every_form(game_id):
    # (tests/test_vector.py checks the lanes' trajectories against State.push)
    on_every_form(vector_run, game_id)


# ---------------------------------------------------------------- the first-lap shortcut
# A relay candidate is legal without being sown when its first lap surely ends
# the move (first_lap_ends_by, read by both forms).  The rulebook's meaning: a
# first lap of fewer seeds than the sowing loop holds ends on a hole other than
# its origin, and the move is then one lap long exactly when that lap ends it
# (§2.3, §3.3, §5.2).  So the verdict must be True exactly for the candidates
# with fewer seeds than the loop whose sowing the reference finds one lap long:
# a shortcut too bold would make a never-ending move legal, one too cautious
# (results unchanged, only slower) is caught here too.

def loop_length(game_id):
    """The holes of a player's sowing loop (Djenon-aboure: the whole board)."""
    spec = GAMES[game_id]
    holes = spec.rows * spec.cols
    return holes if game_id == "djenon-aboure" else holes // 2


def rulebook_verdicts(text):
    ref = _reference.Position.from_text(text)
    two_directions = ref.game_id.startswith("katra-mpantsaka")
    verdicts = []
    for action in ref.rules.sowing_candidates(ref):
        seeds = ref.board[action // 2 if two_directions else action]
        one_lap = ref.lap_count(action) == 1
        verdicts.append((action, seeds < loop_length(ref.game_id) and one_lap))
    return verdicts


def first_lap_verdicts(text):
    return _core._first_lap_verdicts(_core.Position.from_text(text))


def near_a_lap(game_id, seed):
    """A position where one hole holds about a loop's seeds (loop - 2 .. loop + 1)
    and the others 0..2: the first laps that end just before their origin, or
    pass it, which random games seldom reach."""
    rng = random.Random(seed)
    spec = GAMES[game_id]
    board = [rng.choice((0, 0, 1, 2)) for _ in range(spec.rows * spec.cols)]
    board[rng.randrange(len(board))] = loop_length(game_id) + rng.randrange(-2, 2)
    return position_text(game_id, board, to_move=rng.randrange(2))


@pytest.mark.parametrize("game_id", [g for g in katra.GAME_IDS if g != "gore"])
@pytest.mark.parametrize("walks", quick_and_slow(12, 120))
def test_first_lap_verdicts_are_the_rulebooks(game_id, walks):
    seen = {True: 0, False: 0}
    for seed in range(walks):
        texts = [random_text(game_id, plies, seed) for plies in (0, 3, 9, 20, 45)]
        texts += [near_a_lap(game_id, 10 * seed + k) for k in range(10)]
        for text in texts:
            if _reference.Position.from_text(text).is_terminal():
                continue
            expected = rulebook_verdicts(text)
            got = on_every_form(first_lap_verdicts, text)
            assert got == expected, text
            for _, verdict in expected:
                seen[verdict] += 1
    assert seen[True] > 0 and seen[False] > 0   # both verdicts were checked
