/* The heap census of a threaded dlmalloc heap (built with USE_LOCKS, as
 * wasi-libc's threaded builds: its state holds a mutex) that another thread
 * writes while the census reads it (hints.concurrent, ws_census_take),
 * under ASan/UBSan: a writer thread frees chunks of a planted heap one after
 * another, holding the state's mutex, with dlmalloc's stores in dlmalloc's
 * order, while the reader takes censuses (the census takes no lock).
 * A walk that reads one chunk before a free and a later one after the next
 * free adds up to a heap that never was; the census must never confirm
 * such a torn walk as the heap. The freed chunks have sizes 32 << i, so
 * the free bytes of a census name exactly which of them it saw free: a
 * heap that existed has freed a prefix of them (32 * (2^k - 1) bytes in k
 * chunks). The writer only frees (no chunk returns to a state it left), so
 * two walks that agree read the same chunks alike: docs/allocator.md,
 * "Threads". */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dlheap.h"
#include "ws.h"

#define LEN 0x40000u
#define STATE 0xc0cu
#define BASE 0x10e00u
#define VICTIMS 12u /* chunks the writer frees, 32 << i bytes each */
#define FILLER 40u  /* in-use chunks of 48 bytes before each victim and after the last */
#define ROUNDS 150u

typedef struct {
  uint8_t *m;
  uint64_t victim[VICTIMS];
  uint32_t seed;
  int start, done; /* read and written with __atomic builtins */
} round_state;

/* A 32-bit store as a wasm thread's i32.store: one word, no tearing. */
static void store32(uint8_t *m, uint64_t at, uint32_t v) {
  __atomic_store_n((uint32_t *)(void *)(m + at), v, __ATOMIC_RELAXED);
}

static uint32_t load32(const uint8_t *m, uint64_t at) {
  return __atomic_load_n((const uint32_t *)(const void *)(m + at), __ATOMIC_RELAXED);
}

/* dlfree of the in-use chunk p (size s) between two in-use chunks, as
 * dlmalloc does it: set_free_with_pinuse (the next chunk's PINUSE cleared,
 * then p's head, then its foot), then insert_chunk (fd and bk in p's payload). */
static void free_chunk(uint8_t *m, uint64_t p, uint32_t s) {
  store32(m, p + s + 4, load32(m, p + s + 4) & ~PINUSE);
  store32(m, p + 4, s | PINUSE);
  store32(m, p + s, s);
  store32(m, p + 8, STATE + 40);
  store32(m, p + 12, STATE + 40);
}

/* The writer: waits for the start, then frees the victims in address
 * order, each after a seeded pause (a few hundred spins: walks overlap),
 * each under the state's mutex as a threaded dlfree takes it. */
static void *writer(void *arg) {
  round_state *r = arg;
  while (!__atomic_load_n(&r->start, __ATOMIC_ACQUIRE))
    sched_yield();
  uint32_t seed = r->seed;
  for (uint32_t i = 0; i < VICTIMS; i++) {
    for (volatile uint32_t spin = rng_next(&seed) % 4000; spin > 0; spin--) {
    }
    store32(r->m, STATE + LOCKED_MUTEX, 1);
    free_chunk(r->m, r->victim[i], 32u << i);
    store32(r->m, STATE + LOCKED_MUTEX, 0);
  }
  __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* Plants the heap: FILLER in-use chunks before each victim and after the
 * last, then the top chunk; a threaded build's state (its mutex) at STATE. */
static void plant(round_state *r) {
  r->m = calloc(1, LEN);
  expect e;
  memset(&e, 0, sizeof e);
  seg_builder b;
  seg_begin(&b, r->m, 16, BASE, &e);
  for (uint32_t i = 0; i < VICTIMS; i++) {
    for (uint32_t f = 0; f < FILLER; f++)
      chunk(&b, 48, 1);
    r->victim[i] = b.p;
    chunk(&b, 32u << i, 1);
  }
  for (uint32_t f = 0; f < FILLER; f++)
    chunk(&b, 48, 1);
  uint64_t topsize;
  uint64_t top = seg_top(&b, LEN, &topsize);
  write_state(r->m, STATE, &LOCKED_LAYOUT, top, topsize, BASE, LEN - BASE, 0);
  store32(r->m, STATE + LOCKED_MFLAGS, USE_LOCK_BIT);
}

/* Whether census result x is a heap the writer passed through: k victims
 * freed, the first k. */
static int existed(const ws_census_result *x) {
  uint64_t k = x->tally.free_n;
  return k <= VICTIMS && x->tally.free_bytes == 32u * ((1u << k) - 1u) &&
         x->tally.in_use == VICTIMS + (VICTIMS + 1) * FILLER - k;
}

/* Rounds of a writer freeing while the reader takes censuses: a confirmed
 * census (hints.concurrent) is always a heap that existed; single walks
 * (no hint) are counted, and those that added up to a heap that never was
 * printed, as what the confirmation is for. After each writer ends, the
 * census confirms the final heap at once. */
static void test_torn_walks_never_confirmed(void) {
  uint64_t confirmed = 0, wrong = 0, torn = 0, single = 0, single_wrong = 0, gave_up = 0;
  for (uint32_t round = 0; round < ROUNDS; round++) {
    round_state r;
    memset(&r, 0, sizeof r);
    r.seed = 0x9e3779b9u ^ (round * 7919u + 1u);
    plant(&r);
    ws_census_hints hints;
    memset(&hints, 0, sizeof hints);
    hints.concurrent = 1;
    ws_census c, plain;
    ws_census_init(&c, &hints);
    ws_census_init(&plain, NULL);
    ws_census_result x;
    CHECK(ws_census_take(&c, r.m, LEN, &x) == 0 && existed(&x) && x.tally.free_n == 0);
    CHECK(ws_census_take(&plain, r.m, LEN, &x) == 0);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, writer, &r) == 0);
    __atomic_store_n(&r.start, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE)) {
      int rc = ws_census_take(&c, r.m, LEN, &x);
      torn += x.torn;
      if (rc == 0) {
        confirmed++;
        if (!existed(&x)) {
          wrong++;
          fprintf(stderr,
                  "confirmed a heap that never was: %llu free chunks, %llu free bytes\n",
                  (unsigned long long)x.tally.free_n,
                  (unsigned long long)x.tally.free_bytes);
        }
      } else {
        gave_up++;
      }
      if (ws_census_take(&plain, r.m, LEN, &x) == 0) {
        single++;
        single_wrong += !existed(&x);
      }
    }
    pthread_join(t, NULL);
    CHECK(ws_census_take(&c, r.m, LEN, &x) == 0 && x.torn == 0 &&
          x.tally.free_n == VICTIMS && existed(&x));
    free(r.m);
  }
  CHECK(wrong == 0);
  printf("# %u rounds: %llu censuses confirmed (%llu walks discarded as torn, %llu gave "
         "up); "
         "single walks: %llu validated, %llu of them a heap that never was\n",
         ROUNDS, (unsigned long long)confirmed, (unsigned long long)torn,
         (unsigned long long)gave_up, (unsigned long long)single,
         (unsigned long long)single_wrong);
}

/* A heap nobody writes: the confirming walk agrees at once (torn 0), and
 * without the hint nothing changes. */
static void test_quiet_heap(void) {
  round_state r;
  memset(&r, 0, sizeof r);
  plant(&r);
  ws_census_hints hints;
  memset(&hints, 0, sizeof hints);
  hints.concurrent = 1;
  ws_census c;
  ws_census_init(&c, &hints);
  ws_census_result x;
  for (int i = 0; i < 3; i++)
    CHECK(ws_census_take(&c, r.m, LEN, &x) == 0 && x.torn == 0 && existed(&x) &&
          x.kind == WS_CENSUS_DLMALLOC);
  free(r.m);
}

int main(void) {
  test_quiet_heap();
  test_torn_walks_never_confirmed();
  return check_report("census-threads");
}
