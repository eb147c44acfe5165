/* The heap census of a napi-rs `*-wasm32-wasi` build that starts worker
 * threads, as measured on @node-rs/argon2-wasm32-wasi 2.2.1: wasi-libc's
 * dlmalloc built with locks (mflags has USE_LOCK_BIT, a 4-byte mutex
 * before the segment record, which sits at +452), the stack placed first
 * (64 MB there: static data and the state start above it), a first segment
 * from __heap_base to the module's declared initial size, and the next
 * segment far above it, where sbrk grew the memory the loader created far
 * larger (250 MiB) than declared; the threads' stacks are chunks of that
 * segment. Here scaled down: a 33 MiB stack, the state above it, so that
 * the default search (32 MiB) misses it and the declared size as
 * hints.scan_limit (censusScanLimit) finds it and walks both segments. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dlheap.h"
#include "ws.h"

#define DECLARED 0x2110000u  /* the module's declared initial memory */
#define STACK_TOP 0x2100000u /* __stack_pointer's initial value: the stack lies below */
#define STATE 0x2108000u
#define HEAP_BASE 0x210a000u
#define GROWN 0x2800000u /* where the loader's larger memory began to grow */
#define LEN 0x2c00000u

typedef struct {
  uint8_t *m;
  expect e;
} threaded_heap;

/* Builds the heap: the stack's used top, a first segment of small chunks
 * closed by the record of the second, the second with two 1 MiB chunks (the
 * threads' stacks) among small ones, then its top. */
static void build(threaded_heap *h) {
  memset(h, 0, sizeof *h);
  h->m = calloc(1, LEN);
  noise(h->m, STACK_TOP - 4096, STACK_TOP, 7);
  noise(h->m, STACK_TOP, STATE, 8); /* static data below the state */
  seg_builder first, second;
  seg_begin(&first, h->m, 16, HEAP_BASE, &h->e);
  chunks(&first, 40, 11);
  seg_begin(&second, h->m, 16, GROWN, &h->e);
  chunks(&second, 200, 12);
  chunk(&second, 1u << 20, 1);
  chunks(&second, 100, 13);
  chunk(&second, 1u << 20, 1);
  chunks(&second, 50, 14);
  uint64_t topsize;
  uint64_t top = seg_top(&second, LEN, &topsize);
  uint64_t record = seg_close(&first, 0);
  CHECK(first.end <= DECLARED);
  write_state(h->m, STATE, &LOCKED_LAYOUT, top, topsize, GROWN, LEN - GROWN, record);
  put(h->m, STATE + 36, 0x555458a8u);
  put(h->m, STATE + LOCKED_MFLAGS, USE_LOCK_BIT);
}

/* Takes a census of h under hints. */
static int take(const threaded_heap *h, const ws_census_hints *hints,
                ws_census_result *r) {
  ws_census c;
  ws_census_init(&c, hints);
  return ws_census_take(&c, h->m, LEN, r);
}

static void test_default_search_misses_it(void) {
  threaded_heap h;
  build(&h);
  ws_census_result r;
  CHECK(take(&h, NULL, &r) == WS_ENOHEAP);
  CHECK(r.kind == WS_CENSUS_NONE && r.candidates[WS_CENSUS_FAMILY_dlmalloc] == 0);
  free(h.m);
}

static void test_declared_size_finds_it(void) {
  threaded_heap h;
  build(&h);
  ws_census_hints hints = {.scan_limit = DECLARED};
  ws_census_result r;
  CHECK(take(&h, &hints, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC && r.state == STATE + LOCKED_LAYOUT.top);
  CHECK(r.segments == 2 && matches(&r, &h.e));
  CHECK(r.tally.classes[20] == 2); /* the threads' stacks */
  /* A shared memory's census confirms each walk by a second one. */
  hints.concurrent = 1;
  CHECK(take(&h, &hints, &r) == 0 && r.torn == 0 && matches(&r, &h.e));
  free(h.m);
}

int main(void) {
  test_default_search_misses_it();
  test_declared_size_finds_it();
  return check_report("census_wasi_threads");
}
