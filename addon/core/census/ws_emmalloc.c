/* emmalloc heaps for the census (ws_census.h), as Emscripten 3.1 lays them
 * out (system/lib/emmalloc.c). Memory from sbrk is a list of blocks; the
 * static `listOfAllRegions` points at the newest block's root region, whose
 * words are { size, next root, end of block, ... }. A block is a run of
 * regions that lie next to each other: each region starts with its size and
 * ends with the same size (in use) or the size | 1 (free); sizes are
 * multiples of 4, at least 16; two free regions are never adjacent; a free
 * region's next two words link it into a circular free list whose other
 * members point back at it; the block ends with a 16-byte in-use sentinel
 * region. The root and the sentinel are emmalloc's own (not counted); the
 * free region right before the newest block's sentinel is the wilderness
 * (top).
 *
 * The list head is found by structure: a word in static memory that points
 * at a root region whose end-of-block word points just past a sentinel; it
 * lies in static data, below every block. It is proven by walking every
 * block region by region to its end. */
#include <string.h>

#include "ws_census.h"
#include "ws_internal.h"

#define FREE_FLAG 1u
#define REGION_MIN 16u     /* header + footer + the smallest payload (8 bytes) */
#define HEADER_BYTES 8u    /* size at both ends */
#define SENTINEL_BYTES 16u /* sizeof(Region) */
#define ROOT_MAX 64u       /* a root region: 16 bytes, grown by alignment padding */
#define MAX_WALKS 1024

/* Checks that the free region at r is linked: its prev's next and its
 * next's prev are r. */
static int linked(const ws__heap *h, uint64_t r) {
  uint64_t prev = ws__word(h, r + 4), next = ws__word(h, r + 8);
  return prev + 12 <= h->len && next + 8 <= h->len && ws__word(h, prev + 8) == r &&
         ws__word(h, next + 4) == r;
}

/* Walks the block from its root region to end, accumulating into out; at
 * most *budget regions, which it lowers. The free region before the
 * sentinel is the top when newest != 0. Returns 0 when the regions tile the
 * block exactly and end in the sentinel. */
static int walk_block(const ws__heap *h, uint64_t root, uint64_t end, int newest,
                      uint64_t *budget, ws_census_result *out) {
  uint64_t r = root, n = 0, last_size = 0, top = 0;
  ws__tally t = {0};
  int prev_free = 0;
  while (r < end) {
    if (end - r < REGION_MIN || ++n > *budget)
      return ws__walk_failed(h, n - 1);
    uint64_t size = ws__word(h, r);
    if (size < REGION_MIN || (size & 3) != 0 || size > end - r)
      return ws__walk_failed(h, n - 1);
    uint32_t ceiling = ws__word(h, r + size - 4);
    int is_free;
    if (ceiling == size)
      is_free = 0;
    else if (ceiling == (size | FREE_FLAG))
      is_free = 1;
    else
      return ws__walk_failed(h, n - 1);
    if (is_free) {
      if (prev_free || !linked(h, r))
        return ws__walk_failed(h, n - 1);
      if (newest && r + size == end - SENTINEL_BYTES) {
        top = size;
      } else {
        t.free_bytes += size;
        t.free_n++;
        if (size > t.largest)
          t.largest = size;
      }
    } else if (r != root && r + size != end) {
      t.gross += size;
      t.live += size - HEADER_BYTES;
      t.in_use++;
      t.classes[ws__size_class(size)]++;
      if (h->visit != NULL) /* the payload: between the size at each end */
        h->visit(h->visit_ctx, r, size, r + 4, size - HEADER_BYTES);
    }
    prev_free = is_free;
    last_size = size;
    r += size;
  }
  if (r != end || last_size != SENTINEL_BYTES || prev_free)
    return -1;
  ws__tally_merge(&out->tally, &t);
  out->top_bytes += top;
  *budget -= n;
  return 0;
}

/* Whether root looks like a block's root region: in use, small, its end
 * word past it and just after a sentinel. Stores the end in *end. */
static int root_shape(const ws__heap *h, uint64_t root, uint64_t *end) {
  if ((root & 3) != 0 || root == 0 || root + 12 > h->len)
    return 0;
  uint64_t size = ws__word(h, root);
  if (size < SENTINEL_BYTES || size > ROOT_MAX || (size & 3) != 0 ||
      root + size > h->len || ws__word(h, root + size - 4) != size)
    return 0;
  uint64_t e = ws__word(h, root + 8);
  if ((e & 3) != 0 || e < root + size + SENTINEL_BYTES || e > h->len ||
      ws__word(h, e - SENTINEL_BYTES) != SENTINEL_BYTES ||
      ws__word(h, e - 4) != SENTINEL_BYTES)
    return 0;
  *end = e;
  return 1;
}

/* Re-walks an emmalloc heap from the block list head remembered in
 * census->top_at (ws__family walk). Fills *out (zeroed first) and returns 0
 * when every block validates, -1 otherwise. */
static int walk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  memset(out, 0, sizeof *out);
  if (census->top_at + 4 > h->len)
    return -1;
  uint64_t root = ws__word(h, census->top_at), end;
  uint64_t budget = h->max_chunks;
  /* sbrk only grows, so each older block lies wholly below the newer one:
   * the list runs down through memory, which also rules out cycles and
   * overlaps, for any number of blocks. */
  uint64_t below = UINT64_MAX;
  uint32_t n = 0;
  while (root != 0) {
    if (!root_shape(h, root, &end) || end > below)
      return -1;
    if (walk_block(h, root, end, n == 0, &budget, out) != 0)
      return -1;
    out->heap_bytes += end - root;
    below = root;
    n++;
    root = ws__word(h, root + 4);
  }
  /* The list head is static data, below every block: a root's link to an
   * older root (inside the heap) does not count as the head. */
  if (n == 0 || census->top_at + 4 > below)
    return -1;
  out->kind = WS_CENSUS_EMMALLOC;
  out->state = census->top_at;
  out->segments = n;
  ws__census_finish(out);
  return 0;
}

/* Examines the word w at address p as emmalloc's block list head
 * (ws__family try_word): when it points at a root region, walks the blocks
 * and keeps in s the candidate spanning the most heap, lowering
 * s->scan_end to its lowest block. */
static void try_word(const ws__heap *h, uint64_t p, uint32_t w, ws__search *s) {
  uint64_t end;
  if (s->tried >= MAX_WALKS || !root_shape(h, w, &end))
    return;
  for (uint32_t i = 0; i < s->n_keys; i++)
    if (s->keys[i][0] == w)
      return;
  if (s->n_keys < WS__SEARCH_KEYS)
    s->keys[s->n_keys++][0] = w;
  ws_census trial = s->census;
  trial.kind = WS_CENSUS_EMMALLOC;
  trial.top_at = p;
  if (ws__search_keep(h, s, &trial, walk) == 0 && w < s->scan_end)
    s->scan_end = w; /* the head lies below every block, the newest included */
}

const ws__family ws__emmalloc_family = {
    .step = 4, .pointers_only = 1, .try_word = try_word, .walk = walk};
