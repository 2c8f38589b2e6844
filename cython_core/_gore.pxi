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


cdef inline bint gore_is_over(const State* s) noexcept nogil:
    """About to take a normal turn with every hole under 3 seeds (§4.5)."""
    return not s.offer and not mask8_at_least(s.board, 3)


cdef inline int gore_sowing_candidates(const State* s, int mine, int* acts) noexcept nogil:
    """Non-empty holes of mine (the mover's mask), ascending."""
    cdef int n = 0
    cdef int sowable = mine & mask8_at_least(s.board, 1)
    while sowable:
        acts[n] = CTZ8[sowable]
        n += 1
        sowable &= sowable - 1
    return n


cdef inline int gore_offers(const State* s, int mine, int* acts) noexcept nogil:
    """Offer actions, ascending: 1-3 owned holes, one kept, affordable by the
    opponent (§4.2).  Submasks of mine are walked in ascending order."""
    cdef int n = 0, mask
    cdef int most = s.stores[1 - s.to_move] // GORE_SEEDS_PER_TRADED_HOLE_C
    if most > 3:
        most = 3
    if most > POPCOUNT8[mine] - 1:
        most = POPCOUNT8[mine] - 1
    if most < 1:
        return 0
    mask = (0 - mine) & mine
    while mask:
        if POPCOUNT8[mask] <= most:
            acts[n] = GORE_OFFER_BASE_C + mask
            n += 1
        mask = (mask - mine) & mine
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


cdef inline int gore_legal_actions(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Every legal action, ascending (the core's candidates for Goré)."""
    cdef int mine, n
    if s.offer:
        acts[0] = GORE_ACCEPT_C
        acts[1] = GORE_DECLINE_C
        return 2
    if gore_is_over(s):
        return 0
    mine = gore_owned_holes(s, s.to_move)
    n = gore_sowing_candidates(s, mine, acts)
    if n == 0:
        acts[0] = GORE_PASS_C      # owns no seeds: passing is forced
        return 1
    return n + gore_offers(s, mine, acts + n)


# Bit masks over Goré's 8 holes: bit i set iff v[i] >= threshold / v[i] == x.
# SSE2 compares with a movemask where the compiler has them, a loop elsewhere.
cdef extern from *:
    """
    #if defined(__SSE2__)
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
    """len(gore_legal_actions(s)), counted from bit masks (perft's last ply)."""
    cdef int me = s.to_move
    cdef int mine, sowable, most
    if s.offer:
        return 2
    if gore_is_over(s):
        return 0
    mine = gore_owned_holes(s, me)
    sowable = mine & mask8_at_least(s.board, 1)
    if not sowable:
        return 1                    # the forced pass
    most = s.stores[1 - me] // GORE_SEEDS_PER_TRADED_HOLE_C
    return POPCOUNT8[sowable] + OFFER_COUNT[POPCOUNT8[mine]][most if most < 3 else 3]


cdef inline int gore_nth_action(const State* s, int k) noexcept nogil:
    """gore_legal_actions(s)[k] for 0 <= k < gore_count_actions(s), without the
    list (playouts draw one action per ply)."""
    cdef int me = s.to_move
    cdef int mine, sowable, sows, most, mask
    if s.offer:
        return GORE_ACCEPT_C if k == 0 else GORE_DECLINE_C
    mine = gore_owned_holes(s, me)
    sowable = mine & mask8_at_least(s.board, 1)
    if not sowable:
        return GORE_PASS_C
    sows = POPCOUNT8[sowable]
    if k < sows:
        while k:                    # drop the k lowest sowable holes
            sowable &= sowable - 1
            k -= 1
        return CTZ8[sowable]
    k -= sows
    most = s.stores[1 - me] // GORE_SEEDS_PER_TRADED_HOLE_C
    if most > 3:
        most = 3
    mask = (0 - mine) & mine        # gore_offers' ascending walk, stopped at the k-th
    while True:
        if POPCOUNT8[mask] <= most:
            if k == 0:
                return GORE_OFFER_BASE_C + mask
            k -= 1
        mask = (mask - mine) & mine


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
