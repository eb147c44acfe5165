/* Tests of the heap census (ws_census.h) on synthetic heaps built in byte
 * arrays, under ASan/UBSan: C-layout dlmalloc heaps (wasi-libc's 16-byte
 * alignment and Emscripten's 8), the Rust crate's layout, several segments,
 * a heap whose memory grows between walks, emmalloc blocks, every kind of
 * corruption and truncation, random bytes and memories with no allocator
 * (never recognised), the work bounds, and ws_loop_census's records and
 * time budget through a fake engine. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "dlheap.h"
#include "ws.h"

/* Takes two censuses of the same memory with one census object (what a
 * heap that never frees needs to be proven); returns the second's code. */
static int second_take(const uint8_t *m, size_t len, ws_census_result *r) {
  ws_census c;
  ws_census_init(&c, NULL);
  ws_census_take(&c, m, len, r);
  return ws_census_take(&c, m, len, r);
}

/* ---- dlmalloc: valid heaps ---- */

/* wasi-libc: C layout, 16-byte alignment, the heap from __heap_base to the
 * end of memory. Re-walks from the remembered state. */
static void test_c_layout_wasi(void) {
  heap h;
  build_heap(&h, 0x90000, &C_LAYOUT, 16, 0xc0c, 0x10e00, 0x90000, 1500, 11);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC);
  CHECK(r.state == h.state + C_LAYOUT.top);
  CHECK(r.located == 1 && r.reason == NULL);
  CHECK(matches(&r, &h.e));
  CHECK(h.e.in_use > 900 && h.e.free_n > 100);
  CHECK(c.kind == WS_CENSUS_DLMALLOC && c.align == 16 && c.locates == 1);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == 0);
  CHECK(r.located == 0 && c.locates == 1);
  CHECK(matches(&r, &h.e));
  free(h.m);
}

/* Emscripten: C layout, 8-byte alignment, a heap after a 5 MiB stack. */
static void test_c_layout_emscripten(void) {
  heap h;
  build_heap(&h, 0x600000, &C_LAYOUT, 8, 0xc14, 0x500e10, 0x5c0000, 2500, 12);
  ws_census_result r;
  CHECK(fresh_take(h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC && r.state == h.state + C_LAYOUT.top);
  CHECK(matches(&r, &h.e));
  free(h.m);
}

/* Rust's crate: its own field order, the heap from the page-aligned
 * initial memory size, data and a stack below. */
static void test_rust_layout(void) {
  heap h;
  build_heap(&h, 0x200000, &RUST_LAYOUT, 8, 0x1005d0, 0x110000, 0x200000, 3000, 13);
  noise(h.m, 0x100000, 0x1005d0, 99); /* other static data before the state */
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC_RUST);
  CHECK(r.state == h.state + RUST_LAYOUT.top);
  CHECK(matches(&r, &h.e));
  CHECK(ws_census_take(&c, h.m, h.len, &r) == 0 && r.located == 0);
  CHECK(matches(&r, &h.e));
  free(h.m);
}

/* The kind is the state's, whatever else the scan meets: a Rust state
 * whose dvsize (12 bytes before top, where C keeps topsize) equals topsize,
 * and a copy of its fields on the shadow stack (below static data in Rust
 * builds, so the scan meets it first) in another arrangement. Before, the
 * first read as C's layout, and the second made the census keep the copy
 * (dlmallocOther) and skip the state, whose values it had walked already. */
static void test_stable_kind(void) {
  heap h;
  build_heap(&h, 0x200000, &RUST_LAYOUT, 8, 0x1005d0, 0x110000, 0x200000, 800, 21);
  uint64_t top_at = h.state + RUST_LAYOUT.top;
  put(h.m, top_at - 12, (uint32_t)h.topsize); /* dvsize == topsize */
  ws_census_result r;
  CHECK(fresh_take(h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC_RUST && r.state == top_at);
  CHECK(matches(&r, &h.e));
  uint64_t copy = 0x8000; /* a stack frame */
  put(h.m, copy, (uint32_t)h.top);
  put(h.m, copy + 20, (uint32_t)h.topsize);
  put(h.m, copy + 100, (uint32_t)h.base);
  put(h.m, copy + 104, (uint32_t)(h.end - h.base));
  put(h.m, copy + 108, 0);
  CHECK(fresh_take(h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC_RUST && r.state == top_at);
  CHECK(matches(&r, &h.e));
  /* Only the copy: it is proven, as another layout. */
  memset(h.m + h.state, 0, 0x600);
  CHECK(fresh_take(h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC_OTHER && r.state == copy);
  free(h.m);
}

/* A heap whose every chunk was freed: only the top chunk; and a heap with
 * chunks of one size class for the histogram. */
static void test_empty_and_classes(void) {
  heap h;
  build_heap(&h, 0x40000, &RUST_LAYOUT, 8, 0x1000, 0x20000, 0x40000, 0, 1);
  ws_census_result r;
  CHECK(fresh_take(h.m, h.len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_DLMALLOC_RUST && r.chunks == 0 && r.tally.live == 0);
  CHECK(r.top_bytes == 0x20000 - 40 && r.fragmentation == 0);
  free(h.m);

  memset(&h, 0, sizeof h);
  h.m = calloc(1, 0x40000);
  seg_builder b;
  seg_begin(&b, h.m, 8, 0x20000, &h.e);
  for (int i = 0; i < 100; i++)
    chunk(&b, 48, 1);
  chunk(&b, 4096, 0);
  chunk(&b, 1024, 1);
  chunk(&b, 1024, 0);
  chunk(&b, 24, 1);
  uint64_t topsize, top = seg_top(&b, 0x40000, &topsize);
  write_state(h.m, 0x1000, &C_LAYOUT, top, topsize, 0x20000, 0x20000, 0);
  CHECK(fresh_take(h.m, 0x40000, &r) == 0);
  CHECK(r.tally.classes[5] == 100 && r.tally.classes[10] == 1 && r.tally.classes[4] == 1);
  CHECK(r.tally.in_use == 102 && r.tally.free_n == 2 && r.tally.largest == 4096);
  CHECK(r.tally.live == 100 * 44 + 1020 + 20);
  CHECK(r.fragmentation == 1000 * 1024 / 5120);
  free(h.m);
}

/* Several segments (memory grown by someone else between sbrk calls): the
 * top segment's record links older ones through records kept at their
 * ends; foreign bytes lie between them. */
static void test_segments(void) {
  for (int rust = 0; rust <= 1; rust++) {
    const layout *l = rust ? &RUST_LAYOUT : &C_LAYOUT;
    uint32_t align = rust ? 8 : 16;
    size_t len = 0x120000;
    uint8_t *m = calloc(1, len);
    expect e = {0};
    noise(m, 0, len, 77);
    memset(m + 0x1000, 0, 0x1000); /* the state's page */
    seg_builder a, b, top_seg;
    seg_begin(&a, m, align, 0x20000, &e);
    chunks(&a, 400, 1);
    uint64_t rec_a = seg_close(&a, 0);
    seg_begin(&b, m, align, 0x60004, &e);
    chunks(&b, 400, 2);
    b.prev_inuse = 1;
    chunk(&b, 64, 0); /* the old top's remainder, free before the record */
    uint64_t rec_b = seg_close(&b, rec_a);
    seg_begin(&top_seg, m, align, 0xa0000, &e);
    chunks(&top_seg, 400, 3);
    uint64_t topsize, top = seg_top(&top_seg, len, &topsize);
    write_state(m, 0x1000, l, top, topsize, 0xa0000, len - 0xa0000, rec_b);
    ws_census c;
    ws_census_result r;
    ws_census_init(&c, NULL);
    CHECK(ws_census_take(&c, m, len, &r) == 0);
    CHECK(r.kind == (rust ? WS_CENSUS_DLMALLOC_RUST : WS_CENSUS_DLMALLOC));
    CHECK(r.segments == 3);
    CHECK(matches(&r, &e));
    /* A chain that loops back is rejected, never walked twice. */
    put(m, rec_a + 8, (uint32_t)rec_b);
    CHECK(ws_census_take(&c, m, len, &r) == WS_ENOHEAP);
    CHECK(c.kind == WS_CENSUS_NONE);
    put(m, rec_a + 8, 0);
    /* A record whose segment does not end in fenceposts is rejected. */
    put(m, rec_b - 8 + a.record + 8, 0x12345678);
    CHECK(ws_census_take(&c, m, len, &r) == WS_ENOHEAP);
    free(m);
  }
}

/* The memory grows between walks (wasi-libc: sbrk extends the segment and
 * the top chunk; the buffer moves), and the heap takes more chunks. The
 * census re-walks from the remembered state; a stale, shorter view of the
 * grown heap is rejected. */
static void test_growth(void) {
  heap h;
  build_heap(&h, 0x40000, &C_LAYOUT, 16, 0xc0c, 0x10e00, 0x40000, 600, 21);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == 0);
  CHECK(matches(&r, &h.e));
  size_t len2 = 0x80000;
  uint8_t *m2 = calloc(1, len2);
  memcpy(m2, h.m, h.len);
  expect e2 = h.e;
  e2.top = 0;
  e2.heap = 0;
  e2.segments = 0;
  seg_builder b;
  seg_begin(&b, m2, 16, 0x10e00, &e2);
  b.p = h.top; /* carve new chunks from the old top */
  chunks(&b, 500, 22);
  uint64_t topsize, top = seg_top(&b, len2, &topsize);
  write_state(m2, 0xc0c, &C_LAYOUT, top, topsize, 0x10e00, len2 - 0x10e00, 0);
  CHECK(ws_census_take(&c, m2, len2, &r) == 0);
  CHECK(r.located == 0 && c.locates == 1);
  CHECK(matches(&r, &e2));
  CHECK(r.tally.in_use > h.e.in_use);
  CHECK(ws_census_take(&c, m2, h.len, &r) == WS_ENOHEAP);
  CHECK(ws_census_take(&c, m2, len2, &r) == 0 && r.located == 1);
  free(m2);
  free(h.m);
}

/* ---- dlmalloc: corrupt and truncated heaps ---- */

/* The address of the i-th chunk of a built heap (0 is the first). */
static uint64_t nth_chunk(const heap *h, uint32_t i) {
  uint64_t p = h->base + ((h->align - ((h->base + 8) & (h->align - 1))) & (h->align - 1));
  while (i-- > 0)
    p += get(h->m, p + 4) & ~7u;
  return p;
}

/* The first chunk at or after the i-th that is in use (free == 0) or free
 * and followed by an in-use chunk (free == 1). */
static uint64_t find_chunk(const heap *h, uint32_t i, int want_free) {
  for (uint64_t p = nth_chunk(h, i); p < h->top; p += get(h->m, p + 4) & ~7u) {
    int in_use = (get(h->m, p + 4) & CINUSE) != 0;
    if (want_free ? !in_use : in_use)
      return p;
  }
  return 0;
}

enum {
  PINUSE_FLIP,
  CINUSE_CLEAR,
  FOOTER,
  ADJACENT_FREE,
  OVERSHOOT,
  SIZE_ZERO,
  MISALIGNED_SIZE,
  FLAG4_SET,
  TOP_HEAD,
  TOPSIZE_FIELD,
  FAKE_FOOT,
  SEG_SIZE,
  TRUNCATED,
  CORRUPTIONS
};

/* Applies corruption kind to h; returns the view length to use. */
static size_t corrupt(heap *h, int kind) {
  uint64_t p = find_chunk(h, 500, 0), f = find_chunk(h, 500, 1);
  uint32_t head = get(h->m, p + 4), size = head & ~7u;
  switch (kind) {
  case PINUSE_FLIP:
    put(h->m, p + 4, head ^ PINUSE);
    break;
  case CINUSE_CLEAR: /* looks free, but its footer and the next head disagree */
    put(h->m, p + 4, head & ~CINUSE);
    break;
  case FOOTER:
    put(h->m, f + (get(h->m, f + 4) & ~7u), 0xdead0);
    break;
  case ADJACENT_FREE: { /* a free chunk becomes two, each well formed */
    uint32_t fsize = get(h->m, f + 4) & ~7u, half = (fsize / 2) & ~(h->align - 1);
    if (half < 16 || fsize - half < 16)
      return 0;
    put(h->m, f + 4, half | PINUSE);
    put(h->m, f + half, half);
    put(h->m, f + half + 4, fsize - half);
    put(h->m, f + fsize, fsize - half);
    break;
  }
  case OVERSHOOT:
    put(h->m, p + 4, (uint32_t)(h->top - p + 2 * h->align) | (head & 7));
    break;
  case SIZE_ZERO:
    put(h->m, p + 4, head & 7);
    break;
  case MISALIGNED_SIZE:
    put(h->m, p + 4, (size + 8) | (head & 7));
    break;
  case FLAG4_SET:
    put(h->m, p + 4, head | 4);
    break;
  case TOP_HEAD:
    put(h->m, h->top + 4, (uint32_t)(h->topsize - h->align) | PINUSE);
    break;
  case TOPSIZE_FIELD:
    put(h->m, h->state + h->l->topsize, (uint32_t)h->topsize + h->align);
    break;
  case FAKE_FOOT:
    put(h->m, h->top + h->topsize + 4, 0);
    break;
  case SEG_SIZE:
    put(h->m, h->state + h->l->seg + 4, (uint32_t)(h->end - h->base) + 4096);
    break;
  case TRUNCATED:
    return (size_t)(h->top - 64);
  }
  return h->len;
}

/* Every corruption is rejected, by a fresh census and by one that had
 * proven the heap before; nothing is read out of bounds. */
static void test_corruptions(void) {
  for (int rust = 0; rust <= 1; rust++) {
    for (int kind = 0; kind < CORRUPTIONS; kind++) {
      heap h;
      if (rust)
        build_heap(&h, 0x100000, &RUST_LAYOUT, 8, 0x2000, 0x20000, 0x100000, 2000, 31);
      else
        build_heap(&h, 0x100000, &C_LAYOUT, 16, 0x2000, 0x20000, 0x100000, 2000, 31);
      ws_census c;
      ws_census_result r;
      ws_census_init(&c, NULL);
      CHECK(ws_census_take(&c, h.m, h.len, &r) == 0);
      size_t len = corrupt(&h, kind);
      CHECK(len > 0);
      /* A view that ends where the corrupt length says: ASan sees overreads. */
      uint8_t *view = malloc(len);
      memcpy(view, h.m, len);
      int fresh = fresh_take(view, len, &r);
      CHECK(fresh == WS_ENOHEAP);
      CHECK(r.kind == WS_CENSUS_NONE && r.reason != NULL);
      if (fresh != WS_ENOHEAP)
        fprintf(stderr, "corruption %d (rust %d) was recognised\n", kind, rust);
      CHECK(ws_census_take(&c, view, len, &r) == WS_ENOHEAP);
      CHECK(c.kind == WS_CENSUS_NONE);
      CHECK(ws_census_take(&c, view, len, &r) == WS_ENOHEAP);
      free(view);
      free(h.m);
    }
  }
}

/* ---- no false recognition ---- */

/* Zeros, random bytes, random words that point into the memory, a heap's
 * chunks without their state, a bump allocator, NULL: nothing is
 * recognised. */
static void test_no_false_recognition(void) {
  ws_census_result r;
  size_t len = 1u << 20;
  uint8_t *m = calloc(1, len);
  CHECK(fresh_take(m, len, &r) == WS_ENOHEAP && r.reason != NULL);
  CHECK(fresh_take(NULL, 0, &r) == WS_ENOHEAP);
  CHECK(fresh_take(m, 3, &r) == WS_ENOHEAP);
  int recognised = 0;
  for (uint32_t seed = 1; seed <= 24; seed++) {
    noise(m, 0, len, seed);
    recognised += second_take(m, len, &r) != WS_ENOHEAP;
    /* Noise below untouched memory: pointers into it are no heap top
     * without a census that saw one before. */
    noise(m, 0, len / 2, seed);
    memset(m + len / 2, 0, len / 2);
    recognised += fresh_take(m, len, &r) != WS_ENOHEAP;
    noise(m, 0, len, seed);
    /* Words that look like pointers, small sizes and chunk heads. */
    uint32_t s = seed * 2654435761u;
    for (uint64_t at = 0; at < len; at += 4) {
      uint32_t x = rng_next(&s), v;
      switch (x % 4) {
      case 0:
        v = (x >> 4) % len & ~7u;
        break;
      case 1:
        v = ((x >> 4) % 4096 & ~7u) | (x >> 30);
        break;
      case 2:
        v = (x >> 8) % 64;
        break;
      default:
        v = x;
      }
      put(m, at, v);
    }
    recognised += second_take(m, len, &r) != WS_ENOHEAP;
  }
  CHECK(recognised == 0);
  free(m);

  /* A valid heap whose state was wiped: chunk-like structure alone is not
   * enough. */
  heap h;
  build_heap(&h, 0x100000, &C_LAYOUT, 8, 0x2000, 0x20000, 0x100000, 2000, 41);
  memset(h.m + 0x2000, 0, 1024);
  CHECK(fresh_take(h.m, h.len, &r) == WS_ENOHEAP);
  /* The state with its segment record wiped (a top chunk and topsize, no
   * segment that ends where the top says). */
  write_state(h.m, 0x2000, &C_LAYOUT, h.top, h.topsize, 0, 0, 0);
  CHECK(fresh_take(h.m, h.len, &r) == WS_ENOHEAP);
  free(h.m);

  /* A bump allocator: a break pointer in static memory and length-prefixed
   * blocks up to it. Censuses that never saw its top rise do not take it for
   * a heap that never frees (test_census_bump.c: one seen rising), and no
   * other family claims it. */
  m = calloc(1, len);
  uint64_t brk = 0x10000;
  uint32_t s = 5;
  while (brk < len / 2) {
    uint32_t n = 16 + (rng_next(&s) % 512 & ~7u);
    put(m, brk, n);
    put(m, brk + 4, n | 1);
    brk += n;
  }
  put(m, 0x1000, (uint32_t)brk);
  put(m, 0x1004, (uint32_t)(len - brk));
  put(m, 0x1008, 0x10000);
  CHECK(fresh_take(m, len, &r) == WS_ENOHEAP);
  put(m, 0x1004, 0x10000);
  CHECK(second_take(m, len, &r) == WS_ENOHEAP);
  free(m);
}

/* ---- bounds and hints ---- */

static void test_limits(void) {
  heap h;
  build_heap(&h, 0x100000, &C_LAYOUT, 16, 0x8000, 0x20000, 0x100000, 3000, 51);
  ws_census c;
  ws_census_result r;
  ws_census_hints hints = {.max_chunks = 100};
  ws_census_init(&c, &hints);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == WS_ENOHEAP);
  hints = (ws_census_hints){.scan_limit = 0x8000};
  ws_census_init(&c, &hints);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == WS_ENOHEAP);
  hints = (ws_census_hints){.heap_base = 0x4000};
  ws_census_init(&c, &hints);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == WS_ENOHEAP);
  hints = (ws_census_hints){.heap_base = 0x20000, .max_chunks = 3000};
  ws_census_init(&c, &hints);
  CHECK(ws_census_take(&c, h.m, h.len, &r) == 0);
  CHECK(matches(&r, &h.e));
  free(h.m);
}

/* ---- emmalloc ---- */

#define BUCKETS 0xc20u /* 64 sentinel regions of 16 bytes */
#define LIST_HEAD 0x1020u

/* Builds emmalloc blocks: regions with a size at both ends (| 1 at the end
 * when free), free ones linked into a bucket's circular list. */
typedef struct {
  uint8_t *m;
  uint64_t p;
  int prev_free;
  expect *e;
} em_builder;

static void em_link(uint8_t *m, uint64_t r, uint32_t bucket) {
  uint64_t s = BUCKETS + 16 * bucket, next = get(m, s + 8);
  put(m, r + 4, (uint32_t)s);
  put(m, r + 8, (uint32_t)next);
  put(m, next + 4, (uint32_t)r);
  put(m, s + 8, (uint32_t)r);
}

static void em_region(em_builder *b, uint32_t size, int is_free, int counted) {
  put(b->m, b->p, size);
  put(b->m, b->p + size - 4, size | (is_free ? 1u : 0u));
  if (is_free) {
    em_link(b->m, b->p, size % 64);
    if (counted) {
      b->e->free_bytes += size;
      b->e->free_n++;
      if (size > b->e->largest)
        b->e->largest = size;
    }
  } else if (counted) {
    b->e->live += size - 8;
    b->e->gross += size;
    b->e->in_use++;
    int k = 0;
    while ((size >> (k + 1)) != 0)
      k++;
    b->e->classes[k]++;
  }
  b->prev_free = is_free;
  b->p += size;
}

/* A block from root to end: root region (20 bytes, as alignment padding
 * leaves it), n seeded regions, a free wilderness region when wild, the end
 * sentinel. */
static void em_block(uint8_t *m, uint64_t root, uint64_t end, uint64_t next_root,
                     uint32_t n, uint32_t seed, int wild, expect *e) {
  em_builder b = {m, root, 0, e};
  em_region(&b, 20, 0, 0);
  put(m, root + 4, (uint32_t)next_root);
  put(m, root + 8, (uint32_t)end);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x = rng_next(&seed);
    uint32_t size = 16 + (x % 1024 & ~3u);
    int is_free = !b.prev_free && (x >> 20) % 10 < 3 && i + 1 < n;
    em_region(&b, size, is_free, 1);
  }
  uint64_t sentinel = end - 16;
  CHECK(b.p + 16 <= sentinel); /* the regions fit the block */
  if (wild && sentinel - b.p >= 16) {
    uint32_t size = (uint32_t)(sentinel - b.p);
    em_region(&b, size, 1, 0);
    e->top += size;
  } else if (sentinel > b.p) {
    em_region(&b, (uint32_t)(sentinel - b.p), 0, 1);
  }
  em_region(&b, 16, 0, 0);
  e->heap += end - root;
  e->segments++;
}

static uint8_t *em_memory(size_t len) {
  uint8_t *m = calloc(1, len);
  noise(m, 0x400, BUCKETS, 3);
  for (uint32_t i = 0; i < 64; i++) {
    uint64_t s = BUCKETS + 16 * i;
    put(m, s, 0);
    put(m, s + 4, (uint32_t)s);
    put(m, s + 8, (uint32_t)s);
  }
  return m;
}

static void test_emmalloc(void) {
  size_t len = 0x100000;
  uint8_t *m = em_memory(len);
  expect e = {0};
  em_block(m, 0x40000, 0x60000, 0, 200, 61, 0, &e);       /* an older block */
  em_block(m, 0x80030, 0xf0000, 0x40000, 700, 62, 1, &e); /* the newest */
  put(m, LIST_HEAD, 0x80030);
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, NULL);
  CHECK(ws_census_take(&c, m, len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_EMMALLOC && r.state == LIST_HEAD);
  CHECK(r.segments == 2);
  CHECK(matches(&r, &e));
  CHECK(e.top > 0 && e.free_n > 50);
  CHECK(ws_census_take(&c, m, len, &r) == 0 && r.located == 0);

  /* Find a free and an in-use region of the newest block to corrupt. */
  uint64_t used = 0, freed = 0;
  for (uint64_t p = 0x80030 + 20; p < 0xf0000 && (!used || !freed); p += get(m, p)) {
    uint32_t size = get(m, p), ceil = get(m, p + size - 4);
    if (ceil == size && !used && p > 0x90000)
      used = p;
    if (ceil == (size | 1) && !freed && p > 0x90000)
      freed = p;
  }
  CHECK(used != 0 && freed != 0);
  uint32_t usize = get(m, used), fsize = get(m, freed), link = get(m, freed + 8);
  put(m, used + usize - 4, usize + 4); /* a footer that disagrees */
  CHECK(ws_census_take(&c, m, len, &r) == WS_ENOHEAP && c.kind == WS_CENSUS_NONE);
  put(m, used + usize - 4, usize);
  put(m, freed + 8, 0x100); /* a free region its list does not hold */
  CHECK(fresh_take(m, len, &r) == WS_ENOHEAP);
  put(m, freed + 8, link);
  put(m, used + usize - 4, usize | 1); /* a free region next to... unlinked */
  CHECK(fresh_take(m, len, &r) == WS_ENOHEAP);
  put(m, used + usize - 4, usize);
  put(m, 0xf0000 - 16, 20); /* the end sentinel broken */
  CHECK(fresh_take(m, len, &r) == WS_ENOHEAP);
  put(m, 0xf0000 - 16, 16);
  CHECK(fresh_take(m, 0xf0000 - 8, &r) == WS_ENOHEAP); /* truncated */
  CHECK(fresh_take(m, len, &r) == 0 && matches(&r, &e));
  (void)fsize;
  free(m);
}

/* A heap grown block by block, as a module that grows its memory often
 * leaves it: 100 blocks, each below the next, all walked. A list that runs
 * up through memory (a newer block below an older one) is refused. */
static void test_emmalloc_many_blocks(void) {
  size_t len = 0x400000;
  uint8_t *m = em_memory(len);
  expect e = {0};
  uint64_t older = 0;
  for (uint32_t i = 0; i < 100; i++) {
    uint64_t root = 0x10000 + 0x8000 * (uint64_t)i;
    em_block(m, root, root + 0x7000, older, 20, 70 + i, i == 99, &e);
    older = root;
  }
  put(m, LIST_HEAD, (uint32_t)older);
  ws_census_result r;
  CHECK(fresh_take(m, len, &r) == 0);
  CHECK(r.kind == WS_CENSUS_EMMALLOC && r.segments == 100);
  CHECK(matches(&r, &e));
  /* The oldest block's link pointing up at the newest: a cycle. */
  put(m, 0x10000 + 4, (uint32_t)older);
  CHECK(fresh_take(m, len, &r) == WS_ENOHEAP);
  free(m);
}

/* ---- AssemblyScript TLSF ---- */

#define TLSF_ROOT 0x4000u
#define TLSF_TAIL_AT 1568u

/* A TLSF heap as AssemblyScript's runtime leaves it: the root at
 * TLSF_ROOT, blocks with headers of overhead bytes (4: 0.20 on; 16: 0.9)
 * after it, the last one free (the top) and a zero-size tail at end. */
typedef struct {
  uint8_t *m;
  size_t len;
  uint32_t overhead;
  uint64_t first, top, tail;
  expect e;
} tlsf_heap;

/* The address of the free-list head for payload size (mapping_insert). */
static uint64_t tlsf_head(uint32_t size, uint32_t *fl, uint32_t *sl) {
  if (size < 256) {
    *fl = 0;
    *sl = size >> 4;
  } else {
    uint32_t f = 31u - (uint32_t)__builtin_clz(size);
    *sl = (size >> (f - 4)) ^ 16u;
    *fl = f - 7;
  }
  return TLSF_ROOT + 96 + 4 * (*fl * 16 + *sl);
}

/* Marks the block at b free with payload size (LEFTFREE as given), writes
 * its back pointer and pushes it on its list, as insertBlock does. */
static void tlsf_free(tlsf_heap *t, uint64_t b, uint32_t size, uint32_t left_free) {
  uint32_t fl, sl;
  uint64_t head_at = tlsf_head(size, &fl, &sl);
  uint32_t head = get(t->m, head_at), ov = t->overhead;
  put(t->m, b, size | 1u | (left_free ? 2u : 0));
  put(t->m, b + ov + size - 4, (uint32_t)b);
  put(t->m, b + ov, 0);
  put(t->m, b + ov + 4, head);
  if (head != 0)
    put(t->m, head + ov, (uint32_t)b);
  put(t->m, head_at, (uint32_t)b);
  put(t->m, TLSF_ROOT, get(t->m, TLSF_ROOT) | 1u << fl);
  put(t->m, TLSF_ROOT + 4 + 4 * fl, get(t->m, TLSF_ROOT + 4 + 4 * fl) | 1u << sl);
}

/* Takes the block at b (free, payload size) off its list, as removeBlock
 * does. */
static void tlsf_unlink(tlsf_heap *t, uint64_t b, uint32_t size) {
  uint32_t fl, sl, ov = t->overhead;
  uint64_t head_at = tlsf_head(size, &fl, &sl);
  uint32_t prev = get(t->m, b + ov), next = get(t->m, b + ov + 4);
  if (prev != 0)
    put(t->m, prev + ov + 4, next);
  if (next != 0)
    put(t->m, next + ov, prev);
  if (get(t->m, head_at) == b) {
    put(t->m, head_at, next);
    if (next == 0) {
      uint32_t sl_map = get(t->m, TLSF_ROOT + 4 + 4 * fl) & ~(1u << sl);
      put(t->m, TLSF_ROOT + 4 + 4 * fl, sl_map);
      if (sl_map == 0)
        put(t->m, TLSF_ROOT, get(t->m, TLSF_ROOT) & ~(1u << fl));
    }
  }
}

/* Ends the heap at end (a multiple of 16): the top block (free) from
 * t->top, the tail after it. */
static void tlsf_close(tlsf_heap *t, uint64_t end) {
  uint32_t ov = t->overhead;
  t->tail = end - ov;
  uint32_t size = (uint32_t)(t->tail - t->top - ov);
  tlsf_free(t, t->top, size, 0);
  put(t->m, t->tail, 2u);
  put(t->m, TLSF_ROOT + TLSF_TAIL_AT, (uint32_t)t->tail);
  t->e.top = size + ov;
  t->e.heap = t->tail + ov - t->first;
}

/* Builds n blocks of seeded sizes, about 30 % free (never two in a row,
 * the last in use), then the top up to end, in a memory of len bytes with
 * static noise below the root. */
static void tlsf_build(tlsf_heap *t, size_t len, uint32_t overhead, uint64_t end,
                       uint32_t n, uint32_t seed) {
  memset(t, 0, sizeof *t);
  t->m = calloc(1, len);
  t->len = len;
  t->overhead = overhead;
  noise(t->m, 0, TLSF_ROOT, seed ^ 0x7777);
  uint32_t rest = (16 - overhead % 16) % 16;
  t->first = ((TLSF_ROOT + 1572 + overhead + 15) & ~15ull) - overhead;
  uint64_t b = t->first;
  uint32_t left_free = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = rng_next(&seed);
    uint32_t size = ((r % 600 + 15) & ~15u) + rest + (overhead == 16 ? 16 : 0);
    int is_free = i + 1 < n && !left_free && (r >> 16) % 10 < 3;
    if (is_free) {
      tlsf_free(t, b, size, 0);
      t->e.free_bytes += size + overhead;
      t->e.free_n++;
      if (size + overhead > t->e.largest)
        t->e.largest = size + overhead;
    } else {
      put(t->m, b, size | (left_free ? 2u : 0));
      add_in_use(&t->e, size + overhead);
      t->e.live -= overhead - 4; /* the payload: the whole size */
    }
    left_free = is_free;
    b += overhead + size;
  }
  t->top = b;
  t->e.segments = 1;
  tlsf_close(t, end);
}

static void test_tlsf(void) {
  for (uint32_t overhead = 4; overhead <= 16; overhead += 12) {
    tlsf_heap t;
    tlsf_build(&t, 0x80000, overhead, 0x60000, 800, 61 + overhead);
    ws_census c;
    ws_census_result r;
    ws_census_init(&c, NULL);
    CHECK(ws_census_take(&c, t.m, t.len, &r) == 0);
    CHECK(r.kind == WS_CENSUS_TLSF && r.state == TLSF_ROOT && r.located == 1);
    CHECK(matches(&r, &t.e));
    CHECK(t.e.in_use > 450 && t.e.free_n > 100 && t.top < 0x60000);
    CHECK(ws_census_take(&c, t.m, t.len, &r) == 0 && r.located == 0);

    /* Being grown, as growMemory's addMemory leaves it: the top takes the
     * old tail and the new pages, the tail moves to the new end. The
     * remembered root re-walks it. */
    uint32_t old_top = (uint32_t)(t.e.top - overhead);
    tlsf_unlink(&t, t.top, old_top);
    tlsf_close(&t, 0x70000);
    CHECK(ws_census_take(&c, t.m, t.len, &r) == 0 && r.located == 0);
    CHECK(matches(&r, &t.e) && r.top_bytes == 0x70000 - overhead - t.top);

    /* Truncated: the memory ends before the tail. */
    CHECK(fresh_take(t.m, 0x50000, &r) == WS_ENOHEAP);

    /* Corrupted, one word at a time (restored after each). */
    uint64_t used = t.first, free_block = 0;
    while (get(t.m, used) & 1u)
      used += overhead + (get(t.m, used) & ~3u);
    for (uint64_t at = t.first; free_block == 0; at += overhead + (get(t.m, at) & ~3u))
      if ((get(t.m, at) & 1u) && at != t.top)
        free_block = at;
    uint32_t free_size = get(t.m, free_block) & ~3u;
    uint32_t fl, sl;
    uint64_t words[] = {used,                                  /* a used block's size */
                        free_block + overhead + free_size - 4, /* a back pointer */
                        free_block + overhead + 4,             /* a free-list link */
                        tlsf_head(free_size, &fl, &sl),        /* a list head */
                        TLSF_ROOT + 4 + 4 * fl,                /* a second-level bitmap */
                        TLSF_ROOT + TLSF_TAIL_AT};             /* the tail */
    int rejected = 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
      uint32_t was = get(t.m, words[i]);
      put(t.m, words[i], was + 16);
      rejected += second_take(t.m, t.len, &r) == WS_ENOHEAP;
      put(t.m, words[i], was);
    }
    CHECK(rejected == (int)(sizeof words / sizeof *words));
    /* A used block that says its left neighbour is free. */
    put(t.m, used, get(t.m, used) ^ 2u);
    CHECK(second_take(t.m, t.len, &r) == WS_ENOHEAP);
    put(t.m, used, get(t.m, used) ^ 2u);
    CHECK(fresh_take(t.m, t.len, &r) == 0 && matches(&r, &t.e));

    /* Without its root, no family claims the blocks. */
    memset(t.m + TLSF_ROOT, 0, 1572);
    CHECK(second_take(t.m, t.len, &r) == WS_ENOHEAP);
    free(t.m);
  }
}

/* ---- ws_loop_census ---- */

typedef struct {
  ws_engine base;
  uint8_t *memory;
  size_t len;
} census_engine;

static int ce_stage(ws_engine *e, uint32_t op, const ws_value *args, uint32_t n) {
  (void)e, (void)op, (void)args, (void)n;
  return 0;
}
static int ce_call(ws_engine *e, uint32_t op) {
  (void)e, (void)op;
  return WS_CALL_RETURNED;
}
static int ce_bytes(ws_engine *e, uint64_t *bytes, uint32_t n) {
  for (uint32_t k = 0; k < n; k++)
    bytes[k] = ((census_engine *)e)->len;
  return 0;
}
static int ce_view(ws_engine *e, uint32_t k, uint8_t **data, size_t *len) {
  census_engine *c = (census_engine *)e;
  (void)k;
  *data = c->memory;
  *len = c->len;
  return 0;
}
static int ce_alloc(ws_engine *e, uint32_t len, uint32_t *ptr) {
  (void)e, (void)len;
  *ptr = 0;
  return 0;
}
static int ce_free(ws_engine *e, uint32_t ptr, uint32_t len) {
  (void)e, (void)ptr, (void)len;
  return 0;
}
static const ws_engine_ops census_ops = {ce_stage, ce_call, ce_bytes, ce_view,
                                         ce_alloc, ce_free, NULL,     NULL};

/* The value of the last metric record with id among rec[0..n), or -1. */
static int64_t metric_value(const ws_record *rec, size_t n, uint16_t id) {
  int64_t v = -1;
  for (size_t i = 0; i < n; i++)
    if (rec[i].type == WS_REC_METRIC && rec[i].op == id)
      v = (int64_t)rec[i].a;
  return v;
}

/* Two memories (both viewing the engine's one heap), a census each. */
static void test_loop_census(void) {
  heap h;
  build_heap(&h, 0x80000, &C_LAYOUT, 16, 0xc0c, 0x10e00, 0x80000, 1000, 71);
  census_engine engine = {{&census_ops}, h.m, h.len};
  size_t bytes = ws_ring_region_bytes(1u << 12);
  void *region = aligned_alloc(64, bytes);
  memset(region, 0, bytes);
  ((int32_t *)region)[WS_CTL_CAPACITY] = 1 << 12;
  ws_ring ring;
  ws_ring_attach(&ring, region, bytes);
  ws_op_spec op = {1, 0, {{0}}};
  ws_loop_config config = {.seed = 1, .iterations = 100, .memories = 2};
  ws_loop *loop;
  CHECK(ws_loop_create(&config, &op, 1, &ring, &engine.base, &loop) == 0);
  CHECK(ws_loop_run(loop, 10, UINT64_MAX / 4) == WS_STATUS_YIELD);
  static ws_record rec[4096];
  ws_ring_pop(&ring, rec, 4096);

  ws_census_hints hints = {.budget_permille = 1000};
  ws_census c;
  ws_census_result r;
  ws_census_init(&c, &hints);
  CHECK(ws_loop_census(loop, 2, &c, 1, &r) == WS_EINVAL);
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_CENSUS_TAKEN);
  CHECK(matches(&r, &h.e) && r.elapsed_ns > 0);
  size_t n = ws_ring_pop(&ring, rec, 4096);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_LIVE) == (int64_t)h.e.live);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_FREE) == (int64_t)h.e.free_bytes);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_TOP) == (int64_t)h.e.top);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_KIND) == WS_CENSUS_DLMALLOC);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_STATE) == (int64_t)(0xc0c + 24));
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_WALK_NS) == (int64_t)r.elapsed_ns);
  int classes_ok = 1;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++) {
    int64_t v = metric_value(rec, n, (uint16_t)(WS_METRIC_CENSUS_CLASS_BASE + k));
    classes_ok &= h.e.classes[k] ? v == (int64_t)h.e.classes[k] : v == -1;
  }
  CHECK(classes_ok);
  int on_last_call = 1;
  for (size_t i = 0; i < n; i++)
    on_last_call &= rec[i].type == WS_REC_METRIC && rec[i].iteration == 9;
  CHECK(on_last_call);

  /* Not recording: nothing in the ring. */
  CHECK(ws_loop_census(loop, 0, &c, 0, &r) == WS_CENSUS_TAKEN && r.located == 0);
  CHECK(ws_ring_pop(&ring, rec, 4096) == 0);

  /* A class seen once is recorded from then on, zero included. */
  uint32_t seen = c.classes_seen;
  CHECK(seen != 0);

  /* Nothing recognised: only the kind (none) and the time. */
  memset(h.m + 0xc0c, 0, 1024);
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_ENOHEAP);
  n = ws_ring_pop(&ring, rec, 4096);
  CHECK(n == 2 && metric_value(rec, n, WS_METRIC_CENSUS_KIND) == 0);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_WALK_NS) >= 0);

  /* The budget: a census due sooner than its share allows is skipped. */
  write_state(h.m, 0xc0c, &C_LAYOUT, h.top, h.topsize, h.base, h.end - h.base, 0);
  c.hints.budget_permille = 50;
  c.last_cost_ns = 1000000000000ull; /* as if the last one took 1000 s */
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_CENSUS_SKIPPED);
  CHECK(ws_ring_pop(&ring, rec, 4096) == 0);
  /* Long after the last one, but the run's censuses (the floor's too) have
   * spent its share already. */
  c.last_cost_ns = 1;
  c.last_end_ns = 0;
  c.spent_ns = 1000000000000ull;
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_CENSUS_SKIPPED);
  CHECK(ws_ring_pop(&ring, rec, 4096) == 0);
  /* The share is the run's: another memory's census that spent it holds
   * this one back too, through the time they share. */
  uint64_t run_spent = 1000000000000ull;
  c.spent_ns = 0;
  c.run_spent_ns = &run_spent;
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_CENSUS_SKIPPED);
  CHECK(ws_ring_pop(&ring, rec, 4096) == 0);
  run_spent = 0;
  c.last_cost_ns = 0;
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_CENSUS_TAKEN);
  CHECK(run_spent == r.elapsed_ns && c.spent_ns == r.elapsed_ns);
  ws_ring_pop(&ring, rec, 4096);
  c.run_spent_ns = NULL;
  c.spent_ns = 1000000000000ull;
  c.last_cost_ns = 0;
  uint64_t spent_before = c.spent_ns;
  CHECK(ws_loop_census(loop, 0, &c, 1, &r) == WS_CENSUS_TAKEN);
  CHECK(c.spent_ns == spent_before + r.elapsed_ns);
  n = ws_ring_pop(&ring, rec, 4096);
  int zero_class_recorded = 0;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++)
    if (seen & (1u << k))
      zero_class_recorded +=
          metric_value(rec, n, (uint16_t)(WS_METRIC_CENSUS_CLASS_BASE + k)) >= 0;
  CHECK(zero_class_recorded == __builtin_popcount(seen));

  /* Memory 1's census: its series under its own ids (WS_METRIC_CENSUS_STRIDE),
   * none under memory 0's. */
  ws_census c1;
  ws_census_init(&c1, &hints);
  CHECK(ws_loop_census(loop, 1, &c1, 1, &r) == WS_CENSUS_TAKEN);
  n = ws_ring_pop(&ring, rec, 4096);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_STRIDE + WS_METRIC_CENSUS_LIVE) ==
        (int64_t)h.e.live);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_STRIDE + WS_METRIC_CENSUS_KIND) ==
        WS_CENSUS_DLMALLOC);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_LIVE) == -1);
  CHECK(metric_value(rec, n, WS_METRIC_CENSUS_KIND) == -1);
  int classes_shifted = 1;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++)
    if (h.e.classes[k])
      classes_shifted &=
          metric_value(rec, n,
                       (uint16_t)(WS_METRIC_CENSUS_STRIDE + WS_METRIC_CENSUS_CLASS_BASE +
                                  k)) == (int64_t)h.e.classes[k];
  CHECK(classes_shifted);

  /* The budget's clock is the thread's CPU time: 100 ms asleep (wall time,
   * no CPU) is no room for a census that a 2 ms cost and a 5 % share keep
   * 38 ms of CPU apart. On the wall clock it would be taken. */
  ws_census_hints tight = {.budget_permille = 50};
  ws_census c2;
  ws_census_init(&c2, &hints);
  CHECK(ws_loop_census(loop, 0, &c2, 1, &r) == WS_CENSUS_TAKEN);
  ws_ring_pop(&ring, rec, 4096);
  c2.hints = tight;
  c2.last_cost_ns = 2000000;
  c2.spent_ns = 0;
  nanosleep(&(struct timespec){0, 100000000}, NULL);
  CHECK(ws_loop_census(loop, 0, &c2, 1, &r) == WS_CENSUS_SKIPPED);

  ws_loop_destroy(loop);
  free(region);
  free(h.m);
}

/* A search that recognises nothing says what it tried: every family's
 * candidates, and the nearest miss (a dlmalloc state whose walk validated
 * 700 chunks before a corrupt head). */
static void test_nearest_miss(void) {
  heap h;
  build_heap(&h, 0x100000, &C_LAYOUT, 16, 0x2000, 0x20000, 0x100000, 1500, 71);
  put(h.m, nth_chunk(&h, 700) + 4, 0x15); /* FLAG4: never in a head */
  ws_census_result r;
  CHECK(fresh_take(h.m, h.len, &r) == WS_ENOHEAP);
  CHECK(strcmp(ws_census_family_name(WS_CENSUS_FAMILY_dlmalloc), "dlmalloc") == 0);
  CHECK(strcmp(ws_census_family_name(WS_CENSUS_FAMILY_tlsf), "AssemblyScript TLSF") == 0);
  CHECK(strcmp(ws_census_family_name(WS_CENSUS_FAMILY_wee), "wee_alloc") == 0);
  CHECK(strcmp(ws_census_family_name(WS_CENSUS_FAMILY_bump), "bump (never frees)") == 0);
  CHECK(ws_census_family_name(WS_CENSUS_FAMILY_COUNT - 1) != NULL);
  CHECK(ws_census_family_name(WS_CENSUS_FAMILY_COUNT) == NULL);
  CHECK(r.candidates[WS_CENSUS_FAMILY_dlmalloc] >= 1 &&
        r.miss_family == WS_CENSUS_FAMILY_dlmalloc);
  CHECK(r.miss_at == h.state + C_LAYOUT.top && r.miss_chunks == 700);
  /* Memory with nothing to walk: no miss. */
  memset(h.m, 0, h.len);
  CHECK(fresh_take(h.m, h.len, &r) == WS_ENOHEAP && r.miss_family == -1);
  /* It says what every family looked for. */
  CHECK(strstr(r.reason, "no allocator state was found") != NULL);
#define CHECK_SOUGHT(family, name, sought, kinds) CHECK(strstr(r.reason, sought) != NULL);
  WS_CENSUS_FAMILIES(CHECK_SOUGHT, WS_CENSUS_NO_KIND)
#undef CHECK_SOUGHT
  free(h.m);
}

/* Every kind of WS_CENSUS_FAMILIES has its row's description. */
static void test_kind_text(void) {
#define CHECK_TEXT(name, value, js, text)                                                \
  CHECK(strcmp(ws_census_kind_text(WS_CENSUS_##name), text) == 0);
  WS_CENSUS_KINDS(CHECK_TEXT)
#undef CHECK_TEXT
  CHECK(strstr(ws_census_kind_text(WS_CENSUS_DLMALLOC_RUST), "Rust") != NULL);
  CHECK(strstr(ws_census_kind_text(WS_CENSUS_DLMALLOC), "C layout") != NULL);
  CHECK(strcmp(ws_census_kind_text(WS_CENSUS_EMMALLOC), "emmalloc") == 0);
  CHECK(strcmp(ws_census_kind_text(99), "unknown") == 0);
  CHECK(strcmp(ws_errname(WS_ENOHEAP), "WS_ENOHEAP") == 0);
}

int main(void) {
  test_c_layout_wasi();
  test_c_layout_emscripten();
  test_rust_layout();
  test_stable_kind();
  test_empty_and_classes();
  test_segments();
  test_growth();
  test_corruptions();
  test_no_false_recognition();
  test_limits();
  test_emmalloc();
  test_emmalloc_many_blocks();
  test_tlsf();
  test_loop_census();
  test_nearest_miss();
  test_kind_text();
  return check_report("census");
}
