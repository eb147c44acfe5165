/* Synthetic dlmalloc heaps for the census tests (test_census.c,
 * test_blocks.c), built in byte arrays like dlmalloc leaves them: chunks,
 * segments, the top chunk and the state, in C's layout or the Rust crate's,
 * with what a correct census of them reports. Test-only. */
#ifndef WS_TEST_DLHEAP_H
#define WS_TEST_DLHEAP_H

#include <stdlib.h>
#include <string.h>

#include "ws.h"

#define PINUSE 1u
#define CINUSE 2u

/* ---- memory helpers ---- */

static inline void put(uint8_t *m, uint64_t at, uint32_t v) {
  m[at] = (uint8_t)v;
  m[at + 1] = (uint8_t)(v >> 8);
  m[at + 2] = (uint8_t)(v >> 16);
  m[at + 3] = (uint8_t)(v >> 24);
}

static inline uint32_t get(const uint8_t *m, uint64_t at) {
  return (uint32_t)m[at] | (uint32_t)m[at + 1] << 8 | (uint32_t)m[at + 2] << 16 |
         (uint32_t)m[at + 3] << 24;
}

static inline uint32_t rng_next(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

/* Fills m[from..to) with seeded random bytes. */
static inline void noise(uint8_t *m, uint64_t from, uint64_t to, uint32_t seed) {
  for (uint64_t at = from; at < to; at++)
    m[at] = (uint8_t)rng_next(&seed);
}

/* ---- dlmalloc builder ---- */

/* What a correct census of a built heap reports. */
typedef struct {
  uint64_t live, gross, in_use, free_bytes, free_n, largest, top, heap;
  uint64_t classes[WS_CENSUS_CLASSES];
  uint32_t segments;
} expect;

/* Field offsets from the state's start: `top`, `topsize`, the segment. */
typedef struct {
  uint32_t top, topsize, seg, bins;
} layout;

static const layout C_LAYOUT = {24, 12, 448, 40}; /* malloc_state, no locks */
/* dlmalloc built with USE_LOCKS (wasi-libc's threaded builds): mflags at
 * +444 has USE_LOCK_BIT, and a 4-byte mutex at +448 puts the segment at +452. */
static const layout LOCKED_LAYOUT = {24, 12, 452, 40};
#define LOCKED_MFLAGS 444u
#define LOCKED_MUTEX 448u
#define USE_LOCK_BIT 2u
static const layout RUST_LAYOUT = {412, 404, 424, 8}; /* Dlmalloc<A>, declared order */

/* Builds one segment's chunks like dlmalloc leaves them. */
typedef struct {
  uint8_t *m;
  uint32_t align, foot, record;
  uint64_t p, base, end;
  uint32_t prev_inuse;
  expect *e;
} seg_builder;

static inline void seg_begin(seg_builder *b, uint8_t *m, uint32_t align, uint64_t base,
                             expect *e) {
  uint32_t mask = align - 1;
  b->m = m;
  b->align = align;
  b->record = (20 + mask) & ~mask;
  b->foot = (align - 8 % align) % align + b->record + 16;
  b->base = base;
  b->p = base + ((align - ((base + 8) & mask)) & mask);
  b->prev_inuse = 1;
  b->e = e;
}

static inline void add_in_use(expect *e, uint64_t size) {
  e->live += size - 4;
  e->gross += size;
  e->in_use++;
  int k = 0;
  while ((size >> (k + 1)) != 0)
    k++;
  e->classes[k]++;
}

/* Appends a chunk of size bytes, in use or free. */
static inline void chunk(seg_builder *b, uint32_t size, int in_use) {
  put(b->m, b->p + 4, size | (b->prev_inuse ? PINUSE : 0) | (in_use ? CINUSE : 0));
  if (in_use) {
    add_in_use(b->e, size);
  } else {
    put(b->m, b->p + size, size); /* the next chunk's prev_foot */
    b->e->free_bytes += size;
    b->e->free_n++;
    if (size > b->e->largest)
      b->e->largest = size;
  }
  b->prev_inuse = in_use != 0;
  b->p += size;
}

/* Appends n chunks of seeded sizes (16..512 bytes), about 30 % free, never
 * two free in a row, the last one in use. */
static inline void chunks(seg_builder *b, uint32_t n, uint32_t seed) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = rng_next(&seed);
    uint32_t size = (16 + r % 497 + b->align - 1) & ~(b->align - 1);
    int in_use = i + 1 == n || !b->prev_inuse || (r >> 16) % 10 >= 3;
    chunk(b, size, in_use);
  }
}

/* Ends the top segment at end: the rest is the top chunk. Returns its
 * address; stores its size. */
static inline uint64_t seg_top(seg_builder *b, uint64_t end, uint64_t *topsize) {
  uint64_t top = b->p;
  *topsize = end - b->foot - top;
  put(b->m, top + 4, (uint32_t)*topsize | PINUSE);
  put(b->m, top + *topsize + 4, b->foot);
  b->end = end;
  b->e->top += *topsize;
  b->e->heap += end - b->base;
  b->e->segments++;
  return top;
}

/* Ends an older segment as add_segment does: the record chunk (in use),
 * then fenceposts. Writes the record { base, size, next, flags }. Returns
 * the record's address. */
static inline uint64_t seg_close(seg_builder *b, uint64_t next) {
  uint64_t chunk_at = b->p, record = chunk_at + 8;
  put(b->m, chunk_at + 4, b->record | (b->prev_inuse ? PINUSE : 0) | CINUSE);
  b->end = chunk_at + b->record + 16;
  for (uint64_t at = chunk_at + b->record + 4; at < b->end; at += 4)
    put(b->m, at, 7);
  put(b->m, record, (uint32_t)b->base);
  put(b->m, record + 4, (uint32_t)(b->end - b->base));
  put(b->m, record + 8, (uint32_t)next);
  put(b->m, record + 12, 0);
  b->e->heap += b->end - b->base;
  b->e->segments++;
  return record;
}

/* Writes a state at state with layout l: top, topsize, the top segment,
 * initialised small bins (pointers into the state, as init_bins leaves
 * them) and a magic word. */
static inline void write_state(uint8_t *m, uint64_t state, const layout *l, uint64_t top,
                               uint64_t topsize, uint64_t base, uint64_t size,
                               uint64_t next) {
  for (uint32_t i = 0; i < 32; i++) {
    uint64_t bin = state + l->bins + 8 * i;
    put(m, bin + 8, (uint32_t)bin);
    put(m, bin + 12, (uint32_t)bin);
  }
  put(m, state + l->top, (uint32_t)top);
  put(m, state + l->topsize, (uint32_t)topsize);
  put(m, state + l->seg, (uint32_t)base);
  put(m, state + l->seg + 4, (uint32_t)size);
  put(m, state + l->seg + 8, (uint32_t)next);
  if (l == &C_LAYOUT)
    put(m, state + 36, 0x555458a8u);
}

/* A one-segment heap in memory m of len bytes: static noise below 1024,
 * the state at state, n chunks from base, the segment up to end. */
typedef struct {
  uint8_t *m;
  size_t len;
  uint64_t state, base, end, top, topsize;
  const layout *l;
  uint32_t align;
  expect e;
} heap;

static inline void build_heap(heap *h, size_t len, const layout *l, uint32_t align,
                              uint64_t state, uint64_t base, uint64_t end, uint32_t n,
                              uint32_t seed) {
  memset(h, 0, sizeof *h);
  h->m = calloc(1, len);
  h->len = len;
  h->l = l;
  h->align = align;
  h->state = state;
  h->base = base;
  h->end = end;
  noise(h->m, 0, 1024, seed ^ 0x1234);
  seg_builder b;
  seg_begin(&b, h->m, align, base, &h->e);
  chunks(&b, n, seed);
  h->top = seg_top(&b, end, &h->topsize);
  write_state(h->m, state, l, h->top, h->topsize, base, end - base, 0);
}

/* Whether r matches e exactly. */
static inline int matches(const ws_census_result *r, const expect *e) {
  int ok = r->tally.live == e->live && r->tally.gross == e->gross &&
           r->tally.in_use == e->in_use && r->tally.free_bytes == e->free_bytes &&
           r->tally.free_n == e->free_n && r->tally.largest == e->largest &&
           r->top_bytes == e->top && r->chunks == e->in_use + e->free_n &&
           r->heap_bytes == e->heap && r->segments == e->segments;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++)
    ok &= r->tally.classes[k] == e->classes[k];
  uint32_t frag =
      e->free_bytes ? (uint32_t)(1000 * (e->free_bytes - e->largest) / e->free_bytes) : 0;
  return ok && r->fragmentation == frag;
}

/* Takes a census with a fresh census object; returns its code. */
static inline int fresh_take(const uint8_t *m, size_t len, ws_census_result *r) {
  ws_census c;
  ws_census_init(&c, NULL);
  return ws_census_take(&c, m, len, r);
}

#endif
