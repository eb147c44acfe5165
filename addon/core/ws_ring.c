/* The record ring (ws_ring.h): one producer (the loop), one consumer (the
 * main thread's drain), counters published with release stores. */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ws.h"

/* The ring's counters are u32 values stored in Int32 words so that JS can use
 * Atomics on them; they wrap, and differences are taken modulo 2^32. */

static uint32_t load_acquire(const int32_t *word) {
  return (uint32_t)__atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static void store_release(int32_t *word, uint32_t value) {
  __atomic_store_n(word, (int32_t)value, __ATOMIC_RELEASE);
}

/* Sleeps for ns nanoseconds (short waits while the consumer drains). */
static void nap(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

size_t ws_ring_region_bytes(uint32_t capacity) {
  return WS_RING_HEADER_BYTES + (size_t)capacity * WS_RECORD_SIZE;
}

int ws_ring_attach(ws_ring *ring, void *region, size_t bytes) {
  if (region == NULL || ((uintptr_t)region % 8) != 0 || bytes < WS_RING_HEADER_BYTES)
    return WS_EINVAL;
  int32_t *ctl = region;
  uint32_t capacity = (uint32_t)ctl[WS_CTL_CAPACITY];
  if (capacity == 0 || (capacity & (capacity - 1)) != 0 ||
      ws_ring_region_bytes(capacity) > bytes)
    return WS_EINVAL;
  ring->ctl = ctl;
  ring->slots = (ws_record *)((uint8_t *)region + WS_RING_HEADER_BYTES);
  ring->capacity = capacity;
  return 0;
}

/* While the ring is full it raises the waiting word and naps (50 µs growing
 * to 1 ms) until the consumer advances its read count. */
uint64_t ws_ring_wait(ws_ring *ring) {
  uint32_t write = (uint32_t)ring->ctl[WS_CTL_WRITE]; /* only we write it */
  if (write - load_acquire(&ring->ctl[WS_CTL_READ]) < ring->capacity)
    return 0;
  uint64_t start = ws_now_ns();
  long step = 50000;
  store_release(&ring->ctl[WS_CTL_WAITING], 1);
  while (write - load_acquire(&ring->ctl[WS_CTL_READ]) >= ring->capacity) {
    nap(step);
    if (step < 1000000)
      step *= 2;
  }
  store_release(&ring->ctl[WS_CTL_WAITING], 0);
  return ws_now_ns() - start;
}

uint64_t ws_ring_push(ws_ring *ring, const ws_record *rec) {
  uint64_t waited = ws_ring_wait(ring);
  ws_ring_put(ring, rec);
  return waited;
}

ws_record *ws_ring_slot(const ws_ring *ring) {
  uint32_t write = (uint32_t)ring->ctl[WS_CTL_WRITE];
  return &ring->slots[write & (ring->capacity - 1)];
}

/* Records ahead of the next one whose slot the producer fetches for
 * writing as it publishes (ws_ring_publish). The consumer read a slot's
 * line a lap earlier, so it is seldom in the producer's cache, and a store
 * that waits for it holds up every store behind it (the calls' own frames
 * too) for a few hundred ns: about one call in 25 here. Fetched some 32
 * calls early, it is there when its record is written. */
#define PREFETCH_AHEAD 32

void ws_ring_publish(ws_ring *ring) {
  uint32_t write = (uint32_t)ring->ctl[WS_CTL_WRITE] + 1;
  __builtin_prefetch(&ring->slots[(write + PREFETCH_AHEAD) & (ring->capacity - 1)], 1, 3);
  store_release(&ring->ctl[WS_CTL_WRITE], write);
}

void ws_ring_put(ws_ring *ring, const ws_record *rec) {
  memcpy(ws_ring_slot(ring), rec, sizeof *rec);
  ws_ring_publish(ring);
}

/* Writes a zero at first and at every page boundary in [first, end). */
static void touch_pages(uint8_t *first, uint8_t *end, uintptr_t page) {
  for (uint8_t *b = first; b < end; b = (uint8_t *)(((uintptr_t)b / page + 1) * page))
    *(volatile uint8_t *)b = 0;
}

void ws_ring_prefault(ws_ring *ring) {
  long page = sysconf(_SC_PAGESIZE);
  uint32_t start = (uint32_t)ring->ctl[WS_CTL_WRITE] & (ring->capacity - 1);
  uint32_t end = start + ws_ring_free_slots(ring); /* past capacity: wraps */
  uint32_t first_end = end < ring->capacity ? end : ring->capacity;
  uintptr_t step = page > 0 ? (uintptr_t)page : 4096;
  touch_pages((uint8_t *)&ring->slots[start], (uint8_t *)&ring->slots[first_end], step);
  if (end > ring->capacity)
    touch_pages((uint8_t *)ring->slots, (uint8_t *)&ring->slots[end - ring->capacity],
                step);
}

size_t ws_ring_pop(ws_ring *ring, ws_record *out, size_t max) {
  uint32_t read = load_acquire(&ring->ctl[WS_CTL_READ]);
  uint32_t available = load_acquire(&ring->ctl[WS_CTL_WRITE]) - read;
  size_t n = available < max ? available : max;
  for (size_t i = 0; i < n; i++)
    memcpy(&out[i], &ring->slots[(read + (uint32_t)i) & (ring->capacity - 1)],
           sizeof *out);
  store_release(&ring->ctl[WS_CTL_READ], read + (uint32_t)n);
  return n;
}

uint32_t ws_ring_free_slots(const ws_ring *ring) {
  uint32_t used =
      (uint32_t)ring->ctl[WS_CTL_WRITE] - load_acquire(&ring->ctl[WS_CTL_READ]);
  return ring->capacity - used;
}

int ws_ring_stop_requested(const ws_ring *ring) {
  return __atomic_load_n(&ring->ctl[WS_CTL_STOP], __ATOMIC_RELAXED) != 0;
}
