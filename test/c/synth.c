/* Synthetic per-call times and memory series with realistic noise, for the
 * accuracy tests and the benchmark. Deterministic for a given seed. */
#include <math.h>

#include "synth.h"
#include "ws.h"

/* Returns a uniform double in (0, 1). */
static double uniform(ws_rng *rng) {
  return ((double)(ws_rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
}

/* Returns a standard normal draw (Box-Muller, one of the pair). */
static double normal(ws_rng *rng) {
  double u = uniform(rng), v = uniform(rng);
  return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

void ws_synth_time_defaults(ws_synth_time *o, size_t calls, uint64_t seed) {
  *o = (ws_synth_time){.calls = calls,
                       .seed = seed,
                       .base_ns = 800,
                       .sigma = 0.3,
                       .ar = 0.6,
                       .spike_rate = 0.003,
                       .gc_every = 700,
                       .gc_factor = 25,
                       .tierup_at = calls / 25,
                       .tierup_factor = 1.8,
                       .drift = 0};
}

void ws_synth_time_vary(ws_synth_time *o, unsigned i) {
  static const double sigma[] = {0.1, 0.2, 0.3};
  static const double ar[] = {0.0, 0.5, 0.8};
  static const size_t gc[] = {0, 300, 1000};
  o->sigma = sigma[i % 3];
  o->ar = ar[(i / 3) % 3];
  o->gc_every = gc[(i / 9) % 3];
  o->tierup_at = (i / 27) % 2 ? 0 : o->tierup_at;
}

void ws_synth_time_fill(const ws_synth_time *o, float *out) {
  ws_rng rng;
  ws_rng_seed(&rng, o->seed);
  double e = 0, innov = sqrt(1 - o->ar * o->ar);
  for (size_t i = 0; i < o->calls; i++) {
    e = o->ar * e + innov * normal(&rng);
    double t = o->base_ns * exp(o->sigma * e);
    t *= 1 + o->drift * (double)i / (double)o->calls;
    if (i < o->tierup_at)
      t *= o->tierup_factor;
    if (o->gc_every > 0 && i % o->gc_every == o->gc_every - 1)
      t *= o->gc_factor;
    /* Pareto(1.2) spikes: rare, unbounded variance. */
    if (uniform(&rng) < o->spike_rate)
      t *= 1 + 3 * pow(uniform(&rng), -1 / 1.2);
    out[i] = (float)t;
  }
}

void ws_synth_mem_defaults(ws_synth_mem *o, size_t calls, uint64_t seed) {
  *o = (ws_synth_mem){.calls = calls,
                      .seed = seed,
                      .sample_every = 100,
                      .initial = 131072,
                      .live_base = 1 << 20,
                      .live_sd = 48 << 10,
                      .live_noise = 4096,
                      .js_base = 6 << 20};
}

/* Returns the heap capacity after one growth step of policy from cap. */
static double grow_step(int policy, double cap) {
  const double page = 65536, mib = 1 << 20;
  switch (policy) {
  case WS_SYNTH_GEOMETRIC: {
    double step = ceil(cap * 0.2 / page) * page;
    return cap + (step < page ? page : step > 96 * mib ? 96 * mib : step);
  }
  case WS_SYNTH_DOUBLING:
    return cap > 0 ? 2 * cap : page;
  case WS_SYNTH_SEGMENTS:
    return cap + 32 * mib;
  default:
    return cap + page;
  }
}

void ws_synth_mem_fill(const ws_synth_mem *o, ws_synth_mem_out *out) {
  const double page = 65536;
  ws_rng rng;
  ws_rng_seed(&rng, o->seed);
  size_t ramp = o->calls / 20 > 0 ? o->calls / 20 : 1;
  double wander = 0, phi = 0.995, top = 0, js = 0, lin = -1, cap = 0;
  int stepped = 0;
  out->lin_n = 0;
  out->s_n = 0;
  for (size_t t = 0; t < o->calls; t++) {
    wander = phi * wander + sqrt(1 - phi * phi) * o->live_sd * normal(&rng);
    double start = t < ramp ? (double)t / (double)ramp : 1;
    double live = o->live_base * start + wander * start + o->leak * (double)t;
    if (live < 0)
      live = 0;
    double want = 1.25 * live + o->frag * (double)t;
    if (want > top)
      top = want;
    int late = o->plateau && t >= o->calls * 7 / 10;
    if (o->policy == WS_SYNTH_PAGES) {
      if (late && !stepped)
        top += page;
      cap = ceil(top / page) * page;
    } else {
      while (cap < top)
        cap = grow_step(o->policy, cap);
      if (late && !stepped)
        cap = grow_step(o->policy, cap);
    }
    stepped |= late;
    double bytes = o->initial + cap;
    if (bytes != lin) {
      out->lin_iter[out->lin_n] = (double)t;
      out->lin_bytes[out->lin_n++] = bytes;
      lin = bytes;
    }
    /* The JS heap saws up by garbage and drops at each collection. */
    js += 2048 * uniform(&rng);
    if (js > 2 << 20)
      js = 0;
    if (t % o->sample_every == o->sample_every - 1) {
      out->s_iter[out->s_n] = (double)t;
      out->live[out->s_n] = live + o->live_noise * normal(&rng);
      out->heap[out->s_n] = top;
      out->js[out->s_n++] = o->js_base + js + o->js_leak * (double)t;
    }
  }
}

void ws_synth_shape_fill(float *x, size_t n, int shape, ws_rng *rng) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = ws_rng_range(rng, 0, 999);
    switch (shape) {
    case WS_SHAPE_FEW_WHOLE:
      x[i] = r < 990 ? (float)(11 + r % 6) : (float)ws_rng_range(rng, 20, 1000000);
      break;
    case WS_SHAPE_FRACTIONAL:
      x[i] = 5000.0f + (float)ws_rng_range(rng, 0, 1000000) / 997.0f;
      break;
    case WS_SHAPE_WIDE:
      x[i] = (float)ws_rng_range(rng, 1, 1000000) * (float)(1 + r % 7);
      break;
    case WS_SHAPE_ONE_VALUE:
      x[i] = 1234.5f;
      break;
    case WS_SHAPE_AT_MOST_ONE:
      x[i] = r < 400 ? 0.0f : r < 800 ? 1.0f : (float)(r - 790);
      break;
    default:
      x[i] = r == 0   ? NAN
             : r == 1 ? INFINITY
             : r == 2 ? -INFINITY
                      : (float)ws_rng_range(rng, 0, 2000) - 1000.5f;
    }
  }
}
