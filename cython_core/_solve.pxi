# The solver (docs/solve.md): exact values and distances within a ply bound,
# as docs/rules.md §6.3 defines them.
#
# Everything reduces to one predicate, F(p, P, t, k): "player P can force the
# game to end within k plies with an outcome of at least t for P" (t: a draw
# or better, or a win).  It is monotone in k, so its least k (the predicate's
# threshold) is a fact about the position alone, and a transposition table
# keyed by the position keeps, per predicate, the least bound known to suffice
# and the largest known not to: both stay true whatever path reaches the
# position, so every entry is reusable at every bound.  The four thresholds
# of a position (South/North x draw/win) give its value: lo_N and hi_N
# (§6.3) are the predicates of the player to move and of the opponent.
#
# F is an AND/OR search: at a node of P one child must satisfy F at k - 1
# (OR), at the opponent's every child must (AND).  Goré's answers keep the
# turn and Djenon-aboure's pass is an ordinary child: predicates name players,
# not "the side to move", so neither needs a special case.
#
# Everything below Solver's methods runs without the GIL; a solve is a job
# (_stop.pxi): Ctrl-C or cancel_jobs() stops it within milliseconds.

cdef extern from *:
    """
    #if defined(__linux__)
    #include <pthread.h>
    /* The lowest address of the calling thread's stack, or NULL if unknown. */
    static char* katra_stack_low(void) {
        pthread_attr_t attr;
        void* addr = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return NULL;
        if (pthread_attr_getstack(&attr, &addr, &size) != 0) addr = NULL;
        pthread_attr_destroy(&attr);
        return (char*)addr;
    }
    /* The current frame (not a local's address: sanitizers may move locals off the stack). */
    #define katra_stack_here() ((char*)__builtin_frame_address(0))
    #else
    static char* katra_stack_low(void) { return NULL; }
    #define katra_stack_here() ((char*)0)
    #endif
    """
    char* katra_stack_low() noexcept nogil
    char* katra_stack_here() noexcept nogil

cdef enum:
    MAX_SOLVE_PLIES = 500        # the largest bound accepted
    SOLVE_OPEN = -1              # a threshold not found within the bound searched
    SOLVE_INFINITE = 1 << 20     # a threshold known not to exist (the predicate never holds)
    SOLVE_POLL_NODES = 512       # poll the job's stop and the clock every 512 nodes
    SOLVE_NODE_WORK = 8          # a node's weight in job polls (as search's)
    SOLVE_STACK_SPARE = 12 * 1024   # stack kept free below the recursion (bytes)
    SOLVE_STOP_JOB = 1           # SolveCtx.stop: Ctrl-C or cancel_jobs()
    SOLVE_STOP_CLOCK = 2         # the clock ran out
    SOLVE_STOP_STACK = 3         # the thread's stack is too small for this bound

ctypedef struct SolveLists:      # one ply's move lists (on the heap, as search's)
    Children kids                # the legal children, produced one at a time
    int keys[MAX_CANDIDATES]     # ordering keys
    int order[MAX_CANDIDATES]
    u64 hashes[MAX_CANDIDATES]   # the children's table keys (node_key)

ctypedef struct SolveCtx:
    SolveSlots* table            # the transposition table (_solve_table.pxi)
    u64 nodes
    u64 poll_at                  # the next poll when nodes reaches it (solve_tick)
    u64 polled                   # nodes at the last poll
    double deadline              # < 0: no clock
    int stop                     # SOLVE_STOP_*, 0 while running
    char* stack_floor            # the recursion stops (SOLVE_STOP_STACK) below this
                                 # address: a deep bound in a small thread stack
    int plies                    # the plies the buffers below hold
    JobStop* js
    IntPosition* children              # [plies + 1][MAX_CANDIDATES] (a lane search keeps its
                                 # smaller nodes there: MAX_CANDIDATES of them a ply)
    SolveLists* lists            # [plies + 1]
    # The last ply's scratch (solve_last_ply, node_unfinished: they do not
    # recurse), here rather than in their frames, which the recursion's would hold.
    Children last_ply
    NodeScratch scratch
    const EndTable* tables       # endgame tables (docs/tables.md), or NULL


# ---------------------------------------------------------------- the search

cdef void solve_poll(SolveCtx* c) noexcept nogil:
    """Every SOLVE_POLL_NODES nodes: set c.stop if the job must stop (Ctrl-C,
    cancel_jobs()) or the clock has run out."""
    if job_should_stop(c.js, SOLVE_NODE_WORK * <long long>(c.nodes - c.polled)):
        c.stop = SOLVE_STOP_JOB
    elif c.deadline >= 0 and monotonic_seconds() >= c.deadline:
        c.stop = SOLVE_STOP_CLOCK
    solve_poll_start(c)


cdef inline void solve_poll_start(SolveCtx* c) noexcept nogil:
    """The next poll SOLVE_POLL_NODES nodes from now (before a job, and after
    each poll)."""
    c.polled = c.nodes
    c.poll_at = c.nodes + SOLVE_POLL_NODES


cdef inline int solve_tick(SolveCtx* c, int nodes) noexcept nogil:
    """Count nodes visited (polling every SOLVE_POLL_NODES); c.stop: the job must stop."""
    c.nodes += nodes
    if c.nodes >= c.poll_at:
        solve_poll(c)
    return c.stop


cdef inline int solve_leaf(SolveCtx* c, const Node* s, int question) noexcept nogil:
    """F(s, question, 0): only a finished game can satisfy it."""
    if node_unfinished(s, &c.scratch):
        return 0
    return solve_good(node_winner(s), question)


cdef inline int solve_last_ply(SolveCtx* c, const Node* s, int question, bint or_node,
                               Node* child) noexcept nogil:
    """F(s, question, 1): its children are leaves, generated one at a time and only
    until one decides (OR: a finished game good for P; AND: a child that is
    not); each child visited is a node.  No table: a fact at one ply is
    cheaper to find again than to keep (it would take a slot from a deeper one)."""
    cdef Children* it = &c.last_ply
    cdef int r, a, seen = 0
    if Node is GoreNode:
        # AND: the first child most often refutes (it is unfinished): named
        # without listing the others, and if it does not, listed again below
        if not or_node and node_first_child(s, child, it) >= 0:
            if solve_leaf(c, child, question) == 0:
                solve_tick(c, 1)
                return 0
    node_children_begin(it, s, 1)
    a = node_children_next(it, s, child)
    while a >= 0:
        seen += 1
        r = solve_leaf(c, child, question)
        if r == or_node:
            break
        a = node_children_next(it, s, child)
    if solve_tick(c, seen):
        return 0
    if seen == 0:                # finished
        return solve_good(node_winner(s), question)
    return or_node if a >= 0 else not or_node


cdef inline int solve_one_ply(SolveCtx* c, const Node* s, int question, int ply) noexcept nogil:
    """F(s, question, 1), a node, inline in solve_two_plies (which recurses no
    deeper, so its frame may hold the last ply's locals; solve_forces'
    may not: it calls solve_at_one_ply)."""
    cdef unsigned int plies
    cdef int r
    if solve_tick(c, 1):
        return 0
    # endgame tables (docs/tables.md): never forced, or forced within one ply
    if c.tables != NULL and table_answer(c.tables, s, question, &plies, &r) and (r == 0 or plies <= 1):
        return r
    return solve_last_ply(c, s, question, s.to_move == (question >> 1),
                          <Node*>&c.children[ply * MAX_CANDIDATES])


cdef int solve_at_one_ply(SolveCtx* c, const Node* s, int question, int ply) noexcept nogil:
    """solve_one_ply in a frame of its own (a search from a bound of 1)."""
    return solve_one_ply(c, s, question, ply)


cdef int solve_two_plies(SolveCtx* c, const Node* s, u64 key, int question, bint or_node,
                         int ply) noexcept nogil:
    """F(s, question, 2) when the table does not decide it: the children (whose
    searches at one ply use no table) made one at a time, in action order, and
    only until one decides; no ordering by gains, no probes of the children."""
    cdef Children* it = &c.lists[ply].kids
    cdef Node* child = <Node*>&c.children[ply * MAX_CANDIDATES]
    cdef int r, winner, n = 0
    if Node is GoreNode:
        # AND: the first child most often refutes: searched before the others
        # are listed, and skipped when they are
        if not or_node and node_first_child(s, child, it) >= 0:
            r = solve_one_ply(c, child, question, ply + 1)
            if c.stop:
                return 0
            if r == or_node:
                solve_store(c.table, key, question, 2, r)
                return r
            n = 1
    node_children_begin(it, s, 1)
    if n:
        node_children_next(it, s, child)
    while node_children_next(it, s, child) >= 0:
        n += 1
        r = solve_one_ply(c, child, question, ply + 1)
        if c.stop:
            return 0
        if r == or_node:         # OR: one child suffices; AND: one child refutes
            solve_store(c.table, key, question, 2, r)
            return r
    if n == 0:
        winner = node_winner(s)
        solve_store_finished(c.table, key, winner)
        return solve_good(winner, question)
    solve_store(c.table, key, question, 2, not or_node)
    return not or_node


cdef int solve_forces(SolveCtx* c, const Node* s, u64 key, int question, int k,
                      int ply) noexcept nogil:
    """F(s, question, k): 1 or 0 (0 too once c.stop is set; callers check it).  key:
    node_key(s), unused at k <= 1.  ply < c.plies."""
    cdef Children* it
    cdef int* keys
    cdef int* order
    cdef u64* hashes
    cdef Node* children
    cdef int n, i, j, best, r, winner, before, gains
    cdef unsigned int plies
    cdef bint or_node = s.to_move == (question >> 1)

    if k == 1:
        return solve_at_one_ply(c, s, question, ply)
    if solve_tick(c, 1):
        return 0
    if katra_stack_here() < c.stack_floor:
        c.stop = SOLVE_STOP_STACK
        return 0

    if k == 0:
        return solve_leaf(c, s, question)
    # endgame tables (docs/tables.md): never forced, or forced within k
    if c.tables != NULL and table_answer(c.tables, s, question, &plies, &r) and (r == 0 or plies <= k):
        return r

    r = solve_probe(c.table, key, question, k)
    if r >= 0:
        return r
    if k == 2:
        return solve_two_plies(c, s, key, question, or_node, ply)

    children = <Node*>&c.children[ply * MAX_CANDIDATES]
    it = &c.lists[ply].kids
    keys = c.lists[ply].keys
    order = c.lists[ply].order
    hashes = c.lists[ply].hashes
    # Each child's slot is fetched as soon as the child is made, so that the
    # cache misses overlap one another and the making of the next children;
    # then a child the table already decides at k - 1 settles the node at once.
    # (Probing each child as the next is made, so that none is made after one
    # that decides, costs more instructions and more time.)
    node_children_begin(it, s, 1)
    n = 0
    while node_children_next(it, s, &children[n]) >= 0:
        hashes[n] = node_key(&children[n])
        katra_prefetch(solve_slot(c.table, hashes[n]))
        n += 1
    if n == 0:
        winner = node_winner(s)
        solve_store_finished(c.table, key, winner)
        return solve_good(winner, question)
    for i in range(n):
        if solve_probe(c.table, hashes[i], question, k - 1) == or_node:
            solve_store(c.table, key, question, k, or_node)
            return or_node

    # Order: the mover's best gains first (the attacker's at OR nodes, the
    # defender's at AND nodes: the likeliest proof, or refutation, first).
    before = node_material(s, s.to_move)
    gains = 0
    for i in range(n):
        order[i] = i
        keys[i] = node_material(&children[i], s.to_move) - before
        gains |= keys[i] ^ keys[0]

    for i in range(n):
        if gains:                # else every key is equal: the order stays as listed
            best = i             # selection sort step: the best remaining key to slot i
            for j in range(i + 1, n):
                if keys[order[j]] > keys[order[best]]:
                    best = j
            j = order[best]
            order[best] = order[i]
            order[i] = j
        j = order[i]
        r = solve_forces(c, &children[j], hashes[j], question, k - 1, ply + 1)
        if c.stop:
            return 0
        if r == or_node:         # OR: one child suffices; AND: one child refutes
            solve_store(c.table, key, question, k, r)
            return r
    solve_store(c.table, key, question, k, not or_node)
    return not or_node


cdef inline int solve_packed(SolveCtx* c, Node* node, int question, int k, int ply) noexcept nogil:
    return solve_forces(c, node, node_key(node), question, k, ply)


# solve_root(c, s, question, k, ply): F(s, question, k) from a position on the int form, by
# solve_packed on its working form (_dispatch.pxi.in).
