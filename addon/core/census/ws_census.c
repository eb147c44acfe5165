/* The heap census's driver (ws_census.h): re-walks from the remembered
 * state, and searches for the state again when that fails: one pass over
 * static memory hands each word to every allocator family of the table
 * below (the rows of WS_CENSUS_FAMILIES, a walker file each,
 * ws_<family>.c); the proven candidate spanning the most heap wins, a last
 * resort's only when no other family proved one. Also the results' derived
 * fields and the kinds' descriptions. */
#include <string.h>

#include "ws_census.h"
#include "ws_error.h"
#include "ws_internal.h"

/* The families' walkers and names, in the order they win ties: one a row of
 * WS_CENSUS_FAMILIES. */
#define FAMILY_WALKER(family, name, sought, kinds) &ws__##family##_family,
#define FAMILY_NAME(family, name, sought, kinds) name,
static const ws__family *const FAMILIES[] = {
    WS_CENSUS_FAMILIES(FAMILY_WALKER, WS_CENSUS_NO_KIND)};
static const char *const FAMILY_NAMES[] = {
    WS_CENSUS_FAMILIES(FAMILY_NAME, WS_CENSUS_NO_KIND)};
#define N_FAMILIES (sizeof FAMILIES / sizeof *FAMILIES)
/* What every family looks for, "a dlmalloc top chunk; ...; ". */
#define FAMILY_SOUGHT(family, name, sought, kinds) sought "; "
#define SOUGHT WS_CENSUS_FAMILIES(FAMILY_SOUGHT, WS_CENSUS_NO_KIND)
_Static_assert(N_FAMILIES == WS_CENSUS_FAMILY_COUNT,
               "ws_census_result lists every family of the table");

/* Blocks of another family's heap whose walk failed that rule a last
 * resort out: one block validates by chance, two in a row hardly. */
#define FOREIGN_BLOCKS 2

void ws_census_init(ws_census *census, const ws_census_hints *hints) {
  memset(census, 0, sizeof *census);
  if (hints != NULL)
    census->hints = *hints;
  census->kind = WS_CENSUS_NONE;
}

void ws__census_finish(ws_census_result *out) {
  out->chunks = out->tally.in_use + out->tally.free_n;
  out->fragmentation =
      out->tally.free_bytes > 0
          ? (uint32_t)(1000 * (out->tally.free_bytes - out->tally.largest) /
                       out->tally.free_bytes)
          : 0;
}

void ws__tally_merge(ws__tally *into, const ws__tally *t) {
  into->live += t->live;
  into->gross += t->gross;
  into->in_use += t->in_use;
  into->free_bytes += t->free_bytes;
  into->free_n += t->free_n;
  if (t->largest > into->largest)
    into->largest = t->largest;
  for (int k = 0; k < WS_CENSUS_CLASSES; k++)
    into->classes[k] += t->classes[k];
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
  return i < N_FAMILIES ? FAMILY_NAMES[i] : NULL;
}

/* The walker of the family whose row lists kind, or NULL (none, unknown).
 * Two rows that list one id do not compile (a duplicate case). */
static const ws__family *family_of(int kind) {
  switch (kind) {
#define KIND_CASE(name, value, js, text) case value:
#define FAMILY_CASES(family, name, sought, kinds) kinds return &ws__##family##_family;
    WS_CENSUS_FAMILIES(FAMILY_CASES, KIND_CASE)
#undef FAMILY_CASES
#undef KIND_CASE
  default:
    return NULL;
  }
}

/* Re-walks from the state census remembers; returns 0 when it validates. */
static int rewalk(const ws__heap *h, const ws_census *census, ws_census_result *out) {
  const ws__family *family = family_of(census->kind);
  return family != NULL ? family->walk(h, census, out) : -1;
}

/* The lowest address from which mem[0..len) is all zero (len when its last
 * byte is not). */
static uint64_t untouched_from(const uint8_t *mem, uint64_t len) {
  uint64_t at = len;
  while (at >= 8) {
    uint64_t w;
    memcpy(&w, mem + at - 8, sizeof w);
    if (w != 0)
      break;
    at -= 8;
  }
  while (at > 0 && mem[at - 1] == 0)
    at--;
  return at;
}

/* Adopts the candidate of s (family's) into census and *out; returns what
 * the family's settle says (0 without one). What a family remembers across
 * censuses stays the caller's, never a trial's. */
static int adopt(const ws__heap *h, const ws__family *family, const ws__search *s,
                 ws_census *census, ws_census_result *out) {
  ws_census adopted = s->census;
  adopted.bump = census->bump;
  *census = adopted;
  *out = s->out;
  out->reason = NULL;
  int proven = family->settle != NULL ? family->settle(h, census, out) : 0;
  out->located = 1;
  return proven;
}

/* One pass over static memory [0, scan_end): each word goes to every family
 * of the table whose `fallback` is fallback and that takes it (search[f]
 * its search); a family that proves a heap lowers the end of the scan to
 * that heap's base. */
static void scan(const ws__heap *h, ws__search *search, int fallback, uint64_t scan_end) {
  for (uint64_t p = 0; p + 4 <= scan_end; p += 4) {
    uint32_t w = ws__word(h, p);
    int pointer = w != 0 && (w & 3) == 0 && (uint64_t)w + 16 <= h->len;
    for (size_t f = 0; f < N_FAMILIES; f++) {
      const ws__family *family = FAMILIES[f];
      if (family->fallback != fallback)
        continue;
      if (p % family->step == 0 && (pointer || !family->pointers_only))
        family->try_word(h, p, w, &search[f]);
      if (search[f].scan_end < scan_end)
        scan_end = search[f].scan_end;
    }
  }
}

/* The family whose search in search[] kept the candidate spanning the most
 * heap among those whose `fallback` is fallback; N_FAMILIES for none. */
static size_t best_of(const ws__search *search, int fallback) {
  size_t best = N_FAMILIES;
  for (size_t f = 0; f < N_FAMILIES; f++)
    if (FAMILIES[f]->fallback == fallback && search[f].census.kind != WS_CENSUS_NONE &&
        (best == N_FAMILIES || search[f].out.heap_bytes > search[best].out.heap_bytes))
      best = f;
  return best;
}

/* The chunks one walk may visit under hints. */
static uint64_t max_chunks_of(const ws_census_hints *hints) {
  return hints->max_chunks ? hints->max_chunks : WS_CENSUS_MAX_CHUNKS_DEFAULT;
}

int ws__census_visit(ws_census *census, const uint8_t *mem, size_t len,
                     void (*visit)(void *ctx, uint64_t chunk, uint64_t size,
                                   uint64_t payload, uint64_t payload_bytes),
                     void (*reset)(void *ctx), void *ctx, ws_census_result *out) {
  ws__heap h = {.mem = mem,
                .len = mem != NULL ? len : 0,
                .max_chunks = max_chunks_of(&census->hints),
                .visit = visit,
                .visit_ctx = ctx};
  if (rewalk(&h, census, out) == 0)
    return 0;
  reset(ctx);
  int rc = ws_census_take(census, mem, len, out);
  if (rc != 0)
    return rc;
  return rewalk(&h, census, out) == 0 ? 0 : WS_ENOHEAP;
}

/* One census (ws_census_take's, without its confirmation): re-walks the
 * remembered state, else searches. */
static int take_once(ws_census *census, const uint8_t *mem, size_t len,
                     ws_census_result *out) {
  const ws_census_hints *hints = &census->hints;
  ws__heap h = {
      .mem = mem, .len = mem != NULL ? len : 0, .max_chunks = max_chunks_of(hints)};
  if (rewalk(&h, census, out) == 0) {
    const ws__family *family = family_of(census->kind);
    if (family->settle != NULL)
      family->settle(&h, census, out);
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
    search[f].owner = census;
  }
  scan(&h, search, 0, scan_end);
  /* The proven candidate spanning the most heap; a last resort's only when
   * no other family proved one, nor walked FOREIGN_BLOCKS blocks of a heap
   * that then failed (another allocator's structures, damaged or laid out
   * otherwise: no heap without them). The last resorts scan apart, after:
   * what they need (the untouched memory at the end, read from the end
   * down) costs page faults on a large memory the others never touch. */
  uint64_t foreign = 0;
  for (size_t f = 0; f < N_FAMILIES; f++)
    if (!FAMILIES[f]->fallback && search[f].miss_chunks > foreign)
      foreign = search[f].miss_chunks;
  size_t best = best_of(search, 0);
  if (best == N_FAMILIES && foreign < FOREIGN_BLOCKS) {
    h.untouched = untouched_from(h.mem, h.len);
    scan(&h, search, 1, scan_end);
    best = best_of(search, 1);
  }
  uint32_t tried = 0;
  for (size_t f = 0; f < N_FAMILIES; f++)
    tried += search[f].tried;
  /* A candidate that more censuses must see (its family's settle says why)
   * is not recognised yet. */
  const char *pending = NULL;
  if (best < N_FAMILIES) {
    if (adopt(&h, FAMILIES[best], &search[best], census, out) == 0)
      return 0;
    pending = out->reason;
    census->kind = WS_CENSUS_NONE;
  }
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
  out->reason = pending != NULL ? pending
                : tried > 0 ? "allocator state candidates were found, but no heap walk "
                              "validated (corrupt, or an allocator not recognised)"
                            : "no allocator state was found (looked for: " SOUGHT
                              "none there: no heap yet, or another allocator)";
  return WS_ENOHEAP;
}

/* Whether two walks a and b found the same heap: every count, the state and
 * the size classes equal. */
static int same_heap(const ws_census_result *a, const ws_census_result *b) {
  /* ws__tally is uint64_t fields alone: no padding for memcmp to read. */
  return a->kind == b->kind && a->state == b->state && a->top_bytes == b->top_bytes &&
         a->heap_bytes == b->heap_bytes && a->segments == b->segments &&
         memcmp(&a->tally, &b->tally, sizeof a->tally) == 0;
}

/* A heap other threads write (hints.concurrent) is walked while they run: a
 * walk may read one chunk before an allocation and the next after it, and
 * such a torn chain can still add up to a heap that never was (two
 * operations' halves). A walk therefore counts only when the walk right
 * after it, from the same state, finds the same heap (counts, state and
 * size classes): two walks torn alike would need the writers to repeat the
 * same interleaving. Else it is taken again, WS_CENSUS_TORN_TRIES times in
 * all, and then nothing is recognised this time ("the heap changed under
 * every walk"); the state stays remembered for the next census. */
int ws_census_take(ws_census *census, const uint8_t *mem, size_t len,
                   ws_census_result *out) {
  int rc = take_once(census, mem, len, out);
  if (!census->hints.concurrent)
    return rc;
  ws__heap h = {.mem = mem,
                .len = mem != NULL ? len : 0,
                .max_chunks = max_chunks_of(&census->hints)};
  uint32_t torn = 0;
  for (;;) {
    if (rc != 0)
      return rc;
    ws_census_result again;
    if (rewalk(&h, census, &again) == 0 && same_heap(out, &again)) {
      out->torn = torn;
      return 0;
    }
    if (++torn >= WS_CENSUS_TORN_TRIES)
      break;
    rc = take_once(census, mem, len, out);
  }
  int kind = census->kind;
  memset(out, 0, sizeof *out);
  out->kind = WS_CENSUS_NONE;
  out->miss_family = -1;
  out->torn = torn;
  out->reason = "the heap changed under every walk (other threads allocating while "
                "the census read it): no consistent census this time";
  census->kind = kind;
  return WS_ENOHEAP;
}

const char *ws_census_kind_text(int kind) {
  switch (kind) {
#define KIND_TEXT(name, value, js, text)                                                 \
  case value:                                                                            \
    return text;
    WS_CENSUS_KINDS(KIND_TEXT)
#undef KIND_TEXT
  default:
    return "unknown";
  }
}
