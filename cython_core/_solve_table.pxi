# The solver's transposition table (docs/solve.md).  An entry holds facts
# about one position, per predicate F(p, P, t, k) of _solve.pxi: the least
# bound known to suffice and the largest known not to.  Facts stay true
# whatever path reaches the position, so an entry may be overwritten or lost
# at the cost of time only, never of correctness.

cdef enum:
    SOLVE_PREDICATES = 4         # index 2 * player + target
    TARGET_DRAW = 0              # a draw or better
    TARGET_WIN = 1
    SOLVE_NO_PROOF = 0xFFFF      # SolveEntry.proven: no bound known to suffice
    SOLVE_NEVER = 0x7FFF         # SolveEntry.refuted: no bound ever suffices
    SOLVE_FIRST_BITS = 16        # a table that may grow starts at 2**16 entries
    SOLVE_DEFAULT_MAX_BITS = 20  # and grows up to 2**20 (24 MiB) unless told otherwise

ctypedef struct SolveEntry:
    u64 key
    unsigned short proven[SOLVE_PREDICATES]   # F holds at every bound >= this
    short refuted[SOLVE_PREDICATES]           # F fails at every bound <= this (-1: none known)

ctypedef struct SolveTable:
    SolveEntry* entries
    u64 mask                     # 2**bits - 1
    u64 claims                   # slots taken over by a new position since the last growth
    int bits                     # the table holds 2**bits entries now,
    int max_bits                 # and may grow to 2**max_bits (solve_grow)


cdef int solve_table_init(SolveTable* t, int bits, int max_bits) except -1:
    """An empty table of 2**bits entries that may grow to 2**max_bits."""
    memset(t, 0, sizeof(SolveTable))
    t.entries = <SolveEntry*>calloc((<u64>1) << bits, sizeof(SolveEntry))
    if t.entries == NULL:
        raise MemoryError("solve: cannot allocate the transposition table")
    t.bits, t.max_bits, t.mask = bits, max_bits, ((<u64>1) << bits) - 1
    return 0


cdef void solve_table_free(SolveTable* t) noexcept nogil:
    free(t.entries)
    t.entries = NULL


cdef inline bint solve_good(int winner, int pi) noexcept nogil:
    """Does a finished game won by winner (-1: a draw) satisfy predicate pi?"""
    if winner == (pi >> 1):
        return 1
    return winner < 0 and (pi & 1) == TARGET_DRAW


cdef inline const SolveEntry* solve_slot(const SolveTable* t, u64 key) noexcept nogil:
    """The slot key maps to (whatever it holds): for prefetching."""
    return &t.entries[key & t.mask]


cdef inline SolveEntry* solve_entry(SolveTable* t, u64 key) noexcept nogil:
    """The table slot of key, cleared if it held another position."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    cdef int i
    if e.key != key:
        t.claims += 1
        e.key = key
        for i in range(SOLVE_PREDICATES):
            e.proven[i] = SOLVE_NO_PROOF
            e.refuted[i] = -1
    return e


cdef inline void solve_store(SolveTable* t, u64 key, int pi, int k, bint holds) noexcept nogil:
    """Record F(pi, k) and what follows from it: a win is a draw or better,
    a failed draw-or-better is a failed win, and a player who can force a
    draw or better leaves the other no win (nor a draw or better, after a win)."""
    cdef SolveEntry* e = solve_entry(t, key)
    cdef int p = pi >> 1
    cdef int other = 2 * (1 - p)
    if holds:
        if k < e.proven[pi]:
            e.proven[pi] = <unsigned short>k
        if (pi & 1) == TARGET_WIN and k < e.proven[2 * p]:
            e.proven[2 * p] = <unsigned short>k
        e.refuted[other + TARGET_WIN] = SOLVE_NEVER
        if (pi & 1) == TARGET_WIN:
            e.refuted[other + TARGET_DRAW] = SOLVE_NEVER
    else:
        if k > e.refuted[pi]:
            e.refuted[pi] = <short>k
        if (pi & 1) == TARGET_DRAW and k > e.refuted[pi + 1]:
            e.refuted[pi + 1] = <short>k


cdef inline void solve_store_finished(SolveTable* t, u64 key, int winner) noexcept nogil:
    """A finished game: each predicate holds at every bound, or at none."""
    cdef SolveEntry* e = solve_entry(t, key)
    cdef int pi
    for pi in range(SOLVE_PREDICATES):
        if solve_good(winner, pi):
            e.proven[pi] = 0
        else:
            e.refuted[pi] = SOLVE_NEVER


cdef inline int solve_probe(SolveTable* t, u64 key, int pi, int k) noexcept nogil:
    """1 or 0 if the table decides F(pi, k), else -1."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    if e.key == key:
        if e.proven[pi] <= k:
            return 1
        if e.refuted[pi] >= k:
            return 0
    return -1


cdef void solve_grow(SolveTable* t) noexcept nogil:
    """Between bounds: a table that may grow and whose slots were taken over
    more times than it has slots grows (x4 at a time, up to 2**tt_max_bits),
    its entries moved over (a slot two of them want keeps the last: entries
    are facts, so losing one costs time only).  A small solve thus touches a
    small table; on allocation failure the table stays as it is."""
    cdef int bits = t.bits
    cdef SolveEntry* fresh
    cdef SolveEntry* e
    cdef u64 i, mask, moved = 0
    while bits < t.max_bits and ((<u64>1) << bits) < t.claims:
        bits = min(bits + 2, t.max_bits)
    if bits == t.bits:
        return
    fresh = <SolveEntry*>calloc((<u64>1) << bits, sizeof(SolveEntry))
    if fresh == NULL:
        return
    mask = ((<u64>1) << bits) - 1
    for i in range(t.mask + 1):
        e = &t.entries[i]
        if e.key != 0:           # 0: never used (calloc)
            fresh[e.key & mask] = e[0]
            moved += 1
    free(t.entries)
    t.entries, t.mask, t.bits, t.claims = fresh, mask, bits, moved
