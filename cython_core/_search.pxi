# The search engine (docs/engine.md): negamax alpha-beta (principal variation
# search) with iterative deepening, a transposition table keyed by a Zobrist
# hash, TT-move / capture / killer / history move ordering and a clock checked
# every few thousand nodes.  Everything below search_c runs without the GIL;
# search_c allocates its tables once per call and frees them on every path.
# A search is a job (_stop.pxi): Ctrl-C or cancel_jobs() stops it within a
# few milliseconds, and search() then raises instead of returning.
#
# Stack use: negamax keeps its per-ply arrays (actions, ordering keys, the
# children) in buffers on the heap, indexed by ply, so one level of the
# recursion costs a small fixed frame and a search at the deepest ply fits in
# the smallest thread stack Python allows (32 KiB; tests/test_crash_safety.py).

from libc.stdlib cimport calloc

cdef enum:
    SEARCH_MAX_PLY = 64          # the deepest iteration (and the longest PV)
    SEARCH_MAX_ACTIONS = 267     # the largest action space (Goré)
    SEARCH_MATE = 100000         # a win at ply p scores SEARCH_MATE - p
    SEARCH_MATE_BOUND = 99000    # |score| above this is a win / loss
    SEARCH_INF = 1000000
    SEARCH_MAX_SECONDS = 1000000 # the longest clock accepted (about 11.6 days)
    SEARCH_CLOCK_MASK = 2047     # look at the clock every 2048 nodes
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
    ORDER_GAIN = 1 << 20         # move-ordering key of one seed gained
    ORDER_KILLER = 1 << 19

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
    int pv[SEARCH_MAX_PLY]
    double seconds

ctypedef struct PlyLists:        # one ply's move lists (on the heap: see the top)
    int acts[MAX_CANDIDATES]
    int keys[MAX_CANDIDATES]
    int order[MAX_CANDIDATES]

ctypedef struct SearchCtx:
    TTEntry* tt
    u64 tt_mask
    u64 nodes
    double start
    double deadline              # < 0: no time limit
    int can_stop                 # the clock is honoured only once depth 1 is complete
    int stop
    int horizon                  # some line of this iteration was cut by depth (or the TT)
    int pv_len[SEARCH_MAX_PLY + 1]
    int pv[SEARCH_MAX_PLY + 1][SEARCH_MAX_PLY + 1]
    int killers[SEARCH_MAX_PLY + 1][2]
    int history[2][SEARCH_MAX_ACTIONS]
    JobStop* js                  # Ctrl-C and cancel_jobs() (_stop.pxi)
    State* children              # [SEARCH_MAX_PLY + 1][MAX_CANDIDATES], not zeroed: only
                                 # the plies reached are touched
    PlyLists* lists              # [SEARCH_MAX_PLY + 1], not zeroed either


cdef inline u64 search_key(const State* s) noexcept nogil:
    """The transposition tables' key: the position's hash (zobrist_of)."""
    return zobrist_of(s, &TABLES[s.game])


cdef int mobility(const State* s, GameTable* g, int p) noexcept nogil:
    """Origin holes player p could sow from if it were to move (lap limit and
    Goré offers/answers ignored): docs/engine.md."""
    return origin_count(s, g, p)


cdef inline int material(const State* s, GameTable* g, int p) noexcept nogil:
    """What player p has banked: seeds owned (Katro, Mpantsaka), the store (Goré,
    Djenon-aboure).  Used for move ordering (the gain of a move)."""
    cdef int i, total = 0
    if g.family == FAM_GORE or g.family == FAM_DJENON:
        return s.stores[p]
    for i in range(g.holes):
        if g.owner0[i] == p:
            total += s.board[i]
    return total


cdef inline int evaluate(const State* s) noexcept nogil:
    """Static evaluation from the side to move (docs/engine.md)."""
    cdef GameTable* g = &TABLES[s.game]
    cdef int me = s.to_move
    cdef int opp = 1 - me
    cdef int i, held = 0
    for i in range(g.holes):
        if owner_of(s, g, i) == me:
            held += s.board[i]
        else:
            held -= s.board[i]
    cdef int mob = EVAL_MOBILITY * (mobility(s, g, me) - mobility(s, g, opp))
    if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
        return EVAL_SEED * held + mob
    return EVAL_STORE * (s.stores[me] - s.stores[opp]) + EVAL_HOLE * held + mob


cdef bint has_legal(const State* s) noexcept nogil:
    """Exact non-terminal test, cheaper than listing: stops at the first legal action."""
    cdef int cand[MAX_CANDIDATES]
    cdef int n = candidates(s, cand)
    cdef int k
    cdef State child
    if n and is_gore(s):         # every candidate is legal
        return 1
    for k in range(n):
        copy_hot(&child, s)
        if play(&child, cand[k], LAP_LIMIT_C) >= 0:
            return 1
    return fallback(s) >= 0


cdef inline int terminal_score(const State* s, int ply) noexcept nogil:
    """A terminal position from the side to move: +-(MATE - ply), draws 0."""
    cdef int winner, south, north
    outcome_of(s, &winner, &south, &north)
    if winner < 0:
        return 0
    return SEARCH_MATE - ply if winner == s.to_move else -(SEARCH_MATE - ply)


cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    """Win/loss scores are stored relative to the node, not the root."""
    if score > SEARCH_MATE_BOUND:
        return score + ply
    if score < -SEARCH_MATE_BOUND:
        return score - ply
    return score


cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    if score > SEARCH_MATE_BOUND:
        return score - ply
    if score < -SEARCH_MATE_BOUND:
        return score + ply
    return score


cdef int negamax(SearchCtx* c, const State* s, int depth, int alpha, int beta,
                 int ply, bint pv_node) noexcept nogil:
    """The value of s to depth, from its side to move (fail-soft)."""
    cdef int* acts
    cdef int* keys
    cdef int* order
    cdef State* children
    cdef State* child
    cdef TTEntry* e = NULL
    cdef GameTable* g = &TABLES[s.game]
    cdef u64 key = 0
    cdef int n, i, j, k, tmp, a, v, best, best_move, alpha0, tt_move = -1, score, flag
    cdef int me = s.to_move
    cdef int before, bonus

    c.pv_len[ply] = 0
    c.nodes += 1
    if job_should_stop(c.js, SEARCH_NODE_WORK):
        c.stop = 1
    elif c.can_stop and c.deadline >= 0 and (c.nodes & SEARCH_CLOCK_MASK) == 0:
        if monotonic_seconds() >= c.deadline:
            c.stop = 1
    if c.stop:
        return 0

    if depth <= 0 or ply >= SEARCH_MAX_PLY:
        if not has_legal(s):
            return terminal_score(s, ply)
        c.horizon = 1
        return evaluate(s)

    if c.tt != NULL:
        key = search_key(s)
        e = &c.tt[key & c.tt_mask]
        if e.key == key:
            tt_move = e.move
            if not pv_node and e.depth >= depth:
                score = score_from_tt(e.score, ply)
                if (e.flag == TT_EXACT or (e.flag == TT_LOWER and score >= beta)
                        or (e.flag == TT_UPPER and score <= alpha)):
                    c.horizon = 1
                    return score

    children = &c.children[ply * MAX_CANDIDATES]
    acts = c.lists[ply].acts
    keys = c.lists[ply].keys
    order = c.lists[ply].order
    n = legal_children(s, acts, children)
    if n == 0:
        return terminal_score(s, ply)

    # ordering keys: TT move, then seeds gained, then killers, then history
    before = material(s, g, me)
    for k in range(n):
        order[k] = k
        a = acts[k]
        if a == tt_move:
            keys[k] = SEARCH_INF * 1000
            continue
        bonus = material(&children[k], g, me) - before
        if bonus > 0:
            keys[k] = ORDER_GAIN * bonus
        elif a == c.killers[ply][0] or a == c.killers[ply][1]:
            keys[k] = ORDER_KILLER
        else:
            keys[k] = c.history[me][a]

    best = -SEARCH_INF
    best_move = acts[0]
    alpha0 = alpha
    for i in range(n):
        # selection sort step: bring the best remaining key to slot i
        j = i
        for k in range(i + 1, n):
            if keys[order[k]] > keys[order[j]]:
                j = k
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp
        k = order[i]
        a = acts[k]
        child = &children[k]
        if i == 0:
            if child.to_move == me:
                v = negamax(c, child, depth - 1, alpha, beta, ply + 1, pv_node)
            else:
                v = -negamax(c, child, depth - 1, -beta, -alpha, ply + 1, pv_node)
        else:
            if child.to_move == me:
                v = negamax(c, child, depth - 1, alpha, alpha + 1, ply + 1, 0)
            else:
                v = -negamax(c, child, depth - 1, -alpha - 1, -alpha, ply + 1, 0)
            if pv_node and not c.stop and alpha < v < beta:
                if child.to_move == me:
                    v = negamax(c, child, depth - 1, alpha, beta, ply + 1, 1)
                else:
                    v = -negamax(c, child, depth - 1, -beta, -alpha, ply + 1, 1)
        if c.stop:
            return 0
        if v > best:
            best = v
            best_move = a
            if v > alpha:
                alpha = v
                c.pv[ply][0] = a
                for j in range(c.pv_len[ply + 1]):
                    c.pv[ply][j + 1] = c.pv[ply + 1][j]
                c.pv_len[ply] = c.pv_len[ply + 1] + 1
                if v >= beta:
                    if keys[k] < ORDER_KILLER:      # a quiet move: killer and history
                        if c.killers[ply][0] != a:
                            c.killers[ply][1] = c.killers[ply][0]
                            c.killers[ply][0] = a
                        c.history[me][a] += depth * depth
                        if c.history[me][a] > ORDER_KILLER // 2:
                            for j in range(SEARCH_MAX_ACTIONS):
                                c.history[0][j] //= 2
                                c.history[1][j] //= 2
                    break

    if e != NULL:
        if best <= alpha0:
            flag = TT_UPPER
        elif best >= beta:
            flag = TT_LOWER
        else:
            flag = TT_EXACT
        # depth-preferred replacement, but always replace entries of other positions
        if e.key != key or depth >= e.depth:
            e.key = key
            e.score = score_to_tt(best, ply)
            e.move = <short>best_move
            e.depth = <signed char>depth
            e.flag = <signed char>flag
    return best


cdef int search_c(const State* root, int max_depth, double time_limit, u64 tt_size,
                  JobStop* js, SearchOut* out) noexcept nogil:
    """Iterative deepening from root (which must have a legal action) up to max_depth
    plies and/or time_limit seconds (< 0: none).  tt_size entries (a power of two,
    0: no table).  Fills out with the last completed iteration; returns 0, or -1 if
    memory ran out.  Once js says stop, returns at once (out is then meaningless)."""
    cdef SearchCtx* c = <SearchCtx*>malloc(sizeof(SearchCtx))
    cdef int d, v, k
    cdef double now
    if c == NULL:
        return -1
    memset(c, 0, sizeof(SearchCtx))
    c.js = js
    c.children = <State*>malloc((SEARCH_MAX_PLY + 1) * MAX_CANDIDATES * sizeof(State))
    c.lists = <PlyLists*>malloc((SEARCH_MAX_PLY + 1) * sizeof(PlyLists))
    if tt_size:
        c.tt = <TTEntry*>calloc(tt_size, sizeof(TTEntry))
        c.tt_mask = tt_size - 1
    if c.children == NULL or c.lists == NULL or (tt_size and c.tt == NULL):
        search_free(c)
        return -1
    for d in range(SEARCH_MAX_PLY + 1):
        c.killers[d][0] = -1
        c.killers[d][1] = -1
    c.start = monotonic_seconds()
    c.deadline = c.start + time_limit if time_limit >= 0 else -1.0
    out.best = -1
    out.score = 0
    out.depth = 0
    out.pv_len = 0
    for d in range(1, max_depth + 1):
        c.horizon = 0
        v = negamax(c, root, d, -SEARCH_INF, SEARCH_INF, 0, 1)
        if c.stop:
            break
        out.depth = d
        out.score = v
        out.pv_len = c.pv_len[0]
        for k in range(c.pv_len[0]):
            out.pv[k] = c.pv[0][k]
        out.best = c.pv[0][0]
        c.can_stop = 1
        now = monotonic_seconds()
        if c.deadline >= 0:
            if now >= c.deadline:
                break
            # time mode: stop once the value is proven (every line ended, or a win/loss
            # no deeper search can change)
            if not c.horizon:
                break
            if v >= SEARCH_MATE - d or v <= -(SEARCH_MATE - d):
                break
    out.nodes = c.nodes
    out.seconds = monotonic_seconds() - c.start
    search_free(c)
    return 0


cdef void search_free(SearchCtx* c) noexcept nogil:
    free(c.tt)
    free(c.lists)
    free(c.children)
    free(c)


cdef int auto_tt_bits(int max_depth, double limit):
    """The table size when none is asked: about as many entries as the search will
    visit nodes (a fresh table costs a page fault per 4 KiB touched, which dominates
    short searches): ~2**21 entries per second of clock (16..22 bits), else
    depth + 4 bits (16..20: measured best for depths 6-16)."""
    cdef int bits
    if limit >= 0:
        bits = 16
        while bits < 22 and (<double>(1 << bits)) < limit * (1 << 21):
            bits += 1
        return bits
    bits = max_depth + 4
    return 16 if bits < 16 else 20 if bits > 20 else bits


def search(pos, depth=None, time_seconds=None, *, tt_bits=None):
    """Best action by iterative-deepening alpha-beta (docs/engine.md), without the GIL.

    depth: None or an int 1..64 (the last iteration); time_seconds: None or a number
    in (0, 10**6] (the clock); at least one of them.  tt_bits: the transposition table holds
    2**tt_bits entries (16 bytes each); 0 turns it off; None sizes it by the clock
    (16..22 bits: 1-64 MiB) or else the depth (16..20 bits).  Returns a dict: best_action,
    score (from the side to move), depth (of the last completed iteration), nodes,
    pv (list of actions, starting with best_action), seconds.  pos is not changed.
    Ctrl-C raises KeyboardInterrupt (in the main thread), cancel_jobs() JobCancelled,
    within a few milliseconds (_stop.pxi).
    """
    cdef Position p = _check_position(pos)
    cdef int max_depth = SEARCH_MAX_PLY
    cdef double limit = -1.0
    cdef int bits
    cdef u64 tt_size
    cdef SearchOut out
    cdef JobStop js
    cdef State root
    cdef int rc, k
    cdef int acts[MAX_CANDIDATES]
    if depth is None and time_seconds is None:
        raise ValueError("search needs a depth, a time limit or both")
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise ValueError(f"depth must be None or an int, not {type(depth).__name__}")
        if not 1 <= depth <= SEARCH_MAX_PLY:
            raise ValueError(f"depth must be in 1..{SEARCH_MAX_PLY}, got {depth}")
        max_depth = depth
    if time_seconds is not None:
        if isinstance(time_seconds, bool) or not isinstance(time_seconds, (int, float)):
            raise ValueError(f"time_seconds must be None or a positive number, "
                             f"not {type(time_seconds).__name__}")
        if not 0 < time_seconds <= SEARCH_MAX_SECONDS:   # also refuses nan
            raise ValueError(f"time_seconds must be in (0, {SEARCH_MAX_SECONDS}] seconds, "
                             f"got {time_seconds!r}")
        limit = time_seconds
    if tt_bits is None:
        bits = auto_tt_bits(max_depth if depth is not None else SEARCH_MAX_PLY, limit)
    elif isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 0 <= tt_bits <= 28:
        raise ValueError(f"tt_bits must be None or an int in 0..28, got {tt_bits!r}")
    else:
        bits = tt_bits
    tt_size = (<u64>1 << bits) if bits else 0
    root = p.st
    if legal_actions_c(&root, acts) == 0:
        raise ValueError(f"cannot search a finished game: {p.text()}")
    job_stop_init(&js)
    with nogil:
        rc = search_c(&root, max_depth, limit, tt_size, &js, &out)
    if rc != 0:
        raise MemoryError("search: cannot allocate its tables")
    raise_if_stopped(&js)
    return {"best_action": out.best, "score": out.score, "depth": out.depth,
            "nodes": out.nodes, "pv": [out.pv[k] for k in range(out.pv_len)],
            "seconds": out.seconds}
