/* Tests of the heap census on heaps that never free (ws_bump.c), built in
 * byte arrays under ASan/UBSan: a bump heap is proven by a census that
 * sees its top risen, follows its top as it rises and as memory grows, reports live bytes
 * from its first sighting; a top that falls, memory written above the top, a truncated
 * memory, a free-list head beside the top that moves and a lone census are never taken
 * for one; the other families do not claim a bump heap. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ws.h"

#define STATE 0x1000u    /* the top word, in static data */
#define HEAP 0x10000u    /* the first byte of the heap */
#define LEN (1u << 20)   /* the memory */
#define GROWN (2u << 20) /* the memory after a memory.grow */

/* Stores the little-endian word v at m[at]. */
static void put(uint8_t *m, uint64_t at, uint32_t v) {
  m[at] = (uint8_t)v;
  m[at + 1] = (uint8_t)(v >> 8);
  m[at + 2] = (uint8_t)(v >> 16);
  m[at + 3] = (uint8_t)(v >> 24);
}

/* Allocates from the bump heap in m whose top word is at STATE: writes
 * objects of 8 to 520 bytes (seeded, never all zero) from the top up to
 * until, and stores the new top. Returns it. */
static uint32_t bump_to(uint8_t *m, uint32_t until, uint32_t seed) {
  uint32_t top = (uint32_t)m[STATE] | (uint32_t)m[STATE + 1] << 8 |
                 (uint32_t)m[STATE + 2] << 16 | (uint32_t)m[STATE + 3] << 24;
  if (top == 0)
    top = HEAP;
  while (top < until) {
    seed = seed * 1103515245u + 12345u;
    uint32_t n = 8 + (seed >> 8) % 513 / 8 * 8;
    for (uint32_t i = 0; i < n; i += 4)
      put(m, top + i, seed | 1u);
    top += n;
  }
  put(m, STATE, top);
  return top;
}

/* A memory of len bytes with static data below STATE (pointers into the
 * heap, as a program's globals hold) and a bump heap grown to until, its
 * top word between the heap's start and the memory's end (an arena's
 * { base, top, end }). */
static uint8_t *bump_heap(size_t len, uint32_t until) {
  uint8_t *m = calloc(1, len);
  for (uint32_t at = 0x100; at < STATE - 64; at += 4)
    put(m, at, HEAP + at * 8);
  put(m, STATE - 4, HEAP);
  put(m, STATE + 4, (uint32_t)len);
  bump_to(m, until, 7);
  return m;
}

/* Lets the heap in m (len bytes) allocate 2 KiB more, then takes a census
 * with c into *r; returns its code. */
static int rise_take(ws_census *c, uint8_t *m, size_t len, ws_census_result *r) {
  bump_to(m, bump_to(m, 0, 0) + 0x800, 5);
  return ws_census_take(c, m, len, r);
}

static void test_proven_when_seen_rising(void) {
  uint8_t *m = bump_heap(LEN, 0x40000);
  uint32_t top = bump_to(m, 0, 0);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  CHECK(r.kind == WS_CENSUS_NONE && r.reason != NULL && strstr(r.reason, "later census"));
  CHECK(c.bump.at == STATE && c.bump.seen == 1 && c.bump.base == top);
  CHECK(r.candidates[WS_CENSUS_FAMILY_bump] >= 1 &&
        strcmp(ws_census_family_name(WS_CENSUS_FAMILY_bump), "bump (never frees)") == 0);
  /* Seen again where it was: nothing observed yet. */
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP && c.bump.seen == 2);
  CHECK(rise_take(&c, m, LEN, &r) == 0);
  CHECK(r.kind == WS_CENSUS_BUMP && r.state == STATE && r.located == 1);
  uint32_t now = bump_to(m, 0, 0);
  CHECK(now >= top + 0x800 && r.tally.live == now - top);
  CHECK(r.tally.free_bytes == 0 && r.tally.free_n == 0);
  CHECK(r.top_bytes == LEN - now && r.fragmentation == 0);
  /* It rises: re-walked, live bytes are what it grew by. */
  uint32_t risen = bump_to(m, 0x50000, 11);
  CHECK(ws_census_take(&c, m, LEN, &r) == 0);
  CHECK(r.kind == WS_CENSUS_BUMP && r.located == 0);
  CHECK(r.tally.live == risen - top && r.heap_bytes == risen - top);
  CHECK(r.top_bytes == LEN - risen);
  /* Memory grows (a bigger view, the heap copied): the same heap. */
  uint8_t *g = calloc(1, GROWN);
  memcpy(g, m, LEN);
  put(g, STATE + 4, GROWN); /* the end moves past the old top */
  uint32_t grown = bump_to(g, LEN + 0x1000, 13);
  CHECK(ws_census_take(&c, g, GROWN, &r) == 0);
  CHECK(r.kind == WS_CENSUS_BUMP && r.located == 0 && r.tally.live == grown - top);
  CHECK(r.top_bytes == GROWN - grown);
  CHECK(strstr(ws_census_kind_text(WS_CENSUS_BUMP), "never frees") != NULL);
  free(g);
  free(m);
}

/* A top that falls frees (a reset arena, a heap that reuses): the census
 * never takes that word again, even after the top rises past it. */
static void test_top_that_falls(void) {
  uint8_t *m = bump_heap(LEN, 0x40000);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, LEN, &r);
  CHECK(rise_take(&c, m, LEN, &r) == 0 && r.kind == WS_CENSUS_BUMP);
  memset(m + 0x30000, 0, LEN - 0x30000);
  put(m, STATE, 0x30000);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  CHECK(c.bump.ruled_out == STATE);
  bump_to(m, 0x60000, 17);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  CHECK(rise_take(&c, m, LEN, &r) == WS_ENOHEAP);
  /* The same fall before the proof: the candidate is dropped as well. */
  free(m);
  m = bump_heap(LEN, 0x40000);
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP && c.bump.seen == 1);
  memset(m + 0x30000, 0, LEN - 0x30000);
  put(m, STATE, 0x30000);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP && c.bump.ruled_out == STATE);
  CHECK(rise_take(&c, m, LEN, &r) == WS_ENOHEAP);
  CHECK(rise_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
}

/* Memory written above the top, a view that ends below the top, a free-list
 * head beside the top word, a heap with nothing in it: never a bump heap. */
static void test_not_a_bump_heap(void) {
  ws_census c;
  ws_census_result r;
  /* Written above the top: something else owns that memory. */
  uint8_t *m = bump_heap(LEN, 0x40000);
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, LEN, &r);
  CHECK(rise_take(&c, m, LEN, &r) == 0);
  put(m, LEN - 64, 0x12345);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP && c.kind == WS_CENSUS_NONE);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
  /* Truncated: the view ends below the top. */
  m = bump_heap(LEN, 0x40000);
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, LEN, &r);
  CHECK(rise_take(&c, m, LEN, &r) == 0);
  CHECK(ws_census_take(&c, m, 0x30000, &r) == WS_ENOHEAP);
  CHECK(ws_census_take(&c, m, 0x30000, &r) == WS_ENOHEAP);
  free(m);
  /* A free-list head beside the top (a first-fit allocator's state): it
   * moves between censuses, which rules the word out; the heap's start
   * beside it, which stays, does not. */
  for (int side = -1; side <= 1; side += 2) {
    m = bump_heap(LEN, 0x40000);
    put(m, STATE + 4 * side, HEAP + 0x2000);
    ws_census_init(&c, NULL);
    CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
    put(m, STATE + 4 * side, HEAP + 0x3000);
    CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP && c.bump.ruled_out == STATE);
    CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
    /* After the proof: the re-walk fails and the word is ruled out. */
    put(m, STATE + 4 * side, HEAP);
    ws_census_init(&c, NULL);
    ws_census_take(&c, m, LEN, &r);
    CHECK(rise_take(&c, m, LEN, &r) == 0 && r.kind == WS_CENSUS_BUMP);
    put(m, STATE + 4 * side, HEAP + 0x100);
    CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP && c.bump.ruled_out == STATE);
    /* A word beside it that is no pointer into the heap may change. */
    put(m, STATE + 4 * side, 12);
    ws_census_init(&c, NULL);
    ws_census_take(&c, m, LEN, &r);
    put(m, STATE + 4 * side, 13);
    CHECK(rise_take(&c, m, LEN, &r) == 0 && r.kind == WS_CENSUS_BUMP);
    put(m, STATE + 4 * side, (uint32_t)LEN);
    CHECK(ws_census_take(&c, m, LEN, &r) == 0 && r.located == 0);
    free(m);
  }
  /* A top pointer with nothing written below it: no heap yet. */
  m = calloc(1, LEN);
  put(m, STATE, HEAP);
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, LEN, &r);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
}

/* The candidate nearest the untouched memory is the top: a pointer further
 * up into the zeros (a heap end, a reserved area, a size) is not. */
static void test_lowest_top_wins(void) {
  uint8_t *m = bump_heap(LEN, 0x40000);
  put(m, 0x800, LEN - 0x1000);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, LEN, &r);
  CHECK(rise_take(&c, m, LEN, &r) == 0 && r.state == STATE);
  /* Alone, a pointer that far above the written memory is no top. */
  put(m, STATE, 0);
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, LEN, &r);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
}

int main(void) {
  test_proven_when_seen_rising();
  test_top_that_falls();
  test_not_a_bump_heap();
  test_lowest_top_wins();
  return check_report("census-bump");
}
