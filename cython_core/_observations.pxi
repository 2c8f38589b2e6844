# Tensors for learning code, filled in C: the observation and the legal-action
# mask of one position or many, as lists or written into a caller's buffer
# (_buffers.pxi); VectorGame (_vector.pxi) fills its rows with the same two
# functions, fill_observation and fill_mask (docs/learning.md).

cdef enum:
    OBS_MAX = 3 * MAX_HOLES + 4     # the longest observation
    GORE_OFFER_PATTERN_ROOM = 640   # GORE_OFFER_PATTERNS' rows (630 distinct, checked when made)


cdef inline int observation_size_c(int game) noexcept nogil:
    return 3 * TABLES[game].holes + 4


ctypedef fused obs_item:
    int
    float


# Float rows off the lanes (VectorGame's nodes) by tables, made once
# (observation_tables) from the node layer's own readers, node_seeds and
# node_owner, so that the layout below is the generic loop's:
# * OBS_LANE_AT[game][to_move][player][j]: where, in bytes from the node's
#   start, the lane of the hole player sees at j lies (the lanes of every form
#   start the node; the byte order is the host's);
# * OBS_SIDES[game][player]: the owner and offer rows of a form whose owners are
#   fixed (every lanes form but Goré's): owner == player, then 0s;
# * BIT_FLOATS[reversed][m][j]: bit j of m (reversed: bit 7 - j) as a float
#   (Goré's owner and offer rows, 8 holes).
# * GORE_OBS_REVERSED[player]: whether the 8 lane bytes of a Goré node, read in
#   memory order, give the seeds player sees reversed (else in order): what
#   OBS_LANE_AT[GAME_GORE] says, checked (observation_tables), so that Goré's
#   seeds are converted as one block (bytes8_floats).
# * BIT_BYTES[m][j]: bit j of m as a byte (Goré's mask rows: the sowings, the
#   pass and the answers);
# * GORE_OFFER_PATTERNS[GORE_OFFER_PATTERN_OF[m][most]]: the offers' 256 bytes of
#   a Goré mask row (byte x: 1 iff offering the holes x is legal, x = 0 and
#   x = 0xFF never) for a GoreLegal of offer_from m and offer_most most, each
#   distinct pattern once (160 KB; the few a batch of games meets stay cached):
#   a step writes the offers whole, with no branch on whether it shows some.
cdef unsigned char OBS_LANE_AT[NUM_GAMES][2][2][MAX_HOLES]
cdef float OBS_SIDES[NUM_GAMES][2][2 * MAX_HOLES]
cdef float BIT_FLOATS[2][256][8]
cdef unsigned char BIT_BYTES[256][8]
cdef unsigned char GORE_OFFER_PATTERNS[GORE_OFFER_PATTERN_ROOM][256]
cdef unsigned short GORE_OFFER_PATTERN_OF[256][4]
cdef bint GORE_OBS_REVERSED[2]
cdef bint OBS_TABLES_MADE = 0

# Eight bytes as eight floats, in order or reversed, and four ints as four
# floats in one store (SSE2 where the compiler has it, _portable.h; a loop
# elsewhere).  Reversed or not is decided without a
# branch (the bytes or their swap kept by an SSE2 mask: a plain C select was
# compiled to a branch): with the player to move
# as the viewer it alternates from ply to ply, and a branch on it was
# mispredicted on four steps in ten (callgrind's branch simulation).
cdef extern from *:
    """
    #include <string.h>
    #include "_portable.h"
    #if defined(__GNUC__) || defined(__clang__)
    #define katra_bswap64(x) __builtin_bswap64(x)
    #elif defined(_MSC_VER)
    #include <stdlib.h>
    #define katra_bswap64(x) _byteswap_uint64(x)
    #else
    static inline unsigned long long katra_bswap64(unsigned long long x) {
        int j;
        unsigned long long r = 0;
        for (j = 0; j < 8; j++) r |= ((x >> (8 * j)) & 0xFF) << (8 * (7 - j));
        return r;
    }
    #endif
    #if KATRA_HAVE_SSE2
    #include <emmintrin.h>
    static inline void katra_bytes8_floats(const unsigned char *src, int reversed, float *out) {
        unsigned long long w, r;
        memcpy(&w, src, 8);
        r = katra_bswap64(w);
        __m128i keep = _mm_set1_epi32(-(int)(reversed != 0));   /* all 1s: reversed */
        __m128i bytes = _mm_or_si128(_mm_and_si128(keep, _mm_loadl_epi64((const __m128i *)&r)),
                                     _mm_andnot_si128(keep, _mm_loadl_epi64((const __m128i *)&w)));
        __m128i zero = _mm_setzero_si128();
        __m128i words = _mm_unpacklo_epi8(bytes, zero);
        _mm_storeu_ps(out, _mm_cvtepi32_ps(_mm_unpacklo_epi16(words, zero)));
        _mm_storeu_ps(out + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(words, zero)));
    }
    static inline void katra_ints4_floats(int a, int b, int c, int d, float *out) {
        _mm_storeu_ps(out, _mm_cvtepi32_ps(_mm_setr_epi32(a, b, c, d)));
    }
    #else
    static inline void katra_bytes8_floats(const unsigned char *src, int reversed, float *out) {
        int j;
        for (j = 0; j < 8; j++) out[j] = (float)src[reversed ? 7 - j : j];
    }
    static inline void katra_ints4_floats(int a, int b, int c, int d, float *out) {
        out[0] = (float)a;
        out[1] = (float)b;
        out[2] = (float)c;
        out[3] = (float)d;
    }
    #endif
    """
    void bytes8_floats "katra_bytes8_floats"(const unsigned char* src, int reversed,
                                              float* out) noexcept nogil
    void ints4_floats "katra_ints4_floats"(int a, int b, int c, int d, float* out) noexcept nogil


cdef inline int node_lane_bytes(const Node* s) noexcept nogil:
    """How many bytes at the start of a node hold its lanes (0: the int form)."""
    if Node is IntPosition:
        return 0
    elif Node is GoreNode or Node is DjenonNode:
        return sizeof(s.b)
    else:
        return sizeof(HalvesNode)


cdef int probe_lanes(Node* s) except -1:
    """OBS_LANE_AT and OBS_SIDES of the game of a lanes form, from a node s of
    that form: each lane byte set alone, the hole whose node_seeds reads it."""
    cdef unsigned char* raw = <unsigned char*>s
    cdef int game = node_game(s)
    cdef int H = game_holes(game)
    cdef int at[MAX_HOLES]
    cdef int to_move, player, b, i, j
    for to_move in range(2):
        for i in range(H):
            at[i] = -1
        for b in range(node_lane_bytes(s)):
            memset(s, 0, sizeof(Node))
            s.to_move = to_move
            raw[b] = 1
            for i in range(H):
                if node_seeds(s, i) == 1:
                    _require(at[i] < 0, "observation tables: two bytes for one hole")
                    at[i] = b
        _require(H % 4 == 0, "observation tables: a board of 4k holes (fill_observation)")
        for i in range(H):
            _require(0 <= at[i] < 256, "observation tables: a hole without its lane")
        for player in range(2):
            for j in range(H):
                i = H - 1 - j if player else j     # as fill_observation's loop
                OBS_LANE_AT[game][to_move][player][j] = <unsigned char>at[i]
                OBS_SIDES[game][player][j] = node_owner(s, i) == player
                OBS_SIDES[game][player][H + j] = 0
    return 0


cdef int observation_tables() except -1:
    """Make the tables of the float rows off the lanes (once)."""
    global OBS_TABLES_MADE
    cdef int m, j, player, to_move, most
    cdef GoreLegal legal
    if OBS_TABLES_MADE:
        return 0
    probe_every_lanes_form()
    for m in range(256):
        for j in range(8):
            BIT_FLOATS[0][m][j] = (m >> j) & 1
            BIT_FLOATS[1][m][j] = (m >> (7 - j)) & 1
            BIT_BYTES[m][j] = (m >> j) & 1
    patterns = {}
    for m in range(256):
        for most in range(4):
            legal.offer_from = m
            legal.offer_most = most
            pattern = bytes(x != 0 and (x & ~m) == 0 and gore_legal_offer(&legal, x)
                            for x in range(256))
            _require(sum(pattern) == gore_legal_offers(&legal) and not pattern[0xFF],
                     "observation tables: Goré's offer patterns")
            if pattern not in patterns:
                _require(len(patterns) < GORE_OFFER_PATTERN_ROOM, "GORE_OFFER_PATTERN_ROOM")
                memcpy(GORE_OFFER_PATTERNS[len(patterns)], <const unsigned char*>pattern, 256)
                patterns[pattern] = len(patterns)
            GORE_OFFER_PATTERN_OF[m][most] = patterns[pattern]
    _require(GORE_PASS_C - 1 == GORE_OFFER_BASE_C + 0xFF,     # gore_mask_write's answers
             "observation tables: Goré's pass follows the offer of all 8 holes")
    for player in range(2):
        GORE_OBS_REVERSED[player] = OBS_LANE_AT[GAME_GORE][0][player][0] != 0
        for to_move in range(2):
            for j in range(GORE_HOLES):
                _require(OBS_LANE_AT[GAME_GORE][to_move][player][j]
                         == (GORE_HOLES - 1 - j if GORE_OBS_REVERSED[player] else j),
                         "observation tables: Goré's lanes in order or reversed")
    OBS_TABLES_MADE = 1
    return 0


cdef inline int fill_observation(const Node* s, int player, obs_item* out) noexcept nogil:
    """Write the observation of s from player's point of view (layout: docs/learning.md);
    return the largest value written (float rows off the lanes: -1, not computed;
    they need observation_tables())."""
    cdef int game = node_game(s)
    cdef int H = game_holes(game)
    cdef int offer = node_offer(s)
    cdef int j, i, v, mine, theirs, moving, top = 1
    cdef const unsigned char* lanes
    cdef const unsigned char* at
    if Node is IntPosition or Node is VariantHalvesNode or Node is Halves16Node or obs_item is int:
        for j in range(H):
            i = H - 1 - j if player else j     # North sees the board turned a half turn
            v = node_seeds(s, i)
            if v > top:
                top = v
            out[j] = v
            out[H + j] = node_owner(s, i) == player
            out[2 * H + j] = (offer >> i) & 1 if i < GORE_HOLES else 0   # offers: Goré's 8 holes only
    else:
        lanes = <const unsigned char*>s
        if Node is GoreNode:
            bytes8_floats(lanes, GORE_OBS_REVERSED[player], out)
        else:
            at = OBS_LANE_AT[game][s.to_move][player]
            for j in range(0, H, 4):           # every board's holes come in fours
                out[j] = lanes[at[j]]
                out[j + 1] = lanes[at[j + 1]]
                out[j + 2] = lanes[at[j + 2]]
                out[j + 3] = lanes[at[j + 3]]
        if Node is GoreNode:
            memcpy(&out[H], BIT_FLOATS[player][gore_holes_of(s, player)], 8 * sizeof(float))
            memcpy(&out[2 * H], BIT_FLOATS[player][offer & 0xFF], 8 * sizeof(float))
        else:
            memcpy(&out[H], OBS_SIDES[game][player], 2 * H * sizeof(float))
    # the stores, the viewer and whether it moves: on the lanes as floats in one store
    mine = node_store(s, player)
    theirs = node_store(s, 1 - player)
    moving = s.to_move == player
    if Node is IntPosition or Node is VariantHalvesNode or Node is Halves16Node or obs_item is int:
        out[3 * H] = mine
        out[3 * H + 1] = theirs
        out[3 * H + 2] = player
        out[3 * H + 3] = moving
        return max(top, mine, theirs)
    else:
        ints4_floats(mine, theirs, player, moving, &out[3 * H])
        return -1


ctypedef fused mask_item:
    int
    unsigned char

cdef inline void fill_mask(const int* acts, int n, int num_actions, mask_item* row) noexcept nogil:
    """The legal-action mask: row[a] = 1 for the n legal actions acts, else 0."""
    cdef int k
    memset(row, 0, num_actions * sizeof(mask_item))
    for k in range(n):
        row[acts[k]] = 1


cdef inline void gore_mask_write(unsigned char* row, const GoreLegal* now) noexcept nogil:
    """A Goré mask row showing now's legal actions, written whole: the sowings, the
    offers' 256 bytes (GORE_OFFER_PATTERNS: no branch on whether it holds offers),
    the pass and the answers."""
    memcpy(row, BIT_BYTES[now.sows], GORE_OFFER_BASE_C)       # actions 0..7: the sowings
    memcpy(&row[GORE_OFFER_BASE_C],
           GORE_OFFER_PATTERNS[GORE_OFFER_PATTERN_OF[now.offer_from][now.offer_most]], 256)
    # the pass, accept and decline, after the offer of all 8 holes (never legal: 0),
    # in one store of four bytes
    memcpy(&row[GORE_PASS_C - 1], BIT_BYTES[now.answers << 1], 4)


cdef int viewer_of(object player, const IntPosition* s) except -1:
    if player is None:
        return s.to_move
    cdef object number = _as_int(player)
    if number not in (0, 1):
        raise ValueError(bad_player_message(player))
    return number


def bad_player_message(player):
    """Why player is not a player (shared with the reference's path in katra.api)."""
    what = repr(player) if isinstance(player, (int, str, float)) else type(player).__name__
    hint = "; a buffer goes in out=" if PyObject_CheckBuffer(player) else ""
    return f"player must be 0 (South), 1 (North) or None (the player to move), not {what}{hint}"


def observation(Position pos, player=None, out=None):
    """The observation of pos from player's point of view (None: the player to move),
    as a list or written into the writable buffer out (docs/learning.md)."""
    cdef int values[OBS_MAX]
    cdef int p = viewer_of(player, &pos.st)
    cdef int top = fill_observation(&pos.st, p, values)
    return deliver(out, values, observation_size_c(pos.st.game), top, True, "observation")


def legal_actions_mask(Position pos, out=None):
    """1 per legal action of pos, num_actions long, as a list or written into out."""
    cdef int values[MAX_CANDIDATES * 3]
    cdef int acts[MAX_CANDIDATES]
    cdef int num_actions = TABLES[pos.st.game].num_actions
    fill_mask(acts, legal_actions_c(&pos.st, acts), num_actions, values)
    return deliver(out, values, num_actions, 1, False, "legal_actions_mask")


cdef object batch_fill(list positions, object player, object out, bint masks, str what):
    """Rows of observations (masks False) or masks of positions of one game into out."""
    cdef Py_ssize_t rows = len(positions), r
    cdef int game, width, p, top = 1
    cdef int acts[MAX_CANDIDATES]
    cdef int* values
    cdef Position pos
    for r in range(rows):
        if not isinstance(positions[r], Position):
            raise TypeError(f"{what}: expected katra._core.Position objects, got "
                            f"{type(positions[r]).__name__}")
    if rows == 0:
        return [] if out is None else out
    game = (<Position>positions[0]).st.game
    for r in range(rows):
        if (<Position>positions[r]).st.game != game:
            raise ValueError(f"{what}: every position must be of one game")
    width = TABLES[game].num_actions if masks else observation_size_c(game)
    values = <int*>malloc(rows * width * sizeof(int))
    if values == NULL:
        raise MemoryError()
    try:
        for r in range(rows):
            pos = <Position>positions[r]
            if masks:
                fill_mask(acts, legal_actions_c(&pos.st, acts), width, &values[r * width])
            else:
                p = viewer_of(player, &pos.st)
                top = max(top, fill_observation(&pos.st, p, &values[r * width]))
        if out is None:
            return [int_list(&values[r * width], width) for r in range(rows)]
        return deliver(out, values, rows * width, top, not masks, what)
    finally:
        free(values)


def observations(list positions, player=None, out=None):
    """Observations of many positions of one game, row k for positions[k] (a list of lists
    without out; out holds len(positions) * observation size items)."""
    return batch_fill(positions, player, out, False, "observations")


def legal_actions_masks(list positions, out=None):
    """Masks of many positions of one game, row k for positions[k]."""
    return batch_fill(positions, None, out, True, "legal_actions_masks")
