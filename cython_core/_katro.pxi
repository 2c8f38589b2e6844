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


cdef inline bint katro_row_has_seeds(const int* board, int start, int cols) noexcept nogil:
    """Branch-free for the Katro widths (4 or 6 holes)."""
    cdef const int* row = board + start
    cdef int seeds = row[0] | row[1] | row[2] | row[3]
    if cols == 6:
        seeds |= row[4] | row[5]
    return seeds != 0


cdef inline int katro_origins(const State* s, GameTable* g, int player, int* holes) noexcept nogil:
    """The holes player may sow from (the origin rule, §2.2): the non-empty holes
    of its outermost non-empty row, ascending."""
    cdef int d, start, n
    for d in range(g.depth_rows):
        start = g.row_start[player][d]
        n = seeded_holes(s.board, start, start + g.cols, holes)
        if n:
            return n
    return 0


cdef inline int katro_sowing_candidates(const State* s, GameTable* g, int* acts) noexcept nogil:
    """The mover's origin holes, ascending (an action is its origin, §2.2)."""
    return katro_origins(s, g, s.to_move, acts)


cdef inline int katro_capture_target(const int* board, GameTable* g, int me,
                                     int landing, int* opp_row) noexcept nogil:
    """The opponent hole captured by a landing in landing, or -1 (§2.3 step 2).
    opp_row caches the opponent's innermost non-empty row (Lap.opp_row): only
    a capture changes the opponent's holes during a sowing."""
    cdef int d, start, target
    # the landing hole must lie in the mover's innermost non-empty row
    for d in range(g.depth_of[landing] + 1, g.depth_rows):
        if katro_row_has_seeds(board, g.row_start[me][d], g.cols):
            return -1
    # the opponent's innermost non-empty row, in the landing hole's column
    if opp_row[0] == OPP_ROW_UNKNOWN:
        opp_row[0] = -1             # the opponent has no seeds
        d = g.depth_rows - 1
        while d >= 0:
            start = g.row_start[1 - me][d]
            if katro_row_has_seeds(board, start, g.cols):
                opp_row[0] = start
                break
            d -= 1
    if opp_row[0] < 0:
        return -1
    target = opp_row[0] + g.col_of[landing]
    return target if board[target] else -1


cdef inline int katro_lap_end(State* s, GameTable* g, int h, Lap* lap) noexcept nogil:
    """The end of a lap in h (the body of sow's loop): the move ends if h was
    empty; else h is lifted, with the captured hole's seeds if there is one."""
    cdef int* board = s.board
    cdef int target
    if board[h] == 1:
        return LAP_ENDS
    target = katro_capture_target(board, g, s.to_move, h, &lap.opp_row)
    lap.hand = board[h]
    board[h] = 0
    if target >= 0:             # capture: both holes sown on from the next hole
        lap.hand += board[target]
        board[target] = 0
        lap.opp_row = OPP_ROW_UNKNOWN     # that row may now be empty
        return LAP_CAPTURES
    return LAP_RELAYS


cdef inline long long katro_sow(State* s, GameTable* g, int origin, long long limit) noexcept nogil:
    """Play the sowing from origin in place; laps taken, or < 0 past limit."""
    return relay_sow(s, g, FAM_KATRO, s.to_move, 0, origin, 1, limit)


cdef inline bint katro_first_lap_ends(const State* s, GameTable* g, int origin) noexcept nogil:
    """Core only (perft's last ply): a lap of fewer seeds than the path holds
    that lands in an empty hole ends the move, so the move is legal unsown."""
    cdef int me = s.to_move
    cdef int n = s.board[origin]
    if n >= g.path_len:
        return 0
    return s.board[g.path[me][0][g.pathpos[me][0][origin] + n]] == 0


cdef inline long long katro_apply(State* s, GameTable* g, int action, long long limit) noexcept nogil:
    cdef long long laps = katro_sow(s, g, action, limit)
    s.to_move = 1 - s.to_move
    return laps


cdef inline void katro_outcome(const State* s, GameTable* g, int* winner, int* south,
                               int* north) noexcept nogil:
    """Terminal only: the player to move has no legal move and loses (§2.4)."""
    katro_outcome_by_owners(s, g, winner, south, north)


cdef inline void katro_outcome_by_owners(const State* s, GameTable* g, int* winner, int* south,
                                         int* north) noexcept nogil:
    cdef int i
    south[0] = 0
    north[0] = 0
    for i in range(g.holes):
        if g.owner0[i] == 0:
            south[0] += s.board[i]
        else:
            north[0] += s.board[i]
    winner[0] = 1 - s.to_move


# ---------------------------------------------------------------- on lanes
# The same rules on the lanes of _lanes.pxi (SideLanes): the mover's row of
# depth d is its lanes d*C .. d*C+C-1, outer row first; the sowing itself is
# side_sow_lanes.


cdef inline u64 katro_sowing_candidates_lanes(const u64* me, const SideLanes* T,
                                              int NW) noexcept nogil:
    """The seeded lanes of the mover's outermost non-empty row (§2.2), as move bits."""
    cdef unsigned seeded = lanes_nonzero_bits(me, NW)
    cdef unsigned row = (1u << T.C) - 1
    cdef int d
    for d in range(T.K):
        if seeded & (row << (d * T.C)):
            return seeded & (row << (d * T.C))
    return 0


cdef inline unsigned katro_capturing_lanes(const u64* op, const SideLanes* T, int NW, int L,
                                           int* od) noexcept nogil:
    """The mover's lanes facing a seed of the opponent's innermost non-empty row
    (its depth in od): a landing there captures that seed's hole if it lies in
    the mover's innermost non-empty row (§2.3 step 2).  Only a capture changes
    the opponent's holes during a sowing, so this is recomputed only then."""
    cdef unsigned seeded = lanes_nonzero_bits(op, NW)
    cdef unsigned row_mask = (1u << T.C) - 1
    cdef unsigned row
    cdef int d = T.K - 1
    while d >= 0:
        row = (seeded >> (d * T.C)) & row_mask
        if row:
            od[0] = d
            return T.captures[d][row]
        d -= 1
    od[0] = 0
    return 0


cdef inline unsigned katro_lap_captures(u64 deeper, int land, unsigned capturing) noexcept nogil:
    """Does a landing in lane land capture?  1 if it faces a seed of the
    opponent's innermost non-empty row (capturing) and no deeper row of the
    mover holds seeds (deeper: the mover's lanes in those rows).  Arithmetic,
    not a branch: (deeper | -deeper) has its top bit set iff deeper != 0."""
    return (capturing >> land) & 1 & <unsigned>((~(deeper | (0 - deeper))) >> 63)
