/* The heap census's driver (ws_census.h): re-walks from the remembered
 * state, and searches for the state again when that fails: one pass over
 * static memory hands each pointer-like word to every allocator family
 * (ws_dlmalloc.c, ws_emmalloc.c); the proven candidate spanning the most
 * heap wins. Also the results' derived fields. */
#include <string.h>

#include "ws_census.h"
#include "ws_error.h"
#include "ws_internal.h"

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

/* Re-walks from the state census remembers; returns 0 when it validates. */
static int rewalk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  switch (census->kind) {
  case WS_CENSUS_DLMALLOC:
  case WS_CENSUS_DLMALLOC_RUST:
  case WS_CENSUS_DLMALLOC_OTHER:
    return ws__dlmalloc_walk(h, census, out, NULL);
  case WS_CENSUS_EMMALLOC:
    return ws__emmalloc_walk(h, census, out);
  default:
    return -1;
  }
}

int ws_census_take(ws_census *census, const uint8_t *mem, size_t len,
                   ws_census_result *out) {
  const ws_census_hints *hints = &census->hints;
  ws__heap h = {mem, mem != NULL ? len : 0,
                hints->max_chunks ? hints->max_chunks : WS_CENSUS_MAX_CHUNKS_DEFAULT};
  if (rewalk(&h, census, out) == 0) {
    out->located = 0;
    return 0;
  }
  census->kind = WS_CENSUS_NONE;
  census->locates++;
  uint64_t scan_end = hints->scan_limit ? hints->scan_limit : WS_CENSUS_SCAN_DEFAULT;
  if (hints->heap_base != 0 && hints->heap_base < scan_end)
    scan_end = hints->heap_base;
  if (scan_end > h.len)
    scan_end = h.len;
  ws__search dl, em;
  memset(&dl, 0, sizeof dl);
  dl.census = *census;
  dl.scan_end = scan_end;
  em = dl;
  /* One pass over static memory: each word that could be a pointer into
   * the memory goes to every family; a family that proves a heap lowers
   * the end of the scan to that heap's base. */
  for (uint64_t p = 0; p + 4 <= dl.scan_end && p + 4 <= em.scan_end; p += 4) {
    uint32_t w = ws__word(&h, p);
    if (w == 0 || (w & 3) != 0 || (uint64_t)w + 16 > h.len)
      continue;
    if ((w & 7) == 0)
      ws__dlmalloc_try(&h, p, w, &dl);
    ws__emmalloc_try(&h, p, w, &em);
  }
  int dl_ok = dl.census.kind != WS_CENSUS_NONE, em_ok = em.census.kind != WS_CENSUS_NONE;
  if (em_ok && (!dl_ok || em.out.heap_bytes > dl.out.heap_bytes)) {
    *out = em.out;
    *census = em.census;
  } else if (dl_ok) {
    *out = dl.out;
    *census = dl.census;
  } else {
    memset(out, 0, sizeof *out);
    out->kind = WS_CENSUS_NONE;
    out->located = 1;
    out->reason = dl.tried + em.tried > 0
                      ? "allocator state candidates were found, but no heap walk "
                        "validated (corrupt, or an allocator not recognised)"
                      : "no allocator state was found (a dlmalloc top chunk or an "
                        "emmalloc block list; no heap yet, or another allocator)";
    return WS_ENOHEAP;
  }
  out->located = 1;
  out->reason = NULL;
  return 0;
}

const char *ws_census_kind_text(int kind) {
  switch (kind) {
  case WS_CENSUS_DLMALLOC:
    return "dlmalloc, C layout (dlmalloc 2.8: wasi-libc, Emscripten)";
  case WS_CENSUS_DLMALLOC_RUST:
    return "dlmalloc, Rust crate layout";
  case WS_CENSUS_DLMALLOC_OTHER:
    return "dlmalloc chunks, another state layout";
  case WS_CENSUS_EMMALLOC:
    return "emmalloc";
  case WS_CENSUS_NONE:
    return "none";
  default:
    return "unknown";
  }
}
