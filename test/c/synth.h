/* Synthetic runs for the accuracy tests (test/c/synth.c): per-call times and
 * memory series with known drift, leak and fragmentation. Test-only: not part
 * of the addon. */
#ifndef WS_TEST_SYNTH_H
#define WS_TEST_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "ws_rng.h"

/* Per-call time model: a lognormal body with AR(1) log noise, heavy-tailed
 * (Pareto) spikes, periodic GC pauses, a tier-up step down early in the run
 * and an optional linear drift. */
typedef struct {
  size_t calls;
  uint64_t seed;
  double base_ns;       /* median time per call after tier-up */
  double sigma;         /* standard deviation of ln(time) */
  double ar;            /* AR(1) coefficient of the log noise */
  double spike_rate;    /* probability of a spike per call */
  size_t gc_every;      /* a GC pause every this many calls (0: none) */
  double gc_factor;     /* a GC pause multiplies the call's time by this */
  size_t tierup_at;     /* calls before tier-up (0: none) */
  double tierup_factor; /* calls before tier-up are this much slower */
  double drift;         /* relative change across the run, as a linear ramp */
} ws_synth_time;

/* Fills o with a realistic default model for calls calls and seed. */
void ws_synth_time_defaults(ws_synth_time *o, size_t calls, uint64_t seed);
/* Varies o's noise model with a run index i, so that rates cover a range of
 * realistic conditions, not one fixture: sigma 0.1-0.3, AR(1) 0-0.8, GC
 * pauses none / every 300 / every 1000 calls, the tier-up in half the runs. */
void ws_synth_time_vary(ws_synth_time *o, unsigned i);
/* Writes o->calls per-call times (ns) into out. */
void ws_synth_time_fill(const ws_synth_time *o, float *out);

/* Times of the shapes order statistics meet (ws_synth_shape_fill). */
enum {
  WS_SHAPE_FEW_WHOLE = 0, /* whole ns on six values, 1 % outliers up to 1 ms */
  WS_SHAPE_FRACTIONAL,    /* 5-6 µs, fractional, hardly a tie */
  WS_SHAPE_WIDE,          /* whole values over six decades */
  WS_SHAPE_ONE_VALUE,     /* every value 1234.5 */
  WS_SHAPE_AT_MOST_ONE,   /* 40 % zeros, 40 % ones, the rest 2-209 */
  WS_SHAPE_SIGNED,        /* -1000.5..999.5, with NaN and both infinities */
  WS_SHAPES
};

/* Writes n times of shape `shape` (WS_SHAPE_*) drawn from rng into x. */
void ws_synth_shape_fill(float *x, size_t n, int shape, ws_rng *rng);

/* How linear memory grows when the heap top outgrows it: realistic
 * policies of wasm runtimes (docs/verdicts.md, "Growth events"). */
enum {
  WS_SYNTH_PAGES = 0,     /* to the next 64 KiB page (wasi-libc's sbrk) */
  WS_SYNTH_GEOMETRIC = 1, /* by 20 %, at most 96 MiB a step (Emscripten) */
  WS_SYNTH_DOUBLING = 2,  /* by doubling (TinyGo, AssemblyScript) */
  WS_SYNTH_SEGMENTS = 3   /* in 32 MiB segments (Rust's dlmalloc, large) */
};

/* Memory model: live bytes follow a start-up ramp, then a slowly wandering
 * working set (AR(1)) plus leak bytes per call; the allocator's heap top is
 * the high-water mark of live bytes plus overhead and frag bytes per call;
 * linear memory is initial bytes plus a heap capacity that grows by the
 * policy whenever the heap top outgrows it. */
typedef struct {
  size_t calls;
  uint64_t seed;
  size_t sample_every; /* slow-cadence sampling period in calls */
  double initial;      /* linear memory before the heap */
  double live_base;    /* working set after start-up */
  double live_sd;      /* standard deviation of the working set's wander */
  double live_noise;   /* standard deviation of a live-byte sample's noise */
  double leak;         /* live bytes added per call */
  double frag;         /* heap bytes added per call without live growth */
  int plateau;         /* 1: one extra growth step (by the policy) at 70 % of
                        * the run */
  int policy;          /* WS_SYNTH_* growth policy of linear memory */
  double js_base;      /* worker JS heap floor */
  double js_leak;      /* JS heap bytes added per call */
} ws_synth_mem;

/* Output arrays of ws_synth_mem_fill, each sized by the caller: linear
 * memory as a step series (up to calls + 1 points), the other series as
 * samples (up to calls / sample_every + 1 points). */
typedef struct {
  double *lin_iter, *lin_bytes;
  size_t lin_n;
  double *s_iter, *live, *heap, *js;
  size_t s_n;
} ws_synth_mem_out;

/* Fills o with a stationary default model for calls calls and seed. */
void ws_synth_mem_defaults(ws_synth_mem *o, size_t calls, uint64_t seed);
/* Generates the series of model o into out's arrays and sets the counts. */
void ws_synth_mem_fill(const ws_synth_mem *o, ws_synth_mem_out *out);

#endif
