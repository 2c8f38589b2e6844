"""katra.VectorGame: many games stepped in one call, checked against State.push."""
from __future__ import annotations

from array import array

import numpy as np
import pytest

import katra
from katra import State, VectorGame


def mirror_step(vg: VectorGame, states: list[State], actions, pending: list[bool]) -> None:
    """What VectorGame.step must do, done with State.push (and the same autoreset)."""
    for i, a in enumerate(actions):
        if a == VectorGame.SKIP:
            continue
        if pending[i]:
            states[i] = katra.game(vg.game_id).initial_state()
        else:
            states[i].push(int(a))


def check_envs(vg: VectorGame, states: list[State], view, stepped: list[bool],
               skipped=(), before=None) -> list[bool]:
    """Compare every output array with the States (a skipped env keeps its outputs of
    before); returns which envs are finished."""
    finished = []
    for i, s in enumerate(states):
        if i in skipped:
            assert all((now[i] == old[i]).all() for now, old in zip(outputs(vg), before))
            finished.append(bool(vg.terminated[i] or vg.truncated[i]))
            continue
        player = s.to_move if view is None else view
        assert vg.observations[i].tolist() == s.observation(player), (i, s.text())
        assert vg.action_masks[i].astype(int).tolist() == s.legal_actions_mask(), i
        assert vg.to_move[i] == s.to_move and vg.plies[i] == s.ply
        assert vg.position(i) == s and vg.position(i).ply == s.ply
        terminated = s.is_terminal() and stepped[i]
        truncated = not s.is_terminal() and s.ply >= vg.max_plies and stepped[i]
        assert bool(vg.terminated[i]) == terminated and bool(vg.truncated[i]) == truncated, i
        expected = s.returns() if terminated else [0.0, 0.0]
        assert vg.rewards[i].tolist() == expected, i
        finished.append(terminated or truncated)
    return finished


def outputs(vg: VectorGame) -> tuple:
    return (vg.observations, vg.action_masks, vg.rewards, vg.terminated, vg.truncated,
            vg.to_move, vg.plies)


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
@pytest.mark.parametrize("view", [None, 1])
def test_vector_game_matches_state_push(game_id, view):
    n, max_plies = 6, 40
    vg = VectorGame(game_id, n, seed=11, max_plies=max_plies, view=view)
    states = [katra.game(game_id).initial_state() for _ in range(n)]
    pending = check_envs(vg, states, view, [False] * n)
    finished_games = 0
    for step in range(150):
        actions = vg.random_actions()
        if step % 7 == 3:
            actions[step % n] = VectorGame.SKIP      # one env sits this step out
        mirror_step(vg, states, actions, pending)
        before = tuple(a.copy() for a in outputs(vg))
        vg.step(actions)
        skipped = [i for i in range(n) if actions[i] == VectorGame.SKIP]
        stepped = [i not in skipped and not pending[i] for i in range(n)]
        pending = check_envs(vg, states, view, stepped, skipped, before)
        finished_games += sum(p and s for p, s in zip(pending, stepped))
    assert finished_games >= n   # every env finished (or was truncated) at least once


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_first_games_are_the_seeded_playouts(game_id):
    # Env i's generator starts at seed + i * 2**32 (docs/rules.md §6.2): its first game is
    # game i of katra.playouts with the same seed.
    n, seed, max_plies = 24, 5, 200
    vg = VectorGame(game_id, n, seed=seed, max_plies=max_plies)
    tally = {"games": n, "south_wins": 0, "north_wins": 0, "draws": 0, "unfinished": 0,
             "plies": 0}
    done = [False] * n
    while not all(done):
        actions = vg.random_actions()
        for i in range(n):
            if done[i]:
                actions[i] = VectorGame.SKIP
        vg.step(actions)
        for i in range(n):
            if done[i] or not (vg.terminated[i] or vg.truncated[i]):
                continue
            done[i] = True
            tally["plies"] += int(vg.plies[i])
            south, north = vg.rewards[i]
            key = ("unfinished" if vg.truncated[i] else "south_wins" if south > 0
                   else "north_wins" if north > 0 else "draws")
            tally[key] += 1
    assert tally == katra.playouts(game_id, n, seed=seed, max_plies=max_plies)


def test_next_step_autoreset():
    # Gymnasium's next-step convention: the step that ends a game shows its final
    # observation; the next step resets the env whatever its action, reward 0.
    vg = VectorGame("katro-4x4", 1, seed=3)
    while not vg.terminated[0]:
        vg.step(vg.random_actions())
    final = vg.observations[0].copy()
    assert vg.rewards[0].sum() == 0 and abs(vg.rewards[0][0]) == 1
    assert not vg.action_masks[0].any()
    vg.step([VectorGame.SKIP])                     # skipped: still the final state
    assert vg.terminated[0] and (vg.observations[0] == final).all()
    vg.step([99])                                  # ignored: this step resets
    start = katra.game("katro-4x4").initial_state()
    assert vg.observations[0].tolist() == start.observation()
    assert not vg.terminated[0] and vg.plies[0] == 0 and vg.rewards[0].tolist() == [0, 0]


def test_truncation_is_not_a_result():
    vg = VectorGame("gore", 3, seed=1, max_plies=5)
    for _ in range(5):
        vg.step(vg.random_actions())
    assert vg.truncated.all() and not vg.terminated.any()
    assert (vg.rewards == 0).all() and (vg.plies == 5).all()


def test_any_integer_buffer_is_accepted():
    outputs = []
    for make in (lambda a: np.asarray(a, dtype=np.int8), lambda a: np.asarray(a, np.uint16),
                 lambda a: np.asarray(a, np.int32), lambda a: array("q", a), list,
                 lambda a: np.asarray(a, np.uint64), tuple):
        vg = VectorGame("katro", 4, seed=2)
        vg.step(make([0, 1, 2, 3]))
        outputs.append(vg.observations.copy())
    assert all((o == outputs[0]).all() for o in outputs)


SIGNED_BUFFERS = [np.int8, np.int16, np.int32, np.int64, np.intp,
                  "b", "h", "i", "l", "q"]          # NumPy dtypes and array.array typecodes


def integer_buffer(kind, values):
    return array(kind, values) if isinstance(kind, str) else np.asarray(values, dtype=kind)


@pytest.mark.parametrize("kind", SIGNED_BUFFERS, ids=str)
def test_skip_is_minus_one_in_every_signed_buffer(kind):
    """docs/learning.md: SKIP (-1) leaves an env as it is, whatever the buffer's signed
    item type: each item is read by its own type (an int8 -1 is not 255)."""
    vg = VectorGame("katro", 4, seed=5)
    reference = VectorGame("katro", 4, seed=5)
    first = [int(a) for a in vg.random_actions()]
    reference.step(first)
    vg.step(integer_buffer(kind, first))
    assert [vg.position(i).text() for i in range(4)] == [
        reference.position(i).text() for i in range(4)]
    before = snapshot(vg)
    second = [int(a) for a in vg.random_actions()]
    vg.step(integer_buffer(kind, [VectorGame.SKIP, second[1], VectorGame.SKIP, second[3]]))
    after = snapshot(vg)
    for i in (0, 2):                                  # skipped: position and outputs kept
        assert after[0][i] == before[0][i]
        assert (after[1][i] == before[1][i]).all() and after[3][i] == before[3][i]
    for i in (1, 3):                                  # played: the move of State.push
        assert after[0][i] == State.from_text(before[0][i]).child(second[i]).text()


@pytest.mark.parametrize("kind", [np.uint8, np.uint16, np.uint32, np.uint64,
                                  "B", "H", "I", "L", "Q"], ids=str)
def test_unsigned_buffers_play_the_same_actions(kind):
    vg = VectorGame("djenon-aboure", 3, seed=1)
    reference = VectorGame("djenon-aboure", 3, seed=1)
    for _ in range(6):
        actions = [int(a) for a in reference.random_actions()]
        reference.step(actions)
        vg.step(integer_buffer(kind, actions))
    assert same(snapshot(vg), snapshot(reference))


def snapshot(vg: VectorGame):
    return ([vg.position(i).text() for i in range(vg.num_envs)], vg.observations.copy(),
            vg.action_masks.copy(), vg.plies.copy())


def same(a, b) -> bool:
    return a[0] == b[0] and all((x == y).all() for x, y in zip(a[1:], b[1:]))


def test_bad_actions_name_the_env_and_change_nothing():
    vg = VectorGame("katro", 4, seed=9)
    vg.step(vg.random_actions())
    before = snapshot(vg)
    good = vg.random_actions()
    illegal = good.copy()
    mover = vg.position(2).legal_actions()
    illegal[2] = next(a for a in range(36) if a not in mover)
    with pytest.raises(katra.IllegalMoveError, match="env 2: action"):
        vg.step(illegal)
    assert same(before, snapshot(vg))
    def at(k, value, kind=list):
        actions = [int(a) for a in good]
        actions[k] = value
        return kind(actions) if kind is list else np.array(actions, dtype=kind)

    cases = [
        (good[:3], katra.ArgumentError, "^step: actions holds 3 items, expected 4$"),
        ([0, 1, 2], katra.ArgumentError, "expected 4 actions"),
        (good.astype(np.float64), katra.ArgumentTypeError,
         "^step: actions has items of format 'd'; use an integer buffer$"),
        (good.astype(bool), katra.ArgumentTypeError, "format '[?]'; use an integer buffer$"),
        (good.astype(object), katra.ArgumentTypeError, "format 'O'; use an integer buffer$"),
        (good.astype(np.complex64), katra.ArgumentTypeError, "use an integer buffer$"),
        (array("d", good), katra.ArgumentTypeError, "format 'd'; use an integer buffer$"),
        ("abcd", katra.ArgumentTypeError,
         "^step: actions must be a list or a buffer of integers .*, not str$"),
        (None, katra.ArgumentTypeError, "^step: actions must be a list .*, not NoneType$"),
        (good.reshape(2, 2), katra.ArgumentError,
         "^step: actions must be one-dimensional .*, not 2-dimensional$"),
        (good.reshape(4, 1), katra.ArgumentError, "not 2-dimensional$"),
        (np.int64(3), katra.ArgumentError, "not 0-dimensional$"),
        (at(2, 2.0), katra.ArgumentTypeError, "env 2: an action is an int"),
        (at(2, 36), katra.ArgumentError, "env 2: action 36 is out of range"),
        (at(3, 10**30), katra.ArgumentError, f"env 3: action {10**30} is out of range"),
        (at(1, -5, np.int64), katra.ArgumentError, "env 1: action -5 is out of range"),
        (at(1, 2**40, np.int64), katra.ArgumentError, "env 1: action 1099511627776 is out"),
        (at(0, 2**64 - 1, np.uint64), katra.ArgumentError, "env 0: action .* is out of range"),
        (np.zeros((8,), np.int64)[::2], katra.ArgumentError, "^step: actions must be C-cont"),
        (at(1, -5, np.int8), katra.ArgumentError, "env 1: action -5 is out of range"),
        (at(1, -2, np.int16), katra.ArgumentError, "env 1: action -2 is out of range"),
        (at(1, -100, np.int32), katra.ArgumentError, "env 1: action -100 is out of range"),
        (at(1, 2**32 - 1, np.uint32), katra.ArgumentError, "env 1: action 4294967295 is out"),
        (at(1, 255, np.uint8), katra.ArgumentError, "env 1: action 255 is out of range"),
    ]
    for actions, error, message in cases:
        with pytest.raises(error, match=message):
            vg.step(actions)
        assert same(before, snapshot(vg)), actions
    vg.step(good)                                   # still usable


def test_an_action_of_no_position_names_the_env_and_changes_nothing():
    # Action 8 on Goré (an offer of 0 holes) is legal in no position: the error still
    # names the env and the action, says why, and no env is changed.
    vg = VectorGame("gore", 3, seed=4)
    vg.step(vg.random_actions())
    before = snapshot(vg)
    actions = vg.random_actions()
    for bad in (8, 8 + 0b1111, 8 + 0xFF):           # offers of 0, 4 and 8 holes
        actions[1] = bad
        with pytest.raises(katra.IllegalMoveError,
                           match=rf"env 1: action {bad} is not legal \(action {bad} is an offer"
                                 r" of [048] holes; .*no env was changed"):
            vg.step(actions)
        assert same(before, snapshot(vg))


def test_bad_construction():
    # Bad arguments: katra.ArgumentTypeError for a wrong type, katra.ArgumentError
    # for a value out of range, each naming the argument (as katra's other calls).
    for kwargs, error, message in [
            ({"num_envs": 0}, katra.ArgumentError, r"num_envs must be in 1\.\.2\*\*24, got 0"),
            ({"num_envs": 2**24 + 1}, katra.ArgumentError,
             r"num_envs must be in 1\.\.2\*\*24, got 16777217"),
            ({"num_envs": 2.0}, katra.ArgumentTypeError, "num_envs must be an int, not float"),
            ({"num_envs": 2, "seed": -1}, katra.ArgumentError, r"seed must be in 0\.\.2\*\*64-1"),
            ({"num_envs": 2, "seed": 2**64}, katra.ArgumentError, "seed must be in"),
            ({"num_envs": 2, "seed": "1"}, katra.ArgumentTypeError, "seed must be an int, not str"),
            ({"num_envs": 2, "max_plies": 0}, katra.ArgumentError,
             r"max_plies must be in 1\.\.2\*\*62, got 0"),
            ({"num_envs": 2, "view": 2}, katra.ArgumentError,
             r"view \(0, 1 or None: the player to move\) must be in 0\.\.1, got 2"),
            ({"num_envs": 2, "view": True}, katra.ArgumentTypeError, "view .* must be an int"),
            ({"num_envs": 2, "num_threads": 65}, katra.ArgumentError,
             r"num_threads must be in 1\.\.64, got 65")]:
        with pytest.raises(error, match=message):
            VectorGame("katro", **kwargs)
    vg = VectorGame("katro", 2)
    with pytest.raises(katra.ArgumentTypeError, match="seed must be an int"):
        vg.reset(seed=1.5)
    with pytest.raises(katra.ArgumentError, match=r"env index i must be in 0\.\.1, got 2"):
        vg.position(2)
    with pytest.raises(katra.ArgumentError, match=r"env index i must be in 0\.\.1, got -1"):
        vg.position(-1)
    with pytest.raises(katra.UnknownGameError):
        VectorGame("chess", 2)


def test_outputs_are_arrays_of_the_documented_shapes():
    g = katra.game("gore")
    vg = VectorGame(g, 5)
    assert vg.observations.shape == (5, g.observation_size) and vg.observations.dtype == np.float32
    assert vg.action_masks.shape == (5, g.num_actions) and vg.action_masks.dtype == bool
    assert vg.rewards.shape == (5, 2) and vg.terminated.dtype == bool
    assert vg.to_move.dtype == np.int8 and vg.plies.dtype == np.int32
    assert vg.reset() is vg.observations
    assert repr(vg) == "VectorGame('gore', num_envs=5, max_plies=1000)"


def test_reset_with_a_seed_replays_the_same_games():
    vg = VectorGame("djenon-aboure", 3, seed=4)
    first = [vg.random_actions().tolist() for _ in range(1)]
    vg.step(vg.random_actions())
    vg.reset(seed=4)
    assert [vg.random_actions().tolist()] == first


@pytest.mark.parametrize("game_id", ["katro", "gore", "katra-mpantsaka"])
def test_threads_change_nothing_but_speed(game_id):
    one = VectorGame(game_id, 300, seed=8, max_plies=50)
    four = VectorGame(game_id, 300, seed=8, max_plies=50, num_threads=4)
    assert four.num_threads == 4 and one.num_threads == 1
    for _ in range(120):
        actions = one.random_actions()
        assert (actions == four.random_actions()).all()
        one.step(actions)
        four.step(actions)
        for a, b in zip(outputs(one), outputs(four)):
            assert (a == b).all()
    with pytest.raises(ValueError, match="num_threads"):
        VectorGame(game_id, 2, num_threads=0)
    with pytest.raises(ValueError, match=r"num_threads must be in 1\.\.64"):
        VectorGame(game_id, 2, num_threads=65)


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
@pytest.mark.parametrize("threads", [1, 3])
def test_step_random_is_step_of_random_actions(game_id, threads):
    # One call drawing and playing the actions: the same actions (0 for an env reset),
    # the same outputs and the same generators as step(random_actions()), games
    # ending and resetting (max_plies 30) on the way.
    one = VectorGame(game_id, 200, seed=6, max_plies=30)
    both = VectorGame(game_id, 200, seed=6, max_plies=30, num_threads=threads)
    resets = 0
    for _ in range(70):
        actions = one.random_actions()
        resets += int((one.terminated | one.truncated).sum())
        one.step(actions)
        assert (both.step_random() == actions).all()
        for a, b in zip(outputs(one), outputs(both)):
            assert (a == b).all()
    assert resets >= 200
    assert (one.random_actions() == both.random_actions()).all()


def test_step_takes_exactly_the_legal_actions_on_gore():
    # Goré's envs keep their legal actions as sets (sowings, offers, the pass and the
    # answers): step must take each legal action and refuse every other of the 267,
    # offers and answers included, in positions reached by random games.
    game = katra.game("gore")
    seen = set()
    for seed in range(3):
        vg = VectorGame("gore", 1, seed=seed, max_plies=400)
        state, history = game.initial_state(), []
        for _ in range(90):
            if vg.terminated[0] or vg.truncated[0]:
                break
            legal = set(state.legal_actions())
            seen |= {"sow" if a < 8 else "offer" if a < 264 else a for a in legal}
            for a in range(game.num_actions):
                if a not in legal:
                    with pytest.raises(katra.IllegalMoveError):
                        vg.step([a])
            for a in sorted(legal)[:6]:             # each taken by a replay of the game
                replay = VectorGame("gore", 1, seed=seed, max_plies=400)
                for b in history:
                    replay.step([b])
                replay.step([a])
                assert replay.position(0) == state.child(a)
            a = int(vg.random_actions()[0])
            vg.step([a])
            state.push(a)
            history.append(a)
            assert vg.position(0) == state
    assert {"sow", "offer", 264, 265, 266} <= seen


def test_gore_mask_rows_follow_the_offers_of_long_games():
    # A Goré mask row's offers are rewritten from the legal sets, eight entries at a
    # time: checked against State.legal_actions_mask at every step of long games
    # (games ending and resetting on the way), with no offer, a few, and more than
    # eight (up to the 63 offers of 6 holes owned) seen.
    game = katra.game("gore")
    n = 48
    vg = VectorGame("gore", n, seed=3, max_plies=300)
    states = [game.initial_state() for _ in range(n)]
    pending = [False] * n
    offers_seen = set()
    for _ in range(400):
        actions = vg.step_random()
        for i in range(n):
            states[i] = game.initial_state() if pending[i] else states[i].child(int(actions[i]))
        masks = vg.action_masks.astype(int).tolist()
        for i, state in enumerate(states):
            assert masks[i] == state.legal_actions_mask(), (i, state.text())
            offers_seen.add(sum(masks[i][8:264]))
        pending = [bool(vg.terminated[i] or vg.truncated[i]) for i in range(n)]
    assert {0, 2, 7, 10, 15, 63} <= offers_seen


def test_reset_rewrites_every_mask_row():
    # A step rewrites a mask row's bytes of the last legal actions and of the new
    # ones only; reset() rewrites every row whole, bytes written into it included.
    vg = VectorGame("gore", 4, seed=2)
    vg.step(vg.random_actions())
    vg.action_masks[:] = True
    vg.reset()
    start = katra.game("gore").initial_state().legal_actions_mask()
    assert vg.action_masks.astype(int).tolist() == [start] * 4


def test_without_numpy_the_outputs_are_flat_stdlib_buffers():
    # The core needs only the buffer protocol: with NumPy hidden, the same games give
    # the same numbers in array.array / bytearray outputs.
    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == 'numpy':
            raise ImportError('no numpy', name=name)
sys.meta_path.insert(0, Block())
import json, katra
vg = katra.VectorGame('gore', 3, seed=4, max_plies=30)
for _ in range(40):
    vg.step(vg.random_actions())
print(json.dumps([type(vg.observations).__name__, type(vg.action_masks).__name__,
                  list(vg.observations), list(vg.action_masks), list(vg.rewards),
                  list(vg.terminated), list(vg.truncated), list(vg.to_move), list(vg.plies)]))
"""
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    kinds_and_values = json.loads(out.stdout)
    assert kinds_and_values[:2] == ["array", "bytearray"]
    vg = VectorGame("gore", 3, seed=4, max_plies=30)
    for _ in range(40):
        vg.step(vg.random_actions())
    expected = [a.ravel().astype(float if a.dtype.kind == "f" else int).tolist()
                for a in outputs(vg)]
    assert kinds_and_values[2:] == expected


def test_position_is_a_state_equal_to_the_state_reached_by_the_same_moves():
    vg = VectorGame("gore", 3, seed=5)
    states = [katra.game("gore").initial_state() for _ in range(3)]
    for _ in range(6):
        actions = vg.random_actions()
        vg.step(actions)
        for state, action in zip(states, actions.tolist()):
            state.push(action)
    for i, state in enumerate(states):
        position = vg.position(i)
        assert type(position) is State and position.backend == "core"
        assert position == state and position.ply == state.ply == 6
        assert position.move_stack == [] and position.text() == state.text()
        assert repr(position) == repr(state.copy(stack=False))
    copy = vg.position(0)
    copy.push(copy.legal_actions()[0])                   # a copy: the env is unchanged
    assert vg.position(0) == states[0]


def test_a_list_of_actions_takes_any_int_but_a_bool():
    vg = VectorGame("katro", 2, seed=1)
    mirror = VectorGame("katro", 2, seed=1)
    actions = vg.random_actions().tolist()
    vg.step([np.int64(actions[0]), np.int32(actions[1])])
    mirror.step(actions)
    assert vg.position(0) == mirror.position(0) and vg.position(1) == mirror.position(1)
    before = [vg.position(i).text() for i in range(2)]
    with pytest.raises(katra.ArgumentTypeError, match="env 1: an action is an int, not bool"):
        vg.step([np.int64(vg.random_actions()[0]), True])
    assert [vg.position(i).text() for i in range(2)] == before


def test_a_vector_game_is_not_pickled():
    import pickle
    with pytest.raises(TypeError, match="VectorGame cannot be pickled"):
        pickle.dumps(VectorGame("katro", 2))


class DrawModel:
    """VectorGame's documented behaviour, on States and the reference's §6.2 generator:
    env i's generator starts at seed + i * 2**32; random_actions() draws
    legal[next() % len(legal)] for every env with legal actions that is not about to
    be reset (0, no number drawn, for the others); step(actions) resets the finished
    envs, leaves the skipped ones and pushes the others' actions; reset() restarts
    the generators from the last seed."""

    def __init__(self, game_id: str, n: int, seed: int, max_plies: int) -> None:
        self.game, self.n, self.max_plies = katra.game(game_id), n, max_plies
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Every env to the start, the generators restarted (from the last seed)."""
        from katra._reference.counting import SplitMix64
        if seed is not None:
            self.seed = seed
        self.rngs = [SplitMix64(self.seed + (i << 32)) for i in range(self.n)]
        self.states = [self.game.initial_state() for _ in range(self.n)]
        self.pending = [False] * self.n
        self.stepped = [False] * self.n

    def random_actions(self) -> list[int]:
        picks = []
        for i, s in enumerate(self.states):
            legal = s.legal_actions()
            picks.append(0 if self.pending[i] or not legal
                         else legal[self.rngs[i].next() % len(legal)])
        return picks

    def step(self, actions) -> list[int]:
        skipped = [i for i in range(self.n) if actions[i] == VectorGame.SKIP]
        for i in range(self.n):
            if i in skipped:
                continue
            if self.pending[i]:
                self.states[i] = self.game.initial_state()
            else:
                self.states[i].push(int(actions[i]))
            self.stepped[i] = not self.pending[i]
            s = self.states[i]
            self.pending[i] = self.stepped[i] and (s.is_terminal() or s.ply >= self.max_plies)
        return skipped

    def check(self, vg: VectorGame, skipped=(), before=None) -> None:
        stepped = [self.stepped[i] for i in range(self.n)]
        assert check_envs(vg, self.states, None, stepped, skipped, before) == self.pending


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
@pytest.mark.parametrize("threads", [1, 2])
def test_draws_ahead_keep_every_seeded_trajectory(game_id, threads):
    # Each step draws the next random actions ahead; random_actions() hands them out
    # and moves the generators past them, and step() of exactly those skips its
    # check.  Every mix of calls must give the documented draws and games: the
    # draws handed out unchanged, a modified copy (other legal actions, a skip),
    # step_random() after random_actions() without a step, random_actions() twice
    # (the draws stepped as a list or as int32), a refused step then the draws, user
    # actions without a draw, reset() with and without a seed mid-way, games ending
    # (max_plies 12) on the way.
    n, seed, max_plies = 130, 3, 12         # 130 envs: two threads split them
    vg = VectorGame(game_id, n, seed=seed, max_plies=max_plies, num_threads=threads)
    model = DrawModel(game_id, n, seed, max_plies)
    model.check(vg)
    for turn in range(48):
        kind = turn % 8
        if kind == 0:                                   # the draws, unchanged
            actions = vg.random_actions()
            assert actions.tolist() == model.random_actions()
            vg.step(actions)
            model.step(actions)
        elif kind == 1:                                 # a modified copy
            actions = vg.random_actions()
            assert actions.tolist() == model.random_actions()
            changed = actions.copy()
            for i in range(0, n, 5):
                legal = model.states[i].legal_actions()
                if legal and not model.pending[i]:
                    changed[i] = legal[(turn + i) % len(legal)]
            changed[7] = VectorGame.SKIP
            before = tuple(a.copy() for a in outputs(vg))
            vg.step(changed)
            model.check(vg, model.step(changed), before)
            continue
        elif kind == 2:                                 # step_random
            drawn = model.random_actions()
            assert vg.step_random().tolist() == drawn
            model.step(drawn)
        elif kind == 3:                                 # drawn, not stepped, then step_random
            assert vg.random_actions().tolist() == model.random_actions()
            drawn = model.random_actions()
            assert vg.step_random().tolist() == drawn
            model.step(drawn)
        elif kind == 4:                                 # drawn twice, the second stepped
            assert vg.random_actions().tolist() == model.random_actions()
            actions = vg.random_actions()
            assert actions.tolist() == model.random_actions()
            vg.step(actions.tolist() if turn % 16 == 4 else actions.astype(np.int32))
            model.step(actions)
        elif kind == 5:                                 # refused, then the draws
            actions = vg.random_actions()
            assert actions.tolist() == model.random_actions()
            i = next((i for i in range(n) if not model.pending[i]), None)
            if i is not None:
                bad = actions.copy()
                legal = model.states[i].legal_actions()
                bad[i] = next(a for a in range(vg.num_actions) if a not in legal)
                with pytest.raises(katra.IllegalMoveError, match=f"env {i}: action"):
                    vg.step(bad)
            vg.step(actions)
            model.step(actions)
        elif kind == 6:                                 # user actions, no draw
            actions = [0 if model.pending[i] or not s.legal_actions()
                       else s.legal_actions()[-1] for i, s in enumerate(model.states)]
            vg.step(np.array(actions, np.int64))
            model.step(actions)
        else:                                           # reset mid-way
            if turn % 16 == 7:
                vg.reset()
                model.reset()
            else:
                vg.reset(seed=seed + turn)
                model.reset(seed + turn)
        model.check(vg)
    assert vg.random_actions().tolist() == model.random_actions()
