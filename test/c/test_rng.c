/* Tests of the seeded RNG: determinism, ranges, fills and weighted picks. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ws.h"

static void test_rng(void) {
  ws_rng a, b;
  ws_rng_seed(&a, 42);
  ws_rng_seed(&b, 42);
  int same = 1;
  for (int i = 0; i < 100; i++)
    same &= ws_rng_next(&a) == ws_rng_next(&b);
  CHECK(same);
  ws_rng_seed(&b, 43);
  CHECK(ws_rng_next(&a) != ws_rng_next(&b));
  int in_range = 1, saw_lo = 0, saw_hi = 0;
  for (int i = 0; i < 10000; i++) {
    uint64_t x = ws_rng_range(&a, 5, 9);
    in_range &= x >= 5 && x <= 9;
    saw_lo |= x == 5;
    saw_hi |= x == 9;
  }
  CHECK(in_range && saw_lo && saw_hi);
  uint64_t cumulative[3] = {5, 6, 16}; /* weights 5, 1, 10 */
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 16000; i++)
    counts[ws_rng_pick(&a, cumulative, 3)]++;
  CHECK(counts[0] > 4500 && counts[0] < 5500);
  CHECK(counts[1] > 700 && counts[1] < 1300);
  CHECK(counts[2] > 9400 && counts[2] < 10600);
  uint8_t buf[13] = {0};
  ws_rng_fill(&a, buf, sizeof buf);
  int nonzero = 0;
  for (size_t i = 0; i < sizeof buf; i++)
    nonzero += buf[i] != 0;
  CHECK(nonzero > 8);
}

/* Writes a log with the given header and records, then torn extra bytes. */

int main(void) {
  test_rng();
  return check_report("rng");
}
