/* The heap census: reads a module's linear memory (read-only, never writes
 * it), recognises the allocator by the structure of its state and heap, and
 * walks the heap into live bytes, free bytes, top, chunk counts,
 * fragmentation and a size-class histogram of in-use chunks. Recognised:
 * dlmalloc's chunk format (C dlmalloc 2.8 as in wasi-libc and Emscripten,
 * and Rust's dlmalloc crate, whose state fields lie in another order),
 * Emscripten's emmalloc, AssemblyScript's TLSF, Rust's wee_alloc, and heaps
 * that never free (bump allocators). Nothing is guessed: a state candidate counts only
 * when a walk of its heap lands exactly where the state says the heap ends,
 * with consistent in-use bits, footers and (emmalloc) free-list links; a
 * bump heap's top only after censuses saw it rise and never fall.
 * Layouts matched and their proofs: docs/architecture.md, "Heap census".
 * Single-threaded; the census object is the caller's. */
#ifndef WS_CENSUS_H
#define WS_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "ws_protocol.h"

/* The allocator families the census has, the rows of WS_CENSUS_FAMILIES:
 * WS_CENSUS_FAMILY_<family> is a family's index (ws_census_family_name,
 * ws_census_result.candidates and miss_family), WS_CENSUS_FAMILY_COUNT
 * their number. */
#define WS__CENSUS_FAMILY_INDEX(family, name, sought, kinds) WS_CENSUS_FAMILY_##family,
enum {
  WS_CENSUS_FAMILIES(WS__CENSUS_FAMILY_INDEX, WS_CENSUS_NO_KIND) WS_CENSUS_FAMILY_COUNT
};
#undef WS__CENSUS_FAMILY_INDEX

/* Size classes of the histogram: class k counts in-use chunks whose size
 * (header included) is in [2^k, 2^(k+1)). */
#define WS_CENSUS_CLASSES 32

/* Bytes searched for the allocator state when no hint bounds the search:
 * static data and the stack lie below the heap, well within this. */
#define WS_CENSUS_SCAN_DEFAULT (32u << 20)

/* Censuses ws_census_take takes of a heap other threads write
 * (hints.concurrent) before it gives up on a consistent one. */
#define WS_CENSUS_TORN_TRIES 8

/* Chunks one walk may visit before it fails, unless a hint says otherwise. */
#define WS_CENSUS_MAX_CHUNKS_DEFAULT (64u << 20)

/* Share of the loop thread's CPU time, per mille, that ws_loop_census may
 * spend by default: 4 %, so that costs that vary from census to census stay
 * under 5 %. Charged in that thread's CPU time (wall time where the
 * platform has no per-thread CPU clock): a machine that deschedules the
 * thread stretches neither a walk's charge nor the run's. */
#define WS_CENSUS_BUDGET_DEFAULT 40

/* Recorded censuses the time budget does not skip: the run's length (its
 * calls, or its duration when that ends it sooner) is cut into
 * WS_CENSUS_FLOOR equal stretches, and the first census in each is due
 * whatever the budget says, so that a trend
 * test of the census series has points across the whole run even when each
 * walk is costly next to the calls: 16, one per trend segment
 * (WS_MEM_SEGMENTS), enough for the trend test's minimum of points after a
 * warm-up of at most a quarter of the run (64 cost 15.7 % of a 10 s run on
 * a heap of 5 M chunks). On a run bounded by neither it does not apply. */
#define WS_CENSUS_FLOOR 16

/* Share of the loop thread's CPU time, per mille, past which even the
 * floor's census waits (hints.floor_permille): 4.5 %, under the 5 % cost
 * target. Where 16 walks cost more than that (a 10 s run on a heap of 5 M
 * chunks, 26 ms a walk, has 8 s of the thread's CPU quiet and 6.7 s with
 * the machine loaded halfway: 16 walks were 5.2 % and 7.4 % of it), the
 * census owed to a stretch is taken later in it, once the run's CPU time
 * pays for it, or merges with the next stretch's: the series has fewer
 * points, and the census trend may lack the trend test's minimum (the
 * verdict then asks for a longer run). Walks that cost less than about
 * 1/355 of the run's CPU time each never wait, and neither does the floor
 * of a run whose censuses took under WS_CENSUS_FLOOR_FREE_NS in all (a
 * short run's: its share is no cost worth a point). */
#define WS_CENSUS_FLOOR_CAP_DEFAULT 45
#define WS_CENSUS_FLOOR_FREE_NS 50000000u

/* What ws_loop_census did (its non-negative results). */
enum {
  WS_CENSUS_TAKEN = 0,  /* walked and recorded */
  WS_CENSUS_SKIPPED = 1 /* not attempted: the time budget is spent */
};

/* Optional knowledge about the memory; 0 in a field means unknown or the
 * default. */
typedef struct {
  /* First byte of the heap: the state is searched for below it only. */
  uint64_t heap_base;
  /* Bytes searched for the state (WS_CENSUS_SCAN_DEFAULT). */
  uint64_t scan_limit;
  /* Chunks one walk may visit (WS_CENSUS_MAX_CHUNKS_DEFAULT). */
  uint64_t max_chunks;
  /* ws_loop_census's share of the run's time (WS_CENSUS_BUDGET_DEFAULT). */
  uint32_t budget_permille;
  /* The share the floor's censuses may lift it to
   * (WS_CENSUS_FLOOR_CAP_DEFAULT), past the census time they may spend
   * whatever the share (WS_CENSUS_FLOOR_FREE_NS); 1000 or more: the floor
   * never waits. */
  uint32_t floor_permille;
  uint64_t floor_free_ns;
  /* Non-zero when other threads may write the memory while a census reads
   * it (a shared memory): a walk counts only when a second walk right after
   * it finds the same heap (ws_census_take). */
  uint32_t concurrent;
} ws_census_hints;

/* What a walk counts (ws_census_result.tally), kept apart until what it
 * counted has validated, then merged into the result: the in-use chunks'
 * payload bytes (live: size minus header), their whole bytes (gross) and
 * number (in_use), the free chunks' bytes and number (the top chunk
 * excluded), the largest of them, and the in-use chunks by size class.
 * Sizes are bytes. */
typedef struct {
  uint64_t live, gross, in_use, free_bytes, free_n, largest;
  uint64_t classes[WS_CENSUS_CLASSES];
} ws__tally;

/* One census of a heap. Sizes are bytes; chunks are the allocator's blocks
 * (dlmalloc chunks, emmalloc regions), headers included unless named
 * payload. The allocator's own records (dlmalloc segment records and
 * fenceposts, emmalloc's block roots and sentinels) count in none of them. */
typedef struct {
  int kind; /* WS_CENSUS_* allocator kind (ws_protocol.h) */
  /* The address of the state: dlmalloc's `top` field, emmalloc's list head. */
  uint64_t state;
  ws__tally tally;     /* live, free and in-use counts, size classes (above) */
  uint64_t top_bytes;  /* the top (wilderness) chunk: free space at the heap's end */
  uint64_t chunks;     /* in-use + free chunks */
  uint64_t heap_bytes; /* bytes the heap's segments span */
  uint32_t segments;   /* segments (emmalloc: blocks) walked */
  /* Fragmentation of the free space below the top, per mille:
   * 1000 * (1 - largest / free_bytes), 0 without free chunks. */
  uint32_t fragmentation;
  /* 1 when this census had to find the state: the first one, or the
   * remembered state no longer validated. */
  int located;
  uint64_t elapsed_ns; /* set by ws_loop_census (0 from ws_census_take) */
  const char *reason;  /* why nothing was recognised (static), or NULL */
  /* What a search that recognised nothing tried: the candidates each
   * family (in ws_census_family_name's order) walked, and the nearest
   * miss: the family whose candidate's walk validated most blocks before
   * it failed (-1: none validated any), that candidate state's address and
   * those blocks. Zero after a recognised census. */
  uint32_t candidates[WS_CENSUS_FAMILY_COUNT];
  int miss_family;
  uint64_t miss_at, miss_chunks;
  /* hints.concurrent: walks discarded because the walk after them found
   * another heap (the memory changed under them: a torn walk). */
  uint32_t torn;
} ws_census_result;

/* The caller-owned census of one memory: hints, where the state was proven
 * last, and what the loop needs to keep within its budget. Initialise with
 * ws_census_init; no resource needs freeing. */
typedef struct {
  ws_census_hints hints;
  int kind;       /* kind remembered, WS_CENSUS_NONE before the first success */
  uint32_t align; /* dlmalloc: chunk alignment (8 or 16) */
  /* dlmalloc: the address of the `top` field; emmalloc: of the list head. */
  uint64_t top_at;
  uint64_t topsize_at; /* dlmalloc: the address of `topsize` */
  /* dlmalloc: the address of the first segment record { base, size, next }. */
  uint64_t seg_at;
  uint64_t locates; /* searches for the state so far */
  /* A heap that never frees (ws_bump.c), across censuses: the address of
   * the top word it watches (0: none), the top when it was last seen, the top
   * when first seen (where its live bytes are counted from), the censuses
   * that saw it, whether one saw it rise, the words right before and after
   * it when last seen, and a word ruled out (its top fell, or a pointer
   * beside it into the heap moved: a heap that frees; never taken for a
   * bump heap again). */
  struct {
    uint64_t at, top, base, seen, ruled_out;
    int rose;
    uint32_t beside[2];
  } bump;
  /* Histogram classes ever non-zero (ws_loop_census records them). */
  uint32_t classes_seen;
  /* ws_loop_census's time budget: when the last census ended, the cost it
   * budgets for, the last three censuses' times, and the time of every
   * recorded census so far (those the floor forced too); when the last one
   * ended by the wall clock (ns since the loop's start). */
  uint64_t last_end_ns, last_cost_ns, recent_ns[3], spent_ns, last_end_wall_ns;
  /* The time every census of the run spent, which the budget bounds: shared
   * by the censuses of one run's memories (the caller's, NULL: spent_ns). */
  uint64_t *run_spent_ns;
  /* The share of the run done at the last recorded census (WS_CENSUS_FLOOR). */
  double last_share;
} ws_census;

/* Initialises census with hints (copied; NULL for none). */
void ws_census_init(ws_census *census, const ws_census_hints *hints);

/* Takes a census of the heap in mem[0..len) (read only; may be NULL when len
 * is 0): re-walks from the state remembered in census, and searches for the
 * state again when there is none or it no longer validates. Fills *out and
 * remembers the state on success. Returns 0, or WS_ENOHEAP when no allocator
 * was recognised (out->reason says why; census forgets its state). Work is
 * bounded by the hints' scan limit and chunk limit; mem may change between
 * calls (grown, moved), and during one only under hints.concurrent: then a
 * walk counts when the walk right after it finds the same heap, else the
 * census is taken again, WS_CENSUS_TORN_TRIES times in all (out->torn: the
 * walks discarded), and returns WS_ENOHEAP when none was confirmed (the
 * state stays remembered). */
int ws_census_take(ws_census *census, const uint8_t *mem, size_t len,
                   ws_census_result *out);

/* Returns the name of allocator family i ("dlmalloc", "emmalloc",
 * "AssemblyScript TLSF", "wee_alloc", "bump (never frees)"; static), or NULL
 * past the last. */
const char *ws_census_family_name(uint32_t i);

/* Returns a static, human-readable name of an allocator kind ("dlmalloc, C
 * layout (dlmalloc 2.8)"), "unknown" for none of them; never NULL. */
const char *ws_census_kind_text(int kind);

#endif
