# Goré (docs/rules.md §4).  Actions: sow 0..7, offer 8 + mask, 264 pass,
# 265 accept, 266 decline.  Same functions, in the same order, as
# katra/_reference/gore.py.  Goré has no relays: every candidate is legal.
#
# Its two working forms, the IntPosition (an int a hole, owners an int a hole) and
# GoreNode (one word of 8-bit lanes, lane i = hole i; North's holes a mask),
# share every rule: the rules below are written once, over the GoreForm fused
# type (Cython compiles each for both forms), on the few primitives that read
# or change the board (gore_holes_of ... gore_trade), the only form-specific code.


def gore_path(spec):
    """CCW round all 8 holes: a1 b1 c1 d1 d2 c2 b2 a2, then a1 again (§4.1)."""
    return two_row_loop(spec.cols)


ctypedef struct GoreNode:     # 16 bytes: a child is two words copied
    u64 b
    unsigned char north          # bit i set: North owns hole i
    unsigned char offer
    unsigned char to_move
    unsigned char stores[2]      # the overflow rule: at most 255 seeds in all

ctypedef fused GoreForm:
    IntPosition
    GoreNode

# The loop's tables, from TABLES (_gore_lanes): the lanes a lap of r seeds
# adds from hole h, and its landing (GORE_STEP); the next and previous holes.
cdef LapStep GORE_STEP[GORE_HOLES][GORE_HOLES]
cdef unsigned char GORE_NXT[GORE_HOLES]
cdef unsigned char GORE_PRV[GORE_HOLES]
cdef u64 GORE_GAME_KEY          # ZKEY_GAME of Goré (the solver's keys)


# ---------------------------------------------------------------- the forms' primitives

cdef inline int gore_holes_of(const GoreForm* s, int player) noexcept nogil:
    """The holes player owns, as a bit mask."""
    if GoreForm is IntPosition:     # (the owners past the board's holes are not the game's)
        return mask8_equal(s.owner, player) & ((1 << TABLES[s.game].holes) - 1)
    else:
        return (s.north ^ (player - 1)) & 0xFF      # North's holes, or the others (branch-free)


cdef inline int gore_holes_at_least(const GoreForm* s, int k) noexcept nogil:
    """The holes holding k seeds or more (1 <= k <= 128), as a bit mask."""
    if GoreForm is IntPosition:
        return mask8_at_least(s.board, k)
    else:
        return <int>lanes_bits(lanes_at_least(s.b, k))


cdef inline bint gore_any_at_least(const GoreForm* s, int k) noexcept nogil:
    """Does some hole hold k seeds or more (1 <= k <= 128)?"""
    if GoreForm is IntPosition:
        return mask8_at_least(s.board, k) != 0
    else:
        return lanes_at_least(s.b, k) != 0


cdef inline int gore_seeds_at(const GoreForm* s, int hole) noexcept nogil:
    """The seeds of one hole."""
    if GoreForm is IntPosition:
        return s.board[hole]
    else:
        return lane_of(s.b, hole)


cdef inline int gore_seeds_in(const GoreForm* s, int holes) noexcept nogil:
    """The seeds of the holes of a mask."""
    cdef int seeds = 0
    if GoreForm is IntPosition:
        while holes:
            seeds += s.board[CTZ8[holes]]
            holes &= holes - 1
        return seeds
    else:
        return <int>(((s.b & LANES_OF_BITS[holes]) * LANE_ONES) >> 56)


cdef inline void gore_empty(GoreForm* s, int holes) noexcept nogil:
    """Empty the holes of a mask."""
    if GoreForm is IntPosition:
        while holes:
            s.board[CTZ8[holes]] = 0
            holes &= holes - 1
    else:
        s.b &= ~LANES_OF_BITS[holes]


cdef inline int gore_sow_lap(GoreForm* s, int origin) noexcept nogil:
    """Lift origin and sow its seeds CCW, one a hole from the next; the landing hole."""
    cdef int hand, q, r
    cdef const LapStep* step
    cdef const GameTable* g
    if GoreForm is IntPosition:
        hand = s.board[origin]          # sow_lap lifts origin
        g = &TABLES[s.game]
        if g.path_len == GORE_HOLES:    # a constant loop length: no division in whole_rounds
            return sow_lap(s.board, &g.path[0][0][0], &g.pathpos[0][0][0], GORE_HOLES, 0,
                           origin, hand, 1)
        return sow_lap(s.board, &g.path[0][0][0], &g.pathpos[0][0][0], g.path_len, 0,
                       origin, hand, 1)
    else:
        hand = lane_of(s.b, origin)
        s.b &= lane_clear_mask(origin)
        q = whole_rounds(hand, GORE_HOLES, &r)         # branch-free: often 0
        s.b += <u64>q * LANE_ONES
        step = &GORE_STEP[origin][r]
        s.b += step.add[0]
        return step.land


cdef inline int gore_next(const GoreForm* s, int hole) noexcept nogil:
    """The hole after hole on the loop (the int form: its game's, any board of §7)."""
    if GoreForm is IntPosition:
        return TABLES[s.game].nxt[0][0][hole]
    else:
        return GORE_NXT[hole]


cdef inline int gore_previous(const GoreForm* s, int hole) noexcept nogil:
    """The hole before hole on the loop."""
    if GoreForm is IntPosition:
        return TABLES[s.game].prv[0][0][hole]
    else:
        return GORE_PRV[hole]


cdef inline void gore_trade(GoreForm* s, int holes, int player) noexcept nogil:
    """The holes of a mask pass to player, each with GORE_SEEDS_PER_TRADED_HOLE_C more seeds."""
    cdef int i
    if GoreForm is IntPosition:
        for i in range(GORE_HOLES):
            if (holes >> i) & 1:
                s.owner[i] = player
                s.board[i] += GORE_SEEDS_PER_TRADED_HOLE_C
    else:
        s.b += GORE_SEEDS_PER_TRADED_HOLE_C * (LANES_OF_BITS[holes] & LANE_ONES)
        s.north = (s.north | holes) if player else (s.north & ~holes)


# ---------------------------------------------------------------- the rules

cdef inline int gore_origins(const GoreForm* s, int player) noexcept nogil:
    """The holes player may sow from (the origin rule, §4.2), as a bit mask: the
    non-empty holes it owns."""
    return gore_holes_of(s, player) & gore_holes_at_least(s, 1)


cdef inline bint gore_over(const GoreForm* s) noexcept nogil:
    """§4.5: no offer is pending and every hole holds under 3 seeds (the
    player to move has no legal action)."""
    return not s.offer and not gore_any_at_least(s, 3)


cdef inline int gore_affordable(int store) noexcept nogil:
    """How many holes a store pays for (§4.2: GORE_SEEDS_PER_TRADED_HOLE_C each;
    a store is never negative, so the division is unsigned)."""
    return <int>(<unsigned>store // <unsigned>GORE_SEEDS_PER_TRADED_HOLE_C)


cdef inline bint gore_capturable(int seeds) noexcept nogil:
    """§4.3: a hole holding 2 or 4 seeds after a lap is capturable."""
    return seeds == 2 or seeds == 4


cdef inline int gore_captured(const GoreForm* s, int landing, int mine) noexcept nogil:
    """The capture rule (§4.3), once a lap has landed in landing (mine: the
    mover's holes): the holes it takes, as a mask.  None unless the landing
    hole is the opponent's and capturable; else it, and the runs of
    capturable holes after and before it along the loop (each stops at a hole
    already taken, which then holds 0)."""
    cdef int taken, h
    if (mine >> landing) & 1 or not gore_capturable(gore_seeds_at(s, landing)):
        return 0
    taken = 1 << landing
    h = gore_next(s, landing)
    while not (taken >> h) & 1 and gore_capturable(gore_seeds_at(s, h)):
        taken |= 1 << h
        h = gore_next(s, h)
    h = gore_previous(s, landing)
    while not (taken >> h) & 1 and gore_capturable(gore_seeds_at(s, h)):
        taken |= 1 << h
        h = gore_previous(s, h)
    return taken


cdef inline void gore_sow(GoreForm* s, int origin) noexcept nogil:
    """One lap CCW from origin, then captures (§4.3).  Always 1 lap."""
    cdef int me = s.to_move
    cdef int landing = gore_sow_lap(s, origin)
    cdef int taken = gore_captured(s, landing, gore_holes_of(s, me))
    if taken:
        s.stores[me] += gore_seeds_in(s, taken)
        gore_empty(s, taken)


# The actions of a position depend only on these masks and numbers (GoreView),
# read off an IntPosition (gore_view) or off the lanes (gore_view_lanes): the functions
# below serve both forms.
ctypedef struct GoreView:
    int offer          # the pending offer's mask, 0 if none
    int over           # about to take a normal turn with every hole under 3 (§4.5)
    int mine           # the mover's holes
    int sowable        # the mover's non-empty holes
    int opp_store      # the opponent's store (what it can pay for, §4.2)


cdef inline void gore_view(GoreView* v, const GoreForm* s) noexcept nogil:
    # read s whole before writing v (v's ints might alias s's for the compiler)
    cdef int offer = s.offer, me = s.to_move
    cdef int mine = gore_holes_of(s, me)
    cdef int sowable = gore_origins(s, me)
    cdef int opp_store = s.stores[1 - me]
    cdef bint over = gore_over(s)
    v.offer = offer
    v.over = over
    v.mine = mine
    v.sowable = sowable
    v.opp_store = opp_store


cdef inline void gore_view_lanes(GoreView* v, const GoreNode* s) noexcept nogil:
    gore_view(v, s)


# The legal actions of a view, as sets (GoreLegal): every query of them (the
# list, the count, the k-th, membership, a mask's bytes) reads these sets, so
# which actions are legal is decided once, in gore_legal_of.
ctypedef struct GoreLegal:
    int sows           # the holes that may be sown: actions 0..7, a mask
    int offer_from     # the offers, GORE_OFFER_BASE_C + m: every mask m of 1..offer_most
    int offer_most     # holes of offer_from, one kept (0..3; 0: no offer)
    int answers        # bit j: action GORE_PASS_C + j (the pass; accept and decline)
    int count          # how many actions in all


cdef enum:
    GORE_PASS_BIT = 1 << (GORE_PASS_C - GORE_PASS_C)
    GORE_ANSWER_BITS = (1 << (GORE_ACCEPT_C - GORE_PASS_C)) | (1 << (GORE_DECLINE_C - GORE_PASS_C))


cdef inline void gore_legal_of(GoreLegal* legal, const GoreView* v) noexcept nogil:
    """The legal actions of a view (§4.2-§4.5): the answers to a pending offer
    (accept or decline); none once the game is over; the pass, forced while the
    mover owns no seeds; else every sowing of its non-empty holes and every offer
    of 1-3 of its holes, one kept, that the opponent's store pays for."""
    cdef int most
    legal.sows = 0
    legal.offer_from = 0
    legal.offer_most = 0
    legal.answers = 0
    if v.offer:
        legal.answers = GORE_ANSWER_BITS
        legal.count = 2
    elif v.over:
        legal.count = 0
    elif not v.sowable:
        legal.answers = GORE_PASS_BIT
        legal.count = 1
    else:
        most = gore_affordable(v.opp_store)
        if most > 3:
            most = 3
        legal.sows = v.sowable
        legal.offer_from = v.mine
        legal.offer_most = most
        legal.count = POPCOUNT8[v.sowable] + OFFER_COUNT[POPCOUNT8[v.mine]][most]


cdef inline bint gore_legal_offer(const GoreLegal* legal, int mask) noexcept nogil:
    """Is offering the holes of mask (a submask of legal.offer_from) a legal action?"""
    return POPCOUNT8[mask] <= legal.offer_most and mask != legal.offer_from


cdef inline int gore_legal_offers(const GoreLegal* legal) noexcept nogil:
    """How many offers legal holds."""
    return OFFER_COUNT[POPCOUNT8[legal.offer_from]][legal.offer_most]


cdef inline int gore_legal_count(const GoreLegal* legal) noexcept nogil:
    """How many actions legal holds."""
    return legal.count


# The offers of a GoreLegal by its offer_from m and offer_most most, ascending
# by mask: GORE_OFFERS[GORE_OFFER_START[m][most] + k] for k < their number,
# the masks gore_legal_offer admits among OFFER_MASKS[m] (filled at import,
# _gore_offers): the k-th offer is one load (playouts and VectorGame draw one).
cdef enum:
    GORE_OFFERS_ROOM = 8312        # the offers of every (m, most), checked at import
cdef unsigned char GORE_OFFERS[GORE_OFFERS_ROOM]
cdef unsigned short GORE_OFFER_START[256][4]


cdef inline const unsigned char* gore_legal_offer_list(const GoreLegal* legal) noexcept nogil:
    """The offers of legal (their masks), ascending: gore_legal_offers(legal) of them."""
    return &GORE_OFFERS[GORE_OFFER_START[legal.offer_from][legal.offer_most]]


cdef inline int gore_legal_list(const GoreLegal* legal, int* acts) noexcept nogil:
    """The actions of legal, ascending (sowings, offers by mask, the pass and the
    answers: their action numbers in that order); how many."""
    cdef int n = 0, i, bits = legal.sows
    cdef const unsigned char* offers
    while bits:
        acts[n] = CTZ8[bits]
        n += 1
        bits &= bits - 1
    if legal.offer_most:
        offers = gore_legal_offer_list(legal)
        for i in range(gore_legal_offers(legal)):
            acts[n] = GORE_OFFER_BASE_C + offers[i]
            n += 1
    bits = legal.answers
    while bits:
        acts[n] = GORE_PASS_C + CTZ8[bits]
        n += 1
        bits &= bits - 1
    return n


# NTH_BIT8[m][k]: the k-th lowest set bit of the byte m (k < its set bits; 8
# past them), filled at import (_gore_lanes): gore_legal_nth's sowing by one
# load, where dropping the k lowest bits one by one costs a mispredicted loop
# exit a draw.
cdef unsigned char NTH_BIT8[256][8]


cdef inline int gore_legal_nth(const GoreLegal* legal, int k) noexcept nogil:
    """gore_legal_list(legal)[k] for 0 <= k < gore_legal_count(legal), without the list
    (playouts and VectorGame draw one action per ply)."""
    cdef int bits = legal.sows
    if bits:
        if k < POPCOUNT8[bits]:
            return NTH_BIT8[bits][k]        # the k-th lowest sowable hole
        return GORE_OFFER_BASE_C + gore_legal_offer_list(legal)[k - POPCOUNT8[bits]]
    bits = legal.answers                # no sowing: no offer either
    while k:
        bits &= bits - 1
        k -= 1
    return GORE_PASS_C + CTZ8[bits]


cdef inline bint gore_legal_has(const GoreLegal* legal, int action) noexcept nogil:
    """Is action (any int) one of legal's?"""
    cdef int mask
    if 0 <= action < GORE_OFFER_BASE_C:
        return (legal.sows >> action) & 1
    if GORE_OFFER_BASE_C <= action < GORE_PASS_C:
        mask = action - GORE_OFFER_BASE_C
        return mask != 0 and (mask & ~legal.offer_from) == 0 and gore_legal_offer(legal, mask)
    if GORE_PASS_C <= action <= GORE_DECLINE_C:
        return (legal.answers >> (action - GORE_PASS_C)) & 1
    return 0


cdef inline int gore_actions_of(const GoreView* v, int* acts) noexcept nogil:
    """Every legal action, ascending."""
    cdef GoreLegal legal
    gore_legal_of(&legal, v)
    return gore_legal_list(&legal, acts)


cdef inline int gore_count_of(const GoreView* v) noexcept nogil:
    """len(gore_actions_of(v)), counted from the masks (perft's last ply)."""
    cdef GoreLegal legal
    gore_legal_of(&legal, v)
    return gore_legal_count(&legal)


cdef inline int gore_count_actions(const GoreForm* s) noexcept nogil:
    """len(gore_legal_actions(s)), from bit masks (perft's last ply)."""
    cdef GoreView v
    gore_view(&v, s)
    return gore_count_of(&v)


cdef inline void gore_copy(GoreForm* child, const GoreForm* s) noexcept nogil:
    """A copy of s to play an action on (an IntPosition's hot part: copy_hot)."""
    if GoreForm is IntPosition:
        copy_hot(child, s)
    else:
        child[0] = s[0]


cdef u64 gore_perft_two(const GoreForm* s) noexcept nogil:
    """perft(s, 2) (perft's last two plies, node_count_made): each child but
    an offer's made on a local copy (gore_apply) and its legal actions counted
    from the masks (gore_count_actions); an offer's child not made at all: it
    has two legal actions, accept and decline."""
    cdef GoreView v
    cdef GoreLegal legal
    cdef GoreForm c
    cdef int bits
    cdef u64 leaves
    gore_view(&v, s)
    gore_legal_of(&legal, &v)
    leaves = 2 * <u64>gore_legal_offers(&legal)
    bits = legal.sows
    while bits:
        gore_copy(&c, s)
        gore_apply(&c, CTZ8[bits])
        leaves += gore_count_actions(&c)
        bits &= bits - 1
    bits = legal.answers
    while bits:
        gore_copy(&c, s)
        gore_apply(&c, GORE_PASS_C + CTZ8[bits])
        leaves += gore_count_actions(&c)
        bits &= bits - 1
    return leaves


cdef inline int gore_legal_actions(const IntPosition* s, GameTable* g, int* acts) noexcept nogil:
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


cdef inline int gore_draw(const GoreForm* s, u64* rng, int* action) noexcept nogil:
    """How many legal actions s has; if some, the one of index
    splitmix64(rng) mod their number, ascending (§6.2's draw), in action:
    one view of the masks serves both (the playouts' ply)."""
    cdef GoreView v
    cdef GoreLegal legal
    cdef int n
    gore_view(&v, s)
    gore_legal_of(&legal, &v)
    n = gore_legal_count(&legal)
    if n:
        action[0] = gore_legal_nth(&legal, <int>mod_small(splitmix64(rng), n))
    return n


cdef inline long long gore_apply(GoreForm* s, int action) noexcept nogil:
    """Play a legal action in place; 1 for a sowing (one lap), 0 otherwise."""
    cdef int me = s.to_move
    if action < GORE_OFFER_BASE_C:  # a sowing (the common action: tested first)
        gore_sow(s, action)
        s.to_move = 1 - me
        return 1
    if action == GORE_ACCEPT_C:     # the answerer keeps the turn (§4.4)
        gore_trade(s, s.offer, me)
        s.stores[me] -= GORE_SEEDS_PER_TRADED_HOLE_C * POPCOUNT8[s.offer]
        s.offer = 0
        return 0
    if action == GORE_DECLINE_C:
        s.offer = 0
        return 0
    if action < GORE_PASS_C:
        s.offer = action - GORE_OFFER_BASE_C
    s.to_move = 1 - me             # an offer or the pass
    return 0


cdef inline void gore_apply_lanes(GoreNode* s, int action) noexcept nogil:
    gore_apply(s, action)


cdef inline void gore_scores(const GoreForm* s, int* south, int* north) noexcept nogil:
    """§4.5: each player's store plus the seeds in the holes it owns."""
    south[0] = s.stores[0] + gore_seeds_in(s, gore_holes_of(s, 0))
    north[0] = s.stores[1] + gore_seeds_in(s, gore_holes_of(s, 1))


cdef inline void gore_scores_lanes(const GoreNode* s, int* south, int* north) noexcept nogil:
    gore_scores(s, south, north)


cdef inline void gore_outcome(const IntPosition* s, GameTable* g, int* winner, int* south,
                              int* north) noexcept nogil:
    """Terminal only: each adds the seeds in the holes they own (§4.5)."""
    gore_scores(s, south, north)
    winner[0] = winner_by_scores(south[0], north[0])


# ---------------------------------------------------------------- lanes: tables and packing

cdef void _gore_lanes(GameTable* g):
    global GORE_GAME_KEY
    cdef int h, r, k, x, p
    GORE_GAME_KEY = ZKEY_GAME[g - &TABLES[0]]
    for h in range(256):
        k = 0
        for r in range(8):
            NTH_BIT8[h][r] = 8
        for x in range(8):
            if (h >> x) & 1:
                NTH_BIT8[h][k] = x
                k += 1
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


cdef int _gore_offers() except -1:
    """Fill GORE_OFFERS and GORE_OFFER_START from gore_legal_offer (after
    _build_tables: it reads OFFER_MASKS)."""
    cdef GoreLegal legal
    cdef int m, most, i, n = 0
    for m in range(256):
        for most in range(4):
            legal.offer_from = m
            legal.offer_most = most
            GORE_OFFER_START[m][most] = n
            for i in range(OFFER_MASK_COUNT[m] if most else 0):     # ascending
                if gore_legal_offer(&legal, OFFER_MASKS[m][i]):
                    _require(n < GORE_OFFERS_ROOM, "GORE_OFFERS_ROOM")
                    GORE_OFFERS[n] = OFFER_MASKS[m][i]
                    n += 1
            _require(n - GORE_OFFER_START[m][most] == gore_legal_offers(&legal),
                     "Goré's offers listed and counted alike")
    return 0


cdef inline void gore_pack(GoreNode* node, const IntPosition* s) noexcept nogil:
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


