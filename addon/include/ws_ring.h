/* The single-producer, single-consumer record ring in a shared region
 * (docs/architecture.md, "Ring"). Control words: ws_protocol.h. */
#ifndef WS_RING_H
#define WS_RING_H

#include <stddef.h>
#include <stdint.h>

#include "ws_protocol.h"

typedef struct {
  int32_t *ctl;      /* control words, shared with the consumer */
  ws_record *slots;  /* capacity records, shared with the consumer */
  uint32_t capacity; /* a power of two */
} ws_ring;

/* Attaches ring to a shared region of bytes bytes whose capacity word was set
 * by its creator. The region stays owned by the caller and must outlive ring.
 * Returns WS_EINVAL when the region is misaligned, the capacity is not a power
 * of two or does not fit. */
int ws_ring_attach(ws_ring *ring, void *region, size_t bytes);

/* Returns the bytes a region for capacity records needs. */
size_t ws_ring_region_bytes(uint32_t capacity);

/* Appends rec, waiting while the ring is full until the consumer frees a
 * slot (back-pressure: never drops). Returns the nanoseconds spent waiting
 * (0 when a slot was free at once). The runner avoids this wait by
 * checking ws_ring_free_slots first and letting JS wait instead; this is the
 * fallback that guarantees no record is ever dropped. */
uint64_t ws_ring_push(ws_ring *ring, const ws_record *rec);

/* Waits while the ring is full until the consumer frees a slot, as
 * ws_ring_push does before it appends. Returns the nanoseconds spent
 * waiting (0 when a slot was free at once). */
uint64_t ws_ring_wait(ws_ring *ring);

/* Appends rec into a slot that ws_ring_free_slots has shown to be free (the
 * producer is the only writer, so it stays free); never waits. */
void ws_ring_put(ws_ring *ring, const ws_record *rec);

/* Returns the slot the next record goes into, for the producer to write a
 * record in place (a record built elsewhere and copied in costs the copy and,
 * read back at once, a stall): a slot that ws_ring_free_slots or
 * ws_ring_wait has shown to be free; the consumer sees it only once
 * ws_ring_publish publishes it. */
ws_record *ws_ring_slot(const ws_ring *ring);

/* Publishes the record written into ws_ring_slot's slot. */
void ws_ring_publish(ws_ring *ring);

/* Writes a zero into a slot of every page of the ring's free slots (their
 * contents are no record yet), so that the producer's first lap takes no
 * page fault: for the loop's setup, whose calls would otherwise be charged
 * a fault's microseconds (a fresh shared region is mapped on first touch). */
void ws_ring_prefault(ws_ring *ring);

/* Consumer side (used by tests and benchmarks; the real consumer is JS):
 * copies up to max published records into out, frees their slots and
 * returns how many were copied. */
size_t ws_ring_pop(ws_ring *ring, ws_record *out, size_t max);

/* Returns the number of free slots (the producer's view). */
uint32_t ws_ring_free_slots(const ws_ring *ring);

/* Returns 1 when the consumer asked the producer to stop, else 0. */
int ws_ring_stop_requested(const ws_ring *ring);

#endif
