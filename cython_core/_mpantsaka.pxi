# Katra Mpantsaka: katra-mpantsaka, katra-mpantsaka-simplified (docs/rules.md §3).
# Action = 2 * origin + d, d = 0 counter-clockwise, d = 1 clockwise.
# Same functions, in the same order, as katra/_reference/mpantsaka.py.


def mpantsaka_paths(spec):
    """paths[player][direction]: the loop of the player's 16 holes (§3.1).

    South's CCW loop: a1 rightwards to h1, h2 leftwards to a2, back to a1;
    clockwise is the reverse; North's loops are South's turned half round.
    """
    cols = spec.cols
    south_ccw = two_row_loop(cols)
    north_ccw = [spec.holes - 1 - i for i in south_ccw]
    return (south_ccw, south_ccw[::-1]), (north_ccw, north_ccw[::-1])


# front_row / back_row: g.row_start[player][1] and g.row_start[player][0];
# g.front_opp[hole] is the opponent's front hole facing a front hole.


cdef inline u64 mpantsaka_origins_in(u64 seeded, u64 front, u64 back, int simplified) noexcept nogil:
    """The origin rule (§3.2) over a mask of the player's seeded holes (front,
    back: the masks of its rows): the seeded holes of its front row, or of its
    back row once the front row is empty; in the simplified variant, any."""
    if simplified:
        return seeded & (front | back)
    return seeded & front if seeded & front else seeded & back


cdef inline bint mpantsaka_lap_captures(bint front, bint facing_seeded) noexcept nogil:
    """The capture rule (§3.3) of a landing that relays: it captures iff it is
    a front hole and the opponent's front hole facing it holds seeds."""
    return front & facing_seeded


cdef inline u64 mpantsaka_origin_mask(const IntPosition* s, GameTable* g, int player) noexcept nogil:
    """The holes player may sow from (mpantsaka_origins_in over the board), as
    a mask (bit h for hole h)."""
    cdef int lo = own_holes_first(g, player)
    cdef u64 row = (<u64>1 << g.cols) - 1
    return mpantsaka_origins_in(holes_at_least(s.board, lo, lo + g.path_len, 1),
                                row << g.row_start[player][1], row << g.row_start[player][0],
                                g.simplified)


cdef inline int mpantsaka_origins(const IntPosition* s, GameTable* g, int player, int* holes) noexcept nogil:
    """The holes player may sow from, ascending into holes (NULL: only
    counted); how many."""
    return holes_listed(mpantsaka_origin_mask(s, g, player), holes)


cdef inline int mpantsaka_sowing_candidates(const IntPosition* s, GameTable* g, int* acts) noexcept nogil:
    """The mover's origin holes, each in both directions (2 * origin + d), ascending (§3.2)."""
    cdef int n = mpantsaka_origins(s, g, s.to_move, acts)
    cdef int k = n - 1
    while k >= 0:                   # spread in place, from the top: 2k >= k
        acts[2 * k + 1] = 2 * acts[k] + 1
        acts[2 * k] = 2 * acts[k]
        k -= 1
    return 2 * n


cdef inline int mpantsaka_lap_end(IntPosition* s, GameTable* g, int h, LapCarry* lap) noexcept nogil:
    """The end of a lap in h (the body of sow's loop): the move ends if h was
    empty; else h is lifted, with the facing front hole if h is a front hole
    and the facing one holds seeds (a capture)."""
    cdef int* board = s.board
    cdef int facing
    if relay_lap_ends(board[h]):
        return LAP_ENDS
    lap.hand = board[h]         # h is lifted by the next lap's sow_lap
    facing = g.front_opp[h]     # -1 unless h is a front hole (only the mover's are sown)
    if mpantsaka_lap_captures(facing >= 0, facing >= 0 and board[facing] != 0):
        lap.hand += board[facing]
        board[facing] = 0
        return LAP_CAPTURES
    return LAP_RELAYS


cdef inline long long mpantsaka_sow(IntPosition* s, GameTable* g, int action, long long limit) noexcept nogil:
    """Play the sowing of action in place; laps taken, or < 0 past limit."""
    return relay_sow(s, g, FAM_MPANTSAKA, s.to_move, action & 1, action >> 1, 1, limit)


cdef inline long long mpantsaka_apply(IntPosition* s, GameTable* g, int action, long long limit) noexcept nogil:
    cdef long long laps = mpantsaka_sow(s, g, action, limit)
    s.to_move = 1 - s.to_move
    return laps


# mpantsaka_outcome: katro_outcome_by_owners (the player to move loses, §3.4).


# ---------------------------------------------------------------- on lanes
# The same rules on the lanes of _lanes.pxi (HalvesTables): lanes 0..C-1 are the
# back row, C..2C-1 the front row, in the counter-clockwise loop; the sowing
# itself is halves_sow (a capture: HalvesTables.facing and front_face).


cdef inline u64 mpantsaka_sowing_candidates_lanes(unsigned seeded, const HalvesTables* tables,
                                                  int simplified) noexcept nogil:
    """mpantsaka_origins_in over the mover's seeded lanes (bit x for lane x),
    each in both directions: move bits x and 32 + x."""
    cdef u64 back = (<u64>1 << tables.C) - 1
    cdef u64 origins = mpantsaka_origins_in(seeded, back << tables.C, back, simplified)
    return origins | (origins << 32)


cdef inline unsigned mpantsaka_capturing_lanes(unsigned opp_seeded, const HalvesTables* tables,
                                               int C) noexcept nogil:
    """The mover's lanes whose landing would capture (the facing table, built
    from mpantsaka_lap_captures, over the opponent's seeded front holes: its
    lanes C..2C-1, C <= 8 holes a row).  Only a capture changes them during a
    sowing."""
    return tables.facing[(opp_seeded >> C) & ((1u << C) - 1)]
