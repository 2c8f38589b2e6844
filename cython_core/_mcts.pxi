# Monte Carlo tree search (UCT; docs/mcts.md): the whole search runs in C with
# the GIL released, on the node layer.  A simulation walks the tree from the
# root by UCB1, adds one node, plays a random game from it exactly as the
# playouts do (playout_node, docs/rules.md §6.2) and adds the result to every
# node of its path.  An Mcts owns its tree (arrays of MctsSlot, path indices and
# positions, grown as needed up to max_nodes slots) and keeps it between
# calls: a later search of a position a few plies below the root re-roots the
# tree there (mcts_reroot).  A search is a job (_stop.pxi): Ctrl-C and
# cancel_jobs() stop it within a few milliseconds.
#
# Invariants of the tree (slot 0 is the root):
# * the children of an expanded node hold consecutive slots child ..
#   child + nkids - 1, in ascending action order (node_legal_moves');
# * children are first visited in that order, so the visited ones are the
#   first `expanded`;
# * an expanded node's position is kept (positions[at]), so a simulation makes
#   only the move into its new node (and reads one kept position);
# * score2 is twice the sum of the results (win 1, draw or unfinished 1/2,
#   loss 0) of the simulations through the node, for mover: the player to move
#   at its parent (who chose it), the root's for the root itself.  Players are
#   never assumed to alternate (Goré's offers, Djenon-aboure's passes).

from libc.math cimport log, sqrt

cdef enum:
    MIN_MCTS_NODES = 256             # the smallest arena: the root and any root's children
    MCTS_NODES = 1 << 22     # a tree's slots when none are asked (32 bytes each)
    MAX_MCTS_NODES = 0x7FFFFFFF      # slot indices are ints
    MCTS_FIRST_SLOTS = 1 << 12       # the arena's first size (it doubles as it fills)
    MCTS_CLOCK_EVERY = 16            # simulations between two looks at the clock
    MCTS_REUSE_PLIES = 4             # a re-rooted search looks this deep for its position

cdef long long MAX_MCTS_SIMULATIONS = 1LL << 40   # the largest simulation count of one call

ctypedef struct MctsSlot:            # one node of the tree (32 bytes)
    u64 visits                       # simulations through the node
    u64 score2                       # twice their results summed, for mover
    int child                        # the first child's slot, -1 before expansion
    int at                           # its position's index in positions (once expanded)
    unsigned short nkids             # legal moves (once expanded)
    unsigned short expanded          # children visited: the first `expanded` of them
    short move                       # the move code that leads here from the parent
    unsigned char mover              # the player to move at the parent (the root: its own)
    unsigned char terminal           # no legal move (known once visited twice)

ctypedef struct MctsTree:
    MctsSlot* slots                  # [cap], the first `used` in the tree
    int* path                        # [cap]: a simulation's slots from the root down
    long long used
    long long cap
    long long max_nodes
    char* positions                  # [position_cap] nodes of position_size bytes: the
    long long positions_used         # positions of the expanded nodes (MctsSlot.at), the
    long long position_cap           # first positions_used in the tree
    size_t position_size             # the size of a node of the tree's form
    double exploration               # UCB1's c
    u64 seed                         # simulation k's playout: game k of the batch of this seed
    u64 played                       # simulations completed since the tree was made or cleared
    long long max_plies              # a playout's ply limit (unfinished: scores 1/2)
    int form                         # the node form of the tree's positions; -1: no tree
    IntPosition root                 # the root's position

ctypedef struct MctsOut:
    u64 simulations                  # completed in this call
    u64 plies                        # played in this call's playouts
    double seconds


cdef inline void mcts_slot_init(MctsSlot* s, int move, int mover) noexcept nogil:
    s.visits = 0
    s.score2 = 0
    s.child = -1
    s.at = -1
    s.nkids = 0
    s.expanded = 0
    s.move = <short>move
    s.mover = <unsigned char>mover
    s.terminal = 0


cdef bint mcts_room(MctsTree* t, long long n) noexcept nogil:
    """Room for n more slots and one more position (the arrays grown, doubling,
    up to max_nodes)?  0: the tree is full (or memory ran out): simulations go
    on without expanding."""
    cdef long long cap = t.cap
    cdef MctsSlot* slots
    cdef int* path
    cdef char* positions
    if t.used + n > cap:
        if t.used + n > t.max_nodes:
            return 0
        while cap < t.used + n:
            cap *= 2
        if cap > t.max_nodes:
            cap = t.max_nodes
        path = <int*>realloc(t.path, cap * sizeof(int))
        if path == NULL:
            return 0
        t.path = path
        slots = <MctsSlot*>realloc(t.slots, cap * sizeof(MctsSlot))
        if slots == NULL:
            return 0
        t.slots = slots
        t.cap = cap
    if t.positions_used == t.position_cap:
        cap = 2 * t.position_cap if t.position_cap else 256
        positions = <char*>realloc(t.positions, cap * t.position_size)
        if positions == NULL:
            return 0
        t.positions = positions
        t.position_cap = cap
    return 1


cdef inline u64 mcts_points(int result, int player) noexcept nogil:
    """Twice a playout's result for player: 2 a win, 1 a draw or an unfinished
    game, 0 a loss."""
    if result == PLAYOUT_SOUTH:
        return 2 if player == 0 else 0
    if result == PLAYOUT_NORTH:
        return 2 if player == 1 else 0
    return 1


cdef inline int mcts_select(const MctsTree* t, const MctsSlot* s) noexcept nogil:
    """The child of s (expanded) a simulation goes to: its first unvisited child
    (ascending action order), else the one of largest UCB1 score
    Q + c * sqrt(ln N / n), computed as score2 / 2 * (1 / n) + c * sqrt(ln N *
    (1 / n)) (the first, in action order, among equal scores)."""
    cdef int k, best
    cdef double lg, v, inv, best_v
    cdef const MctsSlot* kid
    if s.expanded < s.nkids:
        return s.child + s.expanded
    lg = log(<double>s.visits)
    best = s.child
    best_v = -1.0
    for k in range(s.child, s.child + s.nkids):
        kid = &t.slots[k]
        inv = 1.0 / <double>kid.visits
        v = 0.5 * <double>kid.score2 * inv + t.exploration * sqrt(lg * inv)
        if v > best_v:
            best_v = v
            best = k
    return best


cdef int mcts_nodes(MctsTree* t, const Node* root, u64 simulations, double time_limit,
                    JobStop* js, Node* kids, MctsOut* out) noexcept nogil:
    """Up to `simulations` simulations from root (the tree's root, slot 0), fewer
    if time_limit (seconds, < 0: none) runs out; -1 once js says stop (a
    simulation cut short adds nothing: the tree stays consistent).  kids: room
    for MAX_CANDIDATES nodes (the playouts' and the expansions' scratch)."""
    cdef Node pos, child
    cdef const Node* here
    cdef Node* positions = <Node*>t.positions
    cdef int moves[MAX_CANDIDATES]
    cdef unsigned char sown[MAX_CANDIDATES]
    cdef long long pending = PLAYOUT_STOP_BATCH     # poll before the first playout
    cdef long long work, plies
    cdef double start = monotonic_seconds()
    cdef MctsSlot* s
    cdef int x, k, n, result, mover, depth
    cdef u64 done = 0
    while done < simulations:
        if time_limit >= 0 and done % MCTS_CLOCK_EVERY == 0 and done > 0:
            if monotonic_seconds() - start >= time_limit:
                break
        # selection and expansion: down to the node this simulation adds (the
        # first unvisited one), a finished node, or a node the full arena
        # cannot expand; here is x's position: a kept one (not copied) while x
        # is expanded, else made in pos from its parent's
        here = root
        x = 0
        depth = 0
        t.path[0] = 0
        while True:
            s = &t.slots[x]
            if s.visits == 0 and x != 0:
                break
            if s.terminal:
                break
            if s.child < 0:             # (here is pos or root: not in positions)
                work = 0
                n = node_legal_moves(here, moves, sown, kids, &work)
                pending += work
                if n == 0:
                    s.terminal = 1
                    break
                if not mcts_room(t, n):
                    break
                positions = <Node*>t.positions       # the arrays may have moved
                s = &t.slots[x]
                s.child = <int>t.used
                s.nkids = <unsigned short>n
                s.at = <int>t.positions_used
                positions[t.positions_used] = here[0]
                t.positions_used += 1
                mover = node_to_move(here)
                for k in range(n):
                    mcts_slot_init(&t.slots[t.used + k], moves[k], mover)
                t.used += n
                # its first child (unvisited): the simulation's new node
                x = s.child
                if sown[0]:
                    pos = kids[0]
                else:
                    node_play(&child, here, moves[0])
                    pos = child
                here = &pos
            else:
                x = mcts_select(t, s)
                if t.slots[x].child >= 0:         # its children's block, read next
                    katra_prefetch(&t.slots[t.slots[x].child])
                if t.slots[x].at >= 0:
                    here = &positions[t.slots[x].at]
                else:
                    node_play(&child, here, t.slots[x].move)
                    pos = child
                    here = &pos
            depth += 1
            t.path[depth] = x
            pending += 1
        # the playout: game `played` of the batch of `seed`, from x's position
        result = playout_node(here, t.seed + (t.played << 32), t.max_plies, &plies, js, kids,
                              &pending)
        if result == PLAYOUT_STOPPED:
            out.seconds = monotonic_seconds() - start
            return -1
        t.played += 1
        done += 1
        out.simulations += 1
        out.plies += <u64>plies
        # backpropagation
        while depth >= 0:
            s = &t.slots[t.path[depth]]
            if s.visits == 0 and depth > 0:
                t.slots[t.path[depth - 1]].expanded += 1
            s.visits += 1
            s.score2 += mcts_points(result, s.mover)
            depth -= 1
    out.seconds = monotonic_seconds() - start
    return 0


# mcts_run(t, root, ...): mcts_nodes on the tree's working form (_dispatch.pxi.in)

# ---------------------------------------------------------------- tree reuse

cdef bint mcts_same_position(const IntPosition* a, const IntPosition* b) noexcept nogil:
    """Are a and b the same position (owners read through owner_of: a node
    unpacked from the int form may hold stale ones outside Goré)?"""
    cdef const GameTable* g = &TABLES[a.game]
    cdef int i
    if (a.game != b.game or a.to_move != b.to_move or a.offer != b.offer
            or a.stores[0] != b.stores[0] or a.stores[1] != b.stores[1]):
        return 0
    for i in range(g.holes):
        if a.board[i] != b.board[i] or owner_of(a, g, i) != owner_of(b, g, i):
            return 0
    return 1


cdef int mcts_find_at(const MctsTree* t, int x, const Node* pos, int plies, u64 key,
                      const IntPosition* target) noexcept nogil:
    """The first visited node exactly `plies` below x (pos: x's position) whose
    position is target (key: its node_key), children in ascending action
    order; -1 if none."""
    cdef const MctsSlot* s = &t.slots[x]
    cdef Node child
    cdef IntPosition seen
    cdef int k, found
    if plies == 0:
        if node_key(pos) != key:
            return -1
        node_unpack(pos, &seen)
        return x if mcts_same_position(&seen, target) else -1
    if s.child < 0:
        return -1
    for k in range(s.child, s.child + s.nkids):
        if t.slots[k].visits == 0:
            break                        # the visited children come first
        node_play(&child, pos, t.slots[k].move)
        found = mcts_find_at(t, k, &child, plies - 1, key, target)
        if found >= 0:
            return found
    return -1


cdef int mcts_find_nodes(const MctsTree* t, const Node* root, const Node* target) noexcept nogil:
    """The tree's node of target's position (root: the tree's root, of the same
    form): the shallowest visited one within MCTS_REUSE_PLIES plies, the first
    in ascending action order at that depth; -1 if none."""
    cdef IntPosition want
    cdef u64 key = node_key(target)
    cdef int plies, found
    node_unpack(target, &want)
    for plies in range(MCTS_REUSE_PLIES + 1):
        found = mcts_find_at(t, 0, root, plies, key, &want)
        if found >= 0:
            return found
    return -1


# mcts_find(t, target): mcts_find_nodes on the tree's working form (_dispatch.pxi.in)


cdef int mcts_reroot(MctsTree* t, int r) noexcept nogil:
    """Make node r the root, keeping its subtree (copied breadth first into
    fresh arrays, each node's children still consecutive, the positions in the
    same order) and dropping the rest.  The root's statistics become its
    children's sums (its own playout, from when it was a leaf, is dropped):
    the root then always has as many visits as its children together.  -1 if
    memory ran out (the tree is then unchanged)."""
    cdef MctsSlot* fresh = <MctsSlot*>malloc(t.cap * sizeof(MctsSlot))
    cdef char* kept = <char*>malloc((t.position_cap if t.position_cap else 1) * t.position_size)
    cdef MctsSlot* s
    cdef long long head = 0, used = 1, held = 0
    cdef int k, n
    if fresh == NULL or kept == NULL:
        free(fresh)
        free(kept)
        return -1
    fresh[0] = t.slots[r]
    while head < used:
        s = &fresh[head]
        if s.at >= 0:
            memcpy(kept + held * t.position_size, t.positions + s.at * t.position_size,
                   t.position_size)
            s.at = <int>held
            held += 1
        if s.child >= 0 and s.nkids:
            n = s.nkids
            memcpy(&fresh[used], &t.slots[s.child], n * sizeof(MctsSlot))
            s.child = <int>used
            used += n
        head += 1
    free(t.slots)
    free(t.positions)
    t.slots = fresh
    t.used = used
    t.positions = kept
    t.positions_used = held
    s = &fresh[0]
    s.visits = 0
    s.score2 = 0
    s.mover = <unsigned char>t.root.to_move
    if s.child >= 0:
        for k in range(s.child, s.child + s.nkids):
            s.visits += fresh[k].visits
            s.score2 += fresh[k].score2
    return 0


cdef void mcts_fresh_root(MctsTree* t) noexcept nogil:
    """A tree of the root alone (t.root)."""
    t.used = 1
    t.positions_used = 0
    mcts_slot_init(&t.slots[0], -1, t.root.to_move)


cdef class Mcts:
    """The Monte Carlo tree search player (katra.MCTS, docs/mcts.md): UCT
    with random playouts, its tree kept between calls.  One thread at a time
    may use an Mcts (another thread's call raises RuntimeError)."""
    cdef MctsTree t
    cdef NodeBox* kids
    cdef bint busy

    def __cinit__(self, exploration=1.4, seed=0, max_nodes=None, max_plies=None):
        self.t.exploration = _limits.check_exploration(exploration)
        self.t.seed = _seed_arg(seed)
        self.t.max_nodes = MCTS_NODES if max_nodes is None else _int_arg(
            max_nodes, "max_nodes", MIN_MCTS_NODES, MAX_MCTS_NODES)
        self.t.max_plies = (_games.DEFAULT_MAX_PLIES if max_plies is None
                            else _int_arg(max_plies, "max_plies", 0, _limits.MAX_PLIES))
        self.t.cap = min(MCTS_FIRST_SLOTS, self.t.max_nodes)
        self.t.slots = <MctsSlot*>malloc(self.t.cap * sizeof(MctsSlot))
        self.t.path = <int*>malloc(self.t.cap * sizeof(int))
        self.kids = <NodeBox*>malloc(MAX_CANDIDATES * sizeof(NodeBox))
        if self.t.slots == NULL or self.t.path == NULL or self.kids == NULL:
            raise MemoryError("mcts: cannot allocate its tree")
        self.t.form = -1
        self.t.used = 0
        self.t.played = 0
        self.t.positions = NULL
        self.t.position_cap = 0
        self.t.positions_used = 0

    def __dealloc__(self):
        free(self.t.slots)
        free(self.t.path)
        free(self.t.positions)
        free(self.kids)

    @property
    def exploration(self):
        return self.t.exploration

    @property
    def seed(self):
        return self.t.seed

    @property
    def max_nodes(self):
        return self.t.max_nodes

    @property
    def max_plies(self):
        return self.t.max_plies

    @property
    def tree_nodes(self):
        """The slots the tree holds (every child of an expanded node counts)."""
        return self.t.used if self.t.form >= 0 else 0

    def clear(self):
        """Drop the tree and restart the playouts' count: as a fresh Mcts."""
        if self.busy:
            raise RuntimeError("this MCTS is already in use (one thread at a time)")
        self.t.form = -1
        self.t.used = 0
        self.t.played = 0

    def search(self, pos, simulations=None, time_seconds=None):
        """Up to `simulations` simulations (1..2**40) or `time_seconds` seconds
        (0 < t <= 10**6), the first reached (at least one given), from pos,
        re-rooting the kept tree when pos is one of its positions within 4
        plies of its root.  Returns a dict: simulations, plies (this call's
        playouts'), reused (the root's visits kept from earlier calls), visits
        and score2 (the root's, for its player to move), children [(action,
        visits, score2), ...] (the visited ones, ascending), pv, tree_nodes,
        seconds.  pos is not changed; a finished game raises ArgumentError."""
        cdef Position p = _check_position(pos)
        cdef u64 sims = MAX_MCTS_SIMULATIONS
        cdef double limit = -1.0
        cdef IntPosition root = p.st
        cdef int acts[MAX_CANDIDATES]
        cdef int found = -1, form
        cdef JobStop js
        cdef MctsOut out
        if simulations is None and time_seconds is None:
            raise ArgumentError("an MCTS search needs simulations or a time limit (or both)")
        if simulations is not None:
            sims = <u64>_int_arg(simulations, "simulations", 1, MAX_MCTS_SIMULATIONS)
        if time_seconds is not None:
            limit = _limits.check_seconds(time_seconds, "time", MAX_SEARCH_TIME)
        if legal_actions_c(&root, acts) == 0:
            raise ArgumentError(f"cannot search a finished game: {p.text()}")
        if self.busy:
            raise RuntimeError("this MCTS is already in use (one thread at a time)")
        self.busy = 1
        form = node_form(&root)
        if self.t.form == form:
            found = mcts_find(&self.t, &root)
        if found > 0:
            self.t.root = root
            if mcts_reroot(&self.t, found) < 0:
                found = -1
        if found < 0:
            self.t.root = root
            if form != self.t.form:          # the positions' size changes with the form
                free(self.t.positions)
                self.t.positions = NULL
                self.t.position_cap = 0
                self.t.position_size = mcts_node_size(form)
                self.t.form = form
            mcts_fresh_root(&self.t)
        reused = self.t.slots[0].visits
        memset(&out, 0, sizeof(out))
        job_stop_init(&js)
        with nogil:
            mcts_run(&self.t, sims, limit, &js, self.kids, &out)
        self.busy = 0
        raise_if_stopped(&js)
        return self._report(out, reused)

    cdef dict _report(self, MctsOut out, u64 reused):
        cdef MctsSlot* s = &self.t.slots[0]
        cdef list children = []
        cdef int k
        for k in range(s.child, s.child + s.nkids if s.child >= 0 else s.child):
            if self.t.slots[k].visits:
                children.append((mcts_action_of(&self.t.root, self.t.slots[k].move),
                                 self.t.slots[k].visits, self.t.slots[k].score2))
        return {"simulations": out.simulations, "plies": out.plies, "reused": reused,
                "visits": s.visits, "score2": s.score2, "children": children,
                "pv": self._pv(), "tree_nodes": self.t.used, "seconds": out.seconds}

    cdef list _pv(self):
        """The most-visited line from the root (ties: the smaller action), as
        actions, down to a node with no visited child."""
        cdef IntPosition st = self.t.root
        cdef MctsSlot* s
        cdef int x = 0, k, best
        cdef u64 most
        cdef list pv = []
        while True:
            s = &self.t.slots[x]
            if s.child < 0:
                return pv
            best = -1
            most = 0
            for k in range(s.child, s.child + s.nkids):
                if self.t.slots[k].visits > most:
                    most = self.t.slots[k].visits
                    best = k
            if best < 0:
                return pv
            pv.append(mcts_action_of(&st, self.t.slots[best].move))
            mcts_step(&st, self.t.slots[best].move)
            x = best
