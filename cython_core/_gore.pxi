# Goré (docs/rules.md §4).  Actions: sow 0..7, offer 8 + mask, 264 pass,
# 265 accept, 266 decline.  Same functions, in the same order, as
# katra/_reference/gore.py.  Goré has no relays: every candidate is legal.


def gore_path(spec):
    """CCW round all 8 holes: a1 b1 c1 d1 d2 c2 b2 a2, then a1 again (§4.1)."""
    cols = spec.cols
    return list(range(cols)) + list(range(2 * cols - 1, cols - 1, -1))


cdef inline int gore_owned_holes(const State* s, int player) noexcept nogil:
    """The holes player owns, as a bit mask."""
    return mask8_equal(s.owner, player)


cdef inline int gore_origins(const State* s, int player) noexcept nogil:
    """The holes player may sow from (the origin rule, §4.2), as a bit mask: the
    non-empty holes it owns."""
    return gore_owned_holes(s, player) & mask8_at_least(s.board, 1)


cdef inline int gore_sowing_candidates(int sowable, int* acts) noexcept nogil:
    """The holes of sowable (the mover's non-empty holes, a mask), ascending."""
    cdef int n = 0
    while sowable:
        acts[n] = CTZ8[sowable]
        n += 1
        sowable &= sowable - 1
    return n


cdef inline int gore_offers(int mine, int opp_store, int* acts) noexcept nogil:
    """Offer actions, ascending: 1-3 owned holes (mine), one kept, affordable by
    the opponent (opp_store, §4.2): mine's small submasks (OFFER_MASKS, ascending)
    of at most `most` holes."""
    cdef int n = 0, i, mask
    cdef int most = opp_store // GORE_SEEDS_PER_TRADED_HOLE_C
    if most > 3:
        most = 3
    if most > POPCOUNT8[mine] - 1:
        most = POPCOUNT8[mine] - 1
    if most < 1:
        return 0
    for i in range(OFFER_MASK_COUNT[mine]):
        mask = OFFER_MASKS[mine][i]
        if POPCOUNT8[mask] <= most:
            acts[n] = GORE_OFFER_BASE_C + mask
            n += 1
    return n


cdef inline bint gore_capturable(int count) noexcept nogil:
    return count == 2 or count == 4


cdef inline void gore_sow(State* s, GameTable* g, int origin) noexcept nogil:
    """One lap CCW from origin, then captures (§4.3).  Always 1 lap."""
    cdef int me = s.to_move
    cdef int* board = s.board
    cdef int hand = board[origin]
    cdef int landing, h, taken
    board[origin] = 0
    landing = sow_lap(board, &g.path[0][0][0], &g.pathpos[0][0][0], GORE_HOLES, origin, hand, 1)
    if s.owner[landing] != me and gore_capturable(board[landing]):
        taken = board[landing]
        board[landing] = 0
        # The landing hole now holds 0, so neither run can pass it again.
        h = g.nxt[0][0][landing]
        while gore_capturable(board[h]):
            taken += board[h]
            board[h] = 0
            h = g.nxt[0][0][h]
        h = g.prv[0][0][landing]
        while gore_capturable(board[h]):
            taken += board[h]
            board[h] = 0
            h = g.prv[0][0][h]
        s.stores[me] += taken


# The actions of a position depend only on these masks and numbers (GoreView),
# read off a State (gore_view) or off the lanes (gore_view_lanes): the functions
# below serve both forms.
ctypedef struct GoreView:
    int offer          # the pending offer's mask, 0 if none
    int over           # about to take a normal turn with every hole under 3 (§4.5)
    int mine           # the mover's holes
    int sowable        # the mover's non-empty holes
    int opp_store      # the opponent's store (what it can pay for, §4.2)


cdef inline void gore_view(GoreView* v, const State* s) noexcept nogil:
    v.offer = s.offer
    v.over = not s.offer and not mask8_at_least(s.board, 3)
    v.mine = gore_owned_holes(s, s.to_move)
    v.sowable = gore_origins(s, s.to_move)
    v.opp_store = s.stores[1 - s.to_move]


cdef inline int gore_actions_of(const GoreView* v, int* acts) noexcept nogil:
    """Every legal action, ascending."""
    cdef int n
    if v.offer:
        acts[0] = GORE_ACCEPT_C
        acts[1] = GORE_DECLINE_C
        return 2
    if v.over:
        return 0
    n = gore_sowing_candidates(v.sowable, acts)
    if n == 0:
        acts[0] = GORE_PASS_C      # owns no seeds: passing is forced
        return 1
    return n + gore_offers(v.mine, v.opp_store, acts + n)


cdef inline int gore_count_of(const GoreView* v) noexcept nogil:
    """len(gore_actions_of(v)), counted from the masks (perft's last ply)."""
    cdef int most
    if v.offer:
        return 2
    if v.over:
        return 0
    if not v.sowable:
        return 1                    # the forced pass
    most = v.opp_store // GORE_SEEDS_PER_TRADED_HOLE_C
    return POPCOUNT8[v.sowable] + OFFER_COUNT[POPCOUNT8[v.mine]][most if most < 3 else 3]


cdef inline int gore_nth_of(const GoreView* v, int k) noexcept nogil:
    """gore_actions_of(v)[k] for 0 <= k < gore_count_of(v), without the list
    (playouts draw one action per ply)."""
    cdef int sowable = v.sowable, mine = v.mine
    cdef int sows, most, mask, i
    if v.offer:
        return GORE_ACCEPT_C if k == 0 else GORE_DECLINE_C
    if not sowable:
        return GORE_PASS_C
    sows = POPCOUNT8[sowable]
    if k < sows:
        while k:                    # drop the k lowest sowable holes
            sowable &= sowable - 1
            k -= 1
        return CTZ8[sowable]
    k -= sows
    most = v.opp_store // GORE_SEEDS_PER_TRADED_HOLE_C
    if most > 3:
        most = 3
    i = 0
    while True:                     # gore_offers' list, stopped at the k-th
        mask = OFFER_MASKS[mine][i]
        if POPCOUNT8[mask] <= most:
            if k == 0:
                return GORE_OFFER_BASE_C + mask
            k -= 1
        i += 1


cdef inline int gore_legal_actions(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Every legal action, ascending (the core's candidates for Goré)."""
    cdef GoreView v
    gore_view(&v, s)
    return gore_actions_of(&v, acts)


# Bit masks over Goré's 8 holes: bit i set iff v[i] >= threshold / v[i] == x.
# SSE2 compares with a movemask where the compiler has them (_portable.h), a
# loop elsewhere.
cdef extern from *:
    """
    #include "_portable.h"
    #if KATRA_HAVE_SSE2
    #include <emmintrin.h>
    static inline int katra_mask8_at_least(const int *v, int threshold) {
        __m128i t = _mm_set1_epi32(threshold - 1);
        __m128i lo = _mm_cmpgt_epi32(_mm_loadu_si128((const __m128i *)v), t);
        __m128i hi = _mm_cmpgt_epi32(_mm_loadu_si128((const __m128i *)(v + 4)), t);
        return _mm_movemask_ps(_mm_castsi128_ps(lo)) | (_mm_movemask_ps(_mm_castsi128_ps(hi)) << 4);
    }
    static inline int katra_mask8_equal(const int *v, int x) {
        __m128i t = _mm_set1_epi32(x);
        __m128i lo = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)v), t);
        __m128i hi = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(v + 4)), t);
        return _mm_movemask_ps(_mm_castsi128_ps(lo)) | (_mm_movemask_ps(_mm_castsi128_ps(hi)) << 4);
    }
    #else
    static inline int katra_mask8_at_least(const int *v, int threshold) {
        int i, m = 0;
        for (i = 0; i < 8; i++) m |= (v[i] >= threshold) << i;
        return m;
    }
    static inline int katra_mask8_equal(const int *v, int x) {
        int i, m = 0;
        for (i = 0; i < 8; i++) m |= (v[i] == x) << i;
        return m;
    }
    #endif
    """
    int mask8_at_least "katra_mask8_at_least"(const int* v, int threshold) noexcept nogil
    int mask8_equal "katra_mask8_equal"(const int* v, int x) noexcept nogil


cdef inline int gore_count_actions(const State* s) noexcept nogil:
    """len(gore_legal_actions(s)), from bit masks."""
    cdef GoreView v
    gore_view(&v, s)
    return gore_count_of(&v)


cdef inline int gore_nth_action(const State* s, int k) noexcept nogil:
    """gore_legal_actions(s)[k], without the list."""
    cdef GoreView v
    gore_view(&v, s)
    return gore_nth_of(&v, k)


cdef inline long long gore_apply(State* s, GameTable* g, int action) noexcept nogil:
    """Play a legal action in place; 1 for a sowing (one lap), 0 otherwise."""
    cdef int me = s.to_move
    cdef int i
    if action == GORE_ACCEPT_C:     # the answerer keeps the turn
        for i in range(GORE_HOLES):
            if (s.offer >> i) & 1:
                s.owner[i] = me
                s.board[i] += GORE_SEEDS_PER_TRADED_HOLE_C
                s.stores[me] -= GORE_SEEDS_PER_TRADED_HOLE_C
        s.offer = 0
        return 0
    if action == GORE_DECLINE_C:
        s.offer = 0
        return 0
    if action < GORE_OFFER_BASE_C:
        gore_sow(s, g, action)
    elif action < GORE_PASS_C:
        s.offer = action - GORE_OFFER_BASE_C
    s.to_move = 1 - me             # a sowing, an offer or the pass
    return 1 if action < GORE_OFFER_BASE_C else 0


cdef inline void gore_outcome(const State* s, GameTable* g, int* winner, int* south,
                              int* north) noexcept nogil:
    """Terminal only: each adds the seeds in the holes they own (§4.5)."""
    outcome_by_stores(s, GORE_HOLES, s.owner, winner, south, north)



# ---------------------------------------------------------------- on lanes
# The same rules on one word: lane i = hole i (board order); the path is in
# the tables (GORE_STEP: the lanes a lap of r seeds adds from hole h, and its
# landing).  North's holes are a bit mask.

ctypedef struct GoreNode:
    u64 b
    int north          # bit i set: North owns hole i
    int offer
    int to_move
    int stores[2]

cdef LapStep GORE_STEP[GORE_HOLES][GORE_HOLES]
cdef unsigned char GORE_NXT[GORE_HOLES]
cdef unsigned char GORE_PRV[GORE_HOLES]
cdef u64 GORE_GAME_KEY          # ZKEY_GAME of Goré (the solver's keys)


cdef void _gore_lanes(GameTable* g):
    global GORE_GAME_KEY
    cdef int h, r, k, x, p
    GORE_GAME_KEY = ZKEY_GAME[g - &TABLES[0]]
    _require(g.path_len == GORE_HOLES, "Goré's loop has 8 holes")
    memset(GORE_STEP, 0, sizeof(GORE_STEP))
    for h in range(GORE_HOLES):
        GORE_NXT[h] = g.nxt[0][0][h]
        GORE_PRV[h] = g.prv[0][0][h]
        p = g.pathpos[0][0][h]
        for r in range(GORE_HOLES):
            for k in range(r):
                x = g.path[0][0][p + 1 + k]           # the doubled path
                GORE_STEP[h][r].add[0] += <u64>1 << (8 * x)
            GORE_STEP[h][r].land = g.path[0][0][p + r] if r else h


cdef inline void gore_view_lanes(GoreView* v, const GoreNode* s) noexcept nogil:
    v.offer = s.offer
    v.over = not s.offer and not lanes_at_least(s.b, 3)
    v.mine = s.north if s.to_move else ~s.north & 0xFF
    v.sowable = v.mine & <int>lanes_bits(lanes_nonzero(s.b))
    v.opp_store = s.stores[1 - s.to_move]


cdef inline int gore_count_lanes(const GoreNode* s) noexcept nogil:
    """gore_count_actions on the word (perft's last ply)."""
    cdef GoreView v
    if s.offer:                 # accept or decline
        return 2
    gore_view_lanes(&v, s)
    return gore_count_of(&v)


cdef inline int gore_capturable_lane(u64 b, int h) noexcept nogil:
    """The seeds of hole h if they are 2 or 4, else 0."""
    cdef int seeds = lane_of(b, h)
    return seeds if seeds == 2 or seeds == 4 else 0


cdef inline void gore_sow_lanes(GoreNode* s, int origin) noexcept nogil:
    """gore_sow on the word: one lap, then the captures (§4.3)."""
    cdef u64 b = s.b
    cdef int hand = lane_of(b, origin)
    cdef int landing, h, taken, seeds
    cdef int mine = s.north if s.to_move else ~s.north & 0xFF
    cdef const LapStep* step
    b &= lane_clear_mask(origin)
    if hand >= GORE_HOLES:
        b += <u64>(hand >> 3) * LANE_ONES
    step = &GORE_STEP[origin][hand & 7]
    b += step.add[0]
    landing = step.land
    taken = gore_capturable_lane(b, landing)
    if taken and not (mine >> landing) & 1:
        b &= lane_clear_mask(landing)
        # the landing hole now holds 0, so neither run can pass it again
        h = GORE_NXT[landing]
        seeds = gore_capturable_lane(b, h)
        while seeds:
            taken += seeds
            b &= lane_clear_mask(h)
            h = GORE_NXT[h]
            seeds = gore_capturable_lane(b, h)
        h = GORE_PRV[landing]
        seeds = gore_capturable_lane(b, h)
        while seeds:
            taken += seeds
            b &= lane_clear_mask(h)
            h = GORE_PRV[h]
            seeds = gore_capturable_lane(b, h)
        s.stores[s.to_move] += taken
    s.b = b


cdef inline void gore_apply_lanes(GoreNode* s, int action) noexcept nogil:
    """gore_apply on the word (a legal action)."""
    cdef int me = s.to_move
    cdef int i
    if action == GORE_ACCEPT_C:     # the answerer keeps the turn
        for i in range(GORE_HOLES):
            if (s.offer >> i) & 1:
                s.b += <u64>GORE_SEEDS_PER_TRADED_HOLE_C << (8 * i)
                s.stores[me] -= GORE_SEEDS_PER_TRADED_HOLE_C
        s.north = (s.north | s.offer) if me else (s.north & ~s.offer)
        s.offer = 0
        return
    if action == GORE_DECLINE_C:
        s.offer = 0
        return
    if action < GORE_OFFER_BASE_C:
        gore_sow_lanes(s, action)
    elif action < GORE_PASS_C:
        s.offer = action - GORE_OFFER_BASE_C
    s.to_move = 1 - me             # a sowing, an offer or the pass


cdef inline void gore_pack(GoreNode* node, const State* s) noexcept nogil:
    cdef int i
    memset(node, 0, sizeof(GoreNode))
    for i in range(GORE_HOLES):
        node.b |= <u64>s.board[i] << (8 * i)
        if s.owner[i]:
            node.north |= 1 << i
    node.offer = s.offer
    node.to_move = s.to_move
    node.stores[0] = s.stores[0]
    node.stores[1] = s.stores[1]


cdef inline void gore_scores_lanes(const GoreNode* s, int* south, int* north) noexcept nogil:
    """gore_outcome's scores: stores plus the seeds in the holes each owns."""
    cdef u64 north_lanes = 0
    cdef int i
    for i in range(GORE_HOLES):
        if (s.north >> i) & 1:
            north_lanes |= <u64>0xFF << (8 * i)
    north[0] = s.stores[1] + <int>(((s.b & north_lanes) * LANE_ONES) >> 56)
    south[0] = s.stores[0] + <int>(((s.b & ~north_lanes) * LANE_ONES) >> 56)
