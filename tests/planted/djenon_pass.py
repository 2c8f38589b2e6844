"""Planted mistake, Djenon-aboure: the forced pass is missing (docs/rules.md §5.2).

A player with no hole of 2 or more seeds (or no sowing that ends) must pass
while some hole on the board holds 2 or more; this version lists no move at
all there, as if the game were over.
"""
from katra._reference import djenon
from katra._reference.common import sowings_that_end


def legal_actions(pos, limit):
    if max(pos.board) < 2:
        return []
    return sowings_that_end(pos, djenon.sowing_candidates(pos), djenon.sow, limit)  # no pass


PATCHES = [(djenon, "legal_actions", legal_actions)]

if __name__ == "__main__":
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from _run import run
    run(PATCHES)
