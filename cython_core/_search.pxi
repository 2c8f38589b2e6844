# The search engine (docs/engine.md): negamax alpha-beta (principal variation
# search) with iterative deepening, a transposition table keyed by a Zobrist
# hash, TT-move / capture / killer / history move ordering, a node budget and a
# clock checked every few thousand nodes.  Everything below search_run runs
# without the GIL.  A Searcher owns one context (table and buffers) and keeps it
# between calls (katra.Engine); the one-shot search() makes a Searcher per call.
# A search is a job (_stop.pxi): Ctrl-C or cancel_jobs() stops it within a
# few milliseconds, and search() then raises instead of returning.
#
# Stack use: negamax keeps its per-ply arrays (actions, ordering keys, the
# children) in buffers on the heap, indexed by ply, so one level of the
# recursion costs a small fixed frame and a search at the deepest ply fits in
# the smallest thread stack Python allows (32 KiB; tests/test_crash_safety.py).

from libc.stdlib cimport calloc

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define katra_prefetch(p) __builtin_prefetch((const void*)(p))
    #else
    #define katra_prefetch(p) ((void)0)
    #endif
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    #define KATRA_HUGE_PAGE ((size_t)1 << 21)
    /* A zeroed table of size bytes for reads at random (the transposition
       tables), or NULL if memory ran out.  On Linux one of 2 MiB or more is
       mapped on its own, aligned to 2 MiB and marked for huge pages
       (madvise; the kernel uses them where it can): a fresh table then costs
       a page fault per 2 MiB touched rather than per 4 KiB, and its random
       reads far fewer TLB misses.  Free with katra_table_free(p, size). */
    static void* katra_table_alloc(size_t size) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (size >= KATRA_HUGE_PAGE) {
            size_t span = size + KATRA_HUGE_PAGE;
            char* raw = (char*)mmap(NULL, span, PROT_READ | PROT_WRITE,
                                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            char* p;
            size_t head;
            if (raw == (char*)MAP_FAILED) return NULL;
            p = (char*)(((size_t)raw + KATRA_HUGE_PAGE - 1) & ~(KATRA_HUGE_PAGE - 1));
            head = (size_t)(p - raw);
            if (head) munmap(raw, head);
            if (KATRA_HUGE_PAGE - head) munmap(p + size, KATRA_HUGE_PAGE - head);
            madvise(p, size, MADV_HUGEPAGE);
            return p;
        }
    #endif
        return calloc(1, size);
    }
    static void katra_table_free(void* p, size_t size) {
        if (p == NULL) return;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (size >= KATRA_HUGE_PAGE) { munmap(p, size); return; }
    #endif
        free(p);
    }
    """
    void katra_prefetch(const void* p) noexcept nogil
    void* katra_table_alloc(size_t size) noexcept nogil
    void katra_table_free(void* p, size_t size) noexcept nogil

cdef enum:
    MAX_SEARCH_DEPTH = 64          # the deepest iteration (and the longest PV)
    SEARCH_MAX_ACTIONS = 267     # the largest action space (Goré)
    MATE = 100000         # a win at ply p scores MATE - p (the C API's KATRA_MATE: _capi.pxi checks)
    MATE_BOUND = 99000    # |score| above this is a win / loss
    SEARCH_INF = 1000000
    MAX_SEARCH_TIME = 1000000 # the longest clock accepted (about 11.6 days)
    MAX_TT_BITS = 28      # the largest table: 2**28 entries (4 GiB)
    ENGINE_TT_BITS = 20   # a Searcher's table when none is asked (16 MiB)
    SEARCH_CLOCK_MASK = 2047     # look at the clock every 2048 nodes
    SEARCH_EARLY_KEYS = 1 << 16  # a table of more entries than this (1 MiB) is mostly out
                                 # of the caches: its slots are fetched as children are made
    SEARCH_NODE_WORK = 8         # a node's weight in job polls (_stop.pxi): several
                                 # perft nodes' work
    TT_EXACT = 0
    TT_LOWER = 1
    TT_UPPER = 2
    # evaluation weights (docs/engine.md)
    EVAL_SEED = 4                # Katro / Mpantsaka: per seed owned
    EVAL_STORE = 4               # Goré / Djenon-aboure: per seed in the store
    EVAL_HOLE = 2                # Goré / Djenon-aboure: per seed in an owned hole
    EVAL_MOBILITY = 1            # every game: per possible origin hole
    ORDER_TABLE = 0x7FFFFFFF     # move-ordering key of the table's move: above every
                                 # gain's (ORDER_GAIN * MAX_TOTAL_SEEDS, checked at import)
    ORDER_GAIN = 1 << 20         # move-ordering key of one seed gained
    ORDER_KILLER = 1 << 19

cdef long long MAX_SEARCH_NODES = 1LL << 62   # the largest node budget

ctypedef struct TTEntry:
    u64 key
    int score
    short move
    signed char depth
    signed char flag

ctypedef struct SearchOut:
    int best
    int score
    int depth
    u64 nodes
    int pv_len
    int pv[MAX_SEARCH_DEPTH]
    double seconds

ctypedef struct PlyLists:        # one ply's move lists (on the heap: see the top)
    int acts[MAX_CANDIDATES]
    int keys[MAX_CANDIDATES]
    int order[MAX_CANDIDATES]
    u64 hashes[MAX_CANDIDATES]   # the children's table keys (when they probe the table)
    int history[SEARCH_MAX_ACTIONS]   # the history keys of the candidates' actions as they
                                 # were before the table's move was searched (table_child)

ctypedef struct RootMoves:       # every root move's exact score (analyse), by child index
    int n
    int acts[MAX_CANDIDATES]
    int scores[MAX_CANDIDATES]
    int pv_len[MAX_CANDIDATES]
    int pv[MAX_CANDIDATES][MAX_SEARCH_DEPTH]

ctypedef struct SearchCtx:
    TTEntry* tt
    u64 tt_mask
    u64 nodes
    u64 max_nodes                # the node budget (2**64 - 1: none)
    double start
    double deadline              # < 0: no time limit
    int can_stop                 # the budget and the clock are honoured only once
                                 # depth 1 is complete
    int every_move               # analyse: every root move searched with the full window
    RootMoves scored             # the iteration running (every_move)
    RootMoves done               # the last completed iteration (every_move)
    int stop
    u64 poll_at                  # node_stops looks at what may stop the search only at
                                 # this node count (search_poll sets it)
    u64 polled                   # the node count when it last did
    int horizon                  # some line of this iteration was cut by depth (or the TT)
    int pv_len[MAX_SEARCH_DEPTH + 1]
    int pv[MAX_SEARCH_DEPTH + 1][MAX_SEARCH_DEPTH + 1]
    int killers[MAX_SEARCH_DEPTH + 1][2]
    int history[2][SEARCH_MAX_ACTIONS]
    JobStop* js                  # Ctrl-C and cancel_jobs() (_stop.pxi)
    IntPosition* children              # [MAX_SEARCH_DEPTH + 1][MAX_CANDIDATES], not zeroed: only
                                 # the plies reached are touched (a search on lanes keeps
                                 # its smaller nodes there, MAX_CANDIDATES a ply)
    PlyLists* lists              # [MAX_SEARCH_DEPTH + 1], not zeroed either
    u64 tt_size                  # entries of tt (a power of two; 0: no table)
    u64 salt                     # an entry of position key holds key ^ salt: entries
                                 # stored under another salt read as empty (search_fresh)
    # search_children's iterator and node_unfinished's scratch (they do not
    # recurse), here rather than in the recursion's frames
    Children kids
    NodeScratch scratch
    const EndTable* tables       # endgame tables (docs/tables.md), or NULL


cdef inline int lanes_count(u64 bits) noexcept nogil:
    """The bits set in a mask of lanes (the first 24: MAX_WORDS words of 8),
    by table (popcount64 may be a library call)."""
    return POPCOUNT8[bits & 0xFF] + POPCOUNT8[(bits >> 8) & 0xFF] + POPCOUNT8[(bits >> 16) & 0xFF]


cdef inline int node_origin_count(const Node* s, int p) noexcept nogil:
    """How many holes player p could sow from were it to move: its family's
    origin rule (Goré's offers and answers aside)."""
    cdef int game
    cdef const u64* words
    if Node is IntPosition:
        return origin_count(s, &TABLES[s.game], p)
    elif Node is DjenonNode:
        return lanes_count(djenon_origins_in(lanes_at_least_bits(s.b, 2, 2), DJENON_LANES.own[p]))
    elif Node is GoreNode:
        return POPCOUNT8[gore_origins(s, p)]
    else:
        game = node_game(s)
        words = &s.halves.me[0]
        if p != s.to_move:
            words = &s.halves.op[0]
        return lanes_count(halves_side_moves(words, &HALVES_TABLES[game], game_family(game),
                                             game_simplified(game), node_words(s), node_lane_bits(s))
                           & 0xFFFFFFFFULL)


cdef inline int node_evaluate(const Node* s) noexcept nogil:
    """Static evaluation from the side to move (docs/engine.md): seeds owned,
    or stores and seeds in owned holes, and the origin counts."""
    cdef GameTable* g
    cdef int me = s.to_move
    cdef int opp = 1 - me
    cdef int i, held = 0, south, north
    cdef int mob = EVAL_MOBILITY * (node_origin_count(s, me) - node_origin_count(s, opp))
    if Node is IntPosition:
        g = &TABLES[s.game]
        for i in range(g.holes):
            if owner_of(s, g, i) == me:
                held += s.board[i]
            else:
                held -= s.board[i]
        if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
            return EVAL_SEED * held + mob
        return EVAL_STORE * (s.stores[me] - s.stores[opp]) + EVAL_HOLE * held + mob
    elif Node is DjenonNode or Node is GoreNode:
        if Node is DjenonNode:
            djenon_scores_lanes(s, &south, &north)
        else:
            gore_scores_lanes(s, &south, &north)
        held = (south - s.stores[0]) - (north - s.stores[1])   # seeds in owned holes
        if me:
            held = -held
        return EVAL_STORE * (s.stores[me] - s.stores[opp]) + EVAL_HOLE * held + mob
    else:
        return EVAL_SEED * (node_material(s, me) - node_material(s, opp)) + mob


cdef inline int terminal_score(const Node* s, int ply) noexcept nogil:
    """A finished position from the side to move: +-(MATE - ply), draws 0."""
    cdef int winner = node_winner(s)
    if winner < 0:
        return 0
    return MATE - ply if winner == s.to_move else -(MATE - ply)


cdef inline int mate_shifted(int score, int plies) noexcept nogil:
    """A win/loss score (+-(MATE - its plies to the end)) with plies
    fewer to its end; any other score unchanged.  The table keeps them counted
    from the node, not the root: mate_shifted(score, ply) in,
    mate_shifted(stored, -ply) out."""
    if score > MATE_BOUND:
        return score + plies
    if score < -MATE_BOUND:
        return score - plies
    return score


cdef inline bint node_stops(SearchCtx* c) noexcept nogil:
    """Counts one node; true once the search must stop: Ctrl-C or cancel_jobs(),
    or (from the end of depth 1 on) the node budget or the clock.  The node that
    reaches the budget is counted, so a search stopped by it has visited exactly
    max_nodes nodes.  The checks run only at the nodes where one of them may
    fire (search_poll)."""
    c.nodes += 1
    if c.nodes < c.poll_at:
        return 0
    return search_poll(c)


cdef bint search_poll(SearchCtx* c) noexcept nogil:
    """node_stops' checks at node c.nodes, as if made at every node: the job's
    poll once the nodes since the last check have spent its work budget
    (SEARCH_NODE_WORK each: job_should_stop), then, from the end of depth 1
    on, the node budget and the clock (every SEARCH_CLOCK_MASK + 1 nodes);
    then the next node at which one of them may fire, in c.poll_at (0 once
    stopped: every later node comes here).  Not inline: most nodes never call it."""
    cdef u64 n = c.nodes
    if job_should_stop(c.js, SEARCH_NODE_WORK * <long long>(n - c.polled)):
        c.stop = 1
    elif c.can_stop:
        if n >= c.max_nodes:
            c.stop = 1
        elif c.deadline >= 0 and (n & SEARCH_CLOCK_MASK) == 0:
            if monotonic_seconds() >= c.deadline:
                c.stop = 1
    c.polled = n
    search_poll_plan(c)
    return c.stop


cdef inline void search_poll_plan(SearchCtx* c) noexcept nogil:
    """c.poll_at: the first node after c.polled at which a check of node_stops
    may fire: where the job's work budget runs out, and from the end of depth
    1 on the node budget and the next look at the clock (0: stopped)."""
    cdef u64 at
    if c.stop:
        c.poll_at = 0
        return
    at = c.polled + <u64>((c.js.budget + SEARCH_NODE_WORK - 1) // SEARCH_NODE_WORK)
    if c.can_stop:
        if c.max_nodes < at:
            at = c.max_nodes
        if c.deadline >= 0 and (c.polled | SEARCH_CLOCK_MASK) + 1 < at:
            at = (c.polled | SEARCH_CLOCK_MASK) + 1
    c.poll_at = at


cdef inline int table_move(const TTEntry* e, u64 key) noexcept nogil:
    """The table's best action for the position keyed key, or -1."""
    return e.move if e != NULL and e.key == key else -1


cdef inline int order_key(const Node* child, int a, int me, int before, int tt_move,
                          int killer0, int killer1, const int* history) noexcept nogil:
    """The ordering key of a child (its action a): the table's move, then seeds
    banked (me's material, before: in the parent), then the ply's killers, then
    history (docs/engine.md; history: the side to move's keys by action)."""
    cdef int gain
    if a == tt_move:
        return ORDER_TABLE
    gain = node_material(child, me) - before
    if gain > 0:
        return ORDER_GAIN * gain
    if a == killer0 or a == killer1:
        return ORDER_KILLER
    return history[a]


cdef inline bint probes_table(const SearchCtx* c, int depth, int ply) noexcept nogil:
    """Does negamax look up a node at depth and ply in the table?  (Leaves,
    at depth 0 or at the deepest ply, do not.)"""
    return c.tt != NULL and depth > 0 and ply < MAX_SEARCH_DEPTH


cdef inline bint keys_early(const SearchCtx* c, int depth, int ply) noexcept nogil:
    """Are the table keys of children at depth and ply made with the children
    (search_children), rather than each as it is searched?  When they probe a
    large table: a cache miss then costs more than the keys of the children a
    cut-off leaves unsearched."""
    return probes_table(c, depth, ply) and c.tt_size > SEARCH_EARLY_KEYS


cdef inline void list_child(SearchCtx* c, PlyLists* lists, const Node* child, int k, int a,
                            bint early, int searched, int key) noexcept nogil:
    """search_children's record of child k (action a, ordering key key)."""
    lists.acts[k] = a
    lists.keys[k] = key
    lists.order[k] = k
    if early and a != searched:
        lists.hashes[k] = node_zobrist(child)
        katra_prefetch(&c.tt[lists.hashes[k] & c.tt_mask])


cdef int search_children(SearchCtx* c, const Node* s, PlyLists* lists, Node* children,
                         int tt_move, bint searched, const int* history, int ply) noexcept nogil:
    """list_children without the children's table keys (a frontier node's
    children, or a small table's: keys_early).  It and search_children_keyed
    are two functions, early a constant in each, so that neither tests it
    (a frontier node calls one, a deeper node the other)."""
    return list_children(c, s, lists, children, 0, tt_move, searched, history, ply)


cdef int search_children_keyed(SearchCtx* c, const Node* s, PlyLists* lists, Node* children,
                               int tt_move, bint searched, const int* history, int ply) noexcept nogil:
    """list_children with the children's table keys (keys_early)."""
    return list_children(c, s, lists, children, 1, tt_move, searched, history, ply)


cdef inline int list_children(SearchCtx* c, const Node* s, PlyLists* lists, Node* children, bint early,
                              int tt_move, bint searched, const int* history, int ply) noexcept nogil:
    """The legal children of s, ascending by action, with their actions and
    ordering keys (order_key: tt_move the table's move, history the history keys)
    in lists; how many.  The selection's first step is made (next_in_order): slot 0
    holds the child of the best key.  early (keys_early): the children's table
    keys go to lists.hashes and their slots are fetched now, so that the cache
    misses overlap one another and the ordering instead of stalling each
    child's probe in turn; but not the table move's child if it was searched
    already (searched).  Where every candidate is legal (node_all_legal: Goré)
    the candidates are the children, made without the iterator's bookkeeping.
    (search_children and search_children_keyed run it: not inline, as table_child.)"""
    cdef Children* it = &c.kids
    cdef int me = s.to_move
    cdef int before = node_material(s, me)
    cdef int killer0 = c.killers[ply][0], killer1 = c.killers[ply][1]
    cdef int skip = tt_move if searched else -1
    cdef int a, k, key, n = 0, top = 0, top_key = -SEARCH_INF
    if node_all_legal(s):
        n = node_candidates(s, it.cand, 1)
        for k in range(n):
            node_play(&children[k], s, it.cand[k])
            a = node_action(s, it.cand[k])
            key = order_key(&children[k], a, me, before, tt_move, killer0, killer1, history)
            list_child(c, lists, &children[k], k, a, early, skip, key)
            if key > top_key:
                top_key = key
                top = k
    else:
        node_children_begin(it, s, 1)
        a = node_children_next(it, s, &children[0])
        while a >= 0:
            a = node_action(s, a)
            key = order_key(&children[n], a, me, before, tt_move, killer0, killer1, history)
            list_child(c, lists, &children[n], n, a, early, skip, key)
            if key > top_key:
                top_key = key
                top = n
            n += 1
            a = node_children_next(it, s, &children[n])
    if n:
        lists.keys[top] = lists.keys[0]
        lists.keys[0] = top_key
        lists.order[top] = 0
        lists.order[0] = top
    return n


cdef inline int next_in_order(int* keys, int* order, int i, int n) noexcept nogil:
    """A selection sort step: brings the best remaining key (the first of the
    best, in slot order) and its child to slot i, swapping them with slot i's;
    returns its child's index.  (The keys are kept by slot, not by child, so
    that the scan reads them in a row.)  search_children makes the first step."""
    cdef int j = i, k, tmp
    cdef int best = keys[i]
    for k in range(i + 1, n):
        if keys[k] > best:
            best = keys[k]
            j = k
    keys[j] = keys[i]
    keys[i] = best
    tmp = order[i]
    order[i] = order[j]
    order[j] = tmp
    return order[i]


cdef inline bint tabled_score(SearchCtx* c, const Node* s, int ply, int* score) noexcept nogil:
    """Whether the endgame tables (docs/tables.md) settle s; then its score, a
    finished game's."""
    cdef int v
    cdef unsigned int plies
    if c.tables == NULL or not table_settled(c.tables, s, &v, &plies) or plies >= MAX_SEARCH_DEPTH:
        return False
    score[0] = 0 if v == 0 else v * (MATE - ply - <int>plies)
    return True


cdef inline int leaf_value(SearchCtx* c, const Node* s, int ply) noexcept nogil:
    """negamax at depth 0 (or the deepest ply): the static evaluation, or the
    score of a finished game."""
    cdef int v
    c.pv_len[ply] = 0
    if node_stops(c):
        return 0
    if not node_unfinished(s, &c.scratch):
        return terminal_score(s, ply)
    if tabled_score(c, s, ply, &v):
        return v
    c.horizon = 1
    return node_evaluate(s)


cdef int search_leaf(SearchCtx* c, const Node* s, int ply) noexcept nogil:
    """leaf_value, not inline (as table_child): its frame (a sowing's, the
    evaluation's) is not held by negamax's recursion."""
    return leaf_value(c, s, ply)


cdef inline int child_value(SearchCtx* c, const Node* child, u64 key, int me, int depth, int alpha,
                            int beta, int ply, bint pv_node, bint frontier) noexcept nogil:
    """The value for me (to move at ply) of child (its table key: key) searched to
    depth - 1: negated, window flipped, only when the side to move changes (Goré's
    answers keep it).  frontier (a constant): child is a leaf (search_frontier),
    valued here rather than by a call of negamax."""
    cdef int v
    if frontier:
        v = leaf_value(c, child, ply + 1)
        return v if child.to_move == me else -v
    if child.to_move == me:
        return search_node(c, child, key, depth - 1, alpha, beta, ply + 1, pv_node)
    return -search_node(c, child, key, depth - 1, -beta, -alpha, ply + 1, pv_node)


cdef inline void take_pv(SearchCtx* c, int ply, int a, bint frontier) noexcept nogil:
    """The principal variation at ply: a, then the one found below it (none
    below a leaf: frontier, a constant, says the child was one)."""
    cdef int j
    c.pv[ply][0] = a
    if frontier:
        c.pv_len[ply] = 1
        return
    for j in range(c.pv_len[ply + 1]):
        c.pv[ply][j + 1] = c.pv[ply + 1][j]
    c.pv_len[ply] = c.pv_len[ply + 1] + 1


cdef inline void table_store(TTEntry* e, u64 key, int best, int best_move, int depth,
                             int flag, int ply) noexcept nogil:
    """Always replace: cut-offs need an entry of exactly the depth searched, so the
    latest result is the most useful one (docs/engine.md, "Transposition table")."""
    if e != NULL:
        e.key = key
        e.score = mate_shifted(best, ply)
        e.move = <short>best_move
        e.depth = <signed char>depth
        e.flag = <signed char>flag


cdef inline bint proven_within(const TTEntry* e, int depth) noexcept nogil:
    """A proven win (exact, or a lower bound) or loss (exact, or an upper bound)
    that ends within depth plies of its node: a win forced within p plies is
    seen, with nothing faster, by every depth from p on, so such an entry holds
    at any depth >= p (a loss likewise, from the other side)."""
    if e.score > MATE_BOUND and e.flag != TT_UPPER:
        return MATE - e.score <= depth
    if e.score < -MATE_BOUND and e.flag != TT_LOWER:
        return MATE + e.score <= depth
    return 0


cdef bint table_child(SearchCtx* c, const Node* s, int tt_move, Node* child,
                      int* history) noexcept nogil:
    """Make the child of the table's move tt_move (an action) of s, if it is a
    candidate of s and legal (a position's entry names one of its legal moves,
    but for a key collision); keep the history keys of every candidate's action
    in history first, for the ordering of the others.  Not inline: its frame
    (a child's sowing) is not held by negamax's recursion (tests/test_crash_safety.py)."""
    cdef int* cand = c.kids.cand        # scratch: search_children starts it afresh
    cdef const int* kept = c.history[s.to_move]
    cdef int j, a, move = -1
    cdef int n = node_candidates(s, cand, 0)
    for j in range(n):
        a = node_action(s, cand[j])
        history[a] = kept[a]
        if a == tt_move:
            move = cand[j]
    return move >= 0 and node_play(child, s, move) >= 0


cdef inline int search_node(SearchCtx* c, const Node* s, u64 key, int depth, int alpha, int beta,
                            int ply, bint pv_node) noexcept nogil:
    """The value of s to depth, from its side to move (fail-soft).  key: its
    table key (node_zobrist) when it probes the table (probes_table), which its
    parent computed.  A leaf (search_leaf), a node whose children are leaves
    (search_frontier), else negamax: the parent calls the one it needs."""
    if depth <= 0 or ply >= MAX_SEARCH_DEPTH:
        return search_leaf(c, s, ply)
    if depth == 1 or ply + 1 >= MAX_SEARCH_DEPTH:
        return search_frontier(c, s, key, depth, alpha, beta, ply, pv_node)
    return negamax(c, s, key, depth, alpha, beta, ply, pv_node)


cdef int negamax(SearchCtx* c, const Node* s, u64 key, int depth, int alpha, int beta,
                 int ply, bint pv_node) noexcept nogil:
    """search_node of a node two or more plies above the leaves."""
    return negamax_node(c, s, key, depth, alpha, beta, ply, pv_node, 0)


cdef int search_frontier(SearchCtx* c, const Node* s, u64 key, int depth, int alpha, int beta,
                         int ply, bint pv_node) noexcept nogil:
    """negamax at a node whose children are leaves (depth 1, or the ply
    before the deepest): each child valued in place (leaf_value), without a
    call of negamax and search_leaf a leaf.  Not inline: it does not recurse,
    so its frame (the leaves' work) is held only at the bottom of the search."""
    return negamax_node(c, s, key, depth, alpha, beta, ply, pv_node, 1)


cdef inline int negamax_node(SearchCtx* c, const Node* s, u64 key, int depth, int alpha, int beta,
                             int ply, bint pv_node, bint frontier) noexcept nogil:
    """negamax's work at an interior node (depth >= 1, ply below the deepest);
    frontier (a constant): its children are leaves (search_frontier)."""
    cdef int* acts
    cdef int* keys
    cdef int* order
    cdef u64* hashes
    cdef Node* children
    cdef TTEntry* e = NULL
    cdef int n, i, j, k, a, v, best, best_move, alpha0, score, flag, tt_move
    cdef int me = s.to_move
    cdef bint probing, early, first

    c.pv_len[ply] = 0
    if node_stops(c):
        return 0
    if tabled_score(c, s, ply, &v):
        return v

    if c.tt != NULL:
        e = &c.tt[key & c.tt_mask]
        key ^= c.salt                      # what its entry holds (the slot: the key's)
        # cut-offs only from an entry of exactly this depth (a deeper one would give
        # a deeper value, and a fixed-depth result must not depend on what the
        # table holds: docs/engine.md, "Transposition table"), or from a proven one
        if e.key == key and not pv_node and (e.depth == depth or proven_within(e, depth)):
            score = mate_shifted(e.score, -ply)
            if (e.flag == TT_EXACT or (e.flag == TT_LOWER and score >= beta)
                    or (e.flag == TT_UPPER and score <= alpha)):
                c.horizon = 1
                return score

    children = <Node*>&c.children[ply * MAX_CANDIDATES]
    acts = c.lists[ply].acts
    keys = c.lists[ply].keys
    order = c.lists[ply].order
    hashes = c.lists[ply].hashes
    probing = not frontier and probes_table(c, depth - 1, ply + 1)
    early = not frontier and keys_early(c, depth - 1, ply + 1)
    tt_move = table_move(e, key)
    best = -SEARCH_INF
    alpha0 = alpha

    # The table's move is searched first (as its ordering key says), before the
    # other children are made: if it cuts off, they never are.  The others are
    # then ordered as the whole list would have been (the history keys as they
    # were before it was searched; the ply's killers do not change below it).
    first = tt_move >= 0 and table_child(c, s, tt_move, &children[0], c.lists[ply].history)
    if first:
        if probing:
            hashes[0] = node_zobrist(&children[0])
        v = child_value(c, &children[0], hashes[0], me, depth, alpha, beta, ply, pv_node, frontier)
        if c.stop:
            return 0
        best = v
        best_move = tt_move
        if v > alpha:
            alpha = v
            take_pv(c, ply, tt_move, frontier)
            if v >= beta:
                table_store(e, key, best, best_move, depth, TT_LOWER, ply)
                return best

    # (with first, slot 0 holds the table's move, searched above)
    if early:
        n = search_children_keyed(c, s, &c.lists[ply], children, tt_move, first,
                                  &c.lists[ply].history[0] if first else &c.history[me][0], ply)
    else:
        n = search_children(c, s, &c.lists[ply], children, tt_move, first,
                            &c.lists[ply].history[0] if first else &c.history[me][0], ply)
    if n == 0:
        return terminal_score(s, ply)
    if not first:
        best_move = acts[0]
    for i in range(first, n):
        k = next_in_order(keys, order, i, n) if i else order[0]
        a = acts[k]
        if probing and not early:
            hashes[k] = node_zobrist(&children[k])
        if i == 0:
            v = child_value(c, &children[k], hashes[k], me, depth, alpha, beta, ply, pv_node, frontier)
        else:
            v = child_value(c, &children[k], hashes[k], me, depth, alpha, alpha + 1, ply, 0, frontier)
            if pv_node and not c.stop and alpha < v < beta:
                v = child_value(c, &children[k], hashes[k], me, depth, alpha, beta, ply, 1, frontier)
        if c.stop:
            return 0
        if v > best:
            best = v
            best_move = a
            if v > alpha:
                alpha = v
                take_pv(c, ply, a, frontier)
                if v >= beta:
                    if keys[i] < ORDER_KILLER:      # a quiet move: killer and history
                        if c.killers[ply][0] != a:
                            c.killers[ply][1] = c.killers[ply][0]
                            c.killers[ply][0] = a
                        c.history[me][a] += depth * depth
                        if c.history[me][a] > ORDER_KILLER // 2:
                            for j in range(SEARCH_MAX_ACTIONS):
                                c.history[0][j] //= 2
                                c.history[1][j] //= 2
                    break

    if best <= alpha0:
        flag = TT_UPPER
    elif best >= beta:
        flag = TT_LOWER
    else:
        flag = TT_EXACT
    table_store(e, key, best, best_move, depth, flag, ply)
    return best


cdef int search_root(SearchCtx* c, const Node* s, int depth) noexcept nogil:
    """One iteration at the root (which has a legal action): its value, with the
    best move's line in c.pv[0].  Of several moves with the best score the one
    with the smallest action is chosen, so that the result at a fixed depth is a
    function of the position alone (docs/engine.md): a move with a smaller
    action than the best so far is tested against best - 1 instead of best.
    With c.every_move, every move gets the full window and an exact score,
    kept in c.scored."""
    cdef Node* children = <Node*>c.children
    cdef int* acts = c.lists[0].acts
    cdef int* keys = c.lists[0].keys
    cdef int* order = c.lists[0].order
    cdef u64* hashes = c.lists[0].hashes
    cdef TTEntry* e = NULL
    cdef u64 key = 0
    cdef int me = s.to_move
    cdef int n, i, j, k, a, v, lo, best = -SEARCH_INF, best_move = -1

    c.pv_len[0] = 0
    if node_stops(c):
        return 0
    if c.tt != NULL:
        key = node_zobrist(s)
        e = &c.tt[key & c.tt_mask]
        key ^= c.salt
    if probes_table(c, depth - 1, 1):
        n = search_children_keyed(c, s, &c.lists[0], children, table_move(e, key), 0,
                                  c.history[me], 0)
    else:
        n = search_children(c, s, &c.lists[0], children, table_move(e, key), 0, c.history[me], 0)
    c.scored.n = n
    for i in range(n):
        k = next_in_order(keys, order, i, n) if i else order[0]
        a = acts[k]
        if i == 0 or c.every_move:
            v = child_value(c, &children[k], hashes[k], me, depth, -SEARCH_INF, SEARCH_INF, 0, 1, 0)
        else:
            lo = best - 1 if a < best_move else best   # a tie goes to the smaller action
            v = child_value(c, &children[k], hashes[k], me, depth, lo, lo + 1, 0, 0, 0)
            if not c.stop and v > lo:
                v = child_value(c, &children[k], hashes[k], me, depth, lo, SEARCH_INF, 0, 1, 0)
        if c.stop:
            return 0
        if c.every_move:
            c.scored.acts[k] = a
            c.scored.scores[k] = v
            c.scored.pv[k][0] = a
            for j in range(c.pv_len[1]):
                c.scored.pv[k][j + 1] = c.pv[1][j]
            c.scored.pv_len[k] = c.pv_len[1] + 1
        if v > best or (v == best and a < best_move):
            best = v
            best_move = a
            take_pv(c, 0, a, 0)
    table_store(e, key, best, best_move, depth, TT_EXACT, 0)
    return best


cdef SearchCtx* search_alloc(u64 tt_size) noexcept nogil:
    """A context with a table of tt_size entries (a power of two; 0: none), or NULL
    if memory ran out."""
    cdef SearchCtx* c = <SearchCtx*>calloc(1, sizeof(SearchCtx))
    if c == NULL:
        return NULL
    c.children = <IntPosition*>malloc((MAX_SEARCH_DEPTH + 1) * MAX_CANDIDATES * sizeof(IntPosition))
    c.lists = <PlyLists*>malloc((MAX_SEARCH_DEPTH + 1) * sizeof(PlyLists))
    if tt_size:
        c.tt = <TTEntry*>katra_table_alloc(tt_size * sizeof(TTEntry))
        c.tt_mask = tt_size - 1
        c.tt_size = tt_size
    if c.children == NULL or c.lists == NULL or (tt_size and c.tt == NULL):
        search_free(c)
        return NULL
    return c


cdef void search_free(SearchCtx* c) noexcept nogil:
    katra_table_free(c.tt, c.tt_size * sizeof(TTEntry))
    free(c.lists)
    free(c.children)
    free(c)


cdef void search_nodes(SearchCtx* c, const Node* root, int max_depth, double time_limit,
                       u64 max_nodes, bint every_move, JobStop* js, SearchOut* out) noexcept nogil:
    """Iterative deepening from root (which must have a legal action) up to
    max_depth plies, time_limit seconds (< 0: none) and max_nodes nodes (0: none),
    whichever comes first.  The table keeps what earlier runs stored; killers and
    history start afresh.  Fills out (and c.done with every_move) with the last
    completed iteration; once js says stop, returns at once (out is then meaningless)."""
    cdef int d, v, k
    cdef double now
    cdef bint limited = time_limit >= 0 or max_nodes != 0
    c.js = js
    c.stop = 0
    c.nodes = 0
    c.polled = 0
    c.can_stop = 0
    c.every_move = every_move
    c.max_nodes = max_nodes if max_nodes else <u64>-1
    memset(c.history, 0, sizeof(c.history))
    for d in range(MAX_SEARCH_DEPTH + 1):
        c.killers[d][0] = -1
        c.killers[d][1] = -1
    c.start = monotonic_seconds()
    c.deadline = c.start + time_limit if time_limit >= 0 else -1.0
    search_poll_plan(c)
    c.done.n = 0
    out.best = -1
    out.score = 0
    out.depth = 0
    out.pv_len = 0
    for d in range(1, max_depth + 1):
        c.horizon = 0
        v = search_root(c, root, d)
        if c.stop:
            break
        out.depth = d
        out.score = v
        out.pv_len = c.pv_len[0]
        for k in range(c.pv_len[0]):
            out.pv[k] = c.pv[0][k]
        out.best = c.pv[0][0]
        if every_move:
            memcpy(&c.done, &c.scored, sizeof(RootMoves))
        c.can_stop = 1
        search_poll_plan(c)
        if c.nodes >= c.max_nodes:
            break
        now = monotonic_seconds()
        if c.deadline >= 0 and now >= c.deadline:
            break
        # with a clock or a node budget: stop once the value is proven (every line
        # ended, or a win/loss no deeper search can change)
        if limited and (not c.horizon or v >= MATE - d or v <= -(MATE - d)):
            break
    out.nodes = c.nodes
    out.seconds = monotonic_seconds() - c.start
    c.js = NULL


# search_run(c, root, ...): search_nodes on root's working form (_dispatch.pxi.in)


cdef int auto_tt_bits(int max_depth, double limit, object max_nodes):
    """The table size when none is asked: about as many entries as the search will
    visit nodes (a fresh table costs a page fault per 4 KiB touched, which dominates
    short searches): ~2**21 entries per second of clock (16..22 bits), else
    depth + 4 bits (16..20: measured best for depths 6-16); with a node budget, at
    most its bit length (16..22)."""
    cdef int bits
    if limit >= 0:
        bits = 16
        while bits < 22 and (<double>(1 << bits)) < limit * (1 << 21):
            bits += 1
    else:
        bits = max_depth + 4
        bits = 16 if bits < 16 else 20 if bits > 20 else bits
    if max_nodes is not None:
        bits = min(bits, max(16, min(22, (<object>max_nodes).bit_length())))
    return bits


cdef tuple _search_limits(object depth, object time_seconds, object nodes):
    """(max_depth, time limit or -1, node budget or 0) from search's arguments, checked
    as katra._limits checks them (ArgumentTypeError / ArgumentError, naming each)."""
    cdef int max_depth = MAX_SEARCH_DEPTH
    cdef double limit = -1.0
    if depth is None and time_seconds is None and nodes is None:
        raise ArgumentError("search needs a depth, a time limit or a node budget "
                            "(one or more)")
    if depth is not None:
        max_depth = <int>_int_arg(depth, "depth", 1, MAX_SEARCH_DEPTH)
    if time_seconds is not None:       # any real number (a NumPy one too), not a bool
        limit = _limits.check_seconds(time_seconds, "time_seconds", MAX_SEARCH_TIME)
    if nodes is not None:
        _int_arg(nodes, "nodes", 1, MAX_SEARCH_NODES)
    return max_depth, limit, 0 if nodes is None else nodes


cdef class Searcher:
    """The search engine with its own transposition table, kept between calls
    (katra.Engine, docs/engine.md): a game searched move by move finds the
    positions of earlier searches in it.  tt_bits: 2**tt_bits entries of 16 bytes,
    0..28 (0: no table; None: 20, 16 MiB).  One thread at a time may use a
    Searcher (another thread's call raises RuntimeError)."""
    cdef SearchCtx* c
    cdef readonly int tt_bits
    cdef bint busy
    cdef object tables           # the endgame tables c.tables points into, kept alive

    def __cinit__(self, tt_bits=None, tables=None):
        cdef const EndTable* t = table_arg(tables)
        self.tt_bits = ENGINE_TT_BITS if tt_bits is None else <int>_int_arg(
            tt_bits, "tt_bits", 0, MAX_TT_BITS)
        self.c = search_alloc((<u64>1 << self.tt_bits) if self.tt_bits else 0)
        if self.c == NULL:
            raise MemoryError("search: cannot allocate its tables")
        self.c.tables = t
        self.tables = tables

    def __dealloc__(self):
        if self.c != NULL:
            search_free(self.c)

    def clear(self):
        """Forget every table entry (a new game needs none of them)."""
        if self.busy:
            raise RuntimeError("this Searcher is already in use (one thread at a time)")
        if self.c.tt != NULL:
            memset(self.c.tt, 0, self.c.tt_size * sizeof(TTEntry))

    def search(self, pos, depth=None, time_seconds=None, nodes=None, *, every_move=False):
        """search() (below) with this Searcher's table.  every_move=True also returns
        "moves": [(action, score, pv), ...] for every legal action (each searched
        with the full window, so each score is exact), in the core's child order."""
        cdef Position p = _check_position(pos)
        cdef tuple limits = _search_limits(depth, time_seconds, nodes)
        return self._run(p, limits, every_move)

    cdef dict _run(self, Position p, tuple limits, bint every_move):
        cdef int max_depth = limits[0]
        cdef double limit = limits[1]
        cdef u64 max_nodes = limits[2]
        cdef SearchOut out
        cdef JobStop js
        cdef IntPosition root = p.st
        cdef int k, j
        cdef int acts[MAX_CANDIDATES]
        cdef RootMoves* done = &self.c.done
        if legal_actions_c(&root, acts) == 0:
            raise ArgumentError(f"cannot search a finished game: {p.text()}")
        if self.busy:
            raise RuntimeError("this Searcher is already in use (one thread at a time)")
        self.busy = 1
        job_stop_init(&js)
        with nogil:
            search_run(self.c, &root, max_depth, limit, max_nodes, every_move, &js, &out)
        self.busy = 0
        raise_if_stopped(&js)
        result = {"best_action": out.best, "score": out.score, "depth": out.depth,
                  "nodes": out.nodes, "pv": [out.pv[k] for k in range(out.pv_len)],
                  "seconds": out.seconds}
        if every_move:
            result["moves"] = [(done.acts[k], done.scores[k],
                                [done.pv[k][j] for j in range(done.pv_len[k])])
                               for k in range(done.n)]
        return result


# The last one-shot search's Searcher (a table of at most 2**20 entries, 16
# MiB), kept for the next one of its size: a fresh table of that size costs
# more to map and zero than most searches at bench depths take.  Taken and
# put back under the GIL, so a search running in another thread has its own.
cdef Searcher _spare_searcher = None
cdef u64 _search_salts = 0


cdef void search_fresh(SearchCtx* c) noexcept:
    """Make c's table read as empty without touching it: a new salt (mix64 is a
    bijection, so each count gives a salt no earlier search used).  An entry
    written under another salt matches a key only by a 64-bit coincidence, as
    an empty entry does; the slots stay the keys' own, so a search finds what it
    would in a zeroed table (node counts included)."""
    global _search_salts
    _search_salts += 1
    c.salt = mix64(_search_salts)


def search(pos, depth=None, time_seconds=None, *, tt_bits=None, nodes=None, every_move=False):
    """Best action by iterative-deepening alpha-beta (docs/engine.md), without the GIL,
    from an empty table (a Searcher made for this call, or the previous call's
    when of the same size, its entries made unreadable: search_fresh).

    depth: None or an int 1..64 (the last iteration); time_seconds: None or a number
    in (0, 10**6] (the clock); nodes: None or an int 1..2**62 (the node budget); at
    least one of them, and the first limit reached stops the search.  tt_bits: the
    transposition table holds 2**tt_bits entries (16 bytes each); 0 turns it off; None
    sizes it by the clock (16..22 bits: 1-64 MiB) or else the depth (16..20 bits),
    and at most by the node budget.  Returns a dict: best_action, score (from the
    side to move), depth (of the last completed iteration), nodes, pv (list of
    actions, starting with best_action), seconds; every_move adds "moves"
    (Searcher.search).  pos is not changed.  Bad arguments raise
    katra.ArgumentTypeError / ArgumentError, a finished game ArgumentError.
    Ctrl-C raises KeyboardInterrupt (in the main thread), cancel_jobs() JobCancelled,
    within a few milliseconds (_stop.pxi).
    """
    global _spare_searcher
    cdef Position p = _check_position(pos)
    cdef tuple limits = _search_limits(depth, time_seconds, nodes)
    cdef Searcher engine
    cdef int bits
    cdef dict result
    if tt_bits is None:
        bits = auto_tt_bits(limits[0], limits[1], nodes)
    else:
        bits = <int>_int_arg(tt_bits, "tt_bits", 0, MAX_TT_BITS)
    engine = _spare_searcher
    if engine is not None and engine.tt_bits == bits:
        _spare_searcher = None
        search_fresh(engine.c)
    else:
        engine = Searcher(bits)
    result = engine._run(p, limits, every_move)
    if bits <= ENGINE_TT_BITS:
        _spare_searcher = engine
    return result
