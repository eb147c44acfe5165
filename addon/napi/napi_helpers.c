/* The binding's small Node-API helpers (napi_helpers.h). */
#include "napi_helpers.h"

#include "binding.h"
#include "ws.h"

napi_status ws_napi_set_number(napi_env env, napi_value obj, const char *name,
                               double value) {
  napi_value v;
  NAPI_CHECK(napi_create_double(env, value, &v));
  return napi_set_named_property(env, obj, name, v);
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
  size_t argc = 1;
  napi_value arg;
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, &arg, NULL, NULL) != napi_ok || argc < 1 ||
      ws_napi_unwrap_tagged(env, arg, tag) == NULL ||
      napi_remove_wrap(env, arg, &data) != napi_ok || data == NULL) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  return data;
}
