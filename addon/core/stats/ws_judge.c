/* The judge: the one place that turns the finding kinds of a run (or of a
 * comparison, or of a suite target against its expectation) and what became
 * of it into the verdict and the exit code, by each kind's gate and the
 * severity order of WS_FINDING_KINDS (docs/verdicts.md, "The judge"). */
#include "ws_stats.h"

/* Every finding kind's bit. */
#define WS_KIND_SET(name, value, js, gate) | WS_KIND_BIT(WS_KIND_##name)
static const uint32_t all_kinds = 0 WS_FINDING_KINDS(WS_KIND_SET);
#undef WS_KIND_SET

const char *ws_kind_name(int kind) {
  switch (kind) {
  case WS_KIND_STABLE:
    return "stable";
  case WS_KIND_INCONCLUSIVE:
    return "inconclusive";
  case WS_KIND_ERROR:
    return "error";
#define WS_KIND_NAME(name, value, js, gate)                                              \
  case WS_KIND_##name:                                                                   \
    return js;
    WS_FINDING_KINDS(WS_KIND_NAME)
#undef WS_KIND_NAME
  default:
    return "unknown";
  }
}

int ws_kind_gate(int kind) {
  switch (kind) {
#define WS_KIND_GATE(name, value, js, gate)                                              \
  case WS_KIND_##name:                                                                   \
    return WS_GATE_##gate;
    WS_FINDING_KINDS(WS_KIND_GATE)
#undef WS_KIND_GATE
  default:
    return 0;
  }
}

/* Returns whether a kind of gate names a verdict. */
static int names_verdict(int gate) {
  return gate == WS_GATE_FAIL_ON || gate == WS_GATE_ALWAYS;
}

int ws_judge_verdict(uint32_t kinds, int inconclusive) {
  /* The list's order is the severity order. */
  for (int k = 1; k < WS_KIND_COUNT; k++)
    if ((kinds & WS_KIND_BIT(k)) && names_verdict(ws_kind_gate(k)))
      return k;
  return inconclusive ? WS_KIND_INCONCLUSIVE : WS_KIND_STABLE;
}

int ws_verdict_of(const ws_verdict *v) {
  uint32_t kinds = 0;
  for (size_t i = 0; i < v->nfindings; i++)
    kinds |= WS_KIND_BIT(v->findings[i].kind);
  return ws_judge_verdict(kinds, v->nundecided > 0);
}

/* Returns whether one of kinds gates the exit code (exit 1). */
static int gated(const ws_judge_in *in) {
  for (int k = 1; k < WS_KIND_COUNT; k++) {
    if (!(in->kinds & WS_KIND_BIT(k)))
      continue;
    int gate = ws_kind_gate(k);
    if (gate == WS_GATE_ALWAYS || gate == WS_GATE_AGAINST ||
        (gate == WS_GATE_FAIL_ON && (in->fail_on & WS_KIND_BIT(k))))
      return 1;
  }
  return in->inconclusive && in->fail_on_inconclusive;
}

/* Returns whether status is a WS_RUN_* value. */
static int known_status(int status) {
  switch (status) {
#define WS_RUN_CASE(name, value, js)                                                     \
  case WS_RUN_##name:                                                                    \
    return 1;
    WS_RUN_STATUSES(WS_RUN_CASE)
#undef WS_RUN_CASE
  default:
    return 0;
  }
}

int ws_judge(const ws_judge_in *in, ws_judgement *out) {
  if (!known_status(in->status) || (in->kinds & ~all_kinds) != 0 ||
      (in->fail_on & ~all_kinds) != 0)
    return WS_EINVAL;
  int failed = in->status == WS_RUN_FAILED;
  for (int k = 1; k < WS_KIND_COUNT; k++)
    if ((in->kinds & WS_KIND_BIT(k)) && ws_kind_gate(k) == WS_GATE_FAILS_RUN)
      failed = 1;
  if (failed) {
    *out = (ws_judgement){WS_KIND_ERROR, WS_EXIT_FAILED};
    return 0;
  }
  int verdict = ws_judge_verdict(in->kinds, in->inconclusive);
  int code = WS_EXIT_OK;
  if (in->status == WS_RUN_INTERRUPTED)
    code = WS_EXIT_INTERRUPTED;
  else if (in->status == WS_RUN_INCOMPLETE)
    code = WS_EXIT_FAILED;
  else if (gated(in))
    code = WS_EXIT_FINDING;
  *out = (ws_judgement){verdict, code};
  return 0;
}
