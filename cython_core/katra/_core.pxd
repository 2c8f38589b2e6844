# The compiled core's internal interface: what the parts of _core.pyx (the .pxi
# files it includes) share.  Cython reads this file (the .pxd of katra._core,
# found as katra/_core.pxd on the include path) before _core.pyx, so every
# part sees these declarations whatever the include order.  What a part takes
# of another beyond them are inline functions (Cython cannot declare those
# without their bodies): the hot ones of _common.pxi named below, the lanes
# of _lanes.pxi, the node layer, job_should_stop of _stop.pxi; Cython finds
# them in the whole module, so they may be defined after their callers (the
# dispatchers of _dispatch.pxi, included last, are).  (Cython also lists the
# functions and tables declared here in katra._core.__pyx_capi__; nothing
# outside the core uses them.)
#
# Defined here: the position (IntPosition), the static game tables, the protocol
# between the relay engine and the game families (LapCarry), the legal-children
# iterator, the stop protocol of long jobs (JobStop), and Position's fields.
# Declared here, defined in the .pxi files: the IntPosition-level entry points.  They
# stay real functions, never inline: inlined into the search's and the solver's
# recursions they would swell every frame (tests/test_solve.py runs the solver
# on a 32 KiB thread stack).  Their hot inline versions are in _common.pxi:
# sow_lap and relay_sow (the relay engine) and the *_of dispatchers taking a
# constant family.  The IntPosition's invariants are kept by the two helpers
# defined here, copy_hot and owner_of.

from libc.string cimport memcpy

cdef enum:
    MAX_HOLES = 36
    MAX_GAMES = 255           # the named games and the variants a process makes (katra_node.game is a byte)
    MAX_CANDIDATES = 128      # more than any game can list (Goré: 8 sows + 92 offers)

# NUM_GAMES, the game indices GAME_<id> (the order of katra._games.GAME_IDS:
# the lane jobs name their tables by a constant index, so that their
# addresses are constants in the specialised loops) and the families FAM_*,
# written from the game table (_games.pxi.in).
include "_games.pxi"

# Action numbers (docs/rules.md §1.5) and a rule constant, checked against
# katra._games at import.
cdef enum:
    GORE_OFFER_BASE_C = 8
    GORE_PASS_C = 264
    GORE_ACCEPT_C = 265
    GORE_DECLINE_C = 266
    DJENON_PASS_C = 12
    GORE_SEEDS_PER_TRADED_HOLE_C = 6   # Goré: seeds per traded hole (§4.2); a constant,
                                       # so that dividing by it is a multiplication

ctypedef unsigned long long u64

# ---------------------------------------------------------------- the position

# The whole position.  Arrays beyond the game's holes stay 0, so two equal
# positions are equal as bytes (no padding: every member is an int).  The
# scalars and the board come first: outside Goré the owners never change, so
# the hot copy-make paths copy only that prefix (copy_hot, below), and a state
# made by copy_hot has stale owners outside Goré: read them through owner_of
# (below), never as s.owner outside Goré's own code.
ctypedef struct IntPosition:
    int game           # index into TABLES
    int to_move
    int offer          # Goré: mask offered by the player not to move
    int stores[2]
    int board[MAX_HOLES]
    int owner[MAX_HOLES]

# ---------------------------------------------------------------- the tables

# Static facts of one game; paths per [player][direction].
ctypedef struct GameTable:
    int family
    int rows
    int cols
    int holes
    int num_actions
    int simplified
    int draws                      # can a game end drawn (GameSpec.draws)
    int depth_rows                 # rows per player (Katro, Mpantsaka)
    int path_len
    int path[2][2][2 * MAX_HOLES]  # the holes of the path in sowing order, written twice
    int nxt[2][2][MAX_HOLES]       # next hole on the path
    int prv[2][2][MAX_HOLES]       # previous hole on the path
    int pathpos[2][2][MAX_HOLES]   # position of a hole on the path
    u64 path_bits[2][2][2 * MAX_HOLES + 1]   # [k]: the xor of the doubled path's first k holes,
                                   # bit i for hole path_first_hole + i (a path is a run of holes)
    int col_of[MAX_HOLES]
    int depth_of[MAX_HOLES]        # depth of a hole for its (initial) owner: 0 outer
    int row_start[2][3]            # [player][depth] -> first index of that row
    int front_opp[MAX_HOLES]       # Mpantsaka: the opponent front hole facing a front hole, else -1
    int owner0[MAX_HOLES]          # initial owners
    u64 deeper_rows[MAX_HOLES]     # Katro: the owner's holes in rows deeper than
                                   # the hole's, bit k for the owner's hole own_holes_first + k

# The named games' built at import from katra._games (_build_tables, _common.pxi),
# at their indices GAME_<symbol>; then a variant's (docs/rules.md §7) at the
# next free index when a position of it is first made (game_index,
# _position.pxi).  An index < GAME_COUNT has its table; none changes once built.
cdef GameTable TABLES[MAX_GAMES]
cdef int GAME_COUNT
cdef long long LAP_LIMIT_C         # a sowing must end within this many laps (§1.3)
cdef int POPCOUNT8[256]
cdef int CTZ8[256]                 # the lowest set bit of a non-zero byte
# Goré: OFFER_COUNT[owned][most] = the number of offers of 1..most of owned holes, one kept.
cdef int OFFER_COUNT[9][4]         # [owned 0..GORE_HOLES][most 0..3]
# Goré: OFFER_MASKS[mine][0..OFFER_MASK_COUNT[mine]) = the non-empty submasks of
# mine of at most 3 holes, ascending (the offers, before the opponent's purse).
cdef unsigned char OFFER_MASKS[256][92]
cdef int OFFER_MASK_COUNT[256]

# ---------------------------------------------------------------- the IntPosition's invariants

cdef enum:
    HOT_BYTES = (5 + MAX_HOLES) * 4   # sizeof(int) * ints before IntPosition.owner (checked at import)
    SMALL_HOLES = 16                         # katro-4x4, Djenon-aboure, Goré
    SMALL_HOT_BYTES = (5 + SMALL_HOLES) * 4
    GORE_HOT_BYTES = (5 + GORE_HOLES) * 4   # the scalars and Goré's 8 counts


cdef inline void copy_hot(IntPosition* dst, const IntPosition* src) noexcept nogil:
    """Copy a state for copy-make: the scalars and the game's holes' counts (a
    constant size per board size: 16 holes or fewer, or all), and in Goré its 8
    owners.  Outside Goré dst.owner keeps what it held: read owners through
    owner_of, and nothing past the game's holes."""
    cdef GameTable* g = &TABLES[src.game]
    if g.family == FAM_GORE:
        memcpy(dst, src, GORE_HOT_BYTES)
        memcpy(dst.owner, src.owner, GORE_HOLES * sizeof(int))
    elif g.holes <= SMALL_HOLES:
        memcpy(dst, src, SMALL_HOT_BYTES)
    else:
        memcpy(dst, src, HOT_BYTES)


cdef inline int owner_of(const IntPosition* s, const GameTable* g, int hole) noexcept nogil:
    """The owner of a hole: s.owner in Goré (the one family where owners change),
    the game's constant owners elsewhere (where copy_hot leaves s.owner stale)."""
    return s.owner[hole] if g.family == FAM_GORE else g.owner0[hole]


# ---------------------------------------------------------------- the relay engine

# What the landing hole of a lap decides (each family's *_lap_end, called by
# relay_sow after every lap).
cdef enum:
    LAP_ENDS = 0        # the move ends with this lap
    LAP_RELAYS = 1      # the landing hole's seeds are in the hand: the next lap lifts it and sows on
    LAP_CAPTURES = 2    # as LAP_RELAYS, with captured seeds in the hand too

# What a sowing carries from lap to lap.
ctypedef struct LapCarry:
    int hand            # the seeds in hand
    int opp_row         # Katro: the first hole of the opponent's innermost non-empty
                        # row, -1 if none, OPP_ROW_UNKNOWN until looked up (§2.3),
                        # OPP_ROW_STALE when only opp_seeded is known
    u64 opp_seeded      # Katro: the opponent's seeded holes as a mask (bit h for
                        # hole h), read only once opp_row is not OPP_ROW_UNKNOWN
    u64 mine            # Katro: the mover's seeded holes (lap_sown_bits), bit k for
                        # hole path_first_hole + k

cdef enum:
    OPP_ROW_UNKNOWN = -2
    OPP_ROW_STALE = -3     # opp_seeded known, the row to be read off it again

# The IntPosition-level entry points (dispatch by the game's family).
cdef long long play(IntPosition* s, int action, long long limit) noexcept nogil
    # play a candidate in place: its laps, or -(laps played) past limit (s is then garbage)
cdef void outcome_of(const IntPosition* s, int* winner, int* south, int* north) noexcept nogil
    # winner (-1: a draw) and scores of a terminal position
cdef int legal_actions_c(const IntPosition* s, int* acts) noexcept nogil
    # the legal actions, ascending (the node layer's, _node.pxi)
cdef u64 zobrist_c(const IntPosition* s) noexcept nogil

# ---------------------------------------------------------------- legal children

# The node layer's iterator (_node.pxi) over the legal moves of a node and
# their children: every candidate is played on a copy and kept if its sowing
# ends (§1.3); if none is, the family's fallback (Djenon-aboure's pass) is the
# only child.
ctypedef struct Children:
    int cand[MAX_CANDIDATES]
    int n                  # candidates listed
    int k                  # the next candidate to try
    int legal              # legal children produced so far
    int fallback_done
    long long work         # laps sown so far (for job_should_stop)
    unsigned opp_seeded    # node_opp_seeded of the node listed

# ---------------------------------------------------------------- stopping long jobs

# A job that runs without the GIL owns one JobStop (_stop.pxi): job_stop_init,
# then job_should_stop(js, work) in its loops, then raise_if_stopped with the GIL.
ctypedef struct JobStop:
    long long epoch             # the cancel epoch when the job started
    long long budget            # work left before the next poll
    int reason                  # STOP_NONE until a poll says stop
    bint signals                # the job runs in the main thread: polls run handlers
    double next_signals         # monotonic_seconds() of the next GIL poll

cdef int raise_if_stopped(const JobStop* js) except -1

# ---------------------------------------------------------------- Python objects

cdef object _game_spec(int game)
cdef object _as_int(object value)
cdef long long _int_arg(object value, str name, long long minimum, long long maximum) except? -2
cdef u64 _seed_arg(object value) except? 0

# A position (_position.pxi): an IntPosition held by value, plus a stack for push/pop.
cdef class Position:
    cdef IntPosition st
    cdef IntPosition* _stack
    cdef int* _stack_actions
    cdef Py_ssize_t _depth
    cdef Py_ssize_t _cap

    @staticmethod
    cdef Position _from_data(object data)
    cdef int _play_checked(self, object action, const IntPosition* s, IntPosition* out) except -1
    cdef int _reserve(self, Py_ssize_t need) except -1
