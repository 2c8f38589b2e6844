# cython: language_level=3
# katra's C-level API for search written in Cython (docs/cython.md).
#
#     from katra.capi cimport katra_node, import_katra, katra_children, ...
#     import_katra()       # once, at your module's import (with the GIL)
#
# Build with katra.get_include() on Cython's include path.  The functions come
# from the installed katra._core through a capsule (katra._core._C_API, a
# struct of function pointers): nothing is linked, and an extension built
# against one katra runs against another of the same KATRA_CAPI_VERSION
# (import_katra checks it, and the node size).
#
# A katra_node is a position held by value, a plain C struct of a fixed size:
# keep them in arrays, copy them with `=`.  Its `game` (an index into
# katra.GAME_IDS) and `form` may be read; the rest is opaque and only the
# functions below may write it.  Every function below the GIL line is nogil
# and noexcept, and returns its error value (-1; 0 for the keys and
# katra_evaluate) for a node whose game or form is not one the API made (a
# zeroed node, say), a NULL buffer or a bad player, or when import_katra() has
# not run; with a node the API made and room in the buffers it cannot fail.
#
# This file is the API's one definition: the core includes it too.

from cpython.pycapsule cimport PyCapsule_Import
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    /* katra.capi: the API table of the katra._core this module imported (one per module). */
    static void* katra_capi_table = NULL;
    static inline void* katra_capi_get(void) { return katra_capi_table; }
    static inline void katra_capi_set(void* table) { katra_capi_table = table; }
    """
    void* katra_capi_get() noexcept nogil
    void katra_capi_set(void* table) noexcept nogil

cdef enum:
    KATRA_CAPI_VERSION = 1      # changes when the table or the node changes
    KATRA_NODE_WORDS = 10       # the node's opaque words (every internal form fits)
    KATRA_MAX_CHILDREN = 128    # room every listing of actions or children needs
    KATRA_MATE = 100000         # katra.search's score of a win at ply 0 (docs/engine.md)

ctypedef struct katra_node:
    unsigned char game          # index into katra.GAME_IDS
    unsigned char form          # which internal form the words hold (nonzero)
    unsigned char _reserved[6]
    uint64_t _words[KATRA_NODE_WORDS]

# The capsule's table: what import_katra() finds in katra._core._C_API.  Call
# the katra_* functions below rather than these pointers.
ctypedef struct katra_api:
    int version                 # KATRA_CAPI_VERSION of the core
    int node_size               # sizeof(katra_node) of the core
    # with the GIL
    int (*from_text)(object text, katra_node* node) except -1
    object (*text)(const katra_node* node)
    # nogil
    int (*legal_count)(const katra_node* node) noexcept nogil
    int (*legal_actions)(const katra_node* node, int* actions) noexcept nogil
    int (*children)(const katra_node* node, int* actions, katra_node* children) noexcept nogil
    int (*play)(const katra_node* node, int action, katra_node* child) noexcept nogil
    int (*is_over)(const katra_node* node) noexcept nogil
    int (*outcome)(const katra_node* node, int* winner, int* south, int* north) noexcept nogil
    int (*to_move)(const katra_node* node) noexcept nogil
    int (*material)(const katra_node* node, int player) noexcept nogil
    int (*evaluate)(const katra_node* node) noexcept nogil
    uint64_t (*key)(const katra_node* node) noexcept nogil
    uint64_t (*zobrist)(const katra_node* node) noexcept nogil


cdef inline int import_katra() except -1:
    """Find the API of the installed katra (imports katra).  Call it once, with the
    GIL, before any other katra_* function (at your module's top level).  Raises
    ImportError if katra is missing or was built with another API version."""
    cdef katra_api* api = <katra_api*>PyCapsule_Import("katra._core._C_API", 0)
    if api == NULL:
        return -1
    if api.version != KATRA_CAPI_VERSION or api.node_size != sizeof(katra_node):
        raise ImportError(
            f"this extension was built for katra's C API version {KATRA_CAPI_VERSION} "
            f"(nodes of {sizeof(katra_node)} bytes); the installed katra has version "
            f"{api.version} ({api.node_size} bytes): rebuild it against this katra")
    katra_capi_set(api)
    return 0


cdef inline const katra_api* katra_capi() noexcept nogil:
    return <const katra_api*>katra_capi_get()


# ---------------------------------------------------------------- with the GIL

cdef inline int katra_from_text(object text, katra_node* node) except -1:
    """The node of a position text (docs/rules.md §1.5); katra.PositionError if the
    text is not one (node untouched)."""
    if katra_capi() == NULL:
        raise ImportError("call import_katra() before katra_from_text()")
    return katra_capi().from_text(text, node)


cdef inline object katra_text(const katra_node* node):
    """The node's position text (canonical, as katra.State.text())."""
    if katra_capi() == NULL:
        raise ImportError("call import_katra() before katra_text()")
    return katra_capi().text(node)


cdef inline int katra_from_state(object state, katra_node* node) except -1:
    """The node of a katra.State's position (either backend; its move stack is
    not kept); katra.ArgumentTypeError if state is not a katra.State."""
    import katra
    if not isinstance(state, katra.State):
        raise katra.ArgumentTypeError(f"state must be a katra.State, not {type(state).__name__}")
    return katra_from_text(state.text(), node)


cdef inline object katra_state(const katra_node* node):
    """A new katra.State of the node's position."""
    import katra
    return katra.State.from_text(katra_text(node))


# ---------------------------------------------------------------- nogil

cdef inline int katra_legal_count(const katra_node* node) noexcept nogil:
    """How many legal actions the player to move has (0: the game is over)."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().legal_count(node)


cdef inline int katra_legal_actions(const katra_node* node, int* actions) noexcept nogil:
    """The legal actions, ascending, into actions (room for KATRA_MAX_CHILDREN);
    returns how many."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().legal_actions(node, actions)


cdef inline int katra_children(const katra_node* node, int* actions,
                               katra_node* children) noexcept nogil:
    """Every legal action (ascending) into actions (NULL: not wanted) and its child
    into children (room for KATRA_MAX_CHILDREN nodes); returns how many."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().children(node, actions, children)


cdef inline int katra_play(const katra_node* node, int action, katra_node* child) noexcept nogil:
    """The child of a legal action into child: 0, or -1 if action is not legal
    here (child is then unspecified)."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().play(node, action, child)


cdef inline int katra_is_over(const katra_node* node) noexcept nogil:
    """1 if the player to move has no legal action (the game is over), else 0;
    quicker than counting."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().is_over(node)


cdef inline int katra_outcome(const katra_node* node, int* winner, int* south,
                              int* north) noexcept nogil:
    """Of a finished game: 1, with the winner (0 South, 1 North, -1 a draw) and
    the scores (docs/rules.md) in *winner, *south, *north; 0 while the game goes
    on (nothing written)."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().outcome(node, winner, south, north)


cdef inline int katra_to_move(const katra_node* node) noexcept nogil:
    """The player to move: 0 South, 1 North."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().to_move(node)


cdef inline int katra_material(const katra_node* node, int player) noexcept nogil:
    """Player 0 or 1's seeds in play (Katro, Katra Mpantsaka) or in store (Goré,
    Djenon-aboure)."""
    if katra_capi() == NULL:
        return -1
    return katra_capi().material(node, player)


cdef inline int katra_evaluate(const katra_node* node) noexcept nogil:
    """katra.search's static evaluation, from the player to move (docs/engine.md)."""
    if katra_capi() == NULL:
        return 0
    return katra_capi().evaluate(node)


cdef inline uint64_t katra_key(const katra_node* node) noexcept nogil:
    """A 64-bit key of the position, the quickest to compute (the solver's table
    key): equal positions have equal keys in one katra version; not
    katra.State.hash (katra_zobrist is)."""
    if katra_capi() == NULL:
        return 0
    return katra_capi().key(node)


cdef inline uint64_t katra_zobrist(const katra_node* node) noexcept nogil:
    """The position's 64-bit Zobrist hash: katra.State.hash (fixed keys: the same
    in every run and process)."""
    if katra_capi() == NULL:
        return 0
    return katra_capi().zobrist(node)
