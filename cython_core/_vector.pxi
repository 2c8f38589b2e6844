# VectorGame: many games of one game id in one C array, stepped together
# without the GIL, optionally split between threads (docs/learning.md; the
# threads are _portable.h's: POSIX or Win32).  Its
# observations and masks come from _observations.pxi, its buffers' handling
# from _buffers.pxi.

from libc.stdlib cimport calloc
from cpython.buffer cimport PyBUF_RECORDS_RO, PyBuffer_Release, PyObject_CheckBuffer, PyObject_GetBuffer

from array import array

cdef extern from "_portable.h" nogil:
    ctypedef struct katra_thread:
        pass
    int katra_thread_start(katra_thread* t, void (*fn)(void*) noexcept nogil, void* arg) noexcept
    void katra_thread_join(katra_thread* t) noexcept

cdef enum:
    SKIP_ENV = -1                 # VectorGame.step: leave this env as it is
    MAX_ENVS = 1 << 24
    MAX_THREADS = 64
    ENVS_PER_THREAD = 64          # below this many envs per thread, fewer threads

# Everything a step touches, as plain C (worker threads get a pointer to it).
# The envs' positions are nodes of the node layer (_node.pxi), all of one form
# (node_root's for the start position): nodes and children hold nodes of that
# form, each array indexed by that form's size (room: a NodeBox each).
ctypedef struct Envs:
    int game
    int num_envs
    int obs_size
    int num_actions
    int view                      # -1: the player to move; else 0 or 1
    long long ply_cap             # a game stops, truncated, after this many plies
    int form                      # the nodes' form (NODE_*)
    NodeBox initial               # the start position, of that form
    void* nodes                   # env i's position: nodes[i]
    int children_cap              # children kept per env (0: Goré's, made when played)
    void* children                # env i's sown children (node_legal_moves): [i * children_cap, ...)
    int* legal_n                  # env i's legal actions: legal_acts[i * MAX_CANDIDATES, + n)
    int* legal_acts
    GoreLegal* gore_legal         # Goré's lanes (NODE_GORE): env i's legal actions as sets,
                                  # gore_legal[i], in place of legal_acts (else NULL)
    int* legal_moves              # ... and their move codes (children_cap of them an env)
    unsigned char* sown           # ... and whether their child is kept
    u64* rngs
    long long* drawn              # env i's next random action, drawn ahead (draw_ahead),
    int* drawn_k                  # ... where it is among legal_acts (not on Goré's sets)
    u64* rng_after                # ... and its generator after that draw
    unsigned char* pending        # finished at the last step: reset at the next
    float* obs
    unsigned char* masks
    float* rewards
    unsigned char* terminated
    unsigned char* truncated
    signed char* to_move
    int* plies

# What a commit does with its actions (one per env).  RESET and HANDED then draw
# every env's next action ahead (draw_ahead: random_actions() hands those out);
# GIVEN and DRAWN, whose next actions come from elsewhere, do not.
cdef enum:
    COMMIT_RESET = 0              # none: every env to the start
    COMMIT_GIVEN = 1              # play the given (validated) actions
    COMMIT_DRAWN = 2              # draw them as random_actions does, play them, and write them
    COMMIT_HANDED = 3             # play the draws ahead that random_actions() handed out
                                  # (rngs already moved past them)

# Where VectorGame's draws ahead stand (VectorGame.draws).
cdef enum:
    DRAWS_STALE = 0               # drawn and rng_after may not be rngs' draws
    DRAWS_READY = 1               # drawn: what random_actions() would draw from rngs
    DRAWS_HANDED = 2              # random_actions() handed drawn out and committed rng_after

ctypedef struct CommitJob:
    Envs* envs
    long long* acts
    int mode
    Py_ssize_t lo
    Py_ssize_t hi


cdef inline void env_outputs(const Envs* e, Node* s, Node* children, Py_ssize_t i,
                             bint fresh) noexcept nogil:
    """Legal actions (and children), observation, mask, to_move of env i; terminated,
    truncated, rewards and pending from its node s (nodes[i]; fresh: a reset,
    nothing finished).  Not for Goré's lanes (gore_commit writes theirs).
    The mask row must hold 1 at env i's legal actions before (legal_n, legal_acts)
    and 0 elsewhere; so it does after."""
    # e is commit_envs' local copy, which no store below can change; each output
    # is addressed where it is written (pointers made ahead would be kept, or
    # spilled, across the whole body).  The node is read before the first byte
    # is stored (for the compiler a byte store may change it, and it would be
    # read again), the observation first (its floats cannot change it).
    cdef unsigned char* mask = &e.masks[i * e.num_actions]
    cdef int mover = s.to_move
    cdef bint capped = e.plies[i] >= e.ply_cap
    cdef long long work = 0
    cdef int n, k
    cdef int* acts = &e.legal_acts[i * MAX_CANDIDATES]
    cdef int* moves
    cdef unsigned char* sown
    fill_observation(s, mover if e.view < 0 else e.view, &e.obs[i * e.obs_size])
    for k in range(e.legal_n[i]):   # the mask holds the last legal actions' bytes:
        mask[acts[k]] = 0           # cleared, rather than the whole row
    if e.children_cap:
        moves = &e.legal_moves[i * e.children_cap]
        sown = &e.sown[i * e.children_cap]
        n = node_legal_moves(s, moves, sown, &children[i * e.children_cap], &work)
        for k in range(n):
            acts[k] = node_action(s, moves[k])
    else:                   # node_all_legal: the candidates are the legal moves,
        n = node_candidates(s, acts, 1)     # and a move is its action
    for k in range(n):
        mask[acts[k]] = 1
    env_flags(e, s, i, n, mover, capped, fresh)


cdef inline void env_flags(const Envs* e, const Node* s, Py_ssize_t i, int n, int mover,
                           bint capped, bint fresh) noexcept nogil:
    """legal_n, to_move, rewards, terminated, truncated and pending of env i, whose
    node s has n legal actions (mover: its player to move; capped: its game has
    reached the ply cap; fresh: a reset, nothing finished)."""
    cdef int winner
    e.legal_n[i] = n
    e.to_move[i] = <signed char>mover
    if n == 0 and not fresh:
        winner = node_winner(s)
        e.rewards[2 * i] = 0 if winner < 0 else 1 if winner == 0 else -1
        e.rewards[2 * i + 1] = 0 if winner < 0 else 1 if winner == 1 else -1
        e.terminated[i] = 1
        e.truncated[i] = 0
        e.pending[i] = 1
    else:
        e.rewards[2 * i] = 0
        e.rewards[2 * i + 1] = 0
        e.terminated[i] = 0
        capped = capped and not fresh   # stopped by the ply cap: no result (docs/rules.md §6.1)
        e.truncated[i] = capped
        e.pending[i] = capped


cdef inline int legal_index(const Envs* e, Py_ssize_t i, long long a) noexcept nogil:
    """Where a is among env i's legal actions, else -1 (not for Goré's sets)."""
    cdef const int* legal = &e.legal_acts[i * MAX_CANDIDATES]
    cdef int k
    for k in range(e.legal_n[i]):
        if legal[k] == a:
            return k
    return -1


cdef inline bint env_legal(const Envs* e, Py_ssize_t i, long long a) noexcept nogil:
    """Is a (0 <= a < num_actions) one of env i's legal actions?"""
    if e.gore_legal:
        return gore_legal_has(&e.gore_legal[i], <int>a)
    return legal_index(e, i, a) >= 0


cdef Py_ssize_t first_bad_env(const Envs* e, const long long* acts) noexcept nogil:
    """The first env whose action is neither legal, SKIP nor a reset; else -1."""
    cdef Py_ssize_t i
    cdef long long a
    for i in range(e.num_envs):
        a = acts[i]
        if a == SKIP_ENV or (e.pending[i] and a >= 0):
            continue
        if a < 0 or a >= e.num_actions or not env_legal(e, i, a):
            return i
    return -1


cdef inline long long draw_action(const Envs* e, Py_ssize_t i, u64* rng, bint gore,
                                  int* k) noexcept nogil:
    """Env i's random action, drawn with the generator *rng (docs/rules.md §6.2:
    A[next() % len(A)]), and where it is among legal_acts into k (not on Goré's
    sets; gore: a constant where inlined); 0, no number drawn, for an env about
    to be reset or without legal actions (every such env has finished: it is
    about to be reset)."""
    cdef int n = e.legal_n[i]
    if e.pending[i] or n == 0:
        return 0
    k[0] = <int>mod_small(splitmix64(rng), n)
    if gore:
        return gore_legal_nth(&e.gore_legal[i], k[0])
    return e.legal_acts[i * MAX_CANDIDATES + k[0]]


cdef inline void draw_ahead(Envs* e, Py_ssize_t i, bint gore) noexcept nogil:
    """Env i's random action drawn ahead with a copy of its generator: the action
    into drawn[i] (and drawn_k[i]), the generator after it into rng_after[i]."""
    cdef u64 rng = e.rngs[i]
    cdef int k = 0
    e.drawn[i] = draw_action(e, i, &rng, gore, &k)
    if not gore:
        e.drawn_k[i] = k
    e.rng_after[i] = rng


cdef void draw_all(Envs* e) noexcept nogil:
    """draw_ahead for every env."""
    cdef Py_ssize_t i
    cdef bint gore = e.gore_legal != NULL
    for i in range(e.num_envs):
        draw_ahead(e, i, gore)


cdef inline void commit_nodes(Envs* e, Node* nodes, Node* children, long long* acts, int mode,
                              Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Play the actions of envs lo..hi-1 (mode COMMIT_*), or reset the finished ones:
    commit_envs; on Goré gore_commit, with the mode a constant (one loop compiled
    for each: its steps are short, the mode's tests count).  Not elsewhere: three loops call the
    node layer's outlined functions (halves_node_play) from three places, and GCC
    then stops inlining them (Katro: 5% more instructions a step, callgrind)."""
    if Node is GoreNode:
        if mode == COMMIT_DRAWN:
            gore_commit(e, nodes, acts, COMMIT_DRAWN, lo, hi)
        elif mode == COMMIT_HANDED:
            gore_commit(e, nodes, acts, COMMIT_HANDED, lo, hi)
        elif mode == COMMIT_GIVEN:
            gore_commit(e, nodes, acts, COMMIT_GIVEN, lo, hi)
        else:
            gore_commit(e, nodes, acts, COMMIT_RESET, lo, hi)
    else:
        commit_envs(e, nodes, children, acts, mode, lo, hi)


# What env_play did to an env.
cdef enum:
    ENV_LEFT = 0                  # left as it is (skipped, or no action)
    ENV_PLAYED = 1                # played
    ENV_RESET = 2                 # reset to the start


cdef inline int env_play(Envs* e, Node* nodes, Node* children, long long* acts, int mode,
                         Py_ssize_t i) noexcept nogil:
    """Env i's part of a commit (mode COMMIT_*) before its outputs: reset it if
    finished (or every env, COMMIT_RESET), else play its action (given, drawn
    ahead, or drawn and written to acts); what it did (ENV_*)."""
    cdef Py_ssize_t k = 0
    cdef int drawn_k = 0
    cdef long long a
    cdef int cap = e.children_cap
    if mode == COMMIT_RESET or e.pending[i]:
        if mode == COMMIT_GIVEN and acts[i] == SKIP_ENV:
            return ENV_LEFT
        if mode == COMMIT_DRAWN:
            acts[i] = 0                 # as random_actions: no number drawn
        nodes[i] = (<const Node*>&e.initial)[0]
        e.plies[i] = 0
        return ENV_RESET
    if mode == COMMIT_DRAWN or mode == COMMIT_HANDED:
        if e.legal_n[i] == 0:           # no legal action: left as it is (never so: an
            acts[i] = 0                 # env without any has finished, reset above)
            return ENV_LEFT
        if mode == COMMIT_HANDED:
            a = e.drawn[i]
            if Node is not GoreNode:
                drawn_k = e.drawn_k[i]
        else:
            a = draw_action(e, i, &e.rngs[i], Node is GoreNode, &drawn_k)
        acts[i] = a
        k = drawn_k
    else:
        a = acts[i]
        if a == SKIP_ENV:
            return ENV_LEFT
        if Node is GoreNode:
            k = 0
        else:
            k = legal_index(e, i, a) if cap else 0
    e.plies[i] += 1
    if Node is GoreNode:            # no children kept: a move is its action
        gore_apply_lanes(&nodes[i], <int>a)
    elif cap:
        k += i * cap
        if e.sown[k]:
            nodes[i] = children[k]
        else:
            node_apply(&nodes[i], e.legal_moves[k])
    else:                           # node_all_legal: a move is its action
        node_apply(&nodes[i], <int>a)
    return ENV_PLAYED


cdef inline void commit_envs(const Envs* shared, Node* nodes, Node* children, long long* acts,
                             int mode, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """commit_nodes' loop, on a copy of the Envs (its fields stay in registers:
    for the compiler no byte or float stored into the outputs can change a local
    copy, while each store might change *shared, read again after every one)."""
    cdef Envs here = shared[0]
    cdef Envs* e = &here
    cdef Py_ssize_t i
    cdef int what
    for i in range(lo, hi):
        what = env_play(e, nodes, children, acts, mode, i)
        if what != ENV_LEFT:
            env_outputs(e, &nodes[i], children, i, what == ENV_RESET)
        if mode == COMMIT_RESET or mode == COMMIT_HANDED:
            draw_ahead(e, i, False)


cdef inline void gore_commit(const Envs* shared, GoreNode* nodes, long long* acts, int mode,
                             Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """commit_envs on Goré's lanes: per env the ply, the legal sets made in place
    (gore_legal), the mask row (written whole: gore_mask_write), the observation,
    the flags and the next draw.  Its own loop, not env_outputs' (which lists the
    legal actions); one pass (with the offers written whole the mask needs no
    old legal sets, and one pass costs fewer instructions and mispredictions
    than two).  The same outputs as commit_envs, every env independent of
    the others."""
    cdef Envs here = shared[0]
    cdef Envs* e = &here
    cdef Py_ssize_t i
    cdef int mover, what
    cdef GoreView v
    for i in range(lo, hi):
        what = env_play(e, nodes, NULL, acts, mode, i)     # no children kept
        if what != ENV_LEFT:
            gore_view(&v, &nodes[i])
            gore_legal_of(&e.gore_legal[i], &v)
            gore_mask_write(&e.masks[i * (GORE_DECLINE_C + 1)], &e.gore_legal[i])
            mover = nodes[i].to_move
            fill_observation(&nodes[i], mover if e.view < 0 else e.view,
                             &e.obs[i * (3 * GORE_HOLES + 4)])
            env_flags(e, &nodes[i], i, gore_legal_count(&e.gore_legal[i]), mover,
                      e.plies[i] >= e.ply_cap, what == ENV_RESET)
        if mode == COMMIT_RESET or mode == COMMIT_HANDED:
            draw_ahead(e, i, True)


# commit_range(e, acts, mode, lo, hi): commit_nodes on the envs' form of node, and
# env_int_pos(e, i, out): env i's position on the int form (_dispatch.pxi.in)


cdef void commit_worker(void* arg) noexcept nogil:
    cdef CommitJob* job = <CommitJob*>arg
    commit_range(job.envs, job.acts, job.mode, job.lo, job.hi)


cdef void commit_all(Envs* e, long long* acts, int mode, int threads) noexcept nogil:
    """commit_range over every env, split between threads (the calling one included);
    every env is independent, so the result does not depend on the split."""
    cdef CommitJob jobs[MAX_THREADS]
    cdef katra_thread threads_of[MAX_THREADS]
    cdef bint started[MAX_THREADS]
    cdef int t
    cdef Py_ssize_t n = e.num_envs
    if threads > n // ENVS_PER_THREAD:
        threads = <int>(n // ENVS_PER_THREAD)
    if threads <= 1:
        commit_range(e, acts, mode, 0, n)
        return
    for t in range(threads):
        jobs[t].envs = e
        jobs[t].acts = acts
        jobs[t].mode = mode
        jobs[t].lo = n * t // threads
        jobs[t].hi = n * (t + 1) // threads
    for t in range(1, threads):
        started[t] = katra_thread_start(&threads_of[t], commit_worker, &jobs[t]) == 0
        if not started[t]:
            commit_worker(&jobs[t])          # no thread to be had: do it here
    commit_worker(&jobs[0])
    for t in range(1, threads):
        if started[t]:
            katra_thread_join(&threads_of[t])


cdef object NUMPY = None           # _numpy_or_none's answer, once looked up
cdef bint NUMPY_LOOKED_UP = False

cdef object _numpy_or_none():
    """NumPy, or None without it (looked up once: random_actions() asks every step)."""
    global NUMPY, NUMPY_LOOKED_UP
    if not NUMPY_LOOKED_UP:
        try:
            import numpy
            NUMPY = numpy
        except ImportError:
            NUMPY = None
        NUMPY_LOOKED_UP = True
    return NUMPY


cdef object _action_array(Py_ssize_t n):
    """Room for n actions, int64 (a NumPy array, else an array.array), every one to
    be written by the caller (NumPy's not cleared first)."""
    np = _numpy_or_none()
    return np.empty(n, np.int64) if np is not None else array("q", bytes(8 * n))


cdef class VectorGame:
    """Many games of one game id in one C array, stepped together without the GIL.

    See docs/learning.md.  Results land in arrays the caller can read (NumPy
    arrays when NumPy is installed, else array.array/bytearray, flat):
    ``observations`` (num_envs x observation size, float32), ``action_masks``
    (num_envs x num_actions, bool/uint8), ``rewards`` (num_envs x 2, float32,
    South then North), ``terminated``, ``truncated`` (bool/uint8), ``to_move``
    (int8) and ``plies`` (int32: plies of the current game).
    """

    cdef Envs e
    cdef int draws                 # where e's draws ahead stand (DRAWS_*)
    cdef u64 _seed
    cdef int _num_threads
    cdef Py_buffer bufs[7]
    cdef int held                  # how many of bufs are held
    cdef readonly object observations
    cdef readonly object action_masks
    cdef readonly object rewards
    cdef readonly object terminated
    cdef readonly object truncated
    cdef readonly object to_move
    cdef readonly object plies

    SKIP = SKIP_ENV

    def __cinit__(self):
        memset(&self.e, 0, sizeof(Envs))
        self.held = 0

    def __dealloc__(self):
        cdef int k
        for k in range(self.held):
            PyBuffer_Release(&self.bufs[k])
        free(self.e.nodes)
        free(self.e.children)
        free(self.e.legal_n)
        free(self.e.legal_acts)
        free(self.e.gore_legal)
        free(self.e.legal_moves)
        free(self.e.sown)
        free(self.e.rngs)
        free(self.e.drawn)
        free(self.e.drawn_k)
        free(self.e.rng_after)
        free(self.e.pending)

    def __init__(self, game, num_envs, seed=0, max_plies=_games.DEFAULT_MAX_PLIES, view=None,
                 num_threads=1):
        if self.held:
            raise RuntimeError("VectorGame is already initialised")
        game_id = game if isinstance(game, str) else getattr(game, "id", game)
        cdef Position start = Position.initial(_games.find_game(game_id).id)
        # Argument errors: katra.ArgumentTypeError (not an int) or katra.ArgumentError.
        cdef long long n = _int_arg(num_envs, "num_envs", 1, MAX_ENVS)
        cdef long long max_plies_c = _int_arg(max_plies, "max_plies", 1, MAX_COUNT)
        cdef u64 seed_c = _seed_arg(seed)
        cdef long long view_c = -1 if view is None else _int_arg(
            view, "view (0, 1 or None: the player to move)", 0, 1)
        self._num_threads = <int>_int_arg(num_threads, "num_threads", 1, MAX_THREADS)
        observation_tables()
        cdef Envs* e = &self.e
        e.view = <int>view_c
        e.ply_cap = max_plies_c
        e.form = node_root(&e.initial, &start.st)
        e.game = start.st.game
        e.num_envs = <int>n
        e.obs_size = observation_size_c(e.game)
        e.num_actions = TABLES[e.game].num_actions
        self._seed = seed_c
        family = TABLES[e.game].family
        e.children_cap = (0 if family == FAM_GORE else TABLES[e.game].cols
                          if family in (FAM_KATRO, FAM_DJENON) else TABLES[e.game].holes)
        e.nodes = calloc(n, sizeof(NodeBox))
        e.children = malloc(max(1, n * e.children_cap) * sizeof(NodeBox))
        e.legal_n = <int*>calloc(n, sizeof(int))    # no legal actions: masks of 0s
        e.legal_acts = <int*>malloc(n * MAX_CANDIDATES * sizeof(int))
        e.legal_moves = <int*>malloc(max(1, n * e.children_cap) * sizeof(int))
        e.sown = <unsigned char*>malloc(max(1, n * e.children_cap))
        if e.form == NODE_GORE:
            e.gore_legal = <GoreLegal*>calloc(n, sizeof(GoreLegal))   # none: masks of 0s
            if not e.gore_legal:
                raise MemoryError()
        e.rngs = <u64*>malloc(n * sizeof(u64))
        e.drawn = <long long*>malloc(n * sizeof(long long))
        e.drawn_k = <int*>malloc(n * sizeof(int))
        e.rng_after = <u64*>malloc(n * sizeof(u64))
        e.pending = <unsigned char*>malloc(n)
        if not (e.nodes and e.children and e.legal_n and e.legal_acts and e.legal_moves and e.sown
                and e.rngs and e.drawn and e.drawn_k and e.rng_after and e.pending):
            raise MemoryError()
        np = _numpy_or_none()
        N = e.num_envs
        if np is not None:
            arrays = (np.zeros((N, e.obs_size), np.float32),
                      np.zeros((N, e.num_actions), np.bool_),
                      np.zeros((N, 2), np.float32), np.zeros(N, np.bool_), np.zeros(N, np.bool_),
                      np.zeros(N, np.int8), np.zeros(N, np.int32))
        else:
            arrays = (array("f", bytes(4 * N * e.obs_size)),
                      bytearray(N * e.num_actions), array("f", bytes(8 * N)),
                      bytearray(N), bytearray(N), array("b", bytes(N)), array("i", bytes(4 * N)))
        (self.observations, self.action_masks, self.rewards, self.terminated, self.truncated,
         self.to_move, self.plies) = arrays
        for k, arr in enumerate(arrays):
            PyObject_GetBuffer(arr, &self.bufs[k], PyBUF_RECORDS_RO)
            self.held += 1
        e.obs = <float*>self.bufs[0].buf
        e.masks = <unsigned char*>self.bufs[1].buf
        e.rewards = <float*>self.bufs[2].buf
        e.terminated = <unsigned char*>self.bufs[3].buf
        e.truncated = <unsigned char*>self.bufs[4].buf
        e.to_move = <signed char*>self.bufs[5].buf
        e.plies = <int*>self.bufs[6].buf
        self.reset()

    @property
    def num_envs(self):
        return self.e.num_envs

    @property
    def game_id(self):
        return _game_spec(self.e.game).id

    @property
    def observation_size(self):
        return self.e.obs_size

    @property
    def num_actions(self):
        return self.e.num_actions

    @property
    def max_plies(self):
        return self.e.ply_cap

    @property
    def num_threads(self):
        """Threads a step may use (envs are split between them; results do not change)."""
        return self._num_threads

    def reset(self, seed=None):
        """Every env to the start position; seed (if given) restarts the generators
        (env i: seed + i * 2**32, docs/rules.md §6.2).  Returns ``observations``."""
        cdef Py_ssize_t i
        if seed is not None:
            self._seed = _seed_arg(seed)
        with nogil:
            for i in range(self.e.num_envs):
                self.e.rngs[i] = self._seed + (<u64>i << 32)
                self.e.legal_n[i] = 0       # and every mask row 0s (env_outputs' premise)
            if self.e.gore_legal:
                memset(self.e.gore_legal, 0, self.e.num_envs * sizeof(GoreLegal))
            memset(self.e.masks, 0, self.e.num_envs * self.e.num_actions)
            commit_range(&self.e, NULL, COMMIT_RESET, 0, self.e.num_envs)
        self.draws = DRAWS_READY
        return self.observations

    def step(self, actions):
        """Play actions[i] in env i, all envs in one call without the GIL.

        An env that finished at the previous step is reset instead (its action,
        any int >= 0, is ignored: Gymnasium's next-step autoreset);
        ``VectorGame.SKIP`` (-1) leaves an env and its outputs as they are.
        actions: a list of ints or a flat buffer of integers of any item type,
        each read by its type (signed or not).  Bad actions raise
        katra.ArgumentTypeError (not an int), katra.ArgumentError (out of range,
        or not one per env) or katra.IllegalMoveError (not legal), naming the
        env; a buffer of the wrong item type, or not a buffer,
        katra.ArgumentTypeError, of the wrong size or shape katra.ArgumentError;
        no env is changed.
        """
        cdef Py_buffer view
        cdef int kind, mode
        cdef Py_ssize_t N = self.e.num_envs, i, bad = -1
        cdef long long* acts = <long long*>malloc(N * sizeof(long long))
        if acts == NULL:
            raise MemoryError()
        try:
            if not PyObject_CheckBuffer(actions) and isinstance(actions, (list, tuple)):
                if len(actions) != N:
                    raise ArgumentError(f"step: expected {N} actions (one per env), "
                                        f"got {len(actions)}")
                for i in range(N):
                    item = _as_int(actions[i])
                    if item is None:
                        raise ArgumentTypeError(f"step: env {i}: an action is an int, not "
                                                f"{type(actions[i]).__name__}")
                    # beyond this no action is in range; in between, first_bad_env checks
                    acts[i] = max(-2, min(item, self.e.num_actions))
            else:
                kind = acquire(actions, &view, N, "step", "actions", False)
                try:
                    read_actions(<char*>view.buf, kind, view.itemsize, N, acts)
                finally:
                    PyBuffer_Release(&view)
            with nogil:
                # random_actions()' draws as handed out: legal, nothing to check
                mode = COMMIT_HANDED if (self.draws == DRAWS_HANDED and memcmp(
                    acts, self.e.drawn, N * sizeof(long long)) == 0) else COMMIT_GIVEN
                if mode == COMMIT_GIVEN:
                    bad = first_bad_env(&self.e, acts)
            if bad >= 0:
                self.raise_bad(bad, acts[bad], actions[bad] if isinstance(actions, (list, tuple))
                               else acts[bad])
            with nogil:
                commit_all(&self.e, acts, mode, self._num_threads)
            # drawn ahead only after the draws handed out: other actions pay no draw
            self.draws = DRAWS_READY if mode == COMMIT_HANDED else DRAWS_STALE
        finally:
            free(acts)

    cdef int raise_bad(self, Py_ssize_t i, long long a, object given) except -1:
        cdef Position pos = Position.__new__(Position)
        env_int_pos(&self.e, i, &pos.st)
        if a < SKIP_ENV or a >= self.e.num_actions:
            raise ArgumentError(f"step: env {i}: action {given} is out of range "
                             f"0..{self.e.num_actions - 1} (or -1 to skip); no env was changed")
        spec = _game_spec(self.e.game)
        legal = ", ".join(f"{_text.action_text(spec, b)} ({b})" for b in pos.legal_actions())
        try:
            what = f"action {a} ({_text.action_text(spec, a)}) is not legal"
        except IllegalMoveError as why:     # no action of any position (Goré's offer of 0 holes)
            what = f"action {a} is not legal ({why})"
        raise IllegalMoveError(f"step: env {i}: {what} in {pos.text()}; "
                               f"legal: {legal or 'none'}; no env was changed")

    def random_actions(self):
        """One action per env drawn with the docs/rules.md §6.2 generator of that env
        (``A[next() % len(A)]``); 0 for an env about to be reset (no number drawn).

        A step of the actions this handed out, and reset(), draw the next ones
        ahead (the generators left as they are); this hands those out (drawing
        them first after any other step) and moves the generators past them."""
        return self.actions_out(0)

    cdef object actions_out(self, bint play):
        """A new array of one action per env (_action_array), filled without the
        GIL: the draws ahead handed out (random_actions), or, play, the actions
        drawn and played by a commit (step_random)."""
        out = _action_array(self.e.num_envs)
        cdef Py_buffer buf
        PyObject_GetBuffer(out, &buf, PyBUF_RECORDS_RO)
        with nogil:
            if play:        # drawn with rngs as they are (random_actions() moved them)
                commit_all(&self.e, <long long*>buf.buf, COMMIT_DRAWN, self._num_threads)
                self.draws = DRAWS_STALE
            else:
                self.hand_draws()
                memcpy(buf.buf, self.e.drawn, self.e.num_envs * sizeof(long long))
        PyBuffer_Release(&buf)
        return out

    cdef void hand_draws(self) noexcept nogil:
        """Hand out the draws ahead: every generator moved past its draw (the draws
        made first unless ready)."""
        cdef u64* was = self.e.rngs
        if self.draws != DRAWS_READY:
            draw_all(&self.e)
        self.e.rngs = self.e.rng_after      # the arrays swapped: rng_after is written
        self.e.rng_after = was              # whole before it is read again
        self.draws = DRAWS_HANDED

    def step_random(self):
        """``step(random_actions())`` in one call without the GIL: every env plays the
        action random_actions() would draw (an env that finished is reset, as step
        does), with nothing to check.  Returns those actions (as random_actions:
        0 for an env reset)."""
        return self.actions_out(1)

    def position(self, i):
        """A copy of env i's position (a katra._core.Position)."""
        cdef long long k = _int_arg(i, "env index i", 0, self.e.num_envs - 1)
        cdef Position pos = Position.__new__(Position)
        env_int_pos(&self.e, k, &pos.st)
        return pos

    def __repr__(self):
        return (f"VectorGame({self.game_id!r}, num_envs={self.e.num_envs}, "
                f"max_plies={self.e.ply_cap})")
