/* Allocation sites of the counting pass (--sites): every live block's site
 * and, per site, its live bytes and blocks, its allocations and frees. A
 * site is a module, an op and the innermost WS_SITE_FRAMES wasm functions at
 * the allocator's entry (ws_protocol.h, "Allocation sites"). Events come in
 * batches from the buffer the allocator hook fills (ws_sites_apply); a
 * snapshot reads every site's key and totals. Not thread-safe: one thread
 * owns a ws_sites. */
#ifndef WS_SITES_H
#define WS_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "ws_protocol.h"

typedef struct ws_sites ws_sites;

/* Creates an empty table in *out (the caller frees it with ws_sites_free).
 * Returns 0 or WS_ENOMEM (*out untouched). */
int ws_sites_create(ws_sites **out);

/* Frees s and every block it holds; NULL is ignored. */
void ws_sites_free(ws_sites *s);

/* Applies n events of WS_SITE_EVENT_INTS Int32 fields each (ws_protocol.h
 * WS_SITE_EVENT_FIELDS): an allocation records its block under its site
 * (a block already live at that address is first counted freed), a free
 * ends the live block at ptr (a free of an unknown block is ignored: the
 * allocator may free what it handed out before instrumentation), a realloc
 * frees the old block and records the new one (a failed realloc, ptr 0 for
 * a non-zero size, leaves the old block live). An allocation that returned
 * 0 records nothing. Returns 0, WS_EINVAL (an unknown kind: the events
 * before it are applied), or WS_ENOMEM (the event that needed memory and
 * the ones after it are not applied; the table stays consistent). */
int ws_sites_apply(ws_sites *s, const int32_t *events, size_t n);

/* Returns the number of sites seen so far; site ids are 0 .. that - 1, in
 * the order they were first seen. */
size_t ws_sites_count(const ws_sites *s);

/* Copies site id's key (WS_SITE_KEY_INTS ints: module, op, frames) into key
 * and its totals (WS_SITE_VALUE_FIELDS doubles, WS_SITE_VALUES order) into
 * values. id must be below ws_sites_count. */
void ws_sites_get(const ws_sites *s, size_t id, int32_t *key, double *values);

#endif
