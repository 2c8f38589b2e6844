# The node layer: one protocol over every working form of a position, over
# which the jobs (perft, divide, playouts, the search, the solver, VectorGame)
# are each written once.
#
# The working forms (the fused type Node):
# * IntPosition, one int a hole (_common.pxi): any position, in particular one
#   whose seeds do not fit the lanes (lanes_fit);
# * on the packed lanes of _lanes.pxi, one type per game shape, so that each
#   specialisation of a job has its shape's constants (words, loop length,
#   family) folded in: Katro and Katra Mpantsaka seen from the side to move
#   (HalvesNode, plus the player to move: the jobs name players), Djenon-aboure
#   (DjenonNode) and Goré (GoreNode);
# * VariantHalvesNode: the halves of a Katro or Katra Mpantsaka variant
#   (docs/rules.md §7) whose rows fit them (halves_fit), one type for every
#   such size: it carries its game index, and its shape is read at run time;
# * Halves16Node: the same on 16-bit lanes (halves16_fit), for the
#   positions of more than 255 seeds of those games (named or not) of at most
#   HALVES16_MAX_LANES holes a player.
#
# The protocol (every function inline, specialised per node type):
#   node_children_begin / node_children_next  the legal children, ascending
#                                              by action (a move code each)
#   node_candidates, node_play, node_first_lap_ends, node_fallback
#                          what that iterator is made of (the playouts sow
#                          only the candidates whose first lap may not end)
#   node_all_legal / node_draw_legal  Goré: every candidate legal, counted and
#                          one drawn from masks (playouts make only that one)
#   node_action            a move code as the rulebook's action number
#   node_legal_count       how many legal moves (perft's last ply)
#   node_unfinished        has the player to move a legal move?
#   node_winner            the winner of a finished node (-1: a draw)
#   node_key               a hash of the position alone (the solver's tables)
#   node_zobrist           katra's Zobrist hash of the position (the search's)
#   node_material          a player's seeds in play, or in store
#   node_to_move           the player to move
#   node_pack / node_unpack   an IntPosition into a node of its type, and back
#   node_form              the working form a job runs an IntPosition on (NODE_*)
#
# node_root (_dispatch.pxi.in) packs an IntPosition into a NodeBox in that
# form and returns it (NODE_*); each job's dispatcher there is a switch on
# it, written once from the list of forms (the members of Node and NodeBox).

# ---------------------------------------------------------------- game shapes

# The shapes, the node types, the fused type Node, the forms NODE_*, the
# union NodeBox and node_game, from the game table.
include "_forms.pxi"


# A game's shape: constants for a named game's index (folded into the
# specialisations that name it), else read from its table (a variant, docs/rules.md §7).

cdef inline int game_family(int game) noexcept nogil:
    if game < NUM_GAMES:
        return SHAPE_FAMILY[game]
    return TABLES[game].family


cdef inline int game_holes(int game) noexcept nogil:
    """The board's holes."""
    if game < NUM_GAMES:
        return SHAPE_ROWS[game] * SHAPE_COLS[game]
    return TABLES[game].holes


cdef inline int game_cols(int game) noexcept nogil:
    if game < NUM_GAMES:
        return SHAPE_COLS[game]
    return TABLES[game].cols


cdef inline int game_loop(int game) noexcept nogil:
    """Holes of a sowing loop on the lanes: a player's holes (Katro, Katra
    Mpantsaka: the lanes are seen from each side), the whole board (the others)."""
    cdef int family = game_family(game)
    if family == FAM_KATRO or family == FAM_MPANTSAKA:
        return game_holes(game) >> 1
    return game_holes(game)


cdef inline int game_words(int game) noexcept nogil:
    """64-bit words of 8 lanes a loop needs."""
    return (game_loop(game) + 7) >> 3


cdef inline bint game_simplified(int game) noexcept nogil:
    if game < NUM_GAMES:
        return SHAPE_SIMPLIFIED[game]
    return TABLES[game].simplified


cdef int _node_check_shapes() except -1:
    cdef int game
    for game in range(NUM_GAMES):
        _require(TABLES[game].family == SHAPE_FAMILY[game] and TABLES[game].rows == SHAPE_ROWS[game]
                 and TABLES[game].cols == SHAPE_COLS[game]
                 and TABLES[game].path_len == game_loop(game)
                 and TABLES[game].simplified == game_simplified(game)
                 and game_words(game) <= MAX_WORDS,
                 f"the core's shape of {_game_spec(game).id} differs from katra._games")
    return 0


# What node_unfinished and node_legal_count may write to (a caller keeps it
# out of a recursion's frame): node, room for a node of any form, and (only
# node_unfinished) cand.
ctypedef struct NodeScratch:
    int cand[MAX_CANDIDATES]
    NodeBox node


cdef inline int node_to_move(const Node* s) noexcept nogil:
    return s.to_move


cdef enum:
    INT_POS_KEY_WORDS = (MAX_HOLES + 7) // 8


cdef inline u64 int_pos_key(const IntPosition* s) noexcept nogil:
    """The table key of a position on the int form: its counts packed a
    byte each into 64-bit words, chained through mix64 (a bijection, so a
    position differing in any word reaches another key as a random function
    would), after a word of the game, the stores, the side to move and Goré's
    offer and owners.  A count or store too large to pack (never in a game
    from a start position) falls back to the Zobrist hash."""
    cdef GameTable* g = &TABLES[s.game]
    cdef u64 words[INT_POS_KEY_WORDS]
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
        return zobrist_of(s, g)
    return packed_counts_key(s.game, words, g.holes,
                             <u64>s.stores[0] | (<u64>s.stores[1] << 8) | (<u64>s.to_move << 16)
                             | (<u64>s.offer << 17) | (owners << 25))


cdef inline u64 packed_counts_key(int game, const u64* words, int holes, u64 scalars) noexcept nogil:
    """int_pos_key's chain: a word of the game and the scalars, then the
    counts packed a byte a hole, in board order."""
    cdef u64 h = mix64(ZKEY_GAME[game] ^ scalars)
    cdef int i
    for i in range((holes + 7) >> 3):
        h = mix64(h ^ words[i])
    return h


cdef inline u64 variant_halves_key(const VariantHalvesNode* s) noexcept nogil:
    """int_pos_key of a variant's halves (the int form's key, so that a
    variant's tables, and the solvers' node counts, are the same on both of
    its forms): the lanes gathered into board order, South's holes the first
    L, North's the last L (each player's lanes in ascending board order:
    HalvesTables.ascending); stores empty, no offer, constant owners."""
    cdef const HalvesTables* t = &HALVES_TABLES[s.game]
    cdef int L = game_loop(s.game)
    cdef u64 words[INT_POS_KEY_WORDS]
    cdef unsigned char* packed = <unsigned char*>words
    cdef const u64* side
    cdef int p, r
    memset(words, 0, sizeof(words))
    for p in range(2):
        side = &s.halves.me[0] if p == s.to_move else &s.halves.op[0]
        for r in range(L):
            packed[p * L + r] = <unsigned char>katra_lane_byte(side, t.ascending[p][r])
    return packed_counts_key(s.game, words, 2 * L, <u64>s.to_move << 16)


cdef inline u64 node_key(const Node* s) noexcept nogil:
    """The table key of a node: a function of the position alone (whatever
    path reached it).  A variant's halves and the 16-bit halves give the int
    form's key (variant_halves_key; the 16-bit halves' positions are the int
    form's of more than 255 seeds).  On a named game's lanes the words already
    are the packed counts: they are chained through mix64 after a word of the
    game and the scalars (every lane, store and offer fits a byte: at most 255
    seeds in all)."""
    cdef int game, w
    cdef u64 h
    cdef IntPosition plain
    if Node is IntPosition:
        return int_pos_key(s)
    elif Node is VariantHalvesNode:
        return variant_halves_key(s)
    elif Node is Halves16Node:
        node_unpack(s, &plain)
        return int_pos_key(&plain)
    elif Node is DjenonNode:
        # lanes 12..15 of b[1] stay empty: its high half takes the scalars
        h = mix64(DJENON_LANES.game_key ^ s.b[0])
        return mix64(h ^ (s.b[1] | (<u64>s.stores[0] << 32) | (<u64>s.stores[1] << 40)
                          | (<u64>s.to_move << 48)))
    elif Node is GoreNode:
        h = mix64(GORE_GAME_KEY ^ s.b)
        return mix64(h ^ (<u64>s.north | (<u64>s.offer << 8) | (<u64>s.to_move << 16)
                          | (<u64>s.stores[0] << 24) | (<u64>s.stores[1] << 32)))
    else:
        game = node_game(s)
        h = mix64(ZKEY_GAME[game] ^ <u64>s.to_move)
        for w in range(game_words(game)):
            h = mix64(h ^ s.halves.me[w])
        for w in range(game_words(game)):
            h = mix64(h ^ s.halves.op[w])
        return h


# A hole's share of the Zobrist hash by the seeds it holds, mix64(ZKEY_HOLE[hole]
# + seeds), for every count a lane holds (0..255), filled at import
# (_node_zobrist_shares): node_zobrist looks each share up.  On the lanes by
# lane: ZOBRIST_LANE[game][p][x] is ZOBRIST_SHARE's row of the hole under player
# p's lane x (Katro, Katra Mpantsaka; Djenon-aboure's lanes at p = 0);
# ZOBRIST_FIXED[game] the shares a lanes position of that game always holds (the
# game, the owners; the empty stores of Katro and Mpantsaka); ZOBRIST_STORE[p]
# player p's store's share by its seeds; ZOBRIST_NORTH Goré's owners' by North's
# holes (a mask).
cdef u64 ZOBRIST_SHARE[MAX_HOLES][256]
cdef u64 ZOBRIST_LANE[NUM_GAMES][2][MAX_LANES][256]
cdef u64 ZOBRIST_FIXED[MAX_GAMES]
cdef u64 ZOBRIST_STORE[2][256]
cdef u64 ZOBRIST_NORTH[256]

cdef extern from *:
    """
    /* Lane x (0..23) of a node's words in memory, read as the byte it is. */
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define katra_lane_byte(w, x) (((const unsigned char*)(w))[(x) ^ 7])
    #else
    #define katra_lane_byte(w, x) (((const unsigned char*)(w))[(x)])
    #endif
    """
    int katra_lane_byte(const u64* w, int x) noexcept nogil


cdef inline u64 node_zobrist(const Node* s) noexcept nogil:
    """The position's Zobrist hash, zobrist_of's (katra's hash of a position,
    the search's table key), read off any form (on lanes each hole's share
    from ZOBRIST_LANE by its lane, or ZOBRIST_SHARE on Goré's)."""
    cdef int game = node_game(s)
    cdef int x, p
    cdef u64 z
    cdef const u64* mine
    cdef const u64* theirs
    cdef IntPosition plain
    if Node is IntPosition:
        z = zobrist_of(s, &TABLES[game])
    elif Node is Halves16Node:       # counts past ZOBRIST_SHARE's 255
        node_unpack(s, &plain)
        z = zobrist_of(&plain, &TABLES[game])
    else:
        z = ZKEY_MOVE if s.to_move else 0
        if Node is GoreNode:
            z ^= (ZKEY_GAME[game] ^ ZOBRIST_STORE[0][s.stores[0]] ^ ZOBRIST_STORE[1][s.stores[1]]
                  ^ ZOBRIST_NORTH[s.north])
            for x in range(GORE_HOLES):
                z ^= ZOBRIST_SHARE[x][katra_lane_byte(&s.b, x)]
            if s.offer:
                z ^= mix64(ZKEY_OFFER + <u64>s.offer)
        elif Node is DjenonNode:
            z ^= ZOBRIST_FIXED[game] ^ ZOBRIST_STORE[0][s.stores[0]] ^ ZOBRIST_STORE[1][s.stores[1]]
            mine = &ZOBRIST_LANE[game][0][0][0]
            for x in range(DJENON_HOLES):
                z ^= mine[256 * x + katra_lane_byte(s.b, x)]
        elif Node is VariantHalvesNode:   # each lane's hole from the tables
            z ^= ZOBRIST_FIXED[game]
            p = s.to_move
            for x in range(game_loop(game)):
                z ^= (ZOBRIST_SHARE[HALVES_TABLES[game].hole_of[p][x]][katra_lane_byte(s.halves.me, x)]
                      ^ ZOBRIST_SHARE[HALVES_TABLES[game].hole_of[1 - p][x]][katra_lane_byte(s.halves.op, x)])
        else:
            z ^= ZOBRIST_FIXED[game]
            p = s.to_move
            mine = &ZOBRIST_LANE[game][p][0][0]
            theirs = &ZOBRIST_LANE[game][1 - p][0][0]
            for x in range(game_loop(game)):
                z ^= (mine[256 * x + katra_lane_byte(s.halves.me, x)]
                      ^ theirs[256 * x + katra_lane_byte(s.halves.op, x)])
    return z


cdef inline int node_lane_bits(const Node* s) noexcept nogil:
    """The bits of a lane of a node on the halves (a constant): 16 on the
    16-bit halves, else 8."""
    if Node is Halves16Node:
        return 16
    else:
        return 8


cdef inline int node_words(const Node* s) noexcept nogil:
    """The words of a loop of a node on the halves (a constant).  The forms
    whose shape is read at run time, the variants' and the 16-bit halves, work
    all MAX_WORDS words whatever the board (the words past its lanes hold
    zeros, as do its tables there): a word more of arithmetic costs less than
    a branch on the shape."""
    if Node is Halves16Node or Node is VariantHalvesNode:
        return MAX_WORDS
    else:
        return game_words(node_game(s))


cdef inline u64 node_halves_moves(const Node* s) noexcept nogil:
    """The sowing candidates of a node on the halves (Katro, Katra
    Mpantsaka), as move bits."""
    cdef int game
    if Node is IntPosition or Node is GoreNode or Node is DjenonNode:
        return 0
    else:
        game = node_game(s)
        return halves_moves(&s.halves, &HALVES_TABLES[game], game_family(game), game_simplified(game),
                            node_words(s), node_lane_bits(s))


cdef inline bint node_unfinished(const Node* s, NodeScratch* scratch) noexcept nogil:
    """Has the player to move a legal action?  Djenon-aboure: while the pass
    is forced without a sowing (a sowing's origin holds 2 or more, and so
    does some hole when the pass is forced, §5.3); Goré: gore_over (§4.5);
    Katro and Mpantsaka: a candidate whose first lap surely ends, else one
    sown on the scratch node ends."""
    cdef int game, move, n, k
    cdef u64 moves, quick
    cdef unsigned opp_seeded
    if Node is IntPosition:
        if is_gore(s):
            return gore_count_actions(s) > 0
        n = node_candidates(s, scratch.cand, 0)
        for k in range(n):
            if (node_first_lap_ends(s, scratch.cand[k])
                    or node_play(&scratch.node.int_pos, s, scratch.cand[k]) >= 0):
                return 1
        return node_fallback(s) >= 0
    elif Node is DjenonNode:
        return djenon_pass_forced_lanes(s)
    elif Node is GoreNode:
        return not gore_over(s)
    else:
        game = node_game(s)
        moves = node_halves_moves(s)
        quick = moves
        while quick:
            move = lowest_bit(quick)
            quick &= quick - 1
            if halves_first_lap_ends(&s.halves, move & 31, move >> 5, &HALVES_TABLES[game], game_loop(game),
                                     node_lane_bits(s)):
                return 1
        opp_seeded = node_opp_seeded(s)
        while moves:
            move = lowest_bit(moves)
            moves &= moves - 1
            if halves_node_play(<Node*>&scratch.node, s, move, opp_seeded) >= 0:
                return 1
        return 0


cdef inline int node_legal_count(const Node* s, NodeScratch* scratch, long long* work) noexcept nogil:
    """How many legal moves s has, sowing only the candidates whose first lap
    does not surely end (perft's last ply: the leaves are counted, not made);
    adds the laps sown to work."""
    cdef int game
    cdef int moves[MAX_CANDIDATES]      # (perft_two lists its own in scratch.cand)
    if Node is IntPosition:
        if is_gore(s):      # from bit masks
            work[0] += 1
            return gore_count_actions(s)
        return node_legal_list(s, moves, 0, 0, NULL, &scratch.node.int_pos, work)
    elif Node is DjenonNode:
        return djenon_legal_count_lanes(s, &scratch.node.djenon, work)
    elif Node is GoreNode:
        return gore_count_actions(s)
    else:
        game = node_game(s)
        return halves_legal_count(&s.halves, &HALVES_TABLES[game], game_family(game), game_simplified(game),
                                  node_words(s), game_loop(game), work, node_lane_bits(s))


cdef inline int node_winner(const Node* s) noexcept nogil:
    """The winner of a finished position (-1: a draw)."""
    cdef int winner, south, north
    if Node is IntPosition:
        outcome_of(s, &winner, &south, &north)
    elif Node is DjenonNode or Node is GoreNode:
        if Node is DjenonNode:
            djenon_scores_lanes(s, &south, &north)
        else:
            gore_scores_lanes(s, &south, &north)
        winner = winner_by_scores(south, north)
    else:
        winner = katro_winner(s.to_move)
    return winner


cdef inline int node_material(const Node* s, int p) noexcept nogil:
    """Player p's seeds in play (Katro, Mpantsaka) or in store (the others):
    the move ordering's key.  (A Katro or Mpantsaka player's holes are one
    half of the board: South's rows come first, row_start.)"""
    cdef GameTable* g
    cdef int i, half, total = 0
    if Node is IntPosition:
        g = &TABLES[s.game]
        if g.family == FAM_GORE or g.family == FAM_DJENON:
            return s.stores[p]
        half = g.holes >> 1
        for i in range(p * half, p * half + half):
            total += s.board[i]
        return total
    elif Node is DjenonNode or Node is GoreNode:
        return s.stores[p]
    else:
        if p == s.to_move:
            return halves_sum(s.halves.me, node_words(s), node_lane_bits(s))
        return halves_sum(s.halves.op, node_words(s), node_lane_bits(s))


cdef inline int node_candidates(const Node* s, int* moves, bint ordered) noexcept nogil:
    """The moves of s that pass the origin rules (not yet the lap limit:
    node_play tells), as move codes; ordered (a constant): ascending by action,
    as the jobs that pick or list moves need; else in any order (perft)."""
    cdef GameTable* g
    cdef GoreView v
    cdef const HalvesTables* tables
    cdef u64 bits, ranked = 0
    cdef int game, i, x, n = 0
    if Node is IntPosition:
        g = &TABLES[s.game]
        return candidates_of(s, g, g.family, moves)
    elif Node is GoreNode:
        gore_view_lanes(&v, s)
        return gore_actions_of(&v, moves)
    else:
        if Node is DjenonNode:
            bits = djenon_sowing_candidates_lanes(s)
        else:
            game = node_game(s)
            tables = &HALVES_TABLES[game]
            bits = node_halves_moves(s)
            if ordered and game_family(game) == FAM_MPANTSAKA:
                # every origin in both directions (move bits lane + 32 *
                # direction): the origins' lanes -> bits by rank in board
                # order, then back, each in direction 0 and 1 (action 2 *
                # origin + direction)
                bits = <unsigned>bits
                while bits:
                    x = lowest_bit(bits)
                    bits &= bits - 1
                    ranked |= (<u64>1) << tables.rank[s.to_move][x]
                while ranked:
                    x = tables.ascending[s.to_move][lowest_bit(ranked)]
                    ranked &= ranked - 1
                    moves[n] = x
                    moves[n + 1] = x + 32
                    n += 2
                return n
        while bits:
            moves[n] = lowest_bit(bits)
            bits &= bits - 1
            n += 1
        # Djenon-aboure, Katro: one row's lanes, in board order or its reverse
        # (_djenon_lanes and _halves_tables check)
        if ordered and n > 1:
            if Node is DjenonNode:
                ordered = DJENON_LANES.hole_of[moves[0]] > DJENON_LANES.hole_of[moves[n - 1]]
            else:
                ordered = tables.rank[s.to_move][moves[0]] > tables.rank[s.to_move][moves[n - 1]]
            if ordered:
                for i in range(n >> 1):
                    x = moves[i]
                    moves[i] = moves[n - 1 - i]
                    moves[n - 1 - i] = x
        return n


cdef inline long long node_play(Node* child, const Node* s, int move) noexcept nogil:
    """The child of a candidate (or of node_fallback's move) of s: the laps
    its sowing took (0: no sowing), or -(laps played) if it does not end
    within the lap limit (§1.3: not legal; child is then garbage)."""
    cdef GameTable* g
    if Node is IntPosition:
        g = &TABLES[s.game]
        copy_hot(child, s)
        return play_of(child, g, g.family, move, LAP_LIMIT_C)
    elif Node is GoreNode:
        child[0] = s[0]
        gore_apply_lanes(child, move)
        return move < GORE_OFFER_BASE_C
    elif Node is DjenonNode:
        return djenon_play_lanes(child, s, -1 if move == DJENON_PASS_C else move)
    else:
        return halves_node_play(child, s, move, node_opp_seeded(s))


cdef long long halves_node_play(Node* child, const Node* s, int move, unsigned opp_seeded) noexcept nogil:
    """node_play_seeded on Katro's and Katra Mpantsaka's lanes (the other
    forms do not call it), a function of its own: its sowing loop, inlined into
    the search's and the solver's recursions, swelled their frames past what a
    depth-64 search in a 32 KiB thread allows (tests/test_crash_safety.py)."""
    if Node is IntPosition or Node is GoreNode or Node is DjenonNode:
        return node_play(child, s, move)
    else:
        return node_play_seeded(child, s, move, opp_seeded)


cdef inline unsigned node_opp_seeded(const Node* s) noexcept nogil:
    """What every node_play of s shares, made once for node_play_seeded: on
    Katro's and Katra Mpantsaka's lanes the opponent's seeded lanes; else 0."""
    if Node is IntPosition or Node is GoreNode or Node is DjenonNode:
        return 0
    else:
        return halves_seeded_bits(s.halves.op, node_words(s), node_lane_bits(s))


cdef inline long long node_play_seeded(Node* child, const Node* s, int move,
                                        unsigned opp_seeded) noexcept nogil:
    """node_play given node_opp_seeded(s) (a job making several children of s)."""
    cdef long long laps
    cdef int game
    if Node is IntPosition or Node is GoreNode or Node is DjenonNode:
        return node_play(child, s, move)
    else:
        game = node_game(s)
        laps = halves_play_seeded(&child.halves, &s.halves, move, opp_seeded, &HALVES_TABLES[game],
                                  game_family(game), node_words(s), game_loop(game), node_lane_bits(s))
        child.to_move = 1 - s.to_move
        if Node is VariantHalvesNode or Node is Halves16Node:
            child.game = s.game
        return laps


cdef inline bint node_first_lap_ends(const Node* s, int move) noexcept nogil:
    """Is candidate move surely legal without sowing it (its first lap ends the
    move; every Goré candidate)?  0: node_play must tell."""
    cdef GameTable* g
    cdef int game
    if Node is IntPosition:
        g = &TABLES[s.game]
        return g.family == FAM_GORE or first_lap_ends(s, g, g.family, move)
    elif Node is GoreNode:
        return 1
    elif Node is DjenonNode:
        return djenon_first_lap_ends_lanes(s, move)
    else:
        game = node_game(s)
        return halves_first_lap_ends(&s.halves, move & 31, move >> 5, &HALVES_TABLES[game], game_loop(game),
                                     node_lane_bits(s))


cdef inline int node_fallback(const Node* s) noexcept nogil:
    """The move forced when no candidate is legal (Djenon-aboure's pass while
    some hole holds 2 or more, §5.3), else -1."""
    if Node is IntPosition:
        if TABLES[s.game].family == FAM_DJENON:
            return djenon_fallback(s, &TABLES[s.game])
        return -1
    elif Node is DjenonNode:
        return DJENON_PASS_C if djenon_pass_forced_lanes(s) else -1
    else:
        return -1


cdef inline bint node_all_legal(const Node* s) noexcept nogil:
    """Is every candidate legal, and one cheap to draw (node_draw_legal)?
    Goré's: it has no relays."""
    if Node is IntPosition:
        return is_gore(s)
    elif Node is GoreNode:
        return 1
    else:
        return 0


cdef inline int node_draw_legal(const Node* s, u64* rng, int* move) noexcept nogil:
    """When node_all_legal(s): how many legal moves s has and, if some, the
    one of index splitmix64(rng) mod their number, ascending, in move (§6.2's
    draw), without listing them (playouts draw one a ply)."""
    if Node is IntPosition or Node is GoreNode:
        return gore_draw(s, rng, move)
    else:
        return 0


cdef inline void node_apply(Node* s, int move) noexcept nogil:
    """Play a legal move of s in place (the playouts' step)."""
    cdef Node child
    if Node is IntPosition:
        play(s, move, LAP_LIMIT_C)
    elif Node is GoreNode:
        gore_apply_lanes(s, move)
    else:
        node_play(&child, s, move)
        s[0] = child


cdef inline int node_count_made(const Node* s, int* moves, u64* known) noexcept nogil:
    """Perft's last ply but one: the candidates of s (in any order) whose
    children must be made to count their legal moves, into moves; how many.
    Adds to known the legal moves of the children counted without making
    them (Goré's: all, gore_perft_two); elsewhere every candidate."""
    if Node is GoreNode:
        known[0] += gore_perft_two(s)
        return 0
    elif Node is IntPosition:
        if is_gore(s):
            known[0] += gore_perft_two(s)
            return 0
        return node_candidates(s, moves, 0)
    else:
        return node_candidates(s, moves, 0)


cdef inline bint node_sows_kept(const Node* s) noexcept nogil:
    """Does node_legal_list, keeping the children, sow every candidate (a
    constant per node type) rather than first ask node_first_lap_ends?  On
    the lanes: there a first lap costs little more than the test of it, the
    lap's end is as hard to predict as the test's verdict (so the test adds a
    mispredicted branch), and the drawn move is then never made twice (the
    playouts measured 3-4% faster on Katro and Katra Mpantsaka, some 10% on
    Djenon-aboure).  On the int form a candidate whose first lap surely ends
    is not sown."""
    if Node is IntPosition:
        return 0
    else:
        return 1


cdef inline int node_legal_list(const Node* s, int* moves, bint ordered, bint keep,
                                unsigned char* sown, Node* kids, long long* work) noexcept nogil:
    """The legal moves of s, as move codes, in moves (room for MAX_CANDIDATES);
    how many.  ordered (a constant): ascending by action, else in any order.
    A candidate whose first lap surely ends is not sown (unless keep and
    node_sows_kept); the others are.  keep
    (a constant): the child of a sown legal candidate is kept in kids[k] and
    sown[k] = 1, else sown[k] = 0 (node_play makes its child when needed;
    kids: room for MAX_CANDIDATES nodes); not keep: each is sown on kids[0], a
    scratch node, and sown is not read.  Adds the candidates tried and the
    laps sown to work."""
    cdef int i, c, n = 0
    cdef long long laps
    cdef unsigned opp_seeded = node_opp_seeded(s)
    c = node_candidates(s, moves, ordered)
    for i in range(c):
        work[0] += 1
        if not (keep and node_sows_kept(s)) and node_first_lap_ends(s, moves[i]):
            if keep:
                sown[n] = 0
        else:
            laps = node_play_seeded(&kids[n] if keep else kids, s, moves[i], opp_seeded)
            work[0] += laps if laps >= 0 else -laps
            if laps < 0:
                continue
            if keep:
                sown[n] = 1
        moves[n] = moves[i]
        n += 1
    if n == 0:
        moves[0] = node_fallback(s)
        if moves[0] >= 0:
            if keep:
                sown[0] = 0
            n = 1
    return n


cdef inline int node_legal_moves(const Node* s, int* moves, unsigned char* sown, Node* kids,
                                 long long* work) noexcept nogil:
    """node_legal_list ascending, keeping the children it sows (the playouts
    and VectorGame pick one of them)."""
    return node_legal_list(s, moves, 1, 1, sown, kids, work)


cdef inline bint node_legal_child(const Node* s, int move, Node* child) noexcept nogil:
    """Is move (a move code) legal in s?  If so, child holds its child.  Only
    that move is sown, but for the fallback, which is legal when no candidate is."""
    cdef int cand[MAX_CANDIDATES]
    cdef int k, n = node_candidates(s, cand, 0)
    for k in range(n):
        if cand[k] == move:
            return node_play(child, s, move) >= 0
    if move < 0 or node_fallback(s) != move:
        return 0
    for k in range(n):
        if node_first_lap_ends(s, cand[k]) or node_play(child, s, cand[k]) >= 0:
            return 0
    node_play(child, s, move)
    return 1


cdef inline int node_legal_actions(const Node* s, int* acts, Node* scratch) noexcept nogil:
    """The legal actions of s, ascending, into acts (room for MAX_CANDIDATES;
    scratch: room for a node); how many.  (legal_actions_c, _dispatch.pxi.in,
    lists an IntPosition's on the form the jobs work it on.)"""
    cdef long long work = 0
    cdef int k, n
    if node_all_legal(s):       # Goré: its candidates, all legal, are its actions
        return node_candidates(s, acts, 1)
    n = node_legal_list(s, acts, 1, 0, NULL, scratch, &work)
    if not (Node is IntPosition or Node is GoreNode):      # move codes are actions there
        for k in range(n):
            acts[k] = node_action(s, acts[k])
    return n


cdef inline void node_children_begin(Children* it, const Node* s, bint ordered) noexcept nogil:
    """Start listing the legal children of s; ordered (a constant): in
    ascending action order, so that the ordering's ties fall as on every
    form, else in any order (perft: the counts are the same)."""
    it.n = node_candidates(s, it.cand, ordered)
    it.k = 0
    it.legal = 0
    it.fallback_done = 0
    it.work = 0
    it.opp_seeded = node_opp_seeded(s)


cdef inline int node_children_next(Children* it, const Node* s, Node* child) noexcept nogil:
    """The next legal child of s into child: its move code (>= 0; node_action
    gives its action), or -1 when there are no more.  it.work counts the
    candidates tried and the laps sown."""
    cdef int a
    cdef long long laps
    while it.k < it.n:
        a = it.cand[it.k]
        it.k += 1
        if Node is IntPosition or Node is GoreNode or Node is DjenonNode:
            laps = node_play(child, s, a)
        else:               # what every child of s shares, made once (begin)
            laps = halves_node_play(child, s, a, it.opp_seeded)
        if laps >= 0:
            it.work += laps + 1
            it.legal += 1
            return a
        it.work += 1 - laps
    if it.legal == 0 and not it.fallback_done:
        it.fallback_done = 1
        a = node_fallback(s)
        if a >= 0:
            node_play(child, s, a)
            it.work += 1
            it.legal = 1
            return a
    return -1


cdef inline int node_action(const Node* s, int move) noexcept nogil:
    """The action number (docs/rules.md §1.5) of a move code of s."""
    cdef int game
    if Node is IntPosition or Node is GoreNode:
        return move
    elif Node is DjenonNode:
        return move if move == DJENON_PASS_C else DJENON_LANES.hole_of[move]
    else:
        game = node_game(s)
        if game_family(game) == FAM_KATRO:
            return HALVES_TABLES[game].hole_of[s.to_move][move]
        return 2 * HALVES_TABLES[game].hole_of[s.to_move][move & 31] + (move >> 5)


cdef inline int node_seeds(const Node* s, int hole) noexcept nogil:
    """The seeds in a hole (board index).  On lanes a player's k-th hole in
    board order is its lane ascending[p][k]; South's holes come first."""
    cdef int game, p, half
    if Node is IntPosition:
        return s.board[hole]
    elif Node is GoreNode:
        return lane_of(s.b, hole)
    elif Node is DjenonNode:
        p = hole >= DJENON_COLS
        return katra_lane_byte(s.b, DJENON_LANES.ascending[p][hole - DJENON_COLS * p])
    else:
        game = node_game(s)
        half = game_loop(game)
        p = hole >= half
        if Node is Halves16Node:
            return lane_in(&s.halves.me[0] if p == s.to_move else &s.halves.op[0],
                           HALVES_TABLES[game].ascending[p][hole - half * p], 16)
        if p == s.to_move:
            return katra_lane_byte(s.halves.me, HALVES_TABLES[game].ascending[p][hole - half * p])
        return katra_lane_byte(s.halves.op, HALVES_TABLES[game].ascending[p][hole - half * p])


cdef inline int node_owner(const Node* s, int hole) noexcept nogil:
    """The owner of a hole (owner_of's)."""
    if Node is IntPosition:
        return owner_of(s, &TABLES[s.game], hole)
    elif Node is GoreNode:
        return (s.north >> hole) & 1
    else:
        return TABLES[node_game(s)].owner0[hole]


cdef inline int node_store(const Node* s, int p) noexcept nogil:
    """Player p's store (0 in Katro and Katra Mpantsaka, which keep none)."""
    if Node is IntPosition or Node is GoreNode or Node is DjenonNode:
        return s.stores[p]
    else:
        return 0


cdef inline int node_offer(const Node* s) noexcept nogil:
    """Goré's pending offer (a mask of holes), else 0."""
    if Node is IntPosition or Node is GoreNode:
        return s.offer
    else:
        return 0


cdef inline void node_pack(Node* node, const IntPosition* s) noexcept nogil:
    """A position that fits node's form (any on IntPosition; lanes_fit for the
    others) as a node of that form."""
    if Node is IntPosition:
        node[0] = s[0]
    elif Node is DjenonNode:
        djenon_pack(node, s)
    elif Node is GoreNode:
        gore_pack(node, s)
    elif Node is Halves16Node:
        node.game = s.game
        halves16_pack(&node.halves, s, &HALVES_TABLES[s.game], game_loop(s.game))
        node.to_move = s.to_move
    else:
        if Node is VariantHalvesNode:
            node.game = s.game
        halves_pack(&node.halves, s, game_loop(node_game(node)), game_cols(node_game(node)))
        node.to_move = s.to_move


cdef inline void node_unpack(const Node* node, IntPosition* s) noexcept nogil:
    """The IntPosition of a node (node_pack's inverse)."""
    cdef int game = node_game(node)
    cdef GameTable* g = &TABLES[game]
    cdef int x, p
    if Node is IntPosition:
        s[0] = node[0]
    else:
        memset(s, 0, sizeof(IntPosition))
        s.game = game
        s.to_move = node.to_move
        for x in range(g.holes):
            s.board[x] = node_seeds(node, x)
            s.owner[x] = node_owner(node, x)
        s.stores[0] = node_store(node, 0)
        s.stores[1] = node_store(node, 1)
        s.offer = node_offer(node)


cdef inline int node_form(const IntPosition* s) noexcept nogil:
    """The working form a job runs s on: the lanes of its game when it fits
    them (as every job; LANES_ENABLED), else the 16-bit halves when its board
    fits them (halves16_fit), else the int form.  A variant's lanes are
    the variants' halves, if its rows fit them."""
    if not LANES_ENABLED:
        return NODE_INT
    if HALVES16_FIT[s.game] and (HALVES16_FORCED or not lanes_fit(s)):
        return NODE_HALVES16     # (every position fits: at most MAX_TOTAL_SEEDS seeds)
    if not lanes_fit(s):
        return NODE_INT
    if s.game >= NUM_GAMES:             # a variant (docs/rules.md §7)
        return NODE_VARIANT_HALVES if HALVES_FIT[s.game] else NODE_INT
    if VARIANT_HALVES_FORCED and HALVES_FIT[s.game]:
        return NODE_VARIANT_HALVES
    return GAME_FORM[s.game]


# ---------------------------------------------------------------- tests only

# (katra._core._first_lap_verdicts, over it: _dispatch.pxi.in)
cdef list node_first_lap_verdicts(const Node* s):
    """[(action, surely ends unsown)] for the candidates of s, ascending."""
    cdef int moves[MAX_CANDIDATES]
    cdef int i, n = node_candidates(s, moves, 1)
    return [(node_action(s, moves[i]), bool(node_first_lap_ends(s, moves[i]))) for i in range(n)]



# ---------------------------------------------------------------- Zobrist shares

cdef int _node_zobrist_shares() except -1:
    """Fill ZOBRIST_SHARE and the lanes' tables (after _build_tables: they read
    ZKEY_HOLE and the lane tables)."""
    cdef int x, seeds, game, p, mask
    for x in range(MAX_HOLES):
        for seeds in range(256):
            ZOBRIST_SHARE[x][seeds] = mix64(ZKEY_HOLE[x] + <u64>seeds)
    for p in range(2):
        for seeds in range(256):
            ZOBRIST_STORE[p][seeds] = mix64(ZKEY_STORE[p] + <u64>seeds)
    for mask in range(256):
        ZOBRIST_NORTH[mask] = 0
        for x in range(GORE_HOLES):
            if (mask >> x) & 1:
                ZOBRIST_NORTH[mask] ^= ZKEY_OWNER[x]
    for game in range(NUM_GAMES):
        zobrist_fixed(game)
        if game_family(game) == FAM_DJENON:
            for x in range(DJENON_HOLES):
                memcpy(ZOBRIST_LANE[game][0][x], ZOBRIST_SHARE[DJENON_LANES.hole_of[x]], sizeof(ZOBRIST_LANE[game][0][x]))
        elif game_family(game) == FAM_KATRO or game_family(game) == FAM_MPANTSAKA:
            for p in range(2):
                for x in range(game_loop(game)):
                    memcpy(ZOBRIST_LANE[game][p][x], ZOBRIST_SHARE[HALVES_TABLES[game].hole_of[p][x]],
                           sizeof(ZOBRIST_LANE[game][p][x]))
    return 0


cdef void zobrist_fixed(int game) noexcept:
    """ZOBRIST_FIXED[game] (a named game's at import, a variant's when its
    table is built; the store shares of Katro and Mpantsaka, whose stores stay empty)."""
    ZOBRIST_FIXED[game] = ZKEY_GAME[game] ^ ZKEY_OWNERS0[game]
    if game_family(game) == FAM_KATRO or game_family(game) == FAM_MPANTSAKA:
        ZOBRIST_FIXED[game] ^= ZOBRIST_STORE[0][0] ^ ZOBRIST_STORE[1][0]


# ---------------------------------------------------------------- the first child

cdef inline int node_first_child(const Node* s, Node* child, Children* it) noexcept nogil:
    """The child that node_children_begin and a first node_children_next give
    (the least legal action's) into child: its move code, or -1 if s has no
    legal move.  On Goré's lanes it is named from the legal sets without
    listing the other actions (gore_legal_nth), for a search that most often
    stops at the first child; elsewhere the listing starts in it (scratch)."""
    cdef GoreView v
    cdef GoreLegal legal
    cdef int a
    if Node is GoreNode:
        gore_view_lanes(&v, s)
        gore_legal_of(&legal, &v)
        if legal.count == 0:
            return -1
        a = gore_legal_nth(&legal, 0)
        node_play(child, s, a)
        return a
    else:
        node_children_begin(it, s, 1)
        return node_children_next(it, s, child)
