# Whole jobs run in C with the GIL released: perft, divide, playouts.


# Perft keeps its own stack: one heap frame per ply (no C recursion), so any
# depth up to MAX_PERFT_DEPTH runs on the smallest thread stack.
ctypedef struct PerftFrame:
    State node
    Children kids          # the legal children of node, produced one at a time
    u64 leaves             # leaves counted below node so far


cdef PerftFrame* perft_frames(int depth) except NULL:
    """Frames for a perft of depth (free() them); MemoryError if none."""
    cdef PerftFrame* frames = <PerftFrame*>calloc(depth + 1, sizeof(PerftFrame))
    if frames == NULL:
        raise MemoryError()
    return frames


cdef u64 perft_count(const State* root, int depth, PerftFrame* frames,
                     JobStop* js) noexcept nogil:
    """docs/rules.md §1.4 for depth >= 1, copy-make, on frames[0..depth]; 0 once the
    job must stop.  The last ply is only counted (legal_count_of: bulk counting).
    A position that fits the lanes is counted on them (perft_count_lanes, the
    frames reused as lane frames); else one loop per family, so that each is
    compiled for its family alone."""
    cdef GameTable* g = &TABLES[root.game]
    if LANES_ENABLED and lanes_fit(root):
        return perft_count_lanes(root, depth, <void*>frames, js)
    if g.family == FAM_KATRO:
        return perft_count_of(root, depth, frames, js, g, FAM_KATRO)
    if g.family == FAM_MPANTSAKA:
        return perft_count_of(root, depth, frames, js, g, FAM_MPANTSAKA)
    if g.family == FAM_GORE:
        return perft_count_of(root, depth, frames, js, g, FAM_GORE)
    return perft_count_of(root, depth, frames, js, g, FAM_DJENON)


cdef inline u64 perft_count_of(const State* root, int depth, PerftFrame* frames, JobStop* js,
                               GameTable* g, int family) noexcept nogil:
    cdef int top = 0                 # frames[top] is the node being expanded
    cdef PerftFrame* f
    cdef long long work
    cdef int a
    if depth == 1:
        work = 0
        return legal_count_of(root, g, family, &frames[1].node, &work)
    frames[0].node = root[0]
    frames[0].leaves = 0
    children_begin_of(&frames[0].kids, &frames[0].node, g, family)
    while True:
        f = &frames[top]
        work = f.kids.work
        a = children_next_of(&f.kids, &f.node, g, family, &frames[top + 1].node)
        if a >= 0:
            if top == depth - 2:     # the child's legal actions are the leaves
                f.leaves += legal_count_of(&frames[top + 1].node, g, family,
                                           &frames[top + 2].node, &f.kids.work)
            else:
                top += 1
                frames[top].leaves = 0
                children_begin_of(&frames[top].kids, &frames[top].node, g, family)
        if job_should_stop(js, f.kids.work - work + 1):
            return 0
        if a >= 0:
            continue
        # every child of frames[top] is counted
        if top == 0:
            return f.leaves
        top -= 1
        frames[top].leaves += f.leaves


# ---------------------------------------------------------------- perft on lanes

# A lane frame: perft_frames' PerftFrame buffer, reused (a lane frame is smaller).
ctypedef struct SideFrame:
    SideNode node
    u64 moves              # candidate moves of node not yet tried
    u64 leaves


cdef inline u64 perft_count_lanes(const State* root, int depth, void* frames,
                                  JobStop* js) noexcept nogil:
    """perft_count for a position that fits the lanes: one specialised loop per
    game shape (the lane count and words are constants in each)."""
    cdef GameTable* g = &TABLES[root.game]
    cdef SideNode side
    cdef DjenonNode djenon
    cdef GoreNode gore
    cdef const SideLanes* T = &SIDE_LANES[root.game]
    if g.family == FAM_KATRO:
        side_pack(&side, root, T)
        if g.path_len == 18:
            return side_perft(&side, depth, <SideFrame*>frames, js, T, FAM_KATRO, 0, 3, 18)
        if g.path_len == 12:
            return side_perft(&side, depth, <SideFrame*>frames, js, T, FAM_KATRO, 0, 2, 12)
        return side_perft(&side, depth, <SideFrame*>frames, js, T, FAM_KATRO, 0, 1, 8)
    if g.family == FAM_MPANTSAKA:
        side_pack(&side, root, T)
        if g.simplified:
            return side_perft(&side, depth, <SideFrame*>frames, js, T, FAM_MPANTSAKA, 1, 2, 16)
        return side_perft(&side, depth, <SideFrame*>frames, js, T, FAM_MPANTSAKA, 0, 2, 16)
    if g.family == FAM_GORE:
        gore_pack(&gore, root)
        return gore_perft(&gore, depth, <GoreFrame*>frames, js)
    djenon_pack(&djenon, root)
    return djenon_perft(&djenon, depth, <DjenonFrame*>frames, js)


ctypedef struct GoreFrame:
    GoreNode node
    int n                  # legal actions of node
    int k                  # the next to try
    u64 leaves
    int acts[MAX_CANDIDATES]


cdef inline int gore_frame_begin(GoreFrame* f) noexcept nogil:
    cdef GoreView v
    gore_view_lanes(&v, &f.node)
    f.n = gore_actions_of(&v, f.acts)
    f.k = 0
    f.leaves = 0
    return f.n


cdef inline int gore_count_lanes(const GoreNode* s) noexcept nogil:
    cdef GoreView v
    gore_view_lanes(&v, s)
    return gore_count_of(&v)


cdef inline u64 gore_perft(const GoreNode* root, int depth, GoreFrame* frames,
                           JobStop* js) noexcept nogil:
    """perft_count_of on Goré's word (frames[0..depth]); the last ply counted
    from masks.  Every action is legal (no relays)."""
    cdef int top = 0
    cdef GoreFrame* f
    if depth == 1:
        return gore_count_lanes(root)
    frames[0].node = root[0]
    gore_frame_begin(&frames[0])
    while True:
        f = &frames[top]
        if f.k < f.n:
            frames[top + 1].node = f.node
            gore_apply_lanes(&frames[top + 1].node, f.acts[f.k])
            f.k += 1
            if top == depth - 2:
                f.leaves += gore_count_lanes(&frames[top + 1].node)
            else:
                top += 1
                gore_frame_begin(&frames[top])
            if job_should_stop(js, 1):
                return 0
            continue
        if top == 0:
            return f.leaves
        top -= 1
        frames[top].leaves += f.leaves


ctypedef struct DjenonFrame:
    DjenonNode node
    unsigned moves         # candidate lanes of node not yet tried
    int legal              # legal children so far
    int pass_tried
    u64 leaves


cdef inline u64 djenon_perft(const DjenonNode* root, int depth, DjenonFrame* frames,
                             JobStop* js) noexcept nogil:
    """perft_count_of on Djenon-aboure's lanes (frames[0..depth]); the pass is a
    child when no sowing is legal and some hole holds 2 or more."""
    cdef int top = 0, x
    cdef DjenonFrame* f
    cdef long long work, laps
    if depth == 1:
        work = 0
        return djenon_legal_count_lanes(root, &frames[1].node, &work)
    frames[0].node = root[0]
    frames[0].moves = djenon_sowing_candidates_lanes(root)
    frames[0].legal = 0
    frames[0].pass_tried = 0
    frames[0].leaves = 0
    while True:
        f = &frames[top]
        if f.moves or (f.legal == 0 and not f.pass_tried):
            if f.moves:
                x = lowest_bit(f.moves)
                f.moves &= f.moves - 1
            else:
                f.pass_tried = 1
                x = -1
                if not djenon_pass_forced_lanes(&f.node):
                    continue
            laps = djenon_play_lanes(&frames[top + 1].node, &f.node, x)
            work = 1 + (laps if laps >= 0 else -laps)
            if laps >= 0:
                f.legal += 1
                if top == depth - 2:
                    f.leaves += djenon_legal_count_lanes(&frames[top + 1].node,
                                                         &frames[top + 2].node, &work)
                else:
                    top += 1
                    frames[top].moves = djenon_sowing_candidates_lanes(&frames[top].node)
                    frames[top].legal = 0
                    frames[top].pass_tried = 0
                    frames[top].leaves = 0
            if job_should_stop(js, work):
                return 0
            continue
        if top == 0:
            return f.leaves
        top -= 1
        frames[top].leaves += f.leaves


cdef inline u64 side_perft(const SideNode* root, int depth, SideFrame* frames, JobStop* js,
                           const SideLanes* T, int family, int simplified, int NW,
                           int L) noexcept nogil:
    """perft_count_of on the lanes of Katro and Katra Mpantsaka (frames[0..depth])."""
    cdef int top = 0, move
    cdef SideFrame* f
    cdef long long work, laps
    if depth == 1:
        work = 0
        return side_legal_count(root, &frames[1].node, T, family, simplified, NW, L, &work)
    frames[0].node = root[0]
    frames[0].moves = side_moves(root, T, family, simplified, NW)
    frames[0].leaves = 0
    while True:
        f = &frames[top]
        if f.moves:
            move = lowest_bit(f.moves)
            f.moves &= f.moves - 1
            laps = side_play_lanes(&frames[top + 1].node, &f.node, move, T, family, NW, L)
            work = 1 + (laps if laps >= 0 else -laps)
            if laps >= 0:
                if top == depth - 2:     # the child's legal moves are the leaves
                    f.leaves += side_legal_count(&frames[top + 1].node, &frames[top + 2].node,
                                                 T, family, simplified, NW, L, &work)
                else:
                    top += 1
                    frames[top].moves = side_moves(&frames[top].node, T, family, simplified, NW)
                    frames[top].leaves = 0
            if job_should_stop(js, work):
                return 0
            continue
        # every child of frames[top] is counted
        if top == 0:
            return f.leaves
        top -= 1
        frames[top].leaves += f.leaves


cdef int _check_depth(object depth, int minimum) except -1:
    """A perft depth in minimum..MAX_PERFT_DEPTH (ValueError otherwise)."""
    cdef long long d = _int_arg(depth, "depth", minimum, 1LL << 62)
    if d > _games.MAX_PERFT_DEPTH:
        raise ValueError(f"depth must be <= {_games.MAX_PERFT_DEPTH}, got {depth}")
    return <int>d


cdef Position _check_position(object pos):
    if not isinstance(pos, Position):
        raise ValueError(f"pos must be a katra._core.Position, not {type(pos).__name__}")
    return <Position>pos


def perft(pos, depth):
    """Leaf count of the legal-move tree to depth (docs/rules.md §1.4)."""
    cdef Position p = _check_position(pos)
    cdef int d = _check_depth(depth, 0)
    cdef State root = p.st
    cdef u64 count
    cdef JobStop js
    cdef PerftFrame* frames
    if d == 0:
        return 1
    frames = perft_frames(d)
    job_stop_init(&js)
    with nogil:
        count = perft_count(&root, d, frames, &js)
    free(frames)
    raise_if_stopped(&js)
    return count


def divide(pos, depth):
    """[(action, perft(child, depth - 1)), ...] over the legal actions, ascending."""
    cdef Position p = _check_position(pos)
    cdef int d = _check_depth(depth, 1)
    cdef State root = p.st
    cdef int acts[MAX_CANDIDATES]
    cdef u64 counts[MAX_CANDIDATES]
    cdef int n, k
    cdef JobStop js
    cdef PerftFrame* frames
    cdef State* children = <State*>malloc(MAX_CANDIDATES * sizeof(State))
    if children == NULL:
        raise MemoryError()
    try:
        frames = perft_frames(d)
    except MemoryError:
        free(children)
        raise
    job_stop_init(&js)
    with nogil:
        n = legal_children(&root, acts, children)
        for k in range(n):
            counts[k] = 1 if d == 1 else perft_count(&children[k], d - 1, frames, &js)
    free(frames)
    free(children)
    raise_if_stopped(&js)
    return [(acts[k], counts[k]) for k in range(n)]


def playouts(pos, games, seed, max_plies, first_game=0):
    """Games first_game.. of the seeded batch from pos (docs/rules.md §6.2); a dict of counts."""
    cdef Position p = _check_position(pos)
    cdef long long n_games = _int_arg(games, "games", 0, 1LL << 62)
    cdef long long limit = _int_arg(max_plies, "max_plies", 0, 1LL << 62)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
    cdef u64 seed_c = <u64>seed
    cdef long long first = _int_arg(first_game, "first_game", 0, (1LL << 62) + 1)
    if first > (1LL << 62) - n_games:
        raise ValueError(f"first_game + games must be <= 2**62, got {first_game} + {games}")
    cdef State root = p.st
    cdef State st
    cdef int acts[MAX_CANDIDATES]
    cdef long long game, plies
    cdef u64 rng
    cdef u64 south_wins = 0, north_wins = 0, draws = 0, unfinished = 0, total_plies = 0
    cdef int n, winner, south, north
    cdef u64 pick
    cdef long long work
    cdef bint fast
    cdef int a
    cdef JobStop js
    job_stop_init(&js)
    with nogil:
        for game in range(n_games):
            if js.reason != STOP_NONE:
                break
            rng = seed_c + (<u64>(first + game) << 32)
            st = root
            plies = 0
            work = 1
            while not job_should_stop(&js, work):
                # the legal actions (most without sowing: first_lap_ends), then
                # only the drawn one is played, in place
                work = 1
                fast = relay_free(&st)   # Goré: count, then make only the drawn action
                n = gore_count_actions(&st) if fast else legal_actions_work(&st, acts, &work)
                if n == 0:
                    outcome_of(&st, &winner, &south, &north)
                    if winner == 0:
                        south_wins += 1
                    elif winner == 1:
                        north_wins += 1
                    else:
                        draws += 1
                    break
                if plies == limit:
                    unfinished += 1
                    break
                pick = splitmix64(&rng) % <u64>n
                a = gore_nth_action(&st, <int>pick) if fast else acts[pick]
                work += play(&st, a, LAP_LIMIT_C)
                plies += 1
            total_plies += <u64>plies
    raise_if_stopped(&js)
    return {"games": n_games, "south_wins": south_wins, "north_wins": north_wins,
            "draws": draws, "unfinished": unfinished, "plies": total_plies}
