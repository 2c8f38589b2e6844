# Djenon-aboure (docs/rules.md §5).  Actions: origin 0..11, 12 = pass.
# Same functions, in the same order, as katra/_reference/djenon.py.


def djenon_path(spec):
    """CCW round all 12 holes: a1 .. f1, f2 .. a2, then a1 again (§5.1)."""
    return two_row_loop(spec.cols)


# own_holes: s.to_move * g.cols .. + g.cols.


cdef inline u64 djenon_origins_in(u64 at_least_two, u64 own) noexcept nogil:
    """The origin rule (§5.2) over masks: the player's own holes (own) holding
    at least 2 seeds (at_least_two)."""
    return at_least_two & own


cdef inline bint djenon_pass_forced(u64 at_least_two) noexcept nogil:
    """The pass rule (§5.3), when no sowing is legal: the pass is forced while
    some hole holds 2 seeds or more (at_least_two, a mask of the holes: a bit
    or a lane's high bit each); else the game is over."""
    return at_least_two != 0


cdef inline bint djenon_lap_ends(int landed) noexcept nogil:
    """The lap-end rule (§5.2), on landed = b + 1, what the landing hole holds
    once the lap's last seed is in: b = 0, 1 or 3 (landed 1, 2 or 4) ends the
    move (1 or 3 with a capture); b = 2 or b >= 4 relays."""
    return <bint>((landed <= 4) & (0x16 >> (landed & 7)) & 1)


cdef inline bint djenon_lap_captures(int landed) noexcept nogil:
    """§5.2: of the laps that end (djenon_lap_ends), those with b = 1 or 3 (the
    landing hole now holds 2 or 4) capture it and the run behind it
    (djenon_capturable): every one but b = 0 (landed 1)."""
    return landed != 1


cdef inline bint djenon_capturable(int seeds) noexcept nogil:
    """§5.2: a hole of the run behind a capture is taken while it holds 2 or 4."""
    return seeds == 2 or seeds == 4


cdef inline u64 djenon_origin_mask(const IntPosition* s, GameTable* g, int player) noexcept nogil:
    """The holes player may sow from (djenon_origins_in over the board), as a
    mask (bit h for hole h)."""
    return djenon_origins_in(holes_at_least(s.board, 0, g.holes, 2),
                             ((<u64>1 << g.cols) - 1) << (player * g.cols))


cdef inline int djenon_origins(const IntPosition* s, GameTable* g, int player, int* holes) noexcept nogil:
    """The holes player may sow from, ascending into holes (NULL: only
    counted); how many."""
    return holes_listed(djenon_origin_mask(s, g, player), holes)


cdef inline int djenon_sowing_candidates(const IntPosition* s, GameTable* g, int* acts) noexcept nogil:
    """The mover's origin holes, ascending (an action is its origin, §5.2)."""
    return djenon_origins(s, g, s.to_move, acts)


cdef inline int djenon_lap_end(IntPosition* s, GameTable* g, int h, LapCarry* lap) noexcept nogil:
    """The end of a lap in h (the body of sow's loop), by djenon_lap_ends and
    djenon_lap_captures: the move ends, with or without a capture, or h is relayed."""
    cdef int* board = s.board
    if not djenon_lap_ends(board[h]):
        lap.hand = board[h]          # relay: the next lap's sow_lap lifts h and sows from it
        return LAP_RELAYS
    if djenon_lap_captures(board[h]):
        djenon_capture(s, h)
    return LAP_ENDS


cdef inline long long djenon_sow(IntPosition* s, GameTable* g, int origin, long long limit) noexcept nogil:
    """Play the sowing in place (the first seed back into the emptied hole);
    laps taken, or < 0 past limit."""
    return relay_sow(s, g, FAM_DJENON, 0, 0, origin, 0, limit)


cdef inline int djenon_fallback(const IntPosition* s, GameTable* g) noexcept nogil:
    """legal_actions' pass (djenon_pass_forced over the board), else -1 (the
    game is over)."""
    if djenon_pass_forced(holes_at_least(s.board, 0, g.holes, 2)):
        return g.holes              # the pass: DJENON_PASS_C on the named board (§7)
    return -1


cdef inline long long djenon_apply(IntPosition* s, GameTable* g, int action, long long limit) noexcept nogil:
    cdef long long laps = 0
    if action != g.holes:           # not the pass
        laps = djenon_sow(s, g, action, limit)
    s.to_move = 1 - s.to_move
    return laps


cdef inline void djenon_outcome(const IntPosition* s, GameTable* g, int* winner, int* south,
                                int* north) noexcept nogil:
    """Terminal only: stores plus the seeds left in each player's row (§5.3)."""
    outcome_by_stores(s, g.holes, g.owner0, winner, south, north)


cdef inline void outcome_by_stores(const IntPosition* s, int holes, const int* owners, int* winner,
                                   int* south, int* north) noexcept nogil:
    cdef int i
    south[0] = s.stores[0]
    north[0] = s.stores[1]
    for i in range(holes):
        if owners[i] == 0:
            south[0] += s.board[i]
        else:
            north[0] += s.board[i]
    winner[0] = winner_by_scores(south[0], north[0])


# ---------------------------------------------------------------- on lanes
# The same rules on the lanes of _lanes.pxi: the 12 holes in path order
# (lanes 0..5 South's row a1..f1, lanes 6..11 North's f2..a2), one loop,
# the first seed back into the lifted hole (offset 0).

ctypedef struct DjenonNode:
    u64 b[2]
    int to_move
    int stores[2]

ctypedef struct DjenonLanes:
    LoopLanes loop
    unsigned own[2]           # player p's lanes, as bits
    int hole_of[DJENON_HOLES]           # board hole of lane x
    int ascending[2][DJENON_COLS]       # player p's lanes in ascending board order
    u64 game_key              # ZKEY_GAME of Djenon-aboure (the solver's keys)

cdef DjenonLanes DJENON_LANES


cdef void _djenon_lanes(GameTable* g):
    cdef DjenonLanes* t = &DJENON_LANES
    cdef int x, p
    memset(t, 0, sizeof(DjenonLanes))
    _require(g.path_len == DJENON_HOLES, "Djenon-aboure's loop is the board")
    _loop_lanes(&t.loop, DJENON_HOLES, 0, 8)
    t.game_key = ZKEY_GAME[g - &TABLES[0]]
    for x in range(DJENON_HOLES):
        t.hole_of[x] = g.path[0][0][x]
        t.own[g.owner0[t.hole_of[x]]] |= 1u << x
    for p in range(2):
        lanes = sorted((g.path[0][0][x], x) for x in range(DJENON_HOLES) if g.owner0[g.path[0][0][x]] == p)
        _require(len(lanes) == DJENON_COLS, "Djenon-aboure: a row a player")
        holes = [t.hole_of[x] for x in range(DJENON_HOLES) if g.owner0[t.hole_of[x]] == p]
        _require(holes in (sorted(holes), sorted(holes, reverse=True)),
                 "Djenon-aboure: a row's lanes are in board order or its reverse")
        for x in range(DJENON_COLS):
            t.ascending[p][x] = lanes[x][1]


cdef inline unsigned djenon_sowing_candidates_lanes(const DjenonNode* s) noexcept nogil:
    """djenon_origins_in over the lanes, as bits."""
    return djenon_origins_in(lanes_at_least_bits(s.b, 2, 2), DJENON_LANES.own[s.to_move])


ctypedef fused DjenonForm:
    IntPosition
    DjenonNode


cdef inline void djenon_capture(DjenonForm* s, int h) noexcept nogil:
    """A capturing lap's end in h (djenon_lap_captures, §5.2): h and the run of
    2s and 4s behind it (djenon_capturable) go into the mover's store."""
    cdef int seeds
    while True:
        if DjenonForm is IntPosition:
            seeds = s.board[h]
        else:
            seeds = lane_of_words(s.b[0], s.b[1], 0, h, 2, 8)
        if not djenon_capturable(seeds):
            return
        s.stores[s.to_move] += seeds
        if DjenonForm is IntPosition:
            s.board[h] = 0
            h = TABLES[s.game].prv[0][0][h]
        else:
            words_clear(&s.b[0], &s.b[1], &s.b[1], h, &DJENON_LANES.loop, 2, 8)
            h = DJENON_LANES.loop.prv[h]


cdef inline long long djenon_sow_lanes(DjenonNode* s, int x, long long limit) noexcept nogil:
    """djenon_sow on lanes: laps taken, or -(laps played) past limit (s is then
    garbage).  No capture goes on sowing, so Brent's detector counts the laps
    from the start."""
    cdef const LoopLanes* lp = &DJENON_LANES.loop
    cdef u64 b0 = s.b[0], b1 = s.b[1]
    cdef u64 s0 = 0, s1 = 0, s2 = 0          # Brent's saved lap start
    cdef int saved_at = 0
    cdef Brent brent = Brent(0, 0)
    cdef int hand = lane_of_words(b0, b1, 0, x, 2, 8)
    cdef int pos = x, r, q, land, seeds
    cdef long long laps = 1
    cdef const LapStep* step
    words_clear(&b0, &b1, &b1, x, lp, 2, 8)
    while True:
        if brent_cycles_words(&brent, laps - 1, b0, b1, 0, pos | (hand << 8),
                              &s0, &s1, &s2, &saved_at):
            return -laps
        r = hand
        if hand >= DJENON_HOLES:
            q = whole_rounds(hand, DJENON_HOLES, &r)
            b0 += <u64>q * lp.valid[0]
            b1 += <u64>q * lp.valid[1]
        step = &lp.step[0][pos][r]
        b0 += step.add[0]
        b1 += step.add[1]
        land = step.land
        seeds = lane_of_words(b0, b1, 0, land, 2, 8)
        if djenon_lap_ends(seeds):
            s.b[0] = b0
            s.b[1] = b1
            if djenon_lap_captures(seeds):
                djenon_capture(s, land)
            return laps
        words_clear(&b0, &b1, &b1, land, lp, 2, 8)   # relay: lift it, sow on from it
        pos = land
        hand = seeds
        if laps >= limit:
            return -laps
        laps += 1



cdef inline bint djenon_first_lap_ends_lanes(const DjenonNode* s, int x) noexcept nogil:
    """loop_first_lap_ends on Djenon-aboure's loop."""
    return loop_first_lap_ends(s.b, &DJENON_LANES.loop, DJENON_HOLES, x, 0, FAM_DJENON, 8)


cdef inline bint djenon_pass_forced_lanes(const DjenonNode* s) noexcept nogil:
    """djenon_pass_forced over the lanes (their high bits: no gather)."""
    return djenon_pass_forced(lanes_at_least(s.b[0], 2) | lanes_at_least(s.b[1], 2))


cdef inline long long djenon_play_lanes(DjenonNode* child, const DjenonNode* s, int x) noexcept nogil:
    """The child of sowing lane x (or passing, x = -1) of s; djenon_sow_lanes' result."""
    cdef long long laps = 0
    child[0] = s[0]
    if x >= 0:
        laps = djenon_sow_lanes(child, x, LAP_LIMIT_C)
    child.to_move = 1 - s.to_move
    return laps


cdef inline int djenon_legal_count_lanes(const DjenonNode* s, DjenonNode* scratch,
                                         long long* work) noexcept nogil:
    """len(legal actions of s) on lanes (the pass counted when forced)."""
    cdef unsigned moves = djenon_sowing_candidates_lanes(s)
    cdef int x, m = 0
    cdef long long laps
    while moves:
        x = lowest_bit(moves)
        moves &= moves - 1
        work[0] += 1
        if djenon_first_lap_ends_lanes(s, x):
            m += 1
        else:
            laps = djenon_play_lanes(scratch, s, x)
            work[0] += laps if laps >= 0 else -laps
            m += laps >= 0
    if m == 0 and djenon_pass_forced_lanes(s):
        m = 1
    return m


cdef inline void djenon_pack(DjenonNode* node, const IntPosition* s) noexcept nogil:
    cdef int x
    memset(node, 0, sizeof(DjenonNode))
    for x in range(DJENON_HOLES):
        node.b[x >> 3] |= <u64>s.board[DJENON_LANES.hole_of[x]] << ((x & 7) * 8)
    node.to_move = s.to_move
    node.stores[0] = s.stores[0]
    node.stores[1] = s.stores[1]


cdef inline void djenon_scores_lanes(const DjenonNode* s, int* south, int* north) noexcept nogil:
    """djenon_outcome's scores: stores plus the seeds left in each row (lanes
    0..5 South's, 6..11 North's; sums by multiplication, at most 255)."""
    cdef u64 b0 = s.b[0], b1 = s.b[1]
    south[0] = s.stores[0] + <int>(((b0 & 0xFFFFFFFFFFFFULL) * LANE_ONES) >> 56)
    north[0] = s.stores[1] + <int>((((b0 >> 48) + b1) * LANE_ONES) >> 56)
