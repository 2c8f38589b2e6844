# The C-level API for search written in Cython (docs/cython.md): the functions
# of the table that katra/capi.pxd declares (its one definition, included
# here), written over the solver's node layer (_solve.pxi: node_key,
# node_unfinished, node_material, node_children_begin / node_children_next)
# and handed to other extensions as the capsule katra._core._C_API.
#
# A katra_node holds one internal form in its words: the game's lanes node (a
# SolveNode type of _solve.pxi) when the position fits the lanes (lanes_fit,
# as every job chooses), else the State form held compactly (WideNode).
# Everything here is a pure function of its arguments and the tables built at
# import: any thread may call it, with or without the GIL.

include "../src/katra/include/katra/capi.pxd"

from cpython.pycapsule cimport PyCapsule_New

cdef enum:
    CAPI_FORM_LANES = 1          # the game's lanes node (lanes_fit)
    CAPI_FORM_WIDE = 2           # any position: WideNode

# The State form in a node: counts and stores fit 16 bits (a position holds at
# most MAX_TOTAL_SEEDS seeds, checked at import), the offer and Goré's owners a byte.
ctypedef struct WideNode:
    unsigned short board[MAX_HOLES]
    unsigned short stores[2]
    unsigned char to_move
    unsigned char offer
    unsigned char north          # Goré: bit i set when North owns hole i
    unsigned char unused

# What one pass of capi_on does (a constant in each exported function).
cdef enum:
    CAPI_COUNT = 0
    CAPI_CHILDREN = 1
    CAPI_OVER = 2
    CAPI_MATERIAL = 3
    CAPI_KEY = 4
    CAPI_TO_MOVE = 5


# ---------------------------------------------------------------- forms

cdef inline bint capi_valid(const katra_node* n) noexcept nogil:
    return n != NULL and n.game < NUM_GAMES and (n.form == CAPI_FORM_LANES
                                                 or n.form == CAPI_FORM_WIDE)


cdef void capi_pack(katra_node* out, const State* s) noexcept nogil:
    """The node of a State: on lanes when the position fits them."""
    cdef GameTable* g = &TABLES[s.game]
    cdef void* d = <void*>out._words
    cdef WideNode* w = <WideNode*>d
    cdef int i
    memset(out, 0, sizeof(katra_node))
    out.game = <unsigned char>s.game
    if LANES_ENABLED and lanes_fit(s):
        out.form = CAPI_FORM_LANES
        if g.family == FAM_GORE:
            gore_pack(<GoreNode*>d, s)
        elif g.family == FAM_DJENON:
            djenon_pack(<DjenonNode*>d, s)
        else:   # the five side node types are one layout: SideNode side; int to_move
            side_pack(&(<KatroSolveNode*>d).side, s, &SIDE_LANES[s.game])
            (<KatroSolveNode*>d).to_move = s.to_move
        return
    out.form = CAPI_FORM_WIDE
    for i in range(g.holes):
        w.board[i] = <unsigned short>s.board[i]
        if g.family == FAM_GORE and s.owner[i]:
            w.north |= 1 << i
    w.stores[0] = <unsigned short>s.stores[0]
    w.stores[1] = <unsigned short>s.stores[1]
    w.to_move = <unsigned char>s.to_move
    w.offer = <unsigned char>s.offer


cdef inline void capi_side_unpack(State* s, const SideNode* node, int to_move,
                                  const SideLanes* T) noexcept nogil:
    cdef int x
    for x in range(T.loop.L):
        s.board[T.hole_of[to_move][x]] = lanes_get(node.me, x)
        s.board[T.hole_of[1 - to_move][x]] = lanes_get(node.op, x)


cdef void capi_unpack(const katra_node* n, State* s) noexcept nogil:
    """The State of a valid node (node_unpack of the node layer, for the API's forms)."""
    cdef const void* d = <const void*>n._words
    cdef const WideNode* w = <const WideNode*>d
    cdef const GoreNode* gore = <const GoreNode*>d
    cdef const DjenonNode* djenon = <const DjenonNode*>d
    cdef const KatroSolveNode* side = <const KatroSolveNode*>d
    cdef GameTable* g = &TABLES[n.game]
    cdef int i
    memset(s, 0, sizeof(State))
    s.game = n.game
    for i in range(g.holes):
        s.owner[i] = g.owner0[i]
    if n.form == CAPI_FORM_WIDE:
        for i in range(g.holes):
            s.board[i] = w.board[i]
            if g.family == FAM_GORE:
                s.owner[i] = (w.north >> i) & 1
        s.stores[0] = w.stores[0]
        s.stores[1] = w.stores[1]
        s.to_move = w.to_move
        s.offer = w.offer
    elif g.family == FAM_GORE:
        for i in range(GORE_HOLES):
            s.board[i] = lane_of(gore.b, i)
            s.owner[i] = (gore.north >> i) & 1
        s.stores[0] = gore.stores[0]
        s.stores[1] = gore.stores[1]
        s.to_move = gore.to_move
        s.offer = gore.offer
    elif g.family == FAM_DJENON:
        for i in range(12):
            s.board[DJENON_LANES.hole_of[i]] = lanes_get(djenon.b, i)
        s.stores[0] = djenon.stores[0]
        s.stores[1] = djenon.stores[1]
        s.to_move = djenon.to_move
    else:
        capi_side_unpack(s, &side.side, side.to_move, &SIDE_LANES[n.game])
        s.to_move = side.to_move


# ---------------------------------------------------------------- over the node layer

cdef inline int capi_node_legal_count(const SolveNode* s) noexcept nogil:
    """len(legal actions of s), bulk-counted as perft's last ply (the node layer's
    node_legal_count once it has one)."""
    cdef SolveNode scratch
    cdef GameTable* g
    cdef long long work = 0
    cdef int G
    if SolveNode is State:
        g = &TABLES[s.game]
        return legal_count_of(s, g, g.family, &scratch, &work)
    elif SolveNode is DjenonNode:
        return djenon_legal_count_lanes(s, &scratch, &work)
    elif SolveNode is GoreNode:
        return gore_count_lanes(s)
    else:
        G = side_game(s)
        return side_legal_count(&s.side, &scratch.side, &SIDE_LANES[G], side_family(G),
                                G == GAME_MPANTSAKA_SIMPLIFIED, side_words(G), side_loop(G),
                                &work)


cdef inline int capi_action(const SolveNode* s, int move) noexcept nogil:
    """The action number (docs/rules.md §1.5) of a child code of node_children_next."""
    cdef const SideLanes* T
    cdef int G, hole
    if SolveNode is State or SolveNode is GoreNode:
        return move
    elif SolveNode is DjenonNode:
        return move if move == DJENON_PASS_C else DJENON_LANES.hole_of[move]
    else:
        G = side_game(s)
        T = &SIDE_LANES[G]
        hole = T.hole_of[s.to_move][move & 31]
        return hole if side_family(G) == FAM_KATRO else 2 * hole + (move >> 5)


cdef inline int capi_children_of(const SolveNode* s, int game, int want, int* acts,
                                 katra_node* kids) noexcept nogil:
    """Every legal action of s (ascending) into acts (unless NULL) and its child
    into kids; how many.  want -2: the same, every child made in kids[0] (the
    actions alone); want >= 0: only the child of action want, into kids[0]: 1
    if legal, else 0."""
    cdef Children it
    cdef State child_state
    cdef katra_node* k
    cdef int move, a, m = 0
    node_children_begin(&it, s)
    while True:
        k = &kids[m] if want == -1 else &kids[0]
        if SolveNode is State:
            move = node_children_next(&it, s, &child_state)
        else:   # (words past the form's are left as they were: nothing reads them)
            move = node_children_next(&it, s, <SolveNode*>k._words)
        if move < 0:
            return 0 if want >= 0 else m
        a = capi_action(s, move)
        if want >= 0 and a != want:
            continue
        if SolveNode is State and want != -2:
            capi_pack(k, &child_state)
        else:
            k.game = <unsigned char>game
            k.form = CAPI_FORM_LANES
        if want >= 0:
            return 1
        if acts != NULL:
            acts[m] = a
        m += 1


cdef inline u64 capi_do(const SolveNode* s, int game, int op, int arg, int* acts,
                        katra_node* kids) noexcept nogil:
    """One operation on a node of one form (op a constant where inlined)."""
    cdef SolveCtx c      # node_unfinished's scratch (leaf_cand, leaf_scratch)
    if op == CAPI_COUNT:
        return <u64>capi_node_legal_count(s)
    if op == CAPI_CHILDREN:
        return <u64>capi_children_of(s, game, arg, acts, kids)
    if op == CAPI_OVER:
        return not node_unfinished(&c, s)
    if op == CAPI_MATERIAL:
        return <u64>node_material(s, arg)
    if op == CAPI_KEY:
        return node_key(s)
    return <u64>s.to_move


cdef inline u64 capi_on(const katra_node* n, int op, int arg, int* acts,
                        katra_node* kids) noexcept nogil:
    """capi_do on the node's form (n valid)."""
    cdef const void* d = <const void*>n._words
    cdef State st
    if n.form == CAPI_FORM_WIDE:
        capi_unpack(n, &st)
        return capi_do(&st, n.game, op, arg, acts, kids)
    if n.game == GAME_KATRO:
        return capi_do(<const KatroSolveNode*>d, n.game, op, arg, acts, kids)
    if n.game == GAME_KATRO_4X6:
        return capi_do(<const Katro4x6SolveNode*>d, n.game, op, arg, acts, kids)
    if n.game == GAME_KATRO_4X4:
        return capi_do(<const Katro4x4SolveNode*>d, n.game, op, arg, acts, kids)
    if n.game == GAME_MPANTSAKA:
        return capi_do(<const MpantsakaSolveNode*>d, n.game, op, arg, acts, kids)
    if n.game == GAME_MPANTSAKA_SIMPLIFIED:
        return capi_do(<const MpantsakaSimplifiedSolveNode*>d, n.game, op, arg, acts, kids)
    if TABLES[n.game].family == FAM_GORE:
        return capi_do(<const GoreNode*>d, n.game, op, arg, acts, kids)
    return capi_do(<const DjenonNode*>d, n.game, op, arg, acts, kids)


# ---------------------------------------------------------------- the table's functions

cdef int capi_legal_count(const katra_node* n) noexcept nogil:
    if not capi_valid(n):
        return -1
    return <int>capi_on(n, CAPI_COUNT, 0, NULL, NULL)


cdef int capi_children(const katra_node* n, int* acts, katra_node* kids) noexcept nogil:
    if not capi_valid(n) or kids == NULL:
        return -1
    return <int>capi_on(n, CAPI_CHILDREN, -1, acts, kids)


cdef int capi_legal_actions(const katra_node* n, int* acts) noexcept nogil:
    cdef katra_node scratch
    if not capi_valid(n) or acts == NULL:
        return -1
    return <int>capi_on(n, CAPI_CHILDREN, -2, acts, &scratch)


cdef int capi_play(const katra_node* n, int action, katra_node* child) noexcept nogil:
    if not capi_valid(n) or child == NULL or action < 0:
        return -1
    return 0 if capi_on(n, CAPI_CHILDREN, action, NULL, child) else -1


cdef int capi_is_over(const katra_node* n) noexcept nogil:
    if not capi_valid(n):
        return -1
    return <int>capi_on(n, CAPI_OVER, 0, NULL, NULL)


cdef int capi_outcome(const katra_node* n, int* winner, int* south, int* north) noexcept nogil:
    cdef State st
    if not capi_valid(n) or winner == NULL or south == NULL or north == NULL:
        return -1
    if not capi_on(n, CAPI_OVER, 0, NULL, NULL):
        return 0
    capi_unpack(n, &st)
    outcome_of(&st, winner, south, north)
    return 1


cdef int capi_to_move(const katra_node* n) noexcept nogil:
    if not capi_valid(n):
        return -1
    return <int>capi_on(n, CAPI_TO_MOVE, 0, NULL, NULL)


cdef int capi_material(const katra_node* n, int player) noexcept nogil:
    if not capi_valid(n) or not (player == 0 or player == 1):
        return -1
    return <int>capi_on(n, CAPI_MATERIAL, player, NULL, NULL)


cdef int capi_evaluate(const katra_node* n) noexcept nogil:
    cdef State st
    if not capi_valid(n):
        return 0
    capi_unpack(n, &st)
    return evaluate(&st)


cdef uint64_t capi_key(const katra_node* n) noexcept nogil:
    if not capi_valid(n):
        return 0
    return capi_on(n, CAPI_KEY, 0, NULL, NULL)


cdef uint64_t capi_zobrist(const katra_node* n) noexcept nogil:
    cdef State st
    if not capi_valid(n):
        return 0
    capi_unpack(n, &st)
    return zobrist_c(&st)


cdef int capi_check_node(const katra_node* n) except -1:
    if n == NULL:
        raise ArgumentError("a katra_node pointer is NULL")
    if not capi_valid(n):
        raise ArgumentError(f"not a node made by katra's C API (game {n.game}, form {n.form})")
    return 0


cdef int capi_from_text(object text, katra_node* node) except -1:
    cdef Position p = Position._from_data(_text.parse_position(text))   # PositionError
    if node == NULL:
        raise ArgumentError("a katra_node pointer is NULL")
    capi_pack(node, &p.st)
    return 0


cdef int capi_from_state(object state, katra_node* node) except -1:
    from katra.api import State as StateClass    # imported after the core
    if not isinstance(state, StateClass):
        raise ArgumentTypeError(f"state must be a katra.State, not {type(state).__name__}")
    pos = state._pos
    if not isinstance(pos, Position):      # the reference backend's
        return capi_from_text(state.text(), node)
    if node == NULL:
        raise ArgumentError("a katra_node pointer is NULL")
    capi_pack(node, &(<Position>pos).st)
    return 0


cdef object capi_text(const katra_node* node):
    cdef Position p = Position.__new__(Position)
    capi_check_node(node)
    capi_unpack(node, &p.st)
    return p.text()


cdef object capi_state(const katra_node* node):
    from katra.api import State as StateClass
    return StateClass.from_text(capi_text(node))


cdef katra_api CAPI_TABLE
CAPI_TABLE.version = KATRA_CAPI_VERSION
CAPI_TABLE.node_size = sizeof(katra_node)
CAPI_TABLE.from_text = capi_from_text
CAPI_TABLE.from_state = capi_from_state
CAPI_TABLE.text = capi_text
CAPI_TABLE.state = capi_state
CAPI_TABLE.legal_count = capi_legal_count
CAPI_TABLE.legal_actions = capi_legal_actions
CAPI_TABLE.children = capi_children
CAPI_TABLE.play = capi_play
CAPI_TABLE.is_over = capi_is_over
CAPI_TABLE.outcome = capi_outcome
CAPI_TABLE.to_move = capi_to_move
CAPI_TABLE.material = capi_material
CAPI_TABLE.evaluate = capi_evaluate
CAPI_TABLE.key = capi_key
CAPI_TABLE.zobrist = capi_zobrist

# Every internal form fits a node's words; every count fits WideNode's.
_require(sizeof(WideNode) <= KATRA_NODE_WORDS * sizeof(u64)
         and sizeof(KatroSolveNode) <= KATRA_NODE_WORDS * sizeof(u64)
         and sizeof(DjenonNode) <= KATRA_NODE_WORDS * sizeof(u64)
         and sizeof(GoreNode) <= KATRA_NODE_WORDS * sizeof(u64)
         and MAX_TOTAL_SEEDS <= 0xFFFF and <int>MAX_CANDIDATES <= <int>KATRA_MAX_CHILDREN
         and <int>SEARCH_MATE == <int>KATRA_MATE,
         "katra_node: an internal form does not fit")

_C_API = PyCapsule_New(<void*>&CAPI_TABLE, "katra._core._C_API", NULL)
