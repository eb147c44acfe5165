/* The machine's own speed, measured in the run: a reference workload of
 * fixed cost that the loop times between batches, outside the module's calls
 * and the timed region, on the same thread; and what the kernel says of the
 * thread (CPU time, involuntary context switches). Inside a VM the host's
 * drift is invisible otherwise: steal time reads 0, and thread CPU time
 * counts while the host deschedules the vCPU (docs/verdicts.md, "Time against
 * the machine"). */
#ifndef WS_CONTROL_H
#define WS_CONTROL_H

#include <stdint.h>

/* Words of the table the reference workload works in: 4 KiB, resident in
 * any L1 data cache, so the workload measures the core's speed, not how much
 * of the cache the module's calls left to it. */
#define WS_CONTROL_TABLE_WORDS 1024

/* Runs the reference workload once over table (WS_CONTROL_TABLE_WORDS words,
 * any contents, the caller's: nothing is shared between threads): a fixed
 * number of dependent multiply, load and store steps that no compiler can
 * fold, about 6 µs on a 2020s x86-64 core. Touches the table first, untimed
 * by the caller's choice: call ws_control_warm before starting the clock.
 * Returns a checksum the caller keeps so the work is not optimised away. */
uint64_t ws_control_work(uint32_t *table, uint64_t seed);

/* Brings table into the cache (one read per 64-byte line). Returns a
 * checksum to keep, like ws_control_work. */
uint64_t ws_control_warm(const uint32_t *table);

/* Stores the calling thread's CPU time (user + system, in ns) and its
 * involuntary context switches so far (getrusage RUSAGE_THREAD). Returns 0,
 * or WS_EIO where the platform has no per-thread usage. About 1 µs: call it
 * between batches, never per call. */
int ws_thread_usage(uint64_t *cpu_ns, uint64_t *preemptions);

/* Stores the calling thread's CPU time in ns, to the nanosecond
 * (CLOCK_THREAD_CPUTIME_ID; getrusage's moves in steps of about a
 * millisecond). Returns 0, or WS_EIO where the platform has no such clock.
 * About 1 µs (a system call here): between batches, never per call. */
int ws_thread_cpu_ns(uint64_t *ns);

#endif
