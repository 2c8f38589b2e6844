# The Solver class (docs/solve.md): its arguments checked, its buffers, and
# its methods, each a job run without the GIL (_solve_root.pxi, _solve.pxi).


cdef int _solve_bound_arg(object value, str name, int minimum) except -1:
    """A ply bound in minimum..MAX_SOLVE_PLIES (ArgumentTypeError, ArgumentError)."""
    return <int>_int_arg(value, name, minimum, MAX_SOLVE_PLIES)


cdef int _read_thresholds(object thresholds, int* thr) except -1:
    """A Python thresholds list (ints -1..500, None for never) into thr."""
    if not isinstance(thresholds, (list, tuple)):
        raise ArgumentTypeError(f"thresholds must be a list of 4 entries, not "
                                f"{type(thresholds).__name__}")
    if len(thresholds) != SOLVE_PREDICATES:
        raise ArgumentError("thresholds must be a list of 4 entries")
    for k in range(SOLVE_PREDICATES):
        t = thresholds[k]
        number = _as_int(t)
        if t is None:
            thr[k] = SOLVE_INFINITE
        elif number is not None and -1 <= number <= MAX_SOLVE_PLIES:
            thr[k] = number
        elif number is None:
            raise ArgumentTypeError(f"threshold {k} must be None or an int in "
                                    f"-1..{MAX_SOLVE_PLIES}, not {type(t).__name__}")
        else:
            raise ArgumentError(f"threshold {k} must be None or an int in -1..{MAX_SOLVE_PLIES}")
    return 0


cdef class Solver:
    """An exact solver with its transposition table (docs/solve.md), kept
    between calls so that a line of positions reuses what earlier calls proved.

    tt_bits: its own table holds 2**tt_bits entries of 16 bytes (10..28;
    None: 2**16 entries, grown between bounds as the search needs, up to 2**20,
    16 MiB).  table: a SolverTable to use instead, shared with the Solvers of
    other threads (then tt_bits must be None).  One thread at a time may use
    a Solver.
    """
    cdef SolveCtx c
    cdef SolveSlots own          # its own table (table None)
    cdef SolverTable shared      # the table given, kept alive as long as the Solver
    cdef bint busy
    cdef object tables           # the endgame tables c.tables points into, kept alive

    def __cinit__(self, tt_bits=None, table=None, tables=None):
        cdef int bits = SOLVE_FIRST_BITS, max_bits = SOLVE_DEFAULT_MAX_BITS
        if table is not None and not isinstance(table, SolverTable):
            raise ArgumentTypeError(f"table must be None or a SolverTable, "
                                    f"not {type(table).__name__}")
        if tt_bits is not None:
            bits = max_bits = _solve_bits_arg(tt_bits)
            if table is not None:
                raise ArgumentError("give tt_bits or table, not both (the table has its size)")
        memset(&self.c, 0, sizeof(SolveCtx))
        self.c.tables = table_arg(tables)     # endgame tables (docs/tables.md)
        self.tables = tables
        if table is None:
            solve_table_init(&self.own, bits, max_bits)
            self.c.table = &self.own
        else:
            self.shared = table
            self.c.table = &self.shared.t

    def __dealloc__(self):
        solve_table_free(&self.own)   # nothing if shared: the SolverTable frees its own
        free(self.c.children)
        free(self.c.lists)

    cdef int _reserve(self, int plies) except -1:
        """Buffers for searches of up to plies plies."""
        cdef IntPosition* children
        cdef SolveLists* lists
        if plies <= self.c.plies:
            return 0
        children = <IntPosition*>malloc((plies + 1) * MAX_CANDIDATES * sizeof(IntPosition))
        lists = <SolveLists*>malloc((plies + 1) * sizeof(SolveLists))
        if children == NULL or lists == NULL:
            free(children)
            free(lists)
            raise MemoryError("solve: cannot allocate the search buffers")
        free(self.c.children)
        free(self.c.lists)
        self.c.children = children
        self.c.lists = lists
        self.c.plies = plies + 1
        return 0

    cdef int _begin(self, JobStop* js, object time_seconds) except -1:
        cdef char* low = katra_stack_low()
        if self.busy:
            raise RuntimeError("this Solver is already in use (one thread at a time)")
        job_stop_init(js)
        self.c.js = js
        self.c.stop = 0
        solve_poll_start(&self.c)
        self.c.stack_floor = low + SOLVE_STACK_SPARE if low != NULL else NULL
        self.c.deadline = -1.0
        if time_seconds is not None:
            self.c.deadline = monotonic_seconds() + _limits.check_seconds(
                time_seconds, "time_seconds", MAX_SEARCH_TIME)
        self.busy = 1
        return 0

    cdef int _end(self, JobStop* js) except -1:
        self.busy = 0
        self.c.js = NULL
        raise_if_stopped(js)
        if self.c.stop == SOLVE_STOP_STACK:
            raise RecursionError("solve: this thread's stack is too small for a bound this "
                                 "deep (use a thread with a larger stack)")
        return 0

    @property
    def nodes(self):
        """Positions visited by every call so far."""
        return self.c.nodes

    def thresholds(self, pos, max_bound, time_seconds=None, known=None, players=(0, 1)):
        """(thresholds, bound, timed_out): the least bounds within which South
        forces a draw or better, South a win, North a draw or better, North a
        win (each an int, -1 if not within bound, or None if never), found by
        iterative deepening up to max_bound (1..500) until the value is known;
        bound: the largest bound completed; timed_out: the clock stopped it.
        known: None, or (thresholds, bound) of an earlier call on the same
        position: the search then resumes at bound + 1.  players: whose
        questions to ask (both by default; the others' stay as known)."""
        cdef Position p = _check_position(pos)
        cdef int plies = _solve_bound_arg(max_bound, "max_bound", 1)
        cdef int thr[SOLVE_PREDICATES]
        cdef int bound, k, first = 1, mask = 0
        cdef IntPosition root = p.st
        cdef JobStop js
        if not isinstance(players, tuple) or not players or any(
                _as_int(q) not in (0, 1) for q in players):
            raise ArgumentError(f"players must be a tuple of 0 and/or 1, got {players!r}")
        for q in players:
            mask |= 1 << <int>_as_int(q)
        for k in range(SOLVE_PREDICATES):
            thr[k] = SOLVE_OPEN
        if known is not None:
            if not isinstance(known, tuple) or len(known) != 2:
                raise ArgumentError("known must be None or a (thresholds, bound) pair")
            first = _solve_bound_arg(known[1], "the known bound", 0) + 1
            if first > MAX_SOLVE_PLIES:
                raise ArgumentError(f"the known bound must be an int in 0..{MAX_SOLVE_PLIES - 1}")
            _read_thresholds(known[0], thr)
        self._reserve(plies)
        self._begin(&js, time_seconds)
        with nogil:
            bound = solve_thresholds(&self.c, &root, first, plies, thr, mask)
        timed_out = self.c.stop == SOLVE_STOP_CLOCK
        self._end(&js)
        return ([None if thr[k] == SOLVE_INFINITE else thr[k] for k in range(SOLVE_PREDICATES)],
                bound, timed_out)

    def forces(self, pos, player, target, plies):
        """F(pos, player, target, plies): can player (0 South, 1 North) force
        the game to end within plies plies (0..500) with a draw or better
        (target 0) or a win (target 1)?"""
        cdef Position p = _check_position(pos)
        cdef int question = _question_arg(player, target)
        cdef int k = _solve_bound_arg(plies, "plies", 0)
        cdef int r
        cdef IntPosition root = p.st
        cdef JobStop js
        self._reserve(k)
        self._begin(&js, None)
        with nogil:
            r = solve_root(&self.c, &root, question, k, 0)
        self._end(&js)
        return bool(r)

    def best_action(self, pos, thresholds):
        """The best action of an unfinished position whose thresholds (as
        returned by thresholds()) resolve its value; -1 if they do not."""
        cdef Position p = _check_position(pos)
        cdef int thr[SOLVE_PREDICATES]
        cdef int k, best, top = 0
        cdef IntPosition root = p.st
        cdef JobStop js
        _read_thresholds(thresholds, thr)
        for k in range(SOLVE_PREDICATES):
            if thr[k] != SOLVE_INFINITE:
                top = max(top, thr[k])
        self._reserve(max(top, 1))
        self._begin(&js, None)
        with nogil:
            solve_best_child(&self.c, &root, thr, &best)
        self._end(&js)
        return best
