/* The judge (ws_judge.c): each kind's gate, the severity order, and what
 * becomes of the run, turned into one verdict and one exit code. */
#include <string.h>

#include "check.h"
#include "ws_stats.h"

#define BIT WS_KIND_BIT

/* Judges and returns the verdict; stores the exit code in *code. */
static int judge(int status, uint32_t kinds, uint32_t fail_on, int fail_on_open, int open,
                 int *code) {
  ws_judge_in in = {status, kinds, fail_on, fail_on_open, open};
  ws_judgement j = {99, 99};
  CHECK(ws_judge(&in, &j) == 0);
  *code = j.exit_code;
  return j.verdict;
}

/* Every kind that names a verdict, as --fail-on's default lists them. */
static uint32_t verdict_kinds(void) {
  uint32_t set = 0;
  for (int k = 1; k < WS_KIND_COUNT; k++)
    if (ws_kind_gate(k) == WS_GATE_FAIL_ON || ws_kind_gate(k) == WS_GATE_ALWAYS)
      set |= BIT(k);
  return set;
}

/* Every kind has a gate and a name; the verdict kinds come first. */
static void test_gates(void) {
  int seen_other = 0;
  for (int k = 1; k < WS_KIND_COUNT; k++) {
    int gate = ws_kind_gate(k);
    CHECK(gate >= WS_GATE_FAIL_ON && gate <= WS_GATE_FAILS_RUN);
    CHECK(strcmp(ws_kind_name(k), "unknown") != 0);
    int names = gate == WS_GATE_FAIL_ON || gate == WS_GATE_ALWAYS;
    CHECK(!(names && seen_other));
    seen_other |= !names;
  }
  CHECK(ws_kind_gate(0) == 0 && ws_kind_gate(WS_KIND_COUNT) == 0);
  CHECK(ws_kind_gate(WS_KIND_BUDGET) == WS_GATE_ALWAYS);
  CHECK(ws_kind_gate(WS_KIND_HUNG_CALL) == WS_GATE_FAILS_RUN);
  CHECK(ws_kind_gate(WS_KIND_REGRESSION) == WS_GATE_AGAINST);
  CHECK(strcmp(ws_kind_name(WS_KIND_ERROR), "error") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_EXPECTATION), "expectation") == 0);
}

/* The verdict: the most severe kind that names one, else inconclusive, else
 * stable; comparisons never name it. */
static void test_verdict(void) {
  CHECK(ws_judge_verdict(0, 0) == WS_KIND_STABLE);
  CHECK(ws_judge_verdict(0, 1) == WS_KIND_INCONCLUSIVE);
  CHECK(ws_judge_verdict(BIT(WS_KIND_SLOWDOWN), 1) == WS_KIND_SLOWDOWN);
  CHECK(ws_judge_verdict(BIT(WS_KIND_BUDGET), 0) == WS_KIND_BUDGET);
  CHECK(
      ws_judge_verdict(BIT(WS_KIND_BUDGET) | BIT(WS_KIND_SLOWDOWN) | BIT(WS_KIND_GROWTH),
                       0) == WS_KIND_GROWTH);
  CHECK(ws_judge_verdict(BIT(WS_KIND_LEAK) | BIT(WS_KIND_MEMORY_EXHAUSTED), 0) ==
        WS_KIND_MEMORY_EXHAUSTED);
  CHECK(ws_judge_verdict(BIT(WS_KIND_REGRESSION) | BIT(WS_KIND_EXPECTATION), 1) ==
        WS_KIND_INCONCLUSIVE);
  CHECK(ws_judge_verdict(BIT(WS_KIND_REGRESSION) | BIT(WS_KIND_LEAK), 0) == WS_KIND_LEAK);
}

/* Exit codes of a completed run: --fail-on gates the trend kinds, budgets
 * and comparisons always gate, inconclusive only when listed. */
static void test_completed(void) {
  int code;
  uint32_t all = verdict_kinds();
  CHECK(judge(WS_RUN_COMPLETED, 0, all, 0, 0, &code) == WS_KIND_STABLE &&
        code == WS_EXIT_OK);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_LEAK), all, 0, 0, &code) == WS_KIND_LEAK &&
        code == WS_EXIT_FINDING);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_LEAK), 0, 0, 0, &code) == WS_KIND_LEAK &&
        code == WS_EXIT_OK);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_LEAK), BIT(WS_KIND_SLOWDOWN), 0, 0, &code) ==
            WS_KIND_LEAK &&
        code == WS_EXIT_OK);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_BUDGET), 0, 0, 0, &code) == WS_KIND_BUDGET &&
        code == WS_EXIT_FINDING);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_REGRESSION), 0, 0, 0, &code) ==
            WS_KIND_STABLE &&
        code == WS_EXIT_FINDING);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_EXPECTATION), 0, 0, 1, &code) ==
            WS_KIND_INCONCLUSIVE &&
        code == WS_EXIT_FINDING);
  CHECK(judge(WS_RUN_COMPLETED, 0, all, 0, 1, &code) == WS_KIND_INCONCLUSIVE &&
        code == WS_EXIT_OK);
  CHECK(judge(WS_RUN_COMPLETED, 0, 0, 1, 1, &code) == WS_KIND_INCONCLUSIVE &&
        code == WS_EXIT_FINDING);
  /* An open question under a finding still gates when listed. */
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_SLOWDOWN), 0, 1, 1, &code) ==
            WS_KIND_SLOWDOWN &&
        code == WS_EXIT_FINDING);
  /* The allocator running dry is the module's finding, not a failure. */
  CHECK(judge(WS_RUN_MODULE_EXHAUSTED, BIT(WS_KIND_MEMORY_EXHAUSTED), all, 0, 0, &code) ==
            WS_KIND_MEMORY_EXHAUSTED &&
        code == WS_EXIT_FINDING);
}

/* What became of the run comes first: a failure (or a hung call) is the
 * verdict error and exit 3; an interruption exits 130 with the verdict of
 * the calls done; a pass that failed exits 3 with the verdict standing. */
static void test_status(void) {
  int code;
  uint32_t all = verdict_kinds();
  CHECK(judge(WS_RUN_FAILED, BIT(WS_KIND_LEAK), all, 0, 0, &code) == WS_KIND_ERROR &&
        code == WS_EXIT_FAILED);
  CHECK(judge(WS_RUN_COMPLETED, BIT(WS_KIND_HUNG_CALL), 0, 0, 0, &code) ==
            WS_KIND_ERROR &&
        code == WS_EXIT_FAILED);
  CHECK(judge(WS_RUN_INTERRUPTED, BIT(WS_KIND_HUNG_CALL), 0, 0, 0, &code) ==
            WS_KIND_ERROR &&
        code == WS_EXIT_FAILED);
  CHECK(judge(WS_RUN_FAILED, BIT(WS_KIND_EXPECTATION), 0, 0, 0, &code) == WS_KIND_ERROR &&
        code == WS_EXIT_FAILED);
  CHECK(judge(WS_RUN_INTERRUPTED, BIT(WS_KIND_LEAK), all, 0, 0, &code) == WS_KIND_LEAK &&
        code == WS_EXIT_INTERRUPTED);
  CHECK(judge(WS_RUN_INTERRUPTED, BIT(WS_KIND_REGRESSION), 0, 1, 1, &code) ==
            WS_KIND_INCONCLUSIVE &&
        code == WS_EXIT_INTERRUPTED);
  CHECK(judge(WS_RUN_INCOMPLETE, BIT(WS_KIND_BUDGET), 0, 0, 0, &code) == WS_KIND_BUDGET &&
        code == WS_EXIT_FAILED);
  CHECK(judge(WS_RUN_INCOMPLETE, 0, 0, 0, 0, &code) == WS_KIND_STABLE &&
        code == WS_EXIT_FAILED);
}

/* An unknown status or kind bit is refused, the result untouched. */
static void test_invalid(void) {
  ws_judgement j = {7, 7};
  ws_judge_in in = {0, 0, 0, 0, 0};
  CHECK(ws_judge(&in, &j) == WS_EINVAL);
  in.status = 99;
  CHECK(ws_judge(&in, &j) == WS_EINVAL);
  in = (ws_judge_in){WS_RUN_COMPLETED, BIT(0), 0, 0, 0};
  CHECK(ws_judge(&in, &j) == WS_EINVAL);
  in = (ws_judge_in){WS_RUN_COMPLETED, BIT(WS_KIND_COUNT), 0, 0, 0};
  CHECK(ws_judge(&in, &j) == WS_EINVAL);
  in = (ws_judge_in){WS_RUN_COMPLETED, 0, 1u << 31, 0, 0};
  CHECK(ws_judge(&in, &j) == WS_EINVAL);
  CHECK(j.verdict == 7 && j.exit_code == 7);
  /* The exit codes are the README's. */
  CHECK(WS_EXIT_OK == 0 && WS_EXIT_FINDING == 1 && WS_EXIT_USAGE == 2 &&
        WS_EXIT_FAILED == 3 && WS_EXIT_INTERRUPTED == 130);
}

int main(void) {
  test_gates();
  test_verdict();
  test_completed();
  test_status();
  test_invalid();
  return check_report("judge");
}
