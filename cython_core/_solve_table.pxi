# The solver's transposition table (docs/solve.md).  An entry holds facts
# about one position, per predicate F(p, P, t, k) of _solve.pxi: the least
# bound known to suffice and the largest known not to.  Facts stay true
# whatever path reaches the position, so an entry may be overwritten or lost
# at the cost of time only, never of correctness.
#
# One table may be shared by the solvers of several threads (SolverTable),
# without locks: lockless hashing.  An entry is two 64-bit words, the facts
# and a check word, the key xor the facts; each word is written whole (a
# relaxed atomic store) and read once (katra_opaque2), and a reader takes an
# entry only if its check word matches the key and the facts read with it.
# Entries written by two threads at once may end up with the facts of one
# write and the check of another: written for the same position, the facts
# are true facts about it; a check written for another position fails (it
# passes by a 64-bit coincidence only, as likely as two positions sharing a
# key).  Two threads updating one entry at once may lose one's update: time
# only.  A shared table never grows (solve_grow): growth moves the entries
# while another thread may be reading them.

cdef extern from *:
    """
    /* A table shared between threads is read with plain loads (which the check
       word validates; a torn word fails it), then katra_opaque2 (or, for
       df-pn's three-word entries, katra_opaque3) makes the values read opaque
       to the compiler, so that it cannot read the entry again
       later in place of a register: the facts used are the facts checked.
       (Relaxed atomic loads would do the same but cost the solver's recursion
       a larger frame.)  Stores are relaxed atomic: each word written whole. */
    #if defined(__GNUC__) || defined(__clang__)
    #define katra_opaque2(a, b) __asm__("" : "+r"(a), "+r"(b))
    #define katra_opaque3(a, b, c) __asm__("" : "+r"(a), "+r"(b), "+r"(c))
    #define katra_word_load(p) (*(p))
    #define katra_word_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    #else   /* volatile: one load or store each */
    #define katra_opaque2(a, b) ((void)0)
    #define katra_opaque3(a, b, c) ((void)0)
    #define katra_word_load(p) (*(volatile unsigned long long*)(p))
    #define katra_word_store(p, v) (*(volatile unsigned long long*)(p) = (v))
    #endif
    """
    u64 katra_word_load(const u64* p) noexcept nogil
    void katra_word_store(u64* p, u64 v) noexcept nogil
    void katra_opaque2(u64 a, u64 b) noexcept nogil   # a macro: modifies a, b in place
    void katra_opaque3(u64 a, u64 b, u64 c) noexcept nogil   # (df-pn's) a, b, c

cdef enum:
    SOLVE_PREDICATES = 4         # index 2 * player + target
    TARGET_DRAW = 0              # a draw or better
    TARGET_WIN = 1
    SOLVE_NO_PROOF = 0xFFFF      # decoded: proven, no bound known to suffice
    SOLVE_NEVER = 0x7FFF         # decoded: refuted, no bound ever suffices
    SOLVE_LANE_NEVER = 255       # a refuted lane holding SOLVE_NEVER
    SOLVE_LANE_MOST = 254        # the largest bound a lane holds (a proven lane:
                                 # proven at k is stored as k + 1, 1..255; a refuted
                                 # lane: refuted at k as k + 1, 0..254, 255 never)
    SOLVE_FIRST_BITS = 16        # a table that may grow starts at 2**16 entries
    SOLVE_DEFAULT_MAX_BITS = 20  # and grows up to 2**20 (16 MiB) unless told otherwise;
                                 # a shared table's default size
    MIN_SOLVE_TT_BITS = 10
    MAX_SOLVE_TT_BITS = 28

# An entry's facts, one 64-bit word of eight 8-bit lanes, so that a zeroed slot
# (calloc) reads as "nothing known" whatever key it is read for: lane i (bits
# 8i..8i+7, i < 4) is proven[i] + 1: predicate i holds at every bound >=
# proven[i] (0: none known); lane 4 + i is refuted[i] + 1: it fails at every
# bound <= refuted[i] (0: none known; SOLVE_LANE_NEVER: it never holds).  A
# lane holds bounds up to 254 (refuted: 253): a deeper fact is kept weaker
# (refuted at 253) or not at all (proven), which costs time only; every
# bound below is kept exactly.  16 bytes an entry: four to a cache line,
# none straddling two.
ctypedef struct SolveEntry:
    u64 check                    # the key ^ facts
    u64 facts

ctypedef struct SolveSlots:
    SolveEntry* entries
    u64 mask                     # 2**bits - 1
    u64 claims                   # slots taken over by a new position since the last
                                 # growth (counted only while the table may grow)
    int bits                     # the table holds 2**bits entries now,
    int max_bits                 # and may grow to 2**max_bits (solve_grow; a shared
                                 # table: max_bits == bits)


cdef int solve_table_init(SolveSlots* t, int bits, int max_bits) except -1:
    """An empty table of 2**bits entries that may grow to 2**max_bits."""
    memset(t, 0, sizeof(SolveSlots))
    t.entries = <SolveEntry*>katra_table_alloc(solve_table_bytes(bits))
    if t.entries == NULL:
        raise MemoryError("solve: cannot allocate the transposition table")
    t.bits, t.max_bits, t.mask = bits, max_bits, ((<u64>1) << bits) - 1
    return 0


cdef inline u64 solve_table_bytes(int bits) noexcept nogil:
    return ((<u64>1) << bits) * sizeof(SolveEntry)


cdef void solve_table_free(SolveSlots* t) noexcept nogil:
    katra_table_free(t.entries, solve_table_bytes(t.bits))
    t.entries = NULL


cdef inline bint solve_good(int winner, int question) noexcept nogil:
    """Does a finished game won by winner (-1: a draw) satisfy the question?"""
    if winner == (question >> 1):
        return 1
    return winner < 0 and (question & 1) == TARGET_DRAW


cdef inline const SolveEntry* solve_slot(const SolveSlots* t, u64 key) noexcept nogil:
    """The slot key maps to (whatever it holds): for prefetching."""
    return &t.entries[key & t.mask]


cdef inline int facts_lane(u64 facts, int lane) noexcept nogil:
    return <unsigned char>(facts >> (8 * lane))


cdef inline u64 facts_with(u64 facts, int lane, int value) noexcept nogil:
    """facts with lane set to value (0..255)."""
    return ((facts & ~((<u64>0xFF) << (8 * lane)))
            | ((<u64>(<unsigned char>value)) << (8 * lane)))


cdef inline int proven_bound(u64 facts, int question) noexcept nogil:
    """The least bound known to suffice for the question (SOLVE_NO_PROOF: none)."""
    return <unsigned short>(facts_lane(facts, question) - 1)


cdef inline u64 facts_proven(u64 facts, int question, int k) noexcept nogil:
    """facts with the question known to hold at bound k (nothing new if a lane
    cannot hold k, or a smaller bound is known)."""
    if k < proven_bound(facts, question) and k <= SOLVE_LANE_MOST:
        return facts_with(facts, question, k + 1)
    return facts


cdef inline u64 facts_refuted(u64 facts, int question, int k) noexcept nogil:
    """facts with the question known to fail at bound k (SOLVE_NEVER: at every
    bound; a bound a lane cannot hold is kept as its largest, a weaker fact)."""
    cdef int v
    if k == SOLVE_NEVER:
        v = SOLVE_LANE_NEVER
    else:
        v = min(k, SOLVE_LANE_MOST - 1) + 1
    if v > facts_lane(facts, 4 + question):
        return facts_with(facts, 4 + question, v)
    return facts


cdef inline u64 solve_read(SolveSlots* t, u64 key) noexcept nogil:
    """The facts the table holds about key (nothing known, 0, if its slot holds
    another position or a mixed entry: a claim, counted while the table may
    grow; a shared table never writes its header)."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    cdef u64 facts = katra_word_load(&e.facts)
    cdef u64 check = katra_word_load(&e.check)
    katra_opaque2(facts, check)
    if check ^ facts != key:
        if t.bits < t.max_bits:
            t.claims += 1
        return 0
    return facts


cdef inline void solve_write(SolveSlots* t, u64 key, u64 facts) noexcept nogil:
    """Store the facts about key in its slot (the facts word, then the check)."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    katra_word_store(&e.facts, facts)
    katra_word_store(&e.check, key ^ facts)


cdef inline void solve_store(SolveSlots* t, u64 key, int question, int k, bint holds) noexcept nogil:
    """Record F(question, k) and what follows from it: a win is a draw or better,
    a failed draw-or-better is a failed win, and a player who can force a
    draw or better leaves the other no win (nor a draw or better, after a win)."""
    cdef u64 f = solve_read(t, key)
    cdef int p = question >> 1
    cdef int other = 2 * (1 - p)
    if holds:
        f = facts_proven(f, question, k)
        if (question & 1) == TARGET_WIN:
            f = facts_proven(f, 2 * p, k)
            f = facts_refuted(f, other + TARGET_DRAW, SOLVE_NEVER)
        f = facts_refuted(f, other + TARGET_WIN, SOLVE_NEVER)
    else:
        f = facts_refuted(f, question, k)
        if (question & 1) == TARGET_DRAW:
            f = facts_refuted(f, question + 1, k)
    solve_write(t, key, f)


cdef inline void solve_store_finished(SolveSlots* t, u64 key, int winner) noexcept nogil:
    """A finished game: each predicate holds at every bound, or at none."""
    cdef u64 f = solve_read(t, key)
    cdef int question
    for question in range(SOLVE_PREDICATES):
        if solve_good(winner, question):
            f = facts_proven(f, question, 0)
        else:
            f = facts_refuted(f, question, SOLVE_NEVER)
    solve_write(t, key, f)


cdef inline int solve_probe(SolveSlots* t, u64 key, int question, int k) noexcept nogil:
    """1 or 0 if the table decides F(question, k), else -1."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    cdef u64 facts = katra_word_load(&e.facts)
    cdef u64 check = katra_word_load(&e.check)
    cdef int v
    katra_opaque2(facts, check)
    if check ^ facts == key:
        if <unsigned>(facts_lane(facts, question) - 1) <= <unsigned>k:      # lane 0: none known
            return 1
        v = facts_lane(facts, 4 + question)
        if v > k or v == SOLVE_LANE_NEVER:
            return 0
    return -1


cdef void solve_grow(SolveSlots* t) noexcept nogil:
    """Between bounds: a table that may grow and whose slots were taken over
    more times than it has slots grows (x4 at a time, up to 2**tt_max_bits),
    its entries moved over (a slot two of them want keeps the last: entries
    are facts, so losing one costs time only).  A small solve thus touches a
    small table; on allocation failure the table stays as it is.  A shared
    table (max_bits == bits) never grows."""
    cdef int bits = t.bits
    cdef SolveEntry* fresh
    cdef SolveEntry* e
    cdef u64 i, mask, key, moved = 0
    while bits < t.max_bits and ((<u64>1) << bits) < t.claims:
        bits = min(bits + 2, t.max_bits)
    if bits == t.bits:
        return
    fresh = <SolveEntry*>katra_table_alloc(solve_table_bytes(bits))
    if fresh == NULL:
        return
    mask = ((<u64>1) << bits) - 1
    for i in range(t.mask + 1):
        e = &t.entries[i]
        if e.facts:                  # 0: nothing known (calloc)
            key = e.check ^ e.facts
            fresh[key & mask] = e[0]
            moved += 1
    katra_table_free(t.entries, solve_table_bytes(t.bits))
    t.entries, t.mask, t.bits, t.claims = fresh, mask, bits, moved


cdef int _solve_bits_arg(object tt_bits) except -1:
    """tt_bits checked: an int in MIN_SOLVE_TT_BITS..MAX_SOLVE_TT_BITS (_int_arg's errors)."""
    return <int>_int_arg(tt_bits, "tt_bits", MIN_SOLVE_TT_BITS, MAX_SOLVE_TT_BITS)


cdef int _question_arg(object player, object target) except -1:
    """The question (2 * player + target, a predicate's index) of a player and a
    target argument, each 0 or 1 (_int_arg's errors)."""
    return 2 * <int>_int_arg(player, "player", 0, 1) + <int>_int_arg(target, "target", 0, 1)


cdef class SolverTable:
    """A transposition table that the Solvers of several threads may share
    (``Solver(table=...)``), each thread searching with its own Solver: what
    one proves, the others read.  It holds ``2**tt_bits`` entries of 16 bytes
    (10..28; None: 20, 16 MiB), allocated at once and never grown, so that
    no thread moves entries while another reads them.  Locks are not needed
    (lockless hashing: _solve_table.pxi).  The memory is freed when the table
    and every Solver using it are gone."""
    cdef SolveSlots t

    def __cinit__(self, tt_bits=None):
        cdef int bits = SOLVE_DEFAULT_MAX_BITS
        if tt_bits is not None:
            bits = _solve_bits_arg(tt_bits)
        solve_table_init(&self.t, bits, bits)

    def __dealloc__(self):
        solve_table_free(&self.t)

    @property
    def tt_bits(self):
        """The table holds 2**tt_bits entries."""
        return self.t.bits
