"""The search's and the solver's node counts at fixed depths and bounds, pinned.

A change of move order (the children's order, the ordering keys, the table's
keys) leaves results alone but changes how many nodes a search visits: these
counts catch it.  Every game id, from the start and from a mid-game position
(six plies in), on both working forms of the core (the lanes of the node
layer, and the int form: ``_core._set_lanes(False)``), which must agree.
The search at a fixed depth without a table (``tt_bits=0``: its count depends
on the move order alone) and with one of 2**16 entries; the solver's
thresholds within a fixed bound with a table of 2**16 entries.
"""
import pytest

from helpers import on_every_form
from katra import _core

#: depth of the search and bound of the solver, by game id
SEARCH_DEPTH = {"katro": 5, "katro-4x6": 6, "katro-4x4": 7, "katra-mpantsaka": 4,
                "katra-mpantsaka-simplified": 4, "gore": 6, "djenon-aboure": 7}
SOLVE_BOUND = {"katro": 6, "katro-4x6": 7, "katro-4x4": 9, "katra-mpantsaka": 5,
               "katra-mpantsaka-simplified": 5, "gore": 8, "djenon-aboure": 10}

#: (position, best action, score, search nodes without a table, with 2**16 entries,
#:  the solver's thresholds, the bound completed, the solver's nodes)
PINNED = [
    ('katro 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S',
     2, 40, 1093, 842, [-1, -1, -1, -1], 6, 939),
    ('katro 1,1,1,1,1,3/2,5,5,0,4,0/1,3,0,3,1,2/2,4,0,4,0,1/0,5,2,2,6,1/4,2,1,3,1,0 S',
     0, 74, 609, 580, [-1, -1, -1, -1], 6, 777),
    ('katro-4x6 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S',
     5, -1, 2584, 1929, [-1, -1, -1, -1], 7, 2068),
    ('katro-4x6 1,0,0,0,0,2/1,2,2,1,0,0/0,2,4,1,4,6/3,1,1,9,6,2 S',
     4, 99995, 734, 719, [5, 5, None, None], 5, 190),
    ('katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S',
     1, 56, 1993, 586, [-1, -1, -1, -1], 9, 1937),
    ('katro-4x4 2,3,4,1/1,11,3,6/0,0,0,0/0,1,0,0 S',
     1, -99998, 93, 93, [None, None, 2, 2], 2, 15),
    ('katra-mpantsaka 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S',
     23, -44, 1322, 913, [-1, -1, -1, -1], 5, 2083),
    ('katra-mpantsaka 1,0,2,0,6,1,10,0/4,1,0,1,4,2,9,1/1,1,0,1,0,0,0,1/1,4,0,1,4,4,0,4 S',
     18, -87, 360, 357, [-1, -1, -1, -1], 5, 982),
    ('katra-mpantsaka-simplified 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S',
     5, -58, 7619, 5939, [-1, -1, -1, -1], 5, 17335),
    ('katra-mpantsaka-simplified 5,0,0,4,1,4,0,4/1,1,0,1,1,1,2,4/0,2,1,5,1,2,2,5/4,3,0,1,2,0,6,1 S',
     3, 89, 2426, 2018, [-1, -1, -1, -1], 5, 12174),
    ('gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS',
     0, 20, 492, 451, [-1, -1, -1, -1], 8, 1778),
    ('gore 0,11,1,11/10,1,11,3 S stores=0,0 owners=NNNN/SSSS',
     3, 9, 1080, 508, [-1, -1, -1, -1], 8, 2256),
    ('djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S stores=0,0',
     4, 16, 6895, 2434, [-1, -1, -1, -1], 10, 7186),
    ('djenon-aboure 0,1,4,1,9,1/0,5,1,2,1,1 S stores=8,14',
     1, -53, 146, 141, [None, None, 8, 8], 8, 281),
]


def game_of(text):
    return text.split()[0]


@pytest.mark.parametrize("text, best, score, nodes, nodes_tt, thresholds, bound, solver_nodes",
                         PINNED, ids=[f"{game_of(p[0])}-{(i % 2 and 'mid') or 'start'}"
                                      for i, p in enumerate(PINNED)])
def test_pinned_node_counts(text, best, score, nodes, nodes_tt, thresholds, bound, solver_nodes):
    pos = _core.Position.from_text(text)
    depth = SEARCH_DEPTH[game_of(text)]

    def searches():
        plain = _core.search(pos, depth, tt_bits=0)
        table = _core.search(pos, depth, tt_bits=16)
        assert (table["best_action"], table["score"]) == (plain["best_action"], plain["score"])
        return plain["best_action"], plain["score"], plain["pv"], plain["nodes"], table["nodes"]

    got = on_every_form(searches)
    assert got[:2] == (best, score) and got[3:] == (nodes, nodes_tt)

    def solve():
        solver = _core.Solver(16)
        found, completed, timed_out = solver.thresholds(pos, SOLVE_BOUND[game_of(text)])
        assert not timed_out
        return found, completed, solver.nodes

    assert on_every_form(solve) == (thresholds, bound, solver_nodes)


def test_mid_game_positions_are_six_plies_in():
    # how PINNED's mid-game positions were made (so that they can be made again)
    for text in [p[0] for p in PINNED[1::2]]:
        pos = _core.Position.initial(game_of(text))
        for k in range(6):
            legal = pos.legal_actions()
            pos.push(legal[(3 * k + 1) % len(legal)])
        assert pos.text() == text
