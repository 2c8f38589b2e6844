# Stopping long jobs: Ctrl-C (a pending signal) and cancel_jobs().
#
# A job that runs without the GIL (perft, divide, playouts, search, the
# solver; not VectorGame.step, one short step) owns one JobStop (_core.pxd)
# and calls job_should_stop() in its loops with the work done since the last
# call (nodes, plies or sowing laps: anything roughly proportional to time).  Every STOP_CHECK_WORK units it polls, cheaply: it
# reads the process-wide cancel epoch that cancel_jobs() advances and, in the
# main thread only (the one thread where Python runs signal handlers), the
# clock; at most every SIGNAL_POLL_SECONDS it re-acquires the GIL briefly to
# run the handlers (PyErr_CheckSignals).  Spacing the GIL polls by the clock,
# further apart when taking the GIL had to wait, bounds what a busy Python
# thread holding the GIL can cost the job (each poll may wait one switch
# interval, 5 ms); a job in another thread never takes the GIL.  Once it says stop, it keeps saying stop,
# so every level of a recursion unwinds; the job frees what it allocated, takes
# the GIL back and calls raise_if_stopped(), which raises the handler's
# exception (KeyboardInterrupt for Ctrl-C) or JobCancelled.
#
# Invariant: a job that was stopped returns no result; a job that was not
# stopped is unaffected (the polls change nothing).

from cpython.exc cimport PyErr_Occurred
cdef extern from "_portable.h" nogil:
    # The process-wide cancel epoch that cancel_jobs() advances, and the clock.
    long long katra_epoch_now() noexcept
    void katra_epoch_advance() noexcept
    double monotonic_seconds "katra_monotonic_seconds"() noexcept

cdef extern from "Python.h":
    # Declared without an exception clause: the exception it may set stays
    # pending until raise_if_stopped() hands it to Python.
    int PyErr_CheckSignals_raw "PyErr_CheckSignals"() noexcept
    unsigned long PyThread_get_thread_ident() noexcept nogil

# The thread that runs Python's signal handlers (set once at import).
cdef unsigned long MAIN_THREAD_IDENT = __import__("threading").main_thread().ident

cdef double SIGNAL_POLL_SECONDS = 0.01   # GIL polls for signals at most this often


cdef enum:
    STOP_CHECK_WORK = 1 << 12   # work units between two polls (well under a millisecond)
    STOP_NONE = 0
    STOP_SIGNAL = 1             # a signal handler raised; its exception is pending
    STOP_CANCELLED = 2          # cancel_jobs() was called while the job ran

# JobStop: _core.pxd.


class JobCancelled(KeyboardInterrupt):
    """A core job stopped by katra._core.cancel_jobs() (a KeyboardInterrupt)."""


cdef inline void job_stop_init(JobStop* js) noexcept nogil:
    js.epoch = katra_epoch_now()
    js.budget = STOP_CHECK_WORK
    js.reason = STOP_NONE
    js.signals = PyThread_get_thread_ident() == MAIN_THREAD_IDENT
    js.next_signals = 0.0


cdef int _job_poll(JobStop* js) noexcept nogil:
    js.budget = STOP_CHECK_WORK
    if katra_epoch_now() != js.epoch:
        js.reason = STOP_CANCELLED
        return js.reason
    cdef double now
    if js.signals:
        now = monotonic_seconds()
        if now >= js.next_signals:
            with gil:
                if PyErr_CheckSignals_raw() < 0:
                    js.reason = STOP_SIGNAL
            # Waiting for the GIL (a busy Python thread holds it for up to a switch
            # interval) spaces the next poll out: the waits stay under ~10% of the job.
            js.next_signals = now + SIGNAL_POLL_SECONDS + 10 * (monotonic_seconds() - now)
    return js.reason


cdef inline int job_should_stop(JobStop* js, long long work) noexcept nogil:
    """Non-zero once the job must stop; polls every STOP_CHECK_WORK units of work."""
    if js.reason != STOP_NONE:
        return js.reason
    js.budget -= work
    if js.budget > 0:
        return STOP_NONE
    return _job_poll(js)


cdef int raise_if_stopped(const JobStop* js) except -1:
    """With the GIL: raise what stopped the job, if anything did."""
    if js.reason == STOP_SIGNAL:
        if PyErr_Occurred() != NULL:
            return -1               # the handler's exception, already set
        raise KeyboardInterrupt()
    if js.reason == STOP_CANCELLED:
        raise JobCancelled("the job was cancelled by katra._core.cancel_jobs()")
    return 0


def cancel_jobs():
    """Stop every core job running in this process (in any thread) at its next poll.

    Each stops within a few milliseconds and raises JobCancelled (a
    KeyboardInterrupt).  Jobs started after this call run normally.
    """
    katra_epoch_advance()
