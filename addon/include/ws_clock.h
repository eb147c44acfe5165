/* The loop's stopwatch and the monotonic clock. */
#ifndef WS_CLOCK_H
#define WS_CLOCK_H

#include <stdint.h>

/* Returns the monotonic clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t ws_now_ns(void);

/* The loop's stopwatch. On x86-64 with an invariant TSC it reads the time
 * stamp counter (about 10 ns, against about 24 ns for clock_gettime here),
 * calibrated against CLOCK_MONOTONIC; elsewhere it reads CLOCK_MONOTONIC. */
typedef struct {
  int tsc;                  /* 1 when ticks are TSC cycles, 0 when nanoseconds */
  double ns_per_tick;       /* 1.0 without the TSC */
  uint64_t ns_per_tick_q32; /* ns_per_tick in 32.32 fixed point */
  uint64_t tick0;           /* ticks at ws_clock_init */
} ws_clock;

/* Chooses the source and, for the TSC, calibrates it against CLOCK_MONOTONIC
 * over about 20 ms (relative error near 1e-6). */
void ws_clock_init(ws_clock *clock);

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Returns the current tick count of clock's source. */
static inline uint64_t ws_clock_ticks(const ws_clock *clock) {
#if defined(__x86_64__)
  if (clock->tsc)
    return __rdtsc();
#endif
  (void)clock;
  return ws_now_ns();
}

/* Converts a tick interval to nanoseconds, rounded: in integers where the
 * TSC is (a product and a shift, against a conversion to double and back
 * twice per call record). */
static inline uint64_t ws_clock_ns(const ws_clock *clock, uint64_t ticks) {
#if defined(__x86_64__)
  if (clock->tsc)
    return (uint64_t)(((unsigned __int128)ticks * clock->ns_per_tick_q32 +
                       (UINT64_C(1) << 31)) >>
                      32);
#endif
  return clock->tsc ? (uint64_t)((double)ticks * clock->ns_per_tick + 0.5) : ticks;
}

#endif
