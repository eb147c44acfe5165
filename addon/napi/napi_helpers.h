/* Small Node-API helpers every area of the binding uses: setting a named
 * number or string on an object and reading a typed array in place. They
 * throw nothing: each returns a napi_status for the caller to check with
 * NAPI_CHECK or NAPI_CALL (binding.h), or to turn into its own error. They
 * run on the JS thread that owns env. */
#ifndef WS_NAPI_HELPERS_H
#define WS_NAPI_HELPERS_H

#include <stddef.h>

#include <node_api.h>

/* Sets obj[name] = value (a JS number). Returns the status of the first
 * Node-API call that failed, else napi_ok. */
napi_status ws_napi_set_number(napi_env env, napi_value obj, const char *name,
                               double value);

/* Sets obj[name] = value (a JS string from the UTF-8 text value, or null
 * when value is NULL). Returns the status of the first Node-API call that
 * failed, else napi_ok. */
napi_status ws_napi_set_string(napi_env env, napi_value obj, const char *name,
                               const char *value);

/* Reads v as a typed array of type want, without copying: stores its data
 * pointer in *data and its length in elements in *length, and returns
 * napi_ok. Returns napi_invalid_arg, leaving *data and *length as they were
 * and throwing nothing, when v is not a typed array or is one of another
 * type; the status of a failed Node-API call otherwise. */
napi_status ws_napi_typed_array(napi_env env, napi_value v, napi_typedarray_type want,
                                void **data, size_t *length);

#endif
