/* Allocation sites (ws_sites.h): two open-addressing hash tables with
 * linear probing, grown at half load: live blocks by (module, address) ->
 * (size, site), deleted by backward shift so that no tombstones build up
 * over a long run; and sites by key -> id, never deleted. Per-site totals
 * sit in one array of doubles, WS_SITE_VALUE_FIELDS per site. */
#include <stdlib.h>
#include <string.h>

#include "ws_error.h"
#include "ws_sites.h"

#define MIN_SLOTS 1024u

typedef struct {
  uint64_t key; /* (module + 1) << 32 | address; 0: empty */
  uint32_t size;
  uint32_t site;
} block_slot;

struct ws_sites {
  block_slot *blocks;
  size_t block_slots, block_count; /* slots a power of two */
  uint32_t *index;                 /* site id + 1 by key hash; 0: empty */
  size_t index_slots;              /* a power of two */
  int32_t *keys;                   /* WS_SITE_KEY_INTS per site */
  double *values;                  /* WS_SITE_VALUE_FIELDS per site */
  size_t count, capacity;          /* sites, and room for them */
};

/* Returns a 64-bit mix of x (splitmix64's finaliser). */
static uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= UINT64_C(0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* Returns the hash of a site key of WS_SITE_KEY_INTS ints. */
static uint64_t key_hash(const int32_t *key) {
  uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
  for (int i = 0; i < WS_SITE_KEY_INTS; i++)
    h = mix(h ^ (uint32_t)key[i]);
  return h;
}

int ws_sites_create(ws_sites **out) {
  ws_sites *s = calloc(1, sizeof *s);
  if (s == NULL)
    return WS_ENOMEM;
  s->blocks = calloc(MIN_SLOTS, sizeof *s->blocks);
  s->index = calloc(MIN_SLOTS, sizeof *s->index);
  if (s->blocks == NULL || s->index == NULL) {
    ws_sites_free(s);
    return WS_ENOMEM;
  }
  s->block_slots = MIN_SLOTS;
  s->index_slots = MIN_SLOTS;
  *out = s;
  return 0;
}

void ws_sites_free(ws_sites *s) {
  if (s == NULL)
    return;
  free(s->blocks);
  free(s->index);
  free(s->keys);
  free(s->values);
  free(s);
}

/* Returns the slot of key in the block table, or the empty slot where it
 * would go. */
static size_t block_find(const ws_sites *s, uint64_t key) {
  size_t mask = s->block_slots - 1;
  size_t i = (size_t)mix(key) & mask;
  while (s->blocks[i].key != 0 && s->blocks[i].key != key)
    i = (i + 1) & mask;
  return i;
}

/* Doubles the block table. Returns 0 or WS_ENOMEM (the table unchanged). */
static int block_grow(ws_sites *s) {
  block_slot *old = s->blocks;
  size_t old_slots = s->block_slots;
  block_slot *fresh = calloc(old_slots * 2, sizeof *fresh);
  if (fresh == NULL)
    return WS_ENOMEM;
  s->blocks = fresh;
  s->block_slots = old_slots * 2;
  for (size_t i = 0; i < old_slots; i++)
    if (old[i].key != 0)
      s->blocks[block_find(s, old[i].key)] = old[i];
  free(old);
  return 0;
}

/* Removes the block in slot i, shifting later entries of its probe run back
 * so that every lookup still finds them. */
static void block_remove(ws_sites *s, size_t i) {
  size_t mask = s->block_slots - 1;
  size_t hole = i;
  for (size_t j = (i + 1) & mask; s->blocks[j].key != 0; j = (j + 1) & mask) {
    size_t home = (size_t)mix(s->blocks[j].key) & mask;
    /* j's entry may move into the hole when its home is not in (hole, j]. */
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      s->blocks[hole] = s->blocks[j];
      hole = j;
    }
  }
  s->blocks[hole].key = 0;
  s->block_count--;
}

/* Returns the id of the site with key, adding it (totals zero) when new, or
 * -1 when memory ran out. */
static long site_id(ws_sites *s, const int32_t *key) {
  size_t mask = s->index_slots - 1;
  size_t i = (size_t)key_hash(key) & mask;
  for (; s->index[i] != 0; i = (i + 1) & mask) {
    uint32_t id = s->index[i] - 1;
    if (memcmp(s->keys + (size_t)id * WS_SITE_KEY_INTS, key,
               WS_SITE_KEY_INTS * sizeof *key) == 0)
      return id;
  }
  if (s->count == s->capacity) {
    size_t cap = s->capacity ? s->capacity * 2 : 64;
    int32_t *keys = realloc(s->keys, cap * WS_SITE_KEY_INTS * sizeof *keys);
    if (keys == NULL)
      return -1;
    s->keys = keys;
    double *values = realloc(s->values, cap * WS_SITE_VALUE_FIELDS * sizeof *values);
    if (values == NULL)
      return -1;
    s->values = values;
    s->capacity = cap;
  }
  if ((s->count + 1) * 2 > s->index_slots) {
    size_t slots = s->index_slots * 2;
    uint32_t *index = calloc(slots, sizeof *index);
    if (index == NULL)
      return -1;
    for (size_t id = 0; id < s->count; id++) {
      size_t j = (size_t)key_hash(s->keys + id * WS_SITE_KEY_INTS) & (slots - 1);
      while (index[j] != 0)
        j = (j + 1) & (slots - 1);
      index[j] = (uint32_t)id + 1;
    }
    free(s->index);
    s->index = index;
    s->index_slots = slots;
    mask = slots - 1;
    i = (size_t)key_hash(key) & mask;
    while (s->index[i] != 0)
      i = (i + 1) & mask;
  }
  size_t id = s->count++;
  memcpy(s->keys + id * WS_SITE_KEY_INTS, key, WS_SITE_KEY_INTS * sizeof *key);
  memset(s->values + id * WS_SITE_VALUE_FIELDS, 0, WS_SITE_VALUE_FIELDS * sizeof(double));
  s->index[i] = (uint32_t)id + 1;
  return (long)id;
}

/* The block table key of address ptr in module. */
static uint64_t block_key(int32_t module, int32_t ptr) {
  return ((uint64_t)(uint32_t)module + 1) << 32 | (uint32_t)ptr;
}

/* Ends the live block at ptr of module, if one is known. */
static void free_block(ws_sites *s, int32_t module, int32_t ptr) {
  size_t i = block_find(s, block_key(module, ptr));
  if (s->blocks[i].key == 0)
    return;
  double *v = s->values + (size_t)s->blocks[i].site * WS_SITE_VALUE_FIELDS;
  v[WS_SITE_LIVE_BYTES] -= s->blocks[i].size;
  v[WS_SITE_LIVE_BLOCKS] -= 1;
  v[WS_SITE_FREES] += 1;
  block_remove(s, i);
}

/* Records the block at ptr of size bytes under the site of event e.
 * Returns 0 or WS_ENOMEM (nothing recorded). */
static int alloc_block(ws_sites *s, const int32_t *e, int32_t ptr, uint32_t size) {
  if (ptr == 0)
    return 0;
  if ((s->block_count + 1) * 2 > s->block_slots && block_grow(s) != 0)
    return WS_ENOMEM;
  int32_t key[WS_SITE_KEY_INTS];
  key[0] = e[WS_SITE_EVENT_MODULE];
  key[1] = e[WS_SITE_EVENT_OP];
  memcpy(key + 2, e + WS_SITE_EVENT_FRAMES, WS_SITE_FRAMES * sizeof *key);
  long id = site_id(s, key);
  if (id < 0)
    return WS_ENOMEM;
  /* An address handed out twice without a free between: the allocator
   * reused a block freed before instrumentation saw it. */
  free_block(s, e[WS_SITE_EVENT_MODULE], ptr);
  size_t i = block_find(s, block_key(e[WS_SITE_EVENT_MODULE], ptr));
  s->blocks[i] =
      (block_slot){block_key(e[WS_SITE_EVENT_MODULE], ptr), size, (uint32_t)id};
  s->block_count++;
  double *v = s->values + (size_t)id * WS_SITE_VALUE_FIELDS;
  v[WS_SITE_LIVE_BYTES] += size;
  v[WS_SITE_LIVE_BLOCKS] += 1;
  v[WS_SITE_ALLOCS] += 1;
  v[WS_SITE_ALLOC_BYTES] += size;
  return 0;
}

int ws_sites_apply(ws_sites *s, const int32_t *events, size_t n) {
  for (size_t k = 0; k < n; k++) {
    const int32_t *e = events + k * WS_SITE_EVENT_INTS;
    int32_t module = e[WS_SITE_EVENT_MODULE], ptr = e[WS_SITE_EVENT_PTR];
    uint32_t size = (uint32_t)e[WS_SITE_EVENT_SIZE];
    int rc = 0;
    switch (e[WS_SITE_EVENT_KIND]) {
    case WS_EVENT_ALLOC:
      rc = alloc_block(s, e, ptr, size);
      break;
    case WS_EVENT_FREE:
      free_block(s, module, ptr);
      break;
    case WS_EVENT_REALLOC:
      if (ptr == 0 && size != 0)
        break;
      free_block(s, module, e[WS_SITE_EVENT_OLD_PTR]);
      rc = alloc_block(s, e, ptr, size);
      break;
    default:
      return WS_EINVAL;
    }
    if (rc != 0)
      return rc;
  }
  return 0;
}

size_t ws_sites_count(const ws_sites *s) {
  return s->count;
}

void ws_sites_get(const ws_sites *s, size_t id, int32_t *key, double *values) {
  memcpy(key, s->keys + id * WS_SITE_KEY_INTS, WS_SITE_KEY_INTS * sizeof *key);
  memcpy(values, s->values + id * WS_SITE_VALUE_FIELDS,
         WS_SITE_VALUE_FIELDS * sizeof *values);
}
