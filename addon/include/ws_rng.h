/* Seeded random numbers (xoshiro256**, seeded by splitmix64): every random
 * choice of a run comes from one seed. */
#ifndef WS_RNG_H
#define WS_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t s[4];
} ws_rng;

/* Seeds rng deterministically from seed (any value, 0 included). */
void ws_rng_seed(ws_rng *rng, uint64_t seed);
/* Returns the next 64 random bits. */
uint64_t ws_rng_next(ws_rng *rng);
/* Returns a uniform integer in [lo, hi] (inclusive), without modulo bias.
 * Requires lo <= hi. */
uint64_t ws_rng_range(ws_rng *rng, uint64_t lo, uint64_t hi);
/* Fills buf[0..len) with random bytes. */
void ws_rng_fill(ws_rng *rng, uint8_t *buf, size_t len);
/* Picks an index in [0, n) with probability proportional to its weight, given
 * cumulative[i] = sum of weights 0..i (all > 0, strictly increasing). */
uint32_t ws_rng_pick(ws_rng *rng, const uint64_t *cumulative, uint32_t n);

#endif
