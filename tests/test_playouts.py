"""Seeded random playouts (docs/rules.md §6.2) on both backends."""
import pytest

from katra._games import GAME_IDS
from katra._reference.counting import SplitMix64


def test_splitmix64_known_values():
    # Published outputs of Vigna's splitmix64 for seeds 0 and 1234567.
    rng = SplitMix64(0)
    assert [rng.next(), rng.next()] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_splitmix64_wraps_modulo_2_64():
    rng = SplitMix64(2**64 - 1)
    assert rng.next() < 2**64 and rng.state == 0x9E3779B97F4A7C15 - 1


def play_one_by_hand(impl, text, seed, max_plies):
    """One game exactly as §6.2 words it: (winner or 'unfinished', plies)."""
    position = impl.Position.from_text(text)
    rng = SplitMix64(seed)
    plies = 0
    while True:
        actions = position.legal_actions()
        if not actions:
            return position.outcome()[0], plies
        if plies == max_plies:
            return "unfinished", plies
        position.apply(actions[rng.next() % len(actions)])
        plies += 1


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_batch_is_its_games_played_one_by_one(impl, game_id):
    """Game k of a batch with seed s is the game seeded s + k * 2**32."""
    text = impl.Position.initial(game_id).text()
    seed, games, max_plies = 99, 6, 150
    expected = {"games": games, "south_wins": 0, "north_wins": 0, "draws": 0,
                "unfinished": 0, "plies": 0}
    for k in range(games):
        result, plies = play_one_by_hand(impl, text, seed + k * 2**32, max_plies)
        key = {"unfinished": "unfinished", 0: "south_wins", 1: "north_wins", -1: "draws"}[result]
        expected[key] += 1
        expected["plies"] += plies
    assert impl.playouts(impl.Position.from_text(text), games, seed, max_plies) == expected


def test_batch_split_anywhere_gives_the_same_totals(impl):
    position = impl.Position.initial("katro-4x6")
    whole = impl.playouts(position, 8, 7, 500)
    parts = [impl.playouts(position, 1, (7 + k * 2**32) % 2**64, 500) for k in range(8)]
    for key in ("south_wins", "north_wins", "draws", "unfinished", "plies"):
        assert whole[key] == sum(p[key] for p in parts)


def test_seed_wraps_modulo_2_64(impl):
    position = impl.Position.initial("djenon-aboure")
    batch = impl.playouts(position, 2, 2**64 - 1, 300)
    second = impl.playouts(position, 1, 2**32 - 1, 300)  # (2**64 - 1 + 2**32) mod 2**64
    first = impl.playouts(position, 1, 2**64 - 1, 300)
    assert batch["plies"] == first["plies"] + second["plies"]


def test_terminal_start_is_finished_with_no_ply(impl):
    # South to move owns no seeds: no legal move, North wins every game.
    lost = impl.Position.from_text("katro-4x4 2,2,2,2/2,2,2,2/0,0,0,0/0,0,0,0 S")
    assert impl.playouts(lost, 5, 1, 10) == {"games": 5, "south_wins": 0, "north_wins": 5,
                                              "draws": 0, "unfinished": 0, "plies": 0}
    # No hole holds 2 or more and the stores sweep to 24-24: a draw.
    drawn = impl.Position.from_text("djenon-aboure 1,0,0,0,0,0/0,0,0,0,0,1 S stores=23,23")
    assert impl.playouts(drawn, 3, 1, 10)["draws"] == 3


def test_ply_limit_reached_is_unfinished(impl):
    start = impl.Position.initial("katro")
    assert impl.playouts(start, 4, 5, 0) == {"games": 4, "south_wins": 0, "north_wins": 0,
                                             "draws": 0, "unfinished": 4, "plies": 0}
    tally = impl.playouts(start, 4, 5, 3)
    assert tally["unfinished"] == 4 and tally["plies"] == 12


def test_a_game_ended_by_its_last_allowed_ply_is_finished(impl):
    # South's single seed a1 -> b1 (empty: the move ends); North then has no seeds.
    position = impl.Position.from_text("katro-4x4 0,0,0,0/0,0,0,0/0,0,0,0/1,0,0,0 S")
    assert impl.playouts(position, 2, 0, 1) == {"games": 2, "south_wins": 2, "north_wins": 0,
                                                "draws": 0, "unfinished": 0, "plies": 2}


@pytest.mark.parametrize("bad", [{"games": -1}, {"seed": -1}, {"seed": 2**64},
                                 {"max_plies": -2}, {"games": 1.0}, {"seed": "1"}])
def test_bad_arguments_raise_value_error(impl, bad):
    args = {"games": 1, "seed": 0, "max_plies": 10, **bad}
    with pytest.raises(ValueError):
        impl.playouts(impl.Position.initial("gore"), args["games"], args["seed"],
                      args["max_plies"])
