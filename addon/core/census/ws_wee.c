/* wee_alloc heaps for the census (ws_census.h), as wee_alloc 0.4 lays them
 * out on wasm32 (Rust's size-optimised allocator, size classes on: its
 * default). Memory comes from memory.grow in whole pages; each grow is a
 * run of cells from a page boundary to a page boundary. A cell is a header
 * of two words, { next | flags, prev }, and its data up to the next cell:
 * bit 0 of next says the cell is allocated, bit 1 that it is the run's last
 * cell (next then points at the run's end); prev is the cell before it in
 * its run (0 for the first). A free cell's first data word links it into a
 * free list (bits 0-1: flags). The static WeeAlloc holds 257 list heads:
 * the main list (large cells) and 256 size classes. A size class refills
 * by taking a large cell and laying a run of its own inside that cell's
 * data (first cell's prev 0, its last cell's next at or before the large
 * cell's end); its free cells are on the class's list.
 *
 * The table of heads is found by structure: 257 words, each 0 or a free
 * cell, the first a cell of a run that starts on a page (a large cell),
 * the others cells of nested runs; among the tables that hold a head, the
 * one whose lists hold most cells, with no cell pointer just before it. It
 * is proven by walking every run that starts on a page boundary above it,
 * cell by cell, into nested runs (once one was found, a page that starts
 * like a run must be one), and by the lists: every listed cell is free and
 * its neighbours point back at it, and the lists hold at least one cell
 * and no more than the walk found free. wee_alloc loses freed cells from
 * its lists (rustwasm/wee_alloc#106): the walk counts them free, held by
 * the heap and never reused, which is how its heaps fragment. */
#include <string.h>

#include "ws_census.h"
#include "ws_internal.h"

#define ALLOCATED 1u
#define LAST_CELL 2u
#define FLAGS 3u
#define HEADER 8u
#define PAGE 65536u
#define HEADS 257u
#define TABLE_BYTES (4u * HEADS)
#define MAX_WALKS 64
#define BEFORE 4 /* words before a table that must not point at cells */

/* Totals of a walk, merged into the census only when what they count
 * validated. */
typedef struct {
  ws__tally sum;
  uint64_t cells; /* cells walked, nested runs' included (the budget) */
} tally;

/* Adds tally t into *into. */
static void merge(tally *into, const tally *t) {
  ws__tally_merge(&into->sum, &t->sum);
  into->cells += t->cells;
}

static int walk_run(const ws__heap *h, uint64_t start, uint64_t limit, int nested,
                    tally *t, uint64_t *end);

/* Whether the allocated cell [c, e) holds a size class's run (from its data
 * on, ending at e or before: the cell first fit found may be larger than
 * the run asked for), which is then tallied into t (else nothing is). */
static int nested_run(const ws__heap *h, uint64_t c, uint64_t e, tally *t) {
  uint64_t d = c + HEADER, end;
  if (d + HEADER > e || ws__word(h, d + 4) != 0)
    return 0;
  tally inner;
  memset(&inner, 0, sizeof inner);
  inner.cells = t->cells;
  if (walk_run(h, d, e, 1, &inner, &end) != 0)
    return 0;
  inner.cells -= t->cells;
  merge(t, &inner);
  return 1;
}

/* Walks the run of cells from start (its first cell: prev 0) to its last
 * cell, none past limit, into t; an allocated cell of a run that is not
 * nested may hold a size class's run, walked too. Stores the run's end.
 * Returns 0 when every cell is consistent. */
static int walk_run(const ws__heap *h, uint64_t start, uint64_t limit, int nested,
                    tally *t, uint64_t *end) {
  uint64_t c = start, prev = 0;
  for (;;) {
    if (c + HEADER > limit || ++t->cells > h->max_chunks)
      return ws__walk_failed(h, t->cells - 1);
    uint32_t raw = ws__word(h, c);
    uint64_t next = raw & ~FLAGS;
    if (ws__word(h, c + 4) != prev || next < c + HEADER + 4 || next > limit)
      return ws__walk_failed(h, t->cells - 1);
    uint64_t size = next - c;
    if ((raw & ALLOCATED) == 0) {
      t->sum.free_bytes += size;
      t->sum.free_n++;
      if (size > t->sum.largest)
        t->sum.largest = size;
    } else if (nested || !nested_run(h, c, next, t)) {
      t->sum.live += size - HEADER;
      t->sum.gross += size;
      t->sum.in_use++;
      t->sum.classes[ws__size_class(size < 16 ? 16 : size)]++;
    }
    if (raw & LAST_CELL) {
      *end = next;
      return 0;
    }
    prev = c;
    c = next;
  }
}

/* The first cell of the run that holds cell c (following prev links, at
 * most budget of them), or UINT64_MAX. */
static uint64_t run_start(const ws__heap *h, uint64_t c, uint64_t budget) {
  while (budget-- > 0) {
    if (c == 0 || c + HEADER > h->len)
      return UINT64_MAX;
    uint64_t prev = ws__word(h, c + 4);
    if (prev == 0)
      return c;
    if (prev >= c || (ws__word(h, prev) & ~FLAGS) != c)
      return UINT64_MAX;
    c = prev;
  }
  return UINT64_MAX;
}

/* The end of the run whose first cell is start (its last cell's next), at
 * most budget cells on, or 0. */
static uint64_t run_end(const ws__heap *h, uint64_t start, uint64_t budget) {
  for (uint64_t c = start; budget-- > 0 && c + HEADER <= h->len;) {
    uint32_t raw = ws__word(h, c);
    uint64_t next = raw & ~FLAGS;
    if (raw & LAST_CELL)
      return next;
    if (next < c + HEADER + 4 || next + HEADER > h->len || ws__word(h, next + 4) != c)
      return 0;
    c = next;
  }
  return 0;
}

/* Whether head (a word of the table) is 0 or a free cell of a run that
 * starts on a page and is no size class's (large: the main list), or of a
 * size class's run, inside an allocated cell that ends where it does or
 * after. */
static int head_shape(const ws__heap *h, uint64_t head, int large) {
  if (head == 0)
    return 1;
  if ((head & 3) != 0 || head + HEADER + 4 > h->len ||
      (ws__word(h, head) & ALLOCATED) != 0)
    return 0;
  uint64_t start = run_start(h, head, 4096);
  if (start == UINT64_MAX)
    return 0;
  uint64_t end = run_end(h, start, 1u << 16);
  uint32_t holder = start >= HEADER ? ws__word(h, start - HEADER) : 0;
  int nested = end != 0 && (holder & ALLOCATED) != 0 && (holder & ~FLAGS) >= end;
  return large ? start % PAGE == 0 && !nested : nested;
}

/* Follows every list of the table at table; returns the cells listed, or
 * UINT64_MAX when a listed cell is not a free cell its neighbours point
 * back at, or the lists hold more than most cells (a cycle). wee_alloc
 * loses free cells from its lists (the leak of its issue 106): the walk
 * finds cells free that no list holds, never the reverse. */
static uint64_t listed(const ws__heap *h, uint64_t table, uint64_t most) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < HEADS; i++) {
    uint64_t c = ws__word(h, table + 4u * i);
    while (c != 0) {
      if (++n > most || (c & 3) != 0 || c + HEADER + 4 > h->len)
        return UINT64_MAX;
      uint32_t raw = ws__word(h, c);
      uint64_t next = raw & ~FLAGS, prev = ws__word(h, c + 4);
      if ((raw & ALLOCATED) != 0 || next < c + HEADER + 4 ||
          (prev != 0 && (prev + HEADER > h->len || (ws__word(h, prev) & ~FLAGS) != c)) ||
          ((raw & LAST_CELL) == 0 &&
           (next + HEADER > h->len || ws__word(h, next + 4) != c)))
        return UINT64_MAX;
      c = ws__word(h, c + HEADER) & ~FLAGS;
    }
  }
  return n;
}

/* Walks the wee_alloc heap whose table of heads census->top_at locates
 * (ws__family walk): every run starting on a page, then the lists. */
static int walk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  memset(out, 0, sizeof *out);
  uint64_t table = census->top_at;
  if (table + TABLE_BYTES > h->len)
    return -1;
  tally t;
  memset(&t, 0, sizeof t);
  uint64_t runs = 0, heap = 0;
  /* A page that starts like a run (a first cell: prev 0, next past its
   * header) must be one once the first run was found: every page wee_alloc
   * grew holds its runs. */
  for (uint64_t p = table - table % PAGE + PAGE; p + HEADER <= h->len;) {
    uint64_t end, next = ws__word(h, p) & ~FLAGS;
    if (ws__word(h, p + 4) != 0 || next <= p + HEADER) {
      p += PAGE;
      continue;
    }
    tally run = t;
    if (walk_run(h, p, h->len, 0, &run, &end) == 0 && end % PAGE == 0) {
      t = run;
      runs++;
      heap += end - p;
      p = end;
    } else if (runs > 0) {
      return -1;
    } else {
      p += PAGE;
    }
  }
  uint64_t n = listed(h, table, t.sum.free_n);
  if (runs == 0 || n == 0 || n == UINT64_MAX)
    return -1;
  ws__tally_merge(&out->tally, &t.sum);
  out->kind = WS_CENSUS_WEE;
  out->state = table;
  out->heap_bytes = heap;
  out->segments = (uint32_t)(runs > UINT32_MAX ? UINT32_MAX : runs);
  ws__census_finish(out);
  return 0;
}

/* Whether the word at x points at what looks like a cell: a header whose
 * next lies past it and whose prev is 0 or a cell whose next is x. */
static int cell_like(const ws__heap *h, uint64_t x) {
  if (x == 0 || (x & 3) != 0 || x + HEADER > h->len)
    return 0;
  uint64_t next = ws__word(h, x) & ~FLAGS, prev = ws__word(h, x + 4);
  return next >= x + HEADER + 4 && next <= h->len &&
         (prev == 0 || (prev < x && (ws__word(h, prev) & ~FLAGS) == x));
}

/* Whether the 257 words at table are a table of heads: the first 0 or a
 * large cell, the others 0 or size class cells, and none of the BEFORE
 * words before it points at a cell (a table shifted up over zero heads
 * would leave the main list's head behind it). */
static int table_shape(const ws__heap *h, uint64_t table) {
  if (table + TABLE_BYTES > h->len || !head_shape(h, ws__word(h, table), 1))
    return 0;
  for (uint64_t i = 1; i <= BEFORE && i * 4 <= table; i++)
    if (cell_like(h, ws__word(h, table - 4 * i)))
      return 0;
  for (uint32_t i = 1; i < HEADS; i++)
    if (!head_shape(h, ws__word(h, table + 4u * i), 0))
      return 0;
  return 1;
}

/* Examines the word w at p as a list head of wee_alloc's table (ws__family
 * try_word): when w looks like a free cell, finds among the tables of 257 heads
 * that hold p the one whose lists hold the most cells (a table shifted by
 * a word or more over zeros lists fewer: it misses a head; the highest on
 * ties), and walks the heap with it; keeps in s the heap spanning the most,
 * lowering s->scan_end to the table (static data, below the heap). */
static void try_word(const ws__heap *h, uint64_t p, uint32_t w, ws__search *s) {
  if (s->tried >= MAX_WALKS || (ws__word(h, w) & ALLOCATED) != 0 || !cell_like(h, w))
    return;
  uint64_t lowest = p >= TABLE_BYTES - 4 ? p - (TABLE_BYTES - 4) : 0, best = 0, most = 0;
  for (uint64_t table = p + 4; table > lowest;) {
    table -= 4;
    if (!table_shape(h, table))
      continue;
    uint64_t n = listed(h, table, h->max_chunks);
    if (n != UINT64_MAX && n > most) {
      most = n;
      best = table;
    }
  }
  if (most == 0)
    return;
  for (uint32_t k = 0; k < s->n_keys; k++)
    if (s->keys[k][0] == best)
      return;
  if (s->n_keys < WS__SEARCH_KEYS)
    s->keys[s->n_keys++][0] = (uint32_t)best;
  ws_census trial = s->census;
  trial.kind = WS_CENSUS_WEE;
  trial.top_at = best;
  if (ws__search_keep(h, s, &trial, walk) == 0 && best < s->scan_end)
    s->scan_end = best;
}

const ws__family ws__wee_family = {
    .step = 4, .pointers_only = 1, .try_word = try_word, .walk = walk};
