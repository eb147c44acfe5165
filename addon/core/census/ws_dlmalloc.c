/* dlmalloc heaps for the census (ws_census.h). C dlmalloc 2.8 (wasi-libc,
 * Emscripten's default) and Rust's dlmalloc crate share one chunk format:
 * each chunk starts with prev_foot and head (4 bytes each on wasm32); head
 * is size | PINUSE (bit 0, previous chunk in use) | CINUSE (bit 1); a free
 * chunk's size is repeated in the next chunk's prev_foot; two free chunks
 * are never adjacent (they coalesce); the top chunk is the last of its
 * segment, its head is exactly topsize | PINUSE, and the segment ends
 * TOP_FOOT_SIZE bytes after it, where init_top wrote TOP_FOOT_SIZE as a fake
 * chunk's head. Older segments end with the in-use chunk that holds the
 * next segment record and fenceposts (head 7) up to their end. Chunks are
 * aligned so that their payload (chunk + 8) is a multiple of 8 (Emscripten,
 * Rust) or 16 (wasi-libc: max_align_t is 16 bytes), which fixes
 * TOP_FOOT_SIZE at 40 or 56 bytes.
 *
 * The state is found by structure: a word in static memory that points at
 * such a top chunk, the topsize field equal to its size nearby (12 bytes
 * before `top` in C's malloc_state, 8 in the Rust crate's struct), and a
 * segment record { base, size, next } nearby whose base + size is the top
 * segment's end. It lies in static data, below its heap. It is proven by
 * walking every segment. */
#include <string.h>

#include "ws_census.h"
#include "ws_internal.h"

#define PINUSE 1u
#define CINUSE 2u
#define FLAG4 4u
#define FLAG_BITS 7u
#define FENCEPOST_HEAD 7u /* CINUSE | PINUSE | sizeof(size_t) */
#define MIN_CHUNK 16u     /* MIN_CHUNK_SIZE for both alignments */

#define MAX_SEGMENTS 64
#define MAX_FENCE_BYTES 128 /* segment record chunk's end to the segment's end */
#define TOPSIZE_WINDOW 64   /* bytes either side of `top` searched for topsize */
#define SEG_WINDOW 1024     /* bytes either side of `top` searched for the segment */
#define MAX_WALKS 1024      /* candidate walks per locate */
#define PREFETCH_AHEAD 1024 /* bytes ahead of the walk pulled into the cache */

#define C_TOPSIZE_DELTA (-12)   /* malloc_state: topsize at +12, top at +24 */
#define RUST_TOPSIZE_DELTA (-8) /* Dlmalloc<A>: topsize, dv, top */
/* The first segment record after `top` in C's malloc_state: seg at +448,
 * after the bins, footprint, max_footprint, footprint_limit and mflags (and
 * a lock, when built with locks: further still). The Rust crate's struct
 * has no fixed order (rustc reorders fields): its seg was found 300 bytes
 * before top in a release build. */
#define C_SEG_DELTA 424

/* The chunk geometry of one alignment. */
typedef struct {
  uint32_t align;  /* 8 or 16 */
  uint32_t record; /* pad_request(sizeof(msegment)): the record chunk's size */
  uint32_t foot;   /* TOP_FOOT_SIZE */
} geometry;

/* Fills g for align (8 or 16); returns -1 for any other alignment. */
static int geometry_of(uint32_t align, geometry *g) {
  if (align != 8 && align != 16)
    return -1;
  uint32_t payload_offset = (align - 8 % align) % align; /* align_offset(chunk2mem(0)) */
  g->align = align;
  g->record = (16 + 4 + align - 1) & ~(align - 1);
  g->foot = payload_offset + g->record + MIN_CHUNK;
  return 0;
}

/* Walks the chunks of one segment from its first chunk (after base, aligned)
 * to stop, accumulating into out; at most *budget chunks, which it lowers.
 * Stores the PINUSE bit that the chunk at stop must carry in *pinuse.
 * Returns 0 when the walk lands exactly on stop, -1 otherwise. The caller
 * guarantees base <= stop and stop + 8 <= h->len. */
static int walk_chunks(const ws__heap *h, const geometry *g, uint64_t base, uint64_t stop,
                       uint64_t *budget, ws_census_result *out, uint32_t *pinuse) {
  const uint64_t mask = g->align - 1;
  uint64_t p = base + ((g->align - ((base + 8) & mask)) & mask);
  uint64_t n = 0;
  ws__tally t = {0};
  /* Four histograms taken in turn: consecutive chunks of one class would
   * otherwise wait on each other's increment. */
  uint64_t classes[4][WS_CENSUS_CLASSES] = {{0}};
  uint32_t prev = PINUSE;
  const uint64_t limit = *budget;
  while (p < stop) {
    /* Each head's address depends on the previous head: pull the lines
     * ahead into the cache so that the chain of loads does not wait on
     * memory (a hint, inside the view). */
    if (p + PREFETCH_AHEAD < h->len)
      __builtin_prefetch(h->mem + p + PREFETCH_AHEAD);
    uint32_t head = ws__word(h, p + 4);
    uint64_t size = head & ~FLAG_BITS;
    /* One branch for every check a chunk must pass. */
    if ((((head & (PINUSE | FLAG4)) ^ prev) | (size < MIN_CHUNK) | ((size & mask) != 0) |
         (size > stop - p) | (++n > limit)) != 0)
      return ws__walk_failed(h, n - 1);
    if (head & CINUSE) {
      t.gross += size;
      classes[n & 3][ws__size_class(size)]++;
      prev = PINUSE;
      if (h->visit !=
          NULL) /* the payload: after prev_foot and head; the next prev_foot too */
        h->visit(h->visit_ctx, p, size, p + 8, size - 4);
    } else {
      if (prev == 0 || ws__word(h, p + size) != size)
        return ws__walk_failed(h, n - 1);
      t.free_bytes += size;
      t.free_n++;
      t.largest = size > t.largest ? size : t.largest;
      prev = 0;
    }
    p += size;
  }
  if (p != stop)
    return -1;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++) {
    t.classes[k] = classes[0][k] + classes[1][k] + classes[2][k] + classes[3][k];
    t.in_use += t.classes[k];
  }
  t.live = t.gross - 4 * t.in_use; /* CHUNK_OVERHEAD: the head word */
  ws__tally_merge(&out->tally, &t);
  *budget -= n;
  *pinuse = prev;
  return 0;
}

/* Walks the segment that holds the top chunk; returns 0 when it validates. */
static int walk_top_segment(const ws__heap *h, const geometry *g, uint64_t base,
                            uint64_t size, uint64_t top, uint64_t topsize,
                            uint64_t *budget, ws_census_result *out) {
  uint64_t end = base + size;
  uint32_t pinuse;
  if (end > h->len || top < base || top + topsize + g->foot != end ||
      ws__word(h, top + 4) != (topsize | PINUSE) ||
      ws__word(h, top + topsize + 4) != g->foot)
    return -1;
  if (walk_chunks(h, g, base, top, budget, out, &pinuse) != 0 || pinuse != PINUSE)
    return -1;
  out->top_bytes += topsize;
  return 0;
}

/* Walks an older segment [base, base + size) whose record (the next
 * segment's descriptor, pushed by add_segment) is at record; returns 0 when
 * its chunks end exactly at the record's chunk, followed by fenceposts up to
 * the segment's end. */
static int walk_old_segment(const ws__heap *h, const geometry *g, uint64_t base,
                            uint64_t size, uint64_t record, uint64_t *budget,
                            ws_census_result *out) {
  uint64_t end = base + size, chunk = record - 8;
  uint32_t pinuse;
  if (end > h->len || record < base + 8 || ((chunk + 8) & (g->align - 1)) != 0 ||
      chunk + g->record + 8 > end)
    return -1;
  if (walk_chunks(h, g, base, chunk, budget, out, &pinuse) != 0)
    return -1;
  uint32_t head = ws__word(h, chunk + 4);
  if ((head & ~FLAG_BITS) != g->record || (head & (CINUSE | FLAG4)) != CINUSE ||
      (head & PINUSE) != pinuse)
    return -1;
  uint64_t fence = chunk + g->record;
  if (end - fence > MAX_FENCE_BYTES)
    return -1;
  for (uint64_t at = fence + 4; at < end; at += 4)
    if (at + 4 > h->len || ws__word(h, at) != FENCEPOST_HEAD)
      return -1;
  return 0;
}

/* Whether a segment record seg_delta bytes after `top` can be C's. */
static int c_seg(int64_t seg_delta) {
  return seg_delta >= C_SEG_DELTA;
}

/* The kind a layout's field offsets name: C's when topsize and the segment
 * record sit where malloc_state has them, the Rust crate's when topsize
 * sits where it has it. */
static int kind_of(uint64_t top_at, uint64_t topsize_at, uint64_t seg_at) {
  int64_t size_delta = (int64_t)topsize_at - (int64_t)top_at;
  int64_t seg_delta = (int64_t)seg_at - (int64_t)top_at;
  if (size_delta == C_TOPSIZE_DELTA && c_seg(seg_delta))
    return WS_CENSUS_DLMALLOC;
  if (size_delta == RUST_TOPSIZE_DELTA)
    return WS_CENSUS_DLMALLOC_RUST;
  return WS_CENSUS_DLMALLOC_OTHER;
}

/* Whether [base, end) overlaps one of the n segments in seen. */
static int overlaps(const uint64_t (*seen)[2], int n, uint64_t base, uint64_t end) {
  for (int i = 0; i < n; i++)
    if (base < seen[i][1] && seen[i][0] < end)
      return 1;
  return 0;
}

/* Re-walks a dlmalloc heap from the layout census remembers (align,
 * top_at, topsize_at, seg_at). Fills *out (zeroed first; kind and state
 * included) and returns 0 when every segment validates, -1 otherwise.
 * Stores the lowest segment base in *lowest when lowest is not NULL. */
static int walk_heap(const ws__heap *h, const ws_census *census, ws_census_result *out,
                     uint64_t *lowest) {
  geometry g;
  memset(out, 0, sizeof *out);
  if (geometry_of(census->align, &g) != 0 || census->top_at + 4 > h->len ||
      census->topsize_at + 4 > h->len || census->seg_at + 12 > h->len)
    return -1;
  uint64_t top = ws__word(h, census->top_at);
  uint64_t topsize = ws__word(h, census->topsize_at);
  uint64_t base = ws__word(h, census->seg_at);
  uint64_t size = ws__word(h, census->seg_at + 4);
  uint64_t record = ws__word(h, census->seg_at + 8);
  uint64_t budget = h->max_chunks;
  uint64_t seen[MAX_SEGMENTS][2];
  if (top == 0 || ((top + 8) & (g.align - 1)) != 0 ||
      walk_top_segment(h, &g, base, size, top, topsize, &budget, out) != 0)
    return -1;
  seen[0][0] = base;
  seen[0][1] = base + size;
  int n = 1;
  uint64_t low = base;
  while (record != 0) {
    if (n >= MAX_SEGMENTS || record + 12 > h->len)
      return -1;
    base = ws__word(h, record);
    size = ws__word(h, record + 4);
    uint64_t next = ws__word(h, record + 8);
    if (overlaps((const uint64_t(*)[2])seen, n, base, base + size) ||
        walk_old_segment(h, &g, base, size, record, &budget, out) != 0)
      return -1;
    seen[n][0] = base;
    seen[n][1] = base + size;
    n++;
    if (base < low)
      low = base;
    record = next;
  }
  /* The state is static data, below its heap: a look-alike inside the heap
   * (a copy, or a field of an older segment) does not count. */
  if (census->top_at + 4 > low || census->topsize_at + 4 > low ||
      census->seg_at + 12 > low)
    return -1;
  out->kind = kind_of(census->top_at, census->topsize_at, census->seg_at);
  out->state = census->top_at;
  out->segments = (uint32_t)n;
  for (int i = 0; i < n; i++)
    out->heap_bytes += seen[i][1] - seen[i][0];
  ws__census_finish(out);
  if (lowest != NULL)
    *lowest = low;
  return 0;
}

/* The address of the topsize field for a top field at top_at whose chunk
 * has size topsize and whose segment record is at seg_at: C's offset first
 * when the record is where C has it, else the Rust crate's (so that a Rust
 * state whose dvsize, 12 bytes before top, equals topsize is not read as
 * C's), when it holds topsize; else the other of the two; else the nearest
 * word within TOPSIZE_WINDOW that does. Returns 0 when none does (address 0
 * is never a field of the state: it is below the data). */
static uint64_t find_topsize(const ws__heap *h, uint64_t top_at, uint64_t seg_at,
                             uint32_t topsize) {
  int64_t seg_delta = (int64_t)seg_at - (int64_t)top_at;
  int64_t first = c_seg(seg_delta) ? C_TOPSIZE_DELTA : RUST_TOPSIZE_DELTA;
  const int64_t preferred[] = {first, first == C_TOPSIZE_DELTA ? RUST_TOPSIZE_DELTA
                                                               : C_TOPSIZE_DELTA};
  for (size_t i = 0; i < sizeof preferred / sizeof *preferred; i++) {
    int64_t at = (int64_t)top_at + preferred[i];
    if (at > 0 && ws__word(h, (uint64_t)at) == topsize)
      return (uint64_t)at;
  }
  for (int64_t d = 4; d <= TOPSIZE_WINDOW; d += 4) {
    int64_t below = (int64_t)top_at - d;
    uint64_t above = top_at + (uint64_t)d;
    if (below > 0 && d != -C_TOPSIZE_DELTA && d != -RUST_TOPSIZE_DELTA &&
        ws__word(h, (uint64_t)below) == topsize)
      return (uint64_t)below;
    if (above + 4 <= h->len && ws__word(h, above) == topsize)
      return above;
  }
  return 0;
}

/* Whether kind names a known state layout (C's or the Rust crate's). */
static int known_layout(int kind) {
  return kind == WS_CENSUS_DLMALLOC || kind == WS_CENSUS_DLMALLOC_RUST;
}

/* The family's re-walk (ws__family.walk). */
static int walk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  return walk_heap(h, census, out, NULL);
}

/* Examines the word w at address p as dlmalloc's `top` field (ws__family
 * try_word): when it points at a top chunk, finds topsize and a segment
 * record nearby, walks each candidate layout and keeps in s the one
 * spanning the most heap, lowering s->scan_end to its lowest segment base
 * (the state lies below its heap). */
static void try_word(const ws__heap *h, uint64_t p, uint32_t w, ws__search *s) {
  uint64_t top = w;
  if ((w & 7) != 0 || top < 8 || top + 16 > h->len)
    return;
  uint32_t head = ws__word(h, top + 4);
  uint64_t topsize = head & ~FLAG_BITS;
  if ((head & FLAG_BITS) != PINUSE || topsize == 0 || top + topsize + 8 > h->len)
    return;
  uint32_t foot = ws__word(h, top + topsize + 4);
  uint32_t align = foot == 40 ? 8 : foot == 56 ? 16 : 0;
  if (align == 0 || (topsize & (align - 1)) != 0 || ((top + 8) & (align - 1)) != 0 ||
      top + topsize + foot > h->len)
    return;
  uint64_t end = top + topsize + foot;
  uint64_t from = p > SEG_WINDOW ? p - SEG_WINDOW : 0;
  for (uint64_t q = from; q <= p + SEG_WINDOW && q + 12 <= h->len; q += 4) {
    uint64_t base = ws__word(h, q), size = ws__word(h, q + 4);
    if (base > top || base + size != end)
      continue;
    uint64_t topsize_at = find_topsize(h, p, q, (uint32_t)topsize);
    if (topsize_at == 0)
      continue;
    int kind = kind_of(p, topsize_at, q);
    /* Equal values walk alike: each candidate heap is walked once. A copy
     * of the state's fields (on the shadow stack, which lies below static
     * data in Rust builds) has the values of the state itself, so a known
     * layout met after such a copy is adopted without another walk: the
     * kind is the state's, whichever copy the scan meets first. */
    uint32_t key[6] = {align,          (uint32_t)top,  (uint32_t)topsize,
                       (uint32_t)base, (uint32_t)size, ws__word(h, q + 8)};
    int known = 0;
    for (uint32_t i = 0; i < s->n_keys && !known; i++)
      known = memcmp(s->keys[i], key, sizeof key) == 0;
    if (known) {
      if (s->census.kind == WS_CENSUS_DLMALLOC_OTHER && known_layout(kind) &&
          memcmp(s->best_key, key, sizeof key) == 0 && p + 4 <= s->low &&
          topsize_at + 4 <= s->low && q + 12 <= s->low) {
        s->census.top_at = p;
        s->census.topsize_at = topsize_at;
        s->census.seg_at = q;
        s->census.kind = s->out.kind = kind;
        s->out.state = p;
      }
      continue;
    }
    if (s->n_keys < WS__SEARCH_KEYS)
      memcpy(s->keys[s->n_keys++], key, sizeof key);
    if (s->tried >= MAX_WALKS)
      continue;
    s->tried++;
    ws_census trial = s->census;
    trial.align = align;
    trial.top_at = p;
    trial.topsize_at = topsize_at;
    trial.seg_at = q;
    ws_census_result r;
    uint64_t low;
    if (walk_heap(h, &trial, &r, &low) != 0) {
      ws__search_missed(h, s, p);
      continue;
    }
    int found = s->census.kind != WS_CENSUS_NONE;
    if (!found || r.heap_bytes > s->out.heap_bytes ||
        (r.heap_bytes == s->out.heap_bytes && !known_layout(s->out.kind) &&
         known_layout(r.kind))) {
      trial.kind = r.kind;
      s->census = trial;
      s->out = r;
      s->low = low;
      memcpy(s->best_key, key, sizeof key);
    }
    if (low < s->scan_end)
      s->scan_end = low;
  }
}

const ws__family ws__dlmalloc_family = {
    .step = 4, .pointers_only = 1, .try_word = try_word, .walk = walk};
