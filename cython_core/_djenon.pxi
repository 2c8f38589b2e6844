# Djenon-aboure (docs/rules.md §5).  Actions: origin 0..11, 12 = pass.
# Same functions, in the same order, as katra/_reference/djenon.py.


def djenon_path(spec):
    """CCW round all 12 holes: a1 .. f1, f2 .. a2, then a1 again (§5.1)."""
    cols = spec.cols
    return list(range(cols)) + list(range(2 * cols - 1, cols - 1, -1))


# own_holes: s.to_move * g.cols .. + g.cols.


cdef inline int djenon_sowing_candidates(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Own holes holding at least 2 seeds, ascending (§5.2)."""
    cdef int start = s.to_move * g.cols
    cdef int k, n = 0
    for k in range(start, start + g.cols):
        if s.board[k] >= 2:
            acts[n] = k
            n += 1
    return n


cdef inline int djenon_lap_end(State* s, GameTable* g, int h, Lap* lap) noexcept nogil:
    """The end of a lap in h (the body of sow's loop): b, what h held before
    the last seed, decides: 0 ends the move; 1 or 3 (now 2 or 4) captures h
    and the run of 2s and 4s behind it, and ends the move; else h is relayed."""
    cdef int* board = s.board
    cdef int before = board[h] - 1
    cdef int taken = 0
    if before == 0:
        return LAP_ENDS
    if before == 1 or before == 3:
        while board[h] == 2 or board[h] == 4:
            taken += board[h]
            board[h] = 0
            h = g.prv[0][0][h]
        s.stores[s.to_move] += taken
        return LAP_ENDS
    lap.hand = board[h]          # relay: lift h, sow again from h
    board[h] = 0
    return LAP_RELAYS


cdef inline long long djenon_sow(State* s, GameTable* g, int origin, long long limit) noexcept nogil:
    """Play the sowing in place (the first seed back into the emptied hole);
    laps taken, or < 0 past limit."""
    return relay_sow(s, g, FAM_DJENON, 0, 0, origin, 0, limit)


cdef inline bint djenon_first_lap_ends(const State* s, GameTable* g, int origin) noexcept nogil:
    """Core only (perft's last ply): a first lap of fewer seeds than the 12 holes
    lands off the origin; if that hole held 0, 1 or 3 the move ends (§5.2)."""
    cdef int n = s.board[origin]
    cdef int before
    if n >= g.path_len:
        return 0
    before = s.board[g.path[0][0][g.pathpos[0][0][origin] + n - 1]]
    return before == 0 or before == 1 or before == 3


cdef inline int djenon_fallback(const State* s, GameTable* g) noexcept nogil:
    """legal_actions' pass: forced while some hole holds 2 or more and no
    sowing ends, else -1 (the game is over, §5.3)."""
    cdef int k
    for k in range(g.holes):
        if s.board[k] >= 2:
            return DJENON_PASS_C
    return -1


cdef inline long long djenon_apply(State* s, GameTable* g, int action, long long limit) noexcept nogil:
    cdef long long laps = 0
    if action != DJENON_PASS_C:
        laps = djenon_sow(s, g, action, limit)
    s.to_move = 1 - s.to_move
    return laps


cdef inline void djenon_outcome(const State* s, GameTable* g, int* winner, int* south,
                                int* north) noexcept nogil:
    """Terminal only: stores plus the seeds left in each player's row (§5.3)."""
    outcome_by_stores(s, g.holes, g.owner0, winner, south, north)


cdef inline void outcome_by_stores(const State* s, int holes, const int* owners, int* winner,
                                   int* south, int* north) noexcept nogil:
    cdef int i
    south[0] = s.stores[0]
    north[0] = s.stores[1]
    for i in range(holes):
        if owners[i] == 0:
            south[0] += s.board[i]
        else:
            north[0] += s.board[i]
    winner[0] = 0 if south[0] > north[0] else 1 if north[0] > south[0] else -1
