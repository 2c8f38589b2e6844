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

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define katra_prefetch(p) __builtin_prefetch((const void*)(p))
    #else
    #define katra_prefetch(p) ((void)0)
    #endif
    """
    void katra_prefetch(const void* p) noexcept nogil

cdef enum:
    SOLVE_MAX_PLIES = 500        # the largest bound accepted
    SOLVE_OPEN = -1              # a threshold not found within the bound searched
    SOLVE_INFINITE = 1 << 20     # a threshold known not to exist (the predicate never holds)
    SOLVE_CLOCK_MASK = 1023      # look at the clock every 1024 nodes
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
    SolveTable* table            # the transposition table (_solve_table.pxi)
    u64 nodes
    double deadline              # < 0: no clock
    int stop                     # SOLVE_STOP_*, 0 while running
    char* stack_floor            # the recursion stops (SOLVE_STOP_STACK) below this
                                 # address: a deep bound in a small thread stack
    int plies                    # the plies the buffers below hold
    JobStop* js
    State* children              # [plies + 1][MAX_CANDIDATES] (a lane search keeps its
                                 # smaller nodes there: MAX_CANDIDATES of them a ply)
    SolveLists* lists            # [plies + 1]
    # The last ply's scratch (solve_last_ply, node_unfinished: they do not
    # recurse), here rather than in their frames, which the recursion's would hold.
    Children last_ply
    NodeScratch scratch


# ---------------------------------------------------------------- the search

cdef inline int solve_tick(SolveCtx* c, int nodes) noexcept nogil:
    """Count nodes visited and set c.stop if the job must stop; c.stop."""
    c.nodes += nodes
    if job_should_stop(c.js, SOLVE_NODE_WORK * nodes):
        c.stop = SOLVE_STOP_JOB
    elif c.deadline >= 0 and (c.nodes & SOLVE_CLOCK_MASK) < <u64>nodes:
        if monotonic_seconds() >= c.deadline:
            c.stop = SOLVE_STOP_CLOCK
    return c.stop


cdef inline int solve_leaf(SolveCtx* c, const Node* s, int pi) noexcept nogil:
    """F(s, pi, 0): only a finished game can satisfy it."""
    if node_unfinished(s, &c.scratch):
        return 0
    return solve_good(node_winner(s), pi)


cdef int solve_last_ply(SolveCtx* c, const Node* s, u64 key, int pi, bint or_node,
                        Node* child) noexcept nogil:
    """F(s, pi, 1), or -1 if s is finished: its children are leaves, generated
    one at a time and only until one decides (OR: a finished game good for P;
    AND: a child that is not); no table below.  Each child visited is a node."""
    cdef Children* it = &c.last_ply
    cdef int r, a, seen = 0
    node_children_begin(it, s)
    a = node_children_next(it, s, child)
    while a >= 0:
        seen += 1
        r = solve_leaf(c, child, pi)
        if r == or_node:
            break
        a = node_children_next(it, s, child)
    if seen == 0:
        return -1
    r = or_node if a >= 0 else not or_node
    if solve_tick(c, seen):
        return 0
    solve_store(c.table, key, pi, 1, r)
    return r


cdef int solve_forces(SolveCtx* c, const Node* s, u64 key, int pi, int k,
                      int ply) noexcept nogil:
    """F(s, pi, k): 1 or 0 (0 too once c.stop is set; callers check it).  key:
    node_key(s), unused at k == 0.  ply < c.plies."""
    cdef Children* it
    cdef int* keys
    cdef int* order
    cdef u64* hashes
    cdef Node* children
    cdef int n, i, j, best, r, winner, before, gains
    cdef bint or_node = s.to_move == (pi >> 1)

    if solve_tick(c, 1):
        return 0
    if katra_stack_here() < c.stack_floor:
        c.stop = SOLVE_STOP_STACK
        return 0

    if k == 0:
        return solve_leaf(c, s, pi)

    r = solve_probe(c.table, key, pi, k)
    if r >= 0:
        return r

    children = <Node*>&c.children[ply * MAX_CANDIDATES]
    if k == 1:
        r = solve_last_ply(c, s, key, pi, or_node, children)
        if r >= 0:
            return r

    it = &c.lists[ply].kids
    keys = c.lists[ply].keys
    order = c.lists[ply].order
    hashes = c.lists[ply].hashes
    node_children_begin(it, s)
    n = 0
    while node_children_next(it, s, &children[n]) >= 0:
        n += 1
    if n == 0:
        winner = node_winner(s)
        solve_store_finished(c.table, key, winner)
        return solve_good(winner, pi)

    # A child the table already decides at k - 1 settles the node at once.
    # (The children's slots are fetched first, so that their cache misses overlap.)
    for i in range(n):
        hashes[i] = node_key(&children[i])
        katra_prefetch(solve_slot(c.table, hashes[i]))
    for i in range(n):
        r = solve_probe(c.table, hashes[i], pi, k - 1)
        if r == or_node:
            solve_store(c.table, key, pi, k, r)
            return r

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
        r = solve_forces(c, &children[j], hashes[j], pi, k - 1, ply + 1)
        if c.stop:
            return 0
        if r == or_node:         # OR: one child suffices; AND: one child refutes
            solve_store(c.table, key, pi, k, r)
            return r
    solve_store(c.table, key, pi, k, not or_node)
    return not or_node


cdef inline int solve_packed(SolveCtx* c, Node* node, int pi, int k, int ply) noexcept nogil:
    return solve_forces(c, node, node_key(node), pi, k, ply)


cdef int solve_root(SolveCtx* c, const State* s, int pi, int k, int ply) noexcept nogil:
    """F(s, pi, k) from a position on the State form, on its working form
    (node_root).  Its key is node_key's, as every node's below.  ply < c.plies."""
    cdef NodeBox box
    cdef int kind = node_root(&box, s)
    if kind == NODE_STATE:
        return solve_packed(c, &box.state, pi, k, ply)
    if kind == NODE_KATRO:
        return solve_packed(c, &box.katro, pi, k, ply)
    if kind == NODE_KATRO_4X6:
        return solve_packed(c, &box.katro4x6, pi, k, ply)
    if kind == NODE_KATRO_4X4:
        return solve_packed(c, &box.katro4x4, pi, k, ply)
    if kind == NODE_MPANTSAKA:
        return solve_packed(c, &box.mpantsaka, pi, k, ply)
    if kind == NODE_MPANTSAKA_SIMPLIFIED:
        return solve_packed(c, &box.simplified, pi, k, ply)
    if kind == NODE_DJENON:
        return solve_packed(c, &box.djenon, pi, k, ply)
    return solve_packed(c, &box.gore, pi, k, ply)


cdef inline bint threshold_known(int t) noexcept nogil:
    return 0 <= t < SOLVE_INFINITE


cdef bint thresholds_resolved(const int* thr) noexcept nogil:
    """The value is known: someone's win is proven, or both sides' draw-or-better."""
    return (threshold_known(thr[TARGET_WIN]) or threshold_known(thr[2 + TARGET_WIN])
            or (threshold_known(thr[TARGET_DRAW]) and threshold_known(thr[2 + TARGET_DRAW])))


cdef void thresholds_close(int* thr) noexcept nogil:
    """The thresholds that can no longer exist: a player who forces a draw or
    better leaves the other no win; one who forces a win leaves the other nothing."""
    cdef int p, other, k
    for p in range(2):
        other = 2 * (1 - p)
        if threshold_known(thr[2 * p + TARGET_DRAW]) and thr[other + TARGET_WIN] == SOLVE_OPEN:
            thr[other + TARGET_WIN] = SOLVE_INFINITE
        if threshold_known(thr[2 * p + TARGET_WIN]):
            for k in range(2):
                if thr[other + k] == SOLVE_OPEN:
                    thr[other + k] = SOLVE_INFINITE


cdef int solve_thresholds(SolveCtx* c, const State* root, int first, int max_bound,
                          int* thr, int players) noexcept nogil:
    """The four thresholds of root by iterative deepening on the bound N =
    first..max_bound, until the value is resolved: each exact (found at N and
    not at N - 1), SOLVE_INFINITE or SOLVE_OPEN (above the bound).  thr holds
    what is known on entry (all SOLVE_OPEN, or what an earlier call found up to
    bound first - 1).  players: bit p set to ask player p's questions (a split
    solve asks one player's at a time).  Returns the last bound completed (first - 1 if none; a
    finished root: max_bound)."""
    cdef int winner, south, north, n, pi, p, bound = first - 1
    cdef int saved[SOLVE_PREDICATES]
    if not node_unfinished(root, &c.scratch):
        outcome_of(root, &winner, &south, &north)
        for pi in range(SOLVE_PREDICATES):
            thr[pi] = 0 if solve_good(winner, pi) else SOLVE_INFINITE
        return max_bound
    if thresholds_resolved(thr):
        return max_bound
    for n in range(first, max_bound + 1):
        memcpy(saved, thr, sizeof(saved))
        for p in range(2):
            if not (players >> p) & 1:
                continue
            pi = 2 * p + TARGET_DRAW
            if thr[pi] == SOLVE_OPEN and solve_root(c, root, pi, n, 0):
                thr[pi] = n
            if c.stop:
                break
            # a win is a draw or better: no need to try it before that holds
            if threshold_known(thr[pi]) and thr[pi + 1] == SOLVE_OPEN:
                if solve_root(c, root, pi + 1, n, 0):
                    thr[pi + 1] = n
            if c.stop:
                break
        if c.stop:
            memcpy(thr, saved, sizeof(saved))   # a bound half searched proves nothing new
            return bound
        bound = n
        solve_grow(c.table)
        thresholds_close(thr)
        if thresholds_resolved(thr):
            break
    return bound


cdef int solve_best_child(SolveCtx* c, const State* root, const int* thr, int* best) noexcept nogil:
    """The best action of a resolved, unfinished root (docs/solve.md): the least
    action whose child keeps the threshold d of the deciding predicate exactly
    d - 1 (a win: the shortest; a loss: the longest resistance; a draw: the
    fastest hold).  Sets *best (-1 if unresolved); returns 0."""
    cdef int acts[MAX_CANDIDATES]
    cdef int m = root.to_move
    cdef int o = 1 - m
    cdef int pi, d, n, i
    cdef State* child = &c.children[0]   # ply 0's slots: the searches below start at ply 1
    best[0] = -1
    if threshold_known(thr[2 * m + TARGET_WIN]):
        pi = 2 * m + TARGET_WIN
    elif threshold_known(thr[2 * o + TARGET_WIN]):
        pi = 2 * o + TARGET_WIN
    elif threshold_known(thr[2 * m + TARGET_DRAW]) and threshold_known(thr[2 * o + TARGET_DRAW]):
        pi = 2 * m + TARGET_DRAW
    else:
        return 0
    d = thr[pi]
    n = legal_actions_c(root, acts)
    for i in range(n):
        copy_hot(child, root)
        play(child, acts[i], LAP_LIMIT_C)
        if not solve_root(c, child, pi, d - 1, 1):
            if c.stop:
                return 0
            continue
        if d >= 2:
            if solve_root(c, child, pi, d - 2, 1) or c.stop:
                if c.stop:
                    return 0
                continue
        best[0] = acts[i]
        return 0
    return 0


cdef int _solve_bound_arg(object value, str name, int minimum) except -1:
    """A ply bound in minimum..SOLVE_MAX_PLIES (ArgumentTypeError, ArgumentError)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if not minimum <= value <= SOLVE_MAX_PLIES:
        raise ArgumentError(f"{name} must be in {minimum}..{SOLVE_MAX_PLIES}, got {value}")
    return value


cdef int _read_thresholds(object thresholds, int* thr) except -1:
    """A Python thresholds list (ints -1..500, None for never) into thr."""
    if not isinstance(thresholds, (list, tuple)):
        raise ArgumentTypeError(f"thresholds must be a list of 4 entries, not "
                                f"{type(thresholds).__name__}")
    if len(thresholds) != SOLVE_PREDICATES:
        raise ArgumentError("thresholds must be a list of 4 entries")
    for k in range(SOLVE_PREDICATES):
        t = thresholds[k]
        if t is None:
            thr[k] = SOLVE_INFINITE
        elif isinstance(t, int) and not isinstance(t, bool) and -1 <= t <= SOLVE_MAX_PLIES:
            thr[k] = t
        elif isinstance(t, bool) or not isinstance(t, int):
            raise ArgumentTypeError(f"threshold {k} must be None or an int in "
                                    f"-1..{SOLVE_MAX_PLIES}, not {type(t).__name__}")
        else:
            raise ArgumentError(f"threshold {k} must be None or an int in -1..{SOLVE_MAX_PLIES}")
    return 0


cdef class Solver:
    """An exact solver with its transposition table (docs/solve.md), kept
    between calls so that a line of positions reuses what earlier calls proved.

    tt_bits: its own table holds 2**tt_bits entries of 24 bytes (10..28;
    None: 2**16 entries, grown between bounds as the search needs, up to 2**20,
    24 MiB).  table: a SolverTable to use instead, shared with the Solvers of
    other threads (then tt_bits must be None).  One thread at a time may use
    a Solver.
    """
    cdef SolveCtx c
    cdef SolveTable own          # its own table (table None)
    cdef SolverTable shared      # the table given, kept alive as long as the Solver
    cdef bint busy

    def __cinit__(self, tt_bits=None, table=None):
        cdef int bits = SOLVE_FIRST_BITS, max_bits = SOLVE_DEFAULT_MAX_BITS
        if table is not None and not isinstance(table, SolverTable):
            raise ArgumentTypeError(f"table must be None or a SolverTable, "
                                    f"not {type(table).__name__}")
        if tt_bits is not None:
            bits = max_bits = _solve_bits_arg(tt_bits)
            if table is not None:
                raise ArgumentError("give tt_bits or table, not both (the table has its size)")
        memset(&self.c, 0, sizeof(SolveCtx))
        if table is None:
            solve_table_init(&self.own, bits, max_bits)
            self.c.table = &self.own
        else:
            self.shared = table
            self.c.table = &self.shared.t

    def __dealloc__(self):
        solve_table_free(&self.own)   # nothing if shared: the SolverTable frees its own
        free(self.c.children)
        free(self.c.lists)

    cdef int _reserve(self, int plies) except -1:
        """Buffers for searches of up to plies plies."""
        cdef State* children
        cdef SolveLists* lists
        if plies <= self.c.plies:
            return 0
        children = <State*>malloc((plies + 1) * MAX_CANDIDATES * sizeof(State))
        lists = <SolveLists*>malloc((plies + 1) * sizeof(SolveLists))
        if children == NULL or lists == NULL:
            free(children)
            free(lists)
            raise MemoryError("solve: cannot allocate the search buffers")
        free(self.c.children)
        free(self.c.lists)
        self.c.children = children
        self.c.lists = lists
        self.c.plies = plies + 1
        return 0

    cdef int _begin(self, JobStop* js, object time_seconds) except -1:
        cdef char* low = katra_stack_low()
        if self.busy:
            raise RuntimeError("this Solver is already in use (one thread at a time)")
        job_stop_init(js)
        self.c.js = js
        self.c.stop = 0
        self.c.stack_floor = low + SOLVE_STACK_SPARE if low != NULL else NULL
        self.c.deadline = -1.0
        if time_seconds is not None:
            if isinstance(time_seconds, bool) or not isinstance(time_seconds, (int, float)):
                raise ArgumentTypeError(f"time_seconds must be None or a positive number, "
                                        f"not {type(time_seconds).__name__}")
            if not 0 < time_seconds <= SEARCH_MAX_SECONDS:
                raise ArgumentError(f"time_seconds must be in (0, {SEARCH_MAX_SECONDS}], "
                                    f"got {time_seconds!r}")
            self.c.deadline = monotonic_seconds() + time_seconds
        self.busy = 1
        return 0

    cdef int _end(self, JobStop* js) except -1:
        self.busy = 0
        self.c.js = NULL
        raise_if_stopped(js)
        if self.c.stop == SOLVE_STOP_STACK:
            raise RecursionError("solve: this thread's stack is too small for a bound this "
                                 "deep (use a thread with a larger stack)")
        return 0

    @property
    def nodes(self):
        """Positions visited by every call so far."""
        return self.c.nodes

    def thresholds(self, pos, max_bound, time_seconds=None, known=None, players=(0, 1)):
        """(thresholds, bound, timed_out): the least bounds within which South
        forces a draw or better, South a win, North a draw or better, North a
        win (each an int, -1 if not within bound, or None if never), found by
        iterative deepening up to max_bound (1..500) until the value is known;
        bound: the largest bound completed; timed_out: the clock stopped it.
        known: None, or (thresholds, bound) of an earlier call on the same
        position: the search then resumes at bound + 1.  players: whose
        questions to ask (both by default; the others' stay as known)."""
        cdef Position p = _check_position(pos)
        cdef int plies = _solve_bound_arg(max_bound, "max_bound", 1)
        cdef int thr[SOLVE_PREDICATES]
        cdef int bound, k, first = 1, mask = 0
        cdef State root = p.st
        cdef JobStop js
        if not isinstance(players, tuple) or not players or any(
                type(q) is not int or q not in (0, 1) for q in players):
            raise ArgumentError(f"players must be a tuple of 0 and/or 1, got {players!r}")
        for q in players:
            mask |= 1 << q
        for k in range(SOLVE_PREDICATES):
            thr[k] = SOLVE_OPEN
        if known is not None:
            if not isinstance(known, tuple) or len(known) != 2:
                raise ArgumentError("known must be None or a (thresholds, bound) pair")
            first = _solve_bound_arg(known[1], "the known bound", 0) + 1
            if first > SOLVE_MAX_PLIES:
                raise ArgumentError(f"the known bound must be an int in 0..{SOLVE_MAX_PLIES - 1}")
            _read_thresholds(known[0], thr)
        self._reserve(plies)
        self._begin(&js, time_seconds)
        with nogil:
            bound = solve_thresholds(&self.c, &root, first, plies, thr, mask)
        timed_out = self.c.stop == SOLVE_STOP_CLOCK
        self._end(&js)
        return ([None if thr[k] == SOLVE_INFINITE else thr[k] for k in range(SOLVE_PREDICATES)],
                bound, timed_out)

    def forces(self, pos, player, target, plies):
        """F(pos, player, target, plies): can player (0 South, 1 North) force
        the game to end within plies plies (0..500) with a draw or better
        (target 0) or a win (target 1)?"""
        cdef Position p = _check_position(pos)
        cdef int k, pi, r
        cdef State root = p.st
        cdef JobStop js
        if type(player) is not int or type(target) is not int:
            raise ArgumentTypeError(f"player and target must be 0 or 1, got {player!r}, {target!r}")
        if player not in (0, 1) or target not in (0, 1):
            raise ArgumentError(f"player and target must be 0 or 1, got {player!r}, {target!r}")
        k = _solve_bound_arg(plies, "plies", 0)
        pi = 2 * player + target
        self._reserve(k)
        self._begin(&js, None)
        with nogil:
            r = solve_root(&self.c, &root, pi, k, 0)
        self._end(&js)
        return bool(r)

    def best_action(self, pos, thresholds):
        """The best action of an unfinished position whose thresholds (as
        returned by thresholds()) resolve its value; -1 if they do not."""
        cdef Position p = _check_position(pos)
        cdef int thr[SOLVE_PREDICATES]
        cdef int k, best, top = 0
        cdef State root = p.st
        cdef JobStop js
        _read_thresholds(thresholds, thr)
        for k in range(SOLVE_PREDICATES):
            if thr[k] != SOLVE_INFINITE:
                top = max(top, thr[k])
        self._reserve(max(top, 1))
        self._begin(&js, None)
        with nogil:
            solve_best_child(&self.c, &root, thr, &best)
        self._end(&js)
        return best
