# Katra Mpantsaka: katra-mpantsaka, katra-mpantsaka-simplified (RULES.md §3).
# Action = 2 * origin + d, d = 0 counter-clockwise, d = 1 clockwise.


cdef inline int mpantsaka_candidates(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Non-empty front-row holes (back row only if the front is empty; any own
    hole in the simplified variant), both directions, ascending (§3.2)."""
    cdef int me = s.to_move
    cdef int C = g.cols
    cdef int k, n = 0
    cdef int front = g.row_start[me][1]
    cdef int back = g.row_start[me][0]
    cdef int lo, hi
    if g.simplified:
        lo = front if front < back else back
        hi = lo + 2 * C
    else:
        lo = front
        hi = front + C
        for k in range(lo, hi):
            if s.board[k]:
                break
        else:
            lo = back
            hi = back + C
    for k in range(lo, hi):
        if s.board[k]:
            acts[n] = 2 * k
            acts[n + 1] = 2 * k + 1
            n += 2
    return n


cdef inline long long mpantsaka_play(State* s, GameTable* g, int action, long long limit) noexcept nogil:
    """Sow action (origin, direction) in place; laps taken, or -1 (§3.3)."""
    cdef int me = s.to_move
    cdef int d = action & 1
    cdef int* board = s.board
    cdef int h = action >> 1
    cdef int n = board[h]
    cdef int t
    cdef long long laps = 1
    cdef Cycle cyc
    cyc.active = 0
    board[h] = 0
    while True:
        if laps >= CYCLE_START:
            if cycle_check(&cyc, g, me, d, board, h, n, 1):
                return -1
        h = sow(board, g, me, d, h, n, 1)
        if board[h] == 1:
            break
        laps += 1
        if laps > limit:
            return -1
        t = g.front_opp[h]
        if t >= 0 and board[t]:
            n = board[h] + board[t]
            board[h] = 0
            board[t] = 0
            cyc.active = 0
        else:
            n = board[h]
            board[h] = 0
            cycle_relay(&cyc, h, n)
    s.to_move = 1 - me
    return laps
