# Whole jobs run in C with the GIL released: perft, divide, playouts.


cdef u64 perft_rec(const State* s, int depth, JobStop* js) noexcept nogil:
    """RULES.md §1.4 for depth >= 1, copy-make; 0 once the job must stop."""
    cdef int cand[MAX_CANDIDATES]
    if job_should_stop(js, 1):
        return 0
    cdef int n = candidates(s, cand)
    cdef int k, a
    cdef u64 legal = 0, total = 0
    cdef State child
    if depth == 1 and relay_free(s):
        return n
    for k in range(n):
        copy_hot(&child, s)
        if play(&child, cand[k], LAP_LIMIT_C) >= 0:
            legal += 1
            if depth > 1:
                total += perft_rec(&child, depth - 1, js)
    if legal == 0:
        a = fallback(s)
        if a < 0:
            return 0
        if depth == 1:
            return 1
        copy_hot(&child, s)
        play(&child, a, LAP_LIMIT_C)
        return perft_rec(&child, depth - 1, js)
    return legal if depth == 1 else total


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
    """Leaf count of the legal-move tree to depth (RULES.md §1.4)."""
    cdef Position p = _check_position(pos)
    cdef int d = _check_depth(depth, 0)
    cdef State root = p.st
    cdef u64 count
    cdef JobStop js
    if d == 0:
        return 1
    job_stop_init(&js)
    with nogil:
        count = perft_rec(&root, d, &js)
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
    cdef State* children = <State*>malloc(MAX_CANDIDATES * sizeof(State))
    if children == NULL:
        raise MemoryError()
    job_stop_init(&js)
    try:
        with nogil:
            n = legal_children(&root, acts, children)
            for k in range(n):
                counts[k] = 1 if d == 1 else perft_rec(&children[k], d - 1, &js)
        raise_if_stopped(&js)
        return [(acts[k], counts[k]) for k in range(n)]
    finally:
        free(children)


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
    cdef bint fast
    cdef u64 pick
    cdef JobStop js
    cdef State* children = <State*>malloc(MAX_CANDIDATES * sizeof(State))
    if children == NULL:
        raise MemoryError()
    job_stop_init(&js)
    try:
        with nogil:
            for game in range(n_games):
                if js.reason != STOP_NONE:
                    break
                rng = seed_c + (<u64>(first + game) << 32)
                st = root
                plies = 0
                while not job_should_stop(&js, 1):
                    # Goré (no relay) knows its legal actions without sowing them: play
                    # only the chosen one instead of making every child.
                    fast = relay_free(&st)
                    n = legal_actions_c(&st, acts) if fast else legal_children(&st, acts, children)
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
                    if fast:
                        play(&st, acts[pick], LAP_LIMIT_C)
                    else:
                        copy_hot(&st, &children[pick])
                    plies += 1
                total_plies += <u64>plies
    finally:
        free(children)
    raise_if_stopped(&js)
    return {"games": n_games, "south_wins": south_wins, "north_wins": north_wins,
            "draws": draws, "unfinished": unfinished, "plies": total_plies}
