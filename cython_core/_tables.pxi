# Endgame tables of Djenon-aboure (docs/tables.md): the value of every board
# of few seeds, built once by layers of board seeds and read by df-pn, the
# bounded solver and the search when a caller hands them a table.
#
# Why a board alone has a value.  Each Djenon-aboure player owns their row for
# the whole game (§5.1) and captures only into their own store, so from a
# board of k seeds each player ends the game with their store plus some
# share of those k seeds: the stores only add an offset.  For the player to
# move (the mover) and the opponent the table keeps, per board:
#   * a: the most of the k seeds the mover can force for themselves with the
#     game over within some finite number of plies (docs/rules.md §6.3), or
#     TABLE_NONE when the mover cannot force the game to end at all;
#   * b: the same for the opponent;
#   * the plies within which each is forced (an upper bound: the proof's depth).
# "P can force at least t" is then one comparison (table_probe): P forces a
# final score of store_P + v against store_O + k - v, v = P's a or b, and no
# more.  A board is seen from the mover's side: lanes 0..5 the mover's row in
# sowing order, 6..11 the opponent's (the game is the same after turning the
# board round by 6 holes, which swaps the rows), so one table serves both
# players.
#
# Ranking.  A board of k seeds is a composition of k into 12 parts; its index
# is the colex rank of the 11 bar positions of its stars and bars
# (c_0 + ... + c_i + i), 0 .. C(k + 11, 11) - 1.
#
# Building a layer (the boards of k seeds).  A capture takes 2 seeds or more
# (§5.2), so every child of a board is in its own layer (a sowing without a
# capture, or the pass) or in a smaller one, built before.  Inside the layer
# the values are the least fixed point of one ply of play, reached by Jacobi
# sweeps from "nothing forced" (finished boards: their rows' seeds): after
# sweep n a board holds what its players force within n plies, a child in a
# smaller layer counting only once n - 1 reaches that child's stored plies
# (so every value held is forced within the sweep count: the stored plies
# are upper bounds).  A line that never ends never enters the fixed point, as
# §6.3 asks.  The sweeps stop once one changes nothing and every smaller
# layer's plies have been reached.

cdef enum:
    TABLE_HOLES = DJENON_HOLES
    TABLE_MAX_SEEDS = 16         # the largest layer built or read (13,037,895 boards)
    TABLE_NONE = 255             # stored: the player cannot force the game to end
    TABLE_KIDS = DJENON_COLS + 1  # a board's children: a sowing per own hole, or the pass
    TABLE_MAX_PLIES = 65535      # the stored plies are 16-bit
    TABLE_STOP_JOB = 1           # table_build_layer's results
    TABLE_STOP_MEMORY = 2
    TABLE_STOP_PLIES = 3

# C(n, r) for the ranks: n <= TABLE_MAX_SEEDS + 11, r <= 11.
cdef u64 TABLE_BINOM[TABLE_MAX_SEEDS + TABLE_HOLES][TABLE_HOLES]


ctypedef struct EndTable:        # the layers 0..max_seeds a caller loaded
    int max_seeds                # -1: none
    const unsigned char* values[TABLE_MAX_SEEDS + 1]   # per board: a, b (TABLE_NONE)
    const unsigned short* plies[TABLE_MAX_SEEDS + 1]   # per board: a's plies, b's plies


cdef void _table_binomials() noexcept:
    cdef int n, r
    for n in range(TABLE_MAX_SEEDS + TABLE_HOLES):
        for r in range(TABLE_HOLES):
            if r == 0:
                TABLE_BINOM[n][r] = 1
            elif n == 0:
                TABLE_BINOM[n][r] = 0
            else:
                TABLE_BINOM[n][r] = TABLE_BINOM[n - 1][r - 1] + TABLE_BINOM[n - 1][r]


_table_binomials()


cdef inline u64 table_boards(int k) noexcept nogil:
    """Boards of k seeds: C(k + 11, 11)."""
    return TABLE_BINOM[k + TABLE_HOLES - 1][TABLE_HOLES - 1]


cdef inline u64 table_rank(const int* c) noexcept nogil:
    """The index of board c (12 holes) among the boards of its seeds."""
    cdef u64 r = 0
    cdef int i, bar = 0
    for i in range(TABLE_HOLES - 1):
        bar += c[i]
        r += TABLE_BINOM[bar + i][i + 1]
    return r


cdef inline void table_unrank(u64 r, int k, int* c) noexcept nogil:
    """The board of k seeds of index r into c (table_rank's inverse)."""
    cdef int bars[TABLE_HOLES - 1]
    cdef int i, p = k + TABLE_HOLES - 2, prev = -1
    for i in range(TABLE_HOLES - 2, -1, -1):
        while TABLE_BINOM[p][i + 1] > r:
            p -= 1
        bars[i] = p
        r -= TABLE_BINOM[p][i + 1]
        p -= 1
    for i in range(TABLE_HOLES - 1):
        c[i] = bars[i] - prev - 1
        prev = bars[i]
    c[TABLE_HOLES - 1] = k + TABLE_HOLES - 2 - prev


cdef inline int table_board(const DjenonNode* s, int* c) noexcept nogil:
    """s's board from the mover's side into c (c[x]: lane x + DJENON_COLS * to_move, mod TABLE_HOLES);
    its seeds."""
    cdef int x, y, k = 0
    for x in range(TABLE_HOLES):
        y = x + DJENON_COLS if s.to_move else x
        if y >= TABLE_HOLES:
            y -= TABLE_HOLES
        c[x] = lane_of(s.b[y >> 3], y)
        k += c[x]
    return k


cdef inline int table_probe(const EndTable* t, const DjenonNode* s, int question,
                            unsigned int* plies) noexcept nogil:
    """The question (2 * player + target, _solve_table.pxi) at s from the table:
    1 the player forces it (within *plies plies), 0 they cannot force it, -1
    s's board is not in the table."""
    cdef int c[TABLE_HOLES]
    cdef int k = table_board(s, c)
    cdef int P = question >> 1
    cdef int side = 0 if P == s.to_move else 1
    cdef int v, mine, theirs
    cdef u64 at
    if k > t.max_seeds:
        return -1
    at = 2 * table_rank(c) + <u64>side
    v = t.values[k][at]
    if v == TABLE_NONE:
        return 0
    mine = s.stores[P] + v
    theirs = s.stores[1 - P] + k - v
    if mine > theirs or (mine == theirs and (question & 1) == 0):
        plies[0] = t.plies[k][at]
        return 1
    return 0


# ---------------------------------------------------------------- the builder

cdef inline void table_node(DjenonNode* s, const int* c) noexcept nogil:
    """South to move on board c (lanes), stores empty."""
    cdef int x
    memset(s, 0, sizeof(DjenonNode))
    for x in range(TABLE_HOLES):
        s.b[x >> 3] |= <u64>c[x] << ((x & 7) * 8)


cdef inline int table_lower(const EndTable* t, int layer, u64 at, int sweep) noexcept nogil:
    """A smaller layer's value at index at, once sweep - 1 reaches its plies; else -1."""
    cdef int v = t.values[layer][at]
    if v == TABLE_NONE or t.plies[layer][at] > sweep - 1:
        return -1
    return v


cdef int table_build_layer(int k, const EndTable* lower, unsigned char* values,
                           unsigned short* plies, JobStop* js, int* sweeps) noexcept nogil:
    """Layer k into values and plies (2 per board each), from the layers
    0..k - 1 of lower; 0, or TABLE_STOP_*."""
    cdef u64 n = table_boards(k)
    cdef u64 r, q, i
    cdef unsigned int* kid = <unsigned int*>malloc(n * TABLE_KIDS * sizeof(unsigned int))
    cdef unsigned char* cap = <unsigned char*>malloc(n * TABLE_KIDS)
    cdef unsigned char* nkids = <unsigned char*>malloc(n)
    cdef signed char* cur = <signed char*>malloc(2 * n)
    cdef signed char* nxt = <signed char*>malloc(2 * n)
    cdef signed char* swap
    cdef int c[TABLE_HOLES]
    cdef int cc[TABLE_HOLES]
    cdef DjenonNode s, child
    cdef Children it
    cdef int j, m, taken, a, b, qa, qb, sweep, changed, most = 0, result = 0
    cdef bint none
    if kid == NULL or cap == NULL or nkids == NULL or cur == NULL or nxt == NULL:
        result = TABLE_STOP_MEMORY
    else:
        for j in range(k):                    # the smaller layers' longest plies
            for i in range(2 * table_boards(j)):
                if lower.values[j][i] != TABLE_NONE and lower.plies[j][i] > most:
                    most = lower.plies[j][i]
        # every board's children, once: (index in its layer, seeds captured)
        for r in range(n):
            table_unrank(r, k, c)
            table_node(&s, c)
            node_children_begin(&it, &s, 1)
            m = 0
            while node_children_next(&it, &s, &child) >= 0:
                taken = child.stores[0]
                table_board(&child, cc)
                kid[r * TABLE_KIDS + m] = <unsigned int>table_rank(cc)
                cap[r * TABLE_KIDS + m] = <unsigned char>taken
                m += 1
            nkids[r] = <unsigned char>m
            plies[2 * r] = plies[2 * r + 1] = 0
            if m == 0:                        # finished: the scores, the stores empty
                djenon_scores_lanes(&s, &a, &b)
                cur[2 * r], cur[2 * r + 1] = a, b
            else:
                cur[2 * r] = cur[2 * r + 1] = -1
            if job_should_stop(js, 1 + it.work):
                result = TABLE_STOP_JOB
                break
    sweep = 0
    while result == 0:
        sweep += 1
        if sweep > TABLE_MAX_PLIES:
            result = TABLE_STOP_PLIES
            break
        changed = 0
        for r in range(n):
            m = nkids[r]
            if m == 0:
                nxt[2 * r], nxt[2 * r + 1] = cur[2 * r], cur[2 * r + 1]
                continue
            a = -1
            b = TABLE_NONE
            none = 0
            for j in range(m):
                q = kid[r * TABLE_KIDS + j]
                taken = cap[r * TABLE_KIDS + j]
                if taken == 0:                # the same layer, the opponent to move
                    qa = cur[2 * q]
                    qb = cur[2 * q + 1]
                else:
                    qa = table_lower(lower, k - taken, 2 * q, sweep)
                    qb = table_lower(lower, k - taken, 2 * q + 1, sweep)
                if qb >= 0 and taken + qb > a:    # the mover: the best child
                    a = taken + qb
                if qa < 0:                        # the opponent: the worst child
                    none = 1
                elif qa < b:
                    b = qa
            if none:
                b = -1
            nxt[2 * r], nxt[2 * r + 1] = a, b
            if a != cur[2 * r]:
                plies[2 * r] = <unsigned short>sweep
                changed = 1
            if b != cur[2 * r + 1]:
                plies[2 * r + 1] = <unsigned short>sweep
                changed = 1
            if job_should_stop(js, m):
                result = TABLE_STOP_JOB
                break
        swap = cur
        cur = nxt
        nxt = swap
        if not changed and sweep > most:
            break
    if result == 0:
        for i in range(2 * n):
            values[i] = TABLE_NONE if cur[i] < 0 else <unsigned char>cur[i]
        sweeps[0] = sweep
    free(kid)
    free(cap)
    free(nkids)
    free(cur)
    free(nxt)
    return result


cdef int table_layers(EndTable* t, list values, list plies) except -1:
    """Point t at the layers of values and plies (bytes-like, native order),
    checking their sizes."""
    cdef const unsigned char[::1] v
    cdef const unsigned short[::1] p
    cdef int k
    if len(values) != len(plies) or len(values) > TABLE_MAX_SEEDS + 1:
        raise ArgumentError(f"tables: 0..{TABLE_MAX_SEEDS + 1} layers, as many values as "
                            f"plies, got {len(values)} and {len(plies)}")
    t.max_seeds = len(values) - 1
    for k in range(len(values)):
        if type(values[k]) is not bytes or type(plies[k]) is not bytes:
            raise ArgumentTypeError(f"tables: layer {k}'s values and plies must be bytes")
        if (<u64>len(values[k]) != 2 * table_boards(k)
                or <u64>len(plies[k]) != 4 * table_boards(k)):
            raise ArgumentError(f"tables: layer {k} must hold {2 * table_boards(k)} values and "
                                f"plies, got {len(values[k])} values and {len(plies[k])} "
                                f"bytes of plies")
        v = values[k]
        p = memoryview(plies[k]).cast("B").cast("H")
        t.values[k] = &v[0]
        t.plies[k] = &p[0]
    return 0


def _table_boards(k):
    """The boards of k seeds (0..TABLE_MAX_SEEDS) on Djenon-aboure's 12 holes."""
    if type(k) is not int or not 0 <= k <= TABLE_MAX_SEEDS:
        raise ArgumentError(f"seeds must be an int in 0..{TABLE_MAX_SEEDS}, got {k!r}")
    return table_boards(k)


def _table_build_layer(k, list values, list plies):
    """Layer k of Djenon-aboure's tables from the layers 0..k - 1 (values
    and plies as _table_build_layer returned them): (values, plies, sweeps),
    2 values (bytes) and 2 plies (16-bit, native order) a board in rank order.
    GIL released; Ctrl-C and cancel_jobs() stop it."""
    cdef EndTable lower
    cdef JobStop js
    cdef int sweeps = 0, stop, seeds
    cdef u64 n = _table_boards(k)
    cdef unsigned char[::1] ov
    cdef unsigned char[::1] op
    seeds = k
    if len(values) != seeds:
        raise ArgumentError(f"layer {seeds} needs the {seeds} layers below it, got {len(values)}")
    values, plies = list(values), list(plies)    # lower points into them while the GIL is free
    table_layers(&lower, values, plies)
    out_values = bytearray(2 * n)
    out_plies = bytearray(4 * n)
    ov = out_values
    op = out_plies
    job_stop_init(&js)
    with nogil:
        stop = table_build_layer(seeds, &lower, &ov[0], <unsigned short*>&op[0], &js, &sweeps)
    raise_if_stopped(&js)
    if stop == TABLE_STOP_MEMORY:
        raise MemoryError(f"tables: cannot allocate layer {seeds}'s work space")
    if stop == TABLE_STOP_PLIES:
        raise OverflowError(f"tables: layer {seeds} needs more than {TABLE_MAX_PLIES} sweeps")
    return bytes(out_values), bytes(out_plies), sweeps


cdef class EndgameTables:
    """Djenon-aboure's endgame tables in memory (docs/tables.md): the layers
    0..max_seeds of board seeds, each 2 values and 2 plies a board (as
    _table_build_layer makes them; katra.api.load_tables reads a file into
    one).  Read-only; any number of threads may share it."""
    cdef EndTable t
    cdef list _keep

    def __cinit__(self, list values, list plies):
        table_layers(&self.t, values, plies)
        self._keep = [list(values), list(plies)]

    @property
    def game_id(self):
        return "djenon-aboure"

    @property
    def max_seeds(self):
        """The largest layer held: every board of at most this many seeds."""
        return self.t.max_seeds

    cdef int _board(self, Position p, DjenonNode* s) except -1:
        if TABLES[p.st.game].family != FAM_DJENON:
            raise ArgumentError(f"these tables are Djenon-aboure's, not "
                                f"{_game_spec(p.st.game).id}'s")
        djenon_pack(s, &p.st)
        return 0

    def values(self, pos):
        """(a, b, a's plies, b's plies) of pos's board: the most of its seeds
        the player to move (a) and the opponent (b) can force, None if they
        cannot force the game to end; None if the board is not held."""
        cdef Position p = _check_position(pos)
        cdef DjenonNode s
        cdef int c[TABLE_HOLES]
        cdef int k
        cdef u64 at
        self._board(p, &s)
        k = table_board(&s, c)
        if k > self.t.max_seeds:
            return None
        at = 2 * table_rank(c)
        a, b = self.t.values[k][at], self.t.values[k][at + 1]
        return (None if a == TABLE_NONE else a, None if b == TABLE_NONE else b,
                self.t.plies[k][at], self.t.plies[k][at + 1])

    def probe(self, pos, player, target):
        """(status, plies) of "player (0 South, 1 North) forces a draw or better
        (target 0) or a win (target 1)" at pos, as DfpnSolver.prove answers
        it: 1 forced (within plies plies), 0 not, -1 pos's board is not held."""
        cdef Position p = _check_position(pos)
        cdef int question = _question_arg(player, target)
        cdef DjenonNode s
        cdef unsigned int plies = 0
        cdef int r
        self._board(p, &s)
        r = table_probe(&self.t, &s, question, &plies)
        return (r, plies if r == 1 else 0)


# ---------------------------------------------------------------- the solvers' hooks

cdef inline bint table_answer(const EndTable* t, const Node* s, int question, unsigned int* plies,
                              int* answer) noexcept nogil:
    """Whether t holds the answer of the question at node s (a Djenon-aboure
    node whose board is held): then *answer is 1 (forced within *plies plies)
    or 0 (never forced)."""
    if Node is DjenonNode:
        answer[0] = table_probe(t, s, question, plies)
        return answer[0] >= 0
    else:
        return 0


cdef inline bint table_settled(const EndTable* t, const Node* s, int* outcome,
                               unsigned int* plies) noexcept nogil:
    """Whether t settles s's value (§6.3): then *outcome is 1 (the player to
    move wins), 0 (a draw) or -1 (a loss), proven within *plies plies."""
    cdef int me = s.to_move
    cdef int mine, theirs
    cdef unsigned int p = 0, q = 0
    if not table_answer(t, s, 2 * me + 1, &p, &mine):
        return 0
    if mine:                                            # the mover forces a win
        outcome[0], plies[0] = 1, p
        return 1
    table_answer(t, s, 2 * (1 - me) + 1, &q, &theirs)
    if theirs:                                          # the opponent forces a win
        outcome[0], plies[0] = -1, q
        return 1
    table_answer(t, s, 2 * me, &p, &mine)
    table_answer(t, s, 2 * (1 - me), &q, &theirs)
    if mine and theirs:                                 # each forces a draw or better
        outcome[0], plies[0] = 0, (p if p > q else q)
        return 1
    return 0


cdef const EndTable* table_arg(object tables) except? NULL:
    """The EndTable of a tables= argument (None: NULL)."""
    if tables is None:
        return NULL
    if not isinstance(tables, EndgameTables):
        raise ArgumentTypeError(f"tables must be None or endgame tables "
                                f"(katra.api.load_tables), not {type(tables).__name__}")
    return &(<EndgameTables>tables).t
