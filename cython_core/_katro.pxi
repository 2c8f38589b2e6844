# Katro: katro (6x6), katro-4x6, katro-4x4 (docs/rules.md §2).
# Same functions, in the same order, as katra/_reference/katro.py.


def katro_paths(spec):
    """(South's path, North's path) as lists of hole indices (§2.1).

    South: row 1 rightwards, row 2 leftwards, row 3 rightwards (6x6), then
    back to a1.  North's path is South's turned half round.
    """
    south = []
    for row in range(spec.rows // 2):
        cols = range(spec.cols) if row % 2 == 0 else range(spec.cols - 1, -1, -1)
        south += [row * spec.cols + col for col in cols]
    return south, [spec.holes - 1 - i for i in south]


# own_rows: g.row_start[player][depth] is the first hole of the player's row at
# that depth, outer (0) to inner (depth_rows - 1); g.depth_of[hole] its depth.


cdef inline u64 katro_origins_in(u64 seeded, int outer, int step, int K, int C) noexcept nogil:
    """The origin rule (§2.2) over a mask of the player's seeded holes: the
    seeded holes of its outermost non-empty row, as a mask (its K rows of C
    bits begin at bit outer + d * step, d = 0 the outer row)."""
    cdef u64 row = (<u64>1 << C) - 1
    cdef int d
    for d in range(K):
        if seeded & (row << (outer + d * step)):
            return seeded & (row << (outer + d * step))
    return 0


cdef inline unsigned katro_innermost_row(u64 seeded, const int* row_start, int K, int C,
                                         int* depth) noexcept nogil:
    """Where a capture takes from (§2.3 step 2), over a mask of the opponent's
    seeded holes (row_start[d]: the first bit of its row of depth d): the
    seeds of its innermost non-empty row, bit i for the row's i-th bit, and
    that row's depth in depth (0 and -1 when it has no seeds)."""
    cdef unsigned row_mask = (1u << C) - 1
    cdef unsigned row
    cdef int d = K - 1
    while d >= 0:
        row = <unsigned>(seeded >> row_start[d]) & row_mask
        if row:
            depth[0] = d
            return row
        d -= 1
    depth[0] = -1
    return 0


cdef inline bint katro_lap_captures(bint deeper_seeded, bint facing_seeded) noexcept nogil:
    """The capture rule (§2.3 step 2) of a landing that relays: it captures iff
    its row is the mover's innermost non-empty row (no deeper row of the
    mover holds seeds) and the hole facing it in the opponent's innermost
    non-empty row holds seeds."""
    return facing_seeded & (not deeper_seeded)     # branch-free: data-dependent in relay chains


cdef inline u64 katro_origin_mask(const IntPosition* s, GameTable* g, int player) noexcept nogil:
    """The holes player may sow from (katro_origins_in over the board), as a
    mask (bit h for hole h)."""
    cdef int lo = own_holes_first(g, player)
    return katro_origins_in(holes_at_least(s.board, lo, lo + g.path_len, 1),
                            g.row_start[player][0], g.cols if player == 0 else -g.cols,
                            g.depth_rows, g.cols)


cdef inline int katro_origins(const IntPosition* s, GameTable* g, int player, int* holes) noexcept nogil:
    """The holes player may sow from, ascending into holes (NULL: only
    counted); how many."""
    return holes_listed(katro_origin_mask(s, g, player), holes)


cdef inline int katro_sowing_candidates(const IntPosition* s, GameTable* g, int* acts) noexcept nogil:
    """The mover's origin holes, ascending (an action is its origin, §2.2)."""
    return katro_origins(s, g, s.to_move, acts)


cdef inline int katro_capture_target(const int* board, GameTable* g, int me,
                                     int landing, LapCarry* lap) noexcept nogil:
    """The opponent hole captured by a landing in landing, or -1
    (katro_lap_captures: the mover's deeper rows from lap.mine, the lap's
    seeded holes; the opponent's row is looked up only when the mover's rows
    alone leave a capture possible).  lap caches the
    opponent's seeded holes and the first hole of its innermost non-empty row
    (LapCarry.opp_seeded, opp_row): only a capture changes the opponent's holes
    during a sowing (katro_lap_end clears the captured hole's bit)."""
    cdef int d, lo, target
    cdef bint deeper = (lap.mine & g.deeper_rows[landing]) != 0
    if not katro_lap_captures(deeper, 1):      # no capture whatever it faces
        return -1
    if lap.opp_row < -1:            # OPP_ROW_UNKNOWN or OPP_ROW_STALE
        if lap.opp_row == OPP_ROW_UNKNOWN:
            lo = own_holes_first(g, 1 - me)
            lap.opp_seeded = holes_at_least(board, lo, lo + g.path_len, 1)
        katro_innermost_row(lap.opp_seeded, g.row_start[1 - me], g.depth_rows, g.cols, &d)
        lap.opp_row = g.row_start[1 - me][d] if d >= 0 else -1
    if lap.opp_row < 0:
        return -1
    target = lap.opp_row + g.col_of[landing]
    return target if katro_lap_captures(deeper, board[target] != 0) else -1


cdef inline int katro_lap_end(IntPosition* s, GameTable* g, int h, LapCarry* lap) noexcept nogil:
    """The end of a lap in h (the body of sow's loop): the move ends if h was
    empty; else h is lifted, with the captured hole's seeds if there is one."""
    cdef int* board = s.board
    cdef int target
    if relay_lap_ends(board[h]):
        return LAP_ENDS
    target = katro_capture_target(board, g, s.to_move, h, lap)
    lap.hand = board[h]         # h is lifted by the next lap's sow_lap
    if target >= 0:             # capture: both holes sown on from the next hole
        lap.hand += board[target]
        board[target] = 0
        lap.opp_seeded &= ~((<u64>1) << target)
        lap.opp_row = OPP_ROW_STALE       # that row may now be empty
        return LAP_CAPTURES
    return LAP_RELAYS


cdef inline long long katro_sow(IntPosition* s, GameTable* g, int origin, long long limit) noexcept nogil:
    """Play the sowing from origin in place; laps taken, or < 0 past limit."""
    return relay_sow(s, g, FAM_KATRO, s.to_move, 0, origin, 1, limit)


cdef inline long long katro_apply(IntPosition* s, GameTable* g, int action, long long limit) noexcept nogil:
    cdef long long laps = katro_sow(s, g, action, limit)
    s.to_move = 1 - s.to_move
    return laps


cdef inline int katro_winner(int to_move) noexcept nogil:
    """Katro and Katra Mpantsaka (§2.4, §3.4): the player to move has no legal
    move and loses."""
    return 1 - to_move


cdef inline void katro_outcome(const IntPosition* s, GameTable* g, int* winner, int* south,
                               int* north) noexcept nogil:
    """Terminal only: the player to move has no legal move and loses (§2.4)."""
    katro_outcome_by_owners(s, g, winner, south, north)


cdef inline void katro_outcome_by_owners(const IntPosition* s, GameTable* g, int* winner, int* south,
                                         int* north) noexcept nogil:
    cdef int i
    south[0] = 0
    north[0] = 0
    for i in range(g.holes):
        if g.owner0[i] == 0:
            south[0] += s.board[i]
        else:
            north[0] += s.board[i]
    winner[0] = katro_winner(s.to_move)


# ---------------------------------------------------------------- on lanes
# The same rules on the lanes of _lanes.pxi (HalvesTables): the mover's row of
# depth d is its lanes d*C .. d*C+C-1, outer row first; the sowing itself is
# halves_sow.


cdef inline u64 katro_sowing_candidates_lanes(unsigned seeded, const HalvesTables* tables) noexcept nogil:
    """katro_origins_in over the mover's seeded lanes (bit x for lane x), as move bits."""
    return katro_origins_in(seeded, 0, tables.C, tables.K, tables.C)


cdef inline unsigned katro_capturing_lanes(unsigned opp_seeded, const HalvesTables* tables,
                                           int* od) noexcept nogil:
    """The mover's lanes whose landing would capture, were no deeper row of the
    mover seeded (the capturing table, built from katro_lap_captures, over the
    opponent's innermost non-empty row, from its seeded lanes; its depth in
    od).  Only a capture changes the opponent's holes during a sowing, so this
    is recomputed only then."""
    cdef unsigned row = katro_innermost_row(opp_seeded, tables.row_start, tables.K, tables.C, od)
    return tables.captures[od[0]][row] if row else 0
