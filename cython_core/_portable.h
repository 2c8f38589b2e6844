/* The compiled core's platform differences, all of them: threads, a monotonic
 * clock, one atomic counter and two compiler features.  POSIX systems (GCC,
 * clang: Linux, macOS, musl) use pthreads, clock_gettime and C11 atomics;
 * Windows (MSVC, clang-cl, MinGW) uses Win32 threads, QueryPerformanceCounter
 * and the Interlocked functions.
 *
 *   katra_thread_start(&t, fn, arg)  run fn(arg) in a new thread; 0 if started
 *   katra_thread_join(&t)            wait for a started thread to finish
 *   katra_monotonic_seconds()        seconds of a clock that never goes back
 *   katra_epoch_now() / katra_epoch_advance()
 *                                    read / add 1 to the process-wide cancel epoch
 *   KATRA_HAVE_U128                  1 where unsigned __int128 and its division link
 *   KATRA_HAVE_SSE2                  1 where the SSE2 intrinsics of <emmintrin.h> exist
 */
#ifndef KATRA_PORTABLE_H
#define KATRA_PORTABLE_H

#if defined(_WIN32)
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#  include <process.h>
#else
#  include <pthread.h>
#  include <time.h>
#  include <stdatomic.h>
#endif

/* ---- threads */

typedef void (*katra_thread_fn)(void *);

typedef struct {
    katra_thread_fn fn;
    void *arg;
#if defined(_WIN32)
    HANDLE handle;
#else
    pthread_t handle;
#endif
} katra_thread;

#if defined(_WIN32)
static unsigned __stdcall katra_thread_main(void *self) {
    katra_thread *t = (katra_thread *)self;
    t->fn(t->arg);
    return 0;
}

static int katra_thread_start(katra_thread *t, katra_thread_fn fn, void *arg) {
    t->fn = fn;
    t->arg = arg;
    t->handle = (HANDLE)_beginthreadex(NULL, 0, katra_thread_main, t, 0, NULL);
    return t->handle ? 0 : -1;
}

static void katra_thread_join(katra_thread *t) {
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
}
#else
static void *katra_thread_main(void *self) {
    katra_thread *t = (katra_thread *)self;
    t->fn(t->arg);
    return NULL;
}

static int katra_thread_start(katra_thread *t, katra_thread_fn fn, void *arg) {
    t->fn = fn;
    t->arg = arg;
    return pthread_create(&t->handle, NULL, katra_thread_main, t) == 0 ? 0 : -1;
}

static void katra_thread_join(katra_thread *t) {
    pthread_join(t->handle, NULL);
}
#endif

/* ---- a monotonic clock */

#if defined(_WIN32)
static double katra_monotonic_seconds(void) {
    LARGE_INTEGER frequency, now;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart / (double)frequency.QuadPart;
}
#else
static double katra_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

/* ---- the cancel epoch (relaxed: it only has to be seen eventually) */

#if defined(_WIN32)
static volatile LONG64 katra_cancel_epoch = 0;
static long long katra_epoch_now(void) {
    return (long long)InterlockedCompareExchange64(&katra_cancel_epoch, 0, 0);
}
static void katra_epoch_advance(void) {
    InterlockedIncrement64(&katra_cancel_epoch);
}
#else
static atomic_llong katra_cancel_epoch = 0;
static long long katra_epoch_now(void) {
    return atomic_load_explicit(&katra_cancel_epoch, memory_order_relaxed);
}
static void katra_epoch_advance(void) {
    atomic_fetch_add_explicit(&katra_cancel_epoch, 1, memory_order_relaxed);
}
#endif

/* ---- compiler features */

/* clang-cl has __int128 but not the runtime routine its division calls. */
#if defined(__SIZEOF_INT128__) && !defined(_MSC_VER)
#  define KATRA_HAVE_U128 1
#else
#  define KATRA_HAVE_U128 0
#endif

/* GCC and clang say __SSE2__; MSVC says _M_X64 (x86-64 always has SSE2) or
   _M_IX86_FP >= 2 (32-bit x86 built with /arch:SSE2). */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#  define KATRA_HAVE_SSE2 1
#else
#  define KATRA_HAVE_SSE2 0
#endif

#endif /* KATRA_PORTABLE_H */
