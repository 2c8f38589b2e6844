# Goré (RULES.md §4).  Actions: sow 0..7, offer 8 + mask, 264 pass,
# 265 accept, 266 decline.


cdef inline int gore_candidates(const State* s, GameTable* g, int* acts) noexcept nogil:
    """Every legal action, ascending (Goré has no relays, so no lap limit)."""
    cdef int me = s.to_move
    cdef int opp = 1 - me
    cdef int i, n = 0, own_mask = 0, owned = 0, seeds = 0, big = 0, mask, bits, maxk
    if s.offer:
        acts[0] = GORE_ACCEPT_C
        acts[1] = GORE_DECLINE_C
        return 2
    for i in range(g.holes):
        if s.board[i] >= 3:
            big = 1
        if s.owner[i] == me:
            own_mask |= 1 << i
            owned += 1
            seeds += s.board[i]
    if not big:
        return 0          # the game is over (§4.5)
    if not seeds:
        acts[0] = GORE_PASS_C
        return 1
    for i in range(g.holes):
        if s.owner[i] == me and s.board[i]:
            acts[n] = i
            n += 1
    # offers: submasks of own_mask in ascending order, 1..maxk bits, one hole kept
    maxk = s.stores[opp] // 6
    if maxk > 3:
        maxk = 3
    if maxk > owned - 1:
        maxk = owned - 1
    if maxk >= 1:
        mask = (0 - own_mask) & own_mask
        while mask:
            bits = POPCOUNT8[mask]
            if bits <= maxk:
                acts[n] = GORE_OFFER_BASE_C + mask
                n += 1
            mask = (mask - own_mask) & own_mask
    return n


cdef inline bint gore_capturable(int count) noexcept nogil:
    return count == 2 or count == 4


cdef inline long long gore_play(State* s, GameTable* g, int action) noexcept nogil:
    """Play a candidate in place; 1 for a sowing (one lap), 0 otherwise."""
    cdef int me = s.to_move
    cdef int* board = s.board
    cdef int h, j, n, i, taken
    if action < GORE_OFFER_BASE_C:
        n = board[action]
        board[action] = 0
        h = sow(board, g, 0, 0, action, n, 1)
        if s.owner[h] != me and gore_capturable(board[h]):
            taken = board[h]
            board[h] = 0
            j = g.nxt[0][0][h]
            while j != h and gore_capturable(board[j]):
                taken += board[j]
                board[j] = 0
                j = g.nxt[0][0][j]
            j = g.prv[0][0][h]
            while j != h and gore_capturable(board[j]):
                taken += board[j]
                board[j] = 0
                j = g.prv[0][0][j]
            s.stores[me] += taken
        s.to_move = 1 - me
        return 1
    if action < GORE_PASS_C:
        s.offer = action - GORE_OFFER_BASE_C
        s.to_move = 1 - me
        return 0
    if action == GORE_ACCEPT_C:
        for i in range(g.holes):
            if (s.offer >> i) & 1:
                s.owner[i] = me
                board[i] += 6
                s.stores[me] -= 6
        s.offer = 0
        return 0
    if action == GORE_DECLINE_C:
        s.offer = 0
        return 0
    s.to_move = 1 - me    # pass
    return 0
