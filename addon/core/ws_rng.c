/* Seeded random numbers (ws_rng.h): xoshiro256** seeded by splitmix64,
 * unbiased ranges, byte fills and weighted picks. */
#include <string.h>

#include "ws.h"

/* splitmix64 step: expands one seed into well-mixed state words. */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

void ws_rng_seed(ws_rng *rng, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    rng->s[i] = splitmix64(&seed);
}

/* xoshiro256** by Blackman and Vigna. */
uint64_t ws_rng_next(ws_rng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* Rejection sampling over the smallest covering range keeps it unbiased. */
uint64_t ws_rng_range(ws_rng *rng, uint64_t lo, uint64_t hi) {
  uint64_t span = hi - lo;
  if (span == UINT64_MAX)
    return ws_rng_next(rng);
  uint64_t n = span + 1;
  uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
  uint64_t x;
  do
    x = ws_rng_next(rng);
  while (x >= limit);
  return lo + x % n;
}

void ws_rng_fill(ws_rng *rng, uint8_t *buf, size_t len) {
  while (len >= 8) {
    uint64_t x = ws_rng_next(rng);
    memcpy(buf, &x, 8);
    buf += 8;
    len -= 8;
  }
  if (len > 0) {
    uint64_t x = ws_rng_next(rng);
    memcpy(buf, &x, len);
  }
}

/* Binary search for the first cumulative weight above a uniform draw. */
uint32_t ws_rng_pick(ws_rng *rng, const uint64_t *cumulative, uint32_t n) {
  if (n <= 1)
    return 0;
  uint64_t x = ws_rng_range(rng, 0, cumulative[n - 1] - 1);
  uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (cumulative[mid] > x)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}
