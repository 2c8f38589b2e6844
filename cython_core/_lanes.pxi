# Packed lanes: the working form of the hot loops (perft, divide, playouts, the solver).
#
# A position whose seeds all fit in a byte (at most LANE_MAX_SEEDS in all,
# board and stores: every standard start and everything reachable from it,
# since seeds are never created) is played on 8-bit lanes of 64-bit words,
# one lane per hole, laid out in sowing-path order:
#
# * Katro and Katra Mpantsaka: each player's holes in that player's own path
#   order (Mpantsaka: its counter-clockwise loop), seen from the side to move
#   ("me", "op"): by the half-turn symmetry of the board one set of tables
#   serves both players, and a child is the two halves swapped.
# * Djenon-aboure: the 12 holes in its path order (a1..f1, f2..a2).
# * Goré: the 8 holes in board order, one word; the path is in the tables.
#
# Invariant (the overflow rule): the lanes of a word sum to at most the
# position's seeds, <= 255, so a lane never exceeds 255 and adding to every
# lane of a word never carries into the next lane.  A position with more
# seeds is played by the int code of the int form (_common.pxi), chosen once
# per job (lanes_fit), never per seed; or, on a Katro or Katra Mpantsaka
# board of at most HALVES16_MAX_LANES holes a player (halves16_fit), on the
# same halves with 16-bit lanes, four a word (the 16-bit halves: the same rule
# with 65535 for 255; a position holds at most MAX_TOTAL_SEEDS).  The
# functions over the halves take the lane width LB (8 or 16, a constant in
# each specialisation) beside the word count NW.
#
# A lap of n seeds from path position p adds n // L to every lane of the loop
# (q * valid, one multiply-add a word) and the mask step[p][n % L].add of
# the next n % L lanes; its landing lane is step[p][n % L].land.  Lane tests become
# word operations: lanes_nonzero / lanes_at_least leave the
# high bit of each lane that passes, lanes_bits gathers those bits into a
# mask, bit i for lane i.

cdef enum:
    LANE_MAX_SEEDS = 255
    MAX_LANES = 18            # Katro 6x6: 18 holes a player
    MAX_WORDS = 3
    LANE16_MAX_SEEDS = 65535  # a lane of the 16-bit halves
    HALVES16_MAX_LANES = 12   # MAX_WORDS words of four 16-bit lanes

# Compile-time constants (C `static const`), so that the compiler folds them
# into the lane tests (lanes_at_least(w, 3)'s (128 - 3) * LANE_ONES is one
# immediate) and keeps them in registers across stores to lane words.
cdef extern from *:
    """
    static const unsigned long long katra_lane_ones = 0x0101010101010101ULL;
    static const unsigned long long katra_lane_low7 = 0x7F7F7F7F7F7F7F7FULL;
    static const unsigned long long katra_lane_high = 0x8080808080808080ULL;
    static const unsigned long long katra_lane16_ones = 0x0001000100010001ULL;
    static const unsigned long long katra_lane16_low15 = 0x7FFF7FFF7FFF7FFFULL;
    static const unsigned long long katra_lane16_high = 0x8000800080008000ULL;
    """
    const u64 LANE_ONES "katra_lane_ones"
    const u64 LANE_LOW7 "katra_lane_low7"
    const u64 LANE_HIGH "katra_lane_high"
    const u64 LANE16_ONES "katra_lane16_ones"
    const u64 LANE16_LOW15 "katra_lane16_low15"
    const u64 LANE16_HIGH "katra_lane16_high"


cdef inline u64 lanes_at_least(u64 w, int k) noexcept nogil:
    """The high bit of every lane >= k, for 1 <= k <= 128 (no carry: the low
    seven bits plus 128 - k stay under 256)."""
    return (((w & LANE_LOW7) + <u64>(128 - k) * LANE_ONES) | w) & LANE_HIGH


cdef inline u64 lanes_nonzero(u64 w) noexcept nogil:
    """The high bit of every non-zero lane (exact for lanes 0..255)."""
    return lanes_at_least(w, 1)


# LANES_OF_BITS[m]: the lanes of a word named by the bits of m (0xFF in lane i
# for bit i): the inverse of lanes_bits.
cdef u64 LANES_OF_BITS[256]


cdef inline unsigned lanes_bits(u64 highs) noexcept nogil:
    """Gather the high bits of the 8 lanes (as lanes_* leave them) into bits 0..7."""
    return <unsigned>((((highs >> 7) * 0x0102040810204080ULL)) >> 56)


cdef inline int lane_of(u64 w, int i) noexcept nogil:
    """Lane i (0..7) of a word."""
    return <int>((w >> ((i & 7) * 8)) & 0xFF)


# ---------------------------------------------------------------- lanes of either width

cdef inline int lane_word(int x, int LB) noexcept nogil:
    """The word that holds lane x, on lanes of LB bits (8 or 16)."""
    return x >> 2 if LB == 16 else x >> 3


cdef inline int lane_at(u64 w, int x, int LB) noexcept nogil:
    """Lane x of the word that holds it (lane_word), on lanes of LB bits."""
    if LB == 16:
        return <int>((w >> ((x & 3) * 16)) & 0xFFFF)
    return lane_of(w, x)


cdef inline int lane_in(const u64* w, int x, int LB) noexcept nogil:
    """Lane x of the words w in memory, on lanes of LB bits."""
    return lane_at(w[lane_word(x, LB)], x, LB)


cdef inline u64 lane_unit(int x, int LB) noexcept nogil:
    """A seed in lane x of its word: the lane's lowest bit."""
    return <u64>1 << ((x & 3) * 16 if LB == 16 else (x & 7) * 8)


cdef inline u64 lanes16_at_least(u64 w, int k) noexcept nogil:
    """lanes_at_least on 16-bit lanes: the high bit of every lane >= k, for
    1 <= k <= 32768 (the low fifteen bits plus 32768 - k stay under 65536)."""
    return (((w & LANE16_LOW15) + <u64>(32768 - k) * LANE16_ONES) | w) & LANE16_HIGH


cdef inline unsigned lanes16_bits(u64 highs) noexcept nogil:
    """Gather the high bits of the 4 lanes of 16 bits into bits 0..3: bit 16i
    times 2**(60 - 15i) lands on 60 + i, and no other product of the multiply
    reaches bits 60..63 or meets another (16i - 15j = 16i' - 15j' only for
    i = i', j = j')."""
    return <unsigned>((((highs >> 15) * 0x1000200040008000ULL)) >> 60)


# LANES16_OF_BITS[m]: the 16-bit lanes of a word named by the bits of m.
cdef u64 LANES16_OF_BITS[16]


cdef inline u64 lanes_of_bits(unsigned bits, int w, int LB) noexcept nogil:
    """The lanes of word w named by bits (bit x for lane x of the loop), all ones."""
    if LB == 16:
        return LANES16_OF_BITS[(bits >> (4 * w)) & 15]
    return LANES_OF_BITS[(bits >> (8 * w)) & 0xFF]


cdef inline unsigned halves_at_least_bits(const u64* w, int NW, int k, int LB) noexcept nogil:
    """lanes_at_least_bits on lanes of LB bits (1 <= k <= 128)."""
    cdef unsigned bits
    if LB == 8:
        return lanes_at_least_bits(w, NW, k)
    bits = lanes16_bits(lanes16_at_least(w[0], k))
    if NW > 1:
        bits |= lanes16_bits(lanes16_at_least(w[1], k)) << 4
    if NW > 2:
        bits |= lanes16_bits(lanes16_at_least(w[2], k)) << 8
    return bits


cdef inline unsigned halves_seeded_bits(const u64* w, int NW, int LB) noexcept nogil:
    """Bit x set iff lane x holds seeds, on lanes of LB bits."""
    return halves_at_least_bits(w, NW, 1, LB)


cdef inline int halves_sum(const u64* w, int NW, int LB) noexcept nogil:
    """lanes_sum on lanes of LB bits (the 16-bit halves: at most 65535 seeds in
    all, so the words add lane by lane without a carry)."""
    cdef u64 total
    if LB == 8:
        return lanes_sum(w, NW)
    total = w[0]
    if NW > 1:
        total += w[1]
    if NW > 2:
        total += w[2]
    return <int>((total * LANE16_ONES) >> 48)


cdef inline u64 lane_clear_mask(int i) noexcept nogil:
    """All lanes of a word but lane i & 7."""
    return ~(<u64>0xFF << ((i & 7) * 8))


cdef inline int lane_of_words(u64 w0, u64 w1, u64 w2, int x, int NW, int LB) noexcept nogil:
    """Lane x of the words w0..w2 (NW and the lane width LB constants), by
    conditional moves: the word is picked without a data-dependent branch
    (lane_in for words in memory)."""
    cdef u64 w = w0
    cdef int per = 64 // LB
    if NW > 1:
        w = w1 if x >= per else w
    if NW > 2:
        w = w2 if x >= 2 * per else w
    return lane_at(w, x, LB)


cdef inline unsigned lanes_nonzero_bits(const u64* w, int NW) noexcept nogil:
    """Bit x set iff lane x holds seeds, over NW words."""
    return lanes_at_least_bits(w, NW, 1)


cdef inline unsigned lanes_at_least_bits(const u64* w, int NW, int k) noexcept nogil:
    """Bit x set iff lane x holds k seeds or more (1 <= k <= 128), over NW words."""
    cdef unsigned bits = lanes_bits(lanes_at_least(w[0], k))
    if NW > 1:
        bits |= lanes_bits(lanes_at_least(w[1], k)) << 8
    if NW > 2:
        bits |= lanes_bits(lanes_at_least(w[2], k)) << 16
    return bits


cdef inline int lanes_sum(const u64* w, int NW) noexcept nogil:
    """The seeds of NW words' lanes (the overflow rule: their sum, lane by
    lane and in all, is at most 255, so the words add without a carry and one
    multiplication gathers the lanes into the top byte)."""
    cdef u64 total = w[0]
    if NW > 1:
        total += w[1]
    if NW > 2:
        total += w[2]
    return <int>((total * LANE_ONES) >> 56)


cdef inline bint lanes_fit(const IntPosition* s) noexcept nogil:
    """May this position (and all it leads to) be played on 8-bit lanes?
    (Over the game's holes only: an IntPosition's holes past them are not
    always 0, e.g. a child made by copy_hot from an unpacked node.)"""
    cdef GameTable* g = &TABLES[s.game]
    cdef int i, total = s.stores[0] + s.stores[1]
    for i in range(g.holes):
        total += s.board[i]
    return total <= LANE_MAX_SEEDS


# Set to 0 only by tests (_set_lanes): every job then runs on the int code.
cdef bint LANES_ENABLED = 1


def _set_lanes(bint enabled):
    """Tests only: 0 makes every job run on the int form, 1 restores the lanes.
    Returns the previous setting."""
    global LANES_ENABLED
    cdef bint previous = LANES_ENABLED
    LANES_ENABLED = enabled
    return previous


# One sowing loop's tables: a loop of L holes in path order, as lanes.  A lap
# of n = q * L + r seeds (n >= 1) started at lane p in direction d (1 walks the
# loop backwards) adds q to every lane (valid) and step[d][p][r].add, the
# lanes of the r holes from the first seed's hole on; it lands on
# step[d][p][r].land.  One record, so one address computation a lap.
ctypedef struct LapStep:
    u64 add[MAX_WORDS]
    int land
    int unused

ctypedef struct LoopLanes:
    int L
    u64 valid[MAX_WORDS]                # every lane of the loop
    LapStep step[2][MAX_LANES][MAX_LANES]
    u64 keep[MAX_LANES][MAX_WORDS]      # every lane but x (AND masks that empty lane x)
    unsigned char prv[MAX_LANES]        # the lane before x (Djenon-aboure's backward run)


cdef void _loop_lanes(LoopLanes* t, int L, int offset, int LB):
    """Fill the tables of a loop of L lanes (0..L-1 in direction 0) of LB bits
    (8 or 16); offset 1: a lap's first seed goes into the hole after its
    start, 0: into the start."""
    cdef int d, p, r, k, x, w, step
    memset(t, 0, sizeof(LoopLanes))
    _require(L <= MAX_LANES and L <= MAX_WORDS * (64 // LB), "a loop longer than its words hold")
    t.L = L
    for x in range(L):
        t.valid[lane_word(x, LB)] |= lane_unit(x, LB)
        t.prv[x] = (x + L - 1) % L
        for w in range(MAX_WORDS):
            t.keep[x][w] = ~(<u64>0)
            if w == lane_word(x, LB):
                t.keep[x][w] = ~(lane_unit(x, LB) * ((<u64>1 << LB) - 1))
    for d in range(2):
        step = 1 if d == 0 else L - 1
        for p in range(L):
            for r in range(L):
                for k in range(r):
                    x = (p + step * (offset + k)) % L
                    t.step[d][p][r].add[lane_word(x, LB)] += lane_unit(x, LB)
                t.step[d][p][r].land = (p + step * (offset + r - 1) + L) % L


# Katro and Katra Mpantsaka: each player's holes as the lanes of its own loop
# (Katro: row of depth d = lanes d*C .. d*C+C-1, outer row first; Mpantsaka:
# lanes 0..C-1 the back row, C..2C-1 the front row, counter-clockwise), built
# from South's path; North's is South's turned half round (checked).
ctypedef struct HalvesTables:
    LoopLanes loop
    int C                                  # holes a row
    int K                                  # rows a player
    int row_start[3]                       # the first lane of the row of depth d: d * C
    u64 deeper[MAX_LANES][MAX_WORDS]       # Katro: the mover's lanes in rows deeper than x's
    unsigned char face[MAX_LANES][3]       # Katro: [x][od] the opponent lane facing x in its row od
    unsigned captures[3][64]               # Katro: [od][seeded columns of the opponent's row od,
                                           #   bit i for its lane od*C+i] -> mover lanes facing them
    int front_face[MAX_LANES]              # Mpantsaka: the opponent lane facing front lane x, else 0
    unsigned facing[256]                   # Mpantsaka: [seeded lanes of the opponent's front row,
                                           #   bit i for its lane C+i] -> mover lanes facing them
    int hole_of[2][MAX_LANES]              # board hole of player p's lane x
    int ascending[2][MAX_LANES]            # player p's lanes in ascending board order
    unsigned char rank[2][MAX_LANES]       # [p][x]: lane x's index in ascending[p]
    # the 16-bit halves' (halves16_fit; else zeros), last: the 8-bit lanes' stay together
    u64 deeper16[MAX_LANES][MAX_WORDS]     # deeper on 16-bit lanes
    LoopLanes loop16                       # the loop on 16-bit lanes

cdef HalvesTables HALVES_TABLES[MAX_GAMES]
cdef bint HALVES_FIT[MAX_GAMES]     # has the game its HALVES_TABLES (halves_fit)
cdef bint HALVES16_FIT[MAX_GAMES]   # and their 16-bit lanes (halves16_fit)


cdef bint halves_fit(const GameTable* g) noexcept:
    """Do a game's boards fit the halves (Katro and Katra Mpantsaka): rows of at
    most 6 holes (Katro's capture table) or 8 (Mpantsaka's facing table), 3
    rows a player at most.  A named size that fits has its own form;
    a variant's (docs/rules.md §7) that fits runs on NODE_VARIANT_HALVES."""
    if g.family == FAM_KATRO:
        return g.cols <= 6 and g.depth_rows <= 3
    return g.family == FAM_MPANTSAKA and g.cols <= 8 and g.depth_rows == 2


cdef bint halves16_fit(const GameTable* g) noexcept:
    """Do a game's boards fit the 16-bit halves (16-bit lanes): the halves, with
    at most HALVES16_MAX_LANES holes a player.  Its positions of more than 255
    seeds run on NODE_HALVES16."""
    return halves_fit(g) and g.path_len <= HALVES16_MAX_LANES


# Set only by tests and benchmarks (_set_variant_halves): the named Katro and
# Mpantsaka games then run on the variants' halves form, as a variant does.
cdef bint VARIANT_HALVES_FORCED = 0
# Set only by tests and benchmarks (_set_halves16): every position of a
# game that fits the 16-bit halves then runs on them, whatever its seeds.
cdef bint HALVES16_FORCED = 0


def _set_variant_halves(bint forced):
    """Tests and benchmarks only: 1 makes the named Katro and Katra Mpantsaka
    games run on the variants' halves form (NODE_VARIANT_HALVES), 0 on their
    own.  Returns the previous setting."""
    global VARIANT_HALVES_FORCED
    cdef bint previous = VARIANT_HALVES_FORCED
    VARIANT_HALVES_FORCED = forced
    return previous


def _set_halves16(bint forced):
    """Tests and benchmarks only: 1 makes every position of a game that fits
    the 16-bit halves (halves16_fit) run on them (NODE_HALVES16), as its
    positions of more than 255 seeds do; 0 only those.  Returns the previous
    setting."""
    global HALVES16_FORCED
    cdef bint previous = HALVES16_FORCED
    HALVES16_FORCED = forced
    return previous

# A Katro or Katra Mpantsaka position from the side to move: "me" the mover's
# lanes, "op" the opponent's (8 lanes a word, or 4 on the 16-bit halves).
# Moves are bits: x for lane x in direction 0, 32 + x in direction 1
# (Mpantsaka's clockwise).
ctypedef struct HalvesNode:
    u64 me[MAX_WORDS]
    u64 op[MAX_WORDS]


cdef void _halves_tables(HalvesTables* t, GameTable* g):
    """Fill the lane tables of a Katro or Katra Mpantsaka game from its GameTable."""
    cdef int L = g.path_len, C = g.cols, K = g.depth_rows
    cdef int x, y, p, od, hole, col, m, k
    memset(t, 0, sizeof(HalvesTables))
    _require(halves_fit(g), "the halves: a board that fits them (halves_fit)")
    _require(L == C * K, "a player's loop is its rows")
    _loop_lanes(&t.loop, L, 1, 8)
    if halves16_fit(g):
        _loop_lanes(&t.loop16, L, 1, 16)
    t.C = C
    t.K = K
    for od in range(K):
        t.row_start[od] = od * C
    for p in range(2):
        for x in range(L):
            t.hole_of[p][x] = g.path[p][0][x]
        holes = [g.path[p][0][y] for y in range(L)]
        order = sorted(range(L), key=holes.__getitem__)
        for x in range(L):
            t.ascending[p][x] = order[x]
            t.rank[p][order[x]] = x
    _require(g.holes == 2 * L and 2 * MAX_HOLES >= ((2 * L + 15) & ~15) and PACK_WORDS * 8 >= ((2 * L + 15) & ~15),
             "halves_pack: a player's holes are half the board, its reads stay in the IntPosition")
    for x in range(L):
        hole = g.path[0][0][x]
        _require(hole == (x // C) * C + (x % C if (x // C) % 2 == 0 else C - 1 - x % C),
                 "halves_pack: South's loop runs through its rows in board order, there and back")
        _require(g.path[1][0][x] == g.holes - 1 - hole, "North's path is South's turned round")
        _require(g.depth_of[hole] == x // C, "a row is C consecutive lanes")
        col = g.col_of[hole]
        for y in range(L):
            if y // C > x // C:
                t.deeper[x][y >> 3] |= <u64>0xFF << ((y & 7) * 8)
                if halves16_fit(g):
                    t.deeper16[x][y >> 2] |= <u64>0xFFFF << ((y & 3) * 16)
        for od in range(K):
            # the opponent's row od in the landing's column, as a lane of its loop
            t.face[x][od] = g.pathpos[1][0][g.row_start[1][od] + col]
        if g.front_opp[hole] >= 0:
            t.front_face[x] = g.pathpos[1][0][g.front_opp[hole]]
            _require(t.front_face[x] >= C, "Mpantsaka: the front row is lanes C..2C-1")
            for m in range(1 << C):
                if mpantsaka_lap_captures(1, (m >> (t.front_face[x] - C)) & 1):
                    t.facing[m] |= 1u << x
    for p in range(2 if g.family == FAM_KATRO else 0):
        for od in range(K):
            ranks = [t.rank[p][od * C + x] for x in range(C)]
            _require(ranks in (sorted(ranks), sorted(ranks, reverse=True)),
                     "a Katro row's lanes are in board order or its reverse")
    for od in range(K if g.family == FAM_KATRO else 0):
        for m in range(1 << C):
            for x in range(L):
                k = t.face[x][od] - od * C
                _require(0 <= k < C, "a facing lane lies in the row")
                if katro_lap_captures(0, (m >> k) & 1):
                    t.captures[od][m] |= 1u << x


cdef inline void words_clear(u64* w0, u64* w1, u64* w2, int x, const LoopLanes* lp,
                             int NW, int LB) noexcept nogil:
    """Empty lane x of the words w0..w2 (branch-free; lp's lanes are LB bits)."""
    if NW == 1:
        w0[0] &= lane_clear_mask(x) if LB == 8 else lp.keep[x][0]
        return
    w0[0] &= lp.keep[x][0]
    w1[0] &= lp.keep[x][1]
    if NW > 2:
        w2[0] &= lp.keep[x][2]


cdef inline const LoopLanes* halves_loop(const HalvesTables* tables, int LB) noexcept nogil:
    """The loop's tables on lanes of LB bits."""
    return &tables.loop16 if LB == 16 else &tables.loop


cdef inline long long halves_sow(u64* M, const u64* O, unsigned* opp_seeded, int x, int d,
                                       const HalvesTables* tables, int family, int NW, int L,
                                       long long limit, int LB) noexcept nogil:
    """relay_sow on lanes, for Katro and Katra Mpantsaka: lift the mover's lane x
    and sow lap after lap on its loop in direction d (M the mover's words, sown
    in place; O the opponent's, only read) until a lap ends in an empty hole.
    opp_seeded: the opponent's seeded lanes (bit i for lane i), a capture
    empties one by clearing its bit (O itself stays as it was: the caller
    applies the bits, halves_opponent_left).  The laps taken, or -(laps
    played) if the move does not end within limit laps (M is then garbage).
    The words stay in registers; Brent's detector (brent_cycles_words) compares
    them and the lap start (lane and hand, one int).  The opponent's holes
    change only by a capture, which restarts the detector.  LB: the lanes'
    bits (8, or 16 on the 16-bit halves)."""
    cdef const LoopLanes* lp = halves_loop(tables, LB)
    cdef u64 m0 = M[0]
    cdef u64 m1 = M[1] if NW > 1 else 0
    cdef u64 m2 = M[2] if NW > 2 else 0
    cdef u64 s0 = 0, s1 = 0, s2 = 0           # Brent's saved lap start
    cdef int saved_at = 0
    cdef Brent brent = Brent(0, 0)
    cdef int hand = lane_of_words(m0, m1, m2, x, NW, LB)
    cdef int pos = x, r, q, land, seeds, od = 0, target = 0
    cdef unsigned seeded = opp_seeded[0]
    cdef unsigned capturing                   # the mover's lanes whose landing would capture
    cdef bint captured
    cdef u64 deeper
    cdef long long laps = 1
    cdef long long laps_since_capture = 0     # or since the move's start
    cdef const LapStep* step
    words_clear(&m0, &m1, &m2, x, lp, NW, LB)
    capturing = halves_capturing(seeded, tables, family, L, &od)
    while True:
        if brent_cycles_words(&brent, laps_since_capture, m0, m1, m2, pos | (hand << 8),
                              &s0, &s1, &s2, &saved_at):
            return -laps
        r = hand
        if (NW == 1 and LB == 8) or hand >= L:    # whole rounds: q to every lane
            # (branch-free on a loop of one word of 8 lanes, a constant: on
            # Katro 4x4's 8 lanes a hand goes round at one lap in five, a
            # mispredicted branch each time; 8 lanes make it a shift and a mask)
            q = whole_rounds(hand, L, &r)
            m0 += <u64>q * lp.valid[0]
            if NW > 1:
                m1 += <u64>q * lp.valid[1]
            if NW > 2:
                m2 += <u64>q * lp.valid[2]
        step = &lp.step[d][pos][r]
        m0 += step.add[0]
        if NW > 1:
            m1 += step.add[1]
        if NW > 2:
            m2 += step.add[2]
        land = step.land
        seeds = lane_of_words(m0, m1, m2, land, NW, LB)
        if relay_lap_ends(seeds):
            break
        words_clear(&m0, &m1, &m2, land, lp, NW, LB)   # lifted into the hand
        pos = land
        if family == FAM_KATRO:
            # branch-free: the verdict is data-dependent in long relay chains
            deeper = m0 & (tables.deeper16[land][0] if LB == 16 else tables.deeper[land][0])
            if NW > 1:
                deeper |= m1 & (tables.deeper16[land][1] if LB == 16 else tables.deeper[land][1])
            if NW > 2:
                deeper |= m2 & (tables.deeper16[land][2] if LB == 16 else tables.deeper[land][2])
            captured = katro_lap_captures(<bint>(deeper != 0), (capturing >> land) & 1)
            if captured:
                target = tables.face[land][od]
        else:
            captured = (capturing >> land) & 1
            if captured:
                target = tables.front_face[land]
        if captured:        # the seeds of a seeded lane never yet captured: O's
            seeds += lane_in(O, target, LB)
            seeded &= ~(1u << target)
            capturing = halves_capturing(seeded, tables, family, L, &od)
        if laps >= limit:
            return -laps
        laps += 1
        hand = seeds
        laps_since_capture = 0 if captured else laps_since_capture + 1
    M[0] = m0
    if NW > 1:
        M[1] = m1
    if NW > 2:
        M[2] = m2
    opp_seeded[0] = seeded
    return laps


cdef inline unsigned halves_capturing(unsigned opp_seeded, const HalvesTables* tables, int family,
                                      int L, int* od) noexcept nogil:
    """The mover's lanes whose landing would capture (Katro: were no deeper
    row of the mover seeded; its od, the depth of the opponent's row taken
    from), over the opponent's seeded lanes: the family's capture rule."""
    if family == FAM_KATRO:
        return katro_capturing_lanes(opp_seeded, tables, od)
    return mpantsaka_capturing_lanes(opp_seeded, tables, L >> 1)      # a loop of two rows


cdef inline void halves_opponent_left(u64* out, const u64* O, unsigned opp_seeded,
                                      int NW, int LB) noexcept nogil:
    """The opponent's words O after a sowing whose captures left opp_seeded
    (halves_sow): its captured lanes emptied."""
    out[0] = O[0] & lanes_of_bits(opp_seeded, 0, LB)
    if NW > 1:
        out[1] = O[1] & lanes_of_bits(opp_seeded, 1, LB)
    if NW > 2:
        out[2] = O[2] & lanes_of_bits(opp_seeded, 2, LB)


cdef inline long long halves_play_seeded(HalvesNode* child, const HalvesNode* s, int move,
                                         unsigned opp_seeded, const HalvesTables* tables, int family,
                                         int NW, int L, int LB) noexcept nogil:
    """The child of move (lane + 32 * direction) of s in child (the sides
    swapped: the child is seen from the next mover); halves_sow's result.
    opp_seeded: halves_seeded_bits(s.op, NW, LB), the opponent's seeded lanes
    (the same for every move of s); child is not s."""
    cdef long long laps
    cdef int w
    for w in range(NW):
        child.op[w] = s.me[w]
    if move >> 5:       # a constant direction in each copy of the loop
        laps = halves_sow(child.op, s.op, &opp_seeded, move & 31, 1, tables, family, NW, L,
                          LAP_LIMIT_C, LB)
    else:
        laps = halves_sow(child.op, s.op, &opp_seeded, move & 31, 0, tables, family, NW, L,
                          LAP_LIMIT_C, LB)
    halves_opponent_left(child.me, s.op, opp_seeded, NW, LB)
    return laps


cdef inline bint loop_first_lap_ends(const u64* w, const LoopLanes* lp, int L, int x, int d,
                                     int family, int LB) noexcept nogil:
    """first_lap_ends_by on the lanes of one loop of L lanes of LB bits (w its
    words): the first lap from lane x in direction d."""
    cdef int n = lane_in(w, x, LB)
    cdef int land
    if n >= L:                  # no landing to read: the rule answers from n alone
        return first_lap_ends_by(family, n, L, 0)
    land = lp.step[d][x][n].land
    return first_lap_ends_by(family, n, L, lane_in(w, land, LB) + 1)


cdef inline bint halves_first_lap_ends(const HalvesNode* s, int x, int d, const HalvesTables* tables,
                                       int L, int LB) noexcept nogil:
    """loop_first_lap_ends for a Katro or Katra Mpantsaka move from lane x in
    direction d (the two share their lap-end rule, relay_lap_ends)."""
    return loop_first_lap_ends(s.me, halves_loop(tables, LB), L, x, d, FAM_KATRO, LB)


cdef inline u64 halves_moves(const HalvesNode* s, const HalvesTables* tables, int family, int simplified,
                           int NW, int LB) noexcept nogil:
    """The sowing candidates of s as move bits (the family's origin rules)."""
    return halves_side_moves(s.me, tables, family, simplified, NW, LB)


cdef inline u64 halves_side_moves(const u64* side, const HalvesTables* tables, int family,
                                  int simplified, int NW, int LB) noexcept nogil:
    """The sowing candidates of one side's words, were it to move, as move bits."""
    if family == FAM_KATRO:
        return katro_sowing_candidates_lanes(halves_seeded_bits(side, NW, LB), tables)
    return mpantsaka_sowing_candidates_lanes(halves_seeded_bits(side, NW, LB), tables, simplified)


cdef inline int halves_count_ending(const HalvesNode* s, unsigned origins, int d, unsigned opp_seeded,
                                    const HalvesTables* tables, int family, int NW, int L,
                                    long long* work, int LB) noexcept nogil:
    """How many of the moves from origins (lanes) in direction d (a constant)
    end within the lap limit, sowing only those first_lap_ends cannot settle
    (on words of their own: no child is made); adds the moves tried and the
    laps sown to work."""
    cdef u64 mine[MAX_WORDS]
    cdef unsigned left
    cdef int x, w, m = 0
    cdef long long laps, done = 0             # work, added once
    while origins:
        x = lowest_bit(origins)
        origins &= origins - 1
        done += 1
        if halves_first_lap_ends(s, x, d, tables, L, LB):
            m += 1
            continue
        for w in range(NW):
            mine[w] = s.me[w]
        left = opp_seeded
        laps = halves_sow(mine, s.op, &left, x, d, tables, family, NW, L, LAP_LIMIT_C, LB)
        done += laps if laps >= 0 else -laps
        m += laps >= 0
    work[0] += done
    return m


cdef inline int halves_legal_count(const HalvesNode* s, const HalvesTables* tables, int family,
                                   int simplified, int NW, int L, long long* work,
                                   int LB) noexcept nogil:
    """len(legal moves of s), sowing only the candidates first_lap_ends cannot
    settle (the moves of each direction apart: a constant direction in each)."""
    cdef u64 moves = halves_moves(s, tables, family, simplified, NW, LB)
    cdef unsigned opp_seeded = halves_seeded_bits(s.op, NW, LB)
    cdef int m = halves_count_ending(s, <unsigned>moves, 0, opp_seeded, tables, family, NW, L,
                                     work, LB)
    if family == FAM_MPANTSAKA:
        m += halves_count_ending(s, <unsigned>(moves >> 32), 1, opp_seeded, tables, family, NW, L,
                                 work, LB)
    return m


# The board's counts as bytes in words, board order (hole h: lane h & 7 of word
# h >> 3): SSE2 packs (two saturating narrowings, exact for counts 0..255)
# where the compiler has them on a 64-bit target, a loop elsewhere.
cdef extern from *:
    """
    #include "_portable.h"
    #if KATRA_HAVE_SSE2 && (defined(__x86_64__) || defined(_M_X64))
    #include <emmintrin.h>
    #define KATRA_WORDS_OF_INTS_SSE2 1
    #else
    #define KATRA_WORDS_OF_INTS_SSE2 0
    #endif
    /* w[k] = the bytes v[8k..8k+7] (each 0..255), for 8k < n rounded up to 16:
       reads that many ints */
    static inline void katra_words_of_ints(const int *v, unsigned long long *w, int n) {
        int i;
    #if KATRA_WORDS_OF_INTS_SSE2
        for (i = 0; i < n; i += 16) {
            __m128i lo = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)(v + i)),
                                         _mm_loadu_si128((const __m128i *)(v + i + 4)));
            __m128i hi = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)(v + i + 8)),
                                         _mm_loadu_si128((const __m128i *)(v + i + 12)));
            __m128i b = _mm_packus_epi16(lo, hi);
            w[i >> 3] = (unsigned long long)_mm_cvtsi128_si64(b);
            w[(i >> 3) + 1] = (unsigned long long)_mm_cvtsi128_si64(_mm_unpackhi_epi64(b, b));
        }
    #else
        int j;
        for (i = 0; i < ((n + 15) & ~15); i += 8) {
            w[i >> 3] = 0;
            for (j = 0; j < 8; j++) w[i >> 3] |= (unsigned long long)(unsigned char)v[i + j] << (8 * j);
        }
    #endif
    }
    """
    void words_of_ints "katra_words_of_ints"(const int* v, u64* w, int n) noexcept nogil


cdef enum:
    PACK_WORDS = 6      # words_of_ints' words of a Katro or Mpantsaka board (_halves_tables checks)


cdef inline u64 lanes_from(const u64* w, int h, int C) noexcept nogil:
    """The C lanes of the words w from lane h on (C < 8 or h a word's first lane)."""
    cdef int shift = 8 * (h & 7)
    cdef u64 row = w[h >> 3] >> shift
    if shift and shift + 8 * C > 64:
        row |= w[(h >> 3) + 1] << (64 - shift)
    return row & (~(<u64>0) >> (64 - 8 * C))


cdef inline u64 lanes_reversed(u64 row, int C) noexcept nogil:
    """The C low lanes of row in the reverse order (a byte swap where the
    compiler knows the idiom)."""
    row = ((row & <u64>0x00FF00FF00FF00FF) << 8) | ((row >> 8) & <u64>0x00FF00FF00FF00FF)
    row = ((row & <u64>0x0000FFFF0000FFFF) << 16) | ((row >> 16) & <u64>0x0000FFFF0000FFFF)
    row = (row << 32) | (row >> 32)
    return row >> (64 - 8 * C)


cdef inline void lanes_put_row(u64* w, int x, u64 row, int C) noexcept nogil:
    """Or the C lanes of row into the words w from lane x on."""
    cdef int shift = 8 * (x & 7)
    w[x >> 3] |= row << shift
    if shift + 8 * C > 64:
        w[(x >> 3) + 1] |= row >> (64 - shift)


cdef inline void halves_pack(HalvesNode* node, const IntPosition* s, int L, int C) noexcept nogil:
    """IntPosition -> lanes from the side to move (L: the loop's lanes, C: a
    row's holes, constants), a row at a time.  South's loop runs through its
    rows in board order, row od from hole od * C, left to right on even rows
    and back on odd ones; North's is the board turned round (_halves_tables
    checks both): its row od is South's read from the board's other end."""
    cdef u64 board[PACK_WORDS]
    cdef u64 south, north, flip = -<u64>(s.to_move != 0)     # all ones when North moves
    cdef int od, w, H = 2 * L
    # reads the board and, past its last hole, what follows it in the
    # IntPosition, up to H rounded up to 16 ints (_halves_tables checks)
    words_of_ints(s.board, board, H)
    for w in range(MAX_WORDS):
        node.me[w] = 0
        node.op[w] = 0
    for od in range(L // C):
        south = lanes_from(board, od * C, C)
        north = lanes_from(board, H - (od + 1) * C, C)
        if od & 1:
            south = lanes_reversed(south, C)
        else:
            north = lanes_reversed(north, C)
        lanes_put_row(node.me, od * C, south ^ ((south ^ north) & flip), C)      # branch-free
        lanes_put_row(node.op, od * C, north ^ ((south ^ north) & flip), C)


cdef inline void halves16_pack(HalvesNode* node, const IntPosition* s, const HalvesTables* t,
                                  int L) noexcept nogil:
    """IntPosition -> the 16-bit halves from the side to move, a lane at a time
    (a job packs its root once): lane x of a side is the hole under it, hole_of."""
    cdef int x, w, p = s.to_move
    for w in range(MAX_WORDS):
        node.me[w] = 0
        node.op[w] = 0
    for x in range(L):
        node.me[x >> 2] |= <u64>s.board[t.hole_of[p][x]] << ((x & 3) * 16)
        node.op[x >> 2] |= <u64>s.board[t.hole_of[1 - p][x]] << ((x & 3) * 16)
