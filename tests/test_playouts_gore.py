"""Goré playouts in the core draw each ply's action without listing the legal
actions (it counts them, then makes only the drawn one): the seeded games must
still be exactly the reference's (docs/rules.md §6.2).  Near-terminal positions
with stores large enough for offers make the games end, so a different draw
would change who wins and after how many plies."""
import random

import katra._core as core
import katra._reference as reference


def near_terminal_gore_texts(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        board = [rng.choice([0, 0, 1, 2, 3, 4, 5]) for _ in range(8)]
        owners = "".join(rng.choice("NS") for _ in range(8))
        stores = rng.randrange(0, 25), rng.randrange(0, 25)
        yield (f"gore {','.join(map(str, board[:4]))}/{','.join(map(str, board[4:]))} "
               f"{rng.choice('SN')} stores={stores[0]},{stores[1]} "
               f"owners={owners[:4]}/{owners[4:]}")


def test_gore_playouts_match_the_reference_on_games_that_end():
    finished = 0
    for k, text in enumerate(near_terminal_gore_texts(120, seed=5)):
        got = core.playouts(core.Position.from_text(text), 8, k, 60)
        want = reference.playouts(reference.Position.from_text(text), 8, k, 60)
        assert got == want, text
        finished += got["games"] - got["unfinished"]
    assert finished >= 50     # the games really end, so the draws are checked
