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

/* Returns the native data wrapped in v (napi_wrap) when v carries tag
 * (napi_type_tag_object) and is still wrapped, else NULL. Throws nothing. */
void *ws_napi_unwrap_tagged(napi_env env, napi_value v, const napi_type_tag *tag);

/* The body of a close(handle) binding: reads the one argument of info,
 * removes its wrap (so its finalizer never runs) and returns the native
 * data for the caller to free. Returns NULL after throwing WS_EINVAL with
 * usage as the message when the argument is missing, carries another tag
 * or no tag, or was closed already. */
void *ws_napi_take_wrapped(napi_env env, napi_callback_info info,
                           const napi_type_tag *tag, const char *usage);

#endif
