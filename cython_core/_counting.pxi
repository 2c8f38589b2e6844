# Whole jobs run in C with the GIL released: perft, divide, playouts, each
# written once over the node layer (_node.pxi) and run on the working form
# node_root picks (the lanes of the game, or the int form).


# Perft keeps its own stack: one heap frame per ply (no C recursion), so any
# depth up to MAX_PERFT_DEPTH runs on the smallest thread stack.
ctypedef struct PerftFrame:
    Children kids          # the legal children of the frame's node, one at a time
    u64 leaves             # leaves counted below it so far

ctypedef struct PerftStack:
    PerftFrame* frames     # [depth + 1]
    NodeBox* nodes         # [depth + 2] nodes' room: frame i's node is node i
    NodeScratch scratch    # node_legal_count's


cdef int perft_stack_init(PerftStack* st, int depth) except -1:
    """Room for a perft of depth (perft_stack_free); MemoryError if none."""
    st.frames = <PerftFrame*>calloc(depth + 1, sizeof(PerftFrame))
    st.nodes = <NodeBox*>calloc(depth + 2, sizeof(NodeBox))
    if st.frames == NULL or st.nodes == NULL:
        perft_stack_free(st)
        raise MemoryError()
    return 0


cdef void perft_stack_free(PerftStack* st) noexcept nogil:
    free(st.frames)
    free(st.nodes)
    st.frames = NULL
    st.nodes = NULL


cdef inline u64 perft_two(const Node* s, Node* child, NodeScratch* scratch,
                          long long* work) noexcept nogil:
    """perft(s, 2): the legal moves of every legal child, counted, not made
    (node_legal_count), and the children whose counts node_count_made knows
    are not made either."""
    cdef int k, n, m
    cdef long long laps
    cdef u64 leaves = 0
    cdef int legal = 0
    cdef unsigned opp_seeded = node_opp_seeded(s)
    n = node_count_made(s, scratch.cand, &leaves)
    for k in range(n):
        m = scratch.cand[k]
        work[0] += 1
        laps = node_play_seeded(child, s, m, opp_seeded)
        work[0] += laps if laps >= 0 else -laps
        if laps >= 0:
            legal += 1
            leaves += node_legal_count(child, scratch, work)
    if legal == 0 and leaves == 0:
        m = node_fallback(s)
        if m >= 0:
            node_play(child, s, m)
            leaves += node_legal_count(child, scratch, work)
    return leaves


cdef u64 perft_nodes(const Node* root, int depth, PerftStack* st, JobStop* js) noexcept nogil:
    """docs/rules.md §1.4 for depth >= 1, copy-make, on st's frames; 0 once the
    job must stop.  The children are made in any order, the last two plies
    by perft_two.  A function of its own for each node type (not inline): in
    one dispatcher the eight loops' register allocations swayed one another
    (a change to Goré's cost Katro's 3% more instructions)."""
    cdef Node* nodes = <Node*>st.nodes       # nodes[i]: frame i's node
    cdef PerftFrame* frames = st.frames
    cdef int top = 0                          # frames[top] is the node being expanded
    cdef PerftFrame* f
    cdef long long work = 0
    cdef int a
    if depth == 1:
        return node_legal_count(root, &st.scratch, &work)
    if depth == 2:
        return perft_two(root, &nodes[0], &st.scratch, &work)
    nodes[0] = root[0]
    frames[0].leaves = 0
    node_children_begin(&frames[0].kids, &nodes[0], 0)
    while True:
        f = &frames[top]
        work = f.kids.work
        a = node_children_next(&f.kids, &nodes[top], &nodes[top + 1])
        if a >= 0:
            if top == depth - 3:     # the child's perft(2)
                f.leaves += perft_two(&nodes[top + 1], &nodes[top + 2], &st.scratch, &f.kids.work)
            else:
                top += 1
                frames[top].leaves = 0
                node_children_begin(&frames[top].kids, &nodes[top], 0)
        if job_should_stop(js, f.kids.work - work + 1):
            return 0
        if a >= 0:
            continue
        # every child of frames[top] is counted
        if top == 0:
            return f.leaves
        top -= 1
        frames[top].leaves += f.leaves


# perft_count(root, ...): perft_nodes on root's working form (_dispatch.pxi.in)


cdef int _check_depth(object depth, int minimum) except -1:
    """A perft depth in minimum..MAX_PERFT_DEPTH (ValueError otherwise)."""
    return <int>_int_arg(depth, "depth", minimum, _games.MAX_PERFT_DEPTH)


cdef Position _check_position(object pos):
    if not isinstance(pos, Position):
        raise ArgumentTypeError(f"pos must be a katra._core.Position, not {type(pos).__name__}")
    return <Position>pos


def perft(pos, depth):
    """Leaf count of the legal-move tree to depth (docs/rules.md §1.4)."""
    cdef Position p = _check_position(pos)
    cdef int d = _check_depth(depth, 0)
    cdef IntPosition root = p.st
    cdef u64 count
    cdef JobStop js
    cdef PerftStack st
    if d == 0:
        return 1
    perft_stack_init(&st, d)
    job_stop_init(&js)
    with nogil:
        count = perft_count(&root, d, &st, &js)
    perft_stack_free(&st)
    raise_if_stopped(&js)
    return count


cdef inline int divide_nodes(const Node* root, int depth, PerftStack* st, int* acts, u64* counts,
                             JobStop* js) noexcept nogil:
    """The legal actions of root, ascending, and perft(child, depth - 1) of
    each; returns how many."""
    cdef Children it
    cdef Node child
    cdef int a, n = 0
    node_children_begin(&it, root, 1)
    a = node_children_next(&it, root, &child)
    while a >= 0:
        acts[n] = node_action(root, a)
        counts[n] = 1 if depth == 1 else perft_nodes(&child, depth - 1, st, js)
        n += 1
        a = node_children_next(&it, root, &child)
    return n


# divide_count(root, ...): divide_nodes on root's working form (_dispatch.pxi.in)


def divide(pos, depth):
    """[(action, perft(child, depth - 1)), ...] over the legal actions, ascending."""
    cdef Position p = _check_position(pos)
    cdef int d = _check_depth(depth, 1)
    cdef IntPosition root = p.st
    cdef int acts[MAX_CANDIDATES]
    cdef u64 counts[MAX_CANDIDATES]
    cdef int n, k
    cdef JobStop js
    cdef PerftStack st
    perft_stack_init(&st, d)
    job_stop_init(&js)
    with nogil:
        n = divide_count(&root, d, &st, acts, counts, &js)
    perft_stack_free(&st)
    raise_if_stopped(&js)
    return [(acts[k], counts[k]) for k in range(n)]


# ---------------------------------------------------------------- playouts

# How a playout ended.
cdef enum:
    PLAYOUT_SOUTH = 0
    PLAYOUT_NORTH = 1
    PLAYOUT_DRAW = 2
    PLAYOUT_UNFINISHED = 3
    PLAYOUT_STOPPED = 4


cdef inline int winner_code(int winner) noexcept nogil:
    return PLAYOUT_SOUTH if winner == 0 else PLAYOUT_NORTH if winner == 1 else PLAYOUT_DRAW


# The playouts report their work to job_should_stop in batches of at least
# this much (a ply of Goré costs a few nanoseconds; the poll itself comes
# every STOP_CHECK_WORK units all the same).
cdef enum:
    PLAYOUT_STOP_BATCH = 64


cdef inline int playout_node(const Node* root, u64 rng, long long cap, long long* plies,
                             JobStop* js, Node* kids, long long* pending) noexcept nogil:
    """One game of docs/rules.md §6.2 from root, its generator starting at
    rng, at most cap plies (their number into plies): each ply the legal moves
    in ascending action order, sowing only the candidates whose first lap may
    not end (their children kept in kids, room for MAX_CANDIDATES nodes), then
    the drawn one is played (Goré: counted from masks, and only the drawn move
    made).  pending: the work not yet reported to job_should_stop (carried
    from game to game).  The counters live in locals for the game (the
    compiler keeps them in registers), written back once."""
    cdef Node node = root[0]
    cdef int moves[MAX_CANDIDATES]
    cdef unsigned char sown[MAX_CANDIDATES]
    cdef int n, pick, result
    cdef long long work
    cdef long long done = 0               # plies played
    cdef long long unreported = pending[0]
    while True:
        unreported += 1
        if unreported >= PLAYOUT_STOP_BATCH:
            if job_should_stop(js, unreported):
                result = PLAYOUT_STOPPED
                break
            unreported = 0
        if node_all_legal(&node):
            # the draw is made before the cap is checked: at the cap the game,
            # and its generator, end unused
            n = node_draw_legal(&node, &rng, &pick)
            if n == 0:
                result = winner_code(node_winner(&node))
                break
            if done == cap:
                result = PLAYOUT_UNFINISHED
                break
            node_apply(&node, pick)
            done += 1
            continue
        work = 0
        n = node_legal_moves(&node, moves, sown, kids, &work)
        if n == 0:
            result = winner_code(node_winner(&node))
            break
        if done == cap:
            result = PLAYOUT_UNFINISHED
            break
        pick = <int>(mod_small(splitmix64(&rng), n))
        if sown[pick]:
            node = kids[pick]
        else:
            work += node_play(&kids[0], &node, moves[pick])
            node = kids[0]
        done += 1
        unreported += work
    plies[0] = done
    pending[0] = unreported
    return result


cdef inline int playout_batch(const Node* root, u64 seed, long long first, long long n_games,
                              long long cap, u64* tally, u64* total_plies, Node* kids,
                              JobStop* js) noexcept nogil:
    """Games first..first + n_games - 1 of the seeded batch from root (game i's
    generator starts at seed + i * 2**32, §6.2) into tally; -1 once stopped."""
    cdef long long game, plies
    cdef long long pending = PLAYOUT_STOP_BATCH     # poll before the first ply
    cdef int result
    for game in range(n_games):
        result = playout_node(root, seed + (<u64>(first + game) << 32), cap, &plies, js, kids,
                              &pending)
        if result == PLAYOUT_STOPPED:
            return -1
        tally[result] += 1
        total_plies[0] += <u64>plies
    return 0


# playout_count(root, ...): playout_batch on root's working form (_dispatch.pxi.in)


def playouts(pos, games, seed, max_plies, first_game=0):
    """Games first_game.. of the seeded batch from pos (docs/rules.md §6.2), each
    stopped, unfinished, after max_plies plies (the backends' common signature,
    docs/backends.md); a dict of counts."""
    cdef Position p = _check_position(pos)
    _limits.check_playout_args(games, seed, max_plies, first_game)   # as the API checks them
    cdef long long n_games = games
    cdef long long cap = max_plies
    cdef u64 seed_c = seed
    cdef long long first = first_game
    cdef IntPosition root = p.st
    cdef u64 tally[4]              # by PLAYOUT_SOUTH .. PLAYOUT_UNFINISHED
    cdef u64 total_plies = 0
    cdef JobStop js
    cdef NodeBox* kids = <NodeBox*>malloc(MAX_CANDIDATES * sizeof(NodeBox))
    if kids == NULL:
        raise MemoryError()
    memset(tally, 0, sizeof(tally))
    job_stop_init(&js)
    with nogil:
        playout_count(&root, seed_c, first, n_games, cap, tally, &total_plies, kids, &js)
    free(kids)
    raise_if_stopped(&js)
    return {"games": n_games, "south_wins": tally[PLAYOUT_SOUTH],
            "north_wins": tally[PLAYOUT_NORTH], "draws": tally[PLAYOUT_DRAW],
            "unfinished": tally[PLAYOUT_UNFINISHED], "plies": total_plies}
