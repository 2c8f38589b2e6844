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
    cdef SideFrame* sf = <SideFrame*>frames
    if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
        side_pack(&side, root, &SIDE_LANES[root.game])
    if root.game == GAME_KATRO:
        return side_perft(&side, depth, sf, js, &SIDE_LANES[GAME_KATRO], FAM_KATRO, 0, 3, 18)
    if root.game == GAME_KATRO_4X6:
        return side_perft(&side, depth, sf, js, &SIDE_LANES[GAME_KATRO_4X6], FAM_KATRO, 0, 2, 12)
    if root.game == GAME_KATRO_4X4:
        return side_perft(&side, depth, sf, js, &SIDE_LANES[GAME_KATRO_4X4], FAM_KATRO, 0, 1, 8)
    if root.game == GAME_MPANTSAKA:
        return side_perft(&side, depth, sf, js, &SIDE_LANES[GAME_MPANTSAKA],
                          FAM_MPANTSAKA, 0, 2, 16)
    if root.game == GAME_MPANTSAKA_SIMPLIFIED:
        return side_perft(&side, depth, sf, js, &SIDE_LANES[GAME_MPANTSAKA_SIMPLIFIED],
                          FAM_MPANTSAKA, 1, 2, 16)
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


cdef inline u64 gore_perft(const GoreNode* root, int depth, GoreFrame* frames,
                           JobStop* js) noexcept nogil:
    """perft_count_of on Goré's word (frames[0..depth]); the last ply counted
    from masks.  Every action is legal (no relays)."""
    cdef int top = 0, a
    cdef GoreFrame* f
    if depth == 1:
        return gore_count_lanes(root)
    frames[0].node = root[0]
    gore_frame_begin(&frames[0])
    while True:
        f = &frames[top]
        if f.k < f.n:
            a = f.acts[f.k]
            f.k += 1
            if top == depth - 2 and GORE_OFFER_BASE_C <= a < GORE_PASS_C:
                f.leaves += 2           # an offer's answers: accept or decline
                continue
            frames[top + 1].node = f.node
            gore_apply_lanes(&frames[top + 1].node, a)
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
    return <int>_int_arg(depth, "depth", minimum, _games.MAX_PERFT_DEPTH)


cdef Position _check_position(object pos):
    if not isinstance(pos, Position):
        raise ArgumentTypeError(f"pos must be a katra._core.Position, not {type(pos).__name__}")
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


cdef inline int playout_state(const State* root, u64* rng, long long limit, long long* plies,
                              JobStop* js) noexcept nogil:
    """One game of docs/rules.md §6.2 from root on the State form: each ply the
    legal actions (most without sowing: first_lap_ends), then only the drawn
    one is played, in place."""
    cdef State st = root[0]
    cdef int acts[MAX_CANDIDATES]
    cdef int n, a, winner, south, north
    cdef long long work = 1
    cdef bint fast = is_gore(&st)     # Goré: count, then make only the drawn action
    while not job_should_stop(js, work):
        work = 1
        n = gore_count_actions(&st) if fast else legal_actions_work(&st, acts, &work)
        if n == 0:
            outcome_of(&st, &winner, &south, &north)
            return winner_code(winner)
        if plies[0] == limit:
            return PLAYOUT_UNFINISHED
        a = <int>(mod_small(splitmix64(rng), n))
        a = gore_nth_action(&st, a) if fast else acts[a]
        work += play(&st, a, LAP_LIMIT_C)
        plies[0] += 1
    return PLAYOUT_STOPPED


cdef inline int side_playout(const SideNode* root, int to_move, u64* rng, long long limit,
                             long long* plies, JobStop* js, const SideLanes* T, int family,
                             int simplified, int NW, int L) noexcept nogil:
    """playout_state on the lanes of Katro and Katra Mpantsaka.  The legal moves
    are listed in ascending action order (origin, then direction); a candidate
    first_lap_ends cannot settle is sown once, and its child kept for the draw."""
    cdef SideNode node = root[0]
    cdef SideNode kids[2 * MAX_LANES]
    cdef int acts[2 * MAX_LANES]
    cdef bint sown[2 * MAX_LANES]
    cdef u64 moves
    cdef int i, d, move, n, pick
    cdef long long laps, work = 1
    while not job_should_stop(js, work):
        work = 1
        moves = side_moves(&node, T, family, simplified, NW)
        n = 0
        for i in range(L):
            for d in range(2 if family == FAM_MPANTSAKA else 1):
                move = T.ascending[to_move][i] + 32 * d
                if not (moves >> move) & 1:
                    continue
                work += 1
                if side_first_lap_ends(&node, move, T, L):
                    acts[n] = move
                    sown[n] = 0
                    n += 1
                else:
                    laps = side_play_lanes(&kids[n], &node, move, T, family, NW, L)
                    work += laps if laps >= 0 else -laps
                    if laps >= 0:
                        acts[n] = move
                        sown[n] = 1
                        n += 1
        if n == 0:              # the player to move has no legal move and loses
            return PLAYOUT_NORTH if to_move == 0 else PLAYOUT_SOUTH
        if plies[0] == limit:
            return PLAYOUT_UNFINISHED
        pick = <int>(mod_small(splitmix64(rng), n))
        if sown[pick]:
            node = kids[pick]
        else:
            work += side_play_lanes(&kids[0], &node, acts[pick], T, family, NW, L)
            node = kids[0]
        to_move = 1 - to_move
        plies[0] += 1
    return PLAYOUT_STOPPED


cdef inline int djenon_playout(const DjenonNode* root, u64* rng, long long limit,
                               long long* plies, JobStop* js) noexcept nogil:
    """playout_state on Djenon-aboure's lanes (as side_playout; the pass when forced)."""
    cdef DjenonNode node = root[0]
    cdef DjenonNode kids[6]
    cdef int acts[6]
    cdef bint sown[6]
    cdef unsigned moves
    cdef int i, x, n, pick, south, north
    cdef long long laps, work = 1
    while not job_should_stop(js, work):
        work = 1
        moves = djenon_sowing_candidates_lanes(&node)
        n = 0
        for i in range(6):
            x = DJENON_LANES.ascending[node.to_move][i]
            if not (moves >> x) & 1:
                continue
            work += 1
            if djenon_first_lap_ends_lanes(&node, x):
                acts[n] = x
                sown[n] = 0
                n += 1
            else:
                laps = djenon_play_lanes(&kids[n], &node, x)
                work += laps if laps >= 0 else -laps
                if laps >= 0:
                    acts[n] = x
                    sown[n] = 1
                    n += 1
        if n == 0:
            if not djenon_pass_forced_lanes(&node):     # over: stores plus rows (§5.3)
                djenon_scores_lanes(&node, &south, &north)
                return (PLAYOUT_SOUTH if south > north else
                        PLAYOUT_NORTH if north > south else PLAYOUT_DRAW)
            acts[0] = -1            # the forced pass
            sown[0] = 0
            n = 1
        if plies[0] == limit:
            return PLAYOUT_UNFINISHED
        pick = <int>(mod_small(splitmix64(rng), n))
        if sown[pick]:
            node = kids[pick]
        else:
            work += djenon_play_lanes(&kids[0], &node, acts[pick])
            node = kids[0]
        plies[0] += 1
    return PLAYOUT_STOPPED


cdef inline int gore_playout(const GoreNode* root, u64* rng, long long limit, long long* plies,
                             JobStop* js) noexcept nogil:
    """playout_state on Goré's word: count from masks, make only the drawn action."""
    cdef GoreNode node = root[0]
    cdef GoreView v
    cdef int n, south, north
    while not job_should_stop(js, 1):
        gore_view_lanes(&v, &node)
        n = gore_count_of(&v)
        if n == 0:
            gore_scores_lanes(&node, &south, &north)
            return (PLAYOUT_SOUTH if south > north else
                    PLAYOUT_NORTH if north > south else PLAYOUT_DRAW)
        if plies[0] == limit:
            return PLAYOUT_UNFINISHED
        gore_apply_lanes(&node, gore_nth_of(&v, <int>(mod_small(splitmix64(rng), n))))
        plies[0] += 1
    return PLAYOUT_STOPPED


cdef inline int playout_lanes(const State* root, u64* rng, long long limit, long long* plies,
                              JobStop* js) noexcept nogil:
    """playout_state for a position that fits the lanes: packed once a game, then
    one specialised loop per game shape."""
    cdef GameTable* g = &TABLES[root.game]
    cdef SideNode side
    cdef DjenonNode djenon
    cdef GoreNode gore
    cdef int p = root.to_move
    if g.family == FAM_KATRO or g.family == FAM_MPANTSAKA:
        side_pack(&side, root, &SIDE_LANES[root.game])
    if root.game == GAME_KATRO:
        return side_playout(&side, p, rng, limit, plies, js, &SIDE_LANES[GAME_KATRO],
                            FAM_KATRO, 0, 3, 18)
    if root.game == GAME_KATRO_4X6:
        return side_playout(&side, p, rng, limit, plies, js, &SIDE_LANES[GAME_KATRO_4X6],
                            FAM_KATRO, 0, 2, 12)
    if root.game == GAME_KATRO_4X4:
        return side_playout(&side, p, rng, limit, plies, js, &SIDE_LANES[GAME_KATRO_4X4],
                            FAM_KATRO, 0, 1, 8)
    if root.game == GAME_MPANTSAKA:
        return side_playout(&side, p, rng, limit, plies, js, &SIDE_LANES[GAME_MPANTSAKA],
                            FAM_MPANTSAKA, 0, 2, 16)
    if root.game == GAME_MPANTSAKA_SIMPLIFIED:
        return side_playout(&side, p, rng, limit, plies, js, &SIDE_LANES[GAME_MPANTSAKA_SIMPLIFIED],
                            FAM_MPANTSAKA, 1, 2, 16)
    if g.family == FAM_GORE:
        gore_pack(&gore, root)
        return gore_playout(&gore, rng, limit, plies, js)
    djenon_pack(&djenon, root)
    return djenon_playout(&djenon, rng, limit, plies, js)


def playouts(pos, games, seed, max_plies, first_game=0):
    """Games first_game.. of the seeded batch from pos (docs/rules.md §6.2); a dict of counts."""
    cdef Position p = _check_position(pos)
    _limits.check_playout_args(games, seed, max_plies, first_game)   # as the API checks them
    cdef long long n_games = games
    cdef long long limit = max_plies
    cdef u64 seed_c = seed
    cdef long long first = first_game
    cdef State root = p.st
    cdef long long game, plies
    cdef u64 rng
    cdef u64 tally[4]              # by PLAYOUT_SOUTH .. PLAYOUT_UNFINISHED
    cdef u64 total_plies = 0
    cdef int result
    cdef bint lanes = LANES_ENABLED and lanes_fit(&root)
    cdef JobStop js
    memset(tally, 0, sizeof(tally))
    job_stop_init(&js)
    with nogil:
        for game in range(n_games):
            rng = seed_c + (<u64>(first + game) << 32)
            plies = 0
            if lanes:
                result = playout_lanes(&root, &rng, limit, &plies, &js)
            else:
                result = playout_state(&root, &rng, limit, &plies, &js)
            if result == PLAYOUT_STOPPED:
                break
            tally[result] += 1
            total_plies += <u64>plies
    raise_if_stopped(&js)
    return {"games": n_games, "south_wins": tally[PLAYOUT_SOUTH],
            "north_wins": tally[PLAYOUT_NORTH], "draws": tally[PLAYOUT_DRAW],
            "unfinished": tally[PLAYOUT_UNFINISHED], "plies": total_plies}
