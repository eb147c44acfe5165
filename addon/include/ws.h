/* wasm-soak C core, every public header at once. Nothing in the core
 * includes node_api.h; addon/napi adapts it to Node-API. Functions return 0
 * or a negative WS_E* code (ws_error.h) unless their contract says
 * otherwise. */
#ifndef WS_H
#define WS_H

#include "ws_blocks.h"
#include "ws_census.h"
#include "ws_clock.h"
#include "ws_control.h"
#include "ws_error.h"
#include "ws_live.h"
#include "ws_log.h"
#include "ws_loop.h"
#include "ws_protocol.h"
#include "ws_ring.h"
#include "ws_rng.h"
#include "ws_rss.h"
#include "ws_sites.h"

#endif
