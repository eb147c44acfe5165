/* Passes over float keys (ws_internal.h) that find ranks without
 * selection: the histogram of the keys' high halves, and the least and
 * greatest key of all values or of a few bins, four values at a time
 * (GCC's vector extension: SSE2, NEON or plain code, whatever the target
 * has; a scalar pass spent 5.7 ns a value on three bins, this one 2.3). */
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

void ws__count_high(const float *b, size_t n, uint32_t *lanes, uint32_t *lo,
                    uint32_t *hi) {
  uint32_t mn = WS_HALF_BINS - 1, mx = 0;
  size_t i = 0;
  for (; i + WS_KEY_LANES <= n; i += WS_KEY_LANES)
    for (size_t l = 0; l < WS_KEY_LANES; l++) {
      uint32_t h = ws__float_key(b[i + l]) >> 16;
      lanes[l * WS_HALF_BINS + h]++;
      mn = h < mn ? h : mn;
      mx = h > mx ? h : mx;
    }
  for (; i < n; i++) {
    uint32_t h = ws__float_key(b[i]) >> 16;
    lanes[h]++;
    mn = h < mn ? h : mn;
    mx = h > mx ? h : mx;
  }
  for (uint32_t h = mn; h <= mx; h++)
    for (size_t l = 1; l < WS_KEY_LANES; l++) {
      lanes[h] += lanes[l * WS_HALF_BINS + h];
      lanes[l * WS_HALF_BINS + h] = 0;
    }
  *lo = mn;
  *hi = mx;
}
