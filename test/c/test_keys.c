/* Tests the float keys' passes (addon/core/stats/ws_keys.c) against plain
 * loops: the high-half histogram and what it saw (bins, least and greatest
 * key, whether every value is whole), the one value of a narrow bin of whole
 * times, the least and greatest key of all values and of a few bins, and
 * the first value with a key; lengths that are not a multiple of four. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "synth.h"
#include "ws_internal.h"
#include "ws_rng.h"

static void test_count_high(void) {
  uint32_t *lanes = calloc(WS_KEY_LANES * (size_t)WS_HALF_BINS, sizeof *lanes);
  ws_rng rng;
  ws_rng_seed(&rng, 3);
  float x[1003];
  for (int shape = 0; shape < WS_SHAPES; shape++) {
    ws_synth_shape_fill(x, 1003, shape, &rng);
    ws_key_span span;
    ws__count_high(x, 1003, lanes, &span);
    uint32_t least = UINT32_MAX, most = 0;
    int whole = 1;
    for (size_t i = 0; i < 1003; i++) {
      uint32_t k = ws__float_key(x[i]);
      least = k < least ? k : least;
      most = k > most ? k : most;
      whole &= x[i] == x[i] && fabsf(x[i]) < 2147483648.0f && x[i] == floorf(x[i]);
    }
    CHECK(span.least == least && span.most == most);
    CHECK(span.lo == least >> 16 && span.hi == most >> 16 && span.whole == whole);
    /* The whole shapes say so, the fractional and NaN ones do not. */
    CHECK(span.whole == (shape != WS_SHAPE_FRACTIONAL && shape != WS_SHAPE_ONE_VALUE &&
                         shape != WS_SHAPE_SIGNED));
    size_t total = 0, off_lane = 0;
    for (uint32_t h = 0; h < WS_HALF_BINS; h++) {
      total += lanes[h];
      for (size_t l = 1; l < WS_KEY_LANES; l++)
        off_lane += lanes[l * WS_HALF_BINS + h];
      lanes[h] = 0;
    }
    CHECK(total == 1003 && off_lane == 0);
  }
  /* One value past 2^31 in the tail, or one half: not whole. */
  float big[5] = {1, 2, 3, 4, 3e9f}, half[6] = {1, 2, 3, 4, 5, 6.5f};
  ws_key_span span;
  ws__count_high(big, 5, lanes, &span);
  CHECK(!span.whole);
  memset(lanes, 0, WS_HALF_BINS * sizeof *lanes);
  ws__count_high(half, 6, lanes, &span);
  CHECK(!span.whole);
  free(lanes);
}

static void test_bin_value(void) {
  ws_key_span whole = {.whole = 1}, not_whole = {.whole = 0};
  const float values[] = {0.0f, -0.0f, 1.0f, 12.0f, 255.0f, -7.0f, 100.0f};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    float v = NAN;
    uint32_t bin = ws__float_key(values[i]) >> 16;
    CHECK(ws__bin_value(&whole, bin, &v) == 1 &&
          ws__float_key(v) == ws__float_key(values[i]));
    CHECK(ws__bin_value(&not_whole, bin, &v) == 0);
  }
  /* From 256 on a bin holds two whole numbers or more. */
  float v;
  CHECK(ws__bin_value(&whole, ws__float_key(256.0f) >> 16, &v) == 0);
  CHECK(ws__bin_value(&whole, ws__float_key(3000.0f) >> 16, &v) == 0);
}

static void test_extremes(void) {
  ws_rng rng;
  ws_rng_seed(&rng, 9);
  float x[1001];
  ws_synth_shape_fill(x, 1001, WS_SHAPE_SIGNED, &rng);
  uint32_t least, most;
  ws__key_range(x, 1001, &least, &most);
  uint32_t bins[WS_BIN_SLOTS] = {ws__float_key(x[7]) >> 16, ws__float_key(x[500]) >> 16,
                                 ws__float_key(x[1000]) >> 16, UINT32_MAX};
  uint32_t lo[WS_BIN_SLOTS], hi[WS_BIN_SLOTS];
  ws__bin_extremes(x, 1001, bins, lo, hi);
  uint32_t l = UINT32_MAX, m = 0, bl[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX},
           bm[3] = {0, 0, 0};
  for (size_t i = 0; i < 1001; i++) {
    uint32_t k = ws__float_key(x[i]);
    l = k < l ? k : l;
    m = k > m ? k : m;
    for (int j = 0; j < 3; j++)
      if (k >> 16 == bins[j]) {
        bl[j] = k < bl[j] ? k : bl[j];
        bm[j] = k > bm[j] ? k : bm[j];
      }
  }
  CHECK(least == l && most == m);
  for (int j = 0; j < 3; j++)
    CHECK(lo[j] == bl[j] && hi[j] == bm[j]);
  CHECK(lo[3] == UINT32_MAX && hi[3] == 0);
  size_t first = 0;
  while (ws__float_key(x[first]) != m)
    first++;
  CHECK(ws__first_key(x, 1001, m) == first);
  CHECK(ws__first_key(x, 1001, 0) == 1001);
}

int main(void) {
  test_count_high();
  test_bin_value();
  test_extremes();
  return check_report("keys");
}
