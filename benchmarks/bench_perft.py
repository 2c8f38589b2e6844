"""Perft and playouts per game: the compiled core beside the reference.

    python -m pytest benchmarks/bench_perft.py --benchmark-group-by=group

Each group is one game and job; the two rows (core, reference) give the ratio
in one run.  Depths are chosen so that the reference takes well under a second.
"""
import pytest

from positions import mid_game_text

# (game id, perft depth from the start, perft depth mid-game)
DEPTHS = [
    ("katro", 4, 3),
    ("katro-4x6", 4, 4),
    ("katro-4x4", 5, 5),
    ("katra-mpantsaka", 3, 3),
    ("katra-mpantsaka-simplified", 2, 2),
    ("gore", 5, 5),
    ("djenon-aboure", 5, 5),
]


@pytest.mark.parametrize("game_id,depth,_", DEPTHS, ids=[d[0] for d in DEPTHS])
def test_perft_start(benchmark, impl, game_id, depth, _):
    benchmark.group = f"perft start {game_id} d{depth}"
    position = impl.Position.initial(game_id)
    nodes = benchmark(impl.perft, position, depth)
    benchmark.extra_info["nodes"] = nodes
    assert nodes > 0


@pytest.mark.parametrize("game_id,_,depth", DEPTHS, ids=[d[0] for d in DEPTHS])
def test_perft_mid_game(benchmark, impl, game_id, _, depth):
    benchmark.group = f"perft mid-game {game_id} d{depth}"
    position = impl.Position.from_text(mid_game_text(game_id))
    nodes = benchmark(impl.perft, position, depth)
    benchmark.extra_info["nodes"] = nodes
    assert nodes > 0


@pytest.mark.parametrize("game_id", [d[0] for d in DEPTHS])
def test_playouts(benchmark, impl, game_id):
    benchmark.group = f"playouts {game_id} x20"
    position = impl.Position.initial(game_id)
    tally = benchmark(impl.playouts, position, 20, 1, 1000)
    benchmark.extra_info["plies"] = tally["plies"]
    assert tally["games"] == 20


def api_playouts(game_id, games, seed, max_plies):
    """The same seeded games (docs/rules.md §6.2) played through the Python API, move by move."""
    import katra
    from katra._reference.counting import SplitMix64

    tally = {"games": games, "south_wins": 0, "north_wins": 0, "draws": 0, "unfinished": 0,
             "plies": 0}
    start = katra.game(game_id).initial_state()
    for k in range(games):
        rng = SplitMix64(seed + (k << 32))
        state = start.copy()
        plies = 0
        while True:
            actions = state.legal_actions()
            if not actions:
                winner = state.outcome().winner
                tally[{0: "south_wins", 1: "north_wins", None: "draws"}[winner]] += 1
                break
            if plies == max_plies:
                tally["unfinished"] += 1
                break
            state.push(actions[rng.next() % len(actions)])
            plies += 1
        tally["plies"] += plies
    return tally


@pytest.mark.parametrize("game_id", [d[0] for d in DEPTHS])
def test_playouts_through_the_python_api(benchmark, game_id):
    """Third row of each playouts group: the same games driven from Python (core State)."""
    import katra

    benchmark.group = f"playouts {game_id} x20"
    tally = benchmark(api_playouts, game_id, 20, 1, 1000)
    assert tally == katra.playouts(game_id, 20, seed=1, max_plies=1000)
