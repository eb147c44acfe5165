/* Tests of the heap census on wee_alloc heaps (ws_wee.c), built in byte
 * arrays under ASan/UBSan: runs of cells from page to page, a size class's
 * run inside an allocated cell, the table of 257 list heads; a valid heap
 * (free cells its lists lost included) is walked into the expected totals
 * and re-walked as it grows; a broken neighbour link, a listed cell that is
 * allocated, a list that cycles and a truncated memory are not recognised;
 * the bump family does not claim it. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ws.h"

#define PAGE 0x10000u
#define TABLE 0x1000u /* the 257 heads, in static data */
#define LEN (8 * PAGE)
#define ALLOCATED 1u
#define LAST 2u

static void put(uint8_t *m, uint64_t at, uint32_t v) {
  m[at] = (uint8_t)v;
  m[at + 1] = (uint8_t)(v >> 8);
  m[at + 2] = (uint8_t)(v >> 16);
  m[at + 3] = (uint8_t)(v >> 24);
}

static uint32_t get(const uint8_t *m, uint64_t at) {
  return (uint32_t)m[at] | (uint32_t)m[at + 1] << 8 | (uint32_t)m[at + 2] << 16 |
         (uint32_t)m[at + 3] << 24;
}

/* What a built heap holds. */
typedef struct {
  uint64_t live, free_bytes, free_n, in_use, heap;
} expect;

/* Lays a run of n cells of sizes[i] bytes (header included; negative:
 * free) from start, counting them into e; returns its end. Free cells are
 * pushed onto the list whose head is at head_at. */
static uint64_t run(uint8_t *m, uint64_t start, const int *sizes, int n, uint64_t head_at,
                    expect *e) {
  uint64_t c = start, prev = 0;
  for (int i = 0; i < n; i++) {
    int free_cell = sizes[i] < 0;
    uint64_t size = (uint64_t)(free_cell ? -sizes[i] : sizes[i]);
    uint32_t flags = (free_cell ? 0 : ALLOCATED) | (i == n - 1 ? LAST : 0);
    put(m, c, (uint32_t)(c + size) | flags);
    put(m, c + 4, (uint32_t)prev);
    if (free_cell) {
      put(m, c + 8, get(m, head_at));
      put(m, head_at, (uint32_t)c);
      e->free_bytes += size;
      e->free_n++;
    } else {
      memset(m + c + 8, 0x5a, size - 8);
      e->live += size - 8;
      e->in_use++;
    }
    prev = c;
    c += size;
  }
  return c;
}

/* A heap of two runs: one page with a size class's run nested in an
 * allocated cell, then two pages. */
static uint8_t *wee_heap(expect *e) {
  uint8_t *m = calloc(1, LEN);
  memset(e, 0, sizeof *e);
  memset(m + 0x100, 0x33, 0xe00); /* other static data */
  memset(m + TABLE, 0, 257 * 4);
  /* The nested run: cells of 16-48 bytes in a 4 KiB holder at 0x10400. */
  uint64_t holder = PAGE + 0x400, holder_end = holder + 0x1000 + 8;
  int small[] = {16, -24, 32, 16, -16, 48, -24, 16};
  int used = 0;
  for (int i = 0; i < 8; i++)
    used += abs(small[i]);
  small[7] += (int)(0x1000 - (uint64_t)used); /* the last fills the holder */
  /* The page's run: the holder is allocated but counts as its cells. */
  int first[] = {0x400, (int)(holder_end - holder), 0x200,
                 -(int)(2 * PAGE - (holder_end + 0x200))};
  expect outer = {0};
  run(m, PAGE, first, 4, TABLE, &outer);
  run(m, holder + 8, small, 8, TABLE + 4 * 3, e);
  e->live += outer.live - (holder_end - holder - 8);
  e->in_use += outer.in_use - 1;
  e->free_bytes += outer.free_bytes;
  e->free_n += outer.free_n;
  /* Two pages: a free cell the lists lost (counted, not listed), then
   * allocated and free cells. */
  int second[] = {-0x800, 0x3000, -0x6000, 0x100,
                  -(int)(2 * PAGE - 0x800 - 0x3000 - 0x6000 - 0x100)};
  run(m, 2 * PAGE, second, 5, TABLE, e);
  put(m, TABLE, get(m, get(m, TABLE) + 8)); /* the lists lose the last one pushed */
  e->heap = 3 * PAGE;
  return m;
}

static int matches(const ws_census_result *r, const expect *e) {
  return r->kind == WS_CENSUS_WEE && r->state == TABLE && r->tally.live == e->live &&
         r->tally.in_use == e->in_use && r->tally.free_bytes == e->free_bytes &&
         r->tally.free_n == e->free_n && r->heap_bytes == e->heap && r->segments == 2;
}

static void test_valid_and_growing(void) {
  expect e;
  uint8_t *m = wee_heap(&e);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == 0);
  CHECK(matches(&r, &e) && r.located == 1);
  CHECK(ws_census_take(&c, m, LEN, &r) == 0 && r.located == 0 && matches(&r, &e));
  CHECK(strstr(ws_census_kind_text(WS_CENSUS_WEE), "wee_alloc") != NULL);
  /* A memory.grow: one more page-run, re-walked from the same table. */
  int third[] = {0x2000, -(int)(PAGE - 0x2000)};
  run(m, 4 * PAGE, third, 2, TABLE, &e);
  e.heap += PAGE;
  CHECK(ws_census_take(&c, m, LEN, &r) == 0 && r.located == 0);
  CHECK(r.tally.live == e.live && r.tally.free_n == e.free_n && r.segments == 3);
  free(m);
}

static void test_not_a_wee_heap(void) {
  expect e;
  ws_census_result r;
  ws_census c;
  /* A neighbour link broken: the walk stops there. */
  uint8_t *m = wee_heap(&e);
  put(m, 2 * PAGE + 0x800 + 4, 0x1234);
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
  /* A listed cell that is allocated. */
  m = wee_heap(&e);
  uint64_t head = get(m, TABLE);
  put(m, head, get(m, head) | ALLOCATED);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
  /* A list that cycles. */
  m = wee_heap(&e);
  head = get(m, TABLE);
  put(m, head + 8, (uint32_t)head);
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
  /* Truncated: the memory ends inside the second run, where listed cells
   * lie. */
  m = wee_heap(&e);
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == 0);
  CHECK(ws_census_take(&c, m, 2 * PAGE + 0x4000, &r) == WS_ENOHEAP);
  free(m);
  /* No table: cells alone are no heap, and no heap that never frees. */
  m = wee_heap(&e);
  memset(m + TABLE, 0, 257 * 4);
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  CHECK(ws_census_take(&c, m, LEN, &r) == WS_ENOHEAP);
  free(m);
}

int main(void) {
  test_valid_and_growing();
  test_not_a_wee_heap();
  return check_report("census-wee");
}
