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
    int leaf_cand[MAX_CANDIDATES]
    State leaf_scratch           # a lane search's scratch node too


cdef enum:
    SOLVE_KEY_WORDS = (MAX_HOLES + 7) // 8


# ---------------------------------------------------------------- the nodes
# The search is written once, over SolveNode: the State form, or a position
# on the packed lanes of _lanes.pxi (perft's and the playouts' working form)
# when it fits them (lanes_fit).  Katro and Katra Mpantsaka lanes are seen
# from the side to move, so their nodes add the player to move (the
# predicates name players); one node type per game shape, so that each
# specialisation has its shape's constants (words, loop length, family).

ctypedef struct KatroSolveNode:               # katro (6x6): 3 words a side
    SideNode side
    int to_move

ctypedef struct Katro4x6SolveNode:            # 2 words a side
    SideNode side
    int to_move

ctypedef struct Katro4x4SolveNode:            # 1 word a side
    SideNode side
    int to_move

ctypedef struct MpantsakaSolveNode:           # 2 words a side
    SideNode side
    int to_move

ctypedef struct MpantsakaSimplifiedSolveNode:
    SideNode side
    int to_move

ctypedef fused SolveNode:
    State
    KatroSolveNode
    Katro4x6SolveNode
    Katro4x4SolveNode
    MpantsakaSolveNode
    MpantsakaSimplifiedSolveNode
    DjenonNode
    GoreNode


cdef inline int side_game(const SolveNode* s) noexcept nogil:
    """The game of a Katro or Katra Mpantsaka node type (a constant in each
    specialisation; -1 for the other types)."""
    cdef int game = -1
    if SolveNode is KatroSolveNode:
        game = GAME_KATRO
    elif SolveNode is Katro4x6SolveNode:
        game = GAME_KATRO_4X6
    elif SolveNode is Katro4x4SolveNode:
        game = GAME_KATRO_4X4
    elif SolveNode is MpantsakaSolveNode:
        game = GAME_MPANTSAKA
    elif SolveNode is MpantsakaSimplifiedSolveNode:
        game = GAME_MPANTSAKA_SIMPLIFIED
    return game


# A side game's shape, as perft's dispatch (perft_count_lanes) spells it.
cdef inline int side_words(int game) noexcept nogil:
    return 3 if game == GAME_KATRO else 1 if game == GAME_KATRO_4X4 else 2


cdef inline int side_loop(int game) noexcept nogil:
    return (18 if game == GAME_KATRO else 12 if game == GAME_KATRO_4X6
            else 8 if game == GAME_KATRO_4X4 else 16)


cdef inline int side_family(int game) noexcept nogil:
    return FAM_MPANTSAKA if game == GAME_MPANTSAKA or game == GAME_MPANTSAKA_SIMPLIFIED else FAM_KATRO


cdef inline u64 solve_key(const State* s) noexcept nogil:
    """The table key of a position on the State form: its counts packed a
    byte each into 64-bit words, chained through mix64 (a bijection, so a
    position differing in any word reaches another key as a random function
    would), after a word of the game, the stores, the side to move and Goré's
    offer and owners.  A count or store too large to pack (never in a game
    from a start position) falls back to search_key."""
    cdef GameTable* g = &TABLES[s.game]
    cdef u64 words[SOLVE_KEY_WORDS]
    cdef unsigned char* packed = <unsigned char*>words
    cdef u64 h, owners = 0
    cdef int i, wide = s.stores[0] | s.stores[1]
    memset(words, 0, sizeof(words))
    for i in range(g.holes):
        packed[i] = <unsigned char>s.board[i]
        wide |= s.board[i]
    if g.family == FAM_GORE:
        for i in range(g.holes):
            if s.owner[i]:
                owners |= (<u64>1) << i
    if (wide >> 8) or (s.offer >> 8):
        return search_key(s)
    h = ZKEY_GAME[s.game] ^ (<u64>s.stores[0] | (<u64>s.stores[1] << 8)
                             | (<u64>s.to_move << 16) | (<u64>s.offer << 17) | (owners << 25))
    h = mix64(h)
    for i in range((g.holes + 7) >> 3):
        h = mix64(h ^ words[i])
    return h


cdef inline u64 node_key(const SolveNode* s) noexcept nogil:
    """The table key of a node: a function of the position alone (whatever
    path reached it).  On lanes the words already are the packed counts:
    they are chained through mix64 after a word of the game and the scalars
    (every lane, store and offer fits a byte: at most 255 seeds in all)."""
    cdef int G, w, NW
    cdef u64 h
    if SolveNode is State:
        return solve_key(s)
    elif SolveNode is DjenonNode:
        # lanes 12..15 of b[1] stay empty: its high half takes the scalars
        h = mix64(DJENON_LANES.game_key ^ s.b[0])
        return mix64(h ^ (s.b[1] | (<u64>s.stores[0] << 32) | (<u64>s.stores[1] << 40)
                          | (<u64>s.to_move << 48)))
    elif SolveNode is GoreNode:
        h = mix64(GORE_GAME_KEY ^ s.b)
        return mix64(h ^ (<u64>s.north | (<u64>s.offer << 8) | (<u64>s.to_move << 16)
                          | (<u64>s.stores[0] << 24) | (<u64>s.stores[1] << 32)))
    else:
        G = side_game(s)
        NW = side_words(G)
        h = mix64(ZKEY_GAME[G] ^ <u64>s.to_move)
        for w in range(NW):
            h = mix64(h ^ s.side.me[w])
        for w in range(NW):
            h = mix64(h ^ s.side.op[w])
        return h


cdef inline bint solve_has_legal(SolveCtx* c, const State* s) noexcept nogil:
    """Is s unfinished?  As has_legal, but a candidate is shown legal without
    sowing it when its first lap surely ends (candidate_legal), and Goré's
    actions are counted from bit masks."""
    cdef GameTable* g = &TABLES[s.game]
    cdef long long work = 0
    cdef int n, k
    if g.family == FAM_GORE:
        return gore_count_actions(s) > 0
    n = candidates_of(s, g, g.family, c.leaf_cand)
    for k in range(n):
        if candidate_legal(s, g, g.family, c.leaf_cand[k], &c.leaf_scratch, &work):
            return 1
    return fallback(s) >= 0


cdef inline bint node_unfinished(SolveCtx* c, const SolveNode* s) noexcept nogil:
    """Has the player to move a legal action?  Djenon-aboure: some hole holds
    2 or more (a sowing's origin does, and with no sowing the pass is forced
    while one does, §5.3); Goré: an offer is pending or some hole holds 3 or
    more (§4.5); Katro and Mpantsaka: a candidate whose first lap surely ends,
    else one sown on the scratch node ends."""
    cdef int G, move
    cdef u64 moves, quick
    cdef const SideLanes* T
    if SolveNode is State:
        return solve_has_legal(c, s)
    elif SolveNode is DjenonNode:
        return (lanes_at_least(s.b[0], 2) | lanes_at_least(s.b[1], 2)) != 0
    elif SolveNode is GoreNode:
        return s.offer != 0 or lanes_at_least(s.b, 3) != 0
    else:
        G = side_game(s)
        T = &SIDE_LANES[G]
        moves = side_moves(&s.side, T, side_family(G), G == GAME_MPANTSAKA_SIMPLIFIED,
                           side_words(G))
        quick = moves
        while quick:
            move = lowest_bit(quick)
            quick &= quick - 1
            if side_first_lap_ends(&s.side, move, T, side_loop(G)):
                return 1
        while moves:
            move = lowest_bit(moves)
            moves &= moves - 1
            if side_play_lanes(<SideNode*>&c.leaf_scratch, &s.side, move, T, side_family(G),
                               side_words(G), side_loop(G)) >= 0:
                return 1
        return 0


cdef inline int node_winner(const SolveNode* s) noexcept nogil:
    """The winner of a finished position (-1: a draw)."""
    cdef int winner, south, north
    if SolveNode is State:
        outcome_of(s, &winner, &south, &north)
    elif SolveNode is DjenonNode or SolveNode is GoreNode:
        if SolveNode is DjenonNode:
            djenon_scores_lanes(s, &south, &north)
        else:
            gore_scores_lanes(s, &south, &north)
        winner = 0 if south > north else 1 if north > south else -1
    else:
        winner = 1 - s.to_move        # no legal move: the player to move loses (§2.4, §3.4)
    return winner


cdef inline int solve_material(const State* s, GameTable* g, int p) noexcept nogil:
    """material() without its owner test: a Katro or Mpantsaka player's holes
    are one half of the board (South's rows 0..rows/2 - 1 come first: row_start)."""
    cdef int i, half, total = 0
    if g.family == FAM_GORE or g.family == FAM_DJENON:
        return s.stores[p]
    half = g.holes >> 1
    for i in range(p * half, p * half + half):
        total += s.board[i]
    return total


cdef inline int node_material(const SolveNode* s, int p) noexcept nogil:
    """Player p's seeds in play (Katro, Mpantsaka) or in store (the others):
    the move ordering's key."""
    if SolveNode is State:
        return solve_material(s, &TABLES[s.game], p)
    elif SolveNode is DjenonNode or SolveNode is GoreNode:
        return s.stores[p]
    else:
        if p == s.to_move:
            return lanes_sum(s.side.me, side_words(side_game(s)))
        return lanes_sum(s.side.op, side_words(side_game(s)))


cdef inline void node_children_begin(Children* it, const SolveNode* s) noexcept nogil:
    """Start listing the legal children of s in ascending action order (as
    legal_children), so that the ordering's ties fall as on the State form."""
    cdef GameTable* g
    cdef GoreView v
    cdef const SideLanes* T
    cdef u64 moves, ranked = 0
    cdef int G, i, x, move, n = 0
    it.k = 0
    it.legal = 0
    it.fallback_done = 0
    it.work = 0
    if SolveNode is State:
        g = &TABLES[s.game]
        children_begin_of(it, s, g, g.family)
    elif SolveNode is DjenonNode:
        # a row's lanes, in board order or its reverse (_djenon_lanes checks)
        moves = djenon_sowing_candidates_lanes(s)
        while moves:
            it.cand[n] = lowest_bit(moves)
            moves &= moves - 1
            n += 1
        if n > 1 and DJENON_LANES.hole_of[it.cand[0]] > DJENON_LANES.hole_of[it.cand[n - 1]]:
            for i in range(n >> 1):
                x = it.cand[i]
                it.cand[i] = it.cand[n - 1 - i]
                it.cand[n - 1 - i] = x
        it.n = n
    elif SolveNode is GoreNode:
        gore_view_lanes(&v, s)
        it.n = gore_actions_of(&v, it.cand)
    else:
        G = side_game(s)
        T = &SIDE_LANES[G]
        moves = side_moves(&s.side, T, side_family(G), G == GAME_MPANTSAKA_SIMPLIFIED,
                           side_words(G))
        if side_family(G) == FAM_KATRO:
            # one row's lanes, in board order or its reverse (_side_lanes checks)
            while moves:
                it.cand[n] = lowest_bit(moves)
                moves &= moves - 1
                n += 1
            if n > 1 and T.rank[s.to_move][it.cand[0]] > T.rank[s.to_move][it.cand[n - 1]]:
                for i in range(n >> 1):
                    move = it.cand[i]
                    it.cand[i] = it.cand[n - 1 - i]
                    it.cand[n - 1 - i] = move
        else:
            # move bits (lane + 32 * direction) -> bits in action order (2 *
            # origin + direction), then back
            while moves:
                move = lowest_bit(moves)
                moves &= moves - 1
                ranked |= (<u64>1) << (2 * T.rank[s.to_move][move & 31] + (move >> 5))
            while ranked:
                i = lowest_bit(ranked)
                ranked &= ranked - 1
                it.cand[n] = T.ascending[s.to_move][i >> 1] + 32 * (i & 1)
                n += 1
        it.n = n


cdef inline int node_children_next(Children* it, const SolveNode* s,
                                   SolveNode* child) noexcept nogil:
    """The next legal child of s into child: its action code (>= 0; on lanes
    a lane move), or -1 when there are no more."""
    cdef GameTable* g
    cdef int G, a
    if SolveNode is State:
        g = &TABLES[s.game]
        return children_next_of(it, s, g, g.family, child)
    elif SolveNode is GoreNode:
        if it.k == it.n:
            return -1
        a = it.cand[it.k]
        it.k += 1
        child[0] = s[0]
        gore_apply_lanes(child, a)
        return a
    elif SolveNode is DjenonNode:
        while it.k < it.n:
            a = it.cand[it.k]
            it.k += 1
            if djenon_play_lanes(child, s, a) >= 0:
                it.legal += 1
                return a
        if it.legal == 0 and not it.fallback_done:
            it.fallback_done = 1
            if djenon_pass_forced_lanes(s):
                djenon_play_lanes(child, s, -1)
                it.legal = 1
                return DJENON_PASS_C
        return -1
    else:
        G = side_game(s)
        while it.k < it.n:
            a = it.cand[it.k]
            it.k += 1
            if side_play_lanes(&child.side, &s.side, a, &SIDE_LANES[G], side_family(G),
                               side_words(G), side_loop(G)) >= 0:
                child.to_move = 1 - s.to_move
                return a
        return -1


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


cdef inline int solve_leaf(SolveCtx* c, const SolveNode* s, int pi) noexcept nogil:
    """F(s, pi, 0): only a finished game can satisfy it."""
    if node_unfinished(c, s):
        return 0
    return solve_good(node_winner(s), pi)


cdef int solve_last_ply(SolveCtx* c, const SolveNode* s, u64 key, int pi, bint or_node,
                        SolveNode* child) noexcept nogil:
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


cdef int solve_forces(SolveCtx* c, const SolveNode* s, u64 key, int pi, int k,
                      int ply) noexcept nogil:
    """F(s, pi, k): 1 or 0 (0 too once c.stop is set; callers check it).  key:
    node_key(s), unused at k == 0.  ply < c.plies."""
    cdef Children* it
    cdef int* keys
    cdef int* order
    cdef u64* hashes
    cdef SolveNode* children
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

    children = <SolveNode*>&c.children[ply * MAX_CANDIDATES]
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


cdef inline int solve_packed(SolveCtx* c, SolveNode* node, int pi, int k, int ply) noexcept nogil:
    return solve_forces(c, node, node_key(node), pi, k, ply)


cdef int solve_root(SolveCtx* c, const State* s, int pi, int k, int ply) noexcept nogil:
    """F(s, pi, k) from a position on the State form: on the lanes when it
    fits them (as perft; LANES_ENABLED), else on the State form.  Its key is
    node_key's, as every node's below.  ply < c.plies."""
    cdef GameTable* g = &TABLES[s.game]
    cdef SideNode side
    cdef KatroSolveNode katro
    cdef Katro4x6SolveNode katro4x6
    cdef Katro4x4SolveNode katro4x4
    cdef MpantsakaSolveNode mpantsaka
    cdef MpantsakaSimplifiedSolveNode simplified
    cdef DjenonNode djenon
    cdef GoreNode gore
    if not (LANES_ENABLED and lanes_fit(s)):
        return solve_forces(c, s, solve_key(s), pi, k, ply)
    if g.family == FAM_GORE:
        gore_pack(&gore, s)
        return solve_packed(c, &gore, pi, k, ply)
    if g.family == FAM_DJENON:
        djenon_pack(&djenon, s)
        return solve_packed(c, &djenon, pi, k, ply)
    side_pack(&side, s, &SIDE_LANES[s.game])
    if s.game == GAME_KATRO:
        katro.side, katro.to_move = side, s.to_move
        return solve_packed(c, &katro, pi, k, ply)
    if s.game == GAME_KATRO_4X6:
        katro4x6.side, katro4x6.to_move = side, s.to_move
        return solve_packed(c, &katro4x6, pi, k, ply)
    if s.game == GAME_KATRO_4X4:
        katro4x4.side, katro4x4.to_move = side, s.to_move
        return solve_packed(c, &katro4x4, pi, k, ply)
    if s.game == GAME_MPANTSAKA:
        mpantsaka.side, mpantsaka.to_move = side, s.to_move
        return solve_packed(c, &mpantsaka, pi, k, ply)
    simplified.side, simplified.to_move = side, s.to_move
    return solve_packed(c, &simplified, pi, k, ply)


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


cdef int solve_thresholds(SolveCtx* c, const State* root, int first, int max_plies,
                          int* thr, int players) noexcept nogil:
    """The four thresholds of root by iterative deepening on the bound N =
    first..max_plies, until the value is resolved: each exact (found at N and
    not at N - 1), SOLVE_INFINITE or SOLVE_OPEN (above the bound).  thr holds
    what is known on entry (all SOLVE_OPEN, or what an earlier call found up to
    bound first - 1).  players: bit p set to ask player p's questions (a split
    solve asks one player's at a time).  Returns the last bound completed (first - 1 if none; a
    finished root: max_plies)."""
    cdef int winner, south, north, n, pi, p, bound = first - 1
    cdef int saved[SOLVE_PREDICATES]
    if not has_legal(root):
        outcome_of(root, &winner, &south, &north)
        for pi in range(SOLVE_PREDICATES):
            thr[pi] = 0 if solve_good(winner, pi) else SOLVE_INFINITE
        return max_plies
    if thresholds_resolved(thr):
        return max_plies
    for n in range(first, max_plies + 1):
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


cdef int _solve_plies_arg(object value) except -1:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"max_plies must be an int, not {type(value).__name__}")
    if not 1 <= value <= SOLVE_MAX_PLIES:
        raise ValueError(f"max_plies must be in 1..{SOLVE_MAX_PLIES}, got {value}")
    return value


cdef int _read_thresholds(object thresholds, int* thr) except -1:
    """A Python thresholds list (ints -1..500, None for never) into thr."""
    if not isinstance(thresholds, (list, tuple)) or len(thresholds) != SOLVE_PREDICATES:
        raise ValueError("thresholds must be a list of 4 entries")
    for k in range(SOLVE_PREDICATES):
        t = thresholds[k]
        if t is None:
            thr[k] = SOLVE_INFINITE
        elif isinstance(t, int) and not isinstance(t, bool) and -1 <= t <= SOLVE_MAX_PLIES:
            thr[k] = t
        else:
            raise ValueError(f"threshold {k} must be None or an int in -1..{SOLVE_MAX_PLIES}")
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
                raise ValueError(f"time_seconds must be None or a positive number, "
                                 f"not {type(time_seconds).__name__}")
            if not 0 < time_seconds <= SEARCH_MAX_SECONDS:
                raise ValueError(f"time_seconds must be in (0, {SEARCH_MAX_SECONDS}], "
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

    def thresholds(self, pos, max_plies, time_seconds=None, known=None, players=(0, 1)):
        """(thresholds, bound, timed_out): the least bounds within which South
        forces a draw or better, South a win, North a draw or better, North a
        win (each an int, -1 if not within bound, or None if never), found by
        iterative deepening up to max_plies (1..500) until the value is known;
        bound: the largest bound completed; timed_out: the clock stopped it.
        known: None, or (thresholds, bound) of an earlier call on the same
        position: the search then resumes at bound + 1.  players: whose
        questions to ask (both by default; the others' stay as known)."""
        cdef Position p = _check_position(pos)
        cdef int plies = _solve_plies_arg(max_plies)
        cdef int thr[SOLVE_PREDICATES]
        cdef int bound, k, first = 1, mask = 0
        cdef State root = p.st
        cdef JobStop js
        if not isinstance(players, tuple) or not players or any(
                type(q) is not int or q not in (0, 1) for q in players):
            raise ValueError(f"players must be a tuple of 0 and/or 1, got {players!r}")
        for q in players:
            mask |= 1 << q
        for k in range(SOLVE_PREDICATES):
            thr[k] = SOLVE_OPEN
        if known is not None:
            if not isinstance(known, tuple) or len(known) != 2:
                raise ValueError("known must be None or a (thresholds, bound) pair")
            b = known[1]
            if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b < SOLVE_MAX_PLIES:
                raise ValueError(f"the known bound must be an int in 0..{SOLVE_MAX_PLIES - 1}")
            first = b + 1
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
        if (type(player) is not int or type(target) is not int or player not in (0, 1)
                or target not in (0, 1)):
            raise ValueError(f"player and target must be 0 or 1, got {player!r}, {target!r}")
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= SOLVE_MAX_PLIES:
            raise ValueError(f"plies must be an int in 0..{SOLVE_MAX_PLIES}, got {plies!r}")
        k = plies
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
