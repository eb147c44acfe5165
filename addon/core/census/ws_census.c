/* The heap census's driver (ws_census.h): re-walks from the remembered
 * state, and searches for the state again when that fails: one pass over
 * static memory hands each word to every allocator family of the table
 * below (one file each: ws_dlmalloc.c, ws_emmalloc.c, ws_tlsf.c); the proven candidate
 * spanning the most heap wins. Also the results' derived fields and the
 * kinds' descriptions. */
#include <string.h>

#include "ws_census.h"
#include "ws_error.h"
#include "ws_internal.h"

/* The families, in the order they win ties. */
static const ws__family *const FAMILIES[] = {&ws__dlmalloc_family, &ws__emmalloc_family,
                                             &ws__tlsf_family};
#define N_FAMILIES (sizeof FAMILIES / sizeof *FAMILIES)
_Static_assert(N_FAMILIES <= WS_CENSUS_MAX_FAMILIES,
               "ws_census_result lists every family");

void ws_census_init(ws_census *census, const ws_census_hints *hints) {
  memset(census, 0, sizeof *census);
  if (hints != NULL)
    census->hints = *hints;
  census->kind = WS_CENSUS_NONE;
}

void ws__census_finish(ws_census_result *out) {
  out->chunks = out->in_use_chunks + out->free_chunks;
  out->fragmentation =
      out->free_bytes > 0
          ? (uint32_t)(1000 * (out->free_bytes - out->largest_free) / out->free_bytes)
          : 0;
}

int ws__search_keep(const ws__heap *h, ws__search *s, const ws_census *trial,
                    int (*walk)(const ws__heap *h, const ws_census *census,
                                ws_census_result *out)) {
  ws_census_result r;
  s->tried++;
  if (walk(h, trial, &r) != 0) {
    ws__search_missed(h, s, trial->top_at);
    return -1;
  }
  if (s->census.kind == WS_CENSUS_NONE || r.heap_bytes > s->out.heap_bytes) {
    s->census = *trial;
    s->out = r;
  }
  return 0;
}

void ws__search_missed(const ws__heap *h, ws__search *s, uint64_t state) {
  if (h->reach == NULL)
    return;
  if (*h->reach > s->miss_chunks) {
    s->miss_chunks = *h->reach;
    s->miss_at = state;
  }
  *h->reach = 0;
}

const char *ws_census_family_name(uint32_t i) {
  return i < N_FAMILIES ? FAMILIES[i]->name : NULL;
}

/* The family that reports kind, or NULL. */
static const ws__family *family_of(int kind) {
  for (size_t f = 0; f < N_FAMILIES; f++)
    for (uint32_t i = 0; i < FAMILIES[f]->n_kinds; i++)
      if (FAMILIES[f]->kinds[i].kind == kind)
        return FAMILIES[f];
  return NULL;
}

/* Re-walks from the state census remembers; returns 0 when it validates. */
static int rewalk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  const ws__family *family = family_of(census->kind);
  return family != NULL ? family->walk(h, census, out) : -1;
}

/* The chunks one walk may visit under hints. */
static uint64_t max_chunks_of(const ws_census_hints *hints) {
  return hints->max_chunks ? hints->max_chunks : WS_CENSUS_MAX_CHUNKS_DEFAULT;
}

int ws__census_visit(ws_census *census, const uint8_t *mem, size_t len,
                     void (*visit)(void *ctx, uint64_t chunk, uint64_t size,
                                   uint64_t payload, uint64_t payload_bytes),
                     void (*reset)(void *ctx), void *ctx, ws_census_result *out) {
  ws__heap h = {mem, mem != NULL ? len : 0, max_chunks_of(&census->hints), NULL, visit,
                ctx};
  if (rewalk(&h, census, out) == 0)
    return 0;
  reset(ctx);
  int rc = ws_census_take(census, mem, len, out);
  if (rc != 0)
    return rc;
  return rewalk(&h, census, out) == 0 ? 0 : WS_ENOHEAP;
}

int ws_census_take(ws_census *census, const uint8_t *mem, size_t len,
                   ws_census_result *out) {
  const ws_census_hints *hints = &census->hints;
  ws__heap h = {mem, mem != NULL ? len : 0, max_chunks_of(hints), NULL, NULL, NULL};
  if (rewalk(&h, census, out) == 0) {
    out->located = 0;
    return 0;
  }
  census->kind = WS_CENSUS_NONE;
  census->locates++;
  uint64_t reach = 0;
  h.reach = &reach;
  uint64_t scan_end = hints->scan_limit ? hints->scan_limit : WS_CENSUS_SCAN_DEFAULT;
  if (hints->heap_base != 0 && hints->heap_base < scan_end)
    scan_end = hints->heap_base;
  if (scan_end > h.len)
    scan_end = h.len;
  ws__search search[N_FAMILIES];
  memset(search, 0, sizeof search);
  for (size_t f = 0; f < N_FAMILIES; f++) {
    search[f].census = *census;
    search[f].scan_end = scan_end;
  }
  /* One pass over static memory: each word goes to every family that takes
   * it; a family that proves a heap lowers the end of the scan to that
   * heap's base. */
  for (uint64_t p = 0; p + 4 <= scan_end; p += 4) {
    uint32_t w = ws__word(&h, p);
    int pointer = w != 0 && (w & 3) == 0 && (uint64_t)w + 16 <= h.len;
    for (size_t f = 0; f < N_FAMILIES; f++) {
      const ws__family *family = FAMILIES[f];
      if (p % family->step == 0 && (pointer || !family->pointers_only))
        family->try_word(&h, p, w, &search[f]);
      if (search[f].scan_end < scan_end)
        scan_end = search[f].scan_end;
    }
  }
  const ws__search *best = NULL;
  uint32_t tried = 0;
  for (size_t f = 0; f < N_FAMILIES; f++) {
    tried += search[f].tried;
    if (search[f].census.kind != WS_CENSUS_NONE &&
        (best == NULL || search[f].out.heap_bytes > best->out.heap_bytes))
      best = &search[f];
  }
  if (best == NULL) {
    memset(out, 0, sizeof *out);
    out->kind = WS_CENSUS_NONE;
    out->located = 1;
    out->miss_family = -1;
    for (size_t f = 0; f < N_FAMILIES; f++) {
      out->candidates[f] = search[f].tried;
      if (search[f].miss_chunks > out->miss_chunks) {
        out->miss_family = (int)f;
        out->miss_at = search[f].miss_at;
        out->miss_chunks = search[f].miss_chunks;
      }
    }
    out->reason = tried > 0
                      ? "allocator state candidates were found, but no heap walk "
                        "validated (corrupt, or an allocator not recognised)"
                      : "no allocator state was found (a dlmalloc top chunk, an "
                        "emmalloc block list or a TLSF root; no heap yet, or another "
                        "allocator)";
    return WS_ENOHEAP;
  }
  *out = best->out;
  *census = best->census;
  out->located = 1;
  out->reason = NULL;
  return 0;
}

const char *ws_census_kind_text(int kind) {
  if (kind == WS_CENSUS_NONE)
    return "none";
  const ws__family *family = family_of(kind);
  if (family != NULL)
    for (uint32_t i = 0; i < family->n_kinds; i++)
      if (family->kinds[i].kind == kind)
        return family->kinds[i].text;
  return "unknown";
}
