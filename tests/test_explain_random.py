"""katra.explain over seeded random games: every move's trace against both backends
and against the rulebook's test for each landing (docs/rules.md §2.3, §3.3, §4.3, §5.2).

Driven by counts (games and plies), never by the clock.
"""
import pytest

import katra
from helpers import quick_and_slow
from katra import _core
from katra._reference.counting import SplitMix64

MAX_PLIES = 60             # Katra Mpantsaka and Goré games run long: a ply cap


def index(spec, square):
    return (int(square[1:]) - 1) * spec.cols + ord(square[0]) - ord("a")


def katro_capture_target(spec, board, mover, landing):
    """§2.3 step 2, written from the rulebook: the opponent's hole hit, or None."""
    half, cols = spec.rows // 2, spec.cols
    mine = list(range(half)) if mover == 0 else list(range(spec.rows - 1, half - 1, -1))
    theirs = list(range(spec.rows - 1, half - 1, -1)) if mover == 0 else list(range(half))

    def has_seeds(row):
        return any(board[row * cols:(row + 1) * cols])

    my_innermost = next(r for r in reversed(mine) if has_seeds(r))
    if landing // cols != my_innermost:
        return None
    for row in reversed(theirs):  # inner first
        if has_seeds(row):
            target = row * cols + landing % cols
            return target if board[target] else None
    return None


def rulebook_decision(state, lap):
    """(decision, captured squares' indices or None if not checked) by the rulebook."""
    spec = state.game.spec
    board, mover = lap.board, state.to_move
    landing = index(spec, lap.landing)
    if spec.family == "gore":
        # §4.3: the last seed in an opponent's hole that now holds 2 or 4.
        taken = state.owners[landing] != mover and board[landing] in (2, 4)
        return ("capture" if taken else "end"), None
    if board[landing] == 1:
        return "end", []
    if spec.family == "djenon":
        # §5.2: b = 1 or 3 captures; b = 2 or >= 4 relays.
        return ("capture" if lap.landing_before in (1, 3) else "relay"), None
    if spec.family == "katro":
        target = katro_capture_target(spec, board, mover, landing)
        return ("relay", []) if target is None else ("capture", [target])
    front = 1 if mover == 0 else 2            # §3.3: the mover's front row
    facing = (3 - front) * spec.cols + landing % spec.cols
    if landing // spec.cols == front and board[facing]:
        return "capture", [facing]
    return "relay", []


def random_games(game_id, games):
    """(state, action) for every ply of ``games`` seeded random games (§6.2 recipe)."""
    for game in range(games):
        rng = SplitMix64(1234 + (game << 32))
        state = katra.State(game_id)
        for _ in range(MAX_PLIES):
            legal = state.legal_actions()
            if not legal:
                break
            action = legal[rng.next() % len(legal)]
            yield state.copy(stack=False), action
            state.push(action)


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
@pytest.mark.parametrize("games", quick_and_slow(6, 150))
def test_every_move_of_random_games(game_id, games):
    check_random_games(game_id, games)


def check_random_games(game_id, games):
    moves = laps_seen = 0
    for state, action in random_games(game_id, games):
        trace = state.explain(action)
        moves += 1
        assert trace.after == state.child(action)
        assert trace.after.text() == state.copy().child(action).text()
        on_reference = katra.State.from_text(state.text(), backend="reference").explain(action)
        assert on_reference.after.text() == trace.after.text()
        assert on_reference.laps == trace.laps
        core = _core.Position.from_text(state.text())
        sows = bool(trace.laps)
        assert trace.total_laps == (core.lap_count(action) if sows else 0)
        assert len(trace.laps) == trace.total_laps
        spec = state.game.spec
        seeds_on_board = sum(state.board)
        for k, lap in enumerate(trace.laps):
            laps_seen += 1
            assert lap.number == k + 1
            assert len(lap.sown) == lap.seeds and lap.landing == lap.sown[-1]
            assert lap.landing_before == lap.board[index(spec, lap.landing)] - 1
            # Seeds are only moved during a lap: the board plus the hand's lifts add up.
            assert sum(lap.board) == seeds_on_board - sum(
                p.captured_seeds for p in trace.laps[:k] if spec.family in ("gore", "djenon"))
            decision, captured = rulebook_decision(state, lap)
            assert lap.decision == decision, (state.text(), trace.move, lap.number)
            if captured is not None:
                assert [index(spec, s) for s in lap.captured] == captured
            if k + 1 < len(trace.laps):
                following = trace.laps[k + 1]
                assert lap.decision in ("relay", "capture")
                assert following.start == lap.landing
                in_hand = lap.board[index(spec, lap.landing)]
                if lap.decision == "capture":  # Katro, Katra Mpantsaka: t joins the hand
                    in_hand += lap.captured_seeds
                assert following.seeds == in_hand
            else:
                assert lap.decision in ("end", "capture")
        if spec.family in ("gore", "djenon") and sows:
            gained = sum(lap.captured_seeds for lap in trace.laps)
            assert trace.after.stores[state.to_move] == state.stores[state.to_move] + gained
    assert moves > games and laps_seen >= moves // 2
