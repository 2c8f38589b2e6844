# The C-level API for search written in Cython (docs/cython.md): the functions
# of the table that katra/capi.pxd declares (its one definition, included
# here), written over the node layer (_node.pxi) and handed to other
# extensions as the capsule katra._core._C_API.
#
# A katra_node holds one working form in its words: the node of its game's
# form on the lanes (a variant's: the variants' halves form) when the position
# fits them, the 16-bit halves when its board fits those (node_form, as every
# job chooses), else the int form held compactly (WideNode).
# Everything here is a pure function of its arguments and the tables built at
# import: any thread may call it, with or without the GIL.

include "../src/katra/include/katra/capi.pxd"

from cpython.pycapsule cimport PyCapsule_New

cdef enum:
    CAPI_FORM_LANES = 1          # the game's lanes node (lanes_fit)
    CAPI_FORM_WIDE = 2           # any position: WideNode
    CAPI_FORM_VARIANT_HALVES = 3  # a variant's node on the halves (NODE_VARIANT_HALVES)
    CAPI_FORM_HALVES16 = 4       # a node on the 16-bit halves (NODE_HALVES16)

# The int form in a node: counts and stores fit 16 bits (a position holds at
# most MAX_TOTAL_SEEDS seeds, checked at import), the offer and Goré's owners a byte.
ctypedef struct WideNode:
    unsigned short board[MAX_HOLES]
    unsigned short stores[2]
    unsigned char to_move
    unsigned char offer
    unsigned char north          # Goré: bit i set when North owns hole i
    unsigned char unused

# ---------------------------------------------------------------- forms

cdef inline int capi_node_form(const katra_node* n) noexcept nogil:
    """The node layer's form (NODE_*) of the words of n, or -1 if n is not a
    node the API made."""
    if n == NULL or n.game >= GAME_COUNT:
        return -1
    if n.form == CAPI_FORM_WIDE:
        return NODE_INT
    if n.form == CAPI_FORM_VARIANT_HALVES:      # its words name its game too: they must agree
        if HALVES_FIT[n.game] and (<const VariantHalvesNode*>n._words).game == n.game:
            return NODE_VARIANT_HALVES
        return -1
    if n.form == CAPI_FORM_HALVES16:
        if HALVES16_FIT[n.game] and (<const Halves16Node*>n._words).game == n.game:
            return NODE_HALVES16
        return -1
    if n.form != CAPI_FORM_LANES or n.game >= NUM_GAMES:       # a variant's lanes are the halves'
        return -1
    return GAME_FORM[n.game] if GAME_FORM[n.game] != NODE_INT else -1     # as node_form


cdef void capi_pack(katra_node* out, const IntPosition* s) noexcept nogil:
    """The node of an IntPosition, in the form the jobs would work on (node_root)."""
    cdef GameTable* g = &TABLES[s.game]
    cdef WideNode* w = <WideNode*>out._words
    cdef NodeBox box
    cdef int i, form
    memset(out, 0, sizeof(katra_node))
    out.game = <unsigned char>s.game
    memset(&box, 0, sizeof(NodeBox))
    form = node_root(&box, s)
    if form != NODE_INT:
        out.form = (CAPI_FORM_VARIANT_HALVES if form == NODE_VARIANT_HALVES
                    else CAPI_FORM_HALVES16 if form == NODE_HALVES16 else CAPI_FORM_LANES)
        memcpy(out._words, &box, KATRA_NODE_WORDS * sizeof(u64))   # its member, at offset 0
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


cdef inline void capi_wide_unpack(const katra_node* n, IntPosition* s) noexcept nogil:
    """The IntPosition of a node on the int form (capi_pack's inverse)."""
    cdef const WideNode* w = <const WideNode*>n._words
    cdef GameTable* g = &TABLES[n.game]
    cdef int i
    memset(s, 0, sizeof(IntPosition))
    s.game = n.game
    for i in range(g.holes):
        s.board[i] = w.board[i]
        s.owner[i] = (w.north >> i) & 1 if g.family == FAM_GORE else g.owner0[i]
    s.stores[0] = w.stores[0]
    s.stores[1] = w.stores[1]
    s.to_move = w.to_move
    s.offer = w.offer


# ---------------------------------------------------------------- over the node layer

# What one pass of capi_on does (a constant in each exported function).
cdef enum:
    CAPI_COUNT = 0
    CAPI_CHILDREN = 1
    CAPI_OVER = 2
    CAPI_MATERIAL = 3
    CAPI_KEY = 4
    CAPI_TO_MOVE = 5
    CAPI_UNPACK = 6
    CAPI_EVALUATE = 7
    CAPI_ZOBRIST = 8


cdef inline int capi_children_of(const Node* s, int want, int* acts,
                                 katra_node* kids) noexcept nogil:
    """Every legal action of s (ascending) into acts (unless NULL) and its child
    into kids; how many.  want -2: the same, every child made in kids[0] (the
    actions alone); want >= 0: only the child of action want, into kids[0]: 1
    if legal, else 0."""
    cdef Children it
    cdef IntPosition child_int_pos
    cdef katra_node* k
    cdef int move, a, m = 0
    node_children_begin(&it, s, 1)
    while True:
        k = &kids[m] if want == -1 else &kids[0]
        if Node is IntPosition:
            move = node_children_next(&it, s, &child_int_pos)
        else:   # (words past the form's are left as they were: nothing reads them)
            move = node_children_next(&it, s, <Node*>k._words)
        if move < 0:
            return 0 if want >= 0 else m
        a = node_action(s, move)
        if want >= 0 and a != want:
            continue
        if Node is IntPosition and want != -2:
            capi_pack(k, &child_int_pos)
        elif Node is not IntPosition:
            k.game = <unsigned char>node_game(s)
            k.form = (CAPI_FORM_VARIANT_HALVES if Node is VariantHalvesNode
                      else CAPI_FORM_HALVES16 if Node is Halves16Node else CAPI_FORM_LANES)
        if want >= 0:
            return 1
        if acts != NULL:
            acts[m] = a
        m += 1


cdef inline u64 capi_do(const Node* s, int op, int arg, int* acts, katra_node* kids,
                        IntPosition* out) noexcept nogil:
    """One operation on a node of one form (op a constant where inlined)."""
    cdef NodeScratch scratch
    cdef long long work = 0
    if op == CAPI_COUNT:
        return <u64>node_legal_count(s, &scratch, &work)
    if op == CAPI_CHILDREN:
        return <u64>capi_children_of(s, arg, acts, kids)
    if op == CAPI_OVER:
        return not node_unfinished(s, &scratch)
    if op == CAPI_MATERIAL:
        return <u64>node_material(s, arg)
    if op == CAPI_KEY:
        return node_key(s)
    if op == CAPI_UNPACK:
        node_unpack(s, out)
        return 0
    if op == CAPI_EVALUATE:
        return <u64><long long>node_evaluate(s)
    if op == CAPI_ZOBRIST:
        return node_zobrist(s)
    return <u64>node_to_move(s)


# capi_on(n, form, op, ...): capi_do on the node's words, as the node of its
# form (_dispatch.pxi.in)


cdef inline void capi_unpack(const katra_node* n, int form, IntPosition* s) noexcept nogil:
    capi_on(n, form, CAPI_UNPACK, 0, NULL, NULL, s)


# ---------------------------------------------------------------- the table's functions

cdef inline u64 capi_ask(const katra_node* n, int op, int arg, u64 bad) noexcept nogil:
    """op (no lists, no unpacking) on n, or bad if n is not a node the API made."""
    cdef int form = capi_node_form(n)
    return bad if form < 0 else capi_on(n, form, op, arg, NULL, NULL, NULL)


cdef int capi_legal_count(const katra_node* n) noexcept nogil:
    return <int>capi_ask(n, CAPI_COUNT, 0, <u64>-1)


cdef int capi_children(const katra_node* n, int* acts, katra_node* kids) noexcept nogil:
    cdef int form = capi_node_form(n)
    if form < 0 or kids == NULL:
        return -1
    return <int>capi_on(n, form, CAPI_CHILDREN, -1, acts, kids, NULL)


cdef int capi_legal_actions(const katra_node* n, int* acts) noexcept nogil:
    cdef katra_node scratch
    cdef int form = capi_node_form(n)
    if form < 0 or acts == NULL:
        return -1
    return <int>capi_on(n, form, CAPI_CHILDREN, -2, acts, &scratch, NULL)


cdef int capi_play(const katra_node* n, int action, katra_node* child) noexcept nogil:
    cdef int form = capi_node_form(n)
    if form < 0 or child == NULL or action < 0:
        return -1
    return 0 if capi_on(n, form, CAPI_CHILDREN, action, NULL, child, NULL) else -1


cdef int capi_is_over(const katra_node* n) noexcept nogil:
    return <int>capi_ask(n, CAPI_OVER, 0, <u64>-1)


cdef int capi_outcome(const katra_node* n, int* winner, int* south, int* north) noexcept nogil:
    cdef IntPosition st
    cdef int form = capi_node_form(n)
    if form < 0 or winner == NULL or south == NULL or north == NULL:
        return -1
    if not capi_on(n, form, CAPI_OVER, 0, NULL, NULL, NULL):
        return 0
    capi_unpack(n, form, &st)
    outcome_of(&st, winner, south, north)
    return 1


cdef int capi_to_move(const katra_node* n) noexcept nogil:
    return <int>capi_ask(n, CAPI_TO_MOVE, 0, <u64>-1)


cdef int capi_material(const katra_node* n, int player) noexcept nogil:
    if not (player == 0 or player == 1):
        return -1
    return <int>capi_ask(n, CAPI_MATERIAL, player, <u64>-1)


cdef int capi_evaluate(const katra_node* n) noexcept nogil:
    return <int><long long>capi_ask(n, CAPI_EVALUATE, 0, 0)


cdef uint64_t capi_key(const katra_node* n) noexcept nogil:
    return capi_ask(n, CAPI_KEY, 0, 0)


cdef uint64_t capi_zobrist(const katra_node* n) noexcept nogil:
    return capi_ask(n, CAPI_ZOBRIST, 0, 0)


cdef int capi_check_node(const katra_node* n) except -1:
    """The node's form (NODE_*); katra.ArgumentError for a node the API did not make."""
    cdef int form = capi_node_form(n)
    if n == NULL:
        raise ArgumentError("a katra_node pointer is NULL")
    if form < 0:
        raise ArgumentError(f"not a node made by katra's C API (game {n.game}, form {n.form})")
    return form


cdef int capi_from_text(object text, katra_node* node) except -1:
    cdef Position p = Position._from_data(_text.parse_position(text))   # PositionError
    if node == NULL:
        raise ArgumentError("a katra_node pointer is NULL")
    capi_pack(node, &p.st)
    return 0


cdef object capi_text(const katra_node* node):
    cdef Position p = Position.__new__(Position)
    capi_unpack(node, capi_check_node(node), &p.st)
    return p.text()


cdef katra_api CAPI_TABLE
CAPI_TABLE.version = KATRA_CAPI_VERSION
CAPI_TABLE.node_size = sizeof(katra_node)
CAPI_TABLE.from_text = capi_from_text
CAPI_TABLE.text = capi_text
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

# Every internal form fits a node's words (the int form as WideNode); every
# count fits WideNode's; the search's scores are the C API's.
_require(sizeof(WideNode) <= KATRA_NODE_WORDS * sizeof(u64)
         and lanes_forms_fit(KATRA_NODE_WORDS * sizeof(u64))
         and MAX_TOTAL_SEEDS <= 0xFFFF and <int>MAX_CANDIDATES <= <int>KATRA_MAX_CHILDREN
         and <int>MATE == <int>KATRA_MATE,
         "katra_node: an internal form does not fit")

_C_API = PyCapsule_New(<void*>&CAPI_TABLE, "katra._core._C_API", NULL)
