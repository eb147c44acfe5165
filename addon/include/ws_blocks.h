/* What leaked blocks hold (on the heap census, ws_census.h): a mark records
 * which chunks are in use at one point of the run (after warm-up: the caller
 * chooses when), and a pick at the end chooses a few chunks in use then that
 * were not in use at the mark, in the size classes that grew since it, and
 * copies their first bytes. Strings inside leaked blocks are often the
 * fastest clue to what leaks.
 *
 * The mark is a bitmap by address granule: bit i is set when an in-use chunk
 * starts in granule i (of 2^shift bytes). Chunks are at least 16 bytes, so
 * with 16-byte granules no two share one; a memory too large for the bitmap
 * to stay within WS_BLOCKS_MARK_MAX_BYTES gets coarser granules, which can
 * only hide a new chunk (one that shares a granule with an old one), never
 * show an old one as new. A chunk freed after the mark and another allocated
 * at its address is taken for old: the pick may miss it, never mislabel it.
 * Single-threaded; the caller owns the mark. */
#ifndef WS_BLOCKS_H
#define WS_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "ws_census.h"

/* Blocks one pick returns at most, and the bytes of each it copies at most:
 * a few hundred bytes of the module's memory per finding. */
#define WS_BLOCKS_MAX 4
#define WS_BLOCK_BYTES 64

/* The largest bitmap a mark keeps (4 MiB: 16-byte granules up to 512 MiB of
 * memory, 128-byte granules for a full 4 GiB wasm32 memory). */
#define WS_BLOCKS_MARK_MAX_BYTES (4u << 20)

/* The in-use chunks at the mark. Zero-initialise it; ws_blocks_mark_free
 * releases it. */
typedef struct {
  uint8_t *bits;                       /* the bitmap; NULL before a mark is taken */
  uint64_t covered;                    /* bytes of memory it covers, from address 0 */
  uint32_t shift;                      /* log2 of the granule, 4 or more */
  uint64_t classes[WS_CENSUS_CLASSES]; /* in-use chunks by size class at the mark */
  uint64_t in_use_chunks;              /* their count */
} ws_blocks_mark;

/* One block picked: a chunk in use at the end and not at the mark. */
typedef struct {
  uint64_t address;    /* its payload's address in linear memory */
  uint64_t size;       /* the payload's usable bytes */
  uint32_t size_class; /* its chunk's size class (ws_census_result.tally.classes) */
  uint32_t n_bytes;    /* bytes copied into bytes: min(size, WS_BLOCK_BYTES) */
  uint8_t bytes[WS_BLOCK_BYTES]; /* the payload's first bytes */
} ws_block;

/* Marks the chunks in use in the heap census recognises in mem[0..len)
 * (read only), replacing any earlier mark. Walks the heap once (locating
 * the allocator first when census has no valid state). Returns 0,
 * WS_ENOHEAP when no allocator is recognised (the mark is then empty: bits
 * NULL), or WS_ENOMEM. */
int ws_blocks_mark_take(ws_blocks_mark *mark, ws_census *census, const uint8_t *mem,
                        size_t len);

/* Picks up to max (at most WS_BLOCKS_MAX) blocks of the heap in mem[0..len)
 * in use now and not at mark, in the size classes whose in-use chunk count
 * rose since the mark: the blocks go to the classes in proportion to their
 * gains (largest gain first; a class with fewer new chunks than its share
 * passes the rest on), each class's chosen uniformly among its new chunks
 * by a reservoir seeded with seed (deterministic for a seed and a heap),
 * and are returned in address order in out[0..*n). One walk of the heap.
 * Returns 0 (*n is 0 when nothing grew or there is no mark), WS_ENOHEAP
 * when no allocator is recognised, WS_EINVAL for max above WS_BLOCKS_MAX. */
int ws_blocks_pick(const ws_blocks_mark *mark, ws_census *census, const uint8_t *mem,
                   size_t len, uint64_t seed, ws_block *out, uint32_t max, uint32_t *n);

/* Releases mark's bitmap and empties it. */
void ws_blocks_mark_free(ws_blocks_mark *mark);

#endif
