# The solver's transposition table (docs/solve.md).  An entry holds facts
# about one position, per predicate F(p, P, t, k) of _solve.pxi: the least
# bound known to suffice and the largest known not to.  Facts stay true
# whatever path reaches the position, so an entry may be overwritten or lost
# at the cost of time only, never of correctness.
#
# One table may be shared by the solvers of several threads (SolverTable),
# without locks: lockless hashing.  An entry is three 64-bit words, the two
# words of facts and a check word, the key xor the two; each word is written
# whole (a relaxed atomic store) and read once (katra_opaque3), and a reader
# takes an entry only if its check word matches the key and the facts read
# with it.  Entries written by
# two threads at once may end up mixed word by word: words written for the
# same position are each true facts about it, so any mix of them is too, and
# a mix with a word written for another position fails the check (it passes
# by a 64-bit coincidence only, as likely as two positions sharing a key).
# Two threads updating one entry at once may lose one's update: time only.
# A shared table never grows (solve_grow): growth moves the entries while
# another thread may be reading them.

cdef extern from *:
    """
    /* A table shared between threads is read with plain loads (which the check
       word validates; a torn word fails it), then katra_opaque3 makes the three
       values read opaque to the compiler, so that it cannot read the entry again
       later in place of a register: the facts used are the facts checked.
       (Relaxed atomic loads would do the same but cost the solver's recursion
       a larger frame.)  Stores are relaxed atomic: each word written whole. */
    #if defined(__GNUC__) || defined(__clang__)
    #define katra_opaque3(a, b, c) __asm__("" : "+r"(a), "+r"(b), "+r"(c))
    #define katra_word_load(p) (*(p))
    #define katra_word_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    #else   /* volatile: one load or store each */
    #define katra_opaque3(a, b, c) ((void)0)
    #define katra_word_load(p) (*(volatile unsigned long long*)(p))
    #define katra_word_store(p, v) (*(volatile unsigned long long*)(p) = (v))
    #endif
    """
    u64 katra_word_load(const u64* p) noexcept nogil
    void katra_word_store(u64* p, u64 v) noexcept nogil
    void katra_opaque3(u64 a, u64 b, u64 c) noexcept nogil   # a macro: modifies a, b, c in place

cdef enum:
    SOLVE_PREDICATES = 4         # index 2 * player + target
    TARGET_DRAW = 0              # a draw or better
    TARGET_WIN = 1
    SOLVE_NO_PROOF = 0xFFFF      # proven: no bound known to suffice
    SOLVE_NEVER = 0x7FFF         # refuted: no bound ever suffices
    SOLVE_FIRST_BITS = 16        # a table that may grow starts at 2**16 entries
    SOLVE_DEFAULT_MAX_BITS = 20  # and grows up to 2**20 (24 MiB) unless told otherwise;
                                 # a shared table's default size
    SOLVE_MIN_BITS = 10
    SOLVE_MAX_BITS = 28

# An entry's facts, stored complemented so that a zeroed slot (calloc) reads
# as "nothing known" whatever key it is read for: lane i (bits 16i..16i+15) of
# ~words[0] is proven[i]: predicate i holds at every bound >= it
# (SOLVE_NO_PROOF: none known); lane i of ~words[1] is refuted[i], a signed
# 16-bit number: it fails at every bound <= it (-1: none known, SOLVE_NEVER:
# it never holds).
ctypedef struct SolveEntry:
    u64 check                    # the key ^ words[0] ^ words[1]
    u64 words[2]

ctypedef struct SolveFacts:      # an entry's two words of facts, decoded
    u64 proven
    u64 refuted

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


cdef inline bint solve_good(int winner, int pi) noexcept nogil:
    """Does a finished game won by winner (-1: a draw) satisfy predicate pi?"""
    if winner == (pi >> 1):
        return 1
    return winner < 0 and (pi & 1) == TARGET_DRAW


cdef inline const SolveEntry* solve_slot(const SolveSlots* t, u64 key) noexcept nogil:
    """The slot key maps to (whatever it holds): for prefetching."""
    return &t.entries[key & t.mask]


cdef inline int proven_lane(u64 facts, int i) noexcept nogil:
    return <unsigned short>(facts >> (16 * i))


cdef inline int refuted_lane(u64 facts, int i) noexcept nogil:
    return <short>(facts >> (16 * i))


cdef inline u64 set_lane(u64 facts, int i, int value) noexcept nogil:
    return ((facts & ~((<u64>0xFFFF) << (16 * i)))
            | ((<u64>(<unsigned short>value)) << (16 * i)))


cdef inline SolveFacts solve_read(SolveSlots* t, u64 key) noexcept nogil:
    """The facts the table holds about key, decoded (nothing known if its slot
    holds another position or a mixed entry: a claim, counted while the table
    may grow; a shared table never writes its header)."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    cdef u64 w0 = katra_word_load(&e.words[0])
    cdef u64 w1 = katra_word_load(&e.words[1])
    cdef u64 check = katra_word_load(&e.check)
    cdef SolveFacts f
    katra_opaque3(w0, w1, check)
    if check ^ w0 ^ w1 != key:
        if t.bits < t.max_bits:
            t.claims += 1
        w0 = w1 = 0
    f.proven, f.refuted = ~w0, ~w1
    return f


cdef inline void solve_write(SolveSlots* t, u64 key, SolveFacts f) noexcept nogil:
    """Store decoded facts about key in its slot (the facts words, then the check)."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    katra_word_store(&e.words[0], ~f.proven)
    katra_word_store(&e.words[1], ~f.refuted)
    katra_word_store(&e.check, key ^ ~f.proven ^ ~f.refuted)


cdef inline void solve_store(SolveSlots* t, u64 key, int pi, int k, bint holds) noexcept nogil:
    """Record F(pi, k) and what follows from it: a win is a draw or better,
    a failed draw-or-better is a failed win, and a player who can force a
    draw or better leaves the other no win (nor a draw or better, after a win)."""
    cdef SolveFacts f = solve_read(t, key)
    cdef int p = pi >> 1
    cdef int other = 2 * (1 - p)
    if holds:
        if k < proven_lane(f.proven, pi):
            f.proven = set_lane(f.proven, pi, k)
        if (pi & 1) == TARGET_WIN and k < proven_lane(f.proven, 2 * p):
            f.proven = set_lane(f.proven, 2 * p, k)
        f.refuted = set_lane(f.refuted, other + TARGET_WIN, SOLVE_NEVER)
        if (pi & 1) == TARGET_WIN:
            f.refuted = set_lane(f.refuted, other + TARGET_DRAW, SOLVE_NEVER)
    else:
        if k > refuted_lane(f.refuted, pi):
            f.refuted = set_lane(f.refuted, pi, k)
        if (pi & 1) == TARGET_DRAW and k > refuted_lane(f.refuted, pi + 1):
            f.refuted = set_lane(f.refuted, pi + 1, k)
    solve_write(t, key, f)


cdef inline void solve_store_finished(SolveSlots* t, u64 key, int winner) noexcept nogil:
    """A finished game: each predicate holds at every bound, or at none."""
    cdef SolveFacts f = solve_read(t, key)
    cdef int pi
    for pi in range(SOLVE_PREDICATES):
        if solve_good(winner, pi):
            f.proven = set_lane(f.proven, pi, 0)
        else:
            f.refuted = set_lane(f.refuted, pi, SOLVE_NEVER)
    solve_write(t, key, f)


cdef inline int solve_probe(SolveSlots* t, u64 key, int pi, int k) noexcept nogil:
    """1 or 0 if the table decides F(pi, k), else -1."""
    cdef SolveEntry* e = &t.entries[key & t.mask]
    cdef u64 w0 = katra_word_load(&e.words[0])
    cdef u64 w1 = katra_word_load(&e.words[1])
    cdef u64 check = katra_word_load(&e.check)
    katra_opaque3(w0, w1, check)
    if check ^ w0 ^ w1 == key:
        if proven_lane(~w0, pi) <= k:
            return 1
        if refuted_lane(~w1, pi) >= k:
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
        if e.words[0] | e.words[1]:  # 0, 0: nothing known (calloc)
            key = e.check ^ e.words[0] ^ e.words[1]
            fresh[key & mask] = e[0]
            moved += 1
    katra_table_free(t.entries, solve_table_bytes(t.bits))
    t.entries, t.mask, t.bits, t.claims = fresh, mask, bits, moved


cdef int _solve_bits_arg(object tt_bits) except -1:
    """tt_bits checked: an int in SOLVE_MIN_BITS..SOLVE_MAX_BITS."""
    cdef object bits = _as_int(tt_bits)
    if bits is None:
        raise ArgumentTypeError(f"tt_bits must be None or an int, not {type(tt_bits).__name__}")
    if not SOLVE_MIN_BITS <= bits <= SOLVE_MAX_BITS:
        raise ArgumentError(f"tt_bits must be None or an int in "
                            f"{SOLVE_MIN_BITS}..{SOLVE_MAX_BITS}, got {tt_bits!r}")
    return bits


cdef class SolverTable:
    """A transposition table that the Solvers of several threads may share
    (``Solver(table=...)``), each thread searching with its own Solver: what
    one proves, the others read.  It holds ``2**tt_bits`` entries of 24 bytes
    (10..28; None: 20, 24 MiB), allocated at once and never grown, so that
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
