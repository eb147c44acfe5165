/* Tests of what leaked blocks hold (ws_blocks.h) on synthetic dlmalloc heaps
 * (dlheap.h), under ASan/UBSan: a mark, then the same heap later with new
 * chunks; the pick takes only chunks absent from the mark, only in the
 * classes that grew, shares its blocks among them by their gains, copies
 * their first bytes, is deterministic for a seed, and finds nothing without
 * a mark or growth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dlheap.h"
#include "ws.h"

#define STATE 0xc0c
#define BASE 0x10e00
#define OLD_CHUNKS 500
#define STRING_SIZE 48  /* class 5: 32 B to 64 B */
#define RECORD_SIZE 144 /* class 7: 128 B to 256 B */

/* What the heap holds after the old chunks: n_strings chunks holding
 * "session-token-NNNNNN" and n_records chunks of RECORD_SIZE, after a
 * free chunk of gap bytes (0: none) that moves them off the mark's
 * addresses. */
typedef struct {
  uint32_t gap, n_strings, n_records;
} later;

/* Builds in memory m a heap from base to end: the old chunks (the same for
 * every call, seeded), then what l adds; its state at state in C's layout,
 * 16-byte aligned. Counts it into *e. Returns the address of its last chunk
 * before the top. */
static uint64_t build_into(uint8_t *m, uint64_t state, uint64_t base, uint64_t end,
                           const later *l, expect *e) {
  seg_builder b;
  seg_begin(&b, m, 16, base, e);
  chunks(&b, OLD_CHUNKS, 7);
  if (l->gap > 0) {
    chunk(&b, l->gap, 0);
    chunk(&b, 16, 1); /* a free chunk is followed by one in use */
  }
  for (uint32_t i = 0; i < l->n_records; i++)
    chunk(&b, RECORD_SIZE, 1);
  for (uint32_t i = 0; i < l->n_strings; i++) {
    chunk(&b, STRING_SIZE, 1);
    snprintf((char *)m + b.p - STRING_SIZE + 8, STRING_SIZE - 8, "session-token-%06u", i);
  }
  uint64_t topsize, last = b.p - (l->n_strings ? STRING_SIZE : RECORD_SIZE);
  uint64_t top = seg_top(&b, end, &topsize);
  write_state(m, state, &C_LAYOUT, top, topsize, base, end - base, 0);
  return last;
}

/* Builds in a fresh memory of len bytes the heap build_into builds from
 * BASE to len, its state at STATE. */
static void build(heap *h, size_t len, const later *l) {
  memset(h, 0, sizeof *h);
  h->m = calloc(1, len);
  h->len = len;
  build_into(h->m, STATE, BASE, len, l, &h->e);
}

/* Marks the heap l builds in len bytes with census c into mark. */
static void mark_of(ws_census *c, ws_blocks_mark *mark, size_t len, const later *l) {
  heap h;
  build(&h, len, l);
  CHECK(ws_blocks_mark_take(mark, c, h.m, h.len) == 0);
  CHECK(mark->bits != NULL && mark->shift == 4 && mark->covered == len);
  CHECK(mark->in_use_chunks == h.e.in_use);
  free(h.m);
}

/* Picks from the heap l builds in len bytes; returns the count. */
static uint32_t pick_of(ws_census *c, const ws_blocks_mark *mark, size_t len,
                        const later *l, uint64_t seed, ws_block *out) {
  heap h;
  build(&h, len, l);
  uint32_t n = 99;
  CHECK(ws_blocks_pick(mark, c, h.m, h.len, seed, out, WS_BLOCKS_MAX, &n) == 0);
  free(h.m);
  return n;
}

/* Whether block b is one of the strings, its bytes copied whole. */
static int is_string(const ws_block *b) {
  return b->size_class == 5 && b->size == STRING_SIZE - 4 &&
         b->n_bytes == STRING_SIZE - 4 && memcmp(b->bytes, "session-token-", 14) == 0;
}

/* New strings and records at new addresses; the records' class did not grow
 * (the same count moved), so every block is a string. */
static void test_only_growing_classes(void) {
  ws_census c;
  ws_blocks_mark mark = {0};
  ws_block out[WS_BLOCKS_MAX];
  ws_census_init(&c, NULL);
  const later before = {0, 0, 50}, after = {32, 300, 50};
  mark_of(&c, &mark, 0x60000, &before);
  uint32_t n = pick_of(&c, &mark, 0x60000, &after, 42, out);
  CHECK(n == WS_BLOCKS_MAX);
  for (uint32_t i = 0; i < n; i++) {
    CHECK(is_string(&out[i]));
    CHECK(i == 0 || out[i].address > out[i - 1].address);
  }
  ws_blocks_mark_free(&mark);
  CHECK(mark.bits == NULL);
}

/* Two classes grew, by 300 and by 100: three blocks and one (the highest
 * averages), the same blocks for the same seed. */
static void test_shares_and_seed(void) {
  ws_census c;
  ws_blocks_mark mark = {0};
  ws_block a[WS_BLOCKS_MAX], b[WS_BLOCKS_MAX], other[WS_BLOCKS_MAX];
  ws_census_init(&c, NULL);
  const later before = {0, 0, 0}, after = {0, 300, 100};
  mark_of(&c, &mark, 0x60000, &before);
  uint32_t n = pick_of(&c, &mark, 0x60000, &after, 42, a);
  CHECK(n == 4);
  uint32_t strings = 0, records = 0;
  for (uint32_t i = 0; i < n; i++) {
    strings += is_string(&a[i]);
    records += a[i].size_class == 7 && a[i].size == RECORD_SIZE - 4;
  }
  CHECK(strings == 3 && records == 1);
  CHECK(pick_of(&c, &mark, 0x60000, &after, 42, b) == n);
  CHECK(memcmp(a, b, sizeof a) == 0);
  /* Another seed draws from the same new chunks. */
  CHECK(pick_of(&c, &mark, 0x60000, &after, 43, other) == n);
  for (uint32_t i = 0; i < n; i++)
    CHECK(is_string(&other[i]) || other[i].size_class == 7);
  ws_blocks_mark_free(&mark);
}

/* The memory grew after the mark: chunks past what it covered are new. */
static void test_memory_grown(void) {
  ws_census c;
  ws_blocks_mark mark = {0};
  ws_block out[WS_BLOCKS_MAX];
  ws_census_init(&c, NULL);
  const later before = {0, 0, 0}, after = {0, 3000, 0};
  mark_of(&c, &mark, 0x40000, &before);
  uint32_t n = pick_of(&c, &mark, 0x80000, &after, 5, out);
  CHECK(n == WS_BLOCKS_MAX);
  for (uint32_t i = 0; i < n; i++)
    CHECK(is_string(&out[i]));
  CHECK(out[n - 1].address >= 0x40000); /* most of the strings lie past it */
  ws_blocks_mark_free(&mark);
}

/* The remembered state went stale (its heap corrupt, another heap proven
 * elsewhere): the failed walk's chunks are forgotten, and the blocks come
 * from the heap found again. */
static void test_stale_state(void) {
  enum { LEN = 0x90000, X_STATE = 0x400, X_BASE = 0x40000 };
  const later before = {0, 0, 0}, strings = {0, 300, 0};
  ws_census c;
  ws_blocks_mark mark = {0};
  ws_block out[WS_BLOCKS_MAX];
  expect e = {0};
  uint8_t *m = calloc(1, LEN);
  ws_census_init(&c, NULL);
  /* The mark, on heap X alone (X_BASE to the end). */
  build_into(m, X_STATE, X_BASE, LEN, &before, &e);
  CHECK(ws_blocks_mark_take(&mark, &c, m, LEN) == 0);
  /* Heap Y (BASE to X_BASE) alone: the census now remembers Y's state. */
  memset(m, 0, LEN);
  uint64_t last = build_into(m, STATE, BASE, X_BASE, &strings, &e);
  ws_census_result r;
  CHECK(ws_census_take(&c, m, LEN, &r) == 0 && r.state == STATE + C_LAYOUT.top);
  /* Y's last chunk corrupt (its walk fails after visiting every other), X
   * with new strings. */
  put(m, last + 4, 7);
  build_into(m, X_STATE, X_BASE, LEN, &strings, &e);
  uint32_t n = 0;
  CHECK(ws_blocks_pick(&mark, &c, m, LEN, 42, out, WS_BLOCKS_MAX, &n) == 0);
  CHECK(n == WS_BLOCKS_MAX);
  for (uint32_t i = 0; i < n; i++)
    CHECK(is_string(&out[i]) && out[i].address > X_BASE);
  ws_blocks_mark_free(&mark);
  free(m);
}

/* Nothing without a mark, nothing when no class grew, nothing past max. */
static void test_nothing(void) {
  ws_census c;
  ws_blocks_mark mark = {0};
  ws_block out[WS_BLOCKS_MAX];
  ws_census_init(&c, NULL);
  const later same = {0, 10, 10};
  CHECK(pick_of(&c, &mark, 0x60000, &same, 1, out) == 0);
  mark_of(&c, &mark, 0x60000, &same);
  CHECK(pick_of(&c, &mark, 0x60000, &same, 1, out) == 0);
  uint32_t n = 7;
  uint8_t empty[64] = {0};
  CHECK(ws_blocks_pick(&mark, &c, empty, sizeof empty, 1, out, WS_BLOCKS_MAX + 1, &n) ==
            WS_EINVAL &&
        n == 0);
  /* A memory with no heap: no allocator, and the mark is emptied. */
  CHECK(ws_blocks_mark_take(&mark, &c, empty, sizeof empty) == WS_ENOHEAP);
  CHECK(mark.bits == NULL);
  ws_blocks_mark_free(&mark);
}

int main(void) {
  test_only_growing_classes();
  test_shares_and_seed();
  test_memory_grown();
  test_stale_state();
  test_nothing();
  return check_report("blocks");
}
