# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""perft and negamax over katra's C-level API (docs/cython.md): a complete example.

Everything below the conversions runs without the GIL, on katra_node values:
the legal-move tree is walked by katra_children (every legal child at once),
and perft's last ply is only counted (katra_legal_count).
"""
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t

from katra.capi cimport (KATRA_MATE, KATRA_MAX_CHILDREN, import_katra, katra_children,
                         katra_evaluate, katra_from_text, katra_is_over, katra_legal_count,
                         katra_node, katra_outcome, katra_to_move)

import_katra()

cdef int INFINITE = 10 * KATRA_MATE


cdef uint64_t perft_nodes(const katra_node* node, int depth, katra_node* stack) noexcept nogil:
    """Leaves of the legal-move tree of node to depth >= 1; stack has room for
    KATRA_MAX_CHILDREN nodes a ply below this one."""
    cdef int n, k
    cdef uint64_t total = 0
    if depth == 1:
        return <uint64_t>katra_legal_count(node)
    n = katra_children(node, NULL, stack)
    for k in range(n):
        total += perft_nodes(&stack[k], depth - 1, stack + KATRA_MAX_CHILDREN)
    return total


cdef katra_node* node_stack(int depth) except NULL:
    """Room for KATRA_MAX_CHILDREN children on each of depth plies."""
    cdef katra_node* stack = <katra_node*>malloc(
        (depth if depth > 0 else 1) * KATRA_MAX_CHILDREN * sizeof(katra_node))
    if stack == NULL:
        raise MemoryError()
    return stack


def perft(str position_text, int depth):
    """The number of leaves of the legal-move tree to depth (as katra.perft)."""
    cdef katra_node root
    cdef katra_node* stack
    cdef uint64_t count
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    katra_from_text(position_text, &root)      # katra.PositionError for a bad text
    if depth == 0:
        return 1
    stack = node_stack(depth)
    with nogil:
        count = perft_nodes(&root, depth, stack)
    free(stack)
    return count


cdef int negamax_value(const katra_node* node, int depth, int ply, int alpha, int beta,
                       katra_node* stack, int* best) noexcept nogil:
    """The value of node from its player to move, searched to depth (alpha-beta,
    fail-soft); a win at ply p is KATRA_MATE - p.  With best, the least action
    of the best value goes there."""
    cdef int actions[KATRA_MAX_CHILDREN]
    cdef int n, k, v, south, north, winner = -1
    cdef int me = katra_to_move(node)
    cdef int value = -INFINITE
    if katra_outcome(node, &winner, &south, &north):      # the game is over
        if winner < 0:
            return 0
        return KATRA_MATE - ply if winner == me else -(KATRA_MATE - ply)
    if depth == 0:
        return katra_evaluate(node)
    n = katra_children(node, actions, stack)
    for k in range(n):
        if katra_to_move(&stack[k]) == me:          # Goré's answers keep the turn
            v = negamax_value(&stack[k], depth - 1, ply + 1, alpha, beta,
                              stack + KATRA_MAX_CHILDREN, NULL)
        else:
            v = -negamax_value(&stack[k], depth - 1, ply + 1, -beta, -alpha,
                               stack + KATRA_MAX_CHILDREN, NULL)
        if v > value:                  # actions ascend: a tie keeps the least one
            value = v
            if best != NULL:
                best[0] = actions[k]
        if v > alpha:
            alpha = v
        if alpha >= beta and best == NULL:
            break                      # the root searches every move with the full window
    return value


def negamax(str position_text, int depth):
    """(score, best action) of a negamax to depth with katra.search's evaluation
    (docs/engine.md): the score katra.search(position_text, depth=depth) finds,
    and the least action that reaches it.  ValueError for a finished game."""
    cdef katra_node root
    cdef katra_node* stack
    cdef int score, best = -1
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    katra_from_text(position_text, &root)
    if katra_is_over(&root):
        raise ValueError(f"the game is over: {position_text}")
    stack = node_stack(depth)
    with nogil:
        score = negamax_value(&root, depth, 0, -INFINITE, INFINITE, stack, &best)
    free(stack)
    return score, best
