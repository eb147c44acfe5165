/* Tests of the allocation-site table: live bytes and blocks per site through
 * allocations, frees, reallocs and unknown frees, many blocks (table growth
 * and backward-shift deletion), many sites, and an unknown event kind. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ws.h"

/* Writes one event into e: kind, module 0, op, ptr, size, old, and frames
 * f0, f0 + 1, ... (the rest WS_SITE_NO_FRAME past depth). */
static void event(int32_t *e, int kind, int op, uint32_t ptr, uint32_t size, uint32_t old,
                  int f0, int depth) {
  e[WS_SITE_EVENT_KIND] = kind;
  e[WS_SITE_EVENT_MODULE] = 0;
  e[WS_SITE_EVENT_OP] = op;
  e[WS_SITE_EVENT_PTR] = (int32_t)ptr;
  e[WS_SITE_EVENT_SIZE] = (int32_t)size;
  e[WS_SITE_EVENT_OLD_PTR] = (int32_t)old;
  for (int i = 0; i < WS_SITE_FRAMES; i++)
    e[WS_SITE_EVENT_FRAMES + i] = i < depth ? f0 + i : WS_SITE_NO_FRAME;
}

/* Returns site id's value field. */
static double value(const ws_sites *s, size_t id, int field) {
  int32_t key[WS_SITE_KEY_INTS];
  double v[WS_SITE_VALUE_FIELDS];
  ws_sites_get(s, id, key, v);
  return v[field];
}

static void test_basic(void) {
  ws_sites *s = NULL;
  CHECK(ws_sites_create(&s) == 0);
  int32_t e[6 * WS_SITE_EVENT_INTS];
  event(e, WS_EVENT_ALLOC, 0, 100, 16, 0, 5, 3);
  event(e + WS_SITE_EVENT_INTS, WS_EVENT_ALLOC, 0, 200, 32, 0, 5, 3);
  event(e + 2 * WS_SITE_EVENT_INTS, WS_EVENT_ALLOC, 1, 300, 8, 0, 7, 2);
  event(e + 3 * WS_SITE_EVENT_INTS, WS_EVENT_FREE, 1, 100, 0, 0, 9, 1);
  event(e + 4 * WS_SITE_EVENT_INTS, WS_EVENT_REALLOC, 1, 400, 64, 300, 7, 2);
  event(e + 5 * WS_SITE_EVENT_INTS, WS_EVENT_FREE, 1, 999, 0, 0, 9, 1); /* unknown */
  CHECK(ws_sites_apply(s, e, 6) == 0);
  CHECK(ws_sites_count(s) == 2);
  int32_t key[WS_SITE_KEY_INTS];
  double v[WS_SITE_VALUE_FIELDS];
  ws_sites_get(s, 0, key, v);
  CHECK(key[0] == 0 && key[1] == 0 && key[2] == 5 && key[4] == 7 &&
        key[5] == WS_SITE_NO_FRAME);
  CHECK(v[WS_SITE_LIVE_BYTES] == 32 && v[WS_SITE_LIVE_BLOCKS] == 1);
  CHECK(v[WS_SITE_ALLOCS] == 2 && v[WS_SITE_ALLOC_BYTES] == 48 && v[WS_SITE_FREES] == 1);
  /* The realloc moved site 1's block from 300 (8 B) to 400 (64 B). */
  CHECK(value(s, 1, WS_SITE_LIVE_BYTES) == 64 && value(s, 1, WS_SITE_LIVE_BLOCKS) == 1);
  CHECK(value(s, 1, WS_SITE_ALLOCS) == 2 && value(s, 1, WS_SITE_FREES) == 1);
  /* A failed realloc leaves the old block live; an unknown kind stops. */
  event(e, WS_EVENT_REALLOC, 1, 0, 128, 400, 7, 2);
  event(e + WS_SITE_EVENT_INTS, 99, 1, 0, 0, 0, 7, 2);
  CHECK(ws_sites_apply(s, e, 2) == WS_EINVAL);
  CHECK(value(s, 1, WS_SITE_LIVE_BYTES) == 64);
  ws_sites_free(s);
}

/* 100 000 blocks over 500 sites, every other one freed in a scattered
 * order: the table grows and deletes by backward shift without losing one. */
static void test_many(void) {
  ws_sites *s = NULL;
  CHECK(ws_sites_create(&s) == 0);
  enum { N = 100000, SITES = 500 };
  int32_t e[WS_SITE_EVENT_INTS];
  for (uint32_t i = 0; i < N; i++) {
    event(e, WS_EVENT_ALLOC, 0, 16 + i * 24, 10, 0, (int)(i % SITES), 4);
    CHECK(ws_sites_apply(s, e, 1) == 0);
  }
  CHECK(ws_sites_count(s) == SITES);
  for (uint32_t k = 0; k < N; k += 2) {
    uint32_t i = (k * 7919u) % N & ~1u; /* even indices, scattered */
    event(e, WS_EVENT_FREE, 0, 16 + i * 24, 0, 0, 0, 0);
    ws_sites_apply(s, e, 1);
  }
  double live = 0, blocks = 0, frees = 0;
  for (size_t id = 0; id < ws_sites_count(s); id++) {
    live += value(s, id, WS_SITE_LIVE_BYTES);
    blocks += value(s, id, WS_SITE_LIVE_BLOCKS);
    frees += value(s, id, WS_SITE_FREES);
  }
  /* 7919 is prime to N/2's factors, so every even block was freed once. */
  CHECK(frees == N / 2 && blocks == N / 2 && live == 10.0 * N / 2);
  /* Every odd block is still found: freeing them empties every site. */
  for (uint32_t i = 1; i < N; i += 2) {
    event(e, WS_EVENT_FREE, 0, 16 + i * 24, 0, 0, 0, 0);
    ws_sites_apply(s, e, 1);
  }
  blocks = 0;
  for (size_t id = 0; id < ws_sites_count(s); id++)
    blocks += value(s, id, WS_SITE_LIVE_BLOCKS);
  CHECK(blocks == 0);
  ws_sites_free(s);
}

int main(void) {
  test_basic();
  test_many();
  return check_report("sites");
}
