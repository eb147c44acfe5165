/* AssemblyScript's TLSF heaps for the census (ws_census.h), as its runtime
 * lays them out (std/assembly/rt/tlsf.ts, common.ts): the root sits at
 * __heap_base rounded up to 16, and the heap's blocks follow it up to a
 * zero-size tail block. The root holds a first-level bitmap (23 bits), 23
 * second-level bitmaps (16 bits each), 23 x 16 free-list heads and, at
 * +1568, the tail's address. Each block starts with its mmInfo word: the
 * payload size | FREE (bit 0) | LEFTFREE (bit 1: the block before it is
 * free); the next block starts right after the payload. Payloads are
 * 16-byte aligned. Two generations: since 0.20 (incremental GC) the header
 * is that one word (payload sizes are 12 mod 16, at least 12; a free
 * block's prev and next links follow it); in 0.9 (ARC) it is 16 bytes
 * (mmInfo, gcInfo, rtId, rtSize; sizes multiples of 16, at least 16; the
 * links after it). A free block's last word points back at it, it is never
 * next to another free block, and it is linked into the list of its size
 * class, whose head the root holds and whose bitmap bits are set. The root
 * is no global in memory (AssemblyScript keeps ROOT in a wasm global): it
 * is found by its own structure, and proven by walking every block from the
 * first one after it exactly to the tail. */
#include <string.h>

#include "ws_census.h"
#include "ws_internal.h"

#define FREE 1u
#define LEFTFREE 2u
#define TAGS 3u
#define AL 16u
#define FL_BITS 23u
#define SL_SIZE 16u
#define SB_SIZE 256u         /* small blocks: first level 0 */
#define SL_START 4u          /* the second-level bitmaps */
#define HL_START 96u         /* the free-list heads */
#define TAIL_AT 1568u        /* the tail's address */
#define ROOT_SIZE 1572u      /* the root's bytes */
#define MAX_BLOCK (1u << 30) /* a payload is smaller */
#define MAX_WALKS 1024

/* The smallest payload of a block whose header (mmInfo, and in 0.9 the
 * runtime's words) is overhead bytes (4 or 16). */
static uint32_t min_payload(uint32_t overhead) {
  return overhead == 4 ? 12u : 16u;
}

/* Where the first block after the root at root starts. */
static uint64_t first_block(uint64_t root, uint32_t overhead) {
  uint64_t start = root + ROOT_SIZE;
  return ((start + overhead + AL - 1) & ~(uint64_t)(AL - 1)) - overhead;
}

/* The free list of a payload size (TLSF's mapping_insert): its head's
 * address in the root at root; stores the first and second level. */
static uint64_t head_of(uint64_t root, uint32_t size, uint32_t *fl, uint32_t *sl) {
  if (size < SB_SIZE) {
    *fl = 0;
    *sl = size >> 4;
  } else {
    uint32_t f = 31u - (uint32_t)__builtin_clz(size);
    *sl = (size >> (f - 4)) ^ SL_SIZE;
    *fl = f - 7;
  }
  return root + HL_START + 4u * (*fl * SL_SIZE + *sl);
}

/* Whether the root at root is consistent: the first-level bitmap names
 * exactly the non-empty second-level bitmaps, and each set bit has a head
 * in the heap [from, to) and each clear bit none. */
static int root_valid(const ws__heap *h, uint64_t root, uint64_t from, uint64_t to) {
  uint32_t fl_map = ws__word(h, root);
  if ((fl_map >> FL_BITS) != 0)
    return 0;
  for (uint32_t fl = 0; fl < FL_BITS; fl++) {
    uint32_t sl_map = ws__word(h, root + SL_START + 4u * fl);
    if ((sl_map >> SL_SIZE) != 0 || ((fl_map >> fl) & 1u) != (sl_map != 0))
      return 0;
    for (uint32_t sl = 0; sl < SL_SIZE; sl++) {
      uint64_t head = ws__word(h, root + HL_START + 4u * (fl * SL_SIZE + sl));
      if (((sl_map >> sl) & 1u) != (head != 0) ||
          (head != 0 && (head < from || head >= to)))
        return 0;
    }
  }
  return 1;
}

/* Whether the free block at b (payload size, heap [from, to)) is linked:
 * its prev's next and its next's prev are b, and without a prev it heads
 * its size class's list. */
static int linked(const ws__heap *h, uint64_t root, uint64_t b, uint32_t size,
                  uint32_t overhead, uint64_t from, uint64_t to) {
  uint64_t prev = ws__word(h, b + overhead), next = ws__word(h, b + overhead + 4);
  if (prev != 0 && (prev < from || prev >= to || ws__word(h, prev + overhead + 4) != b))
    return 0;
  if (next != 0 && (next < from || next >= to || ws__word(h, next + overhead) != b))
    return 0;
  uint32_t fl, sl;
  uint64_t head = head_of(root, size, &fl, &sl);
  if (fl >= FL_BITS)
    return 0;
  return prev != 0 || ws__word(h, head) == b;
}

/* Walks the heap of the root at census->top_at, headers of
 * census->align bytes (ws__family walk). */
static int walk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  memset(out, 0, sizeof *out);
  uint64_t root = census->top_at;
  uint32_t overhead = census->align;
  if ((overhead != 4 && overhead != 16) || (root & (AL - 1)) != 0 ||
      root + ROOT_SIZE > h->len)
    return -1;
  uint64_t tail = ws__word(h, root + TAIL_AT), b = first_block(root, overhead);
  if (tail < b || tail + overhead > h->len || ((tail + overhead) & (AL - 1)) != 0 ||
      !root_valid(h, root, b, tail))
    return -1;
  uint32_t min = min_payload(overhead), rest = (AL - overhead % AL) % AL;
  const uint64_t from = b;
  uint64_t n = 0;
  /* t.largest: the largest free block but the last one seen; last_free: the
   * last one, the top when the tail follows it. */
  ws__tally t = {0};
  uint64_t last_free = 0;
  uint32_t left_free = 0;
  while (b < tail) {
    uint32_t info = ws__word(h, b), size = info & ~TAGS;
    if (++n > h->max_chunks || size < min || size >= MAX_BLOCK || size % AL != rest ||
        ((info & LEFTFREE) != 0) != left_free || size + overhead > tail - b)
      return ws__walk_failed(h, n - 1);
    uint64_t next = b + overhead + size;
    if (info & FREE) {
      if (left_free || ws__word(h, next - 4) != b ||
          !linked(h, root, b, size, overhead, from, tail))
        return ws__walk_failed(h, n - 1);
      if (last_free > t.largest)
        t.largest = last_free;
      last_free = size + overhead;
      t.free_bytes += last_free;
      t.free_n++;
    } else {
      t.live += size;
      t.gross += size + overhead;
      t.in_use++;
      t.classes[ws__size_class(size + overhead)]++;
      if (h->visit != NULL)
        h->visit(h->visit_ctx, b, size + overhead, b + overhead, size);
    }
    left_free = info & FREE;
    b = next;
  }
  uint32_t tail_info = ws__word(h, tail);
  if (b != tail || (tail_info & ~LEFTFREE) != 0 ||
      ((tail_info & LEFTFREE) != 0) != left_free)
    return -1;
  /* The free block before the tail is where the heap grows: its top. */
  if (left_free) {
    out->top_bytes = last_free;
    t.free_bytes -= last_free;
    t.free_n--;
  } else if (last_free > t.largest) {
    t.largest = last_free;
  }
  ws__tally_merge(&out->tally, &t);
  out->kind = WS_CENSUS_TLSF;
  out->state = root;
  out->heap_bytes = tail + overhead - from;
  out->segments = 1;
  ws__census_finish(out);
  return 0;
}

/* Examines the 16-byte aligned word w at p as a TLSF root's first-level
 * bitmap (ws__family try_word): when the word at +1568 points at a
 * zero-size tail block after it, walks the heap in the generation the
 * tail's alignment names and keeps it in s when it spans more heap than
 * the best so far, lowering s->scan_end to the root (it precedes its heap). */
static void try_word(const ws__heap *h, uint64_t p, uint32_t w, ws__search *s) {
  if ((w >> FL_BITS) != 0 || p + ROOT_SIZE > h->len || s->tried >= MAX_WALKS)
    return;
  uint64_t tail = ws__word(h, p + TAIL_AT);
  if (tail < p + ROOT_SIZE || tail + 4 > h->len || (ws__word(h, tail) & ~LEFTFREE) != 0)
    return;
  uint32_t overhead = (tail & (AL - 1)) == AL - 4 ? 4 : (tail & (AL - 1)) == 0 ? 16 : 0;
  if (overhead == 0)
    return;
  ws_census trial = s->census;
  trial.kind = WS_CENSUS_TLSF;
  trial.top_at = p;
  trial.align = overhead;
  if (ws__search_keep(h, s, &trial, walk) == 0 && p < s->scan_end)
    s->scan_end = p;
}

const ws__family ws__tlsf_family = {.step = AL, .try_word = try_word, .walk = walk};
