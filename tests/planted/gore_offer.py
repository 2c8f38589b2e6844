"""Planted mistake, Goré: an offer counted wrongly (docs/rules.md §4.2).

An offer of k holes is legal when the opponent's store holds at least 6k
seeds; this version asks for more than 6k, so an opponent with exactly 6k
can never be offered k holes.
"""
from itertools import combinations

from katra._reference import gore


def offers(pos):
    mine = gore.owned_holes(pos, pos.to_move)
    their_store = pos.store[1 - pos.to_move]
    masks = []
    for k in (1, 2, 3):
        if k < len(mine) and their_store > gore.GORE_SEEDS_PER_TRADED_HOLE * k:  # should be >=
            masks += [sum(1 << i for i in holes) for holes in combinations(mine, k)]
    return sorted(gore.GORE_OFFER_BASE + mask for mask in masks)


PATCHES = [(gore, "offers", offers)]

if __name__ == "__main__":
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from _run import run
    run(PATCHES)
