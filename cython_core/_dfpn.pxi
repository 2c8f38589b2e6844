# Depth-first proof-number search (df-pn) without a ply bound (docs/solve.md,
# "Without a bound"; docs/rules.md §6.3).
#
# One question at a time, Q = (P, t): "player P can force at least t (a draw
# or better, or a win) with the game over within some finite number of
# plies".  An OR node is one where P moves, an AND node one where the other
# player does.  Proof and disproof numbers (Allis 1994), searched depth first
# with thresholds (Nagai 2002, MID), each child's thresholds widened by
# 1 + epsilon (Pawlewicz & Lew 2007), over a transposition table of bounded
# size.
#
# Repetitions.  A line that never ends never satisfies Q, so a position that
# repeats one on the current path is a disproof for that path.  Such a
# disproof depends on the path (the graph-history interaction, Kishimoto &
# Müller 2004).  Each disproof carries the shallowest ply of the path it
# rests on (DFPN_FREE: none); one resting only on this node or positions below
# it holds whatever the path above, and is stored as a fact about the
# position.  One that rests on the span positions above the node (span = ply -
# loop) is never stored as such: it is stored MARKED (pn = DFPN_PATH_MARK |
# span) with a 64-bit fingerprint of the set of those span positions (the sum of
# their mixed keys, kept as prefix sums along the path), and a later visit
# takes it only when its own span positions above have the same fingerprint:
# then every position the disproof rests on is on the path again, and more
# positions on the path only help the disproof (a repetition never proves).
#
# Traps.  When a node A's disproof turns path-independent although some of its
# children's rested on the path (on A or below: A heads a cycle), the marked
# disproofs below A that it was built from are path-independent too: A and
# they form a TRAP, a set W where the player P to move has only children in W
# or disproven whatever the path, and the other player has at least one, so
# the other player keeps P in W (or among such disproofs) for ever and P
# forces nothing from any position of W.  dfpn_trap walks W again from A
# through the marked entries, checking that property child by child from the
# table alone (not trusting the marks), and, when the whole walk holds, stores
# every position of W as disproven whatever the path: a later visit by
# another path finds it at once instead of searching the cycle again.
#
# Twins.  A disproof of (P, t) that rests on no repetition anywhere below (its
# leaves all finished games) is a finite tree every line of which ends without
# t for P: a proof that the other player forces what t excludes, the TWIN
# question (dfpn_twin), of the tree's height.  Its entry keeps 1 + that height
# in depth, and the twin's proof is stored too (dfpn_store_twin): the question
# the Python layer asks after a disproof is its twin, found at once.
#
# Leaves the table does not know start at their mobility (dfpn_mobility):
# (k, 1) where the other player moves, (1, k) where P does, k their candidate
# moves.  Initial numbers only steer; nothing is proven or disproven by them.
#
# PROOFS never rest on the path: a proof is a terminal good for P, a table
# entry that is itself a proof, or an OR node with one proven child / an AND
# node with every child proven.  So every proof is a fact about the position,
# with its depth (the height of the proof tree, an upper bound on the plies
# within which P forces t).  The Python layer settles a value only from
# proofs (a win: a proof of "P wins"; a draw: proofs of both players' "draw or
# better"), so a graph-history mistake can only make the search miss a proof,
# never report a false value.
#
# Sharing.  One table (DfpnTable) may be read and written by the solvers of
# several threads at once, without locks: lockless hashing (Hyatt & Mann).  A
# slot is three 64-bit words, each written whole (a relaxed atomic store) and
# read once (katra_opaque3, _solve_table.pxi): w0 = pn | dn << 32, w1 = depth |
# work << 32 and the seal, the entry's check ^ w0 ^ mix64(w1).  A reader takes
# the slot's words as the entry of its check only if the seal matches them.
# Slots written by two threads at once may end up mixed word by word: a mix
# of words of two writes passes only if its w1 is one write's and w0 the
# same write's (equal w1s force equal w0s), else only by a 64-bit coincidence
# of mix64's outputs, as likely as two positions sharing a check; so a torn
# or racing slot reads as empty, never as a proof or disproof that was not
# stored.  Two threads writing one slot at once may lose one's entry: time
# only.  Every entry is a fact about its position (proofs, path-free
# disproofs, marked disproofs with their path's fingerprint) or a pair of
# numbers (heuristic only), so what one thread stores is true for any other.
# A trap walk keeps its marks in a set of its own (DfpnCtx.marked), never in
# the table, and stores what it settles entry by entry.
#
# Runs without the GIL; a job (_stop.pxi): Ctrl-C and cancel_jobs() stop it.

from cpython.bytes cimport PyBytes_FromStringAndSize

cdef enum:
    DFPN_INF = 0x3FFFFFFF        # a proof or disproof number meaning "proven" / "disproven"
    DFPN_FREE = 1 << 30          # a disproof's loop ply when it rests on no repetition above
    DFPN_CUT = -1                # ... when it rests on the path's length (the depth cap)
    DFPN_MAX_PATH = 1000        # the longest path searched; deeper children count as
                                 # path-dependent disproofs (DFPN_CUT)
    DFPN_FILTER = 1024           # the path's keys, counted by their low bits
    DFPN_DEFAULT_BITS = 20       # the table's size for tt_bits=None (2**20 entries, 24 MiB)
    DFPN_STOP_JOB = 1
    DFPN_STOP_BUDGET = 2         # the node budget is spent
    DFPN_STOP_MEMORY = 3         # a frame could not be allocated
    DFPN_STOP_STACK = 4          # the thread's stack is too small for the path
    DFPN_PATH_MARK = 1 << 30     # an entry's pn: a disproof that rests on the path (above
                                 # DFPN_INF, so never a proof or disproof number), with span
    DFPN_PATH_PLIES = 1023       # ... in its low bits (span <= DFPN_MAX_PATH)
    DFPN_NO_DEPTH = 0x3FFFFFFF   # a disproof's depth when it rests on a repetition (or
                                 # is not known to rest on none)
    DFPN_TABLE_FORMAT = 1        # the meaning of a slot's words: bump it when it changes
                                 # (a saved table, katra.api's df-pn table file, is then
                                 # refused by _dfpn_fingerprint rather than misread)
    DFPN_FILE_CHUNK = 1 << 24    # a table is written and read in pieces of 16 MiB


ctypedef struct DfpnEntry:       # an entry as read from its slot (dfpn_find's copy)
    u64 check                    # the node's key mixed with the question; 0: empty
    unsigned int pn              # DFPN_PATH_MARK | span: a disproof resting on the span
    unsigned int dn              # positions above, whose fingerprint is (depth << 32) | dn
    unsigned int depth           # proven: the proof's depth; disproven whatever the path:
                                 # 1 + the depth of a disproof with no repetition (the
                                 # twin question's proof), 0 if not known to have one
    unsigned int work            # nodes spent below it (replacement: settled entries stay
                                 # longest, then the costlier entry)


ctypedef struct DfpnSlot:        # an entry in the table: 24 bytes, three words each
    u64 seal                     # written whole; the check ^ dfpn_seal(w0, w1) (0: empty)
    u64 w0                       # pn | dn << 32
    u64 w1                       # depth | work << 32


ctypedef struct DfpnWalked:      # an entry a trap walk marked: its key, check and work
    u64 key
    u64 check
    unsigned int work


ctypedef struct DfpnMarked:      # the walk's set of marked checks: open addressing, an
    u64 check                    # item valid while walked[index] is its entry (0: empty)
    u64 index


ctypedef struct DfpnFrame:       # one ply's children and what is known of them
    Children kids
    u64 keys[MAX_CANDIDATES]
    unsigned int pn[MAX_CANDIDATES]
    unsigned int dn[MAX_CANDIDATES]
    unsigned int depth[MAX_CANDIDATES]
    int loop[MAX_CANDIDATES]     # a disproven child's loop ply (DFPN_FREE, DFPN_CUT or a ply)
    IntPosition nodes[MAX_CANDIDATES]  # the children (a lane search keeps its smaller nodes here)


ctypedef struct DfpnCtx:
    DfpnSlot* slots              # the table, maybe shared with other threads' contexts
    u64 mask
    DfpnEntry found              # dfpn_find's copy of the entry it found
    u64 salt                     # the question's word, mixed into every check
    u64 twin_salt                # ... the twin question's (dfpn_twin)
    int question                 # the question: 2 * player + target (_solve_table.pxi)
    u64 nodes
    u64 max_nodes                # 0: no budget
    int stop
    JobStop* js
    char* stack_floor            # the recursion stops (DFPN_STOP_STACK) below this address
    DfpnFrame** frames           # [DFPN_MAX_PATH], allocated on first use
    u64 path[DFPN_MAX_PATH + 1] # the keys of the positions on the current path
    u64 psum[DFPN_MAX_PATH + 2] # psum[a]: the sum of mix64(path[i]) for i < a (psum[0] = 0)
    unsigned short filter[DFPN_FILTER]
    NodeScratch scratch          # node_unfinished's scratch
    DfpnWalked* walked           # a trap walk's entries, in the order marked
    u64 walked_count
    u64 walked_size
    DfpnMarked* marked           # ... and the set of their checks (2**k items,
    u64 marked_mask              # marked_used of them taken)
    u64 marked_used
    u64 walk_left                # the nodes a trap walk may still make
    const EndTable* tables       # endgame tables (docs/tables.md), or NULL


ctypedef struct DfpnOut:         # what a visit leaves of a node
    unsigned int pn
    unsigned int dn
    unsigned int depth
    int loop


cdef inline u64 dfpn_salt(int question) noexcept nogil:
    """The question's word, mixed into its entries' checks."""
    return ZKEY_GAME[0] * <u64>(2 * question + 1) + <u64>question


cdef inline void dfpn_twin(DfpnCtx* c, int game) noexcept nogil:
    """The twin of the question (P, t) asked of game: the other player forces
    what (P, t) excludes, (other, 1 - t); without draws (Katro, Mpantsaka: a
    draw or better is a win) (other, win).  A disproof of (P, t) with no
    repetition is a finite tree every line of which ends without t for P:
    a proof of the twin, of the same depth."""
    cdef int twin = 3 - c.question
    if not TABLES[game].draws:
        twin = 2 * (1 - (c.question >> 1)) + 1
    c.twin_salt = dfpn_salt(twin)


cdef inline unsigned int dfpn_mobility(const Node* s, NodeScratch* scratch) noexcept nogil:
    """How many candidate moves s (unfinished) has, at least 1: a leaf's
    initial proof or disproof number (every one of them must fail)."""
    cdef int n = node_candidates(s, scratch.cand, 0)
    return <unsigned int>n if n > 1 else 1


cdef inline u64 dfpn_check(const DfpnCtx* c, u64 key) noexcept nogil:
    return mix64(key ^ c.salt) | 1           # never 0 (an empty slot)


cdef inline u64 dfpn_seal(u64 w0, u64 w1) noexcept nogil:
    """What a slot's seal adds to the check: a mixed w1 with w0 (_dfpn.pxi's
    "Sharing"); 0 for an empty slot."""
    return w0 ^ mix64(w1)


cdef inline bint dfpn_read(DfpnSlot* slot, u64 check, DfpnEntry* e) noexcept nogil:
    """Read slot once into e: its entry if it holds check's (e.check = check),
    else e.check 0 (empty) or 2 (another's or mixed: never a check, all odd)
    with the numbers read, for replacement only."""
    cdef u64 seal = katra_word_load(&slot.seal)
    cdef u64 w0 = katra_word_load(&slot.w0)
    cdef u64 w1 = katra_word_load(&slot.w1)
    katra_opaque3(seal, w0, w1)
    e.pn, e.dn = <unsigned int>w0, <unsigned int>(w0 >> 32)
    e.depth, e.work = <unsigned int>w1, <unsigned int>(w1 >> 32)
    if seal ^ dfpn_seal(w0, w1) == check:
        e.check = check
        return 1
    e.check = 0 if seal == 0 else 2
    return 0


cdef inline DfpnEntry* dfpn_find(DfpnCtx* c, u64 key) noexcept nogil:
    """The entry of key (this question), copied into c.found, or NULL."""
    cdef u64 check = dfpn_check(c, key)
    cdef u64 i = check & c.mask
    if dfpn_read(&c.slots[i], check, &c.found) or dfpn_read(&c.slots[i ^ 1], check, &c.found):
        return &c.found
    return NULL


cdef inline int dfpn_keep(const DfpnEntry* e) noexcept nogil:
    """An entry's rank for replacement: 1 settled (a proof, which the line and
    the proof file walk, or a disproof whatever the path: each took a search to
    its end), else 0 (unsettled, or a disproof marked for a path)."""
    if e.pn == 0:
        return 1
    return e.dn == 0 and e.pn == DFPN_INF


cdef inline void dfpn_store(DfpnCtx* c, u64 key, unsigned int pn, unsigned int dn,
                            unsigned int depth, u64 work) noexcept nogil:
    """Keep (pn, dn, depth) for key in its two-slot bucket: its own slot if there,
    else the slot that cost less work (an empty one first).  A proof keeps the
    depth of a shallower proof of key there (another thread's, found first):
    the proofs above it were built on that depth."""
    cdef u64 check = dfpn_check(c, key)
    cdef u64 i = check & c.mask
    cdef DfpnEntry e, f
    cdef DfpnSlot* slot
    cdef u64 w0, w1
    dfpn_read(&c.slots[i], check, &e)
    dfpn_read(&c.slots[i ^ 1], check, &f)
    if pn == 0:
        if e.check == check and e.pn == 0 and e.depth < depth:
            depth = e.depth
        elif f.check == check and f.pn == 0 and f.depth < depth:
            depth = f.depth
    if e.check != check:
        # the other slot if it holds key, or is empty, or is worth less: an
        # unsettled entry before a settled one (dfpn_keep), then the one whose
        # search cost less
        if f.check == check or (e.check != 0 and (
                f.check == 0 or (dfpn_keep(&f) < dfpn_keep(&e))
                or (dfpn_keep(&f) == dfpn_keep(&e) and f.work < e.work))):
            i ^= 1
    if work > <u64>0xFFFFFFFFU:
        work = <u64>0xFFFFFFFFU
    w0 = <u64>pn | (<u64>dn << 32)
    w1 = <u64>depth | (work << 32)
    slot = &c.slots[i]
    katra_word_store(&slot.w0, w0)
    katra_word_store(&slot.w1, w1)
    katra_word_store(&slot.seal, check ^ dfpn_seal(w0, w1))


cdef inline void dfpn_store_on_path(DfpnCtx* c, u64 key, int plies, u64 print_,
                                    u64 work) noexcept nogil:
    """Keep a disproof of key that rests on the `plies` positions above it (their
    fingerprint print_), marked, unless the table knows key proven or disproven
    whatever the path (a fact is worth more)."""
    cdef DfpnEntry* e = dfpn_find(c, key)
    if e != NULL and dfpn_keep(e):
        return
    dfpn_store(c, key, DFPN_PATH_MARK | <unsigned int>plies, <unsigned int>(print_ & 0xFFFFFFFFU),
               <unsigned int>(print_ >> 32), work)


cdef inline int dfpn_tick(DfpnCtx* c, int nodes) noexcept nogil:
    c.nodes += nodes
    if job_should_stop(c.js, SOLVE_NODE_WORK * nodes):
        c.stop = DFPN_STOP_JOB
    elif c.max_nodes and c.nodes >= c.max_nodes:
        c.stop = DFPN_STOP_BUDGET
    return c.stop


cdef inline int dfpn_on_path(const DfpnCtx* c, u64 key, int ply) noexcept nogil:
    """The ply at which key stands on the current path above ply (0..ply - 1), or -1."""
    cdef int a
    if c.filter[<int>(key & <u64>(DFPN_FILTER - 1))] == 0:
        return -1
    for a in range(ply - 1, -1, -1):
        if c.path[a] == key:
            return a
    return -1


cdef inline unsigned int dfpn_add(unsigned int a, unsigned int b) noexcept nogil:
    """a + b for proof numbers: DFPN_INF if either is, else at most DFPN_INF - 1."""
    if a >= DFPN_INF or b >= DFPN_INF:
        return DFPN_INF
    return a + b if a + b < DFPN_INF else DFPN_INF - 1


cdef DfpnFrame* dfpn_frame(DfpnCtx* c, int ply) noexcept nogil:
    if c.frames[ply] == NULL:
        c.frames[ply] = <DfpnFrame*>malloc(sizeof(DfpnFrame))
        if c.frames[ply] == NULL:
            c.stop = DFPN_STOP_MEMORY
    return c.frames[ply]


cdef inline bint dfpn_walked(const DfpnCtx* c, u64 check) noexcept nogil:
    """Whether the walk marked the entry of check (in its set, and still walked)."""
    cdef u64 j = check & c.marked_mask
    if c.marked == NULL:
        return 0
    while c.marked[j].check != 0:
        if c.marked[j].check == check:
            return (c.marked[j].index < c.walked_count
                    and c.walked[c.marked[j].index].check == check)
        j = (j + 1) & c.marked_mask
    return 0


cdef inline int dfpn_trap_child(DfpnCtx* c, u64 k, u64 key, int ply, int top) noexcept nogil:
    """What a trap walk at ply (its top at top) knows of a child of key k (unfinished):
    1 in the trap or disproven whatever the path, 0 a marked disproof (to walk),
    -1 neither."""
    cdef DfpnEntry* e
    cdef int at = ply if k == key else dfpn_on_path(c, k, ply)
    if at >= 0:
        return 1 if at >= top else -1     # a repetition of the trap's path, or above it
    if ply + 1 >= DFPN_MAX_PATH:
        return -1
    e = dfpn_find(c, k)
    if e == NULL or e.pn == 0:
        return -1
    if dfpn_walked(c, e.check) or (e.pn == DFPN_INF and e.dn == 0):
        return 1
    return 0 if e.pn & DFPN_PATH_MARK else -1


cdef void dfpn_marked_put(DfpnCtx* c, u64 check, u64 index) noexcept nogil:
    """check at index in the walk's set (no growth)."""
    cdef u64 j = check & c.marked_mask
    while c.marked[j].check != 0 and c.marked[j].check != check:
        j = (j + 1) & c.marked_mask
    if c.marked[j].check == 0:
        c.marked_used += 1
    c.marked[j].check, c.marked[j].index = check, index


cdef int dfpn_marked_room(DfpnCtx* c) noexcept nogil:
    """Room in the walk's set for one more check (it stays at most half full):
    rebuilt from the entries walked, twice as large if they fill a quarter of
    it; 0 if memory runs out."""
    cdef u64 size = c.marked_mask + 1 if c.marked != NULL else 0, i
    cdef DfpnMarked* grown
    if 2 * (c.marked_used + 1) <= size:
        return 1
    while 4 * (c.walked_count + 1) > size:
        size = 2 * size if size else 256
    grown = <DfpnMarked*>calloc(size, sizeof(DfpnMarked))
    if grown == NULL:
        return 0
    free(c.marked)
    c.marked, c.marked_mask, c.marked_used = grown, size - 1, 0
    for i in range(c.walked_count):
        dfpn_marked_put(c, c.walked[i].check, i)
    return 1


cdef int dfpn_trap_mark(DfpnCtx* c, u64 k) noexcept nogil:
    """Mark k's entry as in the trap (remembered in walked and its set, not in
    the table, which other threads may read); 0 if memory runs out."""
    cdef DfpnEntry* e = dfpn_find(c, k)
    cdef DfpnWalked* grown
    if e == NULL or not dfpn_marked_room(c):
        return 0
    if c.walked_count == c.walked_size:
        grown = <DfpnWalked*>realloc(c.walked, (2 * c.walked_size + 64) * sizeof(DfpnWalked))
        if grown == NULL:
            return 0
        c.walked = grown
        c.walked_size = 2 * c.walked_size + 64
    c.walked[c.walked_count].key = k
    c.walked[c.walked_count].check = e.check
    c.walked[c.walked_count].work = e.work
    dfpn_marked_put(c, e.check, c.walked_count)
    c.walked_count += 1
    return 1


cdef bint dfpn_trap(DfpnCtx* c, const Node* s, u64 key, int ply, int top) noexcept nogil:
    """Whether s (unfinished, at ply; the trap's path path[top .. ply - 1] above it)
    is in a trap: at P's node every child, at the other's some child, is in it
    (a repetition of path[top .. ply], a marked entry) or disproven whatever the
    path, or is a marked disproof whose own walk holds.  Marks the entries of the
    children it walks (and leaves them marked if it holds)."""
    cdef DfpnFrame* f = dfpn_frame(c, ply)
    cdef Node* kids
    cdef bint or_node = s.to_move == (c.question >> 1)
    cdef int n = 0, i, known, open_ = 0
    cdef bint holds
    cdef u64 count
    if f == NULL:
        return 0
    if katra_stack_here() < c.stack_floor:
        c.stop = DFPN_STOP_STACK
        return 0
    kids = <Node*>f.nodes
    c.path[ply] = key
    node_children_begin(&f.kids, s, 1)
    while node_children_next(&f.kids, s, &kids[n]) >= 0:
        n += 1
    if dfpn_tick(c, n if n else 1) or c.walk_left < <u64>(n + 1):
        c.walk_left = 0
        return 0
    c.walk_left -= n + 1
    for i in range(n):
        f.keys[i] = node_key(&kids[i])
        if not node_unfinished(&kids[i], &c.scratch):
            known = -1 if solve_good(node_winner(&kids[i]), c.question) else 1
        else:
            known = dfpn_trap_child(c, f.keys[i], key, ply, top)
        f.loop[i] = known
        if known == 1 and not or_node:
            return 1
        if known == -1 and or_node:
            return 0
        open_ += known == 0
    if open_ == 0:
        return or_node
    c.filter[<int>(key & <u64>(DFPN_FILTER - 1))] += 1
    holds = or_node
    for i in range(n):
        if f.loop[i] != 0:
            continue
        count = c.walked_count
        # (a child walked earlier in this loop may have marked this one since)
        if dfpn_trap_child(c, f.keys[i], key, ply, top) == 1:
            if not or_node:
                holds = 1
                break
            continue
        if not dfpn_trap_mark(c, f.keys[i]):
            holds = 0
            break
        if dfpn_trap_walk(c, &kids[i], f.keys[i], ply + 1, top):
            if not or_node:
                holds = 1
                break
        else:
            c.walked_count = count           # unmark the entries this child's walk marked
            if or_node or c.walk_left == 0 or c.stop:
                holds = 0
                break
    c.filter[<int>(key & <u64>(DFPN_FILTER - 1))] -= 1
    return holds


cdef bint dfpn_trap_walk(DfpnCtx* c, const Node* s, u64 key, int ply, int top) noexcept nogil:
    """dfpn_trap through a function of its own (a small recursion frame)."""
    return dfpn_trap(c, s, key, ply, top)


cdef void dfpn_trap_settle(DfpnCtx* c, const Node* s, u64 key, int ply, u64 work) noexcept nogil:
    """s (at ply) is disproven whatever the path, with children's disproofs resting
    on it or below: walk its trap (at most `work` nodes) and, if it holds, store
    every marked disproof in it as disproven whatever the path."""
    cdef u64 i
    c.walked_count = 0
    c.walk_left = work
    if dfpn_trap(c, s, key, ply, ply):
        for i in range(c.walked_count):
            dfpn_store(c, c.walked[i].key, DFPN_INF, 0, 0, c.walked[i].work)
    c.walked_count = 0


cdef void dfpn_mid(DfpnCtx* c, const Node* s, u64 key, int ply, unsigned int thpn,
                   unsigned int thdn, DfpnOut* out) noexcept nogil:
    """Search s (unfinished, not on the path above, path[ply] free) until its
    proof number reaches thpn or its disproof number thdn, or it is settled;
    its numbers into out, and into the table unless they rest on the path."""
    cdef DfpnFrame* f = dfpn_frame(c, ply)
    cdef Node* kids
    cdef DfpnEntry* e
    cdef DfpnOut sub
    cdef bint or_node = s.to_move == (c.question >> 1)
    cdef int n = 0, i, best, at, loop, tabled
    cdef unsigned int pn, dn, sum_, least, second, depth, th, other_th
    cdef u64 start = c.nodes
    out.pn, out.dn, out.depth, out.loop = 1, 1, 0, DFPN_FREE
    if f == NULL:
        return
    if katra_stack_here() < c.stack_floor:
        c.stop = DFPN_STOP_STACK
        return
    kids = <Node*>f.nodes
    c.path[ply] = key
    c.psum[ply + 1] = c.psum[ply] + mix64(key)
    node_children_begin(&f.kids, s, 1)
    while node_children_next(&f.kids, s, &kids[n]) >= 0:
        n += 1
    if dfpn_tick(c, n if n else 1):
        return
    if n == 0:                   # not expected (callers test), but a finished node is a leaf
        out.pn = 0 if solve_good(node_winner(s), c.question) else DFPN_INF
        out.dn = DFPN_INF - out.pn
        return
    for i in range(n):
        f.keys[i] = node_key(&kids[i])
        f.depth[i] = DFPN_NO_DEPTH
        f.loop[i] = DFPN_FREE
        at = dfpn_on_path(c, f.keys[i], ply)
        if f.keys[i] == key:
            at = ply
        if at >= 0:                               # a repetition: never ends this way
            f.pn[i], f.dn[i], f.loop[i] = DFPN_INF, 0, at
        elif not node_unfinished(&kids[i], &c.scratch):
            f.depth[i] = 0
            if solve_good(node_winner(&kids[i]), c.question):
                f.pn[i], f.dn[i] = 0, DFPN_INF
            else:
                f.pn[i], f.dn[i] = DFPN_INF, 0
        elif ply + 1 >= DFPN_MAX_PATH:
            f.pn[i], f.dn[i], f.loop[i] = DFPN_INF, 0, DFPN_CUT
        elif c.tables != NULL and table_answer(c.tables, &kids[i], c.question, &f.depth[i], &tabled):
            f.pn[i] = 0 if tabled else DFPN_INF          # docs/tables.md
            f.dn[i] = DFPN_INF - f.pn[i]
            if not tabled:
                f.depth[i] = DFPN_NO_DEPTH
        else:
            e = dfpn_find(c, f.keys[i])
            if e == NULL:
                # its mobility: (k, 1) at the other's node (every move refuted),
                # (1, k) at P's (every move fails)
                f.pn[i], f.dn[i] = 1, 1
                if kids[i].to_move != (c.question >> 1):
                    f.pn[i] = dfpn_mobility(&kids[i], &c.scratch)
                else:
                    f.dn[i] = dfpn_mobility(&kids[i], &c.scratch)
            elif e.pn & DFPN_PATH_MARK:
                # a disproof for a path: this one's if the child's last span positions
                # above (path[ply + 1 - span .. ply]) are the same set
                at = <int>(e.pn & DFPN_PATH_PLIES)
                if at <= ply + 1 and (c.psum[ply + 1] - c.psum[ply + 1 - at]
                                      == ((<u64>e.depth << 32) | e.dn)):
                    f.pn[i], f.dn[i], f.loop[i] = DFPN_INF, 0, ply + 1 - at
                else:
                    f.pn[i], f.dn[i] = 1, 1
            else:
                f.pn[i], f.dn[i], f.depth[i] = e.pn, e.dn, e.depth
                if e.dn == 0:
                    f.depth[i] = e.depth - 1 if e.depth else DFPN_NO_DEPTH

    c.filter[<int>(key & <u64>(DFPN_FILTER - 1))] += 1
    while True:
        # the node's numbers, and its best child and the runner-up's number
        best = 0
        least = second = DFPN_INF
        sum_ = 0
        for i in range(n):
            if or_node:
                sum_ = dfpn_add(sum_, f.dn[i])
                if f.pn[i] < least:
                    second, least, best = least, f.pn[i], i
                elif f.pn[i] < second:
                    second = f.pn[i]
            else:
                sum_ = dfpn_add(sum_, f.pn[i])
                if f.dn[i] < least:
                    second, least, best = least, f.dn[i], i
                elif f.dn[i] < second:
                    second = f.dn[i]
        if or_node:
            pn, dn = least, sum_
        else:
            pn, dn = sum_, least
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
            break
        # the best child's thresholds: below the runner-up's number times 1 + 1/4
        # (1 + epsilon), and what the node's own thresholds leave to it
        if or_node:
            th = second + (second >> 2) + 1 if second < DFPN_INF - 1 else DFPN_INF
            if th > thpn:
                th = thpn
            other_th = thdn - (dn - f.dn[best]) if thdn < DFPN_INF else DFPN_INF
            dfpn_child(c, &kids[best], f.keys[best], ply + 1, th, other_th, &sub)
        else:
            th = second + (second >> 2) + 1 if second < DFPN_INF - 1 else DFPN_INF
            if th > thdn:
                th = thdn
            other_th = thpn - (pn - f.pn[best]) if thpn < DFPN_INF else DFPN_INF
            dfpn_child(c, &kids[best], f.keys[best], ply + 1, other_th, th, &sub)
        f.pn[best], f.dn[best], f.depth[best], f.loop[best] = sub.pn, sub.dn, sub.depth, sub.loop
        if c.stop:
            break
    c.filter[<int>(key & <u64>(DFPN_FILTER - 1))] -= 1
    if c.stop:
        return

    out.pn, out.dn = pn, dn
    if pn == 0:                  # proven: OR, the shallowest proven child; AND, the deepest
        depth = DFPN_INF if or_node else 0
        for i in range(n):
            if f.pn[i] == 0:
                if or_node and f.depth[i] < depth:
                    depth = f.depth[i]
                elif not or_node and f.depth[i] > depth:
                    depth = f.depth[i]
        out.depth = depth + 1
        dfpn_store(c, key, 0, DFPN_INF, out.depth, c.nodes - start)
        return
    if dn == 0:                  # disproven: on what part of the path does it rest?
        loop = DFPN_FREE if or_node else DFPN_CUT
        for i in range(n):
            if f.pn[i] >= DFPN_INF:
                if or_node and f.loop[i] < loop:
                    loop = f.loop[i]     # every child's disproof is needed
                elif not or_node and f.loop[i] > loop:
                    loop = f.loop[i]     # one suffices: the freest
        if loop >= ply:          # only on this node or below: true whatever the path above
            if loop != DFPN_FREE:
                dfpn_trap_settle(c, s, key, ply, c.nodes - start)
            loop = DFPN_FREE
        out.loop = loop
        out.depth = dfpn_disproof_depth(f, n, or_node)
        if loop == DFPN_FREE:
            dfpn_store(c, key, DFPN_INF, 0, out.depth + 1 if out.depth < DFPN_NO_DEPTH else 0,
                       c.nodes - start)
            if out.depth < DFPN_NO_DEPTH:
                dfpn_store_twin(c, key, out.depth, c.nodes - start)
        elif loop >= 0:          # on path[loop .. ply - 1]: marked, with their fingerprint
            dfpn_store_on_path(c, key, ply - loop, c.psum[ply] - c.psum[loop], c.nodes - start)
        return
    dfpn_store(c, key, pn, dn, 0, c.nodes - start)


cdef unsigned int dfpn_disproof_depth(const DfpnFrame* f, int n, bint or_node) noexcept nogil:
    """The depth of a disproven node's disproof with no repetition, from its
    children's (DFPN_NO_DEPTH if it has none): at P's node every child's is
    needed (one more than the deepest), at the other's one suffices (one more
    than the shallowest)."""
    cdef unsigned int depth = 0 if or_node else DFPN_NO_DEPTH
    cdef int i
    for i in range(n):
        if f.pn[i] < DFPN_INF:
            continue
        if or_node and f.depth[i] > depth:
            depth = f.depth[i]
        elif not or_node and f.depth[i] < depth:
            depth = f.depth[i]
    return depth + 1 if depth < DFPN_NO_DEPTH else DFPN_NO_DEPTH


cdef void dfpn_store_twin(DfpnCtx* c, u64 key, unsigned int depth, u64 work) noexcept nogil:
    """Keep the twin question's proof of key (depth: its disproof's, with no
    repetition), unless the table holds one already."""
    cdef u64 salt = c.salt
    cdef DfpnEntry* e
    c.salt = c.twin_salt
    e = dfpn_find(c, key)
    if e == NULL or e.pn != 0 or e.depth > depth:
        dfpn_store(c, key, 0, DFPN_INF, depth, work)
    c.salt = salt


cdef void dfpn_child(DfpnCtx* c, const Node* s, u64 key, int ply, unsigned int thpn,
                     unsigned int thdn, DfpnOut* out) noexcept nogil:
    """dfpn_mid through a function of its own, so that the recursion's frame
    stays small (Cython declares every local at the top)."""
    dfpn_mid(c, s, key, ply, thpn, thdn, out)


cdef void dfpn_within(DfpnCtx* c, const Node* s, unsigned int thpn, unsigned int thdn,
                      DfpnOut* out) noexcept nogil:
    dfpn_twin(c, node_game(s))
    dfpn_mid(c, s, node_key(s), 0, thpn, thdn, out)


# dfpn_root_within(c, s, thpn, thdn, out): dfpn_within at the root s in its node
# form (DfpnSolver._search), and dfpn_root_key(s), its key: _dispatch.pxi.in


cdef tuple _dfpn_status(unsigned int pn, unsigned int dn, bint free, unsigned int depth):
    """(status, depth) of numbers (pn, dn): 1 proven (with its proof depth), 0
    disproven whatever the path (free), -1 neither."""
    if pn == 0:
        return (1, depth)
    return (0, 0) if dn == 0 and free else (-1, 0)


cdef class DfpnTable:
    """A df-pn transposition table that the DfpnSolvers of several threads
    may share (``DfpnSolver(table=...)``), each thread searching with its own
    solver: what one proves, the others read.  It holds ``2**tt_bits``
    entries of 24 bytes (10..28; None: 20, 24 MiB), allocated at once.  Locks
    are not needed (lockless: _dfpn.pxi, "Sharing").  The memory is freed
    when the table and every solver using it are gone."""
    cdef DfpnSlot* slots
    cdef u64 mask

    def __cinit__(self, tt_bits=None):
        cdef int bits = DFPN_DEFAULT_BITS
        if tt_bits is not None:
            bits = _solve_bits_arg(tt_bits)
        self.slots = <DfpnSlot*>katra_table_alloc(((<u64>1) << bits) * sizeof(DfpnSlot))
        if self.slots == NULL:
            raise MemoryError("dfpn: cannot allocate the transposition table")
        self.mask = ((<u64>1) << bits) - 1

    def __dealloc__(self):
        katra_table_free(self.slots, (self.mask + 1) * sizeof(DfpnSlot))

    @property
    def tt_bits(self):
        """The table holds 2**tt_bits entries."""
        return (self.mask + 1).bit_length() - 1

    def used(self):
        """How many of its slots hold an entry."""
        cdef u64 i, n = 0
        with nogil:
            for i in range(self.mask + 1):
                n += katra_word_load(&self.slots[i].seal) != 0
        return n

    def write_to(self, stream):
        """Write the slots (2**tt_bits of 24 bytes, this machine's byte order) to
        the binary stream, copied 16 MiB at a time: the body of a df-pn table
        file (katra.api).  Any copy is a valid table, even one taken while
        solvers write: a slot caught mid-write reads back as empty (its seal),
        never as a wrong entry."""
        cdef u64 size = (self.mask + 1) * sizeof(DfpnSlot), at = 0, n
        cdef char* base = <char*>self.slots
        while at < size:
            n = min(size - at, <u64>DFPN_FILE_CHUNK)
            stream.write(PyBytes_FromStringAndSize(base + at, <Py_ssize_t>n))
            at += n

    def read_from(self, stream):
        """Fill the slots from the binary stream (what write_to wrote for a
        table of this size); if the stream ends early or gives a wrong type, the
        table is left empty and ArgumentError is raised.  Entries come with
        their seals, so a damaged slot reads as empty; a stream from another
        game or build is for the caller to refuse (_dfpn_fingerprint)."""
        cdef u64 size = (self.mask + 1) * sizeof(DfpnSlot), at = 0, want
        cdef char* base = <char*>self.slots
        cdef const char* piece
        try:
            while at < size:
                want = min(size - at, <u64>DFPN_FILE_CHUNK)
                data = stream.read(want)
                if not isinstance(data, bytes):
                    raise ArgumentTypeError(f"the df-pn table's stream gave "
                                            f"{type(data).__name__}, not bytes")
                if <u64>len(data) != want:
                    raise ArgumentError(f"the df-pn table ended after {at + len(data)} "
                                        f"of its {size} bytes")
                piece = data
                memcpy(base + at, piece, want)
                at += want
        except BaseException:
            memset(base, 0, size)
            raise


def _dfpn_fingerprint(pos):
    """A 64-bit word of df-pn's table layout as this build has it: pos's key,
    the four questions' salts, a seal and DFPN_TABLE_FORMAT mixed.  A saved
    table records its game start's, and a build whose keys, checks, seals
    or slot meaning differ refuses it."""
    cdef Position p = _check_position(pos)
    cdef u64 h = dfpn_root_key(&p.st) ^ <u64>DFPN_TABLE_FORMAT
    cdef int question
    for question in range(4):
        h = mix64(h ^ dfpn_salt(question))
    return mix64(h ^ dfpn_seal(h, ~h))


cdef class DfpnSolver:
    """Depth-first proof-number search without a ply bound (docs/solve.md),
    with its transposition table of 2**tt_bits entries of 24 bytes (10..28;
    None: 2**20, 24 MiB), kept between calls (the entries name their
    question, so the four questions share it); table: a DfpnTable to use
    instead, shared with the DfpnSolvers of other threads (then tt_bits must
    be None).  One thread at a time may use a DfpnSolver.

    prove(pos, player, target, max_nodes=None) asks "can player (0 South, 1
    North) force a draw or better (target 0) or a win (target 1) with the
    game over within some finite number of plies?" and returns (status,
    depth): status 1 proven (depth: the proof's depth, an upper bound on
    the plies needed), 0 disproven (the disproof rests on no repetition of
    the path above the position), -1 neither (the node budget ran out, or
    the disproof rests on a repetition).  lookup() reads the table (and the
    endgame tables) only.
    """
    cdef DfpnCtx c
    cdef DfpnTable shared        # its table (its own, or the one given), kept alive
    cdef bint busy
    cdef object tables           # the endgame tables c.tables points into, kept alive

    def __cinit__(self, tt_bits=None, tables=None, table=None):
        if table is not None and not isinstance(table, DfpnTable):
            raise ArgumentTypeError(f"table must be None or a DfpnTable, "
                                    f"not {type(table).__name__}")
        if table is not None and tt_bits is not None:
            raise ArgumentError("give tt_bits or table, not both (the table has its size)")
        memset(&self.c, 0, sizeof(DfpnCtx))
        self.c.tables = table_arg(tables)
        self.tables = tables
        self.shared = DfpnTable(tt_bits) if table is None else table
        self.c.slots, self.c.mask = self.shared.slots, self.shared.mask
        self.c.frames = <DfpnFrame**>calloc(DFPN_MAX_PATH, sizeof(DfpnFrame*))
        if self.c.frames == NULL:
            raise MemoryError("dfpn: cannot allocate the search's frames")

    def __dealloc__(self):
        cdef int i
        if self.c.frames != NULL:
            for i in range(DFPN_MAX_PATH):
                free(self.c.frames[i])
        free(self.c.frames)
        free(self.c.walked)
        free(self.c.marked)

    @property
    def nodes(self):
        """Positions made by every call so far."""
        return self.c.nodes

    @property
    def tt_bits(self):
        """The table holds 2**tt_bits entries."""
        return self.shared.tt_bits

    @property
    def table(self):
        """Its DfpnTable (its own, or the one given)."""
        return self.shared

    cdef void _ask(self, int question) noexcept:
        self.c.question = question
        self.c.salt = dfpn_salt(question)

    cdef bint _search(self, const IntPosition* root, int question, unsigned int thpn,
                      unsigned int thdn, object max_nodes, DfpnOut* out) except -1:
        """df-pn on the question at root (unfinished) until its proof number
        reaches thpn or its disproof number thdn (DFPN_INF for both: until
        settled, as one search from the root), it is settled, or max_nodes
        nodes (None: no budget) are spent: its numbers into out.  Returns
        whether the budget stopped it; raises if Ctrl-C, cancel_jobs(),
        memory or the thread's stack did."""
        cdef JobStop js
        cdef int stop
        cdef char* low = katra_stack_low()
        if self.busy:
            raise RuntimeError("this DfpnSolver is already in use (one thread at a time)")
        self._ask(question)
        self.c.max_nodes = 0 if max_nodes is None else self.c.nodes + <u64>max_nodes
        self.c.stop = 0
        self.c.stack_floor = low + SOLVE_STACK_SPARE if low != NULL else NULL
        memset(self.c.filter, 0, sizeof(self.c.filter))
        job_stop_init(&js)
        self.c.js = &js
        self.busy = 1
        with nogil:
            dfpn_root_within(&self.c, root, thpn, thdn, out)
        self.busy = 0
        self.c.js = NULL
        stop = self.c.stop
        raise_if_stopped(&js)
        if stop == DFPN_STOP_MEMORY:
            raise MemoryError("dfpn: cannot allocate the search's frames")
        if stop == DFPN_STOP_STACK:
            raise RecursionError("dfpn: this thread's stack is too small for the search's "
                                 "paths (use a thread with a larger stack)")
        return stop != 0

    cdef int _finished(self, const IntPosition* st, int question):
        """-1 if st is unfinished; else 1 if the finished game answers the question
        (the player forces the target), 0 if not."""
        cdef int winner, south, north
        if node_unfinished(st, &self.c.scratch):
            return -1
        outcome_of(st, &winner, &south, &north)
        return solve_good(winner, question)

    def prove(self, pos, player, target, max_nodes=None):
        """(status, depth) of the question at pos: see the class."""
        cdef Position p = _check_position(pos)
        cdef int question = _question_arg(player, target)
        cdef DfpnOut out
        cdef int finished = self._finished(&p.st, question)
        if max_nodes is not None:
            max_nodes = _int_arg(max_nodes, "max_nodes", 1, MAX_COUNT)
        if finished >= 0:
            return (finished, 0)
        if self._search(&p.st, question, DFPN_INF, DFPN_INF, max_nodes, &out):
            return (-1, 0)
        return _dfpn_status(out.pn, out.dn, out.loop == DFPN_FREE, out.depth)

    def lookup(self, pos, player, target):
        """(status, depth) of the question at pos from the tables alone (no
        search: the endgame tables, if given, then the transposition table): 1
        proven, 0 disproven, -1 not known."""
        cdef Position p = _check_position(pos)
        cdef int question = _question_arg(player, target)
        cdef DfpnEntry answer
        cdef DfpnEntry* e
        cdef int finished = self._finished(&p.st, question)
        if finished >= 0:
            return (finished, 0)
        e = self._known_at(&p.st, question, &answer)
        if e == NULL:
            return (-1, 0)
        return _dfpn_status(e.pn, e.dn, not (e.pn & DFPN_PATH_MARK), e.depth)

    def numbers(self, pos, player, target):
        """(pn, dn, depth) of the question at pos from the tables alone (no
        search), or None if they hold no entry: the proof and disproof numbers
        (0 and 2**30 - 1 once proven, the reverse once disproven whatever
        the path) and a proven node's proof depth (else 0); a disproof that
        rests on some path is not known here (None).  A finished game: (0, 2**30 - 1, 0) if
        good for player, else (2**30 - 1, 0, 0).  children_numbers() reads
        every child's at once."""
        cdef Position p = _check_position(pos)
        return self._numbers_at(&p.st, _question_arg(player, target))

    def search(self, pos, player, target, pn_limit, dn_limit, max_nodes):
        """df-pn at pos until its proof number reaches pn_limit or its
        disproof number dn_limit (ints in 2..2**30 - 1: the thresholds df-pn
        gives a child), it is settled, or max_nodes (1..2**62) nodes are
        spent: (status, depth, numbers), status and depth as prove()'s and
        numbers its (pn, dn) on leaving, None if the budget stopped it.  The
        jobs of a split solve (katra.api._dfpn_jobs) run it."""
        cdef Position p = _check_position(pos)
        cdef int question = _question_arg(player, target)
        cdef DfpnOut out
        cdef unsigned int thpn = <unsigned int>_int_arg(pn_limit, "pn_limit", 2, DFPN_INF)
        cdef unsigned int thdn = <unsigned int>_int_arg(dn_limit, "dn_limit", 2, DFPN_INF)
        cdef int finished, pn
        max_nodes = _int_arg(max_nodes, "max_nodes", 1, MAX_COUNT)
        finished = self._finished(&p.st, question)
        if finished >= 0:
            pn = 0 if finished else DFPN_INF
            return (finished, 0, (pn, DFPN_INF - pn))
        if self._search(&p.st, question, thpn, thdn, max_nodes, &out):
            return (-1, 0, None)
        return _dfpn_status(out.pn, out.dn, out.loop == DFPN_FREE, out.depth) + ((out.pn, out.dn),)

    cdef DfpnEntry* _known_at(self, const IntPosition* st, int question, DfpnEntry* answer):
        """What is known of the question at st (unfinished) without a search: the
        endgame tables' answer (copied into answer), else the table's entry, or
        NULL."""
        cdef NodeBox box
        cdef int tabled
        answer.depth = 0
        if (self.c.tables != NULL and node_root(&box, st) == NODE_DJENON_ABOURE
                and table_answer(self.c.tables, &box.djenon, question, &answer.depth, &tabled)):
            answer.pn = 0 if tabled else DFPN_INF
            answer.dn = DFPN_INF - answer.pn
            return answer
        self._ask(question)
        return dfpn_find(&self.c, dfpn_root_key(st))

    cdef object _numbers_at(self, const IntPosition* st, int question):
        """numbers() of the position st, for the question."""
        cdef DfpnEntry answer
        cdef DfpnEntry* e
        cdef int finished = self._finished(st, question)
        cdef int pn = 0 if finished else DFPN_INF
        if finished >= 0:
            return (pn, DFPN_INF - pn, 0)
        e = self._known_at(st, question, &answer)
        if e == NULL or e.pn & DFPN_PATH_MARK:   # a disproof for some path: not known here
            return None
        return (e.pn, e.dn, e.depth if e.pn == 0 else 0)

    def children_numbers(self, pos, player, target):
        """numbers() of each child of pos, in legal-action order (a tuple: one
        item per legal action, () for a finished game), in one call: what a
        job of a split solve (katra.api._dfpn_jobs) sends back of its leaf's
        children when its budget ran out.  Each child is a few table reads, so
        the GIL is kept (releasing it would cost more than the reads)."""
        cdef Position p = _check_position(pos)
        cdef int question = _question_arg(player, target)
        cdef int acts[MAX_CANDIDATES]
        cdef int n = legal_actions_c(&p.st, acts)
        cdef int k
        cdef IntPosition child
        found = []
        for k in range(n):
            action_legal(&p.st, acts[k], &child)
            found.append(self._numbers_at(&child, question))
        return tuple(found)
