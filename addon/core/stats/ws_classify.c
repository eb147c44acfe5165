/* Classification: turns series patterns, their growth and the time drift
 * flag into findings, most severe first (docs/verdicts.md,
 * "Classification"). Every threshold a finding needs is applied here or in
 * the tests that feed it; JavaScript only words the result. */
#include "ws_stats.h"

const char *ws_kind_name(int kind) {
  switch (kind) {
  case WS_KIND_STABLE:
    return "stable";
#define WS_KIND_NAME(name, value, js)                                                    \
  case WS_KIND_##name:                                                                   \
    return js;
    WS_FINDING_KINDS(WS_KIND_NAME)
#undef WS_KIND_NAME
  default:
    return "unknown";
  }
}

/* Returns the index of the first signal with role whose pattern is
 * sustained, or -1. */
static int find_growing(const ws_signal *s, size_t k, int role) {
  for (size_t i = 0; i < k; i++)
    if (s[i].role == role && s[i].pattern == WS_PATTERN_SUSTAINED)
      return (int)i;
  return -1;
}

int ws_classify(const ws_signal *s, size_t k, int time_flagged, double js_heap_threshold,
                ws_finding *out, size_t *n, int *below) {
  size_t count = 0;
  *below = -1;
  int stack = find_growing(s, k, WS_ROLE_STACK);
  if (stack >= 0)
    out[count++] = (ws_finding){WS_KIND_STACK_DRIFT, stack};
  int live = -1;
  for (size_t i = 0; i < k; i++)
    if (s[i].role == WS_ROLE_LIVE && s[i].pattern != WS_PATTERN_UNTESTED) {
      live = (int)i;
      break;
    }
  int live_grows = find_growing(s, k, WS_ROLE_LIVE);
  if (live_grows >= 0) {
    out[count++] = (ws_finding){WS_KIND_LEAK, live_grows};
  } else {
    /* The finest growing memory signal names the finding. */
    static const int order[] = {WS_ROLE_HEAP, WS_ROLE_LINEAR, WS_ROLE_LINEAR_ONE};
    int mem = -1;
    for (size_t r = 0; r < 3 && mem < 0; r++)
      mem = find_growing(s, k, order[r]);
    if (mem >= 0) {
      int frag = live >= 0 && !s[live].peak_grows;
      out[count++] = (ws_finding){frag ? WS_KIND_FRAGMENTATION : WS_KIND_GROWTH, mem};
    }
  }
  /* The retained JS heap also needs practical significance: V8's own
   * metadata keeps growing a little in every run (WS_JS_HEAP_THRESHOLD). */
  int js = find_growing(s, k, WS_ROLE_JS_HEAP);
  if (js >= 0 && s[js].grown >= js_heap_threshold)
    out[count++] = (ws_finding){WS_KIND_JS_HEAP_GROWTH, js};
  else if (js >= 0)
    *below = js;
  if (time_flagged)
    out[count++] = (ws_finding){WS_KIND_SLOWDOWN, -1};
  *n = count;
  return count > 0 ? out[0].kind : WS_KIND_STABLE;
}
