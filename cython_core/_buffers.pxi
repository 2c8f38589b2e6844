# Callers' buffers (the buffer protocol): the observations and masks of
# _observations.pxi written into any writable buffer of integers, bools or
# floats, and VectorGame.step's actions read from any buffer of integers.

from libc.limits cimport LLONG_MAX
from cpython.buffer cimport (PyBUF_RECORDS_RO, PyBuffer_IsContiguous, PyBuffer_Release,
                             PyObject_CheckBuffer, PyObject_GetBuffer)

from sys import byteorder as sys_byteorder

from katra._errors import BufferItemError

cdef enum:
    KIND_SIGNED = 1
    KIND_UNSIGNED = 2
    KIND_FLOAT = 3
    KIND_BOOL = 4

cdef int BIG_ENDIAN_HOST = 1 if sys_byteorder == "big" else 0


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


cdef int acquire(object buf, Py_buffer* view, Py_ssize_t items, str what, str arg,
                 bint writable) except 0:
    """Take a C-contiguous buffer of exactly items integer/bool/float items (writable:
    any shape, as out; else the items read, integers only, flat); its KIND_*.  Errors
    name the argument, arg; a wrong type is a katra.ArgumentTypeError, a wrong size,
    shape or layout a katra.ArgumentError."""
    cdef int kind
    if not PyObject_CheckBuffer(buf):
        if writable:
            raise ArgumentTypeError(f"{what}: {arg} must be a writable buffer (bytearray, "
                                    f"array.array, NumPy array...), not {type(buf).__name__}")
        raise ArgumentTypeError(f"{what}: {arg} must be a list or a buffer of integers "
                                f"(array.array, NumPy array...), not {type(buf).__name__}")
    PyObject_GetBuffer(buf, view, PyBUF_RECORDS_RO)
    try:
        if writable and view.readonly:
            raise ArgumentError(f"{what}: {arg} is read-only")
        if not PyBuffer_IsContiguous(view, b'C'):
            raise ArgumentError(f"{what}: {arg} must be C-contiguous")
        kind = item_kind(view.format)
        fmt = "B" if view.format == NULL else (<bytes>view.format).decode("ascii", "replace")
        if not writable and kind not in (KIND_SIGNED, KIND_UNSIGNED):
            raise ArgumentTypeError(f"{what}: {arg} has items of format {fmt!r}; use an "
                                    "integer buffer")
        if kind == 0 or (kind == KIND_FLOAT and view.itemsize not in (4, 8)) or (
                kind != KIND_FLOAT and view.itemsize not in (1, 2, 4, 8)):
            raise ArgumentTypeError(f"{what}: {arg} has items of format {fmt!r}; use an "
                                    "integer, bool, float32 or float64 buffer")
        if not writable and view.ndim != 1:
            raise ArgumentError(f"{what}: {arg} must be one-dimensional (one action per "
                                f"env), not {view.ndim}-dimensional")
        if view.len // view.itemsize != items:
            raise ArgumentError(f"{what}: {arg} holds {view.len // view.itemsize} items, "
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
    cdef int kind
    if out is None:
        return int_list(values, n)
    kind = acquire(out, &view, n, what, "out", True)
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



cdef void read_actions(const char* data, int kind, Py_ssize_t itemsize, Py_ssize_t n,
                       long long* acts) noexcept:
    """Integer items (any size, each read by its own signed or unsigned type) as long
    longs (unsigned 64-bit values beyond the long long range become LLONG_MAX, hence
    out of range)."""
    cdef Py_ssize_t k
    if kind == KIND_SIGNED:
        if itemsize == 8:                           # NumPy's int64, random_actions'
            memcpy(acts, data, n * sizeof(long long))
        elif itemsize == 4:
            for k in range(n):
                acts[k] = (<const int*>data)[k]
        elif itemsize == 2:
            for k in range(n):
                acts[k] = (<const short*>data)[k]
        else:
            for k in range(n):
                acts[k] = (<const signed char*>data)[k]
    elif itemsize == 8:
        for k in range(n):
            acts[k] = <long long>min((<const unsigned long long*>data)[k],
                                     <unsigned long long>LLONG_MAX)
    elif itemsize == 4:
        for k in range(n):
            acts[k] = (<const unsigned int*>data)[k]
    elif itemsize == 2:
        for k in range(n):
            acts[k] = (<const unsigned short*>data)[k]
    else:
        for k in range(n):
            acts[k] = (<const unsigned char*>data)[k]
