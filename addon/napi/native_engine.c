/* createRunner's native option (runner.c): reads { path, names, results,
 * outputs } and opens the native engine (addon/core/ws_native.c) over the
 * ops' argument specs. On the worker's JS thread. */
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "ws.h"
#include "ws_native.h"

/* Most bytes of a library path or an export name read from JS. */
#define NAME_BYTES 4096

/* Reads desc[key] as a UTF-8 string into a new buffer (*out, freed by the
 * caller). */
static napi_status read_string(napi_env env, napi_value desc, const char *key,
                               char **out) {
  napi_value v;
  size_t len = 0;
  NAPI_CHECK(napi_get_named_property(env, desc, key, &v));
  NAPI_CHECK(napi_get_value_string_utf8(env, v, NULL, 0, &len));
  if (len >= NAME_BYTES)
    return napi_invalid_arg;
  *out = malloc(len + 1);
  if (*out == NULL)
    return napi_generic_failure;
  return napi_get_value_string_utf8(env, v, *out, len + 1, &len);
}

/* Reads the op names (names[k]) and result types (results[k]: a WS_VAL_*, or
 * -1) into ops[0..n_ops); names are new buffers the caller frees. */
static napi_status read_ops(napi_env env, napi_value desc, ws_native_op *ops,
                            uint32_t n_ops) {
  napi_value names, results;
  uint32_t n_names = 0, n_results = 0;
  NAPI_CHECK(napi_get_named_property(env, desc, "names", &names));
  NAPI_CHECK(napi_get_named_property(env, desc, "results", &results));
  NAPI_CHECK(napi_get_array_length(env, names, &n_names));
  NAPI_CHECK(napi_get_array_length(env, results, &n_results));
  if (n_names != n_ops || n_results != n_ops)
    return napi_invalid_arg;
  for (uint32_t k = 0; k < n_ops; k++) {
    napi_value name, result;
    size_t len = 0;
    int32_t type;
    NAPI_CHECK(napi_get_element(env, names, k, &name));
    NAPI_CHECK(napi_get_value_string_utf8(env, name, NULL, 0, &len));
    if (len >= NAME_BYTES)
      return napi_invalid_arg;
    char *copy = malloc(len + 1);
    if (copy == NULL)
      return napi_generic_failure;
    ops[k].name = copy;
    NAPI_CHECK(napi_get_value_string_utf8(env, name, copy, len + 1, &len));
    NAPI_CHECK(napi_get_element(env, results, k, &result));
    NAPI_CHECK(napi_get_value_int32(env, result, &type));
    ops[k].result = type;
  }
  return napi_ok;
}

/* Reads desc.outputs (an ArrayBuffer, or null) into *data and *capacity
 * (the values it has room for, rounded down to a power of two); keeps it
 * alive in *ref. */
static napi_status read_outputs(napi_env env, napi_value desc, uint8_t **data,
                                uint32_t *capacity, napi_ref *ref) {
  napi_value v;
  NAPI_CHECK(ws_napi_get_optional(env, desc, "outputs", &v));
  if (v == NULL)
    return napi_ok;
  void *bytes = NULL;
  size_t len = 0;
  NAPI_CHECK(napi_get_arraybuffer_info(env, v, &bytes, &len));
  if (len <= WS_OUTPUT_VALUES + 8)
    return napi_invalid_arg;
  uint32_t room = (uint32_t)((len - WS_OUTPUT_VALUES) / 8), power = 1;
  while (power * 2 <= room)
    power *= 2;
  NAPI_CHECK(napi_create_reference(env, v, 1, ref));
  *data = bytes;
  *capacity = power;
  return napi_ok;
}

napi_status ws_binding_native_open(napi_env env, napi_value desc, const ws_op_spec *specs,
                                   uint32_t n_ops, ws_native **out,
                                   napi_ref *outputs_ref) {
  char *path = NULL;
  uint8_t *outputs = NULL;
  uint32_t capacity = 0;
  ws_native_op *ops = calloc(n_ops ? n_ops : 1, sizeof *ops);
  if (ops == NULL)
    return napi_generic_failure;
  for (uint32_t k = 0; k < n_ops; k++)
    ops[k].spec = &specs[k];
  napi_status status = read_string(env, desc, "path", &path);
  if (status == napi_ok)
    status = read_ops(env, desc, ops, n_ops);
  if (status == napi_ok)
    status = read_outputs(env, desc, &outputs, &capacity, outputs_ref);
  int rc = 0;
  char why[512];
  if (status == napi_ok)
    rc = ws_native_open(path, ops, n_ops, outputs, capacity, out, why, sizeof why);
  for (uint32_t k = 0; k < n_ops; k++)
    free((char *)ops[k].name);
  free(ops);
  free(path);
  if (status == napi_invalid_arg) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "native must be { path, names, results, outputs } with one "
                          "name and result per op");
    return napi_pending_exception;
  }
  NAPI_CHECK(status);
  if (rc != 0) {
    ws_binding_throw_code(env, rc, why[0] != '\0' ? why : NULL);
    return napi_pending_exception;
  }
  return napi_ok;
}
