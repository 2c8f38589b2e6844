# Shared machinery of the compiled core (its types and tables are declared in
# _core.pxd): the tables' construction, splitmix64, sowing, the relay engine
# with its cycle detection and the int form's dispatch by game family (the
# legal moves and children over it: the node layer, _node.pxi).  Every hot
# function is nogil and never raises.

import math

from libc.string cimport memcmp, memset, memcpy
from libc.stdlib cimport calloc, malloc, free, realloc

cdef enum:
    CYCLE_START = 24          # laps without a capture before the cycle detector starts

# Keys of the Zobrist hash (from katra._zobrist, which the reference reads too).
cdef u64 ZKEY_HOLE[MAX_HOLES]
cdef u64 ZKEY_OWNER[MAX_HOLES]
cdef u64 ZKEY_STORE[2]
cdef u64 ZKEY_MOVE = 0
cdef u64 ZKEY_OFFER = 0
cdef u64 ZKEY_GAME[MAX_GAMES]
cdef u64 ZKEY_OWNERS0[MAX_GAMES]    # the owner keys of a game's initial owners, xored


# x % n for the small n of playouts (1 <= n <= MAX_CANDIDATES), exact for
# every 64-bit x, by multiplications (Lemire, Kaser and Kurz, "Faster remainder
# by direct computation", 2019): with M = ceil(2**128 / n), x % n is the high
# 128 bits of (M * x mod 2**128) * n.  M is kept as its two 64-bit halves, so
# that the product mod 2**128 is one 64x64->128 multiplication and one 64-bit
# one, and its product with n two 64x64->128 ones (n's 7 bits known unsigned):
# four multiplications, two of them on the path from n to the result.  Where
# the compiler has no 128-bit integers (KATRA_HAVE_U128, _portable.h), the
# division.  tests/test_lanes.py checks it for every n against Python's % on
# edge cases and a large sample.
cdef extern from *:
    """
    #include "_portable.h"
    #if KATRA_HAVE_U128
    typedef unsigned __int128 katra_u128;
    static unsigned long long katra_mod_magic_lo[129], katra_mod_magic_hi[129];
    static void katra_mod_init(void) {
        int n;
        for (n = 1; n <= 128; n++) {
            katra_u128 m = ~(katra_u128)0 / (unsigned)n + 1;     /* 0 for n = 1: x % 1 = 0 */
            katra_mod_magic_lo[n] = (unsigned long long)m;
            katra_mod_magic_hi[n] = (unsigned long long)(m >> 64);
        }
    }
    static inline unsigned long long katra_mod_small(unsigned long long x, int n) {
        unsigned long long un = (unsigned long long)(unsigned)n;
        katra_u128 p = (katra_u128)katra_mod_magic_lo[n] * x;
        unsigned long long low_lo = (unsigned long long)p;            /* M * x mod 2**128 */
        unsigned long long low_hi = (unsigned long long)(p >> 64) + katra_mod_magic_hi[n] * x;
        katra_u128 mid = (katra_u128)low_hi * un + (((katra_u128)low_lo * un) >> 64);
        return (unsigned long long)(mid >> 64);
    }
    #else
    static void katra_mod_init(void) {}
    static inline unsigned long long katra_mod_small(unsigned long long x, int n) {
        return x % (unsigned long long)n;
    }
    #endif
    """
    void mod_small_init "katra_mod_init"() noexcept nogil
    u64 mod_small "katra_mod_small"(u64 x, int n) noexcept nogil   # 1 <= n <= 128


def _mod_small(x, n):
    """Tests only: the core's x % n for playouts (n in 1..128, x a 64-bit int)."""
    if not (1 <= n <= 128 and 0 <= x < 2 ** 64):
        raise ValueError("n must be in 1..128 and x in 0..2**64-1")
    return mod_small(<u64>x, <int>n)


# The lowest set bit of a non-zero word, and the set bits of a word.
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    static inline int katra_lowest_bit(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int katra_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int katra_lowest_bit(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int katra_lowest_bit(unsigned long long x) {
        int i = 0; while (!(x & 1)) { x >>= 1; i++; } return i;
    }
    #endif
    static inline int katra_popcount64(unsigned long long x) {
        int n = 0; while (x) { x &= x - 1; n++; } return n;
    }
    #endif
    """
    int lowest_bit "katra_lowest_bit"(u64 x) noexcept nogil   # x != 0
    int popcount64 "katra_popcount64"(u64 x) noexcept nogil


cdef inline u64 mix64(u64 z) noexcept nogil:
    """The splitmix64 finaliser, used to derive hash keys from small values."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline u64 splitmix64(u64* state) noexcept nogil:
    """docs/rules.md §6.2, modulo 2**64: the state's step, finalised."""
    state[0] += 0x9E3779B97F4A7C15ULL
    return mix64(state[0])


cdef inline int whole_rounds(int n, int L, int* rest) noexcept nogil:
    """n >= 0 seeds sown on a loop of L holes: the whole rounds (a seed to every
    hole each), and in rest the seeds left over (0 <= rest < L).  Unsigned: on
    a loop of 2^k holes a shift and a mask."""
    cdef unsigned q = <unsigned>n // <unsigned>L
    rest[0] = <int>(<unsigned>n - q * <unsigned>L)
    return <int>q


cdef inline int sow_lap(int* board, const int* path, const int* pathpos, int L, int lo, int h,
                        int n, int offset) noexcept nogil:
    """One lap along a path of L holes (path written twice, pathpos its inverse),
    whose holes are lo..lo+L-1 (path_first_hole): lift h (its seeds, with any
    captured, are the n >= 1 in hand) and drop the n seeds, the first into the
    hole after h (offset 1) or into h itself (offset 0); return the landing
    hole.  Whole rounds go to the run of holes at once; the rest walks the
    doubled path (no pointer chase, no modulo)."""
    cdef int start = pathpos[h] + offset   # 0..L: the path position of the first seed
    cdef int q, k
    board[h] = 0
    if n >= L:
        if n < 2 * L:                       # the usual whole round: no division
            q = 1
            n -= L
        else:
            q = whole_rounds(n, L, &n)
        for k in range(lo, lo + L):
            board[k] += q
        if n == 0:
            return path[start + L - 1]
    path += start
    for k in range(n):
        board[path[k]] += 1
    return path[n - 1]


cdef inline u64 lap_sown_bits(const u64* path_bits, int L, u64 h_bit, int start, int n,
                              u64 seeded) noexcept nogil:
    """The path's seeded holes after sow_lap (bit k for hole path_first_hole +
    k), from those before it: the lifted hole (h_bit) emptied, then every hole
    seeded by a whole round (n >= L), else the n holes from path position
    start on (path_bits: the xor of the doubled path's first k holes' bits)."""
    if n >= L:
        return path_bits[L]
    return (seeded & ~h_bit) | (path_bits[start + n] ^ path_bits[start])


cdef inline int path_first_hole(const GameTable* g, int player) noexcept nogil:
    """The first hole of player's paths: a path is the whole board (Goré,
    Djenon-aboure) or the player's own holes, South's the first path_len and
    North's the last (checked when the tables are built)."""
    return 0 if g.path_len == g.holes else own_holes_first(g, player)


# Brent's cycle detection, the early exit of the lap limit (docs/rules.md
# §1.3), over lap starts (the board, the lap's first hole and its seeds in
# hand): it runs once CYCLE_START laps have passed since the move's start or
# its last capture (a capture never lies on a cycle: it restarts the count).
# The protocol is written once, here: the schedule (brent_lap) and the check at
# each lap start with its save, brent_cycles_board (the int form: board, hole
# and hand) and brent_cycles_words (the lanes: their words, kept in registers
# by the inlined call, and the lane and hand as one int).  A loop returns
# -(laps played) when either says True.
ctypedef struct Brent:
    long long power     # laps between the saves of the lap start
    long long left      # laps until the next save

cdef enum:
    BRENT_GO = 0        # sow on
    BRENT_SAVE = 1      # save this lap start, then sow on
    BRENT_CYCLE = 2     # this lap start was seen before: the move never ends


cdef inline int brent_lap(Brent* c, long long laps_since_capture, bint same) noexcept nogil:
    """At a lap start, laps_since_capture >= CYCLE_START (counted from the
    move's start before any capture); same: this lap start equals the saved
    one (not meaningful at CYCLE_START, where the detector starts).  What to
    do (BRENT_*)."""
    if laps_since_capture == CYCLE_START:
        c.power = 1
        c.left = 1
        return BRENT_SAVE
    if same:
        return BRENT_CYCLE
    c.left -= 1
    if c.left:
        return BRENT_GO
    c.power *= 2
    c.left = c.power
    return BRENT_SAVE


cdef inline bint brent_cycles_board(Brent* c, long long laps_since_capture, const int* board,
                                    int holes, int at, int* saved_board,
                                    int* saved_at) noexcept nogil:
    """Brent's check at a lap start of the int form (board, and at: its first
    hole | the seeds in hand << 8), laps_since_capture as brent_lap's: True if
    it was seen before (the move never ends); saves it when the schedule says
    so.  The board is compared only when at matches."""
    cdef int verdict
    if laps_since_capture < CYCLE_START:
        return False
    verdict = brent_lap(c, laps_since_capture, at == saved_at[0]
                        and memcmp(board, saved_board, holes * sizeof(int)) == 0)
    if verdict == BRENT_SAVE:
        saved_at[0] = at
        memcpy(saved_board, board, holes * sizeof(int))
    return verdict == BRENT_CYCLE


cdef inline bint brent_cycles_words(Brent* c, long long laps_since_capture, u64 w0, u64 w1,
                                    u64 w2, int at, u64* s0, u64* s1, u64* s2,
                                    int* saved_at) noexcept nogil:
    """brent_cycles_board on lanes: the lap start is the lane words w0..w2 (0 where
    a form has fewer) and at (the first lane | the hand << 8); s0..s2 and
    saved_at the saved one (the caller's locals: inlined, they stay in registers)."""
    cdef int verdict
    if laps_since_capture < CYCLE_START:
        return False
    verdict = brent_lap(c, laps_since_capture, ((w0 ^ s0[0]) | (w1 ^ s1[0]) | (w2 ^ s2[0])
                                  | <u64>(<unsigned>(at ^ saved_at[0]))) == 0)
    if verdict == BRENT_SAVE:
        s0[0] = w0
        s1[0] = w1
        s2[0] = w2
        saved_at[0] = at
    return verdict == BRENT_CYCLE


# ---------------------------------------------------------------- rules shared by families

cdef inline bint relay_lap_ends(int landed) noexcept nogil:
    """Katro and Katra Mpantsaka (§2.3, §3.3), on landed, what the landing hole
    holds once the lap's last seed is in: a lap landing in an empty hole
    (landed 1) ends the move; any other relays."""
    return landed == 1


cdef inline bint first_lap_ends_by(int family, int seeds, int loop_len, int landed) noexcept nogil:
    """Core only (a candidate is legal unsown when this says so): a first lap of
    fewer seeds than the loop holds lands on a hole other than its start,
    which then holds landed (its seeds before the lap plus one); the move ends
    with it if the family's lap-end rule says so.  (With seeds >= loop_len,
    landed is not read.)"""
    if seeds >= loop_len:
        return 0
    if family == FAM_DJENON:
        return djenon_lap_ends(landed)
    return relay_lap_ends(landed)


cdef inline int winner_by_scores(int south, int north) noexcept nogil:
    """Goré and Djenon-aboure (§4.5, §5.3): the higher score wins; -1 a draw."""
    return 0 if south > north else 1 if north > south else -1


# ---------------------------------------------------------------- the relay engine
# (its protocol with the families, LapCarry and the LAP_* verdicts: _core.pxd)

cdef inline int lap_end(IntPosition* s, GameTable* g, int family, int h, LapCarry* lap) noexcept nogil:
    if family == FAM_KATRO:
        return katro_lap_end(s, g, h, lap)
    if family == FAM_MPANTSAKA:
        return mpantsaka_lap_end(s, g, h, lap)
    return djenon_lap_end(s, g, h, lap)


cdef inline long long relay_sow(IntPosition* s, GameTable* g, int family, int player, int d,
                                int origin, int offset, long long limit) noexcept nogil:
    """Lift origin and sow lap after lap on path [player][d] (sow_lap's offset)
    until the family's lap_end says the move ends (docs/rules.md §1.3).
    Returns the laps taken, or -(laps played) <= -1 if the move does not end
    within limit laps (s is then garbage).  Brent's check (brent_cycles_board)
    is the early exit."""
    cdef int* board = s.board
    cdef const int* path = &g.path[player][d][0]
    cdef const int* pathpos = &g.pathpos[player][d][0]
    cdef const u64* path_bits = &g.path_bits[player][d][0]
    cdef int lo = path_first_hole(g, player)
    cdef int h = origin
    cdef LapCarry lap
    cdef int verdict
    cdef long long laps = 1
    cdef long long laps_since_capture = 0  # or since the move's start
    cdef Brent brent = Brent(0, 0)
    cdef int saved_at = -1       # Brent's saved lap start: hole | hand << 8, and the board
    cdef int saved_board[MAX_HOLES]
    lap.hand = board[origin]     # origin is lifted by the first lap's sow_lap
    lap.opp_row = OPP_ROW_UNKNOWN
    if family == FAM_KATRO:      # the mover's seeded holes, for katro_lap_end
        lap.mine = holes_at_least(board, lo, lo + g.path_len, 1) >> lo
    while True:
        if brent_cycles_board(&brent, laps_since_capture, board, g.holes, h | (lap.hand << 8),
                              saved_board, &saved_at):
            return -laps
        if family == FAM_KATRO:
            lap.mine = lap_sown_bits(path_bits, g.path_len, <u64>1 << (h - lo),
                                     pathpos[h] + offset, lap.hand, lap.mine)
        h = sow_lap(board, path, pathpos, g.path_len, lo, h, lap.hand, offset)
        verdict = lap_end(s, g, family, h, &lap)
        if verdict == LAP_ENDS:
            return laps
        if laps >= limit:
            return -laps
        laps += 1
        laps_since_capture = 0 if verdict == LAP_CAPTURES else laps_since_capture + 1


# ---------------------------------------------------------------- dispatch

# The IntPosition-level entry points (play, outcome_of, zobrist_c; and
# legal_actions_c, _node.pxi) are functions, not inline: the hot inline
# functions are forced inline (setup.py), and inlined into the search's and the
# solver's recursions they would swell every frame of it.  The node layer's
# IntPosition specialisation (_node.pxi) calls the *_of forms, which stay
# inline and take the family as an argument (a constant one leaves the C
# compiler only that family's code).

cdef inline int candidates_of(const IntPosition* s, GameTable* g, int family, int* acts) noexcept nogil:
    if family == FAM_KATRO:
        return katro_sowing_candidates(s, g, acts)
    if family == FAM_MPANTSAKA:
        return mpantsaka_sowing_candidates(s, g, acts)
    if family == FAM_GORE:
        return gore_legal_actions(s, g, acts)
    return djenon_sowing_candidates(s, g, acts)


cdef inline u64 holes_at_least(const int* board, int lo, int hi, int k) noexcept nogil:
    """The holes lo..hi-1 (hi <= MAX_HOLES) of an IntPosition's board holding k
    seeds or more, as a mask (bit h for hole h): the int form's view for the
    origin and capture rules.  Eight holes at a time (mask8_at_least, _gore.pxi:
    SSE2 compares where the compiler has them); the last eight may reach past
    hi into the owners that follow the board in an IntPosition, and their bits
    are dropped."""
    cdef u64 bits = 0
    cdef int h = lo
    while h < hi:
        bits |= <u64>mask8_at_least(board + h, k) << h
        h += 8
    return bits & ((<u64>1 << hi) - 1)


cdef inline int own_holes_first(const GameTable* g, int player) noexcept nogil:
    """Katro and Katra Mpantsaka: the first of player's path_len holes (South's
    are the first ones, North's the last ones)."""
    return 0 if player == 0 else g.holes - g.path_len


cdef inline int holes_listed(u64 holes, int* acts) noexcept nogil:
    """The holes of a mask, ascending, into acts (NULL: only counted); how many."""
    cdef int n = 0
    if acts == NULL:
        return popcount64(holes)
    while holes:
        acts[n] = lowest_bit(holes)
        holes &= holes - 1
        n += 1
    return n


cdef inline int origin_count(const IntPosition* s, GameTable* g, int player) noexcept nogil:
    """How many holes player could sow from were it to move: its family's
    origin rule (<family>_origins, counting only; Goré's offers and answers aside)."""
    if g.family == FAM_KATRO:
        return katro_origins(s, g, player, NULL)
    if g.family == FAM_MPANTSAKA:
        return mpantsaka_origins(s, g, player, NULL)
    if g.family == FAM_GORE:
        return POPCOUNT8[gore_origins(s, player)]
    return djenon_origins(s, g, player, NULL)


cdef inline bint sowing_candidate_of(const IntPosition* s, GameTable* g, int family,
                                     int action) noexcept nogil:
    """Is action (0 <= action < g.num_actions) one of the candidates candidates_of
    lists, Goré's aside (its actions are no sowings alone)?  Tested on the
    mover's origin mask, without listing them."""
    if family == FAM_KATRO:
        return (katro_origin_mask(s, g, s.to_move) >> action) & 1
    if family == FAM_MPANTSAKA:
        return (mpantsaka_origin_mask(s, g, s.to_move) >> (action >> 1)) & 1
    # Djenon-aboure: the pass (action 12) is no hole, so no bit of the mask
    return action < g.holes and (djenon_origin_mask(s, g, s.to_move) >> action) & 1


cdef inline long long play_of(IntPosition* s, GameTable* g, int family, int action,
                              long long limit) noexcept nogil:
    if family == FAM_KATRO:
        return katro_apply(s, g, action, limit)
    if family == FAM_MPANTSAKA:
        return mpantsaka_apply(s, g, action, limit)
    if family == FAM_GORE:
        return gore_apply(s, action)
    return djenon_apply(s, g, action, limit)


cdef long long play(IntPosition* s, int action, long long limit) noexcept nogil:
    """Play a candidate in place (the family's apply); the laps it took (0 for
    non-sowing actions), or a negative number (minus the laps played) if its
    sowing does not end within limit laps (s is then garbage)."""
    cdef GameTable* g = &TABLES[s.game]
    return play_of(s, g, g.family, action, limit)


cdef inline bint is_gore(const IntPosition* s) noexcept nogil:
    """Is s a Goré position?  Goré has no relays, so every candidate is legal."""
    return TABLES[s.game].family == FAM_GORE


cdef inline bint first_lap_ends(const IntPosition* s, GameTable* g, int family, int action) noexcept nogil:
    """True if the candidate's first lap surely ends the move (then it is legal
    without being sown); False if it must be sown to know (first_lap_ends_by
    over the IntPosition: the seeds of the origin and what its lap's landing holds)."""
    cdef int me = s.to_move if family != FAM_DJENON else 0
    cdef int d = action & 1 if family == FAM_MPANTSAKA else 0
    cdef int origin = action >> 1 if family == FAM_MPANTSAKA else action
    cdef int offset = 0 if family == FAM_DJENON else 1      # sow_lap's offset
    cdef int n = s.board[origin]
    cdef int landing
    if n >= g.path_len:         # no landing to read: the rule answers from n alone
        return first_lap_ends_by(family, n, g.path_len, 0)
    landing = g.path[me][d][g.pathpos[me][d][origin] + n - 1 + offset]
    return first_lap_ends_by(family, n, g.path_len, s.board[landing] + 1)


cdef void outcome_of(const IntPosition* s, int* winner, int* south, int* north) noexcept nogil:
    """Winner and scores of a terminal position (the family's outcome)."""
    cdef GameTable* g = &TABLES[s.game]
    if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
        katro_outcome(s, g, winner, south, north)
    elif g.family == FAM_GORE:
        gore_outcome(s, g, winner, south, north)
    else:
        djenon_outcome(s, g, winner, south, north)


cdef inline u64 zobrist_of(const IntPosition* s, const GameTable* g) noexcept nogil:
    """The position's 64-bit Zobrist-style hash with fixed keys (stable across
    runs; katra._zobrist.zobrist computes the same).  The owners and the offer
    change in Goré only: elsewhere their share is the game's constant
    ZKEY_OWNERS0, so the hash never reads owners that copy_hot left stale."""
    cdef u64 z = ZKEY_GAME[s.game]
    cdef int i
    for i in range(g.holes):
        z ^= mix64(ZKEY_HOLE[i] + <u64>s.board[i])
    if g.family == FAM_GORE:
        for i in range(g.holes):
            if s.owner[i]:
                z ^= ZKEY_OWNER[i]
        if s.offer:
            z ^= mix64(ZKEY_OFFER + <u64>s.offer)
    else:
        z ^= ZKEY_OWNERS0[s.game]
    z ^= mix64(ZKEY_STORE[0] + <u64>s.stores[0])
    z ^= mix64(ZKEY_STORE[1] + <u64>s.stores[1])
    if s.to_move:
        z ^= ZKEY_MOVE
    return z


cdef u64 zobrist_c(const IntPosition* s) noexcept nogil:
    return zobrist_of(s, &TABLES[s.game])


# ---------------------------------------------------------------- tables

cdef void _set_path(GameTable* g, int player, int d, list path):
    """Fill the doubled path and the next/previous/position tables of one path,
    and its bits (path_bits, bit k for hole path_first_hole + k)."""
    cdef int L = len(path)
    cdef int lo = min(path)
    cdef int k
    cdef u64 bits = 0
    _require(sorted(path) == list(range(lo, lo + L)) and g.path_len in (0, L),
             "a path is a run of holes, of one length")
    g.path_len = L
    _require(lo == path_first_hole(g, player), "a path's first hole")
    for k in range(2 * L):
        g.path[player][d][k] = path[k % L]
        g.path_bits[player][d][k] = bits
        bits ^= <u64>1 << (path[k % L] - lo)
    g.path_bits[player][d][2 * L] = bits
    for k in range(L):
        g.nxt[player][d][path[k]] = path[(k + 1) % L]
        g.prv[player][d][path[k]] = path[(k + L - 1) % L]
        g.pathpos[player][d][path[k]] = k


def two_row_loop(cols):
    """A loop round two rows of cols holes, CCW from the bottom row's first
    hole: a1 .. along the bottom row, back along the top row (Goré §4.1,
    Djenon-aboure §5.1, a Katra Mpantsaka player's two rows §3.1)."""
    return list(range(cols)) + list(range(2 * cols - 1, cols - 1, -1))


cdef int _build_tables() except -1:
    """Build TABLES from katra._games (run once at import; not callable from Python,
    since rebuilding them under a running job would break it)."""
    global ZKEY_MOVE, ZKEY_OFFER
    global LAP_LIMIT_C
    cdef int i, mask
    # The keys are defined once, in katra._zobrist, which the reference reads too.
    _require(_zobrist.MAX_HOLES == MAX_HOLES and len(_zobrist.GAME_KEYS) == NUM_GAMES,
             "katra._zobrist's key tables do not fit the core")
    for i in range(MAX_HOLES):
        ZKEY_HOLE[i] = _zobrist.HOLE_KEYS[i]
        ZKEY_OWNER[i] = _zobrist.OWNER_KEYS[i]
    ZKEY_STORE[0] = _zobrist.STORE_KEYS[0]
    ZKEY_STORE[1] = _zobrist.STORE_KEYS[1]
    ZKEY_MOVE = _zobrist.MOVE_KEY
    ZKEY_OFFER = _zobrist.OFFER_KEY
    cdef IntPosition probe
    _require(<char*>&probe.owner[0] - <char*>&probe == HOT_BYTES, "IntPosition layout changed")
    LAP_LIMIT_C = _games.LAP_LIMIT
    for name, value in (("GORE_OFFER_BASE", GORE_OFFER_BASE_C), ("GORE_PASS", GORE_PASS_C),
                        ("GORE_ACCEPT", GORE_ACCEPT_C), ("GORE_DECLINE", GORE_DECLINE_C),
                        ("DJENON_PASS", DJENON_PASS_C),
                        ("GORE_SEEDS_PER_TRADED_HOLE", GORE_SEEDS_PER_TRADED_HOLE_C)):
        _require(getattr(_games, name) == value,
                 f"katra._games.{name} is {getattr(_games, name)}, the core has {value}")
    _require(_games.MAX_TOTAL_SEEDS < (1 << 20), "MAX_TOTAL_SEEDS too large for the core")
    _require(_games.MAX_TOTAL_SEEDS <= LANE16_MAX_SEEDS, "the 16-bit halves: a lane holds any position's seeds")
    _require(MAX_CANDIDATES == 128, "mod_small's table covers 1..128")
    mod_small_init()
    for mask in range(256):
        POPCOUNT8[mask] = bin(mask).count("1")
        CTZ8[mask] = (mask & -mask).bit_length() - 1 if mask else 8
        LANES_OF_BITS[mask] = 0
        for i in range(8):
            if (mask >> i) & 1:
                LANES_OF_BITS[mask] |= <u64>0xFF << (8 * i)
    for mask in range(16):
        LANES16_OF_BITS[mask] = 0
        for i in range(4):
            if (mask >> i) & 1:
                LANES16_OF_BITS[mask] |= <u64>0xFFFF << (16 * i)
    for mask in range(256):
        subs = [sub for sub in range(1, 256) if sub & mask == sub and bin(sub).count("1") <= 3]
        _require(len(subs) <= 92, "OFFER_MASKS rows")
        OFFER_MASK_COUNT[mask] = len(subs)
        for i in range(len(subs)):
            OFFER_MASKS[mask][i] = subs[i]
    for owned in range(GORE_HOLES + 1):
        for most in range(4):
            OFFER_COUNT[owned][most] = sum(math.comb(owned, k)
                                           for k in range(1, min(most, owned - 1) + 1))

    # The core's game indices, shapes and forms were written from this table (_forms.pxi.in).
    _require(CORE_GAME_IDS == _games.GAME_IDS,
             f"the core was built for the games {CORE_GAME_IDS}: rebuild it")
    for gi, game_id in enumerate(_games.GAME_IDS):
        _require(game_index(_games.GAMES[game_id]) == gi, f"{game_id}'s index")
    return 0


# The game of each index (TABLES[i] was built from GAME_SPECS[i]) and the
# index of each game id: the named games' first (GAME_<symbol>), then the
# variants', in the order the process first makes a position of each.
cdef list GAME_SPECS = []
cdef dict GAME_INDICES = {}


cdef int game_index(object spec) except -1:
    """The core's index of a game (a katra._games.GameSpec), its table built
    on first use; ArgumentError once the process holds MAX_GAMES games."""
    global GAME_COUNT
    found = GAME_INDICES.get(spec.id)
    if found is not None:
        return found
    cdef int gi = len(GAME_SPECS)
    if gi >= MAX_GAMES:
        raise ArgumentError(f"{spec.id}: a process can play at most {MAX_GAMES - NUM_GAMES} "
                            f"variants besides the named games, and this one has made them all")
    _build_game_table(gi, spec)
    GAME_SPECS.append(spec)
    GAME_INDICES[spec.id] = gi
    GAME_COUNT = gi + 1
    return gi


cdef object _game_spec(int game):
    """The GameSpec of a game index."""
    return GAME_SPECS[game]


cdef int _build_game_table(int gi, object spec) except -1:
    """Build TABLES[gi] (and its Zobrist keys) for the game spec: a named
    game's at import, a variant's when first used (game_index); never an
    index a job may be reading."""
    cdef int i, j, first, p, d, row, col
    cdef GameTable* g = &TABLES[gi]
    game_id = spec.id
    memset(g, 0, sizeof(GameTable))
    ZKEY_GAME[gi] = _zobrist.game_key(game_id)
    g.family = _games.FAMILIES.index(spec.family)     # FAM_* (_games.pxi.in)
    g.rows = spec.rows
    g.cols = spec.cols
    g.holes = spec.rows * spec.cols
    _require(g.holes <= MAX_HOLES, f"{game_id}: too many holes for the core")
    _require(g.family != FAM_GORE or g.holes <= GORE_HOLES, f"{game_id}: an offer mask is a byte")
    _require(spec.num_actions <= (2 * MAX_HOLES if g.family != FAM_GORE else 267),
             f"{game_id}: action space")
    g.num_actions = spec.num_actions
    g.simplified = spec.simplified
    g.draws = spec.draws
    g.depth_rows = spec.rows // 2
    H = g.holes
    C = g.cols
    owners = spec.initial_owners()
    ZKEY_OWNERS0[gi] = 0
    for i in range(H):
        g.owner0[i] = owners[i]
        if owners[i]:
            ZKEY_OWNERS0[gi] ^= ZKEY_OWNER[i]
        g.col_of[i] = i % C
        row = i // C
        g.depth_of[i] = row if owners[i] == 0 else g.rows - 1 - row
        g.front_opp[i] = -1
    for d in range(g.depth_rows):
        g.row_start[0][d] = d * C
        g.row_start[1][d] = (g.rows - 1 - d) * C
    if g.family == FAM_KATRO:
        south, north = katro_paths(spec)
        for d, reverse in ((0, False), (1, True)):
            _set_path(g, 0, d, south[::-1] if reverse else south)
            _set_path(g, 1, d, north[::-1] if reverse else north)
        for i in range(H):      # bit k for the owner's hole own_holes_first + k
            first = own_holes_first(g, owners[i])
            for j in range(H):
                if owners[j] == owners[i] and g.depth_of[j] > g.depth_of[i]:
                    g.deeper_rows[i] |= <u64>1 << (j - first)
    elif g.family == FAM_MPANTSAKA:
        for p, loops in enumerate(mpantsaka_paths(spec)):
            for d in range(2):
                _set_path(g, p, d, loops[d])
        for col in range(C):
            g.front_opp[C + col] = 2 * C + col
            g.front_opp[2 * C + col] = C + col
    else:
        loop = gore_path(spec) if g.family == FAM_GORE else djenon_path(spec)
        for p in range(2):
            _set_path(g, p, 0, loop)
            _set_path(g, p, 1, loop[::-1])
    HALVES_FIT[gi] = halves_fit(g)
    HALVES16_FIT[gi] = halves16_fit(g)
    if HALVES_FIT[gi]:
        _halves_tables(&HALVES_TABLES[gi], g)
    if gi >= NUM_GAMES:
        zobrist_fixed(gi)       # a named game's: _node_zobrist_shares, after the tables
    elif GAME_FORM[gi] == NODE_INT or HALVES_FIT[gi]:
        pass            # a further size of Goré or Djenon-aboure: no lanes
    elif g.family == FAM_DJENON:
        _djenon_lanes(g)
    else:
        _gore_lanes(g)
    return 0


def _require(bint ok, str what):
    """An import-time consistency check that survives python -O (unlike assert)."""
    if not ok:
        raise ImportError(f"katra._core does not match katra._games: {what}")
