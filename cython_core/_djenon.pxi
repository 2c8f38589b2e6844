# Djenon-aboure (RULES.md §5).  Actions: origin 0..11, 12 = pass.


cdef inline int djenon_candidates(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Own holes holding at least 2 seeds, ascending (the pass is the fallback)."""
    cdef int start = s.to_move * g.cols
    cdef int k, n = 0
    for k in range(start, start + g.cols):
        if s.board[k] >= 2:
            acts[n] = k
            n += 1
    return n


cdef inline int djenon_fallback(const State* s, GameTable* g) noexcept nogil:
    """Pass while some hole holds 2 or more, else -1 (the game is over)."""
    cdef int k
    for k in range(g.holes):
        if s.board[k] >= 2:
            return DJENON_PASS_C
    return -1


cdef inline long long djenon_play(State* s, GameTable* g, int action, long long limit) noexcept nogil:
    """Play in place; laps taken, or -1 past limit / never-ending (§5.2)."""
    cdef int me = s.to_move
    cdef int* board = s.board
    cdef int h = action
    cdef int n, b, taken, j
    cdef long long laps = 1
    cdef Cycle cyc
    if action == DJENON_PASS_C:
        s.to_move = 1 - me
        return 0
    cyc.active = 0
    n = board[h]
    board[h] = 0
    while True:
        if laps >= CYCLE_START:
            if cycle_check(&cyc, g, 0, 0, board, h, n, 0):
                return -1
        h = sow(board, g, 0, 0, h, n, 0)
        b = board[h] - 1
        if b == 0:
            break
        if b == 1 or b == 3:
            taken = board[h]
            board[h] = 0
            j = g.prv[0][0][h]
            while board[j] == 2 or board[j] == 4:
                taken += board[j]
                board[j] = 0
                j = g.prv[0][0][j]
            s.stores[me] += taken
            break
        laps += 1
        if laps > limit:
            return -1
        n = board[h]
        board[h] = 0
        cycle_relay(&cyc, h, n)
    s.to_move = 1 - me
    return laps
