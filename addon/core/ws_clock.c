/* The stopwatch (the TSC where it is invariant, calibrated against
 * CLOCK_MONOTONIC) and the monotonic clock (ws_clock.h). */
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "ws.h"

/* vDSO-backed: no system call on Linux. */
uint64_t ws_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Returns 1 when the CPU reports an invariant TSC (constant rate, never
 * stops), the condition for using it as a clock. */
static int has_invariant_tsc(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (__get_cpuid(0x80000007, &a, &b, &c, &d))
    return (d >> 8) & 1;
#endif
  return 0;
}

void ws_clock_init(ws_clock *clock) {
  clock->tsc = has_invariant_tsc();
  clock->ns_per_tick = 1.0;
  clock->ns_per_tick_q32 = UINT64_C(1) << 32;
  clock->tick0 = ws_clock_ticks(clock);
  if (!clock->tsc)
    return;
  uint64_t ns0 = ws_now_ns(), ns1;
  uint64_t tick0 = ws_clock_ticks(clock);
  do
    ns1 = ws_now_ns();
  while (ns1 - ns0 < 20000000);
  uint64_t tick1 = ws_clock_ticks(clock);
  if (tick1 <= tick0) {
    clock->tsc = 0;
    clock->tick0 = ws_now_ns();
    return;
  }
  clock->ns_per_tick = (double)(ns1 - ns0) / (double)(tick1 - tick0);
  clock->ns_per_tick_q32 = (uint64_t)(clock->ns_per_tick * 4294967296.0 + 0.5);
  clock->tick0 = tick0;
}
