# The solver's root (docs/solve.md): the four thresholds of a position by
# iterative deepening on the bound, and the best action they give, each
# predicate asked of the AND/OR search of _solve.pxi (solve_root).


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


cdef int solve_thresholds(SolveCtx* c, const IntPosition* root, int first, int max_bound,
                          int* thr, int players) noexcept nogil:
    """The four thresholds of root by iterative deepening on the bound N =
    first..max_bound, until the value is resolved: each exact (found at N and
    not at N - 1), SOLVE_INFINITE or SOLVE_OPEN (above the bound).  thr holds
    what is known on entry (all SOLVE_OPEN, or what an earlier call found up to
    bound first - 1).  players: bit p set to ask player p's questions (a split
    solve asks one player's at a time).  Returns the last bound completed (first - 1 if none; a
    finished root: max_bound)."""
    cdef int winner, south, north, n, question, p, bound = first - 1
    cdef int saved[SOLVE_PREDICATES]
    if not node_unfinished(root, &c.scratch):
        outcome_of(root, &winner, &south, &north)
        for question in range(SOLVE_PREDICATES):
            thr[question] = 0 if solve_good(winner, question) else SOLVE_INFINITE
        return max_bound
    if thresholds_resolved(thr):
        return max_bound
    for n in range(first, max_bound + 1):
        memcpy(saved, thr, sizeof(saved))
        for p in range(2):
            if not (players >> p) & 1:
                continue
            question = 2 * p + TARGET_DRAW
            if thr[question] == SOLVE_OPEN and solve_root(c, root, question, n, 0):
                thr[question] = n
            # a win is a draw or better: no need to try it before that holds
            if not c.stop and threshold_known(thr[question]) and thr[question + 1] == SOLVE_OPEN:
                if solve_root(c, root, question + 1, n, 0):
                    thr[question + 1] = n
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


cdef int solve_best_child(SolveCtx* c, const IntPosition* root, const int* thr, int* best) noexcept nogil:
    """The best action of a resolved, unfinished root (docs/solve.md): the least
    action whose child keeps the threshold d of the deciding predicate exactly
    d - 1 (a win: the shortest; a loss: the longest resistance; a draw: the
    fastest hold).  Sets *best (-1 if unresolved); returns 0."""
    cdef int acts[MAX_CANDIDATES]
    cdef int m = root.to_move
    cdef int o = 1 - m
    cdef int question, d, n, i
    cdef IntPosition* child = &c.children[0]   # ply 0's slots: the searches below start at ply 1
    best[0] = -1
    if threshold_known(thr[2 * m + TARGET_WIN]):
        question = 2 * m + TARGET_WIN
    elif threshold_known(thr[2 * o + TARGET_WIN]):
        question = 2 * o + TARGET_WIN
    elif threshold_known(thr[2 * m + TARGET_DRAW]) and threshold_known(thr[2 * o + TARGET_DRAW]):
        question = 2 * m + TARGET_DRAW
    else:
        return 0
    d = thr[question]
    n = legal_actions_c(root, acts)
    for i in range(n):
        copy_hot(child, root)
        play(child, acts[i], LAP_LIMIT_C)
        if not solve_root(c, child, question, d - 1, 1):
            if c.stop:
                return 0
            continue
        if d >= 2 and solve_root(c, child, question, d - 2, 1):
            continue
        if c.stop:
            return 0
        best[0] = acts[i]
        return 0
    return 0
