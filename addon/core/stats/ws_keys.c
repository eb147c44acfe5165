/* Passes over float keys (ws_internal.h) that find ranks without
 * selection: the histogram of the keys' high halves, and the least and
 * greatest key of all values or of a few bins, four values at a time
 * (GCC's vector extension: SSE2, NEON or plain code, whatever the target
 * has; a scalar pass spent 5.7 ns a value on three bins, this one 2.3). */
#include <math.h>

#include "ws_internal.h"

/* Four keys, and four signed lanes (the arithmetic shift and the NaN test). */
typedef uint32_t key4 __attribute__((vector_size(16)));
typedef int32_t int4 __attribute__((vector_size(16)));

/* The keys of y[0..4) (ws__float_key of each, lane by lane). */
static inline key4 keys_of(const float *y) {
  key4 u;
  memcpy(&u, y, sizeof u);
  key4 nan = (key4)((int4)(u & 0x7fffffffu) > 0x7f800000);
  u = (u & ~nan) | (0x7f800000u & nan);
  return u ^ ((key4)((int4)u >> 31) | 0x80000000u);
}

/* Lane by lane: the lesser (greater) of a and b, unsigned. */
static inline key4 least_of(key4 a, key4 b) {
  key4 m = (key4)(a < b);
  return (a & m) | (b & ~m);
}
static inline key4 most_of(key4 a, key4 b) {
  key4 m = (key4)(a > b);
  return (a & m) | (b & ~m);
}

void ws__key_range(const float *y, size_t n, uint32_t *least, uint32_t *most) {
  key4 lo = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, hi = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    key4 k = keys_of(y + i);
    lo = least_of(k, lo);
    hi = most_of(k, hi);
  }
  uint32_t l = UINT32_MAX, m = 0;
  for (int j = 0; j < 4; j++) {
    l = lo[j] < l ? lo[j] : l;
    m = hi[j] > m ? hi[j] : m;
  }
  for (; i < n; i++) {
    uint32_t k = ws__float_key(y[i]);
    l = k < l ? k : l;
    m = k > m ? k : m;
  }
  *least = l;
  *most = m;
}

size_t ws__first_key(const float *y, size_t n, uint32_t key) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    key4 eq = (key4)(keys_of(y + i) == key);
    if (eq[0] | eq[1] | eq[2] | eq[3])
      break;
  }
  for (; i < n; i++)
    if (ws__float_key(y[i]) == key)
      return i;
  return n;
}

/* One bin's slot of ws__bin_extremes: keys k (high halves h) in bin b
 * lower lo and raise hi. */
#define BIN_STEP(k, h, b, lo, hi)                                                        \
  do {                                                                                   \
    key4 in_ = (key4)((h) == (b));                                                       \
    (lo) = least_of((k) | ~in_, (lo));                                                   \
    (hi) = most_of((k)&in_, (hi));                                                       \
  } while (0)

void ws__bin_extremes(const float *y, size_t n, const uint32_t bins[WS_BIN_SLOTS],
                      uint32_t least[WS_BIN_SLOTS], uint32_t most[WS_BIN_SLOTS]) {
  /* Each slot's lanes in registers (an array of them was kept in memory). */
  const key4 none = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, zero = {0, 0, 0, 0};
  key4 lo0 = none, lo1 = none, lo2 = none, lo3 = none;
  key4 hi0 = zero, hi1 = zero, hi2 = zero, hi3 = zero;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    key4 k = keys_of(y + i), h = k >> 16;
    BIN_STEP(k, h, bins[0], lo0, hi0);
    BIN_STEP(k, h, bins[1], lo1, hi1);
    BIN_STEP(k, h, bins[2], lo2, hi2);
    BIN_STEP(k, h, bins[3], lo3, hi3);
  }
  const key4 lo[WS_BIN_SLOTS] = {lo0, lo1, lo2, lo3},
             hi[WS_BIN_SLOTS] = {hi0, hi1, hi2, hi3};
  for (int j = 0; j < WS_BIN_SLOTS; j++) {
    least[j] = UINT32_MAX;
    most[j] = 0;
    for (int l = 0; l < 4; l++) {
      least[j] = lo[j][l] < least[j] ? lo[j][l] : least[j];
      most[j] = hi[j][l] > most[j] ? hi[j][l] : most[j];
    }
  }
  for (; i < n; i++) {
    uint32_t k = ws__float_key(y[i]), h = k >> 16;
    for (int j = 0; j < WS_BIN_SLOTS; j++)
      if (h == bins[j]) {
        least[j] = k < least[j] ? k : least[j];
        most[j] = k > most[j] ? k : most[j];
      }
  }
}

/* Four floats (the wholeness test's conversions). */
typedef float float4 __attribute__((vector_size(16)));
typedef int32_t int4w __attribute__((vector_size(16)));

void ws__count_high(const float *b, size_t n, uint32_t *lanes, ws_key_span *span) {
  key4 lo = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, hi = {0, 0, 0, 0};
  int4w whole = {-1, -1, -1, -1};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    key4 k = keys_of(b + i);
    float4 v;
    memcpy(&v, b + i, sizeof v);
    /* Whole when below 2^31 in size (not NaN) and a round trip through
     * int32 keeps it; the others go through as 0.5, never whole. (Casts
     * between vectors reinterpret their bits.) */
    int4w bits = (int4w)v;
    int4w small = (int4w)((float4)(bits & 0x7fffffff) < 2147483648.0f);
    float4 w =
        (float4)((bits & small) | ((int4w)(float4){0.5f, 0.5f, 0.5f, 0.5f} & ~small));
    whole &= small & (int4w)(__builtin_convertvector(__builtin_convertvector(w, int4w),
                                                     float4) == w);
    for (size_t l = 0; l < WS_KEY_LANES; l++)
      lanes[l * WS_HALF_BINS + (k[l] >> 16)]++;
    lo = least_of(k, lo);
    hi = most_of(k, hi);
  }
  uint32_t least = UINT32_MAX, most = 0;
  int all_whole = 1;
  for (int l = 0; l < 4; l++) {
    least = lo[l] < least ? lo[l] : least;
    most = hi[l] > most ? hi[l] : most;
    all_whole &= whole[l] != 0;
  }
  for (; i < n; i++) {
    uint32_t k = ws__float_key(b[i]);
    lanes[k >> 16]++;
    least = k < least ? k : least;
    most = k > most ? k : most;
    all_whole &=
        b[i] == b[i] && fabsf(b[i]) < 2147483648.0f && b[i] == (float)(int32_t)b[i];
  }
  for (uint32_t h = least >> 16; n > 0 && h <= most >> 16; h++)
    for (size_t l = 1; l < WS_KEY_LANES; l++) {
      lanes[h] += lanes[l * WS_HALF_BINS + h];
      lanes[l * WS_HALF_BINS + h] = 0;
    }
  *span = (ws_key_span){.lo = least >> 16,
                        .hi = most >> 16,
                        .least = least,
                        .most = most,
                        .whole = all_whole};
}

int ws__bin_value(const ws_key_span *span, uint32_t bin, float *value) {
  if (!span->whole)
    return 0;
  float lo = ws__key_float(bin << 16), hi = ws__key_float(bin << 16 | 0xffffu);
  /* A bin narrower than 1 holds at most one whole number. */
  if (!(hi - lo < 1.0f))
    return 0;
  float v = ceilf(lo);
  if (!(v <= hi))
    return 0;
  *value = v == 0.0f ? copysignf(0.0f, hi) : v; /* a zero's sign is its bin's */
  return 1;
}
