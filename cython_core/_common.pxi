# Shared machinery of the compiled core: the state struct, the static game
# tables, splitmix64, sowing, lap-limit cycle detection and the dispatch by
# game family.  Every hot function is nogil and never raises.

from libc.string cimport memcmp, memset, memcpy
from libc.stdlib cimport malloc, free, realloc

cdef enum:
    MAX_HOLES = 36
    MAX_CANDIDATES = 128      # more than any game can list (Goré: 8 sows + 92 offers)
    NUM_GAMES = 7
    CYCLE_START = 12          # laps played before the cycle detector is switched on

cdef enum:
    FAM_KATRO = 0
    FAM_MPANTSAKA = 1
    FAM_GORE = 2
    FAM_DJENON = 3

cdef enum:
    GORE_OFFER_BASE_C = 8
    GORE_PASS_C = 264
    GORE_ACCEPT_C = 265
    GORE_DECLINE_C = 266
    DJENON_PASS_C = 12

cdef long long LAP_LIMIT_C = 10000

ctypedef unsigned long long u64

# The whole position.  Arrays beyond the game's holes stay 0, so two equal
# positions are equal as bytes (no padding: every member is an int).  The
# scalars and the board come first: outside Goré the owners never change, so
# the hot copy-make paths copy only that prefix (copy_hot).
ctypedef struct State:
    int game           # index into TABLES
    int to_move
    int offer          # Goré: mask offered by the player not to move
    int stores[2]
    int board[MAX_HOLES]
    int owner[MAX_HOLES]

# Static facts of one game; paths per [player][direction].
ctypedef struct GameTable:
    int family
    int rows
    int cols
    int holes
    int num_actions
    int simplified
    int depth_rows                 # rows per player (Katro, Mpantsaka)
    int path_len
    int path[2][2][MAX_HOLES]      # the holes of the path in sowing order
    int nxt[2][2][MAX_HOLES]       # next hole on the path
    int prv[2][2][MAX_HOLES]       # previous hole on the path
    int pathpos[2][2][MAX_HOLES]   # position of a hole on the path
    u64 pk2[2][2][2 * MAX_HOLES + 1]  # prefix sums of HOLE_KEY along the path, doubled
    u64 sumk[2][2]                 # HOLE_KEY summed over the path
    int col_of[MAX_HOLES]
    int depth_of[MAX_HOLES]        # depth of a hole for its (initial) owner: 0 outer
    int row_start[2][3]            # [player][depth] -> first index of that row
    int front_opp[MAX_HOLES]       # Mpantsaka: the opponent front hole facing a front hole, else -1
    int owner0[MAX_HOLES]          # initial owners

cdef GameTable TABLES[NUM_GAMES]

# Keys of the additive lap-start hash and of the Zobrist hash (from katra._zobrist).
cdef u64 HOLE_KEY[MAX_HOLES]
cdef u64 KEY_POS = 0
cdef u64 KEY_HAND = 0
cdef u64 ZKEY_HOLE[MAX_HOLES]
cdef u64 ZKEY_OWNER[MAX_HOLES]
cdef u64 ZKEY_STORE[2]
cdef u64 ZKEY_MOVE = 0
cdef u64 ZKEY_OFFER = 0
cdef u64 ZKEY_GAME[NUM_GAMES]

cdef int POPCOUNT8[256]  # bits set in a byte (Goré offer masks)


cdef inline u64 splitmix64(u64* state) noexcept nogil:
    """RULES.md §6.2, modulo 2**64."""
    cdef u64 z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline u64 mix64(u64 z) noexcept nogil:
    """The splitmix64 finaliser, used to derive hash keys from small values."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef enum:
    HOT_BYTES = (5 + MAX_HOLES) * 4   # sizeof(int) * ints before State.owner (checked at import)
    GORE_HOLES = 8
    GORE_HOT_BYTES = (5 + GORE_HOLES) * 4   # the scalars and Goré's 8 counts


cdef inline void copy_hot(State* dst, const State* src) noexcept nogil:
    """Copy a state for copy-make.  Outside Goré the owners (constant) are not copied,
    so dst.owner must not be read (outcome_of uses the table's owners instead); in
    Goré only its 8 holes' counts and owners are, so nothing may read past hole 7."""
    if TABLES[src.game].family == FAM_GORE:
        memcpy(dst, src, GORE_HOT_BYTES)
        memcpy(dst.owner, src.owner, GORE_HOLES * sizeof(int))
    else:
        memcpy(dst, src, HOT_BYTES)


cdef inline int sow(int* board, GameTable* g, int player, int d, int h, int n, int offset) noexcept nogil:
    """Drop n >= 1 seeds along the path from h (offset 1: from the hole after h;
    0: the first into h itself); return the landing hole."""
    cdef int* nxt = &g.nxt[player][d][0]
    cdef int* path
    cdef int L = g.path_len
    cdef int q, k
    if n >= L:
        path = &g.path[player][d][0]
        q = n // L
        for k in range(L):
            board[path[k]] += q
        n -= q * L
        if n == 0:
            return h if offset == 1 else g.prv[player][d][h]
    if offset == 0:
        board[h] += 1
        n -= 1
    while n > 0:
        h = nxt[h]
        board[h] += 1
        n -= 1
    return h


cdef inline u64 board_hash(const int* board, int holes) noexcept nogil:
    """Additive hash of the board: sum of count * HOLE_KEY (mod 2**64)."""
    cdef u64 acc = 0
    cdef int i
    for i in range(holes):
        acc += <u64>board[i] * HOLE_KEY[i]
    return acc


# Brent's cycle detection over lap-start states (board, hole, seeds in hand).
# hb is the additive board hash at the current lap start, kept up to date in
# O(1) per lap: delta (the change the lap being sown makes) comes from prefix
# sums of the keys along the path.  A hash match is confirmed by a full
# comparison, so the verdict is exact.
ctypedef struct Cycle:
    int active
    int power
    int lam
    int saved_h
    int saved_n
    u64 hb
    u64 delta
    u64 saved_key
    int saved_board[MAX_HOLES]


cdef inline void cycle_save(Cycle* c, const int* board, int holes, int h, int n, u64 key) noexcept nogil:
    c.saved_key = key
    c.saved_h = h
    c.saved_n = n
    memcpy(c.saved_board, board, holes * sizeof(int))


cdef inline bint cycle_check(Cycle* c, GameTable* g, int player, int d, const int* board,
                             int h, int n, int offset) noexcept nogil:
    """Called at a lap start once the detector runs; True if this state was seen."""
    cdef u64 key
    cdef int L = g.path_len
    cdef int q, r, s
    if not c.active:
        c.active = 1
        c.power = 1
        c.lam = 0
        c.hb = board_hash(board, g.holes)
        key = c.hb + <u64>h * KEY_POS + <u64>n * KEY_HAND
        cycle_save(c, board, g.holes, h, n, key)
    else:
        key = c.hb + <u64>h * KEY_POS + <u64>n * KEY_HAND
        if (key == c.saved_key and h == c.saved_h and n == c.saved_n
                and memcmp(board, c.saved_board, g.holes * sizeof(int)) == 0):
            return 1
        c.lam += 1
        if c.lam == c.power:
            cycle_save(c, board, g.holes, h, n, key)
            c.power *= 2
            c.lam = 0
    # hash change made by sowing n seeds from path position pathpos[h] + offset
    q = n // L
    r = n - q * L
    s = g.pathpos[player][d][h] + offset
    c.delta = <u64>q * g.sumk[player][d] + (g.pk2[player][d][s + r] - g.pk2[player][d][s])
    return 0


cdef inline void cycle_relay(Cycle* c, int h, int n) noexcept nogil:
    """The lap just sown ended in a relay lifting n seeds from h."""
    if c.active:
        c.hb += c.delta - <u64>n * HOLE_KEY[h]


# ---------------------------------------------------------------- dispatch

cdef inline int candidates(const State* s, int* acts) noexcept nogil:
    """The actions that pass the origin rules, ascending (lap limit not applied)."""
    cdef GameTable* g = &TABLES[s.game]
    if g.family == FAM_KATRO:
        return katro_candidates(s, g, acts)
    if g.family == FAM_MPANTSAKA:
        return mpantsaka_candidates(s, g, acts)
    if g.family == FAM_GORE:
        return gore_candidates(s, g, acts)
    return djenon_candidates(s, g, acts)


cdef inline long long play(State* s, int action, long long limit) noexcept nogil:
    """Play a candidate in place; the laps it took (0 for non-sowing actions),
    or -1 if its sowing does not end within limit laps (s is then garbage)."""
    cdef GameTable* g = &TABLES[s.game]
    if g.family == FAM_KATRO:
        return katro_play(s, g, action, limit)
    if g.family == FAM_MPANTSAKA:
        return mpantsaka_play(s, g, action, limit)
    if g.family == FAM_GORE:
        return gore_play(s, g, action)
    return djenon_play(s, g, action, limit)


cdef inline int fallback(const State* s) noexcept nogil:
    """The action forced when no candidate is legal (Djenon-aboure's pass), else -1."""
    cdef GameTable* g = &TABLES[s.game]
    if g.family == FAM_DJENON:
        return djenon_fallback(s, g)
    return -1


cdef inline bint relay_free(const State* s) noexcept nogil:
    """True if every candidate is legal (no relays: Goré)."""
    return TABLES[s.game].family == FAM_GORE


cdef inline void outcome_of(const State* s, int* winner, int* south, int* north) noexcept nogil:
    """Winner and scores of a terminal position (RULES.md, per game)."""
    cdef GameTable* g = &TABLES[s.game]
    cdef int i
    south[0] = 0
    north[0] = 0
    if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
        for i in range(g.holes):
            if g.owner0[i] == 0:
                south[0] += s.board[i]
            else:
                north[0] += s.board[i]
        winner[0] = 1 - s.to_move   # the player who cannot move loses
        return
    south[0] = s.stores[0]
    north[0] = s.stores[1]
    for i in range(g.holes):
        if (s.owner[i] if g.family == FAM_GORE else g.owner0[i]) == 0:
            south[0] += s.board[i]
        else:
            north[0] += s.board[i]
    if south[0] > north[0]:
        winner[0] = 0
    elif north[0] > south[0]:
        winner[0] = 1
    else:
        winner[0] = -1


cdef inline int legal_children(const State* s, int* acts, State* children) noexcept nogil:
    """Legal actions (ascending) and their children; returns how many."""
    cdef int cand[MAX_CANDIDATES]
    cdef int n = candidates(s, cand)
    cdef int k, m = 0, a
    for k in range(n):
        copy_hot(&children[m], s)
        if play(&children[m], cand[k], LAP_LIMIT_C) >= 0:
            acts[m] = cand[k]
            m += 1
    if m == 0:
        a = fallback(s)
        if a >= 0:
            copy_hot(&children[0], s)
            play(&children[0], a, LAP_LIMIT_C)
            acts[0] = a
            m = 1
    return m


cdef inline int legal_actions_c(const State* s, int* acts) noexcept nogil:
    """Legal actions, ascending."""
    cdef int cand[MAX_CANDIDATES]
    cdef int n = candidates(s, cand)
    cdef int k, m = 0, a
    cdef State child
    if relay_free(s):
        for k in range(n):
            acts[k] = cand[k]
        return n
    for k in range(n):
        copy_hot(&child, s)
        if play(&child, cand[k], LAP_LIMIT_C) >= 0:
            acts[m] = cand[k]
            m += 1
    if m == 0:
        a = fallback(s)
        if a >= 0:
            acts[0] = a
            m = 1
    return m


cdef inline u64 zobrist_c(const State* s) noexcept nogil:
    """A 64-bit Zobrist-style hash with fixed keys: stable across runs."""
    cdef GameTable* g = &TABLES[s.game]
    cdef u64 z = ZKEY_GAME[s.game]
    cdef int i
    for i in range(g.holes):
        z ^= mix64(ZKEY_HOLE[i] + <u64>s.board[i])
        if s.owner[i]:
            z ^= ZKEY_OWNER[i]
    z ^= mix64(ZKEY_STORE[0] + <u64>s.stores[0])
    z ^= mix64(ZKEY_STORE[1] + <u64>s.stores[1])
    if s.to_move:
        z ^= ZKEY_MOVE
    if s.offer:
        z ^= mix64(ZKEY_OFFER + <u64>s.offer)
    return z


# ---------------------------------------------------------------- tables

cdef void _set_path(GameTable* g, int player, int d, list path):
    """Fill next/previous/position/prefix tables of one path."""
    cdef int L = len(path)
    cdef int k
    g.path_len = L
    for k in range(L):
        g.path[player][d][k] = path[k]
        g.nxt[player][d][path[k]] = path[(k + 1) % L]
        g.prv[player][d][path[k]] = path[(k + L - 1) % L]
        g.pathpos[player][d][path[k]] = k
    g.pk2[player][d][0] = 0
    for k in range(2 * L):
        g.pk2[player][d][k + 1] = g.pk2[player][d][k] + HOLE_KEY[path[k % L]]
    g.sumk[player][d] = g.pk2[player][d][L]


cdef int _build_tables() except -1:
    """Build TABLES from katra._games (run once at import; not callable from Python,
    since rebuilding them under a running job would break it)."""
    global KEY_POS, KEY_HAND, ZKEY_MOVE, ZKEY_OFFER
    cdef int i, gi, p, d, row, col, mask
    cdef GameTable* g
    # The keys are defined once, in katra._zobrist, which the reference reads too.
    assert _zobrist.MAX_HOLES == MAX_HOLES and len(_zobrist.GAME_KEYS) == NUM_GAMES
    for i in range(MAX_HOLES):
        HOLE_KEY[i] = _zobrist.LAP_HOLE_KEYS[i]
        ZKEY_HOLE[i] = _zobrist.HOLE_KEYS[i]
        ZKEY_OWNER[i] = _zobrist.OWNER_KEYS[i]
    KEY_POS = _zobrist.LAP_POSITION_KEY
    KEY_HAND = _zobrist.LAP_HAND_KEY
    ZKEY_STORE[0] = _zobrist.STORE_KEYS[0]
    ZKEY_STORE[1] = _zobrist.STORE_KEYS[1]
    ZKEY_MOVE = _zobrist.MOVE_KEY
    ZKEY_OFFER = _zobrist.OFFER_KEY
    for gi in range(NUM_GAMES):
        ZKEY_GAME[gi] = _zobrist.GAME_KEYS[gi]
    cdef State probe
    assert <char*>&probe.owner[0] - <char*>&probe == HOT_BYTES, "State layout changed"
    for mask in range(256):
        POPCOUNT8[mask] = bin(mask).count("1")

    families = {_games.KATRO: FAM_KATRO, _games.MPANTSAKA: FAM_MPANTSAKA,
                _games.GORE: FAM_GORE, _games.DJENON: FAM_DJENON}
    assert len(_games.GAME_IDS) == NUM_GAMES
    for gi, game_id in enumerate(_games.GAME_IDS):
        spec = _games.GAMES[game_id]
        g = &TABLES[gi]
        memset(g, 0, sizeof(GameTable))
        g.family = families[spec.family]
        g.rows = spec.rows
        g.cols = spec.cols
        g.holes = spec.rows * spec.cols
        assert g.holes <= MAX_HOLES
        g.num_actions = spec.num_actions
        g.simplified = spec.simplified
        g.depth_rows = spec.rows // 2
        H = g.holes
        C = g.cols
        owners = spec.initial_owners()
        for i in range(H):
            g.owner0[i] = owners[i]
            g.col_of[i] = i % C
            row = i // C
            g.depth_of[i] = row if owners[i] == 0 else g.rows - 1 - row
            g.front_opp[i] = -1
        for d in range(g.depth_rows):
            g.row_start[0][d] = d * C
            g.row_start[1][d] = (g.rows - 1 - d) * C
        if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
            # South's serpentine / CCW loop: row 1 rightwards, row 2 leftwards, ...
            south = []
            for row in range(g.depth_rows):
                cols = range(C) if row % 2 == 0 else range(C - 1, -1, -1)
                south.extend(row * C + c for c in cols)
            north = [H - 1 - i for i in south]
            _set_path(g, 0, 0, south)
            _set_path(g, 1, 0, north)
            _set_path(g, 0, 1, south[::-1])
            _set_path(g, 1, 1, north[::-1])
            if g.family == FAM_MPANTSAKA:
                for col in range(C):
                    g.front_opp[C + col] = 2 * C + col
                    g.front_opp[2 * C + col] = C + col
        else:
            # one CCW loop round the whole board, for both players
            loop = list(range(C)) + list(range(2 * C - 1, C - 1, -1))
            for p in range(2):
                _set_path(g, p, 0, loop)
                _set_path(g, p, 1, loop[::-1])
