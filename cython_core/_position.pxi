# The Position class: an IntPosition held by value, plus a stack for push/pop
# (its fields: _core.pxd).


cdef inline bint action_played(const IntPosition* s, int action, IntPosition* out) noexcept nogil:
    """out holds a copy of s, byte for byte.  Is action (0 <= action <
    num_actions) legal in s?  If so, out is its child, a whole position
    (Position compares positions as bytes: its owners and unused holes stay
    s's); else garbage.  A sowing candidate is tested on the origin mask and
    sown once, on out; the other actions (Goré's, Djenon-aboure's pass, the
    illegal ones) go to node_legal_child (it writes what a move changes)."""
    cdef GameTable* g = &TABLES[s.game]
    if g.family != FAM_GORE and sowing_candidate_of(s, g, g.family, action):
        return play_of(out, g, g.family, action, LAP_LIMIT_C) >= 0
    return node_legal_child(s, action, out)


cdef inline bint action_legal(const IntPosition* s, int action, IntPosition* out) noexcept nogil:
    """Is action (0 <= action < num_actions) legal in s?  If so, out holds the
    child, a whole position (action_played on a copy of s)."""
    out[0] = s[0]
    return action_played(s, action, out)


cdef inline bint is_sowing_candidate(const IntPosition* s, int action) noexcept nogil:
    """Does action (0 <= action < num_actions) pass the origin rules of a
    sowing (lap limit aside)?  Goré's: its sowings (node_candidates lists its
    offers and answers too)."""
    cdef GameTable* g = &TABLES[s.game]
    cdef int cand[MAX_CANDIDATES]
    cdef int k, n
    if g.family != FAM_GORE:
        return sowing_candidate_of(s, g, g.family, action)
    if action >= GORE_OFFER_BASE_C:
        return 0
    n = node_candidates(s, cand, 1)
    for k in range(n):
        if cand[k] == action:
            return 1
    return 0


from cpython.object cimport PyObject

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object value, int* overflow) except? -1
    object PyList_New(Py_ssize_t size)
    # the macros on borrowed pointers (no reference counting by Cython)
    PyObject* PyTuple_GET_ITEM(object tup, Py_ssize_t index)
    void Py_INCREF_borrowed "Py_INCREF"(PyObject* item)
    void PyList_SET_ITEM_stolen "PyList_SET_ITEM"(object lst, Py_ssize_t index, PyObject* item)
    PyObject* PyLong_FromLong_new "PyLong_FromLong"(long value)     # a new reference


# Every action number of every game (0..GORE_DECLINE_C) as a Python int, made
# once: int_list takes its items from here rather than making each.
cdef tuple ACTION_INTS = tuple(range(GORE_DECLINE_C + 1))


cdef list int_list(const int* values, Py_ssize_t n):
    """values[0..n-1] (actions, counts, flags) as a new list of ints, made at its
    size (a comprehension appends, growing the list as it goes); those in
    0..GORE_DECLINE_C taken from ACTION_INTS, any other made."""
    cdef list out = PyList_New(n)
    cdef PyObject* item
    cdef Py_ssize_t k
    for k in range(n):
        if <unsigned>values[k] <= GORE_DECLINE_C:      # a negative one is made
            item = PyTuple_GET_ITEM(ACTION_INTS, values[k])
            Py_INCREF_borrowed(item)
        else:
            item = PyLong_FromLong_new(values[k])
        PyList_SET_ITEM_stolen(out, k, item)
    return out


# The largest count a job takes (games, plies, laps): katra._limits' MAX_GAMES,
# MAX_PLIES and MAX_LAPS (checked at import).  Counters of 64 bits never overflow.
cdef long long MAX_COUNT = 1LL << 62


cdef object _as_int(object value):
    """value as a plain int if it is one by katra's one int rule
    (katra._limits.as_int: anything with __index__ but a bool), else None."""
    return value if type(value) is int else _limits.as_int(value)


cdef long long _int_arg(object value, str name, long long minimum, long long maximum) except? -2:
    """An int argument in minimum..maximum; else what katra._limits.check_int
    raises, the same on every layer: katra.ArgumentTypeError (not an int) or
    katra.ArgumentError (out of range), both ValueErrors, naming it."""
    if type(value) is int and minimum <= value <= maximum:
        return value
    return _limits.check_int(value, name, minimum, maximum)   # raises, or an int subclass


cdef u64 _seed_arg(object value) except? 0:
    """A seed of the docs/rules.md §6.2 generator: an int in 0..2**64-1 (the
    errors of _int_arg)."""
    if type(value) is int and 0 <= value <= _limits.MAX_SEED:
        return <u64>value
    return <u64>_limits.check_int(value, "seed", 0, _limits.MAX_SEED)


cdef inline int key_word(const unsigned char* data, int k) noexcept nogil:
    """The k-th count of a position key (position_key's native 16-bit words)."""
    cdef unsigned short word
    memcpy(&word, data + 2 * k, 2)
    return word


cdef bytes position_key(const IntPosition* s):
    """Position._key's bytes of s (counts below 2**16: MAX_TOTAL_SEEDS)."""
    cdef GameTable* g = &TABLES[s.game]
    cdef unsigned short words[6 + MAX_HOLES]
    cdef int i, mask = 0
    words[0] = <unsigned short>s.game
    words[1] = <unsigned short>s.to_move
    words[2] = <unsigned short>s.offer
    words[3] = <unsigned short>s.stores[0]
    words[4] = <unsigned short>s.stores[1]
    for i in range(g.holes):
        words[5 + i] = <unsigned short>s.board[i]
        if g.family == FAM_GORE and s.owner[i]:
            mask |= 1 << i
    words[5 + g.holes] = <unsigned short>mask
    return (<char*>words)[:2 * (6 + g.holes)]


cdef class Position:
    """One position of one game (mutable).  See docs/backends.md."""
    # Its fields (st, the push/pop stack) are declared in _core.pxd.

    def __cinit__(self):
        memset(&self.st, 0, sizeof(IntPosition))
        self._stack = NULL
        self._stack_actions = NULL
        self._depth = 0
        self._cap = 0

    def __dealloc__(self):
        free(self._stack)
        free(self._stack_actions)

    def __init__(self, data=None):
        # Like the reference: Position(PositionData), checked as from_text checks a text
        # (PositionError otherwise).  Prefer initial() / from_text().
        if not isinstance(data, _text.PositionData):
            raise PositionError("Position(data) takes a katra._text.PositionData; "
                                "use Position.initial(game_id) or Position.from_text(text)")
        self.st = Position._from_data(_text.check_position(data)).st
        self._depth = 0        # __init__ called again: nothing left to pop

    @staticmethod
    cdef Position _from_data(object data):
        # data must come from _text.check_position (or parse_position / initial_data)
        cdef Position p = Position.__new__(Position)
        cdef int i
        cdef int gi = game_index(data.spec)
        p.st.game = gi
        for i in range(TABLES[gi].holes):
            p.st.board[i] = data.board[i]
            p.st.owner[i] = data.owners[i]
        p.st.stores[0] = data.stores[0]
        p.st.stores[1] = data.stores[1]
        p.st.to_move = data.to_move
        p.st.offer = data.offer
        return p

    @classmethod
    def initial(cls, game_id):
        """The start position of game_id; UnknownGameError for a bad id."""
        return Position._from_data(_text.initial_data(_games.game_by_id(game_id)))

    @classmethod
    def from_text(cls, text):
        """Read a position text; PositionError on any malformed input."""
        return Position._from_data(_text.parse_position(text))

    def text(self):
        """The canonical position text."""
        return _text.format_position(_text.PositionData(
            _game_spec(self.st.game), self.board, self.st.to_move,
            [self.st.stores[0], self.st.stores[1]], self.owners, self.st.offer))

    @property
    def game_id(self):
        return _game_spec(self.st.game).id

    @property
    def board(self):
        return [self.st.board[i] for i in range(TABLES[self.st.game].holes)]

    @property
    def owners(self):
        return [owner_of(&self.st, &TABLES[self.st.game], i)
                for i in range(TABLES[self.st.game].holes)]

    @property
    def stores(self):
        return (self.st.stores[0], self.st.stores[1])

    @property
    def to_move(self):
        return self.st.to_move

    @property
    def pending_offer(self):
        return self.st.offer

    def copy(self, stack=True):
        """An independent copy; with stack=False, without the push/pop stack."""
        cdef Position p = Position.__new__(Position)
        p.st = self.st
        if stack and self._depth:
            p._reserve(self._depth)
            memcpy(p._stack, self._stack, self._depth * sizeof(IntPosition))
            memcpy(p._stack_actions, self._stack_actions, self._depth * sizeof(int))
            p._depth = self._depth
        return p

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def legal_actions(self):
        """Legal actions, ascending (lap limit applied)."""
        cdef int acts[MAX_CANDIDATES]
        return int_list(acts, legal_actions_c(&self.st, acts))

    def is_legal(self, action):
        """Is action legal here?  False for out-of-range ints; IllegalMoveError for non-ints."""
        cdef IntPosition child
        cdef int a
        cdef object number = _as_int(action)
        if number is None:
            raise IllegalMoveError(f"an action must be an int, not {type(action).__name__}")
        try:
            a = _text.check_action_range(_game_spec(self.st.game), number)
        except IllegalMoveError:
            return False
        return bool(action_legal(&self.st, a, &child))

    cdef int _play_checked(self, object action, const IntPosition* s, IntPosition* out) except -1:
        """out holds a copy of s (out is &self.st: push and apply play in
        place): make it the child of a legal action, or restore it and raise
        IllegalMoveError naming the action."""
        cdef long a_fast
        cdef int overflow = 0
        # Fast path for search loops: an exact int inside the action space is checked in
        # C alone (action_played rejects malformed Goré offer masks, which are no candidate).
        if type(action) is int:
            a_fast = PyLong_AsLongAndOverflow(action, &overflow)
            if not overflow and 0 <= a_fast < TABLES[s.game].num_actions:
                if action_played(s, <int>a_fast, out):
                    return 0
                out[0] = s[0]
        spec = _game_spec(s.game)
        cdef int a = _text.check_action_range(spec, action)
        if not action_played(s, a, out):
            out[0] = s[0]
            raise IllegalMoveError(f"{_text.action_text(spec, a)} (action {a}) is not legal in "
                                   f"{self.text()}")
        return 0

    def apply(self, action):
        """Play a legal action in place; IllegalMoveError (position untouched) otherwise."""
        cdef IntPosition before = self.st
        self._play_checked(action, &before, &self.st)

    cdef int _reserve(self, Py_ssize_t need) except -1:
        cdef Py_ssize_t cap
        cdef IntPosition* stack
        cdef int* acts
        if need <= self._cap:
            return 0
        cap = max(need, 2 * self._cap, 16)
        stack = <IntPosition*>realloc(self._stack, cap * sizeof(IntPosition))
        if stack == NULL:
            raise MemoryError()
        self._stack = stack
        acts = <int*>realloc(self._stack_actions, cap * sizeof(int))
        if acts == NULL:
            raise MemoryError()
        self._stack_actions = acts
        self._cap = cap
        return 0

    def push(self, action):
        """Play a legal action, remembering the position for pop(); IllegalMoveError otherwise."""
        self._reserve(self._depth + 1)
        self._stack[self._depth] = self.st       # then played in place (untouched if refused)
        self._play_checked(action, &self._stack[self._depth], &self.st)
        self._stack_actions[self._depth] = <int>action
        self._depth += 1

    def pop(self):
        """Undo the last push(); returns its action.  IndexError if nothing was pushed."""
        if self._depth == 0:
            raise IndexError("pop from an empty move stack")
        self._depth -= 1
        self.st = self._stack[self._depth]
        return self._stack_actions[self._depth]

    @property
    def stack_depth(self):
        """How many push() calls pop() can undo."""
        return self._depth

    @property
    def move_stack(self):
        """The actions pushed and not yet popped, oldest first (a new list of ints)."""
        cdef Py_ssize_t k
        return [self._stack_actions[k] for k in range(self._depth)]

    # Keys for whole-graph jobs (katra.api.retrograde): a position as bytes,
    # one 16-bit count a value (game, to_move, offer, stores, the game's holes,
    # then Goré's owners as a mask); equal positions have equal keys.

    def _key(self):
        """The position's key (bytes)."""
        return position_key(&self.st)

    def _child_keys(self):
        """[(action, the child's key)] for every legal action, ascending."""
        cdef int acts[MAX_CANDIDATES]
        cdef IntPosition child
        cdef int k, n = legal_actions_c(&self.st, acts)
        cdef list out = []
        for k in range(n):
            if not action_legal(&self.st, acts[k], &child):
                raise RuntimeError(f"action {acts[k]} was listed legal and is not")
            out.append((acts[k], position_key(&child)))
        return out

    @staticmethod
    def _from_key(key):
        """The position of a key _key made in this process; PositionError otherwise."""
        cdef Position p = Position.__new__(Position)
        cdef const unsigned char* data
        cdef int i, holes, mask
        if not isinstance(key, bytes) or len(key) < 2:
            raise PositionError("a position key is bytes made by Position._key")
        data = <const unsigned char*>(<bytes>key)
        p.st.game = key_word(data, 0)
        if p.st.game >= GAME_COUNT:
            raise PositionError("a position key of no game of this process")
        holes = TABLES[p.st.game].holes
        if len(key) != 2 * (6 + holes):
            raise PositionError("a position key of the wrong length")
        p.st.to_move = key_word(data, 1)
        p.st.offer = key_word(data, 2)
        p.st.stores[0] = key_word(data, 3)
        p.st.stores[1] = key_word(data, 4)
        for i in range(holes):
            p.st.board[i] = key_word(data, 5 + i)
        mask = key_word(data, 5 + holes)      # Goré's owners; the others' never change
        for i in range(holes):
            if TABLES[p.st.game].family == FAM_GORE:
                p.st.owner[i] = (mask >> i) & 1
            else:
                p.st.owner[i] = TABLES[p.st.game].owner0[i]
        return p

    def lap_count(self, action, limit=LAP_LIMIT):
        """Laps the sowing candidate action takes if <= limit, else None."""
        spec = _game_spec(self.st.game)
        cdef int a = _text.check_action_range(spec, action)
        cdef long long lim = _int_arg(limit, "limit", 1, MAX_COUNT)
        cdef IntPosition child
        cdef long long laps
        if not is_sowing_candidate(&self.st, a):
            raise IllegalMoveError(f"{_text.action_text(spec, a)} (action {a}) is not a sowing "
                                   f"candidate in {self.text()}")
        child = self.st
        with nogil:
            laps = play(&child, a, lim)
        return None if laps < 0 else laps

    def is_terminal(self):
        """No legal action."""
        cdef NodeScratch scratch
        return not node_unfinished(&self.st, &scratch)

    def outcome(self):
        """None while not terminal, else (winner, south_score, north_score); winner -1 = draw."""
        cdef NodeScratch scratch
        cdef int winner, south, north
        if node_unfinished(&self.st, &scratch):
            return None
        outcome_of(&self.st, &winner, &south, &north)
        return (winner, south, north)

    def zobrist(self):
        """A 64-bit hash of the position (fixed keys: stable across runs and processes)."""
        return zobrist_c(&self.st)

    def __hash__(self):
        cdef Py_hash_t h = <Py_hash_t>zobrist_c(&self.st)
        return -2 if h == -1 else h

    def __eq__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        return memcmp(&self.st, &(<Position>other).st, sizeof(IntPosition)) == 0

    def __ne__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        return memcmp(&self.st, &(<Position>other).st, sizeof(IntPosition)) != 0

    def __reduce__(self):
        return (Position.from_text, (self.text(),))

    def __repr__(self):
        return f"Position.from_text({self.text()!r})"
