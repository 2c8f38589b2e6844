/* A check of cython_core/_portable.h, every shim of it: threads, the clock, the cancel
   epoch and the feature macros.  Not part of the test suite (it needs a C compiler):

     cc -std=c11 -Wall -Wextra -pthread -Icython_core -o /tmp/check_portable tools/check_portable.c && /tmp/check_portable
     x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Icython_core -o /tmp/check_portable.exe tools/check_portable.c && wine64 /tmp/check_portable.exe

   Each prints "threads/epoch/clock ok" and the two feature macros. */
#include <stdio.h>
#include "_portable.h"
#if KATRA_HAVE_SSE2
#include <emmintrin.h>
#endif

static void work(void *arg) { int *x = (int *)arg; *x += 41; katra_epoch_advance(); }

int main(void) {
    katra_thread threads[4];
    int values[4] = {1, 1, 1, 1}, t, ok = 1;
    double start = katra_monotonic_seconds();
    long long epoch = katra_epoch_now();
    for (t = 0; t < 4; t++)
        if (katra_thread_start(&threads[t], work, &values[t]) != 0) { printf("start failed\n"); return 1; }
    for (t = 0; t < 4; t++) katra_thread_join(&threads[t]);
    for (t = 0; t < 4; t++) ok &= values[t] == 42;
    ok &= katra_epoch_now() == epoch + 4;
    ok &= katra_monotonic_seconds() >= start;
#if KATRA_HAVE_SSE2
    { __m128i a = _mm_set1_epi32(3); ok &= _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, a))) == 15; }
#endif
    printf("threads/epoch/clock %s; u128 %d; sse2 %d\n", ok ? "ok" : "FAILED", KATRA_HAVE_U128, KATRA_HAVE_SSE2);
    return ok ? 0 : 1;
}
