/* Tests of the native engine (ws_native.h) on build/ctest/libnative.so
 * (test/c/native/lib.c): each argument and result type, the checked
 * outputs' fold, buffers as handles, and the errors of a missing library or
 * export. Run from the repository root. */
#include <string.h>

#include "check.h"
#include "ws.h"
#include "ws_native.h"

#define LIBRARY "build/ctest/libnative.so"

/* An op spec of n sources of kinds and types. */
static ws_op_spec spec_of(uint32_t n, const uint8_t *kinds, const uint8_t *types) {
  ws_op_spec s = {.weight = 1, .n_args = n};
  for (uint32_t i = 0; i < n; i++)
    s.args[i] = (ws_arg_spec){kinds[i], types[i], 0, 0};
  return s;
}

/* The checked output the k-th call stored. */
static uint64_t output(const uint8_t *outputs, uint32_t k) {
  uint64_t v;
  memcpy(&v, outputs + WS_OUTPUT_VALUES + 8 * k, sizeof v);
  return v;
}

static void test_errors(void) {
  uint8_t kinds[1] = {WS_ARG_ITERATION}, types[1] = {WS_VAL_I32};
  ws_op_spec s = spec_of(1, kinds, types);
  ws_native_op op = {"no_such_function", &s, WS_VAL_I32};
  ws_native *n = NULL;
  char why[256];
  CHECK(ws_native_open(LIBRARY, &op, 1, NULL, 0, &n, why, sizeof why) == WS_ESYMBOL);
  CHECK(strcmp(why, "no_such_function") == 0);
  CHECK(ws_native_open("build/ctest/missing.so", &op, 1, NULL, 0, &n, why, sizeof why) ==
        WS_ELIBRARY);
  CHECK(strstr(why, "missing.so") != NULL);
  CHECK(n == NULL);
}

static void test_calls(void) {
  uint8_t it[2] = {WS_ARG_RANDOM, WS_ARG_RANDOM};
  uint8_t i32[2] = {WS_VAL_I32, WS_VAL_I32}, i64[2] = {WS_VAL_I64, WS_VAL_I32};
  uint8_t f64[1] = {WS_VAL_F64}, f32[1] = {WS_VAL_F32}, buf[1] = {WS_ARG_BUF};
  ws_op_spec specs[6] = {spec_of(2, it, i32), spec_of(2, it, i64),  spec_of(1, it, f64),
                         spec_of(1, it, f32), spec_of(1, buf, i32), spec_of(0, it, i32)};
  ws_native_op ops[6] = {
      {"add_i32", &specs[0], WS_VAL_I32},   {"mix_i64", &specs[1], WS_VAL_I64},
      {"half_f64", &specs[2], WS_VAL_F64},  {"twice_f32", &specs[3], WS_VAL_F32},
      {"sum_bytes", &specs[4], WS_VAL_I32}, {"nothing", &specs[5], -1}};
  static uint8_t outputs[WS_OUTPUT_VALUES + 8 * 8];
  ws_native *n = NULL;
  char why[256];
  int rc = ws_native_open(LIBRARY, ops, 6, outputs, 8, &n, why, sizeof why);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "ws_native_open: %d %s\n", rc, why);
  if (n == NULL)
    return;
  ws_engine *e = ws_native_engine(n);
  /* The library links no C library: the process's malloc (libc's, or the
   * sanitizer's in this test), named by the object defining it. */
  CHECK(ws_native_malloc_origin(n)[0] != '\0');
  ws_value a[2] = {{WS_VAL_I32, -5, 0}, {WS_VAL_I32, 1, 0}};
  CHECK(e->ops->stage_args(e, 0, a, 2) == 0 && e->ops->call(e, 0) == WS_CALL_RETURNED);
  ws_value b[2] = {{WS_VAL_I64, INT64_C(1) << 40, 0}, {WS_VAL_I32, 7, 0}};
  CHECK(e->ops->stage_args(e, 1, b, 2) == 0 && e->ops->call(e, 1) == 0);
  ws_value c[1] = {{WS_VAL_F64, 3, 3.0}};
  CHECK(e->ops->stage_args(e, 2, c, 1) == 0 && e->ops->call(e, 2) == 0);
  ws_value d[1] = {{WS_VAL_F32, 1, 1.5}};
  CHECK(e->ops->stage_args(e, 3, d, 1) == 0 && e->ops->call(e, 3) == 0);
  /* A buffer: a handle from alloc, its bytes through buffer, a native
   * pointer in the call. */
  uint32_t handle = 0;
  uint8_t *bytes = NULL;
  CHECK(e->ops->alloc(e, 4, &handle) == 0 && handle != 0);
  CHECK(e->ops->buffer(e, handle, 4, &bytes) == 0);
  memcpy(bytes, "\x01\x02\x03\xff", 4);
  ws_value p[2] = {{WS_VAL_I32, handle, 0}, {WS_VAL_I32, 4, 0}};
  CHECK(e->ops->stage_args(e, 4, p, 2) == 0 && e->ops->call(e, 4) == 0);
  CHECK(e->ops->free(e, handle, 4) == 0);
  CHECK(e->ops->buffer(e, handle, 4, &bytes) == WS_EINVAL);
  CHECK(e->ops->stage_args(e, 4, p, 2) == WS_EINVAL); /* freed: no such block */
  CHECK(e->ops->stage_args(e, 5, NULL, 0) == 0 && e->ops->call(e, 5) == 0);
  CHECK(e->ops->stage_args(e, 0, a, 1) == WS_EINVAL); /* wrong count */
  /* The fold (ws_protocol.h): i32 and f32 bits zero-extended, i64, f64
   * bits; no result: 0. */
  int32_t counter;
  memcpy(&counter, outputs + WS_OUTPUT_COUNTER, sizeof counter);
  CHECK(counter == 6);
  CHECK(output(outputs, 0) == UINT64_C(0xfffffffc));
  CHECK(output(outputs, 1) == (UINT64_C(3) << 40) + 7);
  double half = 1.5;
  uint64_t half_bits;
  memcpy(&half_bits, &half, sizeof half_bits);
  CHECK(output(outputs, 2) == half_bits);
  float three = 3.0f;
  uint32_t three_bits;
  memcpy(&three_bits, &three, sizeof three_bits);
  CHECK(output(outputs, 3) == three_bits);
  CHECK(output(outputs, 4) == 1 + 2 + 3 + 255);
  CHECK(output(outputs, 5) == 0);
  uint64_t sizes[1];
  CHECK(e->ops->memory_sizes(e, sizes, 0) == 0);
  /* The library defines its own mallinfo2. */
  uint64_t live = 0, heap = 0, free_bytes = 0;
  CHECK(ws_native_heap(n, &live, &heap, &free_bytes) == 0);
  CHECK(live == 100 && heap == 4096 + 8192 && free_bytes == 50);
  ws_native_close(n);
}

int main(void) {
  test_errors();
  test_calls();
  return check_report("native");
}
