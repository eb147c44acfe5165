/* What leaked blocks hold (ws_blocks.h): the mark's bitmap of in-use chunk
 * addresses, and the pick of new chunks in the classes that grew, both
 * through one visited walk of the census (ws__census_visit). */
#include <stdlib.h>
#include <string.h>

#include "ws_blocks.h"
#include "ws_error.h"
#include "ws_internal.h"
#include "ws_rng.h"

/* The smallest granule: no chunk of any recognised allocator is smaller. */
#define MIN_SHIFT 4u

void ws_blocks_mark_free(ws_blocks_mark *mark) {
  free(mark->bits);
  memset(mark, 0, sizeof *mark);
}

/* Whether the mark had an in-use chunk starting in chunk's granule. */
static int marked(const ws_blocks_mark *mark, uint64_t chunk) {
  if (chunk >= mark->covered)
    return 0;
  uint64_t i = chunk >> mark->shift;
  return (mark->bits[i >> 3] >> (i & 7)) & 1;
}

/* The visitor of a mark's walk: sets chunk's granule's bit. */
static void mark_chunk(void *ctx, uint64_t chunk, uint64_t size, uint64_t payload,
                       uint64_t payload_bytes) {
  (void)size;
  (void)payload;
  (void)payload_bytes;
  ws_blocks_mark *mark = ctx;
  if (chunk >= mark->covered)
    return;
  uint64_t i = chunk >> mark->shift;
  mark->bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The bytes of a bitmap with a bit per granule of 2^shift bytes in
 * covered bytes. */
static size_t bitmap_bytes(uint64_t covered, uint32_t shift) {
  return (size_t)(((covered >> shift) + 8) / 8);
}

/* Forgets what a failed walk marked: clears the bitmap. */
static void mark_reset(void *ctx) {
  ws_blocks_mark *mark = ctx;
  memset(mark->bits, 0, bitmap_bytes(mark->covered, mark->shift));
}

int ws_blocks_mark_take(ws_blocks_mark *mark, ws_census *census, const uint8_t *mem,
                        size_t len) {
  ws_blocks_mark_free(mark);
  uint32_t shift = MIN_SHIFT;
  while (bitmap_bytes(len, shift) > WS_BLOCKS_MARK_MAX_BYTES)
    shift++;
  mark->bits = calloc(bitmap_bytes(len, shift), 1);
  if (mark->bits == NULL)
    return WS_ENOMEM;
  mark->shift = shift;
  mark->covered = (uint64_t)len;
  ws_census_result r;
  int rc = ws__census_visit(census, mem, len, mark_chunk, mark_reset, mark, &r);
  if (rc != 0) {
    ws_blocks_mark_free(mark);
    return rc;
  }
  memcpy(mark->classes, r.tally.classes, sizeof mark->classes);
  mark->in_use_chunks = r.tally.in_use;
  return 0;
}

/* A pick in progress: per size class, a reservoir of WS_BLOCKS_MAX new
 * chunks and how many new chunks the class had. */
typedef struct {
  const ws_blocks_mark *mark;
  uint64_t seed;
  ws_rng rng;
  uint64_t seen[WS_CENSUS_CLASSES];
  ws_block pool[WS_CENSUS_CLASSES][WS_BLOCKS_MAX];
} pick_state;

/* The visitor of a pick's walk: offers a chunk absent from the mark to its
 * class's reservoir (Algorithm R). Only addresses are kept here: the bytes
 * are copied once the walk has validated. */
static void pick_chunk(void *ctx, uint64_t chunk, uint64_t size, uint64_t payload,
                       uint64_t payload_bytes) {
  pick_state *s = ctx;
  if (marked(s->mark, chunk))
    return;
  unsigned k = ws__size_class(size);
  uint64_t i = s->seen[k]++;
  uint64_t slot = i < WS_BLOCKS_MAX ? i : ws_rng_range(&s->rng, 0, i);
  if (slot >= WS_BLOCKS_MAX)
    return;
  ws_block *b = &s->pool[k][slot];
  b->address = payload;
  b->size = payload_bytes;
  b->size_class = k;
}

/* Forgets what a failed walk offered: empties the reservoirs and reseeds
 * (the pick stays a function of the seed and the heap). */
static void pick_reset(void *ctx) {
  pick_state *s = ctx;
  memset(s->seen, 0, sizeof s->seen);
  memset(s->pool, 0, sizeof s->pool);
  ws_rng_seed(&s->rng, s->seed);
}

/* Orders blocks by address (qsort). */
static int by_address(const void *pa, const void *pb) {
  const ws_block *a = pa, *b = pb;
  return (a->address > b->address) - (a->address < b->address);
}

/* Shares max slots among the classes that grew (gains[k] > 0) by the
 * highest averages (D'Hondt): each slot goes to the class with the largest
 * gain / (slots taken + 1) that still has a new chunk unused (seen), the
 * lower class on ties. Stores each class's slots in take[]; returns the
 * slots given. */
static uint32_t share_slots(const uint64_t *gains, const uint64_t *seen, uint32_t max,
                            uint32_t *take) {
  memset(take, 0, WS_CENSUS_CLASSES * sizeof *take);
  uint32_t given = 0;
  for (; given < max; given++) {
    int best = -1;
    for (int k = 0; k < WS_CENSUS_CLASSES; k++) {
      uint64_t pool = seen[k] < WS_BLOCKS_MAX ? seen[k] : WS_BLOCKS_MAX;
      if (gains[k] == 0 || take[k] >= pool)
        continue;
      /* gains[k] / (take[k] + 1) > gains[best] / (take[best] + 1), exactly */
      if (best < 0 ||
          (double)gains[k] * (take[best] + 1) > (double)gains[best] * (take[k] + 1))
        best = k;
    }
    if (best < 0)
      break;
    take[best]++;
  }
  return given;
}

int ws_blocks_pick(const ws_blocks_mark *mark, ws_census *census, const uint8_t *mem,
                   size_t len, uint64_t seed, ws_block *out, uint32_t max, uint32_t *n) {
  *n = 0;
  if (max > WS_BLOCKS_MAX)
    return WS_EINVAL;
  if (mark->bits == NULL || max == 0)
    return 0;
  pick_state *s = calloc(1, sizeof *s);
  if (s == NULL)
    return WS_ENOMEM;
  s->mark = mark;
  s->seed = seed;
  ws_rng_seed(&s->rng, seed);
  ws_census_result r;
  int rc = ws__census_visit(census, mem, len, pick_chunk, pick_reset, s, &r);
  if (rc != 0) {
    free(s);
    return rc;
  }
  uint64_t gains[WS_CENSUS_CLASSES];
  for (int k = 0; k < WS_CENSUS_CLASSES; k++)
    gains[k] =
        r.tally.classes[k] > mark->classes[k] ? r.tally.classes[k] - mark->classes[k] : 0;
  uint32_t take[WS_CENSUS_CLASSES];
  uint32_t count = share_slots(gains, s->seen, max, take);
  uint32_t at = 0;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++)
    for (uint32_t j = 0; j < take[k]; j++)
      out[at++] = s->pool[k][j];
  free(s);
  qsort(out, count, sizeof *out, by_address);
  for (uint32_t i = 0; i < count; i++) {
    ws_block *b = &out[i];
    uint64_t want = b->size < WS_BLOCK_BYTES ? b->size : WS_BLOCK_BYTES;
    uint64_t room = b->address < len ? (uint64_t)len - b->address : 0;
    b->n_bytes = (uint32_t)(want < room ? want : room);
    memset(b->bytes, 0, sizeof b->bytes);
    if (b->n_bytes > 0)
      memcpy(b->bytes, mem + b->address, b->n_bytes);
  }
  *n = count;
  return 0;
}
