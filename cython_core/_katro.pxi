# Katro: katro (6x6), katro-4x6, katro-4x4 (RULES.md §2).


cdef inline int katro_row_seeds(const int* board, int start, int cols) noexcept nogil:
    cdef int k, total = 0
    for k in range(cols):
        total += board[start + k]
    return total


cdef inline int katro_candidates(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Non-empty holes of the mover's outermost non-empty row, ascending (§2.2)."""
    cdef int me = s.to_move
    cdef int d, k, start, n = 0
    for d in range(g.depth_rows):
        start = g.row_start[me][d]
        for k in range(start, start + g.cols):
            if s.board[k]:
                acts[n] = k
                n += 1
        if n:
            return n
    return 0


cdef inline int katro_capture_target(const int* board, GameTable* g, int me, int h) noexcept nogil:
    """The opponent hole captured by a landing in h (which holds >= 2), or -1 (§2.3)."""
    cdef int d, start, t
    cdef int opp = 1 - me
    # h must lie in the mover's innermost non-empty row
    for d in range(g.depth_of[h] + 1, g.depth_rows):
        if katro_row_seeds(board, g.row_start[me][d], g.cols):
            return -1
    # the opponent's innermost non-empty row, in h's column
    d = g.depth_rows - 1
    while d >= 0:
        start = g.row_start[opp][d]
        if katro_row_seeds(board, start, g.cols):
            t = start + g.col_of[h]
            return t if board[t] else -1
        d -= 1
    return -1


cdef inline long long katro_play(State* s, GameTable* g, int origin, long long limit) noexcept nogil:
    """Sow from origin in place; laps taken, or -1 past limit / never-ending."""
    cdef int me = s.to_move
    cdef int* board = s.board
    cdef int h = origin
    cdef int n = board[h]
    cdef int t
    cdef long long laps = 1
    cdef Cycle cyc
    cyc.active = 0
    board[h] = 0
    while True:
        if laps >= CYCLE_START:
            if cycle_check(&cyc, g, me, 0, board, h, n, 1):
                return -1
        h = sow(board, g, me, 0, h, n, 1)
        if board[h] == 1:
            break
        t = katro_capture_target(board, g, me, h)
        laps += 1
        if laps > limit:
            return -1
        if t >= 0:
            n = board[h] + board[t]
            board[h] = 0
            board[t] = 0
            cyc.active = 0   # captures never lie on a cycle: restart
        else:
            n = board[h]
            board[h] = 0
            cycle_relay(&cyc, h, n)
    s.to_move = 1 - me
    return laps
