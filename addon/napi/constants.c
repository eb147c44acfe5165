/* The `constants` export: every number the C core shares with JavaScript,
 * generated from the lists in ws_protocol.h and ws_error.h (the verdict
 * defaults and the analysis's series limit from ws_stats.h), and the record
 * layout from offsetof/sizeof (src/protocol.js re-exports those JS uses,
 * src/cli/help.js reads the analysis's minimums directly; JS never restates
 * one). Runs on the JS thread of the isolate loading the addon. */
#include <stddef.h>
#include <stdio.h>

#include "binding.h"
#include "ws.h"
#include "ws_stats.h"

/* Creates an object, lets fill add its entries, and sets it as obj[name]. */
#define WS_EXPORT_LIST(env, obj, name, LIST)                                             \
  do {                                                                                   \
    napi_value list_;                                                                    \
    NAPI_CHECK(napi_create_object((env), &list_));                                       \
    LIST(WS_SET_ENTRY)                                                                   \
    NAPI_CHECK(napi_set_named_property((env), (obj), (name), list_));                    \
  } while (0)
#define WS_SET_ENTRY(name, value, js)                                                    \
  NAPI_CHECK(ws_napi_set_number(env, list_, js, (value)));

/* The finding kinds that name a verdict (gates FAIL_ON and ALWAYS), as an
 * array of names in severity order: what --fail-on may list. */
static napi_status verdict_kinds(napi_env env, napi_value *out) {
  static const struct {
    const char *name;
    int gate;
  } kinds[] = {
#define WS_KIND_ENTRY(name, value, js, gate) {js, WS_GATE_##gate},
      WS_FINDING_KINDS(WS_KIND_ENTRY)
#undef WS_KIND_ENTRY
  };
  NAPI_CHECK(napi_create_array(env, out));
  uint32_t n = 0;
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    if (kinds[i].gate != WS_GATE_FAIL_ON && kinds[i].gate != WS_GATE_ALWAYS)
      continue;
    napi_value v;
    NAPI_CHECK(napi_create_string_utf8(env, kinds[i].name, NAPI_AUTO_LENGTH, &v));
    NAPI_CHECK(napi_set_element(env, *out, n++, v));
  }
  return napi_ok;
}

/* Sets obj[name] to an object mapping every finding kind, in the list's
 * order, to its gate's name. */
static napi_status kind_gates(napi_env env, napi_value obj, const char *name) {
  static const char *const gates[] = {
#define WS_GATE_NAME(gate, value, js) [value] = js,
      WS_GATES(WS_GATE_NAME)
#undef WS_GATE_NAME
  };
  napi_value map;
  NAPI_CHECK(napi_create_object(env, &map));
#define WS_SET_GATE(kind, value, js, gate)                                               \
  NAPI_CHECK(ws_napi_set_string(env, map, js, gates[WS_GATE_##gate]));
  WS_FINDING_KINDS(WS_SET_GATE)
#undef WS_SET_GATE
  return napi_set_named_property(env, obj, name, map);
}

/* Sets obj.censusKind to an object mapping each census kind's JS name to
 * its id, and obj.censusKindText each id to the kind's description
 * (WS_CENSUS_KINDS). */
static napi_status census_kinds(napi_env env, napi_value obj) {
  napi_value ids, texts;
  NAPI_CHECK(napi_create_object(env, &ids));
  NAPI_CHECK(napi_create_object(env, &texts));
  char key[16];
#define WS_SET_KIND(kind, value, js, text)                                               \
  NAPI_CHECK(ws_napi_set_number(env, ids, js, (value)));                                 \
  snprintf(key, sizeof key, "%d", (value));                                              \
  NAPI_CHECK(ws_napi_set_string(env, texts, key, text));
  WS_CENSUS_KINDS(WS_SET_KIND)
#undef WS_SET_KIND
  NAPI_CHECK(napi_set_named_property(env, obj, "censusKind", ids));
  return napi_set_named_property(env, obj, "censusKindText", texts);
}

/* The constants that are one number each. */
static const ws_napi_number NUMBERS[] = {
    {"recordSize", sizeof(ws_record)},
    {"metricMemoryBase", WS_METRIC_MEMORY_BASE},
    {"metricCensusStride", WS_METRIC_CENSUS_STRIDE},
    {"censusMemories", WS_CENSUS_MEMORIES},
    {"counterFields", WS_COUNT_FIELDS},
    {"siteEventInts", WS_SITE_EVENT_INTS},
    {"siteFrames", WS_SITE_FRAMES},
    {"siteNoFrame", WS_SITE_NO_FRAME},
    {"siteNoOp", WS_SITE_NO_OP},
    {"siteKeyInts", WS_SITE_KEY_INTS},
    {"siteValueFields", WS_SITE_VALUE_FIELDS},
    {"ctlWords", WS_CTL_WORDS},
    {"ringHeaderBytes", WS_RING_HEADER_BYTES},
    {"maxParams", WS_MAX_PARAMS},
    {"outputCounter", WS_OUTPUT_COUNTER},
    {"outputValues", WS_OUTPUT_VALUES},
    {"outputFoldPrime", WS_OUTPUT_FOLD_PRIME},
    {"driverOp", WS_DRIVER_OP},
    {"driverPages", WS_DRIVER_PAGES},
    {"driverPagesMax", WS_DRIVER_PAGES_MAX},
    {"windowStatFields", WS_WINDOW_STAT_FIELDS},
    {"bandFields", WS_BAND_FIELDS},
    {"opsFields", WS_OPS_FIELDS},
    {"censusClasses", WS_CENSUS_CLASSES},
    {"maxSeries", WS_MAX_SERIES},
    {"memMinPoints", WS_MEM_MIN_POINTS},
    {"warmupCapDivisor", WS_WARMUP_CAP_DIVISOR},
    {"timeMinCalls", WS_TIME_MIN_CALLS},
    {"wasm32MaxBytes", WS_WASM32_MAX_BYTES},
    {"pageBytes", WS_PAGE_BYTES},
    {"beyondDoubtP", WS_BEYOND_DOUBT_P},
    {"metricCensusClassBase", WS_METRIC_CENSUS_CLASS_BASE},
    {"logVersion", WS_LOG_VERSION},
    {"logOldestVersion", WS_LOG_OLDEST_VERSION},
    {"logBlockRecords", WS_LOG_BLOCK_RECORDS},
};

/* The byte offset of each field of a record (recordOffsets), in the
 * record's order. */
static const ws_napi_number RECORD_OFFSETS[] = {
    {"type", offsetof(ws_record, type)}, {"flags", offsetof(ws_record, flags)},
    {"op", offsetof(ws_record, op)},     {"iteration", offsetof(ws_record, iteration)},
    {"a", offsetof(ws_record, a)},       {"b", offsetof(ws_record, b)},
    {"t", offsetof(ws_record, t)},
};

/* Builds the constants object into *out. */
static napi_status build_constants(napi_env env, napi_value *out) {
  napi_value c, offsets, errors, kinds;
  NAPI_CHECK(napi_create_object(env, &c));
  NAPI_CHECK(WS_NAPI_SET_NUMBERS(env, c, NUMBERS));
  NAPI_CHECK(napi_create_object(env, &offsets));
  NAPI_CHECK(WS_NAPI_SET_NUMBERS(env, offsets, RECORD_OFFSETS));
  NAPI_CHECK(napi_set_named_property(env, c, "recordOffsets", offsets));
  WS_EXPORT_LIST(env, c, "recordType", WS_RECORD_TYPES);
  WS_EXPORT_LIST(env, c, "flag", WS_RECORD_FLAGS);
  WS_EXPORT_LIST(env, c, "metric", WS_METRICS);
  WS_EXPORT_LIST(env, c, "mark", WS_MARKS);
  WS_EXPORT_LIST(env, c, "growReason", WS_GROW_REASONS);
  WS_EXPORT_LIST(env, c, "counter", WS_COUNTERS);
  WS_EXPORT_LIST(env, c, "allocEvent", WS_ALLOC_EVENTS);
  WS_EXPORT_LIST(env, c, "siteEvent", WS_SITE_EVENT_FIELDS);
  WS_EXPORT_LIST(env, c, "siteValue", WS_SITE_VALUES);
  WS_EXPORT_LIST(env, c, "ctl", WS_RING_CONTROL);
  WS_EXPORT_LIST(env, c, "stopRequest", WS_STOP_REQUESTS);
  WS_EXPORT_LIST(env, c, "phase", WS_WORKER_PHASES);
  WS_EXPORT_LIST(env, c, "status", WS_LOOP_STATUSES);
  WS_EXPORT_LIST(env, c, "argKind", WS_ARG_KINDS);
  WS_EXPORT_LIST(env, c, "valueType", WS_VALUE_TYPES);
  WS_EXPORT_LIST(env, c, "role", WS_SERIES_ROLES);
  WS_EXPORT_LIST(env, c, "verdictDefaults", WS_VERDICT_DEFAULTS);
  WS_EXPORT_LIST(env, c, "bootstrap", WS_BOOTSTRAP_SETTINGS);
  WS_EXPORT_LIST(env, c, "gateDefaults", WS_GATE_DEFAULTS);
  WS_EXPORT_LIST(env, c, "windowStat", WS_WINDOW_STATS);
  WS_EXPORT_LIST(env, c, "band", WS_BANDS);
  WS_EXPORT_LIST(env, c, "opsCell", WS_OPS_CELLS);
  NAPI_CHECK(census_kinds(env, c));
  WS_EXPORT_LIST(env, c, "undecidedReason", WS_UNDECIDED_REASONS);
  WS_EXPORT_LIST(env, c, "growthCause", WS_GROWTH_CAUSES);
  WS_EXPORT_LIST(env, c, "noteKind", WS_NOTE_KINDS);
  NAPI_CHECK(verdict_kinds(env, &kinds));
  NAPI_CHECK(napi_set_named_property(env, c, "findingKinds", kinds));
  NAPI_CHECK(kind_gates(env, c, "findingGate"));
  WS_EXPORT_LIST(env, c, "gate", WS_GATES);
  WS_EXPORT_LIST(env, c, "runStatus", WS_RUN_STATUSES);
  WS_EXPORT_LIST(env, c, "exitCode", WS_EXIT_CODES);
  NAPI_CHECK(ws_napi_set_string(env, c, "logMagic", WS_LOG_MAGIC));
  NAPI_CHECK(napi_create_object(env, &errors));
#define WS_SET_ERROR(name, value, message)                                               \
  NAPI_CHECK(ws_napi_set_number(env, errors, "WS_" #name, value));
  WS_ERRNO_MAP(WS_SET_ERROR)
#undef WS_SET_ERROR
  NAPI_CHECK(napi_set_named_property(env, c, "errors", errors));
  *out = c;
  return napi_ok;
}

napi_status ws_binding_constants_init(napi_env env, napi_value exports) {
  napi_value constants;
  NAPI_CHECK(build_constants(env, &constants));
  return napi_set_named_property(env, exports, "constants", constants);
}
