/* The reference workload and the thread's kernel usage (ws_control.h). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <sys/resource.h>
#include <time.h>

#include "ws.h"
#include "ws_control.h"

/* Steps of one run of the workload: about 6 ns each (measured: 2048 took
 * 11.8 µs on a 2-core KVM guest), so about 6 µs. */
#define CONTROL_STEPS 1024

uint64_t ws_control_work(uint32_t *table, uint64_t seed) {
  uint64_t x = seed | 1;
  for (uint32_t i = 0; i < CONTROL_STEPS; i++) {
    /* A 64-bit LCG step, a load and a store at an index it chooses, and the
     * loaded word fed back: each step depends on the last. */
    x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    uint32_t k = (uint32_t)(x >> 54);
    uint32_t w = table[k] + (uint32_t)(x >> 32);
    table[k] = w;
    x ^= table[(k * 7u + w) & (WS_CONTROL_TABLE_WORDS - 1)];
  }
  return x;
}

uint64_t ws_control_warm(const uint32_t *table) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < WS_CONTROL_TABLE_WORDS; i += 16)
    sum += table[i];
  return sum;
}

int ws_thread_usage(uint64_t *cpu_ns, uint64_t *preemptions) {
#ifdef RUSAGE_THREAD
  struct rusage u;
  if (getrusage(RUSAGE_THREAD, &u) != 0)
    return WS_EIO;
  uint64_t us = (uint64_t)u.ru_utime.tv_sec * 1000000u + (uint64_t)u.ru_utime.tv_usec +
                (uint64_t)u.ru_stime.tv_sec * 1000000u + (uint64_t)u.ru_stime.tv_usec;
  *cpu_ns = us * 1000u;
  *preemptions = (uint64_t)u.ru_nivcsw;
  return 0;
#else
  (void)cpu_ns;
  (void)preemptions;
  return WS_EIO;
#endif
}

int ws_thread_cpu_ns(uint64_t *ns) {
#ifdef CLOCK_THREAD_CPUTIME_ID
  struct timespec t;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
    return WS_EIO;
  *ns = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
  return 0;
#else
  (void)ns;
  return WS_EIO;
#endif
}
