# cython: language_level=3
"""Every function of katra's C API (katra/capi.pxd), called on one node and
returned as Python values, for tests/test_cython_api.py to compare with katra.State."""
from libc.stdint cimport uint64_t
from libc.string cimport memset

from katra.capi cimport (KATRA_MAX_CHILDREN, import_katra, katra_children, katra_evaluate,
                         katra_from_state, katra_from_text, katra_is_over, katra_key,
                         katra_legal_actions, katra_legal_count, katra_material, katra_node,
                         katra_outcome, katra_play, katra_state, katra_text, katra_to_move,
                         katra_zobrist)

import_katra()


cdef dict facts_of(const katra_node* node):
    cdef katra_node kids[KATRA_MAX_CHILDREN]
    cdef int actions[KATRA_MAX_CHILDREN]
    cdef int listed[KATRA_MAX_CHILDREN]
    cdef int n, m, k, count, over, ended, winner = -9, south = -9, north = -9
    cdef int to_move, material0, material1, evaluation
    cdef uint64_t key, zobrist
    with nogil:                     # everything but the texts without the GIL
        count = katra_legal_count(node)
        m = katra_legal_actions(node, listed)
        n = katra_children(node, actions, kids)
        over = katra_is_over(node)
        ended = katra_outcome(node, &winner, &south, &north)
        to_move = katra_to_move(node)
        material0 = katra_material(node, 0)
        material1 = katra_material(node, 1)
        evaluation = katra_evaluate(node)
        key = katra_key(node)
        zobrist = katra_zobrist(node)
    return {
        "game": node.game, "legal_count": count, "legal_actions": [listed[k] for k in range(m)],
        "children": [(actions[k], katra_text(&kids[k]), katra_key(&kids[k]),
                      katra_zobrist(&kids[k])) for k in range(n)],
        "over": over, "outcome": (winner, south, north) if ended == 1 else <object>ended,
        "to_move": to_move, "material": (material0, material1), "evaluate": evaluation,
        "key": key, "zobrist": zobrist, "text": katra_text(node), "state": katra_state(node)}


def facts(position):
    """The API's answers for a position text or a katra.State."""
    cdef katra_node node
    if isinstance(position, str):
        katra_from_text(position, &node)
    else:
        katra_from_state(position, &node)
    return facts_of(&node)


def play(str text, int action):
    """The text of action's child, or None if katra_play finds it illegal."""
    cdef katra_node node, child
    cdef int r
    katra_from_text(text, &node)
    with nogil:
        r = katra_play(&node, action, &child)
    return None if r != 0 else katra_text(&child)


def unmade_node(int game, int form):
    """What every nogil function answers for a node with this game and form
    byte and zeroed words (not one the API made unless both are valid)."""
    cdef katra_node node
    cdef katra_node kids[KATRA_MAX_CHILDREN]
    cdef int acts[KATRA_MAX_CHILDREN]
    cdef int w, s, n
    memset(&node, 0, sizeof(node))
    node.game = <unsigned char>game
    node.form = <unsigned char>form
    return (katra_legal_count(&node), katra_legal_actions(&node, acts),
            katra_children(&node, acts, kids), katra_play(&node, 0, kids),
            katra_is_over(&node), katra_outcome(&node, &w, &s, &n), katra_to_move(&node),
            katra_material(&node, 0), katra_evaluate(&node), katra_key(&node),
            katra_zobrist(&node))


def unmade_text(int game, int form):
    """katra_text of such a node (raises for an invalid one)."""
    cdef katra_node node
    memset(&node, 0, sizeof(node))
    node.game = <unsigned char>game
    node.form = <unsigned char>form
    return katra_text(&node)


def bad_arguments(str text):
    """The nogil functions' answers to NULL buffers and a bad player."""
    cdef katra_node node
    cdef int w, s
    katra_from_text(text, &node)
    return (katra_legal_actions(&node, NULL), katra_children(&node, NULL, NULL),
            katra_play(&node, 0, NULL), katra_play(&node, -1, &node),
            katra_outcome(&node, &w, &s, NULL), katra_material(&node, 2),
            katra_material(&node, -1))
