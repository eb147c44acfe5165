/* The binding's small Node-API helpers (napi_helpers.h). */
#include "napi_helpers.h"

#include <string.h>

#include "binding.h"
#include "ws.h"

napi_status ws_napi_set_number(napi_env env, napi_value obj, const char *name,
                               double value) {
  napi_value v;
  NAPI_CHECK(napi_create_double(env, value, &v));
  return napi_set_named_property(env, obj, name, v);
}

napi_status ws_napi_set_numbers(napi_env env, napi_value obj,
                                const ws_napi_number *numbers, size_t n) {
  for (size_t i = 0; i < n; i++)
    NAPI_CHECK(ws_napi_set_number(env, obj, numbers[i].name, numbers[i].value));
  return napi_ok;
}

napi_status ws_napi_set_string(napi_env env, napi_value obj, const char *name,
                               const char *value) {
  napi_value v;
  if (value == NULL)
    NAPI_CHECK(napi_get_null(env, &v));
  else
    NAPI_CHECK(napi_create_string_utf8(env, value, NAPI_AUTO_LENGTH, &v));
  return napi_set_named_property(env, obj, name, v);
}

napi_status ws_napi_set_bool(napi_env env, napi_value obj, const char *name, int value) {
  napi_value v;
  NAPI_CHECK(napi_get_boolean(env, value != 0, &v));
  return napi_set_named_property(env, obj, name, v);
}

napi_status ws_napi_set_array(napi_env env, napi_value obj, const char *name, size_t n,
                              ws_napi_item item, const void *items) {
  napi_value array;
  NAPI_CHECK(napi_create_array_with_length(env, n, &array));
  for (size_t i = 0; i < n; i++) {
    napi_value v;
    NAPI_CHECK(item(env, items, i, &v));
    NAPI_CHECK(napi_set_element(env, array, (uint32_t)i, v));
  }
  return napi_set_named_property(env, obj, name, array);
}

napi_status ws_napi_typed_array(napi_env env, napi_value v, napi_typedarray_type want,
                                void **data, size_t *length) {
  bool is_typed = false;
  napi_typedarray_type type;
  void *p = NULL;
  size_t n = 0;
  NAPI_CHECK(napi_is_typedarray(env, v, &is_typed));
  if (!is_typed)
    return napi_invalid_arg;
  NAPI_CHECK(napi_get_typedarray_info(env, v, &type, &n, &p, NULL, NULL));
  if (type != want)
    return napi_invalid_arg;
  *data = p;
  *length = n;
  return napi_ok;
}

int ws_napi_args(napi_env env, napi_callback_info info, size_t n, size_t required,
                 napi_value *argv, const char *usage) {
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
    ws_binding_throw_last(env);
    return 0;
  }
  if (argc < required) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return 0;
  }
  return 1;
}

void *ws_napi_handle_args(napi_env env, napi_callback_info info, const napi_type_tag *tag,
                          napi_value *handle, size_t n, napi_value *argv,
                          const char *usage) {
  napi_value all[WS_NAPI_MAX_ARGS + 1];
  size_t argc = n + 1;
  void *data = NULL;
  if (n > WS_NAPI_MAX_ARGS ||
      napi_get_cb_info(env, info, &argc, all, NULL, NULL) != napi_ok || argc < n + 1 ||
      (data = ws_napi_unwrap_tagged(env, all[0], tag)) == NULL) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  if (handle != NULL)
    *handle = all[0];
  if (n > 0)
    memcpy(argv, all + 1, n * sizeof *argv);
  return data;
}

napi_value ws_napi_new_handle(napi_env env, void *data, napi_finalize finalize,
                              const napi_type_tag *tag) {
  napi_value obj;
  if (napi_create_object(env, &obj) != napi_ok ||
      napi_type_tag_object(env, obj, tag) != napi_ok ||
      napi_wrap(env, obj, data, finalize, NULL, NULL) != napi_ok) {
    finalize(env, data, NULL);
    ws_binding_throw_last(env);
    return NULL;
  }
  return obj;
}

napi_status ws_napi_get_optional(napi_env env, napi_value obj, const char *key,
                                 napi_value *out) {
  napi_value v;
  napi_valuetype type;
  NAPI_CHECK(napi_get_named_property(env, obj, key, &v));
  NAPI_CHECK(napi_typeof(env, v, &type));
  *out = type == napi_undefined || type == napi_null ? NULL : v;
  return napi_ok;
}

int ws_napi_typed_arg(napi_env env, napi_value v, napi_typedarray_type want, void **data,
                      size_t *length, const char *usage) {
  if (ws_napi_typed_array(env, v, want, data, length) == napi_ok)
    return 1;
  ws_binding_throw_code(env, WS_EINVAL, usage);
  return 0;
}

/* The bytes of one element of a typed array of type. */
static size_t element_bytes(napi_typedarray_type type) {
  switch (type) {
  case napi_int16_array:
  case napi_uint16_array:
    return 2;
  case napi_int32_array:
  case napi_uint32_array:
  case napi_float32_array:
    return 4;
  case napi_float64_array:
  case napi_bigint64_array:
  case napi_biguint64_array:
    return 8;
  default:
    return 1;
  }
}

napi_status ws_napi_new_typed_array(napi_env env, napi_typedarray_type type, size_t n,
                                    void **data, napi_value *out) {
  napi_value buffer;
  NAPI_CHECK(napi_create_arraybuffer(env, n * element_bytes(type), data, &buffer));
  return napi_create_typedarray(env, type, n, buffer, 0, out);
}

napi_status ws_napi_set_typed_copy(napi_env env, napi_value obj, const char *name,
                                   napi_typedarray_type type, const void *src, size_t n) {
  void *data;
  napi_value v;
  NAPI_CHECK(ws_napi_new_typed_array(env, type, n, &data, &v));
  if (n > 0)
    memcpy(data, src, n * element_bytes(type));
  return napi_set_named_property(env, obj, name, v);
}

int ws_napi_rc_ok(napi_env env, int rc) {
  if (rc >= 0)
    return 1;
  ws_binding_throw_code(env, rc, NULL);
  return 0;
}

void *ws_napi_unwrap_tagged(napi_env env, napi_value v, const napi_type_tag *tag) {
  bool tagged = false;
  void *data = NULL;
  if (napi_check_object_type_tag(env, v, tag, &tagged) != napi_ok || !tagged ||
      napi_unwrap(env, v, &data) != napi_ok)
    return NULL;
  return data;
}

void *ws_napi_take_wrapped(napi_env env, napi_callback_info info,
                           const napi_type_tag *tag, const char *usage) {
  napi_value handle;
  void *data = NULL;
  if (ws_napi_handle_args(env, info, tag, &handle, 0, NULL, usage) == NULL)
    return NULL;
  if (napi_remove_wrap(env, handle, &data) != napi_ok || data == NULL) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  return data;
}
