# Tensors for learning code, filled in C: observations and legal-action masks of
# one position or many (written into any writable buffer), and VectorGame, many
# games stepped at once without the GIL, optionally split between POSIX threads
# (docs/learning.md).

from libc.limits cimport LLONG_MAX
from libc.stdlib cimport calloc
from cpython.buffer cimport (PyBUF_RECORDS_RO, PyBuffer_IsContiguous, PyBuffer_Release,
                             PyObject_CheckBuffer, PyObject_GetBuffer)

from array import array
from sys import byteorder as sys_byteorder

from katra._errors import BufferItemError

cdef enum:
    OBS_MAX = 3 * MAX_HOLES + 4     # the longest observation
    KIND_SIGNED = 1
    KIND_UNSIGNED = 2
    KIND_FLOAT = 3
    KIND_BOOL = 4
    SKIP_ENV = -1                   # VectorGame.step: leave this env as it is

cdef int BIG_ENDIAN_HOST = 1 if sys_byteorder == "big" else 0


cdef inline int observation_size_c(int game) noexcept nogil:
    return 3 * TABLES[game].holes + 4


ctypedef fused obs_item:
    int
    float

cdef inline int fill_observation(const State* s, int player, obs_item* out) noexcept nogil:
    """Write the observation of s from player's point of view (layout: docs/learning.md);
    return the largest value written."""
    cdef GameTable* g = &TABLES[s.game]
    cdef int H = g.holes
    cdef bint gore = g.family == FAM_GORE
    cdef int j, i, v, top = 1
    for j in range(H):
        i = H - 1 - j if player else j     # North sees the board turned a half turn
        v = s.board[i]
        if v > top:
            top = v
        out[j] = v
        out[H + j] = owner_of(s, g, i) == player
        out[2 * H + j] = (s.offer >> i) & 1 if gore else 0   # offers: Goré's 8 holes only
    out[3 * H] = s.stores[player]
    out[3 * H + 1] = s.stores[1 - player]
    out[3 * H + 2] = player
    out[3 * H + 3] = s.to_move == player
    if s.stores[0] > top:
        top = s.stores[0]
    if s.stores[1] > top:
        top = s.stores[1]
    return top


cdef inline void fill_mask(const int* acts, int n, int num_actions, unsigned char* row) noexcept nogil:
    cdef int k
    memset(row, 0, num_actions)
    for k in range(n):
        row[acts[k]] = 1


# ---------------------------------------------------------------- caller buffers

cdef int item_kind(const char* fmt) noexcept:
    """KIND_* of a one-item struct format in native byte order, else 0."""
    if fmt == NULL:
        return KIND_UNSIGNED
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == (b'>' if BIG_ENDIAN_HOST else b'<'):
        fmt += 1
    if fmt[0] == 0 or fmt[1] != 0:
        return 0
    if fmt[0] in b"bhilqn":
        return KIND_SIGNED
    if fmt[0] in b"BHILQN":
        return KIND_UNSIGNED
    if fmt[0] in b"fd":
        return KIND_FLOAT
    if fmt[0] == b'?':
        return KIND_BOOL
    return 0


cdef int item_max(int kind, Py_ssize_t itemsize) noexcept:
    """The largest value (all values written are >= 0) an item can hold exactly."""
    if kind == KIND_BOOL:
        return 1
    if kind == KIND_SIGNED and itemsize == 1:
        return 127
    if kind == KIND_UNSIGNED and itemsize == 1:
        return 255
    if kind == KIND_SIGNED and itemsize == 2:
        return 32767
    if kind == KIND_UNSIGNED and itemsize == 2:
        return 65535
    return 2147483647


cdef int acquire(object out, Py_buffer* view, Py_ssize_t items, str what,
                 bint writable) except 0:
    """Take a C-contiguous buffer of exactly items integer/bool/float items; its KIND_*."""
    cdef int kind
    if not PyObject_CheckBuffer(out):
        if writable:
            raise TypeError(f"{what}: out must be a writable buffer (bytearray, array.array, "
                            f"NumPy array...), not {type(out).__name__}")
        raise TypeError(f"{what}: expected a buffer of integers (array.array, NumPy array...), "
                        f"not {type(out).__name__}")
    PyObject_GetBuffer(out, view, PyBUF_RECORDS_RO)
    try:
        if writable and view.readonly:
            raise ValueError(f"{what}: out is read-only")
        if not PyBuffer_IsContiguous(view, b'C'):
            raise ValueError(f"{what}: the buffer must be C-contiguous")
        kind = item_kind(view.format)
        if kind == 0 or (kind == KIND_FLOAT and view.itemsize not in (4, 8)) or (
                kind != KIND_FLOAT and view.itemsize not in (1, 2, 4, 8)):
            fmt = "B" if view.format == NULL else (<bytes>view.format).decode("ascii", "replace")
            raise TypeError(f"{what}: unsupported item format {fmt!r} (use an integer, bool, "
                            "float32 or float64 buffer)")
        if not writable and kind not in (KIND_SIGNED, KIND_UNSIGNED):
            fmt = (<bytes>view.format).decode("ascii", "replace")
            raise TypeError(f"{what}: expected integer items, got item format {fmt!r}")
        if view.len // view.itemsize != items:
            raise ValueError(f"{what}: out holds {view.len // view.itemsize} items, "
                             f"expected {items}")
    except BaseException:
        PyBuffer_Release(view)
        raise
    return kind


cdef void write_items(char* data, int kind, Py_ssize_t itemsize, const int* values,
                      Py_ssize_t n) noexcept nogil:
    """Store n values (each fits the item type) as items of kind/itemsize."""
    cdef Py_ssize_t k
    if kind == KIND_FLOAT:
        if itemsize == 4:
            for k in range(n):
                (<float*>data)[k] = <float>values[k]
        else:
            for k in range(n):
                (<double*>data)[k] = <double>values[k]
    elif itemsize == 1:
        for k in range(n):
            (<unsigned char*>data)[k] = <unsigned char>values[k]
    elif itemsize == 2:
        for k in range(n):
            (<unsigned short*>data)[k] = <unsigned short>values[k]
    elif itemsize == 4:
        for k in range(n):
            (<unsigned int*>data)[k] = <unsigned int>values[k]
    else:
        for k in range(n):
            (<unsigned long long*>data)[k] = <unsigned long long>values[k]


cdef object deliver(object out, const int* values, Py_ssize_t n, int top, bint counts, str what):
    """values as a new list (out None), or written into the caller's buffer out (returned).
    top is the largest value; counts: the values are seed counts (no bool buffer)."""
    cdef Py_buffer view
    cdef Py_ssize_t k
    cdef int kind
    if out is None:
        return [values[k] for k in range(n)]
    kind = acquire(out, &view, n, what, True)
    try:
        if counts and kind == KIND_BOOL:
            raise BufferItemError(f"{what}: a bool buffer cannot hold seed counts; use an "
                                  "integer or float buffer")
        if top > item_max(kind, view.itemsize):
            raise BufferItemError(
                f"{what}: the buffer's item type ({view.itemsize}-byte "
                f"{'signed' if kind == KIND_SIGNED else 'unsigned'} integers) cannot hold "
                f"the value {top}; use a wider item type")
        write_items(<char*>view.buf, kind, view.itemsize, values, n)
    finally:
        PyBuffer_Release(&view)
    return out


cdef int viewer_of(object player, const State* s) except -1:
    if player is None:
        return s.to_move
    if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
        raise ValueError(bad_player_message(player))
    return player


def bad_player_message(player):
    """Why player is not a player (shared with the reference's path in katra.api)."""
    what = repr(player) if isinstance(player, (int, str, float)) else type(player).__name__
    hint = "; a buffer goes in out=" if PyObject_CheckBuffer(player) else ""
    return f"player must be 0 (South), 1 (North) or None (the player to move), not {what}{hint}"


def observation(Position pos, player=None, out=None):
    """The observation of pos from player's point of view (None: the player to move),
    as a list or written into the writable buffer out (docs/learning.md)."""
    cdef int values[OBS_MAX]
    cdef int p = viewer_of(player, &pos.st)
    cdef int top = fill_observation(&pos.st, p, values)
    return deliver(out, values, observation_size_c(pos.st.game), top, True, "observation")


def legal_actions_mask(Position pos, out=None):
    """1 per legal action of pos, num_actions long, as a list or written into out."""
    cdef int values[MAX_CANDIDATES * 3]
    cdef int acts[MAX_CANDIDATES]
    cdef int num_actions = TABLES[pos.st.game].num_actions
    cdef int n = legal_actions_c(&pos.st, acts)
    cdef int k
    memset(values, 0, num_actions * sizeof(int))
    for k in range(n):
        values[acts[k]] = 1
    return deliver(out, values, num_actions, 1, False, "legal_actions_mask")


cdef object batch_fill(list positions, object player, object out, bint masks, str what):
    """Rows of observations (masks False) or masks of positions of one game into out."""
    cdef Py_ssize_t rows = len(positions), r
    cdef int game, width, n, k, p, top = 1
    cdef int acts[MAX_CANDIDATES]
    cdef int* values
    cdef Position pos
    for r in range(rows):
        if not isinstance(positions[r], Position):
            raise TypeError(f"{what}: expected katra._core.Position objects, got "
                            f"{type(positions[r]).__name__}")
    if rows == 0:
        return [] if out is None else out
    game = (<Position>positions[0]).st.game
    for r in range(rows):
        if (<Position>positions[r]).st.game != game:
            raise ValueError(f"{what}: every position must be of one game")
    width = TABLES[game].num_actions if masks else observation_size_c(game)
    values = <int*>malloc(rows * width * sizeof(int))
    if values == NULL:
        raise MemoryError()
    try:
        for r in range(rows):
            pos = <Position>positions[r]
            if masks:
                n = legal_actions_c(&pos.st, acts)
                memset(&values[r * width], 0, width * sizeof(int))
                for k in range(n):
                    values[r * width + acts[k]] = 1
            else:
                p = viewer_of(player, &pos.st)
                top = max(top, fill_observation(&pos.st, p, &values[r * width]))
        if out is None:
            return [[values[r * width + k] for k in range(width)] for r in range(rows)]
        return deliver(out, values, rows * width, top, not masks, what)
    finally:
        free(values)


def observations(list positions, player=None, out=None):
    """Observations of many positions of one game, row k for positions[k] (a list of lists
    without out; out holds len(positions) * observation size items)."""
    return batch_fill(positions, player, out, False, "observations")


def legal_actions_masks(list positions, out=None):
    """Masks of many positions of one game, row k for positions[k]."""
    return batch_fill(positions, None, out, True, "legal_actions_masks")


# ---------------------------------------------------------------- VectorGame

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)

cdef enum:
    MAX_THREADS = 64
    ENVS_PER_THREAD = 64          # below this many envs per thread, fewer threads

# Everything a step touches, as plain C (worker threads get a pointer to it).
ctypedef struct Envs:
    int game
    int num_envs
    int obs_size
    int num_actions
    int view                      # -1: the player to move; else 0 or 1
    long long max_plies
    State initial
    State* states
    int children_cap              # children cached per env (0: Goré, which plays instead)
    State* children               # env i's legal children: [i * children_cap, ...)
    int* legal_n                  # env i's legal actions: legal_acts[i * MAX_CANDIDATES, + n)
    int* legal_acts
    u64* rngs
    unsigned char* pending        # finished at the last step: reset at the next
    float* obs
    unsigned char* masks
    float* rewards
    unsigned char* terminated
    unsigned char* truncated
    signed char* to_move
    int* plies

ctypedef struct CommitJob:
    Envs* envs
    const long long* acts
    Py_ssize_t lo
    Py_ssize_t hi


cdef void env_outputs(Envs* e, Py_ssize_t i, bint fresh) noexcept nogil:
    """Legal actions (and children), observation, mask, to_move of env i; terminated,
    truncated, rewards and pending from its state (fresh: a reset, nothing finished)."""
    cdef State* s = &e.states[i]
    cdef int* acts = &e.legal_acts[i * MAX_CANDIDATES]
    cdef int n, winner, south, north
    cdef int p = s.to_move if e.view < 0 else e.view
    cdef float* obs_row = &e.obs[i * e.obs_size]
    if e.children_cap:
        n = legal_children(s, acts, &e.children[i * e.children_cap])
    else:
        n = legal_actions_c(s, acts)
    e.legal_n[i] = n
    fill_observation(s, p, obs_row)
    fill_mask(acts, n, e.num_actions, &e.masks[i * e.num_actions])
    e.to_move[i] = <signed char>s.to_move
    e.rewards[2 * i] = 0
    e.rewards[2 * i + 1] = 0
    e.terminated[i] = 0
    e.truncated[i] = 0
    e.pending[i] = 0
    if fresh:
        return
    if n == 0:
        outcome_of(s, &winner, &south, &north)
        if winner >= 0:
            e.rewards[2 * i + winner] = 1
            e.rewards[2 * i + 1 - winner] = -1
        e.terminated[i] = 1
        e.pending[i] = 1
    elif e.plies[i] >= e.max_plies:
        e.truncated[i] = 1      # stopped by the ply cap: no result (docs/rules.md §6.1)
        e.pending[i] = 1


cdef inline int legal_index(const Envs* e, Py_ssize_t i, long long a) noexcept nogil:
    """Where a is among env i's legal actions, else -1."""
    cdef const int* legal = &e.legal_acts[i * MAX_CANDIDATES]
    cdef int k
    for k in range(e.legal_n[i]):
        if legal[k] == a:
            return k
    return -1


cdef Py_ssize_t first_bad_env(const Envs* e, const long long* acts) noexcept nogil:
    """The first env whose action is neither legal, SKIP nor a reset; else -1."""
    cdef Py_ssize_t i
    cdef long long a
    for i in range(e.num_envs):
        a = acts[i]
        if a == SKIP_ENV or (e.pending[i] and a >= 0):
            continue
        if a < 0 or a >= e.num_actions or legal_index(e, i, a) < 0:
            return i
    return -1


cdef void commit_range(Envs* e, const long long* acts, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Play the (validated) actions of envs lo..hi-1, or reset the finished ones."""
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if acts[i] == SKIP_ENV:
            continue
        if e.pending[i]:
            e.states[i] = e.initial
            e.plies[i] = 0
            env_outputs(e, i, True)
            continue
        if e.children_cap:
            copy_hot(&e.states[i], &e.children[i * e.children_cap + legal_index(e, i, acts[i])])
        else:
            play(&e.states[i], <int>acts[i], LAP_LIMIT_C)
        e.plies[i] += 1
        env_outputs(e, i, False)


cdef void* commit_worker(void* arg) noexcept nogil:
    cdef CommitJob* job = <CommitJob*>arg
    commit_range(job.envs, job.acts, job.lo, job.hi)
    return NULL


cdef void commit_all(Envs* e, const long long* acts, int threads) noexcept nogil:
    """commit_range over every env, split between threads (the calling one included);
    every env is independent, so the result does not depend on the split."""
    cdef CommitJob jobs[MAX_THREADS]
    cdef pthread_t tids[MAX_THREADS]
    cdef bint started[MAX_THREADS]
    cdef int t
    cdef Py_ssize_t n = e.num_envs
    if threads > n // ENVS_PER_THREAD:
        threads = <int>(n // ENVS_PER_THREAD)
    if threads <= 1:
        commit_range(e, acts, 0, n)
        return
    for t in range(threads):
        jobs[t].envs = e
        jobs[t].acts = acts
        jobs[t].lo = n * t // threads
        jobs[t].hi = n * (t + 1) // threads
    for t in range(1, threads):
        started[t] = pthread_create(&tids[t], NULL, commit_worker, &jobs[t]) == 0
        if not started[t]:
            commit_worker(&jobs[t])          # no thread to be had: do it here
    commit_worker(&jobs[0])
    for t in range(1, threads):
        if started[t]:
            pthread_join(tids[t], NULL)


cdef object _numpy_or_none():
    try:
        import numpy
    except ImportError:
        return None
    return numpy


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
        free(self.e.states)
        free(self.e.children)
        free(self.e.legal_n)
        free(self.e.legal_acts)
        free(self.e.rngs)
        free(self.e.pending)

    def __init__(self, game, num_envs, seed=0, max_plies=_games.DEFAULT_MAX_PLIES, view=None,
                 num_threads=1):
        if self.held:
            raise RuntimeError("VectorGame is already initialised")
        game_id = game if isinstance(game, str) else getattr(game, "id", game)
        cdef Position start = Position.initial(_games.find_game(game_id).id)
        cdef long long n = _int_arg(num_envs, "num_envs", 1, 1LL << 62)
        if n > (1 << 24):
            raise ValueError(f"num_envs must be <= {1 << 24}, got {num_envs}")
        cdef long long max_plies_c = _limit_arg(max_plies, "max_plies", 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
            raise ValueError(f"seed must be an int in 0..2**64-1, got {seed!r}")
        if view is not None and (isinstance(view, bool) or view not in (0, 1)):
            raise ValueError(f"view must be None (the player to move), 0 or 1, not {view!r}")
        cdef long long threads = _int_arg(num_threads, "num_threads", 1, 1LL << 62)
        if threads > MAX_THREADS:
            raise ValueError(f"num_threads must be <= {MAX_THREADS}, got {num_threads}")
        self._num_threads = <int>threads
        cdef Envs* e = &self.e
        e.view = -1 if view is None else view
        e.max_plies = max_plies_c
        e.initial = start.st
        e.game = start.st.game
        e.num_envs = <int>n
        e.obs_size = observation_size_c(e.game)
        e.num_actions = TABLES[e.game].num_actions
        self._seed = <u64>seed
        family = TABLES[e.game].family
        e.children_cap = (0 if family == FAM_GORE else TABLES[e.game].cols
                          if family in (FAM_KATRO, FAM_DJENON) else TABLES[e.game].holes)
        e.states = <State*>calloc(n, sizeof(State))
        e.children = <State*>malloc(max(1, n * e.children_cap) * sizeof(State))
        e.legal_n = <int*>malloc(n * sizeof(int))
        e.legal_acts = <int*>malloc(n * MAX_CANDIDATES * sizeof(int))
        e.rngs = <u64*>malloc(n * sizeof(u64))
        e.pending = <unsigned char*>malloc(n)
        if not (e.states and e.children and e.legal_n and e.legal_acts and e.rngs and e.pending):
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
        return _games.GAME_IDS[self.e.game]

    @property
    def observation_size(self):
        return self.e.obs_size

    @property
    def num_actions(self):
        return self.e.num_actions

    @property
    def max_plies(self):
        return self.e.max_plies

    @property
    def num_threads(self):
        """Threads a step may use (envs are split between them; results do not change)."""
        return self._num_threads

    def reset(self, seed=None):
        """Every env to the start position; seed (if given) restarts the generators
        (env i: seed + i * 2**32, docs/rules.md §6.2).  Returns ``observations``."""
        cdef Py_ssize_t i
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
                raise ValueError(f"seed must be an int in 0..2**64-1, got {seed!r}")
            self._seed = <u64>seed
        with nogil:
            for i in range(self.e.num_envs):
                self.e.rngs[i] = self._seed + (<u64>i << 32)
                self.e.states[i] = self.e.initial
                self.e.plies[i] = 0
                env_outputs(&self.e, i, True)
        return self.observations

    def step(self, actions):
        """Play actions[i] in env i, all envs in one call without the GIL.

        An env that finished at the previous step is reset instead (its action,
        any int >= 0, is ignored: Gymnasium's next-step autoreset);
        ``VectorGame.SKIP`` (-1) leaves an env and its outputs as they are.
        Illegal actions or bad buffers raise ValueError/TypeError naming the
        env, with no env changed.
        """
        cdef Py_buffer view
        cdef int kind
        cdef Py_ssize_t N = self.e.num_envs, i, bad = -1
        cdef long long* acts = <long long*>malloc(N * sizeof(long long))
        if acts == NULL:
            raise MemoryError()
        try:
            if not PyObject_CheckBuffer(actions) and isinstance(actions, (list, tuple)):
                if len(actions) != N:
                    raise ValueError(f"step: expected {N} actions (one per env), "
                                     f"got {len(actions)}")
                for i in range(N):
                    item = actions[i]
                    if isinstance(item, bool) or not isinstance(item, int):
                        raise TypeError(f"step: env {i}: an action is an int, not "
                                        f"{type(item).__name__}")
                    # beyond this no action is in range; in between, first_bad_env checks
                    acts[i] = max(-2, min(item, self.e.num_actions))
            else:
                kind = acquire(actions, &view, N, "step: actions", False)
                try:
                    read_actions(<char*>view.buf, kind, view.itemsize, N, acts)
                finally:
                    PyBuffer_Release(&view)
            with nogil:
                bad = first_bad_env(&self.e, acts)
            if bad >= 0:
                self.raise_bad(bad, acts[bad], actions[bad] if isinstance(actions, (list, tuple))
                               else acts[bad])
            with nogil:
                commit_all(&self.e, acts, self._num_threads)
        finally:
            free(acts)

    cdef int raise_bad(self, Py_ssize_t i, long long a, object given) except -1:
        cdef Position pos = Position.__new__(Position)
        pos.st = self.e.states[i]
        if a < SKIP_ENV or a >= self.e.num_actions:
            raise ValueError(f"step: env {i}: action {given} is out of range "
                             f"0..{self.e.num_actions - 1} (or -1 to skip); no env was changed")
        spec = _game_spec(self.e.game)
        legal = ", ".join(f"{_text.action_text(spec, b)} ({b})" for b in pos.legal_actions())
        raise IllegalMoveError(f"step: env {i}: action {a} ({_text.action_text(spec, a)}) is not "
                               f"legal in {pos.text()}; legal: {legal or 'none'}; "
                               f"no env was changed")

    def random_actions(self):
        """One action per env drawn with the docs/rules.md §6.2 generator of that env
        (``A[next() % len(A)]``); 0 for an env about to be reset (no number drawn)."""
        np = _numpy_or_none()
        out = np.zeros(self.e.num_envs, np.int64) if np is not None else array(
            "q", bytes(8 * self.e.num_envs))
        cdef Py_buffer buf
        cdef long long* picks
        cdef Py_ssize_t i
        cdef int n
        PyObject_GetBuffer(out, &buf, PyBUF_RECORDS_RO)
        picks = <long long*>buf.buf
        with nogil:
            for i in range(self.e.num_envs):
                n = self.e.legal_n[i]
                if self.e.pending[i] or n == 0:
                    picks[i] = 0
                    continue
                picks[i] = self.e.legal_acts[i * MAX_CANDIDATES
                                             + mod_small(splitmix64(&self.e.rngs[i]), n)]
        PyBuffer_Release(&buf)
        return out

    def position(self, i):
        """A copy of env i's position (a katra._core.Position)."""
        cdef long long k = _int_arg(i, "i", 0, 1LL << 62)
        if k >= self.e.num_envs:
            raise ValueError(f"env index {i} out of range 0..{self.e.num_envs - 1}")
        cdef Position pos = Position.__new__(Position)
        pos.st = self.e.states[k]
        return pos

    def __repr__(self):
        return (f"VectorGame({self.game_id!r}, num_envs={self.e.num_envs}, "
                f"max_plies={self.e.max_plies})")


cdef void read_actions(const char* data, int kind, Py_ssize_t itemsize, Py_ssize_t n,
                       long long* acts) noexcept:
    """Integer items (any size, signed or not) as long longs (unsigned 64-bit values
    beyond the long long range become negative, hence out of range)."""
    cdef Py_ssize_t k
    for k in range(n):
        if itemsize == 1:
            acts[k] = (<const signed char*>data)[k] if kind == KIND_SIGNED else (
                <const unsigned char*>data)[k]
        elif itemsize == 2:
            acts[k] = (<const short*>data)[k] if kind == KIND_SIGNED else (
                <const unsigned short*>data)[k]
        elif itemsize == 4:
            acts[k] = (<const int*>data)[k] if kind == KIND_SIGNED else (
                <const unsigned int*>data)[k]
        elif kind == KIND_SIGNED:
            acts[k] = (<const long long*>data)[k]
        else:
            acts[k] = <long long>min((<const unsigned long long*>data)[k], <unsigned long long>LLONG_MAX)
