/* Classification: turns series patterns, their growth, the time drift and
 * what the data left open into findings, most severe first, and the reasons
 * a run is inconclusive (docs/verdicts.md, "Classification",
 * "Inconclusive"). Every threshold a finding needs is applied here or in the
 * tests that feed it; JavaScript only words the result. */
#include "ws_stats.h"

/* Returns the index of the first signal with role whose pattern is
 * sustained at or above the memory floor (below it, it is a note), or -1. */
static int find_growing(const ws_signal *s, size_t k, int role) {
  for (size_t i = 0; i < k; i++)
    if (s[i].role == role && s[i].pattern == WS_PATTERN_SUSTAINED && !s[i].below_floor)
      return (int)i;
  return -1;
}

/* Returns the index of the signal that reached its limit first, or -1. */
static int find_exhausted(const ws_signal *s, size_t k) {
  int first = -1;
  for (size_t i = 0; i < k; i++)
    if (s[i].exhausted_at >= 0 &&
        (first < 0 || s[i].exhausted_at < s[first].exhausted_at))
      first = (int)i;
  return first;
}

/* Returns the index of the first signal with role that was tested, or -1. */
static int find_tested(const ws_signal *s, size_t k, int role) {
  for (size_t i = 0; i < k; i++)
    if (s[i].role == role && s[i].pattern != WS_PATTERN_UNTESTED)
      return (int)i;
  return -1;
}

/* Returns the one memory finding's kind (leak, fragmentation or growth),
 * stores its series in *series and (growth) its WS_GROWTH_* cause in *cause,
 * or returns 0: live bytes sustained are a leak; else the finest growing
 * memory series names it, fragmentation when live bytes were tested, their
 * peaks are flat and, where the holes between blocks were tested,
 * they account for the growth (WS_HOLES_SHARE_DIVISOR). Rising live peaks
 * make it growth: LIVE_PEAKS when the live levels are flat, LIVE_RISING when
 * they rose significantly but in steps (a finalizer's sawtooth read through
 * segment medians, a plateau not yet reached), neither flat nor a leak. */
static int memory_kind(const ws_signal *s, size_t k, int *series, int *cause) {
  int live = find_tested(s, k, WS_ROLE_LIVE), holes = find_tested(s, k, WS_ROLE_HOLES);
  *cause = 0;
  if ((*series = find_growing(s, k, WS_ROLE_LIVE)) >= 0)
    return WS_KIND_LEAK;
  static const int order[] = {WS_ROLE_HEAP, WS_ROLE_LINEAR, WS_ROLE_LINEAR_ONE};
  for (size_t r = 0; r < 3; r++) {
    if ((*series = find_growing(s, k, order[r])) < 0)
      continue;
    if (live < 0)
      *cause = WS_GROWTH_UNOBSERVED;
    else if (s[live].peak_grows)
      *cause = s[live].pattern == WS_PATTERN_STEP ? WS_GROWTH_LIVE_RISING
                                                  : WS_GROWTH_LIVE_PEAKS;
    else if (holes >= 0 && s[holes].grown * WS_HOLES_SHARE_DIVISOR < s[*series].grown)
      *cause = WS_GROWTH_HEAP_END;
    return *cause != 0 ? WS_KIND_GROWTH : WS_KIND_FRAGMENTATION;
  }
  return 0;
}

/* Stores the memory questions the signals leave open in und[*nund..]: a
 * late step of linear memory counts only while no live bytes were tested
 * (they would tell a plateau from a leak); the JS heap and the stack are
 * left out (their checkpoints and pointer samples are not what more calls
 * add), and so are the holes (they only qualify another series' growth). */
static void memory_undecided(const ws_signal *s, size_t k, ws_undecided *und,
                             size_t *nund) {
  int live = find_tested(s, k, WS_ROLE_LIVE) >= 0;
  for (size_t i = 0; i < k; i++) {
    if (s[i].undecided == 0 || s[i].role == WS_ROLE_JS_HEAP ||
        s[i].role == WS_ROLE_STACK || s[i].role == WS_ROLE_HOLES)
      continue;
    if (s[i].undecided == WS_UNDECIDED_LATE_STEP && live)
      continue;
    und[(*nund)++] = (ws_undecided){s[i].undecided, (int)i, s[i].more_calls};
  }
}

int ws_classify(const ws_signal *s, size_t k, const ws_time_signal *time,
                double js_heap_threshold, ws_finding *out, size_t *n, int *below,
                ws_undecided *und, size_t *nund) {
  size_t count = 0;
  *below = -1;
  *nund = 0;
  int exhausted = find_exhausted(s, k);
  if (exhausted >= 0)
    out[count++] = (ws_finding){WS_KIND_MEMORY_EXHAUSTED, exhausted,
                                s[exhausted].exhausted_at, s[exhausted].bytes, 0};
  int stack = find_growing(s, k, WS_ROLE_STACK);
  if (stack >= 0)
    out[count++] = (ws_finding){WS_KIND_STACK_DRIFT, stack, -1, 0, 0};
  int mem = -1, cause = 0, kind = memory_kind(s, k, &mem, &cause);
  if (kind != 0)
    out[count++] = (ws_finding){kind, mem, -1, 0, cause};
  else if (exhausted < 0)
    memory_undecided(s, k, und, nund);
  /* The retained JS heaps (the worker's, the target's threads' summed) also
   * need practical significance: V8's own metadata keeps growing a little in
   * every run (WS_JS_HEAP_THRESHOLD). Each one that grew is a finding (as
   * many as out has room for). */
  for (size_t i = 0; i < k && count < WS_MAX_FINDINGS - 1; i++) {
    if (s[i].role != WS_ROLE_JS_HEAP || s[i].pattern != WS_PATTERN_SUSTAINED ||
        s[i].below_floor)
      continue;
    if (s[i].grown >= js_heap_threshold)
      out[count++] = (ws_finding){WS_KIND_JS_HEAP_GROWTH, (int)i, -1, 0, 0};
    else if (*below < 0)
      *below = (int)i;
  }
  if (time->flagged)
    out[count++] = (ws_finding){WS_KIND_SLOWDOWN, -1, -1, 0, 0};
  else if (time->undecided != 0)
    und[(*nund)++] = (ws_undecided){time->undecided, -1, time->more_calls};
  *n = count;
  uint32_t kinds = 0;
  for (size_t i = 0; i < count; i++)
    kinds |= WS_KIND_BIT(out[i].kind);
  return ws_judge_verdict(kinds, *nund > 0);
}
