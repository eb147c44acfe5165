#include <time.h>

#include "ws.h"

/* Returns CLOCK_MONOTONIC in nanoseconds; vDSO-backed, no system call on
 * Linux. */
uint64_t ws_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
