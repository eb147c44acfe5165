/* Heaps that never free, for the census (ws_census.h): bump (arena)
 * allocators such as TinyGo's -gc=leaking or a hand-rolled `top += n`. Their
 * only state is the heap top, a pointer in static memory that only rises
 * (often beside the heap's start and end); nothing is ever given back, so
 * every byte below the top stays allocated. There is no structure to walk,
 * so the proof is what the censuses observe:
 * - memory above the top is untouched (all zero up to the memory's end:
 *   memory.grow hands out zeros and a bump allocator writes only below its
 *   top), something was written between the top word and the top, and at
 *   most SLACK bytes right below the top are zero (the tail of the last
 *   allocation, not yet written): a pointer far into untouched memory, as
 *   a size or a pointer into another allocator's free top chunk can be, is
 *   no top; nor is one below MIN_TOP (a constant in static data of a module
 *   with no heap);
 * - no other family proved a heap, nor walked blocks of one (this family is
 *   the last resort, ws_census.c);
 * - censuses saw the same top word rise (an allocation, observed) and
 *   never fall, and neither word beside it that points into the heap below
 *   the top moved (a free-list head, which first-fit allocators keep next to their
 *   top, moves as blocks are freed and reused; a heap start does not). A
 *   word seen doing either is ruled out for the rest of the run.
 * Live bytes are what the heap grew by since the top was first seen: where
 * the heap began is written nowhere. */
#include <string.h>

#include "ws_census.h"
#include "ws_internal.h"

#define WORD 4u
/* The lowest top: static data and the shadow stack (64 KiB by default in
 * wasm-ld, Emscripten and TinyGo builds) lie below every heap. */
#define MIN_TOP 65536u
#define SLACK 65536u /* zero bytes below the top: a page */

/* Stores the words right before and after the word at p (0 outside the
 * memory) in beside. */
static void beside_words(const ws__heap *h, uint64_t p, uint32_t beside[2]) {
  beside[0] = p >= WORD ? ws__word(h, p - WORD) : 0;
  beside[1] = p + 2 * WORD <= h->len ? ws__word(h, p + WORD) : 0;
}

/* Whether a word beside the top word at p has moved since census last saw
 * it while it pointed into the heap below the top, then (census's top) or
 * now (top): a heap's end, at or past the top, may move with it. */
static int head_moved(const ws__heap *h, const ws_census *census, uint64_t p,
                      uint64_t top) {
  uint32_t now[2];
  beside_words(h, p, now);
  for (int i = 0; i < 2; i++) {
    uint32_t was = census->bump.beside[i];
    if (now[i] != was &&
        ((now[i] > p && now[i] < top) || (was > p && was < census->bump.top)))
      return 1;
  }
  return 0;
}

/* Whether h's memory from at to its end is all zero. */
static int untouched_above(const ws__heap *h, uint64_t at) {
  for (uint64_t i = at; i < h->len; i++)
    if (h->mem[i] != 0)
      return 0;
  return 1;
}

/* Whether census watches the top word at p (saw it at least once). */
static int watched(const ws_census *census, uint64_t p) {
  return census->bump.seen > 0 && census->bump.at == p;
}

/* Fills *out (zeroed first) with the census of the bump heap whose top word
 * is at p and holds top, live bytes counted from base. */
static void fill(const ws__heap *h, uint64_t p, uint64_t top, uint64_t base,
                 ws_census_result *out) {
  memset(out, 0, sizeof *out);
  out->kind = WS_CENSUS_BUMP;
  out->state = p;
  out->tally.live = top - base;
  out->tally.gross = top - base;
  out->heap_bytes = top - base;
  out->top_bytes = h->len - top;
  out->segments = 1;
  ws__census_finish(out);
}

/* Re-walks the bump heap whose top word census->top_at holds (ws__family
 * walk): valid while the top has not fallen below the one last seen, the
 * memory above it is untouched and no pointer beside it into the heap
 * moved. */
static int walk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  memset(out, 0, sizeof *out);
  uint64_t p = census->top_at;
  if (p + WORD > h->len || !watched(census, p))
    return -1;
  uint64_t top = ws__word(h, p);
  if (top < census->bump.top || top > h->len || top < p + WORD ||
      head_moved(h, census, p, top) || !untouched_above(h, top))
    return -1;
  fill(h, p, top, census->bump.base, out);
  return 0;
}

/* Examines the word w at p as a bump heap's top (ws__family try_word): a
 * word-aligned pointer above p and MIN_TOP, below the memory's end, at most SLACK
 * bytes above h->untouched, with something written between p and it. Keeps in s the
 * candidate nearest the untouched memory (the lowest top; the lowest
 * address on ties, which the scan meets first). The word the census
 * watches is ruled out in s->owner when its top fell or a head beside it
 * moved. */
static void try_word(const ws__heap *h, uint64_t p, uint32_t w, ws__search *s) {
  ws_census *owner = s->owner;
  if (watched(owner, p) && (w < owner->bump.top || head_moved(h, owner, p, w))) {
    owner->bump.ruled_out = p;
    return;
  }
  if (w < MIN_TOP || w < h->untouched || w - h->untouched > SLACK || w >= h->len ||
      (w & (WORD - 1)) != 0 || h->untouched <= p + WORD || owner->bump.ruled_out == p)
    return;
  s->tried++;
  if (s->census.kind != WS_CENSUS_NONE && s->best_key[0] <= w)
    return;
  s->census.kind = WS_CENSUS_BUMP;
  s->census.top_at = p;
  fill(h, p, w, watched(owner, p) ? owner->bump.base : w, &s->out);
  s->best_key[0] = w; /* the kept top */
}

/* Notes the census of the top word census->top_at (ws__family settle): a
 * word watched counts one more census (and whether its top rose), another
 * starts over from its first sighting. Proven once a census saw it rise. */
static int settle(const ws__heap *h, ws_census *census, ws_census_result *out) {
  uint64_t p = census->top_at, top = ws__word(h, p);
  if (!watched(census, p)) {
    census->bump.at = p;
    census->bump.base = top;
    census->bump.seen = 0;
    census->bump.rose = 0;
  }
  if (top > census->bump.top && census->bump.seen > 0)
    census->bump.rose = 1;
  census->bump.top = top;
  census->bump.seen++;
  beside_words(h, p, census->bump.beside);
  fill(h, p, top, census->bump.base, out);
  if (census->bump.rose)
    return 0;
  out->reason = "a heap top with untouched memory above it was found; a later census "
                "that sees it risen (and never fallen) proves a heap that never frees";
  return -1;
}

const ws__family ws__bump_family = {.step = WORD,
                                    .pointers_only = 1,
                                    .try_word = try_word,
                                    .walk = walk,
                                    .fallback = 1,
                                    .settle = settle};
